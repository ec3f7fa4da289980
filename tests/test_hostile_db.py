"""A damaged or unusable ``--db`` file (cut short, a byte overwritten, not a database, a database of
another command or version, locked, a folder where its journal cannot be made, a file that cannot be
read): one line naming the database and what to do, status 2, and the file left byte for byte as it was;
never a traceback, never SQLite's bare 'unable to open database file'."""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

import pytest

from conftest import ROOT, SAMPLES, invoke

FLAWED = str(SAMPLES / "flawed_5pt.mat")
MATCHES = [str(SAMPLES / name) for name in ("flawed_5pt.mat", "sp05001_3pt.mat", "sp05007_money.mat")]
COMMANDS = {"audit": (["audit"], "results"), "dice": (["dice"], "dice tallies")}
PAGE = 4096


def one_error(result) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


@pytest.fixture(scope="module")
def databases(tmp_path_factory):
    """A database of each command, made by a run over three matches."""
    folder = tmp_path_factory.mktemp("made")
    made = {}
    for name, (command, _) in COMMANDS.items():
        made[name] = folder / f"{name}.sqlite"
        assert invoke(*command, "--db", made[name], *MATCHES).exit_code in (0, 1)
        assert not list(folder.glob("*-wal")), "the journal is folded in when the run ends"
    return made


def _damaged(data: bytes, how: str, at: int) -> bytes:
    if how == "cut":
        return data[:at]
    flipped = bytearray(data)
    flipped[at] ^= 0xFF
    return bytes(flipped)


def _cases():
    for name in COMMANDS:
        for at in (50, 100, PAGE - 1, PAGE, PAGE + 100, 2 * PAGE, 3 * PAGE + 7, 5 * PAGE):
            yield name, "cut", at
        for at in (20, 60, 101, PAGE, PAGE + 8, 2 * PAGE + 8, 3 * PAGE + 40):
            yield name, "flipped", at


@pytest.mark.parametrize("name, how, at", list(_cases()))
def test_a_damaged_database_is_one_line_and_left_as_it_is(tmp_path, databases, name, how, at):
    """A database cut short or with a byte overwritten: its results read as they are, or one line naming
    it, status 2, and not a byte of it changed (SQLite's 'database disk image is malformed' alone did not
    say what to do)."""
    command, kind = COMMANDS[name]
    data = databases[name].read_bytes()
    if at >= len(data):
        pytest.skip(f"the database is {len(data)} bytes")
    db = tmp_path / "damaged.sqlite"
    db.write_bytes(_damaged(data, how, at))
    before = db.read_bytes()
    result = invoke(*command, "--db", db, *MATCHES)
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output and "internal error" not in result.stderr
    if result.exit_code == 2:
        error = one_error(result)
        assert str(db) in error, error
        assert db.read_bytes() == before, "a database refused was changed"
        assert not [p for p in tmp_path.iterdir() if p != db], "a journal was left beside it"
        if "malformed" in error:
            assert "it is damaged, cut short or overwritten in part" in error and "name another --db" in error


def test_a_database_cut_in_its_first_page_says_it_is_damaged(tmp_path, databases):
    db = tmp_path / "cut.sqlite"
    db.write_bytes(databases["audit"].read_bytes()[:PAGE + 100])
    result = invoke("audit", "--db", db, FLAWED)
    assert result.exit_code == 2
    assert one_error(result) == (f"Error: cannot use {db} as a results database: it is damaged, cut short or "
                                 "overwritten in part (SQLite: database disk image is malformed); it is left as it "
                                 "is: move it away, or name another --db, to start again")


def test_a_file_that_is_not_a_database_is_said_so(tmp_path):
    db = tmp_path / "notes.sqlite"
    db.write_text("my notes\n" * 100)
    result = invoke("audit", "--db", db, FLAWED)
    assert result.exit_code == 2
    assert one_error(result) == (f"Error: cannot use {db} as a results database: it is not an SQLite database; it is "
                                 "left as it is: move it away, or name another --db, to start again")
    assert db.read_text() == "my notes\n" * 100


