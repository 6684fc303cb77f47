"""``battleline-lab lessons [DIR]`` and ``battleline-lab lab [DIR]``: the lessons out of the package, and in JupyterLab.

What is copied, and the JupyterLab command, are battleline_lab.course's.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .. import course
from ..course import DEFAULT_FOLDER, CopyReport, copy_course, course_files, lab_command
from ..formats.files import NotAnOutputError, describe
from ..formats.safe_yaml import escape_control
from ..quiz.library import lessons_root
from ..quiz.loader import Diagnostic
from ..text.messages import DEFAULT_LANGUAGE, message, scoped
from .base import PROG, ExitCode, SubParsers
from .console import shell_word

__all__ = ["register_lab", "register_lessons", "run_lab", "run_lessons"]

_m = scoped("package")


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
    if args.folder == "":  # the empty path, never "the current folder"
        print(Diagnostic("''", 1, 1, describe(NotAnOutputError("", "empty_path"), lang)), file=sys.stderr)
        return ExitCode.BAD_INPUT, None
    if folder.exists() and not folder.is_dir():
        print(Diagnostic(args.folder, 1, 1, _m("lessons.not_a_folder", lang)), file=sys.stderr)
        return ExitCode.BAD_INPUT, None
    try:
        report = copy_course(folder, force=force)
    except OSError as err:
        where = err.filename or args.folder  # Diagnostic escapes it
        print(
            Diagnostic(str(where), 1, 1, _m("lessons.cannot_write", lang, reason=err.strerror or err)), file=sys.stderr
        )
        return ExitCode.BAD_INPUT, None
    if not report.copied and not report.unchanged and not report.kept and not report.replaced:
        print(Diagnostic(str(lessons_root()), 1, 1, _m("lessons.missing", lang)), file=sys.stderr)
        return ExitCode.BAD_INPUT, None
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
    return ExitCode.OK, report


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
            command=f"battleline-lab lab {shell_word(args.folder)}",  # copied as printed, safe to print
        )
    )
    return status


def run_lab(args: argparse.Namespace) -> int:
    """``battleline-lab lab``: copy the course if needed, then open JupyterLab on it."""
    lang = getattr(args, "lang", DEFAULT_LANGUAGE)
    missing = course.missing_lab_modules()
    if missing:
        print(f"battleline-lab lab: error: {_m('lab.missing', lang, modules=', '.join(missing))}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    status, report = _copy_and_report(args, force=False)
    if report is None:
        return status
    first = _first_lesson(course_files(), lang)
    print(_m("lab.starting", lang, folder=report.folder, first=first.as_posix() if first else ""))
    return course._launch(  # looked up on the module: the tests replace it
        lab_command(report.folder.resolve(), no_browser=args.no_browser)
    )


def _add_course_parser(
    subparsers: SubParsers[argparse.ArgumentParser], name: str, lang: str
) -> argparse.ArgumentParser:
    """A ``lessons``/``lab`` subcommand with its shared ``[DIR]`` argument (help texts in ``lang``)."""
    parser = subparsers.add_parser(
        name,
        help=_m(f"{name}.help", lang),
        description=_m(f"{name}.description", lang, folder=DEFAULT_FOLDER),
        prog=f"{PROG} {name}",
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
    subparsers: SubParsers[argparse.ArgumentParser], lang: str = DEFAULT_LANGUAGE
) -> argparse.ArgumentParser:
    """Add the ``lessons`` subcommand (help texts in ``lang``)."""
    parser = _add_course_parser(subparsers, "lessons", lang)
    parser.add_argument("--force", action="store_true", help=_m("lessons.force", lang))
    parser.set_defaults(func=run_lessons)
    return parser


def register_lab(
    subparsers: SubParsers[argparse.ArgumentParser], lang: str = DEFAULT_LANGUAGE
) -> argparse.ArgumentParser:
    """Add the ``lab`` subcommand (help texts in ``lang``)."""
    parser = _add_course_parser(subparsers, "lab", lang)
    parser.add_argument("--no-browser", action="store_true", help=_m("lab.no_browser", lang))
    parser.set_defaults(func=run_lab)
    return parser
