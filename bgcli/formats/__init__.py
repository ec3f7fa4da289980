"""Match file formats, one module each, over the records and the replay.

- :mod:`bgcli.formats.registry` — the formats: name, suffixes, head, whether
  bgcli writes it, and the module that reads it;
- :mod:`bgcli.formats.mat`, :mod:`bgcli.formats.sgf`, :mod:`bgcli.formats.jsondoc`
  — one module per format, each reading into records and writing as a
  replay visitor (:mod:`bgcli.formats.writing` holds what the writers share,
  :mod:`bgcli.formats.reading` what the readers share);
- :mod:`bgcli.formats.files` — sniffs a file and hands out its records, its
  replays, or the matches written in another format.

The names below are imported on first use, so that the registry can be read
(by the command line, say) without loading any reader.
"""
from __future__ import annotations

import importlib
from typing import Any

_LAZY = ("FORMATS", "WRITTEN", "export_text", "iter_records", "read_any", "replay_file", "sniff", "visit_file")


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'bgcli.formats' has no attribute {name!r}")
    value = getattr(importlib.import_module("bgcli.formats.files"), name)
    globals()[name] = value
    return value


__all__ = list(_LAZY)
