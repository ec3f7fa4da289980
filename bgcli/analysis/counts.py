"""Position analysis: race counts, the position's class, shots and exact
bear-off odds, computed by bgcli itself.

``analyze(position)`` returns an ``Analysis``; every pair in it is
(player on roll, opponent), the sides of ``Position``.

- ``pips``, ``keith`` and ``thorp``: the pip count, the Keith count and the
  Thorp count exactly as GNU Backgammon's ``KeithCount`` and ``ThorpCount``
  (eval.c) compute them, before the adjustments its ``show keith`` (+1/7)
  and ``show thorp`` (+1/10) print. Keith: pips, plus 2 per checker on the
  1-point beyond the first, 1 per checker on the 2-point beyond the first,
  1 per checker on the 3-point beyond the third, 1 per empty 4-, 5- or
  6-point. Thorp: pips, plus 2 per checker not borne off (the bar counts),
  plus 1 per checker on the 1-point, minus 1 per occupied home point.
- ``position_class``: ``contact`` when some checker still has to pass an
  opponent checker, ``bearoff`` when both sides have every checker on the
  home points or off, ``race`` otherwise, ``over`` when a side has borne off
  all 15. ``crashed``: GNU Backgammon's definition (``ClassifyPosition``,
  where a crashed side turns a contact position into its class
  ``CRASHED``), applied to each side, and only in contact: a side with n
  checkers not borne off, a on its 1-point and b on its 2-point has crashed
  when n <= 6; or, with a > 1, when n - a <= 6, or b > 1 and n + 1 - a - b
  <= 6; or, with a <= 1 and b >= 1, when n - (b - 1) <= 6.
- ``enter_count``: how many of the 36 rolls enter a checker from the bar.
- ``hits`` and ``hit_rolls``: the rolls (of the 36; a double once, other
  rolls twice) with at least one legal play that puts an opponent checker
  on the bar.
- ``bearoff``: for each side with every checker home or off, the exact
  chance of bearing off in exactly 1, 2, ... rolls and the mean, playing to
  minimise the expected number of rolls (``bgcli.analysis.bearoff``).
- ``race``: with no contact, the chances of each side to win the race.
  Exact in the bear-off: the on-roll side needs n rolls with probability
  p(n) and wins when the opponent needs n or more, both sides playing as
  the one-sided table does (to minimise their expected rolls; a side that
  plays to win the race instead can do very slightly better, which the
  one-sided definition leaves out). Otherwise an approximation: Kleinman's
  formula as gnubg's ``show kleinman`` computes it, from the pip counts
  alone, P = (1 + erf(K)) / 2 with K = (D + 4) / (2 sqrt(S - 4)), D the
  opponent's pips minus the on-roll side's and S their sum. It sees only
  the pips, not the wastage or the number of checkers: on the 247 race
  positions of tests/data/analysis (long races, short ones, many with one
  side already home) it differs from gnubg's cubeless 2-ply evaluation by
  3.1 percentage points on average (median 0.1, 90% within 9.5) and by up
  to 53 points in short races where one side still has a checker or two
  outside; on the long races (both sides 60 pips or more) by 2.6 on
  average and 12 at most. The exact bear-off figure agrees with gnubg's
  (its bear-off databases) within 0.18 points.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from bgcli.core.kinds import Worded
from bgcli.core.position import (ALL_THROWS, CHECKERS, HOME_BOARD, KINDS_OF_ROLL_LARGEST_FIRST, OFF, POINTS, Position,
                                 back_point, in_home, is_contact, other_side, pip_count, throws)
from bgcli.core.generator import BOARD_BITS, legal_keys

if TYPE_CHECKING:
    from bgcli.core.state import GameState

Pair = tuple[int, int]
ROLLS = KINDS_OF_ROLL_LARGEST_FIRST  # 66, 65, ..., 11


class PositionClass(str, Worded):
    """A position's class (see the module docstring): a ``str`` too, so the JSON
    field ``class`` and a comparison with its word read as before."""

    CONTACT = "contact"
    RACE = "race"
    BEAROFF = "bearoff"
    OVER = "over"


CLASSES = tuple(kind.value for kind in PositionClass)


@dataclass(frozen=True)
class BearoffOdds:
    """One side's bear-off: ``dist[n - 1]`` is the chance of needing exactly n rolls."""

    mean: float
    dist: tuple[float, ...]

    def to_dict(self) -> dict:
        return {"mean": self.mean, "dist": list(self.dist)}


