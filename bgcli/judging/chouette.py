"""Chouettes: a session of three or more players, read, refereed and settled.

One player, the box, plays alone against a team; the captain moves the
team's checkers (as the rule texts describe it). The rules as bgcli applies them:

- The box's double is taken or dropped by each team member on their own. A
  member who drops pays the box the stake before the double and leaves the
  game; the others play on at the new cube. When the captain drops and
  others take, the first member in team order who took plays on as captain.
- The team doubles only when every member still in agrees
  (``Team doubles => 4``, or every such member named: ``Bob, Cho double``).
  A member who doubles alone (``Cho doubles => 4``) breaks that rule: it is
  a ``team`` problem, and the double counts as the team's (the box answered
  it). The box answers the team's double once, for every member still in;
  when the box drops, it pays each of them the cube before the double.
- At the end the box pays, or is paid by, each member still in: the stake
  times the cube times 1, 2 or 3 (single, gammon, backgammon; what the rules
  make of a backgammon or of Jacoby, as in :mod:`bgcli.core.value`).
- Rotation. The team won a game when the box lost to the members still in,
  or dropped their double; it lost when the box won or every member dropped.
  After a loss the box stays, the captain goes to the end of the team and
  the next member becomes captain; after a win the captain goes into the
  box, the next member becomes captain and the old box goes to the end of
  the team. The rotation follows the captain named for the game, even when
  that captain dropped and another member played on. The first game's
  lineup is taken as written (a record may start in the middle of a
  session); a lineup that breaks the rotation is reported once and the
  session goes on from the lineup written.
- A double nobody answers is a problem at the double's line and does not
  count (the cube stays). A member who answers nothing when others answered
  is counted as taking. A take or drop given twice counts the first time.

The file format is bgcli's own (``grammars/chouette.lark`` is its syntax)::

    Chouette: Ann, Bob, Cho, Dee
    Stake: 1

    Game 1
    Box: Ann  Captain: Bob  Team: Cho, Dee
     Ann doubles => 2
     Bob takes  Cho takes  Dee drops
     Team doubles => 4
     Ann takes
     Ann wins gammon

``Stake:`` is the amount per point and applies from the next game on (it
may change between games). ``Ann wins``, ``Ann wins gammon|backgammon``,
``Team wins ...`` (or a member's name) and drops end a game; a result line
after every member dropped is accepted when it agrees. ``Team takes`` and
``Team drops`` answer for every member still in. Lines starting ``#`` or
``;`` are comments.

A game may carry its moves between the box (left column) and the team's
captain (right column) as rows of the Jellyfish layout, read by
:func:`bgcli.formats.mat.read_row`; doubles, answers and results stay
chouette lines. Such a game is replayed as a money game by
:func:`bgcli.match.replay.replay_match`, so the rolls, plays, cube and the
declared result are audited exactly as a match's are; when the moves end
the game, the final position decides what the game is worth (a result line
that says otherwise is a ``result`` problem). A game without moves is
replayed too, for the cube (who may double, the value of ``=> N``), without
the turn checks that only moves make meaningful.

:func:`read_chouette` / :func:`read_file` read a session (a line that
cannot be read becomes a ``syntax`` problem and reading goes on; a file
that does not start with a ``Chouette:`` line raises MatchFileError);
:func:`settle` referees it and gives a :class:`Settlement`: each game's
amounts, the running totals (they sum to zero) and the problems.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Union

from lark import Transformer

from bgcli import grammar
from bgcli.core.cube import value_after
from bgcli.core.kinds import UNFINISHED, Worded
from bgcli.errors import FileReadError, MatchFileError
from bgcli.formats.mat import read_row
from bgcli.formats.reading import LINE_END, decode, read_whole, unicode_encoding
from bgcli.match.records import Action, ActionKind, GameRecord, MatchRecord
from bgcli.match.replay import GameResult, GameStart, MatchVisitor, ProblemKind, Unfinished, replay_match
from bgcli.match.replay import Problem as ReplayProblem
from bgcli.core.rules import Rules
from bgcli.core.state import CubeState
from bgcli.core.value import Outcome, drop_value, game_value

GRAMMAR = "chouette"
TEAM = "Team"          # the team's name in the replay of a game with moves


class Side(str, Worded):
    """The two sides of a chouette game: the box alone, and the team."""

    BOX = "box"
    TEAM = "team"

    @property
    def column(self) -> int:
        """The side's column in the replay of the game: the box on the left."""
        return 0 if self is Side.BOX else 1


BOX, TEAM_SIDE = Side.BOX.column, Side.TEAM.column


