"""bgcli rate: text and JSON, many files and standard input, a file that
fails alone, the database (skip, resume, report) and the engine missing.
The engine is the fake of tests/fake_engine.py."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from fake_engine import FakeEngine
import bgcli.scale.rating as scale_rating
from bgcli.cli import cli
from bgcli.errors import EngineError, EngineUnavailableError

DATA = Path(__file__).parent / "data" / "rating"
THREE = DATA / "sp05025_3pt.mat"
ONE = DATA / "sp05000_1pt.mat"
OPENED: list[FakeEngine] = []


@pytest.fixture(autouse=True)
def fake(monkeypatch):
    def engines_for(spec):
        engine = FakeEngine(spec.level)
        OPENED.append(engine)
        return engine, FakeEngine(0)

    OPENED.clear()
    monkeypatch.setattr(scale_rating, "engines_for", engines_for)


def run(*args, input=None):
    return CliRunner().invoke(cli, ["rate", *map(str, args)], input=input)


def test_json_gives_one_object_per_file_with_the_issues_keys():
    result = run("--json", THREE, ONE)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["file"] for d in lines] == [str(THREE), str(ONE)]
    for data in lines:
        assert set(data) == {"file", "players", "decisions"}
        assert {"name", "decisions", "error", "error_rate", "pr", "luck", "doubtful", "bad", "very_bad"} <= set(data["players"][0])
        assert {"game", "move", "line", "player", "kind", "played", "best", "error", "luck"} <= set(data["decisions"][0])
        for player in data["players"]:
            assert player["pr"] == pytest.approx(500 * player["error"] / player["decisions"], abs=1e-3)


def test_text_lists_the_marked_decisions_and_a_table_of_players():
    result = run(THREE)
    assert result.exit_code == 0
    assert "player" in result.output and "PR" in result.output
    names = [line.split()[0] for line in result.stdout.splitlines()[-2:]]
    assert names == ["gnubg", "root"]
    assert "1 file rated (sage 2-ply)" in result.stderr


def test_standard_input_and_a_missing_file_among_others():
    result = run("--json", "-", "nosuch.mat", ONE, input=THREE.read_text())
    assert result.exit_code == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["file"] for d in lines] == ["-", "nosuch.mat", str(ONE)]
    assert "error" in lines[1] and lines[0]["players"] and lines[2]["players"]
    assert "cannot read nosuch.mat" in result.stderr


def test_an_engine_that_fails_on_one_file_costs_only_that_file(monkeypatch, tmp_path):
    class Failing(FakeEngine):
        def cube_decision(self, state):
            if state.match.match_length == 3:
                raise EngineError("fake timed out after 60 s on a 3-point match")
            return super().cube_decision(state)

    monkeypatch.setattr(scale_rating, "engines_for", lambda spec: (Failing(), FakeEngine(0)))
    result = run("--json", THREE, ONE)
    assert result.exit_code == 2
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert "timed out" in first["error"] and not first["players"]
    assert second["players"] and "error" not in second


def test_the_engine_missing_is_one_line_and_exit_2(monkeypatch):
    def missing(spec):
        raise EngineUnavailableError("the sage engine needs bgsage: pip install 'bgcli[engine]'")

    monkeypatch.setattr(scale_rating, "engines_for", missing)
    result = run(THREE)
    assert result.exit_code == 2
    assert result.stderr.strip() == "Error: the sage engine needs bgsage: pip install 'bgcli[engine]'"


def test_an_illegal_play_is_exit_1_and_shown(tmp_path):
    path = tmp_path / "illegal.mat"
    path.write_text(THREE.read_text().replace(" 9) 31: 8/5 5/4", " 9) 31: 8/5 5/1"))
    result = run(path)
    assert result.exit_code == 1
    assert "illegal play 8/5 5/1: not a legal choice, not judged" in result.output


def test_the_database_keeps_results_skips_them_and_reports_players(tmp_path):
    db = tmp_path / "ratings.sqlite"
    folder = tmp_path / "archive"
    folder.mkdir()
    for path in (THREE, ONE):
        shutil.copy(path, folder)
    first = run("--json", "--db", db, folder)
    assert first.exit_code == 0 and sum(sum(e.calls.values()) for e in OPENED) > 0
    OPENED.clear()
    again = run("--json", "--db", db, folder)
    assert again.exit_code == 0
    assert again.stdout == first.stdout                    # the stored results, as given the first time
    assert not OPENED                                      # nothing rated again: no engine even opened
    report = run("--db", db, "--report", "players", "--json")
    rows = [json.loads(line) for line in report.stdout.splitlines()]
    files = [json.loads(line) for line in first.stdout.splitlines()]
    for row in rows:
        mine = [p for f in files for p in f["players"] if p["name"] == row["name"]]
        assert row["matches"] == len(mine) == 2
        assert row["decisions"] == sum(p["decisions"] for p in mine)
        assert row["pr"] == pytest.approx(500 * sum(p["error"] for p in mine) / row["decisions"], abs=1e-3)
    text = run("--db", db, "--report", "players")
    assert text.exit_code == 0 and "gnubg" in text.output and "matches" in text.output


def test_a_changed_level_rates_again(tmp_path):
    db = tmp_path / "ratings.sqlite"
    run("--db", db, ONE)
    OPENED.clear()
    run("--db", db, ONE)
    assert not OPENED
    run("--db", db, "--level", "1", ONE)
    assert OPENED and OPENED[0].level.ply == 1 and sum(OPENED[0].calls.values()) > 0


def test_report_needs_a_database_and_no_files(tmp_path):
    assert run("--report", "players").exit_code == 2
    assert run("--db", tmp_path / "x.sqlite", "--report", "players", ONE).exit_code == 2
    assert run("--db", tmp_path / "none.sqlite", "--report", "players").exit_code == 2


def test_an_audit_database_is_refused(tmp_path):
    db = tmp_path / "audit.sqlite"
    CliRunner().invoke(cli, ["audit", "--db", str(db), str(ONE)])
    result = run("--db", db, ONE)
    assert result.exit_code == 2 and "not bgcli's ratings" in result.stderr


def test_jobs_rate_in_worker_processes_in_order(tmp_path):
    result = run("--json", "--jobs", "2", THREE, ONE, THREE)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["file"] for d in lines] == [str(THREE), str(ONE), str(THREE)]
    assert lines[0] == lines[2]


def test_one_file_under_three_names_is_rated_and_counted_once(tmp_path, monkeypatch):
    db = tmp_path / "ratings.sqlite"
    shutil.copy(ONE, tmp_path / "a.mat")
    monkeypatch.chdir(tmp_path)
    first = run("--db", db, "a.mat")
    assert first.exit_code == 0 and OPENED
    OPENED.clear()
    for name in ("./a.mat", tmp_path / "a.mat"):
        assert run("--db", db, name).exit_code == 0
    assert not OPENED                                      # the stored result served both other names
    rows = [json.loads(line) for line in run("--db", db, "--report", "players", "--json").stdout.splitlines()]
    assert rows and all(row["matches"] == 1 for row in rows)



@pytest.mark.parametrize("column, damage, why", [
    ("decisions", "[{\"game\": 1", "its decisions (table files) are not JSON"),
    ("decisions", "{}", "its decisions (table files) are not what bgcli rate stores"),
    ("figures", "[1, 2]", "its player's figures (table players) are not what bgcli rate stores"),
])
def test_a_damaged_stored_rating_is_one_line_naming_the_database_and_the_file(tmp_path, column, damage, why):
    """A stored rating changed by hand or by a failing disk: every later run
    that would read it back says so in one line (exit 2), never a traceback;
    the database is left as it is, and the other files' results stay."""
    import sqlite3

    db = tmp_path / "ratings.sqlite"
    assert run("--db", db, THREE, ONE).exit_code == 0
    table = "files" if column == "decisions" else "players"
    with sqlite3.connect(db) as connection:
        connection.execute(f"UPDATE {table} SET {column} = ? WHERE path = ?", (damage, str(THREE.resolve())))
    before = db.read_bytes()
    again = run("--json", "--db", db, THREE)
    assert again.exit_code == 2 and again.stdout == ""
    assert again.stderr == (f"Error: the ratings database {db} is damaged: the stored result of {str(THREE.resolve())!r} "
                            f"cannot be read: {why}"
                            + again.stderr.split(why, 1)[1])
    assert len(again.stderr.splitlines()) == 1 and "Traceback" not in again.stderr
    assert db.read_bytes() == before
    assert json.loads(run("--json", "--db", db, ONE).stdout)["file"] == str(ONE)   # the others read back still


