"""Gibbon's match dumps (``.gmd``, "GMD-2"): the FIBS client Gibbon's own
record of a match, written as it is played. bgcli read none: 'not a match
file' (a .gmd was not even looked at in a folder walk).

The layout is Gibbon's (https://github.com/gitGNU/gnu_gibbon, GPL: not
copied; its writer, its reader's grammar and its samples ``src/7point.gmd``
and ``src/complete.gmd`` were read here). The files are gnubg self-play
matches written in it by ``tests/data/real/gibbon-gmd/make_gmd.py``, one with
the times later versions write after each colour: each replay must be the
.mat's, action for action, with the same results. A dump writes no result
and no score: a game ends at its drop, its accepted resignation or its last
checker off, with no problem (each was the 'incomplete' warning).
"""
from __future__ import annotations

import re

from conftest import DATA, SELFPLAY, committed, invoke

from bgcli.formats import gmd, registry
from bgcli.formats.files import replay_file
from bgcli.match.records import ActionKind, GameRecord

FOLDER = DATA / "real" / "gibbon-gmd"
DUMP = FOLDER / "gnubg-root_3pt_sp05001.gmd"
TIMED = FOLDER / "gnubg-root_9pt_sp05004_times.gmd"
HEAD = "GMD-2 # Created by Gibbon version 0.2.0\nLength: 5\nPlayer:W: ann\nPlayer:B: bob\nRule: Crawford\n"


def _story(path):
    (replay,) = list(replay_file(str(committed(path))))
    return replay, [(e.game, e.side, e.kind.value, e.dice and tuple(sorted(e.dice)), e.after) for e in replay.events]


def _results(replay):
    return [(r.winner, r.result.value, r.cube, r.points, r.score) for r in replay.results]


def test_habit_gibbon_dump_reads_as_the_match_it_records():
    for dump, source in ((DUMP, SELFPLAY / "sp05001_3pt.mat"), (TIMED, SELFPLAY / "sp05004_9pt.mat")):
        replay, moves = _story(dump)
        original, expected = _story(source)
        assert replay.problems == [] and replay.unfinished == [], (dump.name, replay.problems)
        assert replay.players == original.players and replay.length == original.length
        assert moves == expected
        # drops, accepted resignations, a gammon and a backgammon borne off: scored as the rules say
        assert _results(replay) == _results(original)
    assert replay.tags["Crawford"] == "On"


def test_a_gibbon_dump_is_known_by_its_magic_whatever_its_name(tmp_path):
    head = DUMP.read_bytes()[:registry.HEAD_SIZE]
    for name in (str(DUMP), "saved.txt", "-", "other.match", "x.mat"):
        assert registry.choose(name, head).name == "gmd"
    result = invoke("audit", DUMP)
    assert result.exit_code == 0 and "no problems" in result.output, result.output
    folder = tmp_path / "walk"
    folder.mkdir()
    (folder / "m.gmd").write_bytes(DUMP.read_bytes())
    result = invoke("audit", folder)
    assert result.exit_code == 0 and "1 file checked" in result.output, result.output


def test_a_money_dump_and_gibbons_spellings(tmp_path):
    # Length: unlimited, a named opening roll, lower-case opcodes, 8-4 steps, b and o for bar and off,
    # Rank and Location lines, a comment, a name with an escape, a resignation rejected then one accepted
    text = ("GMD-2\nLength: unlimited\nPlayer:W: ann\nPlayer:B: b\\\"ob\nRank:W: 1500.00 10 (FIBS)\n"
            "Location: \u0421\u043e\u0444\u0438\u044f\n# a comment\nGame:\nRoll:B: 3 1\nMove:B: 1/4 4/5\n"
            "roll:w: 6 4\nmove:w: 24-18 18-14\nResign:W:1\nReject:B\nRoll:B: 5 2\nMove:B: 12/17 17/19\n"
            "Resign:W:1\nAccept:B\n")
    _, game, end = gmd.read_text(text)
    assert isinstance(game, GameRecord) and game.players == ("b\"ob", "ann")   # Black is the left column
    assert [(a.side, a.kind, a.play_text) for a in game.actions] == [
        (0, ActionKind.MOVE, "24/21 21/20"), (1, ActionKind.MOVE, "24/18 18/14"), (0, ActionKind.MOVE, "13/8 8/6"),
        (1, ActionKind.RESIGN, ""), (0, ActionKind.WIN, "")]
    assert game.actions[-1].points == 1 and end.errors == ()
    assert [t for _, t in end.comments] == ["Rank:W: 1500.00 10 (FIBS)", "# a comment"]
    path = tmp_path / "money.gmd"
    path.write_text(text.replace("b\\\"ob", "bob"), encoding="utf-8")
    (replay,) = list(replay_file(str(path)))
    assert replay.length == 0 and replay.problems == [] and replay.tags["Place"] == "\u0421\u043e\u0444\u0438\u044f"
    assert _results(replay) == [("bob", "resignation", 1, 1, (1, 0))]


