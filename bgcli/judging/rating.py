"""Rating whole matches: every decision of every game judged from an engine's answers.

:class:`Rater` is a :class:`~bgcli.match.replay.MatchVisitor`: the replay
gives it each action with the state before it, and at the end of each game it
asks the engine (any backend of :mod:`bgcli.engines`, through the protocol
only) about every decision and computes the judgement itself:

- a checker play: the played play, the best one and the error (the best
  play's equity minus the played one's, never below 0);
- a cube turn before a roll where the player could double and did not (a
  missed double when doubling was right), a double (a wrong double when it
  was not), a take or a pass (a wrong take, a wrong pass): the error is the
  best action's equity minus the chosen one's, as GNU Backgammon's analysis
  computes it;
- the luck of every roll, as GNU Backgammon defines it: the equity after the
  best play of this roll minus the average over the 36 rolls (the opening
  roll: over the 30 rolls that are not doubles, either player on roll), with
  a cubeful evaluation at the luck level (0-ply, gnubg's default). The
  opening roll is the replay's word (Event.opening: the first roll of a game
  from the opening); a board set up to the opening's, as each trial of gnubg's
  rollout log is, is a position: its first roll is an ordinary roll, after a
  cube turn.

Errors and luck are in normalised equity (gnubg's EMG in match play: winning
a single game at the cube is +1) and, in match play, in match winning chance
(MWC) too. Which decisions count towards the error rate and the PR follows
eXtreme Gammon (and gammonview, which reproduces XG's figures): a checker play
with at least two legal plays whose ten best are not all equal (within 0.0001)
or that lost equity; a cube decision of the doubler unless it is trivial
(holding and doubling within 0.001, or far from any double: no double beats
double/take or double/pass by more than 0.2, or both below -0.9) and cost less
than 0.001; a take or pass unless taking and passing are within 0.001. A
forced play, a dance and an illegal play are not decisions.

An illegal play (one the replay reports as a problem of the play, the dice
or a missing dance) has no error: it was not a legal choice; it is shown as
illegal, its roll's luck still counts, and the rating goes on from the
position the recorded play produced, exactly as the replay and the audit do.
"""
from __future__ import annotations

import inspect
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Sequence

from bgcli.core.cube import (
    Answer, CubeAction, CubeTurn, Line, answer_equities, doubled_equity, is_close, may_double, optimal_equity,
    proper_action_of,
)
from bgcli.core.kinds import Worded
from bgcli.core.position import ALL_THROWS, KINDS_OF_ROLL, Position, throws
from bgcli.core.generator import Play, legal_plays
from bgcli.core.notation import play_text
from bgcli.core.rules import Rules, points_away
from bgcli.core.state import GameState
from bgcli.engines.protocol import CubeDecision, Engine, Evaluation, PlayEvaluation
from bgcli.errors import EngineError
from bgcli.match.replay import (
    Event, EventKind, GameResult, GameStart, MatchStart, MatchVisitor, Problem, ProblemKind, Unfinished,
)
from bgcli.core.spelling import recorded_text

# GNU Backgammon's analysis thresholds (its defaults, "show analysis"): an error
# of more than this much normalised equity marks a decision so
DOUBTFUL, BAD, VERY_BAD = 0.03, 0.06, 0.12
# XG's and gammonview's rules of what counts as a decision
CHECKER_SPREAD = 1e-4
CUBE_TRIVIAL = 0.001
CUBE_FAR = 0.2
CUBE_LOST = -0.9
# gnubg's analysis sorts cube errors against a cash, +1 in normalised equity, not against the
# double/pass figure, which in match play can be a rounding away (0.99999976 at 2-ply, held-out sp31004)
CASH = 1.0

ROLLS = list(KINDS_OF_ROLL)   # the 21 distinct rolls, high die first
_ILLEGAL_KINDS = (ProblemKind.PLAY, ProblemKind.DICE, ProblemKind.DANCE)


class DecisionKind(str, Worded):
    """What a judged action is."""

    PLAY = "play"            # a checker play with a choice
    FORCED = "forced"        # one legal play, or none (a dance): no decision
    ILLEGAL = "illegal"      # a play that is not legal: no error
    NO_DOUBLE = Line.NO_DOUBLE.word  # a cube turn passed by (gnubg's line of it, in lower case)
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"

    @property
    def verdict(self) -> str:
        """gnubg's name for an error of a decision of this kind: 'missed double', 'wrong double',
        'wrong take', 'wrong pass' ('' for a play)."""
        return _VERDICTS.get(self, "")


_VERDICTS = {DecisionKind.NO_DOUBLE: "missed double", DecisionKind.DOUBLE: "wrong double",
             DecisionKind.TAKE: "wrong take", DecisionKind.DROP: "wrong pass"}


class Mark(str, Worded):
    """GNU Backgammon's marks of an error (thresholds DOUBTFUL, BAD, VERY_BAD)."""

    NONE = ""
    DOUBTFUL = "doubtful"
    BAD = "bad"
    VERY_BAD = "very bad"


