"""The core model in one import: positions and dice, plays and the legal-play
generator, the rules of a step and the judge of a recorded play.

Each part has its own module; this one only gathers their names:
:mod:`bgcli.core.position` (Position, dice, the Position ID),
:mod:`bgcli.core.generator` (Step, Play, legal_plays) and
:mod:`bgcli.core.judge` (Board, play_from_steps).
"""
from __future__ import annotations

from bgcli.core.generator import Play, Step, legal_plays, play_changes, query_ids, sorted_keys
from bgcli.core.judge import (
    Board, apply_steps, die_for, fits, play_from_steps, play_key, result_of_steps, run_steps, shape_problem,
)
from bgcli.core.position import (
    BAR, CHECKERS, OFF, Dice, Point, Position, checked_dice, parse_dice, parse_position_id, pip_count, point_text,
    position_id, roll_dice,
)

__all__ = [
    "BAR", "CHECKERS", "OFF", "Board", "Dice", "Play", "Point", "Position", "Step", "apply_steps", "checked_dice",
    "die_for", "fits", "legal_plays", "parse_dice", "parse_position_id", "pip_count", "play_changes", "play_from_steps",
    "play_key", "point_text", "position_id", "query_ids", "result_of_steps", "roll_dice", "run_steps", "shape_problem",
    "sorted_keys",
]
