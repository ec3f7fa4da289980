"""Honest statistics for the dice audit: each test against its exact
expectation, an effect size with a 95% interval, a power statement, and the
p-values of a whole report corrected for testing many things at once.

The distributions are scipy's (the ``stats`` extra: ``pip install
'bgcli[stats]'``): the chi-square test (``scipy.stats.chisquare``), the
binomial and its Clopper-Pearson interval, the noncentral chi-square for the
power and the interval of an effect size, the contingency test
(``chi2_contingency``) and the Benjamini-Hochberg false discovery rate
(``false_discovery_control``). The one distribution built here is the Poisson
binomial of rolls whose chances differ by position: the convolution of one
scipy binomial per chance (the chances are counted in rolls of 36, so there
are at most 35 of them); ``scipy.stats.poisson_binom`` is the same
distribution (tests/test_dice.py compares them) but takes seconds at
thousands of trials.

Every two-sided test here is the equal-tailed one (twice the smaller tail),
so that the power statement, worked out from the same rejection region,
promises what the test does. A group too small for a test gets no p-value
and says what it would need.

Nothing here reads files: :func:`report` takes counts (bgcli.judging.dice),
so that the calibration tests can simulate the counts directly.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from bgcli.core.position import ALL_THROWS
from bgcli.errors import Extra, install_command

ALPHA = 0.05
POWER = 0.80
MIN_EXPECTED = 5.0   # the chi-square's and the normal's rule of thumb: every expected count at least 5
BY = ("all", "player", "file", "site", "month", "match")


class StatsMissing(ImportError):
    """scipy is not installed: the dice audit needs the stats extra."""


def scipy_stats() -> Any:
    """``scipy.stats``, or StatsMissing saying how to install it."""
    try:
        import scipy.stats as stats
    except ImportError:
        raise StatsMissing(f"bgcli dice needs scipy for its statistics: {install_command(Extra.STATS)}") from None
    return stats


def require_stats() -> None:
    """StatsMissing, as :func:`scipy_stats` raises it, when scipy is not
    installed; found without importing it (as ``import`` looks: a module
    entry of None in ``sys.modules`` fails, then the package is looked for
    on the path). The dice command asks this before it reads the files and
    imports ``scipy.stats`` for the report: the import takes about a second
    and leaves some 50,000 objects that the garbage collector's full scans
    would go through again and again while the files are read."""
    import importlib.util
    import sys

    found = sys.modules["scipy.stats"] is not None if "scipy.stats" in sys.modules else \
        importlib.util.find_spec("scipy") is not None
    if not found:
        raise StatsMissing(f"bgcli dice needs scipy for its statistics: {install_command(Extra.STATS)}")


@dataclass
class Cell:
    """One bar of a picture: an observed proportion with its 95% interval, and the expected one."""

    label: str
    observed: int
    n: int
    expected: float     # the expected proportion
    low: float
    high: float

    def to_dict(self) -> dict:
        return {"label": self.label, "observed": self.observed, "n": self.n, "expected": self.expected,
                "low": self.low, "high": self.high}


@dataclass
class Test:
    """One test of one group."""

    name: str            # its key: "kinds", "doubles", ...
    title: str           # what a reader is told it tests
    n: int               # rolls (or dice, or trials) in it
    observed: float      # the count observed (or the statistic's total)
    expected: float      # the count expected
    p: float | None = None          # None: too small for the test (``note`` says why)
    statistic: float | None = None
    df: int | None = None
    effect_name: str = ""
    effect: float | None = None
    effect_low: float | None = None
    effect_high: float | None = None
    note: str = ""
    power: str = ""
    holm: float | None = None
    bh: float | None = None
    cells: list[Cell] = field(default_factory=list)

    def verdict(self, alpha: float = ALPHA) -> str:
        if self.p is None:
            return "too small"
        if self.holm is not None and self.holm < alpha:
            return "not consistent with fair dice after correction"
        if self.p < alpha:
            return "unusual alone, consistent after correction"
        return "consistent with fair dice"

    def to_dict(self) -> dict:
        return {"test": self.name, "title": self.title, "n": self.n, "observed": self.observed, "expected": self.expected,
                "statistic": self.statistic, "df": self.df, "p": self.p, "holm": self.holm, "bh": self.bh,
                "effect": {"name": self.effect_name, "value": self.effect, "low": self.effect_low, "high": self.effect_high}
                if self.effect_name else None,
                "verdict": self.verdict(), "note": self.note, "power": self.power, "cells": [c.to_dict() for c in self.cells]}


# --- the tests, on counts -------------------------------------------------------------------

def two_sided(lower_tail: float, upper_tail: float) -> float:
    """The equal-tailed two-sided p-value: twice the smaller tail, at most 1."""
    return min(1.0, 2.0 * min(lower_tail, upper_tail))


def clopper_pearson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson) interval of a proportion k/n."""
    beta = scipy_stats().beta
    tail = (1 - level) / 2
    low = 0.0 if k == 0 else float(beta.ppf(tail, k, n - k + 1))
    high = 1.0 if k == n else float(beta.ppf(1 - tail, k + 1, n - k))
    return low, high


