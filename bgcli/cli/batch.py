"""Batches of position queries: reading their lines, and the engine of
``bgcli moves --batch`` (one JSON object per query).

Input and output, not a rule: standard input's bytes, JSON lines and exit
statuses sit here, over the core (the generator owns the plays, the
spellings module the dice); it is imported without click, so that
``moves --batch -`` is answered before click loads (bgcli.cli.main).

A batch is lines of bytes (standard input, a file): :func:`batch_lines`
reads them as UTF-8 text, a bad line kept in its place as a
:class:`BadLine`. :func:`position_and_dice` reads a query's words (a
position in any notation bgcli reads, then dice, or dice the position
carries). :class:`MovesWriter` writes a query's legal plays as one JSON
line, and :func:`run_moves` a whole batch; :func:`moves_chunk` is the part
of a batch one worker process does (see :mod:`bgcli.scale.pool`).
"""
from __future__ import annotations

import functools
import io
import re
from typing import Any, Callable, Iterable, NamedTuple, Sequence

from bgcli.core.generator import BOARD_BITS as _HITS  # a play key's hit marks start here
from bgcli.core.generator import Play, legal_keys, legal_plays, play_of, query_ids
from bgcli.core.generator import accelerator as _speedups  # the C accelerator, or None
from bgcli.core.position import ID_PATTERN, ROLLS, Dice, Position, checked_dice, parse_position_id, trusted_position
from bgcli.core.spelling import BLANKS, ROLL_PATTERN, is_die, meant_as_dice, parse_dice, point_names, roll_of
from bgcli.errors import EXIT_PROBLEMS, EXIT_UNREADABLE, BgcliError, InvalidPositionError, MissingDiceError, os_reason

MAX_LINE = 1 << 20  # bytes in one line of a batch
EMPTY_LINE = "empty line"  # the error of a blank batch line, in every command

WORD = re.compile(r"[^ \t\f\r\n]+")  # words are split on the white space the grammars ignore, no other


class BadLine(NamedTuple):
    """A line of a batch that is not text: its error, and whether reading stopped there."""

    error: str
    last: bool = False


def batch_lines(stream) -> Iterable[str | BadLine]:
    """The lines of a binary stream, split on ``\\n`` only (a ``\\r`` before it
    dropped), read as UTF-8 (or UTF-16, after its byte order mark: see
    :func:`text_stream`). A line that is not UTF-8 is a BadLine in its
    place; a line longer than MAX_LINE bytes is a BadLine too, and the last:
    the rest of the input is not read (it may be endless, as /dev/zero), and
    so is a line that cannot be read (an I/O error)."""
    stream = text_stream(stream)
    while True:
        try:
            line = stream.readline(MAX_LINE + 1)
        except OSError as exc:   # opened but not readable (an I/O error, /proc/self/mem): the last line, not a traceback
            yield unreadable_line(exc)
            return
        if not line:
            return
        if len(line) > MAX_LINE and not (len(line) == MAX_LINE + 1 and line.endswith(b"\n")):
            yield BadLine(f"longer than {MAX_LINE:,} bytes; the rest of the input is not read", last=True)
            return
        line = line[:-1] if line.endswith(b"\n") else line
        line = line[:-1] if line.endswith(b"\r") else line
        if b"\r" in line:   # lines separated by CR alone would be read as one: an error, not the first
            yield BadLine("holds a carriage return (\\r): lines are separated by newlines (\\n)")
            continue
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield BadLine(f"not UTF-8 text (byte {exc.start + 1} of the line)")


def text_stream(stream):
    """``stream`` past a byte order mark: UTF-8's dropped, and after UTF-16's the text given as UTF-8 (what
    Windows' editors save as "Unicode"), as match files are read; a batch so saved was an error on every line.
    Only a stream that can peek (a file, standard input) is looked at: the bytes are not consumed otherwise."""
    import codecs

    if isinstance(stream, codecs.StreamRecoder):   # recoded already (it answers peek with the bytes underneath)
        return stream
    try:
        head = stream.peek(4)[:4]
    except (AttributeError, OSError, ValueError):
        return stream
    if head.startswith(codecs.BOM_UTF8):
        stream.read(len(codecs.BOM_UTF8))
    elif head in (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE):   # before UTF-16's, which begins UTF-32's LE mark
        return codecs.EncodedFile(stream, "utf-8", "utf-32", errors="replace")
    elif head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        # the codec reads the mark for the byte order; what is not UTF-16 (a lone surrogate, an odd last byte)
        # becomes U+FFFD, which no position reads: that line's error, not a traceback
        return codecs.EncodedFile(stream, "utf-8", "utf-16", errors="replace")
    return stream


