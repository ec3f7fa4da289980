"""Match records: what a reader gives, before any rule is applied.

Every match format (``mat``, ``sgf``, ``jsondoc``) reads into these plain
records, keeping the line and column of everything so that the replay can
say ``file:line`` about any problem. The replay (``bgcli.match.replay``)
turns them into positions, events, results and problems.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator, NamedTuple, Sequence

from bgcli.core.cube import points_word
from bgcli.core.kinds import Worded
from bgcli.core.position import CHECKERS, OFF, Position
from bgcli.errors import MatchFileError
from bgcli.match.wording import PLAIN, Words


def site_is(tags: dict[str, str], name: str) -> bool:
    """Whether the ``Site`` tag names ``name`` (case and spaces ignored)."""
    wanted = name.replace(" ", "").lower()
    return any(key.lower() == "site" and wanted in value.replace(" ", "").lower() for key, value in tags.items())


class Writer(str, Worded):
    """The program a reader knows wrote the file, where its habits are read as that program's
    (bgcli.match.conventions); None where it is not known."""

    GNUBG = "GNU Backgammon"
    GIBBON = "Gibbon"   # the FIBS client's match dump (.gmd), which writes no result (conventions.results_written)


class ActionKind(str, Worded):
    """What one cell of a transcript records."""

    MOVE = "move"          # a roll and a play
    DANCE = "dance"        # a roll with no play written (empty, "Cannot Move")
    ROLL = "roll"          # XG's "63: ????": rolled, then resigned
    RESIGN = "resign"      # Studio's "Concedes", XG's "Resigns", "00: ????", a bare "????": the loser's
                           # side of a resignation (with the dice when rolled first); the result is the Wins line
    ILLEGAL = "illegal"    # Snowie's "Illegal play (position)": a note, nothing to replay
    AUTO_DOUBLE = "automatic double"   # GamesGrid's, TrueMoneyGames's record of equal opening dice doubling
                                       # the cube (money play); ``cube``: the value it makes, when written
    DOUBLE = "double"
    BEAVER = "beaver"
    RACCOON = "raccoon"
    TAKE = "take"
    DROP = "drop"
    WIN = "win"            # "Wins N points"
    LOSS = "loses"         # Galaxy's "Losses N points" on the loser's side: a note
    DRAW = "draw"          # "Agreed draw" (or "Draw"): the game ends with no winner
    SET_UP = "set-up"      # the board, the cube or the turn set by hand in the middle of a game (gnubg's SGF
                           # AE/AW/AB, PL, CV/CP nodes after a play; the IDs its text export prints jumping):
                           # what was set: GameRecord.set_ups_in_game

    # Enum's own hash is a Python function; a kind is hashed once per action
    __hash__ = str.__hash__


class DecisionKind(str, Worded):
    """What a stored analysis judged."""

    PLAY = "play"       # the checker play
    CUBE = "cube"       # to double or not
    TAKE = "take"       # to take or pass


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One choice as the program that analysed the match judged it."""

    choice: str               # the play (.mat steps, "13/8 24/20") or the cube line (bgcli.core.cube.Line.word)
    equity: float
    probabilities: tuple[float, ...]   # win, win gammon, win backgammon, lose gammon, lose backgammon (or none)
    level: str                # "3-ply", "rollout", ...


@dataclass(frozen=True, slots=True)
class StoredAnalysis:
    """The analysis a file holds for one decision (XG stores its own):
    kept as data, for a later judgement to compare with its own."""

    program: str
    decision: DecisionKind
    error: float | None                  # what the choice made lost, by the program's reckoning; None: not judged
    candidates: tuple[Evaluation, ...]   # plays best first; cube: no double, double/take, double/pass
    chosen: int | None                   # the index of the choice made, when it is among them


class Action(NamedTuple):
    """One cell of a move row: what one player did. A named tuple, not a
    dataclass: a long match has one per cell, and a tuple is made in one
    call (a frozen dataclass sets each of its twelve fields in turn)."""

    line: int                 # 1-based line in the file
    column: int               # 1-based column where the cell starts
    move_number: int | None   # the row's "NN)", None on an unnumbered line
    side: int                 # 0 = left column (first player), 1 = right column
    kind: ActionKind
    dice: tuple[int, int] | None = None   # as written, either order
    play_text: str = ""       # the play as written ("13/8 13/11"); Snowie's position for ILLEGAL
    cube: int | None = None   # Doubles/Beavers/Raccoons => N
    points: int | None = None  # Wins/Losses N point(s)
    and_match: bool = False   # "... and the match"
    raw: str = ""             # the cell's text
    analysis: tuple[StoredAnalysis, ...] = ()   # what the file's program judged of this decision (and of not doubling before it)


