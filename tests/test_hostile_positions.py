"""Hostile input on the position and play side: whatever comes in, only our
documented errors come out, in one short line, in bounded time.

Covers positions (bgcli.ids, grammars/position.lark), play text
(bgcli.notation's reading, grammars/play.lark) and the commands on them
(moves, check, convert, show): huge numbers, non-ASCII digits, values out of
range, over-long input, batches with bad lines, output that cannot be
written, Ctrl-C and closed pipes.
"""
from __future__ import annotations

import random
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgcli.errors import BgcliError, InvalidPlayError, InvalidPositionError
from bgcli.ids import fibs, parse_position, position_kind, xgid
from bgcli.notation import MAX_PLAY_TEXT, _fast_parse, _slow_parse, parse_play, parse_play_text, parse_point
from bgcli.model import Position
from bgcli.output import quote

FAST = settings(deadline=None, max_examples=150, suppress_health_check=list(HealthCheck))
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
START_FIBS = fibs(parse_position(START_XGID))
START_BOARD = "0 -2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 0"
MESSAGE_LIMIT = 300  # characters: no message quotes more of the input than this


def one_short_line(exc: BaseException) -> str:
    message = str(exc)
    assert "\n" not in message and len(message) <= MESSAGE_LIMIT, message[:500]
    return message


def position_error(text: str) -> str:
    with pytest.raises(InvalidPositionError) as info:
        parse_position(text)
    return one_short_line(info.value)


def play_error(text: str) -> str:
    with pytest.raises(InvalidPlayError) as info:
        parse_play_text(text)
    return one_short_line(info.value)


# --- positions: a number of thousands of digits in every field -----------------------

def _fields(text: str, separator: str) -> list[tuple[int, str]]:
    """(index, field) of every number field of ``text`` split on ``separator``."""
    return [(i, f) for i, f in enumerate(text.split(separator)) if re.fullmatch(r"-?[0-9]+", f.strip())]


def _with_field(text: str, separator: str, index: int, value: str) -> str:
    parts = text.split(separator)
    parts[index] = value
    return separator.join(parts)


HUGE = "9" * 5000


@pytest.mark.parametrize("form, separator", [(START_XGID, ":"), (START_FIBS, ":"), (START_BOARD, " ")])
@pytest.mark.parametrize("value", [HUGE, "-" + HUGE, "0" * 5000 + "1", "99999999"])
def test_a_huge_number_in_any_field_is_one_short_error(form, separator, value):
    fields = _fields(form, separator)
    assert len(fields) >= (9 if form is START_XGID else 26)
    for index, _ in fields:
        text = _with_field(form, separator, index, value)
        if value == "0" * 5000 + "1":
            try:  # a padded 1 is a 1: right or wrong, but read
                parse_position(text)
            except InvalidPositionError as exc:
                one_short_line(exc)
            continue
        message = position_error(text)
        assert "at column" in message, message  # the field and where it is (the dice: a syntax error)


@pytest.mark.parametrize(
    "field, value, named",
    [
        (1, "16", "cube field '16' at column 33 is not 0 to 15"),
        (5, "40000", "bottom player's score '40000'"),
        (7, "4", "Crawford/Jacoby field '4'"),
        (8, "-3", "match length '-3'"),
        (9, "99", "maxcube '99'"),
    ],
)
def test_an_xgid_field_out_of_bounds_is_named_with_its_column(field, value, named):
    assert named in position_error(_with_field(START_XGID, ":", field, value))


def test_fibs_and_board_fields_out_of_bounds_are_named():
    assert "board field 5 '16'" in position_error(_with_field(START_FIBS, ":", 3 + 3 + 5, "16"))
    assert "dice field '7'" in position_error(_with_field(START_FIBS, ":", 3 + 30, "7"))
    assert "number 3 '-99' at column 6 is not -15 to 15" in position_error("0 -2 -99" + " 0" * 23)


# --- positions: values that describe no real state ---------------------------------------

CRAWFORD_0_0 = "XGID=-b----E-C---eE---c-e----B-:3:1:1:52:0:0:1:5:10"


