"""The dice audit's short path (bgcli.judging.dice.DiceTally.run_of_plays): the runs of plays in
turn settled at once by the C accelerator's dice_after_plays, each roll's facts from its
roll_chances, against what they mirror:

- dice_after_plays against the run of the audit's Python short path (plays.sides_after_play for a
  play, judge.dances for a roll with no play) and dice.roll_chances in the position before each
  roll, on generated games;
- count_rolls (the counts of a run's rolls) against DiceTally._rolled, on generated rolls;
- dice_after_plays given the sides after a roll Python settled (plays.settled_roll, where the C run
  stops) counting that roll as DiceTally._rolled would, and going on from those sides;
- the tallies of every file in tests/data with and without the short path, unit for unit;
- ``bgcli dice --json`` byte for byte with and without the accelerator (BGCLI_PURE=1).
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from array import array
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bgcli.judging.dice as dice
import bgcli.match.plays as plays
from bgcli.core.judge import dances
from bgcli.core.position import Position, accelerator
from bgcli.core.rules import Rules
from bgcli.formats import mat
from bgcli.match.events import EventKind, GameStart, MatchStart, Problem, ProblemKind
from bgcli.match.replay import replay_match
from bgcli.match.visitor import MatchVisitor
from bgcli.match.records import Action, ActionKind, GameRecord, MatchRecord
from bgcli.scale.archive import find_files
from bgcli.scale.dice import tally_file
from conftest import ROOT
from test_audit_steps import python_short_path, random_game
from test_legal import positions

in_c = pytest.mark.skipif(dice.dice_after_plays is None, reason="the C accelerator is not built (BGCLI_PURE=1, no compiler)")


def python_run(actions, at, first, second, side, last_line, count, opening=False):
    """The run of ``count`` plays and rolls with no play from ``actions[at]`` as the audit's Python
    short path settles them, with each roll's facts: (sides, side, last line, over, facts);
    ``opening``: the first roll is a game's first, its facts marked so (the mover's bit 2) with no chances."""
    sides = [first, second]
    over = False
    facts = []
    for action in actions[at:at + count]:
        assert action.side == side and not over
        a, b = action.dice
        if opening and not facts:
            facts += [side | 2, a, b] + [0] * 8
        else:
            facts += [side, a, b, *dice.roll_chances(Position(sides[side], sides[1 - side]), (a, b))]
        if action.kind is ActionKind.DANCE:
            assert not action.play_text and dances(sides[side], sides[1 - side], max(a, b), min(a, b))
        else:
            assert action.kind is ActionKind.MOVE
            after = python_short_path(sides[side], sides[1 - side], action.dice, action.play_text, side)
            assert after is not None
            sides[side], sides[1 - side] = after
        last_line = max(last_line, action.line)
        side = 1 - side
        over = sides[0][0] == 15 or sides[1][0] == 15
    return sides[0], sides[1], side, last_line, over, bytes(facts)


@in_c
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), seed=st.integers(0, 2**32), length=st.integers(0, 60), start=st.sampled_from([0, 0, 0, 1, 3]),
       opening=st.sampled_from([None, False, True]))
def test_the_run_of_plays_in_c_is_the_python_short_path_and_chances(position, seed, length, start, opening):
    """dice_after_plays against the run it mirrors: random games from a random position, each play a
    legal one written as its steps or as gnubg writes it, a roll with no play written as a dance,
    now and then something it must leave to Python (a wrong roll, another spelling, the wrong
    column, a cube action, a dance where a play was legal, a dance the counts cannot prove): the
    same sides, side on roll, last line, end of the game and facts of each roll for what it
    settles (the first a game's first roll where ``opening`` is true, None: not said), and it
    stops only where the audit's C short path (sides_after_plays) would stop."""
    rng = random.Random(seed)
    first, second, actions = random_game(rng, position, length, dances=True)
    actions_in = rng.choice([actions, tuple(actions)])
    at = min(start, len(actions))
    last_line = rng.randint(0, 60)
    side = actions[at].side if at < len(actions) else 0
    said = () if opening is None else (opening,)
    done, *got = dice.dice_after_plays(actions_in, at, first, second, side, last_line, ActionKind.MOVE, ActionKind.DANCE,
                                       *said)
    if done:
        assert tuple(got) == python_run(actions, at, first, second, side, last_line, done, bool(opening)), \
            (position.id(), seed)
    else:
        assert got == [first, second, side, last_line, False, b""]
    stop = at + done
    if stop < len(actions) and not got[4]:   # it stops only where it must
        action = actions[stop]
        mine, theirs = (got[0], got[1]) if got[2] == 0 else (got[1], got[0])
        high, low = max(action.dice), min(action.dice)
        assert (action.kind not in (ActionKind.MOVE, ActionKind.DANCE) or action.side != got[2]
                or (action.kind is ActionKind.MOVE   # a play the audit's C short path leaves to Python
                    and plays._play_in_c(mine, theirs, action.dice, action.play_text, action.side) is NotImplemented)
                or (action.kind is ActionKind.DANCE and not dances(mine, theirs, high, low)))


def test_the_run_of_plays_in_c_refuses_what_it_does_not_read():
    if dice.dice_after_plays is None:
        pytest.skip("the C accelerator is not built")
    start = Position.start()
    with pytest.raises(TypeError):
        dice.dice_after_plays([], 0, start.player, start.opponent, 0, 0, ActionKind.MOVE)
    play = Action(1, 1, 1, 0, ActionKind.MOVE, (3, 1), "8/5 6/5")
    for first, second, side, at in ((start.player[:25], start.opponent, 0, 0), (start.player, start.opponent, 2, 0),
                                    ((16,) + start.player[1:], start.opponent, 0, 0), (start.player, start.opponent, 0, 1)):
        assert dice.dice_after_plays([play], at, first, second, side, 0, ActionKind.MOVE, ActionKind.DANCE) == \
            (0, first, second, side, 0, False, b"")


def tallies(paths: list[str]) -> list[dict]:
    out = []
    for path in paths:
        try:
            out.append({"file": path, "units": [unit.to_dict() for unit in tally_file(path)]})
        except Exception as exc:   # an unreadable file: the same error both ways
            out.append({"file": path, "error": f"{type(exc).__name__}: {exc}"})
    return out


@in_c
def test_the_run_of_plays_tallies_what_the_events_tally(monkeypatch):
    """Every match file of tests/data (every format bgcli reads) tallied with the short path and
    with events alone (the C run switched off): the same counts, unit for unit; with the short
    path, most rolls are counted without an event, and no event but a roll's is made."""
    paths = sorted(find_files([str(ROOT / "tests" / "data")]))
    seen = {True: Counter(), False: Counter()}
    event = dice.DiceTally.event

    def counted(self, e):
        seen[self.run_of_plays is not None][e.kind] += 1
        event(self, e)

    monkeypatch.setattr(dice.DiceTally, "event", counted)
    with_c = tallies(paths)
    monkeypatch.setattr(dice, "dice_after_plays", None)
    monkeypatch.setattr(dice, "chances_in_c", None)
    assert tallies(paths) == with_c
    units = [unit for t in with_c for unit in t.get("units", ())]
    rolls = sum(sum(unit["kinds"]) + sum(unit["opening"]) for unit in units)
    assert len(units) > 100
    assert set(seen[True]) | set(seen[False]) == {EventKind.MOVE, EventKind.ROLL}   # files with doubles, takes, wins
    assert seen[True][EventKind.MOVE] < rolls / 5 < seen[False][EventKind.MOVE]


@in_c
def test_the_dice_report_is_the_same_without_the_accelerator():
    """``bgcli dice --json`` of tests/data, byte for byte, with the C accelerator and with BGCLI_PURE=1."""
    pytest.importorskip("scipy.stats")
    folders = [str(ROOT / "tests" / "data" / name) for name in ("oracle/selfplay", "corpus", "gammonview", "matchfiles")]

    def report(pure: str) -> bytes:
        env = {**os.environ, "BGCLI_PURE": pure}
        done = subprocess.run([sys.executable, "-m", "bgcli", "dice", "--json", *folders], env=env, capture_output=True,
                              cwd=ROOT, timeout=600)
        assert done.returncode in (0, 1, 2), done.stderr
        return done.stdout

    with_c = report("0")
    assert b'"rolls"' in with_c
    assert report("1") == with_c


def fresh_tally(state: list[int], written: list[int]) -> dice.DiceTally:
    """A tally in the middle of a game of a match, with this state of its sequence counts."""
    tally = dice.DiceTally("generated")
    tally.begin_match(MatchStart(1, 0, ("a", "b"), Rules(), {}, "generated"))
    tally.begin_game(GameStart(1, 1, 1, (0, 0), False))
    tally._first = False
    tally._state[:] = array("q", [*state, *written])   # in place: the C run reads the tally's own (DiceTally._run)
    return tally


def counted(tally: dice.DiceTally) -> tuple:
    """What a tally has counted: both players' counts, its sequence state, written orders and the kinds
    of each game (its marks and the match's fingerprint)."""
    return ([u.to_dict() for u in tally.finish()], tally._state.tolist(), [bytes(game) for game in tally._games])


# A DiceTally's state as the C runs take it (the sequence state, then five flags) and its written orders of both
# players: one strategy for the three tests that start a tally anywhere
TALLY_STATES = st.tuples(st.integers(-1, 20), *[st.integers(0, 1)] * 5)
WRITTEN_ORDERS = st.tuples(st.integers(0, 50), st.integers(0, 50))


@st.composite
def roll_facts(draw) -> tuple[int, ...]:
    """One roll's facts as dice_after_plays gives them: the mover, the dice as written, four chances (each
    0, or a count in 36 with whether the roll made it); now and then a game's first roll (the mover's
    bit 2, no chances)."""
    if draw(st.integers(0, 5)) == 0:
        return (draw(st.integers(0, 1)) | 2, draw(st.integers(1, 6)), draw(st.integers(1, 6)), *[0] * 8)
    chances = []
    for _ in range(4):
        count = draw(st.sampled_from([0, 0, 1, 11, 17, 20, 27, 35, 36]))
        chances += [count, draw(st.integers(0, 1)) if count else 0]
    return (draw(st.integers(0, 1)), draw(st.integers(1, 6)), draw(st.integers(1, 6)), *chances)


@in_c
@settings(max_examples=300, deadline=None)
@given(rolls=st.lists(roll_facts(), max_size=40),
       state=TALLY_STATES, written=WRITTEN_ORDERS)
def test_the_rolls_counted_in_c_are_the_python_counts(rolls, state, written):
    """count_rolls against its owners, DiceTally._rolled (DiceTally._opening for a game's first roll)
    called for each roll in turn: the same counts of both players, sequence state, written orders and
    kinds of the game."""
    python, in_c_ = fresh_tally(list(state), list(written)), fresh_tally(list(state), list(written))
    for facts in rolls:
        if facts[0] & 2:
            python._opening(facts[0] & 1, facts[1], facts[2])
        else:
            python._rolled(facts[0], facts[1], facts[2], facts[3:])
    in_c_._games[-1] += accelerator.count_rolls(bytes(b for facts in rolls for b in facts), in_c_._state,
                                                in_c_._counts)
    assert counted(in_c_) == counted(python)


@in_c
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), seed=st.integers(0, 2**32), length=st.integers(0, 60), opening=st.booleans(),
       declines=st.booleans())
