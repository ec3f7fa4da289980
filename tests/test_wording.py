"""A problem quotes the record in its own format's words (bgcli.match.wording):
a .mat file's "Doubles => 4" and "Wins 2 points", an SGF file's ``RE[W+3]``,
a line of FIBS's or GamesGrid's as the file has it, plain words for a binary
file; never another format's words. The .mat messages are as they were
before the words had an owner (byte for byte)."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import committed

from bgcli.core.rules import Rules
from bgcli.formats import mat, sgf
from bgcli.match.records import Action, ActionKind
from bgcli.match.replay import replay_match
from bgcli.match.wording import AS_WRITTEN, PLAIN

DATA = Path(__file__).parent / "data"


def messages(record) -> list[str]:
    return [p.message for p in replay_match(record, rules=Rules(beavers=True)).problems]


@pytest.mark.parametrize("change, wanted", [
    (("Doubles => 8", "Doubles => 16"), "Doubles => 16 but the cube is at 4: a double makes it 8"),
    (("Beavers => 4", "Beavers => 8"), "Beavers => 8 but a beaver of a 2 cube makes it 4"),
    (("Wins 4 points", "Wins 5 points"), "Wins 5 points after a drop, but a dropped 8-cube is worth 4"),
    (("                                  Wins 4 points\n", ""), "game 1 ends with a drop but its 'Wins' line is missing"),
])
def test_a_mat_files_messages_quote_its_words_as_before(change, wanted):
    text = committed(DATA / "matchfiles" / "money_beaver.mat").read_text(encoding="utf-8")
    assert change[0] in text
    (record,) = mat.read_matches(text.replace(*change)).matches
    assert wanted in messages(record)


def test_an_sgf_files_message_quotes_its_result_not_a_mat_line():
    text = committed(DATA / "sgf" / "sp05003_7pt.sgf").read_text(encoding="utf-8")
    (record,) = sgf.read_sgf(text.replace("RE[W+2]", "RE[W+3]", 1), "m.sgf")
    assert messages(record) == ["RE[W+3] after a drop, but a dropped 4-cube is worth 2"]


def test_the_mat_writer_writes_the_words_the_messages_quote():
    """One owner: the .mat writer's cells are mat.WORDS, which its messages quote."""
    (record,) = mat.read_file(committed(DATA / "matchfiles" / "money_beaver.mat")).matches
    written = str(record)   # the .mat text gnubg would write (MatWriter)
    assert f" {mat.WORDS.doubled(None, 2)}" in written and f" {mat.WORDS.beavered(None, 4)}" in written
    assert f" {mat.WORDS.won(None, 4)}" in written


def test_plain_and_as_written_words():
    double = Action(3, 1, 2, 1, ActionKind.DOUBLE, cube=4, raw="Double to 4")
    assert PLAIN.doubled(double, 4) == "a double to 4"
    assert AS_WRITTEN.doubled(double, 4) == "'Double to 4' (a double to 4)"
    # a record that kept no text of the action is said in plain words, never as ''
    assert AS_WRITTEN.won(Action(3, 1, None, 0, ActionKind.WIN, points=2), 2) == "a win of 2 points"
    assert sgf.WORDS.won(Action(3, 1, None, 0, ActionKind.WIN, points=2, raw="W+2R"), 2) == "RE[W+2R]"


def test_the_cube_limit_is_said_in_the_records_words(tmp_path):
    """The cube module says the rule; the double is quoted in the record's words (plain by default)."""
    from bgcli.core.cube import CubeTurn, Holder, refusals

    rules = Rules(match_length=5, cube_limit=4)
    turn = CubeTurn(cube=4, holder=Holder.OPPONENT, away=5, opponent_away=5, rules=rules)
    (limit,) = [r for r in refusals(turn, 8) if "limit" in r.said_of("Bob", "Ann")]
    assert limit.said_of("Bob", "Ann") == "a double to 8 goes past the cube limit of 4"
    assert limit.said_of("Bob", "Ann", doubled=sgf.WORDS.doubled(Action(1, 1, 3, 1, ActionKind.DOUBLE, raw="double"), 8)) \
        == "B[double] (to 8) goes past the cube limit of 4"
