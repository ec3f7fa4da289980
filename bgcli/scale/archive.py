"""Auditing archives of match files: finding them, auditing each one on its
own, many at a time on this machine's cores, and keeping the results in a
database that lets an interrupted audit resume.

- :func:`find_files` turns the paths a user gave (files, folders, globs,
  ``-`` for standard input) into match files, lazily and in a stable order;
  folders are walked for regular files only.
- :func:`audit_file` audits one file and never raises: a file that cannot be
  read or is not a match file gives a :class:`FileResult` with its error, so
  one bad file never takes the others down.
- :func:`audit_files` audits a stream of files in one process or in N worker
  processes, giving the results in the order of the files as soon as each one
  and all before it are done (memory stays flat however many files there are).
- :class:`ResultsDB` keeps every file's result (path, content digest, games,
  problems with all their fields) in SQLite, one transaction per file, so a
  kill at any moment leaves a database that opens and holds every file whose
  result was given out; a second run skips the files whose content and rules
  are unchanged, and :meth:`ResultsDB.totals` sums it all up without reading
  any match file.

bgcli.scale.cluster sends the same work to a Dask cluster. Nothing here uses click.
"""
from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import sqlite3
import stat
from dataclasses import asdict, dataclass
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Sequence

from bgcli import __version__
from bgcli.errors import BgcliError, os_reason
from bgcli.formats import registry
from bgcli.formats.files import visit_file
from bgcli.match.replay import GameResult, GameStart, MatchStart, MatchVisitor, Problem, Unfinished
from bgcli.core.rules import Rules
from bgcli.scale.pool import OrderedPool

SUFFIXES = registry.SUFFIXES   # what a folder is searched for: every format's suffixes
STDIN = "-"

Note = Callable[[str, bool], None]   # (message, whether it is an error)


# --- finding the files ----------------------------------------------------------------

def find_files(paths: Iterable[str], note: Note = lambda message, error: None) -> Iterator[str]:
    """The match files of ``paths``, in order: a file as given (a missing one
    is reported by its audit), ``-`` for standard input, a folder walked for
    regular files with a suffix of a format bgcli reads (files sorted by name, then
    sub-folders), a glob's matches in sorted order (a folder among them walked).
    A fifo, socket or device met in a folder or glob is skipped with a note,
    never opened; a glob that matches nothing, or a folder with no match file,
    is noted as an error; the rest goes on."""
    for path in paths:
        if path == STDIN:
            yield path
        elif os.path.isdir(path):
            yield from _walk_reported(path, note)
        elif _is_glob(path) and not os.path.lexists(path):
            matches = sorted(glob.glob(path, recursive=True))
            if not matches:
                note(f"no files match {path}", True)
            for found in matches:
                if os.path.isdir(found):
                    yield from _walk_reported(found, note)
                elif _regular_or_unreadable(found, note):
                    yield found
        else:
            yield path


def _walk_reported(folder: str, note: Note) -> Iterator[str]:
    found = False
    skipped: list[tuple[str, str]] = []
    for path in _walk(folder, note):
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


_TEXT_HEAD = 16 << 10   # a match transcript says it is one within its first 16 KB
_MATCH_SIGNS = re.compile(rb"(?im)^[ \t]*\d+[ \t]+points?[ \t]+match|match to \d+ points?|^[ \t]*game[ \t]+\d")
_CHOUETTE = re.compile(rb"(?m)\A(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*chouette:", re.I)


def not_a_match(path: str) -> str | None:
    """Why a .txt file found in a folder is not a match transcript (a
    chouette session, a list of positions), or None when it may be one: the
    audit reads it and says what is wrong. A file named on the command line,
    or with a suffix only match files have (.mat, .sgf...), is always audited."""
    if not path.lower().endswith(".txt"):
        return None   # a suffix that only match files have: audited, whatever it holds (and not opened twice)
    try:
        with open(path, "rb") as handle:
            head = handle.read(_TEXT_HEAD)
    except OSError:
        return None   # its audit says why it cannot be read
    kind = registry.of_head(head[:registry.HEAD_SIZE])
    if kind is None or kind.name != "mat":
        return None   # SGF, JSON, or binary: the audit words it
    if _CHOUETTE.match(head):
        return "chouette: bgcli chouette reads it"
    if not _MATCH_SIGNS.search(head):
        return "no 'N point match' or 'Game N' line in the first 16 KB"
    return None


