"""Match file formats, one module each, over the records and the replay.

- :mod:`bgcli.formats.mat`, :mod:`bgcli.formats.sgf`, :mod:`bgcli.formats.jsondoc`
  — one module per format, each reading into records and writing as a
  replay visitor (:mod:`bgcli.formats.writing` holds what the writers share);
- :mod:`bgcli.formats.files` — sniffs a file and hands out its records, its
  replays, or the matches written in another format.
"""
from bgcli.formats.files import (
    FORMATS,
    Format,
    export_text,
    iter_records,
    read_any,
    replay_file,
    sniff,
    visit_file,
)

__all__ = ["FORMATS", "Format", "export_text", "iter_records", "read_any", "replay_file", "sniff", "visit_file"]
