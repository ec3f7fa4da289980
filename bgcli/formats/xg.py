"""eXtreme Gammon's files: matches (.xg) and positions (.xgp), read into
match records.

The layout is XG's own published description of its records (its Delphi
declarations), which the xgdatatools project also follows. A file is

- a "rich game header" of 8,232 bytes (the mark ``RGMH``, the size of a
  thumbnail picture, four UTF-16 texts: where it was played, who played,
  the event, a comment), then the thumbnail;
- an archive: the inner files, each a zlib stream (``temp.xg``, the game
  records; ``temp.xgr``, rollouts; ``temp.xgi``, an index; ``temp.xgc``,
  comments), then the archive's registry (a zlib stream of 532-byte entries:
  name, sizes, offset, CRC-32 of the content), then a 36-byte trailer (the
  CRC-32 of everything from the first inner file to the trailer, the number
  of files, the registry's and the data's sizes).

``temp.xg`` is a run of 2,560-byte records; the ninth byte is the kind:
a match header, a game header, a cube decision, a move, a game footer, a
match footer. They become the parts the .mat reader gives (a
:class:`~bgcli.match.records.MatchHeader`, each
:class:`~bgcli.match.records.GameRecord`, a
:class:`~bgcli.match.records.MatchEnd`), as they are decompressed, so a file
is never held whole. A binary file has no lines: where a record asks for a
line (an action's, an error's), it is the record's number, counted from 1.

What XG stored of its analysis (the candidate plays with their
evaluations, the cube decisions' equities, the error it found in each
choice) travels on the actions as :class:`~bgcli.match.records.StoredAnalysis`.

A damaged file is a :class:`~bgcli.errors.MatchFileError` naming what is
wrong: a file cut short, a checksum that does not hold, a record of a kind
this reader does not know (a newer XG: it is skipped and named, the rest is
read). XG's own bookkeeping in the match header (player profiles, money
stakes, computer levels, the board's orientation) is not kept.
"""
from __future__ import annotations

import datetime
import io
import struct
import zlib
from dataclasses import dataclass, field
from typing import IO, Iterator

from bgcli.core.cube import Line, after_turns, turned, turns, turns_within
from bgcli.core.position import from_other_side
from bgcli.core.rules import SETTING_OF_TAG, Rules
from bgcli.core.spelling import recorded_dice
from bgcli.errors import FileReadError, MatchFileError, NotThisFormatError
from bgcli.formats.loggame import AUTO_DOUBLES, SITE_AUTO_DOUBLES
from bgcli.formats.reading import text_of
from bgcli.match.records import (
    Action, ActionKind, DecisionKind, Evaluation, GameRecord, MatchEnd, MatchHeader, MatchPart, StoredAnalysis,
)

RICH_HEADER = 8232
RECORD = 2560
TRAILER = 36
REGISTRY_ENTRY = 532
MAX_FILES = 64                  # an archive holds four inner files; more is not XG's
MAX_GAME_FILE = 1 << 30         # 400,000 records: no real match is near it (a zip bomb is)
MAX_SMALL_FILE = 16 << 20       # comments, registry
WHOLE_PIPE = 64 << 20           # a pipe is read into memory up to this
CHUNK = 1 << 16
MARK = b"RGMH"
MATCH_MARK = 0x494C4D44         # "DMLI", at the end of the match header's fixed part

HEADER_MATCH, HEADER_GAME, CUBE, MOVE, FOOTER_GAME, FOOTER_MATCH, MISSING, UNUSED = range(8)
KIND_NAMES = {HEADER_MATCH: "match header", HEADER_GAME: "game header", CUBE: "cube decision", MOVE: "move",
              FOOTER_GAME: "game footer", FOOTER_MATCH: "match footer", MISSING: "missing-game", UNUSED: "unused"}
VARIATIONS = {0: "Backgammon", 1: "Nackgammon", 2: "Hypergammon", 3: "Longgammon"}
UNLIMITED = 99999               # XG's match length of a money session
NOT_ANALYSED = -1000.0
# XG's numbers for an analysis level (its PLAYERLEVEL table)
LEVELS = {-1: "none", 0: "1-ply", 1: "2-ply", 2: "3-ply", 3: "4-ply", 4: "5-ply", 5: "6-ply", 6: "7-ply",
          12: "3-ply red", 100: "rollout", 998: "book", 999: "book", 1000: "XG Roller", 1001: "XG Roller+",
          1002: "XG Roller++"}
