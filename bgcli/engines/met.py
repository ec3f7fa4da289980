"""Match equity: the chance of winning a match from a score, and the normalised equity (EMG) it maps to.

The table is Kazaross-XG2, the one GNU Backgammon and eXtreme Gammon use by
default, as the engine extra's dependency bgsage ships it (MPL-2.0); bgcli
reads it from there, so bgcli itself carries no copy. Without the extra a
match-play question raises EngineUnavailableError; money play needs no table.

Scores are "points away": ``away`` is what the player still needs, ``0`` or
less means the match is won. A score where one side is 1-away is either the
Crawford game (no cube) or post-Crawford (the trailer's free drop), and the
two have different values: :class:`MatchSide` says which.

The cube is never worth more than the points the winner still needs: winning
4 points when 2 are needed wins the match and no more, so the table needs no
cap; the rule profiles that cap the stake by the points needed
(``Rules.cube_cap_needed``) give the same match winning chances.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from bgcli.errors import EngineUnavailableError

if TYPE_CHECKING:
    from bgcli.core.state import GameState

TABLE_NAME = "Kazaross-XG2"
INSTALL = "pip install 'bgcli[engine]'"


@dataclass(frozen=True)
class MatchSide:
    """The match as the player it is seen by: points away for both sides, the cube, and the Crawford state.

    ``away == opponent_away == 0`` is money play."""

    away: int = 0
    opponent_away: int = 0
    cube: int = 1
    crawford: bool = False       # this game is the Crawford game (no cube)

    @property
    def is_money(self) -> bool:
        return self.away == 0 and self.opponent_away == 0

    @property
    def post_crawford(self) -> bool:
        return not self.is_money and not self.crawford and min(self.away, self.opponent_away) == 1

    def flipped(self) -> "MatchSide":
        return MatchSide(self.opponent_away, self.away, self.cube, self.crawford)

    @classmethod
    def of(cls, state: "GameState", player: int | None = None) -> "MatchSide":
        """The match of ``state`` as ``player`` (gnubg's 0 or 1; the player on roll by default) sees it."""
        match = state.match
        me = match.on_roll if player is None else player
        if not match.match_length:
            return cls(0, 0, match.cube, False)
        return cls(match.match_length - match.score[me], match.match_length - match.score[1 - me], match.cube,
                   match.crawford)


@lru_cache(maxsize=None)
def _table():
    try:
        import bgbot_cpp  # the compiled part of bgsage, which holds the table
    except ImportError:
        raise EngineUnavailableError(f"match play needs the {TABLE_NAME} match equity table: {INSTALL}") from None
    return bgbot_cpp.get_met


def mwc_at(away: int, opponent_away: int, crawford_played: bool = True) -> float:
    """The match winning chance before a game at this score. At a score where a
    side is 1-away, ``crawford_played`` False means this game is the Crawford
    game; True (the default) that the Crawford game is over (post-Crawford)."""
    if away <= 0:
        return 1.0
    if opponent_away <= 0:
        return 0.0
    if away == 1 and opponent_away == 1:
        return 0.5
    get = _table()
    # bgsage's lookup is "the score reached at the end of a game", its flag "that game was the Crawford game"
    return float(get(away, opponent_away, bool(crawford_played) and min(away, opponent_away) == 1))


def equity_after(side: MatchSide, points_won: int) -> float:
    """The match winning chance after this game ends with the player winning (positive) or losing ``points_won``."""
    away, opp = side.away, side.opponent_away
    if points_won > 0:
        opp_left, my_left = opp, away - points_won
    else:
        opp_left, my_left = opp + points_won, away
    # a score reached at 1-away by the end of a non-Crawford game makes the next one the Crawford game
    crawford_played = side.crawford or side.post_crawford
    return mwc_at(my_left, opp_left, crawford_played)


def win_lose(side: MatchSide) -> tuple[float, float]:
    """The match winning chances after winning and after losing a single game at the current cube."""
    return equity_after(side, side.cube), equity_after(side, -side.cube)


def emg(mwc: float, side: MatchSide) -> float:
    """A match winning chance as normalised equity: +1 winning a single game at the cube, -1 losing one."""
    win, lose = win_lose(side)
    return 2.0 * (mwc - lose) / (win - lose) - 1.0


def mwc(equity: float, side: MatchSide) -> float:
    """The inverse of :func:`emg`. A chance a rounding error puts a hair outside 0 to 1 is put back; one
    further out is left as it is, for the checks to refuse (the equity it came from was impossible)."""
    win, lose = win_lose(side)
    found = lose + (equity + 1.0) / 2.0 * (win - lose)
    return min(max(found, 0.0), 1.0) if -1e-6 < found < 1.0 + 1e-6 else found


def cubeless_mwc(probabilities, side: MatchSide) -> float:
    """The match winning chance of cubeless outcome probabilities (a bgcli Probabilities) at the current cube."""
    p = probabilities
    c = side.cube
    single_win = p.win - p.win_gammon
    gammon_win = p.win_gammon - p.win_backgammon
    single_loss = p.lose - p.lose_gammon
    gammon_loss = p.lose_gammon - p.lose_backgammon
    return (single_win * equity_after(side, c) + gammon_win * equity_after(side, 2 * c) + p.win_backgammon * equity_after(side, 3 * c)
            + single_loss * equity_after(side, -c) + gammon_loss * equity_after(side, -2 * c)
            + p.lose_backgammon * equity_after(side, -3 * c))
