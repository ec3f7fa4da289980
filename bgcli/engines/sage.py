"""The ``sage`` backend: bgsage, the Open Sage engine (MPL-2.0, its weights in its wheel), in bgcli's process.

Installed with the extra: ``pip install 'bgcli[engine]'``. What this module
takes care of, measured on bgsage itself:

- Its board is 26 numbers from the side of the player it is asked about,
  like bgcli's ``board26`` except that the opponent's bar, index 0, is a
  *positive* count.
- Its levels use eXtreme Gammon's numbering: bgcli's (GNU Backgammon's)
  ``n``-ply is its ``n + 1``-ply.
- Building its networks reads a score of weight files (about 40 ms), and
  its one-position cube call does that on every call; so one engine holds
  its strategies and uses only the batch calls, which take them as they are.
- Its own cubeful checker play evaluates every legal play at full depth. We
  rank every play at the raw network (cubeful by Janowski's formula, which
  is cheap), then evaluate at full depth only the few that can be best, as
  GNU Backgammon's move filters do, and any play asked for by name
  (``force``); a play whose raw value would sit above the deep values is
  deepened too, so the best play is always a full-depth value.
- "No legal play" is its unchanged board; bgcli lists the legal plays
  itself and checks the engine's list against its own.
- Where the figures are known exactly (a bear-off of 1 to 6 checkers a side
  without contact, in match play of a size quick to work out:
  :func:`bgcli.engines.exact.inside`), the plays, the
  position and the cube are answered from bgcli's two-sided tables, cubeful,
  at every level, and the networks are not asked.
"""
from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Sequence

from bgcli.core.position import BAR, CHECKERS, OFF, Position
from bgcli.engines import exact, met, trust
from bgcli.engines.met import engine_problem
from bgcli.engines.workers import Workers
from bgcli.engines.protocol import CubeDecision, Evaluation, Level, PlayEvaluation, Probabilities
from bgcli.errors import EngineError, EngineUnavailableError, Extra, install_command

if TYPE_CHECKING:
    from bgcli.core.generator import Play
    from bgcli.engines.met_tables import MatchEquityTable
    from bgcli.core.state import GameState

MAX_PLY = 3  # its 4-ply
# the plays evaluated at full depth: the best 5 within 0.08 of the best at the raw network (bgsage's own
# filter); gnubg's first stage, 8 within 0.16, picked gnubg's best play as often (91.3% against 91.0% of
# 300 positions, benchmarks/bench_engine.py) at about 1.4 times the time
FILTER_MOVES = 5
FILTER_THRESHOLD = 0.08


def board(position: Position) -> list[int]:
    """bgsage's board of ``position``, seen by the side whose checkers are ``position.player``."""
    out = position.board26()
    out[0] = position.opponent[BAR]
    return out


