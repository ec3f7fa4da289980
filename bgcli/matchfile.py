"""Reading Jellyfish match files: .mat, .gam and the .txt exports of the sites.

This module is syntax only. It turns the text into raw records (matches,
games, one :class:`Action` per cell of the two-column layout) with the line
and column of everything, so that the replay on top of it (positions,
legality, scores) can say ``file:line:column`` about any problem.

The syntax of each line is described by ``grammars/matchfile.lark``. Which
start rule a line gets, and which column a lone cell belongs to, is layout
and is decided here. Lines of the common shapes are read by precompiled
regular expressions built from the same patterns (the tests check that they
agree with the grammar); anything else goes through the Lark parser, which
also reports the errors.

A bad line becomes a :class:`MatchFileError` and reading goes on.
:func:`iter_matches` streams one :class:`MatchRecord` at a time, so a file
of many concatenated matches never has to be held in memory.
"""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from lark import Transformer

from bgcli import grammar
from bgcli.errors import MatchFileError

GRAMMAR = "matchfile"

# Action kinds. A "move" has play text; "dance" is a roll with no play written
# (empty or "Cannot Move"); "unknown" is XG's "???" (rolled, then resigned);
# "illegal" is Snowie's "Illegal play (position)".
MOVE, DANCE, UNKNOWN, ILLEGAL = "move", "dance", "unknown", "illegal"
DOUBLE, BEAVER, RACCOON, TAKE, DROP = "double", "beaver", "raccoon", "take", "drop"
WINS, LOSES = "wins", "loses"
KINDS = (MOVE, DANCE, UNKNOWN, ILLEGAL, DOUBLE, BEAVER, RACCOON, TAKE, DROP, WINS, LOSES)

# A lone cell that starts this many characters after its move number (or
# after the start of an unnumbered line) is in the right column. Left cells
# start 1-6 characters in; every known right column starts 25 or more in.
RIGHT_COLUMN_GAP = 12


@dataclass(frozen=True, slots=True)
class Action:
    """One cell of a move row: what one player did."""

    line: int                 # 1-based line in the file
    column: int               # 1-based column where the cell starts
    move_number: int | None   # the row's "NN)", None on an unnumbered line
    side: int                 # 0 = left column (first player), 1 = right column
    kind: str                 # one of KINDS
    dice: tuple[int, int] | None = None   # as written, either order
    play_text: str = ""       # the play as written ("13/8 13/11"); Snowie's position for "illegal"
    cube: int | None = None   # Doubles/Beavers/Raccoons => N
    points: int | None = None  # Wins/Losses N point(s)
    and_match: bool = False   # "... and the match"
    raw: str = ""             # the cell's text


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its header, score line and actions in file order."""

    number: int
    players: tuple[str, str]               # left, right; bare names
    scores: tuple[int, int] | None         # before the game; None if unreadable
    actions: tuple[Action, ...]
    line: int                              # line of " Game N"
    ratings: tuple[str | None, str | None] = (None, None)   # GridGammon's "Name,1623"


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One match (or money session, length 0) as read from the file."""

    length: int
    games: tuple[GameRecord, ...]
    line: int                              # line of " N point match"
    tags: dict[str, str] = field(default_factory=dict)     # ; [Name "value"] before the header
    comments: tuple[tuple[int, str], ...] = ()             # (line, text) of every other comment
    errors: tuple[MatchFileError, ...] = ()                # bad lines met while reading it
    path: str = "-"


@dataclass(frozen=True, slots=True)
class ReadResult:
    matches: list[MatchRecord]
    errors: list[MatchFileError]


# ---------------------------------------------------------------------------
# Public entry points


def read_matches(text: str, path: str = "-") -> ReadResult:
    """Every match in ``text`` and every bad line; raises MatchFileError only
    when nothing in the text can be read as a match."""
    # split on line ends only: str.splitlines() also splits on form feeds and
    # other separators, which would shift the line numbers of the errors
    matches = list(iter_matches(_LINE_END.split(text), path))
    return ReadResult(matches, [e for m in matches for e in m.errors])


def read_file(path: str | Path) -> ReadResult:
    """:func:`read_matches` for a file on disk."""
    matches = list(iter_file(path))
    return ReadResult(matches, [e for m in matches for e in m.errors])