class Kind(str, Worded):
    """The kinds of problem the chouette's own rules give; a replayed game
    adds the audit's kinds (``play``, ``dice``, ``cube``, ...)."""

    ROTATION = "rotation"      # a box, captain or team order the rotation does not give
    TEAM = "team"              # a team double without every member still in
    ANSWER = "answer"          # a take or drop missing, given twice, or by the wrong side
    DROPPED = "dropped"        # a member acting after dropping
    PLAYER = "player"          # a name that is not where it should be
    ORDER = "order"            # an action after the game ended, or outside a game
    RESULT = "result"          # a result the moves contradict, or none written
    SYNTAX = "syntax"          # a line that cannot be read
    INCOMPLETE = "incomplete"  # a game with no result


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a chouette file."""

    line: int
    game: int          # 0 outside any game
    kind: str          # a Kind, or a kind of the match audit (bgcli.match.ProblemKind)
    message: str

    def to_dict(self) -> dict:
        return {"line": self.line, "game": self.game, "kind": str(self.kind), "message": self.message}


# --- what the lines say -------------------------------------------------------------


@dataclass(frozen=True)
class Subject:
    """Who acts: players by name, or the whole team (``names`` empty)."""

    names: tuple[str, ...]
    column: int = 0

    @property
    def team(self) -> bool:
        return not self.names

    def __str__(self) -> str:
        return ", ".join(self.names) if self.names else TEAM


@dataclass(frozen=True)
class PlayersLine:
    names: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class StakeLine:
    amount: Decimal
    line: int


@dataclass(frozen=True)
class GameLine:
    number: int
    line: int


@dataclass(frozen=True)
class Lineup:
    """Who sits where in one game: the box, the captain and the rest of the
    team in order."""

    box: str
    captain: str
    team: tuple[str, ...] = ()
    line: int = field(default=0, compare=False)

    @property
    def members(self) -> tuple[str, ...]:
        """The team, captain first."""
        return (self.captain, *self.team)

    @property
    def names(self) -> tuple[str, ...]:
        return (self.box, *self.members)

    def rotated(self, team_won: bool) -> Lineup:
        """The next game's lineup (see the module docstring)."""
        if not self.team:
            return Lineup(self.captain, self.box) if team_won else Lineup(self.box, self.captain)
        if team_won:
            return Lineup(self.captain, self.team[0], (*self.team[1:], self.box))
        return Lineup(self.box, self.team[0], (*self.team[1:], self.captain))

    def __str__(self) -> str:
        team = f"  Team: {', '.join(self.team)}" if self.team else ""
        return f"Box: {self.box}  Captain: {self.captain}{team}"


@dataclass(frozen=True)
class Answer:
    """``Bob takes`` / ``Dee drops`` (one clause of an answers line)."""

    subject: Subject
    take: bool
    line: int
    column: int

    @property
    def verb(self) -> str:
        return "takes" if self.take else "drops"


@dataclass(frozen=True)
class Double:
    """``Ann doubles => 2`` / ``Team doubles => 4``."""

    subject: Subject
    cube: int | None     # as written; None when no ``=> N``
    line: int
    column: int


@dataclass(frozen=True)
class Result:
    """``Ann wins gammon`` / ``Team wins``."""

    subject: Subject
    outcome: Outcome     # SINGLE, GAMMON or BACKGAMMON
    written: bool        # whether the kind was written (``Ann wins`` is a single)
    line: int
    column: int

    def __str__(self) -> str:
        kind = f" {self.outcome.value}" if self.written else ""
        return f"'{self.subject} wins{kind}'"


@dataclass(frozen=True)
class Row:
    """A move row in the Jellyfish layout, kept whole for bgcli.formats.mat."""

    text: str
    line: int


Item = Union[Answer, Double, Result, Row]


@dataclass(frozen=True)
class ChouetteGame:
    """One game as written: its stake, lineup and items in file order."""

    number: int
    line: int
    stake: Decimal
    lineup: Lineup | None
    items: tuple[Item, ...]
    last_line: int


@dataclass(frozen=True)
class Chouette:
    """A session as read: players, games, and the lines that could not be read."""

    players: tuple[str, ...]
    line: int
    games: tuple[ChouetteGame, ...]
    problems: tuple[Problem, ...] = ()
    path: str = "-"


# --- reading --------------------------------------------------------------------------

_BLANK = re.compile(r"[ \t]*$")


# Words that begin a line or a part of the lineup: never a player's name
# (the grammar reads them as names where no keyword can stand)
KEYWORDS = frozenset({"chouette", "stake", "game", "box", "captain", "team"})
# a stake is bounded so that every amount (stake times cube times points, summed
# over the members) stays exact within Decimal's 28 digits
STAKE_DIGITS, STAKE_DECIMALS = 12, 6


