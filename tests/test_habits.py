"""Habits of real files from real programs, each read as its program means it.

An audit that accuses a clean record is worse than no audit: each test below
is named for a habit found in files that servers and programs write, and
checks that bgcli reads it as that program means it (with a warning that
names the habit where it hides something a careful reader should know), and
that a real defect beside it is still found. docs/formats.md lists them.
"""
from __future__ import annotations

from conftest import DATA, committed, invoke

from bgcli.formats.files import replay_file



def audit_lines(path) -> tuple[int, list[str]]:
    result = invoke("audit", str(path))
    return result.exit_code, [line for line in result.output.splitlines() if line.startswith(str(path))]


def cut_after_a_roll(tmp_path):
    """A gnubg self-play match cut off right after a roll, as a FIBS export
    whose last row is ``57) 53:``: the roll is written, its play is not."""
    lines = committed(DATA / "oracle/selfplay/sp05001_3pt.mat").read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("  3) 53:"))
    path = tmp_path / "cut.mat"
    path.write_text("\n".join(lines[:row] + ["  3) 53:"]) + "\n")
    return path


def test_habit_record_cut_off_right_after_a_roll_is_only_incomplete(tmp_path):
    path = cut_after_a_roll(tmp_path)
    status, lines = audit_lines(path)
    assert status == 0, lines
    assert len(lines) == 1 and "warning: incomplete" in lines[0], lines


def test_a_dance_claimed_in_the_middle_of_a_game_is_still_an_error(tmp_path):
    # the same empty cell with the game going on after it is a dance the record claims
    lines = committed(DATA / "oracle/selfplay/sp05001_3pt.mat").read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("  3) 53:"))
    lines[row] = "  3) 53:" + lines[row][lines[row].index("61:") - 8:]
    path = tmp_path / "dance.mat"
    path.write_text("\n".join(lines) + "\n")
    status, found = audit_lines(path)
    assert status == 1 and any(": dance: " in line for line in found), found


LIVE_EVENT = """; [Site ""]
; [Event "A live event, transcribed"]

 9 point match

 Game 1
 Alice : 5                      Bob : 7
  1) 31: 8/5 6/5                 21: 13/11 24/23
  2)  Doubles => 2               Takes
  3) 62: ????                    Wins {points} point and the match
"""


def test_habit_galaxy_wins_the_match_length_and_the_match_is_a_warning_anywhere(tmp_path):
    # a resignation that wins the match written with the match length, the
    # winner's final score (Galaxy's habit, here with an empty Site tag)
    path = tmp_path / "live.mat"
    path.write_text(LIVE_EVENT.format(points=9))
    status, lines = audit_lines(path)
    assert status == 0, lines
    assert len(lines) == 1 and "warning: points" in lines[0] and "match length" in lines[0], lines
    (replay,) = replay_file(str(path))
    assert replay.score == (5, 9) and replay.winner == "Bob"


def test_a_wins_line_that_is_neither_the_worth_nor_the_final_score_is_an_error(tmp_path):
    path = tmp_path / "live.mat"
    path.write_text(LIVE_EVENT.format(points=7))
    status, lines = audit_lines(path)
    assert status == 1 and any(": points: " in line and "warning" not in line for line in lines), lines
