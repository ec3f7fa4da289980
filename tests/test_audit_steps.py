"""model.play_from_steps (and result_of_steps, its result alone), the audit's
judge of a recorded play, against legal_plays: it must return a play exactly
when the moves reach the result of a legal play, over gnubg's oracle sample
and random positions, and must not list the legal plays for a play that uses
every die."""
from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bgcli.core.judge as judge
import bgcli.match.plays as plays
from bgcli.errors import InvalidDiceError
from bgcli.core.position import BAR, Position
from bgcli.core.generator import legal_plays
from bgcli.match.records import Action, ActionKind
from bgcli.core.notation import play_text
from bgcli.core.judge import play_from_steps, play_key, result_of_steps
from test_legal import positions

from conftest import ORACLE as ORACLE_DIR, committed

ORACLE = ORACLE_DIR / "legal_sample.jsonl"


def oracle_queries() -> list[tuple[Position, tuple[int, int]]]:
    with committed(ORACLE).open() as f:
        return [(Position.from_id(r["position_id"]), tuple(r["dice"])) for r in map(json.loads, f)]


def random_moves(rng: random.Random, position: Position, dice: tuple[int, int]) -> list[tuple[int, int]]:
    """One to four die-steps from points the mover holds (or points next to
    them), some legal, most not."""
    held = [p for p in range(1, 26) if position.player[p]] or [1]
    moves = []
    for _ in range(rng.randint(1, 4)):
        start = rng.choice(held) if rng.random() < 0.8 else rng.randint(1, 25)
        moves.append((start, max(start - rng.choice(dice), 0)))
    return moves


def reaches_a_legal_play(position: Position, dice, moves) -> int | None:
    """The legal key the moves reach in some order, or None (the slow way)."""
    keys = {play.key for play in legal_plays(position, dice)}
    for order in itertools.permutations(moves):
        key = play_key(position, order)
        if key in keys:
            return key
    return None


def check(position: Position, dice, moves) -> None:
    got = play_from_steps(position, dice, moves)
    want = reaches_a_legal_play(position, dice, moves)
    assert (got is None) == (want is None), (position.id(), dice, moves, got)
    assert result_of_steps(position, dice, moves) == (got.result if got is not None else None)
    quick = judge.sides_after_steps(position.player, position.opponent, *dice, moves)
    if quick is not None:   # the short way says only what the long way says
        assert got is not None and quick == (got.result.player, got.result.opponent), (position.id(), dice, moves)
    if got is not None:
        assert got.key == want
        assert got.result == next(p for p in legal_plays(position, dice) if p.key == want).result


def test_every_legal_play_of_the_oracle_sample_is_itself():
    for position, dice in oracle_queries():
        for play in legal_plays(position, dice):
            moves = [(step.start, step.end) for step in play.steps]
            got = play_from_steps(position, dice, moves)
            assert got == play and got.key == play.key and got.result_id() == play.result_id(), (position.id(), dice, play)
            assert result_of_steps(position, dice, moves) == play.result


def test_the_short_way_settles_the_usual_plays_of_the_oracle_sample():
    """sides_after_steps settles every legal play that takes one step a die for
    every die of the roll, bear-offs included (as written in the play's
    order), with what result_of_steps gives; and nothing else."""
    settled = bearing_off = 0
    for position, dice in oracle_queries():
        for play in legal_plays(position, dice):
            moves = [(step.start, step.end) for step in play.steps]
            every_die = len(moves) == (4 if dice[0] == dice[1] else 2)
            quick = judge.sides_after_steps(position.player, position.opponent, *dice, moves)
            assert (quick is not None) == every_die, (position.id(), dice, moves)
            if quick is not None:
                settled += 1
                bearing_off += any(not end for _, end in moves)
                assert quick == (play.result.player, play.result.opponent)
                # and in the other order, when that order may be played
                again = judge.sides_after_steps(position.player, position.opponent, *dice, moves[::-1])
                assert again is None or again == quick
    assert settled > 10_000 and bearing_off > 500, (settled, bearing_off)


