"""BGBlitz's match files (.bgf), read into match records.

A .bgf file is one line of JSON (``{"format":"BGF","version":"1.0",
"compress":true,"useSmile":true}``), then the match as one document in
Smile, Jackson's binary JSON, gzip- or zlib-compressed when ``compress``
says so. The document holds the match (``matchlen``, ``nameGreen`` and
``nameRed``, ``useCrawford``, ``useJacoby``, ``useBeaver``, ``cubeLimit``,
``date``, ``site``, ``event``, ``round``, ``location``, ``extMatchID``,
``comment``, ``finalGreen``/``finalRed``) and its ``games``; each game its
scores before it, ``wonPoints``, ``wasResignation`` and ``moves``. Every
entry of ``moves`` is one turn of the player it names (``player`` -1 for
green, the left column of a .mat file, 1 for red): a play (``from``/``to``,
up to four steps in the mover's numbering, 25 the bar, 0 off, -1 none; the
dice in ``green`` and ``red``), a dance (``dancingEquity`` set, the dice in
``from[0]`` and ``to[0]``), or a cube decision (``from[0]`` -1: the double
and the entry after it, the answer, ``hasDoubled``/``hasAccepted``); an
entry with no play and no decision closes the game. BGBlitz's analysis of
each play and cube decision is kept on the actions
(:class:`~bgcli.match.records.StoredAnalysis`).

A binary file has no lines: the "line" of an action is the number of its
entry among all the games' moves, counted from 1. The document is
decompressed in one call, up to a bound of what a real match holds
(:data:`DOCUMENT_LIMIT`, :data:`VALUE_LIMIT`), then decoded whole; a file cut
short, a bad compressed stream, Smile data that does not decode or that goes
on after the document, and a document past the bound are a MatchFileError
saying where.
"""
from __future__ import annotations

import json
import struct
import zlib
from typing import IO, Any, Iterator

from bgcli.core.cube import Line, turned
from bgcli.core.rules import SETTING_OF_TAG, tag_for
from bgcli.core.spelling import recorded_dice
from bgcli.errors import MatchFileError
from bgcli.formats.reading import GZIP_MAGIC
from bgcli.match.records import (
    Action, ActionKind, DecisionKind, Evaluation, GameRecord, MatchEnd, MatchHeader, MatchPart, StoredAnalysis,
)

HEADER_LIMIT = 4096            # the JSON line
# What a real match can hold, decompressed. Measured on the real files in tests/data: a turn with BGBlitz's
# full analysis (8 candidate plays) takes at most 2.2 kB of Smile, the longest game 81 turns, the largest
# document 574 kB (7 games). A match to N points has at most 2N - 1 games: a 25-point match of 49 games,
# each three times the longest seen (250 turns), fully analysed, is 27 MB. 32 MB is above that (a money
# session of 14,000 analysed turns); a bigger document is made to be big, not a match, and is refused
# before it is decoded. The file itself is never larger than its document (deflate does not expand it).
DOCUMENT_LIMIT = 32 << 20
PACKED_LIMIT = DOCUMENT_LIMIT
# Real documents take 6.4 to 6.8 bytes a value (the same files); a document of one-byte values (a list of
# millions of nulls) costs the decoder most per byte, so the values are counted too: a quarter of the
# bound's bytes is more values than any real document of that size holds.
VALUE_LIMIT = DOCUMENT_LIMIT // 4
DEPTH_LIMIT = 64
SMILE = b":)\n"
NOT_JUDGED = -98.0             # BGBlitz writes -99 (or -999) for "no error computed"


class SmileError(ValueError):
    pass


# What a reader of the plays alone leaves undecoded (read_stream_bare): BGBlitz's candidate plays of each
# turn (about nine values in ten of an analysed document), its luck and its error rates
ANALYSIS_KEYS = frozenset({"moveAnalysis", "luck", "pr"})


