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
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
import sys
import threading
import time
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Protocol

__all__ = [
    "CLASS_DIR_VARIABLE",
    "DATABASE_FILE",
    "DEFAULT_LEARNER",
    "EXPORT_FORMAT",
    "GAME_KIND",
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
]

DATABASE_FILE = "progress.sqlite3"
JSONL_FILE = "progress.jsonl"
LEGACY_FILE = PROGRESS_FILE = "progress.json"
DEFAULT_LEARNER = "me"
#: The folder, inside the data folder, of the puzzles saved from the learner's own games.
REVIEW_FOLDER = "review"
#: at most this many rows are imported per puzzle from an old progress.json (hostile counts)
_IMPORT_CAP = 1000
_BUSY_MS = 30_000


class ProgressWarning(UserWarning):
    """Progress could not be kept as asked (damaged or unwritable data); the lesson goes on."""


#: JupyterLite's Pyodide kernel mounts the file browser's contents (kept in the browser) here.
BROWSER_DRIVE = Path("/drive")
#: The data folder in the browser, under :data:`BROWSER_DRIVE` (visible in the file browser).
BROWSER_DATA_FOLDER = "battleline-data"


def _browser_data_dir(drive: Path = BROWSER_DRIVE, cwd: Path | None = None) -> Path:
    """The data folder under Pyodide: on the persisted drive, whichever folder the notebook is in.

    Outside the drive (another Pyodide front end), the working folder is used.

    >>> _browser_data_dir(Path("/no-such-drive"), cwd=Path("/home/pyodide")).as_posix()
    '/home/pyodide/battleline-data'
    """
    if drive.is_dir():
        return drive / BROWSER_DATA_FOLDER
    return (cwd if cwd is not None else Path.cwd()) / BROWSER_DATA_FOLDER


#: A class's shared folder (JupyterHub, one shared computer): each learner's data goes to a subfolder.
CLASS_DIR_VARIABLE = "BATTLELINE_CLASS_DIR"


def class_learner() -> str:
    """The learner's name in a class folder: the JupyterHub user (``$JUPYTERHUB_USER``), else the login name.

    >>> import os; os.environ["JUPYTERHUB_USER"] = "ann"; class_learner()
    'ann'
    >>> del os.environ["JUPYTERHUB_USER"]
    """
    import getpass

    from ..formats.settings import learner_setting

    name = learner_setting()
    if not name:
        try:
            name = getpass.getuser()
        except (KeyError, OSError):  # pragma: no cover - no user name on this system
            name = DEFAULT_LEARNER
    return name


def _folder_name(name: str) -> str:
    """A learner's name as one safe folder name (no separators, no leading dot)."""
    safe = "".join(c if c.isalnum() or c in "-_.@" else "_" for c in name).lstrip(".")
    return safe[:80] or DEFAULT_LEARNER


def class_dir() -> Path | None:
    """The class folder named by ``$BATTLELINE_CLASS_DIR``, or None outside a class.

    Read by :mod:`battleline_lab.formats.settings` (``~`` expanded; one that cannot be raises its ``SettingError``).
    """
    from ..formats.settings import folder_setting

    return folder_setting(CLASS_DIR_VARIABLE)


def data_dir() -> Path:
    """Where battleline_lab keeps user data (see the module docstring).

    In a class (``$BATTLELINE_CLASS_DIR`` set, ``$BATTLELINE_LAB_DATA`` not): the learner's
    own subfolder of the class folder, ``CLASS_DIR/<learner>/``, which the teacher's
    ``battleline-lab report CLASS_DIR`` reads directly.  The settings are read by
    :mod:`battleline_lab.formats.settings`: a ``~`` that cannot be expanded raises its ``SettingError``.
    """
    from ..formats.settings import DATA_VARIABLE, XDG_DATA_VARIABLE, folder_setting

    explicit = folder_setting(DATA_VARIABLE)
    if explicit is not None:
        return explicit
    shared = class_dir()
    if shared is not None:
        return shared / _folder_name(class_learner())
    if sys.platform == "emscripten":
        return _browser_data_dir()
    xdg = folder_setting(XDG_DATA_VARIABLE)
    base = xdg if xdg is not None else Path.home() / ".local" / "share"
    return base / "battleline_lab"


