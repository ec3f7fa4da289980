"""rate on a variant's match: the opening is the variant's (core.rules'
Variation), not the standard game's. A nackgammon game starts from its own
board, so its first roll is the opening roll (30 rolls of either player,
never a double) and nobody has a cube turn before it; rate spotted the
opening by the standard board, which a nackgammon game never shows: it gave
the first roller a cube turn and the luck of an ordinary roll.
The sample is gnubg 1.07's nackgammon match (tests/data/variants/make_samples.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fake_engine import FakeEngine
from test_rating import best_after   # the fake's best play of a roll, worked out by hand

from bgcli.cli import cli
from bgcli.core.position import Position
from bgcli.core.rules import Variation
from bgcli.errors import EngineError
from bgcli.formats.files import replay_file, visit_file
from bgcli.judging.rating import rate_replay
from bgcli.match.replay import EventKind

NACK = Path(__file__).parent / "data" / "variants" / "nackgammon_3pt.gnubg.mat"
_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def _opening_luck(position: Position, dice) -> float:
    """The opening roll's luck worked out here: the best of ``dice`` less the mean over the
    15 rolls of each player, each the other's loss; the opening is symmetric, so the mean is 0
    (an ordinary roll's mean is over the 36 rolls, doubles too)."""
    rolls = [r for r in _ROLLS if r[0] > r[1]]
    mine = [best_after(position, r) for r in rolls]
    theirs = [-best_after(position, r) for r in rolls]
    return best_after(position, dice) - (sum(mine) + sum(theirs)) / 30


def _first_of_each_game(decisions):
    first = {}
    for decision in decisions:
        first.setdefault(decision.game, decision)
    return list(first.values())


def test_a_nackgammon_games_first_roll_is_its_opening_roll():
    rating, = rate_replay(FakeEngine(), lambda visitor: visit_file(str(NACK), visitor))
    replay, = replay_file(str(NACK))
    openings = [e for e in replay.events if e.kind == EventKind.MOVE and e.move == 1]
    openings = list({e.game: e for e in reversed(openings)}.values())   # each game's first play
    assert len(openings) == 3 and all(e.before.position == Position.start(Variation.NACKGAMMON) for e in openings)
    assert all(e.before.position != Position.start() for e in openings)   # the standard board never shows
    firsts = _first_of_each_game(rating.decisions)
    assert [d.is_cube for d in firsts] == [False] * 3   # no cube turn before the opening roll
    for event, decision in zip(sorted(openings, key=lambda e: e.game), firsts):
        assert decision.line == event.line and decision.luck == pytest.approx(_opening_luck(event.before.position,
                                                                                             event.dice))


def test_rate_with_sage_gives_no_cube_turn_before_a_nackgammon_opening_roll():
    pytest.importorskip("bgsage")
    result = CliRunner().invoke(cli, ["rate", "--json", "--engine", "sage", "--level", "0", str(NACK)])
    assert result.exit_code == 0, result.output
    decisions = json.loads(result.output)["decisions"]
    firsts: dict[int, dict] = {}
    for decision in decisions:
        firsts.setdefault(decision["game"], decision)
    assert sorted(firsts) == [1, 2, 3] and {d["kind"] for d in firsts.values()} == {"play"}


@pytest.mark.parametrize("checkers", [1, 2, 3])
def test_a_hypergammon_match_is_refused_not_judged_as_a_standard_game(checkers):
    """A side of hypergammon counts its missing checkers as borne off, so an engine shown its positions
    judges late bear-offs of the standard game where no gammon is left: sage at 0-ply called gnubg's
    self-play of 1 checker four very bad cube errors. rate refuses the match in one line instead; the
    nackgammon match (its positions the standard game's) is still rated (the tests above)."""
    path = NACK.parent / f"hypergammon{checkers}_{5 if checkers < 3 else 3}pt.gnubg.mat"
    engine = FakeEngine(0)
    with pytest.raises(EngineError, match=f"hypergammon of {checkers} checker.* cannot be judged"):
        rate_replay(engine, lambda visitor: visit_file(str(path), visitor))
    assert engine.calls == {"evaluate": 0, "evaluate_plays": 0, "cube_decision": 0}
    result = CliRunner().invoke(cli, ["rate", "--engine", "exact", str(path)])
    assert result.exit_code == 2 and result.output.count("\n") == 2, result.output
    assert f"cannot rate {path}: hypergammon of {checkers} checker" in result.output
    # the dice audit's luck (dice --engine) asks the same judge: the file's luck is refused, in one line
    result = CliRunner().invoke(cli, ["dice", "--engine", "exact", str(path)])
    assert result.exit_code != 0 and f"cannot measure the luck of {path}: hypergammon" in result.output, result.output


# --- a board set up to the opening's is not the opening ----------------------------------------------

ROLLOUT_LOG = Path(__file__).parent / "data" / "real" / "gnubg-rollout-log"


def _ordinary_luck(position: Position, dice) -> float:
    """An ordinary roll's luck worked out here: the best of ``dice`` less the mean over the 36 rolls."""
    return best_after(position, dice) - sum(best_after(position, (max(r), min(r))) for r in _ROLLS) / 36


@pytest.mark.parametrize("trial", range(6))
def test_a_rollout_trial_set_up_at_the_opening_board_rolls_an_ordinary_first_roll(trial):
    """Each trial of gnubg's rollout log sets the board up, the opening's too (its first roll may be a
    double: trial 3 rolls 22): the replay calls no roll of it the opening roll, and rate follows the
    replay: a cube turn before the first roll (money, the cube centred) and the luck of an ordinary
    roll, over the 36 rolls. rate took the opening's board for the opening: no cube turn and the
    opening's luck over 30 rolls (the log is made by make_rollout_logs.gnubg, beside it)."""
    path = ROLLOUT_LOG / f"money-000000{trial}-a.sgf"
    replay, = replay_file(str(path))
    moves = [e for e in replay.events if e.kind == EventKind.MOVE]
    assert moves[0].before.position == Position.start() and not any(e.opening for e in moves)
    rating, = rate_replay(FakeEngine(), lambda visitor: visit_file(str(path), visitor))
    first, second = rating.decisions[:2]
    assert first.is_cube and first.line == moves[0].line
    assert not second.is_cube and second.line == moves[0].line
    assert second.luck == pytest.approx(_ordinary_luck(moves[0].before.position, moves[0].dice))


def test_a_game_from_the_opening_has_its_opening_roll_said_by_the_replay():
    replay, = replay_file(str(NACK))
    moves = [e for e in replay.events if e.kind == EventKind.MOVE]
    firsts = {e.game: e for e in reversed(moves)}
    assert [e for e in moves if e.opening] == sorted(firsts.values(), key=lambda e: e.line)
