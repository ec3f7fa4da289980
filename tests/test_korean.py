"""The traditional Korean point names (the rules of the traditional game, as
`bgcli rules` describes them).

The names belong to the board, not to the player on roll: the player drawn
at the bottom (gnubg's player 1, X) has its point n at 하n for n <= 12 and at
상(25 - n) for n >= 13; the player at the top (player 0, O) has its point n at
상n and 하(25 - n). Reading and writing follow the side that moves; in a
match, the left column of a .mat file is player 0 and the right column
player 1. Tests here: every point's name for both sides, the rule text's own
examples, the CLI and the drawings, and round trips of whole matches through
.mat files written in every notation.
"""
from __future__ import annotations

import glob
import json
import unicodedata
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgcli.errors import InvalidPlayError
from bgcli.core.ids import parse_position
from bgcli.formats.files import read_any
from bgcli.formats.jsondoc import json_text, read_json
from bgcli.formats.mat import _row_segments, _grammar_line, _place, mat_text, read_matches, read_row
from bgcli.match.replay import ProblemKind, replay_match
from bgcli.core.position import BAR, OFF, Position
from bgcli.core.generator import legal_plays
from bgcli.core.notation import apply_written, numbered_text, parse_play, parse_play_text, play_text
from bgcli.core.spelling import BOTTOM, STYLES, TOP, korean_name, parse_point, point_name
from bgcli.render.board import ascii_board, svg_board
from bgcli.core.state import GameState, MatchState
from conftest import SELFPLAY as SELFPLAY_DIR
from generated import positions

START = Position.start()
SELFPLAY = sorted(glob.glob(str(SELFPLAY_DIR / "*.mat")))
SVG = "{http://www.w3.org/2000/svg}"


def expected_name(point: int, side: int) -> str:
    """The rule, written out once more: the mover's own half holds its points 1-12."""
    own, far = ("하", "상") if side == BOTTOM else ("상", "하")
    return f"{own}{point}" if point <= 12 else f"{far}{25 - point}"


# --- the names of the points ---------------------------------------------------------

@pytest.mark.parametrize("side", [TOP, BOTTOM])
@pytest.mark.parametrize("point", range(1, 25))
def test_every_point_has_its_name_for_both_sides(point, side):
    name = expected_name(point, side)
    assert korean_name(point, side) == name
    assert point_name(point, "korean", side=side) == name
    assert parse_point(name, side=side) == point
    assert parse_point(f"{name[0]} {name[1:]}", side=side) == point   # 상 1, as people write it
    # the other side's point on the same spot of the board
    assert parse_point(name, side=1 - side) == 25 - point
    assert korean_name(25 - point, 1 - side) == name


def test_the_table_of_names():
    assert [korean_name(p, BOTTOM) for p in (1, 6, 12, 13, 18, 24)] == ["하1", "하6", "하12", "상12", "상7", "상1"]
    assert [korean_name(p, TOP) for p in (1, 6, 12, 13, 18, 24)] == ["상1", "상6", "상12", "하12", "하7", "하1"]
    # the default is the bottom player, as before
    assert point_name(24, "korean") == "상1" and parse_point("상1") == 24


@pytest.mark.parametrize("side", [TOP, BOTTOM])
def test_bar_and_off_have_no_korean_names(side):
    assert point_name(BAR, "korean", side=side) == "bar"
    assert point_name(OFF, "korean", side=side) == "off"
    for word, point in (("bar", BAR), ("b", BAR), ("off", OFF), ("o", OFF), ("25", BAR), ("0", OFF)):
        assert parse_point(word, side=side) == point
    for bad in (0, 25, -1, 26):
        with pytest.raises(ValueError):
            korean_name(bad, side)


@pytest.mark.parametrize("name", ["상0", "하13", "상 0", "하99", "상１"])
@pytest.mark.parametrize("side", [TOP, BOTTOM])
def test_names_outside_a_half_are_not_points(name, side):
    with pytest.raises(InvalidPlayError):
        parse_point(name, side=side)


@pytest.mark.parametrize("side", [-1, 2, "1", None])
def test_a_side_is_0_or_1(side):
    for call in (lambda: korean_name(5, side), lambda: parse_point("상1", side=side),
                 lambda: parse_play_text("24/18", side=side), lambda: play_text(parse_play("24/18 13/11", START, "62"),
                                                                                "korean", side=side)):
        with pytest.raises(ValueError):
            call()


