"""One self-contained HTML page for replayed matches: ``bgcli view``.

The page shows the title, the players, the match length, the game-by-game
score, the audit's problems and the move list; selecting a row (click, the
arrow keys, Home/End, ``n``/``p`` for the next/previous problem) draws the
board before that action and shows its Position ID and Match ID.

The page holds no picture per row: each row carries its Position ID and
Match ID (26 characters), and the page's script (``view.js``) draws the
selected row's board from them, element for element as
``bgcli.render.board.svg_board`` draws it (the tests compare the two texts
in a browser), so the page and ``bgcli show --svg`` never disagree. The
bear-off odds are shared: one entry per distinct side all home, and each
row names its two. Each game's rows are a table of their own, laid out by
the browser only when they come into view. A 200-match file (42,420 rows)
makes an 8 MB page (it was 38 MB with one SVG per row), built in about
two and a half to three times its audit: the replay with its events
remembers each play it has worked out (a long session meets the same
plays again), each row's Position ID is made from its two sides' halves
(each side met twice) and most rows are written by one format.

A page is made as its matches are replayed (:class:`Page`): the rows of the
games replayed are written out to a temporary file every ``HELD_ROWS``
actions, so a session of any length holds a few games at a time (a 10,000-game
session held whole took 915 MiB); the summary, which comes first, is written
at the end, with the rows after it.

The page needs nothing outside itself: inline CSS and script, system fonts,
no URLs. ``#step=N`` in the address selects row N (rows count from 0), which
makes a position linkable and lets a headless browser test the page.
"""
from __future__ import annotations

from array import array
import bisect
import contextlib
import enum
import functools
import gc
import html
import json
import re
import os
from string import Template
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Iterator, Sequence, TypeVar

from bgcli.core.cube import value_reached
from bgcli.core.ids import MATCH_ID_LENGTH, match_id
from bgcli.core.position import CHECKERS, OUTSIDE_HOME, Position, id_of_halves, shared_point, side_bits
from bgcli.core.state import GameState, MatchState
from bgcli.core.value import Outcome
from bgcli.render.board import COLOURS, GEOMETRY, drawable, svg_board
from bgcli.match.replay import Event, EventKind, GameResult, MatchReplay, Problem, ProblemKind, Unfinished
from bgcli.match.events import ROLLED_THEN_RESIGNED
from bgcli.match.visitor import ReplayBuilder
from bgcli.core.spelling import recorded_text

# Inline SVG in HTML needs no namespace declaration; leaving it out keeps the
# page free of anything that looks like an address.
_SVG_NAMESPACE = ' xmlns="http://www.w3.org/2000/svg"'
BOARD_SIZE = 640


@dataclass(slots=True)
class _Step:
    """One selectable row: an event, or the end of a game that has no 'Wins' line."""

    number: int
    replay: MatchReplay
    game: int
    line: int
    state: GameState
    event: Event | None
    problems: list[Problem] = field(default_factory=list)
    pid: str = ""
    mid: str = ""
    draw: str = ""        # the Match ID the board is drawn with, when no Match ID carries the row's state
    no_board: str = ""    # why no board is drawn (counts no Position ID can hold)
    bearoff: str = ""     # "i,j": the entries in the page's table of sides all home (on roll, opponent; '' if not home)


def _match_steps(replay: MatchReplay, events: Sequence[Event], records: Sequence[GameResult | Unfinished],
                 number: int) -> list[_Step]:
    """The rows of some of a match's games, numbered from ``number``: ``events`` are their actions
    and ``records`` their results (finished or not, in order of line), the whole match or the games
    replayed since its last rows were written."""
    steps: list[_Step] = []
    games: dict[int, list[Event]] = {}
    for event in events:
        games.setdefault(event.game, []).append(event)
    for record in records:
        if record.game not in games:
            # a game with no action recorded: its row shows where it would start
            games[record.game] = []
    for game, actions in sorted(games.items(), key=lambda item: _first_line(item[1], records, item[0])):
        for event in actions:
            steps.append(_Step(number + len(steps), replay, game, event.line, event.before, event))
        if not actions:
            steps.append(_Step(number + len(steps), replay, game, _first_line(actions, records, game),
                               _opening(replay, game), None))
        elif actions[-1].kind not in (EventKind.WIN, EventKind.RESIGN):
            # no 'Wins' line: still let the user see where the game stopped
            steps.append(_Step(number + len(steps), replay, game, actions[-1].line, _after(actions[-1]), None))
    return steps


def _first_line(events: list[Event], records: Sequence[GameResult | Unfinished], game: int) -> int:
    if events:
        return events[0].line
    return next((g.line for g in records if g.game == game), 0)


def _opening(replay: MatchReplay, game: int) -> GameState:
    """The state before the first roll of a game that records no action: the
    opening, or the position, cube and side on roll it is set up with (a
    position saved to be studied is such a game)."""
    score = next((g.score for g in replay.unfinished if g.game == game), (0, 0))
    set_up = replay.set_ups.get(game)
    position, cube, owner, on_roll = Position.start(replay.rules.variation), 1, -1, 1   # the variant's opening
    if set_up is not None and set_up.position is not None:
        position, cube = set_up.position, set_up.cube or 1
        owner = -1 if set_up.cube_owner is None else set_up.cube_owner
        on_roll = 1 if set_up.on_roll is None else set_up.on_roll
    match = MatchState(on_roll=on_roll, turn=on_roll, cube=cube, cube_owner=owner,
                       score=score if replay.length else (0, 0), rules=replace(replay.rules, match_length=replay.length))
    return GameState(position if on_roll == 0 else position.swap(), match)


