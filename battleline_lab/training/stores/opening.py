"""Opening the store of a data folder: SQLite, else JSON lines; damage moved aside; memory when nothing can be written.

:func:`open_store` never raises for bad data or folders: it says what went wrong instead.
"""

from __future__ import annotations

import os
from pathlib import Path

from .base import AttemptStore
from .folders import data_dir
from .jsonl import JSONL_FILE, JsonLinesStore
from .memory import MemoryStore
from .readonly import _read_only_copy
from .sqlite import DATABASE_FILE, SqliteStore, _move_aside, _open_sqlite, _sqlite_available

__all__ = ["open_store"]


def open_store(folder: Path | None = None, *, database: Path | None = None) -> tuple[AttemptStore, str | None]:
    """The store for a data folder, and a problem message (None if all is well).

    SQLite if it can be imported, else JSON lines; a damaged database is moved
    aside (the message says where); a folder that cannot be written gives a
    :class:`MemoryStore` and a message.  Never raises for bad data or folders.
    """
    folder = folder if folder is not None else data_dir()
    use_sqlite = _sqlite_available()
    target = database if database is not None else folder / (DATABASE_FILE if use_sqlite else JSONL_FILE)
    target = Path(os.path.realpath(target))  # follow symlinks: the link stays, the file it names is used
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if os.path.exists(target) and not os.path.isfile(target):  # a folder, a FIFO, a device: never opened
            from ...formats.files import NotRegularFileError, _kind

            raise NotRegularFileError(str(target), _kind(os.stat(target).st_mode))
        if not use_sqlite or target.suffix == ".jsonl":
            return JsonLinesStore(target), None
        import sqlite3

        try:
            return _open_sqlite(target), None
        except sqlite3.DatabaseError as err:
            if isinstance(err, sqlite3.OperationalError):  # cannot open, read-only, locked: not damage
                raise OSError(str(err)) from err
            aside = _move_aside(target)
            store = SqliteStore(target)
            return (
                store,
                f"the progress database {target} was damaged ({err}); it was moved to {aside} and a new one started",
            )
    except (OSError, ImportError) as err:
        read_only = _read_only_copy(target, err) if not isinstance(err, ImportError) else None
        if read_only is not None:
            return read_only
        return MemoryStore(f"memory (could not use {target})"), (
            f"progress cannot be saved in {target.parent} ({err}); "
            "it is kept in memory until the notebook's kernel stops"
        )
    except Exception as err:  # the sqlite3 module raises its own errors for unopenable files
        return MemoryStore(f"memory (could not use {target})"), (
            f"progress cannot be saved in {target} ({type(err).__name__}: {err}); it is kept in memory"
        )
