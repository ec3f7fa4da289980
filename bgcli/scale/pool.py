"""The one process pool of bgcli: work fanned out to processes, results read
in order (``--jobs N`` of every command).

:class:`OrderedPool` runs tasks on worker processes, a bounded window of
them at a time (the input may be endless, as standard input), and gives
each result as soon as it and every one before it are done. Workers are
forked where the platform can (a worker starts at once, with everything
imported) and set up by :func:`bgcli.scale.workers.start_worker`. A worker
that dies (killed, out of memory) costs only the task it was on: the tasks
in flight are run again one by one in a fresh worker, and the one that
kills it again gets ``lost(task)`` as its result. On Ctrl-C, a closed
output or any other exit, the tasks not done are dropped and the workers
ended.
"""
from __future__ import annotations

import time
from collections import deque
from itertools import islice
from typing import Any, Callable, Generic, Iterable, Iterator, TypeVar

from bgcli.scale.workers import worker_options

Task = TypeVar("Task")
Result = TypeVar("Result")

WINDOW = 2  # tasks in flight per worker


class OrderedPool(Generic[Task, Result]):
    """``work(task, *args)`` for every task, on up to ``workers`` processes, in order.

    ``window`` tasks per worker are in flight at most; ``here(task)`` says a task must run in this process (it reads standard
    input, say); ``split(task)`` cuts a task that a dead worker lost into
    smaller ones, to find the part that kills it; ``lost(task)`` is the
    result of a task whose worker died on it alone (without it, the error
    goes on up). With one worker, every task runs here.
    """

    def __init__(self, work: Callable[..., Result], workers: int, *, args: tuple = (),
                 window: int = WINDOW, here: Callable[[Task], bool] = lambda task: False,
                 split: Callable[[Task], list[Task]] = lambda task: [task],
                 lost: Callable[[Task], Result] | None = None):
        self.work = work
        self.workers = workers
        self.window = window
        self.args = args
        self.here = here
        self.split = split
        self.lost = lost
        self.pool: Any = None

    def run(self, tasks: Iterable[Task]) -> Iterator[Result]:
        """The results of ``tasks``, in their order."""
        if self.workers <= 1:
            for task in tasks:
                yield self.work(task, *self.args)
            return
        yield from self._run(iter(tasks), self.workers)

    def _run(self, tasks: Iterator[Task], workers: int) -> Iterator[Result]:
        from concurrent.futures.process import BrokenProcessPool

        pending: deque = deque()   # (future or None, task), in order
        self.pool = _start(workers)
        try:
            while True:
                lost: list[Task] = []
                try:
                    for task in islice(tasks, workers * self.window - len(pending)):
                        pending.append((None if self.here(task) else self.pool.submit(self.work, task, *self.args), task))
                except BrokenProcessPool:
                    # a worker died while tasks were handed out: the one in hand is lost too
                    lost = [*(t for _, t in pending), task]
                if not lost:
                    if not pending:
                        return
                    future, task = pending.popleft()
                    try:
                        result = future.result() if future is not None else self.work(task, *self.args)
                    except BrokenProcessPool:
                        lost = [task, *(t for _, t in pending)]
                    else:
                        yield result
                        continue
                # a worker died: every task in flight is lost; run them again
                # one by one to find the one that kills it, then go on
                pending.clear()
                self._shutdown()
                yield from self._one_by_one(lost)
                self.pool = _start(workers)
        finally:
            self._shutdown()

    def _one_by_one(self, tasks: list[Task]) -> Iterator[Result]:
        from concurrent.futures.process import BrokenProcessPool

        pool = _start(1)
        try:
            for task in (part for whole in tasks for part in self.split(whole)):
                if self.here(task):
                    yield self.work(task, *self.args)
                    continue
                try:
                    yield pool.submit(self.work, task, *self.args).result()
                except BrokenProcessPool:
                    if self.lost is None:
                        raise
                    yield self.lost(task)
                    stop(pool)
                    pool = _start(1)
        finally:
            stop(pool)

    def _shutdown(self) -> None:
        if self.pool is not None:
            stop(self.pool)
            self.pool = None


def _start(workers: int):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork where there is one: a worker starts at once, with everything imported
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method), **worker_options())


# How many workers were ended from here, in this process. A worker ended
# while it was sending a result leaves half a message in the pool's pipe, and
# the pool's manager thread then waits for the rest for ever, which Python's
# exit would join: bgcli.cli's main leaves with os._exit when the command it
# ran ended one (every worker is already gone, and nothing else is left to
# do). A count, not a flag, so that main asks about its own command only: a
# process that runs several commands (a test) must not end a later one the
# same way because an earlier one ended a worker.
ended_workers = 0


def stop(pool) -> None:
    """Stop a process pool now: queued tasks dropped, workers ended."""
    global ended_workers
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    # an idle worker leaves at once on the pool's word to stop: end only those still at work
    deadline = time.monotonic() + 1.0
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            ended_workers += 1
            process.terminate()
    for process in processes:
        process.join(5)
