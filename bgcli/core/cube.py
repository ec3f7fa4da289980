"""The doubling cube: who may double now, and the proper cube action in GNU Backgammon's own words.

The one place the cube is decided; the audit (:mod:`bgcli.match.game`),
``hint`` (:mod:`bgcli.engines.hint`), ``rate`` (:mod:`bgcli.judging.rating`)
and the view ask it.

**May this player double?** :func:`refusals` lists every reason a player may
not double now, each a :class:`Refusal` (a :class:`Reason` and the numbers
that explain it), never an error: no cube in these rules, the Crawford game,
the stake already capped by the points needed (``Rules.cube_cap_needed``),
the opponent owning the cube, the cube limit, and, in a match, a dead cube
(the cube already wins the player the match: legal, but pointless, so GNU
Backgammon's hint says "You cannot double."). :func:`may_double` is the
first of them, or None. Beavers and raccoons (money play, ``Rules.beavers``)
have :func:`beaver_refusal`; the cube of the opening with automatic doubles
:func:`starting_cubes`.

**Beavers and raccoons.** A redouble made at once, before any roll, is an
:class:`InstantRedouble` (:func:`instant_redouble` says which): the doubled
player's while the double waits is a beaver (they take, turn the cube once
more and keep it); the doubler's right after that beaver is a raccoon: the
cube turns once more, the beaverer keeps it, and the doubler rolls, as the
rec.games.backgammon FAQ has it ("Cube ownership remains with B") and GNU
Backgammon ends once the raccoon is taken. No take is needed (an instant
redouble answers the one before it, as the beaver answered the double), but
a file may record the beaverer's answer (gnubg's .mat import waits for a
``Takes``; XG stores one): a take confirms the raccoon, a drop pays the cube
before it. Files write an instant redouble with whatever word they have
(gnubg's SGF says ``double`` for each, its .mat export ``Beavers`` for the
raccoon too): the state of the cube, not the word, says which it is.

**The value a turn makes.** Every turn of the cube (a double, a beaver, a
raccoon, an automatic double) doubles the value it turns: :func:`turned`.
:func:`value_after` says what a double, beaver or raccoon makes a
:class:`~bgcli.core.state.CubeState` now (the replay holds a record's value
to it), :func:`value_reached` what the action of an event's state made the
cube, the value a record states or else the rules' (the writers, the view).

**The proper action.** :func:`proper_action` turns an engine's three cubeful
equities (no double, double/take, double/pass, for the player who may
double; equities or match winning chances, which order alike) into a
:class:`CubeAction`, whose ``str()`` is GNU Backgammon 1.07's words, with its
tie-breaks, as its hint prints them (checked on gnubg's own analysis of
cube decisions bgcli never saw, tests/data/cube). :func:`percent` is the
figure gnubg prints after them, :func:`ranked` the order of its three lines.

The rule settings are read in one place, :func:`rules_of` (the rules a
match state carries), so that a change of where the settings live touches
one function.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from bgcli.core.kinds import Worded
from bgcli.core.rules import Rules, points_away
from bgcli.core.value import jacoby_applies

if TYPE_CHECKING:
    from bgcli.core.state import CubeState, GameState, MatchState


# --- the proper action ---------------------------------------------------------------

class Answer(Worded):
    """The doubled player's proper answer."""

    TAKE = "take"
    PASS = "pass"
    BEAVER = "beaver"   # take and redouble at once, keeping the cube (money play with beavers)


