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
import logging
import struct
import sys
from array import array
from enum import Enum
from functools import lru_cache
from typing import Callable, Sequence

from bgcli.analysis.bearoff import POINTS, key, step_results
from bgcli.core.cube import turned
from bgcli.core.position import ALL_THROWS, KINDS_OF_ROLL, throws

CHECKERS = 6
_ROLLS = KINDS_OF_ROLL
_MAGIC = b"bgcli bear-off 2\n"
_HEADER = struct.Struct("<17sII32s")  # magic, checkers, positions, sha256 of the values
# A first build takes seconds (the cubeful one 15-30 s) inside whatever command first reaches a bear-off: it is
# announced as a warning of this logger, which Python writes to stderr when nobody has set logging up (the command
# line's case) and a library user may silence or route.
log = logging.getLogger(__name__)


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


class _Pairs:
    """The pairs of bear-offs every two-sided table holds, 1 to ``checkers`` checkers a side on the six home
    points, and where each side's counts stand in its lists (``keys``, ``index``): one rule of what a
    table covers for the cubeless, the cubeful and the match tables."""

    def __init__(self, checkers: int):
        self.checkers = checkers
        self.keys = _keys(checkers)
        self.index = {k: i for i, k in enumerate(self.keys)}

    def covers(self, on_roll: Sequence[int], opponent: Sequence[int]) -> bool:
        """Whether both sides' six home-point counts are in the table (each with at most ``checkers``)."""
        return 0 < sum(on_roll) <= self.checkers and 0 < sum(opponent) <= self.checkers

    def _uncovered(self, on_roll: Sequence[int], opponent: Sequence[int]) -> ValueError:
        """The error for a pair the table does not cover, naming it."""
        return ValueError(f"the two-sided table holds bear-offs of 1 to {self.checkers} checkers a side, "
                          f"not {sum(on_roll)} against {sum(opponent)}")

    def _pair(self, on_roll: Sequence[int], opponent: Sequence[int]) -> tuple[int, int]:
        """The indexes of the two sides' counts."""
        if not self.covers(on_roll, opponent):
            raise self._uncovered(on_roll, opponent)
        return self.index[key(on_roll)], self.index[key(opponent)]


class TwoSidedTable(_Pairs):
    """``win(on_roll, opponent)``: the cubeless chance that the player on roll bears off first."""

    def __init__(self, checkers: int, values: array):
        super().__init__(checkers)
        self.values = values

    def win(self, on_roll: Sequence[int], opponent: Sequence[int]) -> float:
        # _pair's lookups written out: the exact engine asks this at every bear-off it evaluates
        if not self.covers(on_roll, opponent):
            raise self._uncovered(on_roll, opponent)
        index = self.index
        return self.values[index[key(on_roll)] * len(self.keys) + index[key(opponent)]]

    def equity(self, on_roll: Sequence[int], opponent: Sequence[int]) -> float:
        """Cubeless money equity of the player on roll (no gammon is possible)."""
        return 2.0 * self.win(on_roll, opponent) - 1.0


_WEIGHTS = tuple(float(throws(roll)) for roll in _ROLLS)


def _moves(keys: list[int]) -> list[list[list[int]]]:
    """For each position (by index) and roll, the indices of the positions its plays reach (0: borne off)."""
    index = {k: i for i, k in enumerate(keys)}
    return [[sorted(index[r] for r in plays(k, roll)) for roll in _ROLLS] for k in keys]


def _pairs(keys: list[int]) -> list[tuple[int, int]]:
    """Every pair of unfinished positions, in increasing total pips: each pair's plays lead to pairs before it."""
    n = len(keys)
    pips = [_pips(k) for k in keys]
    return sorted(((x, y) for x in range(1, n) for y in range(1, n)), key=lambda p: pips[p[0]] + pips[p[1]])


def build(checkers: int = CHECKERS) -> TwoSidedTable:
    keys = _keys(checkers)
    n = len(keys)
    values = array("d", bytes(8 * n * n))
    moves = _moves(keys)
    weights = _WEIGHTS
    for x, y in _pairs(keys):
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
        values[x * n + y] = total / ALL_THROWS
    return TwoSidedTable(checkers, values)


def dumps(table: TwoSidedTable) -> bytes:
    return _framed(_MAGIC, table.checkers, [table.values])


def loads(data: bytes) -> TwoSidedTable:
    """The table of a file's bytes; ValueError saying why when they are not one (wrong header, size or digest)."""
    checkers, (values,) = _unframed(data, _MAGIC, "two-sided bear-off table", 1)
    if not all(0.0 <= v <= 1.0 for v in values):
        raise ValueError("a two-sided bear-off table with a chance outside 0 to 1")
    return TwoSidedTable(checkers, values)