def test_the_tallys_run_of_plays_is_the_audits_short_path_with_chances(position, seed, length, opening, declines):
    """DiceTally's run of plays (the C accelerator's dice_run: dice_after_plays, and where it stops
    plays.settled_roll, the step the audit's GameReplay.apply_all takes in Python) against the audit's
    Python short path on generated games: the same sides, side on roll, last line and end of the game,
    the counts DiceTally._rolled makes of each roll's roll_chances (DiceTally._opening of the first,
    from a game's first roll), and it stops only where the audit's short path stops too; ``declines``:
    settled_roll answers sides the C run does not read (lists), so it stops there, the roll not counted
    (the replay's events count it)."""
    asked = []

    def declining(mine, theirs, action, side):
        asked.append(action)
        after = plays.settled_roll(mine, theirs, action, side)
        return None if after is None else [after[0], after[1]]

    rng = random.Random(seed)
    first, second, actions = random_game(rng, position, length, dances=True)
    last_line = rng.randint(0, 60)
    side = actions[0].side if actions else 0
    tally, python = fresh_tally([-1, 0, 0, 0, 0, 0], [0, 0]), fresh_tally([-1, 0, 0, 0, 0, 0], [0, 0])
    tally._first = python._first = opening
    if declines:
        tally._run[6] = declining
    assert tally.run_of_plays is not None
    done, *got = tally.run_of_plays(actions, 0, first, second, side, last_line, ActionKind.MOVE)
    *expected, facts = python_run(actions, 0, first, second, side, last_line, done)
    assert got == expected, (position.id(), seed)
    for at in range(0, len(facts), 11):
        if python._first:
            python._opening(facts[at], facts[at + 1], facts[at + 2])
        else:
            python._rolled(facts[at], facts[at + 1], facts[at + 2], facts[at + 3:at + 11])
    assert tally._first == python._first
    assert counted(tally) == counted(python)
    if done < len(actions) and not got[4]:   # it stops only where it must
        action = actions[done]
        mine, theirs = (got[0], got[1]) if got[2] == 0 else (got[1], got[0])
        assert (action.kind not in (ActionKind.MOVE, ActionKind.DANCE) or action.side != got[2]
                or plays.settled_roll(mine, theirs, action, got[2]) is None or asked and asked[-1] is action)


