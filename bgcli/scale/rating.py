"""Rating archives of match files: each file rated on its own, many at a
time, the results kept in a database that lets an interrupted run resume.

It rides on the audit's machinery (bgcli.scale.archive: the files found, the
ordered process pool, the digests; bgcli.scale.cluster: Dask) with its own
work per file, :func:`rate_batch`, and its own database, :class:`RatingsDB`.

- :func:`rate_file` rates one file and never raises for anything the file or
  the engine does: a file that cannot be read, or an engine that fails or
  runs past its time limit on it, gives a :class:`RatingResult` with its
  error, and the next file is rated with a fresh engine. Only a missing engine
  (EngineUnavailableError) stops the run, since no file could be rated.
- Each process opens its engines once (the judging level and 0-ply for luck)
  and keeps them for every file it rates.
"""
from __future__ import annotations

import json
import os
import sqlite3
import stat
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Sequence

from bgcli import __version__
from bgcli.core.rules import Rules
from bgcli.errors import BgcliError, EngineError, EngineUnavailableError
from bgcli.judging.rating import MatchRating, PlayerRating, rate_replay
from bgcli.scale.archive import STDIN, DatabaseError, Job, Unchanged, from_db, to_db, failure_text, file_digest, file_key, open_database


@dataclass(frozen=True)
class EngineSpec:
    """Which engine judges, at which level (gnubg's numbering), with what time limit per call."""

    name: str = "sage"
    level: int = 2
    timeout: float = 60.0


@dataclass(frozen=True)
class RatingResult:
    """The rating of one file: per player (``PlayerRating.to_dict()``, merged
    by name over the file's matches) and every decision, or why it could not
    be rated."""

    path: str
    players: tuple[dict, ...] = ()
    decisions: tuple[dict, ...] = ()
    matches: int = 0
    illegal: int = 0
    error: str | None = None
    digest: str | None = None

    def to_dict(self) -> dict:
        """``{"file", "players", "decisions"}``, and ``"error"`` when there is one."""
        data: dict = {"file": self.path, "players": list(self.players), "decisions": list(self.decisions)}
        if self.error is not None:
            data["error"] = self.error
        return data


_ENGINES: dict[EngineSpec, tuple[Any, Any]] = {}   # this process's open engines


def engines_for(spec: EngineSpec) -> tuple[Any, Any]:
    """The engine at ``spec``'s level and its 0-ply twin for luck, opened once per process."""
    if spec not in _ENGINES:
        from bgcli.engines import open_engine

        engine = open_engine(spec.name, spec.level, timeout=spec.timeout)
        luck = engine if spec.level == 0 else open_engine(spec.name, 0, timeout=spec.timeout)
        _ENGINES[spec] = (engine, luck)
    return _ENGINES[spec]


def drop_engines(spec: EngineSpec) -> None:
    """Close the engines of ``spec`` (after a failure: a program may be stuck)."""
    for engine in set(_ENGINES.pop(spec, ())):
        try:
            engine.close()
        except Exception:
            pass


def summary(ratings: Sequence[MatchRating]) -> tuple[tuple[dict, ...], tuple[dict, ...], int]:
    """Players merged by name over the matches (in order of appearance), every decision, the illegal plays."""
    players: dict[str, PlayerRating] = {}
    decisions = []
    several = len(ratings) > 1
    for rating in ratings:
        for player in rating.ratings:
            if player.name in players:
                players[player.name].add(player)
            else:
                players[player.name] = PlayerRating(player.name, match_play=player.match_play)
                players[player.name].add(player)
        decisions += [d.to_dict(with_match=several) for d in rating.decisions]
    illegal = sum(p.illegal for p in players.values())
    return tuple(p.to_dict() for p in players.values()), tuple(decisions), illegal


def rate_file(path: str, spec: EngineSpec, rules: Rules | None = None, known: str | None = None, keep: bool = False,
              source: str | None = None) -> RatingResult | Unchanged:
    """Rate one file (``-``: standard input); see the module docstring."""
    from bgcli.formats.files import visit_file

    digest = None
    where = source or path
    try:
        if keep and where != STDIN and stat.S_ISREG(os.stat(where).st_mode):
            digest = file_digest(where)
            if known is not None and digest == known:
                return Unchanged(path, digest)
        engine, luck = engines_for(spec)
        ratings = rate_replay(engine, lambda visitor: visit_file(where, visitor, rules), luck_engine=luck)
        players, decisions, illegal = summary(ratings)
        return RatingResult(path, players, decisions, len(ratings), illegal, None, digest)
    except EngineUnavailableError:
        raise
    except EngineError as exc:
        drop_engines(spec)
        return RatingResult(path, error=f"cannot rate {path}: {exc}", digest=digest)
    except Exception as exc:  # a bug met by one file must not stop the others
        if not isinstance(exc, (OSError, BgcliError, RecursionError, MemoryError)):
            drop_engines(spec)   # an engine in an unknown state is not asked again
        return RatingResult(path, error=failure_text(exc, path, where, "rate"),
                            digest=None if isinstance(exc, OSError) else digest)


def rate_batch(jobs: Sequence[Job], context: tuple[EngineSpec, Rules | None]) -> list[RatingResult | Unchanged]:
    """Rate jobs one after another: one task of a worker (the audit's pool and Dask call it)."""
    spec, rules = context
    return [rate_file(path, spec, rules, known, keep, source) for path, keep, known, source in jobs]


