"""rate --second-opinion: every decision judged by two engines at once (bgcli.judging.opinion), each
player's PR by both, and the decisions they disagree on. The engines are the fake of tests/fake_engine.py,
the second with its double/take equity shifted, so the disagreements are known from the two ratings made
apart."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import bgcli.scale.rating as scale_rating
from bgcli.cli import cli
from bgcli.formats.files import visit_file
from bgcli.judging.opinion import disagreements, rolled_out, second_opinion
from bgcli.judging.rating import rate_replay
from fake_engine import FakeEngine

DATA = Path(__file__).parent / "data" / "rating"
MATCH = DATA / "sp05025_3pt.mat"
BIAS = 0.35   # the second engine's double/take equity, shifted: it doubles and passes where the first does not


def _visit(path):
    return lambda visitor: visit_file(str(path), visitor, None)


def _apart(engine):
    return rate_replay(engine, _visit(MATCH), luck_engine=FakeEngine(0))


@pytest.mark.parametrize("margin", [0.0, 0.02, 0.1])
def test_both_ratings_are_each_engines_own_and_the_disagreements_follow_from_them(margin):
    first, second = FakeEngine(), FakeEngine(cube_bias=BIAS)
    found = second_opinion((first, second), (FakeEngine(0), FakeEngine(0)), _visit(MATCH), margin)
    alone = _apart(FakeEngine()), _apart(FakeEngine(cube_bias=BIAS))
    assert len(found) == len(alone[0]) == 1
    opinion = found[0]
    # shown one replay, each rater judges as it does alone
    assert [d.to_dict() for d in opinion.first.decisions] == [d.to_dict() for d in alone[0][0].decisions]
    assert [d.to_dict() for d in opinion.second.decisions] == [d.to_dict() for d in alone[1][0].decisions]
    expected = [(a.game, a.line, a.side, a.kind) for a, b in zip(alone[0][0].decisions, alone[1][0].decisions)
                if a.error is not None and b.error is not None
                and (a.best != b.best or (a.is_cube and a.action != b.action)) and abs(a.error - b.error) > margin]
    got = [(d.first.game, d.first.line, d.first.side, d.first.kind) for d in opinion.disagreements]
    assert got == expected
    if margin < 0.1:
        assert got, "no disagreement at all: the test proves nothing"
    for d in opinion.disagreements:
        assert d.state is not None and d.verdict is None
        assert d.first.is_cube == (d.dice is None)
        assert d.to_dict()["position"].startswith("XGID=")


def test_the_same_engine_twice_never_disagrees():
    found = second_opinion((FakeEngine(), FakeEngine()), (FakeEngine(0), FakeEngine(0)), _visit(MATCH), 0.0)
    assert found and not found[0].disagreements


def test_ratings_of_different_replays_are_refused():
    a = _apart(FakeEngine())[0]
    b = rate_replay(FakeEngine(), _visit(DATA / "sp05000_1pt.mat"), luck_engine=FakeEngine(0))[0]
    with pytest.raises(ValueError, match="not the same replay|part at"):
        disagreements(a, b)


@pytest.fixture
def fakes(monkeypatch):
    def engines_for(spec):
        bias = BIAS if spec.name == "gnubg" else 0.0
        return FakeEngine(spec.level, cube_bias=bias), FakeEngine(0, cube_bias=bias)

    monkeypatch.setattr(scale_rating, "engines_for", engines_for)


def run(*args):
    return CliRunner().invoke(cli, ["rate", *map(str, args)])


def test_rate_second_opinion_json_and_text(fakes):
    result = run("--json", "--second-opinion", "gnubg", "--verdict-trials", "0", MATCH)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    second = data["second_opinion"]
    assert second["first"] == "sage 2-ply" and second["second"] == "gnubg 2-ply" and second["rollout"] is None
    assert [p["name"] for p in second["players"]] == [p["name"] for p in data["players"]]
    assert [p["pr_first"] for p in second["players"]] == [p["pr"] for p in data["players"]]
    assert any(p["pr_first"] != p["pr_second"] for p in second["players"])
    assert second["disagreements"] and all(d["gap"] > 0.02 for d in second["disagreements"])
    assert run("--json", "--second-opinion", "gnubg", "--verdict-trials", "0", MATCH).stdout == result.stdout
    text = run("--second-opinion", "gnubg", "--verdict-trials", "0", MATCH)
    assert text.exit_code == 0
    assert "second opinion: PR by sage 2-ply and by gnubg 2-ply" in text.stdout
    assert f"{len(second['disagreements'])} decisions the engines disagree on" in text.stdout
    assert "no rollout verdict" in text.stdout


def test_without_second_opinion_the_output_is_as_before(fakes):
    data = json.loads(run("--json", MATCH).stdout)
    assert "second_opinion" not in data


def test_a_wider_margin_reports_fewer(fakes):
    narrow = json.loads(run("--json", "--second-opinion", "gnubg", "--margin", "0", "--verdict-trials", "0", MATCH).stdout)
    wide = json.loads(run("--json", "--second-opinion", "gnubg", "--margin", "0.5", "--verdict-trials", "0", MATCH).stdout)
    assert len(wide["second_opinion"]["disagreements"]) < len(narrow["second_opinion"]["disagreements"])


def test_second_opinion_refuses_a_database(fakes, tmp_path):
    result = run("--second-opinion", "gnubg", "--db", tmp_path / "r.sqlite", MATCH)
    assert result.exit_code == 2 and "--second-opinion" in result.output


class Contrary(FakeEngine):
    """A fake whose ranking of plays is the fake's turned upside down: it disagrees on the best play."""

    def play_equity(self, state, result):
        return -super().play_equity(state, result)