@in_c
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), seed=st.integers(0, 2**32), length=st.integers(0, 60), opening=st.booleans(),
       state=TALLY_STATES, written=WRITTEN_ORDERS)
def test_the_run_of_plays_in_c_counts_its_rolls_as_the_python_tally(position, seed, length, opening, state, written):
    """dice_after_plays given a tally (DiceTally's state, counts, written orders and the game's kinds)
    against its owners: the same run as without it, and each roll of the facts it gives without it
    counted by DiceTally._rolled (DiceTally._opening for a game's first roll) from any state: the same
    counts of both players, sequence state, written orders and kinds of the game; no facts answered."""
    rng = random.Random(seed)
    first, second, actions = random_game(rng, position, length, dances=True)
    side = actions[0].side if actions else 0
    python, in_c_ = fresh_tally(list(state), list(written)), fresh_tally(list(state), list(written))
    in_c_._games[-1] += b"\x05"   # kinds of the game before the run stay
    python._games[-1] += b"\x05"
    done, *got, facts = dice.dice_after_plays(actions, 0, first, second, side, 0, ActionKind.MOVE, ActionKind.DANCE,
                                              opening, 0)
    for at in range(0, len(facts), 11):
        if facts[at] & 2:
            python._opening(facts[at] & 1, facts[at + 1], facts[at + 2])
        else:
            python._rolled(facts[at], facts[at + 1], facts[at + 2], facts[at + 3:at + 11])
    counting = dice.dice_after_plays(actions, 0, first, second, side, 0, ActionKind.MOVE, ActionKind.DANCE, opening, 0,
                                     in_c_._state, in_c_._counts, in_c_._games[-1])
    assert counting == (done, *got, b"")
    assert counted(in_c_) == counted(python)