class SageEngine:
    """bgsage at one level. Keep one per process: it holds the networks."""

    name = "sage"

    def __init__(self, level: Level = Level(2), *, timeout: float = 60.0, threads: int = 0,
                 met: "MatchEquityTable | None" = None):
        if not 0 <= level.ply <= MAX_PLY:
            raise ValueError(f"the sage engine has levels 0 to {MAX_PLY} (gnubg's numbering), not {level.ply}")
        problem = engine_problem(self.name, met)
        if problem:
            raise ValueError(problem)
        self.met = met   # its own table's figures: the one it computes with
        try:
            import bgbot_cpp
            from bgsage.weights import bearoff_db_path, default_weights
        except ImportError:
            raise EngineUnavailableError(f"the sage engine needs bgsage: {install_command(Extra.ENGINE)}") from None
        self.level = level
        self.timeout = timeout  # in-process: a call cannot be cut short, so one that ran past it fails when it returns
        self._cpp = bgbot_cpp
        self._threads = threads
        self._local = threading.local()
        self._workers = Workers(self._one_thread_here)
        weights = default_weights()
        args = (weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list)
        raw = bgbot_cpp.create_strategy(*args)
        deep = bgbot_cpp.create_multipy(*args, n_plies=level.ply + 1, parallel_evaluate=False, parallel_threads=0)
        path = bearoff_db_path()
        if path:
            database = bgbot_cpp.BearoffDB()
            if database.load(path):
                # exact probabilities in its own one-sided bear-off, at every depth
                raw = bgbot_cpp.BearoffStrategy(raw, database)
                bgbot_cpp.multipy_set_bearoff_db(deep, database)
        self._raw = raw
        self._deep = deep if level.ply else raw

    def workers(self):
        """Threads that may ask this engine at once (bgcli.engines.workers): its calls let go of the
        interpreter, and each worker's calls evaluate in that thread alone, keeping bgsage's cache of
        evaluations, which it keeps one a thread, from call to call."""
        return self._workers.pool()

    def _one_thread_here(self) -> None:
        self._local.threads = 1

    def _batch_threads(self) -> int:
        return getattr(self._local, "threads", self._threads)

    # --- what the engine is told ------------------------------------------

    def _owner(self, state: "GameState", player: int) -> Any:
        owners = self._cpp.CubeOwner
        owner = state.match.cube_owner
        if owner < 0:
            return owners.CENTERED
        return owners.PLAYER if owner == player else owners.OPPONENT

    def _flags(self, state: "GameState") -> dict:
        rules = state.match.rules
        return {"jacoby": rules.in_force("jacoby"), "beaver": rules.in_force("beavers")}

    def _pre_roll(self, state: "GameState") -> tuple:
        side = met.MatchSide.of(state, table=self.met)
        owner = self._owner(state, state.match.on_roll)
        item: tuple = (board(state.position), state.match.cube, owner)
        if not side.is_money:
            item += (side.away, side.opponent_away, side.crawford)
        return item

    # --- the protocol --------------------------------------------------------

    def evaluate(self, state: "GameState") -> Evaluation:
        if exact.inside(state):
            return exact.table_evaluation(state, self.name, self.met)
        found = self._positions([state], self._deep)[0]
        side = met.MatchSide.of(state, table=self.met)
        equity = found["cubeful_equity"]
        return trust.evaluation(nested(found["probs"]), equity, None if side.is_money else met.mwc(float(equity), side),
                                self.name, state, table=self.met)

    def cube_decision(self, state: "GameState") -> CubeDecision:
        if exact.inside(state):
            return exact.table_cube_decision(state, self.name, self.met)
        # the cube lines as gnubg gives them: the double-take line is the take's equity, not a beaver's (sage's
        # beaver flag doubles a taker's negative equity); whether to beaver is core.cube's word from it
        found = self._positions([state], self._deep, beaver=False)[0]
        side = met.MatchSide.of(state, table=self.met)
        values = (found["equity_nd"], found["equity_dt"], found["equity_dp"])
        mwcs: tuple = (None, None, None)
        if not side.is_money:
            mwcs = tuple(met.mwc(float(v), side) for v in values)
        return trust.cube_decision(nested(found["probs"]), *values, self.name, state, mwcs)

    def _call(self, where: str, call: Callable, *args, **kwargs) -> Any:
        """One call into the compiled engine: its own errors and a call that ran
        past the time limit become EngineError naming the position."""
        began = time.monotonic()
        try:
            answer = call(*args, **kwargs)
        except Exception as exc:  # the compiled engine's own errors
            raise EngineError(f"{self.name} failed on {where}: {exc}") from None
        took = time.monotonic() - began
        if took > self.timeout:
            raise EngineError(f"{self.name} took {took:.1f} s on {where}, past the time limit of {self.timeout:g} s")
        return answer

    def _positions(self, states: Sequence["GameState"], strategy, beaver: bool = True) -> list[dict]:
        flags = self._flags(states[0])
        flags["beaver"] = flags["beaver"] and beaver
        found = self._call(trust.where(states[0]), self._cpp.batch_evaluate_positions,
                           [self._pre_roll(s) for s in states], strategy, self._batch_threads(), **flags)
        if len(found) != len(states):
            raise EngineError(f"{self.name} gave {len(found)} answers for {len(states)} positions at {trust.where(states[0])}")
        return found

    def evaluate_plays(self, state: "GameState", dice: tuple[int, int], plays: Sequence["Play"], *,
                       force: Sequence["Play"] = ()) -> list[PlayEvaluation]:
        """Each of ``plays`` evaluated, best first: all at the raw network, and at this
        engine's level the few that can be best and every play of ``force``."""
        if not plays:
            self._check_plays(state, dice, [])
            return []
        if exact.inside(state):
            return exact.table_plays(state, dice, plays, self.level.ply, self.name, self.met)
        play_keys = [trust.result_key(p) for p in plays]   # each play's name, computed once
        results = {key: p.result for key, p in zip(play_keys, plays)}
        self._check_plays(state, dice, list(results.values()))
        finished = {key: r for key, r in results.items() if r.player[OFF] == CHECKERS}
        keys = list(results)
        found: dict[str, Evaluation] = {}
        raw = self._post(state, dice, [results[k] for k in keys], self._raw) if self.level.ply else {}
        if raw:
            deep = candidates({k: raw[k].equity for k in keys})
            deep += [trust.result_key(p) for p in force if trust.result_key(p) in results and trust.result_key(p) not in deep]
            found.update(raw)
        else:
            deep = keys
        done: set[str] = set()
        while True:
            todo = [k for k in deep if k not in done and k not in finished]
            if todo:
                found.update(self._post(state, dice, [results[k] for k in todo], self._deep, todo))
            done.update(deep)
            for key in finished:
                found[key] = final_evaluation(state, results[key], self.met)
            top = max(found, key=lambda k: found[k].equity)
            if top in done:
                break
            deep = [top]  # a raw value above every deep one: deepen it
        plies = {key: self.level.ply if key in done or key in finished else 0 for key in keys}
        return trust.ranked(found, plays, self.name, state, dice, plies, play_keys)

    def best_plays(self, state: "GameState", rolls: Sequence[tuple[int, int]]) -> list[tuple[str, Evaluation] | None]:
        """For each roll, the best play of the player on roll of ``state`` (its result's Position ID and its
        evaluation) as :meth:`evaluate_plays` ranks it; at the raw network every roll's plays in one call.
        None where the roll has no legal play, and for every roll at a deeper level (ask roll by roll)."""
        from bgcli.core.generator import legal_plays

        if self.level.ply:
            return [None] * len(rolls)
        if exact.inside(state):
            return [self._table_best(state, roll) for roll in rolls]
        per_roll = []
        for roll in rolls:
            plays = legal_plays(state.position, roll)
            boards = [tuple(board(p.result)) for p in plays]   # each play's board, made once: checked and asked
            self._check_plays(state, roll, [p.result for p in plays], boards)
            per_roll.append((plays, boards))
        todo = list(dict.fromkeys(b for plays, boards in per_roll for p, b in zip(plays, boards)
                                  if p.result.player[OFF] != CHECKERS))
        answers = dict(zip(todo, self._raw_answers(state, rolls[0], todo))) if todo else {}
        out: list[tuple[str, Evaluation] | None] = []
        cubeless = state.match.rules.cubeless
        for plays, boards in per_roll:
            # every equity is checked (it chooses the play); the whole answer is made into an evaluation,
            # and checked, for the play chosen alone: the same figures as evaluate_plays gives it
            best: tuple["Play", dict | None, float] | None = None
            for play, key in zip(plays, boards):
                found = answers.get(key)
                if found is None:
                    equity = final_evaluation(state, play.result, self.met).equity
                elif cubeless:   # the rules have no cube: the play chosen by the equity every ranking asks
                    equity = self._evaluation(state, rolls[0], found).equity
                else:
                    equity = trust.number(found.get("cubeful_equity"), "an equity", self.name, state, rolls[0])
                if best is None or equity > best[2]:   # the first of equal plays, as the ranking keeps bgcli's order
                    best = (play, found, equity)
            if best is None:
                out.append(None)
                continue
            play, found, _ = best
            value = (final_evaluation(state, play.result, self.met) if found is None
                     else self._evaluation(state, rolls[0], found))
            out.append((trust.result_key(play), value))
        return out

    def _table_best(self, state: "GameState", roll: tuple[int, int]) -> tuple[str, Evaluation] | None:
        """The best play of ``roll`` as :meth:`evaluate_plays` ranks it inside the two-sided tables."""
        from bgcli.core.generator import legal_plays

        plays = legal_plays(state.position, roll)
        if not plays:
            return None
        best = exact.table_plays(state, roll, plays, self.level.ply, self.name, self.met)[0]
        return trust.result_key(best.play), best.evaluation

    def _post(self, state, dice, results: list[Position], strategy, keys=None) -> dict[str, Evaluation]:
        keys = keys or [r.id() for r in results]
        found = self._answers(state, dice, [board(r) for r in results], strategy)
        return {key: self._evaluation(state, dice, answer) for key, answer in zip(keys, found)}

    def _raw_answers(self, state, dice, boards: Sequence[Sequence[int]]) -> list[dict]:
        return self._answers(state, dice, boards, self._raw)

    def _answers(self, state, dice, boards: Sequence[Sequence[int]], strategy) -> list[dict]:
        """The engine's answers for the positions after plays (each its board), as they come."""
        side = met.MatchSide.of(state, table=self.met)
        item: tuple = (self._owner(state, state.match.on_roll),)
        if not side.is_money:
            item += (state.match.cube, side.away, side.opponent_away, side.crawford)
        flags = self._flags(state)
        found = self._call(trust.where(state, dice), self._cpp.batch_evaluate_post_move,
                           [(list(b),) + item for b in boards], strategy, self._batch_threads(), jacoby=flags["jacoby"])
        if len(found) != len(boards):
            raise EngineError(f"{self.name} gave {len(found)} answers for {len(boards)} plays in {trust.where(state, dice)}")
        return found

    def _evaluation(self, state, dice, answer: dict) -> Evaluation:
        side = met.MatchSide.of(state, table=self.met)
        equity = trust.number(answer.get("cubeful_equity"), "an equity", self.name, state, dice)
        mwc = None if side.is_money else met.mwc(equity, side)
        return trust.evaluation(nested(answer.get("probs")), equity, mwc, self.name, state, dice, self.met)

    def _check_plays(self, state: "GameState", dice, results: Sequence[Position],
                     boards: Sequence[tuple] | None = None) -> None:
        """The engine's own list of legal results must be bgcli's (``results``; ``boards``, their boards, if known)."""
        start = board(state.position)
        listed = [list(b) for b in self._call(trust.where(state, dice), self._cpp.possible_moves, start, dice[0], dice[1])]
        listed = [b for b in listed if b != start]  # "no legal play" comes back as the unchanged board
        mine = set(boards) if boards is not None else {tuple(board(r)) for r in results}
        if len(listed) == len(results) and {tuple(b) for b in listed} == mine:
            return   # the same boards: no need to name them
        theirs = []
        for numbers in listed:
            numbers = list(numbers)
            numbers[0] = -numbers[0]  # back to bgcli's board26, where the opponent's bar is negative
            try:
                theirs.append(Position.from_board26(numbers).id())
            except ValueError:
                theirs.append(f"the impossible board {numbers}")
        trust.same_plays([r.id() for r in results], theirs, self.name, state, dice)

    def close(self) -> None:
        self._workers.close()
        self._raw = self._deep = None


