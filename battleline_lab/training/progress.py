"""The learner's progress: every attempt at every puzzle, kept in a small database.

Each answer, hint, revealed solution and reset is one :class:`Attempt` row
(learner, puzzle id and content hash, the answer given, right or wrong, hints,
seconds, when, and for a wrong answer the engine's reason code and rule id).
Rows are only ever added; what a learner has solved, the ratings
(:mod:`battleline_lab.training.trainer`) and the class report are computed from them.

Where the rows live is a small interface, :class:`AttemptStore`, with three
back ends:

- :class:`SqliteStore` (the default): the standard library's ``sqlite3``, WAL
  mode, a busy timeout and one short transaction per write, so two kernels
  writing at once lose nothing; the schema is versioned (``PRAGMA
  user_version``) and upgraded by :data:`MIGRATIONS`;
- :class:`JsonLinesStore`: one JSON object per line, appended; used
  automatically where ``sqlite3`` cannot be imported (Pyodide/JupyterLite);
- :class:`MemoryStore`: nothing on disk, used when the data folder cannot be
  written (after one clear warning), so a lesson never stops.

The data folder is ``$BATTLELINE_LAB_DATA`` if set, else
``$XDG_DATA_HOME/battleline_lab``, else ``~/.local/share/battleline_lab``; the
database is ``progress.sqlite3`` there.  In the browser (Pyodide, JupyterLite:
``sys.platform == "emscripten"``) the home folder is in memory and lost on a
page reload, so the default there is ``battleline-data/`` at the top of
JupyterLite's file browser (``/drive``, kept in the browser's storage).  An old ``progress.json`` beside it is
imported once (nothing lost; the file itself is left alone).  A damaged
database is moved aside under a new name (``progress.sqlite3.damaged-...``,
never over an older one) with a warning, and a fresh one starts; damaged lines of a JSON-lines
store are set aside the same way (the file copied to ``progress.jsonl.damaged-...``, the lines
blanked, every other row kept: :attr:`Progress.set_aside`).  Symlinks are
followed, never replaced; a store that is a FIFO, a device or a link to one is
never opened (memory, one warning).  Rows are always read in the order they were
added, never by their time stamps (a clock may jump).  Readers that only read
(``progress export``) use :func:`open_store_read_only`, which never moves,
renames or creates anything beside the store; :meth:`Progress.rows_since` reads
only the rows added since a cursor (the trainer's incremental state).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "progress.sqlite3"
>>> p = Progress(path)
>>> p.record_attempt("wedge-1", correct=False)
>>> p.record_attempt("wedge-1", correct=True, hints=1)
>>> Progress(path).get("wedge-1")
PuzzleRecord(solved=True, attempts=2, hints=1)

The facade :class:`Progress` is here; the rows and the stores are in
:mod:`battleline_lab.training.stores`, one module per concept (``rows``: :class:`Attempt` and
:func:`check_row`; ``records``: what rows say; ``base``: the store protocol; ``memory``, ``jsonl``,
``sqlite``, ``readonly``: the back ends; ``legacy``: the old ``progress.json``; ``folders``: the data
folder; ``opening``: :func:`open_store`; ``transfer``: the export document).  Every name this module
offered before the split is still importable from it, and is the same object.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..formats.settings import CLASS_DIR_VARIABLE
from .stores.base import AttemptStore, Cursor, rows_after
from .stores.folders import (
    BROWSER_DATA_FOLDER,
    BROWSER_DRIVE,
    REVIEW_FOLDER,
    _locate,
    class_dir,
    class_learner,
    data_account,
    data_dir,
    in_browser,
    review_dir,
)
from .stores.identity import IDENTITY_FILE, Identity, ensure_identity, new_id, read_identity, save_name
from .stores.jsonl import JSONL_FILE, JsonLinesStore, SetAside
from .stores.legacy import LEGACY_FILE, PROGRESS_FILE, legacy_attempts
from .stores.memory import MemoryStore
from .stores.opening import open_store
from .stores.readonly import READ_LIMIT, ReadOnlyStore, StoreError, open_store_read_only
from .stores.records import GAME_KIND, SETTING_KIND, GameResult, PuzzleRecord, current, game_results, records
from .stores.rows import (
    DEFAULT_LEARNER,
    KINDS,
    MAX_ANSWER,
    MAX_HINTS,
    MAX_SECONDS,
    MAX_TEXT,
    Attempt,
    RowError,
    check_row,
    skipped_warning,
)
from .stores.sqlite import DATABASE_FILE, MIGRATIONS, SqliteStore
from .stores.transfer import EXPORT_FORMAT, export_attempts, export_filename

__all__ = [
    "CLASS_DIR_VARIABLE",
    "DATABASE_FILE",
    "DEFAULT_LEARNER",
    "EXPORT_FORMAT",
    "GAME_KIND",
    "IDENTITY_FILE",
    "Identity",
    "JSONL_FILE",
    "LEGACY_FILE",
    "MIGRATIONS",
    "PROGRESS_FILE",
    "REVIEW_FOLDER",
    "Attempt",
    "AttemptStore",
    "GameResult",
    "JsonLinesStore",
    "MemoryStore",
    "KINDS",
    "Progress",
    "ProgressWarning",
    "ReadOnlyStore",
    "RowError",
    "SetAside",
    "class_dir",
    "class_learner",
    "data_account",
    "PuzzleRecord",
    "SqliteStore",
    "StoreError",
    "browser_storage",
    "check_row",
    "skipped_warning",
    "data_dir",
    "export_attempts",
    "export_filename",
    "game_results",
    "import_export",
    "in_browser",
    "open_store",
    "open_store_read_only",
    "review_dir",
    # public before the stores had their own modules, so still offered here (the same objects)
    "BROWSER_DATA_FOLDER",
    "BROWSER_DRIVE",
    "MAX_ANSWER",
    "MAX_HINTS",
    "MAX_SECONDS",
    "MAX_TEXT",
    "READ_LIMIT",
    "Cursor",
    "current",
    "legacy_attempts",
    "records",
    "rows_after",
]


class ProgressWarning(UserWarning):
    """Progress could not be kept as asked (damaged or unwritable data); the lesson goes on."""


def _disk_error(err: BaseException) -> bool:
    """Whether a failed write is the disk's doing (full, read-only, gone, locked), which is what moves a
    session's progress to memory; anything else (a refused row, a bug) is not."""
    if isinstance(err, OSError):
        return True
    sqlite3 = sys.modules.get("sqlite3")
    return sqlite3 is not None and isinstance(err, sqlite3.OperationalError)


