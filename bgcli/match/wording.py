"""How a record's format writes the actions the replay's messages quote.

A problem quotes the record ("Doubles => 4 but the cube is at 1"): in the
record's own words, so that a user reads what their file says, never another
format's. Each format that has words of its own holds one :class:`Words`
(``bgcli.formats.mat.WORDS``, whose writer writes its cells with them;
``bgcli.formats.sgf.WORDS``), and its reader hands it to the record
(``MatchHeader.words``); a format without words of its own (a binary file,
XG's or BGBlitz's) is quoted in plain words (:data:`PLAIN`).

Each field is a template. Its fields: ``value`` (the cube a double, beaver
or raccoon offers), ``points`` (``1 point``, ``2 points``), ``number`` (the
points as a number), ``side`` (the player's letter in the format, from
``sides``) and ``raw`` (the action's text as the record holds it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bgcli.core.cube import points_word   # said here too: the records' messages ask this module


class Action(Protocol):
    """What a message quotes of an action (a records.Action is one; named here, since records imports this)."""

    @property
    def side(self) -> int: ...

    @property
    def raw(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Words:
    double: str
    beaver: str
    raccoon: str
    wins: str
    result: str                       # what the record's result is called: "'Wins' line", "result"
    and_match: str = "'and the match'"   # the words of a result that says it ends the match
    sides: tuple[str, str] = ("", "")

    def _fill(self, field: str, action: Action | None, value: int | None = None, points: int = 0) -> str:
        """The template ``field`` filled; without an action (a writer's cell) no side or text of one. A
        template that quotes the action's text, where the record kept none, is said in plain words."""
        raw = action.raw.strip() if action is not None else ""
        template = getattr(self, field)
        if "{raw}" in template and not raw:
            template = getattr(PLAIN, field)
        side = action.side if action is not None else -1
        return template.format(value=value, points=points_word(points), number=points, raw=raw,
                               side=self.sides[side] if side in (0, 1) else "")

    def doubled(self, action: Action | None, value: int) -> str:
        return self._fill("double", action, value)

    def beavered(self, action: Action | None, value: int) -> str:
        return self._fill("beaver", action, value)

    def raccooned(self, action: Action | None, value: int) -> str:
        return self._fill("raccoon", action, value)

    def won(self, action: Action | None, points: int) -> str:
        return self._fill("wins", action, points=points)


PLAIN = Words(double="a double to {value}", beaver="a beaver to {value}", raccoon="a raccoon to {value}",
              wins="a win of {points}", result="result", and_match="a win of the match")
# a format whose every action is a line of text of its own (FIBS's oldmoves, GamesGrid's, TrueMoneyGames's,
# gnubg's text export): the line is quoted as the file has it
AS_WRITTEN = Words(double="'{raw}' (a double to {value})", beaver="'{raw}' (a beaver to {value})",
                   raccoon="'{raw}' (a raccoon to {value})", wins="'{raw}'", result="result line",
                   and_match="'and the match'")
