"""The legal-play generator: every legal play of a roll, fast, in pure Python.

The generator works on an integer image of the mover's side: byte ``p`` of
the integer is the count on point ``p``. A step is one addition of a
precomputed difference, "every checker home" is a mask test and the highest
occupied point is a ``bit_length``. Each kind of roll has its own path:
non-doubles away from the bar and the bear-off need no order of the dice
(two checkers move independently), doubles are four nested loops over the
possible starts in non-increasing order, and the bar falls back to a plain
step-by-step search. Plays are built lazily, and a play's result Position ID
is written straight from the integer.

It is the one statement of the rules of moving: :func:`step_refusal`
says whether one checker may make one step now by asking ``_steps``, the
generator's own single steps, and names the fact that refuses it; the judge
(:class:`bgcli.core.judge.Board`) only words that. tests/test_legal.py
checks the generator against a slow reference written from the rules and
against gnubg's own lists; tests/test_legality_owner.py checks the judge's
verdicts against the generator's.

The compiled build (BGCLI_COMPILE=1, see setup.py) has the same search in C,
bgcli/core/_speedups.c, which ``legal_keys`` and ``query_ids`` use when it is
there: a change to a path here (``_generate_keys`` and what it calls, its
loop order included, which decides each play's raw pairs and the order of
the plays) must be made there too; tests/test_speedups.py compares the two.
"""
from __future__ import annotations

import binascii
import enum
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Iterable, Sequence

from bgcli.core.position import (
    CHECKERS, CHUNK_BITS, CHUNK_MASK, BAR, HOME, ID_LENGTH, OFF, OTHER_SIDE, OUTSIDE_HOME, POINTS, Point, Position, side_bits,
    checked_dice, from_other_side, id_text, other_side, position_id, trusted_position,
)
from bgcli.core.spelling import parse_dice, point_text
from bgcli.core.position import accelerator, interpreted  # accelerator: the C accelerator, or None



# The mover's side is one integer: byte p holds the count on point p. Moving a
# checker from s by d adds _DELTA[d][s]. A play's key is the resulting board
# with one bit per hit point above the board bytes, so plays that reach the same
# position (same board, same blots hit) share a key.
BOARD_BITS = 208  # 26 bytes
_BOARD_MASK = (1 << BOARD_BITS) - 1
_SHIFT = tuple(8 * p for p in range(26))
_UNIT = tuple(1 << (8 * p) for p in range(26))
HIT = tuple(1 << (BOARD_BITS + p) for p in range(26))
_ABOVE = tuple(_BOARD_MASK ^ ((_UNIT[p] << 8) - 1) for p in range(26))  # bytes above p
_DELTA = tuple(tuple(_UNIT[max(s - d, 0)] - _UNIT[s] for s in range(26)) for d in range(7))


def side_int(side: Sequence[int]) -> int:
    """One side's 26 counts as the generator's integer (byte p = point p)."""
    return int.from_bytes(bytes(side), "little")


def play_changes(position: Position, keys: Iterable[int]) -> list[int]:
    """For each key of a play of ``position`` (``Play.key``), the change it
    makes: the mover's checkers moved and the blots hit, as one integer that
    is the same wherever the same steps are played (``Play.change``)."""
    board = side_int(position.player)
    return [key - board for key in keys]


class _LowChunkBits(dict):
    """Position ID bits of slots 1..5, keyed by a side's six low bytes (the
    borne-off count, which has no slot, then points 1..5): one mask fewer
    than ``CHUNK_BITS`` on a play's key. At most 54,264 keys (15 checkers
    in six places)."""

    def __missing__(self, key: int) -> tuple[int, int]:
        bits = self[key] = CHUNK_BITS[key >> 8]
        return bits


_LOW_CHUNK_BITS = _LowChunkBits()
_KEY_OF = attrgetter("_key")  # Play.key, read without the property
_LOW_MASK = (1 << 48) - 1
_ONE_ON_BAR = 1 << (8 * BAR)
_UNIT_OTHER_SIDE = tuple(1 << (8 * OTHER_SIDE[p]) for p in range(26))  # byte other_side(p): the side's own point


def _hit_side(side: int, hits: int) -> int:
    """A side as an int (byte p = point p) after the blots that the mover's
    ``hits`` (bit p = the mover's point p) mark went to the bar."""
    while hits:
        point = (hits & -hits).bit_length() - 1  # the mover's point: the side's other_side(point)
        side += _ONE_ON_BAR - _UNIT_OTHER_SIDE[point]
        hits &= hits - 1
    return side


