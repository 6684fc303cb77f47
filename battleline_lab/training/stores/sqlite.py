"""The SQLite store (the default): WAL mode, a busy timeout, one short transaction per write, a versioned schema.

Also what opening one needs: whether SQLite can be used here (:func:`_sqlite_available`), opening
while another kernel holds the lock (:func:`_open_sqlite`), and moving a damaged database aside
(:func:`_move_aside`).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from .base import Cursor, _unique_aside
from .rows import Attempt, RowError, check_row

__all__ = ["DATABASE_FILE", "MIGRATIONS", "SqliteStore"]

DATABASE_FILE = "progress.sqlite3"
_BUSY_MS = 30_000

_COLUMNS = tuple(f.name for f in fields(Attempt))


#: The schema, one entry per version: the statements that take a database from the previous version to it.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE IF NOT EXISTS attempts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            learner TEXT NOT NULL,
            puzzle_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            correct INTEGER,
            hints INTEGER NOT NULL DEFAULT 0,
            seconds REAL,
            at REAL NOT NULL,
            answer TEXT,
            content_hash TEXT NOT NULL DEFAULT '',
            reason TEXT,
            rule TEXT,
            source TEXT NOT NULL DEFAULT ''
        )""",
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ),
    ("CREATE INDEX IF NOT EXISTS attempts_by_learner ON attempts (learner, at)",),
    # the data folder's learner id on every row; older rows keep '' (they are the folder's learner's)
    ("ALTER TABLE attempts ADD COLUMN learner_id TEXT NOT NULL DEFAULT ''",),
)


class SqliteStore:
    """Rows in an SQLite database (WAL mode, busy timeout, versioned schema).

    Raises ``sqlite3.DatabaseError`` if the file is not a usable database
    (:func:`open_store` moves such a file aside).
    """

    def __init__(self, path: Path) -> None:
        import sqlite3

        self.path = path
        self.where = str(path)
        #: rows of the file that :func:`check_row` refused (written by an older version or by hand), found by
        #: the last full read; they stay in the file and are skipped
        self.refused: list[RowError] = []
        self._sqlite3 = sqlite3
        # ipykernel may run widget callbacks on another thread than the cell that made the widget:
        # the connection is shared between threads, one lock keeps its uses apart
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(path), timeout=_BUSY_MS / 1000, isolation_level=None, check_same_thread=False)
        try:
            self._db.execute(f"PRAGMA busy_timeout = {_BUSY_MS}")
            mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()
            if mode is None:
                raise sqlite3.DatabaseError("no journal mode")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._migrate()
        except BaseException:
            self._db.close()
            raise

    @property
    def version(self) -> int:
        """The schema version of the file (``PRAGMA user_version``)."""
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        if self.version >= len(MIGRATIONS):
            self._db.execute("SELECT count(*) FROM attempts").fetchone()  # a damaged file fails here
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            version = self.version  # another process may have migrated meanwhile
            for number in range(version, len(MIGRATIONS)):
                for statement in MIGRATIONS[number]:
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")
            self._db.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        """Roll back if a transaction is still open: SQLite ends it itself on some errors (a full disk), and
        "cannot rollback - no transaction is active" must never hide the error that really happened."""
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except self._sqlite3.Error:
                pass

    def add(self, attempt: Attempt) -> None:
        self.add_many([attempt])

    def add_many(self, attempts: Iterable[Attempt], *, once: str | None = None) -> bool:
        """Add rows in one transaction; with ``once``, only if that key is not in ``meta`` yet (then set)."""
        checked = [check_row(a) for a in attempts]  # a refused row raises RowError before anything is written
        values = [tuple(_db_value(getattr(a, c)) for c in _COLUMNS) for a in checked]
        with self._lock:
            return self._insert(values, once)

    def _insert(self, values: list[tuple[object, ...]], once: str | None) -> bool:
        sql = f"INSERT INTO attempts ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' for _ in _COLUMNS)})"
        self._db.execute("BEGIN IMMEDIATE")
        try:
            if once is not None:
                if self._db.execute("SELECT 1 FROM meta WHERE key = ?", (once,)).fetchone():
                    self._db.execute("ROLLBACK")
                    return False
                self._db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (once, str(time.time())))
            self._db.executemany(sql, values)
            self._db.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise
        return True

    def rows(self, learner: str | None = None) -> list[Attempt]:
        sql = f"SELECT id, {', '.join(_COLUMNS)} FROM attempts"
        params: tuple[str, ...] = ()
        if learner is not None:
            sql += " WHERE learner = ?"
            params = (learner,)
        with self._lock:
            found = self._db.execute(sql + " ORDER BY id", params).fetchall()  # insertion order, never clock order
        rows, self.refused = _checked(found, self.where)
        return rows

    def rows_after(self, learner: str | None, cursor: Cursor) -> tuple[list[Attempt], Cursor]:
        """The rows with an id above ``cursor``, and the highest id read (another process's rows included)."""
        sql = f"SELECT id, {', '.join(_COLUMNS)} FROM attempts WHERE id > ?"
        params: tuple[object, ...] = (cursor,)
        if learner is not None:
            sql += " AND +learner = ?"  # "+": by the row id range, not the (learner, at) index
            params = (cursor, learner)
        with self._lock:
            found = self._db.execute(sql + " ORDER BY id", params).fetchall()
            if not found:
                top = self._db.execute("SELECT max(id) FROM attempts").fetchone()[0]
                return [], max(cursor, int(top or 0))
        return _checked(found, self.where)[0], int(found[-1][0])

    def close(self) -> None:
        """Close the connection (rows are already on disk)."""
        self._db.close()


