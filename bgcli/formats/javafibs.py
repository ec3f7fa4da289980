"""JavaFIBS's saved matches (``.match``: the FIBS client's own record of a
match played on FIBS, "JavaFIBS internal match representation"), read as
the matches they record.

Read as Gibbon, another FIBS client, reads and writes them
(https://github.com/gitGNU/gnu_gibbon, ``src/gibbon-java-fibs-writer.c`` and
its sample ``src/complete.match``): the prolog line, then one record a line,
``CODE:NAME:DATA``, NAME ``You`` (the file's owner) or the opponent::

    JavaFIBS internal match representation v1.1
    8:bob:7            the opponent and the match length (9999: unlimited)
    13:bob:            a game starts
    6:You:bob          its players
    11:You:4 2         the opening roll (0: any other roll)
    1:You:17-21 19-21  its play, one step a die; 15: no play
    2:bob:             a double; 4: its take, 5: its drop
    3:You:2            a resignation offered; 12: rejected
    7:bob:2            the game's winner and his points
    14:bob-2:ann-0     the score after it, the winner first (here the owner's own name)
    9:bob:7            the match's winner

The points are the FIBS board's: one player moves from 24 down to 1 (his own
numbers), the other from 1 up to 24 (his own point p written 25 - p), and
who moves which way changes from game to game: each game's direction is read
from its steps (``5-1``: down; ``bar-2``: entering at 1..6, up; ``22-off``:
up). The owner is the left column, named as the score lines name him when
they do.
"""
from __future__ import annotations

import re
from typing import IO, Iterable, Iterator

from bgcli.core.position import in_home, other_side
from bgcli.core.spelling import BAR_WORDS, DIE_PATTERN, OFF_WORDS, small_number
from bgcli.errors import MatchFileError
from bgcli.formats.loggame import LogGame
from bgcli.formats.reading import LINE_END, text_lines
from bgcli.match.records import Action, ActionKind, MatchEnd, MatchHeader, MatchPart
from bgcli.match.wording import AS_WRITTEN
from bgcli.output import quote

PROLOG = "JavaFIBS internal match representation"
OWNER = "You"
UNLIMITED = 9999     # the length JavaFIBS gives a match without one
SITE = "FIBS"

