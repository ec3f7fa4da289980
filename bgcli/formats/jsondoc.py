"""bgcli's JSON match document: reading and writing.

JSON document (:func:`json_document`, one per match)
----------------------------------------------------
::

    {"format": "bgcli-match", "version": 1,
     "players": [left, right],          # gnubg's player 0 and player 1
     "match_length": 7,                 # 0 = money session
     "rules": {"crawford": true, "jacoby": false, "beavers": false,
               "cube_limit": 0, "variation": "backgammon",
               ...},                    # the fields of bgcli.core.rules.Rules
     "tags": {"Site": "...", ...},      # the file's tags, if any
     "games": [
       {"number": 1, "score_before": [0, 0], "crawford": false,
        "actions": [
          {"line": 7, "player": 0, "name": "Alice",
           "action": "move",            # move, double, take, drop, beaver, raccoon
           "dice": [6, 1],              # moves only; a move without steps is a dance
           "play": "13/7 8/7",          # canonical text in the chosen notation
           "steps": [[13, 7], [8, 7]],  # the mover's points, 25 = bar, 0 = off
           "written": "...",            # only when the recorded text cannot be played at all
           "cube": 1,                   # cube value before the action (for a double, beaver or
                                        # raccoon the value it turns the cube to)
           "position_id": "4HPwATDgc/ABMA",  # before the action, player on roll first
           "match_id": "cAkAAAAAAAAA"},
          ...],
        "result": {"winner": 0, "name": "Alice",
                   "how": "single",     # single, gammon, backgammon, drop, resignation
                   "points": 1, "cube": 1}}   # null while a game has no result
     ]}

An action ``"roll"`` (``player``, ``dice`` only) is XG's rolled-then-resigned
cell; an action ``"loses"`` (``player``, ``points``) is Backgammon Galaxy's
``Losses N points`` on the loser's side (it says the file is Galaxy's: its
forfeits read as Galaxy means them). ``result`` carries ``written_points`` when the file's ``Wins`` line
disagrees with the replay. :func:`read_json` reads the document back into
records.
"""
from __future__ import annotations

import json
import re
from typing import IO, Any, Iterable, Iterator

from bgcli.errors import MatchFileError
from bgcli.output import json_text as safe_json
from bgcli.formats.reading import decode, read_whole
from bgcli.match.records import Action, ActionKind, GameRecord, MatchPart, MatchRecord, parts_of
from bgcli.match.replay import EventKind, MatchStart, replay_match
from bgcli.formats.writing import (
    RULE_TAGS,
    GameToWrite,
    GameWriter,
    MatchText,
    Spool,
    check_style,
    play_in,
    steps_to_write,
)
from bgcli.core.cube import value_reached
from bgcli.core.position import BAR, OFF
from bgcli.core.rules import PROFILES, SETTINGS, Rules, Variation, tag_for
from bgcli.core.spelling import recorded_dice
from bgcli.core.value import Outcome

JSON_FORMAT = "bgcli-match"
# the document's "format" member as written in its text (bgcli writes it first): a head cut short does not parse
_FORMAT_MEMBER = re.compile(r'"format"\s*:\s*"((?:[^"\\]|\\.)*)"')


