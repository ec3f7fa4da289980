"""Hostile input on the position and play side: whatever comes in, only our
documented errors come out, in one short line, in bounded time.

Covers positions (bgcli.core.ids, grammars/position.lark), play text
(bgcli.core.notation's reading, grammars/play.lark) and the commands on them
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
from bgcli.core.ids import fibs, parse_position, position_kind, xgid
from bgcli.core.notation import MAX_PLAY_TEXT, _read_common_play, _grammar_play, parse_play, parse_play_text
from bgcli.core.spelling import parse_point
from bgcli.core.position import Position
from bgcli.core.generator import legal_plays
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
    assert _read_common_play(text) is None
    with pytest.raises(InvalidPlayError):
        _grammar_play(text)
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
    fast = _read_common_play(text)
    try:
        slow = _grammar_play(text)
    except InvalidPlayError as exc:
        one_short_line(exc)
        assert fast is None, text
        return
    assert fast is None or fast == slow, text


@FAST
@given(st.text(alphabet=st.sampled_from("0123456789/-*() ,:bo상하\uff11\u00b2\u0663\u2003"), max_size=40))
def test_generated_play_text_reads_the_same_on_both_paths(text):
    fast = _read_common_play(text)
    try:
        slow = _grammar_play(text)
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


# --- the commands ---------------------------------------------------------------------------

import io  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import stat  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from click.testing import CliRunner  # noqa: E402

from bgcli.cli import cli  # noqa: E402
from bgcli.cli.common import MAX_JOBS  # noqa: E402
from bgcli.cli.positions import MAX_LINE, BadLine, batch_lines, run_batch_parallel  # noqa: E402
from bgcli.output import OutputError, write_atomically, write_text  # noqa: E402

from conftest import ROOT, ctrl_c_as_a_terminal_gives, invoke  # noqa: E402
# the opponent has a checker on the bar: the board's first number is negative
BAR_BOARD = "-1 -1 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 0"


run = invoke


def bgcli(*args, **kwargs):
    """The real program, in its own process (exit statuses, signals, pipes)."""
    return subprocess.run([sys.executable, "-m", "bgcli", *args], capture_output=True, cwd=ROOT, **kwargs)


def error_line(result) -> str:
    lines = result.output.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output[:500]
    assert len(lines[0]) <= MESSAGE_LIMIT + 10, lines[0][:500]
    return lines[0]


@pytest.mark.parametrize("dice, wrong", [(["3"], "'3'"), (["71"], "'71'"), (["7", "1"], "'7 1'"), (["３１"], "'３１'")])
def test_moves_with_wrong_dice_says_the_dice_are_wrong(dice, wrong):
    for position in ("start", "4HPwATDgc/ABMA", START_XGID, START_BOARD):
        result = run("moves", *position.split(), *dice)
        assert result.exit_code == 1
        assert error_line(result).startswith(f"Error: invalid dice {wrong}")


def test_moves_still_names_a_wrong_position():
    assert "invalid position 'nonsense'" in error_line(run("moves", "nonsense", "31"))
    assert "invalid position 'start hello'" in error_line(run("moves", "start", "hello"))


def test_a_board_starting_with_a_negative_number_is_not_an_option():
    position = Position.from_board26([int(n) for n in BAR_BOARD.split()])
    expected = {p.result_id() for p in legal_plays(position, (3, 1))}
    for words in (BAR_BOARD.split(), ["--"] + BAR_BOARD.split(), ["--json"] + BAR_BOARD.split()):
        result = run("moves", "--json", *words, "31")
        assert result.exit_code == 0, result.output
        assert {p["position_id"] for p in json.loads(result.output)["plays"]} == expected
    assert run("show", BAR_BOARD).exit_code == 0
    assert run("show", "--", BAR_BOARD).exit_code == 0
    assert run("check", BAR_BOARD, "31", "8/5", "6/5").exit_code == 0
    assert run("convert", "--to", "xgid", BAR_BOARD).output.startswith("XGID=a")


def test_unknown_options_are_still_refused():
    for args in (["moves", "start", "31", "--jsno"], ["show", "--svgg", "start"], ["convert", "--to", "xgid", "-x", "start"]):
        result = run(*args)
        assert result.exit_code == 2 and "No such option" in result.output, result.output


def test_moves_help_tells_about_negative_numbers():
    assert "negative" in run("moves", "--help").output


@pytest.mark.parametrize("args", [["--batch", "-"], ["--batch", "--jobs", "2", "-"], ["--batch=-"], ["-j", "2", "--batch", "-"]])
def test_batch_spellings(args):
    result = run("moves", *args, input="start 31\n4HPwATDgc/ABMA 66\n")
    assert result.exit_code == 0, result.output
    expected = [len(legal_plays(Position.start(), dice)) for dice in ((3, 1), (6, 6))]
    assert [len(json.loads(line)["plays"]) for line in result.output.splitlines()] == expected


def test_batch_usage_errors():
    assert run("moves", "--batch", "a", "b").exit_code == 2
    assert run("moves", "--batch", "x", "start").exit_code == 2
    result = run("moves", "--batch", str(ROOT / "no-such-file.txt"))
    assert result.exit_code == 2 and "cannot read" in error_line(result)


@pytest.mark.parametrize("jobs", ["0", "65", "-3", "99999999999999999999", "9" * 5000])
def test_jobs_is_checked(jobs):
    result = run("moves", "--batch", "--jobs", jobs, "-", input="start 31\n")
    assert result.exit_code == 2 and "--jobs" in result.output and "Traceback" not in result.output
    assert MAX_JOBS == 64


BAD_LINES = b"start 31\n\xff\xfe 31\nstart 66\r\nstart\xe2\x80\xa831\nstart 3\n\xc3\n4HPwATDgc/ABMA 21"


def _batch_objects(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines()]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_each_bad_batch_line_gets_its_own_error_and_the_rest_go_on(jobs):
    result = CliRunner().invoke(cli, ["moves", "--batch", "-", "--jobs", jobs], input=BAD_LINES)
    objects = _batch_objects(result.output)
    assert len(objects) == 7 and result.exit_code == 1
    assert ["plays" in o for o in objects] == [True, False, True, False, False, False, True]
    assert "not UTF-8" in objects[1]["error"] and "line 2" in objects[1]["error"]
    assert "line 4: invalid position" in objects[3]["error"]  # U+2028 separates neither lines nor words
    assert "line 5: invalid dice '3'" in objects[4]["error"]
    assert "not UTF-8" in objects[5]["error"]


def test_parallel_batch_reads_bad_lines_in_every_chunk(capsys):
    lines = list(batch_lines(io.BytesIO((BAD_LINES + b"\n") * 3)))
    assert sum(isinstance(line, BadLine) for line in lines) == 6
    status = run_batch_parallel(lines, "gnubg", jobs=3, chunk=2)
    objects = _batch_objects(capsys.readouterr().out)
    assert status == 1 and len(objects) == 21
    assert [("error" in o) for o in objects] == [False, True, False, True, True, True, False] * 3
    assert all(o["error"].startswith(f"line {i + 1}:") for i, o in enumerate(objects) if "error" in o)


def test_lines_are_split_on_newline_only():
    lines = list(batch_lines(io.BytesIO("a\rb\r\nc\u2028d\x85e\x0cf\n\ng".encode())))
    assert lines[1:] == ["c\u2028d\x85e\x0cf", "", "g"]
    # a carriage return inside a line (lines separated by CR alone) is an error for the line, not the first part
    assert isinstance(lines[0], BadLine) and "carriage return" in lines[0].error and not lines[0].last


@pytest.mark.parametrize("text", ["4HPwATDgc/ABMA 4HPwATDgc/ABMA", "4HPwATDgc/ABMA\r4HPwATDgc/ABMA",
                                  "4HPwATDgc/ABMA:cAkAAAAAAAAA 4HPwATDgc/ABMA"])
@pytest.mark.parametrize("command", [["analyze", "--batch", "-"], ["convert", "--to", "xgid", "-"]], ids=" ".join)
def test_two_positions_on_one_line_are_an_error_for_the_line(command, text):
    result = run(*command, input=f"start\n{text}\nstart\n")
    assert result.exit_code == 1
    assert "line 2: " in result.output and ("2 position IDs" in result.output or "carriage return" in result.output)
    assert result.output.count("line 1") == 0 and result.output.count("line 3") == 0


def test_an_over_long_line_ends_the_batch_with_one_error():
    data = b"start 31\n" + b"x" * (MAX_LINE + 10) + b"\nstart 66\n"
    result = CliRunner().invoke(cli, ["moves", "--batch", "-"], input=data)
    objects = _batch_objects(result.output)
    assert result.exit_code == 2 and len(objects) == 2
    assert "line 2: longer than 1,048,576 bytes" in objects[1]["error"]
    # a line of exactly the limit is read
    exact = b"start 31" + b" " * (MAX_LINE - 8) + b"\n"
    assert list(batch_lines(io.BytesIO(exact))) == [exact[:-1].decode()]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("args", [["moves", "--batch", "/dev/zero"], ["moves", "--batch", "--jobs", "2", "/dev/zero"],
                                  ["convert", "--to", "xgid", "-"]])
def test_dev_zero_is_a_clear_error_within_seconds(args):
    start = time.perf_counter()
    with open("/dev/zero", "rb") as zero:
        done = bgcli(*args, stdin=zero, timeout=60)
    assert time.perf_counter() - start < 10
    assert done.returncode == 2
    # /dev/zero is NUL bytes: refused as binary data before any line is read (a text line over 1 MB is
    # test_an_over_long_line_ends_the_batch_with_one_error's)
    assert b"binary data, not lines of text" in done.stdout + done.stderr and b"Traceback" not in done.stderr
    assert len(done.stdout + done.stderr) < 500


def test_convert_bad_lines_error_on_stderr_and_an_empty_line():
    result = CliRunner().invoke(cli, ["convert", "--to", "posid", "-"], input=b"start\n\xff\nstart\r\n")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == ["4HPwATDgc/ABMA", "", "4HPwATDgc/ABMA"]
    assert result.stderr.strip() == "Error: line 2: not UTF-8 text (byte 1 of the line)"


@pytest.mark.parametrize("jobs", [3, 8, MAX_JOBS])
def test_no_more_processes_than_chunks(monkeypatch, capsys, jobs):
    import concurrent.futures

    started = []

    class Counting(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, max_workers=None, **kwargs):
            started.append(max_workers)
            super().__init__(max_workers=max_workers, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counting)
    assert run_batch_parallel(["start 31"] * 3, "gnubg", jobs=jobs, chunk=1) == 0
    assert run_batch_parallel(["start 31"] * 3, "gnubg", jobs=jobs, chunk=5) == 0  # one chunk: no pool
    assert started == [3]
    assert len(capsys.readouterr().out.splitlines()) == 6


# --- error messages quote input cut short ---------------------------------------------------

def test_huge_play_dice_and_position_give_short_error_lines():
    huge = "24/23 " * 200_000
    # a million 3s where the dice go are bad dice, 1 (test_front_door: the error names them)
    for args, status in ((["check", "start", "31", huge], 1), (["check", "start", "3" * 1_000_000, "24/21"], 1),
                         (["check", "x" * 1_000_000, "31", "24/21"], 1), (["moves", "start" * 200_000, "31"], 1),
                         (["show", "9 " * 500_000], 1)):
        start = time.perf_counter()
        result = run(*args)
        assert result.exit_code == status and time.perf_counter() - start < 2
        error_line(result)
    data = json.loads(run("check", "--json", "start", "31", huge).output)
    assert len(data["error"]) <= MESSAGE_LIMIT


# --- output: -o -, -o '', folders that do not exist, full disks, whole files ------------------

def test_show_output_dash_is_standard_output():
    assert run("show", "-o", "-", "start").output == run("show", "start").output


def test_show_output_empty_name_is_a_usage_error():
    result = run("show", "-o", "", "start")
    assert result.exit_code == 2 and "empty" in result.output


def test_show_output_into_a_missing_folder(tmp_path):
    target = tmp_path / "nowhere" / "board.txt"
    result = run("show", "-o", str(target), "start")
    assert result.exit_code == 2
    assert "does not exist" in error_line(result)
    assert not target.parent.exists()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_show_output_to_a_full_disk():
    result = run("show", "-o", "/dev/full", "start")
    assert result.exit_code == 2
    assert "no space left" in error_line(result).lower()


def test_a_failed_write_leaves_the_old_file_and_no_other(tmp_path, monkeypatch):
    target = tmp_path / "board.txt"
    target.write_text("old board\n")

    def full(_descriptor):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    result = run("show", "-o", str(target), "start")
    assert result.exit_code == 2 and "no space left" in error_line(result).lower()
    assert target.read_text() == "old board\n"
    assert [p.name for p in tmp_path.iterdir()] == ["board.txt"]


def test_write_atomically_replaces_whole_files_and_keeps_links_and_modes(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomically(str(link), "new text\n")
    assert link.is_symlink() and target.read_text() == "new text\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.txt"
    old_umask = os.umask(0o027)
    try:
        write_atomically(str(fresh), "x")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o640
    with pytest.raises(OutputError, match="is a folder"):
        write_atomically(str(tmp_path), "x")
    with pytest.raises(OutputError, match="empty"):
        write_text("", "x")
    if os.path.exists("/dev/null"):
        write_atomically("/dev/null", "gone")  # a device is written, not replaced
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.txt", "link.txt", "out.txt"]


# --- Ctrl-C and closed pipes, in real processes ----------------------------------------------------

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_exits_130_with_one_line(jobs):
    proc = subprocess.Popen([sys.executable, "-m", "bgcli", "moves", "--batch", "-", "--jobs", jobs], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=ctrl_c_as_a_terminal_gives)
    try:
        proc.stdin.write(b"start 31\n" * 5000)  # two chunks for the workers; then it waits for more
        proc.stdin.flush()
        time.sleep(3)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert err.decode().splitlines() == ["Error: interrupted"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_closed_pipe_exits_quietly_with_141(tmp_path, jobs):
    batch = tmp_path / "many.txt"
    batch.write_text("start 31\n" * 20_000)
    proc = subprocess.Popen([sys.executable, "-m", "bgcli", "moves", "--batch", str(batch), "--jobs", jobs], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b'{"position_id"')
    proc.stdout.close()  # as `| head -1` does
    try:
        _, err = proc.communicate(timeout=60)   # a hang at exit fails here rather than hanging the suite
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == 141
    assert err == b""


def test_usage_errors_and_bad_input_keep_their_statuses_in_the_real_program():
    assert bgcli("moves", "start", "31").returncode == 0
    assert bgcli("moves", "start", "3").returncode == 1
    done = bgcli("moves", "--jobs", "0", "start", "31")
    assert done.returncode == 2 and b"Usage:" in done.stderr
    assert bgcli("--version").returncode == 0 and bgcli("moves", "--help").returncode == 0


def test_moves_on_the_common_forms_does_not_load_lark():
    """Start-up time: the fast paths of positions and plays, and writing plays, need no parser."""
    code = ("import sys; from bgcli.cli.positions import moves_json; from bgcli.core.ids import parse_position; "
            "from bgcli.core.notation import parse_play_text; "
            "moves_json(parse_position('4HPwATDgc/ABMA'), (3, 1), 'gnubg'); parse_play_text('61: 13/7 8/7'); "
            "print('lark' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == b"False"
    assert parse_play_text("13/7, 8/7") == parse_play_text("13/7 8/7")  # the grammar path still works


# --- hypothesis: generated batch input and grammar text with hostile numbers -------------------

_LINE_PIECES = st.sampled_from([
    b"start", b"31", b"3", b"66", b"4HPwATDgc/ABMA", b" ", b"\t", b"\r", b"\xff", b"\xc3", b"\xe2\x80\xa8",
    b"\xef\xbc\x91", b"-1", b"9" * 40, START_XGID.encode(), START_BOARD.encode(), b"XGID=", b"board:", b":", b",",
])


@FAST
@given(st.lists(st.lists(_LINE_PIECES, max_size=6).map(b"".join), min_size=1, max_size=8))
def test_generated_batch_lines_give_one_json_object_each(lines):
    data = b"\n".join(lines) + b"\n"
    out = io.StringIO()
    from bgcli.cli.positions import run_batch

    status = run_batch(batch_lines(io.BytesIO(data)), "gnubg", out=out)
    objects = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(objects) == len(lines) and status in (0, 1)
    for number, obj in enumerate(objects, 1):
        assert ("plays" in obj) != ("error" in obj)
        if "error" in obj:
            assert obj["error"].startswith(f"line {number}: ") and len(obj["error"]) <= MESSAGE_LIMIT + 20


@settings(deadline=None, max_examples=100, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_grammar_text_with_hostile_numbers_gives_only_short_position_errors(data):
    from hypothesis.extra.lark import from_lark

    from bgcli import grammar

    hostile_int = st.one_of(st.integers(-40, 40).map(str), st.sampled_from(["9" * 5000, "-" + "0" * 5000 + "7", "+99999999"]))
    explicit = {
        "INT": hostile_int,
        "XG_POS": st.sampled_from([START_XGID[5:31], "-" * 26, "a" * 26]),
        "XG_DICE": st.sampled_from(["00", "52", "D"]),
        "NAME": st.text(alphabet="ab_", min_size=1, max_size=4),
        "WORD": st.text(alphabet="ab:", min_size=1, max_size=4),
        "POSITION_ID": st.just("4HPwATDgc/ABMA"),
        "MATCH_ID": st.just("cAkAAAAAAAAA"),
        "GNUBG_ID": st.just("4HPwATDgc/ABMA:cAkAAAAAAAAA"),
    }
    text = data.draw(from_lark(grammar.parser("position"), explicit=explicit))
    try:
        parse_position(text)
    except InvalidPositionError as exc:
        one_short_line(exc)


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout")
def test_show_output_to_dev_stdout_writes_the_device():
    done = bgcli("show", "-o", "/dev/stdout", "start")
    assert done.returncode == 0 and done.stdout == bgcli("show", "start").stdout and done.stdout


# Snowie's text position files (bgcli/formats/snowietxt.py): any 40 fields are a position or one short error
_SNOWIE_FIELD = st.one_of(st.integers(-10 ** 12, 10 ** 12).map(str), st.text(max_size=12), st.just(""))


@settings(max_examples=300)
@given(st.lists(_SNOWIE_FIELD, min_size=0, max_size=45))
def test_any_snowie_fields_are_a_position_or_one_short_error(fields):
    from bgcli.errors import MatchFileError
    from bgcli.formats.snowietxt import parse

    try:
        parse(";".join(fields))
    except MatchFileError as exc:
        assert len(str(exc)) < 300 and "\n" not in str(exc)


@settings(max_examples=200)
@given(st.integers(0, 39), st.integers(-40, 40))
def test_one_snowie_field_changed_is_a_position_or_one_short_error(index, value):
    from bgcli.errors import MatchFileError
    from bgcli.formats.snowietxt import parse

    fields = "5;0;0;0;1;beta;alpha;0;0;0;4;1;0;0;1;3;3;2;3;1;0;0;0;0;0;0;0;0;0;0;0;0;0;1;1;0;0;1;5;4".split(";")
    fields[index] = str(value)
    try:
        parse(";".join(fields))
    except MatchFileError as exc:
        assert len(str(exc)) < 300 and "\n" not in str(exc)


@pytest.mark.parametrize("command", ["moves", "show", "hint"])
@pytest.mark.parametrize("words, extra", [
    (["4HPwATDgc/ABMA", "31", "66"], "'31'"),                      # a roll typed twice: never the second silently
    (["4HPwATDgc/ABMA", "31", "extra"], "'31 extra'"),
    (["4HPwATDgc/ABMA:cAkAAAAAAAAA", "31", "66"], "'31'"),
    (["start", "31", "extra"], "'31 extra'"),   # a word, not an ID: it said 'no valid position id in the text'
    (["start", "31", "66"], "'31'"),
])
def test_words_after_a_whole_position_are_an_error_not_dropped(command, words, extra):
    """A position its first word gives whole, then words that are neither its dice nor its Match ID:
    one line naming them (they were passed over as the words around an ID in pasted text, and the
    dice taken from the last word)."""
    result = run(command, *words)
    assert result.exit_code == 1, result.output
    line = error_line(result)
    assert "is a whole position" in line and extra in line, line


@pytest.mark.parametrize("command", ["moves", "show"])
def test_a_word_after_an_xgid_is_an_error(command):
    """An XGID's grammar has no room for words around it: the word is named at its column."""
    line = error_line(run(command, START_XGID, "31", "66"))
    assert "'31'" in line, line