def test_other_styles_do_not_depend_on_the_side():
    play = parse_play("24/18 13/11", START, "62")
    for style in ("gnubg", "mat", "fibs"):
        assert play_text(play, style, side=TOP) == play_text(play, style, side=BOTTOM) == play_text(play, style)
    for text in ("24/18 13/11", "61: 25/24 13/7*", "bar/22*/19(2)", "24-18 13-11"):
        assert parse_play_text(text, side=TOP) == parse_play_text(text, side=BOTTOM)


# --- the rule text's examples --------------------------------------------------------
# Black sits at the lower side (하측) and is the bottom player, gnubg's player
# 1; White sits at the upper side and is the top player, player 0.
BLACK, WHITE = BOTTOM, TOP


def test_the_starting_position_as_the_rule_text_sets_it_out():
    """상1: two black, 상6: five white, 상8: three white, 상12: five black;
    하1: two white, 하6: five black, 하8: three black, 하12: five white."""
    described = {("상1", BLACK): 2, ("상6", WHITE): 5, ("상8", WHITE): 3, ("상12", BLACK): 5,
                 ("하1", WHITE): 2, ("하6", BLACK): 5, ("하8", BLACK): 3, ("하12", WHITE): 5}
    # the start position from each side: the mover's checkers are .player
    seen = {}
    for side in (BLACK, WHITE):
        for point in range(1, 25):
            if START.player[point]:
                seen[(korean_name(point, side), side)] = START.player[point]
    assert seen == described
    # and read back: each named point holds that side's checkers
    for (name, side), count in described.items():
        assert START.player[parse_point(name, side=side)] == count


def test_whites_back_checkers_are_on_ha1():
    assert korean_name(24, WHITE) == "하1" and korean_name(24, BLACK) == "상1"
    play = parse_play("24/18 24/23", START, "61")
    assert play_text(play, "korean", side=BLACK) == "상1/상2 상1/상7"
    assert play_text(play, "korean", side=WHITE) == "하1/하2 하1/하7"


def test_figure_4_black_plays_six_three():
    """With 6 and 3, one checker of 상1 moves six points to 상7 and one of 상12
    goes to 하10."""
    play = parse_play("상1/상7 상12/하10", START, "63", side=BLACK)
    assert play_text(play) == "24/18 13/10"
    assert play_text(play, "korean", side=BLACK) == "상1/상7 상12/하10"
    # the same words from White's chair are another play: White's 하1 is its 24-point
    white = parse_play("하1/하7 하12/상10", START, "63", side=WHITE)
    assert white == play
    assert play_text(white, "korean", side=WHITE) == "하1/하7 하12/상10"


def test_figure_5_one_checker_moves_nine_points():
    """One checker of 상1 moves 6 + 3 = 9 points to 상10."""
    play = parse_play("상1/상10", START, "63", side=BLACK)
    assert play_text(play) == "24/15"
    assert play_text(play, "korean", side=BLACK) == "상1/상10"


def figure_6() -> Position:
    """White to move with a checker on the bar; Black holds 하1, 하2 and 하6
    (White's 24, 23 and 19 points), as in the rule text's figure 6."""
    board = [0] * 26
    board[25] = 1                                  # White's checker on the bar
    board[6] = 14                                  # White's other checkers, on its 6-point (상6)
    board[24], board[23], board[19] = -2, -2, -5   # Black on 하1, 하2, 하6
    board[12] = -6                                 # and on 상12, White's 12-point (Black's 13)
    return Position.from_board26(board)


@pytest.mark.parametrize("die", [3, 4, 5])
def test_figure_6_white_enters_into_ha(die):
    """A white checker that was hit enters Black's home board, 하: with a 3,
    4 or 5 it lands on 하3, 하4 or 하5."""
    position = figure_6()
    assert korean_name(12, WHITE) == korean_name(13, BLACK) == "상12"
    entering = parse_play(f"bar/하{die} 상6/상5", position, (die, 1), side=WHITE)
    assert entering.steps[0].start == BAR and entering.steps[0].end == 25 - die
    for play in legal_plays(position, (die, 1)):
        assert any(s.start == BAR and korean_name(s.end, WHITE) == f"하{die}" for s in play.steps)


