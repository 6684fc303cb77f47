"""The course from an installed package: ``battleline-lab lessons`` copies it out, ``battleline-lab lab`` opens it.

The lessons ship inside the package (:func:`battleline_lab.quiz.library.lessons_root`;
``notebooks/`` in a checkout).  A learner works on a copy in a folder of their
own; copying again is safe: a file that is missing is written, one that is
already there and identical is left alone, and one that differs (the
learner's edited copy) is **kept** and listed, unless ``--force`` asks to
replace it.  Each file is written whole or not at all (a temporary file in
the same folder, then renamed), so an interrupted copy leaves no half-written
notebook.

::

    battleline-lab lessons [DIR] [--force]      # default DIR: ./battleline-lessons
    battleline-lab lab [DIR] [--no-browser]     # copy if needed, then open JupyterLab there ([lab] extra)

Both languages of the course are copied (the Chinese lessons are in ``zh/``);
``--lang zh`` speaks Chinese and points at the Chinese lessons first.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     first = copy_course(Path(folder))
...     again = copy_course(Path(folder))
>>> len(first.copied) == len(course_files()) > 6, first.kept, len(again.unchanged) == len(first.copied)
(True, [], True)
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .formats.files import OutputExistsError, write_new
from .quiz.library import lessons_root
from .text.messages import scoped

__all__ = ["DEFAULT_FOLDER", "CopyReport", "copy_course", "course_files", "lab_command", "missing_lab_modules"]

#: Where the course goes when no folder is given.
DEFAULT_FOLDER = "battleline-lessons"
#: The files of the course (setup.py bundles the same kinds from ``notebooks/``).
SUFFIXES = (".ipynb", ".md", ".png", ".svg", ".jpg", ".gif")
SKIPPED_PARTS = {".ipynb_checkpoints", "__pycache__", ".pytest_cache"}
#: What ``battleline-lab lab`` needs, by import name (the ``lab`` extra).
LAB_MODULES = ("jupyterlab", "ipykernel", "ipywidgets")


_m = scoped("package")


def course_files(root: Path | None = None) -> list[Path]:
    """The course's files, relative to its folder, in order (lessons first, then teachers/, zh/)."""
    root = root or lessons_root()
    return sorted(
        (
            path.relative_to(root)
            for path in root.rglob("*")
            if path.is_file()
            and path.suffix.lower() in SUFFIXES
            and not SKIPPED_PARTS & set(path.relative_to(root).parts)
            and not path.name.startswith(".")
        ),
        key=lambda p: (len(p.parts), p.as_posix()),
    )


@dataclass
class CopyReport:
    """What :func:`copy_course` did, file by file (paths relative to the course folder)."""

    folder: Path
    copied: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)
    replaced: list[Path] = field(default_factory=list)


def _write_whole(target: Path, data: bytes, *, replace: bool, source: Path | None = None) -> bool:
    """Write ``data`` to ``target`` atomically (:func:`battleline_lab.formats.files.write_new`).

    Without ``replace``, never over a file that exists: returns False and writes nothing.
    Never over ``source`` (the bundled lesson it is copied from), not even through a link.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_new(target, data, force=replace, inputs=[source] if source is not None else [])
    except OutputExistsError:
        return False
    return True


def copy_course(folder: Path, *, force: bool = False, root: Path | None = None) -> CopyReport:
    """Copy the course into ``folder``; a learner's edited copy is kept unless ``force``."""
    root = root or lessons_root()
    report = CopyReport(folder)
    for relative in course_files(root):
        data = (root / relative).read_bytes()
        target = folder / relative
        if target.is_file():
            if target.read_bytes() == data:
                report.unchanged.append(relative)
            elif force:
                _write_whole(target, data, replace=True, source=root / relative)
                report.replaced.append(relative)
            else:
                report.kept.append(relative)
        elif _write_whole(target, data, replace=False, source=root / relative):
            report.copied.append(relative)
        else:
            report.kept.append(relative)
    return report


def missing_lab_modules() -> list[str]:
    """The modules of the ``lab`` extra that are not installed."""
    return [name for name in LAB_MODULES if importlib.util.find_spec(name) is None]


def lab_command(folder: Path, *, no_browser: bool = False) -> list[str]:
    """The command that opens JupyterLab in ``folder`` with this Python."""
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={folder}"]
    if no_browser:
        command.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # JupyterLab refuses root without it (containers, CI machines)
    return command


def _launch(command: list[str]) -> int:
    """Run JupyterLab in place of this process where the system allows it (Ctrl+C then reaches it alone)."""
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(command[0], command)
    return subprocess.call(command)
