"""The page's script reads Position IDs and Match IDs itself (bgcli/render/view.js draws
each row's board from them): that decoding is a fenced mirror of bgcli.core.ids and
Position.from_id, run here in headless Chromium on generated IDs and compared field by
field with what bgcli reads."""
from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgcli.core.ids import match_id, parse_match_id
from bgcli.core.position import Position
from bgcli.render import view
from test_ids import match_states, positions

SCRIPT = Path(view.__file__).with_name("view.js")
FENCE = re.compile(r"// Fenced mirror of bgcli\.core\.ids.*?\n(.*?)  // end of the fenced mirror", re.S)


def fenced_code() -> str:
    found = FENCE.search(SCRIPT.read_text(encoding="utf-8"))
    assert found, "view.js has no fenced mirror of bgcli.core.ids"
    return found.group(1)


def read_in_the_page(browser, ids: list[tuple[str, str]]) -> list[dict]:
    expression = ("(function () {\n" + fenced_code() + "\nreturn JSON.stringify(" + json.dumps(ids) +
                  ".map(function (p) { return {position: position(p[0]), match: matchState(p[1])}; }));\n})()")
    return json.loads(browser.js(expression))


def as_bgcli_reads(pid: str, mid: str) -> dict:
    position = Position.from_id(pid)
    m = parse_match_id(mid)
    return {"position": {"player": list(position.player), "opponent": list(position.opponent)},
            "match": {"cube": m.cube, "owner": m.cube_owner, "onRoll": m.on_roll, "crawford": m.crawford,
                      "gameState": m.game_state, "turn": m.turn, "doubled": m.doubled, "resign": m.resign,
                      "dice": list(m.dice), "length": m.match_length, "score": list(m.score),
                      "jacoby": m.rules.jacoby}}


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(positions(), match_states()), min_size=40, max_size=40))
def test_the_page_reads_every_id_as_bgcli_does(browser, states):
    ids = [(position.id(), match_id(match)) for position, match in states]
    assert read_in_the_page(browser, ids) == [as_bgcli_reads(pid, mid) for pid, mid in ids]


def test_the_fence_holds_the_whole_decoding():
    """What the page's script decodes IDs with is inside the fence: nothing outside it
    reads bits of an ID (a second copy would escape the test above)."""
    text = SCRIPT.read_text(encoding="utf-8")
    outside = text.replace(fenced_code(), "")
    assert "DIGITS" not in outside and "function bits" not in outside and "field(" not in outside
