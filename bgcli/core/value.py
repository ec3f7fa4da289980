"""How a game is won and what it is worth: the one place scoring asks.

:class:`Win` is how a game is won on the board (single, gammon, backgammon:
what the loser has left); :class:`Outcome` is how a game ended, which adds a
drop, a resignation and a draw. :func:`game_value` says what a win is worth
at a cube under the rules (Jacoby, a backgammon counted as a gammon, the
stake capped by the points the winner still needs); :func:`resignation_values`
what a resignation may be worth; :func:`drop_value` what a dropped double
wins. The match replay and the chouette only call these.

A gammon when the loser has borne off no checker, a backgammon when besides
a loser's checker is on the bar or in the winner's home board (the rule
texts); the traditional Korean count (``Rules.home_gammons``) decides by
where the loser's checkers are instead. :func:`possible_wins` says which of
them a game not yet over may still give (what a resignation may stand for).
"""
from __future__ import annotations

from enum import IntEnum

from bgcli.core.kinds import Worded
from bgcli.core.position import BAR, CHECKERS, HOME, HOME_BOARD, OFF, OUTSIDE_HOME, Position, other_side
from bgcli.core.rules import Rules, Variation


class Win(IntEnum):
    """How a game is won on the board; the number is what it counts in the standard game."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3

    def __str__(self) -> str:
        return self.name.lower()

    @property
    def outcome(self) -> Outcome:
        return Outcome(str(self))


SINGLE, GAMMON, BACKGAMMON = Win.SINGLE, Win.GAMMON, Win.BACKGAMMON


class Outcome(str, Worded):
    """How a game ended."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    DROP = "drop"
    RESIGNATION = "resignation"
    DRAW = "draw"

    @property
    def win(self) -> Win | None:
        """The win on the board this outcome is, or None (a drop, a resignation, a draw)."""
        return _WINS.get(self.value)


_WINS = {str(win): win for win in Win}


def game_kind(final: Position, winner_is_player: bool = True, home_gammons: bool = False,
              variation: Variation = Variation.STANDARD) -> Win:
    """How the finished game ``final`` is won.

    ``final`` is any position in which one side has borne off all 15
    checkers; ``winner_is_player`` says whether that side is ``final.player``.
    With ``home_gammons`` (the traditional Korean count) the loser who has
    borne off none loses 2 only with every checker in its own home board,
    and 3 with any checker outside it (the bar included). ``variation`` says
    how many of its checkers a side counts as off from the start (hypergammon).
    """
    winner, loser = (final.player, final.opponent) if winner_is_player else (final.opponent, final.player)
    if winner[OFF] != CHECKERS:
        raise ValueError("game is not over: the winner has not borne off every checker")
    if loser[OFF] > variation.off_at_start:
        return Win.SINGLE
    if home_gammons:
        return Win.BACKGAMMON if any(loser[OUTSIDE_HOME]) else Win.GAMMON
    # the winner's home board is the loser's points 19..24
    if loser[BAR] or any(loser[other_side(p)] for p in HOME_BOARD):
        return Win.BACKGAMMON
    return Win.GAMMON


def possible_wins(position: Position, winner_is_player: bool = True, home_gammons: bool = False,
                  contact: bool = True, variation: Variation = Variation.STANDARD) -> list[Win]:
    """How the game ``position`` may still be won (the loser's checkers as
    :func:`game_kind` counts them at the end): a gammon only while the loser
    has borne off no checker; a backgammon besides only while a loser's
    checker is on the bar or in the winner's home board (with
    ``home_gammons``: outside its own home board), or ``contact`` remains
    (the caller's word, bgcli.core.position.is_contact): a checker hit may
    still be sent back. A resignation is worth a win the game may still give.
    ``variation`` as :func:`game_kind`'s."""
    loser = position.opponent if winner_is_player else position.player
    if loser[OFF] > variation.off_at_start:
        return [Win.SINGLE]
    behind = range(HOME + 1, BAR) if home_gammons else range(other_side(HOME), BAR)
    if contact or loser[BAR] or any(loser[p] for p in behind):
        return [Win.SINGLE, Win.GAMMON, Win.BACKGAMMON]
    return [Win.SINGLE, Win.GAMMON]


def game_value(win: Win, cube: int, rules: Rules, centred: bool, needed: int | None = None) -> int:
    """What a game won as ``win`` at ``cube`` is worth: a backgammon counts
    ``rules.backgammon_counts``, gammons count single under Jacoby while the
    cube is centred, and where the stake is capped by the points the winner
    still needs (``needed``, in a match) no game is worth more than that."""
    multiplier = rules.backgammon_counts if win == Win.BACKGAMMON else int(win)
    if jacoby_applies(rules, centred):
        multiplier = 1
    value = cube * multiplier
    if rules.cube_cap_needed and rules.match_length and needed is not None:
        value = min(value, max(needed, 1))
    return value


STANDARD_WORTH = tuple(int(win) for win in Win)   # a single win, a gammon, a backgammon: 1, 2, 3


def cubeless_worth(rules: Rules) -> tuple[int, ...]:
    """What a single win, a gammon and a backgammon count in a cubeless equity under ``rules``: a
    backgammon counts ``rules.backgammon_counts`` (2 where it counts as a gammon). In a game with a
    cube, its cubeless equity leaves out Jacoby, a rule of the cube (gnubg's cubeless equity does
    too). Under rules with no cube the cubeless equity is what the game pays, and the cube is centred
    for good (:func:`jacoby_applies`): with Jacoby on, every win counts single."""
    return tuple(game_value(win, 1, rules, centred=False) for win in Win)


def jacoby_applies(rules: Rules, centred: bool) -> bool:
    """Whether gammons count single now: money play, Jacoby on, cube centred. A game with no cube
    (``rules.cubeless``) has its cube centred for good, so Jacoby on counts every gammon and backgammon
    single, as GNU Backgammon scores a money game with `set cube use off` and `set jacoby on` ("wins a
    single game and 1 point", and it warns that Jacoby must be off for gammons to count); its equity of
    such a game, the one it ranks plays by, counts them single too."""
    return bool(rules.in_force("jacoby")) and (centred or rules.cubeless)


def resignation_values(cube: int, rules: Rules, centred: bool, needed: int | None = None) -> list[int]:
    """What a resignation may be worth, smallest first: a single game, a
    gammon or a backgammon at the cube (only a single under Jacoby)."""
    return sorted({game_value(win, cube, rules, centred, needed) for win in Win})


def drop_value(cube_before: int) -> int:
    """What a dropped double wins: the cube before the double."""
    return cube_before
