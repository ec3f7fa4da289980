"""bgcli's JSON match document: reading and writing.

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

import json

from bgcli.errors import BgcliError, MatchFileError
from bgcli.ids import match_id
from bgcli.match.records import Action, ActionKind, GameRecord, MatchRecord
from bgcli.match.replay import EventKind, MatchStart, replay_match
from bgcli.match.writing import (
    GameToWrite,
    GameWriter,
    check_style,
    play_in,
    steps_to_write,
)
from bgcli.scoring import Rules

JSON_FORMAT = "bgcli-match"


class JsonWriter(GameWriter):
    """A replay visitor that builds one JSON document per match."""

    def __init__(self, notation: str = "gnubg"):
        super().__init__()
        check_style(notation)
        self.notation = notation
        self.doc: dict = {}

    def begin_match(self, match: MatchStart) -> None:
        super().begin_match(match)
        rules = match.rules
        self.doc = {
            "format": JSON_FORMAT, "version": 1,
            "players": list(match.players), "match_length": match.length,
            "rules": {"crawford": rules.crawford, "jacoby": rules.jacoby, "beavers": rules.beavers,
                      "auto_doubles": rules.auto_doubles, "backgammon_counts": rules.backgammon_counts,
                      "cube_limit": rules.cube_limit},
            "tags": dict(match.tags), "games": [],
        }

    def write_game(self, game: GameToWrite, index: int) -> None:
        actions = []
        for event in game.events:
            state = event.before
            if event.kind == EventKind.ROLL:
                actions.append({"line": event.line, "player": event.side, "name": event.player, "action": "roll",
                                "dice": list(event.dice or ())})
                continue
            item: dict = {"line": event.line, "player": event.side, "name": event.player, "action": event.kind.value}
            if event.kind == EventKind.MOVE:
                assert event.dice is not None
                steps = steps_to_write(event)
                item["dice"] = [max(event.dice), min(event.dice)]
                item["play"] = play_in(self.notation, event, steps)
                item["steps"] = [[s.start, s.end] for s in steps] if steps is not None else None
                if steps is None:
                    item["written"] = event.play
            if event.kind == EventKind.DOUBLE:
                item["cube"] = event.cube or state.match.cube * 2
            elif event.kind == EventKind.BEAVER:
                item["cube"] = event.cube or state.match.cube * 4
            else:
                item["cube"] = state.match.cube
            item["position_id"] = state.position.id()
            item["match_id"] = match_id(state.match)
            actions.append(item)
        result = None
        if game.result is not None:
            r = game.result
            result = {"winner": r.winner_side, "name": r.winner, "how": r.result.value, "points": r.points, "cube": r.cube}
            if game.points != r.points:
                result["written_points"] = game.points
        self.doc["games"].append({"number": game.start.number, "score_before": list(game.start.score),
                                  "crawford": game.crawford, "actions": actions, "result": result})

    def end_match(self) -> dict:
        doc, self.doc = self.doc, {}
        return doc


def documents_text(docs: list[dict]) -> str:
    """One document for a single match, a list of documents for several."""
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
                actions.append(Action(line, 1, number, side, ActionKind.MOVE if text else ActionKind.DANCE, dice, text, raw=text))
            elif kind in ("double", "beaver"):
                actions.append(Action(line, 1, number, side, ActionKind.DOUBLE if kind == "double" else ActionKind.BEAVER,
                                      cube=int(item["cube"])))
            elif kind == "roll":
                first, second = (int(d) for d in item["dice"])
                actions.append(Action(line, 1, number, side, ActionKind.ROLL, (first, second)))
            elif kind in ("take", "drop"):
                actions.append(Action(line, 1, number, side, ActionKind.TAKE if kind == "take" else ActionKind.DROP))
            else:
                raise MatchFileError(f"unknown action {kind!r}", path, line, 1)
        result = game.get("result")
        if result is not None:
            side = int(result["winner"])
            if side not in (0, 1):
                raise MatchFileError(f"winner {side!r} is not 0 or 1", path, 0, 0)
            line = actions[-1].line if actions else 0
            points = int(result.get("written_points", result["points"]))
            actions.append(Action(line, 1, None, side, ActionKind.WIN, points=points))
        score = game.get("score_before")
        games.append(GameRecord(int(game.get("number", index)), players,
                                (int(score[0]), int(score[1])) if score is not None else None, tuple(actions), 0))
    return MatchRecord(int(doc["match_length"]), tuple(games), 0, tags=tags, path=path)




def json_document(record: MatchRecord, notation: str = "gnubg", rules: Rules | None = None) -> dict:
    """One match as the JSON document described in the module docstring."""
    return replay_match(record, rules=rules, visitor=JsonWriter(notation))


def json_text(records, notation: str = "gnubg", rules: Rules | None = None) -> str:
    """One document for a single match, a list of documents for several."""
    return documents_text([json_document(record, notation, rules) for record in records])
