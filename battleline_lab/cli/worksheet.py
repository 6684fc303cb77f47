"""``battleline-lab worksheet PATH... --out SHEET.html``: a printable worksheet and its key.

The pages are battleline_lab.authoring.worksheet's.

The puzzles are checked first (the one check): a bad file exits 2, a wrong answer 1, and no sheet
is written then.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..formats.files import FileProblem, OutputExistsError, check_new, describe, output_name, write_all
from ..formats.safe_yaml import escape_control
from ..quiz.loader import Diagnostic
from ..text.messages import DEFAULT_LANGUAGE, message, scoped
from .base import PROG, ExitCode, SubParsers

__all__ = ["register", "run"]

_m = scoped("teachers.worksheet")


def register(subparsers: SubParsers[argparse.ArgumentParser], lang: str = DEFAULT_LANGUAGE) -> argparse.ArgumentParser:
    """Add the ``worksheet`` subcommand (help texts in ``lang``)."""
    from ..authoring.worksheet import ANSWERS, PER_PAGE

    parser = subparsers.add_parser(
        "worksheet", help=_m("help", lang), description=_m("description", lang), prog=f"{PROG} worksheet"
    )
    parser.add_argument("paths", nargs="+", metavar=message("cli.metavar.path", lang), help=_m("paths", lang))
    parser.add_argument("--out", required=True, metavar=message("cli.metavar.html", lang), help=_m("out", lang))
    parser.add_argument("--answers", choices=ANSWERS, default="end", help=_m("answers", lang))
    parser.add_argument("--per-page", type=int, choices=PER_PAGE, default=1, help=message("class.sheet.per_page", lang))
    parser.add_argument("--force", action="store_true", help=_m("force", lang))
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Check the puzzles (the one check: errors stop it), then write the sheet (and the key) without overwriting."""
    from ..authoring.worksheet import answer_key_html, key_path, worksheet_html
    from ..quiz.checks import check_paths

    lang = getattr(args, "lang", DEFAULT_LANGUAGE)
    reports = check_paths(args.paths, lang=lang)
    errors = [d for r in reports for d in r.errors]
    for diagnostic in errors:
        print(diagnostic, file=sys.stderr)
    if errors:
        files = len({d.file for d in errors})
        # located like every other error line, on the sheet that was not written
        print(
            Diagnostic(
                output_name(args.out), 1, 1, message("class.sheet.not_written", lang, count=files, out=args.out)
            ),
            file=sys.stderr,
        )
        return ExitCode.BAD_INPUT if any(r.invalid for r in reports) else ExitCode.WRONG
    puzzles = [r.puzzle for r in reports if r.puzzle is not None]
    # a str when empty: Path("") would be "." (the current folder), and the writer refuses the empty path itself
    out: str | Path = Path(args.out) if args.out else args.out
    per_page = getattr(args, "per_page", 1)
    targets = [(out, worksheet_html(puzzles, lang, answers=args.answers, per_page=per_page))]
    if args.answers == "separate" and isinstance(out, Path):
        targets.append((key_path(out), answer_key_html(puzzles, lang)))
    sources = {Path(p).resolve() for r in reports if r.puzzle is not None and (p := r.puzzle.source)}
    clashes = []
    for path, _ in targets:  # every output checked before anything is written (a dangling link is a file)
        try:
            check_new(path, force=args.force, inputs=sources)
        except OutputExistsError:
            clashes.append(Diagnostic(output_name(path), 1, 1, message("authoring.generate.exists", lang)))
        except OSError as err:
            clashes.append(Diagnostic(output_name(path), 1, 1, _m("cannot_write", lang, reason=describe(err, lang))))
    if clashes:
        for diagnostic in clashes:
            print(diagnostic, file=sys.stderr)
        print(
            Diagnostic(output_name(args.out), 1, 1, message("class.sheet.not_written_exists", lang, out=args.out)),
            file=sys.stderr,
        )
        return ExitCode.BAD_INPUT
    try:  # the sheet and its key as one: both written, or (on any failure) neither replaced
        write_all(targets, force=args.force, inputs=sources)
    except OSError as err:
        where = err.filename if isinstance(err, FileProblem) else str(out)
        print(
            Diagnostic(output_name(where), 1, 1, _m("cannot_write", lang, reason=describe(err, lang))), file=sys.stderr
        )
        print(
            Diagnostic(output_name(args.out), 1, 1, message("class.sheet.not_written_exists", lang, out=args.out)),
            file=sys.stderr,
        )
        return ExitCode.BAD_INPUT
    for path, _ in targets:
        print(_m("wrote", lang, file=escape_control(str(path)), count=len(puzzles)))
    return ExitCode.OK
