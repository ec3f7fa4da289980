"""Engines that judge positions: the protocol (:mod:`bgcli.engines.protocol`) and one module per backend.

``open_engine(name, level)`` opens one; ``ENGINE_NAMES`` lists them. Adding an
engine is one module with a class that answers the protocol, and one entry in
``_BACKENDS``. Backends are imported only when opened, so a missing one costs
nothing until it is asked for.
"""
from __future__ import annotations

import importlib

from typing import TYPE_CHECKING

from bgcli.engines.protocol import (
    CubeDecision, Engine, Evaluation, Level, PlayEvaluation, Probabilities,
)

if TYPE_CHECKING:
    from bgcli.engines.met_tables import MatchEquityTable

# name -> (module, class): the default first
_BACKENDS = {
    "sage": ("bgcli.engines.sage", "SageEngine"),
    "gnubg": ("bgcli.engines.gnubg", "GnubgEngine"),
    "exact": ("bgcli.engines.exact", "ExactEngine"),
}
ENGINE_NAMES = tuple(_BACKENDS)
# engines whose answer is the same at every level (exact figures): no level is named for them
_NO_LEVELS = frozenset({"exact"})
DEFAULT_ENGINE = "sage"
DEFAULT_LEVEL = 2


def level_of(level: "int | Level") -> Level:
    """A Level from a number in gnubg's numbering (0 = the raw network), or the Level itself."""
    if isinstance(level, Level):
        return level
    if isinstance(level, bool) or not isinstance(level, int) or level < 0:
        raise ValueError(f"invalid level {level!r}: expected a number of plies, 0 or more (gnubg's numbering)")
    return Level(level)


def describe(name: str, level: int) -> str:
    """The engine and its level as a header says it: ``sage 2-ply``; ``exact`` alone (exact figures have
    no depth: its level is accepted and ignored)."""
    name = name.lower()
    return name if name in _NO_LEVELS else f"{name} {level}-ply"


def open_engine(name: str = DEFAULT_ENGINE, level: "int | Level" = DEFAULT_LEVEL, *, timeout: float = 60.0,
                met: "MatchEquityTable | None" = None) -> Engine:
    """Open the engine ``name`` at ``level`` (gnubg's numbering: 0 = the raw network, 2 = XG's 3-ply),
    judging match play with the match equity table ``met`` (None: the default, Kazaross-XG2).

    Raises EngineUnavailableError (naming what to install) when the backend's
    program or package is missing, ValueError for an unknown name or a level
    the backend does not have, or a table it cannot use (:func:`bgcli.engines.met.engine_problem`). ``timeout`` is the time limit of one call, in
    seconds, where the backend can enforce it (a separate program)."""
    try:
        module_name, class_name = _BACKENDS[name.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"unknown engine {name!r}: expected one of {', '.join(ENGINE_NAMES)}") from None
    module = importlib.import_module(module_name)
    return getattr(module, class_name)(level_of(level), timeout=timeout, met=met)


__all__ = ["CubeDecision", "DEFAULT_ENGINE", "DEFAULT_LEVEL", "ENGINE_NAMES", "Engine", "Evaluation",
           "Level", "PlayEvaluation", "Probabilities", "describe", "level_of", "open_engine"]
