"""The core model: positions, dice, plays and the legal-play generator.

A position is seen from the side of the player on roll. Each side's checkers
are a tuple of 26 counts indexed by that side's own point numbers:
``[0]`` borne off, ``[1]``..``[24]`` the points from its home, ``[25]`` its
bar. The opponent's point ``p`` is the player's point ``25 - p``.

The generator works on an integer image of the player's side: byte ``p`` of
the integer is the count on point ``p``. A step is one addition of a
precomputed difference, "every checker home" is a mask test and the highest
occupied point is a ``bit_length``. Each kind of roll has its own path:
non-doubles away from the bar and the bear-off need no order of the dice
(two checkers move independently), doubles are four nested loops over the
possible starts in non-increasing order, and the bar falls back to a plain
step-by-step search. Plays are built lazily, and a play's result Position ID
is written straight from the integer. This keeps it fast in pure Python
(see benchmarks/); tests/test_legal.py checks it against gnubg and against
a slow reference.
"""
from __future__ import annotations

import binascii
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import Any, Iterable, Sequence

from bgcli.errors import IllegalPlayError, InvalidDiceError, InvalidPositionError

Point = int
OFF: Point = 0
BAR: Point = 25
CHECKERS = 15

START_ID = "4HPwATDgc/ABMA"
_START_SIDE = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)

_HOME_SHIFT = 56  # bits below point 7: off and the six home points
_BAR_SHIFT = 200  # bit of point 25, the bar


@dataclass(frozen=True, slots=True)
class Position:
    """Both sides' checkers, from the side of the player on roll."""

    player: tuple[int, ...]
    opponent: tuple[int, ...]

    @classmethod
    def start(cls) -> "Position":
        return cls(_START_SIDE, _START_SIDE)

    @classmethod
    def from_sides(cls, player: Sequence[int], opponent: Sequence[int]) -> "Position":
        """Build a position from on-board counts (points 1..24 and bar, 25 or 26 long)
        and check it; the borne-off count is derived."""
        return cls(_side(player, "player"), _side(opponent, "opponent")).validated()

    @classmethod
    def from_id(cls, position_id: str) -> "Position":
        return parse_position_id(position_id)

    def id(self) -> str:
        return position_id(self)

    def validated(self) -> "Position":
        problem = self.problem()
        if problem:
            raise InvalidPositionError(f"invalid position {self.id_or_board()}: {problem}")
        return self

    def problem(self) -> str:
        """Why this position breaks the rules, or '' when it does not."""
        for name, side in (("player on roll", self.player), ("opponent", self.opponent)):
            if len(side) != 26 or min(side[1:]) < 0:
                return f"{name} has a negative or missing count"
            if sum(side[1:]) > CHECKERS:
                return f"{name} has {sum(side[1:])} checkers, more than 15"
            if sum(side) != CHECKERS or side[0] < 0:
                return f"{name} has {sum(side[1:])} checkers on the board and bar and {side[0]} off, not 15 in all"
        point = _shared_point(self.player, self.opponent)
        return f"point {point} is held by both sides" if point else ""

    def id_or_board(self) -> str:
        try:
            return self.id()
        except ValueError:
            return repr(self)

    def swap(self) -> "Position":
        """The same position seen by the other player."""
        return Position(self.opponent, self.player)

    def pips(self) -> tuple[int, int]:
        """Pip counts of the player on roll and of the opponent."""
        return (sum(p * n for p, n in enumerate(self.player)), sum(p * n for p, n in enumerate(self.opponent)))

    def is_over(self) -> bool:
        return self.player[OFF] == CHECKERS or self.opponent[OFF] == CHECKERS

    def board26(self) -> list[int]:
        """A plain board of 26 numbers as the player on roll sees it: index 0
        the opponent's bar, 1..24 the points (positive = the player's checkers,
        negative = the opponent's), 25 the player's bar."""
        out = [0] * 26
        out[0] = -self.opponent[BAR]
        out[25] = self.player[BAR]
        for p in range(1, 25):
            out[p] = self.player[p] - self.opponent[25 - p]
        return out

    @classmethod
    def from_board26(cls, numbers: Sequence[int]) -> "Position":
        if len(numbers) != 26:
            raise InvalidPositionError(f"invalid board {' '.join(map(str, numbers))!r}: needs 26 numbers, got {len(numbers)}")
        player, opponent = [0] * 26, [0] * 26
        player[BAR] = abs(numbers[25])
        opponent[BAR] = abs(numbers[0])
        for p in range(1, 25):
            if numbers[p] > 0:
                player[p] = numbers[p]
            elif numbers[p] < 0:
                opponent[25 - p] = -numbers[p]
        for side in (player, opponent):
            side[OFF] = CHECKERS - sum(side)
        position = cls(tuple(player), tuple(opponent))
        problem = position.problem()
        if problem:
            raise InvalidPositionError(f"invalid board {' '.join(map(str, numbers))!r}: {problem}")
        return position


_NONZERO = bytes([0] + [1] * 255)


def _shared_point(player: Sequence[int], opponent: Sequence[int]) -> int:
    """A point (1..24) held by both sides, or 0. Counts must be 0..255."""
    # one flag byte per point, the opponent's side reversed onto ours: a common
    # nonzero byte is a point held by both
    mine = bytes(player[1:25]).translate(_NONZERO)
    theirs = bytes(opponent[24:0:-1]).translate(_NONZERO)
    if int.from_bytes(mine, "little") & int.from_bytes(theirs, "little"):
        return next(p for p in range(1, 25) if player[p] and opponent[25 - p])
    return 0


