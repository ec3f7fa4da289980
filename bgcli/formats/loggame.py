"""One game of a log read line by line (GamesGrid's .sgg, TrueMoneyGames's .tmg), as its lines come.

Both logs write a roll and its play apart, and end a game with a result line; what a roll still
waiting for its play means when the result comes is decided here, once for both. Both write each
automatic double of a money game (equal opening dice double the cube) on a line of its own, before
the opening roll: the record says so (GameRecord.autos_written), and the replay asks the rules
whether it was allowed (bgcli.core.cube.auto_double_refusal).
"""
from __future__ import annotations

from bgcli.core.rules import SETTING_OF_TAG
from bgcli.errors import MatchFileError
from bgcli.match.records import Action, ActionKind, GameRecord
from bgcli.output import quote

# The rule tag of a site that plays automatic doubles and writes no limit (GamesGrid's "Automatic
# Doubles: Yes", TrueMoneyGames's money play): as many as bgcli's setting allows, so that each one
# the file records is judged by the rules, and an export says the rule
AUTO_DOUBLES = SETTING_OF_TAG["autodoubles"]
SITE_AUTO_DOUBLES = str(AUTO_DOUBLES.high)


class LogGame:
    """A game's actions so far, the roll waiting for its play, and whether a result ended it."""

    def __init__(self, number: int, line: int, scores: tuple[int, int]):
        self.number = number
        self.line = line
        self.scores = scores
        self.actions: list[Action] = []
        self.roll: tuple[int, tuple[int, int], int] | None = None   # a roll waiting for its play: side, dice, line
        self.unread_roll = False   # the roll before a play did not read (said once, at its line)
        self.over = False

    def roll_played(self, text: str, path: str, number: int) -> tuple[int, tuple[int, int]] | MatchFileError | None:
        """The roll a play on line ``number`` answers (its side and dice), taken: None where the roll
        before it did not read (its error is at the roll's line), an error where no roll came before."""
        if self.roll is None:
            if self.unread_roll:
                self.unread_roll = False
                return None
            return MatchFileError(f"a play with no roll before it: {quote(text.strip())}", path, number, 1)
        side, dice, _ = self.roll
        self.roll = None
        return side, dice

    def end(self, result: Action) -> None:
        """The game's result. A roll still waiting for its play was rolled, then the game ended
        before a play: a roll and a resignation, as the .mat readers read ``51: ????``."""
        if self.roll is not None:
            side, dice, line = self.roll
            self.actions.append(Action(line, 1, None, side, ActionKind.ROLL, dice))
            self.roll = None
        self.actions.append(result)
        self.over = True

    def auto_double(self, line: int, raw: str, cube: int | None = None) -> None:
        """An automatic double written on line ``line`` (``cube``: the value it makes, where written).
        No player's action: it is given the first column."""
        self.actions.append(Action(line, 1, None, 0, ActionKind.AUTO_DOUBLE, cube=cube, raw=raw))

    def record(self, players: tuple[str, str]) -> GameRecord:
        return GameRecord(self.number, players, self.scores, tuple(self.actions), self.line, autos_written=True)


__all__ = ["AUTO_DOUBLES", "SITE_AUTO_DOUBLES", "LogGame"]