def as_rating(result: Any) -> RatingResult | Unchanged:
    """A result of the pool: the audit's own error result (a worker that died) becomes a rating's."""
    if isinstance(result, (RatingResult, Unchanged)):
        return result
    message = str(getattr(result, "error", "") or "").replace("cannot audit", "cannot rate").replace("auditing", "rating")
    return RatingResult(result.path, error=message or f"cannot rate {result.path}")


# --- the results database ------------------------------------------------------------------

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY,
    digest TEXT NOT NULL,          -- SHA-256 of the content rated
    key TEXT NOT NULL,             -- the engine, level, rules and bgcli version it was rated with
    matches INTEGER NOT NULL,
    illegal INTEGER NOT NULL,
    error TEXT,                    -- why it could not be rated, or NULL
    decisions TEXT NOT NULL        -- the decisions, as JSON
);
CREATE TABLE IF NOT EXISTS players (
    path TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    name TEXT NOT NULL,
    figures TEXT NOT NULL,         -- PlayerRating.to_dict(), as JSON
    matches INTEGER NOT NULL, decisions INTEGER NOT NULL, error REAL NOT NULL, luck REAL NOT NULL,
    doubtful INTEGER NOT NULL, bad INTEGER NOT NULL, very_bad INTEGER NOT NULL,
    PRIMARY KEY (path, seq)
);
CREATE INDEX IF NOT EXISTS players_name ON players(name);
"""
SCHEMA_VERSION = "1"
MADE_BY = "bgcli rate"


def rating_key(spec: EngineSpec, rules: Rules | None) -> str:
    return json.dumps({"bgcli": __version__, "engine": spec.name, "level": spec.level,
                       "rules": asdict(rules or Rules())}, sort_keys=True)


class RatingsDB:
    """The ratings of an archive in SQLite, one transaction per file (a kill
    leaves every file whose result was given out); a second run skips the
    files whose content, engine, level and rules are unchanged."""

    def __init__(self, path: str, spec: EngineSpec | None = None, rules: Rules | None = None, create: bool = True):
        self.path = path
        self.key = rating_key(spec or EngineSpec(), rules)
        self.db = open_database(path, made_by=MADE_BY, kind="ratings", contents="ratings",
                                schema=SCHEMA, version=SCHEMA_VERSION, create=create)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "RatingsDB":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _read(self, sql: str, values: tuple = ()) -> list:
        try:
            return self.db.execute(sql, values).fetchall()
        except sqlite3.Error as exc:
            raise DatabaseError(f"cannot read the ratings database {self.path}: {exc}") from None

    def job(self, path: str) -> Job:
        if path == STDIN:
            return Job(path)
        row = self._read("SELECT digest FROM files WHERE path = ? AND key = ?", (file_key(path), self.key))[:1]
        return Job(path, True, row[0][0] if row else None)

    def stored(self, path: str) -> RatingResult:
        key = file_key(path)
        (digest, matches, illegal, error, decisions), = self._read(
            "SELECT digest, matches, illegal, error, decisions FROM files WHERE path = ?", (key,))
        players = tuple(json.loads(figures) for figures, in
                        self._read("SELECT figures FROM players WHERE path = ? ORDER BY seq", (key,)))
        return RatingResult(path, players, tuple(json.loads(decisions)), matches, illegal, error, digest)

    def store(self, result: RatingResult) -> None:
        """Keep one file's result (not standard input, nor a file that could not be read)."""
        if result.digest is None or result.path == STDIN:
            return
        db = self.db
        key = file_key(result.path)   # a, ./a and $PWD/a are one file
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("DELETE FROM players WHERE path = ?", (key,))
                db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (key, result.digest, self.key, result.matches, result.illegal, result.error,
                            json.dumps(list(result.decisions))))
                db.executemany("INSERT INTO players VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               [(key, seq, to_db(p["name"]), json.dumps(p), p.get("matches", 1), p["decisions"],
                                 p["error"], p["luck"], p["doubtful"], p["bad"], p["very_bad"])
                                for seq, p in enumerate(result.players)])
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise DatabaseError(f"cannot write to the ratings database {self.path}: {exc}") from None

    def resolve(self, result: RatingResult | Unchanged) -> RatingResult:
        if isinstance(result, Unchanged):
            return self.stored(result.path)
        self.store(result)
        return result

    def players(self) -> list[dict]:
        """Each player's figures over every stored file: matches, decisions, error, PR, luck and marks."""
        rows = self._read("SELECT name, sum(matches), sum(decisions), sum(error), sum(luck), sum(doubtful), sum(bad), "
                          "sum(very_bad) FROM players GROUP BY name ORDER BY name")
        out = []
        for name, matches, decisions, error, luck, doubtful, bad, very_bad in rows:
            pr = round(500.0 * error / decisions, 3) if decisions else None
            out.append({"name": from_db(name), "matches": matches, "decisions": decisions, "error": round(error, 6), "pr": pr,
                        "luck": round(luck, 6), "doubtful": doubtful, "bad": bad, "very_bad": very_bad})
        return out


def chain(head: list, rest: Iterable) -> Iterable:
    yield from head
    yield from rest


__all__ = ["EngineSpec", "RatingResult", "RatingsDB", "as_rating", "engines_for", "rate_batch", "rate_file", "summary"]