@dataclass(frozen=True)
class Attempt:
    """One event of a learner with a puzzle.

    ``kind`` is ``answer`` (``correct`` says how it went), ``hint`` (one hint
    taken without answering), ``reveal`` (the solution shown before a right
    answer: a miss), ``reset`` (the learner started over; earlier rows are
    kept but no longer counted) or ``game`` (a game against a bot: ``puzzle_id``
    is ``game:<bot>``, ``answer`` the JSON ``{"bot", "score", "seed"}``, score 1 a
    win, 0.5 a draw, 0 a loss; no puzzle's record counts it, :func:`game_results` reads it).
    ``hints`` are the hints taken since the previous row of the same puzzle visit; ``answer`` is the answer as JSON
    text; ``reason``/``rule`` the engine's reason code and rule id (``R13``)
    behind a wrong answer; ``at`` seconds since the epoch; ``source`` who
    recorded it (``gym``, ``lesson``, ``import``...).
    """

    learner: str
    puzzle_id: str
    kind: str = "answer"
    correct: bool | None = None
    hints: int = 0
    seconds: float | None = None
    at: float = 0.0
    answer: str | None = None
    content_hash: str = ""
    reason: str | None = None
    rule: str | None = None
    source: str = ""

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON-ready dict (the export and the JSON-lines store use it)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Attempt:
        """A row from a dict, through :func:`check_row` (:class:`RowError`, a ValueError, if it is not one)."""
        return check_row(data)


#: The kinds of row there are (see :class:`Attempt`); a row of any other kind is refused.
KINDS = frozenset({"answer", "hint", "reveal", "reset", "game"})
#: The largest ``hints`` a row may say (hostile files say ``1e999`` or ``10**100``).
MAX_HINTS = 1000
#: Seconds spent on one puzzle, and a row's time stamp (seconds since the epoch), are at most this.
MAX_SECONDS = 1e11
#: The longest text a row's fields may hold (the answer: :data:`MAX_ANSWER`).
MAX_TEXT = 1000
MAX_ANSWER = 100_000
#: What no text of a row may hold: C0 and C1 control characters, DEL, and lone surrogates (which no
#: encoder writes: one such row in a store would make every later write fail).
_BAD_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class RowError(ValueError):
    """A row refused by :func:`check_row`: ``field`` (None: the row as a whole) and ``reason``; ``where`` and
    ``line`` locate it when it came from a file.  Refusing a row never changes where the store writes."""

    def __init__(
        self,
        field: str | None,
        reason: str,
        *,
        where: str | None = None,
        line: int | None = None,
        row: str | None = None,
    ) -> None:
        self.field = field
        self.reason = reason
        self.where = where
        self.line = line
        #: which row of a document (``attempts[3]``) when there is no line to name
        self.row = row
        super().__init__(str(self))

    def _what(self) -> str:
        from ..formats.safe_yaml import escape_control

        row = f"{self.row} " if self.row else ""
        field = f'"{self.field}"' if self.field else "the row"
        return escape_control(f"{row}{field}: {self.reason}")

    def __str__(self) -> str:
        from ..formats.safe_yaml import escape_control

        place = f"{escape_control(self.where)}:{self.line or 1}: " if self.where is not None else ""
        return f"{place}{self._what()}"

    def located(self, where: str | None, line: int | None = None, row: str | None = None) -> RowError:
        """The same refusal, located in a file (``line``: its line; ``row``: which row of a document)."""
        return RowError(self.field, self.reason, where=where, line=line, row=row or self.row)

    def warning(self) -> str:
        """The refusal as one located warning line: ``FILE:LINE:1: warning: a row was skipped (...)``."""
        from ..formats.safe_yaml import escape_control

        place = f"{escape_control(self.where or '<row>')}:{self.line or 1}:1"
        return f"{place}: warning: a row was skipped ({self._what()})"


#: The text fields of a row: (name, default when absent, may be null, longest allowed).
_TEXT_FIELDS: tuple[tuple[str, str | None, bool, int], ...] = (
    ("learner", None, False, MAX_TEXT),
    ("puzzle_id", None, False, MAX_TEXT),
    ("kind", "answer", False, MAX_TEXT),
    ("answer", None, True, MAX_ANSWER),
    ("content_hash", "", True, MAX_TEXT),
    ("reason", None, True, MAX_TEXT),
    ("rule", None, True, MAX_TEXT),
    ("source", "", True, MAX_TEXT),
)


def _check_text(name: str, value: str, limit: int) -> None:
    if len(value) > limit:
        raise RowError(name, f"is {len(value)} characters long (at most {limit})")
    bad = _BAD_TEXT.search(value)
    if bad is not None:
        char = bad.group()
        kind = "a lone surrogate" if "\ud800" <= char <= "\udfff" else "a control character"
        raise RowError(name, f"holds {kind} (U+{ord(char):04X}) at character {bad.start() + 1}")


