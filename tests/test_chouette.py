"""The chouette: its format, rules, settlement and problems (bgcli/judging/chouette.py)."""
from __future__ import annotations

import json
import random
from decimal import Decimal

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgcli import grammar
from bgcli.core.value import Outcome
from bgcli.judging.chouette import GRAMMAR, Lineup, Side, parse_line, read_chouette, settle, settle_file
from bgcli.cli import cli
from bgcli.cli.chouette import table as chouette_table
from bgcli.errors import MatchFileError

from conftest import SAMPLES, invoke
MONEY = (SAMPLES / "sp05007_money.mat").read_text().split("\n")
# game 1 of the gnubg money session: gnubg (left, the box here) doubles at its
# move 5, root takes, and gnubg wins a single game on the board
ROWS_BEFORE_DOUBLE = "\n".join(MONEY[6:10])
ROWS_AFTER_DOUBLE = "\n".join(MONEY[11:30])

HEAD = "Chouette: Ann, Bob, Cho, Dee\nStake: 1\n\n"
EXAMPLE = HEAD + """Game 1
Box: Ann  Captain: Bob  Team: Cho, Dee
 Ann doubles => 2
 Bob takes  Cho takes  Dee drops
 Team doubles => 4
 Ann takes
 Ann wins gammon
"""


def session(text: str, head: str = HEAD):
    return settle(read_chouette(head + text, "test.txt"))


def found(settlement) -> list[tuple[int, str]]:
    return [(p.line, str(p.kind)) for p in settlement.problems]


def amounts(game) -> dict[str, int]:
    return {name: int(value) for name, value in game.settlement.items()}


def line_of(text: str, needle: str, head: str = HEAD) -> int:
    """The 1-based line of ``needle`` in the file ``head + text``."""
    lines = (head + text).split("\n")
    return next(i for i, line in enumerate(lines, 1) if needle in line)


# --- the grammar ------------------------------------------------------------------

def test_grammar_builds_strict():
    grammar.parser(GRAMMAR, "line", strict=True)


@pytest.mark.parametrize("text", ["Chouette: Ann, Team", "Box: Ann Captain: Bob Team: Game", "Bob tkaes", "Ann doubles => x"])
def test_a_line_that_is_not_the_format_is_a_match_file_error_with_its_column(text):
    with pytest.raises(MatchFileError) as error:
        parse_line(text, 7, "f.txt")
    assert error.value.line == 7 and error.value.column >= 1 and str(error.value).startswith("f.txt:7:")


def test_keywords_are_case_insensitive_and_names_any_script():
    text = "chouette: 김철수, 山田, Ann\n\nGAME 1\nbox: 김철수  CAPTAIN: 山田  team: Ann\n 김철수 Doubles => 2\n 山田 take  Ann drop\n Team WINS Gammon\n"
    s = settle(read_chouette(text))
    assert s.problems == ()
    assert amounts(s.games[0]) == {"김철수": -4 + 1, "山田": 4, "Ann": -1}


# --- the example of the issue ----------------------------------------------------------

def test_the_example_settles_as_the_rules_say():
    s = session(EXAMPLE.removeprefix(HEAD))
    game = s.games[0]
    # Dee drops Ann's double to 2 and pays the cube before it, 1; Bob and Cho
    # take, redouble to 4 together, and lose a gammon: 4 x 2 = 8 each
    assert amounts(game) == {"Ann": 1 + 8 + 8, "Bob": -8, "Cho": -8, "Dee": -1}
    assert (game.result, game.winner, game.cube) == (Outcome.GAMMON, "box", 4)
    assert s.problems == ()


def test_the_sides_are_an_enum_that_serialises_as_before():
    s = session(EXAMPLE.removeprefix(HEAD))
    assert s.games[0].winner is Side.BOX and not s.games[0].team_won
    assert (Side.BOX.column, Side.TEAM.column) == (0, 1)
    assert json.loads(json.dumps(s.to_dict()))["games"][0]["winner"] == "box"
    assert sum(s.games[0].settlement.values()) == 0


