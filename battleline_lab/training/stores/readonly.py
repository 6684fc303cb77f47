"""Stores read without writing: the rows of a file that cannot be written, and ``progress export``'s reader.

:class:`ReadOnlyStore` keeps the rows of a store that cannot be written (new rows in memory beside
them); :func:`open_store_read_only` reads a data folder without moving, renaming or creating anything.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path

from .base import AttemptStore
from .jsonl import JSONL_FILE, JsonLinesStore
from .legacy import LEGACY_FILE, legacy_attempts
from .memory import MemoryStore
from .rows import DEFAULT_LEARNER, Attempt, RowError
from .sqlite import _BUSY_MS, _COLUMNS, DATABASE_FILE, _checked, _sqlite_available

__all__ = ["READ_LIMIT", "ReadOnlyStore", "StoreError", "open_store_read_only"]


class ReadOnlyStore(MemoryStore):
    """The rows of a store that cannot be written (a read-only file system, no permission), read when it was
    opened; new rows are kept beside them in memory, so "Save my progress" still downloads every row.

    ``source``: the file the rows were read from; ``where`` says it is a copy in memory.
    """

    def __init__(self, source: str, rows: Iterable[Attempt] = (), refused: Sequence[RowError] = ()) -> None:
        super().__init__(f"memory (read from {source}, which cannot be written)")
        self.source = source
        self._rows.extend(rows)
        self.refused = list(refused)


def _read_only_copy(target: Path, err: BaseException) -> tuple[AttemptStore, str] | None:
    """A store that could not be opened for writing, opened read-only with its rows, and what to tell the
    learner; None if there is no such file or it cannot be read either."""
    if not os.path.isfile(target):
        return None
    try:
        found = open_store_read_only(target.parent, database=target)
    except (StoreError, OSError):
        return None
    store = ReadOnlyStore(str(target), found.rows(), getattr(found, "refused", []))
    count = len(store.rows())
    return store, (
        f"progress cannot be saved in {target} ({err}): its {count} rows are read, and new ones are kept "
        'in memory until the notebook\'s kernel stops ("Save my progress" downloads them all)'
    )


class StoreError(OSError):
    """A store a read-only command cannot read: ``where`` (the file) and ``reason`` (words for the user)."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


#: A JSON-lines store read by a read-only command is read only up to this size.
READ_LIMIT = 256 << 20


def open_store_read_only(folder: Path, *, database: Path | None = None) -> AttemptStore:
    """The rows of a data folder for a command that only reads (``progress export``), in memory.

    Nothing is moved, renamed or created beside the store, and nothing is written: the
    database is read with SQLite's ``immutable`` flag when it has no write-ahead log (a
    clean close), read-only when a writer has it open, and from a copy in a temporary
    folder when a crash left a log without its index.  A folder, a FIFO, a device or a
    link to one, a truncated or garbage database: :class:`StoreError`, never a file
    created beside a device and never an empty result.  Raises :class:`StoreError`.
    """
    from ...formats.files import NotRegularFileError, _kind, describe

    candidates = [database] if database is not None else [folder / n for n in (DATABASE_FILE, JSONL_FILE)]
    for given in candidates:
        if not os.path.lexists(given):
            continue
        where = str(given)
        try:
            info = os.stat(given)  # follows a link: what it names must be a regular file
        except OSError as err:
            raise StoreError(where, describe(err)) from None
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(where, describe(NotRegularFileError(where, _kind(info.st_mode))))
        target = Path(os.path.realpath(given))
        store = MemoryStore(where)
        if target.suffix == ".jsonl" or not _sqlite_available():
            reader = JsonLinesStore(target, read_only=True)
            reader.where = where  # damaged lines are named as the reader named the file
            if info.st_size > READ_LIMIT:
                raise StoreError(where, f"{info.st_size} bytes (limit {READ_LIMIT})")
            try:
                rows = reader.rows()
            except OSError as err:
                raise StoreError(where, describe(err)) from None
            store.refused = reader.refused
        else:
            rows, store.refused = _read_sqlite(target, where)
        store._rows.extend(rows)  # checked as they were read
        return store
    legacy = database if database is not None else folder / LEGACY_FILE
    if os.path.lexists(legacy):
        store = MemoryStore(str(legacy))
        from ...formats.files import FileTooBigError, read_regular

        try:
            text = read_regular(legacy).decode("utf-8", errors="replace")
        except (OSError, FileTooBigError) as err:
            raise StoreError(str(legacy), describe(err)) from None
        for row in legacy_attempts(text, DEFAULT_LEARNER, at=0.0):
            store.add(row)
        return store
    raise StoreError(str(folder), "no progress here")


def _read_sqlite(target: Path, where: str) -> tuple[list[Attempt], list[RowError]]:
    import shutil
    import sqlite3
    import tempfile

    wal = target.with_name(target.name + "-wal")
    shm = target.with_name(target.name + "-shm")
    temp: str | None = None
    if not wal.exists():
        uri = target.as_uri() + "?immutable=1"  # a clean database: read as it is, no -wal/-shm created
    elif shm.exists():
        uri = target.as_uri() + "?mode=ro"  # a writer has it open: its log and index exist already
    else:  # a crash left a log without its index: read a copy, so nothing is created beside the original
        temp = tempfile.mkdtemp(prefix="battleline-export-")
        copy = Path(temp) / target.name
        shutil.copyfile(target, copy)
        shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
        uri = copy.as_uri() + "?mode=rw"
    try:
        db = sqlite3.connect(uri, uri=True, timeout=_BUSY_MS / 1000, isolation_level=None)
        try:
            # a file of an older schema is read as it is (never migrated here): the columns it has
            have = {str(info[1]) for info in db.execute("PRAGMA table_info(attempts)").fetchall()}
            columns = [c for c in _COLUMNS if c in have] or list(_COLUMNS)
            found = db.execute(f"SELECT id, {', '.join(columns)} FROM attempts ORDER BY id").fetchall()
        finally:
            db.close()
        return _checked(found, where, columns)
    except sqlite3.Error as err:
        raise StoreError(where, f"not a readable progress database ({err})") from None
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