def _identity_folder(store: AttemptStore, folder: Path) -> Path:
    """Where a store's ``learner.json`` is: beside the file the store really is (a linked database's
    learner is the one beside it, whichever folder links to it), else the data folder."""
    where = getattr(store, "source", "") if isinstance(store, ReadOnlyStore) else getattr(store, "where", "")
    if where and Path(where).name in (DATABASE_FILE, JSONL_FILE) or Path(where).suffix in (".sqlite3", ".jsonl"):
        return Path(os.path.realpath(where)).parent
    return folder


@dataclass
class Progress:
    """One learner's progress in a store: the old ``Progress(path)`` interface over attempt rows.

    ``path`` is a data folder, a database file, or (as before) a
    ``progress.json`` path: then the database sits beside it and the JSON file
    is imported once.  Without a path, the user's data folder.  ``problem``
    holds the warning given if the store is not the one asked for.

    The folder's learner (:mod:`.stores.identity`): ``learner_id`` is the folder's random id and,
    without a ``learner`` given, ``learner`` its name (from the hub, or given once; ``me`` until
    then); this learner's rows are those with the id and the folder's older rows without one.  With
    a ``learner`` given that is not the folder's name, the rows of that name (several learners
    sharing one store by name, as before ids).
    """

    path: Path | str | None = None
    #: the learner's name ("": the data folder's learner, named by the folder)
    learner: str = ""
    store: AttemptStore | None = None
    learner_id: str = ""
    problem: str | None = field(default=None, init=False)
    #: the damaged lines of a JSON-lines store set aside when it was opened (None: none were)
    set_aside: SetAside | None = field(default=None, init=False, repr=False)
    #: the data folder whose ``learner.json`` names this learner (None: kept nowhere, e.g. memory)
    folder: Path | None = field(default=None, init=False, repr=False)
    #: whether the learner has a name of their own (from the hub, given once, or asked for by name)
    named: bool = field(default=False, init=False, repr=False)
    _by_name: bool = field(default=False, init=False, repr=False)

    def _identify(self, identity: Identity | None) -> None:
        """Take the learner's name and id from the folder's identity (what was given wins)."""
        asked = self.learner
        name = identity.name if identity is not None else ""
        self._by_name = bool(asked) and asked != name and asked != DEFAULT_LEARNER
        self.learner = asked or name or DEFAULT_LEARNER
        self.named = bool(name) or self._by_name
        if not self.learner_id and identity is not None:
            # a learner asked for by name in another's folder has an id of their own, the same every time
            by_name = hashlib.sha256(f"{identity.id}:{self.learner}".encode("utf-8", "surrogatepass"))
            self.learner_id = by_name.hexdigest()[:12] if self._by_name else identity.id

    def __post_init__(self) -> None:
        if self.store is not None:
            identity = None
            if self.path is not None:  # a store opened by the caller (read only): its folder's identity, read only
                self.folder = _identity_folder(self.store, _locate(self.path)[0])
                identity = read_identity(self.folder)
            self._identify(identity)
            if not self.learner_id and self.path is None:  # a store alone: the learner its rows name, else new
                self.learner_id = self._id_in_store() or new_id()
            return
        from ..formats.settings import SettingError, learner_setting

        try:
            folder, database, legacy = _locate(self.path)
        except SettingError as err:  # a setting that names no folder: answers kept in memory, and said
            self.store, self.problem = MemoryStore(), str(err)
            warnings.warn(self.problem, ProgressWarning, stacklevel=3)
            self._identify(Identity(new_id(), learner_setting() or ""))
            return
        self.store, self.problem = open_store(folder, database=database)
        if isinstance(self.store, MemoryStore) and not isinstance(self.store, ReadOnlyStore):
            self._identify(Identity(new_id(), learner_setting() or ""))
        else:  # a folder's first use gives it its learner id; an older folder gets one now (its rows kept)
            self.folder = _identity_folder(self.store, folder)
            account = data_account() if self.path is None else learner_setting()  # in a class: whose folder
            self._identify(ensure_identity(self.folder, account))
        if self.problem:
            warnings.warn(self.problem, ProgressWarning, stacklevel=3)
        if legacy is not None:
            self._import(legacy)
        if isinstance(self.store, JsonLinesStore):
            self._say_damaged(self.store)
        elif isinstance(self.store, (SqliteStore, ReadOnlyStore)):
            self._say_refused()

    def _say_refused(self) -> None:
        """On opening a database (or a read-only copy), say once, located, which rows it holds that
        :func:`check_row` refuses: they stay in the file and are skipped."""
        if isinstance(self.store, SqliteStore):
            try:
                self.store.rows()
            except Exception:  # noqa: BLE001 - an unreadable database is said by the first read
                return
        said = skipped_warning(self.refused())
        if said:  # the store itself is fine and still written: a warning, not a problem with saving
            warnings.warn(said, ProgressWarning, stacklevel=4)

    def _say_damaged(self, store: JsonLinesStore) -> None:
        """On opening a JSON-lines store, set its damaged lines aside and say so once (located).

        The file as it was is copied under a new name and the damaged lines are blanked
        (:meth:`JsonLinesStore.set_aside_damaged`); :attr:`set_aside` says what was done (the
        gym shows it in the learner's language).  If the copy cannot be written, the lines stay
        and are skipped when reading, and the message says that.
        """
        try:
            store.rows()
        except OSError:
            return
        if store.damaged:
            from ..formats.safe_yaml import escape_control

            first, count = store.damaged[0], len(store.damaged)
            more = f" ({count} damaged lines)" if count > 1 else ""
            why = f" ({store.refused[0]._what()})" if store.refused else ""  # before setting aside forgets it
            try:
                self.set_aside = store.set_aside_damaged()
            except OSError as err:
                self.set_aside, kept = None, f" (they could not be copied aside: {err})"
            else:
                kept = "" if self.set_aside is None else f"; the file as it was is kept as {self.set_aside.aside}"
            done = "set aside" if self.set_aside is not None else "skipped"
            self.problem = (
                f"{escape_control(store.where)}:{first}:1: warning: a damaged line was {done}{why}{more}"
                f"{escape_control(kept)}; the other rows are kept"
            )
            warnings.warn(self.problem, ProgressWarning, stacklevel=4)

    def rows_since(self, cursor: Cursor) -> tuple[list[Attempt], Cursor]:
        """This learner's rows added since ``cursor`` (resets included, insertion order) and the new cursor.

        ``cursor`` 0 reads from the start; rows another process or browser tab added count too.
        A store that cannot be read gives no rows (and one warning, as :meth:`attempts`).
        """
        try:
            rows, cursor = rows_after(self._store(), self.learner if self._by_name else None, cursor)
            return self._mine(rows), cursor
        except Exception as err:  # noqa: BLE001
            if self.problem is None:
                self.problem = f"progress could not be read from {self._store().where} ({err})"
                warnings.warn(self.problem, ProgressWarning, stacklevel=3)
            return [], cursor

    def _import(self, legacy: Path) -> None:
        """Import an old progress.json once (a key in the database says it was done)."""
        try:
            if not legacy.is_file():
                return
            from ..formats.files import FileTooBigError, read_regular

            text = read_regular(legacy).decode("utf-8", errors="replace")
        except (OSError, FileTooBigError):
            return
        rows = []
        for row in legacy_attempts(text, self.learner, at=0.0):
            try:
                rows.append(check_row(row))
            except RowError as err:  # a learner name the gate refuses: said, and the store left as it is
                warnings.warn(err.located(str(legacy)).warning(), ProgressWarning, stacklevel=4)
        key = f"imported:{os.path.realpath(legacy)}"
        store = self.store
        if isinstance(store, SqliteStore):
            store.add_many(rows, once=key)
        elif store is not None and not any(r.source == "import" for r in self._mine(store.rows())):
            for row in rows:
                store.add(row)

    def _store(self) -> AttemptStore:
        assert self.store is not None
        return self.store

    def _id_in_store(self) -> str:
        """The id of the first row of the store that names this learner (a store handed over without its folder)."""
        try:
            rows = self._store().rows()
        except Exception:  # noqa: BLE001 - an unreadable store is said by the first read
            return ""
        return next((r.learner_id for r in rows if r.learner_id and r.learner == self.learner), "")

    def _mine(self, rows: list[Attempt]) -> list[Attempt]:
        """This learner's rows among a store's: by name when asked by name, else by the folder's id (and the
        folder's rows from before ids, which carry none)."""
        if self._by_name:
            return [r for r in rows if r.learner == self.learner]
        return [r for r in rows if r.learner_id == self.learner_id or (not r.learner_id and not self._foreign(r))]

    def _foreign(self, row: Attempt) -> bool:
        """A row from before ids that names another learner (written as ``Progress(path, learner="bo")``)."""
        return row.learner not in (DEFAULT_LEARNER, self.learner)

    def set_name(self, name: str) -> str:
        """Give the learner a name, kept in the data folder (``check_name``'s ValueError if it cannot be one);
        the rows already there stay theirs (the id is kept).  Returns the name as kept."""
        from .stores.identity import check_name

        kept = check_name(name)
        if self.folder is not None:
            try:
                kept = save_name(self.folder, kept).name
            except OSError as err:  # said, and the name used for this session
                self.problem = f"the name could not be kept in {self.folder} ({err})"
                warnings.warn(self.problem, ProgressWarning, stacklevel=2)
        self.learner, self.named, self._by_name = kept, True, False
        return kept

    def add(self, attempt: Attempt) -> None:
        """Add a row.  A row :func:`check_row` refuses raises :class:`RowError` and changes nothing (the store
        still writes where it did); a write the disk refuses switches to memory with a warning."""
        row = check_row(attempt)
        try:
            self._store().add(row)
        except Exception as err:
            if not _disk_error(err):
                raise
            attempt = row
            rows = self._safe_rows()
            self.problem = f"progress could not be saved in {self._store().where} ({err}); kept in memory from now on"
            warnings.warn(self.problem, ProgressWarning, stacklevel=3)
            self.store = MemoryStore()
            for row in rows:
                self.store.add(row)
            self.store.add(attempt)

    def refused(self) -> list[RowError]:
        """The rows of the store's file that were skipped by the last full read (located; none for a new store)."""
        return list(getattr(self._store(), "refused", []))

    def _safe_rows(self) -> list[Attempt]:
        try:
            return self._store().rows()
        except Exception:  # noqa: BLE001
            return []

    def attempts(self) -> list[Attempt]:
        """This learner's rows since the last reset, oldest first."""
        try:
            return current(self._mine(self._store().rows(self.learner if self._by_name else None)))
        except Exception as err:  # noqa: BLE001
            if self.problem is None:
                self.problem = f"progress could not be read from {self._store().where} ({err})"
                warnings.warn(self.problem, ProgressWarning, stacklevel=3)
            return []

    def records(self) -> dict[str, PuzzleRecord]:
        """Every puzzle's record."""
        return records(self.attempts())

    def get(self, puzzle_id: str) -> PuzzleRecord:
        """The record of a puzzle (an empty one if never tried)."""
        return self.records().get(puzzle_id, PuzzleRecord())

    def record_attempt(
        self,
        puzzle_id: str,
        *,
        correct: bool,
        hints: int = 0,
        seconds: float | None = None,
        answer: object = None,
        content_hash: str = "",
        reason: str | None = None,
        rule: str | None = None,
        source: str = "",
    ) -> None:
        """Record one answer (with the hints taken before it, since the previous row)."""
        self.add(
            Attempt(
                self.learner,
                puzzle_id,
                "answer",
                correct=correct,
                hints=hints,
                seconds=seconds,
                at=time.time(),
                answer=None if answer is None else json.dumps(answer, default=str, ensure_ascii=False),
                content_hash=content_hash,
                reason=reason,
                rule=rule,
                source=source,
                learner_id=self.learner_id,
            )
        )

    def record_hint(self, puzzle_id: str, *, content_hash: str = "", source: str = "") -> None:
        """Record one hint taken (not followed by an answer yet)."""
        self.add(
            Attempt(
                self.learner,
                puzzle_id,
                "hint",
                hints=1,
                at=time.time(),
                content_hash=content_hash,
                source=source,
                learner_id=self.learner_id,
            )
        )

    def record_reveal(self, puzzle_id: str, *, hints: int = 0, content_hash: str = "", source: str = "") -> None:
        """Record that the solution was shown before a right answer (a miss)."""
        self.add(
            Attempt(
                self.learner,
                puzzle_id,
                "reveal",
                correct=False,
                hints=hints,
                at=time.time(),
                content_hash=content_hash,
                source=source,
                learner_id=self.learner_id,
            )
        )

    def record_game(self, bot: str, score: float, *, seed: int | None = None, source: str = "game") -> None:
        """Record one finished game against the bot ``bot``: ``score`` 1 (won), 0.5 (a draw) or 0 (lost).

        One row (kind ``game``), added like every other row: never overwriting, a failing write
        kept in memory with a warning (:meth:`add`).
        """
        if score not in (0, 0.5, 1):
            raise ValueError(f"a game's score is 1, 0.5 or 0, not {score!r}")
        answer = json.dumps({"bot": bot, "score": float(score), "seed": seed}, ensure_ascii=False)
        correct = None if score == 0.5 else score == 1
        self.add(
            Attempt(
                self.learner,
                f"game:{bot}",
                GAME_KIND,
                correct=correct,
                at=time.time(),
                answer=answer,
                source=source,
                learner_id=self.learner_id,
            )
        )

    def record_setting(self, name: str, value: str) -> None:
        """Remember a choice of the learner's (``theme``: ``chuhan``): one row (kind ``setting``), added like
        every other row, through the same gate (:meth:`add`): never overwriting, atomic, nothing lost."""
        answer = json.dumps(value, ensure_ascii=False)
        self.add(
            Attempt(
                self.learner,
                f"setting:{name}",
                SETTING_KIND,
                at=time.time(),
                answer=answer,
                source="settings",
                learner_id=self.learner_id,
            )
        )

    def setting(self, name: str) -> str | None:
        """The learner's last choice of ``name`` (None: never chosen, or unreadable); a reset keeps it."""
        try:
            rows = self._mine(self._store().rows(self.learner if self._by_name else None))
        except Exception:  # noqa: BLE001 - an unreadable store is said by the first read of the attempts
            return None
        for row in reversed(rows):
            if row.kind == SETTING_KIND and row.puzzle_id == f"setting:{name}" and row.answer is not None:
                try:
                    value = json.loads(row.answer)
                except ValueError:
                    continue
                if isinstance(value, str):
                    return value
        return None

    def games(self) -> list[GameResult]:
        """This learner's games against bots since the last reset, oldest first."""
        return game_results(self.attempts())

    def solved(self, puzzle_ids: Iterable[str]) -> int:
        """How many of these puzzles are solved."""
        recs = self.records()
        return sum(1 for pid in puzzle_ids if pid in recs and recs[pid].solved)

    def reset(self) -> None:
        """Start over: a ``reset`` row hides the earlier ones (they stay in the database, for the record)."""
        self.add(Attempt(self.learner, "", "reset", at=time.time(), learner_id=self.learner_id))

    def __repr__(self) -> str:
        recs = self.records()
        return f"<Progress {len(recs)} puzzles, {sum(r.solved for r in recs.values())} solved>"