def _side(counts: Sequence[int], name: str) -> tuple[int, ...]:
    counts = list(counts)
    if len(counts) == 25:  # points 1..24 and bar, no borne-off slot
        counts = [0] + counts
    if len(counts) != 26:
        raise InvalidPositionError(f"invalid {name} side {counts!r}: needs 25 or 26 counts")
    on_board = sum(counts[1:])
    if min(counts) < 0 or on_board > CHECKERS:
        raise InvalidPositionError(f"invalid {name} side {counts!r}: {on_board} checkers, more than 15")
    counts[0] = CHECKERS - on_board
    return tuple(counts)


# --- GNU Backgammon Position ID -------------------------------------------

def position_id(position: Position) -> str:
    """The 14-character Position ID: the opponent's slots first, then the
    player's; one 1 bit per checker and a 0 after each slot."""
    first, length = _side_bits(int.from_bytes(bytes(position.opponent), "little"))
    second = _side_bits(int.from_bytes(bytes(position.player), "little"))[0]
    return binascii.b2a_base64((first | second << length).to_bytes(10, "little"), newline=False)[:14].decode("ascii")


class _ChunkBits(dict):
    """Position ID bits of five consecutive slots, keyed by their five count
    bytes as one int; filled on demand (at most 15,504 keys, as 15 checkers
    fit in five slots in that many ways)."""

    def __missing__(self, key: int) -> tuple[int, int]:
        bits = length = 0
        counts = key
        for _ in range(5):
            count = counts & 255
            bits |= ((1 << count) - 1) << length
            length += count + 1
            counts >>= 8
        self[key] = bits, length
        return bits, length


_CHUNK_BITS = _ChunkBits()
_CHUNK_MASK = (1 << 40) - 1


def _side_bits(side: int) -> tuple[int, int]:
    """Bits and bit length of one side's 25 slots (points 1..24, bar), given
    the side as an int whose byte p is the count on point p."""
    chunks = _CHUNK_BITS
    v = side >> 8
    b0, n0 = chunks[v & _CHUNK_MASK]
    v >>= 40
    b1, n1 = chunks[v & _CHUNK_MASK]
    v >>= 40
    b2, n2 = chunks[v & _CHUNK_MASK]
    v >>= 40
    b3, n3 = chunks[v & _CHUNK_MASK]
    b4, n4 = chunks[v >> 40]
    return b0 | (b1 | (b2 | (b3 | b4 << n3) << n2) << n1) << n0, n0 + n1 + n2 + n3 + n4


class _LowChunkBits(dict):
    """Position ID bits of slots 1..5, keyed by a side's six low bytes (the
    borne-off count, which has no slot, then points 1..5): one mask fewer
    than ``_CHUNK_BITS`` on a play's key. At most 54,264 keys (15 checkers
    in six places)."""

    def __missing__(self, key: int) -> tuple[int, int]:
        bits = self[key] = _CHUNK_BITS[key >> 8]
        return bits


_LOW_CHUNK_BITS = _LowChunkBits()
_KEY_OF = attrgetter("_key")  # Play.key, read without the property
_LOW_MASK = (1 << 48) - 1
_ONE_ON_BAR = 1 << (8 * BAR)


def _hit_side(side: int, hits: int) -> int:
    """A side as an int (byte p = point p) after the blots that the mover's
    ``hits`` (bit p = the mover's point p) mark went to the bar."""
    while hits:
        point = (hits & -hits).bit_length() - 1  # the mover's point: the side's 25 - point
        side += _ONE_ON_BAR - (1 << (8 * (25 - point)))
        hits &= hits - 1
    return side


def query_ids(position: Position, keys: Iterable[int]) -> tuple[str, list[str]]:
    """``position.id()`` and, for each play key of ``legal_plays(position,
    ...)`` (``Play.key``), the Position ID of that play's result, as
    ``play.result_id()`` writes it: what ``bgcli moves --batch`` writes for
    a query, for about a quarter less than ``id()`` and a ``result_id()``
    per play.

    A result ID is the mover's 25 slots, then the opponent's. The opponent's
    half is the same for the whole query but for the blots a play hits, so
    it is encoded once per set of hits (the unhit one also serves the
    position's own ID). The mover's slots above point 10 change in few plays
    of a query: they are encoded, with the opponent's half behind them, once
    per distinct value. What is left per play is two chunk look-ups (slots
    1..5 and 6..10) and 12 bytes; the whole query is one base64 call.
    """
    opponent = int.from_bytes(bytes(position.opponent), "little")
    theirs, their_length = _side_bits(opponent)
    mine = _side_bits(int.from_bytes(bytes(position.player), "little"))[0]
    blocks = [(theirs | mine << their_length).to_bytes(12, "little")]
    append = blocks.append
    low, low_mask, chunks, mask = _LOW_CHUNK_BITS, _LOW_MASK, _CHUNK_BITS, _CHUNK_MASK
    opponents = {0: theirs}  # the opponent's bits by set of hits
    uppers: dict[int, int] = {}  # slots 11..25 and hits (key >> 88) -> their bits, then the opponent's
    known = uppers.get
    for key in keys:
        b0, n0 = low[key & low_mask]
        b1, n1 = chunks[key >> 48 & mask]
        top = key >> 88
        upper = known(top)
        if upper is None:
            hits = top >> 120
            hit = opponents.get(hits)
            if hit is None:
                hit = opponents[hits] = _side_bits(_hit_side(opponent, hits))[0]
            b2, n2 = chunks[top & mask]
            b3, n3 = chunks[top >> 40 & mask]
            b4, n4 = chunks[top >> 80 & mask]
            upper = uppers[top] = b2 | (b3 | (b4 | hit << n4) << n3) << n2
        append((b0 | (b1 | upper << n1) << n0).to_bytes(12, "little"))
    # 12 bytes are 16 base64 characters: the ID's 14, then "AA" for the zero bytes
    text = binascii.b2a_base64(b"".join(blocks)).decode("ascii")
    return text[:14], [text[i:i + 14] for i in range(16, 16 * len(blocks), 16)]


