"""sage's own rollout behind ``bgcli rollout`` (bgcli.engines.sage_rollout, Method.SAGE in
bgcli.judging.rollout): the same seed the same figures to the last digit, whatever the split into
blocks of rounds or sage's threads; its intervals agree with bgcli's own loop over the same engine
and hold the exact values of bear-offs; where it cannot play the settings, bgcli's loop does and
says why."""
from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from bgcli.analysis import bearoff2
from bgcli.core.generator import legal_plays
from bgcli.core.ids import parse_gnubg_id
from bgcli.core.position import Position
from bgcli.core.state import GameState, MatchState
from bgcli.errors import BgcliError
from bgcli.judging import rollout as ro
from bgcli.judging.rollout import LineKind, Method, RolloutSettings, rollout

AFTER_31 = "4HPwATDgc/ABMA:cAkAAAAAAAAA"   # the opening 31 played 8/5 6/5, the opponent on roll


def _figure(values):
    n = len(values)
    mean = math.fsum(values) / n
    spread = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(spread / n)


@given(st.lists(st.floats(-3, 3, allow_nan=False), min_size=2, max_size=80), st.integers(1, 40))
@hsettings(max_examples=200, deadline=None)
def test_rounds_combined_give_the_figure_of_all_their_trials(values, size):
    from bgcli.engines.sage_rollout import moments

    # each round as sage reports it: its mean and its standard error with n (not n - 1)
    rounds = []
    for first in range(0, len(values), size):
        part = values[first:first + size]
        mean = math.fsum(part) / len(part)
        rounds.append(moments(len(part), mean, math.sqrt(math.fsum((v - mean) ** 2 for v in part)) / len(part)))
    found = ro.combine(rounds)
    mean, se = _figure(values)
    assert found.mean == pytest.approx(mean, abs=1e-9)
    assert found.se == pytest.approx(se, abs=1e-9)


def test_round_seeds_depend_only_on_the_seed_and_the_round():
    from bgcli.engines.sage_rollout import round_seed

    assert round_seed(3, 0) == round_seed(3, 0)
    assert len({round_seed(s, r) for s in range(5) for r in range(5)}) == 25
    assert all(0 <= round_seed(s, 7) < 2 ** 32 for s in range(20))


# --- with sage -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sage():
    pytest.importorskip("bgsage")
    from bgcli.engines import open_engine

    engine = open_engine("sage", 0)
    yield engine
    engine.close()


def _state():
    return parse_gnubg_id(AFTER_31)


def test_the_default_engine_rolls_out_with_sages_own_rollout(sage):
    found = rollout(_state(), sage, (3, 1), candidates=2, own=True,
                    settings=RolloutSettings(trials=40, seed=2, truncate=2))
    assert found.method == "sage" and found.method_note == "" and found.trials == 40
    assert [line.kind for line in found.lines] == [LineKind.PLAY, LineKind.PLAY]
    assert found.lines[0].equity.mean >= found.lines[1].equity.mean
    assert all(line.equity.se > 0 for line in found.lines)
    # without ``own`` (library callers), bgcli's loop as before
    assert rollout(_state(), sage, (3, 1), candidates=1, settings=RolloutSettings(trials=2, truncate=1)).method == "bgcli"


def test_the_same_seed_gives_the_same_figures_and_another_seed_others(sage):
    settings = RolloutSettings(trials=36, seed=5, truncate=3)
    a = rollout(_state(), sage, None, settings=settings, own=True).to_dict()
    b = rollout(_state(), sage, None, settings=settings, own=True).to_dict()
    assert a == b and a["method"] == "sage"
    c = rollout(_state(), sage, None, settings=replace(settings, seed=6), own=True).to_dict()
    assert c["lines"] != a["lines"]


def test_any_split_into_whole_rounds_and_any_thread_count_give_the_same_figures(sage):
    from bgcli.engines import sage_rollout

    state = _state()
    plan = ro.Plan((ro.Start(ro._on_roll(state), cube_free=True), ro.Start(ro._doubled(ro._on_roll(state), 2))),
                   state.match.on_roll, ro.met.MatchSide.of(state), RolloutSettings(trials=80, seed=4, truncate=2),
                   "sage", 0, method=Method.SAGE, threads=1)
    whole = ro.run_rounds(plan, 0, 80)
    assert [r[0][0].count for r in whole] == [36, 36, 8]
    parts = ro.run_rounds(plan, 0, 36) + ro.run_rounds(plan, 36, 72) + ro.run_rounds(plan, 72, 80)
    assert parts == whole
    two = ro.run_rounds(replace(plan, threads=2), 0, 80)
    assert two == whole
    assert sage_rollout.sage_rollout(1) is not sage_rollout.sage_rollout(2)
    for line in (0, 1):
        figures = [ro.combine([r[line][k] for r in whole]) for k in range(6)]
        assert figures == [ro.combine([r[line][k] for r in parts]) for k in range(6)]
    with pytest.raises(BgcliError, match="whole rounds"):
        ro.run_rounds(plan, 10, 36)


