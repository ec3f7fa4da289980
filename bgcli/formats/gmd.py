"""Gibbon's match dump (``.gmd``: the FIBS client Gibbon's own record of a
match, "GMD", written as the match is played), read as the matches it records.

Read as Gibbon writes and reads it (https://github.com/gitGNU/gnu_gibbon,
``src/gibbon-gmd-writer.c``, ``gibbon-gmd-lexer.l``, ``gibbon-gmd-parser.y``,
and its samples ``src/7point.gmd``, ``src/complete.gmd``): the magic line,
the match's properties, then one action a line, ``OPCODE:COLOR:DATA``, the
colour ``W`` (White), ``B`` (Black) or ``-`` (neither: the opening roll)::

    GMD-2 # Created by Gibbon version 0.2.0
    Length: 7                   a match of 7 points (unlimited, money: a money session)
    Player:W: SnowWhite         the players' names (backslash escapes)
    Rank:W: 1234.56 123 (FIBS)  their ratings (kept as comments)
    Location: Sofia             where it was played
    Rule: Crawford              the Crawford rule (absent: no Crawford rule)
    Game:                       a game starts (the first may set up: Points{..} Dice{..} Scores{..})
    Roll:-: 4 2                 the opening roll, the dice as rolled
    Move:W: 8/4 6/4             its play, one step a die; nothing after the colon: no play
    Double:W                    a double; Take:B, Drop:B its answer
    Resign:W:2                  a resignation of 2 points; Accept:B, Reject:B its answer

Later versions write the time of each action after the colour
(``Roll:W:1330000000: 4 2``, ``Double:W:1330000000``,
``Resign:W:1330000000: 2``); opcodes and colours are read in any case, the
colours also ``0``/``O``/``white`` and ``1``/``X``/``black``, a step also
``8-4`` and ``b``/``o`` for bar and off, as Gibbon's reader reads them.

The points are absolute, White's numbers: White moves from 24 down to 1,
Black from 1 up to 24 (his own point p written 25 - p). Black is the left
column, as Gibbon's own .mat export writes him. No result and no score is
written: a game is over at its drop, its accepted resignation (read as the
resignation and the win of the points it offered) or its last checker off,
and is worth what the rules say (bgcli.match.conventions.results_written).
"""
from __future__ import annotations

import re
from typing import IO, Iterable, Iterator

from bgcli.core.position import InvalidPositionError, Position, other_side
from bgcli.core.rules import tag_for
from bgcli.core.spelling import BAR_WORDS, DIE_PATTERN, OFF_WORDS, small_number
from bgcli.errors import MatchFileError, NotThisFormatError
from bgcli.formats.loggame import LogGame
from bgcli.formats.reading import LINE_END, text_lines
from bgcli.match.records import (Action, ActionKind, GameRecord, MatchEnd, MatchHeader, MatchPart, SetUp,
                                 Writer)
from bgcli.match.wording import AS_WRITTEN
from bgcli.output import quote

# The one tokenizer of the format: every line a dump holds.
_MAGIC = re.compile(r"GMD-(?P<version>[0-9]+)\b")
_LINE = re.compile(r"(?P<op>[A-Za-z_][A-Za-z0-9_]*)\s*:(?P<rest>.*)$")
_ROLL = re.compile(rf"(?P<first>{DIE_PATTERN})\s+(?P<second>{DIE_PATTERN})")
_STEP = re.compile(r"(?P<start>[0-9]{1,2}|[a-z]+)[/-](?P<end>[0-9]{1,2}|[a-z]+)", re.IGNORECASE)
_SETUP = re.compile(r"(?P<name>[A-Za-z]+)\s*\{(?P<numbers>[^}]*)\}")
_COLORS = {"w": 1, "o": 1, "0": 1, "white": 1, "b": 0, "x": 0, "1": 0, "black": 0, "-": None}
_ESCAPE = re.compile(r"\\([0-7]{1,3}|.)")
_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_DIGITS = 9   # a length, a score or points have at most this many digits, as in a .mat file
_BLACK, _WHITE = 0, 1   # the columns: Black left, as Gibbon's .mat export writes him
_NAMES = ("Black", "White")
_UNLIMITED = ("unlimited", "money")
_ACTIONS = {"roll", "move", "double", "take", "drop", "resign", "accept", "reject"}
HOW = "Gibbon's 'Game: Points{...}'"


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: the parts of a binary stream (a dump is small: read whole, since the players'
    names may come after the length)."""
    return iter_parts(list(text_lines(handle, path)), path)


def read_text(text: str, path: str = "-") -> Iterator[MatchPart]:
    """The parts of a text, its lines ended where read_stream ends them (reading.LINE_END)."""
    return iter_parts(LINE_END.split(text), path)


def _unescape(text: str) -> str:
    """A name as Gibbon's writer escapes it (C escapes, octal for other control characters) read back."""
    def one(found: re.Match[str]) -> str:
        code = found[1]
        if code[0] in "01234567":
            return chr(int(code, 8))
        return _ESCAPES.get(code, code)
    return _ESCAPE.sub(one, text)


