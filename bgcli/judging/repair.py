"""Repairs: for each problem the audit finds, the smallest edits of the record's
lines that make it go away, ranked by how well the rest of the record fits them.

Nothing here decides a rule. The problems are the audit's (the replay of
:mod:`bgcli.match.replay`, one slip one problem); the candidates come from the
owners: the legal plays of a roll from the generator (which roll fits a play:
the generator asked for each of the 21 rolls, through ``parse_play``), the
value a game is worth and the cube a double makes from the replay's own
results (:mod:`bgcli.core.value`, :mod:`bgcli.core.cube` under the match's
``Rules``). A candidate is judged by replaying its game (and the header of the
next one) from the state the match had before it, with the match's own rules:
the fewer problems left, the better, then the fewer characters changed.

A candidate is one edit of the record as read (an action changed, a row's
cells swapped, a line dropped) together with the same edit of the file's
lines, in the file's own layout: only the edited lines change, and a changed
cell keeps the columns after it where they were. The repaired text is read
and audited again from scratch, so a repair is never trusted on its word.

Formats: the text match formats whose rows are lines (``mat``: Jellyfish
.mat, the sites' .txt exports). Others are refused with a one-line reason.
"""
from __future__ import annotations

import copy
import difflib
import functools
import io
import os
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Sequence

from bgcli.core.cube import points_word, turns
from bgcli.core.generator import Play, Step, legal_plays
from bgcli.core.kinds import Worded
from bgcli.core.notation import numbered_text, parse_play, parse_play_text, plays_of_rolls
from bgcli.core.position import KINDS_OF_ROLL_LARGEST_FIRST, Position, is_contact, throws
from bgcli.core.rules import Rules
from bgcli.core.value import STANDARD_WORTH, Outcome, game_value, possible_wins
from bgcli.core.state import GameState
from bgcli.errors import BgcliError, MatchFileError
from bgcli.formats import mat, registry
from bgcli.formats.files import format_of
from bgcli.formats.reading import LINE_END, edited_bytes, editable_text
from bgcli.judging.rating import BAD
from bgcli.match.events import Event, GameResult, GameStart, Problem, ProblemKind, Severity, Unfinished
from bgcli.match.records import Action, ActionKind, GameRecord, MatchEnd, MatchRecord, records_of
from bgcli.match.game import GameReplay
from bgcli.match.replay import MatchReplayer
from bgcli.match.resync import Resync
from bgcli.match.visitor import MatchVisitor
from bgcli.output import first_difference, quote, quote_around
from bgcli.core.spelling import recorded_text

_DICE_CELLS = (ActionKind.MOVE, ActionKind.DANCE, ActionKind.ROLL, ActionKind.ILLEGAL)   # cells that start with a roll
_CUBE_CELLS = (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON, ActionKind.TAKE, ActionKind.DROP)
ALL_ROLLS = list(KINDS_OF_ROLL_LARGEST_FIRST)   # 66, 65, ... 11: the 21 rolls
LINE_FORMATS = ("mat",)        # formats whose rows are lines that an edit can change one at a time
SHOWN = 3                      # suggestions kept per problem
NEAREST_PLAYS = 12             # legal plays of a roll tried, nearest the written one first
MISSING_PLAYS = 60             # legal plays tried in place of a play not written
TWICE_BACK = 3                 # rows before a problem looked at for one written twice
ROUNDS = 12                    # problems of one game worked on, at most
LINE_SHOWN = 160               # characters of a line a suggestion shows whole (longer: an excerpt at the edit)


class RepairKind(str, Worded):
    """What a suggestion changes."""

    ROLL = "roll"        # the dice of a move
    PLAY = "play"        # the play of a move (a play written in place of none)
    CUBE = "cube"        # the value of a double, beaver or raccoon
    POINTS = "points"    # the points of a 'Wins' line
    SCORE = "score"      # a game's score line
    SWAP = "swap"        # the two cells of a row exchanged (each player's action in the other's column)
    DROP = "drop"        # a line taken out (written twice)


@dataclass(frozen=True)
class LineEdit:
    """One line of the file changed: its 1-based number, the text before and
    after (without the line's end); ``after`` None: the line is taken out."""

    line: int
    before: str
    after: str | None

    def to_dict(self) -> dict:
        return {"line": self.line, "before": self.before, "after": self.after}


@dataclass(frozen=True)
class Suggestion:
    """One candidate repair of a problem. ``left``: errors the replay of the
    game (and the next game's header) still finds with it applied;
    ``warnings`` likewise; ``changes``: characters changed in the file;
    ``ties``: other candidates that fit exactly as well (the record cannot
    tell them apart); ``likeliest``: of plays that tie, the only one the
    engine does not rate an error (see ``_engine_first``)."""

    kind: RepairKind
    edits: tuple[LineEdit, ...]
    left: int
    warnings: int
    changes: int
    why: str
    ties: int = 0
    likeliest: bool = False

    def to_dict(self) -> dict:
        data = {"repair": self.kind.value, "edits": [e.to_dict() for e in self.edits],
                "score": {"problems_left": self.left, "warnings_left": self.warnings, "changes": self.changes},
                "ties": self.ties, "why": self.why}
        if self.likeliest:
            data["likeliest"] = True
        return data

    def text(self) -> str:
        return suggestion_text(self.to_dict())


def suggestion_text(suggestion: dict) -> str:
    """One suggestion (``Suggestion.to_dict()``) in a line of text."""
    edits = "; ".join(_edit_text(e) for e in suggestion["edits"])
    score = suggestion["score"]
    left, changes, ties = score["problems_left"], score["changes"], suggestion["ties"]
    fit = "the rest of the game replays cleanly" if not left else f"{left} problem{'s' if left != 1 else ''} left in the game"
    tie = f"; {ties} other repair{'s' if ties != 1 else ''} fit as well" if ties else ""
    return (f"{suggestion['repair']}: {edits} ({suggestion['why']}; {fit}; "
            f"{changes} character{'s' if changes != 1 else ''} changed{tie})")


def _edit_text(edit: dict) -> str:
    """One edit (``LineEdit.to_dict()``) as its line before and after; a line longer than ``LINE_SHOWN`` as
    an excerpt around the column where the edit begins, which is named (a play with 300 kB of junk after it
    was the whole line twice in the message: the patch and the JSON keep the whole lines)."""
    before, after = edit["before"], edit["after"]
    at = first_difference(before, after) if after is not None else 0

    def shown(line: str) -> str:
        return repr(line.strip()) if len(line.strip()) <= LINE_SHOWN else quote_around(line, at)

    long = len(before.strip()) > LINE_SHOWN or after is not None and len(after.strip()) > LINE_SHOWN
    return (f"line {edit['line']}{f' column {at + 1}' if long else ''}: {shown(before)} -> "
            + (shown(after) if after is not None else "(taken out)"))


@dataclass(frozen=True)
class ProblemRepair:
    """The audit's problem and its suggestions, best first (none: no
    convincing repair); ``explained_by``: the line of an earlier problem
    whose repair makes this one go away too (one slip, one problem)."""

    problem: Problem
    suggestions: tuple[Suggestion, ...] = ()
    explained_by: int | None = None

    @property
    def applied(self) -> bool:
        """Whether the top suggestion is convincing, and so applied: it fits
        better than every other, or it is the play of those that fit as well
        that the engine rates better than the others by more than an error
        (several that fit as well otherwise: the record cannot tell which,
        and none is chosen)."""
        return bool(self.suggestions) and (not self.suggestions[0].ties or self.suggestions[0].likeliest)

    def to_dict(self) -> dict:
        data = self.problem.to_dict()
        data["suggestions"] = [s.to_dict() for s in self.suggestions]
        data["applied"] = self.applied
        if self.explained_by is not None:
            data["explained_by"] = self.explained_by
        return data