def _after(event: Event) -> GameState:
    """The state after a game's last recorded action."""
    if event.kind != EventKind.MOVE or event.after is None:
        return event.before
    other = 1 - event.side
    match = replace(event.before.match, on_roll=other, turn=other, dice=(0, 0))
    return GameState(event.after.swap(), match)


_END_ROW = -1   # the player code of a row that is no action (the end of a game)


class _RowIndex:
    """Where each row of one match is, for placing its problems: its line, its game and who acted
    (an index into ``names``; -1 for a game's end row), in page order. Kept in arrays, not rows: a
    long session has hundreds of thousands of rows, written out as its games are replayed."""

    def __init__(self, start: int) -> None:
        self.start = start                       # the page's number of the match's first row
        self.lines = array("q")
        self.games = array("q")
        self.players = array("q")
        self.names: dict[str, int] = {}
        self.ranges: dict[int, list[list[int]]] = {}   # a game's rows: [first, end) runs (its number may come again)
        self.ordered = True                      # lines never go back (a file's order)

    def add(self, step: _Step) -> None:
        i = len(self.lines)
        if i and step.line < self.lines[-1]:
            self.ordered = False
        self.lines.append(step.line)
        self.games.append(step.game)
        event = step.event
        self.players.append(_END_ROW if event is None else self.names.setdefault(event.player, len(self.names)))
        runs = self.ranges.setdefault(step.game, [])
        if runs and runs[-1][1] == i:
            runs[-1][1] = i + 1
        else:
            runs.append([i, i + 1])

    def place(self, problem: Problem, final: bool) -> int | None:
        """The row a problem belongs to (its page number): the action on its line (and of its player),
        else the end of its game, else the nearest row; None while the rows it may belong to are still
        to come (``final``: none are). Rows are looked up by line and game, so a file with many
        problems takes about as long as its audit."""
        lines, players = self.lines, self.players
        if not lines:
            return None
        if self.ordered:
            low = bisect.bisect_left(lines, problem.line)
            same_line = [i for i in range(low, bisect.bisect_right(lines, problem.line, low)) if players[i] != _END_ROW]
        else:
            same_line = [i for i, line in enumerate(lines) if line == problem.line and players[i] != _END_ROW]
        code = self.names.get(problem.player, -2)
        exact = [i for i in same_line if players[i] == code] or same_line
        runs = self.ranges.get(problem.game) if problem.game else None
        if exact:
            row = exact[0]
        elif runs:
            in_game = [i for first, end in runs for i in range(first, end)]
            if problem.kind == ProblemKind.POINTS and players[in_game[-1]] == _END_ROW:
                row = in_game[-1]   # "game N ends without a 'Wins' line": the end row
            else:
                before = bisect.bisect_right([lines[i] for i in in_game], problem.line)
                row = in_game[before - 1] if before else in_game[0]
        else:
            after = bisect.bisect_left(lines, problem.line)
            if not final and (problem.game or after == len(lines)):
                return None   # its game, or a row at its line or after, is still to come
            row = min(after, len(lines) - 1)
        return self.start + row


_Key = TypeVar("_Key")
_Value = TypeVar("_Value")


class _Memo(dict[_Key, _Value]):
    """A cache that works a key's value out (``make(key)``) the first time it is asked for, and keeps
    it; what ``make`` raises reaches the asker and nothing is kept."""

    def __init__(self, make: Callable[[_Key], _Value]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: _Key) -> _Value:
        value = self[key] = self.make(key)
        return value


class _Identifiers:
    """The Position ID and Match ID of each row, and the bear-off table's
    entry of each side all home, each distinct one computed once."""

    def __init__(self) -> None:
        self.mids: dict[MatchState, str] = {}
        self.by_id: dict[int, tuple[MatchState, str]] = {}   # the same by id(), with the state
        self.sides: dict[tuple[int, ...], int] = {}   # a side's six home counts -> its entry
        self.entries: list[list] = []                 # [mean, dist] of each
        self.homes = _Memo(self._side_entry)   # a side's 26 counts -> its entry as text, '' if not all home
        # a side's 26 counts -> its half of a Position ID (bits, bit length) and whether it is all home:
        # each side is met twice or more (on roll, then unchanged as the opponent of the next row)
        self.halves = _Memo(_half)
        self.right = _Memo(_right)   # a side's counts -> whether they are right

    def bound(self, most: int = 50_000) -> None:
        """Forget what was computed once a cache holds more than ``most`` entries (a long session
        meets ever new positions); the bear-off table's entries stay, rows name them."""
        for cache in (self.mids, self.by_id, self.homes, self.halves, self.right):
            if len(cache) > most:
                cache.clear()

    def fill(self, step: _Step) -> None:
        """A row's IDs: a transcript gone wrong can hold a state no Match ID
        carries (games played after the match was won, a cube of 3): that board
        is drawn as near as can be and the Match ID text says why there is none;
        counts no Position ID can hold get no board, rather than the page failing."""
        state = step.state
        position = state.position
        player, opponent = position.player, position.opponent
        halves = self.halves
        try:
            mine, theirs = halves[player], halves[opponent]
            pid = id_of_halves(theirs[:2], mine[:2])
        except (ValueError, OverflowError, TypeError):
            try:   # counts no Position ID can hold: position_id's own words for why
                step.pid = position.id()
            except (ValueError, OverflowError) as exc:
                step.pid = step.mid = "none"
                step.no_board = str(exc)
                return
            step.bearoff = self._bearoff(position)
        else:
            step.pid = pid
            if mine[2] or theirs[2]:
                # what _bearoff says: with both sides' counts right (each side checked once),
                # position.problem() can only be a point held by both
                right = self.right
                flawed = not (right[player] and right[opponent]) or shared_point(player, opponent)
                step.bearoff = "" if flawed else self._entries(player, opponent)
        match = state.match
        # the replay shares its match states: found by identity (the entry keeps the state alive, so
        # its id is no other's), else by value
        known = self.by_id.get(id(match))
        if known is not None and known[0] is match:
            step.mid = known[1]
            return
        mid = self.mids.get(match)
        if mid is None:
            drawn, problem = drawable(state)
            if problem:
                step.mid, step.draw = f"none ({problem})", match_id(drawn.match)
                return
            mid = self.mids[match] = match_id(match)
        self.by_id[id(match)] = (match, mid)
        step.mid = mid

    def _bearoff(self, position: Position) -> str:
        """The entries of the sides all home (bgcli.analysis.bearoff), '' when neither is."""
        player, opponent = position.player, position.opponent
        if any(player[OUTSIDE_HOME]) and any(opponent[OUTSIDE_HOME]):
            return ""
        if position.problem():   # a flawed record's board: no odds
            return ""
        return self._entries(player, opponent)

    def _entries(self, player: tuple[int, ...], opponent: tuple[int, ...]) -> str:
        """The two sides' entries in the page's table of sides all home, as a row names them."""
        # each side is met twice or more (on roll, then as the opponent): its entry looked up once
        homes = self.homes
        return f"{homes[player]},{homes[opponent]}"

    def _side_entry(self, side: tuple[int, ...]) -> str:
        """The entry of one side in the page's table when it is all home, as text; '' when not."""
        from bgcli.analysis.bearoff import home_counts

        counts = home_counts(side)
        return "" if counts is None else str(self._entry(counts))

    def _entry(self, counts: tuple[int, ...]) -> int:
        entry = self.sides.get(counts)
        if entry is None:
            from bgcli.analysis.bearoff import table

            found = table()
            # the page shows tenths of a percent: six decimals keep the page small and lose nothing seen
            self.entries.append([round(found.mean(counts), 6), [round(p, 6) for p in found.dist(counts)]])
            entry = self.sides[counts] = len(self.entries) - 1
        return entry


