"""The format protocol: what bgcli asks of a match file format, in bgcli's own terms.

A format *reads* a file into match parts (a
:class:`~bgcli.match.records.MatchHeader`, each
:class:`~bgcli.match.records.GameRecord`, a
:class:`~bgcli.match.records.MatchEnd`, for each match) and, if bgcli writes
it, *writes* matches through a :class:`~bgcli.formats.writing.GameWriter`
(a visitor of the replay). It never judges a play: the replay does, whatever
the format.

Two halves, so that listing and picking a format costs no import of its
reader (a folder walk of 100,000 files, the command line's help):

- :class:`Format`, what every command asks: its name, its file extensions,
  ``sniff(head)``, ``read``, ``writer``, ``chunks`` and ``cannot_hold``. The
  registry's entries (:class:`bgcli.formats.registry.MatchFormat`)
  implement it, one per format, and load the format's module on first use.
- :class:`FormatModule`, what that module provides: ``read_stream`` and,
  for a format bgcli writes, ``writer``, ``chunks`` and ``join``.

Adding a format is one module implementing :class:`FormatModule` and one
entry in :data:`bgcli.formats.registry.FORMATS` (tests/test_formats.py fails
for a format module the registry does not list).
"""
from __future__ import annotations

import enum
from typing import IO, TYPE_CHECKING, Iterable, Iterator, Protocol, runtime_checkable

if TYPE_CHECKING:
    from bgcli.match.records import MatchPart


class Lack(enum.Enum):
    """Something a match record may hold that a format has no place for.
    An export says so, one line each, and writes nothing unless forced
    (nothing the user gave is lost silently)."""

    COMMENTS = "comment lines"
    ILLEGAL_PLAY_NOTES = "Snowie's note on an illegal play"
    ROLL_WITHOUT_PLAY = "a roll with no play in the middle of a game"
    OFFERED_CUBE = "the cube value a double or beaver offers"
    NAME_COLONS = "a line break or a colon in a player name"
    TAG_QUOTES = "a line break or a quote in a tag's value"
    TAG_NAMES = "a tag name other than letters, digits and _"
    COMMENTS_LIKE_TAGS = "a comment line that reads as a tag"
    SET_UP = "a position set up (a game that starts from one, or a board, cube or turn set in its middle)"


class Writer(Protocol):
    """What an export asks of a format's writer (a :class:`bgcli.formats.writing.GameWriter`,
    a visitor of the replay of one match)."""

    comments: tuple[tuple[int, str], ...]   # the record's comment lines (line, text), given before the replay
    left_out: list[str]                     # what the written text does not hold, one line each
    lacking: set[Lack]                      # of which, what the format has no place for


@runtime_checkable
class FormatModule(Protocol):
    """The module of one format (``bgcli/formats/NAME.py``)."""

    def read_stream(self, handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
        """The parts of a binary stream, as they are read (a file is never held whole if it can be streamed).
        A module may also have ``read_stream_bare(handle, path)``: the same parts without the analysis the
        file stores (each Action's ``analysis`` empty), for a command that reads none, where decoding it
        costs (BGBlitz's .bgf); the registry asks it then (MatchFormat.read)."""
        ...


@runtime_checkable
class WrittenFormatModule(FormatModule, Protocol):
    """The module of a format bgcli writes."""

    def writer(self, notation: str | None = None) -> Writer:
        """A visitor that collects a match's games and writes them, plays in ``notation``."""
        ...

    def chunks(self, outputs: Iterable[str]) -> Iterator[str]:
        """The text of the matches the writers gave, in pieces, as they come."""
        ...

    def join(self, outputs: list) -> str:
        """The text of the matches the writers gave, whole."""
        ...


class Format(Protocol):
    """One match file format, as every command asks it."""

    @property
    def name(self) -> str:
        """Its name, as ``--to`` and the messages say it."""
        ...

    @property
    def description(self) -> str:
        ...

    @property
    def text(self) -> bool:
        """A text format (else binary)."""
        ...

    @property
    def writes(self) -> bool:
        """bgcli writes it."""
        ...

    @property
    def extensions(self) -> tuple[str, ...]:
        """Its file suffixes, lowercase with the dot (none: known by its head alone)."""
        ...

    @property
    def cannot_hold(self) -> frozenset[Lack]:
        """What a record may hold that this format has no place for (writers only)."""
        ...

    def sniff(self, head: bytes) -> bool:
        """Whether the first bytes of a file (HEAD_SIZE of them) look like this format."""
        ...

    def read(self, handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
        """The parts of a file in this format."""
        ...

    def writer(self, notation: str | None = None) -> Writer:
        """A writer of one match (formats bgcli writes only)."""
        ...

    def chunks(self, outputs: Iterable[str]) -> Iterator[str]:
        """The written matches' text, in pieces."""
        ...