class _LineTransformer(Transformer):
    """Builds one line's dataclass from the grammar's tree."""

    def __init__(self, number: int, text: str, path: str):
        super().__init__()
        self.number, self.text, self.path = number, text, path

    def line(self, children):
        return children[0]

    def names(self, children):
        for token in children:
            if str(token).lower() in KEYWORDS:
                raise MatchFileError(f"cannot read {self.text.strip()[:60]!r}: {str(token)!r} is a keyword, not a name",
                                     self.path, self.number, token.column)
        return list(children)

    def players_line(self, children):
        return PlayersLine(tuple(str(t) for t in children[0]), self.number)

    def stake_line(self, children):
        text = str(children[0])
        whole, _, fraction = text.partition(".")
        if len(whole.lstrip("0")) > STAKE_DIGITS or len(fraction) > STAKE_DECIMALS:
            # Decimal keeps 28 digits: a longer stake would be rounded in silence
            raise MatchFileError(f"cannot read the stake {text[:40]!r}{'...' if len(text) > 40 else ''}: at most "
                                 f"{STAKE_DIGITS} digits before the point and {STAKE_DECIMALS} after",
                                 self.path, self.number, children[0].column)
        return StakeLine(Decimal(text), self.number)

    def game_line(self, children):
        return GameLine(int(children[0]), self.number)

    def lineup_line(self, children):
        self.names(children[:2])
        team = tuple(str(t) for t in children[3]) if len(children) > 3 else ()
        return Lineup(str(children[0]), str(children[1]), team, self.number)

    def team(self, children):
        return Subject((), children[0].column)

    def subject(self, children):
        tokens = children[0]
        return Subject(tuple(str(t) for t in tokens), tokens[0].column)

    def take(self, children):
        return Answer(children[0], True, self.number, children[0].column)

    def drop(self, children):
        return Answer(children[0], False, self.number, children[0].column)

    def answers(self, children):
        return tuple(children)

    def double(self, children):
        subject = children[0]
        cube = int(children[2]) if len(children) > 2 else None
        return Double(subject, cube, self.number, subject.column)

    def result(self, children):
        subject = children[0]
        written = len(children) > 2
        outcome = Outcome(str(children[2]).lower()) if written else Outcome.SINGLE
        return Result(subject, outcome, written, self.number, subject.column)

    def row(self, children):
        return Row(self.text, self.number)

    def comment(self, children):
        return None


def parse_line(text: str, number: int = 1, path: str = "-"):
    """One line's dataclass (None for a comment); MatchFileError when it cannot be read."""
    def error(message: str, line: int, column: int) -> MatchFileError:
        return MatchFileError(f"cannot read {text.strip()[:60]!r}: {message}", path, number, column)

    return grammar.parse(GRAMMAR, text, error, _LineTransformer(number, text, path), start="line")


def read_chouette(text: str, path: str = "-") -> Chouette:
    """Read a chouette session; see the module docstring."""
    return _Reader(path).read(LINE_END.split(text))


_FIRST_LINE = "'Chouette: NAME, NAME, NAME'"   # what a file that is not one is told it lacks
CHOUETTE_LIMIT = 16 << 20   # bytes: a chouette record is a few kB a session; more is not one


def read_file(path: str | Path) -> Chouette:
    """:func:`read_chouette` for a file on disk (in any encoding a match file may be: bgcli.formats.reading); ``-`` is standard input."""
    # read with a bound, and binary data refused before it is parsed: /dev/zero (or any endless
    # or huge file) was read whole until the machine ran out of memory
    if str(path) == "-":
        import sys

        raw = read_whole(sys.stdin.buffer, "-", "a chouette", CHOUETTE_LIMIT)
    else:
        try:
            with open(path, "rb") as handle:
                raw = read_whole(handle, str(path), "a chouette", CHOUETTE_LIMIT)
        except OSError as exc:
            raise FileReadError(str(path), exc) from None
    if b"\0" in raw and unicode_encoding(raw[:4096]) is None:
        raise MatchFileError("binary data, not a chouette", str(path), raw.count(b"\n", 0, raw.index(b"\0")) + 1, 1)
    return read_chouette(decode(raw, str(path)), str(path))