@pytest.mark.parametrize("roll", [(2, 1), (6, 1), (6, 2)])
def test_figure_6_white_starves(roll):
    """With 1 and 2, 1 and 6 or 2 and 6 White cannot enter, and no other
    checker may move."""
    assert legal_plays(figure_6(), roll) == []
    assert parse_play("", figure_6(), roll, side=WHITE).steps == ()


def test_bearing_off_from_ha1_and_ha2():
    """A 1 bears off a checker from 하1, a 2 one from 하2 (Black's home)."""
    home = Position.from_board26([0, 3, 3, 3, 3, 0, 3, 0, 0, 0, 0, 0, -15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    play = parse_play("하2/off 하1/off", home, "21", side=BLACK)
    assert play_text(play, "korean", side=BLACK) == "하2/off 하1/off"
    assert play_text(play, "korean", side=WHITE) == "상2/off 상1/off"


# --- reading and writing plays for a side ------------------------------------------------

@pytest.mark.parametrize("side", [TOP, BOTTOM])
def test_mixed_names_numbers_and_spellings(side):
    own = "하" if side == BOTTOM else "상"
    far = "상" if side == BOTTOM else "하"
    expected = parse_play("24/18 13/11", START, "62")
    for text in (f"{far}1/{far}7 {far}12/{own}11", f"{far} 1/{far} 7, {far} 12/{own} 11", f"24/{far}7 {far}12/11",
                 f"62: {far}1/{far}7 {far}12/{own}11", f"{far}12/{own}11 {far}1/{far}7"):
        assert parse_play(text, START, "62", side=side).result == expected.result, text
    assert play_text(expected, "korean", side=side) == f"{far}1/{far}7 {far}12/{own}11"
    assert play_text(expected, "korean", (6, 2), side=side) == f"62: {far}1/{far}7 {far}12/{own}11"


@pytest.mark.parametrize("side", [TOP, BOTTOM])
def test_apply_written_and_numbered_text_follow_the_side(side):
    own, far = ("하", "상") if side == BOTTOM else ("상", "하")
    text = f"{far}1/{far}7 {far}12/{own}9"
    assert numbered_text(text, side=side) == "24/18 13/9"
    assert apply_written(START, text, side=side) == apply_written(START, "24/18 13/9")
    assert numbered_text("24/18 13/9", side=side) == "24/18 13/9"
    assert numbered_text("상99/x", side=side) == "상99/x"   # not move notation: as it is


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 6), st.integers(1, 6), st.sampled_from([TOP, BOTTOM]))
def test_every_legal_play_written_for_a_side_reads_back_for_that_side(position, a, b, side):
    plays = legal_plays(position, (a, b))
    for play in plays:
        text = play_text(play, "korean", side=side)
        assert parse_play(text, position, (a, b), plays, side=side).result == play.result, text
        with_dice = play_text(play, "korean", (a, b), side=side)
        assert parse_play(with_dice, position, side=side).result == play.result, with_dice
        # written with numbers, the text reads as the same play without a side
        assert parse_play(numbered_text(text, side=side), position, (a, b), plays).result == play.result


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 6), st.integers(1, 6))
def test_the_two_sides_name_each_point_from_opposite_halves(position, a, b):
    for play in legal_plays(position, (a, b))[:5]:
        bottom, top = play_text(play, "korean", side=BOTTOM), play_text(play, "korean", side=TOP)
        assert top == bottom.translate(str.maketrans("상하", "하상"))


# --- the command line ----------------------------------------------------------------

# The start position with White (O, the top player, gnubg's player 0) on roll with 62
WHITE_ON_ROLL = "XGID=-b----E-C---eE---c-e----B-:0:0:-1:62:0:0:0:0:10"
BLACK_ON_ROLL = "XGID=-b----E-C---eE---c-e----B-:0:0:1:62:0:0:0:0:10"


def test_the_xgids_say_who_is_on_roll():
    assert parse_position(WHITE_ON_ROLL).match.on_roll == TOP
    assert parse_position(BLACK_ON_ROLL).match.on_roll == BOTTOM


def test_moves_in_korean_follow_the_side_on_roll(run):
    black = run("moves", "--style", "korean", BLACK_ON_ROLL).output.splitlines()
    white = run("moves", "--style", "korean", WHITE_ON_ROLL).output.splitlines()
    assert "상1/상7 상12/하11" in black and "하1/하7 하12/상11" in white
    assert white == [line.translate(str.maketrans("상하", "하상")) for line in black]
    # no Match ID: the bottom player, as before
    assert run("moves", "--style", "korean", "start", "62").output.splitlines() == black
    as_json = json.loads(run("moves", "--json", "--style", "korean", WHITE_ON_ROLL).output)
    assert {"play": "하1/하7 하12/상11", "position_id": "4HPkQSDgc/ABMA"} in as_json["plays"]


