"""The replay's own rules: plays are read by the notation's reader (the
grammar's spellings only), and the archive conventions are named policies."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.core.position import Position
from bgcli.core.notation import parse_play
from bgcli.errors import BgcliError
from bgcli.match import Action, ActionKind, GameRecord, MatchRecord, ProblemKind, replay_match
from bgcli.match.conventions import EXACT, GALAXY, points_convention


def one_move(text: str, dice=(6, 1)) -> MatchRecord:
    move = Action(5, 1, 1, 0, ActionKind.MOVE, dice=dice, play_text=text)
    # the game goes on after the move (a roll with no play as the last cell
    # of a record is where the record stops, not a dance)
    after = Action(5, 30, 1, 1, ActionKind.DOUBLE, cube=2)
    return MatchRecord(1, (GameRecord(1, ("Ann", "Bob"), (0, 0), (move, after), 3),), 1)


def play_problems(text: str, dice=(6, 1)) -> list:
    replay = replay_match(one_move(text, dice))
    return [p for p in replay.problems if p.kind in (ProblemKind.PLAY, ProblemKind.DICE, ProblemKind.UNCHECKED, ProblemKind.DANCE)]


def test_arabic_indic_digits_are_not_a_play():
    # '١٣/٧ ٨/٧' is 13/7 8/7 in Arabic-Indic digits: the grammar refuses it, so the replay does
    problems = play_problems("\u0661\u0663/\u0667 \u0668/\u0667")
    assert [p.kind for p in problems] == [ProblemKind.PLAY]   # the game goes on from a legal play of 61
    assert "invalid play" in problems[0].message
    assert play_problems("13/7 8/7") == []


@settings(max_examples=300)
@given(st.text(alphabet="0123456789\u0661\u0663\u0667\u0668\u00b9/ *b", min_size=1, max_size=12))
def test_the_replay_accepts_exactly_what_the_reader_accepts(text):
    try:
        parse_play(text, Position.start(), (6, 1), side=0)
        legal = True
    except BgcliError:
        legal = False
    assert (play_problems(text) == []) == legal


def test_galaxy_writes_a_match_winner_as_the_points_still_needed():
    assert GALAXY.accepts(1, 4, needed=1) and not EXACT.accepts(1, 4, needed=1)
    assert GALAXY.accepts(4, 4, needed=1) and not GALAXY.accepts(2, 4, needed=1)
    assert not GALAXY.accepts(1, 4, needed=0)   # money play: nothing is needed
    assert points_convention({"Site": "Backgammon Galaxy"}) is GALAXY
    assert points_convention({"Site": "FIBS"}) is EXACT
