"""Tests of bgcli.core.notation: the play grammar, parse_play, apply_written and
the writers, against gnubg's own texts and records in tests/data/oracle."""
from __future__ import annotations

import glob
import json
import re
import time
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from bgcli import grammar
from bgcli.errors import AmbiguousPlayError, IllegalPlayError, InvalidPlayError
from bgcli.core.position import BAR, OFF, Position
from bgcli.core.generator import Play, Step, legal_plays
from bgcli.core.notation import (
    WrittenMove,
    WrittenPlay,
    _read_common_play,
    _grammar_play,
    apply_written,
    parse_play,
    parse_play_text,
    play_text,
)
from bgcli.core.spelling import BOTTOM, STYLES, TOP, parse_point, point_name

from conftest import ORACLE, committed

PLAY_ERRORS = (InvalidPlayError, IllegalPlayError, AmbiguousPlayError)
START = Position.start()


def need_oracle() -> None:
    committed(ORACLE)


@lru_cache(maxsize=None)
def legal_sample() -> list[tuple[Position, tuple[int, int], list[dict], list[Play]]]:
    """Every oracle query: position, dice, gnubg's plays and ours."""
    out = []
    with open(ORACLE / "legal_sample.jsonl") as lines:
        for line in lines:
            query = json.loads(line)
            position = Position.from_id(query["position_id"])
            dice = tuple(query["dice"])
            out.append((position, dice, query["plays"], legal_plays(position, dice)))
    return out


def board(points: dict[int, int], bar: int = 0, opponent_bar: int = 0) -> Position:
    """A position from the mover's side: positive counts are the mover's
    checkers on its own points, negative ones the opponent's."""
    numbers = [0] * 26
    numbers[25], numbers[0] = bar, -opponent_bar
    for point, count in points.items():
        numbers[point] = count
    return Position.from_board26(numbers)


# --- grammar and syntax ------------------------------------------------------------

def test_grammar_builds_without_conflicts():
    grammar.parser("play", strict=True)


@pytest.mark.parametrize(
    "text, moves, dice",
    [
        ("24/18 13/11", [((24, 18), 1), ((13, 11), 1)], None),
        ("bar/20*", [((25, 20), 1)], None),
        ("25/20 6/0", [((25, 20), 1), ((6, 0), 1)], None),
        ("6/off", [((6, 0), 1)], None),
        ("13/7(2)", [((13, 7), 2)], None),
        ("8/2*/1", [((8, 2, 1), 1)], None),
        ("24-18 13-11", [((24, 18), 1), ((13, 11), 1)], None),
        ("24-18, 13-11", [((24, 18), 1), ((13, 11), 1)], None),
        ("61: 11/4", [((11, 4), 1)], (6, 1)),
        ("16: 13/7 8/7", [((13, 7), 1), ((8, 7), 1)], (6, 1)),
        ("6-1: b/18 6/o", [((25, 18), 1), ((6, 0), 1)], (6, 1)),
        ("Bar / 22 * / 19 ( 2 )", [((25, 22, 19), 2)], None),
        ("상1/상7 상12/하11", [((24, 18), 1), ((13, 11), 1)], None),
        ("상 1/상 7", [((24, 18), 1)], None),
        ("66:", [], (6, 6)),
        ("", [], None),
        ("Cannot Move", [], None),
        ("43: cannot move", [], (4, 3)),
    ],
)
def test_parse_play_text(text, moves, dice):
    written = parse_play_text(text)
    assert [(m.points, m.count) for m in written.moves] == moves
    assert written.dice == dice


def test_hit_marks_are_kept_per_point():
    written = parse_play_text("bar/22*/19 8/5*")
    assert written.moves[0].hits == (False, True, False)
    assert written.moves[1].hits == (False, True)
    assert written.marked() == {22, 5}


@pytest.mark.parametrize(
    "text",
    ["foo", "13/", "/7", "13 7", "24/26", "13/7(0)", "13/7(5)", "상13/하1", "하0/하1", "61 13/7", "71: 13/6",
     "13/7 (2", "13//7", "13/7**", "*13/7"],
)
def test_bad_text_is_invalid_play_error(text):
    with pytest.raises(InvalidPlayError) as caught:
        parse_play_text(text)
    assert repr(text) in str(caught.value)


