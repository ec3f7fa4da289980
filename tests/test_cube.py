"""The one cube module (bgcli.core.cube) against GNU Backgammon's own cube analysis, and its rules.

tests/data/cube/cases.jsonl holds gnubg 1.07's 2-ply cube analysis of cube
decisions bgcli never saw (tests/data/cube/make_cube.py says how they were made).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from bgcli.core import cube
from bgcli.core.cube import (
    Answer, CubeAction, CubeTurn, Holder, Reason, may_double, percent, proper_action, proper_action_of, ranked,
    refusals,
)
from bgcli.core.ids import parse_position
from bgcli.core.rules import Rules

DATA = Path(__file__).parent / "data" / "cube" / "cases.jsonl"
CASES = [json.loads(line) for line in DATA.read_text().splitlines()]
# a held-out check's cases at what CASES lacks: 1-, 2-, 4-point and long matches, 1-away/2-away
# (tests/data/cube/make_heldout.py)
# and a later one's, with other seeds (tests/data/heldout-fresh/NOTE.md)
HELDOUT = [json.loads(line) for path in (DATA.parent / "heldout.jsonl", DATA.parent.parent / "heldout-fresh" / "cube.jsonl")
           for line in path.read_text().splitlines()]
ROOT = Path(__file__).resolve().parent.parent / "bgcli"


def _turn(case: dict) -> CubeTurn:
    return CubeTurn.of(parse_position(case["xgid"]))


def _figures(case: dict) -> tuple[float, float, float]:
    return case["no_double"], case["double_take"], case["double_pass"]


def test_the_golden_data_cover_every_kind_of_cube_decision():
    assert len(CASES) >= 200
    said = {case["proper"] for case in CASES}
    for words in ("No double, take", "No redouble, take", "Double, take", "Redouble, take", "Double, pass",
                  "Redouble, pass", "Too good to double, pass", "Too good to redouble, pass", "No double, beaver",
                  "No redouble, beaver", "Optional double, take", "Optional double, pass", None):
        assert words in said, words
    assert {case["words"] for case in CASES} >= {"Never double, take (dead cube)", "Never redouble, take (dead cube)"}


def test_the_held_out_cases_cover_what_the_others_lack():
    lengths = {parse_position(case["xgid"]).match.match_length for case in HELDOUT}
    assert {1, 2, 4} <= lengths and max(lengths) > 11
    assert {"Too good to double, take", "Optional redouble, pass"} <= {case["proper"] for case in HELDOUT}
    assert {"1pt", "crawford", "post", "1away2away", "2away", "dead", "money"} <= {case["kind"] for case in HELDOUT}


@pytest.mark.parametrize("case", CASES + HELDOUT, ids=[f"{n}-{c['kind']}" for n, c in enumerate(CASES + HELDOUT)])
def test_the_proper_action_is_gnubgs_in_its_own_words(case):
    turn = _turn(case)
    refused = may_double(turn)
    # gnubg's hint says "You cannot double." exactly where bgcli finds a reason
    assert (refused is None) == (case["proper"] is not None), (refused, case["hint"])
    action = proper_action_of(turn, *_figures(case), gammons=case["probs"][1] > 0)
    if case["words"] != "Unknown cube decision":   # gnubg's word when the opponent owns the cube
        assert str(action) == case["words"]
    if case["proper"] is None:
        return
    assert str(action) == case["proper"]
    found = percent(action, *_figures(case))
    assert (found is None) == (case["percent"] is None)
    if found is not None:
        assert f"{100 * found:.1f}" == f"{case['percent']:.1f}"
    lines = [line[3:16].strip() for line in case["hint"] if line[:2] in ("1.", "2.", "3.")]
    assert [str(line) for line in ranked(action, *_figures(case))] == lines


def test_gnubgs_tie_breaks():
    # a won game: no double = double/pass = +1, no gammons: gnubg says "Double, pass"
    assert proper_action(1.0, 2.0, 1.0, gammons=False) is CubeAction.DOUBLE_PASS
    # the same tie where holding may still win a gammon: optional
    assert proper_action(1.0, 1.93, 1.0) is CubeAction.OPTIONAL_DOUBLE_PASS
    assert proper_action(1.0, 1.93, 1.0, redouble=True) is CubeAction.OPTIONAL_REDOUBLE_PASS
    # double/take equal to no double (within 1e-5): optional
    assert proper_action(0.3, 0.300005, 1.0) is CubeAction.OPTIONAL_DOUBLE_TAKE
    assert proper_action(0.3, 0.30002, 1.0, redouble=True) is CubeAction.REDOUBLE_TAKE
    # double/take equal to double/pass: the doubled player passes
    assert proper_action(0.5, 1.0, 1.0) is CubeAction.DOUBLE_PASS
    # too good only when no double is strictly above double/pass
    assert proper_action(1.0000007, 1.94, 1.0, redouble=True) is CubeAction.TOO_GOOD_RE_PASS
    assert proper_action(1.2, 0.9, 1.0) is CubeAction.TOO_GOOD_TAKE
    assert proper_action(1.2, 0.9, 1.0, redouble=True) is CubeAction.TOO_GOOD_RE_TAKE
    # beavers: money, a taker ahead but not past a sure single win at the doubled cube
    assert proper_action(0.1, -0.17, 1.0, beavers=True) is CubeAction.NO_DOUBLE_BEAVER
    assert proper_action(-1.0, -2.0, 1.0, beavers=True, redouble=True) is CubeAction.NO_REDOUBLE_BEAVER
    assert proper_action(-1.0, -2.44, 1.0, beavers=True) is CubeAction.NO_DOUBLE_TAKE
    assert proper_action(0.1, -0.17, 1.0) is CubeAction.NO_DOUBLE_TAKE
    assert proper_action(-0.2, -0.1, 1.0, beavers=True) is CubeAction.DOUBLE_BEAVER
    assert proper_action(-0.1, -0.1, 1.0, beavers=True) is CubeAction.OPTIONAL_DOUBLE_BEAVER
    assert proper_action(0.0, 0.0, 0.0, dead=True) is CubeAction.NEVER_DOUBLE


def test_each_action_says_whether_to_double_and_the_answer():
    for action in CubeAction:
        assert str(action) == action.value
        assert action.answer in Answer
    assert CubeAction.TOO_GOOD_PASS.answer is Answer.PASS and not CubeAction.TOO_GOOD_PASS.doubles
    assert CubeAction.OPTIONAL_DOUBLE_TAKE.doubles and CubeAction.OPTIONAL_DOUBLE_TAKE.optional
    assert CubeAction.NO_DOUBLE_BEAVER.answer is Answer.BEAVER and not CubeAction.NO_DOUBLE_BEAVER.doubles
    assert CubeAction.REDOUBLE_PASS.doubles and not CubeAction.NEVER_REDOUBLE.doubles


equities = st.floats(min_value=-3.0, max_value=3.0, allow_nan=False)


@given(equities, equities, equities, st.booleans(), st.booleans(), st.booleans())
def test_the_proper_action_is_the_best_for_both_sides(nd, dt, dp, redouble, beavers, gammons):
    """Whatever the tie-breaks, the action chosen is never worse for the doubler than
    another by more than gnubg's tolerance, and the answer is the taker's best."""
    action = proper_action(nd, dt, dp, redouble=redouble, beavers=beavers, gammons=gammons)
    doubled = min(dt, dp)
    if action.doubles:
        assert doubled >= nd - 1e-5   # a won game's no double a rounding above double/pass is still a double
    else:
        assert doubled < nd
    if action.doubles and not action.too_good:
        assert (action.answer is Answer.PASS) == (dp <= dt)
    assert ("redouble" in str(action).lower()) == (redouble and "beaver" not in str(action)) or "beaver" in str(action)


# --- may this player double ------------------------------------------------------------

turns = st.builds(
    CubeTurn,
    cube=st.sampled_from([1, 2, 4, 8, 64]),
    holder=st.sampled_from(list(Holder)),
    away=st.integers(0, 11), opponent_away=st.integers(1, 11), crawford=st.booleans(),
    rules=st.builds(Rules, match_length=st.sampled_from([0, 11]), cubeless=st.booleans(),
                    cube_cap_needed=st.booleans(), cube_limit=st.sampled_from([0, 4, 64, 1024]),
                    beavers=st.booleans()),
)


@given(turns)
def test_each_rule_refuses_exactly_where_it_applies(turn):
    found = {r.reason for r in refusals(turn)}
    rules = turn.rules
    assert (Reason.CUBELESS in found) == rules.cubeless
    assert (Reason.CRAWFORD in found) == (turn.crawford and not rules.cubeless)
    assert (Reason.OWNED in found) == (turn.holder is Holder.OPPONENT)
    assert (Reason.LIMIT in found) == bool(rules.cube_limit and turn.cube * 2 > rules.cube_limit)
    covered = not turn.money and turn.cube >= turn.away
    assert (Reason.CAPPED in found) == (covered and rules.cube_cap_needed)
    assert (Reason.DEAD in found) == (covered and not rules.cube_cap_needed)
    assert (may_double(turn) is None) == (not found)
    for refusal in refusals(turn):
        assert str(refusal) and "{" not in str(refusal)
        assert refusal.reason.breaks_rules == (refusal.reason is not Reason.DEAD)


def test_the_reasons_in_words():
    rules = Rules(match_length=5)
    assert str(may_double(CubeTurn(holder=Holder.OPPONENT))) == "the opponent owns the cube"
    assert str(may_double(CubeTurn(away=1, opponent_away=3, crawford=True, rules=rules))) == \
        "this is the Crawford game: no cube"
    assert str(may_double(CubeTurn(cube=2, away=2, opponent_away=3, rules=rules))) == \
        "the cube (2) already covers the 2 points the player needs"
    # core.cube.points_word says the points, as every other reason does ('2 point(s)' before, '1 point(s)' too)
    assert str(may_double(CubeTurn(cube=1, away=1, opponent_away=3, rules=rules))) == \
        "the cube (1) already covers the 1 point the player needs"
    assert str(may_double(CubeTurn(cube=64, rules=Rules(cube_limit=64)))) == "the cube is at its limit (64)"
    assert str(may_double(CubeTurn(rules=Rules(cubeless=True)))) == "these rules have no doubling cube"
    assert may_double(CubeTurn(cube=2, holder=Holder.PLAYER, away=3, opponent_away=3, rules=rules)) is None
    refusal = may_double(CubeTurn(cube=2, away=2, opponent_away=3, rules=Rules(match_length=5, cube_cap_needed=True)))
    assert refusal is not None and refusal.said_of("Ann") == \
        "Ann doubles, but the cube at 2 is already as much as the 2 points Ann still needs"


def test_beavers_and_raccoons():
    assert cube.beaver_refusal(Rules(beavers=True)) is None
    refused = cube.beaver_refusal(Rules())
    assert refused is not None and refused.said_of("Bob", action="beavers") == \
        "Bob beavers but beavers are not allowed (use --beavers)"
    refused = cube.beaver_refusal(Rules(match_length=7, beavers=True))
    assert refused is not None and refused.reason is Reason.MATCH_BEAVER
    assert cube.raccoon_refusal(Rules(beavers=True), 0, 1) is None
    refused = cube.raccoon_refusal(Rules(beavers=True), 1, 1)
    assert refused is not None and refused.reason is Reason.NOT_DOUBLER
    assert cube.starting_cubes(Rules(auto_doubles=2)) == [1, 2, 4]
    assert cube.starting_cubes(Rules(match_length=5, auto_doubles=2)) == [1]


def test_a_turn_reads_the_match_state():
    from bgcli.core.position import Position
    from bgcli.core.state import GameState, MatchState

    state = GameState(Position.start(), MatchState(rules=Rules(match_length=7), score=(2, 6), on_roll=0, cube=2,
                                                     cube_owner=0))
    turn = CubeTurn.of(state)
    assert (turn.away, turn.opponent_away, turn.holder, turn.redouble) == (5, 1, Holder.PLAYER, True)
    assert CubeTurn.of(state, player=1).holder is Holder.OPPONENT


# --- one owner: no second copy of the cube rule --------------------------------------

_COPIES = [
    # the doubled equity or the proper action worked out by hand
    re.compile(r"min\(\s*[\w.]*double_take\s*,\s*[\w.]*double_pass\s*\)"),
    re.compile(r"min\(\s*[\w.]*double_pass\s*,\s*[\w.]*double_take\s*\)"),
    # gnubg's words for a cube action written out
    # (gnubg's capitals: the stored analyses of other programs' files name their lines in lower case)
    re.compile(r"""["'](?:No (?:re)?double, (?:take|beaver)|(?:Redouble|Double), (?:take|pass|beaver)|Too good to)"""),
    # who may double, decided by hand
    re.compile(r"cube_owner not in \(-1, [\w.]*(?:on_roll|side|me)\b"),
    re.compile(r"def (?:can_double|cube_problem)\b"),
]


