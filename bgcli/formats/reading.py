"""What the readers of text files share: the one place where a file's bytes
become text, and reading a stream with a bound.

Programs write match files in the encodings of their day and place: UTF-8
(with or without a byte order mark: XG writes one), UTF-16 with a byte order
mark, little- or big-endian (Windows programs' "Unicode" text: XG's and
Snowie's text exports, Notepad; UTF-32 too, which an editor or a script may
be told to write), and the legacy encodings of Windows before
Unicode: Windows-1252 for names with accents, and the double-byte encodings
of Korean and Japanese clubs (EUC-KR and its Windows extension cp949,
Shift-JIS and its Windows extension cp932). Every reader of text asks this
module (:func:`text_lines` for a stream read line by line, :func:`decode`
for a file read whole, :func:`head_text` for the bytes a format is
recognised from); a file that is text in none of them is one error naming
the file, its line and the byte offset (:func:`undecodable`).

A line ends at a LF, a CR LF, or a CR alone: programs of classic Mac OS
(before OS X) end every line with a lone CR (:data:`LINE_END`, the rule;
:func:`text_lines` keeps it while reading a stream in blocks). A Ctrl-Z after
the last line (DOS's end-of-file mark) is not text, nor are NUL bytes padding
the file after it. A form feed among a line's leading blanks is a page break,
white space (:func:`page_breaks_as_blanks`, for the readers of lines).
"""
from __future__ import annotations

import codecs
import re
import unicodedata
from typing import IO, Iterator

from bgcli.errors import MatchFileError

WHOLE_LIMIT = 256 << 20   # a file read whole (SGF, JSON) is no bigger than this
LINE_LIMIT = 1 << 20      # no line of a text file is longer: a longer one is not a match file
GZIP_MAGIC = b"\x1f\x8b"   # the first two bytes of every gzip stream (RFC 1952)

