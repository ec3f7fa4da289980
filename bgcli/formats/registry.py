"""The match formats bgcli reads and writes: one entry each.

Each entry is the format as every command asks it (it implements
:class:`bgcli.formats.protocol.Format`: name, extensions, ``sniff``,
``read``, ``writer``, ``cannot_hold``). What can be known without importing
the format's module is written here (so that the command line can list the
formats and a folder walk can pick files without loading any reader): its
name, its file suffixes, how the head of a file in it looks, whether it is
text, whether bgcli writes it and what it cannot hold. The rest is in the
format's own module (``module``), a
:class:`~bgcli.formats.protocol.FormatModule`: ``read_stream(handle, path)``
(and, where leaving out the analysis a file stores saves time,
``read_stream_bare(handle, path)``) and, for a format bgcli writes, ``writer(notation)``, ``chunks(outputs)``
and ``join(outputs)``.

Adding a format is one module and one entry in :data:`FORMATS`
(docs/layout.md).
"""
from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass, field
from types import ModuleType
from typing import IO, TYPE_CHECKING, Iterable, Iterator, Protocol

from bgcli.formats import gnubgwords
from bgcli.formats.protocol import Format, Lack
from bgcli.formats.reading import head_start, head_text

if TYPE_CHECKING:
    from bgcli.formats.writing import GameWriter
    from bgcli.match.records import MatchPart

    class Head(Protocol):
        """What a format's head looks like: a compiled pattern of bytes, or an
        object that matches as one (gnubg's text export: gnubgwords.ScoreHead,
        built on its first use). Known to the type checker only: a Protocol
        class costs the start-up of every command."""

        def match(self, head: bytes, /) -> object: ...

HEAD_SIZE = 256   # the bytes a head is recognised from


@dataclass(frozen=True)
class MatchFormat:
    name: str
    module: str                 # the module that reads (and writes) it
    suffixes: tuple[str, ...]   # lowercase, with the dot
    head: Head | None   # what its first bytes look like (reading.head_start: byte order mark, blanks and page breaks skipped); None: any text
    text: bool                  # a text format (else binary)
    writes: bool                # bgcli writes it
    description: str
    # its head names it whatever the file's suffix (a binary format's magic, or a text
    # that no other format begins with); else a suffix wins over what the head looks like
    sure: bool = False
    cannot_hold: frozenset[Lack] = frozenset()   # what an export to it leaves out, and says so
    _loaded: list[ModuleType] = field(default_factory=list, compare=False, repr=False)

    def load(self) -> ModuleType:
        if not self._loaded:
            self._loaded.append(importlib.import_module(self.module))
        return self._loaded[0]

    @property
    def extensions(self) -> tuple[str, ...]:
        return self.suffixes

    def sniff(self, head: bytes) -> bool:
        """Whether the first bytes of a file look like this format (the
        format with no head: any text that is not binary)."""
        stripped = head_start(head)
        if self.head is None:
            return not looks_binary(head)
        return self.head.match(stripped) is not None

    def why_not_a_record(self, lines: Iterable[str]) -> str | None:
        """Why the head of a file (its lines) is plainly no record in this
        format, or None: asked of a format whose head does not name it (any
        text, or JSON's brace: its module's ``why_not_a_record``); a format
        without one has no more to say."""
        decide = getattr(self.load(), "why_not_a_record", None)
        return decide(lines) if decide is not None else None

    def read(self, handle: IO[bytes], path: str = "-", analysis: bool = True) -> Iterator[MatchPart]:
        """The parts of ``handle``; with ``analysis`` False, for a command that
        reads no stored analysis (the audit), a module's ``read_stream_bare``
        where it has one (a format whose analysis is costly to decode: BGBlitz's),
        which leaves the analysis out."""
        module = self.load()
        if not analysis:
            bare = getattr(module, "read_stream_bare", None)
            if bare is not None:
                return bare(handle, path)
        return module.read_stream(handle, path)

    def writer(self, notation: str | None = None) -> GameWriter:
        if not self.writes:
            raise ValueError(f"bgcli reads {self.name} but does not write it: write one of {', '.join(WRITTEN)}")
        return self.load().writer(notation)

    def chunks(self, outputs: Iterable[str]) -> Iterator[str]:
        return self.load().chunks(outputs)

    def __str__(self) -> str:
        return self.name


# every writer leaves these out (GameWriter.note): bgcli does not write them yet
_NOT_WRITTEN = frozenset({Lack.ILLEGAL_PLAY_NOTES, Lack.SET_UP})

