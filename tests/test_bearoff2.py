"""The two-sided bear-off table (bgcli.analysis.bearoff2) against an exhaustive search over full
positions with bgcli's own move generator, on every pair of small bear-offs; its file round trip."""
from __future__ import annotations

from functools import lru_cache

import pytest

from bgcli.analysis import bearoff2
from bgcli.core.generator import legal_plays
from bgcli.core.position import OFF, Position

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def position(on_roll, opponent) -> Position:
    return Position.from_sides([*on_roll, *[0] * 19], [*opponent, *[0] * 19])


@lru_cache(maxsize=None)
def brute(pos: Position) -> float:
    """The chance the player on roll bears off first, every play of every roll tried (bgcli's generator)."""
    total = 0.0
    for roll in ROLLS:
        best = 0.0
        for play in legal_plays(pos, roll):
            after = play.result
            value = 1.0 if after.player[OFF] == 15 else 1.0 - brute(after.swap())
            best = max(best, value)
        total += (1 if roll[0] == roll[1] else 2) * best
    return total / 36.0


@pytest.fixture(scope="module")
def small():
    return bearoff2.build(3)


def test_every_pair_of_up_to_two_checkers_and_a_sample_of_three_is_the_exhaustive_search(small):
    keys = [k for k in small.keys if k]
    counts = [tuple((k >> (4 * p)) & 15 for p in range(6)) for k in keys]
    two = [c for c in counts if sum(c) <= 2]
    pairs = [(a, b) for a in two for b in two] + [(a, b) for a in counts[::7] for b in counts[::11]]
    assert len(pairs) > 700
    for a, b in pairs:
        assert small.win(a, b) == pytest.approx(brute(position(a, b)), abs=1e-12), (a, b)


def test_a_value_worked_by_hand(small):
    # two checkers on the 6-point against one on the 1-point: only 33, 44, 55 and 66 bear both off
    assert small.win((0, 0, 0, 0, 0, 2), (1, 0, 0, 0, 0, 0)) == pytest.approx(4 / 36)
    assert small.equity((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1)) == 1.0


def test_the_file_round_trip_and_a_damaged_file(small):
    again = bearoff2.loads(bearoff2.dumps(small))
    assert again.checkers == 3 and list(again.values) == list(small.values)
    data = bytearray(bearoff2.dumps(small))
    data[-3] ^= 1
    with pytest.raises(ValueError, match="digest"):
        bearoff2.loads(bytes(data))
    with pytest.raises(ValueError):
        bearoff2.loads(b"not a table")


def test_positions_outside_the_table_are_refused(small):
    assert not small.covers((4, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))
    with pytest.raises(ValueError, match="1 to 3 checkers"):
        small.win((4, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))


def test_gnubgs_two_sided_database_agrees_on_200_pairs_of_up_to_six_checkers():
    """GNU Backgammon's own chances (tests/data/analysis/bearoff2.jsonl, made by make_bearoff2.py in this
    folder: its two-sided database keeps them in 16 bits, so they agree to 1e-4)."""
    import json
    from pathlib import Path

    table = bearoff2.table()
    lines = (Path(__file__).parent / "data" / "analysis" / "bearoff2.jsonl").read_text().splitlines()
    assert len(lines) == 200
    for line in lines:
        item = json.loads(line)
        assert position(item["on_roll"], item["opponent"]).id() == item["position_id"]
        assert table.win(item["on_roll"], item["opponent"]) == pytest.approx(item["win"], abs=1e-4)


# --- cubeful: money and match ----------------------------------------------------------------------------

Owner = bearoff2.Owner


@lru_cache(maxsize=None)
def brute_money(pos: Position, owner: Owner) -> float:
    """The cubeful money equity of the player on roll per unit of the cube, every play of every roll tried
    (bgcli's generator) and every cube action: a double the opponent takes gives them the cube at twice the value."""
    nd = brute_money_no_double(pos, owner)
    if owner is Owner.OPPONENT:
        return nd
    return max(nd, min(2.0 * brute_money_no_double(pos, Owner.OPPONENT), 1.0))


