"""Errors and warnings: every problem has a severity; warnings alone exit 0,
are counted apart and marked in text; --strict counts them as errors; the
results database keeps them."""
from __future__ import annotations

import json
import sqlite3

from click.testing import CliRunner

from bgcli.cli import cli
from bgcli.match.replay import Problem, ProblemKind, Severity
from bgcli.scale.archive import AuditDB, audit_file

HEADER = " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
OPENING = "  1) 31: 8/5 6/5                 21: 13/11 24/23\n"
CUT = HEADER + OPENING                                      # stops in game 1: a warning
WRONG = (HEADER.replace(" 5 point", " 1 point") + "  1) 31: 8/5 6/4                 21: 13/11 24/23\n"
         "      Wins 1 point\n")   # an illegal play


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_severity_follows_the_kind_unless_given():
    incomplete = Problem(3, 1, 0, "", ProblemKind.INCOMPLETE, "stops")
    assert incomplete.severity == Severity.WARNING and incomplete.to_dict()["severity"] == "warning"
    assert Problem(3, 1, 0, "", ProblemKind.PLAY, "bad").severity == Severity.ERROR
    assert Problem(3, 1, 0, "", ProblemKind.POINTS, "needed", severity=Severity.WARNING).severity == Severity.WARNING


def test_every_problem_in_json_has_a_severity(tmp_path):
    run = CliRunner().invoke(cli, ["audit", "--json", write(tmp_path, "cut.mat", CUT), write(tmp_path, "bad.mat", WRONG)])
    lines = [json.loads(line) for line in run.output.splitlines()]
    severities = [[p["severity"] for p in line["problems"]] for line in lines]
    assert severities == [["warning"], ["error"]]
    assert run.exit_code == 1


def test_warnings_alone_exit_0_and_are_counted_apart(tmp_path):
    clean = write(tmp_path, "clean.mat", HEADER.replace(" 5 point", " 1 point") + OPENING + "      Wins 1 point\n")
    cut = write(tmp_path, "cut.mat", CUT)
    run = CliRunner().invoke(cli, ["audit", clean, cut])
    assert run.exit_code == 0, run.output
    out = run.output.splitlines()
    assert out[0] == f"{cut}:5: game 1 move 2: warning: incomplete: game 1 has no result: the record stops before the game ends"
    assert out[-1] == "2 files checked, 0 errors, 1 warning in 1 file"


def test_errors_are_not_marked_and_exit_1(tmp_path):
    bad = write(tmp_path, "bad.mat", WRONG)
    run = CliRunner().invoke(cli, ["audit", bad, write(tmp_path, "cut.mat", CUT)])
    assert run.exit_code == 1
    first = run.output.splitlines()[0]
    assert first.startswith(f"{bad}:5: game 1 move 1 (Alice): play: ") and "warning" not in first
    assert run.output.splitlines()[-1] == "2 files checked, 1 error, 1 warning in 2 files"


def test_strict_makes_warnings_count_as_errors(tmp_path):
    cut = write(tmp_path, "cut.mat", CUT)
    assert CliRunner().invoke(cli, ["audit", cut]).exit_code == 0
    assert CliRunner().invoke(cli, ["audit", "--strict", cut]).exit_code == 1
    assert CliRunner().invoke(cli, ["audit", "--strict", "--json", cut]).exit_code == 1


def test_the_database_keeps_severities_and_the_report_counts_them(tmp_path):
    db = str(tmp_path / "r.sqlite")
    files = [write(tmp_path, "cut.mat", CUT)]
    runner = CliRunner()
    first = runner.invoke(cli, ["audit", "--json", "--db", db, *files])
    again = runner.invoke(cli, ["audit", "--json", "--db", db, *files])   # from the database
    assert first.output == again.output and '"severity": "warning"' in again.output
    assert again.exit_code == 0
    report = runner.invoke(cli, ["audit", "--db", db, "--report", "--json"])
    totals = json.loads(report.output)
    assert (totals["errors"], totals["warnings"], totals["with_errors"], totals["with_problems"]) == (0, 1, 0, 1)
    assert report.exit_code == 0
    assert runner.invoke(cli, ["audit", "--db", db, "--report", "--strict"]).exit_code == 1
    files.append(write(tmp_path, "bad.mat", WRONG))
    runner.invoke(cli, ["audit", "--db", db, *files])
    text = runner.invoke(cli, ["audit", "--db", db, "--report"])
    assert text.exit_code == 1
    assert text.output.splitlines()[:2] == ["2 files: 0 clean, 2 with problems (1 with errors), 0 unreadable",
                                            "2 games, 1 error, 1 warning"]


def test_a_database_of_schema_1_gains_severities_and_audits_its_files_again(tmp_path):
    db = str(tmp_path / "old.sqlite")
    cut = write(tmp_path, "cut.mat", CUT)
    with AuditDB(db) as results:
        results.store(audit_file(cut, keep=True))   # type: ignore[arg-type]
    # make it look like schema 1: no severity columns, a stored problem without one
    con = sqlite3.connect(db)
    con.executescript("""
        CREATE TABLE p1 AS SELECT path, seq, line, match, game, move, player, kind, message FROM problems;
        DROP TABLE problems; ALTER TABLE p1 RENAME TO problems;
        ALTER TABLE files DROP COLUMN errors;
        UPDATE meta SET value = '1' WHERE key = 'schema';
    """)
    con.close()
    with AuditDB(db) as results:
        job = results.task(cut)
        assert job.keep and job.known == ""           # stored, but to be audited again
        assert results.stored(cut).problems[0]["severity"] == "error"   # the column's default, until then
    run = CliRunner().invoke(cli, ["audit", "--json", "--db", db, cut])
    assert json.loads(run.output)["problems"][0]["severity"] == "warning"
    assert run.exit_code == 0