@dataclass(frozen=True)
class Thresholds:
    """The errors above which a decision is marked doubtful, bad and very bad (gnubg's defaults, or a user's)."""

    doubtful: float = DOUBTFUL
    bad: float = BAD
    very_bad: float = VERY_BAD

    @classmethod
    def parse(cls, text: str) -> "Thresholds":
        """``D,B,VB``: three errors in normalised equity, rising (ValueError saying what is wrong)."""
        parts = text.split(",")
        try:
            values = [float(part) for part in parts]
        except ValueError:
            raise ValueError(f"thresholds {text!r} are not numbers: expected DOUBTFUL,BAD,VERY_BAD, like 0.03,0.06,0.12") from None
        if len(values) != 3:
            raise ValueError(f"thresholds {text!r}: expected three numbers DOUBTFUL,BAD,VERY_BAD, like 0.03,0.06,0.12")
        if not 0 <= values[0] <= values[1] <= values[2] or values[2] != values[2] or values[2] == float("inf"):
            raise ValueError(f"thresholds {text!r}: expected three finite numbers, 0 or more, rising")
        return cls(*values)

    def mark(self, error: float | None) -> Mark:
        if error is None:
            return Mark.NONE
        if error > self.very_bad:
            return Mark.VERY_BAD
        if error > self.bad:
            return Mark.BAD
        if error > self.doubtful:
            return Mark.DOUBTFUL
        return Mark.NONE


def remark(decisions: Sequence[dict], players: Sequence[dict], thresholds: Thresholds) -> None:
    """Each player's doubtful, bad and very bad decisions counted again with ``thresholds``, in place, from
    the decisions as ``Decision.to_dict`` writes them (illegal plays are never marked)."""
    counts = {p["name"]: {"doubtful": 0, "bad": 0, "very_bad": 0} for p in players}
    for decision in decisions:
        if decision["kind"] == DecisionKind.ILLEGAL.value or decision["player"] not in counts:
            continue
        found = thresholds.mark(decision["error"])
        if found != Mark.NONE:
            counts[decision["player"]][found.name.lower()] += 1
    for player in players:
        player.update(counts[player["name"]])


def mark(error: float | None) -> Mark:
    if error is None:
        return Mark.NONE
    if error > VERY_BAD:
        return Mark.VERY_BAD
    if error > BAD:
        return Mark.BAD
    if error > DOUBTFUL:
        return Mark.DOUBTFUL
    return Mark.NONE


# GNU Backgammon's luck thresholds ("show analysis"): a roll's luck above LUCKY is lucky, above VERY_LUCKY
# very lucky, and the same below zero unlucky
LUCKY, VERY_LUCKY = 0.3, 0.6


class LuckMark(str, Worded):
    """GNU Backgammon's marks of a roll's luck (thresholds LUCKY, VERY_LUCKY)."""

    NONE = ""
    VERY_LUCKY = "very lucky"
    LUCKY = "lucky"
    UNLUCKY = "unlucky"
    VERY_UNLUCKY = "very unlucky"


def luck_mark(luck: float | None) -> LuckMark:
    if luck is None:
        return LuckMark.NONE
    if luck > VERY_LUCKY:
        return LuckMark.VERY_LUCKY
    if luck > LUCKY:
        return LuckMark.LUCKY
    if luck < -VERY_LUCKY:
        return LuckMark.VERY_UNLUCKY
    if luck < -LUCKY:
        return LuckMark.UNLUCKY
    return LuckMark.NONE


class CubeError(str, Worded):
    """GNU Backgammon's kinds of cube error, as its analysis counts them apart."""

    MISSED_BELOW_CASH = "missed double below cash point"   # should have doubled, and the opponent take
    MISSED_ABOVE_CASH = "missed double above cash point"   # should have doubled, and the opponent pass
    WRONG_BELOW_DOUBLE = "wrong double below double point"  # doubled too early
    WRONG_ABOVE_TOO_GOOD = "wrong double above too good point"  # doubled a position too good: play on
    WRONG_TAKE = "wrong take"
    WRONG_PASS = "wrong pass"


@dataclass(frozen=True)
class Decision:
    """One judged action. ``error`` and ``luck`` are normalised equity
    (``*_mwc`` their match winning chance in match play); ``equity`` is the
    acting player's equity after the action (None when the game ends)."""

    match: int
    game: int
    move: int
    line: int
    side: int
    player: str
    kind: DecisionKind
    played: str
    best: str
    error: float | None = None
    error_mwc: float | None = None
    luck: float | None = None
    luck_mwc: float | None = None
    counted: bool = False
    equity: float | None = None
    cube: int = 1                 # the cube's value before the action
    action: str = ""              # a cube decision: the proper cube action in GNU Backgammon's words
    close: bool = False           # a cube decision gnubg counts as close (every double, take and pass is)
    # a cube turn or a double: the doubler's figure that gnubg's analysis sorts the error by is above a
    # cash, +1 (a cube turn: double/take, the opponent should pass; a double: no double, too good)
    past_pass: bool = False

    @property
    def mark(self) -> Mark:
        return mark(self.error)

    @property
    def verdict(self) -> str:
        """gnubg's name for this error (:attr:`DecisionKind.verdict`), or '' where there is none."""
        return self.kind.verdict if self.error else ""

    @property
    def luck_mark(self) -> LuckMark:
        return luck_mark(self.luck)

    @property
    def cube_error(self) -> CubeError | None:
        """Which of gnubg's kinds of cube error this is (None: no error, or not a cube decision).

        gnubg's analysis sorts them by the equities (:attr:`past_pass`), not by the proper action's
        words: a double whose no double is 1e-6 above a cash, without gammons, is in words a
        double the opponent passes (the excess is the engine's rounding), and in gnubg's analysis a
        wrong double above the too good point."""
        if not self.error or not self.is_cube:
            return None
        if self.kind == DecisionKind.TAKE:
            return CubeError.WRONG_TAKE
        if self.kind == DecisionKind.DROP:
            return CubeError.WRONG_PASS
        if self.kind == DecisionKind.NO_DOUBLE:
            return CubeError.MISSED_ABOVE_CASH if self.past_pass else CubeError.MISSED_BELOW_CASH
        return CubeError.WRONG_ABOVE_TOO_GOOD if self.past_pass else CubeError.WRONG_BELOW_DOUBLE

    @property
    def is_cube(self) -> bool:
        return self.kind in (DecisionKind.NO_DOUBLE, DecisionKind.DOUBLE, DecisionKind.TAKE, DecisionKind.DROP)

    def to_dict(self, with_match: bool = False) -> dict:
        data: dict[str, Any] = {"game": self.game, "move": self.move, "line": self.line, "player": self.player,
                                "kind": self.kind.value, "played": self.played, "best": self.best,
                                "error": _round(self.error), "luck": _round(self.luck)}
        if with_match:
            data = {"match": self.match, **data}
        if self.error_mwc is not None or self.luck_mwc is not None:
            data["error_mwc"] = _round(self.error_mwc)
            data["luck_mwc"] = _round(self.luck_mwc)
        if self.action:
            data["action"] = self.action
        if self.cube_error is not None:
            data["cube_error"] = self.cube_error.value
        if self.luck_mark != LuckMark.NONE:
            data["luck_mark"] = self.luck_mark.value
        return data


