"""GNU Backgammon's ``export match text`` of games it played itself, with
settings no other text export in the tests has (tests/data/heldout-text-export,
NOTE.md says how they were made): automatic doubles (cubes of 2, 4 and 16 before
the first play), beavers and raccoons, resignations of each kind accepted,
matches of 5 to 9 points, nackgammon, the Jacoby rule on and off, a game after
the Crawford game. Each file is one game; bgcli reads it with the rules gnubg
played and gives gnubg's result (winner and points, gnubg.match()), no
problem, and before every play the state gnubg printed there (its Position ID
and Match ID, compared from the side of the player on roll).

gnubg's text has no line for an automatic double: the cube of the Match ID
printed before the first play is the trace (bgcli read those games from cube 1
and called their results wrong: 'a dropped 2-cube is worth 1'); nor for the
Crawford rule but the score line's ', post-Crawford play' (bgcli took a game
read alone at a score one away for the Crawford game). And gnubg scores an
accepted resignation of a gammon or backgammon under the Jacoby rule, the cube
centred, at the cube times the kind resigned (a gammon played out counts
single): in a file gnubg wrote (its text export, its SGF) bgcli reads the
figure as gnubg's habit (bgcli.match.conventions.resignation_habit); it called
it an error, and the session's next score one more.
"""
from __future__ import annotations

import gzip
import json
import re

import pytest
from click.testing import CliRunner

from bgcli.cli import cli
from bgcli.core.ids import gnubg_id
from bgcli.core.rules import Rules
from bgcli.formats.files import replay_file

from conftest import DATA, committed, gnubgid_norm

FOLDER = DATA / "heldout-text-export"
GAMES = json.loads(committed(FOLDER / "gnubg_games.json").read_text())
ACTION = re.compile(r"^\* \S+ (?:moves|cannot move)", re.M)


def unpacked(name: str, tmp_path) -> tuple[str, str]:
    text = gzip.decompress(committed(FOLDER / name).read_bytes()).decode("utf-8")
    path = tmp_path / name.removesuffix(".gz")
    path.write_text(text, encoding="utf-8")
    return str(path), text


def rules_of(game: dict) -> Rules:
    return Rules(jacoby=game["jacoby"], beavers=game["beavers"], raccoons=2 if game["beavers"] else 1)


def printed_before_plays(text: str) -> dict[int, str]:
    """The GNUbg ID gnubg printed before each play, by the line of the play."""
    found: dict[int, str] = {}
    ids = None
    for number, line in enumerate(text.split("\n"), 1):
        if "Position ID:" in line:
            ids = line.split("Position ID:")[1].strip()
        elif "Match ID" in line and ids is not None and ":" not in ids:
            ids += ":" + line.split(":")[1].strip()
        elif ACTION.match(line):
            found[number], ids = ids, None
    return found


def test_the_kept_games_hold_what_they_are_kept_for():
    assert {g["initial_cube"] for g in GAMES.values()} >= {2, 4, 16}
    assert sum(g["resigned"] for g in GAMES.values()) >= 5
    assert {g["variation"] for g in GAMES.values()} == {"Standard", "Nackgammon"}
    assert {g["jacoby"] for g in GAMES.values() if not g["length"]} == {True, False}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_text_export_reads_as_gnubg_played_it(name, tmp_path):
    game = GAMES[name]
    path, text = unpacked(name, tmp_path)
    (replay,) = list(replay_file(path, rules_of(game)))
    assert replay.problems == []
    (result,) = replay.results
    assert (result.game, result.winner, result.points) == (game["game"], game["winner"], game["points"])
    canonical = gnubgid_norm().canonical
    printed = printed_before_plays(text)
    states = {e.line: gnubg_id(e.before) for e in replay.events if e.kind.value == "move"}
    assert states.keys() == printed.keys()
    for line, theirs in printed.items():
        assert canonical(states[line]) == canonical(theirs), (name, line)


def test_score_of_a_game_begun_with_automatic_doubles(tmp_path):
    path, _ = unpacked("dr45303_money_007.txt.gz", tmp_path)
    result = CliRunner().invoke(cli, ["score", "--json", path])
    assert result.exit_code == 0, result.output
    (game,) = json.loads(result.output)["games"]
    assert (game["winner"], game["result"], game["cube"], game["points"]) == ("root", "drop", 2, 2)


def test_gnubgs_sgf_of_a_gammon_resigned_under_jacoby_is_read_by_its_habit(tmp_path):
    """gnubg's own SGF (AP[GNU Backgammon:...]) of a money session with the Jacoby rule: game 1 a gammon
    resigned at a centred cube, RE[W+2R], 2 points in gnubg.match() and its running score."""
    sgf = committed(FOLDER / "dr45204_money.sgf")
    result = CliRunner().invoke(cli, ["score", "--json", str(sgf)])
    assert result.exit_code == 0, result.output
    games = json.loads(result.output)["games"]
    assert [(g["winner"], g["result"], g["cube"], g["points"]) for g in games[:2]] == \
        [("gnubg", "resignation", 1, 2), ("gnubg", "single", 4, 4)]
    assert json.loads(result.output)["score"] == [18, 8]   # gnubg's: 2 + 4 + 4 + 4 + 4 and 8
    # another program's SGF is read by the rule: a resignation at a centred cube under Jacoby is worth 1
    other = tmp_path / "other.sgf"
    other.write_text(sgf.read_text().replace("AP[GNU Backgammon:1.07.001]", "AP[Other:1]"))
    result = CliRunner().invoke(cli, ["audit", str(other)])
    assert result.exit_code == 1 and "by resignation, but at cube 1 a resignation is worth 1" in result.output


def test_gnubgs_mat_of_the_same_session_is_read_by_the_habit_too():
    """gnubg's .mat export of session 45204 (a money .mat with gnubg's header habits, so gnubg's):
    'Wins 2 points' for the gammon resigned at a centred cube under Jacoby, and gnubg's running score."""
    mat = str(committed(FOLDER / "dr45204_money.mat"))
    result = CliRunner().invoke(cli, ["score", "--json", "--jacoby", mat])
    assert result.exit_code == 0, result.output
    games = json.loads(result.output)["games"]
    assert (games[0]["result"], games[0]["points"]) == ("resignation", 2)
    assert json.loads(result.output)["score"] == [18, 8]
