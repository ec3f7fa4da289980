"""What a replay reports: events, problems, the start and result of games and matches.

Plain frozen records, below the replay that makes them (:mod:`bgcli.match.replay`)
and the visitors that take them (:mod:`bgcli.match.visitor`).
"""
from __future__ import annotations

from dataclasses import dataclass

from bgcli.core.kinds import UNFINISHED, Worded
from bgcli.core.generator import Play
from bgcli.core.position import Position
from bgcli.core.rules import Rules
from bgcli.core.value import Outcome
from bgcli.core.state import GameState
from bgcli.errors import BgcliError
from bgcli.match.records import Action, SetUp


class EventKind(str, Worded):
    """What an event of the replay is."""

    MOVE = "move"        # a roll and its play (no steps: no play)
    ROLL = "roll"        # a roll with no play recorded, then a resignation (XG's 63: ????, gnubg's and FIBS's 63:)
    DOUBLE = "double"
    BEAVER = "beaver"
    TAKE = "take"
    DROP = "drop"
    WIN = "win"
    RESIGN = "resign"
    RACCOON = "raccoon"
    DRAW = "draw"


# What a ROLL event is, in words (the replay's text, the view's rows)
ROLLED_THEN_RESIGNED = "(rolled, then resigned)"


class ProblemKind(str, Worded):
    """The kinds of problem an audit reports."""

    PLAY = "play"              # an illegal or unreadable play
    DICE = "dice"              # a roll that cannot be, or does not fit the play
    DANCE = "dance"            # no play recorded although one was legal
    TURN = "turn"              # a player acting out of turn
    CUBE = "cube"              # a double, take or beaver the rules forbid, a wrong cube value
    POINTS = "points"          # a result that does not fit the game
    SCORE = "score"            # a score line that does not fit the games before
    MATCH = "match"            # play after the game or the match ended
    UNCHECKED = "unchecked"    # the rest of a game cannot be checked
    SYNTAX = "syntax"          # a line that cannot be read
    INCOMPLETE = "incomplete"  # a game with no result, a match that stops before its end
    SET_UP = "set-up"          # the board, the cube or the turn set by hand in the middle of a game


class Severity(str, Worded):
    """How much a problem says against the record."""

    ERROR = "error"        # the record breaks a rule or contradicts itself
    WARNING = "warning"    # the record is only incomplete, or uses a habit that cannot be checked


# Kinds that only ever say a record is incomplete, or edited by hand (what it says of the game is true
# but not all of it was played): warnings whoever reports them
WARNING_KINDS = frozenset({ProblemKind.INCOMPLETE, ProblemKind.UNCHECKED, ProblemKind.SET_UP})


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a transcript, with where it is."""

    line: int
    game: int
    move: int
    player: str
    kind: ProblemKind
    message: str
    match: int = 1
    severity: Severity = Severity.ERROR

    def __post_init__(self) -> None:
        if self.kind in WARNING_KINDS:
            object.__setattr__(self, "severity", Severity.WARNING)

    def to_dict(self) -> dict:
        return {"line": self.line, "match": self.match, "game": self.game, "move": self.move,
                "player": self.player, "kind": self.kind.value, "severity": self.severity.value,
                "message": self.message}

    def order(self) -> tuple[int, bool]:
        """The order problems are listed in: by line, a line that could not be
        read before what follows from it."""
        return (self.line, self.kind != ProblemKind.SYNTAX)


@dataclass(frozen=True)
class Event:
    """One action of a transcript with the state before it."""

    match: int
    game: int
    line: int
    move: int
    side: int            # 0 = the file's left column (gnubg's player 0), 1 = the right column
    player: str
    kind: EventKind
    dice: tuple[int, int] | None
    play: str            # canonical text of a legal play, the recorded text otherwise; '' for no play
    before: GameState    # position from the side of the player on roll, and the match state
    after: Position | None = None   # the position after a move, from the mover's side
    points: int | None = None       # a result's points as recorded
    cube: int | None = None         # a double's or beaver's value as recorded
    record: Action | None = None    # the recorded action
    legal: Play | None = None       # the legal play a move was read as; None if it is illegal
    # a roll that is its game's opening roll: the first of a game from the opening (GameStart.from_opening,
    # the replay's word, which its check "the opening roll is a double" asks too); a board set up to the
    # opening's is a position, whose first roll may be anything and may follow a cube turn
    opening: bool = False

    def to_dict(self) -> dict:
        data = {"match": self.match, "game": self.game, "line": self.line, "player": self.player,
                "action": self.kind.value}
        if self.kind in (EventKind.MOVE, EventKind.ROLL):
            data["dice"] = list(self.dice) if self.dice else None
        if self.kind == EventKind.MOVE:
            data["play"] = self.play
        if self.cube is not None:
            data["cube"] = self.cube
        if self.points is not None:
            data["points"] = self.points
        data["position_id"] = self.before.position.id()
        data["match_id"] = self.match_id()
        return data

    def match_id(self) -> str | None:
        """The Match ID of the state before the action, or None when a broken
        transcript left a state that a Match ID cannot hold (a game played
        after the match was won, at a score past the length)."""
        from bgcli.core.ids import match_id   # here: only an event written out names it (start-up of an audit)

        try:
            return match_id(self.before.match)
        except BgcliError:
            return None


@dataclass(frozen=True)
class GameStart:
    """What is known when a game starts."""

    match: int
    number: int
    line: int
    score: tuple[int, int]   # before the game, left column first
    crawford: bool
    set_up: SetUp | None = None   # the position the game starts from when set up; None: the opening

    @property
    def from_opening(self) -> bool:
        """Whether the game starts from the opening, its first roll the opening roll (never a double,
        White first or automatic doubles where the rules say so, no cube turn before it): not a board set
        up, even one set up to the opening's (a trial of gnubg's rollout log is a position rolled out)."""
        return self.set_up is None


@dataclass(frozen=True)
class GameResult:
    game: int
    line: int
    winner: str
    winner_side: int
    result: Outcome
    cube: int
    points: int              # what the game is worth (the replay goes on with this)
    crawford: bool
    score: tuple[int, int]   # running score after the game, left column first
    written_points: int | None = None   # the points recorded, when a 'Wins' line gave them

    def to_dict(self) -> dict:
        return {"game": self.game, "winner": self.winner if self.winner_side >= 0 else None,
                "result": self.result.value, "cube": self.cube, "points": self.points, "crawford": self.crawford,
                "score": list(self.score)}


@dataclass(frozen=True)
class Unfinished:
    """A game with no result (score lists it)."""

    game: int
    line: int
    cube: int
    crawford: bool
    score: tuple[int, int]

    def to_dict(self) -> dict:
        return {"game": self.game, "winner": None, "result": UNFINISHED, "cube": self.cube, "points": 0,
                "crawford": self.crawford, "score": list(self.score)}


@dataclass(frozen=True)
class MatchStart:
    """What is known when a match starts."""

    number: int
    length: int
    players: tuple[str, str]
    rules: Rules
    tags: dict[str, str]
    path: str
