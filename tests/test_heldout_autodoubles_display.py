"""Automatic doubles in a money session GNU Backgammon played with its display
on, as a user plays (tests/data/heldout-autodoubles-display, NOTE.md says how).

gnubg 1.07 doubles the cube for an equal opening roll only inside its
``if (fDisplay)`` branch: every other held-out session was played with ``set
display off``, where the live cube stays at 1 (so its running score leaves
the automatic doubles out, and their limit never stops them: a cube of 16 under
a limit of 2, tests/data/heldout-text-export), while the game's record counts
them. With the display on, the running score counts them and the limit holds:
bgcli's reading of gnubg's SGF and text export gives gnubg's points and running
score, game by game. gnubg's .mat export still writes each such game as if no
automatic double was made (``Doubles => 2``, ``Wins 1 point``) under a next
game's header that counts it: read as written, that is a score error.
"""
from __future__ import annotations

import gzip
import json

from bgcli.core.rules import Rules
from bgcli.formats.files import replay_file

from conftest import DATA, committed

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


def test_gnubgs_mat_export_leaves_the_automatic_double_out_of_the_game_not_the_score():
    (replay,) = list(replay_file(str(committed(FOLDER / "dr45301_money.mat")), Rules(beavers=True, raccoons=2)))
    assert (replay.results[0].winner, replay.results[0].points) == ("root", 1)   # 'Wins 1 point' at cube 2
    assert replay.problems[0].message == "game 2 starts at 0-2 but the games before give 0-1"
