"""Tests of bgcli.render.board: gnubg's ASCII board and the SVG picture.

The golden boards in tests/data/boards/ were drawn by GNU Backgammon itself
(make_boards.py there shows how); cases.json gives each one's GNUbg ID, the
players' names and the side of the home board.
"""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.core.position import BAR, OFF, Position
from bgcli.render.board import DEFAULT_NAMES, ascii_board, svg_board

from bgcli.core.ids import parse_gnubg_id
from bgcli.core.rules import Rules
from bgcli.core.state import GameState, MatchState

from conftest import DATA

BOARDS = DATA / "boards"
CASES = json.loads((BOARDS / "cases.json").read_text())
SVG = "{http://www.w3.org/2000/svg}"


def game_of(case):
    return parse_gnubg_id(case["gnubg_id"])


# --- ASCII against gnubg --------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_ascii_board_is_gnubgs(case):
    expected = (BOARDS / f"{case['name']}.txt").read_text()
    assert ascii_board(game_of(case), home=case["home"], names=case["names"]) == expected


def test_bare_position_is_a_money_game_with_player_1_on_roll():
    expected = (BOARDS / "start.txt").read_text()
    assert ascii_board(Position.start(), names=("gnubg", "user")) == expected
    assert f"O: {DEFAULT_NAMES[0]}" in ascii_board(Position.start())


def test_names_come_from_the_match_when_it_has_them():
    game = GameState(Position.start(), MatchState(names=("Ann", "")))
    text = ascii_board(game)
    assert "O: Ann" in text and f"X: {DEFAULT_NAMES[1]}" in text


def test_bad_home_is_refused():
    with pytest.raises(ValueError):
        ascii_board(Position.start(), home="top")
    with pytest.raises(ValueError):
        svg_board(Position.start(), home="up")


# Random legal-looking positions: 15 checkers a side, no point held by both.
@st.composite
def positions(draw):
    player = [0] * 26
    for spot in draw(st.lists(st.integers(0, 25), min_size=15, max_size=15)):
        player[spot] += 1
    free = [0, 25] + [p for p in range(1, 25) if not player[25 - p]]
    opponent = [0] * 26
    for spot in draw(st.lists(st.sampled_from(free), min_size=15, max_size=15)):
        opponent[spot] += 1
    return Position(tuple(player), tuple(opponent))


def read_ascii(text: str) -> tuple[list[int], list[int]]:
    """Read a home-right ASCII board back: X's and O's sides, each in its
    own point numbers (index 0 off, 25 bar)."""
    lines = text.split("\n")
    top, bottom = lines[3:8], lines[13:8:-1]  # rows 0..4 from the edge inwards
    x, o = [0] * 26, [0] * 26
    columns = [3 + 3 * k for k in range(6)] + [22] + [26 + 3 * k for k in range(6)]

    def height(rows, col):
        marks = [row[col] for row in rows]
        n = sum(ch in "XO" for ch in marks[:4])
        if marks[4] in "XO":
            n = 5
        elif marks[4] != " ":
            n = int(marks[4], 16)
        return n, next((ch for ch in marks if ch in "XO"), None)

    for rows, points, bar in ((top, list(range(13, 19)) + list(range(19, 25)), "O"),
                              (bottom, list(range(12, 6, -1)) + list(range(6, 0, -1)), "X")):
        slots = points[:6] + ["bar"] + points[6:]
        for col, point in zip(columns, slots):
            n, mark = height(rows, col)
            if point == "bar":
                (o if bar == "O" else x)[BAR] = n
            elif mark == "X":
                x[point] = n
            elif mark == "O":
                o[25 - point] = n
        tray = sum(row[45:48].count(bar) for row in rows)
        (o if bar == "O" else x)[OFF] = tray
    return x, o


