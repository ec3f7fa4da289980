"""Replaying match records: the driver.

:func:`replay_match` walks one :class:`~bgcli.match.records.MatchRecord`
(:func:`replay_parts` a stream of parts, game by game) and reports to a
:class:`~bgcli.match.visitor.MatchVisitor`: the start of the match and of
each game, every action with the state before it, every problem and each
game's result. The driver keeps what spans games (the score, the Crawford
game, the end of the match); each game's actions are judged by
:class:`~bgcli.match.game.GameReplay`.

The parts of the replay, one job each:

- :mod:`bgcli.match.events` — what is reported (Event, Problem, GameResult, ...);
- :mod:`bgcli.match.visitor` — the visitor protocol and the ReplayBuilder;
- :mod:`bgcli.match.game` — each action's rules within one game;
- :mod:`bgcli.match.plays` — judging a recorded play, read by the notation's reader;
- :mod:`bgcli.match.diagnosis` — a wrong play or a wrong roll?;
- :mod:`bgcli.match.conventions` — archive habits that are not problems.

A transcript may start in the middle of a match: the first game's recorded
score is where the match stands; a later score line that disagrees with the
running score is reported once, and the replay goes on from the recorded
score, so one slip is one problem.
"""
from __future__ import annotations

from dataclasses import replace
from operator import attrgetter
from typing import Callable, Iterable, Iterator

from bgcli.core.cube import after_turns
from bgcli.core.rules import Rules, crawford_game, tag_problems
from bgcli.core.value import Outcome
from bgcli.match.conventions import (GALAXY, autodoubled_cube, autodoubles_hint, galaxy_unlimited, points_convention,
                                     score_leaves_out)
from bgcli.match.events import (
    Event,
    EventKind,
    GameResult,
    GameStart,
    MatchStart,
    Problem,
    ProblemKind,
    Severity,
    Unfinished,
    WARNING_KINDS,
)
from bgcli.match.game import GameReplay
from bgcli.match.records import ActionKind, GameRecord, MatchEnd, MatchHeader, MatchPart, MatchRecord
from bgcli.match.visitor import MatchReplay, MatchVisitor, ReplayBuilder

__all__ = [
    "Event", "EventKind", "GameReplay", "GameResult", "GameStart", "MatchReplay", "MatchStart", "MatchVisitor",
    "Problem", "ProblemKind", "ReplayBuilder", "Severity", "Unfinished", "WARNING_KINDS", "replay_match", "replay_parts",
]

_KIND = attrgetter("kind")


def replay_match(record: MatchRecord, number: int = 1, rules: Rules | None = None, keep_events: bool = True,
                 visitor: MatchVisitor | None = None):
    """Replay one match record; report to ``visitor`` and return what its
    ``end_match`` returns: by default a :class:`MatchReplay` (without
    ``keep_events`` only problems and results are kept, which is faster)."""
    visitor = visitor if visitor is not None else ReplayBuilder(keep_events)
    replayer = MatchReplayer(record.header(), number, rules or Rules(), visitor)
    for game in record.games:
        replayer.game(game)
    return replayer.finish(MatchEnd(record.errors, record.comments))


def replay_parts(parts: Iterable[MatchPart], visitor_for: Callable[[int], MatchVisitor],
                 rules: Rules | None = None) -> Iterator[object]:
    """Replay a stream of match parts (``bgcli.formats.mat.iter_parts``) game by
    game, as they are read: each match reports to ``visitor_for(number)``,
    and what its ``end_match`` returns is yielded when the match ends."""
    replayer: MatchReplayer | None = None
    number = 0
    for part in parts:
        if isinstance(part, MatchHeader):
            number += 1
            replayer = MatchReplayer(part, number, rules or Rules(), visitor_for(number))
        elif replayer is None:
            continue
        elif isinstance(part, GameRecord):
            replayer.game(part)
        else:
            yield replayer.finish(part)
            replayer = None


