"""Jellyfish match files (.mat, .gam and the .txt exports of the sites):
reading them into records and writing gnubg's layout.

Reading is syntax only. It turns the text into :mod:`bgcli.match.records`
(matches, games, one Action per cell of the two-column layout) with the line
and column of everything. The syntax of each line is ``grammars/matchfile.lark``;
which start rule a line gets, and which column a lone cell belongs to, is
layout and is decided here. Lines of the common shapes are read by
precompiled regular expressions built from the same patterns (the tests
check that they agree with the grammar); anything else goes through the Lark
parser, which also reports the errors. A bad line becomes a MatchFileError
in the record's ``errors`` and reading goes on; :func:`iter_matches` streams
one MatchRecord at a time, so a file of many matches is never held whole.

Writing (:class:`MatWriter`) is a replay visitor: see the docstring there.
"""
from __future__ import annotations

import datetime
import functools
import operator
import re
from dataclasses import dataclass, replace
from typing import IO, TYPE_CHECKING, Any, Callable, Iterable, Iterator, NamedTuple

from bgcli import grammar
from bgcli.errors import InvalidPositionError, MatchFileError
from bgcli.formats.protocol import Lack
from bgcli.formats.reading import LINE_END, page_breaks_as_blanks, tabs_as_columns, text_lines, text_of
from bgcli.output import quote
from bgcli.match.conventions import BEAVERS, gnubg_beaver_tags
from bgcli.match.records import (
    Action, ActionKind, GameRecord, MatchEnd, MatchHeader, MatchPart, MatchRecord, SetUp, Writer, records_of,
    set_up_game,
)
from bgcli.match.replay import Event, EventKind, MatchStart, replay_match
from bgcli.match.wording import Words, points_word
from bgcli.formats.writing import (
    GameToWrite,
    GameWriter,
    MatchText,
    Spool,
    check_style,
    other_tags,
    play_in,
    rule_tags,
    steps_to_write,
)
from bgcli.core.cube import point_noun, value_reached
from bgcli.core.state import GameState, MatchState
from bgcli.core.position import ID_PATTERN, accelerator
from bgcli.core.rules import SETTING_OF_TAG, Rules
from bgcli.core.spelling import DIE_PATTERN, dice_name, recorded_roll

if TYPE_CHECKING:   # a path's type only: pathlib is not imported to read a file (start-up)
    from pathlib import Path

GRAMMAR = "matchfile"
# how a .mat file writes the actions a problem quotes: the writer's cells (MatWriter._cell), and the messages of
# the replay of a .mat file (bgcli.match.wording); the reader reads these and other spellings (the grammar's)
WORDS = Words(double="Doubles => {value}", beaver="Beavers => {value}", raccoon="Raccoons => {value}",
              wins="Wins {points}", result="'Wins' line")

MOVE, DANCE, UNKNOWN, ILLEGAL = ActionKind.MOVE, ActionKind.DANCE, ActionKind.ROLL, ActionKind.ILLEGAL
DOUBLE, BEAVER, RACCOON = ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON
TAKE, DROP, WINS, LOSES = ActionKind.TAKE, ActionKind.DROP, ActionKind.WIN, ActionKind.LOSS
KINDS = tuple(ActionKind)

# A lone cell that starts this many characters after its move number (or
# after the start of an unnumbered line) is in the right column. Left cells
# start 1-6 characters in; every known right column starts 25 or more in.
RIGHT_COLUMN_GAP = 12


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
    matches = list(iter_matches(LINE_END.split(text), path))
    return ReadResult(matches, [e for m in matches for e in m.errors])


def tag_of(text: str, number: int = 1, path: str = "-") -> tuple[str, str] | None:
    """The tag a comment line holds (``; [Name "value"]``): its name and
    value, or None for a comment that is no tag (or only looks like one)."""
    if not _TAG_START.match(text):
        return None
    found = _TAG_LINE.match(text)
    if found:
        return found.group(1), found.group(2)[1:-1]
    try:
        return _grammar_line("tag_line", text, number, path, "tag")
    except MatchFileError:
        return None


def read_file(path: str | Path) -> ReadResult:
    """:func:`read_matches` for a file on disk."""
    matches = list(iter_file(path))
    return ReadResult(matches, [e for m in matches for e in m.errors])