class CubeAction(Worded):
    """The proper cube action; the value is GNU Backgammon's own words (``str()`` gives them)."""

    NO_DOUBLE_TAKE = "No double, take"
    NO_REDOUBLE_TAKE = "No redouble, take"
    NO_DOUBLE_BEAVER = "No double, beaver"
    NO_REDOUBLE_BEAVER = "No redouble, beaver"
    DOUBLE_TAKE = "Double, take"
    REDOUBLE_TAKE = "Redouble, take"
    DOUBLE_BEAVER = "Double, beaver"
    DOUBLE_PASS = "Double, pass"
    REDOUBLE_PASS = "Redouble, pass"
    TOO_GOOD_TAKE = "Too good to double, take"
    TOO_GOOD_PASS = "Too good to double, pass"
    TOO_GOOD_RE_TAKE = "Too good to redouble, take"
    TOO_GOOD_RE_PASS = "Too good to redouble, pass"
    OPTIONAL_DOUBLE_TAKE = "Optional double, take"
    OPTIONAL_REDOUBLE_TAKE = "Optional redouble, take"
    OPTIONAL_DOUBLE_BEAVER = "Optional double, beaver"
    OPTIONAL_DOUBLE_PASS = "Optional double, pass"
    OPTIONAL_REDOUBLE_PASS = "Optional redouble, pass"
    # gnubg's words for a match where the player may not double (the
    # Crawford game, a dead cube); its hint itself then says "You cannot double."
    NEVER_DOUBLE = "Never double, take (dead cube)"
    NEVER_REDOUBLE = "Never redouble, take (dead cube)"

    @property
    def doubles(self) -> bool:
        """Whether doubling now is right (an optional double counts: it costs nothing)."""
        return self.name.startswith(("DOUBLE", "REDOUBLE", "OPTIONAL"))

    @property
    def optional(self) -> bool:
        """Doubling and holding are worth the same."""
        return self.name.startswith("OPTIONAL")

    @property
    def too_good(self) -> bool:
        return self.name.startswith("TOO_GOOD")

    @property
    def answer(self) -> Answer:
        """The doubled player's proper answer to a double."""
        return Answer(self.value.split(", ")[1].split(" ")[0])


# gnubg counts two cubeful equities as equal (an optional double) within this
_OPTIONAL = 1.0e-5
# money play: a taker whose equity after taking is past a sure single win at
# the doubled cube (double/take below -2) plays on for the gammon rather than beaver
_BEAVER_FLOOR = -2.0

_WORDS = {
    # (redouble, kind) -> the action
    (False, "no"): CubeAction.NO_DOUBLE_TAKE, (True, "no"): CubeAction.NO_REDOUBLE_TAKE,
    (False, "no beaver"): CubeAction.NO_DOUBLE_BEAVER, (True, "no beaver"): CubeAction.NO_REDOUBLE_BEAVER,
    (False, "take"): CubeAction.DOUBLE_TAKE, (True, "take"): CubeAction.REDOUBLE_TAKE,
    (False, "pass"): CubeAction.DOUBLE_PASS, (True, "pass"): CubeAction.REDOUBLE_PASS,
    (False, "good take"): CubeAction.TOO_GOOD_TAKE, (True, "good take"): CubeAction.TOO_GOOD_RE_TAKE,
    (False, "good pass"): CubeAction.TOO_GOOD_PASS, (True, "good pass"): CubeAction.TOO_GOOD_RE_PASS,
    (False, "optional take"): CubeAction.OPTIONAL_DOUBLE_TAKE, (True, "optional take"): CubeAction.OPTIONAL_REDOUBLE_TAKE,
    (False, "optional pass"): CubeAction.OPTIONAL_DOUBLE_PASS, (True, "optional pass"): CubeAction.OPTIONAL_REDOUBLE_PASS,
    # gnubg has one word for a beaver of a double or a redouble
    (False, "beaver"): CubeAction.DOUBLE_BEAVER, (True, "beaver"): CubeAction.DOUBLE_BEAVER,
    (False, "optional beaver"): CubeAction.OPTIONAL_DOUBLE_BEAVER, (True, "optional beaver"): CubeAction.OPTIONAL_DOUBLE_BEAVER,
    (False, "dead"): CubeAction.NEVER_DOUBLE, (True, "dead"): CubeAction.NEVER_REDOUBLE,
}