@dataclass
class FileRepair:
    """What repairing a file found: each problem of its audit with its
    suggestions, the text with each problem's top repair applied, and the
    problems the repaired text still has (audited again from scratch)."""

    path: str
    format: str
    repairs: list[ProblemRepair]
    original: str
    fixed: str
    still: list[Problem] = field(default_factory=list)
    codec: str = "utf-8"   # what writes ``fixed`` back in the file's own encoding (reading.edited_bytes)

    @property
    def fixed_bytes(self) -> bytes:
        """The repaired record in the file's own encoding: the lines no repair touched byte for byte."""
        return edited_bytes(self.fixed, self.codec)

    @property
    def edits(self) -> list[LineEdit]:
        """The applied edits, by line."""
        return [e for r in self.repairs if r.applied and r.explained_by is None for e in r.suggestions[0].edits]

    def patch(self, name: str | None = None) -> bytes:
        """A unified diff from the file to the repaired record, in the file's
        own bytes (:func:`byte_diff`): `patch` applies it to the file as it is,
        whatever its encoding (UTF-16, Windows-1252, EUC-KR, Shift-JIS)."""
        return byte_diff(edited_bytes(self.original, self.codec), self.fixed_bytes, name or self.path)

    def to_dict(self) -> dict:
        return {"file": self.path, "format": self.format, "problems": [r.to_dict() for r in self.repairs],
                "still": [p.to_dict() for p in self.still]}


def byte_diff(before: bytes, after: bytes, name: str) -> bytes:
    """A unified diff of two files' bytes as `patch` reads them: lines end at
    each ``\\n`` byte (a UTF-16 line's ``\\0`` after it starts the next), each
    written as its bytes, so the hunks are in the file's own encoding and
    apply to it byte for byte (a diff decoded and written as UTF-8 applies to
    none but a UTF-8 file); a last line without its end is marked as diff
    marks it. The headers name the file ``a/NAME`` and ``b/NAME`` (patch -p1)."""
    out = []
    path = os.fsencode(name)
    for line in difflib.diff_bytes(difflib.unified_diff, _byte_lines(before), _byte_lines(after),
                                   b"a/" + path, b"b/" + path):
        out.append(line)
        if not line.endswith(b"\n"):
            out.append(b"\n\\ No newline at end of file\n")
    return b"".join(out)


def _byte_lines(data: bytes) -> list[bytes]:
    """Lines of bytes with their ends, as `patch` counts them (only ``\\n`` ends one)."""
    return [part for part in re.split(rb"(?<=\n)", data) if part]


# --- reading a text into records and problems ------------------------------------------------

def _split_lines(text: str) -> list[str]:
    """Lines with their ends, where the readers end them (reading.LINE_END: LF, CR LF, a lone CR)."""
    lines, start = [], 0
    for found in LINE_END.finditer(text):
        lines.append(text[start:found.end()])
        start = found.end()
    return lines + [text[start:]] if start < len(text) else lines


class NotLines(MatchFileError):
    """A match file of a format whose rows are not lines that an edit can change."""


def read_records(data: bytes, path: str) -> tuple[str, list[MatchRecord]]:
    """The format a text is read in and its match records; MatchFileError when
    it is not a match, or not one whose rows are lines."""
    kind = format_of(path, data[:registry.HEAD_SIZE])
    if kind.name not in LINE_FORMATS:
        raise NotLines(f"repair edits the lines of {' and '.join(LINE_FORMATS)} match files; this is {kind.name} "
                             f"(bgcli export --to mat turns it into one)", path, 1, 1)
    return kind.name, list(records_of(kind.read(io.BufferedReader(io.BytesIO(data)), path)))   # type: ignore[arg-type]


def audit_records(records: Sequence[MatchRecord], rules: Rules | None) -> list[Problem]:
    """Every problem of the records, as the audit lists them (by match, by line)."""
    return _audit(records, rules)[0]


@dataclass
class _Start:
    """The audit's replay of a match at a game's start (a copy of its replayer,
    before the game's header), and what the replay of the game and of the next
    game's header reported (``seen[begin:end]``, in the order reported): what a
    repair of the game starts from, as long as no game before it changed."""

    replayer: MatchReplayer
    seen: list[Problem]
    begin: int
    end: int = 0
    looked: _Kept | None = None   # the look-aheads of the audit's replay of the game

    def problems(self) -> list[Problem]:
        return self.seen[self.begin:self.end]


def _audit_again(records: Sequence[MatchRecord], audited: Sequence[MatchRecord], starts: list[list[_Start]],
                 rules: Rules | None) -> list[Problem]:
    """:func:`audit_records` of ``records`` (the repaired text read again),
    where each match's games before the first that differs from the audited
    record's (``audited``, whose audit kept ``starts``) are not replayed
    again: what they reported is the audit's, and the replay goes on from the
    audit's state at the first game that differs."""
    found: list[Problem] = []
    for number, record in enumerate(records, 1):
        old = audited[number - 1] if number <= len(audited) else None
        same = 0
        if old is not None and record.header() == old.header():
            limit = min(len(record.games), len(old.games) - 1)
            while same < limit and record.games[same] == old.games[same]:
                same += 1
        if not same:
            found.extend(_audit([record], rules, number)[0])
            continue
        start = starts[number - 1][same]
        visitor = _Collect()
        visitor.problems = start.seen[:start.begin]   # what the games before reported
        replayer = copy.copy(start.replayer)
        replayer.visitor = visitor
        replayer.score, replayer.starts = list(replayer.score), list(replayer.starts)
        for game in record.games[same:]:
            replayer.game(game)
        replayer.finish(MatchEnd(record.errors, record.comments))
        found.extend(sorted(visitor.problems, key=Problem.order))
    return found


def _audit(records: Sequence[MatchRecord], rules: Rules | None, first: int = 1
           ) -> tuple[list[Problem], list[list[_Start]]]:
    """:func:`audit_records` (the matches numbered from ``first``), and each match's :class:`_Start` of each game."""
    found: list[Problem] = []
    starts: list[list[_Start]] = []
    for number, record in enumerate(records, first):
        visitor = _Collect()
        replayer = MatchReplayer(record.header(), number, rules or Rules(), visitor)
        seen = visitor.problems
        mine: list[_Start] = []
        for game in record.games:
            kept = copy.copy(replayer)
            kept.score, kept.starts = list(replayer.score), list(replayer.starts)
            mine.append(_Start(kept, seen, len(seen)))
            replay = replayer.open_game(game)
            replay.resync = mine[-1].looked = _Kept(game.actions)   # a repair's prefixes of the game ask it again
            if len(mine) > 1:
                mine[-2].end = len(seen)   # the game before, with this game's header
            replay.apply_all(game.actions)
            replayer.end_game(replay)
        replayer.end_of_record()   # the last game's result from no score line, the match stopping short (as finish)
        if mine:
            mine[-1].end = len(seen)
        replayer.finish(MatchEnd(record.errors, record.comments))
        found.extend(sorted(seen, key=Problem.order))
        starts.append(mine)
    return found, starts


class _Stop(Exception):
    """A candidate's replay met an error where it was to leave none: it is not tried further."""


class _Refused(_Stop):
    """A candidate's replay reported what refuses it (:class:`_Keep`), whether it stopped there or not."""


class _Collect(MatchVisitor):
    """Problems, results and (when asked) events of a replay; with ``stop``,
    the replay stops at the first error that ``stop`` says is one too many;
    with ``keep``, as soon as what it reported refuses the candidate (what
    follows could only add to it)."""

    def __init__(self, events: bool = False, stop: Callable[[Problem], bool] | None = None, stop_line: int = 0,
                 keep: _Keep | None = None):
        self.wants_events = events
        self.problems: list[Problem] = []
        self.results: list[GameResult | Unfinished] = []
        self.events: list[Event] = []
        self.stop = stop
        self.stop_line = stop_line   # ``stop`` holds every error of the game from this line on
        self.keep = keep

    def problem(self, problem: Problem) -> None:
        keep = self.keep
        if keep is not None and problem.severity is Severity.ERROR and keep.state.counts(problem) \
                and keep.any_error_refuses(self.problems, problem.line):
            raise _Refused   # whatever the error is called (a stopping replay's is not diagnosed)
        if self.stop is not None and problem.severity is Severity.ERROR and self.stop(problem):
            raise _Stop
        self.problems.append(problem)
        if keep is not None and keep.refuses(self.problems):
            raise _Refused

    def stops_at(self, line: int) -> bool:
        # with ``keep``: where any error of the game refuses the candidate, whatever it is called
        # (a stopping replay reports a wrong play's first problem, undiagnosed, before any look-ahead)
        if self.keep is not None and self.keep.any_error_refuses(self.problems, line):
            return True
        return self.stop is not None and 0 < self.stop_line <= line

    def event(self, event: Event) -> None:
        self.events.append(event)

    def end_game(self, game: GameStart, result: GameResult | Unfinished) -> None:
        self.results.append(result)


