"""A two-sided bear-off table, computed by bgcli itself: the cubeless chance that the player on roll
bears off first, for every pair of small bear-offs.

Limits: both sides with every checker on the six home points or off and at most ``CHECKERS`` (6,
as GNU Backgammon's own two-sided database) checkers left each: 924 one-sided positions with the
empty one, 853,776 pairs, 6.8 MB on disk, built in about 10 s (Python, one core); no contact. With 11 or more checkers off no gammon is possible, so the cubeless money equity of the
player on roll is ``2 * win - 1``. Cubeful and match figures are not in it (yet).

How it is computed: the recurrence over both sides' one-sided positions. For the player on roll
with position ``x`` and the opponent with ``y``, ``win(x, y)`` is the average over the 36 rolls of
the best play's value, a play ending in ``x'``: 1 when ``x'`` is empty (borne off), else
``1 - win(y, x')`` (the opponent is then on roll). Every play lowers the pips, so the pairs are
taken in increasing total pips and each value needed is known before it is used. A play's
results come from the one-sided table's steps (:func:`bgcli.analysis.bearoff.step_results`):
a non-double plays both dice in either order, a double four times, and a play stops when the
last checker is off. Each player plays to win the race (the best play for winning, not for the
fewest rolls on average): the two can differ, which is why this table is not a product of the
one-sided distributions. tests/test_bearoff2.py checks it against an exhaustive search over full
positions with bgcli's own move generator.

Built on first use and kept in the private cache folder as ``bearoff-2-6.bin``
(a header, a SHA-256 of the values, then little-endian doubles; never a pickle); a file that fails
its checks is rebuilt.
"""
from __future__ import annotations

import hashlib
import struct
import sys
from array import array
from functools import lru_cache
from typing import Sequence

from bgcli.analysis.bearoff import POINTS, key, step_results

CHECKERS = 6
_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))
_MAGIC = b"bgcli bear-off 2\n"
_HEADER = struct.Struct("<17sII32s")  # magic, checkers, positions, sha256 of the values


def _keys(checkers: int) -> list[int]:
    """Every one-sided position of at most ``checkers`` checkers, in increasing pips (the empty one first)."""
    found = []

    def place(point: int, left: int, counts: list[int]) -> None:
        if point == POINTS:
            found.append(key(counts))
            return
        for n in range(left + 1):
            counts[point] = n
            place(point + 1, left - n, counts)
        counts[point] = 0

    place(0, checkers, [0] * POINTS)
    return sorted(found, key=lambda k: (_pips(k), k))


def _pips(k: int) -> int:
    return sum((p + 1) * ((k >> (4 * p)) & 15) for p in range(POINTS))


def _steps(k: int, dice: Sequence[int]) -> set[int]:
    """The positions playing ``dice`` in this order reaches (a play stops when the last checker is off)."""
    now = {k}
    for die in dice:
        now = {r for q in now for r in (step_results(q, die) if q else [0])}
    return now


def plays(k: int, roll: tuple[int, int]) -> set[int]:
    """Every position one side reaches from ``k`` with ``roll``."""
    a, b = roll
    if a == b:
        return _steps(k, (a, a, a, a))
    return _steps(k, (a, b)) | _steps(k, (b, a))


class TwoSidedTable:
    """``win(on_roll, opponent)``: the cubeless chance that the player on roll bears off first."""

    def __init__(self, checkers: int, values: array):
        self.checkers = checkers
        self.keys = _keys(checkers)
        self.index = {k: i for i, k in enumerate(self.keys)}
        self.values = values

    def covers(self, on_roll: Sequence[int], opponent: Sequence[int]) -> bool:
        """Whether both sides' six home-point counts are in the table (each with at most ``checkers``)."""
        return 0 < sum(on_roll) <= self.checkers and 0 < sum(opponent) <= self.checkers

    def win(self, on_roll: Sequence[int], opponent: Sequence[int]) -> float:
        if not self.covers(on_roll, opponent):
            raise ValueError(f"the two-sided table holds bear-offs of 1 to {self.checkers} checkers a side, "
                             f"not {sum(on_roll)} against {sum(opponent)}")
        n = len(self.keys)
        return self.values[self.index[key(on_roll)] * n + self.index[key(opponent)]]

    def equity(self, on_roll: Sequence[int], opponent: Sequence[int]) -> float:
        """Cubeless money equity of the player on roll (no gammon is possible)."""
        return 2.0 * self.win(on_roll, opponent) - 1.0


def build(checkers: int = CHECKERS) -> TwoSidedTable:
    keys = _keys(checkers)
    n = len(keys)
    index = {k: i for i, k in enumerate(keys)}
    values = array("d", bytes(8 * n * n))
    moves = [[sorted(index[r] for r in plays(k, roll)) for roll in _ROLLS] for k in keys]
    weights = [1.0 if a == b else 2.0 for a, b in _ROLLS]
    pips = [_pips(k) for k in keys]
    pairs = sorted(((x, y) for x in range(1, n) for y in range(1, n)), key=lambda p: pips[p[0]] + pips[p[1]])
    for x, y in pairs:
        total = 0.0
        row = y * n
        for weight, results in zip(weights, moves[x]):
            best = 0.0
            for r in results:
                value = 1.0 if r == 0 else 1.0 - values[row + r]
                if value > best:
                    best = value
                    if best == 1.0:
                        break
            total += weight * best
        values[x * n + y] = total / 36.0
    return TwoSidedTable(checkers, values)


def dumps(table: TwoSidedTable) -> bytes:
    data = _little(table.values)
    return _HEADER.pack(_MAGIC, table.checkers, len(table.keys), hashlib.sha256(data).digest()) + data


def loads(data: bytes) -> TwoSidedTable:
    """The table of a file's bytes; ValueError saying why when they are not one (wrong header, size or digest)."""
    if len(data) < _HEADER.size:
        raise ValueError("too short for a two-sided bear-off table")
    magic, checkers, positions, digest = _HEADER.unpack_from(data)
    body = data[_HEADER.size:]
    if magic != _MAGIC or not 1 <= checkers <= 6 or positions != len(_keys(checkers)):
        raise ValueError("not a two-sided bear-off table of bgcli")
    if len(body) != 8 * positions * positions or hashlib.sha256(body).digest() != digest:
        raise ValueError("a two-sided bear-off table whose contents do not match their digest")
    values = array("d")
    values.frombytes(body)
    if sys.byteorder != "little":
        values.byteswap()
    if not all(0.0 <= v <= 1.0 for v in values):
        raise ValueError("a two-sided bear-off table with a chance outside 0 to 1")
    return TwoSidedTable(checkers, values)


def _little(values: array) -> bytes:
    if sys.byteorder == "little":
        return values.tobytes()
    copy = array(values.typecode, values)
    copy.byteswap()
    return copy.tobytes()


@lru_cache(maxsize=None)
def table(checkers: int = CHECKERS) -> TwoSidedTable:
    """The table, read from the cache folder or built (and written there) once per process."""
    from bgcli.grammar import read_cached, write_cached

    name = f"bearoff-2-{checkers}.bin"
    data = read_cached(name)
    if data is not None:
        try:
            found = loads(data)
            if found.checkers == checkers:
                return found
        except ValueError:
            pass   # rebuilt below
    built = build(checkers)
    write_cached(name, dumps(built))
    return built


__all__ = ["CHECKERS", "TwoSidedTable", "build", "dumps", "loads", "plays", "table"]
