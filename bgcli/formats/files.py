"""Match files: which format a file is, its records, its replays, and writing
matches out in any format.

Every path is opened once and read as a stream: a .mat file is never held
whole, and a pipe (a path with no known extension, or ``-`` for standard
input) is sniffed from the bytes already read, not opened again.
"""
from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator

from bgcli.errors import FileReadError, MatchFileError
from bgcli.formats import jsondoc, mat, sgf
from bgcli.match.records import MatchPart, MatchRecord, parts_of, records_of
from bgcli.match.replay import MatchReplay, MatchVisitor, ReplayBuilder, replay_match, replay_parts
from bgcli.core.scoring import Rules


class Format(str, Enum):
    MAT = "mat"
    SGF = "sgf"
    JSON = "json"

    def __str__(self) -> str:
        return self.value


FORMATS = tuple(f.value for f in Format)
_EXTENSIONS = {".sgf": Format.SGF, ".json": Format.JSON, ".mat": Format.MAT, ".txt": Format.MAT, ".gam": Format.MAT}


def format_of_name(path: str) -> Format | None:
    """The format an extension names, or None."""
    return _EXTENSIONS.get(Path(path).suffix.lower())


def format_of_head(head: bytes) -> Format:
    """The format of a file by its first bytes."""
    head = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"("):
        return Format.SGF
    if head.startswith(b"{") or head.startswith(b"["):
        return Format.JSON
    return Format.MAT


def sniff(path: str | Path) -> str:
    """'sgf', 'json' or 'mat' by extension, else by the first bytes."""
    path = str(path)
    known = format_of_name(path)
    if known is not None:
        return known.value
    try:
        with open(path, "rb") as handle:
            return format_of_head(handle.read(256)).value
    except OSError:
        return Format.MAT.value


def decode(raw: bytes) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:   # old exports are often Latin-1
        text = raw.decode("latin-1")
    return text.lstrip("\ufeff")


def _open(path: str) -> tuple[IO[bytes], bool]:
    """The binary stream of ``path`` (``-``: standard input) and whether to close it."""
    if path == "-":
        return sys.stdin.buffer, False
    try:
        return open(path, "rb"), True
    except OSError as exc:
        raise FileReadError(path, exc) from None


def iter_records(path: str | Path) -> Iterator[MatchRecord]:
    """Stream the match records of a file of any format bgcli reads. Raises
    OSError when it cannot be opened and MatchFileError when nothing in it
    can be read as a match."""
    return records_of(iter_parts(path))


def iter_parts(path: str | Path) -> Iterator[MatchPart]:
    """The file as a stream of match parts (a header, one game at a time, an
    end): a .mat file is replayed as it is read, never held whole."""
    path = str(path)
    handle, close = _open(path)
    try:
        kind = format_of_name(path) if path != "-" else None
        if kind is None:
            peek = getattr(handle, "peek", None)
            kind = format_of_head(peek(256)[:256] if peek is not None else b"")
        if kind == Format.MAT:
            yield from mat.iter_parts(mat.bounded_lines(handle, path), path)
        elif kind == Format.SGF:
            yield from parts_of(sgf.read_sgf(_read_whole(handle, path), path))
        else:
            yield from parts_of(jsondoc.read_json(_read_whole(handle, path), path))
    finally:
        if close:
            handle.close()


WHOLE_LIMIT = 256 << 20   # SGF and JSON are read whole: no bigger than this


def _read_whole(handle: IO[bytes], path: str) -> str:
    raw = handle.read(WHOLE_LIMIT + 1)
    if len(raw) > WHOLE_LIMIT:
        raise MatchFileError(f"the file is larger than {WHOLE_LIMIT >> 20} MB, more than bgcli reads as SGF or JSON",
                             path, 1, 1)
    return decode(raw)


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
               rules: Rules | None = None) -> Iterator[object]:
    """Replay every match of a file, as it is read, to ``visitor`` (or to
    ``visitor(number)`` for each match); yields what ``end_match`` returns."""
    visitor_for = visitor if not isinstance(visitor, MatchVisitor) else (lambda number: visitor)
    yield from replay_parts(iter_parts(path), visitor_for, rules)


def export_text(records: Iterable[MatchRecord], to: str, notation: str | None = None, rules: Rules | None = None) -> str:
    """All matches in one format: 'mat' (concatenated, as BBGT files are),
    'sgf' (one game tree per game) or 'json'."""
    return export(records, to, notation, rules)[0]


def export(records: Iterable[MatchRecord], to: str, notation: str | None = None,
           rules: Rules | None = None) -> tuple[str, list[str]]:
    """:func:`export_text` and what the text leaves out of the records (one
    line each: unreadable lines, games that could not be replayed, what the
    format cannot hold)."""
    if to not in FORMATS:
        raise ValueError(f"unknown format {to!r}: expected one of {', '.join(FORMATS)}")
    texts: list = []
    left_out: list[str] = []
    for number, record in enumerate(records, 1):
        writer: mat.MatWriter | sgf.SgfWriter | jsondoc.JsonWriter
        if to == Format.MAT:
            writer = mat.MatWriter(notation or "mat")
        elif to == Format.SGF:
            writer = sgf.SgfWriter()
        else:
            writer = jsondoc.JsonWriter(notation or "gnubg")
        texts.append(replay_match(record, number, rules, visitor=writer))
        left_out += writer.left_out
    if to == Format.JSON:
        return jsondoc.documents_text(texts) if texts else "[]\n", left_out
    return "".join(texts), left_out


__all__ = ["FORMATS", "Format", "MatchFileError", "export_text", "iter_records", "read_any", "replay_file", "sniff",
           "visit_file"]