def _half(side: tuple[int, ...]) -> tuple[int, int, bool]:
    """A side's half of a Position ID as bgcli.core.position.position_id makes it (its bits and
    their length), and whether the side is all home; ValueError or OverflowError as position_id
    raises them for counts no Position ID holds."""
    bits, length = side_bits(int.from_bytes(bytes(side), "little"))
    return bits, length, not any(side[OUTSIDE_HOME])


def _right(side: tuple[int, ...]) -> bool:
    """Whether a side's counts pass Position.problem's checks of one side."""
    return len(side) == 26 and min(side[1:]) >= 0 and sum(side[1:]) <= CHECKERS and sum(side) == CHECKERS \
        and side[0] >= 0


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _action_text(step: _Step) -> str:
    event = step.event
    if event is None:
        return "end of the recorded game"
    if event.kind == EventKind.MOVE:
        return event.play or "(no move)"
    if event.kind == EventKind.DOUBLE:
        return f"doubles to {value_reached(event.before.match, event.cube)}"
    if event.kind == EventKind.BEAVER:
        return f"beavers to {value_reached(event.before.match, event.cube)}"
    if event.kind in (EventKind.TAKE, EventKind.DROP):
        return event.kind.value + "s"
    if event.kind == EventKind.ROLL:
        return ROLLED_THEN_RESIGNED
    if event.kind == EventKind.DRAW:
        return "agreed draw"
    if event.kind == EventKind.RACCOON:
        return f"raccoons to {value_reached(event.before.match, event.cube)}"
    points = _plural(event.points or 0, "point")
    return f"wins {points}" + (" (resignation)" if event.kind == EventKind.RESIGN else "")


def _where(step: _Step, several: bool) -> str:
    """A one-line description of a row for the panel under the board (the
    page's script writes it from the row's cells, its game's ``data-head``
    and ``data-line``; this is what it must write)."""
    parts = [f"match {step.replay.number}"] if several else []
    parts.append(f"game {step.game}")
    event = step.event
    if event is None:
        return ", ".join(parts) + ": the position where the record stops"
    if event.move:
        parts.append(f"move {event.move}")
    parts.append(f"line {event.line}")
    what = _action_text(step)
    if event.kind == EventKind.MOVE and event.dice:
        what = f"rolls {recorded_text(event.dice)} and plays {what}" if event.play else \
               f"rolls {recorded_text(event.dice)} and does not move"
    return ", ".join(parts) + f": {event.player} {what}"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _score_table(replay: MatchReplay) -> str:
    p0, p1 = (_e(name) for name in replay.players)
    rows = []
    for r in replay.results:
        rows.append(
            f"<tr><td>{r.game}</td><td>{_e(r.winner)}</td><td>{_e(r.result)}"
            f"{' (Crawford)' if r.crawford else ''}</td><td>{r.cube}</td><td>{r.points}</td>"
            f"<td>{r.score[0]}</td><td>{r.score[1]}</td></tr>")
    if not rows:
        rows.append('<tr><td colspan="7">no game was finished</td></tr>')
    return (
        '<table class="scores"><thead><tr><th>game</th><th>winner</th><th>result</th><th>cube</th>'
        f"<th>points</th><th>{p0}</th><th>{p1}</th></tr></thead><tbody>\n" + "\n".join(rows)
        + "\n</tbody></table>")


def _problem_list(replay: MatchReplay, placed: dict[Problem, int]) -> str:
    if not replay.problems:
        return '<p class="clean">The audit found no problems.</p>'
    items = []
    for p in replay.problems:
        where = f"line {p.line}" + (f", game {p.game}" if p.game else "") + (f", move {p.move}" if p.move else "")
        text = f'<span class="kind">{_e(p.kind)}</span> {_e(where)}: {_e(p.message)}'
        if p in placed:
            text = f'<a href="#step={placed[p]}">{text}</a>'
        items.append(f"<li>{text}</li>")
    return (f'<p class="count">The audit found {_plural(len(replay.problems), "problem")}:</p>'
            '<ol class="problems">\n' + "\n".join(items) + "\n</ol>")


