"""Game and match state: the position with the cube, score, dice and turn.

Core state, below every format: the identifiers (bgcli.core.ids) read and write
it, the replay keeps it, the drawings show it. Players are numbered as gnubg
numbers them: player 1 is drawn at the bottom, player 0 at the top; a
``GameState``'s position is seen from the side of ``match.on_roll``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from bgcli.core.position import Position
from bgcli.core.rules import Rules

GAME_STATES = ("none", "playing", "over", "resigned", "dropped")


# The largest cube any format can hold: gnubg's Match ID keeps the cube's
# logarithm in 4 bits, so 2 ** 15.
MAX_CUBE = 1 << 15
# The longest match and the largest score: the Match ID keeps each in 15 bits.
MAX_SCORE = (1 << 15) - 1


@dataclass(frozen=True)
class MatchState:
    """Every field of gnubg's Match ID, with gnubg's player numbers 0 and 1,
    and a few more that XGID and FIBS carry.

    The settings of the match (its length, the Jacoby rule, beavers, the cube
    limit...) are not fields of their own: they are the ``rules`` the state
    carries, one :class:`~bgcli.core.rules.Rules` with its one set of
    defaults. The identifiers read their bits into it and write them from it.
    ``crawford`` here says that *this game* is the Crawford game; whether the
    Crawford rule is in force is ``rules.crawford``."""

    cube: int = 1  # cube value (1, 2, 4, ...)
    cube_owner: int = -1  # -1 centred, else 0 or 1
    on_roll: int = 1  # Match ID bit 6: player on roll (or who rolled)
    crawford: bool = False
    game_state: int = 1  # 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
    turn: int = 1  # bit 11: whose decision
    doubled: bool = False
    resign: int = 0  # 0 none, else the Win resigned (bgcli.core.value): 1 single, 2 gammon, 3 backgammon
    dice: tuple[int, int] = (0, 0)
    score: tuple[int, int] = (0, 0)  # points of player 0 and player 1
    names: tuple[str, str] = ("", "")  # names of player 0 and player 1 (FIBS)
    # the match's length (0 = money), Jacoby (Match ID bit 66 is set when it is NOT in force, XGID money flag
    # bit 0), beavers (XGID money flag bit 1) and cube limit (XGID maxcube; 0 = none, XG's maxcube 10)
    rules: Rules = Rules()

    @property
    def centred(self) -> bool:
        """Whether the cube is in the middle (``cube_owner`` -1), as CubeState.centred says of a game's cube."""
        return self.cube_owner == -1

    @property
    def match_length(self) -> int:
        """The match length of the rules (0 = money): read by nearly every
        user of a state, so named here too; it is not a field of its own."""
        return self.rules.match_length

    def problem(self) -> str:
        """Why these fields cannot be written as a Match ID, or ''."""
        # Fenced mirror of bgcli.core.cube.is_turned (the cube module reads states, so this one, below it,
        # may not ask it): tests/test_one_owner.py::test_a_states_cube_is_a_value_turns_make
        if self.cube < 1 or self.cube & (self.cube - 1) or self.cube > MAX_CUBE:
            return f"cube value {self.cube} is not a power of two up to {MAX_CUBE}"
        if self.cube_owner not in (-1, 0, 1):
            return f"cube owner {self.cube_owner} is not -1, 0 or 1"
        if self.on_roll not in (0, 1) or self.turn not in (0, 1):
            return "player on roll and player to decide must be 0 or 1"
        if not 0 <= self.game_state <= 4:
            return f"game state {self.game_state} is not 0 to 4"
        if not 0 <= self.resign <= 3:
            return f"resignation {self.resign} is not 0 to 3"
        if len(self.dice) != 2 or not all(0 <= d <= 6 for d in self.dice) or (0 in self.dice and self.dice != (0, 0)):
            return f"dice {self.dice} are not two numbers from 1 to 6 (or 0 0 before the roll)"
        if not 0 <= self.match_length <= MAX_SCORE:
            return f"match length {self.match_length} is out of range"
        if not all(0 <= s <= MAX_SCORE for s in self.score):
            return f"score {self.score} is out of range"
        if self.match_length and max(self.score) >= self.match_length and self.game_state == 1:
            return f"score {self.score[0]}-{self.score[1]} has already reached the match length {self.match_length}"
        return ""