# The C accelerator's query_ids is a fenced mirror of _encode_result_ids: tests/test_speedups.py::test_c_and_python_agree_on_random_positions_and_every_roll
def query_ids(position: Position, keys: Iterable[int], own: str | None = None) -> tuple[str, list[str]]:
    """``position.id()`` and the result ID of each play key (``_encode_result_ids``; in C when built)."""
    if accelerator is not None:
        return accelerator.query_ids(position.player, position.opponent, keys, own)
    return _encode_result_ids(position, keys, own)


def _encode_result_ids(position: Position, keys: Iterable[int], own: str | None = None) -> tuple[str, list[str]]:
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
    ``own``, when the caller has the position's ID already, is not made again.
    """
    opponent = int.from_bytes(bytes(position.opponent), "little")
    theirs, their_length = side_bits(opponent)
    # each of the 25 slots is its count of ones and a zero: the length says how many checkers the opponent has
    if their_length > 25 + CHECKERS or sum(position.player) - position.player[0] > CHECKERS:
        refuse_sides(position)
    blocks = []
    if own is None:
        mine = side_bits(int.from_bytes(bytes(position.player), "little"))[0]
        blocks.append((theirs | mine << their_length).to_bytes(12, "little"))
    append = blocks.append
    low, low_mask, chunks, mask = _LOW_CHUNK_BITS, _LOW_MASK, CHUNK_BITS, CHUNK_MASK
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
                hit = opponents[hits] = side_bits(_hit_side(opponent, hits))[0]
            b2, n2 = chunks[top & mask]
            b3, n3 = chunks[top >> 40 & mask]
            b4, n4 = chunks[top >> 80 & mask]
            upper = uppers[top] = b2 | (b3 | (b4 | hit << n4) << n3) << n2
        append((b0 | (b1 | upper << n1) << n0).to_bytes(12, "little"))
    # 12 bytes are 16 base64 characters: the ID's 14, then "AA" for the zero bytes
    text = binascii.b2a_base64(b"".join(blocks)).decode("ascii")
    if own is None:
        return text[:ID_LENGTH], [text[i:i + ID_LENGTH] for i in range(16, 16 * len(blocks), 16)]
    return own, [text[i:i + ID_LENGTH] for i in range(0, 16 * len(blocks), 16)]


def refuse_sides(position: Position) -> None:
    """Raise the ValueError that ``query_ids`` gives (in C and in Python, in
    the same words) for sides that are no backgammon position: a count off 0
    to 15 on a slot, then a side with more than 15 checkers on its points and
    bar (Position.problem's words). Such a side either does not fit in a
    Position ID or would make the ID of another position, so no ID is given."""
    for name, side in (("player", position.player), ("opponent", position.opponent)):
        for point, count in enumerate(side):
            if not 0 <= count <= CHECKERS:
                raise ValueError(f"{name}: count {count} on point {point}, expected 0 to {CHECKERS}")
    for name, side in (("player on roll", position.player), ("opponent", position.opponent)):
        if sum(side[1:]) > CHECKERS:
            raise ValueError(f"{name} has {sum(side[1:])} checkers, more than {CHECKERS}")


def sorted_keys(plays: Iterable[Play]) -> list[int]:
    """The keys (``Play.key``) of plays from ``legal_plays``, smallest
    first: the order bgcli lists plays in, and what ``query_ids`` takes."""
    return sorted(map(_KEY_OF, plays))


# --- Plays --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die (or, in written notation, by several)."""

    start: Point
    end: Point
    hit: bool = False

    def __str__(self) -> str:
        return f"{point_text(self.start)}/{point_text(self.end)}" + ("*" if self.hit else "")


@interpreted  # legal_plays makes Plays with object.__new__
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
            self._steps = _make_steps(self._moves, self._key >> BOARD_BITS)
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
            return (self._moves, self._key >> BOARD_BITS)
        return self.steps

    @property
    def key(self) -> int | None:
        """An integer naming the result: the mover's checkers (byte p = point
        p) and a bit above them for each blot hit (see ``play_key``); None
        for a play built by hand rather than by ``legal_plays``."""
        return self._key

    @property
    def hits(self) -> tuple[Point, ...]:
        """The points (the mover's numbers) where the play hits a blot, lowest first."""
        if self._key is None:
            return tuple(sorted(step.end for step in self.steps if step.hit))
        marks = self._key >> BOARD_BITS
        return tuple(p for p in POINTS if marks >> p & 1)

    @property
    def change(self) -> int | None:
        """What the play does as one integer: the checkers it moves and the
        blots it hits, the same wherever the same steps are played (a cheap
        key for what depends on the steps alone, such as their text); None
        for a play built by hand."""
        if self._key is None:
            return None
        return self._key - side_int(self._query[0].player)

    @property
    def after(self) -> Position:
        """The position after the play with the opponent on roll."""
        return self.result.swap()

    def result_id(self) -> str:
        """Position ID of ``after``; computed straight from the integer key."""
        key = self._key
        if key is None:
            return position_id(self.after)
        # side_bits inlined: five chunks of the mover's slots, then the hit marks
        # Fenced mirror of bgcli.core.position.side_bits and position_id (a play's result ID from its key):
        # tests/test_legal.py::test_agrees_with_reference, tests/test_legal.py::test_oracle_sample_same_result_ids
        chunks = CHUNK_BITS
        v = key >> 8
        b0, n0 = chunks[v & CHUNK_MASK]
        v >>= 40
        b1, n1 = chunks[v & CHUNK_MASK]
        v >>= 40
        b2, n2 = chunks[v & CHUNK_MASK]
        v >>= 40
        b3, n3 = chunks[v & CHUNK_MASK]
        v >>= 40
        b4 = chunks[v & CHUNK_MASK][0]
        hits = v >> 40
        cache = self._query[1]
        opponent = cache.get(hits)
        if opponent is None:
            opponent = cache[hits] = side_bits(_hit_side(side_int(self._query[0].opponent), hits))[0]
        # the mover's bits take 25 slot ends plus one bit per checker not borne off
        bits = b0 | (b1 | (b2 | (b3 | b4 << n3) << n2) << n1) << n0 | opponent << (40 - (key & 255))
        return id_text(bits)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        # typed Any: compiled (mypyc), == of two Positions would test identity, missing the dataclass's __eq__
        result: Any = self.result
        return result == other.result and self.steps == other.steps

    def __hash__(self) -> int:
        return hash((self.steps, self.result))

    def __repr__(self) -> str:
        return f"Play(steps={self.steps!r}, result={self.result!r})"

    def __str__(self) -> str:
        # the canonical notation, gnubg's (24/23 24/21, 8/5(2), 13/7*/1); bgcli.core.notation.play_text
        # writes the other styles
        return " ".join(chains_text(self.steps, point_text))


def chains_text(steps: Sequence[Step], name) -> list[str]:
    """gnubg's layout of a play's steps, each point written ``name(point)``:
    sort, merge one checker's steps, count duplicates (the one place it is
    written; bgcli.core.notation.play_text and ``str(play)`` ask it)."""
    hit_points = {s.end for s in steps if s.hit}
    ordered = sorted(((s.start, s.end) for s in steps), reverse=True)
    chains: list[list[Point] | None] = [[s, e] for s, e in ordered]
    for i, chain in enumerate(chains):
        if chain is None:
            continue
        for j in range(i + 1, len(chains)):
            other = chains[j]
            if other is not None and other[0] == chain[-1] and chain[-1] != OFF:
                chain.append(other[1])
                chains[j] = None
    # identical chains are written once with a count; a point's "*" is
    # written once, at its first appearance (gnubg: "8/2* 6/2", "8/4*(2)")
    counts: dict[tuple[Point, ...], int] = {}
    for chain in chains:
        if chain is not None:
            counts[tuple(chain)] = counts.get(tuple(chain), 0) + 1
    unmarked = set(hit_points)
    out = []
    for points, n in counts.items():
        parts = []
        for k, p in enumerate(points):
            if 0 < k < len(points) - 1 and p not in hit_points:
                continue  # a merged point is shown only where a blot was hit
            mark = ""
            if k > 0 and p in unmarked:
                mark = "*"
                unmarked.discard(p)
            parts.append(name(p) + mark)
        out.append("/".join(parts) + (f"({n})" if n > 1 else ""))
    return out


def in_written_order(steps: Sequence[Step]) -> list[Step]:
    """The steps in the order gnubg's layout writes them (``chains_text``):
    highest start first, each checker's next step after the one that brought
    it, for the styles that write every step (FIBS dashes)."""
    ordered = sorted(steps, key=lambda s: (s.start, s.end), reverse=True)
    out: list[Step] = []
    while ordered:
        step = ordered.pop(0)
        out.append(step)
        while step.end != OFF:
            following = next((s for s in ordered if s.start == step.end), None)
            if following is None:
                break
            ordered.remove(following)
            out.append(following)
            step = following
    return out


def made_play(position: Position, moves: tuple[int, ...], key: int, result: Position) -> Play:
    """A Play as legal_plays makes them (its key, its raw pairs, the query),
    with its result known: for the judge of a recorded play."""
    play = _new(Play)
    play._key = key
    play._moves = moves
    play._query = [position, {}]
    play._steps = None
    play._result = result
    return play


_new = object.__new__


# --- Generation ------------------------------------------------------------------

def legal_plays(position: Position, dice: Sequence[int]) -> list[Play]:
    """Every legal play of ``dice`` in ``position``, one per distinct result.

    gnubg's rule: use as many dice as possible and, among those plays, the
    largest total of die values (so the larger die when only one can be
    played). An empty list means the player cannot move. ``dice`` is two
    numbers in any order, or text that ``parse_dice`` reads.
    """
    found = legal_keys(position, dice)
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


# The C accelerator's legal_keys is a fenced mirror of _generate_keys: tests/test_speedups.py::test_c_and_python_agree_on_random_positions_and_every_roll
def legal_keys(position: Position, dice: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """The plays of ``legal_plays`` as the generator finds them: each play's
    key (``Play.key``) and its raw pairs (start, end, start, end, ...), the
    steps in an order they can be played; ``play_of`` makes a Play of one.
    For callers that want a few things of many plays (``bgcli moves
    --batch``) without a Play object each."""
    if accelerator is None:
        return _generate_keys(position, dice)
    high, low = parse_dice(dice) if isinstance(dice, str) else checked_dice(dice)
    return accelerator.legal_keys(position.player, position.opponent, high, low)


def _generate_keys(position: Position, dice: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """``legal_keys`` in pure Python: the reference that bgcli/core/_speedups.c mirrors, loop for loop."""
    high, low = parse_dice(dice) if isinstance(dice, str) else checked_dice(dice)
    player = position.player
    # opp[p]: the opponent's checkers on the mover's point p (1..24)
    opp = bytes(from_other_side(position.opponent))
    board = int.from_bytes(bytes(player), "little")
    if high == low:
        return _double_plays(board, player, opp, high)
    return _mixed_plays(board, player, opp, high, low)


def play_of(position: Position, key: int, moves: tuple[int, ...]) -> Play:
    """The Play of one entry of ``legal_keys(position, ...)``, as ``legal_plays`` makes it."""
    play = _new(Play)
    play._key = key
    play._moves = moves
    play._query = [position, {}]
    play._steps = play._result = None
    return play


def _steps(board: int, die: int, opp: bytes, limit: Point = BAR) -> list[tuple[int, int]]:
    """Every legal single step (start, end) of ``die``, from starts <= ``limit``."""
    if board >> 200:  # on the bar: enter first
        end = BAR - die
        return [(BAR, end)] if opp[end] < 2 else []
    highest = (board.bit_length() - 1) >> 3
    raw = board.to_bytes(26, "little")
    top = min(highest, limit)
    if highest > HOME:  # not every checker home: no bearing off
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


class Refusal(enum.Enum):
    """Why the generator does not let one checker make a step now: the fact
    the step meets (the judge, :class:`bgcli.core.judge.Board`, words it)."""

    NO_CHECKER = "no checker on the start"
    HELD = "the opponent holds the landing"
    BAR_FIRST = "a checker is on the bar"
    OUTSIDE_HOME = "checkers are outside the home board"
    HIGHER_CHECKER = "a larger die bears off while a checker is on a higher point"
    WRONG_DIE = "the die does not take the checker there"


def step_refusal(player: Sequence[int], opponent: Sequence[int], start: Point, end: Point, die: int = 0,
                 in_order: bool = True) -> Refusal | None:
    """Whether one checker of ``player`` (counts by point, 25 the bar, 0
    off) may go ``start`` -> ``end`` now with ``die`` (0: the distance):
    None when it may, else the fact that refuses it. The step is one
    ``(start, end)`` with ``0 < start <= 25`` and ``0 <= end < start``.

    With ``in_order`` the verdict is the generator's: the step is one of
    ``_steps``, the single steps its step-by-step search makes (a checker on
    the start, an open landing, the bar first, bearing off only with every
    checker home and with a larger die only from the highest point). Without
    it, only what a step needs in whatever order the steps are taken (a
    checker on the start, an open landing): to apply written steps
    mechanically, as a game goes on after an illegal play."""
    held = bool(end) and opponent[other_side(end)] >= 2
    if not in_order:
        return Refusal.NO_CHECKER if not player[start] else Refusal.HELD if held else None
    die = die or start - end
    if (start, end) in _steps(side_int(player), die, bytes(from_other_side(opponent)), start):
        return None
    # refused: the fact the step meets, first the one a player sees first
    if not player[start]:
        return Refusal.NO_CHECKER
    if held:
        return Refusal.HELD
    if start != BAR and player[BAR]:
        return Refusal.BAR_FIRST
    if end == OFF and any(player[OUTSIDE_HOME]):
        return Refusal.OUTSIDE_HOME
    if end == OFF and die > start:
        return Refusal.HIGHER_CHECKER
    return Refusal.WRONG_DIE


def _mixed_plays(board: int, player: tuple[int, ...], opp: bytes, high: int, low: int) -> dict:
    """Plays of a non-double, as {key: (start, end, start, end)}."""
    if player[BAR]:
        return _mixed_general(board, opp, high, low)
    if sum(player[OUTSIDE_HOME]) < 2:   # (none on the bar)
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
            k1 |= HIT[e1]
        alone = player[s1] == 1
        for s2 in seconds:
            if s2 == s1 and alone:
                continue
            e2 = s2 - low
            key = k1 + dl[s2]
            if opp[e2] == 1:
                key |= HIT[e2]
            if key not in found:
                found[key] = (s1, e1, s2, e2)
        # the same checker goes on (when e1 held a checker, a second one did above)
        if not player[e1] and e1 > low and opp[e1 - low] < 2:
            e2 = e1 - low
            key = k1 + dl[e1]
            if opp[e2] == 1:
                key |= HIT[e2]
            if key not in found:
                found[key] = (s1, e1, e1, e2)
    for s1 in seconds:  # one checker, the low die first
        e1 = s1 - low
        if e1 > high and not player[e1] and opp[e1 - high] < 2:
            e2 = e1 - high
            key = board + dl[s1] + dh[e1]
            if opp[e1] == 1:
                key |= HIT[e1]
            if opp[e2] == 1:
                key |= HIT[e2]
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
                key |= HIT[e1]
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
                    table.append((s, e, _SHIFT[s], delta[s], HIT[e] if opp[e] == 1 else 0, 0))
            else:
                table.append((s, 0, _SHIFT[s], delta[s], 0, _ABOVE[HOME] if e == 0 else _ABOVE[s]))
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
            h1 = HIT[e1] if e1 and opp[e1] == 1 else 0
            seconds = _steps(b1, d2, opp)
            for s2, e2 in seconds:
                key = b1 + delta2[s2] | h1
                if e2 and opp[e2] == 1:
                    key |= HIT[e2]
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
    bearing = sum(player[OUTSIDE_HOME]) < 4  # can every checker be home before the last step? (none on the bar)
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
                    moves.append((s, e, _SHIFT[s], delta[s], HIT[e] if opp[e] == 1 else 0, 0))
            else:
                moves.append((s, 0, _SHIFT[s], delta[s], 0, _ABOVE[HOME] if e == 0 else _ABOVE[s]))
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
        end = BAR - die
        if opp[end] >= 2:
            return {}
        entering = min(bar, 4)
        board += entering * delta[BAR]
        prefix = (BAR, end) * entering
        if opp[end] == 1:
            hits = HIT[end]
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
                walk(b + delta[s], h | HIT[e] if e and opp[e] == 1 else h, s, moves + (s, e), left - 1)
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
    return tuple(_hit_side(side_int(opponent), hits).to_bytes(26, "little"))


def _make_result(key: int, position: Position) -> Position:
    player = tuple((key & _BOARD_MASK).to_bytes(26, "little"))
    return trusted_position(player, _hit_opponent(position.opponent, key >> BOARD_BITS))
