"""bgcli's SGF and .mat of matches GNU Backgammon played, read back by gnubg
(tests/data/heldout-roundtrip, NOTE.md says how they were made): long matches
with high cubes and resignations of each kind, money sessions with beavers and
raccoons (cubes to 512), nackgammon.

Without gnubg: bgcli's score of gnubg's files is gnubg's, game by game; bgcli's
SGF of each (from gnubg's SGF or from its .mat) has gnubg's own nodes, which
gnubg reads to the match it played; bgcli's .mat says nackgammon in gnubg's
word. With gnubg: gnubg loads bgcli's SGF and .mat to the match it played.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest

from bgcli.core.rules import Rules
from bgcli.formats.files import replay_file
from bgcli.match.events import EventKind

from conftest import DATA, committed, gnubgid_norm, invoke

HERE = DATA / "heldout-roundtrip"
# the rules gnubg played each with (a .mat cannot say beavers or the Jacoby rule)
BEAVERS = dict(beavers=True, raccoons=2)   # gnubg's default 'set beavers 3'
MATCHES = {"dr44012_17pt": Rules(), "dr44003_25pt": Rules(), "dr44203_9pt": Rules(),
           "dr44102_money": Rules(**BEAVERS), "dr44104_money": Rules(**BEAVERS),
           "dr44208_money": Rules(jacoby=True, **BEAVERS)}
OPTIONS = {"dr44102_money": ["--beavers", "--raccoons", "2"], "dr44104_money": ["--beavers", "--raccoons", "2"],
           "dr44208_money": ["--jacoby", "--beavers", "--raccoons", "2"]}


def gnubg_results() -> dict:
    return json.loads(committed(HERE / "gnubg_results.json").read_text())


@pytest.mark.parametrize("suffix", ["sgf", "mat"])
@pytest.mark.parametrize("name", sorted(MATCHES))
def test_the_score_is_gnubgs_game_by_game(name, suffix):
    (replay,) = list(replay_file(str(committed(HERE / f"{name}.{suffix}")), MATCHES[name]))
    assert replay.problems == []
    theirs = gnubg_results()[name]
    ours = [[r.winner_side, r.points, r.result.value == "resignation"] for r in replay.results]
    assert ours == [[side, points, kind > 0] for side, points, kind in theirs["games"]]
    assert list(replay.score) == theirs["score"]


def test_the_sample_has_high_cubes_and_every_resignation():
    results = gnubg_results()
    kinds = {kind for r in results.values() for _, _, kind in r["games"]}
    assert kinds == {0, 1, 2, 3} and max(p for r in results.values() for _, p, _ in r["games"]) == 256
    assert {r["variation"] for r in results.values()} == {"Standard", "Nackgammon"}


_NODE = re.compile(r";((?:[A-Z]+(?:\[(?:[^]\\]|\\.)*\])+)+)")
_PROPERTY = re.compile(r"([A-Z]+)((?:\[(?:[^]\\]|\\.)*\])+)")


def nodes(text: str) -> list[list[tuple]]:
    """Each game's result and its actions as gnubg reads them: a play its dice and its steps in any order,
    a cube action its word, a roll never played (PL and DI) its dice."""
    games = []
    for tree in text.split("(;")[1:]:
        found: list[tuple] = []
        for node in _NODE.findall(";" + tree):
            props = {key: value[1:-1] for key, value in _PROPERTY.findall(node)}
            if "RE" in props:
                found.append(("RE", props["RE"]))
            for side in ("B", "W"):
                if side in props:
                    value = props[side]
                    if value[:2].isdigit():
                        steps = [value[i:i + 2] for i in range(2, len(value), 2)]
                        found.append((side, "".join(sorted(value[:2])), tuple(sorted(steps))))
                    else:
                        found.append((side, value))
            if "DI" in props:
                found.append(("PL", props.get("PL"), "".join(sorted(props["DI"]))))
        games.append(found)
    return games


@pytest.mark.parametrize("source", ["sgf", "mat"])
@pytest.mark.parametrize("name", sorted(MATCHES))
def test_bgcli_sgf_has_gnubgs_nodes(tmp_path, name, source):
    """A beaver is a double node (gnubg 1.07 skips a 'beaver' node and plays on at the double's cube), and
    the last of a beaver and its raccoons is answered (a .mat records no take for it; gnubg's SGF always
    does, and without it gnubg plays on at the double's cube): both failed before."""
    out = tmp_path / f"{name}.sgf"
    result = invoke("export", str(committed(HERE / f"{name}.{source}")), "--to", "sgf", "-o", out,
                    *OPTIONS.get(name, []))
    assert result.exit_code == 0, result.output
    assert nodes(out.read_text()) == nodes((HERE / f"{name}.sgf").read_text())


def test_bgcli_mat_says_nackgammon_in_gnubgs_word(tmp_path):
    """gnubg 1.07 imported a money session tagged XG's 'Nackgammon' as the standard game (a match so
    tagged it read as nackgammon); its own word, 'NackGammon', it reads in both."""
    out = tmp_path / "nack.mat"
    assert invoke("export", HERE / "dr44208_money.mat", "--to", "mat", "-o", out, "--jacoby").exit_code == 0
    assert '; [Variation "NackGammon"]' in out.read_text().splitlines()
    (replay,) = list(replay_file(str(out), MATCHES["dr44208_money"]))
    assert replay.problems == [] and replay.rules.variation.value == "nackgammon"


@pytest.mark.parametrize("source", ["sgf", "mat"])
@pytest.mark.parametrize("name", sorted(MATCHES))
def test_bgcli_mat_is_gnubgs_export(tmp_path, name, source):
    """bgcli's .mat of gnubg's SGF and of its .mat is gnubg's own export, but for what bgcli adds on
    purpose: the rules it was told (tags after a blank line) and XG's '????' for a roll before a
    resignation (mat.py says why). gnubg's export writes no Takes for a beaver or raccoon, and a row its
    unwritten take leaves open closes two spaces longer: bgcli wrote 'Takes' (from an SGF) and 28 columns."""
    out = tmp_path / f"{name}.mat"
    assert invoke("export", HERE / f"{name}.{source}", "--to", "mat", "-o", out, *OPTIONS.get(name, [])).exit_code == 0

    def row(line: str) -> str:   # a roll before a resignation: bgcli's '62: ????', gnubg's '62: '
        if "????" in line or re.search(r"[1-6][1-6]:\s*(Wins [^:]*)?$", line):
            return " ".join(line.replace("????", "").split())
        return line

    def lines(text: str) -> list[str]:
        return [row(line) for line in text.splitlines()
                if line and not re.fullmatch(r'; \[(Crawford|Jacoby|Beavers|Raccoons) "[^"]*"\]', line)]
    assert lines(out.read_text()) == lines((HERE / f"{name}.mat").read_text())


def _compared(position_id: str, match_id: str) -> tuple:
    """A state as compared: gnubg's walk stands before each roll (the dice left out); a money session's
    running score left out (a Match ID bgcli writes for money play keeps none, as gnubg's matchid() of a
    position does)."""
    fields = gnubgid_norm().match_fields(match_id)
    fields["d1"] = fields["d2"] = 0
    if not fields["length"]:
        fields["s0"] = fields["s1"] = 0
    return position_id, tuple(sorted(fields.items()))


@pytest.mark.parametrize("suffix", ["sgf", "mat"])
@pytest.mark.parametrize("name", sorted(MATCHES))
def test_every_state_of_the_replay_is_gnubgs(name, suffix):
    """gnubg's own state at each step of its walk of the SGF it saved (``NAME.states``,
    tests/data/heldout-ids-into-gnubg/gnubg_walk.py): the states before a resignation after a roll, at
    cubes to 512, after beavers and raccoons, in nackgammon, are bgcli's, from the SGF and the .mat."""
    fields = gnubgid_norm().match_fields
    walk: dict[int, list[tuple[str, str]]] = {}
    for line in committed(HERE / f"{name}.states").read_text().splitlines():
        game, position_id, match_id = line.split()
        walk.setdefault(int(game), []).append((position_id, match_id))
    theirs: dict[int, list[tuple]] = {}
    for game, steps in walk.items():
        for at, (position_id, match_id) in enumerate(steps):
            now = fields(match_id)
            if now["state"] != 1:
                continue   # the game over
            after = fields(steps[at + 1][1]) if at + 1 < len(steps) else None
            redoubled = now["doubled"] and at and fields(steps[at - 1][1])["doubled"]
            if suffix == "mat" and redoubled and after is not None and after["state"] == 1 and not after["doubled"]:
                continue   # a beaver or raccoon taken: a .mat writes no Takes for it, so no event stands in it
            states = theirs.setdefault(game, [])
            if not states or states[-1] != _compared(position_id, match_id):   # a roll: the same, dice aside
                states.append(_compared(position_id, match_id))
    (replay,) = list(replay_file(str(committed(HERE / f"{name}.{suffix}")), MATCHES[name]))
    ours: dict[int, list[tuple]] = {}
    for event in replay.events:
        if event.kind is EventKind.WIN:   # gnubg's walk is then at the game over
            continue
        states = ours.setdefault(event.game, [])
        state = _compared(event.before.position.id(), event.match_id())
        if not states or states[-1] != state:
            states.append(state)
    assert sorted(ours) == sorted(theirs)
    for game, states in theirs.items():
        assert ours[game][1:] == states, f"game {game}"   # gnubg's walk starts after the game's first action


# --- live: gnubg reads bgcli's files ------------------------------------------------------------------------

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)


def gnubg_reading(record: dict) -> list:
    """gnubg.match() of a file as compared: each game's result and actions (a play its dice, steps and the
    board before it)."""
    games = []
    for game in record["games"]:
        info = game["info"]
        actions = []
        for r in game["game"]:
            action = (r["action"], r["player"])
            if r["action"] in ("move", "set"):
                action += (sorted(r["dice"]),)
            if r["action"] == "move":
                action += (sorted(r["move"]), r.get("board"))
            if r["action"] == "resign":
                action += (r.get("points"),)
            actions.append(action)
        games.append(((info.get("winner"), info.get("points-won"), info.get("resigned")), actions))
    return [record["match-info"].get("variation"), games]


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
@pytest.mark.parametrize("name", sorted(MATCHES))
def test_gnubg_loads_bgcli_files_as_its_own(tmp_path, name):
    """gnubg reads bgcli's SGF (of gnubg's SGF and of its .mat) to the match it reads from its own SGF, and
    bgcli's .mat to the match it reads from its own .mat (which is not always the match played: gnubg 1.07
    imports a roll before a resignation as a play of its choosing, and loses the first plays of some money
    games, docs/gnubg-differences.md)."""
    own = {to: tmp_path / f"{name}.gnubg.{to}" for to in ("sgf", "mat")}
    files = []
    for to, path in own.items():
        shutil.copy(HERE / f"{name}.{to}", path)
        files.append(path)
    for source in ("sgf", "mat"):
        for to in ("sgf", "mat"):
            out = tmp_path / f"{name}.{source}2{to}.{to}"
            assert invoke("export", HERE / f"{name}.{source}", "--to", to, "-o", out, *OPTIONS.get(name, [])).exit_code == 0
            files.append(out)
    subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(HERE / "gnubg_reload.py")], capture_output=True, timeout=300,
                   env=dict(os.environ, RL_FILES=",".join(str(f) for f in files)), check=True)

    def reading(path):
        return gnubg_reading(json.loads(committed(tmp_path / f"{path.name}.gnubg.json").read_text()))

    for path in files[2:]:
        assert reading(path) == reading(own[path.suffix[1:]]), path.name
