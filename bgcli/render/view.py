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
(each side met twice), most rows are written by one format, and the
process ends without freeing what the page was made from.

The page needs nothing outside itself: inline CSS and script, system fonts,
no URLs. ``#step=N`` in the address selects row N (rows count from 0), which
makes a position linkable and lets a headless browser test the page.
"""
from __future__ import annotations

import bisect
from binascii import b2a_base64
import contextlib
import gc
import html
import json
import re
import os
from string import Template
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Sequence

from bgcli.core.ids import match_id
from bgcli.core.position import CHECKERS, Position, shared_point, side_bits
from bgcli.core.state import GameState, MatchState
from bgcli.render.board import COLOURS, GEOMETRY, drawable, svg_board
from bgcli.match.replay import Event, EventKind, GameResult, MatchReplay, Problem, ProblemKind

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


def _steps(replays: Sequence[MatchReplay]) -> list[_Step]:
    steps: list[_Step] = []
    for replay in replays:
        games: dict[int, list[Event]] = {}
        for event in replay.events:
            games.setdefault(event.game, []).append(event)
        for record in replay.games():
            if record.game not in games:
                # a game with no action recorded: its row shows where it would start
                games[record.game] = []
        for game, events in sorted(games.items(), key=lambda item: _first_line(item[1], replay, item[0])):
            for event in events:
                steps.append(_Step(len(steps), replay, game, event.line, event.before, event))
            if not events:
                steps.append(_Step(len(steps), replay, game, _first_line(events, replay, game),
                                   _opening(replay, game), None))
            elif events[-1].kind not in ("win", "resign"):
                # no 'Wins' line: still let the user see where the game stopped
                steps.append(_Step(len(steps), replay, game, events[-1].line, _after(events[-1]), None))
    return steps


def _first_line(events: list[Event], replay: MatchReplay, game: int) -> int:
    if events:
        return events[0].line
    return next((g.line for g in replay.games() if g.game == game), 0)


def _opening(replay: MatchReplay, game: int) -> GameState:
    """The state before the first roll of a game that records no action."""
    score = next((g.score for g in replay.unfinished if g.game == game), (0, 0))
    match = MatchState(on_roll=1, turn=1, score=score if replay.length else (0, 0),
                       rules=replace(replay.rules, match_length=replay.length))
    return GameState(Position.start(), match)


def _after(event: Event) -> GameState:
    """The state after a game's last recorded action."""
    if event.kind != EventKind.MOVE or event.after is None:
        return event.before
    other = 1 - event.side
    match = replace(event.before.match, on_roll=other, turn=other, dice=(0, 0))
    return GameState(event.after.swap(), match)


def _place_problems(replay: MatchReplay, steps: list[_Step]) -> dict[Problem, int]:
    """The row each problem of ``replay`` belongs to: the action on its line
    (and of its player), else the end of its game, else the nearest row.
    Rows are looked up by line and game, so a file with many problems takes
    about as long as its audit."""
    if not replay.problems:
        return {}
    mine = [s for s in steps if s.replay is replay]
    lines = [s.line for s in mine]          # rows are in file order
    by_line: dict[int, list[_Step]] = {}
    by_game: dict[int, list[_Step]] = {}
    for s in mine:
        if s.event is not None:
            by_line.setdefault(s.line, []).append(s)
        by_game.setdefault(s.game, []).append(s)
    game_lines = {game: [s.line for s in rows] for game, rows in by_game.items()}
    placed: dict[Problem, int] = {}
    for problem in replay.problems:
        same_line = by_line.get(problem.line, [])
        exact = [s for s in same_line if s.event is not None and s.event.player == problem.player] or same_line
        in_game = by_game.get(problem.game, []) if problem.game else []
        step: _Step | None
        if exact:
            step = exact[0]
        elif in_game and problem.kind == ProblemKind.POINTS and in_game[-1].event is None:
            step = in_game[-1]   # "game N ends without a 'Wins' line": the end row
        elif in_game:
            before = bisect.bisect_right(game_lines[problem.game], problem.line)
            step = in_game[before - 1] if before else in_game[0]
        else:
            after = bisect.bisect_left(lines, problem.line)
            step = mine[after] if after < len(mine) else (mine[-1] if mine else None)
        if step is not None:
            step.problems.append(problem)
            placed[problem] = step.number
    return placed


