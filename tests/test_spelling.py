"""One owner of the spellings (bgcli/core/spelling.py): every entry point
reads dice, points, the bar and off exactly as it does.

The dice spellings accepted by the command line's moves, check and hint,
by a batch line (the words, the regular expression of a Position ID and
dice, the C accelerator's line reader when built) and by a play's dice
prefix (the grammar, asked through its transformer) are the owner's, with
the same value, on candidate spellings hypothesis makes. The regular
expression and the C reader are fenced mirrors, compared with the owner
directly. A test also fails if a second dice reader appears in the core or
the CLI, or a second list of the styles.
"""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bgcli
import bgcli.cli.batch as batch
from bgcli.cli.hint import _state_and_dice
from bgcli.cli.positions import check_words
from bgcli.cli.batch import WORD, position_and_dice, read_id_and_dice, run_moves
from bgcli.core.notation import parse_play_text
from bgcli.core.position import trusted_position
from bgcli.core.spelling import (
    BAR_WORDS, BLANKS, OFF_WORDS, POINT_WORDS, ROLL_PATTERN, STYLES, Style, parse_dice, parse_point, roll_of,
)
from bgcli.errors import BgcliError

ID = "4HPwATDgc/ABMA"   # the start, written as gnubg writes it
# what people type for dice, right or wrong: digits, separators, blanks, a letter or two
CANDIDATES = st.text(alphabet="0123456789-,/xX. \t\f:ab()[]", min_size=1, max_size=6)
FAST = settings(max_examples=400, deadline=None)


def reads(function, *args):
    """What an entry point reads: its dice, or None when it refuses them."""
    try:
        return function(*args)
    except BgcliError:
        return None


def line_dice(line: str, pure: bool) -> tuple[int, int] | None:
    """The dice run_moves answers a batch line with, or None for an error line."""
    out = io.StringIO()
    saved = batch._speedups, batch._moves_line
    if pure:
        batch._speedups, batch._moves_line = None, None
        batch.moves_writer.cache_clear()   # a writer made without the accelerator holds no C texts
    try:
        run_moves([line], "gnubg", out=out)
    finally:
        batch._speedups, batch._moves_line = saved
        if pure:
            batch.moves_writer.cache_clear()
    answer = json.loads(out.getvalue())
    return None if "error" in answer else tuple(answer["dice"])


@FAST
@given(CANDIDATES)
def test_every_entry_point_reads_the_owners_dice(text):
    words = WORD.findall(text)
    # the dice are one word, or two words of one character each ("3 1"): more words are the
    # position's too (a pasted text may hold other words), which is no matter of spelling
    if not words or ":" in text or len(words) > 2 or (len(words) == 2 and max(map(len, words)) > 1):
        return
    owner = roll_of(text)
    assert reads(parse_dice, text) == owner
    # moves on the command line: the quick reading and the words
    quick = read_id_and_dice(["start", *words])
    assert (quick[1] if quick else None) in (None, owner)
    assert (reads(position_and_dice, ["start", *words]) or (None, None))[1] == owner
    # a batch line, of the start and of a Position ID (the regular expression, the C reader when built)
    for line in (f"start {text}", f"{ID} {text}", f"  {ID}\t{text} "):
        assert line_dice(line, pure=True) == owner, line
        assert line_dice(line, pure=False) == owner, line
    # check: its dice before a play
    position, dice, _play = check_words(["start", *words, "13/8"])
    assert (reads(parse_dice, dice) if dice is not None else None) == owner
    # hint's dice argument
    assert (reads(_state_and_dice, ["start", *words]) or (None, None))[1] == owner


@FAST
@given(st.text(alphabet="0123456789-,/xX. \t\fab()[]", min_size=1, max_size=7))
def test_a_plays_dice_prefix_is_read_by_the_owner(text):
    """61: 13/7 — the grammar says where the dice stand, the owner what they are."""
    if not text.strip(BLANKS):
        return
    try:
        written = parse_play_text(f"{text}: 13/8").dice
    except BgcliError:
        written = None
    assert written == roll_of(text)


