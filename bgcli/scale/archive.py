"""Auditing archives of match files: finding them, and the audit as a per-file job.

- :func:`find_files` turns the paths a user gave (files, folders, globs,
  ``-`` for standard input) into match files, lazily and in a stable order;
  folders are walked for regular files only. Every command over an archive
  finds its files here (bgcli.scale.runner).
- :class:`AuditJob` is the audit of one file (bgcli.scale.jobs: a per-file
  job); :func:`audit_file` runs it on one file and never raises: a file that
  cannot be read or is not a match file gives a :class:`FileResult` with its
  error, so one bad file never takes the others down.
- :class:`AuditDB` keeps every file's result (path, content digest, games,
  problems with all their fields) in SQLite (bgcli.scale.results), so that a
  second run skips the files whose content and rules are unchanged, and
  :meth:`AuditDB.totals` sums it all up without reading any match file.

bgcli.scale.runner runs the audit over many files, on a pool or a Dask
cluster. Nothing here uses click.
"""
from __future__ import annotations

import io
import os
import stat
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Callable, ClassVar, Iterable, Iterator

from bgcli import __version__
from bgcli.errors import MatchFileError, os_reason
from bgcli.formats import files, reading, registry
from bgcli.formats.files import visit_file
from bgcli.output import own_output
from bgcli.match.replay import GameResult, GameStart, MatchStart, MatchVisitor, Problem, Unfinished, replay_parts
from bgcli.core.rules import Rules
from bgcli.scale.jobs import STDIN, FileTask, Unchanged, failure_text, run_file
from bgcli.scale.results import DatabaseError, ResultsDatabase, from_db, to_db

if TYPE_CHECKING:   # glob, json and SQLite are imported where used: an audit of a file needs none (start-up)
    import sqlite3

SUFFIXES = registry.SUFFIXES   # what a folder is searched for: every format's suffixes
MAX_WORKERS = 64

Note = Callable[[str, bool], None]   # (message, whether it is an error)


# --- finding the files ----------------------------------------------------------------

def find_files(paths: Iterable[str], note: Note = lambda message, error: None) -> Iterator[str]:
    """The match files of ``paths``, in order: a file as given (a missing one
    is reported by its audit), ``-`` for standard input, a folder walked for
    regular files with a suffix of a format bgcli reads (files sorted by name, then
    sub-folders), a glob's matches in sorted order (a folder among them walked).
    A fifo, socket or device met in a folder or glob is skipped with a note,
    never opened; a glob that matches nothing, or a folder with no match file,
    is noted as an error; the rest goes on. Standard input is read once: ``-``
    named again is noted as an error (it read as an empty file)."""
    stdin_named = False
    for path in paths:
        if path == STDIN:
            if stdin_named:
                note(f"{STDIN} (standard input) is named more than once: it is read once", True)
                continue
            stdin_named = True
            yield path
        elif os.path.isdir(path):
            yield from _walk_reported(path, note)
        elif is_glob(path) and not os.path.lexists(path):
            import glob

            matches = sorted(glob.glob(path, recursive=True))
            if not matches:
                note(f"no files match {path}", True)
            for found in matches:
                if os.path.isdir(found):
                    yield from _walk_reported(found, note)
                elif _regular_or_unreadable(found, note) and not _own_output(found, note):
                    yield found
        else:
            yield path


def _walk_reported(folder: str, note: Note) -> Iterator[str]:
    found = False
    skipped: list[tuple[str, str]] = []
    for path in _walk(folder, note):
        if _own_output(path, note):
            continue
        why = not_a_match(path)
        if why is not None:
            skipped.append((path, why))
            continue
        found = True
        yield path
    if skipped:   # one note for the folder, not one a file: the names grouped by the reason
        by_reason: dict[str, list[str]] = {}
        for path, why in skipped:
            by_reason.setdefault(why, []).append(os.path.relpath(path, folder))
        listed = "; ".join(", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "") + f" ({why})"
                           for why, names in by_reason.items())
        note(f"skipped {len(skipped)} file{'s' if len(skipped) != 1 else ''} in {folder} that "
             f"{'are not matches' if len(skipped) != 1 else 'is not a match'}: {listed}", False)
    if not found:
        note(f"no match files in folder {folder}", True)


_TEXT_HEAD = 16 << 10   # a match transcript starts within its first 16 KB


