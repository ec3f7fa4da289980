"""bgammon.org's replay files (``.match``: the server's and its Boxcars
client's download of a match), read as the matches they record.

The server's own specification (``REPLAY.md`` of
https://code.rocket9labs.com/tslocum/bgammon, read in its GitHub mirror
tslocum/bgammon) and the client's reader of it: an index of the games, one
line each (``bgammon-replay 00000024``: the byte where a game starts), then
each game, its first line its metadata, then one event a line::

    i 1702738670 ann bob 3 0 0 1 1 0   started (Unix time), players, match length,
                                       their scores, the winner (1, 2; 0: none),
                                       his points, the variant (0 backgammon,
                                       1 acey-deucey, 2 tabula)
    1 r 5-3 13/8 24/21                 player 1 rolls, the higher die first, and plays
    2 r 6-1 1/7 1/2                    every step as player 1 numbers the points
    2 r 4-4                            a roll that cannot be played
    1 d 2 1                            player 1 doubles to 2; taken (0: declined)
    2 t                                player 2 resigns (or leaves the game)

Files written before the timestamp was added have no time in the ``i`` line
(nine fields). Each step is one die (``24/20 20/16``), no ``*`` for a hit;
player 2's points are player 1's numbers (``bar/3``, ``22/off``), read here
as player 2 numbers them (``bar/22``, ``3/off``). Player 1 is the left
column. The result is the ``i`` line's winner and points, a Wins line after
the game's last event. The server plays no Crawford rule (its game has no
Crawford state), no beavers and no automatic doubles: the header says
``Crawford "Off"``. A game of acey-deucey or tabula is not replayed: one
error at its ``i`` line, and the game is skipped.
"""
from __future__ import annotations

import re
import time
from typing import IO, Iterable, Iterator, NamedTuple

from bgcli.core.position import other_side
from bgcli.core.rules import tag_for
from bgcli.core.spelling import BAR_WORDS, DIE_PATTERN, OFF_WORDS, small_number
from bgcli.errors import MatchFileError
from bgcli.formats.loggame import LogGame
from bgcli.formats.reading import LINE_END, text_lines
from bgcli.match.records import Action, ActionKind, GameRecord, MatchEnd, MatchHeader, MatchPart
from bgcli.match.wording import AS_WRITTEN
from bgcli.output import quote

