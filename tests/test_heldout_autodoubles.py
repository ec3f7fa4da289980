"""A money session GNU Backgammon played with automatic doubles (tests/data/heldout-autodoubles, NOTE.md
says how): gnubg's own records disagree about a game that began with an automatic double, its points won
counting the doubled cube, its running score (and its .mat export) not. bgcli scores each game from the
SGF as gnubg's points won, and reads gnubg's running score by its habit (no problem)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest

from bgcli.core.rules import Rules
from bgcli.formats.files import export, read_any, replay_file
from bgcli.formats.sgf import read_sgf
from bgcli.match.records import ActionKind
from bgcli.match.replay import replay_match

from conftest import DATA, committed, invoke

HERE = DATA / "heldout-autodoubles"
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)
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


def test_gnubgs_running_score_leaves_the_automatic_double_out_as_its_habit():
    """gnubg's habit (bgcli.match.conventions.score_leaves_out, tests/test_match_gnubg_autodouble_scores.py):
    no problem in gnubg's own file, and bgcli's score is the games' total."""
    games = gnubg_games()
    doubled = [n for n, g in enumerate(games, 1) if g["initial_cube"] > 1]
    for n in doubled:   # gnubg's next score adds half the game's points
        before, after = games[n - 1]["score_before"], games[n]["score_before"]
        assert sum(after) - sum(before) == games[n - 1]["points"] // 2
    replay = _replay("sgf")
    assert replay.problems == []
    assert list(replay.results[-1].score) == [sum(g["points"] for g in games if g["winner"] == side) for side in (0, 1)]


def test_gnubgs_mat_export_writes_the_game_without_its_automatic_double():
    mat = [(r.winner_side, r.points) for r in _replay("mat").results]
    games = gnubg_games()
    assert mat == [(g["winner"], g["points"] // g["initial_cube"]) for g in games]
    assert _replay("mat").problems == []


# --- SGF: gnubg writes a game's automatic doubles as the cube they make, CV[2], in the game's root node -----

def _roots(text: str) -> list[str]:
    return [tree.split("\n;", 1)[0].split(")", 1)[0] for tree in text.split("(;")[1:]]


def _root_cube(root: str) -> int:
    found = re.search(r"\]CV\[([0-9]+)\]", root)
    return int(found.group(1)) if found else 1


def test_the_sgf_reads_gnubgs_root_cv_as_automatic_doubles():
    """gnubg reads a root's CV as the game's automatic doubles (its 'initial-cube'): bgcli too, not a cube
    set by hand (which would make the game one from a position set up)."""
    [record] = read_any(str(committed(HERE / "dr44601_money.sgf")))
    autos = [sum(a.kind is ActionKind.AUTO_DOUBLE for a in game.actions) for game in record.games]
    assert [1 << n for n in autos] == [g["initial_cube"] for g in gnubg_games()]
    assert all(game.set_up is None for game in record.games)
    assert record.tags.get("AutoDoubles")   # the session's rule: gnubg writes them only when played


def test_bgcli_sgf_writes_them_in_the_root_as_gnubg_does():
    text, left_out = export(read_any(str(committed(HERE / "dr44601_money.sgf"))), "sgf", rules=RULES)
    assert left_out == []
    gnubg = _roots(committed(HERE / "dr44601_money.sgf").read_text())
    assert [_root_cube(r) for r in _roots(text)] == [_root_cube(r) for r in gnubg] == [
        g["initial_cube"] for g in gnubg_games()]
    # and read back, the same games: gnubg's points won, the same problems
    back = read_sgf(text)
    (replay,) = list(replay_match(r, rules=RULES) for r in back)
    assert [(r.winner_side, r.points) for r in replay.results] == [(r.winner_side, r.points)
                                                                 for r in _replay("sgf").results]


def test_a_cube_set_by_hand_is_a_node_of_its_own_as_gnubg_writes_it():
    """gnubg's 'set cube value' in a game set up is a node of its own (gnubg_set_cube.sgf, made by
    gnubg_set_cube.py): in the root it would read as automatic doubles."""
    path = committed(HERE / "gnubg_set_cube.sgf")
    text, _ = export(read_any(str(path)), "sgf")
    theirs = path.read_text().split("\n;")
    ours = text.split("\n;")
    assert "CV" not in _roots(text)[0]
    assert [n for n in ours[1:] if n.startswith(("CV", "CP"))] == [n for n in theirs[1:] if n.startswith(("CV", "CP"))]
    assert ["CV[2]", "CP[b])\n"] == ours[-2:]


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
def test_gnubg_reads_bgcli_sgf_with_its_automatic_doubles(tmp_path):
    out = tmp_path / "back.sgf"
    assert invoke("export", committed(HERE / "dr44601_money.sgf"), "--to", "sgf", "-o", out).exit_code == 0
    subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(DATA / "heldout-roundtrip" / "gnubg_reload.py")],
                   capture_output=True, timeout=300, env=dict(os.environ, RL_FILES=str(out)), check=True)
    games = json.loads((tmp_path / "back.sgf.gnubg.json").read_text())["games"]
    assert [(g["info"].get("initial-cube", 1), g["info"]["points-won"]) for g in games] == [
        (g["initial_cube"], g["points"]) for g in gnubg_games()]