def sorted_keys(plays: Iterable[Play]) -> list[int]:
    """The keys (``Play.key``) of plays from ``legal_plays``, smallest
    first: the order bgcli lists plays in, and what ``query_ids`` takes."""
    return sorted(map(_KEY_OF, plays))


_B64 = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def parse_position_id(text: str) -> Position:
    pid = text.strip()
    if len(pid) != 14 or not set(pid) <= _B64:
        raise InvalidPositionError(f"invalid position id {text!r}: expected 14 base64 characters")
    bits = int.from_bytes(binascii.a2b_base64(pid + "=="), "little")
    # Each slot is a run of 1 bits closed by a 0, from the lowest bit up.
    runs = format(bits, "080b")[::-1].split("0")
    if len(runs) < 51:
        raise InvalidPositionError(f"invalid position id {text!r}: it does not describe 50 slots")
    if any(runs[50:]):
        raise InvalidPositionError(f"invalid position id {text!r}: bits left after the 50 slots")
    counts = list(map(len, runs[:50]))
    theirs, mine = sum(counts[:25]), sum(counts[25:])
    if theirs > CHECKERS or mine > CHECKERS:
        name, n = ("opponent", theirs) if theirs > CHECKERS else ("player on roll", mine)
        raise InvalidPositionError(f"invalid position id {text!r}: {name} has {n} checkers")
    player = (CHECKERS - mine, *counts[25:])
    opponent = (CHECKERS - theirs, *counts[:25])
    point = _shared_point(player, opponent)
    if point:
        raise InvalidPositionError(f"invalid position id {text!r}: point {point} is held by both sides")
    return Position(player, opponent)


# --- Dice -------------------------------------------------------------------

Dice = tuple[int, int]


def parse_dice(text: str | Sequence[int]) -> Dice:
    """Read dice written ``31``, ``3-1``, ``3 1``, ``3,1`` or given as numbers;
    the larger die comes first."""
    if isinstance(text, str):
        digits = [c for c in text.strip() if c not in " -,/x"]
        if len(digits) != 2 or not all(c in "123456" for c in digits):
            raise InvalidDiceError(f"invalid dice {text!r}: expected two numbers from 1 to 6, such as 31 or 3-1")
        values = [int(c) for c in digits]
    else:
        values = list(text)
        if len(values) != 2 or not all(isinstance(v, int) and 1 <= v <= 6 for v in values):
            raise InvalidDiceError(f"invalid dice {values!r}: expected two numbers from 1 to 6")
    return (max(values), min(values))


# --- Plays --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die (or, in written notation, by several)."""

    start: Point
    end: Point
    hit: bool = False

    def __str__(self) -> str:
        return f"{_point_text(self.start)}/{_point_text(self.end)}" + ("*" if self.hit else "")


class Play:
    """A legal play: the steps in the order they can be played, and the
    position it produces, still seen from the side of the player who moved.

    ``legal_plays`` makes plays lazily: it keeps the integer key of the result
    and the raw (start, end) pairs, and builds ``steps`` and ``result`` only
    when asked. Plays are immutable and compare by steps and result.
    """

    __slots__ = ("_steps", "_result", "_key", "_moves", "_query")
    # built lazily from the generator's integer key and raw pairs (see legal_plays)
    _steps: Any
    _result: Any
    _key: Any
    _moves: Any
    _query: Any

    def __init__(self, steps: Iterable[Step], result: Position):
        self._steps = tuple(steps)
        self._result = result
        self._key = self._moves = self._query = None

    @property
    def steps(self) -> tuple[Step, ...]:
        if self._steps is None:
            self._steps = _make_steps(self._moves, self._key >> _BOARD_BITS)
        return self._steps

    @property
    def result(self) -> Position:
        if self._result is None:
            self._result = _make_result(self._key, self._query[0])
        return self._result

    def steps_key(self) -> tuple:
        """A cheap hashable that names the steps (moves and hits), for caching
        what is derived from them, such as their text, without building them."""
        if self._moves is not None:
            return (self._moves, self._key >> _BOARD_BITS)
        return self.steps

    @property
    def key(self) -> int | None:
        """An integer naming the result: the mover's checkers (byte p = point
        p) and a bit above them for each blot hit (see ``play_key``); None
        for a play built by hand rather than by ``legal_plays``."""
        return self._key

    @property
    def after(self) -> Position:
        """The position after the play with the opponent on roll."""
        return self.result.swap()

    def result_id(self) -> str:
        """Position ID of ``after``; computed straight from the integer key."""
        key = self._key
        if key is None:
            return position_id(self.after)
        # _side_bits inlined: five chunks of the mover's slots, then the hit marks
        chunks = _CHUNK_BITS
        v = key >> 8
        b0, n0 = chunks[v & _CHUNK_MASK]
        v >>= 40
        b1, n1 = chunks[v & _CHUNK_MASK]
        v >>= 40
        b2, n2 = chunks[v & _CHUNK_MASK]
        v >>= 40
        b3, n3 = chunks[v & _CHUNK_MASK]
        v >>= 40
        b4 = chunks[v & _CHUNK_MASK][0]
        hits = v >> 40
        cache = self._query[1]
        opponent = cache.get(hits)
        if opponent is None:
            opponent = cache[hits] = _side_bits(_hit_opponent_int(self._query[0].opponent, hits))[0]
        # the mover's bits take 25 slot ends plus one bit per checker not borne off
        bits = b0 | (b1 | (b2 | (b3 | b4 << n3) << n2) << n1) << n0 | opponent << (40 - (key & 255))
        return _b64(bits.to_bytes(10, "little"), newline=False)[:14].decode("ascii")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.result == other.result and self.steps == other.steps

    def __hash__(self) -> int:
        return hash((self.steps, self.result))

    def __repr__(self) -> str:
        return f"Play(steps={self.steps!r}, result={self.result!r})"

    def __str__(self) -> str:
        # plain steps; bgcli.core.notation.play_text writes the notations
        return " ".join(map(str, self.steps))