# Both tables are stored the same way: a header (magic, checkers, positions, the sha256 of the body),
# then one or more arrays of positions x positions doubles, little-endian.
def _framed(magic: bytes, checkers: int, arrays: Sequence[array]) -> bytes:
    data = b"".join(_little(values) for values in arrays)
    return _HEADER.pack(magic, checkers, len(_keys(checkers)), hashlib.sha256(data).digest()) + data


def _unframed(data: bytes, magic: bytes, what: str, count: int) -> tuple[int, list[array]]:
    """The checkers and the ``count`` arrays of a file's bytes; ValueError saying why when they are not a ``what``."""
    if len(data) < _HEADER.size:
        raise ValueError(f"too short for a {what}")
    found, checkers, positions, digest = _HEADER.unpack_from(data)
    body = data[_HEADER.size:]
    if found != magic or not 1 <= checkers <= 6 or positions != len(_keys(checkers)):
        raise ValueError(f"not a {what} of bgcli")
    size = 8 * positions * positions
    if len(body) != count * size or hashlib.sha256(body).digest() != digest:
        raise ValueError(f"a {what} whose contents do not match their digest")
    arrays = []
    for i in range(count):
        values = array("d")
        values.frombytes(body[i * size:(i + 1) * size])
        if sys.byteorder != "little":
            values.byteswap()
        arrays.append(values)
    return checkers, arrays


def _little(values: array) -> bytes:
    if sys.byteorder == "little":
        return values.tobytes()
    copy = array(values.typecode, values)
    copy.byteswap()
    return copy.tobytes()


def _cached(name: str, what: str, takes: str, loads_table, dumps_table, build_table, checkers: int):
    """A table read from the cache folder (when its file passes ``loads_table``'s checks and has ``checkers``), else
    built, announced first (``what`` table, ``takes`` how long), and written there."""
    from bgcli.grammar import read_cached, write_cached

    data = read_cached(name)
    if data is not None:
        try:
            found = loads_table(data)
            if found.checkers == checkers:
                return found
        except ValueError:
            pass   # rebuilt below
    log.warning("note: building the exact %s (%s, %s, once: it is kept in your cache folder)", what, name, takes)
    built = build_table(checkers)
    write_cached(name, dumps_table(built))
    return built


@lru_cache(maxsize=None)
def table(checkers: int = CHECKERS) -> TwoSidedTable:
    """The table, read from the cache folder or built (and written there) once per process."""
    return _cached(f"bearoff-2-{checkers}.bin", "two-sided bear-off table", "about 10 s", loads, dumps, build, checkers)


# --- cubeful figures ----------------------------------------------------------------------------

class Owner(Enum):
    """Who holds the cube, seen by the player on roll."""

    CENTRED = "centred"
    ON_ROLL = "on roll"
    OPPONENT = "opponent"

    def seen_by_opponent(self) -> "Owner":
        return _OTHER_SIDE[self]


_OTHER_SIDE = {Owner.CENTRED: Owner.CENTRED, Owner.ON_ROLL: Owner.OPPONENT, Owner.OPPONENT: Owner.ON_ROLL}
_CUBEFUL_MAGIC = b"bgcli bear-off 2c"
MATCH_WORK = 10_000   # the most pairs a match figure is worked out over (MatchTable.work)   # 17 bytes, as the cubeless table's magic


class CubeValues(tuple):
    """The figures of a cube turn for the player on roll: no double, double/take, double/pass (a named tuple's
    worth, kept a plain tuple so that the numbers compare and unpack as they are)."""

    __slots__ = ()

    def __new__(cls, no_double: float, double_take: float, double_pass: float) -> "CubeValues":
        return super().__new__(cls, (no_double, double_take, double_pass))

    @property
    def no_double(self) -> float:
        return self[0]

    @property
    def double_take(self) -> float:
        return self[1]

    @property
    def double_pass(self) -> float:
        return self[2]


