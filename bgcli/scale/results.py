"""The results database of a per-file job: one base for every job's.

:class:`ResultsDatabase` keeps each file's result in SQLite, one
transaction per file, so that a kill at any moment leaves a database that
opens and holds every file whose result was given out; a second run skips
the files whose content and settings are unchanged (a killed run resumes).
It owns what every job's database shares: opening (a file that is not a
database, or bgcli's database of something else, is refused untouched; the
schema's version checked, older ones brought up), the key of a file (its
real absolute path: ``a``, ``./a`` and ``$PWD/a`` are one file), the key of
the settings a result depends on, reading and writing with one-line errors,
and closing. A subclass says its tables and how one result is written to
and read from its rows; a stored row that cannot be read back (damaged by
hand or by a disk) is a one-line :class:`DatabaseError` naming the database
and the row, never a traceback.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from bgcli.errors import BgcliError, os_reason
from bgcli.scale.jobs import STDIN, FileTask, Unchanged

if TYPE_CHECKING:   # imported where a database is opened: a run without --db never loads SQLite (start-up)
    import sqlite3


class DatabaseError(BgcliError):
    """The results database cannot be opened, read or written, or is not bgcli's."""


LOCK_WAIT = 30   # seconds a run waits for another process's lock on the database before it gives up
_START_AGAIN = "it is left as it is: move it away, or name another --db, to start again"


def sqlite_reason(path: str, error: Exception) -> str:
    """What is wrong with the database ``path``, in words a user acts on, for SQLite's ``error``: SQLite
    says 'unable to open database file' of a file that cannot be read and of a folder that cannot be
    written alike, 'attempt to write a readonly database' of a folder where its journal cannot be made,
    and 'database disk image is malformed' of a file cut short. The one place these are worded."""
    said = str(error)
    if "malformed" in said:
        return f"it is damaged, cut short or overwritten in part (SQLite: {said}); {_START_AGAIN}"
    if said == "file is not a database":
        return f"it is not an SQLite database; {_START_AGAIN}"
    if "locked" in said or "busy" in said:
        return f"another process holds it (another bgcli run with this --db?), still after {LOCK_WAIT} s"
    if "readonly" in said or "unable to open" in said or "read-only" in said:
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.exists(path) and not os.access(path, os.R_OK):
            return "permission denied"
        if not os.access(folder, os.W_OK):
            return (f"its folder {folder!r} cannot be written (SQLite keeps a journal beside the database): "
                    "name a --db in a folder you can write")
        if os.path.exists(path) and not os.access(path, os.W_OK):
            return "it is read-only"
    return said


def file_key(path: str):
    """A file's key in a database: its real absolute path, as :func:`to_db` keeps text."""
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


def files_schema(columns: str, tables: str = "") -> str:
    """The schema of a results database whose ``files`` table is keyed by the
    settings a file was read with (bgcli dice, bgcli rate): the meta table,
    the files table (the path, the digest of the content read, the key of
    the settings, then ``columns``: SQL column lines) and ``tables``."""
    return ("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
            "CREATE TABLE IF NOT EXISTS files (\n"
            "    path TEXT PRIMARY KEY,\n"
            "    digest TEXT NOT NULL,          -- SHA-256 of the content read\n"
            "    key TEXT NOT NULL,             -- the settings (and bgcli version) it was read with\n"
            f"{columns}\n);\n{tables}")


