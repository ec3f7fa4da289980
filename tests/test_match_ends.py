"""'Right before the end of a game': one owner (bgcli.match.records.ends_after)
that the replay and its look-ahead both ask.

A roll with no play, or a play cut short (steps that can each be made, fewer
dice than the roll allows), right before a resignation is the turn the loser
gave up (OpenGammon writes the steps made, then the opponent's 'Wins'):
docs/formats.md's habits table. The replay held it back so; the look-ahead
after a slip (bgcli.match.resync) called the same play not fitting, and took a
resignation written with no roll ('Resigns', OpenGammon's 'Resigned Game') as
an end where the replay did not. `bgcli audit` and `bgcli repair` replay the
same way, so each record here is asked of both."""
from __future__ import annotations

import json

import pytest

from conftest import invoke
from bgcli.match.game import _HANDLERS  # noqa: PLC2701  (the replay's methods: which kinds are notes)
from bgcli.match.records import NOTES, ActionKind

# gnubg's own game (tests/data/jellyfish/sp05002_5pt.mat, game 1) with move 15's play written from a
# point gnubg has no checker on (it cannot be applied), and gnubg's last turn cut short: '22: 4/0 2/0'
# (three dice of four), then root's 'Wins 2 points': gnubg resigned in the middle of the turn
BEAR_OFF = """ 5 point match

 Game 1
 gnubg : 0                      root : 0
  1) 42: 8/4 6/4                 22: 24/22 24/22 6/4 6/4
  2) 66: 24/18 24/18 13/7 13/7   64: 13/9 9/3
  3) 64: 13/7 6/2                54: 13/9 8/3
  4) 54: 18/14 18/13             51: 13/8 6/5
  5)  Doubles => 2                Takes
  6) 51: 14/9 9/8                62: 8/6 8/2
  7) 42: 13/9 9/7                32: 8/5 4/2
  8) 54: 8/4 7/2                 31: 9/6 6/5
  9) 52: 13/11 13/8              11: 13/12 6/5 5/4 5/4
 10) 44: 11/7 8/4 8/4 8/4        63: 13/7 4/1
 11) 43: 7/4 6/2                 31: 12/11 11/8
 12) 44: 6/2 6/2                 66: 22/16 16/10 8/2 7/1
 13) 11: 4/3* 4/3 2/1 2/1        32:
 14) 42: 7/3 4/2                 41:
 15) 54: {fifteen}                 32:
 16) 53: 4/0 3/0                 63: 25/19 19/16
 17) 62: 4/0 2/0                 52: 16/11 11/9
 18) 22: {last}
                                Wins 2 points
"""


def _both(tmp_path, text: str) -> tuple[list[tuple], list[tuple], list[tuple]]:
    """What `bgcli audit` finds, what `bgcli repair` lists, and what the repaired record still has:
    (line, kind, severity) each."""
    path = tmp_path / "game.mat"
    path.write_text(text, encoding="utf-8")
    audited = json.loads(invoke("audit", "--json", path).output)
    repaired = json.loads(invoke("repair", "--json", path).output)
    keys = lambda found: [(p["line"], p["kind"], p["severity"]) for p in found]  # noqa: E731
    return keys(audited["problems"]), keys(repaired["problems"]), keys(repaired["still"])


INCOMPLETE = (23, "incomplete", "warning")   # the record is one game of a 5-point match


@pytest.mark.parametrize("last", ["4/0 2/0", "4/0 2/0 3/1"], ids=["cut-short", "whole"])
def test_a_turn_cut_short_by_a_resignation_fits_the_look_ahead_as_the_replay_holds_it(tmp_path, last):
    # the slip at move 15 cannot be applied: the replay goes on from the legal play that the next six
    # plays fit. The look-ahead called the cut-short '22: 4/0 2/0' not fitting, so only five did and
    # 'the rest of this game is not checked' (a warning that a whole last turn does not get)
    audit, repair, still = _both(tmp_path, BEAR_OFF.format(fifteen="9/4 9/5", last=last))
    assert audit == repair == [(19, "play", "error"), INCOMPLETE]
    assert still == [INCOMPLETE]


def test_a_turn_cut_short_by_a_resignation_is_clean_in_audit_and_repair(tmp_path):
    audit, repair, still = _both(tmp_path, BEAR_OFF.format(fifteen="7/3 7/2", last="4/0 2/0"))
    assert audit == repair == still == [INCOMPLETE]


OPENGAMMON = """; [Site "OpenGammon"]

 3 point match

 Game 1
 alice : 0                          bob : 0
  1) 31: 8/5 6/5                    64: {play}
  2) {resigns}
      Wins 1 point
"""


@pytest.mark.parametrize("play, resigns, problems", [
    # OpenGammon's 'Resigned Game' in the winner's column, Jellyfish's 'Resigns' in the loser's: a
    # resignation with no roll of its own ends the turn before it, as the 'Wins' after it does
    ("24/18", "Resigned Game", []),
    ("24/18", "                                Resigns", []),
    ("", "                                Resigns", []),            # rolled, then resigned
    # a resignation after a roll of its own (Studio's '62: Concedes'): alice rolled, so bob's turn was
    # over and cut short, an illegal play (and bob wins: alice conceded)
    ("24/18", "62: Concedes", [(7, "play", "error")]),
], ids=["resigned-game", "resigns", "resigns-after-a-roll", "concedes-after-rolling"])
def test_a_resignation_with_no_roll_ends_the_turn_before_it(tmp_path, play, resigns, problems):
    text = OPENGAMMON.format(play=play, resigns=resigns)
    if "Concedes" in resigns:
        text = text.replace("      Wins 1 point", "                                    Wins 1 point")
    audit, repair, _ = _both(tmp_path, text)
    assert [p for p in audit if p[1] != "incomplete"] == problems
    assert [p for p in repair if p[1] != "incomplete"] == problems


def test_the_notes_are_the_kinds_the_replay_has_no_method_for():
    assert NOTES == set(ActionKind) - set(_HANDLERS)