def _texts(data: dict[str, Any]) -> dict[str, str | None]:
    """The row's text fields, checked: text (or null where allowed), bounded, no control character or surrogate."""
    out: dict[str, str | None] = {}
    for name, default, optional, _limit in _TEXT_FIELDS:
        value = data.get(name, default)
        if value is None:
            if not optional:
                raise RowError(name, "is missing (text is needed)")
        elif type(value) is not str:
            raise RowError(name, f"is {type(value).__name__}, not text")
        out[name] = value
    joined = "".join(v for v in out.values() if v)  # one search for the usual, clean row
    if _BAD_TEXT.search(joined) or len(joined) > MAX_TEXT:
        for name, _default, _optional, limit in _TEXT_FIELDS:
            value = out[name]
            if value:
                _check_text(name, value, limit)
    return out


def _answer_strings(value: Any, depth: int = 0) -> Iterable[str]:
    """Every string inside a decoded answer (keys included)."""
    if depth > 50:
        raise RowError("answer", "is nested too deeply")
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _answer_strings(item, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _answer_strings(item, depth + 1)


def _number(value: Any, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RowError(name, f"is {type(value).__name__}, not a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise RowError(name, "is not a finite number")
    if not low <= value <= high:  # an int is compared as an int: a 400-digit one is refused, never overflows
        raise RowError(name, f"is out of range ({low:g} to {high:g})")
    return float(value)


def check_row(data: Any, *, where: str | None = None, line: int | None = None) -> Attempt:
    """The one gate into a store: the :class:`Attempt` of ``data`` (a dict or an Attempt), or :class:`RowError`.

    Every row passes here, whatever its source (an answer in a widget, "Load progress", a file
    read back, an export for ``report``): text is valid Unicode without control characters and
    of a bounded length, numbers are finite and in range, the kind is one of :data:`KINDS`,
    ``correct`` is true, false or null.  ``where``/``line`` locate the error (a file and its line).

    >>> check_row({"learner": "me", "puzzle_id": "w1", "answer": "true"}).kind
    'answer'
    >>> check_row({"learner": "me", "puzzle_id": "w\\ud800"}, where="p.jsonl", line=3)
    Traceback (most recent call last):
    ...
    battleline_lab.training.progress.RowError: p.jsonl:3: "puzzle_id": holds a lone surrogate (U+D800) at character 2
    """
    try:
        if isinstance(data, Attempt):
            data = dict(vars(data))  # its fields, as to_json gives them (asdict copies deeply, and slowly)
        if not isinstance(data, dict):
            raise RowError(None, f"is {type(data).__name__}, not an object")
        texts = _texts(data)
        kind = texts["kind"]
        if kind not in KINDS:
            raise RowError("kind", f"{str(kind)[:40]!r} is not a kind of row ({', '.join(sorted(KINDS))})")
        correct = data.get("correct")
        if correct is not None and type(correct) is not bool:
            if type(correct) is int and correct in (0, 1):  # SQLite keeps booleans as 0 and 1
                correct = bool(correct)
            else:
                raise RowError("correct", f"is {type(correct).__name__}, not true, false or null")
        hints = data.get("hints", 0)
        if type(hints) is not int:
            raise RowError("hints", f"is {type(hints).__name__}, not a whole number")
        if not 0 <= hints <= MAX_HINTS:
            raise RowError("hints", f"is out of range (0 to {MAX_HINTS})")
        answer = texts["answer"]
        if answer is not None and "\\" in answer:  # an escape may spell what the raw text may not hold
            try:
                decoded = json.loads(answer)
            except (ValueError, RecursionError):
                decoded = None
            for text in _answer_strings(decoded):
                _check_text("answer", text, MAX_ANSWER)
        seconds = data.get("seconds")
        return Attempt(
            learner=texts["learner"] or "",
            puzzle_id=texts["puzzle_id"] or "",
            kind=kind or "answer",
            correct=correct,
            hints=hints,
            seconds=None if seconds is None else _number(seconds, "seconds", 0, MAX_SECONDS),
            at=_number(data.get("at", 0.0), "at", -MAX_SECONDS, MAX_SECONDS),
            answer=answer,
            content_hash=texts["content_hash"] or "",
            reason=texts["reason"],
            rule=texts["rule"],
            source=texts["source"] or "",
        )
    except RowError as err:
        raise err.located(where, line) if where is not None else err from None
    except RecursionError:
        raise RowError(None, "is nested too deeply", where=where, line=line) from None


def _small_int(value: Any) -> int:
    """A non-negative count, capped (hostile files say ``1e999`` or ``10**100``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    if isinstance(value, float) and not math.isfinite(value):
        return _IMPORT_CAP
    return max(0, min(int(value), _IMPORT_CAP))


_COLUMNS = tuple(f.name for f in fields(Attempt))


class AttemptStore(Protocol):
    """Where attempts are kept: add rows, read them back.  Back ends must never lose an added row."""

    #: where the rows are (a path, or a description such as ``memory``)
    where: str

    def add(self, attempt: Attempt) -> None:
        """Append one row."""

    def rows(self, learner: str | None = None) -> list[Attempt]:
        """Every row (of one learner), in the order they were added (never by their clock time), resets included."""
        ...


#: Where a reader of a store has got to (:meth:`Progress.attempts_since`): a row id, a byte offset, a count.
Cursor = int


def rows_after(store: AttemptStore, learner: str | None, cursor: Cursor) -> tuple[list[Attempt], Cursor]:
    """The rows (of one learner) added to ``store`` since ``cursor`` (0: from the start), and the new cursor.

    A store with its own ``rows_after`` (SQLite: by row id; JSON lines: by byte offset; memory: by
    index) reads only the new rows; any other store is read whole and the cursor counts its rows.
    """
    own = getattr(store, "rows_after", None)
    if own is not None:
        found: tuple[list[Attempt], Cursor] = own(learner, cursor)
        return found
    rows = store.rows(learner)
    return rows[cursor:], len(rows)


def current(rows: Sequence[Attempt]) -> list[Attempt]:
    """The rows after the last ``reset`` (of the same learner), resets left out, in insertion order.

    Rows are never sorted by their time stamps: a clock that ran ahead or stepped back
    must neither hide later answers behind a reset nor make a retry look like a first answer.

    >>> a = [Attempt("me", "x"), Attempt("me", "", kind="reset", at=9e9), Attempt("me", "y", at=1)]
    >>> [r.puzzle_id for r in current(a)]
    ['y']
    """
    last_reset: dict[str, int] = {}
    for index, row in enumerate(rows):
        if row.kind == "reset":
            last_reset[row.learner] = index
    return [r for i, r in enumerate(rows) if r.kind != "reset" and i > last_reset.get(r.learner, -1)]


class MemoryStore:
    """Rows in a list: nothing survives the kernel (the fallback when nothing can be written)."""

    def __init__(self, where: str = "memory") -> None:
        self.where = where
        self._rows: list[Attempt] = []
        #: rows of the file these rows were read from that :func:`check_row` refused (skipped, located)
        self.refused: list[RowError] = []

    def add(self, attempt: Attempt) -> None:
        self._rows.append(check_row(attempt))

    def rows(self, learner: str | None = None) -> list[Attempt]:
        return [r for r in self._rows if learner is None or r.learner == learner]

    def rows_after(self, learner: str | None, cursor: Cursor) -> tuple[list[Attempt], Cursor]:
        """The rows added since ``cursor`` (an index into all rows)."""
        new = self._rows[cursor:]
        return [r for r in new if learner is None or r.learner == learner], len(self._rows)


class JsonLinesStore:
    """Rows appended to a text file, one JSON object a line (for Pyodide, where ``sqlite3`` is missing).

    Each row is one ``write`` of one line to a file opened for appending, so
    writers append rather than overwrite.  A row always starts on a line of its own:
    if the file does not end with a newline (a torn last line, after a crash or a full
    disk), the row's write starts with one, so the torn line never swallows it.  A line
    that does not parse (a torn write, a hand edit) is skipped when reading, the rest is
    kept, and its line number is in :attr:`damaged`; :class:`Progress`, opening the store,
    sets such lines aside (:meth:`set_aside_damaged`: the file as it was copied under a new
    name, the lines blanked) and warns once, located.
    ``read_only`` (``progress export``): the file must exist; nothing is created or written.
    """

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self.where = str(path)
        self.read_only = read_only
        #: 1-based numbers of the lines that did not parse, found by the last full read
        self.damaged: list[int] = []
        #: why each of those lines was refused (located :class:`RowError`), found by the last full read
        self.refused: list[RowError] = []
        if not read_only:
            path.parent.mkdir(parents=True, exist_ok=True)
            os.close(_open_regular(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT))  # never blocks on a FIFO

    def add(self, attempt: Attempt) -> None:
        attempt = check_row(attempt)  # a refused row raises RowError before anything is written
        if self.read_only:
            raise OSError(f"{self.path}: opened read-only")
        line = (json.dumps(attempt.to_json(), ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")
        fd = _open_regular(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT)
        try:
            size = os.fstat(fd).st_size
            if size and _last_byte(fd, self.path, size) != b"\n":
                line = b"\n" + line  # the last line is torn: this row starts on a line of its own
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)

    def _read(self, start: int) -> tuple[bytes, int]:
        with os.fdopen(_open_regular(self.path, os.O_RDONLY), "rb") as file:
            file.seek(start)
            data = file.read()
        end = data.rfind(b"\n") + 1  # a last line without its newline may still be being written
        return data[:end], start + end

    def rows(self, learner: str | None = None) -> list[Attempt]:
        data, _ = self._read(0)
        out, self.refused = self._parse(data, learner, 1)
        self.damaged = [err.line or 1 for err in self.refused]
        return out

    def rows_after(self, learner: str | None, cursor: Cursor) -> tuple[list[Attempt], Cursor]:
        """The rows of the complete lines after byte ``cursor``, and the offset after them."""
        data, end = self._read(cursor)
        out, _ = self._parse(data, learner, 1 if cursor == 0 else 0)
        return out, end

    def _parse(self, data: bytes, learner: str | None, first_line: int) -> tuple[list[Attempt], list[RowError]]:
        """The rows of ``data`` and the refusals of its damaged lines (``first_line`` 0: not the file's start,
        so line numbers are not known)."""
        out, refused = [], []
        for number, raw in enumerate(data.split(b"\n"), start=first_line):
            row = _row(raw, self.where, number, first=first_line == 1 and number == 1)
            if row is None:
                continue
            if isinstance(row, RowError):
                refused.append(row)
                continue
            if learner is None or row.learner == learner:
                out.append(row)
        return out, refused

    def set_aside_damaged(self) -> SetAside | None:
        """Set the lines that do not parse aside, so that they are never silently lost or read again.

        The whole file as it is now is copied to a new name beside it
        (``progress.jsonl.damaged-TIME``, never over an older one), then each damaged line of the
        store is overwritten in place with spaces (a blank line, which reading skips): the store
        keeps its size and every other row at its byte offset, so another tab's trainer, which
        reads on from an offset, reads on correctly.  A last line without its newline may still
        be being written and is left alone.  Returns None if no line was damaged, or if the file
        changed while this ran (then nothing is overwritten; the lines are set aside next time).
        Raises OSError if the copy cannot be written (then the store is left as it was).
        """
        if self.read_only:
            return None
        with os.fdopen(_open_regular(self.path, os.O_RDONLY), "rb") as file:
            whole = file.read()
        complete = whole[: whole.rfind(b"\n") + 1]
        spans, kept, lines, start = [], 0, [], 0
        for number, raw in enumerate(complete.split(b"\n")[:-1], start=1):
            row = _row(raw, self.where, number, first=number == 1)
            if isinstance(row, Attempt):
                kept += 1
            elif row is not None:
                spans.append((start, len(raw)))
                lines.append(number)
            start += len(raw) + 1
        if not spans:
            return None
        aside = _unique_aside(self.path, "damaged")
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        try:
            view = memoryview(whole)
            while view:
                view = view[os.write(fd, view) :]
            _fsync(fd)
        finally:
            os.close(fd)
        fd = _open_regular(self.path, os.O_RDWR)
        try:
            if os.read(fd, len(complete) + 1)[: len(complete)] != complete:
                return None  # rewritten meanwhile (not appended to): leave it, the copy is kept
            for offset, length in spans:
                os.lseek(fd, offset, os.SEEK_SET)
                os.write(fd, b" " * length)
            _fsync(fd)
        finally:
            os.close(fd)
        self.damaged, self.refused = [], []
        return SetAside(self.where, str(aside), tuple(lines), kept)


@dataclass(frozen=True)
class SetAside:
    """Damaged lines of a JSON-lines store, set aside when it was opened (:meth:`JsonLinesStore.set_aside_damaged`).

    ``where``: the store; ``aside``: the copy of the whole file as it was (nothing deleted);
    ``lines``: the 1-based numbers of the damaged lines (now blank in the store); ``kept``: how
    many rows did read, and are still in the store.
    """

    where: str
    aside: str
    lines: tuple[int, ...]
    kept: int

    @property
    def shown_aside(self) -> str:
        """The copy's name as a learner finds it: in the browser, the path in JupyterLite's file browser.

        >>> SetAside("/drive/d/p.jsonl", "/drive/d/p.jsonl.damaged-1", (1,), 0).shown_aside
        'd/p.jsonl.damaged-1'
        """
        path = Path(self.aside)
        return path.relative_to(BROWSER_DRIVE).as_posix() if BROWSER_DRIVE in path.parents else self.aside


#: A UTF-8 byte order mark, which some editors put at the start of a file: read past, never a damaged row.
_BOM = b"\xef\xbb\xbf"


def _row(raw: bytes, where: str, line: int, *, first: bool = False) -> Attempt | RowError | None:
    """The row of one line of a JSON-lines store (through :func:`check_row`), None for a blank line, or the
    located :class:`RowError` of a damaged one.  ``first``: the file's first line (a byte order mark is skipped)."""
    if first and raw.startswith(_BOM):
        raw = raw[len(_BOM) :]
    if not raw.strip():
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return RowError(None, f"is not UTF-8 ({err.reason} at byte {err.start + 1})", where=where, line=line)
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as err:
        reason = err.msg if isinstance(err, json.JSONDecodeError) else type(err).__name__
        return RowError(None, f"is not JSON ({str(reason)[:80]})", where=where, line=line)
    try:
        return check_row(data, where=where, line=line)
    except RowError as err:
        return err


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _fsync(fd: int) -> None:
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - a file system without fsync (some in-browser ones)
        pass


def _open_regular(path: Path, flags: int) -> int:
    """A descriptor of ``path`` if it is a regular file (opened without blocking; a FIFO or a device is refused)."""
    from ..formats.files import NotRegularFileError, _kind

    plain = flags | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, plain | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0), 0o666)
    except OSError as err:  # a file system without these flags (some in-browser ones): check first, then open
        if err.errno not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
            raise
        if os.path.exists(path) and not os.path.isfile(path):
            raise NotRegularFileError(str(path), _kind(os.stat(path).st_mode)) from None
        fd = os.open(path, plain, 0o666)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotRegularFileError(str(path), _kind(mode))
    return fd  # O_NONBLOCK changes nothing for a regular file's reads and writes


def _last_byte(fd: int, path: Path, size: int) -> bytes:
    """The last byte of a file of ``size`` bytes (by ``os.pread``, or a second descriptor where it is missing)."""
    if hasattr(os, "pread"):
        try:
            return os.pread(fd, 1, size - 1)
        except OSError:  # pragma: no cover - a file system without pread (some in-browser ones)
            pass
    with open(path, "rb") as file:  # pragma: no cover - platforms without pread
        file.seek(size - 1)
        return file.read(1)


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


def _checked(found: Iterable[Sequence[Any]], where: str) -> tuple[list[Attempt], list[RowError]]:
    """The rows of ``(id, *columns)`` tuples read from a database, through :func:`check_row`, and the refused
    ones (located by their row id)."""
    rows: list[Attempt] = []
    refused: list[RowError] = []
    for row in found:
        try:
            rows.append(check_row(dict(zip(_COLUMNS, row[1:])), where=where, line=int(row[0])))
        except RowError as err:
            refused.append(err)
    return rows, refused


def _db_value(value: object) -> object:
    return int(value) if isinstance(value, bool) else value


def _unique_aside(path: Path, label: str) -> Path:
    """A name beside ``path`` that no file has yet: ``NAME.LABEL-TIME[-N]``."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1000):
        candidate = path.with_name(f"{path.name}.{label}-{stamp}" + (f"-{n}" if n else ""))
        if not candidate.exists() and not candidate.is_symlink():
            return candidate
    raise OSError(f"no free name beside {path}")  # pragma: no cover


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
            from ..formats.files import NotRegularFileError, _kind

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


def skipped_warning(refused: Sequence[RowError]) -> str | None:
    """One located warning for rows skipped while reading (the first one named, and how many in all), or None.

    >>> print(skipped_warning([RowError("kind", "is unknown", where="p.jsonl", line=2)] * 2))
    p.jsonl:2:1: warning: a row was skipped ("kind": is unknown); 2 rows were skipped in all
    """
    if not refused:
        return None
    more = f"; {len(refused)} rows were skipped in all" if len(refused) > 1 else ""
    return refused[0].warning() + more


def _disk_error(err: BaseException) -> bool:
    """Whether a failed write is the disk's doing (full, read-only, gone, locked), which is what moves a
    session's progress to memory; anything else (a refused row, a bug) is not."""
    if isinstance(err, OSError):
        return True
    sqlite3 = sys.modules.get("sqlite3")
    return sqlite3 is not None and isinstance(err, sqlite3.OperationalError)


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
    from ..formats.files import NotRegularFileError, _kind, describe

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
        from ..formats.files import FileTooBigError, read_regular

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
            found = db.execute(f"SELECT id, {', '.join(_COLUMNS)} FROM attempts ORDER BY id").fetchall()
        finally:
            db.close()
        return _checked(found, where)
    except sqlite3.Error as err:
        raise StoreError(where, f"not a readable progress database ({err})") from None
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)


