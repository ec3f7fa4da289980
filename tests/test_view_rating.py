"""bgcli view --engine: each row marks its decisions' errors and the equity after the action."""
from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from fake_engine import FakeEngine
import bgcli.scale.rating as scale_rating
from bgcli.cli import cli
from bgcli.formats.files import replay_file, visit_file
from bgcli.judging.rating import DecisionKind, rate_replay
from bgcli.render.view import match_html

THREE = Path(__file__).parent / "data" / "rating" / "sp05025_3pt.mat"


def test_rows_carry_the_errors_and_the_equity_after_each_action():
    replays = list(replay_file(str(THREE)))
    ratings = rate_replay(FakeEngine(), lambda v: visit_file(str(THREE), v))
    page = match_html(replays, "three", ratings=ratings)
    decisions = ratings[0].decisions
    errors = [d for d in decisions if d.error and d.kind != DecisionKind.ILLEGAL]
    assert errors
    assert page.count('class="judge') == len(errors)
    shown = [d for d in decisions if d.equity is not None and d.kind != DecisionKind.NO_DOUBLE]
    assert page.count('class="equity"') == len(shown)
    for d in errors:
        assert f"−{d.error:.3f}" in page
    marked = [d for d in errors if d.mark.value]
    assert len(re.findall(r'<tr class="step event[^"]*(doubtful|bad|verybad)', page)) == len(
        {(d.line, d.side, d.is_cube and d.kind != DecisionKind.NO_DOUBLE) for d in marked})
    assert 'class="judge' not in match_html(replays, "three")     # no rating, no marks


def test_view_engine_option(monkeypatch, tmp_path):
    monkeypatch.setattr(scale_rating, "engines_for", lambda spec: (FakeEngine(), FakeEngine(0)))
    out = tmp_path / "page.html"
    result = CliRunner().invoke(cli, ["view", "--engine", "sage", str(THREE), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert 'class="equity"' in out.read_text()
    refused = CliRunner().invoke(cli, ["view", "--engine", "sage", "-", "-o", str(out)], input=THREE.read_text())
    assert refused.exit_code == 2


def test_a_cube_error_names_the_proper_action_in_gnubgs_words():
    from bgcli.core.cube import CubeAction

    replays = list(replay_file(str(THREE)))
    ratings = rate_replay(FakeEngine(), lambda v: visit_file(str(THREE), v))
    page = match_html(replays, "three", ratings=ratings)
    cube_errors = [d for d in ratings[0].decisions if d.is_cube and d.error]
    assert cube_errors
    words = {str(action) for action in CubeAction}
    for d in cube_errors:
        assert d.action in words and f"−{d.error:.3f}, {d.action}" in page.replace("&#x27;", "'")
