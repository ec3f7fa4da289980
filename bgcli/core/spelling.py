"""Spellings: how bgcli reads and writes dice, points, the bar and borne-off
checkers, in every notation style. The one owner of these words.

Every reader asks this module: the command line (moves, check, hint), the
lines of a batch, the play grammar's transformer (``grammars/play.lark``
says where dice and points stand in a play, this module what they may be),
and the writers of play text (:mod:`bgcli.core.notation`), and the readers
and writers of every file format for the dice a file records
(:data:`DIE_PATTERN`, :func:`recorded_roll`, :func:`recorded_dice`,
:func:`dice_name`). Two fenced
mirrors stay for speed, each tested against this module on generated
inputs (tests/test_spelling.py): :data:`ROLL_PATTERN`, the regular
expression the batch reader's line of a Position ID and dice is built from,
and ``read_query_line`` in the C accelerator (``bgcli/core/_speedups.c``).
The play grammar's BAR and OFF terminals are the words here, which a test
checks too. docs/notation.md says it all for users.

Why a module of its own, not a part of notation.py: the words are needed
below the play text (the generator's and judge's step texts, the dice of a
query) and by readers that must start fast (``moves --batch`` is answered
before click or the grammar is imported); notation.py is play text over the
generator and judge, and imports them. This module needs only the board's
numbers (:mod:`bgcli.core.position`).
"""
from __future__ import annotations

import enum
import functools
import re
from typing import Sequence

from bgcli.core.position import BAR, FACES, OFF, ORDERED_ROLLS, ROLLS, Dice, Point, checked_dice, other_side
from bgcli.errors import InvalidDiceError, InvalidPlayError
from bgcli.output import quote


class Style(str, enum.Enum):
    """A notation style play text is written in (see :mod:`bgcli.core.notation`).
    A ``str`` too, so ``style == "korean"`` and click's choices read it."""

    GNUBG = "gnubg"     # gnubg's canonical text: 24/18 13/11, bar, off
    MAT = "mat"         # the Jellyfish .mat cell: one a/b pair per die, bar 25, off 0
    FIBS = "fibs"       # the FIBS move command: a-b pairs, bar and off, no hit marks
    KOREAN = "korean"   # gnubg's layout with the traditional Korean point names (상1, 하7)


STYLES: tuple[str, ...] = tuple(style.value for style in Style)

# The white space between words: what the grammars ignore and the batch reader splits on
BLANKS = " \t\f\r\n"

# The sides of the board, as gnubg numbers its players: player 0 (O) is drawn
# at the top, player 1 (X) at the bottom. Only the Korean names depend on it.
TOP, BOTTOM = 0, 1


# --- dice ------------------------------------------------------------------------------

DIE_DIGITS = "123456"
# One of these may stand between the two dice of a roll (3-1, 3,1, 3/1, 3x1),
# or blanks (3 1), or nothing (31); gnubg and XG write 31, forums and books
# 3-1. A comma may have blanks after it (3, 1): a pair as Python and JSON
# write it, bgcli's own JSON "dice" included. Nothing else: not blanks
# before a separator (3 - 1), not two separators, not a capital X.
DICE_SEPARATORS = "-,/x"
# A roll may stand in one pair of brackets: (3,1) as a pair is written in
# mathematics and Python, [3, 1] as JSON writes it (bgcli's "dice": [3, 1]).
DICE_BRACKETS = {"(": ")", "[": "]"}
_EXPECTED_DICE = "expected two numbers from 1 to 6, such as 31, 3-1 or (3,1)"


def roll_of(text: str) -> Dice | None:
    """The roll (larger die first) that ``text`` spells, blanks around it
    allowed; None when it spells none. The definition of a roll's spelling."""
    word = text.strip(BLANKS)
    if word[:1] in DICE_BRACKETS and word[-1:] == DICE_BRACKETS[word[0]]:
        word = word[1:-1].strip(BLANKS)
    if len(word) < 2 or word[0] not in DIE_DIGITS or word[-1] not in DIE_DIGITS:
        return None
    between = word[1:-1]
    if between[:1] == ",":
        between = between[:1] + between[1:].strip(BLANKS)   # 3, 1 as 3,1
    if between and not (len(between) == 1 and between in DICE_SEPARATORS) and between.strip(BLANKS):
        return None
    return ROLLS[int(word[0]), int(word[-1])]


