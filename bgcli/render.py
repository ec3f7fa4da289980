"""Pictures of a position: gnubg's ASCII board and an SVG drawing.

Both drawings follow GNU Backgammon's conventions: player 1 plays the X
checkers at the bottom of the board, player 0 the O checkers at the top, and
the points are numbered from the side of the player on roll. ``home="right"``
(the default) puts X's home board at the bottom right, as gnubg does;
``home="left"`` draws the mirror image, as gnubg does with ``set clockwise on``
and as several playing sites let players choose.

A drawing takes a ``GameState`` (anything with ``.position`` and ``.match``,
the match carrying the Match ID fields of ``bgcli.ids.MatchState``) or a bare
``Position``, which is drawn as a money game with player 1 on roll.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any, Sequence
from xml.sax.saxutils import escape

from bgcli.model import BAR, CHECKERS, OFF, Position

DEFAULT_NAMES = ("player 0", "player 1")
_RESIGNS = ("single game", "gammon", "backgammon")


@dataclass(frozen=True)
class _Match:
    """The Match ID fields a drawing needs, with gnubg's defaults for a bare position."""

    cube: int = 1
    cube_owner: int = -1
    on_roll: int = 1
    crawford: bool = False
    game_state: int = 1
    turn: int = 1
    doubled: bool = False
    resign: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = True


@dataclass(frozen=True)
class _Board:
    """What is drawn: X's and O's sides, each in its own point numbers."""

    position: Position
    match: _Match
    x: tuple[int, ...]  # player 1, bottom
    o: tuple[int, ...]  # player 0, top
    names: tuple[str, str]


def _board(game: Any, names: Sequence[str] | None) -> _Board:
    if isinstance(game, Position):
        position, source = game, None
    else:
        position, source = game.position, game.match
    defaults = _Match()
    match = _Match(**{field: getattr(source, field, getattr(defaults, field)) for field in _Match.__dataclass_fields__})
    if names is None:
        names = getattr(source, "names", None) or DEFAULT_NAMES
    x, o = (position.player, position.opponent) if match.on_roll == 1 else (position.opponent, position.player)
    return _Board(position, match, tuple(x), tuple(o), (str(names[0]), str(names[1])))


def _match_id(match: _Match) -> str:
    """gnubg's 12-character Match ID (a private copy of the packing; the
    fields and bit order are those of /work/shared/specs/formats.md)."""
    dice = match.dice if match.dice[0] else (0, 0)
    fields = (
        (max(match.cube, 1).bit_length() - 1, 4),
        (3 if match.cube_owner < 0 else match.cube_owner, 2),
        (match.on_roll, 1),
        (int(match.crawford), 1),
        (match.game_state, 3),
        (match.turn, 1),
        (int(match.doubled), 1),
        (match.resign, 2),
        (dice[0], 3),
        (dice[1], 3),
        (match.match_length, 15),
        (match.score[0], 15),
        (match.score[1], 15),
        (0 if match.jacoby else 1, 1),
    )
    bits = shift = 0
    for value, width in fields:
        bits |= (value & ((1 << width) - 1)) << shift
        shift += width
    return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


def _points(n: int, word: str = "point") -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _side_texts(board: _Board) -> list[str]:
    """The seven texts gnubg writes to the right of the board, top to bottom:
    O's name, O's score, O's roll, the cube or match, X's roll, X's score, X's name."""
    m = board.match
    text = [f"O: {board.names[0]}", _points(m.score[0]), "", "", "", _points(m.score[1]), f"X: {board.names[1]}"]
    if m.doubled:
        text[4 if m.turn else 2] = f"Cube offered at {m.cube * 2}"
        return text
    if m.dice[0]:
        roll = f"Rolled {m.dice[0]}{m.dice[1]}"
    elif board.x[OFF] < CHECKERS and board.o[OFF] < CHECKERS:
        roll = "On roll"
    else:
        roll = ""
    if m.resign:
        roll += f", resigns {_RESIGNS[min(m.resign, 3) - 1]}"
    text[4 if m.on_roll else 2] = roll
    match = _points(m.match_length, "point") + " match"
    if m.cube_owner < 0:
        if not m.match_length:
            text[3] = f"(Cube: {m.cube})"
        elif m.match_length == 1:
            text[3] = match
        elif m.crawford:
            text[3] = f"{match} (Crawford game)"
        else:
            text[3] = f"{match} (Cube: {m.cube})"
    else:
        owner = 6 if m.cube_owner else 0
        text[owner] = f"{'XO'[owner == 0]}: {board.names[m.cube_owner]} (Cube: {m.cube})"
        if m.match_length:
            text[3] = match
    return text


# --- ASCII ----------------------------------------------------------------------