def test_the_short_way_of_a_bear_off_keeps_every_rule():
    """The bear-off rules on the sides' counts: all home first, a larger die
    only from the highest point, the bar first; what breaks one is left to
    the long way (None), which finds it is no legal play."""
    home = Position.from_id("7QYAAHZ3HQAAAA")   # every checker of the mover home
    cases = [
        (home, (4, 3), [(6, 2), (3, 0)], True),
        (home, (6, 5), [(6, 0), (5, 0)], True),
        (home, (6, 5), [(5, 0), (6, 0)], True),       # put in an order that may be played
        (Position.start(), (6, 5), [(6, 0), (6, 1)], False),   # checkers outside the home board
    ]
    for position, dice, moves, legal in cases:
        quick = judge.sides_after_steps(position.player, position.opponent, *dice, moves)
        assert (quick is not None) == legal, (position.id(), dice, moves)
        assert (result_of_steps(position, dice, moves) is not None) == (reaches_a_legal_play(position, dice, moves) is not None)
    # a larger die from a lower point while a higher one holds a checker
    player = [0] * 26
    player[6], player[2], player[1] = 1, 7, 7
    opponent = [0] * 26
    opponent[24] = 15
    position = Position(tuple(player), tuple(opponent))
    assert reaches_a_legal_play(position, (6, 5), [(2, 0), (1, 0)]) is None
    assert judge.sides_after_steps(position.player, position.opponent, 6, 5, [(2, 0), (1, 0)]) is None
    assert judge.sides_after_steps(position.player, position.opponent, 6, 5, [(6, 0), (2, 0)]) is not None
    # a checker on the bar: nothing bears off
    player[6], player[25] = 0, 1
    position = Position(tuple(player), tuple(opponent))
    assert judge.sides_after_steps(position.player, position.opponent, 3, 1, [(2, 0), (1, 0)]) is None


def test_random_moves_in_the_oracle_sample():
    rng = random.Random(10)
    for position, dice in oracle_queries()[::2]:
        for _ in range(12):
            check(position, dice, random_moves(rng, position, dice))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 6), st.integers(1, 6), st.randoms(use_true_random=False))
def test_random_moves_in_random_positions(position, a, b, rng):
    dice = (max(a, b), min(a, b))
    for play in legal_plays(position, dice):
        moves = [(step.start, step.end) for step in play.steps]
        assert play_from_steps(position, dice, moves) == play
        check(position, dice, list(reversed(moves)))
    for _ in range(6):
        check(position, dice, random_moves(rng, position, dice))


def test_a_play_of_every_die_needs_no_list_of_legal_plays(monkeypatch):
    start = Position.start()
    bar = Position(tuple(n + (i == BAR) - (i == 6) for i, n in enumerate(start.player)), start.opponent)
    cases = [(start, (6, 1), [(13, 7), (8, 7)]), (start, (6, 1), [(8, 7), (13, 7)]),
             (start, (3, 3), [(8, 5), (8, 5), (6, 3), (6, 3)]),
             (start, (2, 1), [(22, 21), (24, 22)]),            # an order that cannot be made is put right
             (start, (3, 3), [(5, 2), (8, 5), (13, 10), (10, 7)]),
             (bar, (4, 3), [(13, 9), (25, 22)])]               # the bar first
    wanted = [next(p for p in legal_plays(*case[:2]) if p.key == reaches_a_legal_play(*case)).result_id() for case in cases]

    def refused(*args):
        raise AssertionError("legal_plays was called")

    monkeypatch.setattr(judge, "legal_plays", refused)
    assert [play_from_steps(*case).result_id() for case in cases] == wanted
    assert [result_of_steps(*case).swap().id() for case in cases] == wanted
    # what the rules refuse is then looked up (and not found)
    monkeypatch.setattr(judge, "legal_plays", lambda *args: [])
    assert play_from_steps(bar, (4, 3), [(13, 9), (13, 10)]) is None      # a checker left on the bar
    assert play_from_steps(start, (6, 5), [(6, 0), (6, 1)]) is None       # bearing off with checkers outside
    assert play_from_steps(start, (6, 5), [(13, 7), (13, 7)]) is None     # a die the roll does not have


def test_fewer_dice_and_consolidated_moves_are_looked_up():
    start = Position.start()
    assert play_from_steps(start, (2, 1), [(24, 21)]).result == next(
        p for p in legal_plays(start, (2, 1)) if str(p) == "24/21").result   # str(play): the canonical text
    # only the 2 of this 42 can be played
    position = Position.from_id("7HZuAADv2wEAEA")
    plays = {str(p): p for p in legal_plays(position, (4, 2))}
    assert set(plays) == {"4/2", "3/1"}
    assert play_from_steps(position, (4, 2), [(4, 2)]) == plays["4/2"]
    assert play_from_steps(position, (4, 2), [(3, 1)]) == plays["3/1"]
    assert play_from_steps(position, (4, 2), [(6, 2)]) is None