class _Reader:
    """Puts the lines together: the players, the stake, the games."""

    def __init__(self, path: str):
        self.path = path
        self.problems: list[Problem] = []
        self.games: list[ChouetteGame] = []
        self.game: dict | None = None
        self.stake = Decimal(1)

    def problem(self, line: int, kind: Kind, message: str) -> None:
        game = self.game["number"] if self.game is not None else 0
        self.problems.append(Problem(line, game, kind, message))

    def read(self, lines: list[str]) -> Chouette:
        players: PlayersLine | None = None
        for number, text in enumerate(lines, 1):
            if number == 1 and text.startswith("\ufeff"):
                text = text[1:]
            if _BLANK.match(text):
                continue
            try:
                item = parse_line(text, number, self.path)
            except MatchFileError as exc:
                if players is None:
                    raise self.not_a_chouette(number, text) from None
                self.problem(number, Kind.SYNTAX, exc.reason)
                continue
            if item is None:
                continue
            if players is None:
                if not isinstance(item, PlayersLine):
                    raise self.not_a_chouette(number, text)
                players = item
                self.check_players(item)
                continue
            self.place(item, number)
        assert players is not None or not self.games
        if players is None:
            raise MatchFileError(f"not a chouette file: it is empty, where a chouette file starts with {_FIRST_LINE}",
                                 self.path, 1, 1)
        self.close_game()
        return Chouette(players.names, players.line, tuple(self.games), tuple(self.problems), self.path)

    def not_a_chouette(self, number: int, text: str) -> MatchFileError:
        return MatchFileError(f"not a chouette file: it starts with {text.strip()[:60]!r}, where a chouette file "
                              f"starts with {_FIRST_LINE}", self.path, number, 1)

    def check_players(self, line: PlayersLine) -> None:
        seen: set[str] = set()
        for name in line.names:
            if name in seen:
                self.problem(line.line, Kind.PLAYER, f"{name} is named twice in the 'Chouette:' line")
            seen.add(name)
        if len(seen) < 3:
            self.problem(line.line, Kind.PLAYER, f"a chouette has three or more players, this one {len(seen)}")

    def place(self, item, number: int) -> None:
        if isinstance(item, PlayersLine):
            self.problem(number, Kind.SYNTAX, "a second 'Chouette:' line; the first one names the players")
        elif isinstance(item, StakeLine):
            self.stake = item.amount   # from the next game on
        elif isinstance(item, GameLine):
            self.close_game()
            self.game = dict(number=item.number, line=number, stake=self.stake, lineup=None, items=[],
                             last_line=number)
        elif self.game is None:
            self.problem(number, Kind.ORDER, "a line outside any game: a 'Game N' line comes first")
        elif isinstance(item, Lineup):
            if self.game["lineup"] is not None:
                self.problem(number, Kind.SYNTAX,
                             f"a second lineup for game {self.game['number']}; the one at line {self.game['lineup'].line} counts")
            else:
                self.game["lineup"] = item
            self.game["last_line"] = number
        else:
            self.game["items"].extend(item if isinstance(item, tuple) else (item,))
            self.game["last_line"] = number

    def close_game(self) -> None:
        if self.game is not None:
            game = self.game
            self.games.append(ChouetteGame(game["number"], game["line"], game["stake"], game["lineup"],
                                           tuple(game["items"]), game["last_line"]))
        self.game = None


# --- the settlement ------------------------------------------------------------------


def _number(amount: Decimal) -> int | float:
    """An amount for JSON: an int when it is whole."""
    return int(amount) if amount == amount.to_integral_value() else float(amount)


@dataclass(frozen=True)
class GameSettlement:
    """What one game came to."""

    number: int
    line: int
    lineup: Lineup
    result: Outcome | None     # single, gammon, backgammon or drop; None when unfinished
    winner: Side | None        # None when unfinished
    cube: int                  # the cube at the end, for the members still in
    stake: Decimal
    amounts: tuple[tuple[str, Decimal], ...]   # per player of the game: + won, - paid
    playing: str               # who moved for the team at the end

    @property
    def team_won(self) -> bool | None:
        return None if self.winner is None else self.winner == Side.TEAM

    @property
    def settlement(self) -> dict[str, Decimal]:
        return dict(self.amounts)

    def to_dict(self) -> dict:
        lineup = self.lineup
        return {"game": self.number, "box": lineup.box, "captain": lineup.captain, "team": list(lineup.team),
                "result": self.result.value if self.result is not None else UNFINISHED, "winner": self.winner,
                "settlement": {name: _number(amount) for name, amount in self.amounts}}


