"""The dice audit's fenced copies of its owners: the shot counter
(bgcli.judging.diceshots against bgcli.analysis.counts.hit_rolls, the
generator's legal plays) and the rolls that bear off the last checkers
(bgcli.judging.dice.finishing_rolls against the generator). Each agrees with
its owner on generated positions of every kind, including a mover on the bar,
doubles, bear-offs with blots and held points in the home board and crowded
boards where a hit leaves the rest of the roll unplayable; the shot counter
never asks the generator; and the C accelerator's hitting checks, which
settle a position's rolls in bulk, agree with the shot counter on generated
positions and on hand-made ones for each of their shortcuts."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgcli.analysis.counts import hit_rolls
from bgcli.core.generator import legal_keys, legal_plays
from bgcli.core.position import BAR, CHECKERS, OFF, Position, accelerator
from bgcli.core.rules import Variation
from bgcli.judging import dice, diceshots
from bgcli.judging.dice import bears_off_all, finishing_rolls, roll_chances, saving_rolls
from bgcli.judging.diceshots import hitting_rolls

ROLLS_36 = [(a, b) for a in range(1, 7) for b in range(1, 7)]


@st.composite
def boards(draw, home: bool = False) -> Position:
    """Any legal board: each side's checkers anywhere (the bar, the board, off), the two never on one point;
    ``home``: mostly the mover's checkers all home, few of them."""
    player, opponent = [0] * 26, [0] * 26
    top = draw(st.sampled_from([6, 6, 6, 7] if home else [6, 12, 24]))   # home, in two quarters, or anywhere
    player[BAR] = 0 if home else draw(st.sampled_from([0, 0, 0, 1, 2, 4]))
    for _ in range(draw(st.integers(0, 5 if home else CHECKERS - player[BAR]))):
        player[draw(st.integers(1, top))] += 1
    opponent[BAR] = draw(st.sampled_from([0, 0, 1]))
    return _opponent_around(player, opponent, draw(st.integers(1, CHECKERS - opponent[BAR])),
                            lambda: draw(st.integers(1, 24)))


def _opponent_around(player: list[int], opponent: list[int], checkers: int, where) -> Position:
    """The board with up to ``checkers`` of the opponent's checkers put on points the mover does not hold
    (each on the point ``where()`` draws, in the mover's numbering), the rest of each side off: every
    generator of a board against the opponent's checkers ends here."""
    for _ in range(checkers):
        mine = where()   # the point in the mover's numbering
        if not player[mine]:
            opponent[25 - mine] += 1
    player[OFF] = CHECKERS - sum(player)
    opponent[OFF] = CHECKERS - sum(opponent)
    return Position(tuple(player), tuple(opponent)).validated()


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_the_rolls_that_hit_are_the_owners(position):
    assert hitting_rolls(position) == hit_rolls(position)


def position_of(player: dict[int, int], opponent: dict[int, int]) -> Position:
    """A position from the mover's checkers by point (25 the bar) and the opponent's by the mover's point."""
    mine, theirs = [0] * 26, [0] * 26
    for point, count in player.items():
        mine[point] = count
    for point, count in opponent.items():
        theirs[25 - point] = count
    mine[OFF], theirs[OFF] = CHECKERS - sum(mine), CHECKERS - sum(theirs)
    return Position(tuple(mine), tuple(theirs)).validated()


# the opening's checkers, the opponent's with blots on the mover's 4 and 10 points
OPENING = {24: 2, 13: 5, 8: 3, 6: 5}
BLOTS = {1: 2, 4: 1, 10: 1, 12: 5, 17: 3, 19: 3}


@pytest.mark.parametrize("player, opponent", [
    (OPENING, BLOTS),
    # the mover's last checker outside hits with the 6 (8 to 2) only if the 1 can be played after: a crowded board
    ({8: 1, 5: 2, 4: 2, 3: 2}, {2: 1, 7: 2, 6: 2, 1: 2, 13: 2, 20: 6}),
    # one checker on the bar, the entering points blots or held
    ({25: 1, 6: 5, 8: 3, 13: 5}, {24: 1, 23: 2, 22: 2, 21: 1, 1: 2, 12: 7}),
    ({25: 2, 6: 5, 8: 3, 13: 5}, {24: 1, 23: 2, 22: 2, 21: 1, 1: 2, 12: 7}),
    # a double whose hit leaves steps that only a bear-off could play
    ({6: 1, 2: 2, 1: 2}, {4: 1, 5: 2, 3: 2, 20: 10}),
])
def test_hand_made_positions_agree(player, opponent):
    position = position_of(player, opponent)
    assert hitting_rolls(position) == hit_rolls(position)


