"""Rollouts (bgcli.judging.rollout, bgcli rollout): determinism whatever the split, variance
reduction, exact values of bear-offs held by the interval, Ctrl-C, and the command's errors."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from conftest import ctrl_c_as_a_terminal_gives

from bgcli.analysis import bearoff2
from bgcli.core.generator import legal_plays
from bgcli.core.position import Position
from bgcli.core.state import GameState, MatchState
from bgcli.engines.exact import ExactEngine
from bgcli.engines.protocol import PlayEvaluation
from bgcli.errors import BgcliError, EngineError
from bgcli.judging import rollout as ro
from bgcli.judging.rollout import LineKind, RolloutSettings, rollout, run_trials, trial_dice
from tests.fake_engine import FakeEngine

# a race late enough that the fake engine's games end in a few dozen half-moves
RACE = GameState(Position.from_sides([2, 2, 3, 2, 2, 2] + [0] * 19, [3, 2, 2, 2, 2, 2] + [0] * 19))


def _bearoff(mine, theirs) -> GameState:
    """A bear-off with ``mine`` and ``theirs`` (counts on the six home points), the first on roll."""
    return GameState(Position.from_sides(list(mine) + [0] * 19, list(theirs) + [0] * 19))


@pytest.fixture(scope="module")
def small_table():
    return bearoff2.build(3)


def test_the_dice_of_a_trial_depend_only_on_the_seed_and_its_index():
    first = [next(trial_dice(5, i)) for i in range(36)]
    assert sorted(first) == sorted((a, b) for a in range(1, 7) for b in range(1, 7))   # every first roll once
    again = trial_dice(5, 40)
    rolls = [next(again) for _ in range(10)]
    other = trial_dice(5, 40)
    assert [next(other) for _ in range(10)] == rolls
    assert [next(trial_dice(6, i)) for i in range(36)] != first


def test_the_same_seed_gives_the_same_figures_and_another_seed_others():
    settings = RolloutSettings(trials=20, seed=3, cubeful=False)
    a = rollout(RACE, FakeEngine(0), (6, 5), candidates=2, settings=settings).to_dict()
    b = rollout(RACE, FakeEngine(0), (6, 5), candidates=2, settings=settings).to_dict()
    assert a == b
    c = rollout(RACE, FakeEngine(0), (6, 5), candidates=2, settings=replace(settings, seed=4)).to_dict()
    assert c["lines"] != a["lines"]


def test_any_split_into_blocks_gives_the_same_trials_and_figures():
    engine = FakeEngine(0)
    settings = RolloutSettings(trials=30, seed=9)
    plan = ro.Plan((ro.Start(RACE, cube_free=True), ro.Start(ro._doubled(RACE, 2))), 1,
                   ro.met.MatchSide.of(RACE), settings)
    whole = run_trials(plan, 0, 30, engine)
    for cuts in ([0, 7, 30], [0, 1, 2, 15, 29, 30], [0, 30]):
        parts = [t for a, b in zip(cuts, cuts[1:]) for t in run_trials(plan, a, b, engine)]
        assert parts == whole
    # the blocks arrive in any order: the figures are exact sums, the same to the last digit
    backwards = [t for a, b in ((20, 30), (10, 20), (0, 10)) for t in run_trials(plan, a, b, engine)]
    for line in (0, 1):
        assert ro.line_figures(backwards, line, True) == ro.line_figures(whole, line, True)


def test_variance_reduction_lowers_the_standard_error_of_the_same_trials():
    state = _bearoff((0, 1, 0, 1, 1, 0), (1, 0, 0, 0, 2, 0))
    plan = ro.Plan((ro.Start(state),), 1, ro.met.MatchSide.of(state), RolloutSettings(trials=72, cubeful=False))
    trials = run_trials(plan, 0, 72, ExactEngine())
    plain = ro.line_figures(trials, 0, False)[0]
    reduced = ro.line_figures(trials, 0, True)[0]
    assert plain.se > 0.05
    assert reduced.se < plain.se / 10
    # and with an engine whose figures are only a rough guess it still lowers it
    fake = run_trials(replace(plan, starts=(ro.Start(RACE),)), 0, 36, FakeEngine(0))
    assert ro.line_figures(fake, 0, True)[0].se < ro.line_figures(fake, 0, False)[0].se


@pytest.mark.parametrize("mine, theirs", [((0, 1, 0, 1, 1, 0), (1, 0, 0, 0, 2, 0)),
                                          ((0, 0, 0, 0, 2, 1), (0, 1, 1, 1, 0, 0))])
def test_the_interval_holds_the_exact_value_of_a_bear_off(small_table, mine, theirs):
    state = _bearoff(mine, theirs)
    exact = small_table.equity(mine, theirs)
    settings = RolloutSettings(trials=720, seed=1, cubeful=False, variance_reduction=False)
    found = rollout(state, ExactEngine(), None, settings=settings)
    # cubeless: no double is the position's worth; the exact engine never doubles (it is not asked)
    line = found.lines[0]
    assert line.kind is LineKind.NO_DOUBLE
    low, high = line.equity.interval
    assert low <= exact <= high, (exact, line.equity)
    assert line.equity.se > 0.01


def test_a_bear_off_with_luck_taken_off_is_near_exact(small_table):
    mine, theirs = (0, 1, 0, 1, 1, 0), (1, 0, 0, 0, 2, 0)
    exact = small_table.equity(mine, theirs)
    found = rollout(_bearoff(mine, theirs), ExactEngine(), None,
                    settings=RolloutSettings(trials=36, cubeful=False))
    # the exact engine's own luck: what is left is the difference of its one-sided plays from the best
    assert abs(found.lines[0].equity.mean - exact) < 0.01
    assert found.lines[0].equity.se < 0.005


def test_a_cube_decision_rolls_out_no_double_and_double_take_on_the_same_trials():
    found = rollout(RACE, FakeEngine(0), None, settings=RolloutSettings(trials=12))
    kinds = [line.kind for line in found.lines]
    assert kinds == [LineKind.NO_DOUBLE, LineKind.DOUBLE_TAKE, LineKind.DOUBLE_PASS]
    assert found.lines[2].equity.mean == 1.0 and found.lines[2].equity.se == 0.0
    assert found.action is not None and found.trials == 12


def test_where_the_player_may_not_double_the_rollout_says_why():
    owned = GameState(RACE.position, replace(RACE.match, cube=2, cube_owner=0))
    found = rollout(owned, FakeEngine(0), None)
    assert found.refusal is not None and found.trials == 0 and not found.lines


def test_named_plays_are_rolled_out_and_must_be_legal():
    plays = legal_plays(RACE.position, (6, 5))
    found = rollout(RACE, FakeEngine(0), (6, 5), plays=plays[-2:], settings=RolloutSettings(trials=4))
    assert {line.play for line in found.lines} == set(plays[-2:])
    other = legal_plays(RACE.position, (2, 1))[0]
    with pytest.raises(EngineError, match="not legal"):
        rollout(RACE, FakeEngine(0), (6, 5), plays=[other], settings=RolloutSettings(trials=4))


class Cheat(FakeEngine):
    """Answers every roll with a play of another roll: the rollout must refuse it."""

    def evaluate_plays(self, state, dice, plays):
        found = super().evaluate_plays(state, dice, plays)
        wrong = legal_plays(state.position, (6, 6) if tuple(dice) != (6, 6) else (1, 1))
        if wrong and found:
            return [PlayEvaluation(wrong[0], found[0].evaluation)] + found[1:]
        return found


def test_an_engine_that_chooses_an_illegal_play_in_a_trial_is_an_error():
    with pytest.raises(EngineError, match="not legal"):
        rollout(RACE, Cheat(0), None, settings=RolloutSettings(trials=2, variance_reduction=False))


class Interrupted(FakeEngine):
    """Ctrl-C after ``calls`` cube decisions."""

    def __init__(self, calls: int):
        super().__init__(0)
        self.left = calls

    def cube_decision(self, state):
        self.left -= 1
        if self.left < 0:
            raise KeyboardInterrupt
        return super().cube_decision(state)


def test_ctrl_c_gives_the_figures_of_the_trials_finished_marked_partial():
    found = rollout(RACE, Interrupted(60), (6, 5), candidates=1, settings=RolloutSettings(trials=1000))
    assert found.partial and 0 < found.trials < 1000
    whole = rollout(RACE, FakeEngine(0), (6, 5), candidates=1, settings=RolloutSettings(trials=found.trials))
    assert found.lines == whole.lines   # the trials finished, the same as a rollout of that many
    assert found.to_dict()["partial"] is True


def test_the_stop_rule_stops_at_a_round_once_the_error_is_small():
    found = rollout(RACE, FakeEngine(0), (6, 5), candidates=1,
                    settings=RolloutSettings(trials=3600, until_se=0.05, cubeful=False))
    assert found.trials % 36 == 0 and found.trials < 3600
    assert found.lines[0].equity.se <= 0.05


@pytest.mark.parametrize("settings, words", [(RolloutSettings(trials=0), "trials"),
                                             (RolloutSettings(truncate=-1), "truncate"),
                                             (RolloutSettings(seed=-2), "seed"),
                                             (RolloutSettings(until_se=0.0), "until-se")])
def test_settings_that_cannot_be_used_are_refused(settings, words):
    with pytest.raises(BgcliError, match=words):
        rollout(RACE, FakeEngine(0), (6, 5), settings=settings)


def test_match_play_figures_are_normalised_with_the_match_winning_chance():
    pytest.importorskip("bgsage")   # the match equity table
    state = GameState(RACE.position, MatchState(score=(2, 1), rules=replace(MatchState().rules, match_length=5)))
    found = rollout(state, FakeEngine(0), (6, 5), candidates=1, settings=RolloutSettings(trials=8))
    line = found.lines[0]
    assert line.mwc is not None and 0.0 <= line.mwc.mean <= 1.0
    side = ro.met.MatchSide.of(state)
    assert line.equity.mean == pytest.approx(ro.met.emg(line.mwc.mean, side))


# --- with the default engine, in processes ----------------------------------------------------


def _bgcli(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bgcli", *args], capture_output=True, text=True, timeout=600,
                          **kwargs)


def test_jobs_give_the_same_figures_as_one_process_to_the_last_digit():
    pytest.importorskip("bgsage")
    words = ["rollout", "--level", "0", "--trials", "40", "--truncate", "3", "--seed", "11", "--candidates", "1", "--json", "start", "31"]
    one = _bgcli(*words)
    two = _bgcli(*words, "--jobs", "2")
    assert one.returncode == 0 and two.returncode == 0, (one.stderr, two.stderr)
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_sigint_prints_the_figures_so_far_marked_partial():
    pytest.importorskip("bgsage")
    process = subprocess.Popen([sys.executable, "-m", "bgcli", "rollout", "--level", "0", "--trials", "100000",
                                "--json", "start", "31"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=ctrl_c_as_a_terminal_gives)   # even where the tests run with SIGINT ignored
    try:
        time.sleep(8)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:   # a rollout that did not stop must not outlive the test (and load the machine)
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    found = json.loads(out)
    assert found["partial"] is True and found["trials"] < 100000


@pytest.mark.parametrize("words, status, message", [
    (["nonsense", "31"], 1, "nonsense"),
    (["start", "71"], 1, "7"),
    (["--play", "8/5 6/5", "start"], 2, "--play needs DICE"),
    (["--play", "24/18", "start", "31"], 1, "24/18"),
    (["--trials", "0", "start", "31"], 2, "--trials"),
    ([], 2, "missing POSITION"),
])
def test_bad_input_is_one_line_and_a_documented_status(words, status, message):
    done = _bgcli("rollout", "--level", "0", "--trials", "1", *words, env={**os.environ, "COLUMNS": "200"}) \
        if "--trials" not in words else _bgcli("rollout", "--level", "0", *words)
    assert done.returncode == status, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr


GNUBG_TEXT = """
@@bgcli 0
Current Position:
  0.505 0.134 0.015 - 0.495 0.128 0.011 CL +0.020 CF +0.105
 [0.014 0.006 0.010 - 0.014 0.011 0.005 CL  0.045 CF  0.127] 1r