def legacy_attempts(text: str, learner: str, *, at: float) -> list[Attempt]:
    """Rows for an old ``progress.json`` (``{"puzzles": {id: {solved, attempts, hints}}}``).

    Anything odd (not JSON, ``1e999``, deep nesting, wrong types) is skipped,
    record by record, never raised.

    >>> [(a.kind, a.correct, a.hints) for a in legacy_attempts(
    ...     '{"puzzles": {"p": {"solved": true, "attempts": 2, "hints": 1}}}', "me", at=0)]
    [('answer', False, 1), ('answer', True, 0)]
    >>> legacy_attempts('{"puzzles": {"p": {"attempts": 1e999}}}', "me", at=0)[0].kind
    'answer'
    >>> legacy_attempts("[" * 100000, "me", at=0)
    []
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return []
    puzzles = data.get("puzzles") if isinstance(data, dict) else None
    if not isinstance(puzzles, dict):
        return []
    out: list[Attempt] = []
    for pid, record in sorted(puzzles.items()):
        if not isinstance(record, dict) or _BAD_TEXT.search(pid) or len(pid) > MAX_TEXT:
            continue
        solved = record.get("solved") is True
        attempts = _small_int(record.get("attempts", 0))
        hints = _small_int(record.get("hints", 0))
        if solved:
            attempts = max(attempts, 1)
        for n in range(attempts):
            last = n == attempts - 1
            out.append(
                Attempt(
                    learner,
                    str(pid),
                    "answer",
                    correct=solved and last,
                    hints=hints if n == 0 else 0,
                    at=at,
                    source="import",
                )
            )
        if not attempts and hints:
            out.append(Attempt(learner, str(pid), "hint", hints=hints, at=at, source="import"))
    return out


#: The kind of a row that records a game against a bot (see :class:`Attempt`).
GAME_KIND = "game"


@dataclass(frozen=True)
class GameResult:
    """One game of the learner against a bot: its name, the learner's score (1, 0.5 or 0), when."""

    bot: str
    score: float
    seed: int | None = None
    at: float = 0.0


