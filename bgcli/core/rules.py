"""Rule settings: the rules a match or session is played under.

The rules come from the rule texts: Jacoby in money play; Crawford in
matches; automatic doubles, beavers, "a backgammon counts as a gammon" in
some countries, a cube limit; the named profiles of other houses (a
cubeless site where White always starts, the traditional Korean game). What
a game is worth under them is :mod:`bgcli.core.value`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any, Sequence

from bgcli.core.position import CHECKERS, OFF, START_SIDE, other_side


class Variation(str, Enum):
    """The variant of backgammon played, the one owner of what a game starts
    from (``Position.start`` asks :attr:`opening`) and of how many checkers a
    side has. Its value is its key in a JSON document's ``rules``; the tag
    ``Variation`` says it in a match file (:attr:`word`, read by :meth:`read`).

    A variant with fewer checkers than 15 (hypergammon, GNU Backgammon's 1, 2
    and 3 checkers) counts the ones a side lacks as borne off from the start:
    a position still holds 15 a side, its Position ID (the checkers on the
    board) is gnubg's, a game ends when a side has no checker left on the
    board, and the move rules are the standard ones, as gnubg plays them; what
    asks how many a side has borne off of its own (a gammon: none) asks
    :attr:`off_at_start`."""

    STANDARD = "backgammon"
    NACKGAMMON = "nackgammon"
    HYPERGAMMON_1 = "hypergammon1"
    HYPERGAMMON_2 = "hypergammon2"
    HYPERGAMMON_3 = "hypergammon3"

    @property
    def checkers(self) -> int:
        """How many checkers a side plays with."""
        return _HYPERGAMMON_CHECKERS.get(self, CHECKERS)

    @property
    def off_at_start(self) -> int:
        """The checkers a side counts as borne off before a game starts (the
        ones the variant lacks): a side has borne off none of its own while its
        off count is this."""
        return CHECKERS - self.checkers

    @property
    def opening(self) -> tuple[int, ...]:
        """A side's 26 counts at the start of a game (core.position's layout)."""
        if self is Variation.NACKGAMMON:
            return _NACKGAMMON_SIDE
        if self is Variation.STANDARD:
            return START_SIDE
        # hypergammon: a checker on each of the 24-, 23- and 22-points, as many as the variant has
        side = [0] * 26
        side[OFF] = self.off_at_start
        for point in range(1, self.checkers + 1):   # the other side's points 1, 2, 3
            side[other_side(point)] = 1
        return tuple(side)

    @property
    def word(self) -> str:
        """How the tag ``Variation`` says it: eXtreme Gammon's words for the
        standard game and nackgammon (gnubg reads them), gnubg's own for
        hypergammon (``HyperGammon (1)``: only gnubg says the checkers)."""
        return _WORDS[self][0]

    @property
    def sgf_rule(self) -> str:
        """GNU Backgammon's word for it in an SGF file's ``RU`` ('' for the standard game)."""
        return _SGF_RULES.get(self, "")

    @classmethod
    def read(cls, text: str) -> "Variation | None":
        """The variant a tag ``Variation`` or an SGF ``RU`` word says (in any
        case), or None."""
        return _OF_WORD.get(" ".join(text.split()).lower())

    def describe(self) -> str:
        """What the variant changes, in a line for ``bgcli rules`` ('' for the standard game)."""
        if self is Variation.NACKGAMMON:
            return ("nackgammon: each side starts with two checkers on the 24-point, two on the 23-point, "
                    "four on the 13-point, three on the 8-point and four on the 6-point")
        if self is Variation.STANDARD:
            return ""
        where = ("on the 24-point", "one on each of the 24- and the 23-point",
                 "one on each of the 24-, 23- and 22-point")[self.checkers - 1]
        return (f"hypergammon of {self.checkers} checker{'s' if self.checkers > 1 else ''} a side, {where}, "
                "played with the standard rules; a gammon when the loser has borne off none of them")


# Nackgammon's opening position (Nick Nack's variant, which GNU Backgammon, XG and BGBlitz
# play): two back checkers more, on the 23-point, one fewer on the 13- and the 6-point
_NACKGAMMON_SIDE = (0, 0, 0, 0, 0, 0, 4, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0)
_HYPERGAMMON_CHECKERS = {Variation.HYPERGAMMON_1: 1, Variation.HYPERGAMMON_2: 2, Variation.HYPERGAMMON_3: 3}
# The words a file says each variant with, the one written first: eXtreme Gammon writes
# "Backgammon", "Nackgammon" and, for its hypergammon of 3 checkers, "Hypergammon"; GNU
# Backgammon's .mat "NackGammon" and "HyperGammon (1)" (2, 3); its SGF RU and its Python
# match() "Hypergammon1" (2, 3). Nackgammon is written as gnubg writes it: gnubg 1.07's
# import read a money session tagged XG's "Nackgammon" as the standard game
# (tests/test_heldout_roundtrip.py)
_WORDS = {
    Variation.STANDARD: ("Backgammon",),
    Variation.NACKGAMMON: ("NackGammon", "Nackgammon"),
    Variation.HYPERGAMMON_1: ("HyperGammon (1)", "Hypergammon1"),
    Variation.HYPERGAMMON_2: ("HyperGammon (2)", "Hypergammon2"),
    Variation.HYPERGAMMON_3: ("HyperGammon (3)", "Hypergammon3", "Hypergammon"),
}
_OF_WORD = {word.lower(): variation for variation, words in _WORDS.items() for word in words}
_SGF_RULES = {variation: words[1] for variation, words in _WORDS.items() if len(words) > 1}
_SGF_RULES[Variation.NACKGAMMON] = "Nackgammon"


@dataclass(frozen=True)
class Rules:
    """The rules a match or session is played under."""

    match_length: int = 0          # 0 = money play
    crawford: bool = True          # the game after a player reaches length - 1 has no cube
    jacoby: bool = False           # money: gammons count single while the cube is centred
    beavers: bool = False          # money: a doubled player may redouble at once, keeping the cube (and raccoon)
    raccoons: int = 1              # money with beavers: how many instant redoubles may follow a beaver
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
    variation: Variation = Variation.STANDARD   # the variant played: what every game starts from

    def with_profile(self, name: str) -> "Rules":
        """These rules with the settings of profile ``name`` (other settings kept)."""
        try:
            profile = PROFILES[name.lower()]
        except KeyError:
            raise ValueError(f"unknown rules {name!r}: expected one of {', '.join(PROFILES)}") from None
        values: dict[str, Any] = {key: profile.settings.get(key, getattr(Rules, key)) for key in PROFILE_FIELDS}
        return replace(self, profile=profile.name, **values)

    def with_tags(self, tags: dict[str, str]) -> "Rules":
        """Apply the rule tags of a match file (:data:`SETTINGS`): ``[Rules]``
        first (a profile), then each setting's tag. A tag whose value cannot
        be read changes nothing (``tag_problems`` says why)."""
        rules = self
        lowered = {key.lower(): str(value).strip() for key, value in tags.items()}
        if lowered.get(PROFILE_TAG.lower(), "").lower() in PROFILES:
            rules = rules.with_profile(lowered[PROFILE_TAG.lower()])
        changes: dict[str, Any] = {}
        for name, text in lowered.items():
            setting = SETTING_OF_TAG.get(name)
            value = setting.read(text) if setting is not None else None
            if setting is not None and value is not None:
                changes[setting.field] = value
        return replace(rules, **changes)

    def applies(self, field: str) -> bool:
        """Whether setting ``field`` can matter under these rules, whatever its
        value (:meth:`Setting.matters`: Jacoby in money play only, ...): a
        writer asks it to know what a format without the setting loses."""
        return SETTING_OF_FIELD[field].matters(self)

    def in_force(self, field: str) -> Any:
        """The value of setting ``field`` where it can matter under these rules
        (:meth:`Setting.matters`: Jacoby, beavers and automatic doubles in money
        play only, the Crawford rule in a match only), else off (False or 0).
        Whoever applies such a setting asks this instead of looking at the
        match length beside it."""
        value = getattr(self, field)
        return value if self.applies(field) else type(value)()

    def tags(self) -> dict[str, str]:
        """The tags that say how these rules differ from the standard ones, so
        that a written file carries them (a standard file gets none)."""
        base = Rules(match_length=self.match_length).with_profile(self.profile)
        out: dict[str, str] = {}
        if self.profile != "standard":
            out[PROFILE_TAG] = self.profile
        for setting in SETTINGS:
            value = getattr(self, setting.field)
            if value == getattr(base, setting.field) or not setting.matters(self):
                continue
            if setting.field == "cube_limit" and not 0 < value < _NO_LIMIT:
                continue
            out[setting.tag] = setting.write(value)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Every setting by its JSON key (``profile`` for the profile), as a
        JSON document's ``rules`` holds them."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "match_length"}

    @classmethod
    def from_options(cls, profile: str = "standard", **values: Any) -> "Rules":
        """The rules a profile and the settings given (by field; None: not
        given, the profile's value stands) make."""
        unknown = set(values) - {setting.field for setting in SETTINGS}
        if unknown:
            raise ValueError(f"unknown rule settings: {', '.join(sorted(unknown))}")
        return replace(cls().with_profile(profile), **{k: v for k, v in values.items() if v is not None})

    def describe(self) -> list[str]:
        """What these rules say, a line each, for ``bgcli rules``."""
        lines = ["no doubling cube" if self.cubeless else
                 "a doubling cube" + (f" up to {self.cube_limit}" if self.cube_limit else "")
                 + ("; in a match the stake never exceeds the points the doubler still needs" if self.cube_cap_needed else "")]
        if self.cubeless and self.jacoby:   # the cube is centred for good (core.value.jacoby_applies)
            lines.append("money play: the Jacoby rule with no cube: every gammon and backgammon counts single")
        if not self.cubeless:
            lines.append("matches: the Crawford rule" if self.crawford else "matches: no Crawford rule")
            if self.jacoby:
                lines.append("money play: the Jacoby rule (gammons count single while the cube is centred)")
            if self.beavers:
                lines.append("money play: beavers and raccoons" if self.raccoons == 1 else
                             "money play: beavers, no raccoon" if not self.raccoons else
                             f"money play: beavers, then up to {self.raccoons} raccoons, each by the player the "
                             f"last one doubled")
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
        if self.variation.describe():
            lines.append(self.variation.describe())
        if self.standalone_games:
            lines.append("each game stands alone: files are written as a 0 point match, and score also counts "
                         "games won, gammons, backgammons and draws per player")
        lines.append("an agreed draw is a result" if self.draws else "no draws")
        return lines


@dataclass(frozen=True)
class Profile:
    """A named bundle of the rule texts: its name (the ``--rules`` option,
    the ``[Rules]`` tag, the JSON ``profile``), what it is in one line (for
    ``bgcli rules``), and the settings it changes from the standard game."""

    name: str
    summary: str
    settings: dict[str, Any] = field(default_factory=dict)


# The registry of profiles: every command, option, tag and document that
# names a profile asks it (the CLI's choices come from here). A new profile
# is one entry; the settings it may change are PROFILE_FIELDS.
PROFILES: dict[str, Profile] = {profile.name: profile for profile in (
    Profile("standard", "the international rules, as GNU Backgammon plays them"),
    Profile("plyyard", "a cubeless site where White always rolls first and each game stands alone",
            {"cubeless": True, "white_first": True, "draws": True, "standalone_games": True}),
    Profile("korean", "the traditional Korean game: no cube, and a win counts 1, 2 or 3 by where the loser's "
                      "checkers are", {"cubeless": True, "home_gammons": True}),
)}
# The settings a profile decides: choosing a profile resets each of them to the
# profile's value (the standard one where the profile says none), so that
# --rules korean after a file's [Rules "PlyYard"] leaves nothing of PlyYard.
PROFILE_FIELDS = ("cubeless", "white_first", "draws", "standalone_games", "home_gammons", "cube_cap_needed")


# --- the settings: each one's field, tag, JSON key and option, described once ---------

_TRUE_WORDS = ("on", "yes", "true", "1")
_SWITCH_WORDS = ("on", "off", "yes", "no", "true", "false", "1", "0")


@dataclass(frozen=True)
class Setting:
    """One rule setting, described once: the field of :class:`Rules` (which
    is also its key in a JSON document's ``rules``), its tag in match files
    (``; [Beavers "On"]``, also SGF's ``XR[Beavers=On]``), its command-line
    option (None where only a profile or a file sets it), and how its value
    is read from and written to a tag. Every reader and writer of rules goes
    through :data:`SETTINGS`."""

    field: str
    tag: str
    option: str | None
    help: str
    low: int = 0                   # numbers: the values allowed
    high: int = 0
    words: tuple[str, ...] = ()    # words: the words a tag or the option may say (in any case); the first
                                   # one means True
    option_sets: Any = True        # a flag option: the value it sets (--no-crawford sets False)
    play: str = ""                 # "money" or "match": where the setting can matter ("" both)
    expected: str = ""             # what a readable tag says, for messages
    other_tags: tuple[str, ...] = ()   # the same tag as other programs spell it (XG writes "Beaver"), read alike

    @property
    def kind(self) -> type:
        """bool, int or Variation: the type of the field, and of its value in
        JSON (a Variation's value, text)."""
        return type(getattr(Rules, self.field))

    @property
    def flag(self) -> bool:
        return self.kind is bool and not self.words

    def read(self, text: str) -> Any:
        """The value a tag's text says, or None when it cannot be read."""
        word = text.strip().lower()
        if self.kind is Variation:   # the variant's own words (its owner reads them)
            return Variation.read(text)
        if self.words:
            words = [w.lower() for w in self.words]
            return word == words[0] if word in words else None
        if self.kind is bool:
            return word in _TRUE_WORDS if word in _SWITCH_WORDS else None
        if word.isascii() and word.isdigit() and len(word) <= 9 and self.low <= int(word) <= self.high:
            return int(word)
        return None

    def write(self, value: Any) -> str:
        """The tag's text for ``value``."""
        if isinstance(value, Variation):
            return value.word
        if self.words:
            return self.words[0] if value else self.words[1]
        if self.kind is bool:
            return "On" if value else "Off"
        return str(value)

    def matters(self, rules: "Rules") -> bool:
        """Whether the setting can matter under ``rules`` (Jacoby does not in a match)."""
        return not self.play or (self.play == "money") == (rules.match_length == 0)


SETTINGS: tuple[Setting, ...] = (
    # in the order files list their tags
    Setting("crawford", "Crawford", "--no-crawford", "Matches: no Crawford game.", option_sets=False, play="match",
            expected="On or Off"),
    Setting("jacoby", "Jacoby", "--jacoby", "Money play: gammons and backgammons count single while the cube is centred.",
            play="money", expected="On or Off"),
    Setting("draws", "Draws", "--draws", "An agreed draw is a result.", expected="On or Off"),
    Setting("cubeless", "Cubeless", "--cubeless", "No doubling cube: any double breaks the rules.", expected="On or Off"),
    Setting("cube_limit", "CubeLimit", "--cube-limit", "The highest cube value allowed (0: no limit).",
            low=0, high=1 << 30, expected="a number"),
    Setting("backgammon_counts", "BackgammonCounts", "--backgammon-counts",
            "What a backgammon is worth, times the cube (2 where it counts as a gammon).", low=1, high=3,
            expected="1, 2 or 3"),
    Setting("cube_cap_needed", "CubeCap", "--cube-cap", "needed: in a match the stake is capped by the points the "
                                                        "doubler still needs, and a double past that breaks the rules.",
            words=("needed", "none", "off"), expected="'needed' or 'none'"),
    Setting("beavers", "Beavers", "--beavers", "Money play: a doubled player may beaver (redouble at once), "
                                               "and the doubler then raccoon.", play="money", expected="On or Off",
            other_tags=("Beaver",)),
    Setting("raccoons", "Raccoons", "--raccoons",
            "Money play with beavers: how many instant redoubles may follow a beaver, each by the player the last "
            "one doubled (1: the doubler's raccoon; GNU Backgammon's 'set beavers N' allows N - 1).",
            low=0, high=10, play="money", expected="a number from 0 to 10"),
    Setting("auto_doubles", "AutoDoubles", "--auto-doubles", "Money play: up to N automatic doubles on equal opening rolls.",
            low=0, high=10, play="money", expected="a number from 0 to 10"),
    Setting("white_first", "WhiteFirst", None, "White always rolls first, an ordinary roll of two dice.",
            expected="On or Off"),
    Setting("standalone_games", "StandaloneGames", None, "Each game stands alone: no running score to check.",
            expected="On or Off"),
    Setting("home_gammons", "HomeGammons", None, "The traditional Korean count of a win.", expected="On or Off"),
    # the tag GNU Backgammon ("NackGammon", "HyperGammon (1)"), eXtreme Gammon and the sites that copy
    # XG's head write: its "Backgammon" is the standard game; GNU Backgammon's import of a .mat file
    # reads the tag so
    # its words are the Variation's own (Variation.read, Variation.word)
    Setting("variation", "Variation", None, "The variant played: every game starts from its opening position.",
            expected="Backgammon, Nackgammon or HyperGammon (1), (2) or (3) (bgcli replays no other variant: its "
                     "starting position differs)"),
)
SETTING_OF_TAG = {tag.lower(): setting for setting in SETTINGS for tag in (setting.tag, *setting.other_tags)}
SETTING_OF_FIELD = {setting.field: setting for setting in SETTINGS}
PROFILE_TAG = "Rules"   # the tag (and JSON key "profile", option --rules) naming a profile
# The names of every rule tag, lowercased: a writer that keeps a file's other
# tags leaves these to Rules.tags()
RULE_TAGS = frozenset({PROFILE_TAG.lower(), *SETTING_OF_TAG})
# Sites write a cube limit of 1024 for none: no cube gets there, so no tag says it
_NO_LIMIT = 1024


def tag_for(field: str, value: Any) -> tuple[str, str]:
    """The tag a match file says setting ``field`` with, and its text for ``value``
    (``tag_for("jacoby", True)`` is ``("Jacoby", "On")``): every reader that turns a
    site's or a program's own rule words into tags asks this."""
    setting = SETTING_OF_FIELD[field]
    return setting.tag, setting.write(value)


def tag_problems(tags: dict[str, str]) -> list[str]:
    """Why a rule tag of a match file cannot be read (its rule is then not changed)."""
    out = []
    for key, value in tags.items():
        name, text = key.lower(), str(value).strip()
        setting = SETTING_OF_TAG.get(name)
        if setting is not None and setting.read(text) is None:
            out.append(f"tag [{key} {text[:20]!r}] is not {setting.expected}")
        elif name == PROFILE_TAG.lower() and text.lower() not in PROFILES:
            out.append(f"tag [{key} {text[:20]!r}] names no rules bgcli knows ({', '.join(PROFILES)})")
    return out


def points_away(length: int, score: Sequence[int], side: int) -> int:
    """The points ``side`` (0 or 1) still needs to win a ``length``-point match at ``score`` (each side's points):
    its "away", as the match equity tables and the cube count; 0 in money play (no length). The one place a
    score is turned into the points left."""
    return length - score[side] if length else 0


def one_away(length: int, score: Sequence[int]) -> bool:
    """Whether a player of a ``length``-point match (0: money play) needs one point at ``score``: the
    scores of the Crawford game and of the games after it (gnubg's post-Crawford)."""
    return bool(length) and length - 1 in score


def one_away_left(away: Sequence[int]) -> bool:
    """:func:`one_away` in the points each side still needs (``away``; money play is 0 and 0): whether a
    player of a match still in play needs one point. Once a side has won (0 or less away) no game
    follows and neither is taken as one away, nor in money play."""
    return min(away) == 1


def crawford_game(rules: Rules, score_before: tuple[int, int], previous_was_crawford_or_later: bool) -> bool:
    """Whether a game starting at ``score_before`` is the Crawford game: the first game at a score where
    one player, and only one, needs one point."""
    if not rules.in_force("crawford") or previous_was_crawford_or_later:
        return False
    return one_away(rules.match_length, score_before) and min(score_before) < rules.match_length - 1
