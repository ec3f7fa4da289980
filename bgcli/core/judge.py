"""Judging a recorded play: whether written steps make a legal play, and why not.

The generator (:mod:`bgcli.core.generator`) owns legality: a written play is
legal exactly when it is one of ``legal_plays`` for the roll (by its result,
as gnubg decides), and every reader asks this module or
:func:`bgcli.core.notation.parse_play`, which ask the generator. The
:class:`Board` here words why steps cannot be made, asking the generator
(``step_refusal``) whether each step may be made; the short way on the
sides' counts (``_on_counts``) is a fenced mirror of the generator for the
plays a record holds most (tests/test_audit_steps.py, tests/test_legality_owner.py).

``run_steps`` and ``apply_steps`` play steps on a :class:`Board`. The judge of a recorded play
(``play_from_steps``) makes a play of one step a die on the sides' counts
instead, under the same rules (the usual play of two dice and a double's
four steps away from the bear-off unrolled; tests/test_audit_steps.py checks
it against the generator).
When the steps alone cannot decide, the judge asks the generator
(:mod:`bgcli.core.generator`), as gnubg does, by the play's result.
"""
from __future__ import annotations

from itertools import chain
from typing import Any, Iterable, Sequence

from bgcli.core.generator import HIT, Play, Refusal, Step, legal_plays, made_play, side_int, step_refusal
from bgcli.core.position import (BAR, HOME, OFF, OTHER_SIDE, OUTSIDE_HOME, Point, Position, accelerator, checked_dice,
                                 trusted_position)
from bgcli.core.spelling import point_text
from bgcli.errors import IllegalPlayError

class Board:
    """A mutable copy of a position, from the mover's side, for trying steps.

    The Board states no rule of moving: whether one checker may go from a
    start to an end now is the generator's verdict
    (:func:`bgcli.core.generator.step_refusal`, ``strict``: with the rules
    that depend on the order of the steps), and the Board words the fact
    that refuses it. The legal plays come from the generator too; the Board
    plays steps one after another to say why written steps cannot be made.
    """

    __slots__ = ("me", "opp")

    def __init__(self, position: Position):
        self.me = list(position.player)
        self.opp = list(position.opponent)

    def position(self) -> Position:
        return trusted_position(tuple(self.me), tuple(self.opp))

    def problem(self, start: Point, end: Point, die: int = 0, strict: bool = True, landing: bool = True) -> str:
        """Why one checker cannot go from ``start`` to ``end`` now, or ''.
        ``die`` 0 is a step of unknown dice; ``landing`` False says the
        point is only passed on the way (for the reason's wording)."""
        if not (0 < start <= BAR and 0 <= end < start):
            return shape_problem(start, end) or f"{point_text(start)}/{point_text(end)} is not a step"
        refusal = step_refusal(self.me, self.opp, start, end, die, strict)
        if refusal is None:
            return ""
        step = f"{point_text(start)}/{point_text(end)}"
        if refusal is Refusal.NO_CHECKER:
            return f"no checker on {point_text(start)}"
        if refusal is Refusal.HELD:
            return f"{'lands on' if landing else 'passes'} {end}, which the opponent holds"
        if refusal is Refusal.BAR_FIRST:
            return f"{step} moves while a checker is on the bar"
        if refusal is Refusal.OUTSIDE_HOME:
            return f"{step} bears off while checkers are outside the home board"
        if refusal is Refusal.HIGHER_CHECKER:
            higher = max(p for p in range(start + 1, HOME + 1) if self.me[p])
            return f"{step} bears off with a {die} while a checker is on {higher}"
        return f"{step} is not a step of a {die}"

    def move(self, start: Point, end: Point) -> bool:
        """Move one checker (the caller checked ``problem``); return whether it hit."""
        self.me[start] -= 1
        self.me[end] += 1
        if end and self.opp[OTHER_SIDE[end]] == 1:
            self.opp[OTHER_SIDE[end]] = 0
            self.opp[BAR] += 1
            return True
        return False