_HEAD = 256   # at least the registry's HEAD_SIZE (tests/test_cli.py checks), looked at before it is imported
# Plain text, binary by no rule (tests/test_cli.py::test_plain_text_is_never_binary): not_text's shortcut
_PLAIN = bytes(range(32, 127)) + b"\t\n\f\r"


def not_text(stream, name: str) -> str | None:
    """The one-line error for batch input whose first bytes are binary data
    (a picture, an archive, a match file of XG's), naming it as ``name``;
    None for text, or a stream that can neither peek nor seek back (a stream
    in memory, as a test's standard input, seeks). Binary is what the registry
    calls binary when it sniffs a match file (registry.looks_binary, of its
    head as text: UTF-16 is text): read line by line, such input was an error
    on every line. The registry is imported only for a head that is not plain
    ASCII text (6 ms of a batch's start-up otherwise)."""
    try:
        if hasattr(stream, "peek"):
            head = stream.peek(_HEAD)[:_HEAD]
        elif stream.seekable():
            at = stream.tell()
            head = stream.read(_HEAD)
            stream.seek(at)
        else:
            return None
    except (AttributeError, OSError, ValueError):   # not readable: the lines say what is wrong
        return None
    if not head.translate(None, _PLAIN):   # printable ASCII and blanks, which no rule calls binary
        return None
    from bgcli.formats.reading import head_text
    from bgcli.formats.registry import HEAD_SIZE, looks_binary

    if not looks_binary(head_text(head[:HEAD_SIZE])):
        return None
    return f"cannot read {name} as a batch: it is binary data, not lines of text"


def unreadable_line(error: OSError) -> BadLine:
    """The last line of a batch whose input failed to read on (an I/O error)."""
    return BadLine(f"cannot be read: {os_reason(error)}; the rest of the input is not read", last=True)


def is_comment(line: str) -> bool:
    """A batch line that starts with ``#`` (after blanks): skipped, no output."""
    return line.lstrip(" \t").startswith("#")


# --- a query's words ----------------------------------------------------------------

def split_position_and_dice(words: Sequence[str]) -> tuple[str, str | None]:
    """Split command-line words or a batch line into (position text, dice text or None).

    Dice are the last word when it reads as a roll (``31``, ``3-1``) or the
    last two words when both are single dice (``3 1``); 26 words are a
    board of 26 numbers on its own.
    """
    if len(words) == 26:
        return " ".join(words), None  # a board of 26 numbers without dice
    if len(words) >= 3 and is_die(words[-1]) and is_die(words[-2]):
        return " ".join(words[:-2]), f"{words[-2]}{words[-1]}"
    if len(words) >= 2 and roll_of(words[-1]) is not None:
        return " ".join(words[:-1]), words[-1]
    return " ".join(words), None


def read_position(text: str):
    """A position in any notation bgcli reads (bgcli.core.ids.parse_position)."""
    from bgcli.core.ids import parse_position

    return parse_position(text)


def dice_for(game, dice_text: str | None, written: str = "", how: str = "add them (e.g. 31)") -> Dice:
    """The dice written, or else the ones the position carries; none is an error naming the position as
    ``written`` (the Position ID it reads as when not given: a word such as start, an XGID or a Position ID
    with other padding bits is not the ID a user typed) and saying ``how`` to give them."""
    if dice_text:
        return parse_dice(dice_text)
    if game.match.dice[0]:
        return parse_dice(list(game.match.dice))
    from bgcli.output import quote

    raise MissingDiceError(f"no dice given for {quote(written) if written else game.position.id()}: {how} "
                           f"or use an ID that carries them")


