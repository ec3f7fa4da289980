"""Running a per-file job on a Dask distributed cluster (``pip install 'bgcli[dask]'``).

``bgcli audit --scheduler ADDRESS`` (and rate's) sends the files to the workers of the
scheduler at ADDRESS (``tcp://host:8786``), or with ``local:N`` to N worker
processes started here. Files travel as paths in batches: the workers read
them themselves, so every worker must see the files at the same paths
(shared storage) and have bgcli installed. Results come back in the order
of the files, the same as a run on one machine gives (bgcli.scale.runner).

Dask is imported only here, and this module only when ``--scheduler`` is used.
"""
from __future__ import annotations

import logging
import os
import signal
import threading
from collections import deque
from contextlib import contextmanager
from typing import Any, Iterator

from bgcli.errors import BgcliError, Extra, install_command
from bgcli.scale.archive import MAX_WORKERS
from bgcli.scale.jobs import STDIN, FileJob, FileTask, lost, run_batch

BATCH = 32      # files per task
WINDOW = 3      # tasks in flight per worker thread
CONNECT_SECONDS = 10.0   # to open the connection to a scheduler
ANSWER_SECONDS = 10.0    # for its first answer once connected (a scheduler speaks first)
DEFAULT_PORT = 8786


class ClusterError(BgcliError):
    """Dask is missing, or the scheduler cannot be reached or started."""


def parse_scheduler(address: str) -> tuple[str, int]:
    """("local", N) for ``local:N``, else (address, 0)."""
    if address.startswith("local:"):
        count = address[len("local:"):]
        if not (count.isascii() and count.isdigit() and 1 <= int(count) <= MAX_WORKERS):
            raise ValueError(f"local:N needs N from 1 to {MAX_WORKERS}, not {count!r}")
        return "local", int(count)
    if not address.strip():
        raise ValueError("the scheduler address is empty")
    return address, 0


def probe(address: str, connect_seconds: float | None = None, answer_seconds: float | None = None) -> None:
    """Check that a plain TCP address (``tcp://host:port``, ``host:port``)
    has a server that answers as a Dask scheduler does, at once: it is
    connected to within ``connect_seconds`` and sends its first bytes within
    ``answer_seconds``; else a ClusterError of one line. Other schemes (tls,
    ucx) are left to Dask."""
    import socket

    connect_seconds = CONNECT_SECONDS if connect_seconds is None else connect_seconds
    answer_seconds = ANSWER_SECONDS if answer_seconds is None else answer_seconds
    scheme, sep, rest = address.partition("://")
    if sep and scheme != "tcp":
        return
    location = rest if sep else address
    if location.startswith("["):
        host, _, port_text = location[1:].partition("]")
        port_text = port_text.lstrip(":")
    else:
        host, _, port_text = location.rpartition(":") if ":" in location else (location, "", "")
    if not port_text:
        port = DEFAULT_PORT
    elif port_text.isascii() and port_text.isdigit() and int(port_text) < 65536:
        port = int(port_text)
    else:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: the port {port_text!r} is not a number")
    try:
        connection = socket.create_connection((host, port), timeout=connect_seconds)
    except socket.timeout:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: no connection within "
                           f"{connect_seconds:g} s") from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {reason[:1].lower() + reason[1:]}") from None
    try:
        connection.settimeout(answer_seconds)
        try:
            first = connection.recv(1)
        except socket.timeout:
            raise ClusterError(f"the server at {address} took the connection but did not answer within "
                               f"{answer_seconds:g} s: not a Dask scheduler, or a stuck one") from None
        except OSError as exc:
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc.strerror or exc}") from None
        if not first:
            raise ClusterError(f"the server at {address} closed the connection without answering: "
                               f"not a Dask scheduler") from None
    finally:
        connection.close()


def _batches(tasks: Iterator[FileTask]) -> Iterator[list[FileTask]]:
    """Tasks in batches of BATCH; standard input alone in its own (it is read here)."""
    batch: list[FileTask] = []
    for task in tasks:
        if task.path == STDIN:
            if batch:
                yield batch
            yield [task]
            batch = []
            continue
        batch.append(task)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


@contextmanager
def _interrupt_after() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) that comes inside the block until it ends, then
    raise it there. Only the main thread can set a signal handler; elsewhere
    the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    heard: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: heard.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if heard and callable(previous):
        previous(signal.SIGINT, None)   # Python's own handler raises KeyboardInterrupt here


