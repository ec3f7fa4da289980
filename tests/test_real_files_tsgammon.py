"""The .mat that tsgammon-ui writes (tkshio's web app for backgammon and
Japanese sugoroku; its .mat writer is ``formatMatchRecord`` of
https://github.com/tkshio/tsgammon-core, ``src/records/utils/``, Apache-2.0).

Its habits: a drop written ``Pass`` in the dropper's column (the double's
row, or a row of its own), where gnubg and Jellyfish write ``Drops``; the
double ``Doubles => 2`` with a blank before it in a 34-column cell; the
players' tags unquoted (``; [Player 1 White]``); three blank lines between
games; the result on an unnumbered line, the right player's ``Wins N point``
at column 40 and the left one's padded with trailing blanks; and the game in
play when the file was written, with no result. bgcli called each ``Pass`` an
unreadable row. The file here is written anew cell by cell as the writer lays
it out (tests/data/real/PROVENANCE.md).
"""
from __future__ import annotations

import pytest
from conftest import DATA

from bgcli.errors import MatchFileError
from bgcli.formats.files import replay_file
from bgcli.formats.mat import read_row
from bgcli.match.records import ActionKind
from bgcli.match.replay import ProblemKind

TSGAMMON = DATA / "real" / "tsgammon-ui" / "pass_and_current_game_3pt.mat"


def test_habit_tsgammon_pass_reads_as_a_drop_and_the_file_is_clean():
    (replay,) = list(replay_file(str(TSGAMMON)))
    # the one thing to say: the game in play when the app wrote the file has no result
    assert [(p.kind, p.game) for p in replay.problems] == [(ProblemKind.INCOMPLETE, 3)]
    assert [(r.winner, r.result.value, r.points) for r in replay.results] == [("White", "drop", 1), ("Red", "drop", 1)]


def test_pass_is_a_drop_in_either_column_and_passes_is_still_no_mat_word():
    (double, drop) = read_row("  2)  Doubles => 2                     Pass")
    assert (double.kind, double.cube, drop.kind, drop.side) == (ActionKind.DOUBLE, 2, ActionKind.DROP, 1)
    (alone,) = read_row("  4) Pass")
    assert (alone.kind, alone.side) == (ActionKind.DROP, 0)
    for word in ("Passes", "Passed"):   # FIBS's answer, and no writer's word
        with pytest.raises(MatchFileError):
            read_row(f" 11)  {word}")