def test_points_round_trip_in_every_style():
    for point in range(26):
        for style in STYLES:
            assert parse_point(point_name(point, style)) == point
    assert [point_name(p, "korean") for p in (1, 12, 13, 24)] == ["하1", "하12", "상12", "상1"]
    assert point_name(BAR, "mat") == "25" and point_name(OFF, "fibs") == "off"


# --- canonical text: gnubg's own words -----------------------------------------------

def test_canonical_text_equals_gnubg_for_every_oracle_play():
    need_oracle()
    checked = 0
    for position, dice, gnubg_plays, ours in legal_sample():
        by_id = {p.result_id(): p for p in ours}
        for wanted in gnubg_plays:
            assert play_text(by_id[wanted["result_id"]]) == wanted["move"], (position.id(), dice)
            checked += 1
    assert checked > 40000


def test_every_style_parses_back_to_the_same_play():
    need_oracle()
    for position, dice, _, plays in legal_sample():
        for play in plays:
            texts = {style: play_text(play, style) for style in STYLES}
            # the Korean text reads as the same chains as gnubg's; parse each
            # distinct reading once (keeps this test fast)
            readings = {parse_play_text(text): text for text in texts.values()}
            assert parse_play_text(texts["korean"]) == parse_play_text(texts["gnubg"])
            for written, text in readings.items():
                back = parse_play(written, position, dice, plays=plays)
                assert back.result == play.result, (position.id(), dice, text)


def test_parsed_steps_are_playable_dice():
    """The Play returned has the written steps split into dice, in an order
    that plays them; replaying them gives the result."""
    need_oracle()
    for position, dice, _, plays in legal_sample()[::25]:
        for play in plays:
            back = parse_play(play_text(play), position, dice, plays=plays)
            assert len(back.steps) == len(play.steps)
            assert apply_written(position, play_text(back, "mat")) == play.result


# --- .mat cells: gnubg's self-play records -------------------------------------------

CELL = re.compile(r"\b([1-6][1-6]):((?:[ \t]*\d+/\d+\*?)*)")


def mat_cells():
    """(cell text, the matching move record of gnubg's JSON) for every move."""
    for path in sorted(glob.glob(str(ORACLE / "selfplay" / "*.mat"))):
        record = json.loads(Path(path[:-4] + ".json").read_text())
        cells = []
        for line in Path(path).read_text().splitlines():
            if re.match(r"\s*\d+\)", line):
                cells += [f"{d}: {body.strip()}".strip() for d, body in CELL.findall(line)]
        moves = [a for game in record["games"] for a in game["game"] if a["action"] == "move"]
        assert len(cells) == len(moves), path
        yield from zip(cells, moves)


def test_mat_cells_parse_to_gnubgs_steps_and_write_back():
    need_oracle()
    count = 0
    for cell, record in mat_cells():
        position = Position.from_id(record["board"])
        play = parse_play(cell, position, record["dice"])
        assert [[s.start, s.end] for s in play.steps] == record["move"], cell
        assert play_text(play, "mat", dice=record["dice"]) == cell
        count += 1
    assert count > 5000


def test_parsing_is_fast():
    need_oracle()
    work = [(cell, Position.from_id(r["board"]), r["dice"]) for cell, r in mat_cells()]
    began = time.perf_counter()
    for cell, position, dice in work:
        parse_play(cell, position, dice)
    assert (time.perf_counter() - began) / len(work) < 1e-3


# --- the fast path agrees with the grammar --------------------------------------------

def test_fast_path_agrees_with_grammar_on_oracle_texts():
    need_oracle()
    seen = 0
    for position, dice, _, plays in legal_sample()[::40]:
        for play in plays:
            for style in STYLES:
                for text in (play_text(play, style), play_text(play, style, dice=dice)):
                    fast = _read_common_play(text)
                    assert fast is not None, text
                    assert fast == _grammar_play(text), text
                    seen += 1
    assert seen > 1000


@settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(from_lark(grammar.parser("play")), st.sampled_from([BOTTOM, TOP]))
def test_fast_path_agrees_with_grammar_on_generated_text(text, side):
    """Both sides: a Korean point name is a number that depends on the side (spelling.parse_point)."""
    fast = _read_common_play(text, side)
    try:
        slow = _grammar_play(text, side)
    except InvalidPlayError:
        assert fast is None, text
        return
    assert fast is None or fast == slow, text


# --- legality, ambiguity and the reasons ------------------------------------------------

