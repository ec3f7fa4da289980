"""Tests of the HTML match viewer (bgcli.render.view): structure, self-containment,
rows and problems against the oracle's audit sample, what each row carries
for its board, and, where Debian's Chromium is installed, the page driven in
a real headless browser over the DevTools protocol (keys, clicks, a
screenshot). tests/test_view_board.py compares the boards the page draws
with svg_board's."""
from __future__ import annotations

import json
import os
import subprocess
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from bgcli.errors import BgcliError
from bgcli.core.ids import match_id, parse_match_id
from bgcli.core.position import BAR
from bgcli.render.board import svg_board
from bgcli.formats.files import replay_file
from bgcli.core.state import GameState
from bgcli.core.position import Position
from bgcli.core.value import Outcome
from bgcli.render.view import _Identifiers, _Step, _SVG_NAMESPACE, _match_steps, match_html, view_file

from chromium import CHROMIUM, FLAGS, Browser, need_chromium
from conftest import DATA, ORACLE, SAMPLES, committed

AUDIT = ORACLE / "audit_sample"
SELFPLAY = ORACLE / "selfplay"
VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source", "track", "embed", "param"}
SVG_NAMESPACE = "http://www.w3.org/2000/svg"


need = committed


def audit_cases(per_kind: int = 3) -> list[dict]:
    """The first few planted defects of each kind."""
    expected = need(AUDIT / "expected.jsonl")
    cases, seen = [], defaultdict(int)
    for line in expected.read_text().splitlines():
        case = json.loads(line)
        if seen[case["kind"]] < per_kind:
            seen[case["kind"]] += 1
            cases.append(case)
    return cases