class _Identifiers:
    """The Position ID and Match ID of each row, and the bear-off table's
    entry of each side all home, each distinct one computed once."""

    def __init__(self) -> None:
        self.mids: dict[MatchState, str] = {}
        self.by_id: dict[int, tuple[MatchState, str]] = {}   # the same by id(), with the state
        self.sides: dict[tuple[int, ...], int] = {}   # a side's six home counts -> its entry
        self.entries: list[list] = []                 # [mean, dist] of each
        self.homes: dict[tuple[int, ...], str] = {}   # a side's 26 counts -> its entry as text, '' if not all home
        # a side's 26 counts -> its half of a Position ID (bits, bit length) and whether it is all home:
        # each side is met twice or more (on roll, then unchanged as the opponent of the next row)
        self.halves: dict[tuple[int, ...], tuple[int, int, bool]] = {}
        self.right: dict[tuple[int, ...], bool] = {}   # a side's counts -> whether they are right (_right)

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
            mine = halves.get(player)
            if mine is None:
                mine = halves[player] = _half(player)
            theirs = halves.get(opponent)
            if theirs is None:
                theirs = halves[opponent] = _half(opponent)
            # position_id's arithmetic, on the halves
            pid = b2a_base64((theirs[0] | mine[0] << theirs[1]).to_bytes(10, "little"), newline=False)[:14].decode()
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
                mine_right = right.get(player)
                if mine_right is None:
                    mine_right = right[player] = _right(player)
                theirs_right = right.get(opponent)
                if theirs_right is None:
                    theirs_right = right[opponent] = _right(opponent)
                flawed = not (mine_right and theirs_right) or shared_point(player, opponent)
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
        if any(player[7:26]) and any(opponent[7:26]):
            return ""
        if position.problem():   # a flawed record's board: no odds
            return ""
        return self._entries(player, opponent)

    def _entries(self, player: tuple[int, ...], opponent: tuple[int, ...]) -> str:
        """The two sides' entries in the page's table of sides all home, as a row names them."""
        # each side is met twice or more (on roll, then as the opponent): its entry looked up once
        homes = self.homes
        mine = homes.get(player)
        if mine is None:
            mine = homes[player] = self._side_entry(player)
        theirs = homes.get(opponent)
        if theirs is None:
            theirs = homes[opponent] = self._side_entry(opponent)
        return f"{mine},{theirs}"

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
    return bits, length, not any(side[7:26])


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
        return f"doubles to {event.cube or event.before.match.cube * 2}"
    if event.kind == EventKind.BEAVER:
        return f"beavers to {event.cube}" if event.cube else "beavers"
    if event.kind in (EventKind.TAKE, EventKind.DROP):
        return event.kind.value + "s"
    if event.kind == EventKind.ROLL:
        return "(rolled, then resigned)"
    if event.kind == EventKind.DRAW:
        return "agreed draw"
    if event.kind == EventKind.RACCOON:
        return f"raccoons to {event.cube}" if event.cube else "raccoons"
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
        what = f"rolls {event.dice[0]}{event.dice[1]} and plays {what}" if event.play else \
               f"rolls {event.dice[0]}{event.dice[1]} and does not move"
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


