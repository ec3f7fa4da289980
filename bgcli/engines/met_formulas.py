"""Match equity tables computed by bgcli from a published formula, not copied from a file.

A formula gives the chance of winning at the scores where both players need two points or more
(pre-Crawford). The rest of a table follows from it by the game's arithmetic, the same for every
formula here:

- **post-Crawford**: the trailer doubles at once, so ``n``-away against 1-away is the average of
  ``(n-2)``-away (a single game won) and, at the gammon rate, ``(n-4)``-away (a gammon), less the
  leader's free drop at 2-away and 4-away: GNU Backgammon's recursion for extending a table
  (:func:`bgcli.engines.met_tables.extended_post_crawford`), started from nothing;
- **the Crawford game** (1-away against ``n``-away, no cube): the leader wins it (half the time,
  a single game) and the match, or loses a single game or a gammon and meets the trailer's
  post-Crawford chance at ``n-1`` or ``n-2`` away, at the same gammon rate.

Sources:

- Woolsey's formula: Kit Woolsey, *How to Play Tournament Backgammon* (Gammon Press, 1993): the
  leader's chance of winning is 50% plus 85% of the difference in points needed divided by the
  trailer's points needed plus 6, ``0.5 + 0.85 * D / (T + 6)``. Near the end of a long match the
  formula passes the leader's chance one point closer (and past 100%): bgcli caps a pre-Crawford
  figure at the leader's chance one point nearer the end (1-away: the Crawford game), as a better
  score can never be worth less.
"""
from __future__ import annotations

from bgcli.engines.met_tables import POST_GAMMON_RATE, MatchEquityTable, extended_post_crawford

SIZE = 25   # the published size of the tables bgcli computes; past it, the usual extension


def woolsey(away: int, opponent_away: int) -> float:
    """Woolsey's formula (see the module): the chance of winning of the player ``away`` against
    ``opponent_away``, both 2 or more away, uncapped."""
    if away == opponent_away:
        return 0.5
    leader, trailer = min(away, opponent_away), max(away, opponent_away)
    lead = 0.5 + 0.85 * (trailer - leader) / (trailer + 6)
    return lead if away == leader else 1.0 - lead


def formula_table(name: str, formula, source: str, size: int = SIZE) -> MatchEquityTable:
    """The table of ``formula`` (the pre-Crawford chance of ``away`` against ``opponent_away``) to
    ``size``-away: the Crawford row and the post-Crawford row from the game's arithmetic (see the module),
    each pre-Crawford figure capped by the leader's chance one point nearer the end."""
    post = extended_post_crawford([], size)   # the trailer's chance n-away after the Crawford game

    def trailer_after(n: int) -> float:
        return 1.0 if n <= 0 else post[n - 1]

    # the leader 1-away in the Crawford game against n-away (1-away against 1-away: one game, 0.5)
    crawford = [0.5] + [0.5 + 0.5 * (1 - POST_GAMMON_RATE) * (1.0 - trailer_after(n - 1))
                        + 0.5 * POST_GAMMON_RATE * (1.0 - trailer_after(n - 2)) for n in range(2, size + 1)]
    lead = [[0.5] * size for _ in range(size)]
    for j in range(1, size + 1):
        lead[0][j - 1] = crawford[j - 1]
    for i in range(2, size + 1):
        for j in range(i + 1, size + 1):
            lead[i - 1][j - 1] = min(formula(i, j), lead[i - 2][j - 1])
    pre = tuple(tuple(lead[i][j] if i <= j else 1.0 - lead[j][i] for j in range(size)) for i in range(size))
    return MatchEquityTable(name, pre, tuple(post), source)


def woolsey_table(size: int = SIZE) -> MatchEquityTable:
    """Woolsey's formula as a table (see the module)."""
    return formula_table("Woolsey-formula", woolsey, WOOLSEY_SOURCE, size)


WOOLSEY_SOURCE = ("Kit Woolsey's formula, How to Play Tournament Backgammon (1993): the leader's chance "
                  "0.5 + 0.85 D / (T + 6); computed by bgcli to 25 points, Crawford and post-Crawford by the "
                  "game's arithmetic at a 25% gammon rate")

__all__ = ["SIZE", "WOOLSEY_SOURCE", "formula_table", "woolsey", "woolsey_table"]
