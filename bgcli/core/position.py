"""Positions, dice and the Position ID: what a play starts from.

A position is seen from the side of the player on roll. Each side's checkers
are a tuple of 26 counts indexed by that side's own point numbers:
``[0]`` borne off, ``[1]``..``[24]`` the points from its home, ``[25]`` its
bar. The opponent's point ``p`` is the player's point ``25 - p`` (:func:`other_side`, the one
place that numbers a point from the other side).

The rest of the core builds on this module: :mod:`bgcli.core.generator`
lists the legal plays, :mod:`bgcli.core.judge` decides a recorded play.
"""
from __future__ import annotations

import binascii
import os
from dataclasses import dataclass
from typing import Any, Protocol, Sequence, TypeVar

from bgcli.errors import InvalidDiceError, InvalidPositionError



def _load_speedups() -> Any:
    """The C accelerator (bgcli/core/_speedups.c, built by ``pip install .``
    where a C compiler works, see setup.py), or None: not built, BGCLI_PURE=1
    in the environment, or built in place from an older _speedups.c than the
    one beside it (an editable install edited since: ``speedups_stale`` is
    then set, and ``bgcli --version`` says so). It mirrors parse_position_id
    here and the generator's legal_keys and query_ids and batch.MovesWriter.line,
    exactly; the Python code is the reference."""
    global speedups_stale
    if os.environ.get("BGCLI_PURE", "").strip().lower() not in ("", "0", "no", "false"):
        return None
    try:
        from bgcli.core import _speedups
    except ImportError:
        return None
    # a wheel holds no C source; a source tree does, and its module may be older than it
    source = os.path.join(os.path.dirname(_speedups.__file__ or ""), "_speedups.c")
    if os.path.exists(source):
        with open(source, "rb") as file:
            digest = format(binascii.crc32(file.read()), "08x")   # as setup.py's source_digest
        if getattr(_speedups, "source_digest", "") != digest:
            speedups_stale = True
            return None
    return _speedups


speedups_stale = False  # the accelerator beside its source was built from another version of it
accelerator = _load_speedups()  # read once, at import

# --- The geometry of the board: every module asks these (tests/test_one_owner.py holds them to it) ---
Point = int
OFF: Point = 0
BAR: Point = 25
CHECKERS = 15
POINTS = range(1, 25)            # a side's 24 points, from its home (1) to the other side's (24)
HOME: Point = 6                  # a side's home board is its points 1..HOME
HOME_BOARD = range(1, HOME + 1)
HOME_BOARD_SLOTS = slice(1, HOME + 1)     # the same points as a slice of a side's slots: side[HOME_BOARD_SLOTS]
OUTSIDE_HOME = slice(HOME + 1, BAR + 1)   # a side's slots outside its home board (points 7..24, its bar): any(side[OUTSIDE_HOME])


def other_side(point: Point) -> Point:
    """The same point numbered from the other side's home: the player's
    point p is the opponent's point 25 - p. On 26 slots the two ends change
    places too (slot 0 and slot 25), as on a board of 26 numbers that keeps
    one side's bar in slot 0 and the other's in 25 (Position.board26).
    Its own inverse: ``other_side(other_side(p)) == p``."""
    return 25 - point


# other_side of each slot 0..25, for the hot loops (an index costs less than a call)
OTHER_SIDE: tuple[Point, ...] = tuple(other_side(p) for p in range(26))


def from_other_side(slots: Sequence[int]) -> tuple[int, ...]:
    """A side's 26 slots (or a board of 26 numbers) numbered from the other
    side: ``from_other_side(slots)[other_side(p)] == slots[p]``."""
    return tuple(slots[::-1])


def in_home(point: Point) -> bool:
    """Whether a side's ``point`` (0 off .. 25 its bar) is in its home board
    or borne off: 6 or lower."""
    return point <= HOME

# The base64 digits of the Position ID and the Match ID (standard alphabet), as a set and as a regular
# expression's class; and the Position ID's length (its 80 bits, six to a character). Every expression that
# finds an ID in text is built from these (tests/test_one_owner.py holds the grammar's terminals to them).
BASE64_DIGITS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
BASE64_CLASS = "[A-Za-z0-9+/]"
ID_LENGTH = 14
ID_PATTERN = f"{BASE64_CLASS}{{{ID_LENGTH}}}"   # a Position ID's shape: 14 base64 digits