def test_a_roll_then_a_resignation_and_a_game_left_in_play(tmp_path):
    text = (HEAD + "Game:\nRoll:-: 3 1\nMove:W: 8/5 6/5\nRoll:B: 6 5\nResign:B:2\nAccept:W\n"
            "Game:\nRoll:-: 6 4\nMove:B: 1/7 7/11\nRoll:W: 5 2\n")
    path = tmp_path / "two.gmd"
    path.write_text(text, encoding="utf-8")
    (replay,) = list(replay_file(str(path)))
    assert _results(replay) == [("ann", "resignation", 1, 2, (0, 2))]
    # the game in play when the dump was written: no result, as in any format
    assert [p.kind.value for p in replay.problems] == ["incomplete"] and len(replay.unfinished) == 1
    # the roll the dump stops at is no 'rolled, then resigned': nothing is said of it
    assert [e.kind.value for e in replay.events if e.game == 2] == ["move"]


def test_a_genuine_slip_in_a_dump_is_reported_once(tmp_path):
    good = DUMP.read_text(encoding="utf-8")
    # root's 61 in game 1 played 13/7 8/6: no checker moves 8/6 with a 6 and a 1 from there... an illegal play
    bad = good.replace("Move:W: 13/7 8/7\n", "Move:W: 13/7 13/6\n", 1)
    assert bad != good
    path = tmp_path / "slip.gmd"
    path.write_text(bad, encoding="utf-8")
    (replay,) = list(replay_file(str(path)))
    assert len([p for p in replay.problems if p.severity.value == "error"]) == 1, replay.problems
    assert replay.problems[0].line == 10
    # a drop named for the doubler's own side is the record contradicting itself: one error too
    bad = good.replace("Double:B\nDrop:W\n", "Double:B\nDrop:B\n", 1)
    path.write_text(bad, encoding="utf-8")
    (replay,) = list(replay_file(str(path)))
    assert len(replay.problems) == 1 and replay.problems[0].line == 40, replay.problems


def test_a_first_game_set_up_by_gibbon(tmp_path):
    # Points{White's bar, points 1..24 (White positive), Black's bar} and Dice{..} of the side to move
    board = "0 -2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 0"
    text = HEAD + f"Game: Scores{{1 2}} Points{{{board}}} Dice{{6 5}}\nMove:W: 24/18 18/13\n"
    _, game, end = gmd.read_text(text)
    assert end.errors == () and game.set_up is not None and game.scores == (2, 1)
    assert [(a.side, a.dice, a.play_text) for a in game.actions] == [(1, (6, 5), "24/18 18/13")]
    assert game.set_up.position is not None and game.set_up.position.pips() == (167, 167)


def test_broken_gibbon_lines_are_one_line_each():
    good = DUMP.read_text(encoding="utf-8")
    cases = {("Roll:W: 6 1", "Roll:W: 7 1"): "9:1: cannot read the roll",
             ("Move:W: 13/7 8/7", "Move:W: 13/x 8/7"): "10:9: cannot read the play '13/x 8/7'",
             ("Move:W: 13/7 8/7", "Move:Q: 13/7 8/7"): "10:1: cannot read the colour",
             ("Roll:W: 6 1", "root rolls 6 1"): "9:1: cannot read 'root rolls 6 1'",
             ("Drop:W", "Accept:W"): "40:1: 'Accept:W' accepts no resignation",
             ("Roll:W: 6 1\n", ""): "9:1: a play with no roll before it: 'Move:W: 13/7 8/7'"}
    for (old, new), words in cases.items():
        old, new = (old, new) if old.endswith("\n") else (old + "\n", new + "\n")
        *_, end = gmd.read_text(good.replace(old, new, 1), "bad.gmd")
        assert end.errors and f"bad.gmd:{words}" in str(end.errors[0]), (new, end.errors)
        assert len(end.errors) == 1 or "rolls" in new, end.errors
    try:
        list(gmd.read_text("Length: 5\n", "x.gmd"))
    except Exception as exc:
        assert "x.gmd:1:1: not a Gibbon match dump" in str(exc)
    else:
        raise AssertionError("a file without the magic read as a Gibbon dump")
    games = [p for p in gmd.read_text(re.sub(r"(?m)^Game:$", "GAME:", good)) if isinstance(p, GameRecord)]
    assert len(games) == 4


