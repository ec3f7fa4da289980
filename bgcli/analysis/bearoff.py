"""Exact one-sided bear-off distributions, computed by bgcli itself.

For every way of placing up to 15 checkers on the six home points (54,264
positions) the table holds the probability of bearing all of them off in
exactly n rolls, n = 1, 2, ..., and the mean, when the side plays each roll
to minimise its expected number of rolls: the definition of GNU
Backgammon's one-sided database (gnubg_os0.bd), computed exactly instead of
in 16-bit integers.

How it is computed. Positions are taken in increasing pip count, so every
position a roll leads to is known before the position itself. For a die
``d`` and a position ``q``, ``best[d][q]`` is the best position one step of
``d`` reaches from ``q``, and ``best2`` and ``best3`` the best after two and
three steps of ``d``. A double is then one step followed by ``best3``, and
a non-double ``ab`` the better of ``a`` then ``best[b]`` and ``b`` then
``best[a]`` (in the bear-off every die can always be played, so every play
uses both dice unless the first one finishes). Means and distributions are
exact integers: the mean scaled by 36**48, and the distribution packed into
one integer whose field n holds 36**n times the probability of n rolls, so
that a roll's contribution is one addition and "one roll later" is one
shift. Plays of equal mean occur (in 4,299 of the position-roll pairs, found
by enumerating every play of every roll of every position) but always reach
identical distributions, so the distribution is as well defined as the
mean; tests/test_analysis.py checks it exactly on every position of up to
four checkers and on a sample of large ones. The exact values are then
rounded once to floats (the nearest double, far inside 1e-9).

The table is built in about three seconds and kept in a file in the user's
private cache folder (``bgcli.grammar.cache_dir()``): ``bearoff-1.bin``, a
plain little-endian array file, never a pickle. Reading it checks the
header, a SHA-256 of the contents, that the keys are exactly the 54,264
positions in the table's order, that every distribution sums to 1 and
agrees with its mean, and the defining equation (mean = 1 + the average
over the rolls of the best play's mean) on a random sample of positions; a
file that fails any check is rebuilt and replaced. The digest of a file that
passed is kept beside it (``bearoff-1.checked``): a later load of the same
contents (their SHA-256 checked first, as always) makes only the checks whose
answer can change, the defining equation on a new random sample, and not
the others again (a tenth of a second at the start of a page or an analysis).
With no safe cache folder the table lives in memory only. Delete the file at any time; it is rebuilt when next needed.
"""
from __future__ import annotations

import hashlib
import math
import operator
import random
import struct
import sys
from array import array
from itertools import accumulate
from typing import Callable, Iterable, Sequence

from bgcli.core.position import ALL_THROWS, CHECKERS, FACES, HOME, HOME_BOARD_SLOTS, KINDS_OF_ROLL, OUTSIDE_HOME, throws

POINTS = HOME   # a one-sided table counts the checkers on a side's home-board points
POSITIONS = math.comb(CHECKERS + POINTS, POINTS)  # 54,264: up to 15 checkers on six points
FILE_NAME = "bearoff-1.bin"
CHECKED_NAME = "bearoff-1.checked"   # the digest of the table file that last passed the whole check
_CHECKED = b"bgcli bear-off checked 1\n"   # then the 32-byte digest; the number names the checks made
_MAGIC = b"bgcli bear-off\n\0"  # 16 bytes
_VERSION = 1
_HEADER = struct.Struct("<16sIIII32s")  # magic, version, positions, probabilities, reserved, sha256
_SCALE_POWER = 48  # exact means are integers scaled by 36**48
_FIELD_BITS = 176  # one field of a packed distribution: 36**n < 2**176 for every n <= 33
_MAX_ROLLS = 33
_ROLLS = KINDS_OF_ROLL

Counts = tuple[int, ...]  # the checkers on points 1..6


def key(counts: Sequence[int]) -> int:
    """The table key of six point counts (4 bits a point, the 1-point lowest)."""
    value = 0
    for point in range(POINTS - 1, -1, -1):
        value = (value << 4) | counts[point]
    return value


def counts_of(k: int) -> Counts:
    return tuple((k >> (4 * p)) & 15 for p in range(POINTS))


def home_counts(side: Sequence[int]) -> Counts | None:
    """The six home-point counts of a side (26 counts: [0] off, [1..24]
    points, [25] bar) when all its checkers are home or off, else None."""
    if any(side[OUTSIDE_HOME]):
        return None
    return tuple(side[HOME_BOARD_SLOTS])


def _pips(k: int) -> int:
    return sum((p + 1) * ((k >> (4 * p)) & 15) for p in range(POINTS))


