"""``battleline-lab check PATH... [--strict]``: validate puzzles and verify their answers.

The one check, shared with the pytest plugin (battleline_lab.quiz.checks); ``library``, a theme or an
id checks the bundled library's puzzles.  Exit 1: a wrong answer (or a repeated id) in otherwise
valid files; 2: a bad file.
"""

from __future__ import annotations

import argparse

from ..text.messages import message
from .base import PROG, ExitCode, SubParsers, m, print_diagnostics
from .console import add_quiet_argument, progress_for

__all__ = ["register", "run"]


def run(args: argparse.Namespace) -> int:
    """Check the files and folders, print every diagnostic and one summary line."""
    from ..quiz.checks import check_files, collect_files

    lang = args.lang
    files, missing = collect_files(args.paths, lang=lang)
    with progress_for(args, "check", total=len(files)) as bar:
        reports = missing + check_files(files, lang=lang, strict=getattr(args, "strict", False), on_file=bar.advance)
    for report in reports:
        print_diagnostics(report.diagnostics)
    checked = [r for r in reports if r.is_file]
    invalid = sum(1 for r in reports if r.invalid)
    wrong = sum(1 for r in reports if not r.invalid and r.errors)
    warnings = sum(len(r.warnings) for r in reports)
    total = len(checked)
    ok = sum(1 for r in checked if r.ok)
    if total:
        failed = total - ok
        puzzles = message("words.puzzles", lang, count=total)
        text = (
            m("check.summary.failed", lang, puzzles=puzzles, ok=ok, failed=failed)
            if failed
            else m("check.summary", lang, puzzles=puzzles, ok=ok)
        )
        if warnings:
            text += message("list.sep", lang) + message("teachers.check.summary.warnings", lang, count=warnings)
        print(text)
    if invalid:
        return ExitCode.BAD_INPUT
    return ExitCode.WRONG if wrong else ExitCode.OK


def register(subparsers: SubParsers[argparse.ArgumentParser], lang: str = "en") -> None:
    """Add ``check``."""
    parser = subparsers.add_parser(
        "check", help=m("check.help", lang), description=m("check.description", lang), prog=f"{PROG} check"
    )
    parser.add_argument("paths", nargs="+", metavar=m("metavar.path", lang), help=m("check.paths", lang))
    parser.add_argument("--strict", action="store_true", help=message("teachers.check.strict", lang))
    add_quiet_argument(parser, lang)
    parser.set_defaults(func=run)
