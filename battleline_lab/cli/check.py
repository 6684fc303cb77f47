"""``battleline-lab check PATH... [--strict] [--json]``: validate puzzles and verify their answers.

The one check, shared with the pytest plugin (battleline_lab.quiz.checks); ``library``, a theme or an
id checks the bundled library's puzzles.  Exit 1: a wrong answer (or a repeated id) in otherwise
valid files; 2: a bad file.  ``--json`` prints one JSON document instead of text: each puzzle's
``file``, ``id``, ``kind``, ``level``, ``ok``, ``guess_chance`` and ``diagnostics``, and the mean
``guess_chance`` over the puzzles that loaded (:meth:`battleline_lab.quiz.questions.Question.guess_chance`).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from ..text.messages import message
from .base import PROG, ExitCode, SubParsers, m, print_diagnostics
from .console import add_quiet_argument, progress_for

if TYPE_CHECKING:
    from ..quiz.checks import FileReport

__all__ = ["json_document", "register", "run"]


def json_document(reports: list[FileReport]) -> dict[str, Any]:
    """The ``--json`` document: one entry per file checked, the library's mean guess chance.

    A file that did not load has ``id``, ``kind``, ``level`` and ``guess_chance`` null; the
    mean is over the puzzles that loaded and ask a question (null when there are none).  A path
    that is no puzzle file (missing, or a folder without any) is one of ``errors``.
    """
    entries: list[dict[str, Any]] = []
    errors: list[str] = []
    chances = []
    for report in reports:
        if not report.is_file:  # a path that does not exist, or a folder without puzzle files
            errors.extend(str(d) for d in report.diagnostics)
            continue
        puzzle, question = report.puzzle, report.puzzle.question if report.puzzle else None
        chance = float(question.guess_chance(puzzle.position)) if puzzle and question else None
        if chance is not None:
            chances.append(chance)
        entries.append(
            {
                "file": report.name,
                "id": puzzle.id if puzzle else None,
                "kind": question.kind if question else None,
                "level": puzzle.level if puzzle else None,
                "ok": report.ok,
                "guess_chance": chance,
                "diagnostics": [str(d) for d in report.diagnostics],
            }
        )
    return {
        "puzzles": entries,
        "checked": len(entries),
        "ok": sum(1 for e in entries if e["ok"]),
        "guess_chance": sum(chances) / len(chances) if chances else None,
        "errors": errors,
    }


def run(args: argparse.Namespace) -> int:
    """Check the files and folders, print every diagnostic and one summary line."""
    from ..quiz.checks import check_files, collect_files

    lang = args.lang
    files, missing = collect_files(args.paths, lang=lang)
    with progress_for(args, "check", total=len(files)) as bar:
        reports = missing + check_files(files, lang=lang, strict=getattr(args, "strict", False), on_file=bar.advance)
    invalid = sum(1 for r in reports if r.invalid)
    wrong = sum(1 for r in reports if not r.invalid and r.errors)
    if getattr(args, "json", False):
        print(json.dumps(json_document(reports), ensure_ascii=False))
        return ExitCode.BAD_INPUT if invalid else ExitCode.WRONG if wrong else ExitCode.OK
    for report in reports:
        print_diagnostics(report.diagnostics)
    checked = [r for r in reports if r.is_file]
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
    parser.add_argument("--json", action="store_true", help=m("check.json", lang))
    add_quiet_argument(parser, lang)
    parser.set_defaults(func=run)