def _agree(a, b, sigmas=3.0):
    gap = abs(a.mean - b.mean)
    assert gap <= sigmas * math.hypot(a.se, b.se) + 1e-9, (a, b)


@pytest.mark.parametrize("cubeful", [True, False])
def test_sages_rollout_agrees_with_bgclis_loop_within_their_standard_errors(sage, cubeful):
    settings = RolloutSettings(trials=72, seed=3, truncate=4, cubeful=cubeful)
    state = _state()
    plays = [p for p in legal_plays(state.position, (6, 4)) if str(p) in ("24/14", "24/18 13/9")]
    assert len(plays) == 2
    for dice, named in ((None, []), ((6, 4), plays)):
        own = rollout(state, sage, dice, plays=named, settings=settings, own=True)
        loop = rollout(state, sage, dice, plays=named, settings=settings)
        assert (own.method, loop.method) == ("sage", "bgcli")
        mine = {(line.kind, line.play and line.play.result.id()): line for line in own.lines}
        for line in loop.lines:
            other = mine[(line.kind, line.play and line.play.result.id())]
            _agree(other.equity, line.equity)
            _agree(other.probabilities.get("win", line.equity), line.probabilities.get("win", line.equity))


@pytest.mark.parametrize("mine, theirs", [((0, 1, 0, 1, 1, 0), (1, 0, 0, 0, 2, 0)),
                                          ((0, 0, 0, 0, 2, 1), (0, 1, 1, 1, 0, 0))])
@pytest.mark.parametrize("vr", [True, False])
def test_the_interval_of_sages_rollout_holds_the_exact_value_of_a_bear_off(sage, mine, theirs, vr):
    table = bearoff2.build(3)
    exact = table.equity(mine, theirs)
    state = GameState(Position.from_sides(list(mine) + [0] * 19, list(theirs) + [0] * 19))
    found = rollout(state, sage, None, own=True,
                    settings=RolloutSettings(trials=360, seed=1, cubeful=False, variance_reduction=vr))
    assert found.method == "sage"
    line = found.lines[0]
    low, high = line.equity.interval
    assert low <= exact <= high, (exact, line.equity)


@pytest.mark.parametrize("change, words", [
    (dict(level=1), "0-ply"),
    (dict(match=True, rules=dict(crawford=False)), "Crawford rule"),
    (dict(rules=dict(backgammon_counts=2)), "gammons"),
    (dict(rules=dict(cube_limit=8)), "cube limit"),
])
def test_where_sage_cannot_play_the_settings_bgclis_loop_does_and_says_why(sage, change, words):
    state = _state()
    engine = sage
    if change.get("level"):
        from bgcli.engines import open_engine

        engine = open_engine("sage", 1)
    if change.get("match"):
        state = replace(state, match=replace(state.match, rules=replace(state.match.rules, match_length=5)))
    if change.get("rules"):
        state = replace(state, match=replace(state.match, rules=replace(state.match.rules, **change["rules"])))
    method, note = ro.own_method(state, engine)
    assert method is Method.BGCLI and words in note and note.endswith("bgcli's loop")
    found = rollout(state, engine, (3, 1), candidates=1, own=True, settings=RolloutSettings(trials=1, truncate=1))
    assert found.method == "bgcli" and found.to_dict()["method_note"] == note


def test_other_engines_keep_bgclis_loop_without_a_note():
    from tests.fake_engine import FakeEngine

    state = GameState(Position.from_sides([2, 2, 3, 2, 2, 2] + [0] * 19, [3, 2, 2, 2, 2, 2] + [0] * 19),
                      MatchState())
    found = rollout(state, FakeEngine(0), (6, 5), candidates=1, own=True, settings=RolloutSettings(trials=3))
    assert found.method == "bgcli" and "method_note" not in found.to_dict()


def test_the_loops_luck_lists_the_legal_plays_of_the_roll_played_alone_with_the_same_figures(sage):
    state = ro._on_roll(_state())
    plan = ro.Plan((ro.Start(state),), state.match.on_roll, ro.met.MatchSide.of(state), RolloutSettings(trials=1))
    trial = ro._Trial(plan, sage)
    every = trial.roll_values(state)
    for played in ((6, 6), (3, 1)):
        found = trial.roll_values(state, played)
        assert [found[r][1] for r in ro.ROLLS] == [every[r][1] for r in ro.ROLLS]
        assert found[played][0] is not None and found[played][0].result.id() == every[played][0].result.id()
        assert all(found[r][0] is None for r in ro.ROLLS if r != played)


