"""Automatic doubles as GamesGrid (.sgg) and TrueMoneyGames (.tmg) write them,
judged against GNU Backgammon's ``import sgg`` and ``import tmg``.

The samples (tests/data/imports/autodoubles/) are gnubg's self-play money
sessions written again with equal opening dice doubling the cube of some
games (tests/data/imports/make_samples.py, ``AUTOS``); gnubg read each and
wrote what it read of every game, its winner, points and starting cube
(gnubg_export.py, run in gnubg: ``NAME.gnubg.json``). The rule itself (money
play, up to N) is bgcli.core.cube's: the readers only say what the file wrote.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from conftest import DATA, committed, committed_glob
from test_real_files import replayed

from bgcli.core.rules import Rules
from bgcli.formats.files import export, read_any, replay_file
from bgcli.match.records import ActionKind

FOLDER = DATA / "imports" / "autodoubles"
SAMPLES = committed_glob(FOLDER, "*.sgg") + committed_glob(FOLDER, "*.tmg")


def _autos(game) -> int:
    return sum(action.kind is ActionKind.AUTO_DOUBLE for action in game.actions)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_automatic_doubles_replay_as_gnubg_reads_them(path):
    gnubg = json.loads(committed(path.rsplit(".", 1)[0] + ".gnubg.json").read_text(encoding="utf-8"))
    [replay] = list(replay_file(path))
    assert [p.message for p in replay.problems] == []
    assert [{"winner": g.winner, "points": g.points} for g in replay.games()] == [
        {"winner": g["winner"], "points": g["points"]} for g in gnubg]
    [record] = read_any(path)
    assert [1 << _autos(game) for game in record.games] == [g["initial-cube"] for g in gnubg]
    assert any(g["initial-cube"] > 1 for g in gnubg)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.rsplit("/", 1)[-1])
@pytest.mark.parametrize("to", ["mat", "json"])
def test_an_export_says_the_rule_and_reads_back_the_same(tmp_path, path, to):
    text, left_out = export(read_any(path), to)
    assert left_out == []
    assert text.count("AutoDoubles") + text.count('"auto_doubles": 10') == 1   # the rule, said once (JSON: its key)
    back = tmp_path / f"back.{to}"
    back.write_text(text, encoding="utf-8")
    assert replayed(str(back)) == replayed(path)
    assert [p.message for replay in replay_file(str(back)) for p in replay.problems] == []


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_an_sgf_export_writes_them_as_gnubg_does_and_reads_back_the_same(tmp_path, path):
    """gnubg's SGF writes a game's automatic doubles as the cube they make in the game's root (CV[2])."""
    gnubg = json.loads(committed(path.rsplit(".", 1)[0] + ".gnubg.json").read_text(encoding="utf-8"))
    text, left_out = export(read_any(path), "sgf")
    assert left_out == []
    roots = [tree.split("\n;", 1)[0] for tree in text.split("(;")[1:]]
    assert [int(root.split("]CV[")[1].split("]")[0]) if "]CV[" in root else 1 for root in roots] == [
        g["initial-cube"] for g in gnubg]
    assert text.count("AutoDoubles") == 1
    back = tmp_path / "back.sgf"
    back.write_text(text, encoding="utf-8")
    assert replayed(str(back)) == replayed(path)
    [record] = read_any(str(back))
    assert [1 << _autos(game) for game in record.games] == [g["initial-cube"] for g in gnubg]


SGG = ("ann vs. bob\nGamesGrid\nAutomatic Doubles: Yes\nGame 1. 0-0\n11: Automatic double\n"
       "1\t31:\n1\t31: 8/5, 6/5\n1\t\t62:\n1\t\t62: 24/18, 13/11\n2\tDouble\n2\t\tAccept\n"
       "bob wins 8 points.\n")
TMG = ("MatchID: 1\nPlayer1: 1 ann 1500.0\nPlayer2: 2 bob 1500.0\nLength: 0\n\nGame 1: 0-0\n0 2 Automatic to 2\n"
       "1 1 31:\n1 4 8/5 6/5\n-2 1 62:\n-2 4 24/18 13/11\n3 5 Double to 4\n-3 7 Take\n-3 15 8 bob wins 8 points\n")