@dataclass(frozen=True)
class RaceOdds:
    """The chances to win a race, (player on roll, opponent); ``exact`` is
    False for the Kleinman approximation (``method`` says which)."""

    win: tuple[float, float]
    exact: bool
    method: str  # "bearoff", "kleinman" or "over"

    def to_dict(self) -> dict:
        return {"win": list(self.win), "exact": self.exact, "method": self.method}


@dataclass(frozen=True)
class Analysis:
    """What ``analyze`` finds; each pair is (player on roll, opponent)."""

    position: Position
    pips: Pair
    keith: Pair
    thorp: Pair
    position_class: PositionClass
    crashed: tuple[bool, bool]
    hits: int  # of 36
    hit_rolls: tuple[tuple[int, int], ...]
    bearoff: tuple[BearoffOdds | None, BearoffOdds | None] | None  # None: not computed (bearoff=False)
    race: RaceOdds | None  # None in contact

    def to_dict(self) -> dict[str, Any]:
        """The ``bgcli analyze --json`` object."""
        bearoff = None
        if self.bearoff is not None:
            bearoff = {name: odds.to_dict() if odds else None for name, odds in zip(("on_roll", "opponent"), self.bearoff)}
        return {
            "position_id": self.position.id(),
            "pips": list(self.pips),
            "keith": list(self.keith),
            "thorp": list(self.thorp),
            "class": self.position_class.value,
            "crashed": list(self.crashed),
            "hits": self.hits,
            "hit_rolls": [list(roll) for roll in self.hit_rolls],
            "bearoff": bearoff,
            "race": self.race.to_dict() if self.race else None,
        }


# --- counts -----------------------------------------------------------------------------

def keith_count(side: Sequence[int], pips: int | None = None) -> int:
    """gnubg's KeithCount for one side, before the +1/7 of ``show keith``
    (``pips``: the side's pip count, when already known)."""
    count = pip_count(side) if pips is None else pips
    count += 2 * (max(1, side[1]) - 1)
    count += max(1, side[2]) - 1
    count += max(3, side[3]) - 3
    count += sum(1 for point in (4, 5, 6) if not side[point])
    return count


def thorp_count(side: Sequence[int], pips: int | None = None) -> int:
    """gnubg's ThorpCount for one side, before the +1/10 of ``show thorp``."""
    left = CHECKERS - side[OFF]
    covered = sum(1 for point in HOME_BOARD if side[point])
    return (pip_count(side) if pips is None else pips) + 2 * left + side[1] - covered


def kleinman(pips_on_roll: int, pips_opponent: int) -> float:
    """The on-roll side's chance to win a race by Kleinman's formula, as
    gnubg's KleinmanCount (0 when the pips add up to 4 or less)."""
    total = pips_on_roll + pips_opponent
    if total <= 4:
        return 0.0
    k = (pips_opponent - pips_on_roll + 4) / (2 * math.sqrt(total - 4))
    return 0.5 * (1 + math.erf(k))


# --- class ------------------------------------------------------------------------------

def crashed(side: Sequence[int]) -> bool:
    """gnubg's test of a crashed side (see the module docstring); gnubg
    applies it in contact positions only."""
    left = CHECKERS - side[OFF]
    on_one, on_two = side[1], side[2]
    if left <= 6:
        return True
    if on_one > 1:
        return left - on_one <= 6 or (on_two > 1 and left + 1 - on_one - on_two <= 6)
    return on_two >= 1 and left - (on_two - 1) <= 6


def position_class(position: Position) -> PositionClass:
    """``contact``, ``race``, ``bearoff`` or ``over`` (see the module docstring)."""
    if position.is_over():
        return PositionClass.OVER
    if is_contact(position):
        return PositionClass.CONTACT
    if in_home(max(back_point(position.player), back_point(position.opponent))):
        return PositionClass.BEAROFF
    return PositionClass.RACE


# --- shots ------------------------------------------------------------------------------

