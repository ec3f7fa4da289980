"""Judging one position, as ``bgcli hint`` does: the plays ranked best first, or the cube decision.

bgcli lists the legal plays; the engine only evaluates them (see
:mod:`bgcli.engines.protocol`). The figures are the engine's, checked by
:mod:`bgcli.engines.trust`; the ranking and the differences are bgcli's;
whether the player may double, and the proper cube action in GNU
Backgammon's words, are the cube module's (:mod:`bgcli.core.cube`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bgcli.core.cube import CubeAction, CubeTurn, Refusal, may_double, percent, proper_action_of
from bgcli.engines.protocol import CubeDecision, PlayEvaluation

if TYPE_CHECKING:
    from bgcli.core.state import GameState
    from bgcli.engines.protocol import Engine


@dataclass(frozen=True)
class Hint:
    """An engine's judgement of a position: ranked plays (with dice), or without
    dice the cube decision with its proper action, or why the player may not double."""

    state: "GameState"
    dice: tuple[int, int] | None
    engine: str
    level: int
    plays: tuple[PlayEvaluation, ...] = ()
    cube: CubeDecision | None = None
    action: CubeAction | None = None     # the proper cube action, with ``cube``
    refusal: Refusal | None = None       # without dice: why the player may not double

    @property
    def percent(self) -> float | None:
        """The figure gnubg prints after the proper action (a fraction), or None."""
        if self.cube is None or self.action is None:
            return None
        c = self.cube
        return percent(self.action, c.no_double, c.double_take, c.double_pass)

    def to_dict(self, style: str = "gnubg") -> dict:
        from bgcli.core.notation import play_text

        out: dict = {"position_id": self.state.position.id(), "dice": list(self.dice) if self.dice else None,
                     "engine": self.engine, "level": self.level}
        if self.refusal is not None:
            out["cube"] = {"may_double": False, "reason": self.refusal.reason.value, "why": str(self.refusal)}
            return out
        if self.cube is not None and self.action is not None:
            c = self.cube
            out["cube"] = {"no_double": c.no_double, "double_take": c.double_take, "double_pass": c.double_pass,
                           "action": str(self.action), "may_double": True, "double": self.action.doubles,
                           "answer": str(self.action.answer), "percent": self.percent}
            if c.no_double_mwc is not None:
                out["cube"].update(no_double_mwc=c.no_double_mwc, double_take_mwc=c.double_take_mwc,
                                   double_pass_mwc=c.double_pass_mwc)
            return out
        best = self.plays[0].evaluation.equity if self.plays else 0.0
        side = self.state.match.on_roll
        out["plays"] = [{"play": play_text(p.play, style, side=side), "position_id": p.play.result_id(),
                         "equity": p.evaluation.equity, "diff": p.evaluation.equity - best,
                         "probabilities": p.evaluation.probabilities.to_dict()} for p in self.plays]
        return out


def hint(state: "GameState", dice: tuple[int, int] | None, engine: "Engine") -> Hint:
    """The plays of ``dice`` in ``state`` ranked by ``engine``, or, without dice, its cube decision.

    Dice may also come from the state (an XGID or Match ID with a roll).
    Without them, where the player on roll may not double (the opponent owns
    the cube, the Crawford game, a dead cube, ...), the answer says why
    (``refusal``), with no engine call: GNU Backgammon's "You cannot double"."""
    from bgcli.core.generator import legal_plays

    if dice is None and state.match.dice[0]:
        dice = (state.match.dice[0], state.match.dice[1])
    level = engine.level.ply
    if dice is None:
        turn = CubeTurn.of(state)
        refusal = may_double(turn)
        if refusal is not None:
            return Hint(state, None, engine.name, level, refusal=refusal)
        before = replace(state, match=replace(state.match, dice=(0, 0)))
        decision = engine.cube_decision(before)
        action = proper_action_of(turn, decision.no_double, decision.double_take, decision.double_pass,
                                  gammons=decision.probabilities.win_gammon > 0)
        return Hint(state, None, engine.name, level, cube=decision, action=action)
    high, low = max(dice), min(dice)
    plays = legal_plays(state.position, (high, low))
    rolled = replace(state, match=replace(state.match, dice=(high, low)))
    ranked = engine.evaluate_plays(rolled, (high, low), plays) if plays else []
    return Hint(state, (high, low), engine.name, level, plays=tuple(ranked))