class CubefulTable(_Pairs):
    """Money play: the cubeful equity of the player on roll, before rolling, per unit of the cube, with the
    cube centred, owned by the player on roll and owned by the opponent (each side playing and handling the
    cube to maximise it; no gammon is possible, so Jacoby changes nothing, and a beaver is not played)."""

    def __init__(self, checkers: int, equities: dict[Owner, array]):
        super().__init__(checkers)
        self.equities = equities
        self.moves: list[list[list[int]]] | None = None

    def equity(self, on_roll: Sequence[int], opponent: Sequence[int], owner: Owner) -> float:
        """The equity with the proper cube action taken."""
        x, y = self._pair(on_roll, opponent)
        return self.equities[owner][x * len(self.keys) + y]

    def after_play(self, mover: Sequence[int], opponent: Sequence[int], owner: Owner) -> float:
        """The equity of the player who has just played to ``mover`` (``owner`` seen by that player):
        +1 when every checker is off, else minus the opponent's equity on roll."""
        if not sum(mover):
            return 1.0
        return -self.equity(opponent, mover, owner.seen_by_opponent())

    def decision(self, on_roll: Sequence[int], opponent: Sequence[int], owner: Owner) -> CubeValues:
        """No double (every roll's best play), double/take (the opponent then owns twice the cube) and
        double/pass (+1), per unit of the cube now in play."""
        x, y = self._pair(on_roll, opponent)
        if self.moves is None:
            self.moves = _moves(self.keys)
        n = len(self.keys)
        seen = self.equities[owner.seen_by_opponent()]
        total = 0.0
        for weight, results in zip(_WEIGHTS, self.moves[x]):
            total += weight * max(1.0 if r == 0 else -seen[y * n + r] for r in results)
        return CubeValues(total / ALL_THROWS, 2.0 * self.equities[Owner.OPPONENT][x * n + y], 1.0)


def build_cubeful(checkers: int = CHECKERS) -> CubefulTable:
    """The money table: the recurrence of :func:`build` with the cube. From the pair ``x`` (on roll) and
    ``y``, no double is worth the average over the rolls of the best play's ``-E'(y, x')``, ``E'`` the
    opponent's equity with the cube as the opponent sees it (centred stays centred, owned becomes the
    opponent's); a double the opponent takes leaves the opponent owning the cube at twice the value with the
    player still to roll, ``2 * E_opponent-owns(x, y)``, a pass +1; the player who may double (cube centred
    or owned) takes the better of no double and the opponent's better answer."""
    keys = _keys(checkers)
    n = len(keys)
    centred, owned, theirs = (array("d", bytes(8 * n * n)) for _ in range(3))
    moves = _moves(keys)
    for x, y in _pairs(keys):
        row = y * n
        c = o = t = 0.0
        for weight, results in zip(_WEIGHTS, moves[x]):
            if results[0] == 0:   # a play bears off the last checker: +1, the most any play is worth
                c += weight
                o += weight
                t += weight
                continue
            # the opponent's equities after each play, the least of each the best play (cube states as the opponent sees them)
            low_c = low_o = low_t = 2.0
            for r in results:
                j = row + r
                if centred[j] < low_c:
                    low_c = centred[j]
                if theirs[j] < low_o:
                    low_o = theirs[j]
                if owned[j] < low_t:
                    low_t = owned[j]
            c -= weight * low_c
            o -= weight * low_o
            t -= weight * low_t
        t /= ALL_THROWS
        take = min(2.0 * t, 1.0)
        i = x * n + y
        theirs[i] = t
        owned[i] = max(o / ALL_THROWS, take)
        centred[i] = max(c / ALL_THROWS, take)
    return CubefulTable(checkers, {Owner.CENTRED: centred, Owner.ON_ROLL: owned, Owner.OPPONENT: theirs})


def dumps_cubeful(table: CubefulTable) -> bytes:
    return _framed(_CUBEFUL_MAGIC, table.checkers, [table.equities[owner] for owner in Owner])


def loads_cubeful(data: bytes) -> CubefulTable:
    """The cubeful table of a file's bytes; ValueError saying why when they are not one."""
    checkers, arrays = _unframed(data, _CUBEFUL_MAGIC, "cubeful bear-off table", len(Owner))
    if not all(-1.0 <= v <= 1.0 for values in arrays for v in values):
        raise ValueError("a cubeful bear-off table with an equity outside -1 to 1")
    return CubefulTable(checkers, dict(zip(Owner, arrays)))


@lru_cache(maxsize=None)
def cubeful_table(checkers: int = CHECKERS) -> CubefulTable:
    """The money table, read from the cache folder or built (and written there) once per process."""
    return _cached(f"bearoff-2c-{checkers}.bin", "cubeful bear-off table", "15-30 s", loads_cubeful, dumps_cubeful,
                   build_cubeful, checkers)