_TALL = "     X6789ABCDEF"  # what the fifth row shows for a stack of n (gnubg's table)
_LABELS_LOW = "+12-11-10--9--8--7-------6--5--4--3--2--1-+"
_LABELS_HIGH = "+13-14-15-16-17-18------19-20-21-22-23-24-+"
_LABELS_LOW_LEFT = "+-1--2--3--4--5--6-------7--8--9-10-11-12-+"
_LABELS_HIGH_LEFT = "+24-23-22-21-20-19------18-17-16-15-14-13-+"


def _cell(count: int, mark: str, row: int) -> str:
    """One checker row of a stack: rows 0-3 show a checker, row 4 shows
    the fifth checker or, on a taller stack, its height."""
    if row < 4:
        return mark if count > row else " "
    return (_TALL[min(count, 15)] if count else " ").replace("X", mark)


def _point_cell(board: _Board, point: int, row: int) -> str:
    """X's point ``point`` (O's point 25 - point) on checker row ``row``."""
    if board.x[point]:
        return f" {_cell(board.x[point], 'X', row)} "
    return f" {_cell(board.o[25 - point], 'O', row)} "


def _tray(count: int, mark: str, row: int, reverse: bool) -> str:
    """Three columns of borne-off checkers, five to a column."""
    columns = [mark if count > 5 * c + row else " " for c in range(3)]
    return "".join(reversed(columns) if reverse else columns)


def ascii_board(game: Any, home: str = "right", names: Sequence[str] | None = None) -> str:
    """The board as gnubg's ``show board`` draws it, followed by the
    pip-count line gnubg's text export writes under a board.

    ``home`` is ``"right"`` (gnubg's default) or ``"left"`` (gnubg's
    ``set clockwise on``). ``names`` are the names of player 0 (O) and
    player 1 (X); by default the match's ``names`` or ``DEFAULT_NAMES``.
    """
    if home not in ("right", "left"):
        raise ValueError(f"invalid home {home!r}: expected 'right' or 'left'")
    board = _board(game, names)
    text = _side_texts(board)
    x_roll = board.match.on_roll == 1
    left = home == "left"
    if left:
        top_points, bottom_points = (range(24, 18, -1), range(18, 12, -1)), (range(1, 7), range(7, 13))
    else:
        top_points, bottom_points = (range(13, 19), range(19, 25)), (range(12, 6, -1), range(6, 0, -1))
    o_off, x_off = board.o[OFF], board.x[OFF]

    def row(points: tuple[range, range], bar: str, row: int, off: str, note: str | None) -> str:
        first = "".join(_point_cell(board, p, row) for p in points[0])
        second = "".join(_point_cell(board, p, row) for p in points[1])
        middle = f"|{first}| {bar} |{second}|"
        if left:
            return f"{off} {middle}  {note or ''}"
        return f" {middle} {off}" + ("" if note is None else f" {note}")

    if left:
        lines = [
            f"    GNU Backgammon  Position ID: {board.position.id()}",
            f"                    Match ID   : {_match_id(board.match)}",
            "    " + (_LABELS_HIGH_LEFT if x_roll else _LABELS_LOW_LEFT) + "  " + text[0],
        ]
    else:
        lines = [
            f" GNU Backgammon  Position ID: {board.position.id()}",
            f"                 Match ID   : {_match_id(board.match)}",
            " " + (_LABELS_HIGH if x_roll else _LABELS_LOW) + "     " + text[0],
        ]
    for y in range(5):
        note = text[y + 1] if y < 2 else ("" if y < 4 else None)
        bar = _cell(board.o[BAR], "O", y)
        lines.append(row(top_points, bar, y, _tray(o_off, "O", y, left), note))
    arrow = "v" if x_roll else "^"
    if left:
        lines.append(f"    |{' ' * 18}|BAR|{' ' * 18}|{arrow} {text[3]}")
    else:
        lines.append(f"{arrow}|{' ' * 18}|BAR|{' ' * 18}|     {text[3]}")
    for y in range(4, -1, -1):
        note = text[5 - y] if y < 2 else ("" if y < 4 else None)
        bar = _cell(board.x[BAR], "X", y)
        lines.append(row(bottom_points, bar, y, _tray(x_off, "X", y, left), note))
    if left:
        lines.append("    " + (_LABELS_LOW_LEFT if x_roll else _LABELS_HIGH_LEFT) + "  " + text[6])
    else:
        lines.append(" " + (_LABELS_LOW if x_roll else _LABELS_HIGH) + "     " + text[6])
    lines.append(f"Pip counts: O {_pips(board.o)}, X {_pips(board.x)}")
    return "\n".join(lines) + "\n"


def _pips(side: Sequence[int]) -> int:
    return sum(point * count for point, count in enumerate(side))
