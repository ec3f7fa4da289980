"""bgcli audit over many files: worker processes, a Dask cluster, the results
database, and the files of an archive that are not what they should be.

Most tests run the real command in a subprocess (worker processes, signals,
a database killed in the middle of a run); the Dask tests start a real local
cluster and skip only when Dask is not installed (pip install '.[dask]').
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcli.scale import archive, pool
from bgcli.scale.archive import AuditDB, AuditJob, FileResult, find_files
from bgcli.scale.jobs import FileTask, Unchanged, file_digest
from bgcli.scale.runner import run_on_pool
from bgcli.cli import cli

from conftest import ORACLE as DATA, ROOT, SELFPLAY, ctrl_c_as_a_terminal_gives, read_in_background

FLAWED = DATA / "audit_sample"

try:
    import distributed  # noqa: F401
    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False
needs_dask = pytest.mark.skipif(not HAVE_DASK, reason="Dask is not installed (pip install '.[dask]')")


def bgcli(*args, input=None, env=None, timeout=300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bgcli", *map(str, args)], input=input, capture_output=True, text=True,
                          env=env, timeout=timeout)


def selfplay(n: int | None = None) -> list[Path]:
    files = sorted(SELFPLAY.glob("*.mat"))[:n]
    if not files:
        pytest.fail("no self-play matches in tests/data/oracle/selfplay", pytrace=False)
    return files


def flawed(n: int | None = None) -> list[Path]:
    files = sorted(FLAWED.glob("*.mat"))[:n]
    if not files:
        pytest.fail("no audit sample in tests/data/oracle/audit_sample", pytrace=False)
    return files


def archive_folder(root: Path, copies: int = 1) -> Path:
    """A folder of clean and flawed matches, in sub-folders, ``copies`` times."""
    folder = root / "archive"
    for copy in range(copies):
        for kind, files in (("clean", selfplay()), ("flawed", flawed())):
            target = folder / f"{copy:03d}" / kind
            target.mkdir(parents=True, exist_ok=True)
            for path in files:
                shutil.copy(path, target / path.name)
    return folder


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


# --- the same results however the files are spread ----------------------------------------


def bad_folder(root: Path) -> Path:
    folder = root / "mixed"
    folder.mkdir()
    shutil.copy(selfplay(1)[0], folder / "a_clean.mat")
    (folder / "b_binary.mat").write_bytes(bytes(range(256)) * 64)
    (folder / "c_long_line.mat").write_text(" 1 point match\n" + "x" * (2 << 20) + "\n")
    shutil.copy(flawed(1)[0], folder / "d_flawed.mat")
    (folder / "e_not_a_match.txt").write_text("hello\n")
    shutil.copy(selfplay(2)[1], folder / "f_clean.mat")
    return folder


@pytest.mark.parametrize("spread", [[], ["--jobs", "2"], pytest.param(["--scheduler", "local:2"], marks=needs_dask)],
                         ids=["one process", "jobs", "dask"])
def test_bad_files_never_stop_the_others(tmp_path, spread):
    folder = bad_folder(tmp_path)
    missing = tmp_path / "missing.mat"
    run = bgcli("audit", "--json", *spread, folder, missing)
    lines = json_lines(run.stdout)
    assert [Path(line["file"]).name for line in lines] == [
        "a_clean.mat", "b_binary.mat", "c_long_line.mat", "d_flawed.mat", "f_clean.mat", "missing.mat"]
    # a .txt file that says nothing of a match is skipped, in one note
    assert f"note: skipped 1 file in {folder} that is not a match: e_not_a_match.txt" in run.stderr
    errors = {Path(line["file"]).name: line.get("error", "") for line in lines}
    assert errors["a_clean.mat"] == errors["f_clean.mat"] == errors["d_flawed.mat"] == ""
    assert "not a match file" in errors["b_binary.mat"] and "longer than 1 MB" in errors["c_long_line.mat"]
    assert "cannot read" in errors["missing.mat"] and "No such file" in errors["missing.mat"]
    assert lines[3]["problems"] and not lines[0]["problems"]
    assert run.returncode == 2
    assert "Traceback" not in run.stderr and len(run.stderr.splitlines()) == 4   # one line per unreadable file, the note
    if spread:
        local = bgcli("audit", "--json", folder, missing)
        assert (run.stdout, run.stderr, run.returncode) == (local.stdout, local.stderr, local.returncode)


@needs_dask
def test_a_local_dask_cluster_gives_what_one_process_gives(tmp_path):
    files = [*selfplay(), *flawed(12)]
    for options in ([], ["--json"]):
        local = bgcli("audit", *options, *files)
        dask = bgcli("audit", "--scheduler", "local:2", *options, *files)
        assert local.returncode == 1
        assert (dask.stdout, dask.stderr, dask.returncode) == (local.stdout, local.stderr, local.returncode)


@needs_dask
def test_a_scheduler_and_workers_started_apart_read_the_files_themselves(tmp_path):
    """As on other machines: `dask scheduler` and `dask worker` started on
    their own, in another working folder; the paths given are relative."""
    port = 18700 + os.getpid() % 1000
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    elsewhere = dict(cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    scheduler = subprocess.Popen([*dask, "--port", str(port), "--dashboard-address", ":0"], **elsewhere)
    workers = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", f"tcp://127.0.0.1:{port}",
                                "--nworkers", "2", "--nthreads", "1"], **elsewhere)
    try:
        root = ROOT
        files = [str(path.relative_to(root)) for path in [*selfplay(4), *flawed(4)]] + ["samples/perft.txt", "missing.mat"]
        local = subprocess.run([sys.executable, "-m", "bgcli", "audit", "--json", *files], cwd=root, capture_output=True,
                               text=True, timeout=300)
        # the audit refuses a closed port at once: wait until the scheduler listens (slow on busy cores)
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the scheduler never listened"
                time.sleep(0.2)
        remote = subprocess.run([sys.executable, "-m", "bgcli", "audit", "--json", "--scheduler", f"tcp://127.0.0.1:{port}",
                                 *files], cwd=root, capture_output=True, text=True, timeout=300)
        assert local.returncode == 2 and local.stdout.count("\n") == len(files)
        assert (remote.stdout, remote.stderr, remote.returncode) == (local.stdout, local.stderr, local.returncode)
    finally:
        workers.terminate()
        scheduler.terminate()
        workers.wait(60)
        scheduler.wait(60)


@needs_dask
def test_the_cluster_has_a_scheduler_and_two_worker_processes():
    from bgcli.scale.cluster import DaskRunner

    tasks = [FileTask(str(path)) for path in [*selfplay(6), *flawed(6)]]
    with DaskRunner("local:2") as runner:
        workers = runner.client.run(os.getpid)
        assert len(workers) == 2 and os.getpid() not in workers.values() and len(set(workers.values())) == 2
        got = list(runner.run(iter(tasks), AuditJob()))
    assert got == list(run_on_pool(AuditJob(), tasks))


def test_dask_is_imported_only_for_a_scheduler():
    # the audit ends its process with os._exit: the modules are looked at there
    code = ("import os, sys\nfrom bgcli.cli.common import main\nsys.argv = ['bgcli', 'audit', '--jobs', '2', *sys.argv[1:]]\n"
            "def report():\n    print('dask' in sys.modules or 'distributed' in sys.modules, file=sys.stderr)\n"
            "real = os._exit\n"
            "def end(status):\n    report()\n    sys.stderr.flush()\n    real(status)\n"
            "os._exit = end\n"
            "try:\n    main()\nexcept SystemExit:\n    report()\n")
    run = subprocess.run([sys.executable, "-c", code, *map(str, selfplay(3))], capture_output=True, text=True, timeout=120)
    assert run.stderr.splitlines()[-1] == "False", run.stderr


def test_a_missing_dask_or_a_bad_scheduler_is_one_line(tmp_path):
    bad = bgcli("audit", "--scheduler", "local:0", selfplay(1)[0])
    assert bad.returncode == 2 and "local:N needs N from 1 to 64" in bad.stderr
    both = bgcli("audit", "--scheduler", "local:2", "--jobs", "2", selfplay(1)[0])
    assert both.returncode == 2 and "cannot be used together" in both.stderr
    # without Dask (an importable stand-in that fails as a missing package does)
    (tmp_path / "distributed.py").write_text("raise ImportError('No module named distributed')\n")
    without = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    missing = bgcli("audit", "--scheduler", "local:2", selfplay(1)[0], env=without)
    from bgcli.errors import Extra, install_command

    assert missing.returncode == 2 and missing.stderr == f"Error: --scheduler needs Dask: {install_command(Extra.DASK)}\n"
    if HAVE_DASK:
        quick = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}   # Dask's own setting
        far = bgcli("audit", "--scheduler", "tcp://127.0.0.1:9", selfplay(1)[0], env=quick, timeout=120)
        assert far.returncode == 2 and far.stderr.startswith("Error: cannot reach") and len(far.stderr.splitlines()) == 1


@pytest.mark.parametrize("spread", [[], ["--jobs", "2"], pytest.param(["--scheduler", "local:2"], marks=needs_dask)],
                         ids=["one process", "jobs", "dask"])
def test_a_progress_bar_on_a_terminal(tmp_path, spread):
    import pty

    folder = archive_folder(tmp_path)
    master, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "bgcli", "audit", "--json", *spread, str(folder)],
                               stdout=subprocess.PIPE, stderr=terminal)
    os.close(terminal)
    reader, shown = read_in_background(master)
    try:
        out, _ = process.communicate(timeout=300)
    finally:
        process.kill()
        reader.join(60)
        os.close(master)
    assert b"auditing" in shown and b"100%" in shown
    assert out.decode() == bgcli("audit", "--json", folder).stdout


# --- folders, globs, standard input -------------------------------------------------------


def test_a_fifo_in_a_folder_is_skipped_with_a_note(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    shutil.copy(selfplay(1)[0], folder / "a.mat")
    os.mkfifo(folder / "b.mat")
    os.mkfifo(folder / "c")
    for where in (folder, tmp_path / "fold*" / "*.mat"):
        run = bgcli("audit", where, timeout=60)   # waiting on the fifo would time out
        assert run.returncode == 0, run.stderr
        assert f"note: skipped {folder / 'b.mat'}: a fifo, not a regular file" in run.stderr
        assert "1 file checked" in run.stderr


def test_a_glob_matching_nothing_is_reported_and_the_rest_audited(tmp_path):
    good = selfplay(1)[0]
    run = bgcli("audit", tmp_path / "nothing*.mat", good)
    assert run.returncode == 2
    assert run.stderr.splitlines() == [f"Error: no files match {tmp_path / 'nothing*.mat'}", "1 file checked, no problems"]
    clean = bgcli("audit", good)
    assert clean.returncode == 0


def test_a_glob_matching_a_folder_walks_it(tmp_path):
    folder = archive_folder(tmp_path)
    run = bgcli("audit", "--json", tmp_path / "arch*")
    names = [line["file"] for line in json_lines(run.stdout)]
    assert len(names) == len(selfplay()) + len(flawed())
    assert names == sorted(names) and all(name.startswith(str(folder)) for name in names)


def test_folders_are_walked_in_a_stable_order_without_following_links(tmp_path):
    folder = archive_folder(tmp_path, copies=2)
    (folder / "000" / "loop").symlink_to(folder, target_is_directory=True)
    found = list(find_files([str(folder)]))
    assert found == sorted(found) and len(found) == 2 * (len(selfplay()) + len(flawed()))


def test_dash_is_standard_input(tmp_path):
    path = flawed(1)[0]
    alone = bgcli("audit", "--json", "-", input=path.read_text())
    named = bgcli("audit", "--json", path)
    assert json_lines(alone.stdout)[0]["problems"] == json_lines(named.stdout)[0]["problems"]
    assert json_lines(alone.stdout)[0]["file"] == "-" and alone.returncode == named.returncode == 1
    a, b = selfplay(2)
    mixed = bgcli("audit", "--json", "--jobs", "2", a, "-", b, input=path.read_text())
    assert [line["file"] for line in json_lines(mixed.stdout)] == [str(a), "-", str(b)]


# --- --jobs ----------------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["0", "65", "99999999999999999999", "two"])
def test_jobs_is_checked(jobs):
    run = bgcli("audit", "--jobs", jobs, selfplay(1)[0])
    assert run.returncode == 2 and "Invalid value for '--jobs'" in run.stderr and "Traceback" not in run.stderr


def test_jobs_never_starts_more_processes_than_files(monkeypatch):
    started = []
    real = pool._start

    def spy(workers):
        started.append(workers)
        return real(workers)

    monkeypatch.setattr(pool, "_start", spy)
    runner = CliRunner()
    three = runner.invoke(cli, ["audit", "--jobs", "8", *map(str, selfplay(3))])
    assert three.exit_code == 0 and started == [3]
    one = runner.invoke(cli, ["audit", "--jobs", "8", str(selfplay(1)[0])])
    assert one.exit_code == 0 and started == [3]   # one file: no pool at all


def test_jobs_results_stream(tmp_path):
    """Each file's result is written as soon as it and those before it are
    done: here the last file is a fifo nobody writes to yet."""
    files = [*map(str, selfplay(3))]
    fifo = tmp_path / "later.mat"
    os.mkfifo(fifo)
    process = subprocess.Popen([sys.executable, "-m", "bgcli", "audit", "--json", "--jobs", "2", *files, str(fifo)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        early = []
        reader = threading.Thread(target=lambda: early.extend(process.stdout.readline() for _ in files))
        reader.start()
        reader.join(120)
        assert [json.loads(line)["file"] for line in early] == files   # while the fifo still waits
        with open(fifo, "w") as writer:
            writer.write(selfplay(1)[0].read_text())
        out, err = process.communicate(timeout=120)
        assert json.loads(out)["file"] == str(fifo) and process.returncode == 0, err
    finally:
        process.kill()


def test_a_worker_that_dies_costs_only_its_file(monkeypatch, tmp_path):
    files = [str(path) for path in selfplay(5)]
    killer = tmp_path / "killer.mat"
    shutil.copy(files[0], killer)
    real = AuditJob.run

    def run(self, path, *args):
        if path == str(killer):
            os._exit(3)   # as the kernel's out-of-memory killer would end it
        return real(self, path, *args)

    monkeypatch.setattr(AuditJob, "run", run)   # the forked workers have it too
    tasks = [FileTask(path) for path in files[:2] + [str(killer)] + files[2:]]
    got = list(run_on_pool(AuditJob(), tasks, workers=2))
    assert [result.path for result in got] == [task.path for task in tasks]
    assert got[2].error == f"cannot audit {killer}: the process auditing it died"
    assert all(result.error is None for index, result in enumerate(got) if index != 2)


@pytest.mark.parametrize("spread", [[], ["--jobs", "2"], pytest.param(["--scheduler", "local:2"], marks=needs_dask)],
                         ids=["one process", "jobs", "dask"])
def test_ctrl_c_is_one_line_and_130(tmp_path, spread):
    folder = archive_folder(tmp_path, copies=12)
    process = subprocess.Popen([sys.executable, "-m", "bgcli", "audit", "--json", *spread, str(folder)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=ctrl_c_as_a_terminal_gives)
    try:
        assert process.stdout.readline()   # under way
        os.killpg(process.pid, signal.SIGINT)   # as a terminal's Ctrl-C: the whole process group
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130
    assert err == "Error: interrupted\n"


# --- the results database ----------------------------------------------------------------------


def rows(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute(sql).fetchall()


def test_a_second_run_skips_unchanged_files_and_writes_the_same(tmp_path):
    folder = archive_folder(tmp_path)
    db = tmp_path / "results.sqlite"
    fresh = bgcli("audit", folder)
    first = bgcli("audit", "--db", db, folder)
    second = bgcli("audit", "--db", db, folder)
    assert fresh.returncode == first.returncode == second.returncode == 1
    assert fresh.stdout == first.stdout == second.stdout and fresh.stderr == first.stderr
    # the second run says that its results come from the database, and nothing else differs
    summary = fresh.stderr.splitlines()[-1]
    assert second.stderr.splitlines()[-1] == (f"{summary}; {len(selfplay()) + len(flawed())} of them unchanged since "
                                              f"the last run: their results come from the database {db}")
    assert second.stderr.splitlines()[:-1] == fresh.stderr.splitlines()[:-1]
    assert rows(db, "SELECT count(*), min(run), max(run) FROM files") == [(len(selfplay()) + len(flawed()), 1, 1)]
    assert rows(db, "SELECT count(*) FROM runs") == [(1,)]   # the second run stored nothing
    # a changed file is audited again, and only it
    changed = next(folder.rglob("*.mat"))
    changed.write_text(changed.read_text().replace("Wins", "Wins 99 points\n Wins", 1))
    third = bgcli("audit", "--json", "--db", db, folder)
    again = {line["file"]: line for line in json_lines(third.stdout)}
    assert any(p["kind"] == "syntax" or p["kind"] == "points" for p in again[str(changed)]["problems"])
    assert rows(db, "SELECT path FROM files WHERE run = 2") == [(str(changed),)]
    # other rules: every file again
    bgcli("audit", "--jacoby", "--db", db, folder)
    assert rows(db, "SELECT count(*) FROM files WHERE run < 3") == [(0,)]


def test_the_report_reads_only_the_database(tmp_path):
    folder = archive_folder(tmp_path)
    (folder / "junk.mat").write_bytes(b"\x00\x01 not a match\n")
    db = tmp_path / "results.sqlite"
    lines = json_lines(bgcli("audit", "--json", "--db", db, folder).stdout)
    games = sum(len(re.findall(r"^ *Game [0-9]+ *$", path.read_text(), re.M)) for path in folder.rglob("*.mat"))
    shutil.rmtree(folder)
    report = bgcli("audit", "--db", db, "--report", "--json")
    totals = json.loads(report.stdout)
    kinds: dict[str, int] = {}
    for line in lines:
        for problem in line["problems"]:
            kinds[problem["kind"]] = kinds.get(problem["kind"], 0) + 1
    assert totals["by_kind"] == kinds and totals["problems"] == sum(kinds.values())
    assert totals["files"] == len(lines) and totals["unreadable"] == 1
    assert totals["with_problems"] == sum(1 for line in lines if line["problems"])
    assert totals["games"] == games > len(lines)
    assert report.returncode == 2   # an unreadable file is stored
    text = bgcli("audit", "--db", db, "--report")
    assert text.stdout.splitlines()[0] == (f"{len(lines)} files: {totals['clean']} clean, {totals['with_problems']} with "
                                           f"problems ({totals['with_errors']} with errors), 1 unreadable")
    severities = [problem["severity"] for line in lines for problem in line["problems"]]
    assert (totals["errors"], totals["warnings"]) == (severities.count("error"), severities.count("warning"))


def test_database_usage_errors(tmp_path):
    good = selfplay(1)[0]
    assert bgcli("audit", "--report").returncode == 2
    assert bgcli("audit", "--report", "--db", tmp_path / "r.sqlite", good).returncode == 2
    assert bgcli("audit").returncode == 2
    not_db = tmp_path / "not.sqlite"
    not_db.write_text("this is not a database\n" * 100)
    run = bgcli("audit", "--db", not_db, good)
    assert run.returncode == 2 and run.stderr.startswith("Error: cannot use") and len(run.stderr.splitlines()) == 1
    nowhere = bgcli("audit", "--db", tmp_path / "no" / "such" / "folder.sqlite", good)
    assert nowhere.returncode == 2 and len(nowhere.stderr.splitlines()) == 1


def test_the_database_is_bgcli_s_or_left_alone(tmp_path, monkeypatch):
    good = selfplay(1)[0]
    missing = tmp_path / "none.sqlite"
    report = bgcli("audit", "--db", missing, "--report")
    assert report.returncode == 2 and report.stderr == f"Error: no results database {missing}\n" and not missing.exists()
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE mine (x)")
    before = other.read_bytes()
    run = bgcli("audit", "--db", other, good)
    assert run.returncode == 2 and "an SQLite database of something else" in run.stderr and len(run.stderr.splitlines()) == 1
    assert other.read_bytes() == before
    # a database that cannot be written (a full disk, a lock held too long): one line, exit 2
    import sqlite3 as sql

    def full(self, *args):
        raise sql.OperationalError("database or disk is full")

    monkeypatch.setattr(AuditDB, "_store", full)
    result = CliRunner().invoke(cli, ["audit", "--db", str(tmp_path / "full.sqlite"), str(good)])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (f"Error: cannot write to the results database {tmp_path / 'full.sqlite'}: "
                                              "database or disk is full")


def test_a_killed_audit_resumes_with_nothing_lost_or_counted_twice(tmp_path):
    folder = archive_folder(tmp_path, copies=8)
    total = 8 * (len(selfplay()) + len(flawed()))
    db = tmp_path / "results.sqlite"
    fresh = bgcli("audit", "--json", folder)
    process = subprocess.Popen([sys.executable, "-m", "bgcli", "audit", "--json", "--db", str(db), str(folder)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    printed = []
    try:
        while len(printed) < total // 3:
            printed.append(json.loads(process.stdout.readline())["file"])
        process.send_signal(signal.SIGKILL)
        process.wait(60)
    finally:
        process.kill()
    # the database opens, is whole, and holds every file given out before the kill
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]
    stored = {path for path, in rows(db, "SELECT path FROM files")}
    assert set(printed) <= stored and len(stored) < total
    before = dict(rows(db, "SELECT path, run FROM files"))
    resumed = bgcli("audit", "--json", "--db", db, folder)
    assert resumed.stdout == fresh.stdout and resumed.returncode == fresh.returncode == 1
    assert rows(db, "SELECT count(*), count(DISTINCT path) FROM files") == [(total, total)]
    after = dict(rows(db, "SELECT path, run FROM files"))
    assert all(after[path] == run for path, run in before.items())   # not audited again
    assert {after[path] for path in set(after) - set(before)} == {2}
    problems = sum(len(line["problems"]) for line in json_lines(fresh.stdout))
    assert rows(db, "SELECT count(*) FROM problems") == [(problems,)] == rows(db, "SELECT sum(problems) FROM files")


def test_results_database_api(tmp_path):
    path = str(flawed(1)[0])
    with AuditDB(str(tmp_path / "r.sqlite")) as db:
        task = db.task(path)
        assert task == FileTask(path, True, None)
        result = archive.audit_file(path, None, task.known, task.keep)
        assert isinstance(result, FileResult) and result.digest == file_digest(path)
        assert db.resolve(result) == result
        task = db.task(path)
        assert task.known == result.digest
        unchanged = archive.audit_file(path, None, task.known, task.keep)
        assert unchanged == Unchanged(path, result.digest)
        assert db.resolve(unchanged) == result
        assert db.task("-") == FileTask("-")


def test_cluster_batches_keep_standard_input_apart():
    from bgcli.scale import cluster

    tasks = [FileTask(f"{n}.mat") for n in range(cluster.BATCH + 10)]
    tasks.insert(5, FileTask("-"))
    batches = list(cluster._batches(iter(tasks)))
    assert [len(b) for b in batches] == [5, 1, cluster.BATCH, 5]
    assert batches[1] == [FileTask("-")] and [task for b in batches for task in b] == tasks


def test_the_audit_ends_its_process_without_freeing_its_caches(tmp_path, monkeypatch):
    """bgcli audit (no Dask cluster) ends the process at once once its results are out (os._exit
    with the command's status, output flushed): its caches of rows and plays are not worth
    freeing one by one. A command run later by the same main does not inherit that."""
    import bgcli.cli.common as common

    ended = []

    def end(status):
        ended.append(status)
        raise SystemExit(status)

    monkeypatch.setattr(common, "end_process", end)
    flawed = str(Path(__file__).parents[1] / "samples" / "flawed_5pt.mat")
    out = tmp_path / "audit.json"
    for args, status in ((["audit", flawed, "--json", "-o", str(out)], 1), (["rules"], None)):
        monkeypatch.setattr(sys, "argv", ["bgcli", *args])
        with pytest.raises(SystemExit) as stopped:
            common.main()
        if status is not None:
            assert ended == [status] and json.loads(out.read_text().splitlines()[0])["problems"]
        else:   # rules asks for nothing: Python's own exit, not the audit's
            assert stopped.value.code == 0 and ended == [1]
    done = subprocess.run([sys.executable, "-m", "bgcli", "audit", flawed], capture_output=True, text=True)
    assert done.returncode == 1 and done.stdout.count("flawed_5pt.mat:") >= 1 and "1 file checked" in done.stderr


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_a_worker_ended_by_an_earlier_command_does_not_end_a_later_one(monkeypatch):
    """main leaves with os._exit when the command it ran ended a pool worker
    (a thread may be left waiting on it); a worker ended earlier in the same
    process, by another command, is not this command's: rules exits as usual."""
    import bgcli.cli.common as common

    ended = []

    def end(status):
        ended.append(status)
        raise SystemExit(status)

    monkeypatch.setattr(common, "end_process", end)
    before = pool.ended_workers
    results = pool.OrderedPool(_sleep, 2).run([0, 60, 60])
    assert next(results) == 0
    results.close()   # the pool stopped with its workers at work: they are ended
    assert pool.ended_workers > before
    monkeypatch.setattr(sys, "argv", ["bgcli", "rules"])
    with pytest.raises(SystemExit) as stopped:
        common.main()
    assert stopped.value.code == 0 and ended == []


def test_no_test_replaces_os_exit_itself():
    """A forked pool worker leaves through os._exit: a test that replaced it
    (rather than bgcli.cli.common.end_process) would let such a child go on
    running the test runner's loop, and xdist would hear of a test twice."""
    import re
    from pathlib import Path

    pattern = re.compile(r"setattr\([^)]*\bos\b[^)]*[\"']_exit[\"']")
    found = [f"{path.name}:{number}" for path in sorted(Path(__file__).parent.glob("test_*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert not found, found


def test_a_ctrl_c_while_dask_builds_a_future_comes_after_it():
    """A Ctrl-C inside Client.submit cut a Dask future off half-built, whose __del__ then printed a
    traceback after "Error: interrupted" (a CI run saw it); the submit now holds the signal to its end."""
    from bgcli.scale import cluster

    # Ctrl-C raises, as under a terminal, even where the tests run with SIGINT ignored (a shell's
    # background job, '&', starts so: Python then installs no handler of its own)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _interrupt_after_holds_ctrl_c(cluster)
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupt_after_holds_ctrl_c(cluster):
    steps = []
    with pytest.raises(KeyboardInterrupt):
        with cluster._interrupt_after():
            os.kill(os.getpid(), signal.SIGINT)
            steps.append("built")   # the block ran to its end before the interrupt
    assert steps == ["built"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with cluster._interrupt_after():
        steps.append("quiet")   # no Ctrl-C: nothing raised
    assert steps == ["built", "quiet"]
