"""Replay, audit and score against gnubg's own records and planted defects."""
from __future__ import annotations

import json
import os

import pytest

from bgcli.core.rules import Rules
from bgcli.formats.files import replay_file

from conftest import CORPUS, ORACLE, SAMPLES, committed_glob

SELFPLAY = committed_glob(ORACLE / "selfplay", "*.mat")


def rules_for(path: str) -> Rules:
    # gnubg played its money sessions with the Jacoby rule (oracle README)
    return Rules(jacoby=True) if "money" in os.path.basename(path) else Rules()


@pytest.mark.parametrize("path", SELFPLAY, ids=os.path.basename)
def test_selfplay_replays_to_gnubg_positions_and_results(path):
    record = json.load(open(path[:-4] + ".json"))
    (replay,) = list(replay_file(path, rules_for(path)))
    assert replay.problems == []
    moves = [e for e in replay.events if e.kind == "move"]
    expected_boards = [r["board"] for g in record["games"] for r in g["game"] if r["action"] == "move"]
    assert [e.before.position.id() for e in moves] == expected_boards
    expected_steps = [[tuple(s) for s in r.get("move") or []] for g in record["games"] for r in g["game"]
                      if r["action"] == "move"]
    assert len(expected_steps) == len(moves)
    results = [("X" if r.winner_side == 0 else "O", r.points) for r in replay.results]
    assert results == [(g["info"]["winner"], g["info"]["points-won"]) for g in record["games"]]
    scores = [(g["info"]["score-X"], g["info"]["score-O"]) for g in record["games"]]
    before = [(0, 0)] + [r.score for r in replay.results[:-1]]
    assert before == scores


def expected_defects():
    path = ORACLE / "audit_sample" / "expected.jsonl"
    return [json.loads(line) for line in open(path)] if path.exists() else []


# The roll or the play? These three are planted wrong rolls whose play is
# also one slip (a point off, a sub-move missing) from a legal play of the
# written roll. The audit calls one a wrong roll (the play as written fits the
# rest of the game better than any legal play of the roll) and two wrong
# plays (both readings fit the rest of the game).
AMBIGUOUS = {"case0018_dice_sp05008_1pt.mat", "case0041_dice_sp05020_9pt.mat", "case0043_dice_sp05021_11pt.mat"}


@pytest.mark.parametrize("case", expected_defects(), ids=lambda c: c["file"])
def test_planted_defect_is_the_first_problem(case):
    path = str(ORACLE / "audit_sample" / case["file"])
    problems = [p for replay in replay_file(path, rules_for(path)) for p in replay.problems]
    assert problems, "the defect was not found"
    first = problems[0]
    assert first.line == case["line"]
    if case["file"] in AMBIGUOUS:
        assert first.kind in ("play", "dice")
    else:
        assert first.kind == case["kind"]


CORPUS_FILES = committed_glob(CORPUS / "galaxy", "*.txt") + committed_glob(CORPUS / "backgammon-studio", "*.txt")

# Each problem the audit finds in the real files, explained: Backgammon
# Studio wrote `Wins 4016 point` for two resignations at cube 4 that end the
# match (a 4, 8 or 12 point result, any of which wins it); no rule gives
# 4016: a warning that names Studio's habit.
EXPLAINED = {
    "Minchy - Llabba 13pt Backgammon Studio 2023_02_24 19_44_27.txt": [(220, "points")],
    "MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt": [(58, "points")],
}


@pytest.mark.parametrize("path", CORPUS_FILES, ids=os.path.basename)
def test_corpus_problems_are_the_explained_ones(path):
    problems = [(p.line, p.kind) for replay in replay_file(path) for p in replay.problems]
    assert problems == EXPLAINED.get(os.path.basename(path), [])


def test_galaxy_caps_the_winning_game_at_the_points_needed():
    # 5-point match, left player at 0 wins a 2-cube backgammon (6 points) and
    # Galaxy writes "Wins 5 point and the match": the points still needed
    (replay,) = list(replay_file(str(SAMPLES / "galaxy_match3029786.txt")))
    assert replay.problems == []
    assert replay.winner == "lasse"


