"""Fenced mirrors against their owners, on generated input.

A fast path is allowed only as a copy of the rule's owner that says nothing
the owner would not say: where it answers, its answer is the owner's; where
it cannot tell, it answers None and the owner decides. Each test here makes
positions, plays and texts at random (hypothesis) and asks both. The mirrors
name these tests in a ``# Fenced mirror of ...`` comment (tests/test_layout.py
checks that every test so named exists)."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bgcli.core.ids as ids
from bgcli.core.generator import legal_plays
from bgcli.core.notation import play_text
from bgcli.core.rules import Rules
from bgcli.core.state import MatchState
from bgcli.match.game import _legal_written_play
from bgcli.match.plays import judge_play, sides_after_play
from test_audit_steps import random_moves
from test_legal import positions

SPACE = st.sampled_from(["", " ", "  ", "\t", "\n", " \r\n", "\f", "\u00a0"])
MATCH_STATES = st.builds(
    MatchState, cube=st.sampled_from([1, 2, 4, 64]), cube_owner=st.integers(-1, 1), on_roll=st.integers(0, 1),
    crawford=st.booleans(), turn=st.integers(0, 1),
    rules=st.sampled_from([Rules(match_length=n) for n in (0, 1, 5, 7, 25)]),
    score=st.tuples(st.integers(0, 4), st.integers(0, 4)), dice=st.sampled_from([(0, 0), (3, 1), (6, 6)]))


def by_the_grammar(monkeypatch, text):
    """What ``ids._read`` makes of ``text`` with the mirror out of the way, or the error's text."""
    with monkeypatch.context() as m:
        m.setattr(ids, "_read_id_or_start", lambda text: None)
        try:
            return ids._read(text)
        except Exception as exc:   # the error the grammar path words
            return type(exc), str(exc)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(position=positions(), match=MATCH_STATES, form=st.sampled_from(["start", "id", "gnubg", "garbled"]),
       lead=SPACE, tail=SPACE, cut=st.integers(0, 20))
def test_an_id_or_start_reads_as_the_grammar_reads_it(monkeypatch, position, match, form, lead, tail, cut):
    if form == "start":
        body = "start"
    elif form == "id":
        body = position.id()
    else:
        try:
            body = f"{position.id()}:{ids.match_id(match)}"
        except Exception:   # a state the Match ID cannot hold: an ID alone
            body = position.id()
        if form == "garbled":
            body = body[:cut] + body[cut + 1:]
    text = lead + body + tail
    mirror = ids._read_id_or_start(text)
    if mirror is not None:   # where the mirror answers, it answers as the grammar does
        assert mirror == by_the_grammar(monkeypatch, text), text


def written(moves) -> str:
    return " ".join(f"{start}/{end}" for start, end in moves)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), a=st.integers(1, 6), b=st.integers(1, 6), rng=st.randoms(use_true_random=False),
       style=st.sampled_from(["gnubg", "mat"]))
def test_the_audits_short_path_is_the_judge_on_generated_plays(position, a, b, rng, style):
    """sides_after_play (the audit's short path) gives the sides the judge
    gives for every legal play of the roll, in the generator's text and as
    steps, and for random steps it answers only where the judge finds no
    problem, with the judge's position."""
    dice = (a, b)
    high, low = max(a, b), min(a, b)
    texts = []
    for play in legal_plays(position, (high, low)):
        if play.steps:
            steps = written((step.start, step.end) for step in play.steps)
            texts += [(play_text(play, style), play), (steps, play)]
    texts += [(written(random_moves(rng, position, (high, low))), None) for _ in range(6)]
    for text, play in texts:
        mirror = sides_after_play(position.player, position.opponent, dice, text, 0)
        judged = judge_play(position, (high, low), text, 0, False)
        if play is not None:
            assert mirror == (play.result.player, play.result.opponent), (position.id(), dice, text)
        if mirror is not None:
            assert not judged.problems and judged.after is not None, (position.id(), dice, text)
            assert mirror == (judged.after.player, judged.after.opponent), (position.id(), dice, text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), a=st.integers(1, 6), b=st.integers(1, 6), side=st.integers(0, 1),
       seed=st.integers(0, 1000))
def test_the_replays_short_path_is_the_judge_on_generated_plays(position, a, b, side, seed):
    """_legal_written_play (the short path of a replay with events) makes the
    play, text and board the judge makes, for the legal plays of the roll and
    random steps, seen from either column; it may leave a text to the long
    way (None), but never a legal play written as its steps."""
    rng = random.Random(seed)
    dice = (max(a, b), min(a, b))
    board = position if side == 0 else position.swap()   # player 0's view, as the replay keeps it
    texts = [(written((s.start, s.end) for s in play.steps), True) for play in legal_plays(position, dice) if play.steps]
    texts += [(written(random_moves(rng, position, dice)), False) for _ in range(6)]
    for text, legal in texts:
        mirror = _legal_written_play(board, side, dice, text)
        judged = judge_play(position, dice, text, side, True)
        if mirror is None:
            assert not legal, (position.id(), dice, text)
            continue
        before, play, shown, after = mirror
        assert not judged.problems and before == position, (position.id(), dice, text)
        assert (play, shown, play.result) == (judged.legal, judged.shown, judged.after), (position.id(), dice, text)
        assert after == (play.result if side == 0 else play.result.swap())


def _joined(moves: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The moves with a chain of two (13/11 11/5) written as one hop (13/5), where there is one."""
    for i, (a, b) in enumerate(moves):
        for j, (c, d) in enumerate(moves):
            if i != j and b == c:
                return [m for k, m in enumerate(moves) if k not in (i, j)] + [(a, d)]
    return moves


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), a=st.integers(1, 6), b=st.integers(1, 6), side=st.integers(0, 1),
       seed=st.integers(0, 1000))
def test_the_rolls_a_play_fits_are_parse_plays_on_generated_plays(position, a, b, side, seed):
    """plays_of_rolls (which rolls a written play is a legal play of: the
    diagnosis of a wrong roll, a repair's candidates) gives, for each of the
    21 rolls in their order, what parse_play of that roll gives (the same
    play, or no play): on the legal plays of a roll written in every style,
    the same with a hop left out, its last end moved by one, two hops
    written as one, and random steps."""
    from bgcli.core.notation import parse_play, plays_of_rolls
    from bgcli.core.position import ROLLS
    from bgcli.errors import BgcliError

    rng = random.Random(seed)
    dice = (max(a, b), min(a, b))
    texts = []
    for play in rng.sample(legal_plays(position, dice), min(3, len(legal_plays(position, dice)))):
        steps = [(s.start, s.end) for s in play.steps]
        texts += [play_text(play, "gnubg", side=side), play_text(play, "mat", side=side), written(steps),
                  written(_joined(steps))]
        if len(steps) > 1:
            texts.append(written(steps[:-1]))
            start, end = steps[-1]
            texts.append(written(steps[:-1] + [(start, max(0, end - rng.choice([-1, 1])))]))
    texts += [written(random_moves(rng, position, dice)) for _ in range(3)] + ["", "13/x1"]
    rolls = sorted(set(ROLLS.values()), reverse=rng.random() < 0.5)   # the 21, either order
    for text in texts:
        expected = []
        for roll in rolls:
            try:
                expected.append((roll, parse_play(text, position, roll, side=side)))
            except BgcliError:
                pass
        got = list(plays_of_rolls(text, position, rolls, side=side))
        assert [(r, p.result, p.steps) for r, p in got] == [(r, p.result, p.steps) for r, p in expected], \
            (position.id(), text, side)
