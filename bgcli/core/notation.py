"""Move notation: reading play text and writing plays.

Reading happens in two stages, as python-chess does for SAN. First the
syntax (``grammars/play.lark``) gives a :class:`WrittenPlay`, a list of
chains of points as written. Then :func:`parse_play` finds the legal play the
text means, judged by the position it produces (gnubg's rule: any spelling
that reaches a legal play's position is that play). A written hop such as
``13/4`` with 3-3 or ``24/14`` with 6-4 is split into die-sized steps; every
way of splitting is tried, and intermediate landings hit or are blocked as
they would on the board.

Three errors: :class:`InvalidPlayError` for text that is not move notation,
:class:`IllegalPlayError` (with the reason) for a well-formed play that is not
legal here, :class:`AmbiguousPlayError` for shorthand that reaches more than
one legal position.

Writing styles (:func:`play_text`):

- ``gnubg``: gnubg's canonical text. Sub-moves by decreasing start point; one
  checker's steps merged (``24/14``) except at points where a blot is hit
  (``13/7*/5``); identical sub-moves counted (``13/7(2)``); ``bar``, ``off``.
- ``mat``: the Jellyfish .mat style gnubg writes: one ``a/b`` pair per die in
  the order played, bar = 25, off = 0, ``*`` on hits.
- ``fibs``: what the FIBS ``move`` command takes: one ``a-b`` pair per die in
  the order played, ``bar`` and ``off``, no hit marks. Points are numbered
  from the mover's home, as everywhere in bgcli.
- ``korean``: the gnubg layout with the traditional Korean point names. The
  names belong to the board, not to the player on roll: 하 is the lower half
  and 상 the upper one, each numbered 1 to 12 from the same end of the board,
  so that 상1 and 하1 face each other (at the start 상1 holds the bottom
  player's two back checkers, 하1 the top player's). The player drawn at the
  bottom (gnubg's player 1, X, ``side=BOTTOM``) has its point n at 하n for
  n <= 12 and at 상(25 - n) for n >= 13; the player at the top (player 0, O,
  ``side=TOP``) has its point n at 상n and 하(25 - n). So 24/18 13/11 is
  상1/상7 상12/하11 for the bottom player and 하1/하7 하12/상11 for the top
  one. The rule text has no words for the bar and borne-off checkers, so
  ``bar`` and ``off`` stay.

Points are numbered from the mover's home everywhere in bgcli; only the
Korean names need to know which side moves, so the functions that read or
write them take ``side`` (``BOTTOM``, gnubg's player 1, by default): in a
match, the left column of a .mat file is player 0 (``TOP``) and the right
column player 1 (``BOTTOM``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import permutations
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from bgcli.errors import (AmbiguousPlayError, BgcliError, CutShortPlayError, IllegalPlayError, InvalidDiceError,
                          InvalidPlayError, MissingDiceError)
from bgcli.core.position import BAR, OFF, POINTS, Dice, Point, Position, accelerator, other_side, roll_dice
# the words of dice, points, bar and off, and the styles, are the spellings module's
from bgcli.core.spelling import (
    BLANKS, BOTTOM, DIE_DIGITS, POINT_WORDS, STYLES, dice_name, own_half, parse_dice, parse_point, point_name,
    point_names, recorded_text, small_number,
)
from bgcli.core.generator import BOARD_BITS, Play, Step, chains_text, in_written_order, legal_keys, legal_plays, side_int
from bgcli.core.judge import Board, run_steps, shape_problem
from bgcli.output import quote

if TYPE_CHECKING:  # the grammar and the match state are imported when needed: start-up time
    from bgcli.core.state import GameState

# A play has at most four steps; a repeat beyond that cannot be a play.
_MAX_REPEAT = 4
# Characters of play text read at most: the longest plays people write are
# about 30 (``66: bar/19*/13*/7*/1*``), so more is not a play (and would cost
# parse time and message length).
MAX_PLAY_TEXT = 200
_LIST_LIMIT = 6  # legal plays named in an error message when there are this few


# --- the written play ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class WrittenMove:
    """One written sub-move: a chain of points (``8/2*/1``), the ``*`` marks
    after each point, and the ``(n)`` repeat count."""

    points: tuple[Point, ...]
    hits: tuple[bool, ...]
    count: int = 1

    def hops(self) -> list[tuple[Point, Point]]:
        """The written (start, end) pairs of one copy of the chain."""
        return list(zip(self.points, self.points[1:]))

    def text(self, style: str = "gnubg", *, side: int = BOTTOM) -> str:
        sep = "-" if style == "fibs" else "/"
        out = sep.join(point_name(p, style, side=side) + ("*" if h else "") for p, h in zip(self.points, self.hits))
        return out + (f"({self.count})" if self.count > 1 else "")


@dataclass(frozen=True, slots=True)
class WrittenPlay:
    """A play as written, syntax only: the sub-moves in the order written and
    the dice of a ``61:`` prefix, if any. No sub-moves means no play (a dance)."""

    moves: tuple[WrittenMove, ...]
    dice: Dice | None = None

    def hops(self) -> list[tuple[Point, Point]]:
        """Every written (start, end) pair in order, repeats expanded."""
        return [hop for move in self.moves for _ in range(move.count) for hop in move.hops()]

    def marked(self) -> frozenset[Point]:
        """The points written with a ``*``."""
        return frozenset(p for m in self.moves for p, h in zip(m.points, m.hits) if h)

    def mirrored(self) -> WrittenPlay:
        """The same play numbered from the other side's home (point n is 25 - n;
        the bar and off stay): for a file that numbers both players' points
        from one end of the board, as FIBS's logs do."""
        def turned(point: Point) -> Point:
            return point if point in (BAR, OFF) else other_side(point)
        return WrittenPlay(tuple(WrittenMove(tuple(turned(p) for p in m.points), m.hits, m.count)
                                 for m in self.moves), self.dice)

    def __str__(self) -> str:
        body = " ".join(m.text() for m in self.moves)
        if self.dice:
            return f"{dice_name(self.dice)}: {body}".rstrip()
        return body


