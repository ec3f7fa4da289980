"""Where a replay goes on after a recorded play it cannot accept, so that one
slip is one problem.

A wrong play (a sub-move dropped or changed), no play recorded where one
was legal, a play that cannot be applied at all, Snowie's note that a play
was illegal: the record still says what happened next, in the plays that
follow. The replay goes on from the position those plays fit: the recorded
play applied as written where it can be, else the legal play of the roll
that the rest of the game's recorded plays fit best. A position is judged by
how many of the plays that follow it in the record are legal from it, up to
the first that is not; the recorded position is kept unless another goes
further. In place of a play that cannot be applied at all, a legal play is
taken only when the next plays fit it (:data:`TRUSTED`); else the rest of
the game cannot be checked. So a play the record got wrong but the players did not is not
blamed again at every later play of the game.

A game's look-ahead is bounded (:data:`BUDGET` plays judged), so a file of
nothing but broken plays costs no more than a few clean games.
"""
from __future__ import annotations

import re
from typing import Sequence

from bgcli.core.generator import legal_plays
from bgcli.core.position import CHECKERS, OFF, Position
from bgcli.core.notation import parse_play
from bgcli.errors import BgcliError, CutShortPlayError
from bgcli.match.records import Action, ActionKind, ends_after

LOOKAHEAD = 40     # plays looked at after the slip: past that a position fits as well as any
BUDGET = 4000      # plays judged by the look-ahead of one game, at most
TRUSTED = 6        # in place of a play that cannot be applied, a legal play needs this many of the next to fit

_ENDS = frozenset({ActionKind.WIN, ActionKind.DROP, ActionKind.DRAW, ActionKind.RESIGN, ActionKind.ROLL})
_PLAYS = frozenset({ActionKind.MOVE, ActionKind.DANCE})


class Resync:
    """The look-ahead of one game (it holds the game's budget)."""

    def __init__(self, actions: Sequence[Action], rivals_read: bool = True):
        self.actions = actions
        self.budget = BUDGET
        self.written_fits_best = False   # of the last resume with want_rivals
        # False: whoever asks reads no problem (bgcli.match.visitor.MatchVisitor.reads_judgement: the dice
        # audit). The rivals of a play that fits every play after it are then not searched: they cannot
        # beat it, and their one outcome is written_fits_best, a problem's wording. Their search is owed
        # (its arguments), run for the budget it takes only before the game's next look-ahead, so that
        # each look-ahead has the budget it has when the rivals are read, and goes on from the same position
        self.rivals_read = rivals_read
        self.owed: tuple | None = None

    def resume(self, side: int, before: Position, dice: tuple[int, int], written: Position | None,
               index: int, want_rivals: bool = False) -> Position | None:
        """The position (from ``side``'s view, as ``before`` is) to go on
        from after the recorded action ``index`` of the game, played by
        ``side`` from ``before`` with ``dice``; ``written`` is what the
        recorded play gives (None when it cannot be applied, ``before`` for
        no play). None when the play cannot be applied and no legal play
        exists. With ``want_rivals`` the legal plays are tried even when the
        recorded one fits the whole game, and ``written_fits_best`` says
        whether it fits better than every one of them."""
        if self.owed is not None:   # the rivals left unsearched before: the budget they take, first
            owed, self.owed = self.owed, None
            self.rivals(*owed)
        later = self.actions[index + 1:]
        self.written_fits_best = False
        written_fit = self.fit(_seen_from_left(written, side), later) if written is not None else -1
        if written_fit > LOOKAHEAD and not (want_rivals and self.rivals_read):
            if want_rivals:
                self.owed = (side, before, dice, written, written_fit, later)
            return written
        best, best_fit, rival_fit = self.rivals(side, before, dice, written, written_fit, later)
        self.written_fits_best = written is not None and written_fit > rival_fit and self.budget > 0
        if written is None and best_fit < TRUSTED:
            return None   # nothing the record says fits: the rest of the game cannot be checked
        return best

    def rivals(self, side: int, before: Position, dice: tuple[int, int], written: Position | None,
               written_fit: int, later: Sequence[Action]) -> tuple[Position | None, int, int]:
        """The legal plays of ``dice`` from ``before`` tried against the plays ``later``, nearest the
        ``written`` position first, as far as the budget goes: the best position (``written`` unless
        one fits further than its ``written_fit``), its fit, and the best fit of a legal play."""
        candidates = [play.result for play in legal_plays(before, dice)]
        if written is not None:
            candidates.sort(key=lambda result: _distance(result, written))
        best, best_fit, rival_fit = written, written_fit, -1
        for result in candidates:
            if self.budget <= 0:
                break
            fit = self.fit(_seen_from_left(result, side), later)
            rival_fit = max(rival_fit, fit)
            if fit > best_fit:
                best, best_fit = result, fit
            if rival_fit > LOOKAHEAD:
                break
        return best, best_fit, rival_fit

    def fit(self, board: Position, later: Sequence[Action]) -> int:
        """How many of the plays in ``later`` are legal one after another
        from ``board`` (the left column's view); more than LOOKAHEAD when
        all are, or the game ends first."""
        count = 0
        for i, action in enumerate(later):
            if action.kind in _ENDS or count >= LOOKAHEAD or self.budget <= 0:
                return LOOKAHEAD + 1
            if action.kind is ActionKind.SET_UP:
                return LOOKAHEAD + 1   # set by hand: the plays after it need not follow from this board
            if action.kind not in _PLAYS:
                continue
            if not action.dice:
                return LOOKAHEAD + 1   # the replay cannot judge it either
            self.budget -= 1
            side = action.side
            seen = board if side == 0 else board.swap()
            dice = (max(action.dice), min(action.dice))
            text = (action.play_text or "").strip()
            if not text:
                if legal_plays(seen, dice) and not ends_after(later, i):
                    return count
                count += 1
                continue
            try:
                after = parse_play(text, seen, dice, side=side).result
            except CutShortPlayError:
                # steps made, fewer dice than the roll allows: right before the end, the turn the loser gave up
                # (as the replay holds it); the game ends there
                return LOOKAHEAD + 1 if ends_after(later, i) else count
            except BgcliError:
                return count
            count += 1
            board = after if side == 0 else after.swap()
            if board.player[OFF] == CHECKERS or board.opponent[OFF] == CHECKERS:
                return LOOKAHEAD + 1
        return LOOKAHEAD + 1


_STEP = re.compile(r"(?<![0-9])(bar|[0-9]{1,2})/(off|[0-9]{1,2})(?![0-9])", re.IGNORECASE)


def readable_steps(before: Position, dice: tuple[int, int], text: str, side: int) -> Position | None:
    """What a play the grammar cannot read gives, when its steps read alone
    (``11/7x 8/7``: a stray letter beside the steps 11/7 8/7) and make a
    legal play of the roll; else None. The play is still a problem of the
    record: this is only where the game goes on from."""
    steps = " ".join(f"{start}/{end}" for start, end in _STEP.findall(text))
    if not steps:
        return None
    try:
        return parse_play(steps, before, dice, side=side).result
    except BgcliError:
        return None


def _seen_from_left(position: Position, side: int) -> Position:
    return position if side == 0 else position.swap()


def _distance(a: Position, b: Position) -> int:
    """How many checkers stand elsewhere in ``a`` than in ``b``."""
    return (sum(abs(x - y) for x, y in zip(a.player, b.player))
            + sum(abs(x - y) for x, y in zip(a.opponent, b.opponent)))
