"""Match equity: the chance of winning a match from a score, the normalised equity (EMG) it maps to, and
the registry of match equity tables (the one place that knows them).

A table is chosen by name or file (``--met NAME|FILE``: :func:`table_of`) and
travels as one value, :class:`~bgcli.engines.met_tables.MatchEquityTable`:
an engine is opened with it (``open_engine(..., met=table)``) and puts it in
every :class:`MatchSide` it makes, so every figure of a judgement comes from
the same table. ``None`` everywhere means the default, Kazaross-XG2 (the
table of GNU Backgammon, eXtreme Gammon and bgsage by default).

The tables computed from a published formula (``FORMULAS``: Woolsey's) are
bgcli's own computation (:mod:`bgcli.engines.met_formulas`, which cites
each source). The known tables (``KNOWN``) are figures as their authors published them,
carried in ``bgcli/engines/tables/`` in GNU Backgammon's XML with the notice
of each file kept (each allows copying with it), except Zadeh's, a model
whose figures bgcli takes from GNU Backgammon's computation (the file says
how). Past a table's published size bgcli extends it as GNU Backgammon does
(:func:`bgcli.engines.met_tables.extended_mwc`: a normal approximation of the
rest of the match, and the trailer's immediate double post-Crawford), so a
25-point table answers a 40-point match the way gnubg would.

Scores are "points away": ``away`` is what the player still needs, ``0`` or
less means the match is won. A score where one side is 1-away is either the
Crawford game (no cube) or post-Crawford (the trailer's free drop), and the
two have different values: :class:`MatchSide` says which.

The cube is never worth more than the points the winner still needs: winning
4 points when 2 are needed wins the match and no more, so the table needs no
cap; the rule profiles that cap the stake by the points needed
(``Rules.cube_cap_needed``) give the same match winning chances.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from bgcli.core.rules import one_away_left, points_away
from bgcli.engines.met_formulas import WOOLSEY_SOURCE, woolsey_table
from bgcli.engines.met_tables import MatchEquityTable, read_table
from bgcli.errors import MatchEquityTableError

if TYPE_CHECKING:
    from bgcli.core.state import GameState

TABLE_NAME = "Kazaross-XG2"
_FOLDER = Path(__file__).with_name("tables")


@dataclass(frozen=True)
class KnownTable:
    """A table bgcli carries: its name, its file in ``bgcli/engines/tables/``, where its figures were published,
    and other names it answers to (any letter case)."""

    name: str
    file: str
    source: str
    aliases: tuple[str, ...] = ()


# The default first. Each file keeps its authors' notice; the source is where the figures were published.
KNOWN = (
    KnownTable("Kazaross-XG2", "Kazaross-XG2.xml",
               "Neil Kazaross (2011): eXtreme Gammon rollouts to 9 points, then the Rockwell-Kazaross table, extended "
               "to 25 points by projecting take points; GNU Backgammon's Kazaross-XG2.xml, its default, and "
               "eXtreme Gammon's and bgsage's", ("kxg2", "xg2", "kazaross")),
    KnownTable("Rockwell-Kazaross", "Rockwell-Kazaross.xml",
               "David Rockwell and Neil Kazaross (2008-2010): GNU Backgammon Supremo full rollouts to 15 points, "
               "extended to 25 by projecting take points; GNU Backgammon's Rockwell-Kazaross.xml", ("rk", "rockwell")),
    KnownTable("G11", "g11.xml",
               "Robert-Jan Veldhuizen (Zorba, 2003-2004): GNU Backgammon 0.14 full rollouts to 11 points, extended "
               "to 25 with Claes Tornberg's match equity calculator; GNU Backgammon's g11.xml", ("gnubg11",)),
    KnownTable("Zadeh", "zadeh.xml",
               "N. Zadeh, On Doubling in Tournament Backgammon, Management Science 23 (1977): the model with "
               "GNU Backgammon's zadeh.xml parameters, its figures as GNU Backgammon 1.07 computes them, to 25 points", ()),
    KnownTable("Woolsey", "woolsey.xml",
               "Kit Woolsey, Inside Backgammon vol. 2 no. 2 (March-April 1992), to 15 points", ("kit-woolsey",)),
    KnownTable("Jacobs-Trice", "jacobs.xml",
               "Jake Jacobs and Walter Trice, Can a Fish Taste Twice as Good (1996), to 25 points", ("jacobs",)),
    KnownTable("Snowie", "snowie.xml", "the table of Snowie 2.1 (Oasya, 1999), to 15 points", ("snowie21",)),
    KnownTable("Ortega-Kleinman", "ortega.xml",
               "Danny Kleinman and Antonio Ortega, Backgammon With the Giants (Neil Kazaross, 2001), to 15 points",
               ("ortega", "kleinman")),
    KnownTable("MEC26", "mec26.xml",
               "Claes Tornberg's match equity calculator mec (1996), gammon rate 0.26, even players, to 25 points",
               ("mec", "tornberg")),
)
# Tables bgcli computes from a published formula (bgcli/engines/met_formulas.py, which cites each): no file.
FORMULAS = (
    KnownTable("Woolsey-formula", "", WOOLSEY_SOURCE, ("woolseys-formula", "woolsey-law")),
)
KNOWN_NAMES = tuple(known.name for known in KNOWN + FORMULAS)


def _known(name: str) -> KnownTable | None:
    wanted = name.strip().lower()
    for known in KNOWN + FORMULAS:
        if wanted == known.name.lower() or wanted in known.aliases or \
                (known.file and wanted == known.file.lower().removesuffix(".xml")):
            return known
    return None


@lru_cache(maxsize=None)
def known_table(name: str) -> MatchEquityTable:
    """The table bgcli carries or computes under ``name`` (or one of its other names)."""
    known = _known(name)
    if known is None:
        raise MatchEquityTableError(f"not a table bgcli knows (expected one of {', '.join(KNOWN_NAMES)}, or a file)", name)
    if not known.file:
        return woolsey_table()
    found = read_table(str(_FOLDER / known.file))
    return MatchEquityTable(known.name, found.pre, found.post, known.source)


def default_table() -> MatchEquityTable:
    """Kazaross-XG2, the table every engine uses unless told otherwise."""
    return known_table(TABLE_NAME)


def table_of(spec: "str | MatchEquityTable | None") -> MatchEquityTable:
    """The table ``spec`` names: a known table's name, a file (gnubg's XML or CSV), the table itself, or None
    (the default). A name that is neither is a MatchEquityTableError naming it and the known tables."""
    if spec is None:
        return default_table()
    if isinstance(spec, MatchEquityTable):
        return spec
    if _known(spec) is not None:
        return known_table(spec)
    if os.path.exists(spec) or os.sep in spec or spec.lower().endswith((".xml", ".csv", ".txt")):
        return read_table(spec)
    return known_table(spec)


def engine_problem(engine: str, table: MatchEquityTable | None) -> str:
    """Why the engine named ``engine`` cannot judge match play with ``table`` ('' when it can): bgsage
    computes its cubeful match equities with its own Kazaross-XG2 table and cannot be given another."""
    if engine.lower() == "sage" and not is_default(table):
        assert table is not None
        return (f"the sage engine judges match play with its own {TABLE_NAME} table only: for the table "
                f"{table.name} use --engine gnubg (or exact, in bear-offs)")
    return ""


def is_default(table: MatchEquityTable | None) -> bool:
    """Whether ``table`` has the default's figures (by figures: a user's copy of Kazaross-XG2 is the default)."""
    if table is None:
        return True
    default = default_table()
    return table.pre == default.pre and table.post == default.post


@dataclass(frozen=True)
class MatchSide:
    """The match as the player it is seen by: points away for both sides, the cube, and the Crawford state.

    ``away == opponent_away == 0`` is money play."""

    away: int = 0
    opponent_away: int = 0
    cube: int = 1
    crawford: bool = False       # this game is the Crawford game (no cube)
    table: MatchEquityTable | None = None   # the match equity table (None: the default)
    # the Crawford rule is in force (the rules say: Rules.in_force("crawford"); --no-crawford turns it off):
    # without it no game is the Crawford game, nor after it, and a side one away may be doubled at once
    crawford_rule: bool = True

    @property
    def is_money(self) -> bool:
        return self.away == 0 and self.opponent_away == 0

    @property
    def post_crawford(self) -> bool:
        """Whether this game is after the Crawford game: the Crawford rule in force, and a side one away
        (the rules' word) in a game that is not the Crawford game itself. Without the rule there is no
        Crawford game and none after it."""
        return (self.crawford_rule and not self.is_money and not self.crawford
                and one_away_left((self.away, self.opponent_away)))

    @property
    def crawford_to_come(self) -> bool:
        """Whether a score one away that this game's end reaches makes the next game the Crawford game:
        the Crawford rule in force, and this game neither the Crawford game nor after it. Else a game at
        one away has the cube (the post-Crawford figures: with the rule off, every game at one away)."""
        return self.crawford_rule and not self.crawford and not self.post_crawford

    def flipped(self) -> "MatchSide":
        return MatchSide(self.opponent_away, self.away, self.cube, self.crawford, self.table, self.crawford_rule)

    @classmethod
    def of(cls, state: "GameState", player: int | None = None, table: MatchEquityTable | None = None) -> "MatchSide":
        """The match of ``state`` as ``player`` (gnubg's 0 or 1; the player on roll by default) sees it, judged
        with ``table`` (None: the default)."""
        match = state.match
        me = match.on_roll if player is None else player
        if not match.match_length:
            return cls(0, 0, match.cube, False, table)
        return cls(points_away(match.match_length, match.score, me), points_away(match.match_length, match.score, 1 - me), match.cube,
                   match.crawford, table, bool(match.rules.in_force("crawford")))


def mwc_at(away: int, opponent_away: int, crawford_played: bool = True, table: MatchEquityTable | None = None) -> float:
    """The match winning chance before a game at this score, by ``table`` (None: the default). At a score
    where a side is 1-away, ``crawford_played`` False means this game is the Crawford game; True (the
    default) that the Crawford game is over (post-Crawford)."""
    if away == 1 and opponent_away == 1:
        return 0.5
    return (table or default_table()).mwc(away, opponent_away, bool(crawford_played))


def equity_after(side: MatchSide, points_won: int) -> float:
    """The match winning chance after this game ends with the player winning (positive) or losing ``points_won``."""
    away, opp = side.away, side.opponent_away
    if points_won > 0:
        opp_left, my_left = opp, away - points_won
    else:
        opp_left, my_left = opp + points_won, away
    # a score reached at 1-away by the end of a game before the Crawford game makes the next one the
    # Crawford game, where the rule is in force (MatchSide.crawford_to_come asks it)
    return mwc_at(my_left, opp_left, not side.crawford_to_come, side.table)


def win_lose(side: MatchSide) -> tuple[float, float]:
    """The match winning chances after winning and after losing a single game at the current cube."""
    return equity_after(side, side.cube), equity_after(side, -side.cube)


def emg(mwc: float, side: MatchSide) -> float:
    """A match winning chance as normalised equity: +1 winning a single game at the cube, -1 losing one."""
    win, lose = win_lose(side)
    return 2.0 * (mwc - lose) / (win - lose) - 1.0


def mwc(equity: float, side: MatchSide) -> float:
    """The inverse of :func:`emg`. A chance a rounding error puts a hair outside 0 to 1 is put back; one
    further out is left as it is, for the checks to refuse (the equity it came from was impossible)."""
    win, lose = win_lose(side)
    found = lose + (equity + 1.0) / 2.0 * (win - lose)
    return min(max(found, 0.0), 1.0) if -1e-6 < found < 1.0 + 1e-6 else found


def cubeless_mwc(probabilities, side: MatchSide, worth: Sequence[int]) -> float:
    """The match winning chance of cubeless outcome probabilities (a bgcli Probabilities) at the current
    cube, a single win, a gammon and a backgammon counting ``worth`` times it (``core.value.cubeless_worth``)."""
    p = probabilities
    single, gammon, backgammon = (n * side.cube for n in worth)
    single_win = p.win - p.win_gammon
    gammon_win = p.win_gammon - p.win_backgammon
    single_loss = p.lose - p.lose_gammon
    gammon_loss = p.lose_gammon - p.lose_backgammon
    return (single_win * equity_after(side, single) + gammon_win * equity_after(side, gammon)
            + p.win_backgammon * equity_after(side, backgammon)
            + single_loss * equity_after(side, -single) + gammon_loss * equity_after(side, -gammon)
            + p.lose_backgammon * equity_after(side, -backgammon))
