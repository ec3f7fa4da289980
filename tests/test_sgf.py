"""Tests of bgcli.formats.sgf: reading and writing GNU Backgammon's SGF (GM[6]).

Golden data: tests/data/sgf/*.sgf were saved by gnubg 1.07 (make_sgf.py)
from oracle self-play matches and a Galaxy match; reading one must replay
exactly like reading the .mat file it came from.
"""
from __future__ import annotations

import glob
import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgcli import grammar
from bgcli.formats import sgf
from bgcli.errors import BgcliError, MatchFileError
from bgcli.formats.files import read_any
from bgcli.core.ids import match_id
from bgcli.formats.sgf import DANCE, DOUBLE, MOVE, TAKE, WINS
from bgcli.core.rules import Rules
from bgcli.formats.sgf import read_sgf, sgf_text
from bgcli.match.replay import replay_match

from conftest import DATA as SHARED, committed

DATA = SHARED / "sgf"
SOURCES = {
    "sp05000_1pt": str(SHARED / "oracle/selfplay/sp05000_1pt.mat"),
    "sp05003_7pt": str(SHARED / "oracle/selfplay/sp05003_7pt.mat"),
    "sp05007_money": str(SHARED / "oracle/selfplay/sp05007_money.mat"),
    "galaxy801715": str(SHARED / "corpus/galaxy/match801715.txt"),
}
ALL_FILES = sorted(glob.glob(str(SHARED / "oracle/selfplay/*.mat")) + glob.glob(str(SHARED / "corpus/galaxy/*.txt"))
                   + glob.glob(str(SHARED / "corpus/backgammon-studio/*.txt")))
GNUBG = "/usr/games/gnubg"


def signature(replay):
    events = [(e.game, e.side, e.kind, e.dice, e.before.position.id(), match_id(e.before.match), e.points)
              for e in replay.events if e.kind != "roll"]   # XG's rolled-then-resigned: no cell in .mat or SGF
    results = [(r.winner_side, r.result, r.points, r.cube, r.crawford, r.score) for r in replay.results]
    return events, results, replay.length, replay.players


def test_grammar_builds_strict():
    grammar.parser(sgf.GRAMMAR, strict=True)


# --- reading --------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(SOURCES))
def test_gnubg_sgf_replays_like_the_mat_it_came_from(name):
    source = str(committed(SOURCES[name]))
    ours = read_sgf((DATA / f"{name}.sgf").read_text(encoding="utf-8"), name)
    original = read_any(source)
    assert len(ours) == len(original) == 1
    assert not ours[0].errors
    rules = Rules(jacoby=not original[0].length)   # money sessions were played with Jacoby; .mat cannot say so
    assert signature(replay_match(ours[0])) == signature(replay_match(original[0], rules=rules))
    assert not replay_match(ours[0]).problems


# gnubg's saves of Backgammon Studio matches with a roll never played
# ("32: ????" before a resignation); make_sgf.py says how they were made
UNPLAYED_ROLLS = {
    "studio_mrpurple_lasse_3pt": "MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt",
    "studio_gibraltar_mike_llabba_13pt": "Gibraltar_Mike - Llabba 13pt Backgammon Studio 2023_03_22 21_22_47.txt",
}


def plays_and_rolls(record):
    """Every move and roll of a replay, the rolls never played included."""
    return [(e.game, e.side, e.kind, e.dice, e.before.position.id()) for e in replay_match(record).events
            if e.kind in ("move", "roll")]


@pytest.mark.parametrize("name", sorted(UNPLAYED_ROLLS))
def test_habit_gnubg_sgf_roll_after_the_last_play_is_a_roll_not_a_set_up_game(name):
    # gnubg writes ;PL[W]DI[32] after the last play of a game whose source
    # recorded a roll that was never played: every game loads, that roll
    # included, as gnubg loads them
    text = committed(DATA / f"{name}.sgf").read_text(encoding="utf-8")
    assert re.search(r";PL\[[WB]\]DI\[[1-6]{2}\]\)", text)
    ours = read_sgf(text, name)
    original = read_any(str(committed(SHARED / "corpus/backgammon-studio" / UNPLAYED_ROLLS[name])))
    assert not ours[0].errors
    assert len(ours[0].games) == len(original[0].games)
    assert plays_and_rolls(ours[0]) == plays_and_rolls(original[0])
    assert any(e[2] == "roll" for e in plays_and_rolls(ours[0]))
    assert not [p for p in replay_match(ours[0]).problems if p.kind != "incomplete"]