@pytest.mark.parametrize(
    "text, dice, canonical",
    [
        ("24/18 13/11", "62", "24/18 13/11"),
        ("13/11 24/18", "62", "24/18 13/11"),
        ("24-18 13-11", "62", "24/18 13/11"),
        ("상1/상7 상12/하11", "62", "24/18 13/11"),
        ("24/14", "64", "24/14"),
        ("24/18/14", "64", "24/14"),
        ("13/4", "33", None),  # only three dice: see test_reasons
        ("13/4 6/3", "33", "13/4 6/3"),
        ("24/18(2) 13/7(2)", "66", "24/18(2) 13/7(2)"),
        ("25/18", "66", None),
        ("8/7 13/7", "16", "13/7 8/7"),
        ("61: 13/7 8/7", None, "13/7 8/7"),
        ("8/5 6/5", "31", "8/5 6/5"),
        ("6/5* 8/5", "31", "8/5 6/5"),  # a wrong mark is ignored
    ],
)
def test_parse_play_in_the_start_position(text, dice, canonical):
    if canonical is None:
        with pytest.raises(IllegalPlayError):
            parse_play(text, START, dice)
        return
    play = parse_play(text, START, dice)
    assert play_text(play) == canonical
    assert play.result in {p.result for p in legal_plays(START, dice or text[:2])}


def test_seed_002_korean_example():
    """Seed 002, figure 4: with 6-3, 상1 moves six points to 상7 and 상12
    three points to 하10."""
    play = parse_play("상1/상7 상12/하10", START, "63")
    assert play_text(play) == "24/18 13/10"
    assert play_text(play, "korean") == "상1/상7 상12/하10"


def test_a_chain_is_split_into_dice_that_hit_on_the_way():
    position = board({13: 2, 6: 13, 9: -1, 7: -2, 24: -12})  # the quiet path is blocked
    play = parse_play("13/3", position, "64")
    assert play.steps == (Step(13, 9, True), Step(9, 3, False))
    assert play_text(play) == "13/9*/3"
    assert play.result.opponent[BAR] == 1


def test_a_plain_chain_means_the_path_that_does_not_hit():
    # gnubg writes 13/3 for the quiet path and 13/9*/3 for the hitting one
    position = board({13: 2, 6: 13, 9: -1, 24: -14})
    assert play_text(parse_play("13/9/3", position, "64")) == "13/9*/3"
    position = board({13: 2, 6: 13, 7: -1, 24: -14})
    quiet = parse_play("13/3", position, "64")
    assert play_text(quiet) == "13/3" and quiet.result.opponent[BAR] == 0
    assert play_text(parse_play("13/7*/3", position, "64")) == "13/7*/3"


def test_shorthand_with_two_hitting_paths_is_ambiguous():
    position = board({13: 2, 6: 13, 9: -1, 7: -1, 24: -13})
    with pytest.raises(AmbiguousPlayError) as caught:
        parse_play("13/3", position, "64")
    assert "13/7*/3" in str(caught.value) and "13/9*/3" in str(caught.value)
    assert play_text(parse_play("13/9*/3", position, "64")) == "13/9*/3"


def reason(text, position, dice) -> str:
    with pytest.raises(IllegalPlayError) as caught:
        parse_play(text, position, dice)
    message = str(caught.value)
    assert message.startswith(f"illegal play {text!r} in {position.id()} with ")
    return message


def test_reason_wrong_length():
    assert "13/9 is 4 pips" in reason("13/9 8/7", START, "61")
    assert "need at least 3 dice" in reason("24/18 24/17", START, "61")
    assert "same die twice" in reason("13/7 13/7", START, "61")


def test_reason_blocked_landing_and_intermediate_point():
    position = board({24: 1, 1: 14, 15: -2, 20: -13})
    assert "lands on 15, which the opponent holds" in reason("24/15", position, "63")
    assert "lands on 20" in reason("24/20 24/21", board({24: 2, 1: 13, 20: -2, 10: -13}), "43")
    blocked_on_the_way = board({24: 1, 8: 2, 1: 12, 18: -2, 21: -2, 3: -11})
    assert "passes 18" in reason("24/15", blocked_on_the_way, "63")
    assert "passes 21" in reason("24/15", blocked_on_the_way, "63")