def _checked(
    found: Iterable[Sequence[Any]], where: str, columns: Sequence[str] = _COLUMNS
) -> tuple[list[Attempt], list[RowError]]:
    """The rows of ``(id, *columns)`` tuples read from a database, through :func:`check_row`, and the refused
    ones (located by their row id).  ``columns``: those the file has (an older schema lacks the newest)."""
    rows: list[Attempt] = []
    refused: list[RowError] = []
    for row in found:
        try:
            rows.append(check_row(dict(zip(columns, row[1:])), where=where, line=int(row[0])))
        except RowError as err:
            refused.append(err)
    return rows, refused


def _db_value(value: object) -> object:
    return int(value) if isinstance(value, bool) else value


def _move_aside(path: Path) -> Path:
    """Move a damaged database (and its WAL files) aside under a new name; return that name."""
    target = _unique_aside(path, "damaged")
    try:  # a hard link never replaces an existing file: no older backup is lost, even in a race
        os.link(path, target)
        os.unlink(path)
    except OSError:
        path.rename(target)
    for suffix in ("-wal", "-shm"):
        extra = path.with_name(path.name + suffix)
        if extra.exists():
            try:
                extra.rename(target.with_name(target.name + suffix))
            except OSError:
                pass
    return target


def _sqlite_available() -> bool:
    # In Pyodide the data folder is JupyterLite's browser-kept drive, which has no file locks or
    # shared memory for SQLite's WAL: JSON lines there, even where a sqlite3 module exists.
    if sys.platform == "emscripten":
        return False
    try:
        import sqlite3  # noqa: F401
    except ImportError:
        return False
    return True


def _open_sqlite(target: Path) -> SqliteStore:
    """Open (and if need be create or migrate) the database, waiting out another process's lock.

    Switching a new file to WAL mode or creating the schema needs a lock that another kernel
    opening the same file at the same moment may hold; SQLite then answers "database is
    locked" at once, without its busy timeout.  That is not damage and not an unwritable
    folder: try again for up to the busy timeout, so a second kernel never falls back to memory.
    """
    import sqlite3

    deadline = time.monotonic() + _BUSY_MS / 1000
    pause = 0.01
    while True:
        try:
            return SqliteStore(target)
        except sqlite3.OperationalError as err:
            text = str(err).lower()
            if ("locked" not in text and "busy" not in text) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.5)
