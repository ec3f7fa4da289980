"""GNU Backgammon's SGF (GM[6]): reading into match records, and writing.

gnubg saves a match as one game tree per game. The root node holds
``MI[length:7][game:0][ws:0][bs:0]`` (match length, game index from 0, the
scores of White and Black before the game), ``PW``/``PB`` (White is gnubg's
player 0, the left column of a .mat file), ``RU`` (``Crawford``,
``Crawford:CrawfordGame``, ``Jacoby``), ``RE[W+2]`` (``R`` appended for a
resignation), ``DT``/``PC``/``EV``, and in a money game ``CV[4]``, the cube its
automatic doubles made (gnubg's 'set automatic doubles'; a cube set by hand is
a node of its own). Every action is a node of its own:
``W[31hefe]`` is a roll and one letter pair per die, ``a``..``x`` = points
1..24 (White's numbering; Black's points are mirrored, ``x`` - letter), ``y``
the bar, ``z`` off; a roll without pairs is a dance; ``W[double]``,
``B[take]``, ``B[drop]``.

:func:`read_sgf` gives the same :class:`~bgcli.match.records.MatchRecord` records
as the .mat reader (plays in .mat text, ``13/8 13/11``; the line of each
action is its node's line), so replay, audit, score and export work
unchanged. The syntax is ``grammars/sgf.lark``; the reader follows it as a
stream (:func:`_trees`): only the main line of each game tree and only the
properties a record needs are kept, so memory does not grow with unknown
properties or variations, and a property value over ``PROPERTY_LIMIT``
(1 MB) is an error at its line. Bad values are collected in
``MatchRecord.errors``, as the .mat reader does with bad lines.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import IO, Iterable, Iterator

from bgcli.errors import FileReadError, MatchFileError, NotThisFormatError
from bgcli.formats.loggame import AUTO_DOUBLES, SITE_AUTO_DOUBLES
from bgcli.formats.protocol import Lack
from bgcli.formats.reading import a_position, decode, read_whole
from bgcli.match.records import (Action, ActionKind, BoardEdit, GameRecord, MatchPart, MatchRecord, SetUp, parts_of,
                                 Writer, set_up_game)
from bgcli.core.value import Outcome
from bgcli.match.conventions import gnubg_beaver_tags, instant_redoubles
from bgcli.match.replay import Event, EventKind, replay_match
from bgcli.match.wording import PLAIN, Words
from bgcli.output import quote
from bgcli.formats.writing import GameToWrite, GameWriter, MatchText, Spool, other_tags, rule_tags, steps_to_write
from bgcli.core.cube import is_turned, turned, value_reached
from bgcli.core.position import BAR, CHECKERS, OFF, Position, other_side
from bgcli.core.rules import Rules, Variation, tag_for
from bgcli.core.state import GameState, MatchState
from bgcli.core.spelling import DIE_PATTERN, dice_name, recorded_roll

MOVE, DANCE, DOUBLE, BEAVER = ActionKind.MOVE, ActionKind.DANCE, ActionKind.DOUBLE, ActionKind.BEAVER
TAKE, DROP, WINS, SET_UP = ActionKind.TAKE, ActionKind.DROP, ActionKind.WIN, ActionKind.SET_UP

GRAMMAR = "sgf"
_LETTERS = ("W", "B")   # each side's letter: the left column's (player 0's) first
_SIDES = {letter: side for side, letter in enumerate(_LETTERS)}
# how an SGF file writes the actions a problem quotes (bgcli.match.wording): its nodes and its result as written
# (a double holds no value: the one it offers is said beside it); SGF has no word of its own for a raccoon
# (gnubg writes it as a double node, read as one by the state of the cube) and no "and the match"
WORDS = Words(double="{side}[{raw}] (to {value})", beaver="{side}[{raw}] (to {value})", raccoon=PLAIN.raccoon,
              wins="RE[{raw}]", result="result (RE)", and_match=PLAIN.and_match, sides=_LETTERS)
_ROLL = re.compile(rf"({DIE_PATTERN}{DIE_PATTERN})((?:[a-z][a-z])*)$")
# gnubg writes a resignation "W+2R"; Gibbon's libgsgf "W+2Resign" (SGF's FF[4] word for it)
_RESULT = re.compile(r"([WB])\+([0-9]{0,9})(R(?:esign)?)?", re.I)
_LOSS = re.compile(r"([WB])-([0-9]{1,9})", re.I)   # bgcli's XL[B-4]: Galaxy's "Losses 4 points" on Black's side
_SMALL_NUMBER = re.compile(r"[0-9]{1,9}")   # ASCII digits only: no sign, no superscripts
# Setup properties: before a game's first play they set the game up (_set_up); in the middle of a game, what
# was set by hand there (an action of kind SET_UP); a dice node (PL and DI only) sets nothing: the play after
# it names its roll, and after the last play it is that roll, never played (_unplayed_roll)
_SETUP = ("AB", "AW", "AE", "PL", "CV", "CP", "DI")
_BOARD_SETUP = ("AB", "AW", "AE", "CV", "CP", "W", "B")   # "W", "B": a play in the same node is no unplayed roll
_DICE = re.compile(rf"{DIE_PATTERN}{DIE_PATTERN}")
_SETUP_POINT = re.compile(r"[a-y]")   # a point of a set-up: a-x the points, y the bar
_CUBE_ACTIONS = {"double": DOUBLE, "beaver": BEAVER, "take": TAKE, "drop": DROP}   # the values of W and B that are no roll
# Gibbon's libgsgf adds to SGF's moves "resign:N" (the points offered), "accept" and "reject": the result is its
# RE, the game goes on after a rejection, so none of the three is an action to replay
_OFFERS = re.compile(r"resign:[0-9]{1,9}|accept|reject")


# The tags SGF has a property for (WR and BR: White's and Black's rank; OT: the clock)
_TAG_PROPERTIES = (("Site", "PC"), ("Event", "EV"), ("Round", "RO"), ("Annotator", "AN"), ("Player 1 Elo", "WR"),
                   ("Player 2 Elo", "BR"), ("ClockType", "OT"))


@dataclass(frozen=True)
class _Node:
    line: int
    column: int
    props: dict[str, list[str]]


def _unescape(value: str) -> str:
    # SGF: "\\" escapes the next character; an escaped line end is removed
    if "\\" not in value:
        return value
    return re.sub(r"\\(\r\n|\n|\r|.)", lambda m: "" if m.group(1) in ("\r\n", "\n", "\r") else m.group(1), value,
                  flags=re.S)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


PROPERTY_LIMIT = 1 << 20   # characters in one property value (a comment): no real record comes near
DEPTH_LIMIT = 1000          # variations within variations (gnubg writes none)
# what the reader keeps of a node; any other property is read, checked and dropped at once
# (a property the builder reads must be named here, or it is dropped)
_KEPT = frozenset(("GM", "AP", "MI", "PW", "PB", "RU", "RE", "DT", "XR", "XT", "XC", "XL", "W", "B", *_SETUP,
                   *(ident for _, ident in _TAG_PROPERTIES)))
# what the reader marks a node with, its values dropped (they can be long): the analysis of a play (A) or of a
# cube decision (DA), which marks the hint gnubg saves with a position (saved_position)
_MARKED = frozenset(("A", "DA"))
_IDENT = re.compile(r"[A-Za-z]+")
_SPACE = re.compile(r"\s*")
_VALUE_END = re.compile(r"[\]\\]")


def _trees(text: str, path: str) -> Iterator[list[_Node]]:
    """The main line of each game tree of ``text``, each given as soon as
    its tree is closed: a stream that follows grammars/sgf.lark, with what
    no reader needs dropped as it is read, so memory holds the kept
    properties only, and a property value over PROPERTY_LIMIT is an error."""
    position, line, line_start, size = 0, 1, 0, len(text)

    def fail(message: str, at: int, kind: type[MatchFileError] = MatchFileError) -> MatchFileError:
        here = line + text.count("\n", line_start, at)
        start = text.rfind("\n", 0, at) + 1
        return kind(f"cannot read SGF: {message}", path, here, at - start + 1)

    def unexpected(at: int) -> MatchFileError:
        if at >= size:
            return fail("unexpected end of input", at)
        # a text that opens no tree is no SGF at all (the wrong file given, exit 2); one that does, damaged (1)
        kind = MatchFileError if opened else NotThisFormatError
        return fail(f"unexpected {text[at]!r} at column {at - (text.rfind(chr(10), 0, at) + 1) + 1}", at, kind)

    # one frame per open "(": its main line (shared with the variation that
    # continues it), whether it has had a variation, whether it is kept
    frames: list[list] = []
    node: _Node | None = None
    opened = False   # whether a tree has opened
    while True:
        found = _SPACE.match(text, position)
        assert found is not None
        end = found.end()
        if end > position:
            newlines = text.count("\n", position, end)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", position, end) + 1
            position = end
        if position >= size:
            if frames:
                raise unexpected(position)
            return
        char = text[position]
        if char == "(":
            opened = True
            if len(frames) >= DEPTH_LIMIT:
                raise fail(f"variations nested too deeply (more than {DEPTH_LIMIT})", position)
            if not frames:
                frames.append([[], False, True])
            else:   # a variation: the first continues its parent's main line, the others are read and dropped
                parent = frames[-1]
                kept = parent[2] and not parent[1]
                parent[1] = True
                frames.append([parent[0] if kept else [], False, kept])
            position += 1
            node = None
            first = _SPACE.match(text, position).end()   # type: ignore[union-attr]
            if not text.startswith(";", first):
                raise unexpected(first)   # a tree starts with a node
        elif char == ")":
            if not frames:
                raise unexpected(position)
            frame = frames.pop()
            position += 1
            node = None
            if not frames:
                yield frame[0]
        elif char == ";":
            if not frames or frames[-1][1]:
                raise unexpected(position)   # nodes come before a tree's variations
            node = _Node(line, position - line_start + 1, {})
            if frames[-1][2]:
                frames[-1][0].append(node)
            position += 1
        elif "A" <= char <= "Z" or "a" <= char <= "z":
            if node is None:
                raise unexpected(position)
            ident_match = _IDENT.match(text, position)
            assert ident_match is not None
            ident = ident_match.group().upper()
            position = ident_match.end()
            values = node.props.setdefault(ident, []) if ident in _KEPT and frames[-1][2] else None
            if ident in _MARKED and frames[-1][2]:
                node.props.setdefault(ident, [])
            count = 0
            while True:
                after = _SPACE.match(text, position).end()   # type: ignore[union-attr]
                if not text.startswith("[", after):
                    if not count:
                        raise unexpected(after)
                    break
                newlines = text.count("\n", position, after)
                if newlines:
                    line += newlines
                    line_start = text.rfind("\n", position, after) + 1
                start = after + 1
                scan = start
                while True:   # to the first "]" no backslash escapes
                    stop = _VALUE_END.search(text, scan, min(size, start + PROPERTY_LIMIT + 2))
                    if stop is None:
                        if size - start > PROPERTY_LIMIT:
                            raise fail(f"a value of {ident} is longer than {PROPERTY_LIMIT:,} characters, "
                                       "more than bgcli reads in one property", after)
                        raise fail("unexpected end of input", size)
                    if stop.group() == "]":
                        break
                    scan = stop.end() + 1   # an escaped character
                close = stop.start()
                if close - start > PROPERTY_LIMIT:
                    raise fail(f"a value of {ident} is longer than {PROPERTY_LIMIT:,} characters, "
                               "more than bgcli reads in one property", after)
                if values is not None:
                    values.append(_unescape(text[start:close]))
                newlines = text.count("\n", start, close)
                if newlines:
                    line += newlines
                    line_start = text.rfind("\n", start, close) + 1
                position = close + 1
                count += 1
        else:
            raise unexpected(position)


class _Builder:
    """Turns the main lines of game trees into match records."""

    def __init__(self, path: str, positions: bool = True):
        self.path = path
        self.positions = positions   # False: a file that holds gnubg's saved position is refused, said so

    def build(self, trees: Iterable[list[_Node]]) -> list[MatchRecord]:
        matches: list[dict] = []
        first: list[_Node] | None = None   # the first game tree, while it is the only one: a saved position?
        for count, nodes in enumerate(trees):
            first = nodes if count == 0 else None
            if not nodes:
                continue
            root = nodes[0]
            info = self._info(root)
            current = matches[-1] if matches else None
            if (current is None or info["game"] == 0 and current["games"]
                    or (info["length"], info["players"]) != (current["length"], current["players"])):
                current = dict(length=info["length"], players=info["players"], line=root.line,
                               tags=info["tags"], games=[], errors=list(info["errors"]), comments=info["comments"],
                               writer=Writer.GNUBG if _by_gnubg(root) else None)
                matches.append(current)
            else:
                current["errors"] += info["errors"]
            game = self._game(nodes, info, current["errors"], len(current["games"]) + 1)
            if game is not None:
                current["games"].append(game)
                if game.actions and game.actions[0].kind is ActionKind.AUTO_DOUBLE:
                    # gnubg's SGF says no rule of automatic doubles, but writes one only when they were
                    # played: the session gets the rule, as many as bgcli allows (as a TrueMoneyGames file does)
                    current["tags"].setdefault(AUTO_DOUBLES.tag, SITE_AUTO_DOUBLES)
        if not matches:
            raise MatchFileError("not a backgammon SGF file: no game tree", self.path, 1, 1)
        if not self.positions and first is not None and saved_position(first):
            raise MatchFileError(f"not a match file but {a_position(SAVED_POSITION).replace('FILE', self.path)}",
                                 self.path, first[0].line, first[0].column)
        for m in matches:
            if m["writer"] is Writer.GNUBG and not m["length"]:
                # gnubg writes no rule of beavers: its redoubles say it
                m["tags"] = gnubg_beaver_tags(m["tags"], max(map(instant_redoubles, m["games"]), default=0))
        return [MatchRecord(m["length"], tuple(m["games"]), m["line"], tags=m["tags"], comments=tuple(m["comments"]),
                            errors=tuple(sorted(m["errors"], key=lambda e: (e.line, e.column))), path=self.path,
                            words=WORDS, writer=m["writer"])
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
            tags.update([tag_for("crawford", "crawford" in rules)])
        else:
            tags.update([tag_for("jacoby", "jacoby" in rules)])
        # gnubg's RU[Crawford:Nackgammon], RU[Crawford:Hypergammon1]: the variant played
        variation = next((v for v in map(Variation.read, rules.replace(":", " ").split()) if v is not None), None)
        if variation is not None:
            tags.update([tag_for("variation", variation)])
        if "nocube" in rules:   # gnubg's RU[NoCube:Crawford]: played with 'set cube use off'
            tags.update([tag_for("cubeless", True)])
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
        nodes, rolled = _unplayed_roll(nodes)
        first_play = next((at for at, node in enumerate(nodes) if "W" in node.props or "B" in node.props), len(nodes))
        autos = _auto_doubles(nodes[:first_play], info["length"])
        if autos:   # the root's CV is the cube they make, set up nothing
            nodes = [replace(root, props={k: v for k, v in root.props.items() if k != "CV"}), *nodes[1:]]
        set_up = _set_up(nodes[:first_play])
        if isinstance(set_up, str):
            errors.append(self._error(nodes[0], set_up_game(number, "SGF set-up properties", set_up)))
            return None
        if set_up is not None and first_play < len(nodes):   # a game begun with 'set board', then 'set turn'
            letter = "W" if "W" in nodes[first_play].props else "B"
            value = nodes[first_play].props[letter][0].strip().lower()
            set_up = _turn_set(set_up, _SIDES[letter] if value not in _CUBE_ACTIONS or value == "double" else None)
        actions = [Action(root.line, root.column, None, 0, ActionKind.AUTO_DOUBLE, cube=value, raw=f"CV[{autos[-1]}]")
                   for value in autos]
        cube = set_up.cube or 1 if set_up is not None else autos[-1] if autos else 1
        row, last_side = 0, None
        set_ups: list[SetUp] = []   # what each of the game's SET_UP actions set
        group: list[_Node] = []   # the set-up nodes since the last action (gnubg's board, cube or dice set by hand)
        for node in nodes[first_play:]:
            if any(p in node.props for p in _SETUP):
                group.append(node)
            for ident in ("W", "B"):
                for value in node.props.get(ident, []):
                    if _OFFERS.fullmatch(value.strip().lower()):
                        continue
                    side = _SIDES[ident]
                    if side == 0 or last_side != 0:
                        row += 1
                    # gnubg's 'set turn' leaves no node: the side set on roll plays twice in a row
                    rolls = value.strip().lower() not in _CUBE_ACTIONS
                    again = last_side == side and rolls and bool(actions) and actions[-1].kind in (MOVE, DANCE, SET_UP)
                    made = self._set_up_action(group, number, row, side if again else None, node,
                                               side if rolls or value.strip().lower() == "double" else None) \
                        if group or again else None   # the plain case, a play after a play, at once
                    group = []
                    if isinstance(made, MatchFileError):
                        errors.append(made)
                        return None
                    if made is not None:   # before the action: a cube set is the cube it doubles
                        actions.append(made[0])
                        set_ups.append(made[1])
                        cube = made[1].cube or cube
                    last_side = side
                    action = self._action(node, side, value.strip(), row, cube)
                    if isinstance(action, MatchFileError):
                        errors.append(action)
                        continue
                    if action.kind in (DOUBLE, BEAVER):
                        cube = action.cube
                    actions.append(action)
        made = self._set_up_action(group, number, row, None, root, None)   # set up after the last play
        if isinstance(made, MatchFileError):
            errors.append(made)
            return None
        if made is not None:
            actions.append(made[0])
            set_ups.append(made[1])
        if rolled is not None:
            player = _SIDES.get(rolled.props["PL"][0].strip().upper()) if "PL" in rolled.props else None
            dice = _DICE.fullmatch(rolled.props["DI"][0].strip())
            if player is None or dice is None:
                errors.append(self._error(rolled, f"cannot read the roll PL[{''.join(rolled.props.get('PL', []))}]"
                                                  f"DI[{''.join(rolled.props['DI'])}] after the last play"))
            else:
                if player == 0 or last_side != 0:
                    row += 1
                actions.append(Action(rolled.line, rolled.column, row, player, ActionKind.ROLL,
                                      recorded_roll(dice.group(0)), raw=rolled.props["DI"][0]))
        for value in root.props.get("XL", []):   # bgcli's own: Galaxy's "Losses N points" on the loser's side
            loss = _LOSS.fullmatch(value.strip())
            if loss is None:
                errors.append(self._error(root, f"cannot read Galaxy's loss XL[{value}]"))
                continue
            line = actions[-1].line if actions else root.line
            actions.append(Action(line, 1, None, _SIDES[loss.group(1).upper()], ActionKind.LOSS, points=int(loss.group(2)),
                                  raw=value))
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
        return GameRecord(number, info["players"], info["scores"], tuple(actions), root.line, set_up=set_up,
                          set_ups_in_game=tuple(set_ups), autos_written=True)   # gnubg writes every one (its root CV)

    def _set_up_action(self, group: list[_Node], number: int, row: int, again: int | None, play: _Node,
                       mover: int | None) -> tuple[Action, SetUp] | MatchFileError | None:
        """The action of what the set-up nodes ``group`` set by hand in the
        middle of game ``number`` (None for nothing), before the node
        ``play``, a roll or a double of ``mover`` (None: a take or a drop).
        gnubg's 'set turn' writes no node: ``again``, the side that plays
        next after playing last, when the nodes set no turn, and a mover
        other than the side on roll the nodes set (the board set, then the
        turn) are its trace, as gnubg loads them."""
        set_up = _set_up(group, in_game=True)
        if isinstance(set_up, str):
            return self._error(group[0], set_up_game(number, ", ".join(p for n in group for p in _SETUP if p in n.props),
                                                 f"a set-up in the middle of a game: {set_up}"))
        if again is not None and (set_up is None or set_up.on_roll is None):
            how = f"{_LETTERS[again]} plays twice in a row, gnubg's record of 'set turn'"
            set_up = SetUp(None, how, None, None, again) if set_up is None else \
                replace(set_up, on_roll=again, how=f"{set_up.how}; {how}")
        elif set_up is not None:
            set_up = _turn_set(set_up, mover)
        if set_up is None:
            return None
        at = group[0] if group else play   # a turn set alone: at the play that says it
        side = set_up.on_roll if set_up.on_roll is not None else 0
        return Action(at.line, at.column, row, side, SET_UP, raw=set_up.how), set_up

    def _action(self, node: _Node, side: int, value: str, row: int, cube: int):
        word = value.lower()
        where = (node.line, node.column, row, side)
        kind = _CUBE_ACTIONS.get(word)
        if kind is not None:   # a beaver's ``cube`` is already the double's: SGF writes no value, the rule gives it
            return Action(*where, kind, cube=turned(cube) if kind in (DOUBLE, BEAVER) else None, raw=value)
        found = _ROLL.match(word)
        if not found:
            return self._error(node, f"cannot read the action {_LETTERS[side]}[{value}]")
        dice = recorded_roll(found.group(1))
        letters = found.group(2)
        steps = [(_point(letters[i], side), _point(letters[i + 1], side)) for i in range(0, len(letters), 2)]
        text = " ".join(f"{a}/{b}" for a, b in steps)
        return Action(*where, MOVE if steps else DANCE, dice, text, raw=value)


def _by_gnubg(root: _Node) -> bool:
    """Whether the game tree says GNU Backgammon wrote it (``AP[GNU Backgammon:1.07.001]``)."""
    return any(value.strip().startswith("GNU Backgammon") for value in root.props.get("AP", []))


def _auto_doubles(nodes: list[_Node], length: int) -> list[int]:
    """The cubes a money game's automatic doubles make, one by one, as gnubg
    writes them: the cube they end at in the root node, ``CV[4]`` (gnubg
    reads a root's CV so whatever else the game holds), and nothing else set
    up before the first play (the cube of a position set up is a node of its
    own, ``;CV[2]``, as gnubg writes 'set cube value'). Automatic doubles
    are a money-play rule: in a match, or with a board set up, the root's CV
    stays a cube set by hand. Empty when there are none."""
    values = nodes[0].props.get("CV", []) if nodes else []
    if length or len(values) != 1 or not _SMALL_NUMBER.fullmatch(values[0].strip()):
        return []
    value = int(values[0].strip())
    if value < 2 or not is_turned(value) or any(p in node.props for node in nodes for p in _SETUP if p != "CV") \
            or any("CV" in node.props for node in nodes[1:]):
        return []
    cubes = [2]
    while cubes[-1] < value:
        cubes.append(turned(cubes[-1]))
    return cubes


def _turn_set(set_up: SetUp, mover: int | None) -> SetUp:
    """``set_up`` as gnubg loads it when ``mover`` (None: a take or a drop,
    which says nothing of the turn) rolls or doubles next: gnubg's 'set
    turn' writes no node, so a mover other than the side on roll the set-up
    names (its PL: the board set, then the turn) is its trace, and is on roll."""
    if mover is None or set_up.on_roll in (None, mover):
        return set_up
    return replace(set_up, on_roll=mover, how=f"{set_up.how}; then {_LETTERS[mover]} moves, gnubg's record of 'set turn'")


def _unplayed_roll(nodes: list[_Node]) -> tuple[list[_Node], _Node | None]:
    """The game's nodes without a roll that was never played, and that roll.

    gnubg writes a dice node, ``;PL[B]DI[33]``, after the last play of a game
    when its source recorded a roll that the player did not play (XG's
    ``33: ????`` before a resignation, or a record that ends there). In SGF
    the two are set-up properties, but after the last play they set up
    nothing: they are that roll. A node of them elsewhere (or with a board,
    AB/AW/AE, or a cube, CV/CP) is a set-up position."""
    last = len(nodes) - 1
    if last < 1 or "DI" not in nodes[last].props or any(p in nodes[last].props for p in _BOARD_SETUP):
        return nodes, None
    return nodes[:last], nodes[last]


SAVED_POSITION = "GNU Backgammon's saved position"


def saved_position(nodes: list[_Node]) -> bool:
    """Whether a file whose one game tree is ``nodes`` holds a position, not a
    match: gnubg's ``save position`` writes the match's root (its length,
    score and rules), then at once the board set up (``AE[a:y]AW[..]AB[..]``),
    the cube (``CV``, ``CP``), and the dice if rolled (``PL[B]DI[63]``) or,
    after a ``hint``, the hint as one last node with its analysis (the best
    play of the roll, ``B[65aggl]A[..]``, or the cube action, ``B[double]``,
    ``W[take]`` with ``DA[..]``; a play or a cube action without analysis is
    one made): nothing played, no result. A game begun
    with ``set board`` and saved as a match starts with the opening roll's
    dice node, before the board. Read as a match it was a game that never
    ends (and a hint's take 'answers a double that was not offered'); read
    as a position it is what gnubg saved (:func:`position_of`)."""
    if _gibbon_position(nodes):
        return True
    if len(nodes) < 2 or not {"AE", "AW", "AB"} & set(nodes[1].props) or any("RE" in node.props for node in nodes):
        return False
    actions = [at for at, node in enumerate(nodes) if "W" in node.props or "B" in node.props]
    return not actions or actions == [len(nodes) - 1] and not _MARKED.isdisjoint(nodes[-1].props)


def _gibbon_position(nodes: list[_Node]) -> bool:
    """Whether ``nodes`` are the FIBS client Gibbon's save of a position (its libgsgf: Gibbon's src/edited.sgf):
    the root, then the dice node first (``;PL[W]DI[53]``), then the cube and the board each in a node of its own
    (``;CV[2]``, ``;CP[w]``, ``;AE[a:x]AB[..]AW[..]``), nothing played and no result. The root's AP names
    the writer: gnubg saves a game set up by hand after a roll in the same nodes (gnubg_set_cube.sgf of the
    held-out automatic doubles), and that is a game of its match."""
    rest = nodes[1:]
    writer = " ".join(nodes[0].props.get("AP", [""])).casefold() if nodes else ""
    return ("gibbon" in writer or "libgsgf" in writer) and (len(rest) >= 2 and set(rest[0].props) == {"PL", "DI"}
            and all(set(node.props) <= set(_SETUP) for node in rest)
            and any({"AE", "AW", "AB"} & set(node.props) for node in rest[1:]))


def position_of(text: str, path: str = "-") -> GameState | None:
    """The position of gnubg's ``save position`` file (:func:`saved_position`)
    as a :class:`~bgcli.core.state.GameState` seen from the side on roll, with
    the match's length, score, rules and players, and a hint's roll or double
    offered; None when ``text`` holds a match (or more than one game tree);
    MatchFileError when it is no SGF or its set-up breaks the rules."""
    nodes = _position_tree(text, path)
    if nodes is None:
        return None
    builder = _Builder(path)
    info = builder._info(nodes[0])
    if _gibbon_position(nodes):   # its dice node first: the roll of the side its PL names, as gnubg's last
        nodes = [nodes[0], *nodes[2:], nodes[1]]
    nodes, rolled = _unplayed_roll(nodes)
    hint = nodes[-1] if "W" in nodes[-1].props or "B" in nodes[-1].props else None
    set_up = _set_up(nodes[:-1] if hint is not None else nodes)
    if not isinstance(set_up, SetUp) or set_up.position is None:
        raise builder._error(nodes[0], f"the saved position cannot be read: {set_up or 'no board set up'}")
    dice = _DICE.fullmatch(rolled.props["DI"][0].strip()) if rolled is not None else None
    roll = recorded_roll(dice.group(0)) if dice is not None else None
    side = set_up.on_roll if set_up.on_roll is not None else 0
    if set_up.on_roll is None and rolled is not None and "PL" in rolled.props:   # the dice node's PL: who rolled
        side = _SIDES.get(rolled.props["PL"][0].strip().upper(), side)
    turn, doubled = side, False
    if hint is not None:   # the hint names the side to act and what it decides: nothing of it was played
        letter = "W" if "W" in hint.props else "B"
        word = hint.props[letter][0].strip().lower()
        found, kind = _ROLL.match(word), _CUBE_ACTIONS.get(word)
        side = turn = _SIDES[letter]
        if found is not None:
            roll = recorded_roll(found.group(1))
        elif kind in (TAKE, DROP, BEAVER):
            # the answer to a double: the doubler is on roll (the board's PL; gnubg writes the hint with his letter
            # too, where a match writes a take with the taker's), the other answers, the cube offered
            side = set_up.on_roll if set_up.on_roll is not None else side
            turn, doubled = 1 - side, True
        elif kind is not DOUBLE:
            raise builder._error(hint, f"the saved position's hint cannot be read: {letter}[{word[:40]}]")
    rules = Rules(match_length=info["length"]).with_tags(info["tags"])
    match = MatchState(cube=set_up.cube or 1, cube_owner=-1 if set_up.cube_owner is None else set_up.cube_owner,
                       on_roll=side, turn=turn, doubled=doubled, dice=roll or (0, 0), score=info["scores"],
                       names=info["players"], rules=rules,
                       # gnubg's RU[Crawford:CrawfordGame]: this game is the Crawford game
                       crawford="crawfordgame" in " ".join(nodes[0].props.get("RU", [])).lower())
    if problem := match.problem():
        raise builder._error(nodes[0], f"the saved position's match cannot be read: {problem}")
    return GameState(set_up.position if side == 0 else set_up.position.swap(), match)


def read_position(path: str) -> GameState | None:
    """The position of gnubg's ``save position`` file ``path``
    (:func:`position_of`), or None when the SGF file holds a match."""
    try:
        with open(path, "rb") as handle:
            text = decode(read_whole(handle, path, "SGF"), path)
    except OSError as exc:
        raise FileReadError(path, exc) from None
    return position_of(text, path)


def _position_tree(text: str, path: str) -> list[_Node] | None:
    """The one game tree of ``text`` when it is a saved position, else None."""
    trees = _trees(text.lstrip("\ufeff"), path)
    nodes = next(trees, None)
    if nodes is None:
        # no tree at all (an empty file, or blanks): no SGF, the wrong file given (exit 2), as text that opens
        # none is; it was taken for a match file ('that is a match file, not a position')
        raise NotThisFormatError("cannot read SGF: the file holds no game tree", path, 1, 1)
    return nodes if nodes and next(trees, None) is None and saved_position(nodes) else None


def why_not_a_record(lines: Iterable[str]) -> str | None:
    """Why a small .sgf file found in a folder is no match: it is gnubg's
    saved position (skipped with a note, as a position's text is); else None,
    and the audit reads it (an SGF that cannot be read is its error)."""
    try:
        return None if _position_tree("\n".join(lines), "-") is None else a_position(SAVED_POSITION)
    except MatchFileError:
        return None


def _set_up(nodes: list[_Node], in_game: bool = False) -> SetUp | str | None:
    """The set-up of a game's nodes before its first play (or, ``in_game``,
    of the nodes between two of its actions), as gnubg writes and loads it:
    AE clears points (``a:y``, every point and the bars), AW and AB put one
    White or Black checker on a point each (``y`` the bar), PL says who is
    on roll, CV and CP the cube (``w``, ``b``; ``c`` centred); the checkers
    not on the board are off. A node of PL and DI only is gnubg's record of
    dice set by hand (before a set-up, a roll gnubg rolled for its own new
    game): the play after it gives its roll again, so it sets up nothing. None
    when nothing is set up (at the start: the game starts at the opening); a
    string when the set-up breaks the rules or cannot be read (why). In the
    middle of a game what is not set stays as it stands (SetUp's None); a
    board not cleared whole first (``AE[a:y]``, as gnubg writes a board set)
    is an edit of the board as it stands (a :class:`BoardEdit`: AE empties,
    AW and AB add, as the SGF specification says), which the replay applies."""
    sides = [list(Position.start().player), list(Position.start().opponent)]   # W's side, B's side
    cube: int | None = None if in_game else 1
    owner: int | None = None if in_game else -1
    on_roll, cleared, board = None, set(), False
    named: list[str] = []
    steps: list[tuple[int, int, int | None]] = []   # the edits in file order, for a board not cleared whole
    # a dice node before anything is set: dice set by hand that the set-up leaves unplayed, (side, dice)
    rolled: tuple[int, tuple[int, int]] | None = None
    for node in nodes:
        props = node.props
        dice_only = "DI" in props and not set(props) & {"AE", "AW", "AB", "CV", "CP"}
        if in_game and dice_only and not named and "PL" in props:
            dice = _DICE.fullmatch(props["DI"][0].strip())
            side = _SIDES.get(props["PL"][0].strip().upper())
            roll = recorded_roll(dice.group(0)) if dice is not None else None
            if roll is not None and side is not None:
                rolled = (side, roll)
        for ident in ("AE", "AW", "AB", "CV", "CP", "PL"):
            if ident in props and ident not in named and (ident != "PL" or set(props) & {"AE", "AW", "AB"}
                                                          or in_game and not dice_only):
                named.append(ident)
        for value in props.get("AE", []):
            first, _, last = value.strip().lower().partition(":")
            last = last or first
            if not (_SETUP_POINT.fullmatch(first) and _SETUP_POINT.fullmatch(last)):
                return f"cannot read AE[{value}]"
            for letter in map(chr, range(ord(first), ord(last) + 1)):
                cleared.add(letter)
                for side in (0, 1):
                    sides[side][_point(letter, side)] = 0
                    steps.append((side, _point(letter, side), None))
        for ident, side in (("AW", 0), ("AB", 1)):
            for value in props.get(ident, []):
                letter = value.strip().lower()
                if not _SETUP_POINT.fullmatch(letter):
                    return f"cannot read {ident}[{value}]"
                sides[side][_point(letter, side)] += 1
                steps.append((side, _point(letter, side), 1))
        board = board or bool(set(props) & {"AE", "AW", "AB"})
        for value in props.get("CV", []):
            if not _SMALL_NUMBER.fullmatch(value.strip()):
                return f"cannot read the cube CV[{value}]"
            cube = int(value.strip())
        for value in props.get("CP", []):
            owner = {"w": 0, "b": 1}.get(value.strip().lower(), -1)
        if not (in_game and dice_only):   # in the middle of a game a dice node's PL is the side on roll already
            for value in props.get("PL", []):
                on_roll = _SIDES.get(value.strip().upper(), on_roll)
    if not named:
        return None
    edit = BoardEdit(tuple(steps)) if in_game and board and len(cleared) < 25 else None
    position = None
    if board and edit is None:   # no board set: the game's own (the replay places the variant's opening)
        for counts in sides:
            counts[OFF] = 0
            counts[OFF] = CHECKERS - sum(counts)
        position = Position(tuple(sides[0]), tuple(sides[1]))
        if problem := position.problem():
            return problem
    if cube is not None and not is_turned(cube):
        return f"the cube CV[{cube}] is not a power of 2"
    # the opening's board set up is a set-up too: the game starts from a position, not from the opening
    # roll (gnubg's rollout trials set up every trial's board, the opening's included, and their first
    # roll may be a double)
    return SetUp(position, "SGF " + ", ".join(named), cube, owner, on_roll, edit, rolled)


def _set_up_nodes(set_up: SetUp, first: int | None, in_game: bool = False) -> list[str]:
    """gnubg's nodes of a set-up (_set_up reads them): every point and the
    bar cleared, each side's checkers put back one a value (a side with none
    on the board written not at all, as gnubg does), the side on roll (the
    set-up's, else the first mover's); the cube in nodes of their own. In the
    middle of a game only what was set (a turn set alone has no node: gnubg's
    trace of it is the side playing twice in a row, which the plays say)."""
    nodes = []
    if set_up.rolled is not None:   # gnubg's dice set by hand before it, never played: their node first
        side, dice = set_up.rolled
        nodes.append(f"PL[{_LETTERS[side]}]DI[{dice_name(dice)}]")
    if set_up.position is not None:
        board = "AE[a:y]" + "".join(
            f"A{_LETTERS[side]}" + "".join(f"[{_letter(point, side)}]" * counts[point] for point in range(1, BAR + 1))
            for side, counts in enumerate((set_up.position.player, set_up.position.opponent)) if sum(counts[1:BAR + 1]))
        on_roll = set_up.on_roll if set_up.on_roll is not None else first
        nodes.append((f"PL[{_LETTERS[on_roll]}]" if on_roll is not None else "") + board)
    if set_up.cube is not None and (in_game or set_up.cube != 1):
        nodes.append(f"CV[{set_up.cube}]")
    if set_up.cube_owner is not None and (in_game or set_up.cube_owner != -1):
        nodes.append(f"CP[{'wbc'[set_up.cube_owner]}]")   # -1, centred: c
    return nodes


def _point(letter: str, side: int) -> int:
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    point = ord(letter) - ord("a") + 1   # White's numbering (a = 1), Black's mirrored
    return point if side == 0 else other_side(point)


def _letter(point: int, side: int) -> str:
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("a") - 1 + (point if side == 0 else other_side(point)))


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: SGF is read whole, up to a bound. A file that
    holds gnubg's saved position is no match file: the commands of matches
    say so, as of a position's text (the commands of a position read it:
    :func:`read_position`)."""
    text = decode(read_whole(handle, path, "SGF"), path)
    return parts_of(_Builder(path, positions=False).build(_trees(text.lstrip("\ufeff"), path)))


def writer(notation: str | None = None) -> SgfWriter:
    """The registry's writer (SGF's plays are points, whatever the notation)."""
    return SgfWriter()


def chunks(outputs: Iterable[MatchText]) -> Iterator[str]:
    """:func:`join` as a stream: the text of each match as it comes."""
    for output in outputs:
        yield from output.pieces()


def join(outputs: Iterable[MatchText]) -> str:
    return "".join(chunks(outputs))


def read_sgf(text: str, path: str = "-") -> list[MatchRecord]:
    """Every match in gnubg SGF text (a saved position too, as the game it
    sets up); raises MatchFileError for text that is not SGF (with line and
    column) or holds no backgammon game."""
    return _Builder(path).build(_trees(text.lstrip("\ufeff"), path))


# ---------------------------------------------------------------------------
# Writing


def _node(event: Event) -> str | None:
    ident = _LETTERS[event.side]
    if event.kind == EventKind.ROLL:
        return None    # a roll with no decision: gnubg's SGF has no node for it
    if event.kind == EventKind.MOVE:
        assert event.dice is not None
        steps = steps_to_write(event) or []
        return f"{ident}[{dice_name(event.dice)}" + "".join(_letter(s.start, event.side) + _letter(s.end, event.side) for s in steps) + "]"
    if event.kind in (EventKind.BEAVER, EventKind.RACCOON):
        # as gnubg writes them: a redouble at once, a beaver or raccoon by the state of the cube (gnubg 1.07's
        # reader knows no 'beaver' and skips such a node, playing on at the double's cube)
        return f"{ident}[double]"
    return f"{ident}[{event.kind.value}]"


_REDOUBLES = (EventKind.BEAVER, EventKind.RACCOON)


def _answer_unwritten(events: list[Event], at: int) -> bool:
    """Is ``events[at]`` the last of a beaver and its raccoons, with the game going on and no take or drop
    recorded for it (the answer a .mat leaves out)?"""
    if events[at].kind not in _REDOUBLES or at + 1 >= len(events):
        return False
    return events[at + 1].kind not in (*_REDOUBLES, EventKind.TAKE, EventKind.DROP)


class SgfWriter(GameWriter):
    """A replay visitor that writes the match as gnubg saves it: one game
    tree per game."""


    def __init__(self, application: str | None = None):
        super().__init__()
        from bgcli import __version__

        self.application = application or f"bgcli:{__version__}"
        # game 1's text, split where the record's comments go (known at the match's end), and the other games
        self.first: tuple[str, str] | None = None
        self.body = Spool()

    def writes_set_up(self, set_up: SetUp) -> bool:
        return True   # gnubg's AE/AW/AB, PL, CV and CP hold a board, the side on roll and the cube

    def writes_set_up_in_game(self, set_up: SetUp) -> bool:
        return True   # the same nodes after a play, as gnubg writes an edit

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
        comments_at = len(root)   # the record's comments go here, in bgcli's own XC[line=text] (end_match)
        rules = []
        if info.rules.in_force("crawford"):
            rules.append("Crawford:CrawfordGame" if game.crawford else "Crawford")
        if info.rules.in_force("jacoby"):
            rules.append("Jacoby")
        if info.rules.variation.sgf_rule:
            rules.append(info.rules.variation.sgf_rule)
        if info.rules.cubeless:
            rules.insert(0, "NoCube")
        if rules:
            root += f"RU[{':'.join(rules)}]"
        if index == 1:
            # gnubg's SGF has no property for the rules beyond Crawford, Jacoby,
            # Nackgammon and NoCube: bgcli's other rule tags go in a property of
            # its own, XR, which gnubg passes over
            root += "".join(f"XR[{_escape(key)}={_escape(value)}]" for key, value in rule_tags(info)
                            if key.lower() not in ("crawford", "jacoby", "variation", "cubeless"))   # RU says those
        if game.start.set_up is None and game.events and game.events[0].before.match.cube > 1:
            # only automatic doubles raise the cube before the first play: gnubg writes the cube they make in
            # the root, where it reads them (a cube set by hand is a node of its own: _set_up_nodes)
            root += f"CV[{game.events[0].before.match.cube}]"
        result = game.result
        if result is not None and result.winner_side < 0:
            root += "RE[0]"   # SGF's draw
        elif result is not None:
            root += f"RE[{_LETTERS[result.winner_side]}+{game.points}{'R' if result.result == Outcome.RESIGNATION else ''}]"
        # Galaxy's "Losses N points" in a property of bgcli's own, XL[B-4] (gnubg passes over it): it says the
        # record is Galaxy's, whose forfeits (Wins N, the points needed, mid-game) read back as Galaxy means them
        root += "".join(f"XL[{_LETTERS[side]}-{points}]" for _, side, points in game.losses)
        for number, event in enumerate(game.events, 1):
            if event.kind == EventKind.ROLL and event.dice is not None and number < len(game.events):
                # gnubg writes a roll never played only at the end of a game (PL/DI, below)
                self.leave_out(Lack.ROLL_WITHOUT_PLAY, f"line {event.line}: the roll {dice_name(event.dice)} made in the "
                                     "middle of the game without a play (SGF has a node for such a roll only "
                                     "at the end of a game)")
                continue
            if event.kind == EventKind.MOVE and event.play and steps_to_write(event) is None:
                self.left_out.append(f"line {event.line}: the play {quote(event.play)} as written, which SGF cannot "
                                     "hold (its steps are points, and these do not read as steps)")
            if (event.kind in (EventKind.DOUBLE, EventKind.BEAVER) and event.cube is not None
                    and event.cube != value_reached(event.before.match)):
                self.leave_out(Lack.OFFERED_CUBE, f"line {event.line}: the recorded {event.kind.value} to {event.cube} "
                                     f"(SGF writes only that a {event.kind.value} was offered)")
        nodes = []
        set_ups = iter(game.set_ups)
        pending = next(set_ups, None)
        for count, event in enumerate(game.events):
            while pending is not None and pending[0] == count:   # what was set by hand before this event
                nodes += _set_up_nodes(pending[1], None, in_game=True)
                pending = next(set_ups, None)
            if (node := _node(event)) is not None:
                nodes.append(node)
            if _answer_unwritten(game.events, count):
                # a .mat writes no Takes after a beaver or raccoon (gnubg's export neither) but gnubg's SGF
                # always answers the last redouble: without it gnubg 1.07 plays on at the double's cube
                nodes.append(f"{_LETTERS[1 - event.side]}[take]")
        while pending is not None:   # set by hand after the last event
            nodes += _set_up_nodes(pending[1], None, in_game=True)
            pending = next(set_ups, None)
        if game.start.set_up is not None:
            first = game.events[0].side if game.events else None
            nodes[:0] = _set_up_nodes(game.start.set_up, first)
        last = game.events[-1] if game.events else None
        if last is not None and last.kind == EventKind.ROLL and last.dice is not None:
            # a roll never played (before a resignation, or where the record
            # stops), as gnubg writes it: the player on roll and the dice
            nodes.append(f"PL[{_LETTERS[last.side]}]DI[{dice_name(last.dice)}]")
        text = root + "".join("\n;" + n for n in nodes) + ")\n"
        if index == 1:
            self.first = (text[:comments_at], text[comments_at:])
        else:
            self.body.write(text)

    def end_match(self) -> MatchText:
        first, self.first = self.first, None
        if first is None:
            return MatchText(self.body)
        comments = "".join(f"XC[{line}={_escape(text)}]" for line, text in self.comments)
        return MatchText(first[0] + comments + first[1], self.body)


def sgf_text(record: MatchRecord, application: str | None = None, rules: Rules | None = None) -> str:
    """One match as gnubg saves it: one game tree per game."""
    return str(replay_match(record, rules=rules, visitor=SgfWriter(application)))