def test_json_of_the_example(tmp_path):
    path = tmp_path / "example.txt"
    path.write_text(EXAMPLE)
    result = CliRunner().invoke(cli, ["chouette", "--json", str(path)])
    assert result.exit_code == 0
    assert json.loads(result.output) == {
        "players": ["Ann", "Bob", "Cho", "Dee"],
        "games": [{"game": 1, "box": "Ann", "captain": "Bob", "team": ["Cho", "Dee"], "result": "gammon",
                   "winner": "box", "settlement": {"Ann": 17, "Bob": -8, "Cho": -8, "Dee": -1}}],
        "totals": {"Ann": 17, "Bob": -8, "Cho": -8, "Dee": -1},
        "problems": [],
    }


# --- rotation -----------------------------------------------------------------------

def two_games(first_game: str, second_lineup: str) -> str:
    return f"Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n{first_game}\nGame 2\n{second_lineup}\n Team wins\n"


TEAM_LOST = "Box: Ann  Captain: Cho  Team: Dee, Bob"
TEAM_WON = "Box: Bob  Captain: Cho  Team: Dee, Ann"


@pytest.mark.parametrize("first_game,right", [
    (" Ann wins", TEAM_LOST),
    (" Ann wins backgammon", TEAM_LOST),
    (" Ann doubles => 2\n Team drops", TEAM_LOST),                 # every member dropped: the team lost
    (" Team wins", TEAM_WON),
    (" Bob wins gammon", TEAM_WON),                                # a member's name: the team's win
    (" Team doubles => 2\n Ann drops", TEAM_WON),                  # the box dropped the team's double
    (" Ann doubles => 2\n Bob takes  Cho drops  Dee drops\n Team wins", TEAM_WON),
])
def test_rotation(first_game, right):
    assert session(two_games(first_game, right)).problems == ()
    wrong = TEAM_WON if right == TEAM_LOST else TEAM_LOST
    s = session(two_games(first_game, wrong))
    header = line_of(two_games(first_game, wrong), wrong)
    assert found(s) == [(header, "rotation")]
    assert right in s.problems[0].message


def test_rotation_goes_on_from_the_lineup_written():
    # game 2 breaks the rotation once; game 3 follows from game 2 as written
    text = two_games(" Ann wins", "Box: Ann  Captain: Dee  Team: Cho, Bob") + "\nGame 3\nBox: Dee  Captain: Cho  Team: Bob, Ann\n Dee wins\n"
    assert [kind for _, kind in found(session(text))] == ["rotation"]


def test_rotation_names_what_is_wrong():
    s = session(two_games(" Ann wins", "Box: Bob  Captain: Cho  Team: Dee, Ann"))
    assert s.problems[0].message.startswith("box and team order break the rotation: the team lost game 1")


def test_the_first_lineup_is_taken_as_written():
    assert session("Game 7\nBox: Dee  Captain: Ann  Team: Bob, Cho\n Dee wins\n").problems == ()


def test_rotation_with_three_players():
    head = "Chouette: Ann, Bob, Cho\n"
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho\n Team wins\nGame 2\nBox: Bob  Captain: Cho  Team: Ann\n Bob wins\n" \
           "Game 3\nBox: Bob  Captain: Ann  Team: Cho\n Bob wins\n"
    assert session(text, head).problems == ()


def test_lineup_checks_the_players():
    s = session("Game 1\nBox: Ann  Captain: Bob  Team: Cho, Eve\n Ann wins\n")
    messages = [p.message for p in s.problems]
    assert "Eve is not a player of this chouette (the 'Chouette:' line)" in messages
    assert "Dee is missing from the lineup of game 1" in messages
    assert sum(s.totals.values()) == 0 and "Eve" in s.players


def test_a_missing_lineup_is_a_problem_and_the_rotation_fills_it():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann wins\nGame 2\n Team wins\n"
    s = session(text)
    assert found(s) == [(line_of(text, "Game 2"), "syntax")]
    assert s.games[1].lineup == Lineup("Ann", "Cho", ("Dee", "Bob"))


