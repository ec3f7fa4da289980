"""The dice of recorded matches, counted in the positions where they fell.

:class:`DiceTally` is a match visitor (bgcli.match.visitor): the replay tells
it every roll with the position before it (bgcli.match.replay), and it keeps,
for each player of each match (a :class:`Unit`), what the statistics of
bgcli.judging.dicestats test:

- the 21 kinds of roll (opening rolls apart: most rules roll the opening again
  on a double), each die's face, and the 36 rolls in the order the dice were
  written where the file records that order (:attr:`DiceTally.ordered`);
- consecutive rolls of a game (the kind before and the kind after), and a
  double followed by a double: by the opponent's next roll and by the same
  player's next roll;
- three chances that depend on the position, each counted by how many of the
  36 rolls succeed there (so the expectation is exact): entering from the bar
  (the open points of the opponent's home board, :func:`bgcli.analysis.counts.enter_count`),
  hitting a blot (bgcli's shot counter, :func:`bgcli.analysis.counts.hit_rolls`,
  through its fenced copy :func:`bgcli.judging.diceshots.hitting_rolls`), and
  bearing off the last checkers in one roll (:func:`finishing_rolls`, a fenced
  copy of the generator's answer; the one-sided bear-off table,
  :mod:`bgcli.analysis.bearoff`, gives the same count where no point is held:
  tests/test_dice.py); and the roll needed to save the gammon at the last
  chance (:func:`saving_rolls`: no checker off, the opponent off next turn
  with any roll; often a double). A roll is a success by the dice alone: whether a legal
  play of it enters, hits or bears off, whatever was played. Each position's
  chances are worked out once (a file's positions come back: the opening's in
  every game).
- with an engine, the luck of every roll as rate measures it
  (:class:`bgcli.judging.rating.RollLuck`), summed with its square.

Everything is counts, so tallies of files add up (:meth:`Unit.add`) and
travel as JSON (:meth:`Unit.to_dict`, :meth:`Unit.from_dict`).
"""
from __future__ import annotations

import hashlib
import re
from array import array
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, MutableSequence, Sequence

from bgcli.analysis.counts import enter_count
from bgcli.core.generator import legal_keys, legal_plays
from bgcli.core.position import (
    ALL_THROWS, BAR, CHECKERS, FACES, HOME, HOME_BOARD, KINDS_OF_ROLL, KINDS_OF_ROLL_LARGEST_FIRST, OFF, OTHER_SIDE,
    OUTSIDE_HOME, Position, accelerator, is_contact, throws,
)
from bgcli.core.rules import Variation
from bgcli.core.value import Win, possible_wins
from bgcli.judging.diceshots import hitting_rolls
from bgcli.match.events import Event, EventKind, GameStart, MatchStart
from bgcli.match.plays import settled_roll
from bgcli.match.records import ActionKind
from bgcli.match.visitor import MatchVisitor

# The 21 kinds of roll, high die first: 11, 21, 22, 31, 32, 33, ..., 66
KINDS: tuple[tuple[int, int], ...] = KINDS_OF_ROLL
KIND_INDEX = {roll: i for i, roll in enumerate(KINDS)}
DOUBLES = tuple(i for i, (high, low) in enumerate(KINDS) if high == low)
CONDITIONS = ("enter", "hit", "bearoff", "gammon")   # the chances that depend on the position
_BINS = 37   # a chance counted in rolls of 36: 0..36
_ROLLS = KINDS_OF_ROLL_LARGEST_FIRST


def kind_of(dice: tuple[int, int]) -> int:
    """The index in :data:`KINDS` of a roll written in either order."""
    a, b = dice
    return KIND_INDEX[(a, b) if a >= b else (b, a)]


# A unit's counts: a list, or an array('q') (DiceTally's, cut from the match's counts)
Counts = MutableSequence[int]


def _zeros(n: int) -> list[int]:
    return [0] * n


# One player's counts in the match being read, as DiceTally keeps them until the match ends: its
# parts in this order, each the size of the Unit's counts of that name (which are cut from the
# match's tally as arrays when the match ends).
_PARTS: tuple[tuple[str, int], ...] = (("kinds", 21), ("faces", 6), ("order", 36), ("pairs", 21 * 21), ("after_double", 2),
                                       ("own_after_double", 2),
                                       *((f"{what} {c}", _BINS) for c in CONDITIONS for what in ("trials", "successes")),
                                       ("opening", 21))
