"""GNU Backgammon's ``export match text``: the board and the analysis of
every move, read as the match it records.

gnubg writes one file per game. Each begins with ``The score (after N
games) is: A 1, B 0 (match to 5 points)`` (a money session has no match
length); then come the match information, and for every decision a
``Move number K:  NAME to play 64`` block (or ``NAME on roll, cube
decision?``, ``NAME doubles to 2``) with a board, the action taken on a line
of its own (``* NAME moves 8/5* 6/5``, ``* NAME cannot move``, ``* NAME
doubles``, ``* NAME accepts``, ``* NAME rejects``, ``* NAME resigns ...``)
and gnubg's analysis, which is skipped; the game ends with ``NAME wins N
points``. The players' columns are the order of the score line.

The match information's ratings (``ann's rating: 1600``, first) are the
tags ``Player 1 Elo`` and ``Player 2 Elo``; its ``Comments:`` (lines up to the next blank) is the
match's comment, where gnubg's import keeps the .mat tags it has no field for,
one ``[ClockType "Speed 168/6"]`` a line: read back as those tags.

The registry knows such a file by its first line (gnubg names it .txt, as
the sites name their .mat exports), whatever its suffix.
The file is one game of a match by design: the record says so
(``MatchHeader.whole`` False), so that its end is not a match cut short.
"""
from __future__ import annotations

import re
from typing import IO, Iterable, Iterator

from bgcli.core.spelling import DIE_PATTERN, recorded_roll
from bgcli.errors import MatchFileError
from bgcli.formats.mat import tag_of
from bgcli.formats.reading import LINE_END, page_breaks_as_blanks, text_lines, text_of
from bgcli.match.records import Action, ActionKind, GameRecord, MatchEnd, MatchHeader, MatchPart
from bgcli.match.wording import AS_WRITTEN

# The first player's name ends at the first " N, " (taken in a lookahead, which is never re-entered, then
# matched again by reference: an atomic group Python 3.10 lacks), and so does the trailing ", Crawford
# game": else a line of many "a 1, " made the two lazy names try every split, in quadratic time (20 kB, 2 s).
_SCORE = re.compile(r"The score \(after (?P<games>[0-9]{1,9}) games?\) is: "
                    r"(?=(?P<first>.+?) (?P<first_score>[0-9]{1,9}), )(?P=first) (?P=first_score), "
                    r"(?P<second>.+?) (?P<second_score>[0-9]{1,9})(?: \(match to (?P<length>[0-9]{1,9}) points?\))?"
                    r"(?=(?P<note>(?:, [\w -]+)?))(?P=note)\s*$")
