"""The C accelerator (bgcli/core/_speedups.c, built by ``pip install .`` and
``pip install -e .`` where a C compiler works) gives exactly what the pure
Python code gives.

Each C function is compared with the Python function it mirrors, kept
importable beside it: ``legal_keys`` with ``_generate_keys`` (the same keys,
the same raw pairs for each, in the same insertion order), ``query_ids``
with ``_encode_result_ids``, ``moves_line`` (its texts kept in a ``Texts``) with
``MovesWriter.line_of_keys``,
``query_line`` with run_moves' Python reading of a line of a Position ID and
dice, and ``parse_id`` with ``_decode_position_id``; on every query of gnubg's
oracle sample and on random legal positions (the bar, bear-offs, checkers
off on both sides) with every roll. Where a C compiler works the developer
install has the accelerator, so these tests run (a test checks it); with
BGCLI_PURE=1 (.ci/run's second run of the suite, the reference) they skip.
"""
from __future__ import annotations

import binascii
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bgcli
import bgcli.cli.batch as batch
from bgcli.core import generator, position
from bgcli.cli.batch import MovesWriter
from bgcli.core.position import Position, _decode_position_id, trusted_position
from bgcli.errors import InvalidPositionError

from conftest import ORACLE, committed

speedups = generator.accelerator
needs_speedups = pytest.mark.skipif(
    speedups is None, reason="the C accelerator bgcli.core._speedups is not built here (pip install -e . builds it "
    "where a C compiler works)" if os.environ.get("BGCLI_PURE") in (None, "", "0") else "BGCLI_PURE is set")

STYLES = ["gnubg", "korean", "mat", "fibs"]
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def oracle_queries() -> list[tuple[Position, tuple[int, int]]]:
    records = [json.loads(line) for line in committed(ORACLE / "legal_sample.jsonl").read_text().splitlines()]
    return [(_decode_position_id(r["position_id"]), tuple(r["dice"])) for r in records]


def c_keys(where: Position, dice) -> dict:
    return speedups.legal_keys(where.player, where.opponent, max(dice), min(dice))


def agree(where: Position, dice, writers: dict) -> None:
    """C and Python agree on one query: plays, IDs and every style's line."""
    pure = generator._generate_keys(where, dice)
    fast = c_keys(where, dice)
    assert list(fast.items()) == list(pure.items()), (where, dice)  # keys, raw pairs and their order
    assert generator.legal_keys(where, dice) == fast
    keys = sorted(pure)
    assert speedups.query_ids(where.player, where.opponent, keys, None) == generator._encode_result_ids(where, keys)
    assert speedups.query_ids(bytes(where.player), bytes(where.opponent), keys, "OWN") == \
        generator._encode_result_ids(where, keys, "OWN")
    for (style, side), (c_writer, py_writer) in writers.items():
        for own in (None, where.id()):
            assert c_writer.line(where, dice, own) == py_writer.line_of_keys(where, dice, own), (style, side, where, dice)


def fresh_writers() -> dict:
    return {(style, side): (MovesWriter(style, side), MovesWriter(style, side)) for style in STYLES for side in (0, 1)}


@needs_speedups
def test_the_build_names_the_accelerator():
    assert bgcli.speedups and bgcli.build.endswith("with the C accelerator")
    assert batch._moves_line is speedups.moves_line


@needs_speedups
def test_c_and_python_agree_on_the_oracle_queries():
    writers = fresh_writers()
    for where, dice in oracle_queries():
        agree(where, dice, writers)
        assert speedups.parse_id(where.id()) == (where.player, where.opponent)


@needs_speedups
def test_the_line_agrees_when_the_texts_kept_are_dropped(monkeypatch):
    """A writer keeps at most MAX_FRAGMENTS texts, then starts again from none: in C as in Python."""
    monkeypatch.setattr(batch, "MAX_FRAGMENTS", 3)
    writers = fresh_writers()
    sizes = set()
    for where, dice in oracle_queries()[:300]:
        for (style, side), (c_writer, py_writer) in writers.items():
            assert c_writer.line(where, dice) == py_writer.line_of_keys(where, dice)
            sizes.add(len(c_writer.texts))
    assert sizes == {1, 2, 3}