# doubles whose hit leaves steps unplayable, or playable only by a bear-off: a checker's steps reaching a blot, each
# point on the way open, are always in a legal play (diceshots._double_hits says why)
DOUBLES = [
    # 10/8* and nothing more: the one play
    ({10: 1}, {8: 1, 6: 2, 4: 2, 20: 10}, (2, 2), True),
    # 13/11/9/7* in three steps; the 3 cannot move (the 1 held) and the hitter stops at the 5
    ({13: 1, 3: 1}, {7: 1, 5: 2, 1: 2, 20: 10}, (2, 2), True),
    # all home: 6/4* and the steps left only by bearing off
    ({6: 1, 2: 2, 1: 2}, {4: 1, 5: 2, 3: 2, 20: 10}, (2, 2), True),
    # 20/17/14* stops at the 11; 9/6/3 plays the other two steps
    ({20: 1, 9: 1}, {14: 1, 11: 2, 7: 2, 5: 2, 2: 8}, (3, 3), True),
    # from the bar: both checkers enter on 24, and one of the two steps left hits on 23
    ({25: 2}, {23: 1, 21: 2, 12: 12}, (1, 1), True),
    # entered on 23, the 21 and the 7 held: no step left reaches the blot on 19
    ({25: 1, 9: 1}, {21: 2, 19: 1, 17: 2, 7: 2, 5: 2, 10: 6}, (2, 2), False),
]


@pytest.mark.parametrize("player, opponent, roll, hits", DOUBLES)
def test_a_doubles_hit_is_the_generators_whatever_steps_it_leaves(player, opponent, roll, hits):
    position = position_of(player, opponent)
    expected = hit_rolls(position)
    assert (roll in expected) is hits
    assert hitting_rolls(position) == expected


def test_the_shot_counter_never_asks_the_generator(monkeypatch):
    """Every roll is decided from where the checkers stand: diceshots imports nothing of the generator, and gives
    the generator's answer with the generator refused, for the usual rolls and for the doubles and the hits that
    leave the other die unplayable, which asked it once."""
    from bgcli.core import generator

    assert not {"legal_keys", "legal_plays", "BOARD_BITS"} & set(vars(diceshots))
    positions = [position_of(OPENING, BLOTS)] + [position_of(p, o) for p, o, _, _ in DOUBLES + ONE_DIE]
    expected = [hit_rolls(position) for position in positions]
    assert len(expected[0]) > 10

    def refused(*args):
        raise AssertionError("the generator was asked")

    monkeypatch.setattr(generator, "legal_keys", refused)
    monkeypatch.setattr(generator, "legal_plays", refused)
    assert [hitting_rolls(position) for position in positions] == expected