def _nothing_after_a_whole_position(text: str, read: Callable[[str], Any]) -> None:
    """Words after a position that its first word gives whole (``4HPwATDgc/ABMA 31 66``: the ID, then a
    word that is neither its dice nor its Match ID) are an error, not dropped: a text of several words
    reads as pasted text holding an ID, which passes over the words around it (a board printout's),
    so ``31`` would be lost and the dice taken from the word after it. A Position ID then its Match
    ID is one position, as gnubg prints them."""
    if "\n" in text or "\r" in text:
        return   # a text pasted whole (a program's export: its XGID line, then the board drawn): its words are its own
    first, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    if not rest:
        return
    try:
        read(first)
    except InvalidPositionError:
        return   # the first word is part of the notation (pasted text, a board of numbers)
    from bgcli.core.ids import parse_match_id
    from bgcli.output import quote

    if " " not in rest and ":" not in first:   # a bare Position ID, then one word: its Match ID?
        try:
            parse_match_id(rest)
            return
        except InvalidPositionError:
            pass
    raise InvalidPositionError(f"invalid position {quote(text)}: {quote(first)} is a whole position, and "
                               f"{quote(rest)} after it is neither its dice nor a Match ID")


def _reads(text: str, read: Callable[[str], Any]) -> bool:
    try:
        read(text)
    except (BgcliError, OSError):   # not a position, or a file that cannot be read as one
        return False
    return True


def position_and_dice(words: Sequence[str], read: Callable[[str], Any] = read_position, *, dice_needed: bool = True):
    """(game, dice) of command-line words or a batch line's words, the
    position read by ``read`` (the command line's also reads files). When they
    give no dice, or do not read as a position, but the words before
    dice-like last words do (``start 3``, ``start 7 1``), those words are
    the dice, and an error says what is wrong with them. ``dice_needed``
    False (hint, rollout: no dice asks for the cube): dice None when none are
    written, even where the position carries them (the command decides)."""
    text, dice_text = split_position_and_dice(words)
    try:
        game = read(text)
        _nothing_after_a_whole_position(text, read)
        if dice_text is not None or game.match.dice[0]:
            return game, dice_for(game, dice_text, text) if dice_needed or dice_text else None
        problem = None
    except InvalidPositionError as exc:
        problem = exc
        if not _reads(text.strip().partition(" ")[2], read):
            try:   # a whole position, then words that are no position ('start 31 extra'): say so
                _nothing_after_a_whole_position(text, read)
            except InvalidPositionError as after:
                problem = after
    for n in (2, 1):  # two single dice before one word
        if dice_text is None and len(words) > n and all(meant_as_dice(w) for w in words[-n:]):
            try:
                before = read(" ".join(words[:-n]))
            except InvalidPositionError:
                continue
            return before, parse_dice(" ".join(words[-n:]))
    if problem is not None:
        if len(words) > 1 and roll_of(words[0]) is not None:   # the dice first: "31 start"
            try:
                read(" ".join(words[1:]))
            except InvalidPositionError:
                raise problem from None
            from bgcli.output import quote

            raise InvalidPositionError(f"invalid position {quote(' '.join(words))}: the dice come after the position "
                                       f"({quote(' '.join([*words[1:], words[0]]))})") from None
        raise problem
    return game, dice_for(game, dice_text, text) if dice_needed else None


# --- the plays of a query as JSON --------------------------------------------------

def sorted_plays(plays: Iterable[Play]) -> list[Play]:
    """Plays in a stable order: those that move the checkers furthest back first
    (by the result's key, the mover's checkers with the highest points most
    significant), which is cheap to sort by."""
    return sorted(plays, key=_play_order)


def _play_order(play: Play) -> int:
    return play.key if play.key is not None else 0


def moves_json(game, dice: Dice, style: str) -> dict:
    """A query's legal plays as a JSON-ready dict: the position, the dice and
    each play's text and resulting Position ID."""
    return plays_json(game.position, dice, style, game.match.on_roll)  # Korean names depend on the side on roll


def plays_json(position: Position, dice: Dice, style: str, side: int) -> dict:
    """``moves_json`` of a position with ``side`` on roll."""
    from bgcli.core.notation import play_text

    plays = sorted_plays(legal_plays(position, dice))
    return {
        "position_id": position.id(),
        "dice": list(dice),
        "plays": [{"play": play_text(p, style, side=side), "position_id": p.result_id()} for p in plays],
    }


_moves_line = _speedups.moves_line if _speedups is not None else None
_CANONICAL = frozenset({"gnubg", "korean"})  # the styles canonical_text writes
_HIT_ANY = 1 << _HITS  # a play key this large or more hits a blot
MAX_FRAGMENTS = 200_000  # texts a writer keeps: long batches meet many plays


