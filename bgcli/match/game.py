"""The rules of each recorded action in one game: moves, the cube, results.

One :class:`GameReplay` keeps the running state of a game (the board, the
cube, whose turn) and has one method per action kind. Nothing stops at the
first problem: after a slip (an illegal play, a dance where a play was legal,
Snowie's note of an illegal play) the replay goes on from the position the
rest of the record fits (:mod:`bgcli.match.resync`): the recorded play as
written (an illegal move not called in time stands) unless a legal play of
the roll fits better; when nothing can be applied, the rest of that game is
reported as unchecked.
"""
from __future__ import annotations

from copy import copy as _copy
from dataclasses import replace
from typing import Callable, Iterable, Protocol

from bgcli.core.cube import (CubeTurn, InstantRedouble, Reason, auto_double_refusal, beaver_refusal, instant_redouble,
                             raccoon_refusal, refusals, starting_cubes, turned, turned_from, value_after)
from bgcli.core.position import CHECKERS, OFF, Position, trusted_position as _trusted
from bgcli.core.state import MAX_CUBE, CubeState, GameState, MatchState, Offer
from bgcli.core.value import STANDARD_WORTH, Outcome, Win, drop_value, game_kind, game_value, resignation_values
from bgcli.core.rules import Rules, points_away
from bgcli.match.conventions import PointsConvention, Reading, resignation_habit, results_written
from bgcli.match.diagnosis import other_roll
from bgcli.match.events import Event, EventKind, GameResult, GameStart, Problem, ProblemKind, Severity, Unfinished
from bgcli.core.judge import play_from_steps
from bgcli.core.generator import Play
from bgcli.core.notation import canonical_text, play_text
from bgcli.core.judge import Sides
from bgcli.match.plays import die_steps, judge_play, settled_roll, sides_after_plays
from bgcli.match.records import Action, ActionKind, GameRecord, Writer, ends_after, resigns_unrolled
from bgcli.match.wording import Words, points_word as _points
from bgcli.match.resync import Resync, readable_steps
from bgcli.match.visitor import MatchVisitor
from bgcli.core.spelling import recorded_text
from bgcli.errors import MatchFileError
from bgcli.formats.snowietxt import parse as parse_snowie

_MOVE, _DANCE = ActionKind.MOVE, ActionKind.DANCE
_MOVE_EVENT = EventKind.MOVE
_new, _set = object.__new__, object.__setattr__
_PLAYS = (ActionKind.MOVE, ActionKind.DANCE)   # what the short path of apply_all may settle


class MatchContext(Protocol):
    """What a game's replay reads from the match around it (the match
    replayer, :class:`bgcli.match.replay.MatchReplayer`, is one): named here so
    that this module does not import the replayer that imports it."""

    number: int
    rules: Rules
    visitor: MatchVisitor
    players: tuple[str, str]
    white: int                 # the column of White, for the White-first rule
    written_cap: int           # a money session's written length, 0 for none
    points_convention: PointsConvention
    words: Words               # how the record's format writes what a message quotes
    writer: Writer | None      # the program the reader knows wrote the record (its habits: match.conventions)

    def problem(self, line: int, game: int, move: int, player: str, kind: ProblemKind, message: str,
                severity: Severity = Severity.ERROR) -> None: ...


