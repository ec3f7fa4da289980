"""Hypothesis strategies of positions shared by the tests: one generator of a kind, imported where it is
needed (``from generated import positions``), so that two copies cannot drift apart."""
from __future__ import annotations

from hypothesis import strategies as st

from bgcli.core.position import BAR, CHECKERS, OFF, POINTS, Position


@st.composite
def positions(draw) -> Position:
    """Random legal positions: bar, contact, races and bear-offs."""
    kind = draw(st.sampled_from(["any", "home", "race", "bar"]))
    player = [0] * 26
    opponent = [0] * 26
    player[BAR] = draw(st.integers(1, 3)) if kind == "bar" else 0
    top = 6 if kind == "home" else draw(st.sampled_from([6, 9, 12, 24]))
    for _ in range(draw(st.integers(1, 15 - player[BAR]))):
        player[draw(st.integers(1, top))] += 1
    lowest = min(p for p in range(1, 26) if player[p])
    for _ in range(draw(st.integers(1, 15))):
        mine = draw(st.integers(1, 24))  # the point in the mover's numbering
        if player[mine] or (kind == "race" and mine >= lowest):
            continue
        opponent[25 - mine] += 1
    if kind in ("any", "bar") and sum(opponent) < 15:
        opponent[BAR] = draw(st.integers(0, min(2, 15 - sum(opponent))))
    player[OFF] = 15 - sum(player)
    opponent[OFF] = 15 - sum(opponent)
    return Position(tuple(player), tuple(opponent)).validated()


@st.composite
def any_positions(draw) -> Position:
    """Any legal position: each side's 15 checkers on points, bar or off; a point both would hold is the player's
    (the opponent's checkers there go to its bar)."""
    player, opponent = [0] * 26, [0] * 26
    for side in (player, opponent):
        for _ in range(CHECKERS):
            side[draw(st.integers(OFF, BAR))] += 1
    for p in POINTS:   # written out, not asked of the owner: the owner is what the tests test
        if player[p] and opponent[25 - p]:
            opponent[BAR] += opponent[25 - p]
            opponent[25 - p] = 0
    return Position(tuple(player), tuple(opponent)).validated()
