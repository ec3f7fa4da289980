"""bgammon.org's replay files (``.match``): the free server's and its Boxcars
client's download of a match (https://bgammon.org; the server's own
specification is ``REPLAY.md`` of tslocum/bgammon). bgcli read none of them:
'not a match file: no 'N point match' line'.

The file here is written by ``tests/data/real/bgammon-org/make_replay.py``
from a gnubg self-play match (no replay of the site with a licence to keep
was found): the same match in the site's words, so its replay must be the
.mat's, action for action.
"""
from __future__ import annotations

from conftest import DATA, SELFPLAY, committed, invoke

from bgcli.formats import bgammon, registry
from bgcli.formats.files import replay_file
from bgcli.match.records import ActionKind, GameRecord, MatchEnd, MatchHeader

REPLAY = DATA / "real" / "bgammon-org" / "gnubg-root_3pt_sp05001.match"
SOURCE = SELFPLAY / "sp05001_3pt.mat"


def _story(path):
    (replay,) = list(replay_file(str(committed(path))))
    moves = [(e.game, e.side, e.kind.value, e.dice and tuple(sorted(e.dice)), e.after)
             for e in replay.events]
    return replay, moves


def test_habit_bgammon_replay_reads_as_the_match_it_records():
    replay, moves = _story(REPLAY)
    source, expected = _story(SOURCE)
    assert replay.problems == [] and replay.unfinished == []
    assert replay.length == 3 and replay.players == ("gnubg", "root")
    assert moves == expected   # every roll, play (its result), double, answer and result, each player's
    assert [(r.winner, r.result.value, r.points) for r in replay.results] == [
        (r.winner, r.result.value, r.points) for r in source.results]
    assert replay.tags["Site"] == "bgammon.org" and replay.tags["Crawford"] == "Off"
    assert (replay.tags["EventDate"], replay.tags["EventTime"]) == ("2025.12.01", "00.00")


def test_a_bgammon_replay_is_known_by_its_index_whatever_its_name():
    head = REPLAY.read_bytes()[:registry.HEAD_SIZE]
    assert registry.choose(str(REPLAY), head).name == "bgammon"
    assert registry.choose("download.txt", head).name == "bgammon"
    assert registry.choose("-", head).name == "bgammon"
    result = invoke("audit", REPLAY)
    assert result.exit_code == 0, result.output


def test_a_replay_written_before_the_start_time_was_added_reads_the_same():
    text = REPLAY.read_text(encoding="utf-8")
    old = "\n".join(" ".join(w for i, w in enumerate(line.split()) if i != 1) if line.startswith("i ") else line
                    for line in text.splitlines()) + "\n"
    parts = list(bgammon.read_text(old))
    new = list(bgammon.read_text(text))
    def story(parts):
        return [[(a.side, a.kind, a.dice, a.play_text, a.cube, a.points) for a in p.actions]
                for p in parts if isinstance(p, GameRecord)]

    assert story(parts) == story(new) and len(story(parts)) == 4
    assert "EventDate" not in parts[0].tags and parts[-1] == MatchEnd()


def test_player_twos_points_are_read_as_he_numbers_them():
    text = ("bgammon-replay 00000024\ni 0 ann bob 1 0 0 0 0 0\n1 r 3-1 8/5 6/5\n2 r 6-5 1/7 7/12\n"
            "1 r 4-4 13/9 13/9 24/20 24/20\n2 r 2-1 bar/2 12/14\n")
    header, game, end = bgammon.read_text(text)
    assert isinstance(header, MatchHeader) and header.length == 1
    assert [(a.side, a.play_text) for a in game.actions] == [
        (0, "8/5 6/5"), (1, "24/18 18/13"), (0, "13/9 13/9 24/20 24/20"), (1, "bar/23 13/11")]
    assert end.errors == ()


def test_a_double_declined_and_a_resignation_are_the_cube_and_the_result():
    text = ("i 0 ann bob 5 0 0 1 1 0\n1 r 3-1 8/5 6/5\n2 d 2 0\ni 60 ann bob 5 1 0 2 2 0\n1 d 2 1\n1 t\n")
    _, first, second, end = bgammon.read_text(text)
    assert [a.kind for a in first.actions] == [ActionKind.MOVE, ActionKind.DOUBLE, ActionKind.DROP, ActionKind.WIN]
    assert [(a.side, a.kind, a.cube, a.points) for a in second.actions] == [
        (0, ActionKind.DOUBLE, 2, None), (1, ActionKind.TAKE, None, None), (0, ActionKind.RESIGN, None, None),
        (1, ActionKind.WIN, None, 2)]
    assert end.errors == ()


def test_broken_replays_are_one_line_each_at_their_line(tmp_path):
    good = REPLAY.read_text(encoding="utf-8")
    cases = {
        "1 r 7-3 8/1 6/3": "cannot read the roll",
        "1 r 3-1 8/5 6/x": "cannot read the step '6/x'",
        "1 x": "cannot read the event",
        "2 d two 1": "cannot read the double",
    }
    for line, words in cases.items():
        text = good.replace("1 r 4-1 11/7 8/7\n", line + "\n", 1)
        *_, end = bgammon.read_text(text, "bad.match")
        (error,) = end.errors
        assert words in str(error) and str(error).startswith("bad.match:8:"), str(error)
    # a game of another variant: one error at its line, the game skipped
    *_, end = bgammon.read_text("i 0 ann bob 1 0 0 1 1 1\n1 r 3-1 bar/24 bar/22\n", "acey.match")
    assert [str(e) for e in end.errors] == [
        "acey.match:1:1: game 1 is acey-deucey, a variant bgcli does not replay: the game is skipped"]
    # an index that lists more games than the file holds
    *_, end = bgammon.read_text("bgammon-replay 00000048\nbgammon-replay 00000099\n" + good.split("\n", 4)[4])
    assert "the index lists 2 games, the file holds" in str(end.errors[0])
    # an illegal play is the replay's error at its line, in the file's own words
    bad = good.replace("1 r 4-1 11/7 8/7\n", "1 r 4-1 11/7 8/4\n", 1)
    path = tmp_path / "illegal.match"
    path.write_text(bad, encoding="utf-8")
    result = invoke("audit", path)
    assert result.exit_code == 1 and "illegal.match:8" in result.output, result.output


def test_a_game_line_that_does_not_read_is_the_error_of_a_file_without_games():
    try:
        list(bgammon.read_text("bgammon-replay 00000024\ni 1 a b 99999999999 0 0 1 1 0\n", "big.match"))
    except Exception as exc:
        assert str(exc).startswith("big.match:2:1: cannot read the game line"), str(exc)
    else:
        raise AssertionError("a match length of 11 digits read")


def test_a_file_with_only_an_index_is_no_replay():
    try:
        list(bgammon.read_text("bgammon-replay 00000024\n", "empty.match"))
    except Exception as exc:
        assert str(exc) == "empty.match:1:1: not a bgammon.org replay: no game ('i' line) in it"
    else:
        raise AssertionError("an index alone read as a match")
