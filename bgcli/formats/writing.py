"""What every match writer shares: a replay visitor that hands over one game
at a time, and the steps of a recorded play in the order to write them.

The steps of a play are written in the order recorded when the record gives
one die per step and that order replays to the legal play (so a gnubg file
is written back line for line); otherwise in the order gnubg's importer
uses, by decreasing start point, then decreasing end point. Hits are marked
from the board, not from the text. An illegal play keeps what was written,
as far as it can be applied.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

from bgcli.errors import BgcliError
from bgcli.formats.protocol import Lack
from bgcli.match.records import Action, ActionKind, SetUp
from bgcli.match.replay import (
    Event, EventKind, GameResult, GameStart, MatchStart, MatchVisitor, Problem, ProblemKind, Unfinished,
)
from bgcli.core.position import Position, roll_dice
from bgcli.core.rules import RULE_TAGS, SETTING_OF_TAG
from bgcli.core.generator import Step
from bgcli.core.judge import Board, die_for
from bgcli.core.notation import parse_play_text, play_text
from bgcli.core.spelling import STYLES


@dataclass
class GameToWrite:
    """One game as a writer sees it: how it started, its events (results
    aside) and its result."""

    start: GameStart
    events: list[Event] = field(default_factory=list)
    result: GameResult | None = None
    # Galaxy's "Losses N points" on the loser's side: (how many events came before it, its side, N). Nothing
    # to replay, but it says the file is Galaxy's (its forfeits): an export without it would read back otherwise
    losses: list[tuple[int, int, int]] = field(default_factory=list)
    # what was set by hand in the middle of the game: (how many events came before it, the set-up)
    set_ups: list[tuple[int, SetUp]] = field(default_factory=list)
    written: bool = True   # False: the format has no place for what the game holds (a set-up): left out

    @property
    def crawford(self) -> bool:
        return self.result.crawford if self.result is not None else self.start.crawford

    @property
    def points(self) -> int:
        """Points to write for the result: as recorded, so that an audit of
        the export finds what an audit of the original finds."""
        if self.result is None:
            return 0
        return self.result.written_points if self.result.written_points is not None else self.result.points


class Spool:
    """Text held back until a match ends: in memory up to a megabyte, then in a
    temporary file. A writer keeps its games' text here, so that a match of
    thousands of games (a long money session) costs a game's room, not the
    match's, while its head, which says what is known only at the match's end
    (its comments), is still written first."""

    memory = 1 << 20   # characters held in memory before the temporary file takes over

    def __init__(self) -> None:
        import tempfile   # here, not at the top: the audit reads .mat files and writes none (start-up)

        # surrogatepass: a name read from a badly encoded file comes back as it was read
        self._file = tempfile.SpooledTemporaryFile(max_size=self.memory, mode="w+", encoding="utf-8", errors="surrogatepass",
                                                   newline="")

    def write(self, text: str) -> None:
        self._file.write(text)

    def drain(self, size: int = 1 << 16) -> Iterator[str]:
        """The text held, in pieces of ``size`` characters; once: the spool is closed after."""
        try:
            self._file.seek(0)
            while piece := self._file.read(size):
                yield piece
        finally:
            self._file.close()


class MatchText:
    """A match's text as a writer ends it: strs and spools in order, streamed
    once by :meth:`pieces` (an export) or joined by ``str()``."""

    def __init__(self, *parts: "str | Spool") -> None:
        self.parts = parts

    def pieces(self) -> Iterator[str]:
        for part in self.parts:
            if isinstance(part, str):
                if part:
                    yield part
            else:
                yield from part.drain()

    def __str__(self) -> str:
        return "".join(self.pieces())


_RESULT_EVENTS = frozenset({EventKind.WIN, EventKind.RESIGN, EventKind.DRAW})


class GameWriter(MatchVisitor):
    """A visitor that collects each game and calls :meth:`write_game`.

    ``left_out`` lists, one line each, what the file held that the written
    text does not: lines that could not be read, a game whose rest could not
    be replayed, a record the format has no place for (:meth:`leave_out`,
    one of what the format's registry entry says it cannot hold). The
    command line refuses to write such an export unless told to (``--force``)."""

    def __init__(self) -> None:
        self.info: MatchStart | None = None
        self.game: GameToWrite | None = None
        self.index = 0
        self.left_out: list[str] = []
        self.lacking: set[Lack] = set()   # what this writer left out for want of a place (tests check the registry says so)
        self.comments: tuple[tuple[int, str], ...] = ()   # the record's comments (line, text), set before the replay

    def problem(self, problem: Problem) -> None:
        if problem.kind == ProblemKind.SYNTAX:
            self.left_out.append(f"line {problem.line}: {problem.message}")
        elif problem.kind == ProblemKind.UNCHECKED:
            self.left_out.append(f"line {problem.line}: the rest of game {problem.game} cannot be replayed")

    def note(self, action: Action) -> None:
        if action.kind == ActionKind.LOSS and self.game is not None and action.points is not None:
            self.game.losses.append((len(self.game.events), action.side, action.points))
        elif action.kind == ActionKind.ILLEGAL:
            # Snowie's marker holds the position the play made ("Illegal play (7;0;...)"); an old transcription's
            # bare "42: Illegal play" is no note of Snowie's, and holds neither the play nor the position
            said = "Snowie's note on an illegal play (the position it made)" if action.play_text else \
                "a play recorded only as 'Illegal play' (neither the play nor the position it made)"
            self.leave_out(Lack.ILLEGAL_PLAY_NOTES, f"line {action.line}: {said}")

    def set_up(self, action: Action, set_up: SetUp) -> None:
        if self.game is None:
            return
        if self.writes_set_up_in_game(set_up):
            self.game.set_ups.append((len(self.game.events), set_up))
        elif self.game.written:
            # written as if played, the plays after it would not replay: said, never written so silently
            self.game.written = False
            self.leave_out(Lack.SET_UP, f"line {action.line}: game {self.game.start.number} is set up by hand in its "
                                        f"middle ({set_up.how}), which this format has no place for: the game is "
                                        "left out")

    def leave_out(self, lack: Lack, message: str) -> None:
        """Say that something of the record is not written, for want of a place in the format."""
        self.lacking.add(lack)
        self.left_out.append(message)

    def begin_match(self, match: MatchStart) -> None:
        self.info = match
        self.index = 0

    def begin_game(self, game: GameStart) -> None:
        self.game = GameToWrite(game)
        if game.set_up is not None and not self.writes_set_up(game.set_up):
            self.game.written = False
            # written from the opening, its plays would not replay: said, never written so silently
            self.leave_out(Lack.SET_UP, f"line {game.line}: game {game.number} starts from a set-up position "
                                        f"({game.set_up.how}), which this format has no place for: the game is left out")

    def event(self, event: Event) -> None:
        # the result is written from the game's result: a win, a resignation
        # or a draw is not a cell of its own
        if event.kind not in _RESULT_EVENTS and self.game is not None:
            self.game.events.append(event)

    def end_game(self, game: GameStart, result: GameResult | Unfinished) -> None:
        assert self.game is not None
        if isinstance(result, GameResult):
            self.game.result = result
        self.index += 1
        if self.game.written:   # a game with a set-up the format cannot hold is left out: the rest is written
            self.write_game(self.game, self.index)
        self.game = None

    def write_game(self, game: GameToWrite, index: int) -> None:
        raise NotImplementedError

    def writes_set_up(self, set_up: SetUp) -> bool:
        """Whether this format writes a game that starts from ``set_up`` (its writer then writes the set-up)."""
        return False

    def writes_set_up_in_game(self, set_up: SetUp) -> bool:
        """Whether this format writes ``set_up`` made in the middle of a game (its writer then writes it where
        GameToWrite.set_ups places it)."""
        return False


# Tags that state a rule (bgcli.core.rules.RULE_TAGS, XG's "Beaver" among them): the
# writers write the rules (``Rules.tags()``), which hold what such a tag said, rather
# than the tag as read


def _said(key: str) -> str:
    """What a rule tag sets (a field of Rules; the profile's tag itself), so that two
    spellings of one tag ("Beavers", XG's "Beaver") are written once."""
    setting = SETTING_OF_TAG.get(key.lower())
    return setting.field if setting is not None else key.lower()


def rule_tags(match: MatchStart) -> list[tuple[str, str]]:
    """The rules as tags (what differs from the standard rules), then each rule
    tag of the file that says the same rules in words the first leave out
    (a site's ``CubeLimit "1024"``, its way of saying no limit; its
    ``Crawford "On"`` and ``Variation "Backgammon"``, the standard ones): so a
    tag the file gave is not lost by a conversion, and never contradicts the
    rules."""
    rules = match.rules
    out = list(rules.tags().items())
    written = {_said(key) for key, _ in out}
    for key, value in match.tags.items():
        if key.lower() in RULE_TAGS and _said(key) not in written and rules.with_tags({key: value}) == rules:
            out.append((key, value))
            written.add(_said(key))
    return out


def other_tags(tags: dict[str, str], written: set[str]) -> list[tuple[str, str]]:
    """The tags a writer still has to place: not rules, not among ``written`` (lowercase names)."""
    return [(k, v) for k, v in tags.items() if k.lower() not in RULE_TAGS and k.lower() not in written]


def check_style(notation: str) -> None:
    if notation not in STYLES:
        raise ValueError(f"unknown notation {notation!r}: expected one of {', '.join(STYLES)}")


def steps_to_write(event: Event) -> list[Step] | None:
    """The steps of a move event in the order to write them (see the module
    docstring); None when the recorded text cannot be played at all."""
    before = event.before.position
    text = event.record.play_text if event.record is not None else event.play
    written = _written_hops(text, event.side)
    legal = event.legal
    if legal is not None:
        if written:
            done = _apply_hops(before, written, event.dice)
            if done is not None and done[1] == legal.result:
                return done[0]
        ordered = sorted(((s.start, s.end) for s in legal.steps), key=lambda se: (-se[0], -se[1]))
        done = _apply_hops(before, ordered, None)
        return done[0] if done is not None else list(legal.steps)
    if written is not None:
        done = _apply_hops(before, written, None)
        return done[0] if done is not None else [Step(a, b) for a, b in written]
    return None


def play_in(style: str, event: Event, steps: Sequence[Step] | None) -> str:
    """A move's play in a notation: .mat pairs in writing order, else the
    canonical text of the legal play (Korean names as the mover's side names
    them: the left column is gnubg's player 0, at the top), else what was
    recorded."""
    if style == "mat":
        return steps_text(steps) if steps is not None else event.play
    if event.legal is not None:
        return play_text(event.legal, style, side=event.side)
    return event.play


def steps_text(steps: Sequence[Step]) -> str:
    return " ".join(f"{s.start}/{s.end}" + ("*" if s.hit else "") for s in steps)


def _written_hops(text: str, side: int) -> list[tuple[int, int]] | None:
    if not text:
        return []
    try:
        return parse_play_text(text, side=side).hops()
    except BgcliError:
        return None


def _apply_hops(position: Position, hops: Sequence[tuple[int, int]], dice) -> tuple[list[Step], Position] | None:
    """Play the hops in order on the model's Board; None if one cannot be
    made (or, with dice, is not one die's move)."""
    board = Board(position)
    free = roll_dice(dice) if dice else None
    out = []
    for start, end in hops:
        if board.problem(start, end, strict=False):
            return None
        if free is not None:
            die = die_for(start, end, free)
            if die is None:
                return None
            free.remove(die)
        out.append(Step(start, end, board.move(start, end)))
    return out, board.position()
