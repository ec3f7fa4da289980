"""GNU Backgammon's SGF (GM[6]): reading into match records, and writing.

gnubg saves a match as one game tree per game. The root node holds
``MI[length:7][game:0][ws:0][bs:0]`` (match length, game index from 0, the
scores of White and Black before the game), ``PW``/``PB`` (White is gnubg's
player 0, the left column of a .mat file), ``RU`` (``Crawford``,
``Crawford:CrawfordGame``, ``Jacoby``), ``RE[W+2]`` (``R`` appended for a
resignation) and ``DT``/``PC``/``EV``. Every action is a node of its own:
``W[31hefe]`` is a roll and one letter pair per die, ``a``..``x`` = points
1..24 (White's numbering; Black's points are mirrored, ``x`` - letter), ``y``
the bar, ``z`` off; a roll without pairs is a dance; ``W[double]``,
``B[take]``, ``B[drop]``.

:func:`read_sgf` gives the same :class:`~bgcli.match.records.MatchRecord` records
as the .mat reader (plays in .mat text, ``13/8 13/11``; the line of each
action is its node's line), so replay, audit, score and export work
unchanged. The syntax is ``grammars/sgf.lark``; one Transformer walks the
main line of each game tree and builds the records. Bad values are collected
in ``MatchRecord.errors``, as the .mat reader does with bad lines.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import IO, Iterator

from lark import Transformer, v_args

from bgcli import grammar
from bgcli.errors import MatchFileError
from bgcli.formats.reading import decode, read_whole
from bgcli.match.records import Action, ActionKind, GameRecord, MatchPart, MatchRecord, parts_of
from bgcli.core.value import Outcome
from bgcli.match.replay import Event, EventKind, replay_match
from bgcli.formats.writing import GameToWrite, GameWriter, other_tags, steps_to_write
from bgcli.core.position import BAR, OFF
from bgcli.core.rules import Rules

MOVE, DANCE, DOUBLE, BEAVER = ActionKind.MOVE, ActionKind.DANCE, ActionKind.DOUBLE, ActionKind.BEAVER
TAKE, DROP, WINS = ActionKind.TAKE, ActionKind.DROP, ActionKind.WIN

GRAMMAR = "sgf"
_SIDES = {"W": 0, "B": 1}
_ROLL = re.compile(r"([1-6])([1-6])((?:[a-z][a-z])*)$")
_RESULT = re.compile(r"([WB])\+([0-9]{0,9})(R?)", re.I)
_SMALL_NUMBER = re.compile(r"[0-9]{1,9}")   # ASCII digits only: no sign, no superscripts
# Setup properties: a game from a set-up position cannot be a match record.
_SETUP = ("AB", "AW", "AE", "PL", "CV", "CP", "DI")


# The tags SGF has a property for (WR and BR: White's and Black's rank; OT: the clock)
_TAG_PROPERTIES = (("Site", "PC"), ("Event", "EV"), ("Round", "RO"), ("Annotator", "AN"), ("Player 1 Elo", "WR"),
                   ("Player 2 Elo", "BR"), ("ClockType", "OT"))


@dataclass(frozen=True)
class _Node:
    line: int
    column: int
    props: dict[str, list[str]]


def _unescape(value: str) -> str:
    # SGF: "\" escapes the next character; an escaped line end is removed
    return re.sub(r"\\(\r\n|\n|\r|.)", lambda m: "" if m.group(1) in ("\r\n", "\n", "\r") else m.group(1), value[1:-1], flags=re.S)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


class _SgfTree(Transformer):
    """Builds MatchRecords from the parse tree of ``sgf.lark``."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def prop(self, items):
        ident, *values = items
        return (str(ident).upper(), [_unescape(str(v)) for v in values])

    @v_args(meta=True)
    def node(self, meta, items):
        props: dict[str, list[str]] = {}
        for ident, values in items:
            props.setdefault(ident, []).extend(values)
        line = getattr(meta, "line", 0) if not getattr(meta, "empty", True) else 0
        column = getattr(meta, "column", 0) if not getattr(meta, "empty", True) else 0
        return _Node(line, column, props)

    def game_tree(self, items):
        nodes = [i for i in items if isinstance(i, _Node)]
        variations = [i for i in items if isinstance(i, list)]
        return nodes + (variations[0] if variations else [])   # the main line

    def start(self, trees):
        return _Builder(self.path).build(trees)