def test_bad_dice_are_refused():
    with pytest.raises(InvalidDiceError):
        play_from_steps(Position.start(), (7, 1), [(13, 6)])
    with pytest.raises(InvalidDiceError):
        play_from_steps(Position.start(), (0, 1), [(13, 6)])


def python_sides(player, opponent, high, low, moves):
    """judge.sides_after_steps in Python alone (its _on_counts), the C accelerator's out of the way."""
    made = judge._on_counts(player, opponent, high, low, moves)
    return None if made is None else (made[0], made[1])


@pytest.mark.skipif(judge._sides_in_c is None, reason="the C accelerator is not built (BGCLI_PURE=1, no compiler)")
@settings(max_examples=600, deadline=None)
@given(position=positions(), high=st.integers(1, 6), low=st.integers(1, 6), seed=st.integers(0, 2**32),
       wild=st.lists(st.tuples(st.integers(-3, 28), st.integers(-3, 28)), min_size=0, max_size=5))
def test_sides_after_steps_in_c_is_the_python_judge(position, high, low, seed, wild):
    """The C accelerator's sides_after_steps against its owner, the Python judge (_on_counts):
    the same answer for steps made from the points the mover holds (legal or not), their
    reverse and sorted orders, and steps of any numbers at all."""
    high, low = max(high, low), min(high, low)
    rng = random.Random(seed)
    moves = random_moves(rng, position, (high, low))
    for tried in (moves, moves[::-1], sorted(moves, reverse=True), wild, tuple(moves)):
        want = python_sides(position.player, position.opponent, high, low, tried)
        assert judge._sides_in_c(position.player, position.opponent, high, low, tried) == want, (position.id(), high, low, tried)
        assert judge.sides_after_steps(position.player, position.opponent, high, low, tried) == want


def test_sides_after_steps_in_c_leaves_what_it_does_not_read_to_python():
    """Numbers beyond what C holds, sides of other lengths, steps that are not pairs: the Python judge answers."""
    if judge._sides_in_c is None:
        pytest.skip("the C accelerator is not built")
    start = Position.start()
    player, opponent = start.player, start.opponent
    assert judge._sides_in_c(player, opponent, 3, 1, [(8, 5), (6, 5)]) == python_sides(player, opponent, 3, 1, [(8, 5), (6, 5)])
    for odd in ([(10**30, 5), (6, 5)], [[8, 5], [6, 5]], [(8, 5), (6, 5, 4)]):
        assert judge._sides_in_c(player, opponent, 3, 1, odd) is NotImplemented
    assert judge._sides_in_c(player[:25], opponent, 3, 1, [(8, 5), (6, 5)]) is NotImplemented
    assert judge._sides_in_c(player, opponent, 7, 1, [(8, 1), (6, 5)]) is NotImplemented
    assert judge.sides_after_steps(player, opponent, 3, 1, [(10**30, 5), (6, 5)]) is None


def python_short_path(mine, theirs, dice, text, side):
    """plays.sides_after_play in Python alone, the C accelerator's mirror of it out of the way."""
    in_c = plays._play_in_c
    plays._play_in_c = None
    try:
        return plays.sides_after_play(mine, theirs, dice, text, side)
    finally:
        plays._play_in_c = in_c


def plain_text(rng: random.Random, moves) -> str:
    """Pairs as gnubg's .mat export writes them, with hit marks and blanks at random, some of them
    not in that spelling (a point of two digits, blanks around, another separator)."""
    words = [f"{start}/{end}" + ("*" if rng.random() < 0.2 else "") for start, end in moves]
    text = "".join(word + rng.choice([" ", " ", "  ", "\t", " \t"]) for word in words).rstrip(" \t")
    if rng.random() < 0.1:
        text = rng.choice([" ", "\t", "\n"]) + text if rng.random() < 0.5 else text + rng.choice([" ", "\n"])
    if rng.random() < 0.1 and text:
        cut = rng.randrange(len(text))
        text = text[:cut] + rng.choice(["0", "9", "2", "6", "/", "*", "-", "(2)", "(5)", "bar", "off", ",", "٣"]) + text[cut + 1:]
    return text


@pytest.mark.skipif(plays._play_in_c is None, reason="the C accelerator is not built (BGCLI_PURE=1, no compiler)")
@settings(max_examples=600, deadline=None)
@given(position=positions(), a=st.integers(1, 6), b=st.integers(1, 6), seed=st.integers(0, 2**32),
       side=st.integers(0, 1))