def test_reason_checker_left_on_the_bar():
    position = board({6: 5, 8: 3, 13: 4, 24: 2, 1: -2, 2: -2, 12: -5, 17: -3, 19: -3}, bar=1)
    message = reason("13/7 8/7", position, "61")
    assert "while a checker is on the bar" in message
    assert "(legal: bar/18, bar/24 13/7)" in message
    assert play_text(parse_play("13/7 bar/24", position, "61")) == "bar/24 13/7"


def test_reason_bearing_off_with_checkers_outside():
    position = board({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 4, 8: 1, 24: -15})
    assert "outside the home board" in reason("6/off 5/off", position, "65")


def test_reason_bearing_off_with_a_larger_die_from_a_lower_point():
    position = board({5: 1, 3: 1, 24: -15})
    assert "bears off with a 6 while a checker is on 4" in reason("5/4 3/off", position, "61")


def test_reason_fewer_dice_than_possible():
    assert "plays 1 die but 2 can be played" in reason("13/7", START, "61")
    assert "plays 3 dice but 4 can be played" in reason("13/4", START, "33")


def test_reason_smaller_die_when_the_larger_can_be_played():
    position = board({24: 1, 1: 14, 15: -2, 20: -13})
    message = reason("24/21", position, "63")
    assert "the smaller die, 3, but the larger, 6, can be played" in message
    assert message.endswith("(legal: 24/18)")


def test_reason_moves_that_are_not_moves():
    assert "moves backwards" in reason("7/13", START, "61")
    assert "starts from off" in reason("off/3", START, "31")
    assert "ends on the bar" in reason("3/bar", START, "31")
    assert "no checker on 12" in reason("12/6 8/7", START, "61")
    assert "written for 52" in reason("52: 13/8 13/11", START, "61")


def test_dances():
    closed = board({19: -2, 20: -2, 21: -2, 22: -2, 23: -2, 24: -2, 6: 14, 1: -3}, bar=1)
    assert legal_plays(closed, "66") == []
    for text in ("", "66:", "Cannot Move"):
        play = parse_play(text, closed, "66")
        assert play.steps == () and play.result == closed
    assert "cannot move" in reason("bar/19", closed, "66")
    assert "no play is written but 10 plays can be played" in reason("", START, "61")


def test_gnubg_rule_any_spelling_that_reaches_the_position():
    # 13/10 11/7 is not a pair of dice steps of 6-1, but it reaches the
    # position that 13/7 11/10 reaches, so gnubg takes it as that play
    position = board({13: 5, 11: 1, 6: 5, 8: 4, 24: -15})
    play = parse_play("13/10 11/7", position, "61")
    assert play_text(play) == "13/7 11/10"


# --- apply_written ------------------------------------------------------------------

def test_apply_written_plays_illegal_steps_mechanically():
    position = board({6: 5, 8: 3, 13: 4, 24: 2, 1: -2, 2: -2, 12: -5, 17: -3, 19: -3}, bar=1)
    after = apply_written(position, "13/7 8/7")  # illegal: a checker is on the bar
    assert after.player[BAR] == 1 and after.player[7] == 2 and after.player[13] == 3
    assert apply_written(START, "12/6") is None  # no checker there
    assert apply_written(START, "24/19") is None  # the opponent's 6-point
    assert apply_written(START, "7/13") is None


def test_apply_written_splits_into_dice_to_hit_on_the_way():
    position = board({13: 2, 6: 13, 9: -1, 7: -2, 24: -12})
    assert apply_written(position, "13/3").opponent[BAR] == 0
    assert apply_written(position, "13/3", dice=(6, 4)).opponent[BAR] == 1
    assert apply_written(position, "64: 13/3").opponent[BAR] == 1


# --- robustness: only our three errors ------------------------------------------------

@lru_cache(maxsize=None)
def some_positions() -> list[Position]:
    if not ORACLE.is_dir():
        return [START]
    return [START] + [q[0] for q in legal_sample()[::97]]


DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(from_lark(grammar.parser("play")), st.integers(0, 1000), DICE)
def test_generated_text_raises_only_play_errors(text, which, dice):
    positions = some_positions()
    position = positions[which % len(positions)]
    try:
        play = parse_play(text, position, dice)
    except PLAY_ERRORS:
        return
    assert play.steps == () or play.result in {p.result for p in legal_plays(position, dice)}


