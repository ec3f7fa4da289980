"""Writing matches out: Jellyfish .mat as GNU Backgammon writes it, and JSON.

Every writer takes a match as read (:class:`~bgcli.matchfile.MatchRecord`,
from any reader) or as replayed (:class:`~bgcli.transcript.MatchReplay`);
a record is replayed first, so positions, cube and scores come from the
replay. :func:`read_any` reads any file bgcli understands (.mat/.txt, .sgf,
.json) into the same records, so every format round-trips through the others.

.mat layout (gnubg 1.07's ``export match mat``)
-----------------------------------------------
``; [Site ...]``/``; [Event ...]``/``; [EventDate "YYYY.MM.DD"]`` tags and a
blank line; `` N point match``; per game `` Game n``, the score line
(``" " + "name : score".ljust(31) + "name : score"``), then rows: ``%3d) ``,
the left cell padded to 27 and a space, the right cell. A move cell is the
dice (larger first), a colon and one ``a/b`` pair per die (bar 25, off 0,
``*`` on a hit), each pair preceded by a space, and a trailing space unless
four dice were played. Cube cells are `` Doubles => n``, `` Takes``,
`` Drops``. The result is `` Wins n point(s)``: on the open row when the
right-hand player wins after a left-hand action (then with a trailing space),
else on a row of its own. A blank line ends each game.

The steps of a play are written in the order recorded when the record gives
one die per step and that order replays legally (so a gnubg file is written
back line for line); otherwise in the order gnubg's importer uses, by
decreasing start point, then decreasing end point. Hits are marked from the
board, not from the text. Tags gnubg keeps (Site, Event, Round, Annotator,
EventDate) are written first; tags it does not know follow after a blank line,
as gnubg writes its match comment. Two deliberate departures from gnubg's
import-then-export: XG's ``63: ????`` (rolled, then resigned) is left out,
because gnubg's ``63:`` would read back as a dance; and a ``Wins`` line keeps
the points recorded, even when the replay finds them wrong.

JSON document (:func:`json_document`, one per match)
----------------------------------------------------
::

    {"format": "bgcli-match", "version": 1,
     "players": [left, right],          # gnubg's player 0 and player 1
     "match_length": 7,                 # 0 = money session
     "rules": {"crawford": true, "jacoby": false, "beavers": false,
               "cube_limit": 0, ...},   # the fields of bgcli.scoring.Rules
     "tags": {"Site": "...", ...},      # the file's tags, if any
     "games": [
       {"number": 1, "score_before": [0, 0], "crawford": false,
        "actions": [
          {"line": 7, "player": 0, "name": "Alice",
           "action": "move",            # move, double, take, drop, beaver
           "dice": [6, 1],              # moves only; a move without steps is a dance
           "play": "13/7 8/7",          # canonical text in the chosen notation
           "steps": [[13, 7], [8, 7]],  # the mover's points, 25 = bar, 0 = off
           "written": "...",            # only when the recorded text cannot be played at all
           "cube": 1,                   # cube value before the action (the offer for a double)
           "position_id": "4HPwATDgc/ABMA",  # before the action, player on roll first
           "match_id": "cAkAAAAAAAAA"},
          ...],
        "result": {"winner": 0, "name": "Alice",
                   "how": "single",     # single, gammon, backgammon, drop, resignation
                   "points": 1, "cube": 1}}   # null while a game has no result
     ]}

An action ``"roll"`` (``player``, ``dice`` only) is XG's rolled-then-resigned
cell. ``result`` carries ``written_points`` when the file's ``Wins`` line
disagrees with the replay. :func:`read_json` reads the document back into
records.
"""
from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from bgcli.errors import BgcliError, MatchFileError
from bgcli.ids import match_id
from bgcli.matchfile import BEAVER, DANCE, DOUBLE, DROP, MOVE, TAKE, UNKNOWN, WINS, Action, GameRecord, MatchRecord, iter_file
from bgcli.model import BAR, OFF, Play, Position, legal_plays
from bgcli.notation import STYLES, parse_play_text, play_text
from bgcli.transcript import Event, GameResult, MatchReplay, replay_match

FORMATS = ("mat", "sgf", "json")
JSON_FORMAT = "bgcli-match"

# Tags gnubg keeps from an imported file and writes back, in its order.
_MAT_TAGS = ("Site", "Event", "Round", "Annotator", "EventDate")
# Tags gnubg reads into the match and does not write back; any other tag
# ends up in the match comment, written after the tags.
_DROPPED_TAGS = {"match id", "player 1", "player 2", "player 1 elo", "player 2 elo", "eventtime",
                 "variation", "unrated", "crawford", "cubelimit", "jacoby", "beaver", "beavers",
                 "transcriber", "comment"}