class GameReplay:
    """The running state of one game and one method per action kind."""

    def __init__(self, match: MatchContext, record: GameRecord, score: tuple[int, int], crawford: bool,
                 crawford_unknown: bool = False):
        self.match = match
        self.record = record
        self.rules = match.rules
        # the match states of this rules' events (one hash of the rules a game, not one an event)
        states = _MATCH_STATES.get(self.rules)
        if states is None:
            if len(_MATCH_STATES) > 1_000:   # bounded, as _PLAYED
                _MATCH_STATES.clear()
            states = _MATCH_STATES[self.rules] = {}
        self.match_states = states
        set_up = record.set_up
        self.start = GameStart(match.number, record.number, record.line, score, crawford, set_up)
        # from the side of player 0 (the left column); a game set up starts where the file sets it up
        self.board = (set_up.position if set_up is not None and set_up.position is not None
                      else Position.start(self.rules.variation))
        self.cube = CubeState() if set_up is None else CubeState(set_up.cube or 1, _owner(set_up.cube_owner))
        self.on_roll: int | None = None if set_up is None else set_up.on_roll
        # the rules of the opening (its roll never a double, White first, automatic doubles) hold only
        # for a game from the opening
        self.from_opening = self.start.from_opening
        self.crawford = crawford
        # a transcript that starts at match point does not say whether this
        # is the Crawford game: a double then says it is not
        self.crawford_unknown = crawford_unknown
        self.over = False
        self.unchecked = False
        self.moves = 0
        self.result: GameResult | None = None
        self.dropped: int | None = None   # the cube before a dropped double
        self.drop_winner = 0
        self.dropper: int | None = None   # who dropped, where the drop answers the other side's double
        self.missing: Problem | None = None   # a game without its result line: settled by the next score line
        self.last_line = record.line
        self.waiting_dance: Problem | None = None   # a dance problem, unless the game ends at once
        # a play cut short (fewer dice than the roll allows) right before the end: a problem unless a
        # resignation ends the game (the loser gave up in the middle of the turn, the steps made kept)
        self.waiting_cut: Problem | None = None
        # the event of that roll, held back with it: a move with no play, or, when a resignation follows
        # at once, a roll (EventKind.ROLL: rolled, then resigned), as XG's "63: ????" is
        self.waiting_roll: Event | None = None
        self.dance_run: list[Problem] = []   # dance problems in a row, said in one line when the run ends
        # Automatic doubles (money play) raise the cube before the opening
        # roll, which a .mat file does not record: until the cube is seen,
        # any of these starting values is possible (a file that writes them
        # says so: GameRecord.autos_written).
        rules = self.rules
        self.start_cubes = starting_cubes(rules) if set_up is None else (set_up.cube or 1,)
        self.cube_known = len(self.start_cubes) == 1 or record.autos_written
        self.wants_events = match.visitor.wants_events
        # the events of the cube and the results too, and a play's event with its legal Play and that
        # play's text (the dice audit counts only rolls: it reads their dice and the position before)
        self.wants_other_events = self.wants_events and not match.visitor.roll_events_only
        # the checks whose only outcome is a problem, a result or an event's cube (MatchVisitor.reads_judgement)
        self.judges = match.visitor.reads_judgement
        self.index = -1                        # the action being replayed, in record.actions
        self.resync = Resync(record.actions, self.judges)   # where to go on after a slip

    def branch(self, match: MatchContext, record: GameRecord) -> GameReplay:
        """A copy of this replay, part-way through its game, that goes on with
        ``record``'s actions from the next one (its actions so far the same)
        and reports to ``match``: a repair tries each candidate from the state
        before the line it changes, not from the game's first move. What the
        copy changes (the cube, the dances held back, the look-ahead's budget)
        is its own."""
        other = _copy(self)
        other.match, other.record = match, record
        other.cube = _copy(self.cube)
        other.dance_run = list(self.dance_run)
        other.resync = _copy(self.resync)
        other.resync.actions = record.actions
        other.wants_events = match.visitor.wants_events
        other.judges = other.resync.rivals_read = match.visitor.reads_judgement
        return other

    # --- helpers ----------------------------------------------------------
    @property
    def visitor(self) -> MatchVisitor:
        return self.match.visitor

    def player(self, side: int) -> str:
        return self.match.players[side]

    def problem(self, action: Action, kind: ProblemKind, message: str, severity: Severity = Severity.ERROR) -> None:
        if self.dance_run:
            self.end_dance_run()
        self.match.problem(action.line, self.record.number, action.move_number or 0, self.player(action.side),
                           kind, message, severity)

    def seen_by(self, side: int) -> Position:
        return self.board if side == 0 else self.board.swap()

    def set_seen_by(self, side: int, position: Position) -> None:
        self.board = position if side == 0 else position.swap()

    def played(self, side: int, after: Position) -> None:
        """The end of a play on the long path (a move, a note of an illegal play): the board as
        ``side`` left it, the other player on roll, the game over when a side has borne off."""
        self.set_seen_by(side, after)
        self.on_roll = 1 - side
        if self.winner() is not None:
            self.over = True

    def winner(self) -> int | None:
        if self.board.player[OFF] == CHECKERS:
            return 0
        if self.board.opponent[OFF] == CHECKERS:
            return 1
        return None

    def state(self, side: int, dice: tuple[int, int] = (0, 0), doubled: bool = False,
              turn: int | None = None, value: int | None = None) -> GameState:
        return GameState(self.seen_by(side), self.match_state(side, dice, doubled, turn, value))

    def redoubled_state(self, side: int) -> GameState:
        """The state in which ``side`` answers what just happened: while a beaver or raccoon waits
        for its answer (a take, a drop, a raccoon), GNU Backgammon's, whose Match ID keeps it a
        double waiting: the cube the redouble turned (so that value_reached of the state is the
        cube's next turn, as value_after rules), the doubled flag, ``side`` to answer, the first
        doubler on roll (tests/test_heldout_beavers.py compares them with gnubg's). The cube itself
        turned at once (CubeState.beaver, .raccoon): only the state shown waits. Else (nothing
        redoubled, or a flawed record's: its own redouble answered, a value no turn makes) the
        state of ``side`` on roll with the cube as it is."""
        redoubled, cube = self.cube.redoubled, self.cube
        waiting = turned_from(cube.value)
        if redoubled is None or side == redoubled.doubler or cube.owner not in (0, 1) or waiting is None:
            return self.state(side)
        doubler = 1 - cube.owner   # the beaverer keeps the cube through every raccoon; the doubler rolls
        return self.state(doubler, doubled=True, turn=side, value=waiting)

    def match_state(self, side: int, dice: tuple[int, int] = (0, 0), doubled: bool = False,
                    turn: int | None = None, value: int | None = None) -> MatchState:
        turn = side if turn is None else turn
        cube = self.cube
        rules = self.rules
        length = rules.match_length
        # events share their match states (frozen), by every field: the same few dozen come back every
        # turn, and in every game at the same score (a page then finds each one's Match ID by identity)
        key = (cube.value if value is None else value, cube.owner, side, turn, doubled, dice, self.crawford,
               self.start.score if length else (0, 0))
        states = self.match_states
        match = states.get(key)
        if match is None:
            if len(states) > 100_000:   # bounded, as _PLAYED
                states.clear()
            match = states[key] = MatchState(
                cube=key[0], cube_owner=key[1], on_roll=side, crawford=key[6], game_state=1,
                turn=turn, doubled=doubled, resign=0, dice=dice, score=key[7], rules=rules,
            )
        return match

    def emit(self, action: Action, kind: EventKind, state: GameState, **fields) -> None:
        self.visitor.event(Event(self.match.number, self.record.number, action.line, action.move_number or 0,
                                 action.side, self.player(action.side), kind, fields.pop("dice", None),
                                 fields.pop("play", ""), state, record=action, **fields))

    def flush_cut(self, resigned: bool = False) -> None:
        """Report the play cut short held back, unless a resignation ends the game after it."""
        held, self.waiting_cut = self.waiting_cut, None
        if held is not None and not resigned:
            if self.dance_run:
                self.end_dance_run()
            self.visitor.problem(held)

    def flush_dance(self) -> None:
        if self.waiting_dance is not None:
            self.dance_run.append(self.waiting_dance)
            self.waiting_dance = None
        self.report_roll(resigned=False)

    def report_roll(self, resigned: bool) -> None:
        """Report the held-back event of a roll with no play recorded (where one was legal): a move with no play,
        or, when a resignation follows it, a roll (EventKind.ROLL), the one kind every reader's "rolled, then
        resigned" becomes (gnubg's ``52:``, FIBS's, XG's ``52: ????``), so that every writer and the replay name it
        the same way."""
        held, self.waiting_roll = self.waiting_roll, None
        if held is not None:
            self.visitor.event(replace(held, kind=EventKind.ROLL, play="", after=None, legal=None) if resigned else held)

    def end_dance_run(self) -> None:
        """Say the game's run of rolls with no play recorded (where one was
        legal) in one line: a log that lost many plays of a game is one
        problem of the record, not dozens of near-identical lines."""
        run = self.dance_run
        if not run:
            return
        self.dance_run = []
        first = run[0]
        if len(run) > 1:
            more = len(run) - 1
            lines = f"line {run[1].line}" if more == 1 else f"lines {run[1].line}-{run[-1].line}"
            first = replace(first, message=f"{first.message}; and {more} more roll{'s' if more > 1 else ''} of this "
                                           f"game with no play recorded where one was legal ({lines})")
        self.visitor.problem(first)

    # --- actions ------------------------------------------------------------
    def apply_all(self, actions: Iterable[Action]) -> None:
        """:meth:`apply` each action in turn. Without events (the audit), a
        play in the middle of a game that is nothing but a legal play of its
        roll, in turn, with no cube action waiting (or the game's first roll
        where :meth:`move` would find no problem of the opening in it:
        :meth:`plain_opening`), takes a short path: only
        where its checkers end is worked out, on the sides' counts
        (:func:`~bgcli.match.plays.sides_after_play`), and the state moves on as
        :meth:`move` would move it; so does a roll with no play when the
        counts prove there is none (:func:`~bgcli.core.judge.dances`: the
        bar and every entry held), without listing the legal plays. Anything
        else, or a play the short path cannot settle, goes through :meth:`apply`."""
        apply = self.apply
        if self.wants_events:
            self.apply_with_events(actions)
            return
        cube = self.cube
        actions = actions if isinstance(actions, (list, tuple)) else list(actions)
        count = len(actions)
        at = 0
        while at < count:
            action = actions[at]
            at += 1
            if not (action.kind in _PLAYS and cube.settled and self.waiting_dance is None
                    and not self.over and not self.unchecked
                    and (action.side == self.on_roll and self.moves or self.plain_opening(action))):
                apply(action)
                continue
            # a run of plays in turn: the state in locals, written back when the run ends
            sides = [self.board.player, self.board.opponent]   # each player's own side
            side, last_line = action.side, self.last_line
            settled = 0
            after: Sides | None
            while True:
                if sides_after_plays is not None:
                    # the plays (and rolls with no play) in turn that it settles, at once, in C (it stops
                    # where the lines below decide)
                    done, sides[0], sides[1], side, last_line, over = sides_after_plays(
                        actions, at - 1, sides[0], sides[1], side, last_line, _MOVE, _DANCE)
                else:
                    done = 0
                if done:
                    settled += done
                    at += done - 1
                    after = sides[0], sides[1]
                else:   # one play (or roll with no play) settled here, as the C loop settles each
                    after = settled_roll(sides[side], sides[1 - side], action, side)
                    if after is None:
                        break
                    sides[side], sides[1 - side] = after
                    settled += 1
                    if action.line > last_line:
                        last_line = action.line
                    side = 1 - side
                    over = after[0][OFF] == CHECKERS or after[1][OFF] == CHECKERS
                # the end of the plays settled, in C or above: the game over, or the run goes on
                # while the next action is a play of the side now on roll
                if over:
                    self.over = True
                    break
                if at == count:
                    break
                action = actions[at]
                if action.kind not in _PLAYS or action.side != side:
                    break
                at += 1
            if settled:
                self.index += settled
                self.moves, self.last_line, self.on_roll = self.moves + settled, last_line, side
                self.board = _trusted(sides[0], sides[1])
            if after is None:   # the play the short path could not settle, the long way
                apply(action)

    def apply_with_events(self, actions: Iterable[Action]) -> None:
        """:meth:`apply` each action in turn, an event for each. A legal play in
        the middle of a game, in turn, with no cube action waiting and written
        one pair per die or so, takes a short path: its Play is made from the
        written steps (:func:`~bgcli.core.judge.play_from_steps`) and its event
        and the state after it are what :meth:`move` would make, without the
        checks that cannot fire then. Anything else goes through :meth:`apply`.
        What the short path works out depends only on the board, the mover,
        the dice and the text, so it is remembered by them (``_PLAYED``): a
        session's plays come back (the opening, its replies, a file that holds
        the same matches again), each worked out once. A visitor with a
        ``run_of_plays`` (the dice audit's) settles the run of plays in turn
        from there at once, in place of their events, as far as it can; from
        a game's first roll too where :meth:`move` would find no problem of
        the opening in it (:meth:`plain_opening`)."""
        apply, cube = self.apply, self.cube
        report = self.visitor.event
        run = self.visitor.run_of_plays
        number, game, players = self.match.number, self.record.number, self.match.players
        played = _PLAYED
        actions = actions if isinstance(actions, (list, tuple)) else list(actions)
        count, at = len(actions), 0
        while at < count:
            action = actions[at]
            at += 1
            side = action.side
            if not (action.kind in _PLAYS and action.dice and cube.settled
                    and self.waiting_dance is None and not self.over and not self.unchecked
                    and (side == self.on_roll and self.moves or run is not None and self.plain_opening(action))):
                apply(action)
                continue
            if run is not None:
                done, first, second, on_roll, last_line, over = run(
                    actions, at - 1, self.board.player, self.board.opponent, side, self.last_line, _MOVE)
                if done:
                    at += done - 1
                    self.index += done
                    self.moves += done
                    self.last_line, self.on_roll = last_line, on_roll
                    self.board = _trusted(first, second)
                    self.over = self.over or over
                    continue
            if action.kind is not _MOVE or not self.moves:   # a roll with no play, or the opening the run left
                apply(action)
                continue
            high, low = action.dice
            dice = (high, low) if high >= low else (low, high)
            text = action.play_text
            board = self.board
            key = (board.player, board.opponent, side, dice, text)
            found = played.get(key)
            if found is None:
                found = _legal_written_play(board, side, dice, text)
                if found is None:   # no play, another spelling, an illegal play: the long way
                    apply(action)
                    continue
                if len(played) > 50_000:   # bounded: a process may replay many files (a page of 40,000 plays fits)
                    played.clear()
                played[key] = found
            before, play, shown, board = found
            self.index += 1
            if action.line > self.last_line:
                self.last_line = action.line
            self.moves += 1
            # the event's fields set in one go: a frozen dataclass's __init__ sets them one by one,
            # about 2 µs an event (test_view checks that the two make equal events)
            event = _new(Event)
            _set(event, "__dict__", {
                "match": number, "game": game, "line": action.line, "move": action.move_number or 0, "side": side,
                "player": players[side], "kind": _MOVE_EVENT, "dice": dice, "play": shown,
                "before": GameState(before, self.match_state(side, dice)), "after": play.result, "points": None,
                "cube": None, "record": action, "legal": play,
                "opening": False})   # never the opening roll: the first move takes the long way (above)
            report(event)
            self.board = board
            self.on_roll = 1 - side
            if board.player[OFF] == CHECKERS or board.opponent[OFF] == CHECKERS:
                self.over = True

    def plain_opening(self, action: Action) -> bool:
        """Whether ``action``, a roll, is the game's first and :meth:`move` would
        find no problem of the opening in it: no side on roll yet (or its
        side), and not a double (a double is rolled again) or, where White rolls
        first in these rules, White's roll."""
        if self.moves or self.on_roll not in (None, action.side) or not action.dice or not self.from_opening:
            return False
        if self.rules.white_first:
            return action.side == self.match.white
        high, low = action.dice
        return high != low

    def apply(self, action: Action) -> None:
        self.index += 1
        if action.line > self.last_line:
            self.last_line = action.line
        kind = action.kind
        if kind in (ActionKind.DOUBLE, ActionKind.BEAVER):
            # an instant redouble is a beaver or a raccoon whatever the file calls it (the cube module says which)
            instant = instant_redouble(self.cube, action.side)
            if instant is not None:
                kind = _INSTANT[instant]
        if kind != ActionKind.RACCOON:
            self.cube.beaver_by = None
        if kind not in (ActionKind.TAKE, ActionKind.DROP, ActionKind.RACCOON):
            self.cube.redoubled = None   # a beaver's or raccoon's answer, if any, comes next
        handler = _HANDLERS.get(kind)
        if handler is None:
            self.visitor.note(action)   # Snowie's note, Galaxy's "Losses": nothing to replay
            return
        if action.kind not in (ActionKind.WIN, ActionKind.DRAW):
            if not resigns_unrolled(action):   # a 'Resigns' with no roll: what is held back waits for its result
                self.flush_cut()
                self.flush_dance()
            if self.over:
                self.problem(action, ProblemKind.MATCH, f"{action.kind.value} after the game was over")
                return
            if self.unchecked and action.kind is not ActionKind.SET_UP:   # a board set is known again
                return
        handler(self, action)

    def move(self, action: Action) -> None:
        side = action.side
        if self.cube.offer is not None:
            self.problem(action, ProblemKind.CUBE, f"{self.player(side)} rolls while a double is waiting for an answer")
            self.cube.offer = None
        if self.on_roll is not None and side != self.on_roll:
            self.problem(action, ProblemKind.TURN,
                         f"{self.player(side)} moves out of turn: it is {self.player(self.on_roll)}'s turn")
        if not action.dice:
            self.problem(action, ProblemKind.DICE, "a move without dice")
            self.unchecked = True
            return
        dice = (max(action.dice), min(action.dice))
        before = self.seen_by(side)
        self.moves += 1
        opening = self.moves == 1 and self.from_opening
        if opening and self.rules.white_first and side != self.match.white:
            self.problem(action, ProblemKind.TURN, f"{self.player(side)} rolls first, but White "
                                                   f"({self.player(self.match.white)}) always starts in these rules")
        if opening and dice[0] == dice[1] and not self.rules.white_first:
            self.problem(action, ProblemKind.DICE,
                         f"the opening roll {recorded_text(dice)} is a double: the first roll of a game never is")
        text = (action.play_text or "").strip()
        wants = self.wants_events
        state = self.state(side, dice) if wants else None
        stops = self.match.visitor.stops_at(action.line)
        judged = judge_play(before, dice, text, side, self.wants_other_events, not stops)
        if judged.cut_short and self.ends_after(self.index):
            # held back, as a roll with no play is: steps made with fewer dice than the roll allows and
            # then the end of the game are, before a resignation, the turn the loser gave up (a site
            # records the steps made before it)
            self.waiting_cut = Problem(action.line, self.record.number, action.move_number or 0, self.player(side),
                                       ProblemKind.PLAY, judged.problems[0][1], self.match.number)
            judged = replace(judged, problems=())
        if judged.dance:
            if stops and not self.dance_run and not self.ends_after(self.index):
                # a problem of its own line, whatever follows (it starts a run of dances, and the game
                # goes on): the visitor raises, the look-ahead below is not needed
                self.problem(action, ProblemKind.DANCE, judged.dance)
            # held back: a roll with no play right before the end of the game is a resignation
            self.waiting_dance = Problem(action.line, self.record.number, action.move_number or 0,
                                         self.player(side), ProblemKind.DANCE, judged.dance, self.match.number)
        after, shown, legal = judged.after, judged.shown, judged.legal
        problems = judged.problems
        if problems and stops:
            first = next((p for p in problems if p[0] != ProblemKind.UNCHECKED or after is None), None)
            if first is not None:
                self.problem(action, *first)   # the visitor raises: the look-ahead below is not needed
        if problems or judged.dance:
            # one slip, one problem: go on from what the rest of the record says happened
            wrong_play = bool(problems) and problems[0][0] == ProblemKind.PLAY and after is not None
            if after is None and text:
                after = readable_steps(before, dice, text, side)   # a typo beside readable steps (11/7x 8/7)
            after = self.resync.resume(side, before, dice, after, self.index, want_rivals=wrong_play)
            if wrong_play and self.resync.written_fits_best:
                # the play as written fits the rest of the game better than any
                # legal play of its roll: the roll is what was written wrong
                other = other_roll(before, dice, text, side)
                if other is not None:
                    problems = ((ProblemKind.DICE, f"{text!r} is not a play of {recorded_text(dice)}; it is a legal "
                                                   f"play of {recorded_text(other)} and the game goes on from it: "
                                                   f"the roll does not fit the play"),) + problems[1:]
        for kind, message in problems:
            if kind != ProblemKind.UNCHECKED or after is None:
                self.problem(action, kind, message)
        if after is None:
            self.unchecked = True
        if state is not None:
            if judged.dance:   # held back with its dance: the action after it says what it is (report_roll)
                self.waiting_roll = Event(self.match.number, self.record.number, action.line, action.move_number or 0,
                                          side, self.player(side), EventKind.MOVE, dice, shown, state, judged.after,
                                          record=action, legal=legal, opening=opening)
            else:
                self.emit(action, EventKind.MOVE, state, dice=dice, play=shown, after=judged.after, legal=legal,
                          opening=opening)
        if after is None:
            return
        self.played(side, after)

    def set_up(self, action: Action) -> None:
        """What was set by hand in the middle of the game (gnubg's SGF nodes
        of a board, a cube or a turn set after a play): the game goes on from
        there. The plays before it and after it are each checked, but not the
        one against the other (the board set need not follow from the play
        before it); a warning in the words of what was set, since the record
        then is not all of a game as played. The rules of the opening stay
        with the part before. Writers place it (MatchVisitor.set_up)."""
        set_up = self.record.set_up_at(self.index)
        board = set_up.position
        if set_up.edit is not None:
            # the board as it stands edited (SGF's AE/AB/AW with no AE[a:y]): known only if the board was
            if self.unchecked:
                self.problem(action, ProblemKind.UNCHECKED, f"the board is edited ({set_up.how}) where it is not "
                                                            "known: the rest of this game is not checked")
            else:
                edited = set_up.edit.applied(self.board)
                problem = edited.problem()
                if problem:
                    self.problem(action, ProblemKind.SYNTAX, f"the board edited ({set_up.how}) breaks the rules: "
                                                             f"{problem}; the rest of this game is not checked")
                    self.unchecked = True
                else:
                    board = edited
        if board is not None:
            self.board = board
            self.unchecked = False   # the position is known again: the plays after it are checked
        cube = self.cube
        if set_up.cube is not None:
            cube.value = set_up.cube
            self.cube_known = True
        if set_up.cube_owner is not None:
            cube.owner = set_up.cube_owner
        cube.offer, cube.beaver_by, cube.redoubled = None, None, None
        said = set_up
        if set_up.on_roll is not None:
            if set_up.on_roll == self.on_roll:   # gnubg names the side on roll with every board set: no change
                said = replace(set_up, on_roll=None)
            self.on_roll = set_up.on_roll
        played = f"{self.moves} play{'s' if self.moves != 1 else ''}"
        self.problem(action, ProblemKind.SET_UP, f"{said.what(self.match.players)} set by hand after {played} "
                                                 f"({set_up.how}): the plays before and after it are checked "
                                                 "separately", Severity.WARNING)
        # the writers are given the board an edit made (None where it broke the rules)
        self.visitor.set_up(action, set_up if set_up.edit is None else replace(set_up, position=board, edit=None))

    def ends_after(self, index: int) -> bool:
        """Whether the record of the game ends right after its action ``index``
        (records.ends_after, the owner): what a roll with no play or a play cut
        short held back there waits for."""
        return ends_after(self.record.actions, index)

    def roll(self, action: Action) -> None:
        """XG's rolled-then-resigned cell, and a resignation written by the
        loser (Studio's ``62: Concedes``): nothing moves."""
        if self.wants_events and action.dice:
            dice = (max(action.dice), min(action.dice))
            self.emit(action, EventKind.ROLL, self.state(action.side, dice), dice=dice)

    def illegal(self, action: Action) -> None:
        """Snowie's ``31: Illegal play (position)``: the roll was played
        illegally, and the record does not say how. A problem of the record;
        the game goes on from the legal play of the roll that the rest of the
        game fits, the other player on roll."""
        side, player = action.side, self.player(action.side)
        self.visitor.note(action)
        if self.on_roll is not None and side != self.on_roll:
            self.problem(action, ProblemKind.TURN, f"{player} moves out of turn: it is {self.player(self.on_roll)}'s turn")
        if not action.dice:
            self.problem(action, ProblemKind.PLAY, f"{player} plays illegally, and the record gives no roll")
            self.unchecked = True
            return
        dice = (max(action.dice), min(action.dice))
        before = self.seen_by(side)
        self.moves += 1
        if self.wants_events:
            self.emit(action, EventKind.ROLL, self.state(side, dice), dice=dice)
        self.problem(action, ProblemKind.PLAY, f"{player}'s play of {recorded_text(dice)} is recorded as illegal "
                                               f"(\"Illegal play\"), and not what it was")
        after = self.resync.resume(side, before, dice, self.dumped_after(action, side, before), self.index)
        if after is None:
            self.problem(action, ProblemKind.UNCHECKED, "no legal play of the roll fits the rest of the game: "
                                                        "the rest of this game is not checked")
            self.unchecked = True
            return
        self.played(side, after)

    def dumped_after(self, action: Action, side: int, before: Position) -> Position | None:
        """The position after an illegal play that Snowie's dump gives (from
        ``side``'s view, as ``before`` is), or None. The dump is a Snowie
        position: the board before the play with the mover on roll and the
        roll (it then says nothing of the play), or the board after it with
        the next player on roll and the next roll (a real export's)."""
        try:
            dumped = parse_snowie(action.play_text)
        except MatchFileError:
            return None
        board = dumped.position
        swapped = Position(board.opponent, board.player)
        if before in (board, swapped):
            return None
        names = dumped.match.names
        mover_on_roll = names[dumped.match.on_roll].casefold() == self.player(side).casefold()
        return board if mover_on_roll else swapped

    def auto_double(self, action: Action) -> None:
        """A file's record of an automatic double: the cube of the opening is
        doubled before the first play, as the rules allow (the cube module
        says); from then on the cube is known, not learnt from the game."""
        cube = self.cube
        value = turned(cube.value)
        if self.moves or not cube.centred or cube.offer is not None or not self.from_opening:
            self.problem(action, ProblemKind.CUBE, "an automatic double after the opening: equal opening dice "
                                                   "double the cube before the first play")
            return
        refused = auto_double_refusal(self.rules, value)
        if refused is not None:
            self.problem(action, ProblemKind.CUBE, refused)
        if action.cube is not None and action.cube != value:
            self.problem(action, ProblemKind.CUBE, f"an automatic double to {action.cube}, but the cube is at "
                                                   f"{cube.value}: an automatic double makes it {value}")
        if self.past_largest(action, value):
            return
        cube.value = value
        self.cube_known = True

    def double(self, action: Action) -> None:
        side, player = action.side, self.player(action.side)
        if self.wants_other_events:
            self.emit(action, EventKind.DOUBLE, self.state(side), cube=action.cube)
        if self.judges and self.on_roll is not None and side != self.on_roll:
            self.problem(action, ProblemKind.TURN, f"{player} doubles out of turn: it is {self.player(self.on_roll)}'s turn")
        if self.crawford and self.crawford_unknown:
            self.crawford = False   # a double: this was not the Crawford game
        cube = self.cube
        offered = action.cube if action.cube is not None else value_after(cube)   # "=> 0" is a wrong value, not none
        doubled = self.match.words.doubled(action, offered)   # the double as the record writes it
        broken: list = []
        owner = ""
        if self.judges:
            # the cube module says who may double; a dead cube's double is legal (only pointless)
            turn = CubeTurn.at(cube.value, cube.owner, side, self.start.score, self.crawford, self.rules)
            broken = [refusal for refusal in refusals(turn, offered) if refusal.reason.breaks_rules]
            owner = self.player(cube.owner) if cube.owner in (0, 1) else ""
            for refusal in broken:
                if refusal.reason is not Reason.LIMIT:   # said after the value written, as ever
                    self.problem(action, ProblemKind.CUBE, refusal.said_of(player, owner))
        if not self.cube_known:
            made_from = turned_from(offered)   # the automatic doubles are learnt from the first double's value
            if made_from is not None and made_from in self.start_cubes:
                cube.value = made_from
            self.cube_known = True
        ruled = value_after(cube)
        if self.judges and offered != ruled:
            self.problem(action, ProblemKind.CUBE, f"{doubled} but the cube is at {cube.value}: a double makes it {ruled}")
        for refusal in broken:
            if refusal.reason is Reason.LIMIT:
                self.problem(action, ProblemKind.CUBE, refusal.said_of(player, owner, doubled=doubled))
        if self.past_largest(action, ruled):
            return
        cube.double(side, ruled)
        self.on_roll = side

    def past_largest(self, action: Action, value: int) -> bool:
        """A cube past the largest any format holds (gnubg's 2 ** 15) is a
        problem at its line, and the rest of the game is not checked (so that
        thousands of recorded doubles cannot grow a number without bound)."""
        if value <= MAX_CUBE:
            return False
        self.problem(action, ProblemKind.CUBE, f"{action.kind.value} past a cube of {MAX_CUBE}, the largest any "
                                               "match format holds")
        self.problem(action, ProblemKind.UNCHECKED, "the cube cannot be followed: the rest of this game is not checked")
        self.unchecked = True
        return True

    def _answer(self, action: Action, kind: EventKind) -> Offer | None:
        """Common to take, drop and beaver: the double answered, or None."""
        side = action.side
        offer = self.cube.offer
        if offer is None:
            self.problem(action, ProblemKind.CUBE, f"{self.player(side)} answers a double that was not offered")
            if self.wants_other_events:
                self.emit(action, kind, self.state(1 - side))
            return None
        doubler = offer.doubler
        if self.wants_other_events:
            state = self.state(doubler, doubled=True, turn=1 - doubler)
            self.emit(action, kind, state, cube=action.cube if kind == EventKind.BEAVER else None)
        if side == doubler:
            self.problem(action, ProblemKind.TURN, f"{self.player(side)} answers their own double")
        return offer

    def _instant_answer(self, action: Action, kind: EventKind) -> Offer | None:
        """The beaver or raccoon a take or drop by the other side answers (none
        is needed; gnubg and XG record one: gnubg's SGF a take or drop of a
        beaver too), or None."""
        redoubled = self.cube.redoubled
        if redoubled is None or action.side == redoubled.doubler:
            return None
        if self.wants_other_events:
            self.emit(action, kind, self.redoubled_state(action.side))
        return redoubled

    def take(self, action: Action) -> None:
        if self._instant_answer(action, EventKind.TAKE) is not None:
            return   # the beaverer keeps the cube the beaver or raccoon turned: nothing changes
        if self._answer(action, EventKind.TAKE) is not None:
            self.cube.take()

    def drop(self, action: Action) -> None:
        redoubled = self._instant_answer(action, EventKind.DROP)
        if redoubled is not None:
            self.dropped = redoubled.before   # the cube before the beaver or raccoon
            self.dropper = action.side
        else:
            offer = self._answer(action, EventKind.DROP)
            self.dropped = self.cube.drop()
            self.dropper = action.side if offer is not None and offer.doubler != action.side else None
            if offer is not None and offer.doubler == action.side:
                # a drop written in the doubler's own name (one error, said by _answer): the double was dropped,
                # so the game is the doubler's, whose side the record names wrong; a record that writes no
                # result (Gibbon's dump) scores it so, and the score after it is not a second problem
                self.drop_winner = offer.doubler
                self.over = True
                return
        self.drop_winner = 1 - action.side
        self.over = True

    def beaver(self, action: Action) -> None:
        """The doubled player takes and redoubles at once, keeping the cube."""
        offer = self._answer(action, EventKind.BEAVER)
        if offer is None:
            return
        refusal = beaver_refusal(self.rules)
        if refusal is not None:
            self.problem(action, ProblemKind.CUBE, refusal.said_of(self.player(action.side), action="beavers"))
        ruled = value_after(self.cube, InstantRedouble.BEAVER)
        value = action.cube if action.cube is not None else ruled
        if value != ruled:
            self.problem(action, ProblemKind.CUBE,
                         f"{self.match.words.beavered(action, value)} but a beaver of a {offer.value} cube makes it {ruled}")
        if not self.past_largest(action, ruled):
            self.cube.beaver(value)

    def raccoon(self, action: Action) -> None:
        """Right after a beaver the doubler may redouble again at once: no take
        is needed, the beaverer keeps the cube and the raccooner rolls (core.cube's rule)."""
        side, player, cube = action.side, self.player(action.side), self.cube
        if self.wants_other_events:
            self.emit(action, EventKind.RACCOON, self.redoubled_state(side), cube=action.cube)
        cube.redoubled = None   # answered: the raccoon makes its own (CubeState.raccoon)
        refusal = raccoon_refusal(self.rules, side, cube.beaver_by, cube.raccoons)
        if refusal is not None:
            self.problem(action, ProblemKind.CUBE, refusal.said_of(player, action="raccoons"))
            if refusal.reason is Reason.NOT_DOUBLER:
                return
        ruled = value_after(cube, InstantRedouble.RACCOON)
        value = action.cube if action.cube is not None else ruled
        if value != ruled:
            self.problem(action, ProblemKind.CUBE,
                         f"{self.match.words.raccooned(action, value)} but a raccoon of a {cube.value} cube makes it {ruled}")
        if self.past_largest(action, ruled):
            return
        cube.raccoon(side, value)
        self.on_roll = 1 - cube.owner   # the doubler rolls, whoever raccooned last

    def draw(self, action: Action) -> None:
        """An agreed draw ends the game with no winner, where the rules allow it."""
        if self.result is not None:
            self.problem(action, ProblemKind.POINTS, f"a second result for game {self.record.number}")
            return
        self.waiting_dance = None
        self.flush_cut()
        self.report_roll(resigned=False)   # a roll, then an agreed draw: no dance, and no resignation either
        if not self.rules.draws:
            self.problem(action, ProblemKind.POINTS, "an agreed draw, but these rules have no draws (use --draws)")
        if self.wants_other_events:
            self.emit(action, EventKind.DRAW, self.state(action.side))
        score = self.start.score
        self.result = GameResult(self.record.number, self.record.line, "", -1, Outcome.DRAW, self.cube.value, 0,
                                 self.crawford, (score[0], score[1]))
        self.over = True

    def win(self, action: Action) -> None:
        side, player = action.side, self.player(action.side)
        points = action.points or 0
        if self.result is not None:
            self.problem(action, ProblemKind.POINTS, f"a second result for game {self.record.number}")
            return
        # a roll with no play right before the end: a resignation after rolling
        self.waiting_dance = None
        if not self.judges:
            self.unjudged_win(action)
            return
        rules = self.rules
        score = self.start.score
        needed = points_away(rules.match_length, score, side) if rules.match_length else self.match.written_cap
        convention = self.match.points_convention

        def read(values: list[int]) -> tuple[Reading, int] | None:
            """The best reading of the written points among what the game may be worth."""
            found = [(reading, value) for value in values
                     if (reading := convention.read(points, value, needed, rules.match_length))]
            return min(found, key=lambda found: (found[0].rank, found[1])) if found else None

        wins = self.match.words.won(action, points)   # the result as the record writes it, for the messages
        over = self.winner()
        if not self.cube_known:
            # the automatic doubles are learnt from the result: the smallest
            # starting cube that makes the recorded points fit
            for start in self.start_cubes:
                self.cube.value = start
                if read(self.possible_points(over)):
                    break
            else:
                self.cube.value = 1
            self.cube_known = True
        cube, centred = self.cube.value, self.cube.centred
        reading: tuple[Reading, int] | None
        if self.dropped is not None:
            how, expected, winner = Outcome.DROP, drop_value(self.dropped), self._drop_won(side)
            reading = read([expected])
            wrong = f"{wins} after a drop, but a dropped {turned(self.dropped)}-cube is worth {expected}"
            if winner != side:
                self.problem(action, ProblemKind.POINTS, f"{player} is said to win but {player} dropped "
                                                         f"{self.player(winner)}'s double: the game is {self.player(winner)}'s")
        elif over is not None:
            win = self.win_of(over)
            how, expected, winner = win.outcome, game_value(win, cube, rules, centred, self.needed(over)), over
            reading = read([expected])
            wrong = f"{wins} but the final position is a {how.value} at cube {cube}: {_points(expected)}"
            previous = self.record.actions[self.index - 1] if self.index > 0 else None
            if over != side and previous is not None and previous.side == over and previous.line == action.line:
                # old transcriptions write the result in the free cell of the row of the winner's last bear-off
                # ("53) 55: 1/0 1/0 1/0      Wins 2 points"; bgdb's notes on 3 144 tournament files): the bear-off
                # says whose it is, and the points are checked as the winner's
                player, needed = self.player(over), points_away(rules.match_length, score, over) if rules.match_length else needed
                reading = read([expected])
            elif over != side:
                reading, wrong = (Reading.WORTH, expected), ""
                self.problem(action, ProblemKind.POINTS, f"{player} is said to win but {self.player(over)} bore off every checker")
        else:
            how, winner = Outcome.RESIGNATION, side
            worth = resignation_values(cube, rules, centred, self.needed(side))
            reading = read(worth)
            if reading is None and points in resignation_habit(self.match.writer,
                                                              centred and bool(rules.in_force("jacoby")), cube):
                reading = (Reading.HABIT, points)   # gnubg's own figure of a gammon resigned under Jacoby
            expected = cube
            wrong = (f"{wins} by resignation, but at cube {cube} a resignation is worth "
                     f"{' or '.join(str(v) for v in worth)}")
        if reading is None and convention.forfeits(points, needed):
            # the loser gave up the match in the middle of a game: the winner gets what they needed
            how, winner, reading = Outcome.RESIGNATION, side, (Reading.HABIT, needed)
        if (reading is None and how == Outcome.RESIGNATION and rules.match_length
                and points > max(max(STANDARD_WORTH) * cube, rules.match_length)
                and (enough := [v for v in worth if v >= needed])):
            # Backgammon Studio writes a figure of its own (4016) for a
            # resignation that ends the match: no game at this cube is worth
            # it, and any resignation wins the match
            reading = (Reading.PAST, min(enough))
        if reading is None and how == Outcome.RESIGNATION and (most := convention.beyond_resignation(points, worth)):
            reading = (Reading.BEYOND, most)
        if reading is None:
            self.problem(action, ProblemKind.POINTS, wrong)
        else:
            expected = reading[1]
            # the readings that are a habit which cannot be checked: one warning each, naming it
            warning = {
                Reading.PAST: f"{wins}: more than any game at cube {cube} is worth, as Backgammon "
                              f"Studio writes a resignation that ends the match; any resignation wins {player} the "
                              f"match, the least worth {_points(expected)} (a habit that cannot be checked)",
                Reading.BEYOND: f"{wins} by resignation: more than any resignation at cube {cube} is "
                                f"worth, a figure choue.net writes; scored as the most a resignation may be worth, "
                                f"{_points(expected)} (the real value is not in the file)",
                Reading.NEEDED: f"{wins}: the points {player} still needed to win the match; the game "
                                f"is worth {_points(expected)} (a habit that cannot be checked)",
                Reading.FINAL: f"{wins} and the match: the match length, {player}'s final score, as "
                               f"Backgammon Galaxy writes a game that wins the match; the game is worth "
                               f"{_points(expected)} (a habit that cannot be checked)",
            }.get(reading[0])
            if warning is not None:
                self.problem(action, ProblemKind.POINTS, warning, Severity.WARNING)
        rolled = self.waiting_roll
        self.flush_cut(resigned=how == Outcome.RESIGNATION)     # a play cut short right before it, if one is held
        self.report_roll(resigned=how == Outcome.RESIGNATION)   # the roll right before it, if one is held
        if self.wants_other_events:
            if how == Outcome.RESIGNATION:
                self.emit(action, EventKind.RESIGN, self.resigned_in(rolled, side), points=action.points)
            else:
                self.emit(action, EventKind.WIN, self.state(side), points=action.points)
        if rules.match_length and action.and_match and score[winner] + points < rules.match_length:
            self.problem(action, ProblemKind.MATCH, f"{self.match.words.and_match} but {player} has {score[winner] + points} of "
                                                    f"{rules.match_length} points")
        # the score goes on with what the game is worth, not with a wrong record,
        # so that one bad 'Wins' line does not make every later score line wrong
        after = list(score)
        after[winner] += expected
        self.result = GameResult(self.record.number, self.record.line, self.player(winner), winner, how, cube,
                                 expected, self.crawford, (after[0], after[1]), action.points)
        self.over = True

    def _drop_won(self, named: int) -> int:
        """Who wins a game ended by a drop whose result line names ``named``:
        the doubler, where the record names the player who dropped the other's
        double (a writer that puts every result line in the left column): a
        drop gives the game to the doubler, and the record's contradiction is
        an error (win). GNU Backgammon 1.07's import instead credits the named
        player, by a second double and a resignation it makes up after the
        drop. Else ``named`` (where the drop itself is in the wrong column, the
        result line says more than it)."""
        return 1 - named if self.dropper == named else named

    def unwritten_win(self, winner: int, points: int) -> None:
        """The win of a game whose record writes no result (conventions.results_written: Gibbon's dump), at its
        end, worth ``points``: the event a 'Wins' line gives, so that every visitor sees the game won."""
        if self.wants_other_events:
            self.emit(Action(self.last_line, 1, None, winner, ActionKind.WIN, points=points), EventKind.WIN,
                      self.state(winner), points=points)

    def resigned_in(self, rolled: Event | None, winner: int) -> GameState:
        """The state a resignation is made in, the game's state then: after the
        roll held back right before it (rolled, then resigned) that roll's,
        else the player whose turn it is on roll, as GNU Backgammon's record
        has it (the loser resigns on their turn), not the winner the result
        line names; the winner where the record does not say whose turn it is."""
        if rolled is not None:
            return rolled.before
        return self.state(winner if self.on_roll is None else self.on_roll)

    def unjudged_win(self, action: Action) -> None:
        """:meth:`win` for a visitor that reads no result and no problem
        (MatchVisitor.reads_judgement False): the game over, the play cut short
        and the roll held back before it reported as win reports them, and a
        result of the points as written, not read against what the game is
        worth (the score kept is then the record's)."""
        over = self.winner()
        if self.dropped is not None:
            how, winner = Outcome.DROP, self._drop_won(action.side)
        elif over is None:
            how, winner = Outcome.RESIGNATION, action.side
        else:
            how, winner = self.win_of(over).outcome, over
        self.flush_cut(resigned=how == Outcome.RESIGNATION)
        self.report_roll(resigned=how == Outcome.RESIGNATION)
        points = action.points or 0
        after = list(self.start.score)
        after[winner] += points
        self.result = GameResult(self.record.number, self.record.line, self.player(winner), winner, how, self.cube.value,
                                 points, self.crawford, (after[0], after[1]), action.points)
        self.over = True

    def possible_points(self, over: int | None) -> list[int]:
        """What the game may be worth at the current cube: the final position's
        value when it is over, else any resignation."""
        cube, centred = self.cube.value, self.cube.centred
        if over is not None:
            return [game_value(self.win_of(over), cube, self.rules, centred, self.needed(over))]
        return resignation_values(cube, self.rules, centred)

    def win_of(self, over: int) -> Win:
        """How side ``over`` won the finished game."""
        return game_kind(self.board, winner_is_player=(over == 0), home_gammons=self.rules.home_gammons,
                         variation=self.rules.variation)

    def needed(self, winner: int) -> int | None:
        """The points ``winner`` still needs in a match (None in money play)."""
        return points_away(self.rules.match_length, self.start.score, winner) if self.rules.match_length else None

    def finish(self) -> GameResult | Unfinished:
        """The game's result at its end. A game without a ``Wins`` line gets
        its problem in ``missing``, not yet reported: the driver settles it
        with the next game's score line."""
        if self.result is None:
            # a roll with no play is the last thing the game records (a FIBS
            # export cut off at "57) 53:"): the record stops there, it does not
            # say the roll could not be played; the missing end says the rest
            self.waiting_dance = None
        self.flush_cut()
        self.flush_dance()
        self.end_dance_run()
        if self.result is not None:
            return self.result
        g = self.record.number
        score = self.start.score
        over = self.winner()
        after = [score[0], score[1]]
        if over is not None and not self.unchecked:
            win = self.win_of(over)
            points = game_value(win, self.cube.value, self.rules, self.cube.centred, self.needed(over))
            after[over] += points
            if results_written(self.match.writer):
                self.missing = Problem(self.last_line, g, self.moves, self.player(over), ProblemKind.INCOMPLETE,
                                       f"game {g} is over but its {self.match.words.result} is missing",
                                       self.match.number)
            else:
                self.unwritten_win(over, points)
            return GameResult(g, self.record.line, self.player(over), over, win.outcome, self.cube.value,
                              points, self.crawford, (after[0], after[1]))
        if self.dropped is not None:
            winner = self.drop_winner
            points = drop_value(self.dropped)
            after[winner] += points
            if results_written(self.match.writer):
                self.missing = Problem(self.last_line, g, self.moves, self.player(winner), ProblemKind.INCOMPLETE,
                                       f"game {g} ends with a drop but its {self.match.words.result} is missing",
                                       self.match.number)
            else:
                self.unwritten_win(winner, points)
            return GameResult(g, self.record.line, self.player(winner), winner, Outcome.DROP, self.dropped, points,
                              self.crawford, (after[0], after[1]))
        self.missing = Problem(self.last_line, g, self.moves, "", ProblemKind.INCOMPLETE,
                               f"game {g} has no result: the record stops before the game ends", self.match.number)
        return Unfinished(g, self.record.line, self.cube.value, self.crawford, score)