def iter_file(path: str | Path) -> Iterator[MatchRecord]:
    """Stream the matches of a file, reading it line by line."""
    with open(path, "rb") as handle:
        yield from iter_matches(text_lines(handle, str(path)), str(path))


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: the parts of a binary stream, read line by line.
    (GNU Backgammon's ``export match text``, also a .txt, is a format of its
    own that the registry knows by its first line: :mod:`bgcli.formats.gnubgtext`.)"""
    return iter_parts(text_lines(handle, path), path)


def writer(notation: str | None = None) -> MatWriter:
    """The registry's writer: gnubg's layout, plays in ``notation`` (.mat numbers by default)."""
    return MatWriter(notation or "mat")


def chunks(outputs: Iterable[MatchText]) -> Iterator[str]:
    """:func:`join` as a stream: the text of each match as it comes."""
    for output in outputs:
        yield from output.pieces()


def join(outputs: Iterable[MatchText]) -> str:
    """Matches one after another, as BBGT files hold them."""
    return "".join(chunks(outputs))


def iter_matches(lines: Iterable[str | bytes], path: str = "-") -> Iterator[MatchRecord]:
    """Yield one MatchRecord at a time from ``lines`` (str or bytes, with or
    without line ends). Errors of bad lines travel in ``MatchRecord.errors``;
    a MatchFileError is raised at the end if no match was found at all."""
    return records_of(iter_parts(lines, path))


def iter_parts(lines: Iterable[str | bytes], path: str = "-") -> Iterator[MatchPart]:
    """The file as a stream of parts: a MatchHeader, each GameRecord as soon
    as the game's last line is read, a MatchEnd; so a replay can start before
    a match (a 20,000-game money session) is read whole, and holds one game
    (a header with gnubg's habits waits for its first game: _Reader._opened)."""
    return _parts(lines, path)


def _parts(lines: Iterable[str | bytes], path: str = "-") -> Iterator[MatchPart]:
    reader = _Reader(path)
    read_row = _rows_in_c
    for number, line in enumerate(lines, 1):
        if isinstance(line, bytes):
            line = text_of(line)
        if number == 1 and line.startswith("\ufeff"):
            line = line[1:]      # XG writes a UTF-8 byte order mark
        line = _laid_out(line.rstrip("\r\n"))
        if reader.game is not None and not reader.expect_score and not reader.pending:
            # the common case first, for speed: a move row (or a blank line) inside a game; the first game
            # of a header with gnubg's habits too, its rows looked at for gnubg's mark until one bears it
            actions = NotImplemented if read_row is None else read_row(line, number)
            if actions is NotImplemented:
                actions = _row_actions(line, number)
            if actions is not None:
                if actions:
                    reader.game["actions"].extend(actions)
                    if reader.held is not None and not reader.marked:
                        reader.marked = gnubg_row(line, actions)
                continue
        yield from reader.feed(number, line)
    yield from reader.finish()


def gnubg_score_line(left: str, left_score: int, right: str, right_score: int) -> str:
    """A game's score line as gnubg's export writes it (``" %-31s%s : %d"``, the left name and score
    padded to 31), and so MatWriter: the one layout of both."""
    return " " + f"{left} : {left_score}".ljust(31) + f"{right} : {right_score}"


_GNUBG_ROW_NUMBER = re.compile(r"[ 0-9]{2}[0-9]\) ")


def gnubg_row(text: str, actions: list[Action]) -> bool:
    """Whether a move row read as ``actions`` bears gnubg's export's mark (``"%3d) %-27s "``, then the right
    cell): its number in three columns and its last cell a move of fewer than four steps (or a dance,
    ``41: ``) followed by a blank, gnubg's FormatMovePlain habit, which MatWriter keeps, a lone left cell
    padded to 27 columns and a blank. A hand-typed file, or one a text editor saved, has no such blanks."""
    if not actions or not _GNUBG_ROW_NUMBER.match(text) or not text.endswith(" "):
        return False
    last = actions[-1]
    if last.kind not in (MOVE, DANCE) or len(last.play_text.split()) >= 4:
        return False
    return last.side == 1 or len(text) >= 33


def _laid_out(line: str) -> str:
    """A line as the file lays it out: a page break among its leading blanks a
    blank, and, but in a comment or a tag (whose text is kept as written), a
    tab the blanks up to the next tab stop: a file saved by an editor that
    turns runs of blanks into tabs keeps its columns (a lone cell, a 'Wins',
    was called the other player's: GNU Backgammon 1.07 misreads such a file too)."""
    line = page_breaks_as_blanks(line)
    return line if "\t" not in line or _COMMENT.match(line) else tabs_as_columns(line)


# GNU Backgammon's board heading, which its text export prints before every play in every language ("GNU
# Backgammon  Position ID: ...", "GNU Backgammon  ID de position: ..."): it names an export whose score line is
# not English, which the gnubg-text reader (known by that line) does not read
_GNUBG_BOARD_HEADING = re.compile(rf" *GNU Backgammon +[^:]{{1,40}}: *{ID_PATTERN}\s*$")


# what a file must start with to be plainly a record, in a folder walk's words
NO_RECORD = "no 'N point match', 'Game N' or move row line"
NO_READABLE_START = "its first line that would start a match ('N point match', 'Game N', a move row) does not read as one"
_START_LINES = 2   # the lines read from where a match starts: its first line and the next, as the reader reads them


def why_not_a_record(lines: Iterable[str]) -> str | None:
    """Why ``lines`` (the head of a text file) are plainly not a match as this
    reader reads one, or None when they are: where the reader starts a match
    (a 'N point match' header, a 'Game N' header, or the first move row of a
    .gam without either, gnubg's ``export game gam``), that line and the next
    read without an error. What a folder walk asks of a .txt file
    (bgcli.scale.archive): a README with a line 'Game 1 was fun' is none, a
    headerless .gam is one. Lines before the start (a site's preface) do not count."""
    reader = _Reader("-")
    first = None   # the first match the reader starts (a later header would start another)
    read = 0
    for number, line in enumerate(lines, 1):
        for _ in reader.feed(number, _laid_out(line.lstrip("\ufeff").rstrip("\r\n"))):
            pass
        first = first or reader.match
        if first is not None and line.strip():
            read += 1
            if read == _START_LINES:
                break
    if first is None:
        return NO_RECORD
    if any(error.line >= first["line"] for error in first["errors"]):
        return NO_READABLE_START
    return None


def parse_elo(text: str) -> float | None:
    """The rating in an Elo tag or name suffix: "1600.00/0", "1,00/0", "1623"."""
    match = re.match(r"\s*([0-9]{1,9}(?:[.,][0-9]{1,9})?)", text)
    return float(match.group(1).replace(",", ".")) if match else None


# ---------------------------------------------------------------------------
# Line reading: a fast path of regular expressions, and the grammar.


# The fast path reads the usual spellings of a step only (a subset of the
# grammar's STEP terminal, with the Korean point names bgcli writes); anything
# rarer goes to the grammar. A cell's play is kept as written: the replay reads
# it as the player of the cell's column writes it (Korean names depend on that).
_COMMON_STEP = r"(?:[0-9]{1,2}|[상하][0-9]{1,2}|bar|off)\*?(?:/(?:[0-9]{1,2}|[상하][0-9]{1,2}|off)\*?)+(?:\([0-9]\))?"


def _cell_pattern(n: int) -> str:
    """The common spellings of one cell, with group names ending in ``n``."""
    return (
        rf"(?P<cell{n}>(?P<roll{n}>{DIE_PATTERN}{DIE_PATTERN}):(?:(?P<play{n}>(?:[ \t]+{_COMMON_STEP})+)|[ \t]+(?P<dance{n}>Cannot Move)|[ \t]+(?P<unknown{n}>\?+))?"
        rf"|Doubles => (?P<double{n}>[0-9]{{1,9}})|(?P<take{n}>Takes)|(?P<drop{n}>Drops)"
        rf"|Wins (?P<wins{n}>[0-9]{{1,9}}) points?(?P<match{n}> and the match)?"
        rf"|Losses (?P<loses{n}>[0-9]{{1,9}}) points?)"
        r"(?=[ \t]|$)"
    )


# Fenced mirror of the grammar's move row (grammars/matchfile.lark, _grammar_line):
# tests/test_matchfile.py::test_generated_rows_fast_and_grammar_agree, tests/test_audit_paths.py::test_generated_rows_fast_and_slow_agree
# A whole row of the common shapes: "NN)", then up to two cells.
# Each run of blanks is taken whole ((?![ \t]) after it: what follows a run never starts with a blank, so
# giving a blank back can never help): else a row of blanks that ends in something else backtracks in
# quadratic time between the leading and the trailing run (a 200 kB row took minutes).
_COMMON_ROW = re.compile(r"[ \t]*(?![ \t])(?:(?P<number>[0-9]{1,9})\)[ \t]*(?![ \t]))?(?:" + _cell_pattern(1)
                         + r"(?:[ \t]+" + _cell_pattern(2) + r")?)?[ \t]*$")
# the grammar's score_line: no-break spaces before a colon are blanks (its _NAME_END), as gnubg's import reads them
# (tests/test_tolerant.py::test_the_score_line_fast_and_grammar_agree)
# a name may hold a colon that no number follows ("Mr:X : 3"), as the grammar's NAME
_NAME_COLON = r":(?![ \t\xa0]*[0-9])(?=.)"
_NAME_END_CHAR = rf"(?:[^\s:]|{_NAME_COLON})"
_SCORE_NAME = rf"(?:{_NAME_END_CHAR}(?:(?:[^:]|{_NAME_COLON})*{_NAME_END_CHAR})?)?"
_SCORE_LINE = re.compile(rf"[ \t]*({_SCORE_NAME})[ \t\xa0]*:[ \t]*([0-9]{{1,9}})[ \t]+({_SCORE_NAME})[ \t\xa0]*:[ \t]*"
                         r"([0-9]{1,9})[ \t]*$")
# a name is words with blanks between (never a run of blanks that could be the name's or the gap's: linear time)
_TAG_LINE = re.compile(r"[ \t]*[;#][ \t]*\[[ \t]*([A-Za-z]\w*(?:[ ]+\w+)*)[ \t]*(\"[^\"\n]*\")[ \t]*\][ \t]*$")
_BLANK = re.compile(r"[ \t]*$")
_COMMENT = re.compile(r"[ \t]*[;#]")
# eXtreme Gammon's .mat export of a game that starts from a position set up
# (a transcription begun in the middle of a game): "; Set Pos=" and the board
# of an XGID, on a comment line after the game's score line
_SET_POS = re.compile(r"[ \t]*;[ \t]*Set[ \t]*Pos[ \t]*=[ \t]*(\S*)", re.I)
_TAG_START = re.compile(r"[ \t]*[;#][ \t]*\[")
# the grammar's match_header: "5 point match", or a money session's "unlimited game" (hinacoppy's kifu tools)
_GNUBG_MATCH_HEADER = re.compile(r" [0-9]+ point match")   # as gnubg's export writes it (MatWriter too)
_MATCH_HEADER = re.compile(r"[ \t]*(?:([0-9]{1,9})[ \t]+points?[ \t]+match|unlimited[ \t]+(?:game|match))[ \t]*$", re.I)
_MATCH_HEADER_START = re.compile(r"[ \t]*(?:[0-9]+[ \t]+points?[ \t]+match|unlimited[ \t]+(?:game|match))", re.I)
# " Game 3", and the Crawford mark some programs add, " Game 3 (Crawford)" (gnubg's import reads the number
# and passes over the rest): the replay checks it against the rule (MatchReplayer.open_game)
_GAME_HEADER = re.compile(r"[ \t]*game[ \t]+([0-9]{1,9})[ \t]*(\([ \t]*crawford[ \t]*\))?[ \t]*$", re.I)
_GAME_HEADER_START = re.compile(r"[ \t]*game[ \t]+[0-9]", re.I)
_ROW_START = re.compile(r"[ \t]*[0-9]+\)")
_NAMES_GAP = re.compile(r"[ \t]{2,}")


def _names_line(text: str) -> tuple[str, str] | None:
    """The two names of a .gam's line of players, a run of blanks between them and no score (gnubg's
    ``export game gam``: ``gnubg                          root``); None for any other line."""
    names = _NAMES_GAP.split(text.strip(), maxsplit=1)
    if len(names) != 2 or ":" in text or _NAMES_GAP.search(names[1]):
        return None
    return names[0], names[1]
_RATING = re.compile(r"^(.*?)[ \t]*,[ \t]*([0-9]{1,9}(?:[.,][0-9]{1,9})?)$")



class Cell(NamedTuple):
    """A cell before it is placed in a column: its offsets in the line and
    the fields of Action."""

    kind: ActionKind
    start: int
    end: int
    dice: tuple[int, int] | None = None
    play: str = ""
    cube: int | None = None
    points: int | None = None
    and_match: bool = False


class Segment(NamedTuple):
    """A numbered part of a row: the move number (None on an unnumbered
    line), the offset where its cells may start, and its cells."""

    move_number: int | None
    anchor: int
    cells: list[Cell]


# Positions in Match.groups() of each cell's groups, looked up once.
_CELL_GROUPS = ("cell", "roll", "play", "dance", "unknown", "double", "take", "drop", "wins", "match", "loses")
_CELL_INDEX = [[_COMMON_ROW.groupindex[name + n] - 1 for name in _CELL_GROUPS] for n in ("1", "2")]
_CELL_FIELDS = [operator.itemgetter(*index[1:]) for index in _CELL_INDEX]


def _row_segments(text: str) -> list[Segment] | None:
    """Read a move row of the common shapes; None when unsure (the grammar decides)."""
    found = _COMMON_ROW.match(text)
    if not found:
        return None
    groups = found.groups()
    cells = []
    for index, fields in zip(_CELL_INDEX, _CELL_FIELDS):
        if groups[index[0]] is not None:
            cells.append(_cell_from_groups(found.span(index[0] + 1), fields(groups)))
    number = groups[0]
    if number is None:
        return [Segment(None, 0, cells)]
    return [Segment(int(number), found.end(1) + 1, cells)]


_new_cell = functools.partial(tuple.__new__, Cell)   # a NamedTuple's own __new__ is slow


def _cell_from_groups(span: tuple[int, int], fields: tuple) -> Cell:
    start, end = span
    roll, play, dance, unknown, double, take, drop, wins, and_match, loses = fields
    if roll:
        dice = recorded_roll(roll)
        if play:
            return _new_cell((MOVE, start, end, dice, play.strip(), None, None, False))
        if unknown:
            return _new_cell((UNKNOWN, start, end, dice, "", None, None, False))
        return _new_cell((DANCE, start, end, dice, "", None, None, False))
    if double:
        return _new_cell((DOUBLE, start, end, None, "", int(double), None, False))
    if take:
        return _new_cell((TAKE, start, end, None, "", None, None, False))
    if drop:
        return _new_cell((DROP, start, end, None, "", None, None, False))
    if wins:
        return _new_cell((WINS, start, end, None, "", None, int(wins), and_match is not None))
    return _new_cell((LOSES, start, end, None, "", None, int(loses), False))


_FIRST, _SECOND = (index[0] for index in _CELL_INDEX)
# a cell's text -> the fields of its Action from kind to the end (raw: the text itself; no analysis)
Tail = tuple[ActionKind, tuple[int, int] | None, str, int | None, int | None, bool, str, tuple]
_CELLS: dict[str, Tail] = {}
_NEW_TUPLE = tuple.__new__   # an Action (a named tuple) made from its fields in order, without __new__'s keywords


def _row_actions(text: str, number: int) -> list[Action] | None:
    """``_place(_row_segments(text))`` in one pass, for speed: the actions of a
    move row of the common shapes, or None when unsure (the grammar decides).

    The fields of every cell the regular expression has read are remembered by
    the cell's text (``Takes``, ``61: 13/7 8/7`` come back again and again),
    and a row ``NN) A  B`` whose cells A and B are each remembered or read
    whole by the expression of one cell is split without the row's: A holds
    no two spaces running, B starts with a roll or a word, so no step of A can
    run on into B, and the row's expression would read the same two cells."""
    close = text.find(")")
    if close < 0 and "\t" not in text:
        # a blank line, or an unnumbered row of one remembered cell ("Wins 1 point")
        body = text.lstrip(" ")
        if not body:
            return []
        cell = body.rstrip(" ")
        known = _CELLS.get(cell)
        if known is not None and "  " not in cell:
            start = len(text) - len(body)
            return [_NEW_TUPLE(Action, (number, start + 1, None, 1 if start > RIGHT_COLUMN_GAP else 0) + known)]
    elif 0 < close < 20 and "\t" not in text:
        head = text[:close].lstrip(" ")
        if head.isdigit() and len(head) <= 9 and head.isascii():
            body = text[close + 1:].lstrip(" ")
            if not body:
                return []
            start = len(text) - len(body)
            gap = body.find("  ")
            first = body[:gap] if gap >= 0 else body.rstrip(" ")
            known = _CELLS.get(first) or _one_cell(first)
            if known is not None:
                second = body[gap:].lstrip(" ") if gap >= 0 else ""
                if not second:
                    side = 1 if start - close - 1 > RIGHT_COLUMN_GAP else 0
                    return [_NEW_TUPLE(Action, (number, start + 1, int(head), side) + known)]
                second = second.rstrip(" ")
                other = _CELLS.get(second) or _one_cell(second)
                if other is not None:
                    move_number = int(head)
                    return [_NEW_TUPLE(Action, (number, start + 1, move_number, 0) + known),
                            _NEW_TUPLE(Action, (number, len(text) - len(body[gap:].lstrip(" ")) + 1, move_number, 1) + other)]
    found = _COMMON_ROW.match(text)
    if found is None:
        return None
    groups = found.groups()
    first = groups[_FIRST]
    if first is None:
        return []
    move = groups[0]
    row_number = None if move is None else int(move)
    anchor = 0 if move is None else found.end(1) + 1
    second = groups[_SECOND]
    start = found.start(_FIRST + 1)
    fields = _CELLS.get(first)
    if fields is None:
        fields = _cell_fields(first, _CELL_FIELDS[0](groups))
    if second is None:
        side = 1 if start - anchor > RIGHT_COLUMN_GAP else 0
        return [_NEW_TUPLE(Action, (number, start + 1, row_number, side) + fields)]
    other = _CELLS.get(second)
    if other is None:
        other = _cell_fields(second, _CELL_FIELDS[1](groups))
    return [_NEW_TUPLE(Action, (number, start + 1, row_number, 0) + fields),
            _NEW_TUPLE(Action, (number, found.start(_SECOND + 1) + 1, row_number, 1) + other)]


# The C accelerator's row_actions is a fenced mirror of _row_actions for a numbered ASCII row of the
# common shapes: tests/test_audit_paths.py::test_row_actions_in_c_reads_rows_as_the_python_reader
_rows_in_c = (functools.partial(accelerator.row_actions, (Action, MOVE, DANCE, UNKNOWN, DOUBLE, TAKE, DROP, WINS, LOSES))
              if accelerator is not None else None)

_ONE_CELL = re.compile(_cell_pattern(1))
_ONE_CELL_FIELDS = operator.itemgetter(*[_ONE_CELL.groupindex[name + "1"] - 1 for name in _CELL_GROUPS[1:]])
_one_cell_match = _ONE_CELL.fullmatch


def _one_cell(cell: str) -> Tail | None:
    """The fields of a cell not yet remembered, read by the expression of one
    cell (cheaper than the row's) and remembered; None when it is not one
    whole cell of the common shapes."""
    found = _one_cell_match(cell)
    return None if found is None else _cell_fields(cell, _ONE_CELL_FIELDS(found.groups()))


def _cell_fields(cell: str, groups: tuple) -> Tail:
    """The fields of a cell's Action from kind to the end, remembered."""
    if len(_CELLS) > 50_000:
        _CELLS.clear()
    found = _cell_from_groups((0, 0), groups)
    fields = _CELLS[cell] = (found.kind, found.dice, found.play, found.cube, found.points, found.and_match, cell, ())
    return fields


@functools.lru_cache(maxsize=None)
def _transformer_class() -> type:
    """The Transformer of the grammar's lines, made when a line first needs the
    grammar: lark is imported then, not when the module is (most files never
    need it, and the import costs start-up time)."""
    from lark import Transformer

    class _LineTransformer(Transformer):
        """Builds the same plain values as the fast path from the grammar's trees."""

        def __init__(self, text: str):
            super().__init__()
            self.text = text

        # rows --------------------------------------------------------------
        def row(self, children):
            segments, leading = [], [c for c in children if isinstance(c, Cell)]
            if leading:
                segments.append(Segment(None, 0, leading))
            segments += [c for c in children if isinstance(c, Segment)]
            if not segments:
                segments.append(Segment(None, 0, []))
            return segments

        def numbered(self, children):
            number = children[0]
            return Segment(int(number[:-1]), number.end_pos, list(children[1:]))

        def _span(self, children):
            return children[0].start_pos, children[-1].end_pos

        def move(self, children):
            start, end = self._span(children)
            dice = recorded_roll(children[0][:2])
            steps = children[1:]
            if not steps:
                return Cell(DANCE, start, end, dice, "", None, None, False)
            return Cell(MOVE, start, end, dice, self.text[steps[0].start_pos:steps[-1].end_pos], None, None, False)

        def dance(self, children):
            start, end = self._span(children)
            return Cell(DANCE, start, end, recorded_roll(children[0][:2]), "", None, None, False)

        def unknown(self, children):
            start, end = self._span(children)
            return Cell(UNKNOWN, start, end, recorded_roll(children[0][:2]), "", None, None, False)

        def resign(self, children):
            start, end = self._span(children)
            first = children[0]
            dice = recorded_roll(first[:2]) if first.type == "ROLLED_RESIGNS" else None
            return Cell(ActionKind.RESIGN, start, end, dice, "", None, None, False)

        def illegal(self, children):
            start, end = self._span(children)
            # Snowie's marker holds the position after the play; an old transcription's "31: Illegal play" none
            dump = str(children[2])[1:-1].strip() if len(children) > 2 else ""
            return Cell(ILLEGAL, start, end, recorded_roll(children[0][:2]), dump, None, None, False)

        def _cube(self, kind: ActionKind, children) -> Cell:
            start, end = self._span(children)
            # a bare "Doubles" (no "=> N") has no value written: the replay works it out, as gnubg's import does
            return Cell(kind, start, end, None, "", int(children[1]) if len(children) > 1 else None, None, False)

        def double(self, children):
            return self._cube(DOUBLE, children)

        def beaver(self, children):
            return self._cube(BEAVER, children)

        def raccoon(self, children):
            return self._cube(RACCOON, children)

        def take(self, children):
            start, end = self._span(children)
            return Cell(TAKE, start, end, None, "", None, None, False)

        def drop(self, children):
            start, end = self._span(children)
            return Cell(DROP, start, end, None, "", None, None, False)

        def wins(self, children):
            start, end = self._span(children)
            return Cell(WINS, start, end, None, "", None, int(children[1]), len(children) > 3)

        def loses(self, children):
            start, end = self._span(children)
            return Cell(LOSES, start, end, None, "", None, int(children[1]), False)

        def draw(self, children):
            start, end = self._span(children)
            return Cell(ActionKind.DRAW, start, end)

        # other lines -------------------------------------------------------
        def tag_line(self, children):
            return (str(children[0]).strip(), str(children[1])[1:-1])

        def match_header(self, children):
            return int(children[0])

        def money_header(self, children):
            return 0

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

    return _LineTransformer


def _line_transformer(text: str) -> Any:
    """A transformer that builds the same plain values as the fast path from the grammar's trees."""
    return _transformer_class()(text)


def _grammar_line(start: str, text: str, number: int, path: str, what: str):
    def error(message: str, line: int, column: int) -> MatchFileError:
        return MatchFileError(f"cannot read {what} {quote(text.strip())}: {message}", path, number, column)

    return grammar.parse(GRAMMAR, text, error, _line_transformer(text), start=start)


def read_row(text: str, number: int = 1, path: str = "-") -> list[Action]:
    """The actions of one move row (fast path, else the grammar). A play cell
    the grammar cannot read (``41: 11/7x 8/7``) does not cost the row: the
    other cell is read, and the bad one becomes a move of its roll with the
    play as written, which the replay judges (one problem, at its column, and
    the game goes on from the position the rest of the record implies)."""
    actions = _row_actions(text, number)
    if actions is not None:
        return actions
    try:
        return _place(_grammar_line("row", text, number, path, "move row"), text, number, path)
    except MatchFileError as exc:
        kept = _without_bad_play(text, number, path, exc.column)
        if kept is not None:
            return kept
        others = _without_bad_cell(text, number, path, exc.column)
        if others is None:
            raise
        raise PartlyRead(exc, others) from None


class PartlyRead(MatchFileError):
    """A move row with one cell that is not a play and cannot be read
    (``Doubels => 2``): that cell's error, and the actions of the row's other
    cell, which are kept so that the bad cell costs only itself (the game
    goes on from the other player's play on the row)."""

    def __init__(self, error: MatchFileError, actions: list[Action]):
        super().__init__(error.reason, error.path, error.line, error.column)
        self.actions = actions


# the blanks between a row's two cells (a cell's own words stand one blank apart)
_CELL_GAP = re.compile(r"[ \t]{3,}")
# a cell that was meant as a play (a roll, however wrong, and a colon): its roll is not known, so the
# other player's play on the row would be out of turn; such a row is one problem, read no further
_PLAY_LIKE = re.compile(r"[ \t]*\S{1,3}:")


def _without_bad_cell(text: str, number: int, path: str, column: int) -> list[Action] | None:
    """The actions of the row's other cell, read with the cell around
    ``column`` (1-based, up to the gaps of blanks around it) blanked out;
    None when the rest of the row does not read either, or the bad cell was
    meant as a play (see ``_PLAY_LIKE``). An answer to the
    cube (``Takes``) after a bad cell on its left answers what that cell was
    meant to be: it goes with it."""
    head = _ROW_START.match(text)
    if head is None or column <= head.end():
        return None
    at = column - 1
    gaps = list(_CELL_GAP.finditer(text, head.end()))
    start = max((gap.end() for gap in gaps if gap.end() <= at), default=head.end())
    end = min((gap.start() for gap in gaps if gap.start() > at), default=len(text.rstrip()))
    if _PLAY_LIKE.match(text, start):   # a play whose roll does not read (71: 13/6): the row goes with it
        return None
    if not text[head.end():start].strip() and not text[end:].strip():
        return []
    others = _rest_of_row(text, start, end, number, path)
    if others is None:
        return None
    return [a for a in others if not (a.kind in (TAKE, DROP) and a.column > start)]


def _rest_of_row(text: str, start: int, end: int, number: int, path: str) -> list[Action] | None:
    """The actions of the row with ``text[start:end]`` (a bad cell) blanked
    out, the columns kept: the other cell's, if any; None when the rest does
    not read, or reads as more than one cell."""
    rest = text[:start] + " " * (end - start) + text[end:]
    try:
        others = _place(_grammar_line("row", rest, number, path, "move row"), rest, number, path)
    except MatchFileError:
        return None
    return others if len(others) <= 1 else None


# a roll at the start of a cell
_CELL_ROLL = re.compile(rf"(?<!\S)({DIE_PATTERN}{DIE_PATTERN}):")


@functools.lru_cache(maxsize=None)
def _cell_start() -> re.Pattern[str]:
    """Where a cell of its own starts, after a blank: the first terminal of
    each of the grammar's ``cell`` rules (grammars/matchfile.lark owns the
    words: one it reads starts a cell, and no other word does), as a whole
    word, or any two digits and a colon (a cell meant as a play whose roll
    does not read, ``71:``, as ``_PLAY_LIKE`` says). Built from the parser
    when a bad play first needs it (the grammar is loaded then: the play did
    not read)."""
    built = grammar.parser(GRAMMAR, "row", cache=True)
    patterns = {terminal.name: terminal.pattern.to_regexp() for terminal in built.terminals}
    firsts = sorted({rule.expansion[0].name for rule in built.rules if rule.origin.name == "cell"})
    # a whole word: not the start of a longer one or of a step ("?13/7" is a stray "?" in a play, not "????")
    return re.compile(r"(?<!\S)(?:[0-9]{2}:|(?:" + "|".join(patterns[name] for name in firsts) + r")(?![\w/]))")


def _without_bad_play(text: str, number: int, path: str, column: int) -> list[Action] | None:
    """The row read with the play cell around ``column`` (1-based) taken out
    and put back as a move of its roll with the play as written; None when
    the error is not in a play cell whose roll reads, or the rest of the row
    does not read either."""
    head = _ROW_START.match(text)
    if head is None or column <= head.end():
        return None
    rolls = [found for found in _CELL_ROLL.finditer(text, head.end()) if found.start() < column - 1]
    if not rolls:
        return None
    roll = rolls[-1]
    following = _cell_start().search(text, roll.end())
    end = following.start() if following is not None else len(text.rstrip())
    play = text[roll.end():end].strip()
    if not play or column - 1 >= end or "   " in play:   # a wide gap: another cell the pattern did not know
        return None
    others = _rest_of_row(text, roll.start(), end, number, path)
    if others is None:
        return None
    if others:
        side = 1 - others[0].side
    else:
        side = 1 if roll.start() - head.end() > RIGHT_COLUMN_GAP else 0
    move_number = int(head.group(0).strip()[:-1])
    bad = Action(number, roll.start() + 1, move_number, side, MOVE, recorded_roll(roll.group(1)), play,
                 raw=text[roll.start():end].rstrip())
    return sorted([*others, bad], key=lambda action: action.column)


def _place(segments: list[Segment], text: str, number: int, path: str) -> list[Action]:
    """Put each cell in its column: layout, not syntax."""
    actions = []
    for move_number, anchor, cells in segments:
        if len(cells) > 2:
            third = cells[2]
            raise MatchFileError(f"a third cell {quote(text[third.start:third.end])} in move row {quote(text.strip())}",
                                 path, number, third.start + 1)
        for index, cell in enumerate(cells):
            if len(cells) == 2:
                side = index
            else:
                side = 1 if cell.start - anchor > RIGHT_COLUMN_GAP else 0
            actions.append(Action(number, cell.start + 1, move_number, side, cell.kind, cell.dice, cell.play, cell.cube,
                                  cell.points, cell.and_match, text[cell.start:cell.end]))
    return actions


# ---------------------------------------------------------------------------
# A number of a line written again (bgcli.judging.repair): where the reader reads it, so that an edit
# changes that number and nothing else, and a cell says it in the words it was written in.


def _tokens(start: str, text: str, kinds: tuple[str, ...]) -> list | None:
    """The grammar's tokens of ``kinds`` in ``text``, in order, read from the rule ``start``; None when it does not read."""
    def error(message: str, line: int, column: int) -> MatchFileError:
        return MatchFileError(message, "-", line, column)

    try:
        tree = grammar.parse(GRAMMAR, text, error, start=start)
    except MatchFileError:
        return None
    return list(tree.scan_values(lambda value: getattr(value, "type", None) in kinds))


def _in_case_of(word: str, written: str) -> str:
    """``word`` in the case ``written`` is in: lower, Capitalised, else upper."""
    if written.islower():
        return word
    return word.capitalize() if written[:1].isupper() and written[1:].islower() else word.upper()


def renumbering(cell: str) -> Callable[[int], str] | None:
    """How the cube or result cell ``cell`` (``Doubles => 2``, ``Win 1 point``)
    is written with another number for the one the reader reads in it, a
    result's ``point(s)`` agreeing with it (core.cube.point_noun) in the case
    the cell writes it; None when the cell writes no number (a bare
    ``Doubles``, a play) or is not one cell."""
    tokens = _tokens("row", cell, ("INT", "POINT", "MOVE_NUMBER", "ROLL"))
    if not tokens or tokens[0].type != "INT" or len(tokens) > 2 or tokens[-1].type not in ("INT", "POINT"):
        return None
    number, word = tokens[0], tokens[1] if len(tokens) == 2 else None

    def written(value: int) -> str:
        text = cell[:number.start_pos] + str(value)
        if word is None:
            return text + cell[number.end_pos:]
        return (text + cell[number.end_pos:word.start_pos] + _in_case_of(point_noun(value), str(word))
                + cell[word.end_pos:])

    return written


def score_spans(text: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Where the two scores of ``text`` stand (the offsets of their digits)
    when the reader reads it as a game's score line (``Alice : 0   Bob : 2``);
    None for any other line, a comment among them."""
    if _COMMENT.match(text):
        return None
    found = _SCORE_LINE.match(text)
    if found is not None:
        return found.span(2), found.span(4)
    tokens = _tokens("score_line", text, ("INT",))
    return None if tokens is None else ((tokens[0].start_pos, tokens[0].end_pos), (tokens[1].start_pos, tokens[1].end_pos))


def row_body(text: str) -> str:
    """A move row's text after its number ``NN)`` (the whole text when it has none)."""
    head = _ROW_START.match(text)
    return text[head.end():] if head is not None else text


def _split_rating(name: str) -> tuple[str, str | None]:
    found = _RATING.match(name)
    return (found.group(1), found.group(2)) if found and found.group(1) else (name, None)


def _set_up(board: str) -> SetUp:
    """The set-up of a ``; Set Pos=`` line (an XGID's first field, and XG's
    ``/0`` after it), the opening's board too (a position set up, from which
    the first roll is any roll, as an SGF set-up of it); InvalidPositionError
    when it is no board.
    The XGID's upper-case checkers are the left column's (player 0's): XG's
    export plays them in the left column (tests/test_setup.py replays such a
    file, which the other side's board would break at its first play)."""
    from bgcli.core.ids import parse_xgid   # here: a file without XG's set-up line reads no ID (start-up)

    position = parse_xgid(board.partition("/")[0] + ":0:0:1:00:0:0:0:0:10").position
    return SetUp(position, f"XG's {quote('; Set Pos=' + board, 60)}")


# ---------------------------------------------------------------------------
# Putting lines together into games and matches


# A match file's first match starts within its first megabyte: before it come only a header's tags and
# comments, a site's preface. Text with no match start in it by then (a log, a book, 200 MB piped to audit)
# is refused there, not read to its end with each of its lines held.
BEFORE_FIRST_MATCH = 1 << 20   # bytes of text, with its line ends


class _Reader:
    """A line-driven state machine; holds only the match being read."""

    def __init__(self, path: str):
        self.path = path
        self.match: Any = None       # the match being read (a dict of its parts)
        self.game: Any = None        # the game being read (a dict of its parts)
        self.expect_score = False
        # comment lines not yet placed: (line, text, (name, value) or None)
        self.pending: list[tuple[int, str, tuple[str, str] | None]] = []
        self.preamble: list[tuple[int, str]] = []   # unreadable lines before the first match
        self.found_any = False
        self.before_first = 0   # bytes read before the first match started (BEFORE_FIRST_MATCH)
        self.headerless = False   # a .gam's games with no header: each starts at a line of the two names
        # a header with gnubg's habits, held until its first game says whether its lines are laid out as
        # gnubg's export lays them (_signed): the header; whether its game and score lines are; whether a
        # row bore gnubg's mark (gnubg_row: one row a slip changed does not take it away)
        self.held: MatchHeader | None = None
        self.laid_out = True
        self.marked = False

    def feed(self, number: int, text: str) -> Iterator[MatchPart]:
        if not self.found_any:
            self.before_first += len(text) + 1
            if self.before_first > BEFORE_FIRST_MATCH:
                raise self._no_match(f" in its first {BEFORE_FIRST_MATCH >> 20} MB")
        if self.game is not None and not self.expect_score and not self.pending and _ROW_START.match(text):
            try:    # the common case first: a numbered move row inside a game
                actions = read_row(text, number, self.path)
                self.game["actions"].extend(actions)
                if self.held is not None:
                    self.marked = self.marked or gnubg_row(text, actions)
            except MatchFileError as exc:
                if isinstance(exc, PartlyRead):
                    self.game["actions"].extend(exc.actions)
                self.match["errors"].append(exc)
            return
        if _BLANK.match(text):
            return
        if _COMMENT.match(text):
            if self.game is not None and (set_pos := _SET_POS.match(text)):
                if "set_up" not in self.game:
                    board = set_pos.group(1)
                    try:
                        self.game["set_up"] = _set_up(board)
                    except InvalidPositionError as exc:   # the game cannot be replayed: skipped, said at this line
                        how = f"XG's {quote('; Set Pos=' + board, 60)}"
                        self.game["set_up"] = MatchFileError(set_up_game(self.game["number"], how, str(exc)),
                                                             self.path, number, 1)
                return
            self._comment(number, text)
            return
        if _MATCH_HEADER_START.match(text):
            yield from self._match_header(number, text)
            return
        if self.match is None and _ROW_START.match(text):
            yield from self._game_without_header(number)
        self._flush_comments()
        if _GAME_HEADER_START.match(text):
            yield from self._game_header(number, text)
            return
        if self.match is None:
            self.preamble.append((number, text))
            return
        if self.headerless and self.game is not None and any(a.kind is WINS for a in self.game["actions"]):
            names = _names_line(text)
            if names is not None:   # GammonEmpire's .gam: the next game of the session, after the result
                yield from self._close_game()
                self.game = dict(number=self.match["games"] + 1, line=number, players=names, ratings=(None, None),
                                 scores=None, actions=[])
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
                raise MatchFileError(f"move row outside a game {quote(text.strip())}", self.path, number, 1)
            self.game["actions"].extend(actions)
        except MatchFileError as exc:
            if isinstance(exc, PartlyRead) and self.game is not None:
                self.game["actions"].extend(exc.actions)
            self.match["errors"].append(exc)

    def finish(self) -> Iterator[MatchPart]:
        self._flush_comments()
        if self.match is not None:
            yield from self._close_match()
        if not self.found_any:
            raise self._no_match()

    def _no_match(self, within: str = "") -> MatchFileError:
        """The error of text with no match in it (``within``: how much of it was read)."""
        from bgcli.formats import gnubgwords, positionfile   # here: only a file with no match asks it (start-up)

        line = self.preamble[0][0] if self.preamble else 1
        position = positionfile.not_a_match("\n".join(text for _, text in self.preamble)) if self.preamble else None
        if position is not None:
            return MatchFileError(f"not a match file but {position.replace('FILE', self.path)}", self.path, line, 1)
        if sum(1 for _, text in self.preamble if _GNUBG_BOARD_HEADING.match(text)) > 1:
            known = ", ".join(gnubgwords.LANGUAGES)
            return MatchFileError("not a match file: GNU Backgammon's 'export match text' whose first line is no "
                                  "score line bgcli knows ('The score (after N games) is: ...' in the language gnubg "
                                  f"ran in): bgcli reads gnubg's words in {known}; export the match in one of them, or "
                                  "save it as .mat or SGF, which gnubg writes alike in every language", self.path, line, 1)
        where = f" (first unreadable line {self.preamble[0][0]}: {quote(self.preamble[0][1].strip())})" if self.preamble else ""
        return MatchFileError(f"not a match file: no 'N point match' line{within}{where}", self.path, line, 1)

    # comments and tags --------------------------------------------------
    def _comment(self, number: int, text: str) -> None:
        self.pending.append((number, text.strip(), tag_of(text, number, self.path)))

    def _flush_comments(self) -> None:
        """Comments not followed by a match header belong to the current match; before the first match they
        wait for it (a preface may stand between a header's tags and its 'N point match')."""
        if self.match is not None:
            self.match["comments"].extend((line, text) for line, text, _ in self.pending)
            self.pending = []

    # headers ---------------------------------------------------------------
    def _match_header(self, number: int, text: str) -> Iterator[MatchPart]:
        if self.match is not None:
            yield from self._close_match()
        errors = []
        found = _MATCH_HEADER.match(text)
        try:
            length = int(found.group(1) or 0) if found else _grammar_line("match_header", text, number, self.path,
                                                                           "match header")
        except MatchFileError as unread:
            exc = unread             # the grammar's error, unless the length says more
            word = text.split()[0]   # the header's first word is its number
            if word.isascii() and word.isdigit() and len(word) > 9:
                exc = MatchFileError(f"the match length {quote(word, 20)} has {len(word)} digits: "
                                     f"a match length is at most 9 digits (0: a money session)", self.path, number, 1)
            errors.append(exc)
            length = int(word) if word.isascii() and word.isdigit() and len(word) <= 9 else 0
        yield from self._opened(self._open_match(number, length, errors, preface=True,
                                                 gnubg_line=_GNUBG_MATCH_HEADER.fullmatch(text) is not None))

    def _open_match(self, number: int, length: int, errors: list[MatchFileError], preface: bool = False,
                    gnubg_line: bool = False) -> MatchHeader:
        """A match begins at line ``number``, and the comment block just above it is its tags and comments.
        The other lines before the first match are a preface (``preface``: an 'N point match' header follows
        them) or errors. Old tournament transcriptions head a match with a title box without the ';'
        (``+----+``, ``|  Monte Carlo 1993  |``; bgdb's notes on 3 000 of them), which GNU Backgammon's
        ``import mat`` passes over: kept as comments. A game or a move row with no header before it
        (Jellyfish's .gam) has no place for a preface: the lines before it are errors."""
        comments: list[tuple[int, str]] = []
        for line, bad in self.preamble:
            if preface:
                comments.append((line, bad))
            else:
                errors.append(MatchFileError(f"not part of a match {quote(bad.strip())}", self.path, line, 1))
        self.preamble = []
        tags: dict[str, str] = {}
        for _, _, tag in self.pending:
            if tag is not None:
                tags.setdefault(tag[0], tag[1])
        comments = sorted(comments + [(line, text) for line, text, tag in self.pending if tag is None])
        self.pending = []
        self.match = dict(length=length, line=number, tags=tags, comments=comments, errors=errors, games=0)
        self.headerless = False
        self.found_any = True
        # gnubg's 'export match mat' heads a match with its date and only the tags it keeps (no rule, no
        # comment), then ' N point match'; bgcli's export of the same layout writes its rules' tags
        by_gnubg = gnubg_line and not comments and not errors and "EventDate" in tags and set(tags) <= GNUBG_HEADER_TAGS
        return MatchHeader(length, number, tags, self.path, words=WORDS, writer=Writer.GNUBG if by_gnubg else None)

    def _opened(self, header: MatchHeader) -> Iterator[MatchHeader]:
        """A match header as it comes, but one with gnubg's habits: a hand-made file can copy a header, so it
        is held until its first game's lines say whether they are gnubg's too (_signed): a game, no more."""
        if header.writer is Writer.GNUBG:
            self.held, self.laid_out, self.marked = header, True, False
        else:
            yield header

    # Jellyfish's .gam (a money session, or a game saved alone: gnubg's ``export game gam``) has no
    # 'N point match' line: it starts at a 'Game N' line, or at the first move row, after a line that
    # names the two players without their scores. It is read as Jellyfish means it, a money session;
    # GammonEmpire's game file (gnubg's ``import empire``) is such games one after another, each at its
    # own line of names after the result of the one before (feed).
    def _game_header(self, number: int, text: str) -> Iterator[MatchPart]:
        if self.match is None:
            yield self._open_match(number, 0, [])
        yield from self._close_game()
        found = _GAME_HEADER.match(text)
        try:
            game_number = int(found.group(1)) if found else _grammar_line("game_header", text, number, self.path, "game header")
        except MatchFileError as exc:
            self.match["errors"].append(exc)
            game_number = self.match["games"] + 1
        self.game = dict(number=game_number, line=number, players=("", ""), ratings=(None, None), scores=None, actions=[],
                         crawford=True if found and found.group(2) else None, text=text)
        self.expect_score = True

    def _game_without_header(self, number: int) -> Iterator[MatchPart]:
        """A move row before any header: a .gam's one game, its players those of the line before it when that
        line names two (``gnubg                          root``), at 0-0."""
        players, start = ("", ""), number
        if self.preamble:
            names = _names_line(self.preamble[-1][1])
            if names is not None:
                start = self.preamble.pop()[0]
                players = names
        yield self._open_match(start, 0, [])
        self.headerless = True
        self.game = dict(number=1, line=start, players=players, ratings=(None, None), scores=(0, 0), actions=[])

    def _score_line(self, number: int, text: str) -> None:
        self.expect_score = False
        found = _SCORE_LINE.match(text)
        if found:
            left, left_score, right, right_score = found.group(1), int(found.group(2)), found.group(3), int(found.group(4))
        else:
            left, left_score, right, right_score = _grammar_line("score_line", text, number, self.path, "score line")
        if self.held is not None:
            self.laid_out = self.laid_out and text == gnubg_score_line(left, left_score, right, right_score) \
                and self.game["text"] == f" Game {self.game['number']}"
        (left, left_rating), (right, right_rating) = _split_rating(left), _split_rating(right)
        self.game.update(players=(left, right), ratings=(left_rating, right_rating), scores=(left_score, right_score))

    # closing -------------------------------------------------------------
    def _close_game(self) -> Iterator[MatchPart]:
        set_up = self.game.get("set_up") if self.game is not None else None
        if isinstance(set_up, MatchFileError):
            self.match["errors"].append(set_up)
            self.laid_out = False   # XG's '; Set Pos=': gnubg's export writes none
        elif self.game is not None:
            game = self.game
            self.match["games"] += 1
            yield from self._signed()
            yield GameRecord(game["number"], game["players"], game["scores"], tuple(game["actions"]), game["line"],
                             game["ratings"], set_up=set_up, crawford=game.get("crawford"))
        self.game, self.expect_score = None, False

    def _signed(self) -> Iterator[MatchHeader]:
        """The header held for its first game (_open_match), once that game is read: gnubg's when the game's
        lines are laid out as gnubg's export lays them too (gnubg_row), else no known writer's."""
        if self.held is not None:
            header, self.held = self.held, None
            if not (self.laid_out and self.marked):
                yield replace(header, writer=None)
            elif header.length:
                yield header
            else:
                # gnubg's .mat writes no rule of beavers: its money session is read under gnubg's own, decided
                # here, from the header and the first game, so that no game is held (conventions.gnubg_beaver_tags)
                yield replace(header, tags=gnubg_beaver_tags(header.tags))

    def _close_match(self) -> Iterator[MatchPart]:
        yield from self._close_game()
        yield from self._signed()
        match, self.match = self.match, None
        yield MatchEnd(tuple(match["errors"]), tuple(match["comments"]))


# ---------------------------------------------------------------------------
# Writing gnubg's layout
#
# gnubg 1.07's ``export match mat``: ``; [Site ...]``/``; [Event ...]``/
# ``; [EventDate "YYYY.MM.DD"]`` tags and a blank line; `` N point match``;
# per game `` Game n``, the score line (``" " + "name : score".ljust(31) +
# "name : score"``), then rows: ``%3d) ``, the left cell padded to 27 and a
# space, the right cell. A move cell is the dice (larger first), a colon and
# one ``a/b`` pair per die (bar 25, off 0, ``*`` on a hit), each pair
# preceded by a space, and a trailing space unless four dice were played.
# Cube cells are `` Doubles => n``, `` Takes``, `` Drops``. The result is
# `` Wins n point(s)``: on the open row when the right-hand player wins after
# a left-hand action (then with a trailing space), else on a row of its own.
# A blank line ends each game. The take of a beaver or raccoon is not written (gnubg's SGF has it, its
# .mat not). Tags gnubg keeps (Site, Event, Round,
# Annotator, EventDate) are written first; tags it does not know follow after
# a blank line, as gnubg writes its match comment. Two deliberate departures
# from gnubg's import-then-export: XG's ``63: ????`` (rolled, then resigned)
# is written as XG writes it, because gnubg's ``63:`` would read back as a play (gnubg 1.07's import
# plays a roll written without a play as it chooses, tests/test_heldout_roundtrip.py), never made; and a
# ``Wins`` line keeps the points recorded, even when the replay finds them
# wrong.

# The cell of a raccoon's take, which gnubg's export does not write but pads for (MatWriter._cells);
# no cell is written so (a control character)
_HIDDEN_TAKE = "\x00take"

# Tags gnubg keeps from an imported file and writes back, in its order.
MAT_TAGS = ("Site", "Event", "Round", "Annotator", "EventDate")
# the tags gnubg's own export writes: those, and a variant's (`; [Variation "NackGammon"]`,
# tests/data/heldout-roundtrip/dr44208_money.mat)
GNUBG_HEADER_TAGS = frozenset((*MAT_TAGS, "Variation"))
# Rule tags: the rules write what differs from the standard (match.rules.tags()).
# Every other tag is written as read (gnubg itself drops Match ID, the Elo
# ratings, EventTime, Variation, Unrated; bgcli keeps them).


# The writer's patterns, compiled when a file is first written (re's cache keeps them): reading and
# auditing do not pay for them at start-up.
_LINE_BREAKS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_UNWRITABLE_NAME = f"[{_LINE_BREAKS}:\x00-\x1f\x7f]"
_UNWRITABLE_TAG = f'[{_LINE_BREAKS}"\x00-\x1f\x7f]'
_TAG_NAME = r"[A-Za-z][A-Za-z0-9_ ]{0,40}"


_LOOKS_LIKE_TAG = r"\s*\["


class MatWriter(GameWriter):
    """A replay visitor that writes gnubg's .mat layout; ``date``
    ("YYYY.MM.DD") replaces the EventDate tag; without either, today."""


    def __init__(self, notation: str = "mat", date: str | None = None):
        super().__init__()
        check_style(notation)
        self.notation = notation
        self.date = date
        self.lines: list[str] = []      # the head: tags, then (at the end) comments and the length line
        self.body = Spool()             # the games, held until the head can be written
        self.names: tuple[str, ...] = ("", "")
        self.others = False      # tags written after the ones gnubg keeps (their block opened)
        self.redoubled = False   # a beaver or raccoon written
        self.beavers_said = False   # a rule of beavers among the tags written
        self.implied: list[tuple[str, str]] = []   # rule tags gnubg's layout implies, left out (begin_match)

    def begin_match(self, match: MatchStart) -> None:
        super().begin_match(match)
        lines = self.lines
        tags = match.tags
        wanted = {k.lower(): v for k, v in tags.items()}
        if self.date is not None:
            wanted["eventdate"] = self.date
        wanted.setdefault("eventdate", datetime.date.today().strftime("%Y.%m.%d"))
        for name in MAT_TAGS:
            if name.lower() in wanted:
                lines.append(f'; [{name} "{self._tag_value(name, wanted[name.lower()])}"]')
        kept = {t.lower() for t in MAT_TAGS}
        others = other_tags(tags, kept)
        others = [(k, v) for k, v in others if self._tag_name_fits(k)]
        ruled = rule_tags(match)   # every rule that is not the standard one
        # gnubg's rule of beavers, which a money session in gnubg's layout with no other tag reads back with
        # (conventions.gnubg_beaver_tags): left out, as gnubg's export leaves it, unless comments come (end_match)
        self.implied = [] if match.length or others or dict(ruled) != gnubg_beaver_tags({}) else ruled
        others += [] if self.implied else ruled
        if others:
            lines.append("")
            lines += [f'; [{k} "{self._tag_value(k, v)}"]' for k, v in others]
        self.others = bool(others)
        self.beavers_said = any(SETTING_OF_TAG.get(key.lower()) is BEAVERS for key, _ in others + self.implied)
        self.redoubled = False   # a beaver or raccoon written
        self.body = Spool()
        self.names = tuple(self._name(name) for name in match.players)

    # A .mat file has no escapes: a line break in a name or a tag would start a
    # record of its own (a forged game), a colon in a name is more than GNU
    # Backgammon 1.07's import reads (it cuts a second name at it and aborts on
    # a first; bgcli reads it) and a quote would end a tag. Such text is changed (those
    # characters become spaces) and the change is reported as left out.
    def _name(self, name: str) -> str:
        clean = re.sub(_UNWRITABLE_NAME, " ", name).strip()
        if clean != name.strip():
            self.leave_out(Lack.NAME_COLONS, f"the player name {quote(name, 40)}: .mat cannot hold a line break or a colon in a name")
        return clean

    def _comment_lines(self) -> list[str]:
        """The record's comments, a ``;`` line each of their lines (one that
        would read back as a tag is left out, and said)."""
        out = [""] if self.comments else []
        for line, text in self.comments:
            for part in text.splitlines() or [""]:
                if re.match(_LOOKS_LIKE_TAG, part):
                    self.leave_out(Lack.COMMENTS_LIKE_TAGS, f"line {line}: a comment line {quote(part, 40)} that .mat would read as a tag")
                    continue
                out.append(part.rstrip() if part.startswith(";") else f"; {part}".rstrip())   # the .mat reader keeps the ";"
        return out

    def _tag_value(self, key: str, value: str) -> str:
        clean = re.sub(_UNWRITABLE_TAG, " ", value)
        if clean != value:
            self.leave_out(Lack.TAG_QUOTES, f"tag {quote(key, 40)}: .mat cannot hold a line break or a quote in a tag")
        return clean

    def _tag_name_fits(self, key: str) -> bool:
        if re.fullmatch(_TAG_NAME, key):
            return True
        self.leave_out(Lack.TAG_NAMES, f"tag {quote(key, 40)}: not a name a .mat tag can have")
        return False

    def write_game(self, game: GameToWrite, index: int) -> None:
        names = self.names
        lines = [f" Game {index}", gnubg_score_line(names[0], game.start.score[0], names[1], game.start.score[1])]
        if game.start.set_up is not None and game.start.set_up.position is not None:   # as XG writes it, the left column's checkers upper case (_set_up)
            from bgcli.core.ids import xgid

            board = xgid(GameState(game.start.set_up.position, MatchState())).removeprefix("XGID=").partition(":")[0]
            lines.append(f"; Set Pos={board}/0")
        lines += self._rows(game)
        lines.append("")
        self.body.write("\n".join(lines) + "\n")
        self.redoubled = self.redoubled or any(event.kind in (EventKind.BEAVER, EventKind.RACCOON) for event in game.events)

    def writes_set_up(self, set_up: SetUp) -> bool:
        """XG's ``; Set Pos=`` holds a board, not a cube: a set-up at a cube of 1 in the middle."""
        return set_up.cube == 1 and set_up.cube_owner == -1

    def end_match(self) -> MatchText:
        # the comments are known now (an export that streams a file learns them at its end)
        assert self.info is not None
        rules = self.info.rules
        if self.redoubled and rules.applies("beavers") and not rules.in_force("beavers") and not self.beavers_said:
            # a beaver recorded where the rules allow none: the rule written, 'Off', for the layout is gnubg's,
            # whose money .mat with a beaver is read with the rule on (conventions.gnubg_beaver_tags)
            self.lines += ([] if self.others else [""]) + [f'; [{BEAVERS.tag} "Off"]']
        comments = self._comment_lines()
        if self.implied and comments:   # a comment: the head is no longer gnubg's, and says its rule
            self.lines += [""] + [f'; [{k} "{v}"]' for k, v in self.implied]
        head = self.lines + comments + ["", f" {self.info.length} point match", ""]
        self.lines = []
        return MatchText("\n".join(head) + "\n", self.body)

    def _cell(self, event: Event) -> str:
        if event.kind == EventKind.MOVE:
            assert event.dice is not None
            high, low = max(event.dice), min(event.dice)
            steps = steps_to_write(event)
            if steps is not None and self.notation == "mat":
                parts = [f"{s.start}/{s.end}" + ("*" if s.hit else "") for s in steps]
            else:
                body = play_in(self.notation, event, steps)
                parts = body.split() if body else []
            return f"{high}{low}:" + "".join(" " + p for p in parts) + (" " if len(parts) < 4 else "")
        if event.kind == EventKind.DOUBLE:
            return " " + WORDS.doubled(None, value_reached(event.before.match, event.cube))
        if event.kind == EventKind.BEAVER:
            return " " + WORDS.beavered(None, value_reached(event.before.match, event.cube))
        if event.kind == EventKind.RACCOON:
            # as gnubg's own export writes it, 'Beavers => N' (the cube before it is the beaver's: it doubles
            # that): gnubg reads that back at N, but waits for a Takes after 'Raccoons => N' and, with none,
            # plays on at the beaver's cube (tests/data/raccoon); bgcli reads either as the raccoon it is
            return " " + WORDS.beavered(None, value_reached(event.before.match, event.cube))
        return " Takes" if event.kind == EventKind.TAKE else " Drops"

    def _cells(self, game: GameToWrite) -> Iterator[tuple[int, str]]:
        """Each cell of the game's rows and its column, in order: the events, and Galaxy's ``Losses`` where it stood."""
        losses = iter(game.losses)
        loss = next(losses, None)
        for at, event in enumerate([*game.events, None]):
            while loss is not None and loss[0] == at:
                yield loss[1], f" Losses {points_word(loss[2])}"
                loss = next(losses, None)
            if event is None:
                return
            if event.kind == EventKind.ROLL:
                # a roll with no play, then the resignation: XG's "63: ????"
                # (gnubg's own "63:" would read back as a play of gnubg's choosing, never made)
                assert event.dice is not None
                yield event.side, f"{dice_name(event.dice)}: ????"
            elif event.kind == EventKind.TAKE and at and game.events[at - 1].kind in (EventKind.BEAVER, EventKind.RACCOON) \
                    and at + 1 < len(game.events):
                # gnubg's export writes no Takes for a beaver or raccoon (its SGF has the node); one in the
                # right-hand column leaves a row that then closes two spaces longer (_rows). The game going on
                # says it was taken; a take the record stops at is written, or it would be lost
                if event.side == 1:
                    yield event.side, _HIDDEN_TAKE
            else:
                yield event.side, self._cell(event)
                if event.kind in (EventKind.BEAVER, EventKind.RACCOON) and event.side == 0 and at + 1 < len(game.events) \
                        and game.events[at + 1].kind not in (EventKind.TAKE, EventKind.DROP, EventKind.RACCOON):
                    yield 1, _HIDDEN_TAKE   # the take the record leaves out (a .mat's), as gnubg's export leaves it

    def _rows(self, game: GameToWrite) -> list[str]:
        rows: list[str] = []
        number = 0
        left: str | None = None     # the left cell of the row being written
        tail = ""                   # what the row ends with when no right-hand cell comes: gnubg's 2 spaces
                                    # for a take of a beaver or raccoon it does not write

        def prefix() -> str:
            return f"{number:3d}) "

        for side, cell in self._cells(game):
            if side == 0:
                if left is not None:
                    rows.append(prefix() + left.ljust(27) + " " + tail)
                number += 1
                left, tail = cell, ""
            elif cell == _HIDDEN_TAKE:
                tail = "  " if left is not None else ""
            else:
                tail = ""
                if left is None:
                    number += 1
                    rows.append(prefix() + "".ljust(27) + " " + cell)
                else:
                    rows.append(prefix() + left.ljust(27) + " " + cell)
                left = None
        result = game.result
        if result is not None and result.winner_side < 0:   # an agreed draw, on a row of its own
            if left is not None:
                rows.append(prefix() + left.ljust(27) + " ")
                left = None
            rows.append("      Agreed draw")
            result = None
        if result is not None:
            wins = " " + WORDS.won(None, game.points)
            if result.winner_side == 1 and left is not None:
                rows.append(prefix() + left.ljust(27) + " " + wins + " ")
                left = None
            else:
                if left is not None:
                    rows.append(prefix() + left.ljust(27) + " ")
                    left = None
                rows.append("    " + " " + ("" if result.winner_side == 0 else " " * 28) + wins)
        if left is not None:
            rows.append(prefix() + left.ljust(27) + " " + tail)
        return rows


def mat_text(record: MatchRecord, notation: str = "mat", date: str | None = None, rules: Rules | None = None) -> str:
    """One match in gnubg's .mat layout (replayed first, so positions, cube
    and hits come from the replay)."""
    return str(replay_match(record, rules=rules, visitor=MatWriter(notation, date)))