def clopper_pearson_many(ks: Sequence[int], n: int, level: float = 0.95) -> tuple[list[float], list[float]]:
    """:func:`clopper_pearson` of each k of n, in one call of scipy's beta."""
    import numpy as np

    beta = scipy_stats().beta
    tail = (1 - level) / 2
    k = np.asarray(ks, dtype=float)
    low = np.where(k == 0, 0.0, beta.ppf(tail, np.maximum(k, 1), n - k + 1))
    high = np.where(k == n, 1.0, beta.ppf(1 - tail, k + 1, np.maximum(n - k, 1)))
    return low.tolist(), high.tolist()


def binomial_test(name: str, title: str, k: int, n: int, p0: float, what: str = "rolls", with_power: bool = True) -> Test:
    """k successes of n against chance p0: the exact equal-tailed binomial test,
    the difference of rates with its exact interval, and the power statement."""
    stats = scipy_stats()
    test = Test(name, title, n, k, n * p0, effect_name="rate - expected")
    need = math.ceil(MIN_EXPECTED / min(p0, 1 - p0))
    if n < need:
        test.note = f"too small: needs {need} {what}, has {n}"
        return test
    test.p = two_sided(float(stats.binom.cdf(k, n, p0)), float(stats.binom.sf(k - 1, n, p0)))
    low, high = clopper_pearson(k, n)
    test.effect, test.effect_low, test.effect_high = k / n - p0, low - p0, high - p0
    test.cells = [Cell(title, k, n, p0, low, high)]
    detect = detectable_rate(n, p0) if with_power else None
    if detect is not None:
        test.power = (f"with {n:,} {what} this group would detect {title} at {detect:.1%} instead of {p0:.1%} "
                      f"with {POWER:.0%} power")
    return test


def binomial_region(n: int, p0: float, alpha: float = ALPHA) -> tuple[int, int]:
    """(kL, kU): the equal-tailed test of n trials at p0 rejects k <= kL or k >= kU."""
    binom = scipy_stats().binom
    low = int(binom.ppf(alpha / 2, n, p0))
    while low >= 0 and binom.cdf(low, n, p0) > alpha / 2:
        low -= 1
    high = int(binom.isf(alpha / 2, n, p0)) + 1
    while high > 0 and binom.sf(high - 2, n, p0) <= alpha / 2:
        high -= 1
    while binom.sf(high - 1, n, p0) > alpha / 2:
        high += 1
    return low, high


def binomial_power(n: int, p0: float, p1: float, alpha: float = ALPHA) -> float:
    """The chance that the test of n trials at p0 rejects when the chance is p1."""
    binom = scipy_stats().binom
    low, high = binomial_region(n, p0, alpha)
    return float(binom.cdf(low, n, p1) + binom.sf(high - 1, n, p1))


