"""The legal-play generator against GNU Backgammon and against a slow reference.

- every query of the oracle sample (made by gnubg) gives the same set of result
  Position IDs;
- samples/perft.txt, play counts that gnubg gave for one rule edge case each;
- random positions: the generator's fast paths agree with a plain, slow
  implementation of the rules written here from the rule text.
"""
from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgcli.errors import InvalidDiceError
from bgcli.core.position import BAR, OFF, Position, position_id
from bgcli.core.spelling import parse_dice
from bgcli.core.generator import Play, Step, legal_plays
from bgcli.core.judge import apply_steps

from conftest import ORACLE as ORACLE_DIR, SAMPLES, committed
from generated import positions

ORACLE = ORACLE_DIR / "legal_sample.jsonl"
PERFT = SAMPLES / "perft.txt"


def oracle_records() -> list[dict]:
    with committed(ORACLE).open() as f:
        return [json.loads(line) for line in f]


# --- gnubg's oracle sample -------------------------------------------------------

def test_oracle_sample_same_result_ids():
    records = oracle_records()
    wrong = []
    for record in records:
        position = Position.from_id(record["position_id"])
        got = [play.result_id() for play in legal_plays(position, record["dice"])]
        want = {play["result_id"] for play in record["plays"]}
        if len(got) != len(set(got)) or set(got) != want:
            wrong.append((record["position_id"], record["dice"], sorted(set(got) ^ want)))
    assert not wrong, f"{len(wrong)} of {len(records)} queries differ, first: {wrong[:3]}"


def test_oracle_sample_plays_are_consistent():
    """Each play's steps replay to its result, use the dice and mark the hits;
    the lazily computed fields agree with the slow ways of computing them."""
    for record in oracle_records()[::3]:
        position = Position.from_id(record["position_id"])
        high, low = record["dice"]
        for play in legal_plays(position, record["dice"]):
            assert apply_steps(position, play.steps) == play.result
            assert play.result_id() == position_id(play.after) == play.after.id()
            assert play.after == play.result.swap()
            assert play.result.problem() == ""
            check_steps(position, play.steps, high, low)


def check_steps(position: Position, steps: tuple[Step, ...], high: int, low: int) -> None:
    dice = Counter([high] * 4 if high == low else [high, low])
    current = position
    for step in steps:
        distance = step.start - step.end
        # a bear-off may use a larger die than the distance
        die = distance if dice[distance] else min((d for d in dice if dice[d] and d > distance), default=None)
        assert step.end == OFF or die == distance, steps
        assert die is not None, steps
        dice[die] -= 1
        blot = step.end != OFF and current.opponent[25 - step.end] == 1
        assert step.hit == blot, steps
        current = apply_steps(current, [step])


# --- perft golden file -------------------------------------------------------------

def perft_cases() -> list[tuple[str, str, int, str]]:
    cases = []
    for line in PERFT.read_text().splitlines():
        text, _, comment = line.partition("#")
        if text.strip():
            pid, dice, count = text.split()
            cases.append((pid, dice, int(count), comment.strip()))
    return cases


def test_perft_file_covers_the_edge_cases():
    comments = " | ".join(c for *_, c in perft_cases())
    for topic in ("forced larger die", "one order", "partial entry", "larger die from the highest",
                  "no bear-off while a checker is outside", "hit during the bear-off", "no legal move",
                  "doubles with partial play", "two on the bar", "bear-off with doubles"):
        assert topic in comments


@pytest.mark.parametrize("pid, dice, count, comment", perft_cases(), ids=lambda v: v if isinstance(v, str) else None)
def test_perft(pid, dice, count, comment):
    plays = legal_plays(Position.from_id(pid), parse_dice(dice))
    assert len(plays) == count, comment
    assert len({play.result_id() for play in plays}) == count


# --- a slow reference implementation of the rules -------------------------------

def reference_steps(pos: Position, die: int):
    """The single steps of ``die`` the rules allow now, written from the rules."""
    me, them = pos.player, pos.opponent
    starts = [BAR] if me[BAR] else [p for p in range(24, 0, -1) if me[p]]
    all_home = not me[BAR] and all(me[p] == 0 for p in range(7, 25))
    highest = max((p for p in range(1, 26) if me[p]), default=0)
    for start in starts:
        end = start - die
        if end >= 1:
            if them[25 - end] < 2:
                yield start, end
        elif all_home and (end == 0 or start == highest):
            yield start, OFF


