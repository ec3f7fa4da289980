"""Match files: which format a file is (the registry says,
:mod:`bgcli.formats.registry`), its records, its replays, and writing matches
out in any format bgcli writes.

Every path is opened once and read as a stream: a .mat file is never held
whole, and a pipe (``-`` for standard input) is sniffed from the bytes
already read, not opened again.
"""
from __future__ import annotations

import errno
import io
import os
import re
import sys
from typing import IO, TYPE_CHECKING, Callable, Iterable, Iterator

from bgcli.errors import FileReadError, MatchFileError
from bgcli.output import own_output, quote
from bgcli.formats import registry
from bgcli.formats.protocol import Lack
from bgcli.formats.reading import GZIP_MAGIC, head_text
from bgcli.match.records import MatchEnd, MatchPart, MatchRecord, parts_of, records_of
from bgcli.match.replay import MatchReplay, MatchVisitor, ReplayBuilder, replay_parts
from bgcli.core.rules import Rules

if TYPE_CHECKING:   # a path's type only: pathlib is not imported to read a file (start-up)
    from pathlib import Path


FORMATS = registry.NAMES        # every format read
WRITTEN = registry.WRITTEN      # the formats bgcli writes


def sniff(path: str | Path) -> str:
    """The name of the format a file would be read in: a binary format its
    head says for sure, else by its suffix, else by its head; ``"binary"``
    for binary data that is no format bgcli reads."""
    path = str(path)
    try:
        with open(path, "rb") as handle:
            head = handle.read(registry.HEAD_SIZE)
    except OSError:
        head = b""
    kind = registry.choose(path, head)
    return kind.name if kind is not None else "binary"


def _open(path: str) -> tuple[IO[bytes], bool]:
    """The binary stream of ``path`` (``-``: standard input) and whether to close it."""
    if path == "-":
        return sys.stdin.buffer, False
    try:
        handle = open(path, "rb")
    except OSError as exc:
        raise FileReadError(path, exc) from None
    how = own_output(path, os.fstat(handle.fileno()))
    if how is not None:   # half written by this very command (or last run's output about to be replaced)
        handle.close()
        raise FileReadError(path, OSError(errno.EINVAL, f"it is this command's own output ({how})"))
    return handle, True


def _peekable(handle: IO[bytes]) -> IO[bytes]:
    """``handle``, or a buffered stream over it when it cannot peek (a
    stream a caller gave): a pipe cannot be read twice."""
    if hasattr(handle, "peek"):
        return handle
    return io.BufferedReader(_Raw(handle))   # type: ignore[arg-type]


class _Raw(io.RawIOBase):
    def __init__(self, handle: IO[bytes]):
        self.handle = handle

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.handle.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


def _head(handle: IO[bytes]) -> bytes:
    """The first bytes of a stream, left in it."""
    return handle.peek(registry.HEAD_SIZE)[:registry.HEAD_SIZE]   # type: ignore[attr-defined]


def not_a_match(head: bytes) -> tuple[str, int]:
    """What the first bytes of a file say it is instead of a match, in one
    line for the user, or ``""``: an empty file (nothing but blanks), or a
    chouette record, which ``bgcli chouette`` reads (its first line that is
    not a comment starts ``Chouette:``; read as a match it would be a
    syntax error a line)."""
    text = head_text(head)
    text = text[3:] if text.startswith(b"\xef\xbb\xbf") else text
    if not text.strip() and len(head) < registry.HEAD_SIZE:
        return "the file is empty: no match in it", 1
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if line and not line.startswith((b"#", b";")):
            if line.startswith(b"Chouette:"):
                return "this is a chouette: use `bgcli chouette`", number
            break
    return "", 0


def iter_records(path: str | Path) -> Iterator[MatchRecord]:
    """Stream the match records of a file of any format bgcli reads. Raises
    OSError when it cannot be opened and MatchFileError when nothing in it
    can be read as a match."""
    return records_of(iter_parts(path))


_PLAIN_TEXT = re.compile(rb"[\t\n\r\x20-\x7e]*")


def format_of(path: str, head: bytes):
    """The format the registry chooses for a file that starts with ``head``; MatchFileError when it is
    not a match (the reason and line) or is binary data no format reads."""
    other, line = not_a_match(head)
    if other:
        raise MatchFileError(other, path, line, 1)
    kind = registry.choose(path, head)
    if kind is None:
        if head.startswith(GZIP_MAGIC):   # a .mat.gz as downloaded: say what it is, not only what it is not
            raise MatchFileError("gzip-compressed data: decompress it first (gunzip)", path, 1, 1)
        # where it is wrong: the line of the first NUL byte when plain text comes before it (a match file with
        # one in it), else the first line (a picture, an archive: binary from the start)
        nul = head.find(b"\0")
        line = head.count(b"\n", 0, nul) + 1 if nul > 0 and _PLAIN_TEXT.fullmatch(head, 0, nul) else 1
        raise MatchFileError(f"binary data, not a match file in any format bgcli reads (tried {registry.tried()})",
                             path, line, 1)
    return kind