@in_c
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), seed=st.integers(0, 2**32), length=st.integers(1, 40), opening=st.booleans(),
       state=TALLY_STATES, written=WRITTEN_ORDERS)
def test_a_roll_python_settled_is_counted_in_the_next_run(position, seed, length, opening, state, written):
    """dice_after_plays given ``settled``, the sides after its first action as Python settled it
    (plays.settled_roll, where the C run stops), against its owners: that roll counted by
    DiceTally._rolled with dice.roll_chances in the position before it (DiceTally._opening for a
    game's first roll), then the run from the sides given: the same run, counts, state, written
    orders and kinds. The play's text is not read again (one the C run cannot read is settled so);
    sides that are not a position's are not counted (Python counts that roll)."""
    rng = random.Random(seed)
    first, second, actions = random_game(rng, position, length, dances=True)
    action = actions[0]
    side = action.side
    mine, theirs = (first, second) if side == 0 else (second, first)
    after = plays.settled_roll(mine, theirs, action, side)
    if after is None or action.kind not in (ActionKind.MOVE, ActionKind.DANCE):
        return
    if action.kind is ActionKind.MOVE:
        actions[0] = action._replace(play_text=rng.choice(["?", "8/5(9)", action.play_text]))   # not read again
    python, in_c_ = fresh_tally(list(state), list(written)), fresh_tally(list(state), list(written))
    a, b = action.dice
    if opening:
        python._opening(side, a, b)
    else:
        python._rolled(side, a, b, dice.roll_chances(Position(mine, theirs), (a, b)))
    after_first, after_second = after if side == 0 else (after[1], after[0])
    over = after[0][0] == 15 or after[1][0] == 15
    done, *rest = (0, after_first, after_second, 1 - side, max(0, action.line), over, b"") if over else \
        dice.dice_after_plays(actions, 1, after_first, after_second, 1 - side, max(0, action.line), ActionKind.MOVE,
                              ActionKind.DANCE, False, 0, python._state, python._counts, python._games[-1])
    got = dice.dice_after_plays(actions, 0, first, second, side, 0, ActionKind.MOVE, ActionKind.DANCE, opening, 0,
                                in_c_._state, in_c_._counts, in_c_._games[-1], after)
    assert got == (done + 1, *rest), (position.id(), seed)
    assert counted(in_c_) == counted(python)
    unread = fresh_tally(list(state), list(written))
    for bad in ((after[0], after[1][:25]), (after[0],), [after[0], after[1]], ((16,) + after[0][1:], after[1])):
        assert dice.dice_after_plays(actions, 0, first, second, side, 0, ActionKind.MOVE, ActionKind.DANCE, opening, 0,
                                     unread._state, unread._counts, unread._games[-1], bad) == (0, first, second, side, 0, False, b"")
    assert counted(unread) == counted(fresh_tally(list(state), list(written)))