# --- the captain drops ----------------------------------------------------------------

CAPTAIN_DROPS = """Game 1
Box: Ann  Captain: Bob  Team: Cho, Dee
 Ann doubles => 2
 Bob drops  Cho takes  Dee takes
 Team wins gammon
"""


def test_when_the_captain_drops_the_first_member_who_took_plays_on():
    s = session(CAPTAIN_DROPS)
    game = s.games[0]
    assert game.playing == "Cho" and game.lineup.captain == "Bob"
    assert amounts(game) == {"Ann": 1 - 4 - 4, "Bob": -1, "Cho": 4, "Dee": 4}


def test_the_rotation_follows_the_captain_named_for_the_game():
    # the team won: Bob, the captain named, goes into the box though he dropped
    good = CAPTAIN_DROPS + "Game 2\nBox: Bob  Captain: Cho  Team: Dee, Ann\n Bob wins\n"
    assert session(good).problems == ()
    bad = CAPTAIN_DROPS + "Game 2\nBox: Cho  Captain: Dee  Team: Ann, Bob\n Cho wins\n"
    assert [kind for _, kind in found(session(bad))] == ["rotation"]


def test_the_playing_captain_is_the_first_in_team_order_who_took():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann doubles\n Dee takes\n Cho drops\n Bob drops\n Ann wins\n"
    assert session(text).games[0].playing == "Dee"


# --- the team's doubles ---------------------------------------------------------------

def test_a_member_who_doubles_alone_breaks_the_rule_and_the_double_counts():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Cho doubles => 2\n Ann takes\n Ann wins\n"
    s = session(text)
    assert found(s) == [(line_of(text, "Cho doubles"), "team")]
    assert "Cho doubles alone" in s.problems[0].message and "Bob and Dee did not" in s.problems[0].message
    assert s.games[0].cube == 2 and amounts(s.games[0])["Ann"] == 6


def test_a_team_double_naming_every_member_still_in_is_the_teams():
    text = ("Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann doubles\n Bob takes  Cho takes  Dee drops\n"
            " Bob, Cho redouble => 4\n Ann takes\n Ann wins\n")
    assert session(text).problems == ()
    short = text.replace("Bob, Cho redouble", "Bob redouble")
    assert [kind for _, kind in found(session(short))] == ["team"]


def test_a_team_double_naming_some_members_only():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Bob, Cho double\n Ann drops\n"
    s = session(text)
    assert [kind for _, kind in found(s)] == ["team"]
    assert "Bob and Cho double without Dee" in s.problems[0].message
    # the box dropped: it pays every member still in the cube before the double
    assert amounts(s.games[0]) == {"Ann": -3, "Bob": 1, "Cho": 1, "Dee": 1}


def test_a_box_that_drops_pays_each_member_still_in():
    text = ("Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann doubles => 2\n Bob takes  Cho takes  Dee drops\n"
            " Team doubles => 4\n Ann drops\n")
    s = session(text)
    assert s.problems == ()
    assert amounts(s.games[0]) == {"Ann": 1 - 2 - 2, "Bob": 2, "Cho": 2, "Dee": -1}
    assert (s.games[0].result, s.games[0].winner) == (Outcome.DROP, "team")


# --- answers ------------------------------------------------------------------------

def test_a_double_nobody_answers_is_a_problem_at_its_line_and_does_not_count():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann doubles => 2\n Ann wins\n"
    s = session(text)
    assert found(s) == [(line_of(text, "Ann doubles"), "answer")]
    assert s.games[0].cube == 1 and amounts(s.games[0])["Ann"] == 3


def test_a_team_double_nobody_answers():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Team doubles => 2\n Team wins\n"
    s = session(text)
    assert found(s) == [(line_of(text, "Team doubles"), "answer")]
    assert s.games[0].cube == 1


