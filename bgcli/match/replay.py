"""Replaying match records: positions, cube, score, events, results, problems.

:func:`replay_match` walks one :class:`~bgcli.match.records.MatchRecord`
and reports to a :class:`MatchVisitor`, python-chess style: the start of the
match and of each game, every action with the state before it
(:class:`Event`, which keeps the recorded action and the legal play), every
problem (:class:`Problem`) and each game's result. :class:`ReplayBuilder`
collects them into a :class:`MatchReplay`; the audit collects only problems;
the writers of every format (``bgcli.formats.mat``, ``sgf``, ``jsondoc``) are
visitors too, so a match is replayed once however it is used.

One :class:`GameReplay` keeps the running state of a game and has one method
per action kind. Nothing stops at the first problem: after an illegal play
the replay goes on from the position that the recorded play produced (an
illegal move not called in time stands); when the play cannot be applied at
all, the rest of that game is reported as unchecked.

Conventions of real archives that are not problems:

- a roll with no play followed straight away by the end of the game is a
  resignation made after rolling (FIBS-era transcripts record it so), not a
  dance;
- a transcript may start in the middle of a match: the first game's recorded
  score is where the match stands; a later score line that disagrees with the
  running score is reported once, and the replay goes on from the recorded
  score, so one slip is one problem;
- Backgammon Galaxy writes a match-winning game as the points the winner
  still needed: accepted in Galaxy's files only (its site tag, or its
  ``Losses`` lines).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Callable, Iterable, Iterator

from bgcli.errors import (
    AmbiguousPlayError,
    BgcliError,
    IllegalPlayError,
    InvalidPlayError,
)
from bgcli.core.ids import match_id
from bgcli.match.records import (
    Action, ActionKind, GameRecord, MatchEnd, MatchHeader, MatchPart, MatchRecord, site_is,
)
from bgcli.core.model import (
    CHECKERS,
    OFF,
    Play,
    Position,
    die_for,
    legal_plays,
    play_from_steps,
    result_of_steps,
    roll_dice,
)
from bgcli.core.notation import apply_written, numbered_text, parse_play, parse_play_text, play_text
from bgcli.core.scoring import (
    OUTCOME_OF_KIND,
    Outcome,
    Rules,
    crawford_game,
    drop_points,
    game_kind,
    game_points,
    resignation_values,
    tag_problems,
)
from bgcli.core.state import GameState, MatchState

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


class EventKind(str, Enum):
    """What an event of the replay is."""

    MOVE = "move"        # a roll and its play (no steps: no play)
    ROLL = "roll"        # a roll with no decision recorded (XG: rolled, then resigned)
    DOUBLE = "double"
    BEAVER = "beaver"
    TAKE = "take"
    DROP = "drop"
    WIN = "win"
    RESIGN = "resign"
    RACCOON = "raccoon"
    DRAW = "draw"

    def __str__(self) -> str:
        return self.value


class ProblemKind(str, Enum):
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

    def __str__(self) -> str:
        return self.value


class Severity(str, Enum):
    """How much a problem says against the record."""

    ERROR = "error"        # the record breaks a rule or contradicts itself
    WARNING = "warning"    # the record is only incomplete, or uses a habit that cannot be checked

    def __str__(self) -> str:
        return self.value


# Kinds that only ever say a record is incomplete: warnings whoever reports them
WARNING_KINDS = frozenset({ProblemKind.INCOMPLETE, ProblemKind.UNCHECKED})


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

    def as_dict(self) -> dict:
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

    def as_dict(self) -> dict:
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

    def as_dict(self) -> dict:
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

    def as_dict(self) -> dict:
        return {"game": self.game, "winner": None, "result": "unfinished", "cube": self.cube, "points": 0,
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


class MatchVisitor:
    """What a replay reports, in order. Subclass and override what you need;
    ``wants_events`` False spares building the events (the audit's case)."""

    wants_events = True

    def begin_match(self, match: MatchStart) -> None:
        pass

    def begin_game(self, game: GameStart) -> None:
        pass

    def event(self, event: Event) -> None:
        pass

    def problem(self, problem: Problem) -> None:
        pass

    def note(self, action: Action) -> None:
        """A recorded action the replay has no rule for (Snowie's note on an
        illegal play, Galaxy's ``Losses``, a raccoon): nothing to replay."""

    def end_game(self, game: GameStart, result: GameResult | Unfinished) -> None:
        pass

    def end_match(self) -> object:
        return None


@dataclass
class MatchReplay:
    """Everything a replay of one match found."""

    number: int
    length: int
    players: tuple[str, str]
    rules: Rules
    events: list[Event] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    unfinished: list[Unfinished] = field(default_factory=list)
    keep_events: bool = True   # the audit needs only problems and results
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def score(self) -> tuple[int, int]:
        return self.results[-1].score if self.results else (0, 0)

    @property
    def winner(self) -> str | None:
        if self.length:
            for side in (0, 1):
                if self.score[side] >= self.length:
                    return self.players[side]
            return None
        if self.score[0] == self.score[1]:
            return None
        return self.players[0] if self.score[0] > self.score[1] else self.players[1]

    def games(self) -> list[GameResult | Unfinished]:
        """Finished and unfinished games in order."""
        return sorted([*self.results, *self.unfinished], key=lambda g: (g.line, g.game))

    def score_dict(self) -> dict:
        data = {"match_length": self.length, "players": list(self.players),
                "games": [g.as_dict() for g in self.games()], "score": list(self.score), "winner": self.winner}
        if self.rules.standalone_games:
            data["tally"] = self.tally()
        return data

    def tally(self) -> dict[str, dict[str, int]]:
        """Per player: games won, gammons, backgammons and draws (for rules
        where each game stands alone)."""
        out = {name: {"games": 0, "gammons": 0, "backgammons": 0, "draws": 0} for name in self.players}
        for result in self.results:
            if result.result == Outcome.DRAW:
                for name in self.players:
                    out[name]["draws"] += 1
                continue
            row = out[self.players[result.winner_side]]
            row["games"] += 1
            # a resignation counts by what it gave up: twice the cube a gammon, more a backgammon
            times = result.points // max(result.cube, 1)
            if result.result == Outcome.GAMMON or (result.result == Outcome.RESIGNATION and times == 2):
                row["gammons"] += 1
            elif result.result == Outcome.BACKGAMMON or (result.result == Outcome.RESIGNATION and times >= 3):
                row["backgammons"] += 1
        return out


class ReplayBuilder(MatchVisitor):
    """Collects a replay into a :class:`MatchReplay`."""

    def __init__(self, keep_events: bool = True):
        self.wants_events = keep_events
        self.replay: MatchReplay | None = None

    def begin_match(self, match: MatchStart) -> None:
        self.replay = MatchReplay(match.number, match.length, match.players, match.rules,
                                  keep_events=self.wants_events, tags=match.tags)

    def event(self, event: Event) -> None:
        assert self.replay is not None
        self.replay.events.append(event)

    def problem(self, problem: Problem) -> None:
        assert self.replay is not None
        self.replay.problems.append(problem)

    def end_game(self, game: GameStart, result: GameResult | Unfinished) -> None:
        assert self.replay is not None
        if isinstance(result, GameResult):
            self.replay.results.append(result)
        else:
            self.replay.unfinished.append(result)

    def end_match(self) -> MatchReplay:
        assert self.replay is not None
        self.replay.problems.sort(key=Problem.order)
        return self.replay


def replay_match(record: MatchRecord, number: int = 1, rules: Rules | None = None, keep_events: bool = True,
                 visitor: MatchVisitor | None = None):
    """Replay one match record; report to ``visitor`` and return what its
    ``end_match`` returns: by default a :class:`MatchReplay` (without
    ``keep_events`` only problems and results are kept, which is faster)."""
    visitor = visitor if visitor is not None else ReplayBuilder(keep_events)
    replayer = _MatchReplayer(record.header(), number, rules or Rules(), visitor)
    for game in record.games:
        replayer.game(game)
    return replayer.finish(MatchEnd(record.errors, record.comments))


def replay_parts(parts: Iterable[MatchPart], visitor_for: Callable[[int], MatchVisitor],
                 rules: Rules | None = None) -> Iterator[object]:
    """Replay a stream of match parts (``bgcli.formats.mat.iter_parts``) game by
    game, as they are read: each match reports to ``visitor_for(number)``,
    and what its ``end_match`` returns is yielded when the match ends."""
    replayer: _MatchReplayer | None = None
    number = 0
    for part in parts:
        if isinstance(part, MatchHeader):
            number += 1
            replayer = _MatchReplayer(part, number, rules or Rules(), visitor_for(number))
        elif replayer is None:
            continue
        elif isinstance(part, GameRecord):
            replayer.game(part)
        else:
            yield replayer.finish(part)
            replayer = None


class _MatchReplayer:
    """Walks the games of one match as they come, keeping the score and the
    Crawford game; holds nothing of a game once it is replayed."""

    def __init__(self, header: MatchHeader, number: int, rules: Rules, visitor: MatchVisitor):
        self.header = header
        self.number = number
        self.rules = replace(rules.with_tags(header.tags or {}), match_length=header.length)
        self.visitor = visitor
        self.players: tuple[str, str] = ("player 0", "player 1")
        self.begun = False
        # Galaxy's habit of writing the points still needed, in Galaxy's files
        # only: its site tag, or its "Losses" lines (seen as the games come)
        self.galaxy = site_is(header.tags or {}, "galaxy")
        self.white = 0   # White's column (the White-first rule): the left one unless a [White] tag names the right
        self.starts: list[tuple[int, int]] = []     # (line, number) of each game, for placing syntax problems
        self.score = [0, 0]
        self.crawford_done = False
        self.match_over_line: int | None = None

    def problem(self, line: int, game: int, move: int, player: str, kind: ProblemKind, message: str) -> None:
        self.visitor.problem(Problem(line, game, move, player, kind, message, self.number))

    def begin(self, players: tuple[str, str] | None) -> None:
        if self.begun:
            return
        self.begun = True
        if players:
            self.players = (players[0], players[1])
        white = next((str(v).strip() for k, v in (self.header.tags or {}).items() if k.lower() == "white"), None)
        if white is not None and white == self.players[1] and white != self.players[0]:
            self.white = 1
        header = self.header
        self.visitor.begin_match(MatchStart(self.number, header.length, self.players, self.rules,
                                            dict(header.tags or {}), header.path))
        for message in tag_problems(header.tags or {}):
            self.problem(header.line, 0, 0, "", ProblemKind.SYNTAX, message)

    def game(self, game_record: GameRecord) -> None:
        self.begin(game_record.players)
        rules, score = self.rules, self.score
        if not self.galaxy and any(a.kind == ActionKind.LOSS for a in game_record.actions):
            self.galaxy = True
        g = game_record.number
        first = not self.starts
        self.starts.append((game_record.line, g))
        recorded = tuple(game_record.scores) if game_record.scores is not None else None
        mid_match = False
        if first:
            # a transcript may start in the middle of a match
            if recorded is not None and (not rules.match_length or max(recorded) < rules.match_length):
                score[:] = recorded
            mid_match = g > 1 or score != [0, 0]
        else:
            if self.match_over_line is not None:
                self.problem(game_record.line, g, 0, "", ProblemKind.MATCH,
                             f"game {g} is played after the match ended at line {self.match_over_line}")
            if recorded is not None and recorded != tuple(score) and not rules.standalone_games:
                self.problem(game_record.line, g, 0, "", ProblemKind.SCORE,
                             f"game {g} starts at {recorded[0]}-{recorded[1]} but the games before give "
                             f"{score[0]}-{score[1]}")
                score[:] = recorded   # one slip is one problem: go on from the record
        crawford = crawford_game(rules, (score[0], score[1]), self.crawford_done)
        self.crawford_done = self.crawford_done or crawford
        game = GameReplay(self, game_record, (score[0], score[1]), crawford, crawford_unknown=mid_match and crawford)
        self.visitor.begin_game(game.start)
        for action in game_record.actions:
            game.apply(action)
        result = game.finish()
        self.visitor.end_game(game.start, result)
        if isinstance(result, GameResult) and result.winner_side >= 0:
            score[result.winner_side] += result.points
            if rules.match_length and score[result.winner_side] >= rules.match_length and self.match_over_line is None:
                self.match_over_line = game_record.line

    def finish(self, end: MatchEnd) -> object:
        self.begin(None)
        for error in end.errors:
            in_game = max((g for line, g in self.starts if line <= error.line), default=0)
            self.problem(error.line, in_game, 0, "", ProblemKind.SYNTAX, error.reason)
        return self.visitor.end_match()


_MAT_MOVE = re.compile(r"(\d{1,2})/(\d{1,2})\*?")


class GameReplay:
    """The running state of one game and one method per action kind."""

    def __init__(self, match: _MatchReplayer, record: GameRecord, score: tuple[int, int], crawford: bool,
                 crawford_unknown: bool = False):
        self.match = match
        self.record = record
        self.rules = match.rules
        self.start = GameStart(match.number, record.number, record.line, score, crawford)
        self.board = Position.start()   # from the side of player 0 (the left column)
        self.cube = 1
        self.owner = -1
        self.on_roll: int | None = None
        self.pending: tuple[int, int, int] | None = None  # (doubler, offered value, value before)
        self.crawford = crawford
        # a transcript that starts at match point does not say whether this
        # is the Crawford game: a double then says it is not
        self.crawford_unknown = crawford_unknown
        self.over = False
        self.unchecked = False
        self.moves = 0
        self.result: GameResult | None = None
        self.dropped: int | None = None
        self.last_line = record.line
        self.waiting_dance: Problem | None = None   # a dance problem, unless the game ends at once
        # Automatic doubles (money play) raise the cube before the opening
        # roll, which a .mat file does not record: until the cube is seen,
        # any of these starting values is possible.
        rules = self.rules
        self.start_cubes = [1 << k for k in range(rules.auto_doubles + 1)] if not rules.match_length else [1]
        self.cube_known = len(self.start_cubes) == 1
        self.wants_events = match.visitor.wants_events
        self.handlers: dict[ActionKind, Callable[[Action], None]] = {
            ActionKind.MOVE: self.move, ActionKind.DANCE: self.move, ActionKind.ROLL: self.roll,
            ActionKind.DOUBLE: self.double, ActionKind.BEAVER: self.beaver, ActionKind.TAKE: self.take,
            ActionKind.DROP: self.drop, ActionKind.WIN: self.win, ActionKind.RACCOON: self.raccoon,
            ActionKind.DRAW: self.draw,
        }
        self.beaver_by: int | None = None   # who beavered, while a raccoon may still follow

    # --- helpers ----------------------------------------------------------
    @property
    def visitor(self) -> MatchVisitor:
        return self.match.visitor

    def player(self, side: int) -> str:
        return self.match.players[side]

    def problem(self, action: Action, kind: ProblemKind, message: str) -> None:
        self.match.problem(action.line, self.record.number, action.move_number or 0, self.player(action.side),
                           kind, message)

    def seen_by(self, side: int) -> Position:
        return self.board if side == 0 else self.board.swap()

    def set_seen_by(self, side: int, position: Position) -> None:
        self.board = position if side == 0 else position.swap()

    def winner(self) -> int | None:
        if self.board.player[OFF] == CHECKERS:
            return 0
        if self.board.opponent[OFF] == CHECKERS:
            return 1
        return None

    def state(self, side: int, dice=(0, 0), doubled: bool = False, turn: int | None = None) -> GameState:
        rules = self.rules
        score = self.start.score
        match = MatchState(
            cube=self.cube, cube_owner=self.owner, on_roll=side, crawford=self.crawford, game_state=1,
            turn=side if turn is None else turn, doubled=doubled, resign=0, dice=tuple(dice),
            match_length=rules.match_length, score=score if rules.match_length else (0, 0), jacoby=rules.jacoby,
        )
        return GameState(self.seen_by(side), match)

    def emit(self, action: Action, kind: EventKind, state: GameState, **fields) -> None:
        self.visitor.event(Event(self.match.number, self.record.number, action.line, action.move_number or 0,
                                 action.side, self.player(action.side), kind, fields.pop("dice", None),
                                 fields.pop("play", ""), state, record=action, **fields))

    def flush_dance(self) -> None:
        if self.waiting_dance is not None:
            self.visitor.problem(self.waiting_dance)
            self.waiting_dance = None

    # --- actions ------------------------------------------------------------
    def apply(self, action: Action) -> None:
        if action.line > self.last_line:
            self.last_line = action.line
        if action.kind != ActionKind.RACCOON:
            self.beaver_by = None
        handler = self.handlers.get(action.kind)
        if handler is None:
            self.visitor.note(action)   # Snowie's note, Galaxy's "Losses", a raccoon: nothing to replay
            return
        if action.kind not in (ActionKind.WIN, ActionKind.DRAW):
            self.flush_dance()
            if self.over:
                self.problem(action, ProblemKind.MATCH, f"{action.kind.value} after the game was over")
                return
            if self.unchecked:
                return
        handler(action)

    def move(self, action: Action) -> None:
        side = action.side
        if self.pending is not None:
            self.problem(action, ProblemKind.CUBE, f"{self.player(side)} rolls while a double is waiting for an answer")
            self.pending = None
        if self.on_roll is not None and side != self.on_roll:
            self.problem(action, ProblemKind.TURN,
                         f"{self.player(side)} moves out of turn: it is {self.player(self.on_roll)}'s turn")
        if not action.dice:
            self.problem(action, ProblemKind.DICE, "a move without dice")
            self.unchecked = True
            return
        dice = (max(action.dice), min(action.dice))
        before = self.seen_by(side)
        self.moves += 1
        if self.moves == 1 and self.rules.white_first and side != self.match.white:
            self.problem(action, ProblemKind.TURN, f"{self.player(side)} rolls first, but White "
                                                   f"({self.player(self.match.white)}) always starts in these rules")
        if self.moves == 1 and dice[0] == dice[1] and not self.rules.white_first:
            self.problem(action, ProblemKind.DICE,
                         f"the opening roll {dice[0]}{dice[1]} is a double: the first roll of a game never is")
        text = (action.play_text or "").strip()
        wants = self.wants_events
        state = self.state(side, dice) if wants else None
        after, shown, legal = self.check_play(action, before, dice, text, wants)
        if state is not None:
            self.emit(action, EventKind.MOVE, state, dice=dice, play=shown, after=after, legal=legal)
        if after is None:
            return
        self.set_seen_by(side, after)
        self.on_roll = 1 - side
        if self.winner() is not None:
            self.over = True

    def roll(self, action: Action) -> None:
        """XG's rolled-then-resigned cell: nothing moves."""
        if self.wants_events and action.dice:
            dice = (max(action.dice), min(action.dice))
            self.emit(action, EventKind.ROLL, self.state(action.side, dice), dice=dice)

    def double(self, action: Action) -> None:
        side, player = action.side, self.player(action.side)
        if self.wants_events:
            self.emit(action, EventKind.DOUBLE, self.state(side), cube=action.cube)
        if self.on_roll is not None and side != self.on_roll:
            self.problem(action, ProblemKind.TURN, f"{player} doubles out of turn: it is {self.player(self.on_roll)}'s turn")
        if self.crawford and self.crawford_unknown:
            self.crawford = False   # a double: this was not the Crawford game
        if self.rules.cubeless:
            self.problem(action, ProblemKind.CUBE, f"{player} doubles, but these rules have no doubling cube")
        elif self.crawford:
            self.problem(action, ProblemKind.CUBE, f"{player} doubles in the Crawford game, where the cube is not used")
        needed = self.rules.match_length - self.start.score[side]
        if self.rules.cube_cap_needed and self.rules.match_length and self.cube >= needed:
            self.problem(action, ProblemKind.CUBE, f"{player} doubles, but the cube at {self.cube} is already as much as "
                                                   f"the {_points(needed)} {player} still needs")
        if self.owner not in (-1, side):
            self.problem(action, ProblemKind.CUBE, f"{player} doubles but {self.player(self.owner)} owns the cube")
        offered = action.cube if action.cube else self.cube * 2
        if not self.cube_known:
            if offered // 2 in self.start_cubes and offered % 2 == 0:
                self.cube = offered // 2
            self.cube_known = True
        if offered != self.cube * 2:
            self.problem(action, ProblemKind.CUBE,
                         f"Doubles => {offered} but the cube is at {self.cube}: a double makes it {self.cube * 2}")
        limit = self.rules.cube_limit
        if limit and offered > limit:
            self.problem(action, ProblemKind.CUBE, f"Doubles => {offered} goes past the cube limit of {limit}")
        self.pending = (side, self.cube * 2, self.cube)
        self.on_roll = side

    def _answer(self, action: Action, kind: EventKind) -> tuple[int, int, int] | None:
        """Common to take, drop and beaver: the double answered, or None."""
        side = action.side
        if self.pending is None:
            self.problem(action, ProblemKind.CUBE, f"{self.player(side)} answers a double that was not offered")
            if self.wants_events:
                self.emit(action, kind, self.state(1 - side))
            return None
        doubler = self.pending[0]
        if self.wants_events:
            state = self.state(doubler, doubled=True, turn=1 - doubler)
            self.emit(action, kind, state, cube=action.cube if kind == EventKind.BEAVER else None)
        if side == doubler:
            self.problem(action, ProblemKind.TURN, f"{self.player(side)} answers their own double")
        return self.pending

    def take(self, action: Action) -> None:
        pending = self._answer(action, EventKind.TAKE)
        if pending is not None:
            doubler, offered, _ = pending
            self.cube, self.owner, self.pending = offered, 1 - doubler, None

    def drop(self, action: Action) -> None:
        pending = self._answer(action, EventKind.DROP)
        self.dropped = self.cube if pending is None else pending[2]
        self.pending = None
        self.over = True

    def beaver(self, action: Action) -> None:
        """The doubled player takes and redoubles at once, keeping the cube."""
        pending = self._answer(action, EventKind.BEAVER)
        if pending is None:
            return
        doubler, offered, _ = pending
        if not self.rules.beavers:
            self.problem(action, ProblemKind.CUBE,
                         f"{self.player(action.side)} beavers but beavers are not allowed (use --beavers)")
        value = action.cube or offered * 2
        if value != offered * 2:
            self.problem(action, ProblemKind.CUBE, f"Beavers => {value} but a beaver of a {offered} cube makes it {offered * 2}")
        self.cube, self.owner, self.pending = value, 1 - doubler, None
        self.beaver_by = 1 - doubler

    def raccoon(self, action: Action) -> None:
        """Right after a beaver the doubler may redouble again at once: no take
        is needed, and the raccooner owns the cube and rolls."""
        side, player = action.side, self.player(action.side)
        if self.wants_events:
            self.emit(action, EventKind.RACCOON, self.state(side), cube=action.cube)
        if self.beaver_by is None or side == self.beaver_by:
            self.problem(action, ProblemKind.CUBE, f"{player} raccoons, but only the doubler may, right after a beaver")
            return
        if not self.rules.beavers:
            self.problem(action, ProblemKind.CUBE, f"{player} raccoons but beavers are not allowed (use --beavers)")
        value = action.cube or self.cube * 2
        if value != self.cube * 2:
            self.problem(action, ProblemKind.CUBE, f"Raccoons => {value} but a raccoon of a {self.cube} cube makes it {self.cube * 2}")
        self.cube, self.owner, self.on_roll, self.beaver_by = value, side, side, None

    def draw(self, action: Action) -> None:
        """An agreed draw ends the game with no winner, where the rules allow it."""
        if self.result is not None:
            self.problem(action, ProblemKind.POINTS, f"a second result for game {self.record.number}")
            return
        self.waiting_dance = None
        if not self.rules.draws:
            self.problem(action, ProblemKind.POINTS, "an agreed draw, but these rules have no draws (use --draws)")
        if self.wants_events:
            self.emit(action, EventKind.DRAW, self.state(action.side))
        score = self.start.score
        self.result = GameResult(self.record.number, self.record.line, "", -1, Outcome.DRAW, self.cube, 0,
                                 self.crawford, (score[0], score[1]))
        self.over = True

    def win(self, action: Action) -> None:
        side, player = action.side, self.player(action.side)
        points = action.points or 0
        if self.result is not None:
            self.problem(action, ProblemKind.POINTS, f"a second result for game {self.record.number}")
            return
        # a roll with no play right before the end: a resignation after rolling
        self.waiting_dance = None
        rules = self.rules
        score = self.start.score
        needed = rules.match_length - score[side] if rules.match_length and self.match.galaxy else 0

        def fits(value: int) -> bool:
            return points == value or (needed > 0 and points == needed and value > needed)

        over = self.winner()
        if not self.cube_known:
            # the automatic doubles are learnt from the result: the smallest
            # starting cube that makes the recorded points fit
            for cube in self.start_cubes:
                self.cube = cube
                if any(fits(v) for v in self.possible_points(over)):
                    break
            else:
                self.cube = 1
            self.cube_known = True
        centred = self.owner == -1
        if self.dropped is not None:
            how, expected, winner = Outcome.DROP, drop_points(self.dropped), side
            if not fits(expected):
                self.problem(action, ProblemKind.POINTS, f"Wins {_points(points)} after a drop, "
                                                         f"but a dropped {expected * 2}-cube is worth {expected}")
        elif over is not None:
            kind = self.kind_of(over)
            how, expected, winner = OUTCOME_OF_KIND[kind], self.capped(game_points(kind, self.cube, rules, centred), over), over
            if over != side:
                self.problem(action, ProblemKind.POINTS, f"{player} is said to win but {self.player(over)} bore off every checker")
            elif not fits(expected):
                self.problem(action, ProblemKind.POINTS, f"Wins {_points(points)} but the final position is a "
                                                         f"{how.value} at cube {self.cube}: {_points(expected)}")
        else:
            how, winner = Outcome.RESIGNATION, side
            worth = sorted({self.capped(value, side) for value in resignation_values(self.cube, rules, centred)})
            fitting = [value for value in worth if fits(value)]
            if fitting:
                expected = fitting[0]
            else:
                allowed = " or ".join(str(v) for v in worth)
                self.problem(action, ProblemKind.POINTS, f"Wins {_points(points)} by resignation, but at cube "
                                                         f"{self.cube} a resignation is worth {allowed}")
                expected = self.cube
        if self.wants_events:
            kind_ = EventKind.RESIGN if how == Outcome.RESIGNATION else EventKind.WIN
            self.emit(action, kind_, self.state(side), points=action.points)
        if rules.match_length and action.and_match and score[winner] + points < rules.match_length:
            self.problem(action, ProblemKind.MATCH, f"'and the match' but {player} has {score[winner] + points} of "
                                                    f"{rules.match_length} points")
        # the score goes on with what the game is worth, not with a wrong record,
        # so that one bad 'Wins' line does not make every later score line wrong
        after = list(score)
        after[winner] += expected
        self.result = GameResult(self.record.number, self.record.line, self.player(winner), winner, how, self.cube,
                                 expected, self.crawford, (after[0], after[1]), action.points)
        self.over = True

    def possible_points(self, over: int | None) -> list[int]:
        """What the game may be worth at the current cube: the final position's
        value when it is over, else any resignation."""
        centred = self.owner == -1
        if over is not None:
            return [self.capped(game_points(self.kind_of(over), self.cube, self.rules, centred), over)]
        return [self.capped(value, None) for value in resignation_values(self.cube, self.rules, centred)]

    def kind_of(self, over: int) -> int:
        """SINGLE, GAMMON or BACKGAMMON of the finished game won by side ``over``."""
        return game_kind(self.board, winner_is_player=(over == 0), home_gammons=self.rules.home_gammons)

    def capped(self, value: int, winner: int | None) -> int:
        """With the stake capped by what the winner still needs (a match rule of
        some houses), no game is worth more than that."""
        rules = self.rules
        if not (rules.cube_cap_needed and rules.match_length and winner is not None):
            return value
        return min(value, max(rules.match_length - self.start.score[winner], 1))

    def finish(self) -> GameResult | Unfinished:
        """The game's result at its end; problems for a game without one."""
        self.flush_dance()
        if self.result is not None:
            return self.result
        g = self.record.number
        score = self.start.score
        over = self.winner()
        if over is not None and not self.unchecked:
            kind = self.kind_of(over)
            points = self.capped(game_points(kind, self.cube, self.rules, self.owner == -1), over)
            self.match.problem(self.record.line, g, self.moves, self.player(over), ProblemKind.POINTS,
                               f"game {g} ends without a 'Wins' line")
            after = [score[0], score[1]]
            after[over] += points
            return GameResult(g, self.record.line, self.player(over), over, OUTCOME_OF_KIND[kind], self.cube,
                              points, self.crawford, (after[0], after[1]))
        if self.dropped is not None:
            self.match.problem(self.record.line, g, self.moves, "", ProblemKind.POINTS,
                               f"game {g} ends with a drop but without a 'Wins' line")
        else:
            self.match.problem(self.last_line, g, self.moves, "", ProblemKind.INCOMPLETE,
                               f"game {g} has no result: the record stops before the game ends")
        return Unfinished(g, self.record.line, self.cube, self.crawford, score)

    # --- judging a recorded play ---------------------------------------------------
    def check_play(self, action: Action, before: Position, dice: tuple[int, int], text: str,
                   want_text: bool) -> tuple[Position | None, str, Play | None]:
        """Judge a recorded play: (position after or None, text to show, the
        legal play or None). Without ``want_text`` (no events: the audit) a
        legal play's text and Play are not made: the text is the recorded
        one and the play None."""
        if text:
            # Fast path: the written pairs, one die each, judged by the model
            # step by step (it lists the legal plays only when a play uses
            # fewer dice). Anything else takes the full parser.
            moves = _die_steps(before, dice, text)
            if moves is not None:
                if not want_text:
                    after = result_of_steps(before, dice, moves)
                    if after is not None:
                        return after, text, None
                else:
                    play = play_from_steps(before, dice, moves)
                    if play is not None:
                        return play.result, play_text(play), play
        if not text:
            plays = legal_plays(before, dice)
            if plays:
                some = ", ".join(sorted(play_text(p) for p in plays)[:6])
                # held back: a roll with no play right before the end of the game is a resignation
                self.waiting_dance = Problem(
                    action.line, self.record.number, action.move_number or 0, self.player(action.side),
                    ProblemKind.DANCE, f"no play is recorded for {dice[0]}{dice[1]} but {len(plays)} legal "
                                       f"play{'s' if len(plays) > 1 else ''} exist ({some})", self.match.number)
            return before, "", None
        try:
            play = parse_play(text, before, dice, side=action.side)
            return play.result, (play_text(play) if want_text else text), play
        except IllegalPlayError as exc:
            # Was the play or the roll recorded wrong? A play that is one slip
            # away from a legal play of this roll (a sub-move missing, or the last
            # one ending a point off) is a wrong play; otherwise, when it is a
            # legal play of another roll, the roll is what was written wrong.
            plain = numbered_text(text, side=action.side)   # Korean names belong to the board: read by the column's side
            other = None if _one_slip_from_legal(before, dice, plain) else _other_roll(before, dice, plain)
            if other is not None:
                self.problem(action, ProblemKind.DICE, f"{text!r} is not a play of {dice[0]}{dice[1]}; it is a legal play "
                                                       f"of {other[0]}{other[1]}: the roll does not fit the play")
            else:
                self.problem(action, ProblemKind.PLAY, str(exc))
        except (InvalidPlayError, AmbiguousPlayError) as exc:
            self.problem(action, ProblemKind.PLAY, str(exc))
        try:
            after = apply_written(before, text, dice, side=action.side)
        except BgcliError:
            after = None
        if after is None:
            self.problem(action, ProblemKind.UNCHECKED, "the recorded play cannot be applied: the rest of this game is not checked")
            self.unchecked = True
            return None, text, None
        return after, text, None


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def _written_moves(text: str) -> tuple[tuple[int, int], ...] | None:
    """The (start, end) pairs of a play written as .mat files write them
    (``13/8 8/5*``), or None for any other spelling; remembered by text, as
    the same few thousand texts make most plays."""
    if text in _WRITTEN:
        return _WRITTEN[text]
    pairs: list[tuple[int, int]] = []
    for word in text.split():
        found = _MAT_MOVE.fullmatch(word)
        if found is None:
            pairs = []
            break
        pairs.append((int(found.group(1)), int(found.group(2))))
    if len(_WRITTEN) > 100_000:
        _WRITTEN.clear()
    moves = _WRITTEN[text] = tuple(pairs) if pairs else None
    return moves


_WRITTEN: dict[str, tuple[tuple[int, int], ...] | None] = {}


def _die_steps(before: Position, dice: tuple[int, int], text: str) -> tuple[tuple[int, int], ...] | None:
    """The written pairs of a play with each pair that covers several dice
    (``24/21`` for 21, ``13/5`` for 44) split into one step per die through
    points the opponent leaves empty, so that the split reaches the result the
    pairs reach; a pair that cannot be split so stays whole."""
    moves = _WRITTEN[text] if text in _WRITTEN else _written_moves(text)
    if moves is None:
        return None
    high, low = dice
    if high != low:
        if len(moves) != 1:
            return moves
        (start, end), = moves
        if start - end != high + low or not 0 < end < start <= 25:
            return moves
        opponent = before.opponent
        for middle in (start - high, start - low):
            if not opponent[25 - middle]:
                return ((start, middle), (middle, end))
        return moves
    if len(moves) >= 4:
        return moves
    steps: list[tuple[int, int]] = []
    opponent = before.opponent
    for start, end in moves:
        if 0 <= end < start <= 25 and start - end > high and (end == 0 or (start - end) % high == 0):
            points = list(range(start, end, -high))
            if all(not opponent[25 - p] for p in points[1:]):
                steps += zip(points, points[1:] + [end])
                continue
        steps.append((start, end))
    return tuple(steps)


# --- diagnosing an illegal play: a wrong play or a wrong roll? -----------------------

def _one_slip_from_legal(before: Position, dice, text: str) -> bool:
    try:
        written = parse_play_text(text)
    except BgcliError:
        return False
    hops = written.hops()
    if not hops:
        return False
    start, end = hops[-1]
    for shifted in (end - 1, end + 1):
        if 0 <= shifted < start and _fits_dice(hops[:-1] + [(start, shifted)], dice):
            candidate = " ".join(f"{a}/{b}" for a, b in hops[:-1] + [(start, shifted)])
            try:
                parse_play(candidate, before, dice)
                return True
            except BgcliError:
                pass
    used = sum(_dice_needed(start - end, end, dice) for start, end in hops)
    if used >= len(roll_dice(dice)):
        return False  # nothing is missing
    try:
        reached = apply_written(before, written, dice)
    except BgcliError:
        reached = None
    if reached is None:
        return False
    return any(len(play.steps) == used + 1 and _one_step_apart(reached.player, play.result.player, dice)
               for play in legal_plays(before, dice))


def _dice_needed(length: int, end: int, dice) -> int:
    """How many dice a written hop of ``length`` pips takes (at least one)."""
    if dice[0] == dice[1]:
        return max(1, -(-length // dice[0]))
    return 1 if length in dice or (end == 0 and length < dice[0]) else 2


def _fits_dice(hops, dice) -> bool:
    """Whether each hop is one die of the roll (a bear-off may use a larger die)."""
    free = roll_dice(dice)
    for start, end in sorted(hops, key=lambda hop: hop[0] - hop[1], reverse=True):
        die = die_for(start, end, free)
        if die is None:
            return False
        free.remove(die)
    return True


def _one_step_apart(side: tuple[int, ...], target: tuple[int, ...], dice) -> bool:
    """Whether one more step of a die turns ``side`` into ``target``."""
    diff = [(p, target[p] - side[p]) for p in range(26) if target[p] != side[p]]
    if len(diff) != 2 or diff[0][1] != 1 or diff[1][1] != -1:  # a lower point gains what a higher one loses
        return False
    low, high = diff[0][0], diff[1][0]
    return die_for(high, low, dice) is not None


def _other_roll(before: Position, dice, text: str):
    for roll in ALL_ROLLS:
        if roll == tuple(dice):
            continue
        try:
            parse_play(text, before, roll)
            return roll
        except BgcliError:
            continue
    return None
