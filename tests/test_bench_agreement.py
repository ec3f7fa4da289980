"""benchmarks/bench_agreement.py's count of misses by how close the two best plays are (issue 27)."""
import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_agreement.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_agreement", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_gap_is_between_the_two_best_whatever_the_order(bench):
    assert bench.gap([0.1, 0.5, 0.3]) == pytest.approx(0.2)
    assert bench.gap([0.4]) == 1.0   # one play: no second to be close to


def test_each_position_is_counted_in_its_band_by_each_program(bench):
    # (gnubg's gap, sage's gap, missed)
    close = [(0.001, 0.03, True), (0.001, 0.001, False), (0.015, 0.2, True), (0.3, 0.0049, False)]
    rows = {row[0]: row[1:] for row in bench.closeness_table(close)}
    assert rows["0 to 0.002"] == ("2", "1", "1", "0")
    assert rows["0.002 to 0.005"] == ("0", "0", "1", "0")
    assert rows["0.01 to 0.02"] == ("1", "1", "0", "0")
    assert rows["0.02 to 0.05"] == ("0", "0", "1", "1")
    assert rows["0.05 or more"] == ("1", "0", "1", "1")
    assert sum(int(r[0]) for r in rows.values()) == sum(int(r[2]) for r in rows.values()) == len(close)


HAVE_SAGE = importlib.util.find_spec("bgsage") is not None


def _state(home: list[int], other: list[int], outside: int = 0):
    from bgcli.core.position import Position
    from bgcli.core.state import GameState

    # the side on roll's points 1-6, the opponent's 1-6 (from its own side), and a checker of the first left on 13
    board = [0] + home + [0] * 6 + [outside] + [0] * 5 + [-n for n in reversed(other)] + [0]
    return GameState(Position.from_board26(board))


def test_races_are_counted_apart_where_both_sides_are_home_and_inside_the_two_sided_tables(bench):
    assert bench.kind_of(_state([2, 2, 2, 1, 1, 1], [1, 2, 2, 2, 2, 1])) == "race, both home"
    assert bench.kind_of(_state([2, 2, 2, 1, 1, 0], [1, 2, 2, 2, 2, 1], outside=1)) == "race"
    assert bench.kind_of(_state([1, 1, 1, 0, 0, 0], [0, 1, 1, 1, 0, 0])) == "bear-off table"


@pytest.mark.skipif(not HAVE_SAGE, reason="bgsage is not installed (pip install '.[engine]')")
def test_a_backgame_is_counted_by_the_side_that_plays_it_and_only_keeps_a_rows_positions(bench):
    from bgcli.core.ids import parse_gnubg_id

    # held-out positions: the side on roll far ahead of a backgame, and the side on roll playing one
    assert bench.kind_of(parse_gnubg_id("7wYAgDd82zYAAA:EQHrAAAAAAAE")) == "backgame, played against it"
    assert bench.kind_of(parse_gnubg_id("3G4vAADamgoANg:QYnmAFAAGAAE")) == "backgame, played by the side on roll"
    ranked = BENCH.parent / "data" / "ranked2.jsonl"
    every = bench.play_cases(None, ranked)
    for only in ("backgame", "race", "Crawford game"):
        kept = bench.play_cases(None, ranked, only)
        assert kept and len(kept) < len(every)
        assert len(kept) == sum(any(label.startswith(only) for label in (bench.kind_of(c[0]), bench.context_of(c[0])))
                                for c in every)