_AT = {name: sum(size for _, size in _PARTS[:i]) for i, (name, _) in enumerate(_PARTS)}
_WIDTH = sum(size for _, size in _PARTS)
_FACES, _ORDER, _PAIRS, _AFTER, _OWN_AFTER, _OPENING = (_AT[name] for name in (
    "faces", "order", "pairs", "after_double", "own_after_double", "opening"))
_TRIALS = tuple(_AT[f"trials {c}"] for c in CONDITIONS)   # a condition's successes follow its trials
# A match's counts as DiceTally keeps them until the match ends: one array of ints (no Python int made
# a count, no list for the collector to walk), the first player's (_PARTS), then the second's, which the
# C accelerator's count_roll adds into in place. Made once a match (a copy of _NO_COUNTS: some 13 kB, a
# copy the size of a few hundred plays' work counted in instructions, so not once a file as well).
_NO_COUNTS = array("q", bytes(8 * 2 * _WIDTH))
# What a roll's sequence counts read of the rolls before it in the game, in an array of ints a tally keeps
# (which count_roll reads and writes too): the previous roll's kind (-1: none, or the opening), whether
# it was a double, whether each side's last roll was a double, whether each side has rolled (after the
# opening); then the file's mixed rolls written high die first and low die first (_WRITTEN).
_NEW_GAME = array("q", [-1, 0, 0, 0, 0, 0])   # the state at a game's start
_WRITTEN = len(_NEW_GAME)
# each side's parts' places in the match's counts, in _PARTS' order
_SLICES = tuple(tuple(slice(side * _WIDTH + _AT[name], side * _WIDTH + _AT[name] + size) for name, size in _PARTS)
                for side in (0, 1))


