"""rollout --engine gnubg: gnubg's own rollout for cube decisions, money and match, and the opponent's
first cube decision after a play (which gnubg's rollout of a position leaves out), both decided by bgcli
from gnubg's rolled-out no double and double/take (the doubled cube's figures turned to the decision's
cube: money by the ratio, a match through the match equity table, which gnubg is given)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bgcli.engines.gnubg import find_gnubg

# a race in which the player on roll has 76%: double, take at 0-ply (no double is gnubg's own rollout figure)
RACE = "d9uBBADb7oYAAA:MAEAAAAAAAAA"
# the same race in a 7-point match, 6-away against 4-away: double, take at 1-ply
MATCH_RACE = "d9uBBADb7oYAAA:MAHgABAAGAAE"
# truncated at one half-move with the luck taken off, a rollout is the 1-ply look-ahead: gnubg's 1-ply
# cube figures, to gnubg's three printed decimals (turned through the table: a little more)
ONE_PLY = 0.002


def _bgcli(*args) -> dict:
    done = subprocess.run([sys.executable, "-m", "bgcli", *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(autouse=True)
def _gnubg():
    if find_gnubg() is None:
        pytest.skip("GNU Backgammon is not installed")


def test_a_cube_decision_is_rolled_out_by_gnubg_with_its_proper_action():
    found = _bgcli("rollout", "--engine", "gnubg", "--trials", "144", "--seed", "3", "--json", RACE)
    assert found["method"] == "gnubg" and found["trials"] == 144
    nd, dt, dp = found["lines"]
    assert (nd["kind"], dt["kind"], dp["kind"]) == ("no double", "double, take", "double, pass")
    # per unit of the decision's cube: double/take is gnubg's figure of the doubled cube, times two
    assert 0.7 < nd["equity"]["mean"] < dt["equity"]["mean"] < 1.0 and dp["equity"]["mean"] == 1.0
    assert found["cube"]["action"] == "Double, take"


def test_after_a_play_the_opponent_takes_their_first_cube_decision():
    """12/11 8/5 leaves the opponent RACE's double, take: gnubg's rollout of the play is the take's
    figure (about -0.88), not their no double (-0.76), and agrees with bgcli's own trial loop."""
    words = ["--trials", "36", "--seed", "7", "--play", "12/11 8/5", "--json", "2+6GAAB32wgFAA", "31"]
    own = _bgcli("rollout", "--engine", "gnubg", *words)["lines"][0]["equity"]
    assert -0.95 < own["mean"] < -0.83
    loop = _bgcli("rollout", "--bgcli-loop", "--level", "0", *words)["lines"][0]["equity"]
    assert abs(own["mean"] - loop["mean"]) <= 3.29 * (own["se"] ** 2 + loop["se"] ** 2) ** 0.5


@pytest.mark.parametrize("table", [None, "Snowie"])
def test_a_match_cube_decision_is_rolled_out_by_gnubg_per_unit_of_the_decisions_cube(table):
    """gnubg's figure of the doubled cube is EMG at that cube: turned through the match winning chance to
    the decision's, it is gnubg's own 1-ply double/take (truncated at 1 half-move, the luck taken off).
    With another table than gnubg's default gnubg must roll out with it (Snowie's: without it, no double
    is 0.710 where 0.698 is right)."""
    from bgcli.core.ids import parse_position
    from bgcli.engines import met, open_engine
    from bgcli.judging.rollout import RolloutSettings, engine_rollout

    state = parse_position(MATCH_RACE)
    chosen = met.table_of(table) if table else None
    deeper = open_engine("gnubg", 1, met=chosen)
    try:
        wanted = deeper.cube_decision(state)
    finally:
        deeper.close()
    engine = open_engine("gnubg", 0, met=chosen)
    try:
        found = engine_rollout(state, engine, settings=RolloutSettings(trials=36, seed=1, truncate=1))
    finally:
        engine.close()
    assert found.method == "gnubg"
    nd, dt, dp = found.lines
    assert abs(nd.equity.mean - wanted.no_double) <= ONE_PLY and abs(dt.equity.mean - wanted.double_take) <= ONE_PLY
    side = met.MatchSide.of(state, table=chosen)
    assert abs(dt.mwc.mean - met.mwc(dt.equity.mean, side)) < 1e-9
    assert dp.equity.mean == 1.0 and dp.mwc.mean == met.equity_after(side, 1)
    assert str(found.action) == "Double, take"