23 games, Mersenne Twister dice gen. with seed 1 and quasi-random dice
Rollout done. Printing final results.
Current Position:
  0.514 0.142 0.012 - 0.486 0.124 0.009 CL +0.050 CF +0.136
 [0.012 0.006 0.007 - 0.012 0.008 0.003 CL  0.034 CF  0.092] 1r
Full cubeful rollout with variance reduction
36 games, Mersenne Twister dice gen. with seed 1 and quasi-random dice
@@bgcli end
"""


def test_gnubgs_final_rollout_figures_are_read_and_missing_ones_are_an_error():
    from bgcli.engines.gnubg_rollout import parse

    found = parse(GNUBG_TEXT, ["4HPwATDgc/ABMA:cAkAAAAAAAAA"])[0]
    assert found.probabilities == (0.514, 0.142, 0.012, 0.124, 0.009)
    assert (found.cubeless, found.cubeful, found.cubeful_error, found.games) == (0.05, 0.136, 0.092, 36)
    with pytest.raises(EngineError, match="no figures"):
        parse(GNUBG_TEXT.replace("Rollout done", "Rollout stopped"), ["4HPwATDgc/ABMA:cAkAAAAAAAAA"])


def test_engine_gnubg_rolls_out_plays_with_gnubgs_own_rollout():
    from bgcli.engines.gnubg import find_gnubg

    if find_gnubg() is None:
        pytest.skip("GNU Backgammon is not installed")
    done = _bgcli("rollout", "--engine", "gnubg", "--trials", "36", "--candidates", "2", "--json", "start", "31")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["method"] == "gnubg" and found["trials"] == 36 and len(found["lines"]) == 2
    assert all(line["equity"]["se"] > 0 for line in found["lines"])


@pytest.mark.parametrize("counts", [3, 2])
def test_a_cubeless_rollout_counts_a_backgammon_as_the_rules_say(counts):
    """Where a backgammon counts as a gammon (a rule of some countries), a cubeless rollout's sure
    backgammon is worth 2, as the game's end scores it; it was worth 3 whatever the rules."""
    from bgcli.core.rules import Rules

    # the player's last checker on its ace point, all the opponent's in the player's home board
    sure = Position.from_sides([1] + [0] * 24, [0] * 22 + [15, 0, 0])
    state = GameState(sure, MatchState(rules=Rules(backgammon_counts=counts)))
    found = rollout(state, FakeEngine(0), None, settings=RolloutSettings(trials=36, cubeful=False))
    assert found.lines[0].kind is LineKind.NO_DOUBLE
    assert found.lines[0].equity.mean == counts


