"""Jellyfish's position files (``.pos``; GNU Backgammon's ``import pos`` and
``export position pos``): one position, read as a
:class:`~bgcli.core.state.GameState`, as gnubg reads it (import.c,
``ParseJF``; ``tests/test_jfpos.py`` holds bgcli's reading of files gnubg
wrote to gnubg's Position and Match IDs of its own import of them).

The file is little-endian 16-bit numbers, in this order:

- the version: 124 (Jellyfish 1.0 to 1.2), 125 (1.6) or 126 (3.0); 126 then
  holds two numbers bgcli passes over (caution, one not in use), 125 and 126
  three rule switches: the cube in use, Jacoby, beavers;
- the cube's value; its owner (0 centred, 1 or 2 the player);
- the player on roll: 1 or 2 with the dice rolled, 3 or 4 (the player plus
  2) before rolling, 0 at the starting position;
- two counts of the steps left to play, and one number not in use;
- 1 for a match, 3 for a single game (money: no match length); 2 when
  Jellyfish plays one side; its level; the match length; the scores of
  players 1 and 2;
- the names of players 1 and 2, each a byte of its length and its bytes;
- whether the lower die is drawn first; 2 in the Crawford game, 3 after it;
  whether Jellyfish played last, and its play (a length byte and text);
- the dice;
- 26 pairs of numbers plus 20, the board and the board before the last play
  (for undo): player 1's checkers negative, player 2's positive; the first
  is player 2's bar, the last player 1's; number ``k`` between them is
  player 1's point ``k`` and player 2's point ``25 - k``.

Player 1 is gnubg's player 0 (the top side, as gnubg writes and reads it),
player 2 its player 1. gnubg names player 1 "Jellyfish" when the file says
Jellyfish plays that side; bgcli keeps the name the file holds.
"""
from __future__ import annotations

import struct

from bgcli.core.position import BAR, POINTS, from_other_side, other_side
from bgcli.errors import FileReadError, MatchFileError, NotThisFormatError
from bgcli.formats.reading import read_whole
from bgcli.formats.snowietxt import state_of

VERSIONS = (124, 125, 126)
_LIMIT = 1 << 20   # a .pos file is about 160 bytes: a file of a megabyte is not one


def looks_like(data: bytes) -> bool:
    """Whether ``data`` starts as a Jellyfish position file: its version."""
    return len(data) >= 2 and struct.unpack_from("<h", data)[0] in VERSIONS


def read_position(path: str):
    """The position of a Jellyfish .pos file, seen from the player on roll."""
    try:
        with open(path, "rb") as handle:
            data = read_whole(handle, path, "a Jellyfish position", _LIMIT)
    except OSError as exc:
        raise FileReadError(path, exc) from None
    return parse(data, path)


class _Reader:
    """The numbers and strings of a .pos file in order; a file cut short is
    one error naming what was being read and its byte offset."""

    def __init__(self, data: bytes, path: str) -> None:
        self.data, self.path, self.offset = data, path, 0

    def number(self, what: str) -> int:
        if self.offset + 2 > len(self.data):
            raise self.short(what)
        value = struct.unpack_from("<h", self.data, self.offset)[0]
        self.offset += 2
        return value

    def text(self, what: str) -> str:
        if self.offset >= len(self.data) or self.offset + 1 + self.data[self.offset] > len(self.data):
            raise self.short(what)
        length = self.data[self.offset]
        raw = self.data[self.offset + 1:self.offset + 1 + length]
        self.offset += 1 + length
        return raw.decode("cp1252", errors="replace")   # Jellyfish is a Windows program

    def short(self, what: str) -> MatchFileError:
        return MatchFileError(f"the Jellyfish position is cut short at byte {self.offset}, in {what}", self.path, 1, 1)


def parse(data: bytes, path: str = "-"):
    from bgcli.core.rules import Rules

    if len(data) < 2:   # no version: no Jellyfish file at all (exit 2), not one cut short (1)
        raise NotThisFormatError(f"not a Jellyfish position: {len(data)} bytes, no version", path, 1, 1)
    read = _Reader(data, path)
    version = read.number("the version")
    if version not in VERSIONS:
        raise NotThisFormatError(f"not a Jellyfish position: its version is {version}, not "
                                 f"{', '.join(map(str, VERSIONS))}", path, 1, 1)
    if version == 126:
        read.number("caution")
        read.number("a number not in use")
    cube_in_use, jacoby = True, False
    if version in (125, 126):
        cube_in_use = bool(read.number("the cube-in-use switch"))
        jacoby = bool(read.number("the Jacoby switch"))
        read.number("the beaver switch")   # gnubg reads it and uses it nowhere; a position has no beaver yet
    cube, owner, on_roll = read.number("the cube"), read.number("the cube's owner"), read.number("the player on roll")
    for what in ("the steps left", "the steps left", "a number not in use"):
        read.number(what)
    kind = read.number("match or game")
    read.number("who plays")
    read.number("Jellyfish's level")
    length = read.number("the match length")
    score = (read.number("player 1's score"), read.number("player 2's score"))
    names = (read.text("player 1's name"), read.text("player 2's name"))
    read.number("the order of the dice")
    crawford = read.number("the Crawford game")
    read.number("who played last")
    read.text("the last play")
    dice = (abs(read.number("the first die")), read.number("the second die"))
    board = []
    for index in range(26):
        board.append(read.number(f"point {index} of the board") - 20)
        read.number(f"point {index} of the board before")
    if owner not in (0, 1, 2):
        raise MatchFileError(f"the cube's owner is {owner}, not 0, 1 or 2", path, 1, 1)
    if not 0 <= on_roll <= 4:
        raise MatchFileError(f"the player on roll is {on_roll}, not 0 to 4", path, 1, 1)
    side = 0 if on_roll in (1, 3) else 1   # 0 (the starting position): player 2's side, as gnubg reads it
    if side == 0:   # player 1 numbers the points as the file does; its checkers are the negative ones
        numbers = [board[other_side(BAR)], *(-board[point] for point in POINTS), board[BAR]]
    else:           # player 2 numbers them the other way round
        numbers = list(from_other_side(board))
    money = kind == 3 or length == 0
    return state_of(numbers, "the Jellyfish position", path, cube=cube, cube_owner=owner - 1, on_roll=side, turn=side,
                    crawford=crawford == 2 and not money, dice=dice if all(dice) else (0, 0),
                    score=(0, 0) if money else score, names=names,
                    rules=Rules(match_length=0 if money else length, jacoby=jacoby, cubeless=not cube_in_use))