@dataclass(frozen=True)
class Settlement:
    """A refereed session: each game's amounts, the totals and the problems."""

    players: tuple[str, ...]
    games: tuple[GameSettlement, ...]
    problems: tuple[Problem, ...]
    path: str = "-"

    def running(self) -> list[dict[str, Decimal]]:
        """The totals per player after each game (each sums to zero)."""
        totals = {name: Decimal(0) for name in self.players}
        out = []
        for game in self.games:
            for name, amount in game.amounts:
                totals[name] = totals.get(name, Decimal(0)) + amount
            out.append(dict(totals))
        return out

    @property
    def totals(self) -> dict[str, Decimal]:
        running = self.running()
        return running[-1] if running else {name: Decimal(0) for name in self.players}

    def to_dict(self) -> dict:
        return {"players": list(self.players), "games": [g.to_dict() for g in self.games],
                "totals": {name: _number(amount) for name, amount in self.totals.items()},
                "problems": [p.to_dict() for p in self.problems]}


def settle_file(path: str | Path, rules: Rules | None = None) -> Settlement:
    """Read and settle a chouette file."""
    return settle(read_file(path), rules)


def settle(chouette: Chouette, rules: Rules | None = None) -> Settlement:
    """Referee and settle a session (money play; ``rules`` as for a match)."""
    rules = rules or Rules()
    problems = list(chouette.problems)
    players = list(chouette.players)
    games: list[GameSettlement] = []
    previous: GameSettlement | None = None
    for game in chouette.games:
        lineup = _lineup(game, previous, players, problems)
        settled = _GameReferee(game, lineup, rules, chouette.path, problems).run()
        games.append(settled)
        previous = settled
    problems.sort(key=lambda p: p.line)
    return Settlement(tuple(players), tuple(games), tuple(problems), chouette.path)


def _lineup(game: ChouetteGame, previous: GameSettlement | None, players: list[str],
            problems: list[Problem]) -> Lineup:
    """The game's lineup, checked against the players and the rotation."""
    def problem(kind: Kind, message: str) -> None:
        problems.append(Problem(line, game.number, kind, message))

    expected = None
    if previous is not None and previous.team_won is not None:
        expected = previous.lineup.rotated(previous.team_won)
    line = game.lineup.line if game.lineup is not None else game.line
    if game.lineup is None:
        if expected is not None:
            lineup = expected
        elif previous is not None:
            lineup = previous.lineup
        else:
            lineup = Lineup(players[0], players[1] if len(players) > 1 else players[0], tuple(players[2:]))
        problem(Kind.SYNTAX, f"game {game.number} has no 'Box: NAME  Captain: NAME  Team: ...' line; read as {lineup}")
        return lineup
    lineup = game.lineup
    seen: set[str] = set()
    for name in lineup.names:
        if name in seen:
            problem(Kind.PLAYER, f"{name} sits twice in the lineup of game {game.number}")
        elif name not in players:
            problem(Kind.PLAYER, f"{name} is not a player of this chouette (the 'Chouette:' line)")
            players.append(name)   # settled all the same, so that the totals still sum to zero
        seen.add(name)
    missing = [name for name in players if name not in seen]
    if missing:
        problem(Kind.PLAYER, f"{_and(missing)} {'is' if len(missing) == 1 else 'are'} missing from the lineup "
                             f"of game {game.number}")
    if expected is not None and lineup != expected:
        assert previous is not None
        how = "won" if previous.team_won else "lost"
        wrong = [what for what, here, there in (("box", lineup.box, expected.box),
                                                ("captain", lineup.captain, expected.captain),
                                                ("team order", lineup.team, expected.team)) if here != there]
        problem(Kind.ROTATION, f"{_and(wrong)} break{'s' if len(wrong) == 1 else ''} the rotation: the team {how} "
                               f"game {previous.number}, so game {game.number} is {expected}")
    return lineup


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@dataclass
class _Pending:
    """A double waiting for its answers."""

    double: Double
    by_box: bool
    before: int                   # the cube before the double
    voters: tuple[str, ...]       # who answers: the members still in, or the box
    answers: dict[str, Answer] = field(default_factory=dict)


class _Replay(MatchVisitor):
    """Collects the replay's problems and the game's result."""

    wants_events = False

    def __init__(self) -> None:
        self.problems: list[ReplayProblem] = []
        self.result: GameResult | Unfinished | None = None

    def problem(self, problem: ReplayProblem) -> None:
        self.problems.append(problem)

    def end_game(self, game: GameStart, result: GameResult | Unfinished) -> None:
        self.result = result


class _Purse:
    """The money of one game, from each team member's side (the box pays or
    gets the opposite of their sum)."""

    def __init__(self, members: list[str], stake: Decimal):
        self.stake = stake
        self.amounts: dict[str, Decimal] = {m: Decimal(0) for m in members}

    def pay(self, member: str, points: int, to_member: bool) -> None:
        """``points`` at the stake between the box and ``member``."""
        amount = points * self.stake
        self.amounts[member] += amount if to_member else -amount

    def shares(self, box: str, lineup: Lineup) -> tuple[tuple[str, Decimal], ...]:
        """Every player's amount, in lineup order, the box's first."""
        amounts = {box: -sum(self.amounts.values(), Decimal(0)), **self.amounts}
        order = [name for name in lineup.names if name in amounts]
        return tuple((name, amounts[name]) for name in dict.fromkeys(order))