class _Builder:
    """Turns the main lines of game trees into match records."""

    def __init__(self, path: str):
        self.path = path

    def build(self, trees: list[list[_Node]]) -> list[MatchRecord]:
        matches: list[dict] = []
        for nodes in trees:
            if not nodes:
                continue
            root = nodes[0]
            info = self._info(root)
            current = matches[-1] if matches else None
            if (current is None or info["game"] == 0 and current["games"]
                    or (info["length"], info["players"]) != (current["length"], current["players"])):
                current = dict(length=info["length"], players=info["players"], line=root.line,
                               tags=info["tags"], games=[], errors=list(info["errors"]), comments=info["comments"])
                matches.append(current)
            else:
                current["errors"] += info["errors"]
            game = self._game(nodes, info, current["errors"], len(current["games"]) + 1)
            if game is not None:
                current["games"].append(game)
        if not matches:
            raise MatchFileError("not a backgammon SGF file: no game tree", self.path, 1, 1)
        return [MatchRecord(m["length"], tuple(m["games"]), m["line"], tags=m["tags"], comments=tuple(m["comments"]),
                            errors=tuple(sorted(m["errors"], key=lambda e: (e.line, e.column))), path=self.path)
                for m in matches]

    def _error(self, node: _Node, message: str) -> MatchFileError:
        return MatchFileError(message, self.path, node.line, node.column)

    def _info(self, root: _Node) -> dict:
        props = root.props
        errors = []
        game_type = props.get("GM", ["6"])[0].strip()
        if game_type != "6":
            raise self._error(root, f"not a backgammon SGF file: GM[{game_type}] (backgammon is GM[6])")
        fields = {}
        for value in props.get("MI", []):
            key, _, number = value.partition(":")
            if _SMALL_NUMBER.fullmatch(number.strip()):
                fields[key.strip().lower()] = int(number)
            else:
                errors.append(self._error(root, f"cannot read match information MI[{value[:40]}]: "
                                                "expected a name, a colon and a number from 0 to 999999999"))
        # an empty name stays empty (Galaxy records a missing opponent so)
        players = (props.get("PW", ["White"])[0].strip(), props.get("PB", ["Black"])[0].strip())
        length = fields.get("length", 0)
        rules = " ".join(props.get("RU", [])).lower()
        tags: dict[str, str] = {}
        for tag, ident in _TAG_PROPERTIES:
            if ident in props:
                tags[tag] = props[ident][0]
        if "DT" in props:
            tags["EventDate"] = props["DT"][0].replace("-", ".")
        if length:
            tags["Crawford"] = "On" if "crawford" in rules else "Off"
        else:
            tags["Jacoby"] = "On" if "jacoby" in rules else "Off"
        for value in props.get("XR", []) + props.get("XT", []):   # bgcli's rule tags and other tags, "Name=value"
            key, _, text = value.partition("=")
            if key.strip():
                tags[key.strip()] = text.strip()
        comments = []
        for value in props.get("XC", []):   # bgcli's comments, "line=text"
            line, _, text = value.partition("=")
            comments.append((int(line) if _SMALL_NUMBER.fullmatch(line.strip()) else root.line, text))
        return dict(length=length, players=players, game=fields.get("game", 0), comments=comments,
                    scores=(fields.get("ws", 0), fields.get("bs", 0)), tags=tags, errors=errors)

    def _game(self, nodes: list[_Node], info: dict, errors: list, number: int) -> GameRecord | None:
        root = nodes[0]
        for node in nodes:
            setup = [p for p in _SETUP if p in node.props]
            if setup:
                errors.append(self._error(node, f"game {number} starts from a set-up position ({', '.join(setup)}): "
                                                "not supported, the game is skipped"))
                return None
        actions: list[Action] = []
        cube = 1
        row, last_side = 0, None
        for node in nodes:
            for ident in ("W", "B"):
                for value in node.props.get(ident, []):
                    side = _SIDES[ident]
                    if side == 0 or last_side != 0:
                        row += 1
                    last_side = side
                    action = self._action(node, side, value.strip(), row, cube)
                    if isinstance(action, MatchFileError):
                        errors.append(action)
                        continue
                    if action.kind in (DOUBLE, BEAVER):
                        cube = action.cube
                    actions.append(action)
        for value in root.props.get("RE", []):
            found = _RESULT.fullmatch(value.strip())
            if value.strip() in ("0", "Draw"):   # SGF's draw (gnubg writes none: bgcli does, for agreed draws)
                line = actions[-1].line if actions else root.line
                actions.append(Action(line, 1, None, 0, ActionKind.DRAW, raw=value))
                continue
            if not found:
                if value.strip() not in ("", "?", "Void"):
                    errors.append(self._error(root, f"cannot read the result RE[{value}]"))
                continue
            side = _SIDES[found.group(1).upper()]
            points = int(found.group(2)) if found.group(2) else cube
            line = actions[-1].line if actions else root.line
            actions.append(Action(line, 1, None, side, WINS, points=points, raw=value))
        return GameRecord(number, info["players"], info["scores"], tuple(actions), root.line)

    def _action(self, node: _Node, side: int, value: str, row: int, cube: int):
        word = value.lower()
        where = (node.line, node.column, row, side)
        if word == "double":
            return Action(*where, DOUBLE, cube=cube * 2, raw=value)
        if word == "beaver":
            return Action(*where, BEAVER, cube=cube * 2, raw=value)   # ``cube`` is already the double's
        if word == "take":
            return Action(*where, TAKE, raw=value)
        if word == "drop":
            return Action(*where, DROP, raw=value)
        found = _ROLL.match(word)
        if not found:
            return self._error(node, f"cannot read the action {'WB'[side]}[{value}]")
        dice = (int(found.group(1)), int(found.group(2)))
        letters = found.group(3)
        steps = [(_point(letters[i], side), _point(letters[i + 1], side)) for i in range(0, len(letters), 2)]
        text = " ".join(f"{a}/{b}" for a, b in steps)
        return Action(*where, MOVE if steps else DANCE, dice, text, raw=value)