def _is_glob(path: str) -> bool:
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


@dataclass(frozen=True)
class Unchanged:
    """A file whose content and rules are those of its stored result: not audited again."""

    path: str
    digest: str


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


def file_digest(path: str) -> str:
    """SHA-256 of a file's content, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


class Job(NamedTuple):
    """One file to audit: its path as given (and reported), whether a results
    database keeps its result (and so wants its digest), the digest of its
    stored result, and the path to open when it is not the one given (a
    worker of a cluster opens the absolute path)."""

    path: str
    keep: bool = False
    known: str | None = None
    source: str | None = None


def audit_file(path: str, rules: Rules | None = None, known: str | None = None, keep: bool = False,
               source: str | None = None) -> FileResult | Unchanged:
    """Audit one file (``-``: standard input); never raises for anything the
    file holds. With ``keep`` (a results database) a regular file's digest is
    taken first, and when it equals ``known``, the digest of the stored
    result, :class:`Unchanged` is returned and nothing is audited. A pipe is
    read once, never hashed. ``source`` is opened instead of ``path`` (which
    the result and its messages still name)."""
    digest = None
    where = source or path
    try:
        if keep and where != STDIN and stat.S_ISREG(os.stat(where).st_mode):
            digest = file_digest(where)
            if known is not None and digest == known:
                return Unchanged(path, digest)
        found = _Problems()
        for _ in visit_file(where, found, rules):
            pass
        return FileResult(path, tuple(found.problems), found.games, None, digest)
    except Exception as exc:  # a bug met by one file must not stop the others
        return FileResult(path, error=failure_text(exc, path, where, "audit"),
                          digest=None if isinstance(exc, OSError) else digest)


def failure_text(exc: Exception, path: str, where: str, verb: str) -> str:
    """The one line a file gets that could not be audited or rated, named as the user gave it."""
    if isinstance(exc, OSError):
        return f"cannot read {path}: {os_reason(exc)}"
    if isinstance(exc, BgcliError):
        return str(exc).replace(where, path) if where != path else str(exc)
    if isinstance(exc, RecursionError):
        return f"cannot {verb} {path}: too deeply nested"
    if isinstance(exc, MemoryError):
        return f"cannot {verb} {path}: out of memory"
    return f"cannot {verb} {path}: internal error {type(exc).__name__}: {exc}"


def audit_batch(jobs: Sequence[Job], rules: Rules | None) -> list[FileResult | Unchanged]:
    """Audit jobs one after another: one task of a worker."""
    return [audit_file(path, rules, known, keep, source) for path, keep, known, source in jobs]


# --- many files, on this machine's cores ----------------------------------------------------

MAX_WORKERS = 64
CHUNK = 1            # files per task sent to a worker process: one, so that every result streams out
WINDOW = 8           # tasks in flight per worker: enough to keep it busy, few enough to keep memory flat


def audit_files(jobs: Iterable[Job], rules: Any = None, workers: int = 1,
                batch: Callable[[Sequence[Job], Any], list] | None = None) -> Iterator[Any]:
    """Audit files (:class:`Job`), in order. With ``workers`` > 1 the
    files go to that many worker processes (never more than there are files),
    a few at a time, and each result is given as soon as it and all before it
    are done. Standard input is always read here, in its place. A worker that
    dies (killed, out of memory) costs only the file it was auditing, which is
    reported with that error. ``batch`` does another file's work than the
    audit (bgcli.scale.rating rates), ``rules`` then being what it is given."""
    batch = batch or audit_batch
    jobs = iter(jobs)
    if workers <= 1:
        for job in jobs:
            yield from batch([job], rules)
        return
    head = list(islice(jobs, workers))
    files = sum(1 for job in head if job.path != STDIN)
    if files <= 1:
        for job in _chain(head, jobs):
            yield from batch([job], rules)
        return
    rest = _chain(head, jobs)
    tasks = iter(lambda: list(islice(rest, CHUNK)), [])
    for results in _pool(min(workers, files), rules, batch).run(tasks):
        yield from results


def _chain(head: list, rest: Iterator) -> Iterator:
    yield from head
    yield from rest


def _lost(task: Sequence[Job]) -> list[FileResult]:
    """The result of a file whose worker process died on it."""
    return [FileResult(job.path, error=f"cannot audit {job.path}: the process auditing it died") for job in task]


def _reads_stdin(task: Sequence[Job]) -> bool:
    return any(job.path == STDIN for job in task)   # standard input is read here, in order


def _pool(workers: int, rules: Any, batch: Callable[[Sequence[Job], Any], list]) -> OrderedPool:
    """The pool of an audit: tasks of CHUNK files, a file that kills its
    worker found by auditing the lost ones one by one."""
    return OrderedPool(batch, workers, args=(rules,), window=WINDOW, here=_reads_stdin,
                       split=lambda task: [[job] for job in task], lost=_lost)


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


def file_key(path: str):
    """A file's key in the database: its real absolute path (``a``, ``./a``
    and ``$PWD/a`` are one file), as :func:`to_db` keeps text."""
    return to_db(os.path.realpath(path))


def to_db(text: str | None):
    """Text as SQLite keeps it: a str when it is valid Unicode, else (a file
    name that is not UTF-8, held with surrogate escapes) its bytes, a BLOB,
    so that nothing is lost and nothing fails."""
    if text is None:
        return None
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape" if _escaped_bytes(text) else "backslashreplace")


def _escaped_bytes(text: str) -> bool:
    try:
        text.encode("utf-8", "surrogateescape")
        return True
    except UnicodeEncodeError:
        return False


def from_db(value):
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else value


class DatabaseError(BgcliError):
    """The results database cannot be opened or is not bgcli's."""