def _key(problem: Problem) -> tuple:
    return (problem.line, problem.kind.value, problem.player)


@dataclass
class _Keep:
    """When a candidate's replay is kept (the one test of
    :meth:`_Repairer.tried`): the problem gone, fewer errors in the game than
    the record has (``errors``), no more warnings, and no error the record did
    not have (``known``). Each only grows as the replay goes on, so a replay is
    given up as soon as it is refused: a candidate that does not fit costs a
    part of its game, not the whole (with the look-ahead after every slip)."""

    state: _Game
    problem: tuple          # the problem's key
    errors: int
    warnings: int
    known: set[tuple]

    def refuses(self, problems: Sequence[Problem]) -> bool:
        if any(_key(p) == self.problem for p in problems):
            return True   # the problem is still there
        mine = [p for p in problems if self.state.counts(p)]
        errors = sum(1 for p in mine if p.severity is Severity.ERROR)
        if errors >= self.errors or len(mine) - errors > self.warnings:
            return True   # not convincing: as many problems as before, or a habit read where none was
        # a repair never makes a problem of its own
        return any(_key(p) not in self.known for p in mine if p.severity is Severity.ERROR)

    def any_error_refuses(self, problems: Sequence[Problem], line: int) -> bool:
        """Whether any error of the game at ``line``, reported after ``problems``,
        refuses the candidate: the record has none there but the problem's own,
        or one error more is as many as the record has."""
        if not any(k[0] == line and k != self.problem for k in self.known):
            return True
        return sum(1 for p in problems if p.severity is Severity.ERROR and self.state.counts(p)) + 1 >= self.errors


# --- one game's candidates --------------------------------------------------------------------

@dataclass
class _Candidate:
    kind: RepairKind
    game: GameRecord                       # the game with the edit made
    lines: dict[int, str | None]           # the file's lines the edit changes (None: taken out)
    why: str
    prior: int = 0                         # before the characters changed: 1 for a roll that uses its dice only in part
    distance: int = 0                      # after them: how far a play is from the written one (_hop_distance)
    evidence: int = 0                      # first of all: 1 for a row whose number repeats the row's before it
    play: Play | None = None               # a play candidate's legal play, and the state it is played in
    state: GameState | None = None
    likeliest: bool = False                # of plays that fit equally, the only one the engine does not rate an error
    written: bool = False                  # a play candidate near a play written (not one where none was)
    blind: bool = False                    # the record says nothing of the text but that it fits (a roll that
                                           # dances): its characters changed do not rank it, only list it
    changes: int = 0                       # characters changed in the file
    added: int = 0                         # hops written after the written play's, which it keeps whole (a hop
                                           # left out): how many
    refused: bool = False                  # its replay reported what refuses it (_Keep)
    check: _Reads | None = None            # whether its text reads as its play, asked when it comes up to be tried
    unread: bool = False                   # its text does not read as its play: it is no candidate
    seen: _Collect | None = None           # what its replay reported (when it was tried and kept)


@dataclass(frozen=True)
class _Reads:
    """Whether a play's text reads as the play in the position (the notation's
    reader decides: a chain of hops must be written in an order it can be played)."""

    text: str
    play: Play
    before: Position
    dice: tuple[int, int]
    plays: list[Play]
    side: int

    def __call__(self) -> bool:
        try:
            return parse_play(self.text, self.before, self.dice, self.plays, side=self.side).result == self.play.result
        except BgcliError:
            return False


# the audit's own diagnosis of a move's slip (bgcli.match.diagnosis): a roll that does not fit its play
# is the roll written wrong, an illegal play one slip from a legal one is the play; at equal fit the
# repair of what it names comes first
_NAMED = {ProblemKind.DICE: RepairKind.ROLL, ProblemKind.PLAY: RepairKind.PLAY}
# what a game's result says at the next game's header: its score line, a game after the match was won
_AT_HEADER = (ProblemKind.SCORE, ProblemKind.MATCH)
# what a row written twice or with its cells swapped makes the audit say
_STRUCTURAL = (ProblemKind.TURN, ProblemKind.PLAY, ProblemKind.DICE, ProblemKind.DANCE, ProblemKind.CUBE, ProblemKind.MATCH)
# a candidate's score: (errors left, warnings left, evidence, the diagnosis, the dice used, characters changed,
# distance, order); the first TIE of them equal: the record cannot tell the candidates apart
TIE = 7


