"""bgcli dice --engine: the luck of every roll, as rate measures it, summed
per group with its standard error. The figures come from a stub engine of the
protocol (tests/fake_engine.py) so that the sums can be checked against the
rating's own luck of the same rolls; the test of the sum on counts alone."""
from __future__ import annotations

import json
import math

import pytest

from conftest import ROOT
from fake_engine import FakeEngine
import bgcli.scale.rating as scale_rating
from bgcli.errors import EngineUnavailableError
from bgcli.formats.files import visit_file
from bgcli.judging.dice import Unit
from bgcli.judging.rating import rate_replay
from bgcli.scale.dice import DiceDB, dice_key, tally_file

scipy_stats = pytest.importorskip("scipy.stats")

from bgcli.judging.dicestats import luck_test  # noqa: E402

DATA = ROOT / "tests" / "data" / "oracle" / "selfplay"
ONE = DATA / "sp05000_1pt.mat"
THREE = DATA / "sp05025_3pt.mat"


@pytest.fixture
def fake(monkeypatch):
    engine = FakeEngine(0)
    monkeypatch.setattr(scale_rating, "engines_for", lambda spec: (engine, engine))
    return engine


def test_the_luck_is_rates_luck_of_the_same_rolls(fake):
    from bgcli.judging.rating import RollLuck

    units = tally_file(str(THREE), luck=RollLuck(fake))
    ratings = rate_replay(fake, lambda visitor: visit_file(str(THREE), visitor), luck_engine=fake)
    for side in (0, 1):
        rolls = [d.luck for rating in ratings for d in rating.decisions if d.side == side and d.luck is not None]
        mine = [u for u in units if u.side == side]
        assert sum(u.luck_rolls for u in mine) == len(rolls) > 20
        assert sum(u.luck for u in mine) == pytest.approx(sum(rolls), abs=1e-9)
        assert sum(u.luck_squares for u in mine) == pytest.approx(sum(x * x for x in rolls), abs=1e-9)


def test_the_luck_test_of_a_sum():
    test = luck_test("luck", "luck", 400, 2.0, 25.0)
    assert test.statistic == pytest.approx(2.0 / 5.0)
    assert test.p == pytest.approx(2 * scipy_stats.norm.sf(0.4))
    assert test.effect == pytest.approx(2.0 / 400)
    assert test.effect_high - test.effect == pytest.approx(1.959964 * 5.0 / 400, rel=1e-5)
    assert "0.0350 per roll" in test.power   # (1.96 + 0.84) * 5 / 400
    assert luck_test("luck", "luck", 29, 2.0, 25.0).p is None   # too small: says so
    assert luck_test("luck", "luck", 400, 0.0, 25.0).p == pytest.approx(1.0)


def test_fair_luck_is_rejected_about_five_percent_of_the_time():
    # rolls whose luck has mean zero (the luck of a roll is, over the rolls of its position): 1,000 groups of 200
    import numpy as np

    rng = np.random.default_rng(29)
    rejected = 0
    groups = 1000
    for _ in range(groups):
        luck = rng.choice([-0.3, -0.05, 0.1, 0.4], size=200, p=[0.25, 0.4, 0.25, 0.1])
        luck = luck - (-0.3 * 0.25 - 0.05 * 0.4 + 0.1 * 0.25 + 0.4 * 0.1)   # mean zero
        rejected += luck_test("luck", "luck", 200, float(luck.sum()), float((luck * luck).sum())).p < 0.05
    bound = scipy_stats.binom.ppf(0.999, groups, 0.05)   # the rate of fair rejections, within a binomial bound
    assert scipy_stats.binom.ppf(0.001, groups, 0.05) <= rejected <= bound


def test_the_command_reports_the_luck(run, fake):
    result = run("dice", "--json", "--engine", "sage", ONE, THREE)
    assert result.exit_code in (0, 1)
    tests = {t["test"]: t for t in json.loads(result.stdout)["groups"][0]["tests"]}
    luck = tests["luck"]
    assert luck["n"] > 30 and luck["p"] is not None and luck["effect"]["name"] == "luck per roll"
    assert luck["statistic"] == pytest.approx(luck["observed"] / math.sqrt(sum(
        u.luck_squares for path in (ONE, THREE) for u in _tallied(path, fake))))
    text = run("dice", "--engine", "sage", ONE, THREE).stdout
    assert "the luck of the rolls" in text and "a roll [" in text


def _tallied(path, engine) -> list[Unit]:
    from bgcli.judging.rating import RollLuck

    return tally_file(str(path), luck=RollLuck(engine))


def test_without_engine_no_luck_and_the_counts_as_before(run):
    result = run("dice", "--json", ONE)
    assert "luck" not in {t["test"] for t in json.loads(result.stdout)["groups"][0]["tests"]}
    assert all("luck" not in unit.to_dict() for unit in tally_file(str(ONE)))


def test_the_luck_travels_in_the_database(run, fake, tmp_path):
    db = tmp_path / "dice.sqlite"
    first = run("dice", "--json", "--engine", "sage", "--db", db, ONE).stdout
    again = run("dice", "--json", "--engine", "sage", "--db", db, ONE)
    assert json.loads(again.stdout) == json.loads(first)
    assert dice_key(None, "sage") != dice_key(None)   # another engine's luck, or none, is read again
    with DiceDB(str(db), engine="sage") as stored:
        units = stored.stored(str(ONE)).units
    assert sum(u.luck_rolls for u in units) > 0
    unit = units[0]
    assert Unit.from_dict(json.loads(json.dumps(unit.to_dict()))).luck == unit.luck


def test_the_engine_missing_is_one_line_and_exit_2(run, monkeypatch):
    def missing(spec):
        raise EngineUnavailableError("the sage engine needs bgsage: pip install 'bgcli[engine]'")

    monkeypatch.setattr(scale_rating, "engines_for", missing)
    result = run("dice", "--engine", "sage", ONE)
    assert result.exit_code == 2
    assert result.stderr.strip() == "Error: the sage engine needs bgsage: pip install 'bgcli[engine]'"


def test_a_trial_set_up_to_the_opening_is_measured_as_rate_measures_it(fake):
    # gnubg's rollout log sets the board up in every trial, the opening board too: the first roll is any
    # roll of a position, not the opening roll (the replay's word, Event.opening), for the dice's luck
    # as for rate's; measured by the board, the two differed on each trial's first roll
    from bgcli.judging.rating import RollLuck

    for path in sorted((ROOT / "tests" / "data" / "real" / "gnubg-rollout-log").glob("*.sgf")):
        units = tally_file(str(path), luck=RollLuck(fake))
        ratings = rate_replay(fake, lambda visitor: visit_file(str(path), visitor), luck_engine=fake)
        rolls = [d.luck for rating in ratings for d in rating.decisions if d.luck is not None]
        assert sum(u.luck_rolls for u in units) == len(rolls) > 0
        assert sum(u.luck for u in units) == pytest.approx(sum(rolls), abs=1e-9), path.name
