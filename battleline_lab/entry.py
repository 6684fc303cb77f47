"""The ``battleline-lab`` command's entry point: Ctrl-C at any moment exits 130 with one line.

The console script and ``python -m battleline_lab`` call :func:`main` here.  This module imports
nothing of the package at load time but the exit-code table (``exitcodes``, which imports
nothing; the package's ``__init__`` loads its names lazily), so an interrupt while the
command's modules are still being imported is caught here too, instead of ending in a
``KeyboardInterrupt`` traceback.
"""

from __future__ import annotations

# decimal's C module prints a warning of its own (mpd_setminalloc) when its set-up is interrupted and it is
# imported again in the same process (a Ctrl-C once landed inside it: `fractions` needs it): loaded here,
# before Ctrl-C is ours, its set-up can never be cut in half
import decimal  # noqa: F401
import os
import signal
import sys
from types import FrameType

from .exitcodes import ExitCode

EXIT_INTERRUPTED = ExitCode.INTERRUPTED  # 130: 128 + SIGINT, as shells report it (the former name)

#: Whether :func:`main` is running its ``try`` (a Ctrl-C there is a ``KeyboardInterrupt`` it catches).
_running = False


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C: inside :func:`main`'s ``try``, the usual ``KeyboardInterrupt``; before it has begun
    (between this module's import and the call) or after it has returned (the interpreter shutting
    down) there is no ``try`` to catch one, so the process ends here: the one line and exit 130
    (what the command printed is flushed already: ``cli.main`` flushes it)."""
    if _running:
        raise KeyboardInterrupt
    try:
        os.write(2, b"battleline-lab: interrupted\n")
    finally:
        os._exit(int(ExitCode.INTERRUPTED))


def _is_the_command() -> bool:
    """Whether this process is the ``battleline-lab`` command itself: its console script or
    ``python -m battleline_lab`` (not a notebook or a test that imports this module)."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name == "battleline_lab.__main__":
        return True
    script = os.path.basename(str(getattr(main, "__file__", "") or ""))
    return script in ("battleline-lab", "battleline-lab-script.py", "battleline-lab.exe")


def _install_interrupt_handler() -> None:
    """Take over SIGINT from Python's default handler (an ignored SIGINT stays ignored, as Python leaves it)."""
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _on_interrupt)
    except (ValueError, OSError):  # not the main thread: nothing to take over
        pass


if _is_the_command():  # Ctrl-C is the command's from here, before main() is even called
    _install_interrupt_handler()


def interrupted_line() -> str:
    """``battleline-lab: interrupted``, in the catalogue's words when it can still be read."""
    try:
        from .cli import PROG
        from .text.messages import message

        return f"{PROG}: {message('entry.interrupted')}"
    except BaseException:  # noqa: BLE001 - a second interrupt, or a half-imported package
        return "battleline-lab: interrupted"


def caused_by_interrupt(err: BaseException) -> bool:
    """Whether ``err`` is a Ctrl-C in disguise: Python wraps an exception raised while a class is being
    made (``__set_name__``, as a dataclass field's) in a ``RuntimeError``, so an interrupt that lands
    while a module defines its classes arrives as one, its ``KeyboardInterrupt`` as the cause.

    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt as inner:
    ...         raise RuntimeError("Error calling __set_name__") from inner
    ... except RuntimeError as outer:
    ...     caused_by_interrupt(outer), caused_by_interrupt(ValueError())
    (True, False)
    """
    seen: set[int] = set()
    current: BaseException | None = err
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _say_interrupted() -> int:
    try:
        print(interrupted_line(), file=sys.stderr)
    except BaseException:  # noqa: BLE001 - even a closed stderr or another Ctrl-C ends quietly
        pass
    return int(ExitCode.INTERRUPTED)


def main() -> int:
    """Run the command line; the exit status (130 after Ctrl-C)."""
    global _running
    # From here to the process's end, Ctrl-C is this module's: caught inside ``try``, and after ``main``
    # has returned (the interpreter shutting down) one line and 130, never a traceback.
    _install_interrupt_handler()
    try:
        _running = True
        from .cli import main as cli_main

        return cli_main()
    except KeyboardInterrupt:
        return _say_interrupted()
    except BaseException as err:
        if not caused_by_interrupt(err):
            raise
        return _say_interrupted()
    finally:
        _running = False


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
