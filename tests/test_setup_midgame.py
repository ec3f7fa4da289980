"""A set-up in the middle of a game: gnubg's SGF nodes of a board, a cube or a
turn set by hand after a play (a teaching or analysis session edits a game so).
The replay goes on from what was set, one warning in the words of what was set;
the plays before and after it are checked, each part on its own. The golden
games are gnubg 1.07's (tests/data/setup/make_midgame.py)."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import DATA, committed, invoke

from bgcli.formats.files import replay_file
from bgcli.formats.mat import read_matches
from bgcli.formats.sgf import read_sgf
from bgcli.match.records import ActionKind
from bgcli.match.replay import ProblemKind, Severity, replay_match

SETUP = DATA / "setup"
NAMES = ["midgame_board_white", "midgame_board_black_cube", "midgame_turn_dice_bar", "midgame_board_then_turn"]


def _golden() -> dict[str, list[str]]:
    return json.loads(committed(SETUP / "midgame_ids.json").read_text())


def _ids(path: Path) -> list[tuple[int, str]]:
    [replay] = replay_file(str(path))
    return [(e.game, e.before.position.id()) for e in replay.events if e.kind == "move"]


@pytest.mark.parametrize("name", NAMES)
def test_gnubgs_game_edited_mid_way_replays_through_gnubgs_positions(name):
    # before each play, the Position ID gnubg had on the board when it made that play, edits and all
    [record] = read_sgf(committed(SETUP / f"{name}.sgf").read_text(encoding="utf-8"), name)
    assert not record.errors and record.games[0].set_up is None and record.games[0].set_ups_in_game
    replay = replay_match(record)
    assert [e.before.position.id() for e in replay.events if e.kind == "move" and e.game == 1] == _golden()[name]
    # one warning for each edit, no error; the next game is gnubg's roll of it only
    kinds = [p.kind for p in replay.problems]
    assert set(kinds) == {ProblemKind.SET_UP, ProblemKind.INCOMPLETE} and kinds[-1] == ProblemKind.INCOMPLETE
    assert all(p.severity == Severity.WARNING for p in replay.problems)


def test_the_warning_says_what_was_set_and_after_how_many_plays():
    messages = {name: [p.message for p in replay_match(read_sgf(committed(SETUP / f"{name}.sgf").read_text(
        encoding="utf-8"))[0]).problems if p.kind == ProblemKind.SET_UP] for name in NAMES}
    assert messages["midgame_board_white"] == [
        "the board set by hand after 4 plays (SGF AE, AW, AB, PL): the plays before and after it are checked separately"]
    assert messages["midgame_board_black_cube"] == [
        "the board and the cube (2, owned by gnubg) set by hand after 6 plays (SGF AE, AW, AB, PL, CV, CP): the plays "
        "before and after it are checked separately"]
    # gnubg's 'set turn' writes no node: the side set on roll plays twice in a row; a board set with the
    # other side on roll names the turn; a cube set alone keeps the board
    assert [m.split(" set by hand")[0] for m in messages["midgame_turn_dice_bar"]] == [
        "the turn (gnubg on roll)", "the board", "the board and the turn (root on roll)", "the cube (4, owned by root)"]
    assert "W plays twice in a row, gnubg's record of 'set turn'" in messages["midgame_turn_dice_bar"][0]
    # the board set with Black on roll (PL[B]), then the turn set to White: White's play after it is in turn
    assert [m.split(": the plays")[0] for m in messages["midgame_board_then_turn"]] == [
        "the board and the turn (gnubg on roll) set by hand after 5 plays (SGF AE, AW, AB, PL; then W moves, "
        "gnubg's record of 'set turn')",
        "the cube (2) and the turn (gnubg on roll) set by hand after 8 plays (SGF CV; W plays twice in a row, "
        "gnubg's record of 'set turn')"]


def _game(nodes: str) -> str:
    return f"(;GM[6]MI[length:5][game:0][ws:0][bs:0]PW[a]PB[b]\n{nodes})"


BOARD = "AE[a:y]AW[e][e][e][f][f][f][f][g][g][g][h][h][u][u][u]AB[t][t][s][s][s][s][q][q][q][q][q][o][o][i][c]"


def test_a_board_set_after_a_play_that_could_not_be_applied_is_checked_again():
    # W's second play cannot be applied (the rest of the game unchecked), then the board is set:
    # the plays after it are checked again, and a wrong one there is an error
    text = _game(f";W[31hefe]\n;B[61lrqr]\n;W[66aaaaaaaa]\n;B[21xwwv]\n;PL[W]{BOARD}\n;W[54hcgc]\n;B[65xrrl]")
    problems = replay_match(read_sgf(text)[0]).problems
    assert [p.kind for p in problems][:2] == [ProblemKind.PLAY, ProblemKind.UNCHECKED]
    assert ProblemKind.SET_UP in [p.kind for p in problems]
    assert [(p.kind, p.line) for p in problems if p.severity == Severity.ERROR and p.line > 6] == [(ProblemKind.PLAY, 8)]


def test_the_plays_after_a_board_set_are_not_judged_against_the_board_before_it():
    # W's 54 from the set board is legal there, not from the opening board
    text = _game(f";W[31hefe]\n;B[61lrqr]\n;PL[W]{BOARD}\n;W[54hcgc]")
    replay = replay_match(read_sgf(text)[0])
    assert [p.kind for p in replay.problems] == [ProblemKind.SET_UP, ProblemKind.INCOMPLETE]
    without = text.replace(f";PL[W]{BOARD}\n", "")
    assert any(p.kind == ProblemKind.PLAY for p in replay_match(read_sgf(without)[0]).problems)


def test_a_cube_set_mid_way_is_the_cube_of_the_doubles_after_it():
    # CV[2] CP[w]: White owns a 2-cube, so White's double makes it 4; owned by Black, White may not double
    text = _game(";W[31hefe]\n;B[61lrqr]\n;CV[2]\n;CP[w]\n;W[double]\n;B[take]\n;W[54xtmh]")
    record = read_sgf(text)[0]
    assert [a.cube for a in record.games[0].actions if a.kind == ActionKind.DOUBLE] == [4]
    assert [p.kind for p in replay_match(record).problems] == [ProblemKind.SET_UP, ProblemKind.INCOMPLETE]
    problems = replay_match(read_sgf(text.replace("CP[w]", "CP[b]"))[0]).problems
    assert [(p.kind, p.line) for p in problems if p.severity == Severity.ERROR] == [(ProblemKind.CUBE, 6)]


def test_a_board_set_mid_way_that_does_not_clear_the_board_edits_it_as_gnubg_does():
    # AE empties a point, AB and AW add a checker to the board as it stands (the SGF specification's
    # meaning): midgame_edit.sgf empties Black's two checkers on point c and puts them back on a; gnubg's
    # board after the edit and after the play that follows it (gnubg_edit.py) are met, with no error
    golden = json.loads(committed(SETUP / "midgame_edit.json").read_text())["midgame_edit"]
    [replay] = replay_file(str(committed(SETUP / "midgame_edit.sgf")))
    assert [p.kind for p in replay.problems] == [ProblemKind.SET_UP, ProblemKind.INCOMPLETE]
    after = [e.before.position.id() for e in replay.events if e.kind in ("move", "double")][-2:]
    assert after == [golden["set"][0], golden["end"]]


def test_an_edit_that_breaks_the_rules_is_one_error_and_the_rest_of_the_game_unchecked():
    # midgame_edit_16.sgf's AW[j] adds a 16th White checker; gnubg loads it with 15 (gnubg_edit.py: it
    # drops the checker on the bar), bgcli says so at the node and checks no play after it
    [replay] = replay_file(str(committed(SETUP / "midgame_edit_16.sgf")))
    errors = [p for p in replay.problems if p.severity == Severity.ERROR]
    assert len(errors) == 1 and errors[0].line == 6 and "16 checkers, more than 15" in errors[0].message
    text = _game(";W[31hefe]\n;B[61lrqr]\n;PL[W]AW[e]\n;W[54hcgc]")
    problems = replay_match(read_sgf(text)[0]).problems
    assert [p.kind for p in problems if p.severity == Severity.ERROR] == [ProblemKind.SYNTAX]


def test_two_plays_of_one_side_in_a_row_in_a_mat_file_are_still_out_of_turn():
    # the turn set by hand is gnubg's SGF's habit (it writes no node for it), not a transcript's
    text = _game(";W[31hefe]\n;W[61xrrq]")
    assert [p.kind for p in replay_match(read_sgf(text)[0]).problems][0] == ProblemKind.SET_UP
    mat = " 3 point match\n\n Game 1\n a : 0                          b : 0\n  1) 31: 8/5 6/5\n  2) 61: 13/7 8/7\n"
    problems = replay_match(read_matches(mat).matches[0]).problems
    assert [p.kind for p in problems][0] == ProblemKind.TURN


def test_a_dice_node_in_the_middle_of_a_game_sets_nothing():
    # gnubg's 'set dice': ;PL[B]DI[33]; the play after names its roll (61), which is the one played
    text = "(;GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]\n;W[31hefe]\n;PL[B]DI[33]\n;B[61lrqr]RE[W+1])"
    record = read_sgf(text)[0]
    assert not record.errors and [a.dice for a in record.games[0].actions if a.dice] == [(3, 1), (6, 1)]
    assert not record.games[0].set_ups_in_game


@pytest.mark.parametrize("name", NAMES)
def test_an_sgf_export_writes_the_edits_as_gnubg_does(name, tmp_path):
    source = committed(SETUP / f"{name}.sgf")
    out = tmp_path / "out.sgf"
    result = invoke("export", str(source), "--to", "sgf", "-o", str(out))
    assert result.exit_code == 0, result.output
    # the same nodes; PL names the side on roll after the edit: where gnubg's 'set turn' came after its board
    # set (PL[B], then White moves), ours says PL[W] at once, which gnubg loads to the same positions
    edits = re.compile(r"^;(?:PL\[[WB]\](AE\[a:y\].*)|(C[VP]\[[0-9a-z]+\]))$", re.M)
    assert edits.findall(out.read_text(encoding="utf-8")) == edits.findall(source.read_text(encoding="utf-8"))
    assert _ids(out) == _ids(source)


@pytest.mark.parametrize("name", NAMES)
def test_an_sgf_export_keeps_the_dice_set_before_a_board_set_and_never_played(name, tmp_path):
    # gnubg's 'set dice 53' then 'set board' writes ;PL[W]DI[53] before the board's node
    # (midgame_turn_dice_bar); the export dropped it
    source = committed(SETUP / f"{name}.sgf")
    out = tmp_path / "out.sgf"
    assert invoke("export", str(source), "--to", "sgf", "-o", str(out)).exit_code == 0
    dice_then_board = re.compile(r"^;(PL\[[WB]\]DI\[[1-6]{2}\])\n;PL\[[WB]\]AE\[a:y\]", re.M)
    assert dice_then_board.findall(out.read_text(encoding="utf-8")) == \
        dice_then_board.findall(source.read_text(encoding="utf-8"))


def test_gnubgs_own_mat_export_of_an_edited_game_jumps_and_the_audit_says_so():
    # gnubg 1.07 warns that an edited game "cannot be exported correctly in this format" and writes the
    # plays with no trace of the edit: the first play after it is an error of the .mat, at its line
    [replay] = replay_file(str(committed(SETUP / "midgame_board_white.mat")))
    first = next(p for p in replay.problems if p.severity == Severity.ERROR)
    assert (first.kind, first.line, first.game) == (ProblemKind.PLAY, 10, 1)


@pytest.mark.parametrize("name", NAMES)
def test_gnubgs_text_export_of_an_edited_game_reads_the_printed_ids_jump_as_the_sgfs_set_up(name):
    # gnubg's text has no record of the edit; the Position ID and Match ID it prints before each play jump there:
    # the same set-ups as the SGF's (a warning each, no error), and the very positions of its replay
    [text] = replay_file(str(committed(SETUP / f"{name}.txt")))
    [sgf] = replay_file(str(committed(SETUP / f"{name}.sgf")))
    assert _ids(SETUP / f"{name}.txt") == [(game, pid) for game, pid in _ids(SETUP / f"{name}.sgf") if game == 1]
    assert [e.before.position.id() for e in text.events if e.kind == "move"] == _golden()[name]
    assert all(p.severity == Severity.WARNING for p in text.problems)

    def set_ups(replay):   # what was set, in the warning's words, and after how many plays
        return [p.message.split(" (")[0] + p.message.split(")", 1)[-1].split(" (")[0] for p in replay.problems
                if p.kind == ProblemKind.SET_UP]
    assert set_ups(text) == set_ups(sgf) and set_ups(text)


def test_the_text_exports_set_up_says_which_printed_ids_prove_it():
    [replay] = replay_file(str(committed(SETUP / "midgame_board_black_cube.txt")))
    [set_up] = [p for p in replay.problems if p.kind == ProblemKind.SET_UP]
    assert set_up.message == (
        "the board and the cube (2, owned by gnubg) set by hand after 6 plays (gnubg text: the Position ID "
        "cO8GAAew5xkRIA and the Match ID QQmzAAAAAAAE printed before move 7): the plays before and after it are "
        "checked separately")


@pytest.mark.parametrize("printed", ["", "sOczEAhw7w!ABw", "4HPwATDgc/ABMA"])
def test_a_jump_in_a_text_export_with_no_printed_id_that_says_so_is_still_an_error(printed, tmp_path):
    # the board set before move 5, its printed Position ID taken away, broken, or the opening's (a set-up the
    # play after it does not fit): the play is an error at its line, as where gnubg's .mat export jumps
    text = committed(SETUP / "midgame_board_white.txt").read_text(encoding="utf-8")
    assert text.count("Position ID: sOczEAhw7wYABw") == 1
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if "sOczEAhw7wYABw" in line)
    play_line = next(i for i in range(at, len(lines)) if lines[i].startswith("* gnubg moves")) + 1
    path = tmp_path / "edited.txt"
    path.write_text(text.replace("Position ID: sOczEAhw7wYABw", f"Position ID: {printed}"), encoding="utf-8")
    [replay] = replay_file(str(path))
    errors = [p for p in replay.problems if p.severity == Severity.ERROR]
    assert [(p.kind, p.line) for p in errors][:1] == [(ProblemKind.PLAY, play_line)]
    assert any(p.kind == ProblemKind.SET_UP for p in replay.problems) == (printed == "4HPwATDgc/ABMA")


_RELOAD = r'''
import gnubg, json
gnubg.command("set display off")
out = []
for path in PATHS:
    gnubg.command('load match "%s"' % path)
    out.append([[(a.get("player"), a.get("action"), a.get("dice"), a.get("board"), a.get("move"))
                 for a in g["game"]] for g in gnubg.match(0, 1, 0, 0)["games"]])
json.dump(out, open(RESULT, "w"), default=str)
'''


def _gnubg() -> str | None:
    from bgcli.engines.gnubg import find_gnubg

    return find_gnubg()


@pytest.mark.skipif(_gnubg() is None, reason="GNU Backgammon is not installed")
def test_gnubg_loads_our_export_of_an_edited_game_as_it_loads_its_own(tmp_path):
    # gnubg's reload of an edited game is its own (it does not meet the session's IDs after a turn set by hand
    # or a board set with Black on roll): ours must load to the very same records, edit records and all
    paths = []
    for name in NAMES:
        ours = tmp_path / f"{name}.sgf"
        assert invoke("export", str(committed(SETUP / f"{name}.sgf")), "--to", "sgf", "-o", str(ours)).exit_code == 0
        paths += [str(committed(SETUP / f"{name}.sgf")), str(ours)]
    script, result = tmp_path / "reload.py", tmp_path / "result.json"
    script.write_text(f"PATHS = {paths!r}\nRESULT = {str(result)!r}\n" + _RELOAD)
    subprocess.run([str(_gnubg()), "-t", "-q", "-r", "-p", str(script)], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=300, check=False)
    loaded = json.loads(result.read_text())
    for at, name in enumerate(NAMES):
        theirs, ours = loaded[2 * at], loaded[2 * at + 1]
        # gnubg's dice node before a board set ('set dice 53', then 'set board') is the one record we leave out
        assert [r for r in theirs[0] if not _dice_set(r)] == [r for r in ours[0] if not _dice_set(r)], name


def _dice_set(record: list) -> bool:
    """gnubg's record of the dice set by hand ('set dice'; action "set" with dice and no board)."""
    return record[1] == "set" and record[2] is not None and record[3] is None


def test_the_view_of_a_set_up_game_with_no_play_shows_the_set_up_position():
    # a position saved to be studied: gnubg's set-up node and no play; its row is where the game starts
    from bgcli.core.position import Position
    from bgcli.render.view import match_html

    text = f"(;GM[6]MI[length:5][game:0][ws:0][bs:0]PW[a]PB[b]\n;PL[B]{BOARD}\n;CV[2]\n;CP[w])"
    replay = replay_match(read_sgf(text)[0])
    set_up = read_sgf(text)[0].games[0].set_up
    assert set_up is not None and set_up.position is not None and set_up.on_roll == 1
    page = match_html([replay], "set up")
    assert set_up.position.swap().id() in page and Position.start().id() not in page

