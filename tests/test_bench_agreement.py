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