class Page(HTMLParser):
    """Checks that tags nest and collects what the tests look at."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.rows: list[dict] = []          # attributes of every tr.step, with its text
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.scripts: dict[str, str] = {}
        self._script: str | None = None
        self._row: dict | None = None
        self._depth_row = 0
        self.feed(text)
        self.close()
        if self.stack:
            self.errors.append(f"unclosed {self.stack}")

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            if a["id"] in self.ids:
                self.errors.append(f"duplicate id {a['id']}")
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "tr" and "step" in a.get("class", "").split():
            self._row = dict(a, text="")
            self.rows.append(self._row)
        if tag == "script":
            self._script = a.get("id", "")
            self.scripts[self._script] = ""
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]} at {self.getpos()}")
            return
        self.stack.pop()
        if tag == "tr":
            self._row = None
        if tag == "script":
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self.scripts[self._script] += data
        elif self._row is not None:
            self._row["text"] += data


def steps_of(replays):
    """The rows of whole matches on one page, in page order."""
    steps = []
    for replay in replays:
        steps += _match_steps(replay, replay.events, replay.games(), len(steps))
    return steps


def replays_of(path: Path):
    return list(replay_file(str(path)))


def check_self_contained(text: str) -> None:
    lowered = text.lower()
    for bad in ("http:", "https:", "//www.", "@import", "url(", "<link", "<iframe", "<img", "src="):
        assert bad not in lowered, f"the page refers to something outside itself: {bad!r}"


def steps_expected(replays):
    """(kind, event) per row, in page order: events, plus an end row for a game
    that stops without a result, and one row for a game with no action."""
    rows = []
    for replay in replays:
        by_game = defaultdict(list)
        for event in replay.events:
            by_game[event.game].append(event)
        for game in replay.games():
            if game.game not in by_game:
                rows.append(("empty", game))
        for events in by_game.values():
            rows.extend(("event", e) for e in events)
            if events[-1].kind not in ("win", "resign"):
                rows.append(("end", events[-1]))
    return rows


# --- structure ---------------------------------------------------------------

def test_page_structure_rows_and_boards():
    path = need(SELFPLAY / "sp05030_13pt.mat")
    replays = replays_of(path)
    text = match_html(replays, "sp05030 <13pt> & co")
    page = Page(text)
    assert page.errors == []
    check_self_contained(text)
    assert "<title>sp05030 &lt;13pt&gt; &amp; co</title>" in text
    events = [e for r in replays for e in r.events]
    event_rows = [row for row in page.rows if "event" in row["class"].split()]
    assert len(event_rows) == len(events)
    for row, event in zip(event_rows, events):
        # what the script draws the board from: the position and the match state before the action
        assert row["data-pid"] == event.before.position.id()
        assert row["data-mid"] == match_id(event.before.match)
        assert "data-draw" not in row and "data-noboard" not in row
        assert int(row["data-line"]) == event.line
        if event.kind == "move" and event.play:
            assert event.play in row["text"]
    assert [r["id"] for r in page.rows] == [f"s{n}" for n in range(len(page.rows))]
    # the page's data: the players, the home side, the board's geometry; no picture per row
    data = json.loads(page.scripts["boards"])
    assert data["names"] == [list(replays[0].players)] and data["home"] == "right"
    assert text[:text.index("<script")].count("<svg") == 1, "only the first board is drawn in the page itself"
    first = svg_board(events[0].before, "right", 640, replays[0].players)
    assert first.replace(_SVG_NAMESPACE, "", 1) in text
    # each game a table in a box the browser lays out only when it is in view (a long session opens fast)
    games = {(e.game) for e in events}
    assert text.count('<div class="game-box"><table class="moves">') == len(games)
    assert ".game-box { content-visibility: auto;" in text
    # a 13-point match of ~580 actions: it was 850 kB with its boards packed, 7 MB with one SVG per row
    assert len(text) < 200_000, len(text)


def test_score_table_and_players():
    path = need(SELFPLAY / "sp05030_13pt.mat")
    replay = replays_of(path)[0]
    text = match_html([replay], "t")
    assert "13-point match" in text
    for name in replay.players:
        assert name in text
    for result in replay.results:
        assert f"<td>{result.game}</td><td>{result.winner}</td>" in text
    assert f"score {replay.score[0]}–{replay.score[1]}" in text
    if replay.problems:
        assert f"The audit found {len(replay.problems)} problem" in text
    else:
        assert "The audit found no problems" in text


def test_each_game_s_result_row_says_how_it_was_won():
    # the result kinds the samples hold: a single game, a gammon, a drop and resignations
    words = {Outcome.SINGLE: "a single game", Outcome.GAMMON: "a gammon", Outcome.DROP: "on a drop",
             Outcome.RESIGNATION: "by resignation"}
    seen = set()
    for path in (SAMPLES / "sp05001_3pt.mat", DATA / "real" / "gnubg-1.08-mat" / "charlot1-charlot2_7p_2025-11-08-2305.mat"):
        replay = replays_of(path)[0]
        text = match_html([replay], "t")
        for result in replay.results:
            assert f"{result.winner} wins {words[result.result]}, " in text
            seen.add(result.result)
    assert seen == set(words)


def test_view_file_titles_the_page_with_the_file_name():
    path = need(SELFPLAY / "sp05000_1pt.mat")
    assert "<title>sp05000_1pt.mat</title>" in view_file(str(path))
    assert "<h1>mine</h1>" in view_file(str(path), title="mine")


def test_home_left_and_bad_home():
    path = need(SELFPLAY / "sp05000_1pt.mat")
    replays = replays_of(path)
    right, left = match_html(replays, "t"), match_html(replays, "t", home="left")
    assert right != left and Page(left).errors == []
    assert json.loads(Page(left).scripts["boards"])["home"] == "left"
    first = replays[0].events[0]
    assert svg_board(first.before, "left", 640, replays[0].players).replace(_SVG_NAMESPACE, "", 1) in left
    with pytest.raises(ValueError, match="invalid home 'up'"):
        match_html(replays, "t", home="up")


def test_several_matches_have_their_own_sections():
    one, two = need(SELFPLAY / "sp05000_1pt.mat"), need(SELFPLAY / "sp05001_3pt.mat")
    replays = replays_of(one) + replays_of(two)
    replays[1].number = 2
    page = Page(match_html(replays, "two"))
    assert page.errors == []
    assert {"m1", "m2"} <= page.ids
    assert len(page.rows) == len(steps_expected(replays))
    # the rows of each match name its players (the script draws them on the board)
    data = json.loads(page.scripts["boards"])
    assert data["names"] == [list(r.players) for r in replays]
    assert 'data-match="1" data-head="match 2, game 1"' in match_html(replays, "two")


def test_empty_list_of_matches():
    page = Page(match_html([], "nothing"))
    assert page.errors == [] and page.rows == []
    data = json.loads(page.scripts["boards"])
    assert data["names"] == [] and data["sides"] == []


def test_hostile_names_are_escaped(tmp_path):
    source = need(SELFPLAY / "sp05000_1pt.mat").read_text()
    replay = replays_of(SELFPLAY / "sp05000_1pt.mat")[0]
    a, b = replay.players
    hostile = source.replace(a, "a<script>x", 1)
    path = tmp_path / "hostile.mat"
    path.write_text(hostile)
    replays = replays_of(path)
    assert "a<script>x" in replays[0].players or replays[0].problems, "the reader should keep or report the name"
    text = match_html(replays, "</script><b>")
    page = Page(text)
    assert page.errors == []
    assert "<script>x" not in text and "</script><b>" not in text
    assert set(page.scripts) == {"boards", ""}
    json.loads(page.scripts["boards"])  # the data script was not cut short


def test_game_after_the_match_is_won_still_gets_a_board(tmp_path):
    """A 1-point match with a second game: its states have a score no Match
    ID can carry; the rows say so and the boards are still drawn."""
    text = need(SELFPLAY / "sp05000_1pt.mat").read_text()
    game = text[text.index(" Game 1"):]
    path = tmp_path / "twice.mat"
    path.write_text(text + "\n" + game.replace(" Game 1", " Game 2", 1).replace(": 0 ", ": 1 ", 1))
    replays = replays_of(path)
    assert any(p.kind == "match" for p in replays[0].problems)
    page = Page(match_html(replays, "twice"))
    assert page.errors == []
    second = [r for r in page.rows if r["data-mid"].startswith("none")]
    assert second and all(r["data-mid"].startswith("none (score ") for r in second)
    assert all(len(r["data-mid"]) == 12 for r in page.rows if r not in second)
    # the board is drawn with the nearest state a Match ID carries: that ID is on the row
    for row in second:
        drawn = parse_match_id(row["data-draw"])
        assert drawn.match_length == 1 and drawn.game_state == 2   # the match is over


def test_a_position_without_an_id_is_not_drawn():
    start = Position.start()
    impossible = Position(tuple([0] + [15] * 24 + [0]), start.opponent)
    step = _Step(0, None, 1, 1, GameState(impossible), None)   # type: ignore[arg-type]
    _Identifiers().fill(step)
    assert (step.pid, step.mid) == ("none", "none") and step.no_board
    fine = _Step(1, None, 1, 1, GameState(start), None)   # type: ignore[arg-type]
    _Identifiers().fill(fine)
    assert (fine.pid, fine.no_board) == (start.id(), "")


# --- problems at their rows (the oracle's planted defects) ------------------

@pytest.mark.parametrize("case", audit_cases() if AUDIT.exists() else [], ids=lambda c: c["file"])
def test_planted_defect_is_marked_at_its_row(case):
    replays = replays_of(AUDIT / case["file"])
    page = Page(match_html(replays, case["file"]))
    assert page.errors == []
    rows = page.rows
    marked = [r for r in rows if "problem" in r["class"].split()]
    at_line = [r for r in marked if int(r["data-line"]) == case["line"]]
    assert at_line, f"no row at line {case['line']} is marked"
    assert any(f"{case['kind']}:" in r["text"] for r in at_line)
    # every problem is listed at the top, and its link selects a marked row
    problems = [p for r in replays for p in r.problems]
    step_links = [int(h.split("=")[1]) for h in page.links if h.startswith("#step=")]
    assert len(step_links) == len(problems)
    assert all("problem" in rows[i]["class"].split() for i in step_links)
    first = min(problems, key=lambda p: p.line)
    assert first.line == case["line"]
    # each problem's message is shown in a marked row
    shown = " ".join(r["text"] for r in marked)
    assert all(p.message in shown for p in problems)


# --- robustness --------------------------------------------------------------

MUTABLE = SELFPLAY / "sp05002_5pt.mat"


@settings(deadline=None, max_examples=25)
@given(st.data())
def test_mutated_transcripts_give_a_page_or_our_error(data):
    lines = need(MUTABLE).read_text().splitlines()
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        how = data.draw(st.sampled_from(["drop", "swap", "cut", "dup"]))
        if how == "drop":
            del lines[i]
        elif how == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif how == "cut":
            lines[i] = lines[i][: data.draw(st.integers(0, max(0, len(lines[i]) - 1)))]
        else:
            lines.insert(i, lines[i])
        if not lines:
            lines = [""]
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"bgcli-view-mutant-{os.getpid()}.mat"
    path.write_text("\n".join(lines) + "\n")
    try:
        replays = replays_of(path)
    except BgcliError:
        return
    finally:
        path.unlink(missing_ok=True)
    page = Page(match_html(replays, "mutant"))
    assert page.errors == []
    assert len(page.rows) == len(steps_expected(replays))
    # every row can be drawn: an ID each, or why there is none
    for row in page.rows:
        assert len(row["data-pid"]) == 14 or row.get("data-noboard")
        assert len(row["data-mid"]) == 12 or len(row.get("data-draw", "")) == 12 or row.get("data-noboard")
    assert len([h for h in page.links if h.startswith("#step=")]) == sum(len(r.problems) for r in replays)


def drawn_checkers(state) -> int:
    """Circles svg_board draws for checkers on points and the bar (five at most per stack)."""
    p = state.position
    return sum(min(n, 5) for side in (p.player, p.opponent) for n in side[1:BAR + 1])


def test_in_chromium_keys_clicks_and_screenshot(tmp_path):
    need_chromium()
    case = audit_cases(1)[0]
    replays = replays_of(AUDIT / case["file"])
    page_file = tmp_path / "match.html"
    page_file.write_text(match_html(replays, case["file"]))
    expected = steps_expected(replays)
    events = [e for kind, e in expected]
    browser = Browser(tmp_path / "profile")
    try:
        browser.open(page_file.as_uri())
        shown = lambda: browser.js("document.getElementById('pid').textContent")
        selected = lambda: browser.js("+document.querySelector('tr.selected').id.slice(1)")
        assert selected() == 0 and shown() == events[0].before.position.id()
        for _ in range(3):
            browser.key("ArrowRight", 39)
        assert selected() == 3 and shown() == events[3].before.position.id()
        assert browser.js("document.getElementById('mid').textContent") == match_id(events[3].before.match)
        browser.key("ArrowLeft", 37)
        browser.key("ArrowDown", 40)
        browser.key("ArrowDown", 40)
        assert selected() == 4
        assert browser.js("document.querySelectorAll('#board circle.checker').length") == drawn_checkers(events[4].before)
        browser.key("End", 35)
        assert selected() == len(expected) - 1
        browser.key("Home", 36)
        assert selected() == 0
        browser.click_row(10)
        assert selected() == 10 and shown() == events[10].before.position.id()
        browser.key("n", 78)   # the next problem: the planted defect's row
        row = selected()
        assert expected[row][1].line == case["line"]
        assert browser.js("document.getElementById('messages').textContent").startswith(case["kind"])
        png = browser.screenshot(tmp_path / "view.png")
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
        # nothing went wrong in the page and nothing was fetched from outside it
        assert not [e for e in browser.events if e.get("method") == "Runtime.exceptionThrown"]
        urls = [e["params"]["request"]["url"] for e in browser.events if e.get("method") == "Network.requestWillBeSent"]
        assert all(u.startswith("file:") for u in urls), urls
    finally:
        browser.close()


def test_in_chromium_address_selects_a_row(tmp_path):
    need_chromium()
    path = need(SELFPLAY / "sp05001_3pt.mat")
    replays = replays_of(path)
    page_file = tmp_path / "match.html"
    page_file.write_text(match_html(replays, "x"))
    events = [e for kind, e in steps_expected(replays)]
    step = 17
    dom = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", f"{page_file.as_uri()}#step={step}"],
        capture_output=True, text=True, timeout=60).stdout
    page = Page(dom)
    chosen = [r for r in page.rows if "selected" in r["class"].split()]
    assert [r["id"] for r in chosen] == [f"s{step}"]
    pid = events[step].before.position.id()
    assert f'<code id="pid">{pid}</code>' in dom
    assert f"backgammon position {pid}:" in dom   # the board drawn in the page is that position


def test_rows_carry_their_bear_off_odds_once_per_side():
    """Each side all home has one entry of the page's table (mean, chance of each
    number of rolls, as bgcli.analysis computes them); each row names its two."""
    from bgcli.analysis.counts import analyze

    replays = replays_of(SELFPLAY / "sp05002_5pt.mat")
    text = match_html(replays, "pips")
    page = Page(text)
    sides = json.loads(page.scripts["boards"])["sides"]
    assert len({json.dumps(s) for s in sides}) == len(sides), "each side once"
    checked = 0
    for row in page.rows:
        position = Position.from_id(row["data-pid"])
        expected = analyze(position).bearoff
        if "data-bearoff" not in row:
            assert expected is None or not any(expected)
            continue
        for entry, figures in zip(row["data-bearoff"].split(","), expected):
            if figures is None:
                assert entry == ""
                continue
            mean, dist = sides[int(entry)]
            assert mean == pytest.approx(figures.mean, abs=1e-6)
            assert dist == pytest.approx(list(figures.dist), abs=1e-6)
            checked += 1
    assert checked, "the match reaches a bear-off"
    assert 'id="bearoff"' in text and "showBearoff" in text


def test_the_view_command_keeps_the_collector_off_while_it_replays_and_makes_the_rows(tmp_path, monkeypatch, run):
    """The cycle collector would walk every kept state of a long session's games again and
    again, finding nothing: it is off while the files are replayed and their rows made, and
    what they made is frozen before it is switched on again (it would walk it all at once)."""
    import gc

    import bgcli.cli.matches as matches
    import bgcli.render.view as view

    timeline = []
    real_replays, real_write, real_enable, real_freeze = matches._replays_counted, view.Page.write, gc.enable, gc.freeze

    def replays(*args, **kwargs):
        found = real_replays(*args, **kwargs)
        timeline.append("replayed with the collector " + ("on" if gc.isenabled() else "off"))
        return found

    def write(*args, **kwargs):
        timeline.append("written")
        return real_write(*args, **kwargs)

    def enable():
        timeline.append("collector on")
        real_enable()

    def freeze():
        timeline.append("frozen")
        real_freeze()

    monkeypatch.setattr(matches, "_replays_counted", replays)
    monkeypatch.setattr(view.Page, "write", write)
    monkeypatch.setattr(gc, "enable", enable)
    monkeypatch.setattr(gc, "freeze", freeze)
    result = run("view", str(SELFPLAY / "sp05002_5pt.mat"), "-o", str(tmp_path / "page.html"))
    assert result.exit_code == 0, result.output
    assert timeline == ["replayed with the collector off", "frozen", "collector on", "written"]


def test_a_games_events_share_their_match_states():
    """The replay keeps one match state per distinct value in a game, not one per
    event: the states of a long session's events are most of what a page is built from."""
    events = replays_of(SELFPLAY / "sp05002_5pt.mat")[0].events
    by_game: dict = defaultdict(dict)
    for event in events:
        match = event.before.match
        assert by_game[event.game].setdefault(match, match) is match, \
            f"game {event.game} line {event.line}: an equal match state made anew"
    assert sum(len(states) for states in by_game.values()) < len(events)   # some do come back


