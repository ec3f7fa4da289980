"""Cube decisions at scores near the end of short and long matches, against GNU Backgammon's 2-ply cube
analysis (tests/data/heldout-cube-scores, NOTE.md says how they were made): post-Crawford free drops,
2-away/2-away and 3-away/3-away, gammons made worthless by a double, and cubes of 4 to 32 in matches of
17 to 25 points. The same checks as tests/test_cube.py's on its golden cases: bgcli's reasons not to
double where gnubg says "You cannot double.", its proper action in gnubg's words, the percent and
gnubg's ranking of the three lines.
"""
from __future__ import annotations

import json

import pytest

from test_cube import test_the_proper_action_is_gnubgs_in_its_own_words as _gnubgs_words

from conftest import DATA, committed

HERE = DATA / "heldout-cube-scores"
CASES = [json.loads(line) for line in committed(HERE / "cube.jsonl").read_text().splitlines() if line.strip()]


def test_the_sample_has_every_kind_and_the_rare_answers():
    assert {case["kind"] for case in CASES} == {"freedrop", "2away2away", "3away3away", "gammondead", "highcube"}
    said = {case["proper"] for case in CASES}
    assert {"Optional double, take", "Too good to redouble, pass", "Redouble, pass", None} <= said


@pytest.mark.parametrize("case", CASES, ids=[f"{n}-{c['kind']}" for n, c in enumerate(CASES)])
def test_the_proper_action_is_gnubgs_in_its_own_words(case):
    _gnubgs_words(case)
