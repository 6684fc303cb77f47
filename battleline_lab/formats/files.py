"""Reading inputs and writing outputs safely: the one place every command opens a file.

Two rules, shared by every command and tool that touches the disk:

**Reading** (:func:`read_regular`): only a *regular* file is read.  A FIFO, a
device, a socket or a folder given where a file is due is refused at once with
:class:`NotRegularFileError` (the file is opened with ``O_NONBLOCK`` and the
*opened* descriptor is checked with ``fstat``, so a FIFO never blocks and a file
swapped between a check and the open is still caught).  At most ``limit`` bytes
are read (:class:`FileTooBigError` past it); an empty path is an error, never
"the current folder".

**Writing** (:func:`write_new`): an output is

* never written over an *input* of the same command (``inputs=``; the same file
  is recognised by device and inode, so a hard link or another spelling of the
  path is caught too), not even with ``force=True``: :class:`SameAsInputError`;
* never written over an existing file unless ``force=True``:
  :class:`OutputExistsError`;
* never written through a symbolic link, not even with ``force=True`` (a link
  planted where an output goes would let the command replace whatever it points
  at): :class:`SymlinkError`, dangling links included;
* never anything but a regular file: an empty path, a folder, a device such as
  ``/dev/full``, a FIFO is refused as an *output* (:class:`NotAnOutputError`,
  worded as an output, not as an input that cannot be read);
* written atomically: the text is encoded first (:class:`UnencodableError`
  before anything is touched), written to a temporary file in the same folder,
  flushed and ``fsync``-ed, then renamed into place, so a failure leaves the old
  file (or no file) exactly as it was.  The rename replaces the directory entry
  itself, so a link planted between the check and the rename is replaced, never
  followed.

Every file the program writes goes through :func:`write_new` or :func:`write_all`
(the page a command writes and its side files alike, such as the report's sorting
script); ``tests/test_writer.py`` watches every command's writes to keep it so.

Several outputs that belong together (a worksheet and its key, the puzzles of a
review or of ``generate``) are written by :func:`write_all`: every one checked
first, every text in a temporary file, then all moved into place, and on any
failure none replaced (the moves already made are undone).

Every problem is an :class:`OSError` subclass (:class:`FileProblem`), so
``except OSError`` keeps working; :func:`describe` words any of them (and any
other ``OSError``) in the user's language for a ``FILE:1:1: error: ...`` line.
To wire a new output (``review --out``, ``worksheet --out``, an export, ...)::

    parser.add_argument("--force", action="store_true", help=message("files.force_help", lang))
    ...
    try:
        write_new(args.out, text, force=args.force, inputs=[args.file])
    except OSError as err:
        print(Diagnostic(args.out, 1, 1, describe(err, lang)), file=sys.stderr)
        return 2

Call :func:`check_new` before a long computation to refuse early (it makes the
same checks as :func:`write_new`, which checks again when it writes).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_new(folder / "a.txt", "one\\n")
>>> write_new(folder / "a.txt", "two\\n")
Traceback (most recent call last):
...
battleline_lab.formats.files.OutputExistsError: ...a.txt: exists
>>> write_new(folder / "a.txt", "two\\n", force=True); (folder / "a.txt").read_text()
'two\\n'
>>> write_new(folder / "b.txt", "x", inputs=[folder / "a.txt"]); read_regular(folder / "b.txt")
b'x'
>>> read_regular(folder)
Traceback (most recent call last):
...
battleline_lab.formats.files.NotRegularFileError: ...: a folder, not a file
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from typing import Literal

__all__ = [
    "MAX_BYTES",
    "FileProblem",
    "FileTooBigError",
    "NotRegularFileError",
    "NotAnOutputError",
    "OutputExistsError",
    "SameAsInputError",
    "SymlinkError",
    "UnencodableError",
    "check_new",
    "check_out_folder",
    "describe",
    "holds_exactly",
    "output_name",
    "read_regular",
    "write_all",
    "write_bytes",
    "write_new",
]

#: The default read limit: puzzle files and game records are limited to 1 MiB.
MAX_BYTES = 1 << 20

PathLike = str | os.PathLike[str]


class FileTooBigError(ValueError):
    """A file or text over the limit; ``size`` is what was measured, ``limit`` the limit."""

    def __init__(self, size: int, limit: int = MAX_BYTES) -> None:
        super().__init__(f"{size} bytes (limit {limit})")
        self.size = size
        self.limit = limit


class FileProblem(OSError):
    """A file this module refuses to read or write; ``code`` names the rule (a catalogue key ``files.<code>``)."""

    code = "problem"
    text = "refused"

    def __init__(self, filename: str, detail: str = "") -> None:
        super().__init__(f"{filename}: {detail or self.text}")
        self.filename = filename
        self.strerror = detail or self.text

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


NotRegularKind = Literal["folder", "fifo", "device", "socket", "special", "empty_path", "file"]


class NotRegularFileError(FileProblem):
    """A path that is not a regular file: ``kind`` is folder, fifo, device, socket, other or empty_path."""

    code = "not_regular"
    _TEXT = {
        "folder": "a folder, not a file",
        "fifo": "a pipe (FIFO), not a file",
        "device": "a device, not a file",
        "socket": "a socket, not a file",
        "special": "not a regular file",
        "empty_path": "an empty path",
        "file": "a file, not a folder",
    }

    def __init__(self, filename: str, kind: NotRegularKind) -> None:
        super().__init__(filename, self._TEXT[kind])
        self.kind = kind


class NotAnOutputError(NotRegularFileError):
    """An output path that is not (and cannot become) a regular file; worded as an output, not as an input."""

    code = "not_output"

    def __init__(self, filename: str, kind: NotRegularKind) -> None:
        super().__init__(filename, kind)
        self.strerror = f"{self._TEXT[kind]}: not written"


class SymlinkError(FileProblem):
    """The output is a symbolic link (even a dangling one): never written through, not even with force."""

    code = "symlink"
    text = "is a symbolic link: not written through"


class OutputExistsError(FileProblem, FileExistsError):
    """The output exists and ``force`` was not given (also a :class:`FileExistsError`)."""

    code = "exists"
    text = "exists"


class SameAsInputError(FileProblem):
    """The output is one of the command's inputs (same device and inode): never written, even with force."""

    code = "same_as_input"
    text = "is an input file"