@needs_speedups
def test_texts_are_kept_by_their_steps_and_hits():
    """The C line asks for a play's text once, then finds it again: by its raw pairs and its hit marks."""
    asked = []

    def text(where, key, moves):
        asked.append((moves, key >> 208))
        return f'"}}, {{"play": "{moves}", "position_id": "'

    texts = speedups.Texts(100_000)
    for where, dice in oracle_queries()[:200]:
        line = speedups.moves_line(texts, text, where, dice, None)
        keys = sorted(generator._generate_keys(where, dice).items())
        assert [json.loads(line)["plays"][i]["play"] for i in range(len(keys))] == [str(moves) for _, moves in keys]
    assert len(asked) == len(set(asked)) == len(texts)
    texts.clear()
    assert len(texts) == 0


@st.composite
def positions(draw) -> Position:
    """A legal position: checkers anywhere (the bar and off included), or the mover's all home, or all off
    but a few; the opponent's on points the mover does not hold."""
    region = draw(st.sampled_from(["anywhere", "home", "mostly off"]))
    slots = {"anywhere": st.integers(0, 25), "home": st.integers(0, 6),
             "mostly off": st.sampled_from([0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 25])}[region]
    player = [0] * 26
    for slot in draw(st.lists(slots, min_size=15, max_size=15)):
        player[slot] += 1
    # the opponent's point q is the mover's 25 - q; off (0) and the bar (25) are always free
    free = [q for q in range(26) if q in (0, 25) or not player[25 - q]]
    theirs = st.sampled_from(free) if draw(st.booleans()) else st.sampled_from([q for q in free if q < 7 or q == 25])
    opponent = [0] * 26
    for slot in draw(st.lists(theirs, min_size=15, max_size=15)):
        opponent[slot] += 1
    return Position(tuple(player), tuple(opponent)).validated()


# kept across examples, so the C line meets both hits and misses of the caches; two styles, one not ASCII
_WRITERS = {key: pair for key, pair in fresh_writers().items() if key in (("gnubg", 1), ("korean", 0))}


@needs_speedups
@settings(max_examples=300)
@given(positions())
def test_c_and_python_agree_on_random_positions_and_every_roll(where):
    for dice in ROLLS:
        agree(where, dice, _WRITERS)
    assert speedups.parse_id(where.id()) == (where.player, where.opponent)


@needs_speedups
@settings(max_examples=400)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/ -=é", min_size=12, max_size=16))
def test_parse_id_reads_what_the_python_code_reads(text):
    """A valid ID gives the sides the Python code gives; anything else None, which the Python code then refuses."""
    sides = speedups.parse_id(text)
    try:
        expected = _decode_position_id(text)
    except InvalidPositionError:
        assert sides is None
        with pytest.raises(InvalidPositionError):
            position.parse_position_id(text)
        return
    if sides is None:  # white space around an ID: the Python code strips it
        assert text.strip() != text
    else:
        assert sides == (expected.player, expected.opponent)
    assert position.parse_position_id(text) == expected


def python_query_line(writer: MovesWriter, line: str) -> str | None:
    """What run_moves' Python loop writes for a batch line of a Position ID and dice, or None for any other line."""
    found = batch.ID_AND_DICE_LINE(line)
    if found is None:
        return None
    try:
        where = _decode_position_id(found[1])
    except InvalidPositionError:
        return None
    own = found[1] if found[1][13] in "AQgw" else None
    return writer.line_of_keys(where, batch._ROLLS[found.group(2, 3)], own)


def c_query_line(writer: MovesWriter, line: str) -> str | None:
    return speedups.query_line(writer.texts, writer._text, position.trusted_position, line)


@needs_speedups
def test_query_line_answers_the_oracle_lines_as_run_moves_does():
    c_writer, py_writer = MovesWriter("gnubg", 1), MovesWriter("gnubg", 1)
    for where, (a, b) in oracle_queries():
        for line in (f"{where.id()} {a}{b}", f" \t{where.id()}  {b}-{a} ", f"{where.id()}\t{a} {b}\f"):
            assert c_query_line(c_writer, line) == python_query_line(py_writer, line), line


_BLANKS = st.sampled_from(["", " ", "\t", "  ", "\f", "\r", "\n", "é", "\u3131"])