def _all_keys() -> list[int]:
    """Every position's key, in increasing pip count (then key)."""
    keys = []
    most = CHECKERS + 1
    for c6 in range(most):
        for c5 in range(most - c6):
            for c4 in range(most - c6 - c5):
                for c3 in range(most - c6 - c5 - c4):
                    for c2 in range(most - c6 - c5 - c4 - c3):
                        for c1 in range(most - c6 - c5 - c4 - c3 - c2):
                            keys.append(c1 | c2 << 4 | c3 << 8 | c4 << 12 | c5 << 16 | c6 << 20)
    keys.sort(key=lambda k: (_pips(k), k))
    return keys


def step_results(k: int, die: int) -> list[int]:
    """The keys one checker moved by ``die`` can reach from key ``k``: a
    checker above ``die`` moves down, one on point ``die`` bears off, and the
    highest checker bears off when it is below ``die``. The empty position
    stays empty."""
    if not k:
        return [0]
    results = []
    highest = (k.bit_length() + 3) >> 2  # the highest occupied point
    for point in range(1, highest + 1):
        if (k >> (4 * (point - 1))) & 15:
            unit = 1 << (4 * (point - 1))
            if point > die:
                results.append(k - unit + (1 << (4 * (point - 1 - die))))
            elif point == die or point == highest:
                results.append(k - unit)
    return results


class BearoffTable:
    """The distributions of all 54,264 positions, looked up by six counts."""

    __slots__ = ("_index", "keys", "means", "first", "length", "offset", "probs")

    def __init__(self, keys: array, means: array, first: bytes, length: bytes, probs: array):
        self.keys, self.means, self.first, self.length, self.probs = keys, means, first, length, probs
        # built in C loops (zip, accumulate): the table is loaded at the start of many commands
        self._index = dict(zip(keys, range(len(keys))))
        self.offset = array("L", accumulate(length, initial=0))

    def __len__(self) -> int:
        return len(self.keys)

    def __contains__(self, counts: Sequence[int]) -> bool:
        return _valid_counts(counts) and key(counts) in self._index

    def _position(self, counts: Sequence[int]) -> int:
        if not _valid_counts(counts):
            raise ValueError(f"not a bear-off position: {tuple(counts)!r} (six counts, {CHECKERS} checkers at most)")
        return self._index[key(counts)]

    def mean(self, counts: Sequence[int]) -> float:
        """The expected number of rolls to bear off every checker."""
        return self.means[self._position(counts)]

    def dist(self, counts: Sequence[int]) -> tuple[float, ...]:
        """(p1, p2, ...): the chance of bearing off in exactly 1, 2, ... rolls,
        up to the last nonzero one; () for no checkers."""
        i = self._position(counts)
        start = self.offset[i]
        return (0.0,) * (self.first[i] - 1 if self.length[i] else 0) + tuple(self.probs[start:start + self.length[i]])


def _valid_counts(counts: Sequence[int]) -> bool:
    return (len(counts) == POINTS and all(isinstance(c, int) and 0 <= c <= CHECKERS for c in counts)
            and sum(counts) <= CHECKERS)


# --- building -------------------------------------------------------------------------

def build() -> BearoffTable:
    """Compute the table from scratch (about three seconds)."""
    return _to_table(*exact_figures())


def exact_figures() -> tuple[list[int], list[int], list[int], int]:
    """The exact table: (keys, means, packed distributions, scale). A mean is
    ``means[i] / scale``; field r of ``packed[i]`` (``_FIELD_BITS`` bits a
    field) is 36**r times the probability of exactly r rolls."""
    keys = _all_keys()
    index = {k: i for i, k in enumerate(keys)}
    n = len(keys)
    one = 36 ** _SCALE_POWER
    mean = [0] * n  # exact: the mean times 36**48
    packed = [0] * n  # field r (of _FIELD_BITS bits): 36**r * P(exactly r rolls)
    packed[0] = 1  # nothing left: done in 0 rolls
    best = [[0] * n for _ in range(7)]  # best[d][q]: the best position one step of d reaches from q
    best2 = [[0] * n for _ in range(7)]
    best3 = [[0] * n for _ in range(7)]
    non_doubles = [(a, b) for a, b in _ROLLS if a != b]
    by_mean = mean.__getitem__
    for i in range(1, n):
        k = keys[i]
        steps: list[list[int]] = [[]] + [[index[r] for r in step_results(k, d)] for d in FACES]
        total = 0
        dist = 0
        for d in FACES:
            st = steps[d]
            one_step, two_steps, three_steps = best[d], best2[d], best3[d]
            one_step[i] = min(st, key=by_mean)
            two_steps[i] = min([one_step[j] for j in st], key=by_mean)
            three_steps[i] = min([two_steps[j] for j in st], key=by_mean)
            chosen = min([three_steps[j] for j in st], key=by_mean)  # the double: four steps
            total += mean[chosen]
            dist += packed[chosen]
        for a, b in non_doubles:
            after_b, after_a = best[b], best[a]
            chosen = min([after_b[j] for j in steps[a]] + [after_a[j] for j in steps[b]], key=by_mean)
            total += 2 * mean[chosen]
            dist += 2 * packed[chosen]
        whole, rest = divmod(total, 36)
        assert not rest, "the scale 36**48 keeps every mean an integer"
        mean[i] = one + whole
        packed[i] = dist << _FIELD_BITS
    return keys, mean, packed, one