def parse_dice(text: str | Sequence[int]) -> Dice:
    """Read dice written ``31``, ``3-1``, ``3 1``, ``3,1``, ``3, 1``, ``3/1``,
    ``3x1``, in brackets or not (``(3,1)``, ``[3, 1]``; see :func:`roll_of`) or given as two numbers; the larger die comes
    first. InvalidDiceError names the input (cut short) otherwise."""
    if not isinstance(text, str):
        return checked_dice(text)
    roll = roll_of(text)
    if roll is None:
        raise InvalidDiceError(f"invalid dice {quote(text)}: {_EXPECTED_DICE}")
    return roll


def dice_name(dice: Sequence[int]) -> str:
    """A roll as bgcli writes it in every style and every file it writes:
    ``31``, the larger die first."""
    first, second = dice
    return f"{first}{second}" if first >= second else f"{second}{first}"


# --- dice as files record them ------------------------------------------------------------
# The readers of every format ask these, so that a die means the same in every file.

# One die in a file's text (a .mat cell's 62:, SGF's W[62...], gnubg's 'to play 62'): the
# readers' regular expressions of a roll are built from it.
DIE_PATTERN = f"[{DIE_DIGITS}]"
_RECORDED = {f"{a}{b}": (a, b) for a, b in ORDERED_ROLLS}


def recorded_text(dice: Sequence[int]) -> str:
    """Two dice as bgcli writes them in the order given (a record's ``26``
    stays ``26``; a roll of the generator's is larger first): the one place a
    message, a board or an ID writes a die, and what recorded_roll reads back."""
    first, second = dice
    return f"{first}{second}"


def recorded_roll(text: str) -> tuple[int, int] | None:
    """The two dice a file writes as two digits (``62``, ``26``), in the
    order written; None when the text is not two dice."""
    return _RECORDED.get(text)


def recorded_dice(first: object, second: object) -> tuple[int, int] | None:
    """Two dice a file stores as numbers (XG's and BGBlitz's records, a JSON
    document), in the order stored; None when either is not a whole number
    from 1 to 6 (a bool or text is none)."""
    for die in (first, second):
        if type(die) is not int or die not in FACES:
            return None
    return first, second  # type: ignore[return-value]


# Words that spell no roll but were meant as one: a reader that meets them
# where dice stand says what is wrong with the dice (not with the position).
_SHORT_ATTEMPT = re.compile(r"(?=.*[0-9])[^/*()]{1,3}")   # short, a digit, nothing of a play: 3x, 77, 61a
_LONG_ATTEMPT = re.compile(r"(?=.*\d)[^A-Za-wyz]{1,12}")  # a digit (any script: ３１), no letter but x: 3-1-2, 0,7


def meant_as_dice(word: str, *, short: bool = False) -> bool:
    """Whether ``word`` was meant as dice, right or wrong; ``short``: only
    words of at most three characters with nothing of a play step in them
    (where a play may follow, as in check, 24-18 is a play). A word of digits
    alone, of any length, where dice stand is dice all the same: no play step
    is written so (``check start 3333 24/21`` was told its dice were missing,
    the digits read as the play's)."""
    return bool(word.isdecimal() or _SHORT_ATTEMPT.fullmatch(word) or not short and _LONG_ATTEMPT.fullmatch(word))


def is_die(word: str) -> bool:
    """One die alone (``3``): two such words in a row are a roll (``3 1``)."""
    return len(word) == 1 and word in DIE_DIGITS