class DaskRunner:
    """A connection to a Dask scheduler (or a local cluster it started) that
    runs a per-file job over streams of files, in order."""

    def __init__(self, address: str, workers_wanted: int | None = None):
        """``workers_wanted`` caps a local cluster's size (never more worker
        processes than files)."""
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise ClusterError(f"--scheduler needs Dask: {install_command(Extra.DASK)}") from None
        where, count = parse_scheduler(address)
        self.cluster: Any = None
        self.client: Any = None
        # memory flat however long the run: Dask keeps the last 1,000 messages of each
        # connection (every batch of paths sent), an hour of system monitor samples,
        # 10,000 log lines and a statistical profile of every worker's code; a few are
        # enough here, and no profile (the workers of a scheduler started apart keep theirs)
        quiet = {"distributed.admin.low-level-log-length": 50, "distributed.admin.system-monitor.log-length": 120,
                 "distributed.admin.log-length": 1000, "distributed.worker.profile.enabled": False}
        try:
            with dask.config.set(quiet):
                if where == "local":
                    count = max(1, min(count, workers_wanted or count))
                    # worker processes inherit Ctrl-C ignored: the main process says it in one line
                    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
                    try:
                        self.cluster = LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                                                    dashboard_address=":0", silence_logs=logging.CRITICAL)
                    finally:
                        signal.signal(signal.SIGINT, previous)
                    self.client = Client(self.cluster)
                else:
                    probe(address)   # a server that never answers would hold the Client forever
                    self.client = Client(address, timeout=CONNECT_SECONDS)
        except ClusterError:
            self.close()
            raise
        except (OSError, TimeoutError) as exc:
            self.close()
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        except ValueError as exc:   # an address Dask cannot parse (an unknown scheme: http://): its words, no class name
            self.close()
            raise ClusterError(f"cannot use {address!r} as a Dask scheduler address: {exc}") from None
        except Exception as exc:  # distributed raises plain exceptions when workers cannot start
            self.close()
            raise ClusterError(f"cannot start or reach the Dask scheduler {address}: {type(exc).__name__}: {exc}") from None

    def threads(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def run(self, tasks: Iterator[FileTask], job: FileJob) -> Iterator[Any]:
        """``job`` over files (:class:`bgcli.scale.jobs.FileTask`) on the workers, in order; standard
        input is read here. A batch whose worker died is sent again file by
        file, and a file that kills its worker is reported with that error."""
        pending: deque = deque()   # (future or None, tasks of the batch)
        window = WINDOW * self.threads()
        batches = _batches(iter(tasks))
        while True:
            while len(pending) < window:
                batch = next(batches, None)
                if batch is None:
                    break
                pending.append(self._submit(batch, job))
            if not pending:
                return
            future, batch = pending.popleft()
            if future is None:
                yield from run_batch(batch, job)
                continue
            try:
                results = future.result()
            except Exception as exc:
                if len(batch) > 1:
                    # send each of its files again, before anything else
                    for task in reversed(batch):
                        pending.appendleft(self._submit([task], job))
                    continue
                results = [lost(job, batch[0].path, f"the worker {{doing}} it failed ({type(exc).__name__})")]
            yield from results

    def _submit(self, batch: list[FileTask], job: FileJob) -> tuple[Any, list]:
        if batch[0].path == STDIN:
            return None, batch
        # a worker opens the absolute path (its working folder is its own) and reports the one given
        sent = [task._replace(source=os.path.abspath(task.source or task.path)) for task in batch]
        return self.submit(run_batch, sent, job), batch

    def submit(self, function: Any, *arguments: Any) -> Any:
        """A Dask future of ``function(*arguments)`` on a worker. A Ctrl-C that
        comes while Dask builds the future waits until it is built: one cut
        off half-way prints a traceback when it is freed (its ``__del__``
        reads a field it never set), after the one-line "interrupted"."""
        with _interrupt_after():
            return self.client.submit(function, *arguments, pure=False)

    def close(self) -> None:
        for part in (self.client, self.cluster):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    pass
        self.client = self.cluster = None

    def __enter__(self) -> "DaskRunner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


__all__ = ["ClusterError", "DaskRunner", "parse_scheduler"]
