"""The rating of whole matches, with a fake engine whose every answer can be
worked out by hand (tests/fake_engine.py): decision counting, errors, PR,
luck, match equity, cube errors and illegal plays in the middle of a game."""
from __future__ import annotations

from pathlib import Path

import pytest

from fake_engine import FakeEngine, FixedCube, equity_of, mwc_of
from bgcli.core.position import Position
from bgcli.core.generator import legal_plays
from bgcli.formats.files import replay_file, visit_file
from bgcli.judging.rating import (
    BAD, DOUBTFUL, VERY_BAD, DecisionKind, Mark, PlayerRating, Rater, mark, rate_replay,
)
from bgcli.match.replay import EventKind
from bgcli.scale.archive import audit_file

DATA = Path(__file__).parent / "data" / "rating"
THREE = DATA / "sp05025_3pt.mat"


def rate(path, engine=None, rules=None):
    engine = engine or FakeEngine()
    return rate_replay(engine, lambda visitor: visit_file(str(path), visitor, rules))


def best_after(position: Position, dice) -> float:
    """What the fake says the best play of ``dice`` is worth, worked out here."""
    plays = legal_plays(position, dice)
    if not plays:
        return -equity_of(position.swap())
    return max(1.0 if p.result.is_over() else -equity_of(p.result.swap()) for p in plays)


def luck_by_hand(position: Position, dice) -> float:
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    if position == Position.start() and dice[0] != dice[1]:
        mine = [best_after(position, (max(r), min(r))) for r in rolls if r[0] > r[1]]
        theirs = [-best_after(position, (max(r), min(r))) for r in rolls if r[0] > r[1]]  # the start is symmetric
        return best_after(position, dice) - (sum(mine) + sum(theirs)) / 30
    return best_after(position, dice) - sum(best_after(position, (max(r), min(r))) for r in rolls) / 36


def test_every_checker_play_is_judged_against_the_best_play():
    rating, = rate(THREE)
    replay, = replay_file(str(THREE))
    moves = [e for e in replay.events if e.kind == EventKind.MOVE]
    plays = [d for d in rating.decisions if not d.is_cube]
    assert len(plays) == len(moves)
    for event, decision in zip(moves, plays):
        assert (decision.game, decision.line, decision.player) == (event.game, event.line, event.player)
        choices = legal_plays(event.before.position, event.dice)
        if len(choices) <= 1:
            assert decision.kind == DecisionKind.FORCED and not decision.counted
            continue
        assert decision.kind == DecisionKind.PLAY
        played = 1.0 if event.after.is_over() else -equity_of(event.after.swap())
        assert decision.error == pytest.approx(best_after(event.before.position, event.dice) - played)
        assert decision.played == event.play
        assert decision.error_mwc == pytest.approx(0.3 * decision.error)   # the fake's MWC is affine


def test_luck_is_the_best_equity_of_the_roll_less_the_mean_over_all_rolls():
    rating, = rate(THREE)
    replay, = replay_file(str(THREE))
    moves = [e for e in replay.events if e.kind == EventKind.MOVE]
    plays = [d for d in rating.decisions if not d.is_cube]
    assert moves[0].before.position == Position.start()   # the opening roll: 30 rolls, either player
    for event, decision in zip(moves, plays):
        assert decision.luck == pytest.approx(luck_by_hand(event.before.position, event.dice))
        assert decision.luck_mwc == pytest.approx(0.3 * decision.luck)
    for side in (0, 1):
        mine = [d.luck for d in plays if d.side == side]
        assert rating.ratings[side].luck == pytest.approx(sum(mine))
        assert rating.ratings[side].rolls == len(mine)