def test_sages_luck_is_taken_at_every_half_move_at_the_settings_bgcli_asks(sage):
    # sage skips the luck of every other half-move from its "ultra-late" threshold on at deeper levels
    # (docs/commands/rollout.md and sage_rollout's notes say it does not at bgcli's settings): the same
    # round with that threshold off gives the same figures to the digit
    import bgbot_cpp

    from bgcli.engines.sage import board
    from bgcli.engines.sage_rollout import RoundSettings, sage_rollout

    roller = sage_rollout(1)
    how = RoundSettings(truncate=8)
    ours = roller._strategy(36, how)
    w = roller._weights
    every = bgbot_cpp.create_rollout(w.strategy_type, w.weight_paths_list, w.hidden_sizes_list, n_trials=36,
                                     truncation_depth=8, decision_ply=1, n_threads=1, seed=0, enable_vr=True,
                                     cubeful_trial_moves=True, ultra_late_threshold=9999, cubeful_late_threshold=2)
    bgbot_cpp.rollout_set_bearoff_db(every, roller._database)
    state = _state()
    flags = roller._flags(state)
    found = []
    for strategy in (ours, every):
        strategy.set_seed(123)
        found.append(strategy.cube_decision(board(state.position), **flags))
    for key in ("equity_nd", "equity_nd_se", "equity_dt", "equity_dt_se", "probs"):
        assert found[0][key] == found[1][key], key
    # the threshold is not ignored: carrying the cubeful choice of plays (sage's default up to it) to
    # every half-move changes the figures
    thinned = bgbot_cpp.create_rollout(w.strategy_type, w.weight_paths_list, w.hidden_sizes_list, n_trials=36,
                                       truncation_depth=8, decision_ply=1, n_threads=1, seed=0, enable_vr=True,
                                       cubeful_trial_moves=True, ultra_late_threshold=9999, cubeful_late_threshold=0)
    bgbot_cpp.rollout_set_bearoff_db(thinned, roller._database)
    thinned.set_seed(123)
    assert thinned.cube_decision(board(state.position), **flags)["equity_nd"] != found[0]["equity_nd"]


def _at_score(state, score, crawford=False, length=5):
    rules = replace(state.match.rules, match_length=length, jacoby=False)
    return replace(state, match=replace(state.match, rules=rules, score=score, crawford=crawford))


@pytest.mark.parametrize("score, crawford", [((2, 0), False), ((0, 3), False), ((4, 0), False), ((4, 0), True)])
def test_sages_rollout_of_match_play_agrees_with_bgclis_loop_within_their_standard_errors(sage, score, crawford):
    # sage's figures of a match (its normalised equity, turned into the match winning chance of the
    # player on roll) are those of bgcli's loop over the same engine, for a play and a cube decision,
    # at scores where the player on roll (player 1) trails, leads, and the opponent is 1-away after the
    # Crawford game and in it (no cube decision there: both refuse it alike)
    state = _at_score(_state(), score, crawford)
    assert ro.own_method(state, sage) == (Method.SAGE, "")
    settings = RolloutSettings(trials=72, seed=5, truncate=4)
    plays = [p for p in legal_plays(state.position, (6, 4)) if str(p) in ("24/14", "8/2 6/2")]
    assert len(plays) == 2
    for dice, named in ((None, []), ((6, 4), plays)):
        own = rollout(state, sage, dice, plays=named, settings=settings, own=True)
        loop = rollout(state, sage, dice, plays=named, settings=settings)
        if dice is None and crawford:
            assert own.refusal and own.refusal == loop.refusal
            continue
        assert (own.method, loop.method) == ("sage", "bgcli")
        mine = {(line.kind, line.play and line.play.result.id()): line for line in own.lines}
        for line in loop.lines:
            other = mine[(line.kind, line.play and line.play.result.id())]
            assert other.mwc is not None and line.mwc is not None
            _agree(other.equity, line.equity)
            _agree(other.mwc, line.mwc)


def test_match_play_sage_cannot_play_goes_to_bgclis_loop_with_why(sage):
    state = _at_score(_state(), (2, 0))
    assert ro.own_method(state, sage, RolloutSettings(cubeful=False))[1].startswith(
        "sage's own rollout of match play is cubeful only")
    no_crawford = replace(state, match=replace(state.match, rules=replace(state.match.rules, crawford=False)))
    assert "Crawford" in ro.own_method(no_crawford, sage)[1]
    assert "25-away" in ro.own_method(_at_score(_state(), (0, 0), length=31), sage)[1]
    assert ro.own_method(_at_score(_state(), (0, 0), length=25), sage)[0] is Method.SAGE


@pytest.mark.parametrize("score, cube", [((0, 2), 1), ((3, 2), 2)])
def test_sages_full_rollout_of_a_match_race_agrees_with_bgclis_loop(sage, score, cube):
    # played to the end, so the games' last figures (the match winning chance after a single, a
    # gammon, a cube turned or passed) are the match's, at a cube of 1 and one of 2 the player owns
    state = _at_score(GameState(Position.from_sides([0, 2, 2, 1, 1, 1] + [0] * 19, [1, 1, 2, 2, 1, 1] + [0] * 19),
                                MatchState()), score)
    state = replace(state, match=replace(state.match, cube=cube,
                                         cube_owner=-1 if cube == 1 else state.match.on_roll))
    settings = RolloutSettings(trials=216, seed=3)
    own = rollout(state, sage, None, settings=settings, own=True)
    loop = rollout(state, sage, None, settings=settings)
    assert (own.method, loop.method) == ("sage", "bgcli")
    for mine, theirs in zip(own.lines[:2], loop.lines[:2]):
        assert mine.kind == theirs.kind
        _agree(mine.mwc, theirs.mwc)
        _agree(mine.equity, theirs.equity)