# what the replay reads as a note, nothing to replay (Galaxy's "Losses" on the loser's side): the kinds the
# replay has no method for (tests/test_match_ends.py holds the two to each other)
NOTES = frozenset({ActionKind.LOSS})
RESULTS = frozenset({ActionKind.WIN, ActionKind.DRAW})


def ends_after(actions: Sequence[Action], index: int) -> bool:
    """Whether a game's record ends right after its action ``index``: nothing
    follows but notes, or the next action is the game's result (a 'Wins', a
    draw) or a resignation with no roll of its own (Jellyfish's 'Resigns',
    OpenGammon's 'Resigned Game'). The one owner of 'right before the end':
    a roll with no play there, or a play cut short (steps that each can be
    made, fewer dice than the roll allows), is the turn the loser gave up when
    the game ends in a resignation (OpenGammon writes the steps made, then
    the opponent's 'Wins'). The replay (GameReplay.ends_after) and its
    look-ahead (resync.Resync.fit) both ask it."""
    for action in actions[index + 1:]:
        if action.kind in NOTES:
            continue
        return action.kind in RESULTS or resigns_unrolled(action)
    return True


def resigns_unrolled(action: Action) -> bool:
    """A resignation with no roll of its own ('Resigns', 'Resigned Game'): it
    ends the turn before it, as the result line after it does (a resignation
    with dice, Studio's '62: Concedes', is a turn of its own: the roll came
    first)."""
    return action.kind is ActionKind.RESIGN and not action.dice


def set_up_game(number: int, how: str, why: str) -> str:
    """What a reader says of a game that starts from a set-up position (how
    the file sets it up) it cannot read (why): the reader skips it and the
    match goes on at the next game's score."""
    return f"game {number} starts from a set-up position ({how}) that cannot be read: {why}; the game is skipped"


@dataclass(frozen=True, slots=True)
class BoardEdit:
    """A board set in the middle of a game by editing the board as it stands,
    not by clearing it first: SGF's AE empties a point, AB and AW add one
    checker (the SGF specification's meaning; gnubg loads them so). Steps in
    file order, each ``(side, point, added)``: ``point`` as ``side`` counts it,
    ``added`` 1 for a checker put there, None for the point emptied. The
    checkers no longer on the board are off."""

    steps: tuple[tuple[int, int, int | None], ...]

    def applied(self, board: Position) -> Position:
        """``board`` (from the side of player 0) edited; :meth:`Position.problem` says if it breaks the rules."""
        sides = [list(board.player), list(board.opponent)]
        for side, point, added in self.steps:
            sides[side][point] = 0 if added is None else sides[side][point] + added
        for counts in sides:
            counts[OFF] = 0
            counts[OFF] = CHECKERS - sum(counts)
        return Position(tuple(sides[0]), tuple(sides[1]))