# Heads are tried in this order (the more particular first: a BGBlitz file
# begins with a JSON header); the format with no head takes any other text.
FORMATS: tuple[MatchFormat, ...] = (
    MatchFormat("mat", "bgcli.formats.mat", (".mat", ".txt", ".gam"), None, True, True,
                "Jellyfish .mat and the sites' .txt exports",
                cannot_hold=_NOT_WRITTEN | {Lack.NAME_COLONS, Lack.TAG_QUOTES, Lack.TAG_NAMES, Lack.COMMENTS_LIKE_TAGS}),
    MatchFormat("xg", "bgcli.formats.xg", (".xg",), re.compile(rb"RGMH"), False, False,
                "eXtreme Gammon's match file", sure=True),
    MatchFormat("bgf", "bgcli.formats.bgf", (".bgf",), re.compile(rb'\{\s*"format"\s*:\s*"BGF"'), False, False,
                "BGBlitz's match file", sure=True),
    # gnubg writes it as .txt, the suffix of the sites' .mat exports: known by its first line alone, in any
    # language gnubg writes it (formats.gnubgwords; its pattern compiled on the first head that may be one)
    MatchFormat("gnubg-text", "bgcli.formats.gnubgtext", (), gnubgwords.SCORE_HEAD,
                True, False, "GNU Backgammon's export match text (one game a file)", sure=True),
    # no other format begins with FIBS's score line: known by it whatever the suffix
    MatchFormat("oldmoves", "bgcli.formats.oldmoves", (".fibs",),
                re.compile(rb"Score is [0-9]+-[0-9]+ in an? "), True, False,
                "FIBS's oldmoves logs", sure=True),
    # "ann vs. bob" is known only by the suffix: a first line of a .mat or a text could read so
    MatchFormat("sgg", "bgcli.formats.sgg", (".sgg",), re.compile(rb"[A-Za-z0-9_]+ +vs\. +[A-Za-z0-9_]+[ \t]*\r?\n"),
                True, False, "GamesGrid's saved games"),
    # its first option line; known by the suffix (a .mat's comment could begin so)
    MatchFormat("tmg", "bgcli.formats.tmg", (".tmg",), re.compile(rb"MatchID: *[^\r\n]*\r?\nPlayer1: "), True, False,
                "TrueMoneyGames's match files"),
    # no other format begins with its index line: known by it whatever the suffix
    MatchFormat("bgammon", "bgcli.formats.bgammon", (".match",), re.compile(rb"bgammon-replay [0-9]{8}\r?\n"),
                True, False, "bgammon.org's replay files", sure=True),
    # its prolog line names it whatever the suffix (JavaFIBS saves matches as .match, as bgammon.org does)
    MatchFormat("javafibs", "bgcli.formats.javafibs", (), re.compile(rb"JavaFIBS internal match representation"),
                True, False, "JavaFIBS's saved matches", sure=True),
    # its magic line names it whatever the suffix
    MatchFormat("gmd", "bgcli.formats.gmd", (".gmd",), re.compile(rb"GMD-[0-9]+[ \t\r\n#]"), True, False,
                "Gibbon's match dumps", sure=True),
    MatchFormat("sgf", "bgcli.formats.sgf", (".sgf",), re.compile(rb"\("), True, True,
                "GNU Backgammon's SGF (GM[6])", cannot_hold=_NOT_WRITTEN | {Lack.ROLL_WITHOUT_PLAY, Lack.OFFERED_CUBE}),
    MatchFormat("json", "bgcli.formats.jsondoc", (".json",), re.compile(rb"[{\[]"), True, True,
                "bgcli's JSON match document", cannot_hold=_NOT_WRITTEN),
)
_CHECKED: Format = FORMATS[0]   # the entries implement the protocol (mypy checks this line)

# suffixes that files other than matches have too (a README.txt, a site's metadata .json): in a
# folder walk the content decides (each format's why_not_a_record), not the suffix
SHARED_SUFFIXES = (".txt", ".json")
# suffixes of match files that may hold one position instead (gnubg's `save position` is an SGF file of one
# game set up, no play): in a folder walk a small one is asked (the format's why_not_a_record)
POSITION_SUFFIXES = (".sgf",)
NAMES = tuple(f.name for f in FORMATS)
WRITTEN = tuple(f.name for f in FORMATS if f.writes)
SUFFIXES = tuple(s for f in FORMATS for s in f.suffixes)
_BY_NAME = {f.name: f for f in FORMATS}
_BY_SUFFIX = {s: f for f in FORMATS for s in f.suffixes}
_TEXT = next(f for f in FORMATS if f.head is None)


def by_name(name: str) -> MatchFormat:
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}: expected one of {', '.join(NAMES)}") from None


def of_name(path: str) -> MatchFormat | None:
    """The format a file's suffix names, or None."""
    return _BY_SUFFIX.get(suffix_of(path).lower())


# Fenced copy of pathlib's PurePath(path).suffix, the owner of what a file name's suffix is: an audit asks it of
# every file and pathlib's import is a tenth of the audit's start-up on one small file.
# tests/test_startup.py::test_suffix_of_names_the_format_pathlib_names
def suffix_of(path: str) -> str:
    """The suffix of the last part of ``path`` (``.mat``; ``""`` for none), as ``PurePath(path).suffix`` says it."""
    path = os.path.splitdrive(path)[1]
    if os.altsep:
        path = path.replace(os.altsep, os.sep)
    parts = [part for part in path.split(os.sep) if part and part != "."]
    name = parts[-1] if parts else ""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def of_head(head: bytes) -> MatchFormat | None:
    """The format whose head ``head`` has; the text format when it is any
    other text; None for binary data no format recognises. A UTF-16 head is
    recognised from its text."""
    head = head_text(head)
    for kind in FORMATS:
        if kind.head is not None and kind.sniff(head):
            return kind
    if looks_binary(head):
        return None
    return _TEXT


def choose(path: str, head: bytes) -> MatchFormat | None:
    """The format to read a file in: a format its head says for sure (a
    binary format's magic, gnubg's text export), else the one its suffix
    names, else the one its head looks like; None for binary data that is
    none of them."""
    by_head = of_head(head)
    if by_head is not None and by_head.sure:
        return by_head
    named = of_name(path) if path != "-" else None
    if named is not None and not (named.text and by_head is None):
        return named
    return by_head


def looks_binary(head: bytes) -> bool:
    """Whether the first bytes of a file are not text: a NUL, or more than
    one in thirty a control character other than a blank (random bytes have
    about one in ten; text next to none)."""
    if b"\0" in head:
        return True
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13, 27))
    return controls * 30 > len(head)


def tried() -> str:
    """The formats, as one phrase for a message."""
    return ", ".join(f.name for f in FORMATS)