@in_c
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), seed=st.integers(0, 2**32), length=st.integers(0, 40))
def test_a_run_given_the_sides_it_answered_is_a_run_given_their_copies(position, seed, length):
    """dice_after_plays keeps the counts of the sides it last answered or read (a run that goes on is
    given the same tuples, whose counts it does not read again): a game replayed run after run from
    the tuples it answers, stepping over what stops it with the sides given as the audit's short path
    leaves them, answers what the same calls answer given equal copies of the sides, and a copy
    that differs is read (a run given other sides than those it answered starts from those)."""
    rng = random.Random(seed)
    first, second, actions = random_game(rng, position, length, dances=True)
    run = (ActionKind.MOVE, ActionKind.DANCE, False, 0)
    at, side, held, copied = 0, actions[0].side if actions else 0, (first, second), (first, second)
    while at < len(actions):
        got = dice.dice_after_plays(actions, at, *held, side, 0, *run)
        again = dice.dice_after_plays(actions, at, tuple(list(copied[0])), tuple(list(copied[1])), side, 0, *run)
        assert got == again, (position.id(), seed, at)
        done, first, second, side = got[:4]
        held = (first, second) if done else held
        copied = (tuple(first), tuple(second)) if done else copied
        at += max(done, 1)   # past what stopped it, from the same sides
        if got[5]:
            break
    other = Position.start()
    if actions and held[0] != other.player:
        action = Action(1, 1, 1, 0, ActionKind.MOVE, (3, 1), "8/5 6/5")
        dice.dice_after_plays([action], 0, *held, 0, 0, *run)   # held: the sides it read
        assert dice.dice_after_plays([action], 0, other.player, other.opponent, 0, 0, *run) == \
            dice.dice_after_plays([action], 0, tuple(other.player), tuple(other.opponent), 0, 0, *run)


