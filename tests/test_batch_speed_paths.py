"""``bgcli moves --batch`` takes shortcuts for speed; each must write what the plain path writes.

- every line over gnubg's oracle sample, in every style, is
  ``json.dumps(moves_json(...), ensure_ascii=False)``, byte for byte;
- ``query_ids`` (the position's ID and every result's, at once) agrees with
  ``Position.id`` and ``Play.result_id``, and with gnubg's result IDs;
- a line of a Position ID and dice, read by a regular expression, gives what
  the words give (the same position, dice and errors);
- play texts looked up by the dice and the change of the mover's checkers
  (gnubg's layout) are the texts of the plays, over many more positions and
  random ones, and a full text cache that is emptied changes nothing;
- ``--jobs 2`` writes what one process writes.
"""
from __future__ import annotations

import contextlib
import io
import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bgcli.cli.batch as batch_module
from bgcli.cli import cli, moves_json, moves_json_line, run_batch, run_batch_parallel
from bgcli.cli.batch import WORD, position_and_dice
from bgcli.core.state import MatchState
from bgcli.errors import BgcliError
from bgcli.core.ids import parse_position
from bgcli.core.position import Position, parse_position_id
from bgcli.core.generator import _make_steps, legal_keys, legal_plays, query_ids
from bgcli.core.notation import _canonical_moves, canonical_text, play_text

from conftest import ORACLE as DATA, committed
from generated import any_positions

ORACLE = DATA / "legal_sample.jsonl"
STYLES = ["gnubg", "korean", "mat", "fibs"]


def oracle_records() -> list[dict]:
    with committed(ORACLE).open() as f:
        return [json.loads(line) for line in f]


def oracle_lines() -> list[str]:
    return [f"{r['position_id']} {r['dice'][0]}{r['dice'][1]}" for r in oracle_records()]


def expected_line(line: str, number: int, style: str) -> str:
    """What the plain path writes for one batch line: the words read as a
    position and dice, then json.dumps of moves_json, or the error."""
    words = WORD.findall(line)
    if not words:
        return json.dumps({"error": f"line {number}: empty line"}) + "\n"
    try:
        game, dice = position_and_dice(words)
        return json.dumps(moves_json(game, dice, style), ensure_ascii=False) + "\n"
    except BgcliError as exc:
        return json.dumps({"error": f"line {number}: {exc}"}, ensure_ascii=False) + "\n"


def batch(lines: list[str], style: str = "gnubg") -> list[str]:
    out = io.StringIO()
    run_batch(lines, style, out=out)
    return out.getvalue().splitlines(keepends=True)


# --- the oracle sample, golden ---------------------------------------------------

def test_the_command_over_the_oracle_writes_what_json_dumps_writes(tmp_path):
    lines = oracle_lines()
    source = tmp_path / "queries.txt"
    source.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["moves", "--batch", str(source)], catch_exceptions=False)
    assert result.exit_code == 0
    got = result.output.splitlines(keepends=True)
    assert len(got) == len(lines)
    for number, (line, written) in enumerate(zip(lines, got), 1):
        assert written == expected_line(line, number, "gnubg"), line


@pytest.mark.parametrize("style", STYLES)
def test_every_style_over_the_oracle_twice(style):
    """Twice: the second time every text comes from the cache."""
    lines = oracle_lines()
    expected = [expected_line(line, number, style) for number, line in enumerate(lines, 1)]
    assert batch(lines, style) == expected
    assert batch(lines, style) == expected


def test_query_ids_are_the_result_ids_and_gnubgs():
    for record in oracle_records():
        position = Position.from_id(record["position_id"])
        plays = legal_plays(position, record["dice"])
        keys = [play.key for play in plays]
        own, ids = query_ids(position, keys)
        assert own == position.id()
        assert ids == [play.result_id() for play in plays]
        assert sorted(ids) == sorted(play["result_id"] for play in record["plays"])
    start = Position.start()
    assert query_ids(start, []) == (start.id(), [])


# --- the shortcut past the words ---------------------------------------------------

