"""bgcli's rollout against GNU Backgammon's own rollouts (tests/data/rollout/gnubg.json, made by
tests/data/rollout/make.py from races of gnubg's self-play; see tests/data/rollout/README.md).

The golden comparison rolls out the same plays with bgcli's trial loop over the default engine at
0-ply (full, cubeful, variance reduction, other dice): two estimates of the same figure, which must
agree within their combined standard errors (3.29 of them: a 1-in-1000 miss for a sound pair; the
dice are fixed by the seed, so the verdict is the same on every run)."""
from __future__ import annotations

import json
import math

import pytest

from bgcli.core.generator import legal_plays
from bgcli.core.ids import parse_position
from bgcli.core.state import GameState
from bgcli.engines import met
from bgcli.judging import rollout as ro
from bgcli.judging.rollout import RolloutSettings, rollout, run_trials
from conftest import DATA, committed

GOLDEN = DATA / "rollout" / "gnubg.json"
Z = 3.29
ROUNDING = 0.0005   # gnubg prints its figures to three decimals


def _golden() -> list[dict]:
    return json.loads(committed(GOLDEN).read_text())["positions"]


def test_the_golden_file_is_what_its_note_says():
    found = json.loads(committed(GOLDEN).read_text())
    assert found["gnubg_settings"]["plies"] == 0 and found["gnubg_settings"]["cubeful"] is True
    assert len(found["positions"]) == 12
    for item in found["positions"]:
        assert item["trials"] == found["gnubg_settings"]["trials"] and len(item["plays"]) == 2
        assert all(p["se"] > 0 for p in item["plays"])   # no cash positions: each figure has something to test


@pytest.mark.parametrize("number", range(12))
def test_bgclis_rollout_agrees_with_gnubgs_within_their_combined_standard_errors(number):
    """gnubg's ``rollout`` of the position after a play leaves out the first cube decision of the
    opponent on roll (its figure is their no double: where they should double at once it differs from a
    rollout of the play, 2+6GAAB32wgFAA 31 below): bgcli's trials start the same way (``cube_free``),
    the line bgcli's cube decision rollouts call no double."""
    pytest.importorskip("bgsage")
    from bgcli.engines import open_engine

    item = _golden()[number]
    state = parse_position(item["position"])
    dice = tuple(item["dice"])
    wanted = {p["result_id"]: p for p in item["plays"]}
    plays = [p for p in legal_plays(state.position, dice) if p.result_id() in wanted]
    assert len(plays) == len(wanted)
    engine = open_engine("sage", 0)
    settings = RolloutSettings(trials=36, seed=7)
    try:
        for play in plays:
            after = GameState(play.after)   # money, the cube centred: the opponent on roll
            plan = ro.Plan((ro.Start(after, cube_free=True),), after.match.on_roll, met.MatchSide.of(after), settings)
            theirs_first = ro.line_figures(run_trials(plan, 0, settings.trials, engine), 0, True)[0]
            mine = -theirs_first.mean
            theirs = wanted[play.result_id()]
            bound = Z * math.hypot(theirs_first.se, theirs["se"]) + ROUNDING
            assert abs(mine - theirs["equity"]) <= bound, (item["position"], theirs["play"], theirs_first, theirs)
    finally:
        engine.close()


def test_a_rollout_of_a_play_gives_the_opponent_their_first_cube_decision():
    """Where the opponent should double at once (2+6GAAB32wgFAA, 31: after 12/11 8/5 they have 76%
    in a race, double, take at 0-ply), bgcli's rollout of the play lets them, and its figure is below
    gnubg's ``rollout`` of the position after it (their no double) by more than the errors."""
    pytest.importorskip("bgsage")
    from bgcli.engines import open_engine

    item = next(i for i in _golden() if i["position"].startswith("2+6GAAB32wgFAA"))
    state = parse_position(item["position"])
    theirs = item["plays"][0]
    play = next(p for p in legal_plays(state.position, (3, 1)) if p.result_id() == theirs["result_id"])
    engine = open_engine("sage", 0)
    try:
        found = rollout(state, engine, (3, 1), plays=[play], settings=RolloutSettings(trials=36, seed=7))
    finally:
        engine.close()
    line = found.lines[0]
    assert line.equity.mean < theirs["equity"] - Z * math.hypot(line.equity.se, theirs["se"])
