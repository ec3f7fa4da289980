"""Pictures of a position: gnubg's ASCII board and an SVG drawing.

Both drawings follow GNU Backgammon's conventions: player 1 plays the X
checkers at the bottom of the board, player 0 the O checkers at the top, and
the points are numbered from the side of the player on roll. ``home="right"``
(the default) puts X's home board at the bottom right, as gnubg does;
``home="left"`` draws the mirror image, as gnubg does with ``set clockwise on``
and as several playing sites let players choose. ``style="korean"`` labels
the points with the traditional Korean point names instead, which belong to
the board whoever is on roll: 상1..상12 along the top, 하1..하12 along the
bottom, both counted from the end where X's home board is (see
``bgcli.core.notation``).

A drawing takes a ``bgcli.core.ids.GameState`` or a bare ``Position``, which is
drawn as a money game with the cube centred and player 1 on roll.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from html import escape   # with quote=False what xml.sax.saxutils.escape does (& < >), without its imports (urllib, http, email)
from typing import Sequence

from bgcli.core.cube import points_word, turned
from bgcli.core.ids import match_id
from bgcli.core.state import GameState, MatchState
from bgcli.core.position import BAR, CHECKERS, HOME, OFF, POINTS, Position, in_home, other_side, pip_count
from bgcli.core.spelling import BOTTOM, STYLES, korean_name, recorded_text

DEFAULT_NAMES = ("player 0", "player 1")
_RESIGNS = ("single game", "gammon", "backgammon")


@dataclass(frozen=True)
class _Board:
    """What is drawn: X's and O's sides, each in its own point numbers."""

    position: Position
    match: MatchState
    x: tuple[int, ...]  # player 1, bottom
    o: tuple[int, ...]  # player 0, top
    names: tuple[str, str]
    lacking: int        # the checkers a side of the variant played lacks, which its off count holds
                        # (core.rules.Variation.off_at_start): the trays show the rest, as gnubg's do

    @property
    def off(self) -> tuple[int, int]:
        """The checkers O and X have borne off of their own."""
        return self.o[OFF] - self.lacking, self.x[OFF] - self.lacking


def _board(game: GameState | Position, names: Sequence[str] | None) -> _Board:
    if isinstance(game, Position):
        game = GameState(game)  # a money game, cube centred, player 1 on roll
    position, match = game.position, game.match
    if names is None:  # the match's names where it has them (MatchState keeps "" for none)
        names = tuple(name or default for name, default in zip(match.names, DEFAULT_NAMES))
    x, o = (position.player, position.opponent) if match.on_roll == 1 else (position.opponent, position.player)
    return _Board(position, match, tuple(x), tuple(o), (str(names[0]), str(names[1])),
                  match.rules.variation.off_at_start)


def _side_texts(board: _Board) -> list[str]:
    """The seven texts gnubg writes to the right of the board, top to bottom:
    O's name, O's score, O's roll, the cube or match, X's roll, X's score, X's name."""
    m = board.match
    text = [f"O: {board.names[0]}", points_word(m.score[0]), "", "", "", points_word(m.score[1]), f"X: {board.names[1]}"]
    if m.doubled:
        text[4 if m.turn else 2] = f"Cube offered at {turned(m.cube)}"
        return text
    if m.dice[0]:
        roll = f"Rolled {recorded_text(m.dice)}"
    elif board.x[OFF] < CHECKERS and board.o[OFF] < CHECKERS:
        roll = "On roll"
    else:
        roll = ""
    if m.resign:
        roll += f", resigns {_RESIGNS[min(m.resign, 3) - 1]}"
    text[4 if m.on_roll else 2] = roll
    match = points_word(m.match_length) + " match"   # gnubg's board says "5 points match"
    if m.centred:
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
# the board's four quarters of six points, from X's home board (points 1..6) round to O's (19..24)
_QUARTERS = tuple(POINTS[k:k + HOME] for k in range(0, len(POINTS), HOME))
_LABELS_LOW = "+12-11-10--9--8--7-------6--5--4--3--2--1-+"
_LABELS_HIGH = "+13-14-15-16-17-18------19-20-21-22-23-24-+"
_LABELS_LOW_LEFT = "+-1--2--3--4--5--6-------7--8--9-10-11-12-+"
_LABELS_HIGH_LEFT = "+24-23-22-21-20-19------18-17-16-15-14-13-+"
_BAR_LABEL = slice(20, 22)  # where the Korean half's name goes in a label line, over the bar


def _korean_labels(left: bool) -> tuple[str, str]:
    """The top and bottom label lines with the Korean names: the numbers of
    each half, and the half's name (a wide character, two columns in a
    terminal, so the line keeps its width on screen) over the bar."""
    numbers = _LABELS_LOW_LEFT if left else _LABELS_LOW
    head, tail = numbers[:_BAR_LABEL.start], numbers[_BAR_LABEL.stop:]
    return head + "상" + tail, head + "하" + tail


def _check(home: str, style: str) -> None:
    if home not in ("right", "left"):
        raise ValueError(f"invalid home {home!r}: expected 'right' or 'left'")
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}: expected one of {', '.join(STYLES)}")


def _cell(count: int, mark: str, row: int) -> str:
    """One checker row of a stack: rows 0-3 show a checker, row 4 shows
    the fifth checker or, on a taller stack, its height."""
    if row < 4:
        return mark if count > row else " "
    return (_TALL[min(count, len(_TALL) - 1)] if count else " ").replace("X", mark)


def _point_cell(board: _Board, point: int, row: int) -> str:
    """X's point ``point`` (O's point other_side(point)) on checker row ``row``."""
    if board.x[point]:
        return f" {_cell(board.x[point], 'X', row)} "
    return f" {_cell(board.o[other_side(point)], 'O', row)} "


def _tray(count: int, mark: str, row: int, reverse: bool) -> str:
    """Three columns of borne-off checkers, five to a column."""
    columns = [mark if count > 5 * c + row else " " for c in range(3)]
    return "".join(reversed(columns) if reverse else columns)


def ascii_board(game: GameState | Position, home: str = "right", names: Sequence[str] | None = None,
                style: str = "gnubg") -> str:
    """The board as gnubg's ``show board`` draws it, followed by the
    pip-count line gnubg's text export writes under a board.

    ``home`` is ``"right"`` (gnubg's default) or ``"left"`` (gnubg's
    ``set clockwise on``). ``names`` are the names of player 0 (O) and
    player 1 (X); by default the match's ``names`` or ``DEFAULT_NAMES``.
    ``style="korean"`` labels the points with the traditional Korean names
    (the half's name over the bar); any other style of ``bgcli.core.notation``
    numbers them from the side of the player on roll, as gnubg does.
    """
    _check(home, style)
    board = _board(game, names)
    text = _side_texts(board)
    x_roll = board.match.on_roll == 1
    left = home == "left"
    home_board, outer_board, far_outer, far_home = _QUARTERS
    if left:
        top_points, bottom_points = (far_home[::-1], far_outer[::-1]), (home_board, outer_board)
    else:
        top_points, bottom_points = (far_outer, far_home), (outer_board[::-1], home_board[::-1])
    o_off, x_off = board.off

    def line(points: tuple[range, range], bar: str, y: int, off: str, note: str | None) -> str:
        """One checker row; ``note`` None (the fifth row) ends the line at the tray."""
        first = "".join(_point_cell(board, p, y) for p in points[0])
        second = "".join(_point_cell(board, p, y) for p in points[1])
        middle = f"|{first}| {bar} |{second}|"
        if left:
            return f"{off} {middle}  {note or ''}"
        return f" {middle} {off}" + ("" if note is None else f" {note}")

    if style == "korean":
        top_labels, bottom_labels = _korean_labels(left)
    elif left:
        top_labels, bottom_labels = (_LABELS_HIGH_LEFT, _LABELS_LOW_LEFT) if x_roll else (_LABELS_LOW_LEFT, _LABELS_HIGH_LEFT)
    else:
        top_labels, bottom_labels = (_LABELS_HIGH, _LABELS_LOW) if x_roll else (_LABELS_LOW, _LABELS_HIGH)
    if left:
        lines = [
            f"    GNU Backgammon  Position ID: {board.position.id()}",
            f"                    Match ID   : {match_id(board.match)}",
            "    " + top_labels + "  " + text[0],
        ]
    else:
        lines = [
            f" GNU Backgammon  Position ID: {board.position.id()}",
            f"                 Match ID   : {match_id(board.match)}",
            " " + top_labels + "     " + text[0],
        ]
    for y in range(5):
        note = text[y + 1] if y < 2 else ("" if y < 4 else None)
        bar = _cell(board.o[BAR], "O", y)
        lines.append(line(top_points, bar, y, _tray(o_off, "O", y, left), note))
    arrow = "v" if x_roll else "^"
    if left:
        lines.append(f"    |{' ' * 18}|BAR|{' ' * 18}|{arrow} {text[3]}")
    else:
        lines.append(f"{arrow}|{' ' * 18}|BAR|{' ' * 18}|     {text[3]}")
    for y in range(4, -1, -1):
        note = text[5 - y] if y < 2 else ("" if y < 4 else None)
        bar = _cell(board.x[BAR], "X", y)
        lines.append(line(bottom_points, bar, y, _tray(x_off, "X", y, left), note))
    if left:
        lines.append("    " + bottom_labels + "  " + text[6])
    else:
        lines.append(" " + bottom_labels + "     " + text[6])
    lines.append(f"Pip counts: O {pip_count(board.o)}, X {pip_count(board.x)}")
    return "\n".join(lines) + "\n"


def count_lines(game: GameState | Position) -> str:
    """The Keith and Thorp counts (gnubg's, before its +1/7 and +1/10), in
    the layout of the pip-count line under ``ascii_board``: O first."""
    from bgcli.analysis.counts import keith_count, thorp_count

    board = _board(game, None)
    return (f"Keith counts: O {keith_count(board.o)}, X {keith_count(board.x)}\n"
            f"Thorp counts: O {thorp_count(board.o)}, X {thorp_count(board.x)}\n")


# --- SVG ------------------------------------------------------------------------
# The drawing is laid out for the home board on the right in a fixed grid of
# units; home on the left mirrors every x coordinate (x -> width - x), so the
# two pictures are exact mirror images and text stays readable.

_R = 20                      # checker radius
_PW = 2 * _R + 4             # point width
_SIDE = 68                   # side columns: trays on the home side, the cube on the other
_BAR = 56
_HALF = 6 * _PW
_TOP_BAND = 34               # name line above the board
_LABEL = 22                  # point numbers above and below the playing area
_PLAY_TOP = _TOP_BAND + _LABEL
_PLAY_HEIGHT = 2 * 5 * 2 * _R + 64
_PLAY_BOTTOM = _PLAY_TOP + _PLAY_HEIGHT
_WIDTH = 2 * _SIDE + 2 * _HALF + _BAR
_HEIGHT = _PLAY_BOTTOM + _LABEL + 2 * 30
_MIDDLE = _PLAY_TOP + _PLAY_HEIGHT / 2
_LEFT_HALF = _SIDE
_BAR_X = _SIDE + _HALF
_RIGHT_HALF = _BAR_X + _BAR

# the numbers svg_board lays its board out with, for the viewer's script that draws the same board
GEOMETRY = {
    "width": _WIDTH, "height": _HEIGHT, "r": _R, "pw": _PW, "side": _SIDE, "bar": _BAR, "half": _HALF,
    "top_band": _TOP_BAND, "label": _LABEL, "play_top": _PLAY_TOP, "play_height": _PLAY_HEIGHT,
    "play_bottom": _PLAY_BOTTOM, "middle": _MIDDLE, "left_half": _LEFT_HALF, "bar_x": _BAR_X, "right_half": _RIGHT_HALF,
}

COLOURS = {
    "frame": "#5b3a1e", "felt": "#2f6b45", "dark": "#a3432f", "light": "#e8d3a8", "bar": "#4a2e17",
    "tray": "#3b2411", "x": "#f6f1e4", "x-edge": "#6d6455", "o": "#262626", "o-edge": "#000000",
    "text": "#1d1d1d", "label": "#f3e6c8",
}


class _Numbers(dict):
    """A coordinate as the SVG writes it (one decimal, no trailing zero),
    kept by value: a page of many boards writes the same few hundred
    numbers millions of times."""

    def __missing__(self, value: float) -> str:
        text = self[value] = f"{value:.1f}".rstrip("0").rstrip(".")
        return text


_fmt = _Numbers().__getitem__
_POLYGONS: dict[tuple, str] = {}   # the points of the board's triangles, written once per layout


class _Svg:
    """Collects SVG elements, mirroring x when the home board is on the left."""

    def __init__(self, mirror: bool):
        self.mirror = mirror
        self.parts: list[str] = []

    def x(self, x: float) -> float:
        return _WIDTH - x if self.mirror else x

    def rect(self, x, y, w, h, fill, cls="", extra=""):
        left = _WIDTH - x - w if self.mirror else x
        self.parts.append(f'<rect{_cls(cls)} x="{_fmt(left)}" y="{_fmt(y)}" width="{_fmt(w)}" height="{_fmt(h)}" fill="{fill}"{extra}/>')

    def circle(self, cx, cy, r, fill, stroke, cls="", data=""):
        self.parts.append(f'<circle{_cls(cls)}{data} cx="{_fmt(self.x(cx))}" cy="{_fmt(cy)}" r="{_fmt(r)}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>')

    def polygon(self, points, fill, cls=""):
        key = (tuple(points), fill, cls, self.mirror)
        element = _POLYGONS.get(key)
        if element is None:
            text = " ".join(f"{_fmt(self.x(px))},{_fmt(py)}" for px, py in points)
            element = f'<polygon{_cls(cls)} points="{text}" fill="{fill}"/>'
            if len(_POLYGONS) < 10_000:
                _POLYGONS[key] = element
        self.parts.append(element)

    def text(self, x, y, content, size, fill, cls="", data="", weight="normal", anchor="middle"):
        if self.mirror and anchor != "middle":
            anchor = "end" if anchor == "start" else "start"
        self.parts.append(
            f'<text{_cls(cls)}{data} x="{_fmt(self.x(x))}" y="{_fmt(y)}" font-size="{size}" fill="{fill}" '
            f'font-weight="{weight}" text-anchor="{anchor}" dominant-baseline="central">{escape(content, quote=False)}</text>')


def _cls(cls: str) -> str:
    return f' class="{cls}"' if cls else ""


def _point_x(point: int) -> float:
    """Centre x of X's point ``point`` with the home board on the right."""
    if in_home(point):
        return _RIGHT_HALF + (HOME - point) * _PW + _PW / 2
    if point <= 12:
        return _LEFT_HALF + (12 - point) * _PW + _PW / 2
    if point <= 18:
        return _LEFT_HALF + (point - 13) * _PW + _PW / 2
    return _RIGHT_HALF + (point - 19) * _PW + _PW / 2


def _stack(svg: _Svg, cx: float, first_y: float, step: float, count: int, side: str, label: str) -> None:
    """Up to five checkers from ``first_y`` onwards; a taller stack shows its
    height on the last one drawn."""
    fill, edge = COLOURS[side], COLOURS[side + "-edge"]
    data = f' data-point="{label}"'
    for i in range(min(count, 5)):
        svg.circle(cx, first_y + i * step, _R - 1, fill, edge, f"checker {side}", data)
    if count > 5:
        svg.text(cx, first_y + 4 * step, str(count), 18, COLOURS["o" if side == "x" else "x"], "count", data, "bold")


def svg_board(game: GameState | Position, home: str = "right", size: int = 640, names: Sequence[str] | None = None,
              style: str = "gnubg") -> str:
    """A self-contained SVG picture of the position, ``size`` pixels wide.

    Player 1 (X, light checkers) sits at the bottom, player 0 (O, dark) at the
    top, as in gnubg's ASCII board; point numbers are those of the player on
    roll, or with ``style="korean"`` the traditional Korean names of the
    points, which belong to the board. Each checker is a ``circle`` with class
    ``checker x`` or ``checker o`` and ``data-point`` (the point as labelled,
    ``bar`` or ``off``).
    """
    _check(home, style)
    board = _board(game, names)
    m = board.match
    x_roll = m.on_roll == 1
    svg = _Svg(home == "left")
    c = COLOURS

    # frame, felt, bar and the two side columns
    svg.rect(0, _TOP_BAND, _WIDTH, _PLAY_HEIGHT + 2 * _LABEL, c["frame"], "frame")
    svg.rect(_LEFT_HALF, _PLAY_TOP, _HALF, _PLAY_HEIGHT, c["felt"], "felt")
    svg.rect(_RIGHT_HALF, _PLAY_TOP, _HALF, _PLAY_HEIGHT, c["felt"], "felt")
    svg.rect(_BAR_X, _PLAY_TOP, _BAR, _PLAY_HEIGHT, c["bar"], "bar")
    tray_x = _RIGHT_HALF + _HALF + 8
    tray_h = _PLAY_HEIGHT / 2 - 20
    svg.rect(tray_x, _PLAY_TOP, _SIDE - 16, tray_h, c["tray"], "tray o")
    svg.rect(tray_x, _PLAY_BOTTOM - tray_h, _SIDE - 16, tray_h, c["tray"], "tray x")

    # points and their labels: numbers counted from the side of the player on
    # roll, or the Korean names, which are X's (the bottom player's) whoever is on roll
    def label(point: int) -> str:
        if style == "korean":
            return korean_name(point, BOTTOM)
        return str(point if x_roll else other_side(point))

    depth = 5 * 2 * _R
    for point in POINTS:
        cx = _point_x(point)
        top = point >= 13
        base, tip = (_PLAY_TOP, _PLAY_TOP + depth) if top else (_PLAY_BOTTOM, _PLAY_BOTTOM - depth)
        colour = c["dark"] if point % 2 else c["light"]
        svg.polygon([(cx - _PW / 2, base), (cx + _PW / 2, base), (cx, tip)], colour, "point")
        label_y = _PLAY_TOP - _LABEL / 2 if top else _PLAY_BOTTOM + _LABEL / 2
        svg.text(cx, label_y, label(point), 13, c["label"], "label", f' data-point="{label(point)}"', "bold")

    # checkers on the points
    for point in POINTS:
        cx = _point_x(point)
        number = label(point)
        top = point >= 13
        first, step = (_PLAY_TOP + _R, 2 * _R) if top else (_PLAY_BOTTOM - _R, -2 * _R)
        if board.x[point]:
            _stack(svg, cx, first, step, board.x[point], "x", number)
        elif board.o[other_side(point)]:
            _stack(svg, cx, first, step, board.o[other_side(point)], "o", number)

    # the bar: O's checkers above the middle, X's below, as in the ASCII board
    bar_cx = _BAR_X + _BAR / 2
    _stack(svg, bar_cx, _MIDDLE - 40 - _R, -2 * _R, board.o[BAR], "o", "bar")
    _stack(svg, bar_cx, _MIDDLE + 40 + _R, 2 * _R, board.x[BAR], "x", "bar")

    # borne-off checkers, seen from the side, in the trays on the home side
    slab = (tray_h - 8) / CHECKERS
    for side, count, top in (("o", board.off[0], True), ("x", board.off[1], False)):
        for i in range(count):
            y = _PLAY_TOP + 4 + i * slab if top else _PLAY_BOTTOM - 4 - (i + 1) * slab
            svg.rect(tray_x + 4, y + 0.5, _SIDE - 24, slab - 1, c[side], f"off {side}",
                     f' stroke="{c[side + "-edge"]}" stroke-width="1" rx="2" data-point="off"')
        if count:
            ty = _PLAY_TOP + tray_h + 9 if top else _PLAY_BOTTOM - tray_h - 9
            svg.text(tray_x + (_SIDE - 16) / 2, ty, f"{count} off", 11, c["label"], f"offcount {side}")

    _cube(svg, m)
    if m.dice[0] and not m.doubled:
        _dice(svg, m)
    _bands(svg, board)
    title = f"backgammon position {board.position.id()}:{match_id(m)}"
    width = size
    height = round(size * _HEIGHT / _WIDTH)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {_WIDTH} {_HEIGHT}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">\n'
        f"<title>{escape(title, quote=False)}</title>\n"
        f'<rect x="0" y="0" width="{_WIDTH}" height="{_HEIGHT}" fill="#fbf8f1"/>\n'
        + "\n".join(svg.parts)
        + "\n</svg>\n"
    )


def _cube(svg: _Svg, m: MatchState) -> None:
    """The cube in the side column away from the home board: at the top when
    O owns it, at the bottom when X owns it, in the middle when centred; an
    offered cube, showing the new value, lies in the middle of the outer board."""
    size = 44
    cx = _SIDE / 2
    if m.doubled:
        value, cy, cls = turned(m.cube), _MIDDLE, "cube offered"
        cx = _LEFT_HALF + _HALF / 2  # in the empty middle of the outer board
    elif m.centred:
        value, cy, cls = m.cube, _MIDDLE, "cube centred"
    else:
        value, cy, cls = m.cube, (_PLAY_BOTTOM - size / 2 - 8 if m.cube_owner else _PLAY_TOP + size / 2 + 8), "cube owned"
    if m.match_length and m.crawford and m.centred and not m.doubled:
        return  # no cube in the Crawford game
    shown = 64 if value == 1 and cls == "cube centred" else value
    svg.rect(cx - size / 2, cy - size / 2, size, size, "#fffdf6", cls, ' stroke="#222" stroke-width="2" rx="6"')
    svg.text(cx, cy, str(shown), 20 if shown < 100 else 15, "#111", "cube-value", weight="bold")


def _dice(svg: _Svg, m: MatchState) -> None:
    """The rolled dice in the middle of the roller's right-hand half."""
    side = "x" if m.on_roll == 1 else "o"
    fill, pip = (COLOURS["x"], "#111") if side == "x" else (COLOURS["o"], "#eee")
    size = 40
    cx0 = _RIGHT_HALF + _HALF / 2 - size / 2 - 6 if side == "x" else _LEFT_HALF + _HALF / 2 - size / 2 - 6
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
    for i, value in enumerate(m.dice):
        cx = cx0 + i * (size + 12)
        svg.rect(cx - size / 2, _MIDDLE - size / 2, size, size, fill, f"die {side}",
                 f' stroke="#222" stroke-width="1.5" rx="7" data-value="{value}"')
        for dx, dy in spots[value]:
            svg.circle(cx + dx * size / 4, _MIDDLE + dy * size / 4, 3.6, pip, pip, "spot")


def _bands(svg: _Svg, board: _Board) -> None:
    """Name, score, pip count and what the player is doing, above (O) and
    below (X) the board; the match and the IDs at the foot."""
    m = board.match
    mirror, svg.mirror = svg.mirror, False  # text lines read left to right either way
    pips = {"o": pip_count(board.o), "x": pip_count(board.x)}
    for side, player, y in (("o", 0, _TOP_BAND / 2), ("x", 1, _PLAY_BOTTOM + _LABEL + 16)):
        parts = [f"{'OX'[player]}: {board.names[player]}"]
        if m.match_length:
            parts.append(points_word(m.score[player]))
        parts.append(f"pips {pips[side]}")
        doing = ""
        if m.doubled and m.turn != player:
            doing = f"doubles to {turned(m.cube)}"
        elif not m.doubled and m.on_roll == player and m.game_state <= 1:
            doing = f"to play {recorded_text(m.dice)}" if m.dice[0] else "on roll"
        if m.resign and m.on_roll == player:
            doing = (doing + ", " if doing else "") + f"resigns {_RESIGNS[min(m.resign, 3) - 1]}"
        if doing:
            parts.append(doing)
        svg.circle(_LEFT_HALF - 28, y, 8, COLOURS[side], COLOURS[side + "-edge"], f"key {side}")
        svg.text(_LEFT_HALF - 12, y, "  ·  ".join(parts), 16, COLOURS["text"], f"band {side}", weight="bold", anchor="start")
    if not m.match_length:
        game = "money game" + (", Jacoby rule" if m.rules.jacoby else "")
    else:
        game = f"{m.match_length}-point match" + (", Crawford game" if m.crawford else "")
    foot = f"{game}  ·  Position ID {board.position.id()}  ·  Match ID {match_id(m)}"
    svg.text(_WIDTH / 2, _HEIGHT - 14, foot, 12, "#555", "foot")
    svg.mirror = mirror


def drawable(state: GameState) -> tuple[GameState, str]:
    """``state`` as it can be drawn, and why it was changed ('' when it was
    not). A transcript gone wrong can hold a state that no Match ID carries
    (a game after the match was won, a 40000-point match, a cube of 3): the
    board is drawn with the nearest state that has one."""
    match = state.match
    problem = match.problem()
    if not problem:
        return state, ""
    player = 1 if match.on_roll == 1 else 0
    near = [replace(match, game_state=2),   # a score past the match length: the match is over
            replace(match, game_state=2, cube=1, cube_owner=-1, doubled=False),
            replace(match, rules=replace(match.rules, match_length=0), score=(0, 0), cube=1, cube_owner=-1, doubled=False),
            MatchState(on_roll=player, turn=player)]
    return GameState(state.position, next(m for m in near if not m.problem())), problem
