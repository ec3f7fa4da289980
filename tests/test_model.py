"""Positions, Position IDs, dice, board26, pips and apply_steps."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.errors import BgcliError, IllegalPlayError, InvalidDiceError, InvalidPositionError
from bgcli.core.position import BAR, OFF, Position
from bgcli.core.spelling import parse_dice
from bgcli.core.generator import Step
from bgcli.core.judge import apply_steps

from conftest import ORACLE as ORACLE_DIR, committed

ORACLE = ORACLE_DIR / "legal_sample.jsonl"
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


@st.composite
def positions(draw) -> Position:
    """Any valid position: up to 15 checkers a side, anywhere, no shared point."""
    player = [0] * 26
    opponent = [0] * 26
    for _ in range(draw(st.integers(0, 15))):
        player[draw(st.integers(1, 25))] += 1
    for _ in range(draw(st.integers(0, 15))):
        p = draw(st.integers(1, 25))
        if p == BAR or not player[25 - p]:
            opponent[p] += 1
    player[OFF] = 15 - sum(player)
    opponent[OFF] = 15 - sum(opponent)
    return Position(tuple(player), tuple(opponent))


# --- Position ID -------------------------------------------------------------------

def test_start_position():
    start = Position.start()
    assert start.id() == "4HPwATDgc/ABMA"
    assert Position.from_id("4HPwATDgc/ABMA") == start
    assert start.pips() == (167, 167)
    assert start.player[6] == 5 and start.player[24] == 2 and start.opponent[13] == 5


def test_position_id_bit_layout():
    # player on roll: one checker on its 1-point; opponent: none on the board.
    # Bits: opponent's 25 empty slots (25 zeros), then "10" and 24 zeros: bit 25 set.
    position = Position.from_sides([1] + [0] * 24, [0] * 25)
    assert position.id() == "AAAAAgAAAAAAAA"
    # the opponent comes first: one checker on its bar is bit 24 set.
    assert Position.from_sides([0] * 25, [0] * 24 + [1]).id() == "AAAAAQAAAAAAAA"


@settings(max_examples=300, deadline=None)
@given(positions())
def test_position_id_round_trip(position):
    pid = position.id()
    assert len(pid) == 14 and set(pid) <= set(B64)
    assert Position.from_id(pid) == position
    assert Position.from_id(position.swap().id()) == position.swap()


def test_oracle_ids_round_trip():
    with committed(ORACLE).open() as f:
        for line in list(f)[::10]:
            record = json.loads(line)
            assert Position.from_id(record["position_id"]).id() == record["position_id"]
            for play in record["plays"]:
                assert Position.from_id(play["result_id"]).id() == play["result_id"]


@pytest.mark.parametrize("text, reason", [
    ("4HPwATDgc/ABM", "14 base64"),          # too short
    ("4HPwATDgc/ABMA=", "14 base64"),        # too long
    ("4HPwATDgc/AB-A", "14 base64"),         # not base64
    ("////////////AA", "it holds 72 checkers, more than 30"),   # not 50 slot ends
    ("4HPwATDgc/AB//", "it holds 36 checkers, more than 30"),
    ("AAAAAAAAAP8AAA", "checkers after its 50 points"),   # ones after the 50th slot
    ("//8AAAAAAAAAAA", "opponent has 16 checkers, more than 15"),   # 16 checkers on the opponent's 1-point
    ("AQAAAAAAAgAAAA", "point 24 is held by both"),
])
def test_invalid_position_ids(text, reason):
    with pytest.raises(InvalidPositionError, match=reason):
        Position.from_id(text)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(alphabet=B64, min_size=14, max_size=14), st.text(max_size=20)))
def test_any_text_reads_or_raises_invalid_position(text):
    try:
        position = Position.from_id(text)
    except BgcliError as exc:
        assert isinstance(exc, InvalidPositionError)
        assert repr(text) in str(exc)
    else:
        assert position.problem() == ""
        # the last character carries two unused bits, so compare positions
        assert Position.from_id(position.id()) == position


# --- other views of a position ----------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(positions())
def test_board26_round_trip_and_pips(position):
    board = position.board26()
    assert len(board) == 26
    assert Position.from_board26(board) == position
    mine = sum(p * n for p, n in enumerate(board) if n > 0)
    theirs = sum((25 - p) * -n for p, n in enumerate(board) if n < 0)
    assert position.pips() == (mine, theirs)
    assert position.swap().pips() == (theirs, mine)


def test_board26_errors():
    with pytest.raises(InvalidPositionError):
        Position.from_board26([0] * 25)
    with pytest.raises(InvalidPositionError, match="16 checkers"):
        Position.from_board26([0] + [16] + [0] * 24)


def test_from_sides_checks():
    with pytest.raises(InvalidPositionError, match="held by both"):
        Position.from_sides([1] + [0] * 24, [0] * 23 + [1, 0])
    with pytest.raises(InvalidPositionError):
        Position.from_sides([16] + [0] * 24, [0] * 25)
    with pytest.raises(InvalidPositionError):
        Position.from_sides([0] * 24, [0] * 25)
    position = Position.from_sides([2] + [0] * 24, [0] * 25)
    assert position.player[OFF] == 13 and position.opponent[OFF] == 15


def test_problem_reports_instead_of_raising():
    broken = Position((0,) * 26, Position.start().opponent)
    assert "15" in broken.problem()
    with pytest.raises(InvalidPositionError):
        broken.validated()


# --- dice ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["31", "3-1", "3 1", "13", "3,1", (1, 3), [3, 1]])
def test_parse_dice(text):
    assert parse_dice(text) == (3, 1)


@pytest.mark.parametrize("text", ["", "3", "70", "311", "a1", "0-1", (1, 7), (1,)])
def test_parse_dice_errors(text):
    with pytest.raises(InvalidDiceError):
        parse_dice(text)


# --- apply_steps -----------------------------------------------------------------------

def test_apply_steps_moves_and_hits():
    start = Position.start()
    after = apply_steps(start, [(13, 7), Step(8, 7)])
    assert after.player[13] == 4 and after.player[8] == 2 and after.player[7] == 2
    assert after.opponent == start.opponent
    # a blot of the opponent on our 5 (its 20) is hit and goes to its bar
    opponent = [0] * 25
    opponent[19] = 1  # its 20-point
    opponent[0] = 2
    position = Position.from_sides([0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5] + [0] * 11 + [2], opponent)
    hit = apply_steps(position, [(BAR, 20), (8, 5)])
    assert hit.opponent[20] == 0 and hit.opponent[BAR] == 1
    assert hit.player[BAR] == 1 and hit.player[20] == 1 and hit.player[5] == 1


def test_apply_steps_bears_off_and_ignores_dice():
    home = Position.from_sides([3, 3, 3] + [0] * 22, [2] + [0] * 24)
    after = apply_steps(home, [(3, OFF), (3, OFF), (1, OFF)])
    assert after.player[OFF] == 6 + 3 and after.player[3] == 1 and after.player[1] == 2


@pytest.mark.parametrize("steps, reason", [
    ([(20, 14)], "no checker on 20"),
    ([(BAR, 20)], "no checker on bar"),
    ([(24, 18), (24, 18), (24, 18)], "no checker on 24"),
    ([(13, 12)], "point 12 is held"),   # the opponent's 13-point
    ([(6, 8)], "goes down"),
    ([(0, 0)], "goes down"),
    ([(26, 20)], "goes down"),
])
def test_apply_steps_errors(steps, reason):
    with pytest.raises(IllegalPlayError, match=reason) as info:
        apply_steps(Position.start(), steps)
    assert "4HPwATDgc/ABMA" in str(info.value)
