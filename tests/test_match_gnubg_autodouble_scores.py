"""GNU Backgammon's running score after a game begun with automatic doubles adds the points won divided by
the cube the automatic doubles made (its habit, in 9 sessions it played: tests/data/gnubg-autodouble-scores,
NOTE.md says how they were made, and heldout-autodoubles). bgcli reads that as gnubg's habit in the files
gnubg wrote (bgcli.match.conventions.score_leaves_out), keeps the games' own total as the score, and calls a
score line an error when it is neither."""
from __future__ import annotations

import json

import pytest

from bgcli.core.rules import Rules
from bgcli.formats.sgf import read_sgf
from bgcli.match.events import ProblemKind
from bgcli.match.replay import replay_match

from conftest import DATA, committed, invoke

HERE = DATA / "gnubg-autodouble-scores"
RULES = Rules(jacoby=True, beavers=True, raccoons=2, auto_doubles=2)   # gnubg's settings in the sessions
GNUBG_AP = "AP[GNU Backgammon:1.07.001]"


def gnubg_games() -> dict[str, list[dict]]:
    return json.loads(committed(HERE / "gnubg_games.json").read_text())


def _replay(name: str, text: str | None = None):
    path = committed(HERE / f"{name}.sgf")
    (record,) = read_sgf(path.read_text() if text is None else text, str(path))
    return replay_match(record, rules=RULES)


def test_gnubgs_running_score_adds_the_points_at_the_cube_without_its_automatic_doubles():
    seen = 0
    for games in gnubg_games().values():
        for game, after in zip(games, games[1:]):
            gained = [now - then for now, then in zip(after["score_before"], game["score_before"])]
            assert gained[game["winner"]] == game["points"] // game["initial_cube"]
            assert gained[1 - game["winner"]] == 0
            seen += game["initial_cube"] > 1
    assert seen == 11


@pytest.mark.parametrize("name", sorted(gnubg_games()))
def test_gnubgs_score_lines_are_its_habit_not_errors(name):
    games = gnubg_games()[name]
    replay = _replay(name)
    assert replay.problems == []
    assert [r.points for r in replay.results] == [g["points"] for g in games]
    # bgcli's running score is the games' total, not gnubg's
    total = [0, 0]
    for result in replay.results:
        total[result.winner_side] += result.points
        assert list(result.score) == total


def test_the_heldout_session_is_clean():
    (record,) = read_sgf(committed(DATA / "heldout-autodoubles" / "dr44601_money.sgf").read_text())
    assert replay_match(record, rules=RULES).problems == []


def test_another_programs_sgf_is_not_read_by_gnubgs_habit():
    text = committed(HERE / "dr44606_money.sgf").read_text().replace(GNUBG_AP, "AP[Other:1.0]")
    problems = [p for p in _replay("dr44606_money", text).problems if p.kind is ProblemKind.SCORE]
    assert [p.game for p in problems] == [3, 5, 6]
    assert all("GNU Backgammon" not in p.message for p in problems)


def test_a_gnubg_score_line_wrong_in_another_way_is_an_error_that_names_both():
    text = committed(HERE / "dr44606_money.sgf").read_text()
    last = "[game:11][ws:55][bs:8]"   # game 12: gnubg's score, 71-10 by the games (three cubes begun at 2)
    assert last in text
    (problem,) = _replay("dr44606_money", text.replace(last, "[game:11][ws:55][bs:9]")).problems
    assert problem.game == 12 and problem.kind is ProblemKind.SCORE
    assert problem.message == ("game 12 starts at 55-9 but the games before give 71-10 (55-8 in GNU Backgammon's "
                               "running score, which leaves automatic doubles out)")


def test_the_audit_of_gnubgs_session_is_clean():
    result = invoke("audit", committed(DATA / "heldout-autodoubles" / "dr44601_money.sgf"))
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output
