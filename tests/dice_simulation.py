"""Simulated dice for the dice audit's statistical tests: a player's counts
drawn straight from a seeded generator (no files, no replay), fair or with a
planted bias, in the shape bgcli.judging.dice.Unit keeps them."""
from __future__ import annotations

import numpy as np

from bgcli.judging.dice import CONDITIONS, KIND_INDEX, Unit

# the chances a position gives, in rolls of 36: entering (36 less the square of the points held), hitting, bearing off
CHANCES = {"enter": (11, 20, 27, 32, 35), "hit": tuple(range(3, 35, 2)), "bearoff": (1, 4, 8, 17, 23, 30),
           "gammon": (6, 6, 6, 11, 17, 23)}   # saving the gammon: mostly the doubles
SHARE = {"enter": 0.25, "hit": 0.45, "bearoff": 0.03, "gammon": 0.002}   # of the rolls, about as in real matches


def rolls(rng: np.random.Generator, n: int, doubles: float | None = None, face: float | None = None) -> np.ndarray:
    """n rolls (n x 2 faces 1..6): fair; or doubles at ``doubles`` (faces still fair); or face 1 at ``face`` on each die."""
    if face is not None:
        chances = [face] + [(1 - face) / 5] * 5
        return rng.choice(np.arange(1, 7), size=(n, 2), p=chances)
    first = rng.integers(1, 7, size=n)
    if doubles is None:
        return np.stack([first, rng.integers(1, 7, size=n)], axis=1)
    same = rng.random(n) < doubles
    other = (first - 1 + rng.integers(1, 6, size=n)) % 6 + 1   # one of the five other faces, evenly
    return np.stack([first, np.where(same, first, other)], axis=1)


def unit(rng: np.random.Generator, n: int, name: str = "player", doubles: float | None = None, face: float | None = None,
         excess: dict[str, float] | None = None, opening: int = 0) -> Unit:
    """One player's counts from n rolls of one long game (pairs, doubles after doubles), with ``opening`` opening
    rolls apart, and trials of each chance (``excess``: added to the position's chance, a planted bias)."""
    out = Unit("simulated", 1, 0, name, "opponent", ordered=True)
    dice = rolls(rng, n, doubles, face)
    a, b = dice[:, 0], dice[:, 1]
    high, low = np.maximum(a, b), np.minimum(a, b)
    kinds = high * (high - 1) // 2 + low - 1   # KINDS: 11, 21, 22, 31, ...
    double = a == b
    out.kinds = np.bincount(kinds, minlength=21).tolist()
    out.faces = np.bincount(np.concatenate([a, b]) - 1, minlength=6).tolist()
    out.order = np.bincount((a - 1) * 6 + b - 1, minlength=36).tolist()
    out.pairs = np.bincount(kinds[:-1] * 21 + kinds[1:], minlength=441).tolist()
    out.after_double = [int(double[:-1].sum()), int((double[:-1] & double[1:]).sum())]
    out.own_after_double = [int(double[:-2].sum()), int((double[:-2] & double[2:]).sum())]
    for _ in range(opening):
        high, low = 1, 1
        while high == low:
            high, low = sorted(rng.integers(1, 7, size=2).tolist(), reverse=True)
        out.opening[KIND_INDEX[(high, low)]] += 1
    for condition in CONDITIONS:
        trials = rng.binomial(n, SHARE[condition])
        counts = rng.choice(CHANCES[condition], size=trials)
        chance = np.minimum(1.0, counts / 36 + (excess or {}).get(condition, 0.0))
        success = rng.random(trials) < chance
        out.trials[condition] = np.bincount(counts, minlength=37).tolist()
        out.successes[condition] = np.bincount(counts[success], minlength=37).tolist()
    return out
