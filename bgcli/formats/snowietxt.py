"""Snowie's text position files (``.txt``; GNU Backgammon's ``import
snowietxt``): one position, read as a :class:`~bgcli.core.state.GameState`.

The file is one line of 40 fields separated by semicolons, read as gnubg
reads them (import.c, ``ParseSnowieTxt``; ``tests/test_snowietxt.py`` holds
bgcli's reading of each sample to gnubg's Position and Match IDs of it):

====  ==========================================================
0     the match length (0: money)
1     1 when the Jacoby rule is in force
2, 3  unknown (gnubg passes over them)
4     the player on roll, 0 or 1
5, 6  the names of the player on roll and of the other
7     1 in the Crawford game
8, 9  the scores of the player on roll and of the other
10    the cube's value
11    its owner: 1 the player on roll, -1 the other, 0 centred
12    the other player's checkers on the bar
13-36 the points 1 to 24 as the player on roll numbers them: the
      number of checkers, positive for the player on roll's,
      negative for the other's
37    the player on roll's checkers on the bar
38-39 the dice (0 0: not rolled)
====  ==========================================================

gnubg's own comment on the format has the bars the other way round (12 the
player on roll's); its code, which is the reading every gnubg user has had,
reads them as above, and so does bgcli.
"""
from __future__ import annotations

from typing import Any

from bgcli.errors import FileReadError, InvalidPositionError, MatchFileError
from bgcli.formats.reading import decode, read_whole

FIELDS = 40
_LIMIT = 1 << 20   # a position line is a few hundred bytes: a file of a megabyte is not one
_NUMBERS = [0, 1, 2, 3, 4, 7, 8, 9, 10, 11, *range(12, 40)]   # the fields that are whole numbers


def looks_like(text: str) -> bool:
    """Whether ``text`` is laid out as a Snowie position: 40 fields or more,
    separated by semicolons, the first five whole numbers."""
    fields = text.strip().split(";")
    return len(fields) >= FIELDS and all(_number(f) is not None for f in fields[:5])


def read_position(path: str):
    """The position of a Snowie text position file, seen from the player on roll."""
    try:
        with open(path, "rb") as handle:
            text = decode(read_whole(handle, path, "a Snowie position", _LIMIT), path)
    except OSError as exc:
        raise FileReadError(path, exc) from None
    return parse(text, path)


def parse(text: str, path: str = "-"):
    from bgcli.core.rules import Rules

    fields = text.strip().split(";")
    if len(fields) < FIELDS:
        raise MatchFileError(f"not a Snowie position: {len(fields)} fields separated by ';', not {FIELDS}", path, 1, 1)
    numbers: dict[int, int] = {}
    for index in _NUMBERS:
        value = _number(fields[index])
        if value is None:
            raise MatchFileError(f"field {index} of the Snowie position is {fields[index][:20]!r}, not a whole number",
                                 path, 1, _column(fields, index))
        numbers[index] = value
    side = numbers[4]
    if side not in (0, 1):
        raise MatchFileError(f"field 4 (the player on roll) is {side}, not 0 or 1", path, 1, _column(fields, 4))
    other = 1 - side
    names = ["", ""]
    names[side], names[other] = fields[5].strip() or f"Player {side}", fields[6].strip() or f"Player {other}"
    score = [0, 0]
    score[side], score[other] = numbers[8], numbers[9]
    owner = {1: side, -1: other, 0: -1}.get(numbers[11])
    if owner is None:
        raise MatchFileError(f"field 11 (the cube's owner) is {numbers[11]}, not 1, -1 or 0", path, 1,
                             _column(fields, 11))
    dice = (numbers[38], numbers[39])
    board = [numbers[12], *(numbers[12 + point] for point in range(1, 25)), numbers[37]]
    return state_of(board, "the Snowie position", path, cube=numbers[10], cube_owner=owner, on_roll=side, turn=side,
                    crawford=bool(numbers[7]), dice=dice, score=(score[0], score[1]), names=(names[0], names[1]),
                    rules=Rules(match_length=numbers[0], jacoby=bool(numbers[1])))


def state_of(board: list[int], what: str, path: str, **match: Any):
    """The state a position file holds (Snowie's line, Jellyfish's .pos):
    the board as 26 numbers seen from the player on roll
    (:meth:`~bgcli.core.position.Position.from_board26`) and the fields of
    its :class:`~bgcli.core.state.MatchState`; a board or a match state that
    cannot be is one error naming ``what`` was read."""
    from bgcli.core.position import Position
    from bgcli.core.state import GameState, MatchState

    try:
        position = Position.from_board26(board)
        state = MatchState(**match)
    except (InvalidPositionError, ValueError) as exc:
        raise MatchFileError(f"{what}: {exc}", path, 1, 1) from None
    problem = state.problem()
    if problem:
        raise MatchFileError(f"{what}'s match state cannot be read: {problem}", path, 1, 1)
    return GameState(position, state)


def _number(text: str) -> int | None:
    word = text.strip()
    digits = word[1:] if word[:1] == "-" else word
    return int(word) if digits.isascii() and digits.isdigit() and len(digits) <= 9 else None


def _column(fields: list[str], index: int) -> int:
    return sum(len(f) + 1 for f in fields[:index]) + 1