@pytest.mark.parametrize("variation, worth", [("backgammon", 1), ("hypergammon1", 2)])
def test_a_rollouts_last_bear_off_counts_a_gammon_as_the_variation_says(variation, worth):
    """In hypergammon a side counts the checkers it lacks as borne off: the opponent's 14 off of 1 checker
    is none of its own, and the player's sure last bear-off is a gammon (2), as the game's end scores it;
    a trial's end asked the standard game and counted a single win (1). In the standard game the same
    board is 14 off: a single win."""
    from bgcli.core.rules import Rules, Variation

    # the player's last checker on its ace point; the opponent's one checker on its 6-point, 14 off
    sure = Position.from_sides([1] + [0] * 24, [0] * 5 + [1] + [0] * 19)
    state = GameState(sure, MatchState(rules=Rules(variation=Variation(variation))))
    found = rollout(state, FakeEngine(0), None, settings=RolloutSettings(trials=36, cubeful=False))
    assert found.lines[0].equity.mean == worth


def test_cubeless_worth_is_the_standard_figures_with_backgammons_as_gammons():
    """met.cubeless_mwc and money_equity with a backgammon worth 2 are the standard figures of the
    same chances with every backgammon a gammon (generated chances, money and match sides)."""
    from hypothesis import given, strategies as st

    from bgcli.core.rules import Rules
    from bgcli.core.value import STANDARD_WORTH, cubeless_worth
    from bgcli.engines import met
    from bgcli.engines.protocol import Probabilities

    assert cubeless_worth(Rules()) == STANDARD_WORTH == (1, 2, 3)
    assert cubeless_worth(Rules(backgammon_counts=2)) == (1, 2, 2)
    assert cubeless_worth(Rules(jacoby=True)) == (1, 2, 3)   # Jacoby is a rule of the cube

    chance = st.floats(0.0, 1.0)

    @given(chance, chance, chance, chance, chance, st.integers(1, 7), st.integers(1, 7), st.sampled_from([1, 2, 4]))
    def check(win, g, bg, lg, lbg, away, opponent_away, cube):
        p = Probabilities(win, win * g, win * g * bg, (1 - win) * lg, (1 - win) * lg * lbg)
        as_gammons = Probabilities(p.win, p.win_gammon, 0.0, p.lose_gammon, 0.0)
        old = 2.0 * p.win - 1.0 + p.win_gammon - p.lose_gammon + p.win_backgammon - p.lose_backgammon
        assert p.money_equity(STANDARD_WORTH) == pytest.approx(old, abs=1e-12)
        assert p.money_equity((1, 2, 2)) == pytest.approx(as_gammons.money_equity(STANDARD_WORTH), abs=1e-12)
        side = met.MatchSide(away, opponent_away, cube)
        assert met.cubeless_mwc(p, side, (1, 2, 2)) == pytest.approx(met.cubeless_mwc(as_gammons, side, STANDARD_WORTH), abs=1e-12)

    check()