def game_results(rows: Iterable[Attempt]) -> list[GameResult]:
    """The games among ``rows`` (after the last reset, as :meth:`Progress.attempts` gives them), oldest
    first; a game row that cannot be read is skipped (the other rows are kept).

    >>> rows = [Attempt("me", "w1"), Attempt("me", "game:expert", GAME_KIND, correct=True, at=3.0,
    ...          answer='{"bot": "expert", "score": 1.0, "seed": 7}'), Attempt("me", "game:x", GAME_KIND, answer="[")]
    >>> game_results(rows)
    [GameResult(bot='expert', score=1.0, seed=7, at=3.0)]
    """
    out: list[GameResult] = []
    for row in rows:
        if row.kind != GAME_KIND or row.answer is None:
            continue
        try:
            data = json.loads(row.answer)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        bot, score, seed = data.get("bot"), data.get("score"), data.get("seed")
        if not isinstance(bot, str) or score not in (0, 0.5, 1) or isinstance(score, bool):
            continue
        out.append(GameResult(bot, float(score), seed if type(seed) is int else None, row.at))
    return out


@dataclass(frozen=True)
class PuzzleRecord:
    """One puzzle's record: solved yet, answers given, hints taken."""

    solved: bool = False
    attempts: int = 0
    hints: int = 0


