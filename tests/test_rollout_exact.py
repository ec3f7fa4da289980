"""The exact-value cases: where a rollout's answer is known exactly (the two-sided bear-off table; a
play that is clearly right), its 95% interval holds it."""
from __future__ import annotations

import pytest

from bgcli.core.generator import legal_plays
from bgcli.core.ids import parse_position
from bgcli.core.position import Position
from bgcli.core.state import GameState
from bgcli.core.value import STANDARD_WORTH
from bgcli.engines.exact import ExactEngine
from bgcli.judging.rollout import RolloutSettings, rollout


def _bearoff(mine, theirs) -> GameState:
    return GameState(Position.from_sides(list(mine) + [0] * 19, list(theirs) + [0] * 19))


@pytest.mark.parametrize("mine, theirs, dice", [((0, 1, 0, 1, 1, 0), (1, 0, 0, 0, 2, 0), (6, 1)),
                                                ((0, 0, 1, 1, 0, 1), (0, 1, 1, 0, 0, 1), (4, 2)),
                                                ((1, 1, 0, 0, 0, 1), (0, 0, 2, 0, 1, 0), (5, 3))])
def test_each_plays_interval_holds_its_exact_value_in_a_bear_off(mine, theirs, dice):
    """Every legal play of a small bear-off rolled out (cubeless, the exact engine playing, no variance
    reduction): each play's interval holds the exact two-sided value of the position after it."""
    state = _bearoff(mine, theirs)
    plays = legal_plays(state.position, dice)
    engine = ExactEngine()
    found = rollout(state, engine, dice, plays=plays,
                    settings=RolloutSettings(trials=360, seed=2, cubeful=False, variance_reduction=False))
    assert len(found.lines) == len(plays)
    for line in found.lines:
        # the opponent on roll after the play: their exact cubeless equity (the two-sided table's), the mover's
        theirs = engine.evaluate(GameState(line.play.after)).probabilities
        exact = 1.0 if line.play.result.player[0] == 15 else -theirs.money_equity(STANDARD_WORTH)
        low, high = line.equity.interval
        assert low <= exact <= high, (line.play, exact, line.equity)


def test_where_one_play_is_clearly_right_the_rollout_ranks_it_first_with_its_interval_apart():
    """6-1 in a bear-off: bearing off two checkers (6/off 1/off) against leaving three; the rollout
    puts it first and the next play's interval below it, as the exact values say."""
    state = parse_position("bQUAAFsJAAAAAA")
    found = rollout(state, ExactEngine(), (6, 1), candidates=2,
                    settings=RolloutSettings(trials=144, seed=4, cubeful=False))
    best, second = found.lines
    assert str(best.play) == "6/off 1/off"
    assert best.equity.interval[0] > second.equity.interval[1]
