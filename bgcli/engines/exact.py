"""The ``exact`` backend: bgcli's own figures where they are exact, with no network and nothing to install.

It judges a bear-off with no contact (every checker of both sides in its
home board or off) in which both sides have borne off a checker of their own
(core.value.possible_wins: in hypergammon the checkers a side lacks count as
off from the start, and do not count here), so that no gammon is possible:
the chance of winning is the chance of bearing off first, from the one-sided tables of :mod:`bgcli.analysis.bearoff` (each side
playing to need the fewest rolls on average, as GNU Backgammon's one-sided
database assumes). The figures are cubeless: the equity of a money game is
``2 * win - 1`` and a match's is the normalised equity of the cubeless match
winning chance. Any other position, and a cube decision, is refused with an
EngineError that says why: ask ``sage`` or ``gnubg``.

Where both sides have 1 to 6 checkers left (the two-sided tables of
:mod:`bgcli.analysis.bearoff2`), the figures are cubeful and exact: plays,
the position and the cube decision, in money play from the cached money table
and in match play through the match equity table (:mod:`bgcli.engines.met`),
worked out for the score asked. :func:`inside`, :func:`table_plays`,
:func:`table_evaluation` and :func:`table_cube_decision` are the same figures
for another engine (``sage`` answers from them wherever they reach).

The level is accepted and ignored: the answer is the same at every depth.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from functools import lru_cache

from bgcli.analysis import bearoff, bearoff2
from bgcli.core.position import CHECKERS, OFF, Position
from bgcli.core.rules import Variation
from bgcli.core.value import Win, possible_wins
from bgcli.engines import met, trust
from bgcli.engines.protocol import CubeDecision, Evaluation, Level, PlayEvaluation
from bgcli.errors import EngineError

if TYPE_CHECKING:
    from bgcli.core.generator import Play
    from bgcli.engines.met_tables import MatchEquityTable
    from bgcli.core.state import GameState


def gammon_possible(position: Position, variation: Variation) -> bool:
    """Whether either side of ``position`` may still lose a gammon, as core.value.possible_wins says
    (a side that has borne off none of its own checkers; in hypergammon the ones the variant lacks count
    as off from the start, so a raw off count of 13 is still none of its own)."""
    # contact only decides a backgammon, which a gammon's chance already implies
    return any(Win.GAMMON in possible_wins(position, winner_is_player=player, contact=False, variation=variation)
               for player in (True, False))


def problem(position: Position, variation: Variation) -> str:
    """Why the exact engine cannot judge ``position`` of a game of ``variation``, or ''."""
    homes = [bearoff.home_counts(side) for side in (position.player, position.opponent)]
    if None in homes:
        return "it judges only bear-offs with no contact (every checker home or off)"
    if gammon_possible(position, variation):
        return "it judges only bear-offs in which both sides have borne off a checker of their own (no gammon possible)"
    return ""


# --- the two-sided tables: cubeful and exact where both sides have 1 to 6 checkers left ----------------

def inside(state: "GameState") -> bool:
    """Whether the two-sided tables answer for ``state``: no contact, 1 to 6 checkers left a side, no cube
    limit in the rules, no gammon possible (the tables count none: in the standard game 6 left is 9 off, in hypergammon a side
    may have all its checkers home and none off), and in match play a pair whose figures are quick to work
    out at the score (``bearoff2.MATCH_WORK``)."""
    position = state.position
    homes = [bearoff.home_counts(side) for side in (position.player, position.opponent)]
    if not all(h is not None and 0 < sum(h) <= bearoff2.CHECKERS for h in homes):
        return False
    if gammon_possible(position, state.match.rules.variation):
        return False
    if state.match.rules.cube_limit:
        # the tables' cube may always be turned again (bearoff2.MatchTable.may_double mirrors the rules
        # without a limit): a limit changes every figure a turn past it would reach
        return False
    side = met.MatchSide.of(state)
    return side.is_money or _match_table(side.crawford, None, side.crawford_rule).work(*_homes(position)) <= bearoff2.MATCH_WORK


def _owner(state: "GameState") -> bearoff2.Owner:
    owner = state.match.cube_owner
    if owner < 0:
        return bearoff2.Owner.CENTRED
    return bearoff2.Owner.ON_ROLL if owner == state.match.on_roll else bearoff2.Owner.OPPONENT


@lru_cache(maxsize=None)
def _match_table(crawford: bool, table: "MatchEquityTable | None" = None,
                 crawford_rule: bool = True) -> bearoff2.MatchTable:
    """The match figures of one kind of game (the Crawford game or not) by the match equity table ``table``
    (None: the default), the Crawford rule in force or not, every score kept as it is asked."""
    def payoff(away: int, opponent_away: int, points: int) -> float:
        return met.equity_after(met.MatchSide(away, opponent_away, 1, crawford, table, crawford_rule), points)

    return bearoff2.MatchTable(payoff, crawford)


def _homes(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    mine, theirs = (bearoff.home_counts(side) for side in (position.player, position.opponent))
    assert mine is not None and theirs is not None, "asked outside the two-sided tables"
    return mine, theirs


def _figures(state: "GameState", win: float, money: float, chance: float | None, engine: str, dice=None,
             table: "MatchEquityTable | None" = None) -> Evaluation:
    """An evaluation of the player on roll of ``state``: ``money`` its cubeful money equity, or ``chance`` its
    cubeful match winning chance (normalised as the protocol says, by ``table``)."""
    probs = [win, 0.0, 0.0, 0.0, 0.0]
    side = met.MatchSide.of(state, table=table)
    if side.is_money:
        return trust.evaluation(probs, money, None, engine, state, dice, table)
    assert chance is not None
    return trust.evaluation(probs, met.emg(chance, side), chance, engine, state, dice, table)


def table_evaluation(state: "GameState", engine: str = "exact", table: "MatchEquityTable | None" = None) -> Evaluation:
    """The position of ``state`` before the player on roll rolls, with the proper cube action (``inside`` it);
    match play by the match equity table ``table`` (None: the default)."""
    mine, theirs = _homes(state.position)
    win = bearoff2.table().win(mine, theirs)
    side = met.MatchSide.of(state, table=table)
    if side.is_money:
        return _figures(state, win, bearoff2.cubeful_table().equity(mine, theirs, _owner(state)), None, engine)
    chance = _match_table(side.crawford, table, side.crawford_rule).value(mine, theirs, side.away, side.opponent_away, side.cube, _owner(state))
    return _figures(state, win, 0.0, chance, engine, table=table)


def table_plays(state: "GameState", dice: tuple[int, int], plays: Sequence["Play"], level: int,
                engine: str = "exact", table: "MatchEquityTable | None" = None) -> list[PlayEvaluation]:
    """Each of ``plays`` with its exact cubeful value for the player who moves, best first (``inside`` it);
    match play by the match equity table ``table`` (None: the default)."""
    side = met.MatchSide.of(state, table=table)
    owner = _owner(state)
    found = {}
    for play in plays:
        mover, theirs = _homes(play.result)
        win = 1.0 if not sum(mover) else 1.0 - bearoff2.table().win(theirs, mover)
        if side.is_money:
            found[trust.result_key(play)] = _figures(state, win, bearoff2.cubeful_table().after_play(mover, theirs, owner),
                                                     None, engine, dice)
        else:
            chance = _match_table(side.crawford, table, side.crawford_rule).after_play(mover, theirs, side.away, side.opponent_away, side.cube,
                                                                   owner)
            found[trust.result_key(play)] = _figures(state, win, 0.0, chance, engine, dice, table)
    return trust.ranked(found, plays, engine, state, dice, dict.fromkeys(found, level))


def table_cube_decision(state: "GameState", engine: str = "exact", table: "MatchEquityTable | None" = None) -> CubeDecision:
    """The cube turn of the player on roll of ``state``: the equities after no double, double/take and
    double/pass (``inside`` the tables; whether the player may double at all is the cube module's to say);
    match play by the match equity table ``table`` (None: the default)."""
    mine, theirs = _homes(state.position)
    probs = [bearoff2.table().win(mine, theirs), 0.0, 0.0, 0.0, 0.0]
    side = met.MatchSide.of(state, table=table)
    owner = _owner(state)
    if side.is_money:
        nd, dt, dp = bearoff2.cubeful_table().decision(mine, theirs, owner)
        return trust.cube_decision(probs, nd, dt, dp, engine, state)
    chances = _match_table(side.crawford, table, side.crawford_rule).decision(mine, theirs, side.away, side.opponent_away, side.cube, owner)
    nd, dt, dp = (met.emg(c, side) for c in chances)
    return trust.cube_decision(probs, nd, dt, dp, engine, state, tuple(chances))


class ExactEngine:
    """Exact cubeless figures of bear-offs without contact or gammons."""

    name = "exact"

    def __init__(self, level: Level = Level(2), *, timeout: float = 60.0, met: "MatchEquityTable | None" = None):
        self.level = level
        self.met = met
        self.timeout = timeout

    def _win(self, on_roll: Sequence[int], opponent: Sequence[int]) -> float:
        table = bearoff.table()
        mine, theirs = (table.dist(bearoff.home_counts(side) or ()) if side[OFF] < CHECKERS else ()
                        for side in (on_roll, opponent))
        return bearoff.race_win(mine, theirs)

    def _checked(self, state: "GameState", position: Position, dice=None) -> None:
        why = problem(position, state.match.rules.variation)
        if why:
            raise EngineError(f"the exact engine cannot judge {trust.where(state, dice)}: {why}")

    def _evaluation(self, state: "GameState", win: float, dice=None) -> Evaluation:
        probs = trust.probabilities((win, 0.0, 0.0, 0.0, 0.0), self.name, state, dice)
        return trust.cubeless(probs, state, self.met)

    def evaluate(self, state: "GameState") -> Evaluation:
        position = state.position
        if inside(state):
            return table_evaluation(state, self.name, self.met)
        self._checked(state, position)
        return self._evaluation(state, self._win(position.player, position.opponent))

    def evaluate_plays(self, state: "GameState", dice: tuple[int, int], plays: Sequence["Play"], *,
                       force: Sequence["Play"] = ()) -> list[PlayEvaluation]:
        if inside(state):
            return table_plays(state, dice, plays, self.level.ply, self.name, self.met)
        self._checked(state, state.position, dice)
        found = {}
        for play in plays:
            after = play.result  # still seen by the mover, whose opponent rolls next
            win = 1.0 if after.player[OFF] == CHECKERS else 1.0 - self._win(after.opponent, after.player)
            found[trust.result_key(play)] = self._evaluation(state, win, dice)
        return trust.ranked(found, plays, self.name, state, dice, dict.fromkeys(found, self.level.ply))

    def cube_decision(self, state: "GameState") -> CubeDecision:
        if inside(state):
            return table_cube_decision(state, self.name, self.met)
        raise EngineError(f"the exact engine cannot judge the cube in {trust.where(state)}: its cubeful figures "
                          f"reach bear-offs of 1 to {bearoff2.CHECKERS} checkers a side without contact (in match play, "
                          f"of at most {bearoff2.MATCH_WORK:,} pairs to work out; ask sage or gnubg)")

    def close(self) -> None:
        pass