def _fields(rest: str) -> tuple[str, list[str]]:
    """The colour and the fields after it of an action's line (``W``, ``['1330000000', ' 4 2']``)."""
    color, *after = rest.split(":")
    return color.strip().lower(), after


class _Game(LogGame):
    def __init__(self, number: int, line: int, scores: tuple[int, int] | None):
        super().__init__(number, line, (0, 0))
        self.scores_said = scores
        self.set_up: SetUp | None = None
        self.offer: tuple[Action, int] | None = None   # a resignation offered and its points, not yet answered
        self.opening: tuple[tuple[int, int], int] | None = None   # the opening roll ('Roll:-:'): dice, line

    def game_record(self, players: tuple[str, str]) -> GameRecord:
        return GameRecord(self.number, players, self.scores_said, tuple(self.actions), self.line,
                          autos_written=True, set_up=self.set_up)


def iter_parts(lines: Iterable[str], path: str = "-") -> Iterator[MatchPart]:
    """A MatchHeader, the GameRecords and a MatchEnd."""
    rows = [(number, raw.rstrip("\r").lstrip("\ufeff") if number == 1 else raw.rstrip("\r"))
            for number, raw in enumerate(lines, 1)]
    first = next(((n, line) for n, line in rows if line.strip()), (1, ""))
    if _MAGIC.match(first[1].strip()) is None:
        raise NotThisFormatError("not a Gibbon match dump: the first line is not 'GMD-2'", path, first[0], 1)
    errors: list[MatchFileError] = []
    comments: list[tuple[int, str]] = []
    names = ["", ""]
    length = 0
    tags: dict[str, str] = {}
    crawford = False
    body: list[tuple[int, str, str, str]] = []   # the games' lines: number, text, opcode, the rest
    for number, line in rows[first[0]:]:
        text = line.strip()
        if not text:
            continue
        if text.startswith("#"):
            comments.append((number, text))
            continue
        found = _LINE.match(text)
        if found is None:
            errors.append(MatchFileError(f"cannot read {_quote(text)}: expected 'OPCODE:COLOR:...', "
                                         "'Move:W: 8/4 6/4'", path, number, 1))
            continue
        op, rest = found["op"].lower(), found["rest"]
        if op == "length":
            value = rest.strip().lower()
            if value in _UNLIMITED:
                length = 0
            elif value.isdigit() and len(value) <= _DIGITS:
                length = int(value)
            else:
                errors.append(MatchFileError(f"the match length {_quote(rest)} is not a number of at most "
                                             f"{_DIGITS} digits or 'unlimited'", path, number, 1))
        elif op == "player":
            color, after = _fields(rest)
            side = _COLORS.get(color)
            if side is None or not after:
                errors.append(MatchFileError(f"cannot read the player {_quote(text)}: expected 'Player:W: NAME'",
                                             path, number, 1))
            else:
                names[side] = _unescape(":".join(after).strip())
        elif op == "location":
            tags["Place"] = _unescape(rest.strip())
        elif op == "rule":
            if rest.strip().lower() == "crawford":
                crawford = True
            else:
                comments.append((number, text))   # a rule Gibbon does not know either (it warns)
        elif op == "game" or op in _ACTIONS:
            body.append((number, text, op, rest))
        else:
            comments.append((number, text))   # Rank, and what a later Gibbon may add (its reader warns)
    players = (names[_BLACK] or _NAMES[_BLACK], names[_WHITE] or _NAMES[_WHITE])
    if length:
        tags.setdefault(*tag_for("crawford", crawford))
    yield MatchHeader(length, first[0], tags, path, words=AS_WRITTEN, writer=Writer.GIBBON)
    game: _Game | None = None
    games = 0
    for number, text, op, rest in body:
        if op == "game":
            if game is not None:
                yield _finished(game, players)
            games += 1
            game = _Game(games, number, None)
            if rest.strip():
                _set_up(game, rest, number, path, errors)
            continue
        if game is None:
            errors.append(MatchFileError(f"{_quote(text)} before the first 'Game:' line", path, number, 1))
            continue
        error = _action(game, number, text, op, rest, path)
        if error is not None:
            errors.append(error)
    if game is not None:
        yield _finished(game, players)
    else:
        errors.append(MatchFileError("no game in it (no 'Game:' line)", path, first[0], 1))
    yield MatchEnd(tuple(errors), tuple(comments))


