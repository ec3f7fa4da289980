"""Judging a recorded play in a replay: the position it leaves, the text to
show, the legal play it is, and what is wrong with it.

Plays are read by the notation's reader (:func:`bgcli.core.notation.parse_play_text`,
the one that follows the grammar), so the replay accepts exactly the
spellings the grammar does. The common case, one ``a/b`` pair per die as
.mat files write plays, is judged by the model step by step
(:func:`bgcli.core.judge.play_from_steps`) without listing the legal plays;
anything else takes :func:`bgcli.core.notation.parse_play`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bgcli.core.position import BAR, OFF, ROLLS, Position, accelerator, other_side, trusted_position
from bgcli.core.generator import Play, legal_plays
from bgcli.core.judge import Sides, dances, play_from_steps, sides_after_steps, result_of_steps
from bgcli.core.notation import apply_written, parse_play, parse_play_text, play_text
from bgcli.core.spelling import POINT_WORDS, recorded_text
from bgcli.errors import AmbiguousPlayError, BgcliError, CutShortPlayError, IllegalPlayError, InvalidPlayError
from bgcli.match.diagnosis import wrong_roll
from bgcli.match.events import ProblemKind
from bgcli.match.records import Action, ActionKind

Pairs = tuple[tuple[int, int], ...]


SHOWN_PLAYS = 6   # a message lists this many legal plays at most, and "…" where it cuts the list


@dataclass(frozen=True, slots=True)
class Judgement:
    """What a recorded play comes to."""

    after: Position | None    # the position it leaves (the recorded one even when illegal); None: cannot be applied
    shown: str                # the legal play's text, else the recorded text; '' for no play
    legal: Play | None = None  # the legal play, when it is one and its text was wanted
    problems: tuple[tuple[ProblemKind, str], ...] = ()
    dance: str = ""           # no play recorded though one was legal (held back: it may be a resignation)
    cut_short: bool = False   # the one problem: steps that can each be made, fewer dice than the roll allows
                              # (held back: right before a resignation it is the turn the loser gave up)

    @property
    def unchecked(self) -> bool:
        """The play cannot be applied: the rest of the game cannot be checked."""
        return self.after is None


def judge_play(before: Position, dice: tuple[int, int], text: str, side: int, want_text: bool,
               diagnose: bool = True) -> Judgement:
    """Judge the play ``text`` of ``dice`` written by the player on ``side``
    (0 the left column, 1 the right one; only Korean names depend on it) from
    ``before``, seen from the mover's side. Without ``want_text`` (no events:
    the audit) a legal play's text and Play are not made: the text is the
    recorded one and the play None. Without ``diagnose`` an illegal play is
    a play problem without asking whether another roll fits it (a replay
    that ends at the problem, whatever it is called)."""
    if text:
        moves = die_steps(before, dice, text, side)
        if moves is not None:
            if not want_text:
                after = result_of_steps(before, dice, moves)
                if after is not None:
                    return Judgement(after, text)
            else:
                play = play_from_steps(before, dice, moves)
                if play is not None:
                    return Judgement(play.result, play_text(play), play)
    else:
        plays = legal_plays(before, dice)
        if not plays:
            return Judgement(before, "")
        texts = sorted(play_text(p) for p in plays)
        some = ", ".join(texts[:SHOWN_PLAYS]) + (", …" if len(texts) > SHOWN_PLAYS else "")
        exist = "legal play exists" if len(plays) == 1 else "legal plays exist"
        return Judgement(before, "", dance=f"no play is recorded for {recorded_text(dice)} but {len(plays)} {exist} "
                                           f"({some})")
    try:
        play = parse_play(text, before, dice, side=side)
        return Judgement(play.result, play_text(play) if want_text else text, play)
    except IllegalPlayError as exc:
        other = wrong_roll(before, dice, text, side) if diagnose else None
        if other is not None:
            problem = (ProblemKind.DICE, f"{text!r} is not a play of {recorded_text(dice)}; it is a legal play "
                                         f"of {recorded_text(other)}: the roll does not fit the play")
        else:
            problem = (ProblemKind.PLAY, str(exc))
            if isinstance(exc, CutShortPlayError):
                after = apply_written(before, text, dice, side=side)
                if after is not None:
                    return Judgement(after, text, problems=(problem,), cut_short=True)
    except (InvalidPlayError, AmbiguousPlayError) as exc:
        problem = (ProblemKind.PLAY, str(exc))
    try:
        after = apply_written(before, text, dice, side=side)
    except BgcliError:
        after = None
    if after is None:
        unchecked = (ProblemKind.UNCHECKED, "the recorded play cannot be applied: the rest of this game is not checked")
        return Judgement(None, text, problems=(problem, unchecked))
    return Judgement(after, text, problems=(problem,))


# Fenced mirror of judge_play (the judge, over the generator) for the audit's short path:
# tests/test_mirrors.py::test_the_audits_short_path_is_the_judge_on_generated_plays
def sides_after_play(mine: tuple[int, ...], theirs: tuple[int, ...], dice: tuple[int, int] | None, text: str,
               side: int) -> Sides | None:
    """The sides after the play ``text`` of ``dice`` (as written, either
    order) from the mover's side ``mine`` and the opponent's ``theirs``, when
    it is a legal play written one pair per die or so: what :func:`judge_play`
    settles without listing the legal plays, and without problems. None when
    that way cannot say (no dice, bad dice, another spelling, an illegal
    play): then judge_play decides."""
    if _play_in_c is not None:   # gnubg's .mat spelling, settled on the counts, in C
        found = _play_in_c(mine, theirs, dice, text, side)
        if found is not NotImplemented:
            return found
    rolled = ROLLS.get(dice)   # None for no dice, or dice out of range
    if rolled is None or not text:
        return None
    text = text.strip()
    pairs = _PAIRS.get((text, side), _UNREAD)   # written_pairs, its cache looked up here: most plays
    if pairs is _UNREAD:
        pairs = written_pairs(text, side)
    if pairs is None:
        return None
    high, low = rolled
    # split_steps splits nothing but one pair of a non-double's two dice
    moves = pairs if high != low and len(pairs) != 1 else split_steps(theirs, high, low, pairs)
    sides = sides_after_steps(mine, theirs, high, low, moves)
    if sides is not None:
        return sides
    after = result_of_steps(trusted_position(mine, theirs), rolled, moves)
    return None if after is None else (after.player, after.opponent)


def settled_roll(mine: tuple[int, ...], theirs: tuple[int, ...], action: Action, side: int) -> Sides | None:
    """The sides after ``action``, a play or a roll with no play (ActionKind.MOVE
    or DANCE) of ``side``, the player on roll, from the mover's side ``mine``
    and the opponent's ``theirs``, where the short path settles it alone: a
    legal play written one pair per die or so (:func:`sides_after_play`), a
    roll with no play where the counts prove there is none
    (:func:`bgcli.core.judge.dances`). None where the replay's long path
    decides. The one step of the audit's run of plays (GameReplay.apply_all)
    and of the dice audit's (bgcli.judging.dice.DiceTally) that the C
    accelerator's runs leave to Python."""
    if action.kind is ActionKind.MOVE:
        return sides_after_play(mine, theirs, action.dice, action.play_text, side)
    rolled = ROLLS.get(action.dice)
    if rolled is None or action.play_text or not dances(mine, theirs, rolled[0], rolled[1]):
        return None
    return mine, theirs


