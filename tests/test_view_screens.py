"""The viewer as a person sees it, in headless Chromium at common screen
sizes: the summary (the audit's problems, the score table) shows whole, not
in a scroll box, and the bear-off table names the players. Screenshots are
written beside the test's page (their paths are recorded in the report)."""
from __future__ import annotations

import re

import pytest

from conftest import SAMPLES, SELFPLAY, invoke
from chromium import Browser, need_chromium

SUMMARY = """(function () {
  var summary = document.querySelector('.summary');
  var problem = document.querySelector('.problems li');
  var scores = document.querySelector('.scores');
  return {nested: summary.scrollHeight > summary.clientHeight + 1,
          problem: problem.getBoundingClientRect().bottom, scores: scores.getBoundingClientRect().bottom,
          board: document.querySelector('#board svg').getBoundingClientRect().bottom,
          height: innerHeight, width: innerWidth, pageWide: document.documentElement.scrollWidth};
})()"""


@pytest.mark.parametrize("width,height", [(1366, 768), (1400, 1000), (1920, 1080)])
def test_the_summary_shows_whole_at_laptop_and_desktop_sizes(tmp_path, width, height, record_property):
    need_chromium()
    page = tmp_path / "flawed.html"
    assert invoke("view", SAMPLES / "flawed_5pt.mat", "-o", page).exit_code == 1   # the planted problem
    browser = Browser(tmp_path / "profile", width, height)
    try:
        browser.open(page.as_uri())
        facts = browser.js(SUMMARY)
        shot = tmp_path / f"view-{width}x{height}.png"
        browser.screenshot(shot)
        record_property("screenshot", str(shot))
    finally:
        browser.close()
    assert not facts["nested"], "the summary is a scroll box"
    # the audit's problem and the score table are on the first screen, beside the board
    assert facts["problem"] <= facts["height"] and facts["scores"] <= facts["height"], facts
    assert facts["board"] <= facts["height"], facts
    assert facts["pageWide"] <= facts["width"], "the page scrolls sideways"


def test_the_bear_off_table_names_the_players_and_shows_the_columns_that_matter(tmp_path):
    need_chromium()
    page = tmp_path / "race.html"
    invoke("view", SELFPLAY / "sp05002_5pt.mat", "-o", page)
    browser = Browser(tmp_path / "profile", 1366, 768)
    try:
        browser.open(page.as_uri())
        # a row where both sides are home: two rows of odds and the race
        # a row where both sides are home and some checkers are off
        step = browser.js("""+Array.prototype.filter.call(document.querySelectorAll('tr.step'), function (r, i) {
          return /^[0-9]+,[0-9]+$/.test(r.dataset.bearoff || "") && bgcliView.counts(i).indexOf("borne off") >= 0;
        })[0].id.slice(1)""")
        browser.click_row(step)
        table = browser.js("""(function () {
          var t = document.getElementById('bearoff');
          return {hidden: t.hidden, rows: Array.prototype.map.call(t.rows, function (r) {
            return Array.prototype.map.call(r.cells, function (c) { return c.textContent; }); })};
        })()""")
        pips = browser.js("document.getElementById('pips').textContent")
        browser.screenshot(tmp_path / "bearoff.png")
    finally:
        browser.close()
    assert not table["hidden"]
    head, *sides = table["rows"]
    named = [row[0] for row in sides if not row[0].startswith("wins")]
    assert any("(on roll)" in name for name in named)
    assert not any(name in ("on roll", "opponent") for name in named)
    assert all(name.replace(" (on roll)", "") in ("gnubg", "root") for name in named), named
    assert len(named) == 2 and sides[-1][0] == "wins the race"
    # no column where every side shows 0.0%
    odds = [row[1:-1] for row in sides if not row[0].startswith("wins")]
    for column in zip(*odds):
        assert any(cell != "0.0%" for cell in column), head
    assert head[-1] == "mean"
    # the checkers borne off, and whose (the board's trays say only "3 off")
    assert re.search(r" · borne off: (gnubg|root) [0-9]+(, (gnubg|root) [0-9]+)?$", pips), pips