def brute_money_no_double(pos: Position, owner: Owner) -> float:
    other = {Owner.CENTRED: Owner.CENTRED, Owner.ON_ROLL: Owner.OPPONENT, Owner.OPPONENT: Owner.ON_ROLL}[owner]
    total = 0.0
    for roll in ROLLS:
        best = max(1.0 if p.result.player[OFF] == 15 else -brute_money(p.result.swap(), other)
                   for p in legal_plays(pos, roll))
        total += (1 if roll[0] == roll[1] else 2) * best
    return total / 36.0


@pytest.fixture(scope="module")
def small_cubeful():
    return bearoff2.build_cubeful(3)


def _pairs_to_check(table):
    counts = [tuple((k >> (4 * p)) & 15 for p in range(6)) for k in table.keys if k]
    two = [c for c in counts if sum(c) <= 2]
    return [(a, b) for a in two for b in two] + [(a, b) for a in counts[::9] for b in counts[::13]]


def test_cubeful_money_is_the_exhaustive_search_with_every_cube_action(small_cubeful):
    pairs = _pairs_to_check(small_cubeful)
    assert len(pairs) > 600
    for a, b in pairs:
        for owner in Owner:
            assert small_cubeful.equity(a, b, owner) == pytest.approx(brute_money(position(a, b), owner), abs=1e-12)
        nd, dt, dp = small_cubeful.decision(a, b, Owner.CENTRED)
        assert nd == pytest.approx(brute_money_no_double(position(a, b), Owner.CENTRED), abs=1e-12)
        assert dt == pytest.approx(2.0 * brute_money(position(a, b), Owner.OPPONENT), abs=1e-12) and dp == 1.0


def test_cubeful_money_worked_by_hand(small_cubeful):
    # one checker on the 6-point each, the cube centred: the player on roll misses with 21, 31, 41, 32 and 11
    # (9 rolls in 36). Doubled and taken, the opponent owns the cube; after a miss the opponent, on roll with
    # the last roll of the game for both, wins 27 in 36 and redoubles (worth exactly a pass: 27/36 - 9/36
    # = 0.5 of the cube, doubled), so the player loses the doubled cube: 27/36 - 9/36 = 0.5, doubled.
    six = (0, 0, 0, 0, 0, 1)
    nd, dt, dp = small_cubeful.decision(six, six, Owner.CENTRED)
    assert dt == pytest.approx(2 * (27 / 36 - 9 / 36)) and dp == 1.0
    assert nd == pytest.approx(27 / 36 - 9 / 36 * small_cubeful.equity(six, six, Owner.CENTRED))
    assert small_cubeful.equity(six, six, Owner.CENTRED) == 1.0   # double, and the opponent may as well pass
    assert small_cubeful.equity((1, 0, 0, 0, 0, 0), six, Owner.OPPONENT) == 1.0


def test_the_cubeful_file_round_trip_and_a_damaged_file(small_cubeful):
    again = bearoff2.loads_cubeful(bearoff2.dumps_cubeful(small_cubeful))
    assert all(list(again.equities[o]) == list(small_cubeful.equities[o]) for o in Owner)
    data = bytearray(bearoff2.dumps_cubeful(small_cubeful))
    data[-5] ^= 1
    with pytest.raises(ValueError, match="digest"):
        bearoff2.loads_cubeful(bytes(data))
    with pytest.raises(ValueError):
        bearoff2.loads_cubeful(bearoff2.dumps(bearoff2.build(2)))   # the cubeless table is not one


# a match equity table of its own (any consistent payoff will do for the recurrence): the chance of winning
# from (away, opponent away), 1 at 0 away, with no Crawford rule
@lru_cache(maxsize=None)
def toy_met(away: int, opponent_away: int) -> float:
    if away <= 0:
        return 1.0
    if opponent_away <= 0:
        return 0.0
    return 0.5 * toy_met(away - 1, opponent_away) + 0.5 * toy_met(away, opponent_away - 1)


def toy_payoff(away: int, opponent_away: int, points: int) -> float:
    return toy_met(away - points, opponent_away) if points > 0 else toy_met(away, opponent_away + points)


