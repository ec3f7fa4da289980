"""The rating asks a game's questions ahead from the engine's worker threads (bgcli.engines.workers): with
the real engines every figure is the one of asking in turn, from one thread (the fake engine's checks of the
same are in test_rating.py; gnubg's figures against its own analyse match in test_rating_gnubg.py, which
rates through the workers)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from bgcli.engines import workers as engine_workers
from bgcli.engines.gnubg import find_gnubg
from bgcli.formats.files import visit_file
from bgcli.judging.rating import rate_replay

DATA = Path(__file__).parent / "data" / "rating"
HAVE_SAGE = importlib.util.find_spec("bgsage") is not None


def rating_of(engine, luck, path: Path):
    rating, = rate_replay(engine, lambda v: visit_file(str(path), v, None), luck_engine=luck)
    return [d.to_dict() for d in rating.decisions], [p.to_dict() for p in rating.ratings]


@pytest.mark.skipif(not HAVE_SAGE, reason="bgsage is not installed (pip install '.[engine]')")
def test_sage_asked_from_its_workers_gives_the_figures_of_one_thread(monkeypatch):
    from bgcli.engines import open_engine

    monkeypatch.setattr(engine_workers.os, "cpu_count", lambda: 2)
    engine, luck = open_engine("sage", 2), open_engine("sage", 0)
    path = DATA / "sp05000_1pt.mat"
    try:
        assert engine.workers() is not None
        ahead = rating_of(engine, luck, path)
        engine.close()
        engine = open_engine("sage", 2)
        monkeypatch.setattr(engine, "workers", lambda: None)
        alone = rating_of(engine, luck, path)
    finally:
        engine.close()
        luck.close()
    assert ahead == alone
    assert any(d["error"] for d in alone[0])


def test_no_workers_on_one_core(monkeypatch):
    monkeypatch.setattr(engine_workers.os, "cpu_count", lambda: 1)
    assert engine_workers.Workers(lambda: None).pool() is None
    monkeypatch.setattr(engine_workers.os, "cpu_count", lambda: 64)
    found = engine_workers.Workers(lambda: None)
    pool = found.pool()
    assert pool is not None and pool is found.pool() and pool._max_workers == engine_workers.MAX_WORKERS
    found.close()


def test_gnubgs_best_play_that_is_not_a_legal_play_is_an_engine_error(tmp_path):
    """The luck's best plays come back from gnubg as positions: one that no legal play of the roll reaches is
    refused by the gnubg backend (the rating no longer checks every backend's answer itself: sage picks
    among bgcli's own plays); a legal one is read."""
    import json

    from fake_engine import fake_gnubg

    from bgcli.core.generator import legal_plays
    from bgcli.core.position import Position
    from bgcli.core.state import GameState
    from bgcli.engines.gnubg import GnubgEngine
    from bgcli.engines.protocol import Level
    from bgcli.errors import EngineError

    probs = [0.5, 0.1, 0.0, 0.1, 0.0]
    legal = legal_plays(Position.start(), (3, 1))[0].result.swap().id()
    for result, ok in ((legal, True), (Position.start().swap().id(), False)):
        answer = {"rolls": [{"equity": 0.1, "probs": probs, "result": result}]}
        program = fake_gnubg(tmp_path, f"out.write(({json.dumps(json.dumps(answer))} + '\\n').encode())")
        engine = GnubgEngine(Level(0), timeout=60, program=program)
        try:
            if ok:
                key, found = engine.best_plays(GameState(Position.start()), [(3, 1)])[0]
                assert key == legal_plays(Position.start(), (3, 1))[0].result.id() and found.equity == 0.1
            else:
                with pytest.raises(EngineError, match="best play is not a legal play in .*31"):
                    engine.best_plays(GameState(Position.start()), [(3, 1)])
        finally:
            engine.close()


@pytest.mark.skipif(find_gnubg() is None, reason="GNU Backgammon is not installed (apt-get install gnubg)")
def test_gnubgs_luck_asked_from_its_own_workers_gives_the_figures_of_one_thread(monkeypatch):
    """gnubg's luck engine (0-ply, a program of its own that mostly waits: every evaluation asked from its
    Python ends in a wait of about 10 ms) is asked a game's luck from its own workers, several programs a
    core; the figures are those of one thread asking in turn."""
    from bgcli.engines import open_engine

    monkeypatch.setattr(engine_workers.os, "cpu_count", lambda: 2)
    path = DATA / "sp05000_1pt.mat"
    engine, luck = open_engine("gnubg", 0), open_engine("gnubg", 0)
    try:
        pool = luck.workers()
        assert pool is not None and pool._max_workers == 4   # two a core at 0-ply
        ahead = rating_of(engine, luck, path)
    finally:
        luck.close()
    luck = open_engine("gnubg", 0)
    monkeypatch.setattr(luck, "workers", lambda: None)
    try:
        alone = rating_of(engine, luck, path)
    finally:
        engine.close()
        luck.close()
    assert ahead == alone and any(d["luck"] for d in ahead[0])
    deeper = open_engine("gnubg", 2)
    try:
        assert deeper.workers()._max_workers == 2   # deeper levels work more than they wait: one a core
    finally:
        deeper.close()