class _PlayTree:
    """Turns the tree of ``play.lark`` into a WrittenPlay: a transformer in
    Lark's protocol (``transform(tree)``, each rule's method given its
    children transformed, tokens as they are), written without Lark's
    Transformer class so that lark is imported only when the grammar is
    needed (start-up time) and the module compiles with mypyc."""

    def __init__(self, text: str, side: int):
        self.text = text
        self.side = side

    def transform(self, tree: Any) -> Any:
        items = [self.transform(child) if hasattr(child, "data") else child for child in tree.children]
        return getattr(self, str(tree.data))(items)

    def start(self, items: list) -> WrittenPlay:
        dice = None
        moves: tuple[WrittenMove, ...] = ()
        for item in items:
            if isinstance(item, tuple):
                moves = item
            elif getattr(item, "type", None) == "DICE":
                # the grammar says where the dice stand; the spellings module what they may be
                written = str(item).rstrip(BLANKS + ":")
                try:
                    dice = parse_dice(written)
                except InvalidDiceError as exc:
                    raise InvalidPlayError(f"invalid play {quote(self.text)}: dice {quote(written, 20)} "
                                           f"(column {item.column}): {_reason(exc)}") from None
        return WrittenPlay(moves, dice)

    def moves(self, items: list) -> tuple[WrittenMove, ...]:
        return tuple(items)

    def dance(self, items: list) -> tuple[WrittenMove, ...]:
        return ()

    def submove(self, items: list) -> WrittenMove:
        count = 1
        if items and isinstance(items[-1], int):
            count = items.pop()
        return WrittenMove(tuple(p for p, _ in items), tuple(h for _, h in items), count)

    def point(self, items: list) -> tuple[Point, bool]:
        try:
            return parse_point(str(items[0]), side=self.side), len(items) > 1
        except InvalidPlayError as exc:
            raise InvalidPlayError(
                f"invalid play {quote(self.text)}: {_reason(exc)}, not {quote(items[0], 20)} "
                f"(column {items[0].column})"
            ) from None

    def repeat(self, items: list) -> int:
        n = small_number(str(items[0]))
        if n is None or not 1 <= n <= _MAX_REPEAT:
            raise InvalidPlayError(
                f"invalid play {quote(self.text)}: repeat ({quote(items[0], 20)[1:-1]}) must be 1 to {_MAX_REPEAT}")
        return n


