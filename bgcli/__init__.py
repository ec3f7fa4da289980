"""bgcli: backgammon positions, move notation, legal plays and match transcripts.

The core (positions, dice, legal plays, the errors) is imported at once; the
rest is imported when first used, so that ``bgcli moves`` starts quickly.
"""
from __future__ import annotations

import importlib
from typing import Any

from bgcli.errors import (
    AmbiguousPlayError,
    BgcliError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
    InvalidPositionError,
    MatchFileError,
)
from bgcli.core.model import BAR, OFF, Play, Position, Step, legal_plays, parse_dice

__version__ = "0.1.0"

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


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'bgcli' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "AmbiguousPlayError", "BgcliError", "IllegalPlayError", "InvalidDiceError", "InvalidPlayError",
    "InvalidPositionError", "MatchFileError", "BAR", "OFF", "Play", "Position", "Step", "legal_plays",
    "parse_dice", "__version__", *_LAZY,
]
