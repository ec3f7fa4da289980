"""Match records and their replay, below every format.

- :mod:`bgcli.match.records` — what readers give (ActionKind, Action,
  GameRecord, MatchRecord);
- :mod:`bgcli.match.replay` — the replay of a record (the driver), reported
  to a :class:`~bgcli.match.visitor.MatchVisitor`: :mod:`~bgcli.match.events`
  (events, problems, results), :mod:`~bgcli.match.game` (each action's
  rules), :mod:`~bgcli.match.plays` (judging a recorded play),
  :mod:`~bgcli.match.diagnosis` (a wrong play or a wrong roll?),
  :mod:`~bgcli.match.conventions` (archive habits that are not problems).

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