class _Game:
    """A game of a match being repaired: the match's state before it, and the lines of the file."""

    def __init__(self, replayer: MatchReplayer, game: GameRecord, following: GameRecord | None,
                 right_columns: dict[ActionKind, int], beyond: GameRecord | None = None, looked: _Kept | None = None):
        self.replayer = replayer
        self.looked = looked   # the audit's look-aheads of the game (as read: a repaired game's actions are others)
        self.game = game
        self.following = following
        self.right_columns = right_columns
        self.beyond = beyond   # the game after the following one: its score line also says what this game gave
        self.prefixes: dict[int, _Prefix] = {}   # the states part-way through ``self.game``, by action
        self.prefixes_of: GameRecord | None = None

    def later_score_fits(self, winner: int, points: int) -> bool:
        """Whether this game won by ``winner`` for ``points`` fits the score
        line after the next game too, with the next game's 'Wins' as written
        (True when there is no such line to ask): a score line written wrong
        disagrees with the game before it and not with the one after it,
        while a wrong 'Wins' makes every later score line disagree."""
        beyond, following = self.beyond, self.following
        if beyond is None or following is None or beyond.scores is None or len(beyond.scores) != 2:
            return True
        wins = [a for a in following.actions if a.kind is ActionKind.WIN and a.points]
        if len(wins) != 1 or wins[0].side not in (0, 1):
            return True
        score = list(self.replayer.score)
        score[winner] += points
        score[wins[0].side] += wins[0].points or 0
        return tuple(score) == tuple(beyond.scores)

    def _match(self, replayer: MatchReplayer, visitor: MatchVisitor) -> MatchReplayer:
        """A copy of a match's replayer that reports to ``visitor`` (the score and the games' starts its own)."""
        replayer = copy.copy(replayer)
        replayer.visitor = visitor
        replayer.score = list(replayer.score)
        replayer.starts = list(replayer.starts)
        return replayer

    def prefix(self, at: int) -> _Prefix:
        """The replay of ``self.game`` up to its action ``at`` (not applied),
        from the match's state before the game; kept until the game changes.
        It goes on from the latest prefix kept before ``at`` (GameReplay.branch:
        the same actions, so the same state), not from the game's first move."""
        if self.prefixes_of is not self.game:
            self.prefixes, self.prefixes_of = {}, self.game
        found = self.prefixes.get(at)
        if found is None:
            seen = _Collect()
            base = max((k for k in self.prefixes if k < at), default=None)
            if base is None:
                replayer = self._match(self.replayer, seen)
                replay = replayer.open_game(self.game)
                replay.resync = _Watched(self.game.actions)
                replay.resync.known = self.looked
                done = 0
            else:
                earlier = self.prefixes[base]
                seen.problems, seen.results = list(earlier.seen.problems), list(earlier.seen.results)
                replayer = self._match(earlier.replayer, seen)
                replay = earlier.replay.branch(replayer, self.game)   # its _Watched copied, with what it noted
                done = base
            replay.apply_all(self.game.actions[done:at])
            watched = replay.resync
            assert isinstance(watched, _Watched)
            found = self.prefixes[at] = _Prefix(replayer, replay, seen, watched.first)
        return found

    def before(self, action: Action) -> GameState | None:
        """The state a move's event gives before ``action`` of ``self.game``
        (None where the replay gives it no event: the game over or no longer
        checked, no dice): the prefix's position seen by the mover."""
        at = next((i for i, a in enumerate(self.game.actions) if a is action), None)
        if at is None or not action.dice:
            return None
        replay = self.prefix(at).replay
        if replay.over or replay.unchecked:
            return None
        return replay.state(action.side, (max(action.dice), min(action.dice)))

    def branch_point(self, game: GameRecord, stop_line: int | None) -> int:
        """How many of ``game``'s first actions a candidate's replay takes
        from a prefix of ``self.game``: those before the first it changes and
        before ``stop_line`` (where a stopping replay acts otherwise); none
        when the header changes. A look-ahead in the prefix (where the game goes
        on after a slip) reads the actions after it: a prefix is taken only up
        to the first (those actions differ in the candidate)."""
        base = self.game
        if game is base:
            return 0
        if (game.number, game.players, game.scores, game.line, game.ratings) != \
                (base.number, base.players, base.scores, base.line, base.ratings):
            return 0
        mine, theirs = game.actions, base.actions
        at = 0
        for at, (a, b) in enumerate(zip(mine, theirs)):
            if a is not b or (stop_line is not None and a.line >= stop_line):
                break
        else:
            at = min(len(mine), len(theirs))
        first = self.prefix(at).first_lookahead
        if first is not None and first < at:
            at = first
        return at

    def replay(self, game: GameRecord, stop: Callable[[Problem], bool] | None = None,
               stop_line: int = 0, keep: _Keep | None = None) -> _Collect:
        """The game replayed from the match's state before it, and the next game's header
        (raises _Stop at an error ``stop`` names: every error of the game from ``stop_line`` on;
        and as soon as ``keep`` refuses it); the actions it shares with ``self.game`` before
        the first it changes taken from a prefix (:meth:`branch_point`), not replayed again."""
        seen = _Collect(False, stop, stop_line, keep)
        at = self.branch_point(game, stop_line if stop is not None else None)
        if at:
            prefix = self.prefix(at)
            seen.problems = list(prefix.seen.problems)
            seen.results = list(prefix.seen.results)
            if keep is not None and keep.refuses(seen.problems):
                raise _Refused
            replayer = self._match(prefix.replayer, seen)
            replay = prefix.replay.branch(replayer, game)
            replay.apply_all(game.actions[at:])
            replayer.end_game(replay)
        else:
            replayer = self._match(self.replayer, seen)
            replayer.game(game)
        if self.following is not None:
            replayer.game(replace(self.following, actions=()))   # its header only: the score line
        else:
            # the match's last game: what the record's end says of it (no score line follows; a whole match must
            # be over: a 'Wins' worth less than the winner needed leaves it short, as the audit warns)
            replayer.end_of_record()
        return seen

    def errors(self, seen: _Collect) -> tuple[int, int]:
        mine = [p for p in seen.problems if self.counts(p)]
        errors = sum(1 for p in mine if p.severity is Severity.ERROR)
        return errors, len(mine) - errors

    def counts(self, problem: Problem) -> bool:
        """Whether a problem belongs to the game (or to the next game's score line)."""
        return problem.game == self.game.number or (self.following is not None and problem.line == self.following.line
                                                    and problem.kind in _AT_HEADER)


class _Kept(Resync):
    """The audit's look-ahead of a game, which keeps where each look-ahead went
    on, what it found and the budget it took, by what it was asked and the
    budget it had: all that a look-ahead of the same actions depends on."""

    def __init__(self, actions: Sequence[Action]):
        super().__init__(actions)
        self.kept: dict[tuple, tuple[Position | None, bool, int]] = {}

    def resume(self, side: int, before: Position, dice: tuple[int, int], written: Position | None,
               index: int, want_rivals: bool = False) -> Position | None:
        budget = self.budget
        found = super().resume(side, before, dice, written, index, want_rivals)
        self.kept[(side, before, dice, written, index, want_rivals, budget)] = \
            (found, self.written_fits_best, budget - self.budget)
        return found


class _Watched(Resync):
    """A game's look-ahead that notes the first action it resumes after (``first``, an index of the game's
    actions); with ``known`` (the audit's :class:`_Kept` of the same actions), a look-ahead the audit made
    is taken from it, not made again (a prefix past a slip: the look-ahead costs a part of the game's audit)."""

    first: int | None = None
    known: _Kept | None = None

    def resume(self, side: int, before: Position, dice: tuple[int, int], written: Position | None,
               index: int, want_rivals: bool = False) -> Position | None:
        if self.first is None:
            self.first = index
        known = self.known
        if known is not None and known.actions is self.actions:   # a candidate's own actions are not the audit's
            hit = known.kept.get((side, before, dice, written, index, want_rivals, self.budget))
            if hit is not None:
                found, self.written_fits_best, used = hit
                self.budget -= used
                return found
        return super().resume(side, before, dice, written, index, want_rivals)


@dataclass
class _Prefix:
    """A game replayed up to one of its actions: the match's replayer, the game's
    replay, what it reported, and the first action it looked ahead after (or None)."""

    replayer: MatchReplayer
    replay: GameReplay
    seen: _Collect
    first_lookahead: int | None


def _same_width(line: str, at: int, old: int, new: str) -> str:
    """``line`` with ``old`` characters at ``at`` replaced by ``new``, eating or
    adding blanks after it so that what follows keeps its column when it can."""
    rest = line[at + old:]
    grow = len(new) - old
    if grow > 0 and rest[:grow].strip() == "" and (len(rest) <= grow or rest[grow] in " \t") and rest.strip():
        rest = rest[grow:]
    elif grow > 0 and not rest.strip():
        rest = rest[grow:] if len(rest) > grow else rest[:1]
    elif grow < 0 and rest.strip():
        rest = " " * (-grow) + rest
    return line[:at] + new + rest


def _edit_cell(text: str, action: Action, new: str, row: Sequence[Action], right_columns: dict[ActionKind, int]
               ) -> str | None:
    """The line ``text`` with ``action``'s cell written as ``new``; the cell to
    its right kept at its column, or moved to the file's usual right column
    for a cell of its kind (a roll's, a cube action's) when a slip had moved it."""
    raw = action.raw
    at = action.column - 1
    if text[at:at + len(raw)] != raw:
        at = text.find(raw)
        if at < 0 or not raw:
            return None
    edited = _same_width(text, at, len(raw), new)
    right = [a for a in row if a.side == 1 and a is not action and a.column > action.column]
    right_column = right_columns.get(right[0].kind, 0) if right else 0
    if action.side == 0 and right and right_column:
        cell = right[0].raw
        where = edited.find(cell, at + len(new))
        gap = edited[at + len(new):where]
        if where >= 0 and where != right_column - 1 and not gap.strip() and at + len(new) < right_column - 1:
            edited = edited[:at + len(new)] + " " * (right_column - 1 - at - len(new)) + edited[where:]
    return edited


def _roll_text(action: Action, roll: tuple[int, int]) -> str:
    """The roll as the cell writes it (the written order of the dice, as the reader read them: high first if it was)."""
    written = action.dice
    high_first = not written or written[0] >= written[1]
    return recorded_text(roll if high_first else roll[::-1])