# A side at the start of the standard game (the variants' are core.rules.Variation's)
START_SIDE = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


class Opening(Protocol):
    """What Position.start asks of the variant played (core.rules.Variation,
    which owns the openings; it sits above this module)."""

    @property
    def opening(self) -> tuple[int, ...]: ...


def pip_count(side: Sequence[int]) -> int:
    """The pips one side needs to bear off: the sum of point times count
    over a side's 26 slots (borne off 0, the bar 25)."""
    return sum(point * count for point, count in enumerate(side))


_Class = TypeVar("_Class", bound=type)


def interpreted(cls: _Class) -> _Class:
    """A class decorator that changes nothing. It is here for the compiled
    build (mypyc, see setup.py): a class with a decorator mypyc does not know
    stays a plain Python class there, so the hot paths may still make its
    instances with ``object.__new__``, which a compiled class refuses."""
    return cls


@interpreted
@dataclass(frozen=True, slots=True)
class Position:
    """Both sides' checkers, from the side of the player on roll."""

    player: tuple[int, ...]
    opponent: tuple[int, ...]

    @classmethod
    def start(cls, variation: Opening | None = None) -> "Position":
        """The opening position: the standard game's, or that of the variant
        ``variation`` (``Rules.variation``, which says what it starts from)."""
        side = START_SIDE if variation is None else variation.opening
        return cls(side, side)

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

    def __str__(self) -> str:
        """The canonical text of a position: its GNU Backgammon Position ID."""
        return position_id(self)

    def _repr_svg_(self) -> str:
        """The board, drawn in a notebook (bgcli.notebook)."""
        from bgcli.notebook import board_svg

        return board_svg(self)

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
        point = shared_point(self.player, self.opponent)
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
        return pip_count(self.player), pip_count(self.opponent)

    def is_over(self) -> bool:
        """Whether a side has borne off all its checkers."""
        return self.player[OFF] == CHECKERS or self.opponent[OFF] == CHECKERS

    def board26(self) -> list[int]:
        """A plain board of 26 numbers as the player on roll sees it: index 0
        the opponent's bar, 1..24 the points (positive = the player's checkers,
        negative = the opponent's), 25 the player's bar."""
        out = [0] * 26
        out[other_side(BAR)] = -self.opponent[BAR]
        out[BAR] = self.player[BAR]
        for p in POINTS:
            out[p] = self.player[p] - self.opponent[other_side(p)]
        return out

    @classmethod
    def from_board26(cls, numbers: Sequence[int]) -> "Position":
        if len(numbers) != 26:
            raise InvalidPositionError(f"invalid board {' '.join(map(str, numbers))!r}: needs 26 numbers, got {len(numbers)}")
        player, opponent = [0] * 26, [0] * 26
        player[BAR] = abs(numbers[BAR])
        opponent[BAR] = abs(numbers[other_side(BAR)])
        for p in POINTS:
            if numbers[p] > 0:
                player[p] = numbers[p]
            elif numbers[p] < 0:
                opponent[other_side(p)] = -numbers[p]
        for side in (player, opponent):
            side[OFF] = CHECKERS - sum(side)
        position = cls(tuple(player), tuple(opponent))
        problem = position.problem()
        if problem:
            raise InvalidPositionError(f"invalid board {' '.join(map(str, numbers))!r}: {problem}")
        return position


def back_point(side: Sequence[int]) -> Point:
    """A side's checker furthest from home, as its own point (BAR when one is
    on the bar); OFF when every checker is borne off."""
    for point in range(BAR, OFF, -1):
        if side[point]:
            return point
    return OFF


def is_contact(position: Position) -> bool:
    """Whether some checker still has to pass an opponent checker: both
    sides have a checker on the board (or the bar) and the player's furthest
    one stands level with or beyond the opponent's furthest, seen from the
    player's side. Every module asks this (tests/test_one_owner.py)."""
    back, other = back_point(position.player), back_point(position.opponent)
    return bool(back and other) and back >= OTHER_SIDE[other]