def _finished(game: _Game, players: tuple[str, str]) -> GameRecord:
    """The game's record. A roll with no play after it, where the record stops (a dump written in the middle
    of a turn, a set-up's dice), is no action: the record says nothing of what was done with it."""
    game.roll = game.opening = None
    return game.game_record(players)


def _set_up(game: _Game, rest: str, number: int, path: str, errors: list[MatchFileError]) -> None:
    """A first game that starts from a position set up: ``Points{..}`` (White's bar, points 1 to 24 with
    White's checkers positive, Black's bar), ``Dice{..}``, ``Scores{..}``, ``Cube{value owner}``,
    ``Turn{side}`` (White 1, Black -1)."""
    found = {m["name"].lower(): m["numbers"].split() for m in _SETUP.finditer(rest)}
    try:
        values = {name: [int(n) for n in numbers] for name, numbers in found.items()}
    except ValueError:
        errors.append(MatchFileError(f"cannot read the set-up {_quote(rest)}: expected numbers in braces",
                                     path, number, 1))
        return
    if "scores" in values and len(values["scores"]) == 2:
        white_score, black_score = values["scores"]
        game.scores_said = (black_score, white_score)
    position: Position | None = None
    if "points" in values:
        counts = values["points"]
        if len(counts) != 26:
            errors.append(MatchFileError(f"the set-up's Points{{...}} has {len(counts)} numbers, not 26", path,
                                         number, 1))
            return
        try:
            # from White's side: index 0 the opponent's (Black's) bar, 1..24 the points, 25 White's bar
            whites = Position.from_board26([-abs(counts[25]), *counts[1:25], abs(counts[0])])
        except InvalidPositionError as exc:
            errors.append(MatchFileError(f"the set-up's board is no position: {exc}", path, number, 1))
            return
        position = whites.swap()   # from Black's side, the left column's
    cube, owner = 1, -1
    if "cube" in values and values["cube"]:
        cube = values["cube"][0]
        side = values["cube"][1] if len(values["cube"]) > 1 else 0
        owner = -1 if side == 0 else (_WHITE if side > 0 else _BLACK)
    turn = values.get("turn", [0])
    on_roll = None if not turn or turn[0] == 0 else (_WHITE if turn[0] > 0 else _BLACK)
    dice = values.get("dice")
    if dice is not None and len(dice) == 2 and all(1 <= abs(d) <= 6 for d in dice):
        # Gibbon's dice of the side to move: negative for Black
        roller = on_roll if on_roll is not None else (_BLACK if dice[0] < 0 else _WHITE)
        game.roll = (roller, (abs(dice[0]), abs(dice[1])), number)
    if position is not None or cube != 1 or owner != -1:
        game.set_up = SetUp(position if position is not None else Position.start(), HOW, cube, owner, on_roll)