def shape_problem(start: Point, end: Point) -> str:
    """Why a written hop cannot be a move at all, whatever the position, or ''."""
    if start == OFF:
        return f"{point_text(start)}/{point_text(end)} starts from off"
    if end == BAR:
        return f"{point_text(start)}/{point_text(end)} ends on the bar"
    if end == start:
        return f"{point_text(start)}/{point_text(end)} does not move"
    if end > start:
        return f"{point_text(start)}/{point_text(end)} moves backwards"
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
            where = f"illegal step {point_text(start)}/{point_text(end)} in {position.id_or_board()}"
            if not OFF < start <= BAR or not OFF <= end < start:
                reason = "a step goes down from a point or the bar (25) to a point or off (0)"
            elif reason.startswith("lands on"):
                reason = f"point {end} is held by the opponent"
            raise IllegalPlayError(f"{where}: {reason}")
        board.move(start, end)
    return board.position()


def fits(start: Point, end: Point, die: int) -> bool:
    """Whether one step start -> end takes ``die``: the exact distance or,
    bearing off, any larger die (the Board says whether it may)."""
    return start - end == die or (end == OFF and start - end < die)


def die_for(start: Point, end: Point, free: Sequence[int]) -> int | None:
    """The die of ``free`` that plays the hop start -> end in one step: the
    exact distance or, bearing off, the smallest larger die; None if none."""
    distance = start - end
    if distance in free:
        return distance
    if end == OFF:
        return min((d for d in free if d > distance), default=None)
    return None


def play_key(position: Position, moves: Iterable[tuple[int, int]]) -> int | None:
    """The key that ``legal_plays`` gives the play whose result ``moves``
    reach when applied one after another (start, end; 25 bar, 0 off), or
    None when a move has no checker to move or lands on a held point. A
    written play is legal when its key is a legal play's ``Play.key``."""
    board = Board(position)
    hits = 0
    for start, end in moves:
        if board.problem(start, end, strict=False):
            return None
        if board.move(start, end):
            hits |= HIT[end]
    return side_int(board.me) | hits


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
    high, low = checked_dice(dice)
    made = _on_counts(position.player, position.opponent, high, low, moves)
    if made is not None:  # the result (and the play, with its key), without listing the plays
        mine, theirs, raw, hits = made
        result = trusted_position(mine, theirs)
        if not want_play:
            return result
        return made_play(position, raw, side_int(mine) | hits, result)
    key = play_key(position, moves)
    if key is None:  # in an order that can be made, if there is one
        key = play_key(position, sorted(moves, key=_start, reverse=True))
        if key is None:
            return None
    for play in legal_plays(position, (high, low)):
        if play._key == key:
            return play if want_play else play.result
    return None


Sides = tuple[tuple[int, ...], tuple[int, ...]]


# Fenced mirror of the generator (legal_plays) for plays of one step a die:
# tests/test_audit_steps.py::test_random_moves_in_random_positions, tests/test_audit_steps.py::test_the_short_way_settles_the_usual_plays_of_the_oracle_sample
def _on_counts(player: tuple[int, ...], opponent: tuple[int, ...], high: int, low: int,
               moves: Sequence[tuple[int, int]]) -> Any:
    """A play of every die of the roll, one step a die, made on the sides'
    counts under every rule of a step: the usual play of two dice unrolled,
    else (a bear-off, a double, an order to put right) the steps tried in
    the order given and then in the other order, die assignment or, for a
    double, from the highest point down. (the mover's side, the opponent's,
    the steps as made, the hits), or None when no such way makes them: then
    the legal plays decide by the result."""
    if high != low:
        if len(moves) != 2:
            return None
        (s1, e1), (s2, e2) = moves
        d1, d2 = s1 - e1, s2 - e2
        if e1 > 0 and e2 > 0 and s1 <= BAR and s2 <= BAR and (d1 == high and d2 == low or d1 == low and d2 == high):
            return _usual(player, opponent, s1, e1, s2, e2)
        # a bear-off: which die a step takes, and the order, may matter
        for first, second in ((high, low), (low, high)):
            if (d1 == first or not e1 and d1 < first) and (d2 == second or not e2 and d2 < second):
                made = (_made(player, opponent, moves, (first, second))
                        or _made(player, opponent, moves[::-1], (second, first)))
                if made is not None:
                    return made
        return None
    if len(moves) != 4:
        return None
    dies = (high, high, high, high)
    return _made(player, opponent, moves, dies) or _made(player, opponent, sorted(moves, key=_start, reverse=True), dies)


