"""The dice audit over archives: each file's rolls counted in their positions
(bgcli.judging.dice), a per-file job (bgcli.scale.jobs) run by
bgcli.scale.runner as the audit and the rating are, with its own results
database (bgcli.scale.results) so that an interrupted run resumes and an
unchanged file is not replayed again. The statistics are worked out once all
the files' counts are in (bgcli.judging.dicereport): counts add up, p-values
do not.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass
from typing import ClassVar

from bgcli import __version__
from bgcli.core.rules import Rules
from bgcli.errors import EngineError, EngineUnavailableError
from bgcli.judging.dice import DiceTally, Unit
from bgcli.scale.jobs import failure_text
from bgcli.scale.results import Damaged, ResultsDatabase, files_schema


@dataclass(frozen=True)
class DiceResult:
    """One file's tally: each player's rolls in each match, or why the file could not be read."""

    path: str
    units: tuple[Unit, ...] = ()
    error: str | None = None
    digest: str | None = None

    @property
    def rolls(self) -> int:
        return sum(unit.rolls for unit in self.units)

    def to_dict(self) -> dict:
        data: dict = {"file": self.path, "rolls": self.rolls, "units": [unit.to_dict() for unit in self.units]}
        if self.error is not None:
            data["error"] = self.error
        return data


def tally_file(path: str, where: str | None = None, rules: Rules | None = None, luck=None) -> list[Unit]:
    """Every player's rolls in every match of the file at ``where`` (``path`` by
    default; ``-`` is standard input), named ``path``: the file read through the
    formats' registry and replayed to a :class:`bgcli.judging.dice.DiceTally`
    (``luck``: the luck of a roll, bgcli.judging.rating.RollLuck, or None)."""
    from bgcli.formats.files import visit_file

    tally = DiceTally(path, luck)
    try:
        for _ in visit_file(where or path, tally, rules, analysis=False):   # the dice audit reads no stored analysis
            pass
        return tally.finish()
    finally:
        tally.close()


@dataclass(frozen=True)
class DiceJob:
    """The dice tally of a file, a per-file job (bgcli.scale.jobs), with the ``rules`` it is replayed under."""

    rules: Rules | None = None
    engine: str | None = None    # dice --engine: the backend whose luck (at 0-ply, as rate's) is summed
    timeout: float = 60.0
    verb: ClassVar[str] = "read the dice of"
    doing: ClassVar[str] = "reading the dice of"

    def run(self, path: str, where: str, digest: str | None) -> DiceResult:
        luck = None
        if self.engine is not None:
            from bgcli.judging.rating import RollLuck
            from bgcli.scale.rating import EngineSpec, engines_for

            luck = RollLuck(engines_for(EngineSpec(self.engine, 0, self.timeout))[0])
        return DiceResult(path, tuple(tally_file(path, where, self.rules, luck)), None, digest)

    def failed(self, path: str, error: str, digest: str | None = None) -> DiceResult:
        return DiceResult(path, error=error, digest=digest)

    def failure(self, exc: Exception, path: str, where: str) -> str:
        if isinstance(exc, EngineUnavailableError):
            raise exc   # no file's luck could be measured: the run stops
        if isinstance(exc, EngineError):
            from bgcli.scale.rating import EngineSpec, drop_engines

            drop_engines(EngineSpec(self.engine or "", 0, self.timeout))   # asked again fresh for the next file
            return f"cannot measure the luck of {path}: {exc}"
        return failure_text(exc, path, where, self.verb)


# --- the results database ------------------------------------------------------------------

SCHEMA = files_schema("""\
    error TEXT,                    -- why it could not be read, or NULL
    units TEXT NOT NULL            -- each player's counts in each match, as JSON""")
SCHEMA_VERSION = "1"
MADE_BY = "bgcli dice"


def dice_key(rules: Rules | None, engine: str | None = None) -> str:
    # "marks": the games' marks spelt as their kinds (dice.game_marks; before, hashed); "fingerprint": a
    # match's fingerprint hashes its rolls' kinds, a byte a roll (before, the text "65;31;..."): a tally
    # stored with an older spelling is read again, so that a match stored and one read now are still found copies
    key: dict = {"bgcli": __version__, "rules": asdict(rules or Rules()), "marks": "kinds", "fingerprint": "kinds"}
    if engine is not None:
        key["luck"] = engine   # the luck's engine (at 0-ply); without one the key is as before
    return json.dumps(key, sort_keys=True)


class DiceDB(ResultsDatabase):
    """The dice tallies of an archive in SQLite (bgcli.scale.results); a second
    run skips the files whose content and rules are unchanged."""

    MADE_BY = MADE_BY
    KIND = "dice tallies"
    CONTENTS = "dice tallies"
    SCHEMA = SCHEMA
    VERSION = SCHEMA_VERSION
    SETTINGS = "key"

    def __init__(self, path: str, rules: Rules | None = None, create: bool = True, engine: str | None = None):
        super().__init__(path, dice_key(rules, engine), create)

    def read_stored(self, key, path: str) -> DiceResult:
        (digest, error, units), = self._read("SELECT digest, error, units FROM files WHERE path = ?", (key,))
        try:
            stored = json.loads(units)
            read = tuple(Unit.from_dict(item) for item in stored)
        except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
            raise Damaged(f"its counts (table files) are not what bgcli dice stores ({type(exc).__name__}: {exc})") from None
        # the file is named as given this time (its key is its real path)
        return DiceResult(path, tuple(_renamed(unit, path) for unit in read), error, digest)

    def write_stored(self, key, result: DiceResult) -> None:
        def store(db: sqlite3.Connection) -> None:
            db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)",
                       (key, result.digest, self.key, result.error, json.dumps([u.to_dict() for u in result.units])))
        self._write(store)


def _renamed(unit: Unit, path: str) -> Unit:
    unit.file = path
    return unit


__all__ = ["DiceDB", "DiceJob", "DiceResult", "tally_file"]
