"""A result line that names the player who dropped.

Some writers put every result line in the left column, whoever won: a .mat
writer of a web app ('; [Site "miniapp backgammon"]', its `toMat` writes
``      Wins N point`` at column 6 always). After the right player's double
and the left player's drop the record then says the dropper wins. bgcli took
the line's column silently and scored the game to the player who dropped, a
drop won by the dropper. A drop gives the game to the doubler: the record's
contradiction is now one error at the result line, naming both, and the
game is the doubler's. (GNU Backgammon 1.07's import credits the named player
instead, by a second double and a resignation it makes up after the drop.)
tests/data/real/result-line-left/ holds two games written anew with that
writer's layout; the first, the left player's double dropped, is right.
"""
from __future__ import annotations

from conftest import DATA

from bgcli.formats.files import replay_file

FILE = DATA / "real" / "result-line-left" / "drop_result_in_the_left_column.mat"


def test_a_result_line_naming_the_dropper_is_one_error_and_the_game_is_the_doublers():
    (replay,) = list(replay_file(str(FILE)))
    assert [(p.line, p.kind.value, p.severity.value) for p in replay.problems] == [(17, "points", "error")]
    assert "White_you is said to win but White_you dropped Black_ai's double" in replay.problems[0].message
    assert [(r.winner, r.result.value, r.points, r.score) for r in replay.results] == [
        ("White_you", "drop", 1, (1, 0)), ("Black_ai", "drop", 1, (1, 1))]