def detectable_rate(n: int, p0: float, power: float = POWER, alpha: float = ALPHA) -> float | None:
    """The smallest chance above p0 that the test of n trials detects with ``power``, or None past 99%."""
    return _solve(lambda p1: binomial_power(n, p0, p1, alpha) >= power, p0, min(0.99, p0 * 4 + 0.3))


def _solve(enough: Callable[[float], bool], low: float, high: float, steps: int = 30) -> float | None:
    """The least x in (low, high] where ``enough`` turns true (it only turns once), by bisection; None if not by high."""
    if not enough(high):
        return None
    for _ in range(steps):
        middle = (low + high) / 2
        if enough(middle):
            high = middle
        else:
            low = middle
    return high


def goodness_test(name: str, title: str, observed: Sequence[int], probs: Sequence[float], labels: Sequence[str],
                  what: str = "rolls", shifted: Callable[[float], Sequence[float]] | None = None,
                  shift_words: Callable[[float], str] | None = None) -> Test:
    """Counts against a multinomial's chances: the chi-square test, Cohen's w
    (from the noncentrality's estimate, the statistic less its degrees of freedom)
    with its 95% interval (the noncentral chi-square inverted), each cell's
    proportion with its exact interval, and a power statement when ``shifted``
    gives the chances under a bias of size x (the least x detected with 80% power,
    worded by ``shift_words``)."""
    stats = scipy_stats()
    n = sum(observed)
    expected = [n * p for p in probs]
    test = Test(name, title, n, n, n, effect_name="Cohen's w")
    need = math.ceil(MIN_EXPECTED / min(probs))
    if n < need:
        test.note = f"too small: needs {need} {what}, has {n}"
        return test
    result = stats.chisquare(list(observed), expected)
    df = len(observed) - 1
    test.statistic, test.df, test.p = float(result.statistic), df, float(result.pvalue)
    test.effect = math.sqrt(max(0.0, test.statistic - df) / n)   # the noncentrality's estimate, as the interval's
    low, high = noncentrality_interval(test.statistic, df)
    test.effect_low, test.effect_high = math.sqrt(low / n), math.sqrt(high / n)
    if len(observed) <= ALL_THROWS:
        lows, highs = clopper_pearson_many(observed, n)
        test.cells = [Cell(label, k, n, p, low, high) for label, k, p, low, high in zip(labels, observed, probs, lows, highs)]
    if shifted is not None and shift_words is not None:
        x = _solve(lambda x: goodness_power(n, probs, shifted(x)) >= POWER, 0.0, 0.8)
        if x is not None:
            test.power = f"with {n:,} {what} this group would detect {shift_words(x)} with {POWER:.0%} power"
    return test


def goodness_power(n: int, probs: Sequence[float], changed: Sequence[float], alpha: float = ALPHA) -> float:
    """The chance that the chi-square test of n counts against ``probs`` rejects
    when the chances are ``changed`` (the noncentral chi-square's approximation)."""
    stats = scipy_stats()
    df = len(probs) - 1
    nc = n * sum((q - p) ** 2 / p for p, q in zip(probs, changed))
    return float(stats.ncx2.sf(float(stats.chi2.isf(alpha, df)), df, nc))


def noncentrality_interval(statistic: float, df: int, level: float = 0.95) -> tuple[float, float]:
    """The 95% interval of a chi-square's noncentrality from its observed
    statistic: the noncentralities at which it is at the 97.5th and 2.5th percentiles."""
    from scipy.optimize import brentq

    stats = scipy_stats()
    tail = (1 - level) / 2

    def at(target: float) -> float:
        if float(stats.chi2.sf(statistic, df)) >= target:   # even no noncentrality puts it this high
            return 0.0
        high = max(10.0, 4 * statistic)
        while float(stats.ncx2.sf(statistic, df, high)) < target:
            high *= 2
        return float(brentq(lambda nc: float(stats.ncx2.sf(statistic, df, nc)) - target, 0.0, high, xtol=1e-6))

    return at(tail), at(1 - tail)