@pytest.mark.parametrize("name", sorted(UNPLAYED_ROLLS))
def test_habit_sgf_export_of_a_roll_before_a_resignation_writes_gnubgs_dice_node(name, tmp_path):
    from conftest import invoke

    source = committed(SHARED / "corpus/backgammon-studio" / UNPLAYED_ROLLS[name])
    result = invoke("export", str(source), "--to", "sgf", "-o", str(tmp_path / "out.sgf"))
    assert result.exit_code == 0, result.output   # no --force: nothing is left out
    text = (tmp_path / "out.sgf").read_text(encoding="utf-8")
    gnubg_nodes = re.findall(r";PL\[[WB]\]DI\[[1-6]{2}\]", committed(DATA / f"{name}.sgf").read_text(encoding="utf-8"))
    assert re.findall(r";PL\[[WB]\]DI\[[1-6]{2}\]", text) == gnubg_nodes
    assert plays_and_rolls(read_sgf(text)[0]) == plays_and_rolls(read_any(str(source))[0])


def test_the_rule_tags_survive_an_sgf_round_trip():
    # CubeLimit 1024 is the sites' way of saying no limit: the rules do not
    # need it, but the tag the file gave is not lost through SGF or .mat
    source = str(committed(SHARED / "corpus/backgammon-studio" / UNPLAYED_ROLLS["studio_mrpurple_lasse_3pt"]))
    record = read_any(source)[0]
    assert record.tags["CubeLimit"] == "1024"
    back = read_sgf(sgf_text(record))[0]
    assert back.tags["CubeLimit"] == "1024"
    assert replay_match(back).rules == replay_match(record).rules
    limited = type(record)(record.length, record.games, record.line, {**record.tags, "CubeLimit": "64"})
    assert read_sgf(sgf_text(limited))[0].tags["CubeLimit"] == "64"


def test_values_and_coordinates():
    text = ("(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[Ann]PB[Bob]DT[2020-01-02]PC[Here]RU[Crawford]RE[W+2R]\n"
            ";W[31hefe]\n;B[64xrmi]\n;W[66]\n;B[double]\n;W[take]\n;B[21ybwx])")
    record = read_sgf(text, "t.sgf")[0]
    assert record.length == 3 and record.tags["EventDate"] == "2020.01.02" and record.tags["Site"] == "Here"
    game = record.games[0]
    assert game.players == ("Ann", "Bob") and game.scores == (0, 0)
    kinds = [(a.line, a.side, a.kind, a.dice, a.play_text, a.cube, a.points) for a in game.actions]
    assert kinds == [
        (2, 0, MOVE, (3, 1), "8/5 6/5", None, None),
        (3, 1, MOVE, (6, 4), "1/7 12/16", None, None),    # Black's points mirrored: x = 1, a = 24
        (4, 0, DANCE, (6, 6), "", None, None),
        (5, 1, DOUBLE, None, "", 2, None),
        (6, 0, TAKE, None, "", None, None),
        (7, 1, MOVE, (2, 1), "25/23 2/1", None, None),     # y = the bar
        (7, 0, WINS, None, "", None, 2),
    ]
    assert [a.move_number for a in game.actions[:6]] == [1, 1, 2, 2, 3, 3]


def test_games_split_into_matches():
    one = "(;GM[6]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[b];W[31hefe];B[drop])"
    two = "(;GM[6]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[c];W[31hefe])"
    assert [len(m.games) for m in read_sgf(one + one + two)] == [1, 1, 1]
    again = one.replace("[game:0]", "[game:1]")
    assert [len(m.games) for m in read_sgf(one + again)] == [2]


@pytest.mark.parametrize("text, message", [
    ("", "no game tree"),
    ("(;GM[1]SZ[19];B[aa])", "GM[1]"),
    ("(;GM[6]MI[length:1];W[31hefe]", "unexpected end"),
    ("(;GM[6]MI[length:1];W[31hefe]]", "unexpected"),
    ("hello", "unexpected"),
])
def test_not_sgf(text, message):
    with pytest.raises(MatchFileError, match=re.escape(message)):
        read_sgf(text, "x.sgf")


