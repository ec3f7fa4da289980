"""The visitor protocol of a replay, and the visitor that keeps everything.

:func:`bgcli.match.replay.replay_match` reports to a :class:`MatchVisitor`
in order, python-chess style; :class:`ReplayBuilder` collects what it is told
into a :class:`MatchReplay`; the audit keeps only problems, and the writers of
every format are visitors too.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from bgcli.core.rules import Rules
from bgcli.core.value import Outcome
from bgcli.match.events import Event, GameResult, GameStart, MatchStart, Problem, Unfinished
from bgcli.match.records import Action, SetUp


class MatchVisitor:
    """What a replay reports, in order. Subclass and override what you need;
    ``wants_events`` False spares building the events (the audit's case)."""

    wants_events = True
    # None, or a function that settles a run of plays in turn at once in place of their events
    # (the dice audit's, bgcli.judging.dice.DiceTally): as the audit's C short path
    # sides_after_plays (bgcli.match.plays), called (actions, at, first side, second side, side on
    # roll, last line, the move kind) and answering (plays settled, the sides, the side on roll,
    # the last line, whether the game is over); at a game's first roll too, where it has no problem of the
    # opening (bgcli.match.game.GameReplay.plain_opening)
    run_of_plays: Callable[..., tuple] | None = None
    # True: no events but those of rolls (MOVE, ROLL), and these without the legal play's text (the
    # play as recorded, no Play where the short path settles it): spared building (the dice audit's)
    roll_events_only = False
    # False: the visitor reads no problem, no game's result and no event's cube or score (the dice
    # audit without an engine), so the replay leaves out the checks whose only outcome is one of
    # these: the points of a result line against what the game is worth, the turn and limits of a
    # double (bgcli.match.game.GameReplay.win, .double), the tags and score lines and the running
    # score's bookkeeping (bgcli.match.replay.MatchReplayer), the search of a wrong play's rivals
    # whose only outcome is its problem's wording (bgcli.match.resync.Resync.rivals_read). What moves
    # the checkers, the cube's value and whether the game goes on is replayed as ever
    # (tests/test_dice_runs.py compares the two, tests/test_replay_unread.py each piece left out)
    reads_judgement = True

    def begin_match(self, match: MatchStart) -> None:
        pass

    def begin_game(self, game: GameStart) -> None:
        pass

    def event(self, event: Event) -> None:
        pass

    def problem(self, problem: Problem) -> None:
        pass

    def stops_at(self, line: int) -> bool:
        """Whether the visitor ends the replay (raises in ``problem``) at an
        error on ``line``: a repair's candidate replay does, to drop a
        candidate at its first error. The replay then reports a wrong play
        there without first looking ahead for where the game goes on."""
        return False

    def note(self, action: Action) -> None:
        """A recorded action the replay has no rule for (Snowie's note on an
        illegal play, Galaxy's ``Losses``, a raccoon): nothing to replay."""

    def set_up(self, action: Action, set_up: SetUp) -> None:
        """What was set by hand in the middle of a game (``action``, of kind
        SET_UP), which the replay goes on from (writers place it)."""

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
    tags: dict[str, str] = field(default_factory=dict)
    set_ups: dict[int, SetUp] = field(default_factory=dict)   # where each game that starts set up starts, by number

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

    def _repr_html_(self) -> str:
        """The match's summary in a notebook: each game's result and the score (bgcli.notebook)."""
        from bgcli.notebook import replay_summary_html

        return replay_summary_html(self)

    def games(self) -> list[GameResult | Unfinished]:
        """Finished and unfinished games in order."""
        return sorted([*self.results, *self.unfinished], key=lambda g: (g.line, g.game))

    def to_dict(self) -> dict:
        data = {"match_length": self.length, "players": list(self.players),
                "games": [g.to_dict() for g in self.games()], "score": list(self.score), "winner": self.winner}
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
        self.replay = MatchReplay(match.number, match.length, match.players, match.rules, tags=match.tags)

    def begin_game(self, game: GameStart) -> None:
        if game.set_up is not None and self.replay is not None:
            self.replay.set_ups[game.number] = game.set_up

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