def _to_table(keys: list[int], mean: list[int], packed: list[int], one: int) -> BearoffTable:
    """Round the exact figures to floats, distributions stored from their
    first nonzero roll."""
    mask = (1 << _FIELD_BITS) - 1
    powers = [36 ** r for r in range(_MAX_ROLLS + 1)]
    means = array("d", (m / one for m in mean))
    first = bytearray(len(keys))
    length = bytearray(len(keys))
    probs = array("d")
    for i, value in enumerate(packed):
        if i == 0:
            continue
        value >>= _FIELD_BITS  # field 0 (no rolls) is empty for a position with checkers
        r = 1
        while not value & mask:
            value >>= _FIELD_BITS
            r += 1
        first[i] = r
        start = len(probs)
        while value:
            probs.append((value & mask) / powers[r])
            value >>= _FIELD_BITS
            r += 1
        length[i] = len(probs) - start
    return BearoffTable(array("L", keys), means, bytes(first), bytes(length), probs)


# --- the cache file -------------------------------------------------------------------

def _little(values: array) -> bytes:
    if sys.byteorder == "big":
        values = array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def _from_little(typecode: str, data: bytes) -> array:
    values = array(typecode)
    values.frombytes(data)
    if sys.byteorder == "big":
        values.byteswap()
    return values


def dumps(table: BearoffTable) -> bytes:
    """The file: a header, then the keys (uint32), first roll and length of
    each distribution (bytes), the means and the probabilities (float64)."""
    keys = array("I", table.keys)
    payload = b"".join([_little(keys), table.first, table.length, _little(table.means), _little(table.probs)])
    header = _HEADER.pack(_MAGIC, _VERSION, len(table), len(table.probs), 0, hashlib.sha256(payload).digest())
    return header + payload


class BadTableFile(ValueError):
    """A cache file that is not a whole, valid table."""


def loads(data: bytes, sample: int = 64, checked: bytes | None = None) -> BearoffTable:
    """Read and check a table file; raise BadTableFile when anything is off.
    ``checked``: what :func:`checked_mark` gave for a file that passed the
    whole check before. When it names these very contents (the SHA-256 in the
    header, which the contents are checked against), the checks that give the
    same answer for the same bytes are not made again; the defining equation
    is still tried on ``sample`` random positions, a new sample each time."""
    if len(data) < _HEADER.size:
        raise BadTableFile("too short")
    magic, version, n, total, _, digest = _HEADER.unpack_from(data)
    if magic != _MAGIC or version != _VERSION or n != POSITIONS:
        raise BadTableFile("not a bgcli bear-off table of this version")
    payload = data[_HEADER.size:]
    if len(payload) != n * (4 + 1 + 1 + 8) + total * 8:
        raise BadTableFile("wrong size")
    if hashlib.sha256(payload).digest() != digest:
        raise BadTableFile("checksum mismatch")
    at = 0
    keys = _from_little("I", payload[at:at + 4 * n])
    at += 4 * n
    first = payload[at:at + n]
    at += n
    length = payload[at:at + n]
    at += n
    means = _from_little("d", payload[at:at + 8 * n])
    at += 8 * n
    probs = _from_little("d", payload[at:])
    if sum(length) != total:
        raise BadTableFile("lengths do not add up")
    table = BearoffTable(array("L", keys), means, first, length, probs)
    if checked is not None and checked == _CHECKED + digest:
        check_sample(table, sample)
    else:
        check(table, sample)
    return table


def checked_mark(data: bytes) -> bytes:
    """What is kept beside a table file that passed :func:`loads`' whole
    check (``CHECKED_NAME``): the digest of its contents, from its header."""
    return _CHECKED + _HEADER.unpack_from(data)[5]


