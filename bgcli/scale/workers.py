"""The start of every worker process bgcli starts (``--jobs N``).

:func:`start_worker` is the initializer of the process pools
(``ProcessPoolExecutor(..., initializer=start_worker, initargs=(os.getpid(),))``):

- Ctrl-C is the main process's to handle (it says it in one line), so a
  worker ignores it; SIGTERM ends a worker at once (the main process's own
  handler, inherited by a fork, is not the worker's);
- a worker ends when its parent does, however the parent ended (SIGTERM,
  SIGKILL, a crash): on Linux the kernel kills it (``PR_SET_PDEATHSIG``),
  elsewhere a thread sees the parent gone within a second.

Only the standard library: a worker imports nothing more to start.
"""
from __future__ import annotations

import os
import signal
import sys
import threading

WATCH_SECONDS = 1.0


def start_worker(parent: int) -> None:
    """Set up a worker process of the process ``parent`` (see the module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            pr_set_pdeathsig = 1
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:   # the parent ended before this worker started
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="bgcli-parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    import time

    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def worker_options() -> dict:
    """The initializer arguments of a process pool whose workers :func:`start_worker` sets up."""
    return {"initializer": start_worker, "initargs": (os.getpid(),)}
