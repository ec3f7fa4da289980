"""Positions bgcli writes, read by GNU Backgammon (tests/data/heldout-ids-into-gnubg, NOTE.md says how
they were made): game states gnubg walked in its own matches (long matches, high cubes, Crawford and
post-Crawford, money with beavers, nackgammon), each converted by ``bgcli convert`` to an XGID and a
GNUbg ID, then given to gnubg (``set xgid``, ``set gnubgid``): gnubg's state is the one it walked.

Without gnubg: bgcli still writes the XGIDs and GNUbg IDs gnubg was given, and gnubg's recorded reading
of each is the state it walked. With gnubg: gnubg reads today's output of bgcli so.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from conftest import DATA, committed, gnubgid_norm, invoke

HERE = DATA / "heldout-ids-into-gnubg"
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)


def rows() -> list[dict]:
    return [json.loads(line) for line in committed(HERE / "ids.jsonl").read_text().splitlines() if line.strip()]


def converted(to: str) -> list[str]:
    text = "".join(row["gnubgid"] + "\n" for row in rows())
    result = invoke("convert", "--to", to, "-", input=text)
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_bgcli_writes_what_gnubg_was_given():
    assert converted("xgid") == [row["xgid"] for row in rows()]
    assert converted("gnubg") == [row["bgcli_gnubgid"] for row in rows()]


def test_the_sample_has_every_kind_of_state():
    fields = gnubgid_norm().match_fields
    states = [fields(row["gnubgid"].split(":")[1]) for row in rows()]
    assert {1 << s["cubelog"] for s in states} >= {1, 2, 4, 8, 16}
    assert {s["owner"] for s in states} == {0, 1, 3}
    assert any(s["crawford"] for s in states) and any(not s["length"] for s in states)
    assert any(s["d1"] for s in states) and any(not s["d1"] for s in states)
    assert any(row["source"].startswith("dr442") for row in rows())   # nackgammon


@pytest.mark.parametrize("field", ["gnubg_set_xgid", "gnubg_set_gnubgid"])
def test_gnubg_read_bgclis_ids_as_the_state_it_walked(field):
    canonical = gnubgid_norm().canonical
    for row in rows():
        assert canonical(row[field]) == canonical(row["gnubgid"]), row


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
def test_gnubg_reads_bgclis_ids_today(tmp_path):
    canonical = gnubgid_norm().canonical
    given = tmp_path / "given.txt"
    xgids, ids = converted("xgid"), converted("gnubg")
    given.write_text("".join(f"{n} xgid {x}\n{n + 10000} gnubgid {g}\n" for n, (x, g) in enumerate(zip(xgids, ids))))
    out = subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(HERE / "gnubg_setids.py")], capture_output=True,
                         text=True, timeout=300, env=dict(os.environ, SI_IN=str(given)), check=True).stdout
    read = {int(n): f"{p}:{m}" for _, n, p, m in (line.split() for line in out.splitlines() if line.startswith("@@ "))}
    for n, row in enumerate(rows()):
        assert canonical(read[n]) == canonical(row["gnubgid"]), (row, read[n])
        assert canonical(read[n + 10000]) == canonical(row["gnubgid"]), (row, read[n + 10000])
