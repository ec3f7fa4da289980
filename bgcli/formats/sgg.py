"""GamesGrid's saved games (``.sgg``; GNU Backgammon's ``import sgg``), read
as the matches they record.

A file begins ``ann vs. bob``, then option lines: the date (``Monday,
November 30, 2026 ...``), ``GamesGrid``, ``ELO: ...``, ``Jacoby: Yes``,
``Crawford: Yes``, ``Beavers: Yes``, ``Doubling Cube: Yes`` and others. Each
game begins ``Game 2. 1-0/7`` (the players' scores, ``*`` on a Crawford
score, the match length; no length: a money session), then one line per
action: the move number, a tab, and a second tab for the second player's
column::

    3\\t\\t62:                  a roll, on a line of its own
    3\\t\\t62: 24/18, 13/11     then the line of its play
    4\\t51: O-O                a roll with no play
    4\\tDouble                 Beaver, Raccoon, Accept, Pass, Resign
    bob wins 2 points.        the end of the game
    11: Automatic double      money play: equal opening dice doubled the cube, written
                              before the opening roll (no tab after the number: gnubg's reading)

and lines of other text (the players' chat), which are kept as comments. As gnubg reads it: a play line
that repeats one already read is passed over (GamesGrid writes some twice),
and the players' columns are gnubg's, the second player (``bob``, two tabs)
first, so that an export writes them as gnubg's does. The score line gives
the first player's score first.

The option lines that are rules become rule tags (``Jacoby``, ``Crawford``,
``Beavers``, ``Cubeless`` for ``Doubling Cube: No``, ``AutoDoubles`` for ``Automatic Doubles``:
no limit is written, so as many as bgcli allows, each one judged as the game records it), the date and the site
(GamesGrid until May 2008, GridGammon after it, as gnubg says) ``EventDate``
and ``Site``; every other line before the first game is kept as a comment.
"""
from __future__ import annotations

import re
from typing import IO, Iterable, Iterator

from bgcli.core.spelling import DIE_PATTERN, recorded_roll
from bgcli.errors import MatchFileError
from bgcli.core.rules import tag_for
from bgcli.formats.loggame import AUTO_DOUBLES, SITE_AUTO_DOUBLES, LogGame
from bgcli.formats.reading import LINE_END, text_lines
from bgcli.match.records import Action, ActionKind, MatchEnd, MatchHeader, MatchPart
from bgcli.match.wording import AS_WRITTEN

# The one tokenizer of the format: every line a saved game holds, by kind.
_GAME = re.compile(r"Game (?P<number>[0-9]+)\. (?P<first>[0-9]+)\*?-(?P<second>[0-9]+)\*?(?:/(?P<length>[0-9]+))?")
_ACTION = re.compile(rf"(?P<move>[0-9]{{1,9}})\t(?P<second>\t)?[ \t]*"
                     rf"(?:(?P<dice>{DIE_PATTERN}{DIE_PATTERN}):[ \t]*(?P<play>.*?)"
                     r"|(?P<verb>double|beaver|raccoon|accept|pass|resign)[a-z]*\b.*?)\s*$", re.IGNORECASE)
# gnubg's automatic double: a number with no tab after it, then these words (GamesGrid writes the doubling
# before the opening roll, on a line of its own)
_AUTO = re.compile(r"[0-9]+[^0-9\t].*Automatic double")
_WINS = re.compile(r"(?P<name>.+?)\s+wins (?P<points>[0-9]+) points?\b.*")
_OPTION = re.compile(r"(?P<name>[A-Za-z][A-Za-z ]*): *(?P<value>.*?)\s*$")
_DATE = re.compile(r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),? (?P<month>[A-Z][a-z]+) "
                   r"(?P<day>[0-9]{1,2}), (?P<year>[0-9]{4})\b")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_DANCE = "O-O"
_DIGITS = 9   # a score, a length or points have at most this many digits, as in a .mat file
_VERBS = {"double": ActionKind.DOUBLE, "beaver": ActionKind.BEAVER, "raccoon": ActionKind.RACCOON,
          "accept": ActionKind.TAKE, "pass": ActionKind.DROP, "resign": ActionKind.RESIGN}