def test_count_rolls_refuses_what_it_does_not_read():
    if accelerator is None:
        pytest.skip("the C accelerator is not built")
    tally = fresh_tally([-1, 0, 0, 0, 0, 0], [0, 0])
    state, counts = tally._state, tally._counts
    good = bytes([0, 3, 1] + [0] * 8)
    with pytest.raises(TypeError):
        accelerator.count_rolls(good[:5], state, counts)
    for facts, first in ((bytes([4, 3, 1] + [0] * 8), -1), (bytes([0, 7, 1] + [0] * 8), -1), (good, 21),
                         (bytes([0, 3, 1, 37] + [0] * 7), -1)):
        state[0] = first
        with pytest.raises(ValueError):
            accelerator.count_rolls(facts, state, counts)
    state[0] = -1
    assert not any(counts) and state.tolist() == [-1, 0, 0, 0, 0, 0, 0, 0]   # nothing counted from facts it refused
    for bad_state, bad_counts in (([-1, 0, 0, 0, 0, 0, 0, 0], counts), (array("l", state), counts),
                                  (state[:7], counts), (state, counts[:-1]), (state, counts + array("q", [0])),
                                  (state, counts.tolist()), (state, counts.tobytes()), (counts, state)):
        with pytest.raises(TypeError):   # not a state of 8 ints and a match's counts, each an array('q')
            accelerator.count_rolls(good, bad_state, bad_counts)
    start, play = Position.start(), [Action(1, 1, 1, 0, ActionKind.MOVE, (3, 1), "8/5 6/5")]
    run = (play, 0, start.player, start.opponent, 0, 0, ActionKind.MOVE, ActionKind.DANCE, False, 0)
    for bad_state, bad_counts, kinds in ((state, counts[:-1], bytearray()), (state.tolist(), counts, bytearray()),
                                         (state, counts, b"")):
        with pytest.raises(TypeError):   # dice_after_plays' tally: what count_rolls reads, and a bytearray of kinds
            dice.dice_after_plays(*run, bad_state, bad_counts, kinds)
    with pytest.raises(TypeError):   # the state, the counts and the kinds go together
        dice.dice_after_plays(*run, state, counts)
    state[0] = 21
    with pytest.raises(ValueError):
        dice.dice_after_plays(*run, state, counts, bytearray())
    assert not any(counts) and state.tolist() == [21, 0, 0, 0, 0, 0, 0, 0]


class _Offered(MatchVisitor):
    """A visitor with a run of plays that settles nothing: it notes the game's first rolls the replay
    offers it (the long way then replays them) and the problems reported."""

    roll_events_only = True

    def __init__(self) -> None:
        self.first = False
        self.offered: list[int] = []
        self.openings: list[int] = []
        self.problems: list[Problem] = []
        self.run_of_plays = self._run

    def _run(self, actions, at, first, second, side, last_line, move):
        if self.first:
            self.offered.append(actions[at].line)
        return 0, first, second, side, last_line, False

    def begin_game(self, game) -> None:
        self.first = True

    def event(self, event) -> None:
        if self.first and event.kind is EventKind.MOVE:
            self.openings.append(event.line)
            self.first = False

    def problem(self, problem: Problem) -> None:
        self.problems.append(problem)