@settings(deadline=None, max_examples=150)
@given(positions(), st.integers(0, 1))
def test_ascii_board_reads_back(position, on_roll):
    game = GameState(position, MatchState(on_roll=on_roll, turn=on_roll))
    x, o = read_ascii(ascii_board(game))
    mine, theirs = (position.player, position.opponent) if on_roll == 1 else (position.opponent, position.player)
    assert (tuple(x), tuple(o)) == (mine, theirs)


@settings(deadline=None, max_examples=100)
@given(positions())
def test_ascii_home_left_mirrors_home_right(position):
    right = ascii_board(position).split("\n")
    left = ascii_board(position, home="left").split("\n")
    for r, l in zip(right[3:14], left[3:14]):
        if "BAR" in r:
            continue
        assert l[4:47] == r[1:44][::-1]  # the 24 points and the bar, mirrored
        assert l[0:3] == r[45:48][::-1]  # the borne-off tray moves to the left
    assert left[2].startswith("    +24-23") and right[2].startswith(" +13-14")


# --- SVG ------------------------------------------------------------------------

def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def checkers(root: ET.Element) -> Counter:
    """(side, data-point) -> number of checker circles."""
    found = Counter()
    for circle in root.iter(SVG + "circle"):
        classes = circle.get("class", "").split()
        if "checker" in classes:
            found[(classes[1], circle.get("data-point"))] += 1
    return found


def expected_checkers(position: Position, on_roll: int, heights: bool = False) -> Counter:
    """What the picture should show: at most five circles a stack or, with
    ``heights``, the number written on each stack taller than five."""
    sides = {"x": position.player, "o": position.opponent} if on_roll == 1 else \
        {"x": position.opponent, "o": position.player}
    roller = "x" if on_roll == 1 else "o"
    want = Counter()
    for side, counts in sides.items():
        stacks = [(str(point if side == roller else 25 - point), counts[point]) for point in range(1, 25)]
        for label, n in stacks + [("bar", counts[BAR])]:  # labels count from the roller's side
            if heights and n > 5:
                want[(label, str(n))] += 1
            elif n and not heights:
                want[(side, label)] = min(n, 5)
    return want


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_svg_draws_every_checker(case):
    game = game_of(case)
    root = parse_svg(svg_board(game, home=case["home"], names=case["names"]))
    assert checkers(root) == expected_checkers(game.position, game.match.on_roll)
    off = Counter(r.get("class").split()[1] for r in root.iter(SVG + "rect") if r.get("class", "").startswith("off "))
    x, o = (game.position.player, game.position.opponent) if game.match.on_roll else (game.position.opponent, game.position.player)
    assert off == Counter({s: n for s, n in (("x", x[OFF]), ("o", o[OFF])) if n})


@settings(deadline=None, max_examples=60)
@given(positions(), st.integers(0, 1), st.sampled_from(["right", "left"]))
def test_svg_checkers_match_random_positions(position, on_roll, home):
    game = GameState(position, MatchState(on_roll=on_roll, turn=on_roll))
    root = parse_svg(svg_board(game, home=home))
    assert checkers(root) == expected_checkers(position, on_roll)
    counts = Counter((t.get("data-point"), t.text) for t in root.iter(SVG + "text") if t.get("class") == "count")
    assert counts == expected_checkers(position, on_roll, heights=True)


def test_svg_is_self_contained():
    text = svg_board(Position.start())
    root = parse_svg(text)
    assert not list(root.iter(SVG + "script"))
    assert "href" not in text and "url(" not in text and "<image" not in text


def test_svg_tall_stack_shows_its_height():
    # 11 of the roller's checkers on his 1-point, 9 of the opponent's on its 6-point
    player = [0] * 26
    player[1], player[24] = 11, 4
    opponent = [0] * 26
    opponent[6], opponent[BAR] = 9, 6
    position = Position.from_sides(player[1:], opponent[1:])
    root = parse_svg(svg_board(position))
    counts = {(t.get("data-point"), t.text) for t in root.iter(SVG + "text") if t.get("class") == "count"}
    assert counts == {("1", "11"), ("19", "9"), ("bar", "6")}
    assert checkers(root)[("x", "1")] == 5


