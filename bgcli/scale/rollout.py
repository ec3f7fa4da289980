"""A rollout's trials spread over processes (``--jobs N``) or a Dask cluster (``--scheduler ADDRESS``).

The trials are cut into blocks by trial index (:func:`bgcli.judging.rollout.blocks_of`); each
worker opens the plan's engine by its name once and plays its blocks
(:func:`bgcli.judging.rollout.run_block`); the blocks come back in order. A trial depends only on
the seed and its index, and the figures are exact sums, so the result is the same as one
process's, to the last digit, whatever the split.
"""
from __future__ import annotations

from collections import deque
from typing import Iterator

from bgcli.judging.rollout import ROUND, Blocks, Plan, TrialFigures, blocks_of, run_block
from bgcli.scale.cluster import DaskRunner
from bgcli.scale.pool import OrderedPool


def spread(jobs: int = 1, scheduler: str | None = None, size: int = ROUND) -> Blocks | None:
    """The ``blocks`` argument of :func:`bgcli.judging.rollout.rollout` for ``jobs`` processes or a Dask
    ``scheduler`` (``tcp://host:8786``, ``local:N``); None (this process) for one job and no scheduler."""
    if scheduler:
        return lambda plan: on_cluster(plan, scheduler, size)
    if jobs > 1:
        return lambda plan: on_processes(plan, jobs, size)
    return None


def on_processes(plan: Plan, jobs: int, size: int = ROUND) -> Iterator[list[TrialFigures]]:
    """The blocks of ``plan`` on ``jobs`` processes, in order."""
    pool: OrderedPool = OrderedPool(run_block, jobs, window=2)
    yield from pool.run(blocks_of(plan, size))


def on_cluster(plan: Plan, scheduler: str, size: int = ROUND) -> Iterator[list[TrialFigures]]:
    """The blocks of ``plan`` on the workers of a Dask scheduler, in order; the
    connection is the one audit and rate use (bgcli.scale.cluster)."""
    with DaskRunner(scheduler) as runner:
        window = 2 * runner.threads()
        pending: deque = deque()
        for task in blocks_of(plan, size):
            pending.append(runner.submit(run_block, task))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


__all__ = ["on_cluster", "on_processes", "spread"]