def proper_action(no_double: float, double_take: float, double_pass: float, *, redouble: bool = False,
                  beavers: bool = False, gammons: bool = True, dead: bool = False) -> CubeAction:
    """The proper cube action from the doubler's three cubeful equities, as GNU Backgammon decides it.

    ``redouble``: the player owns the cube; ``beavers``: money play where the
    rules allow beavers; ``gammons``: the player has any cubeless chance of a
    gammon (holding then may still gain, so a double that only ties holding
    is optional; a won game without gammons is simply "Double, pass");
    ``dead``: a match where the player may not double (the Crawford game, a
    dead cube), gnubg's "Never double".

    gnubg's tie-breaks: doubling is right when double/take and double/pass
    are both at least no double (an optional double when the doubled equity
    equals no double within 1e-5); the doubled player passes a double when
    double/pass is at most double/take; a position is too good when no
    double is strictly above double/pass (and, without gammons, by more than 1e-5)."""
    if dead:
        return _WORDS[redouble, "dead"]
    nd, dt, dp = no_double, double_take, double_pass
    beaver = beavers and _BEAVER_FLOOR <= dt < 0.0
    # without gammons no double cannot be worth more than a sure single win: an excess within
    # the tolerance is the engine's rounding, and the position is a double, not too good
    won = not gammons and abs(dp - nd) <= _OPTIONAL
    if dt >= nd and (dp >= nd or won):
        if dp > dt:
            optional = abs(dt - nd) <= _OPTIONAL
            kind = "beaver" if beaver else "take"
            return _WORDS[redouble, f"optional {kind}" if optional else kind]
        optional = abs(dp - nd) <= _OPTIONAL and gammons
        return _WORDS[redouble, "optional pass" if optional else "pass"]
    if nd > dp:
        return _WORDS[redouble, "good pass" if dt > dp else "good take"]
    return _WORDS[redouble, "no beaver" if beaver else "no"]


def percent(action: CubeAction, no_double: float, double_take: float, double_pass: float) -> float | None:
    """The fraction gnubg prints after its proper action (``(23.0%)`` is 0.230), or None where it prints none.

    After no double: how far no double lies from double/take towards
    double/pass; after too good: how far no double lies past double/pass
    towards double/take. A double prints none, nor a figure outside 0 to 1
    (too good where double/take is below no double)."""
    nd, dt, dp = no_double, double_take, double_pass
    if action.too_good:
        share = (nd - dp) / (dt - dp) if dt != dp else None
    elif not action.doubles and action not in (CubeAction.NEVER_DOUBLE, CubeAction.NEVER_REDOUBLE):
        share = (nd - dt) / (dp - dt) if dp != dt else None
    else:
        share = None
    return share if share is not None and 0.0 <= share <= 1.0 else None   # gnubg prints none out of range


class Line(Worded):
    """The three lines of a cube analysis, named as gnubg's hint names them."""

    NO_DOUBLE = "No double"
    DOUBLE_TAKE = "Double, take"
    DOUBLE_PASS = "Double, pass"

    @property
    def word(self) -> str:
        """The line in lower case, as a field of a record or a report names it ("double, take")."""
        return self.value.lower()


def ranked(action: CubeAction, no_double: float, double_take: float, double_pass: float) -> tuple[Line, Line, Line]:
    """The three lines in the order gnubg's hint prints them: the proper one
    first (no double for an optional double), then the other two, higher equity first."""
    values = {Line.NO_DOUBLE: no_double, Line.DOUBLE_TAKE: double_take, Line.DOUBLE_PASS: double_pass}
    if not action.doubles or action.optional:
        first = Line.NO_DOUBLE
    else:
        first = Line.DOUBLE_PASS if action.answer is Answer.PASS else Line.DOUBLE_TAKE
    rest = sorted((line for line in values if line is not first), key=lambda line: -values[line])
    return (first, rest[0], rest[1])


# --- may this player double? ------------------------------------------------------------

class Reason(Worded):
    """Why a player may not double (or beaver, or raccoon) now."""

    CUBELESS = "cubeless"      # these rules have no doubling cube
    CRAWFORD = "crawford"      # the Crawford game has no cube
    CAPPED = "capped"          # the stake is capped by the points needed, and the cube is there already
    OWNED = "owned"            # the opponent owns the cube
    LIMIT = "limit"            # the double goes past the cube limit
    DEAD = "dead"              # match play: the cube already covers the points the player needs (legal, pointless)
    NO_BEAVERS = "no beavers"  # a beaver or raccoon where the rules allow none
    MATCH_BEAVER = "match beaver"   # a beaver or raccoon in a match: beavers are for money play
    NOT_DOUBLER = "not doubler"     # a raccoon by anyone but the doubler right after a beaver
    RACCOONS = "raccoons"           # a raccoon past the number the rules allow after a beaver

    @property
    def breaks_rules(self) -> bool:
        """Whether doing it anyway breaks the rules (a dead cube's double is only pointless)."""
        return self is not Reason.DEAD


