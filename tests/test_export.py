"""Tests of the match writers (bgcli.formats.mat, jsondoc, files): gnubg's .mat layout, the JSON document, read_any.

Golden data: the self-play matches that gnubg 1.07 played and exported
(tests/data/oracle/selfplay, a copy of gnubg's output); our export of each must equal gnubg's file line
for line but for the date tag. Round trips run over those and the corpus.
"""
from __future__ import annotations

import glob
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgcli.errors import BgcliError, MatchFileError
from bgcli.formats.files import export_text, read_any, sniff
from bgcli.formats.jsondoc import json_document, json_text, read_json
from bgcli.formats.mat import mat_text
from bgcli.core.ids import match_id, parse_match_id
from bgcli.formats.mat import read_matches
from bgcli.core.position import Position
from bgcli.match.replay import replay_match

from conftest import CORPUS, SELFPLAY as ORACLE

SELFPLAY = sorted(glob.glob(str(ORACLE / "*.mat")))
CORPUS_FILES = sorted(glob.glob(str(CORPUS / "galaxy" / "*.txt")) + glob.glob(str(CORPUS / "backgammon-studio" / "*.txt")))


def need(files):
    if not files:
        pytest.fail("oracle/corpus data not found under tests/data: the repository holds it", pytrace=False)
    return files


def signature(replay):
    """What must survive a round trip: every action with the state before it, and the results."""
    events = [(e.game, e.side, e.kind, e.dice, e.before.position.id(), match_id(e.before.match), e.points)
              for e in replay.events if e.kind != "roll"]   # XG's rolled-then-resigned: no cell in .mat or SGF
    results = [(r.winner_side, r.result, r.points, r.cube, r.crawford, r.score) for r in replay.results]
    return events, results, replay.length, replay.players


def without_date(text: str) -> list[str]:
    return [line for line in text.split("\n") if not line.startswith("; [EventDate ")]


# --- gnubg's layout -------------------------------------------------------------

@pytest.mark.parametrize("path", SELFPLAY or [None])
def test_selfplay_export_is_gnubg_export(path):
    need(SELFPLAY)
    records = read_any(path)
    ours = "".join(mat_text(record) for record in records)
    theirs = Path(path).read_text(encoding="utf-8")
    assert without_date(ours) == without_date(theirs)


def test_date_tag_from_record_or_argument():
    need(SELFPLAY)
    record = read_any(SELFPLAY[0])[0]
    assert mat_text(record).startswith(f'; [EventDate "{record.tags["EventDate"]}"]\n\n')
    assert mat_text(record, date="2001.02.03").startswith('; [EventDate "2001.02.03"]\n\n')


# A hand-made match in a loose dialect: no leading spaces, dice low first,
# the right-hand player opening, drops on both sides. The expected text is
# gnubg's layout as described in the module docstring (trailing spaces matter).
LOOSE = """\
; [Site "Somewhere"]
; [Player 1 "Ann"]
; [ClockType "Live"]
3 point match

Game 1
Ann : 0   Bob : 0
1) 13: 8/5 6/5                 Doubles => 2
2) Drops                        Wins 1 point

Game 2
Ann : 0   Bob : 1
1)                             24: 6/4 8/4
2) Doubles => 2                Drops
    Wins 1 point
"""

EXPECTED = """\
; [Site "Somewhere"]
; [EventDate "2020.01.01"]

; [Player 1 "Ann"]
; [ClockType "Live"]

 3 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Drops                       Wins 1 point 

 Game 2
 Ann : 0                        Bob : 1
  1)                             42: 6/4 8/4 
  2)  Doubles => 2                Drops
      Wins 1 point

"""


def test_layout_of_a_loose_dialect():
    record = read_matches(LOOSE).matches[0]
    assert mat_text(record, date="2020.01.01") == EXPECTED