_MOVE_NUMBER = re.compile(rf"Move number [0-9]{{1,9}}: +(.+?) to play ({DIE_PATTERN}{DIE_PATTERN})\s*$")
_WINS = re.compile(r"(.+) wins ([0-9]{1,9}) points?( and the match)?\s*$")
# the value taken whole and stripped after: a lazy value before \s*$ backtracks in quadratic time over a run of
# blanks (a 100 kB line took 44 s)
_INFO = re.compile(r"(Date|Place|Event|Round|Annotator|Comments?): *(.*)")
_TAGS = {"Place": "Site", "Date": "EventDate"}   # gnubg's words for the .mat tags
# a player's rating, written first (gnubg has one from an SGF's WR/BR): the .mat tags "Player 1 Elo", "Player 2 Elo"
_RATING = re.compile(r"(.+)'s rating: *(.*?)\s*$")
_NO_VALUE = "n/a"   # gnubg before 1.0 wrote every field, "Event: n/a" for one the match lacks


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: the parts of a binary stream, read line by line."""
    return iter_parts(text_lines(handle, path), path)


def read_text(text: str, path: str = "-") -> Iterator[MatchPart]:
    # split on line ends only (reading.LINE_END): str.splitlines() also splits on a form feed, a page break
    # read as a blank, and would shift the line numbers of everything after it
    return iter_parts(LINE_END.split(text), path)


def iter_parts(lines: Iterable[str | bytes], path: str = "-") -> Iterator[MatchPart]:
    """A MatchHeader, the one GameRecord, a MatchEnd."""
    players: tuple[str, str] | None = None
    game_number, scores, game_line, length = 1, (0, 0), 1, 0
    tags: dict[str, str] = {}
    actions: list[Action] = []
    dice: tuple[int, int] | None = None
    errors: list[MatchFileError] = []
    in_info = False
    comment: list[str] | None = None   # the lines of the match's comment, while it is read
    resigned = False       # an "accepts" or "rejects" next answers the resignation, not a double
    move = 0
    for number, raw in enumerate(lines, 1):
        line = text_of(raw) if isinstance(raw, bytes) else raw
        if number == 1:
            line = line.lstrip("\ufeff")
        line = line.rstrip("\r\n")
        # a printed or paginated export starts a page with a form feed: a page break, as every reader of lines
        # reads it (reading.page_breaks_as_blanks says where one is); the lines read here are at column 0, so
        # the line of the page starts after it
        paged = page_breaks_as_blanks(line)
        if paged != line:
            line = paged.lstrip(" \t")
        if players is None:
            found = _SCORE.match(line)
            if not found:
                if line.strip():
                    raise MatchFileError("not GNU Backgammon's text export: no 'The score (after N games)' line "
                                         "first", path, number, 1)
                continue
            game_number = int(found.group(1)) + 1
            players = (found.group(2), found.group(4))
            scores = (int(found.group(3)), int(found.group(5)))
            length = int(found.group(6)) if found.group(6) else 0
            game_line = number
            continue
        if line.startswith("Match Information:"):
            in_info = True
            continue
        if in_info:
            rating = _RATING.match(line) if comment is None else None
            if rating and rating.group(1) in players:
                if rating.group(2) != _NO_VALUE:
                    tags.setdefault(f"Player {players.index(rating.group(1)) + 1} Elo", rating.group(2))
                continue
            found = _INFO.match(line) if comment is None else None
            if found and found.group(1).startswith("Comment"):
                comment = [found.group(2)]   # gnubg's comment runs on to the next blank line
                continue
            if found:
                if found.group(2).strip() != _NO_VALUE:
                    tags.setdefault(_TAGS.get(found.group(1), found.group(1)), found.group(2).rstrip())
                continue
            if comment is not None and line.strip():
                comment.append(line)
                continue
            if comment is not None:
                for name, value in _comment_tags(comment, number, path).items():
                    tags.setdefault(name, value)
                comment = None
            if not line.strip():
                continue
            in_info = False
        found = _MOVE_NUMBER.match(line)
        if found:
            dice = recorded_roll(found.group(2))
            move += 1
            continue
        if line.startswith("* ") and line[2:3] != " ":   # "*    2. Cubeful ..." marks the analysis's choice
            action = _action(line[2:], number, players, dice, resigned, move)
            if action is None:
                errors.append(MatchFileError(f"cannot read the action {line.strip()!r}", path, number, 1))
                continue
            if action.kind == ActionKind.RESIGN:
                resigned = True
            elif resigned and action.kind in (ActionKind.TAKE, ActionKind.DROP):
                continue   # the answer to the resignation: the result line says what came of it
            actions.append(action)
            continue
        found = _WINS.match(line)
        if found and found.group(1) in players:
            side = players.index(found.group(1))
            actions.append(Action(number, 1, None, side, ActionKind.WIN, points=int(found.group(2)),
                                  and_match=bool(found.group(3)), raw=line.strip()))
    if players is None:
        raise MatchFileError("not GNU Backgammon's text export: no 'The score (after N games)' line", path, 1, 1)
    yield MatchHeader(length, game_line, tags, path, whole=False, words=AS_WRITTEN)
    yield GameRecord(game_number, players, scores, tuple(actions), game_line)
    yield MatchEnd(tuple(errors))


def _comment_tags(lines: list[str], number: int, path: str) -> dict[str, str]:
    """The tags gnubg's match comment holds. gnubg's import keeps each .mat tag
    it has no field for in the comment, one ``[ClockType "Speed 168/6"]`` a
    line: read back as those tags, as the .mat file had them. Any other comment
    is the tag ``Comment`` (its lines joined)."""
    lines = [line.strip() for line in lines if line.strip() and line.strip() != _NO_VALUE]
    if not lines:
        return {}
    tags = [tag_of("; " + line, number, path) for line in lines]
    if all(tag is not None for tag in tags):
        return dict(tag for tag in tags if tag is not None)
    return {"Comment": "\n".join(lines)}


_VERBS = {"moves": ActionKind.MOVE, "cannot move": ActionKind.DANCE, "doubles": ActionKind.DOUBLE,
          "accepts": ActionKind.TAKE, "rejects": ActionKind.DROP, "resigns": ActionKind.RESIGN}


def _action(text: str, line: int, players: tuple[str, str], dice: tuple[int, int] | None, resigned: bool,
            move: int) -> Action | None:
    """One ``* NAME verb ...`` line; None when it is not one."""
    # the longer name first: one name may begin with the other
    for side in sorted((0, 1), key=lambda s: -len(players[s])):
        name = players[side]
        if not text.startswith(name + " "):
            continue
        rest = text[len(name) + 1:].strip()
        for verb, kind in _VERBS.items():
            if rest == verb or rest.startswith(verb + " "):
                play = rest[len(verb):].strip() if kind == ActionKind.MOVE else ""
                rolled = dice if kind in (ActionKind.MOVE, ActionKind.DANCE) else None
                if kind in (ActionKind.MOVE, ActionKind.DANCE) and rolled is None:
                    return None
                return Action(line, 1, move, side, kind, rolled, play, raw=text)
    return None