def _replayed(path: str, rules) -> list:
    """What a replay with events says of a file, field by field (a Play compared by its steps and result)."""
    from bgcli.errors import BgcliError

    try:
        replays = list(replay_file(path, rules))
    except BgcliError as exc:
        return [str(exc)]
    out: list = []
    for replay in replays:
        out.append((replay.problems, replay.results, replay.unfinished))
        out.extend((e.match, e.game, e.line, e.move, e.side, e.player, e.kind, e.dice, e.play, e.before, e.after,
                    e.points, e.cube, e.record, None if e.legal is None else (e.legal.steps_key(), e.legal.result))
                   for e in replay.events)
    return out


def test_the_short_path_of_plays_with_events_changes_no_replay(monkeypatch):
    """Every file of tests/data replays to the same events, problems and results
    with the short path for the usual plays (the view's replay) and without it;
    and the short path makes most plays."""
    import bgcli.match.game as game_module
    from bgcli.core.judge import play_from_steps
    from bgcli.core.rules import Rules
    from test_audit_paths import match_files

    made = []

    def counted(*args):
        play = play_from_steps(*args)
        made.append(play is not None)
        return play

    monkeypatch.setattr(game_module, "play_from_steps", counted)
    for rules in (None, Rules(beavers=True, auto_doubles=1)):
        for path in match_files():
            monkeypatch.setattr(game_module, "_PLAYED", {})   # each play worked out here, not met in an earlier file
            short = _replayed(path, rules)
            with monkeypatch.context() as m:
                m.setattr(game_module, "play_from_steps", lambda *args: None)
                m.setattr(game_module, "_PLAYED", {})
                assert _replayed(path, rules) == short, path
    assert sum(made) > 0.9 * len(made) > 10_000


