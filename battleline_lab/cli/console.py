"""Progress on long command-line work: a bar on stderr when it is a terminal, nothing otherwise.

``match --games 2000``, ``generate`` and ``check`` over a big folder run for
seconds; on a terminal they show how far they are.  The bar goes to stderr
only, and only when stderr is a terminal (never into a pipe, a file or the
``--json`` output on stdout), and ``--quiet`` turns it off.  It appears only
after :data:`DELAY` seconds, so quick runs print nothing extra, redraws at most
every :data:`INTERVAL` seconds, and wipes itself when the work is done.  Its
label comes from the message catalogue (``package.progress.<name>``), so it
speaks the command's language.

A command uses it in three lines (``review`` or any new long command the same
way)::

    add_quiet_argument(parser, lang)                       # in register(): -q/--quiet
    with progress_for(args, "check", total=len(files)) as bar:
        for file in files:
            ...
            bar.clear()   # before printing to the terminal in the middle of the work
            ...
            bar.advance()

>>> import io
>>> class Terminal(io.StringIO):
...     def isatty(self) -> bool:
...         return True
>>> screen = Terminal()
>>> with Progress(4, "checking puzzles", stream=screen, delay=0, interval=0, width=33) as bar:
...     bar.advance(3)
>>> screen.getvalue().split("\\r")[1]
'checking puzzles [######..]  3/4'
>>> pipe = io.StringIO()  # not a terminal: no bar at all
>>> with Progress(4, "checking puzzles", stream=pipe, delay=0) as bar:
...     bar.advance(4)
>>> pipe.getvalue()
''
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
import unicodedata
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

from ..text.messages import DEFAULT_LANGUAGE, message

__all__ = ["DELAY", "INTERVAL", "Progress", "add_quiet_argument", "display_width", "is_terminal", "progress_for"]

#: Seconds of work before the bar first appears (quick runs stay silent).
DELAY = 0.4
#: Seconds between two redraws at most.
INTERVAL = 0.1
#: Cells of the bar itself (``[####....]``), fewer on a narrow terminal.
BAR_CELLS = 24


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is an interactive terminal (a closed or odd stream is not)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def display_width(text: str) -> int:
    """Terminal cells ``text`` takes: Chinese characters take two.

    >>> display_width("check"), display_width("检查谜题")
    (5, 8)
    """
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


class Progress:
    """A progress bar for ``total`` steps (``None``: an unknown number, only counted).

    ``stream`` defaults to ``sys.stderr``, ``delay`` and ``interval`` to :data:`DELAY`
    and :data:`INTERVAL`; ``enabled`` defaults to "``stream`` is a terminal".  A bar
    that is not enabled does nothing at all.  Writing never raises: a stream that fails turns the bar off.
    """

    def __init__(
        self,
        total: int | None,
        label: str,
        *,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        delay: float | None = None,
        interval: float | None = None,
        width: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.label = label
        self.done = 0
        self.stream: TextIO = stream if stream is not None else sys.stderr
        self.enabled = is_terminal(self.stream) if enabled is None else enabled
        self._delay = DELAY if delay is None else delay
        self._interval = INTERVAL if interval is None else interval
        self._width = width
        self._clock = clock
        self._start = clock()
        self._last_draw: float | None = None
        self._shown = 0  # cells of the line on screen now (0: nothing to wipe)

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def line(self) -> str:
        """The text of the bar as it would be drawn now (without the carriage return)."""
        columns = self._width or shutil.get_terminal_size((80, 24)).columns
        if self.total is None:
            return f"{self.label} {self.done}"
        count = f"{self.done:>{len(str(self.total))}}/{self.total}"
        cells = max(0, min(BAR_CELLS, columns - 1 - display_width(self.label) - len(count) - 5))
        filled = cells * min(self.done, self.total) // self.total if self.total > 0 else cells
        bar = f" [{'#' * filled}{'.' * (cells - filled)}]" if cells >= 4 else ""
        return f"{self.label}{bar}  {count}"

    def advance(self, steps: int = 1) -> None:
        """Count ``steps`` more steps done; redraw if it is time."""
        self.done += steps
        if not self.enabled:
            return
        now = self._clock()
        if now - self._start < self._delay:
            return
        finished = self.total is not None and self.done >= self.total
        if self._last_draw is not None and now - self._last_draw < self._interval and not finished:
            return
        self._last_draw = now
        text = self.line()
        width = display_width(text)
        self._write("\r" + text + " " * max(0, self._shown - width))
        self._shown = width

    def clear(self) -> None:
        """Wipe the bar from the line (before printing something else there); it comes back on the next step."""
        if self.enabled and self._shown:
            self._write("\r" + " " * self._shown + "\r")
            self._shown = 0
            self._last_draw = None

    def close(self) -> None:
        """The work is over: wipe the bar."""
        self.clear()

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError, UnicodeError):
            self.enabled = False  # progress must never break the command


def add_quiet_argument(parser: argparse.ArgumentParser, lang: str = DEFAULT_LANGUAGE) -> None:
    """Give a long command ``-q``/``--quiet``: no progress bar."""
    parser.add_argument("-q", "--quiet", action="store_true", help=message("package.quiet", lang))


def progress_for(args: argparse.Namespace, name: str, total: int | None, *, stream: TextIO | None = None) -> Progress:
    """The progress bar of a command: labelled ``package.progress.<name>`` in ``args.lang``, off with ``--quiet``.

    >>> bar = progress_for(argparse.Namespace(lang="zh", quiet=True), "check", 10)
    >>> bar.label, bar.enabled
    ('检查谜题', False)
    """
    label = message(f"package.progress.{name}", getattr(args, "lang", DEFAULT_LANGUAGE))
    bar = Progress(total, label, stream=stream)
    if getattr(args, "quiet", False):
        bar.enabled = False
    return bar
