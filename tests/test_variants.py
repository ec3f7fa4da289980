"""Hypergammon: GNU Backgammon's matches of 1, 2 and 3 checkers a side replay
as gnubg played them, and every export keeps the variant.

The samples (tests/data/variants, made by make_hypergammon.sh in gnubg 1.07):
gnubg's self-play 5-point matches of 1 and 2 checkers, a 3-point match of 3
checkers played through gnubg by hand, its .mat export (``; [Variation
"HyperGammon (1)"]``), its SGF of that file imported again
(``RU[Crawford:Hypergammon1]``) and, in ``.gnubg.json``, gnubg's Position ID
before every move and each game's result. The rules are the standard ones
(core.rules.Variation says what differs: the opening and the checkers a side
has): gammons and backgammons count, the cube and the Crawford rule are
used, the opening roll is never a double.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import DATA, committed, invoke

from bgcli.core.position import Position
from bgcli.core.rules import Rules, Variation
from bgcli.core.value import Win, game_kind
from bgcli.engines.gnubg import find_gnubg
from bgcli.formats.files import replay_file

VARIANTS = DATA / "variants"
# (3 checkers: a 3-point match gnubg kept as each play, picked at random among the legal ones, was
# given to it by hand; it has no database to play it itself here)
SAMPLES = {1: "hypergammon1_5pt.gnubg", 2: "hypergammon2_5pt.gnubg", 3: "hypergammon3_3pt.gnubg"}
CASES = [(checkers, suffix) for checkers in SAMPLES for suffix in (".mat", ".sgf")]


def golden(checkers: int) -> dict:
    return json.loads(committed(VARIANTS / (SAMPLES[checkers] + ".json")).read_text())


def audit_lines(path: Path) -> tuple[int, list[str]]:
    result = invoke("audit", str(path))
    return result.exit_code, [line for line in result.output.splitlines() if "no problems" not in line]


def as_gnubg_says(replay) -> tuple[list[str], list[tuple[str, int]], list[tuple[int, int]]]:
    """The Position ID before each move, each game's winner ('X' the left column) and points,
    and the score before each game, as gnubg's .gnubg.json has them."""
    boards = [e.before.position.id() for e in replay.events if e.kind == "move"]
    results = [("X" if r.winner_side == 0 else "O", r.points) for r in replay.results]
    scores = [(0, 0)] + [tuple(r.score) for r in replay.results[:-1]]
    return boards, results, scores


def gnubgs(checkers: int) -> tuple[list[str], list[tuple[str, int]], list[tuple[int, int]]]:
    games = golden(checkers)["games"]
    return ([board for game in games for board in game["boards"]], [(g["winner"], g["points"]) for g in games],
            [tuple(g["score"]) for g in games])


@pytest.mark.parametrize("checkers, suffix", CASES)
def test_gnubgs_hypergammon_match_replays_to_gnubgs_positions_and_results(checkers, suffix):
    path = committed(VARIANTS / (SAMPLES[checkers] + suffix))
    status, lines = audit_lines(path)
    assert status == 0 and lines == [], lines
    (replay,) = replay_file(str(path))
    assert replay.rules.variation == Variation(f"hypergammon{checkers}") == Variation.read(golden(checkers)["variation"])
    assert as_gnubg_says(replay) == gnubgs(checkers)


def test_the_samples_hold_what_differs_from_the_standard_game():
    # what the golden matches hold: gammons (the loser has borne off none of its own checkers, though
    # the position counts the ones it lacks as off), a backgammon, the Crawford game and the cube
    (one,) = replay_file(str(VARIANTS / (SAMPLES[1] + ".mat")))
    assert [(r.result, r.cube) for r in one.results] == [("drop", 2), ("gammon", 1), ("backgammon", 1), ("gammon", 2)]
    assert [r.crawford for r in one.results] == [False, False, True, False]
    (two,) = replay_file(str(VARIANTS / (SAMPLES[2] + ".mat")))
    # and a resignation of a backgammon at cube 2 (6 points), a gammon at cube 2
    assert [(r.result, r.cube, r.points) for r in two.results] == [("gammon", 2, 4), ("gammon", 1, 2),
                                                                   ("resignation", 2, 6)]