# The C accelerator's sides_after_play is a fenced mirror of sides_after_play for the spelling of
# gnubg's .mat export (_PLAIN_PLAY): tests/test_audit_steps.py::test_sides_after_play_in_c_is_the_python_short_path
_play_in_c = accelerator.sides_after_play if accelerator is not None else None
# The C accelerator's sides_after_plays is a fenced mirror of the run of plays in turn that
# GameReplay.apply_all settles with sides_after_play, one after the other, for the audit (None without
# it): tests/test_audit_steps.py::test_sides_after_plays_in_c_is_the_run_of_the_python_short_path
sides_after_plays = accelerator.sides_after_plays if accelerator is not None else None


def written_pairs(text: str, side: int) -> Pairs | None:
    """The (start, end) pairs of a play written without a dice prefix, in
    order, a chain's hops one by one and repeats expanded (``13/8 8/5*`` as
    .mat files write plays; ``bar/20*/15``, ``8/5(2)`` as gnubg shows them),
    read by the notation's reader; None for text that is not a play or starts
    with dice. Remembered by text, as the same few thousand texts make most plays."""
    key = (text, side)
    known = _PAIRS.get(key, _UNREAD)
    if known is not _UNREAD:
        return known
    if _PLAIN_PLAY(text):   # as gnubg's .mat export writes every play: read here, for speed
        points = list(map(int, _NUMBERS(text)))
        plain = tuple(zip(points[::2], points[1::2]))
        if _PLACEHOLDER not in plain:   # a '0/0' step is no step: the notation's reader decides (below)
            _remember(key, plain)
            return plain
    if _SHOWN_PLAY(text):   # as gnubg shows plays: chains, repeats, bar and off
        shown: list[tuple[int, int]] = []
        for move in text.split():
            count = 1
            if move[-1] == ")":
                move, count = move[:-3], int(move[-2])
            points = [POINT_WORDS[word] if word in POINT_WORDS else int(word) for word in move.replace("*", "").split("/")]
            shown += list(zip(points, points[1:])) * count
        if _PLACEHOLDER not in shown:
            _remember(key, tuple(shown))
            return tuple(shown)
    pairs = read_pairs(text, side)
    _remember(key, pairs)
    return pairs