def _reason(exc: Exception) -> str:
    return str(exc).split(": ", 1)[-1]


# The forms gnubg writes (canonical text and .mat cells) are read without
# Lark, because a match audit reads thousands of them. The grammar stays the
# definition: the tests check that both readers agree. Anything unusual
# (spaces inside a chain, commas, dance words) goes to Lark.
# Fenced mirror of the grammar's play (grammars/play.lark, _grammar_play):
# tests/test_notation.py::test_fast_path_agrees_with_grammar_on_generated_text
_WORDS = "|".join(sorted(POINT_WORDS, key=len, reverse=True))   # bar|off|b|o: the longest first
_POINT = rf"(?:{_WORDS}|[상하]?[0-9]{{1,2}})"  # [0-9], not \d: ASCII digits, as in the grammar
_SUBMOVE = rf"{_POINT}\*?(?:[/-]{_POINT}\*?)+(?:\([0-9]\))?"
_DIE = f"([{DIE_DIGITS}])"   # the dice prefix gnubg writes (61:); any other spelling goes to the grammar
_COMMON_PLAY = re.compile(
    rf"[ \t]*(?:{_DIE}{_DIE}:[ \t]*)?((?:{_SUBMOVE})(?:[ \t]+{_SUBMOVE})*)?[ \t]*", re.IGNORECASE
)
_COMMON_SUBMOVE = re.compile(_SUBMOVE, re.IGNORECASE)
_COMMON_POINT = re.compile(rf"({_POINT})(\*?)", re.IGNORECASE)


def _read_common_play(text: str, side: int = BOTTOM) -> WrittenPlay | None:
    """Read the common forms of the player on ``side``; None means "ask the grammar"."""
    match = _COMMON_PLAY.fullmatch(text)
    if match is None:
        return None
    moves = []
    for chunk in _COMMON_SUBMOVE.findall(match.group(3) or ""):
        count = 1
        if chunk.endswith(")"):
            chunk, count = chunk[:-3], int(chunk[-2])
            if not 1 <= count <= _MAX_REPEAT:
                return None
        points, hits = [], []
        for word, star in _COMMON_POINT.findall(chunk):
            point = POINT_WORDS.get(word.lower())
            if point is None:
                if not word.isdigit():  # a Korean name: which point it is, the owner says (spelling.parse_point)
                    try:
                        point = parse_point(word, side=side)
                    except InvalidPlayError:
                        return None
                elif int(word) > BAR:
                    return None
                else:
                    point = int(word)
            points.append(point)
            hits.append(bool(star))
        moves.append(WrittenMove(tuple(points), tuple(hits), count))
    dice = None
    if match.group(1):
        d1, d2 = int(match.group(1)), int(match.group(2))
        dice = (max(d1, d2), min(d1, d2))
    return WrittenPlay(tuple(moves), dice)


def parse_play_text(text: str, *, side: int = BOTTOM) -> WrittenPlay:
    """Read play text (syntax only) of the player on ``side``, which only
    Korean names depend on. Raises InvalidPlayError."""
    own_half(side)  # a bad side is an error whatever the text
    if not isinstance(text, str):
        raise InvalidPlayError(f"invalid play {quote(repr(text))}: expected text")
    if len(text) > MAX_PLAY_TEXT:
        raise InvalidPlayError(
            f"invalid play {quote(text)}: {len(text):,} characters, more than any play needs ({MAX_PLAY_TEXT})")
    fast = _read_common_play(text, side)
    return _without_placeholders(fast if fast is not None else _grammar_play(text, side))