# A step as written: (start, end, hit), mover's points.
Hop = tuple[int, int, bool]


# ---------------------------------------------------------------------------
# Reading any format


def read_any(path: str | Path) -> list[MatchRecord]:
    """Every match in a file of any format bgcli reads: ``.sgf`` (gnubg's
    SGF), ``.json`` (our document), anything else as a Jellyfish match file;
    a file with another extension is sniffed by its first character."""
    path = str(path)
    kind = sniff(path)
    if kind == "sgf":
        from bgcli.sgf import read_sgf

        return read_sgf(_read_text(path), path)
    if kind == "json":
        return read_json(_read_text(path), path)
    return list(iter_file(path))


def sniff(path: str) -> str:
    """'sgf', 'json' or 'mat' by extension, else by the first character."""
    lower = path.lower()
    if lower.endswith(".sgf"):
        return "sgf"
    if lower.endswith(".json"):
        return "json"
    if lower.endswith((".mat", ".txt", ".gam")):
        return "mat"
    try:
        with open(path, "rb") as handle:
            head = handle.read(256).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return "mat"
    if head.startswith(b"("):
        return "sgf"
    if head.startswith(b"{") or head.startswith(b"["):
        return "json"
    return "mat"


def _read_text(path: str) -> str:
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return text.lstrip("\ufeff")


# ---------------------------------------------------------------------------
# What every writer needs: the replay, and per action the steps in order


@dataclass(frozen=True)
class _Item:
    """One action to write, with its steps in the order to write them."""

    event: Event
    hops: list[Hop] | None = None     # moves: None when the recorded text cannot be played at all
    play: Play | None = None          # the legal play, if the recorded one is legal
    roll_only: bool = False           # XG's "63: ????": rolled, then resigned (no replay event)


class _Game:
    """One game ready to write: its number, score before it and its items."""

    def __init__(self, number: int, score: tuple[int, int], crawford: bool):
        self.number = number
        self.score = score
        self.crawford = crawford
        self.items: list[_Item] = []
        self.result: GameResult | None = None
        self.written_points: int | None = None   # the "Wins n points" recorded, even if wrong

    @property
    def points(self) -> int:
        """Points to write for the result: as recorded, so that an audit of
        the export finds what an audit of the original finds."""
        if self.written_points is not None:
            return self.written_points
        return self.result.points if self.result is not None else 0


def _prepare(match: MatchRecord | MatchReplay) -> tuple[MatchReplay, dict[str, str], list[_Game]]:
    if isinstance(match, MatchReplay):
        record, replay = None, match
    else:
        record, replay = match, replay_match(match)
    tags = dict(record.tags) if record is not None else {}
    written: dict[tuple[int, int, int], str] = {}
    rolls: dict[int, list[Action]] = {}
    if record is not None:
        for game in record.games:
            for action in game.actions:
                if action.kind == MOVE:
                    written.setdefault((game.number, action.line, action.side), action.play_text)
                elif action.kind == UNKNOWN and action.dice:
                    rolls.setdefault(game.number, []).append(action)
    results = {r.game: r for r in replay.results}
    games: dict[int, _Game] = {}
    order: list[int] = []
    numbers = [g.number for g in record.games] if record is not None else []
    for event in replay.events:
        if event.game not in games:
            order.append(event.game)
            games[event.game] = _Game(event.game, (0, 0), event.before.match.crawford)
        if event.action in ("win", "resign"):
            if games[event.game].written_points is None and event.points is not None:
                games[event.game].written_points = event.points
            continue
        hops = play = None
        if event.action == "move":
            text = written.get((event.game, event.line, event.side), event.play)
            hops, play = _ordered_hops(event.before.position, event.dice, text, event.after)
        games[event.game].items.append(_Item(event, hops, play))
    for number, actions in rolls.items():
        if number in games:
            _insert_rolls(games[number], actions, replay.players)
    for number in numbers:   # games without an action still have a header
        if number not in games:
            order.append(number)
            games[number] = _Game(number, (0, 0), bool(results.get(number) and results[number].crawford))
    if record is not None:
        order.sort(key=lambda n: numbers.index(n) if n in numbers else len(numbers))
    score = [0, 0]
    out = []
    for number in order:
        game = games[number]
        game.score = (score[0], score[1])
        game.result = results.get(number)
        if game.result is not None:
            score[game.result.winner_side] += game.result.points
            game.crawford = game.crawford or game.result.crawford
        out.append(game)
    return replay, tags, out