@st.composite
def query_lines(draw) -> str:
    """Lines near the shape of a Position ID and dice: most of them that shape, some a character off."""
    pid = draw(st.one_of(positions().map(Position.id), st.text(alphabet="ABCgw+/09Qxz-é ", min_size=13, max_size=15)))
    dice = draw(st.sampled_from(["31", "3-1", "3 1", "3,1", "3/1", "3x1", "66", "3  1", "3- 1", "7 1", "3", "311", "3*1"]))
    return draw(_BLANKS) + pid + draw(st.sampled_from([" ", "\t ", "", "x"])) + dice + draw(_BLANKS)


_QUERY_WRITERS = (MovesWriter("korean", 1), MovesWriter("korean", 1))


@needs_speedups
@settings(max_examples=400)
@given(query_lines())
def test_query_line_reads_what_the_id_and_dice_line_reads(line):
    """An answer exactly where run_moves' regular expression reads a valid Position ID and dice, and the same one."""
    c_writer, py_writer = _QUERY_WRITERS
    assert c_query_line(c_writer, line) == python_query_line(py_writer, line)


@needs_speedups
def test_run_moves_answers_its_id_and_dice_lines_in_c(monkeypatch):
    """The batch's common line goes through query_line; any other line, or a bad ID, the Python way."""
    asked = []

    class Counting:
        def __getattr__(self, name):
            return getattr(speedups, name)

        @staticmethod
        def query_line(*args):
            answer = speedups.query_line(*args)
            asked.append(answer is not None)
            return answer

    monkeypatch.setattr(batch, "_speedups", Counting())
    start = Position.start().id()
    lines = [f"{start} 31", f"{start} 3 1", "start 31", "////////////// 31", "# a comment", f"{start} 7 1"]
    out = io.StringIO()
    batch.run_moves(lines, "gnubg", out=out)
    assert asked == [True, True, False, False, False, False]
    written = [json.loads(line) for line in out.getvalue().splitlines()]
    assert written[0] == written[1] == written[2] and written[0]["position_id"] == start
    assert "error" in written[3] and "error" in written[4] and len(written) == 5


@needs_speedups
def test_bad_input_is_refused_not_read_out_of_bounds():
    start = Position.start()
    with pytest.raises(ValueError, match="26 counts"):
        speedups.legal_keys(start.player[:25], start.opponent, 3, 1)
    with pytest.raises(ValueError, match="26 counts"):
        speedups.legal_keys(start.player, bytes(27), 3, 1)
    with pytest.raises(ValueError, match="0 to 15"):
        speedups.legal_keys((16,) + (0,) * 25, start.opponent, 3, 1)
    with pytest.raises(TypeError):
        speedups.legal_keys(iter(start.player), start.opponent, 3, 1)
    with pytest.raises(TypeError, match="int counts"):
        speedups.legal_keys((1.0,) * 26, start.opponent, 3, 1)
    assert speedups.legal_keys(list(start.player), bytes(start.opponent), 3, 1) == c_keys(start, (3, 1))
    for high, low in ((7, 1), (3, 0), (True, 1)):
        with pytest.raises(ValueError, match="dice"):
            speedups.legal_keys(start.player, start.opponent, high, low)
    writer = MovesWriter("gnubg", 1)
    for dice in ((7, 1), (3, 0), (3,), [3, 1]):
        with pytest.raises(ValueError, match="dice"):
            speedups.moves_line(writer.texts, writer._text, start, dice, None)
    with pytest.raises(TypeError):
        speedups.query_ids(start.player, start.opponent, ["key"], None)
    with pytest.raises(OverflowError):
        speedups.query_ids(start.player, start.opponent, [1 << 300], None)
    with pytest.raises(ValueError, match="no checker"):  # a hit mark where the opponent has none
        speedups.query_ids(start.player, start.opponent, [generator.side_int(start.player) | 1 << (208 + 3)], None)


@needs_speedups
def test_a_failing_text_is_the_lines_error():
    start = Position.start()

    def broken(where, key, moves):
        raise RuntimeError("no text")

    texts = speedups.Texts(10)
    with pytest.raises(RuntimeError, match="no text"):
        speedups.moves_line(texts, broken, start, (3, 1), None)
    with pytest.raises(TypeError, match="fragment"):
        speedups.moves_line(texts, lambda where, key, moves: 42, start, (3, 1), None)
    with pytest.raises(TypeError, match="Texts"):
        speedups.moves_line({}, broken, start, (3, 1), None)
    with pytest.raises(ValueError, match="limit"):
        speedups.Texts(0)
    assert len(texts) == 0


