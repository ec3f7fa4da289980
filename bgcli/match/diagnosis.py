"""Diagnosing an illegal recorded play: was the play written wrong, or the roll?

A play that is one slip away from a legal play of its roll (a sub-move
missing, or the last one ending a point off) is a wrong play; otherwise, when
it is a legal play of another roll, the roll is what was written wrong.
"""
from __future__ import annotations

from bgcli.core.position import KINDS_OF_ROLL, Position, roll_dice
from bgcli.core.generator import legal_plays
from bgcli.core.judge import die_for
from bgcli.core.notation import apply_written, numbered_text, parse_play, parse_play_text, plays_of_rolls
from bgcli.errors import BgcliError

ALL_ROLLS = list(KINDS_OF_ROLL)


def wrong_roll(before: Position, dice: tuple[int, int], text: str, side: int) -> tuple[int, int] | None:
    """The roll that the illegal play ``text`` of ``dice`` (written by the
    player on ``side``) is a legal play of, when the roll rather than the play
    was written wrong; None when the play is the mistake."""
    plain = numbered_text(text, side=side)   # Korean names belong to the board: read by the column's side
    return None if _one_slip_from_legal(before, dice, plain) else _other_roll(before, dice, plain)


def other_roll(before: Position, dice: tuple[int, int], text: str, side: int) -> tuple[int, int] | None:
    """A roll other than ``dice`` that ``text`` is a legal play of, or None."""
    return _other_roll(before, dice, numbered_text(text, side=side))


def _one_slip_from_legal(before: Position, dice, text: str) -> bool:
    try:
        written = parse_play_text(text)
    except BgcliError:
        return False
    hops = written.hops()
    if not hops:
        return False
    start, end = hops[-1]
    for shifted in (end - 1, end + 1):
        if 0 <= shifted < start and _fits_dice(hops[:-1] + [(start, shifted)], dice):
            candidate = " ".join(f"{a}/{b}" for a, b in hops[:-1] + [(start, shifted)])
            try:
                parse_play(candidate, before, dice)
                return True
            except BgcliError:
                pass
    used = sum(_dice_needed(start - end, end, dice) for start, end in hops)
    if used >= len(roll_dice(dice)):
        return False  # nothing is missing
    try:
        reached = apply_written(before, written, dice)
    except BgcliError:
        reached = None
    if reached is None:
        return False
    return any(len(play.steps) == used + 1 and _one_step_apart(reached.player, play.result.player, dice)
               for play in legal_plays(before, dice))


def _dice_needed(length: int, end: int, dice) -> int:
    """How many dice a written hop of ``length`` pips takes (at least one)."""
    if dice[0] == dice[1]:
        return max(1, -(-length // dice[0]))
    return 1 if length in dice or (end == 0 and length < dice[0]) else 2


def _fits_dice(hops, dice) -> bool:
    """Whether each hop is one die of the roll (a bear-off may use a larger die)."""
    free = roll_dice(dice)
    for start, end in sorted(hops, key=lambda hop: hop[0] - hop[1], reverse=True):
        die = die_for(start, end, free)
        if die is None:
            return False
        free.remove(die)
    return True


def _one_step_apart(side: tuple[int, ...], target: tuple[int, ...], dice) -> bool:
    """Whether one more step of a die turns ``side`` into ``target``."""
    diff = [(p, target[p] - side[p]) for p in range(26) if target[p] != side[p]]
    if len(diff) != 2 or diff[0][1] != 1 or diff[1][1] != -1:  # a lower point gains what a higher one loses
        return False
    low, high = diff[0][0], diff[1][0]
    return die_for(high, low, dice) is not None


def _other_roll(before: Position, dice, text: str):
    return next((roll for roll, _ in plays_of_rolls(text, before, (r for r in ALL_ROLLS if r != tuple(dice)))), None)