def _insert_rolls(game: _Game, actions: list[Action], players) -> None:
    """Put XG's rolled-then-resigned cells back among the replayed actions, by line."""
    for action in actions:
        before = game.items[-1].event.before if game.items else None
        if before is None:
            continue
        event = Event(0, game.number, action.line, action.move_number or 0, action.side, players[action.side],
                      "roll", (max(action.dice), min(action.dice)), "", before)
        where = len(game.items)
        for index, item in enumerate(game.items):
            if (item.event.line, item.event.side) > (action.line, action.side):
                where = index
                break
        game.items.insert(where, _Item(event, [], None, roll_only=True))


def _ordered_hops(before: Position, dice, text: str, after: Position | None) -> tuple[list[Hop] | None, Play | None]:
    """The steps of a recorded play in the order to write them, with hits."""
    play = None
    if after is not None and dice:
        for candidate in legal_plays(before, dice):
            if candidate.result == after:
                play = candidate
                break
    written = _written_hops(text)
    if play is not None:
        # the written order, when each hop is one die (gnubg keeps "42: 3/off"
        # for the last checker although 3/1 1/0 is the play it is)
        if written:
            hops = _apply_hops(before, written, dice)
            if hops is not None and hops[1] == play.result:
                return hops[0], play
        steps = sorted(((s.start, s.end) for s in play.steps), key=lambda se: (-se[0], -se[1]))
        hops = _apply_hops(before, steps, None)
        return (hops[0] if hops else [(s.start, s.end, s.hit) for s in play.steps]), play
    if written is not None:   # an illegal play: keep what was written, as far as it goes
        hops = _apply_hops(before, written, None)
        if hops is not None:
            return hops[0], None
        return [(a, b, False) for a, b in written], None
    return None, None


def _written_hops(text: str) -> list[tuple[int, int]] | None:
    if not text:
        return []
    try:
        return [(a, b) for a, b in parse_play_text(text).hops()]
    except BgcliError:
        return None


def _apply_hops(position: Position, hops: Sequence[tuple[int, int]], dice) -> tuple[list[Hop], Position] | None:
    """Play the hops in order; None if one is impossible (or, with dice,
    is not one die's move)."""
    player, opponent = list(position.player), list(position.opponent)
    left = list(dice) * (2 if dice and dice[0] == dice[1] else 1) if dice else None
    out = []
    for start, end in hops:
        if not (0 < start <= BAR and 0 <= end < start) or player[start] == 0:
            return None
        if left is not None:
            distance = start - end
            if distance in left:
                left.remove(distance)
            elif end == OFF and any(d > distance for d in left):
                left.remove(min(d for d in left if d > distance))
            else:
                return None
        hit = False
        if end != OFF:
            if opponent[25 - end] >= 2:
                return None
            if opponent[25 - end] == 1:
                opponent[25 - end] = 0
                opponent[BAR] += 1
                hit = True
        player[start] -= 1
        player[end] += 1
        out.append((start, end, hit))
    return out, Position(tuple(player), tuple(opponent))


def _points_word(points: int) -> str:
    return f"{points} point{'s' if points != 1 else ''}"


def _hops_text(hops: Sequence[Hop], sep: str = " ") -> str:
    return sep.join(f"{a}/{b}" + ("*" if hit else "") for a, b, hit in hops)


def _play_in(style: str, play: Play | None, hops: list[Hop] | None, fallback: str) -> str:
    if style == "mat":
        return _hops_text(hops) if hops is not None else fallback
    if play is not None:
        return play_text(play, style)
    return fallback


def _check_style(notation: str) -> None:
    if notation not in STYLES:
        raise ValueError(f"unknown notation {notation!r}: expected one of {', '.join(STYLES)}")


# ---------------------------------------------------------------------------
# .mat


def mat_text(match: MatchRecord | MatchReplay, notation: str = "mat", date: str | None = None) -> str:
    """The match in gnubg's Jellyfish layout (see the module docstring).
    ``date`` ("YYYY.MM.DD") replaces the EventDate tag; without either, today."""
    _check_style(notation)
    replay, tags, games = _prepare(match)
    lines = []
    wanted = {k.lower(): v for k, v in tags.items()}
    if date is not None:
        wanted["eventdate"] = date
    wanted.setdefault("eventdate", datetime.date.today().strftime("%Y.%m.%d"))
    for name in _MAT_TAGS:
        if name.lower() in wanted:
            lines.append(f'; [{name} "{wanted[name.lower()]}"]')
    others = [(k, v) for k, v in tags.items() if k.lower() not in _DROPPED_TAGS
              and k.lower() not in {t.lower() for t in _MAT_TAGS}]
    if others:
        lines.append("")
        lines += [f'; [{k} "{v}"]' for k, v in others]
    lines += ["", f" {replay.length} point match", ""]
    names = replay.players
    for index, game in enumerate(games, 1):
        lines.append(f" Game {index}")
        lines.append(" " + f"{names[0]} : {game.score[0]}".ljust(31) + f"{names[1]} : {game.score[1]}")
        lines += _mat_rows(game, notation)
        lines.append("")
    return "\n".join(lines) + "\n"