def not_a_match(path: str) -> str | None:
    """Why a .txt or .json file found in a folder (a suffix other files share:
    registry.SHARED_SUFFIXES) is plainly not a match (a README, a chouette
    session, a list of positions, a site's metadata), or None when it is one, or may
    be: the audit reads it and says what is wrong. The content decides, as
    the format that would read it says (registry: ``why_not_a_record``), never
    the suffix alone: a gnubg ``export game gam`` saved as .txt, with no
    header, is a record. A small .sgf file may be gnubg's saved position
    (registry.POSITION_SUFFIXES), skipped so. A file named on the command
    line, or with a suffix only match files have (.mat, .xg...), is always
    audited."""
    position_suffix = path.lower().endswith(registry.POSITION_SUFFIXES)
    if not path.lower().endswith(registry.SHARED_SUFFIXES) and not position_suffix:
        return None   # a suffix that only match files have: audited, whatever it holds (and not opened twice)
    try:
        with open(path, "rb") as handle:
            head = handle.read(_TEXT_HEAD)
    except OSError:
        return None   # its audit says why it cannot be read
    if position_suffix and len(head) == _TEXT_HEAD:
        return None   # a position is a few kilobytes: a bigger file is a match
    # the format that would read it (registry.choose), not the one its head looks like: a .txt that starts
    # with "[" looks like JSON but is read as a .mat, and the .mat reader is the one to say it is none
    kind = registry.choose(path, head[:registry.HEAD_SIZE])
    if kind is None or kind.sure:
        return None   # binary, or a format its head names (gnubg's text export, BGBlitz's): the audit words it
    other, _ = files.not_a_match(head)
    if other:
        return other   # empty, or a chouette
    try:
        lines = list(reading.text_lines(io.BytesIO(head), path))
    except MatchFileError:
        return None   # text no encoding reads: its audit says where
    if len(head) == _TEXT_HEAD and kind.head is None:
        lines = lines[:-1]   # cut at 16 KB: a transcript's last line may be cut short (JSON's reader reads a cut head)
    why = kind.why_not_a_record(lines)
    if why is not None:
        from bgcli.formats import positionfile   # here: only a file that is no match asks it (start-up)

        return positionfile.not_a_match("\n".join(lines)) or why
    return why


def _own_output(path: str, note: Note) -> bool:
    """Whether ``path``, found in a folder or by a glob, is where this command
    writes (``rate --json DIR > DIR/out.json``, ``-o DIR/out.json``): never
    read as an input (it would be half written, or last run's output), with a note."""
    how = own_output(path)
    if how is not None:
        note(f"skipped {path}: it is this command's own output ({how})", False)
    return how is not None


def is_glob(path: str) -> bool:
    """Whether a path given is a glob the walk expands (when no file has that very name)."""
    return any(c in path for c in "*?[")


def _walk(folder: str, note: Note) -> Iterator[str]:
    """Regular match files under ``folder``: its own files sorted by name, then
    its sub-folders in order (links to folders are not followed)."""
    try:
        with os.scandir(folder) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
    except OSError as exc:
        note(f"cannot read folder {folder}: {os_reason(exc)}", True)
        return
    folders = []
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                folders.append(entry.path)
                continue
        except OSError:
            pass
        if _regular_or_unreadable(entry.path, note, entry) and entry.name.lower().endswith(SUFFIXES):
            yield entry.path
    for sub in folders:
        yield from _walk(sub, note)


def _regular_or_unreadable(path: str, note: Note, entry: os.DirEntry | None = None) -> bool:
    """Whether to audit a file found in a folder or by a glob: yes for a
    regular file, and for one whose status cannot be read (its audit says
    why); no, with a note, for a fifo, socket or device."""
    try:
        mode = entry.stat().st_mode if entry is not None else os.stat(path).st_mode
    except OSError:
        return True
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return stat.S_ISREG(mode)   # a link to a folder is not followed
    what = "fifo" if stat.S_ISFIFO(mode) else "socket" if stat.S_ISSOCK(mode) else "device"
    note(f"skipped {path}: a {what}, not a regular file", False)
    return False


# --- auditing one file ----------------------------------------------------------------------

@dataclass(frozen=True)
class FileResult:
    """What the audit of one file found: its problems (``Problem.to_dict()``,
    in file order per match), how many games it holds, or why it could not be
    audited; ``digest`` is the SHA-256 of its content (None for standard input
    or a file that could not be read)."""

    path: str
    problems: tuple[dict, ...] = ()
    games: int = 0
    error: str | None = None
    digest: str | None = None

    @property
    def errors(self) -> int:
        """How many of its problems are errors (the rest are warnings)."""
        return sum(1 for p in self.problems if p.get("severity", "error") == "error")

    @property
    def warnings(self) -> int:
        return len(self.problems) - self.errors

    def to_dict(self) -> dict:
        """The audit's JSON line: ``{"file", "problems"}`` and ``"error"`` when there is one."""
        data: dict = {"file": self.path, "problems": list(self.problems)}
        if self.error is not None:
            data["error"] = self.error
        return data