class Holder(Enum):
    """Who holds the cube, as the player on turn sees it."""

    CENTRED = "centred"
    PLAYER = "player"
    OPPONENT = "opponent"


@dataclass(frozen=True)
class CubeTurn:
    """What the cube rules need to know of a player's turn: the cube, who holds
    it, the points each side still needs (0 and 0 in money play), whether this
    is the Crawford game, and the rules."""

    cube: int = 1
    holder: Holder = Holder.CENTRED
    away: int = 0             # the points the player still needs (0: money play)
    opponent_away: int = 0
    crawford: bool = False    # this game is the Crawford game
    rules: Rules = Rules()

    @property
    def money(self) -> bool:
        return not self.rules.match_length

    @property
    def redouble(self) -> bool:
        return self.holder is Holder.PLAYER

    @property
    def gammons_count(self) -> bool:
        """Whether a gammon would win the player more than a single game at the cube
        now: not under the Jacoby rule with the cube centred, nor in a match
        where the cube already covers the points the player needs."""
        if self.money:
            return not jacoby_applies(self.rules, self.holder is Holder.CENTRED)
        return self.away > self.cube

    @classmethod
    def of(cls, state: "GameState", rules: Rules | None = None, player: int | None = None) -> "CubeTurn":
        """The turn of ``player`` (the player on roll by default) in ``state``, under
        ``rules`` (by default the rules the match state carries, :func:`rules_of`)."""
        match = state.match
        rules = rules_of(match) if rules is None else rules
        me = match.on_roll if player is None else player
        return cls.at(match.cube, match.cube_owner, me, match.score, match.crawford, rules)

    @classmethod
    def at(cls, cube: int, owner: int, side: int, score: tuple[int, int], crawford: bool, rules: Rules) -> "CubeTurn":
        """The turn of ``side`` (0 or 1) with the cube at ``cube`` held by ``owner``
        (-1 centred, else 0 or 1) at ``score`` (each side's points)."""
        holder = Holder.CENTRED if owner == -1 else Holder.PLAYER if owner == side else Holder.OPPONENT
        length = rules.match_length
        away, opponent_away = points_away(length, score, side), points_away(length, score, 1 - side)
        return cls(cube, holder, away, opponent_away, crawford and bool(length), rules)


def rules_of(match: "MatchState") -> Rules:
    """The rules a match state carries, for the cube: the one place the cube
    reads its settings from a state."""
    return match.rules


@dataclass(frozen=True)
class Refusal:
    """One reason a player may not do a cube action now, with the numbers it names."""

    reason: Reason
    cube: int = 1        # the cube now
    needed: int = 0      # CAPPED, DEAD: the points the player still needs
    limit: int = 0       # LIMIT: the cube limit; RACCOONS: the raccoons allowed after a beaver
    offered: int = 0     # LIMIT: the cube the double offers

    def __str__(self) -> str:
        """The reason as ``hint`` gives it."""
        return _TEXT[self.reason].format(self=self, points=points_word(self.needed))

    def said_of(self, player: str, owner: str = "", action: str = "doubles", doubled: str = "") -> str:
        """The reason as the audit reports a recorded action that broke it
        (``player`` did it; ``owner`` owns the cube; ``action``: doubles,
        beavers or raccoons; ``doubled``: the double as the record writes it,
        in its format's words, bgcli.match.wording)."""
        return _SAID[self.reason].format(self=self, player=player, owner=owner, action=action,
                                         points=points_word(self.needed),
                                         doubled=doubled or f"a double to {self.offered}")