def candidates(raw: dict[str, float], moves: int | None = None, threshold: float | None = None) -> list[str]:
    """The plays the move filter takes to full depth, best first: of ``raw`` (each play's equity at the raw
    network), the best ``moves`` (FILTER_MOVES) within ``threshold`` (FILTER_THRESHOLD) of the best; of plays
    with equal values, the first listed. The module's settings are read at each call (the benchmarks set them)."""
    moves = FILTER_MOVES if moves is None else moves
    threshold = FILTER_THRESHOLD if threshold is None else threshold
    order = sorted(raw, key=lambda k: -raw[k])
    if not order:
        return []
    best = raw[order[0]]
    return [k for k in order[:max(1, moves)] if best - raw[k] <= threshold]


def nested(values):
    """The network's five outputs with a gammon never above its win and a backgammon never above its gammon,
    as bgsage's own Probabilities puts them (the networks are trained apart and can disagree by a hair);
    numbers outside 0 to 1, or not numbers, are left for the checks to refuse."""
    try:
        win, gammon, backgammon, lost_gammon, lost_backgammon = (float(v) for v in values)
    except (TypeError, ValueError):
        return values
    if not all(0.0 <= v <= 1.0 for v in (win, gammon, backgammon, lost_gammon, lost_backgammon)):
        return values
    gammon = min(gammon, win)
    lost_gammon = min(lost_gammon, 1.0 - win)
    return [win, gammon, min(backgammon, gammon), lost_gammon, min(lost_backgammon, lost_gammon)]


def final_evaluation(state: "GameState", result: Position, table: "MatchEquityTable | None" = None) -> Evaluation:
    """A play that bears off the last checker: the game is won, its value known exactly, as the
    rules count it (bgcli.core.value: Jacoby, how a backgammon counts, home gammons, the variant, the cap at
    the points needed), as the rollout's final figures are."""
    from bgcli.core.value import game_kind, game_value

    rules = state.match.rules
    kind = game_kind(result, True, rules.home_gammons, rules.variation)
    probs = Probabilities(1.0, float(kind >= 2), float(kind >= 3), 0.0, 0.0)
    side = met.MatchSide.of(state, table=table)
    centred = state.match.centred
    if side.is_money:
        return Evaluation(probs, float(game_value(kind, 1, rules, centred)))
    chance = met.equity_after(side, game_value(kind, side.cube, rules, centred, side.away))
    return Evaluation(probs, met.emg(chance, side), chance)

