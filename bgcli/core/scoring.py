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
from typing import Any

from bgcli.core.position import BAR, CHECKERS, OFF, Position

SINGLE, GAMMON, BACKGAMMON = 1, 2, 3
RESULT_NAMES = {SINGLE: "single", GAMMON: "gammon", BACKGAMMON: "backgammon"}


class Outcome(str, Enum):
    """How a game ended."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    DROP = "drop"
    RESIGNATION = "resignation"
    DRAW = "draw"

    def __str__(self) -> str:
        return self.value


OUTCOME_OF_KIND = {SINGLE: Outcome.SINGLE, GAMMON: Outcome.GAMMON, BACKGAMMON: Outcome.BACKGAMMON}


@dataclass(frozen=True)
class Rules:
    """The rules a match or session is played under."""

    match_length: int = 0          # 0 = money play
    crawford: bool = True          # the game after a player reaches length - 1 has no cube
    jacoby: bool = False           # money: gammons count single while the cube is centred
    beavers: bool = False          # money: a doubled player may redouble at once, keeping the cube (and raccoon)
    auto_doubles: int = 0          # money: how many automatic doubles on equal opening rolls
    backgammon_counts: int = 3     # 3 normally; 2 where a backgammon counts as a gammon
    cube_limit: int = 0            # the highest cube value allowed; 0 = no limit
    profile: str = "standard"      # the named bundle these rules started from (PROFILES)
    cubeless: bool = False         # no doubling cube: any double breaks the rules
    cube_cap_needed: bool = False  # matches: the stake is capped by the points the winner still needs
    draws: bool = False            # an agreed draw is a result
    white_first: bool = False      # White (the left column unless a [White] tag says) always rolls first,
                                   # an ordinary roll of two dice, so the opening may be a double
    standalone_games: bool = False  # each game stands alone: no running score to check
    home_gammons: bool = False     # the traditional Korean count: a gammon only when the loser's checkers
                                   # are all home; any checker outside its home board makes it a triple

    def with_profile(self, name: str) -> "Rules":
        """These rules with the settings of profile ``name`` (other settings kept)."""
        try:
            settings = PROFILES[name.lower()]
        except KeyError:
            raise ValueError(f"unknown rules {name!r}: expected one of {', '.join(PROFILES)}") from None
        values: dict[str, Any] = {field: settings.get(field, getattr(Rules, field)) for field in _PROFILE_FIELDS}
        return replace(self, profile=name.lower(), **values)

    def with_tags(self, tags: dict[str, str]) -> "Rules":
        """Apply the rule tags of a match file: ``[Rules]`` first (a profile),
        then ``[Crawford]``, ``[Jacoby]``, ``[CubeLimit]``, ``[CubeCap]``,
        ``[Draws]``, ``[Cubeless]``, ``[BackgammonCounts]``. A tag whose value
        cannot be read changes nothing (``tag_problems`` says why)."""
        rules = self
        lowered = {key.lower(): str(value).strip() for key, value in tags.items()}
        if lowered.get("rules", "").lower() in PROFILES:
            rules = rules.with_profile(lowered["rules"])
        for name, value in lowered.items():
            word = value.lower()
            if name in _SWITCH_TAGS and word in _SWITCH_WORDS:
                switch: dict[str, Any] = {_SWITCH_TAGS[name]: word in _TRUE_WORDS}
                rules = replace(rules, **switch)
            elif name == "cubelimit" and _small_number(value):
                rules = replace(rules, cube_limit=int(value))
            elif name == "backgammoncounts" and value in ("1", "2", "3"):
                rules = replace(rules, backgammon_counts=int(value))
            elif name == "cubecap" and word in ("needed", "none", "off"):
                rules = replace(rules, cube_cap_needed=word == "needed")
        return rules

    def tags(self) -> dict[str, str]:
        """The tags that say how these rules differ from the standard ones, so
        that a written file carries them (a standard file gets none)."""
        base = Rules(match_length=self.match_length).with_profile(self.profile)
        out: dict[str, str] = {}
        if self.profile != "standard":
            out["Rules"] = self.profile
        for tag, field in _TAG_OF_SWITCH.items():
            if getattr(self, field) != getattr(base, field) and not self._irrelevant(field):
                out[tag] = "On" if getattr(self, field) else "Off"
        # sites write a limit of 1024 for none: no cube gets there
        if self.cube_limit != base.cube_limit and 0 < self.cube_limit < 1024:
            out["CubeLimit"] = str(self.cube_limit)
        if self.backgammon_counts != base.backgammon_counts:
            out["BackgammonCounts"] = str(self.backgammon_counts)
        if self.cube_cap_needed != base.cube_cap_needed:
            out["CubeCap"] = "needed" if self.cube_cap_needed else "none"
        return out

    def _irrelevant(self, field: str) -> bool:
        """A setting that cannot matter here: Jacoby in a match, Crawford in money play."""
        return (field == "jacoby" and self.match_length > 0) or (field == "crawford" and self.match_length == 0)

    def describe(self) -> list[str]:
        """What these rules say, a line each, for ``bgcli rules``."""
        lines = ["no doubling cube" if self.cubeless else
                 "a doubling cube" + (f" up to {self.cube_limit}" if self.cube_limit else "")
                 + ("; in a match the stake never exceeds the points the doubler still needs" if self.cube_cap_needed else "")]
        if not self.cubeless:
            lines.append("matches: the Crawford rule" if self.crawford else "matches: no Crawford rule")
            if self.jacoby:
                lines.append("money play: the Jacoby rule (gammons count single while the cube is centred)")
            if self.beavers:
                lines.append("money play: beavers and raccoons")
            if self.auto_doubles:
                lines.append(f"money play: up to {self.auto_doubles} automatic doubles on equal opening rolls")
        if self.white_first:
            lines.append("White always rolls first, an ordinary roll of two dice (a double opening is legal); "
                         "the left column of a file is White unless a [White] tag names the other player")
        else:
            lines.append("the opening roll is one die each, so never a double")
        if self.home_gammons:
            lines.append("a win counts 1 when the loser has borne off a checker, 2 when it has borne off none "
                         "but has every checker in its home board, 3 when any of its checkers is outside it")
        else:
            counts = {3: "3", 2: "2 (it counts as a gammon)", 1: "1"}[self.backgammon_counts]
            lines.append(f"a win counts 1, a gammon 2 (the loser has borne off no checker), a backgammon {counts} "
                         "(besides, a loser's checker is on the bar or in the winner's home board)")
        if self.standalone_games:
            lines.append("each game stands alone: files are written as a 0 point match, and score also counts "
                         "games won, gammons, backgammons and draws per player")
        lines.append("an agreed draw is a result" if self.draws else "no draws")
        return lines


# The named bundles of the rule texts. Each lists the settings it changes
# from the standard game; choosing a profile resets every such setting.
PROFILES: dict[str, dict[str, Any]] = {
    "standard": {},
    # a cubeless site where White always starts and each game stands alone
    "plyyard": {"cubeless": True, "white_first": True, "draws": True, "standalone_games": True},
    # the traditional Korean game: no cube, and its own count of a win
    "korean": {"cubeless": True, "home_gammons": True},
}
PROFILE_SUMMARIES = {
    "standard": "the international rules, as GNU Backgammon plays them",
    "plyyard": "a cubeless site where White always rolls first and each game stands alone",
    "korean": "the traditional Korean game: no cube, and a win counts 1, 2 or 3 by where the loser's checkers are",
}
_PROFILE_FIELDS = ("cubeless", "white_first", "draws", "standalone_games", "home_gammons", "cube_cap_needed")
_SWITCH_TAGS = {"crawford": "crawford", "jacoby": "jacoby", "draws": "draws", "cubeless": "cubeless"}
_TAG_OF_SWITCH = {"Crawford": "crawford", "Jacoby": "jacoby", "Draws": "draws", "Cubeless": "cubeless"}
_TRUE_WORDS = ("on", "yes", "true", "1")


def _small_number(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 9


_SWITCH_WORDS = ("on", "off", "yes", "no", "true", "false", "1", "0")


def tag_problems(tags: dict[str, str]) -> list[str]:
    """Why a rule tag of a match file cannot be read (its rule is then not changed)."""
    out = []
    for key, value in tags.items():
        name, text = key.lower(), str(value).strip()
        if name in _SWITCH_TAGS and text.lower() not in _SWITCH_WORDS:
            out.append(f"tag [{key} {text[:20]!r}] is not On or Off")
        elif name == "cubelimit" and not _small_number(text):
            out.append(f"tag [{key} {text[:20]!r}] is not a number")
        elif name == "backgammoncounts" and text not in ("1", "2", "3"):
            out.append(f"tag [{key} {text[:20]!r}] is not 1, 2 or 3")
        elif name == "cubecap" and text.lower() not in ("needed", "none", "off"):
            out.append(f"tag [{key} {text[:20]!r}] is not 'needed' or 'none'")
        elif name == "rules" and text.lower() not in PROFILES:
            out.append(f"tag [{key} {text[:20]!r}] names no rules bgcli knows ({', '.join(PROFILES)})")
    return out


def game_kind(final: Position, winner_is_player: bool = True, home_gammons: bool = False) -> int:
    """SINGLE, GAMMON or BACKGAMMON for a finished game.

    ``final`` is any position in which one side has borne off all 15
    checkers; ``winner_is_player`` says whether that side is ``final.player``.
    With ``home_gammons`` (the traditional Korean count) the loser who has
    borne off none loses 2 only with every checker in its own home board,
    and 3 with any checker outside it (the bar included).
    """
    winner, loser = (final.player, final.opponent) if winner_is_player else (final.opponent, final.player)
    if winner[OFF] != CHECKERS:
        raise ValueError("game is not over: the winner has not borne off every checker")
    if loser[OFF] > 0:
        return SINGLE
    if home_gammons:
        return BACKGAMMON if any(loser[p] for p in range(7, 26)) else GAMMON
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
