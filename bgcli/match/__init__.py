"""Match records and their replay, below every format.

- :mod:`bgcli.match.records` — what readers give (ActionKind, Action,
  GameRecord, MatchRecord);
- :mod:`bgcli.match.replay` — the replay of a record, reported to a
  :class:`~bgcli.match.replay.MatchVisitor` (events, problems, results).

The formats (:mod:`bgcli.formats`) read files into these records and write
matches as replay visitors.
"""
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
    Severity,
    Unfinished,
    replay_match,
)

__all__ = [
    "Action", "ActionKind", "Event", "EventKind", "GameRecord", "GameReplay", "GameResult",
    "GameStart", "MatchRecord", "MatchReplay", "MatchStart", "MatchVisitor", "Problem", "ProblemKind",
    "ReplayBuilder", "Severity", "Unfinished", "replay_match",
]