def test_a_missing_answer_is_a_problem_and_counts_as_a_take():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann doubles => 2\n Bob takes  Dee drops\n Ann wins\n"
    s = session(text)
    assert found(s) == [(line_of(text, "Ann doubles"), "answer")]
    assert "Cho neither takes nor drops" in s.problems[0].message
    assert amounts(s.games[0]) == {"Ann": 2 + 2 + 1, "Bob": -2, "Cho": -2, "Dee": -1}


@pytest.mark.parametrize("answers", ["Bob takes  Cho takes  Dee takes  Bob takes", "Bob takes  Cho takes  Dee takes\n Bob drops"])
def test_an_answer_twice_is_a_problem_and_the_first_counts(answers):
    text = f"Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann doubles => 2\n {answers}\n Ann wins\n"
    s = session(text)
    second = len(text.split("\n")) - 2 + len(HEAD.split("\n")) - 1
    assert found(s) == [(second, "answer")] and "Bob answers Ann's double twice" in s.problems[0].message
    assert amounts(s.games[0])["Bob"] == -2


def test_team_takes_answers_for_every_member_still_in():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann doubles\n Team takes\n Ann wins\n"
    s = session(text)
    assert s.problems == () and amounts(s.games[0]) == {"Ann": 6, "Bob": -2, "Cho": -2, "Dee": -2}
    assert [kind for _, kind in found(session(text.replace("Team takes", "Team takes  Dee drops")))] == ["answer"]


@pytest.mark.parametrize("bad,kind", [
    (" Bob takes", "answer"),                                         # no double is waiting
    (" Ann doubles\n Ann takes  Bob takes  Cho takes  Dee takes", "answer"),   # the box answers its own double
    (" Team doubles\n Bob takes  Ann takes", "answer"),                 # a member answers the team's double
    (" Team doubles\n Team takes", "answer"),
    (" Ann doubles\n Bob takes  Cho takes  Dee takes  Eve takes", "player"),
])
def test_answers_by_the_wrong_side(bad, kind):
    text = f"Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n{bad}\n Ann wins\n"
    assert kind in [k for _, k in found(session(text))]


# --- members acting after dropping --------------------------------------------------------

@pytest.mark.parametrize("after", [
    " Team doubles => 4\n Ann takes\n Ann doubles => 8\n Bob takes  Cho takes  Dee takes\n Ann wins",
    " Dee doubles => 4\n Ann takes\n Ann wins",
    " Dee wins",
])
def test_a_member_acting_after_dropping(after):
    text = f"Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann doubles => 2\n Bob takes  Cho takes  Dee drops\n{after}\n"
    s = session(text)
    dropped = [(line, kind) for line, kind in found(s) if kind == "dropped"]
    assert len(dropped) == 1 and "after dropping at line" in s.problems[[str(p.kind) for p in s.problems].index("dropped")].message
    assert amounts(s.games[0])["Dee"] == -1   # the dropper paid once and is out


# --- the end of a game --------------------------------------------------------------------

def test_a_result_after_every_member_dropped_is_accepted_when_it_agrees():
    base = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann doubles\n Team drops\n"
    assert session(base + " Ann wins\n").problems == ()
    assert [k for _, k in found(session(base + " Team wins\n"))] == ["order"]
    assert [k for _, k in found(session(base + " Ann wins gammon\n"))] == ["order"]


def test_anything_after_the_game_ended_is_a_problem():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann wins\n Ann doubles\n Team wins\n"
    assert [k for _, k in found(session(text))] == ["order", "order"]


def test_a_game_without_a_result_is_incomplete():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann doubles\n Bob takes  Cho drops  Dee takes\n"
    s = session(text)
    assert found(s) == [(line_of(text, "Cho drops"), "incomplete")]
    assert (s.games[0].result, s.games[0].winner) == (None, None)
    assert amounts(s.games[0]) == {"Ann": 1, "Bob": 0, "Cho": -1, "Dee": 0}
    # the result is an Outcome, or None while unfinished; the outputs write it in words
    assert s.games[0].to_dict()["result"] == "unfinished"
    assert "  unfinished  " in "\n".join(chouette_table(s))