# --- Moving checkers: the one place that applies and explains a step -----------

class Board:
    """A mutable copy of a position, from the mover's side, for trying steps.

    Every rule of moving one checker lives here: a checker on the start, an
    open landing, and (``strict``) the rules that depend on the order of the
    steps: the bar first, bearing off only with every checker home, and a
    larger die bearing off only from the highest point. The legal-play
    generator below applies the same rules on integers, for speed; the tests
    check the two against each other and against gnubg.
    """

    __slots__ = ("me", "opp")

    def __init__(self, position: Position):
        self.me = list(position.player)
        self.opp = list(position.opponent)

    def position(self) -> Position:
        return Position(tuple(self.me), tuple(self.opp))

    def problem(self, start: Point, end: Point, die: int = 0, strict: bool = True, landing: bool = True) -> str:
        """Why one checker cannot go from ``start`` to ``end`` now, or ''.
        ``die`` 0 is a step of unknown dice; ``landing`` False says the
        point is only passed on the way (for the reason's wording)."""
        if not (0 < start <= BAR and 0 <= end < start):
            return shape_problem(start, end) or f"{_point_text(start)}/{_point_text(end)} is not a step"
        if self.me[start] == 0:
            return f"no checker on {_point_text(start)}"
        if end and self.opp[25 - end] >= 2:
            return f"{'lands on' if landing else 'passes'} {end}, which the opponent holds"
        if strict:
            if start != BAR and self.me[BAR]:
                return f"{_point_text(start)}/{_point_text(end)} moves while a checker is on the bar"
            if end == OFF:
                if any(self.me[7:26]):
                    return f"{_point_text(start)}/off bears off while checkers are outside the home board"
                if die > start and any(self.me[start + 1:7]):
                    higher = max(p for p in range(start + 1, 7) if self.me[p])
                    return f"{_point_text(start)}/off bears off with a {die} while a checker is on {higher}"
        return ""

    def move(self, start: Point, end: Point) -> bool:
        """Move one checker (the caller checked ``problem``); return whether it hit."""
        self.me[start] -= 1
        self.me[end] += 1
        if end and self.opp[25 - end] == 1:
            self.opp[25 - end] = 0
            self.opp[BAR] += 1
            return True
        return False


def shape_problem(start: Point, end: Point) -> str:
    """Why a written hop cannot be a move at all, whatever the position, or ''."""
    if start == OFF:
        return f"{_point_text(start)}/{_point_text(end)} starts from off"
    if end == BAR:
        return f"{_point_text(start)}/{_point_text(end)} ends on the bar"
    if end >= start:
        return f"{_point_text(start)}/{_point_text(end)} moves backwards"
    return ""


def run_steps(
    position: Position,
    steps: Iterable[tuple[Point, Point, int]],
    strict: bool = True,
    written: frozenset[Point] = frozenset(),
) -> tuple[Position | None, tuple[Step, ...], str]:
    """Play die-steps ``(start, end, die)`` in the order given on a Board.

    Returns ``(result, steps with hit flags, "")`` or ``(None, (), reason)``.
    ``written`` holds the points a player wrote, so that a reason tells a
    landing from a point passed on the way.
    """
    board = Board(position)
    out = []
    for start, end, die in steps:
        reason = board.problem(start, end, die, strict, not written or end in written)
        if reason:
            return None, (), reason
        out.append(Step(start, end, board.move(start, end)))
    return board.position(), tuple(out), ""


def apply_steps(position: Position, steps: Iterable[Step | tuple[int, int]]) -> Position:
    """Apply steps mechanically, without the rules of the dice: each moves one
    checker from its start (25 = bar) to its end (0 = off), hitting a single
    opponent checker on the end point. Returns the result from the mover's side.

    Used to go on after an illegal play; raises IllegalPlayError when a start
    holds no checker or an end is held by two or more opponent checkers.
    """
    board = Board(position)
    for step in steps:
        start, end = (step.start, step.end) if isinstance(step, Step) else step
        if not (isinstance(start, int) and isinstance(end, int)):
            start, end = -1, -1
        reason = board.problem(start, end, strict=False)
        if reason:
            where = f"illegal step {_point_text(start)}/{_point_text(end)} in {position.id_or_board()}"
            if not 0 < start <= 25 or not 0 <= end < start:
                reason = "a step goes down from a point or the bar (25) to a point or off (0)"
            elif reason.startswith("lands on"):
                reason = f"point {end} is held by the opponent"
            raise IllegalPlayError(f"{where}: {reason}")
        board.move(start, end)
    return board.position()


def die_for(start: Point, end: Point, free: Sequence[int]) -> int | None:
    """The die of ``free`` that plays the hop start -> end in one step: the
    exact distance or, bearing off, the smallest larger die; None if none."""
    distance = start - end
    if distance in free:
        return distance
    if end == OFF:
        return min((d for d in free if d > distance), default=None)
    return None


