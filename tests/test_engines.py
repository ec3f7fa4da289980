"""The engine layer: open_engine, the checks every answer passes, the match equity table, and the sage backend."""
from __future__ import annotations

import importlib.util
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fake_engine import RollByRoll

from bgcli.core.ids import parse_gnubg_id, parse_position
from bgcli.core.position import Position
from bgcli.core.generator import legal_plays
from bgcli.core.notation import play_text
from bgcli.core.rules import Rules
from bgcli.core.state import GameState, MatchState
from bgcli.engines import ENGINE_NAMES, Level, level_of, open_engine, trust
from bgcli.engines.sage import candidates
from bgcli.core.cube import CubeAction, proper_action
from bgcli.engines.protocol import Evaluation, Probabilities
from bgcli.errors import EngineError, EngineUnavailableError

HAVE_SAGE = importlib.util.find_spec("bgsage") is not None
needs_sage = pytest.mark.skipif(not HAVE_SAGE, reason="bgsage is not installed (pip install '.[engine]')")

START = GameState(Position.start())


# --- a fake engine: the protocol's checks refuse what cannot be trusted ------------------------------------------

class FakeEngine:
    """Answers from a table given to it, through the same checks as every backend."""

    name = "fake"
    level = Level(0)

    def __init__(self, answers: dict[str, tuple], listed: list[str] | None = None):
        self.answers, self.listed = answers, listed

    def evaluate_plays(self, state, dice, plays):
        listed = self.listed if self.listed is not None else [trust.result_key(p) for p in plays]
        trust.same_plays((trust.result_key(p) for p in plays), listed, self.name, state, dice)
        found = {key: trust.evaluation(probs, equity, None, self.name, state, dice)
                 for key, (probs, equity) in self.answers.items()}
        return trust.ranked(found, plays, self.name, state, dice)


GOOD = (0.5, 0.1, 0.01, 0.1, 0.01)


def test_fake_engine_ranks_best_first():
    plays = legal_plays(START.position, (3, 1))
    answers = {trust.result_key(p): (GOOD, i / 100) for i, p in enumerate(plays)}
    ranked = FakeEngine(answers).evaluate_plays(START, (3, 1), plays)
    assert [r.evaluation.equity for r in ranked] == sorted((i / 100 for i in range(len(plays))), reverse=True)
    assert {r.play for r in ranked} == set(plays)


@pytest.mark.parametrize("probs", [(1.2, 0.1, 0, 0, 0), (0.5, -0.1, 0, 0, 0), (0.5, 0.6, 0.0, 0.1, 0.0),
                                   (0.5, 0.1, 0.01, 0.7, 0.0), (math.nan, 0, 0, 0, 0), (0.5, 0.1, 0.0, 0.1)])
def test_probabilities_that_are_not_refused(probs):
    plays = legal_plays(START.position, (3, 1))
    answers = {trust.result_key(p): (GOOD, 0.0) for p in plays}
    answers[trust.result_key(plays[0])] = (probs, 0.0)
    with pytest.raises(EngineError, match="4HPwATDgc/ABMA"):
        FakeEngine(answers).evaluate_plays(START, (3, 1), plays)


def test_an_equity_that_is_not_a_number_is_refused():
    plays = legal_plays(START.position, (3, 1))
    answers = {trust.result_key(p): (GOOD, 0.0) for p in plays}
    answers[trust.result_key(plays[0])] = (GOOD, math.inf)
    with pytest.raises(EngineError, match="not a number"):
        FakeEngine(answers).evaluate_plays(START, (3, 1), plays)


def test_a_missing_answer_is_refused():
    plays = legal_plays(START.position, (3, 1))
    answers = {trust.result_key(p): (GOOD, 0.0) for p in plays[1:]}
    with pytest.raises(EngineError, match="no evaluation of the play"):
        FakeEngine(answers).evaluate_plays(START, (3, 1), plays)


def test_a_play_the_engine_lists_and_bgcli_does_not_is_refused():
    plays = legal_plays(START.position, (3, 1))
    answers = {trust.result_key(p): (GOOD, 0.0) for p in plays}
    illegal = Position.start().id()  # "no move" is not a legal play of 31 at the start
    with pytest.raises(EngineError, match="calls illegal"):
        FakeEngine(answers, [trust.result_key(p) for p in plays] + [illegal]).evaluate_plays(START, (3, 1), plays)
    with pytest.raises(EngineError, match="not 1 legal play"):
        FakeEngine(answers, [trust.result_key(p) for p in plays[1:]]).evaluate_plays(START, (3, 1), plays)