def _mat_cell(item: _Item, notation: str) -> str:
    event, hops, play = item.event, item.hops, item.play
    if event.action == "move":
        high, low = max(event.dice), min(event.dice)
        if hops is not None and notation == "mat":
            parts = [f"{a}/{b}" + ("*" if hit else "") for a, b, hit in hops]
        else:
            body = _play_in(notation, play, hops, event.play)
            parts = body.split() if body else []
        return f"{high}{low}:" + "".join(" " + p for p in parts) + (" " if len(parts) < 4 else "")
    if event.action == "double":
        return f" Doubles => {event.cube or event.before.match.cube * 2}"
    if event.action == "beaver":
        return f" Beavers => {event.cube or event.before.match.cube * 4}"
    return " Takes" if event.action == "take" else " Drops"


def _mat_rows(game: _Game, notation: str) -> list[str]:
    rows: list[str] = []
    number = 0
    left: str | None = None     # the left cell of the row being written

    def prefix() -> str:
        return f"{number:3d}) "

    for item in game.items:
        if item.roll_only:
            # gnubg writes XG's "63: ????" as "63:", which reads back as a
            # dance; leaving the bare roll out keeps the match the same
            continue
        event = item.event
        cell = _mat_cell(item, notation)
        if event.side == 0:
            if left is not None:
                rows.append(prefix() + left.ljust(27) + " ")
            number += 1
            left = cell
        else:
            if left is None:
                number += 1
                rows.append(prefix() + "".ljust(27) + " " + cell)
            else:
                rows.append(prefix() + left.ljust(27) + " " + cell)
            left = None
    result = game.result
    if result is not None:
        wins = f" Wins {_points_word(game.points)}"
        if result.winner_side == 1 and left is not None:
            rows.append(prefix() + left.ljust(27) + " " + wins + " ")
            left = None
        else:
            if left is not None:
                rows.append(prefix() + left.ljust(27) + " ")
                left = None
            rows.append("    " + " " + ("" if result.winner_side == 0 else " " * 28) + wins)
    if left is not None:
        rows.append(prefix() + left.ljust(27) + " ")
    return rows


# ---------------------------------------------------------------------------
# JSON


def json_document(match: MatchRecord | MatchReplay, notation: str = "gnubg") -> dict:
    """One match as the JSON document described in the module docstring."""
    _check_style(notation)
    replay, tags, games = _prepare(match)
    rules = replay.rules
    doc = {
        "format": JSON_FORMAT, "version": 1,
        "players": list(replay.players), "match_length": replay.length,
        "rules": {"crawford": rules.crawford, "jacoby": rules.jacoby, "beavers": rules.beavers,
                  "auto_doubles": rules.auto_doubles, "backgammon_counts": rules.backgammon_counts,
                  "cube_limit": rules.cube_limit},
        "tags": tags, "games": [],
    }
    for game in games:
        actions = []
        for it in game.items:
            event, hops, play = it.event, it.hops, it.play
            state = event.before
            if it.roll_only:
                actions.append({"line": event.line, "player": event.side, "name": event.player, "action": "roll",
                                "dice": list(event.dice)})
                continue
            item = {"line": event.line, "player": event.side, "name": event.player, "action": event.action}
            if event.action == "move":
                item["dice"] = [max(event.dice), min(event.dice)]
                item["play"] = _play_in(notation, play, hops, event.play)
                item["steps"] = [[a, b] for a, b, _ in hops] if hops is not None else None
                if hops is None:
                    item["written"] = event.play
            if event.action == "double":
                item["cube"] = event.cube or state.match.cube * 2
            elif event.action == "beaver":
                item["cube"] = event.cube or state.match.cube * 4
            else:
                item["cube"] = state.match.cube
            item["position_id"] = state.position.id()
            item["match_id"] = match_id(state.match)
            actions.append(item)
        result = None
        if game.result is not None:
            r = game.result
            result = {"winner": r.winner_side, "name": r.winner, "how": r.result, "points": r.points, "cube": r.cube}
            if game.points != r.points:
                result["written_points"] = game.points
        doc["games"].append({"number": game.number, "score_before": list(game.score), "crawford": game.crawford,
                             "actions": actions, "result": result})
    return doc


