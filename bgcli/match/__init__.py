"""Match transcripts: records, the replay, and one module per format.

- :mod:`bgcli.match.records` — what readers give (ActionKind, Action,
  GameRecord, MatchRecord);
- :mod:`bgcli.match.replay` — the replay of a record, reported to a
  :class:`~bgcli.match.replay.MatchVisitor` (events, problems, results);
- :mod:`bgcli.match.mat`, :mod:`bgcli.match.sgf`, :mod:`bgcli.match.jsondoc`
  — one module per format, each reading into records and writing as a
  replay visitor (:mod:`bgcli.match.writing` holds what the writers share);
- :mod:`bgcli.match.files` — sniffs a file and hands out its records, its
  replays, or the matches written in another format.

Dependencies point one way: records, then replay, then the formats, then files.
"""
from bgcli.match.files import (
    FORMATS,
    Format,
    export_text,
    iter_records,
    read_any,
    replay_file,
    sniff,
    visit_file,
)
from bgcli.match.records import Action, ActionKind, GameRecord, MatchRecord
from bgcli.match.replay import (
    Event,
    EventKind,
    GameReplay,
    GameResult,
    GameStart,
    MatchReplay,
    MatchStart,
    MatchVisitor,
    Problem,
    ProblemKind,
    ReplayBuilder,
    Unfinished,
    replay_match,
)

__all__ = [
    "FORMATS", "Action", "ActionKind", "Event", "EventKind", "Format", "GameRecord", "GameReplay", "GameResult",
    "GameStart", "MatchRecord", "MatchReplay", "MatchStart", "MatchVisitor", "Problem", "ProblemKind",
    "ReplayBuilder", "Unfinished", "export_text", "iter_records", "read_any", "replay_file", "replay_match", "sniff",
    "visit_file",
]