def bare_roll(text: str) -> tuple[int, int] | None:
    """What the fast paths read of ``text``: the owner's roll, but for a roll
    in brackets, which they leave to the words (test_every_entry_point_reads_the_owners_dice)."""
    return None if text.strip(BLANKS)[:1] in "([" else roll_of(text)


@FAST
@given(CANDIDATES)
def test_the_regular_expression_mirrors_the_owner(text):
    found = re.fullmatch(ROLL_PATTERN, text.strip(BLANKS))
    owner = bare_roll(text)
    assert (found is not None) == (owner is not None)
    if found:
        assert tuple(sorted(map(int, found.groups()), reverse=True)) == owner
    line = batch.ID_AND_DICE_LINE(f"{ID} {text}")
    assert (batch._ROLLS[line.group(2, 3)] if line else None) == (owner if text[:1] not in BLANKS or owner else None)


@pytest.mark.skipif(batch._speedups is None, reason="the C accelerator is not built here")
@FAST
@given(CANDIDATES)
def test_the_c_line_reader_mirrors_the_owner(text):
    writer = batch.moves_writer("gnubg", batch.DEFAULT_SIDE)
    answer = batch._speedups.query_line(writer.texts, writer._text, trusted_position, f"{ID} {text}")
    owner = bare_roll(text)
    assert (tuple(json.loads(answer)["dice"]) if answer is not None else None) == owner


def test_the_spellings_bgcli_accepts():
    for text in ("31", "13", "3-1", "3,1", "3/1", "3x1", "3 1", " 3\t1 ", "66", "3, 1", "(3,1)", "(1, 3)", "[3 1]",
                 "[3, 1]", "( 3-1 )", "(31)"):
        assert parse_dice(text) == ((3, 1) if text != "66" else (6, 6))
    for text in ("3", "311", "3--1", "3 - 1", "3 ,1", "-31", "3X1", "71", "0-1", "３１", "3:1", "", "(3,1", "(3,1]",
                 "((3,1))", "()", "3 and 1"):
        with pytest.raises(BgcliError, match="invalid dice"):
            parse_dice(text)


SEPARATORS = st.sampled_from(["", "-", ",", "/", "x", " ", "\t", "  ", ", ", ",  "])
BRACKETS = st.sampled_from([("", ""), ("(", ")"), ("[", "]"), ("( ", " )")])


@FAST
@given(st.integers(1, 6), st.integers(1, 6), SEPARATORS, BRACKETS)
def test_every_spelling_of_a_roll_reads_back_as_the_roll(first, second, separator, brackets):
    """A roll spelt in any way bgcli accepts (a separator or none, in brackets
    or not) reads back as that roll, larger die first, whatever the order."""
    text = f"{brackets[0]}{first}{separator}{second}{brackets[1]}"
    assert parse_dice(text) == (max(first, second), min(first, second))
    # and the way bgcli writes it (dice_name) reads back the same
    assert parse_dice(bgcli.core.spelling.dice_name(parse_dice(text))) == parse_dice(text)


@FAST
@given(st.text(alphabet="barofBAROF", min_size=1, max_size=4))
def test_bar_and_off_are_the_owners_words_in_the_grammar_and_its_fast_path(word):
    owner = POINT_WORDS.get(word.lower())
    try:
        read = parse_play_text(f"{word}/20 24/{word}").moves
        points = (read[0].points[0], read[1].points[1])
    except BgcliError:
        points = None
    assert points == ((owner, owner) if owner is not None else None)
    assert reads(parse_point, word) == owner


def test_the_grammar_terminals_name_the_owners_words():
    grammar = (Path(bgcli.__file__).parent.parent / "grammars" / "play.lark").read_text(encoding="utf-8")
    assert f"BAR: /{'|'.join(BAR_WORDS)}/i" in grammar and f"OFF: /{'|'.join(OFF_WORDS)}/i" in grammar


