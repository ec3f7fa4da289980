"""The old home of the rules and of what a game is worth, kept so that code
written against it still imports: the rule settings are :mod:`bgcli.core.rules`,
the value of a game :mod:`bgcli.core.value`."""
from bgcli.core.rules import PROFILE_SUMMARIES, PROFILES, Rules, crawford_game, tag_problems
from bgcli.core.value import (
    BACKGAMMON, GAMMON, SINGLE, Outcome, Win, drop_value, game_kind, game_value, jacoby_applies, resignation_values,
)

drop_points = drop_value


def game_points(kind: int, cube: int, rules: Rules, cube_centred: bool) -> int:
    """``game_value`` under its old name."""
    return game_value(Win(kind), cube, rules, cube_centred)


__all__ = [
    "BACKGAMMON", "GAMMON", "PROFILES", "PROFILE_SUMMARIES", "SINGLE", "Outcome", "Rules", "Win", "crawford_game",
    "drop_points", "drop_value", "game_kind", "game_points", "game_value", "jacoby_applies", "resignation_values",
    "tag_problems",
]