def test_moves_batch_in_korean_follows_the_side_on_roll(run):
    result = run("moves", "--style", "korean", "--batch", "-", input=f"{WHITE_ON_ROLL}\nstart 62\n")
    white, black = (json.loads(line) for line in result.output.splitlines())
    assert any(p["play"] == "하1/하7 하12/상11" for p in white["plays"])
    assert any(p["play"] == "상1/상7 상12/하11" for p in black["plays"])


def test_check_reads_korean_names_as_the_side_on_roll_names_them(run):
    white = run("check", WHITE_ON_ROLL, "하1/하7", "하12/상11")
    assert white.exit_code == 0 and white.output == "24/18 13/11\t4HPkQSDgc/ABMA\n"
    assert run("check", "--style", "korean", WHITE_ON_ROLL, "24/18", "13/11").output.startswith("하1/하7 하12/상11\t")
    # the bottom player's words are another play for White: 상1 is White's 1-point
    wrong = run("check", WHITE_ON_ROLL, "상1/상7", "상12/하11")
    assert wrong.exit_code == 1
    black = run("check", "--style", "korean", "start", "62", "상1/상7", "상12/하11")
    assert black.exit_code == 0 and black.output.startswith("상1/상7 상12/하11\t4HPkQSDgc/ABMA")
    as_json = json.loads(run("check", "--json", "--style", "korean", WHITE_ON_ROLL, "하1/하7 하12/상11").output)
    assert as_json["legal"] and as_json["play"] == "하1/하7 하12/상11"


# --- the drawings -----------------------------------------------------------------------

def width(text: str) -> int:
    """Columns on a terminal: Hangul is wide."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def games():
    played = parse_play("24/18 13/11", START, "62").result
    return [GameState(START), GameState(START, MatchState(on_roll=0, turn=0)),
            GameState(played, MatchState(on_roll=0, turn=0)), parse_position(WHITE_ON_ROLL),
            parse_position("4HPwATDgc/ABMA:cAkAAAAAAAAA")]


@pytest.mark.parametrize("home", ["right", "left"])
def test_ascii_default_is_unchanged_and_korean_keeps_the_layout(home):
    for game in games():
        default = ascii_board(game, home=home)
        for style in ("gnubg", "mat", "fibs"):
            assert ascii_board(game, home=home, style=style) == default
        korean = ascii_board(game, home=home, style="korean")
        old, new = default.split("\n"), korean.split("\n")
        assert len(old) == len(new)
        changed = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
        assert changed == [2, 14]          # the two label lines, nothing else
        assert [width(new[i]) for i in changed] == [width(old[i]) for i in changed]
        assert "상" in new[2] and "하" in new[14]


def test_ascii_korean_labels_belong_to_the_board():
    boards = {ascii_board(game, style="korean").split("\n")[2][:46] for game in games()}
    assert boards == {" +12-11-10--9--8--7--상---6--5--4--3--2--1-+   "}
    bottoms = {ascii_board(game, style="korean").split("\n")[14][:46] for game in games()}
    assert bottoms == {" +12-11-10--9--8--7--하---6--5--4--3--2--1-+   "}
    left = ascii_board(START, home="left", style="korean").split("\n")
    assert left[2].startswith("    +-1--2--3--4--5--6--상---7--8--9-10-11-12-+")
    assert left[14].startswith("    +-1--2--3--4--5--6--하---7--8--9-10-11-12-+")


def test_ascii_korean_labels_stand_over_the_checkers_they_name():
    """In the start position (X, Black, at the bottom), 상1 holds X's two back
    checkers, 상12 five of X's, 하1 two of O's and 하12 five of O's, as the
    rule text sets them out; the checker stands under a label's last digit."""
    for game in (GameState(START), GameState(START, MatchState(on_roll=0, turn=0))):
        lines = ascii_board(game, style="korean").split("\n")

        def column(line: str, label: str) -> int:   # on screen, where Hangul is two columns wide
            return width(line[:line.index(label) + len(label) - 1])

        assert lines[3][column(lines[2], "--1")] == "X" and lines[3][column(lines[2], "+12")] == "X"
        assert lines[13][column(lines[14], "--1")] == "O" and lines[13][column(lines[14], "+12")] == "O"