def test_bad_values_are_collected():
    text = "(;GM[6]MI[length:x][game:0]PW[a]PB[b]RE[who]\n;W[31hefe]\n;B[77ab]\n;W[resign]\n;B[41])"
    record = read_sgf(text)[0]
    assert [e.line for e in record.errors] == [1, 1, 3, 4]
    assert [a.kind for a in record.games[0].actions] == [MOVE, DANCE]
    setup = "(;GM[6]MI[length:1]PW[a]PB[b]AW[a][b]PL[W];W[31hefe])"
    record = read_sgf(setup)[0]
    assert not record.games and "set-up position" in str(record.errors[0])


def test_escapes_in_values():
    text = r"(;GM[6]MI[length:0]PW[A\]nn]PB[B\\ob]GC[x\]y];W[31hefe])"
    record = read_sgf(text)[0]
    assert record.games[0].players == ("A]nn", "B\\ob")
    assert "PW[A\\]nn]PB[B\\\\ob]" in sgf_text(record)


# --- writing ----------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(SOURCES))
def test_written_like_gnubg_saves_it(name):
    """Our SGF of the match equals gnubg's, node for node, but for the
    application name, gnubg's statistics (GS), the order of a play's steps
    (gnubg's importer sorts them; we keep the recorded order), and the tags
    gnubg drops, which bgcli keeps (WR, BR, OT and its own XT, and XR for rule
    tags such as the site's CubeLimit)."""
    source = str(committed(SOURCES[name]))
    theirs = (DATA / f"{name}.sgf").read_text(encoding="utf-8")
    record = read_any(source)[0]
    # what a .mat file cannot say: gnubg's date of the import, and Jacoby
    # in the money sessions (played with it on, see the oracle README)
    tags = {**record.tags, "EventDate": "2026.11.29", "Jacoby": "On"}
    ours = sgf_text(type(record)(record.length, record.games, record.line, tags))

    def normal(text):
        text = re.sub(r"AP\[[^\]]*\]|GS(\[[^\]]*\])+|(?:XT|XR|WR|BR|OT)\[[^\]]*\]", "", text)

        def steps(found):
            pairs = sorted(found.group(2)[i:i + 2] for i in range(0, len(found.group(2)), 2))
            return found.group(1) + "".join(pairs) + "]"
        return re.sub(r"(;[WB]\[\d\d)([a-z]*)\]", steps, text).splitlines()

    assert normal(ours) == normal(theirs)


def test_round_trip_every_file():
    assert ALL_FILES, "oracle/corpus data not found under tests/data: the repository holds it"
    for path in ALL_FILES:
        for record in read_any(path):
            back = read_sgf(sgf_text(record), "back.sgf")
            assert len(back) == 1 and not back[0].errors, path
            assert signature(replay_match(back[0])) == signature(replay_match(record)), path


@pytest.mark.skipif(not shutil.which(GNUBG) and not os.path.exists(GNUBG), reason="GNU Backgammon is not installed")
def test_gnubg_loads_our_sgf_to_the_same_match():
    import importlib.util

    files = [str(committed(SOURCES[name])) for name in sorted(SOURCES)]
    # and a roll never played before a resignation, written as gnubg's dice node
    files += [str(committed(SHARED / "corpus/backgammon-studio" / UNPLAYED_ROLLS[name])) for name in sorted(UNPLAYED_ROLLS)]
    spec = importlib.util.spec_from_file_location("gnubg_check_sgf", Path(__file__).parent / "gnubg_check_sgf.py")
    checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checker)
    assert checker.check(files) == {path: "same" for path in files}


# --- robustness -------------------------------------------------------------------

def _mutated():
    base = (DATA / "sp05003_7pt.sgf").read_text(encoding="utf-8")[:3000]
    pieces = st.sampled_from(["(", ")", ";", "[", "]", "\\", "W[", "B[", "MI[length:", "RE[B+", "zz", "99", "\n", "GM[6]"])
    return st.tuples(st.just(base), st.integers(0, len(base)), st.integers(0, 30), st.lists(pieces, max_size=4))


@settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(_mutated())
def test_mutated_sgf_raises_only_match_file_errors(case):
    base, start, cut, inserted = case
    text = base[:start] + "".join(inserted) + base[start + cut:]
    try:
        records = read_sgf(text, "m.sgf")
    except MatchFileError:
        return
    for record in records:
        try:
            replay_match(record)
        except BgcliError as exc:   # replay reports problems, it should not raise at all
            pytest.fail(f"replay raised {exc!r}")


@settings(deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_grammar_generated_sgf_raises_only_match_file_errors(data):
    from hypothesis.extra.lark import from_lark

    text = data.draw(from_lark(grammar.parser(sgf.GRAMMAR), start="start"))
    try:
        read_sgf(text)
    except MatchFileError:
        pass


# --- the stream follows the grammar, and is bounded -----------------------------------------------

def _grammar_accepts(text: str) -> bool:
    from lark.exceptions import UnexpectedInput

    try:
        grammar.parser(sgf.GRAMMAR).parse(text)
        return True
    except UnexpectedInput:
        return False


def _stream_accepts(text: str) -> bool:
    try:
        list(sgf._trees(text, "m.sgf"))
        return True
    except MatchFileError as exc:
        assert "cannot read SGF" in str(exc)
        return False


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_mutated())
def test_the_stream_accepts_what_the_grammar_accepts(case):
    base, start, cut, inserted = case
    text = base[:start] + "".join(inserted) + base[start + cut:]
    assert _stream_accepts(text) == _grammar_accepts(text)


@settings(deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_the_stream_reads_every_text_of_the_grammar(data):
    from hypothesis.extra.lark import from_lark

    text = data.draw(from_lark(grammar.parser(sgf.GRAMMAR), start="start"))
    assert _stream_accepts(text)


def test_variations_are_read_and_only_the_main_line_kept():
    text = "(;GM[6]MI[length:1]PW[a]PB[b];W[31hefe](;B[42ab](;W[11aa])(;W[66aa]))(;B[55ab]))"
    (tree,) = list(sgf._trees(text, "v.sgf"))
    assert [n.props.get("W", n.props.get("B")) for n in tree[1:]] == [["31hefe"], ["42ab"], ["11aa"]]


def test_unknown_properties_are_dropped_as_they_are_read():
    text = "(;GM[6]MI[length:1]PW[a]PB[b]" + "ZZ[x]" * 1000 + "C[comment];W[31hefe])"
    (tree,) = list(sgf._trees(text, "u.sgf"))
    assert set(tree[0].props) == {"GM", "MI", "PW", "PB"}
    # the analysis marks its node, its values dropped
    (tree,) = list(sgf._trees("(;GM[6];W[31hefe]A[0][hefe E ver 3 0.5]DA[E ver 3 2C])", "a.sgf"))
    assert tree[1].props == {"W": ["31hefe"], "A": [], "DA": []}


def test_a_property_over_the_bound_is_one_error_at_its_line(monkeypatch):
    monkeypatch.setattr(sgf, "PROPERTY_LIMIT", 1000)
    text = "(;GM[6]MI[length:1]PW[a]PB[b]\n;C[" + "x" * 1001 + "];W[31hefe])"
    with pytest.raises(MatchFileError, match=r"^b.sgf:2:3: cannot read SGF: a value of C is longer than 1,000 characters"):
        read_sgf(text, "b.sgf")
    escaped = "(;GM[6]MI[length:1]PW[a]PB[b]\n;C[" + "\\]" * 600 + "];W[31hefe])"
    with pytest.raises(MatchFileError, match="longer than"):
        read_sgf(escaped, "b.sgf")
    assert read_sgf(text.replace("x" * 1001, "x" * 1000), "b.sgf")[0].games


def test_every_property_the_reader_reads_is_kept_by_the_stream():
    source = Path(sgf.__file__).read_text(encoding="utf-8")
    read = set(re.findall(r'props\.get\("([A-Z]{2})"', source)) | set(re.findall(r'"([A-Z]{2})" in props', source))
    assert read and read <= sgf._KEPT | sgf._MARKED, read - sgf._KEPT - sgf._MARKED
