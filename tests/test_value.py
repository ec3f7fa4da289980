"""What a game is worth (bgcli.core.value) and the cube's state, the one
place the replay and the chouette ask."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bgcli.core.cube import value_after
from bgcli.core.rules import Rules, Variation
from bgcli.core.state import CubeState
from bgcli.core.value import Outcome, Win, drop_value, game_value, resignation_values

CUBES = st.sampled_from([1, 2, 4, 8, 16, 64])


def test_a_win_and_its_outcome_are_one_name():
    assert [w.outcome for w in Win] == [Outcome.SINGLE, Outcome.GAMMON, Outcome.BACKGAMMON]
    assert all(w.outcome.win is w for w in Win)
    assert Outcome.DROP.win is None and Outcome.RESIGNATION.win is None and Outcome.DRAW.win is None


@given(win=st.sampled_from(list(Win)), cube=CUBES, counts=st.integers(1, 3))
def test_the_standard_count_with_a_backgammon_counted_as_told(win, cube, counts):
    rules = Rules(backgammon_counts=counts)
    expected = cube * (counts if win == Win.BACKGAMMON else int(win))
    assert game_value(win, cube, rules, centred=True) == expected


@given(win=st.sampled_from(list(Win)), cube=CUBES, length=st.integers(0, 9))
def test_jacoby_counts_single_only_in_money_play_with_the_cube_centred(win, cube, length):
    rules = Rules(jacoby=True, match_length=length)
    centred = game_value(win, cube, rules, centred=True)
    assert centred == (cube if not length else cube * int(win))
    assert game_value(win, cube, rules, centred=False) == cube * int(win)
    assert resignation_values(cube, rules, centred=True) == ([cube] if not length else [cube, 2 * cube, 3 * cube])


def test_the_cap_by_the_points_still_needed():
    rules = Rules(match_length=5, cube_cap_needed=True)
    assert game_value(Win.GAMMON, 4, rules, centred=False, needed=3) == 3
    assert game_value(Win.SINGLE, 2, rules, centred=False, needed=3) == 2
    assert resignation_values(4, rules, centred=False, needed=3) == [3]
    # no cap without the rule, nor in money play
    assert game_value(Win.GAMMON, 4, Rules(match_length=5), centred=False, needed=3) == 8
    assert game_value(Win.GAMMON, 4, Rules(cube_cap_needed=True), centred=False, needed=3) == 8
    assert drop_value(4) == 4


def test_the_cube_double_take_beaver_raccoon_drop():
    cube = CubeState()
    assert cube.centred
    cube.double(0, value_after(cube))
    cube.take()
    assert (cube.value, cube.owner, cube.offer) == (2, 1, None)
    offer = cube.double(1, value_after(cube))
    assert (offer.doubler, offer.value, offer.before) == (1, 4, 2)
    cube.beaver(8)
    assert (cube.value, cube.owner, cube.beaver_by) == (8, 0, 0)
    cube.raccoon(1, 16)   # the beaverer keeps the cube (core.cube's rule); the raccooner may be raccooned in turn
    assert (cube.value, cube.owner, cube.beaver_by, cube.raccoons) == (16, 0, 1, 1)
    cube.double(0, value_after(cube))
    assert cube.drop() == 16 and cube.offer is None and cube.value == 16


# --- the engines ask the owner ------------------------------------------------------------

# a finished game: the winner (on roll, having just borne off its last checker) and the loser's
# 15 checkers anywhere on its side, the bar and off included
_LOSERS = st.lists(st.integers(0, 25), min_size=15, max_size=15).map(
    lambda spots: tuple(spots.count(p) for p in range(26)))


@given(loser=_LOSERS, jacoby=st.booleans(), counts=st.integers(1, 3), home_gammons=st.booleans(),
       owner=st.sampled_from([-1, 0, 1]), cube=CUBES, variation=st.sampled_from(list(Variation)))
def test_sages_value_of_a_finished_game_is_the_owners(loser, jacoby, counts, home_gammons, owner, cube, variation):
    """sage's final evaluation (a play that bears off the last checker) counts the game as
    bgcli.core.value does: Jacoby, a backgammon counted as told, the Korean home gammons, the
    variant (a hypergammon side counts the checkers it lacks as off). It counted it on its own once
    (a backgammon always 3, home gammons never), and the variant not at all (a hypergammon gammon single)."""
    from bgcli.core.position import OFF, Position
    from bgcli.core.state import GameState, MatchState
    from bgcli.core.value import game_kind
    from bgcli.engines.sage import final_evaluation

    # the loser's own checkers are its first ones; those it lacks are off from the start
    loser = list(loser)
    for _ in range(variation.off_at_start):
        spot = next(p for p in range(26) if loser[p])
        loser[spot] -= 1
        loser[OFF] += 1
    final = Position((15,) + (0,) * 25, tuple(loser))
    rules = Rules(jacoby=jacoby, backgammon_counts=counts, home_gammons=home_gammons, variation=variation)
    state = GameState(Position.start(variation), MatchState(cube=cube, cube_owner=owner, on_roll=0, turn=0,
                                                            rules=rules))
    found = final_evaluation(state, final)
    win = game_kind(final, True, home_gammons, variation)
    assert found.equity == game_value(win, 1, rules, centred=owner < 0)
    assert (found.probabilities.win_gammon, found.probabilities.win_backgammon) == (win >= 2, win >= 3)


@given(loser=_LOSERS, home_gammons=st.booleans(), winner_is_player=st.booleans())
def test_at_the_end_the_wins_still_possible_are_those_up_to_how_the_game_is_won(loser, home_gammons, winner_is_player):
    """possible_wins at a finished game (no contact: the winner has no checker
    left) is every win up to game_kind's: the two say the same of the loser's
    checkers (borne off, on the bar, in the winner's home board or outside its own)."""
    from bgcli.core.position import Position
    from bgcli.core.value import game_kind, possible_wins

    final = Position((15,) + (0,) * 25, loser)
    if not winner_is_player:
        final = Position(loser, (15,) + (0,) * 25)
    win = game_kind(final, winner_is_player, home_gammons)
    assert possible_wins(final, winner_is_player, home_gammons, contact=False) == [w for w in Win if w <= win]


def test_a_game_not_over_may_still_give_what_contact_or_the_losers_back_checkers_allow():
    """A gammon only while the loser has borne off none; a backgammon only
    while a loser's checker is on the bar or in the winner's home board, or
    contact remains (a checker hit may still be sent back)."""
    from bgcli.core.position import Position
    from bgcli.core.value import possible_wins

    winner = (11, 4) + (0,) * 24                      # 11 off, 4 on the one point
    home = tuple({6: 4, 5: 11}.get(p, 0) for p in range(26))   # every checker in its own home board
    racing = tuple({6: 4, 8: 5, 16: 6}.get(p, 0) for p in range(26))   # past the winner's checkers
    caught = tuple({6: 4, 8: 5, 16: 5, 21: 1}.get(p, 0) for p in range(26))   # one in the winner's home board
    off = tuple({0: 1, 6: 4, 8: 5, 21: 5}.get(p, 0) for p in range(26))
    assert possible_wins(Position(winner, racing), contact=False) == [Win.SINGLE, Win.GAMMON]
    assert possible_wins(Position(winner, racing), contact=True) == list(Win)
    assert possible_wins(Position(winner, caught), contact=False) == list(Win)
    assert possible_wins(Position(winner, off), contact=True) == [Win.SINGLE]
    assert possible_wins(Position(winner, racing), home_gammons=True, contact=False) == list(Win)   # 8 and 16: outside
    assert possible_wins(Position(winner, home), home_gammons=True, contact=False) == [Win.SINGLE, Win.GAMMON]


@given(loser=_LOSERS, cubeless=st.booleans(), jacoby=st.booleans(), counts=st.integers(1, 3),
       home_gammons=st.booleans(), owner=st.sampled_from([-1, 0, 1]))
def test_a_game_without_a_cube_under_jacoby_is_worth_what_it_scores(loser, cubeless, jacoby, counts, home_gammons,
                                                                     owner):
    """With no cube the cube is centred for good: Jacoby on counts every win single, as GNU Backgammon
    scores a money game with `set cube use off` and `set jacoby on` ('wins a single game and 1 point').
    An engine's equity of such a game (trust.cubeless, by core.value.cubeless_worth) counted a gammon 2,
    while sage's value of the play that ends it (final_evaluation) and the score counted it 1: a play
    that wins a gammon at once ranked below one that only may. With a cube, the cubeless equity leaves
    Jacoby out (gnubg's does)."""
    from dataclasses import replace

    import pytest

    from bgcli.core.position import Position
    from bgcli.core.state import GameState, MatchState
    from bgcli.core.value import cubeless_worth, game_kind
    from bgcli.engines import trust
    from bgcli.engines.sage import final_evaluation

    final = Position((15,) + (0,) * 25, loser)
    rules = Rules(cubeless=cubeless, jacoby=jacoby, backgammon_counts=counts, home_gammons=home_gammons)
    owner = -1 if cubeless else owner
    state = GameState(Position.start(), MatchState(cube_owner=owner, on_roll=0, turn=0, rules=rules))
    win = game_kind(final, True, home_gammons)
    scored = game_value(win, 1, rules, centred=owner < 0)
    found = final_evaluation(state, final)
    assert found.equity == scored
    worth = cubeless_worth(rules)
    if cubeless:
        assert trust.cubeless(found.probabilities, state).equity == pytest.approx(scored)
        assert worth == ((1, 1, 1) if jacoby else (1, 2, counts))
    else:
        assert worth == (1, 2, counts) == tuple(game_value(w, 1, replace(rules, jacoby=False), True) for w in Win)


def test_the_rules_say_jacoby_without_a_cube_counts_every_win_single():
    said = " ".join(Rules(cubeless=True, jacoby=True).describe())
    assert "the Jacoby rule with no cube: every gammon and backgammon counts single" in said
    assert "Jacoby" not in " ".join(Rules(cubeless=True).describe())