# A position given without its match (``start``, a bare Position ID, a board of
# 26 numbers, a GameState made without one) is read as gnubg reads it: a new
# money session under gnubg's own settings, in which the Jacoby rule is on.
# Its Match ID, XGID and engine evaluation say so. This is gnubg's session
# setting, not a second default of the rules: a match file's rules start from
# Rules(), in which Jacoby is off until a tag or option turns it on.
GNUBG_MONEY_SESSION = MatchState(rules=Rules(jacoby=True))


@dataclass(frozen=True)
class GameState:
    """A position with its match context; the position is seen from the
    side of ``match.on_roll``."""

    position: Position
    match: MatchState = GNUBG_MONEY_SESSION  # frozen, so one shared default is safe

    def _repr_svg_(self) -> str:
        """The board with its cube and score, drawn in a notebook (bgcli.notebook)."""
        from bgcli.notebook import board_svg

        return board_svg(self)

    def rolled(self, dice: tuple[int, int]) -> GameState:
        """This state with the player on roll having rolled ``dice``, no double waiting: the state
        the roll is played in (drawn "Rolled 31", its Match ID carrying the dice)."""
        match = self.match
        return replace(self, match=replace(match, dice=dice, doubled=False, turn=match.on_roll))


@dataclass(frozen=True, slots=True)
class Offer:
    """A double waiting for its answer."""

    doubler: int    # the side that doubled
    value: int      # the cube offered
    before: int     # the cube before the double


@dataclass
class CubeState:
    """The doubling cube of one game, shared by the match replay and the
    chouette: its value, its owner (-1 centred), a double waiting for its
    answer, a beaver that a raccoon may still follow, and a beaver or
    raccoon that an answer may still follow. Sides are 0 and 1; the methods
    apply a decision, the callers judge whether it was allowed."""

    value: int = 1
    owner: int = -1
    offer: Offer | None = None
    beaver_by: int | None = None   # who beavered (or raccooned), while a raccoon may still follow
    raccoons: int = 0              # the raccoons made since the beaver (the rules may allow more than one)
    # the instant redouble just made (a beaver, a raccoon), while the other side's answer may still
    # follow: none is needed, but gnubg and XG record one (a take confirms it, a drop pays its ``before``)
    redoubled: Offer | None = None

    @property
    def settled(self) -> bool:
        """Nothing waits for what may follow it (a double, a beaver, a raccoon): the next play is a plain one."""
        return self.offer is None and self.beaver_by is None and self.redoubled is None

    @property
    def centred(self) -> bool:
        return self.owner == -1

    def double(self, side: int, value: int) -> Offer:
        """``side`` doubles to ``value`` (the value a double makes, which the
        caller asks bgcli.core.cube.value_after): the offer waits for its answer."""
        self.offer = Offer(side, value, self.value)
        return self.offer

    def take(self) -> None:
        """The waiting double is taken: the taker owns the cube at its new value."""
        assert self.offer is not None
        self.value, self.owner, self.offer = self.offer.value, 1 - self.offer.doubler, None

    def drop(self) -> int:
        """The waiting double (or, with none, the cube) is dropped: the value
        before it, which the doubler wins."""
        before = self.offer.before if self.offer is not None else self.value
        self.offer = None
        return before

    def beaver(self, value: int) -> None:
        """The doubled player takes and redoubles at once to ``value``, keeping the cube."""
        assert self.offer is not None
        taker = 1 - self.offer.doubler
        self.redoubled = Offer(taker, value, self.offer.value)
        self.value, self.owner, self.offer, self.beaver_by, self.raccoons = value, taker, None, taker, 0

    def raccoon(self, side: int, value: int) -> None:
        """Right after a beaver the doubler (``side``) redoubles again to
        ``value`` at once: the beaverer keeps the cube and needs no take
        (:mod:`bgcli.core.cube` says why). Another raccoon may follow, by the
        player this one doubled (GNU Backgammon's ``set beavers 3`` allows two;
        how many, the rules say: bgcli.core.cube.raccoon_refusal); whoever
        makes it, the beaverer keeps the cube."""
        self.redoubled = Offer(side, value, self.value)
        self.value, self.beaver_by, self.raccoons = value, side, self.raccoons + 1