# The one tokenizer of the format: every line a replay holds, by kind.
_INDEX = re.compile(r"bgammon-replay [0-9]{8}\s*$")
_ROLL = re.compile(rf"(?P<first>{DIE_PATTERN})-(?P<second>{DIE_PATTERN})")
_STEP = re.compile(r"(?P<start>[^/\s]{1,3})/(?P<end>[^/\s]{1,3})")
_VARIANTS = {"0": "", "1": "acey-deucey", "2": "tabula"}
_PLAYERS = ("1", "2")
_DIGITS = 9   # a length, a score or points have at most this many digits, as in a .mat file
_HOME = "home"   # the client's other word for off (bgammon.ParseSpace)
SITE = "bgammon.org"


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: the parts of a binary stream, read line by line."""
    return iter_parts(text_lines(handle, path), path)


def read_text(text: str, path: str = "-") -> Iterator[MatchPart]:
    """The parts of a text, its lines ended where read_stream ends them (reading.LINE_END)."""
    return iter_parts(LINE_END.split(text), path)


class _Game(LogGame):
    """A game being read, with the result its ``i`` line gives (written after its events)."""

    def __init__(self, number: int, line: int, scores: tuple[int, int], result: Action | None):
        super().__init__(number, line, scores)
        self.result = result
        self.turns = [0, 0]   # the rolls of each player so far: a roll's move number, as a .mat row's

    def finish(self, names: tuple[str, str]) -> GameRecord:
        if self.result is not None:
            self.end(self.result)
        return self.record(names)


def iter_parts(lines: Iterable[str], path: str = "-") -> Iterator[MatchPart]:
    """A MatchHeader, the GameRecords and a MatchEnd."""
    errors: list[MatchFileError] = []
    comments: list[tuple[int, str]] = []
    game: _Game | None = None
    skipping = False     # in a game of a variant not replayed
    header: MatchHeader | None = None
    names = ("Player 1", "Player 2")
    indexed = games = 0
    index_line = 0
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r").lstrip("\ufeff") if number == 1 else raw.rstrip("\r")
        fields = line.split()
        if not fields:
            continue
        if _INDEX.match(line):
            if header is None:
                indexed += 1
                index_line = index_line or number
                continue
            errors.append(MatchFileError("an index line after the first game: the index is the file's "
                                         "first lines", path, number, 1))
            continue
        if fields[0] == "i":
            info = _info(fields, line, number, path)
            if isinstance(info, MatchFileError):
                errors.append(info)
                skipping = True
                continue
            if game is not None:
                yield game.finish(names)
                game = None
            games += 1
            length, scores, result, variant, started = info
            if header is None:
                tags = {"Site": SITE, **dict([tag_for("crawford", False)])}
                if started is not None:
                    tags["EventDate"] = time.strftime("%Y.%m.%d", started)
                    tags["EventTime"] = time.strftime("%H.%M", started)
                header = MatchHeader(length, number, tags, path, words=AS_WRITTEN)
                yield header
            elif length != header.length:
                errors.append(MatchFileError(f"game {games} is of a {length}-point match, the first game of a "
                                             f"{header.length}-point match", path, number, 1))
            names = (fields[-8], fields[-7])
            skipping = bool(variant)
            if skipping:
                errors.append(MatchFileError(f"game {games} is {variant}, a variant bgcli does not replay: the "
                                             "game is skipped", path, number, 1))
                continue
            game = _Game(games, number, scores, result)
            continue
        if skipping:
            continue
        if game is None:
            errors.append(MatchFileError(f"{_quote(line)} before the first game's 'i' line", path, number, 1))
            continue
        error = _event(game, fields, line, number, path)
        if error is not None:
            errors.append(error)
    if header is None:
        # a game line that did not read says why the file holds no game
        raise errors[0] if errors else MatchFileError("not a bgammon.org replay: no game ('i' line) in it", path,
                                                      index_line or 1, 1)
    if game is not None:
        yield game.finish(names)
    if indexed and indexed != games:
        errors.append(MatchFileError(f"the index lists {indexed} game{'s' if indexed != 1 else ''}, the file "
                                     f"holds {games}", path, index_line, 1))
    yield MatchEnd(tuple(errors), tuple(comments))


class _Info(NamedTuple):
    """What a game's ``i`` line says."""

    length: int
    scores: tuple[int, int]
    result: Action | None     # the winner's Wins line; None: no winner written
    variant: str              # its name, '' for backgammon
    started: time.struct_time | None


def _info(fields: list[str], line: str, number: int, path: str) -> _Info | MatchFileError:
    """A game's ``i`` line: the match length, the scores, the result, the variant's name ('' for backgammon)
    and when it started; the error when it does not read."""
    if len(fields) not in (9, 10):
        return MatchFileError(f"cannot read the game line {_quote(line)}: expected 'i', the start time, the two "
                              "players, the match length, their scores, the winner, his points and the variant",
                              path, number, 1)
    started = None
    numbers = fields[-6:]
    if not all(field.isascii() and field.isdigit() and len(field) <= _DIGITS for field in numbers):
        return MatchFileError(f"cannot read the game line {_quote(line)}: the length, scores, winner, points "
                              f"and variant are numbers of at most {_DIGITS} digits", path, number, 1)
    if len(fields) == 10:
        stamp = fields[1]
        if not (stamp.isascii() and stamp.isdigit() and len(stamp) <= 12):
            return MatchFileError(f"cannot read the start time {_quote(stamp)}: expected seconds since 1970",
                                  path, number, line.index(stamp) + 1)
        started = time.gmtime(int(stamp))
    length, first, second, winner, points, variant = numbers
    if variant not in _VARIANTS:
        return MatchFileError(f"the variant {_quote(variant)} is none bgammon.org plays (0 backgammon, "
                              "1 acey-deucey, 2 tabula)", path, number, len(line.rstrip()) - len(variant) + 1)
    if winner not in ("0", *_PLAYERS):
        return MatchFileError(f"the winner {_quote(winner)} is not 1, 2 or 0 (none)", path, number, 1)
    result = None
    if winner != "0":
        result = Action(number, 1, None, int(winner) - 1, ActionKind.WIN, points=int(points), raw=line.strip())
    return _Info(int(length), (int(first), int(second)), result, _VARIANTS[variant], started)