def records(rows: Iterable[Attempt]) -> dict[str, PuzzleRecord]:
    """Per puzzle id: solved, answers, hints, from rows (after the last reset)."""
    out: dict[str, PuzzleRecord] = {}
    for row in rows:
        if row.kind == GAME_KIND:
            continue
        rec = out.get(row.puzzle_id, PuzzleRecord())
        answered = row.kind == "answer"
        out[row.puzzle_id] = PuzzleRecord(
            solved=rec.solved or (answered and bool(row.correct)),
            attempts=rec.attempts + answered,
            hints=rec.hints + row.hints,
        )
    return out


@dataclass
class Progress:
    """One learner's progress in a store: the old ``Progress(path)`` interface over attempt rows.

    ``path`` is a data folder, a database file, or (as before) a
    ``progress.json`` path: then the database sits beside it and the JSON file
    is imported once.  Without a path, the user's data folder.  ``problem``
    holds the warning given if the store is not the one asked for.
    """

    path: Path | str | None = None
    learner: str = DEFAULT_LEARNER
    store: AttemptStore | None = None
    problem: str | None = field(default=None, init=False)
    #: the damaged lines of a JSON-lines store set aside when it was opened (None: none were)
    set_aside: SetAside | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.store is not None:
            return
        from ..formats.settings import SettingError

        try:
            folder, database, legacy = _locate(self.path)
        except SettingError as err:  # a setting that names no folder: answers kept in memory, and said
            self.store, self.problem = MemoryStore(), str(err)
            warnings.warn(self.problem, ProgressWarning, stacklevel=3)
            return
        self.store, self.problem = open_store(folder, database=database)
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
            return rows_after(self._store(), self.learner, cursor)
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
        elif store is not None and not any(r.source == "import" for r in store.rows(self.learner)):
            for row in rows:
                store.add(row)

    def _store(self) -> AttemptStore:
        assert self.store is not None
        return self.store

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
            return current(self._store().rows(self.learner))
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
            )
        )

    def record_hint(self, puzzle_id: str, *, content_hash: str = "", source: str = "") -> None:
        """Record one hint taken (not followed by an answer yet)."""
        self.add(
            Attempt(self.learner, puzzle_id, "hint", hints=1, at=time.time(), content_hash=content_hash, source=source)
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
                self.learner, f"game:{bot}", GAME_KIND, correct=correct, at=time.time(), answer=answer, source=source
            )
        )

    def games(self) -> list[GameResult]:
        """This learner's games against bots since the last reset, oldest first."""
        return game_results(self.attempts())

    def solved(self, puzzle_ids: Iterable[str]) -> int:
        """How many of these puzzles are solved."""
        recs = self.records()
        return sum(1 for pid in puzzle_ids if pid in recs and recs[pid].solved)

    def reset(self) -> None:
        """Start over: a ``reset`` row hides the earlier ones (they stay in the database, for the record)."""
        self.add(Attempt(self.learner, "", "reset", at=time.time()))

    def __repr__(self) -> str:
        recs = self.records()
        return f"<Progress {len(recs)} puzzles, {sum(r.solved for r in recs.values())} solved>"


