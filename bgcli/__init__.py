"""bgcli: backgammon positions, move notation, legal plays and match transcripts.

The core (positions, dice, legal plays, the errors) is imported at once; the
rest is imported when first used, so that ``bgcli moves`` starts quickly.
"""
from __future__ import annotations

import importlib
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Any

from bgcli.errors import (
    AmbiguousPlayError,
    BgcliError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
    InvalidPositionError,
    MatchFileError,
    MissingDiceError,
)
from bgcli.core.position import BAR, OFF, Position
from bgcli.core.spelling import parse_dice
from bgcli.core.generator import Play, Step
from bgcli.core.generator import legal_plays as _legal_plays
from bgcli.core import generator as _generator
from bgcli.core import position as _position

__version__ = "0.1.0"

# Whether the core was compiled (BGCLI_COMPILE=1 at install, see setup.py): its
# modules are then extension modules, imported before the .py beside them.
compiled = all(str(getattr(sys.modules[name], "__file__", "")).endswith(tuple(EXTENSION_SUFFIXES))
               for name in ("bgcli.core.position", "bgcli.core.generator"))
# Whether the C accelerator (bgcli/core/_speedups.c, built by pip install . where a C
# compiler works) is in use.
speedups = _generator.accelerator is not None
# "pure Python" only where no C runs at all: the accelerator beside Python is named as such
build = ("compiled (mypyc) with the C accelerator" if speedups else "compiled (mypyc)") if compiled else \
    ("Python with the C accelerator" if speedups else "pure Python")
if _position.speedups_stale:
    build += " (the C accelerator here is older than its source: pip install -e . rebuilds it)"

# name -> module that defines it, imported on first use
_LAZY = {
    "GameState": "bgcli.core.state", "MatchState": "bgcli.core.state",
    "parse_position": "bgcli.core.ids", "match_id": "bgcli.core.ids", "parse_match_id": "bgcli.core.ids",
    "parse_play": "bgcli.core.notation", "play_text": "bgcli.core.notation",
    "Rules": "bgcli.core.rules",
    "read_any": "bgcli.formats", "replay_file": "bgcli.formats", "replay_match": "bgcli.match",
    "export_text": "bgcli.formats", "MatchVisitor": "bgcli.match",
    "analyze": "bgcli.analysis.counts", "Analysis": "bgcli.analysis.counts", "bearoff_summary": "bgcli.analysis.counts",
}


def _board_and_dice(position, dice):
    """The Position and dice of ``position``, a Position or what
    ``parse_position`` returns (a game state whose dice, when it carries
    them, are used when ``dice`` is left out)."""
    board = getattr(position, "position", position)
    if not isinstance(board, Position):
        raise TypeError(f"expected a Position or what parse_position returns, not {type(position).__name__}")
    if dice is None:
        carried = getattr(getattr(position, "match", None), "dice", (0, 0))
        if not carried[0]:
            raise MissingDiceError(f"no dice given for {board.id()}: pass them (e.g. (3, 1)) or use an ID that carries them")
        dice = tuple(carried)
    return board, dice


def legal_plays(position, dice=None) -> list[Play]:
    """Every legal play of ``dice`` in ``position`` (see
    ``bgcli.core.generator.legal_plays``). ``position`` may be what
    ``parse_position`` returns; its dice are used when ``dice`` is left out."""
    return _legal_plays(*_board_and_dice(position, dice))


def __dir__() -> list[str]:
    return sorted(__all__)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'bgcli' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "AmbiguousPlayError", "BgcliError", "IllegalPlayError", "InvalidDiceError", "MissingDiceError", "InvalidPlayError",
    "InvalidPositionError", "MatchFileError", "BAR", "OFF", "Play", "Position", "Step", "legal_plays",
    "parse_dice", "__version__", "build", "compiled", "speedups", *_LAZY,
]
