"""Legality has one owner, the generator (bgcli.core.generator.legal_plays):
the judge of a written play (bgcli.core.notation.parse_play, and
play_from_steps for the audit) accepts a play exactly when it is among the
generator's plays for the roll; the Board of bgcli.core.judge only says why
steps cannot be made, and asks the generator (step_refusal) whether a step
may be made at all."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bgcli.core.judge as judge
from bgcli.core.generator import Refusal, legal_plays, step_refusal
from bgcli.core.judge import Board, play_from_steps
from bgcli.core.notation import parse_play, play_text
from bgcli.core.position import BAR, OFF, Position
from bgcli.errors import AmbiguousPlayError, IllegalPlayError, InvalidPlayError
from test_audit_steps import random_moves, reaches_a_legal_play
from test_legal import positions, reference_steps


def written(moves) -> str:
    return " ".join(f"{'bar' if start == BAR else start}/{'off' if end == 0 else end}" for start, end in moves)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), a=st.integers(1, 6), b=st.integers(1, 6), seed=st.integers(0, 10_000))
def test_a_written_play_is_legal_exactly_when_the_generator_has_it(position, a, b, seed):
    dice = (max(a, b), min(a, b))
    plays = legal_plays(position, dice)
    results = {play.result for play in plays}
    rng = random.Random(seed)
    for play in plays:   # every legal play, as the generator writes it and as its steps, is itself
        for text in (play_text(play), written((s.start, s.end) for s in play.steps)):
            if text:
                assert parse_play(text, position, dice).result == play.result, (position.id(), dice, text)
    for _ in range(8):   # any other steps: accepted only when they reach one of the generator's plays
        moves = random_moves(rng, position, dice)
        try:
            found = parse_play(written(moves), position, dice)
        except (IllegalPlayError, AmbiguousPlayError, InvalidPlayError):
            found = None
        judged = play_from_steps(position, dice, moves)
        if found is not None:
            assert found.result in results, (position.id(), dice, moves)
        if judged is not None:
            assert judged.result in results, (position.id(), dice, moves)


def test_a_lax_board_cannot_make_a_play_legal(monkeypatch):
    """With the Board's rules switched off, the judge still accepts only the
    generator's plays: a checker moved while another is on the bar is refused."""
    start = Position.start()
    on_bar = Position(tuple(n + (i == BAR) - (i == 6) for i, n in enumerate(start.player)), start.opponent)
    with pytest.raises(IllegalPlayError):
        parse_play("13/9 13/10", on_bar, (4, 3))
    monkeypatch.setattr(judge.Board, "problem", lambda self, *args, **kwargs: "")
    with pytest.raises(IllegalPlayError, match="no legal play of the roll reaches"):
        parse_play("13/9 13/10", on_bar, (4, 3))
    assert parse_play("bar/22 13/9", on_bar, (4, 3)).result in {p.result for p in legal_plays(on_bar, (4, 3))}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), a=st.integers(1, 6), b=st.integers(1, 6), seed=st.integers(0, 10_000))
def test_the_judge_of_written_steps_says_legal_exactly_when_the_generator_does(position, a, b, seed):
    """Both ways: steps of one die each that reach a legal play's result (in
    some order) are accepted (or, read several ways, called ambiguous), and
    nothing else is. (A bear-off written whole, 3/off, may also be read as
    several dice, 3/1*/off, as gnubg reads it: the first test covers it.)"""
    dice = (max(a, b), min(a, b))
    rng = random.Random(seed)
    for _ in range(8):
        moves = random_moves(rng, position, dice)
        legal = reaches_a_legal_play(position, dice, moves) is not None
        try:
            parse_play(written(moves), position, dice)
            verdict = True
        except AmbiguousPlayError:
            verdict = True
        except IllegalPlayError:
            verdict = False
        if all(end != OFF for _, end in moves):
            assert verdict == legal, (position.id(), dice, moves)
        assert (play_from_steps(position, dice, moves) is not None) == legal, (position.id(), dice, moves)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), die=st.integers(1, 6))
def test_the_board_says_a_step_may_be_made_exactly_when_the_generator_makes_it(position, die):
    """Board.problem asks the generator: a step passes exactly when the rules
    allow it (the slow reference of tests/test_legal.py, written from the
    rules), and each refusal is worded from the fact the generator names."""
    allowed = set(reference_steps(position, die))
    me, opp = position.player, position.opponent
    for start in range(1, 26):
        end = max(start - die, OFF)
        reason = Board(position).problem(start, end, die)
        assert (reason == "") == ((start, end) in allowed), (position.id(), start, end, die, reason)
        refusal = step_refusal(me, opp, start, end, die)
        assert (refusal is None) == (reason == "")
        if refusal is Refusal.NO_CHECKER:
            assert not me[start] and reason.startswith("no checker")
        elif refusal is Refusal.HELD:
            assert opp[25 - end] >= 2 and "which the opponent holds" in reason
        elif refusal is Refusal.BAR_FIRST:
            assert me[BAR] and start != BAR and "on the bar" in reason
        elif refusal is Refusal.OUTSIDE_HOME:
            assert end == OFF and any(me[7:26]) and "outside the home board" in reason
        elif refusal is Refusal.HIGHER_CHECKER:
            assert end == OFF and die > start and any(me[start + 1:7]) and f"with a {die}" in reason
        else:
            assert refusal is None