# a mixed roll whose only hits leave the other die unplayable (entering from the bar or not): the roll hits when
# no play takes both dice and the die that must then be played (the higher if it can be) hits; decided without
# the generator
ONE_DIE = [
    # the 4 hits (9 to 5), the 3 cannot follow and cannot start: only the 4 is played, and it hits
    ({9: 1}, {1: 2, 2: 2, 4: 2, 5: 1, 6: 4, 11: 1, 17: 1}, (4, 3), True),
    # the 2 hits (8 to 6) and the 3 cannot follow; the 3 alone (8 to 5) must be played: no hit
    ({8: 1}, {2: 1, 3: 2, 6: 1, 16: 1}, (3, 2), False),
    # all home: the 3 hits (6 to 3), nothing follows, the 2 cannot take both dice either: the higher hits
    ({6: 1}, {1: 3, 3: 1, 8: 1, 12: 1, 17: 1, 22: 2}, (3, 2), True),
    # all home: the 1 hits (6 to 5) and the 2 cannot follow; the 2 alone (6 to 4) must be played
    ({6: 1}, {1: 3, 2: 2, 3: 3, 5: 1, 7: 1, 10: 1, 19: 1, 23: 1}, (2, 1), False),
    # the 2 hits (5 to 3) and the 5 cannot follow, but bearing off with the 5 then the 2 takes both dice
    ({2: 1, 5: 1, 6: 1}, {1: 4, 3: 1, 4: 2, 15: 1}, (5, 2), False),
    # from the bar: the 4 enters hitting (on 21), the 2 cannot follow and cannot enter: only the 4, which hits
    ({25: 1}, {21: 1, 23: 2, 19: 2}, (4, 2), True),
    # ... but the 2 enters (on 23) and a checker plays the 4 (10 to 6): both dice taken, no hit
    ({25: 1, 10: 1}, {21: 1, 19: 2, 8: 2}, (4, 2), False),
    # the 5 cannot enter (20 held), the 3 enters hitting (on 22) and the 5 cannot follow: it hits
    ({25: 1}, {20: 2, 22: 1, 17: 2}, (5, 3), True),
    # both enter, neither lets the other die follow: the higher must be played (on 20), and it does not hit
    ({25: 1}, {22: 1, 17: 2, 15: 2}, (5, 3), False),
]


@pytest.mark.parametrize("player, opponent, roll, hits", ONE_DIE)
def test_a_hit_that_leaves_the_other_die_unplayable_is_the_generators(player, opponent, roll, hits):
    position = position_of(player, opponent)
    expected = hit_rolls(position)
    assert (roll in expected) is hits
    assert hitting_rolls(position) == expected


@st.composite
def blocked(draw) -> Position:
    """A few checkers of the mover against many of the opponent's points below them (no checker on the bar):
    hits that leave the other die unplayable, both dice blocked, bear-offs that take both dice."""
    player, opponent = [0] * 26, [0] * 26
    top = draw(st.sampled_from([6, 7, 9, 12]))
    for _ in range(draw(st.integers(1, 4))):
        player[draw(st.integers(1, top))] += 1
    return _opponent_around(player, opponent, draw(st.integers(4, CHECKERS)),
                            lambda: draw(st.integers(1, draw(st.sampled_from([top, 24])))))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocked())
def test_blocked_rolls_that_hit_are_the_owners(position):
    assert hitting_rolls(position) == hit_rolls(position)


@st.composite
def entering(draw) -> Position:
    """A checker of the mover on the bar (now and then two), a few others, the opponent's home board crowded with
    points and blots: hits entering that leave the other die unplayable, one die or none entering."""
    player, opponent = [0] * 26, [0] * 26
    player[BAR] = draw(st.sampled_from([1, 1, 1, 2]))
    for _ in range(draw(st.integers(0, 4))):
        player[draw(st.integers(1, draw(st.sampled_from([6, 12, 24]))))] += 1
    # most on the entering points 19..24 (the mover's numbering)
    return _opponent_around(player, opponent, draw(st.integers(3, CHECKERS)),
                            lambda: draw(st.integers(19, 24)) if draw(st.booleans()) else draw(st.integers(1, 24)))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entering())
def test_entering_rolls_that_hit_are_the_owners(position):
    assert hitting_rolls(position) == hit_rolls(position)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_bearing_off_every_checker_is_the_generators(position):
    for roll in ROLLS_36:
        assert bears_off_all(position, roll) == any(play.result.player[OFF] == CHECKERS
                                                    for play in legal_plays(position, roll))


@st.composite
def held_bear_offs(draw) -> Position:
    """The mover's last one to four checkers home, the opponent holding points of the mover's home board (and
    blots there): the steps of a bear-off blocked on the way."""
    player, opponent = [0] * 26, [0] * 26
    for _ in range(draw(st.integers(1, 4))):
        player[draw(st.integers(1, 6))] += 1
    return _opponent_around(player, opponent, draw(st.integers(2, 12)),
                            lambda: draw(st.integers(1, 6)) if draw(st.booleans()) else draw(st.integers(1, 24)))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(boards(home=True), held_bear_offs()))