def _game_tables(replay: MatchReplay, steps: list[_Step], score: tuple[int, int], judged: dict | None = None
                 ) -> Iterator[tuple[int, str, str, tuple[int, int]]]:
    """The tables of some of a match's games (``steps``: their rows, ``score``: the score before the
    first), one at a time: each game's number, its heading (without the match's name, which the
    page gives only when it shows several), its rows' text and the score after it."""
    results: dict[int, GameResult] = {r.game: r for r in replay.results}
    by_game: dict[int, list[_Step]] = {}
    for s in steps:
        by_game.setdefault(s.game, []).append(s)
    player_names = (_e(replay.players[0]), _e(replay.players[1]))
    for game, rows in by_game.items():
        crawford = rows[0].state.match.crawford and replay.length
        head = f"Game {game}" + (f" · score {score[0]}–{score[1]}" if replay.length or game > 1 else "")
        head += " · Crawford game" if crawford else ""
        out = [""]
        for step in rows:
            event = step.event
            if (event is not None and event.kind is _MOVE_KIND and event.play and event.dice and not step.problems
                    and not judged and not step.draw and not step.no_board):
                out.append(_play_row(step, event, player_names))
            else:
                out.append(_row(step, player_names, judged))
        result = results.get(game)
        if result is not None:
            how = _HOW_WON.get(result.result, f"a {result.result.value}")
            if result.winner_side < 0:
                out.append(f'<tr class="result"><td colspan="4">an agreed draw · score {result.score[0]}–{result.score[1]}</td></tr>')
            else:
                out.append(f'<tr class="result"><td colspan="4">{_e(result.winner)} wins {_e(how)}, '
                           f"{_plural(result.points, 'point')} (cube {result.cube}) · "
                           f"score {result.score[0]}–{result.score[1]}</td></tr>")
            score = result.score
        out.append("</tbody></table></div>")
        yield game, head, "\n".join(out), score


# how a game was won, in the result row's words (a gammon and a backgammon are 'a gammon', 'a backgammon')
_HOW_WON = {Outcome.SINGLE: "a single game", Outcome.DROP: "on a drop", Outcome.RESIGNATION: "by resignation"}


def _game_head(number: int, index: int, game: int, head: str, several: bool) -> str:
    """The start of a game's table: its heading, and the match's name when the page shows several
    (``number``: the match's number in its file, ``index``: its place on the page)."""
    if several:
        head = f"Match {number} · " + head
    where = (f"match {number}, " if several else "") + f"game {game}"
    # a table per game, in a box the browser lays out only when it comes into view: a session
    # of tens of thousands of rows opens in seconds, not in half a minute
    return (f'<div class="game-box"><table class="moves">{_COLUMNS}'
            f'<tbody class="game" id="m{number}g{game}" data-match="{index}" data-head="{where}">'
            f'<tr class="head"><th colspan="4">{_e(head)}</th></tr>')


# every game's table has the same columns (number, player, dice, action), its widths fixed
_COLUMNS = '<colgroup><col class="n"><col class="who"><col class="dice"><col></colgroup>'


def _play_row(step: _Step, event: Event, names: tuple[str, str]) -> str:
    """What :func:`_row` writes for most rows, a play with nothing else to say (no problem, no
    mark, a board drawn from its own IDs), in one format: a long session has tens of thousands."""
    side, dice = event.side, event.dice or (0, 0)   # the caller saw dice
    action = _PLAY_CELLS.get(event.play)
    if action is None:
        if len(_PLAY_CELLS) > 100_000:   # bounded: a process may write many pages
            _PLAY_CELLS.clear()
        action = _PLAY_CELLS[event.play] = _e(event.play)
    mid = step.mid if len(step.mid) == MATCH_ID_LENGTH else _e(step.mid)
    return (f'<tr class="step event {"ox"[side]} move" id="s{step.number}" data-line="{step.line}" '
            f'data-pid="{step.pid}" data-mid="{mid}"{_BEAROFF_ATTRIBUTE % step.bearoff if step.bearoff else ""}>'
            f'<td>{event.move or ""}</td>'
            f'<td>{names[side] if event.player == step.replay.players[side] else _e(event.player)}</td>'
            f'<td>{recorded_text(dice)}</td><td>{action}</td></tr>')


def _row(step: _Step, names: tuple[str, str], judged: dict | None = None) -> str:
    """One row: the move list's cells, and what the script needs to draw its board and say where it is.
    ``names``: the players' names, escaped. The cells stay bare (the style picks them by position):
    a long session has tens of thousands of rows."""
    event = step.event
    classes = f"step event {'ox'[event.side]}" if event is not None else "step end"   # o, x: whose action (a key before the name)
    if event is not None and event.kind == EventKind.MOVE and event.dice:
        classes += " move" if event.play else " pass"   # the script says "rolls 31 and plays ..." / "and does not move"
    if step.problems:
        classes += " problem"
    judgement = ""
    if judged and event is not None:
        decisions = judged.get(_judged_key(step.replay.number, event), [])
        judgement, worst = _judgement(decisions)
        if worst:
            classes += " " + worst
    if event is not None:
        player = names[event.side] if event.player == step.replay.players[event.side] else _e(event.player)
        dice = f"{recorded_text(event.dice)}" if event.dice else ""
        number = str(event.move) if event.move else ""
    else:
        player, dice, number = "", "", ""
    messages = _messages(step.problems) if step.problems else ""
    # only where a row has them: the Match ID its board is drawn with, why there is no board, its bear-off entries
    extra = ""
    if step.draw:
        extra += f' data-draw="{step.draw}"'
    if step.no_board:
        extra += f' data-noboard="{_e(step.no_board)}"'
    if step.bearoff:
        extra += f' data-bearoff="{step.bearoff}"'
    mid = step.mid if len(step.mid) == MATCH_ID_LENGTH else _e(step.mid)
    if event is not None and event.kind == EventKind.MOVE and event.play:
        # a play's text, escaped once: the same few thousand plays make most rows
        action = _PLAY_CELLS.get(event.play)
        if action is None:
            if len(_PLAY_CELLS) > 100_000:   # bounded: a process may write many pages
                _PLAY_CELLS.clear()
            action = _PLAY_CELLS[event.play] = _e(event.play)
    else:
        action = _e(_action_text(step))
    return (f'<tr class="{classes}" id="s{step.number}" data-line="{step.line}" data-pid="{step.pid}" '
            f'data-mid="{mid}"{extra}><td>{number}</td><td>{player}</td><td>{dice}</td>'
            f'<td>{action}{judgement}{messages}</td></tr>')