CLOCKS = {1: "Fischer", 2: "Bronstein"}


def _i32(data: bytes, offset: int) -> int:
    return struct.unpack_from("<i", data, offset)[0]


def _f64(data: bytes, offset: int) -> float:
    return struct.unpack_from("<d", data, offset)[0]


def _ansi(data: bytes, offset: int, size: int) -> str:
    """A Delphi short string: a length byte, then text in the writer's Windows code page (read as a text file's line is)."""
    length = min(data[offset], size - 1)
    return text_of(data[offset + 1:offset + 1 + length])


def _utf16(data: bytes, offset: int, units: int) -> str:
    """A UTF-16 text of up to ``units`` units, ended by a NUL."""
    text = data[offset:offset + 2 * units].decode("utf-16-le", errors="replace")
    return text.split("\0", 1)[0]


def _point(code: int) -> int:
    """XG's point code (0-23, 24 the bar, -1 off) as bgcli's point (1-24, 25, 0).

    Some files of eXtreme Gammon 2 store a bear-off with a die larger than
    the point as the point minus the die (-2 for a checker borne off the
    5-point with a 6, read `5/-1`), where others store -1: every code below
    the board is off, as XG's own .mat export of such a match writes it."""
    return 0 if -6 <= code < 0 else code + 1


def _play_text(codes) -> str:
    """The play of a move record: up to four (from, to) pairs, ended by -1."""
    hops = []
    for index in range(0, len(codes) - 1, 2):
        start, end = codes[index], codes[index + 1]
        if start < 0 or start == end:   # the end; a candidate that dances is all zeros
            break
        hops.append(f"{_point(start)}/{_point(end)}")
    return " ".join(hops)


def _date(value: float) -> datetime.datetime | None:
    """A Delphi date and time: days since 30 December 1899."""
    if not 1.0 < value < 2958466.0:   # before 1900 or after 9999: none
        return None
    return datetime.datetime(1899, 12, 30) + datetime.timedelta(days=value)


def _probabilities(values) -> tuple[float, float, float, float, float]:
    """XG's seven numbers (lose backgammon, lose gammon, lose, win, win gammon,
    win backgammon, equity) as (win, win gammon, win backgammon, lose gammon,
    lose backgammon)."""
    return (values[3], values[4], values[5], values[1], values[0])


def _level(code: int) -> str:
    return LEVELS.get(code, f"level {code}")


def _error(value: float) -> float | None:
    return None if value <= NOT_ANALYSED + 1 else value


# ---------------------------------------------------------------------------
# The archive


@dataclass(frozen=True)
class Entry:
    name: str
    size: int            # uncompressed
    packed: int          # compressed
    start: int           # from the start of the data
    crc: int
    compressed: bool


@dataclass
class Archive:
    """Where a file's inner files are. ``entries`` is empty when the file has
    no readable registry (``problem`` says why): the game records are then
    read from the first stream."""

    data_start: int
    entries: list[Entry] = field(default_factory=list)
    problem: str | None = None

    def entry(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)