_TEXT = {
    Reason.CUBELESS: "these rules have no doubling cube",
    Reason.CRAWFORD: "this is the Crawford game: no cube",
    Reason.CAPPED: "the cube ({self.cube}) is already as much as the {points} the player needs",
    Reason.OWNED: "the opponent owns the cube",
    Reason.LIMIT: "the cube is at its limit ({self.cube})",
    Reason.DEAD: "the cube ({self.cube}) already covers the {points} the player needs",
    Reason.NO_BEAVERS: "beavers are not allowed",
    Reason.MATCH_BEAVER: "beavers are for money play, not matches",
    Reason.NOT_DOUBLER: "only the doubler may raccoon, right after a beaver",
    Reason.RACCOONS: "raccoons after a beaver: at most {self.limit} in these rules",
}
_SAID = {
    Reason.CUBELESS: "{player} doubles, but these rules have no doubling cube",
    Reason.CRAWFORD: "{player} doubles in the Crawford game, where the cube is not used (use --no-crawford for a "
                     "match played without the Crawford rule)",
    Reason.CAPPED: "{player} doubles, but the cube at {self.cube} is already as much as the {points} {player} still needs",
    Reason.OWNED: "{player} doubles but {owner} owns the cube",
    Reason.LIMIT: "{doubled} goes past the cube limit of {self.limit}",
    Reason.DEAD: "{player} doubles, but the cube at {self.cube} already covers the {points} {player} still needs",
    Reason.NO_BEAVERS: "{player} {action} but beavers are not allowed (use --beavers)",
    Reason.MATCH_BEAVER: "{player} {action} in a match, but beavers are for money play",
    Reason.NOT_DOUBLER: "{player} raccoons, but only the doubler may, right after a beaver",
    Reason.RACCOONS: "{player} raccoons, but raccoons after a beaver are at most {self.limit} in these rules (use --raccoons N)",
}


def point_noun(n: int) -> str:
    """``point`` after 1, ``points`` after any other number: the noun alone (a
    file's cell that writes it in its own case, bgcli.formats.mat)."""
    return "point" if n == 1 else "points"


def points_word(n: int) -> str:
    """``1 point``, ``2 points``: how every message says a number of points."""
    return f"{n} {point_noun(n)}"


def refusals(turn: CubeTurn, offered: int | None = None) -> tuple[Refusal, ...]:
    """Every reason the player of ``turn`` may not double now, in the order the
    audit reports them; empty when they may. ``offered``: the cube the double
    offers (a record may write another than twice the cube), by default twice
    the cube. A dead cube (:attr:`Reason.DEAD`) is listed only where no rule
    already forbids the double for the same points (``cube_cap_needed``)."""
    rules, cube = turn.rules, turn.cube
    found = []
    if rules.cubeless:
        found.append(Refusal(Reason.CUBELESS, cube))
    elif turn.crawford:
        found.append(Refusal(Reason.CRAWFORD, cube))
    capped = not turn.money and cube >= turn.away
    if capped and rules.cube_cap_needed:
        found.append(Refusal(Reason.CAPPED, cube, needed=turn.away))
    if turn.holder is Holder.OPPONENT:
        found.append(Refusal(Reason.OWNED, cube))
    offered = turned(cube) if offered is None else offered
    if rules.cube_limit and offered > rules.cube_limit:
        found.append(Refusal(Reason.LIMIT, cube, limit=rules.cube_limit, offered=offered))
    if capped and not rules.cube_cap_needed:
        found.append(Refusal(Reason.DEAD, cube, needed=turn.away))
    return tuple(found)


def may_double(turn: CubeTurn) -> Refusal | None:
    """Why the player of ``turn`` may not double now (the first reason), or None when they may."""
    found = refusals(turn)
    return found[0] if found else None


def beaver_refusal(rules: Rules) -> Refusal | None:
    """Why a doubled player may not beaver (nor the doubler then raccoon) under ``rules``, or None."""
    if not rules.beavers:
        return Refusal(Reason.NO_BEAVERS)
    if rules.match_length:
        return Refusal(Reason.MATCH_BEAVER)
    return None


class InstantRedouble(Worded):
    """A redouble made at once, before any roll (money play with beavers)."""

    BEAVER = "beaver"     # the doubled player's, while the double waits: takes and keeps the cube
    RACCOON = "raccoon"   # the doubler's, right after a beaver: the beaverer keeps the cube, no take needed