@needs_speedups
def test_bgcli_pure_leaves_the_accelerator_unused(tmp_path):
    done = subprocess.run([sys.executable, "-c", "import bgcli, bgcli.cli.batch as b; "
                           "print(bgcli.build, bgcli.speedups, b._moves_line)"],
                          env={**os.environ, "BGCLI_PURE": "1"}, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == (["compiled", "(mypyc)"] if bgcli.compiled else ["pure", "Python"]) + ["False", "None"]


def c_compiler() -> str | None:
    """The C compiler a build here would use (Python's own CC, as setuptools takes it), if it is on the PATH."""
    words = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return shutil.which(words[0]) if words else None


def test_the_accelerator_is_used_wherever_a_compiler_can_build_it():
    """The default install builds the accelerator where a C compiler works, so a
    developer's run of the suite compares C with Python (the tests above run);
    BGCLI_PURE=1 leaves it unused, and nothing but the accelerator is loaded then."""
    pure = os.environ.get("BGCLI_PURE", "").strip().lower() not in ("", "0", "no", "false")
    if pure:
        assert (bgcli.speedups, generator.accelerator, batch._moves_line) == (False, None, None)
        return
    if c_compiler() is None:
        pytest.skip("no C compiler here: the install is pure Python, as it should be")
    assert not position.speedups_stale, f"{bgcli.build}: the accelerator was built from an older _speedups.c"
    assert bgcli.speedups, ("a C compiler is here but the accelerator is not built: pip install -e '.[test]' "
                            "builds it (or set BGCLI_PURE=1 for the pure Python reference)")


def test_an_accelerator_older_than_its_source_is_not_used(tmp_path, monkeypatch):
    """A module built in place (an editable install) carries the digest of the
    _speedups.c it was built from; after an edit of that file it is left unused
    (and ``bgcli --version`` says why), not trusted to mirror code it never saw."""
    source = tmp_path / "_speedups.c"
    source.write_bytes(b"/* the C source */\n")
    digest = format(binascii.crc32(source.read_bytes()), "08x")
    built = types.ModuleType("bgcli.core._speedups")
    built.__file__ = str(tmp_path / "_speedups.so")
    monkeypatch.setitem(sys.modules, "bgcli.core._speedups", built)
    monkeypatch.setattr(bgcli.core, "_speedups", built, raising=False)  # where `from bgcli.core import` looks first
    monkeypatch.delenv("BGCLI_PURE", raising=False)
    monkeypatch.setattr(position, "speedups_stale", False)
    built.source_digest = digest
    assert position._load_speedups() is built and not position.speedups_stale
    source.write_bytes(b"/* the C source, edited */\n")
    assert position._load_speedups() is None and position.speedups_stale
    # a wheel carries no source: the module is taken as built
    source.unlink()
    assert position._load_speedups() is built


# --- sides that are no backgammon position (untrusted input, round three) ------------------------

@st.composite
def crowded_sides(draw) -> Position:
    """Sides of 0 to 30 checkers on the points and bar (a count 0 to 15 a slot, up to 16 on one), no
    point held by both: mostly more than 15 on a side, which no Position ID holds as such."""
    player, opponent = [0] * 26, [0] * 26
    for slot in draw(st.lists(st.integers(1, 25), max_size=30)):
        player[slot] += player[slot] < 15
    for slot in draw(st.lists(st.sampled_from([q for q in range(1, 26) if q == 25 or not player[25 - q]]), max_size=30)):
        opponent[slot] += opponent[slot] < 15
    if draw(st.integers(0, 9)) == 0:   # a slot of 16, which the C reader refuses first
        player[draw(st.integers(1, 25))] = 16
    return trusted_position(tuple(player), tuple(opponent))


def query_ids_outcome(ask):
    try:
        return ask()
    except ValueError as exc:
        return type(exc), str(exc)


@needs_speedups
@settings(max_examples=300)
@given(crowded_sides(), st.sampled_from(ROLLS))
def test_c_and_python_query_ids_agree_on_sides_of_more_than_15(where, dice):
    # C refused a side of more than 15 checkers and Python gave IDs (of other positions, or cut short):
    # now both refuse, in the same words, and agree on everything else
    keys = sorted(generator._generate_keys(where, dice))
    pure = query_ids_outcome(lambda: generator._encode_result_ids(where, keys))
    fast = query_ids_outcome(lambda: speedups.query_ids(where.player, where.opponent, keys, None))
    assert fast == pure, (where.player, where.opponent, dice)
    crowded = max(sum(where.player[1:]), sum(where.opponent[1:])) > 15
    assert crowded == (pure[0] is ValueError)


def test_query_ids_refuses_a_side_of_more_than_15_checkers():
    crowded = trusted_position((0,) + (0,) * 5 + (15, 1) + (0,) * 18, (0,) * 19 + (15,) + (0,) * 6)
    with pytest.raises(ValueError, match="player on roll has 16 checkers, more than 15"):
        generator.query_ids(crowded, sorted(generator._generate_keys(crowded, (2, 1))))
    with pytest.raises(ValueError, match="opponent has 16 checkers, more than 15"):
        generator.query_ids(crowded.swap(), [])


PAIRS = st.lists(st.tuples(st.integers(0, 25), st.integers(0, 25)), max_size=4)


def python_text(moves, hits, style="gnubg", side=1):
    """notation.canonical_text's Python body, the C play_text out of the way."""
    from bgcli.core import notation

    kept, notation._play_text_in_c = notation._play_text_in_c, None
    try:
        return notation.canonical_text(moves, hits, style, side)
    finally:
        notation._play_text_in_c = kept


@needs_speedups
@settings(max_examples=500)
@given(pairs=PAIRS, hits=st.integers(0, (1 << 26) - 1), style=st.sampled_from(["gnubg", "korean"]), side=st.integers(0, 1))
def test_play_text_writes_what_canonical_text_writes(pairs, hits, style, side):
    """The C play_text against its owner, notation.canonical_text (its Python body): the same
    text for any raw pairs and hit marks in gnubg's point names; None for names not ASCII
    (Korean), which the Python body writes."""
    from bgcli.core import notation

    moves = tuple(point for pair in pairs for point in pair)
    names = notation.point_names(style, side)
    expected = python_text(moves, hits, style, side)
    found = speedups.play_text(moves, hits, names)
    assert found == (None if style == "korean" else expected)
    assert notation.canonical_text(moves, hits, style, side) == expected


@needs_speedups
@settings(max_examples=150)
@given(positions())
def test_play_text_writes_the_generators_plays_as_canonical_text_does(where):
    """The same on the plays the generator makes (their raw pairs and hit marks), every roll."""
    from bgcli.core import notation

    names = notation.point_names("gnubg", 1)
    for dice in ROLLS:
        for key, moves in generator.legal_keys(where, dice).items():
            hits = key >> generator.BOARD_BITS
            assert speedups.play_text(moves, hits, names) == python_text(moves, hits)


@needs_speedups
@settings(max_examples=150)
@given(positions(), st.sampled_from([("gnubg", 0), ("gnubg", 1), ("korean", 1)]))
def test_the_c_line_writes_new_play_texts_as_the_python_writer_does(where, style_side):
    """A writer of a canonical_text style gives its Texts the point names, and the C line writes
    the plays it has no text of with play_text, not through _text: the same lines as the Python
    writer's with canonical_text's Python body (the C play_text out of the way), every roll."""
    from bgcli.core import notation

    style, side = style_side
    c_writer, py_writer = MovesWriter(style, side), MovesWriter(style, side)
    asked = []
    c_text = c_writer._text
    c_writer._text = lambda *args: asked.append(args) or c_text(*args)
    kept, notation._play_text_in_c = notation._play_text_in_c, None
    try:
        for dice in ROLLS:
            assert c_writer.line(where, dice) == py_writer.line_of_keys(where, dice), (where, dice)
    finally:
        notation._play_text_in_c = kept
    assert (asked == []) == (style == "gnubg")   # Korean's names are not ASCII: _text writes them


@needs_speedups
def test_texts_take_point_names_or_none():
    from bgcli.core import notation

    assert len(speedups.Texts(10, notation.point_names("gnubg", 1))) == 0
    assert len(speedups.Texts(10, None)) == 0
    for names in (("1",) * 25, ["1"] * 26, "names"):
        with pytest.raises(ValueError, match="26 point names"):
            speedups.Texts(10, names)


# --- run_moves_stream: whole blocks of a batch's lines answered in C -------------------------------

_STREAM_LINES = st.one_of(
    query_lines(),
    st.sampled_from(["start 31", "# a comment", "", "   ", "4HPwATDgc/ABMA 7 1", "4HPwATDgc/ABMA 31 extra",
                     "////////////// 31", "4HPwATDgc/ABMA 64\r", "4HPwATDgc/ABMA\r 64", "4HPwATDgc/ABMA 52\r\r"]),
)


@st.composite
def batch_bytes(draw) -> bytes:
    """A batch's bytes: query lines and others, some not UTF-8, some long, the last one with or without its newline."""
    lines = [line.encode() for line in draw(st.lists(_STREAM_LINES, max_size=12))]
    for _ in range(draw(st.integers(0, 2))):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from([b"\xff\xfe 31", b"A" * 70, b" " * 45 + b"x"])))
    ending = draw(st.sampled_from([b"\n", b"\r\n"]))
    text = ending.join(lines)
    return text + ending if lines and draw(st.booleans()) else text