def test_after_an_unfinished_game_the_next_lineup_is_taken_as_written():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\nGame 2\nBox: Dee  Captain: Cho  Team: Ann, Bob\n Dee wins\n"
    assert [k for _, k in found(session(text))] == ["incomplete"]


def test_the_stake_multiplies_and_changes_from_the_next_game():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann wins\nStake: 2.5\nGame 2\nBox: Ann  Captain: Cho  Team: Dee, Bob\n Ann wins gammon\n"
    s = session(text)
    assert s.games[0].settlement["Bob"] == -1
    assert s.games[1].settlement["Bob"] == Decimal("-5.0") and s.totals["Ann"] == Decimal("18")
    data = s.to_dict()
    assert data["games"][1]["settlement"]["Ann"] == 15 and data["totals"]["Bob"] == -6


def test_a_fractional_stake_in_json():
    s = session("Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann wins\n", head="Chouette: Ann, Bob, Cho, Dee\nStake: 0.5\n")
    assert s.to_dict()["totals"] == {"Ann": 1.5, "Bob": -0.5, "Cho": -0.5, "Dee": -0.5}


# --- games with moves: the match replay audits them ---------------------------------------

def with_moves(answers: str = "Bob takes  Cho takes  Dee drops", result: str = "Ann wins", double: str = "Ann doubles => 2",
               before: str = ROWS_BEFORE_DOUBLE, after: str = ROWS_AFTER_DOUBLE) -> str:
    return f"Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n{before}\n {double}\n {answers}\n{after}\n {result}\n"


def test_a_game_with_moves_is_clean_and_settled():
    s = session(with_moves())
    assert s.problems == ()
    assert amounts(s.games[0]) == {"Ann": 5, "Bob": -2, "Cho": -2, "Dee": -1}


def test_a_result_the_moves_contradict_is_settled_as_the_moves_end():
    text = with_moves(result="Ann wins gammon")
    s = session(text)
    assert found(s) == [(line_of(text, "Ann wins gammon"), "result")]
    assert "the moves end the game: Ann wins single" in s.problems[0].message
    assert s.games[0].result is Outcome.SINGLE and amounts(s.games[0])["Bob"] == -2


def test_the_wrong_winner_the_moves_contradict():
    text = with_moves(result="Team wins")
    s = session(text)
    assert found(s) == [(line_of(text, "Team wins"), "result")]
    assert s.games[0].winner == "box"


def test_moves_ending_the_game_without_a_result_line():
    text = with_moves(result="")
    s = session(text)
    assert [k for _, k in found(s)] == ["result"] and s.games[0].winner == "box"


def test_an_illegal_play_is_found_by_the_replay():
    after = ROWS_AFTER_DOUBLE.replace("53: 8/3 6/3 ", "53: 8/3 6/2 ", 1)
    text = with_moves(after=after)
    s = session(text)
    assert (line_of(text, "53: 8/3 6/2"), "play") in found(s)


def test_a_cube_problem_is_found_by_the_replay():
    # Ann doubles to 3: the replay says a double makes it 2
    text = with_moves(double="Ann doubles => 3")
    assert found(session(text)) == [(line_of(text, "Ann doubles"), "cube")]


def test_a_double_nobody_answers_between_moves_is_reported_once():
    text = with_moves(answers="# nobody answers")
    s = session(text)
    assert found(s) == [(line_of(text, "Ann doubles"), "answer")]


def test_the_box_doubling_a_cube_the_team_owns():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann doubles\n Team takes\n Ann doubles => 4\n Team takes\n Ann wins\n"
    s = session(text)
    assert found(s) == [(line_of(text, "Ann doubles => 4"), "cube")]
    assert "Team owns the cube" in s.problems[0].message


def test_without_moves_there_are_no_turn_problems():
    assert session(EXAMPLE.removeprefix(HEAD)).problems == ()


