"""The match formats bgcli reads and writes: one entry each.

An entry says what can be known without importing the format's module (so
that the command line can list the formats and a folder walk can pick files
without loading any reader): its name, its file suffixes, how the head of a
file in it looks, whether it is text and whether bgcli writes it. The rest is
in the format's own module (``module``), which provides:

- ``read_stream(handle, path)``: the parts of a binary stream (a
  :class:`~bgcli.match.records.MatchHeader`, each
  :class:`~bgcli.match.records.GameRecord`, a
  :class:`~bgcli.match.records.MatchEnd`, for each match), as the .mat
  reader gives them;
- for a format bgcli writes, ``writer(notation)``, a
  :class:`~bgcli.formats.writing.GameWriter`, and ``join(outputs)``, the
  text of what the writers gave for each match (``chunks(outputs)``: the
  same text in pieces, as the outputs come).

Adding a format is one module and one entry in :data:`FORMATS`.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from pathlib import PurePath
from types import ModuleType

HEAD_SIZE = 256   # the bytes a head is recognised from


@dataclass(frozen=True)
class MatchFormat:
    name: str
    module: str                 # the module that reads (and writes) it
    suffixes: tuple[str, ...]   # lowercase, with the dot
    head: re.Pattern[bytes] | None   # what its first bytes look like (byte order mark and blanks skipped); None: any text
    text: bool                  # a text format (else binary)
    writes: bool                # bgcli writes it
    description: str
    _loaded: list[ModuleType] = field(default_factory=list, compare=False, repr=False)

    def load(self) -> ModuleType:
        if not self._loaded:
            self._loaded.append(importlib.import_module(self.module))
        return self._loaded[0]

    def __str__(self) -> str:
        return self.name


# Heads are tried in this order (the more particular first: a BGBlitz file
# begins with a JSON header); the format with no head takes any other text.
FORMATS: tuple[MatchFormat, ...] = (
    MatchFormat("mat", "bgcli.formats.mat", (".mat", ".txt", ".gam"), None, True, True,
                "Jellyfish .mat and the sites' .txt exports"),
    MatchFormat("xg", "bgcli.formats.xg", (".xg",), re.compile(rb"RGMH"), False, False,
                "eXtreme Gammon's match file"),
    MatchFormat("bgf", "bgcli.formats.bgf", (".bgf",), re.compile(rb'\{\s*"format"\s*:\s*"BGF"'), False, False,
                "BGBlitz's match file"),
    MatchFormat("sgf", "bgcli.formats.sgf", (".sgf",), re.compile(rb"\("), True, True,
                "GNU Backgammon's SGF (GM[6])"),
    MatchFormat("json", "bgcli.formats.jsondoc", (".json",), re.compile(rb"[{\[]"), True, True,
                "bgcli's JSON match document"),
)

NAMES = tuple(f.name for f in FORMATS)
WRITTEN = tuple(f.name for f in FORMATS if f.writes)
SUFFIXES = tuple(s for f in FORMATS for s in f.suffixes)
_BY_NAME = {f.name: f for f in FORMATS}
_BY_SUFFIX = {s: f for f in FORMATS for s in f.suffixes}
_TEXT = next(f for f in FORMATS if f.head is None)
_SKIPPED = b"\xef\xbb\xbf \t\r\n"


def by_name(name: str) -> MatchFormat:
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}: expected one of {', '.join(NAMES)}") from None


def of_name(path: str) -> MatchFormat | None:
    """The format a file's suffix names, or None."""
    return _BY_SUFFIX.get(PurePath(path).suffix.lower())


def of_head(head: bytes) -> MatchFormat | None:
    """The format whose head ``head`` has; the text format when it is any
    other text; None for binary data no format recognises."""
    stripped = head.lstrip(_SKIPPED)
    for kind in FORMATS:
        if kind.head is not None and kind.head.match(stripped):
            return kind
    if looks_binary(head):
        return None
    return _TEXT


def choose(path: str, head: bytes) -> MatchFormat | None:
    """The format to read a file in: a binary format its head says for sure,
    else the one its suffix names, else the one its head looks like; None
    for binary data that is none of them."""
    by_head = of_head(head)
    if by_head is not None and not by_head.text:
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