class _Problems(MatchVisitor):
    """Collects problems (sorted by line within each match, as MatchReplay
    keeps them) and counts games; builds no events."""

    wants_events = False

    def __init__(self) -> None:
        self.problems: list[dict] = []
        self.games = 0
        self._match: list[Problem] = []

    def begin_match(self, match: MatchStart) -> None:
        self._match = []

    def problem(self, problem: Problem) -> None:
        self._match.append(problem)

    def end_game(self, game: GameStart, result: GameResult | Unfinished) -> None:
        self.games += 1

    def end_match(self) -> None:
        self._match.sort(key=Problem.order)
        self.problems.extend(p.to_dict() for p in self._match)


@dataclass(frozen=True)
class AuditJob:
    """The audit of a file, a per-file job (bgcli.scale.jobs): every problem found, with the ``rules`` it is audited under."""

    rules: Rules | None = None
    suggest: bool = False   # each problem with its repairs (bgcli.judging.repair), in a text format whose rows are lines
    verb: ClassVar[str] = "audit"
    doing: ClassVar[str] = "auditing"

    def run(self, path: str, where: str, digest: str | None) -> FileResult:
        if self.suggest:
            from bgcli.judging.repair import suggested_problems

            if where == STDIN:
                import sys

                data = sys.stdin.buffer.read()
            else:
                with open(where, "rb") as handle:
                    data = handle.read()
            suggested = suggested_problems(data, where, self.rules)
            if suggested is not None:
                return FileResult(path, tuple(suggested[0]), suggested[1], None, digest)
            found = _Problems()   # a format whose rows are not lines: the plain audit of the bytes read
            kind = registry.choose(where, data[:registry.HEAD_SIZE])
            assert kind is not None   # suggested_problems refused anything else
            for _ in replay_parts(kind.read(io.BufferedReader(io.BytesIO(data)), where, analysis=False),
                                  lambda number: found, self.rules):
                pass
            return FileResult(path, tuple(found.problems), found.games, None, digest)
        found = _Problems()
        for _ in visit_file(where, found, self.rules, analysis=False):   # the audit reads no stored analysis
            pass
        return FileResult(path, tuple(found.problems), found.games, None, digest)

    def failed(self, path: str, error: str, digest: str | None = None) -> FileResult:
        return FileResult(path, error=error, digest=digest)

    def failure(self, exc: Exception, path: str, where: str) -> str:
        return failure_text(exc, path, where, self.verb)


def audit_file(path: str, rules: Rules | None = None, known: str | None = None, keep: bool = False,
               source: str | None = None) -> FileResult | Unchanged:
    """Audit one file (``-``: standard input); never raises for anything the
    file holds (:func:`bgcli.scale.jobs.run_file`: ``keep``, ``known`` and
    ``source`` are those of a :class:`bgcli.scale.jobs.FileTask`)."""
    return run_file(AuditJob(rules), FileTask(path, keep, known, source))


# --- the results database ------------------------------------------------------------------

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, started TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
                                 version TEXT NOT NULL, rules TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY,
    digest TEXT NOT NULL,          -- SHA-256 of the content audited
    rules TEXT NOT NULL,           -- the rules and bgcli version it was audited with
    games INTEGER NOT NULL,
    error TEXT,                    -- why it could not be read as a match file, or NULL
    problems INTEGER NOT NULL,     -- errors and warnings
    run INTEGER NOT NULL REFERENCES runs(id),
    errors INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS problems (
    path TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
    seq INTEGER NOT NULL,          -- order in the file's result
    line INTEGER NOT NULL, match INTEGER NOT NULL, game INTEGER NOT NULL, move INTEGER NOT NULL,
    player TEXT NOT NULL, kind TEXT NOT NULL, message TEXT NOT NULL,
    severity TEXT NOT NULL DEFAULT 'error',   -- 'error' or 'warning'
    PRIMARY KEY (path, seq)
);
CREATE INDEX IF NOT EXISTS problems_kind ON problems(kind);
"""
SCHEMA_VERSION = "2"
# Schema 1 had no severities: its tables gain the columns, and its files are
# audited again (their stored digests are cleared) so that no stored result
# lacks them.
_FROM_SCHEMA_1 = """
ALTER TABLE files ADD COLUMN errors INTEGER NOT NULL DEFAULT 0;
ALTER TABLE problems ADD COLUMN severity TEXT NOT NULL DEFAULT 'error';
UPDATE files SET digest = '';
UPDATE meta SET value = '2' WHERE key = 'schema';
"""


def rules_key(rules: Rules | None) -> str:
    """What a stored result depends on besides the content: the rules and bgcli's version."""
    import json

    return json.dumps({"bgcli": __version__, "rules": asdict(rules or Rules())}, sort_keys=True)