class MatchTable(_Pairs):
    """Match play at one score: the cubeful match winning chance of the player on roll, before rolling, for
    bear-offs of up to ``checkers`` checkers a side, through the match equity table (``payoff``).

    ``payoff(away, opponent_away, points)`` is the chance of winning the match of the player ``away`` from
    it after this game ends with that player winning (positive) or losing ``points``. The cube may be
    doubled by the player on roll when it is centred or theirs, this is not the Crawford game, and the cube
    does not already win them the match (a dead cube). Values are computed on demand, for the positions
    reachable from the ones asked, and kept (every score of a match is a different table). That can be
    slow from the largest pairs (six checkers on the high points a side: over five minutes and 700 MB), so
    an engine asks only where :meth:`work` is at most :data:`MATCH_WORK` (a second or two at most)."""

    def __init__(self, payoff: Callable[[int, int, int], float], crawford: bool, checkers: int = CHECKERS):
        super().__init__(checkers)
        self.crawford = crawford
        self.moves = _moves(self.keys)
        self._payoff = lru_cache(maxsize=None)(payoff)
        self._known: dict[tuple, float] = {}
        self._reached: dict[int, int] = {}

    def work(self, on_roll: Sequence[int], opponent: Sequence[int]) -> int:
        """How many pairs the figures of this pair may ask for: the product of the numbers of positions
        each side can reach (the cost of a first answer, about 0.15 ms a pair and cube state here)."""
        x, y = self._pair(on_roll, opponent)
        return self._reach(x) * self._reach(y)

    def _reach(self, x: int) -> int:
        found = self._reached.get(x)
        if found is None:
            seen, todo = {x}, [x]
            while todo:
                for results in self.moves[todo.pop()]:
                    for r in results:
                        if r not in seen:
                            seen.add(r)
                            todo.append(r)
            found = self._reached[x] = len(seen)
        return found

    # Fenced mirror of core.cube.may_double for the rules these figures are for (a match with a cube and no
    # cube limit, a dead cube not doubled): asked in the recurrence's every step, where a CubeTurn a call
    # would cost more than the step. tests/test_bearoff2.py::test_the_tables_may_double_is_the_cube_rules
    def may_double(self, away: int, cube: int, owner: Owner) -> bool:
        return not self.crawford and owner is not Owner.OPPONENT and cube < away

    def _value(self, x: int, y: int, away: int, opponent_away: int, cube: int, owner: Owner) -> float:
        found = self._known.get((x, y, away, opponent_away, cube, owner))
        if found is not None:
            return found
        value = self._no_double(x, y, away, opponent_away, cube, owner)
        if self.may_double(away, cube, owner):
            take = self._no_double(x, y, away, opponent_away, turned(cube), Owner.OPPONENT)
            value = max(value, min(take, self._payoff(away, opponent_away, cube)))
        self._known[x, y, away, opponent_away, cube, owner] = value
        return value

    def _no_double(self, x: int, y: int, away: int, opponent_away: int, cube: int, owner: Owner) -> float:
        win = self._payoff(away, opponent_away, cube)
        other = owner.seen_by_opponent()
        total = 0.0
        for weight, results in zip(_WEIGHTS, self.moves[x]):
            if results[0] == 0:
                total += weight * win
                continue
            total += weight * (1.0 - min(self._value(y, r, opponent_away, away, cube, other) for r in results))
        return total / ALL_THROWS

    def after_play(self, mover: Sequence[int], opponent: Sequence[int], away: int, opponent_away: int, cube: int,
                   owner: Owner) -> float:
        """The match winning chance of the player who has just played to ``mover`` (``away`` and ``owner``
        that player's): the game won when every checker is off, else one minus the opponent's on roll."""
        if not sum(mover):
            return self._payoff(away, opponent_away, cube)
        y, x = self._pair(opponent, mover)
        return 1.0 - self._value(y, x, opponent_away, away, cube, owner.seen_by_opponent())

    def decision(self, on_roll: Sequence[int], opponent: Sequence[int], away: int, opponent_away: int, cube: int,
                 owner: Owner) -> CubeValues:
        """The match winning chances after no double, double/take and double/pass."""
        x, y = self._pair(on_roll, opponent)
        return CubeValues(self._no_double(x, y, away, opponent_away, cube, owner),
                          self._no_double(x, y, away, opponent_away, turned(cube), Owner.OPPONENT),
                          self._payoff(away, opponent_away, cube))

    def value(self, on_roll: Sequence[int], opponent: Sequence[int], away: int, opponent_away: int, cube: int,
              owner: Owner) -> float:
        """The match winning chance with the proper cube action taken."""
        x, y = self._pair(on_roll, opponent)
        return self._value(x, y, away, opponent_away, cube, owner)


__all__ = ["CHECKERS", "MATCH_WORK", "CubeValues", "CubefulTable", "MatchTable", "Owner", "TwoSidedTable", "build", "build_cubeful",
           "cubeful_table", "dumps", "dumps_cubeful", "loads", "loads_cubeful", "plays", "table"]
