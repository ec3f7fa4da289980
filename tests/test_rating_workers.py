"""The rating asks a game's questions ahead from the engine's worker threads (bgcli.engines.workers): with
the real engines every figure is the one of asking in turn, from one thread (the fake engine's checks of the
same are in test_rating.py; gnubg's figures against its own analyse match in test_rating_gnubg.py, which
rates through the workers)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from bgcli.engines import workers as engine_workers
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
