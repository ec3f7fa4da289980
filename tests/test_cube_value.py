"""The value a double, a beaver or a raccoon turns the cube to: one owner,
bgcli.core.cube (turned, value_after for the replay's cube, value_reached
for an event's state and the value a record states). Property tests over
generated money sessions: what the replay accepts is the owner's answer, and
every writer writes the owner's value for a cube action that states none.
"""
from __future__ import annotations

import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgcli.core.cube import InstantRedouble, turned, turned_from, value_after, value_reached
from bgcli.core.rules import Rules
from bgcli.core.state import CubeState, MatchState
from bgcli.formats import registry
from bgcli.formats.files import export
from bgcli.match.events import EventKind, ProblemKind
from bgcli.match.records import Action, ActionKind, GameRecord, MatchRecord
from bgcli.match.replay import ReplayBuilder, replay_match, replay_parts

RULES = Rules(beavers=True, auto_doubles=2)
CUBE_EVENTS = (EventKind.DOUBLE, EventKind.BEAVER, EventKind.RACCOON)
# what follows the last double: an answer, a beaver (then the doubler's answer), a raccoon (then the beaverer's)
ENDINGS = ["", "take", "drop", "beaver", "beaver take", "beaver drop", "raccoon", "raccoon take", "raccoon drop"]
STATED = st.none() | st.sampled_from([0, 1, 2, 3, 4, 8, 16, 32, 64, 128, 256])


def session(autos: int, taken: int, ending: str, stated: list[int | None], words: list[ActionKind]) -> MatchRecord:
    """A money game of cube actions alone: ``autos`` automatic doubles, ``taken``
    doubles taken (each by the cube's owner), a last double and ``ending``;
    each cube action states the next of ``stated`` and an instant redouble is
    written with the next of ``words`` (the state of the cube says what it is)."""
    values, written = iter(stated), iter(words)
    actions: list[Action] = []

    def add(side: int, kind: ActionKind, cube: int | None = None) -> None:
        actions.append(Action(len(actions) + 10, 1, len(actions) + 1, side, kind, cube=cube))

    for _ in range(autos):
        add(0, ActionKind.AUTO_DOUBLE)
    doubler = 0
    for _ in range(taken):
        add(doubler, ActionKind.DOUBLE, next(values))
        add(1 - doubler, ActionKind.TAKE)
        doubler = 1 - doubler   # the taker owns the cube: the next double is theirs
    add(doubler, ActionKind.DOUBLE, next(values))
    steps = ending.split()
    if steps[:1] in (["beaver"], ["raccoon"]):
        add(1 - doubler, next(written), next(values))
        if steps[0] == "raccoon":
            add(doubler, next(written), next(values))
    answerer = 1 - doubler if steps[:1] != ["beaver"] else doubler
    if steps and steps[-1] in ("take", "drop"):
        add(answerer, ActionKind.TAKE if steps[-1] == "take" else ActionKind.DROP)
    game = GameRecord(1, ("Ann", "Bob"), (0, 0), tuple(actions), 3, autos_written=True)
    return MatchRecord(0, (game,), 1, tags={"Beavers": "On"})


def value_problems(replay) -> dict[int, str]:
    """The lines where the replay said a recorded value is not the one the cube action makes."""
    return {p.line: p.message for p in replay.problems if p.kind is ProblemKind.CUBE and " makes it " in p.message}