_NONZERO = bytes([0] + [1] * 255)


def shared_point(player: Sequence[int], opponent: Sequence[int]) -> int:
    """A point (1..24) held by both sides, or 0. Counts must be 0..255."""
    # one flag byte per point, the opponent's side reversed onto ours: a common
    # nonzero byte is a point held by both
    mine = bytes(player[1:25]).translate(_NONZERO)
    theirs = bytes(from_other_side(opponent)[1:25]).translate(_NONZERO)
    if int.from_bytes(mine, "little") & int.from_bytes(theirs, "little"):
        return next(p for p in POINTS if player[p] and opponent[other_side(p)])
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
    return id_of_halves(side_bits(int.from_bytes(bytes(position.opponent), "little")),
                        side_bits(int.from_bytes(bytes(position.player), "little")))


def id_of_halves(opponent: tuple[int, int], player: tuple[int, int]) -> str:
    """The Position ID of two sides' halves (:func:`side_bits`: bits and their length):
    the opponent's bits first, then the player's."""
    return id_text(opponent[0] | player[0] << opponent[1])


def id_text(bits: int) -> str:
    """The 14 characters of a Position ID's 80 bits: ten bytes, least significant first, in
    base64 without its two characters of padding. Every maker of an ID ends here (the batch
    query's and the C accelerator's, which make many at once, are held to it by their tests)."""
    return binascii.b2a_base64(bits.to_bytes(10, "little"), newline=False)[:ID_LENGTH].decode("ascii")


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


CHUNK_BITS = _ChunkBits()
CHUNK_MASK = (1 << 40) - 1


def side_bits(side: int) -> tuple[int, int]:
    """Bits and bit length of one side's 25 slots (points 1..24, bar), given
    the side as an int whose byte p is the count on point p."""
    chunks = CHUNK_BITS
    v = side >> 8
    b0, n0 = chunks[v & CHUNK_MASK]
    v >>= 40
    b1, n1 = chunks[v & CHUNK_MASK]
    v >>= 40
    b2, n2 = chunks[v & CHUNK_MASK]
    v >>= 40
    b3, n3 = chunks[v & CHUNK_MASK]
    b4, n4 = chunks[v >> 40]
    return b0 | (b1 | (b2 | (b3 | b4 << n3) << n2) << n1) << n0, n0 + n1 + n2 + n3 + n4


# The C accelerator's parse_id is a fenced mirror of _decode_position_id: tests/test_speedups.py::test_parse_id_reads_what_the_python_code_reads
def parse_position_id(text: str) -> Position:
    """The position of a Position ID (``_decode_position_id``; in C when
    built, a text it does not take read again by the Python code, which
    words the error)."""
    if accelerator is not None and text.__class__ is str:
        sides = accelerator.parse_id(text)
        if sides is not None:
            return trusted_position(*sides)
    return _decode_position_id(text)


def _decode_position_id(text: str) -> Position:
    try:
        return _read_position_id(text)
    except InvalidPositionError as exc:
        raise InvalidPositionError(f"{exc}{_case_hint(text.strip())}") from None


def _case_hint(pid: str) -> str:
    """A hint for a Position ID whose letters' case is wrong (caps lock, or
    copied in capitals): its letters are case-sensitive base64."""
    if len(pid) != ID_LENGTH or not BASE64_DIGITS.issuperset(pid) or pid.swapcase() == pid:
        return ""
    try:
        _read_position_id(pid.swapcase())
    except InvalidPositionError:
        if (pid.isupper() or pid.islower()) and sum(c.isalpha() for c in pid) >= 6:   # a few letters, all one case
            return f" (a Position ID's letters are case-sensitive: this one is all {'upper' if pid.isupper() else 'lower'} case)"
        return ""
    return f" (its letters' case looks swapped, as with caps lock on: {pid.swapcase()} is a position)"


