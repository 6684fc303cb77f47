"""The JSON-lines store: one JSON object a line, appended (Pyodide/JupyterLite, where SQLite has no WAL).

Damaged lines (a torn write, a hand edit) are skipped when reading and set aside when the store is
opened (:meth:`JsonLinesStore.set_aside_damaged`, :class:`SetAside`); only regular files are opened
(:func:`_open_regular`: never a FIFO or a device).
"""

from __future__ import annotations

import errno
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...formats.files import write_bytes
from .base import Cursor, _unique_aside
from .folders import BROWSER_DRIVE
from .rows import Attempt, RowError, check_row

__all__ = ["JSONL_FILE", "JsonLinesStore", "SetAside"]

JSONL_FILE = "progress.jsonl"


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
            write_bytes(fd, line)
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
            write_bytes(fd, whole)
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
    from ...formats.files import NotRegularFileError, _kind

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