def review_dir(path: Path | str | None = None) -> Path:
    """Where the puzzles of the learner's game reviews are kept: ``review/`` in the data folder.

    ``path`` is what :class:`Progress` takes (a data folder, a database or a
    ``progress.json`` file; ``None``: the user's data folder).  The game's
    "Review this game" saves there (:func:`battleline_lab.game.review.save_for_learner`)
    and the trainer reads from there; this function is the one place the two agree on.

    >>> review_dir("/data/progress.sqlite3").as_posix(), review_dir("/data").as_posix()
    ('/data/review', '/data/review')
    """
    return _locate(path)[0] / REVIEW_FOLDER


def _locate(path: Path | str | None) -> tuple[Path, Path | None, Path | None]:
    """The folder, database file (None: the default name) and legacy JSON file for a ``Progress`` path."""
    if path is None:
        folder = data_dir()
        return folder, None, folder / LEGACY_FILE
    p = Path(path)
    if p.suffix == ".json":
        return p.parent, p.with_name(p.stem + ".sqlite3") if _sqlite_available() else p.with_suffix(".jsonl"), p
    if p.is_dir() or not p.suffix:
        return p, None, p / LEGACY_FILE
    return p.parent, p, None


# -- moving progress between browsers (the gym's "Save my progress" / "Load progress") -----------