def rules_key(rules: Rules | None) -> str:
    """What a stored result depends on besides the content: the rules and bgcli's version."""
    return json.dumps({"bgcli": __version__, "rules": asdict(rules or Rules())}, sort_keys=True)


def open_database(path: str, made_by: str, kind: str, contents: str, schema: str, version: str,
                  create: bool = True, upgrades: dict[str, str] | None = None) -> sqlite3.Connection:
    """Open (or, with ``create``, make) the SQLite database of ``contents``
    that ``made_by`` keeps at ``path``, upgraded to schema ``version``
    (``upgrades`` maps an older version to the SQL that brings it up).

    A file that is not a database, or a database of something else, is
    refused untouched (DatabaseError); so is an empty file when reading only
    (``create`` false): an empty file stays an empty file."""
    if not create and not os.path.isfile(path):
        raise DatabaseError(f"no {kind} database {path}")
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
        try:
            tables = {name for name, in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            maker = db.execute("SELECT value FROM meta WHERE key = 'made by'").fetchone() if "meta" in tables else None
            if tables and maker != (made_by,):
                raise DatabaseError(f"{path} is an SQLite database of something else, not bgcli's {contents}")
            if not tables and not create:
                raise DatabaseError(f"{path} holds no {contents} (not a {kind} database)")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")   # a kill loses nothing committed; only a power cut might
            db.execute("PRAGMA foreign_keys=ON")
            stored = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() if tables else None
            if stored is not None and stored[0] in (upgrades or {}):
                db.executescript("BEGIN;" + (upgrades or {})[stored[0]] + "COMMIT;")
                stored = (version,)
            db.executescript(schema)
            if stored is None:
                db.execute("INSERT INTO meta VALUES ('schema', ?), ('made by', ?)", (version, made_by))
            elif stored[0] != version:
                raise DatabaseError(f"{path} holds {contents} of another version (schema {stored[0]})")
        except BaseException:
            db.close()
            raise
    except sqlite3.Error as exc:
        raise DatabaseError(f"cannot use {path} as a {kind} database: {exc}") from None
    return db


class ResultsDB:
    """The audit results of an archive in SQLite (see the module docstring)."""

    def __init__(self, path: str, rules: Rules | None = None, create: bool = True):
        """Open (or, with ``create``, make) the database at ``path``; a file
        that is not one, or an SQLite database of something else, is refused
        untouched (DatabaseError)."""
        self.path = path
        self.key = rules_key(rules)
        self.db = open_database(path, made_by="bgcli audit", kind="results", contents="audit results",
                                schema=SCHEMA, version=SCHEMA_VERSION, create=create, upgrades={"1": _FROM_SCHEMA_1})
        self.run: int | None = None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "ResultsDB":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    _normalised = False   # the keys of older versions brought to real paths (once per opening)

    def _normalise_old_keys(self) -> None:
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
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("PRAGMA defer_foreign_keys = ON")   # a row and its problems change key together
                for key, real in moves:
                    if db.execute("SELECT 1 FROM files WHERE path = ?", (real,)).fetchone():
                        db.execute("DELETE FROM problems WHERE path = ?", (key,))   # the file's row is there already
                        db.execute("DELETE FROM files WHERE path = ?", (key,))
                    else:
                        db.execute("UPDATE files SET path = ? WHERE path = ?", (real, key))
                        db.execute("UPDATE problems SET path = ? WHERE path = ?", (real, key))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError:
            pass   # read-only: the totals count the old rows as they are

    def job(self, path: str) -> Job:
        """The job of auditing ``path`` and keeping its result here: with the
        digest of its stored result if it was audited under the same rules."""
        self._normalise_old_keys()
        if path == STDIN:
            return Job(path)
        row = self._read("SELECT digest FROM files WHERE path = ? AND rules = ?", (file_key(path), self.key))[:1]
        return Job(path, True, row[0][0] if row else None)

    def _read(self, sql: str, values: tuple = ()) -> list:
        try:
            return self.db.execute(sql, values).fetchall()
        except sqlite3.Error as exc:
            raise DatabaseError(f"cannot read the results database {self.path}: {exc}") from None

    def stored(self, path: str) -> FileResult:
        """The stored result of ``path``, as the audit gave it."""
        key = file_key(path)
        (games, error, digest), = self._read("SELECT games, error, digest FROM files WHERE path = ?", (key,))
        rows = self._read("SELECT line, match, game, move, player, kind, severity, message FROM problems "
                          "WHERE path = ? ORDER BY seq", (key,))
        problems = tuple({"line": line, "match": match, "game": game, "move": move, "player": from_db(player),
                          "kind": kind, "severity": severity, "message": from_db(message)}
                         for line, match, game, move, player, kind, severity, message in rows)
        return FileResult(path, problems, games, from_db(error), digest)

    def store(self, result: FileResult) -> None:
        """Keep one file's result, in one transaction (a file that could not
        be read at all, or standard input, is not kept: it is audited again)."""
        if result.digest is None or result.path == STDIN:
            return
        try:
            if self.run is None:
                self.run = self.db.execute("INSERT INTO runs (version, rules) VALUES (?, ?)",
                                           (__version__, self.key)).lastrowid
            self._store(result)
        except sqlite3.Error as exc:
            raise DatabaseError(f"cannot write to the results database {self.path}: {exc}") from None

    def _store(self, result: FileResult) -> None:
        db = self.db
        key = file_key(result.path)
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("DELETE FROM problems WHERE path = ?", (key,))
            db.execute("INSERT OR REPLACE INTO files (path, digest, rules, games, error, problems, run, errors) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (key, result.digest, self.key, result.games, to_db(result.error), len(result.problems),
                        self.run, result.errors))
            db.executemany("INSERT INTO problems (path, seq, line, match, game, move, player, kind, message, severity) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [(key, seq, p["line"], p["match"], p["game"], p["move"], to_db(p["player"]), p["kind"],
                             to_db(p["message"]), p.get("severity", "error")) for seq, p in enumerate(result.problems)])
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def resolve(self, result: FileResult | Unchanged) -> FileResult:
        """A new result stored, or an unchanged file's stored result."""
        if isinstance(result, Unchanged):
            return self.stored(result.path)
        self.store(result)
        return result

    def totals(self) -> dict:
        """Totals over every stored file: files (clean, with problems, of
        which with errors, unreadable), games, problems (errors and warnings)
        and problems by kind."""
        self._normalise_old_keys()
        (files, games, unreadable, problems, with_problems, errors, with_errors), = self._read(
            "SELECT count(*), coalesce(sum(games), 0), count(error), coalesce(sum(problems), 0), "
            "coalesce(sum(problems > 0), 0), coalesce(sum(errors), 0), coalesce(sum(errors > 0), 0) FROM files")
        kinds = dict(self._read("SELECT kind, count(*) FROM problems GROUP BY kind ORDER BY count(*) DESC, kind"))
        return {"files": files, "clean": files - unreadable - with_problems, "with_problems": with_problems,
                "with_errors": with_errors, "unreadable": unreadable, "games": games, "problems": problems,
                "errors": errors, "warnings": problems - errors, "by_kind": kinds}