def check(table: BearoffTable, sample: int = 64, rng: random.Random | None = None) -> None:
    """Raise BadTableFile unless ``table`` is plausible: the keys are the
    54,264 positions, each distribution sums to 1 and matches its mean, and
    the defining equation holds on ``sample`` random positions."""
    keys = table.keys
    checkers = [sum((h >> s) & 15 for s in (0, 4, 8)) for h in range(4096)]  # in 12 bits (3 points)
    low_pips = [sum((i + 1) * ((h >> (4 * i)) & 15) for i in range(3)) for h in range(4096)]
    high_pips = [p + 3 * n for p, n in zip(low_pips, checkers)]  # the same 12 bits as points 4-6
    if len(keys) != POSITIONS or any(k >> 24 or checkers[k & 4095] + checkers[k >> 12] > CHECKERS for k in keys):
        raise BadTableFile("the keys are not the 54,264 positions")
    # in the order build() writes them, (pips, key) strictly increasing: so each is there once,
    # and no two positions' figures are swapped
    order = [(low_pips[k & 4095] + high_pips[k >> 12], k) for k in keys]
    if any(a >= b for a, b in zip(order, order[1:])):
        raise BadTableFile("the keys are not in the table's order")
    probs, offset, first, means = table.probs, table.offset, table.first, table.means
    if probs and min(probs) < 0.0:   # one pass over them all, not one per distribution
        raise BadTableFile("a negative probability")
    mul = operator.mul
    for i, k in enumerate(keys):
        start, stop, r = offset[i], offset[i + 1], first[i]
        if not k:
            if stop != start or means[i] != 0.0:
                raise BadTableFile("the empty position is not done in 0 rolls")
            continue
        dist = probs[start:stop]
        if (r < 1 or r + len(dist) - 1 > _MAX_ROLLS or not dist
                or abs(sum(dist) - 1.0) > 1e-12
                or abs(sum(map(mul, dist, range(r, r + len(dist)))) - means[i]) > 1e-10):
            raise BadTableFile(f"bad distribution for {counts_of(k)}")
    check_sample(table, sample, rng)


def check_sample(table: BearoffTable, sample: int = 64, rng: random.Random | None = None) -> None:
    """Raise BadTableFile unless the defining equation holds on ``sample``
    random positions (the part of :func:`check` that is not the same for the
    same bytes)."""
    keys, means = table.keys, table.means
    rng = rng or random.Random()
    for i in rng.sample(range(len(keys)), min(sample, len(keys))):
        if abs(bellman_mean(table, keys[i]) - means[i]) > 1e-10:
            raise BadTableFile(f"the mean of {counts_of(keys[i])} is not the best play's")


def bellman_mean(table: BearoffTable, k: int) -> float:
    """1 + the average over the 36 rolls of the smallest mean a play reaches,
    from the table's own means: equal to the table's mean when it is right."""
    if not k:
        return 0.0
    index, means = table._index, table.means
    total = 0.0
    for a, b in _ROLLS:
        if a == b:
            reached = {k}
            for _ in range(4):
                reached = {r for q in reached for r in step_results(q, a)}
        else:
            reached = {r for q in step_results(k, a) for r in step_results(q, b)}
            reached |= {r for q in step_results(k, b) for r in step_results(q, a)}
        total += throws((a, b)) * min(means[index[r]] for r in reached)
    return 1.0 + total / ALL_THROWS


# --- the process-wide table -----------------------------------------------------------

_TABLE: BearoffTable | None = None


def table(announce: Callable[[], None] | None = None) -> BearoffTable:
    """The table: from memory, else from the cache file (checked), else built
    and written to the cache file (bgcli.grammar.read_cached and
    write_cached: opened by descriptor in the private cache folder).
    ``announce`` is called once before a build (the command line says so)."""
    global _TABLE
    if _TABLE is None:
        from bgcli.grammar import read_cached, write_cached

        data = read_cached(FILE_NAME)
        loaded = None
        if data is not None:
            checked = read_cached(CHECKED_NAME)
            try:
                loaded = loads(data, checked=checked)
            except BadTableFile:
                loaded = None
            else:
                mark = checked_mark(data)
                if checked != mark:   # these contents passed the whole check: not made again on every load
                    write_cached(CHECKED_NAME, mark)
        if loaded is None:
            if announce is not None:
                announce()
            loaded = build()
            write_cached(FILE_NAME, dumps(loaded))
        _TABLE = loaded
    return _TABLE


# --- two sides ------------------------------------------------------------------------

def race_win(on_roll: Sequence[float], opponent: Sequence[float]) -> float:
    """The chance that the side on roll bears off first, from two
    distributions (p1, p2, ...): it wins when it needs n rolls and the
    opponent needs n or more, since it rolls first."""
    if not on_roll:
        return 1.0  # already off
    if not opponent:
        return 0.0
    return min(1.0, sum(p * sum(opponent[n - 1:]) for n, p in enumerate(on_roll, 1)))


def distributions(sides: Iterable[Sequence[int]]) -> list[tuple[float, tuple[float, ...]] | None]:
    """(mean, dist) for each side (26 counts) that is all home, else None."""
    out: list[tuple[float, tuple[float, ...]] | None] = []
    found = None
    for side in sides:
        counts = home_counts(side)
        if counts is None:
            out.append(None)
            continue
        found = found or table()
        out.append((found.mean(counts), found.dist(counts)))
    return out