def roll_dice(dice: Sequence[int]) -> list[int]:
    """The dice a roll gives to play: four of a double, else the two."""
    high, low = dice
    return [high] * 4 if high == low else [high, low]


def play_key(position: Position, moves: Iterable[tuple[int, int]]) -> int | None:
    """The key that ``legal_plays`` gives the play whose result ``moves``
    reach when applied one after another (start, end; 25 bar, 0 off), or
    None when a move has no checker to move or lands on a held point. A
    written play is legal when its key is a legal play's ``Play.key``."""
    board = int.from_bytes(bytes(position.player), "little")
    opponent = position.opponent
    hits = 0
    for start, end in moves:
        if not 0 <= end < start <= 25 or not (board >> _SHIFT[start]) & 255:
            return None
        if end:
            held = opponent[25 - end]
            if held >= 2:
                return None
            if held:
                hits |= _HIT[end]
        board += _UNIT[end] - _UNIT[start]
    return board | hits


def _point_text(p: object) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


# --- The legal-play generator ---------------------------------------------------
#
# The mover's side is one integer: byte p holds the count on point p. Moving a
# checker from s by d adds _DELTA[d][s]. A play's key is the resulting board
# with one bit per hit point above the board bytes, so plays that reach the same
# position (same board, same blots hit) share a key.

_BOARD_BITS = 208  # 26 bytes
_BOARD_MASK = (1 << _BOARD_BITS) - 1
_SHIFT = tuple(8 * p for p in range(26))
_UNIT = tuple(1 << (8 * p) for p in range(26))
_HIT = tuple(1 << (_BOARD_BITS + p) for p in range(26))
_ABOVE = tuple(_BOARD_MASK ^ ((_UNIT[p] << 8) - 1) for p in range(26))  # bytes above p
_DELTA = tuple(tuple(_UNIT[max(s - d, 0)] - _UNIT[s] for s in range(26)) for d in range(7))
_b64 = binascii.b2a_base64


def legal_plays(position: Position, dice: Sequence[int]) -> list[Play]:
    """Every legal play of ``dice`` in ``position``, one per distinct result.

    gnubg's rule: use as many dice as possible and, among those plays, the
    largest total of die values (so the larger die when only one can be
    played). An empty list means the player cannot move. ``dice`` is two
    numbers in any order, or text that ``parse_dice`` reads.
    """
    if isinstance(dice, str):
        dice = parse_dice(dice)
    try:
        high, low = dice
        if high < low:
            high, low = low, high
        valid = low >= 1 and high <= 6 and type(high) is int and type(low) is int
    except (TypeError, ValueError):
        valid = False
    if not valid:
        raise InvalidDiceError(f"invalid dice {dice!r}: expected two numbers from 1 to 6")
    player = position.player
    # opp[p]: the opponent's checkers on the mover's point p (1..24)
    opp = bytes(position.opponent[::-1])
    board = int.from_bytes(bytes(player), "little")
    if high == low:
        found = _double_plays(board, player, opp, high)
    else:
        found = _mixed_plays(board, player, opp, high, low)
    if not found:
        return []
    query = [position, {}]  # shared by the plays: the position and result-ID parts per hit set
    new = object.__new__
    plays = []
    for key, moves in found.items():
        play = new(Play)
        play._key = key
        play._moves = moves
        play._query = query
        play._steps = play._result = None
        plays.append(play)
    return plays


def play_from_steps(position: Position, dice: Sequence[int], moves: Sequence[tuple[int, int]]) -> Play | None:
    """The legal play of ``dice`` that ``moves`` make, or None if they make none.

    ``moves`` are (start, end) pairs (25 the bar, 0 off) applied one after
    another. A play that uses every die of the roll, one die per pair (as
    nearly every recorded play does), is legal when each step can be made in
    turn under the rules (a checker on the start, an open landing, the bar
    first, bearing off only with every checker home and with a larger die only
    from the highest point); it is checked so, in the order given and, failing
    that, in the other orders and die assignments, without listing the legal
    plays. Anything else (fewer dice than the roll, a pair covering several
    dice, steps the rules refuse) is looked up among ``legal_plays`` by its
    result, as gnubg decides: so this returns a play exactly when the moves,
    applied in some order (``play_key``), reach the result of a legal play.
    The play returned has the steps as played, in an order they can be played.
    """
    return _from_steps(position, dice, moves, True)


def result_of_steps(position: Position, dice: Sequence[int], moves: Sequence[tuple[int, int]]) -> Position | None:
    """``play_from_steps(position, dice, moves).result``, or None, decided the
    same way but without building the Play: for a caller that needs only
    where the checkers end (the audit)."""
    return _from_steps(position, dice, moves, False)


