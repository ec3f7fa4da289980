"""hint --rollout: after the ranking, the best plays (or the cube decision) rolled out by the rollout
command's own code, with the same options; text and JSON."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bgcli.cli import cli

BEAR_OFF = "bQUAAFsJAAAAAA"   # a bear-off without contact: the exact engine answers it
OWNED = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:0:0:0:0:10"   # the opponent owns the cube


def _run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def _json(*args) -> dict:
    done = _run(*args, "--json")
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


def test_the_best_plays_of_the_ranking_are_rolled_out_with_their_errors_and_intervals():
    found = _json("hint", "--engine", "exact", "--rollout", "--trials", "36", "--candidates", "2", BEAR_OFF, "61")
    ranked = [p["play"] for p in found["plays"]]
    rolled = found["rollout"]
    assert rolled["trials"] == 36 and rolled["settings"]["cubeful"] is False   # the exact engine is cubeless
    assert {line["play"] for line in rolled["lines"]} == set(ranked[:2])
    for line in rolled["lines"]:
        e = line["equity"]
        assert 0 < e["se"] < 0.01 and e["low"] < e["mean"] < e["high"]
        assert e["high"] - e["low"] == pytest.approx(2 * 1.959963984540054 * e["se"])


def test_the_rollout_is_the_rollout_commands_to_the_last_digit():
    options = ["--trials", "36", "--seed", "5", "--truncate", "2"]
    hinted = _json("hint", "--engine", "exact", "--rollout", "--candidates", "2", *options, BEAR_OFF, "61")
    plays = [p["play"] for p in hinted["plays"][:2]]
    alone = _json("rollout", "--engine", "exact", "--cubeless", *options,
                  *[w for p in plays for w in ("--play", p)], BEAR_OFF, "61")
    assert hinted["rollout"]["lines"] == alone["lines"]


def test_another_seed_gives_other_figures():
    a = _json("hint", "--engine", "exact", "--rollout", "--trials", "36", "--seed", "1",
              BEAR_OFF, "61")
    b = _json("hint", "--engine", "exact", "--rollout", "--trials", "36", "--seed", "2", BEAR_OFF, "61")
    assert a["plays"] == b["plays"] and a["rollout"]["lines"] != b["rollout"]["lines"]


def test_the_text_gives_the_ranking_then_the_rollout():
    done = _run("hint", "--engine", "exact", "--rollout", "--trials", "36", "--candidates", "1", BEAR_OFF, "61")
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("rollout by bgcli, exact"))
    assert lines[1].lstrip().startswith("1. 6/off 1/off") and header > 1
    assert "36 trials, cubeless" in lines[header + 1] and "95% interval" in lines[header + 2]
    assert lines[header + 3].lstrip().startswith("1. 6/off 1/off") and len(lines) == header + 4


def test_without_rollout_the_output_has_no_rollout():
    found = _json("hint", "--engine", "exact", BEAR_OFF, "61")
    assert "rollout" not in found
    assert "rollout by" not in _run("hint", "--engine", "exact", BEAR_OFF, "61").output


def test_a_cube_decision_is_rolled_out_as_the_rollout_command_rolls_it_out():
    pytest.importorskip("bgsage")
    options = ["--trials", "36", "--truncate", "2", "--seed", "3"]
    hinted = _json("hint", "--level", "0", "--rollout", *options, "start")
    assert "cube" in hinted and hinted["rollout"]["cube"]["may_double"] is True
    kinds = [line["kind"] for line in hinted["rollout"]["lines"]]
    assert kinds == ["no double", "double, take", "double, pass"]
    alone = _json("rollout", *options, "start")
    assert hinted["rollout"]["lines"] == alone["lines"] and hinted["rollout"]["cube"] == alone["cube"]


def test_a_player_who_may_not_double_has_nothing_rolled_out():
    pytest.importorskip("bgsage")
    found = _json("hint", "--level", "0", "--rollout", "--trials", "36", OWNED)
    assert found["cube"]["may_double"] is False and found["rollout"] is None


@pytest.mark.parametrize("words, message", [
    (["--rollout", "--batch", "-"], "not with --batch"),
    (["--rollout", "--trials", "0", "start", "31"], "--trials"),
    (["--rollout", "--until-se", "0", "start", "31"], "--until-se"),
])
def test_bad_rollout_options_are_a_usage_error(words, message):
    done = CliRunner().invoke(cli, ["hint", *words], input="")
    assert done.exit_code == 2 and message in done.output