def moves_of(run) -> tuple[int, str]:
    out = io.StringIO()
    return run(out), out.getvalue()


@needs_speedups
@settings(max_examples=300)
@given(batch_bytes(), st.integers(1, 120), st.sampled_from([40, 60, 1 << 20]))
def test_run_moves_stream_writes_what_run_moves_writes(data, block, max_line):
    """run_moves_stream (C's query_lines a block at a time, run_moves for the other lines) writes what
    run_moves over batch_lines writes, and the same status: blocks that cut lines anywhere, lines longer
    than MAX_LINE (the rest not read), lines that are not UTF-8, carriage returns, a last line with no newline."""
    kept = batch.BLOCK, batch.MAX_LINE
    batch.BLOCK, batch.MAX_LINE = block, max_line
    try:
        # both read a stream that can peek, as a file or standard input does (the byte order mark is looked at)
        expected = moves_of(lambda out: batch.run_moves(batch.batch_lines(io.BufferedReader(io.BytesIO(data))),
                                                        "gnubg", 1, out))
        found = moves_of(lambda out: batch.run_moves_stream(io.BufferedReader(io.BytesIO(data)), "gnubg", out))
    finally:
        batch.BLOCK, batch.MAX_LINE = kept
    assert found == expected, data


@needs_speedups
def test_query_lines_answers_what_query_line_answers():
    """query_lines answers each whole line query_line answers, and stops at the first it does not."""
    writer = MovesWriter("gnubg", 1)
    lines = [f"{where.id()} {a}{b}" for where, (a, b) in oracle_queries()[:300]]
    data = ("\n".join(lines) + "\nstart 31\n" + lines[0] + "\n").encode()
    text, at, count = speedups.query_lines(writer.texts, writer._text, trusted_position, data, 0, len(data), 1 << 20)
    assert count == 300 and data[at:].startswith(b"start 31\n")
    assert text == "".join(c_query_line(writer, line) for line in lines)
    assert speedups.query_lines(writer.texts, writer._text, trusted_position, data, at, len(data), 1 << 20) == ("", at, 0)
    with pytest.raises(ValueError, match="start"):
        speedups.query_lines(writer.texts, writer._text, trusted_position, data, 5, 4, 10)
    with pytest.raises(TypeError, match="bytes"):
        speedups.query_lines(writer.texts, writer._text, trusted_position, data.decode(), 0, 4, 10)


@needs_speedups
def test_the_batch_before_click_answers_in_blocks(monkeypatch):
    """bgcli moves --batch - reads standard input through run_moves_stream."""
    import bgcli.cli as cli

    seen = []
    monkeypatch.setattr(batch, "run_moves_stream", lambda *args: seen.append(args) or 0)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"start 31\n")))
    assert cli._batch_before_click() == 0 and seen and seen[0][0] is sys.stdin.buffer


@needs_speedups
def test_query_lines_joins_lines_not_ascii_in_their_place():
    """Lines of ASCII are written into one text, a line that is not (Korean's point names) in its place."""
    for style in ("korean", "gnubg"):
        writer = MovesWriter(style, 1)
        lines = [f"{where.id()} {a}{b}" for where, (a, b) in oracle_queries()[:60]]
        data = ("\n".join(lines) + "\n").encode()
        text, at, count = speedups.query_lines(writer.texts, writer._text, trusted_position, data, 0, len(data), 1 << 20)
        assert (at, count) == (len(data), 60)
        assert text == "".join(c_query_line(MovesWriter(style, 1), line) for line in lines)