@lru_cache(maxsize=None)
def brute_match(pos: Position, away: int, opponent_away: int, cube: int, owner: Owner, crawford: bool) -> float:
    nd = brute_match_no_double(pos, away, opponent_away, cube, owner, crawford)
    if crawford or owner is Owner.OPPONENT or cube >= away:
        return nd
    take = brute_match_no_double(pos, away, opponent_away, 2 * cube, Owner.OPPONENT, crawford)
    return max(nd, min(take, toy_payoff(away, opponent_away, cube)))


def brute_match_no_double(pos, away, opponent_away, cube, owner, crawford) -> float:
    other = {Owner.CENTRED: Owner.CENTRED, Owner.ON_ROLL: Owner.OPPONENT, Owner.OPPONENT: Owner.ON_ROLL}[owner]
    total = 0.0
    for roll in ROLLS:
        best = max(toy_payoff(away, opponent_away, cube) if p.result.player[OFF] == 15
                   else 1.0 - brute_match(p.result.swap(), opponent_away, away, cube, other, crawford)
                   for p in legal_plays(pos, roll))
        total += (1 if roll[0] == roll[1] else 2) * best
    return total / 36.0


@pytest.mark.parametrize("away, opponent_away, cube, owner, crawford", [
    (3, 5, 1, Owner.CENTRED, False), (2, 4, 2, Owner.ON_ROLL, False), (4, 2, 2, Owner.OPPONENT, False),
    (1, 3, 1, Owner.CENTRED, True), (5, 5, 1, Owner.CENTRED, False), (1, 2, 1, Owner.CENTRED, False)])
def test_cubeful_match_is_the_exhaustive_search(away, opponent_away, cube, owner, crawford):
    table = bearoff2.MatchTable(toy_payoff, crawford, checkers=3)
    counts = [tuple((k >> (4 * p)) & 15 for p in range(6)) for k in table.keys if k]
    pairs = [(a, b) for a in counts[::5] for b in counts[::7]]
    assert len(pairs) > 50
    for a, b in pairs:
        pos = position(a, b)
        assert table.value(a, b, away, opponent_away, cube, owner) == pytest.approx(
            brute_match(pos, away, opponent_away, cube, owner, crawford), abs=1e-12)
        nd, dt, dp = table.decision(a, b, away, opponent_away, cube, owner)
        assert nd == pytest.approx(brute_match_no_double(pos, away, opponent_away, cube, owner, crawford), abs=1e-12)
        assert dp == toy_payoff(away, opponent_away, cube)


def test_money_and_match_agree_where_the_match_is_money_like():
    """A match whose every payoff is money's (equity = points won, mapped to 0..1 linearly over a long
    match far from its end) gives the money table's decisions: the same recurrence, two ways."""
    far = 1000

    def linear(away, opponent_away, points):
        return 0.5 + points / (4.0 * far)

    table = bearoff2.MatchTable(linear, False, checkers=2)
    money = bearoff2.build_cubeful(2)
    for a in [c for c in (tuple((k >> (4 * p)) & 15 for p in range(6)) for k in money.keys) if sum(c)]:
        for b in ((0, 0, 0, 0, 0, 1), (0, 1, 0, 1, 0, 0), (2, 0, 0, 0, 0, 0)):
            for owner in Owner:
                chance = table.value(a, b, far, far, 1, owner)
                assert (chance - 0.5) * 4.0 * far == pytest.approx(money.equity(a, b, owner), abs=1e-9)