class _Actions:
    """The game translated into a money game's actions between the box (left
    column) and the team (right column), for the match replay."""

    def __init__(self) -> None:
        self.actions: list[Action] = []   # rows' moves and the cube actions, in order
        self.win_lines: set[int] = set()  # the lines of the results put in
        self.moves = False                # whether any row gave a move

    def add(self, line: int, column: int, side: int, kind: ActionKind, cube: int | None = None,
            points: int | None = None) -> None:
        self.actions.append(Action(line, column, None, side, kind, cube=cube, points=points, raw=kind.value))

    def win(self, line: int, column: int, side: int, points: int) -> None:
        self.add(line, column, side, ActionKind.WIN, points=points)
        self.win_lines.add(line)

    def cell(self, cell: Action) -> None:
        self.actions.append(cell)
        self.moves = True


def _replay_game(game: ChouetteGame, box: str, actions: list[Action], rules: Rules, path: str) -> _Replay:
    """The replay bridge: the game between the box and the team replayed as a money game."""
    record = GameRecord(game.number, (box, TEAM), None, tuple(actions), game.line)
    visitor = _Replay()
    replay_match(MatchRecord(0, (record,), game.line, path=path), rules=rules, visitor=visitor)
    return visitor


class _GameReferee:
    """One game: who is still in, the cube, the answers (vote bookkeeping in
    :class:`_Pending`), the result; the money is a :class:`_Purse`, the moves
    and cube actions go to the match replay through :class:`_Actions`."""

    def __init__(self, game: ChouetteGame, lineup: Lineup, rules: Rules, path: str, problems: list[Problem]):
        self.game, self.lineup, self.rules, self.path = game, lineup, rules, path
        self.problems = problems
        self.box = lineup.box
        self.members = [m for m in dict.fromkeys(lineup.members) if m != self.box]
        self.still_in = list(self.members)
        self.dropped: dict[str, int] = {}           # member -> line of the drop
        self.purse = _Purse(self.members, game.stake)
        self.cube = CubeState()                      # between the box (BOX) and the team (TEAM_SIDE)
        self.pending: _Pending | None = None
        self.ended: int | None = None                # the line where the game ended
        self.winner: Side | None = None
        self.outcome: Outcome | None = None
        self.result_item: Result | None = None
        self.playing = self.members[0] if self.members else self.box
        self.log = _Actions()

    def problem(self, line: int, kind: Kind | str, message: str) -> None:
        self.problems.append(Problem(line, self.game.number, kind, message))

    # --- walking the game ---------------------------------------------------------
    def run(self) -> GameSettlement:
        for item in self.game.items:
            if isinstance(item, Answer):
                self.answer(item)
                continue
            self.close()
            if isinstance(item, Row):
                self.row(item)
            elif isinstance(item, Double):
                self.double(item)
            else:
                self.result(item)
        self.close()
        self.replay()
        return self.settlement()

    def after_end(self, line: int, what: str) -> bool:
        if self.ended is None:
            return False
        self.problem(line, Kind.ORDER, f"{what} after the game ended at line {self.ended}")
        return True

    def answer(self, answer: Answer) -> None:
        if self.after_end(answer.line, f"'{answer.subject} {answer.verb}'"):
            return
        pending = self.pending
        if pending is None:
            self.problem(answer.line, Kind.ANSWER, f"{answer.subject} {answer.verb} but no double is waiting")
            return
        whose = self.whose(pending)
        if answer.subject.team:
            if not pending.by_box:
                self.problem(answer.line, Kind.ANSWER, f"the team {answer.verb} its own double: {self.box} answers it")
                return
            names: tuple[str, ...] = pending.voters
        else:
            names = answer.subject.names
        for name in names:
            if name not in pending.voters:
                if name in self.dropped:
                    self.problem(answer.line, Kind.DROPPED,
                                 f"{name} {answer.verb} {whose} double after dropping at line {self.dropped[name]}")
                elif pending.by_box and name == self.box:
                    self.problem(answer.line, Kind.ANSWER, f"{name} {answer.verb} their own double")
                elif not pending.by_box and name in self.members:
                    self.problem(answer.line, Kind.ANSWER,
                                 f"{name} {answer.verb} the team's own double: {self.box} answers it")
                else:
                    self.problem(answer.line, Kind.PLAYER, f"{name} is not in game {self.game.number}")
            elif name in pending.answers:
                first = pending.answers[name]
                self.problem(answer.line, Kind.ANSWER, f"{name} answers {whose} double twice: "
                                                       f"{name} {first.verb} at line {first.line}, which counts")
            else:
                pending.answers[name] = answer

    def whose(self, pending: _Pending) -> str:
        return f"{self.box}'s" if pending.by_box else "the team's"

    def double(self, double: Double) -> None:
        if self.after_end(double.line, f"'{double.subject} doubles'"):
            return
        names = double.subject.names
        by_box = names == (self.box,)
        if not by_box and not double.subject.team:
            doublers = []
            for name in names:
                if name == self.box:
                    self.problem(double.line, Kind.PLAYER, f"{name} is in the box and doubles alone, not with the team")
                elif name in self.dropped:
                    self.problem(double.line, Kind.DROPPED, f"{name} doubles after dropping at line {self.dropped[name]}")
                elif name not in self.still_in:
                    self.problem(double.line, Kind.PLAYER, f"{name} is not in game {self.game.number}")
                else:
                    doublers.append(name)
            if not doublers:
                return
            missing = [m for m in self.still_in if m not in doublers]
            if missing:
                who = f"{doublers[0]} doubles alone" if len(doublers) == 1 else f"{_and(doublers)} double without {_and(missing)}"
                self.problem(double.line, Kind.TEAM,
                             f"{who}: the team doubles only when every member still in agrees "
                             f"({_and(missing)} did not); counted as the team's double")
        voters = tuple(self.still_in) if by_box else (self.box,)
        self.pending = _Pending(double, by_box, self.cube.value, voters)

    def close(self) -> None:
        """Settle the double waiting for answers, if any."""
        pending, self.pending = self.pending, None
        if pending is None:
            return
        double = pending.double
        whose = self.whose(pending)
        if not pending.answers:
            self.problem(double.line, Kind.ANSWER, f"nobody answers {whose} double; it is not counted")
            return
        side = BOX if pending.by_box else TEAM_SIDE
        before = self.cube.double(side, value_after(self.cube)).before
        self.action(double.line, double.column, side, ActionKind.DOUBLE, cube=double.cube)
        if not pending.by_box:
            answer = pending.answers[self.box]
            if answer.take:
                self.action(answer.line, answer.column, BOX, ActionKind.TAKE)
                self.cube.take()
            else:
                self.cube.drop()
                for member in self.still_in:
                    self.purse.pay(member, drop_value(before), to_member=True)
                self.action(answer.line, answer.column, BOX, ActionKind.DROP)
                self.win(answer.line, answer.column, TEAM_SIDE, drop_value(before))
                self.end(answer.line, Side.TEAM, Outcome.DROP)
            return
        missing = [m for m in pending.voters if m not in pending.answers]
        if missing:
            verbs = "takes nor drops" if len(missing) == 1 else "take nor drop"
            self.problem(double.line, Kind.ANSWER, f"{_and(missing)} neither {verbs} {whose} double; counted as taking")
        takers = [m for m in pending.voters if m not in pending.answers or pending.answers[m].take]
        for member in pending.voters:
            given = pending.answers.get(member)
            if given is not None and not given.take:
                self.purse.pay(member, drop_value(before), to_member=False)
                self.still_in.remove(member)
                self.dropped[member] = given.line
        if takers:
            if self.playing not in takers:
                self.playing = takers[0]   # the first member in team order who took plays on
            first = min((pending.answers[m] for m in takers if m in pending.answers),
                        key=lambda a: (a.line, a.column), default=None)
            where = (first.line, first.column) if first is not None else (double.line, double.column)
            self.action(*where, TEAM_SIDE, ActionKind.TAKE)
            self.cube.take()
        else:
            self.cube.drop()
            last = max(pending.answers.values(), key=lambda a: (a.line, a.column))
            self.action(last.line, last.column, TEAM_SIDE, ActionKind.DROP)
            self.win(last.line, last.column, BOX, drop_value(before))
            self.end(last.line, Side.BOX, Outcome.DROP)

    def result(self, result: Result) -> None:
        winner = self.side_of(result)
        if self.ended is not None:
            agrees = self.outcome == Outcome.DROP and winner == self.winner and not result.written
            if not agrees:
                self.problem(result.line, Kind.ORDER, f"{result} after the game ended at line {self.ended}")
            return
        if winner is None:
            return
        self.result_item = result
        win = result.outcome.win
        assert win is not None   # a result line says single, gammon or backgammon
        points = game_value(win, self.cube.value, self.rules, self.cube.centred)
        self.win(result.line, result.column, winner.column, points)
        self.end(result.line, winner, result.outcome)

    def side_of(self, result: Result) -> Side | None:
        """Who a result line says won, or None when it names nobody in the game."""
        names = result.subject.names
        if result.subject.team:
            return Side.TEAM
        if names == (self.box,):
            return Side.BOX
        if self.box in names:
            self.problem(result.line, Kind.PLAYER, f"{result} names the box and the team together")
            return None
        unknown = [n for n in names if n not in self.members]
        if unknown:
            self.problem(result.line, Kind.PLAYER, f"{_and(unknown)} {'is' if len(unknown) == 1 else 'are'} "
                                                   f"not in game {self.game.number}")
            return None
        for name in names:
            if name in self.dropped and self.ended is None:
                self.problem(result.line, Kind.DROPPED, f"{name} wins after dropping at line {self.dropped[name]}; "
                                                        "read as the team's win")
        return Side.TEAM

    def row(self, row: Row) -> None:
        try:
            cells = read_row(row.text, row.line, self.path)
        except MatchFileError as exc:
            self.problem(row.line, Kind.SYNTAX, exc.reason)
            return
        for cell in cells:
            if cell.kind in (ActionKind.MOVE, ActionKind.DANCE, ActionKind.ROLL):
                self.log.cell(cell)
            else:
                self.problem(row.line, Kind.SYNTAX, f"{cell.raw!r} in a move row: the rows hold rolls and plays; "
                                                    f"doubles, answers and results are chouette lines ('{self.box} doubles => 2')")

    def action(self, line: int, column: int, side: int, kind: ActionKind, cube: int | None = None) -> None:
        self.log.add(line, column, side, kind, cube=cube)

    def win(self, line: int, column: int, side: int, points: int) -> None:
        self.log.win(line, column, side, points)

    def end(self, line: int, winner: Side, outcome: Outcome) -> None:
        self.ended, self.winner, self.outcome = line, winner, outcome

    # --- the replay: moves, cube and result audited as a match's -------------------------
    def replay(self) -> None:
        """Replay the game between the box and the team as a money game;
        take over its problems and, when the moves end the game, its result."""
        game = self.game
        if not self.log.actions:
            if self.ended is None:
                self.problem(game.last_line, Kind.INCOMPLETE, f"game {game.number} has no result: the record stops "
                                                              "before the game ends")
            return
        visitor = _replay_game(game, self.box, self.log.actions, self.rules, self.path)
        for found in visitor.problems:
            if found.kind == ProblemKind.INCOMPLETE:
                continue   # said below, in the chouette's words
            if found.kind == ProblemKind.POINTS and (found.line in self.log.win_lines or found.line == game.line):
                continue   # a result the moves contradict: said below, in the chouette's words
            if found.kind == ProblemKind.TURN and not self.log.moves:
                continue   # without moves nobody knows whose turn it is
            self.problem(found.line, found.kind.value, found.message)
        board = visitor.result
        on_board = isinstance(board, GameResult) and board.result.win is not None and self.log.moves
        if not on_board:
            if self.ended is None:
                self.problem(game.last_line, Kind.INCOMPLETE, f"game {game.number} has no result: the record stops "
                                                              "before the game ends")
            return
        assert isinstance(board, GameResult)
        winner = Side.BOX if board.winner_side == BOX else Side.TEAM
        said = f"{self.box if winner == Side.BOX else 'the team'} wins {board.result.value}"
        if self.ended is None:
            self.problem(game.last_line, Kind.RESULT, f"game {game.number} has no result line; the moves end it: "
                                                      f"{said}, and it is settled so")
            self.ended = board.line
        elif self.outcome == Outcome.DROP:
            return
        elif (winner, board.result) != (self.winner, self.outcome):
            assert self.result_item is not None
            self.problem(self.result_item.line, Kind.RESULT, f"{self.result_item} but the moves end the game: "
                                                             f"{said}, and it is settled so")
        self.winner, self.outcome = winner, board.result

    # --- what it comes to ------------------------------------------------------------
    def settlement(self) -> GameSettlement:
        win = self.outcome.win if self.outcome is not None else None
        if win is not None:
            points = game_value(win, self.cube.value, self.rules, self.cube.centred)
            for member in self.still_in:
                self.purse.pay(member, points, to_member=self.winner == Side.TEAM)
        return GameSettlement(self.game.number, self.game.line, self.lineup, self.outcome, self.winner, self.cube.value,
                              self.game.stake, self.purse.shares(self.box, self.lineup), self.playing)
