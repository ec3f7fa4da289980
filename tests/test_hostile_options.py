"""Hostile option values (the front door, round two): every number an option
takes is a usage error naming the option (status 2) when it is out of its
range, "nan" included, before any engine is opened; never a traceback from
deep inside an engine."""
from __future__ import annotations

import pytest

from conftest import SAMPLES, invoke

FLAWED = str(SAMPLES / "flawed_5pt.mat")


@pytest.mark.parametrize("args, option", [
    (["rollout", "start", "31", "--until-se", "nan"], "--until-se"),
    (["rollout", "start", "--until-se", "NaN"], "--until-se"),
    (["hint", "start", "31", "--timeout", "nan"], "--timeout"),
    (["rollout", "start", "--timeout", "nan"], "--timeout"),
    (["rate", FLAWED, "--timeout", "nan"], "--timeout"),
    (["dice", FLAWED, "--timeout", "nan"], "--timeout"),
    (["rate", FLAWED, "--second-opinion", "sage", "--margin", "nan"], "--margin"),
    (["hint", "start", "31", "--rollout", "--until-se", "nan"], "--until-se"),
])
def test_nan_is_refused_where_a_number_is_bounded(args, option):
    """click's FloatRange lets "nan" through its bounds (every comparison with nan is false): a
    timeout of nan ran with no limit, an --until-se of nan failed later with status 1."""
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}': 'nan' is not a number." in result.output.replace("NaN", "nan")


@pytest.mark.parametrize("value", ["1000000000000", "10001"])
def test_a_truncation_past_any_game_is_a_usage_error(value):
    """``--truncate 10**12`` reached sage's rollout as a number its C++ cannot take: a TypeError traceback."""
    result = invoke("rollout", "start", "31", "--trials", "36", "--truncate", value)
    assert result.exit_code == 2
    assert "Invalid value for '--truncate'" in result.output and "0<=x<=10000" in result.output


def test_the_largest_truncation_still_rolls_out():
    result = invoke("rollout", "start", "31", "--trials", "36", "--candidates", "1", "--truncate", "10000")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("args", [["rollout", "start", "31"], ["hint", "start", "31", "--rollout"]])
def test_an_interrupted_rollout_says_so_on_standard_error_as_every_command_does(monkeypatch, args):
    """A rollout cut by Ctrl-C prints the figures of the trials finished, and ends with status 130 and
    the one line every interrupted command writes (it ended silently: a script reading only
    standard error could not tell the figures were partial)."""
    import dataclasses

    import bgcli.cli.rollout as command

    whole = command.run_rollout

    def interrupted(*args, **kwargs):
        return dataclasses.replace(whole(*args, **kwargs), partial=True)

    monkeypatch.setattr(command, "run_rollout", interrupted)
    result = invoke(*args, "--level", "0", "--trials", "36", "--candidates", "1")
    assert result.exit_code == 130
    assert "PARTIAL: interrupted" in result.stdout
    assert result.stderr.splitlines() == ["Error: interrupted"]


def test_a_seed_past_32_bits_is_a_usage_error():
    """gnubg keeps a rollout's seed in 32 bits: --seed 4294967296 rolled the dice of --seed 0, silently."""
    result = invoke("rollout", "start", "31", "--trials", "36", "--seed", str(2**32))
    assert result.exit_code == 2
    assert "Invalid value for '--seed': 4294967296 is not in the range 0<=x<=4294967295." in result.stderr


def test_the_largest_seed_rolls_out():
    result = invoke("rollout", "start", "31", "--level", "0", "--trials", "36", "--candidates", "1", "--seed", str(2**32 - 1))
    assert result.exit_code == 0, result.output
    assert "seed 4294967295" in result.stdout