def test_sides_after_play_in_c_is_the_python_short_path(position, a, b, seed, side):
    """The C accelerator's sides_after_play against its owner, plays.sides_after_play in Python:
    where C answers, the Python answer, for every legal play of the roll written as its steps, as
    gnubg's .mat export writes it and as gnubg shows it (bar/20*/15, 6/2(2)), pairs covering several dice, random steps (legal or not) and texts a
    character off the .mat spelling; and it answers (not NotImplemented) every play the Python
    code settles from the plain spelling on the counts, so the audit's short path loses nothing."""
    rng = random.Random(seed)
    high, low = max(a, b), min(a, b)
    mine, theirs = position.player, position.opponent
    texts = []
    for play in legal_plays(position, (high, low)):
        if play.steps:
            texts.append(" ".join(f"{s.start}/{s.end}" for s in play.steps))
            texts.append(play_text(play, "mat"))
            texts.append(play_text(play, "gnubg"))
            texts.append(plain_text(rng, [(s.start, s.end) for s in play.steps]))
            whole = [(play.steps[0].start, play.steps[-1].end)]   # one pair for the whole play
            texts.append(plain_text(rng, whole))
    texts += [plain_text(rng, random_moves(rng, position, (high, low))) for _ in range(8)]
    texts += [plain_text(rng, [(rng.randint(-1, 27), rng.randint(-1, 27)) for _ in range(rng.randint(1, 6))])
              for _ in range(4)]
    for text in texts:
        want = python_short_path(mine, theirs, (a, b), text, side)
        got = plays._play_in_c(mine, theirs, (a, b), text, side)
        if got is NotImplemented:
            plain = text == text.strip() and (plays._PLAIN_PLAY(text) or plays._SHOWN_PLAY(text)) is not None
            assert not (plain and want is not None and len(plays.written_pairs(text, side)) <= 4
                        and judge.sides_after_steps(mine, theirs, high, low,
                                                    plays.split_steps(theirs, high, low, plays.written_pairs(text, side)))
                        is not None), (position.id(), (a, b), text)
        else:
            assert got == want, (position.id(), (a, b), text)
        assert plays.sides_after_play(mine, theirs, (a, b), text, side) == want


def test_sides_after_play_in_c_leaves_what_it_does_not_read_to_python():
    """No dice, dice out of range, a list for dice, a text not in the .mat spelling, a Korean
    or display spelling, blanks around: NotImplemented, and the Python code answers."""
    if plays._play_in_c is None:
        pytest.skip("the C accelerator is not built")
    start = Position.start()
    mine, theirs = start.player, start.opponent
    assert plays._play_in_c(mine, theirs, (3, 1), "8/5 6/5", 0) == python_short_path(mine, theirs, (3, 1), "8/5 6/5", 0)
    assert plays._play_in_c(mine, theirs, (1, 3), "6/5\t8/5*", 1) == python_short_path(mine, theirs, (3, 1), "8/5 6/5", 0)
    for dice, text in (((3, 1), " 8/5 6/5"), ((3, 1), "8/5 6/5 "), ((3, 1), "8/5(2)"), ((3, 1), "bar/22 6/5"),
                       ((3, 1), "08/5 6/5"), (None, "8/5 6/5"), ((7, 1), "8/1"), ([3, 1], "8/5 6/5"),
                       ((True, 1), "8/7 6/5"), ((3, 1), "8/3"), ((3, 1), ""), ((1, 1), "8/7 8/7 6/5 6/5 6/5")):
        assert plays._play_in_c(mine, theirs, dice, text, 0) is NotImplemented, (dice, text)
    assert plays._play_in_c(mine[:25], theirs, (3, 1), "8/5 6/5", 0) is NotImplemented
    assert plays.sides_after_play(mine, theirs, (3, 1), " 8/5 6/5", 0) == python_short_path(mine, theirs, (3, 1), "8/5 6/5", 0)


def python_run(actions, at, first, second, side, last_line, count, dances=False):
    """GameReplay.apply_all's run of ``count`` plays in turn from ``actions[at]``, each settled by
    sides_after_play in Python (None when one is not), and with ``dances`` each roll with no play
    as plays.settled_roll settles it: (sides, side, last line, over)."""
    sides = [first, second]
    over = False
    for action in actions[at:at + count]:
        assert action.kind in ((ActionKind.MOVE, ActionKind.DANCE) if dances else (ActionKind.MOVE,))
        assert action.side == side and not over
        if action.kind is ActionKind.DANCE:
            after = plays.settled_roll(sides[side], sides[1 - side], action, side)   # Python alone: no C in it
        else:
            after = python_short_path(sides[side], sides[1 - side], action.dice, action.play_text, side)
        if after is None:
            return None
        sides[side], sides[1 - side] = after
        last_line = max(last_line, action.line)
        side = 1 - side
        over = after[0][0] == 15 or after[1][0] == 15
    return sides[0], sides[1], side, last_line, over


