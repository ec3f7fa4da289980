"""A match equity table as figures, and the two files it is read from and written to.

:class:`MatchEquityTable` holds a table at its published size and answers any
score: past that size it extends the table the way GNU Backgammon extends the
tables it reads (:func:`extended_mwc`, :func:`extended_post_crawford`), so
bgcli and gnubg agree at every score. The registry of known tables and the
match arithmetic are :mod:`bgcli.engines.met`'s; this module knows figures and
files only.

Two file forms, read from untrusted input (a wrong file is a one-line
:class:`~bgcli.errors.MatchEquityTableError` naming the file and the line):

- **GNU Backgammon's XML** (the files of its ``met`` folder): ``<met>`` with
  ``<info>`` (``<name>``, ``<description>``, ``<length>``), a
  ``<pre-crawford-table type="explicit">`` of ``<row>`` s of ``<me>`` values,
  and a ``<post-crawford-table type="explicit" player="both">`` of one row.
  Row ``i``, column ``j`` (from 1) is the chance of winning the match of the
  player ``i``-away against ``j``-away (1-away: the Crawford game); the
  post-Crawford row's ``n``-th value is the chance of the trailer ``n``-away
  against the leader 1-away after the Crawford game. gnubg's formula tables
  (``type="zadeh"``, ``"mec"``) are refused: give their figures. Read with the
  standard library's expat, which is never asked to resolve an entity: a
  document type with its own declarations (an internal subset) is refused, so
  no entity can expand.
- **CSV**: the same table as lines of comma-separated numbers, row ``i`` the
  player ``i``-away against columns 1-away, 2-away...; then one line starting
  with the word ``post-crawford`` and the post-Crawford row. A number is a
  chance from 0 to 1 (``0.677``) or a percentage (``67.7%``). Blank lines and
  lines starting with ``#`` are skipped.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Sequence
from xml.parsers import expat

from bgcli.core.rules import one_away_left
from bgcli.errors import MatchEquityTableError
from bgcli.output import quote

MAX_SIZE = 64          # GNU Backgammon's largest table (MAXSCORE): a larger file is refused
MAX_FILE_BYTES = 4 << 20
PAIR_SLACK = 0.011     # i-away v j-away and j-away v i-away add up to 1, within rounding to two places

# The extension's standard deviation of one game's points for a player n-away, n = 1..10 (1.77 beyond):
# the figures GNU Backgammon extends its tables with (its matchequity.c, after Kit Woolsey's normal
# approximation of a match as a sum of games)
_STDDEV = (1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72)
_FAR_STDDEV = 1.77
# gnubg's post-Crawford extension: the trailer doubles at once; a gammon for the trailer wins 4 points
POST_GAMMON_RATE = 0.25
FREE_DROP_2_AWAY = 0.015
FREE_DROP_4_AWAY = 0.004


def extended_mwc(away: int, opponent_away: int) -> float:
    """The chance of winning of the player ``away`` against ``opponent_away`` by gnubg's extension: the
    match a sum of games whose points are normal, with a standard deviation per game for each side's
    distance (``_STDDEV``), over (away + opponent_away) / 2 games."""
    sigma = math.hypot(_stddev(away), _stddev(opponent_away)) * math.sqrt((away + opponent_away) / 2.0)
    return 0.5 * math.erfc((away - opponent_away) / (sigma * math.sqrt(2.0)))


def _stddev(away: int) -> float:
    return _STDDEV[away - 1] if away <= len(_STDDEV) else _FAR_STDDEV


def extended_post_crawford(known: Sequence[float], size: int) -> list[float]:
    """The post-Crawford row (the trailer's chance, 1-away first) to ``size``, continued past ``known`` as
    gnubg continues it: the trailer doubles at once, so n-away is the average of (n-2)-away (a single game
    won) and, a quarter of the time, (n-4)-away (a gammon), less the free drop at 2-away and 4-away."""
    row = list(known[:size])
    for i in range(len(row), size):
        two = row[i - 2] if i >= 2 else 1.0
        four = row[i - 4] if i >= 4 else 1.0
        value = POST_GAMMON_RATE * 0.5 * four + (1.0 - POST_GAMMON_RATE) * 0.5 * two
        value -= FREE_DROP_2_AWAY if i == 1 else FREE_DROP_4_AWAY if i == 3 else 0.0
        row.append(value)
    return row


@dataclass(frozen=True)
class MatchEquityTable:
    """A match equity table at its published size. ``pre[i][j]``: the chance of winning of the player
    ``i+1``-away against ``j+1``-away before a game (the Crawford game at 1-away); ``post[n]``: the trailer's
    chance ``n+1``-away against the leader 1-away after the Crawford game. ``source`` says where the figures
    were published; ``path`` is the file a user's table was read from."""

    name: str
    pre: tuple[tuple[float, ...], ...]
    post: tuple[float, ...]
    source: str = ""
    path: str | None = None

    @property
    def size(self) -> int:
        """The published size: the longest match the figures cover without extension."""
        return len(self.pre)

    def pre_crawford(self, away: int, opponent_away: int) -> float:
        """The chance of winning before a game (not post-Crawford) at this score, both 1 or more away."""
        if away <= self.size and opponent_away <= self.size:
            return self.pre[away - 1][opponent_away - 1]
        return extended_mwc(away, opponent_away)

    def post_crawford(self, trailer_away: int) -> float:
        """The trailer's chance of winning ``trailer_away`` against 1-away after the Crawford game."""
        if trailer_away <= len(self.post):
            return self.post[trailer_away - 1]
        return extended_post_crawford(self.post, trailer_away)[-1]

    def mwc(self, away: int, opponent_away: int, post_crawford: bool) -> float:
        """The chance of winning the match before a game at this score; ``post_crawford`` says that a score
        with a side 1-away is after the Crawford game (else it is the Crawford game). 0 away or less is won."""
        if away <= 0:
            return 1.0
        if opponent_away <= 0:
            return 0.0
        if post_crawford and one_away_left((away, opponent_away)):
            return 1.0 - self.post_crawford(opponent_away) if away == 1 else self.post_crawford(away)
        return self.pre_crawford(away, opponent_away)

    def digest(self) -> str:
        """A short fingerprint of the figures (not the name): two tables with the same figures have the same."""
        import hashlib

        return hashlib.sha256(repr((self.pre, self.post)).encode()).hexdigest()[:16]

    def extended(self, size: int) -> "MatchEquityTable":
        """The same table with its figures written out to ``size`` (the extension past its own size)."""
        pre = tuple(tuple(self.pre_crawford(i, j) for j in range(1, size + 1)) for i in range(1, size + 1))
        post = tuple(self.post_crawford(n) for n in range(1, size + 1))
        return MatchEquityTable(self.name, pre, post, self.source, self.path)


def checked(name: str, pre: list[list[float]], post: list[float], where: list[list[tuple[int, int]]],
            post_where: list[tuple[int, int]], path: str, source: str = "") -> MatchEquityTable:
    """A table from figures read from ``path``, each with its (line, column) in ``where``: refused with the
    place of the first figure that cannot be a match equity table's."""

    def fail(place: tuple[int, int], message: str):
        raise MatchEquityTableError(message, path, *place)

    size = len(pre)
    if not size:
        raise MatchEquityTableError("no pre-Crawford table (rows of chances of winning)", path)
    if size > MAX_SIZE:
        fail(where[MAX_SIZE][0], f"a table of more than {MAX_SIZE} rows (the longest gnubg reads)")
    for i, row in enumerate(pre):
        if len(row) != size:
            fail(where[i][0] if where[i] else (0, 0),
                 f"row {i + 1} has {len(row)} values, not {size} (the table is square: one column per row)")
    if not post:
        raise MatchEquityTableError("no post-Crawford row (the trailer's chances against 1-away)", path)
    if len(post) > MAX_SIZE:
        fail(post_where[MAX_SIZE], f"a post-Crawford row of more than {MAX_SIZE} values")
    for i, row in enumerate(pre):
        for j, value in enumerate(row):
            if not 0.0 <= value <= 1.0:
                fail(where[i][j], f"{value:g} at {i + 1}-away v {j + 1}-away is not a chance from 0 to 1")
            if i < j and value < 0.5:
                fail(where[i][j], f"{value:g} at {i + 1}-away v {j + 1}-away: the side nearer to winning has less "
                                  f"than half (row i is the player i-away, column j the opponent j-away)")
            if i < j and abs(value + pre[j][i] - 1.0) > PAIR_SLACK:
                fail(where[j][i], f"{pre[j][i]:g} at {j + 1}-away v {i + 1}-away and {value:g} at {i + 1}-away v "
                                  f"{j + 1}-away do not add up to 1")
    for n, value in enumerate(post):
        if not 0.0 <= value <= 1.0 or (n and value > 0.5):
            fail(post_where[n], f"{value:g} post-Crawford at {n + 1}-away v 1-away is not the trailer's chance (0 to 0.5)")
    return MatchEquityTable(name, tuple(tuple(row) for row in pre), tuple(post), source, path)


# --- reading ------------------------------------------------------------------------------------------


def read_table(path: str, data: bytes | None = None) -> MatchEquityTable:
    """The table in the file ``path`` (gnubg's XML, or CSV), told apart by its first character (``<``)."""
    if data is None:
        from bgcli.errors import FileReadError

        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise FileReadError(path, exc) from None
    if len(data) > MAX_FILE_BYTES:
        raise MatchEquityTableError(f"larger than {MAX_FILE_BYTES >> 20} MB: not a match equity table", path)
    if data.lstrip()[:1] == b"<":
        return read_xml(data, path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise MatchEquityTableError("not UTF-8 text", path, line) from None
    return read_csv(text, path)


def _number(text: str, path: str, place: tuple[int, int]) -> float:
    word = text.strip()
    scale = 1.0
    if word.endswith("%"):
        word, scale = word[:-1].strip(), 0.01
    try:
        value = float(word) * scale
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or len(word) > 40:
        shown = text.strip()
        raise MatchEquityTableError(f"{shown[:40]!r} is not a number", path, *place)
    return value


def read_csv(text: str, path: str) -> MatchEquityTable:
    """A table from CSV text (the layout of the module's docstring); its name is the file's."""
    pre: list[list[float]] = []
    where: list[list[tuple[int, int]]] = []
    post: list[float] = []
    post_where: list[tuple[int, int]] = []
    seen_post = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if seen_post:
            raise MatchEquityTableError("a line after the post-Crawford row", path, number)
        fields = stripped.split(",")
        head = fields[0].strip().lower()
        if head in ("post-crawford", "post crawford", "postcrawford"):
            seen_post = True
            fields = fields[1:]
            start = 2
        else:
            start = 1
        if len(pre) >= MAX_SIZE and not seen_post:
            raise MatchEquityTableError(f"a table of more than {MAX_SIZE} rows (the longest gnubg reads)", path, number)
        values = []
        places = []
        for column, field in enumerate(fields, start):
            if column > MAX_SIZE + 1:
                raise MatchEquityTableError(f"more than {MAX_SIZE} values on a line", path, number, column)
            places.append((number, column))
            values.append(_number(field, path, (number, column)))
        if seen_post:
            post, post_where = values, places
        else:
            pre.append(values)
            where.append(places)
    if not seen_post and pre:
        raise MatchEquityTableError("no post-Crawford row: a last line 'post-crawford, 0.5, ...' "
                                    "(the trailer's chances against 1-away)", path)
    name = path.rsplit("/", 1)[-1].rsplit(".", 1)[0] if path not in ("", "-") else "table"
    return checked(name, pre, post, where, post_where, path)


class _Node:
    __slots__ = ("tag", "attrs", "line", "text", "children")

    def __init__(self, tag: str, attrs: dict, line: int):
        self.tag, self.attrs, self.line = tag, attrs, line
        self.text: list[str] = []
        self.children: list[_Node] = []

    def value(self) -> str:
        return "".join(self.text).strip()

    def kids(self, tag: str) -> list["_Node"]:
        return [child for child in self.children if child.tag == tag]


def _parse_xml(data: bytes, path: str) -> _Node:
    parser = expat.ParserCreate()
    root = _Node("", {}, 0)
    stack = [root]

    def refuse_subset(name, system_id, public_id, has_internal_subset):
        if has_internal_subset:
            raise MatchEquityTableError("a document type with its own declarations (entities are not read)", path,
                                        parser.CurrentLineNumber)

    def refuse_entity(*_args):
        raise MatchEquityTableError("an entity declaration (entities are not read)", path, parser.CurrentLineNumber)

    def start(tag, attrs):
        if len(stack) > 8:
            raise MatchEquityTableError(f"<{tag}> nested deeper than a table's elements go", path, parser.CurrentLineNumber)
        node = _Node(tag, attrs, parser.CurrentLineNumber)
        stack[-1].children.append(node)
        stack.append(node)

    def end(tag):
        stack.pop()

    def text(chunk):
        stack[-1].text.append(chunk)

    parser.StartDoctypeDeclHandler = refuse_subset
    parser.EntityDeclHandler = refuse_entity
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise MatchEquityTableError(f"not well-formed XML ({expat.ErrorString(exc.code)})", path, exc.lineno,
                                    exc.offset + 1) from None
    except MatchEquityTableError:
        raise
    except (LookupError, ValueError):
        # the encoding the XML declaration names: one Python does not know (LookupError, 'UTF-0'), not a text
        # encoding ('rot13'), or one expat cannot decode ('shift_jis', ValueError): was an internal error
        declared = re.match(rb'<\?xml[^>]*?encoding\s*=\s*["\']([^"\'>]*)', data.lstrip(b"\xef\xbb\xbf"))
        name = declared.group(1).decode("latin-1") if declared else "?"
        raise MatchEquityTableError(f"the XML declares the encoding {quote(name)}, which bgcli cannot read a table "
                                    "in (UTF-8, UTF-16 or a one-byte encoding)", path, parser.CurrentLineNumber or 1) from None
    return root


def read_xml(data: bytes, path: str) -> MatchEquityTable:
    """A table from GNU Backgammon's XML (the layout of the module's docstring)."""
    root = _parse_xml(data, path)
    tops = root.children
    if len(tops) != 1 or tops[0].tag != "met":
        raise MatchEquityTableError("not a match equity table: the document is not one <met> element", path,
                                    tops[0].line if tops else 0)
    met = tops[0]
    info = met.kids("info")
    names = info[0].kids("name") if info else []
    descriptions = info[0].kids("description") if info else []
    name = names[0].value() if names and names[0].value() else path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    source = descriptions[0].value() if descriptions else ""

    pres = met.kids("pre-crawford-table")
    if len(pres) != 1:
        raise MatchEquityTableError(f"{len(pres)} <pre-crawford-table> elements, not one", path, met.line)
    _explicit(pres[0], path)
    pre, where = [], []
    for row in pres[0].kids("row"):
        values, places = _row(row, path)
        pre.append(values)
        where.append(places)
        if len(pre) > MAX_SIZE:
            break
    posts = met.kids("post-crawford-table")
    if not posts:
        raise MatchEquityTableError("no <post-crawford-table>", path, met.line)
    found: list[tuple[list[float], list[tuple[int, int]], int]] = []
    for table in posts:
        _explicit(table, path)
        player = table.attrs.get("player", "both")
        if player not in ("both", "0", "1"):
            raise MatchEquityTableError(f"player={player!r}: expected both, 0 or 1", path, table.line)
        rows = table.kids("row")
        if len(rows) != 1:
            raise MatchEquityTableError(f"a <post-crawford-table> of {len(rows)} rows, not one", path, table.line)
        values, places = _row(rows[0], path)
        found.append((values, places, table.line))
    post, post_where, _ = found[0]
    for values, _, line in found[1:]:
        if values != post:
            raise MatchEquityTableError("post-Crawford rows that differ by player: bgcli reads a table that is the "
                                        "same for both players", path, line)
    return checked(name, pre, post, where, post_where, path, source)


def _explicit(table: _Node, path: str) -> None:
    kind = table.attrs.get("type", "explicit")
    if kind != "explicit":
        raise MatchEquityTableError(f"a <{table.tag}> of type {kind!r}: a formula gnubg computes; bgcli reads "
                                    f"tables of figures (type=\"explicit\")", path, table.line)


def _row(row: _Node, path: str) -> tuple[list[float], list[tuple[int, int]]]:
    values, places = [], []
    for me in row.kids("me")[:MAX_SIZE + 1]:
        places.append((me.line, 0))
        values.append(_number(me.value(), path, (me.line, 0)))
    return values, places


# --- writing ------------------------------------------------------------------------------------------


def to_csv(table: MatchEquityTable) -> str:
    """The table as CSV (read back by :func:`read_csv` to the same figures)."""
    lines = [f"# {table.name}"] + ([f"# {table.source}"] if table.source else [])
    lines += [",".join(repr(v) for v in row) for row in table.pre]
    lines.append("post-crawford," + ",".join(repr(v) for v in table.post))
    return "\n".join(lines) + "\n"


def to_xml(table: MatchEquityTable) -> str:
    """The table in GNU Backgammon's XML (what ``set matchequitytable FILE`` reads; :func:`read_xml` reads it
    back to the same figures)."""
    from xml.sax.saxutils import escape

    def row(values) -> list[str]:
        return ["    <row>"] + [f"      <me>{v!r}</me>" for v in values] + ["    </row>"]

    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<met>", "  <info>", f"    <name>{escape(table.name)}</name>",
             f"    <description>{escape(table.source)}</description>", f"    <length>{table.size}</length>", "  </info>",
             '  <pre-crawford-table type="explicit">']
    for values in table.pre:
        lines += row(values)
    lines += ["  </pre-crawford-table>", '  <post-crawford-table type="explicit" player="both">']
    lines += row(table.post)
    lines += ["  </post-crawford-table>", "</met>"]
    return "\n".join(lines) + "\n"