GAMES = dict(autos=st.integers(0, 2), taken=st.integers(0, 4), ending=st.sampled_from(ENDINGS))
WORDS = st.lists(st.sampled_from([ActionKind.DOUBLE, ActionKind.BEAVER]), min_size=2, max_size=2)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAMES, stated=st.lists(STATED, min_size=7, max_size=7), words=WORDS)
def test_the_replay_accepts_the_value_the_owner_gives(autos, taken, ending, stated, words):
    """Property: a double, a beaver or a raccoon that states the owner's value
    (value_reached of the event's state) is accepted, any other value is a cube
    problem at its line naming the owner's, whatever cube the game reached."""
    replay = replay_match(session(autos, taken, ending, stated, words), rules=RULES)
    problems = value_problems(replay)
    cube_events = [e for e in replay.events if e.kind in CUBE_EVENTS]
    assert len(cube_events) == taken + 1 + ending.startswith(("beaver", "raccoon")) + ending.startswith("raccoon")
    for event in cube_events:
        ruled = value_reached(event.before.match)
        if event.cube is None or event.cube == ruled:
            assert event.line not in problems, (event, problems)
        else:
            assert problems[event.line].endswith(f"makes it {ruled}"), (event, problems)
    assert value_reached(cube_events[0].before.match, 5) == 5   # a stated value is the record's


def story(replay) -> list[tuple]:
    """The replay's cube actions and answers, each with the cube before it (an export adds the
    result a drop gives, which the generated record leaves unwritten)."""
    return [(e.kind, e.side, e.before.match.cube, e.before.match.cube_owner, e.before.match.doubled)
            for e in replay.events if e.kind is not EventKind.WIN]


def read_back(text: str, to: str):
    kind = registry.of_name(f"out.{to}")
    assert kind is not None
    parts = kind.load().read_stream(io.BytesIO(text.encode("utf-8")), f"out.{to}")
    [replay] = list(replay_parts(parts, lambda number: ReplayBuilder(True), RULES))
    return replay


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(taken=GAMES["taken"], ending=GAMES["ending"], words=WORDS, to=st.sampled_from(["mat", "json", "sgf"]))
def test_every_writer_writes_the_owners_value_for_a_cube_action_that_states_none(taken, ending, words, to):
    """Property: a record's double, beaver or raccoon with no value written
    ("Doubles", gnubg's SGF) is exported at the owner's value (.mat and JSON
    write it, SGF only that it was made), and reads back to the same cube."""
    record = session(0, taken, ending, [None] * 7, words)
    replay = replay_match(record, rules=RULES)
    assert not value_problems(replay)
    text, left_out = export([record], to, rules=RULES)
    assert not left_out
    back = read_back(text, to)
    assert story(back) == story(replay)
    assert not value_problems(back)
    ruled = [value_reached(e.before.match) for e in replay.events if e.kind in CUBE_EVENTS]
    assert [e.cube for e in back.events if e.kind in CUBE_EVENTS] == ruled   # SGF's reader works it out


@given(value=st.integers(1, 1 << 14), doubler=st.integers(0, 1), beaver=st.booleans())
def test_the_cube_states_value_and_an_events_state_give_one_answer(value, doubler, beaver):
    """Property: what a turn makes the replay's cube (value_after) is what it
    makes the match state an event carries (value_reached): a double of the
    cube, a beaver of the double that waits, a raccoon of the beaver's cube."""
    cube = CubeState(value=value)
    assert value_after(cube) == value_reached(MatchState(cube=value)) == turned(value)
    assert turned_from(turned(value)) == value and turned_from(2 * value + 1) is None
    cube.double(doubler, value_after(cube))
    waiting = MatchState(cube=value, doubled=True)
    assert value_after(cube, InstantRedouble.BEAVER) == value_reached(waiting) == turned(turned(value))
    if beaver:
        cube.beaver(value_after(cube, InstantRedouble.BEAVER))
        assert value_after(cube, InstantRedouble.RACCOON) == value_reached(MatchState(cube=cube.value)) \
            == turned(turned(turned(value)))


@given(count=st.integers(0, 12), value=st.sampled_from([1, 2, 4, 64]))
def test_turns_are_the_values_turn_after_turn_makes(count, value):
    from bgcli.core.cube import starting_cubes, turned, turns

    found = turns(count, value)
    assert found[0] == value and len(found) == count + 1
    assert all(b == turned(a) for a, b in zip(found, found[1:]))
    # a money game's cube after its automatic doubles is turns of the opening's cube
    assert starting_cubes(Rules(auto_doubles=count)) == turns(count)