def iter_file(path: str | Path) -> Iterator[MatchRecord]:
    """Stream the matches of a file, reading it line by line."""
    with open(path, "rb") as handle:
        yield from iter_matches(handle, str(path))


def iter_matches(lines: Iterable[str | bytes], path: str = "-") -> Iterator[MatchRecord]:
    """Yield one MatchRecord at a time from ``lines`` (str or bytes, with or
    without line ends). Errors of bad lines travel in ``MatchRecord.errors``;
    a MatchFileError is raised at the end if no match was found at all."""
    reader = _Reader(path)
    for number, line in enumerate(lines, 1):
        if isinstance(line, bytes):
            line = _decode(line)
        if number == 1 and line.startswith("\ufeff"):
            line = line[1:]      # XG writes a UTF-8 byte order mark
        yield from reader.feed(number, line.rstrip("\r\n"))
    yield from reader.finish()


def parse_elo(text: str) -> float | None:
    """The rating in an Elo tag or name suffix: "1600.00/0", "1,00/0", "1623"."""
    match = re.match(r"\s*(\d+(?:[.,]\d+)?)", text)
    return float(match.group(1).replace(",", ".")) if match else None


# ---------------------------------------------------------------------------
# Line reading: a fast path of regular expressions, and the grammar.


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:   # old exports are often Latin-1
        return raw.decode("latin-1")


def _terminal(name: str) -> str:
    """A terminal's regular expression, read from the grammar so that the
    fast path and the grammar cannot drift apart."""
    found = re.search(rf"^{name}: /(.*)/(i?)$", grammar.grammar_text(GRAMMAR), re.M)
    if not found:
        raise LookupError(f"terminal {name} not in grammar {GRAMMAR}")
    return ("(?i:" + found.group(1) + ")") if found.group(2) else found.group(1)


# The fast path reads the usual spellings of a step only (a subset of the
# grammar's STEP terminal); anything rarer goes to the grammar.
_FAST_STEP = r"(?:\d{1,2}|bar|off)\*?(?:/(?:\d{1,2}|off)\*?)+(?:\(\d\))?"


def _cell_pattern(n: int) -> str:
    """The common spellings of one cell, with group names ending in ``n``."""
    return (
        rf"(?P<cell{n}>(?P<roll{n}>[1-6][1-6]):(?:(?P<play{n}>(?:[ \t]+{_FAST_STEP})+)|[ \t]+(?P<dance{n}>Cannot Move)|[ \t]+(?P<unknown{n}>\?+))?"
        rf"|Doubles => (?P<double{n}>\d+)|(?P<take{n}>Takes)|(?P<drop{n}>Drops)"
        rf"|Wins (?P<wins{n}>\d+) points?(?P<match{n}> and the match)?"
        rf"|Losses (?P<loses{n}>\d+) points?)"
        r"(?=[ \t]|$)"
    )


# A whole row of the common shapes: "NN)", then up to two cells.
_FAST_ROW = re.compile(r"[ \t]*(?:(?P<number>\d+)\)[ \t]*)?(?:" + _cell_pattern(1) + r"(?:[ \t]+" + _cell_pattern(2) + r")?)?[ \t]*$")
_FAST_SCORE = re.compile(r"[ \t]*((?:[^\s:](?:[^:]*[^\s:])?)?)[ \t]*:[ \t]*(\d+)[ \t]+((?:[^\s:](?:[^:]*[^\s:])?)?)[ \t]*:[ \t]*(\d+)[ \t]*$")
_FAST_TAG = re.compile(r"[ \t]*[;#][ \t]*\[[ \t]*([A-Za-z][\w ]*?)[ \t]*(\"[^\"\n]*\")[ \t]*\][ \t]*$")
_LINE_END = re.compile(r"\r\n?|\n")
_BLANK = re.compile(r"[ \t]*$")
_WS = re.compile(r"[ \t]*")
_COMMENT = re.compile(r"[ \t]*[;#]")
_TAG_START = re.compile(r"[ \t]*[;#][ \t]*\[")
_MATCH_HEADER = re.compile(r"[ \t]*(\d+)[ \t]+points?[ \t]+match[ \t]*$", re.I)
_MATCH_HEADER_START = re.compile(r"[ \t]*\d+[ \t]+points?[ \t]+match", re.I)
_GAME_HEADER = re.compile(r"[ \t]*game[ \t]+(\d+)[ \t]*$", re.I)
_GAME_HEADER_START = re.compile(r"[ \t]*game[ \t]+\d", re.I)
_ROW_START = re.compile(r"[ \t]*\d+\)")
_RATING = re.compile(r"^(.*?)[ \t]*,[ \t]*(\d+(?:[.,]\d+)?)$")