class MovesWriter:
    """``moves_json`` of a query as one JSON line, written directly: play
    texts and IDs hold no character that JSON escapes, and a batch spends
    much of its time here. Each distinct play text's JSON is built once and
    kept (at most MAX_FRAGMENTS of them), keyed by what the text is made
    of: the generator's raw pairs of the play (the same steps in the same
    order wherever the same checkers move, in a third of a batch's plays)
    and the points where it hits."""

    def __init__(self, style: str, side: int):
        self.style = style
        self.side = side
        self.canonical = style in _CANONICAL
        self.quiet: dict[tuple, str] = {}   # plays that hit nothing, by their raw pairs
        self.hitting: dict[tuple, str] = {}  # the others, by (raw pairs, hit marks)
        self.kept = 0
        # the C line's texts, kept in C by what they are made of (the raw pairs and the hit marks, as above);
        # in a canonical_text style, given its point names, the C line writes the missing ones itself (its
        # play_text, the mirror of canonical_text) rather than asking _text
        self.texts = _speedups.Texts(MAX_FRAGMENTS, point_names(style, side) if self.canonical else None) \
            if _speedups is not None else None

    def _fragment(self, position: Position, key: int, moves: tuple) -> str:
        """A play's JSON up to its ID, after the end of the play before it:
        '"}, {"play": "8/5 6/5", "position_id": "', kept."""
        if self.kept >= MAX_FRAGMENTS:
            self.quiet.clear()
            self.hitting.clear()
            self.kept = 0
        self.kept += 1
        fragment = self._text(position, key, moves)
        hits = key >> _HITS
        if hits:
            self.hitting[moves, hits] = fragment
        else:
            self.quiet[moves] = fragment
        return fragment

    def _text(self, position: Position, key: int, moves: tuple) -> str:
        """``_fragment`` without keeping it: what the C line asks for a play it has no text of."""
        hits = key >> _HITS
        # imported here: with the C accelerator a gnubg-style batch never asks (its line writes the texts)
        from bgcli.core.notation import canonical_text, play_text

        if self.canonical:
            text = canonical_text(moves, hits, self.style, self.side)
        else:
            text = play_text(play_of(position, key, moves), self.style, side=self.side)
        return f'"}}, {{"play": "{text}", "position_id": "'

    def line(self, position: Position, dice: Dice, own: str | None = None) -> str:
        """The line of ``position`` and ``dice``; ``own``: the position's ID,
        when the caller has it. In C when built (``line_of_keys`` otherwise): the
        generator, the order, the IDs and the JSON in one call, the play
        texts from ``_text`` (the Python notation code), kept in ``texts``."""
        if _moves_line is not None and dice.__class__ is tuple:
            checked_dice(dice)  # the pure path's error for what is not two dice
            return _moves_line(self.texts, self._text, position, dice, own)
        return self.line_of_keys(position, dice, own)

    # The C accelerator's moves_line is a fenced mirror of this: tests/test_speedups.py::test_c_and_python_agree_on_the_oracle_queries
    def line_of_keys(self, position: Position, dice: Dice, own: str | None = None) -> str:
        """``line`` built in Python from the generator's keys and raw pairs
        (no Play objects): the reference that bgcli/core/_speedups.c's moves_line mirrors."""
        found = legal_keys(position, dice)   # no Play objects: keys and raw pairs are all a line needs
        if not found:
            return f'{{"position_id": "{own or position.id()}", "dice": [{dice[0]}, {dice[1]}], "plays": []}}\n'
        keys = sorted(found)  # the order of sorted_plays
        own, ids = query_ids(position, keys, own)
        quiet, hitting = self.quiet.get, self.hitting.get
        parts: list[Any] = [(quiet(found[key]) if key < _HIT_ANY else hitting((found[key], key >> _HITS))) for key in keys]
        if None in parts:
            parts = [part or self._fragment(position, key, found[key]) for part, key in zip(parts, keys)]
        # each part opens with the end of the play before it: the first one's is cut
        n = 2 * len(parts)
        out: list = [None] * (n + 1)
        out[0:n:2] = parts
        out[1:n:2] = ids
        out[0] = f'{{"position_id": "{own}", "dice": [{dice[0]}, {dice[1]}], "plays": [{parts[0][4:]}'
        out[n] = '"}]}\n'
        return "".join(out)