def _play_steps(play: Play, written: list[tuple[int, int]]) -> str:
    """A legal play in .mat pairs, in the order the written hops had them
    (a changed hop where it stood, the others after), one pair a die; the
    hit marked on the first step that lands on a hit point in that order."""
    steps = [(s.start, s.end) for s in play.steps]
    hit = Counter(s.end for s in play.steps if s.hit)
    out: list[tuple[int, int]] = []
    for hop in written:
        match = next((s for s in steps if s == hop), None) or next((s for s in steps if s[0] == hop[0]), None)
        if match is not None:
            steps.remove(match)
            out.append(match)
    out.extend(steps)
    words = []
    for start, end in out:
        mark = hit[end] > 0
        if mark:
            hit[end] -= 1
        words.append(f"{start}/{end}" + ("*" if mark else ""))
    return " ".join(words)


def _spellings(play: Play) -> Iterable[Play]:
    """The play, and the same play with a chain of two hops (13/11 11/5) run
    through the other die's point (13/7 7/5): one result, written two ways."""
    yield play
    steps = list(play.steps)
    for i, first in enumerate(steps):
        for j, second in enumerate(steps):
            if i != j and first.end == second.start and first.start - first.end != second.start - second.end:
                middle = first.start - (second.start - second.end)
                other = [s for k, s in enumerate(steps) if k not in (i, j)]
                yield Play(other + [Step(first.start, middle), Step(middle, second.end, second.hit or first.hit)],
                           play.result)


def _spells(play: Play, before: Position, dice: tuple[int, int], side: int, plays: list[Play]) -> bool:
    """Whether the play's steps, written in their order, are the play (the generator says; ``plays``: the legal
    plays of ``dice``, listed once for all the plays asked about)."""
    try:
        return parse_play(_play_steps(play, []), before, dice, plays, side=side).result == play.result
    except BgcliError:
        return False


def _written_hops(text: str, side: int) -> list[tuple[int, int]] | None:
    try:
        return [(int(a), int(b)) for a, b in parse_play_text(numbered_text(text, side=side)).hops()]
    except BgcliError:
        return None


def _hop_distance(written: list[tuple[int, int]] | None, play: Play, text: str) -> int:
    """How far a legal play is from the written hops: hops not shared (or characters, when unreadable)."""
    if written is None:
        return edit_distance(text, _play_steps(play, []))
    theirs = Counter((s.start, s.end) for s in play.steps)
    ours = Counter(written)
    extra, missing = list((theirs - ours).elements()), list((ours - theirs).elements())
    # a hop from the same point to another end is one slip (a digit); any other difference two
    moved = 0
    for hop in missing:
        same = next((other for other in extra if other[0] == hop[0]), None)
        if same is not None:
            extra.remove(same)
            moved += 1
    return moved + 2 * (len(extra) + len(missing) - moved)


# The cells of the edit distance's table past which two texts are weighed as rewritten whole (an upper bound):
# a tenth of a second of bit operations, a thousand times two lines of a real record (a play is at most 200
# characters). Two lines of 100 kB that differ in 43 characters took 13 s a candidate, and repair minutes.
_TABLE_BOUND = 1 << 27


def edit_distance(a: str, b: str) -> int:
    """Characters inserted, taken out or changed to turn ``a`` into ``b``: the
    edit distance, a column of the table at a time in the bits of two
    integers (Myers' bit-vector method, as Hyyrö writes it for the whole
    strings); a common head and tail taken off first. Past _TABLE_BOUND cells,
    the longer text's length (an upper bound)."""
    if a == b:
        return 0
    # the head and tail counted, then cut once: cut a character at a time, the rest was copied each time
    shorter = min(len(a), len(b))
    head = 0
    while head < shorter and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < shorter - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    a, b = a[head:len(a) - tail], b[head:len(b) - tail]
    if not a or not b:
        return len(a) + len(b)
    if len(a) * len(b) > _TABLE_BOUND:   # no line of a real record: its middle counted as rewritten whole
        return max(len(a), len(b))
    # the bits hold the longer, the loop walks the shorter (the distance is the same both ways): a play of
    # 300 kB weighed against each legal play looped 300,000 times a candidate, and repair took minutes
    if len(a) < len(b):
        a, b = b, a
    present = set(a)
    matches = {c: _places(a, c) for c in set(b) if c in present}   # for each character, where ``a`` holds it
    full, top = (1 << len(a)) - 1, 1 << (len(a) - 1)
    up, down, score = full, 0, len(a)   # the column's vertical +1 and -1 steps; the distance at its foot
    for c in b:
        eq = matches.get(c, 0)
        xv = eq | down
        xh = (((eq & up) + up) ^ up) | eq
        right_up = down | ~(xh | up)
        right_down = up & xh
        if right_up & top:
            score += 1
        elif right_down & top:
            score -= 1
        right_up = (right_up << 1) | 1
        right_down <<= 1
        up = (right_down | ~(xv | right_up)) & full
        down = right_up & xv & full
    return score


@functools.lru_cache(maxsize=64)
def _places(text: str, c: str) -> int:
    """The bits of the places of ``text`` that hold ``c`` (bit i: ``text[i]``), made by str.translate in one
    pass: set a bit at a time, each step copied the integer so far (quadratic in a long line)."""
    table = dict.fromkeys(map(ord, set(text)), "0")
    table[ord(c)] = "1"
    return int(text[::-1].translate(table), 2)


def _exact_use(hops: list[tuple[int, int]] | None, roll: tuple[int, int]) -> bool:
    """Whether every written hop is one die of the roll, each die used (a bear-off from below a die not exact)."""
    if not hops:
        return False
    dice = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)
    lengths = [a - b for a, b in hops]
    return sorted(lengths) == sorted(dice[:len(lengths)]) and len(lengths) == len(dice)