def instant_redouble(cube: CubeState, side: int) -> InstantRedouble | None:
    """What a redouble by ``side`` is now, whatever word the file gives it: a
    beaver while a double by the other side waits, a raccoon right after the
    other side's beaver, else None (an ordinary double)."""
    if cube.offer is not None and cube.offer.doubler != side:
        return InstantRedouble.BEAVER
    if cube.beaver_by is not None and cube.beaver_by != side:
        return InstantRedouble.RACCOON
    return None


# --- the value a turn of the cube makes ---------------------------------------------------

def turned(value: int) -> int:
    """The value one turn makes of a cube at ``value``: twice it. Every turn of
    the cube is one: a double (of the cube), a beaver (of the cube the double
    offers), a raccoon (of the beaver's cube), an automatic double (of the
    opening's cube). The one arithmetic of the rule; whether the turn is
    allowed (the cube limit, the points needed, the Crawford game, beavers) is
    :func:`refusals`' and :func:`beaver_refusal`'s, and no rule caps the value
    a turn makes (a double past the limit is refused, not cut down)."""
    return value * 2


def turns(count: int, value: int = 1) -> list[int]:
    """``value`` and the values ``count`` turns of the cube make of it, in order (``[1, 2, 4]``: two
    turns from 1): a game's cube after its automatic doubles, the values a record's cube may be given."""
    values = [value]
    for _ in range(count):
        values.append(turned(values[-1]))
    return values


def after_turns(count: int) -> int:
    """The cube ``count`` turns make of a cube at 1 (the last of :func:`turns`): how a format that stores
    a cube as its count of turns (the Match ID's and an XGID's logarithm, XG's cube field and cube
    limit) gives its value."""
    return turns(count)[-1]


def turns_within(value: int) -> int:
    """The most turns of a cube at 1 that stay at ``value`` or below: a cube's own count of turns (the
    logarithm a Match ID or an XGID stores), or, for a cube limit no turn reaches exactly, the turns the
    limit allows (XG's maxcube). 0 for a value below 2."""
    count, reached = 0, 1
    while (reached := turned(reached)) <= value:
        count += 1
    return count


def is_turned(value: int) -> bool:
    """Whether turns of a cube at 1 make ``value`` (1, 2, 4, ...): the values a cube can show."""
    return value >= 1 and after_turns(turns_within(value)) == value


def turned_from(value: int) -> int | None:
    """The cube a turn to ``value`` was made from (half it), or None where no turn makes ``value``."""
    return value // 2 if value % 2 == 0 else None


def value_after(cube: CubeState, redouble: InstantRedouble | None = None) -> int:
    """The value ``cube`` reaches when a double (``redouble`` None), a beaver or
    a raccoon turns it now: a double turns the cube; a beaver turns once more
    the value the waiting double offers; a raccoon the beaver's cube (the cube's
    value, which the beaver made it). What the replay holds a record's value to."""
    if redouble is InstantRedouble.BEAVER and cube.offer is not None:
        return turned(cube.offer.value)
    return turned(cube.value)


def value_reached(match: MatchState, stated: int | None = None) -> int:
    """The value the cube action made in ``match`` (a double, a beaver, a
    raccoon: an event's state before it) turns the cube to: ``stated``, the
    value a record states, where it states one (the replay judged it), else the
    rules' (:func:`value_after`): while a double waits (``match.doubled``: a
    double a beaver answers, a beaver or raccoon a raccoon answers, shown as
    gnubg's Match ID shows them, the cube before the redouble) a turn of the
    value it offers, else a turn of the cube (a double). What the writers and
    the view write."""
    if stated is not None:
        return stated
    return turned(turned(match.cube) if match.doubled else match.cube)


def raccoon_refusal(rules: Rules, side: int, beaver_by: int | None, made: int = 0) -> Refusal | None:
    """Why ``side`` may not raccoon now (``beaver_by``: who beavered or
    raccooned just now, or None; ``made``: the raccoons made since the beaver), or None."""
    if beaver_by is None or side == beaver_by:
        return Refusal(Reason.NOT_DOUBLER)
    if made >= rules.raccoons:
        return Refusal(Reason.RACCOONS, limit=rules.raccoons)
    return beaver_refusal(rules)


def starting_cubes(rules: Rules) -> list[int]:
    """The cubes a game may start with: automatic doubles (money play) raise the
    cube on equal opening rolls, up to ``rules.auto_doubles`` times."""
    return turns(rules.in_force("auto_doubles"))


