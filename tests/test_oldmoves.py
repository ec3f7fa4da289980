"""FIBS's oldmoves logs (bgcli/formats/oldmoves.py), judged against GNU
Backgammon's ``import oldmoves``.

The samples (tests/data/imports/*.fibs) are gnubg's self-play matches
written as oldmoves logs by tests/data/imports/make_samples.py; gnubg read
each with ``import oldmoves`` and exported it as .mat (gnubg_export.py, run
in gnubg: ``NAME.gnubg.mat``). bgcli's reading of each log must replay as its
reading of gnubg's .mat, and as the self-play match it was made from.
"""
from __future__ import annotations

import pytest

from conftest import DATA, SELFPLAY, committed, committed_glob, invoke
from test_real_files import replayed

from bgcli.errors import MatchFileError
from bgcli.formats import registry
from bgcli.formats.files import read_any, replay_file
from bgcli.match.records import ActionKind

IMPORTS = DATA / "imports"
LOGS = committed_glob(IMPORTS, "*.fibs")


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.rsplit("/", 1)[-1])
def test_a_log_replays_as_gnubg_reads_it(path):
    stem = path[:-len(".fibs")]
    mine = replayed(path)
    assert mine == replayed(str(committed(stem + ".gnubg.mat")))
    assert mine == replayed(str(committed(SELFPLAY / (stem.rsplit("/", 1)[-1] + ".mat"))))
    assert [p.message for replay in replay_file(path) for p in replay.problems] == []


def test_a_log_is_known_by_its_score_line_whatever_its_name(tmp_path):
    text = (IMPORTS / "sp05001_3pt.fibs").read_bytes()
    assert registry.choose("log.txt", text[:registry.HEAD_SIZE]).name == "oldmoves"
    renamed = tmp_path / "match.txt"
    renamed.write_bytes(text)
    assert replayed(str(renamed)) == replayed(str(IMPORTS / "sp05001_3pt.fibs"))


def write(tmp_path, text: str) -> str:
    path = tmp_path / "log.fibs"
    path.write_text(text, encoding="utf-8")
    return str(path)


GAME = """Score is 0-0 in a 3 point match.
  ann is X - bob is O
X: (3 1) 17-20 19-20
O: (6 4) 24-18 13-9
X: doubles
O: accepts
X: (6 6) can't move
"""


def test_the_climbing_player_s_plays_are_turned_round(tmp_path):
    game = read_any(write(tmp_path, GAME))[0].games[0]
    assert game.players == ("ann", "bob")
    assert [(a.side, a.kind, a.play_text) for a in game.actions] == [
        (0, ActionKind.MOVE, "8/5 6/5"), (1, ActionKind.MOVE, "24/18 13/9"), (0, ActionKind.DOUBLE, ""),
        (1, ActionKind.TAKE, ""), (0, ActionKind.DANCE, "")]


def test_a_later_game_may_name_the_players_the_other_way_round(tmp_path):
    second = ("\nScore is 1-0 in a 3 point match.\n  bob is X - ann is O\n"
              "X: (3 1) 8-5 6-5\nO: (6 4) 1-7 1-5\n")
    games = read_any(write(tmp_path, GAME.replace("X: (6 6) can't move\n", "O: rejects\nX: wins 1 point\n")
                           + second))[0].games
    assert [g.players for g in games] == [("ann", "bob")] * 2
    assert games[1].scores == (0, 1)
    assert [(a.side, a.play_text) for a in games[1].actions] == [(1, "8/5 6/5"), (0, "24/18 24/20")]


def test_a_resignation_is_worth_the_points_the_log_says(tmp_path):
    """gnubg's import reads every resignation as a single game (import.c: "FIXME
    determine from score"); bgcli reads the points the winner got."""
    path = write(tmp_path, GAME.replace("X: (6 6) can't move\n", "O: wants to resign\nX: wins 4 points\n"))
    replay = next(iter(replay_file(path)))
    assert [p.message for p in replay.problems] == []
    assert replay.score == (4, 0)


def test_other_players_begin_another_match(tmp_path):
    text = GAME + "\nScore is 0-0 in an unlimited match.\n  cat is X - dan is O\nX: (2 1) 13-11 6-5\n"
    records = read_any(write(tmp_path, text))
    assert [(r.length, r.players) for r in records] == [(3, ("ann", "bob")), (0, ("cat", "dan"))]


def test_a_line_that_is_no_action_is_one_error_at_its_line_and_the_rest_is_read(tmp_path):
    path = write(tmp_path, GAME.replace("X: doubles", "X: doubels"))
    record = read_any(path)[0]
    assert [(e.line, str(e).split(": ", 1)[0]) for e in record.errors] == [(5, f"{path}:5:1")]
    assert len(record.games[0].actions) == 4


def test_lines_outside_the_games_are_kept_as_comments(tmp_path):
    record = read_any(write(tmp_path, "> oldmoves ann\n" + GAME))[0]
    assert record.comments == ((1, "> oldmoves ann"),)


@pytest.mark.parametrize("text", ["", "X: (3 1) 8-5 6-5\n", "Score is 0-0 in a 3 point match.\nann vs bob\n",
                                  "Score is 0-0 in a " + "9" * 5000 + " point match.\n  a is X - b is O\n"])
def test_what_is_no_log_is_one_error(tmp_path, text):
    with pytest.raises(MatchFileError):
        read_any(write(tmp_path, text))
    result = invoke("audit", write(tmp_path, text))
    assert result.exit_code == 2 and result.output.count("Error:") == 1 and "Traceback" not in result.output


@pytest.mark.parametrize("to", ["mat", "sgf", "json"])
def test_a_log_exports_to_every_written_format_and_reads_back_the_same(tmp_path, to):
    from bgcli.formats.files import export

    path = LOGS[0]
    text, left_out = export(read_any(path), to)
    assert left_out == []
    back = tmp_path / f"back.{to}"
    back.write_text(text, encoding="utf-8")
    assert replayed(str(back)) == replayed(path)