@functools.lru_cache(maxsize=16)
def moves_writer(style: str, side: int) -> MovesWriter:
    """The writer of one style and side on roll, made once per process: its
    texts serve every batch and every chunk of one."""
    return MovesWriter(style, side)


def moves_line(game, dice: Dice, style: str) -> str:
    """``json.dumps(moves_json(...), ensure_ascii=False)`` plus a newline."""
    return moves_writer(style, game.match.on_roll).line(game.position, dice)


# A batch line of a Position ID and dice (31, 3-1, "3 1"...): what
# position_and_dice reads as that ID and roll, for a shortcut past the words.
# The dice are the spellings module's ROLL_PATTERN; the C accelerator's
# read_query_line mirrors this line.
# Fenced mirror of position_and_dice and roll_of: tests/test_spelling.py::test_the_regular_expression_mirrors_the_owner, tests/test_batch_speed_paths.py::test_lines_near_the_shortcut_read_as_the_words_do
_BLANK = f"[{re.escape(BLANKS)}]"
ID_AND_DICE_LINE = re.compile(rf"{_BLANK}*({ID_PATTERN}){_BLANK}+{ROLL_PATTERN}{_BLANK}*").fullmatch
_ROLLS: dict[Any, Dice] = {(str(a), str(b)): roll for (a, b), roll in ROLLS.items()}
_START_OR_ID = re.compile(f"start|{ID_PATTERN}").fullmatch
DEFAULT_SIDE = 1  # the side on roll of a position read without a match (MatchState's default)


def read_id_and_dice(words: Sequence[str]) -> tuple[Position, Dice] | None:
    """(position, dice) of the words ``start DICE`` or ``POSITION_ID DICE``
    (dice as ``31``, ``3-1`` or ``3 1``), as position_and_dice reads them,
    without the grammar or the match state (a position read so has
    DEFAULT_SIDE on roll); None for any other words, or wrong ones, which
    position_and_dice reads or words the error of."""
    if len(words) == 2:
        roll = roll_of(words[1])
    elif len(words) == 3 and is_die(words[1]) and is_die(words[2]):
        roll = roll_of(words[1] + words[2])
    else:
        return None
    if roll is None or not _START_OR_ID(words[0]):
        return None
    if words[0] == "start":
        return Position.start(), roll
    try:
        return parse_position_id(words[0]), roll
    except InvalidPositionError:
        return None


def run_moves(lines: Iterable[str | BadLine], style: str, first: int = 1, out=None,
              read: Callable[[str], Any] = read_position) -> int:
    """One JSON object per input line, written to ``out``; a bad line gets
    {"error": ...}. The status is 0, EXIT_PROBLEMS when a line failed,
    EXIT_UNREADABLE when reading stopped at a BadLine."""
    writer = moves_writer(style, DEFAULT_SIDE)  # a Position ID alone: the default match
    # the C line called straight, with no Python call between: the dice here are always two of 1..6
    json_line = functools.partial(_moves_line, writer.texts, writer._text) if _moves_line is not None else writer.line
    # with the C accelerator, a line of a Position ID and dice is read and answered in one call (None: any other).
    # The C accelerator's query_line is a fenced mirror of this loop's reading of such a line (ID_AND_DICE_LINE,
    # then line_of_keys): tests/test_speedups.py::test_query_line_reads_what_the_id_and_dice_line_reads
    answer_id_and_dice = functools.partial(_speedups.query_line, writer.texts, writer._text, trusted_position) \
        if _speedups is not None else None
    status = 0
    write = out.write
    id_and_dice = ID_AND_DICE_LINE
    last_id, position, own = "", None, None  # the last line's: one position is often asked with many rolls
    for number, line in enumerate(lines, first):
        if answer_id_and_dice is not None and line.__class__ is str:
            answer = answer_id_and_dice(line)
            if answer is not None:
                write(answer)
                continue
        found = id_and_dice(line) if line.__class__ is str else None
        if found is not None:  # the common line, a Position ID and dice: read here, as the words would be
            if found[1] != last_id:
                last_id = found[1]
                try:
                    position = parse_position_id(last_id)
                except InvalidPositionError:
                    position = None  # the general path words the error
                # the ID as written is the one written back when its unused last bits are 0, as gnubg writes them
                own = last_id if last_id[13] in "AQgw" else None
            if position is not None:
                write(json_line(position, _ROLLS[found.group(2, 3)], own))
                continue
        if isinstance(line, BadLine):
            import json   # here: a batch without errors has no use for it

            write(json.dumps({"error": f"line {number}: {line.error}"}) + "\n")
            status = max(status, EXIT_UNREADABLE if line.last else EXIT_PROBLEMS)
            continue
        words = WORD.findall(line)
        if not words:
            import json

            write(json.dumps({"error": f"line {number}: {EMPTY_LINE}"}) + "\n")
            status = max(status, EXIT_PROBLEMS)
            continue
        if words[0].startswith("#"):
            continue
        try:
            game, dice = position_and_dice(words, read)
            write(moves_line(game, dice, style))
        except BgcliError as exc:
            import json

            write(json.dumps({"error": f"line {number}: {exc}"}, ensure_ascii=False) + "\n")
            status = max(status, EXIT_PROBLEMS)
    out.flush()
    return status


