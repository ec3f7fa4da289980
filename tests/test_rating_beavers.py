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

from fake_engine import FixedCube
from bgcli.core.cube import Answer, answer_equities
from bgcli.core.rules import Rules
from bgcli.formats.files import visit_file
from bgcli.judging.rating import CubeError, DecisionKind, rate_replay

DATA = Path(__file__).parent / "data" / "rating" / "beavers"
BEAVERED_MAT = DATA / "session33007_jacoby-on_beavers-1.mat"   # gnubg's .mat export: five beavers, no raccoon


def rate(path: Path, figures):
    rating, = rate_replay(FixedCube(figures), lambda v: visit_file(str(path), v, Rules(jacoby=True, beavers=True)))
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


SESSION = DATA / "session33001_jacoby-on_beavers-1.sgf"   # gnubg's SGF: beavers answered by a take and a pass


def test_gnubgs_sgf_of_beavers_reads_clean_and_a_passed_beaver_scores_the_doubled_cube():
    """gnubg's SGF writes a beaver as a second 'double', and records the doubler's take or pass of it."""
    from bgcli.formats.files import replay_file

    replay, = replay_file(str(SESSION), Rules(beavers=True))
    assert not replay.problems
    kinds = [e.kind.value for e in replay.events if e.game == 1 and e.kind.value != "move"]
    assert kinds[:3] == ["double", "beaver", "drop"]
    first = replay.results[0]
    assert (first.points, first.winner_side) == (2, 1)   # the doubler passed the beaver at 4: the double's 2


def test_gnubg_judges_the_pass_of_a_beaver_by_the_doubles_figures():
    """docs/gnubg-differences.md: in game 1 the doubler passed a beaver of a double whose double/take is
    -0.514; gnubg's analysis (stored, tests/data/rating/make_golden.py) charges the doubler a wrong pass of
    1 - dt, where passing the beaver lost 2 against taking's 2 dt: an error of 2 + 2 dt."""
    import json

    golden = json.loads(SESSION.with_suffix(".golden.json").read_text())
    double, beaver, passed = [c for c in golden["cubes"] if c["game"] == 1 and c["action"] != "turn"]
    assert (double["action"], beaver["action"], passed["action"], passed["answers"]) == ("double", "beaver", "drop", "beaver")
    dt = double["dt"]
    assert dt == pytest.approx(-0.514, abs=1e-3)
    count, error = golden["players"][passed["player"]]["cube_errors"]["wrong-drop"]
    assert count == 1 and error == pytest.approx(1.0 - dt, abs=1e-6)   # gnubg's: as if the double were passed
    worth = answer_equities(dt, 1.0, redoubles=1)
    assert worth[Answer.TAKE] - worth[Answer.PASS] == pytest.approx(2.0 + 2.0 * dt)   # bgcli's: 0.971
    assert worth[Answer.TAKE] - worth[Answer.PASS] == pytest.approx(0.971, abs=1e-3)


@pytest.mark.parametrize("name", ["session33001_jacoby-on_beavers-1.sgf", "session33003_jacoby-on_beavers-2.sgf",
                                  "session33012_jacoby-off_beavers-2.sgf"])
@pytest.mark.parametrize("figures", [(0.3, 0.5, 1.0), (0.9, 1.4, 1.0), (-0.2, -0.6, 1.0), (0.1, -2.5, 1.0)])
def test_the_answers_to_beavers_and_raccoons_are_judged_by_the_stake_they_leave(name, figures):
    """Each take or pass of a beaver (the doubler's) or raccoon (the beaverer's), and each beaver and
    raccoon, against the other answers: the equities of answer_equities, worked out here by hand."""
    nd, dt, dp = figures
    rating = rate(DATA / name, figures)
    # by hand: what each answer is worth to whoever gives it, after 0, 1 or 2 instant redoubles
    take = {0: -dt, 1: 2 * dt, 2: -4 * dt}
    passed = {0: -dp, 1: -2 * dp, 2: -4 * dp}
    redoubles, seen = 0, set()
    for decision in rating.decisions:
        if decision.kind == DecisionKind.DOUBLE:
            redoubles = 0
        elif decision.played in ("beaver", "raccoon"):
            again = 2 * take[redoubles]
            assert decision.error == pytest.approx(max(take[redoubles], passed[redoubles], again) - again)
            redoubles += 1
            seen.add(decision.played)
        elif decision.kind in (DecisionKind.TAKE, DecisionKind.DROP) and redoubles:
            mine, other = ((take, passed) if decision.kind == DecisionKind.TAKE else (passed, take))
            assert decision.error == pytest.approx(max(0.0, other[redoubles] - mine[redoubles]))
            assert decision.cube_error == (None if not decision.error else
                                           CubeError.WRONG_TAKE if decision.kind == DecisionKind.TAKE else CubeError.WRONG_PASS)
            seen.add(f"{decision.kind.value} after {redoubles}")
    assert "beaver" in seen and any(s.startswith(("take after", "drop after")) for s in seen)
    if "raccoon" in name or "beavers-2" in name:
        assert "raccoon" in seen


def test_every_answer_to_a_double_and_its_instant_redoubles_names_the_doubles_proper_action():
    """The figures of a beaver, a raccoon and the take or pass of either are the double's
    (the cube before it), so is their proper action: "Redouble, take" after a redouble, whoever the
    answer's own state shows on roll (gnubg's, a double waiting with the first doubler on roll)."""
    redoubled = 0
    for name in ("session33001_jacoby-on_beavers-1.sgf", "session33003_jacoby-on_beavers-2.sgf",
                 "session33012_jacoby-off_beavers-2.sgf"):
        double = None
        for decision in rate(DATA / name, (0.3, 0.5, 1.0)).decisions:
            if decision.kind == DecisionKind.DOUBLE:
                double = decision
            elif decision.kind in (DecisionKind.TAKE, DecisionKind.DROP):
                assert double is not None and decision.action == double.action, (name, decision, double)
                redoubled += decision.played in ("raccoon", "take", "pass") and double.action.startswith("Redouble")
    assert redoubled >= 3   # answers after a beaver of a redouble are among them