def hit_rolls(position: Position) -> tuple[tuple[int, int], ...]:
    """The rolls (66, 65, ..., 11) with a legal play that hits."""
    player, opponent = position.player, position.opponent
    blots = [other_side(q) for q in POINTS if opponent[q] == 1]  # on the mover's points
    starts = [p for p in range(1, 26) if player[p]]
    # a roll can hit only if a die, the sum or (doubles) a multiple spans a start and a blot
    spans = {start - blot for start in starts for blot in blots if start > blot}
    found = []
    for roll in ROLLS:
        a, b = roll
        reach = (a, 2 * a, 3 * a, 4 * a) if a == b else (a, b, a + b)
        # a play hits when its key carries a hit mark above the board (Play.hits): no Play is built
        if not spans.isdisjoint(reach) and any(key >> BOARD_BITS for key in legal_keys(position, roll)):
            found.append(roll)
    return tuple(found)


def enter_count(position: Position) -> int:
    """How many of the 36 rolls let the player on roll take a checker off the
    bar: a die enters on the opponent's home point of its number unless the
    opponent holds it (two checkers or more), so 36 less the square of the
    points held (the generator agrees: tests/test_dice.py)."""
    held = sum(1 for point in HOME_BOARD if position.opponent[point] >= 2)
    return ALL_THROWS - held * held


# --- the analysis -------------------------------------------------------------------------

def _position_of(position: Position | GameState | str) -> Position:
    if isinstance(position, Position):
        return position.validated()
    if isinstance(position, str):
        from bgcli.core.ids import parse_position

        return parse_position(position).position
    return position.position.validated()


def analyze(position: Position | GameState | str, bearoff: bool = True) -> Analysis:
    """Analyse a position (a ``Position``, a ``GameState`` or any text
    ``bgcli.core.ids.parse_position`` reads). ``bearoff=False`` skips the bear-off
    table (``bearoff`` is then None, and so is an exact race)."""
    position = _position_of(position)
    sides = (position.player, position.opponent)
    kind = position_class(position)
    shots = hit_rolls(position) if kind is PositionClass.CONTACT else ()
    odds: tuple[BearoffOdds | None, BearoffOdds | None] | None = None
    if bearoff:
        from bgcli.analysis import bearoff as table

        found = table.distributions(sides)
        odds = (BearoffOdds(*found[0]) if found[0] else None, BearoffOdds(*found[1]) if found[1] else None)
    pips = (pip_count(sides[0]), pip_count(sides[1]))
    return Analysis(
        position=position,
        pips=pips,
        keith=(keith_count(sides[0], pips[0]), keith_count(sides[1], pips[1])),
        thorp=(thorp_count(sides[0], pips[0]), thorp_count(sides[1], pips[1])),
        position_class=kind,
        crashed=(kind is PositionClass.CONTACT and crashed(sides[0]), kind is PositionClass.CONTACT and crashed(sides[1])),
        hits=sum(throws(roll) for roll in shots),
        hit_rolls=shots,
        bearoff=odds,
        race=_race(position, kind, odds, pips),
    )


def _race(position: Position, kind: PositionClass, odds, pips: Pair) -> RaceOdds | None:
    if kind is PositionClass.CONTACT:
        return None
    if kind is PositionClass.OVER:
        won = position.player[OFF] == CHECKERS
        return RaceOdds((1.0, 0.0) if won else (0.0, 1.0), True, "over")
    if kind is PositionClass.BEAROFF and odds is not None:
        from bgcli.analysis.bearoff import race_win

        win = race_win(odds[0].dist, odds[1].dist)
        return RaceOdds((win, 1.0 - win), True, "bearoff")
    if kind is PositionClass.BEAROFF:
        return None  # the exact figure needs the table
    win = kleinman(*pips)
    return RaceOdds((win, 1.0 - win), False, "kleinman")


def bearoff_summary(position: Position | GameState | str) -> dict | None:
    """For the HTML viewer: the pips and, for each side all home, the chance
    of bearing off in each number of rolls; None when neither side is home.

    ``{"pips": [on roll, opponent], "on_roll": {"mean", "dist"} | None,
    "opponent": ... , "race": [win on roll, win opponent] | None}``.
    """
    found = analyze(position)
    if found.bearoff is None or not any(found.bearoff):
        return None
    on_roll, opponent = found.bearoff
    return {
        "pips": list(found.pips),
        "on_roll": on_roll.to_dict() if on_roll else None,
        "opponent": opponent.to_dict() if opponent else None,
        "race": list(found.race.win) if found.race and found.race.exact else None,
    }
