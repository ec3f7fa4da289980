"""Files that hold one position, not a match: Snowie's text position (one
line of 40 fields, :mod:`bgcli.formats.snowietxt`) and the text a program
exports of a position (eXtreme Gammon's and BGBlitz's: a board drawing with
its XGID, in any language; or an ID alone), read as a position written out
is (:func:`bgcli.core.ids.parse_position`). (GNU Backgammon's ``save
position``, an SGF file of one game set up, is the SGF reader's:
:func:`bgcli.formats.sgf.read_position`.) ``show``, ``analyze`` and the
other commands of a position read them (:func:`read`); the walk of a folder
and the reading of a match file say that such a file is a position
(:func:`kind`), so that it is not taken for a damaged match.
"""
from __future__ import annotations

from bgcli.core.ids import meant_as_position, parse_position, position_kind, position_kind_name
from bgcli.core.state import GameState
from bgcli.errors import FileReadError, InvalidPositionError, MatchFileError, NotThisFormatError
from bgcli.formats import snowietxt
from bgcli.formats.reading import a_position, decode, read_whole

_LIMIT = 1 << 20   # a position's text is a few kilobytes at most: a file of a megabyte is not one


def kind(text: str) -> str | None:
    """What position ``text`` (a file's text, or its head) holds, named for a
    message ("an xgid", "Snowie's text position"), or None when it is none."""
    if snowietxt.looks_like(text):
        return "Snowie's text position"
    try:
        return position_kind_name(position_kind(text))
    except (InvalidPositionError, MatchFileError, ValueError):
        return None


def read(path: str) -> GameState:
    """The position a position file holds (Snowie's, or a position written
    out: an XG or BGBlitz text export, an ID)."""
    try:
        with open(path, "rb") as handle:
            text = decode(read_whole(handle, path, "a position", _LIMIT), path)
    except OSError as exc:
        raise FileReadError(path, exc) from None
    if snowietxt.looks_like(text) or ";" in text.partition("\n")[0]:
        return snowietxt.parse(text, path)   # a Snowie line, or its error naming the field
    try:
        return parse_position(text)
    except InvalidPositionError as exc:
        # a position meant (an ID, an XGID, a FIBS board) with a field wrong: a position read and found bad
        # (exit 1), as a Snowie line's bad field, above; no position meant in the text: a file of another kind
        # given (exit 2)
        if meant_as_position(text):
            raise MatchFileError(str(exc), path, 1, 1) from None
        raise NotThisFormatError(f"not a position file: {exc}", path, 1, 1) from None


def not_a_match(text: str) -> str | None:
    """What the walk of a folder and a match reader say of a file that holds
    a position, or None when ``text`` holds none."""
    found = kind(text)
    return None if found is None else a_position(found)