BLOCK = 1 << 16  # bytes of a batch read at once by run_moves_stream
RUN = 64  # lines run_moves_stream hands run_moves after one C does not answer (a batch of other lines goes in runs)


class _ReadAhead(io.RawIOBase):
    """Bytes read ahead of a stream, then the rest of the stream: what is left
    of a batch for batch_lines when run_moves_stream hands it over."""

    def __init__(self, ahead: bytes, stream):
        self.ahead, self.stream = memoryview(ahead), stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if not self.ahead:
            return self.stream.readinto(buffer)
        n = min(len(buffer), len(self.ahead))
        buffer[:n] = self.ahead[:n]
        self.ahead = self.ahead[n:]
        return n


# Fenced mirror of run_moves(batch_lines(stream), ...) by the C accelerator's query_lines: tests/test_speedups.py::test_run_moves_stream_writes_what_run_moves_writes
def run_moves_stream(stream, style: str, out, read: Callable[[str], Any] = read_position) -> int:
    """``run_moves(batch_lines(stream), style, 1, out, read)`` of a binary
    stream, its lines of a Position ID and dice answered a block at a time by
    the C accelerator (``query_lines``: no line object, call or write of
    Python's per line); any other line is read by run_moves, in its place."""
    text = text_stream(stream)
    if _speedups is None or text is not stream:   # the C reads UTF-8 bytes: UTF-16 is recoded on the way
        return run_moves(batch_lines(text), style, 1, out, read)
    writer = moves_writer(style, DEFAULT_SIDE)
    answer = functools.partial(_speedups.query_lines, writer.texts, writer._text, trusted_position)
    read_block = getattr(stream, "read1", stream.read)
    write = out.write
    status, number, data = 0, 1, b""
    while True:
        try:
            block, failed = read_block(BLOCK), None
        except OSError as exc:   # as batch_lines: what was read is answered, then this error as the last line
            block, failed = b"", exc
        data = data + block if data else block
        # whole lines, or at the end of the input whatever is left (a last line with no newline)
        end = data.rfind(b"\n") + 1 if block else len(data)
        at = 0
        while at < end:
            text, at, count = answer(data, at, end, MAX_LINE)
            write(text)
            number += count
            if at < end:   # a line C does not answer: run_moves reads it and the next few, numbered in their place
                cut = at
                for _ in range(RUN):
                    cut = data.find(b"\n", cut, end) + 1 or end
                    if cut == end:
                        break
                lines = list(batch_lines(io.BytesIO(data[at:cut])))
                status = max(status, run_moves(lines, style, number, out, read))
                number += len(lines)
                at = cut
                if status == EXIT_UNREADABLE:   # a line too long: the rest of the input is not read
                    out.flush()
                    return status
        data = data[end:]
        if not block:
            if failed is not None:
                status = max(status, run_moves([unreadable_line(failed)], style, number, out, read))
            out.flush()
            return status
        if len(data) > MAX_LINE:   # a line longer than any batch_lines reads: it says so, and stops
            rest = io.BufferedReader(_ReadAhead(data, stream))
            return max(status, run_moves(batch_lines(rest), style, number, out, read))


def moves_chunk(chunk: tuple[list, int], style: str, read: Callable[[str], Any] = read_position) -> tuple[int, str]:
    """``run_moves`` of a chunk of lines (its lines, the number of its first),
    as (status, the text written): a worker process's part of a batch."""
    lines, first = chunk
    out = io.StringIO()
    return run_moves(lines, style, first, out, read), out.getvalue()


