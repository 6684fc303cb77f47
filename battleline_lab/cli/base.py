"""What every ``battleline-lab`` command module shares: the program's name, its texts, its diagnostics.

A command module (``cli/claims.py`` ...) defines ``register(subparsers, lang)``, which adds its
parser and sets ``func`` (``run(args) -> ExitCode``); ``cli/__init__.py`` lists them in
:data:`battleline_lab.cli.COMMANDS`.  Command modules import the engine inside ``run`` (and
``register`` where it needs a table of names), so that starting one command does not load the
others' layers.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, TextIO

from ..exitcodes import ExitCode
from ..text.messages import scoped

if TYPE_CHECKING:
    from ..formats.safe_yaml import Diagnostic
    from ..quiz.puzzle import Puzzle

__all__ = ["PROG", "ExitCode", "Register", "SubParsers", "load_or_report", "m", "print_diagnostics"]

PROG = "battleline-lab"

SubParsers = argparse._SubParsersAction  # the type argparse gives ``add_subparsers()`` (no public name)

#: the catalogue's ``cli.*`` texts: ``m("claims.help", lang)``
m = scoped("cli")


class Register(Protocol):
    """A command's ``register``: adds its parser(s) to ``subparsers``, help texts in ``lang``."""

    def __call__(self, subparsers: SubParsers[argparse.ArgumentParser], /, lang: str = ...) -> object: ...


def print_diagnostics(diagnostics: Sequence[Diagnostic], err: TextIO | None = None) -> None:
    """Each ``FILE:LINE:COL: error: ...`` on its own line (stderr unless ``err``)."""
    for diagnostic in diagnostics:
        print(diagnostic, file=err if err is not None else sys.stderr)


def load_or_report(path: str, lang: str) -> Puzzle | None:
    """The puzzle in ``path``; else ``None``, its diagnostics printed (``FILE:LINE:COL: error: ...`` in
    ``lang``, on stderr), and the command exits :attr:`ExitCode.BAD_INPUT`."""
    from ..quiz.loader import PuzzleFileError, load_puzzle

    try:
        return load_puzzle(path, lang=lang)
    except PuzzleFileError as err:
        print_diagnostics(err.diagnostics)
        return None
