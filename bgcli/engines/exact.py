"""The ``exact`` backend: bgcli's own figures where they are exact, with no network and nothing to install.

It judges a bear-off with no contact (every checker of both sides in its
home board or off) in which both sides have borne off a checker, so that no
gammon is possible: the chance of winning is the chance of bearing off first,
from the one-sided tables of :mod:`bgcli.analysis.bearoff` (each side
playing to need the fewest rolls on average, as GNU Backgammon's one-sided
database assumes). The figures are cubeless: the equity of a money game is
``2 * win - 1`` and a match's is the normalised equity of the cubeless match
winning chance. Any other position, and a cube decision, is refused with an
EngineError that says why: ask ``sage`` or ``gnubg``.

The level is accepted and ignored: the answer is the same at every depth.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from bgcli.analysis import bearoff
from bgcli.core.position import OFF, Position
from bgcli.engines import met, trust
from bgcli.engines.protocol import CubeDecision, Evaluation, Level, PlayEvaluation, Probabilities
from bgcli.errors import EngineError

if TYPE_CHECKING:
    from bgcli.core.generator import Play
    from bgcli.core.state import GameState


def problem(position: Position) -> str:
    """Why the exact engine cannot judge ``position``, or ''."""
    homes = [bearoff.home_counts(side) for side in (position.player, position.opponent)]
    if None in homes:
        return "it judges only bear-offs with no contact (every checker home or off)"
    if position.player[OFF] == 0 or position.opponent[OFF] == 0:
        return "it judges only bear-offs in which both sides have borne off a checker (no gammon possible)"
    return ""


class ExactEngine:
    """Exact cubeless figures of bear-offs without contact or gammons."""

    name = "exact"

    def __init__(self, level: Level = Level(2), *, timeout: float = 60.0):
        self.level = level
        self.timeout = timeout

    def _win(self, on_roll: Sequence[int], opponent: Sequence[int]) -> float:
        table = bearoff.table()
        mine, theirs = (table.dist(bearoff.home_counts(side) or ()) if side[OFF] < 15 else ()
                        for side in (on_roll, opponent))
        return bearoff.race_win(mine, theirs)

    def _checked(self, state: "GameState", position: Position, dice=None) -> None:
        why = problem(position)
        if why:
            raise EngineError(f"the exact engine cannot judge {trust.where(state, dice)}: {why}")

    def _evaluation(self, state: "GameState", win: float, dice=None) -> Evaluation:
        probs = Probabilities(win, 0.0, 0.0, 0.0, 0.0)
        side = met.MatchSide.of(state)
        if side.is_money:
            return trust.evaluation(probs.to_dict().values(), probs.money_equity(), None, self.name, state, dice)
        chance = met.cubeless_mwc(probs, side)
        return trust.evaluation(list(probs.to_dict().values()), met.emg(chance, side), chance, self.name, state, dice)

    def evaluate(self, state: "GameState") -> Evaluation:
        position = state.position
        self._checked(state, position)
        return self._evaluation(state, self._win(position.player, position.opponent))

    def evaluate_plays(self, state: "GameState", dice: tuple[int, int], plays: Sequence["Play"], *,
                       force: Sequence["Play"] = ()) -> list[PlayEvaluation]:
        self._checked(state, state.position, dice)
        found = {}
        for play in plays:
            after = play.result  # still seen by the mover, whose opponent rolls next
            win = 1.0 if after.player[OFF] == 15 else 1.0 - self._win(after.opponent, after.player)
            found[trust.result_key(play)] = self._evaluation(state, win, dice)
        return trust.ranked(found, plays, self.name, state, dice, dict.fromkeys(found, self.level.ply))

    def cube_decision(self, state: "GameState") -> CubeDecision:
        raise EngineError(f"the exact engine cannot judge the cube in {trust.where(state)}: "
                          "its figures are cubeless (ask sage or gnubg)")

    def close(self) -> None:
        pass
