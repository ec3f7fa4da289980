"""'Game 15 (Crawford)': some programs mark the Crawford game in its .mat header (gnubg's import reads the
number and passes over the mark). bgcli reads it and checks it against the Crawford rule
(core.rules.crawford_game, which decides): a mark on the Crawford game is silent, a mark elsewhere, or
under rules with no Crawford game, is one error that says why. The match: gnubg's own 25-point match
(tests/data/heldout-roundtrip/dr44003_25pt.mat, NOTE.md there), whose game 15 is the Crawford game."""
from __future__ import annotations

from bgcli.core.rules import Rules
from bgcli.formats.mat import iter_matches
from bgcli.match.events import ProblemKind
from bgcli.match.replay import replay_match

from conftest import DATA, committed

MATCH = DATA / "heldout-roundtrip" / "dr44003_25pt.mat"


def _replay(marks: dict[int, str], rules: Rules = Rules()):
    text = committed(MATCH).read_text()
    for game, header in marks.items():
        assert f"\n Game {game}\n" in text
        text = text.replace(f"\n Game {game}\n", f"\n {header}\n")
    (record,) = list(iter_matches(text.splitlines(), str(MATCH)))
    return record, replay_match(record, rules=rules)


def test_the_crawford_game_marked_reads_as_unmarked():
    record, replay = _replay({15: "Game 15 (Crawford)"})
    assert [g.crawford for g in record.games][13:] == [None, True]
    assert replay.problems == []
    assert [r.game for r in replay.results if r.crawford] == [15]
    # the mark as other programs may space or spell it
    assert _replay({15: "GAME 15  ( crawford )"})[1].problems == []


def test_a_mark_on_another_game_is_one_error_and_the_rule_decides():
    _, replay = _replay({14: "Game 14 (Crawford)"})
    (problem,) = replay.problems
    assert (problem.game, problem.kind) == (14, ProblemKind.SCORE)
    assert problem.message.startswith("game 14 is marked (Crawford) but is not the Crawford game: the Crawford "
                                      "game is the first after one player, and only one, reaches 24 points")
    assert [r.game for r in replay.results if r.crawford] == [15]


def test_a_mark_under_rules_with_no_crawford_game_says_so():
    _, replay = _replay({15: "Game 15 (Crawford)"}, Rules(crawford=False))
    assert [p.message for p in replay.problems] == [
        "game 15 is marked (Crawford) but is not the Crawford game: these rules have no Crawford rule"]
    assert not any(r.crawford for r in replay.results)