def _point(letter: str, side: int) -> int:
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    index = ord(letter) - ord("a")
    return index + 1 if side == 0 else 24 - index


def _letter(point: int, side: int) -> str:
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("a") + (point - 1 if side == 0 else 24 - point))


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: SGF is read whole, up to a bound."""
    return parts_of(read_sgf(decode(read_whole(handle, path, "SGF")), path))


def writer(notation: str | None = None) -> SgfWriter:
    """The registry's writer (SGF's plays are points, whatever the notation)."""
    return SgfWriter()


def join(outputs: list) -> str:
    return "".join(outputs)


def read_sgf(text: str, path: str = "-") -> list[MatchRecord]:
    """Every match in gnubg SGF text; raises MatchFileError for text that is
    not SGF (with line and column) or holds no backgammon game."""
    def error(message: str, line: int, column: int) -> MatchFileError:
        return MatchFileError(f"cannot read SGF: {message}", path, line, column)

    from lark.exceptions import VisitError

    try:
        return grammar.parse(GRAMMAR, text.lstrip("\ufeff"), error, _SgfTree(path))
    except (RecursionError, VisitError) as exc:
        if isinstance(exc, VisitError) and not isinstance(exc.orig_exc, RecursionError):
            raise
        raise MatchFileError("cannot read SGF: variations nested too deeply", path, 1, 1) from None


# ---------------------------------------------------------------------------
# Writing


def _node(event: Event) -> str | None:
    ident = "WB"[event.side]
    if event.kind == EventKind.ROLL:
        return None    # a roll with no decision: gnubg's SGF has no node for it
    if event.kind == EventKind.MOVE:
        assert event.dice is not None
        high, low = max(event.dice), min(event.dice)
        steps = steps_to_write(event) or []
        return f"{ident}[{high}{low}" + "".join(_letter(s.start, event.side) + _letter(s.end, event.side) for s in steps) + "]"
    return f"{ident}[{event.kind.value}]"


class SgfWriter(GameWriter):
    """A replay visitor that writes the match as gnubg saves it: one game
    tree per game."""

    writes_comments = True

    def __init__(self, application: str | None = None):
        super().__init__()
        from bgcli import __version__

        self.application = application or f"bgcli:{__version__}"
        self.out: list[str] = []

    def write_game(self, game: GameToWrite, index: int) -> None:
        info = self.info
        assert info is not None
        lower = {k.lower(): v for k, v in info.tags.items()}
        root = (f"(;FF[4]GM[6]CA[UTF-8]AP[{_escape(self.application)}]MI[length:{info.length}][game:{index - 1}]"
                f"[ws:{game.start.score[0]}][bs:{game.start.score[1]}]PW[{_escape(info.players[0])}]PB[{_escape(info.players[1])}]")
        if index == 1:
            if "eventdate" in lower:
                root += f"DT[{_escape(lower['eventdate'].replace('.', '-'))}]"
            for tag, ident in _TAG_PROPERTIES:
                if tag.lower() in lower:
                    root += f"{ident}[{_escape(lower[tag.lower()])}]"
            # the tags SGF has no property for go in one of bgcli's own, XT,
            # which gnubg passes over
            placed = {tag.lower() for tag, _ in _TAG_PROPERTIES} | {"eventdate"}
            root += "".join(f"XT[{_escape(key)}={_escape(value)}]" for key, value in other_tags(info.tags, placed))
            # the record's comments, in bgcli's own XC[line=text]
            root += "".join(f"XC[{line}={_escape(text)}]" for line, text in self.comments)
        rules = []
        if info.length and info.rules.crawford:
            rules.append("Crawford:CrawfordGame" if game.crawford else "Crawford")
        if not info.length and info.rules.jacoby:
            rules.append("Jacoby")
        if rules:
            root += f"RU[{':'.join(rules)}]"
        if index == 1:
            # gnubg's SGF has no property for the rules beyond Crawford and
            # Jacoby: bgcli's other rule tags go in a property of its own, XR,
            # which gnubg passes over
            root += "".join(f"XR[{_escape(key)}={_escape(value)}]" for key, value in info.rules.tags().items()
                            if key not in ("Crawford", "Jacoby"))   # RU says those
        result = game.result
        if result is not None and result.winner_side < 0:
            root += "RE[0]"   # SGF's draw
        elif result is not None:
            root += f"RE[{'WB'[result.winner_side]}+{game.points}{'R' if result.result == Outcome.RESIGNATION else ''}]"
        for event in game.events:
            offered = event.before.match.cube * (2 if event.kind == EventKind.DOUBLE else 4)
            if event.kind in (EventKind.DOUBLE, EventKind.BEAVER) and event.cube is not None and event.cube != offered:
                self.left_out.append(f"line {event.line}: the recorded {event.kind.value} to {event.cube} "
                                     f"(SGF writes only that a {event.kind.value} was offered)")
        nodes = [n for n in (_node(event) for event in game.events) if n is not None]
        self.out.append(root + "".join("\n;" + n for n in nodes) + ")\n")

    def end_match(self) -> str:
        text = "".join(self.out)
        self.out = []
        return text


def sgf_text(record: MatchRecord, application: str | None = None, rules: Rules | None = None) -> str:
    """One match as gnubg saves it: one game tree per game."""
    return replay_match(record, rules=rules, visitor=SgfWriter(application))