class _Reader:
    """Reads one .xg or .xgp file from a seekable binary stream."""

    def __init__(self, handle: IO[bytes], path: str):
        self.handle = handle
        self.path = path
        handle.seek(0, io.SEEK_END)
        self.size = handle.tell()
        handle.seek(0)

    def fail(self, message: str, record: int = 0) -> MatchFileError:
        return MatchFileError(message, self.path, record, 0)

    # -- the rich header and the archive ---------------------------------
    def header(self) -> tuple[bytes, int]:
        head = self.handle.read(RICH_HEADER)
        # the mark first: a file without it is no XG file at all (exit 2), one with it cut short is damaged (1)
        if head[:4] != MARK:
            raise NotThisFormatError("not an eXtreme Gammon file: it does not begin with XG's mark RGMH", self.path)
        if len(head) < RICH_HEADER:
            raise self.fail(f"the file is cut short: {len(head)} bytes, shorter than XG's {RICH_HEADER}-byte header")
        thumbnail = struct.unpack_from("<I", head, 20)[0]
        if RICH_HEADER + thumbnail > self.size:
            raise self.fail(f"the file is cut short: its header promises a {thumbnail}-byte picture "
                            f"in a {self.size}-byte file")
        return head, RICH_HEADER + thumbnail

    def archive(self, data_start: int) -> Archive:
        end = self.size - TRAILER
        if end < data_start:
            return Archive(data_start, problem="the file ends before the archive's trailer")
        self.handle.seek(end)
        trailer = self.handle.read(TRAILER)
        crc, count, _version, registry_size, data_size, compressed_registry = struct.unpack_from("<IiiiiB", trailer)
        registry_start = end - registry_size
        if not (0 < count <= MAX_FILES and 0 < registry_size <= MAX_SMALL_FILE and data_size >= 0
                and registry_start - data_size == data_start):
            return Archive(data_start, problem="the archive's trailer at the end of the file is missing or damaged")
        self.handle.seek(data_start)
        found = 0
        left = end - data_start
        while left:
            block = self.handle.read(min(CHUNK, left))
            if not block:
                break
            found = zlib.crc32(block, found)
            left -= len(block)
        if found != crc:
            raise self.fail(f"bad checksum: the archive's CRC-32 is {crc:08x}, its content's {found:08x}: "
                            "the file is damaged")
        self.handle.seek(registry_start)
        raw = self.handle.read(registry_size)
        try:
            index = _inflate_all(raw, count * REGISTRY_ENTRY) if compressed_registry else raw
        except zlib.error:
            raise self.fail("the archive's registry cannot be decompressed: the file is damaged") from None
        if len(index) < count * REGISTRY_ENTRY:
            raise self.fail(f"the archive's registry holds {len(index) // REGISTRY_ENTRY} of its {count} entries")
        entries = []
        for number in range(count):
            entry = index[number * REGISTRY_ENTRY:(number + 1) * REGISTRY_ENTRY]
            name = _ansi(entry, 0, 256)
            size, packed, start, entry_crc = struct.unpack_from("<iiiI", entry, 512)
            if size < 0 or packed < 0 or start < 0 or start + packed > data_size:
                raise self.fail(f"the archive's entry for {name!r} lies outside the archive "
                                f"(offset {start}, {packed} bytes of {data_size})")
            entries.append(Entry(name, size, packed, start, entry_crc, entry[528] == 0))
        return Archive(data_start, entries)

    def small_file(self, archive: Archive, name: str) -> bytes | None:
        """An inner file read whole (comments), checked against its CRC."""
        entry = archive.entry(name)
        if entry is None:
            return None
        if entry.size > MAX_SMALL_FILE:
            raise self.fail(f"{name} declares {entry.size} bytes, more than bgcli reads ({MAX_SMALL_FILE >> 20} MB)")
        self.handle.seek(archive.data_start + entry.start)
        raw = self.handle.read(entry.packed)
        try:
            data = _inflate_all(raw, entry.size) if entry.compressed else raw
        except zlib.error:
            raise self.fail(f"{name} cannot be decompressed: the file is damaged") from None
        if len(data) != entry.size or zlib.crc32(data) != entry.crc:
            raise self.fail(f"bad checksum in {name}: the file is damaged")
        return data

    def records(self, archive: Archive, problems: list[MatchFileError]) -> Iterator[bytes]:
        """The game records, decompressed as they are read."""
        entry = archive.entry("temp.xg") if archive.entries else None
        if archive.entries and entry is None:
            raise self.fail("the archive holds no game records (no temp.xg)")
        start = archive.data_start + (entry.start if entry else 0)
        packed = entry.packed if entry else self.size - start
        self.handle.seek(start)
        inflater = zlib.decompressobj() if entry is None or entry.compressed else None
        pending = b""
        total = 0
        crc = 0
        number = 0
        left = packed
        while True:
            if inflater is not None and inflater.eof:
                # past the stream's end: zlib may still hold a tail it will never consume
                block = b""
            elif inflater is not None and inflater.unconsumed_tail:
                block = inflater.unconsumed_tail
            elif left > 0:
                block = self.handle.read(min(CHUNK, left))
                left -= len(block)
                if not block:
                    left = 0
            else:
                block = b""
            if inflater is not None:
                try:
                    data = inflater.decompress(block, CHUNK) if block else inflater.flush() if inflater.eof else b""
                except zlib.error:
                    raise self.fail(f"record {number + 1} cannot be decompressed (a bad zlib stream): "
                                    "the file is damaged", number + 1) from None
            else:
                data = block
            if data:
                total += len(data)
                if total > MAX_GAME_FILE:
                    raise self.fail(f"the game records decompress to more than {MAX_GAME_FILE >> 20} MB, more "
                                    "than any match holds: not read further", number + 1)
                crc = zlib.crc32(data, crc)
                pending += data
                while len(pending) >= RECORD:
                    number += 1
                    yield pending[:RECORD]
                    pending = pending[RECORD:]
            if not data and not block:
                break
        if inflater is not None and not inflater.eof:
            problems.append(self.fail(f"the file is cut short: record {number + 1} and after are missing "
                                      "(the game records' zlib stream does not end)", number + 1))
        elif pending:
            problems.append(self.fail(f"the file is cut short: record {number + 1} has {len(pending)} of its "
                                      f"{RECORD} bytes", number + 1))
        elif entry is not None and (total != entry.size or crc != entry.crc):
            problems.append(self.fail("bad checksum in the game records (temp.xg): the file is damaged", number))
        if archive.problem:
            problems.append(self.fail(f"{archive.problem}: the game records were read from the first stream "
                                      "(zlib's own checksum holds), any comments and rollouts are not"))


