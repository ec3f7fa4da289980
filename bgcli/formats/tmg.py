"""TrueMoneyGames's match files (``.tmg``; GNU Backgammon's ``import
tmg``), read as the matches they record.

A file begins with option lines (``MatchID: 123``, ``Player1: 17 ann
1712.5``, ``Player2: ...``, ``Startdate: 2004-05-06 ...``, ``Jacoby: 0``,
``Beavers: 1``, ``Crawford: 1``, ``Cube: 1``, ``Length: 7``, and others); each
game begins ``Game 2: 1-0`` (Player1's score first) and is one numbered
record a line, the number with a minus sign for Player2's records, then the
record's type and its data::

    3 1 62:                   a roll ("?": none, the game lost on time)
    3 4 24/18 13/11           its play (0/0: no play)
    0 2 Automatic to 2        money play: equal opening dice doubled the cube
    -4 5 Double to 2          8: Beaver to 4
    5 7 Take                  10: Pass
    -6 15 4 bob wins 4 points 14, 15, 16: the winner and the points

As gnubg reads it: the players' columns are gnubg's, Player2 first, so that
an export writes them as gnubg's does. The options that are rules become rule
tags (``Jacoby``, ``Crawford``, ``Beavers``, ``Cubeless`` for ``Cube: 0``; no option says whether a
money session has automatic doubles, and gnubg reads them in any file, so a money session gets the
``AutoDoubles`` tag, as many as bgcli allows, each one judged as the game records it),
``Startdate`` the ``EventDate``, ``MatchID`` a tag of its own, and ``Site`` is
TrueMoneyGames; every other line (the stake, the players' lines, an option
changed during play) is kept as a comment.
"""
from __future__ import annotations

import enum
import re
from typing import IO, Iterable, Iterator

from bgcli.core.spelling import DIE_PATTERN, recorded_roll
from bgcli.errors import MatchFileError
from bgcli.core.rules import tag_for
from bgcli.formats.loggame import AUTO_DOUBLES, SITE_AUTO_DOUBLES, LogGame
from bgcli.formats.reading import LINE_END, text_lines
from bgcli.match.records import Action, ActionKind, GameRecord, MatchEnd, MatchHeader, MatchPart
from bgcli.match.wording import AS_WRITTEN


class Record(enum.IntEnum):
    """The record types of a game (gnubg's import.c, ``tmgrecordtype``)."""

    ROLL = 1
    AUTO_DOUBLE = 2
    MOVE = 4
    DOUBLE = 5
    TAKE = 7
    BEAVER = 8
    PASS = 10
    WIN_SINGLE = 14
    WIN_GAMMON = 15
    WIN_BACKGAMMON = 16
    OUT_OF_TIME = 17
    TABLE_STAKE = 19
    OUT_OF_TIME_1 = 22


_WINS = (Record.WIN_SINGLE, Record.WIN_GAMMON, Record.WIN_BACKGAMMON)
_ANSWERS = {Record.TAKE: ActionKind.TAKE, Record.PASS: ActionKind.DROP}
_CUBE = {Record.DOUBLE: ActionKind.DOUBLE, Record.BEAVER: ActionKind.BEAVER}

# The one tokenizer of the format: every line a match file holds, by kind.
_GAME = re.compile(r"\s*Game (?P<number>[0-9]+): (?P<first>[0-9]+)-(?P<second>[0-9]+)\s*$")
_RECORD = re.compile(r"\s*(?P<sign>-)?(?P<move>[0-9]{1,9})\s+(?P<type>[0-9]{1,3})\b[ \t]*(?P<data>.*?)\s*$")
_OPTION = re.compile(r"(?P<name>[A-Za-z][A-Za-z0-9]*):[ \t]*(?P<value>.*?)\s*$")
_PLAYER = re.compile(r"Player(?P<which>[12]): +[0-9]+ +(?P<name>\S+)")
_ROLL = re.compile(rf"(?P<dice>{DIE_PATTERN}{DIE_PATTERN}):?")
_CUBE_TO = re.compile(r"(?:Double|Beaver|Automatic) to (?P<value>[0-9]{1,9})", re.IGNORECASE)
_RESULT = re.compile(r"(?P<points>[0-9]{1,9})\b")
_DATE = re.compile(r"(?P<year>[0-9]{4})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})")
_DANCE = "0/0"
_DIGITS = 9   # a score or a length has at most this many digits, as in a .mat file
# the options that are rules, as the rule settings they say (bgcli.core.rules), and whether the setting says the opposite
_RULES = {"Jacoby": ("jacoby", False), "Crawford": ("crawford", False), "Beavers": ("beavers", False),
          "Cube": ("cubeless", True)}
