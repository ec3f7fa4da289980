"""The core model: positions, dice, plays and the legal-play generator.

A position is seen from the side of the player on roll. Each side's checkers
are a tuple of 26 counts indexed by that side's own point numbers:
``[0]`` borne off, ``[1]``..``[24]`` the points from its home, ``[25]`` its
bar. The opponent's point ``p`` is the player's point ``25 - p``.

The generator works on an integer image of the player's side: byte ``p`` of
the integer is the count on point ``p``. A step is then one subtraction and
one addition, "every checker home" is ``board >> 56 == 0`` and the highest
occupied point is a ``bit_length``; this keeps it fast in pure Python.
"""
from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Iterable, Sequence

from bgcli.errors import InvalidDiceError, InvalidPositionError

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
            if len(side) != 26 or min(side) < 0:
                return f"{name} has a negative or missing count"
            if sum(side) != CHECKERS:
                return f"{name} has {sum(side[1:])} checkers on the board and bar and {side[0]} off, not 15 in all"
        for p in range(1, 25):
            if self.player[p] and self.opponent[25 - p]:
                return f"point {p} is held by both sides"
        return ""

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
    bits = 0
    n = 0
    for side in (position.opponent, position.player):
        for p in range(1, 26):
            count = side[p]
            bits |= ((1 << count) - 1) << n
            n += count + 1
    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]


