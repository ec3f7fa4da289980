"""FIBS's ``oldmoves`` logs (GNU Backgammon's ``import oldmoves``), read as
the matches they record.

The First Internet Backgammon Server printed a game's moves with its
``oldmoves`` command, and its players saved them; the big historical
archives are such logs. Each game is a ``Score is 2-1 in a 5 point match.``
line (``in an unlimited match``, or no length: a money session), the
players' line ``ann is X - bob is O``, then one line per action, each named
by the player's letter::

    X: (6 4) 1-7 12-16        a roll and its play
    O: (3 3) can't move
    X: doubles
    O: accepts                (rejects: a pass)
    O: wants to resign
    X: wins 2 points

and a blank line after the game. The score line gives X's score first.

FIBS numbers the points from one end of the board, so one player's plays
climb (``1-7`` is that player's 24/18): a play whose first step climbs is
turned round (``WrittenPlay.mirrored``), as gnubg's import does; the play
text itself is read by the notation (``bgcli.core.notation``). A log may
name the players in the other order in a later game (``bob is X - ann is
O``): the columns stay those of the first game. Other players, or another
length, begin another match. Lines outside the games are kept as comments.
"""
from __future__ import annotations

import re
from typing import IO, Iterable, Iterator

from bgcli.core.notation import parse_play_text
from bgcli.core.position import BAR, OFF, in_home, other_side
from bgcli.core.spelling import DIE_PATTERN, recorded_roll
from bgcli.errors import InvalidPlayError, MatchFileError
from bgcli.formats.reading import LINE_END, text_lines
from bgcli.match.records import Action, ActionKind, GameRecord, MatchEnd, MatchHeader, MatchPart
from bgcli.match.wording import AS_WRITTEN

# The one tokenizer of the format: every line an oldmoves log holds, by kind.
# (gnubg finds "Score is " anywhere in a line, as a client's log may prefix it.)
_SCORE = re.compile(r".*?Score is (?P<x>[0-9]+)-(?P<o>[0-9]+)"
                    r"(?: in an? (?:(?P<length>[0-9]+) point match|unlimited match))?")
_DIGITS = 9   # a score or a length has at most this many digits, as in a .mat file
_PLAYERS = " is X - "     # "ann is X - bob is O": split on the words, not by a pattern (names hold anything)
_ACTION = re.compile(rf"(?P<side>[XO]): (?:\((?P<dice>{DIE_PATTERN} {DIE_PATTERN})\) (?P<play>.*)"
                     r"|(?P<verb>doubles|accepts|rejects|wants to resign)"
                     r"|wins (?P<points>[0-9]{1,9}) points?(?P<and_match> and the match)?\.?)\s*$", re.IGNORECASE)
_DANCE = "can't move"
_VERBS = {"doubles": ActionKind.DOUBLE, "accepts": ActionKind.TAKE, "rejects": ActionKind.DROP,
          "wants to resign": ActionKind.RESIGN}
