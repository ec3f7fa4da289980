"""Games that start from a set-up position: XG's ``; Set Pos=`` (.mat) and
gnubg's SGF set-up (AE/AB/AW, PL, CV/CP). The replay starts where the file
sets the game up, and the rules of the opening do not hold there."""
from __future__ import annotations

from dataclasses import replace

from conftest import DATA, committed

from bgcli.core.position import Position
from bgcli.formats.files import read_any, replay_file
from bgcli.formats.mat import read_matches
from bgcli.judging.dice import DiceTally
from bgcli.match.records import SetUp
from bgcli.match.replay import replay_match

XG_SET_POS = DATA / "real" / "xg-mat" / "set-position-start_11pt.mat"
BOARD = "----cBD-D-B--A--Abcdc---A-"   # the file's '; Set Pos=' board


def test_xg_set_pos_game_replays_from_its_board_without_a_problem():
    path = committed(XG_SET_POS)
    [replay] = replay_file(str(path))
    assert replay.problems == [] and [r.game for r in replay.games()] == [1, 2, 3, 4, 5, 6]
    record = read_any(str(path))[0]
    set_up = record.games[0].set_up
    assert set_up is not None and set_up.position != Position.start() and BOARD in set_up.how
    # the upper-case checkers are the left column's: 16/15 15/13 is Nathaniel Whitford's (left) first play
    assert set_up.position.player[16] == 1 and set_up.position.opponent[25 - 17] == 2
    assert all(game.set_up is None for game in record.games[1:])


def test_xg_set_pos_the_other_sides_board_fails_at_the_first_play():
    # the orientation checked against the file: the board read for the other side breaks at once
    text = committed(XG_SET_POS).read_text()
    swapped = (BOARD[25] + BOARD[24:0:-1] + BOARD[0]).swapcase()
    record = read_matches(text.replace(BOARD, swapped)).matches[0]
    problems = replay_match(record).problems
    assert problems and problems[0].line == 19 and "no checker on 16" in problems[0].message


def test_xg_set_pos_that_is_no_board_is_one_error_and_the_game_skipped():
    text = committed(XG_SET_POS).read_text().replace(BOARD, "----cBD-D-B--A--Abcdc---A")
    result = read_matches(text, "x.mat")
    [error] = result.matches[0].errors
    assert error.line == 18 and "game 1 starts from a set-up position" in str(error) and "skipped" in str(error)
    assert [g.number for g in result.matches[0].games] == [2, 3, 4, 5, 6]


def _first_game_doubled_opening(set_up: SetUp | None):
    """The file's first game with its first roll made a double (44: the left side's 16/12 is legal there)."""
    record = read_any(str(committed(XG_SET_POS)))[0]
    game = record.games[0]
    first = game.actions[0]._replace(dice=(4, 4), play_text="16/12 13/9 6/2 6/2")
    game = replace(game, actions=(first,) + game.actions[1:2], set_up=set_up)
    return replace(record, games=(game,))


def test_a_set_up_games_first_roll_may_be_a_double():
    record = read_any(str(committed(XG_SET_POS)))[0]
    set_up = record.games[0].set_up
    messages = [p.message for p in replay_match(_first_game_doubled_opening(set_up)).problems]
    assert not [m for m in messages if "opening roll" in m]
    # from the opening the same roll is a double at the opening (the rule holds there)
    messages = [p.message for p in replay_match(_first_game_doubled_opening(None)).problems]
    assert any("the opening roll 44 is a double" in m for m in messages)


def test_the_dice_audit_counts_no_opening_roll_in_a_set_up_game():
    record = read_any(str(committed(XG_SET_POS)))[0]
    tally = DiceTally("set-up")
    replay_match(record, visitor=tally)
    assert sum(sum(unit.opening) for unit in tally.units) == len(record.games) - 1 == 5
    assert sum(sum(unit.kinds) for unit in tally.units) + 5 == sum(
        1 for game in record.games for action in game.actions if action.dice)
