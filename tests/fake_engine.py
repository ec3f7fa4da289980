"""A fake engine for the rating tests: it answers the engine protocol from a
formula of the pip counts, so every figure of a rating can be worked out by
hand, and it counts its calls. Not a backgammon engine: its equities only
need to be consistent (the equity after a play is minus the opponent's
before their roll)."""
from __future__ import annotations

from dataclasses import replace

from bgcli.core.position import Position
from bgcli.core.state import GameState
from bgcli.engines.protocol import CubeDecision, Evaluation, Level, PlayEvaluation, Probabilities


def equity_of(position: Position) -> float:
    """The fake's equity of the player on roll of ``position``, before rolling."""
    mine, theirs = position.pips()
    return max(-0.95, min(0.95, (theirs - mine + 8) / 60.0))


def mwc_of(equity: float) -> float:
    """The fake's match winning chance of a normalised equity (affine, as gnubg's EMG is)."""
    return 0.5 + 0.3 * equity


def evaluation(equity: float, match_play: bool) -> Evaluation:
    win = (equity + 1.0) / 2.0
    return Evaluation(Probabilities(win, 0.0, 0.0, 0.0, 0.0), equity, mwc_of(equity) if match_play else None)


class FakeEngine:
    """Answers the protocol from :func:`equity_of`. ``cube_bias`` shifts the
    double/take equity, to make doubles right or wrong."""

    name = "fake"
    met = None   # the match equity table: the default (the rating's match results use it)

    def __init__(self, level: int = 2, cube_bias: float = 0.0):
        self.level = Level(level)
        self.cube_bias = cube_bias
        self.calls = {"evaluate": 0, "evaluate_plays": 0, "cube_decision": 0}
        self.closed = False

    def evaluate(self, state: GameState) -> Evaluation:
        self.calls["evaluate"] += 1
        return evaluation(equity_of(state.position), bool(state.match.match_length))

    def play_equity(self, state: GameState, result: Position) -> float:
        if result.is_over():
            return 1.0
        return -equity_of(result.swap())

    def evaluate_plays(self, state: GameState, dice, plays) -> list[PlayEvaluation]:
        self.calls["evaluate_plays"] += 1
        match_play = bool(state.match.match_length)
        found = [PlayEvaluation(p, evaluation(self.play_equity(state, p.result), match_play)) for p in plays]
        return sorted(found, key=lambda p: -p.evaluation.equity)

    def cube_decision(self, state: GameState) -> CubeDecision:
        self.calls["cube_decision"] += 1
        nd, dt, dp = self.cube_values(state)
        match_play = bool(state.match.match_length)
        mwcs = (mwc_of(nd), mwc_of(dt), mwc_of(dp)) if match_play else (None, None, None)
        win = (nd + 1.0) / 2.0
        return CubeDecision(Probabilities(win, 0.0, 0.0, 0.0, 0.0), nd, dt, dp, *mwcs)

    def cube_values(self, state: GameState) -> tuple[float, float, float]:
        nd = equity_of(state.position)
        return nd, 2.0 * nd - 0.3 + self.cube_bias, 1.0

    def close(self) -> None:
        self.closed = True


class FixedCube(FakeEngine):
    """The same three cube figures (no double, double/take, double/pass) everywhere, no gammons (the
    fake's probabilities have none)."""

    def __init__(self, figures: tuple[float, float, float]):
        super().__init__()
        self.figures = figures

    def cube_values(self, state: GameState) -> tuple[float, float, float]:
        return self.figures


def before_roll(state: GameState) -> GameState:
    return replace(state, match=replace(state.match, dice=(0, 0)))


def fake_gnubg(folder, answer: str) -> str:
    """A program that stands in for GNU Backgammon as bgcli's gnubg backend
    starts it (``PROGRAM -t -q -r -p driver.py``): it reads each request line
    and runs ``answer`` (Python, with ``out``, the answers' pipe as a binary
    file, and ``request``, the request's text) instead of asking gnubg, so a
    test can make the engine answer anything. Returns the program's path."""
    import sys
    from pathlib import Path

    path = Path(folder) / "fake-gnubg"
    path.write_text(f"#!{sys.executable}\n"
                    "import os, sys\n"
                    "out = os.fdopen(int(os.environ['BGCLI_ANSWER_FD']), 'wb')\n"
                    "for request in sys.stdin:\n"
                    + "".join(f"    {line}\n" for line in answer.splitlines())
                    + "    out.flush()\n")
    path.chmod(0o755)
    return str(path)


class RollByRoll:
    """An engine as one without the batched ``best_plays``: the rating then asks
    roll by roll, the reference the batched luck call is compared with."""

    def __init__(self, engine):
        self.name, self.level, self._engine = engine.name, engine.level, engine

    def __getattr__(self, name):
        if name == "best_plays":
            raise AttributeError(name)
        return getattr(self._engine, name)
