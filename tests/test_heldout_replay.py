"""The states bgcli replays equal GNU Backgammon's own, on matches gnubg played
with seeds no other test data use (tests/data/heldout-replay, NOTE.md says how
they were made).

gnubg walked each match it had saved and wrote its state at every step:
Position ID and Match ID, the player on roll first (``*.states``). bgcli's
replay of gnubg's .mat export of the same match must give the same states in
the same order, the state before a resignation among them (the loser, on roll,
resigns). Compared field by field from the Match ID, except two it leaves out:
the dice (gnubg's walk stands before each roll) and a money session's score
(gnubg's walk keeps the session's running score; a Match ID bgcli writes for
money play keeps none, as gnubg's own ``matchid()`` of a position does).
"""
from __future__ import annotations

import pytest

from bgcli.core.rules import Rules
from bgcli.formats.files import replay_file
from bgcli.match.events import EventKind

from conftest import DATA, committed, gnubgid_norm

HELDOUT = DATA / "heldout-replay"
# the matches and the rules gnubg played them with (the .mat format cannot say the Jacoby rule)
MATCHES = {"sp43002_3pt": Rules(), "sp43008_1pt": Rules(), "sp43101_money": Rules(jacoby=True)}


def compared(position_id: str, match_id: str) -> tuple:
    fields = gnubgid_norm().match_fields(match_id)
    fields["d1"] = fields["d2"] = 0
    if not fields["length"]:
        fields["s0"] = fields["s1"] = 0
    return position_id, tuple(sorted(fields.items()))


def gnubg_states(name: str) -> dict[int, list[tuple]]:
    """gnubg's states of each game while it is played (its walk's game-over states left out)."""
    games: dict[int, list[tuple]] = {}
    for line in committed(HELDOUT / f"{name}.states").read_text().splitlines():
        game, position_id, match_id = line.split()
        if gnubgid_norm().match_fields(match_id)["state"] == 1:
            games.setdefault(int(game), []).append(compared(position_id, match_id))
    return games


def bgcli_states(name: str) -> dict[int, list[tuple]]:
    """bgcli's state before each action, a state repeated by the next action (a roll, then a play) once."""
    (replay,) = list(replay_file(str(committed(HELDOUT / f"{name}.mat")), MATCHES[name]))
    assert not replay.problems, replay.problems
    games: dict[int, list[tuple]] = {}
    for event in replay.events:
        if event.kind is EventKind.WIN:   # gnubg's walk is then at the game over
            continue
        states = games.setdefault(event.game, [])
        state = compared(event.before.position.id(), event.match_id())
        if not states or states[-1] != state:
            states.append(state)
    return games


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_every_state_of_the_replay_is_gnubgs(name):
    theirs, ours = gnubg_states(name), bgcli_states(name)
    assert sorted(theirs) == sorted(ours)
    for game, states in theirs.items():
        # gnubg's walk starts after the game's first action
        assert ours[game][1:] == states, f"game {game}"


def test_the_sample_has_resignations():
    """The check above covers the state before a resignation (gnubg's players resign a lost game)."""
    resigned = [e for name in MATCHES for r in replay_file(str(HELDOUT / f"{name}.mat"), MATCHES[name])
                for e in r.events if e.kind is EventKind.RESIGN]
    assert len(resigned) >= 3
