"""Position analysis (bgcli.analysis.counts, bgcli.analysis.bearoff, ``bgcli analyze``).

The counts and classes are checked against GNU Backgammon's own output on
1,167 positions, the bear-off table against gnubg's one-sided database (which
is rounded to 16 bits, so only within its rounding), and bgcli's exact figures
against computations that share no code with the table: a recursion in
fractions over bgcli's legal-play generator, and the table's defining
equation evaluated with that generator. See tests/data/analysis/make_analysis.py.
"""
from __future__ import annotations

import json
import os
import random
from array import array
from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bgcli
from bgcli.analysis import bearoff
from bgcli.analysis import counts as analysis
from bgcli.analysis.counts import Analysis, analyze, bearoff_summary
from bgcli.core.position import BAR, Position
from bgcli.core.generator import legal_plays

from conftest import DATA as TEST_DATA

DATA = TEST_DATA / "analysis"
COUNTS = [json.loads(line) for line in (DATA / "counts.jsonl").read_text().splitlines()]
GNUBG_DB = [json.loads(line) for line in (DATA / "bearoff.jsonl").read_text().splitlines()]
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]

# gnubg's position classes (eval.h): 0 over, 1-3 hypergammon, 4-7 its bear-off databases, 8 race, 9 crashed, 10 contact
GNUBG_CLASS = {0: "over", 4: "bearoff", 5: "bearoff", 6: "bearoff", 7: "bearoff", 8: "race", 9: "contact", 10: "contact"}


@pytest.fixture(scope="module")
def table():
    return bearoff.table()


def home_position(counts) -> Position:
    """The player's checkers on its home points as given, the opponent's 15
    on its own 6-point, out of the way: a one-sided bear-off for legal_plays."""
    player = [0] * 26
    player[1:7] = counts
    player[0] = 15 - sum(counts)
    opponent = [0] * 26
    opponent[6] = 15
    return Position(tuple(player), tuple(opponent))


def results(counts, roll) -> set[tuple[int, ...]]:
    """The home counts every legal play of ``roll`` reaches (bgcli's generator)."""
    if not sum(counts):
        return {tuple(counts)}
    return {tuple(play.result.player[1:7]) for play in legal_plays(home_position(counts), roll)}


def weight(roll) -> int:
    return 1 if roll[0] == roll[1] else 2


# --- counts and class against gnubg -------------------------------------------------------

def test_golden_data_covers_every_kind():
    classes = {record["class"] for record in COUNTS}
    assert {0, 8, 9, 10} <= classes and classes & {4, 5, 6, 7}
    assert len(COUNTS) > 1000 and sum(r["source"].startswith("legal_sample") for r in COUNTS) == 867


@pytest.mark.parametrize("record", COUNTS, ids=[r["position_id"] for r in COUNTS])
def test_counts_and_class_are_gnubgs(record):
    position = Position.from_id(record["position_id"])
    found = analyze(position, bearoff=False)
    assert list(found.pips) == record["pips"]
    assert list(found.keith) == record["keith"]  # gnubg's Leader is the player on roll
    assert list(found.thorp) == record["thorp"]
    assert found.position_class == GNUBG_CLASS[record["class"]]
    assert any(found.crashed) == (record["class"] == 9)  # gnubg's CRASHED: contact and a side crashed
    assert abs(analysis.kleinman(*found.pips) - record["kleinman"]) <= 0.00005 + 1e-7  # printed to 4 places