def reference_plays(position: Position, high: int, low: int) -> set[Position]:
    """Results of the legal plays, by brute force over every order of the dice."""
    orders = [[high] * 4] if high == low else [[high, low], [low, high]]
    finished: list[tuple[int, int, Position]] = []  # (dice used, pips of dice used, result)

    def search(pos: Position, dice: list[int], used: list[int]) -> None:
        moved = False
        if dice:
            for step in reference_steps(pos, dice[0]):
                moved = True
                search(apply_steps(pos, [step]), dice[1:], used + [dice[0]])
        if not moved:
            finished.append((len(used), sum(used), pos))

    for order in orders:
        search(position, order, [])
    most = max(n for n, _, _ in finished)
    if most == 0:
        return set()
    best = max(pips for n, pips, _ in finished if n == most)
    return {pos for n, pips, pos in finished if n == most and pips == best}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 6), st.integers(1, 6))
def test_agrees_with_reference(position, a, b):
    high, low = max(a, b), min(a, b)
    plays = legal_plays(position, (a, b))
    results = [play.result for play in plays]
    assert len(results) == len(set(results))  # one play per distinct result
    assert set(results) == reference_plays(position, high, low)
    for play in plays:
        assert apply_steps(position, play.steps) == play.result
        assert play.result_id() == play.after.id()


# --- the API -------------------------------------------------------------------------

def test_dice_in_any_order_and_invalid_dice():
    start = Position.start()
    assert {p.result_id() for p in legal_plays(start, (1, 3))} == {p.result_id() for p in legal_plays(start, (3, 1))}
    for dice in [(0, 3), (7, 1), (3, -1)]:
        with pytest.raises(InvalidDiceError):
            legal_plays(start, dice)


def test_play_value_semantics():
    start = Position.start()
    first, second = legal_plays(start, (3, 1)), legal_plays(start, (3, 1))
    assert first == second
    assert hash(first[0]) == hash(second[0])
    assert len(set(first) | set(second)) == len(first)
    made = Play(first[0].steps, first[0].result)
    assert made == first[0] and made.result_id() == first[0].result_id()
    assert eval(repr(made), {"Play": Play, "Step": Step, "Position": Position}) == made
    with pytest.raises(AttributeError):
        made.steps = ()  # read-only


def test_point_made_and_hits_marked():
    start = Position.start()
    by_text = {tuple((s.start, s.end) for s in p.steps): p for p in legal_plays(start, (3, 1))}
    play = next(p for steps, p in by_text.items() if sorted(steps) == [(6, 5), (8, 5)])
    assert play.result.player[5] == 2 and play.result.player[6] == 4 and play.result.player[8] == 2
    assert not any(step.hit for step in play.steps)


def test_dice_as_text_and_bad_dice_types():
    start = Position.start()
    assert len(legal_plays(start, "31")) == len(legal_plays(start, (3, 1))) == 16
    for dice in [(3,), (1, 2, 3), (2.0, 1), None, "7-1"]:
        with pytest.raises(InvalidDiceError):
            legal_plays(start, dice)


def test_a_play_names_its_hits_and_its_change():
    # 64 from the start hits nothing; 24/18 and 13/9 with a blot on the opponent's 7 (our 18) hits 18
    start = Position.start()
    assert all(play.hits == () for play in legal_plays(start, (6, 4)))
    opponent = list(start.opponent)
    opponent[6] -= 1
    opponent[7] += 1  # a blot on their 7: our 18
    blot = Position(start.player, tuple(opponent))
    hitting = [play for play in legal_plays(blot, (6, 4)) if any(step.hit for step in play.steps)]
    assert hitting and all(play.hits == (18,) for play in hitting)
    assert all(play.hits == () for play in legal_plays(blot, (6, 4)) if play not in hitting)
    # the same steps from another position make the same change; a hand-built play has none
    moved = Position((0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0), start.opponent)
    by_text = {str(play): play.change for play in legal_plays(start, (6, 4))}
    again = {str(play): play.change for play in legal_plays(moved, (6, 4))}
    assert by_text["8/2 6/2"] == again["8/2 6/2"] is not None
    assert by_text["24/18 13/9"] != by_text["8/2 6/2"]
    assert Play([Step(8, 2), Step(6, 2)], start).change is None
    assert Play([Step(24, 18, True)], start).hits == (18,)
