"""What bgcli tells sage about the match, and where sage's figures are exact (issue 27: the Crawford game and
the bear-off leaves checked as causes of its disagreements with gnubg 2-ply).

- The score's figures: sage computes with its own copy of the Kazaross-XG2 table, bgcli turns its
  normalised equities back into match winning chances with bgcli's (``met.mwc``): the two must give
  the same chance of every outcome at every score, cube and Crawford state, gammons and backgammons
  included, or the chances bgcli shows are of another match.
- The Crawford game: no cube, so an equity is the cubeless match winning chance of the probabilities,
  normalised; the same score after the Crawford game (post-Crawford) has the trailer's cube, which
  costs the leader. Were the Crawford flag not passed, the two would be the same.
- Where both sides have every checker home, sage answers from its one-sided bear-off database at every
  depth, as gnubg does from its own: its chance of winning is the one bgcli's one-sided tables give.
"""
from __future__ import annotations

import importlib.util
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.core.generator import legal_plays
from bgcli.core.ids import parse_gnubg_id
from bgcli.core.position import Position
from bgcli.core.state import GameState
from bgcli.engines import met, open_engine
from bgcli.engines.protocol import Probabilities

HAVE_SAGE = importlib.util.find_spec("bgsage") is not None
pytestmark = pytest.mark.skipif(not HAVE_SAGE, reason="bgsage is not installed (pip install '.[engine]')")

# the leader (1-away) on roll in the Crawford game of a 9-point match, 8-6 (a held-out position sage misses)
CRAWFORD = "4HPhASjgc/ABMA:8AkpAWAAQAAE"
STANDARD = (1, 2, 3)   # a single game, a gammon and a backgammon, in cubes


@pytest.fixture(scope="module")
def sage():
    engine = open_engine("sage", 1)
    yield engine
    engine.close()


_PROBS = st.tuples(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1)).map(
    lambda t: (t[0], t[0] * t[1], t[0] * t[1] * t[2], (1 - t[0]) * t[3], (1 - t[0]) * t[3] * t[4]))


@settings(max_examples=300)
@given(probs=_PROBS, away=st.integers(1, 25), opponent_away=st.integers(1, 25), cube=st.sampled_from([1, 2, 4, 8]),
       crawford=st.booleans())
def test_sage_and_bgcli_give_every_outcome_the_same_match_winning_chance(probs, away, opponent_away, cube, crawford):
    import bgbot_cpp

    crawford = crawford and min(away, opponent_away) == 1 < max(away, opponent_away)
    cube = 1 if crawford else cube
    side = met.MatchSide(away, opponent_away, cube, crawford)
    ours = met.cubeless_mwc(Probabilities(*probs), side, STANDARD)
    assert bgbot_cpp.cubeless_mwc(list(probs), away, opponent_away, cube, crawford) == pytest.approx(ours, abs=2e-6)


def _equity_without_cube(evaluation, side) -> float:
    return met.emg(met.cubeless_mwc(evaluation.probabilities, side, STANDARD), side)


def test_in_the_crawford_game_sage_judges_with_a_dead_cube_and_after_it_with_the_trailers_cube(sage):
    crawford = parse_gnubg_id(CRAWFORD)
    assert crawford.match.crawford
    post = replace(crawford, match=replace(crawford.match, crawford=False))
    plays = legal_plays(crawford.position, (2, 2))
    for state in (crawford, post):
        side = met.MatchSide.of(state)
        assert (side.away, side.opponent_away) == (1, 3)
        ranked = sage.evaluate_plays(state, (2, 2), plays)
        position = sage.evaluate(state)
        if state is crawford:
            for found in ranked:
                assert found.evaluation.equity == pytest.approx(_equity_without_cube(found.evaluation, side), abs=1e-5)
            assert position.equity == pytest.approx(_equity_without_cube(position, side), abs=1e-5)
        else:
            # post-Crawford the trailer doubles when it pays: the leader's figures fall below its cubeless ones
            for found in ranked[:3]:
                assert found.evaluation.equity < _equity_without_cube(found.evaluation, side) - 0.05
            assert position.equity < _equity_without_cube(position, side) - 0.05


def _home(rng: random.Random, checkers: int) -> list[int]:
    points = [0] * 6
    for _ in range(checkers):
        points[rng.randrange(6)] += 1
    return points


def test_where_both_sides_are_home_sage_answers_from_an_exact_one_sided_bear_off_at_every_depth(sage):
    from bgcli.analysis import bearoff
    from bgcli.engines import exact

    raw = open_engine("sage", 0)
    rng = random.Random(27)
    try:
        for _ in range(12):
            # 7 to 12 checkers a side (past the two-sided tables, some off: no gammon), the mover's opponent on roll
            mine, theirs = _home(rng, rng.randint(7, 12)), _home(rng, rng.randint(7, 12))
            after = Position.from_board26([0] + mine + [0] * 12 + [-n for n in reversed(theirs)] + [0])
            state = GameState(after.swap())
            assert not exact.inside(state)
            plays = [p for p in legal_plays(state.position, (2, 1))]
            ranked = sage.evaluate_plays(state, (2, 1), plays)
            flat = raw.evaluate_plays(state, (2, 1), plays)
            for found in ranked[:2] + flat[:2]:
                result = found.play.result   # seen by the mover, the opponent on roll
                (_, mover), (_, on_roll) = bearoff.distributions([result.player, result.opponent])
                assert found.evaluation.probabilities.win == pytest.approx(1 - bearoff.race_win(on_roll, mover), abs=1e-4)
    finally:
        raw.close()