def test_the_replay_offers_a_run_only_openings_without_a_problem_of_the_opening():
    """GameReplay.plain_opening: a game's first roll is offered to a visitor's run of plays only where
    the long way finds no problem of the opening in it (a double; where White rolls first, the other
    player's roll); the others are offered, and they are most openings."""
    source = (ROOT / "tests" / "data" / "oracle" / "selfplay" / "sp05001_3pt.mat").read_text()
    games = source.split(" Game ")
    # the second game opens with a double (33: a legal play of it), which is rolled again in these rules
    games[2] = games[2].replace("  1) 31: 8/5 6/5 ", "  1) 33: 8/5(2) 6/3(2) ", 1)
    assert games[2] != source.split(" Game ")[2]
    text = " Game ".join(games)
    for rules in (Rules(match_length=3), Rules(match_length=3, white_first=True)):
        visitor = _Offered()
        for record in mat.iter_matches(text.splitlines(keepends=True)):
            replay_match(record, 1, rules, visitor=visitor)
        opening_problems = {p.line for p in visitor.problems
                            if p.kind in (ProblemKind.DICE, ProblemKind.TURN) and p.line in visitor.openings}
        assert opening_problems, rules   # a double opening, or the player who is not White first
        assert not opening_problems & set(visitor.offered), rules
        assert len(visitor.offered) + len(opening_problems) == len(visitor.openings), rules


class _Judging(dice.DiceTally):
    """The dice tally as if it read the judgement (MatchVisitor.reads_judgement): every check run,
    and each roll event it counts kept (the position before it, its mover, kind and dice)."""

    def __init__(self, path: str, judges: bool) -> None:
        super().__init__(path)
        self.reads_judgement = judges
        self.rolls: list[tuple] = []

    def event(self, event) -> None:
        self.rolls.append((event.kind, event.side, event.dice, event.before.position))
        super().event(event)


def _judged_and_not(replay) -> tuple:
    """What the tally counts and is told with the judgement checks left out, and with them."""
    out = []
    for judges in (False, True):
        tally = _Judging("generated", judges)
        replay(tally)
        out.append(([unit.to_dict() for unit in tally.finish()], tally.rolls))
    return out[0], out[1]


def _cube_and_results(rng: random.Random, actions: list[Action]) -> list[Action]:
    """``actions`` with cube actions (doubles of any value, in turn or not; takes, drops, beavers) put in
    here and there, and a result line at the end (any points, now and then 'and the match', now and then
    another action after it): what the judgement checks read."""
    out: list[Action] = []
    for action in actions:
        if rng.random() < 0.08:
            side = rng.choice([action.side, 1 - action.side])
            out.append(Action(action.line, 1, None, side, ActionKind.DOUBLE, cube=rng.choice([None, 2, 4, 8, 3, 0])))
            answer = rng.choice([ActionKind.TAKE, ActionKind.TAKE, ActionKind.DROP, ActionKind.BEAVER])
            out.append(Action(action.line, 30, None, 1 - side, answer, cube=rng.choice([None, 4]) if
                              answer is ActionKind.BEAVER else None))
        out.append(action)
    if rng.random() < 0.9:
        line = actions[-1].line + 1 if actions else 1
        out.append(Action(line, 1, None, rng.randint(0, 1), ActionKind.WIN, points=rng.choice([1, 2, 3, 4, 6, 9, 4016]),
                          and_match=rng.random() < 0.2))
        if rng.random() < 0.1:
            out.append(Action(line + 1, 1, None, 0, ActionKind.MOVE, (3, 1), "8/5 6/5"))
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), games=st.integers(1, 4), length=st.sampled_from([0, 1, 3, 5, 7]),
       jacoby=st.booleans(), white_first=st.booleans())
def test_the_replay_without_the_judgement_checks_counts_the_same_rolls(seed, games, length, jacoby, white_first):
    """MatchVisitor.reads_judgement False (the dice tally's) leaves out the checks of result lines and
    doubles: on generated matches (random games from the start, cube actions of any value in turn or
    not, result lines of any points, scores written right or wrong), the tally counts the same rolls
    and is told the same roll events in the same positions as with every check run; with the C
    accelerator and without (BGCLI_PURE=1)."""
    rng = random.Random(seed)
    records = []
    for number in range(1, games + 1):
        _, _, actions = random_game(rng, Position.start(), rng.randint(0, 40), dances=True)
        scores = rng.choice([None, (0, 0), (rng.randint(0, 6), rng.randint(0, 6))])
        records.append(GameRecord(number, ("a", "b"), scores, tuple(_cube_and_results(rng, actions)), number * 100))
    record = MatchRecord(length, tuple(records), 1)
    rules = Rules(match_length=length, jacoby=jacoby, white_first=white_first)
    without, with_checks = _judged_and_not(lambda tally: replay_match(record, 1, rules, visitor=tally))
    assert without == with_checks