def test_the_rolls_that_bear_off_are_the_generators(position):
    found = finishing_rolls(position)
    if any(position.player[7:26]):   # a trial of the dice audit only once every checker is home
        assert not found
        return
    for a, b in ROLLS_36:
        roll = (max(a, b), min(a, b))
        assert (roll in found) == any(play.result.player[OFF] == CHECKERS for play in legal_plays(position, roll))


@pytest.mark.parametrize("player, opponent", [
    ({3: 2}, {20: 15}), ({5: 1, 1: 1}, {20: 15}), ({6: 1}, {20: 15}), ({4: 2, 2: 2}, {20: 15}),
    ({6: 1, 1: 1}, {3: 2, 20: 13}),   # a held point in the home board: 33 cannot land on the 3
    ({6: 1}, {2: 2, 4: 2, 20: 11}),   # 42 takes the 6 off through neither the 2 nor the 4; 51 through the 1
])
def test_hand_made_bear_offs_agree(monkeypatch, player, opponent):
    position = position_of(player, opponent)
    expected = {roll for roll in {(max(r), min(r)) for r in ROLLS_36} if bears_off_all(position, roll)}

    def refused(*args):
        raise AssertionError("the generator was asked")

    monkeypatch.setattr(dice, "legal_keys", refused)   # worked out from where the checkers stand, held points too
    assert finishing_rolls(position) == expected


@st.composite
def last_chances(draw) -> Position:
    """Races near the end: the mover with no checker off, some outside, the opponent with a few checkers left low."""
    player, opponent = [0] * 26, [0] * 26
    for _ in range(CHECKERS):
        player[draw(st.integers(1, draw(st.sampled_from([6, 8, 12]))))] += 1
    for _ in range(draw(st.integers(1, 4))):
        opponent[draw(st.integers(1, draw(st.sampled_from([2, 3, 6]))))] += 1
    opponent[OFF] = CHECKERS - sum(opponent)
    return Position(tuple(player), tuple(opponent)).validated()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(last_chances())
def test_the_rolls_that_save_the_gammon_are_the_enumerations(position):
    rolls = {(max(r), min(r)) for r in ROLLS_36}
    other = position.swap()
    last = all(any(play.result.player[OFF] == CHECKERS for play in legal_plays(other, roll)) for roll in rolls)
    saving = {roll for roll in rolls if any(play.result.player[OFF] > 0 for play in legal_plays(position, roll))}
    assert saving_rolls(position) == (saving if last else set())


def test_a_gammon_saved_only_by_a_double():
    # a checker on the 12 point, fourteen on the 6 point, the opponent's last checker on their 1 point: only a
    # double saves, and not every one: 66 (12/6, 6/off), 44 (12/off) and 33 (12/off); a 6 and another die bring
    # the checker home but move the other from the 6 point, 55 and 22 leave it short of the bear-off
    position = position_of({12: 1, 6: 14}, {24: 1})
    assert saving_rolls(position) == {(6, 6), (4, 4), (3, 3)}
    assert saving_rolls(position_of({12: 1, 6: 14}, {19: 1, 20: 1, 21: 1})) == set()   # the opponent may not finish


def test_a_last_chance_asks_the_generator_for_no_roll(monkeypatch):
    # in a race the rolls that bear a checker off are worked out from where the checkers stand (bears_one_off):
    # the generator is not asked, and the answer is the one above
    asked = []
    owner = dice.legal_keys
    monkeypatch.setattr(dice, "legal_keys", lambda position, roll: asked.append(roll) or owner(position, roll))
    assert saving_rolls(position_of({12: 1, 6: 14}, {24: 1})) == {(6, 6), (4, 4), (3, 3)}
    assert asked == []