# byte order marks, longest first: UTF-32's little-endian mark begins with UTF-16's (a file saved as UTF-32, by
# an editor's or a script's choice, is read as its text: it was "binary data")
_MARKS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
          (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
# The legacy encodings tried on a line that is not UTF-8, in this order when
# they fit it equally well; each is the Windows superset of a standard.
LEGACY = ("cp1252", "cp949", "cp932")
# the standard each extends: a character outside it (a rare Hangul syllable only
# Windows added) is what another encoding's bytes look like when read in it
_STANDARD = {"cp949": "euc_kr", "cp932": "shift_jis"}
# The one rule of where a line ends: LF (Unix), CR LF (Windows), CR alone (classic Mac OS).
LINE_END = re.compile(r"\r\n?|\n")
# text_lines' fenced copy of LINE_END for bytes read in blocks: a CR with a byte after it that is no LF
# becomes a LF, byte for byte (so offsets stay the file's); a CR at a block's end waits for the next byte.
# tests/test_encodings.py::test_text_lines_ends_lines_as_the_rule_does compares the two.
_LONE_CR = re.compile(rb"\r(?=[^\n])")
# What may pad a text file after its last line, and is no text: Ctrl-Z, which DOS's programs write there, and
# NUL bytes (a save or a download cut short, a disk image's slack); a NUL with text after it is the text's
_END_OF_FILE = b"\x1a\0"
ENCODINGS = "UTF-8, UTF-16, UTF-32, Windows-1252, EUC-KR (cp949), Shift-JIS (cp932)"


# A form feed among the blanks a line starts with is a page break (a printed or paginated export starts each
# page with one, before 'Game N' or on a line alone): white space, as gnubg's import reads it.
_PAGE_BREAK = "\f"
_LEADING_BLANKS = " \t\f"


def page_breaks_as_blanks(line: str) -> str:
    """``line`` with each form feed among its leading blanks (a page break) a
    blank, so that it reads as the line the page starts with and its columns
    stay the file's; a form feed after the line's first other character is text."""
    if _PAGE_BREAK not in line:
        return line
    text = line.lstrip(_LEADING_BLANKS)
    head = len(line) - len(text)
    return line[:head].replace(_PAGE_BREAK, " ") + text


# A tab moves to the next tab stop, every 8 columns (a terminal's, `expand`'s and the editors' default): a text
# file an editor saved with its runs of blanks turned into tabs shows its cells in the columns they had
TAB_STOP = 8


def tabs_as_columns(line: str) -> str:
    """``line`` with each tab the blanks up to the next tab stop, so that its
    cells stand in the columns an editor shows (the .mat reader tells whose a
    lone cell is by its column)."""
    return line.expandtabs(TAB_STOP) if "\t" in line else line


# what may come before a file's first text and says nothing of its format: blank lines, blanks and page
# breaks (a paginated export, a printer's file starts with a form feed), as head_start skips them
_LEADING_SPACE = (_LEADING_BLANKS + "\r\n").encode("ascii")


def head_start(head: bytes) -> bytes:
    """The first bytes of a file (UTF-8, as :func:`head_text` gives them) from
    its first text on: a byte order mark, then blank lines, blanks and form
    feeds (page breaks) skipped, so that a format is recognised by what it
    begins with."""
    if head.startswith(codecs.BOM_UTF8):
        head = head[len(codecs.BOM_UTF8):]
    return head.lstrip(_LEADING_SPACE)


def unicode_encoding(head: bytes) -> tuple[str, int] | None:
    """The Unicode encoding the first bytes of a file say (a byte order mark,
    and its length), or UTF-32 or UTF-16 without a mark when the text is mostly
    ASCII with three NUL bytes, or one, beside each character (mark length 0);
    None otherwise."""
    for mark, name in _MARKS:
        if head.startswith(mark):
            return name, len(mark)
    # every file's head comes here: its NULs, counted once (in C), rule out what they cannot be (a UTF-32
    # guess needs three NULs beside 7 characters in 8, a UTF-16 one one), so ordinary text pays one count
    nuls_in_head = head.count(0)
    quads = len(head) // 4
    if quads >= 2 and nuls_in_head * 8 >= quads * 21:   # UTF-32 first: its ASCII has NULs beside the characters that UTF-16 would read as characters
        cells = [head[i:4 * quads:4] for i in range(4)]
        for chars, nuls, name in ((cells[0], cells[1:], "utf-32-le"), (cells[3], cells[:3], "utf-32-be")):
            if b"\0" in chars or any(cell.count(0) * 8 < quads * 7 for cell in nuls):
                continue
            either = int.from_bytes(nuls[0], "little") | int.from_bytes(nuls[1], "little") | int.from_bytes(nuls[2], "little")
            plain = either.to_bytes(quads, "little").count(0)   # the places where all three are NUL
            if plain * 8 >= quads * 7 and not _controls(chars):
                return name, 0
    pairs = len(head) // 2
    if pairs >= 2 and nuls_in_head * 8 >= pairs * 7:
        even, odd = head[0:2 * pairs:2], head[1:2 * pairs:2]
        for zeros, chars, name in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
            if b"\0" not in chars and zeros.count(0) * 8 >= pairs * 7:
                return name, 0
    return None


def _controls(chars: bytes) -> bool:
    """Whether the characters of an unmarked UTF-32 guess hold controls other than blanks (a table of small
    numbers in a binary file has NULs beside its bytes too)."""
    return bool(chars.translate(None, bytes(range(32, 256)) + b"\t\n\f\r"))


def head_text(head: bytes) -> bytes:
    """The first bytes of a file as UTF-8, what a format is recognised from:
    a UTF-16 head decoded (a character cut at its end dropped); any other head
    as it is (a UTF-8 byte order mark is skipped by whoever looks at it)."""
    found = unicode_encoding(head)
    if found is None or found[0] == "utf-8":
        return head
    name, mark = found
    return codecs.getincrementaldecoder(name)("ignore").decode(head[mark:]).encode("utf-8")


def _misfits(text: str, encoding: str) -> int:
    """How unlike a name or a word ``text`` (``encoding``'s reading of a line)
    is: Western accents stand alone between ASCII letters (runs of them, and
    signs such as ``’“ƒ‰`` between letters, are the double bytes of Korean
    or Japanese read as Windows-1252); half-width
    katakana, C1 controls and private-use characters are Korean bytes read as
    Shift-JIS; a character outside the standard that a Windows encoding
    extends is the other's bytes read in it."""
    standard = _STANDARD.get(encoding)
    count = run = 0
    for char in text:
        if char < "\x80":
            run = 0
            continue
        run += 1
        code = ord(char)
        if code <= 0x9F or 0xFF61 <= code <= 0xFF9F or 0xE000 <= code <= 0xF8FF:
            count += 2
        elif standard is not None:
            try:   # one character, two bytes (Python's EUC-KR spells a syllable outside it as 8 bytes of jamo)
                outside = len(char.encode(standard)) > 2
            except UnicodeEncodeError:
                outside = True
            count += 2 * outside
        elif run > 1 or char == "\u0192" or not unicodedata.category(char).startswith("L"):
            count += 1   # a run, a florin, a typographic sign between letters: Shift-JIS's second bytes are ASCII
    return count


class Decoder:
    """Lines of one file into text: UTF-8, else the legacy encoding that
    reads the line most like text (the one the file's earlier lines were read
    in when it fits as well); a line no encoding reads is :func:`undecodable`."""

    def __init__(self, path: str = "-"):
        self.path = path
        self.legacy: str | None = None

    def line(self, raw: bytes, number: int, offset: int) -> str:
        """The text of line ``number``, which starts at byte ``offset`` of the file."""
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            furthest = exc.start
        best: tuple[tuple[int, int, int], str, str] | None = None
        for index, name in enumerate(LEGACY):
            try:
                text = raw.decode(name)
            except UnicodeDecodeError as exc:
                furthest = max(furthest, exc.start)
                continue
            key = (_misfits(text, name), name != self.legacy, index)
            if best is None or key < best[0]:
                best = (key, name, text)
        if best is None:
            raise undecodable(self.path, number, offset + furthest)
        self.legacy = best[1]
        return best[2]


def undecodable(path: str, number: int, offset: int) -> MatchFileError:
    return MatchFileError(f"the byte at offset {offset} is not text in any encoding bgcli reads ({ENCODINGS})",
                          path, number, 0)


def text_of(raw: bytes) -> str:
    """A piece of text kept inside a binary file (XG's comments): read as a
    file's line is, else, where no encoding reads it, as Latin-1 (nothing is lost)."""
    try:
        return Decoder().line(raw, 1, 0)
    except MatchFileError:
        return raw.decode("latin-1")


def decode(raw: bytes, path: str = "-") -> str:
    """A whole file's text, without its byte order mark: the lines of
    :func:`text_lines` (no bound on a line's length), joined by the line ends
    they had (the last one dropped)."""
    return "\n".join(text_lines(_Bytes(raw), path, max(len(raw), 4), len(raw) + 1))


class _Bytes:
    def __init__(self, raw: bytes):
        self.raw, self.at = raw, 0

    def read(self, size: int) -> bytes:
        piece = self.raw[self.at:self.at + size]
        self.at += len(piece)
        return piece


def editable_text(data: bytes) -> tuple[str, str]:
    """A file's text for a program that edits its lines and writes it back
    (``bgcli repair``), and the codec that writes it back as it was: a UTF-16
    file's text (its byte order mark kept as U+FEFF); any other file as UTF-8,
    each byte that is not UTF-8 kept as itself (``surrogateescape``), so that
    the lines an edit does not touch come back byte for byte, in whatever
    legacy encoding they were."""
    found = unicode_encoding(data[:4096])
    codec = found[0] if found is not None and found[0] != "utf-8" else "utf-8"
    return data.decode(codec, "surrogateescape"), codec


def edited_bytes(text: str, codec: str) -> bytes:
    """The bytes of an edited :func:`editable_text`."""
    return text.encode(codec, "surrogateescape")


def _transcoded(read, encoding: str, skip: int, first: bytes, path: str) -> Iterator[bytes]:
    """The blocks of a UTF-16 or UTF-32 stream as UTF-8 (its byte order mark skipped);
    bytes that are not of it (half a surrogate pair) are :func:`undecodable`."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    done, lines = skip, 0
    data = first[skip:]
    while True:
        final = not data
        buffered = len(decoder.getstate()[0])
        try:
            text = decoder.decode(data, final=final)
        except UnicodeDecodeError as exc:
            raise undecodable(path, lines + 1, done - buffered + exc.start) from None
        done += len(data)
        if text:
            lines += text.count("\n")
            yield text.encode("utf-8")
        if final:
            return
        data = read(1 << 16)


def text_lines(handle: IO[bytes] | _Bytes, path: str = "-", block: int = 1 << 16,
               limit: int | None = None) -> Iterator[str]:
    """The lines of a text stream, without their ``\\n`` (a ``\\r`` before it
    is kept; a lone ``\\r`` ends a line as ``\\n`` does), its byte order mark skipped: each read with a bound (a line
    longer than ``limit``, ``/dev/zero`` or a binary file, is a MatchFileError,
    not a MemoryError), and decoded by a :class:`Decoder`. Read in blocks, not
    line by line, for speed: each block's whole lines are decoded at once when
    they are UTF-8 (as each line then is), else one by one."""
    limit = LINE_LIMIT if limit is None else limit
    read = getattr(handle, "read1", handle.read)
    first = b""
    while len(first) < 4:   # enough to see a byte order mark, even from a pipe that gives a byte at a time
        data = read(block)
        if not data:
            break
        first += data
    found = unicode_encoding(first[:4096])
    blocks: Iterator[bytes]
    if found is not None and found[0] != "utf-8":
        blocks = _transcoded(read, found[0], found[1], first, path)   # UTF-8 from here on: every line decodes
    else:
        blocks = _blocks(read, block, first[3:] if found is not None else first)
    decoder = Decoder(path)
    number = 0
    offset = 3 if found is not None else 0   # of ``rest`` in the file (in a UTF-8 file: in UTF-16 nothing fails)
    rest = b""
    for data in blocks:
        rest += data
        if b"\r" in rest:
            rest = _LONE_CR.sub(b"\n", rest)
        end = rest.rfind(b"\n") + 1
        if not end:
            if len(rest) > limit:
                raise _too_long(path, number + 1)
            continue
        chunk, rest = rest[:end - 1], rest[end:]
        if len(chunk) < limit:   # no line in it is longer than the bound
            try:
                lines = chunk.decode("utf-8").split("\n")
            except UnicodeDecodeError:
                for raw in chunk.split(b"\n"):
                    number += 1
                    yield decoder.line(raw, number, offset)
                    offset += len(raw) + 1
                continue
            number += len(lines)
            offset += end
            yield from lines
            continue
        for raw in chunk.split(b"\n"):
            number += 1
            if len(raw) >= limit:
                raise _too_long(path, number)
            yield decoder.line(raw, number, offset)
            offset += len(raw) + 1
    # DOS's end-of-file mark: programs and copies of the DOS era end a text file with a Ctrl-Z (CP/M's padding:
    # a run of them); NULs pad a file saved or downloaded badly; neither is a line of the text, as gnubg's import
    # reads it
    rest = rest.rstrip(_END_OF_FILE)
    if rest.endswith(b"\r"):   # a lone CR at the very end ends the last line, as a LF there does
        rest = rest[:-1]
        if not rest:
            yield ""
            return
        if len(rest) >= limit:   # with its end the line is past the bound, as a line ended by a LF is above
            raise _too_long(path, number + 1)
    if rest:
        if len(rest) > limit:
            raise _too_long(path, number + 1)
        yield decoder.line(rest, number + 1, offset)


def _blocks(read, block: int, first: bytes) -> Iterator[bytes]:
    if first:
        yield first
    while True:
        data = read(block)
        if not data:
            return
        yield data


def _too_long(path: str, number: int) -> MatchFileError:
    return MatchFileError(f"line {number} is longer than {LINE_LIMIT // (1 << 20)} MB: this is not a match file",
                          path, number, 1)


def read_whole(handle: IO[bytes], path: str, what: str, limit: int = WHOLE_LIMIT) -> bytes:
    """All of ``handle``, refused past ``limit`` bytes."""
    raw = handle.read(limit + 1)
    if len(raw) > limit:
        raise MatchFileError(f"the file is larger than {limit >> 20} MB, more than bgcli reads as {what}", path, 1, 1)
    return raw


def a_position(kind: str) -> str:
    """What the readers and the walk of a folder say of a file that holds a
    position of ``kind`` (named for a message) instead of a match; FILE
    stands for the file's name where a command names it."""
    return f"a position ({kind}): `bgcli show FILE` draws it"
