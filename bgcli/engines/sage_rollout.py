"""sage's own rollout: bgsage's C++ ``RolloutStrategy`` (threaded, its own dice), one round of trials per call.

What bgcli asks of it, and why one round at a time:

- A round is up to 36 trials (:data:`bgcli.judging.rollout.ROUND`) played by sage from one seed,
  ``round_seed(seed, index)``. sage's dice for trial ``t`` of a call depend only on its seed and
  ``t`` (a hierarchy of permutations of the 36 rolls, as gnubg's quasi-random dice: within a round
  every half-move's roll is stratified over the 36 trials), and sage cannot start a call at a trial
  index other than 0 and gives only the means and standard errors of a call, never a trial's
  figures. So bgcli cuts a rollout into rounds by index: round ``r`` is always the same call, with
  the same seed, whoever runs it, and the rounds' figures are combined in round order
  (:func:`bgcli.judging.rollout.combine`). The same seed gives the same figures to the last digit,
  on one process or split into blocks of whole rounds (``--jobs``, ``--scheduler``). sage's answer
  does not depend on its thread count (checked in the tests).
- Its board is :func:`bgcli.engines.sage.board`; its levels are one more than bgcli's (bgcli's
  0-ply is its 1-ply): bgcli asks it at 0-ply only, where every play and cube decision of a trial is
  the raw network's, as bgcli's own loop over the sage engine plays them. Deeper, sage plays its
  later half-moves at its 1-ply whatever it is asked (its "ultra-late" moves), which is not the
  level asked: bgcli's loop plays those.
- Its figures: for a play, the mover's cubeless chances and cubeless and cubeful equities after
  the play (cubeful: the opponent's cube action first); for a cube decision, the no double and
  double/take cubeful equities of the player on roll and the cubeless chances, from the same trials.
  Equities are per unit of the cube at the decision; in a match, sage's normalised equity (as the
  sage engine's: +1 a single game won at the cube), which bgcli turns into the match winning chance
  its trials give by the same straight line (:meth:`SageRollout._in_chances`). Its match equity
  table is bgcli's default to the digit up to 25-away (see :func:`problem` for what it cannot play).
- Its variance reduction takes each roll's luck at its raw network, as bgcli's does, at every
  half-move but the first: in a round of 36 the first roll is each of the 36 once, so its luck sums
  to nothing over the round and sage skips it (the round's mean is as steady as with it; each
  trial's own figure keeps it, so the standard error reported is a little wider than the mean's
  real spread). The luck of every other half-move that sage skips in its "ultra-late" moves at
  deeper levels is not skipped here: the figures are the same to the digit with that threshold off
  (checked in the tests). Its standard error divides by ``n`` (not ``n - 1``): :func:`moments`
  turns it back into sums of squares.
- The settings bgcli asks for are the cheapest that keep the figures: one thread a core (a trial
  costs the same on any), sage's exact one-sided bear-off table loaded (exact where it applies, no
  slower), the luck and every choice at the raw network (its 1-ply, bgcli's 0-ply), cube actions in
  trials by Janowski's formula on one evaluation a half-move, and plays chosen by cubeful equity at
  the first two half-moves (sage's default, as gnubg's cubeful rollouts choose; about 3% of the
  time). What a trial costs is the luck: the best play of each of the 21 rolls at its network,
  whose 400 hidden units cost about three times gnubg's 128 an evaluation
  (``benchmarks/bench_rollout.py`` has the speed beside gnubg's).
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bgcli.engines import met
from bgcli.errors import EngineError, EngineUnavailableError, Extra, install_command

if TYPE_CHECKING:
    from bgcli.core.position import Position
    from bgcli.core.state import GameState
    from bgcli.engines.met import MatchEquityTable

SAGE_TABLE_AWAY = 25   # the scores bgsage's match equity table has (docs/met.md)


@dataclass(frozen=True)
class RoundSettings:
    """How sage plays a round: cubeful, truncation in half-moves (0: to the end), variance reduction."""

    cubeful: bool = True
    truncate: int = 0
    variance_reduction: bool = True


@dataclass(frozen=True)
class Moments:
    """A round's figure over ``count`` trials: the mean and the sum of squared deviations from it."""

    count: int
    mean: float
    squares: float


def moments(count: int, mean: float, se: float) -> Moments:
    """sage's mean and standard error of ``count`` trials as a mean and a sum of squares (sage's
    standard error is ``sqrt(squares) / count``)."""
    return Moments(count, float(mean), (float(se) * count) ** 2)