def _read_position_id(text: str) -> Position:
    pid = text.strip()
    if len(pid) != ID_LENGTH or not BASE64_DIGITS.issuperset(pid):
        raise InvalidPositionError(f"invalid position id {text!r}: expected {ID_LENGTH} base64 characters")
    bits = int.from_bytes(binascii.a2b_base64(pid + "=="), "little")
    # Each slot is a run of 1 bits closed by a 0, from the lowest bit up.
    runs = format(bits, "080b")[::-1].split("0")
    # In the words of the board, not of the bits (a newcomer's typo met "it does not describe 50 slots"):
    # fewer than 50 slot ends in 80 bits is more than 30 checkers; a 1 after the 50th is a checker past them.
    if len(runs) < 51:
        raise InvalidPositionError(f"invalid position id {text!r}: it holds {bin(bits).count('1')} checkers, "
                                   f"more than {2 * CHECKERS} (15 a side)")
    if any(runs[50:]):
        raise InvalidPositionError(f"invalid position id {text!r}: it holds checkers after its 50 points "
                                   "(25 a side), where no Position ID has any")
    counts = list(map(len, runs[:50]))
    theirs, mine = sum(counts[:25]), sum(counts[25:])
    if theirs > CHECKERS or mine > CHECKERS:
        name, n = ("opponent", theirs) if theirs > CHECKERS else ("player on roll", mine)
        raise InvalidPositionError(f"invalid position id {text!r}: the {name} has {n} checkers, more than {CHECKERS}")
    player = (CHECKERS - mine, *counts[25:])
    opponent = (CHECKERS - theirs, *counts[:25])
    point = shared_point(player, opponent)
    if point:
        raise InvalidPositionError(f"invalid position id {text!r}: point {point} is held by both sides")
    return Position(player, opponent)


# --- Dice -------------------------------------------------------------------

Dice = tuple[int, int]

FACES = range(1, 7)   # a die's faces: every loop over a die's numbers and every test of one asks this

# The 36 throws of two dice, first die and second (either may be the larger): the order a rollout's
# stratified first rolls and the dice report's table of written orders follow
ORDERED_ROLLS: tuple[Dice, ...] = tuple((a, b) for a in FACES for b in FACES)
ALL_THROWS = len(ORDERED_ROLLS)   # 36: a chance counted in throws is out of this

# every roll in either order -> (high, low)
ROLLS: dict[Any, Dice] = {(a, b): (max(a, b), min(a, b)) for a, b in ORDERED_ROLLS}

# The 21 kinds of roll, high die first, in the two orders bgcli's tables use: 11, 21, 22, 31 ... 66
# (the bear-off tables, the rollout, the rating's luck, the dice report) and 66, 65 ... 11 (the shot
# counts, largest first). The orders are fixed: a table or a seeded rollout depends on them.
KINDS_OF_ROLL: tuple[Dice, ...] = tuple((high, low) for high in FACES for low in range(1, high + 1))
KINDS_OF_ROLL_LARGEST_FIRST: tuple[Dice, ...] = tuple(sorted(KINDS_OF_ROLL, reverse=True))


def throws(roll: Sequence[int]) -> int:
    """How many of the 36 throws of two dice give ``roll``: a double one, any other roll two (either
    die first). Every chance, count and weight of a roll asks this."""
    return 1 if roll[0] == roll[1] else 2


def checked_dice(dice: Any) -> Dice:
    """Two dice given as numbers (either order), the larger first; the one
    place that refuses anything else (InvalidDiceError)."""
    try:
        high, low = dice
        if type(high) is int and type(low) is int:  # not bool, not 2.0
            return ROLLS[high, low]
    except (TypeError, ValueError, KeyError):
        pass
    raise InvalidDiceError(f"invalid dice {list(dice) if isinstance(dice, (list, tuple)) else dice!r}: "
                           "expected two numbers from 1 to 6")


def roll_dice(dice: Sequence[int]) -> list[int]:
    """The dice a roll gives to play: four of a double, else the two."""
    high, low = dice
    return [high] * 4 if high == low else [high, low]


_new = object.__new__
_SET_PLAYER, _SET_OPPONENT = vars(Position)["player"].__set__, vars(Position)["opponent"].__set__


def trusted_position(player: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
    """``Position(player, opponent)`` at half the cost, for the core's hot
    paths with sides already known to be valid: the frozen dataclass's
    __init__ sets each field through ``object.__setattr__``; this sets the
    two slots directly."""
    position = _new(Position)
    _SET_PLAYER(position, player)
    _SET_OPPONENT(position, opponent)
    return position