@st.composite
def races(draw) -> Position:
    """Races (no contact): the mover's checkers home or some pips out (a few of them, or all fifteen, now and
    then some off), the opponent's all past them."""
    player, opponent = [0] * 26, [0] * 26
    top = draw(st.sampled_from([6, 6, 7, 8, 9, 10, 12, 14, 18]))
    for _ in range(draw(st.sampled_from([CHECKERS, CHECKERS, CHECKERS - 1, 1, 2, 3, 5, 9]))):
        player[draw(st.integers(1, top))] += 1
    for _ in range(draw(st.integers(1, CHECKERS))):
        opponent[draw(st.integers(1, 24 - top))] += 1
    player[OFF] = CHECKERS - sum(player)
    opponent[OFF] = CHECKERS - sum(opponent)
    return Position(tuple(player), tuple(opponent)).validated()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(races())
def test_a_checker_borne_off_in_a_race_is_the_generators(position):
    """bears_one_off against its owner, the generator's legal plays (a key's lowest byte: the checkers off),
    for every roll of generated races."""
    off = position.player[OFF]
    for roll in {(max(r), min(r)) for r in ROLLS_36}:
        assert dice.bears_one_off(position.player, roll) == any(key & 0xFF > off for key in legal_keys(position, roll)), \
            (position.id(), roll)


# --- the C accelerator's mirror of the chances (bgcli/core/_speedups.c roll_chances) ---------------------------

@pytest.mark.skipif(accelerator is None, reason="the C accelerator is not built (BGCLI_PURE=1, no compiler)")
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(boards(), boards(home=True), last_chances(), blocked(), races(), entering(), held_bear_offs()))
def test_the_chances_in_c_are_the_python_chances(position):
    """roll_chances in C against its owner, dice.roll_chances: the four chances and whether
    the roll made each, for every one of the 36 rolls (both orders) of generated positions:
    checkers on the bar, contact with blots, bear-offs, last chances to save the gammon."""
    for a, b in ROLLS_36:
        assert accelerator.roll_chances(position.player, position.opponent, a, b) == roll_chances(position, (a, b)), \
            (position.id(), a, b)


def test_the_chances_in_c_leave_what_they_do_not_read_to_python():
    if accelerator is None:
        pytest.skip("the C accelerator is not built")
    start = Position.start()
    for player, opponent, a, b in ((start.player[:25], start.opponent, 3, 1), (start.player, start.opponent, 7, 1),
                                   ((16,) + start.player[1:], start.opponent, 3, 1), (start.player, start.opponent, True, 1)):
        assert accelerator.roll_chances(player, opponent, a, b) is NotImplemented



# positions where one shortcut of the C hitting checks (hitting_mask: a position's 21 rolls settled in bulk)
# decides, each against the Python shot counter
BULK = [
    # the 4 hits (9 to 5) and no other checker plays the 1 or the 2: the hitter goes on with them
    ({9: 1}, {5: 1, 8: 2, 7: 2, 6: 2, 20: 8}),
    # ... and one more checker, on 13, plays the 1 and the 2 (12, 11): a point the hit does not leave
    ({9: 1, 13: 1}, {5: 1, 8: 2, 7: 2, 6: 2, 4: 2, 3: 2, 20: 4}),
    # the only checker that plays the 3 is the one that hits with the 4: the rolls left to the roll-by-roll check
    ({9: 1, 24: 2}, {5: 1, 6: 2, 2: 2, 1: 2, 22: 2, 21: 2, 20: 2, 18: 2}),
    # two dice of one checker: 13/10/8* or 13/11/8* (a blot 5 below an empty point), no die hitting directly
    ({13: 1, 24: 2}, {8: 1, 7: 2, 12: 2, 3: 2, 18: 2, 17: 2}),
    # one checker on the bar: the 3 enters on a blot (22), another enters and a checker of the board hits
    ({25: 1, 8: 1}, {22: 1, 5: 1, 20: 2, 21: 2, 12: 9}),
    # ... the entered checker hits from the entry point (21 to 18), or only the hit entering leaves no die to play
    ({25: 1}, {22: 1, 18: 1, 20: 2, 19: 2, 17: 2, 16: 2, 15: 2, 14: 2}),
    # two on the bar: a die that enters on a blot hits, doubles enter both and step on
    ({25: 2, 6: 3}, {23: 1, 20: 1, 24: 2, 19: 2, 1: 9}),
]