# the option lines that are rules, as the rule settings they say (bgcli.core.rules), and whether the setting says
# the opposite
_RULES = {"Jacoby": ("jacoby", False), "Crawford": ("crawford", False), "Beavers": ("beavers", False),
          "Doubling Cube": ("cubeless", True)}


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: the parts of a binary stream, read line by line."""
    return iter_parts(text_lines(handle, path), path)


def read_text(text: str, path: str = "-") -> Iterator[MatchPart]:
    """The parts of a text, its lines ended where read_stream ends them (reading.LINE_END)."""
    return iter_parts(LINE_END.split(text), path)


class _Game(LogGame):
    """One game as its lines come."""

    def __init__(self, number: int, line: int, scores: tuple[int, int]):
        super().__init__(number, line, scores)
        self.last = ""          # the last line read as a play or a cube action (GamesGrid repeats some)


def iter_parts(lines: Iterable[str], path: str = "-") -> Iterator[MatchPart]:
    """A MatchHeader, the GameRecords and a MatchEnd."""
    players: tuple[str, str] | None = None     # as gnubg's columns: the second player first
    tags: dict[str, str] = {}
    comments: list[tuple[int, str]] = []
    errors: list[MatchFileError] = []
    game: _Game | None = None
    header = False
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r").lstrip("\ufeff") if number == 1 else raw.rstrip("\r")
        if players is None:
            first, sep, second = line.partition(" vs. ")
            if sep and first.strip() and second.strip():
                players = (second.strip(), first.strip())
            elif line.strip():
                comments.append((number, line))
            continue
        found = _GAME.match(line)
        if found:
            if any(len(found[name] or "") > _DIGITS for name in ("number", "first", "second", "length")):
                errors.append(MatchFileError(f"a game number, score or match length of more than {_DIGITS} "
                                             "digits: this game is not read", path, number, 1))
                if game is not None:
                    yield game.record(players)
                game = None
                continue
            if not header:
                header = True
                yield MatchHeader(int(found["length"] or 0), number, tags, path, words=AS_WRITTEN)
            if game is not None:
                yield game.record(players)
            game = _Game(int(found["number"]), number, (int(found["second"]), int(found["first"])))
            continue
        if game is None:
            if not header:
                _option(line, number, tags, comments)
            elif line.strip():
                comments.append((number, line))
            continue
        error = _line(game, line, number, players, path, comments)
        if error is not None:
            errors.append(error)
    if players is None or not header:
        raise MatchFileError("not a GamesGrid saved game: no 'NAME vs. NAME' line followed by a 'Game 1. 0-0/N' "
                             "line", path, 1, 1)
    if game is not None:
        yield game.record(players)
    yield MatchEnd(tuple(errors), tuple(comments))


def _option(line: str, number: int, tags: dict[str, str], comments: list[tuple[int, str]]) -> None:
    """One line before the first game: a rule, the date or the site as a tag; anything else a comment."""
    date = _DATE.match(line)
    option = _OPTION.match(line)
    if date and date["month"] in _MONTHS:
        month = _MONTHS.index(date["month"]) + 1
        tags["EventDate"] = f"{date['year']}.{month:02d}.{int(date['day']):02d}"
        comments.append((number, line))    # the time of day and the rest of the line
    elif line.strip() == "GamesGrid":
        # GamesGrid closed at the end of May 2008; GridGammon, its successor, writes the same name (gnubg)
        tags["Site"] = "GamesGrid" if tags.get("EventDate", "0") < "2008.06" else "GridGammon"
    elif option and option["name"] == "Automatic Doubles" and option["value"].lower() in ("yes", "no"):
        tags[AUTO_DOUBLES.tag] = SITE_AUTO_DOUBLES if option["value"].lower() == "yes" else "0"
    elif option and option["name"] in _RULES and option["value"].lower() in ("yes", "no"):
        field, opposite = _RULES[option["name"]]
        tags.update([tag_for(field, (option["value"].lower() == "yes") != opposite)])
    elif line.strip():
        comments.append((number, line))


def _line(game: _Game, line: str, number: int, players: tuple[str, str], path: str,
          comments: list[tuple[int, str]]) -> MatchFileError | None:
    """Adds what one line of a game says; the error when it says nothing readable."""
    if game.over:
        if line.strip():
            return MatchFileError(f"{line.strip()[:60]!r} after the end of the game", path, number, 1)
        return None
    won = _WINS.match(line)
    if won and " wins " in line:
        name = won["name"].strip()
        if name not in players or len(won["points"]) > _DIGITS:
            return MatchFileError(f"cannot read the result {line.strip()[:60]!r}: expected 'NAME wins N points' "
                                  f"naming {players[1]} or {players[0]}", path, number, 1)
        game.end(Action(number, 1, None, players.index(name), ActionKind.WIN, points=int(won["points"]),
                        raw=line.strip()))
        return None
    found = _ACTION.match(line)
    if found is None:
        if _AUTO.match(line):
            game.auto_double(number, line.strip())
            return None
        if line.strip() and not line[:1].isdigit():
            comments.append((number, line))   # GamesGrid's chat (gnubg keeps it as a note on the next move)
            return None
        if line.strip():
            return MatchFileError(f"cannot read {line.strip()[:60]!r}: expected a move number, a tab, then a roll "
                                  "('62:'), a play ('62: 24/18, 13/11'), or Double, Accept, Pass, Resign", path,
                                  number, 1)
        return None
    side = 0 if found["second"] else 1
    move = int(found["move"])
    text = line.strip()
    if found["dice"]:
        dice = recorded_roll(found["dice"])
        play = found["play"]
        if game.roll is not None:
            if not play:
                return None                     # the roll written again
            rolled_side, rolled, _ = game.roll
            game.roll = None
            game.last = text
            if play.lower().startswith("resign"):
                game.actions.append(Action(number, 1, move, rolled_side, ActionKind.RESIGN, rolled, raw=text))
            else:
                game.actions.append(Action(number, line.index(":") + 2, move, rolled_side, ActionKind.MOVE, rolled,
                                           play, raw=text))
            return None
        if play == _DANCE:
            if text != game.last:
                game.actions.append(Action(number, 1, move, side, ActionKind.DANCE, dice, raw=text))
            game.last = text
            return None
        if not play:
            game.roll = (side, dice, number)    # type: ignore[assignment]
            return None
        if play.lower().startswith("resign"):
            game.actions.append(Action(number, 1, move, side, ActionKind.RESIGN, dice, raw=text))
            return None
        if text == game.last:
            return None                         # a play written twice
        return MatchFileError(f"a play with no roll line before it: {text[:60]!r}", path, number, 1)
    kind = _VERBS[found["verb"].lower()]
    if kind in (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON) and text == game.last:
        return None                             # a cube action written twice
    game.last = text
    resigned_roll = None
    if kind == ActionKind.RESIGN and game.roll is not None and game.roll[0] == side:
        resigned_roll = game.roll[1]            # rolled, then resigned
        game.roll = None
    game.actions.append(Action(number, 1, move, side, kind, resigned_roll, raw=text))
    return None