def test_one_dice_reader_and_one_list_of_styles():
    """No module of the core or the CLI but the owner spells a die as a
    regular expression, or lists the styles (the XGID's dice field is built from
    DIE_PATTERN too; test_one_owner.py looks at the whole package)."""
    root = Path(bgcli.__file__).parent
    dice_readers, style_lists = set(), set()
    for path in [*root.glob("core/*.py"), *root.glob("cli/*.py")]:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(root).as_posix()
        if "[1-6]" in text:
            dice_readers.add(name)
        if re.search(r"""\(\s*["']gnubg["'],\s*["']mat["']""", text):
            style_lists.add(name)
    assert dice_readers == set()
    assert style_lists == set()
    assert STYLES == tuple(style.value for style in Style) == ("gnubg", "mat", "fibs", "korean")


def test_dice_are_written_as_the_owner_writes_them_and_read_back():
    from bgcli.core.position import ROLLS
    from bgcli.core.spelling import dice_name

    for roll in set(ROLLS.values()):
        assert parse_dice(dice_name(roll)) == roll
        assert str(parse_play_text(f"{roll[1]}-{roll[0]}: 13/8")).startswith(f"{dice_name(roll)}: ")


# --- dice as files record them -----------------------------------------------------------

@given(st.text(alphabet="0123456789x- ", max_size=3))
def test_a_recorded_roll_is_two_dice_as_the_owner_reads_them(text):
    """recorded_roll reads two digits of DIE_PATTERN, in the order written: the
    same roll as roll_of, the one spelling of a roll, when the text is two digits."""
    from bgcli.core.spelling import DIE_PATTERN, recorded_roll

    got = recorded_roll(text)
    two_dice = re.fullmatch(DIE_PATTERN * 2, text) is not None
    assert (got is not None) == two_dice
    if got is not None:
        assert got == (int(text[0]), int(text[1])) and tuple(sorted(got, reverse=True)) == roll_of(text)


@given(st.one_of(st.integers(-2, 9), st.booleans(), st.text(max_size=1), st.floats(0, 7)),
       st.integers(1, 6))
def test_recorded_dice_are_whole_numbers_from_1_to_6(first, second):
    from bgcli.core.spelling import recorded_dice

    good = type(first) is int and 1 <= first <= 6
    assert recorded_dice(first, second) == ((first, second) if good else None)
    assert recorded_dice(second, first) == ((second, first) if good else None)


def test_no_format_spells_a_die_itself():
    """The readers and writers of every format ask the spellings module for a
    die (DIE_PATTERN, recorded_roll, recorded_dice, dice_name): none writes
    its own [1-6], 1 <= d <= 6 or max(dice) min(dice)."""
    import pathlib

    import bgcli.formats as formats

    folder = pathlib.Path(formats.__file__).parent
    own = re.compile(r"\[1-6\]|<= ?d ?<= ?6|max\(\w+\.dice\)\}\{min")
    found = [(path.name, line) for path in sorted(folder.glob("*.py"))
             for line in path.read_text(encoding="utf-8").splitlines() if own.search(line)]
    assert found == []


def test_no_module_writes_a_roll_itself():
    """Every message, board, page and ID writes two dice through the owner
    (dice_name for a roll, recorded_text for dice in the order thrown): no
    module puts ``{dice[0]}{dice[1]}`` side by side itself."""
    import pathlib

    root = pathlib.Path(bgcli.__file__).parent
    own = re.compile(r"\{(\w[\w.]*)\[0\]\}\{\1\[1\]\}|\{a\}\{b\}")
    found = [(path.relative_to(root).as_posix(), line.strip()) for path in sorted(root.rglob("*.py"))
             if path.name != "spelling.py"
             for line in path.read_text(encoding="utf-8").splitlines() if own.search(line)]
    assert found == []


@given(st.integers(1, 6), st.integers(1, 6))
def test_recorded_text_is_read_back_in_the_order_written(first, second):
    from bgcli.core.spelling import recorded_roll, recorded_text

    assert recorded_roll(recorded_text((first, second))) == (first, second)