def _without_placeholders(play: WrittenPlay) -> WrittenPlay:
    """``play`` without its ``0/0`` steps (off to off): no step, but how some writers mark a die with
    nothing left to move, the last checker borne off with the other (``21: 2/0 0/0``; bgdb's notes on
    old tournament transcriptions, and TrueMoneyGames's ``0/0`` for no play at all)."""
    if all(any(point != OFF for point in move.points) for move in play.moves):
        return play
    return WrittenPlay(tuple(move for move in play.moves if any(point != OFF for point in move.points)), play.dice)


def numbered_text(text: str, *, side: int = BOTTOM) -> str:
    """``text`` with Korean point names written as the numbers of the player
    on ``side`` (the bottom player's ``상1/상7 상12/하11`` is ``24/18 13/11``),
    for code that reads numbers only; any other text, or text that is not
    move notation, as it is."""
    if "상" not in text and "하" not in text:
        return text
    try:
        return str(parse_play_text(text, side=side))
    except InvalidPlayError:
        return text


def _hit_hint(text: str, column: int) -> str:
    """A hint when the parse stopped at an ``x`` written after a point: some
    write a hit so, notation writes it ``*``."""
    at = column - 1
    if 0 < at < len(text) and text[at] in "xX" and text[at - 1].isalnum():
        written = text[:at].split()[-1]
        return f" (a hit is written *, as in {written}*)"
    return ""


def _grammar_play(text: str, side: int = BOTTOM) -> WrittenPlay:
    def error(message: str, line: int, column: int) -> InvalidPlayError:
        return InvalidPlayError(f"invalid play {quote(text)}: {message}{_hit_hint(text, column)}")

    from bgcli import grammar

    return grammar.parse("play", text, error, _PlayTree(text, side))


# --- applying written steps ----------------------------------------------------------

def _descending(steps: Sequence[tuple[Point, Point, int]]):
    """The steps with the highest start first: if any order of these steps
    can be played, this one can (every step goes down the board, so it
    brings checkers home and clears the bar before they are needed)."""
    return sorted(steps, key=lambda s: -s[0])