def test_decisions_counted_error_rate_and_pr():
    rating, = rate(THREE)
    for side in (0, 1):
        mine = [d for d in rating.decisions if d.side == side]
        player = rating.ratings[side]
        counted = [d for d in mine if d.counted]
        assert player.decisions == len(counted) > 0
        assert player.checker_decisions + player.cube_decisions == player.decisions
        total = sum(d.error or 0.0 for d in mine)
        assert player.error == pytest.approx(total)
        assert player.pr == pytest.approx(500 * total / len(counted))
        assert player.error_rate == pytest.approx(1000 * total / len(counted))
        assert player.unforced == sum(1 for d in mine if d.kind == DecisionKind.PLAY)
        marks = [mark(d.error) for d in mine]
        assert (player.doubtful, player.bad, player.very_bad) == (
            marks.count(Mark.DOUBTFUL), marks.count(Mark.BAD), marks.count(Mark.VERY_BAD))
    assert not any(d.counted for d in rating.decisions if d.kind in (DecisionKind.FORCED, DecisionKind.ILLEGAL))


def test_a_player_with_no_decision_has_no_pr():
    assert PlayerRating("nobody").pr is None and PlayerRating("nobody").error_rate is None


def test_the_marks_use_gnubgs_thresholds():
    assert [mark(x) for x in (0.0, DOUBTFUL, DOUBTFUL + 1e-9, BAD + 1e-9, VERY_BAD + 1e-9)] == [
        Mark.NONE, Mark.NONE, Mark.DOUBTFUL, Mark.BAD, Mark.VERY_BAD]
    assert (DOUBTFUL, BAD, VERY_BAD) == (0.03, 0.06, 0.12)


def cube_turns(rating):
    return [d for d in rating.decisions if d.kind == DecisionKind.NO_DOUBLE]


def test_missed_doubles_when_doubling_is_always_right():
    rating, = rate(THREE, FakeEngine(cube_bias=5.0))   # double/take far above holding: always double (and pass)
    turns = cube_turns(rating)
    assert turns
    replay, = replay_file(str(THREE))
    for decision in turns:
        event = next(e for e in replay.events if e.line == decision.line and e.side == decision.side
                     and e.kind == EventKind.MOVE)
        nd = equity_of(event.before.position)
        assert decision.best == "double"
        assert decision.error == pytest.approx(1.0 - nd)     # pass (1.0) is below double/take: the doubler gets 1.0
        assert decision.verdict == "missed double"
        assert decision.error_mwc == pytest.approx(mwc_of(1.0) - mwc_of(nd))
    # the takes of a double that should be passed are wrong takes
    takes = [d for d in rating.decisions if d.kind == DecisionKind.TAKE]
    assert takes and all(d.verdict == "wrong take" and d.best == "pass" for d in takes)


def test_wrong_doubles_when_holding_is_always_right():
    rating, = rate(THREE, FakeEngine(cube_bias=-5.0))   # double/take far below: never double, always take
    doubles = [d for d in rating.decisions if d.kind == DecisionKind.DOUBLE]
    assert len(doubles) == 2
    replay, = replay_file(str(THREE))
    for decision in doubles:
        event = next(e for e in replay.events if e.line == decision.line and e.kind == EventKind.DOUBLE)
        nd = equity_of(event.before.position)
        dt = 2 * nd - 0.3 - 5.0
        assert decision.verdict == "wrong double" and decision.best == "no double"
        assert decision.error == pytest.approx(nd - dt)
    assert all(d.error == 0 for d in cube_turns(rating))
    assert all(d.error == 0 for d in rating.decisions if d.kind == DecisionKind.TAKE)


def test_no_cube_turn_before_the_doublers_own_roll_nor_for_the_player_who_does_not_own_the_cube():
    rating, = rate(THREE)
    replay, = replay_file(str(THREE))
    doubles = [e for e in replay.events if e.kind == EventKind.DOUBLE]
    lines = {(d.line, d.side) for d in cube_turns(rating)}
    for double in doubles:
        roll = next(e for e in replay.events if e.kind == EventKind.MOVE and e.side == double.side
                    and (e.line, e.move) >= (double.line, double.move) and e is not double)
        assert (roll.line, roll.side) not in lines
    for decision in cube_turns(rating):
        event = next(e for e in replay.events if e.line == decision.line and e.side == decision.side
                     and e.kind == EventKind.MOVE)
        assert can_double(event.before)
        assert event.before.match.cube_owner in (-1, event.side)


def can_double(state) -> bool:
    """The rating's question, asked of the cube module as rate asks it."""
    from bgcli.core.cube import CubeTurn, may_double

    return may_double(CubeTurn.of(state)) is None


