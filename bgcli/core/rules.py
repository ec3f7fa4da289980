"""Rule settings: the rules a match or session is played under.

The rules come from the rule texts: Jacoby in money play; Crawford in
matches; automatic doubles, beavers, "a backgammon counts as a gammon" in
some countries, a cube limit; the named profiles of other houses (a
cubeless site where White always starts, the traditional Korean game). What
a game is worth under them is :mod:`bgcli.core.value`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


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


def crawford_game(rules: Rules, score_before: tuple[int, int], previous_was_crawford_or_later: bool) -> bool:
    """Whether a game starting at ``score_before`` is the Crawford game."""
    if not rules.match_length or not rules.crawford or previous_was_crawford_or_later:
        return False
    return max(score_before) == rules.match_length - 1 and min(score_before) < rules.match_length - 1
