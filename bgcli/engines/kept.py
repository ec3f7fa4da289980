"""The engines a command keeps open: the one owner of their lifetime.

A command that asks an engine many times (``hint --batch``) opens it once
and keeps it for the rest of the command: inside :func:`keeping`, the
command's scope, :func:`kept_engine` opens an engine the first time it is
asked for (by name, level and time limit) and hands back the same one after;
when the scope ends, with the command, every engine it opened is closed and
forgotten. Nothing is kept from one command to the next in one process (a
test process runs many), so no command is answered by an engine another one
opened.

Workers forked while a command runs (``--jobs``) inherit its scope: each
keeps the engines it opens for its own life and they end with it.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

from bgcli.engines.protocol import Engine

if TYPE_CHECKING:
    from bgcli.engines.met_tables import MatchEquityTable


class Kept:
    """The engines one command opened, by (name, level, time limit, match equity table)."""

    def __init__(self) -> None:
        self.engines: dict[tuple, Engine] = {}

    def get(self, name: str, level: int, timeout: float, met: "MatchEquityTable | None" = None) -> Engine:
        key = (name, level, timeout, met)
        engine = self.engines.get(key)
        if engine is None:
            from bgcli.engines import open_engine

            engine = self.engines[key] = open_engine(name, level, timeout=timeout, met=met)
        return engine

    def close(self) -> None:
        engines, self.engines = self.engines, {}
        for engine in engines.values():
            engine.close()


# The scope of the command running now, or None: set and cleared by keeping() only.
_scope: Kept | None = None


@contextmanager
def keeping() -> Iterator[Kept]:
    """The scope of one command: the engines opened in it are closed when it ends."""
    global _scope
    outer, _scope = _scope, Kept()
    try:
        yield _scope
    finally:
        scope, _scope = _scope, outer
        scope.close()


def kept_engine(name: str, level: int, timeout: float, met: "MatchEquityTable | None" = None) -> Engine:
    """The engine of the running command for (name, level, timeout, match equity table: None the default),
    opened once.
    Raises EngineUnavailableError or ValueError as open_engine does; outside a
    command's scope (:func:`keeping`), RuntimeError: nothing would close it."""
    if _scope is None:
        raise RuntimeError("an engine is kept only inside a command's scope (bgcli.engines.kept.keeping)")
    return _scope.get(name, level, timeout, met)
