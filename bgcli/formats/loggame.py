"""One game of a log read line by line (GamesGrid's .sgg, TrueMoneyGames's .tmg), as its lines come.

Both logs write a roll and its play apart, and end a game with a result line; what a roll still
waiting for its play means when the result comes is decided here, once for both.
"""
from __future__ import annotations

from bgcli.match.records import Action, ActionKind, GameRecord


class LogGame:
    """A game's actions so far, the roll waiting for its play, and whether a result ended it."""

    def __init__(self, number: int, line: int, scores: tuple[int, int]):
        self.number = number
        self.line = line
        self.scores = scores
        self.actions: list[Action] = []
        self.roll: tuple[int, tuple[int, int], int] | None = None   # a roll waiting for its play: side, dice, line
        self.over = False

    def end(self, result: Action) -> None:
        """The game's result. A roll still waiting for its play was rolled, then the game ended
        before a play: a roll and a resignation, as the .mat readers read ``51: ????``."""
        if self.roll is not None:
            side, dice, line = self.roll
            self.actions.append(Action(line, 1, None, side, ActionKind.ROLL, dice))
            self.roll = None
        self.actions.append(result)
        self.over = True

    def record(self, players: tuple[str, str]) -> GameRecord:
        return GameRecord(self.number, players, self.scores, tuple(self.actions), self.line)


__all__ = ["LogGame"]
