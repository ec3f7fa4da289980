"""Worker threads of an engine that can be asked from several threads at once.

``rate`` asks a whole game's plays and cube decisions ahead from an engine's
workers and takes each answer where the game needs it (bgcli.judging.rating).
An engine offers them with ``workers()`` (None: ask from one thread only);
the threads live as long as the engine, so what each keeps between calls (a
gnubg program of its own, bgsage's cache of evaluations, which it keeps one a
thread) serves the whole run. No more workers than cores where each is busy
evaluating (sage); more where each mostly waits (gnubg 1.07 ends every
evaluation asked from its Python in a wait of about 10 ms, whatever it
computes: several gnubg programs let those waits overlap).
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

MAX_WORKERS = 4


def worker_count(per_core: int = 1) -> int:
    """Threads to ask an engine from: ``per_core`` a core, at most MAX_WORKERS a ``per_core``."""
    return per_core * min(MAX_WORKERS, os.cpu_count() or 1)


class Workers:
    """An engine's worker threads, started when first asked for, each set up by ``setup`` in its thread."""

    def __init__(self, setup: Callable[[], None], per_core: int = 1):
        self._setup = setup
        self._count = worker_count(per_core)
        self._pool: ThreadPoolExecutor | None = None

    def pool(self) -> ThreadPoolExecutor | None:
        """The threads (None where there would be one: asking ahead would only wait)."""
        if self._pool is None and self._count >= 2:
            self._pool = ThreadPoolExecutor(max_workers=self._count, initializer=self._setup,
                                            thread_name_prefix="bgcli-engine")
        return self._pool

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