def test_the_files_without_the_judgement_checks_count_the_same_rolls():
    """Every match file of tests/data (every format bgcli reads, real files with problems of every
    kind) tallied with the judgement checks left out and with them: the same counts, unit for unit,
    and the same roll events in the same positions."""
    from bgcli.formats.files import visit_file

    paths = sorted(find_files([str(ROOT / "tests" / "data")]))
    assert len(paths) > 100

    def read(path: str):
        def replay(tally):
            try:
                for _ in visit_file(path, tally):
                    pass
            except Exception as exc:   # an unreadable file: the same error both ways
                tally.rolls.append(f"{type(exc).__name__}: {exc}")
        return replay

    for path in paths:
        without, with_checks = _judged_and_not(read(path))
        assert without == with_checks, path


def test_a_tally_is_freed_when_its_file_is_read_without_the_garbage_collector(tmp_path):
    """tally_file lets its tally go (DiceTally.close: the bound run_of_plays is a cycle) whether the file
    was read or not: nothing of it is left for the garbage collector to scan and free."""
    import gc

    bad = tmp_path / "bad.mat"
    bad.write_text(" 5 point match\n\n Game 1\n a : 0   b : 0\n  1) 99: 24/1\n")

    def tallies() -> int:
        return sum(isinstance(o, dice.DiceTally) for o in gc.get_objects())

    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        left = tallies()
        tally_file(str(ROOT / "samples/sp05001_3pt.mat"))
        with pytest.raises(Exception):
            tally_file(str(tmp_path / "missing.mat"))
        try:
            tally_file(str(bad))
        except Exception:
            pass
        assert tallies() == left
    finally:
        if enabled:
            gc.enable()


@pytest.mark.parametrize("name", ["sp05001_3pt.mat", "sp05007_money.mat"])
def test_a_matchs_fingerprint_hashes_the_kinds_of_its_rolls_in_order(name):
    """A unit's fingerprint is the SHA-256 of its match's rolls in order (the openings too), a byte a roll:
    its kind (dice.KINDS), the dice as written (the report's test of the same match in two files,
    dicereport.once), from the replay's events, as the tally counts them."""
    import hashlib

    from bgcli.formats.files import replay_file

    path = ROOT / "tests" / "data" / "oracle" / "selfplay" / name
    (replay,) = replay_file(str(path))
    kinds = bytes(dice.kind_of(event.record.dice if event.record is not None and event.record.dice else event.dice)
                  for event in replay.events if event.kind in (EventKind.MOVE, EventKind.ROLL) and event.dice)
    units = tally_file(str(path))
    assert len(units) == 2 and len(kinds) == sum(sum(u.kinds) + sum(u.opening) for u in units) > 100
    assert {unit.fingerprint for unit in units} == {hashlib.sha256(kinds).hexdigest()}


def test_a_tally_stored_with_the_older_fingerprint_is_read_again(tmp_path):
    """The results database keys a file's stored tally by the settings it was made with: one stored
    before fingerprints hashed the kinds (its key without "fingerprint") is not taken as known, so the
    file is tallied again and its fingerprint compares with those made now."""
    import json

    from bgcli.scale.dice import DiceDB, DiceJob, dice_key
    from bgcli.scale.jobs import run_file

    path = str(ROOT / "tests" / "data" / "oracle" / "selfplay" / "sp05001_3pt.mat")
    with DiceDB(str(tmp_path / "dice.sqlite")) as db:
        db.store(run_file(DiceJob(), db.task(path)))
        assert db.task(path).known is not None   # unchanged: not read again
        older = json.loads(dice_key(None))
        del older["fingerprint"]
        db._write(lambda sql: sql.execute("UPDATE files SET key = ?", (json.dumps(older, sort_keys=True),)))
        assert db.task(path).known is None
