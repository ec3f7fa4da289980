"""The rolls that hit a blot, worked out from the checkers' distances: a
fenced copy of bgcli's shot counter (:func:`bgcli.analysis.counts.hit_rolls`,
which asks the generator for the legal plays of every roll that could reach
a blot), for the dice audit, which needs it in most positions of a match.

A roll hits when one of its legal plays puts an opponent checker on the bar.
Every such play has a step that lands on a blot: a checker's first step (a
die from where it stands), or a later step of the same checker (a sum of the
dice, each point on the way open). A play of both dice of a mixed roll, or
of four dice of a double, uses as many dice as can be used, so it is legal
(the one rule it could break). A mover with a checker on the bar enters
first in every legal play: as many checkers as the dice allow. When a hit
of a mixed roll (entering or not) leaves the other die unplayable, the roll
hits when no play takes both dice and the die that must then be played
hits. A double hits when some checker's steps reach a blot, each point on the
way open (:func:`_double_hits` says why the steps left after it need no
look). So the generator is asked about no roll, and the answer is the
owner's on every position: tests/test_dice_shots.py compares the two on
generated positions (hypothesis), and checks that the generator is not asked.
"""
from __future__ import annotations

from bgcli.analysis.counts import ROLLS
from bgcli.core.position import BAR, FACES, HOME, OUTSIDE_HOME, Position, from_other_side

_REACH = {roll: ((roll[0], 2 * roll[0], 3 * roll[0], 4 * roll[0]) if roll[0] == roll[1] else (roll[0], roll[1], roll[0] + roll[1]))
          for roll in ROLLS}


# Fenced mirror of bgcli.analysis.counts.hit_rolls: tests/test_dice_shots.py::test_the_rolls_that_hit_are_the_owners
def hitting_rolls(position: Position) -> tuple[tuple[int, int], ...]:
    """The rolls (66, 65, ..., 11, as ``hit_rolls``) with a legal play that hits."""
    player, opponent = position.player, position.opponent
    # the opponent's checkers on the mover's points 1..24
    theirs = (0,) + from_other_side(opponent)[1:25]
    blots = [t for t in range(1, 25) if theirs[t] == 1]
    if not blots:
        return ()
    starts = [p for p in range(1, 26) if player[p]]
    spans = {start - blot for start in starts for blot in blots if start > blot}
    if not spans:
        return ()
    found = []
    bar = player[BAR]
    direct: set[int] = set()   # the dice that take a checker from where it stands onto a blot
    twice: set[int] = set()    # the dice that two checkers or more can play (one still can once another moved)
    if not bar:
        direct = {span for span in spans if span <= 6}
        twice = _played_twice(player, theirs, starts)
    for roll in ROLLS:
        if spans.isdisjoint(_REACH[roll]):
            continue
        a, b = roll
        hits: bool | None
        if bar:
            hits = _entering_hits(player, theirs, a, b)
        elif a == b:
            hits = _double_hits(theirs, starts, a, 4)
        elif (a in direct and b in twice) or (b in direct and a in twice):
            hits = True
        else:
            hits = _mixed_hits(player, theirs, starts, a, b)
            if hits is None:   # only hits that leave the other die unplayable: legal when no play takes both dice
                hits = _one_die_hits(player, theirs, starts, a, b)
        if hits:
            found.append(roll)
    return tuple(found)


def _entering_hits(player, theirs, a: int, b: int) -> bool:
    """Whether a roll hits with a checker of the mover on the bar: every legal
    play enters first, as many checkers as the dice allow."""
    bar = player[BAR]
    if a == b:
        entry = BAR - a
        if theirs[entry] >= 2:
            return False   # nothing can be played
        if theirs[entry] == 1:
            return True    # every legal play enters there
        if bar >= 4:
            return False
        starts = [p for p in range(1, 25) if player[p] or p == entry]   # every checker of the bar entered
        return _double_hits(theirs, starts, a, 4 - bar)
    if bar >= 2:   # each die that can enter enters, and nothing else moves
        return theirs[BAR - a] == 1 or theirs[BAR - b] == 1
    undecided = False
    starts = [p for p in range(1, 25) if player[p]]
    for x, y in ((a, b), (b, a)):
        entry = BAR - x
        if theirs[entry] >= 2:
            continue
        if theirs[entry] == 1:   # a hit entering: legal if die y can be played after it
            if _plays_after(player, theirs, BAR, entry, y):
                return True
            undecided = True
        # entered, a hit with die y by the entered checker or another: both dice played
        if entry - y >= 1 and theirs[entry - y] == 1:
            return True
        for s in starts:
            if s - y >= 1 and theirs[s - y] == 1:
                return True
    if not undecided:
        return False
    # only a hit entering that leaves the other die unplayable: legal when no play takes both dice (every play
    # of both dice was looked at above, and none hits), and then the higher die enters if it can, else the lower
    for x, y in ((a, b), (b, a)):
        if theirs[BAR - x] < 2 and _plays_after(player, theirs, BAR, BAR - x, y):
            return False
    die = max(a, b) if theirs[BAR - max(a, b)] < 2 else min(a, b)
    return theirs[BAR - die] == 1