def _from_steps(position: Position, dice: Sequence[int], moves: Sequence[tuple[int, int]], want_play: bool) -> Any:
    """play_from_steps (``want_play``) or result_of_steps: the one judge of both."""
    try:
        high, low = _ROLLS[dice]
    except (KeyError, TypeError, ValueError):
        high, low = _checked_dice(dice)
    player, opponent = position.player, position.opponent
    if high != low:
        if len(moves) == 2:
            (s1, e1), (s2, e2) = moves
            d1, d2 = s1 - e1, s2 - e2
            if e1 > 0 and e2 > 0 and s1 <= BAR and s2 <= BAR and (d1 == high and d2 == low or d1 == low and d2 == high):
                # the usual play: no bear-off, so the dice are fixed by the
                # distances and only the order can matter (the bar, a checker
                # that moves on)
                h1, h2 = opponent[25 - e1], opponent[25 - e2]
                if h1 < 2 and h2 < 2:
                    bar = player[BAR]
                    if (player[s1] and (not bar or s1 == BAR) and player[s2] - (s2 == s1) + (s2 == e1) > 0
                            and (bar - (s1 == BAR) == 0 or s2 == BAR)):
                        raw = (s1, e1, s2, e2)
                    elif (player[s2] and (not bar or s2 == BAR) and player[s1] - (s1 == s2) + (s1 == e2) > 0
                            and (bar - (s2 == BAR) == 0 or s1 == BAR)):
                        raw = (s2, e2, s1, e1)
                    else:
                        raw = None
                    if raw is not None:  # the result (and the play, with its key), unrolled
                        me = list(player)
                        me[s1] -= 1
                        me[e1] += 1
                        me[s2] -= 1
                        me[e2] += 1
                        mine = tuple(me)
                        hits = 0
                        if h1 or h2:  # a blot hit goes to the bar (two landings on one blot hit it once)
                            hit = list(opponent)
                            for end, held in ((e1, h1), (e2, h2)):
                                if held and not hits & _HIT[end]:
                                    hits |= _HIT[end]
                                    hit[25 - end] = 0
                                    hit[BAR] += 1
                            result = _position(mine, tuple(hit))
                        else:
                            result = _position(mine, opponent)
                        if not want_play:
                            return result
                        return _play(position, raw, mine, hits, result)
            else:  # a bear-off: which die a step takes, and the order, may matter
                for first, second in ((high, low), (low, high)):
                    if (d1 == first or not e1 and d1 < first) and (d2 == second or not e2 and d2 < second):
                        made = (_made(position, moves, (first, second), want_play)
                                or _made(position, moves[::-1], (second, first), want_play))
                        if made is not None:
                            return made
    elif len(moves) == 4:
        dies = (high, high, high, high)
        made = _made(position, moves, dies, want_play) or _made(position, sorted(moves, key=_start, reverse=True), dies, want_play)
        if made is not None:
            return made
    key = play_key(position, moves)
    if key is None:  # in an order that can be made, if there is one
        key = play_key(position, sorted(moves, key=_start, reverse=True))
        if key is None:
            return None
    for play in legal_plays(position, (high, low)):
        if play._key == key:
            return play if want_play else play.result
    return None


_ROLLS: dict[Any, tuple[int, int]] = {(a, b): (max(a, b), min(a, b)) for a in range(1, 7) for b in range(1, 7)}


def _checked_dice(dice: Any) -> tuple[int, int]:
    try:
        high, low = dice
        if high < low:
            high, low = low, high
        if low >= 1 and high <= 6 and type(high) is int and type(low) is int:
            return high, low
    except (TypeError, ValueError):
        pass
    raise InvalidDiceError(f"invalid dice {dice!r}: expected two numbers from 1 to 6")


_new = object.__new__
_flat = chain.from_iterable
_SET_PLAYER, _SET_OPPONENT = vars(Position)["player"].__set__, vars(Position)["opponent"].__set__