_PLAY_COLUMN = len("X: (6 4) ") + 1


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: the parts of a binary stream, read line by line."""
    return iter_parts(text_lines(handle, path), path)


def read_text(text: str, path: str = "-") -> Iterator[MatchPart]:
    """The parts of a text, its lines ended where read_stream ends them (reading.LINE_END)."""
    return iter_parts(LINE_END.split(text), path)


class _Game:
    """One game as its lines come."""

    def __init__(self, line: int, x_side: int, scores: tuple[int, int]):
        self.line = line
        self.x_side = x_side           # the column of the player the lines call X
        self.scores = scores
        self.actions: list[Action] = []
        self.resigned = False          # an "accepts" or "rejects" next answers the resignation, not a double


def iter_parts(lines: Iterable[str], path: str = "-") -> Iterator[MatchPart]:
    """A MatchHeader, the GameRecords and a MatchEnd for each match of the log."""
    players: tuple[str, str] | None = None
    length = 0
    number = 0                  # the game's number in its match
    comments: list[tuple[int, str]] = []
    errors: list[MatchFileError] = []
    game: _Game | None = None
    score: tuple[int, int, int, int] | None = None   # a score line waiting for its players' line: x, o, length, line
    for line_number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r").lstrip("\ufeff") if line_number == 1 else raw.rstrip("\r")
        found = _SCORE.match(line)
        if found:
            if game is not None:
                yield _record(game, number, players)
                game = None
            if any(len(found[name] or "") > _DIGITS for name in ("x", "o", "length")):
                errors.append(MatchFileError(f"a score or match length of more than {_DIGITS} digits: "
                                             "this game is not read", path, line_number, 1))
                continue
            score = (int(found["x"]), int(found["o"]), int(found["length"] or 0), line_number)
            continue
        if score is not None:
            names = _players(line)
            if names is None:
                errors.append(MatchFileError(f"expected the players' line 'NAME is X - NAME is O' after the score, "
                                             f"not {line.strip()[:60]!r}", path, line_number, 1))
                score = None
                continue
            x_score, o_score, game_length, score_line = score
            score = None
            if players is None or set(names) != set(players) or game_length != length:
                if players is not None:
                    yield MatchEnd(tuple(errors), tuple(comments))
                    errors, comments = [], []
                players, length, number = names, game_length, 0
                yield MatchHeader(length, score_line, {}, path, words=AS_WRITTEN)
            x_side = players.index(names[0])
            scores = (x_score, o_score) if x_side == 0 else (o_score, x_score)
            number += 1
            game = _Game(score_line, x_side, scores)
            continue
        if game is None:
            if line.strip():
                comments.append((line_number, line))
            continue
        if not line.strip():
            yield _record(game, number, players)
            game = None
            continue
        error = _action(game, line, line_number, path)
        if error is not None:
            errors.append(error)
    if game is not None:
        yield _record(game, number, players)
    if players is None:
        if errors:
            raise errors[0]
        raise MatchFileError("not a FIBS oldmoves log: no 'Score is N-N in a N point match' line followed by "
                             "'NAME is X - NAME is O'", path, 1, 1)
    yield MatchEnd(tuple(errors), tuple(comments))


def _players(line: str) -> tuple[str, str] | None:
    """X's and O's names from ``ann is X - bob is O``; None when the line is not one."""
    x, sep, rest = line.partition(_PLAYERS)
    o = rest.rstrip()
    if not sep or not o.endswith(" is O"):
        return None
    x, o = x.strip(), o[:-len(" is O")].strip()
    return (x, o) if x and o and x != o else None


def _record(game: _Game, number: int, players: tuple[str, str] | None) -> GameRecord:
    assert players is not None
    return GameRecord(number, players, game.scores, tuple(game.actions), game.line)


def _action(game: _Game, line: str, number: int, path: str) -> MatchFileError | None:
    """Adds the action of one line to the game; the error when the line is none."""
    found = _ACTION.match(line)
    if found is None:
        return MatchFileError(f"cannot read {line.strip()[:60]!r}: expected 'X: (6 4) 24-18 13-9', 'X: doubles', "
                              "'O: accepts', 'O: rejects', 'O: wants to resign' or 'X: wins N points'", path, number, 1)
    side = game.x_side if found["side"].upper() == "X" else 1 - game.x_side
    text = line.strip()
    if found["dice"]:
        dice = recorded_roll(found["dice"].replace(" ", ""))
        play = found["play"].strip()
        if play.lower() == _DANCE:
            game.actions.append(Action(number, 1, None, side, ActionKind.DANCE, dice, "", raw=text))
        else:
            game.actions.append(Action(number, _PLAY_COLUMN, None, side, ActionKind.MOVE, dice, _numbered(play),
                                       raw=text))
        return None
    if found["points"]:
        game.actions.append(Action(number, 1, None, side, ActionKind.WIN, points=int(found["points"]),
                                   and_match=bool(found["and_match"]), raw=text))
        return None
    kind = _VERBS[found["verb"].lower()]
    if kind == ActionKind.RESIGN:
        game.resigned = True
    elif game.resigned and kind in (ActionKind.TAKE, ActionKind.DROP):
        game.resigned = False
        if kind == ActionKind.DROP:   # the resignation refused: the game goes on as if it were never offered
            game.actions = [a for a in game.actions if a.kind != ActionKind.RESIGN]
        return None
    game.actions.append(Action(number, 1, None, side, kind, raw=text))
    return None


def _numbered(play: str) -> str:
    """FIBS's play text in the mover's numbering: a play whose first step
    climbs (``1-7``, ``bar-3``, ``20-off``) is numbered from the other end
    (gnubg's rule, import.c ``isAscending``). Text that is not a play is
    given as written: the replay says what is wrong with it."""
    try:
        written = parse_play_text(play)
    except InvalidPlayError:
        return play
    hops = written.hops()
    if not hops:
        return play
    start, end = hops[0]
    if start == BAR:
        climbs = in_home(end)
    elif end == OFF:
        climbs = in_home(other_side(start))
    else:
        climbs = start < end
    return str(written.mirrored() if climbs else written)