def test_a_play_after_a_borne_off_game_is_a_problem_on_the_short_path_with_events(tmp_path, monkeypatch):
    """A play recorded after the last checker is borne off is a problem in the
    view's replay too, and the replay says what the long way says (the game over)."""
    import bgcli.match.game as game_module
    from bgcli.core.generator import legal_plays
    from bgcli.match.replay import EventKind

    source = SELFPLAY / "sp05003_7pt.mat"
    lines = source.read_text().split("\n")
    events = replays_of(source)[0].events
    last = next(e for e in events if e.kind == EventKind.MOVE and e.after is not None and e.after.player[0] == 15)
    play = legal_plays(last.after.swap(), (2, 1))[0]   # the loser's legal play, written after the game is over
    cell = "21: " + " ".join(f"{step.start}/{step.end}" for step in play.steps)
    path = tmp_path / "late.mat"
    path.write_text("\n".join(lines[:last.line] + [f" 99) {cell}" if last.side == 1 else f" 99) {'':27} {cell}"]
                              + lines[last.line:]))
    problems = replays_of(path)[0].problems
    assert any("after the game was over" in p.message and p.line == last.line + 1 for p in problems), problems
    monkeypatch.setattr(game_module, "_PLAYED", {})
    short = _replayed(str(path), None)
    monkeypatch.setattr(game_module, "play_from_steps", lambda *args: None)
    monkeypatch.setattr(game_module, "_PLAYED", {})
    assert _replayed(str(path), None) == short