def _settled(answers, cube):
    """The rule a verdict is settled by, from the figures it reports (the 95% normal interval of a difference)."""
    from math import sqrt

    from bgcli.judging.rollout import Z95

    if cube:
        nd, dt = answers[0], answers[1]
        apart = abs(nd["equity"] - min(dt["equity"], 1.0)) > Z95 * sqrt(nd["se"] ** 2 + (dt["se"] ** 2 if dt["equity"] < 1 else 0))
        return apart and abs(dt["equity"] - 1.0) > Z95 * dt["se"]
    top, other = answers
    return top["equity"] - other["equity"] > Z95 * sqrt(top["se"] ** 2 + other["se"] ** 2)


def test_a_play_disagreement_is_decided_by_a_rollout_of_the_two_best_plays():
    found = second_opinion((FakeEngine(), Contrary()), (FakeEngine(0), FakeEngine(0)), _visit(MATCH), 0.0)
    plays = [d for d in found[0].disagreements if not d.first.is_cube]
    assert plays, "no play disagreement: the test proves nothing"
    for d in plays[:2]:
        judged = rolled_out(d, FakeEngine(0), trials=8, truncate=2)
        answers = judged.rollout["answers"]
        assert {a["answer"] for a in answers} == {d.first.best, d.second.best}
        assert judged.verdict == max(answers, key=lambda a: a["equity"])["answer"]
        assert judged.settled == _settled(answers, cube=False)
        assert judged.rollout["trials"] == 8
        assert rolled_out(d, FakeEngine(0), trials=8, truncate=2) == judged   # the same seed, the same verdict


def test_a_cube_disagreement_is_decided_by_a_rollout_of_the_cube_decision():
    from bgcli.core.cube import CubeAction

    found = second_opinion((FakeEngine(), FakeEngine(cube_bias=BIAS)), (FakeEngine(0), FakeEngine(0)), _visit(MATCH), 0.0)
    cubes = [d for d in found[0].disagreements if d.first.is_cube]
    assert cubes, "no cube disagreement: the test proves nothing"
    judged = rolled_out(cubes[0], FakeEngine(0), trials=8, truncate=2)
    assert judged.verdict in {str(a) for a in CubeAction}
    answers = judged.rollout["answers"]
    assert [a["answer"] for a in answers] == ["no double", "double, take", "double, pass"]
    assert judged.settled == _settled(answers, cube=True)


def test_rate_second_opinion_gives_each_disagreement_the_rollouts_verdict(fakes, monkeypatch):
    import bgcli.judging.opinion as opinion

    # the fake engine plays whole games slowly: the verdicts' rollouts here stop after two half-moves
    whole = opinion.rolled_out
    monkeypatch.setattr(opinion, "rolled_out", lambda d, engine, trials: whole(d, engine, trials, truncate=2))
    data = json.loads(run("--json", "--second-opinion", "gnubg", "--verdict-trials", "6", MATCH).stdout)["second_opinion"]
    assert data["rollout"] == {"engine": "sage 0-ply", "trials": 6}
    assert data["disagreements"]
    for d in data["disagreements"]:
        assert d["verdict"] is not None and d["rollout"]["trials"] == 6 and isinstance(d["settled"], bool)
    text = run("--second-opinion", "gnubg", "--verdict-trials", "6", MATCH).stdout
    assert "each rolled out by sage 0-ply, 6 trials" in text
    assert text.count("    rollout: ") == len(data["disagreements"])