LINE_SHAPES = [
    "4HPwATDgc/ABMA 31", "4HPwATDgc/ABMA 3-1", "4HPwATDgc/ABMA 3,1", "4HPwATDgc/ABMA 3/1", "4HPwATDgc/ABMA 3x1",
    "4HPwATDgc/ABMA 3 1", "4HPwATDgc/ABMA 13", "4HPwATDgc/ABMA 66", "  4HPwATDgc/ABMA\t\t5 2  ", "4HPwATDgc/ABMA 31\r",
    "\f4HPwATDgc/ABMA\f31\f",
    "4HPwATDgc/ABMB 31",      # the last character's unused bits set: the ID written back is gnubg's
    "4HPwATDgc/ABMw 62",
    "//////////////// 31",    # too long: the general path words the error
    "////////////// 31",      # base64, but no position
    "AAAAAAAAAAAAAA 31",      # base64, no checkers: 50 slots, the checkers all off
    "4HPwATDgc/AB+A 31",
    "4HPwATDgc/ABMA 71", "4HPwATDgc/ABMA 0 1", "4HPwATDgc/ABMA 3 -1", "4HPwATDgc/ABMA 3- 1", "4HPwATDgc/ABMA 311",
    "4HPwATDgc/ABMA 3", "4HPwATDgc/ABMA", "4HPwATDgc/ABMA:cAkAAAAAAAAA 31", "4HPwATDgc/ABMA:cAkAAAAAAAAA",
    "4HPwATDgc/ABM@ 31", "start 31", "start 3 1", "", "   ", "4HPwATDgc/ABMA ３1",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
    # one position after another with several rolls: read once
    "sOfBFQCKz8EBBg 51", "sOfBFQCKz8EBBg 66", "sOfBFQCKz8EBBg 3 1", "sOfBFQCKz8EBBh 21", "sOfBFQCKz8EBBg 21",
    "////////////// 31", "////////////// 42", "4HPwATDgc/ABMA 42",
]


@pytest.mark.parametrize("style", ["gnubg", "mat"])
def test_line_shapes_read_as_the_words_do(style):
    expected = [expected_line(line, number, style) for number, line in enumerate(LINE_SHAPES, 1)]
    assert batch(LINE_SHAPES, style) == expected


_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_SPACE = st.text(alphabet=" \t\f\r", max_size=3)


@st.composite
def shortcut_like_lines(draw) -> str:
    """Lines near the shape the shortcut reads: an ID that may be a position
    or not, dice written in any way or almost, any white space."""
    if draw(st.booleans()):
        pid = draw(st.sampled_from(["4HPwATDgc/ABMA", "sOfBFQCKz8EBBg", "zN47AADd6RIABg", "AAAAAAAAAAAAAA"]))
        pid = pid[:13] + draw(st.sampled_from(_B64))  # the last character's spare bits
    else:
        pid = draw(st.text(alphabet=_B64 + "@=", min_size=12, max_size=15))
    dice = draw(st.sampled_from(["", "-", ",", "/", "x", " ", "\t", "--", ".", "+"])).join(
        draw(st.lists(st.sampled_from("0123456789"), min_size=1, max_size=3)))
    return draw(_SPACE) + pid + draw(_SPACE.filter(bool) | st.just("")) + dice + draw(_SPACE)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(shortcut_like_lines(), min_size=1, max_size=5))
def test_lines_near_the_shortcut_read_as_the_words_do(lines):
    assert batch(lines) == [expected_line(line, number, "gnubg") for number, line in enumerate(lines, 1)]


# --- texts looked up by the change of the checkers -------------------------------------

def selfplay_positions(every: int) -> list[str]:
    """Position IDs before the actions of gnubg's self-play matches."""
    found: dict[str, None] = {}
    for path in sorted((DATA / "selfplay").glob("*.json")):
        for game in json.loads(path.read_text())["games"]:
            for action in game.get("game", []):
                board = action.get("board") if isinstance(action, dict) else None
                if isinstance(board, str) and len(board) == 14:
                    found.setdefault(board)
    if not found:
        pytest.fail("no self-play records in tests/data/oracle/selfplay", pytrace=False)
    return list(found)[::every]


