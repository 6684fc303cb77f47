"""``battleline-lab site --puzzles DIR [--out DIR]``: the course's static site with the teacher's set.

The site is the one ``./dev site`` builds from a checkout (docs/site.md), built here from the
installed wheel: the builder ships inside the package (``battleline_lab/sitebuild/``, bundled by
setup.py; a checkout's own ``tools/build_site.py`` when run from one).  The teacher's puzzles
are checked first with the one check: a bad file exits 2 with its located errors, and nothing
is built.  Puzzle files are copied as data: nothing in them is run.  An ``--out`` folder that
exists is replaced only when it holds a site built before (its ``jupyter-lite.json``).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from ..formats.safe_yaml import escape_control
from ..quiz.loader import Diagnostic
from ..text.messages import DEFAULT_LANGUAGE, message, scoped
from .base import PROG, ExitCode, SubParsers

__all__ = ["DEFAULT_OUT", "builder", "builder_path", "register", "run"]

_m = scoped("sitebuild")

#: Where the site goes when ``--out`` is not given (in the current folder).
DEFAULT_OUT = "battleline-site"


def register(subparsers: SubParsers[argparse.ArgumentParser], lang: str = DEFAULT_LANGUAGE) -> argparse.ArgumentParser:
    """Add the ``site`` subcommand (help texts in ``lang``)."""
    parser = subparsers.add_parser(
        "site", help=_m("help", lang), description=_m("description", lang), prog=f"{PROG} site"
    )
    dir_word = message("cli.metavar.dir", lang)
    parser.add_argument("--puzzles", required=True, metavar=dir_word, help=_m("puzzles", lang))
    parser.add_argument("--out", default=DEFAULT_OUT, metavar=dir_word, help=_m("out", lang))
    parser.add_argument("--cache", metavar=dir_word, help=_m("cache", lang))
    parser.add_argument("--no-bytecode", action="store_true", help=_m("no_bytecode", lang))
    parser.set_defaults(func=run)
    return parser


def builder_path() -> Path:
    """The site builder: a checkout's ``tools/build_site.py``, else the copy inside the package."""
    package = Path(__file__).resolve().parents[1]
    checkout = package.parent / "tools" / "build_site.py"
    if checkout.is_file() and (package.parent / "pyproject.toml").is_file():
        return checkout
    return package / "sitebuild" / "tools" / "build_site.py"


def builder() -> ModuleType:
    """The site builder as a module (loaded from :func:`builder_path`)."""
    path = builder_path()
    spec = importlib.util.spec_from_file_location("battleline_lab_site_builder", path)
    if spec is None or spec.loader is None or not path.is_file():
        raise FileNotFoundError(path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "battleline-lab" / "site"


def _say(where: str, text: str) -> None:
    print(Diagnostic(escape_control(where), 1, 1, text), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """Check the teacher's puzzles, then build the site (the builder's own progress lines on stdout)."""
    from ..quiz.checks import check_paths

    lang = getattr(args, "lang", DEFAULT_LANGUAGE)
    reports = check_paths([args.puzzles], lang=lang)
    errors = [d for r in reports for d in r.errors]
    for diagnostic in errors:
        print(diagnostic, file=sys.stderr)
    if errors:
        if any(r.invalid for r in reports):
            _say(args.out, _m("not_built", lang, count=len({d.file for d in errors})))
            return ExitCode.BAD_INPUT
        _say(args.out, _m("not_built_wrong", lang))
        return ExitCode.WRONG
    out = Path(args.out).resolve()
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / "jupyter-lite.json").is_file())):
        _say(args.out, _m("out_taken", lang))  # never replace a folder that is not a site built before
        return ExitCode.BAD_INPUT
    try:
        build = builder()
    except (FileNotFoundError, ImportError, SyntaxError):
        _say(str(builder_path()), _m("no_builder", lang))
        return ExitCode.INTERNAL
    cache = Path(args.cache).resolve() if args.cache else _default_cache()
    try:
        build.build(out, cache, bytecode=not args.no_bytecode, puzzles=Path(args.puzzles).resolve())
    except SystemExit as stop:  # the builder says why in one line ("error: ...")
        reason = str(stop.code) if stop.code is not None else "stopped"
        _say(args.out, _m("failed", lang, reason=reason.removeprefix("error: ")))
        return ExitCode.BAD_INPUT
    except OSError as err:
        _say(args.out, _m("failed", lang, reason=escape_control(str(err))))
        return ExitCode.BAD_INPUT
    print(_m("built", lang, out=escape_control(str(out))))
    return ExitCode.OK
