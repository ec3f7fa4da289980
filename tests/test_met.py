"""Match equity tables: the tables bgcli knows against their published figures and against GNU
Backgammon's own reading of them (tests/data/met/gnubg-met.json, made by make_golden.py beside it), the
extension past a table's size, the XML and CSV readers (round trips, and bad files refused with their
place), and --met on the commands that judge match play, where it changes the answer."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.cli import cli
from bgcli.engines import met
from bgcli.engines.met_tables import MatchEquityTable, extended_post_crawford, read_csv, read_table, read_xml, to_csv, to_xml
from bgcli.errors import MatchEquityTableError

DATA = Path(__file__).parent / "data" / "met"
GNUBG = json.loads((DATA / "gnubg-met.json").read_text())["tables"]
GNUBG_FOLDER = Path("/usr/share/gnubg/met")   # where Debian's gnubg keeps its tables, when it is installed
TOLERANCE = 2e-6   # gnubg holds its tables in single precision


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


# --- the known tables ------------------------------------------------------------------------------------


def test_kazaross_xg2_corner_values():
    """Kazaross-XG2 as published (gnubg's Kazaross-XG2.xml, Neil Kazaross 2011): the Crawford game 1-away v
    2-away 67.736%, 2-away v 3-away 59.947%, 3-away v 3-away 50%; post-Crawford the trailer 2-away 48.803%,
    3-away 32.264%."""
    table = met.table_of("Kazaross-XG2")
    assert table is met.default_table()
    assert met.mwc_at(1, 2, crawford_played=False) == 0.67736
    assert met.mwc_at(2, 3) == 0.59947
    assert met.mwc_at(3, 2) == pytest.approx(1 - 0.59947)
    assert met.mwc_at(3, 3) == 0.5
    assert table.mwc(2, 1, post_crawford=True) == 0.48803
    assert table.mwc(1, 3, post_crawford=True) == pytest.approx(1 - 0.32264)


@pytest.mark.parametrize("name, crawford_1_2, two_three, post_2", [
    # Woolsey: Inside Backgammon vol. 2 no. 2 (1992), as gnubg's woolsey.xml transcribes it
    ("Woolsey", 0.70, 0.60, 0.485),
    # Rockwell-Kazaross: gnubg's Rockwell-Kazaross.xml (Rockwell and Kazaross 2008-2010)
    ("Rockwell-Kazaross", 0.676888, 0.598994, 0.487677),
    # G11: gnubg's g11.xml (Zorba, 2003-2004)
    ("G11", 0.68145, 0.59964, 0.48811),
    # Jacobs and Trice, Can a Fish Taste Twice as Good (1996), gnubg's jacobs.xml
    ("Jacobs-Trice", 0.69, 0.603, 0.489),
    # Snowie 2.1 (1999), gnubg's snowie.xml
    ("Snowie", 0.685, 0.594, 0.485),
])
def test_published_corner_values(name, crawford_1_2, two_three, post_2):
    table = met.table_of(name)
    assert table.mwc(1, 2, post_crawford=False) == pytest.approx(crawford_1_2, abs=5e-6)
    assert table.mwc(2, 3, post_crawford=False) == pytest.approx(two_three, abs=5e-6)
    assert table.mwc(2, 1, post_crawford=True) == pytest.approx(post_2, abs=5e-6)


def _gnubg_file(known: met.KnownTable) -> str:
    return known.file


@pytest.mark.parametrize("known", met.KNOWN, ids=lambda k: k.name)
def test_every_known_table_is_gnubgs_to_30_away(known):
    """Each table bgcli knows, at every score to 30-away, is the table GNU Backgammon holds after loading
    its file of the same name: the published figures, and past the published size gnubg's extension
    (the normal approximation and the post-Crawford recursion). Two differences, both gnubg's:
    gnubg replaces the last post-Crawford figure of a file with its extension (tested below), and Zadeh's
    model, which gnubg computes to any length, bgcli carries to 25 and extends past it as any table."""
    table = met.known_table(known.name)
    theirs = GNUBG[_gnubg_file(known)]
    size = table.size if known.name == "Zadeh" else 30
    for i in range(1, size + 1):
        for j in range(1, size + 1):
            assert table.pre_crawford(i, j) == pytest.approx(theirs["pre"][i - 1][j - 1], abs=TOLERANCE), (i, j)
    kept = min(len(table.post), table.size - 1)   # gnubg's own figure at the table's size (the test below)
    for n in range(1, kept + 1):
        assert table.post_crawford(n) == pytest.approx(theirs["post"][0][n - 1], abs=TOLERANCE), n
    if known.name != "Zadeh":
        # past the figures gnubg keeps, its post-Crawford extension is bgcli's, from the same figures
        kept = theirs["post"][0][:kept]
        assert extended_post_crawford(kept, 30) == pytest.approx(theirs["post"][0], abs=TOLERANCE)


def test_gnubg_replaces_a_files_last_post_crawford_figure():
    """gnubg is wrong here, and bgcli keeps the published figure: Kazaross-XG2.xml publishes the trailer
    25-away post-Crawford at 0.123%, and gnubg (1.07) holds 0.118%, its extension's figure, in its place
    (Woolsey's 15-away: 1% published, 1.25% in gnubg): gnubg keeps a file's figures to one less than its
    length (G11's and MEC26's rows, 24 figures long, are kept whole)."""
    kxg2 = met.table_of("Kazaross-XG2")
    assert kxg2.post_crawford(25) == 0.00123
    assert GNUBG["Kazaross-XG2.xml"]["post"][0][24] == pytest.approx(0.0011812, abs=1e-7)
    assert GNUBG["Kazaross-XG2.xml"]["post"][0][23] == pytest.approx(kxg2.post_crawford(24), abs=TOLERANCE)
    woolsey = met.table_of("Woolsey")
    assert woolsey.post_crawford(15) == 0.01 and GNUBG["woolsey.xml"]["post"][0][14] == pytest.approx(0.0125)


@pytest.mark.skipif(not GNUBG_FOLDER.is_dir(), reason="GNU Backgammon's tables are not installed")
@pytest.mark.parametrize("known", [k for k in met.KNOWN if k.name != "Zadeh"], ids=lambda k: k.name)
def test_the_tables_carried_are_gnubgs_files(known):
    """The figures bgcli carries are those of the installed gnubg's file, read by bgcli's reader."""
    theirs = read_table(str(GNUBG_FOLDER / known.file))
    ours = met.known_table(known.name)
    assert (ours.pre, ours.post) == (theirs.pre, theirs.post)


def test_the_extension_is_symmetric_and_monotone():
    table = met.table_of("Woolsey")
    for i in range(14, 40):
        for j in range(1, 40):
            assert table.pre_crawford(i, j) + table.pre_crawford(j, i) == pytest.approx(1.0)
        assert table.pre_crawford(i, i) == pytest.approx(0.5)
        assert table.pre_crawford(i, 10) < table.pre_crawford(i - 1, 10)


def test_names_aliases_and_files():
    assert met.table_of("kxg2").name == "Kazaross-XG2"
    assert met.table_of("WOOLSEY").name == "Woolsey"
    assert met.table_of("g11").name == "G11"
    assert met.table_of(str(DATA / "sample.csv")).path == str(DATA / "sample.csv")
    with pytest.raises(MatchEquityTableError, match="nope: not a table bgcli knows .*Kazaross-XG2"):
        met.table_of("nope")
    with pytest.raises(ValueError, match="cannot read no/such/file.xml"):
        met.table_of("no/such/file.xml")


def test_take_points_differ_between_tables():
    """What the choice changes: the match winning chances after a game, so the dead-cube take point. At
    2-away v 4-away, doubled to 2: pass = 4-away v 1-away (Crawford), take and lose = lost, take and win =
    won. Kazaross-XG2: 1 - 0.81436 (a 18.6% take point); Woolsey: 1 - 0.83 (17%)."""
    def take_point(table):
        side = met.MatchSide(2, 4, 1, False, table)
        pass_ = met.equity_after(side.flipped(), -1)   # the taker's chance after passing
        return pass_    # winning 2 wins the match, losing 2 loses it: the take point is the pass figure

    assert take_point(met.table_of("Kazaross-XG2")) == pytest.approx(1 - 0.81436)
    assert take_point(met.table_of("Woolsey")) == pytest.approx(0.17)


# --- the files -------------------------------------------------------------------------------------------


@st.composite
def tables(draw):
    size = draw(st.integers(1, 7))
    chance = st.floats(0.5, 1.0, allow_nan=False)
    pre = [[0.5] * size for _ in range(size)]
    for i in range(size):
        for j in range(i + 1, size):
            pre[i][j] = draw(chance)
            pre[j][i] = 1.0 - pre[i][j]
    post = [0.5] + draw(st.lists(st.floats(0.0, 0.5, allow_nan=False), min_size=0, max_size=6))
    name = draw(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12).filter(str.strip))
    return MatchEquityTable(name.strip(), tuple(map(tuple, pre)), tuple(post), "made up")


@settings(max_examples=60, deadline=None)
@given(tables())
def test_xml_round_trip(table):
    back = read_xml(to_xml(table).encode(), "t.xml")
    assert (back.name, back.pre, back.post, back.source) == (table.name, table.pre, table.post, table.source)


@settings(max_examples=60, deadline=None)
@given(tables())
def test_csv_round_trip(table):
    back = read_csv(to_csv(table), "t.csv")
    assert (back.pre, back.post) == (table.pre, table.post)


def test_csv_percentages_comments_and_name():
    table = read_table(str(DATA / "sample.csv"))
    assert table.name == "sample"
    assert table.pre[0][1] == pytest.approx(0.68) and table.post[1] == pytest.approx(0.487)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_a_table_or_one_error(data):
    for prefix in (b"", b"<met>", b"0.5,"):
        try:
            read_table("x", prefix + data)
        except MatchEquityTableError as exc:
            assert str(exc).startswith("x") and "\n" not in str(exc)


BAD_CSV = [
    ("0.5,0.7\n0.3,x\npost-crawford,0.5,0.49\n", "t.csv:2:2: 'x' is not a number"),
    ("0.5,0.7\n0.3\npost-crawford,0.5\n", "t.csv:2:1: row 2 has 1 values, not 2"),
    ("0.5,0.7\n0.3,0.5\n", "t.csv: no post-Crawford row"),
    ("0.5,0.3\n0.7,0.5\npost-crawford,0.5\n", "t.csv:1:2: 0.3 at 1-away v 2-away: the side nearer to winning has less"),
    ("0.5,0.7\n0.4,0.5\npost-crawford,0.5\n", "t.csv:2:1: 0.4 at 2-away v 1-away and 0.7 at 1-away v 2-away do not add up to 1"),
    ("0.5,0.7\n0.3,0.5\npost-crawford,0.5,0.7\n", "t.csv:3:3: 0.7 post-Crawford at 2-away v 1-away is not the trailer's"),
    ("0.5,0.7\n0.3,0.5\npost-crawford,0.5\n1\n", "t.csv:4: a line after the post-Crawford row"),
    ("0.5,nan\n0.3,0.5\npost-crawford,0.5\n", "t.csv:1:2: 'nan' is not a number"),
    ("0.5,170%\n0.3,0.5\npost-crawford,0.5\n", "t.csv:1:2: 1.7 at 1-away v 2-away is not a chance from 0 to 1"),
]


@pytest.mark.parametrize("text, message", BAD_CSV)
def test_bad_csv_is_refused_with_its_place(text, message):
    with pytest.raises(MatchEquityTableError) as caught:
        read_csv(text, "t.csv")
    assert str(caught.value).startswith(message)


def _xml(pre_rows: str, post: str = "<row><me>0.5</me></row>", kind: str = "explicit") -> bytes:
    return (f'<?xml version="1.0"?>\n<met>\n<info><name>T</name><description>d</description><length>2</length></info>\n'
            f'<pre-crawford-table type="{kind}">\n{pre_rows}\n</pre-crawford-table>\n'
            f'<post-crawford-table type="explicit" player="both">{post}</post-crawford-table>\n</met>\n').encode()


GOOD_ROWS = "<row><me>0.5</me><me>0.7</me></row>\n<row><me>0.3</me><me>0.5</me></row>"
BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE met [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<met>&b;</met>
"""
BAD_XML = [
    (_xml(GOOD_ROWS.replace("0.7", "seven")), "t.xml:5: 'seven' is not a number"),
    (_xml(GOOD_ROWS, kind="zadeh"), "t.xml:4: a <pre-crawford-table> of type 'zadeh': a formula"),
    (_xml(GOOD_ROWS, post=""), "t.xml:8: a <post-crawford-table> of 0 rows, not one"),
    (_xml(GOOD_ROWS).replace(b"</met>", b""), "t.xml:10:1: not well-formed XML"),
    (BILLION_LAUGHS, "t.xml:2: a document type with its own declarations"),
    (b"<table/>", "t.xml:1: not a match equity table"),
    (_xml(GOOD_ROWS).replace(b'player="both">', b'player="2">'), "t.xml:8: player='2'"),
]


@pytest.mark.parametrize("data, message", BAD_XML)
def test_bad_xml_is_refused_with_its_place(data, message):
    with pytest.raises(MatchEquityTableError) as caught:
        read_xml(data, "t.xml")
    assert str(caught.value).startswith(message)


def test_a_table_of_players_with_different_post_crawford_rows_is_refused():
    data = _xml(GOOD_ROWS).replace(b'<post-crawford-table type="explicit" player="both"><row><me>0.5</me></row></post-crawford-table>',
                                   b'<post-crawford-table player="0"><row><me>0.5</me><me>0.49</me></row></post-crawford-table>\n'
                                   b'<post-crawford-table player="1"><row><me>0.5</me><me>0.48</me></row></post-crawford-table>')
    with pytest.raises(MatchEquityTableError, match="t.xml:9: post-Crawford rows that differ by player"):
        read_xml(data, "t.xml")


# --- the commands ----------------------------------------------------------------------------------------


def test_met_prints_a_table_and_lists_the_known():
    result = run("met", "Woolsey", "--length", "3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Woolsey"
    assert lines[-3].split() == ["1-away", "50.00", "70.00", "75.00"]
    listed = run("met", "--list", "--json")
    names = [json.loads(line)["name"] for line in listed.stdout.splitlines()]
    assert names == list(met.KNOWN_NAMES) and names[0] == "Kazaross-XG2"


def test_met_json_past_the_published_size_and_post_crawford():
    data = json.loads(run("met", "Woolsey", "--json", "--length", "17").stdout)
    assert data["size"] == 15 and data["length"] == 17
    assert data["pre_crawford"][16][0] == pytest.approx(GNUBG["woolsey.xml"]["pre"][16][0], abs=TOLERANCE)
    post = json.loads(run("met", "G11", "--json", "--post-crawford", "--length", "4").stdout)["post_crawford"]
    assert post == list(met.table_of("G11").post[:4])


def test_met_writes_a_table_bgcli_reads_back(tmp_path):
    for form in ("csv", "xml"):
        out = tmp_path / f"z.{form}"
        assert run("met", "Zadeh", "--to", form, "-o", out).exit_code == 0
        back = met.table_of(str(out))
        assert (back.pre, back.post) == (met.table_of("Zadeh").pre, met.table_of("Zadeh").post)


def test_a_bad_table_file_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(BAD_CSV[0][0])
    for args in (["met", bad], ["hint", "--engine", "exact", "--met", bad, "start", "31"]):
        result = run(*args)
        assert result.exit_code == 2
        assert f"{bad}:2:2: 'x' is not a number" in result.output and "Traceback" not in result.output


BEAROFF = "XGID=------A------------a------:0:0:1:00:2:1:0:5:10"   # one checker each on the 6-point, 5-point match
EIGHT = "XGID=--BBBAA------------aaabba-:0:0:1:00:1:2:0:5:10"    # eight checkers each: past the two-sided tables


def test_met_changes_the_match_winning_chances_of_the_exact_engine():
    """The exact engine's match figures come from the table. Past its two-sided tables its figures are
    cubeless: the chance of the match is win x MWC(after winning 1) + (1 - win) x MWC(after losing 1)."""
    from bgcli.core.ids import parse_position

    found = {}
    for name in ("Kazaross-XG2", "Woolsey"):
        result = run("analyze", "--json", "--engine", "exact", "--met", name, EIGHT)
        assert result.exit_code == 0, result.output
        engine = json.loads(result.stdout)["engine"]
        side = met.MatchSide.of(parse_position(EIGHT), table=met.table_of(name))
        win = engine["probabilities"]["win"]
        assert engine["mwc"] == pytest.approx(win * met.equity_after(side, 1) + (1 - win) * met.equity_after(side, -1))
        found[name] = engine["mwc"]
    assert found["Kazaross-XG2"] != pytest.approx(found["Woolsey"], abs=1e-3)


def test_met_reaches_the_exact_engines_cubeful_bear_off():
    """In its two-sided tables the exact engine is cubeful at the score: double/pass is the table's figure of
    the score after winning one point (here 2-away v 4-away)."""
    from bgcli.core.ids import parse_position

    for name in ("Kazaross-XG2", "Woolsey"):
        result = run("hint", "--json", "--engine", "exact", "--met", name, BEAROFF)
        assert result.exit_code == 0, result.output
        cube = json.loads(result.stdout)["cube"]
        side = met.MatchSide.of(parse_position(BEAROFF), table=met.table_of(name))
        assert cube["double_pass_mwc"] == pytest.approx(met.equity_after(side, 1))
        assert cube["double_pass_mwc"] == pytest.approx(met.table_of(name).mwc(side.away - 1, side.opponent_away, False))


def test_sage_refuses_another_table():
    for args in (["hint", "--met", "Woolsey", "start", "31"], ["rate", "--met", "G11", DATA / "sample.csv"]):
        result = run(*args)
        assert result.exit_code == 2
        assert "the sage engine judges match play with its own Kazaross-XG2 table only" in result.output


def test_rate_match_results_follow_the_table(monkeypatch, tmp_path):
    """rate's match results are match winning chances by the table of --met (through the engine)."""
    import bgcli.scale.rating as scale_rating
    from fake_engine import FakeEngine

    def engines_for(spec):
        engines = FakeEngine(spec.level), FakeEngine(0)
        for engine in engines:
            engine.met = spec.met
        return engines

    monkeypatch.setattr(scale_rating, "engines_for", engines_for)
    # the first four games of a 7-point match, cut off at 4-5 (a finished match's results add up to its winner's
    # 50%, whatever the table: the games' gains telescope)
    whole = (Path(__file__).parent / "data" / "rating" / "galaxy_match12031463_7pt.txt").read_text()
    cut = tmp_path / "cut.txt"
    cut.write_text(whole[:whole.index("Game 5")] if "Game 5" in whole else whole)
    results = []
    for name in ("Kazaross-XG2", "Woolsey"):
        result = run("rate", "--json", "--engine", "gnubg", "--met", name, cut)
        assert result.exit_code == 0, result.output
        results.append([p["result"] for p in json.loads(result.stdout)["players"]])
    assert results[0] != results[1]
    assert all(math.isclose(sum(r), 0.0, abs_tol=1e-9) for r in results)


HAVE_GNUBG = __import__("bgcli.engines.gnubg", fromlist=["find_gnubg"]).find_gnubg() is not None


@pytest.mark.skipif(not HAVE_GNUBG, reason="GNU Backgammon is not installed")
def test_gnubg_judges_with_the_table_it_is_given():
    """gnubg is told the table (set matchequitytable): at 7-point 4-5 (3-away v 2-away) this position is
    no double by Kazaross-XG2 and double, take by Woolsey (gnubg 0-ply; found by trying race positions
    at scores where the two tables differ)."""
    position = "XGID=-CAA-CACAB------cbba--abd-:0:0:1:00:4:5:0:7:10"
    found = {}
    for name in ("Kazaross-XG2", "Woolsey"):
        result = run("hint", "--json", "--engine", "gnubg", "--level", "0", "--met", name, position)
        assert result.exit_code == 0, result.output
        found[name] = json.loads(result.stdout)
    assert found["Kazaross-XG2"]["cube"]["action"] == "No double, take"
    assert found["Woolsey"]["cube"]["action"] == "Double, take"