def test_chained_play_is_split_and_sorted_as_gnubg_imports_it():
    def first_row(play: str) -> str:
        text = f" 1 point match\n\n Game 1\n A : 0      B : 0\n  1) {play}\n"
        return mat_text(read_matches(text).matches[0], date="2020.01.01").split("\n")[6]

    # one die per written step: the written order stays
    assert first_row("66: 24/18(2) 13/7(2)") == "  1) 66: 24/18 24/18 13/7 13/7".ljust(33)
    assert first_row("31: 6/5 8/5") == "  1) 31: 6/5 8/5".ljust(33)
    # hops of two dice: split, then by decreasing start point
    assert first_row("33: 13/7(2)") == "  1) 33: 13/10 13/10 10/7 10/7".ljust(33)
    assert first_row("42: 8/4 6/4*") == "  1) 42: 8/4 6/4".ljust(33)   # '*' follows the board


@pytest.mark.parametrize("notation", ["gnubg", "fibs"])
def test_other_notations_read_back_to_the_same_match(notation):
    need(SELFPLAY)
    for path in SELFPLAY[:4]:
        record = read_any(path)[0]
        text = mat_text(record, notation=notation)
        back = read_matches(text).matches[0]
        assert signature(replay_match(back)) == signature(replay_match(record))


def test_korean_notation_is_written():
    need(SELFPLAY)
    text = mat_text(read_any(SELFPLAY[0])[0], notation="korean")
    assert "상" in text and "하" in text


def test_unknown_notation_and_format():
    with pytest.raises(ValueError):
        mat_text(read_matches(LOOSE).matches[0], notation="chess")
    with pytest.raises(ValueError):
        export_text(read_matches(LOOSE).matches, "pgn")


# --- round trips --------------------------------------------------------------

ALL_FILES = SELFPLAY + CORPUS_FILES


@pytest.mark.parametrize("to", ["mat", "json"])
def test_round_trip_every_file(to):
    need(ALL_FILES)
    for path in ALL_FILES:
        for record in read_any(path):
            text = export_text([record], to)
            back = read_matches(text).matches if to == "mat" else read_json(text)
            assert len(back) == 1, path
            assert signature(replay_match(back[0])) == signature(replay_match(record)), (path, to)


def test_read_any_by_extension_and_content(tmp_path):
    need(SELFPLAY)
    record = read_any(SELFPLAY[1])[0]
    expected = signature(replay_match(record))
    for name, to in (("m.mat", "mat"), ("m.sgf", "sgf"), ("m.json", "json"),
                     ("m1.data", "sgf"), ("m2.data", "json"), ("m3.data", "mat")):
        path = tmp_path / name
        path.write_text(export_text([record], to), encoding="utf-8")
        assert sniff(str(path)) == to
        assert signature(replay_match(read_any(path)[0])) == expected, name


# --- the JSON document ------------------------------------------------------------

def test_json_document_fields():
    need(SELFPLAY)
    record = read_any(SELFPLAY[2])[0]
    doc = json_document(record)
    assert doc["format"] == "bgcli-match" and doc["version"] == 1
    assert doc["players"] == list(record.games[0].players)
    assert doc["match_length"] == record.length
    assert set(doc["rules"]) >= {"crawford", "jacoby", "beavers", "cube_limit"}
    first = doc["games"][0]
    assert first["number"] == 1 and first["score_before"] == [0, 0]
    opening = first["actions"][0]
    assert opening["position_id"] == Position.start().id()
    state = parse_match_id(opening["match_id"])
    assert state.match_length == record.length and state.dice == tuple(opening["dice"])
    for game in doc["games"]:
        for action in game["actions"]:
            assert action["action"] in ("move", "double", "take", "drop", "beaver", "roll")
            if action["action"] == "move":
                assert all(0 <= a <= 25 and 0 <= b < a for a, b in action["steps"])
                assert (action["play"] == "") == (action["steps"] == [])
        assert game["result"]["how"] in ("single", "gammon", "backgammon", "drop", "resignation")
    # a JSON document of several matches is a list
    assert isinstance(json.loads(json_text([record, record])), list)