def _messages(problems: Iterable[Problem]) -> str:
    return "".join(f'<div class="msg">{_e(p.kind)}: {_e(p.message)}</div>' for p in problems)


# the classes a rating's worst mark gives a row, after every other (see _row)
_MARK_CLASSES = frozenset({"doubtful", "bad", "verybad"})


# Fenced mirror of _row's problems: tests/test_view_stream.py::test_a_row_given_more_problems_reads_as_the_row_written_with_them
def _marked(row: str, written: Sequence[Problem], problems: Sequence[Problem]) -> str:
    """A row :func:`_row` wrote with the problems ``written``, as it writes the row with
    ``problems`` (more of them): the one owner is _row, this only changes in its text what it
    writes for problems (the class, after the row's own and before a mark's, and the messages
    after the last cell's text). For the rows of a long match written before its last problems
    were known (the lines a file could not read come with its end); tests compare the two."""
    start = row.index('class="') + 7
    end = row.index('"', start)
    classes = row[start:end].split(" ")
    if "problem" not in classes:
        classes.insert(len(classes) - 1 if classes[-1] in _MARK_CLASSES else len(classes), "problem")
    cut = row.rindex("</td></tr>")
    cut -= len(_messages(written))
    return row[:start] + " ".join(classes) + row[end:cut] + _messages(problems) + "</td></tr>"


_PLAY_CELLS: dict[str, str] = {}
_MOVE_KIND = EventKind.MOVE
_BEAROFF_ATTRIBUTE = ' data-bearoff="%s"'


# --- a rating's marks (view --engine) ---------------------------------------------------

class _Mark(enum.Enum):
    """Which of a row's decisions a rating's decision marks: the play (or the cube turn passed by before it),
    the double, or the answer to it."""

    NONE = 0
    MOVE = 1
    DOUBLE = 2
    ANSWER = 3


_GROUPS = {EventKind.MOVE: _Mark.MOVE, EventKind.DOUBLE: _Mark.DOUBLE, EventKind.TAKE: _Mark.ANSWER,
           EventKind.DROP: _Mark.ANSWER, EventKind.BEAVER: _Mark.ANSWER}


@functools.lru_cache(maxsize=None)
def _decision_groups() -> dict:
    """The row mark of each kind of decision (the rating's DecisionKind: imported when a rating is
    shown, as the rating module costs the view's start-up otherwise)."""
    from bgcli.judging.rating import DecisionKind

    return {DecisionKind.NO_DOUBLE: _Mark.MOVE, DecisionKind.PLAY: _Mark.MOVE, DecisionKind.FORCED: _Mark.MOVE,
            DecisionKind.ILLEGAL: _Mark.MOVE, DecisionKind.DOUBLE: _Mark.DOUBLE, DecisionKind.TAKE: _Mark.ANSWER,
            DecisionKind.DROP: _Mark.ANSWER}


def _judged_key(match: int, event: Event) -> tuple:
    return (match, event.game, event.line, event.side, _GROUPS.get(event.kind, _Mark.NONE))


def judged_index(ratings: Iterable) -> dict:
    """The decisions of ratings (bgcli.judging.rating.MatchRating) by the row they belong to."""
    index: dict = {}
    groups = _decision_groups()
    for rating in ratings:
        for d in rating.decisions:
            key = (rating.number, d.game, d.line, d.side, groups[d.kind])
            index.setdefault(key, []).append(d)
    return index


def _judgement(decisions: Sequence) -> tuple[str, str]:
    """A row's marks: each decision's error (with the best choice when it was not made) and the
    equity after the action; the class of the worst mark ('' if none)."""
    parts = []
    worst = ""
    order = ("", "doubtful", "bad", "very bad")
    from bgcli.judging.rating import DecisionKind   # here: a rating is shown (see _decision_groups)

    for d in decisions:
        if d.kind is DecisionKind.ILLEGAL:
            parts.append('<span class="judge illegal">illegal: not judged</span>')
            continue
        if d.error:
            found = d.mark.value
            what = d.verdict or "error"
            # a cube decision names the proper action in gnubg's words (the cube module's, through the rating)
            best = f", {d.action}" if d.is_cube and d.action else f", best {d.best}" if d.best and d.best != d.played else ""
            parts.append(f'<span class="judge {found.replace(" ", "")}">{_e(what)} −{d.error:.3f}'
                         f'{_e(best)}{" (" + _e(found) + ")" if found else ""}</span>')
            if order.index(found) > order.index(worst):
                worst = found
        if d.equity is not None and d.kind is not DecisionKind.NO_DOUBLE:
            parts.append(f'<span class="equity">equity after {d.equity:+.3f}</span>')
    return "".join(parts), worst.replace(" ", "")


