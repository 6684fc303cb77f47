"""Writing the editor's files, and the ids a new file must not take.

:func:`atomic_write` is the project's one writer (atomic, never over a file without ``force``,
never through a link) with its refusals as :class:`~battleline_lab.authoring.editor.EditorError`;
:func:`library_ids` and :func:`folder_ids` say which ids are taken, for a copy's new id.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..formats.files import NotAnOutputError, OutputExistsError, SymlinkError, write_new
from ..formats.safe_yaml import ComposeError, compose, decode_utf8, read_limited
from .errors import EditorError
from .yaml_text import plain_data

__all__ = ["atomic_write", "folder_ids", "library_ids"]


# -- writing files ----------------------------------------------------------------------------------


def atomic_write(path: str | os.PathLike[str], text: str, *, force: bool = False) -> None:
    """Write ``text`` to ``path`` with the project's one writer (:func:`battleline_lab.formats.files.write_new`).

    Atomic (a temporary file in the same folder, then a link or rename); refuses
    (:class:`EditorError` ``exists``) an existing file unless ``force``, including one that
    appears meanwhile; a symbolic link (``symlink``) even with ``force``; a folder, a device or
    the empty path (``not_output``); any other failure is ``not_written``.
    """
    try:
        write_new(path, text, force=force)
    except OutputExistsError:
        raise EditorError("exists", file=os.fspath(path)) from None
    except SymlinkError:  # never written through a link, even when the teacher confirms
        raise EditorError("symlink", file=os.fspath(path)) from None
    except NotAnOutputError:
        raise EditorError("not_output", file=os.fspath(path)) from None
    except OSError as err:  # a full disk, no permission: said on the message line, the text kept in the editor
        raise EditorError("not_written", file=os.fspath(path), reason=err.strerror or str(err)) from None


def library_ids() -> frozenset[str]:
    from ..quiz import library

    return frozenset(library.ids())


def folder_ids(folder: Path, skip: Path | None = None) -> dict[str, str]:
    """Id -> file name of the puzzle files in ``folder`` (read with the safe reader; unreadable files skipped)."""
    out: dict[str, str] = {}
    for file in sorted(folder.glob("*.yaml")):
        if skip is not None and file.resolve() == skip.resolve():
            continue
        try:
            root, _ = compose(decode_utf8(read_limited(str(file))), exact_marks=True)
        except (ComposeError, OSError, ValueError):
            continue
        data = plain_data(root) if root is not None else None
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            out.setdefault(data["id"], file.name)
    return out