# roll_of for regular expressions (the batch reader's line of a Position ID
# and dice): the two dice as groups 1 and 2. A roll in brackets is not
# matched: such a line is read by the words, which ask roll_of.
# Fenced mirror of roll_of: tests/test_spelling.py::test_the_regular_expression_mirrors_the_owner
ROLL_PATTERN = (rf"({DIE_PATTERN})(?:,?[{re.escape(BLANKS)}]+|[{re.escape(DICE_SEPARATORS)}])?"
                rf"({DIE_PATTERN})")


# --- points, the bar, off ------------------------------------------------------------------

# Read in any letter case; written as the first word. The play grammar's BAR and
# OFF terminals hold the same words (tests/test_spelling.py checks it).
BAR_WORDS = ("bar", "b")
OFF_WORDS = ("off", "o")
POINT_WORDS = {**{word: BAR for word in BAR_WORDS}, **{word: OFF for word in OFF_WORDS}}
KOREAN_HALVES = ("상", "하")   # the upper and the lower half of the board


def own_half(side: int) -> str:
    """The half of the board holding the home of the player on ``side``
    (its points 1 to 12): 하, the lower, for the bottom player, 상 for the top."""
    if side == BOTTOM:
        return "하"
    if side == TOP:
        return "상"
    raise ValueError(f"invalid side {side!r}: expected {TOP} (gnubg's player 0, top) or {BOTTOM} (player 1, bottom)")


def small_number(digits: str) -> int | None:
    """The value of a run of ASCII digits of at most three significant ones, else None."""
    significant = digits.lstrip("0")
    if not (digits.isascii() and digits.isdigit()) or len(significant) > 3:
        return None
    return int(significant or "0")


def parse_point(text: str, *, side: int = BOTTOM) -> Point:
    """Read one point of the player on ``side``: ``0``..``25``, ``bar``/``b``,
    ``off``/``o`` (any letter case) or a Korean name ``상1``..``상12`` /
    ``하1``..``하12`` (optionally ``상 1``). Numbers are ASCII digits only
    (``１３`` and ``²`` are not points)."""
    own = own_half(side)
    word = text.strip(" \t").lower()
    point = POINT_WORDS.get(word)
    if point is not None:
        return point
    if word[:1] in KOREAN_HALVES:
        n = small_number(word[1:].strip(" \t"))
        if n is not None and 1 <= n <= 12:
            return n if word[0] == own else other_side(n)
        raise InvalidPlayError(f"invalid point {quote(text, 20)}: the Korean halves have points 1 to 12")
    n = small_number(word)
    if n is not None and n <= BAR:
        return n
    raise InvalidPlayError(f"invalid point {quote(text, 20)}: points are 0 to 25, bar, off or Korean names")


def point_text(point: object) -> str:
    """A point as a step writes it in messages and gnubg's style: ``bar``, ``off`` or its number."""
    return BAR_WORDS[0] if point == BAR else OFF_WORDS[0] if point == OFF else str(point)


@functools.lru_cache(maxsize=None)
def point_names(style: str, side: int) -> tuple[str, ...]:
    """The names of points 0 (off) to 25 (the bar) in a style (``point_name``), for notation.canonical_text."""
    return tuple(point_name(p, style, side=side) for p in range(26))


def point_name(point: Point, style: str = "gnubg", *, side: int = BOTTOM) -> str:
    """Write one point of the player on ``side`` in a style (see :mod:`bgcli.core.notation`)."""
    if style == Style.MAT:
        return str(point)   # the .mat cell writes the bar as 25 and off as 0
    if point == BAR or point == OFF:
        return point_text(point)   # the Korean rule text has no words for them: bar and off stay
    if style == Style.KOREAN:
        return korean_name(point, side)
    return str(point)


def korean_name(point: Point, side: int = BOTTOM) -> str:
    """The traditional Korean name of point 1..24 of the player on ``side``:
    하n / 상(25 - n) for the bottom player, 상n / 하(25 - n) for the top one."""
    own = own_half(side)
    if not 1 <= point <= 24:
        raise ValueError(f"invalid point {point!r}: the Korean names are for points 1 to 24")
    if point <= 12:
        return f"{own}{point}"
    return f"{'상' if own == '하' else '하'}{other_side(point)}"