POINT_WORDS = st.one_of(st.integers(0, 25).map(str), st.sampled_from(["bar", "off", "b", "o", "상3", "하12"]))
CHAIN = st.lists(POINT_WORDS, min_size=2, max_size=4).map("/".join)
STRUCTURED = st.lists(
    st.tuples(CHAIN, st.booleans(), st.integers(1, 4)).map(lambda t: t[0] + ("*" if t[1] else "") + (f"({t[2]})" if t[2] > 1 else "")),
    max_size=4,
).map(" ".join)


@settings(deadline=None, max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(STRUCTURED, st.integers(0, 1000), DICE)
def test_plausible_plays_are_legal_or_one_of_our_errors(text, which, dice):
    positions = some_positions()
    position = positions[which % len(positions)]
    plays = legal_plays(position, dice)
    try:
        play = parse_play(text, position, dice)
    except PLAY_ERRORS:
        return
    assert play.result in {p.result for p in plays} or (not plays and play.result == position)


def mutations(text: str, seed: int) -> list[str]:
    alphabet = "0123456789/-*() ,:barofcn상하\t"
    i = seed % (len(text) + 1)
    c = alphabet[seed % len(alphabet)]
    return [text[:i] + text[i + 1:], text[:i] + c + text[i:], text[:i] + c + text[i + 1:], text[i:] + " " + text[:i]]


@lru_cache(maxsize=None)
def real_texts() -> list[tuple[str, Position, tuple[int, int]]]:
    if not ORACLE.is_dir():
        return [("24/18 13/11", START, (6, 2))]
    out = []
    for position, dice, gnubg_plays, _ in legal_sample()[::13]:
        for wanted in gnubg_plays[:3]:
            out.append((wanted["move"], position, dice))
    return out


@settings(deadline=None, max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_mutated_real_text_raises_only_play_errors(which, seed):
    texts = real_texts()
    text, position, dice = texts[which % len(texts)]
    for mutated in mutations(text, seed):
        try:
            parse_play(mutated, position, dice)
        except PLAY_ERRORS:
            pass
        for roll in (None, dice):
            try:
                after = apply_written(position, mutated, roll)
            except InvalidPlayError:
                continue
            assert after is None or not after.problem()


# --- writers ----------------------------------------------------------------------

def test_styles_of_one_play():
    position = board({13: 2, 6: 13, 9: -1, 7: -2, 24: -12})
    play = parse_play("13/3", position, "64")
    assert play_text(play, "gnubg") == "13/9*/3"
    assert play_text(play, "mat") == "13/9* 9/3"
    assert play_text(play, "mat", dice=(4, 6)) == "64: 13/9* 9/3"
    assert play_text(play, "fibs") == "13-9 9-3"
    assert play_text(play, "korean") == "상12/하9*/하3"
    entering = parse_play("6/1 bar/22", board({6: 14, 12: -15}, bar=1), "53")
    assert play_text(entering, "mat") == "25/22 6/1"
    assert play_text(entering, "fibs") == "bar-22 6-1"
    assert play_text(entering, "korean") == "bar/상3 하6/하1"
    home = parse_play("6/off 5/off", board({6: 1, 5: 1, 12: -15}), "65")
    assert play_text(home, "fibs") in ("6-off 5-off", "5-off 6-off")
    assert play_text(home, "mat") in ("6/0 5/0", "5/0 6/0")


def test_no_play_is_written_empty():
    nothing = Play((), START)
    assert play_text(nothing) == ""
    assert play_text(nothing, "mat", dice=(6, 6)) == "66:"


def test_unknown_style_is_an_error():
    with pytest.raises(ValueError):
        play_text(Play((), START), "xg")


def test_written_play_prints_back_to_itself():
    for text in ("61: bar/24 13/7*", "bar/22*/19(2) 6/off", "24/18 13/11"):
        assert str(parse_play_text(text)) == text
    assert isinstance(parse_play_text("13/7"), WrittenPlay)
    assert parse_play_text("13/7").moves[0] == WrittenMove((13, 7), (False, False))


def test_apply_written_prefers_the_quiet_path_like_gnubgs_text():
    position = board({13: 2, 6: 13, 9: -1, 24: -14})  # 7 is open: 13/3 passes it quietly
    assert apply_written(position, "13/3", "64").opponent[BAR] == 0
    assert apply_written(position, "13/9/3", "64").opponent[BAR] == 1