@pytest.mark.skipif(accelerator is None, reason="the C accelerator is not built (BGCLI_PURE=1, no compiler)")
@pytest.mark.parametrize("player, opponent", [(OPENING, BLOTS)] + BULK +
                         [(player, opponent) for player, opponent, _, _ in ONE_DIE + DOUBLES])
def test_the_hitting_checks_in_c_on_hand_made_positions(player, opponent):
    position = position_of(player, opponent)
    for a, b in ROLLS_36:
        assert accelerator.roll_chances(position.player, position.opponent, a, b)[2:4] == \
            roll_chances(position, (a, b))[2:4], (a, b)


@pytest.mark.skipif(accelerator is None, reason="the C accelerator is not built (BGCLI_PURE=1, no compiler)")
@settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(blocked(), entering(), boards()))
def test_the_hitting_checks_in_c_are_the_python_ones(position):
    """The hitting facts (how many rolls hit, whether this one did) of roll_chances in C against the Python shot
    counter's, every roll, on crowded boards where a hit may leave the other die unplayable, with checkers on the
    bar and anywhere."""
    for a, b in ROLLS_36:
        assert accelerator.roll_chances(position.player, position.opponent, a, b)[2:4] == \
            roll_chances(position, (a, b))[2:4], (position.id(), a, b)

# --- hypergammon: a side counts the checkers it lacks as off (core.rules.Variation.off_at_start) ------------------

HYPERGAMMONS = [Variation.HYPERGAMMON_1, Variation.HYPERGAMMON_2, Variation.HYPERGAMMON_3]


@st.composite
def hypergammon_last_chances(draw) -> tuple[Position, Variation]:
    """Races near the end of a hypergammon game: the mover with its checkers home or a few pips out, none of its
    own off (now and then one off), the opponent with one to all of its checkers left low."""
    variation = draw(st.sampled_from(HYPERGAMMONS))
    player, opponent = [0] * 26, [0] * 26
    own = variation.checkers - draw(st.sampled_from([0, 0, 0, 1]))
    for _ in range(own):
        player[draw(st.integers(1, draw(st.sampled_from([6, 8, 12]))))] += 1
    for _ in range(draw(st.integers(1, variation.checkers))):
        opponent[draw(st.integers(1, draw(st.sampled_from([2, 3, 6]))))] += 1
    player[OFF] = CHECKERS - sum(player)
    opponent[OFF] = CHECKERS - sum(opponent)
    return Position(tuple(player), tuple(opponent)).validated(), variation


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hypergammon_last_chances())
def test_hypergammon_rolls_that_save_the_gammon_are_the_enumerations(case):
    """A hypergammon side has borne off none of its own while its off count is the variant's (the checkers it
    lacks): the gammon is saved there by a roll that bears one more off, as in the standard game."""
    position, variation = case
    rolls = {(max(r), min(r)) for r in ROLLS_36}
    other = position.swap()
    last = (position.player[OFF] == variation.off_at_start and
            all(any(play.result.player[OFF] == CHECKERS for play in legal_plays(other, roll)) for roll in rolls))
    saving = {roll for roll in rolls
              if any(play.result.player[OFF] > position.player[OFF] for play in legal_plays(position, roll))}
    assert saving_rolls(position, variation) == (saving if last else set())
    if accelerator is not None:   # and the C accelerator's mirror agrees, told the variant's checkers off
        for a, b in ROLLS_36:
            assert (accelerator.roll_chances(position.player, position.opponent, a, b, variation.off_at_start)
                    == roll_chances(position, (a, b), variation)), (position.id(), variation, a, b)


def test_a_hypergammon_gammon_saved_only_by_a_double():
    # 3 checkers: one on the 12 point, two on the 6 point, the opponent's last checker on their 1 point: as in
    # the standard game only 66, 44 and 33 save (test_a_gammon_saved_only_by_a_double); the standard game's
    # rule read a side with 12 counted off as one that has saved its gammon already
    position = position_of({12: 1, 6: 2}, {24: 1})
    assert position.player[OFF] == Variation.HYPERGAMMON_3.off_at_start
    assert saving_rolls(position, Variation.HYPERGAMMON_3) == {(6, 6), (4, 4), (3, 3)}
    assert saving_rolls(position) == set()