class _Smile:
    """A decoder of Smile (the subset of values JSON has): bounded, and
    every malformation a SmileError with its offset. The value of a name in
    ``skipped``, anywhere in the document, is walked past (:meth:`skip`) and
    read as None."""

    def __init__(self, data: bytes, skipped: frozenset[str] = frozenset()):
        if data[:3] != SMILE or len(data) < 4:
            raise SmileError("no Smile header ':)' at byte 0")
        self.data = data
        self.skipped = skipped
        self.pos = 4
        self.shared_names = bool(data[3] & 1)
        self.shared_values = bool(data[3] & 2)
        self.names: list[str] = []
        self.values: list[str] = []
        self.left = VALUE_LIMIT   # values still allowed

    def fail(self, message: str) -> SmileError:
        return SmileError(f"{message} at byte {self.pos}")

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise self.fail("the data ends")
        value = self.data[self.pos]
        self.pos += 1
        return value

    def take(self, count: int) -> bytes:
        if self.pos + count > len(self.data):
            raise self.fail(f"the data ends inside a {count}-byte value")
        chunk = self.data[self.pos:self.pos + count]
        self.pos += count
        return chunk

    def until_end_marker(self) -> bytes:
        end = self.data.find(b"\xfc", self.pos)
        if end < 0:
            raise self.fail("a long text never ends")
        chunk = self.data[self.pos:end]
        self.pos = end + 1
        return chunk

    def vint(self) -> int:
        value = 0
        for _ in range(11):
            b = self.byte()
            if b & 0x80:
                value = (value << 6) | (b & 0x3F)
                return (value >> 1) ^ -(value & 1)
            value = (value << 7) | b
        raise self.fail("a number of more than 64 bits")

    def seven_bit(self, count: int, bits: int) -> int:
        value = 0
        for b in self.take(count):
            value = (value << 7) | (b & 0x7F)
        return value & ((1 << bits) - 1)

    def text(self, raw: bytes, shared: list[str], enabled: bool) -> str:
        text = raw.decode("utf-8", errors="replace")
        if enabled and len(raw) <= 64:
            _remember(shared, text)
        return text

    def value(self, depth: int = 0) -> Any:
        if depth > DEPTH_LIMIT:
            raise self.fail(f"values nested more than {DEPTH_LIMIT} deep")
        self.left -= 1
        if self.left < 0:
            raise self.fail(f"more than {VALUE_LIMIT:,} values, more than a real match holds")
        b = self.byte()
        if b < 0x20:
            index = b - 1
            if not 0 <= index < len(self.values):
                raise self.fail(f"a reference to shared text {index} of {len(self.values)}")
            return self.values[index]
        if b == 0x20:
            return ""
        if b in (0x21, 0x22, 0x23):
            return (None, False, True)[b - 0x21]
        if b in (0x24, 0x25):
            return self.vint()
        if b == 0x28:
            return struct.unpack(">f", struct.pack(">I", self.seven_bit(5, 32)))[0]
        if b == 0x29:
            return struct.unpack(">d", struct.pack(">Q", self.seven_bit(10, 64)))[0]
        if 0x40 <= b <= 0x7F:
            return self.text(self.take((b & 0x1F) + 1 + (32 if b >= 0x60 else 0)), self.values, self.shared_values)
        if 0x80 <= b <= 0xBF:
            return self.text(self.take((b & 0x1F) + 2 + (32 if b >= 0xA0 else 0)), self.values, self.shared_values)
        if 0xC0 <= b <= 0xDF:
            small = b & 0x1F
            return (small >> 1) ^ -(small & 1)
        if b in (0xE0, 0xE4):
            return self.until_end_marker().decode("utf-8", errors="replace")
        if 0xEC <= b <= 0xEF:
            index = ((b & 3) << 8) | self.byte()
            if index >= len(self.values):
                raise self.fail(f"a reference to shared text {index} of {len(self.values)}")
            return self.values[index]
        if b == 0xF8:
            items = []
            data, end = self.data, len(self.data)
            while True:
                if self.pos >= end:
                    raise self.fail("the data ends inside a list")
                if data[self.pos] == 0xF9:
                    break
                items.append(self.value(depth + 1))
            self.pos += 1
            return items
        if b == 0xFA:
            return self.object(depth + 1)
        raise self.fail(f"a value of unknown kind 0x{b:02x}")

    def key(self) -> str | None:
        b = self.byte()
        if b == 0xFB:
            return None
        if b == 0x20:
            return ""
        if 0x30 <= b <= 0x33:
            index = ((b & 3) << 8) | self.byte()
        elif 0x40 <= b <= 0x7F:
            index = b - 0x40
        elif 0x80 <= b <= 0xBF:
            return self.text(self.take(b - 0x7F), self.names, self.shared_names)
        elif 0xC0 <= b <= 0xF7:
            return self.text(self.take(b - 0xBE), self.names, self.shared_names)
        elif b == 0x34:
            return self.until_end_marker().decode("utf-8", errors="replace")
        else:
            raise self.fail(f"a name of unknown kind 0x{b:02x}")
        if index >= len(self.names):
            raise self.fail(f"a reference to shared name {index} of {len(self.names)}")
        return self.names[index]

    def object(self, depth: int) -> dict:
        found: dict = {}
        skipped = self.skipped
        while True:
            name = self.key()
            if name is None:
                return found
            if name in skipped:
                self.skip(depth)
                found[name] = None
            else:
                found[name] = self.value(depth)

    # Fenced mirror of value (with key and object under it) that builds nothing, for speed:
    # tests/test_bgf.py::test_skipping_a_value_is_reading_it_and_dropping_it compares the two on real
    # documents, damaged ones and random bytes
    def skip(self, depth: int) -> None:
        """Walk past the value at the read position as :meth:`value` reads it,
        building nothing: the same bounds, the same shared texts and names
        remembered (a later reference reads them), the same SmileError at the
        same byte. One loop, a stack of the open lists and objects, no call a value."""
        data, end = self.data, len(self.data)
        names, values = self.names, self.values
        shared_names, shared_values = self.shared_names, self.shared_values
        pos, left = self.pos, self.left
        # the open containers, innermost last: (an object, the depth of its values or items)
        stack: list[tuple[bool, int]] = []
        key = False   # a name comes next (in an object), else a value
        try:
            while True:
                if key:   # key()
                    if pos >= end:
                        raise SmileError("the data ends")
                    b = data[pos]
                    pos += 1
                    if b == 0xFB:   # the object ends: a value done
                        stack.pop()
                    else:
                        if b == 0x20:
                            pass
                        elif 0x30 <= b <= 0x33 or 0x40 <= b <= 0x7F:
                            if b <= 0x33:
                                if pos >= end:
                                    raise SmileError("the data ends")
                                index = ((b & 3) << 8) | data[pos]
                                pos += 1
                            else:
                                index = b - 0x40
                            if index >= len(names):
                                raise SmileError(f"a reference to shared name {index} of {len(names)}")
                        elif 0x80 <= b <= 0xF7:
                            count = b - 0x7F if b <= 0xBF else b - 0xBE
                            if pos + count > end:
                                raise SmileError(f"the data ends inside a {count}-byte value")
                            if shared_names and count <= 64:
                                _remember(names, data[pos:pos + count].decode("utf-8", errors="replace"))
                            pos += count
                        elif b == 0x34:
                            marker = data.find(b"\xfc", pos)
                            if marker < 0:
                                raise SmileError("a long text never ends")
                            pos = marker + 1
                        else:
                            raise SmileError(f"a name of unknown kind 0x{b:02x}")
                        key = False
                        depth = stack[-1][1]
                        continue
                else:   # value(depth)
                    if depth > DEPTH_LIMIT:
                        raise SmileError(f"values nested more than {DEPTH_LIMIT} deep")
                    left -= 1
                    if left < 0:
                        raise SmileError(f"more than {VALUE_LIMIT:,} values, more than a real match holds")
                    if pos >= end:
                        raise SmileError("the data ends")
                    b = data[pos]
                    pos += 1
                    if 0x40 <= b <= 0xBF:   # a short text
                        count = (b & 0x1F) + (1 if b < 0x80 else 2) + (32 if b & 0x20 else 0)
                        if pos + count > end:
                            raise SmileError(f"the data ends inside a {count}-byte value")
                        if shared_values and count <= 64:
                            _remember(values, data[pos:pos + count].decode("utf-8", errors="replace"))
                        pos += count
                    elif b < 0x20:
                        if not 0 <= b - 1 < len(values):
                            raise SmileError(f"a reference to shared text {b - 1} of {len(values)}")
                    elif b <= 0x23 or 0xC0 <= b <= 0xDF:
                        pass   # "", null, false, true, a small number
                    elif b == 0xFA:
                        stack.append((True, depth + 1))
                        key = True
                        continue
                    elif b == 0xF8:
                        stack.append((False, depth + 1))
                    elif b in (0x24, 0x25):
                        for _ in range(11):
                            if pos >= end:
                                raise SmileError("the data ends")
                            pos += 1
                            if data[pos - 1] & 0x80:
                                break
                        else:
                            raise SmileError("a number of more than 64 bits")
                    elif b in (0x28, 0x29):
                        count = 5 if b == 0x28 else 10
                        if pos + count > end:
                            raise SmileError(f"the data ends inside a {count}-byte value")
                        pos += count
                    elif b in (0xE0, 0xE4):
                        marker = data.find(b"\xfc", pos)
                        if marker < 0:
                            raise SmileError("a long text never ends")
                        pos = marker + 1
                    elif 0xEC <= b <= 0xEF:
                        if pos >= end:
                            raise SmileError("the data ends")
                        index = ((b & 3) << 8) | data[pos]
                        pos += 1
                        if index >= len(values):
                            raise SmileError(f"a reference to shared text {index} of {len(values)}")
                    else:
                        raise SmileError(f"a value of unknown kind 0x{b:02x}")
                # a value done: the next of the container it is in, if any
                while stack and not stack[-1][0]:   # in a list: its next item, or its end
                    if pos >= end:
                        raise SmileError("the data ends inside a list")
                    if data[pos] != 0xF9:
                        break
                    pos += 1
                    stack.pop()
                if not stack:
                    break
                key = stack[-1][0]
                depth = stack[-1][1]
        except SmileError as exc:
            self.pos = pos
            raise self.fail(str(exc)) from None
        self.pos, self.left = pos, left