SITE = "TrueMoneyGames"


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: the parts of a binary stream, read line by line."""
    return iter_parts(text_lines(handle, path), path)


def read_text(text: str, path: str = "-") -> Iterator[MatchPart]:
    """The parts of a text, its lines ended where read_stream ends them (reading.LINE_END)."""
    return iter_parts(LINE_END.split(text), path)


def iter_parts(lines: Iterable[str], path: str = "-") -> Iterator[MatchPart]:
    """A MatchHeader, the GameRecords and a MatchEnd."""
    names = ["Player 2", "Player 1"]        # gnubg's columns: Player2 first
    tags: dict[str, str] = {"Site": SITE}
    length = 0
    comments: list[tuple[int, str]] = []
    errors: list[MatchFileError] = []
    game: LogGame | None = None
    header = False
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r").lstrip("\ufeff") if number == 1 else raw.rstrip("\r")
        found = _GAME.match(line)
        if found:
            if game is not None:
                yield _record(game, names)
                game = None
            if any(len(found[name]) > _DIGITS for name in ("number", "first", "second")):
                errors.append(MatchFileError(f"a game number or score of more than {_DIGITS} digits: this game is "
                                             "not read", path, number, 1))
                continue
            if not header:
                header = True
                if not length:
                    tags[AUTO_DOUBLES.tag] = SITE_AUTO_DOUBLES
                yield MatchHeader(length, number, tags, path, words=AS_WRITTEN)
            game = LogGame(int(found["number"]), number, (int(found["second"]), int(found["first"])))
            continue
        if game is None or game.over or not _RECORD.match(line):
            if not header:
                length = _option(line, number, tags, names, comments, path, errors, length)
            elif line.strip():
                comments.append((number, line))
            continue
        error = _line(game, line, number, path, comments)
        if error is not None:
            errors.append(error)
    if not header:
        raise MatchFileError("not a TrueMoneyGames match file: no 'Game 1: 0-0' line", path, 1, 1)
    if game is not None:
        yield _record(game, names)
    yield MatchEnd(tuple(errors), tuple(comments))


def _record(game: LogGame, names: list[str]) -> GameRecord:
    return game.record((names[0], names[1]))


def _option(line: str, number: int, tags: dict[str, str], names: list[str], comments: list[tuple[int, str]],
            path: str, errors: list[MatchFileError], length: int) -> int:
    """One line before the first game: a name, the length, a rule, the date or the match's id; anything else
    a comment. The match length, as the line leaves it."""
    option = _OPTION.match(line)
    player = _PLAYER.match(line)
    if player:
        names[2 - int(player["which"])] = player["name"]
        comments.append((number, line))    # the player's number and rating
    elif option is None:
        if line.strip():
            comments.append((number, line))
    elif option["name"] == "Length":
        value = option["value"]
        if not (value.isascii() and value.isdigit() and len(value) <= _DIGITS):
            errors.append(MatchFileError(f"the match length {value[:20]!r} is not a number of at most {_DIGITS} "
                                         "digits (0: a money session)", path, number, 1))
            return length
        return int(value)
    elif option["name"] in _RULES and option["value"] in ("0", "1"):
        field, opposite = _RULES[option["name"]]
        tags.update([tag_for(field, (option["value"] == "1") != opposite)])
    elif option["name"] == "Startdate" and _DATE.match(option["value"]):
        date = _DATE.match(option["value"])
        assert date is not None
        tags["EventDate"] = f"{date['year']}.{date['month']}.{date['day']}"
    elif option["name"] == "MatchID" and option["value"]:
        tags["MatchID"] = option["value"]
    else:
        comments.append((number, line))
    return length


def _line(game: LogGame, line: str, number: int, path: str, comments: list[tuple[int, str]]) -> MatchFileError | None:
    """Adds what one record says; the error when it says nothing readable."""
    found = _RECORD.match(line)
    assert found is not None
    side = 0 if found["sign"] else 1
    move = int(found["move"])
    data = found["data"]
    text = line.strip()
    try:
        kind = Record(int(found["type"]))
    except ValueError:
        return MatchFileError(f"a record of type {found['type']}, which no TrueMoneyGames file gnubg reads holds: "
                              f"{text[:60]!r}", path, number, 1)
    if kind == Record.ROLL:
        if data.startswith("?"):
            return None   # no roll: the game was lost on time
        rolled = _ROLL.fullmatch(data)
        if rolled is None:
            return MatchFileError(f"cannot read the roll {data[:20]!r}: expected two dice, '62:'", path, number, 1)
        game.roll = (side, recorded_roll(rolled["dice"]), number)   # type: ignore[assignment]
        return None
    if kind == Record.MOVE:
        if game.roll is None:
            return MatchFileError(f"a play with no roll before it: {text[:60]!r}", path, number, 1)
        _, dice, _ = game.roll
        game.roll = None
        if data == _DANCE:
            game.actions.append(Action(number, 1, move, side, ActionKind.DANCE, dice, raw=text))
        else:
            game.actions.append(Action(number, line.index(data) + 1, move, side, ActionKind.MOVE, dice, data,
                                       raw=text))
        return None
    if kind in _CUBE:
        value = _CUBE_TO.match(data)
        game.actions.append(Action(number, 1, move, side, _CUBE[kind], cube=int(value["value"]) if value else None,
                                   raw=text))
        return None
    if kind in _ANSWERS:
        game.actions.append(Action(number, 1, move, side, _ANSWERS[kind], raw=text))
        return None
    if kind in _WINS:
        points = _RESULT.match(data)
        if points is None:
            return MatchFileError(f"cannot read the result {text[:60]!r}: expected the points, then "
                                  "'NAME wins N points'", path, number, 1)
        game.end(Action(number, 1, move, side, ActionKind.WIN, points=int(points["points"]), raw=text))
        return None
    if kind == Record.AUTO_DOUBLE:
        value = _CUBE_TO.match(data)
        game.auto_double(number, text, int(value["value"]) if value else None)
        return None
    comments.append((number, line))    # out of time, a table stake: nothing to replay
    return None
