"""The one runner of per-file jobs (bgcli.scale.runner): a new job plugs in
with its own result and results database, and runs the same in this process,
on worker processes and on a local Dask cluster (docs/archives.md)."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import ClassVar

import pytest

from bgcli.scale.jobs import failure_text
from bgcli.scale.results import ResultsDatabase
from bgcli.scale.runner import run_job

from conftest import SELFPLAY

try:
    import distributed  # noqa: F401
    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False


@dataclass(frozen=True)
class Counted:
    path: str
    lines: int | None = None
    digest: str | None = None
    error: str | None = None


@dataclass(frozen=True)
class CountLines:
    """A per-file job that is not bgcli's: the lines of each file that start with ``prefix``."""

    prefix: str = ""
    verb: ClassVar[str] = "count"
    doing: ClassVar[str] = "counting"

    def run(self, path: str, where: str, digest: str | None) -> Counted:
        with (open(where, encoding="utf-8") if where != "-" else sys.stdin) as handle:
            return Counted(path, sum(line.startswith(self.prefix) for line in handle), digest)

    def failed(self, path: str, error: str, digest: str | None = None) -> Counted:
        return Counted(path, None, digest, error)

    def failure(self, exc: Exception, path: str, where: str) -> str:
        return failure_text(exc, path, where, self.verb)


class CountsDB(ResultsDatabase):
    MADE_BY = "bgcli's tests: line counts"
    KIND = "counts"
    CONTENTS = "line counts"
    VERSION = "1"
    SCHEMA = """
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, digest TEXT NOT NULL, key TEXT NOT NULL, lines INTEGER, error TEXT);
    """

    def read_stored(self, key, path: str) -> Counted:
        (lines, error, digest), = self._read("SELECT lines, error, digest FROM files WHERE path = ?", (key,))
        return Counted(path, lines, digest, error)

    def write_stored(self, key, result: Counted) -> None:
        self._write(lambda db: db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)",
                                          (key, result.digest, self.key, result.lines, result.error)))


def files() -> list[str]:
    found = sorted(map(str, SELFPLAY.glob("*.mat")))[:7]
    assert len(found) == 7, "the self-play matches are committed in tests/data/oracle/selfplay"
    return found


def expected(paths: list[str], prefix: str) -> list[tuple]:
    counts = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as handle:
                counts.append((path, sum(line.startswith(prefix) for line in handle), None))
        except OSError:
            counts.append((path, None, f"cannot read {path}: No such file or directory"))
    return counts


SPREADS = [{}, {"workers": 2}, pytest.param({"scheduler": "local:2"}, marks=pytest.mark.skipif(
    not HAVE_DASK, reason="Dask is not installed (pip install '.[dask]')"))]


@pytest.mark.parametrize("spread", SPREADS, ids=["one process", "jobs", "dask"])
def test_a_new_job_runs_the_same_however_the_files_are_spread(spread, tmp_path):
    paths = [*files()[:4], str(tmp_path / "missing.mat"), *files()[4:]]
    job = CountLines(" Game")
    got = [(outcome.result.path, outcome.result.lines, outcome.result.error) for outcome in run_job(job, paths, **spread)]
    assert got == expected(paths, " Game")
    assert all(lines for _, lines, error in got if error is None)   # the prefix is met: not a test of zeros


@pytest.mark.parametrize("spread", SPREADS, ids=["one process", "jobs", "dask"])
def test_a_new_job_keeps_its_results_in_its_own_database(spread, tmp_path):
    paths = files()[:5]
    db_path = str(tmp_path / "counts.sqlite")
    with CountsDB(db_path, "prefix= Game") as db:
        first = list(run_job(CountLines(" Game"), paths, db=db, **spread))
    with CountsDB(db_path, "prefix= Game") as db:
        second = list(run_job(CountLines("nothing counts"), paths, db=db, **spread))   # not run again: stored
    with CountsDB(db_path, "prefix=Game") as db:   # other settings: run again
        third = list(run_job(CountLines("Game"), paths, db=db, **spread))
    assert [o.stored for o in first] == [False] * 5 and [o.stored for o in second] == [True] * 5
    assert [o.result for o in second] == [o.result for o in first]
    assert [(o.result.path, o.result.lines, None) for o in first] == expected(paths, " Game")
    assert not any(o.stored for o in third) and [o.result.lines for o in third] == [0] * 5