_B64 = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def parse_position_id(text: str) -> Position:
    pid = text.strip()
    if len(pid) != 14 or not set(pid) <= _B64:
        raise InvalidPositionError(f"invalid position id {text!r}: expected 14 base64 characters")
    try:
        bits = int.from_bytes(base64.b64decode(pid + "=="), "little")
    except binascii.Error as exc:  # pragma: no cover - guarded by the alphabet check
        raise InvalidPositionError(f"invalid position id {text!r}: {exc}") from None
    sides: list[list[int]] = [[0] * 26, [0] * 26]
    slot = 0
    count = 0
    for i in range(80):
        if slot == 50:
            if bits >> i:
                raise InvalidPositionError(f"invalid position id {text!r}: bits left after the 50 slots")
            break
        if (bits >> i) & 1:
            count += 1
        else:
            sides[slot // 25][slot % 25 + 1] = count
            slot += 1
            count = 0
    if slot != 50:
        raise InvalidPositionError(f"invalid position id {text!r}: it does not describe 50 slots")
    opponent, player = sides
    for name, side in (("opponent", opponent), ("player on roll", player)):
        if sum(side) > CHECKERS:
            raise InvalidPositionError(f"invalid position id {text!r}: {name} has {sum(side)} checkers")
        side[OFF] = CHECKERS - sum(side)
    position = Position(tuple(player), tuple(opponent))
    problem = position.problem()
    if problem:
        raise InvalidPositionError(f"invalid position id {text!r}: {problem}")
    return position


# --- Dice -------------------------------------------------------------------

Dice = tuple[int, int]


def parse_dice(text: str | Sequence[int]) -> Dice:
    """Read dice written ``31``, ``3-1``, ``3 1``, ``3,1`` or given as numbers;
    the larger die comes first."""
    if isinstance(text, str):
        digits = [c for c in text.strip() if not c in " -,/x"]
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


@dataclass(frozen=True, slots=True)
class Play:
    """A legal play: the steps in the order they can be played, and the
    position it produces, still seen from the side of the player who moved."""

    steps: tuple[Step, ...]
    result: Position

    @property
    def after(self) -> Position:
        """The position after the play with the opponent on roll."""
        return self.result.swap()

    def result_id(self) -> str:
        return position_id(self.after)

    def __str__(self) -> str:
        from bgcli.notation import play_text
        return play_text(self)


def _board_int(side: Sequence[int]) -> int:
    return int.from_bytes(bytes(side), "little")


def _masks(opponent: Sequence[int]) -> tuple[int, int]:
    """Bit p set where the player may not land (blocked) / where a landing hits."""
    blocked = blots = 0
    for p in range(1, 25):
        n = opponent[25 - p]
        if n >= 2:
            blocked |= 1 << p
        elif n == 1:
            blots |= 1 << p
    return blocked, blots


def _step_targets(board: int, blocked: int, die: int, sources: Iterable[int]):
    """Yield (start, end) for every legal single step of ``die`` on ``board``."""
    if board >> _BAR_SHIFT:
        end = 25 - die
        if not (blocked >> end) & 1:
            yield 25, end
        return
    home = board >> _HOME_SHIFT == 0
    for start in sources:
        if not (board >> (start << 3)) & 255:
            continue
        end = start - die
        if end > 0:
            if not (blocked >> end) & 1:
                yield start, end
        elif home and (end == 0 or board >> ((start + 1) << 3) == 0):
            yield start, 0


def _occupied(board: int) -> list[int]:
    raw = board.to_bytes(26, "little")
    return [p for p in range(25, 0, -1) if raw[p]]


def legal_plays(position: Position, dice: Sequence[int]) -> list[Play]:
    """Every legal play of ``dice`` in ``position``, one per distinct result.

    gnubg's rule: use as many dice as possible and, among those plays, the
    largest total of pips (so the larger die when only one can be played).
    An empty list means the player cannot move.
    """
    high, low = max(dice), min(dice)
    board = _board_int(position.player)
    blocked, blots = _masks(position.opponent)
    found: dict[int, tuple[tuple[int, int], ...]] = {}
    if high == low:
        used = _double_plays(board, blocked, blots, high, found)
    else:
        used = _mixed_plays(board, blocked, blots, high, low, found)
    return [_make_play(position, key, steps, blots) for key, steps in found.items()] if used else []


def _mixed_plays(board, blocked, blots, high, low, found) -> int:
    """Fill ``found`` for a non-double; return how many dice the plays use."""
    sources = _occupied(board)
    singles_high: dict[int, tuple] = {}
    singles_low: dict[int, tuple] = {}
    for first, second, singles in ((high, low, singles_high), (low, high, singles_low)):
        for s1, e1 in _step_targets(board, blocked, first, sources):
            after = board - (1 << (s1 << 3)) + (1 << (e1 << 3))
            hit1 = (blots >> e1) & 1 and e1
            hits = (1 << e1) if hit1 else 0
            key1 = after | (hits << 216)
            more = False
            nexts = sources if e1 in sources or e1 == 0 else sources + [e1]
            for s2, e2 in _step_targets(after, blocked, second, nexts):
                more = True
                hits2 = hits | ((1 << e2) if (blots >> e2) & 1 and e2 else 0)
                key = after - (1 << (s2 << 3)) + (1 << (e2 << 3)) | (hits2 << 216)
                if key not in found:
                    found[key] = ((s1, e1), (s2, e2))
            if not more and not found and key1 not in singles:
                singles[key1] = ((s1, e1),)
    if found:
        return 2
    if singles_high:
        found.update(singles_high)
        return 1
    if singles_low:
        found.update(singles_low)
        return 1
    return 0


def _double_plays(board, blocked, blots, die, found) -> int:
    """Fill ``found`` for a double; return how many steps the plays use.

    Steps are generated with non-increasing start points: any legal sequence
    can be reordered that way (moving the back checkers first only opens
    bear-offs), so no order is missed and few are repeated.
    """
    best = [0]
    by_count: list[dict] = [{}, {}, {}, {}, {}]

    def walk(b, hits, top, steps, sources):
        n = len(steps)
        moved = False
        if n < 4:
            for s, e in _step_targets(b, blocked, die, [p for p in sources if p <= top]):
                moved = True
                nb = b - (1 << (s << 3)) + (1 << (e << 3))
                nh = hits | (1 << e) if e and (blots >> e) & 1 else hits
                ns = sources if e in sources or e == 0 else sorted(sources + [e], reverse=True)
                walk(nb, nh, s, steps + ((s, e),), ns)
        if not moved and n >= best[0]:
            best[0] = n
            key = b | (hits << 216)
            level = by_count[n]
            if key not in level:
                level[key] = steps

    walk(board, 0, 25, (), _occupied(board))
    if best[0]:
        found.update(by_count[best[0]])
    return best[0]


def _make_play(position: Position, key: int, steps: tuple, blots: int) -> Play:
    board = key & ((1 << 208) - 1)
    hits = key >> 216
    player = tuple(board.to_bytes(26, "little"))
    opponent = position.opponent
    if hits:
        opp = list(opponent)
        for p in range(1, 25):
            if (hits >> p) & 1:
                opp[25 - p] -= 1
                opp[BAR] += 1
        opponent = tuple(opp)
    hit_seen = 0
    out = []
    for s, e in steps:
        hit = bool(e and (hits >> e) & 1 and not (hit_seen >> e) & 1)
        if hit:
            hit_seen |= 1 << e
        out.append(Step(s, e, hit))
    return Play(tuple(out), Position(player, opponent))