def round_seed(seed: int, index: int) -> int:
    """The 32-bit seed of round ``index`` of a rollout with ``seed``: the same on every machine."""
    digest = hashlib.sha256(f"bgcli sage rollout {seed} {index}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def problem(state: "GameState", level: int, cubeful: bool = True, table: "MatchEquityTable | None" = None) -> str:
    """Why sage's own rollout cannot play this rollout as asked, or '' (then bgcli's loop plays it).
    ``cubeful``: the rollout's (a cubeless rollout of match play has a figure per trial that sage does not
    give); ``table``: the match equity table the figures are asked in (sage knows its own only)."""
    rules = state.match.rules
    if level != 0:
        return f"sage's own rollout plays its later half-moves at 0-ply, not {level}-ply"
    if state.match.match_length:
        if not cubeful:
            return "sage's own rollout of match play is cubeful only"
        if not rules.crawford or rules.beavers:
            return "sage's own rollout of match play knows the Crawford rule and no beavers only"
        if not met.is_default(table):
            return f"sage's own rollout of match play uses its own {met.TABLE_NAME} table only"
        side = met.MatchSide.of(state)
        if max(side.away, side.opponent_away) > SAGE_TABLE_AWAY:
            # past it sage takes the table's last figures, bgcli its extension: the two would not agree
            return f"sage's own table stops at {SAGE_TABLE_AWAY}-away"
    if rules.backgammon_counts != 3 or rules.home_gammons:
        return "sage's own rollout counts gammons and backgammons the standard way only"
    if rules.cube_limit or rules.cubeless or rules.auto_doubles:
        return "sage's own rollout knows no cube limit, cubeless rules or automatic doubles"
    return ""


class SageRollout:
    """sage's rollout strategies (one per settings and round size), built once per process."""

    def __init__(self, threads: int = 0):
        try:
            import bgbot_cpp
            from bgsage.weights import bearoff_db_path, default_weights
        except ImportError:
            raise EngineUnavailableError(f"sage's rollout needs bgsage: {install_command(Extra.ENGINE)}") from None
        self._cpp = bgbot_cpp
        self._weights = default_weights()
        self.threads = threads
        self._database = None
        path = bearoff_db_path()
        if path:
            database = bgbot_cpp.BearoffDB()
            if database.load(path):
                self._database = database
        self._strategies: dict[tuple, Any] = {}

    def _strategy(self, trials: int, settings: RoundSettings) -> Any:
        key = (trials, settings)
        found = self._strategies.get(key)
        if found is None:
            w = self._weights
            found = self._cpp.create_rollout(
                w.strategy_type, w.weight_paths_list, w.hidden_sizes_list, n_trials=trials,
                truncation_depth=settings.truncate, decision_ply=1, n_threads=self.threads, seed=0,
                enable_vr=settings.variance_reduction, cubeful_trial_moves=settings.cubeful)
            if self._database is not None:
                self._cpp.rollout_set_bearoff_db(found, self._database)
            self._strategies[key] = found
        return found

    def _flags(self, state: "GameState") -> dict:
        rules = state.match.rules
        owner = state.match.cube_owner
        owners = self._cpp.CubeOwner
        me = state.match.on_roll
        side = met.MatchSide.of(state)
        money = side.is_money
        flags = {"cube_value": state.match.cube,
                 "owner": owners.CENTERED if owner < 0 else owners.PLAYER if owner == me else owners.OPPONENT,
                 "jacoby": bool(rules.in_force("jacoby")), "beaver": bool(rules.in_force("beavers"))}
        if not money:   # as the sage engine tells it a match: the scores away and whether this is the Crawford game
            flags.update(away1=side.away, away2=side.opponent_away, is_crawford=side.crawford)
        return flags

    @staticmethod
    def _in_chances(state: "GameState", value: Moments) -> Moments:
        """A value as bgcli's trials give it: money, as sage gives it; a match, sage's normalised equity
        (per the cube of ``state``, as the sage engine's) turned into the match winning chance of the
        player on roll of ``state``, the same straight line for every trial (so its spread scales too)."""
        side = met.MatchSide.of(state)
        if side.is_money:
            return value
        win, lose = met.win_lose(side)
        half = (win - lose) / 2.0
        return Moments(value.count, lose + (value.mean + 1.0) * half, value.squares * half * half)

    def _ask(self, what: str, call, *args, **kwargs) -> dict:
        try:
            found = call(*args, **kwargs)
        except Exception as exc:   # the compiled engine's own errors
            raise EngineError(f"sage's rollout failed on {what}: {exc}") from None
        if not isinstance(found, dict):
            raise EngineError(f"sage's rollout gave no figures for {what}")
        return found

    def play(self, before: "GameState", after: "Position", trials: int, seed: int,
             settings: RoundSettings) -> tuple[Moments, ...]:
        """A round of the position after a play (``before``: the mover on roll, ``after``: the
        result seen by the mover): the mover's [value, five cumulative chances] over ``trials``."""
        from bgcli.engines.sage import board

        strategy = self._strategy(trials, settings)
        strategy.set_seed(seed)
        what = f"{before.position.id()} after {after.id()}"
        post, pre = board(after), board(before.position)
        if settings.cubeful:
            found = self._ask(what, strategy.cubeful_evaluate_board, post, pre, **self._flags(before))
            value = self._in_chances(before, self._moment(trials, found.get("cubeful_equity"), found.get("cubeful_se"), what))
        else:
            found = self._ask(what, strategy.evaluate_board, post, pre)
            value = self._moment(trials, found.get("equity"), found.get("std_error"), what)
        return (value,) + self._chances(found, trials, what)

    def cube(self, state: "GameState", trials: int, seed: int,
             settings: RoundSettings) -> tuple[tuple[Moments, ...], tuple[Moments, ...]]:
        """A round of the cube decision of the player on roll of ``state``: the no double and
        double/take lines' [value, five cumulative chances] over ``trials``, on the same trials
        (cubeless: the position's cubeless rollout, its value at the cube and at twice it)."""
        from bgcli.engines.sage import board

        strategy = self._strategy(trials, settings)
        strategy.set_seed(seed)
        what = state.position.id()
        if not settings.cubeful:
            # the position rolled out as the opponent's, just moved (sage's cubeless rollout), turned round
            theirs = board(state.position.swap())
            found = self._ask(what, strategy.evaluate_board, theirs, theirs)
            value = self._moment(trials, found.get("equity"), found.get("std_error"), what)
            win, gammon, backgammon, lost_gammon, lost_backgammon = self._chances(found, trials, what)
            chances: tuple[Moments, ...] = (Moments(trials, 1.0 - win.mean, win.squares), lost_gammon, lost_backgammon, gammon, backgammon)
            nd = Moments(trials, -value.mean, value.squares)
            return (nd,) + chances, (Moments(trials, 2.0 * nd.mean, 4.0 * nd.squares),) + chances
        flags = self._flags(state)
        flags["checkers"] = board(state.position)
        found = self._ask(what, strategy.cube_decision, **flags)
        chances = self._chances(found, trials, what)
        nd = self._in_chances(state, self._moment(trials, found.get("equity_nd"), found.get("equity_nd_se"), what))
        dt = self._in_chances(state, self._moment(trials, found.get("equity_dt"), found.get("equity_dt_se"), what))
        return (nd,) + chances, (dt,) + chances

    def _moment(self, trials: int, mean: Any, se: Any, what: str) -> Moments:
        if not all(isinstance(v, float | int) and math.isfinite(v) for v in (mean, se)) or se < 0:
            raise EngineError(f"sage's rollout gave the figures {mean!r} ± {se!r} for {what}")
        return moments(trials, mean, se)

    def _chances(self, found: dict, trials: int, what: str) -> tuple[Moments, ...]:
        probs, errors = found.get("probs"), found.get("prob_std_errors")
        if not isinstance(probs, list | tuple) or not isinstance(errors, list | tuple) or len(probs) != 5 \
                or len(errors) != 5:
            raise EngineError(f"sage's rollout gave no chances for {what}")
        return tuple(self._moment(trials, p, e, what) for p, e in zip(probs, errors))


_ROLLOUTS: dict[int, SageRollout] = {}


def sage_rollout(threads: int = 0) -> SageRollout:
    """The process's :class:`SageRollout` with ``threads`` (0: one a core): its networks are read once."""
    found = _ROLLOUTS.get(threads)
    if found is None:
        found = _ROLLOUTS[threads] = SageRollout(threads)
    return found


__all__ = ["Moments", "RoundSettings", "SageRollout", "moments", "problem", "round_seed", "sage_rollout"]