class _Repairer:
    def __init__(self, text: str, records: list[MatchRecord], rules: Rules | None):
        self.rules = rules
        self.records = records
        self.raw_lines = _split_lines(text)
        self.lines: dict[int, str] = {}
        self.ends: dict[int, str] = {}
        for number, raw in enumerate(self.raw_lines, 1):
            body = raw.rstrip("\r\n")
            self.lines[number] = body
            self.ends[number] = raw[len(body):]
        self.taken: set[int] = set()
        # the file's usual right column of a roll's cell, and of a cube action's (gnubg's .mat writes
        # ' Doubles => 2' a column further along than a roll)
        self.right_columns: dict[ActionKind, int] = {}
        for kinds in (_DICE_CELLS, _CUBE_CELLS):
            columns = Counter(a.column for r in records for g in r.games for a in g.actions
                              if a.side == 1 and a.kind in kinds)
            self.right_columns.update(dict.fromkeys(kinds, columns.most_common(1)[0][0] if columns else 0))

    def text(self) -> str:
        return "".join(self.lines[n] + self.ends[n] for n in sorted(self.lines) if n not in self.taken)

    def run(self, wrong: set[tuple[int, int]], starts: list[list[_Start]]) -> list[ProblemRepair]:
        """Each game with an error (``wrong``: (match, game) pairs) worked on in
        turn, from the audit's state at its start (``starts``) while no game
        before it in its match changed; after a repair the games that follow
        are replayed from the repaired one."""
        done: list[ProblemRepair] = []
        for number, record in enumerate(self.records, 1):
            last = max((g for m, g in wrong if m == number), default=None)
            if last is None:
                continue   # nothing wrong in the match: not replayed again
            replayer: MatchReplayer | None = None   # the match replayed on from the first game that changed
            games = list(record.games)
            for index, game in enumerate(games):
                if game.number > last:
                    break   # the games after the last wrong one are not worked on
                following = games[index + 1] if index + 1 < len(games) else None
                beyond = games[index + 2] if index + 2 < len(games) else None
                start = starts[number - 1][index]
                if (number, game.number) in wrong:
                    state = _Game(replayer or start.replayer, game, following, self.right_columns, beyond, start.looked)
                    games[index], found = self.game(state, None if replayer else start.problems())
                    done.extend(found)
                if replayer is None and games[index] is not game:
                    replayer = copy.copy(start.replayer)
                    replayer.visitor = _Collect()
                    replayer.score, replayer.starts = list(replayer.score), list(replayer.starts)
                if replayer is not None:
                    replayer.game(games[index])
        return done

    def game(self, state: _Game, audited: list[Problem] | None = None) -> tuple[GameRecord, list[ProblemRepair]]:
        """The game's problems worked on one after another (``audited``: what
        the audit's replay of it reported, when the state it started from is
        the audit's)."""
        game = state.game
        if audited is not None:
            seen = _Collect()
            seen.problems = list(audited)
        else:
            seen = state.replay(game)
        if not any(p.severity is Severity.ERROR and state.counts(p) for p in seen.problems):
            return game, []
        worked: set[tuple] = set()
        found: list[ProblemRepair] = []
        for _ in range(ROUNDS):
            errors = [p for p in seen.problems if state.counts(p) and p.severity is Severity.ERROR
                      and _key(p) not in worked]
            if not errors:
                break
            problem = errors[0]
            worked.add(_key(problem))
            before = state.errors(seen)
            known = {_key(p) for p in seen.problems if state.counts(p) and p.severity is Severity.ERROR}
            suggestions, best = self.suggest(state, game, problem, known, before)
            found.append(ProblemRepair(problem, tuple(suggestions)))
            if best is not None and found[-1].applied:
                game = best.game
                for line, text in best.lines.items():
                    if text is None:
                        self.taken.add(line)
                    else:
                        self.lines[line] = text
                # what the replay of the repaired game reports: the best candidate's own, whole (it did not stop)
                seen = best.seen if best.seen is not None else state.replay(game)
                state.game = game
        return game, found

    def suggest(self, state: _Game, game: GameRecord, problem: Problem, known: set[tuple], before: tuple[int, int]
                ) -> tuple[list[Suggestion], _Candidate | None]:
        named = _NAMED.get(problem.kind)   # what the audit's diagnosis says was written wrong (match.diagnosis)
        # what can be known of a candidate without replaying it: tried in that order
        made = list(self.candidates(state, game, problem))
        for candidate in made:
            candidate.changes = sum(edit_distance(self.lines.get(line, ""), text if text is not None else "")
                                    for line, text in candidate.lines.items())
        # a hop left out is left out whole: the digits of its points say nothing of which it was, so the
        # plays that write the same number of hops after the written ones rank as the fewest characters of them
        fewest: dict[int, int] = {}
        for candidate in made:
            if candidate.added:
                fewest[candidate.added] = min(fewest.get(candidate.added, candidate.changes), candidate.changes)
        staged = []
        for order, candidate in enumerate(made):
            other = int(named is not None and candidate.kind is not named)
            changes = 0 if candidate.blind else fewest[candidate.added] if candidate.added else candidate.changes
            staged.append(((-candidate.evidence, other, candidate.prior, changes, candidate.distance, order), candidate))
        staged.sort(key=lambda item: item[0])
        scored = self.tried(state, problem, staged, before, known, quick=True) or \
            self.tried(state, problem, staged, before, known, quick=False)
        scored = _engine_first(scored)
        out = []
        for key, candidate in scored[:SHOWN]:
            ties = sum(1 for other, _ in scored if other[:TIE] == key[:TIE]) - 1
            edits = tuple(LineEdit(line, self.lines.get(line, ""), text) for line, text in sorted(candidate.lines.items()))
            out.append(Suggestion(candidate.kind, edits, key[0], key[1], candidate.changes, candidate.why, ties,
                                  candidate.likeliest))
        return out, scored[0][1] if scored else None

    def tried(self, state: _Game, problem: Problem, staged: list, before: tuple[int, int], known: set[tuple],
              quick: bool) -> list:
        """The candidates that fit better than the record, with their scores.
        ``quick``: first those after which nothing is wrong from the problem's
        line on, each replay stopped at its first error there, tried in the
        order of what is known without replaying (``staged``) until one fits
        and those that tie with it are tried (with a few more to fill the list).
        Else every candidate is replayed whole and ranked by what it leaves
        (but those the quick pass saw refused: until it stopped or refused
        one, a quick replay is the whole one)."""
        def stop(found: Problem) -> bool:
            return found.line >= problem.line and state.counts(found)

        keep = _Keep(state, _key(problem), before[0], before[1], known)
        scored = []
        clean: tuple | None = None   # the first candidate after which nothing is wrong from the line on
        more = 0
        for static, candidate in staged:
            if candidate.check is not None:   # asked once, before anything counts it
                check, candidate.check = candidate.check, None
                candidate.unread = not check()
            if candidate.unread:
                continue
            if clean is not None and static[:TIE - 2] != clean[:TIE - 2]:
                more += 1
                if more >= SHOWN:
                    break
            if candidate.refused:
                continue
            try:
                after = state.replay(candidate.game, stop=stop if quick else None, stop_line=problem.line, keep=keep)
            except _Refused:
                candidate.refused = True
                continue
            except _Stop:
                continue
            if keep.refuses(after.problems):
                candidate.refused = True
                continue
            errors, warnings = state.errors(after)
            if clean is None and quick:
                clean = static
            candidate.seen = after
            scored.append(((errors, warnings) + static, candidate))
        scored.sort(key=lambda item: item[0])
        return scored

    # the candidates of each kind of problem
    def candidates(self, state: _Game, game: GameRecord, problem: Problem) -> Iterable[_Candidate]:
        """The candidates of a problem of ``game`` (``state.game``)."""
        row = [a for a in game.actions if a.line == problem.line]
        if problem.kind is ProblemKind.SCORE and problem.line == game.line:
            yield from self.score(state, game)
            return
        if problem.kind in _AT_HEADER and state.following is not None and problem.line == state.following.line:
            # the next game's score line disagrees with this game's result: the 'Wins' line may be wrong
            # (a figure the audit read as an archive's habit, which says nothing against it)
            for action in game.actions:
                if action.kind is ActionKind.WIN:
                    yield from self.points(state, game, action, every=True)
            return
        names = state.replayer.players_of(game)   # the first game's too: its copy is taken before it begins
        mine = [a for a in row if not problem.player or names[a.side] == problem.player] or row
        if problem.kind in _STRUCTURAL:
            # the replay up to the first row a candidate may change, first: the prefixes of the rows
            # after it go on from it (a row written twice or swapped is looked for above the problem)
            state.prefix(next((i for i, a in enumerate(game.actions) if a.line >= problem.line - TWICE_BACK), 0))
        for action in mine:
            if action.kind in (ActionKind.MOVE, ActionKind.DANCE, ActionKind.ILLEGAL) and problem.kind in (
                    ProblemKind.DICE, ProblemKind.PLAY, ProblemKind.DANCE):
                yield from self.move(state, game, action)
            elif action.kind in (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON) and problem.kind is ProblemKind.CUBE:
                yield from self.cube(state, game, action)
            elif action.kind is ActionKind.WIN and problem.kind is ProblemKind.POINTS:
                yield from self.points(state, game, action, every=True)   # the next score line judges
        if problem.kind in _STRUCTURAL:
            # a row whose cells were swapped may replay legally, and the row after it not
            for line in range(problem.line, problem.line - TWICE_BACK - 1, -1):
                cells = [a for a in game.actions if a.line == line]
                if len(cells) == 2:
                    yield from self.swap(state, game, cells)
        if problem.kind in _STRUCTURAL:
            # a row written twice: the copy may replay legally, and the row after it not
            rows = sorted({a.line for a in game.actions if problem.line - TWICE_BACK <= a.line <= problem.line},
                          reverse=True)
            dropped: set[str] = set()
            for line in rows:
                body = self.row_body(line)
                if self.twice(line) and body not in dropped:   # of two equal rows, one (the later) is taken out
                    dropped.add(body)
                    yield self.drop(game, line)

    def row_body(self, number: int) -> str:
        """A row's text without its number ('' for a line taken out)."""
        return mat.row_body(self.lines.get(number, "")).strip() if number not in self.taken else ""

    def twice(self, line: int) -> bool:
        """Whether a row says what the row before or after it says (its number aside): written twice."""
        mine = self.row_body(line)
        return bool(mine) and mine in (self.row_body(line - 1), self.row_body(line + 1))

    def changed(self, game: GameRecord, action: Action, new: Action, state: _Game) -> dict[int, str | None] | None:
        row = [a for a in game.actions if a.line == action.line]
        text = _edit_cell(self.lines[action.line], action, new.raw, row, state.right_columns)
        return None if text is None else {action.line: text}

    def with_action(self, game: GameRecord, action: Action, new: Action) -> GameRecord:
        return replace(game, actions=tuple(new if a is action else a for a in game.actions))

    def make(self, kind: RepairKind, state: _Game, game: GameRecord, action: Action, new: Action, why: str,
             prior: int = 0) -> _Candidate | None:
        lines = self.changed(game, action, new, state)
        if lines is None:
            return None
        return _Candidate(kind, self.with_action(game, action, new), lines, why, prior)

    def move(self, state: _Game, game: GameRecord, action: Action) -> Iterable[_Candidate]:
        at = state.before(action)   # the state before the move, as its event gives it
        if at is None or not action.dice:
            return
        before: Position = at.position
        side = action.side
        dice = (max(action.dice), min(action.dice))
        text = (action.play_text or "").strip() if action.kind is not ActionKind.ILLEGAL else ""
        raw = action.raw
        hops = _written_hops(text, side) if text else None
        # the rolls the written play (or the dance) is legal for; for a dance, every roll that dances fits
        # the rest of the record alike (a dance changes nothing that follows): the likelier listed first
        # (a non-double is thrown 2 times in 36, a double once), then those nearer the written digits
        if action.kind is ActionKind.ILLEGAL:
            rolls: list[tuple[int, int]] = []
        elif text:
            rolls = ALL_ROLLS
        else:
            digits = raw[:2]
            rolls = sorted(ALL_ROLLS, key=lambda r: (-throws(r), sum(a != b for a, b in zip(digits, _roll_text(action, r)))))
        fitting = {roll for roll, _ in plays_of_rolls(text, before, [r for r in rolls if r != dice], side=side)} \
            if text else set()
        for roll in rolls:
            if roll == dice:
                continue
            if text:
                if roll not in fitting:
                    continue
                why = f"{quote(text)} is a legal play of {recorded_text(roll)}"
            elif legal_plays(before, roll):
                continue
            else:
                chances = throws(roll)
                why = f"{recorded_text(roll)} has no legal play: the player danced ({chances} chance{'s' if chances > 1 else ''} in 36)"
            new_raw = _roll_text(action, roll) + raw[2:]
            candidate = self.make(RepairKind.ROLL, state, game, action,
                                  action._replace(dice=roll, raw=new_raw), why,
                                  0 if not text or _exact_use(hops, roll) else 1)
            if candidate is not None:
                candidate.blind = not text
                yield candidate
        # the legal plays of the written roll, nearest the written play first
        plays = legal_plays(before, dice)
        if not plays:
            return
        if text:
            spelt = []
            for play in plays:   # each play as its spelling nearest the written one (that spells it)
                options = sorted((((_hop_distance(hops, p, text), _play_steps(p, hops or [])), p) for p in _spellings(play)),
                                 key=lambda item: item[0])   # each spelling's nearness worked out once
                spelt.append(next(item for item in options if item[1] is play or _spells(item[1], before, dice, side, plays)))
            ranked = sorted(spelt, key=lambda item: item[0])[:NEAREST_PLAYS]   # ((distance, text in the order written), play)
        else:
            ranked = sorted((((0, _play_steps(p, [])), p) for p in plays), key=lambda item: item[0][1])[:MISSING_PLAYS]
        prefix = raw[:raw.index(":") + 1] if ":" in raw else _roll_text(action, dice) + ":"
        for (distance, body), play in ranked:
            plain = body if not hops else _play_steps(play, [])
            check = None
            if body == plain:
                # the order written must replay as the play (a chain of hops in its order): asked only
                # when the candidate comes up to be tried (most never are); its text is the same either way
                check = _Reads(body, play, before, dice, plays, side)
            elif not _Reads(body, play, before, dice, plays, side)():
                body = plain
                if not _Reads(body, play, before, dice, plays, side)():
                    continue
            why = (f"{body!r} is a legal play of {recorded_text(dice)} near {quote(text)}" if text
                   else f"{body!r} is a legal play of {recorded_text(dice)}, where none was written")
            candidate = self.make(RepairKind.PLAY, state, game, action,
                                  action._replace(kind=ActionKind.MOVE, play_text=body, raw=f"{prefix} {body}"), why)
            if candidate is not None:
                candidate.check = check
                candidate.distance = distance
                if text and body.startswith(text + " "):
                    candidate.added = len(body.split()) - len(text.split())
                candidate.play, candidate.state, candidate.written = play, at, bool(text)
                yield candidate

    def cube(self, state: _Game, game: GameRecord, action: Action) -> Iterable[_Candidate]:
        renumbered = mat.renumbering(action.raw)
        if renumbered is None:   # a bare 'Doubles': no value written to change
            return
        for value in turns(12)[1:]:   # every value up to twelve turns of the cube
            if value == action.cube:
                continue
            new_raw = renumbered(value)
            candidate = self.make(RepairKind.CUBE, state, game, action, action._replace(cube=value, raw=new_raw),
                                  f"the cube is turned to {value}")
            if candidate is not None:
                yield candidate

    def points(self, state: _Game, game: GameRecord, action: Action, every: bool = False) -> Iterable[_Candidate]:
        """What the game is worth, as the replay values it; with ``every``, also a
        single, a gammon and a backgammon at its cube (the next score line judges)."""
        renumbered = mat.renumbering(action.raw)
        if renumbered is None:
            return
        result = next((r for r in state.replay(game).results if isinstance(r, GameResult)), None)
        values = sorted(({result.points} | ({result.cube * k for k in STANDARD_WORTH} if every else set()))
                        if result is not None else set())
        resigned = result is not None and result.result is Outcome.RESIGNATION
        possible = self.still_possible(state, action, result.winner_side) if resigned and result is not None else None
        for value in values:
            if value == action.points:
                continue
            new_raw = renumbered(value)
            # what the replay itself values the game at (a resignation's value is the record's word alone)
            worth = result is not None and value == result.points and not resigned
            if not worth and result is not None and not state.later_score_fits(result.winner_side, value):
                continue   # the next score line is the slip, not this 'Wins' (one slip, one problem)
            # a resignation stands for a win the game may still give: one it can no longer give comes after
            beyond = possible is not None and value not in possible
            candidate = self.make(RepairKind.POINTS, state, game, action, action._replace(points=value, raw=new_raw),
                                  f"the game is worth {points_word(value)}" if worth else
                                  f"{points_word(value)} fits the score that follows"
                                  + (", but the final position can no longer give it" if beyond else ""),
                                  prior=0 if worth else 2 if beyond else 1)
            if candidate is not None:
                candidate.blind = resigned   # the digits written say nothing of what a resignation was worth
                yield candidate

    def still_possible(self, state: _Game, action: Action, winner: int) -> set[int] | None:
        """What a resignation at ``action`` (a 'Wins' of ``state.game``) may
        stand for: the points of each win the position before it may still
        give (core.value.possible_wins: no gammon once the loser has borne a
        checker off, no backgammon once no loser's checker can be caught in
        or sent back to the winner's home board), at its cube and rules."""
        at = next((i for i, a in enumerate(state.game.actions) if a is action), None)
        if at is None:
            return None
        replay = state.prefix(at).replay
        board, rules, cube = replay.board, replay.rules, replay.cube
        wins = possible_wins(board, winner_is_player=winner == 0, home_gammons=rules.home_gammons,
                             contact=is_contact(board), variation=rules.variation)
        return {game_value(win, cube.value, rules, cube.centred, replay.needed(winner)) for win in wins}

    def score(self, state: _Game, game: GameRecord) -> Iterable[_Candidate]:
        running = tuple(state.replayer.score)
        for line in range(game.line + 1, game.line + 3):
            text = self.lines.get(line, "")
            spans = mat.score_spans(text)
            if spans is None:
                continue
            new = text
            for (start, end), value in sorted(zip(spans, running), key=lambda item: -item[0][0]):
                new = _same_width(new, start, end - start, str(value))
            yield _Candidate(RepairKind.SCORE, replace(game, scores=(running[0], running[1])), {line: new},
                             f"the games before give {running[0]}-{running[1]}")
            return

    def swap(self, state: _Game, game: GameRecord, row: list[Action]) -> Iterable[_Candidate]:
        left, right = sorted(row, key=lambda a: a.column)
        if left.side == right.side:
            return
        text = self.lines[left.line]
        at, to = left.column - 1, right.column - 1
        if text[at:at + len(left.raw)] != left.raw or text[to:to + len(right.raw)] != right.raw:
            return
        width = to - at
        new = text[:at] + right.raw.ljust(width - 1) + " " + left.raw + text[to + len(right.raw):]
        actions = tuple(a._replace(side=right.side, column=right.column) if a is left else
                        a._replace(side=left.side, column=left.column) if a is right else a for a in game.actions)
        order = sorted(range(len(actions)), key=lambda i: (actions[i].line, actions[i].column))
        yield _Candidate(RepairKind.SWAP, replace(game, actions=tuple(actions[i] for i in order)), {left.line: new},
                         "each player's action stands in the other's column")

    def drop(self, game: GameRecord, line: int) -> _Candidate:
        numbers = [a.move_number for a in game.actions if a.line in (line - 1, line) and a.move_number is not None]
        repeated = len(numbers) >= 2 and len(set(numbers)) == 1   # "7)" twice: the row was written again
        return _Candidate(RepairKind.DROP, replace(game, actions=tuple(a for a in game.actions if a.line != line)),
                          {line: None}, "the row is written twice" + (" (its number too)" if repeated else ""),
                          evidence=int(repeated))


