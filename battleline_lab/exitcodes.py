"""The exit statuses of every ``battleline-lab`` command, in one table.

Imports nothing (the entry point reads :attr:`ExitCode.INTERRUPTED` before any of the package is
loaded).  An :class:`~enum.IntEnum`: ``sys.exit(ExitCode.BAD_INPUT)`` exits 2, and a command's
``run(args)`` returns one of these (``== 2`` still holds).

>>> [(code.name, int(code)) for code in ExitCode]
[('OK', 0), ('WRONG', 1), ('BAD_INPUT', 2), ('INTERNAL', 3), ('INTERRUPTED', 130)]
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["ExitCode"]


class ExitCode(IntEnum):
    """What a command's exit status says (docs/robustness.md)."""

    OK = 0
    #: valid input, but a check failed: ``check`` found a wrong answer or a repeated id, ``worksheet``
    #: refused a wrong answer, ``generate`` made fewer puzzles than asked
    WRONG = 1
    #: bad input or bad usage: every error as ``FILE:LINE:COL: error: ...`` on stderr
    BAD_INPUT = 2
    #: a bug: one line on stderr, never a traceback
    INTERNAL = 3
    #: Ctrl-C (128 + SIGINT, as shells report it)
    INTERRUPTED = 130
