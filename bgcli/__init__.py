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
from bgcli.model import BAR, OFF, Play, Position, Step, legal_plays, parse_dice

__version__ = "0.1.0"

# name -> module that defines it, imported on first use
_LAZY = {
    "GameState": "bgcli.state", "MatchState": "bgcli.state",
    "parse_position": "bgcli.ids", "match_id": "bgcli.ids", "parse_match_id": "bgcli.ids",
    "parse_play": "bgcli.notation", "play_text": "bgcli.notation",
    "Rules": "bgcli.scoring",
    "read_any": "bgcli.match", "replay_file": "bgcli.match", "replay_match": "bgcli.match",
    "export_text": "bgcli.match", "MatchVisitor": "bgcli.match",
    "analyze": "bgcli.analysis", "Analysis": "bgcli.analysis", "bearoff_summary": "bgcli.analysis",
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