def _round(value: float | None, digits: int = 6) -> float | None:
    return None if value is None else round(value, digits)


@dataclass
class PlayerRating:
    """One player's figures over a match (or several: :meth:`add`)."""

    name: str
    matches: int = 0
    decisions: int = 0            # counted decisions (see the module docstring)
    checker_decisions: int = 0
    cube_decisions: int = 0
    unforced: int = 0             # gnubg's "unforced moves": plays with more than one legal play
    close_cube: int = 0           # gnubg's "close or actual cube decisions" (Decision.close)
    illegal: int = 0
    checker_error: float = 0.0
    cube_error: float = 0.0
    checker_error_mwc: float = 0.0
    cube_error_mwc: float = 0.0
    luck: float = 0.0
    luck_mwc: float = 0.0
    rolls: int = 0
    doubtful: int = 0
    bad: int = 0
    very_bad: int = 0
    very_lucky: int = 0
    lucky: int = 0
    unlucky: int = 0
    very_unlucky: int = 0
    # gnubg's kinds of cube error: how many and the error summed (normalised equity), by CubeError value
    cube_errors: dict = field(default_factory=lambda: {kind.value: [0, 0.0] for kind in CubeError})
    result: float | None = 0.0    # points won (money) or match winning chance won, game by game
    luck_adjusted: float | None = 0.0
    match_play: bool = False

    @property
    def error(self) -> float:
        return self.checker_error + self.cube_error

    @property
    def error_mwc(self) -> float:
        return self.checker_error_mwc + self.cube_error_mwc

    @property
    def error_rate(self) -> float | None:
        """Millipoints of normalised equity lost per counted decision."""
        return 1000.0 * self.error / self.decisions if self.decisions else None

    @property
    def pr(self) -> float | None:
        """eXtreme Gammon's performance rating: 500 x total error / decisions counted."""
        return 500.0 * self.error / self.decisions if self.decisions else None

    def take(self, decision: Decision) -> None:
        """Count one decision of this player."""
        if decision.luck is not None:
            self.rolls += 1
            self.luck += decision.luck
            self.luck_mwc += decision.luck_mwc or 0.0
            marked = decision.luck_mark
            if marked != LuckMark.NONE:
                name = marked.name.lower()
                setattr(self, name, getattr(self, name) + 1)
        kind = decision.cube_error
        if kind is not None:
            self.cube_errors[kind.value][0] += 1
            self.cube_errors[kind.value][1] += decision.error or 0.0
        if decision.kind == DecisionKind.ILLEGAL:
            self.illegal += 1
            return
        error = decision.error or 0.0
        if decision.is_cube:
            self.cube_error += error
            self.cube_error_mwc += decision.error_mwc or 0.0
        else:
            self.checker_error += error
            self.checker_error_mwc += decision.error_mwc or 0.0
        if decision.kind == DecisionKind.PLAY:
            self.unforced += 1
        if decision.close:
            self.close_cube += 1
        if decision.counted:
            self.decisions += 1
            if decision.is_cube:
                self.cube_decisions += 1
            else:
                self.checker_decisions += 1
        found = decision.mark
        if found == Mark.VERY_BAD:
            self.very_bad += 1
        elif found == Mark.BAD:
            self.bad += 1
        elif found == Mark.DOUBTFUL:
            self.doubtful += 1

    def add(self, other: "PlayerRating") -> None:
        for name in ("matches", "decisions", "checker_decisions", "cube_decisions", "unforced", "close_cube", "illegal",
                     "checker_error", "cube_error", "checker_error_mwc", "cube_error_mwc", "luck", "luck_mwc",
                     "rolls", "doubtful", "bad", "very_bad", "very_lucky", "lucky", "unlucky", "very_unlucky"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for kind, (count, error) in other.cube_errors.items():
            self.cube_errors[kind][0] += count
            self.cube_errors[kind][1] += error
        for name in ("result", "luck_adjusted"):
            mine, theirs = getattr(self, name), getattr(other, name)
            setattr(self, name, None if mine is None or theirs is None else mine + theirs)
        self.match_play = self.match_play or other.match_play

    def to_dict(self) -> dict:
        data: dict[str, Any] = {
            "name": self.name, "decisions": self.decisions, "error": _round(self.error),
            "error_rate": _round(self.error_rate, 3), "pr": _round(self.pr, 3), "luck": _round(self.luck),
            "doubtful": self.doubtful, "bad": self.bad, "very_bad": self.very_bad,
            "matches": self.matches, "checker_decisions": self.checker_decisions, "cube_decisions": self.cube_decisions,
            "unforced": self.unforced, "close_cube": self.close_cube, "illegal": self.illegal,
            "checker_error": _round(self.checker_error), "cube_error": _round(self.cube_error),
            "result": _round(self.result), "luck_adjusted": _round(self.luck_adjusted),
            "very_lucky": self.very_lucky, "lucky": self.lucky, "unlucky": self.unlucky,
            "very_unlucky": self.very_unlucky,
            "cube_errors": {kind: {"count": count, "error": _round(error)}
                            for kind, (count, error) in self.cube_errors.items()},
        }
        if self.match_play:
            data.update(error_mwc=_round(self.error_mwc), checker_error_mwc=_round(self.checker_error_mwc),
                        cube_error_mwc=_round(self.cube_error_mwc), luck_mwc=_round(self.luck_mwc))
        return data


@dataclass
class MatchRating:
    """The rating of one match: its decisions in order and both players' figures."""

    number: int
    length: int
    players: tuple[str, str]
    decisions: list[Decision] = field(default_factory=list)
    ratings: tuple[PlayerRating, PlayerRating] = (PlayerRating(""), PlayerRating(""))
    problems: list[Problem] = field(default_factory=list)
    crawford_rule: bool = True   # the Crawford rule is in force in the match (its rules)


# --- the engine, asked only through the protocol ------------------------------------------

def _takes_force(engine: Engine) -> bool:
    """Whether ``evaluate_plays`` accepts ``force=`` (plays to evaluate at full depth whatever the filter)."""
    try:
        return "force" in inspect.signature(engine.evaluate_plays).parameters
    except (TypeError, ValueError):
        return False


def _at_roll(state: GameState, dice: tuple[int, int]) -> GameState:
    return state.rolled(dice)


def _before_roll(state: GameState) -> GameState:
    return replace(state, match=replace(state.match, dice=(0, 0), doubled=False, turn=state.match.on_roll))


def _opponent_on_roll(state: GameState, position: Position) -> GameState:
    """The state after the player on roll of ``state`` played to ``position``: the opponent on roll."""
    match = state.match
    other = 1 - match.on_roll
    return GameState(position.swap(), replace(match, on_roll=other, turn=other, dice=(0, 0), doubled=False))


class _Judge:
    """The engine calls of one rating, with the cube decision of a double kept for its answer."""

    def __init__(self, engine: Engine, luck_engine: Engine):
        self.engine = engine
        self.luck_engine = luck_engine
        self.force = _takes_force(engine)

    def ranked(self, state: GameState, dice: tuple[int, int], plays: Sequence[Play], played: Play | None,
               engine: Engine | None = None) -> list[PlayEvaluation]:
        engine = engine or self.engine
        if played is not None and engine is self.engine and self.force:
            found = engine.evaluate_plays(state, dice, plays, force=[played])  # type: ignore[call-arg]
        else:
            found = engine.evaluate_plays(state, dice, plays)
        if len(found) != len(plays):
            raise EngineError(f"{engine.name} ranked {len(found)} of the {len(plays)} legal plays of "
                              f"{recorded_text(dice)} in {state.position.id()}")
        # best first as the engine ranks them: a play its filter left at a lower level is
        # never above the deepest ones, whatever its shallower equity (gnubg's analysis does so)
        return list(found)

    def best_after(self, state: GameState, dice: tuple[int, int]) -> tuple[float, float | None]:
        """The luck engine's equity (and MWC) for the player on roll after the best play of ``dice``."""
        return self.best_after_rolls(state, [dice])[dice]

    def best_after_rolls(self, state: GameState, rolls: Sequence[tuple[int, int]]) -> dict[tuple[int, int],
                                                                                          tuple[float, float | None]]:
        """:meth:`best_after` for each of ``rolls``: in one engine call where the luck engine answers
        ``best_plays`` (the same figures as asking roll by roll), else one call a roll. The plays
        ``best_plays`` names are bgcli's legal plays: each backend checks its own (sage picks among
        bgcli's, whose list it checks against its own; gnubg's are checked when they come back)."""
        batch = getattr(self.luck_engine, "best_plays", None)
        found = batch(_before_roll(state), list(rolls)) if batch is not None else [None] * len(rolls)
        out = {}
        for roll, best in zip(rolls, found):
            if best is None:
                best = self._best_alone(state, roll)
            if best is None:
                # no legal play: the opponent is on roll in the same position
                theirs = self.luck_engine.evaluate(_opponent_on_roll(_at_roll(state, roll), state.position))
                out[roll] = -theirs.equity, None if theirs.mwc is None else 1.0 - theirs.mwc
            else:
                out[roll] = best[1].equity, best[1].mwc
        return out

    def _best_alone(self, state: GameState, dice: tuple[int, int]) -> tuple[str, Evaluation] | None:
        plays = legal_plays(state.position, dice)
        if not plays:
            return None
        best = self.ranked(_at_roll(state, dice), dice, plays, None, self.luck_engine)[0]
        return best.play.result.id(), best.evaluation

    def luck(self, state: GameState, dice: tuple[int, int], opening: bool) -> tuple[float, float | None]:
        """GNU Backgammon's luck of ``dice`` (and in MWC): the best equity after this roll minus the mean over all rolls."""
        total = total_mwc = 0.0
        if opening and dice[0] != dice[1]:
            # the opening roll: 15 rolls for each player, never a double
            other = _opponent_on_roll(_before_roll(state), state.position)
            rolls = [roll for roll in ROLLS if roll[0] != roll[1]]
            values = self.best_after_rolls(state, rolls)
            theirs_all = self.best_after_rolls(other, rolls)
            for roll in rolls:
                equity, mwc = values[roll]
                theirs, theirs_mwc = theirs_all[roll]
                total += equity - theirs
                total_mwc += (mwc or 0.0) + (0.0 if theirs_mwc is None else 1.0 - theirs_mwc)
            count = 30.0
        else:
            values = self.best_after_rolls(state, ROLLS)
            for roll in ROLLS:
                equity, mwc = values[roll]
                weight = throws(roll)
                total += weight * equity
                total_mwc += weight * (mwc or 0.0)
            count = float(ALL_THROWS)
        equity, mwc = values[dice]
        return equity - total / count, None if mwc is None else mwc - total_mwc / count

    def cube(self, state: GameState) -> CubeDecision:
        return self.engine.cube_decision(_before_roll(state))


# --- the visitor -----------------------------------------------------------------------

def refuse_unjudged(rules: Rules) -> None:
    """Raise EngineError where the engines cannot judge the game ``rules`` play: hypergammon. A side of it
    counts its missing checkers as borne off (core.rules.Variation), so an engine shown its positions judges
    late bear-offs of the standard game, where no gammon is left."""
    variation = rules.variation
    if variation.off_at_start:
        raise EngineError(f"{variation.describe().partition(',')[0]} cannot be judged: the engines judge "
                          "standard backgammon, to which its positions would be late bear-offs with no gammon")


class Rater(MatchVisitor):
    """Rates each match it is shown; ``end_match`` returns its :class:`MatchRating`.

    ``engine`` judges plays and cube actions; ``luck_engine`` (the same backend
    at 0-ply, as gnubg measures luck) judges the rolls; None: ``engine``."""

    wants_events = True

    def __init__(self, engine: Engine, luck_engine: Engine | None = None):
        self.judge = _Judge(engine, luck_engine or engine)
        # the match equity table of the match results: the judging engine's (an engine without one: the default)
        self.met = getattr(engine, "met", None)
        self.rating: MatchRating | None = None
        self._events: list[Event] = []
        self._illegal: set[tuple[int, int]] = set()   # (game, line) of plays the replay calls illegal
        self._luck: dict[int, Any] = {}                # event index -> the future of its roll's luck
        self._ahead: dict[tuple[str, int], Any] = {}   # (question, event index) -> its asked question

    def begin_match(self, match: MatchStart) -> None:
        refuse_unjudged(match.rules)
        self.rating = MatchRating(match.number, match.length, match.players,
                                  ratings=(PlayerRating(match.players[0], matches=1, match_play=bool(match.length)),
                                           PlayerRating(match.players[1], matches=1, match_play=bool(match.length))),
                                  crawford_rule=bool(match.rules.in_force("crawford")))
        self._illegal = set()

    def begin_game(self, game: GameStart) -> None:
        self._events = []

    def event(self, event: Event) -> None:
        self._events.append(event)

    def problem(self, problem: Problem) -> None:
        if self.rating is not None:
            self.rating.problems.append(problem)
        if problem.kind in _ILLEGAL_KINDS:
            self._illegal.add((problem.game, problem.line))

    def end_game(self, game: GameStart, result: GameResult | Unfinished) -> None:
        assert self.rating is not None
        rating = self.rating
        self._luck = {}
        own_pool = None
        if self.judge.luck_engine is not self.judge.engine and getattr(self.judge.luck_engine, "separate", False):
            # the luck engine runs in processes of its own, which mostly wait: its questions for the whole
            # game are asked from its worker threads (or a second thread) while the judging engine answers
            # the plays and cubes (an error is raised where its luck is used)
            from concurrent.futures import ThreadPoolExecutor

            workers = getattr(self.judge.luck_engine, "workers", None)
            pool = workers() if workers is not None else None
            if pool is None:
                pool = own_pool = ThreadPoolExecutor(max_workers=1)
            for index, event in enumerate(self._events):
                if event.kind == EventKind.MOVE and event.dice:
                    state = event.before
                    self._luck[index] = pool.submit(self.judge.luck, state, event.dice, event.opening)
        self._ask_ahead(self._events)
        try:
            for decision in self._judge_game(self._events):
                rating.decisions.append(decision)
                rating.ratings[decision.side].take(decision)
        finally:
            # what is left of the game's questions (a failure stopped it) is not asked; the engine's
            # workers stay for the next game
            for future in (*self._luck.values(), *(a.future for a in self._ahead.values())):
                future.cancel()
            if own_pool is not None:
                own_pool.shutdown(wait=True)
            self._luck = {}
            self._ahead = {}
        _add_result(rating, game, result, [d for d in rating.decisions if d.game == game.number], self.met)
        self._events = []

    def end_match(self) -> MatchRating | None:
        return self.rating

    def _ask_ahead(self, events: list[Event]) -> Any:
        """The judging engine's questions of the whole game asked at once from its worker threads, where it
        has some (``workers()``, bgcli.engines.workers: it answers from several threads at a time): the
        game is judged in order as before, each answer taken where it is needed (:meth:`_asked`), the same
        figures as asking then. A play and the cube turn after it (the position its result leaves the
        opponent) go to the same worker: bgsage's cache of that thread holds most of the cube's
        evaluations already. The engine's pool, or None."""
        workers = getattr(self.judge.engine, "workers", None)
        pool = workers() if workers is not None else None
        if pool is None:
            return None
        judge = self.judge
        groups: list[list[tuple[Future, Any, tuple]]] = []
        doubled_by: int | None = None   # as _judge_game: no cube turn before the roll of who just doubled
        for index, event in enumerate(events):
            state = event.before
            if event.kind == EventKind.MOVE and event.dice:
                if (doubled_by != event.side and not event.opening
                        and may_double(CubeTurn.of(state)) is None):
                    asked = self._ahead[("cube", index)] = _Asked(Future(), state)
                    after_play = bool(groups) and groups[-1][-1][1] == judge.ranked
                    (groups[-1] if after_play else _new(groups)).append((asked.future, judge.cube, (state,)))
                doubled_by = None
                if (event.game, event.line) in self._illegal:
                    continue
                plays = legal_plays(state.position, event.dice)
                played = plays[0] if len(plays) == 1 else event.legal
                if played is not None:
                    asked = self._ahead[("ranked", index)] = _Asked(Future(), state, played)
                    _new(groups).append((asked.future, judge.ranked, (state, event.dice, plays, played)))
            elif event.kind == EventKind.DOUBLE:
                doubled_by = event.side
                if may_double(CubeTurn.of(state)) is None:
                    asked = self._ahead[("cube", index)] = _Asked(Future(), state)
                    _new(groups).append((asked.future, judge.cube, (state,)))
        for group in groups:
            pool.submit(_answer_all, group)
        return pool

    def _asked(self, question: str, index: int | None, state: GameState, call, *args) -> Any:
        """``call(state, *args)``: the answer asked ahead for the event ``index`` when it was asked of the same
        state (and play), else asked now."""
        asked = self._ahead.get((question, index)) if index is not None else None
        if asked is not None and asked.state is state and asked.played == (args[-1] if question == "ranked" else None):
            return asked.future.result()
        return call(state, *args)

    # --- one game ---------------------------------------------------------------------
    def _judge_game(self, events: list[Event]) -> Iterator[Decision]:
        judge = self.judge
        cube: CubeDecision | None = None    # of the double waiting for its answer
        asked_in: GameState | None = None   # the state that double was made in, which cube judges
        redoubles = 0                       # the instant redoubles (beaver, raccoon) made since that double
        doubled_by: int | None = None       # who doubled this turn (no cube turn before their roll)
        for index, event in enumerate(events):
            if event.kind == EventKind.MOVE and event.dice:
                if doubled_by != event.side:
                    decision = self._cube_turn(event, index)
                    if decision is not None:
                        yield decision
                doubled_by = None
                play = self._play(event, self._luck.get(index), index)
                if play is not None:
                    yield play
            elif event.kind == EventKind.DOUBLE:
                cube = (self._asked("cube", index, event.before, judge.cube)
                        if may_double(CubeTurn.of(event.before)) is None else None)
                redoubles = 0
                doubled_by = event.side
                asked_in = event.before
                if cube is not None:
                    yield self._double(event, cube)
            elif event.kind in (EventKind.TAKE, EventKind.DROP, EventKind.BEAVER, EventKind.RACCOON):
                # the answer to the double, or to the last instant redouble: by the doubled player to a
                # double or a raccoon, by the doubler to a beaver
                answerer = doubled_by if redoubles % 2 else None if doubled_by is None else 1 - doubled_by
                if cube is not None and asked_in is not None and event.side == answerer:
                    yield self._answer(event, cube, asked_in, redoubles)
                    if event.kind in (EventKind.BEAVER, EventKind.RACCOON):
                        redoubles += 1
                        continue
                cube = None

    def _decision(self, event: Event, kind: DecisionKind, played: str, best: str, **values) -> Decision:
        if kind in (DecisionKind.DOUBLE, DecisionKind.TAKE, DecisionKind.DROP):
            values.setdefault("close", True)
        return Decision(event.match, event.game, event.move, event.line, event.side, event.player, kind, played,
                        best, cube=event.before.match.cube, **values)

    def _cube_turn(self, event: Event, index: int | None = None) -> Decision | None:
        state = event.before
        if event.opening or may_double(CubeTurn.of(state)) is not None:
            # the opening roll (the replay's word: a board set up to the opening's is not one) has no cube
            # turn, nor a player who may not double
            return None
        cube = self._asked("cube", index, state, self.judge.cube)
        optimal = optimal_equity(cube.no_double, cube.double_take, cube.double_pass)
        error = max(0.0, optimal - cube.no_double)
        error_mwc = None
        if cube.no_double_mwc is not None and cube.double_take_mwc is not None and cube.double_pass_mwc is not None:
            error_mwc = max(0.0, optimal_equity(cube.no_double_mwc, cube.double_take_mwc, cube.double_pass_mwc)
                            - cube.no_double_mwc)
        counted = not (_trivial_cube(cube) and error < CUBE_TRIVIAL)
        proper = _proper(state, cube)
        close = is_close(cube.no_double, cube.double_take, cube.double_pass)   # gnubg's close cube decision
        return self._decision(event, DecisionKind.NO_DOUBLE, DecisionKind.NO_DOUBLE.value, _best_cube(proper), error=error,
                              error_mwc=error_mwc, counted=counted, equity=cube.no_double, action=str(proper),
                              close=close, past_pass=cube.double_take > CASH)

    def _double(self, event: Event, cube: CubeDecision) -> Decision:
        optimal = optimal_equity(cube.no_double, cube.double_take, cube.double_pass)
        doubled = doubled_equity(cube.double_take, cube.double_pass)
        error = max(0.0, optimal - doubled)
        error_mwc = None
        if cube.no_double_mwc is not None and cube.double_take_mwc is not None and cube.double_pass_mwc is not None:
            doubled_mwc = doubled_equity(cube.double_take_mwc, cube.double_pass_mwc)
            error_mwc = max(0.0, max(cube.no_double_mwc, doubled_mwc) - doubled_mwc)
        counted = not (_trivial_cube(cube) and error < CUBE_TRIVIAL)
        proper = _proper(event.before, cube)
        return self._decision(event, DecisionKind.DOUBLE, "double", _best_cube(proper), error=error,
                              error_mwc=error_mwc, counted=counted, equity=doubled, action=str(proper),
                              past_pass=cube.no_double > CASH)

    def _answer(self, event: Event, cube: CubeDecision, asked_in: GameState, redoubles: int = 0) -> Decision:
        """The answer to a double (``redoubles`` 0), to a beaver (1) or to a raccoon (2); a beaver or a
        raccoon is itself an answer (the take of what it answers, redoubled). Its error is against
        the better of take and pass (GNU Backgammon's, which judges a plain take or pass so, never
        against a beaver not made); an instant redouble's against all three
        (:func:`~bgcli.core.cube.answer_equities`), in the normalised equity of the cube before the
        double. Only the answer to a double has match winning chances (beavers are money play).
        Its proper action is the double's (``asked_in``, the state ``cube`` judges), whatever the
        state of an answer to an instant redouble shows (gnubg's: a double waiting, the first
        doubler on roll)."""
        instant = event.kind in (EventKind.BEAVER, EventKind.RACCOON)
        worth = answer_equities(cube.double_take, cube.double_pass, redoubles)
        chosen = Answer.BEAVER if instant else Answer.PASS if event.kind == EventKind.DROP else Answer.TAKE
        choices = (Answer.TAKE, Answer.PASS, Answer.BEAVER) if instant else (Answer.TAKE, Answer.PASS)
        error = max(0.0, max(worth[a] for a in choices) - worth[chosen])
        error_mwc = None
        if not redoubles and not instant and cube.double_take_mwc is not None and cube.double_pass_mwc is not None:
            gap = cube.double_take_mwc - cube.double_pass_mwc
            error_mwc = max(0.0, gap if chosen is Answer.TAKE else -gap)
        counted = abs(cube.double_take - cube.double_pass) >= CUBE_TRIVIAL
        kind = DecisionKind.DROP if chosen is Answer.PASS else DecisionKind.TAKE
        proper = _proper(asked_in, cube)
        if redoubles:
            # the answer to an instant redouble: the better of take and pass (and of redoubling again)
            best = str(max(choices, key=lambda a: worth[a]))
        else:
            # the proper answer to the double as the cube module gives it (a beaver is a take that redoubles)
            best = str(Answer.PASS if proper.answer is Answer.PASS else Answer.TAKE)
        played = str(Answer.PASS) if chosen is Answer.PASS else event.kind.value
        return self._decision(event, kind, played, best, error=error, error_mwc=error_mwc, counted=counted,
                              equity=None if chosen is Answer.PASS else worth[chosen], action=str(proper))

    def _play(self, event: Event, asked: Any = None, index: int | None = None) -> Decision | None:
        """``asked``: the future of this roll's luck, asked already (see :meth:`end_game`); ``index``: the
        event's place in the game, whose engine questions may have been asked ahead (:meth:`_ask_ahead`)."""
        state, dice = event.before, event.dice
        assert dice is not None
        plays = legal_plays(state.position, dice)
        illegal = (event.game, event.line) in self._illegal or (event.legal is None and bool(plays) and bool(event.play))
        if not illegal and event.legal is None and plays:
            return None   # a roll with no play right before the end: a resignation after rolling, no decision
        if asked is not None:
            luck, luck_mwc = asked.result()
        else:
            luck, luck_mwc = self.judge.luck(state, dice, opening=event.opening)
        if illegal:
            equity = None
            if event.after is not None:
                found = self.judge.engine.evaluate(_opponent_on_roll(state, event.after))
                equity = -found.equity
            return self._decision(event, DecisionKind.ILLEGAL, event.play, "", luck=luck, luck_mwc=luck_mwc,
                                  equity=equity)
        if len(plays) <= 1:
            equity = None
            if plays:
                equity = self._asked("ranked", index, state, self.judge.ranked, dice, plays,
                                     plays[0])[0].evaluation.equity
            elif not state.position.is_over():
                equity = -self.judge.engine.evaluate(_opponent_on_roll(state, state.position)).equity
            return self._decision(event, DecisionKind.FORCED, event.play, event.play, error=0.0, luck=luck,
                                  luck_mwc=luck_mwc, equity=equity)
        assert event.legal is not None
        ranked = self._asked("ranked", index, state, self.judge.ranked, dice, plays, event.legal)
        played = next((p for p in ranked if p.play.result == event.legal.result), None)
        if played is None:
            raise EngineError(f"{self.judge.engine.name} did not evaluate the play {event.play} of "
                              f"{recorded_text(dice)} in {state.position.id()}")
        best = ranked[0]
        error = max(0.0, best.evaluation.equity - played.evaluation.equity)
        error_mwc = None
        if best.evaluation.mwc is not None and played.evaluation.mwc is not None:
            error_mwc = max(0.0, best.evaluation.mwc - played.evaluation.mwc)
        window = ranked[:10]
        counted = (window[0].evaluation.equity - window[-1].evaluation.equity >= CHECKER_SPREAD
                   or error >= CHECKER_SPREAD)
        return self._decision(event, DecisionKind.PLAY, event.play, play_text(best.play), error=error,
                              error_mwc=error_mwc, luck=luck, luck_mwc=luck_mwc, counted=counted,
                              equity=played.evaluation.equity)


def _new(groups: list[list]) -> list:
    groups.append([])
    return groups[-1]


def _answer_all(calls: list[tuple[Future, Any, tuple]]) -> None:
    """In a worker: each call in turn, its answer or its error set in its future (one not cancelled)."""
    for future, call, args in calls:
        if future.set_running_or_notify_cancel():
            try:
                future.set_result(call(*args))
            except BaseException as exc:
                future.set_exception(exc)


@dataclass(frozen=True)
class _Asked:
    """An engine question asked ahead (:meth:`Rater._ask_ahead`): its future and what it was asked of."""

    future: Any
    state: GameState
    played: Play | None = None


def _trivial_cube(cube: CubeDecision) -> bool:
    nd, dt, dp = cube.no_double, cube.double_take, cube.double_pass
    return (abs(nd - doubled_equity(dt, dp)) < CUBE_TRIVIAL or nd - dt > CUBE_FAR or nd - dp > CUBE_FAR
            or (nd < CUBE_LOST and dt < CUBE_LOST))


def _proper(state: GameState, cube: CubeDecision) -> CubeAction:
    """The proper cube action of the player on roll of ``state`` (who doubles or may), the cube module's."""
    return proper_action_of(CubeTurn.of(state), cube.no_double, cube.double_take,
                            cube.double_pass, gammons=cube.probabilities.win_gammon > 0)


def _best_cube(proper: CubeAction) -> str:
    return str(DecisionKind.DOUBLE if proper.doubles else DecisionKind.NO_DOUBLE)


def _add_result(rating: MatchRating, game: GameStart, result: GameResult | Unfinished,
                decisions: list[Decision], table=None) -> None:
    """GNU Backgammon's actual and luck-adjusted result of one game: points
    (money) or match winning chance won, less one's own luck and plus the
    opponent's (the luck in points, or in MWC)."""
    won = _game_result(rating, game, result, table)
    money = not rating.length
    luck = [0.0, 0.0]
    for decision in decisions:
        if decision.luck is not None:
            if money:
                luck[decision.side] += decision.luck * decision.cube
            else:
                luck[decision.side] += decision.luck_mwc or 0.0
    for side in (0, 1):
        player = rating.ratings[side]
        if won is None or player.result is None or player.luck_adjusted is None:
            player.result = player.luck_adjusted = None
            continue
        player.result += won[side]
        player.luck_adjusted += won[side] - luck[side] + luck[1 - side]


def _game_result(rating: MatchRating, game: GameStart, result: GameResult | Unfinished, table=None) -> tuple[float, float] | None:
    if isinstance(result, Unfinished) or result.winner_side < 0:
        return (0.0, 0.0)
    side = result.winner_side
    if not rating.length:
        won = float(result.points)
    else:
        won_mwc = _mwc_change(rating.length, game.score, side, result.points, game.crawford, table,
                              rating.crawford_rule)
        if won_mwc is None:
            return None
        won = won_mwc
    return (won, -won) if side == 0 else (-won, won)


def _mwc_change(length: int, score: tuple[int, int], winner: int, points: int, crawford: bool,
                table=None, crawford_rule: bool = True) -> float | None:
    """The winner's gain of match winning chance from this game, by the match equity table ``table``
    (None: the default), the Crawford rule in force or not (``crawford_rule``)."""
    from bgcli.engines import met   # the engine layer's registry of tables

    side = met.MatchSide(points_away(length, score, winner), points_away(length, score, 1 - winner), crawford=crawford, table=table,
                         crawford_rule=crawford_rule)
    before = met.mwc_at(side.away, side.opponent_away, crawford_played=not crawford, table=table)
    # the engine's equity after the game: it asks the rules whether the Crawford game is over
    return met.equity_after(side, points) - before


class RollLuck:
    """The luck of one roll as rate measures it (GNU Backgammon's: the equity
    after the best play of the roll less the mean over all rolls; the opening's
    over the 30 rolls of both players), asked of ``engine`` (rate's luck engine
    is the backend at 0-ply). For the dice audit's luck (bgcli.judging.dice)."""

    def __init__(self, engine: Engine) -> None:
        self._judge = _Judge(engine, engine)

    def __call__(self, state: GameState, dice: tuple[int, int], opening: bool) -> float:
        """The luck of ``dice`` rolled in ``state`` (the player on roll), in normalised equity; ``opening``:
        whether it is the game's opening roll, the replay's word (Event.opening), as rate asks it."""
        refuse_unjudged(state.match.rules)
        return self._judge.luck(state, dice, opening)[0]


def rate_replay(engine: Engine, visit, luck_engine: Engine | None = None) -> list[MatchRating]:
    """Rate every match that ``visit(visitor_for)`` replays (``lambda v: visit_file(path, v, rules)``)."""
    found = []
    for rating in visit(lambda number: Rater(engine, luck_engine)):
        if rating is not None:
            found.append(rating)
    return found


__all__ = ["BAD", "DOUBTFUL", "LUCKY", "VERY_BAD", "VERY_LUCKY", "CubeError", "Decision", "DecisionKind", "LuckMark",
           "Mark", "Thresholds", "luck_mark", "remark", "MatchRating", "PlayerRating", "Rater", "RollLuck",
           "mark", "rate_replay"]
