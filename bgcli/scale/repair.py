"""Repairs over archives: each file's suggestions (bgcli.judging.repair), a
per-file job (bgcli.scale.jobs) run by bgcli.scale.runner as the audit, the
rating and the dice audit are, so that ``bgcli repair`` takes folders, globs
and standard input and spreads them over ``--jobs`` processes. No results
database: a repair is a proposal about a file as it is now, read afresh.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bgcli.core.rules import Rules
from bgcli.scale.jobs import STDIN, failure_text


@dataclass(frozen=True)
class RepairResult:
    """One file's repair: its problems with their suggestions and what the
    repaired record still has (``FileRepair.to_dict()``, named as the user
    gave it); with ``texts``, the repaired text and the unified diff; or why
    the file could not be repaired."""

    path: str
    report: dict | None = None
    fixed: bytes | None = None   # the repaired record in the file's own encoding (as it was when nothing was applied), with texts
    patch: bytes = b""           # the unified diff from the file to ``fixed``, in its bytes (b'' when nothing was applied)
    changed: bool = False        # whether a repair was applied
    error: str | None = None
    digest: str | None = None

    @property
    def errors(self) -> int:
        """The file's errors (its warnings are not repaired)."""
        return sum(1 for p in self.problems if p["severity"] == "error")

    @property
    def problems(self) -> list[dict]:
        return self.report["problems"] if self.report is not None else []

    @property
    def repaired(self) -> int:
        """Errors with a convincing repair, or removed by an earlier one's."""
        return sum(1 for p in self.problems if p["severity"] == "error"
                   and (p["applied"] or p.get("explained_by") is not None))

    @property
    def still(self) -> list[dict]:
        """The errors the repaired record still has."""
        return [p for p in (self.report or {}).get("still", []) if p["severity"] == "error"]

    def to_dict(self) -> dict:
        if self.error is not None:
            return {"file": self.path, "error": self.error}
        assert self.report is not None
        return self.report


@dataclass(frozen=True)
class RepairJob:
    """The repair of a file, a per-file job (bgcli.scale.jobs), under ``rules``;
    ``texts``: bring back the repaired text and the patch (-o, --patch)."""

    rules: Rules | None = None
    texts: bool = False
    verb: ClassVar[str] = "repair"
    doing: ClassVar[str] = "repairing"

    def run(self, path: str, where: str, digest: str | None) -> RepairResult:
        from bgcli.judging.repair import repair_file

        found = repair_file(STDIN if where == STDIN else where, self.rules)
        found.path = path   # named as the user gave it (a cluster's worker opens the absolute path)
        changed = found.fixed != found.original
        return RepairResult(path, found.to_dict(), found.fixed_bytes if self.texts else None,
                            found.patch() if self.texts and changed else b"", changed, None, digest)

    def failed(self, path: str, error: str, digest: str | None = None) -> RepairResult:
        return RepairResult(path, error=error, digest=digest)

    def failure(self, exc: Exception, path: str, where: str) -> str:
        return failure_text(exc, path, where, self.verb)


__all__ = ["RepairJob", "RepairResult"]