# A cell before it is placed in a column: kind, start and end offsets in the
# line, then the fields of Action.
_Cell = tuple  # (kind, start, end, dice, play_text, cube, points, and_match)
# A part of a row: (move number or None, offset where its cells may start, cells)
_Segment = tuple


# Positions in Match.groups() of each cell's groups, looked up once.
_CELL_GROUPS = ("cell", "roll", "play", "dance", "unknown", "double", "take", "drop", "wins", "match", "loses")
_CELL_INDEX = [[_FAST_ROW.groupindex[name + n] - 1 for name in _CELL_GROUPS] for n in ("1", "2")]
_CELL_FIELDS = [operator.itemgetter(*index[1:]) for index in _CELL_INDEX]


def _fast_row(text: str) -> list[_Segment] | None:
    """Read a move row of the common shapes; None when unsure (the grammar decides)."""
    found = _FAST_ROW.match(text)
    if not found:
        return None
    groups = found.groups()
    cells = []
    for index, fields in zip(_CELL_INDEX, _CELL_FIELDS):
        if groups[index[0]] is not None:
            cells.append(_fast_cell(found.span(index[0] + 1), fields(groups)))
    number = groups[0]
    if number is None:
        return [(None, 0, cells)]
    return [(int(number), found.end(1) + 1, cells)]


def _fast_cell(span: tuple[int, int], fields: tuple) -> _Cell:
    start, end = span
    roll, play, dance, unknown, double, take, drop, wins, and_match, loses = fields
    if roll:
        dice = (int(roll[0]), int(roll[1]))
        if play:
            return (MOVE, start, end, dice, play.strip(), None, None, False)
        if unknown:
            return (UNKNOWN, start, end, dice, "", None, None, False)
        return (DANCE, start, end, dice, "", None, None, False)
    if double:
        return (DOUBLE, start, end, None, "", int(double), None, False)
    if take:
        return (TAKE, start, end, None, "", None, None, False)
    if drop:
        return (DROP, start, end, None, "", None, None, False)
    if wins:
        return (WINS, start, end, None, "", None, int(wins), and_match is not None)
    return (LOSES, start, end, None, "", None, int(loses), False)


class _LineTransformer(Transformer):
    """Builds the same plain values as the fast path from the grammar's trees."""

    def __init__(self, text: str):
        super().__init__()
        self.text = text

    # rows --------------------------------------------------------------
    def row(self, children):
        segments, leading = [], [c for c in children if not isinstance(c, tuple) or c[0] != "numbered"]
        if leading:
            segments.append((None, 0, leading))
        for child in children:
            if isinstance(child, tuple) and child[0] == "numbered":
                segments.append(child[1:])
        if not segments:
            segments.append((None, 0, []))
        return segments

    def numbered(self, children):
        number = children[0]
        return ("numbered", int(number[:-1]), number.end_pos, list(children[1:]))

    def _span(self, children):
        return children[0].start_pos, children[-1].end_pos

    def move(self, children):
        start, end = self._span(children)
        dice = (int(children[0][0]), int(children[0][1]))
        steps = children[1:]
        if not steps:
            return (DANCE, start, end, dice, "", None, None, False)
        return (MOVE, start, end, dice, self.text[steps[0].start_pos:steps[-1].end_pos], None, None, False)

    def dance(self, children):
        start, end = self._span(children)
        return (DANCE, start, end, (int(children[0][0]), int(children[0][1])), "", None, None, False)

    def unknown(self, children):
        start, end = self._span(children)
        return (UNKNOWN, start, end, (int(children[0][0]), int(children[0][1])), "", None, None, False)

    def illegal(self, children):
        start, end = self._span(children)
        return (ILLEGAL, start, end, (int(children[0][0]), int(children[0][1])), str(children[2])[1:-1].strip(), None, None, False)

    def _cube(kind):
        def build(self, children):
            start, end = self._span(children)
            return (kind, start, end, None, "", int(children[1]), None, False)
        return build

    double, beaver, raccoon = _cube(DOUBLE), _cube(BEAVER), _cube(RACCOON)

    def take(self, children):
        start, end = self._span(children)
        return (TAKE, start, end, None, "", None, None, False)

    def drop(self, children):
        start, end = self._span(children)
        return (DROP, start, end, None, "", None, None, False)

    def wins(self, children):
        start, end = self._span(children)
        return (WINS, start, end, None, "", None, int(children[1]), len(children) > 3)

    def loses(self, children):
        start, end = self._span(children)
        return (LOSES, start, end, None, "", None, int(children[1]), False)

    # other lines -------------------------------------------------------
    def tag_line(self, children):
        return (str(children[0]).strip(), str(children[1])[1:-1])

    def match_header(self, children):
        return int(children[0])

    def game_header(self, children):
        return int(children[0])

    def score_line(self, children):
        # a name may be empty (Galaxy writes " : 0" for a missing opponent)
        values, name = [], ""
        for child in children:
            if child.type == "NAME":
                name = str(child)
            else:
                values += [name, int(child)]
                name = ""
        return tuple(values)