def _die_splits(start: Point, end: Point, dice: tuple[int, ...]) -> Iterable[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Ways to cover the hop start -> end with dice from ``dice`` (a sorted
    multiset): yields (dice in order, dice left). Bearing off may overshoot
    with the last die only."""
    distance = start - end
    for n in range(1, len(dice) + 1):
        for order in sorted(set(permutations(dice, n)), reverse=True):
            total = sum(order)
            if end == OFF:
                if total < distance or sum(order[:-1]) >= distance:
                    continue
            elif total != distance:
                continue
            left = list(dice)
            for d in order:
                left.remove(d)
            yield order, tuple(left)


def _assignments(hops: list[tuple[Point, Point]], dice: tuple[int, ...]):
    """Every way to split all written hops into die-steps ``(start, end, die)``."""
    def walk(i, left, steps):
        if i == len(hops):
            yield steps
            return
        start, end = hops[i]
        for order, rest in _die_splits(start, end, left):
            point = start
            chain = []
            for d in order:
                nxt = max(point - d, OFF)
                chain.append((point, nxt, d))
                point = nxt
            yield from walk(i + 1, rest, steps + chain)

    yield from walk(0, dice, [])


def _roll(dice: Dice) -> tuple[int, ...]:
    return tuple(roll_dice(dice))


def apply_written(position: Position, written: str | WrittenPlay, dice: Sequence[int] | None = None,
                  *, side: int = BOTTOM) -> Position | None:
    """Apply written steps mechanically and return the position after them
    (still from the mover's side), or None when a step has no checker to move
    or lands on a point the opponent holds. No other rule is checked: this is
    how a game goes on after an illegal play that nobody called.

    With ``dice`` (or a ``61:`` prefix) a hop longer than one die is split
    into die-sized steps where possible, so blots on the way are hit.
    Text is read as the player on ``side`` writes it (see the module
    docstring). Raises InvalidPlayError for text that is not move notation.
    """
    if isinstance(written, str):
        written = parse_play_text(written, side=side)
    hops = written.hops()
    if any(shape_problem(s, e) for s, e in hops):
        return None
    roll = dice if dice is not None else written.dice
    if roll is not None:
        try:
            rolled: Dice | None = parse_dice(roll)
        except InvalidDiceError:
            rolled = None
        if rolled is not None:
            # as in gnubg's writing, a chain hits only where it says: prefer
            # the split that hits fewest blots at points not written
            shown = {p for hop in hops for p in hop}
            best = None
            for steps in _assignments(hops, tuple(sorted(_roll(rolled)))):
                result, done, _ = run_steps(position, _descending(steps), False)
                if result is not None:
                    unwritten = sum(1 for step in done if step.hit and step.end not in shown)
                    if best is None or unwritten < best[0]:
                        best = (unwritten, result)
            if best is not None:
                return best[1]
    result, _, _ = run_steps(position, _descending([(s, e, 0) for s, e in hops]), False)
    return result


# --- finding the legal play a text means ------------------------------------------------

def parse_play(
    text: str | WrittenPlay,
    position: Position | GameState,
    dice: Sequence[int] | str | None = None,
    plays: list[Play] | None = None,
    *,
    side: int | None = None,
) -> Play:
    """The legal play that ``text`` means in ``position`` with ``dice``.

    ``dice`` may be omitted when the text starts with them (``61: 13/7 8/7``).
    The returned Play has the written steps, split into dice and put in an
    order that can be played, and the legal result. A dance (empty text,
    ``66:``, ``Cannot Move``) gives a Play with no steps when no play is legal.
    ``plays`` may pass ``legal_plays(position, dice)`` when the caller has it.
    ``side`` is the player on roll, gnubg's player 0 (``TOP``) or 1
    (``BOTTOM``, the default): only Korean point names depend on it.
    ``position`` may be what ``parse_position`` returns: its side on roll is
    then the default ``side``, and its dice are used when there are none.
    """
    if not isinstance(position, Position):  # a GameState
        game, position = position, position.position
        side = game.match.on_roll if side is None else side
        if dice is None and game.match.dice[0]:
            dice = tuple(game.match.dice)
    side = BOTTOM if side is None else side
    written = parse_play_text(text, side=side) if isinstance(text, str) else text
    source = text if isinstance(text, str) else str(text)
    rolled = _dice_for(written, dice, source, position)
    if plays is None:
        plays = legal_plays(position, rolled)
    return _match(written, source, position, rolled, plays)


def plays_of_rolls(text: str | WrittenPlay, position: Position, rolls: Iterable[Sequence[int]], *,
                   side: int | None = None) -> Iterator[tuple[Sequence[int], Play]]:
    """Each roll of ``rolls``, in their order, that ``text`` is a legal play
    of, with the play: :func:`parse_play` asked of each roll (which decides),
    but not of a roll it would refuse anyway. :func:`_match` finds a play
    only among the ways the written hops split into the roll's dice, or as
    the legal play that the hops taken whole reach (gnubg's rule): a roll
    with neither is passed over without listing why (the message that
    costs a refused roll most). Which rolls fit a play: the diagnosis of a
    wrong roll, a repair's candidates."""
    side = BOTTOM if side is None else side
    try:
        written = parse_play_text(text, side=side) if isinstance(text, str) else text
    except BgcliError:
        return   # unreadable: parse_play refuses every roll
    hops = written.hops()
    whole: list[tuple[int, str] | None] = []   # what the hops taken whole reach (None: nothing), once
    for roll in rolls:
        try:
            rolled = parse_dice(roll)
            if hops and next(_assignments(hops, tuple(sorted(_roll(rolled)))), None) is None:
                if not whole:
                    reached = apply_written(position, written)
                    whole.append((side_int(reached.player), reached.swap().id()) if reached is not None else None)
                reach = whole[0]
                # a legal play reaches it only with the mover's checkers where they end (the board bytes of
                # Play.key): most rolls are passed over on the keys alone
                if reach is None or not any(key & _BOARD == reach[0] for key in legal_keys(position, rolled)) \
                        or all(play.result_id() != reach[1] for play in legal_plays(position, rolled)):
                    continue
            yield roll, parse_play(written, position, roll, side=side)
        except BgcliError:
            continue


_BOARD = (1 << BOARD_BITS) - 1   # a play key's board bytes: the mover's checkers after it


def _dice_for(written: WrittenPlay, dice, source: str, position: Position) -> Dice:
    if dice is None:
        if written.dice is None:
            raise MissingDiceError(f"no dice for play {source!r}: give the roll or write it first, as in 61: 13/7 8/7")
        return written.dice
    rolled = parse_dice(dice)
    if written.dice is not None and written.dice != rolled:
        raise IllegalPlayError(
            f"illegal play {source!r} in {position.id_or_board()} with {recorded_text(rolled)}: "
            f"it is written for {recorded_text(written.dice)}"
        )
    return rolled


def _match(written: WrittenPlay, source: str, position: Position, dice: Dice, plays: list[Play]) -> Play:
    def illegal(reason: str, kind: type[IllegalPlayError] = IllegalPlayError) -> IllegalPlayError:
        listed = ""
        if 0 < len(plays) <= _LIST_LIMIT:
            listed = f" (legal: {', '.join(sorted(play_text(p) for p in plays))})"
        return kind(f"illegal play {source!r} in {position.id_or_board()} with {dice_name(dice)}: {reason}{listed}")

    hops = written.hops()
    if not hops:
        if not plays:
            return Play((), position)
        raise illegal(f"no play is written but {_count(plays)} can be played")
    if not plays:
        raise illegal("no play is possible with this roll: the checkers cannot move")
    for start, end in hops:
        problem = shape_problem(start, end)
        if problem:
            raise illegal(problem)

    # A strict-valid sequence of die-steps is a legal play when it uses as
    # many dice and pips as the legal plays do; any other sequence may still
    # reach a legal position (gnubg's rule), which costs a comparison of
    # results, so that is done only when needed.
    most = len(plays[0].steps)
    best = _best_pips(position, dice, most)
    roll = tuple(sorted(_roll(dice)))
    written_points = frozenset(p for hop in hops for p in hop)
    found: dict[Position, tuple[Step, ...]] = {}
    others: list[tuple[Position, tuple[Step, ...], int, int]] = []
    failures: list[str] = []
    tried = False
    for steps in _assignments(hops, roll):
        tried = True
        result, done, reason = run_steps(position, steps, True, written_points)
        if result is None:
            result, done, reason = run_steps(position, _descending(steps), True, written_points)
        if result is None:
            failures.append(reason)
            continue
        pips = sum(d for _, _, d in steps)
        if len(steps) == most and pips == best:
            found.setdefault(result, done)
        else:
            others.append((result, done, len(steps), pips))
    if found:
        # the generator owns legality: steps the Board lets through are a play only when they
        # reach a legal play's result (the Board only says why steps cannot be made)
        results = {p.result for p in plays}
        outside = [result for result in found if result not in results]
        for result in outside:
            del found[result]
            failures.append("the steps reach a position that no legal play of the roll reaches")
    if not found and others:
        legal_ids = {p.result_id() for p in plays}
        for result, done, _, _ in others:
            if result.swap().id() in legal_ids:
                found.setdefault(result, done)

    if len(found) > 1:
        found = _by_marks(found, written.marked(), hops)
    if len(found) == 1:
        result, done = next(iter(found.items()))
        return Play(done, result)
    if len(found) > 1:
        texts = ", ".join(sorted(play_text(Play(steps, r)) for r, steps in found.items()))
        raise AmbiguousPlayError(
            f"ambiguous play {source!r} in {position.id_or_board()} with {dice_name(dice)}: it can mean {texts}"
        )

    # gnubg's rule: a spelling whose hops, taken whole, reach a legal position is that play.
    result = apply_written(position, written)
    if result is not None:
        result_id = result.swap().id()
        for play in plays:
            if play.result_id() == result_id:
                return play

    if not tried:
        raise illegal(_length_reason(hops, dice, roll))
    if others:
        shortfalls = [(n, pips) for _, _, n, pips in others]
        # steps that can each be made but use fewer dice than the roll allows: a turn cut short
        raise illegal(_shortfall_reason(shortfalls, most, dice),
                      CutShortPlayError if max(shortfalls)[0] < most else IllegalPlayError)
    raise illegal("; ".join(dict.fromkeys(failures)))


def _count(plays: list[Play]) -> str:
    return f"{len(plays)} play" + ("s" if len(plays) != 1 else "")


def _by_marks(found: dict, marked: frozenset[Point], hops) -> dict:
    """Narrow several legal readings of shorthand the way gnubg writes it: a
    chain hits only at the points it shows (``13/3`` passes 7 without
    hitting, ``13/7*/3`` hits there); then prefer readings whose hits agree
    with the written ``*`` marks. Returns the readings left."""
    written_points = {p for hop in hops for p in hop}
    hits = {result: {s.end for s in steps if s.hit} for result, steps in found.items()}
    shown = {r: s for r, s in found.items() if hits[r] <= written_points} or found
    if len(shown) > 1:
        agree = {r: s for r, s in shown.items() if hits[r] & written_points == marked & written_points}
        return agree or shown
    return shown


def _length_reason(hops, dice: Dice, roll: tuple[int, ...]) -> str:
    """Why the written hops cannot be split into the dice."""
    needed = 0
    for start, end in hops:
        splits = [order for order, _ in _die_splits(start, end, roll)]
        if not splits:
            pips = start - end
            where = f"{point_name(start)}/{point_name(end)}"
            if end == OFF:
                return f"{where} needs at least {pips} pips to bear off, more than the dice {dice_name(dice)} give"
            return f"{where} is {pips} pip{'s' if pips != 1 else ''}, which no die or sum of the dice {dice_name(dice)} makes"
        needed += min(len(order) for order in splits)
    if needed > len(roll):
        return f"the steps need at least {needed} dice but {dice_name(dice)} gives {len(roll)}"
    return f"the steps need the same die twice but {dice_name(dice)} gives it once"


def _best_pips(position: Position, dice: Dice, most: int) -> int:
    """The dice total of every legal play, which uses ``most`` dice."""
    high, low = dice
    if high == low:
        return most * high
    if most == 2:
        return high + low
    return high if _can_play(position, high) else low


def _can_play(position: Position, die: int) -> bool:
    """Whether one step of ``die`` can be played."""
    board = Board(position)
    starts = [BAR] if position.player[BAR] else [p for p in reversed(POINTS) if position.player[p]]
    return any(not board.problem(s, max(s - die, OFF), die) for s in starts)


def _shortfall_reason(shortfalls: list[tuple[int, int]], most: int, dice: Dice) -> str:
    """Why mechanically possible steps are still not a legal play."""
    used, pips = max(shortfalls)
    if used < most:
        die_word = "die" if used == 1 else "dice"
        return f"it plays {used} {die_word} but {most} can be played"
    if dice[0] != dice[1] and used == 1 and pips < dice[0]:
        return f"it plays the smaller die, {dice[1]}, but the larger, {dice[0]}, can be played"
    return "it does not reach a position that a legal play reaches"


# --- writing plays ------------------------------------------------------------

def play_text(play: Play, style: str = "gnubg", dice: Sequence[int] | None = None, *, side: int = BOTTOM) -> str:
    """Write a play in one of ``STYLES``; with ``dice`` the text starts with
    them, as in a .mat file (``61: 13/7 8/7``). A play without steps is ''.
    ``side`` is the player who moves, gnubg's player 0 (``TOP``) or 1
    (``BOTTOM``, the default): only Korean point names depend on it."""
    if style not in STYLES:
        raise ValueError(f"unknown play style {style!r}: expected one of {', '.join(STYLES)}")
    if style == "mat":
        body = " ".join(f"{s.start}/{s.end}" + ("*" if s.hit else "") for s in play.steps)
    elif style == "fibs":
        # every step written, in the order gnubg's layout writes the checkers (24-23 24-22, as 24/23 24/22)
        body = " ".join(f"{point_name(s.start, style)}-{point_name(s.end, style)}" for s in in_written_order(play.steps))
    else:
        if style == "korean":
            own_half(side)  # a bad side is an error, not a cached text
            cache_key: tuple = (style, side, play.steps_key())
        else:
            cache_key = (style, play.steps_key())
        cached = _TEXT_CACHE.get(cache_key)
        if cached is None:
            if len(_TEXT_CACHE) > 200_000:  # bounded: long batches meet many plays
                _TEXT_CACHE.clear()
            cached = _TEXT_CACHE[cache_key] = " ".join(_canonical_moves(play.steps, style, side))
        body = cached
    if dice is not None:
        high, low = max(dice), min(dice)
        return f"{high}{low}: {body}".rstrip()
    return body


# The same steps come back again and again (8/5 6/5 in thousands of
# positions); their canonical text is computed once.
_TEXT_CACHE: dict[tuple, str] = {}


# The C accelerator's play_text is a fenced mirror of canonical_text (below it, the reference), for ASCII point
# names: tests/test_speedups.py::test_play_text_writes_what_canonical_text_writes
_play_text_in_c = accelerator.play_text if accelerator is not None else None


def canonical_text(moves: Sequence[int], hits: int, style: str = "gnubg", side: int = BOTTOM) -> str:
    """gnubg's layout (``gnubg`` or ``korean``) of a play given as the
    generator keeps it: its raw pairs ``(start, end, start, end, ...)`` and
    its hit marks (bit p: a blot hit on point p, the first landing there).
    The text ``play_text`` writes for the play, without Step objects: a
    batch writes tens of thousands of new plays."""
    names = point_names(style, side)
    if _play_text_in_c is not None:
        text = _play_text_in_c(moves, hits, names)
        if text is not None:
            return text
    if len(moves) == 4:  # the common play of two steps, the general rules below worked out for it
        a, b, c, d = moves
        if (c, d) > (a, b):
            a, b, c, d = c, d, a, b
        hit_b, hit_d = hits >> b & 1, hits >> d & 1
        if c == b and b:  # one checker on: its middle point shown where it hits
            middle = f"/{names[b]}*" if hit_b else ""
            return f"{names[a]}{middle}/{names[d]}{'*' if hit_d else ''}"
        first = f"{names[a]}/{names[b]}{'*' if hit_b else ''}"
        if a == c and b == d:
            return f"{first}(2)"
        return f"{first} {names[c]}/{names[d]}{'*' if hit_d and d != b else ''}"
    if len(moves) == 2:
        return f"{names[moves[0]]}/{names[moves[1]]}{'*' if hits >> moves[1] & 1 else ''}"
    # more steps (a double): each chain of one checker's steps, highest start
    # first, goes on with the next step from where it ended (not from off);
    # identical chains, which come one after another, are written once with
    # their count; a hit point is marked once, where it first appears
    ordered = sorted(zip(moves[::2], moves[1::2]), reverse=True)
    out = []
    unmarked = hits
    previous: list[int] | None = None
    count = 0
    text = ""
    while ordered:
        s, e = ordered.pop(0)
        chain = [s, e]
        i = 0
        while e and i < len(ordered):
            if ordered[i][0] == e:
                e = ordered.pop(i)[1]
                chain.append(e)
            else:
                i += 1
        if chain == previous:
            count += 1
            continue
        if previous is not None:
            out.append(f"{text}({count})" if count > 1 else text)
        previous, count = chain, 1
        text = names[s]
        last = len(chain) - 1
        for k in range(1, last + 1):
            p = chain[k]
            if unmarked >> p & 1:
                text += f"/{names[p]}*"
                unmarked ^= 1 << p
            elif k == last or hits >> p & 1:  # a merged point is shown only where a blot was hit
                text += f"/{names[p]}"
    out.append(f"{text}({count})" if count > 1 else text)
    return " ".join(out)


def _canonical_moves(steps: Sequence[Step], style: str, side: int = BOTTOM) -> list[str]:
    """gnubg's layout (bgcli.core.generator.chains_text, which str(play) writes) with the points named in ``style``."""
    return chains_text(steps, lambda point: point_name(point, style, side=side))