def test_sample_with_a_wrong_cube_is_reported_at_its_line():
    (replay,) = list(replay_file(str(SAMPLES / "flawed_5pt.mat")))
    assert (replay.problems[0].line, replay.problems[0].kind) == (44, "cube")


def write(tmp_path, text: str) -> str:
    path = tmp_path / "m.mat"
    path.write_text(text)
    return str(path)


HEADER = " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"


def test_opening_double_and_out_of_turn_and_dance(tmp_path):
    text = HEADER + (
        "  1) 33: 13/10 13/10 6/3 6/3       21: 13/11 24/23\n"
        "  2) 52:                         43: 13/9 13/10\n"
    )
    problems = [(p.line, p.kind) for r in replay_file(write(tmp_path, text)) for p in r.problems]
    assert (5, "dice") in problems          # the opening roll is never a double
    assert (6, "dance") in problems         # 52 could be played


def test_a_play_legal_for_another_roll_is_a_wrong_roll(tmp_path):
    text = HEADER + "  1) 31: 24/18                   21: 13/11 24/23\n"
    problems = [(p.line, p.kind) for r in replay_file(write(tmp_path, text)) for p in r.problems]
    assert problems == [(5, "dice"), (5, "incomplete")]


def test_illegal_play_goes_on_from_the_position_it_produced(tmp_path):
    # 24/20 13/6 is no play of 31 (nor of any roll); the game goes on from the
    # position it produced, so Alice's next play from 20 is judged there.
    text = HEADER + (
        "  1) 31: 24/20 13/6               21: 13/11 24/23\n"
        "  2) 52: 20/15 15/13\n"
    )
    (replay,) = list(replay_file(write(tmp_path, text)))
    assert [(p.line, p.kind) for p in replay.problems] == [(5, "play"), (6, "incomplete")]
    moves = [e for e in replay.events if e.kind == "move"]
    assert len(moves) == 3


def test_cube_rules(tmp_path):
    text = HEADER + (
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)  Takes                      Doubles => 4\n"
    )
    problems = [(p.line, p.kind) for r in replay_file(write(tmp_path, text)) for p in r.problems]
    # Bob doubles again while Alice owns the cube; the record stops there
    assert problems == [(6, "cube"), (6, "incomplete")]


def test_wrong_score_line_and_game_after_the_match(tmp_path):
    text = (" 1 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
            "  1) 31: 8/5 6/5                 Doubles => 2\n"
            "  2)  Drops\n"
            "      Wins 1 point\n\n Game 2\n Alice : 0                      Bob : 0\n"
            "  1) 31: 8/5 6/5\n")
    problems = [(p.line, p.kind) for r in replay_file(write(tmp_path, text)) for p in r.problems]
    assert (9, "match") in problems
    assert (9, "score") in problems


MONEY = " 0 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"


def kinds(tmp_path, text, **rules):
    return [(p.line, p.kind) for r in replay_file(write(tmp_path, text), Rules(**rules)) for p in r.problems]


def test_jacoby_makes_a_gammon_resignation_at_a_centred_cube_worth_one(tmp_path):
    text = MONEY + "  1) 31: 8/5 6/5                 21: 13/11 24/23\n      Wins 2 points\n"
    assert kinds(tmp_path, text) == []
    assert kinds(tmp_path, text, jacoby=True) == [(6, "points")]


def test_no_crawford_allows_the_double(tmp_path):
    text = (" 3 point match\n\n Game 1\n"
            " Alice : 0                      Bob : 0\n"
            "  1) 31: 8/5 6/5                 21: 13/11 24/23\n  2)  Doubles => 2                Drops\n      Wins 1 point\n"
            "\n Game 2\n"
            " Alice : 1                      Bob : 0\n"
            "  1) 31: 8/5 6/5                 21: 13/11 24/23\n  2)  Doubles => 2                Drops\n      Wins 1 point\n"
            "\n Game 3\n"
            " Alice : 2                      Bob : 0\n"
            "  1) 31: 8/5 6/5                 21: 13/11 24/23\n  2)  Doubles => 2                Drops\n      Wins 1 point\n")
    assert kinds(tmp_path, text) == [(18, "cube")]           # game 3, with Alice at 2 of 3, is the Crawford game
    assert kinds(tmp_path, text, crawford=False) == []


