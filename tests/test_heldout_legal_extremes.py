"""bgcli's legal plays against GNU Backgammon's at the rules' edges, on
positions no other test data use (tests/data/heldout-legal-extremes, NOTE.md
says how they were made): 4 to 15 checkers on the bar, both sides on the bar,
15 checkers on one point, bear-offs from two or three points with gaps, 1 to 6
checkers a side, a closed or all-but-closed board to enter against. Each
position with all 21 rolls: the same resulting positions, each once, gnubg's
own text for each play; and ``bgcli moves --batch`` gives the same. The same checks on the sample of
tests/data/heldout-legal-scale (5,040 queries of generated positions: checkers scattered anywhere with some on
the bar, bear-offs against the opponent's checkers in the home board, back checkers behind a prime, sides
blocked by 7 to 10 made points).
"""
from __future__ import annotations

import json
from collections import defaultdict

import pytest
from click.testing import CliRunner

from bgcli.cli import cli
from bgcli.core.generator import legal_plays
from bgcli.core.ids import gnubg_id, parse_gnubg_id, parse_xgid, xgid
from bgcli.core.notation import play_text
from bgcli.core.position import Position

from conftest import DATA, committed

FOLDER = DATA / "heldout-legal-extremes"
# each folder's kinds of positions (gnubg_extremes.py's docstring says what each is)
KINDS = {"heldout-legal-extremes": {"bar_many", "both_bar", "stack", "bearoff_gaps", "few", "closed"},
         "heldout-legal-scale": {"scatter", "hit_off", "primed", "blocked"}}


def rows(folder: str) -> list[dict]:
    return [json.loads(line) for line in committed(DATA / folder / "legal.jsonl").read_text().splitlines()
            if line.strip()]


@pytest.mark.parametrize("folder", sorted(KINDS))
def test_every_kind_and_roll_is_kept(folder):
    rolls: dict[tuple[str, str], set[tuple[int, int]]] = defaultdict(set)
    for row in rows(folder):
        rolls[row["source"].split(":")[1], row["position_id"]].add(tuple(row["dice"]))
    assert {kind for kind, _ in rolls} == KINDS[folder]
    assert all(len(seen) == 21 for seen in rolls.values())


@pytest.mark.parametrize("folder", sorted(KINDS))
def test_legal_plays_are_gnubgs(folder):
    for row in rows(folder):
        plays = legal_plays(Position.from_id(row["position_id"]), row["dice"])
        ours = {play.result_id(): play_text(play) for play in plays}
        assert len(ours) == len(plays), row["position_id"]
        assert ours == {p["result_id"]: p["move"] for p in row["plays"]}, (row["position_id"], row["dice"])


@pytest.mark.parametrize("folder", sorted(KINDS))
def test_moves_batch_gives_gnubgs_plays(folder, tmp_path):
    queries = tmp_path / "queries.txt"
    asked = rows(folder)
    queries.write_text("".join(f"{row['position_id']} {row['dice'][0]}{row['dice'][1]}\n" for row in asked))
    result = CliRunner().invoke(cli, ["moves", "--batch", str(queries)])
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.output.splitlines()]
    assert len(answers) == len(asked)
    for row, answer in zip(asked, answers):
        assert answer["position_id"] == row["position_id"]
        assert {p["position_id"]: p["play"] for p in answer["plays"]} == \
            {p["result_id"]: p["move"] for p in row["plays"]}, (row["position_id"], row["dice"])


def test_bgclis_ids_of_the_positions_are_read_by_gnubg_as_they_are():
    """Each of the 150 positions (money, cube centred, player 0 on roll): bgcli's XGID and GNUbg ID, each
    given to gnubg (``set xgid``, ``set gnubgid``), came back as gnubg's own Position ID and Match ID of the
    same state; bgcli still writes and reads those IDs."""
    written = [json.loads(line) for line in committed(FOLDER / "ids.jsonl").read_text().splitlines() if line.strip()]
    assert len(written) == 150 and {row["kind"] for row in written} == KINDS["heldout-legal-extremes"]
    for row in written:
        game = parse_gnubg_id(row["position_id"] + ":cAkAAAAAAAAA")
        assert (xgid(game), gnubg_id(game)) == (row["xgid"], row["gnubgid"])
        assert gnubg_id(parse_xgid(row["xgid"])) == row["gnubgid"]
        assert row["gnubg_read_xgid"] == row["gnubg_read_gnubgid"] == row["gnubgid"].replace(":", " ")