def labels(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "label"]


@pytest.mark.parametrize("home", ["right", "left"])
def test_svg_korean_labels(home):
    for game in games():
        default = svg_board(game, home=home)
        assert svg_board(game, home=home, style="gnubg") == default
        korean = svg_board(game, home=home, style="korean")
        names = labels(korean)
        assert sorted(names) == sorted(f"{h}{n}" for h in "상하" for n in range(1, 13))
        # the same name in the same place whoever is on roll
        assert names == labels(svg_board(GameState(START), home=home, style="korean"))
        root = ET.fromstring(korean)
        points = {c.get("data-point") for c in root.iter(f"{SVG}circle") if "checker" in (c.get("class") or "")}
        assert points <= set(names) | {"bar"}
    start = ET.fromstring(svg_board(START, home=home, style="korean"))
    x_back = [c for c in start.iter(f"{SVG}circle") if c.get("class") == "checker x" and c.get("data-point") == "상1"]
    o_back = [c for c in start.iter(f"{SVG}circle") if c.get("class") == "checker o" and c.get("data-point") == "하1"]
    assert len(x_back) == 2 and len(o_back) == 2


def test_bad_style_for_a_drawing():
    with pytest.raises(ValueError):
        ascii_board(START, style="chess")
    with pytest.raises(ValueError):
        svg_board(START, style="chess")


def test_show_style_korean(run, tmp_path):
    result = run("show", "--style", "korean", "start")
    assert result.exit_code == 0 and result.output == ascii_board(START, style="korean")
    assert run("show", "start").output == ascii_board(START)
    assert run("show", "--style", "korean", "--home", "left", WHITE_ON_ROLL).output == \
        ascii_board(parse_position(WHITE_ON_ROLL), home="left", style="korean")
    target = tmp_path / "board.svg"
    assert run("show", "--svg", "--style", "korean", "-o", str(target), "start").exit_code == 0
    assert "상12" in target.read_text(encoding="utf-8")


# --- matches: a .mat written in every notation reads back to the same match --------------

def need(files):
    if not files:
        pytest.fail("oracle data not found under tests/data: the repository holds it", pytrace=False)
    return files


def signature(replay):
    """As tests/test_export.py: every action with the state before it, and the results."""
    events = [(e.game, e.side, e.kind, e.dice, e.before.position.id(), e.points)
              for e in replay.events if e.kind != "roll"]
    results = [(r.winner_side, r.result, r.points, r.cube, r.crawford, r.score) for r in replay.results]
    return events, results, replay.length, replay.players


def problems(replay) -> list[tuple]:
    return [(p.line, p.kind) for p in replay.problems]


@pytest.mark.parametrize("notation", STYLES)
def test_every_selfplay_match_reads_back_in_every_notation(notation):
    for path in need(SELFPLAY):
        record = read_any(path)[0]
        original = replay_match(record)
        text = mat_text(record, notation=notation)
        back = read_matches(text)
        assert back.errors == [], (path, notation, back.errors[:3])        # every line read
        assert len(back.matches) == 1
        cells = sum(len(g.actions) for g in back.matches[0].games)
        assert cells == sum(len(g.actions) for g in record.games), (path, notation)
        again = replay_match(back.matches[0])
        assert signature(again) == signature(original), (path, notation)
        assert [p.kind for p in again.problems] == [p.kind for p in original.problems], (path, notation)
        # and written once more, in the same notation, it is the same text
        assert mat_text(back.matches[0], notation=notation) == text, (path, notation)


def test_korean_mat_cells_name_points_by_their_column():
    need(SELFPLAY)
    record = read_any(SELFPLAY[1])[0]
    text = mat_text(record, notation="korean")
    back = read_matches(text).matches[0]
    events = [e for e in replay_match(record).events if e.kind == "move" and e.legal is not None]
    actions = [a for g in back.games for a in g.actions if a.kind == "move" and a.play_text]
    assert {a.side for a in actions} == {0, 1}
    for event, action in zip(events, actions):
        assert action.side == event.side
        assert action.play_text == play_text(event.legal, "korean", side=event.side)