def json_text(matches: Iterable[MatchRecord | MatchReplay], notation: str = "gnubg") -> str:
    """One document for a single match, a list of documents for several."""
    docs = [json_document(m, notation) for m in matches]
    return json.dumps(docs[0] if len(docs) == 1 else docs, indent=1, ensure_ascii=False) + "\n"


def read_json(text: str | dict | list, path: str = "-") -> list[MatchRecord]:
    """Records from our JSON document (or a list of them)."""
    if isinstance(text, str):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise MatchFileError(f"not JSON: {exc}", path, getattr(exc, "lineno", 0), getattr(exc, "colno", 0)) from None
    else:
        data = text
    docs = data if isinstance(data, list) else [data]
    try:
        return [_json_record(doc, path) for doc in docs]
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, BgcliError):
            raise
        raise MatchFileError(f"not a bgcli match document: {type(exc).__name__} {exc}", path, 0, 0) from None


def _json_record(doc: dict, path: str) -> MatchRecord:
    if not isinstance(doc, dict) or doc.get("format") != JSON_FORMAT:
        raise MatchFileError(f"not a bgcli match document (format must be {JSON_FORMAT!r})", path, 1, 1)
    players = tuple(str(p) for p in doc["players"])
    if len(players) != 2:
        raise MatchFileError("a match document names two players", path, 1, 1)
    tags = {str(k): str(v) for k, v in (doc.get("tags") or {}).items()}
    rules = doc.get("rules") or {}
    for name, tag in (("crawford", "Crawford"), ("jacoby", "Jacoby")):
        if name in rules:
            tags[tag] = "On" if rules[name] else "Off"
    if rules.get("cube_limit"):
        tags["CubeLimit"] = str(int(rules["cube_limit"]))
    games = []
    for index, game in enumerate(doc["games"], 1):
        actions = []
        number = 0
        last_side = None
        for item in game["actions"]:
            side = int(item["player"])
            if side not in (0, 1):
                raise MatchFileError(f"player {side!r} is not 0 or 1", path, int(item.get("line") or 0), 1)
            if side == 0 or last_side != 0:
                number += 1
            last_side = side
            line = int(item.get("line") or 0)
            kind = item["action"]
            if kind == "move":
                dice = tuple(int(d) for d in item["dice"])
                if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
                    raise MatchFileError(f"bad dice {item['dice']!r}", path, line, 1)
                steps = item.get("steps")
                text = " ".join(f"{int(a)}/{int(b)}" for a, b in steps) if steps is not None else str(item.get("written", ""))
                actions.append(Action(line, 1, number, side, MOVE if text else DANCE, dice, text, raw=text))
            elif kind in ("double", "beaver"):
                actions.append(Action(line, 1, number, side, DOUBLE if kind == "double" else BEAVER, cube=int(item["cube"])))
            elif kind == "roll":
                dice = tuple(int(d) for d in item["dice"])
                actions.append(Action(line, 1, number, side, UNKNOWN, dice))
            elif kind in ("take", "drop"):
                actions.append(Action(line, 1, number, side, TAKE if kind == "take" else DROP))
            else:
                raise MatchFileError(f"unknown action {kind!r}", path, line, 1)
        result = game.get("result")
        if result is not None:
            side = int(result["winner"])
            if side not in (0, 1):
                raise MatchFileError(f"winner {side!r} is not 0 or 1", path, 0, 0)
            line = actions[-1].line if actions else 0
            points = int(result.get("written_points", result["points"]))
            actions.append(Action(line, 1, None, side, WINS, points=points))
        score = game.get("score_before")
        games.append(GameRecord(int(game.get("number", index)), players,
                                (int(score[0]), int(score[1])) if score is not None else None, tuple(actions), 0))
    return MatchRecord(int(doc["match_length"]), tuple(games), 0, tags=tags, path=path)


# ---------------------------------------------------------------------------
# One entry point for the command line


def export_text(matches: Iterable[MatchRecord | MatchReplay], to: str, notation: str | None = None) -> str:
    """All matches in one format: 'mat' (concatenated, as BBGT files are),
    'sgf' (one game tree per game) or 'json'."""
    matches = list(matches)
    if to == "mat":
        return "".join(mat_text(m, notation or "mat") for m in matches)
    if to == "sgf":
        from bgcli.sgf import sgf_text

        return "".join(sgf_text(m) for m in matches)
    if to == "json":
        return json_text(matches, notation or "gnubg")
    raise ValueError(f"unknown format {to!r}: expected one of {', '.join(FORMATS)}")
