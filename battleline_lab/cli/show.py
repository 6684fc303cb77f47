"""``battleline-lab show FILE [-o OUT.html] [--question]``: a puzzle as one HTML page.

The page is battleline_lab.authoring.preview's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..formats.files import SameAsInputError, describe, output_name, write_new
from ..formats.safe_yaml import escape_control
from ..quiz.loader import Diagnostic
from ..text.messages import DEFAULT_LANGUAGE, message, scoped
from .base import PROG, ExitCode, SubParsers, load_or_report

__all__ = ["register", "run"]

_m = scoped("authoring.preview")


def register(subparsers: SubParsers[argparse.ArgumentParser], lang: str = DEFAULT_LANGUAGE) -> argparse.ArgumentParser:
    """Add the ``show`` subcommand (help texts in ``lang``)."""
    parser = subparsers.add_parser(
        "show",
        help=_m("help", lang),
        description=_m("description", lang),
        prog=f"{PROG} show",
    )
    parser.add_argument("file", metavar=message("cli.metavar.file", lang), help=_m("file", lang))
    parser.add_argument("-o", "--output", metavar=message("cli.metavar.html", lang), help=_m("output", lang))
    parser.add_argument("--question", action="store_true", help=message("teachers.show.question", lang))
    parser.add_argument("--force", action="store_true", help=message("files.force_help", lang))
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run ``show``: load the puzzle (errors as ``FILE:LINE:COL: error:``, exit 2), write the page."""
    from ..authoring.preview import preview_html

    lang = getattr(args, "lang", DEFAULT_LANGUAGE)
    puzzle = load_or_report(args.file, lang)
    if puzzle is None:
        return ExitCode.BAD_INPUT
    page = preview_html(puzzle, lang, source=args.file, question_only=getattr(args, "question", False))
    if args.output == "-":
        sys.stdout.write(page)
        return ExitCode.OK
    # an empty -o is an empty output path (refused by the writer), never "the default name"; a str, because
    # Path("") would turn it into "." (the current folder)
    out = args.output if args.output is not None else str(Path.cwd() / f"{Path(args.file).stem}.html")
    try:  # never over the puzzle itself (even a hard link to it), never over a file without --force, atomically
        write_new(out, page, force=getattr(args, "force", False), inputs=[args.file])
    except SameAsInputError:
        print(Diagnostic(output_name(out), 1, 1, _m("same_file", lang)), file=sys.stderr)
        return ExitCode.BAD_INPUT
    except OSError as err:
        print(Diagnostic(output_name(out), 1, 1, describe(err, lang)), file=sys.stderr)
        return ExitCode.BAD_INPUT
    print(_m("wrote", lang, file=escape_control(str(out))))
    return ExitCode.OK
