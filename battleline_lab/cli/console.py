"""What the command line puts on the terminal: every printed line sanitised, write failures caught, progress bars.

**One sanitiser.**  :func:`battleline_lab.cli.main` runs each command with ``sys.stdout`` and
``sys.stderr`` wrapped in a :class:`TerminalStream`, so every line any command prints (file
names, stored rows, hints, messages, ``--json`` output) goes through :func:`terminal_text`:
control characters (C0 but newline and tab, DEL, C1 such as U+009B), so escape sequences (OSC,
``ESC[2J``), bidi overrides and isolates (U+202A-U+202E, U+2066-U+2069) and lone surrogates
are shown escaped as ``\\uXXXX``.  That form is also a JSON string escape, so ``--json``
output stays valid JSON and reads back to the same text.  A failed write (``/dev/full``:
``ENOSPC``; a closed pipe: ``EPIPE``) becomes an :class:`OutputError`, which ``main`` ends
as exit 2 with one located line (or, for a closed pipe, quietly: see ``cli/__init__.py``).

>>> terminal_text("t\\x1b]0;owned\\x07 \\x9b2J \\u202eabc \\ud800 tab\\tok\\n")
't\\\\u001b]0;owned\\\\u0007 \\\\u009b2J \\\\u202eabc \\\\ud800 tab\\tok\\n'

**Progress on long work:** a bar on stderr when it is a terminal, nothing otherwise.

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
import errno
import os
import re
import shutil
import sys
import time
import unicodedata
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any, TextIO

from ..text.messages import DEFAULT_LANGUAGE, message

__all__ = [
    "DELAY",
    "INTERVAL",
    "OutputError",
    "Progress",
    "TerminalStream",
    "add_quiet_argument",
    "display_width",
    "is_terminal",
    "progress_for",
    "shell_word",
    "terminal_text",
]

#: What never reaches a terminal raw: C0 controls but newline and tab, DEL, C1, the Arabic letter
#: mark, LRM/RLM, the line and paragraph separators, bidi overrides and isolates, lone surrogates.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def terminal_text(text: str) -> str:
    """``text`` with every character that could drive or reorder a terminal escaped as ``\\uXXXX``.

    The one sanitiser of what the command line prints; the escape is also a JSON string escape.

    >>> terminal_text("plain é 中文\\tand\\n"), terminal_text("c1\\x9b2J bidi\\u202eyaml")
    ('plain é 中文\\tand\\n', 'c1\\\\u009b2J bidi\\\\u202eyaml')
    """
    if text.isascii() and text.isprintable():
        return text
    return _UNSAFE.sub(_escape, text)


def shell_word(text: str) -> str:
    """``text`` as one word a POSIX shell (bash, zsh) reads back exactly, safe to print: ``shlex.quote``,
    or ``$'...'`` with escapes when ``text`` holds a newline, a tab or a character :func:`terminal_text`
    escapes (so a hint such as ``battleline-lab lab FOLDER`` can be copied as it is printed).

    >>> shell_word("my lessons"), shell_word("c\\x1b[2J'x"), shell_word("bidi\\u202e")
    ("'my lessons'", "$'c\\\\x1b[2J\\\\'x'", "$'bidi\\\\u202e'")
    """
    import shlex

    if not _UNSAFE.search(text) and "\n" not in text and "\t" not in text:
        return shlex.quote(text)
    out = []
    for ch in text:
        if ch in "\\'":
            out.append("\\" + ch)
        elif ch in "\n\t" or _UNSAFE.match(ch):
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x80 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "$'" + "".join(out) + "'"


class OutputError(Exception):
    """Standard output or standard error could not be written (a full disk, a closed pipe...).

    ``stream`` is ``"stdout"`` or ``"stderr"``, ``error`` the ``OSError`` that the write raised.
    Not an ``OSError`` itself, so that a command's handler for its own files never takes it
    for a failure of one of them.
    """

    def __init__(self, stream: str, error: OSError) -> None:
        super().__init__(f"cannot write to {stream}: {error.strerror or error}")
        self.stream = stream
        self.error = error

    @property
    def broken_pipe(self) -> bool:
        """The reader went away (``| head -1``): the output is simply no longer wanted."""
        return isinstance(self.error, BrokenPipeError) or self.error.errno == errno.EPIPE


def _discard_from_now_on(stream: TextIO) -> None:
    """Point ``stream``'s file descriptor at the null device: what is still buffered for it, flushed at
    exit, then goes nowhere instead of failing again (and a closed pipe ends without a second word).

    Only the process's own stdout and stderr: a stream someone else handed in (a notebook's, a test's)
    is left as it is."""
    if stream is not sys.__stdout__ and stream is not sys.__stderr__:
        return
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        return  # not a file (a test's capture): nothing is flushed at exit
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)


class TerminalStream:
    """A text stream that sanitises everything written (:func:`terminal_text`) and turns a failed
    write or flush into :class:`OutputError` (once; later writes are dropped).

    Everything else (``encoding``, ``isatty``, ``fileno``, ``buffer``...) is the wrapped stream's;
    :attr:`raw` is the wrapped stream itself (the progress bar's carriage returns go there).

    >>> import io
    >>> out = TerminalStream(io.StringIO(), "stdout")
    >>> print("name\\x1b[2J.yaml", file=out)
    >>> out.raw.getvalue()
    'name\\\\u001b[2J.yaml\\n'
    """

    def __init__(self, raw: TextIO, name: str) -> None:
        self.raw = raw
        self.name = name
        self.failed: OutputError | None = None

    def write(self, text: str) -> int:
        if self.failed is not None:
            return len(text)
        try:
            self.raw.write(terminal_text(text))
        except OSError as err:
            raise self._fail(err) from None
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self.failed is not None:
            return
        try:
            self.raw.flush()
        except OSError as err:
            raise self._fail(err) from None

    def _fail(self, err: OSError) -> OutputError:
        self.failed = OutputError(self.name, err)
        _discard_from_now_on(self.raw)
        return self.failed

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


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
        chosen = stream if stream is not None else sys.stderr
        # the bar's own carriage returns go to the terminal itself, past the sanitiser of printed text
        self.stream: TextIO = chosen.raw if isinstance(chosen, TerminalStream) else chosen
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