def why_not_a_record(lines: Iterable[str]) -> str | None:
    """Why the head of a .json file (its lines) is plainly no bgcli match
    document, or None when it is one or may be: what a folder walk asks (an
    archive holds other JSON beside its matches: a site's metadata, an
    analysis). A head that parses whole is judged by its top-level "format"
    member; a head cut short by the first "format" member written in it, and
    with none, it may be one: its audit says."""
    text = "\n".join(lines)
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):   # nested too deeply: its audit says so, as the reader does
        found = _FORMAT_MEMBER.search(text)
        written = found.group(1) if found is not None else JSON_FORMAT
    else:
        written = doc.get("format") if isinstance(doc, dict) else None
    if written == JSON_FORMAT:
        return None
    return "JSON that is not a bgcli match document: " + (f"its 'format' is {written!r}" if isinstance(written, str)
                                                           else "no 'format' member")


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
            "rules": rules.to_dict(),
            # a rule tag that says what "rules" says is left to "rules" (read back, the rules give it
            # again): else each write and read of a document would add the rules' own tags to it
            "tags": {key: value for key, value in match.tags.items()
                     if not (key.lower() in RULE_TAGS and rules.with_tags({key: value}) == rules)},
            "games": [],
            "comments": [{"line": line, "text": text} for line, text in self.comments],
        }

    def write_game(self, game: GameToWrite, index: int) -> None:
        actions = []
        losses = {at: [(side, points) for before, side, points in game.losses if before == at] for at, _, _ in game.losses}
        for at, event in enumerate(game.events):
            for side, points in losses.get(at, ()):   # Galaxy's "Losses N points" on the loser's side
                actions.append({"line": event.line, "player": side, "action": ActionKind.LOSS.value, "points": points})
            state = event.before
            if event.kind == EventKind.ROLL:
                actions.append({"line": event.line, "player": event.side, "name": event.player, "action": EventKind.ROLL.value,
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
            if event.kind in (EventKind.DOUBLE, EventKind.BEAVER, EventKind.RACCOON):
                item["cube"] = value_reached(state.match, event.cube)
            else:
                item["cube"] = state.match.cube
            item["position_id"] = state.position.id()
            item["match_id"] = event.match_id()   # null for a state no Match ID holds (a flawed record)
            actions.append(item)
        for side, points in losses.get(len(game.events), ()):
            actions.append({"line": actions[-1]["line"] if actions else 0, "player": side, "action": ActionKind.LOSS.value,
                            "points": points})
        result = None
        if game.result is not None:
            r = game.result
            result = {"winner": r.winner_side if r.winner_side >= 0 else None, "name": r.winner or None,
                      "how": r.result.value, "points": r.points, "cube": r.cube}
            if game.points != r.points:
                result["written_points"] = game.points
        self.doc["games"].append({"number": game.start.number, "score_before": list(game.start.score),
                                  "crawford": game.crawford, "actions": actions, "result": result})

    def end_match(self) -> dict:
        doc, self.doc = self.doc, {}
        return doc


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: a document is read whole, up to a bound."""
    return parts_of(read_json(decode(read_whole(handle, path, "JSON"), path), path))


class JsonTextWriter(JsonWriter):
    """A JsonWriter whose match is its JSON text, each game written as text as
    soon as it ends, into a :class:`Spool`: the export of a long file holds a
    game's text, never every game's (nor every action's dict, which take
    about ten times the room)."""

    def begin_match(self, match: MatchStart) -> None:
        super().begin_match(match)
        self.body = Spool()
        self.count = 0

    def write_game(self, game: GameToWrite, index: int) -> None:
        super().write_game(game, index)
        # the games where json.dumps(indent=1) would put them: two levels in
        self.body.write((",\n" if self.count else "") + _indented(safe_json(self.doc["games"].pop(), indent=1), "  "))
        self.count += 1

    def end_match(self) -> MatchText:   # type: ignore[override]
        import os

        doc = super().end_match()
        # the comments are known now (an export that streams a file learns them at its end)
        doc["comments"] = [{"line": line, "text": text} for line, text in self.comments]
        if not self.count:
            return MatchText(safe_json(doc, indent=1))
        marker = f"games-{os.urandom(8).hex()}"   # stands where the list goes; no file holds it
        doc["games"] = marker
        before, after = safe_json(doc, indent=1).split(f'"{marker}"')
        return MatchText(before + "[\n", self.body, "\n ]" + after)


def _indented(text: str, prefix: str) -> str:
    return "\n".join(prefix + line for line in text.split("\n"))   # JSON text has no raw newline in a string


def _indented_pieces(text: MatchText, prefix: str) -> Iterator[str]:
    """:func:`_indented` over a text in pieces."""
    yield prefix
    for piece in text.pieces():
        yield piece.replace("\n", "\n" + prefix)


def writer(notation: str | None = None) -> JsonTextWriter:
    """The registry's writer, plays in ``notation`` (gnubg's by default)."""
    return JsonTextWriter(notation or "gnubg")


def join(outputs: Iterable[MatchText]) -> str:
    """One document for one match, a list for several, ``[]`` for none (the
    texts of :class:`JsonTextWriter`, laid out as :func:`documents_text` does)."""
    return "".join(chunks(outputs))


def chunks(outputs: Iterable[MatchText]) -> Iterator[str]:
    """:func:`join` as a stream: a match's text as soon as the next one says
    whether the document is a list (only two are held at once, each in its
    writer's spool)."""
    outputs = iter(outputs)
    first = next(outputs, None)
    if first is None:
        yield "[]\n"
        return
    second = next(outputs, None)
    if second is None:
        yield from first.pieces()
        yield "\n"
        return
    yield "[\n"
    yield from _indented_pieces(first, " ")
    del first
    yield ",\n"
    yield from _indented_pieces(second, " ")
    del second
    for text in outputs:
        yield ",\n"
        yield from _indented_pieces(text, " ")
    yield "\n]\n"


def documents_text(docs: list[dict]) -> str:
    """One document for a single match, a list of documents for several: UTF-8,
    but with C1 controls, DEL, separators and bidirectional overrides as
    ``\\u`` escapes (bgcli.output.json_text), so that the file is exact and
    safe to show."""
    return safe_json(docs[0] if len(docs) == 1 else docs, indent=1) + "\n"


def read_json(text: str | dict | list, path: str = "-") -> list[MatchRecord]:
    """Records from our JSON document (or a list of them). Anything that is
    not such a document is a MatchFileError naming what is wrong."""
    if isinstance(text, str):
        try:
            data = json.loads(text)
        except ValueError as exc:
            if "integer string conversion" in str(exc):   # Python's own limit, worded for a reader
                raise MatchFileError("not a bgcli match document: a number of thousands of digits, which no match holds", path, 0, 0) from None
            raise MatchFileError(f"not JSON: {str(exc)[:120]}", path, getattr(exc, "lineno", 0), getattr(exc, "colno", 0)) from None
        except RecursionError:
            raise MatchFileError("not a bgcli match document: nested too deeply", path, 1, 1) from None
    else:
        data = text
    docs = data if isinstance(data, list) else [data]
    return [_JsonReader(path).record(doc) for doc in docs]


_LIMIT = 10 ** 9   # no number in a match document is this large
# an action's "action" member: the replay's event kind the writer wrote (EventKind's value), as the record's action
_CUBE_ACTIONS = {EventKind.DOUBLE.value: ActionKind.DOUBLE, EventKind.BEAVER.value: ActionKind.BEAVER,
                 EventKind.RACCOON.value: ActionKind.RACCOON}
_ANSWERS = {EventKind.TAKE.value: ActionKind.TAKE, EventKind.DROP.value: ActionKind.DROP}
_SURROGATE = re.compile("[\ud800-\udfff]")   # after json.loads, a surrogate left is a lone one


class _JsonReader:
    """Reads one document, checking every value's type and range."""

    def __init__(self, path: str):
        self.path = path
        self.line = 0

    def fail(self, message: str) -> MatchFileError:
        return MatchFileError(f"not a bgcli match document: {message}", self.path, self.line, 1 if self.line else 0)

    def field(self, mapping: object, key: str, kind: type | tuple, what: str, default: Any = ...) -> Any:
        if not isinstance(mapping, dict):
            raise self.fail(f"{what} is not an object")
        if key not in mapping:
            if default is not ...:
                return default
            raise self.fail(f"{what} has no {key!r}")
        value = mapping[key]
        if isinstance(value, bool) and kind is not bool:
            raise self.fail(f"{key!r} of {what} is {value!r}")
        if not isinstance(value, kind):
            raise self.fail(f"{key!r} of {what} is {_short(value)}, not {_kind_name(kind)}")
        if isinstance(value, str):
            self.text(value, f"{key!r} of {what}")
        return value

    def text(self, value: str, what: str) -> str:
        """``value`` when it is Unicode text: a lone surrogate (``"\\ud800"``)
        is no character, and no name or tag can be written with one."""
        found = _SURROGATE.search(value)
        if found:
            raise self.fail(f"{what} holds a lone surrogate \\u{ord(found.group()):04x}, not a character")
        return value

    def number(self, mapping: object, key: str, what: str, low: int = 0, high: int = _LIMIT, default: Any = ...) -> Any:
        value = self.field(mapping, key, int, what, default)
        if not isinstance(value, int):
            return value   # the default
        if not low <= value <= high:
            raise self.fail(f"{key!r} of {what} is {_short(value)}, not {low} to {high}")
        return value

    def dice(self, value: object) -> tuple[int, int]:
        dice = recorded_dice(*value) if isinstance(value, list) and len(value) == 2 else None
        if dice is None:
            raise self.fail(f"dice {_short(value)} are not two numbers from 1 to 6")
        return dice

    def record(self, doc: object) -> MatchRecord:
        if not isinstance(doc, dict) or doc.get("format") != JSON_FORMAT:
            raise MatchFileError(f"not a bgcli match document (format must be {JSON_FORMAT!r})", self.path, 1, 1)
        players = self.field(doc, "players", list, "the document")
        if len(players) != 2 or not all(isinstance(p, str) for p in players):
            raise self.fail("'players' must be a list of two names")
        for index, name in enumerate(players):
            self.text(name, f"player {index}'s name")
        names = (players[0], players[1])
        raw_tags = self.field(doc, "tags", dict, "the document", {}) or {}
        tags = {}
        for key, value in raw_tags.items():
            if not isinstance(value, (str, int)) or isinstance(value, bool):
                raise self.fail(f"tag {_short(key)} has the value {_short(value)}, not text")
            self.text(key, "a tag's name")
            self.text(str(value), f"tag {_short(key)}")
            tags[str(key)] = str(value)
        rules = self.field(doc, "rules", dict, "the document", {}) or {}
        for name in ("crawford", "jacoby"):
            if name in rules:
                tags.update([tag_for(name, self.field(rules, name, bool, "'rules'"))])
        profile = self.field(rules, "profile", str, "'rules'", "standard")
        if profile not in PROFILES:
            raise self.fail(f"'profile' of 'rules' is {_short(profile)}, not one of {', '.join(PROFILES)}")
        settings: dict[str, Any] = {}
        if rules.get("nackgammon") is True:   # the key of bgcli's first documents of nackgammon (7 December 2026)
            settings["variation"] = Variation.NACKGAMMON
        for setting in SETTINGS:
            if setting.field not in rules:
                continue
            if setting.kind is Variation:
                value = self.field(rules, setting.field, str, "'rules'")
                if value not in {v.value for v in Variation}:
                    raise self.fail(f"'{setting.field}' of 'rules' is {_short(value)}, not one of "
                                    f"{', '.join(v.value for v in Variation)}")
                settings[setting.field] = Variation(value)
            elif setting.kind is bool:
                settings[setting.field] = self.field(rules, setting.field, bool, "'rules'")
            else:
                settings[setting.field] = self.number(rules, setting.field, "'rules'", setting.low, setting.high, 0)
        tags.update(Rules.from_options(profile, **settings).tags())
        if settings.get("cube_limit"):   # said even where a file would not say it (1024 and more)
            tags.update([tag_for("cube_limit", settings["cube_limit"])])
        length = self.number(doc, "match_length", "the document", 0, _LIMIT)
        games = [self.game(game, index, names)
                 for index, game in enumerate(self.field(doc, "games", list, "the document"), 1)]
        comments = []
        for item in self.field(doc, "comments", list, "the document", []):
            comments.append((self.number(item, "line", "a comment", 0, _LIMIT, 0), self.field(item, "text", str, "a comment")))
        return MatchRecord(length, tuple(games), 0, tags=tags, comments=tuple(comments), path=self.path)

    def game(self, game: object, index: int, players: tuple[str, str]) -> GameRecord:
        what = f"game {index}"
        actions = []
        number = 0
        last_side = None
        for item in self.field(game, "actions", list, what):
            self.line = 0
            self.line = self.number(item, "line", "an action", 0, _LIMIT, 0) or 0
            side = self.number(item, "player", "an action", 0, 1)
            if side == 0 or last_side != 0:
                number += 1
            last_side = side
            kind = self.field(item, "action", str, "an action")
            line = self.line
            if kind == EventKind.MOVE.value:
                dice = self.dice(self.field(item, "dice", list, "a move"))
                steps = self.field(item, "steps", (list, type(None)), "a move", None)
                if steps is not None:
                    pairs = []
                    for step in steps:
                        if (not isinstance(step, list) or len(step) != 2
                                or not all(isinstance(p, int) and not isinstance(p, bool) and OFF <= p <= BAR for p in step)):
                            raise self.fail(f"step {_short(step)} is not two points from 0 to 25")
                        pairs.append(f"{step[0]}/{step[1]}")
                    text = " ".join(pairs)
                else:
                    text = str(self.field(item, "written", str, "a move", ""))
                actions.append(Action(line, 1, number, side, ActionKind.MOVE if text else ActionKind.DANCE, dice, text, raw=text))
            elif kind in _CUBE_ACTIONS:
                cube = self.number(item, "cube", f"a {kind}", 0, 1 << 30)   # 0: read, and a cube problem
                actions.append(Action(line, 1, number, side, _CUBE_ACTIONS[kind], cube=cube))
            elif kind == EventKind.ROLL.value:
                actions.append(Action(line, 1, number, side, ActionKind.ROLL, self.dice(self.field(item, "dice", list, "a roll"))))
            elif kind in _ANSWERS:
                actions.append(Action(line, 1, number, side, _ANSWERS[kind]))
            elif kind == ActionKind.LOSS.value:   # Galaxy's "Losses N points": says the file is Galaxy's
                actions.append(Action(line, 1, None, side, ActionKind.LOSS,
                                      points=self.number(item, "points", "a loss", 0, _LIMIT)))
            elif kind == EventKind.DRAW.value:   # bgcli wrote the draw as an action too before its result said it alone
                actions.append(Action(line, 1, None, side, ActionKind.DRAW))
            else:
                raise self.fail(f"unknown action {_short(kind)}")
        self.line = 0
        result = self.field(game, "result", (dict, type(None)), what, None)
        if result is not None and result.get("how") == Outcome.DRAW.value:
            if not any(action.kind == ActionKind.DRAW for action in actions):
                line = actions[-1].line if actions else 0
                actions.append(Action(line, 1, None, 0, ActionKind.DRAW))
        elif result is not None:
            side = self.number(result, "winner", "a result", 0, 1)
            points = self.number(result, "points", "a result", 0, _LIMIT)
            points = self.number(result, "written_points", "a result", 0, _LIMIT, points)
            line = actions[-1].line if actions else 0
            actions.append(Action(line, 1, None, side, ActionKind.WIN, points=points))
        score = self.field(game, "score_before", (list, type(None)), what, None)
        scores = None
        if score is not None:
            if len(score) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < _LIMIT for v in score):
                raise self.fail(f"'score_before' of {what} is not two numbers")
            scores = (score[0], score[1])
        return GameRecord(self.number(game, "number", what, 0, _LIMIT, index), players, scores, tuple(actions), 0)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _kind_name(kind: type | tuple) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {dict: "an object", list: "a list", str: "text", int: "a whole number", bool: "true or false",
             type(None): "null"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def json_document(record: MatchRecord, notation: str = "gnubg", rules: Rules | None = None) -> dict:
    """One match as the JSON document described in the module docstring."""
    return replay_match(record, rules=rules, visitor=JsonWriter(notation))


def json_text(records, notation: str = "gnubg", rules: Rules | None = None) -> str:
    """One document for a single match, a list of documents for several."""
    return documents_text([json_document(record, notation, rules) for record in records])