def _grammar_line(start: str, text: str, number: int, path: str, what: str):
    def error(message: str, line: int, column: int) -> MatchFileError:
        return MatchFileError(f"cannot read {what} {text.strip()!r}: {message}", path, number, column)

    return grammar.parse(GRAMMAR, text, error, _LineTransformer(text), start=start)


def read_row(text: str, number: int = 1, path: str = "-") -> list[Action]:
    """The actions of one move row (fast path, else the grammar)."""
    segments = _fast_row(text)
    if segments is None:
        segments = _grammar_line("row", text, number, path, "move row")
    return _place(segments, text, number, path)


def _place(segments: list[_Segment], text: str, number: int, path: str) -> list[Action]:
    """Put each cell in its column: layout, not syntax."""
    actions = []
    for move_number, anchor, cells in segments:
        if len(cells) > 2:
            kind, start = cells[2][0], cells[2][1]
            raise MatchFileError(f"a third cell {text[start:cells[2][2]]!r} in move row {text.strip()!r}", path, number, start + 1)
        for index, (kind, start, end, dice, play, cube, points, and_match) in enumerate(cells):
            if len(cells) == 2:
                side = index
            else:
                side = 1 if start - anchor > RIGHT_COLUMN_GAP else 0
            actions.append(Action(number, start + 1, move_number, side, kind, dice, play, cube, points, and_match, text[start:end]))
    return actions


def _split_rating(name: str) -> tuple[str, str | None]:
    found = _RATING.match(name)
    return (found.group(1), found.group(2)) if found and found.group(1) else (name, None)


# ---------------------------------------------------------------------------
# Putting lines together into games and matches


