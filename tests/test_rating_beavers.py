"""Cube decisions of money sessions with beavers, raccoons and Jacoby, judged as GNU Backgammon's
analysis judges them, and where it judges none (a beaver, a raccoon, the answers to them), by the
equities of the cube before the double (core.cube.answer_equities).

The sessions in tests/data/rating/beavers were made by make_sessions.py there: gnubg playing both
sides, with cube actions taken by hand at random moments (a double gnubg would not make, a take of a
pass, a pass of a take, beavers and raccoons); the .mat file is gnubg's own export of one of them.
With a fake engine (tests/fake_engine.py) every figure is worked out here; live gnubg checks come in
test_rating_gnubg.py."""
from __future__ import annotations

from pathlib import Path

import pytest

from fake_engine import FakeEngine
from bgcli.core.cube import Answer, answer_equities
from bgcli.core.rules import Rules
from bgcli.formats.files import visit_file
from bgcli.judging.rating import CubeError, DecisionKind, rate_replay

DATA = Path(__file__).parent / "data" / "rating" / "beavers"
BEAVERED_MAT = DATA / "session33007_jacoby-on_beavers-1.mat"   # gnubg's .mat export: five beavers, no raccoon


class _Tied(FakeEngine):
    """The same three cube figures everywhere."""

    def __init__(self, figures):
        super().__init__()
        self.figures = figures

    def cube_values(self, state):
        return self.figures


def rate(path: Path, figures):
    rating, = rate_replay(_Tied(figures), lambda v: visit_file(str(path), v, Rules(jacoby=True, beavers=True)))
    return rating


def test_what_each_answer_is_worth_to_the_player_answering():
    # the doubled player: take is minus double/take, pass minus double/pass, a beaver twice the take
    assert answer_equities(0.4, 1.0) == {Answer.TAKE: -0.4, Answer.PASS: -1.0, Answer.BEAVER: -0.8}
    # the doubler facing a beaver: the cube is turned once more and stays with the beaverer, so taking is
    # worth twice double/take; passing loses the doubled cube (2); a raccoon is twice the take again
    assert answer_equities(0.4, 1.0, 1) == {Answer.TAKE: 0.8, Answer.PASS: -2.0, Answer.BEAVER: 1.6}
    # the beaverer facing the raccoon: four times the doubled player's figures, passing loses the beavered cube
    assert answer_equities(0.4, 1.0, 2) == {Answer.TAKE: -1.6, Answer.PASS: -4.0, Answer.BEAVER: -3.2}


@pytest.mark.parametrize("figures, beaver_error, take_error", [
    ((0.1, -0.3, 1.0), 0.0, 0.0),      # a beaver: the taker is the favourite
    ((0.3, 0.5, 1.0), 0.5, 0.0),       # a take: the beaver doubles a stake the taker is losing (2dt - dt)
    ((0.9, 1.4, 1.0), 1.8, 0.4),       # a pass: the beaver gives up 2dt - dp, the take dt - dp
])
def test_a_beaver_is_judged_against_take_and_pass_and_a_take_against_pass_only(figures, beaver_error, take_error):
    rating = rate(BEAVERED_MAT, figures)
    beavers = [d for d in rating.decisions if d.played == "beaver"]
    assert len(beavers) == 5
    for decision in beavers:
        assert decision.kind == DecisionKind.TAKE
        assert decision.error == pytest.approx(beaver_error)
        assert decision.equity == pytest.approx(-2 * figures[1])
        assert decision.cube_error == (CubeError.WRONG_TAKE if beaver_error else None)
    takes = [d for d in rating.decisions if d.kind == DecisionKind.TAKE and d.played == "take"]
    assert takes
    # gnubg's analysis: a take is judged against the pass only, never against a beaver not made
    assert all(d.error == pytest.approx(take_error) for d in takes)