class MatchReplayer:
    """Walks the games of one match as they come, keeping the score and the
    Crawford game; holds nothing of a game once it is replayed."""

    def __init__(self, header: MatchHeader, number: int, rules: Rules, visitor: MatchVisitor):
        self.header = header
        self.writer = header.writer
        self.words = header.words   # the record's own words, for the messages that quote it
        self.number = number
        self.rules = replace(rules.with_tags(header.tags or {}), match_length=header.length)
        # Galaxy's unlimited game: a money game with the Jacoby rule, its results
        # written as if the length it is saved with were needed
        self.written_cap = 0
        if galaxy_unlimited(header.tags or {}, header.length):
            self.rules = replace(self.rules, match_length=0, jacoby=True)
            self.written_cap = header.length
        self.visitor = visitor
        # False: the visitor reads no problem, no result and no score (MatchVisitor.reads_judgement: the dice
        # audit), so the checks of the tags and score lines, and the running score's bookkeeping that only
        # they read, are left out (the score follows the games' results)
        self.judges = visitor.reads_judgement
        self.players: tuple[str, str] = ("player 0", "player 1")
        self.begun = False
        # how results are written: Galaxy's habit is announced by its site tag,
        # or by its "Losses" lines (seen as the games come)
        self.points_convention = points_convention(header.tags or {})
        self.white = 0   # White's column (the White-first rule): the left one unless a [White] tag names the right
        self.starts: list[tuple[int, int]] = []     # (line, number) of each game, for placing syntax problems
        self.score = [0, 0]
        self.crawford_done = False
        self.crawford_number = 0   # the Crawford game's number, once played (0: none yet)
        self.headers_restart = False   # a money session whose game headers each start at 0-0
        # the points the record's running score leaves out by its writer's habit (conventions.score_leaves_out):
        # its next score line is the games' total less these
        self.left_out = [0, 0]
        self.match_over_line: int | None = None
        self.pending: tuple[GameReplay, GameResult | Unfinished] | None = None   # a game waiting for its result
        self.last: tuple[int, int, GameResult | Unfinished] | None = None       # last line, number, result
        self.ended = False   # the end of the record reached (end_of_record): once
        self.last_unwritten_autos = False   # the last game closed is of a file that does not write automatic doubles
        self.autos_hinted = False   # conventions.autodoubles_hint said, once a match

    def problem(self, line: int, game: int, move: int, player: str, kind: ProblemKind, message: str,
                severity: Severity = Severity.ERROR) -> None:
        self.visitor.problem(Problem(line, game, move, player, kind, message, self.number, severity))

    def players_of(self, game_record: GameRecord) -> tuple[str, str]:
        """The players as the replay of ``game_record`` names them: the
        match's once its first game has begun it, else the game's own (the
        first game names them; a copy taken before it, as a repair keeps one,
        knows them as its replay will)."""
        if self.begun or not game_record.players:
            return self.players
        return (game_record.players[0], game_record.players[1])

    def begin(self, players: tuple[str, str] | None) -> None:
        if self.begun:
            return
        self.begun = True
        if players:
            self.players = players
        white = next((str(v).strip() for k, v in (self.header.tags or {}).items() if k.lower() == "white"), None)
        if white is not None and white == self.players[1] and white != self.players[0]:
            self.white = 1
        header = self.header
        self.visitor.begin_match(MatchStart(self.number, self.rules.match_length, self.players, self.rules,
                                            dict(header.tags or {}), header.path))
        if self.judges:
            for message in tag_problems(header.tags or {}):
                self.problem(header.line, 0, 0, "", ProblemKind.SYNTAX, message)

    def game(self, game_record: GameRecord) -> None:
        game = self.open_game(game_record)
        game.apply_all(game_record.actions)
        self.end_game(game)

    def open_game(self, game_record: GameRecord) -> GameReplay:
        """The game's header judged (its score line, the game before it settled)
        and its replay begun, no action applied: :meth:`game` is this, then the
        actions, then :meth:`end_game` (a repair replays a game's candidates
        from the state before the line they change)."""
        self.begin(self.players_of(game_record))
        rules, score = self.rules, self.score
        if self.points_convention is not GALAXY and ActionKind.LOSS in map(_KIND, game_record.actions):
            self.points_convention = GALAXY
        g = game_record.number
        first = not self.starts
        self.starts.append((game_record.line, g))
        recorded = tuple(game_record.scores) if game_record.scores is not None else None
        if self.pending is not None:
            self.settle(recorded)
        mid_match = False
        if first:
            # a transcript may start in the middle of a match
            if recorded is not None and (not rules.match_length or max(recorded) < rules.match_length):
                score[:] = recorded
            mid_match = g > 1 or score != [0, 0]
        elif self.judges:
            if self.match_over_line is not None:
                self.problem(game_record.line, g, 0, "", ProblemKind.MATCH,
                             f"game {g} is played after the match ended at line {self.match_over_line}")
            if (recorded == (0, 0) and not rules.match_length and recorded != tuple(score)
                    and not rules.standalone_games):
                # a money session whose game headers restart at 0-0 after a game
                # is won (each game's score written alone), where gnubg and
                # Jellyfish write running totals: the games' totals stand
                if not self.headers_restart:
                    self.problem(game_record.line, g, 0, "", ProblemKind.SCORE,
                                 f"game {g} starts at 0-0 but the games before give {score[0]}-{score[1]}: the game "
                                 f"headers of this money session restart at 0-0 (a habit that cannot be checked); "
                                 f"the totals are the games'", Severity.WARNING)
                self.headers_restart = True
            elif recorded is not None and recorded != tuple(score) and not rules.standalone_games \
                    and recorded != self.written_score():
                before = self.starts[-2][1]
                if g > before + 1 and all(now >= then for now, then in zip(recorded, score)):
                    # an excerpt: the numbers of the games say that the ones between are not
                    # in the file, and the score only went on: those games gave it
                    left_out = f"game {before + 1} is" if g == before + 2 else f"games {before + 1}-{g - 1} are"
                    self.problem(game_record.line, g, 0, "", ProblemKind.SCORE,
                                 f"game {g} starts at {recorded[0]}-{recorded[1]}, the games before give "
                                 f"{score[0]}-{score[1]}: {left_out} not in the file (an excerpt)", Severity.WARNING)
                else:
                    written = self.written_score()
                    habit = "" if written == tuple(score) else (
                        f" ({written[0]}-{written[1]} in {self.header.writer}'s running score, which leaves "
                        f"automatic doubles out)")
                    self.problem(game_record.line, g, 0, "", ProblemKind.SCORE,
                                 f"game {g} starts at {recorded[0]}-{recorded[1]} but the games before give "
                                 f"{score[0]}-{score[1]}{habit}{self.autodoubles_hint(recorded)}")
                # one slip is one problem: go on from the record (read by its writer's habit)
                score[:] = [now + out for now, out in zip(recorded, self.left_out)]
            elif recorded is not None and recorded == tuple(score):
                self.left_out = [0, 0]   # the record counts them after all: it goes on from the games' total
        crawford = crawford_game(rules, (score[0], score[1]), self.crawford_done)
        unknown = mid_match and crawford
        marked = game_record.crawford
        if first and marked is not None and crawford:
            # the record starts, one point from the end, with a game its file says is (or comes after) the
            # Crawford game: no guess
            crawford, unknown = marked, False
            self.crawford_done = not crawford
        elif marked is not None and marked != crawford and self.judges:
            # the file's mark ("Game 3 (Crawford)", gnubg's text ", post-Crawford play") against the rule,
            # which decides: the game is replayed as the rule says
            self.problem(game_record.line, g, 0, "", ProblemKind.SCORE, self.crawford_mark_disagrees(g, marked))
        if crawford and not self.crawford_number:
            self.crawford_number = g
        self.crawford_done = self.crawford_done or crawford
        game = GameReplay(self, game_record, (score[0], score[1]), crawford, crawford_unknown=unknown)
        self.visitor.begin_game(game.start)
        return game

    def crawford_mark_disagrees(self, g: int, marked: bool) -> str:
        """Why game ``g``, which its file marks as the Crawford game (``marked``) or as one after it, is not
        so by the Crawford rule (core.rules.crawford_game), in words."""
        rules, score = self.rules, self.score
        at = f"{score[0]}-{score[1]}"
        if not marked:
            return (f"game {g} is marked as played after the Crawford game, but it is the Crawford game: the first "
                    f"game at {at} with one player one point from {rules.match_length}")
        said = f"game {g} is marked (Crawford) but is not the Crawford game"
        if not rules.in_force("crawford"):
            why = "these rules have no Crawford rule" if rules.match_length else "a money session has no Crawford game"
            return f"{said}: {why}"
        if self.crawford_number:
            return f"{said}: game {self.crawford_number} was"
        return (f"{said}: the Crawford game is the first after one player, and only one, reaches "
                f"{rules.match_length - 1} points, and the score is {at}")

    def end_game(self, game: GameReplay) -> None:
        """The game's result, once its actions are applied (see :meth:`open_game`)."""
        result = game.finish()
        if game.missing is not None or self.may_be_autodoubled(game, result):
            # no result line, or a result its writer may write without the automatic doubles its game began
            # with: the next score line says what the game gave
            self.pending = (game, result)
        else:
            self.close(game, result)

    def close(self, game: GameReplay, result: GameResult | Unfinished) -> None:
        self.visitor.end_game(game.start, result)
        self.last = (game.last_line, game.record.number, result)
        self.last_unwritten_autos = not game.record.autos_written
        score = self.score
        if isinstance(result, GameResult) and result.winner_side >= 0:
            score[:] = result.score
            if not self.judges:
                return   # what the running score leaves out, and where the match ended: read by problems alone
            autos = sum(1 for action in game.record.actions if action.kind is ActionKind.AUTO_DOUBLE)
            self.left_out[result.winner_side] += score_leaves_out(self.header.writer, result.points, after_turns(autos))
            if self.rules.match_length and score[result.winner_side] >= self.rules.match_length and self.match_over_line is None:
                self.match_over_line = game.record.line

    def autodoubles_hint(self, recorded: tuple[int, ...]) -> str:
        """The hint of conventions.autodoubles_hint for a score line ``recorded`` that disagrees with the last
        game closed, once a match: '' after it was given, or where it does not apply."""
        result = self.last[2] if self.last is not None else None
        if (self.autos_hinted or self.rules.match_length or not self.last_unwritten_autos
                or not isinstance(result, GameResult) or result.winner_side < 0 or len(recorded) != 2):
            return ""
        side, written = result.winner_side, self.written_score()
        if recorded[1 - side] != written[1 - side]:
            return ""
        hint = autodoubles_hint(self.header.writer, result.points, recorded[side] - written[side] + result.points,
                                self.rules.in_force("auto_doubles"))
        self.autos_hinted = bool(hint)
        return hint

    def written_score(self) -> tuple[int, int]:
        """The running score the record writes after the games so far, by its writer's habit: the games'
        total, less what a GNU Backgammon running score leaves out (conventions.score_leaves_out)."""
        return (self.score[0] - self.left_out[0], self.score[1] - self.left_out[1])

    def settle(self, recorded: tuple[int, ...] | None) -> None:
        """A game without its result line, with the score line that follows
        it (None at the end of the match): when that line gives one player
        the points, they won the game with them; one warning either way, at
        the game's last line."""
        assert self.pending is not None
        (game, result), self.pending = self.pending, None
        problem = game.missing
        if problem is None:
            self.close(game, self.autodoubled(result, recorded))
            return
        before = game.start.score
        if recorded is not None and len(recorded) == 2 and not self.rules.standalone_games:
            gained = (recorded[0] - before[0], recorded[1] - before[1])
            if min(gained) == 0 and max(gained) > 0:
                winner = 0 if gained[0] else 1
                won = result.result if isinstance(result, GameResult) and result.winner_side == winner else \
                    Outcome.RESIGNATION
                result = GameResult(result.game, game.record.line, self.players[winner], winner, won, result.cube,
                                    gained[winner], result.crawford, (recorded[0], recorded[1]))
                problem = replace(problem, player=self.players[winner],
                                  message=f"game {result.game} has no {self.words.result}: the next score line gives "
                                          f"{self.players[winner]} {gained[winner]} point"
                                          f"{'s' if gained[winner] != 1 else ''}")
        self.visitor.problem(problem)
        self.close(game, result)

    def may_be_autodoubled(self, game: GameReplay, result: GameResult | Unfinished) -> bool:
        """Whether a won money game of a file that does not write its automatic doubles (a .mat file) may have
        begun with some its writer leaves out of the game (conventions.autodoubled_cube: gnubg's .mat export)."""
        # only under a rule that allows them (autodoubled_cube): without one the game is closed at once, as in
        # any file (a held game would move the score line's problem after the next game's start)
        return (self.header.writer is not None and self.rules.in_force("auto_doubles") > 0
                and isinstance(result, GameResult) and result.winner_side >= 0 and not game.record.autos_written)

    def autodoubled(self, result: GameResult | Unfinished, recorded: tuple[int, ...] | None) -> GameResult | Unfinished:
        """``result`` at the cube the next score line ``recorded`` says its game began at by its writer's
        habit (conventions.autodoubled_cube): its cube actions and points relative to it; as it is otherwise."""
        if not isinstance(result, GameResult) or recorded is None or len(recorded) != 2:
            return result
        side, written = result.winner_side, self.written_score()
        if recorded[1 - side] != written[1 - side]:
            return result
        start = autodoubled_cube(self.header.writer, result.points, recorded[side] - written[side],
                                 self.rules.auto_doubles)
        if start == 1:
            return result
        score = list(result.score)
        score[side] += result.points * (start - 1)
        return replace(result, cube=result.cube * start, points=result.points * start, score=(score[0], score[1]))

    def end_of_record(self) -> None:
        """The record ends after the games replayed so far: the last game's
        result settled from no score line, and a whole match that stops short
        warned of, at the last game (once; :meth:`finish` does it first). A
        repair replays a match's last game with its end, as the audit does."""
        if self.ended:
            return
        self.ended = True
        if self.pending is not None:
            self.settle(None)
        self.match_stops_short()

    def finish(self, end: MatchEnd) -> object:
        self.begin(None)
        self.end_of_record()
        for error in end.errors:
            in_game = max((g for line, g in self.starts if line <= error.line), default=0)
            self.problem(error.line, in_game, 0, "", ProblemKind.SYNTAX, error.reason)
        return self.visitor.end_match()

    def match_stops_short(self) -> None:
        """A warning at the last line of a file that ends before its match is
        over: the last game finished, nobody at the match length (a file that
        holds part of a match by design, or no match at all, is not one)."""
        if self.last is None or not self.rules.match_length or not self.header.whole or self.rules.standalone_games:
            return
        line, game, result = self.last
        if not isinstance(result, GameResult) or max(self.score) >= self.rules.match_length:
            return
        self.problem(line, game, 0, "", ProblemKind.INCOMPLETE,
                     f"the match stops at {self.score[0]}-{self.score[1]}, before either player has "
                     f"{self.rules.match_length} points: the record ends before the match is over")