def _move_rows(replay: MatchReplay, index: int, steps: list[_Step], several: bool, judged: dict | None = None) -> str:
    """The rows of one match (``steps``: its rows; ``index``: its place on the page, which names its players)."""
    results: dict[int, GameResult] = {r.game: r for r in replay.results}
    score = (0, 0)
    out = []
    by_game: dict[int, list[_Step]] = {}
    for s in steps:
        by_game.setdefault(s.game, []).append(s)
    player_names = (_e(replay.players[0]), _e(replay.players[1]))
    for game, rows in by_game.items():
        crawford = rows[0].state.match.crawford and replay.length
        head = f"Game {game}" + (f" · score {score[0]}–{score[1]}" if replay.length or game > 1 else "")
        head += " · Crawford game" if crawford else ""
        if several:
            head = f"Match {replay.number} · " + head
        where = (f"match {replay.number}, " if several else "") + f"game {game}"
        # a table per game, in a box the browser lays out only when it comes into view: a session
        # of tens of thousands of rows opens in seconds, not in half a minute
        out.append(f'<div class="game-box"><table class="moves">{_COLUMNS}'
                   f'<tbody class="game" id="m{replay.number}g{game}" data-match="{index}" data-head="{where}">'
                   f'<tr class="head"><th colspan="4">{_e(head)}</th></tr>')
        for step in rows:
            event = step.event
            if (event is not None and event.kind is _MOVE_KIND and event.play and event.dice and not step.problems
                    and not judged and not step.draw and not step.no_board):
                out.append(_play_row(step, event, player_names))
            else:
                out.append(_row(step, player_names, judged))
        result = results.get(game)
        if result is not None:
            how = {"single": "a single game", "drop": "on a drop", "resignation": "by resignation"}.get(
                result.result, f"a {result.result}")
            if result.winner_side < 0:
                out.append(f'<tr class="result"><td colspan="4">an agreed draw · score {result.score[0]}–{result.score[1]}</td></tr>')
            else:
                out.append(f'<tr class="result"><td colspan="4">{_e(result.winner)} wins {_e(how)}, '
                           f"{_plural(result.points, 'point')} (cube {result.cube}) · "
                           f"score {result.score[0]}–{result.score[1]}</td></tr>")
            score = result.score
        out.append("</tbody></table></div>")
    return "\n".join(out)


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
    mid = step.mid if len(step.mid) == 12 else _e(step.mid)
    return (f'<tr class="step event {"ox"[side]} move" id="s{step.number}" data-line="{step.line}" '
            f'data-pid="{step.pid}" data-mid="{mid}"{_BEAROFF_ATTRIBUTE % step.bearoff if step.bearoff else ""}>'
            f'<td>{event.move or ""}</td>'
            f'<td>{names[side] if event.player == step.replay.players[side] else _e(event.player)}</td>'
            f'<td>{dice[0]}{dice[1]}</td><td>{action}</td></tr>')


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
        dice = f"{event.dice[0]}{event.dice[1]}" if event.dice else ""
        number = str(event.move) if event.move else ""
    else:
        player, dice, number = "", "", ""
    messages = "".join(f'<div class="msg">{_e(p.kind)}: {_e(p.message)}</div>' for p in step.problems) \
        if step.problems else ""
    # only where a row has them: the Match ID its board is drawn with, why there is no board, its bear-off entries
    extra = ""
    if step.draw:
        extra += f' data-draw="{step.draw}"'
    if step.no_board:
        extra += f' data-noboard="{_e(step.no_board)}"'
    if step.bearoff:
        extra += f' data-bearoff="{step.bearoff}"'
    mid = step.mid if len(step.mid) == 12 else _e(step.mid)
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


_PLAY_CELLS: dict[str, str] = {}
_MOVE_KIND = EventKind.MOVE
_BEAROFF_ATTRIBUTE = ' data-bearoff="%s"'


# --- a rating's marks (view --engine) ---------------------------------------------------

_GROUPS = {"move": "move", "double": "double", "take": "answer", "drop": "answer", "beaver": "answer"}
_DECISION_GROUPS = {"no double": "move", "play": "move", "forced": "move", "illegal": "move", "double": "double",
                    "take": "answer", "drop": "answer"}