def _position(player: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
    """``Position(player, opponent)`` at half the cost, for the audit's hot
    path: the frozen dataclass's __init__ sets each field through
    ``object.__setattr__``; this sets the two slots directly."""
    position = _new(Position)
    _SET_PLAYER(position, player)
    _SET_OPPONENT(position, opponent)
    return position


def _made(position: Position, moves: Sequence[tuple[int, int]], dies: Sequence[int], want_play: bool) -> Any:
    """The play (``want_play``) or its result, of ``moves`` made in this order
    with these dice, one each, under every rule of a step (see
    :class:`Board`), or None when a step may not be made."""
    opponent = position.opponent
    me = list(position.player)
    hits = 0
    hit = None
    for (start, end), die in zip(moves, dies):
        if not 0 < start <= BAR or not me[start] or (me[BAR] and start != BAR):
            return None
        if end > 0:
            if start - end != die:
                return None
            held = opponent[25 - end]
            if held:
                if held >= 2:
                    return None
                if not hits & _HIT[end]:  # a blot hit goes to the bar (once)
                    hits |= _HIT[end]
                    if hit is None:
                        hit = list(opponent)
                    hit[25 - end] = 0
                    hit[BAR] += 1
        elif end < 0 or any(me[7:26]):
            return None  # bearing off needs every checker home
        elif start != die and (start > die or any(me[start + 1:7])):
            return None  # a larger die bears off from the highest point only
        me[start] -= 1
        me[end] += 1
    mine = tuple(me)
    result = _position(mine, tuple(hit) if hit is not None else opponent)
    return _play(position, tuple(_flat(moves)), mine, hits, result) if want_play else result


def _play(position: Position, raw: tuple[int, ...], mine: tuple[int, ...], hits: int, result: Position) -> Play:
    """A Play as legal_plays makes them (key, raw pairs, the query), with its result."""
    play = _new(Play)
    play._key = int.from_bytes(bytes(mine), "little") | hits
    play._moves = raw
    play._query = [position, {}]
    play._steps = None
    play._result = result
    return play


def _start(move: tuple[int, int]) -> int:
    return move[0]


def _steps(board: int, die: int, opp: bytes, limit: int = 25) -> list[tuple[int, int]]:
    """Every legal single step (start, end) of ``die``, from starts <= ``limit``."""
    if board >> 200:  # on the bar: enter first
        end = 25 - die
        return [(25, end)] if opp[end] < 2 else []
    highest = (board.bit_length() - 1) >> 3
    raw = board.to_bytes(26, "little")
    top = min(highest, limit)
    if highest > 6:  # not every checker home: no bearing off
        return [(s, s - die) for s in range(top, die, -1) if raw[s] and opp[s - die] < 2]
    out = []
    for s in range(top, 0, -1):
        if raw[s]:
            end = s - die
            if end > 0:
                if opp[end] < 2:
                    out.append((s, end))
            elif end == 0 or s == highest:
                out.append((s, 0))
    return out


def _mixed_plays(board: int, player: tuple[int, ...], opp: bytes, high: int, low: int) -> dict:
    """Plays of a non-double, as {key: (start, end, start, end)}."""
    if player[BAR]:
        return _mixed_general(board, opp, high, low)
    if sum(player[7:25]) < 2:
        return _mixed_bearing(board, player, opp, high, low)
    # Fast path: nothing on the bar and two or more checkers outside home, so no
    # bearing off this turn; landings depend only on the opponent's points, and
    # two different checkers can move in either order.
    dh, dl = _DELTA[high], _DELTA[low]
    occupied = [p for p in range(24, 0, -1) if player[p]]
    firsts = [s for s in occupied if s > high and opp[s - high] < 2]
    seconds = [s for s in occupied if s > low and opp[s - low] < 2]
    found: dict[int, tuple] = {}
    for s1 in firsts:
        e1 = s1 - high
        k1 = board + dh[s1]
        if opp[e1] == 1:
            k1 |= _HIT[e1]
        alone = player[s1] == 1
        for s2 in seconds:
            if s2 == s1 and alone:
                continue
            e2 = s2 - low
            key = k1 + dl[s2]
            if opp[e2] == 1:
                key |= _HIT[e2]
            if key not in found:
                found[key] = (s1, e1, s2, e2)
        # the same checker goes on (when e1 held a checker, a second one did above)
        if not player[e1] and e1 > low and opp[e1 - low] < 2:
            e2 = e1 - low
            key = k1 + dl[e1]
            if opp[e2] == 1:
                key |= _HIT[e2]
            if key not in found:
                found[key] = (s1, e1, e1, e2)
    for s1 in seconds:  # one checker, the low die first
        e1 = s1 - low
        if e1 > high and not player[e1] and opp[e1 - high] < 2:
            e2 = e1 - high
            key = board + dl[s1] + dh[e1]
            if opp[e1] == 1:
                key |= _HIT[e1]
            if opp[e2] == 1:
                key |= _HIT[e2]
            if key not in found:
                found[key] = (s1, e1, e1, e2)
    if found:
        return found
    # Only one die can be played: the larger one if it can.
    for die, starts in ((high, firsts), (low, seconds)):
        for s1 in starts:
            e1 = s1 - die
            key = board + _DELTA[die][s1]
            if opp[e1] == 1:
                key |= _HIT[e1]
            found[key] = (s1, e1)
        if found:
            break
    return found


def _step_table(player: tuple[int, ...], opp: bytes, die: int, other: int, top: int) -> list[tuple]:
    """The points a checker may leave with ``die`` in a play of two steps
    (reachable now or after the ``other`` die): (start, end, byte shift,
    board change, hit mark, mask of points that must then be empty: a
    bear-off needs every checker home, and with a larger die none above)."""
    delta = _DELTA[die]
    table = []
    for s in range(top, 0, -1):
        if player[s] or (s + other < 25 and player[s + other]):
            e = s - die
            if e > 0:
                if opp[e] < 2:
                    table.append((s, e, _SHIFT[s], delta[s], _HIT[e] if opp[e] == 1 else 0, 0))
            else:
                table.append((s, 0, _SHIFT[s], delta[s], 0, _ABOVE[6] if e == 0 else _ABOVE[s]))
    return table


def _mixed_bearing(board: int, player: tuple[int, ...], opp: bytes, high: int, low: int) -> dict:
    """Plays of a non-double with at most one checker outside home (bearing off
    possible): both orders of the dice over precomputed step tables."""
    top = (board.bit_length() - 1) >> 3  # the highest occupied point
    highs = _step_table(player, opp, high, low, top)
    lows = _step_table(player, opp, low, high, top)
    found: dict[int, tuple] = {}
    for firsts, seconds in ((highs, lows), (lows, highs)):
        for s1, e1, sh, d, h, c in firsts:
            if not (board >> sh) & 255 or board & c:
                continue
            k1 = board + d | h
            for s2, e2, sh, d, h, c in seconds:
                if (k1 >> sh) & 255 and not k1 & c:
                    key = k1 + d | h
                    if key not in found:
                        found[key] = (s1, e1, s2, e2)
    if found:
        return found
    for table in (highs, lows):  # one die only: the larger if it can
        for s1, e1, sh, d, h, c in table:
            if (board >> sh) & 255 and not board & c:
                found[board + d | h] = (s1, e1)
        if found:
            break
    return found


def _mixed_general(board: int, opp: bytes, high: int, low: int) -> dict:
    """Plays of a non-double with checkers on the bar or bearing off possible:
    both orders of the dice, step by step."""
    found: dict[int, tuple] = {}
    singles: tuple[dict, dict] = ({}, {})
    for d1, d2, single in ((high, low, singles[0]), (low, high, singles[1])):
        delta1, delta2 = _DELTA[d1], _DELTA[d2]
        for s1, e1 in _steps(board, d1, opp):
            b1 = board + delta1[s1]
            h1 = _HIT[e1] if e1 and opp[e1] == 1 else 0
            seconds = _steps(b1, d2, opp)
            for s2, e2 in seconds:
                key = b1 + delta2[s2] | h1
                if e2 and opp[e2] == 1:
                    key |= _HIT[e2]
                if key not in found:
                    found[key] = (s1, e1, s2, e2)
            if not seconds and not found:
                single.setdefault(b1 | h1, (s1, e1))
    return found or singles[0] or singles[1]


def _double_plays(board: int, player: tuple[int, ...], opp: bytes, die: int) -> dict:
    """Plays of a double, as {key: (start, end, ...)}."""
    if player[BAR]:
        return _double_general(board, opp, die)
    # A play is the multiset of its four starts; taking the starts in
    # non-increasing order finds each multiset once, and that order is always
    # playable when any order is (moving the back checkers first only opens
    # bear-offs), so four nested loops over the possible starts find every play.
    delta = _DELTA[die]
    raw = bytes(player) + bytes(3 * die)  # padded: raw[s + k * die] is safe
    bearing = sum(player[7:25]) < 4  # can every checker be home before the last step?
    # the points a checker may leave: (start, end, byte shift, board change,
    # hit mark, mask of points that must then be empty: a bear-off needs every
    # checker home, and with a larger die no checker above the start)
    moves = []
    top = (board.bit_length() - 1) >> 3  # the highest occupied point
    for s in range(top, 0 if bearing else die, -1):
        if raw[s] or raw[s + die] or raw[s + 2 * die] or raw[s + 3 * die]:
            e = s - die
            if e > 0:
                if opp[e] < 2:
                    moves.append((s, e, _SHIFT[s], delta[s], _HIT[e] if opp[e] == 1 else 0, 0))
            else:
                moves.append((s, 0, _SHIFT[s], delta[s], 0, _ABOVE[6] if e == 0 else _ABOVE[s]))
    found: dict[int, tuple] = {}
    n = len(moves)
    for i1 in range(n):
        s1, e1, sh, d, h, c = moves[i1]
        if not (board >> sh) & 255 or board & c:
            continue
        k1 = board + d | h
        for i2 in range(i1, n):
            s2, e2, sh, d, h, c = moves[i2]
            if not (k1 >> sh) & 255 or k1 & c:
                continue
            k2 = k1 + d | h
            for i3 in range(i2, n):
                s3, e3, sh, d, h, c = moves[i3]
                if not (k2 >> sh) & 255 or k2 & c:
                    continue
                k3 = k2 + d | h
                for i4 in range(i3, n):
                    s4, e4, sh, d, h, c = moves[i4]
                    if (k3 >> sh) & 255 and not k3 & c:
                        found[k3 + d | h] = (s1, e1, s2, e2, s3, e3, s4, e4)
    return found or _double_general(board, opp, die)  # fewer than four steps


def _double_general(board: int, opp: bytes, die: int) -> dict:
    """Plays of a double step by step, for the bar, bearing off and plays of
    fewer than four steps. Starts are taken in non-increasing order, as above."""
    delta = _DELTA[die]
    prefix: tuple = ()
    hits = 0
    bar = board >> 200
    if bar:
        end = 25 - die
        if opp[end] >= 2:
            return {}
        entering = min(bar, 4)
        board += entering * delta[BAR]
        prefix = (BAR, end) * entering
        if opp[end] == 1:
            hits = _HIT[end]
        if entering == 4 or bar > 4:
            return {board | hits: prefix}
    by_count: list[dict] = [{}, {}, {}, {}, {}]
    best = len(prefix) // 2
    room = 4 - best

    def walk(b: int, h: int, top: int, moves: tuple, left: int) -> None:
        nonlocal best
        stepped = False
        if left:
            for s, e in _steps(b, die, opp, top):
                stepped = True
                walk(b + delta[s], h | _HIT[e] if e and opp[e] == 1 else h, s, moves + (s, e), left - 1)
        if not stepped:
            n = len(moves) // 2
            if n >= best:
                best = n
                by_count[n].setdefault(b | h, moves)

    walk(board, hits, 25, prefix, room)
    return by_count[best] if best else {}


class _StepObjects(dict):
    """Shared Step objects (they are immutable), keyed by start << 6 | end << 1 | hit."""

    def __missing__(self, key: int) -> Step:
        step = self[key] = Step(key >> 6, (key >> 1) & 31, bool(key & 1))
        return step


_STEP_OBJECTS = _StepObjects()


def _make_steps(moves: tuple, hits: int) -> tuple[Step, ...]:
    """Step objects from raw pairs; the first landing on a hit point is the hit."""
    table = _STEP_OBJECTS
    if not hits:
        return tuple([table[s << 6 | e << 1] for s, e in zip(moves[::2], moves[1::2])])
    out = []
    for s, e in zip(moves[::2], moves[1::2]):
        if e and (hits >> e) & 1:
            hits ^= 1 << e  # only the first landing on the point hits
            out.append(table[s << 6 | e << 1 | 1])
        else:
            out.append(table[s << 6 | e << 1])
    return tuple(out)


def _hit_opponent(opponent: tuple[int, ...], hits: int) -> tuple[int, ...]:
    if not hits:
        return opponent
    side = list(opponent)
    for p in range(1, 25):
        if (hits >> p) & 1:
            side[25 - p] -= 1
            side[BAR] += 1
    return tuple(side)


def _hit_opponent_int(opponent: tuple[int, ...], hits: int) -> int:
    return int.from_bytes(bytes(_hit_opponent(opponent, hits)), "little")


def _make_result(key: int, position: Position) -> Position:
    player = tuple((key & _BOARD_MASK).to_bytes(26, "little"))
    return Position(player, _hit_opponent(position.opponent, key >> _BOARD_BITS))