class UnencodableError(FileProblem):
    """The text cannot be encoded (a lone surrogate, ...): nothing was written."""

    code = "unencodable"
    text = "text cannot be encoded"


def _kind(mode: int) -> NotRegularKind:
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special"


def read_regular(path: PathLike, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; never blocks, never reads past ``limit + 1``.

    Raises :class:`NotRegularFileError`, :class:`FileTooBigError` (``size``: the
    file's size) and :class:`OSError` (missing file, no permission, ...).
    """
    name = os.fspath(path)
    if name == "":
        raise NotRegularFileError(name, "empty_path")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(name, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFileError(name, _kind(info.st_mode))
        if info.st_size > limit:
            raise FileTooBigError(info.st_size, limit)
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:  # the file grew since it was measured
        raise FileTooBigError(len(data), limit)
    return data


def _same_file(a: str, b: PathLike) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def check_new(path: PathLike, *, force: bool = False, inputs: Iterable[PathLike] = ()) -> None:
    """Raise what :func:`write_new` would raise for ``path`` before writing (nothing is written).

    :class:`SameAsInputError` if ``path`` is one of ``inputs``; :class:`NotAnOutputError`
    if it is empty or names a folder or any other non-file; :class:`SymlinkError` if it is
    a symbolic link; :class:`OutputExistsError` if it exists and not ``force``.
    """
    name = os.fspath(path)
    if name == "":
        raise NotAnOutputError(name, "empty_path")
    for source in inputs:
        if _same_file(name, source):
            raise SameAsInputError(name)
    if name.endswith(("/", os.sep)) and not os.path.isdir(name):
        raise NotAnOutputError(name, "folder")  # "out/" names a folder even before it exists
    try:
        info = os.lstat(name)
    except FileNotFoundError:
        return
    except OSError:
        return  # a parent that is no folder, no permission: the write itself says why
    if stat.S_ISLNK(info.st_mode):
        raise SymlinkError(name)
    if not stat.S_ISREG(info.st_mode):
        raise NotAnOutputError(name, _kind(info.st_mode))
    if not force:
        raise OutputExistsError(name)


def check_out_folder(path: PathLike) -> None:
    """Refuse a folder given for a command's outputs (``generate --out``, ``review --out``, ``match --records``).

    :class:`NotAnOutputError` if it is empty (never "the current folder") or names something that
    exists and is not a folder (``/dev/full``, a file); a folder that does not exist yet is fine.
    The files written into it are checked one by one by :func:`write_new` / :func:`write_all`.
    """
    name = os.fspath(path)
    if name == "":
        raise NotAnOutputError(name, "empty_path")
    try:
        mode = os.stat(name).st_mode
    except OSError:
        return
    if not stat.S_ISDIR(mode):
        raise NotAnOutputError(name, "file" if stat.S_ISREG(mode) else _kind(mode))


def _new_file_mode() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_new(
    path: PathLike,
    data: str | bytes,
    *,
    force: bool = False,
    inputs: Iterable[PathLike] = (),
    encoding: str = "utf-8",
) -> None:
    """Write ``data`` to ``path`` atomically, by the rules in the module doc (text is encoded with ``encoding``).

    Raises :class:`SameAsInputError`, :class:`OutputExistsError`,
    :class:`NotRegularFileError`, :class:`UnencodableError` or another
    :class:`OSError`; on any of them the old file (if any) is left untouched and
    no temporary file is left behind.
    """
    name = os.fspath(path)
    payload = _encoded(name, data, encoding)
    inputs = list(inputs)
    check_new(name, force=force, inputs=inputs)
    target = name
    folder = os.path.dirname(os.path.abspath(target))
    temp = _write_temp(target, payload, force)
    try:
        for source in inputs:  # checked again right before the rename: the output must not be an input
            if _same_file(target, source):
                raise SameAsInputError(name)
        if force:
            os.replace(temp, target)
        else:
            _link_new(temp, target, name)
        temp = ""
        _sync_folder(folder)
    finally:
        if temp:
            try:
                os.unlink(temp)
            except OSError:
                pass


def write_all(
    outputs: Iterable[tuple[PathLike, str | bytes]],
    *,
    force: bool = False,
    inputs: Iterable[PathLike] = (),
    encoding: str = "utf-8",
    keep_identical: Iterable[PathLike] = (),
) -> list[str]:
    """Write several files as one: all of them, or (on any failure) none replaced (a worksheet and its key).

    Every output is checked first as by :func:`write_new` (never an input, never through a
    link, never over a file without ``force``, never a folder or a device); two outputs
    naming one file are refused too.  An output listed in ``keep_identical`` (a side file
    whose text never changes, such as a page's script) that is already a regular file
    holding exactly these bytes is left as it is, with or without ``force``; it is not
    in the list returned.  Then every text is written to a temporary file
    beside its output and ``fsync``-ed, and only then are they moved into place, one after
    the other; if a move fails, the outputs already moved are put back as they were (a new
    file removed, a replaced one restored from the hard link kept of it).  Returns the paths
    written; raises what :func:`write_new` raises.
    """
    inputs = list(inputs)
    identical = [os.fspath(p) for p in keep_identical]
    planned: list[tuple[str, bytes]] = []
    seen: list[str] = []
    for path, data in outputs:
        name = os.fspath(path)
        payload = _encoded(name, data, encoding)
        if any(_same_name(name, other) for other in seen):
            raise SameAsInputError(name, "two outputs are the same file")
        seen.append(name)
        if any(_same_name(name, other) for other in identical) and holds_exactly(name, payload, inputs):
            continue
        check_new(name, force=force, inputs=inputs)
        planned.append((name, payload))
    temps: list[tuple[str, str, str]] = []  # (name, target, temp)
    moved: list[tuple[str, str | None]] = []  # (target, backup of the file it replaced, or None: it was new)
    try:
        for name, payload in planned:
            temps.append((name, name, _write_temp(name, payload, force)))
        for name, target, _temp in temps:  # checked again right before the moves
            for source in inputs:
                if _same_file(target, source):
                    raise SameAsInputError(name)
        for name, target, temp in temps:
            backup = None
            if force and os.path.lexists(target):
                backup = _keep_aside(target)
            try:
                if force:
                    os.replace(temp, target)
                else:
                    _link_new(temp, target, name)
            except BaseException:
                if backup is not None:
                    os.unlink(backup)
                raise
            moved.append((target, backup))
    except BaseException:
        for target, backup in reversed(moved):  # put back what was already moved
            try:
                if backup is None:
                    os.unlink(target)
                else:
                    os.replace(backup, target)
            except OSError:
                pass
        raise
    finally:
        for _name, _target, temp in temps:
            if os.path.lexists(temp):
                try:
                    os.unlink(temp)
                except OSError:
                    pass
    for target, backup in moved:
        if backup is not None:
            try:
                os.unlink(backup)
            except OSError:
                pass
        _sync_folder(os.path.dirname(os.path.abspath(target)))
    return [name for name, _ in planned]


def holds_exactly(path: PathLike, payload: bytes, inputs: Iterable[PathLike] = ()) -> bool:
    """Whether ``name`` is a regular file (not a link, not an input) whose bytes are exactly ``payload``.

    Such a file is what :func:`write_all` leaves alone for ``keep_identical``.
    """
    name = os.fspath(path)
    try:
        info = os.lstat(name)
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode) or info.st_size != len(payload):
        return False
    if any(_same_file(name, source) for source in inputs):
        return False
    try:
        return read_regular(name, len(payload)) == payload
    except (OSError, FileTooBigError):
        return False


def _same_name(a: str, b: str) -> bool:
    return os.path.abspath(a) == os.path.abspath(b) or _same_file(a, b)


def _encoded(name: str, data: str | bytes, encoding: str) -> bytes:
    """``data`` as the bytes to write to ``name``; text that ``encoding`` cannot hold is refused."""
    if not isinstance(data, str):
        return data
    try:
        return data.encode(encoding)
    except UnicodeEncodeError as err:
        raise UnencodableError(name, f"text cannot be encoded ({err.reason} at {err.start})") from None


def _write_temp(target: str, payload: bytes, force: bool) -> str:
    """``payload`` in a new temporary file beside ``target`` (flushed, ``fsync``-ed, with the mode it will have)."""
    folder = os.path.dirname(os.path.abspath(target))
    mode = _new_file_mode()
    if force and os.path.exists(target):
        mode = stat.S_IMODE(os.stat(target).st_mode)
    fd, temp = tempfile.mkstemp(prefix="." + os.path.basename(target) + ".", suffix=".tmp", dir=folder)
    try:
        try:
            write_bytes(fd, payload)
            _fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temp, mode)
    except BaseException:
        os.unlink(temp)
        raise
    return temp


def _keep_aside(target: str) -> str:
    """A hard link to the file about to be replaced, so it can be put back (a new, unused name beside it)."""
    folder = os.path.dirname(os.path.abspath(target))
    for n in range(100):
        backup = os.path.join(folder, f".{os.path.basename(target)}.{os.getpid()}.{n}.old")
        try:
            os.link(target, backup)
            return backup
        except FileExistsError:
            continue
        except (OSError, NotImplementedError, AttributeError):  # no hard links here: a copy
            import shutil

            if os.path.lexists(backup):
                continue
            shutil.copy2(target, backup)
            return backup
    raise OutputExistsError(target, "no free name for a backup")  # pragma: no cover


def write_bytes(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` to the open descriptor ``fd`` (one ``os.write`` may write fewer)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _fsync(fd: int) -> None:
    """Flush to the disk; a platform without fsync (some in-memory file systems) is not an error."""
    try:
        os.fsync(fd)
    except OSError as err:
        if err.errno not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
            raise


def _link_new(temp: str, target: str, name: str) -> None:
    """Put ``temp`` at ``target`` only if nothing is there (a hard link fails if the name exists)."""
    try:
        os.link(temp, target)
    except FileExistsError:
        raise OutputExistsError(name) from None
    except (OSError, NotImplementedError, AttributeError):
        # no hard links here (some file systems, Pyodide): check, then rename
        if os.path.lexists(target):
            raise OutputExistsError(name) from None
        os.replace(temp, target)
        return
    os.unlink(temp)


def _sync_folder(folder: str) -> None:
    """Make the rename durable where the platform allows it (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        _fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def output_name(path: PathLike) -> str:
    """A path as a message names it: an empty path as ``''`` (a line never starts with a bare colon).

    >>> output_name(""), output_name("a.html")
    ("''", 'a.html')
    """
    name = os.fspath(path)
    return name if name else "''"


def describe(err: BaseException, lang: str = "en") -> str:
    """Any error of this module (or another ``OSError``, :class:`FileTooBigError`) as a message in ``lang``.

    >>> describe(OutputExistsError("a.html"))
    'file exists; not overwritten (use --force to replace it)'
    >>> describe(NotRegularFileError("/tmp", "folder"), "zh")
    '这是一个文件夹，不是文件'
    """
    from ..text.messages import message

    if isinstance(err, NotAnOutputError):
        return message(f"files.not_output.{err.kind}", lang)
    if isinstance(err, NotRegularFileError):
        return message(f"files.not_regular.{err.kind}", lang)
    if isinstance(err, FileProblem):
        return message(f"files.{err.code}", lang)
    if isinstance(err, FileTooBigError):
        return message("files.too_big", lang, size=err.size, limit=err.limit)
    if isinstance(err, OSError):
        return message("files.os_error", lang, reason=err.strerror or str(err))
    return message("files.os_error", lang, reason=str(err))