def test_a_position_id_then_its_match_id_is_still_one_position():
    """gnubg prints the two IDs side by side: a Position ID, then a Match ID, then the dice."""
    with_match = run("moves", "4HPwATDgc/ABMA", "cAkAAAAAAAAA", "31")
    alone = run("moves", "4HPwATDgc/ABMA", "31")
    assert with_match.exit_code == 0 and with_match.output == alone.output != ""


@pytest.mark.parametrize("link", ["loop", "dangling"])
@pytest.mark.parametrize("command", [["moves", "{p}", "31"], ["check", "{p}", "31", "8/5 6/5"], ["show", "{p}"],
                                     ["analyze", "{p}"], ["convert", "--to", "xgid", "{p}"], ["hint", "{p}", "31"]])
def test_a_link_that_names_no_file_is_said_so_where_a_position_goes(tmp_path, command, link):
    """A loop of links or a link to nothing where a position goes was read as a Position ID: 'a Position ID has
    14 characters (...), this has 16', status 1; now the file it names cannot be read, status 2."""
    import errno
    import os

    path = tmp_path / f"{link}.xgp"
    if link == "loop":
        os.symlink(tmp_path / "other", path)
        os.symlink(path, tmp_path / "other")
    else:
        os.symlink(tmp_path / "gone.xgp", path)
    path = tmp_path / link   # without the suffix a position file's name has: read as a position first
    os.symlink(tmp_path / f"{link}.xgp", path)
    result = invoke(*[a.format(p=path) for a in command])
    assert result.exit_code == 2, result.output
    reason = os.strerror(errno.ELOOP if link == "loop" else errno.ENOENT)
    assert result.stderr == f"Error: cannot read {path}: {reason}\n"
