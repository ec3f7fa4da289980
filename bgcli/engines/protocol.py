"""The engine protocol: what bgcli asks an engine, and what it gets back, in bgcli's own terms.

An engine *evaluates*; it never decides legality. bgcli lists the legal plays
(:func:`bgcli.core.generator.legal_plays`) and asks the engine to evaluate exactly
those; a play the engine knows that bgcli does not, or the reverse, is an
:class:`~bgcli.errors.EngineError`, never trusted.

Conventions, the same for every backend:

- Probabilities are cumulative, as GNU Backgammon gives them: ``win_gammon``
  includes backgammons, ``win`` includes gammons; ``lose = 1 - win``.
- Every figure is from the side of one player, said where it is used: for a
  play, the player who moved (after the play, before the opponent rolls); for a
  position or a cube decision, the player on roll, before rolling.
- ``equity`` is normalised as gnubg normalises it: in a money game the equity
  per unit of the cube now in play (cubeful where the backend gives it); in
  match play EMG, the match winning chance mapped linearly so that winning a
  single game at the current cube is +1 and losing one is -1. ``mwc`` is the
  match winning chance itself (0 to 1), or None in a money game.
- Levels are numbered as GNU Backgammon numbers them: 0-ply is the raw
  network. eXtreme Gammon counts one more (gnubg's 2-ply is XG's 3-ply).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, Sequence

if TYPE_CHECKING:
    from bgcli.core.generator import Play
    from bgcli.engines.met_tables import MatchEquityTable
    from bgcli.core.state import GameState


@dataclass(frozen=True)
class Level:
    """How deep an engine looks, in GNU Backgammon's numbering (0 = the raw network)."""

    ply: int = 2

    def name(self) -> str:
        return f"{self.ply}-ply"

    def xg_name(self) -> str:
        return f"{self.ply + 1}-ply"


@dataclass(frozen=True)
class Probabilities:
    """Cumulative outcome probabilities for one player (see the module's conventions)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def lose(self) -> float:
        return 1.0 - self.win

    def money_equity(self, worth: Sequence[int]) -> float:
        """Cubeless money equity, a single win, a gammon and a backgammon counting ``worth`` (what
        the game's rules say: ``core.value.cubeless_worth``; 1, 2, 3 in the standard game)."""
        single, gammon, backgammon = worth
        return (single * (self.win - self.win_gammon - self.lose + self.lose_gammon)
                + gammon * (self.win_gammon - self.win_backgammon - self.lose_gammon + self.lose_backgammon)
                + backgammon * (self.win_backgammon - self.lose_backgammon))

    def flipped(self) -> "Probabilities":
        """The same outcomes seen by the other player."""
        return Probabilities(1.0 - self.win, self.lose_gammon, self.lose_backgammon, self.win_gammon, self.win_backgammon)

    def problem(self) -> str:
        """Why these cannot be probabilities of a game, or ''."""
        values = (self.win, self.win_gammon, self.win_backgammon, self.lose_gammon, self.lose_backgammon)
        if not all(isinstance(v, float) and 0.0 <= v <= 1.0 for v in values):
            return f"probabilities {values} are not all numbers from 0 to 1"
        eps = 1e-6
        if self.win_backgammon > self.win_gammon + eps or self.win_gammon > self.win + eps:
            return f"probabilities {values}: a backgammon above a gammon or a gammon above a win"
        if self.lose_backgammon > self.lose_gammon + eps or self.lose_gammon > self.lose + eps:
            return f"probabilities {values}: a lost backgammon above a lost gammon or a lost gammon above a loss"
        return ""

    def to_dict(self) -> dict[str, float]:
        return {"win": self.win, "win_gammon": self.win_gammon, "win_backgammon": self.win_backgammon,
                "lose_gammon": self.lose_gammon, "lose_backgammon": self.lose_backgammon}


@dataclass(frozen=True)
class Evaluation:
    """A position's worth for one player: the probabilities, the normalised equity and the match winning chance."""

    probabilities: Probabilities
    equity: float
    mwc: float | None = None


@dataclass(frozen=True)
class PlayEvaluation:
    """One legal play and its worth for the player who made it, after the play;
    ``ply`` is the level it was evaluated at (a move filter leaves the plays
    that cannot be best at a lower level), None when the backend does not say."""

    play: "Play"
    evaluation: Evaluation
    ply: int | None = None


@dataclass(frozen=True)
class CubeDecision:
    """A cube turn, for the player who may double: the cubeless probabilities and
    the cubeful equity after each action (normalised, and as match winning chances in match play).
    The proper action they make is the cube module's (:func:`bgcli.core.cube.proper_action_of`)."""

    probabilities: Probabilities
    no_double: float
    double_take: float
    double_pass: float
    no_double_mwc: float | None = None
    double_take_mwc: float | None = None
    double_pass_mwc: float | None = None


class Engine(Protocol):
    """What every backend answers. Positions, plays and the match state are bgcli's own."""

    name: str
    level: Level
    met: "MatchEquityTable | None"   # the match equity table it judges match play with (None: the default)

    def evaluate(self, state: "GameState") -> Evaluation:
        """The position before the player on roll rolls (cubeful where the backend can)."""
        ...

    def evaluate_plays(self, state: "GameState", dice: tuple[int, int], plays: Sequence["Play"], *,
                       force: Sequence["Play"] = ()) -> list[PlayEvaluation]:
        """Each of ``plays`` (bgcli's legal plays of ``state`` with ``dice``) evaluated, best first:
        as gnubg lists them, the plays evaluated at the deepest level first, by
        equity, then the others (a shallow value is not compared with a deep one).

        A backend may evaluate at its full level only the plays that can be
        best (a move filter, as gnubg's); the plays of ``force`` (the play
        made, when judging one) are always evaluated at the full level."""
        ...

    def cube_decision(self, state: "GameState") -> CubeDecision:
        """The cube turn of the player on roll of ``state``, before rolling."""
        ...

    def close(self) -> None:
        """Release what the engine holds (a subprocess, loaded weights)."""
        ...