def sides_after_steps(player: tuple[int, ...], opponent: tuple[int, ...], high: int, low: int,
                moves: Sequence[tuple[int, int]]) -> Sides | None:
    """``result_of_steps`` for the plays a record holds most, on the two
    sides' counts (no Position made): a play of every die of the roll, one
    step a die, that the steps alone show legal (:func:`_on_counts`). The
    sides after the play (the mover's, the opponent's), or None when the
    play is of another kind or cannot be made so: then ``result_of_steps``
    decides."""
    if _sides_in_c is not None:
        found = _sides_in_c(player, opponent, high, low, moves)
        if found is not NotImplemented:
            return found
    made = _on_counts(player, opponent, high, low, moves)
    return None if made is None else (made[0], made[1])


# The C accelerator's sides_after_steps is a fenced mirror of sides_after_steps (its _on_counts, the reference):
# tests/test_audit_steps.py::test_sides_after_steps_in_c_is_the_python_judge
_sides_in_c = accelerator.sides_after_steps if accelerator is not None else None


def _usual(player: tuple[int, ...], opponent: tuple[int, ...], s1: int, e1: int, s2: int, e2: int) -> Any:
    """The usual play of two different dice, no bear-off (the dice are
    fixed by the distances and only the order can matter: the bar, a
    checker that moves on): (the mover's side, the opponent's, the steps in
    an order they can be made, the hits) or None when no order can be made
    so (a held landing, no checker, the bar)."""
    h1, h2 = opponent[OTHER_SIDE[e1]], opponent[OTHER_SIDE[e2]]
    if h1 >= 2 or h2 >= 2:
        return None
    bar = player[BAR]
    if (player[s1] and (not bar or s1 == BAR) and player[s2] - (s2 == s1) + (s2 == e1) > 0
            and (bar - (s1 == BAR) == 0 or s2 == BAR)):
        raw = (s1, e1, s2, e2)
    elif (player[s2] and (not bar or s2 == BAR) and player[s1] - (s1 == s2) + (s1 == e2) > 0
            and (bar - (s2 == BAR) == 0 or s1 == BAR)):
        raw = (s2, e2, s1, e1)
    else:
        return None
    me = list(player)
    me[s1] -= 1
    me[e1] += 1
    me[s2] -= 1
    me[e2] += 1
    hits = 0
    if h1 or h2:  # a blot hit goes to the bar (two landings on one blot hit it once)
        hit = list(opponent)
        for end, held in ((e1, h1), (e2, h2)):
            if held and not hits & HIT[end]:
                hits |= HIT[end]
                hit[OTHER_SIDE[end]] = 0
                hit[BAR] += 1
        return tuple(me), tuple(hit), raw, hits
    return tuple(me), opponent, raw, hits


_flat = chain.from_iterable


def _made(player: tuple[int, ...], opponent: tuple[int, ...], moves: Sequence[tuple[int, int]],
          dies: Sequence[int]) -> Any:
    """``moves`` made in this order with these dice, one each, on the sides'
    counts under every rule of a step, as the generator's ``step_refusal`` decides them
    (a checker on the start, an open landing, the bar first, bearing off
    only with every checker home, a larger die only from the highest point):
    (the mover's side, the opponent's, the steps as made, the hits), or None
    when a step may not be made."""
    me = list(player)
    opp: Any = opponent
    hits = 0
    for (start, end), die in zip(moves, dies):
        if not (0 < start <= BAR and 0 <= end < start) or not me[start] or (me[BAR] and start != BAR):
            return None
        distance = start - end
        if end:
            if distance != die:
                return None
            landing = opp[OTHER_SIDE[end]]
            if landing >= 2:
                return None
            me[start] -= 1
            me[end] += 1
            if landing:
                if opp is opponent:
                    opp = list(opponent)
                opp[OTHER_SIDE[end]] = 0
                opp[BAR] += 1
                hits |= HIT[end]
        else:
            if distance > die or any(me[OUTSIDE_HOME]) or (die > start and any(me[start + 1:HOME + 1])):
                return None
            me[start] -= 1
            me[OFF] += 1
    return tuple(me), tuple(opp), tuple(_flat(moves)), hits


def _start(move: tuple[int, int]) -> int:
    return move[0]


def dances(player: tuple[int, ...], opponent: tuple[int, ...], high: int, low: int) -> bool:
    """Whether the counts alone show the roll has no play: a checker on the
    bar and each die's entry point held by two or more of the opponent's
    (nothing else may move while a checker is on the bar). False says only
    that this proof does not hold: the legal plays decide then."""
    # a die's entry point, BAR - die, is the opponent's point other_side(BAR - die) == die
    return bool(player[BAR]) and opponent[high] >= 2 and opponent[low] >= 2