def open_database(path: str, made_by: str, kind: str, contents: str, schema: str, version: str,
                  create: bool = True, upgrades: dict[str, str] | None = None) -> sqlite3.Connection:
    """Open (or, with ``create``, make) the SQLite database of ``contents``
    that ``made_by`` keeps at ``path``, upgraded to schema ``version``
    (``upgrades`` maps an older version to the SQL that brings it up).

    A file that is not a database, or a database of something else, is
    refused untouched (DatabaseError); so is an empty file when reading only
    (``create`` false): an empty file stays an empty file."""
    if os.path.isdir(path):   # sqlite3 says only "unable to open database file"
        raise DatabaseError(f"cannot use {path} as a {kind} database: {os_reason(IsADirectoryError())}")
    if not create and not os.path.isfile(path):
        raise DatabaseError(f"no {kind} database {path}")
    folder = os.path.dirname(path)
    if folder and not os.path.isdir(folder):
        raise DatabaseError(f"cannot use {path} as a {kind} database: folder {folder!r} does not exist")
    import sqlite3

    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=LOCK_WAIT)
        try:
            tables = {name for name, in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            maker = db.execute("SELECT value FROM meta WHERE key = 'made by'").fetchone() if "meta" in tables else None
            if tables and maker != (made_by,):
                if maker is not None and str(maker[0]).startswith("bgcli "):   # another command's --db
                    raise DatabaseError(f"{path} is the database of {maker[0]}, not bgcli's {contents}; "
                                        f"{_START_AGAIN}")
                raise DatabaseError(f"{path} is an SQLite database of something else, not bgcli's {contents}; "
                                    f"{_START_AGAIN}")
            if not tables and not create:
                raise DatabaseError(f"{path} holds no {contents} (not a {kind} database)")
            # the version is checked before anything is written: a database of another version is left as it is
            stored = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() if tables else None
            if stored is not None and stored[0] != version and stored[0] not in (upgrades or {}):
                raise DatabaseError(f"{path} holds {contents} of another bgcli version (schema {stored[0]}; this "
                                    f"bgcli keeps schema {version}); {_START_AGAIN}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")   # a kill loses nothing committed; only a power cut might
            db.execute("PRAGMA foreign_keys=ON")
            if stored is not None and stored[0] in (upgrades or {}):
                db.executescript("BEGIN;" + (upgrades or {})[stored[0]] + "COMMIT;")
                stored = (version,)
            db.executescript(schema)
            if stored is None:
                db.execute("INSERT INTO meta VALUES ('schema', ?), ('made by', ?)", (version, made_by))
        except BaseException:
            db.close()
            raise
    except sqlite3.Error as exc:
        raise DatabaseError(f"cannot use {path} as a {kind} database: {sqlite_reason(path, exc)}") from None
    return db


class Damaged(Exception):
    """Raised by a subclass's :meth:`ResultsDatabase.read_stored` for a stored row it cannot read back."""


class ResultsDatabase:
    """The results of one per-file job in SQLite (see the module docstring).

    A subclass sets ``MADE_BY`` (what the meta table says made it), ``KIND``
    (``results``, ``ratings``: in messages), ``CONTENTS``, ``SCHEMA`` (its
    tables; a ``files`` table keyed by ``path`` with the content's ``digest``
    and the settings in the column ``SETTINGS``), ``VERSION`` and
    ``UPGRADES``, and writes :meth:`write_stored` and :meth:`read_stored`."""

    MADE_BY: ClassVar[str]
    KIND: ClassVar[str]
    CONTENTS: ClassVar[str]
    SCHEMA: ClassVar[str]
    VERSION: ClassVar[str]
    UPGRADES: ClassVar[dict[str, str]] = {}
    SETTINGS: ClassVar[str] = "key"   # the column of the settings a stored result was made with

    def __init__(self, path: str, settings: str, create: bool = True):
        """Open (or, with ``create``, make) the database at ``path``; ``settings``
        is the key of what a result depends on besides the file's content."""
        self.path = path
        self.key = settings
        self.db = open_database(path, made_by=self.MADE_BY, kind=self.KIND, contents=self.CONTENTS,
                                schema=self.SCHEMA, version=self.VERSION, create=create, upgrades=self.UPGRADES)

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _read(self, sql: str, values: tuple = ()) -> list:
        import sqlite3

        try:
            return self.db.execute(sql, values).fetchall()
        except sqlite3.Error as exc:
            raise DatabaseError(f"cannot read the {self.KIND} database {self.path}: {sqlite_reason(self.path, exc)}") from None

    def _write(self, write: Callable[[sqlite3.Connection], Any]) -> None:
        """``write(connection)`` in one transaction, all of it or nothing."""
        import sqlite3

        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                write(db)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise DatabaseError(f"cannot write to the {self.KIND} database {self.path}: "
                                f"{sqlite_reason(self.path, exc)}") from None

    def before_reading(self) -> None:
        """Called before a file's stored digest is looked up, and before totals (a subclass's tidying)."""

    def task(self, path: str) -> FileTask:
        """The task of running the job on ``path`` and keeping its result here:
        with the digest of its stored result if it was made with the same settings."""
        self.before_reading()
        if path == STDIN:
            return FileTask(path)
        row = self._read(f"SELECT digest FROM files WHERE path = ? AND {self.SETTINGS} = ?", (file_key(path), self.key))[:1]
        return FileTask(path, True, row[0][0] if row else None)

    def stored(self, path: str) -> Any:
        """The stored result of ``path``, as the job gave it; a row that cannot
        be read back is a DatabaseError naming the database and the row."""
        key = file_key(path)
        try:
            return self.read_stored(key, path)
        except DatabaseError:
            raise
        except (Damaged, ValueError, TypeError, KeyError, IndexError, AttributeError, UnicodeError) as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise DatabaseError(f"the {self.KIND} database {self.path} is damaged: the stored result of "
                                f"{from_db(key)!r} cannot be read: {reason[:200]}") from None

    def store(self, result: Any) -> None:
        """Keep one file's result, in one transaction (a file that could not
        be read at all, or standard input, is not kept: it is run again)."""
        if result.digest is None or result.path == STDIN:
            return
        self.write_stored(file_key(result.path), result)

    def resolve(self, result: Any) -> Any:
        """A new result stored, or an unchanged file's stored result."""
        if isinstance(result, Unchanged):
            return self.stored(result.path)
        self.store(result)
        return result

    # --- what a subclass writes ------------------------------------------------------------

    def read_stored(self, key: Any, path: str) -> Any:
        """The result stored under ``key``, reported as ``path``."""
        raise NotImplementedError

    def write_stored(self, key: Any, result: Any) -> None:
        """Keep ``result`` under ``key`` (with :meth:`_write`: one transaction)."""
        raise NotImplementedError
