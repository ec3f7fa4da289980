"""Automatic doubles in a money session GNU Backgammon played with its display
on, as a user plays (tests/data/heldout-autodoubles-display, NOTE.md says how).

gnubg 1.07 doubles the cube for an equal opening roll only inside its
``if (fDisplay)`` branch: every other held-out session was played with ``set
display off``, where the live cube stays at 1 (so its running score leaves
the automatic doubles out, and their limit never stops them: a cube of 16 under
a limit of 2, tests/data/heldout-text-export), while the game's record counts
them. With the display on, the running score counts them and the limit holds:
bgcli's reading of gnubg's SGF and text export gives gnubg's points and running
score, game by game. gnubg's .mat export writes each such game as if no
automatic double was made (``Doubles => 2``, ``Wins 1 point``) under a next
game's header that counts it: read as gnubg's habit
(bgcli.match.conventions.autodoubled_cube), the header says the cube the
game began at.
"""
from __future__ import annotations

import gzip
import json

from bgcli.core.rules import Rules
from bgcli.formats.files import replay_file

from conftest import DATA, committed, invoke

FOLDER = DATA / "heldout-autodoubles-display"
GNUBG = json.loads(committed(FOLDER / "gnubg_games.json").read_text())


def test_the_limit_held():
    assert {game["initial_cube"] for game in GNUBG} == {1, 2, 4}   # 'set automatic doubles 2'


def test_gnubgs_sgf_gives_its_points_and_running_score():
    (replay,) = list(replay_file(str(committed(FOLDER / "dr45301_money.sgf"))))
    assert replay.problems == []
    assert [(r.winner, r.points) for r in replay.results] == [(g["winner"], g["points"]) for g in GNUBG]
    before = [(0, 0)] + [r.score for r in replay.results[:-1]]
    assert [list(score) for score in before] == [g["score"] for g in GNUBG]


def test_the_text_export_of_a_game_begun_at_cube_2(tmp_path):
    path = tmp_path / "dr45301_money.txt"
    path.write_bytes(gzip.decompress(committed(FOLDER / "dr45301_money.txt.gz").read_bytes()))
    (replay,) = list(replay_file(str(path)))
    assert replay.problems == []
    (result,) = replay.results
    assert (result.winner, result.cube, result.points) == (GNUBG[0]["winner"], 2, GNUBG[0]["points"]) == ("root", 2, 2)


def test_gnubgs_mat_export_reads_as_gnubgs_habit_the_games_begun_with_automatic_doubles():
    # written as if no automatic double was made ('Doubles => 2', 'Wins 1 point' for a drop at 4 of a game
    # begun at 2) under a next header that counts them: the header says the cube the game began at
    # under the session's rule ('set automatic doubles 2'), which gnubg's .mat does not write
    rules = Rules(beavers=True, raccoons=2, auto_doubles=2)
    (replay,) = list(replay_file(str(committed(FOLDER / "dr45301_money.mat")), rules))
    assert replay.problems == []   # 3 score errors (8 in the 4 sessions) read as written
    assert [(r.winner, r.points) for r in replay.results] == [(g["winner"], g["points"]) for g in GNUBG]
    assert (replay.results[0].cube, replay.results[5].cube) == (2, 1024)   # a drop at 4 begun at 2; 256 at 4
    before = [(0, 0)] + [r.score for r in replay.results[:-1]]
    assert [list(score) for score in before] == [g["score"] for g in GNUBG]


def test_the_sessions_limit_of_automatic_doubles_bounds_the_habit():
    # game 6 began at 4 (two automatic doubles): under a rule of one, its next header is an error naming both
    (replay,) = list(replay_file(str(committed(FOLDER / "dr45301_money.mat")), Rules(auto_doubles=1)))
    (message,) = [p.message for p in replay.problems]
    assert message.startswith("game 7 starts at 1025-9 but the games before give 257-9: ")   # and the hint
    assert "--auto-doubles N" in message   # test_mat_autodoubles_hint.py
    assert [r.points for r in replay.results[:6]] == [2, 1, 4, 1, 2, 256]


def test_the_audit_of_gnubgs_mat_export_is_clean():
    result = invoke("audit", "--auto-doubles", "2", committed(FOLDER / "dr45301_money.mat"))
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output


def test_without_a_rule_of_automatic_doubles_the_headers_are_read_as_written():
    # gnubg's .mat writes no rule of them and no game shows one: with none given, a header that gives the
    # winner twice the written points is a slip of the score line (test_repair's sp05007), not the habit
    (replay,) = list(replay_file(str(committed(FOLDER / "dr45301_money.mat"))))
    assert [p.kind.name for p in replay.problems] == ["SCORE"] * 3
    assert [r.points for r in replay.results[:6]] == [1, 1, 4, 1, 1, 256]
