"""The viewer's keys as a person uses them, in headless Chromium at the
three window sizes of tests/test_view_screens.py: after n / p (next and
previous problem) and the arrows the selected row is on screen, the page has
one scrollbar (no scroll box beside it), and no blank band is scrolled into
view below the content."""
from __future__ import annotations

import time

import pytest

from conftest import SAMPLES, invoke
from chromium import Browser, need_chromium

FACTS = """(function () {
  var row = document.querySelector('tr.step.selected');
  var r = row ? row.getBoundingClientRect() : null;
  var boxes = Array.prototype.filter.call(document.querySelectorAll('body *'), function (e) {
    var o = getComputedStyle(e).overflowY;
    return (o === 'auto' || o === 'scroll') && e.scrollHeight > e.clientHeight + 1;
  }).map(function (e) { return e.className || e.tagName; });
  var content = document.querySelector('.layout').getBoundingClientRect().bottom;
  return {top: r && r.top, bottom: r && r.bottom, height: innerHeight, boxes: boxes,
          contentBottom: content, index: row ? row.id : null};
})()"""

KEYS = [("n", 78)] * 3 + [("p", 80), ("ArrowDown", 40), ("ArrowDown", 40), ("ArrowUp", 38), ("End", 35), ("Home", 36),
                          ("n", 78)]


@pytest.mark.parametrize("width,height", [(1366, 768), (1400, 1000), (1920, 1080)])
def test_the_selected_row_stays_on_screen_with_one_scrollbar_and_no_blank_band(tmp_path, width, height):
    need_chromium()
    page = tmp_path / "view.html"
    invoke("view", SAMPLES / "flawed_5pt.mat", SAMPLES / "sp05001_3pt.mat", "-o", page)
    browser = Browser(tmp_path / "profile", width, height)
    seen = []
    try:
        browser.open(page.as_uri())
        for key, code in KEYS:
            browser.key(key, code)
            time.sleep(0.3)   # the page settles its scroll over a few frames
            facts = browser.js(FACTS)
            seen.append((key, facts))
        browser.screenshot(tmp_path / f"after-keys-{width}x{height}.png")
    finally:
        browser.close()
    for key, facts in seen:
        assert facts["index"] is not None, key
        assert 0 <= facts["top"] and facts["bottom"] <= facts["height"], (key, facts)
        assert facts["boxes"] == [], (key, "a scroll box beside the page's scrollbar", facts)
        assert facts["contentBottom"] >= facts["height"] - 40, (key, "a blank band below the content", facts)
