"""Rollouts: a position's worth measured by playing it out many times, over the engine protocol.

The public API (stable; other commands call it)::

    from bgcli.judging.rollout import RolloutSettings, rollout
    found = rollout(state, engine, dice=(3, 1), settings=RolloutSettings(trials=1296, seed=7))
    found.lines[0].equity.mean, found.lines[0].equity.se, found.lines[0].equity.interval
    found.to_dict()

- ``rollout(state, engine, dice=None, *, plays=(), candidates=3, settings=RolloutSettings(),
  blocks=None, progress=None) -> Rollout``. With ``dice`` (or dice in ``state``): the
  candidate plays rolled out, the engine's best ``candidates`` plays, or the legal ``plays`` given
  (:class:`bgcli.core.generator.Play`, from :func:`bgcli.core.generator.legal_plays`). Without: the
  cube decision of the player on roll (``Rollout.refusal`` says why not where they may not double),
  the no double and double/take lines rolled out on the same trials, double/pass known exactly.
- ``engine`` is any :class:`bgcli.engines.protocol.Engine`. To spread the trials over processes or a
  Dask cluster pass ``blocks=bgcli.scale.rollout.spread(jobs, scheduler)``: each worker opens the same
  engine by its name and level (:func:`bgcli.engines.open_engine`), so it needs an engine bgcli can
  open by name.
- Every figure is a :class:`Figure`: ``mean``, ``se`` (standard error), ``interval`` (95%).
  A line's ``equity`` is normalised as the engine protocol normalises it (money: per unit of the
  cube of ``state``; a match: EMG), ``mwc`` the match winning chance (match play only), and
  ``probabilities`` the cubeless outcome chances of the side that decides (the mover, or the player
  on roll), cumulative as gnubg gives them.
- :func:`run_trials` plays trials ``start`` to ``stop`` of a :class:`Plan`: what the workers run,
  and what a scheduler of its own can call (each trial depends only on the plan and its index).
- ``Rollout.partial`` is True when the rollout was interrupted (Ctrl-C): the figures are those of
  the trials finished, ``Rollout.trials`` of them.

What a trial does, the same for every engine: from the line's position, each player in turn
(cubeful) takes the proper cube action as :func:`bgcli.core.cube.proper_action_of` says from the
engine's :meth:`~bgcli.engines.protocol.Engine.cube_decision`, where :func:`bgcli.core.cube.may_double`
lets them (the match state's ``Rules``); rolls; plays the engine's best play, which must be one of
:func:`bgcli.core.generator.legal_plays` (else an EngineError); until the game ends (its value by
:mod:`bgcli.core.value`, match winning chances by :mod:`bgcli.engines.met`) or, with
``truncate``, after that many half-moves, where the result is the engine's evaluation of the player
then on roll (cubeful: their own cube action included, as gnubg's rollouts truncate), from the side's
view at the cube's value then (a cubeless trial's evaluation is worked out from the engine's chances
by ``core.value.cubeless_worth``, so a backgammon counts as the rules say; a cubeful trial's is the
engine's own cubeful equity, which counts a backgammon 3 whatever the rules: the limit
docs/commands/rollout.md states). With variance reduction the last roll's luck cancels that evaluation
(the value after the best play of the roll is the same evaluation), so a truncated trial's figure is
the mean over the last roll's 36 outcomes less the earlier rolls' luck: the engine's look-ahead of as
many plies, estimated (tests/test_rollout_truncated.py checks it against gnubg's own).

Dice: trial ``i`` of seed ``s`` rolls the same dice whoever plays it and wherever: its first roll
is the ``i mod 36``-th of a permutation of the 36 rolls made from the seed (every 36 trials roll
each first roll once); in a rollout of a multiple of 1296 trials without a stop rule its second roll
is the ``(i div 36) mod 36``-th of another (each pair of first rolls once); the rest (and otherwise
the second roll) from a generator seeded by the seed and ``i`` (:func:`pairs_stratified` says why
the second roll is stratified only then). Every line
(each play, no double and double/take) plays the same dice in trial ``i``, so their differences
are sharper than their own figures. Results are summed exactly (:func:`math.fsum`), so the figures
do not depend on how the trials were split into blocks.

Variance reduction: the standard luck adjustment (GNU Backgammon's, eXtreme Gammon's): each roll's
luck for the player who rolled it, the engine's value after the best play of this roll minus the
mean over the 36 rolls, is taken off the trial's result. Its mean is zero, so the figure stays
unbiased, and most of the spread of the dice goes.

Stop rule: ``until_se`` stops after the first round of 36 trials at which every rolled-out line's
equity has a standard error at most that (checked at round ends only, so the stopping point does
not depend on the split either); ``trials`` is then the most.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from bgcli.core.cube import Answer, CubeAction, CubeTurn, Line as CubeLine, Refusal, may_double, proper_action_of, turned
from bgcli.core.generator import legal_plays
from bgcli.core.kinds import Worded
from bgcli.core.rules import points_away
from bgcli.core.position import ALL_THROWS, CHECKERS, KINDS_OF_ROLL, OFF, ORDERED_ROLLS, throws
from bgcli.core.value import cubeless_worth, game_kind, game_value
from bgcli.engines import met
from bgcli.engines.protocol import Evaluation, Probabilities
from bgcli.errors import BgcliError, EngineError
from bgcli.core.spelling import recorded_text

if TYPE_CHECKING:
    from bgcli.core.generator import Play
    from bgcli.engines.sage_rollout import Moments
    from bgcli.core.position import Position
    from bgcli.core.state import GameState
    from bgcli.engines.protocol import Engine

ROUND = ALL_THROWS  # trials of one stratified round: each first roll once
Z95 = 1.959963984540054   # the 95% two-sided normal quantile
ROLLS = KINDS_OF_ROLL   # the 21 rolls, high die first
ORDERED = ORDERED_ROLLS     # the 36 ordered rolls
MAX_TRIALS = 10_000_000
_WIDTH = 6   # a trial's figures per line: the value, then the five cumulative probabilities


class Method(Worded):
    """Whose trial loop plays a rollout: bgcli's own over the engine protocol, or the engine's own."""

    BGCLI = "bgcli"
    SAGE = "sage"     # sage's C++ rollout, round by round (bgcli.engines.sage_rollout)
    GNUBG = "gnubg"   # gnubg's ``rollout`` command (bgcli.engines.gnubg_rollout)


class LineKind(Worded):
    """What a rolled-out line is: a play, or one of the three lines of a cube decision (the cube
    module's, :class:`bgcli.core.cube.Line`, in lower case)."""

    PLAY = "play"
    NO_DOUBLE = CubeLine.NO_DOUBLE.word
    DOUBLE_TAKE = CubeLine.DOUBLE_TAKE.word
    DOUBLE_PASS = CubeLine.DOUBLE_PASS.word   # known exactly: never rolled out

    @property
    def cube_line(self) -> CubeLine | None:
        """The cube decision's line this is, in gnubg's words (None: a play)."""
        return None if self is LineKind.PLAY else CubeLine[self.name]


@dataclass(frozen=True)
class RolloutSettings:
    """How to roll out. ``truncate`` 0 plays every trial to the end; ``until_se`` None stops at ``trials``."""

    trials: int = 1296
    seed: int = 0
    cubeful: bool = True
    truncate: int = 0
    variance_reduction: bool = True
    until_se: float | None = None

    def problem(self) -> str:
        """Why these settings cannot be used, or ''."""
        if isinstance(self.trials, bool) or not isinstance(self.trials, int) or not 1 <= self.trials <= MAX_TRIALS:
            return f"trials {self.trials!r} is not a number from 1 to {MAX_TRIALS:,}"
        if isinstance(self.truncate, bool) or not isinstance(self.truncate, int) or self.truncate < 0:
            return f"truncate {self.truncate!r} is not a number of half-moves, 0 (none) or more"
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            return f"seed {self.seed!r} is not a whole number, 0 or more"
        if self.until_se is not None and not (isinstance(self.until_se, float | int) and 0 < self.until_se < 10):
            return f"until-se {self.until_se!r} is not a standard error above 0"
        return ""

    def to_dict(self) -> dict:
        return {"trials": self.trials, "seed": self.seed, "cubeful": self.cubeful, "truncate": self.truncate,
                "variance_reduction": self.variance_reduction, "until_se": self.until_se}


@dataclass(frozen=True)
class Figure:
    """A mean over trials with its standard error (0 for a figure known exactly)."""

    mean: float
    se: float = 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval (normal approximation)."""
        return self.mean - Z95 * self.se, self.mean + Z95 * self.se

    def to_dict(self) -> dict:
        low, high = self.interval
        return {"mean": self.mean, "se": self.se, "low": low, "high": high}


@dataclass(frozen=True)
class Line:
    """One rolled-out line: a play, or a cube action, with its figures."""

    kind: LineKind
    equity: Figure
    probabilities: dict[str, Figure]
    mwc: Figure | None = None
    play: "Play | None" = None


@dataclass(frozen=True)
class Rollout:
    """What a rollout found. ``lines`` best first for plays; for a cube decision no double,
    double/take, double/pass, with the proper action of the rolled-out figures in ``action``."""

    state: "GameState"
    dice: tuple[int, int] | None
    engine: str
    level: int
    settings: RolloutSettings
    trials: int
    lines: tuple[Line, ...] = ()
    action: CubeAction | None = None
    refusal: Refusal | None = None
    partial: bool = False
    method: str = "bgcli"   # whose trial loop: bgcli's own, or the engine's ("gnubg", "sage"): Method's value
    method_note: str = ""   # why bgcli's loop played where the engine's own was asked for ('' otherwise)

    def to_dict(self, style: str = "gnubg") -> dict:
        from bgcli.core.notation import play_text

        out: dict = {"position_id": self.state.position.id(), "dice": list(self.dice) if self.dice else None,
                     "engine": self.engine, "level": self.level, "method": self.method,
                     "settings": self.settings.to_dict(), "trials": self.trials, "partial": self.partial}
        if self.method_note:
            out["method_note"] = self.method_note
        if self.refusal is not None:
            out["cube"] = {"may_double": False, "reason": self.refusal.reason.value, "why": str(self.refusal)}
            return out
        side = self.state.match.on_roll
        lines = []
        best = self.lines[0].equity.mean if self.lines else 0.0
        for line in self.lines:
            item: dict = {"kind": str(line.kind)}
            if line.play is not None:
                item["play"] = play_text(line.play, style, side=side)
                item["position_id"] = line.play.result_id()
                item["diff"] = line.equity.mean - best
            item["equity"] = line.equity.to_dict()
            if line.mwc is not None:
                item["mwc"] = line.mwc.to_dict()
            item["probabilities"] = {k: v.to_dict() for k, v in line.probabilities.items()}
            lines.append(item)
        out["lines"] = lines
        if self.action is not None:
            out["cube"] = {"may_double": True, "action": str(self.action), "double": self.action.doubles,
                           "answer": str(self.action.answer)}
        return out


# --- the plan: what every trial starts from ------------------------------------------------


@dataclass(frozen=True)
class Start:
    """Where one line's trials start: ``state`` with its player on roll; ``cube_free`` skips that
    player's first cube turn (the no double line: the decision is the one rolled out)."""

    state: "GameState"
    cube_free: bool = False
    before: "Position | None" = None   # a play's line: the mover's position before the play (sage asks it)


@dataclass(frozen=True)
class Plan:
    """Everything a trial needs, picklable: the lines' starts, whose side the figures are from
    (``side``, gnubg's 0 or 1), the match as that side sees it at the decision (the normaliser),
    and the settings. ``engine`` and ``level`` name the engine a worker opens."""

    starts: tuple[Start, ...]
    side: int
    match: met.MatchSide
    settings: RolloutSettings
    engine: str = ""
    level: int = 0
    timeout: float = 60.0
    method: Method = Method.BGCLI   # BGCLI: trials one by one; SAGE: rounds of ROUND trials by sage
    threads: int = 0                # sage's threads (0: one a core)


def trial_dice(seed: int, index: int, pairs: bool = False) -> Iterator[tuple[int, int]]:
    """The rolls of trial ``index`` of ``seed``, for ever (see the module's note on dice); ``pairs``: the
    second roll stratified too (only for a rollout of whole rounds of 1296 trials, :func:`pairs_stratified`)."""
    first, second = _permutations(seed)
    yield first[index % ROUND]
    if pairs:
        yield second[(index // ROUND) % ROUND]
    rng = random.Random(f"bgcli rollout {seed} {index}")   # a string seed: the same on every machine
    while True:
        yield (rng.randint(1, 6), rng.randint(1, 6))


def pairs_stratified(settings: RolloutSettings) -> bool:
    """Whether the second roll is stratified: when every pair of first rolls is played equally often
    (a multiple of 1296 trials, no stop rule). Otherwise the trials of one block of 36 would share their
    second roll: a sample of a few second rolls whose standard error, counted as if the trials were
    independent, is far too small (in a short bear-off the second roll decides most games)."""
    return settings.trials % (ROUND * ROUND) == 0 and settings.until_se is None


_PERMUTATIONS: dict[int, tuple[tuple, tuple]] = {}


def _permutations(seed: int) -> tuple[tuple, tuple]:
    found = _PERMUTATIONS.get(seed)
    if found is None:
        orders = []
        for k in (1, 2):
            rolls = list(ORDERED)
            random.Random(f"bgcli rollout {seed} round {k}").shuffle(rolls)
            orders.append(tuple(rolls))
        found = _PERMUTATIONS[seed] = (orders[0], orders[1])
    return found


# --- one trial ----------------------------------------------------------------------------


def _on_roll(state: "GameState") -> "GameState":
    return replace(state, match=replace(state.match, dice=(0, 0), turn=state.match.on_roll, doubled=False))


def _rolled(state: "GameState", roll: tuple[int, int]) -> "GameState":
    return replace(state, match=replace(state.match, dice=(max(roll), min(roll))))


def _passed(state: "GameState", position) -> "GameState":
    """The opponent on roll in ``position`` (seen by them)."""
    other = 1 - state.match.on_roll
    return replace(state, position=position, match=replace(state.match, on_roll=other, turn=other, dice=(0, 0)))


def _doubled(state: "GameState", value: int) -> "GameState":
    """The player on roll doubled and the opponent took or beavered, the cube turned to ``value`` (core.cube.turned)."""
    taker = 1 - state.match.on_roll
    return replace(state, match=replace(state.match, cube=value, cube_owner=taker))


class _Trial:
    """The arithmetic of one plan: values in the side's terms (money: points per unit of the
    decision's cube; match: match winning chances)."""

    def __init__(self, plan: Plan, engine: "Engine"):
        self.plan, self.engine = plan, engine
        self.settings = plan.settings
        self.cube = plan.match.cube
        self.money = plan.match.is_money

    def probs_for_side(self, probabilities: Probabilities, player: int) -> Probabilities:
        return probabilities if player == self.plan.side else probabilities.flipped()

    def value_of(self, evaluation: Evaluation, player: int, state: "GameState") -> list[float]:
        """An evaluation for ``player`` as the side's figures: [value, win, win_g, win_bg, lose_g, lose_bg]."""
        p = self.probs_for_side(evaluation.probabilities, player)
        mine = player == self.plan.side
        if not self.settings.cubeful:
            value = self.cubeless(p, state)
        elif self.money:
            value = evaluation.equity * state.match.cube / self.cube * (1 if mine else -1)
        else:
            chance = evaluation.mwc
            if chance is None:
                chance = met.mwc(evaluation.equity, met.MatchSide.of(state, player, self.plan.match.table))
            value = chance if mine else 1.0 - chance
        return [value, p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon]

    def cubeless(self, p: Probabilities, state: "GameState") -> float:
        """The side's cubeless value of ``p`` at the cube of ``state`` (double/take: twice the decision's)."""
        # a backgammon counts what the game's rules say (2 where it counts as a gammon), as at the game's end
        worth = cubeless_worth(state.match.rules)
        if self.money:
            return p.money_equity(worth) * state.match.cube / self.cube
        return met.cubeless_mwc(p, replace(self.plan.match, cube=state.match.cube), worth)

    def points_value(self, points: int, winner: int) -> float:
        """The side's value of ``winner`` winning ``points`` (a game at its cube)."""
        signed = points if winner == self.plan.side else -points
        if self.money:
            return signed / self.cube
        return met.equity_after(self.plan.match, signed)

    def final(self, state: "GameState", result, winner: int) -> list[float]:
        """The side's figures of a game ``winner`` won, ``result`` the final position seen by the winner."""
        rules = state.match.rules
        # the variation too: in hypergammon a loser whose off count is the checkers it lacks has borne off none
        won = game_kind(result, True, rules.home_gammons, rules.variation)
        kind = int(won)
        chances = Probabilities(1.0, float(kind >= 2), float(kind >= 3), 0.0, 0.0)
        p = self.probs_for_side(chances, winner)
        probs = [p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon]
        if not self.settings.cubeful:
            return [self.cubeless(p, state), *probs]
        match = state.match
        needed = points_away(match.match_length, match.score, winner) if match.match_length else None
        points = game_value(won, match.cube, rules, match.centred, needed)
        return [self.points_value(points, winner), *probs]

    def roll_values(self, state: "GameState", played: tuple[int, int] | None = None
                    ) -> dict[tuple[int, int], tuple["Play | None", list[float]]]:
        """For each of the 21 rolls of the player on roll of ``state``: the engine's best legal play
        (None: no legal play, or a roll other than ``played`` the engine's batch answered: only its
        value counts, in the mean of the luck) and the side's figures after it."""
        player = state.match.on_roll
        # the engine's own best play is its cubeful choice: a cubeless trial ranks the plays itself
        batch = getattr(self.engine, "best_plays", None) if self.settings.cubeful else None
        found = batch(state, list(ROLLS)) if batch is not None else [None] * len(ROLLS)
        if len(found) != len(ROLLS):
            raise EngineError(f"{self.engine.name} gave {len(found)} best plays for the 21 rolls")
        out: dict = {}
        for roll, best in zip(ROLLS, found):
            if best is not None and played is not None and roll != played:
                # not played: its value alone is wanted, and the play that is made (``played``'s) is
                # checked against bgcli's legal plays below; listing every roll's plays again cost a
                # sixth of a trial's time
                out[roll] = (None, self.value_of(best[1], player, state))
                continue
            plays = legal_plays(state.position, roll)
            if not plays:
                out[roll] = (None, self.no_play_value(state, roll))
                continue
            if best is None:
                play, evaluation = self.best_play(state, roll, plays)
            else:
                play = _legal(plays, best[0], self.engine.name, state, roll)
                evaluation = best[1]
            out[roll] = (play, self.value_of(evaluation, player, state))
        return out

    def no_play_value(self, state: "GameState", roll) -> list[float]:
        theirs = self.engine.evaluate(_passed(state, state.position.swap()))
        return self.value_of(theirs, 1 - state.match.on_roll, state)

    def best_play(self, state: "GameState", roll, plays) -> tuple["Play", Evaluation]:
        ranked = self.engine.evaluate_plays(_rolled(state, roll), (max(roll), min(roll)), plays)
        if not ranked:
            raise EngineError(f"{self.engine.name} ranked none of the {len(plays)} legal plays of {recorded_text(roll)}")
        best = ranked[0]
        if not self.settings.cubeful:
            # a cubeless trial plays for the cubeless equity, as gnubg's cubeless rollouts do (the engine
            # ranks by its cubeful equity); the first of equal plays, as the engine ranked them
            player = state.match.on_roll
            sign = 1.0 if player == self.plan.side else -1.0
            level = max((r.ply or 0) for r in ranked)
            deepest = [r for r in ranked if (r.ply or 0) == level]
            best = max(deepest, key=lambda r: sign * self.value_of(r.evaluation, player, state)[0])
        return _legal(plays, best.play.result.id(), self.engine.name, state, roll), best.evaluation

    def cube_turn(self, state: "GameState") -> tuple["GameState | None", list[float] | None]:
        """The cube turn of the player on roll: the state to play on, or the side's figures of a pass."""
        turn = CubeTurn.of(state)
        if may_double(turn) is not None:
            return state, None
        decision = self.engine.cube_decision(state)
        action = proper_action_of(turn, decision.no_double, decision.double_take, decision.double_pass,
                                  gammons=decision.probabilities.win_gammon > 0)
        if not action.doubles:
            return state, None
        player = state.match.on_roll
        if action.answer is Answer.PASS:
            p = self.probs_for_side(decision.probabilities, player)
            return None, [self.points_value(state.match.cube, player),
                          p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon]
        offered = turned(state.match.cube)
        return _doubled(state, turned(offered) if action.answer is Answer.BEAVER else offered), None

    def play(self, start: Start, index: int) -> tuple[list[float], list[float]]:
        """Trial ``index`` from ``start``: the side's figures and the luck to take off them."""
        settings = self.settings
        luck = [0.0] * _WIDTH
        state = _on_roll(start.state)
        cube_free = start.cube_free
        dice = trial_dice(settings.seed, index, pairs_stratified(settings))
        half = 0
        while True:
            if settings.truncate and half >= settings.truncate:
                return self.value_of(self.engine.evaluate(state), state.match.on_roll, state), luck
            if settings.cubeful and not cube_free:
                after, passed = self.cube_turn(state)
                if passed is not None:
                    return passed, luck
                assert after is not None
                state = after
            cube_free = False
            roll = next(dice)
            roll = (max(roll), min(roll))
            player = state.match.on_roll
            if settings.variance_reduction:
                values = self.roll_values(state, roll)
                play, chosen = values[roll]
                for k in range(_WIDTH):
                    mean = sum(values[r][1][k] * throws(r) for r in ROLLS) / ALL_THROWS
                    luck[k] += chosen[k] - mean
            else:
                plays = legal_plays(state.position, roll)
                play = self.best_play(state, roll, plays)[0] if plays else None
            if play is None:
                state = _passed(state, state.position.swap())
            else:
                result = play.result
                if result.player[OFF] == CHECKERS:
                    return self.final(state, result, player), luck
                state = _passed(state, play.after)
            half += 1


def _legal(plays: Sequence["Play"], key: str, engine: str, state: "GameState", roll) -> "Play":
    """The legal play whose result is ``key``: an engine's choice checked against the generator."""
    for play in plays:
        if play.result.id() == key:
            return play
    from bgcli.engines.trust import where

    raise EngineError(f"{engine} chose a play that is not legal in {where(state, roll)} (result {key})")


TrialFigures = tuple[tuple[tuple[float, ...], tuple[float, ...]], ...]   # per line: (figures, luck)
RoundFigures = tuple[tuple["Moments", ...], ...]   # per line: its [value, five chances] over a round


def run_trials(plan: Plan, start: int, stop: int, engine: "Engine | None" = None,
               each: Callable[[int, TrialFigures], None] | None = None) -> list:
    """Trials ``start`` to ``stop`` (excluded) of ``plan``: for each, per line, the side's figures
    and the luck. ``engine`` None opens the plan's engine (once per process); ``each(index, figures)``
    is told of each trial as it ends. A plan played by sage (``Method.SAGE``) gives one
    :data:`RoundFigures` per round of :data:`ROUND` trials instead (:func:`run_rounds`)."""
    if plan.method is Method.SAGE:
        return run_rounds(plan, start, stop)
    engine = engine if engine is not None else _engine_of(plan)
    trial = _Trial(plan, engine)
    out = []
    for index in range(start, stop):
        found = tuple(tuple(map(tuple, trial.play(s, index))) for s in plan.starts)
        out.append(found)   # type: ignore[arg-type]
        if each is not None:
            each(index, found)   # type: ignore[arg-type]
    return out   # type: ignore[return-value]


_ENGINES: dict = {}


def _engine_of(plan: Plan) -> "Engine":
    from bgcli.engines import open_engine

    key = (plan.engine, plan.level, plan.timeout, plan.match.table)
    if key not in _ENGINES:   # judging match play with the table of the rollout's engine (--met)
        _ENGINES[key] = open_engine(plan.engine, plan.level, timeout=plan.timeout, met=plan.match.table)
    return _ENGINES[key]


def run_rounds(plan: Plan, start: int, stop: int) -> list[RoundFigures]:
    """The rounds of trials ``start`` to ``stop`` of a plan sage plays (see
    :mod:`bgcli.engines.sage_rollout`): ``start`` a multiple of :data:`ROUND`, ``stop`` one too
    or the plan's last trial. Round ``r`` is trials ``36r`` to ``36r + 35`` played by one sage call
    with the seed :func:`~bgcli.engines.sage_rollout.round_seed` ``(seed, r)``: every line the
    same dice in trial ``t`` of a round."""
    from bgcli.engines.sage_rollout import RoundSettings, round_seed, sage_rollout

    total = plan.settings.trials
    if start % ROUND or (stop % ROUND and stop != total) or not 0 <= start <= stop <= total:
        raise BgcliError(f"trials {start} to {stop} of sage's rollout are not whole rounds of {ROUND}")
    roller = sage_rollout(plan.threads)
    s = plan.settings
    how = RoundSettings(s.cubeful, s.truncate, s.variance_reduction)
    out: list[RoundFigures] = []
    for first in range(start, stop, ROUND):
        count = min(ROUND, total - first)
        seed = round_seed(s.seed, first // ROUND)
        if len(plan.starts) == 2 and plan.starts[0].cube_free:   # the cube decision: both lines in one call
            out.append(roller.cube(plan.starts[0].state, count, seed, how))
        else:
            # a play's line starts with the opponent on roll: the mover's state before is the swap back
            out.append(tuple(roller.play(_passed(line.state, line.before or line.state.position.swap()),
                                         line.state.position.swap(), count, seed, how) for line in plan.starts))
    return out


def run_block(task: tuple[Plan, tuple[int, int]]) -> list:
    """One block of trials, ``(plan, (start, stop))``, in a worker (a pool's process or a Dask worker)."""
    plan, (start, stop) = task
    return run_trials(plan, start, stop)


# --- the figures ---------------------------------------------------------------------------


_PROBABILITY_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def combine(rounds: Sequence["Moments"]) -> Figure:
    """One figure over rounds (each a mean and a sum of squares over its trials), combined in
    order: its standard error with ``n - 1``, as :func:`line_figures`' (exact sums, so the same
    rounds give the same figure to the last digit however they were split)."""
    n = sum(r.count for r in rounds)
    mean = math.fsum(r.count * r.mean for r in rounds) / n
    if n < 2:
        return Figure(mean, 0.0)
    squares = math.fsum([r.squares for r in rounds] + [r.count * (r.mean - mean) ** 2 for r in rounds])
    return Figure(mean, math.sqrt(max(squares, 0.0) / (n - 1) / n))


def _figures_of(plan: Plan, done: Sequence, line: int) -> list[Figure]:
    """The [value, five chances] figures of ``line`` over what has arrived: trials, or sage's rounds."""
    if plan.method is Method.SAGE:
        return [combine([r[line][k] for r in done]) for k in range(_WIDTH)]
    return line_figures(done, line, plan.settings.variance_reduction)


def _count(plan: Plan, found) -> int:
    """The trials of one item that arrived: a trial, or one of sage's rounds."""
    return found[0][0].count if plan.method is Method.SAGE else 1


def _figure(values: Sequence[float]) -> Figure:
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return Figure(mean, 0.0)
    spread = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return Figure(mean, math.sqrt(max(spread, 0.0) / n))


def line_figures(trials: Sequence[TrialFigures], line: int, reduce: bool) -> list[Figure]:
    """The [value, five probabilities] figures of ``line`` over ``trials`` (in the side's terms),
    luck taken off with ``reduce``."""
    out = []
    for k in range(_WIDTH):
        if reduce:
            values = [t[line][0][k] - t[line][1][k] for t in trials]
        else:
            values = [t[line][0][k] for t in trials]
        out.append(_figure(values))
    return out


def _in_equity(figure: Figure, match: met.MatchSide) -> tuple[Figure, Figure | None]:
    """A value figure as the protocol's equity (and the match winning chance in a match)."""
    if match.is_money:
        return figure, None
    win, lose = met.win_lose(match)
    scale = 2.0 / (win - lose)
    return Figure(met.emg(figure.mean, match), figure.se * scale), figure


def _lines(plan: Plan, trials: Sequence, kinds: Sequence[LineKind],
           plays: Sequence["Play | None"]) -> list[Line]:
    out = []
    for number, (kind, play) in enumerate(zip(kinds, plays)):
        figures = _figures_of(plan, trials, number)
        equity, mwc = _in_equity(figures[0], plan.match)
        probabilities = dict(zip(_PROBABILITY_NAMES, figures[1:]))
        out.append(Line(kind, equity, probabilities, mwc, play))
    return out


def _settled(plan: Plan, trials: Sequence) -> bool:
    limit = plan.settings.until_se
    if limit is None:
        return False
    for number in range(len(plan.starts)):
        value = _figures_of(plan, trials, number)[0]
        if _in_equity(value, plan.match)[0].se > limit:
            return False
    return True


# --- the rollout -----------------------------------------------------------------------------


Progress = Callable[[int, int, Sequence[Line]], None]
Blocks = Callable[[Plan], Iterator[list[TrialFigures]]]


def rollout(state: "GameState", engine: "Engine", dice: tuple[int, int] | None = None, *,
            plays: Sequence["Play"] = (), candidates: int = 3, settings: RolloutSettings = RolloutSettings(),
            blocks: "Blocks | None" = None, progress: Progress | None = None, own: bool = False,
            threads: int = 0) -> Rollout:
    """Roll out the candidate plays of ``dice`` in ``state``, or its cube decision (see the module).

    ``own``: the engine's own trial loop where it has one that plays these settings (the sage
    engine: :mod:`bgcli.engines.sage_rollout`, round by round, ``threads`` its threads), else bgcli's,
    and ``Rollout.method_note`` says why. Either way the same seed gives the same figures to the
    last digit, on one process or split into ``blocks``.

    ``progress(done, most, lines)`` is told after each trial, with the figures of the last round.
    ``blocks(plan)``, when given, runs the trials elsewhere: it yields the trials' figures in order,
    block by block (:mod:`bgcli.scale.rollout` spreads them over processes or a Dask cluster).
    Raises BgcliError for settings that cannot be used, EngineError for an engine that fails or
    chooses a play that is not legal."""
    why = settings.problem()
    if why:
        raise BgcliError(why)
    if dice is None and state.match.dice[0]:
        dice = (state.match.dice[0], state.match.dice[1])
    level = engine.level.ply
    decider = state.match.on_roll
    before = _on_roll(state)
    side = met.MatchSide.of(state, table=getattr(engine, "met", None))
    kinds: list[LineKind]
    chosen: list["Play | None"]
    starts: tuple[Start, ...]
    if dice is None:
        turn = CubeTurn.of(state)
        refusal = may_double(turn)
        if refusal is not None:
            return Rollout(state, None, engine.name, level, settings, 0, refusal=refusal)
        starts = (Start(before, cube_free=True), Start(_doubled(before, turned(state.match.cube))))
        kinds, chosen = [LineKind.NO_DOUBLE, LineKind.DOUBLE_TAKE], [None, None]
    else:
        dice, found = _candidates(state, before, engine, dice, plays, candidates)
        chosen = list(found)
        starts = tuple(Start(_passed(before, p.after)) for p in found)
        kinds = [LineKind.PLAY] * len(chosen)
        starts = tuple(replace(s, before=state.position) for s in starts)
    method, note = Method.BGCLI, ""
    if own:
        method, note = own_method(state, engine, settings)
    plan = Plan(starts, decider, side, settings, engine.name, level, getattr(engine, "timeout", 60.0), method, threads)
    trials, partial = _run(plan, engine, blocks, progress, kinds, chosen)
    done = sum(_count(plan, t) for t in trials)
    if not trials:
        return Rollout(state, dice, engine.name, level, settings, 0, partial=True, method=str(method),
                       method_note=note)
    lines = _lines(plan, trials, kinds, chosen)
    action = None
    if dice is None:
        lines.append(Line(LineKind.DOUBLE_PASS, Figure(1.0), {}, None if side.is_money else
                          Figure(met.equity_after(side, side.cube)), None))
        nd, dt = lines[0], lines[1]
        action = proper_action_of(CubeTurn.of(state), nd.equity.mean, dt.equity.mean, 1.0,
                                  gammons=nd.probabilities["win_gammon"].mean > 0)
    else:
        lines.sort(key=lambda line: -line.equity.mean)
    return Rollout(state, dice, engine.name, level, settings, done, tuple(lines), action, partial=partial,
                   method=str(method), method_note=note)


def own_method(state: "GameState", engine: "Engine", settings: RolloutSettings = RolloutSettings()) -> tuple[Method, str]:
    """Whose loop plays a rollout of ``state`` by ``engine`` when the engine's own is wanted: sage's
    where it plays the settings (0-ply, the standard gammons; money, or cubeful match play by its own
    table), else bgcli's, with why."""
    if engine.name != "sage":
        return Method.BGCLI, ""
    from bgcli.engines.sage_rollout import problem

    why = problem(state, engine.level.ply, settings.cubeful, getattr(engine, "met", None))
    return (Method.BGCLI, why + ": bgcli's loop") if why else (Method.SAGE, "")


def _candidates(state: "GameState", before: "GameState", engine: "Engine", dice: tuple[int, int],
                plays: Sequence["Play"], candidates: int) -> tuple[tuple[int, int], list["Play"]]:
    """The dice, high first, and the plays to roll out: ``plays`` (each must be legal), else the
    engine's best ``candidates``."""
    high, low = max(dice), min(dice)
    legal = legal_plays(state.position, (high, low))
    if not legal:
        raise BgcliError(f"no legal play of {high}{low} in {state.position.id()}: nothing to roll out")
    if plays:
        return (high, low), [_legal(legal, p.result.id(), "bgcli", state, (high, low)) for p in plays]
    ranked = engine.evaluate_plays(_rolled(before, (high, low)), (high, low), legal)
    return (high, low), [_legal(legal, r.play.result.id(), engine.name, state, (high, low))
                         for r in ranked[:max(1, candidates)]]


def blocks_of(plan: Plan, size: int = ROUND) -> Iterator[tuple[Plan, tuple[int, int]]]:
    """The tasks of ``plan`` in blocks of ``size`` trials by index, for :func:`run_block`, in order."""
    total = plan.settings.trials
    for start in range(0, total, max(1, size)):
        yield plan, (start, min(start + size, total))


def _run(plan: Plan, engine: "Engine", blocks: "Blocks | None", progress: Progress | None,
         kinds, chosen) -> tuple[list, bool]:
    """The trials (sage's rounds) of ``plan`` in order, until ``trials`` or the stop rule; with Ctrl-C
    those finished (the second value True)."""
    most = plan.settings.trials
    done: list = []
    shown: list[Line] = []

    count = [0]

    def arrived(found: Sequence) -> bool:
        """Trials (or sage's rounds) arrived in order; True when the rollout is over."""
        for figures in found:
            done.append(figures)
            count[0] += _count(plan, figures)
            end = count[0] % ROUND == 0 or count[0] == most
            if end and progress is not None:
                shown[:] = _lines(plan, done, kinds, chosen)
            if progress is not None:
                progress(count[0], most, shown)
            if end and (_settled(plan, done) or count[0] >= most):
                return True
        return False

    try:
        if blocks is None and plan.method is Method.SAGE:
            for first in range(0, most, ROUND):
                if arrived(run_rounds(plan, first, min(first + ROUND, most))):
                    break
        elif blocks is None:
            trial = _Trial(plan, engine)
            for index in range(most):
                figures = tuple(tuple(map(tuple, trial.play(s, index))) for s in plan.starts)
                if arrived([figures]):   # type: ignore[list-item]
                    break
        else:
            found_blocks = blocks(plan)
            try:
                for found in found_blocks:
                    if arrived(found):
                        break
            finally:
                close = getattr(found_blocks, "close", None)
                if close is not None:
                    close()
    except KeyboardInterrupt:
        return done, True
    return done, False


# --- an engine's own rollout ------------------------------------------------------------------


def has_own_rollout(engine: "Engine", dice: tuple[int, int] | None, state: "GameState | None" = None) -> bool:
    """Whether ``engine`` rolls out this question itself: gnubg's ``rollout``, for candidate plays and for
    cube decisions, money or match (its figures of a doubled cube are per unit of that cube: bgcli turns
    them back to the decision's, through the match equity table in a match)."""
    return engine.name == "gnubg"


def engine_rollout(state: "GameState", engine: "Engine", dice: tuple[int, int] | None = None, *,
                   plays: Sequence["Play"] = (), candidates: int = 3, settings: RolloutSettings = RolloutSettings(),
                   threads: int = 0) -> Rollout:
    """The candidate plays of ``dice``, or the cube decision, rolled out by the engine's own rollout (see
    :func:`has_own_rollout`), in the shape of :func:`rollout`'s answer (``method`` names the engine).
    gnubg rolls out a position with its player on roll before rolling, under the same settings, its own
    dice and seed (the same figures from run to run with the same seed, not bgcli's loop's), and leaves
    out that player's first cube decision: its figure is their no double. So, cubeful, bgcli has it roll
    out the doubled cube too (taken: the taker owns it) and decides that first cube action itself from
    the two figures, as its own trials do: after each play the opponent's, for a cube decision the
    player's. gnubg's figures are per unit of the cube rolled out (in a match, EMG at that cube): each
    is turned to the decision's cube (money: by the cubes' ratio; a match: through its match winning
    chance by the engine's match equity table, which gnubg is given). ``threads`` is gnubg's (0: one a
    core)."""
    from bgcli.engines import gnubg_rollout

    why = settings.problem()
    if why:
        raise BgcliError(why)
    if dice is None and state.match.dice[0]:
        dice = (state.match.dice[0], state.match.dice[1])
    if not has_own_rollout(engine, dice, state):
        raise BgcliError(f"the {engine.name} engine has no rollout of its own for this: use bgcli's")
    before = _on_roll(state)
    table = getattr(engine, "met", None)
    side = met.MatchSide.of(state, table=table)
    commands = gnubg_rollout.commands(settings.trials, settings.seed, settings.cubeful, settings.truncate,
                                      settings.variance_reduction, engine.level.ply, settings.until_se, threads)
    program = getattr(engine, "program", None)
    if dice is None:
        turn = CubeTurn.of(state)
        refusal = may_double(turn)
        if refusal is not None:
            return Rollout(state, None, engine.name, engine.level.ply, settings, 0, refusal=refusal, method=engine.name)
        doubled = _doubled(before, turned(state.match.cube))
        nd, dt = gnubg_rollout.rollout_states([before, doubled], commands, program=program, table=table)
        no_double = _gnubg_line(nd, before, settings, side, False)
        double_take = _gnubg_line(dt, doubled, settings, side, False)
        lines = [replace(no_double, kind=LineKind.NO_DOUBLE), replace(double_take, kind=LineKind.DOUBLE_TAKE),
                 Line(LineKind.DOUBLE_PASS, Figure(1.0), {}, None if side.is_money else
                      Figure(met.equity_after(side, side.cube)))]
        action = proper_action_of(turn, no_double.equity.mean, double_take.equity.mean, 1.0,
                                  gammons=no_double.probabilities["win_gammon"].mean > 0)
        return Rollout(state, None, engine.name, engine.level.ply, settings, min(nd.games, dt.games), tuple(lines),
                       action, method=engine.name)
    dice, chosen = _candidates(state, before, engine, dice, plays, candidates)
    afters = [_passed(before, p.after) for p in chosen]
    # the opponent's first cube decision, where they may double: the doubled cube rolled out too
    doubles = [settings.cubeful and may_double(CubeTurn.of(a)) is None for a in afters]
    doubled_afters = [_doubled(a, turned(a.match.cube)) for a, d in zip(afters, doubles) if d]
    found = gnubg_rollout.rollout_states(afters + doubled_afters, commands, program=program, table=table)
    taken_rollouts = iter(zip(found[len(afters):], doubled_afters))
    lines = []
    for play, after, figures, can in zip(chosen, afters, found, doubles):
        line = _gnubg_line(figures, after, settings, side, True)
        if can:
            # the opponent's no double and double/take (theirs: the mover's turned), their proper action
            doubled_figures, doubled_after = next(taken_rollouts)
            taken = _gnubg_line(doubled_figures, doubled_after, settings, side, True)
            theirs = proper_action_of(CubeTurn.of(after), -line.equity.mean, -taken.equity.mean, 1.0,
                                      gammons=line.probabilities["lose_gammon"].mean > 0)
            if theirs.doubles and theirs.answer is Answer.PASS:
                line = replace(line, equity=Figure(-1.0), mwc=None if side.is_money else
                               Figure(met.equity_after(side, -side.cube)))
            elif theirs.doubles:   # taken, or beavered (money): the cube at four times, twice the take's figures
                times = 2 if theirs.answer is Answer.BEAVER else 1
                line = replace(taken, equity=Figure(taken.equity.mean * times, taken.equity.se * times))
        lines.append(replace(line, play=play))
    lines.sort(key=lambda line: -line.equity.mean)
    trials = min(f.games for f in found)
    return Rollout(state, dice, engine.name, engine.level.ply, settings, trials, tuple(lines), method=engine.name)


def _gnubg_line(figures, rolled: "GameState", settings: RolloutSettings, side: met.MatchSide, theirs: bool) -> Line:
    """A line of gnubg's rollout figures of ``rolled`` (for its player on roll, per unit of its cube; in a
    match EMG at that cube; ``theirs``: that player is the decider's opponent, turned to the decider's),
    its equity per unit of the decision's cube (``side``, the decider's): money by the ratio of the cubes,
    a match through the match winning chance."""
    probs = Probabilities(*figures.probabilities)
    errors = figures.probability_errors
    if theirs:
        probs = probs.flipped()
        errors = (errors[0], errors[3], errors[4], errors[1], errors[2])
    value, error = (figures.cubeful, figures.cubeful_error) if settings.cubeful else \
        (figures.cubeless, figures.cubeless_error)
    chance = None
    if side.is_money:
        times = rolled.match.cube / side.cube
        equity = Figure((-value if theirs else value) * times, error * times)
    else:
        roller = met.MatchSide.of(rolled, table=side.table)   # the match of its player on roll, at its cube
        rolled_win, rolled_lose = met.win_lose(roller)
        win, lose = met.win_lose(side)
        mine = met.mwc(value, roller)
        mine = 1.0 - mine if theirs else mine
        chance = Figure(mine, error * (rolled_win - rolled_lose) / 2.0)
        equity = Figure(met.emg(mine, side), error * (rolled_win - rolled_lose) / (win - lose))
    probabilities = dict(zip(_PROBABILITY_NAMES, (Figure(m, e) for m, e in zip(
        (probs.win, probs.win_gammon, probs.win_backgammon, probs.lose_gammon, probs.lose_backgammon), errors))))
    return Line(LineKind.PLAY, equity, probabilities, chance, None)


__all__ = ["Blocks", "Figure", "blocks_of", "combine", "engine_rollout", "has_own_rollout", "Line", "LineKind", "Method",
           "own_method", "pairs_stratified", "Plan", "ROUND", "Rollout", "RolloutSettings", "RoundFigures", "Start", "line_figures",
           "rollout", "run_block", "run_rounds", "run_trials", "trial_dice"]