def test_korean_rows_read_the_same_by_the_fast_path_and_the_grammar():
    need(SELFPLAY)
    for path in SELFPLAY[:6]:
        text = mat_text(read_any(path)[0], notation="korean")
        for number, line in enumerate(text.split("\n"), 1):
            if ")" not in line or ":" not in line:
                continue
            fast = read_row(line, number)
            assert _row_segments(line) is not None, line        # the fast path knows the names
            slow = _place(_grammar_line("row", line, number, "-", "move row"), line, number, "-")
            assert fast == slow, line


def test_a_long_korean_cell_on_the_left_still_leaves_two_cells():
    row = "  7) 66: 하12/상7* 하10/상9* 하8/하2* 하7/하1* 62: 상1/상7 상12/하11 "
    actions = read_row(row, 7)
    assert [(a.side, a.play_text) for a in actions] == [
        (0, "하12/상7* 하10/상9* 하8/하2* 하7/하1*"), (1, "상1/상7 상12/하11")]


KOREAN_MATCH = """\
 1 point match

 Game 1
 White : 0                      Black : 0
  1)                             31: 하8/하5 하6/하5
  2) {white_roll}: {white_play:<23}  {black_roll}: {black_play}
"""


def korean_match(white_roll="62", white_play="하1/하7 하12/상11", black_roll="64", black_play="상1/상7 상12/하9"):
    return KOREAN_MATCH.format(white_roll=white_roll, white_play=white_play, black_roll=black_roll,
                               black_play=black_play)


def test_a_hand_written_korean_match_is_read_by_each_column_side():
    replay = replay_match(read_matches(korean_match()).matches[0])
    moves = [e for e in replay.events if e.kind == "move"]
    assert [e.play for e in moves] == ["8/5 6/5", "24/18 13/11", "24/18 13/9"]
    assert [p.kind for p in replay.problems] == [ProblemKind.INCOMPLETE]   # the game just stops


def test_a_korean_play_of_another_roll_is_a_dice_problem_for_either_side():
    # White writes a play of 62 for a roll of 51: the roll does not fit the play
    white = replay_match(read_matches(korean_match(white_roll="51")).matches[0])
    assert ProblemKind.DICE in [p.kind for p in white.problems]
    dice = [p for p in white.problems if p.kind == ProblemKind.DICE][0]
    assert "하1/하7 하12/상11" in dice.message and "62" in dice.message
    # Black writes a play of 64 for a roll of 53
    black = replay_match(read_matches(korean_match(black_roll="53")).matches[0])
    dice = [p for p in black.problems if p.kind == ProblemKind.DICE]
    assert dice and "상1/상7 상12/하9" in dice[0].message and "64" in dice[0].message


def test_an_illegal_korean_play_is_reported_and_the_game_goes_on():
    # White moves three checkers 13/11 with 62: no roll's legal play, but it can be applied
    replay = replay_match(read_matches(korean_match(white_play="하12/상11 하12/상11 하12/상11")).matches[0])
    kinds = [p.kind for p in replay.problems]
    assert kinds == [ProblemKind.PLAY, ProblemKind.INCOMPLETE]
    assert "하12/상11 하12/상11 하12/상11" in replay.problems[0].message
    moves = [e for e in replay.events if e.kind == "move"]
    assert moves[-1].play == "24/18 13/9" and moves[-1].legal is not None


def test_json_export_in_korean_reads_back():
    need(SELFPLAY)
    record = read_any(SELFPLAY[2])[0]
    text = json_text([record], notation="korean")
    assert "상" in text
    back = read_json(text)
    assert signature(replay_match(back[0])) == signature(replay_match(record))


def test_export_in_korean_then_again_keeps_every_move(run, tmp_path):
    need(SELFPLAY)
    source = SELFPLAY[3]
    korean = tmp_path / "korean.mat"
    assert run("export", source, "--to", "mat", "--notation", "korean", "-o", str(korean)).exit_code == 0
    again = tmp_path / "again.mat"
    result = run("export", str(korean), "--to", "mat", "-o", str(again))
    assert result.exit_code == 0, result.output
    # the same match, every move in it (the order of a play's dice is not
    # kept by the canonical Korean text, so the lines may differ)
    assert signature(replay_match(read_any(again)[0])) == signature(replay_match(read_any(source)[0]))
    audit = run("audit", str(korean))
    assert audit.exit_code == 0, audit.output
