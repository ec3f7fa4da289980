"""What the commands over an archive (audit, rate) share on the command line:
the results database opened and closed with one-line errors, and a per-file
job run over the files (bgcli.scale.runner) with progress on a terminal,
notes about skipped files, and the exit status of paths that named no file.
Each command keeps only its options, how a result is written, and its summary."""
from __future__ import annotations

import sys
from contextlib import closing
from typing import Callable, Iterator

import click

from bgcli.cli.common import EXIT_UNREADABLE, MAX_JOBS, Unreadable, complete_file_names, progress, say


def check_scheduler(ctx, param, value):
    if value is None:
        return None
    from bgcli.scale.cluster import parse_scheduler

    try:
        parse_scheduler(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def cluster_and_database(doing: str, db_help: str, workers_read: bool = False):
    """The ``--scheduler ADDRESS`` and ``--db FILE`` options of a command over an
    archive: ``doing`` starts the scheduler's help ("Audit", "Read the files");
    ``db_help`` says what the database keeps; ``workers_read`` says that the
    workers read the files themselves."""
    def decorate(command):
        command = click.option("--db", "db_path", metavar="FILE", shell_complete=complete_file_names, help=db_help)(command)
        return click.option("--scheduler", metavar="ADDRESS", callback=check_scheduler,
                            help=f"{doing} on a Dask cluster (pip install 'bgcli[dask]'): its scheduler's address "
                                 f"(tcp://host:8786), or local:N to start N worker processes here (N from 1 to {MAX_JOBS})."
                                 + (" The workers read the files." if workers_read else ""))(command)
    return decorate


def with_database(open_db: Callable[[], object] | None, act: Callable[[object], int]) -> None:
    """Exit with ``act(db)``'s status, ``db`` opened by ``open_db`` (None
    without --db) and closed however ``act`` ends; a database that cannot be
    opened, read or written is one line and exit 2 (what is stored stays)."""
    from bgcli.scale.results import DatabaseError

    try:
        db = open_db() if open_db is not None else None
    except DatabaseError as exc:
        raise Unreadable(str(exc)) from None
    try:
        sys.exit(act(db))
    except DatabaseError as exc:   # locked, full disk, a damaged row: one line, and what is stored stays
        raise Unreadable(str(exc)) from None
    finally:
        if db is not None:
            db.close()   # type: ignore[attr-defined]


class ArchiveRun:
    """One run of a per-file job over the paths a user gave: iterate over it
    for each file's :class:`bgcli.scale.runner.Outcome`, then :meth:`finish`."""

    def __init__(self, job, paths, jobs: int, scheduler: str | None, db) -> None:
        self.job, self.paths, self.jobs, self.scheduler, self.db = job, paths, jobs, scheduler, db
        self.bad_paths: list[str] = []
        self.notes: list[str] = []
        self.files = 0

    def note(self, message: str, error: bool) -> None:
        if error:
            say(f"Error: {message}", err=True)
            self.bad_paths.append(message)
        else:   # what was skipped: said once the files are done, in the same place however they were spread
            self.notes.append(message)

    def __iter__(self) -> Iterator:
        from bgcli.scale.runner import run_job

        cluster_errors: tuple = ()
        if self.scheduler:
            from bgcli.scale.cluster import ClusterError

            cluster_errors = (ClusterError,)
        outcomes = run_job(self.job, self.paths, workers=self.jobs, scheduler=self.scheduler, db=self.db, note=self.note)
        try:
            with closing(outcomes):
                for outcome in progress(outcomes, count_files(self.paths), self.job.doing):
                    self.files += 1
                    yield outcome
        except cluster_errors as exc:
            raise Unreadable(str(exc)) from None

    def finish(self) -> None:
        """The notes kept for the end; a usage that found no file at all is an error (exit 2)."""
        for message in self.notes:
            say(f"note: {message}", err=True)
        if not self.files and not self.bad_paths:
            raise Unreadable(f"no match files found in {' '.join(self.paths)}")

    def status(self, status: int) -> int:
        """The exit status of the run whose files gave ``status``: 2 when a path named no file."""
        return EXIT_UNREADABLE if self.bad_paths else status


def count_files(paths) -> int:
    """How many files there are, for a progress bar on a terminal (walked twice)."""
    from bgcli.scale.runner import count_files as count

    if not sys.stderr.isatty():
        return 0
    return count(paths)