def test_crawford_game_and_dead_cubes_have_no_cube_turn():
    from bgcli.core.rules import Rules
    from bgcli.core.state import GameState, MatchState

    position = Position.start()
    crawford = GameState(position, MatchState(rules=Rules(match_length=5), score=(4, 2), crawford=True, on_roll=0))
    assert not can_double(crawford)
    post = GameState(position, MatchState(rules=Rules(match_length=5), score=(4, 2), on_roll=0))
    assert not can_double(post)                                   # the leader after the Crawford game
    assert can_double(GameState(position, MatchState(rules=Rules(match_length=5), score=(4, 2), on_roll=1)))
    dead = GameState(position, MatchState(rules=Rules(match_length=5), score=(1, 3), cube=4, cube_owner=0, on_roll=0))
    assert not can_double(dead)                                   # 4 more points win the match already
    assert not can_double(GameState(position, MatchState(cube_owner=1, on_roll=0)))
    assert can_double(GameState(position, MatchState(cube_owner=0, on_roll=0)))


def test_an_illegal_play_in_the_middle_of_a_game_has_no_error_and_the_rating_goes_on(tmp_path):
    text = THREE.read_text().replace(" 9) 31: 8/5 5/4", " 9) 31: 8/5 5/1")
    path = tmp_path / "illegal.mat"
    path.write_text(text)
    rating, = rate(path)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "8/5 5/1" in row)
    illegal = [d for d in rating.decisions if d.kind == DecisionKind.ILLEGAL]
    assert [d.line for d in illegal][:1] == [line]
    first = illegal[0]
    assert first.error is None and not first.counted and first.played == "8/5 5/1" and first.luck is not None
    assert rating.ratings[first.side].illegal == len([d for d in illegal if d.side == first.side])
    assert any(d.line > line and d.kind == DecisionKind.PLAY for d in rating.decisions)   # it goes on
    # the audit and the rating agree on every illegal play
    audited = audit_file(str(path))
    assert {p["line"] for p in audited.problems if p["kind"] in ("play", "dice", "dance")} == {d.line for d in illegal}


def test_money_play_has_no_match_winning_chances_and_a_result_in_points():
    money = DATA / "sp05023_money.mat"
    rating, = rate(money)
    assert rating.length == 0
    assert all(d.error_mwc is None and d.luck_mwc is None for d in rating.decisions)
    replay, = replay_file(str(money))
    for side in (0, 1):
        player = rating.ratings[side]
        points = sum(r.points if r.winner_side == side else -r.points for r in replay.results)
        assert player.result == points
        # luck adjusted: the result less one's own luck and plus the opponent's, in points (luck x cube)
        mine = sum(d.luck * d.cube for d in rating.decisions if d.side == side and d.luck is not None)
        theirs = sum(d.luck * d.cube for d in rating.decisions if d.side != side and d.luck is not None)
        assert player.luck_adjusted == pytest.approx(points - mine + theirs)
        assert "error_mwc" not in player.to_dict()


def test_the_json_of_a_decision_and_a_player_has_the_issues_keys():
    rating, = rate(THREE)
    decision = rating.decisions[0].to_dict()
    assert list(decision)[:9] == ["game", "move", "line", "player", "kind", "played", "best", "error", "luck"]
    player = rating.ratings[0].to_dict()
    assert list(player)[:9] == ["name", "decisions", "error", "error_rate", "pr", "luck", "doubtful", "bad", "very_bad"]


def test_the_luck_engine_is_asked_about_the_rolls_and_the_engine_about_the_decisions():
    engine, luck = FakeEngine(), FakeEngine(level=0)
    rating, = rate_replay(engine, lambda v: visit_file(str(THREE), v), luck_engine=luck)
    assert luck.calls["evaluate_plays"] > engine.calls["evaluate_plays"] > 0
    assert luck.calls["cube_decision"] == 0 and engine.calls["cube_decision"] > 0
    assert rating.decisions