def _json_for_script(value) -> str:
    """JSON that cannot end the script element it sits in."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


HELD_ROWS = 20_000
"""How many of a match's actions a page holds before it writes out the rows of the games replayed
(each action keeps its state: a 10,000-game session held whole took 915 MiB)."""


@dataclass(slots=True)
class _GameTable:
    """A game's table on the page: what its heading needs, and its rows' text in the spool."""

    number: int      # the match's number in its file
    index: int       # the match's place on the page
    game: int
    head: str
    size: int        # characters of its rows' text
    first: int       # the page's number of its first row
    end: int         # one past its last


@dataclass(slots=True)
class _MatchRows:
    """One match on a page: its replay (its actions only until its rows are written), its rows'
    index, its problems' rows and its game tables."""

    replay: MatchReplay
    index: int
    rows: _RowIndex
    owned: bool                                        # the replay is the page's (its actions are let go)
    placed: dict[Problem, int] = field(default_factory=dict)
    done: set[int] = field(default_factory=set)        # id() of each problem placed
    records: list[GameResult | Unfinished] = field(default_factory=list)   # games ended since the last rows
    score: tuple[int, int] = (0, 0)                    # the score before the next table
    tables: list[_GameTable] = field(default_factory=list)


class Page:
    """The page being made for some matches, written with :meth:`write`. Matches are added whole
    (:meth:`add`) or as they are replayed (:meth:`visitor`, for bgcli.match.replay.replay_parts):
    then only the games since the last rows were written are held, up to ``held`` actions, and the
    rows' text waits in a temporary file, so a session of any length costs about the same memory.
    The summary, which comes first on the page, is known only at the end; a problem that comes
    after its row was written (the lines a file could not read are reported at its end) is added
    to the row's text then. ``judged``: :func:`judged_index` of the matches' ratings."""

    def __init__(self, title: str, home: str = "right", judged: dict | None = None, held: int = HELD_ROWS) -> None:
        if home not in ("right", "left"):
            raise ValueError(f"invalid home {home!r}: expected 'right' or 'left'")
        from bgcli.formats.writing import Spool

        self.title, self.home, self.judged, self.held = title, home, judged, held
        self.identifiers = _Identifiers()
        self.matches: list[_MatchRows] = []
        self.spool = Spool()
        self.count = 0        # rows so far
        self.actions = 0      # actions so far
        self.first = ""       # the first row's board
        self.problems: dict[int, list[Problem]] = {}   # each row's problems, by its number
        self.late: dict[int, int] = {}                  # rows given problems once written: how many they were written with

    @property
    def replays(self) -> list[MatchReplay]:
        """The matches on the page (what a replay page holds: no actions)."""
        return [match.replay for match in self.matches]

    def add(self, replay: MatchReplay) -> None:
        """A whole match (``bgcli.match.replay.replay_file``'s), left as it is."""
        match = self._begin(replay, owned=False)
        match.records = replay.games()
        self._rows(match, list(replay.events), final=True)

    def visitor(self, number: int) -> ReplayBuilder:
        """The visitor of one match's replay, which adds it to the page as it goes."""
        return _PageBuilder(self)

    def _begin(self, replay: MatchReplay, owned: bool) -> _MatchRows:
        match = _MatchRows(replay, len(self.matches), _RowIndex(self.count), owned)
        self.matches.append(match)
        return match

    def _rows(self, match: _MatchRows, events: list[Event], final: bool) -> None:
        """Write the rows of the games replayed since the last (``events``: their actions) and
        place the problems that can be placed."""
        replay = match.replay
        self.actions += len(events)
        records = sorted(match.records, key=lambda g: (g.line, g.game))
        match.records = []
        steps = _match_steps(replay, events, records, self.count)
        del events
        self.identifiers.bound()
        for step in steps:
            self.identifiers.fill(step)
            match.rows.add(step)
        if steps and not self.count:
            self.first = _first_board(steps[0], self.home)
        self.count += len(steps)
        waiting = [p for p in replay.problems if id(p) not in match.done]
        if not final:
            waiting.sort(key=Problem.order)   # as the replay lists them at the end
        first = steps[0].number if steps else self.count
        for problem in waiting:
            number = match.rows.place(problem, final)
            if number is None:
                continue
            match.done.add(id(problem))
            match.placed[problem] = number
            if number >= first:
                steps[number - first].problems.append(problem)
            else:
                self.late.setdefault(number, len(self.problems.get(number, ())))
            self.problems.setdefault(number, []).append(problem)
        spans: dict[int, tuple[int, int]] = {}   # each game's first row and one past its last
        for step in steps:
            span = spans.get(step.game)
            spans[step.game] = (step.number if span is None else span[0], step.number + 1)
        for game, head, text, match.score in _game_tables(replay, steps, match.score, self.judged):
            self.spool.write(text)
            match.tables.append(_GameTable(replay.number, match.index, game, head, len(text), *spans[game]))

    def write(self, write: Callable[[str], object]) -> None:
        """The page, in pieces, to ``write``; once."""
        several = len(self.matches) > 1
        sections = []
        for match in self.matches:
            replay = match.replay
            p0, p1 = (_e(name) for name in replay.players)
            length = f"{replay.length}-point match" if replay.length else "money game"
            final = f"{replay.score[0]}–{replay.score[1]}"
            final += f", {_e(replay.winner)} wins" if replay.winner and replay.length else ""
            heading = f"<h2>Match {replay.number}</h2>" if several else ""
            sections.append(
                f'<section class="match" id="m{replay.number}">{heading}'
                f'<p class="players"><span class="key o"></span>{p0} (O) vs <span class="key x"></span>{p1} (X)'
                f" · {length} · score {final}</p>\n"
                + _problem_list(replay, match.placed) + "\n" + _score_table(replay) + "</section>")
        # the first board drawn here too, so the page shows a position before its script runs
        first = self.first if self.count else "<p>No actions to show.</p>"
        write(_PAGE_HEAD.substitute(title=_e(self.title), style=_STYLE, sections="\n".join(sections), board=first,
                                    count=self.count))
        texts = _cut(self.spool.drain(), (table.size for match in self.matches for table in match.tables))
        for m, match in enumerate(self.matches):
            if m:
                write("\n")
            for t, table in enumerate(match.tables):
                text = next(texts)
                if self.late and any(n in self.late for n in range(table.first, table.end)):
                    text = self._marked(text, table)
                write(("\n" if t else "") + _game_head(table.number, table.index, table.game, table.head, several))
                write(text)
        data = _json_for_script({"home": self.home, "names": [list(m.replay.players) for m in self.matches],
                                 "sides": self.identifiers.entries, "geometry": _GEOMETRY, "colours": COLOURS})
        write(_PAGE_TAIL.substitute(data=data, script=_script()))

    def _marked(self, text: str, table: _GameTable) -> str:
        """A game's rows with the problems that came after they were written."""
        for number in range(table.first, table.end):
            if number in self.late:
                problems = self.problems[number]
                start = text.rindex("<tr ", 0, text.index(f' id="s{number}" '))
                end = text.index("</td></tr>", start) + len("</td></tr>")
                written = problems[:self.late[number]]
                # listed as the replay lists them at the end, as a row written with them all lists them
                text = text[:start] + _marked(text[start:end], written, sorted(problems, key=Problem.order)) + text[end:]
        return text


