"""A second opinion: every decision of a match judged by two engines at once, and where they disagree.

:class:`BothRaters` shows one replay to two :class:`~bgcli.judging.rating.Rater` s (the
first engine's and the second's), so both judge exactly the same decisions, in
the same order. :func:`disagreements` pairs them and keeps those the engines
disagree on: a different best play, or a different proper cube action, where
the error each engine gives the action played differs by more than a margin
(a disagreement on the best play that changes nobody's error is not one the
rating feels).

Each disagreement carries the state it was decided in, and :func:`rolled_out`
lets a rollout decide it (bgcli.judging.rollout, over the engine protocol): the
two best plays rolled out against each other, or the cube decision rolled out;
the verdict is the rollout's best play or proper cube action, and ``settled``
says whether the rollout separates the two answers (their difference outside
the 95% interval of the trials made) or only leans.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from math import sqrt
from typing import TYPE_CHECKING, Any

from bgcli.core.position import ALL_THROWS
from bgcli.judging.rating import Decision, MatchRating, Rater
from bgcli.match.visitor import MatchVisitor

if TYPE_CHECKING:
    from bgcli.core.state import GameState
    from bgcli.engines.protocol import Engine
    from bgcli.match.events import Event, GameResult, GameStart, MatchStart, Problem, Unfinished
    from bgcli.match.records import Action

MARGIN = 0.02   # normalised equity: below it, two engines' verdicts on a decision are the same verdict
# A verdict's rollout by default: one trial for each of the 36 first rolls (stratified), played to the end by the
# first engine at 0-ply. Short, so the report says when it does not separate the two answers.
VERDICT_TRIALS = ALL_THROWS


@dataclass(frozen=True)
class Disagreement:
    """One decision two engines judge differently: each one's best play or proper cube action and the error it
    gives the action played; ``state`` (and ``dice`` for a play) where it was decided, for a rollout."""

    first: Decision
    second: Decision
    state: "GameState | None" = None
    dice: tuple[int, int] | None = None
    verdict: str | None = None     # the rollout's best action, when one was rolled out
    settled: bool | None = None    # whether the rollout separates the two answers (None: not rolled out)
    rollout: dict | None = None    # the rolled-out figures: trials, and each answer's equity and standard error

    @property
    def gap(self) -> float:
        """How far apart the two errors of the action played are."""
        return abs((self.first.error or 0.0) - (self.second.error or 0.0))

    def to_dict(self) -> dict[str, Any]:
        first, second = self.first, self.second
        data: dict[str, Any] = {"game": first.game, "move": first.move, "line": first.line, "player": first.player,
                                "kind": first.kind.value, "played": first.played,
                                "first": _judged(first), "second": _judged(second), "gap": round(self.gap, 6),
                                "verdict": self.verdict, "settled": self.settled, "rollout": self.rollout}
        if self.state is not None:
            from bgcli.core.ids import xgid

            data["position"] = xgid(self.state)
        return data


def _judged(decision: Decision) -> dict[str, Any]:
    data: dict[str, Any] = {"best": decision.best, "error": None if decision.error is None else round(decision.error, 6)}
    if decision.action:
        data["action"] = decision.action
    return data


class BothRaters(MatchVisitor):
    """Shows one match's replay to two raters; ``end_match`` gives both ratings and the states of the
    decisions (by game and line), for the rollouts of the disagreements."""

    wants_events = True

    def __init__(self, first: Rater, second: Rater):
        self.raters = (first, second)
        # (game, line, side, "play" or "cube") -> the state (and dice) a decision was made in
        self.states: dict[tuple[int, int, int, str], tuple["GameState", tuple[int, int] | None]] = {}
        self._doubled: "GameState | None" = None

    def begin_match(self, match: "MatchStart") -> None:
        for rater in self.raters:
            rater.begin_match(match)

    def begin_game(self, game: "GameStart") -> None:
        for rater in self.raters:
            rater.begin_game(game)

    def event(self, event: "Event") -> None:
        from bgcli.match.events import EventKind

        state = event.before
        if event.kind == EventKind.MOVE and event.dice:
            self.states[(event.game, event.line, event.side, "play")] = (state, event.dice)
            self.states[(event.game, event.line, event.side, "cube")] = (state, None)
        elif event.kind == EventKind.DOUBLE:
            self._doubled = state
            self.states[(event.game, event.line, event.side, "cube")] = (state, None)
        elif event.kind in (EventKind.TAKE, EventKind.DROP, EventKind.BEAVER) and self._doubled is not None:
            # an answer is judged on the doubler's cube decision: the position before the double
            self.states[(event.game, event.line, event.side, "cube")] = (self._doubled, None)
        for rater in self.raters:
            rater.event(event)

    def problem(self, problem: "Problem") -> None:
        for rater in self.raters:
            rater.problem(problem)

    def note(self, action: "Action") -> None:
        for rater in self.raters:
            rater.note(action)

    def end_game(self, game: "GameStart", result: "GameResult | Unfinished") -> None:
        for rater in self.raters:
            rater.end_game(game, result)
        self._doubled = None

    def end_match(self) -> "tuple[MatchRating | None, MatchRating | None, dict]":
        first, second = (rater.end_match() for rater in self.raters)
        return first, second, self.states


def disagreements(first: MatchRating, second: MatchRating, margin: float = MARGIN,
                  states: dict | None = None) -> list[Disagreement]:
    """The decisions of one match that the two ratings judge differently (see the module's docstring). The
    two ratings are of the same replay (:class:`BothRaters`): their decisions pair one to one."""
    found = []
    if len(first.decisions) != len(second.decisions):
        raise ValueError(f"the two ratings of match {first.number} judged {len(first.decisions)} and "
                         f"{len(second.decisions)} decisions: not the same replay")
    for one, other in zip(first.decisions, second.decisions):
        if (one.game, one.line, one.kind) != (other.game, other.line, other.kind):
            raise ValueError(f"the two ratings of match {first.number} part at game {one.game} line {one.line}")
        if one.error is None or other.error is None:
            continue   # an illegal play: not judged
        differ = one.best != other.best or (one.is_cube and one.action != other.action)
        if not differ or abs(one.error - other.error) <= margin:
            continue
        state, dice = (states or {}).get((one.game, one.line, one.side, "cube" if one.is_cube else "play"), (None, None))
        found.append(Disagreement(one, other, state, dice))
    return found


@dataclass(frozen=True)
class SecondOpinion:
    """A match rated by two engines: both ratings and the decisions they disagree on."""

    first: MatchRating
    second: MatchRating
    disagreements: tuple[Disagreement, ...]


def second_opinion(engines: "tuple[Engine, Engine]", luck_engines: "tuple[Engine | None, Engine | None]", visit,
                   margin: float = MARGIN) -> list[SecondOpinion]:
    """Every match that ``visit(visitor_for)`` replays, rated by both engines (each with its luck engine), and
    their disagreements by more than ``margin``."""
    found = []
    for answer in visit(lambda number: BothRaters(Rater(engines[0], luck_engines[0]), Rater(engines[1], luck_engines[1]))):
        if answer is None:
            continue
        first, second, states = answer
        if first is None or second is None:
            continue
        found.append(SecondOpinion(first, second, tuple(disagreements(first, second, margin, states))))
    return found


def rolled_out(disagreement: Disagreement, engine: "Engine", trials: int = VERDICT_TRIALS, seed: int = 0,
               truncate: int = 0) -> Disagreement:
    """``disagreement`` with the verdict of a rollout of ``trials`` trials by ``engine`` (cubeful, to the end, luck
    adjusted, dice from ``seed``; ``truncate`` half-moves then the engine's evaluation, 0: to the end): for a play, the two engines' best plays rolled out against each other; for a
    cube decision, no double and double/take from the same trials. Unchanged where there is no state to roll out or
    a best play is not among the roll's legal plays."""
    from bgcli.core.generator import legal_plays
    from bgcli.core.notation import play_text
    from bgcli.judging.rollout import Z95, RolloutSettings, rollout

    state, dice = disagreement.state, disagreement.dice
    if state is None:
        return disagreement
    settings = RolloutSettings(trials=trials, seed=seed, truncate=truncate)
    if not disagreement.first.is_cube:
        if dice is None:
            return disagreement
        roll = (max(dice), min(dice))
        by_text = {play_text(p): p for p in legal_plays(state.position, roll)}
        texts = (disagreement.first.best, disagreement.second.best)
        if any(t not in by_text for t in texts):
            return disagreement
        found = rollout(state, engine, roll, plays=tuple(by_text[t] for t in texts), settings=settings)
        top, other = found.lines[0], found.lines[1]
        settled = top.equity.mean - other.equity.mean > Z95 * sqrt(top.equity.se ** 2 + other.equity.se ** 2)
        figures = [{"answer": play_text(line.play) if line.play is not None else str(line.kind),
                    "equity": round(line.equity.mean, 6), "se": round(line.equity.se, 6)} for line in found.lines]
        verdict = play_text(top.play) if top.play is not None else str(top.kind)
    else:
        found = rollout(replace(state, match=replace(state.match, dice=(0, 0))), engine, settings=settings)
        if found.action is None or len(found.lines) < 2:
            return disagreement
        no_double, take = found.lines[0].equity, found.lines[1].equity
        doubled = min(take.mean, 1.0)
        apart = abs(no_double.mean - doubled) > Z95 * sqrt(no_double.se ** 2 + (take.se ** 2 if take.mean < 1.0 else 0.0))
        settled = apart and abs(take.mean - 1.0) > Z95 * take.se
        figures = [{"answer": str(line.kind), "equity": round(line.equity.mean, 6), "se": round(line.equity.se, 6)}
                   for line in found.lines]
        verdict = str(found.action)
    return replace(disagreement, verdict=verdict, settled=bool(settled),
                   rollout={"engine": found.engine, "level": found.level, "trials": found.trials, "seed": seed, "truncate": truncate,
                            "answers": figures})


__all__ = ["MARGIN", "VERDICT_TRIALS", "BothRaters", "Disagreement", "SecondOpinion", "disagreements", "rolled_out",
           "second_opinion"]