_ENGINE: list = []   # the engine that orders plays that fit equally, opened once a process ([] not yet, [None] none)


def _engine_first(scored: list) -> list:
    """Plays that fit equally well at the top (the record cannot tell them
    apart), in the order the default engine at 0 plies rates them, best
    first: the players' likeliest play is shown first. When the engine rates
    every other play of the tie worse than the first by more than gnubg's
    mark of an error (``BAD``), the first is the likeliest by a margin (a
    player seldom errs that much where a sound play fits the record as well)
    and is applied; otherwise the tie is listed, none applied. Only where a
    play was written: where none was (Snowie's 'Illegal play'), the record
    says nothing of the play, and a guess is not applied. Unchanged without
    the engine."""
    if len(scored) < 2:
        return scored
    top = scored[0][0][:TIE]
    tied = [item for item in scored if item[0][:TIE] == top]
    if len(tied) < 2 or any(c.play is None or c.state is None for _, c in tied):
        return scored
    first = tied[0][1]
    if any(c.state is not first.state for _, c in tied):
        return scored
    if not _ENGINE:
        try:
            from bgcli.engines import open_engine

            _ENGINE.append(open_engine("sage", 0))
        except Exception:   # no engine installed, or it cannot start: the order stays as it was
            _ENGINE.append(None)
    engine = _ENGINE[0]
    if engine is None:
        return scored
    try:
        dice = first.state.match.dice   # the engine evaluates every legal play of the roll, as it checks
        ranked = engine.evaluate_plays(first.state, dice, legal_plays(first.state.position, dice))
    except Exception:
        return scored
    order = {evaluation.play.result: rank for rank, evaluation in enumerate(ranked)}
    tied.sort(key=lambda item: order.get(item[1].play.result, len(order)))
    worth = {e.play.result: (e.evaluation.equity, e.ply) for e in ranked}
    values = [worth.get(c.play.result) for _, c in tied]
    best = tied[0][1]
    best.why += f"; of the {len(tied)} that fit as well, the one the engine rates best"
    if all(c.written for _, c in tied) and all(v is not None for v in values) and len({v[1] for v in values if v is not None}) == 1 \
            and all(values[0][0] - v[0] > BAD for v in values[1:] if v is not None and values[0] is not None):
        best.likeliest = True   # a shallow value is never compared with a deep one (one ply for all)
        best.why += f", the others by more than an error ({BAD} in equity)"
    return tied + scored[len(tied):]


