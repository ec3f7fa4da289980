"""Post-Crawford asks whether the Crawford rule is in force (Rules.crawford, --no-crawford).

With the rule off there is no Crawford game and none after it: a game at a
score one away has the cube from its first roll, so the match equity after a
game that reaches one away is the table's post-Crawford figure (the trailer
may double at once), not the figure before a Crawford game. MatchSide (the
engines' view of the score) carries the rule, and everything that asks its
post_crawford or the equity after a game follows: the rating's match winning
chance won by a game, the exact engine's bear-off figures, every engine's
normalised equity."""
from __future__ import annotations

from dataclasses import replace

import pytest

from bgcli.core.ids import parse_position
from bgcli.engines import met
from bgcli.judging.rating import _mwc_change


def test_post_crawford_is_no_game_without_the_crawford_rule():
    assert met.MatchSide(1, 3).post_crawford
    assert not met.MatchSide(1, 3, crawford_rule=False).post_crawford
    assert not met.MatchSide(1, 3, crawford=True).post_crawford
    assert met.MatchSide(1, 3, crawford_rule=False).flipped().crawford_rule is False


@pytest.mark.parametrize("away, cube, points", [(5, 2, 4), (3, 1, 2), (2, 1, 1)])
def test_the_equity_after_a_game_that_reaches_one_away_asks_the_rule(away, cube, points):
    # 5-away each, a gammon at cube 2 wins 4: 1-away against 5-away. With the rule the next game is the
    # Crawford game (the table's figure before it); without it the trailer may double at once (the
    # post-Crawford figure), and the two differ
    crawford_next = met.equity_after(met.MatchSide(away, away, cube), points)
    no_rule = met.equity_after(met.MatchSide(away, away, cube, crawford_rule=False), points)
    assert crawford_next == met.mwc_at(1, away, crawford_played=False)
    assert no_rule == met.mwc_at(1, away, crawford_played=True)
    assert abs(crawford_next - no_rule) > 0.005


def test_the_rating_of_a_game_asks_the_rule():
    # the match winning chance a game wins (rate's 'result' in match play): 5-point match at 0-0,
    # the left player wins 4 points
    with_rule = _mwc_change(5, (0, 0), 0, 4, False)
    without = _mwc_change(5, (0, 0), 0, 4, False, crawford_rule=False)
    assert with_rule == pytest.approx(met.mwc_at(1, 5, crawford_played=False) - 0.5)
    assert without == pytest.approx(met.mwc_at(1, 5, crawford_played=True) - 0.5)
    assert with_rule != pytest.approx(without)


def test_a_position_of_a_match_without_the_crawford_rule_says_so_to_the_engines():
    # gnubg's IDs of a 5-point match at 2-2 (3-away each): the engines' view of it carries the rules
    state = parse_position("XGID=-b----E-C---eE---c-e----B-:1:0:1:00:2:2:0:5:10")
    assert met.MatchSide.of(state).crawford_rule
    off = replace(state, match=replace(state.match, rules=replace(state.match.rules, crawford=False)))
    side = met.MatchSide.of(off)
    assert not side.crawford_rule
    # winning a 2-cube reaches one away: the equity after differs with the rule off
    assert met.win_lose(met.MatchSide.of(state))[0] != pytest.approx(met.win_lose(side)[0])
