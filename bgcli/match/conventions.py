"""Conventions of real archives that are not problems, each named once.

- a roll with no play followed straight away by the end of the game is a
  resignation made after rolling (FIBS-era transcripts record it so), not a
  dance (the game's replay holds such a dance back until it knows);
- a transcript may start in the middle of a match: the first game's recorded
  score is where the match stands (the driver, :mod:`bgcli.match.replay`);
- how a result's points are written: :class:`PointsConvention`. Backgammon
  Galaxy writes a match-winning game as the points the winner still needed,
  accepted in Galaxy's files only (its site tag, or its ``Losses`` lines).
"""
from __future__ import annotations

from dataclasses import dataclass

from bgcli.match.records import site_is


@dataclass(frozen=True, slots=True)
class PointsConvention:
    """How the points of a ``Wins N points`` line are written."""

    name: str
    needed_for_match: bool   # a game worth more than the winner needs may be written as what it needs

    def accepts(self, written: int, worth: int, needed: int) -> bool:
        """Whether ``written`` records a game worth ``worth`` won by a player
        who still needed ``needed`` points (0 in money play)."""
        return written == worth or (self.needed_for_match and 0 < needed == written < worth)


EXACT = PointsConvention("the points the game is worth", needed_for_match=False)
GALAXY = PointsConvention("Backgammon Galaxy: a match-winning game as the points still needed", needed_for_match=True)


def points_convention(tags: dict[str, str]) -> PointsConvention:
    """The convention a file's tags announce (a ``Losses`` line announces Galaxy's too)."""
    return GALAXY if site_is(tags, "galaxy") else EXACT