def _cut(pieces: Iterator[str], sizes: Iterable[int]) -> Iterator[str]:
    """Texts of the given sizes, one after another, from a stream of pieces."""
    held = ""
    for size in sizes:
        while len(held) < size:
            held += next(pieces)
        yield held[:size]
        held = held[size:]


class _PageBuilder(ReplayBuilder):
    """Replays a match onto a page: the rows of the games replayed are written out each time
    the page's ``held`` actions are reached, and the rest at the end of the match."""

    def __init__(self, page: Page) -> None:
        super().__init__(True)
        self.page = page
        self.match: _MatchRows | None = None

    def begin_match(self, match) -> None:
        super().begin_match(match)
        assert self.replay is not None
        self.match = self.page._begin(self.replay, owned=True)

    def end_game(self, game, result) -> None:
        super().end_game(game, result)
        assert self.replay is not None and self.match is not None
        self.match.records.append(result)
        if len(self.replay.events) >= self.page.held:
            events, self.replay.events = self.replay.events, []
            self.page._rows(self.match, events, final=False)

    def end_match(self) -> MatchReplay:
        replay = super().end_match()
        assert self.match is not None
        events, replay.events = replay.events, []
        self.page._rows(self.match, events, final=True)
        return replay


def match_html(replays: Iterable[MatchReplay], title: str, home: str = "right", ratings: Iterable | None = None) -> str:
    """One self-contained HTML page showing ``replays`` (from
    ``bgcli.match.replay_file``): summary, problems, move list and a
    board that follows the selected row. ``home`` is ``"right"`` or
    ``"left"``, as for ``bgcli.render.board.svg_board``. With ``ratings``
    (bgcli.judging.rating.MatchRating of the same matches) each row shows
    its decisions' errors and the equity after the action."""
    page = Page(title, home, judged_index(ratings) if ratings is not None else None)
    for replay in replays:
        page.add(replay)
    pieces: list[str] = []
    page.write(pieces.append)
    return "".join(pieces)


def _first_board(step: _Step, home: str) -> str:
    if step.no_board:
        return f"<p>no board: {_e(step.no_board)}</p>"
    drawn, _ = drawable(step.state)
    return svg_board(drawn, home, BOARD_SIZE, step.replay.players).replace(_SVG_NAMESPACE, "", 1)


# the numbers svg_board lays its board out with, and the size the page draws it at, for the script
_GEOMETRY = {**GEOMETRY, "size": BOARD_SIZE, "size_height": round(BOARD_SIZE * GEOMETRY["height"] / GEOMETRY["width"])}


def _script() -> str:
    """The page's script (view.js beside this module), made safe to sit in a script element."""
    # read beside this module, where the package data puts it (importlib.resources would cost
    # more to import than the page's script takes to read)
    with open(os.path.join(os.path.dirname(__file__), "view.js"), encoding="utf-8") as handle:
        text = handle.read()
    return re.sub("</(script)", r"<\/\1", text, flags=re.IGNORECASE)