def test_xgid_crawford_flag_at_a_score_where_nobody_is_one_away():
    assert "Crawford flag is set at 0-0" in position_error(CRAWFORD_0_0)
    assert "Crawford flag is set at 3-2" in position_error(
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:3:2:1:5:10")


def test_xgid_owned_or_doubled_cube_in_the_crawford_game():
    message = position_error("XGID=-b----E-C---eE---c-e----B-:3:1:1:52:4:0:1:5:10")
    assert "cube 8 owned in the Crawford game" in message
    assert "a double offered" in position_error("XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:4:1:5:10")
    # the Crawford game itself, cube centred at 1, is fine; so is post-Crawford doubling
    assert parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:4:0:1:5:10").match.crawford
    assert parse_position("XGID=-b----E-C---eE---c-e----B-:3:1:1:52:4:0:0:5:10").match.cube == 8


def test_xgid_cube_above_its_maxcube():
    assert "cube 1024 is above the maxcube 4" in position_error(
        "XGID=-b----E-C---eE---c-e----B-:10:1:1:52:0:0:0:0:2")
    assert parse_position("XGID=-b----E-C---eE---c-e----B-:2:1:1:52:0:0:0:0:2").match.cube == 4


# --- positions: over-long text, white space and digits the grammar does not know ------------

def test_over_long_position_text_is_refused_at_once():
    for text in ("hello " * 200_000, ": " * 500_000, "4HPwATDgc/ABMA " * 70_000, "a" * 1_000_000):
        start = time.perf_counter()
        message = position_error(text)
        assert time.perf_counter() - start < 0.5
        assert "characters, more than any position needs" in message


@pytest.mark.parametrize("space", ["\u2003", "\u00a0", "\u2028", "\x85", "\x1c"])
def test_fast_path_and_grammar_agree_on_unicode_white_space(space):
    for text in ("start", "4HPwATDgc/ABMA", "4HPwATDgc/ABMA:cAkAAAAAAAAA"):
        for odd in (space + text, text + space):
            position_error(odd)


@pytest.mark.parametrize("digit", ["\uff11", "\u00b2", "\u0661", "\U0001d7d9"])  # １ ² ١ 𝟙
def test_position_text_takes_ascii_digits_only(digit):
    position_error(START_XGID.replace(":1:52:", f":{digit}:52:"))
    position_error(START_BOARD.replace("5", digit, 1))
    position_error(START_FIBS.replace(":5:", f":{digit}:", 1))


def test_long_unexpected_token_is_cut_in_the_message():
    message = position_error(START_XGID + " " + "x" * 5000)
    assert "x" * 40 not in message


# --- play text: digits, huge numbers, length ------------------------------------------------

@pytest.mark.parametrize(
    "text",
    ["１３/７ ８/７", "１３/７, ８/７", "13/７ 8/7", "13/7 8/7(２)", "²4/18", "24/1８", "상１/상7", "상 １/상7", "61: 24/18 13/1３"],
)
def test_play_text_takes_ascii_digits_only_on_both_paths(text):
    assert _fast_parse(text) is None
    with pytest.raises(InvalidPlayError):
        _slow_parse(text)
    play_error(text)


@pytest.mark.parametrize("digit", ["\uff11", "\u00b2", "\u0663", "\u2460"])
def test_parse_point_takes_ascii_digits_only(digit):
    with pytest.raises(InvalidPlayError):
        parse_point(digit)
    with pytest.raises(InvalidPlayError):
        parse_point("상" + digit)
    assert parse_point("013") == 13 and parse_point("상 1") == 24


@pytest.mark.parametrize("text", ["24/1" + "9" * 150, "24/18(" + "9" * 150 + ")", "상" + "9" * 150 + "/상7"])
def test_huge_numbers_in_play_text_are_one_short_error(text):
    message = play_error(text)
    assert "9" * 80 not in message


def test_over_long_play_text_is_refused_at_once_with_a_short_message():
    for text in ("24/23 " * 200_000, "24/23, " * 150_000, "x" * 1_000_000, "24/18" + " " * MAX_PLAY_TEXT):
        start = time.perf_counter()
        message = play_error(text)
        assert time.perf_counter() - start < 0.5
        assert "more than any play needs" in message
    with pytest.raises(InvalidPlayError) as info:
        parse_play("24/23 " * 200_000, Position.start(), (3, 1))
    one_short_line(info.value)


def test_the_longest_real_plays_fit():
    for text in ("66: bar/19*/13*/7*/1*", "상 1/상 7* 상 12/하 11*", "6-6: 25/19*, 19/13*, 13/7*, 7/1*"):
        parse_play_text(text)


# --- hypothesis: generated and mutated text gives only our errors ------------------------------

_ODD = st.sampled_from(["\uff11", "\u00b2", "\u0661", "\u2003", "\u2028", "\x00", "\x1b", "9" * 30, "-", ":", "/"])


def _mutants(base: str):
    pieces = st.lists(st.tuples(st.integers(0, len(base)), st.integers(0, 3), _ODD), min_size=1, max_size=4)

    def apply(edits):
        text = base
        for at, cut, odd in edits:
            at = min(at, len(text))
            text = text[:at] + odd + text[at + cut:]
        return text

    return pieces.map(apply)


@FAST
@given(st.one_of(*(_mutants(b) for b in (START_XGID, START_FIBS, START_BOARD, "4HPwATDgc/ABMA:cAkAAAAAAAAA"))))
def test_mutated_positions_give_only_short_position_errors(text):
    try:
        parse_position(text)
    except InvalidPositionError as exc:
        one_short_line(exc)


@FAST
@given(st.one_of(*(_mutants(b) for b in ("24/18 13/11", "61: 25/24 13/7*", "bar/22*/19(2)", "상1/상7 상12/하11"))))
def test_mutated_plays_read_the_same_on_both_paths(text):
    fast = _fast_parse(text)
    try:
        slow = _slow_parse(text)
    except InvalidPlayError as exc:
        one_short_line(exc)
        assert fast is None, text
        return
    assert fast is None or fast == slow, text


@FAST
@given(st.text(alphabet=st.sampled_from("0123456789/-*() ,:bo상하\uff11\u00b2\u0663\u2003"), max_size=40))
def test_generated_play_text_reads_the_same_on_both_paths(text):
    fast = _fast_parse(text)
    try:
        slow = _slow_parse(text)
    except InvalidPlayError as exc:
        one_short_line(exc)
        assert fast is None, text
        return
    assert fast is None or fast == slow, text


def test_quote_cuts_and_escapes():
    assert quote("a" * 1000) == repr("a" * 57 + "...")
    assert quote("a\nb\x1b") == repr("a\nb\x1b") and "\n" not in quote("a\nb")
    assert len(quote("z" * 10_000, 20)) <= 22


def test_written_xgid_of_a_valid_crawford_state_reads_back():
    game = parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:4:2:1:5:10")
    assert parse_position(xgid(game)) == game and position_kind(xgid(game)) == "xgid"


def test_random_garbage_never_escapes_as_another_exception():
    rng = random.Random(11)
    alphabet = "0123456789-:, /XGIDboard=ABab\uff11\u00b2\u2003\n"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 80)))
        for read in (parse_position, parse_play_text):
            try:
                read(text)
            except BgcliError as exc:
                one_short_line(exc)
