"""Snowie's text position files (bgcli/formats/snowietxt.py), judged against
GNU Backgammon's ``import snowietxt``.

The samples (tests/data/imports/snowietxt/pos*.txt) were written by
make_snowietxt.py, run in gnubg, from states of gnubg's own IDs
(tests/data/oracle/ids_sample.jsonl); gnubg then imported each and its
Position and Match IDs of what it read are ``golden.json``.
"""
from __future__ import annotations

import json

import pytest

from conftest import DATA, committed, committed_glob, invoke

from bgcli.core.ids import gnubg_id, parse_gnubg_id
from bgcli.errors import MatchFileError
from bgcli.formats.snowietxt import parse, read_position

HERE = DATA / "imports" / "snowietxt"
GOLDEN = json.loads(committed(HERE / "golden.json").read_text(encoding="utf-8"))
FILES = committed_glob(HERE, "pos*.txt")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_a_position_reads_as_gnubg_imports_it(path):
    mine = read_position(path)
    # through bgcli's writer both (a money game's Match ID keeps no score in bgcli's: the state's score is compared below)
    assert gnubg_id(mine) == gnubg_id(parse_gnubg_id(GOLDEN[path.rsplit("/", 1)[-1]]))
    theirs = parse_gnubg_id(GOLDEN[path.rsplit("/", 1)[-1]]).match
    assert mine.match.score == theirs.score and mine.match.dice == theirs.dice


def test_every_sample_has_gnubg_s_reading():
    assert sorted(GOLDEN) == sorted(p.rsplit("/", 1)[-1] for p in FILES) and len(FILES) >= 10


def test_the_names_go_with_the_player_on_roll():
    fields = (HERE / "pos00.txt").read_text(encoding="utf-8").split(";")
    state = parse(";".join(fields))
    side = int(fields[4])
    assert state.match.on_roll == side and state.match.names[side] == fields[5]
    assert state.match.names[1 - side] == fields[6]


def test_a_position_file_is_a_position_wherever_one_is_taken():
    result = invoke("show", FILES[0])
    assert result.exit_code == 0 and gnubg_id(read_position(FILES[0])).split(":")[0] in result.output


@pytest.mark.parametrize("text, where", [
    ("1;2;3", "3 fields"),
    ("0;0;0;0;2;a;b;" + "0;" * 33, "field 4"),
    ("0;0;0;0;0;a;b;0;0;0;1;7;" + "0;" * 28, "field 11"),
    ("0;0;0;0;0;a;b;0;0;0;1;0;0;" + "x;" * 27, "field 13"),
    ("0;0;0;0;0;a;b;0;0;0;1;0;0;" + "15;" * 24 + "0;0;0;", "board"),
])
def test_a_bad_position_is_one_error_naming_the_file(tmp_path, text, where):
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MatchFileError):
        read_position(str(path))
    result = invoke("show", str(path))
    assert result.exit_code in (1, 2) and "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and str(path) in errors[0]


def test_an_endless_file_is_refused_at_its_bound(tmp_path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"0;" * 600_000)
    with pytest.raises(MatchFileError, match="larger than"):
        read_position(str(path))