# -- moving progress between browsers (the gym's "Save my progress" / "Load progress") -----------


def browser_storage(progress: Progress) -> str | None:
    """Where a learner's progress is kept in the browser: ``drive`` (JupyterLite's drive, kept in
    the browser's storage until its site data is cleared: a private window forgets it when it
    closes), ``memory`` (not kept at all: lost on a reload), or None outside a browser."""
    if not in_browser():
        return None
    store = progress.store
    if isinstance(store, MemoryStore):
        return "memory"
    where = Path(getattr(store, "where", ""))
    return "drive" if BROWSER_DRIVE in where.parents else "memory"


def import_export(
    progress: Progress, document: Any, *, where: str = "<export>", refused: list[RowError] | None = None
) -> tuple[int, int]:
    """Add the attempts of an export document to this learner's store, as this learner.

    Every row passes :func:`check_row`.  Rows the learner's current progress already holds (same
    puzzle, kind, time, answer; rows hidden by a reset do not count, so loading a saved file after
    "Reset my progress" brings its rows back) are not added twice, so loading the same file again
    changes nothing.  Returns ``(added, skipped)``: skipped rows are ones that are not attempts
    (each one's :class:`RowError`, located as ``attempts[N]`` of ``where``, is appended to
    ``refused`` if given) and resets.  ValueError says why a document is not an export at all (then
    nothing is added).  A refused row never changes where the store writes.

    >>> p = Progress(store=MemoryStore())
    >>> doc = {"format": EXPORT_FORMAT, "learner": "ann", "attempts": [
    ...     {"learner": "ann", "puzzle_id": "w1", "kind": "answer", "correct": True, "at": 5.0, "answer": True},
    ...     {"nonsense": 1}]}
    >>> import_export(p, doc), import_export(p, doc), p.get("w1")
    ((1, 1), (0, 1), PuzzleRecord(solved=True, attempts=1, hints=0))
    """
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise ValueError(f'not a progress export (no "format": "{EXPORT_FORMAT}")')
    rows = document.get("attempts")
    if not isinstance(rows, list):
        raise ValueError('a progress export needs "attempts" (a list)')

    def key(row: Attempt) -> tuple[object, ...]:
        return (row.puzzle_id, row.kind, row.at, row.answer, row.correct)

    have = {key(row) for row in progress.attempts()}  # after the last reset: a reset is undone by a load
    checked, bad = export_attempts(document, progress.learner, where=where, learner_id=progress.learner_id)
    if refused is not None:
        refused.extend(bad)
    added, skipped = 0, len(bad)
    for row in checked:
        if row.kind == "reset" or key(row) in have:
            skipped += row.kind == "reset"
            continue
        have.add(key(row))
        progress.add(row)
        added += 1
    return added, skipped