def _action(game: _Game, number: int, text: str, op: str, rest: str, path: str) -> MatchFileError | None:
    """Adds what one action line says; the error when it says nothing readable."""
    color, after = _fields(rest)
    if color not in _COLORS:
        return MatchFileError(f"cannot read the colour of {_quote(text)}: expected W, B or -", path, number, 1)
    side = _COLORS[color]
    data = after[-1].strip() if after else ""
    if game.offer is not None and op not in ("accept", "reject"):
        game.offer = None     # an offer that nothing answered: play went on
    if side is None and op != "roll":
        return MatchFileError(f"{_quote(text)} names no player ('-' is the opening roll's)", path, number, 1)
    if op == "roll":
        rolled = _ROLL.fullmatch(data)
        game.unread_roll = rolled is None
        if rolled is None:
            return MatchFileError(f"cannot read the roll {_quote(text)}: expected two dice, 'Roll:W: 4 2'",
                                  path, number, 1)
        dice = (int(rolled["first"]), int(rolled["second"]))
        if side is None:
            game.opening = (dice, number)   # whose it is, its play says
        else:
            game.roll = (side, dice, number)
        return None
    assert side is not None
    if game.opening is not None:
        dice, line = game.opening
        game.opening, game.roll = None, (side, dice, line)
    if op == "move":
        taken = game.roll_played(text, path, number)
        if not isinstance(taken, tuple):
            return taken
        roller, dice = taken
        if roller is not None and roller != side:
            return MatchFileError(f"{_NAMES[side]}'s play {_quote(text)} after {_NAMES[roller]}'s roll", path,
                                  number, 1)
        if not data:
            game.actions.append(Action(number, 1, None, side, ActionKind.DANCE, dice, raw=text))
            return None
        own = _own(data, side)
        if own is None:
            return MatchFileError(f"cannot read the play {_quote(data)}: expected steps '8/4', 'bar/20', '4/off'",
                                  path, number, text.rfind(data) + 1)
        game.actions.append(Action(number, text.rfind(data) + 1, None, side, ActionKind.MOVE, dice, own, raw=text))
        return None
    if op == "double":
        game.actions.append(Action(number, 1, None, side, ActionKind.DOUBLE, raw=text))
    elif op == "take":
        game.actions.append(Action(number, 1, None, side, ActionKind.TAKE, raw=text))
    elif op == "drop":
        game.actions.append(Action(number, 1, None, side, ActionKind.DROP, raw=text))
    elif op == "resign":
        if not (data.isdigit() and len(data) <= _DIGITS and int(data) > 0):
            return MatchFileError(f"cannot read the resignation {_quote(text)}: expected its points, 'Resign:W: 2'",
                                  path, number, 1)
        game.offer = (Action(number, 1, None, side, ActionKind.RESIGN, raw=text), int(data))
    elif op == "reject":
        game.offer = None
    elif op == "accept":
        if game.offer is None or game.offer[0].side == side:
            return MatchFileError(f"{_quote(text)} accepts no resignation of the other player", path, number, 1)
        (resigned, points), game.offer = game.offer, None
        game.actions.append(resigned)
        game.end(Action(number, 1, None, side, ActionKind.WIN, points=points, raw=text))
    return None


def _own(play: str, side: int) -> str | None:
    """The steps ``play`` as their player numbers the points (Black's point p is White's 25 - p); None when a
    step does not read."""
    steps = []
    for word in play.split():
        found = _STEP.fullmatch(word)
        if found is None:
            return None
        ends = []
        for part in (found["start"].lower(), found["end"].lower()):
            if part in BAR_WORDS:
                ends.append(BAR_WORDS[0])
                continue
            if part in OFF_WORDS:
                ends.append(OFF_WORDS[0])
                continue
            point = small_number(part)
            if point is None or not 1 <= point <= 24:
                return None
            ends.append(str(point if side == _WHITE else other_side(point)))
        steps.append("/".join(ends))
    return " ".join(steps)


def _quote(text: str) -> str:
    return quote(text.strip())   # a line's own blanks are not shown
