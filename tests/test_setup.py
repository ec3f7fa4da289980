"""Games that start from a set-up position: XG's ``; Set Pos=`` (.mat) and
gnubg's SGF set-up (AE/AB/AW, PL, CV/CP). The replay starts where the file
sets the game up, and the rules of the opening do not hold there."""
from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from conftest import DATA, committed

from bgcli.core.position import Position
from bgcli.formats.files import read_any, replay_file
from bgcli.formats.mat import read_matches
from bgcli.formats.sgf import read_sgf
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


SETUP = DATA / "setup"   # gnubg-made set-up games (make_setup.py says how)


def _golden() -> dict[str, list[str]]:
    return json.loads(committed(SETUP / "setup_ids.json").read_text())


@pytest.mark.parametrize("name", ["setup_black_on_roll", "setup_white_cube_2", "setup_bar_black_owns_4"])
def test_gnubg_sgf_set_up_game_replays_through_gnubgs_positions(name):
    # gnubg's set-up node (AE[a:y], AW, AB, PL; CV, CP nodes): the replay from it meets, before each play,
    # the Position ID gnubg had on the board when it made that play
    [record] = read_sgf(committed(SETUP / f"{name}.sgf").read_text(encoding="utf-8"), name)
    assert not record.errors and record.games[0].set_up is not None
    replay = replay_match(record)
    ours = [e.before.position.id() for e in replay.events if e.kind == "move" and e.game == 1]
    assert ours == _golden()[name]
    # the game ends with gnubg's result, at the cube set up; the next game is gnubg's roll of it only
    assert [p.kind.value for p in replay.problems] == ["incomplete"] and replay.problems[0].game == 2


def test_gnubg_sgf_set_up_states_the_cube_and_who_is_on_roll():
    read = {name: read_sgf(committed(SETUP / f"{name}.sgf").read_text(encoding="utf-8"))[0].games[0].set_up
            for name in _golden()}
    assert [(s.cube, s.cube_owner, s.on_roll) for s in read.values() if s is not None] == [
        (1, -1, 1), (2, 0, 0), (4, 1, 1)]


def test_an_sgf_set_up_game_from_the_other_sides_board_fails():
    # W and B's checkers the other way round: the first play breaks (the sides are the file's, not guessed)
    text = committed(SETUP / "setup_white_cube_2.sgf").read_text(encoding="utf-8")
    swapped = re.sub(r"A([WB])((?:\[[a-y]\])+)", lambda m: "A" + "BW"["WB".index(m.group(1))] + m.group(2), text)
    assert swapped != text
    problems = replay_match(read_sgf(swapped)[0]).problems
    assert problems[0].game == 1 and problems[0].kind.value in ("play", "unchecked", "dance")


def test_an_sgf_set_up_that_breaks_the_rules_is_one_error_and_the_game_skipped():
    text = "(;GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]\n;PL[W]AE[a:y]AW[a][a]AB[a]\n;W[31dcba]RE[W+1])"
    record = read_sgf(text)[0]
    assert "set-up position" in str(record.errors[0]) and "skipped" in str(record.errors[0]) and not record.games
    assert "player on roll has 16 checkers" in str(read_sgf(text.replace("AE[a:y]AW[a][a]AB[a]", "AW[a]"))[0].errors[0])
    # the opening's board set up (point a cleared, Black's two checkers put back) is a set-up too: a
    # position, from which the first roll is any roll (tests/test_real_archives.py, gnubg's rollout trials)
    opening = read_sgf(text.replace("AE[a:y]AW[a][a]AB[a]", "AE[a]AB[a][a]"))[0]
    assert not opening.errors and opening.games[0].set_up.position == Position.start()


def test_gnubgs_dice_node_before_the_play_that_rolls_them_sets_up_nothing():
    text = ("(;GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]\n;W[31hefe]\n;PL[B]DI[61]\n;B[61xrrq]RE[W+1])")
    record = read_sgf(text)[0]
    assert not record.errors and [a.dice for a in record.games[0].actions] == [(3, 1), (6, 1)]


def _moves(path) -> list[tuple[int, str]]:
    [replay] = replay_file(str(path))
    return [(e.game, e.before.position.id()) for e in replay.events if e.kind == "move"]


@pytest.mark.parametrize("to", ["mat", "sgf"])
def test_an_export_writes_xgs_set_up_game_and_it_replays_the_same(to, tmp_path):
    from conftest import invoke

    source = committed(XG_SET_POS)
    out = tmp_path / f"out.{to}"
    result = invoke("export", str(source), "--to", to, "-o", str(out))
    assert result.exit_code == 0, result.output
    written = out.read_text(encoding="utf-8")
    if to == "mat":   # XG's own line, the board as XG wrote it
        assert f"; Set Pos={BOARD}/0" in written.splitlines()
    else:             # gnubg's set-up node
        assert re.search(r"\n;PL\[W\]AE\[a:y\]AW(\[[a-y]\]){15}AB(\[[a-y]\]){15}\n", written)
    [replay] = replay_file(str(out))
    assert replay.problems == [] and _moves(out) == _moves(source)


@pytest.mark.parametrize("name", ["setup_black_on_roll", "setup_white_cube_2", "setup_bar_black_owns_4"])
def test_an_sgf_export_writes_gnubgs_set_up_nodes_again(name, tmp_path):
    from conftest import invoke

    source = committed(SETUP / f"{name}.sgf")
    out = tmp_path / "out.sgf"
    result = invoke("export", str(source), "--to", "sgf", "-o", str(out))
    assert result.exit_code == 0, result.output
    set_up = re.compile(r"\n;PL\[[WB]\]AE\[a:y\][^\n]*(?:\n;C[VP]\[[0-9a-z]+\])*")
    assert set_up.search(out.read_text(encoding="utf-8")).group(0) == set_up.search(source.read_text()).group(0)
    assert _moves(out) == _moves(source)


REFUSED = {   # a source whose game 1 is set up, and the line an export that cannot hold it says
    "setup_white_cube_2.sgf": "game 1 starts from a set-up position (SGF AE, AW, AB",
    "midgame_board_black_cube.sgf": "line 8: game 1 is set up by hand in its middle (SGF AE, AW, AB, PL, CV, CP), "
                                    "which this format has no place for: the game is left out",
}


@pytest.mark.parametrize("name", sorted(REFUSED))
@pytest.mark.parametrize("to", ["mat", "json"])
def test_an_export_that_cannot_hold_a_set_up_refuses_it_in_one_line_and_force_leaves_it_out(to, name, tmp_path):
    # XG's '; Set Pos=' holds no cube and no set-up in the middle of a game, bgcli's JSON no set-up:
    # never written as a game from the opening, or as if the plays after an edit followed from those before it
    from conftest import invoke

    source = str(committed(SETUP / name))
    out = tmp_path / f"out.{to}"
    result = invoke("export", source, "--to", to, "-o", str(out))
    assert result.exit_code != 0 and not out.exists()
    assert REFUSED[name] in result.output
    result = invoke("export", source, "--to", to, "--force", "-o", str(out))
    assert result.exit_code == 0, result.output
    [replay] = replay_file(str(out))
    assert [g.number for g in read_any(str(out))[0].games] == [2]