def label_positions(root):
    return {t.get("data-point"): (float(t.get("x")), float(t.get("y")))
            for t in root.iter(SVG + "text") if t.get("class") == "label"}


def test_svg_point_numbers_from_the_player_on_roll():
    right = label_positions(parse_svg(svg_board(Position.start())))
    assert sorted(right, key=int) == [str(p) for p in range(1, 25)]
    # player 1 on roll: his 1-point bottom right, 12 bottom left, 13 top left, 24 top right
    assert right["1"][0] > right["6"][0] > right["7"][0] > right["12"][0]
    assert right["1"][1] > right["24"][1]
    assert right["13"][0] < right["24"][0]
    left = label_positions(parse_svg(svg_board(Position.start(), home="left")))
    assert left["1"][0] < left["6"][0] < left["12"][0]


def test_svg_numbers_turn_round_when_player_0_rolls():
    game = GameState(Position.start(), MatchState(on_roll=0, turn=0, dice=(6, 4)))
    labels = label_positions(parse_svg(svg_board(game)))
    # player 0 sits at the top: his 1-point is top right
    assert labels["1"][1] < labels["13"][1] and labels["1"][0] > labels["12"][0]


def test_svg_home_left_is_the_mirror_image():
    position = Position.from_id("AABGaEcDAsAAAA")
    right, left = parse_svg(svg_board(position)), parse_svg(svg_board(position, home="left"))
    width = float(right.get("viewBox").split()[2])

    def circles(root, mirror):
        return sorted((c.get("class"), c.get("data-point"), round(width - float(c.get("cx")) if mirror else float(c.get("cx")), 1),
                       float(c.get("cy"))) for c in root.iter(SVG + "circle") if "checker" in c.get("class", ""))

    assert circles(right, False) == circles(left, True)
    assert circles(right, False) != circles(left, False)


def cube(root):
    rects = [r for r in root.iter(SVG + "rect") if r.get("class", "").startswith("cube")]
    values = [t.text for t in root.iter(SVG + "text") if t.get("class") == "cube-value"]
    return rects, values


def test_svg_cube_and_dice():
    middle = float(parse_svg(svg_board(Position.start())).get("viewBox").split()[3]) / 2
    rects, values = cube(parse_svg(svg_board(Position.start())))
    assert [r.get("class") for r in rects] == ["cube centred"] and values == ["64"]
    game = GameState(Position.start(), MatchState(cube=4, cube_owner=1, dice=(5, 3), rules=Rules(match_length=7), score=(3, 1)))
    root = parse_svg(svg_board(game))
    rects, values = cube(root)
    assert [r.get("class") for r in rects] == ["cube owned"] and values == ["4"]
    assert float(rects[0].get("y")) > middle  # player 1 owns it: bottom
    dice = [int(r.get("data-value")) for r in root.iter(SVG + "rect") if r.get("class", "").startswith("die")]
    assert dice == [5, 3]
    owner0 = GameState(Position.start(), MatchState(cube=2, cube_owner=0))
    rects, _ = cube(parse_svg(svg_board(owner0)))
    assert float(rects[0].get("y")) < middle


def test_svg_text_names_pips_and_match():
    game = GameState(Position.start(), MatchState(rules=Rules(match_length=7), score=(3, 1), dice=(2, 1)))
    root = parse_svg(svg_board(game, names=("Ann & Co", "Bob")))
    texts = {t.get("class"): t.text for t in root.iter(SVG + "text")}
    assert texts["band o"].startswith("O: Ann & Co") and "3 points" in texts["band o"] and "pips 167" in texts["band o"]
    assert "to play 21" in texts["band x"] and "1 point" in texts["band x"]
    assert "7-point match" in texts["foot"] and "4HPwATDgc/ABMA" in texts["foot"]
    size = parse_svg(svg_board(game, size=320))
    assert size.get("width") == "320"