# --- the speed paths of a long session's page ------------------------------------------

class Forgetful(dict):
    """A cache that keeps nothing: every lookup misses, so the slow path runs each time."""

    def __setitem__(self, key, value):
        pass


def _twice(tmp_path) -> Path:
    """A file holding the same match twice, as a long session meets the same plays again."""
    text = (SELFPLAY / "sp05002_5pt.mat").read_text()
    path = tmp_path / "twice.mat"
    path.write_text(text + "\n" + text)
    return path


def test_a_play_met_again_is_worked_out_once_and_replays_the_same(tmp_path, monkeypatch):
    """The short path of the view's replay remembers each play by the board, the mover, the dice
    and the text: a match met again costs no judging of its plays, and its events are the ones
    the long way makes (and the short path without the cache)."""
    import bgcli.match.game as game_module
    from bgcli.core import notation

    path = _twice(tmp_path)
    judged, texts = [], []
    real_judge, real_text = game_module.play_from_steps, notation.canonical_text
    monkeypatch.setattr(game_module, "play_from_steps", lambda *args: judged.append(1) or real_judge(*args))
    monkeypatch.setattr(game_module, "canonical_text", lambda *args: texts.append(args) or real_text(*args))
    monkeypatch.setattr(game_module, "_PLAYED", {})
    monkeypatch.setattr(game_module, "_SHOWN", {})
    remembered = _replayed(str(path), None)
    replays = replays_of(path)
    moves = [e for e in replays[0].events if e.legal is not None]
    assert len(judged) <= len(moves) < 2 * len(moves) == sum(1 for r in replays for e in r.events if e.legal)
    # a play's text is written once per change of checkers, the text play_text writes
    assert 0 < len(texts) == len(set(texts)) < len(moves)
    assert all(e.play == notation.play_text(e.legal) for r in replays for e in r.events if e.legal is not None)
    monkeypatch.setattr(game_module, "_PLAYED", Forgetful())
    monkeypatch.setattr(game_module, "_SHOWN", Forgetful())
    assert _replayed(str(path), None) == remembered
    monkeypatch.setattr(game_module, "play_from_steps", lambda *args: None)   # the long way
    assert _replayed(str(path), None) == remembered