def random_game(rng: random.Random, position: Position, length: int, dances: bool = False):
    """The sides at the start (first, then second on roll) and ``length`` actions of a random game from
    ``position``: each play a legal one written as its steps or as gnubg writes it, now and then one that is
    not (a wrong roll, another spelling, the wrong column, a cube action, a dance). With ``dances`` a roll
    with no play is written as a dance and an action that is not a play has no text (the dice audit's
    runs read dances); without, it is a play with no text. The C short paths' property tests share it."""
    board, side = position, rng.randint(0, 1)
    first, second = (board.player, board.opponent) if side == 0 else (board.opponent, board.player)
    actions, line = [], rng.randint(1, 50)
    for number in range(length):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays_of_roll = [p for p in legal_plays(board, (max(dice), min(dice))) if p.steps]
        odd = rng.random()
        kind, mover, text = ActionKind.MOVE, side, ""
        if plays_of_roll:
            play = rng.choice(plays_of_roll)
            text = rng.choice([" ".join(f"{s.start}/{s.end}" for s in play.steps), play_text(play, "mat")])
            board = play.result.swap()
        else:
            if dances:
                kind = ActionKind.DANCE
            board = board.swap()
        if odd < 0.03:
            kind = rng.choice([ActionKind.DANCE, ActionKind.DOUBLE, ActionKind.TAKE])
        elif odd < 0.06:
            mover = 1 - side
        elif odd < 0.07 and plays_of_roll:
            text = play_text(play, "gnubg")
        elif odd < 0.09:
            text = plain_text(rng, random_moves(rng, board, (max(dice), min(dice))))
        line += rng.randint(0, 2)
        if dances and kind is not ActionKind.MOVE:
            text = ""
        actions.append(Action(line, 1, number, mover, kind, dice, text))
        side = 1 - side
    return first, second, actions


@pytest.mark.skipif(plays.sides_after_plays is None, reason="the C accelerator is not built (BGCLI_PURE=1, no compiler)")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), seed=st.integers(0, 2**32), length=st.integers(0, 60), start=st.sampled_from([0, 0, 0, 1, 3]),
       dances=st.booleans())
def test_sides_after_plays_in_c_is_the_run_of_the_python_short_path(position, seed, length, start, dances):
    """The C accelerator's sides_after_plays against the run it mirrors (apply_all's plays in
    turn, each settled by sides_after_play, and given the dance kind the rolls with no play,
    settled by plays.settled_roll): random games from a random position, each play a
    legal one written as its steps or as gnubg writes it, now and then one that is not (a wrong
    roll, another spelling, the wrong column, a cube action, a dance where a play was legal, a
    dance the counts cannot prove): the same sides, side on roll, last line and end of the game
    for the plays it settles, and it stops only at a play or roll with no play the short path
    leaves to Python, an action of another kind or side, or the game's end."""
    rng = random.Random(seed)
    first, second, actions = random_game(rng, position, length, dances=dances)
    actions_in = rng.choice([actions, tuple(actions)])
    at = min(start, len(actions))
    last_line = rng.randint(0, 60)
    side = actions[at].side if at < len(actions) else 0
    kinds = (ActionKind.MOVE, ActionKind.DANCE) if dances else (ActionKind.MOVE,)
    done, *got = plays.sides_after_plays(actions_in, at, first, second, side, last_line, *kinds)
    if done:
        assert tuple(got) == python_run(actions, at, first, second, side, last_line, done, dances), (position.id(), seed)
    else:
        assert got == [first, second, side, last_line, False]
    # it stops only where it must
    stop = at + done
    if stop < len(actions) and not got[4]:
        action = actions[stop]
        mine, theirs = (got[0], got[1]) if got[2] == 0 else (got[1], got[0])
        assert (action.kind not in kinds or action.side != got[2]
                or (action.kind is ActionKind.MOVE
                    and plays._play_in_c(mine, theirs, action.dice, action.play_text, action.side) is NotImplemented)
                or (action.kind is ActionKind.DANCE and plays.settled_roll(mine, theirs, action, got[2]) is None))