@pytest.mark.parametrize("checkers", [1, 2, 3])
def test_without_its_tag_a_hypergammon_match_breaks_the_rules(tmp_path, checkers):
    # the tag is what says the variant: without it the plays are illegal from the standard opening,
    # and with it a play that breaks hypergammon's rules is still an error
    text = committed(VARIANTS / (SAMPLES[checkers] + ".mat")).read_text()
    tag = f'; [Variation "HyperGammon ({checkers})"]\n'
    assert tag in text
    path = tmp_path / "standard.mat"
    path.write_text(text.replace(tag, ""))
    status, lines = audit_lines(path)
    assert status == 1 and any(": play: illegal play " in line for line in lines), lines
    first = {1: "31: 24/21 21/20 ", 2: "51: 24/19 23/22 ", 3: "41: 24/20 22/21 "}[checkers]
    wrong = {1: "31: 24/21 13/12 ", 2: "51: 24/19 13/12 ", 3: "41: 24/20 13/12 "}[checkers]
    path = tmp_path / "wrong.mat"
    path.write_text(text.replace(first, wrong, 1))
    status, lines = audit_lines(path)
    assert status == 1 and f": play: illegal play '{wrong[4:].strip()}'" in lines[0], lines


@pytest.mark.parametrize("checkers", [1, 2, 3])
def test_hypergammon_starts_from_gnubgs_opening(checkers):
    # gnubg 1.07's Position ID after 'set variation N-chequer-hypergammon' and 'new session'
    # (gnubg.positionid()): a checker on each of the 24-, 23- and 22-points, as many as there are
    said = {1: "AACAAAAAAgAAAA", 2: "AABAAQAACgAAAA", 3: "AACgAgAAKgAAAA"}[checkers]
    variation = Variation(f"hypergammon{checkers}")
    start = Position.start(variation)
    assert start.id() == said and Position.from_id(said) == start
    assert variation.checkers == checkers == sum(start.player[1:]) and start.problem() == ""
    assert Rules().with_tags({"Variation": f"HyperGammon ({checkers})"}).variation == variation


def test_a_gammon_counts_the_checkers_a_side_has_of_its_own():
    # one checker a side: the winner's last one off, the loser's still on its 24-point (in the winner's
    # home board: a backgammon), on its 12-point (a gammon); standard rules would call it a single
    # game, since the side counts 14 as off
    won = Position.from_sides([0] * 25, [0] * 12 + [1] + [0] * 12)
    assert game_kind(won, True, variation=Variation.HYPERGAMMON_1) == Win.GAMMON
    assert game_kind(won, True) == Win.SINGLE
    caught = Position.from_sides([0] * 25, [0] * 24 + [1])
    assert game_kind(caught, True, variation=Variation.HYPERGAMMON_1) == Win.BACKGAMMON


@pytest.mark.parametrize("to", ["mat", "sgf", "json"])
@pytest.mark.parametrize("checkers", [1, 2, 3])
def test_hypergammon_survives_every_export(tmp_path, to, checkers):
    source = VARIANTS / (SAMPLES[checkers] + ".sgf")
    out = tmp_path / f"out.{to}"
    result = invoke("export", str(source), "--to", to, "-o", str(out))
    assert result.exit_code == 0, result.output
    said = {"mat": f'; [Variation "HyperGammon ({checkers})"]', "sgf": f"RU[Crawford:Hypergammon{checkers}]",
            "json": f'"variation": "hypergammon{checkers}"'}[to]
    assert said in out.read_text()
    (again,) = replay_file(str(out))
    assert again.problems == [] and as_gnubg_says(again) == gnubgs(checkers)


def test_a_json_document_of_nackgammon_written_before_the_variation_key_reads_as_nackgammon(tmp_path):
    # bgcli's documents of 7 December 2026 said nackgammon as "nackgammon": true
    out = tmp_path / "out.json"
    assert invoke("export", str(VARIANTS / "nackgammon_3pt.gnubg.mat"), "--to", "json", "-o", str(out)).exit_code == 0
    doc = json.loads(out.read_text())
    assert doc["rules"].pop("variation") == "nackgammon"
    doc["rules"]["nackgammon"] = True
    out.write_text(json.dumps(doc))
    (replay,) = replay_file(str(out))
    assert replay.rules.variation == Variation.NACKGAMMON and replay.problems == []
    doc["rules"]["variation"] = "longgammon"
    out.write_text(json.dumps(doc))
    result = invoke("audit", str(out))
    assert result.exit_code == 2 and "'variation' of 'rules' is 'longgammon', not one of backgammon" in result.output


