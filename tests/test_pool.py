"""The one process pool (bgcli.scale.pool): results in order, tasks kept
here when asked, and a worker that dies costs only its own task."""
from __future__ import annotations

import os

from bgcli.scale.pool import OrderedPool


def square_or_die(task: int, die_on: int) -> int:
    if task == die_on:
        os._exit(3)   # as a worker killed or out of memory
    return task * task


def test_results_come_in_the_order_of_the_tasks():
    assert list(OrderedPool(square_or_die, 2, args=(-1,)).run(range(40))) == [n * n for n in range(40)]


def test_a_worker_that_dies_costs_only_its_task():
    pool = OrderedPool(square_or_die, 2, args=(7,), lost=lambda task: -task)
    assert list(pool.run(range(20))) == [-n if n == 7 else n * n for n in range(20)]


def test_a_lost_task_is_split_to_find_the_part_that_kills():
    pool = OrderedPool(_work, 2, args=(5,), split=lambda task: [(n,) for n in task], lost=lambda task: [None] * len(task))
    results = [r for part in pool.run([(0, 1, 2), (3, 4, 5), (6, 7, 8)]) for r in part]
    assert results == [0, 1, 4, 9, 16, None, 36, 49, 64]


def _work(task: tuple[int, ...], die_on: int) -> list[int]:
    return [square_or_die(n, die_on) for n in task]


def test_tasks_marked_here_run_in_this_process():
    pool = OrderedPool(_where, 2, here=lambda task: task % 3 == 0)
    here = os.getpid()
    assert [pid == here for pid in pool.run(range(9))] == [n % 3 == 0 for n in range(9)]


def _where(task: int) -> int:
    return os.getpid()


def test_one_worker_runs_everything_here():
    assert set(OrderedPool(_where, 1).run(range(5))) == {os.getpid()}


class _BreaksOnSubmit:
    """A pool that runs tasks here and breaks, as a pool whose worker died,
    when the task ``breaks_on`` is handed to it (the first pool only)."""

    made = 0

    def __init__(self, breaks_on: int):
        _BreaksOnSubmit.made += 1
        self.breaks_on = breaks_on if _BreaksOnSubmit.made == 1 else None

    def submit(self, fn, *args):
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool

        if args[0] == self.breaks_on:
            raise BrokenProcessPool("a child process terminated abruptly")
        future: Future = Future()
        future.set_result(fn(*args))
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


def test_a_pool_that_breaks_while_tasks_are_handed_out_loses_nothing(monkeypatch):
    # a worker can die while the next tasks are submitted: submit itself then
    # raises, and the task in hand and those in flight are run again
    import bgcli.scale.pool as pool_module

    _BreaksOnSubmit.made = 0
    monkeypatch.setattr(pool_module, "_start", lambda workers: _BreaksOnSubmit(breaks_on=5))
    results = list(OrderedPool(square_or_die, 2, args=(-1,)).run(range(12)))
    assert results == [n * n for n in range(12)]