def test_gnubgs_money_cube_decisions_in_bear_offs():
    """GNU Backgammon's cubeful equities of bear-offs of up to six checkers (tests/data/analysis/
    bearoff2_cube.jsonl, made by make_bearoff2_cube.py in this folder): in money play its two-sided
    database is exact (16 bits), so every figure agrees to 1e-4 (double/take, twice a stored figure, to 2e-4); the proper action in gnubg's words."""
    import json
    from pathlib import Path

    from bgcli.core.cube import CubeTurn, may_double, proper_action_of
    from bgcli.core.ids import parse_gnubg_id
    from bgcli.engines.exact import table_cube_decision

    lines = (Path(__file__).parent / "data" / "analysis" / "bearoff2_cube.jsonl").read_text().splitlines()
    money = [json.loads(line) for line in lines if json.loads(line)["kind"] == "money"]
    assert len(money) >= 60
    for item in money:
        state = parse_gnubg_id(item["gnubgid"])
        assert state.position == position(item["on_roll"], item["opponent"])
        found = table_cube_decision(state)
        optimal, nd, dt, dp = item["cf"][:4]
        assert found.no_double == pytest.approx(nd, abs=1e-4) and found.double_pass == dp
        assert found.double_take == pytest.approx(dt, abs=2e-4)   # twice a stored value: twice its rounding
        turn = CubeTurn.of(state)
        if may_double(turn) is None:
            assert str(proper_action_of(turn, found.no_double, found.double_take, found.double_pass,
                                        gammons=False)) == item["cf"][5]


def test_gnubgs_match_cube_decisions_in_bear_offs():
    """The same file's match positions: there gnubg's figures are its evaluation, not a table (within 0.03 of
    bgcli's exact ones), and its proper action is bgcli's wherever the player may double; the issue's
    position, where the default engine said "no double", is gnubg's "Redouble, take"."""
    import json
    from pathlib import Path

    from bgcli.core.cube import CubeTurn, may_double, proper_action_of
    from bgcli.core.ids import parse_gnubg_id
    from bgcli.engines.exact import table_cube_decision

    pytest.importorskip("bgbot_cpp")   # the match equity table
    lines = (Path(__file__).parent / "data" / "analysis" / "bearoff2_cube.jsonl").read_text().splitlines()
    items = [json.loads(line) for line in lines if json.loads(line)["kind"] == "match"]
    items.append({"gnubgid": "BAAAKAAAAAAAAA:AQFgAYAAGAAA", "cf": [None, None, None, None, None, "Redouble, take"]})
    asked = 0
    for item in items:
        state = parse_gnubg_id(item["gnubgid"])
        found = table_cube_decision(state)
        if item["cf"][1] is not None:
            assert found.no_double == pytest.approx(item["cf"][1], abs=0.03)
        turn = CubeTurn.of(state)
        if may_double(turn) is None:
            asked += 1
            assert str(proper_action_of(turn, found.no_double, found.double_take, found.double_pass,
                                        gammons=False)) == item["cf"][5], item["gnubgid"]
    assert asked >= 30


def test_the_engines_answer_from_the_tables_inside_them():
    """sage (every level) and exact give the tables' figures for a bear-off inside them: the plays, the
    position and the cube; sage's batch of a roll's best plays (the luck) is the plays' first, roll by roll."""
    from dataclasses import replace

    from bgcli.core.ids import parse_gnubg_id
    from bgcli.engines import exact, open_engine

    pytest.importorskip("bgsage")
    state = parse_gnubg_id("BAAAKAAAAAAAAA:AQFgAYAAGAAA")
    rolled = replace(state, match=replace(state.match, dice=(3, 1)))
    plays = legal_plays(state.position, (3, 1))
    expected = exact.table_plays(rolled, (3, 1), plays, 2)
    for level in (0, 2):
        engine = open_engine("sage", level)
        try:
            assert engine.cube_decision(state) == exact.table_cube_decision(state)
            assert engine.evaluate(state) == exact.table_evaluation(state)
            found = engine.evaluate_plays(rolled, (3, 1), plays)
            assert [(p.play, p.evaluation) for p in found] == [(p.play, p.evaluation) for p in expected]
            if level == 0:
                rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
                batch = engine.best_plays(state, rolls)
                for roll, best in zip(rolls, batch):
                    one = engine.evaluate_plays(replace(state, match=replace(state.match, dice=roll)), roll,
                                                legal_plays(state.position, roll))[0]
                    assert best == (one.play.result.id(), one.evaluation)
        finally:
            engine.close()
    assert open_engine("exact").cube_decision(state) == exact.table_cube_decision(state)