@pytest.mark.parametrize("made_by, used_by", [("audit", "dice"), ("dice", "audit"), ("audit", "rate")])
def test_a_database_of_another_command_names_that_command(tmp_path, databases, made_by, used_by):
    """``dice --db`` given the audit's database said 'an SQLite database of something else'."""
    db = tmp_path / "other.sqlite"
    shutil.copy(databases[made_by], db)
    before = db.read_bytes()
    contents = {"audit": "audit results", "dice": "dice tallies", "rate": "ratings"}[used_by]
    result = invoke(used_by, "--db", db, FLAWED)
    assert result.exit_code == 2
    assert one_error(result) == (f"Error: {db} is the database of bgcli {made_by}, not bgcli's {contents}; it is left "
                                 "as it is: move it away, or name another --db, to start again")
    assert db.read_bytes() == before


def test_a_database_of_another_version_is_refused_before_anything_is_written(tmp_path, databases):
    """The check came after the tables were made and the journal set: a database of a later bgcli was
    written to before it was refused."""
    db = tmp_path / "later.sqlite"
    shutil.copy(databases["audit"], db)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
        connection.execute("DROP TABLE runs")
    connection.close()
    before = db.read_bytes()
    result = invoke("audit", "--db", db, FLAWED)
    assert result.exit_code == 2
    assert one_error(result) == (f"Error: {db} holds audit results of another bgcli version (schema 99; this bgcli "
                                 "keeps schema 2); it is left as it is: move it away, or name another --db, to start again")
    assert db.read_bytes() == before


def test_a_database_another_process_holds_is_said_so(tmp_path, databases, monkeypatch):
    """A lock held past the wait: 'database is locked' named no cause."""
    from bgcli.scale import results

    monkeypatch.setattr(results, "LOCK_WAIT", 0.2)
    db = tmp_path / "held.sqlite"
    shutil.copy(databases["audit"], db)
    holder = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        changed = tmp_path / "new.mat"
        shutil.copy(FLAWED, changed)
        result = invoke("audit", "--db", db, changed)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (f"Error: cannot write to the results database {db}: another process holds "
                                              "it (another bgcli run with this --db?), still after 0.2 s")


# --- permissions: run as an ordinary user (root reads and writes anything) -----------------------------------

def _as_user(folder: str, *args):
    """bgcli in its own process as an ordinary user: as nobody (util-linux's setpriv) when the tests run as root."""
    user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    try:
        return subprocess.run([*user, sys.executable, "-m", "bgcli", *map(str, args)], capture_output=True, text=True,
                              cwd=ROOT, timeout=120, env={**os.environ, "HOME": folder})
    except OSError as exc:   # no setpriv
        pytest.skip(f"cannot run bgcli as an ordinary user here: {exc}")


@pytest.fixture
def open_folder():
    folder = tempfile.mkdtemp(prefix="bgcli-db-")
    os.chmod(folder, 0o777)
    probe = _as_user(folder, "--version")
    if probe.returncode != 0:
        shutil.rmtree(folder)
        pytest.skip(f"bgcli cannot run as an ordinary user here: {probe.stderr.strip()[-200:]}")
    yield folder
    for root, dirs, _ in os.walk(folder):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o777)
    shutil.rmtree(folder)


@pytest.mark.parametrize("existing", [True, False])
def test_a_database_in_a_folder_that_cannot_be_written_names_the_folder(open_folder, databases, existing):
    """SQLite said 'attempt to write a readonly database' of a database whose folder cannot be written (its
    journal goes beside it), and 'unable to open database file' of a new one there."""
    folder = os.path.join(open_folder, "kept")
    os.mkdir(folder)
    db = os.path.join(folder, "results.sqlite")
    if existing:
        shutil.copy(databases["audit"], db)
        os.chmod(db, 0o666)
    os.chmod(folder, 0o555)
    result = _as_user(open_folder, "audit", "--db", db, FLAWED)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (f"Error: cannot use {db} as a results database: its folder {folder!r} cannot be written "
                             "(SQLite keeps a journal beside the database): name a --db in a folder you can write\n")


def test_a_database_that_cannot_be_read_is_permission_denied(open_folder, databases):
    db = os.path.join(open_folder, "results.sqlite")
    shutil.copy(databases["audit"], db)
    os.chmod(db, 0)
    result = _as_user(open_folder, "audit", "--db", db, FLAWED)
    assert result.returncode == 2
    assert result.stderr == f"Error: cannot use {db} as a results database: permission denied\n"