class AuditDB(ResultsDatabase):
    """The audit results of an archive in SQLite (see the module docstring)."""

    MADE_BY = "bgcli audit"
    KIND = "results"
    CONTENTS = "audit results"
    SCHEMA = SCHEMA
    VERSION = SCHEMA_VERSION
    UPGRADES = {"1": _FROM_SCHEMA_1}
    SETTINGS = "rules"

    def __init__(self, path: str, rules: Rules | None = None, create: bool = True):
        super().__init__(path, rules_key(rules), create)
        self.run: int | None = None

    _normalised = False   # the keys of older versions brought to real paths (once per opening)

    def before_reading(self) -> None:
        """Bring the rows that older versions kept under a path as given
        (``a``, ``./a``: relative to the folder the audit ran in) to the real
        absolute path that keys a file now, so that one file is one row.
        A relative path is read from the folder bgcli runs in, as the old
        version read it; one naming no file from here is left as it is (it
        cannot be told from another file). Of several rows for one file the
        one kept is one stored under the real path, else the latest.
        A database that cannot be written (another user's) is left as it is."""
        if self._normalised:
            return
        self._normalised = True
        old = self._read("SELECT path FROM files WHERE CAST(path AS TEXT) NOT LIKE '/%' ORDER BY run DESC") \
            if os.sep == "/" else []
        moves = []
        for (key,) in old:
            name = from_db(key)
            real = os.path.realpath(name)
            if os.path.isabs(name) or not os.path.lexists(name) and not self._read(
                    "SELECT 1 FROM files WHERE path = ?", (to_db(real),)):
                continue
            moves.append((key, to_db(real)))
        if not moves:
            return

        def move(db) -> None:
            db.execute("PRAGMA defer_foreign_keys = ON")   # a row and its problems change key together
            for key, real in moves:
                if db.execute("SELECT 1 FROM files WHERE path = ?", (real,)).fetchone():
                    db.execute("DELETE FROM problems WHERE path = ?", (key,))   # the file's row is there already
                    db.execute("DELETE FROM files WHERE path = ?", (key,))
                else:
                    db.execute("UPDATE files SET path = ? WHERE path = ?", (real, key))
                    db.execute("UPDATE problems SET path = ? WHERE path = ?", (real, key))
        try:
            self._write(move)
        except DatabaseError:
            pass   # read-only: the totals count the old rows as they are

    def read_stored(self, key, path: str) -> FileResult:
        (games, error, digest), = self._read("SELECT games, error, digest FROM files WHERE path = ?", (key,))
        rows = self._read("SELECT line, match, game, move, player, kind, severity, message FROM problems "
                          "WHERE path = ? ORDER BY seq", (key,))
        problems = tuple({"line": line, "match": match, "game": game, "move": move, "player": from_db(player),
                          "kind": kind, "severity": severity, "message": from_db(message)}
                         for line, match, game, move, player, kind, severity, message in rows)
        return FileResult(path, problems, games, from_db(error), digest)

    def write_stored(self, key, result: FileResult) -> None:
        if self.run is None:   # this run's row, in a transaction of its own: every file stored after it names it
            def begin(db: sqlite3.Connection) -> None:
                self.run = db.execute("INSERT INTO runs (version, rules) VALUES (?, ?)", (__version__, self.key)).lastrowid

            self._write(begin)
        self._write(lambda db: self._store(db, key, result))

    def _store(self, db: sqlite3.Connection, key, result: FileResult) -> None:
        db.execute("DELETE FROM problems WHERE path = ?", (key,))
        db.execute("INSERT OR REPLACE INTO files (path, digest, rules, games, error, problems, run, errors) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (key, result.digest, self.key, result.games, to_db(result.error), len(result.problems),
                    self.run, result.errors))
        db.executemany("INSERT INTO problems (path, seq, line, match, game, move, player, kind, message, severity) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [(key, seq, p["line"], p["match"], p["game"], p["move"], to_db(p["player"]), p["kind"],
                         to_db(p["message"]), p.get("severity", "error")) for seq, p in enumerate(result.problems)])

    def totals(self) -> dict:
        """Totals over every stored file: files (clean, with problems, of
        which with errors, unreadable), games, problems (errors and warnings)
        and problems by kind."""
        self.before_reading()
        (files, games, unreadable, problems, with_problems, errors, with_errors), = self._read(
            "SELECT count(*), coalesce(sum(games), 0), count(error), coalesce(sum(problems), 0), "
            "coalesce(sum(problems > 0), 0), coalesce(sum(errors), 0), coalesce(sum(errors > 0), 0) FROM files")
        kinds = dict(self._read("SELECT kind, count(*) FROM problems GROUP BY kind ORDER BY count(*) DESC, kind"))
        return {"files": files, "clean": files - unreadable - with_problems, "with_problems": with_problems,
                "with_errors": with_errors, "unreadable": unreadable, "games": games, "problems": problems,
                "errors": errors, "warnings": problems - errors, "by_kind": kinds}