def _remember(shared: list[str], text: str) -> None:
    """A short text kept for the references after it (Smile's shared names or values: the last 1,024)."""
    if len(shared) >= 1024:
        shared.clear()
    shared.append(text)


def decode_smile(data: bytes, skipped: frozenset[str] = frozenset()) -> Any:
    """The value a Smile document holds: one value, then nothing but Smile's
    optional end marker (bytes after it are not part of any match, and would
    otherwise be read for nothing). The values of the names in ``skipped`` are
    read as None (walked past, not decoded)."""
    decoder = _Smile(data, skipped)
    found = decoder.value()
    rest = len(data) - decoder.pos
    if rest and data[decoder.pos:] != b"\xff":
        raise decoder.fail(f"{rest:,} bytes after the end of the document")
    return found


def _document(handle: IO[bytes], path: str, skipped: frozenset[str] = frozenset()) -> dict:
    def fail(message: str) -> MatchFileError:
        return MatchFileError(message, path, 0, 0)

    head = handle.readline(HEADER_LIMIT + 1)
    try:
        header = json.loads(head.decode("utf-8"))
    except ValueError:
        raise fail("not a BGBlitz file: its first line is not the JSON header {\"format\":\"BGF\", ...}") from None
    if not isinstance(header, dict) or header.get("format") != "BGF":
        raise fail("not a BGBlitz file: its header does not say \"format\":\"BGF\"")
    if not header.get("useSmile", True):
        raise fail("a BGBlitz file written as plain JSON (useSmile false), which bgcli does not read yet")
    packed = handle.read(PACKED_LIMIT + 1)
    if len(packed) > PACKED_LIMIT:
        raise fail(f"the file is larger than {PACKED_LIMIT >> 20} MB, more than a real match holds: not read")
    data = packed
    if packed[:2] == GZIP_MAGIC or packed[:1] == b"\x78":
        inflater = zlib.decompressobj(31 if packed[:2] == GZIP_MAGIC else 15)
        try:
            data = inflater.decompress(packed, DOCUMENT_LIMIT + 1)
        except zlib.error as exc:
            raise fail(f"the compressed match cannot be decompressed ({exc}): the file is damaged") from None
        if len(data) > DOCUMENT_LIMIT:
            raise fail(f"the match decompresses to more than {DOCUMENT_LIMIT >> 20} MB, more than a real match holds: "
                       "not read")
        if not inflater.eof:
            raise fail(f"the file is cut short: its compressed match ends after {len(data)} bytes")
    elif header.get("compress"):
        raise fail("the header says the match is compressed, but it is neither gzip nor zlib: the file is damaged")
    try:
        document = decode_smile(data, skipped)
    except (SmileError, UnicodeDecodeError, struct.error) as exc:
        raise fail(f"the match's Smile data does not decode: {exc}") from None
    if not isinstance(document, dict) or not isinstance(document.get("games"), list):
        raise fail("the match document has no list of games")
    return document


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _number(value: Any, default: float = 0.0) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def _whole(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _steps(entry: dict) -> str:
    starts, ends = _list(entry.get("from")), _list(entry.get("to"))
    hops = []
    for start, end in zip(starts, ends):
        if not isinstance(start, int) or not isinstance(end, int) or start < 0:
            break
        hops.append(f"{start}/{end}")
    return " ".join(hops)


def _probabilities(eq: dict) -> tuple[float, ...]:
    if not isinstance(eq, dict) or eq.get("myWins") is None:
        return ()
    return tuple(_number(eq.get(key)) for key in ("myWins", "myGammon", "myBackGammon", "oppGammon", "oppBackGammon"))


def _error(value: Any) -> float | None:
    error = _number(value, NOT_JUDGED - 1)
    return None if error <= NOT_JUDGED else error


class _Builder:
    def __init__(self, path: str, document: dict, analysis: bool = True):
        self.path = path
        self.doc = document
        self.analysis = analysis   # False: the document was decoded without it (ANALYSIS_KEYS), and none is kept
        self.line = 0
        self.errors: list[MatchFileError] = []

    def fail(self, message: str) -> MatchFileError:
        return MatchFileError(message, self.path, self.line, 0)

    def tags(self) -> dict[str, str]:
        doc = self.doc
        tags: dict[str, str] = {}
        for tag, key in (("Site", "site"), ("Match ID", "extMatchID"), ("Event", "event"), ("Round", "round"),
                         ("Place", "location"), ("EventDate", "date")):
            value = doc.get(key)
            if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
                tags[tag] = str(value)
        tags["Player 1"], tags["Player 2"] = self.players()
        for side, key in ((1, "ratingGreen"), (2, "ratingRed")):
            if _number(doc.get(key)):
                tags[f"Player {side} Elo"] = f"{_number(doc.get(key)):.2f}"
        # the rule tags as XG's and BGBlitz's .mat files spell them (the rules read those), in the rules' words
        for tag, key in (("Crawford", "useCrawford"), ("Jacoby", "useJacoby"), ("Beaver", "useBeaver")):
            if isinstance(doc.get(key), bool):
                tags[tag] = SETTING_OF_TAG[tag.lower()].write(doc[key])
        if doc.get("useCube") is False:
            tags.update([tag_for("cubeless", True)])
        limit = _whole(doc.get("cubeLimit"))
        if limit > 0:
            tags["Cubelimit"] = SETTING_OF_TAG["cubelimit"].write(limit)
        return tags

    def players(self) -> tuple[str, str]:
        return (str(self.doc.get("nameGreen") or "green"), str(self.doc.get("nameRed") or "red"))

    def parts(self) -> Iterator[MatchPart]:
        doc = self.doc
        length = max(0, _whole(doc.get("matchlen")))
        yield MatchHeader(length, 0, self.tags(), self.path)
        comments: list[tuple[int, str]] = []
        comment = doc.get("comment")
        if isinstance(comment, str) and comment:
            comments.append((0, comment))
        games = [g for g in doc["games"] if isinstance(g, dict)]
        for index, game in enumerate(games):
            record = self.game(index, game, games, comments)
            if record is not None:
                yield record
        yield MatchEnd(tuple(self.errors), tuple(comments))

    def game(self, index: int, game: dict, games: list[dict], comments: list) -> GameRecord | None:
        scores = (_whole(game.get("scoreGreen")), _whole(game.get("scoreRed")))
        first_line = self.line + 1
        actions: list[Action] = []
        row = 0
        last_side: int | None = None
        cube = max(1, _whole(_dict(game.get("initial")).get("cube"), 1))
        entries = _list(game.get("moves"))
        pending_cube: StoredAnalysis | None = None
        position = 0
        while position < len(entries):
            entry = entries[position]
            position += 1
            self.line += 1
            if not isinstance(entry, dict):
                self.errors.append(self.fail(f"game {index + 1}: entry {position} is not a move: skipped"))
                continue
            side = 0 if entry.get("player") == -1 else 1

            def add(kind: ActionKind, who: int = side, **fields) -> None:
                nonlocal row, last_side
                if who == 0 or last_side != 0:
                    row += 1
                last_side = who
                actions.append(Action(self.line, 0, row, who, kind, **fields))

            decision = _dict(_dict(entry.get("equity")).get("cubeDecision"))
            judged = self.cube_analysis(decision, entry) if self.analysis else None
            comment = entry.get("comment")
            if isinstance(comment, str) and comment:
                comments.append((self.line, comment))
            starts = _list(entry.get("from")) or [-1]
            if entry.get("dancingEquity") is not None:
                rolled = (_whole(starts[0]), _whole((_list(entry.get("to")) or [0])[0]))
                add(ActionKind.DANCE, dice=self.dice(rolled), analysis=(judged,) if judged else ())
                continue
            if starts[0] == -1 and decision.get("hasDoubled") is not None:
                cube = turned(cube)   # BGBlitz writes that a double was made ("hasDoubled"), not its value
                add(ActionKind.DOUBLE, cube=cube, analysis=(judged,) if judged else ())
                answer = entries[position] if position < len(entries) and isinstance(entries[position], dict) else {}
                position += 1
                self.line += 1
                answered = decision.get("hasAccepted")
                add(ActionKind.TAKE if answered else ActionKind.DROP, 1 - side)
                if not answer:
                    self.errors.append(self.fail(f"game {index + 1}: a double with no answer entry after it"))
                continue
            if starts[0] == -1:
                continue   # the entry that closes the game
            if judged is not None:
                pending_cube = judged
            played = self.play_analysis(entry) if self.analysis else None
            analysis = tuple(a for a in (pending_cube, played) if a is not None)
            pending_cube = None
            text = _steps(entry)
            dice = self.dice((_whole(entry.get("green")), _whole(entry.get("red"))))
            add(ActionKind.MOVE if text else ActionKind.DANCE, dice=dice, play_text=text, raw=text, analysis=analysis)
        result = self.result(index, game, games, scores)
        if result is not None:
            side, points = result
            line = actions[-1].line if actions else self.line
            actions.append(Action(line, 0, None, side, ActionKind.WIN, points=points))
        return GameRecord(index + 1, self.players(), scores, tuple(actions), first_line)

    def dice(self, dice: tuple[int, int]) -> tuple[int, int] | None:
        if recorded_dice(*dice) is not None:
            return dice
        self.errors.append(self.fail(f"dice {dice[0]} and {dice[1]} are not two numbers from 1 to 6"))
        return None

    def result(self, index: int, game: dict, games: list[dict], scores: tuple[int, int]) -> tuple[int, int] | None:
        """Who won and how many points: BGBlitz keeps the points, not the
        winner, who is the one whose score the next game (or the match's
        final score) raised."""
        points = _whole(game.get("wonPoints"))
        if index + 1 < len(games):
            after = (_whole(games[index + 1].get("scoreGreen")), _whole(games[index + 1].get("scoreRed")))
        else:
            after = (_whole(self.doc.get("finalGreen")), _whole(self.doc.get("finalRed")))
        gains = (after[0] - scores[0], after[1] - scores[1])
        if gains[0] > 0 and gains[1] <= 0:
            side = 0
        elif gains[1] > 0 and gains[0] <= 0:
            side = 1
        else:
            return None   # the game has no result (unfinished)
        if points <= 0:
            points = gains[side]   # the last game of a file may not record its points
        return side, points

    def cube_analysis(self, decision: dict, entry: dict) -> StoredAnalysis | None:
        if not decision or decision.get("eqNoDouble") is None:
            return None
        level = f"{_whole(entry.get('ply'))}-ply"
        candidates = tuple(Evaluation(name, _number(decision.get(key)), (), level) for name, key in (
            (Line.NO_DOUBLE.word, "eqNoDouble"), (Line.DOUBLE_TAKE.word, "eqDoubleTake"),
            (Line.DOUBLE_PASS.word, "eqDoublePass")))
        doubled = decision.get("hasDoubled")
        chosen = 0 if not doubled else (1 if decision.get("hasAccepted") else 2)
        pr = _dict(entry.get("pr"))
        return StoredAnalysis("BGBlitz", DecisionKind.CUBE, _error(pr.get("cubeError")), candidates, chosen)

    def play_analysis(self, entry: dict) -> StoredAnalysis | None:
        found = _list(entry.get("moveAnalysis"))
        if not found:
            return None
        candidates: list[Evaluation] = []
        chosen = None
        for item in found:
            if not isinstance(item, dict) or not isinstance(item.get("move"), dict):
                continue
            eq = _dict(item.get("eq"))
            if item.get("played") and chosen is None:
                chosen = len(candidates)
            candidates.append(Evaluation(_steps(item["move"]), _number(eq.get("equity")), _probabilities(eq),
                                         f"{_whole(item.get('ply'))}-ply"))
        pr = _dict(entry.get("pr"))
        return StoredAnalysis("BGBlitz", DecisionKind.PLAY, _error(pr.get("checkerError")), tuple(candidates), chosen)


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: the parts of a .bgf file."""
    yield from _Builder(path, _document(handle, path)).parts()


def read_stream_bare(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader for a command that reads no stored analysis (the
    audit): :func:`read_stream`'s parts without BGBlitz's analysis (every
    Action's ``analysis`` empty), its values walked past, not decoded: about
    three times faster on an analysed match, where they are most of the document."""
    yield from _Builder(path, _document(handle, path, ANALYSIS_KEYS), analysis=False).parts()