def test_cube_actions():
    # the engine gives the equities; the cube module names the action in gnubg's words
    assert proper_action(0.3, 0.2, 1.0) is CubeAction.NO_DOUBLE_TAKE
    assert proper_action(0.5, 0.7, 1.0) is CubeAction.DOUBLE_TAKE
    assert proper_action(0.5, 1.4, 1.0) is CubeAction.DOUBLE_PASS
    assert proper_action(1.2, 1.6, 1.0) is CubeAction.TOO_GOOD_PASS


# --- open_engine -------------------------------------------------------------------------------------------

def test_engine_names_and_levels():
    assert ENGINE_NAMES[0] == "sage" and {"sage", "gnubg", "exact"} <= set(ENGINE_NAMES)
    assert level_of(3) == Level(3) and Level(2).xg_name() == "3-ply"
    for bad in (-1, True, "2"):
        with pytest.raises(ValueError):
            level_of(bad)
    with pytest.raises(ValueError, match="unknown engine 'nope'"):
        open_engine("nope")


def test_a_missing_bgsage_names_what_to_install(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_bgsage(name, *args, **kwargs):
        if name.split(".")[0] in ("bgsage", "bgbot_cpp"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    from bgcli.errors import Extra, install_command

    monkeypatch.setattr(builtins, "__import__", no_bgsage)
    with pytest.raises(EngineUnavailableError) as missing:
        open_engine("sage")
    assert str(missing.value) == f"the sage engine needs bgsage: {install_command(Extra.ENGINE)}"


# --- sage ----------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sage():
    if not HAVE_SAGE:
        pytest.skip("bgsage is not installed (pip install '.[engine]')")
    engine = open_engine("sage", 1)
    yield engine
    engine.close()


@needs_sage
def test_sage_ranks_the_opening_31(sage):
    plays = legal_plays(START.position, (3, 1))
    ranked = sage.evaluate_plays(START, (3, 1), plays)
    assert play_text(ranked[0].play) == "8/5 6/5"
    assert len(ranked) == len(plays) and ranked[0].evaluation.equity > ranked[-1].evaluation.equity
    assert ranked[0].evaluation.mwc is None  # money play


@needs_sage
def test_sage_sees_the_opponent_on_the_bar(sage):
    # the opponent has a checker on the bar: the board bgsage reads has it at index 0, as a positive count
    game = parse_position("XGID=aa----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10")
    plays = legal_plays(game.position, (3, 1))
    ranked = sage.evaluate_plays(game, (3, 1), plays)
    assert len(ranked) == len(plays)
    closed = sage.evaluate(game)
    assert closed.probabilities.win > sage.evaluate(START).probabilities.win


@needs_sage
def test_sage_with_no_legal_play(sage):
    # the player on roll is on the bar against a closed board
    numbers = [0, 5, 0, 0, 0, 0, 6] + [0] * 6 + [-3] + [0] * 5 + [-2] * 6 + [4]
    game = GameState(Position.from_board26(numbers))
    assert legal_plays(game.position, (6, 6)) == []
    assert sage.evaluate_plays(game, (6, 6), []) == []


@needs_sage
def test_sage_refuses_a_list_that_is_not_the_legal_plays(sage):
    plays = legal_plays(START.position, (3, 1))
    with pytest.raises(EngineError, match="1 play.s. bgcli calls illegal"):
        sage.evaluate_plays(START, (3, 1), plays[1:])


@needs_sage
def test_sage_deepens_forced_plays(sage):
    plays = legal_plays(START.position, (6, 5))
    worst = min(sage.evaluate_plays(START, (6, 5), plays), key=lambda p: p.evaluation.equity).play
    forced = {p.play: p.evaluation.equity for p in sage.evaluate_plays(START, (6, 5), plays, force=[worst])}
    assert forced[worst] < max(forced.values())


@needs_sage
def test_sage_cube_decision_and_match_equity(sage):
    # money: a big lead in a race is a double and a pass
    race = GameState(Position.from_board26([0, 2, 2, 2, 2, 2, 2] + [0] * 12 + [-3, -3, -3, -3, -3, 0, 0]))
    decision = sage.cube_decision(race)
    action = proper_action(decision.no_double, decision.double_take, decision.double_pass)
    assert action in (CubeAction.DOUBLE_PASS, CubeAction.TOO_GOOD_PASS)
    assert decision.double_pass == pytest.approx(1.0)
    # a 5-point match at 0-0: the answers carry match winning chances that agree with the normalised equity
    game = GameState(Position.start(), MatchState(rules=Rules(match_length=5)))
    found = sage.evaluate(game)
    assert 0.5 < found.mwc < 0.6 and found.equity > 0
    cube = sage.cube_decision(game)
    assert cube.double_pass_mwc == pytest.approx(_met(4, 5), abs=1e-6)


def _met(away, opponent_away):
    from bgcli.engines import met

    return met.mwc_at(away, opponent_away)


@needs_sage
def test_met_emg_round_trip_and_the_crawford_game():
    from bgcli.engines import met

    side = met.MatchSide(5, 3, 1, False)
    for value in (-1.0, -0.3, 0.0, 0.4, 1.0):
        assert met.emg(met.mwc(value, side), side) == pytest.approx(value)
    assert met.mwc(1.0, side) == pytest.approx(met.mwc_at(4, 3))
    assert met.mwc_at(3, 3) == pytest.approx(0.5)
    # 1-away 2-away: the Crawford game is worth more to the leader than a post-Crawford game
    assert met.mwc_at(1, 2, crawford_played=False) > met.mwc_at(1, 2, crawford_played=True) > 0.5
    assert met.mwc_at(0, 4) == 1.0 and met.mwc_at(4, 0) == 0.0
    # the normalised equity matches bgsage's own conversion
    import bgbot_cpp

    assert met.mwc(0.25, side) == pytest.approx(bgbot_cpp.eq2mwc(0.25, 5, 3, 1, False), abs=1e-6)


def test_evaluation_dataclass_is_frozen():
    e = Evaluation(Probabilities(*GOOD), 0.1)
    with pytest.raises(AttributeError):
        e.equity = 0.2  # type: ignore[misc]


def test_sage_nests_its_outputs_but_leaves_impossible_numbers_to_the_checks():
    from bgcli.engines.sage import nested

    # a lost backgammon a hair above a lost gammon (measured on a real position): put back under it
    assert nested([0.0543, 0.0, 0.0, 0.0, 0.00074]) == [0.0543, 0.0, 0.0, 0.0, 0.0]
    assert nested([0.6, 0.7, 0.1, 0.2, 0.0]) == [0.6, 0.6, 0.1, 0.2, 0.0]
    assert nested([1.3, 0.1, 0.0, 0.0, 0.0]) == [1.3, 0.1, 0.0, 0.0, 0.0]  # refused later by trust


@needs_sage
def test_a_match_winning_chance_rounded_past_zero_is_put_back():
    from bgcli.engines import met

    side = met.MatchSide(3, 1, 1, False)
    win, lose = met.win_lose(side)
    assert lose == 0.0 and met.mwc(-1.0 - 1e-8, side) == 0.0
    assert met.mwc(-3.0, side) < 0.0  # an impossible equity keeps its impossible chance


@needs_sage
def test_a_sage_call_that_ran_past_the_time_limit_is_an_error(monkeypatch):
    import bgcli.engines.sage as sage_module

    class SlowClock:   # every reading of the clock is a second later: each call "takes" one second
        now = 0.0

        @classmethod
        def monotonic(cls):
            cls.now += 1.0
            return cls.now

    engine = open_engine("sage", 0, timeout=0.5)
    monkeypatch.setattr(sage_module, "time", SlowClock)
    with pytest.raises(EngineError, match=r"sage took 1\.0 s on .*past the time limit of 0\.5 s"):
        engine.evaluate(START)
    engine.timeout = 5.0
    assert engine.evaluate(START).equity is not None


@needs_sage
def test_sage_answers_a_rolls_luck_in_one_call_with_the_figures_roll_by_roll():
    """The luck engine's best play of each of the 21 rolls, in one call, is exactly what asking roll by roll
    gives (a cube owned by the opponent, a bear-off, the opening, two checkers on the bar: dances)."""
    from bgcli.core.ids import parse_gnubg_id
    from bgcli.engines import open_engine
    from bgcli.judging.rating import ROLLS, _Judge

    luck, judge = open_engine("sage", 0), open_engine("sage", 2)

    for text in ("5nrABwAzzgkARw:EoHyAEAAKAAE", "bbcFAAzfxwYAAA:UglnAAAACAAE", "4HPwATDgc/ABMA",
                 "5nrABwAzzgEIYw:EoHlAEAAKAAE"):
        state = parse_gnubg_id(text)
        batched = _Judge(judge, luck).best_after_rolls(state, ROLLS)
        assert batched == _Judge(judge, RollByRoll(luck)).best_after_rolls(state, ROLLS)  # type: ignore[arg-type]
    assert judge.best_plays(parse_gnubg_id("4HPwATDgc/ABMA"), ROLLS) == [None] * 21  # deeper: roll by roll


def test_plays_are_ranked_by_level_then_equity_as_gnubgs_hint_lists_them():
    # gnubg 1.07's 3-ply hint of M24bMAC2bZgAAw:cAkOAAAAAAAA 43 (a held-out check): its 3-ply plays, then
    # its 2-ply ones, then 10/3, which its filter left at 0-ply at -0.394, above the 2-ply -0.450
    state = parse_position("M24bMAC2bZgAAw:cAkOAAAAAAAA")
    plays = legal_plays(state.position, (4, 3))
    by_text = {play_text(p): p for p in plays}
    figures = {"12/8 4/1": (-0.170, 3), "12/5": (-0.185, 3), "10/7 10/6": (-0.450, 2), "10/3": (-0.394, 0)}
    chosen = [by_text[text] for text in figures]
    found = {trust.result_key(p): Evaluation(Probabilities(0.4, 0.1, 0.0, 0.1, 0.0), figures[play_text(p)][0])
             for p in chosen}
    plies = {trust.result_key(p): figures[play_text(p)][1] for p in chosen}
    ranked = trust.ranked(found, chosen, "gnubg", state, (4, 3), plies)
    assert [play_text(r.play) for r in ranked] == ["12/8 4/1", "12/5", "10/7 10/6", "10/3"]


# --- sage's move filter and what its levels mean (issue 27) ---------------------------------------------------

@given(st.dictionaries(st.text("abcdefgh", min_size=1, max_size=3), st.floats(-3, 3, allow_nan=False), min_size=1),
       st.integers(1, 10), st.floats(0, 0.5))
def test_the_move_filter_keeps_the_best_and_every_better_play_than_one_it_drops(raw, moves, threshold):
    kept = candidates(raw, moves, threshold)
    best = max(raw.values())
    assert kept and raw[kept[0]] == best                       # the raw network's best is always looked at deeper
    assert len(kept) <= moves and len(set(kept)) == len(kept)
    assert all(best - raw[k] <= threshold for k in kept)        # nothing beyond the margin
    assert [raw[k] for k in kept] == sorted((raw[k] for k in kept), reverse=True)
    for dropped in set(raw) - set(kept):                        # a play within the margin is dropped only when
        if best - raw[dropped] <= threshold:                    # the count is full of plays at least as good
            assert len(kept) == moves and all(raw[k] >= raw[dropped] for k in kept)


def test_the_move_filter_reads_the_modules_settings_at_each_call(monkeypatch):
    from bgcli.engines import sage as module

    raw = {"a": 0.30, "b": 0.25, "c": 0.20, "d": 0.10}
    monkeypatch.setattr(module, "FILTER_MOVES", 2)
    assert module.candidates(raw) == ["a", "b"]
    monkeypatch.setattr(module, "FILTER_MOVES", 8)
    monkeypatch.setattr(module, "FILTER_THRESHOLD", 0.16)
    assert module.candidates(raw) == ["a", "b", "c"]


@needs_sage
def test_sage_deepens_its_filters_candidates_and_its_best_is_always_a_full_depth_value(sage):
    state = parse_gnubg_id("4HPwATDgc/ABMA:cAkSAAAAAAAE")   # a contact position with many plays
    for dice in ((4, 4), (6, 1), (3, 2)):
        plays = legal_plays(state.position, dice)
        raw = {trust.result_key(r.play): r.evaluation.equity
               for r in open_engine("sage", 0).evaluate_plays(state, dice, plays)}
        ranked = sage.evaluate_plays(state, dice, plays)
        deep = {trust.result_key(r.play) for r in ranked if r.ply == 1}
        assert set(candidates(raw)) <= deep
        assert ranked[0].ply == 1


@needs_sage
def test_sages_level_1_is_gnubgs_1_ply_the_opponents_21_rolls_each_answered_by_its_raw_networks_best(sage):
    # gnubg's n-ply value of a position after a play: the mean over the opponent's 21 rolls of the (n-1)-ply value
    # after the reply its 0-ply (cubeless) finds best. Sage's levels are XG's numbering; bgcli's level 1 must be this.
    raw = open_engine("sage", 0)
    state = parse_gnubg_id("4HPwATDgc/ABMA:cAkSAAAAAAAE")
    plays = legal_plays(state.position, (3, 1))
    play = plays[-1]
    found = next(r for r in sage.evaluate_plays(state, (3, 1), plays, force=[play]) if r.play == play)
    assert found.ply == 1
    reply_state = GameState(play.result.swap())
    mean = [0.0] * 5
    for first in range(1, 7):
        for second in range(1, first + 1):
            replies = raw.evaluate_plays(reply_state, (first, second), legal_plays(reply_state.position, (first, second)))
            best = max(replies, key=lambda r: r.evaluation.probabilities.money_equity((1, 2, 3)))
            seen = best.evaluation.probabilities.flipped()
            weight = (1 if first == second else 2) / 36
            for i, value in enumerate((seen.win, seen.win_gammon, seen.win_backgammon, seen.lose_gammon,
                                       seen.lose_backgammon)):
                mean[i] += weight * value
    mine = found.evaluation.probabilities
    assert [mine.win, mine.win_gammon, mine.win_backgammon, mine.lose_gammon, mine.lose_backgammon] == \
        pytest.approx(mean, abs=2e-4)


# --- the rules without a cube: every engine's figures are cubeless ------------------------------------------

_PROBS = st.tuples(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1)).map(
    lambda t: (t[0], t[0] * t[1], t[0] * t[1] * t[2], (1 - t[0]) * t[3], (1 - t[0]) * t[3] * t[4]))


@given(probs=_PROBS, counts=st.integers(1, 3), length=st.sampled_from([0, 3, 7]), score=st.integers(0, 2),
       equity=st.floats(-1, 1))
def test_under_cubeless_rules_an_evaluation_is_worth_its_cubeless_equity(probs, counts, length, score, equity):
    """Where the rules have no cube (a cubeless site, the traditional Korean game), an engine's cubeful
    equity is of another game: trust.evaluation, which every engine's answer passes, gives the cubeless
    equity of the probabilities, a backgammon counting as the rules say; with a cube, the engine's own."""
    from bgcli.core.value import cubeless_worth
    from bgcli.engines import met

    for cubeless in (True, False):
        rules = Rules(cubeless=cubeless, backgammon_counts=counts, match_length=length)
        state = GameState(START.position, MatchState(score=(score, 0) if length else (0, 0), on_roll=0, turn=0,
                                                     rules=rules))
        side = met.MatchSide.of(state)
        mwc = None if side.is_money else met.mwc(equity, side)
        found = trust.evaluation(probs, equity, mwc, "test", state)
        p = Probabilities(*probs)
        if not cubeless:
            assert (found.equity, found.mwc) == (equity, mwc)
        elif side.is_money:
            assert found.equity == pytest.approx(p.money_equity(cubeless_worth(rules))) and found.mwc is None
        else:
            assert found.mwc == pytest.approx(met.cubeless_mwc(p, side, cubeless_worth(rules)))
            assert found.equity == pytest.approx(met.emg(found.mwc, side))


@needs_sage
def test_sage_ranks_the_plays_of_a_cubeless_game_by_their_cubeless_equity(sage):
    from bgcli.core.value import cubeless_worth

    rules = Rules(cubeless=True)
    state = GameState(START.position, MatchState(on_roll=0, turn=0, rules=rules))
    ranked = sage.evaluate_plays(state, (6, 4), legal_plays(state.position, (6, 4)))
    worth = cubeless_worth(rules)
    for found in ranked:
        assert found.evaluation.equity == pytest.approx(found.evaluation.probabilities.money_equity(worth))
    # the luck's best play of each roll (level 0, every roll in one call) is chosen by the same equity
    raw = open_engine("sage", 0)
    try:
        rolls = [(6, 4), (2, 1), (5, 5)]
        for roll, (key, evaluation) in zip(rolls, raw.best_plays(state, rolls)):
            top = raw.evaluate_plays(state, roll, legal_plays(state.position, roll))[0]
            assert key == top.play.result.id() and evaluation.equity == pytest.approx(top.evaluation.equity)
    finally:
        raw.close()