def test_json_play_uses_the_notation():
    need(SELFPLAY)
    record = read_any(SELFPLAY[0])[0]
    plays = [a["play"] for a in json_document(record, "fibs")["games"][0]["actions"] if a.get("play")]
    assert all("/" not in p and "-" in p for p in plays)


@pytest.mark.parametrize("text", [
    "", "{", "[]", "{}", '{"format": "other"}', '{"format": "bgcli-match", "players": ["a"]}',
    '{"format": "bgcli-match", "players": ["a", "b"], "match_length": 1, "games": [{"actions": [{"player": 3}]}]}',
])
def test_read_json_rejects_other_documents(text):
    try:
        read_json(text)
    except MatchFileError:
        return
    assert text == "[]"   # an empty list is no match at all, and no error


def _mutations():
    doc = {"format": "bgcli-match", "version": 1, "players": ["a", "b"], "match_length": 1, "rules": {},
           "games": [{"number": 1, "score_before": [0, 0], "crawford": False,
                      "actions": [{"line": 1, "player": 0, "action": "move", "dice": [3, 1], "steps": [[8, 5], [6, 5]]},
                                  {"line": 1, "player": 1, "action": "double", "cube": 2},
                                  {"line": 2, "player": 0, "action": "drop"}],
                      "result": {"winner": 1, "points": 1}}]}
    values = st.one_of(st.none(), st.integers(-3, 30), st.text(max_size=4), st.lists(st.integers(-1, 26), max_size=3))
    return st.tuples(st.just(json.dumps(doc)), st.integers(0, 400), st.integers(0, 400), values)


@settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations())
def test_mutated_json_raises_only_our_errors(case):
    text, start, length, value = case
    mutated = text[:start] + json.dumps(value) + text[start + length % 40:]
    try:
        for record in read_json(mutated):
            replay_match(record)
    except BgcliError:
        pass


# --- export -o FOLDER: one output a file, through the archive runner ------------------------------------------

def test_export_into_a_folder_writes_one_output_per_input_never_over_an_input(tmp_path):
    from conftest import SAMPLES, invoke

    inputs = tmp_path / "in"
    (inputs / "sub").mkdir(parents=True)
    for name in ("a.mat", "sub/b.mat"):
        (inputs / name).write_bytes((SAMPLES / "sp05001_3pt.mat").read_bytes())
    (inputs / "flawed.mat").write_bytes((SAMPLES / "flawed_5pt.mat").read_bytes())   # a double SGF cannot hold
    out = tmp_path / "out"
    one = invoke("export", "--to", "sgf", "-o", f"{out}/", "--jobs", "2", inputs)
    assert one.exit_code == 1, one.output   # flawed.mat: something cannot be written, and no --force
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    folder = str(inputs).lstrip("/")
    assert written == [f"{folder}/a.sgf", f"{folder}/sub/b.sgf"]
    alone = invoke("export", "--to", "sgf", str(inputs / "a.mat")).stdout
    assert (out / folder / "a.sgf").read_text(encoding="utf-8") == alone == (out / folder / "sub/b.sgf").read_text(encoding="utf-8")
    assert "flawed.sgf was not written (--force writes the rest)" in one.stderr
    # never over an input: an output folder inside an input folder, an output that is another input
    assert invoke("export", "--to", "sgf", "-o", f"{inputs}/x/", inputs).exit_code == 2
    (inputs / "a.sgf").write_text("kept\n")
    refused = invoke("export", "--to", "sgf", "-o", f"{inputs}/", inputs / "a.mat", inputs / "a.sgf")
    assert refused.exit_code == 2 and (inputs / "a.sgf").read_text() == "kept\n"
    assert invoke("export", "--to", "sgf", "--jobs", "2", inputs / "a.mat").exit_code == 2   # --jobs wants -o FOLDER