def test_a_cube_cell_in_a_move_row_is_a_problem():
    before = ROWS_BEFORE_DOUBLE + "\n  5)  Doubles => 2                Takes"
    text = with_moves(before=before)
    assert (line_of(text, "Doubles => 2"), "syntax") in found(session(text))


# --- reading ----------------------------------------------------------------------------

def test_a_line_that_cannot_be_read_is_a_syntax_problem_and_reading_goes_on():
    text = "Game 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann dubles\n Ann wins\n"
    s = session(text)
    assert found(s) == [(line_of(text, "dubles"), "syntax")]
    assert amounts(s.games[0])["Ann"] == 3


def test_lines_outside_a_game():
    assert [k for _, k in found(session(" Ann wins\nGame 1\nBox: Ann  Captain: Bob  Team: Cho, Dee\n Ann wins\n"))] == ["order"]


def test_the_players_line():
    assert [k for _, k in found(session("", head="Chouette: Ann, Bob\n"))] == ["player"]
    assert [k for _, k in found(session("", head="Chouette: Ann, Bob, Ann, Cho\n"))] == ["player"]


@pytest.mark.parametrize("text", ["", "# only a comment\n", "Game 1\nChouette: Ann, Bob, Cho\n", "garbage !!\n"])
def test_not_a_chouette_file(text):
    with pytest.raises(MatchFileError) as error:
        read_chouette(text, "x.txt")
    assert "not a chouette file" in str(error.value) and str(error.value).startswith("x.txt:")


# --- the command -------------------------------------------------------------------------

def run(*args):
    return invoke("chouette", *args)


def test_cli_exit_statuses(tmp_path):
    assert run(str(SAMPLES / "chouette.txt")).exit_code == 0
    flawed = run(str(SAMPLES / "chouette_flawed.txt"))
    assert flawed.exit_code == 1 and "chouette_flawed.txt:10: game 1: team: Cho doubles alone" in flawed.output
    bad = tmp_path / "bad.txt"
    bad.write_text("hello\n")
    result = run(str(bad))
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "Traceback" not in result.output
    assert f"{bad}:1:1: not a chouette file" in result.output
    missing = run(str(tmp_path / "missing.txt"))
    assert missing.exit_code == 2 and "cannot read" in missing.output


def test_cli_json_matches_the_library():
    result = run("--json", str(SAMPLES / "chouette_flawed.txt"))
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data == json.loads(json.dumps(settle_file(SAMPLES / "chouette_flawed.txt").to_dict()))
    assert {p["kind"] for p in data["problems"]} == {"answer", "team", "dropped", "rotation", "result"}


def test_the_samples_totals_sum_to_zero():
    for name in ("chouette.txt", "chouette_flawed.txt"):
        s = settle_file(SAMPLES / name)
        assert sum(s.totals.values()) == 0
        for game, running in zip(s.games, s.running()):
            assert sum(game.settlement.values()) == 0 and sum(running.values()) == 0


# --- generated sessions, settled by a simple model of the rules --------------------------

NAMES = ["Ann", "Bob", "Cho", "Dee", "Eve", "Fay"]


