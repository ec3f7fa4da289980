"""rollout --engine gnubg: gnubg's own rollout for cube decisions of money play, and the opponent's first
cube decision after a play (which gnubg's rollout of a position leaves out), both decided by bgcli
from gnubg's rolled-out no double and double/take."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bgcli.engines.gnubg import find_gnubg

# a race in which the player on roll has 76%: double, take at 0-ply (no double is gnubg's own rollout figure)
RACE = "d9uBBADb7oYAAA:MAEAAAAAAAAA"


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
