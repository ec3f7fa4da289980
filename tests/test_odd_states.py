"""Odd states against GNU Backgammon: 15 checkers on one point, many on the bar, a side with none left.

tests/data/odd/odd.jsonl (made by tests/data/odd/make_odd.py, whose docstring
says how): gnubg's GNUbg ID, FIBS board and legal plays of states that the
oracle samples do not have. bgcli writes gnubg's ID and FIBS board, reads
gnubg's FIBS board back to the same state, reads its own XGID back to it, and
lists gnubg's plays.
"""
from __future__ import annotations

import json

from bgcli.core.generator import legal_plays
from bgcli.core.ids import fibs, gnubg_id, parse_fibs, parse_gnubg_id, parse_xgid, xgid
from bgcli.core.notation import play_text
from bgcli.core.position import Position

from conftest import DATA, gnubgid_norm

ROWS = [json.loads(line) for line in (DATA / "odd" / "odd.jsonl").read_text().splitlines()]


def _canonical():
    return gnubgid_norm().canonical


def _sides(row: dict) -> tuple:
    position = Position.from_id(row["gnubg_id"].split(":")[0])
    return position.player, position.opponent


def test_the_data_have_the_odd_states():
    sides = [side for row in ROWS for side in _sides(row)]
    assert sum(max(side[1:25]) == 15 for side in sides) >= 10      # all 15 on one point
    assert sum(side[25] >= 5 for side in sides) >= 10               # five or more on the bar
    assert sum(side[0] == 15 for side in sides) >= 10               # all borne off: the game is over
    assert sum(side[0] == 14 for side in sides) >= 10
    assert {parse_gnubg_id(row["gnubg_id"]).match.crawford for row in ROWS} == {False, True}


def test_ids_fibs_and_xgid_of_odd_states_are_gnubgs():
    canonical = _canonical()
    for row in ROWS:
        state = parse_gnubg_id(row["gnubg_id"])
        assert gnubg_id(state) == row["gnubg_id"]
        # gnubg's FIBS board, but for the players' names (a GNUbg ID has none)
        assert fibs(state).split(":")[3:] == row["fibs"].split(":")[3:], row["gnubg_id"]
        # a FIBS board cannot say whether the Jacoby rule is on (the last canonical field)
        assert canonical(gnubg_id(parse_fibs(row["fibs"])))[:-1] == canonical(row["gnubg_id"])[:-1], row["fibs"]
        assert canonical(gnubg_id(parse_xgid(xgid(state)))) == canonical(row["gnubg_id"])


def test_legal_plays_of_odd_states_are_gnubgs():
    asked = 0
    for row in ROWS:
        position = Position.from_id(row["gnubg_id"].split(":")[0])
        for dice, theirs in row["legal"].items():
            roll = (int(dice[0]), int(dice[1]))
            plays = legal_plays(position, roll)
            assert {play.result_id() for play in plays} == {result for _, result in theirs}, (row["gnubg_id"], dice)
            # and in gnubg's words
            assert {play_text(play) for play in plays} == {move for move, _ in theirs}, (row["gnubg_id"], dice)
            asked += 1
    assert asked >= 500
