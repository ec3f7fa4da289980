"""A match GNU Backgammon played without the Crawford rule (``set automatic
crawford off``), read back from each file gnubg wrote of it
(tests/data/heldout-no-crawford, NOTE.md says how it was made): its SGF (which
says the rule by leaving ``Crawford`` out of ``RU``), its .mat export (which
cannot say it: read with ``--no-crawford``), its text export (one file a game,
whose score line calls every game at one away ``post-Crawford play``).
Each gives gnubg's results and, SGF and .mat, gnubg's own state at every step
of its walk of the saved match; the .mat read with the Crawford rule says which
option reads it.
"""
from __future__ import annotations

import gzip
import json

import pytest
from click.testing import CliRunner

from bgcli.cli import cli
from bgcli.core.rules import Rules
from bgcli.formats.files import replay_file
from bgcli.match.events import EventKind

from conftest import DATA, committed, gnubgid_norm

FOLDER = DATA / "heldout-no-crawford"
GNUBG = json.loads(committed(FOLDER / "gnubg_match.json").read_text())
TEXTS = ["dr47001_5pt.txt.gz", "dr47001_5pt_002.txt.gz", "dr47001_5pt_003.txt.gz", "dr47001_5pt_004.txt.gz"]


def gnubg_results() -> list[tuple[str, int]]:
    players = dict(zip("XO", GNUBG["players"]))
    return [(players[g["winner"]], g["points"]) for g in GNUBG["games"]]


def compared(position_id: str, match_id: str) -> tuple:
    fields = gnubgid_norm().match_fields(match_id)
    fields["d1"] = fields["d2"] = 0   # gnubg's walk stands before each roll
    return position_id, tuple(sorted(fields.items()))


def walk() -> dict[int, list[tuple]]:
    """gnubg's states of a game being played, each once, game by game (the walk starts after its first action)."""
    theirs: dict[int, list[tuple]] = {}
    for line in committed(FOLDER / "dr47001_5pt.states").read_text().splitlines():
        game, position_id, match_id = line.split()
        if gnubgid_norm().match_fields(match_id)["state"] != 1:
            continue
        states = theirs.setdefault(int(game), [])
        if not states or states[-1] != compared(position_id, match_id):
            states.append(compared(position_id, match_id))
    return theirs


@pytest.mark.parametrize("suffix, rules", [("sgf", None), ("mat", Rules(crawford=False))])
def test_the_match_replays_as_gnubg_played_it(suffix, rules):
    (replay,) = list(replay_file(str(committed(FOLDER / f"dr47001_5pt.{suffix}")), rules))
    assert replay.problems == []
    assert not replay.rules.crawford
    assert [(r.winner, r.points) for r in replay.results] == gnubg_results()
    ours: dict[int, list[tuple]] = {}
    for event in replay.events:
        if event.kind is not EventKind.WIN:
            states = ours.setdefault(event.game, [])
            state = compared(event.before.position.id(), event.match_id())
            if not states or states[-1] != state:
                states.append(state)
    theirs = walk()
    assert sorted(ours) == sorted(theirs) == [1, 2, 3, 4]
    for game, states in theirs.items():
        assert ours[game][1:] == states, f"game {game}"


def test_the_mat_read_with_the_crawford_rule_names_the_option():
    result = CliRunner().invoke(cli, ["audit", str(committed(FOLDER / "dr47001_5pt.mat"))])
    assert result.exit_code == 1
    assert "gnubg doubles in the Crawford game, where the cube is not used (use --no-crawford for a match " \
           "played without the Crawford rule)" in result.output
    result = CliRunner().invoke(cli, ["audit", "--no-crawford", str(committed(FOLDER / "dr47001_5pt.mat"))])
    assert result.exit_code == 0, result.output


def test_each_game_of_the_text_export_reads_as_gnubg_played_it(tmp_path):
    for number, (name, expected) in enumerate(zip(TEXTS, gnubg_results()), 1):
        path = tmp_path / name.removesuffix(".gz")
        path.write_bytes(gzip.decompress(committed(FOLDER / name).read_bytes()))
        (replay,) = list(replay_file(str(path)))
        assert replay.problems == [], name
        (result,) = replay.results
        assert (result.game, result.winner, result.points) == (number, *expected)
        # gnubg's ', post-Crawford play': the games at one away are no Crawford games, and have the cube
        assert not result.crawford
