"""The course from an installed package: ``battleline-lab lessons`` copies it out, ``battleline-lab lab`` opens it.

The lessons ship inside the package (:func:`battleline_lab.library.lessons_root`;
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

import argparse
import importlib.util
import os
import shlex
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .files import OutputExistsError, write_new
from .library import lessons_root
from .loader import Diagnostic
from .messages import DEFAULT_LANGUAGE, message
from .safe_yaml import escape_control

__all__ = ["DEFAULT_FOLDER", "CopyReport", "copy_course", "course_files", "register_lab", "register_lessons"]

#: Where the course goes when no folder is given.
DEFAULT_FOLDER = "battleline-lessons"
#: The files of the course (setup.py bundles the same kinds from ``notebooks/``).
SUFFIXES = (".ipynb", ".md", ".png", ".svg", ".jpg", ".gif")
SKIPPED_PARTS = {".ipynb_checkpoints", "__pycache__", ".pytest_cache"}
#: What ``battleline-lab lab`` needs, by import name (the ``lab`` extra).
LAB_MODULES = ("jupyterlab", "ipykernel", "ipywidgets")

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def _m(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    return message(f"package.{key}", lang, **params)


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
    """Write ``data`` to ``target`` atomically (:func:`battleline_lab.files.write_new`).

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


def _first_lesson(files: Sequence[Path], lang: str) -> Path | None:
    """The lesson to start with: the first of ``zh/`` in Chinese (if any), else the first top-level one."""
    lessons = [p for p in files if p.suffix == ".ipynb"]
    if lang != DEFAULT_LANGUAGE:
        translated = [p for p in lessons if p.parts[0] == lang]
        if translated:
            return translated[0]
    top = [p for p in lessons if len(p.parts) == 1]
    return top[0] if top else None


def _copy_and_report(args: argparse.Namespace, *, force: bool) -> tuple[int, CopyReport | None]:
    lang = getattr(args, "lang", DEFAULT_LANGUAGE)
    folder = Path(args.folder)
    if folder.exists() and not folder.is_dir():
        print(Diagnostic(args.folder, 1, 1, _m("lessons.not_a_folder", lang)), file=sys.stderr)
        return EXIT_BAD_INPUT, None
    try:
        report = copy_course(folder, force=force)
    except OSError as err:
        where = err.filename or args.folder  # Diagnostic escapes it
        print(
            Diagnostic(str(where), 1, 1, _m("lessons.cannot_write", lang, reason=err.strerror or err)), file=sys.stderr
        )
        return EXIT_BAD_INPUT, None
    if not report.copied and not report.unchanged and not report.kept and not report.replaced:
        print(Diagnostic(str(lessons_root()), 1, 1, _m("lessons.missing", lang)), file=sys.stderr)
        return EXIT_BAD_INPUT, None
    print(_m("lessons.copied", lang, count=len(report.copied), folder=escape_control(str(folder))))
    if report.unchanged:
        print(_m("lessons.unchanged", lang, count=len(report.unchanged)))
    if report.replaced:
        print(_m("lessons.replaced", lang, count=len(report.replaced)))
        for relative in report.replaced:
            print(f"  {relative.as_posix()}")
    if report.kept:
        print(_m("lessons.kept", lang, count=len(report.kept)))
        for relative in report.kept:
            print(f"  {relative.as_posix()}")
    return EXIT_OK, report


def run_lessons(args: argparse.Namespace) -> int:
    """``battleline-lab lessons``: copy the course, say how to open it."""
    lang = getattr(args, "lang", DEFAULT_LANGUAGE)
    status, report = _copy_and_report(args, force=args.force)
    if report is None:
        return status
    first = _first_lesson(course_files(), lang)
    print(
        _m(
            "lessons.open",
            lang,
            folder=escape_control(str(report.folder)),
            first=first.as_posix() if first else "",
            command=f"battleline-lab lab {shlex.quote(args.folder)}",
        )
    )
    return status


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


def run_lab(args: argparse.Namespace) -> int:
    """``battleline-lab lab``: copy the course if needed, then open JupyterLab on it."""
    lang = getattr(args, "lang", DEFAULT_LANGUAGE)
    missing = missing_lab_modules()
    if missing:
        print(f"battleline-lab lab: error: {_m('lab.missing', lang, modules=', '.join(missing))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    status, report = _copy_and_report(args, force=False)
    if report is None:
        return status
    first = _first_lesson(course_files(), lang)
    print(_m("lab.starting", lang, folder=report.folder, first=first.as_posix() if first else ""))
    return _launch(lab_command(report.folder.resolve(), no_browser=args.no_browser))


def _add_course_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser], name: str, lang: str
) -> argparse.ArgumentParser:
    """A ``lessons``/``lab`` subcommand with its shared ``[DIR]`` argument (help texts in ``lang``)."""
    parser = subparsers.add_parser(
        name,
        help=_m(f"{name}.help", lang),
        description=_m(f"{name}.description", lang, folder=DEFAULT_FOLDER),
        prog=f"battleline-lab {name}",
    )
    parser.add_argument(
        "folder",
        nargs="?",
        default=DEFAULT_FOLDER,
        metavar=message("cli.metavar.dir", lang),
        help=_m("lessons.folder", lang, folder=DEFAULT_FOLDER),
    )
    return parser


def register_lessons(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str = DEFAULT_LANGUAGE
) -> argparse.ArgumentParser:
    """Add the ``lessons`` subcommand (help texts in ``lang``)."""
    parser = _add_course_parser(subparsers, "lessons", lang)
    parser.add_argument("--force", action="store_true", help=_m("lessons.force", lang))
    parser.set_defaults(func=run_lessons)
    return parser


def register_lab(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str = DEFAULT_LANGUAGE
) -> argparse.ArgumentParser:
    """Add the ``lab`` subcommand (help texts in ``lang``)."""
    parser = _add_course_parser(subparsers, "lab", lang)
    parser.add_argument("--no-browser", action="store_true", help=_m("lab.no_browser", lang))
    parser.set_defaults(func=run_lab)
    return parser