def test_the_short_paths_events_are_the_dataclasses_own(monkeypatch):
    """The short path sets an event's fields in one go, not through the frozen dataclass's
    __init__: the same fields, equal to (and hashing as) the event __init__ makes."""
    from dataclasses import fields

    from bgcli.match.replay import Event

    names = [f.name for f in fields(Event)]
    made_by_init = []
    real = Event.__init__
    monkeypatch.setattr(Event, "__init__", lambda self, *args, **kwargs: made_by_init.append(1) or real(self, *args, **kwargs))
    replay = replays_of(SELFPLAY / "sp05002_5pt.mat")[0]
    events = [e for e in replay.events if e.legal is not None]
    assert len(made_by_init) < len(replay.events) - len(events) // 2
    monkeypatch.undo()
    for event in events:
        assert list(vars(event)) == names
        made = Event(**vars(event))
        assert made == event and hash(made) == hash(event) and repr(made) == repr(event)


def test_a_sides_half_of_the_position_id_is_worked_out_once(monkeypatch):
    """Each row's Position ID is made from its two sides' halves, each side's worked out once
    (a side comes back unchanged as the next row's opponent): the IDs position_id gives, and
    the page the one made without remembering them."""
    import bgcli.render.view as view

    replays = replays_of(SELFPLAY / "sp05002_5pt.mat")
    halves = []
    real = view._half
    monkeypatch.setattr(view, "_half", lambda side: halves.append(side) or real(side))
    page = match_html(replays, "ids")
    rows = Page(page).rows
    events = replays[0].events
    assert [row["data-pid"] for row in rows[:len(events)]] == [e.before.position.id() for e in events]
    assert len(halves) == len(set(halves)) < len(rows)

    class ForgetfulMemo(Forgetful, view._Memo):   # works each half out at every ask
        pass

    class Forgetting(view._Identifiers):
        def __init__(self):
            super().__init__()
            self.halves = ForgetfulMemo(real)

    monkeypatch.setattr(view, "_Identifiers", Forgetting)
    assert match_html(replays, "ids") == page


