"""The ``battleline-lab`` command's entry point: Ctrl-C at any moment exits 130 with one line.

The console script and ``python -m battleline_lab`` call :func:`main` here.  This module imports
nothing of the package at load time but the exit-code table (``exitcodes``, which imports
nothing; the package's ``__init__`` loads its names lazily), so an interrupt while the
command's modules are still being imported is caught here too, instead of ending in a
``KeyboardInterrupt`` traceback (issue 24).
"""

from __future__ import annotations

import sys

from .exitcodes import ExitCode

EXIT_INTERRUPTED = ExitCode.INTERRUPTED  # 130: 128 + SIGINT, as shells report it (the former name)


def interrupted_line() -> str:
    """``battleline-lab: interrupted``, in the catalogue's words when it can still be read."""
    try:
        from .cli import PROG
        from .text.messages import message

        return f"{PROG}: {message('entry.interrupted')}"
    except BaseException:  # noqa: BLE001 - a second interrupt, or a half-imported package
        return "battleline-lab: interrupted"


def main() -> int:
    """Run the command line; the exit status (130 after Ctrl-C)."""
    try:
        from .cli import main as cli_main

        return cli_main()
    except KeyboardInterrupt:
        try:
            print(interrupted_line(), file=sys.stderr)
        except BaseException:  # noqa: BLE001 - even a closed stderr or another Ctrl-C ends quietly
            pass
        return int(ExitCode.INTERRUPTED)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
