"""Every real file in tests/data, as a careful reader judges it, and through
every format bgcli writes.

The real files are the matches that servers and programs wrote (Backgammon
Galaxy, Backgammon Studio, gnubg's SGF and text export, eXtreme Gammon's .xg
and .mat, BGBlitz's .bgf: tests/data/corpus, tests/data/gammonview,
tests/data/sgf and the two in samples/). Each exported as .mat, SGF and JSON
must read back to the same replay: the same plays (rolls never played
included), cube actions, results and score. What an export cannot hold is
said (left out), never dropped in silence: a file with a play SGF cannot hold
is refused, and its other exports still round-trip.
"""
from __future__ import annotations

import os

import pytest

from conftest import DATA, committed_glob

from bgcli.formats.files import export, read_any, replay_file

ROOT = DATA.parent.parent
REAL = (committed_glob(DATA / "corpus" / "galaxy", "*.txt") + committed_glob(DATA / "corpus" / "backgammon-studio", "*.txt")
        + committed_glob(DATA / "corpus" / "gnubg-text-export", "*.txt")
        + committed_glob(DATA / "gammonview" / "mat", "*.mat") + committed_glob(DATA / "gammonview" / "xg", "*.xg")
        + committed_glob(DATA / "gammonview" / "bgf", "*.bgf") + committed_glob(DATA / "sgf", "*.sgf")
        + committed_glob(DATA / "real" / "gnubg-1.08-mat", "*.mat") + committed_glob(DATA / "real" / "opengammon", "*.mat")
        + committed_glob(DATA / "real" / "gnubg-1.08-sgf", "*.sgf") + committed_glob(DATA / "real" / "foxamon", "*.mat")
        + committed_glob(DATA / "real" / "xg-mat", "*.txt") + committed_glob(DATA / "real" / "choue-net", "*.txt")
        + [str(ROOT / "samples" / "galaxy_match3029786.txt"), str(ROOT / "samples" / "studio_mrpurple_lasse_3pt.txt")])
SUFFIX = {"mat": ".mat", "sgf": ".sgf", "json": ".json"}


def replayed(path: str) -> list:
    """What a careful reader reads in a file: per match, every action with its
    position before it, the results and the score."""
    out = []
    for replay in replay_file(path):
        # the games in order (an export numbers them from 1: gnubg's text
        # export of a match's second game alone is game 1 of its export)
        events = [(e.side, e.kind.value, e.dice and tuple(sorted(e.dice)), e.before.position.id(),
                   # a double's value as written, else the one it makes (gnubg's text export writes none)
                   (e.cube or e.before.match.cube * 2) if e.kind.value in ("double", "beaver", "raccoon") else None)
                  for e in replay.events if e.kind.value not in ("win", "resign", "draw")]
        results = [(getattr(r, "winner_side", None), getattr(r, "points", None), r.score) for r in replay.games()]
        out.append((replay.length, events, results, replay.score))
    return out


@pytest.mark.parametrize("to", sorted(SUFFIX))
@pytest.mark.parametrize("path", REAL, ids=lambda p: os.path.relpath(p, ROOT))
def test_every_real_file_round_trips_through_every_format(path, to, tmp_path):
    text, left_out = export(read_any(path), to)
    if left_out:
        # only what the format truly cannot hold, each named at its line
        assert all(line.startswith("line ") for line in left_out), left_out
        return
    back = tmp_path / f"back{SUFFIX[to]}"
    back.write_text(text, encoding="utf-8")
    assert replayed(str(back)) == replayed(path)


def test_the_real_files_are_all_there():
    assert len(REAL) > 90


# the other real folders' findings, explained, are in test_transcript.py
# (Galaxy, Backgammon Studio) and test_conventions.py (gammonview's XG, BGBlitz and .mat)
CLEAN = committed_glob(DATA / "corpus" / "gnubg-text-export", "*.txt") + committed_glob(DATA / "sgf", "*.sgf")


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: os.path.relpath(p, ROOT))
def test_clean_real_files_audit_clean(path):
    assert [(p.line, p.kind.value, p.message) for replay in replay_file(path) for p in replay.problems] == []