def test_crashed_names_the_side():
    # the player on roll has 5 checkers left (one on the bar), the opponent 15 in contact
    player = (10, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    opponent = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
    found = analyze(Position(player, opponent), bearoff=False)
    assert found.position_class == "contact" and found.crashed == (True, False)
    assert analyze(Position(opponent, player), bearoff=False).crashed == (False, True)


@pytest.mark.parametrize("side,expected", [
    ((9, 0, 0, 0, 0, 0, 6) + (0,) * 19, True),  # 6 left
    ((8, 0, 0, 0, 0, 0, 7) + (0,) * 19, False),  # 7 left
    ((5, 3, 2, 0, 0, 0, 5) + (0,) * 19, True),  # 10 left, 3 and 2 on the 1- and 2-points: 10 + 1 - 5 <= 6
    ((5, 4, 0, 0, 0, 0, 6) + (0,) * 19, True),  # 10 left, 4 on the 1-point: 10 - 4 <= 6
    ((3, 2, 3, 0, 0, 0, 7) + (0,) * 19, False),  # 12 left: 12 - 2 > 6 and 12 + 1 - 5 > 6
    ((4, 0, 6, 0, 0, 0, 5) + (0,) * 19, True),  # none on the 1-point, 6 on the 2-point: 11 - 5 <= 6
    ((4, 1, 5, 0, 0, 0, 5) + (0,) * 19, False),  # one on the 1-point, 5 on the 2-point: 11 - 4 > 6
    ((4, 1, 0, 0, 0, 0, 10) + (0,) * 19, False),  # nothing on the 2-point: only n <= 6 counts
])
def test_crashed_follows_gnubgs_rule(side, expected):
    assert analysis.crashed(side) == expected


# --- the race ---------------------------------------------------------------------------------

def race_errors(method: str) -> list[float]:
    out = []
    for record in COUNTS:
        if "win" in record:
            found = analyze(record["position_id"])
            if found.race.method == method:
                out.append(abs(found.race.win[0] - record["win"]))
    return out


def test_kleinman_approximation_is_as_far_off_as_documented():
    errors = sorted(race_errors("kleinman"))
    assert len(errors) >= 200
    # the figures the analysis module's docstring and the README give
    assert sum(errors) / len(errors) <= 0.031
    assert errors[len(errors) // 2] <= 0.0010
    assert errors[int(0.9 * len(errors))] <= 0.095
    assert max(errors) <= 0.532


def test_exact_race_agrees_with_gnubgs_bearoff_databases():
    errors = race_errors("bearoff")
    assert len(errors) >= 100
    # gnubg reads its two-sided database where it has one, which plays to win rather than to
    # save rolls, and rounds to 16 bits: within 0.2 percentage points (documented)
    assert max(errors) <= 0.002


def test_race_win_splits_one():
    rng = random.Random(5)
    table = bearoff.table()
    keys = list(table.keys)
    for _ in range(200):
        a, b = (bearoff.counts_of(rng.choice(keys[1:])) for _ in range(2))
        p, q = table.dist(a), table.dist(b)
        on_roll = bearoff.race_win(p, q)
        opponent = sum(qn * sum(p[n:]) for n, qn in enumerate(q, 1))  # the opponent wins in n when the roller needs more
        assert abs(on_roll + opponent - 1) < 1e-12


def test_race_is_exact_in_the_bearoff_and_none_in_contact():
    assert analyze("start").race is None
    bear = analyze("tyYAAPx+AAAAAA")
    assert bear.position_class == "bearoff" and bear.race.exact and bear.race.method == "bearoff"
    table = bearoff.table()
    sides = [bearoff.home_counts(s) for s in (bear.position.player, bear.position.opponent)]
    assert bear.race.win[0] == bearoff.race_win(table.dist(sides[0]), table.dist(sides[1]))
    long_race = analyze("27YAAAA+Bx8EAA")
    assert long_race.race.method == "kleinman" and not long_race.race.exact
    assert long_race.race.win[0] == analysis.kleinman(137, 36)


# --- the bear-off table against gnubg's database --------------------------------------------

@pytest.mark.parametrize("record", GNUBG_DB, ids=[str(r["index"]) for r in GNUBG_DB])
def test_bearoff_within_gnubgs_rounding(record, table):
    counts = tuple(record["counts"])
    mine = table.dist(counts)
    theirs = [0.0] * (record["first"] - 1) + [v / 65535 for v in record["p16"]]
    if not sum(counts):
        assert mine == () and table.mean(counts) == 0
        return
    for n in range(max(len(mine), len(theirs))):
        p = mine[n] if n < len(mine) else 0.0
        q = theirs[n] if n < len(theirs) else 0.0
        assert abs(p - q) <= 3e-3  # 16-bit entries, each roll's play picked by the rounded mean
    gnubg_mean = sum(n * q for n, q in enumerate(theirs, 1))
    assert abs(table.mean(counts) - gnubg_mean) <= 2.5e-4  # measured over all 54,264: at most 2.0e-4


def test_gnubgs_database_is_close_but_not_exact(table):
    """The tolerance above is needed: gnubg's figures are not bgcli's."""
    worst = 0.0
    for record in GNUBG_DB:
        theirs = [0.0] * (record["first"] - 1) + [v / 65535 for v in record["p16"]]
        mine = table.dist(tuple(record["counts"]))
        worst = max([worst] + [abs(a - b) for a, b in zip(mine, theirs)])
    assert 1e-4 < worst <= 3e-3


# --- bgcli's exact figures, checked independently -------------------------------------------

@lru_cache(maxsize=None)
def exact(counts: tuple[int, ...]) -> tuple[Fraction, tuple[Fraction, ...]]:
    """(mean, distribution) in fractions, by recursion over bgcli's legal-play
    generator: each roll's play minimises the exact mean; plays of equal mean
    must have equal distributions."""
    if not sum(counts):
        return Fraction(0), ()
    mean = Fraction(1)
    dist: list[Fraction] = []
    for roll in ROLLS:
        options = [exact(r) for r in results(counts, roll)]
        low = min(m for m, _ in options)
        best = {d for m, d in options if m == low}
        assert len(best) == 1, f"plays of equal mean with different distributions in {counts} {roll}"
        w = Fraction(weight(roll), 36)
        mean += w * low
        (chosen,) = best
        shifted = (Fraction(1),) if not chosen else (Fraction(0),) + chosen
        dist += [Fraction(0)] * (len(shifted) - len(dist))
        for n, p in enumerate(shifted):
            dist[n] += w * p
    return mean, tuple(dist[1:]) if dist and dist[0] == 0 else tuple(dist)


def small_positions(most: int):
    for total in range(most + 1):
        def fill(points, left):
            if points == 1:
                yield (left,)
                return
            for c in range(left + 1):
                for rest in fill(points - 1, left - c):
                    yield (c,) + rest
        yield from fill(6, total)


def test_exact_against_fractions_over_legal_plays(table):
    checked = 0
    for counts in small_positions(4):  # all 210 positions of up to 4 checkers
        mean, dist = exact(counts)
        assert abs(table.mean(counts) - float(mean)) < 1e-12
        mine = table.dist(counts)
        assert len(mine) == len(dist)
        assert all(abs(a - float(b)) < 1e-15 for a, b in zip(mine, dist))
        checked += 1
    assert checked == 210
    # by hand: one checker on the 6-point is off in one roll when the roll moves it 6 pips
    # or more: 27 of the 36 rolls, all but 11, 21, 31, 41 and 32
    assert exact((0, 0, 0, 0, 0, 1))[1][0] == Fraction(27, 36)
    # and the other nine leave it on the 3-point or lower, from where any roll takes it off
    assert table.dist((0, 0, 0, 0, 0, 1)) == (0.75, 0.25)


def test_bearoff_moves_are_the_legal_plays():
    """The table's own step generator reaches exactly the positions bgcli's
    legal-play generator (checked against gnubg) reaches, roll by roll."""
    rng = random.Random(1)
    keys = bearoff._all_keys()
    for k in rng.sample(keys, 150) + keys[:30] + keys[-5:]:
        counts = bearoff.counts_of(k)
        for roll in ROLLS:
            a, b = roll
            if a == b:
                reached = {k}
                for _ in range(4):
                    reached = {r for q in reached for r in bearoff.step_results(q, a)}
            else:
                reached = {r for q in bearoff.step_results(k, a) for r in bearoff.step_results(q, b)}
                reached |= {r for q in bearoff.step_results(k, b) for r in bearoff.step_results(q, a)}
            assert {bearoff.counts_of(r) for r in reached} == results(counts, roll), (counts, roll)


def test_defining_equation_with_legal_plays_on_large_positions(table):
    """mean = 1 + average over rolls of the best legal play's mean, and the
    distribution is the chosen plays' distributions one roll later: the
    table's own equation, evaluated with bgcli's legal-play generator."""
    rng = random.Random(2)
    keys = list(table.keys)
    sample = [k for k in keys if sum(bearoff.counts_of(k)) >= 12]
    for k in rng.sample(sample, 120):
        counts = bearoff.counts_of(k)
        mean = 1.0
        dist = [0.0] * 40
        for roll in ROLLS:
            options = sorted((table.mean(r), r) for r in results(counts, roll))
            low = options[0][0]
            tied = [r for m, r in options if m - low < 1e-12]
            chosen = table.dist(tied[0])
            for other in tied[1:]:
                assert max(abs(x - y) for x, y in zip(chosen, table.dist(other))) < 1e-12
            mean += weight(roll) / 36 * low
            assert chosen  # twelve checkers or more: never all off in one roll
            for n, p in enumerate(chosen, 1):
                dist[n] += weight(roll) / 36 * p  # n more rolls after this one: n + 1 in all
        assert abs(mean - table.mean(counts)) < 1e-12
        mine = table.dist(counts)
        assert dist[0] == 0 and all(abs(a - b) < 1e-12 for a, b in zip(mine, dist))
        assert sum(dist[len(mine):]) < 1e-15


def test_fifteen_on_the_one_point():
    # 15 checkers on the 1-point: a double takes 4, any other roll 2; the exact mean in fractions
    mean, dist = exact_stack(15)
    table = bearoff.table()
    assert abs(table.mean((15, 0, 0, 0, 0, 0)) - float(mean)) < 1e-12
    assert all(abs(a - float(b)) < 1e-15 for a, b in zip(table.dist((15, 0, 0, 0, 0, 0)), dist))


def exact_stack(n: int) -> tuple[Fraction, tuple[Fraction, ...]]:
    """Checkers on the 1-point only: each roll bears off min(n, 4) on a double, min(n, 2) otherwise."""
    @lru_cache(maxsize=None)
    def go(left: int) -> tuple[Fraction, tuple[Fraction, ...]]:
        if not left:
            return Fraction(0), ()
        mean, dist = Fraction(1), [Fraction(0)] * 20
        for off, p in ((4, Fraction(6, 36)), (2, Fraction(30, 36))):
            m, d = go(max(left - off, 0))
            mean += p * m
            if not d:
                dist[0] += p
            for i, q in enumerate(d, 1):
                dist[i] += p * q
        while dist and not dist[-1]:
            dist.pop()
        return mean, tuple(dist)
    return go(n)


# --- properties -------------------------------------------------------------------------

def _counts(points: list[int]) -> tuple[int, ...]:
    return tuple(points.count(p) for p in range(1, 7))


# 1 to 15 checkers, each on a home point
home_sides = st.integers(1, 15).flatmap(lambda n: st.lists(st.integers(1, 6), min_size=n, max_size=n)).map(_counts)


@settings(max_examples=300)
@given(home_sides)
def test_distribution_sums_to_one_and_gives_the_mean(counts):
    table = bearoff.table()
    dist = table.dist(counts)
    assert abs(sum(dist) - 1) < 1e-12 and min(dist) >= 0
    assert abs(sum(n * p for n, p in enumerate(dist, 1)) - table.mean(counts)) < 1e-10


@settings(max_examples=300)
@given(home_sides.filter(lambda c: sum(c) < 15), st.integers(1, 6))
def test_one_more_checker_never_makes_the_mean_smaller(counts, point):
    table = bearoff.table()
    more = list(counts)
    more[point - 1] += 1
    assert table.mean(tuple(more)) >= table.mean(counts) - 1e-12


def test_one_checker_on_the_one_point_is_off_in_one_roll():
    table = bearoff.table()
    assert table.dist((1, 0, 0, 0, 0, 0)) == (1.0,) and table.mean((1, 0, 0, 0, 0, 0)) == 1.0
    assert table.dist((0, 0, 0, 0, 0, 0)) == () and table.mean((0, 0, 0, 0, 0, 0)) == 0.0


@settings(max_examples=200)
@given(home_sides, home_sides)
def test_race_win_is_a_probability_and_favours_the_faster(a, b):
    table = bearoff.table()
    win = bearoff.race_win(table.dist(a), table.dist(b))
    assert 0.0 <= win <= 1.0
    if a == b:
        assert win >= 0.5  # the same position, and the player on roll goes first


# --- hits ---------------------------------------------------------------------------------

CONTACT = [r["position_id"] for r in COUNTS if r["class"] in (9, 10)][::4]


@pytest.mark.parametrize("position_id", CONTACT)
def test_hits_against_brute_force_over_the_36_rolls(position_id):
    position = Position.from_id(position_id)
    hitting = set()
    count = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            # a play hits when it leaves more opponent checkers on the bar than there were
            if any(play.result.opponent[BAR] > position.opponent[BAR] for play in legal_plays(position, (d1, d2))):
                count += 1
                hitting.add((max(d1, d2), min(d1, d2)))
    found = analyze(position, bearoff=False)
    assert found.hits == count
    assert set(found.hit_rolls) == hitting


def test_hits_are_found_at_all():
    assert sum(analyze(p, bearoff=False).hits > 0 for p in CONTACT) > len(CONTACT) // 3


def test_hits_count_a_double_once_and_other_rolls_twice():
    found = analyze("sOfBFQCKz8EBBg", bearoff=False)
    assert found.hits == sum(1 if a == b else 2 for a, b in found.hit_rolls)
    assert found.hit_rolls == tuple(sorted(found.hit_rolls, reverse=True))


# --- the library ----------------------------------------------------------------------------

def test_analyze_is_exported_and_takes_any_form():
    assert bgcli.analyze is analyze and bgcli.Analysis is Analysis
    from bgcli.core.ids import parse_position

    game = parse_position("tyYAAPx+AAAAAA")
    assert analyze("tyYAAPx+AAAAAA") == analyze(game) == analyze(game.position)


def test_json_has_every_field_as_pairs():
    data = analyze("tyYAAPx+AAAAAA").to_dict()
    assert set(data) == {"position_id", "pips", "keith", "thorp", "class", "crashed", "hits", "hit_rolls", "bearoff", "race"}
    assert data["bearoff"]["on_roll"]["dist"][2] > 0 and set(data["bearoff"]) == {"on_roll", "opponent"}
    assert data["race"]["exact"] and abs(sum(data["race"]["win"]) - 1) < 1e-12
    contact = analyze("start").to_dict()
    assert contact["bearoff"] == {"on_roll": None, "opponent": None} and contact["race"] is None


def test_without_the_table():
    found = analyze("tyYAAPx+AAAAAA", bearoff=False)
    assert found.bearoff is None and found.race is None


def test_bearoff_summary_for_the_viewer():
    assert bearoff_summary("start") is None
    summary = bearoff_summary("tyYAAPx+AAAAAA")
    found = analyze("tyYAAPx+AAAAAA")
    assert summary["pips"] == [18, 24]
    assert summary["on_roll"] == found.bearoff[0].to_dict() and summary["race"] == list(found.race.win)
    one_side = bearoff_summary("27YAAAA+Bx8EAA")
    assert one_side["on_roll"] is None and one_side["opponent"]["mean"] > 5 and one_side["race"] is None


def test_game_over():
    found = analyze("4wEAAAAAAAAAAA")  # the player on roll has borne off all 15
    assert found.position_class == "over" and found.race.win == (1.0, 0.0)
    assert found.bearoff[0].dist == () and found.bearoff[0].mean == 0.0


# --- the cache file -------------------------------------------------------------------------

@pytest.fixture
def private_cache(tmp_path, monkeypatch, table):
    """A fresh process-wide state with the cache folder in tmp_path; build()
    returns the already-built table and counts its calls."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("BGCLI_NO_CACHE", raising=False)
    monkeypatch.setattr(bearoff, "_TABLE", None)
    calls = []
    monkeypatch.setattr(bearoff, "build", lambda: calls.append(1) or table)
    return tmp_path / "bgcli" / bearoff.FILE_NAME, calls


def fresh_load():
    bearoff._TABLE = None
    return bearoff.table()


def test_cache_file_is_written_once_and_read_back(private_cache, table):
    path, calls = private_cache
    first = bearoff.table()
    assert calls == [1] and path.is_file() and oct(path.stat().st_mode & 0o777) == "0o600"
    assert path.read_bytes()[:16] == b"bgcli bear-off\n\0"  # a plain array file, not a pickle
    again = fresh_load()
    assert calls == [1] and again is not first
    assert list(again.means) == list(table.means) and list(again.probs) == list(table.probs)


def test_corrupt_cache_file_is_rebuilt(private_cache):
    path, calls = private_cache
    bearoff.table()
    data = bytearray(path.read_bytes())
    data[-100] ^= 0x40
    path.write_bytes(bytes(data))
    fresh_load()
    assert calls == [1, 1] and path.read_bytes() != bytes(data)


def test_truncated_or_foreign_cache_file_is_rebuilt(private_cache, table):
    path, calls = private_cache
    path.parent.mkdir(mode=0o700)
    path.write_bytes(b"not a table")
    fresh_load()
    assert calls == [1]
    # a well-formed file with a good checksum whose figures are wrong
    means = array("d", table.means)
    means[100] += 0.25
    forged = bearoff.BearoffTable(table.keys, means, table.first, table.length, table.probs)
    path.write_bytes(bearoff.dumps(forged))
    fresh_load()
    assert calls == [1, 1]


def test_swapped_or_missing_positions_are_caught(table):
    keys = array("L", table.keys)
    i = table._index[bearoff.key((0, 0, 0, 0, 0, 2))]
    j = table._index[bearoff.key((0, 0, 0, 0, 2, 0))]
    keys[i], keys[j] = keys[j], keys[i]  # each position's figures given to the other
    with pytest.raises(bearoff.BadTableFile, match="order"):
        bearoff.check(bearoff.BearoffTable(keys, table.means, table.first, table.length, table.probs), sample=0)
    keys = array("L", table.keys)
    keys[j] = keys[i]  # one position twice, another missing
    with pytest.raises(bearoff.BadTableFile, match="order"):
        bearoff.check(bearoff.BearoffTable(keys, table.means, table.first, table.length, table.probs), sample=0)
    bearoff.check(table, sample=0)


def test_a_wrong_mean_is_caught_even_when_consistent(table):
    """The defining equation catches a table whose distribution and mean agree
    with each other but are not the best play's."""
    i = table._index[bearoff.key((0, 0, 0, 0, 0, 2))]
    start = table.offset[i]
    probs, means = array("d", table.probs), array("d", table.means)
    probs[start] -= 0.01  # a little probability moved one roll later, and the mean with it
    probs[start + 1] += 0.01
    means[i] += 0.01
    forged = bearoff.BearoffTable(table.keys, means, table.first, table.length, probs)
    bearoff.check(forged, sample=0)  # sums and means agree

    class Pick:
        def sample(self, population, k):
            return [i]

    with pytest.raises(bearoff.BadTableFile, match="not the best play"):
        bearoff.check(forged, sample=1, rng=Pick())


def test_a_file_that_passed_the_whole_check_is_not_checked_whole_again(private_cache, monkeypatch):
    """The digest of a file that passed the whole check is kept beside it: loading the same
    contents again makes only the sampled check of the defining equation, a new sample each
    time, and gives the same table."""
    path, calls = private_cache
    built = bearoff.table()
    assert not (path.parent / bearoff.CHECKED_NAME).exists()   # built, not yet read back
    whole, sampled = [], []
    real_check, real_sample = bearoff.check, bearoff.check_sample
    monkeypatch.setattr(bearoff, "check", lambda *args, **kw: whole.append(1) or real_check(*args, **kw))
    monkeypatch.setattr(bearoff, "check_sample", lambda *args, **kw: sampled.append(1) or real_sample(*args, **kw))
    first = fresh_load()
    mark = path.parent / bearoff.CHECKED_NAME
    assert whole == [1] and mark.read_bytes() == bearoff.checked_mark(path.read_bytes())
    assert oct(mark.stat().st_mode & 0o777) == "0o600"
    again = fresh_load()
    assert whole == [1] and len(sampled) == 2 and calls == [1]
    assert list(again.means) == list(first.means) == list(built.means) and list(again.probs) == list(built.probs)


def test_a_mark_of_other_contents_leaves_the_whole_check_to_do(private_cache, table):
    """A file whose contents are not the ones the kept digest names (a forged table with a good
    checksum, a flipped bit) is checked as before, and rebuilt when it fails."""
    path, calls = private_cache
    bearoff.table()
    fresh_load()   # checked whole: its mark written
    mark = (path.parent / bearoff.CHECKED_NAME).read_bytes()
    means = array("d", table.means)
    means[100] += 0.25
    path.write_bytes(bearoff.dumps(bearoff.BearoffTable(table.keys, means, table.first, table.length, table.probs)))
    assert (path.parent / bearoff.CHECKED_NAME).read_bytes() == mark   # the mark of the good file stays
    fresh_load()
    assert calls == [1, 1]
    data = bytearray(path.read_bytes())
    (path.parent / bearoff.CHECKED_NAME).write_bytes(bearoff.checked_mark(bytes(data)))
    data[-100] ^= 0x40   # the digest in the header no longer matches the contents
    path.write_bytes(bytes(data))
    fresh_load()
    assert calls == [1, 1, 1]


def test_a_marked_file_still_gets_the_sampled_check(table, monkeypatch):
    """The one check that can answer differently for the same bytes (the defining equation on a
    random sample) is made on a marked file too: a consistent but wrong mean is caught."""
    i = table._index[bearoff.key((0, 0, 0, 0, 0, 2))]
    start = table.offset[i]
    probs, means = array("d", table.probs), array("d", table.means)
    probs[start] -= 0.01
    probs[start + 1] += 0.01
    means[i] += 0.01
    data = bearoff.dumps(bearoff.BearoffTable(table.keys, means, table.first, table.length, probs))

    class Pick:
        def sample(self, population, k):
            return [i]

    monkeypatch.setattr(bearoff.random, "Random", Pick)
    monkeypatch.setattr(bearoff, "check", lambda *args, **kw: pytest.fail("the whole check was made again"))
    with pytest.raises(bearoff.BadTableFile, match="not the best play"):
        bearoff.loads(data, sample=1, checked=bearoff.checked_mark(data))


def test_no_cache_folder_keeps_the_table_in_memory(private_cache, monkeypatch):
    path, calls = private_cache
    monkeypatch.setenv("BGCLI_NO_CACHE", "1")
    bearoff.table()
    assert calls == [1] and not path.exists()


def test_build_is_exact_and_quick():
    import time

    start = time.perf_counter()
    built = bearoff.build()
    took = time.perf_counter() - start
    assert len(built) == bearoff.POSITIONS == 54264
    assert took < 60  # about 3 s on the project's machine; generous for a loaded CI
    assert list(built.means) == list(bearoff.table().means)


# --- the command line -------------------------------------------------------------------

def test_analyze_text(run):
    result = run("analyze", "tyYAAPx+AAAAAA")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    found = analyze("tyYAAPx+AAAAAA")
    assert lines[0].split() == ["position", "tyYAAPx+AAAAAA"]
    assert lines[2].split() == ["pips", "18", "24"]
    assert lines[3].split() == ["Keith", "count", str(found.keith[0]), str(found.keith[1])]
    assert "bear-off" in lines[5] and "(exact)" in lines[6]
    assert lines[-1].split() == ["mean", "rolls", f"{found.bearoff[0].mean:.3f}", f"{found.bearoff[1].mean:.3f}"]


def test_analyze_text_contact_shows_hits_and_crashes(run):
    lines = run("analyze", "sOfBFQCKz8EBBg").output.splitlines()
    found = analyze("sOfBFQCKz8EBBg")
    assert lines[-1].startswith("hits") and f"{found.hits} of 36" in lines[-1]
    assert lines[-2].split() == ["crashed", "no", "no"]


def test_analyze_json(run):
    data = json.loads(run("analyze", "--json", "sOfBFQCKz8EBBg").output)
    assert data == json.loads(json.dumps(analyze("sOfBFQCKz8EBBg").to_dict()))


def test_analyze_26_numbers_unquoted(run):
    board = Position.start().board26()
    result = run("analyze", "--json", "--", *map(str, board))  # -- before negative numbers, as for any click program
    assert result.exit_code == 0 and json.loads(result.output)["pips"] == [167, 167]


def test_analyze_errors_are_one_line(run):
    bad = run("analyze", "nonsense")
    assert bad.exit_code == 1 and bad.output.count("\n") == 1 and bad.output.startswith("Error: ")
    assert run("analyze").exit_code == 2
    assert run("analyze", "--batch", "-", "start", input="start\n").exit_code == 2
    assert run("analyze", "--batch", "/no/such/file").exit_code == 2


def test_analyze_batch_goes_on_past_errors(run):
    result = run("analyze", "--batch", "-", input="start\nnonsense\n\ntyYAAPx+AAAAAA\n")
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert len(lines) == 4
    assert lines[0]["pips"] == [167, 167] and lines[3]["class"] == "bearoff"
    assert lines[1]["error"].startswith("line 2: ") and lines[2] == {"error": "line 3: empty line"}


def test_analyze_batch_bad_bytes_and_over_long_lines(run):
    from bgcli.cli.analyze import MAX_LINE

    result = run("analyze", "--batch", "-", input=b"start\n\xff\xfe\nstart\r\n")
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert result.exit_code == 1 and lines[1] == {"error": "line 2: not UTF-8 text (byte 1 of the line)"}
    assert lines[0] == lines[2]  # the \r before the newline is not part of the position
    result = run("analyze", "--batch", "-", input=b"start\n" + b"x" * (MAX_LINE + 5) + b"\nstart\n")
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert result.exit_code == 2 and len(lines) == 2 and "line 2: longer than 1,048,576 bytes" in lines[1]["error"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_analyze_batch_of_dev_zero_is_one_error(jobs):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "bgcli", "analyze", "--batch", "/dev/zero", "--jobs", jobs],
                          capture_output=True, timeout=60)
    # NUL bytes are binary data: one line naming the input, before any line is read (bgcli.cli.batch.not_text)
    assert done.returncode == 2 and b"Traceback" not in done.stderr and done.stdout == b""
    assert done.stderr == b"Error: cannot read /dev/zero as a batch: it is binary data, not lines of text\n"


def test_analyze_batch_on_two_cores_keeps_the_order(tmp_path):
    import subprocess
    import sys

    ids = [r["position_id"] for r in COUNTS[:300]] + ["nonsense"] + [r["position_id"] for r in COUNTS[-300:]]
    path = tmp_path / "ids.txt"
    path.write_text("\n".join(ids) + "\n")
    one = subprocess.run([sys.executable, "-m", "bgcli", "analyze", "--batch", str(path)], capture_output=True, text=True)
    two = subprocess.run([sys.executable, "-m", "bgcli", "analyze", "--batch", str(path), "--jobs", "2"],
                         capture_output=True, text=True)
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout and len(one.stdout.splitlines()) == 601


def test_show_counts_under_the_pip_counts(run):
    record = next(r for r in COUNTS if r["keith"][0] != r["keith"][1] and r["thorp"][0] != r["thorp"][1])
    result = run("show", "--counts", record["position_id"])
    lines = result.output.splitlines()
    assert result.exit_code == 0 and lines[-3].startswith("Pip counts: O ")
    # a bare Position ID puts player 1 (X) on roll: X's counts are gnubg's Leader
    assert lines[-2] == f"Keith counts: O {record['keith'][1]}, X {record['keith'][0]}"
    assert lines[-1] == f"Thorp counts: O {record['thorp'][1]}, X {record['thorp'][0]}"
    assert "Keith" not in run("show", record["position_id"]).output
    assert run("show", "--counts", "--svg", "start").exit_code == 2


def test_analyze_command_starts_without_the_analysis_loaded():
    import subprocess
    import sys

    code = "import sys, bgcli.cli; print('bgcli.analysis.counts' in sys.modules, 'bgcli.analysis.bearoff' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ))
    assert out.stdout.split() == ["False", "False"]