# Gibbon's SGF (its libgsgf, AP[gibbon (libgsgf):0.2.0 (0.2.0)]: Gibbon's src/7point.sgf, GPL, read, not copied):
# one game tree a game, RE[W+2Resign] for a resignation, and SGF moves of its own, B[resign:2] (the points offered),
# W[accept], W[reject]. Written anew here with the same habits; bgcli called each an unreadable result or action.
GIBBON_SGF = ("(;FF[4]GM[6]CA[UTF-8]AP[gibbon (libgsgf):0.2.0 (0.2.0)]MI[length:3][game:0][ws:0][bs:0]PB[bob]PW[ann]"
              "RE[W+2Resign]RU[Crawford]\n;W[31hefe]\n;B[64aggk]\n;W[resign:1]\n;B[reject]\n;W[52mhmk]\n;B[resign:2]\n"
              ";W[accept])\n(;FF[4]GM[6]CA[UTF-8]AP[gibbon (libgsgf):0.2.0 (0.2.0)]MI[length:3][game:1][ws:2][bs:0]"
              "PB[bob]PW[ann]RE[B+1Resign]RU[Crawford:CrawfordGame]\n;B[42qusu]\n;W[resign:1]\n;B[accept])\n")


def test_habit_gibbon_sgf_resignations_read(tmp_path):
    path = tmp_path / "gibbon.sgf"
    path.write_text(GIBBON_SGF, encoding="utf-8")
    (replay,) = list(replay_file(str(path)))
    # the match stops at 2-1: that warning alone
    assert [p.kind.value for p in replay.problems] == ["incomplete"], replay.problems
    assert _results(replay) == [("ann", "resignation", 1, 2, (2, 0)), ("bob", "resignation", 1, 1, (2, 1))]
    # a rejected resignation is no resignation: the game goes on with the play after it
    plays = [(e.game, e.kind.value, e.play) for e in replay.events if e.kind.value == "move"]
    assert plays == [(1, "move", "8/5 6/5"), (1, "move", "24/14"), (1, "move", "13/11* 13/8"), (2, "move", "8/4 6/4")]


# Gibbon's save of a position (its libgsgf: Gibbon's src/edited.sgf, GPL, read, not copied): the root, then the
# dice node first, then the cube and the board each in a node of their own, nothing played. Written anew with the
# opening position: bgcli read it as a match whose one game 'has no result' (a warning about nothing).
GIBBON_POSITION = ("(;FF[4]GM[6]CA[UTF-8]AP[gibbon (libgsgf):0.2.0 (0.2.0)]MI[length:7][game:0][ws:6][bs:3]"
                   "PB[bob]PW[ann]RU[Crawford]\n;PL[B]DI[42]\n;CV[2]\n;CP[w]\n;AE[a:x]"
                   "AW[f][f][f][f][f][h][h][h][m][m][m][m][m][x][x]AB[s][s][s][s][s][q][q][q][l][l][l][l][l][a][a])\n")


def test_habit_gibbon_sgf_position_is_a_position(tmp_path):
    path = tmp_path / "edited.sgf"
    path.write_text(GIBBON_POSITION, encoding="utf-8")
    result = invoke("audit", path)
    assert "not a match file but a position" in result.output and "no result" not in result.output, result.output
    shown = invoke("show", path)
    assert shown.exit_code == 0, shown.output
    # Black (the dice node's PL) on roll with 42, the cube at 2 owned by White, the score 6-3 (White first)
    assert "Position ID: 4HPwATDgc/ABMA" in shown.output and "Rolled 42" in shown.output, shown.output