def test_no_module_but_the_cube_module_decides_the_cube():
    offenders = []
    for path in sorted(ROOT.rglob("*.py")):
        if path.name == "cube.py" and path.parent.name == "core":
            continue
        text = path.read_text()
        for pattern in _COPIES:
            for found in pattern.finditer(text):
                line = text.count("\n", 0, found.start()) + 1
                offenders.append(f"{path.relative_to(ROOT.parent)}:{line}: {found.group(0)}")
    assert not offenders, "the cube is decided outside bgcli/core/cube.py:\n" + "\n".join(offenders)


@pytest.mark.parametrize("module", ["bgcli/engines/hint.py", "bgcli/judging/rating.py", "bgcli/match/game.py",
                                    "bgcli/cli/hint.py"])
def test_hint_rate_audit_ask_the_cube_module(module):
    assert "bgcli.core.cube" in (ROOT.parent / module).read_text()


# --- hint with gnubg itself: its words and its equities ------------------------------------

def _gnubg_present() -> bool:
    from bgcli.engines.gnubg import find_gnubg

    return find_gnubg() is not None


def _sample(each: int = 3) -> list[dict]:
    """Every kind of answer gnubg gave, ``each`` of each."""
    taken: dict = {}
    return [case for case in CASES if taken.setdefault(case["proper"], []).append(case) or
            len(taken[case["proper"]]) <= each]


