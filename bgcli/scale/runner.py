"""The one runner of a per-file job over many files: this process, a pool of
worker processes (``--jobs N``) or a Dask cluster (``--scheduler``), with a
results database that lets an interrupted run resume (``--db``).

:func:`run_job` is what every command over an archive calls (bgcli audit,
bgcli rate): the files found from the paths given, each one's task (its
stored digest when a database keeps results), the work spread, every result
given in the order of the files as soon as it and all before it are done
(memory stays flat however many files there are), each new result stored and
each unchanged file's stored result read back. Closing the iterator it
returns stops the workers and the cluster's client. A worker that dies
(killed, out of memory) costs only the file it was on.

A job is a :class:`bgcli.scale.jobs.FileJob`; its results database a
:class:`bgcli.scale.results.ResultsDatabase`. docs/archives.md says how a new
one is added. Nothing here uses click.
"""
from __future__ import annotations

from itertools import islice
from typing import Any, Callable, Generator, Iterable, Iterator, NamedTuple, Sequence

from bgcli.scale.archive import MAX_WORKERS, Note, find_files
from bgcli.scale.jobs import STDIN, FileJob, FileTask, Unchanged, lost, run_batch
from bgcli.scale.results import ResultsDatabase

CHUNK = 1            # files per task sent to a worker process: one, so that every result streams out
WINDOW = 8           # tasks in flight per worker: enough to keep it busy, few enough to keep memory flat


class Outcome(NamedTuple):
    """One file's result, and whether it was read from the database (the file is unchanged since)."""

    result: Any
    stored: bool


def run_job(job: FileJob, paths: Iterable[str], *, workers: int = 1, scheduler: str | None = None,
            db: ResultsDatabase | None = None, note: Note = lambda message, error: None) -> Generator[Outcome, None, None]:
    """``job`` over the files of ``paths`` (:func:`bgcli.scale.archive.find_files`,
    which tells ``note`` what it skips or cannot find), in order: on ``workers``
    processes, or on the Dask cluster at ``scheduler`` (``local:N`` starts one
    here); with ``db``, new results stored and unchanged files not run again.
    A cluster that cannot be reached raises ClusterError before any file is run."""
    files = find_files(paths, note)
    tasks: Iterator[FileTask] = (db.task(path) if db is not None else FileTask(path) for path in files)
    runner = None
    if scheduler:
        from bgcli.scale.cluster import DaskRunner, parse_scheduler

        wanted = None
        if parse_scheduler(scheduler)[0] == "local":   # never more worker processes than files
            head = list(islice(tasks, MAX_WORKERS))
            wanted = sum(1 for task in head if task.path != STDIN)
            tasks = _chain(head, tasks)
        runner = DaskRunner(scheduler, wanted)
        results = runner.run(tasks, job)
    else:
        results = run_on_pool(job, tasks, workers)
    try:
        for result in results:
            stored = isinstance(result, Unchanged)   # not run again: the database's result
            yield Outcome(db.resolve(result) if db is not None else result, stored)
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()   # a generator: closing it stops the workers
        if runner is not None:
            runner.close()


def run_on_pool(job: FileJob, tasks: Iterable[FileTask], workers: int = 1) -> Iterator[Any]:
    """``job`` over files, in order, in this process or on ``workers`` worker
    processes (never more than there are files), a few at a time. Standard
    input is always read here, in its place."""
    tasks = iter(tasks)
    if workers <= 1:
        for task in tasks:
            yield from run_batch([task], job)
        return
    head = list(islice(tasks, workers))
    files = sum(1 for task in head if task.path != STDIN)
    if files <= 1:
        for task in _chain(head, tasks):
            yield from run_batch([task], job)
        return
    from bgcli.scale.pool import OrderedPool   # here: one file is audited in this process, with no pool (start-up)

    rest = _chain(head, tasks)
    chunks = iter(lambda: list(islice(rest, CHUNK)), [])
    pool: OrderedPool = OrderedPool(run_batch, min(workers, files), args=(job,), window=WINDOW, here=_reads_stdin,
                                    split=lambda chunk: [[task] for task in chunk], lost=_lost_to(job))
    for results in pool.run(chunks):
        yield from results


def _lost_to(job: FileJob) -> Callable[[Sequence[FileTask]], list]:
    return lambda chunk: [lost(job, task.path) for task in chunk]


def _reads_stdin(chunk: Sequence[FileTask]) -> bool:
    return any(task.path == STDIN for task in chunk)   # standard input is read here, in order


def _chain(head: list, rest: Iterator) -> Iterator:
    yield from head
    yield from rest


def count_files(paths: Iterable[str]) -> int:
    """How many files :func:`run_job` will run over (the paths walked once more: for a progress bar)."""
    return sum(1 for _ in find_files(paths))


__all__ = ["Outcome", "count_files", "run_job", "run_on_pool"]
