"""Hostile words on the command line: a typo in the dice of ``hint`` and
``rollout`` is an error about the dice (status 1), as ``moves`` says it,
never dropped (the rest read as a position and the cube judged) nor blamed
on the position."""
from __future__ import annotations

import pytest

from conftest import invoke


@pytest.mark.parametrize("command", [["hint"], ["rollout", "--trials", "36"]])
@pytest.mark.parametrize("words, dice", [
    (["4HPwATDgc/ABMA", "71"], "71"),                  # was: the cube of the position, the 71 dropped
    (["4HPwATDgc/ABMA:cAkAAAAAAAAA", "9"], "9"),       # was: the cube, the 9 dropped
    (["start", "31x"], "31x"),                         # was: "invalid position 'start 31x'"
    (["start", "0"], "0"),
    (["start", "7", "1"], "7 1"),
    (["start", "31", "7"], "31 7"),
])
def test_a_typo_in_the_dice_is_an_error_naming_the_dice(command, words, dice):
    result = invoke(*command, *words)
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [f"Error: invalid dice '{dice}': expected two numbers from 1 to 6, such as 31, 3-1 or (3,1)"]
    assert result.stdout == ""


def test_moves_says_the_same_of_the_same_words():
    result = invoke("moves", "4HPwATDgc/ABMA", "71")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["Error: invalid dice '71': expected two numbers from 1 to 6, such as 31, 3-1 or (3,1)"]


@pytest.mark.parametrize("words, heading", [
    (["start"], "cube decision"),
    (["start", "3", "1"], ", 31"),
    (["XGID=-a----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"], ", 52"),   # the dice the position carries
])
def test_the_words_hint_reads_as_before(words, heading):
    result = invoke("hint", "--level", "0", *words)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].endswith(heading)


def test_a_batch_line_with_a_typo_in_its_dice_is_that_line_s_error():
    result = invoke("hint", "--level", "0", "--batch", "-", input="start 31\n4HPwATDgc/ABMA 71\n")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1] == ('{"error": "line 2: invalid dice \'71\': expected two numbers from 1 to 6, '
                                             'such as 31, 3-1 or (3,1)"}')


def test_a_patch_written_over_its_input_is_refused_naming_the_patch_option(tmp_path):
    """``repair F --patch F`` said ``-o F is one of the inputs``: the option the user gave is --patch."""
    from conftest import SAMPLES

    path = tmp_path / "f.mat"
    text = (SAMPLES / "flawed_5pt.mat").read_bytes()
    path.write_bytes(text)
    result = invoke("repair", str(path), "--patch", str(tmp_path / "." / "f.mat"))
    assert result.exit_code == 2
    assert f"Error: --patch {tmp_path / '.' / 'f.mat'} is one of the inputs: write somewhere else" in result.stderr
    assert path.read_bytes() == text


@pytest.mark.parametrize("command", ["show", "analyze"])
@pytest.mark.parametrize("dice", [("31",), ("3-1",), ("3", "1"), ("1-3",)])
def test_show_and_analyze_answer_for_the_dice_given_as_moves_reads_them(command, dice):
    """``show start 31`` and ``analyze ID 3-1`` were refused (the dice ignored before that): the dice are
    read as moves and hint read theirs, and each command answers for that roll."""
    import json

    result = invoke(command, "start", *dice)
    assert result.exit_code == 0, result.output
    if command == "show":   # the board with the roll, its Match ID carrying it, as an XGID with dice draws it
        from bgcli.core.ids import parse_position

        assert "Rolled 31" in result.output and "Rolled" not in invoke("show", "start").output
        match_id = result.output.split("Match ID   : ")[1].split()[0]
        assert parse_position(f"4HPwATDgc/ABMA:{match_id}").match.dice == (3, 1)
    else:   # the legal plays of the roll, as moves lists them
        moves = json.loads(invoke("moves", "--json", "start", "31").output)
        found = json.loads(invoke("analyze", "--json", "start", *dice).output)
        assert (found["dice"], found["plays"]) == (moves["dice"], moves["plays"])
        assert result.output.splitlines()[-len(moves["plays"]) - 1:] == \
            [f"plays of 31      {len(moves['plays'])} legal plays"] + [f"  {p['play']}" for p in moves["plays"]]


@pytest.mark.parametrize("command", ["show", "analyze"])
def test_wrong_dice_after_the_position_are_said_to_be_the_dice(command):
    """``show start 71``: the dice are what is wrong, as moves says it."""
    result = invoke(command, "start", "71")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["Error: invalid dice '71': expected two numbers from 1 to 6, such as 31, 3-1 or (3,1)"]


def test_analyze_batch_lines_take_dice_too():
    import json

    result = invoke("analyze", "--batch", "-", input="start 3-1\nstart\n")
    with_dice, without = (json.loads(line) for line in result.output.splitlines())
    assert with_dice["dice"] == [3, 1] and len(with_dice["plays"]) == 16
    assert "plays" not in without and {k: v for k, v in with_dice.items() if k not in ("dice", "plays")} == without


@pytest.mark.parametrize("command", ["show", "analyze"])
def test_a_wrong_position_alone_is_said_as_before(command):
    result = invoke(command, "strat")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: invalid position 'strat': expected start")