def test_most_rows_are_written_by_one_format_as_the_general_row_writes_them(monkeypatch):
    """A play with nothing else to say is written by _play_row: what _row writes for it, on
    every file of tests/data; and it writes most rows."""
    import bgcli.render.view as view
    from test_audit_paths import match_files

    written = []
    real = view._play_row
    monkeypatch.setattr(view, "_play_row", lambda step, event, names: written.append(1) or real(step, event, names))
    pages = {}
    rows = 0
    for path in match_files():
        try:
            pages[path] = view_file(path)
        except BgcliError:
            continue
        rows += pages[path].count('<tr class="step')
    assert len(written) > 0.8 * rows
    monkeypatch.setattr(view, "_play_row", lambda step, event, names: view._row(step, names))
    for path, page in pages.items():
        assert view_file(path) == page, path


def test_the_board_escapes_text_as_xml_sax_did_without_its_imports():
    """The board's text is escaped by html.escape(quote=False), which is xml.sax.saxutils.escape
    (& < > only) without urllib, http and email loaded at the start of every page; the page's
    script is read without importlib.resources."""
    from xml.sax.saxutils import escape

    from bgcli.render import board

    for text in ("a & b", "<script>", "x > y", "\"quoted\" 'single'", "&amp;", ""):
        assert board.escape(text, quote=False) == escape(text)
    loaded = subprocess.run([os.sys.executable, "-c", "import sys, bgcli.render.view as view; view._script(); print(sorted("
                             "m for m in ('xml.sax', 'urllib.request', 'http.client', 'importlib.resources') "
                             "if m in sys.modules))"], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_the_view_command_writes_the_page_the_library_makes(tmp_path):
    """bgcli view writes, as its files are replayed, the page match_html makes of their whole
    replays, with the command's status and its line about the file."""
    for name, status in (("sp05002_5pt.mat", 0), ("flawed_5pt.mat", 1)):
        source = SELFPLAY / name if status == 0 else Path(__file__).parents[1] / "samples" / name
        out = tmp_path / f"{name}.html"
        replays = replays_of(source)
        done = subprocess.run([os.sys.executable, "-m", "bgcli", "view", str(source), "-o", str(out)],
                              capture_output=True, text=True)
        actions = sum(len(r.events) for r in replays)
        assert done.returncode == status and done.stderr.startswith(f"wrote {out}: {actions} actions")
        assert out.read_text(encoding="utf-8") == match_html(replays, name)


def test_a_rows_bear_off_entries_are_what_bearoff_gives_without_asking_the_position(monkeypatch):
    """A row's bear-off entries come from its sides' remembered checks (counts right, all home)
    and a point held by both, not from Position.problem on every row: what _bearoff says, on
    every row of a file with races, and on flawed boards (a point held by both, 14 checkers)."""
    from bgcli.core.position import Position as Board

    replays = replays_of(SELFPLAY / "sp05002_5pt.mat")
    steps = steps_of(replays)
    ids = _Identifiers()
    with monkeypatch.context() as m:
        m.setattr(Board, "problem", lambda self: pytest.fail("Position.problem asked"))
        for step in steps:
            ids.fill(step)
    assert sum(1 for s in steps if s.bearoff) > 10
    assert all(ids._bearoff(s.state.position) == s.bearoff for s in steps)
    home = tuple([0, 3, 3, 3, 2, 2, 2] + [0] * 19)
    start = Board.start().opponent
    for player, opponent in ((home, start), (tuple([1] + list(home[1:6]) + [1] + [0] * 19), start),
                             (home, tuple([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15] + [0] * 6)),
                             (tuple([0, 3, 3, 3, 2, 2, 1] + [0] * 19), start),
                             (home, tuple([0] * 13 + [15] + [0] * 12))):   # the one with odds
        board = Board(player, opponent)
        step = _Step(0, None, 1, 1, GameState(board), None)   # type: ignore[arg-type]
        fresh = _Identifiers()
        fresh.fill(step)
        assert step.bearoff == fresh._bearoff(board), (player, opponent)
        assert bool(step.bearoff) == (not board.problem())


def test_equal_match_states_are_one_state_and_the_page_finds_their_ids_by_identity(tmp_path, monkeypatch):
    """The replay shares its match states by every field, across games and matches (a long
    session meets the same few hundred): equal states are one object; the page then looks each
    row's Match ID up by identity, hashing a state only the first time it meets it."""
    from bgcli.core.state import MatchState

    replays = replays_of(_twice(tmp_path))
    states = [e.before.match for r in replays for e in r.events]
    assert len({id(s) for s in states}) == len(set(states)) < len(states) // 2
    hashed = []
    real = MatchState.__hash__
    monkeypatch.setattr(MatchState, "__hash__", lambda self: hashed.append(1) or real(self))
    page = match_html(replays, "twice")
    assert len(hashed) <= 2 * len(set(states))
    monkeypatch.undo()
    rows = Page(page).rows
    assert [row["data-mid"] for row in rows[:len(replays[0].events)]] == [match_id(e.before.match)
                                                                           for e in replays[0].events]


def test_a_game_with_no_action_shows_its_variants_opening(tmp_path):
    """A game that records no action shows where it would start: a nackgammon game's opening, not the
    standard game's (core.rules.Variation owns what a game starts from)."""
    from bgcli.core.position import Position
    from bgcli.core.rules import Variation

    path = tmp_path / "nack.mat"
    path.write_text('; [Variation "Nackgammon"]\n\n 3 point match\n\n Game 1\n alice : 0        bob : 0\n')
    [step] = steps_of(replays_of(path))
    assert step.event is None
    assert step.state.position in (Position.start(Variation.NACKGAMMON), Position.start(Variation.NACKGAMMON).swap())
    assert step.state.position != Position.start()