def repair_text(data: bytes, path: str = "-", rules: Rules | None = None) -> FileRepair:
    """Repair suggestions for a match file's bytes (see the module docstring)."""
    name, records = read_records(data, path)
    text, codec = editable_text(data)   # written back in the file's own encoding (bgcli.formats.reading)
    original, starts = _audit(records, rules)
    wrong = {(p.match, p.game) for p in original if p.severity is Severity.ERROR}
    if not wrong:   # nothing to repair: what the audit costs, nothing more
        return FileRepair(path, name, [ProblemRepair(problem) for problem in original], text, text, original, codec)
    # a game's score line that disagrees may say the game before it was written wrong
    wrong |= {(p.match, p.game - 1) for p in original if p.severity is Severity.ERROR and p.kind in _AT_HEADER}
    repairer = _Repairer(text, records, rules)
    worked = {_key(r.problem): r for r in repairer.run(wrong, starts)}
    fixed = repairer.text()
    applied = [e for r in worked.values() if r.applied for e in r.suggestions[0].edits]
    still: list[Problem] = []
    if applied:
        try:
            still = _audit_again(read_records(edited_bytes(fixed, codec), path)[1], records, starts, rules)
        except BgcliError as exc:   # never expected: the repaired text is what the edits made of a readable one
            still = [Problem(1, 0, 0, "", ProblemKind.SYNTAX, f"the repaired text cannot be read: {exc}")]
    else:
        still = original
    repairs: list[ProblemRepair] = []
    fixed_keys = {_key(p) for p in still}
    for problem in original:
        key = _key(problem)
        if key in worked:
            repairs.append(replace(worked[key], problem=problem))
            continue
        earlier = [r for k, r in worked.items() if r.applied and k[0] <= problem.line
                   and r.problem.match == problem.match and r.problem.game == problem.game]
        if problem.severity is Severity.ERROR and key not in fixed_keys and earlier:
            repairs.append(ProblemRepair(problem, (), max(r.problem.line for r in earlier)))
        else:
            repairs.append(ProblemRepair(problem))
    return FileRepair(path, name, repairs, text, fixed, still, codec)


def suggested_problems(data: bytes, path: str = "-", rules: Rules | None = None) -> tuple[list[dict], int] | None:
    """The audit's problems of a file's bytes, each with its ``suggestions``
    (``audit --suggest``), and how many games it holds; None for a format
    whose rows are not lines (the plain audit then speaks alone)."""
    try:
        _, records = read_records(data, path)
    except NotLines:
        return None
    found = repair_text(data, path, rules)
    return [r.to_dict() for r in found.repairs], sum(len(r.games) for r in records)


REPAIR_LIMIT = 64 << 20   # bytes: a repair holds the text a few times over; no match record is near this


def repair_file(path: str, rules: Rules | None = None, read: Callable[[str], bytes] | None = None) -> FileRepair:
    """:func:`repair_text` of a file (``-``: standard input)."""
    if read is None:
        import sys

        from bgcli.formats.reading import read_whole

        # read with a bound: /dev/zero (any endless or huge file) was read whole until memory ran out
        if path == "-":
            data = read_whole(sys.stdin.buffer, path, "a match to repair", REPAIR_LIMIT)
        else:
            with open(path, "rb") as handle:
                data = read_whole(handle, path, "a match to repair", REPAIR_LIMIT)
    else:
        data = read(path)
    return repair_text(data, path, rules)


__all__ = ["FileRepair", "byte_diff", "LineEdit", "edit_distance", "NotLines", "ProblemRepair", "RepairKind", "Suggestion", "audit_records", "read_records",
           "repair_file", "repair_text", "suggested_problems", "suggestion_text"]