def _inflate_all(raw: bytes, limit: int) -> bytes:
    inflater = zlib.decompressobj()
    data = inflater.decompress(raw, limit + 1)
    if len(data) > limit:
        raise zlib.error("larger than declared")
    return data


def _comments(data: bytes | None) -> list[str]:
    """temp.xgc: one comment a line (CR LF), a line break inside one written as
    the bytes 1 and 2."""
    if not data:
        return []
    text = text_of(data)
    return [line.replace("\x01\x02", "\n") for line in text.split("\r\n")]


# ---------------------------------------------------------------------------
# Records into parts


class _Builder:
    """Turns the game records into match parts, one game at a time."""

    def __init__(self, path: str, rich: bytes, comments: list[str], problems: list[MatchFileError]):
        self.path = path
        self.rich = rich
        self.comments = comments
        self.problems = problems
        self.players = ("player 1", "player 2")
        self.length = 0
        self.version = 0
        self.autos_written = False
        self.in_match = False
        self.game: dict | None = None
        self.match_comments: list[tuple[int, str]] = []
        self.skipped: dict[int, list[int]] = {}
        self.pending_cube: StoredAnalysis | None = None
        self.footer_comment = -1
        self.game_footer_comment = -1

    def fail(self, message: str, record: int) -> MatchFileError:
        return MatchFileError(message, self.path, record, 0)

    def comment(self, index: int, record: int, what: str) -> None:
        if index < 0:
            return
        if index >= len(self.comments):
            self.problems.append(self.fail(f"record {record} ({what}) names comment {index}; the file holds "
                                           f"{len(self.comments)}", record))
        elif self.comments[index]:
            self.match_comments.append((record, self.comments[index]))

    def feed(self, number: int, record: bytes) -> Iterator[MatchPart]:
        kind = record[8]
        if kind == HEADER_MATCH:
            yield from self.close_match(number)
            yield self.match_header(number, record)
        elif not self.in_match:
            raise self.fail(f"record {number} ({KIND_NAMES.get(kind, f'kind {kind}')}) comes before "
                            "the match header: not an XG match file", number)
        elif kind == HEADER_GAME:
            yield from self.close_game(number)
            self.begin_game(number, record)
        elif kind in (CUBE, MOVE) and self.game is None:
            self.problems.append(self.fail(f"record {number} ({KIND_NAMES[kind]}) is outside a game: skipped", number))
        elif kind == CUBE:
            self.cube(number, record)
        elif kind == MOVE:
            self.move(number, record)
        elif kind == FOOTER_GAME:
            self.footer(number, record)
            yield from self.close_game(number)
        elif kind == FOOTER_MATCH:
            yield from self.close_game(number)   # the match's end waits for what the rest of the file says
        else:
            self.skipped.setdefault(kind, []).append(number)

    def finish(self, number: int) -> Iterator[MatchPart]:
        for kind, records in sorted(self.skipped.items()):
            name = KIND_NAMES.get(kind)
            what = f"{len(records)} record{'s' if len(records) != 1 else ''} of {'the kind ' + repr(name) if name else f'unknown kind {kind}'}"
            self.problems.append(self.fail(f"{what} (first: record {records[0]}) skipped: "
                                           + ("bgcli does not read them" if name else "made by a newer XG?"),
                                           records[0]))
        self.skipped = {}
        if not self.in_match:
            raise self.fail("no match header record: not an XG match file", 1)
        yield from self.close_match(number)

    # -- the header --------------------------------------------------------
    def match_header(self, number: int, record: bytes) -> MatchHeader:
        self.version = _i32(record, 552)
        if _i32(record, 556) != MATCH_MARK:
            raise self.fail(f"record {number} (match header) lacks XG's mark DMLI: the file is damaged", number)
        unicode = self.version >= 24
        names = ((_utf16(record, 880, 129), _utf16(record, 1138, 129)) if unicode
                 else (_ansi(record, 9, 41), _ansi(record, 50, 41)))
        self.players = (names[0] or "player 1", names[1] or "player 2")
        length = _i32(record, 92)
        self.length = 0 if length >= UNLIMITED else max(length, 0)
        tags: dict[str, str] = {}
        site = _utf16(record, 1396, 129) if unicode else _ansi(record, 283, 129)
        event = _utf16(record, 622, 129) if unicode else _ansi(record, 136, 129)
        round_ = _utf16(record, 1654, 129) if unicode else _ansi(record, 417, 129)
        for tag, value in (("Site", site), ("Event", event), ("Round", round_)):
            if value:
                tags[tag] = value
        when = _date(_f64(record, 128))
        if when is not None:
            tags["EventDate"] = when.strftime("%Y.%m.%d")
            tags["EventTime"] = when.strftime("%H:%M")
        tags["Player 1"], tags["Player 2"] = self.players
        for side, (elo, experience) in enumerate(((104, 120), (112, 124)), 1):
            tags[f"Player {side} Elo"] = f"{_f64(record, elo):.2f}/{_i32(record, experience)}"
        # a rule tag (core.rules): nackgammon and hypergammon (XG's of 3 checkers) replay from their
        # own opening, another variant (Longgammon) is an error at the match's header (the replay
        # asks tag_problems)
        variation = _i32(record, 96)
        tags["Variation"] = VARIATIONS.get(variation, str(variation))
        # the rule tags as XG's own .mat export spells them (the rules read those), in the rules' words
        for tag, offset in (("Crawford", 100), ("Jacoby", 101), ("Beaver", 102)):
            tags[tag] = SETTING_OF_TAG[tag.lower()].write(bool(record[offset]))
        if record[103]:
            tags["AutoDouble"] = "On"
        if self.version >= 8:
            limit = _i32(record, 612)
            if 0 < limit < 31:
                tags["Cubelimit"] = SETTING_OF_TAG["cubelimit"].write(after_turns(limit))   # XG stores its count of turns
            if record[103] and _i32(record, 616) > 0:
                tags["AutoDoubleMax"] = str(_i32(record, 616))
        if record[103]:
            # XG's own AutoDouble tags above are kept as written; the rules read their own tag: how many automatic
            # doubles money play allows (XG's maximum where stored, else as many as bgcli's rules allow).
            written = _i32(record, 616) if self.version >= 8 else 0
            tags[AUTO_DOUBLES.tag] = str(min(written, AUTO_DOUBLES.high)) if written > 0 else SITE_AUTO_DOUBLES
        tags["Unrated"] = "On" if record[574] else "Off"
        if self.version >= 24 and record[620]:
            tags["Transcribed"] = "On"
        if self.version >= 25:
            clock, _per_game, first, added = struct.unpack_from("<iB3xii", record, 1912)
            if clock in CLOCKS:
                tags["ClockType"] = f"{CLOCKS[clock]} {first}/{added}"
        if self.version >= 30:
            transcriber = _utf16(record, 1960, 129)
            if transcriber:
                tags["Transcriber"] = transcriber
        self.in_match = True
        self.match_comments = []
        rich_comment = _utf16(self.rich, 6184, 1024)
        if rich_comment:
            self.match_comments.append((0, rich_comment))
        self.comment(_i32(record, 576), number, "match header")
        self.footer_comment = _i32(record, 580)
        return MatchHeader(self.length, number, tags, self.path)

    # -- games ---------------------------------------------------------------
    def begin_game(self, number: int, record: bytes) -> None:
        # From version 26 XG stores each game's automatic doubles (none is 0): the record says how the
        # game's cube starts, as GamesGrid's and TrueMoneyGames's lines do, and the replay asks the rules
        # whether they were allowed. Before 26 the count is not stored and the replay finds the start.
        self.autos_written = self.version >= 26
        autos = max(0, min(_i32(record, 64), 20)) if self.autos_written else 0
        cubes = turns(autos)   # the game's cube after each automatic double (XG stores their count)
        self.game = dict(number=_i32(record, 48), scores=(_i32(record, 12), _i32(record, 16)), line=number,
                         actions=[Action(number, 0, None, 0, ActionKind.AUTO_DOUBLE, cube=cube) for cube in cubes[1:]],
                         row=0, last_side=None, cube=cubes[-1])
        self.pending_cube = None
        self.comment(_i32(record, 56), number, "game header")
        self.game_footer_comment = _i32(record, 60)

    def add(self, number: int, side: int, kind: ActionKind, **fields) -> None:
        game = self.game
        assert game is not None
        if side == 0 or game["last_side"] != 0:
            game["row"] += 1
        game["last_side"] = side
        game["actions"].append(Action(number, 0, game["row"], side, kind, **fields))

    def cube(self, number: int, record: bytes) -> None:
        game = self.game
        assert game is not None
        side = 0 if _i32(record, 12) == 1 else 1
        doubled, take, beaver_answer, raccoon_answer = (_i32(record, 16), _i32(record, 20), _i32(record, 24),
                                                        _i32(record, 28))
        self.comment(_i32(record, 292), number, "cube decision")
        analysis = self.cube_analysis(record, doubled, DecisionKind.CUBE, _error(_f64(record, 200)))
        if doubled != 1:
            self.pending_cube = analysis   # a decision not to double: kept with the next move
            return
        cube = turned(game["cube"])   # XG stores that a double, beaver, raccoon was made, not its value: the rule's
        self.add(number, side, ActionKind.DOUBLE, cube=cube, analysis=(analysis,) if analysis else ())
        answer = self.cube_analysis(record, doubled, DecisionKind.TAKE, _error(_f64(record, 216)))
        answered = (answer,) if answer else ()
        if take == 0:
            self.add(number, 1 - side, ActionKind.DROP, analysis=answered)
        elif take == 1:
            self.add(number, 1 - side, ActionKind.TAKE, analysis=answered)
        elif take == 2:
            cube = turned(cube)
            self.add(number, 1 - side, ActionKind.BEAVER, cube=cube, analysis=answered)
            if beaver_answer == 2:
                cube = turned(cube)
                self.add(number, side, ActionKind.RACCOON, cube=cube)
                self.add(number, 1 - side, ActionKind.TAKE if raccoon_answer == 1 else ActionKind.DROP)
            elif beaver_answer in (0, 1):
                self.add(number, side, ActionKind.TAKE if beaver_answer == 1 else ActionKind.DROP)
        game["cube"] = cube

    def cube_analysis(self, record: bytes, doubled: int, kind: DecisionKind, error: float | None) -> StoredAnalysis | None:
        if doubled not in (0, 1):
            return None
        base = 64
        level = _i32(record, base + 28)
        if level < 0 and error is None:
            return None
        no_double = struct.unpack_from("<7f", record, base + 60)
        double_take = struct.unpack_from("<7f", record, base + 104)
        nd, dt, dp = struct.unpack_from("<3f", record, base + 88)
        name = _level(level)
        candidates = (Evaluation(Line.NO_DOUBLE.word, nd, _probabilities(no_double), name),
                      Evaluation(Line.DOUBLE_TAKE.word, dt, _probabilities(double_take), name),
                      Evaluation(Line.DOUBLE_PASS.word, dp, (), name))
        chosen = (0 if doubled == 0 else None) if kind == DecisionKind.CUBE else None
        if kind == DecisionKind.CUBE and doubled == 1:
            chosen = 1 if _i32(record, 20) != 0 else 2
        elif kind == DecisionKind.TAKE:
            chosen = 1 if _i32(record, 20) != 0 else 2
        return StoredAnalysis("eXtreme Gammon", kind, error, candidates, chosen)

    def move(self, number: int, record: bytes) -> None:
        side = 0 if _i32(record, 64) == 1 else 1
        dice = struct.unpack_from("<2i", record, 100)
        if recorded_dice(*dice) is None:
            self.problems.append(self.fail(f"record {number} (move): dice {dice[0]} and {dice[1]} are not "
                                           "two numbers from 1 to 6: skipped", number))
            return
        codes = struct.unpack_from("<8i", record, 68)
        text = _play_text(codes)
        from_boards = _play_from_boards(record, codes)
        if from_boards is not None:
            self.problems.append(self.fail(f"record {number} (move): the steps XG stored ({text or 'none'}) do not "
                                           f"reach the board it stored after the move; the play is read from the "
                                           f"two boards: {from_boards}", number))
            text = from_boards
        analysis = []
        if self.pending_cube is not None:
            analysis.append(self.pending_cube)
            self.pending_cube = None
        played = self.play_analysis(record, codes)
        if played is not None:
            analysis.append(played)
        self.comment(_i32(record, 2524), number, "move")
        self.add(number, side, ActionKind.MOVE if text else ActionKind.DANCE, dice=(dice[0], dice[1]),
                 play_text=text, raw=text, analysis=tuple(analysis))

    def play_analysis(self, record: bytes, codes) -> StoredAnalysis | None:
        base = 124
        count = _i32(record, base + 64)
        if not 0 < count <= 32:
            return None
        candidates = []
        chosen = None
        after = record[35:61]
        for index in range(count):
            moves = struct.unpack_from("<8b", record, base + 900 + 8 * index)
            level = struct.unpack_from("<h", record, base + 1156 + 4 * index)[0]
            values = struct.unpack_from("<7f", record, base + 1284 + 28 * index)
            candidates.append(Evaluation(_play_text(moves), values[6], _probabilities(values), _level(level)))
            if chosen is None and record[base + 68 + 26 * index:base + 94 + 26 * index] == after:
                chosen = index   # the candidate whose board is the board after the move
        return StoredAnalysis("eXtreme Gammon", DecisionKind.PLAY, _error(_f64(record, 2312)), tuple(candidates),
                              chosen)

    def footer(self, number: int, record: bytes) -> None:
        game = self.game
        if game is None:
            self.problems.append(self.fail(f"record {number} (game footer) ends no game: skipped", number))
            return
        winner = _i32(record, 24)
        points = _i32(record, 28)
        if winner not in (1, -1) or not 0 <= points < 1 << 30:
            self.problems.append(self.fail(f"record {number} (game footer): winner {winner} with {points} points "
                                           "cannot be read: the game has no result", number))
            return
        side = 0 if winner == 1 else 1
        line = game["actions"][-1].line if game["actions"] else number
        game["actions"].append(Action(line, 0, None, side, ActionKind.WIN, points=points))
        self.comment(self.game_footer_comment, number, "game footer")

    def close_game(self, number: int) -> Iterator[GameRecord]:
        game = self.game
        if game is None:
            return
        self.game = None
        yield GameRecord(game["number"] or 1, self.players, game["scores"], tuple(game["actions"]), game["line"],
                         autos_written=self.autos_written)

    def close_match(self, number: int) -> Iterator[MatchPart]:
        if not self.in_match:
            return
        yield from self.close_game(number)
        self.comment(self.footer_comment, number, "match footer")
        self.in_match = False
        errors = tuple(sorted(self.problems, key=lambda e: e.line))
        self.problems.clear()
        yield MatchEnd(errors, tuple(self.match_comments))