def test_an_engine_that_ranks_too_few_plays_is_an_error():
    from bgcli.errors import EngineError

    class Short(FakeEngine):
        def evaluate_plays(self, state, dice, plays):
            return super().evaluate_plays(state, dice, plays)[:1]

    with pytest.raises(EngineError, match="ranked 1 of the"):
        rate(THREE, Short())


def test_rater_is_a_visitor_of_any_format(tmp_path):
    from bgcli.formats.files import export_text, read_any

    sgf = tmp_path / "three.sgf"
    sgf.write_text(export_text(read_any(str(THREE)), "sgf"))
    mat_rating, = rate(THREE)
    sgf_rating, = rate(sgf)
    assert [d.error for d in sgf_rating.decisions] == pytest.approx([d.error for d in mat_rating.decisions])
    assert isinstance(Rater(FakeEngine()), Rater)


def test_float_noise_of_an_engine_is_not_a_wrong_answer_but_a_real_error_is():
    from bgcli.core.state import GameState
    from bgcli.engines import trust
    from bgcli.errors import EngineError

    state = GameState(Position.start())
    found = trust.probabilities([-1.1920928955078125e-07, 0.0, 0.0, 0.0, 0.0], "gnubg", state)
    assert found.win == 0.0
    with pytest.raises(EngineError, match="not all numbers from 0 to 1"):
        trust.probabilities([-0.01, 0.0, 0.0, 0.0, 0.0], "gnubg", state)


def test_luck_asked_from_a_second_thread_gives_the_same_rating():
    """A luck engine of its own process (``separate``) is asked for the whole game's luck from a second
    thread while the judging engine works: every decision is the one of asking in turn."""

    import threading

    class Separate(FakeEngine):
        separate = True
        threads: set = set()

        def evaluate_plays(self, state, dice, plays):
            self.threads.add(threading.current_thread() is threading.main_thread())
            return super().evaluate_plays(state, dice, plays)

    engine = FakeEngine()
    path = DATA / "galaxy_match12031463_game5.txt"
    alone, = rate_replay(engine, lambda v: visit_file(str(path), v, None), luck_engine=FakeEngine(level=0))
    threaded, = rate_replay(engine, lambda v: visit_file(str(path), v, None), luck_engine=Separate(level=0))
    assert [d.luck for d in threaded.decisions] == [d.luck for d in alone.decisions]
    assert threaded.decisions == alone.decisions
    assert any(d.luck for d in alone.decisions)
    assert Separate.threads == {False}   # every luck question came from the second thread


@pytest.mark.parametrize("kind, past_pass, expected", [
    ("NO_DOUBLE", False, "missed double below cash point"),
    ("NO_DOUBLE", True, "missed double above cash point"),
    ("DOUBLE", False, "wrong double below double point"),
    ("DOUBLE", True, "wrong double above too good point"),
    ("TAKE", False, "wrong take"),
    ("DROP", False, "wrong pass"),
])
def test_gnubgs_kinds_of_cube_error(kind, past_pass, expected):
    from bgcli.judging.rating import CubeError, Decision, DecisionKind, PlayerRating

    decision = Decision(1, 1, 3, 10, 0, "a", DecisionKind[kind], "x", "y", error=0.05, past_pass=past_pass)
    assert decision.cube_error == CubeError(expected)
    assert decision.to_dict()["cube_error"] == expected
    player = PlayerRating("a")
    player.take(decision)
    player.take(decision)
    assert player.to_dict()["cube_errors"][expected] == {"count": 2, "error": 0.1}
    right = Decision(1, 1, 3, 10, 0, "a", DecisionKind[kind], "x", "y", error=0.0, past_pass=past_pass)
    assert right.cube_error is None and "cube_error" not in right.to_dict()


