"""A rollout on a Dask cluster gives one process's figures; a rollout's match equity table (--met)
reaches its trials; the second roll is stratified only where every pair of first rolls is played."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner

from bgcli.cli import cli
from bgcli.core.position import Position
from bgcli.core.state import GameState, MatchState
from bgcli.engines import met, open_engine
from bgcli.judging.rollout import ROUND, RolloutSettings, pairs_stratified, rollout, trial_dice

BEAR_OFF = GameState(Position.from_sides([0, 1, 0, 1, 1, 0] + [0] * 19, [1, 0, 0, 0, 2, 0] + [0] * 19))


def test_a_local_dask_cluster_gives_the_figures_of_one_process():
    distributed = pytest.importorskip("dask.distributed")
    from bgcli.scale.rollout import spread

    settings = RolloutSettings(trials=72, seed=4, cubeful=False)
    engine = open_engine("exact")
    here = rollout(BEAR_OFF, engine, (6, 1), candidates=3, settings=settings)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        there = rollout(BEAR_OFF, engine, (6, 1), candidates=3, settings=settings,
                        blocks=spread(1, cluster.scheduler_address, size=10))
    assert there.to_dict() == here.to_dict() and there.trials == 72


def _match_bear_off(table):
    state = GameState(BEAR_OFF.position, MatchState(score=(1, 3), rules=replace(MatchState().rules, match_length=7)))
    return rollout(state, open_engine("exact", met=table), None,
                   settings=RolloutSettings(trials=72, seed=1, cubeful=False, variance_reduction=False)), state


def test_the_rollouts_match_equity_table_is_the_one_its_trials_score_with():
    table = met.table_of("Woolsey-formula")
    found, state = _match_bear_off(table)
    line = found.lines[0]
    side = met.MatchSide.of(state, table=table)
    win = line.probabilities["win"].mean
    # no gammon is possible: each trial ends in a single game won or lost, scored by the table given
    expected = win * met.equity_after(side, 1) + (1 - win) * met.equity_after(side, -1)
    assert line.mwc is not None and line.mwc.mean == pytest.approx(expected, abs=1e-12)
    default, _ = _match_bear_off(None)
    assert default.lines[0].mwc.mean != pytest.approx(line.mwc.mean, abs=1e-3)


def test_rollout_takes_met():
    from bgcli.core.ids import gnubg_id

    _, state = _match_bear_off(None)
    words = ["rollout", "--engine", "exact", "--cubeless", "--trials", "36", "--json", gnubg_id(state)]
    default = json.loads(CliRunner().invoke(cli, words).output)
    woolsey = json.loads(CliRunner().invoke(cli, [*words[:-1], "--met", "woolsey-formula", words[-1]]).output)
    assert default["lines"][0]["probabilities"] == woolsey["lines"][0]["probabilities"]   # the same games
    assert default["lines"][0]["mwc"]["mean"] != pytest.approx(woolsey["lines"][0]["mwc"]["mean"], abs=1e-3)
    done = CliRunner().invoke(cli, [*words[:-1], "--met", "nonsense", words[-1]])
    assert done.exit_code == 2 and "nonsense" in done.output


def test_the_second_roll_is_stratified_only_over_whole_rounds_of_pairs():
    assert pairs_stratified(RolloutSettings(trials=1296)) and pairs_stratified(RolloutSettings(trials=2592))
    assert not pairs_stratified(RolloutSettings(trials=360))
    assert not pairs_stratified(RolloutSettings(trials=1296, until_se=0.01))
    # 36 trials of one round: without pairs, their second rolls differ (with pairs, one block shares one)
    plain = {list(zip(range(2), trial_dice(3, i)))[1][1] for i in range(ROUND)}
    paired = {list(zip(range(2), trial_dice(3, i, pairs=True)))[1][1] for i in range(ROUND)}
    assert len(paired) == 1 and len(plain) > 10
    second = sorted(list(zip(range(2), trial_dice(3, i, pairs=True)))[1][1] for i in range(0, ROUND * ROUND, ROUND))
    assert second == sorted((a, b) for a in range(1, 7) for b in range(1, 7))