def test_the_command_rolls_a_match_cube_decision_out_with_gnubg():
    found = _bgcli("rollout", "--engine", "gnubg", "--trials", "36", "--truncate", "1", "--json", MATCH_RACE)
    assert found["method"] == "gnubg" and [line["kind"] for line in found["lines"]] == \
        ["no double", "double, take", "double, pass"]
    assert all("mwc" in line for line in found["lines"]) and found["cube"]["action"] == "Double, take"


@pytest.mark.parametrize("score,theirs", [((0, 0), "take"), ((3, 1), "pass")])
def test_after_a_play_in_a_match_the_opponent_takes_their_first_cube_decision(score, theirs):
    """12/11 8/5 leaves the opponent the race above, in a 7-point match: at 0-0 double, take (the play is
    worth their take, turned from the doubled cube through the table), at 4-away against 6-away double, pass
    (it is worth a single game lost); bgcli's own trial loop over gnubg gives the same."""
    from dataclasses import replace

    from bgcli.core.generator import legal_plays
    from bgcli.core.ids import parse_position
    from bgcli.core.notation import play_text
    from bgcli.engines import open_engine
    from bgcli.judging import rollout as ro

    state = parse_position("2+6GAAB32wgFAA:cAkAAAAAAAAA")
    rules = replace(state.match.rules, match_length=7, jacoby=False)
    state = replace(state, match=replace(state.match, score=score, rules=rules))
    play = next(p for p in legal_plays(state.position, (3, 1)) if play_text(p, "gnubg", side=0) == "12/11 8/5")
    other = 1 - state.match.on_roll   # the opponent on roll after the play
    after = replace(state, position=play.after, match=replace(state.match, on_roll=other, turn=other, dice=(0, 0)))
    settings = ro.RolloutSettings(trials=36, seed=1, truncate=1)
    deeper = open_engine("gnubg", 1)
    engine = open_engine("gnubg", 0)
    try:
        decision = deeper.cube_decision(after)
        own = ro.engine_rollout(state, engine, (3, 1), plays=[play], settings=settings).lines[0]
        loop = ro.rollout(state, engine, (3, 1), plays=[play], settings=settings).lines[0]
    finally:
        deeper.close()
        engine.close()
    wanted = -decision.double_take if theirs == "take" else -1.0
    assert abs(own.equity.mean - wanted) <= ONE_PLY
    assert abs(own.equity.mean - loop.equity.mean) <= ONE_PLY and abs(own.mwc.mean - loop.mwc.mean) <= ONE_PLY


@pytest.mark.parametrize("position", [RACE, MATCH_RACE])
def test_a_cubeless_rollout_by_gnubg_is_read(position):
    """A cubeless rollout prints no cubeful (CF) figure: its equity is the cubeless one (gnubg's figures were
    refused as missing); truncated at one half-move it is bgcli's loop's over gnubg."""
    words = ["--trials", "36", "--truncate", "1", "--cubeless", "--json", position]
    own = _bgcli("rollout", "--engine", "gnubg", *words)
    loop = _bgcli("rollout", "--engine", "gnubg", "--bgcli-loop", *words)
    assert own["method"] == "gnubg" and loop["method"] == "bgcli"
    for mine, theirs in zip(own["lines"], loop["lines"]):
        assert abs(mine["equity"]["mean"] - theirs["equity"]["mean"]) <= ONE_PLY, (mine, theirs)
