"""JavaFIBS's saved matches ("JavaFIBS internal match representation", saved
as ``.match``): the FIBS client's own record of each match it played. bgcli
read none: 'not a match file'.

The layout is the one Gibbon, another FIBS client, reads and writes
(https://github.com/gitGNU/gnu_gibbon, GPL: not copied; its sample
``src/complete.match``, a JavaFIBS save, was read here and its first three
games audit clean). The file here is a gnubg self-play match written in it
by ``tests/data/real/javafibs/make_javafibs.py``: its replay must be the
.mat's, action for action. The FIBS board's points are absolute, and who
moves up changes from game to game: each game's direction is read from its
steps.
"""
from __future__ import annotations

from conftest import DATA, SELFPLAY, committed, invoke

from bgcli.formats import javafibs, registry
from bgcli.formats.files import replay_file
from bgcli.match.records import ActionKind, GameRecord

SAVED = DATA / "real" / "javafibs" / "root_3pt_sp05001.match"
SOURCE = SELFPLAY / "sp05001_3pt.mat"
HEAD = "JavaFIBS internal match representation v1.1\r\n8:bob:5\r\n"


def _story(path):
    (replay,) = list(replay_file(str(committed(path))))
    return replay, [(e.game, e.side, e.kind.value, e.dice and tuple(sorted(e.dice)), e.after) for e in replay.events]


def test_habit_javafibs_saved_match_reads_as_the_match_it_records():
    replay, moves = _story(SAVED)
    source, expected = _story(SOURCE)
    assert replay.problems == [] and replay.unfinished == []
    assert replay.length == 3 and replay.players == ("gnubg", "root")   # the owner by the name the score lines give
    assert moves == expected
    assert [(r.winner, r.result.value, r.points) for r in replay.results] == [
        (r.winner, r.result.value, r.points) for r in source.results]
    assert replay.tags["Site"] == "FIBS"


def test_a_javafibs_match_is_known_by_its_prolog_whatever_its_name():
    head = SAVED.read_bytes()[:registry.HEAD_SIZE]
    for name in (str(SAVED), "saved.txt", "-", "other.match"):
        assert registry.choose(name, head).name == "javafibs"
    result = invoke("audit", SAVED)
    assert result.exit_code == 0, result.output


def test_each_games_direction_is_read_from_its_steps():
    # game 1: the owner moves down (his own numbers), game 2: up (25 - p), as FIBS swaps them
    text = (HEAD + "13:bob:\r\n6:You:bob\r\n11:You:3 1\r\n1:You:8-5 6-5 \r\n0:bob:6 5\r\n1:bob: 1-7 7-12\r\n"
            "3:bob:1\r\n7:You:1\r\n14:ann-1:bob-0\r\n13:bob:\r\n6:You:bob\r\n11:bob:6 4\r\n1:bob: 24-18 18-14\r\n"
            "0:You:2 1\r\n1:You:bar-2 1-2 \r\n")
    _, first, second, end = javafibs.read_text(text)
    assert [(a.side, a.kind, a.play_text) for a in first.actions] == [
        (0, ActionKind.MOVE, "8/5 6/5"), (1, ActionKind.MOVE, "24/18 18/13"), (1, ActionKind.RESIGN, ""),
        (0, ActionKind.WIN, "")]
    assert [(a.side, a.play_text) for a in second.actions] == [(1, "24/18 18/14"), (0, "bar/23 24/23")]
    assert first.players == ("ann", "bob") and second.scores == (1, 0) and end.errors == ()


def test_a_resignation_rejected_is_no_resignation():
    text = (HEAD + "13:bob:\r\n6:You:bob\r\n11:You:3 1\r\n1:You:8-5 6-5 \r\n3:bob:2\r\n12:You:\r\n"
            "0:bob:6 5\r\n1:bob: 1-7 7-12\r\n")
    _, game, end = javafibs.read_text(text)
    assert [a.kind for a in game.actions] == [ActionKind.MOVE, ActionKind.MOVE] and end.errors == ()
    assert (8, "12:You:") in [(n, t) for n, t in end.comments]   # kept, by line


def test_broken_javafibs_records_are_one_line_each():
    good = SAVED.read_text(encoding="utf-8")
    cases = {("0:root:6 1", "0:root:7 1"): "7:1: cannot read the roll",
             ("1:root: 13-7 8-7", "1:root: 13-x 8-7"): "8:9: cannot read the play '13-x 8-7'",
             ("1:root: 13-7 8-7", "1:carl: 13-7 8-7"): "8:1: '1:carl: 13-7 8-7' names 'carl'",
             ("0:root:6 1", "root rolls 6 1"): "7:1: cannot read 'root rolls 6 1'",
             ("0:root:6 1\n", ""): "7:1: a play with no roll before it: '1:root: 13-7 8-7'"}
    for (old, new), words in cases.items():
        old, new = (old, new) if old.endswith("\n") else (old + "\n", new + "\n")
        *_, end = javafibs.read_text(good.replace(old, new, 1), "bad.match")
        assert [str(e) for e in end.errors][:1] == [str(end.errors[0])] and f"bad.match:{words}" in str(end.errors[0])
        assert len(end.errors) == 1 or "rolls" in new or "carl" in new, end.errors
    try:
        list(javafibs.read_text("8:bob:5\n", "x.match"))
    except Exception as exc:
        assert "x.match:1:1: not a JavaFIBS match" in str(exc)
    else:
        raise AssertionError("a file without the prolog read as JavaFIBS")
    games = [p for p in javafibs.read_text(good) if isinstance(p, GameRecord)]
    assert len(games) == 4