def auto_double_refusal(rules: Rules, value: int) -> str | None:
    """Why an automatic double that a file records, raising the cube of the
    opening to ``value``, breaks ``rules``, or None: it must be among the
    :func:`starting_cubes` (money play, up to ``rules.auto_doubles``)."""
    if value in starting_cubes(rules):
        return None
    if rules.match_length:
        return "an automatic double in a match: automatic doubles are a money-play rule"
    return (f"an automatic double to {value}, but these rules allow "
            + (f"up to {rules.auto_doubles} automatic doubles" if rules.auto_doubles else "no automatic doubles")
            + " (--auto-doubles N)")


def proper_action_of(turn: CubeTurn, no_double: float, double_take: float, double_pass: float,
                     gammons: bool = True) -> CubeAction:
    """:func:`proper_action` for the player of ``turn``: a redouble when they own
    the cube, beavers as the rules allow, gnubg's "Never double" in a match
    where they may not double. ``gammons``: the player has a cubeless chance
    of a gammon (it matters only where gammons count, :attr:`CubeTurn.gammons_count`)."""
    refused = may_double(turn)
    gammons = gammons and turn.gammons_count
    dead = not turn.money and refused is not None and refused.reason in (Reason.CRAWFORD, Reason.CAPPED, Reason.DEAD)
    return proper_action(no_double, double_take, double_pass, redouble=turn.redouble,
                         beavers=turn.money and turn.rules.beavers, gammons=gammons, dead=dead)


__all__ = ["Answer", "CubeAction", "CubeTurn", "Holder", "InstantRedouble", "Line", "Reason", "Refusal", "after_turns", "answer_equities", "auto_double_refusal",
           "beaver_refusal", "doubled_equity", "instant_redouble", "is_close", "is_turned", "may_double", "optimal_equity", "percent", "point_noun", "points_word",
           "proper_action", "proper_action_of", "raccoon_refusal", "ranked", "refusals", "rules_of", "starting_cubes", "turned", "turned_from", "turns", "turns_within",
           "value_after", "value_reached"]


def doubled_equity(double_take: float, double_pass: float) -> float:
    """What a double is worth to the doubler: the doubled player answers for
    their own good, which is the lower of the doubler's two figures."""
    return min(double_take, double_pass)


def optimal_equity(no_double: float, double_take: float, double_pass: float) -> float:
    """What the cube turn is worth to the player with the proper action."""
    return max(no_double, doubled_equity(double_take, double_pass))


def answer_equities(double_take: float, double_pass: float, redoubles: int = 0) -> dict[Answer, float]:
    """What each answer is worth to the player answering, in the normalised equity of the cube before
    the double, from the doubler's double/take and double/pass (money play).

    ``redoubles``: the instant redoubles made since the double (0: the doubled player answers the
    double; 1: the doubler answers a beaver; 2: the beaverer answers the doubler's raccoon). Each
    turns the cube once more and leaves it where a take would (the doubled player owns it, the
    doubler is on roll), so money play's equity, linear in the stake, doubles with it: a take is
    worth ``2**redoubles`` times double/take to the doubler, a pass loses the stake before the
    last redouble (``2**redoubles`` times double/pass), and one more instant redouble
    (:attr:`Answer.BEAVER`: a beaver or a raccoon) twice the take."""
    stake = 2.0 ** redoubles
    sign = -1.0 if redoubles % 2 == 0 else 1.0   # the doubled player answers a double and a raccoon
    take = sign * stake * double_take
    return {Answer.TAKE: take, Answer.PASS: -stake * double_pass, Answer.BEAVER: 2.0 * take}


# GNU Backgammon's close cube decisions (its "close or actual cube decisions"): a cube turn whose proper
# action is worth less than this more than double/take (capped at +1); every double, take and pass counts too
CLOSE = 0.16


def is_close(no_double: float, double_take: float, double_pass: float) -> bool:
    """Whether a cube turn is one of gnubg's close cube decisions (counted in its analysis)."""
    return optimal_equity(no_double, double_take, double_pass) - min(double_take, 1.0) < CLOSE
