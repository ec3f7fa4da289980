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