# Runs inside gnubg: reads each file (.mat by import, SGF by load) and dumps what .gnubg.json holds
_INSIDE = r'''
import gnubg, json
gnubg.command("set display off")
out = {}
for path in PATHS:
    gnubg.command(('import mat "%s"' if path.endswith(".mat") else 'load match "%s"') % path)
    m = gnubg.match(0, 1, 0, 0)
    out[path] = {"variation": m["match-info"]["variation"], "games": [
        {"boards": [r["board"] for r in g["game"] if r["action"] == "move"], "winner": g["info"]["winner"],
         "points": g["info"]["points-won"], "score": [g["info"]["score-X"], g["info"]["score-O"]]}
        for g in m["games"]]}
json.dump(out, open(RESULT, "w"))
'''


@pytest.mark.skipif(find_gnubg() is None, reason="GNU Backgammon is not installed")
def test_gnubg_reads_bgclis_hypergammon_back(tmp_path):
    # bgcli's .mat and SGF of gnubg's matches, read by gnubg: the same variant, positions and results
    paths = {}
    for checkers in SAMPLES:
        for to in ("mat", "sgf"):
            out = tmp_path / f"h{checkers}.{to}"
            assert invoke("export", str(VARIANTS / (SAMPLES[checkers] + ".sgf")), "--to", to, "-o", str(out)).exit_code == 0
            paths[str(out)] = checkers
    script, result = tmp_path / "inside.py", tmp_path / "result.json"
    script.write_text(f"PATHS = {list(paths)!r}\nRESULT = {str(result)!r}\n" + _INSIDE)
    subprocess.run([find_gnubg(), "-t", "-q", "-r", "-p", str(script)], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=300, check=False)
    read = json.loads(result.read_text())
    assert {path: read.get(path) for path in paths} == {path: golden(checkers) for path, checkers in paths.items()}



def test_the_board_shows_the_checkers_a_side_has_borne_off_of_its_own():
    # a side counts the checkers hypergammon lacks as off; the trays show none of them at the start,
    # as gnubg's board does ('show board' after 'new session' of 1-chequer hypergammon: empty trays)
    from bgcli.render.board import ascii_board, svg_board

    (replay,) = replay_file(str(VARIANTS / (SAMPLES[1] + ".mat")))
    first = next(e for e in replay.events if e.kind == "move").before
    rows = [line for line in ascii_board(first).splitlines() if line[:2] in (" |", "v|", "^|")]
    assert len(rows) == 11 and all(line.rsplit("|", 1)[1][:4].strip() == "" for line in rows), rows
    assert 'data-point="off"' not in svg_board(first)
    # 2 checkers: once a side has borne off one, its tray shows that one
    (replay,) = replay_file(str(VARIANTS / (SAMPLES[2] + ".mat")))
    one_off = next(e.before for e in replay.events if e.kind == "move" and 14 in (e.before.position.player[0],
                                                                                   e.before.position.opponent[0]))
    trays = "".join(line.rsplit("|", 1)[1][:4] for line in ascii_board(one_off).splitlines()
                    if line[:2] in (" |", "v|", "^|"))
    assert sorted(trays.replace(" ", "")) in (["O"], ["X"]), trays


def test_an_sgf_game_that_sets_only_the_cube_starts_from_its_variants_opening(tmp_path):
    """gnubg writes a cube set by hand at a game's start as nodes of their own (``;CP[c]`` ``;CV[1]``, as its
    rollout log does) with no board: the game starts from its own opening, nackgammon's here. The reader
    filled the board in from the standard opening, and gnubg's first nackgammon play was illegal there."""
    text = (DATA / "variants" / "nackgammon_3pt.gnubg.sgf").read_text()
    at = text.index("\n;B[21acbc]")   # game 1's first play
    path = tmp_path / "nack.sgf"
    path.write_text(text[:at] + "\n;CP[c]\n;CV[1]" + text[at:])
    replay, = replay_file(str(path))
    assert replay.problems == []
    first = next(e for e in replay.events if e.kind == "move")
    assert first.before.position == Position.start(Variation.NACKGAMMON) != Position.start()