# The one tokenizer of the format: every line a saved match holds.
_RECORD = re.compile(r"(?P<code>[0-9]{1,3}):(?P<name>[^:]*):(?P<data>.*?)\s*$")
_ROLL = re.compile(rf"(?P<first>{DIE_PATTERN}) (?P<second>{DIE_PATTERN})")
_STEP = re.compile(r"(?P<start>bar|[0-9]{1,2})-(?P<end>off|[0-9]{1,2})", re.IGNORECASE)
_SCORE = re.compile(r"(?P<first>.+)-(?P<one>[0-9]{1,9}):(?P<second>.+)-(?P<two>[0-9]{1,9})")
_ROLLS, _PLAY, _DOUBLE, _RESIGN, _TAKE, _DROP = 0, 1, 2, 3, 4, 5
_PLAYERS, _WIN, _HEADER, _MATCH_WON, _OPENING, _REJECT = 6, 7, 8, 9, 11, 12
_GAME, _SCORES, _NO_PLAY = 13, 14, 15


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: the parts of a binary stream (a saved match is small: read whole, since the
    owner's name is in the score lines after the first game)."""
    return iter_parts(list(text_lines(handle, path)), path)


def read_text(text: str, path: str = "-") -> Iterator[MatchPart]:
    """The parts of a text, its lines ended where read_stream ends them (reading.LINE_END)."""
    return iter_parts(LINE_END.split(text), path)


def _downward(play: str) -> bool | None:
    """Whether the steps ``play`` are of a player moving from 24 down to 1; None when they do not say. A
    checker enters in the other side's home board and bears off from its own (bgcli.core.position.in_home)."""
    for found in _STEP.finditer(play):
        start, end = found["start"].lower(), found["end"].lower()
        if start in BAR_WORDS or end in OFF_WORDS:
            point = small_number(end if start in BAR_WORDS else start)
            if point is None or not 1 <= point <= 24:
                continue
            low_end = in_home(point)
            if low_end or in_home(other_side(point)):
                return low_end == (end in OFF_WORDS)
        elif start != end:
            return int(start) > int(end)
    return None


def _own(play: str, downward: bool) -> str | None:
    """The steps ``play`` as their player numbers the points; None when a step does not read."""
    steps = []
    for word in play.split():
        found = _STEP.fullmatch(word)
        if found is None:
            return None
        ends = []
        for part in (found["start"].lower(), found["end"].lower()):
            if part in BAR_WORDS or part in OFF_WORDS:
                ends.append(part)
                continue
            point = small_number(part)
            if point is None or not 1 <= point <= 24:
                return None
            ends.append(str(point if downward else other_side(point)))
        steps.append("/".join(ends))
    return " ".join(steps)


class _Game(LogGame):
    """A game being read: its lines kept until the direction of each player is known (from any step)."""

    def __init__(self, number: int, line: int, scores: tuple[int, int]):
        super().__init__(number, line, scores)
        self.downward: list[bool | None] = [None, None]
        self.offer: Action | None = None   # a resignation offered, not yet accepted or rejected


def iter_parts(lines: Iterable[str], path: str = "-") -> Iterator[MatchPart]:
    """A MatchHeader, the GameRecords and a MatchEnd."""
    rows = [(number, raw.rstrip("\r").lstrip("\ufeff") if number == 1 else raw.rstrip("\r"))
            for number, raw in enumerate(lines, 1)]
    first = next(((n, line) for n, line in rows if line.strip()), (1, ""))
    if not first[1].startswith(PROLOG):
        raise MatchFileError(f"not a JavaFIBS match: the first line is not '{PROLOG} v1.1'", path, first[0], 1)
    owner, opponent, length = OWNER, "", 0
    errors: list[MatchFileError] = []
    comments: list[tuple[int, str]] = []
    records = []
    for number, line in rows[first[0]:]:
        if not line.strip():
            continue
        found = _RECORD.match(line.strip())
        if found is None:
            errors.append(MatchFileError(f"cannot read {_quote(line)}: expected a record 'CODE:NAME:DATA', "
                                         "'1:You:13-7 8-7'", path, number, 1))
            continue
        code, name, data = int(found["code"]), found["name"], found["data"].strip()
        if code == _HEADER:
            opponent = name
            value = small_number(data) if data.isdigit() and len(data) <= 9 else None
            length = 0 if value is None or value == UNLIMITED else value
            if value is None:
                errors.append(MatchFileError(f"the match length {_quote(data)} is not a number of at most 9 digits",
                                             path, number, 1))
        elif code == _SCORES:
            score = _SCORE.fullmatch(f"{name}:{data}")
            if score is not None:
                names = {score["first"], score["second"]}
                if opponent in names and len(names) == 2:
                    owner = (names - {opponent}).pop()
        records.append((number, line, code, name, data))
    if not opponent:
        raise MatchFileError("not a JavaFIBS match: no '8:NAME:LENGTH' line names the opponent and the length",
                             path, first[0], 1)
    players = (owner, opponent)
    yield MatchHeader(length, first[0], {"Site": SITE}, path, words=AS_WRITTEN)
    game: _Game | None = None
    scores = [0, 0]
    games = 0
    pending: list[tuple[int, str, int, int, str]] = []   # a game's records, read once its directions are known

    def finish() -> Iterator[MatchPart]:
        assert game is not None
        for number, line, code, side, data in pending:
            error = _event(game, number, line, code, side, data, path, comments)
            if error is not None:
                errors.append(error)
        pending.clear()
        yield game.record(players)

    for number, line, code, name, data in records:
        if code == _GAME:
            if game is not None:
                yield from finish()
            games += 1
            game = _Game(games, number, (scores[0], scores[1]))
            continue
        if code in (_HEADER, _PLAYERS, _MATCH_WON):
            comments.append((number, line))
            continue
        if code == _SCORES:
            score = _SCORE.fullmatch(f"{name}:{data}")
            if score is None:
                errors.append(MatchFileError(f"cannot read the score {_quote(line)}: expected "
                                             "'14:WINNER-N:LOSER-N'", path, number, 1))
                continue
            by_name = {score["first"]: int(score["one"]), score["second"]: int(score["two"])}
            scores = [by_name.get(owner, scores[0]), by_name.get(opponent, scores[1])]
            continue
        if game is None:
            errors.append(MatchFileError(f"{_quote(line)} before the first game's '13:' line", path, number, 1))
            continue
        if name not in (OWNER, opponent):
            errors.append(MatchFileError(f"{_quote(line)} names {name!r}, who is neither 'You' nor the opponent "
                                         f"{opponent!r}", path, number, 1))
            continue
        side = 0 if name == OWNER else 1
        if code == _PLAY and game.downward[side] is None:
            downward = _downward(data)
            if downward is not None:
                game.downward = [downward, not downward] if side == 0 else [not downward, downward]
        if code == _WIN and name in (OWNER, opponent):
            scores[side] += int(data) if data.isdigit() and len(data) <= 9 else 0
        pending.append((number, line, code, side, data))
    if game is not None:
        yield from finish()
    elif not games:
        errors.append(MatchFileError("no game in it (no '13:' line)", path, first[0], 1))
    yield MatchEnd(tuple(errors), tuple(comments))


def _event(game: _Game, number: int, line: int | str, code: int, side: int, data: str, path: str,
           comments: list[tuple[int, str]]) -> MatchFileError | None:
    """Adds what one record of a game says; the error when it says nothing readable."""
    text = str(line).strip()
    if game.offer is not None and code not in (_WIN, _REJECT):
        game.offer = None     # an offer that nothing answered: play went on
    if code in (_ROLLS, _OPENING):
        rolled = _ROLL.fullmatch(data)
        game.unread_roll = rolled is None
        if rolled is None:
            return MatchFileError(f"cannot read the roll {_quote(text)}: expected two dice, '4 2'", path, number, 1)
        game.roll = (side, (int(rolled["first"]), int(rolled["second"])), number)
        return None
    if code in (_PLAY, _NO_PLAY):
        taken = game.roll_played(text, path, number)
        if not isinstance(taken, tuple):
            return taken
        _, dice = taken
        if code == _NO_PLAY or not data:
            game.actions.append(Action(number, 1, None, side, ActionKind.DANCE, dice, raw=text))
            return None
        downward = game.downward[side]
        own = _own(data, True if downward is None else downward)
        if own is None:
            return MatchFileError(f"cannot read the play {_quote(data)}: expected steps '13-7', 'bar-22', '5-off'",
                                  path, number, text.index(data) + 1 if data in text else 1)
        game.actions.append(Action(number, text.index(data) + 1, None, side, ActionKind.MOVE, dice, own, raw=text))
        return None
    if code == _DOUBLE:
        game.actions.append(Action(number, 1, None, side, ActionKind.DOUBLE, raw=text))
    elif code == _TAKE:
        game.actions.append(Action(number, 1, None, side, ActionKind.TAKE, raw=text))
    elif code == _DROP:
        game.actions.append(Action(number, 1, None, side, ActionKind.DROP, raw=text))
    elif code == _RESIGN:
        game.offer = Action(number, 1, None, side, ActionKind.RESIGN, raw=text)
    elif code == _REJECT:
        game.offer = None
        comments.append((number, text))
    elif code == _WIN:
        if not (data.isdigit() and len(data) <= 9):
            return MatchFileError(f"cannot read the result {_quote(text)}: expected the winner's points, "
                                  "'7:You:2'", path, number, 1)
        if game.offer is not None and game.offer.side != side:
            game.actions.append(game.offer)
        game.offer = None
        game.end(Action(number, 1, None, side, ActionKind.WIN, points=int(data), raw=text))
    else:
        comments.append((number, text))    # a record of a kind no sample holds: nothing to replay
    return None


def _quote(text: str) -> str:
    return quote(text.strip())   # a line's own blanks are not shown