@st.composite
def sessions(draw):
    """A clean session and what each game must come to, worked out here
    from the rules alone."""
    players = NAMES[:draw(st.integers(3, 6))]
    stake = draw(st.sampled_from([1, 2, 5]))
    lines = [f"Chouette: {', '.join(players)}", f"Stake: {stake}"]
    box, captain, team = players[0], players[1], players[2:]
    expected = []
    for number in range(1, draw(st.integers(1, 6)) + 1):
        lines += ["", f"Game {number}", f"Box: {box}  Captain: {captain}  Team: {', '.join(team)}"]
        still_in = [captain, *team]
        money = {name: 0 for name in (box, *still_in)}

        def pay(member, amount):          # member pays the box (a negative amount: the box pays)
            money[member] -= amount
            money[box] += amount

        cube, owner, team_won = 1, None, None
        while team_won is None:
            choices = ["end"] + (["box", "team"] if cube < 64 else [])
            choices = [c for c in choices if c == "end" or owner in (None, c)]
            action = draw(st.sampled_from(choices))
            if action == "box":
                lines.append(f" {box} doubles => {cube * 2}")
                takes = draw(st.lists(st.booleans(), min_size=len(still_in), max_size=len(still_in)))
                answers = [f"{m} {'takes' if t else 'drops'}" for m, t in zip(still_in, takes)]
                random.Random(draw(st.integers(0, 99))).shuffle(answers)
                split = draw(st.integers(0, len(answers)))
                lines += [" " + "  ".join(part) for part in (answers[:split], answers[split:]) if part]
                for member, take in zip(still_in, takes):
                    if not take:
                        pay(member, cube * stake)
                still_in = [m for m, t in zip(still_in, takes) if t]
                if not still_in:
                    team_won = False
                cube, owner = cube * 2, "team"
            elif action == "team":
                lines.append(f" Team doubles => {cube * 2}")
                take = draw(st.booleans())
                lines.append(f" {box} {'takes' if take else 'drops'}")
                if not take:
                    for member in still_in:
                        pay(member, -cube * stake)
                    team_won = True
                cube, owner = cube * 2, "box"
            else:
                kind, word = draw(st.sampled_from([(1, ""), (2, " gammon"), (3, " backgammon")]))
                team_won = draw(st.booleans())
                who = draw(st.sampled_from(["Team", still_in[0]])) if team_won else box
                lines.append(f" {who} wins{word}")
                for member in still_in:
                    pay(member, (-1 if team_won else 1) * cube * kind * stake)
        expected.append(money)
        if team_won:
            box, captain, team = captain, team[0], [*team[1:], box]
        else:
            captain, team = team[0], [*team[1:], captain]
    return "\n".join(lines) + "\n", expected


@given(sessions())
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
def test_generated_sessions_settle_as_the_rules_say(case):
    text, expected = case
    s = settle(read_chouette(text))
    assert s.problems == (), (text, s.problems)
    assert [amounts(game) for game in s.games] == expected
    assert sum(s.totals.values()) == 0


@st.composite
def mutated(draw):
    lines = (SAMPLES / draw(st.sampled_from(["chouette.txt", "chouette_flawed.txt"]))).read_text().split("\n")
    for _ in range(draw(st.integers(1, 6))):
        i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "copy", "swap", "cut"]))
        if how == "drop" and len(lines) > 1:
            del lines[i]
        elif how == "copy":
            lines.insert(j, lines[i])
        elif how == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "cut":
            lines[i] = lines[i][: draw(st.integers(0, max(0, len(lines[i]))))]
    return "\n".join(lines)


@given(mutated())
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
def test_mutated_files_give_problems_or_one_error_and_always_sum_to_zero(text):
    try:
        s = settle(read_chouette(text, "m.txt"))
    except MatchFileError as error:
        assert error.line >= 1
        return
    assert sum(s.totals.values()) == 0
    assert all(sum(game.settlement.values()) == 0 for game in s.games)
    assert all(p.line >= 1 for p in s.problems)


@given(st.text(max_size=80))
@settings(max_examples=200)
def test_any_line_parses_or_raises_our_error(text):
    try:
        parse_line(text.replace("\n", " ").replace("\r", " "), 3, "t.txt")
    except MatchFileError as error:
        assert error.line == 3


def test_a_match_given_as_a_chouette_says_what_it_starts_with_and_what_a_chouette_starts_with(run):
    # it said "it starts with 'Chouette: NAME, NAME, NAME', not '5 point match'": of a file that starts with the latter
    result = run("chouette", str(SAMPLES / "flawed_5pt.mat"))
    assert result.exit_code == 2
    assert result.output.splitlines()[0].endswith(
        ":3:1: not a chouette file: it starts with '5 point match', where a chouette file starts with "
        "'Chouette: NAME, NAME, NAME'")
