"""The exact engine in hypergammon: a side counts the checkers the variant lacks as borne off from the
start (core.rules.Variation.off_at_start), so a raw off count above 0 is not yet a checker of its own
borne off, and a gammon may still be won. The exact engine asked the raw count and judged such a
bear-off as one with no gammon left; it now asks core.value.possible_wins, as the rest of bgcli does.
The sample is gnubg 1.07's hypergammon match of 2 checkers (tests/data/variants/make_hypergammon.sh)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bgcli.core.position import OFF
from bgcli.core.rules import Variation
from bgcli.core.value import Win, possible_wins
from bgcli.engines import exact
from bgcli.errors import EngineError
from bgcli.formats.files import replay_file
from bgcli.match.replay import EventKind

HYPER2 = Path(__file__).parent / "data" / "variants" / "hypergammon2_5pt.gnubg.mat"


def _last_roll_of_game_one():
    """Game 1's last roll (root's 62: 3/1 1/0): root has one checker left, gnubg two home and none of
    its own off, so root's win is a gammon (the file says 'Wins 4 points' at a cube of 2)."""
    replay, = replay_file(str(HYPER2))
    moves = [e for e in replay.events if e.kind == EventKind.MOVE and e.game == 1]
    last = moves[-1]
    assert last.dice == (6, 2)
    return last.before


def test_the_sample_is_a_bear_off_the_raw_off_counts_would_call_gammonless():
    state = _last_roll_of_game_one()
    position = state.position
    assert state.match.rules.variation is Variation.HYPERGAMMON_2
    assert position.player[OFF] > 0 and position.opponent[OFF] > 0   # what the old check asked
    assert Win.GAMMON in possible_wins(position, variation=Variation.HYPERGAMMON_2)


def test_exact_refuses_a_hypergammon_bear_off_where_a_gammon_is_still_possible():
    state = _last_roll_of_game_one()
    engine = exact.ExactEngine()
    assert not exact.inside(state)   # the two-sided tables count no gammon
    with pytest.raises(EngineError, match="of their own"):
        engine.evaluate(state)
    with pytest.raises(EngineError):
        engine.cube_decision(state)


def test_the_same_board_in_the_standard_game_is_judged():
    """In the standard game the same counts are 13 and 14 checkers off: no gammon, and the exact answer stands."""
    state = _last_roll_of_game_one()
    standard = replace(state, match=replace(state.match, rules=replace(state.match.rules, variation=Variation.STANDARD)))
    assert exact.inside(standard)
    assert exact.ExactEngine().evaluate(standard).probabilities.win == 1.0
