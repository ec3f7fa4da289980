"""Positions and identifiers: Match ID, GNUbg ID, XGID, FIBS board strings.

Each format has a reader and a writer, python-chess style:
``parse_match_id`` / ``match_id``, ``parse_gnubg_id`` / ``gnubg_id``,
``parse_xgid`` / ``xgid``, ``parse_fibs`` / ``fibs``. ``parse_position``
reads any of them (and ``start``, a bare Position ID, a plain board of 26
numbers, or pasted text holding a Position ID and a Match ID) through the
one grammar ``grammars/position.lark``.

Players are numbered as gnubg numbers them: player 1 is the user, drawn at
the bottom (XGID's bottom player, the FIBS "player"), player 0 the top one.
A ``GameState`` (bgcli.core.state) is seen from the side of ``match.on_roll``.
"""
from __future__ import annotations

import base64
import binascii
import functools
import re
from typing import Any

from bgcli import grammar
from bgcli.errors import InvalidPositionError
from bgcli.core.position import (BAR, BASE64_CLASS, BASE64_DIGITS, CHECKERS, ID_LENGTH, ID_PATTERN, OFF, POINTS, Position,
                                 other_side)
from bgcli.output import quote
from bgcli.core.rules import Rules, one_away
from bgcli.core.cube import after_turns, is_turned, turns_within
from bgcli.core.state import GAME_STATES, GNUBG_MONEY_SESSION, MAX_CUBE, MAX_SCORE, GameState, MatchState
from bgcli.core.value import Win
from bgcli.core.spelling import DIE_PATTERN, recorded_roll, recorded_text

FIBS_UNLIMITED = 9999  # FIBS writes this match length for unlimited play
FIBS_NAMES = ("Opponent", "You")  # names written when a state has none (player 0, player 1)


MAX_TEXT = 16_384  # characters: a pasted board printout is about 1,300
_WS = " \t\f\r\n"  # the white space the grammar ignores (and the fast path too)


def _short(text: str, limit: int = 60) -> str:
    """The input as it goes into a one-line message: quoted, cut when long."""
    return quote(text, limit)


def _bounded(token, what: str, low: int, high: int, bad) -> int:
    """The value of an INT token of the grammar when it is ``low`` to ``high``;
    else ``bad(problem)`` raised, naming the field and its column. A number of
    thousands of digits is never converted."""
    text = str(token)
    digits = text.lstrip("+-").lstrip("0")
    value = (-1 if text.startswith("-") else 1) * int(digits or "0") if len(digits) <= 6 else None
    if value is None or not low <= value <= high:
        where = f" at column {token.column}" if getattr(token, "column", None) else ""
        raise bad(f"{what} {_short(text, 12)}{where} is not {low} to {high}")
    return value


# --- Match ID ---------------------------------------------------------------