@dataclass(frozen=True, slots=True)
class SetUp:
    """A position set up: where a game that starts from one starts
    (GameRecord.set_up: gnubg's SGF AE/AB/AW, XG's ``; Set Pos=``), or what
    was set by hand in the middle of a game (an action of kind SET_UP:
    gnubg's SGF nodes after a play). The replay goes on from there, not from
    the play before it; the rules of the opening (its roll never a double,
    White first) do not hold in a game that starts so. In the middle of a
    game a field None is as it stands: a set-up of the cube or the turn alone
    keeps the board; at a game's start ``position`` is always given."""

    position: Position | None        # from the side of player 0 (the left column); None: the board as it stands
    how: str                         # how the file sets it up, for messages ("XG's '; Set Pos=...'")
    cube: int | None = 1             # None (in the middle of a game): the cube's value as it stands
    cube_owner: int | None = -1      # the side that owns the cube, -1 centred (as CubeState.owner); None: as it stands
    on_roll: int | None = None       # the side on roll when the file says; None: the first action says (at the
                                     # start), as it stands (in the middle of a game)
    edit: BoardEdit | None = None    # in the middle of a game: the board as it stands edited (``position`` None)
    # in the middle of a game: dice set by hand before the set-up and never played, (side, dice) (gnubg's
    # 'set dice' then 'set board': its SGF writes the dice node first; kept so that an export writes it again)
    rolled: tuple[int, tuple[int, int]] | None = None

    def what(self, players: tuple[str, str]) -> str:
        """What was set, in words ("the board and the cube (2, owned by Ann)")."""
        parts = []
        if self.position is not None or self.edit is not None:
            parts.append("the board")
        if self.cube is not None or self.cube_owner is not None:
            said = [] if self.cube is None else [str(self.cube)]
            if self.cube_owner is not None:
                said.append("centred" if self.cube_owner == -1 else f"owned by {players[self.cube_owner]}")
            parts.append(f"the cube ({', '.join(said)})")
        if self.on_roll is not None:
            parts.append(f"the turn ({players[self.on_roll]} on roll)")
        if len(parts) < 2:
            return "".join(parts) or "nothing"
        return ", ".join(parts[:-1]) + " and " + parts[-1]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its header, score line and actions in file order."""

    number: int
    players: tuple[str, str]               # left, right; bare names
    scores: tuple[int, int] | None         # before the game; None if unreadable
    actions: tuple[Action, ...]
    line: int                              # line of " Game N"
    ratings: tuple[str | None, str | None] = (None, None)   # GridGammon's "Name,1623"
    # the file writes each automatic double (ActionKind.AUTO_DOUBLE; GamesGrid, TrueMoneyGames): the cube
    # starts at 1 and only those raise it; else (a .mat file) the replay learns them from the game
    autos_written: bool = False
    set_up: SetUp | None = None            # a game that starts from a set-up position; None: from the opening
    # what was set by hand in the middle of the game, one for each action of kind SET_UP, in order (an Action
    # is a tuple of fixed fields that the readers' fast paths build: the set-ups are kept here)
    set_ups_in_game: tuple[SetUp, ...] = ()
    # the file says whether the game is the Crawford game (gnubg's text export: ", Crawford game", ", post-Crawford
    # play" after its score line): a game read alone at a score one away is not known to be one; None: not said
    crawford: bool | None = None

    def set_up_at(self, index: int) -> SetUp:
        """What the action ``index`` (of kind SET_UP) set."""
        return self.set_ups_in_game[sum(1 for action in self.actions[:index] if action.kind is ActionKind.SET_UP)]

    def written_result(self) -> str | None:
        """The game's last 'Wins' as the record writes it, in the messages' words
        (``Ann wins 2 points``: core.cube.points_word); None when it writes none."""
        win = next((a for a in reversed(self.actions) if a.kind is ActionKind.WIN and a.points is not None), None)
        return None if win is None else f"{self.players[win.side]} wins {points_word(win.points or 0)}"


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One match (or money session, length 0) as read from a file."""

    length: int
    games: tuple[GameRecord, ...]
    line: int                              # line of " N point match"
    tags: dict[str, str] = field(default_factory=dict)     # ; [Name "value"] before the header
    comments: tuple[tuple[int, str], ...] = ()             # (line, text) of every other comment
    errors: tuple[MatchFileError, ...] = ()                # bad lines met while reading it
    path: str = "-"
    whole: bool = True     # False: the file holds part of a match by design (gnubg's text export: one game a file)
    words: Words = PLAIN   # how the file's format writes the actions a problem quotes (bgcli.match.wording)
    writer: Writer | None = None   # the program the reader knows wrote it (its SGF AP, its .mat header's habits)

    @property
    def players(self) -> tuple[str, str]:
        names = self.games[0].players if self.games else None
        return (names[0], names[1]) if names else ("player 0", "player 1")

    def header(self) -> MatchHeader:
        return MatchHeader(self.length, self.line, self.tags, self.path, self.whole, self.words, self.writer)

    def __str__(self) -> str:
        """The canonical text of a match: the .mat file gnubg would write."""
        from bgcli.notebook import match_text

        return match_text(self)

    def _repr_html_(self) -> str:
        """The match's summary in a notebook: players, length, each game's score and result."""
        from bgcli.notebook import match_summary_html

        return match_summary_html(self)

    def site_is(self, name: str) -> bool:
        """Whether the ``Site`` tag names ``name`` (case and spaces ignored)."""
        return site_is(self.tags, name)


# A match read as a stream: its header, its games one at a time, its end
# (the lines that could not be read, the comments). Readers that hold a whole
# file (SGF, JSON) give the same parts from their records.

@dataclass(frozen=True, slots=True)
class MatchHeader:
    length: int
    line: int
    tags: dict[str, str]
    path: str = "-"
    whole: bool = True
    words: Words = PLAIN
    writer: Writer | None = None


@dataclass(frozen=True, slots=True)
class MatchEnd:
    errors: tuple[MatchFileError, ...] = ()
    comments: tuple[tuple[int, str], ...] = ()


MatchPart = MatchHeader | GameRecord | MatchEnd


def parts_of(records: Iterable[MatchRecord]) -> Iterator[MatchPart]:
    """The parts of whole records."""
    for record in records:
        yield record.header()
        yield from record.games
        yield MatchEnd(record.errors, record.comments)


def records_of(parts: Iterable[MatchPart]) -> Iterator[MatchRecord]:
    """Whole records from parts."""
    header: MatchHeader | None = None
    games: list[GameRecord] = []
    for part in parts:
        if isinstance(part, MatchHeader):
            header, games = part, []
        elif isinstance(part, GameRecord):
            games.append(part)
        elif header is not None:
            yield MatchRecord(header.length, tuple(games), header.line, header.tags, part.comments, part.errors,
                              header.path, header.whole, header.words, header.writer)
            header = None
