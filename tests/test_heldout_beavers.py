"""A money session GNU Backgammon played with its default beavers setting
(``set beavers 3``: a beaver and two raccoons), on a seed no other test data
use (tests/data/heldout-beavers, NOTE.md says how it was made).

Its fourth game turns the cube four times at once: root doubles to 16, gnubg
beavers to 32, root raccoons to 64 and gnubg raccoons again to 128 (gnubg's
.mat writes ``Beavers`` for each), root takes, and root rolls with gnubg
owning the cube. Under ``--raccoons 2`` that is legal; under the usual one
raccoon it is one problem at its line, and the replay goes on as gnubg did.
"""
from __future__ import annotations

from bgcli.core.rules import Rules
from bgcli.formats.files import replay_file
from bgcli.formats.mat import iter_matches
from bgcli.match.replay import replay_match
from bgcli.match.events import EventKind

from conftest import DATA, committed, gnubgid_norm

HERE = DATA / "heldout-beavers"
SESSION = HERE / "sp43402_money.mat"
GNUBG_DEFAULT = Rules(jacoby=True, beavers=True, raccoons=2)   # gnubg's 'set beavers 3', Jacoby on


def _replay(rules: Rules):
    (replay,) = list(replay_file(str(committed(SESSION)), rules))
    return replay


def test_gnubgs_default_beavers_are_two_raccoons_after_a_beaver():
    assert _replay(GNUBG_DEFAULT).problems == []


def test_a_raccoon_past_the_rules_is_one_problem_at_its_line():
    # gnubg's own .mat with beavers reads with gnubg's default rule (test_mat_gnubg_beavers.py): the rule of
    # one raccoon written in its date's place (the same lines)
    text = committed(SESSION).read_text().replace('; [EventDate "2026.12.07"]', '; [Raccoons "1"]')
    (record,) = list(iter_matches(text.splitlines(), str(SESSION)))
    problems = replay_match(record, rules=Rules(jacoby=True, beavers=True)).problems
    assert [(p.line, p.kind.value) for p in problems] == [(46, "cube")]
    assert "--raccoons" in problems[0].message


def test_every_play_and_double_is_made_in_gnubgs_state():
    """gnubg's state before each play, double and answer (its walk of the session,
    sp43402_money.states): cube, owner and turn after the four turns of the cube
    at once among them, and the states between a beaver or raccoon and its
    answer, which gnubg's Match ID keeps a double waiting (the cube before the
    redouble, the doubled flag, the answerer's turn, the first doubler on roll)
    and bgcli's events show so (GameReplay.redoubled_state)."""
    fields = gnubgid_norm().match_fields

    def compared(position_id: str, match_id: str) -> tuple:
        found = fields(match_id)
        found.update(d1=0, d2=0, s0=0, s1=0)   # gnubg's walk stands before the roll; a session's score
        return position_id, tuple(sorted(found.items()))

    walk: dict[int, list[tuple[str, str]]] = {}
    for line in committed(HERE / "sp43402_money.states").read_text().splitlines():
        game, position_id, match_id = line.split()
        walk.setdefault(int(game), []).append((position_id, match_id))
    theirs: dict[int, list[tuple]] = {}
    waiting = 0   # the states between a beaver or raccoon and its answer compared
    for game, steps in walk.items():
        for at, (position_id, match_id) in enumerate(steps):
            now = fields(match_id)
            if now["state"] != 1:
                continue   # the game over
            after = fields(steps[at + 1][1]) if at + 1 < len(steps) else None
            redoubled = now["doubled"] and at and fields(steps[at - 1][1])["doubled"]
            if redoubled and after is not None and after["state"] == 1 and not after["doubled"]:
                continue   # a beaver or raccoon taken: gnubg's .mat writes no Takes for it, so no event stands in it
            waiting += bool(redoubled)
            theirs.setdefault(game, []).append(compared(position_id, match_id))
    kept = (EventKind.MOVE, EventKind.DOUBLE, EventKind.ROLL, EventKind.TAKE, EventKind.DROP, EventKind.BEAVER,
            EventKind.RACCOON)
    ours: dict[int, list[tuple]] = {}
    for event in _replay(GNUBG_DEFAULT).events:
        if event.kind in kept:
            states = ours.setdefault(event.game, [])
            state = compared(event.before.position.id(), event.match_id())
            if not states or states[-1] != state:
                states.append(state)
    assert sorted(ours) == sorted(theirs)
    assert waiting == 6   # games 3 and 6: after a beaver and a raccoon (dropped); game 4: after a beaver and a raccoon
    for game, states in theirs.items():
        # gnubg's walk starts after the game's first action and ends before its resignation, if any
        assert ours[game][1:len(states) + 1] == states, f"game {game}"
        assert len(ours[game]) - 1 == len(states), f"game {game}"