@dataclass
class Unit:
    """One player's rolls in one match: the counts, and what groups them
    (the player, the file, the site and month from the tags, the match).
    Each count is a list, or an ``array('q')`` in a unit a tally made (cut
    from the match's counts: no int made for each count, nothing for Python's
    garbage collector to walk while the files are read)."""

    file: str
    match: int
    side: int
    player: str
    opponent: str
    site: str = ""
    month: str = ""
    white_first: bool = False     # the opening is not rolled again on a double (these rules)
    ordered: bool = False         # the file records the order of the dice (DiceTally.ordered)
    # the match's rolls in order (both players'), hashed (SHA-256 of their kinds, a byte each): the same match in two
    # files is counted once
    fingerprint: str = ""
    # each long game's first and last GAME_MARK rolls, hashed: a copy of a match that differs in a roll or two
    # (a slip typed in, or planted) still shares one of the two in every game (dicereport.once)
    game_marks: tuple[str, ...] = ()
    kinds: Counts = field(default_factory=lambda: _zeros(21))
    opening: Counts = field(default_factory=lambda: _zeros(21))
    faces: Counts = field(default_factory=lambda: _zeros(6))
    order: Counts = field(default_factory=lambda: _zeros(36))   # first written die x 6 + second, 1-based faces less 7
    pairs: Counts = field(default_factory=lambda: _zeros(21 * 21))   # kind before x 21 + this roll's kind
    after_double: Counts = field(default_factory=lambda: _zeros(2))   # rolls right after the opponent's double, doubles
    own_after_double: Counts = field(default_factory=lambda: _zeros(2))   # own next roll after own double, doubles
    # per condition: trials and successes by the number of the 36 rolls that succeed there
    trials: dict[str, Counts] = field(default_factory=lambda: {c: _zeros(_BINS) for c in CONDITIONS})
    successes: dict[str, Counts] = field(default_factory=lambda: {c: _zeros(_BINS) for c in CONDITIONS})
    # with an engine (dice --engine): the rolls whose luck it measured, their luck summed, and its squares summed
    luck_rolls: int = 0
    luck: float = 0.0
    luck_squares: float = 0.0

    @property
    def rolls(self) -> int:
        return sum(self.kinds)

    def to_dict(self) -> dict[str, Any]:
        data = self._counts_dict()
        if self.luck_rolls:
            data["luck"] = [self.luck_rolls, self.luck, self.luck_squares]
        return data

    def _counts_dict(self) -> dict[str, Any]:
        return {"file": self.file, "match": self.match, "side": self.side, "player": self.player, "opponent": self.opponent,
                "site": self.site, "month": self.month, "white_first": self.white_first, "ordered": self.ordered,
                "fingerprint": self.fingerprint, "game_marks": list(self.game_marks),
                "kinds": list(self.kinds), "opening": list(self.opening), "faces": list(self.faces),
                "order": list(self.order), "pairs": _sparse(self.pairs), "after_double": list(self.after_double),
                "own_after_double": list(self.own_after_double),
                "trials": {c: _sparse(v) for c, v in self.trials.items()},
                "successes": {c: _sparse(v) for c, v in self.successes.items()}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Unit":
        """A unit from :meth:`to_dict`; a ValueError, KeyError or TypeError for anything else."""
        unit = cls(str(data["file"]), int(data["match"]), int(data["side"]), str(data["player"]), str(data["opponent"]),
                   str(data["site"]), str(data["month"]), bool(data["white_first"]), bool(data["ordered"]),
                   str(data["fingerprint"]), tuple(str(mark) for mark in data.get("game_marks", ())))
        unit.kinds = _counts(data["kinds"], 21)
        unit.opening = _counts(data["opening"], 21)
        unit.faces = _counts(data["faces"], 6)
        unit.order = _counts(data["order"], 36)
        unit.pairs = _dense(data["pairs"], 21 * 21)
        unit.after_double = _counts(data["after_double"], 2)
        unit.own_after_double = _counts(data["own_after_double"], 2)
        # a condition a tally of an older bgcli lacks has no trials (its key holds the version: not read back)
        unit.trials = {c: _dense(data["trials"].get(c, {}), _BINS) for c in CONDITIONS}
        unit.successes = {c: _dense(data["successes"].get(c, {}), _BINS) for c in CONDITIONS}
        if "luck" in data:
            rolls, luck, squares = data["luck"]
            unit.luck_rolls, unit.luck, unit.luck_squares = int(rolls), float(luck), float(squares)
        return unit


def _sparse(values: Sequence[int]) -> dict[str, int]:
    return {str(i): v for i, v in enumerate(values) if v}


def _dense(values: dict[str, int], n: int) -> list[int]:
    out = _zeros(n)
    for key, value in values.items():
        out[int(key)] = int(value)
    if len(out) != n:
        raise ValueError(f"a count past {n}")
    return out


def _counts(values: list, n: int) -> list[int]:
    if not isinstance(values, list) or len(values) != n:
        raise ValueError(f"not {n} counts")
    return [int(v) for v in values]


def add_into(total: Unit, unit: Unit) -> None:
    """Add ``unit``'s counts into ``total`` (whose labels stay)."""
    for name in ("kinds", "opening", "faces", "order", "pairs", "after_double", "own_after_double"):
        mine, theirs = getattr(total, name), getattr(unit, name)
        for i, v in enumerate(theirs):
            mine[i] += v
    for c in CONDITIONS:
        for i in range(_BINS):
            total.trials[c][i] += unit.trials[c][i]
            total.successes[c][i] += unit.successes[c][i]
    total.luck_rolls += unit.luck_rolls
    total.luck += unit.luck
    total.luck_squares += unit.luck_squares


def enter_chance(position: Position) -> int | None:
    """How many of the 36 rolls enter a checker from the bar for the player on
    roll, or None when none is on the bar."""
    return enter_count(position) if position.player[BAR] else None


def bearoff_count(position: Position) -> int | None:
    """How many of the 36 rolls bear off all the on-roll side's checkers left,
    from the exact one-sided bear-off table; None when the side is not all home
    (or has nothing left)."""
    from bgcli.analysis import bearoff

    counts = bearoff.home_counts(position.player)
    if counts is None or position.player[OFF] == CHECKERS:
        return None
    dist = bearoff.table().dist(counts)
    return round(dist[0] * ALL_THROWS) if dist else 0


GAME_MARK = 12   # rolls at each end of a game: two games of other matches share 12 rolls once in 21**12


def game_marks(games: Sequence[Sequence[int]]) -> tuple[str, ...]:
    """Two marks of each game of at least GAME_MARK rolls (the kinds of its first
    and of its last GAME_MARK rolls, each kind two hex digits), in order: ``h``
    and ``t`` marks. The kinds themselves, not a hash of them: as short, exact,
    and a hash's call (some 8,000 instructions) was a tenth of what the dice
    tally adds to the audit's replay (benchmarks/bench_dice.py)."""
    marks = []
    for kinds in games:
        if len(kinds) >= GAME_MARK:
            marks.append("h" + bytes(kinds[:GAME_MARK]).hex())
            marks.append("t" + bytes(kinds[-GAME_MARK:]).hex())
    return tuple(marks)


# Fenced mirror of bears_off_all: tests/test_dice_shots.py::test_the_rolls_that_bear_off_are_the_generators
def finishing_rolls(position: Position) -> frozenset[tuple[int, int]]:
    """The rolls (high die first) with a legal play that bears off every
    checker the player on roll has left, all of them home (none for a side not
    all home). Worked out from where the checkers stand: a mixed roll takes one
    checker off with its high die, or with its sum through an open point (a
    point the opponent does not hold), or two with a die each; a double takes
    off checkers that need four steps or fewer together (each ceil(point /
    die)), every point on their way open. Such a play takes every step the
    checkers can take, so it is legal."""
    player = position.player
    left = CHECKERS - player[OFF]
    if not left or left > 4 or any(player[OUTSIDE_HOME]):
        return frozenset()
    opponent = position.opponent
    held = {p for p in HOME_BOARD if opponent[OTHER_SIDE[p]] >= 2}   # the points of the mover's home board held
    points = sorted((p for p in HOME_BOARD for _ in range(player[p])), reverse=True)
    found = []
    for a, b in _ROLLS:
        if a == b:
            done = (sum(-(-p // a) for p in points) <= 4 and
                    not any(p - k * a in held for p in points for k in range(1, -(-p // a))))
        elif left == 1:
            p = points[0]
            done = p <= a or (p <= a + b and (p - a not in held or p - b not in held))
        else:
            done = left == 2 and points[0] <= a and points[1] <= b
        if done:
            found.append((a, b))
    return frozenset(found)


def saving_rolls(position: Position, variation: Variation = Variation.STANDARD) -> frozenset[tuple[int, int]]:
    """The rolls (high die first) that save the gammon at the last chance: the
    player on roll can still lose a gammon (has borne off none of its own
    checkers: :func:`bgcli.core.value.possible_wins`, which asks the
    ``variation`` how many a side of hypergammon counts off from the start),
    the race is on (no contact) and the opponent bears off every checker left
    with any roll next turn (:func:`finishing_rolls` from their side), so this
    roll must bear one off: the rolls with a legal play that does
    (:func:`bears_one_off`, in a race worked out from where the checkers
    stand; often only the doubles). None in any other position."""
    if CHECKERS - position.opponent[OFF] > 4 or is_contact(position):
        return frozenset()
    if Win.GAMMON not in possible_wins(position, winner_is_player=False, contact=False, variation=variation):
        return frozenset()
    if len(finishing_rolls(position.swap())) < len(_ROLLS):
        return frozenset()
    player = position.player
    return frozenset(roll for roll in _ROLLS if bears_one_off(player, roll))


# Fenced mirror of the generator's legal plays (a play that bears a checker off, legal_keys) in a race:
# tests/test_dice_shots.py::test_a_checker_borne_off_in_a_race_is_the_generators; its C mirror is
# bears_one_off in bgcli/core/_speedups.c (test_the_chances_in_c_are_the_python_chances)
def bears_one_off(player: Sequence[int], roll: tuple[int, int]) -> bool:
    """Whether a legal play of ``roll`` (high die first) bears off a checker
    of ``player``, the side on roll in a race (no contact: no checker of the
    opponent in the way, none of the player's on the bar). In a race every
    die can be played (a checker outside moves freely, a checker home moves
    or bears off), so the legal plays are every sequence of the dice's steps,
    and one bears off when some step is a bear-off: every checker home and
    one on the die's point, or none above it. A mixed roll: the first die
    bears off, or moves a checker after which the other die bears off. A
    double of die ``a``: some checker reaches point ``a`` (from a point
    ``m * a``, ``m - 1`` steps) with the others brought home (``ceil((p - 6) /
    a)`` steps each from a point ``p`` outside), then one step more; or every
    checker is brought below point ``a`` (``p // a`` steps each), then one
    step more: the fewest steps of the two, four at most."""
    high, low = roll
    if high == low:
        a = high
        homing = sum(player[p] * -(-(p - HOME) // a) for p in range(HOME + 1, BAR + 1))   # the steps to bring every checker home
        fewest = sum(player[p] * (p // a) for p in range(a, 26)) + 1       # every checker below a, then off
        for q in range(a, 26, a):   # a checker on q = m * a: m steps to bear it off, the others brought home
            if player[q]:
                fewest = min(fewest, homing - (-(-(q - HOME) // a) if q > HOME else 0) + q // a)
        return fewest <= 4
    for x, y in ((high, low), (low, high)):
        if _bears_off_with(player, x):
            return True
        for p in range(x + 1, 26):   # a checker moved from p to p - x, then die y
            if player[p]:
                after = list(player)
                after[p] -= 1
                after[p - x] += 1
                if _bears_off_with(after, y):
                    return True
    return False


def _bears_off_with(player: Sequence[int], die: int) -> bool:
    """Whether ``die`` bears off a checker of ``player``: every checker home, and one on point ``die`` or none above it."""
    if any(player[OUTSIDE_HOME]):
        return False
    highest = max((p for p in HOME_BOARD if player[p]), default=0)
    return highest > 0 and (player[die] > 0 or highest < die)


def bears_off_all(position: Position, dice: tuple[int, int]) -> bool:
    """Whether a legal play of ``dice`` bears off every checker left (the
    generator's plays: a key's lowest byte is the checkers borne off)."""
    return any(key & 0xFF == CHECKERS for key in legal_keys(position, dice))


def enters(position: Position, dice: tuple[int, int]) -> bool:
    """Whether a legal play of ``dice`` takes a checker off the bar (the generator's plays)."""
    bar = position.player[BAR]
    return any(play.result.player[BAR] < bar for play in legal_plays(position, dice))


# Each position's chances (_chances_of) by its sides: a process that reads many files sees the
# positions of the openings and their replies in every game.
_CHANCES: dict[tuple, tuple] = {}
# The C accelerator's run of plays in turn with each roll's facts (DiceTally.run_of_plays, through dice_run), or None
dice_after_plays: Callable[..., tuple] | None = accelerator.dice_after_plays if accelerator is not None else None
# ... and its roll_chances, for the rolls the events tell (NotImplemented: roll_chances decides)
chances_in_c: Callable[..., Any] | None = accelerator.roll_chances if accelerator is not None else None
# ... and the two in turn with settled_roll where the C run stops, the tally's run (DiceTally._run)
_dice_run: Callable[..., tuple] | None = accelerator.dice_run if accelerator is not None else None
_DANCE = ActionKind.DANCE
# DiceTally._run: what the C run reads of the tally, in a list (the replay's arguments follow it)
_OPENING_AT, _OWN_OFF_AT, _COUNTS_AT, _KINDS_AT = 1, 2, 4, 5
_OPENING_ROLL = 2   # in a roll's facts for count_rolls, the mover's bit of a game's first roll (counted apart)


class DiceTally(MatchVisitor):
    """Counts every roll of a file's matches into :class:`Unit` s (see the module docstring)."""

    wants_events = True
    roll_events_only = True   # it counts rolls: the cube's and the results' events are not built

    def __init__(self, path: str, luck: Callable[[Any, tuple[int, int], bool], float] | None = None) -> None:
        """``luck``: the luck of a roll in a state, whether it is the game's opening roll
        (bgcli.judging.rating.RollLuck), summed per unit; None: not measured."""
        self.path = path
        self.luck = luck
        # it reads no problem, no result, no event's cube or score, unless the engine's luck asks each
        # event's state: the replay then leaves out the checks that make only these (MatchVisitor)
        self.reads_judgement = luck is not None
        self.units: list[Unit] = []
        # the sequence state of the game being read, then the file's rolls (not doubles) written high die
        # first, low die first (_NEW_GAME, _WRITTEN)
        self._state = array("q", [*_NEW_GAME, 0, 0])
        self._match: MatchStart | None = None   # the match being read, whose units are made when it ends
        self._labels: tuple[str, str] = ("", "")   # its site and month (from the tags)
        self._variation = Variation.STANDARD   # its variant (the gammon a roll saves: saving_rolls)
        # both players' counts in the match (_NO_COUNTS), which count_roll adds to in C too
        self._counts = array("q")
        self._luck: tuple[list, list] = ([0, 0.0, 0.0], [0, 0.0, 0.0])   # each player's Unit.luck_rolls, luck, luck_squares
        # the kinds of each game's rolls, in order: the games' marks (game_marks) and the match's fingerprint
        self._games: list[bytearray] = []
        # what the C run reads and writes of the tally (run_of_plays): the kind of a roll with no play, whether the
        # next roll is the game's first (DiceTally._opening: _first), the variant's own_off (Variation.off_at_start,
        # the C code's word of it, asked once a match: _own_off), the sequence state, the match's counts (None: no
        # match begun), the game's kinds (a game not begun: a bytearray of none), plays.settled_roll
        self._run: list = [_DANCE, True, 0, self._state, None, bytearray(), settled_roll]
        # Without the luck (an engine's, asked in each event's state) the replay's runs of plays in turn
        # (bgcli.match.visitor.MatchVisitor.run_of_plays) are settled and counted at once by the C
        # accelerator's dice_run, with no Python frame a run: each play (and roll with no play) settled as
        # the audit's short path settles it (GameReplay.apply_all), by dice_after_plays, which works out each
        # roll's roll_chances (its fenced mirror) and counts the roll as _rolled counts it (count_roll, its
        # fenced mirror), the kinds added to the game's; where that stops (a play of one die, another
        # spelling), by plays.settled_roll, the step the audit takes in Python there, whose roll it counts in
        # the position before it as any other and goes on from. A game's first roll (the replay offers it
        # where it has no problem of the opening) is settled so too, and counted apart (as _opening). Sides
        # it does not read (not 15 checkers a side) end the run: the replay's events count the rest.
        # tests/test_dice_runs.py::test_the_tallys_run_of_plays_is_the_audits_short_path_with_chances
        self.run_of_plays = (partial(_dice_run, self._run) if luck is None and dice_after_plays is not None
                             and _dice_run is not None else None)
        self._reset_game()

    @property
    def _first(self) -> bool:
        """Whether the next roll is the game's first (counted apart: :meth:`_opening`)."""
        return self._run[_OPENING_AT]

    @_first.setter
    def _first(self, first: bool) -> None:
        self._run[_OPENING_AT] = first

    @property
    def _own_off(self) -> int:
        return self._run[_OWN_OFF_AT]

    def _reset_game(self) -> None:
        self._run[_OPENING_AT] = True
        self._state[:_WRITTEN] = _NEW_GAME   # nothing rolled before in the game

    def begin_match(self, match: MatchStart) -> None:
        if self._match is not None:   # the match before never ended (a stream cut short): its units as they are
            self._close_match(None)
        tags = {key.lower(): str(value) for key, value in (match.tags or {}).items()}
        self._match = match
        self._variation = match.rules.variation
        self._run[_OWN_OFF_AT] = self._variation.off_at_start
        self._labels = (tags.get("site", "").strip(), _month(tags.get("eventdate") or tags.get("date") or ""))
        self._counts = self._run[_COUNTS_AT] = _NO_COUNTS[:]
        self._luck = ([0, 0.0, 0.0], [0, 0.0, 0.0])
        self._games = []
        self._run[_KINDS_AT] = bytearray()   # no game begun: the kinds go nowhere

    def begin_game(self, game: GameStart) -> None:
        self._reset_game()
        # a game set up has no opening roll (even one set up to the opening's): its first roll is counted
        # as any other (the replay's word, GameStart.from_opening)
        self._run[_OPENING_AT] = game.from_opening
        self._games.append(kinds := bytearray())
        self._run[_KINDS_AT] = kinds

    def event(self, event: Event) -> None:
        if event.kind is not EventKind.MOVE and event.kind is not EventKind.ROLL or not event.dice:
            return
        assert self._match is not None
        written = event.record.dice if event.record is not None and event.record.dice else event.dice
        a, b = written
        if a not in FACES or b not in FACES:
            return
        if self.luck is not None and event.kind is EventKind.MOVE:   # the rolls rate measures, the opening's too
            luck = self.luck(event.before, (max(a, b), min(a, b)), event.opening)
            summed = self._luck[event.side]
            summed[0] += 1
            summed[1] += luck
            summed[2] += luck * luck
        if self._first:
            self._opening(event.side, a, b)
            return
        position = event.before.position
        chances = (NotImplemented if chances_in_c is None
                   else chances_in_c(position.player, position.opponent, a, b, self._own_off))
        self._rolled(event.side, a, b,
                     roll_chances(position, (a, b), self._variation) if chances is NotImplemented else chances)

    def _opening(self, side: int, a: int, b: int) -> None:
        """A game's first roll (as written: ``a`` then ``b``), counted apart: no roll before it for what follows."""
        assert self._match is not None
        self._first = False
        kind = kind_of((a, b))
        if self._games:
            self._games[-1].append(kind)
        self._counts[side * _WIDTH + _OPENING + kind] += 1

    # The C accelerator's count_rolls is a fenced mirror of _rolled (and _opening) over rolls' facts, and so is
    # dice_after_plays given a tally (both count through count_roll, the one C copy of the counts):
    # tests/test_dice_runs.py::test_the_rolls_counted_in_c_are_the_python_counts,
    # tests/test_dice_runs.py::test_the_run_of_plays_in_c_counts_its_rolls_as_the_python_tally
    def _rolled(self, side: int, a: int, b: int, chances: Any) -> None:
        """A roll after the opening (as written: ``a`` then ``b``) and its :func:`roll_chances`, counted."""
        assert self._match is not None
        counts, state = self._counts, self._state
        base = side * _WIDTH   # the mover's counts
        kind = kind_of((a, b))
        double = int(a == b)
        if self._games:
            self._games[-1].append(kind)
        if a != b:
            state[_WRITTEN + (a < b)] += 1
        counts[base + kind] += 1
        counts[base + _FACES + a - 1] += 1
        counts[base + _FACES + b - 1] += 1
        counts[base + _ORDER + (a - 1) * 6 + b - 1] += 1
        if state[0] >= 0:
            counts[base + _PAIRS + state[0] * 21 + kind] += 1
        if state[1]:
            counts[base + _AFTER] += 1
            counts[base + _AFTER + 1] += double
        if state[4 + side] and state[2 + side]:
            counts[base + _OWN_AFTER] += 1
            counts[base + _OWN_AFTER + 1] += double
        state[0], state[1] = kind, double
        state[4 + side] = 1
        state[2 + side] = double
        for at, trials in enumerate(_TRIALS):   # each chance by how many of the 36 rolls succeed there
            count = chances[2 * at]
            if count:
                counts[base + trials + count] += 1
                counts[base + trials + _BINS + count] += chances[2 * at + 1]

    def end_match(self) -> object:
        # the match's rolls in order, each its kind (the opening's too): the same match read from another file
        # has the same (dicereport.once)
        self._close_match(hashlib.sha256(b"".join(self._games)).hexdigest())
        return None

    def _close_match(self, fingerprint: str | None) -> None:
        """The match's two units from its counts; ``fingerprint`` None: a match that never ended (no
        fingerprint, no marks: the report does not take it for a copy of another)."""
        match = self._match
        assert match is not None
        marks = game_marks(self._games) if fingerprint is not None else ()
        players = match.players
        for side in (0, 1):
            # the parts cut as arrays (nothing for the collector), in _PARTS' order
            kinds, faces, order, pairs, after, own_after, *chances, opening = map(self._counts.__getitem__,
                                                                                  _SLICES[side])
            unit = Unit(self.path, match.number, side, players[side], players[1 - side], *self._labels,
                        match.rules.white_first, False, fingerprint or "", marks,
                        kinds=kinds, opening=opening, faces=faces, order=order, pairs=pairs, after_double=after,
                        own_after_double=own_after, trials=dict(zip(CONDITIONS, chances[0::2])),
                        successes=dict(zip(CONDITIONS, chances[1::2])))
            unit.luck_rolls, unit.luck, unit.luck_squares = self._luck[side]
            self.units.append(unit)
        self._match = None
        self._run[_COUNTS_AT] = None   # no match: the C run settles nothing

    @property
    def written(self) -> list[int]:
        """The file's rolls (not doubles) written high die first, and low die first."""
        return self._state[_WRITTEN:].tolist()

    @property
    def ordered(self) -> bool:
        """Whether the file records the order the dice fell: both orders are
        written, the rarer at least a tenth of the time (of ten rolls or more).
        A file written high die first, or low die first, but for a slip or two
        keeps no order (gammonview's .mat files hold both habits); a fair die
        written as it fell misses this bar with a chance under 0.2%."""
        high_first, low_first = self.written
        return high_first + low_first >= 10 and min(high_first, low_first) >= 0.1 * (high_first + low_first)

    def close(self) -> None:
        """The replay over (read to the end or not): the tally lets go of its bound ``run_of_plays``, a
        cycle (self -> method -> self) that only the garbage collector would free, with everything the
        tally holds, scanned by each of its collections until then."""
        self.run_of_plays = None

    def finish(self) -> list[Unit]:
        """The file's units, each marked with whether the file records the order of the dice."""
        if self._match is not None:
            self._close_match(None)
        ordered = self.ordered
        for unit in self.units:
            unit.ordered = ordered
            if not ordered:
                unit.order = _zeros(36)
        return self.units


# Fenced mirror of roll_chances: the C accelerator's roll_chances and dice_after_plays (bgcli/core/_speedups.c),
# tests/test_dice_shots.py::test_the_chances_in_c_are_the_python_chances and
# tests/test_dice_runs.py::test_the_tallys_run_of_plays_is_the_audits_short_path_with_chances
def roll_chances(position: Position, dice: tuple[int, int],
                 variation: Variation = Variation.STANDARD) -> tuple[int, int, int, int, int, int, int, int]:
    """The four chances of a roll in its position (entering, hitting, bearing
    off the last checkers, saving the gammon at the last chance: CONDITIONS),
    each as how many of the 36 rolls succeed there (0 where it is not a trial:
    no chance, or a sure thing), then whether this roll (either order) did;
    ``variation``: the variant played (the gammon's, :func:`saving_rolls`)."""
    roll = (max(dice), min(dice))
    key = (position.player, position.opponent, variation)
    chances = _CHANCES.get(key)
    if chances is None:
        chances = _chances_of(position, variation)
        if len(_CHANCES) > 50_000:   # bounded, as the replay's plays (bgcli.match.game)
            _CHANCES.clear()
        _CHANCES[key] = chances
    entering, hitting, hit_count, finishing, finishing_count, saving, saving_count = chances
    opponent = position.opponent
    return (entering, int(bool(entering) and (opponent[roll[0]] < 2 or opponent[roll[1]] < 2)),
            hit_count, int(bool(hit_count) and roll in hitting),
            finishing_count, int(bool(finishing_count) and roll in finishing),
            saving_count, int(bool(saving_count) and roll in saving))


def _chances_of(position: Position, variation: Variation) -> tuple[int, frozenset, int, frozenset, int, frozenset, int]:
    """What the four chances are in a position, each 0 where it is not a
    trial (no chance, or a sure thing): how many of the 36 rolls enter, the
    rolls that hit, that bear off the last checkers and that save the
    gammon at the last chance, each with how many of 36 they are."""
    player = position.player
    entering = 0
    if player[BAR]:
        entering = enter_count(position)
        entering = entering if 0 < entering < ALL_THROWS else 0
    hitting: frozenset = frozenset()
    hit_count = 0
    if 1 in position.opponent[1:25] and is_contact(position):
        hitting = frozenset(hitting_rolls(position))
        hit_count = sum(map(throws, hitting))
        hit_count = hit_count if hit_count < ALL_THROWS else 0
    finishing = finishing_rolls(position)
    finishing_count = sum(map(throws, finishing))
    finishing_count = finishing_count if finishing_count < ALL_THROWS else 0
    saving = saving_rolls(position, variation)
    saving_count = sum(map(throws, saving))
    saving_count = saving_count if saving_count < ALL_THROWS else 0
    return entering, hitting, hit_count, finishing, finishing_count, saving, saving_count


_DATE = re.compile(r"\s*(\d{4})[.\-/](\d{1,2})")   # compiled once: a match's date is read as it begins


def _month(text: str) -> str:
    """``YYYY-MM`` from a date tag (``2024.05.11``, ``2024-05-11``, ``2024/05/11``), or ''."""
    found = _DATE.match(text)
    if not found or not 1 <= int(found.group(2)) <= 12:
        return ""
    return f"{found.group(1)}-{int(found.group(2)):02d}"


__all__ = ["CONDITIONS", "DOUBLES", "DiceTally", "KINDS", "Unit", "add_into", "bears_off_all", "bears_one_off", "bearoff_count", "enter_chance",
           "enters", "finishing_rolls", "game_marks", "kind_of", "saving_rolls"]
