"""States reached by GNU Backgammon's own commands at the edges of its Match ID (tests/data/heldout-matchid-states,
NOTE.md says how they were made): money with and without the Jacoby rule, 1- to 9-point matches at any score,
the Crawford game and after it, cubes to 64 and either owner, either player on turn; then nothing, a roll, a
double waiting, a double taken, or a resignation of 1, 2 or 3 points offered. For each: gnubg's GNUbg ID and its
FIBS board (`show board`, rawboard).
"""
from __future__ import annotations

import json

from bgcli.core.ids import fibs, gnubg_id, parse_fibs, parse_gnubg_id

from conftest import DATA, committed, gnubgid_norm

ROWS = [json.loads(line) for line in committed(DATA / "heldout-matchid-states" / "states.jsonl").read_text()
        .splitlines() if line.strip()]


def differing(ours: str, theirs: str) -> set[str]:
    """The Match ID fields in which two GNUbg IDs of the same position differ."""
    assert ours.split(":")[0] == theirs.split(":")[0]
    mine, gnubgs = (gnubgid_norm().match_fields(text.split(":")[1]) for text in (ours, theirs))
    return {field for field in mine if mine[field] != gnubgs[field]}


def test_the_states_reach_every_edge():
    fields = [gnubgid_norm().match_fields(row["gnubgid"].split(":")[1]) for row in ROWS]
    assert {f["resign"] for f in fields} == {0, 1, 2, 3}
    assert {f["doubled"] for f in fields} == {0, 1} and {f["crawford"] for f in fields} == {0, 1}
    assert {f["owner"] for f in fields} == {0, 1, 3} and {f["turn"] != f["move"] for f in fields} == {False, True}
    assert {f["nojacoby"] for f in fields if not f["length"]} == {0, 1}
    assert any(f["d1"] != f["d2"] for f in fields) and any(f["d1"] == f["d2"] > 0 for f in fields)


def test_bgcli_reads_and_writes_every_gnubg_id_as_gnubg():
    for row in ROWS:
        assert gnubg_id(parse_gnubg_id(row["gnubgid"])) == row["gnubgid"], row


def test_bgclis_fibs_board_of_each_state_is_gnubgs():
    """Two things a GNUbg ID cannot say: the order the dice were rolled in (gnubg's Match ID writes the higher
    die first, its board as set, `set dice 1 5`), and gnubg's post-Crawford field of a 1-point match at 0-0,
    which its `set score` sets 0 (only a longer match has a game after the Crawford game) where a game it
    begins sets it 1, as bgcli does."""
    for row in ROWS:
        ours, theirs = fibs(parse_gnubg_id(row["gnubgid"])).split(":"), row["fibs"].split(":")
        fields = gnubgid_norm().match_fields(row["gnubgid"].split(":")[1])
        if ours[33:37] != theirs[33:37]:
            assert sorted(ours[33:35]) == sorted(theirs[33:35]) and ours[33:37] == ours[33:35] * 2, row
            ours[33:37] = theirs[33:37]
        if fields["length"] == 1 and ours[51] != theirs[51]:
            assert (ours[51], theirs[51]) == ("1", "0"), row
            ours[51] = theirs[51]
        assert ours[3:] == theirs[3:], row


def test_bgcli_reads_gnubgs_fibs_board_as_gnubgs_id():
    """Every field but what a FIBS board has no place for: a resignation offered (gnubg's board shows the
    state before it), and the Jacoby rule of a money game (read as on, gnubg's default). The dice are in the
    Match ID higher first, as gnubg's MatchID() writes them, whatever order the board has them in."""
    for row in ROWS:
        fields = gnubgid_norm().match_fields(row["gnubgid"].split(":")[1])
        allowed = {"resign", "turn"} if fields["resign"] else set()
        if not fields["length"]:
            allowed.add("nojacoby")
        assert differing(gnubg_id(parse_fibs(row["fibs"])), row["gnubgid"]) <= allowed, row