def test_every_roll_of_self_play_positions():
    """Each position with all 21 rolls: many more plays than the sample,
    texts shared between positions by the dice and the change they make."""
    lines = [f"{pid} {a}{b}" for pid in selfplay_positions(every=24) for a in range(1, 7) for b in range(1, a + 1)]
    assert len(lines) > 5_000
    for style in ("gnubg", "korean"):
        got = batch(lines, style)
        for number, (line, written) in enumerate(zip(lines, got), 1):
            assert written == expected_line(line, number, style), line


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(any_positions(), st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=8),
       st.sampled_from(STYLES))
def test_random_positions(queries, style):
    lines = [f"{position.id()} {a}{b}" for position, a, b in queries]
    assert batch(lines, style) == [expected_line(line, number, style) for number, line in enumerate(lines, 1)]
    for position, a, b in queries:
        game = parse_position(position.id())
        assert moves_json_line(game, (a, b), style) == json.dumps(moves_json(game, (a, b), style), ensure_ascii=False) + "\n"


def test_a_full_text_cache_is_emptied_and_nothing_changes(monkeypatch):
    lines = oracle_lines()[:400]
    expected = [expected_line(line, number, "gnubg") for number, line in enumerate(lines, 1)]
    batch_module.moves_writer.cache_clear()  # start empty: the texts are made again
    monkeypatch.setattr(batch_module, "MAX_FRAGMENTS", 50)
    assert batch(lines) == expected
    writer = batch_module.moves_writer("gnubg", MatchState().on_roll)
    if writer.texts is not None:  # the C line (bgcli.core._speedups) keeps its texts in C
        assert 0 < len(writer.texts) <= 50 and writer.kept == 0
    else:
        assert 0 < writer.kept <= 50
        assert len(writer.quiet) + len(writer.hitting) <= 50
    batch_module.moves_writer.cache_clear()


def test_texts_depend_on_the_dice_and_the_change_only():
    """The claim the gnubg-layout cache rests on, checked directly: plays
    with the same dice and the same change of the mover's checkers and hits
    have the same text, in every position met here."""
    from bgcli.core.notation import play_text

    seen: dict[tuple, str] = {}
    pids = [r["position_id"] for r in oracle_records()][::4] + selfplay_positions(every=12)
    for pid in pids:
        position = parse_position_id(pid)
        board = int.from_bytes(bytes(position.player), "little")
        for a in range(1, 7):
            for b in range(1, a + 1):
                for play in legal_plays(position, (a, b)):
                    text = play_text(play)
                    assert seen.setdefault(((a, b), play.key - board), text) == text, (pid, a, b)


# --- two processes -------------------------------------------------------------------

def test_two_processes_write_what_one_writes():
    lines = oracle_lines() + ["bad 31", "", "4HPwATDgc/ABMA 71"]
    one = io.StringIO()
    assert run_batch(lines, "gnubg", out=one) == 1
    two = io.StringIO()
    with contextlib.redirect_stdout(two):
        assert run_batch_parallel(lines, "gnubg", jobs=2, chunk=700) == 1
    assert two.getvalue() == one.getvalue()


# --- play texts from the generator's raw pairs --------------------------------------

def _every_play_of(pids):
    for pid in pids:
        position = parse_position_id(pid)
        for a in range(1, 7):
            for b in range(1, a + 1):
                yield from legal_keys(position, (a, b)).items()


@pytest.mark.parametrize("style,side", [("gnubg", 1), ("korean", 1), ("korean", 0)])
def test_canonical_text_of_raw_pairs_is_the_text_of_the_steps(style, side):
    """canonical_text (the batch's, from the raw pairs and hit marks) against
    the layout written from Step objects, over every roll of many positions."""
    pids = [r["position_id"] for r in oracle_records()][::3] + selfplay_positions(every=6)
    seen = 0
    for key, moves in _every_play_of(pids):
        steps = _make_steps(moves, key >> 208)
        assert canonical_text(moves, key >> 208, style, side) == " ".join(_canonical_moves(steps, style, side)), moves
        seen += 1
    assert seen > 20_000


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(any_positions(), st.integers(1, 6), st.integers(1, 6))
def test_canonical_text_of_random_positions(position, a, b):
    for play in legal_plays(position, (a, b)):
        assert canonical_text(play._moves, play.key >> 208) == play_text(play)
