"""Jellyfish's position files (bgcli/formats/jfpos.py), judged against GNU
Backgammon's ``import pos``.

The samples (tests/data/jellyfish/pos/*.pos) were written by gnubg 1.07's
``export position pos`` (make_pos.py there, run in gnubg): a match and a
money session, the cube centred and owned by either side, either side on
roll with the dice rolled or not, checkers on both bars, the Crawford game.
gnubg then imported each, and its Position and Match IDs of what it read
are ``pos_ids.json``: bgcli reads each file to the same.
"""
from __future__ import annotations

import json
import struct

import pytest

from conftest import DATA, committed, committed_glob, invoke

from bgcli.core.ids import gnubg_id
from bgcli.errors import MatchFileError
from bgcli.formats.jfpos import parse, read_position

HERE = DATA / "jellyfish" / "pos"
GOLDEN = json.loads(committed(HERE / "pos_ids.json").read_text(encoding="utf-8"))
FILES = committed_glob(HERE, "*.pos")


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".pos")


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_a_jellyfish_position_reads_as_gnubg_imports_it(path):
    ids = GOLDEN[_name(path)]
    state = read_position(path)
    assert gnubg_id(state) == f"{ids['position_id']}:{ids['match_id']}"
    assert state.match.names == ("alice", "bob")   # player 1 is gnubg's player 0


def test_every_sample_has_gnubg_s_reading():
    assert sorted(GOLDEN) == sorted(map(_name, FILES)) and len(FILES) == 5


def test_the_money_session_keeps_the_jacoby_rule_and_no_score():
    state = read_position(str(HERE / "both_bars_money_cube_4_alice_66.pos"))
    assert state.match.rules.match_length == 0 and state.match.rules.jacoby and state.match.dice == (6, 6)
    assert (state.match.cube, state.match.cube_owner) == (4, 0)


def test_a_jellyfish_position_is_a_position_wherever_one_is_taken():
    path = str(HERE / "bar_bob_on_roll_52.pos")
    result = invoke("show", path)
    assert result.exit_code == 0 and GOLDEN["bar_bob_on_roll_52"]["position_id"] in result.output


def test_a_damaged_position_is_one_error_naming_what_was_read(tmp_path):
    data = (HERE / "bar_bob_on_roll_52.pos").read_bytes()
    with pytest.raises(MatchFileError, match=r"cut short at byte \d+, in point \d+ of the board"):
        parse(data[:100], "cut.pos")
    with pytest.raises(MatchFileError, match="its version is 7"):
        parse(struct.pack("<h", 7) + data[2:], "old.pos")
    with pytest.raises(MatchFileError, match="owner is 5"):
        parse(data[:14] + struct.pack("<h", 5) + data[16:], "owner.pos")
    path = tmp_path / "cut.pos"
    path.write_bytes(data[:40])
    result = invoke("show", str(path))
    assert result.exit_code == 1 and "cut short" in result.output and "Traceback" not in result.output   # as a bad Snowie position
