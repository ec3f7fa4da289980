"""bgcli against GNU Backgammon on data made with seeds no other test data use
(tests/data/heldout-fresh, NOTE.md says how): a modest sample of a larger
held-out run that agreed everywhere, kept so that a clone without gnubg checks it.

- legal plays of self-play and random positions (races, bear-offs, contact
  bear-offs, bar entries, primes, hypergammon of 1, 2 and 3 checkers): the same
  resulting positions, each once, and gnubg's own text for each play;
- GNUbg IDs, XGIDs and FIBS boards of random game states: read and written as gnubg does;
- planted slips in gnubg's .mat exports: the audit finds each, first, at its line and of its kind;
- cube decisions: tests/test_cube.py checks ``cube.jsonl`` with its other gnubg cases.
"""
from __future__ import annotations

import json

import pytest

from bgcli.core.generator import legal_plays
from bgcli.core.ids import fibs, gnubg_id, parse_fibs, parse_gnubg_id, parse_xgid, xgid
from bgcli.core.notation import play_text
from bgcli.core.position import Position
from bgcli.scale.archive import audit_file

from conftest import DATA, committed, gnubgid_norm

FRESH = DATA / "heldout-fresh"


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in committed(FRESH / name).read_text().splitlines() if line.strip()]


def test_legal_plays_are_gnubgs():
    records = rows("legal.jsonl")
    kinds = {r["source"].split(":")[-1] if r["source"].startswith("synthetic") else "selfplay" for r in records}
    assert {"selfplay", "bar", "bearoff", "contact_bearoff", "prime", "race", "hypergammon1", "hypergammon3"} <= kinds
    for record in records:
        position = Position.from_id(record["position_id"])
        plays = legal_plays(position, record["dice"])
        ours = {play.result_id(): play_text(play) for play in plays}
        assert len(ours) == len(plays), record["position_id"]
        assert ours == {p["result_id"]: p["move"] for p in record["plays"]}, (record["position_id"], record["dice"])


def test_ids_read_and_written_as_gnubg_does():
    canonical = gnubgid_norm().canonical
    for row in rows("ids.jsonl"):
        game = parse_gnubg_id(row["gnubg_id"])
        assert gnubg_id(game) == row["gnubg_id"]
        expected = canonical(row["gnubg_id"])
        assert canonical(gnubg_id(parse_xgid(row["xgid"]))) == expected
        # FIBS cannot say whether the Jacoby rule is on (the last field)
        assert canonical(gnubg_id(parse_fibs(row["fibs"])))[:-1] == expected[:-1]
        mine, theirs = xgid(game).split(":"), row["xgid"].split(":")
        if not row["length"]:   # a GNUbg ID keeps no money score: gnubg's XGID has the one it was given
            theirs[5:7] = mine[5:7]
        assert mine == theirs
        assert fibs(game).split(":")[3:] == row["fibs"].split(":")[3:]   # the players' names aside


CASES = rows("slips/expected.jsonl") if (FRESH / "slips" / "expected.jsonl").exists() else []


@pytest.mark.parametrize("case", CASES, ids=[case["file"] for case in CASES])
def test_each_planted_slip_is_found_first_at_its_line(case):
    problems = audit_file(str(FRESH / "slips" / case["file"])).problems
    assert [(p["line"], p["kind"]) for p in problems] == [(case["line"], case["kind"])]


def test_the_slips_are_of_every_kind():
    assert {case["kind"] for case in rows("slips/expected.jsonl")} == {"dice", "dance", "play", "points", "cube"}
