"""Judging one position, as ``bgcli hint`` does: the plays ranked best first, or the cube decision.

bgcli lists the legal plays; the engine only evaluates them (see
:mod:`bgcli.engines.protocol`). The figures are the engine's, checked by
:mod:`bgcli.engines.trust`; the ranking, the differences and the question
"is this a cube turn" are bgcli's.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bgcli.engines import met
from bgcli.engines.protocol import CubeDecision, PlayEvaluation
from bgcli.errors import BgcliError

if TYPE_CHECKING:
    from bgcli.core.state import GameState
    from bgcli.engines.protocol import Engine


@dataclass(frozen=True)
class Hint:
    """An engine's judgement of a position: ranked plays (with dice) or a cube decision (without)."""

    state: "GameState"
    dice: tuple[int, int] | None
    engine: str
    level: int
    plays: tuple[PlayEvaluation, ...] = ()
    cube: CubeDecision | None = None

    def to_dict(self, style: str = "gnubg") -> dict:
        from bgcli.core.notation import play_text

        out: dict = {"position_id": self.state.position.id(), "dice": list(self.dice) if self.dice else None,
                     "engine": self.engine, "level": self.level}
        if self.cube is not None:
            c = self.cube
            out["cube"] = {"no_double": c.no_double, "double_take": c.double_take, "double_pass": c.double_pass,
                           "action": c.action.value}
            return out
        best = self.plays[0].evaluation.equity if self.plays else 0.0
        side = self.state.match.on_roll
        out["plays"] = [{"play": play_text(p.play, style, side=side), "position_id": p.play.result_id(),
                         "equity": p.evaluation.equity, "diff": p.evaluation.equity - best,
                         "probabilities": p.evaluation.probabilities.to_dict()} for p in self.plays]
        return out


def cube_problem(state: "GameState") -> str:
    """Why the player on roll of ``state`` has no cube decision, or ''."""
    match = state.match
    side = met.MatchSide.of(state)
    if match.cube_owner not in (-1, match.on_roll):
        return "the opponent owns the cube"
    if side.crawford:
        return "this is the Crawford game: no cube"
    if match.rules.cube_limit and match.cube * 2 > match.rules.cube_limit:
        return f"the cube is at its limit ({match.cube})"
    if not side.is_money and match.cube >= side.away:
        return f"the cube ({match.cube}) already covers the {side.away} point(s) the player needs"
    return ""


def hint(state: "GameState", dice: tuple[int, int] | None, engine: "Engine") -> Hint:
    """The plays of ``dice`` in ``state`` ranked by ``engine``, or, without dice, its cube decision.

    Dice may also come from the state (an XGID or Match ID with a roll).
    Without them, a state where the player on roll cannot double is an error
    that says why."""
    from bgcli.core.generator import legal_plays

    if dice is None and state.match.dice[0]:
        dice = (state.match.dice[0], state.match.dice[1])
    level = engine.level.ply
    if dice is None:
        problem = cube_problem(state)
        if problem:
            raise BgcliError(f"no cube decision in {state.position.id()}: {problem}; give DICE for the plays")
        before = replace(state, match=replace(state.match, dice=(0, 0)))
        return Hint(state, None, engine.name, level, cube=engine.cube_decision(before))
    high, low = max(dice), min(dice)
    plays = legal_plays(state.position, (high, low))
    rolled = replace(state, match=replace(state.match, dice=(high, low)))
    ranked = engine.evaluate_plays(rolled, (high, low), plays) if plays else []
    return Hint(state, (high, low), engine.name, level, plays=tuple(ranked))
