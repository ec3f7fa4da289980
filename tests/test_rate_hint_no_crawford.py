"""--no-crawford on the commands that judge: rate (its rule options, cli.common.rule_options) and hint (the
same option through cli.common.setting_flags): a match is judged without a Crawford game."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import bgcli.scale.rating as scale_rating
from bgcli.cli import cli
from bgcli.core.ids import match_id
from bgcli.core.rules import Rules
from bgcli.core.state import MatchState
from fake_engine import FakeEngine

DATA = Path(__file__).parent / "data"
needs_sage = pytest.mark.skipif(importlib.util.find_spec("bgsage") is None, reason="sage (bgsage) is not installed")


def _run(*args):
    return CliRunner().invoke(cli, [*map(str, args)])


def test_rate_no_crawford_judges_the_crawford_games_cube(monkeypatch):
    monkeypatch.setattr(scale_rating, "engines_for", lambda spec: (FakeEngine(spec.level), FakeEngine(0)))
    path = DATA / "rating" / "sp05017_3pt.mat"   # game 3 is the Crawford game

    def cube_decisions(*options):
        result = _run("rate", "--json", *options, path)
        assert result.exit_code in (0, 1), result.output
        return json.loads(result.output)

    with_rule, without = cube_decisions(), cube_decisions("--no-crawford")

    def no_doubles(rated):
        return [d["player"] for d in rated["decisions"] if d["game"] == 3 and d["kind"] == "no double"]

    # in the Crawford game (game 3) nobody may double: with no Crawford rule the trailer's (gnubg's) cube
    # is judged at each of its turns
    assert no_doubles(with_rule) == [] and set(no_doubles(without)) == {"gnubg"} and len(no_doubles(without)) == 18
    cubes = [[p["cube_decisions"] for p in rated["players"]] for rated in (with_rule, without)]
    assert cubes == [[9, 2], [10, 2]]


@needs_sage
def test_hint_no_crawford_changes_a_matchs_equities_and_not_moneys():
    def cube(*args):
        result = _run("hint", "--json", "--level", "0", *args)
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    match = "4HPwATDgc/ABMA:cAmgADAAEAAE"   # a 5-point match at 2-3: the winner of a gammon is 1-away
    assert cube(match) != cube("--no-crawford", match)
    money = "4HPwATDgc/ABMA"
    assert cube(money) == cube("--no-crawford", money)


def test_hint_no_crawford_refuses_a_crawford_game():
    crawford = MatchState(crawford=True, score=(4, 2), rules=Rules(match_length=5))
    result = _run("hint", "--engine", "exact", "--no-crawford", f"4HPwATDgc/ABMA:{match_id(crawford)}")
    assert result.exit_code != 0
    assert "--no-crawford: the Match ID says this game is the Crawford game" in result.output
    assert "Traceback" not in result.output