def read_pairs(text: str, side: int) -> Pairs | None:
    """``written_pairs`` by the notation's reader alone, nothing remembered."""
    try:
        written = parse_play_text(text, side=side)
    except InvalidPlayError:
        return None
    return tuple(written.hops()) if written.dice is None and written.moves else None


_PAIRS: dict[tuple[str, int], Pairs | None] = {}
# off to off: how some writers mark a die with nothing left to move, no step (core.notation's
# _without_placeholders owns it); the fast paths above leave such a play to the notation's reader
_PLACEHOLDER = (OFF, OFF)
_UNREAD: Any = object()   # not in _PAIRS (None there: not pairs)
# The spelling of gnubg's .mat export (numbers only, 25 the bar and 0 off, one
# a/b pair per die): a subset of what the notation's reader reads, read to the
# same pairs (tests/test_audit_paths.py checks both on random texts).
# Fenced mirror of the notation's reader (read_pairs): tests/test_audit_paths.py::test_plain_pairs_read_as_the_notation_reads_them
_PLAIN_POINT = "(?:2[0-5]|1?[0-9])"   # 0 to 25
_PLAIN_PLAY = re.compile(rf"{_PLAIN_POINT}/{_PLAIN_POINT}\*?(?:[ \t]+{_PLAIN_POINT}/{_PLAIN_POINT}\*?)*").fullmatch
_NUMBERS = re.compile("[0-9]+").findall
# The spelling gnubg shows plays in (and other programs write): the plain one,
# with chains, repeats, bar and off; also a subset of the notation's reader's.
_SHOWN_POINT = rf"(?:bar|off|{_PLAIN_POINT})"
_SHOWN_MOVE = rf"{_SHOWN_POINT}\*?(?:/{_SHOWN_POINT}\*?)+(?:\([1-4]\))?"
_SHOWN_PLAY = re.compile(rf"{_SHOWN_MOVE}(?:[ \t]+{_SHOWN_MOVE})*").fullmatch


def _remember(key: tuple[str, int], pairs: Pairs | None) -> None:
    if len(_PAIRS) > 100_000:
        _PAIRS.clear()
    _PAIRS[key] = pairs


def die_steps(before: Position, dice: tuple[int, int], text: str, side: int = 1) -> Pairs | None:
    """The written pairs of a play with each pair that covers several dice
    (``24/21`` for 21, ``13/5`` for 44) split into one step per die through
    points the opponent leaves empty, so that the split reaches the result the
    pairs reach; a pair that cannot be split so stays whole."""
    moves = written_pairs(text, side)
    if moves is None:
        return None
    return split_steps(before.opponent, dice[0], dice[1], moves)


def split_steps(opponent: tuple[int, ...], high: int, low: int, moves: Pairs) -> Pairs:
    """:func:`die_steps` of written pairs, the opponent's side given."""
    if high != low:
        if len(moves) != 1:
            return moves
        (start, end), = moves
        if start - end != high + low or not 0 < end < start <= BAR:
            return moves
        for middle in (start - high, start - low):
            if not opponent[other_side(middle)]:
                return ((start, middle), (middle, end))
        return moves
    if len(moves) >= 4:
        return moves
    steps: list[tuple[int, int]] = []
    for start, end in moves:
        if 0 <= end < start <= BAR and start - end > high and (end == 0 or (start - end) % high == 0):
            points = list(range(start, end, -high))
            if all(not opponent[other_side(p)] for p in points[1:]):
                steps += zip(points, points[1:] + [end])
                continue
        steps.append((start, end))
    return tuple(steps)
