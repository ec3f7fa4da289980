"""The boards the page draws in the browser (bgcli/render/view.js, from each
row's Position ID and Match ID) against bgcli.render.board.svg_board, which
draws the static picture: the same SVG text on every row of pages that
cover the cube (centred, owned, offered), the Crawford game, resignations,
the bar, borne-off checkers, money games with and without the Jacoby rule,
several matches in one file, a game after the match was won, and the home
board on either side. Also, read from the DOM after a row is selected, the
checkers drawn; and the line under the board (where the row is, the pips)."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from bgcli.core.position import OFF
from bgcli.render.board import drawable, svg_board
from bgcli.render.view import _SVG_NAMESPACE, _Identifiers, _where, match_html

from conftest import DATA, SAMPLES, SELFPLAY, committed
from test_view import replays_of, steps_of

SVG = "{http://www.w3.org/2000/svg}"


def twice(tmp_path):
    """A 1-point match with a second game: no Match ID carries its states."""
    text = committed(SELFPLAY / "sp05000_1pt.mat").read_text()
    game = text[text.index(" Game 1"):]
    path = tmp_path / "twice.mat"
    path.write_text(text + "\n" + game.replace(" Game 1", " Game 2", 1).replace(": 0 ", ": 1 ", 1))
    return path


CASES = {
    "flawed": (SAMPLES / "flawed_5pt.mat", "right"),
    "money": (SAMPLES / "sp05007_money.mat", "right"),
    "money, left": (SAMPLES / "sp05007_money.mat", "left"),
    "beavers": (DATA / "matchfiles" / "money_beaver.mat", "right"),
    "resignations": (SAMPLES / "studio_mrpurple_lasse_3pt.txt", "left"),
    "galaxy": (SAMPLES / "galaxy_match3029786.txt", "right"),
    "two matches": (DATA / "matchfiles" / "bbgt_two_matches.mat", "right"),
    "13 points": (SELFPLAY / "sp05030_13pt.mat", "right"),
    "after the match": (None, "left"),
}


def expected_rows(replays, home):
    """Per row, in page order: svg_board's text for it (None: no board), where it is, its pips line."""
    steps = steps_of(replays)
    ids = _Identifiers()
    out = []
    for step in steps:
        ids.fill(step)
        where = _where(step, len(replays) > 1)
        if step.no_board:
            out.append((None, where, ""))
            continue
        drawn, _ = drawable(step.state)
        names = step.replay.players
        svg = svg_board(drawn, home, 640, names).replace(_SVG_NAMESPACE, "", 1).rstrip("\n")
        p = step.state.position
        roll = drawn.match.on_roll
        pips = f"pips: {names[roll]} {p.pips()[0]}, {names[1 - roll]} {p.pips()[1]}"
        off = [f"{names[roll]} {p.player[OFF]}"] * bool(p.player[OFF]) + \
            [f"{names[1 - roll]} {p.opponent[OFF]}"] * bool(p.opponent[OFF])
        out.append((svg, where, pips + (" · borne off: " + ", ".join(off) if off else "")))
    return out


@pytest.mark.parametrize("case", list(CASES))
def test_the_page_draws_every_board_as_svg_board_does(case, browser, tmp_path):
    path, home = CASES[case]
    path = twice(tmp_path) if path is None else committed(path)
    replays = replays_of(path)
    expected = expected_rows(replays, home)
    page = tmp_path / "page.html"
    page.write_text(match_html(replays, case, home=home))
    browser.open(page.as_uri())
    assert browser.js("document.querySelectorAll('tr.step').length") == len(expected)
    differ = []
    for start in range(0, len(expected), 100):
        got = browser.js(f"""(function () {{ var out = [];
          for (var i = {start}; i < Math.min({start + 100}, {len(expected)}); i++)
            out.push([bgcliView.board(i), bgcliView.where(i), bgcliView.counts(i)]);
          return out; }})()""")
        for i, (mine, theirs) in enumerate(zip(got, expected[start:start + 100]), start):
            svg, where, pips = theirs
            if svg is not None and mine[0] != svg:
                differ.append((i, "board", first_difference(mine[0], svg)))
            if mine[1] != where:
                differ.append((i, "where", mine[1], where))
            if svg is not None and mine[2] != pips:
                differ.append((i, "pips", mine[2], pips))
    assert not differ, differ[:5]
    assert not [e for e in browser.events if e.get("method") == "Runtime.exceptionThrown"]


def first_difference(a: str, b: str) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"at {i}: {a[max(0, i - 60):i + 60]!r} vs {b[max(0, i - 60):i + 60]!r}"
    return f"lengths {len(a)} and {len(b)}"


def checkers(svg_root) -> Counter:
    """(side, point) -> checkers drawn, and (side, 'off') -> borne-off slabs."""
    found: Counter = Counter()
    for element in svg_root.iter():
        classes = element.get("class", "").split()
        if element.tag.endswith("circle") and classes[:1] == ["checker"]:
            found[classes[1], element.get("data-point")] += 1
        if element.tag.endswith("rect") and classes[:1] == ["off"]:
            found[classes[1], "off"] += 1
        if element.tag.endswith("text") and classes == ["count"]:
            found["stack of", element.get("data-point"), element.text] += 1
    return found


def test_the_selected_rows_board_in_the_dom_has_the_checkers_of_the_python_board(browser, tmp_path):
    path = committed(SELFPLAY / "sp05002_5pt.mat")   # contact, hits, the bar, a bear-off
    replays = replays_of(path)
    expected = expected_rows(replays, "right")
    page = tmp_path / "page.html"
    page.write_text(match_html(replays, "x"))
    browser.open(page.as_uri())
    rows = range(0, len(expected), max(1, len(expected) // 40))
    seen_bar = seen_off = 0
    for i in rows:
        browser.click_row(i)
        assert browser.js("document.querySelector('tr.selected').id") == f"s{i}"
        dom = browser.js("""(function () {
          var out = [];
          document.querySelectorAll('#board circle.checker, #board rect.off, #board text.count').forEach(function (e) {
            out.push([e.tagName, e.getAttribute('class'), e.getAttribute('data-point'), e.textContent]); });
          return out; })()""")
        drawn: Counter = Counter()
        for tag, cls, point, text in dom:
            kind, side = cls.split()[:2] if " " in cls else (cls, "")
            if tag == "circle":
                drawn[side, point] += 1
            elif tag == "rect":
                drawn[side, "off"] += 1
            else:
                drawn["stack of", point, text] += 1
        python = checkers(ET.fromstring(expected[i][0].replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1)))
        assert drawn == python, i
        assert sum(n for key, n in drawn.items() if key[0] in "ox") > 0
        seen_bar += any(key[1] == "bar" for key in drawn)
        seen_off += any(key[1] == "off" for key in drawn)
    assert seen_off, "some row has borne-off checkers"


def test_a_long_session_makes_a_small_page():
    """One board per row is not in the page: its size grows by a couple of hundred bytes a row."""
    replays = [r for p in sorted(SELFPLAY.glob("*.mat"))[:10] for r in replays_of(p)]
    for number, replay in enumerate(replays, 1):
        replay.number = number
    rows = sum(len(r.events) for r in replays)
    text = match_html(replays, "many")
    assert len(text) < 60_000 + 260 * rows, (len(text), rows)
    data = json.loads(text[text.index('id="boards">') + 12:text.index("</script>")])
    assert set(data) == {"home", "names", "sides", "geometry", "colours"}