# the short path of apply_with_events, by (player 0's side, player 1's side, the mover, the dice, the text)
_PLAYED: dict[tuple, tuple[Position, Play, str, Position]] = {}
_SHOWN: dict[tuple, str] = {}   # a play's text by its raw pairs and hit marks (Play.steps_key)
# the events' match states, by their rules and then every other field (GameReplay.match_state)
_MATCH_STATES: dict[Rules, dict[tuple, MatchState]] = {}


# Fenced mirror of GameReplay.move through judge_play, for the replay's short path with events:
# tests/test_mirrors.py::test_the_replays_short_path_is_the_judge_on_generated_plays, tests/test_view.py::test_the_short_path_of_plays_with_events_changes_no_replay
def _legal_written_play(board: Position, side: int, dice: tuple[int, int], text: str | None
                ) -> tuple[Position, Play, str, Position] | None:
    """What the short path of apply_with_events makes of a play: the position
    before it from the mover's side, the legal Play, its text and the board
    after it (from player 0's side); None when it is not a legal play written
    one pair per die or so."""
    text = (text or "").strip()
    before = board if side == 0 else board.swap()
    steps = die_steps(before, dice, text, side) if text else None
    play = play_from_steps(before, dice, steps) if steps is not None else None
    if play is None:
        return None
    if play.key is not None:
        # the text play_text writes, from the play's raw pairs and hit marks (no Step objects),
        # remembered by them: the same change of checkers comes back in many positions
        change = play.steps_key()
        shown = _SHOWN.get(change)
        if shown is None:
            if len(_SHOWN) > 100_000:   # bounded, as _PLAYED
                _SHOWN.clear()
            shown = _SHOWN[change] = canonical_text(*change)
    else:
        shown = play_text(play)
    result = play.result
    return before, play, shown, result if side == 0 else result.swap()


# one method per action kind, shared by every game (not bound anew for each)
_HANDLERS: dict[ActionKind, Callable[[GameReplay, Action], None]] = {
    ActionKind.MOVE: GameReplay.move, ActionKind.DANCE: GameReplay.move, ActionKind.ROLL: GameReplay.roll,
    ActionKind.RESIGN: GameReplay.roll, ActionKind.ILLEGAL: GameReplay.illegal,
    ActionKind.AUTO_DOUBLE: GameReplay.auto_double, ActionKind.DOUBLE: GameReplay.double, ActionKind.BEAVER: GameReplay.beaver, ActionKind.TAKE: GameReplay.take,
    ActionKind.DROP: GameReplay.drop, ActionKind.WIN: GameReplay.win, ActionKind.RACCOON: GameReplay.raccoon,
    ActionKind.DRAW: GameReplay.draw, ActionKind.SET_UP: GameReplay.set_up,
}


_INSTANT = {InstantRedouble.BEAVER: ActionKind.BEAVER, InstantRedouble.RACCOON: ActionKind.RACCOON}


def _owner(owner: int | None) -> int:
    return -1 if owner is None else owner   # a game set up with the cube's owner unsaid: centred