@contextlib.contextmanager
def collector_paused(frozen_after: bool = False) -> Iterator[None]:
    """Python's cycle collector off for a while: the replay of a file for its
    page keeps every state of every action alive to the end, and the
    collector would walk them all again and again, finding nothing (a third
    of the time of a long session's page). With ``frozen_after`` what exists
    at the end is left out of later collections (``gc.freeze``), for a
    command whose process ends soon after: switched back on, the collector
    would otherwise walk it all once more at once (a few tenths of a second
    for 200 matches), and cyclic garbage made meanwhile is left to the end."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if frozen_after:
            gc.freeze()
        if was:
            gc.enable()


def view_file(path: str, rules=None, home: str = "right", title: str | None = None) -> str:
    """The page for every match of a transcript file (``bgcli view FILE``)."""
    from bgcli.formats.files import visit_file

    page = Page(title or os.path.basename(path), home)
    with collector_paused():
        for _ in visit_file(path, page.visitor, rules):
            pass
    pieces: list[str] = []
    page.write(pieces.append)
    return "".join(pieces)


_STYLE = """
:root { --ink: #1d1d1d; --muted: #666; --line: #ddd; --sel: #fff3b0; --bad: #fde2de; --badline: #c0392b; }
* { box-sizing: border-box; }
body { margin: 0; padding: 12px 16px; font: 14px/1.4 "DejaVu Sans", Verdana, Arial, sans-serif;
       color: var(--ink); background: #fbf8f1; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 12px 0 4px; }
/* wide screens: the board stays in view while the page scrolls; the page has the one scrollbar: neither
   the summary (at 1366x768 it must show whole) nor the move list is a scroll box of its own */
.layout { display: grid; gap: 16px; grid-template-columns: minmax(360px, 620px) minmax(320px, 1fr); align-items: start; }
.viewer { position: sticky; top: 0; }
.side { min-width: 0; }
.summary { border-bottom: 1px solid var(--line); }
#board svg { width: 100%; height: auto; max-height: 60vh; display: block; }
.ids { font-size: 13px; margin: 6px 0 0; }
.ids code { font: 13px "DejaVu Sans Mono", Menlo, Consolas, monospace; background: #efe9dc; padding: 1px 4px;
            user-select: all; }
#where { margin: 6px 0 0; font-weight: bold; }
#messages .msg { color: var(--badline); font-weight: bold; }
.judge { display: block; font-size: 12px; color: var(--muted); }
.judge.doubtful { color: #a36b00; } .judge.bad { color: #c0392b; } .judge.verybad { color: #8e0000; font-weight: bold; }
.judge.illegal { color: var(--badline); }
.equity { display: block; font-size: 11px; color: var(--muted); }
.help { color: var(--muted); font-size: 12px; margin-top: 6px; }
.players { margin: 0 0 6px; }
.key { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 4px;
       border: 1px solid #555; vertical-align: baseline; }
.key.o { background: #262626; } .key.x { background: #f6f1e4; }
/* the key before a row's player: drawn by the style, not one element per row */
tr.o > td:nth-child(2)::before, tr.x > td:nth-child(2)::before {
  content: ""; display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 4px;
  border: 1px solid #555; vertical-align: baseline; }
tr.o > td:nth-child(2)::before { background: #262626; } tr.x > td:nth-child(2)::before { background: #f6f1e4; }
table { border-collapse: collapse; }
.scores { margin: 6px 0 10px; font-size: 13px; }
.pips { margin: 2px 0; font-size: 13px; color: var(--muted); }
.bearoff { font-size: 12px; border-collapse: collapse; margin: 4px 0; }
.bearoff caption { text-align: left; color: var(--muted); }
.bearoff th, .bearoff td { border: 1px solid var(--line); padding: 1px 5px; text-align: right; }
.scores th, .scores td { border: 1px solid var(--line); padding: 2px 8px; text-align: right; }
.scores td:nth-child(2), .scores td:nth-child(3), .scores th:nth-child(2), .scores th:nth-child(3) { text-align: left; }
.count { margin: 6px 0 2px; color: var(--badline); font-weight: bold; }
.clean { margin: 6px 0; color: #2e7d32; }
.problems { margin: 0 0 8px; padding-left: 22px; font-size: 13px; }
.problems a { color: inherit; text-decoration: none; }
.problems a:hover { text-decoration: underline; }
.kind { display: inline-block; font-size: 11px; padding: 0 5px; border-radius: 3px; background: var(--badline);
        color: #fff; }
.moves { width: 100%; font-size: 13px; table-layout: fixed; }
.moves col.n, .moves col.dice { width: 3.2em; } .moves col.who { width: 9em; }
.game-box { content-visibility: auto; contain-intrinsic-size: auto 900px; }
.moves th { text-align: left; background: #e9e1cf; padding: 4px 6px; }
.moves td { padding: 2px 6px; border-bottom: 1px solid #eee; vertical-align: top; }
.moves td:nth-child(1) { text-align: right; color: var(--muted); }
.moves td:nth-child(3) { font-weight: bold; }
.moves td:nth-child(2) { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.moves td:nth-child(4) { overflow-wrap: anywhere; }
tr.step { cursor: pointer; }
tr.step:hover { background: #f1ece0; }
tr.problem { background: var(--bad); box-shadow: inset 4px 0 0 var(--badline); }
tr.problem .msg { color: var(--badline); font-size: 12px; }
tr.end td:nth-child(4) { font-style: italic; color: var(--muted); }
tr.result td { font-style: italic; padding: 3px 6px 10px; }
tr.step.selected { background: var(--sel); outline: 2px solid #d4a800; outline-offset: -2px; }
@media (max-width: 900px) {
  .layout { display: block; }
  .viewer { position: static; }
}
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${style}</style>
</head>
<body>
<h1>${title}</h1>
<div class="layout">
<div class="viewer">
<div id="board">${board}</div>
<p id="where"></p>
<p id="pips" class="pips"></p>
<table id="bearoff" class="bearoff" hidden></table>
<div id="messages"></div>
<p class="ids">Position ID <code id="pid"></code> Match ID <code id="mid"></code> <span id="position"></span></p>
<p class="help">← → or ↑ ↓ step, Home / End jump, n / p next / previous problem, click a row to select it.</p>
</div>
<div class="side">
<div class="summary">
${sections}
</div>
<div class="movelist" data-count="${count}">
${moves}
</div>
</div>
</div>
<script type="application/json" id="boards">${data}</script>
<script>${script}</script>
</body>
</html>
"""

# the page before its move list and after it: the move list is written in between, a game at a time
_PAGE_HEAD, _PAGE_TAIL = (Template(part) for part in _PAGE.split("${moves}"))