def test_text_and_json_name_gnubgs_kinds_of_cube_error(monkeypatch):
    """Each player's cube errors by gnubg's kinds (missed double below/above the cash point, wrong double
    below the double point/above too good, wrong take, wrong pass): counted in the JSON, one line a
    player with any in the text, and each cube error in the list named by its kind."""

    class Eager(FakeEngine):
        pass

    monkeypatch.setattr(scale_rating, "engines_for", lambda spec: (Eager(cube_bias=5.0), FakeEngine(0)))
    data = json.loads(run("--json", THREE).stdout.splitlines()[0])
    kinds = {p["name"]: {k: v["count"] for k, v in p["cube_errors"].items() if v["count"]} for p in data["players"]}
    assert any(kinds.values())
    assert {d["cube_error"] for d in data["decisions"] if "cube_error" in d} <= {
        "missed double below cash point", "missed double above cash point", "wrong double below double point",
        "wrong double above too good point", "wrong take", "wrong pass"}
    text = run(THREE).stdout
    for name, found in kinds.items():
        line = next(line for line in text.splitlines() if line.startswith(f"  cube errors of {name}:"))
        assert all(kind in line for kind in found)


def test_the_summary_names_the_level_only_where_the_engine_has_levels():
    from bgcli.engines import describe

    assert describe("sage", 2) == "sage 2-ply" and describe("gnubg", 0) == "gnubg 0-ply"
    assert describe("exact", 2) == "exact"   # exact figures: no depth, the level is ignored
    result = run("--engine", "exact", ONE)
    assert "(exact)" in result.stderr and "ply" not in result.stderr.splitlines()[-1]