def contingency_test(name: str, title: str, rows: Sequence[Sequence[int]], labels: Sequence[str]) -> Test:
    """Two rows of counts from the same chances? The chi-square test of a
    contingency table, Cramér's V with the interval of its noncentrality."""
    stats = scipy_stats()
    kept = [i for i in range(len(rows[0])) if any(row[i] for row in rows)]
    table = [[row[i] for i in kept] for row in rows]
    n = sum(map(sum, table))
    test = Test(name, title, n, n, n, effect_name="Cramér's V")
    if len(kept) < 2 or any(sum(row) == 0 for row in table):
        test.note = "too small: one side has no rolls"
        return test
    result = stats.chi2_contingency(table, correction=False)
    if float(result.expected_freq.min()) < MIN_EXPECTED:
        need = math.ceil(MIN_EXPECTED * n / float(result.expected_freq.min()))
        test.note = f"too small: needs about {need} rolls, has {n}"
        return test
    df = int(result.dof)
    test.statistic, test.df, test.p = float(result.statistic), df, float(result.pvalue)
    scale = n * (min(len(table), len(kept)) - 1)
    test.effect = math.sqrt(max(0.0, test.statistic - df) / scale)
    low, high = noncentrality_interval(test.statistic, df)
    test.effect_low, test.effect_high = math.sqrt(low / scale), math.sqrt(high / scale)
    return test


# --- chances that differ by position: the Poisson binomial -------------------------------------

def poisson_binomial_pmf(trials: Sequence[int], chances: Sequence[float]) -> Any:
    """The distribution of the number of successes of trials[i] trials at
    chance chances[i] each: the convolution of scipy's binomials (FFT), as a numpy array."""
    import numpy as np
    from scipy.signal import fftconvolve

    binom = scipy_stats().binom
    pmf = np.ones(1)
    for n, p in zip(trials, chances):
        if n:
            part = binom.pmf(np.arange(n + 1), n, p)
            pmf = fftconvolve(pmf, part) if len(pmf) > 64 and n > 64 else np.convolve(pmf, part)
    pmf = np.clip(pmf, 0.0, None)
    return pmf / pmf.sum()


def _tails(pmf: Any, k: int) -> tuple[float, float]:
    """P(X <= k) and P(X >= k)."""
    return float(pmf[:k + 1].sum()), float(pmf[k:].sum())


def chance_test(name: str, title: str, trials_by_count: Sequence[int], successes_by_count: Sequence[int],
                what: str = "rolls", with_power: bool = True) -> Test:
    """Successes against chances that differ by position (counted in rolls of
    36: ``trials_by_count[m]`` trials where m of the 36 rolls succeed): the exact
    Poisson binomial test, the excess rate (observed less expected, per trial)
    with its normal 95% interval, and the least excess detected with 80% power."""
    bins = [(m, t, s) for m, (t, s) in enumerate(zip(trials_by_count, successes_by_count)) if t]
    n = sum(t for _, t, _ in bins)
    k = sum(s for _, _, s in bins)
    chances = [m / ALL_THROWS for m, _, _ in bins]
    counts = [t for _, t, _ in bins]
    mean = sum(t * p for t, p in zip(counts, chances))
    variance = sum(t * p * (1 - p) for t, p in zip(counts, chances))
    test = Test(name, title, n, k, mean, effect_name="excess rate")
    if mean < MIN_EXPECTED or n - mean < MIN_EXPECTED:
        test.note = f"too small: {mean:.1f} successes and {n - mean:.1f} failures expected, needs {MIN_EXPECTED:g} of each"
        return test
    pmf = poisson_binomial_pmf(counts, chances)
    test.p = two_sided(*_tails(pmf, k))
    half = 1.959963984540054 * math.sqrt(variance) / n
    test.effect = (k - mean) / n
    test.effect_low, test.effect_high = test.effect - half, test.effect + half
    test.cells = [Cell(title, k, n, mean / n, max(0.0, k / n - half), min(1.0, k / n + half))]
    if with_power and n <= 50_000:
        region = chance_region(pmf)
        excess = _solve(lambda x: chance_power(counts, chances, x, region) >= POWER, 0.0, 0.5, steps=14)
        if excess is not None:
            test.power = (f"with {n:,} {what} this group would detect {title} {excess * 100:.1f} points more often than "
                          f"the positions allow with {POWER:.0%} power")
    return test