def test_match_figures_are_asked_only_where_they_are_quick_to_work_out():
    """From six checkers on the high points a side a match figure would take minutes: the engines keep
    to pairs of at most MATCH_WORK to work out in match play (money play has its whole table)."""
    from bgcli.core.rules import Rules
    from bgcli.core.state import GameState, MatchState
    from bgcli.engines import exact, open_engine
    from bgcli.errors import EngineError

    pytest.importorskip("bgbot_cpp")   # the match equity table
    big = position((0, 0, 0, 0, 0, 6), (0, 0, 0, 0, 0, 6))
    small = position((1, 0, 1, 0, 0, 0), (0, 2, 0, 0, 0, 0))
    match = MatchState(rules=Rules(match_length=9), score=(2, 4))
    table = bearoff2.MatchTable(toy_payoff, False)
    assert table.work((0, 0, 0, 0, 0, 6), (0, 0, 0, 0, 0, 6)) > bearoff2.MATCH_WORK
    # each side reaches itself, one checker on the 1-point and none: 3 by 3
    assert table.work((1, 0, 1, 0, 0, 0), (0, 2, 0, 0, 0, 0)) == 3 * 3
    assert exact.inside(GameState(big)) and not exact.inside(GameState(big, match))
    assert exact.inside(GameState(small, match))
    with pytest.raises(EngineError, match="10,000 pairs"):
        open_engine("exact").cube_decision(GameState(big, match))


def test_a_first_build_is_announced_on_stderr_once_and_a_cached_table_is_not(tmp_path):
    """A command that first reaches a bear-off builds the table there and then (the cubeful one 15-30 s): it says
    so on stderr, once; the next process reads the cache folder and says nothing (stdout stays clean throughout)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    script = "from bgcli.analysis import bearoff2; bearoff2.table(2); bearoff2.cubeful_table(2)"
    first = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert first.stdout == ""
    notes = first.stderr.splitlines()
    assert len(notes) == 2 and all(line.startswith("note: building the exact") for line in notes), first.stderr
    assert "bearoff-2-2.bin" in notes[0] and "bearoff-2c-2.bin" in notes[1]
    again = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert again.stderr == "" and again.stdout == ""


def test_the_tables_may_double_is_the_cube_rules():
    """MatchTable.may_double, the recurrence's copy of the cube's rule, says what core.cube.may_double says
    in a match with a cube and no limit (the rules the exact engine asks the tables under: exact.inside),
    whether a dead cube is a rule of its own (cube_cap_needed) or not, at every cube, owner and score."""
    from bgcli.core.cube import CubeTurn, Holder, may_double
    from bgcli.core.rules import Rules

    holders = {Owner.CENTRED: Holder.CENTRED, Owner.ON_ROLL: Holder.PLAYER, Owner.OPPONENT: Holder.OPPONENT}
    for crawford in (False, True):
        table = bearoff2.MatchTable(toy_payoff, crawford, checkers=1)
        for capped in (False, True):
            rules = Rules(match_length=17, cube_cap_needed=capped)
            for away in range(1, 18):
                for cube in (1, 2, 4, 8, 16, 32):
                    for owner in Owner:
                        turn = CubeTurn(cube, holders[owner], away, 17, crawford, rules)
                        assert table.may_double(away, cube, owner) == (may_double(turn) is None), (
                            crawford, capped, away, cube, owner)


def test_the_tables_answer_only_where_no_rule_limits_the_cube():
    """The tables' cube may always be turned again; under a cube limit (a rule some houses play) their
    figures are of another game, so the engines do not take them (the exact engine says it cannot judge
    the cube; its plays are its cubeless figures)."""
    from bgcli.core.rules import Rules
    from bgcli.core.state import GameState, MatchState
    from bgcli.engines import exact, open_engine
    from bgcli.errors import EngineError

    small = position((1, 0, 1, 0, 0, 0), (0, 2, 0, 0, 0, 0))
    assert exact.inside(GameState(small))
    limited = GameState(small, MatchState(rules=Rules(cube_limit=4)))
    assert not exact.inside(limited)
    with pytest.raises(EngineError, match="cannot judge the cube"):
        open_engine("exact").cube_decision(limited)