def test_backgammon_counts_as_a_gammon(tmp_path):
    text = MONEY + "  1) 31: 8/5 6/5                 21: 13/11 24/23\n      Wins 3 points\n"
    assert kinds(tmp_path, text) == []
    assert kinds(tmp_path, text, backgammon_counts=2) == [(6, "points")]


def test_cube_limit(tmp_path):
    text = MONEY + "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Takes                       21: 13/11 24/23\n  3)  Doubles => 4                Drops\n      Wins 2 points\n"
    assert kinds(tmp_path, text) == []
    assert kinds(tmp_path, text, cube_limit=2) == [(7, "cube")]


def test_beavers(tmp_path):
    text = MONEY + "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Beavers => 4               21: 13/11 24/23\n      Wins 4 points\n"
    assert (6, "cube") in kinds(tmp_path, text)
    assert kinds(tmp_path, text, beavers=True) == []


def test_automatic_doubles_raise_the_starting_cube(tmp_path):
    text = MONEY + "  1) 31: 8/5 6/5                 Doubles => 4\n  2)  Drops\n                                  Wins 2 points\n"
    assert kinds(tmp_path, text) == [(5, "cube"), (7, "points")]
    assert kinds(tmp_path, text, auto_doubles=1) == []


def test_tags_in_the_file_set_the_rules(tmp_path):
    limit = "; [CubeLimit \"2\"]\n\n" + MONEY[1:] + (
        "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Takes                       21: 13/11 24/23\n"
        "  3)  Doubles => 4                Drops\n      Wins 2 points\n")
    assert kinds(tmp_path, limit) == [(9, "cube")]
    jacoby = "; [Jacoby \"On\"]\n\n" + MONEY[1:] + "  1) 31: 8/5 6/5                 21: 13/11 24/23\n      Wins 2 points\n"
    assert kinds(tmp_path, jacoby) == [(8, "points")]


def test_scoring_edge_cases_of_the_bear_off():
    from bgcli.core.position import Position
    from bgcli.core.value import BACKGAMMON, GAMMON, SINGLE, game_kind

    def sides(loser_points: dict[int, int], loser_bar: int = 0):
        loser = [0] * 26
        for point, n in loser_points.items():
            loser[point] = n
        loser[25] = loser_bar
        loser[0] = 15 - sum(loser)
        winner = [15] + [0] * 25
        return Position(tuple(winner), tuple(loser))

    assert game_kind(sides({6: 15})) == GAMMON                    # none borne off, all home
    assert game_kind(sides({6: 14}, loser_bar=1)) == BACKGAMMON   # a checker on the bar
    assert game_kind(sides({6: 14, 19: 1})) == BACKGAMMON         # one in the winner's home board
    assert game_kind(sides({6: 13, 18: 2})) == GAMMON             # outside the winner's home board: a gammon
    assert game_kind(sides({6: 14})) == SINGLE                    # one checker borne off
    assert game_kind(sides({6: 13, 24: 1})) == SINGLE             # borne off one: a single whatever is left
    assert game_kind(sides({6: 15}).swap(), winner_is_player=False) == GAMMON


def test_an_unreadable_line_is_a_syntax_problem_of_its_game(tmp_path):
    text = (HEADER + "  1) 31: 8/5 6/5                 21: 13/11 24/23\n  2)  Doubles => 2                Drops\n"
            "      Wins 1 point\n\n Game 2\n Alice : 1                      Bob : 0\n"
            "  1) %%garbled%% 8/5 6/5          21: 13/11 24/23\n  2) 52: 13/8 13/11\n")
    (replay,) = list(replay_file(write(tmp_path, text)))
    syntax = [p for p in replay.problems if p.kind == "syntax"]
    assert [(p.line, p.game) for p in syntax] == [(11, 2)]