def _judged_key(match: int, event: Event) -> tuple:
    return (match, event.game, event.line, event.side, _GROUPS.get(event.kind.value, ""))


def judged_index(ratings: Iterable) -> dict:
    """The decisions of ratings (bgcli.judging.rating.MatchRating) by the row they belong to."""
    index: dict = {}
    for rating in ratings:
        for d in rating.decisions:
            key = (rating.number, d.game, d.line, d.side, _DECISION_GROUPS[d.kind.value])
            index.setdefault(key, []).append(d)
    return index


def _judgement(decisions: Sequence) -> tuple[str, str]:
    """A row's marks: each decision's error (with the best choice when it was not made) and the
    equity after the action; the class of the worst mark ('' if none)."""
    parts = []
    worst = ""
    order = ("", "doubtful", "bad", "very bad")
    for d in decisions:
        if d.kind.value == "illegal":
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
        if d.equity is not None and d.kind.value != "no double":
            parts.append(f'<span class="equity">equity after {d.equity:+.3f}</span>')
    return "".join(parts), worst.replace(" ", "")


def _json_for_script(value) -> str:
    """JSON that cannot end the script element it sits in."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def match_html(replays: Iterable[MatchReplay], title: str, home: str = "right", ratings: Iterable | None = None) -> str:
    """One self-contained HTML page showing ``replays`` (from
    ``bgcli.match.replay_file``): summary, problems, move list and a
    board that follows the selected row. ``home`` is ``"right"`` or
    ``"left"``, as for ``bgcli.render.board.svg_board``. With ``ratings``
    (bgcli.judging.rating.MatchRating of the same matches) each row shows
    its decisions' errors and the equity after the action."""
    judged = judged_index(ratings) if ratings is not None else None
    if home not in ("right", "left"):
        raise ValueError(f"invalid home {home!r}: expected 'right' or 'left'")
    replays = list(replays)
    several = len(replays) > 1
    steps = _steps(replays)
    identifiers = _Identifiers()
    mine: dict[int, list[_Step]] = {id(replay): [] for replay in replays}   # each match's rows, in page order
    for step in steps:
        identifiers.fill(step)
        mine[id(step.replay)].append(step)
    sections, move_lists = [], []
    for index, replay in enumerate(replays):
        placed = _place_problems(replay, mine[id(replay)])
        p0, p1 = (_e(name) for name in replay.players)
        length = f"{replay.length}-point match" if replay.length else "money game"
        final = f"{replay.score[0]}–{replay.score[1]}"
        final += f", {_e(replay.winner)} wins" if replay.winner and replay.length else ""
        heading = f"<h2>Match {replay.number}</h2>" if several else ""
        sections.append(
            f'<section class="match" id="m{replay.number}">{heading}'
            f'<p class="players"><span class="key o"></span>{p0} (O) vs <span class="key x"></span>{p1} (X)'
            f" · {length} · score {final}</p>\n"
            + _problem_list(replay, placed) + "\n" + _score_table(replay) + "</section>")
        move_lists.append(_move_rows(replay, index, mine[id(replay)], several, judged))
    # the first board drawn here too, so the page shows a position before its script runs
    first = "<p>No actions to show.</p>" if not steps else _first_board(steps[0], home)
    data = _json_for_script({"home": home, "names": [list(r.players) for r in replays], "sides": identifiers.entries,
                             "geometry": _GEOMETRY, "colours": COLOURS})
    return _PAGE.substitute(
        title=_e(title), style=_STYLE, sections="\n".join(sections), board=first,
        moves="\n".join(move_lists), data=data, script=_script(), count=len(steps),
    )


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
    from bgcli.formats.files import replay_file

    with collector_paused():
        return match_html(list(replay_file(path, rules)), title or os.path.basename(path), home)


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

_PAGE = Template("""<!DOCTYPE html>
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
""")