class _Reader:
    """A line-driven state machine; holds only the match being read."""

    def __init__(self, path: str):
        self.path = path
        self.match: dict | None = None       # the match being read
        self.game: dict | None = None        # the game being read
        self.expect_score = False
        # comment lines not yet placed: (line, text, (name, value) or None)
        self.pending: list[tuple[int, str, tuple[str, str] | None]] = []
        self.preamble: list[tuple[int, str]] = []   # unreadable lines before the first match
        self.found_any = False

    def feed(self, number: int, text: str) -> Iterator[MatchRecord]:
        if self.game is not None and not self.expect_score and not self.pending and _ROW_START.match(text):
            try:    # the common case first: a numbered move row inside a game
                self.game["actions"].extend(read_row(text, number, self.path))
            except MatchFileError as exc:
                self.match["errors"].append(exc)
            return
        if _BLANK.match(text):
            return
        if _COMMENT.match(text):
            self._comment(number, text)
            return
        if _MATCH_HEADER_START.match(text):
            yield from self._match_header(number, text)
            return
        self._flush_comments()
        if _GAME_HEADER_START.match(text):
            self._game_header(number, text)
            return
        if self.match is None:
            self.preamble.append((number, text))
            return
        try:
            if self.expect_score and not _ROW_START.match(text):
                self._score_line(number, text)
                return
            if self.expect_score:
                self.expect_score = False
                self.match["errors"].append(MatchFileError(f"no score line after game {self.game['number']}", self.path, number, 1))
            actions = read_row(text, number, self.path)
            if self.game is None:
                raise MatchFileError(f"move row outside a game {text.strip()!r}", self.path, number, 1)
            self.game["actions"].extend(actions)
        except MatchFileError as exc:
            self.match["errors"].append(exc)

    def finish(self) -> Iterator[MatchRecord]:
        self._flush_comments()
        if self.match is not None:
            yield self._close_match()
        if not self.found_any:
            where = f" (first unreadable line {self.preamble[0][0]}: {self.preamble[0][1].strip()[:60]!r})" if self.preamble else ""
            line = self.preamble[0][0] if self.preamble else 1
            raise MatchFileError(f"not a match file: no 'N point match' line{where}", self.path, line, 1)

    # comments and tags --------------------------------------------------
    def _comment(self, number: int, text: str) -> None:
        tag = None
        if _TAG_START.match(text):
            found = _FAST_TAG.match(text)
            if found:
                tag = (found.group(1), found.group(2)[1:-1])
            else:
                try:
                    tag = _grammar_line("tag_line", text, number, self.path, "tag")
                except MatchFileError:
                    tag = None    # a comment that only looks like a tag
        self.pending.append((number, text.strip(), tag))

    def _flush_comments(self) -> None:
        """Comments not followed by a match header belong to the current match."""
        if self.match is not None:
            self.match["comments"].extend((line, text) for line, text, _ in self.pending)
        self.pending = []

    # headers ---------------------------------------------------------------
    def _match_header(self, number: int, text: str) -> Iterator[MatchRecord]:
        if self.match is not None:
            yield self._close_match()
        errors = []
        found = _MATCH_HEADER.match(text)
        try:
            length = int(found.group(1)) if found else _grammar_line("match_header", text, number, self.path, "match header")
        except MatchFileError as exc:
            errors.append(exc)
            length = int(re.match(r"\s*(\d+)", text).group(1))
        for line, bad in self.preamble:
            errors.append(MatchFileError(f"not part of a match {bad.strip()!r}", self.path, line, 1))
        self.preamble = []
        # the comment block just above the header is this match's: tags and comments
        tags: dict[str, str] = {}
        for _, _, tag in self.pending:
            if tag is not None:
                tags.setdefault(tag[0], tag[1])
        comments = [(line, text) for line, text, tag in self.pending if tag is None]
        self.pending = []
        self.match = dict(length=length, line=number, tags=tags, comments=comments, errors=errors, games=[])
        self.found_any = True

    def _game_header(self, number: int, text: str) -> None:
        if self.match is None:
            # Some files start without a header: read the games as a money
            # session, but say so.
            self.match = dict(length=0, line=number, tags={}, comments=[], errors=[], games=[])
            self.match["errors"].append(MatchFileError("game before any 'N point match' line; read as a money session", self.path, number, 1))
            for line, bad in self.preamble:
                self.match["errors"].append(MatchFileError(f"not part of a match {bad.strip()!r}", self.path, line, 1))
            self.preamble = []
            self.found_any = True
        self._close_game()
        found = _GAME_HEADER.match(text)
        try:
            game_number = int(found.group(1)) if found else _grammar_line("game_header", text, number, self.path, "game header")
        except MatchFileError as exc:
            self.match["errors"].append(exc)
            game_number = len(self.match["games"]) + 1
        self.game = dict(number=game_number, line=number, players=("", ""), ratings=(None, None), scores=None, actions=[])
        self.expect_score = True

    def _score_line(self, number: int, text: str) -> None:
        self.expect_score = False
        found = _FAST_SCORE.match(text)
        if found:
            left, left_score, right, right_score = found.group(1), int(found.group(2)), found.group(3), int(found.group(4))
        else:
            left, left_score, right, right_score = _grammar_line("score_line", text, number, self.path, "score line")
        (left, left_rating), (right, right_rating) = _split_rating(left), _split_rating(right)
        self.game.update(players=(left, right), ratings=(left_rating, right_rating), scores=(left_score, right_score))

    # closing -------------------------------------------------------------
    def _close_game(self) -> None:
        if self.game is not None:
            game = self.game
            self.match["games"].append(GameRecord(game["number"], game["players"], game["scores"], tuple(game["actions"]), game["line"], game["ratings"]))
        self.game, self.expect_score = None, False

    def _close_match(self) -> MatchRecord:
        self._close_game()
        match, self.match = self.match, None
        return MatchRecord(match["length"], tuple(match["games"]), match["line"], match["tags"], tuple(match["comments"]), tuple(match["errors"]), self.path)
