"""A money session GNU Backgammon played with automatic doubles (tests/data/heldout-autodoubles, NOTE.md
says how): gnubg's own records disagree about a game that began with an automatic double, its points won
counting the doubled cube, its running score (and its .mat export) not. bgcli scores each game from the
SGF as gnubg's points won, and says where gnubg's running score then departs from the games' points."""
from __future__ import annotations

import json

from bgcli.core.rules import Rules
from bgcli.formats.files import replay_file

from conftest import DATA, committed

HERE = DATA / "heldout-autodoubles"
RULES = Rules(jacoby=True, beavers=True, raccoons=2, auto_doubles=2)   # gnubg's 'set automatic doubles 2'


def gnubg_games() -> list[dict]:
    return json.loads(committed(HERE / "gnubg_games.json").read_text())


def _replay(suffix: str):
    (replay,) = list(replay_file(str(committed(HERE / f"dr44601_money.{suffix}")), RULES))
    return replay


def test_each_game_from_the_sgf_is_worth_gnubgs_points_won():
    games = gnubg_games()
    assert [g["initial_cube"] for g in games].count(2) == 2   # games 4 and 9 began with an automatic double
    assert [(r.winner_side, r.points) for r in _replay("sgf").results] == [(g["winner"], g["points"]) for g in games]


def test_gnubgs_running_score_leaves_the_automatic_double_out_and_bgcli_says_where():
    games = gnubg_games()
    doubled = [n for n, g in enumerate(games, 1) if g["initial_cube"] > 1]
    for n in doubled:   # gnubg's next score adds half the game's points
        before, after = games[n - 1]["score_before"], games[n]["score_before"]
        assert sum(after) - sum(before) == games[n - 1]["points"] // 2
    problems = _replay("sgf").problems
    assert [(p.game, p.kind.value) for p in problems] == [(n + 1, "score") for n in doubled]


def test_gnubgs_mat_export_writes_the_game_without_its_automatic_double():
    mat = [(r.winner_side, r.points) for r in _replay("mat").results]
    games = gnubg_games()
    assert mat == [(g["winner"], g["points"] // g["initial_cube"]) for g in games]
    assert _replay("mat").problems == []