SAMPLE = _sample()


def _asked_here(cases: list[dict]) -> list[dict]:
    """gnubg's cube analysis of ``cases`` from the gnubg of this machine, as make_cube.py asks it.
    The golden file's equities come from the gnubg 1.07 of the machine that made them; the same
    gnubg package on another CPU (an AMD EPYC with AVX-512, 6 December 2026) gave 2-ply equities up
    to 1e-5 away and one 0.0035 away, so "bgcli says what gnubg says" is checked against the gnubg
    that bgcli runs, not against the file (which the cube module's own tests use)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_cube", DATA.parent / "make_cube.py")
    assert spec is not None and spec.loader is not None
    make_cube = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_cube)
    from bgcli.engines.gnubg import find_gnubg

    make_cube.GNUBG = find_gnubg()
    keys = ("kind", "gnubgid", "xgid", "beavers", "plies")
    return make_cube.ask_gnubg([{key: case[key] for key in keys} for case in cases])


@pytest.mark.skipif(not _gnubg_present(), reason="GNU Backgammon is not installed")
def test_hint_with_gnubg_gives_gnubgs_words_and_equities():
    from click.testing import CliRunner

    from bgcli.cli import cli

    asked = _asked_here(SAMPLE)
    lines = "".join(case["xgid"] + "\n" for case in SAMPLE)
    # each command closes the engine it opened (bgcli.engines.kept): nothing is left for other tests
    result = CliRunner().invoke(cli, ["hint", "--engine", "gnubg", "--level", "2", "--batch", "-"], input=lines)
    text = CliRunner().invoke(cli, ["hint", "--engine", "gnubg", "--level", "2", SAMPLE[1]["xgid"]]).output
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) == len(SAMPLE)
    for case, row in zip(asked, rows):
        found = row["cube"]
        if case["proper"] is None:
            assert found["may_double"] is False
            continue
        assert found["action"] == case["proper"], case["xgid"]
        for key in ("no_double", "double_take", "double_pass"):
            assert found[key] == pytest.approx(case[key], abs=1e-6)
        if case["percent"] is not None:
            assert f"{100 * found['percent']:.1f}" == f"{case['percent']:.1f}"
    proper = next(line for line in asked[1]["hint"] if line.startswith("Proper cube action"))
    assert text.splitlines()[-1] == "  " + proper


# --- the audit asks it -------------------------------------------------------------------

def _problems(tmp_path, text: str, rules: Rules) -> list[str]:
    from bgcli.formats.files import replay_file

    path = tmp_path / "m.mat"
    path.write_text(text, encoding="utf-8")
    return [p.message for r in replay_file(str(path), rules) for p in r.problems]


def test_a_beaver_in_a_match_breaks_the_rules_even_with_beavers_on(tmp_path):
    game = (" 5 point match\n\n Game 1\n Ann : 0                              Bob : 0\n"
            "  1) 31: 8/5 6/5                      Doubles => 2\n"
            "  2)  Beavers => 4                    21: 13/11 24/23\n"
            "  3)  Doubles => 8                    Drops\n"
            "      Wins 4 points\n")
    found = _problems(tmp_path, game, Rules(match_length=5, beavers=True))
    assert "Ann beavers in a match, but beavers are for money play" in found


def test_the_audits_cube_messages_come_from_the_cube_module(tmp_path):
    head = " 5 point match\n\n Game 1\n Ann : 0                              Bob : 0\n"
    owned = head + ("  1) 31: 8/5 6/5                      Doubles => 2\n"
                    "  2)  Takes                           Doubles => 4\n"
                    "  3)  Takes                           Doubles => 8\n")
    found = _problems(tmp_path, owned, Rules(match_length=5, cube_limit=4))
    turn = CubeTurn(cube=4, holder=Holder.OPPONENT, away=5, opponent_away=5, rules=Rules(match_length=5, cube_limit=4))
    # the double as a .mat file writes it (the record's words, bgcli.match.wording): the cube module says the rest
    said = [r.said_of("Bob", "Ann", doubled="Doubles => 8") for r in refusals(turn, 8)]
    assert said == ["Bob doubles but Ann owns the cube", "Doubles => 8 goes past the cube limit of 4"]
    assert all(message in found for message in said)


def test_gnubgs_close_cube_decisions():
    """A cube turn is close when the proper action is worth less than 0.16 more than double/take (capped at +1)."""
    from bgcli.core.cube import is_close

    assert is_close(0.50, 0.60, 1.0)          # double/take proper: 0 from double/take
    assert is_close(0.60, 0.45, 1.0)          # no double 0.15 above double/take
    assert not is_close(0.70, 0.45, 1.0)      # 0.25 above: not close
    assert is_close(0.80, 1.40, 1.0)          # double/pass proper, double/take capped at +1: 0 above it
    assert not is_close(1.30, 0.90, 1.0)      # too good: 0.4 above double/take