def test_thresholds_mark_the_decisions_again(monkeypatch):
    """--thresholds D,B,VB: each decision marked with them, in the list and in each player's counts (JSON and
    text); the default is gnubg's; a bad value is a usage error naming it."""
    from bgcli.judging.rating import Thresholds

    monkeypatch.setattr(scale_rating, "engines_for", lambda spec: (FakeEngine(), FakeEngine(0)))
    default = json.loads(run("--json", THREE).stdout.splitlines()[0])
    strict = json.loads(run("--json", "--thresholds", "0.001,0.002,0.004", THREE).stdout.splitlines()[0])
    assert [d["error"] for d in default["decisions"]] == [d["error"] for d in strict["decisions"]]
    for data, limits in ((default, Thresholds()), (strict, Thresholds(0.001, 0.002, 0.004))):
        for player in data["players"]:
            errors = [d["error"] for d in data["decisions"] if d["player"] == player["name"] and d["kind"] != "illegal"]
            assert player["doubtful"] == sum(1 for e in errors if e is not None and limits.bad >= e > limits.doubtful)
            assert player["very_bad"] == sum(1 for e in errors if e is not None and e > limits.very_bad)
    assert sum(p["very_bad"] for p in strict["players"]) > sum(p["very_bad"] for p in default["players"])
    text = run("--thresholds", "0.001,0.002,0.004", THREE).stdout
    assert text.count("(very bad)") >= sum(p["very_bad"] for p in strict["players"])
    bad = run("--thresholds", "0.06,0.03,0.12", THREE)
    assert bad.exit_code == 2 and "--thresholds" in bad.output and "rising" in bad.output
