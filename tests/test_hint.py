"""bgcli hint and the gnubg and exact backends, against GNU Backgammon's own hint (tests/data/engine/hints.jsonl)."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcli.cli import cli
from bgcli.core.ids import parse_position
from bgcli.core.position import Position
from bgcli.core.generator import legal_plays
from bgcli.core.notation import play_text
from bgcli.core.rules import Rules
from bgcli.core.state import GameState, MatchState
from bgcli.engines import open_engine
from bgcli.engines.gnubg import find_gnubg
from bgcli.core.cube import CubeTurn, Reason, may_double, proper_action
from bgcli.engines.hint import hint
from bgcli.errors import EngineError, EngineUnavailableError

HINTS = [json.loads(line) for line in (Path(__file__).parent / "data" / "engine" / "hints.jsonl").open()]
PLAYS = [h for h in HINTS if h["kind"] == "play"]
CUBES = [h for h in HINTS if h["kind"] == "cube"]
HAVE_GNUBG = find_gnubg() is not None
HAVE_SAGE = importlib.util.find_spec("bgsage") is not None
needs_gnubg = pytest.mark.skipif(not HAVE_GNUBG, reason="GNU Backgammon is not installed (apt-get install gnubg)")
needs_sage = pytest.mark.skipif(not HAVE_SAGE, reason="bgsage is not installed (pip install '.[engine]')")
# gnubg's own figures differ from machine to machine (its network code takes the SIMD instructions
# the processor has, and a hair's difference can change what its 2-ply filter keeps): 24/23 13/11 at
# the opening 21 is -0.0014253 where hints.jsonl was made and -0.0014136 on another machine, 10/8 5/2
# in d9sIBQDbbsMAAA:EYGpACAAAAAE -0.000776 and -0.000784. So bgcli's backend is held exactly to gnubg
# run now, on this machine, and the stored figures to this.
ACROSS_MACHINES = 2e-3


def test_the_golden_data_is_varied():
    assert len(PLAYS) >= 100 and len(CUBES) >= 20
    lengths = {parse_position(h["gnubgid"]).match.match_length for h in HINTS}
    assert 0 in lengths and len(lengths) >= 4  # money and matches of several lengths


# --- gnubg: bgcli's backend gives gnubg's own hint ---------------------------------------------------------------

@pytest.fixture(scope="module")
def gnubg():
    if not HAVE_GNUBG:
        pytest.skip("GNU Backgammon is not installed (apt-get install gnubg)")
    engine = open_engine("gnubg", 2, timeout=60)
    yield engine
    engine.close()


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """gnubg's own hint and cube figures for the sample, made now, on this machine, by the script
    that made hints.jsonl (tests/data/engine/make_hints.py), keyed by (gnubgid, dice)."""
    if not HAVE_GNUBG:
        pytest.skip("GNU Backgammon is not installed (apt-get install gnubg)")
    spec = importlib.util.spec_from_file_location("make_hints", Path(__file__).parent / "data" / "engine" / "make_hints.py")
    assert spec and spec.loader
    make_hints = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_hints)
    folder = tmp_path_factory.mktemp("live_hints")
    given, got, script = folder / "in.jsonl", folder / "out.jsonl", folder / "hints.py"
    asked = [{k: item[k] for k in ("gnubgid", "kind", "dice") if k in item} for item in PLAYS[::4] + CUBES[::3]]
    given.write_text("".join(json.dumps(item) + "\n" for item in asked))
    script.write_text(make_hints.GNUBG_SCRIPT)
    subprocess.run([find_gnubg(), "-t", "-q", "-r", "-p", str(script)], check=True, capture_output=True, timeout=600,
                   env=dict(os.environ, HINTS_IN=str(given), HINTS_OUT=str(got)))
    return {(item["gnubgid"], tuple(item.get("dice", ()))): item for item in map(json.loads, got.read_text().splitlines())}


@needs_gnubg
def test_gnubg_backend_gives_gnubgs_hint(gnubg, live):
    for stored in PLAYS[::4]:
        item = live[stored["gnubgid"], tuple(stored["dice"])]
        state = parse_position(item["gnubgid"])
        dice = tuple(item["dice"])
        found = hint(state, dice, gnubg)
        assert len(found.plays) == item["legal"] == stored["legal"]
        ours = [(play_text(p.play), p.evaluation.equity) for p in found.plays[:len(item["plays"])]]
        for (text, equity), theirs in zip(ours, item["plays"]):
            assert equity == pytest.approx(theirs["equity"], abs=1e-6), (item["gnubgid"], text, theirs)
        # and the stored figures, made on another machine, within what gnubg itself varies by
        assert ours[0][1] == pytest.approx(stored["plays"][0]["equity"], abs=ACROSS_MACHINES)


@needs_gnubg
def test_gnubg_backend_gives_gnubgs_cube_decisions(gnubg, live):
    for stored in CUBES[::3]:
        item = live[stored["gnubgid"], ()]
        found = gnubg.cube_decision(parse_position(item["gnubgid"]))
        for name in ("no_double", "double_take", "double_pass"):
            assert getattr(found, name) == pytest.approx(item[name], abs=1e-6), (item["gnubgid"], name)
            assert getattr(found, name) == pytest.approx(stored[name], abs=ACROSS_MACHINES), (item["gnubgid"], name)
        assert found.probabilities.win == pytest.approx(item["probs"][0], abs=1e-6)


@needs_gnubg
def test_gnubg_forced_play_is_evaluated_at_the_level(gnubg):
    item = next(h for h in PLAYS if h["legal"] > 12 and all(p["plies"] == 2 for p in h["plays"][:2]))
    state = parse_position(item["gnubgid"])
    dice = tuple(item["dice"])
    plays = legal_plays(state.position, dice)
    plain = gnubg.evaluate_plays(state, dice, plays)
    worst = plain[-1].play
    forced = {p.play: p.evaluation.equity for p in gnubg.evaluate_plays(state, dice, plays, force=[worst])}
    assert forced[worst] != pytest.approx(plain[-1].evaluation.equity, abs=1e-9)


@needs_gnubg
def test_a_hung_gnubg_is_an_error_for_that_call_and_the_next_call_works(gnubg, tmp_path):
    slow = tmp_path / "gnubg"
    slow.write_text("#!/bin/sh\nsleep 30\n")
    slow.chmod(0o755)
    from bgcli.engines.gnubg import GnubgEngine
    from bgcli.engines.protocol import Level

    hung = GnubgEngine(Level(0), timeout=0.5, program=str(slow))
    with pytest.raises(EngineError, match="no answer in 0.5 s"):
        hung.cube_decision(GameState(Position.start()))
    hung.program = find_gnubg()  # a working gnubg starts on the next call
    hung.timeout = 60
    assert hung.cube_decision(GameState(Position.start())).double_pass == pytest.approx(1.0)
    hung.close()


def test_a_missing_gnubg_names_what_to_install(monkeypatch):
    import bgcli.engines.gnubg as backend

    monkeypatch.setattr(backend, "find_gnubg", lambda: None)
    with pytest.raises(EngineUnavailableError, match="apt-get install gnubg"):
        open_engine("gnubg")
    result = CliRunner().invoke(cli, ["hint", "--engine", "gnubg", "start", "31"])
    assert result.exit_code == 2 and "apt-get install gnubg" in result.output


def test_a_command_keeps_its_engines_for_itself_and_closes_them(monkeypatch):
    """hint opens its engine once for a batch and closes it when the command
    ends: the next command (in the same process, as in a test run) opens its
    own, and no engine is left open between commands."""
    import bgcli.engines as engines
    import bgcli.engines.kept as kept

    opened, closed = [], []
    real = engines.open_engine

    def counted(*args, **kwargs):
        engine = real(*args, **kwargs)
        opened.append(engine)
        close = engine.close
        monkeypatch.setattr(engine, "close", lambda: (closed.append(engine), close())[1], raising=False)
        return engine

    monkeypatch.setattr(engines, "open_engine", counted)
    lines = "start 31\nstart 52\nstart 64\n"
    for _ in range(2):
        result = CliRunner().invoke(cli, ["hint", "--engine", "exact", "--batch", "-"], input=lines)
        assert len(result.output.splitlines()) == 3
    assert len(opened) == 2 and opened[0] is not opened[1]   # once a command, not once a line nor once a process
    assert closed == opened
    assert kept._scope is None
    with pytest.raises(RuntimeError, match="inside a command's scope"):
        kept.kept_engine("exact", 0, 1.0)


# --- sage against gnubg ------------------------------------------------------------------------------------

@needs_sage
def test_sage_mostly_picks_gnubgs_best_play():
    engine = open_engine("sage", 2)
    sample = PLAYS[::4]
    same, lost = 0, []
    for item in sample:
        found = hint(parse_position(item["gnubgid"]), tuple(item["dice"]), engine)
        best = play_text(found.plays[0].play)
        equities = {p["move"]: p["equity"] for p in item["plays"]}
        if best == item["plays"][0]["move"] or equities.get(best) == pytest.approx(item["plays"][0]["equity"], abs=1e-6):
            same += 1
        else:  # what gnubg says sage's choice gives up (beyond its best 8: at least the 8th's loss)
            lost.append(item["plays"][0]["equity"] - equities.get(best, item["plays"][-1]["equity"]))
    engine.close()
    assert same / len(sample) >= 0.75, (same, len(sample), lost)
    assert sum(lost) / len(sample) < 0.02  # the average equity lost per position, in gnubg's equity


@needs_sage
def test_sage_cube_decisions_are_close_to_gnubgs():
    engine = open_engine("sage", 2)
    agree = 0
    for item in CUBES:
        found = engine.cube_decision(parse_position(item["gnubgid"]))
        assert found.no_double == pytest.approx(item["no_double"], abs=0.15)
        theirs = proper_action(item["no_double"], item["double_take"], item["double_pass"]).doubles
        agree += proper_action(found.no_double, found.double_take, found.double_pass).doubles == theirs
    engine.close()
    assert agree / len(CUBES) >= 0.8


# --- exact --------------------------------------------------------------------------------------------------

def _bearoff(player, opponent, match=MatchState()):
    return GameState(Position.from_sides(list(player) + [0] * (25 - len(player)),
                                         list(opponent) + [0] * (25 - len(opponent))), match)


def test_exact_last_roll():
    # one checker each on the 6-point: the player on roll bears it off at once unless it rolls 21, 31, 41, 32
    # (either way round) or 11; then the opponent fails as often, and whoever rolls next surely finishes
    state = _bearoff([0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 1])
    engine = open_engine("exact")
    found = engine.evaluate(state)
    fail = 9 / 36
    wins = (1 - fail) + fail * fail
    assert found.probabilities.win == pytest.approx(wins)
    # cubeful (the two-sided table): with the cube centred the player on roll doubles and wins the cube
    assert found.equity == 1.0
    ranked = engine.evaluate_plays(state, (6, 1), legal_plays(state.position, (6, 1)))
    assert ranked[0].evaluation.probabilities.win == 1.0
    cube = engine.cube_decision(state)
    # taken, the opponent owns the cube: the player wins 27 rolls in 36 and then loses the redoubled rest
    assert (cube.double_take, cube.double_pass) == (pytest.approx(2 * (27 / 36 - 9 / 36)), 1.0)
    crowd = _bearoff([0, 0, 0, 0, 0, 7], [0, 0, 0, 0, 0, 1])   # seven checkers: outside the two-sided table
    with pytest.raises(EngineError, match="1 to 6 checkers"):
        engine.cube_decision(crowd)


def test_exact_ranks_the_bear_off_play_that_wins_most():
    state = _bearoff([2, 0, 1, 0, 0, 1], [0, 2, 0, 0, 0, 0])
    engine = open_engine("exact")
    ranked = engine.evaluate_plays(state, (5, 2), legal_plays(state.position, (5, 2)))
    assert ranked[0].evaluation.probabilities.win >= ranked[-1].evaluation.probabilities.win
    wins = [r.evaluation.probabilities.win for r in ranked]
    assert wins == sorted(wins, reverse=True) and len(set(wins)) > 1


def test_exact_refuses_contact_and_gammons():
    engine = open_engine("exact")
    with pytest.raises(EngineError, match="no contact"):
        engine.evaluate(GameState(Position.start()))
    none_off = GameState(Position.from_sides([0, 0, 0, 0, 0, 15] + [0] * 19, [0, 0, 0, 0, 0, 2] + [0] * 19))
    with pytest.raises(EngineError, match="gammon"):
        engine.evaluate(none_off)


# --- the hint command ------------------------------------------------------------------------------------------

def test_hint_json_with_the_exact_engine():
    state = _bearoff([0, 0, 0, 1, 0, 1], [0, 0, 0, 1, 1])
    from bgcli.core.ids import gnubg_id

    result = CliRunner().invoke(cli, ["hint", "--json", "--engine", "exact", gnubg_id(state), "21"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"position_id", "dice", "engine", "level", "plays"}
    assert data["engine"] == "exact" and data["dice"] == [2, 1]
    assert {p["position_id"] for p in data["plays"]} == {p.result_id() for p in legal_plays(state.position, (2, 1))}
    assert data["plays"][0]["diff"] == 0 and all(p["diff"] <= 0 for p in data["plays"])
    assert set(data["plays"][0]) == {"play", "position_id", "equity", "diff", "probabilities"}


def test_hint_batch_keeps_going_after_a_bad_line():
    state = _bearoff([0, 0, 0, 1, 0, 1], [0, 0, 0, 1, 1])
    text = f"{state.position.id()} 21\nnonsense 31\n# a comment\nstart 31\n\n"
    result = CliRunner().invoke(cli, ["hint", "--engine", "exact", "--batch", "-"], input=text)
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert result.exit_code == 1 and len(rows) == 4
    assert "plays" in rows[0] and rows[1]["error"].startswith("line 2: invalid position")
    assert rows[2]["error"].startswith("line 4: the exact engine cannot judge") and rows[3]["error"] == "line 5: empty line"


def test_no_cube_decision_says_why():
    owned = GameState(Position.start(), MatchState(cube=2, cube_owner=0, on_roll=1))
    assert str(may_double(CubeTurn.of(owned))) == "the opponent owns the cube"
    crawford = GameState(Position.start(), MatchState(rules=Rules(match_length=5), score=(4, 2), crawford=True))
    assert "Crawford" in str(may_double(CubeTurn.of(crawford)))
    dead = GameState(Position.start(), MatchState(rules=Rules(match_length=5), score=(3, 1), cube=2, cube_owner=0, on_roll=0))
    assert "covers" in str(may_double(CubeTurn.of(dead)))
    # an answer, not an error: the engine is not even asked (exact cannot judge the opening)
    found = hint(owned, None, open_engine("exact"))
    assert found.refusal is not None and found.refusal.reason is Reason.OWNED and found.cube is None
    assert found.to_dict()["cube"] == {"may_double": False, "reason": "owned", "why": "the opponent owns the cube"}


def test_hint_where_the_player_may_not_double_answers_with_the_reason():
    from bgcli.core.ids import gnubg_id

    crawford = gnubg_id(GameState(Position.start(), MatchState(rules=Rules(match_length=5), score=(4, 2), crawford=True)))
    owned = gnubg_id(GameState(Position.start(), MatchState(cube=2, cube_owner=0, on_roll=1)))
    result = CliRunner().invoke(cli, ["hint", "--engine", "exact", crawford])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1] == "  You cannot double: this is the Crawford game: no cube."
    batch = CliRunner().invoke(cli, ["hint", "--engine", "exact", "--batch", "-"], input=f"{crawford}\n{owned}\n")
    assert batch.exit_code == 0, batch.output
    rows = [json.loads(line) for line in batch.output.splitlines()]
    assert [row["cube"]["reason"] for row in rows] == ["crawford", "owned"]
    assert all("error" not in row for row in rows)


@needs_sage
def test_hint_text_and_cube_with_sage():
    runner = CliRunner()
    result = runner.invoke(cli, ["hint", "--level", "0", "start", "31"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "sage 0-ply (XG 1-ply), money, 4HPwATDgc/ABMA:cAkAAAAAAAAA, 31"
    assert lines[1].split()[:3] == ["1.", "8/5", "6/5"] and len(lines) == 17
    cube = runner.invoke(cli, ["hint", "--json", "--level", "0", "start"])
    data = json.loads(cube.output)
    assert set(data["cube"]) >= {"no_double", "double_take", "double_pass", "action"}
    assert data["cube"]["action"] == "No double, take" and data["dice"] is None
    assert data["cube"]["may_double"] and data["cube"]["answer"] == "take" and not data["cube"]["double"]
    text = runner.invoke(cli, ["hint", "--level", "0", "start"]).output.splitlines()
    assert text[-1].startswith("  Proper cube action: No double, take (") and text[2].startswith("  1. No double")


@needs_sage
def test_analyze_with_an_engine():
    result = CliRunner().invoke(cli, ["analyze", "--json", "--engine", "sage", "--level", "0", "start"])
    data = json.loads(result.output)
    assert data["pips"] == [167, 167] and 0.5 < data["engine"]["probabilities"]["win"] < 0.56
    text = CliRunner().invoke(cli, ["analyze", "--engine", "sage", "--level", "0", "start"]).output
    assert text.splitlines()[-1].startswith("sage 0-ply") and "equity +0.1" in text


def test_hint_batch_on_two_processes_keeps_the_order(tmp_path):
    states = [_bearoff([0, 0, 0, 1, 0, n], [0, 0, 0, 1, 1]) for n in (1, 2, 3)]
    lines = [f"{s.position.id()} {d}" for s in states for d in ("21", "63", "55")] * 6
    path = tmp_path / "positions.txt"
    path.write_text("\n".join(lines) + "\n")
    serial = CliRunner().invoke(cli, ["hint", "--engine", "exact", "--batch", str(path)])
    # run_in_chunks writes to the real standard output: compare through a subprocess
    import subprocess
    import sys

    parallel = subprocess.run([sys.executable, "-m", "bgcli", "hint", "--engine", "exact", "--jobs", "2", "--batch",
                               str(path)], capture_output=True, text=True)
    assert serial.exit_code == parallel.returncode == 0
    assert parallel.stdout == serial.output and len(parallel.stdout.splitlines()) == len(lines)


@needs_sage
def test_jacoby_on_a_money_position_and_not_on_a_match():
    """--jacoby plays a money position with the Jacoby rule (the engine is told: the equities change,
    not the chances); a match position is judged as it is; the same in --batch."""
    runner = CliRunner()

    def plays(*args, batch_input=None):
        result = runner.invoke(cli, ["hint", "--json", "--level", "0", *args], input=batch_input)
        assert result.exit_code == 0, result.output
        return [json.loads(line)["plays"] for line in result.output.splitlines()]

    money = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"   # money, no Jacoby, 52 rolled
    plain, = plays(money)
    jacoby, = plays("--jacoby", money)
    assert [p["play"] for p in plain] and {p["play"] for p in plain} == {p["play"] for p in jacoby}
    assert [p["probabilities"] for p in plain] == [p["probabilities"] for p in jacoby]
    assert [p["equity"] for p in plain] != [p["equity"] for p in jacoby]
    match = "4HPwATDgc/ABMA:cAnlAAAAAAAE"   # a 7-point match, 21 rolled
    assert plays(match) == plays("--jacoby", match)
    assert plays("--jacoby", "--batch", "-", batch_input=f"{money}\n") == [jacoby]


@needs_sage
def test_beavers_on_a_money_cube_decision_give_gnubgs_words():
    """--beavers (a Position ID cannot say whether beavers are allowed: gnubg's default allows them)
    gives gnubg's "No double, beaver" where the taker's equity is between -2 and 0, with the
    "Double, take" line the take's own equity, as gnubg prints it (tests/data/cube/cases.jsonl:
    gnubg 2-ply, "No double, beaver (30.2%)", double/take -1.127); a match position is judged as it is."""
    runner = CliRunner()

    def cube(*args):
        result = runner.invoke(cli, ["hint", "--json", "--level", "0", *args])
        assert result.exit_code == 0, result.output
        return json.loads(result.output)["cube"]

    money = "cxziIwDgc8oYQA:cAkAAAAAAAAE"
    plain, beavers = cube(money), cube("--beavers", money)
    assert plain["action"] == "No double, take" and beavers["action"] == "No double, beaver"
    assert beavers["double_take"] == pytest.approx(plain["double_take"]) and -2 < beavers["double_take"] < -1
    match = "cxziIwDgc8oYQA:cAlAAAAAAAAE"   # the same board in a 2-point match
    assert cube(match) == cube("--beavers", match)
