"""``battleline-lab generate --theme T --count N --out DIR``: new puzzles of a theme.

The generator is battleline_lab.authoring.generate.

Exit 1 when fewer puzzles than asked were found (those found are written); 2 bad input or a file
in the way (nothing is written then).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Hashable
from pathlib import Path

from ..formats.files import (
    FileProblem,
    NotAnOutputError,
    check_new,
    check_out_folder,
    describe,
    output_name,
    write_all,
)
from ..formats.safe_yaml import ascii_int, escape_control
from ..quiz.loader import Diagnostic, iter_puzzle_files
from ..text.messages import message, scoped
from .base import PROG, ExitCode, SubParsers
from .console import add_quiet_argument, progress_for

__all__ = ["register", "run"]

_m = scoped("authoring")


def _theme(lang: str) -> Callable[[str], str]:
    from ..authoring.generate import QUESTION_THEMES, THEMES

    def theme(text: str) -> str:
        if text not in THEMES and text not in QUESTION_THEMES:
            themes = ", ".join([*THEMES, *QUESTION_THEMES])
            raise argparse.ArgumentTypeError(_m("generate.unknown_theme", lang, theme=text, themes=themes))
        return text

    return theme


def _count(lang: str) -> Callable[[str], int]:
    def count(text: str) -> int:
        value = ascii_int(text) or 0  # ASCII digits only: int() would also read "３" or "٣"
        if not 1 <= value <= 200:
            raise argparse.ArgumentTypeError(_m("generate.bad_count", lang, value=text))
        return value

    return count


def _levels(lang: str) -> Callable[[str], tuple[int, int]]:
    def levels(text: str) -> tuple[int, int]:
        low, _, high = text.partition("-")
        low_value, high_value = ascii_int(low), ascii_int(high or low)
        bounds = (low_value, high_value) if low_value is not None and high_value is not None else (0, 0)
        if not 1 <= bounds[0] <= bounds[1] <= 5:
            raise argparse.ArgumentTypeError(_m("generate.bad_level", lang, value=text))
        return bounds

    return levels


def _seed(lang: str) -> Callable[[str], int]:
    def seed(text: str) -> int:
        value = ascii_int(text)  # ASCII digits only: int() would also read "３" or "٣"
        if value is None or value < 0:
            raise argparse.ArgumentTypeError(_m("generate.bad_seed", lang, value=text))
        return value

    return seed


def register(subparsers: SubParsers[argparse.ArgumentParser], lang: str = "en") -> argparse.ArgumentParser:
    """Add the ``generate`` subcommand (help texts in ``lang``)."""
    from ..authoring.generate import SOURCES, THEMES

    folder = message("cli.metavar.dir", lang)
    parser = subparsers.add_parser(
        "generate",
        help=_m("generate.help", lang),
        description=_m("generate.description", lang, themes=", ".join(THEMES)),
        prog=f"{PROG} generate",
    )
    parser.add_argument(
        "--theme",
        required=True,
        type=_theme(lang),
        metavar=message("cli.metavar.theme", lang),
        help=_m("generate.theme", lang),
    )
    parser.add_argument("--count", type=_count(lang), default=5, metavar="N", help=_m("generate.count", lang))
    parser.add_argument("--seed", type=_seed(lang), default=0, metavar="S", help=_m("generate.seed", lang))
    parser.add_argument("--out", required=True, metavar=folder, help=_m("generate.out", lang))
    parser.add_argument("--level", type=_levels(lang), default=(1, 5), metavar="L", help=_m("generate.level", lang))
    parser.add_argument("--avoid", metavar=folder, help=_m("generate.avoid", lang))
    parser.add_argument("--source", choices=SOURCES, help=_m("generate.source", lang))
    parser.add_argument("--force", action="store_true", help=_m("generate.force", lang))
    add_quiet_argument(parser, lang)
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run ``generate``: find the puzzles, refuse to overwrite (unless ``--force``), write them."""
    from ..authoring.generate import answer_word, avoid_keys, generate

    lang = getattr(args, "lang", "en")
    out = Path(args.out)
    try:  # the empty path is never "the current folder"; a device or a file is no folder
        check_out_folder(args.out)
    except NotAnOutputError as err:
        problem = _m("generate.not_a_folder", lang) if err.kind == "file" else describe(err, lang)
        print(Diagnostic(output_name(args.out), 1, 1, problem), file=sys.stderr)
        return ExitCode.BAD_INPUT
    avoid: set[Hashable] = set()
    if args.avoid is not None:
        if not Path(args.avoid).is_dir():
            print(Diagnostic(args.avoid, 1, 1, _m("generate.avoid_missing", lang)), file=sys.stderr)
            return ExitCode.BAD_INPUT
        avoid = avoid_keys(args.avoid)
    stats: dict[str, float] = {}
    with progress_for(args, "generate", total=args.count) as bar:
        puzzles = generate(
            args.theme,
            args.count,
            args.seed,
            avoid=avoid,
            source=args.source,
            levels=args.level,
            on_found=lambda _puzzle: bar.advance(),
            stats=stats,
        )
    targets = [(out / p.filename, p) for p in puzzles]
    inputs = list(iter_puzzle_files([args.avoid])) if args.avoid is not None else []
    refused = []
    for path, _ in targets:  # refuse before writing anything: all of them are written, or none
        try:
            check_new(path, force=args.force, inputs=inputs)
        except OSError as err:
            refused.append(Diagnostic(str(path), 1, 1, describe(err, lang)))
    if refused:
        for diagnostic in refused:
            print(diagnostic, file=sys.stderr)
        return ExitCode.BAD_INPUT
    try:
        out.mkdir(parents=True, exist_ok=True)
        # all the puzzles as one (files.write_all): every file written, or on any failure none replaced
        write_all([(path, puzzle.text) for path, puzzle in targets], force=args.force, inputs=inputs)
        for path, puzzle in targets:
            answer = answer_word(puzzle.answer)
            print(_m("generate.wrote", lang, file=escape_control(str(path)), level=puzzle.level, answer=answer))
    except OSError as err:
        name = err.filename if isinstance(err, FileProblem) else args.out
        print(Diagnostic(str(name), 1, 1, describe(err, lang)), file=sys.stderr)
        return ExitCode.BAD_INPUT
    if stats.get("games"):
        games, seconds = int(stats["games"]), max(stats["seconds"], 1e-6)
        print(_m("generate.scanned", lang, games=games, seconds=f"{seconds:.2f}", rate=f"{games / seconds:.0f}"))
    if len(puzzles) < args.count:
        print(_m("generate.short", lang, found=len(puzzles), count=args.count, theme=args.theme), file=sys.stderr)
        return ExitCode.WRONG
    return ExitCode.OK