#: The ``format`` of a progress export (``battleline-lab progress export``, the gym's download).
EXPORT_FORMAT = "battleline-lab-progress"


def in_browser() -> bool:
    """True in Pyodide (JupyterLite): the learner's data is in the browser's storage."""
    return sys.platform == "emscripten"


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


def export_filename(learner: str) -> str:
    """The download's file name: ``battleline-progress-<learner>.json`` (safe characters only)."""
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in learner).strip("-") or DEFAULT_LEARNER
    return f"battleline-progress-{safe}.json"


def _answer_text(value: Any) -> str | None:
    """An export's answer (JSON-decoded there) as the store keeps it: JSON text."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            json.loads(value)
            return value
        except ValueError:
            pass
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def export_attempts(
    document: Any, learner: str | None = None, *, where: str | None = None
) -> tuple[list[Attempt], list[RowError]]:
    """The rows of an export document's ``attempts`` through :func:`check_row`, and the refused ones (each
    located as ``attempts[N]`` of ``where``).  ``learner``: whose rows they become (default: the
    document's ``learner``); an ``answer`` that is not JSON text is kept as JSON text.

    >>> rows, refused = export_attempts({"learner": "ann", "attempts": [{"puzzle_id": "w1"}, {"kind": "x"}]})
    >>> [(r.learner, r.puzzle_id, r.kind) for r in rows], [e.row for e in refused]
    ([('ann', 'w1', 'answer')], ['attempts[1]'])
    """
    if learner is None:
        learner = str(document.get("learner")) if isinstance(document, dict) else DEFAULT_LEARNER
    found = document.get("attempts") if isinstance(document, dict) else None
    rows: list[Attempt] = []
    refused: list[RowError] = []
    for number, data in enumerate(found if isinstance(found, list) else []):
        try:
            if not isinstance(data, dict):
                raise RowError(None, f"is {type(data).__name__}, not an object")
            try:
                answer = _answer_text(data.get("answer"))
            except (ValueError, TypeError, RecursionError):
                raise RowError("answer", "is not JSON that can be kept") from None
            rows.append(check_row({**data, "learner": learner, "answer": answer}))
        except RowError as err:
            refused.append(err.located(where, None, f"attempts[{number}]"))
    return rows, refused


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
    checked, bad = export_attempts(document, progress.learner, where=where)
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