def _event(game: _Game, fields: list[str], line: str, number: int, path: str) -> MatchFileError | None:
    """Adds what one event line says; the error when it says nothing readable."""
    text = line.strip()
    if fields[0] not in _PLAYERS or len(fields) < 2 or fields[1] not in ("r", "d", "t"):
        return MatchFileError(f"cannot read the event {_quote(line)}: expected the player (1 or 2), then "
                              "'r' and a roll, 'd' and a double, or 't'", path, number, 1)
    side = int(fields[0]) - 1
    kind = fields[1]
    if kind == "t":
        game.actions.append(Action(number, 1, game.turns[side] or None, side, ActionKind.RESIGN, raw=text))
        return None
    if kind == "d":
        if len(fields) != 4 or small_number(fields[2]) is None or fields[3] not in ("0", "1"):
            return MatchFileError(f"cannot read the double {_quote(line)}: expected the cube's new value, then 1 "
                                  "(taken) or 0 (declined)", path, number, 1)
        move = game.turns[side] + 1
        game.actions.append(Action(number, 1, move, side, ActionKind.DOUBLE, cube=int(fields[2]), raw=text))
        answer = ActionKind.TAKE if fields[3] == "1" else ActionKind.DROP
        game.actions.append(Action(number, line.rindex(fields[3]) + 1, move, 1 - side, answer, raw=text))
        return None
    rolled = _ROLL.fullmatch(fields[2]) if len(fields) > 2 else None
    if rolled is None:
        return MatchFileError(f"cannot read the roll in {_quote(line)}: expected two dice, '5-3'", path, number, 1)
    game.turns[side] += 1
    dice = (int(rolled["first"]), int(rolled["second"]))
    steps = fields[3:]
    if not steps:
        game.actions.append(Action(number, 1, game.turns[side], side, ActionKind.DANCE, dice, raw=text))
        return None
    own = []
    for step in steps:
        found = _STEP.fullmatch(step)
        start = end = None
        if found is not None:
            start, end = _point(found["start"], side), _point(found["end"], side)
        if start is None or end is None:
            return MatchFileError(f"cannot read the step {_quote(step)}: expected two points (1 to 24, bar or "
                                  "off) as player 1 numbers them, '13/8'", path, number, line.index(step) + 1)
        own.append(f"{start}/{end}")
    column = line.index(steps[0]) + 1
    game.actions.append(Action(number, column, game.turns[side], side, ActionKind.MOVE, dice, " ".join(own),
                               raw=text))
    return None


def _point(word: str, side: int) -> str | None:
    """One end of a step, as the mover numbers it (player 2's points are written as player 1 numbers them)."""
    lower = word.lower()
    if lower in BAR_WORDS:
        return BAR_WORDS[0]
    if lower in OFF_WORDS or lower == _HOME:
        return OFF_WORDS[0]
    point = small_number(word)
    if point is None or not 1 <= point <= 24:
        return None
    return str(other_side(point) if side else point)


def _quote(text: str) -> str:
    return quote(text.strip())   # a line's own blanks are not shown