def _problems(tmp_path, text: str, name: str, rules: Rules | None = None) -> list[str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [p.message for replay in replay_file(str(path), rules) for p in replay.problems]


@pytest.mark.parametrize("text, name", [(SGG, "a.sgg"), (TMG, "a.tmg")])
def test_a_written_automatic_double_raises_the_cube_of_the_opening(tmp_path, text, name):
    assert _problems(tmp_path, text, name) == []
    # without it, a resignation worth 8 points after one double is wrong: the cube is not learnt
    without = text.replace("11: Automatic double\n", "").replace("0 2 Automatic to 2\n", "")
    # quoted in the file's own words (its result line), not a .mat file's "Wins 8 points"
    assert any(m.startswith("'") and "bob wins 8 points" in m and m.endswith("' by resignation, but at cube 2 a "
                                                                              "resignation is worth 2 or 4 or 6")
               for m in _problems(tmp_path, without, name))


@pytest.mark.parametrize("text, name, change, wanted", [
    (SGG, "a.sgg", ("Automatic Doubles: Yes\n", ""), "these rules allow no automatic doubles"),
    (SGG, "a.sgg", ("Game 1. 0-0\n", "Game 1. 0-0/7\n"), "automatic doubles are a money-play rule"),
    (TMG, "a.tmg", ("Length: 0", "Length: 7"), "automatic doubles are a money-play rule"),
    (TMG, "a.tmg", ("0 2 Automatic to 2\n1 1 31:\n1 4 8/5 6/5\n", "1 1 31:\n1 4 8/5 6/5\n0 2 Automatic to 2\n"),
     "an automatic double after the opening"),
    (TMG, "a.tmg", ("Automatic to 2", "Automatic to 8"), "an automatic double to 8, but the cube is at 1"),
])
def test_an_automatic_double_the_rules_do_not_allow_is_a_problem_at_its_line(tmp_path, text, name, change, wanted):
    problems = _problems(tmp_path, text.replace(*change), name)
    assert any(wanted in message for message in problems), problems


def test_the_rules_given_limit_the_automatic_doubles(tmp_path):
    # a saved game that does not say the rule: the rules given say how many
    twice = SGG.replace("Automatic Doubles: Yes\n", "").replace("11: Automatic double\n", "11: Automatic double\n" * 2)
    twice = twice.replace("8 points", "16 points")
    assert _problems(tmp_path, twice, "a.sgg", Rules(auto_doubles=2)) == []
    assert [m for m in _problems(tmp_path, twice, "a.sgg", Rules(auto_doubles=1))] == [
        "an automatic double to 4, but these rules allow up to 1 automatic doubles (--auto-doubles N)"]


_BLANKS = st.text(" :.-", max_size=3)


@settings(max_examples=60, deadline=None)
@given(number=st.integers(0, 10 ** 9), before=_BLANKS, after=st.text("abc :!", max_size=8),
       tab=st.booleans())
def test_gamesgrid_s_automatic_double_is_a_number_with_no_tab_then_the_words(tmp_path_factory, number, before, after,
                                                                              tab):
    # gnubg's reading: a line that starts with a number, no tab after it, and says "Automatic double"
    line = f"{number}{chr(9) if tab else ':' + before}Automatic double{after}"
    path = tmp_path_factory.mktemp("sgg") / "a.sgg"
    path.write_text(SGG.replace("11: Automatic double", line), encoding="utf-8")
    [record] = read_any(str(path))
    assert _autos(record.games[0]) == (0 if tab else 1)
    assert bool(record.errors) == tab   # a tab: a move line that is no action, an error at its line


@settings(max_examples=60, deadline=None)
@given(autos=st.integers(0, 4), written=st.integers(1, 64))
def test_truemoneygames_automatic_doubles_are_counted_and_their_values_checked(tmp_path_factory, autos, written):
    lines = "".join(f"0 2 Automatic to {written if k == autos - 1 else 2 << k}\n" for k in range(autos))
    path = tmp_path_factory.mktemp("tmg") / "a.tmg"
    path.write_text(TMG.replace("0 2 Automatic to 2\n", lines), encoding="utf-8")
    [record] = read_any(str(path))
    assert _autos(record.games[0]) == autos
    problems = [p.message for replay in replay_file(str(path)) for p in replay.problems]
    wrong_value = autos > 0 and written != 1 << autos
    assert any("automatic double to" in m and "but the cube is at" in m for m in problems) == wrong_value