def chance_region(pmf: Any, alpha: float = ALPHA) -> tuple[int, int]:
    """(kL, kU): the equal-tailed test of the Poisson binomial ``pmf`` rejects k <= kL or k >= kU."""
    import numpy as np

    low = int(np.searchsorted(np.cumsum(pmf), alpha / 2, side="right")) - 1   # the last k with P(X <= k) <= alpha/2
    upper = np.cumsum(pmf[::-1])[::-1]                                          # P(X >= k)
    high = int(np.argmax(upper <= alpha / 2)) if (upper <= alpha / 2).any() else len(pmf)
    return low, high


def chance_power(trials: Sequence[int], chances: Sequence[float], excess: float,
                 region: tuple[int, int] | None = None) -> float:
    """The chance that :func:`chance_test` rejects when every roll's chance is ``excess`` higher than the position's."""
    low, high = region if region is not None else chance_region(poisson_binomial_pmf(trials, chances))
    shifted = poisson_binomial_pmf(trials, [min(1.0, p + excess) for p in chances])
    return float(shifted[:low + 1].sum() if low >= 0 else 0.0) + float(shifted[high:].sum())


def luck_test(name: str, title: str, n: int, total: float, squares: float, with_power: bool = True) -> Test:
    """The luck of ``n`` rolls summed (``total``; ``squares``: the sum of their
    squares) against zero. Each roll's luck is the equity after it less the
    mean over the rolls of its position, so with fair dice it is zero on
    average whatever the position, and the sum's variance is the sum of the
    rolls' own variances, estimated by the sum of their squares: the normal
    test of the sum over its standard error (n of 30 or more), the luck per
    roll with its 95% interval, and the least luck per roll detected with 80%
    power."""
    stats = scipy_stats()
    test = Test(name, title, n, total, 0.0, effect_name="luck per roll")
    if n < 30 or squares <= 0.0:
        test.note = f"too small: needs 30 rolls with some luck, has {n}"
        return test
    error = math.sqrt(squares)
    test.statistic = total / error
    test.p = two_sided(float(stats.norm.cdf(test.statistic)), float(stats.norm.sf(test.statistic)))
    half = 1.959963984540054 * error / n
    test.effect = total / n
    test.effect_low, test.effect_high = test.effect - half, test.effect + half
    if with_power:
        least = (1.959963984540054 + float(stats.norm.ppf(POWER))) * error / n
        test.power = (f"with {n:,} rolls this group would detect a luck of {least:.4f} per roll (normalised equity) "
                      f"with {POWER:.0%} power")
    return test


# --- corrections for many tests ---------------------------------------------------------------

def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (the family-wise error rate)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """The Benjamini-Hochberg adjusted p-values (q-values: the false discovery rate), scipy's."""
    if not pvalues:
        return []
    return [float(q) for q in scipy_stats().false_discovery_control(list(pvalues), method="bh")]


def correct(tests: Iterable[Test]) -> int:
    """Set Holm's and Benjamini-Hochberg's adjusted p-values on every test with
    a p-value, as one family; the family's size."""
    done = [t for t in tests if t.p is not None]
    ps = [t.p for t in done if t.p is not None]
    for test, h, q in zip(done, holm(ps), benjamini_hochberg(ps)):
        test.holm, test.bh = h, q
    return len(done)