def iter_parts(path: str | Path, analysis: bool = True) -> Iterator[MatchPart]:
    """The file as a stream of match parts (a header, one game at a time, an
    end), read in the format the registry chooses for it: a .mat file is
    replayed as it is read, never held whole. ``analysis`` False: for a
    command that reads no stored analysis (the audit), which the reader may
    then leave out (registry.MatchFormat.read)."""
    path = str(path)
    handle, close = _open(path)
    try:
        handle = _peekable(handle)
        yield from format_of(path, _head(handle)).read(handle, path, analysis)
    finally:
        if close:
            handle.close()


def read_any(path: str | Path) -> list[MatchRecord]:
    """Every match in a file of any format bgcli reads."""
    return list(iter_records(path))


def replay_file(path: str | Path, rules: Rules | None = None, keep_events: bool = True) -> Iterator[MatchReplay]:
    """Replay every match of a file, read as a stream; bad lines become
    problems of kind 'syntax'. Raises MatchFileError when nothing in the
    file can be read as a match."""
    for replay in replay_parts(iter_parts(path), lambda number: ReplayBuilder(keep_events), rules):
        assert isinstance(replay, MatchReplay)
        yield replay


def visit_file(path: str | Path, visitor: MatchVisitor | Callable[[int], MatchVisitor],
               rules: Rules | None = None, analysis: bool = True) -> Iterator[object]:
    """Replay every match of a file, as it is read, to ``visitor`` (or to
    ``visitor(number)`` for each match); yields what ``end_match`` returns.
    ``analysis`` False: the visitor reads no stored analysis (:func:`iter_parts`)."""
    visitor_for = visitor if not isinstance(visitor, MatchVisitor) else (lambda number: visitor)
    yield from replay_parts(iter_parts(path, analysis), visitor_for, rules)


def export_text(records: Iterable[MatchRecord], to: str, notation: str | None = None, rules: Rules | None = None) -> str:
    """All matches in one of the formats bgcli writes (:data:`WRITTEN`): 'mat'
    (concatenated, as BBGT files are), 'sgf' (one game tree per game), 'json'."""
    return export(records, to, notation, rules)[0]


def export(records: Iterable[MatchRecord], to: str, notation: str | None = None,
           rules: Rules | None = None) -> tuple[str, list[str]]:
    """:func:`export_text` and what the text leaves out of the records (one
    line each: unreadable lines, games that could not be replayed, what the
    format cannot hold)."""
    pieces: list[str] = []
    left_out = export_to(pieces.append, parts_of(records), to, notation, rules)
    return "".join(pieces), left_out


def export_to(write: Callable[[str], object], parts: Iterable[MatchPart], to: str, notation: str | None = None,
              rules: Rules | None = None) -> list[str]:
    """:func:`export` as a stream: the text goes to ``write`` in pieces as the
    parts of the records are read (bgcli.formats.files.iter_parts): each game
    is replayed and written as it comes, its text held in the writer's spool
    (bgcli.formats.writing.Spool) until its match ends, so an export of any
    length holds a game at a time, never a whole match (a money session of
    thousands of games is one match). Returns what the text leaves out; the
    caller decides, once everything is written, whether a text with something
    left out is kept (bgcli.output.AtomicOutput)."""
    kind = registry.by_name(to)
    if not kind.writes:
        raise ValueError(f"bgcli reads {kind.name} but does not write it: write one of {', '.join(WRITTEN)}")
    left_out: list[str] = []
    writers: list = []

    def writer_for(number: int):
        writers.append(kind.writer(notation))
        return writers[-1]

    def told_comments(parts: Iterable[MatchPart]) -> Iterator[MatchPart]:
        # a record's comments come with its end: the writer places them then
        for part in parts:
            if isinstance(part, MatchEnd) and writers:
                writers[-1].comments = part.comments
            yield part

    def outputs() -> Iterator:
        for output in replay_parts(told_comments(parts), writer_for, rules):
            writer = writers.pop()
            left_out.extend(writer.left_out)
            if Lack.COMMENTS in kind.cannot_hold:
                left_out.extend(f"line {line}: a comment, which {to} has no place for ({quote(text, 40)})"
                                for line, text in writer.comments)
            yield output

    for piece in kind.chunks(outputs()):
        write(piece)
    return left_out


__all__ = ["FORMATS", "WRITTEN", "MatchFileError", "export_text", "export_to", "iter_records", "read_any", "replay_file", "sniff",
           "visit_file"]