@pytest.mark.parametrize("figures, kind, words, expected", [
    # no double 1e-6 above double/pass: gnubg's words say "Double, pass" (without gammons the excess is the
    # engine's rounding), its analysis counts a double a wrong double above the too good point (sp31004
    # of a held-out check, game 3: gnubg 1.07's analyse match said so, bgcli said below the double point)
    ((1.0 + 9.5e-7, 2.0, 1.0), DecisionKind.DOUBLE, "Double, pass", "wrong double above too good point"),
    # double/take exactly double/pass: in words the opponent passes, in gnubg's analysis a missed double
    # is above the cash point only where double/take is above double/pass
    ((0.5, 1.0, 1.0), DecisionKind.NO_DOUBLE, "Double, pass", "missed double below cash point"),
])
def test_the_kind_of_cube_error_is_gnubgs_analysiss_by_the_equities_not_by_the_words(figures, kind, words, expected):
    rating, = rate(THREE, FixedCube(figures))
    found = [d for d in rating.decisions if d.kind == kind and d.error]
    assert found
    for decision in found:
        assert decision.action in (words, "Re" + words.lower())
        assert decision.cube_error is not None and decision.cube_error.value == expected


@pytest.mark.parametrize("luck, expected", [(0.61, "very lucky"), (0.31, "lucky"), (0.3, ""), (-0.29, ""),
                                            (-0.31, "unlucky"), (-0.7, "very unlucky"), (None, "")])
def test_lucky_and_unlucky_rolls_marked_as_gnubg_marks_them(luck, expected):
    from bgcli.judging.rating import Decision, DecisionKind, PlayerRating

    decision = Decision(1, 1, 3, 10, 0, "a", DecisionKind.PLAY, "x", "y", error=0.0, luck=luck)
    assert decision.luck_mark.value == expected
    assert decision.to_dict().get("luck_mark", "") == expected
    player = PlayerRating("a")
    player.take(decision)
    counts = {k: player.to_dict()[k] for k in ("very_lucky", "lucky", "unlucky", "very_unlucky")}
    assert sum(counts.values()) == (1 if expected else 0)
    if expected:
        assert counts[expected.replace(" ", "_")] == 1


def test_questions_asked_ahead_from_the_engines_workers_give_the_same_rating():
    """An engine with worker threads (``workers()``) is asked a whole game's plays and cube decisions ahead
    from them: every decision is the one of asking in turn, and the plays and cubes were asked there."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    class WithWorkers(FakeEngine):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.pool = ThreadPoolExecutor(max_workers=2)
            self.threads: set = set()

        def workers(self):
            return self.pool

        def evaluate_plays(self, state, dice, plays, **kwargs):
            self.threads.add(threading.current_thread() is threading.main_thread())
            return super().evaluate_plays(state, dice, plays)

        def cube_decision(self, state):
            self.threads.add(threading.current_thread() is threading.main_thread())
            return super().cube_decision(state)

    for name, bias in (("galaxy_match12031463_game5.txt", 0.0), ("galaxy_match12031463_7pt.txt", 0.3)):
        path = DATA / name
        engine = WithWorkers(cube_bias=bias)
        alone, = rate_replay(FakeEngine(cube_bias=bias), lambda v: visit_file(str(path), v, None),
                             luck_engine=FakeEngine(level=0))
        ahead, = rate_replay(engine, lambda v: visit_file(str(path), v, None), luck_engine=FakeEngine(level=0))
        engine.pool.shutdown()
        assert ahead.decisions == alone.decisions
        assert [p.to_dict() for p in ahead.ratings] == [p.to_dict() for p in alone.ratings]
        assert any(d.is_cube for d in alone.decisions) and any(d.error for d in alone.decisions)
        assert engine.threads == {False}   # every play and cube was asked from a worker


def test_an_engine_failure_asked_ahead_is_raised_where_the_game_needs_the_answer():
    """A question asked ahead that fails fails the rating as asking in turn does (the same error), and the
    rest of the game's questions are dropped."""
    from concurrent.futures import ThreadPoolExecutor

    from bgcli.errors import EngineError

    class Failing(FakeEngine):
        pool = ThreadPoolExecutor(max_workers=2)

        def workers(self):
            return self.pool

        def evaluate_plays(self, state, dice, plays, **kwargs):
            if state.match.turn == 1:
                raise EngineError(f"no answer for {dice}")
            return super().evaluate_plays(state, dice, plays)

    path = DATA / "galaxy_match12031463_game5.txt"
    with pytest.raises(EngineError, match="no answer for"):
        rate_replay(Failing(), lambda v: visit_file(str(path), v, None), luck_engine=FakeEngine(level=0))
    Failing.pool.shutdown()