def _mover_board(record: bytes) -> list[int]:
    """The board before a move from the mover's side (index 1-24 its points,
    25 its bar, 0 the opponent's bar; the mover's checkers positive)."""
    board = list(struct.unpack_from("<26b", record, 9))
    if _i32(record, 64) != 1:   # stored from player 1's side
        board = [-count for count in from_other_side(board)]
    return board


def _play_from_boards(record: bytes, codes) -> str | None:
    """None when the stored steps take the board before the move to the
    board after it (both are stored); else the play the two boards show
    (XG keeps a play its steps cannot hold, a checker moved backwards,
    as the board it led to)."""
    board = _mover_board(record)
    after = list(struct.unpack_from("<26b", record, 35))
    moved = list(board)
    for index in range(0, 8, 2):
        start, end = codes[index], codes[index + 1]
        if start < 0:
            break
        if not 0 <= start <= 24 or not -6 <= end <= 23:   # off: -1, or the point minus a larger die
            return None   # not a step at all: the replay says so
        moved[start + 1] -= 1
        if end >= 0:
            if moved[end + 1] == -1:
                moved[end + 1] = 0
                moved[0] -= 1
            moved[end + 1] += 1
    if moved == after or not any(after):
        return None
    sources = [i for i in range(25, 0, -1) for _ in range(max(board[i], 0) - max(after[i], 0))]
    targets = [i for i in range(25, 0, -1) for _ in range(max(after[i], 0) - max(board[i], 0))]
    if not sources or len(targets) > len(sources):
        return None
    targets += [0] * (len(sources) - len(targets))
    return " ".join(f"{a}/{b}" for a, b in zip(sources, targets))


