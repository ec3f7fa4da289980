"""What a per-file job is, and how one file's share of it is run.

A per-file job (the audit, the rating, and what comes next) is a small
picklable value (:class:`FileJob`): its name in messages, the work over one
file, and the result a file gets when that work fails. It is sent as it is to
worker processes and Dask workers, so it carries what its work needs (the
rules, the engine's settings) and nothing that cannot travel.

:func:`run_file` does what every job shares for one file: the file's digest
when a results database keeps it, the stored result when the content is
unchanged (:class:`Unchanged`, nothing is run), and a failure of any kind
turned into that file's result, so that one bad file never stops the others.
:func:`run_batch` is one task of a worker: a few files, one after another.

bgcli.scale.runner runs a job over many files (a process pool or a Dask
cluster, a results database); docs/archives.md says how a new job is added.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Protocol, Sequence

from bgcli.errors import BgcliError, os_reason

STDIN = "-"


class FileTask(NamedTuple):
    """One file to run a job on: its path as given (and reported), whether a
    results database keeps its result (and so wants its digest), the digest
    of its stored result, and the path to open when it is not the one given
    (a worker of a cluster opens the absolute path)."""

    path: str
    keep: bool = False
    known: str | None = None
    source: str | None = None


@dataclass(frozen=True)
class Unchanged:
    """A file whose content and settings are those of its stored result: not run again."""

    path: str
    digest: str


class FileJob(Protocol):
    """A per-file job (see the module docstring and docs/archives.md).

    ``verb`` and ``doing`` name it in messages ("cannot audit F: ...", "the
    process auditing it died"); ``run`` does the work over the file read at
    ``where`` (``path`` is the name to report, ``digest`` its content's
    SHA-256 when a database keeps it) and may raise anything; ``failed`` is
    the result of a file whose work failed with ``error``, one line;
    ``failure`` words an exception as that line (:func:`failure_text`) and
    may re-raise what must stop the whole run (an engine that is missing)."""

    verb: ClassVar[str]
    doing: ClassVar[str]

    def run(self, path: str, where: str, digest: str | None) -> Any: ...

    def failed(self, path: str, error: str, digest: str | None = None) -> Any: ...

    def failure(self, exc: Exception, path: str, where: str) -> str: ...


def file_digest(path: str) -> str:
    """SHA-256 of a file's content, read in chunks."""
    import hashlib   # here, not at the top: only a run with a results database keeps digests (start-up)

    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def failure_text(exc: Exception, path: str, where: str, verb: str) -> str:
    """The one line a file gets whose job failed, named as the user gave it."""
    if isinstance(exc, OSError):
        return f"cannot read {path}: {os_reason(exc)}"
    if isinstance(exc, BgcliError):
        return str(exc).replace(where, path) if where != path else str(exc)
    if isinstance(exc, RecursionError):
        return f"cannot {verb} {path}: too deeply nested"
    if isinstance(exc, MemoryError):
        return f"cannot {verb} {path}: out of memory"
    return f"cannot {verb} {path}: internal error {type(exc).__name__}: {exc}"


def run_file(job: FileJob, task: FileTask) -> Any:
    """``job`` over one file (``-``: standard input); never raises for
    anything the file holds (see the module docstring). With ``task.keep`` a
    regular file's digest is taken first, and when it equals ``task.known``,
    :class:`Unchanged` is returned and nothing is run. A pipe is read once,
    never hashed. ``task.source`` is opened instead of ``task.path`` (which the
    result and its messages still name)."""
    path = task.path
    where = task.source or path
    digest = None
    try:
        if task.keep and where != STDIN and stat.S_ISREG(os.stat(where).st_mode):
            digest = file_digest(where)
            if task.known is not None and digest == task.known:
                return Unchanged(path, digest)
        return job.run(path, where, digest)
    except Exception as exc:  # a bug met by one file must not stop the others
        return job.failed(path, job.failure(exc, path, where), None if isinstance(exc, OSError) else digest)


def run_batch(tasks: Sequence[FileTask], job: FileJob) -> list:
    """``job`` over a few files, one after another: one task of a worker."""
    return [run_file(job, task) for task in tasks]


def lost(job: FileJob, path: str, how: str = "the process {doing} it died") -> Any:
    """The result of a file whose worker died on it (or failed, on a cluster)."""
    return job.failed(path, f"cannot {job.verb} {path}: " + how.format(doing=job.doing))
