"""Replaying and auditing match transcripts.

``replay_match`` walks the records that ``bgcli.matchfile`` read, keeps the
position, cube and score, and reports every action with the state before it
(``Event``), every game's result (``GameResult``) and every problem found
(``Problem``). The audit is the list of problems; the score is the list of
results. Nothing stops at the first problem: after an illegal play the
replay goes on from the position that the recorded play produced (seed 000:
an illegal move not called in time stands); when the play cannot be applied
at all, the rest of that game is reported as unchecked.
"""
from __future__ import annotations

import re

from dataclasses import dataclass, field, replace
from typing import Iterator

from bgcli.errors import AmbiguousPlayError, BgcliError, IllegalPlayError, InvalidPlayError
from bgcli.ids import match_id
from bgcli.state import GameState, MatchState
from bgcli.model import CHECKERS, OFF, Position, legal_plays, play_key
from bgcli.notation import apply_written, parse_play, parse_play_text, play_text
from bgcli.scoring import RESULT_NAMES, Rules, crawford_game, game_kind, game_points

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a transcript, with where it is."""

    line: int
    game: int
    move: int
    player: str
    kind: str      # play, dice, dance, turn, cube, points, score, match, unchecked, syntax
    message: str
    match: int = 1

    def as_dict(self) -> dict:
        return {"line": self.line, "match": self.match, "game": self.game, "move": self.move,
                "player": self.player, "kind": self.kind, "message": self.message}


@dataclass(frozen=True)
class Event:
    """One action of a transcript with the state before it."""

    match: int
    game: int
    line: int
    move: int
    side: int            # 0 = the file's left column (gnubg's player 0), 1 = the right column
    player: str
    action: str          # move, double, take, drop, beaver, resign, win
    dice: tuple[int, int] | None
    play: str            # canonical text of a legal play, the recorded text otherwise; '' for a dance
    before: GameState    # position from the side of the player on roll, and the match state
    after: Position | None = None   # the position after a move, from the mover's side
    points: int | None = None
    cube: int | None = None

    def as_dict(self) -> dict:
        data = {"match": self.match, "game": self.game, "line": self.line, "player": self.player,
                "action": self.action}
        if self.action == "move":
            data["dice"] = list(self.dice) if self.dice else None
            data["play"] = self.play
        if self.cube is not None:
            data["cube"] = self.cube
        if self.points is not None:
            data["points"] = self.points
        data["position_id"] = self.before.position.id()
        data["match_id"] = self.match_id()
        return data

    def match_id(self) -> str | None:
        """The Match ID of the state before the action, or None when a broken
        transcript left a state that a Match ID cannot hold (a game played
        after the match was won, at a score past the length)."""
        try:
            return match_id(self.before.match)
        except BgcliError:
            return None


@dataclass(frozen=True)
class GameResult:
    game: int
    line: int
    winner: str
    winner_side: int
    result: str          # single, gammon, backgammon, drop, resignation
    cube: int
    points: int
    crawford: bool
    score: tuple[int, int]   # running score after the game, left column first

    def as_dict(self) -> dict:
        return {"game": self.game, "winner": self.winner, "result": self.result, "cube": self.cube,
                "points": self.points, "crawford": self.crawford, "score": list(self.score)}


@dataclass
class MatchReplay:
    """Everything a replay of one match found."""

    number: int
    length: int
    players: tuple[str, str]
    rules: Rules
    events: list[Event] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    keep_events: bool = True   # the audit needs only problems and results

    @property
    def score(self) -> tuple[int, int]:
        return self.results[-1].score if self.results else (0, 0)

    @property
    def winner(self) -> str | None:
        if self.length:
            for side in (0, 1):
                if self.score[side] >= self.length:
                    return self.players[side]
            return None
        if self.score[0] == self.score[1]:
            return None
        return self.players[0] if self.score[0] > self.score[1] else self.players[1]

    def score_dict(self) -> dict:
        return {"match_length": self.length, "players": list(self.players),
                "games": [r.as_dict() for r in self.results], "score": list(self.score), "winner": self.winner}


class _Game:
    """The running state of one game while it is replayed."""

    def __init__(self, crawford: bool, rules: Rules):
        self.board = Position.start()   # from the side of player 0 (the left column)
        self.cube = 1
        self.owner = -1
        self.on_roll: int | None = None
        self.pending: tuple[int, int, int] | None = None  # (doubler, offered value, value before)
        self.crawford = crawford
        self.rules = rules
        self.over = False
        self.unchecked = False
        self.moves = 0
        self.result: tuple[int, str, int] | None = None   # (winner side, how, points)
        self.dropped: int | None = None
        # Automatic doubles (money play) raise the cube before the opening
        # roll, which a .mat file does not record: until the cube is seen,
        # any of these starting values is possible.
        self.start_cubes = [1 << k for k in range(rules.auto_doubles + 1)] if not rules.match_length else [1]
        self.cube_known = len(self.start_cubes) == 1

    def seen_by(self, side: int) -> Position:
        return self.board if side == 0 else self.board.swap()

    def set_seen_by(self, side: int, position: Position) -> None:
        self.board = position if side == 0 else position.swap()

    def winner(self) -> int | None:
        if self.board.player[OFF] == CHECKERS:
            return 0
        if self.board.opponent[OFF] == CHECKERS:
            return 1
        return None


def replay_match(record, number: int = 1, rules: Rules | None = None, keep_events: bool = True) -> MatchReplay:
    """Replay one match record read by ``bgcli.matchfile``; without
    ``keep_events`` only problems and results are kept (faster)."""
    rules = (rules or Rules()).with_tags(getattr(record, "tags", {}) or {})
    rules = replace(rules, match_length=record.length)
    players = _players(record)
    replay = MatchReplay(number, record.length, players, rules, keep_events=keep_events)
    score = [0, 0]
    crawford_done = False
    match_over_line = None
    for game_record in record.games:
        g = game_record.number
        file_scores = tuple(game_record.scores) if game_record.scores is not None else None
        if match_over_line is not None:
            replay.problems.append(Problem(game_record.line, g, 0, "", "match",
                                           f"game {g} is played after the match ended at line {match_over_line}", number))
        if file_scores is not None and tuple(file_scores) != tuple(score):
            replay.problems.append(Problem(
                game_record.line, g, 0, "", "score",
                f"game {g} starts at {file_scores[0]}-{file_scores[1]} but the games before give {score[0]}-{score[1]}",
                number))
        is_crawford = crawford_game(rules, tuple(score), crawford_done)
        crawford_done = crawford_done or is_crawford
        game = _Game(is_crawford, rules)
        for action in game_record.actions:
            _replay_action(replay, game, action, g, number, tuple(score), players)
        outcome = _finish_game(replay, game, game_record, g, number, players)
        if outcome is not None:
            side, how, points = outcome
            score[side] += points
            replay.results.append(GameResult(g, game_record.line, players[side], side, how, game.cube, points,
                                             is_crawford, (score[0], score[1])))
            if rules.match_length and score[side] >= rules.match_length and match_over_line is None:
                match_over_line = game_record.line
    return replay


def _players(record) -> tuple[str, str]:
    names = record.games[0].players if record.games else None
    return tuple(names) if names else ("player 0", "player 1")  # type: ignore[return-value]


def _state(game: _Game, side: int, replay: MatchReplay, score, dice=(0, 0), doubled=False, turn=None) -> GameState:
    rules = replay.rules
    match = MatchState(
        cube=game.cube, cube_owner=game.owner, on_roll=side, crawford=game.crawford, game_state=1,
        turn=side if turn is None else turn, doubled=doubled, resign=0, dice=tuple(dice),
        match_length=rules.match_length, score=(score[0], score[1]) if rules.match_length else (0, 0),
        jacoby=rules.jacoby,
    )
    return GameState(game.seen_by(side), match)


def _replay_action(replay: MatchReplay, game: _Game, action, g: int, number: int, score, players) -> None:
    side = action.side
    player = players[side]
    move_number = action.move_number or 0
    kind = action.kind
    if kind in ("unknown", "loses", "illegal", "raccoon"):
        return  # XG's ???, Galaxy's "Losses", Snowie's note: nothing to replay

    def problem(kind_: str, message: str) -> None:
        replay.problems.append(Problem(action.line, g, move_number, player, kind_, message, number))

    if kind in ("wins", "resign"):
        _record_win(replay, game, action, g, number, score, players, problem)
        return
    if game.over:
        problem("match", f"{kind} after the game was over")
        return
    if game.unchecked:
        return
    if kind in ("move", "dance"):
        if game.pending is not None:
            problem("cube", f"{player} rolls while a double is waiting for an answer")
            game.pending = None
        if game.on_roll is not None and side != game.on_roll:
            problem("turn", f"{player} moves out of turn: it is {players[game.on_roll]}'s turn")
        dice = tuple(action.dice) if action.dice else None
        if dice is None:
            problem("dice", "a move without dice")
            game.unchecked = True
            return
        dice = (max(dice), min(dice))
        before = game.seen_by(side)
        game.moves += 1
        if game.moves == 1 and dice[0] == dice[1]:
            problem("dice", f"the opening roll {dice[0]}{dice[1]} is a double: the first roll of a game never is")
        text = (action.play_text or "").strip()
        state = _state(game, side, replay, score, dice) if replay.keep_events else None
        after, shown = _check_play(before, dice, text, problem, game, replay.keep_events)
        if state is not None:
            replay.events.append(Event(number, g, action.line, move_number, side, player, "move", dice, shown, state, after))
        if after is None:
            return
        game.set_seen_by(side, after)
        game.on_roll = 1 - side
        if game.winner() is not None:
            game.over = True
        return
    if kind == "double":
        if replay.keep_events:
            replay.events.append(Event(number, g, action.line, move_number, side, player, "double", None, "",
                                       _state(game, side, replay, score), cube=action.cube))
        if game.on_roll is not None and side != game.on_roll:
            problem("turn", f"{player} doubles out of turn: it is {players[game.on_roll]}'s turn")
        if game.crawford:
            problem("cube", f"{player} doubles in the Crawford game, where the cube is not used")
        if game.owner not in (-1, side):
            problem("cube", f"{player} doubles but {players[game.owner]} owns the cube")
        offered = action.cube if action.cube else game.cube * 2
        if not game.cube_known:
            if offered // 2 in game.start_cubes and offered % 2 == 0:
                game.cube = offered // 2
            game.cube_known = True
        if offered != game.cube * 2:
            problem("cube", f"Doubles => {offered} but the cube is at {game.cube}: a double makes it {game.cube * 2}")
        limit = replay.rules.cube_limit
        if limit and offered > limit:
            problem("cube", f"Doubles => {offered} goes past the cube limit of {limit}")
        game.pending = (side, game.cube * 2, game.cube)
        game.on_roll = side
        return
    if kind in ("take", "drop", "beaver"):
        if game.pending is None:
            problem("cube", f"{player} answers a double that was not offered")
            if replay.keep_events:
                replay.events.append(Event(number, g, action.line, move_number, side, player, kind, None, "",
                                           _state(game, 1 - side, replay, score)))
            if kind == "drop":
                game.dropped = game.cube
                game.over = True
            return
        doubler, offered, before_value = game.pending
        if replay.keep_events:
            state = _state(game, doubler, replay, score, doubled=True, turn=1 - doubler)
            replay.events.append(Event(number, g, action.line, move_number, side, player, kind, None, "", state,
                                       cube=action.cube if kind == "beaver" else None))
        if side == doubler:
            problem("turn", f"{player} answers their own double")
        if kind == "take":
            game.cube, game.owner, game.pending = offered, 1 - doubler, None
        elif kind == "drop":
            game.pending = None
            game.dropped = before_value
            game.over = True
        else:  # a beaver: the doubled player takes and redoubles at once, keeping the cube
            if not replay.rules.beavers:
                problem("cube", f"{player} beavers but beavers are not allowed (use --beavers)")
            value = action.cube or offered * 2
            if value != offered * 2:
                problem("cube", f"Beavers => {value} but a beaver of a {offered} cube makes it {offered * 2}")
            game.cube, game.owner = value, 1 - doubler
            game.pending = None
        return
    problem("syntax", f"unknown action {kind!r}")


_MAT_MOVE = re.compile(r"(\d{1,2})/(\d{1,2})\*?")


def _written_moves(text: str) -> list[tuple[int, int]] | None:
    """The (start, end) pairs of a play written as .mat files write them
    (``13/8 8/5*``), or None for any other spelling."""
    moves = []
    for word in text.split():
        found = _MAT_MOVE.fullmatch(word)
        if found is None:
            return None
        moves.append((int(found.group(1)), int(found.group(2))))
    return moves


def _check_play(before: Position, dice, text: str, problem, game: _Game, want_text: bool = True):
    """Judge a recorded play; return (position after or None, text to show)."""
    if text:
        # Fast path: apply the written pairs in order and look the result up
        # among the legal plays' keys. Anything else takes the full parser.
        moves = _written_moves(text)
        key = play_key(before, moves) if moves else None
        if key is not None:
            for play in legal_plays(before, dice):
                if play.key == key:
                    return play.result, (play_text(play) if want_text else text)
    if not text:
        plays = legal_plays(before, dice)
        if plays:
            some = ", ".join(sorted(play_text(p) for p in plays)[:6])
            problem("dance", f"no play is recorded for {dice[0]}{dice[1]} but {len(plays)} legal "
                             f"play{'s' if len(plays) > 1 else ''} exist ({some})")
        return before, ""
    try:
        play = parse_play(text, before, dice)
        return play.result, (play_text(play) if want_text else text)
    except IllegalPlayError as exc:
        # Was the play or the roll recorded wrong? A play that is one slip
        # away from a legal play of this roll (a sub-move missing, or the last
        # one ending a point off) is a wrong play; otherwise, when it is a
        # legal play of another roll, the roll is what was written wrong.
        other = None if _one_slip_from_legal(before, dice, text) else _other_roll(before, dice, text)
        if other is not None:
            problem("dice", f"{text!r} is not a play of {dice[0]}{dice[1]}; it is a legal play of "
                            f"{other[0]}{other[1]}: the roll does not fit the play")
        else:
            problem("play", str(exc))
    except (InvalidPlayError, AmbiguousPlayError) as exc:
        problem("play", str(exc))
    try:
        after = apply_written(before, text, dice)
    except BgcliError:
        after = None
    if after is None:
        problem("unchecked", "the recorded play cannot be applied: the rest of this game is not checked")
        game.unchecked = True
        return None, text
    return after, text


def _one_slip_from_legal(before: Position, dice, text: str) -> bool:
    try:
        written = parse_play_text(text)
    except BgcliError:
        return False
    hops = written.hops()
    if not hops:
        return False
    start, end = hops[-1]
    for shifted in (end - 1, end + 1):
        if 0 <= shifted < start and _fits_dice(hops[:-1] + [(start, shifted)], dice):
            candidate = " ".join(f"{a}/{b}" for a, b in hops[:-1] + [(start, shifted)])
            try:
                parse_play(candidate, before, dice)
                return True
            except BgcliError:
                pass
    used = sum(_dice_needed(start - end, end, dice) for start, end in hops)
    if used >= (4 if dice[0] == dice[1] else 2):
        return False  # nothing is missing
    try:
        reached = apply_written(before, written, dice)
    except BgcliError:
        reached = None
    if reached is None:
        return False
    return any(len(play.steps) == used + 1 and _one_step_apart(reached.player, play.result.player, dice)
               for play in legal_plays(before, dice))


def _dice_needed(length: int, end: int, dice) -> int:
    """How many dice a written hop of ``length`` pips takes (at least one)."""
    if dice[0] == dice[1]:
        return max(1, -(-length // dice[0]))
    return 1 if length in dice or (end == 0 and length < dice[0]) else 2


def _fits_dice(hops, dice) -> bool:
    """Whether each hop is one die of the roll (a bear-off may use a larger die)."""
    free = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    for start, end in sorted(hops, key=lambda hop: hop[0] - hop[1], reverse=True):
        length = start - end
        die = next((d for d in sorted(free) if d == length or (end == 0 and d > length)), None)
        if die is None:
            return False
        free.remove(die)
    return True


def _one_step_apart(side: tuple[int, ...], target: tuple[int, ...], dice) -> bool:
    """Whether one more step of a die turns ``side`` into ``target``."""
    diff = [(p, target[p] - side[p]) for p in range(26) if target[p] != side[p]]
    if len(diff) != 2 or diff[0][1] != 1 or diff[1][1] != -1:  # a lower point gains what a higher one loses
        return False
    low, high = diff[0][0], diff[1][0]
    return high - low in dice or (low == 0 and high < max(dice))


def _other_roll(before: Position, dice, text: str):
    for roll in ALL_ROLLS:
        if roll == tuple(dice):
            continue
        try:
            parse_play(text, before, roll)
            return roll
        except BgcliError:
            continue
    return None


def _record_win(replay, game: _Game, action, g, number, score, players, problem) -> None:
    side = action.side
    player = players[side]
    points = action.points
    over = game.winner()
    rules = replay.rules
    if game.result is not None:
        problem("points", f"a second result for game {g}")
        return
    # Some sites (Backgammon Galaxy) write a match-winning game as the points
    # the winner still needed, not what the game was worth: accept that cap.
    needed = rules.match_length - score[side] if rules.match_length else 0

    def fits(value: int) -> bool:
        return points == value or (needed > 0 and points == needed and value > needed)

    if not game.cube_known:
        # the automatic doubles are learnt from the result: the smallest
        # starting cube that makes the recorded points fit
        for cube in game.start_cubes:
            game.cube = cube
            if _result_fits(game, rules, points, fits):
                break
        else:
            game.cube = 1
        game.cube_known = True
    if game.dropped is not None:
        expected, how = game.dropped, "drop"
        if not fits(expected):
            problem("points", f"Wins {points} point{'s' if points != 1 else ''} after a drop, "
                              f"but a dropped {expected * 2}-cube is worth {expected}")
        winner = side
    elif over is not None:
        kind = game_kind(game.board, winner_is_player=(over == 0))
        expected = game_points(kind, game.cube, rules, game.owner == -1)
        how = RESULT_NAMES[kind]
        if over != side:
            problem("points", f"{player} is said to win but {players[over]} bore off every checker")
        elif not fits(expected):
            problem("points", f"Wins {points} point{'s' if points != 1 else ''} but the final position is a "
                              f"{how} at cube {game.cube}: {expected} point{'s' if expected != 1 else ''}")
        winner = over
    else:
        how = "resignation"
        worth = sorted({game.cube, game.cube * 2, game.cube * rules.backgammon_counts})
        if rules.jacoby and not rules.match_length and game.owner == -1:
            worth = [game.cube]
        fitting = [value for value in worth if fits(value)]
        if fitting:
            expected = fitting[0]
        else:
            allowed = " or ".join(str(v) for v in worth)
            problem("points", f"Wins {points} point{'s' if points != 1 else ''} by resignation, but at cube "
                              f"{game.cube} a resignation is worth {allowed}")
            expected = game.cube
        winner = side
    if replay.keep_events:
        replay.events.append(Event(number, g, action.line, action.move_number, side, player,
                                   "win" if how != "resignation" else "resign", None, "",
                                   _state(game, side, replay, score), points=points))
    if replay.rules.match_length and getattr(action, "and_match", False):
        if score[winner] + (points or 0) < replay.rules.match_length:
            problem("match", f"'and the match' but {player} has {score[winner] + (points or 0)} of "
                             f"{replay.rules.match_length} points")
    # the score goes on with what the game is worth, not with a wrong record,
    # so that one bad 'Wins' line does not make every later score line wrong
    game.result = (winner, how, expected)
    game.over = True


def _result_fits(game: _Game, rules: Rules, points, fits) -> bool:
    over = game.winner()
    if over is not None:
        kind = game_kind(game.board, winner_is_player=(over == 0))
        return fits(game_points(kind, game.cube, rules, game.owner == -1))
    values = {game.cube, game.cube * 2, game.cube * rules.backgammon_counts}
    if rules.jacoby and game.owner == -1:
        values = {game.cube}
    return any(fits(v) for v in values)


def _finish_game(replay, game: _Game, game_record, g, number, players):
    if game.result is not None:
        return game.result
    over = game.winner()
    if over is not None and not game.unchecked:
        kind = game_kind(game.board, winner_is_player=(over == 0))
        points = game_points(kind, game.cube, replay.rules, game.owner == -1)
        replay.problems.append(Problem(game_record.line, g, game.moves, players[over], "points",
                                       f"game {g} ends without a 'Wins' line", number))
        return (over, RESULT_NAMES[kind], points)
    if game.dropped is not None:
        replay.problems.append(Problem(game_record.line, g, game.moves, "", "points",
                                       f"game {g} ends with a drop but without a 'Wins' line", number))
    return None


def replay_file(path: str, rules: Rules | None = None, keep_events: bool = True) -> Iterator[MatchReplay]:
    """Replay every match of a file, read as a stream; bad lines become
    problems of kind 'syntax'. Raises MatchFileError when nothing in the
    file can be read as a match."""
    from bgcli.export import read_any, sniff
    from bgcli.matchfile import iter_file

    # .mat files are read as a stream (a 100 MB file is never held whole);
    # SGF and our JSON documents are read by their own readers
    records = iter_file(path) if sniff(path) == "mat" else read_any(path)
    for number, record in enumerate(records, 1):
        replay = replay_match(record, number, rules, keep_events)
        starts = [(game.line, game.number) for game in record.games]
        for error in record.errors:
            game = max((g for line, g in starts if line <= error.line), default=0)
            replay.problems.append(Problem(error.line, game, 0, "", "syntax", error.reason, number))
        replay.problems.sort(key=lambda p: p.line)
        yield replay