def _seekable(handle: IO[bytes], path: str) -> IO[bytes]:
    try:
        if handle.seekable():
            return handle
    except (AttributeError, OSError):
        pass
    raw = handle.read(WHOLE_PIPE + 1)
    if len(raw) > WHOLE_PIPE:
        raise MatchFileError(f"the stream is larger than {WHOLE_PIPE >> 20} MB, more than bgcli reads "
                             "of an XG file from a pipe", path, 0, 0)
    return io.BytesIO(raw)


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: the parts of an .xg file, its game records
    decompressed as they are read."""
    reader = _Reader(_seekable(handle, path), path)
    rich, data_start = reader.header()
    archive = reader.archive(data_start)
    problems: list[MatchFileError] = []
    comments = _comments(reader.small_file(archive, "temp.xgc")) if archive.entries else []
    builder = _Builder(path, rich, comments, problems)
    number = 0
    for number, record in enumerate(reader.records(archive, problems), 1):
        yield from builder.feed(number, record)
    yield from builder.finish(number)


def iter_records(path: str):
    """The game records of a file, for tools and tests: (number, kind, record)."""
    with open(path, "rb") as handle:
        reader = _Reader(handle, path)
        _, data_start = reader.header()
        archive = reader.archive(data_start)
        problems: list[MatchFileError] = []
        for number, record in enumerate(reader.records(archive, problems), 1):
            yield number, record[8], record


# ---------------------------------------------------------------------------
# Positions (.xgp)


def read_position(path: str):
    """The position of an .xgp file (XG keeps one position as a match of one
    decision): the board, dice, cube, score and rules of its last move or
    cube record, as a :class:`~bgcli.core.state.GameState` seen from the
    player on roll."""
    from bgcli.core.position import Position
    from bgcli.core.state import MAX_CUBE, GameState, MatchState

    header = game = last = None
    try:
        for _, kind, record in iter_records(path):
            if kind == HEADER_MATCH:
                header, game, last = record, None, None
            elif kind == HEADER_GAME:
                game, last = record, None
            elif kind in (CUBE, MOVE):
                last = record
    except OSError as exc:
        raise FileReadError(path, exc) from None
    if header is None or game is None or last is None:
        raise MatchFileError("no position in the file: an XG position file holds a match header, a game header "
                             "and a move or cube record", path, 0, 0)
    if last[8] == MOVE:
        side_code, cube_code = _i32(last, 64), _i32(last, 108)
        dice = struct.unpack_from("<2i", last, 100)
        board = _mover_board(last)
    else:
        side_code, cube_code = _i32(last, 12), _i32(last, 32)
        dice = (0, 0)
        board = list(struct.unpack_from("<26b", last, 36))
        if side_code != 1:
            board = [-count for count in from_other_side(board)]
    side = 0 if side_code == 1 else 1
    if recorded_dice(*dice) is None:
        dice = (0, 0)
    length = _i32(header, 92)
    unicode = _i32(header, 552) >= 24
    names = ((_utf16(header, 880, 129), _utf16(header, 1138, 129)) if unicode
             else (_ansi(header, 9, 41), _ansi(header, 50, 41)))
    try:
        position = Position.from_board26(board)
    except ValueError as exc:
        raise MatchFileError(f"the position's board: {exc}", path, 0, 0) from None
    match = MatchState(cube=after_turns(min(abs(cube_code), turns_within(MAX_CUBE))), cube_owner=-1 if cube_code == 0 else 0 if cube_code > 0 else 1,
                       on_roll=side, turn=side, crawford=bool(game[20]), dice=(dice[0], dice[1]),
                       score=(_i32(game, 12), _i32(game, 16)), names=names,
                       rules=Rules(match_length=0 if length >= UNLIMITED else max(length, 0),
                                   jacoby=bool(header[101]), beavers=bool(header[102])))
    problem = match.problem()
    if problem:
        raise MatchFileError(f"the position's match state cannot be read: {problem}", path, 0, 0)
    return GameState(position, match)