def _mixed_hits(player, theirs, starts, a: int, b: int) -> bool | None:
    """Whether a mixed roll hits (no checker of the mover on the bar); None when
    only a hit that leaves the other die unplayable was found."""
    undecided = False
    for x, y in ((a, b), (b, a)):
        for s in starts:
            t = s - x
            if t < 1 or theirs[t] >= 2:
                continue
            if theirs[t] == 1:   # a hit with die x: legal if die y can be played after it
                if _plays_after(player, theirs, s, t, y):
                    return True
                undecided = True
            else:
                u = t - y   # the same checker on with die y
                if u >= 1 and theirs[u] == 1:
                    return True
    return None if undecided else False


def _one_die_hits(player, theirs, starts, a: int, b: int) -> bool:
    """Whether a mixed roll hits when :func:`_mixed_hits` found only hits that
    leave the other die unplayable (no checker of the mover on the bar). It
    found every hit of a play that takes both dice, so such a play hits only
    when no play takes both dice; then the higher die is played if it can be,
    else the lower, and the roll hits when that die hits from where a checker
    stands."""
    home = not any(player[OUTSIDE_HOME])   # (none on the bar)
    for x, y in ((a, b), (b, a)):
        for s in starts:
            t = s - x
            if t >= 1:
                if theirs[t] >= 2:
                    continue
            elif not (home and (t == 0 or all(not player[p] for p in range(s + 1, 7)))):
                continue   # no bear-off: a checker outside, or one above s with a die too big for s
            else:
                t = 0      # borne off
            if _plays_after(player, theirs, s, t, y):
                return False
    die = max(a, b) if _plays_after(player, theirs, 0, 0, max(a, b)) else min(a, b)
    return any(s - die >= 1 and theirs[s - die] == 1 for s in starts)


def _played_twice(player, theirs, starts) -> set[int]:
    """The dice that two checkers or more can play on the board (no checker of the mover on the bar)."""
    found = set()
    for die in FACES:
        movers = 0
        for p in starts:
            if p > die and theirs[p - die] < 2:
                movers += player[p]
                if movers >= 2:
                    found.add(die)
                    break
    return found


def _plays_after(player, theirs, s: int, t: int, y: int) -> bool:
    """Whether die ``y`` can be played once a checker has moved from ``s`` to ``t`` (no checker on the bar;
    ``t`` 0: borne off; ``s`` and ``t`` 0: as the checkers stand)."""
    highest = 0
    outside = False
    for p in range(24, 0, -1):
        count = player[p] - (p == s) + (p == t)
        if not count:
            continue
        if not highest:
            highest = p
        if p > HOME:
            outside = True
        if p - y >= 1 and theirs[p - y] < 2:
            return True
    # a bear-off: every checker home, and one on point y or none above it
    return not outside and highest > 0 and (player[y] - (y == s) + (y == t) > 0 or highest < y)


def _double_hits(theirs, starts, a: int, steps: int) -> bool:
    """Whether a double with ``steps`` steps of ``a`` to play hits (no checker
    of the mover on the bar): whether a checker reaches a blot in at most
    ``steps`` steps, each point on the way open. Such a hit is always in a
    legal play. Take a legal play P (as many steps as can be played, the one
    rule a double's play must keep) and, of the checkers on the point that
    reaches the blot in k steps, the one c that P moves farthest. If P moves
    c k steps or more, P takes it over the same points and hits. If P moves
    c j < k steps, play c's k steps first (the way is open), then P's other
    steps in P's order, the last k - j of them left out: each is still legal
    (c stands lower than it does in P, which keeps a bear-off legal, and the
    blot hit leaves its point open), the play has as many steps as P, and it
    hits. tests/test_dice_shots.py compares this with the generator."""
    for s in starts:
        for k in range(1, steps + 1):
            t = s - k * a
            if t < 1 or theirs[t] >= 2:
                break
            if theirs[t] == 1:
                return True
    return False


__all__ = ["hitting_rolls"]