# (name, first bit, width) of each Match ID field, lowest bit first
_MATCH_FIELDS = (
    ("cube", 0, 4),
    ("owner", 4, 2),
    ("on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("doubled", 12, 1),
    ("resign", 13, 2),
    ("die0", 15, 3),
    ("die1", 18, 3),
    ("length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("no_jacoby", 66, 1),
)


def match_id(state: MatchState) -> str:
    """The 12-character Match ID. A money game keeps no score in it, as gnubg's
    ``matchid()`` of a position has none (the states of a session gnubg plays or
    walks carry its running score, which no rule of money play asks: a held-out
    check compares them without it, tests/test_heldout_replay.py)."""
    problem = state.problem()
    if problem:
        raise InvalidPositionError(f"cannot write a match id for {state!r}: {problem}")
    score = state.score if state.match_length else (0, 0)
    values = dict(
        cube=turns_within(state.cube),
        owner=3 if state.centred else state.cube_owner,
        on_roll=state.on_roll,
        crawford=int(state.crawford),
        game_state=state.game_state,
        turn=state.turn,
        doubled=int(state.doubled),
        resign=state.resign,
        # the higher die first, whatever order the state has them in (a FIBS board's or an XGID's
        # dice as rolled): gnubg's MatchID() writes them so, and a Match ID is one string per state
        die0=max(state.dice),
        die1=min(state.dice),
        length=state.match_length,
        score0=score[0],
        score1=score[1],
        no_jacoby=int(not state.rules.jacoby),
    )
    bits = 0
    for name, start, _ in _MATCH_FIELDS:
        bits |= values[name] << start
    return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


MATCH_ID_LENGTH = 12   # a Match ID's 66 bits (nine bytes), six to a character
MATCH_ID_PATTERN = f"{BASE64_CLASS}{{{MATCH_ID_LENGTH}}}"


def parse_match_id(text: str) -> MatchState:
    """Read a 12-character Match ID; every field is checked."""
    mid = text.strip()
    if len(mid) != MATCH_ID_LENGTH or not BASE64_DIGITS.issuperset(mid):
        raise InvalidPositionError(f"invalid match id {_short(text)}: expected {MATCH_ID_LENGTH} base64 characters")
    try:
        bits = int.from_bytes(base64.b64decode(mid), "little")
    except binascii.Error as exc:  # pragma: no cover - guarded by the alphabet check
        raise InvalidPositionError(f"invalid match id {_short(text)}: {exc}") from None
    if bits >> 67:
        raise InvalidPositionError(f"invalid match id {_short(text)}: bits set after bit 66")
    f = {name: (bits >> start) & ((1 << width) - 1) for name, start, width in _MATCH_FIELDS}
    if f["owner"] == 2:
        raise InvalidPositionError(f"invalid match id {_short(text)}: cube owner field is 2 (0, 1 or 3 expected)")
    if f["game_state"] > 4:
        raise InvalidPositionError(f"invalid match id {_short(text)}: game state {f['game_state']} (0 to 4 expected)")
    state = MatchState(
        cube=after_turns(f["cube"]),
        cube_owner=-1 if f["owner"] == 3 else f["owner"],
        on_roll=f["on_roll"],
        crawford=bool(f["crawford"]),
        game_state=f["game_state"],
        turn=f["turn"],
        doubled=bool(f["doubled"]),
        resign=f["resign"],
        dice=(f["die0"], f["die1"]),
        score=(f["score0"], f["score1"]),
        rules=Rules(match_length=f["length"], jacoby=not f["no_jacoby"]),
    )
    problem = state.problem()
    if problem:
        raise InvalidPositionError(f"invalid match id {_short(text)}: {problem}")
    return state


# --- GNUbg ID ---------------------------------------------------------------

def gnubg_id(game: GameState) -> str:
    """``PositionID:MatchID``, as gnubg shows it."""
    return f"{game.position.id()}:{match_id(game.match)}"


def parse_gnubg_id(text: str) -> GameState:
    """Read ``PositionID:MatchID``, a bare Position ID (money, centred cube,
    no dice), or pasted text holding both IDs in either order."""
    kind, game = _read(text)
    if kind not in ("gnubg_id", "position_id", "pasted"):
        raise InvalidPositionError(f"invalid gnubg id {_short(text)}: this is {_KIND_NAMES[kind]}, not a gnubg id")
    return game


# --- XGID -------------------------------------------------------------------

_XG_OWNER = {1: 1, 0: -1, -1: 0}  # XGID owner (1 bottom, 0 centre, -1 top) -> gnubg player
_XG_PLAYER = {1: 1, -1: 0}  # XGID turn -> gnubg player


def xgid(game: GameState) -> str:
    """The XGID with all ten fields. Bottom is gnubg's player 1, top player 0.
    With a double pending the dice field is ``D`` and the turn is the player
    who must take or pass."""
    m = game.match
    bottom, top = _absolute_sides(game)
    chars = ["-"] * 26
    for p in POINTS:
        if bottom[p]:
            chars[p] = chr(ord("A") + bottom[p] - 1)
        elif top[other_side(p)]:
            chars[p] = chr(ord("a") + top[other_side(p)] - 1)
    if top[BAR]:
        chars[other_side(BAR)] = chr(ord("a") + top[BAR] - 1)
    if bottom[BAR]:
        chars[BAR] = chr(ord("A") + bottom[BAR] - 1)
    owner = {1: 1, -1: 0, 0: -1}[m.cube_owner]
    mover = m.turn if m.doubled else m.on_roll
    dice = "D" if m.doubled else ("00" if m.dice == (0, 0) else f"{recorded_text(m.dice)}")
    rules = m.rules
    flags = int(m.crawford) if rules.match_length else int(rules.jacoby) | int(rules.beavers) << 1
    # no cube limit is XG's maxcube 10 (a cube of 1024), or the cube's own when it is higher
    max_cube = turns_within(rules.cube_limit) if rules.cube_limit else max(XG_NO_LIMIT, turns_within(m.cube))
    return (
        f"XGID={''.join(chars)}:{turns_within(m.cube)}:{owner}:{1 if mover == 1 else -1}:{dice}:"
        f"{m.score[1]}:{m.score[0]}:{flags}:{rules.match_length}:{max_cube}"
    )


# XG's maxcube for no cube limit, and the XGID's when its tenth field is left out
XG_NO_LIMIT = 10


def parse_xgid(text: str) -> GameState:
    """Read an XGID (the ``XGID=`` prefix may be left out; the tenth field,
    maxcube, too)."""
    body = text.strip(_WS) if isinstance(text, str) else text
    if isinstance(body, str) and re.match(r"[-A-Za-z]{26}:", body):
        body = "XGID=" + body  # the prefix left out
    kind, game = _read(body, shown=text)
    if kind != "xgid":
        raise InvalidPositionError(f"invalid xgid {_short(text)}: this is {_KIND_NAMES[kind]}, not an xgid")
    return game


def _absolute_sides(game: GameState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(player 1's side, player 0's side) of a game state."""
    if game.match.on_roll == 1:
        return game.position.player, game.position.opponent
    return game.position.opponent, game.position.player


def _checked_game(match: MatchState, side1, side0, on_roll: int, bad) -> GameState:
    """The state of a read XGID or FIBS board, or ``bad(problem)`` raised
    when its match fields or its checkers break the rules."""
    problem = match.problem()
    if problem:
        raise bad(problem)
    position = _from_absolute(side1, side0, on_roll)
    problem = position.problem()
    if problem:
        raise bad(problem.replace("player on roll", "the player on roll"))
    return GameState(position, match)


def _from_absolute(side1, side0, on_roll: int) -> Position:
    return Position(tuple(side1), tuple(side0)) if on_roll == 1 else Position(tuple(side0), tuple(side1))


_MAX_CUBE_LOG = turns_within(MAX_CUBE)   # an XGID's cube and maxcube fields are logarithms: counts of turns


def _xgid_state(text: str, fields: list) -> GameState:
    def bad(problem: str) -> InvalidPositionError:
        return InvalidPositionError(f"invalid xgid {_short(text)}: {problem}")

    pos = str(fields[0])
    cube_log = _bounded(fields[1], "cube field", 0, _MAX_CUBE_LOG, bad)
    owner = _bounded(fields[2], "cube owner", -1, 1, bad)
    turn = _bounded(fields[3], "turn", -1, 1, bad)
    dice_text = str(fields[4]).upper()
    score_bottom = _bounded(fields[5], "bottom player's score", 0, MAX_SCORE, bad)
    score_top = _bounded(fields[6], "top player's score", 0, MAX_SCORE, bad)
    flags = _bounded(fields[7], "Crawford/Jacoby field", 0, 3, bad)
    length = _bounded(fields[8], "match length", 0, MAX_SCORE, bad)
    max_cube = _bounded(fields[9], "maxcube", 0, _MAX_CUBE_LOG, bad) if len(fields) > 9 else XG_NO_LIMIT
    bottom, top = [0] * 26, [0] * 26
    for i, c in enumerate(pos):
        if c == "-":
            continue
        if not ("A" <= c <= "O" or "a" <= c <= "o"):
            raise bad(f"position character {c!r} at {i} is not '-', A-O or a-o")
        if c.isupper():
            if i == 0:
                raise bad("character 0 is the top player's bar; it cannot hold bottom checkers")
            bottom[i] += ord(c) - ord("A") + 1
        else:
            if i == 25:
                raise bad("character 25 is the bottom player's bar; it cannot hold top checkers")
            top[other_side(i)] += ord(c) - ord("a") + 1
    for side, name in ((bottom, "bottom"), (top, "top")):
        if sum(side) > CHECKERS:
            raise bad(f"the {name} player has {sum(side)} checkers, more than {CHECKERS}")
        side[OFF] = CHECKERS - sum(side)
    if turn not in _XG_PLAYER:
        raise bad(f"turn {turn} is not 1 or -1")
    doubled = dice_text in ("D", "B", "R")
    crawford = bool(flags & 1) if length else False
    if cube_log > max_cube:
        raise bad(f"cube {after_turns(cube_log)} is above the maxcube {after_turns(max_cube)}")
    if crawford and not one_away(length, (score_bottom, score_top)):
        raise bad(f"the Crawford flag is set at {score_bottom}-{score_top}: the Crawford game of a "
                  f"{length}-point match is played when a player reaches {length - 1}")
    if crawford and (cube_log or owner or doubled):
        raise bad(f"cube {after_turns(cube_log)}{' owned' if owner else ''}{', a double offered,' if doubled else ''} "
                  f"in the Crawford game, where nobody may double")
    dice = (0, 0) if doubled or dice_text == "00" else recorded_roll(dice_text)
    if dice is None:
        raise bad(f"dice {dice_text!r} are not 00 or two numbers from 1 to 6")
    mover = _XG_PLAYER[turn]
    on_roll = 1 - mover if doubled else mover
    match = MatchState(
        cube=after_turns(cube_log),
        cube_owner=_XG_OWNER[owner],
        on_roll=on_roll,
        crawford=crawford,
        turn=mover,
        doubled=doubled,
        dice=dice,
        score=(score_top, score_bottom),
        rules=Rules(match_length=length, jacoby=bool(flags & 1) if not length else False,
                    beavers=bool(flags & 2) if not length else False,
                    cube_limit=0 if max_cube == XG_NO_LIMIT else after_turns(max_cube)),
    )
    return _checked_game(match, bottom, top, on_roll, bad)


# --- FIBS board string --------------------------------------------------------

def fibs(game: GameState) -> str:
    """The FIBS ``board:`` string as gnubg writes it: the FIBS "player" is
    gnubg's player 1, playing O (positive numbers) from 24 down to 1."""
    m = game.match
    side1, side0 = _absolute_sides(game)
    board = [-side0[BAR]] + [-side0[other_side(p)] if side0[other_side(p)] else side1[p] for p in POINTS] + [side1[BAR]]
    # a name may hold neither a colon nor white space (gnubg writes '_' for ':')
    names = [re.sub(r"[:\s]", "_", n or FIBS_NAMES[i]) for i, n in enumerate(m.names)]
    length = m.match_length
    numbers = [
        length, m.score[1], m.score[0], *board,
        1 if m.on_roll == 1 else -1,
        *m.dice, *m.dice,
        m.cube, int(m.cube_owner != 0), int(m.cube_owner != 1),
        ((-1 if m.turn == 1 else 1) if m.doubled else 0),
        1, -1, 0, 25,  # colour O, direction 24 -> 1, home 0, bar 25
        side1[OFF], side0[OFF], 0, 0, 0, 0,
        int(one_away(length, m.score) and not m.crawford),  # gnubg: post-Crawford
        int(not m.crawford),  # gnubg: not the Crawford game
    ]
    return "board:" + ":".join([names[1], names[0], *map(str, numbers)])


def parse_fibs(text: str) -> GameState:
    """Read a FIBS ``board:`` string (spaces after the colons are fine)."""
    kind, game = _read(text)
    if kind != "fibs":
        raise InvalidPositionError(f"invalid fibs board {_short(text)}: this is {_KIND_NAMES[kind]}, not a fibs board")
    return game


# (name, lowest, highest) of the 50 numbers after the names; 9999 is an unlimited match
_FIBS_FIELDS = (
    ("match length", 0, MAX_SCORE), ("player's score", 0, MAX_SCORE), ("opponent's score", 0, MAX_SCORE),
    *((f"board field {i}", -CHECKERS, CHECKERS) for i in range(26)),
    ("turn", -1, 1), *(("dice field", 0, 6),) * 4, ("cube", 1, MAX_CUBE),
    ("player may double", 0, 1), ("opponent may double", 0, 1), ("was doubled", -1, 1),
    ("colour", -1, 1), ("direction", -1, 1), ("home", 0, 25), ("bar", 0, 25),
    ("player's borne-off checkers", 0, CHECKERS), ("opponent's borne-off checkers", 0, CHECKERS),
    ("player's bar", -CHECKERS, CHECKERS), ("opponent's bar", -CHECKERS, CHECKERS),
    ("can move", 0, 4), ("forced move", 0, 1), ("post-Crawford field", 0, 1), ("redoubles", 0, 32767),
)


def _fibs_state(text: str, name1: str, name0: str, tokens: list) -> GameState:
    def bad(problem: str) -> InvalidPositionError:
        return InvalidPositionError(f"invalid fibs board {_short(text)}: {problem}")

    n = [_bounded(token, *field, bad) for token, field in zip(tokens, _FIBS_FIELDS)]
    length, score1, score0 = n[0:3]
    board = n[3:29]
    turn = n[29]
    dice_player, dice_opponent = (n[30], n[31]), (n[32], n[33])
    cube, may1, may0, was_doubled = n[34:38]
    colour, direction, _home, bar = n[38:42]
    bar1_field, bar0_field = n[44], n[45]
    post_crawford, not_crawford = n[48], n[49]
    if colour not in (1, -1) or direction not in (1, -1) or bar not in (0, 25):
        raise bad("colour and direction must be 1 or -1 and bar 0 or 25")
    if turn not in (1, -1, 0):
        raise bad(f"turn {turn} is not 1, -1 or 0")
    if length == FIBS_UNLIMITED:
        length = 0
    side1, side0 = [0] * 26, [0] * 26
    for p in POINTS:
        count = board[p] if direction == -1 else board[other_side(p)]
        if count * colour > 0:
            side1[p] = abs(count)
        elif count:
            side0[other_side(p)] = abs(count)
    side1[BAR] = abs(board[bar]) or abs(bar1_field)
    side0[BAR] = abs(board[other_side(bar)]) or abs(bar0_field)
    for side, who in ((side1, "player"), (side0, "opponent")):
        if sum(side) > CHECKERS:
            raise bad(f"the {who} has {sum(side)} checkers, more than {CHECKERS}")
        side[OFF] = CHECKERS - sum(side)
    on_roll = 1 if turn == colour else 0
    dice = dice_player if on_roll == 1 else dice_opponent
    if dice == (0, 0):
        dice = dice_opponent if on_roll == 1 else dice_player
    if not is_turned(cube):
        raise bad(f"cube {cube} is not a power of two")
    owner = -1 if bool(may1) == bool(may0) else (1 if may1 else 0)
    crawford = one_away(length, (score0, score1)) and not (post_crawford or not_crawford)
    match = MatchState(
        cube=cube,
        cube_owner=owner,
        on_roll=on_roll,
        crawford=crawford,
        game_state=1 if turn else 2,
        turn=(1 - on_roll) if was_doubled else on_roll,
        doubled=bool(was_doubled),
        dice=dice,
        score=(score0, score1),
        # a FIBS board has no place for Jacoby: a money game is read with gnubg's session setting (on)
        rules=Rules(match_length=length, jacoby=not length),
        names=(name0, name1),
    )
    return _checked_game(match, side1, side0, on_roll, bad)


# --- The position grammar -------------------------------------------------------

_KIND_NAMES = {
    "start_position": "the word start",
    "position_id": "a position id",
    "gnubg_id": "a gnubg id",
    "xgid": "an xgid",
    "fibs": "a fibs board",
    "board26": "a plain board",
    "pasted": "pasted text",
}


@functools.lru_cache(maxsize=None)
def _transformer_class():
    """The Transformer of ``position.lark``; built on first use because lark
    is imported only when the grammar is needed (start-up time)."""
    from lark import Token, Transformer

    class _PositionTransformer(Transformer):
        """Turns a parse tree of ``position.lark`` into ``(kind, GameState)``."""

        def __init__(self, text: str):
            super().__init__()
            self.text = text

        def start_position(self, items):
            return "start_position", GameState(Position.start())

        def position_id(self, items):
            return "position_id", GameState(_position_id(self.text, str(items[0])))

        def gnubg_id(self, items):
            pid, mid = str(items[0]).split(":")
            return "gnubg_id", _game(self.text, pid, mid)

        def xgid_fields(self, items):
            return list(items)

        def xgid(self, items):
            return "xgid", _xgid_state(self.text, items[1])

        def name(self, items):
            return str(items[0]) if items else ""

        def fibs_fields(self, items):
            return items[:2], items[2:]

        def fibs(self, items):
            (name1, name0), numbers = items[1]
            return "fibs", _fibs_state(self.text, name1, name0, numbers)

        def board26(self, items):
            def bad(problem: str) -> InvalidPositionError:
                return InvalidPositionError(f"invalid board {_short(self.text)}: {problem}")

            tokens = [t for t in items if isinstance(t, Token) and t.type == "INT"]
            numbers = [_bounded(t, f"number {i}", -CHECKERS, CHECKERS, bad) for i, t in enumerate(tokens, 1)]
            # Count each side first: the model's message for too many checkers is less direct.
            mine = sum(n for n in numbers[1:] if n > 0)
            theirs = -sum(n for n in numbers[:25] if n < 0)
            for who, count in (("the player on roll", mine), ("the opponent", theirs)):
                if count > CHECKERS:
                    raise InvalidPositionError(f"invalid board {_short(self.text)}: {who} has {count} checkers, more than {CHECKERS}")
            try:
                position = Position.from_board26(numbers)
            except InvalidPositionError as exc:
                raise InvalidPositionError(f"invalid board {_short(self.text)}: {str(exc).split(': ', 1)[-1]}") from None
            return "board26", GameState(position)

        def pasted(self, items):
            # Try every 14-character and 12-character word; the first that
            # decodes is taken (a board printout has exactly one of each).
            if not any(c.isspace() for c in self.text.strip()):
                problem = _field_problem(self.text.strip()) or _EXPECTED
                raise InvalidPositionError(f"invalid position {_short(self.text)}: {problem}")
            positions, matches = [], []
            for token in items:
                if token.type == "GNUBG_ID":
                    pid, mid = str(token).split(":")
                    positions.append(pid)
                    matches.append(mid)
                elif token.type == "POSITION_ID":
                    positions.append(str(token))
                elif token.type == "MATCH_ID":
                    matches.append(str(token))
            valid = [p for p in positions if _first_valid([p], Position.from_id) is not None]
            if not valid:
                raise InvalidPositionError(f"invalid position {_short(self.text)}: no valid position id in the text")
            if len(valid) > 1:   # two positions on one line: never the first silently
                raise InvalidPositionError(f"invalid position {_short(self.text)}: {len(valid)} position IDs in one "
                                           "text; give one position at a time (one a line in a batch)")
            position = Position.from_id(valid[0])
            match = _first_valid(matches, parse_match_id)
            return "pasted", GameState(position, match if match is not None else GNUBG_MONEY_SESSION)

    return _PositionTransformer


def _first_valid(candidates: list[str], read) -> Any:
    for candidate in candidates:
        try:
            return read(candidate)
        except InvalidPositionError:
            continue
    return None


def _position_id(text: str, pid: str) -> Position:
    try:
        return Position.from_id(pid)
    except InvalidPositionError as exc:
        if text.strip() == pid:
            raise
        raise InvalidPositionError(f"invalid position {_short(text)}: {exc}") from None


def _game(text: str, pid: str, mid: str) -> GameState:
    position = _position_id(text, pid)
    try:
        match = parse_match_id(mid)
    except InvalidPositionError as exc:
        raise InvalidPositionError(f"invalid gnubg id {_short(text)}: {str(exc).split(': ', 1)[-1]}") from None
    return GameState(position, match)


_EXPECTED = "expected start, a position id, a gnubg id, XGID=..., board:..., 26 numbers or text holding the ids"


_XGID_FIELDS = ("board", "cube", "cube owner", "turn", "dice", "bottom player's score", "top player's score",
                "Crawford/Jacoby flag", "match length", "maximum cube")
_XGID_SHAPES = {"board": (re.compile(r"[-A-Oa-o]{26}"), "26 characters, each - or a letter from a to o or A to O"),
                "dice": (re.compile(rf"00|{DIE_PATTERN}{DIE_PATTERN}|[DBRdbr]"), "00 (no roll), two digits 1 to 6, or D, B or R")}
_BASE64 = re.compile(f"{BASE64_CLASS}+")


def id_shaped(word: str) -> bool:
    """A word of an ID's characters and near its length, read as a Position ID (or a Match ID) meant, even
    where a file has that name ('//////////////' is a folder too): its problem is the ID's."""
    return bool(_BASE64.fullmatch(word)) and 10 <= len(word) <= 18


def meant_as_position(text: str) -> bool:
    """Whether ``text``, which holds no position, was meant as one: a line of it that is one word shaped as an
    ID (:func:`id_shaped`), an XGID or a FIBS board, whose problem is then a field's (a position read and found
    bad), rather than text of another kind."""
    for line in text.splitlines():
        word = line.strip()
        if word and not any(c.isspace() for c in word) and (
                id_shaped(word) or re.match(r"(?i)xgid=|board:", word) or _field_problem(word) is not None):
            return True
    return False


def _field_problem(word: str) -> str | None:
    """Which field of an ID-looking word is wrong, and what it must be."""
    if re.match(r"(?i)xgid=", word):
        fields = word[5:].split(":")
        if not 9 <= len(fields) <= 10:
            return f"an XGID has 9 or 10 fields after XGID=, separated by ':', this has {len(fields)}"
        column = 6
        for name, value in zip(_XGID_FIELDS, fields):
            shape = _XGID_SHAPES.get(name)
            if shape is not None and not shape[0].fullmatch(value):
                size = f", this has {len(value)}" if name == "board" and len(value) != 26 else ""
                return f"the XGID's {name} field {_short(value, 30)} at column {column} must be {shape[1]}{size}"
            if shape is None and not re.fullmatch(r"[+-]?[0-9]+", value):
                return f"the XGID's {name} field {_short(value, 30)} at column {column} must be a number"
            column += len(value) + 1
        return None
    if re.match(r"(?i)board:", word):
        count = len(word.split(":")) - 1
        if count != 2 + len(_FIBS_FIELDS):
            return (f"a FIBS board has {2 + len(_FIBS_FIELDS)} fields after board:, the two names and "
                    f"{len(_FIBS_FIELDS)} numbers, separated by ':'; this has {count}")
        return None
    parts = word.split(":")
    if len(parts) in (9, 10) and _XGID_SHAPES["board"][0].fullmatch(parts[0]):
        # an XGID copied without its name (some pages print it so): XG's and gnubg's always start with it
        return "an XGID starts with XGID= (this reads as one without it: write XGID= before it)"
    if len(parts) == 1 and id_shaped(word):
        if _first_valid([word], parse_match_id) is not None:   # copied from gnubg's "Match ID :" line alone
            return (f"this is a Match ID alone: a position needs its Position ID, of {ID_LENGTH} characters, before it "
                    "(POSITIONID:MATCHID, as gnubg's GNUbg ID)")
        return f"a Position ID has {ID_LENGTH} characters (A-Z, a-z, 0-9, + and /), this has {len(word)}"
    if len(parts) == 2 and all(_BASE64.fullmatch(part) for part in parts):
        gnubg_id = f"a GNUbg ID is a Position ID of {ID_LENGTH} characters, ':', a Match ID of {MATCH_ID_LENGTH}"
        if len(parts[0]) != ID_LENGTH:
            return f"{gnubg_id}; the first part has {len(parts[0])}"
        if len(parts[1]) != MATCH_ID_LENGTH:
            return f"{gnubg_id}; the Match ID has {len(parts[1])}"
    return None


def _error(text: str):
    def build(message: str, line: int, column: int) -> InvalidPositionError:
        where = f" (line {line})" if line > 1 else ""
        word = text.strip()
        problem = _field_problem(word) if not any(c.isspace() for c in word) else None
        if problem is not None:
            return InvalidPositionError(f"invalid position {_short(text)}: {problem}")
        if not any(c.isspace() for c in word) and not re.match(r"(?i)xgid=|board:", word):
            # one word that is none of the forms: say what would have been
            return InvalidPositionError(f"invalid position {_short(text)}: {_EXPECTED}")
        return InvalidPositionError(f"invalid position {_short(text)}: {message}{where}")

    return build


def _read(text: str, shown: str | None = None) -> tuple[str, GameState]:
    """Parse any textual form; returns (kind, game)."""
    shown = text if shown is None else shown
    if not isinstance(text, str):
        raise InvalidPositionError(f"invalid position {text!r}: expected text")
    if not text.strip():
        raise InvalidPositionError(f"invalid position {_short(shown)}: empty input")
    if len(text) > MAX_TEXT:
        raise InvalidPositionError(
            f"invalid position {_short(shown)}: {len(text):,} characters, more than any position needs ({MAX_TEXT:,})")
    fast = _read_id_or_start(text)
    if fast is not None:
        return fast
    exported = _exported_position(text, shown)
    if exported is not None:
        return "xgid", exported
    return grammar.parse("position", text, _error(shown), _transformer_class()(shown))


# A line that is an XGID alone, in a text of several lines: eXtreme Gammon's text export (the XGID
# first, then the board drawing and the analysis) and BGBlitz's (the board drawing, then its
# "Position-ID: ...    Match-ID: ..." line and the XGID, then the analysis). These four patterns are
# compiled when a text of several lines is first read (re's cache keeps them): a command that reads
# no such text does not pay for them at start-up.
_XGID_LINE = r"(?m)^[ \t]*(XGID=[^\s]+)[ \t]*\r?$"
# XG's line of names, "X:Player 2   O:Player 1", before the board drawing
_XG_NAMES = r"(?m)^[ \t]*X:(\S(?:.*?\S)?)[ \t]{2,}O:(\S(?:.*?\S)?)[ \t]*\r?$"
# BGBlitz's names beside the drawing's frame, each with its pip count: "+13-14-...-24-+   O: Green  147"
# at the top, "+12-11-...--1-+   X: Red  111" at the bottom
_BGBLITZ_NAMES = (r"(?m)^[ \t]*\+13-14\S*[ \t]+O:[ \t]*(\S(?:.*?\S)?)[ \t]+[0-9]+[ \t]*\r?\n"
                  r"(?:.*\n)*?[ \t]*\+12-11\S*[ \t]+X:[ \t]*(\S(?:.*?\S)?)[ \t]+[0-9]+[ \t]*\r?$")
# BGBlitz's gnubg IDs of the same position, beside its XGID
_BGBLITZ_IDS = r"Position-ID:[ \t]*(\S+)[ \t]+Match-ID:[ \t]*(\S+)"


def _exported_position(text: str, shown: str) -> GameState | None:
    """The position of a program's text export of one (eXtreme Gammon's, BGBlitz's: an XGID line
    among the board drawing and the analysis, which say nothing the ID does not but the players'
    names), or None for any other text. Two XGIDs are two positions, never the first silently;
    BGBlitz's gnubg IDs beside the XGID must say the same (the dice in either order)."""
    if "\n" not in text:
        return None
    xgids = list(dict.fromkeys(found.group(1) for found in re.finditer(_XGID_LINE, text)))
    if not xgids:
        return None
    if len(xgids) > 1:
        raise InvalidPositionError(f"invalid position {_short(shown)}: {len(xgids)} XGIDs in one text; "
                                   "give one position at a time")
    from dataclasses import replace

    game = grammar.parse("position", xgids[0], _error(shown), _transformer_class()(shown))[1]
    ids = re.search(_BGBLITZ_IDS, text)
    if ids is not None:
        other = grammar.parse("position", f"{ids.group(1)}:{ids.group(2)}", _error(shown),
                              _transformer_class()(shown))[1]
        rolled = replace(other.match, dice=game.match.dice) if sorted(other.match.dice) == sorted(game.match.dice) \
            else other.match
        if other.position != game.position or rolled != game.match:
            raise InvalidPositionError(f"invalid position {_short(shown)}: its XGID and its Position-ID and "
                                       "Match-ID describe different positions")
    xg_names = re.search(_XG_NAMES, text)
    names = xg_names or re.search(_BGBLITZ_NAMES, text)
    if names is None:
        return game
    x_name, o_name = (names.group(1), names.group(2)) if names is xg_names else (names.group(2), names.group(1))
    # X is player 1 (at the bottom), O player 0
    return replace(game, match=replace(game.match, names=(o_name.strip(), x_name.strip())))


# Fenced mirror of the grammar's start, Position ID and GNUbg ID (grammars/position.lark):
# tests/test_mirrors.py::test_an_id_or_start_reads_as_the_grammar_reads_it
_BARE_ID = re.compile(rf"[ \t\f\r\n]*({ID_PATTERN})(?::({MATCH_ID_PATTERN}))?[ \t\f\r\n]*")


def _read_id_or_start(text: str) -> tuple[str, GameState] | None:
    """The commonest forms (``start``, a Position ID, a GNUbg ID) without
    building the parser; anything else, or anything wrong, goes through the
    grammar, which stays the definition of the syntax (tests compare them)."""
    if text.strip(_WS) == "start":
        return "start_position", GameState(Position.start())
    found = _BARE_ID.fullmatch(text)
    if found is None:
        return None
    try:
        if found.group(2) is None:
            return "position_id", GameState(Position.from_id(found.group(1)))
        return "gnubg_id", GameState(Position.from_id(found.group(1)), parse_match_id(found.group(2)))
    except InvalidPositionError:
        return None  # let the grammar path word the error


def parse_position(text: str) -> GameState:
    """Read any textual form of a position: ``start``, a Position ID, a GNUbg
    ID, pasted text holding both IDs, ``XGID=...``, ``board:...``, or 26
    numbers (index 0 the opponent's bar, 1..24 the points of the player on
    roll, positive for its checkers, 25 its bar). Forms without match
    context give a money game with a centred cube and no dice."""
    return _read(text)[1]


def position_kind(text: str) -> str:
    """Which form ``text`` is written in: start_position, position_id,
    gnubg_id, xgid, fibs, board26 or pasted."""
    return _read(text)[0]


def position_kind_name(kind: str) -> str:
    """What a form of :func:`position_kind` is called in a message ("an xgid")."""
    return _KIND_NAMES[kind]


# --- A full description, for JSON output ---------------------------------------

def _side_description(side: tuple[int, ...], pips: int) -> dict:
    return {
        "points": {str(p): side[p] for p in POINTS if side[p]},
        "bar": side[BAR],
        "off": side[OFF],
        "pips": pips,
    }


def describe(game: GameState) -> dict:
    """Everything about a game state as plain data (for ``--to json``).
    "player" is the side on roll; its points are counted from its own home."""
    m = game.match
    pos = game.position
    pips = pos.pips()
    me, other = m.on_roll, 1 - m.on_roll
    owner = "centre" if m.centred else ("player" if m.cube_owner == me else "opponent")
    return {
        "position_id": pos.id(),
        "match_id": match_id(m),
        "gnubg_id": gnubg_id(game),
        "xgid": xgid(game),
        "fibs": fibs(game),
        "on_roll": m.on_roll,
        "turn": m.turn,
        "player": _side_description(pos.player, pips[0]),
        "opponent": _side_description(pos.opponent, pips[1]),
        "board": pos.board26(),
        "cube": {"value": m.cube, "owner": owner, "owner_player": m.cube_owner},
        "match_length": m.match_length,
        "score": {"player": m.score[me], "opponent": m.score[other], "player0": m.score[0], "player1": m.score[1]},
        "dice": list(m.dice) if m.dice != (0, 0) else None,
        "crawford": m.crawford,
        "jacoby": m.rules.jacoby,
        "beavers": m.rules.beavers,
        "cube_limit": m.rules.cube_limit,
        "doubled": m.doubled,
        "resign": str(Win(m.resign)) if m.resign else "none",
        "game_state": GAME_STATES[m.game_state],
        "names": list(m.names),
    }
