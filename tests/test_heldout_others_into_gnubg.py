"""Other programs' match files, exported by bgcli and read by GNU Backgammon (tests/data/heldout-others-into-gnubg,
NOTE.md says how they were made): Backgammon Studio, Backgammon Galaxy, OpenGammon, Foxamon, bgdb, BackgammonHub,
JavaFIBS, bgammon.org, PlayOK, hinacoppy's kifu, eXtreme Gammon (.xg and .mat), BGBlitz (.bgf), GamesGrid (.sgg),
TrueMoneyGames (.tmg), FIBS oldmoves and GammonEmpire (.gam). gnubg loaded bgcli's SGF and imported its .mat of
each and walked them; every state of the walk must be the state bgcli replays from the file it was given, compared
field by field from the Match ID (the dice and a money session's score left out, as in test_heldout_replay).

Where gnubg 1.07's .mat import cannot hold what the file says, the difference is exactly that
(docs/gnubg-differences.md): a rule without the Crawford game (it reads `; [Crawford "Off"]` as on), a game begun
from a position set up (it passes over eXtreme Gammon's `; Set Pos=` and starts from the opening), automatic
doubles (a .mat writes none); and a money .mat's Jacoby rule is gnubg's own setting.
"""
from __future__ import annotations

import json
from collections import defaultdict
from functools import cache

import pytest

from bgcli.formats.files import replay_file
from bgcli.match.events import EventKind

from conftest import DATA, committed, gnubgid_norm, invoke

HERE = DATA / "heldout-others-into-gnubg"
SOURCES: dict[str, str] = json.loads(committed(HERE / "sources.json").read_text())
# what gnubg's .mat import cannot read of a file, by the Match ID field it reads otherwise
MAT_CANNOT = {"gnubg-root_3pt_sp05001": "crawford", "sp05015_money": "cubelog", "set-position-start_11pt": "set-up"}

State = tuple[str, tuple]


norm = cache(gnubgid_norm)   # the module, loaded once


@cache
def match_fields(match_id: str) -> dict:
    return norm().match_fields(match_id)


@cache
def compared(position_id: str, match_id: str, leave_out: str = "", money_mat: bool = False) -> State:
    fields = dict(match_fields(match_id))
    fields["d1"] = fields["d2"] = 0
    if not fields["length"]:
        fields["s0"] = fields["s1"] = 0
        if money_mat:
            fields["nojacoby"] = 0
    fields.pop(leave_out, None)
    return position_id, tuple(sorted(fields.items()))


def appended(states: list[State], state: State) -> None:
    if not states or states[-1] != state:   # a roll, then its play: one state once the dice are left out
        states.append(state)


def gnubg_states(name: str, ext: str, leave_out: str = "") -> dict[int, list[State]]:
    """gnubg's walk of bgcli's export while each game is played (its game-over states left out)."""
    games: dict[int, list[State]] = defaultdict(list)
    for line in committed(HERE / f"{name}.states").read_text().splitlines():
        kind, game, position_id, match_id = line.split()
        if kind == ext and match_fields(match_id)["state"] == 1:
            appended(games[int(game)], compared(position_id, match_id, leave_out, ext == "mat"))
    return dict(games)


def bgcli_states(path: str, leave_out: str = "", money_mat: bool = False) -> dict[int, list[State]]:
    """bgcli's state before each action of each game with any, the games numbered from 1 as in one file."""
    (replay,) = list(replay_file(path))
    assert not replay.problems, replay.problems
    games: dict[int, list[State]] = defaultdict(list)
    for event in replay.events:
        if event.kind is not EventKind.WIN:   # gnubg's walk is then at the game over
            appended(games[event.game], compared(event.before.position.id(), event.match_id(), leave_out, money_mat))
    played = [states for _, states in sorted(games.items()) if len(states) > 1]
    return {number: states for number, states in enumerate(played, 1)}


def agree(theirs: dict[int, list[State]], ours: dict[int, list[State]]) -> None:
    assert sorted(theirs) == sorted(ours)
    for game, states in theirs.items():
        # gnubg's walk starts after the game's first action, or at a position set up before it
        mine = ours[game] if states[0] == ours[game][0] else ours[game][1:]
        assert mine == states, f"game {game}"


CASES = [(name, ext) for name in sorted(SOURCES) for ext in ("sgf", "mat") if not (ext == "mat" and name in MAT_CANNOT)]


@pytest.mark.parametrize("name, ext", CASES, ids=[f"{name}.{ext}" for name, ext in CASES])
def test_gnubg_reads_bgclis_export_as_bgcli_reads_the_file(name, ext):
    source = str(committed(DATA / SOURCES[name]))
    agree(gnubg_states(name, ext), bgcli_states(source, money_mat=ext == "mat"))


@pytest.mark.parametrize("name, ext", CASES[::3], ids=[f"{name}.{ext}" for name, ext in CASES[::3]])
def test_bgcli_reads_its_export_as_the_file(name, ext, tmp_path):
    """The golden states hold for bgcli's export as it is now, not only as gnubg was given it."""
    source = str(committed(DATA / SOURCES[name]))
    out = tmp_path / f"{name}.{ext}"
    assert invoke("export", source, "--to", ext, "-o", out).exit_code == 0
    assert bgcli_states(str(out)) == bgcli_states(source)


@pytest.mark.parametrize("name", ["gnubg-root_3pt_sp05001", "sp05015_money"])
def test_gnubgs_mat_import_reads_all_but_what_a_mat_cannot_say(name):
    """bgammon.org plays no Crawford rule: bgcli's .mat says `; [Crawford "Off"]`, gnubg imports the game after
    1-away as the Crawford game. Automatic doubles: a .mat has no place for them (gnubg's own writes none), so
    gnubg plays the game at cube 1. Every other field of every state agrees."""
    field = MAT_CANNOT[name]
    source = str(committed(DATA / SOURCES[name]))
    agree(gnubg_states(name, "mat", field), bgcli_states(source, field, money_mat=True))
    with pytest.raises(AssertionError):
        agree(gnubg_states(name, "mat"), bgcli_states(source, money_mat=True))


def test_gnubgs_mat_import_passes_over_a_position_set_up():
    """eXtreme Gammon's `; Set Pos=` line (bgcli's .mat keeps it, XG reads it): gnubg starts the game from the
    opening and stops at the first play it cannot make; its SGF reads the set-up (tested above)."""
    theirs = gnubg_states("set-position-start_11pt", "mat")
    assert theirs[1][0][0] == "4HPwATDgc/ABMA" and len(theirs[1]) == 1
