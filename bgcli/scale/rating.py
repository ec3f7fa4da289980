"""Rating archives of match files: each file rated on its own, many at a
time, the results kept in a database that lets an interrupted run resume.

The rating is a per-file job, :class:`RateJob` (bgcli.scale.jobs), run over
files by bgcli.scale.runner as the audit is, with its own database,
:class:`RatingsDB` (bgcli.scale.results).

- :class:`RateJob` rates one file and never raises for anything the file or
  the engine does: a file that cannot be read, or an engine that fails or
  runs past its time limit on it, gives a :class:`RatingResult` with its
  error, and the next file is rated with a fresh engine. Only a missing engine
  (EngineUnavailableError) stops the run, since no file could be rated.
- Each process opens its engines once (the judging level and 0-ply for luck)
  and keeps them for every file it rates.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass, replace
from typing import Any, ClassVar, Sequence

from bgcli import __version__
from bgcli.core.rules import Rules
from bgcli.engines.met_tables import MatchEquityTable
from bgcli.errors import BgcliError, EngineError, EngineUnavailableError
from bgcli.judging.rating import MatchRating, PlayerRating, rate_replay
from bgcli.scale.jobs import failure_text
from bgcli.scale.results import Damaged, ResultsDatabase, files_schema, from_db, to_db


@dataclass(frozen=True)
class EngineSpec:
    """Which engine judges, at which level (gnubg's numbering), with what time limit per call, and with which
    match equity table (None: the default)."""

    name: str = "sage"
    level: int = 2
    timeout: float = 60.0
    met: MatchEquityTable | None = None


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
    second: dict | None = None   # rate --second-opinion: the second engine's figures and the disagreements

    def to_dict(self) -> dict:
        """``{"file", "players", "decisions"}``, ``"error"`` when there is one, ``"second_opinion"`` when asked."""
        data: dict = {"file": self.path, "players": list(self.players), "decisions": list(self.decisions)}
        if self.error is not None:
            data["error"] = self.error
        if self.second is not None:
            data["second_opinion"] = self.second
        return data


_ENGINES: dict[EngineSpec, tuple[Any, Any]] = {}   # this process's open engines


def engines_for(spec: EngineSpec) -> tuple[Any, Any]:
    """The engine at ``spec``'s level and its 0-ply twin for luck, opened once per process."""
    if spec not in _ENGINES:
        from bgcli.engines import open_engine

        engine = open_engine(spec.name, spec.level, timeout=spec.timeout, met=spec.met)
        luck = engine if spec.level == 0 else open_engine(spec.name, 0, timeout=spec.timeout, met=spec.met)
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


@dataclass(frozen=True)
class RateJob:
    """The rating of a file by an engine, a per-file job (bgcli.scale.jobs); see the module docstring."""

    spec: EngineSpec = EngineSpec()
    rules: Rules | None = None
    second: EngineSpec | None = None   # rate --second-opinion: the second engine
    margin: float = 0.02               # ... and how far apart two errors must be to be a disagreement
    verdict_trials: int = 36           # ... and the trials of the rollout that decides each (0: none)
    verb: ClassVar[str] = "rate"
    doing: ClassVar[str] = "rating"

    def run(self, path: str, where: str, digest: str | None) -> RatingResult:
        from bgcli.formats.files import visit_file

        engine, luck = engines_for(self.spec)
        if self.second is not None:
            return self._both(path, where, digest, (engine, luck))
        ratings = rate_replay(engine, lambda visitor: visit_file(where, visitor, self.rules), luck_engine=luck)
        players, decisions, illegal = summary(ratings)
        return RatingResult(path, players, decisions, len(ratings), illegal, None, digest)

    def _both(self, path: str, where: str, digest: str | None, first: tuple[Any, Any]) -> RatingResult:
        """The file rated by both engines: the first's rating as usual, the second's figures and the
        disagreements beside it (bgcli.judging.opinion)."""
        from bgcli.engines import describe
        from bgcli.formats.files import visit_file
        from bgcli.judging.opinion import rolled_out, second_opinion

        assert self.second is not None
        second = engines_for(self.second)
        found = second_opinion((first[0], second[0]), (first[1], second[1]),
                               lambda visitor: visit_file(where, visitor, self.rules), self.margin)
        if self.verdict_trials:
            # the rollout is played by the first engine at 0-ply (its luck twin), as rollouts usually are
            found = [replace(o, disagreements=tuple(rolled_out(d, first[1], self.verdict_trials) for d in o.disagreements))
                     for o in found]
        players, decisions, illegal = summary([o.first for o in found])
        theirs, _, _ = summary([o.second for o in found])
        pr = {p["name"]: p["pr"] for p in theirs}
        data = {"first": describe(self.spec.name, self.spec.level), "second": describe(self.second.name, self.second.level),
                "margin": self.margin,
                "players": [{"name": p["name"], "pr_first": p["pr"], "pr_second": pr.get(p["name"])} for p in players],
                "disagreements": [d.to_dict() for o in found for d in o.disagreements],
                "rollout": {"engine": describe(self.spec.name, 0), "trials": self.verdict_trials} if self.verdict_trials else None}
        return RatingResult(path, players, decisions, len(found), illegal, None, digest, data)

    def failed(self, path: str, error: str, digest: str | None = None) -> RatingResult:
        return RatingResult(path, error=error, digest=digest)

    def failure(self, exc: Exception, path: str, where: str) -> str:
        if isinstance(exc, EngineUnavailableError):
            raise exc   # no file could be rated: the run stops
        if isinstance(exc, EngineError):
            drop_engines(self.spec)
            return f"cannot rate {path}: {exc}"
        if not isinstance(exc, (OSError, BgcliError, RecursionError, MemoryError)):
            drop_engines(self.spec)   # an engine in an unknown state is not asked again
        return failure_text(exc, path, where, self.verb)


# --- the results database ------------------------------------------------------------------

SCHEMA = files_schema("""\
    matches INTEGER NOT NULL,
    illegal INTEGER NOT NULL,
    error TEXT,                    -- why it could not be rated, or NULL
    decisions TEXT NOT NULL        -- the decisions, as JSON""", """
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
""")   # the key: the engine, level, rules and bgcli version it was rated with
SCHEMA_VERSION = "1"
MADE_BY = "bgcli rate"


def rating_key(spec: EngineSpec, rules: Rules | None) -> str:
    key: dict = {"bgcli": __version__, "engine": spec.name, "level": spec.level, "rules": asdict(rules or Rules())}
    from bgcli.engines.met import is_default

    if not is_default(spec.met):
        assert spec.met is not None
        key["met"] = spec.met.digest()   # another table, other figures (the default's key is as before)
    return json.dumps(key, sort_keys=True)


# What a stored rating's rows must hold for the rate command to show them again
# (its text and its JSON lines): a row lacking one is damaged.
_DECISION_KEYS = ("game", "move", "line", "player", "kind", "played", "best", "error")
_PLAYER_KEYS = ("name", "decisions", "error", "error_rate", "pr", "luck", "result", "luck_adjusted", "doubtful", "bad",
                "very_bad")


def _stored_dicts(text: Any, what: str, keys: Sequence[str], many: bool = True) -> tuple[dict, ...]:
    """The dicts stored as JSON in ``text`` (a list of them, or with ``many`` false one), each with ``keys``;
    else Damaged, saying what is wrong (``what``: which column of which table)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise Damaged(f"its {what} are not JSON ({type(exc).__name__}: {exc})") from None
    if many and not isinstance(value, list):
        raise Damaged(f"its {what} are not what bgcli rate stores")
    items = value if many else [value]
    for item in items:
        if not isinstance(item, dict) or any(key not in item for key in keys):
            raise Damaged(f"its {what} are not what bgcli rate stores")
    return tuple(items)


class RatingsDB(ResultsDatabase):
    """The ratings of an archive in SQLite (bgcli.scale.results); a second run
    skips the files whose content, engine, level and rules are unchanged."""

    MADE_BY = MADE_BY
    KIND = "ratings"
    CONTENTS = "ratings"
    SCHEMA = SCHEMA
    VERSION = SCHEMA_VERSION
    SETTINGS = "key"

    def __init__(self, path: str, spec: EngineSpec | None = None, rules: Rules | None = None, create: bool = True):
        super().__init__(path, rating_key(spec or EngineSpec(), rules), create)

    def read_stored(self, key, path: str) -> RatingResult:
        (digest, matches, illegal, error, decisions), = self._read(
            "SELECT digest, matches, illegal, error, decisions FROM files WHERE path = ?", (key,))
        players = tuple(_stored_dicts(figures, "player's figures (table players)", _PLAYER_KEYS, many=False)[0] for figures, in
                        self._read("SELECT figures FROM players WHERE path = ? ORDER BY seq", (key,)))
        return RatingResult(path, players, _stored_dicts(decisions, "decisions (table files)", _DECISION_KEYS), matches, illegal,
                            error, digest)

    def write_stored(self, key, result: RatingResult) -> None:
        def store(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM players WHERE path = ?", (key,))
            db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (key, result.digest, self.key, result.matches, result.illegal, result.error,
                        json.dumps(list(result.decisions))))
            db.executemany("INSERT INTO players VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [(key, seq, to_db(p["name"]), json.dumps(p), p.get("matches", 1), p["decisions"],
                             p["error"], p["luck"], p["doubtful"], p["bad"], p["very_bad"])
                            for seq, p in enumerate(result.players)])
        self._write(store)

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


__all__ = ["EngineSpec", "RateJob", "RatingResult", "RatingsDB", "engines_for", "summary"]
