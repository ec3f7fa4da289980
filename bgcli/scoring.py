"""Rules variants and what a game is worth.

The rules come from the seeds (../shared/seeds): a gammon when the loser has
borne off no checker, a backgammon when besides a loser's checker is on the
bar or in the winner's home board; Jacoby in money play; Crawford in
matches; automatic doubles, beavers, "a backgammon counts as a gammon" in
some countries, and a cube limit. The model is kept open to a chouette: a
game's value is computed per stake (cube value) so that a box player facing
several team members with their own cubes scores each pairing on its own.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from bgcli.model import BAR, CHECKERS, OFF, Position

SINGLE, GAMMON, BACKGAMMON = 1, 2, 3
RESULT_NAMES = {SINGLE: "single", GAMMON: "gammon", BACKGAMMON: "backgammon"}


class Outcome(str, Enum):
    """How a game ended."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    DROP = "drop"
    RESIGNATION = "resignation"

    def __str__(self) -> str:
        return self.value


OUTCOME_OF_KIND = {SINGLE: Outcome.SINGLE, GAMMON: Outcome.GAMMON, BACKGAMMON: Outcome.BACKGAMMON}


@dataclass(frozen=True)
class Rules:
    """The rules a match or session is played under."""

    match_length: int = 0          # 0 = money play
    crawford: bool = True          # the game after a player reaches length - 1 has no cube
    jacoby: bool = False           # money: gammons count single while the cube is centred
    beavers: bool = False          # money: a doubled player may redouble at once, keeping the cube
    auto_doubles: int = 0          # money: how many automatic doubles on equal opening rolls
    backgammon_counts: int = 3     # 3 normally; 2 where a backgammon counts as a gammon
    cube_limit: int = 0            # the highest cube value allowed; 0 = no limit

    def with_tags(self, tags: dict[str, str]) -> "Rules":
        """Apply the ``[Crawford]``, ``[Jacoby]``, ``[CubeLimit]`` tags of a match file."""
        rules = self
        for key, value in tags.items():
            name, value = key.lower(), str(value).strip().lower()
            if name == "crawford":
                rules = replace(rules, crawford=value not in ("off", "no", "false", "0"))
            elif name == "jacoby":
                rules = replace(rules, jacoby=value not in ("off", "no", "false", "0"))
            elif name == "cubelimit" and value.isascii() and value.isdigit() and len(value) <= 9:
                rules = replace(rules, cube_limit=int(value))
        return rules


_SWITCH_WORDS = ("on", "off", "yes", "no", "true", "false", "1", "0")


def tag_problems(tags: dict[str, str]) -> list[str]:
    """Why a rule tag of a match file cannot be read (its rule is then not changed)."""
    out = []
    for key, value in tags.items():
        name, text = key.lower(), str(value).strip()
        if name in ("crawford", "jacoby") and text.lower() not in _SWITCH_WORDS:
            out.append(f"tag [{key} {text[:20]!r}] is not On or Off")
        elif name == "cubelimit" and not (text.isascii() and text.isdigit() and len(text) <= 9):
            out.append(f"tag [{key} {text[:20]!r}] is not a number")
    return out


def game_kind(final: Position, winner_is_player: bool = True) -> int:
    """SINGLE, GAMMON or BACKGAMMON for a finished game.

    ``final`` is any position in which one side has borne off all 15
    checkers; ``winner_is_player`` says whether that side is ``final.player``.
    """
    winner, loser = (final.player, final.opponent) if winner_is_player else (final.opponent, final.player)
    if winner[OFF] != CHECKERS:
        raise ValueError("game is not over: the winner has not borne off every checker")
    if loser[OFF] > 0:
        return SINGLE
    # the winner's home board is the loser's points 19..24
    if loser[BAR] or any(loser[p] for p in range(19, 25)):
        return BACKGAMMON
    return GAMMON


def game_points(kind: int, cube: int, rules: Rules, cube_centred: bool) -> int:
    """Points won by a game of ``kind`` (SINGLE/GAMMON/BACKGAMMON) at ``cube``."""
    if kind == BACKGAMMON:
        multiplier = rules.backgammon_counts
    else:
        multiplier = kind
    if jacoby_applies(rules, cube_centred):
        multiplier = 1
    return cube * multiplier


def jacoby_applies(rules: Rules, cube_centred: bool) -> bool:
    """Whether gammons count single now: money play, Jacoby on, cube centred."""
    return rules.jacoby and not rules.match_length and cube_centred


def resignation_values(cube: int, rules: Rules, cube_centred: bool) -> list[int]:
    """What a resignation may be worth, smallest first: a single game, a
    gammon or a backgammon at the cube (only a single under Jacoby)."""
    return sorted({game_points(kind, cube, rules, cube_centred) for kind in (SINGLE, GAMMON, BACKGAMMON)})


def drop_points(cube_before: int) -> int:
    """What a dropped double wins: the cube before the double."""
    return cube_before


def crawford_game(rules: Rules, score_before: tuple[int, int], previous_was_crawford_or_later: bool) -> bool:
    """Whether a game starting at ``score_before`` is the Crawford game."""
    if not rules.match_length or not rules.crawford or previous_was_crawford_or_later:
        return False
    return max(score_before) == rules.match_length - 1 and min(score_before) < rules.match_length - 1
