"""The ``battleline-lab`` command line: one package, one module per command (or family of commands).

Subcommands, each a module of this package, in the order ``--help`` lists them (:data:`COMMANDS`)::

    battleline-lab claims FILE... [--json]     flags each side can claim by proof now (R12)   claims.py
    battleline-lab explain FILE [--flag N] [--side you|opponent]                               explain.py
                                               the step-by-step proof or counterexample
    battleline-lab check PATH... [--strict]    validate puzzles and verify their answers      check.py
    battleline-lab odds FILE [--flag N]        each flag's odds and outs                      odds.py
    battleline-lab match | replay | review     bots' games, game records, a game's claims    game.py
    battleline-lab generate | show | worksheet the teachers' tools           generate.py, show.py, worksheet.py
    battleline-lab lessons [DIR] | lab         the lessons, copied out / in JupyterLab        lessons.py
    battleline-lab progress | report           a learner's export, a class report             progress.py
    battleline-lab site --puzzles DIR          the course site with the teacher's puzzles     site.py

``claims --json`` prints exactly one JSON object per line per file, e.g.
``{"file": "p.yaml", "you": [5], "opponent": []}``: this output is a contract.

Exit status (:class:`battleline_lab.exitcodes.ExitCode`): 0 success; 1 ``check`` found a wrong
answer (or a repeated id) in otherwise valid files; 2 bad input (every error as
``FILE:LINE:COL: error: message`` on stderr) or bad usage, a setting that cannot be used
(``BATTLELINE_CLASS_DIR='~nouser/x'``: :mod:`battleline_lab.formats.settings`), or an output
that cannot be written (``> /dev/full``: ``battleline-lab: error: cannot write to standard
output: No space left on device``); 3 an internal error (one line on stderr, never a
traceback); 130 interrupted.  A closed pipe (``| head -1``) ends the command quietly with 0,
as for any reader that has read all it wanted: nothing more is written, nothing is said.

Every line a command prints goes through one sanitiser: :func:`main` runs the command with
``sys.stdout`` and ``sys.stderr`` wrapped in :class:`battleline_lab.cli.console.TerminalStream`
(control characters, escape sequences, bidi overrides and lone surrogates shown as ``\\uXXXX``).

A command is a ``(name, register)`` pair in :data:`COMMANDS`, a real import: ``register(subparsers,
lang=...)`` adds its parser (``subparsers.add_parser(name, ...)``) and sets ``func``
(``parser.set_defaults(func=run)``, ``run(args) -> int``); a ``register`` without a ``lang``
parameter is called with the subparsers alone.  The command modules import the engine inside
their functions, so starting one command loads only what it needs.

The language is ``--lang`` wherever it stands in the arguments (before or
after the subcommand; :func:`language_in` finds it before the parser is
built).  Help, usage and usage errors are then in that language, argparse's
own phrases ("usage:", "options", "error: ...") included, through argparse's public hooks
(:mod:`battleline_lab.cli.parser`); a usage error still exits 2 without a traceback.

>>> main(["claims", "--help"]) == 0  # doctest: +ELLIPSIS
usage: battleline-lab claims ...
True
>>> main(["claims", "--help", "--lang", "zh"]) == 0  # doctest: +ELLIPSIS
用法：battleline-lab claims ...
True
"""

from __future__ import annotations

import argparse
import inspect
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from ..text.messages import DEFAULT_LANGUAGE, LANGUAGES, THEMES, message, themed
from . import check, claims, explain, game, generate, lessons, odds, progress, show, site, worksheet
from .base import PROG, ExitCode, Register, m
from .console import OutputError, TerminalStream
from .parser import Parser, parser_class

__all__ = ["COMMANDS", "PROG", "ExitCode", "Register", "build_parser", "language_in", "main"]

#: Subcommands in the order ``--help`` lists them (append ``(name, register)`` to add one).
COMMANDS: list[tuple[str, Register]] = [
    ("claims", claims.register),
    ("explain", explain.register),
    ("check", check.register),
    ("odds", odds.register),
    ("match", game.register),
    ("replay", game.register_replay),
    ("review", game.register_review),
    ("generate", generate.register),
    ("show", show.register),
    ("worksheet", worksheet.register),
    ("site", site.register),
    ("lessons", lessons.register_lessons),
    ("lab", lessons.register_lab),
    ("progress", progress.register_progress),
    ("report", progress.register_report),
]


def _takes_lang(register: Register) -> bool:
    try:
        return "lang" in inspect.signature(register).parameters
    except (TypeError, ValueError):  # a callable without a signature: the plain contract
        return False


def language_in(argv: Sequence[str]) -> str:
    """The language ``--lang`` asks for anywhere in ``argv`` (the last one wins), else English.

    Found before the parser is built, so that the parser itself (help, usage, errors) speaks it;
    a value that is no language is left for the parser to refuse.

    >>> language_in(["explain", "p.yaml", "--lang", "zh"]), language_in(["--lang=zh", "check", "."])
    ('zh', 'zh')
    >>> language_in(["--lang", "fr", "check"]), language_in(["check", "--", "--lang", "zh"])
    ('en', 'en')
    """
    lang = DEFAULT_LANGUAGE
    args = iter(argv)
    for arg in args:
        if arg == "--":
            break
        if arg == "--lang":
            value = next(args, "")
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        else:
            continue
        if value in LANGUAGES:
            lang = value
    return lang


def build_parser(lang: str = DEFAULT_LANGUAGE, *, only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand; help texts in ``lang``.

    ``only`` registers that subcommand alone (the one being run).  argparse's own phrases are in
    ``lang`` too (the parser is of :func:`battleline_lab.cli.parser.parser_class`).
    """
    parser = parser_class(lang)(prog=PROG, description=m("description", lang))
    parser.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help=m("lang", lang))
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}", help=message("package.version", lang)
    )
    parser.add_argument(
        "--theme",
        dest="display_theme",
        type=_theme_name(lang),
        default=None,
        metavar=m("metavar.theme", lang),
        help=m("theme", lang),
    )
    subparsers = parser.add_subparsers(dest="command", metavar=m("metavar.command", lang), required=True)
    for _name, register in COMMANDS:
        if only is not None and _name != only:
            continue
        if _takes_lang(register):
            register(subparsers, lang=lang)
        else:
            register(subparsers)
    for sub in subparsers.choices.values():
        # --lang after the subcommand too; SUPPRESS keeps a --lang given before it
        try:
            sub.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=m("lang", lang))
        except argparse.ArgumentError:
            pass  # the subcommand has its own --lang
        try:  # --theme: the Leaders' names (generate's --theme is its own: what its puzzles teach)
            sub.add_argument(
                "--theme",
                dest="display_theme",
                type=_theme_name(lang),
                default=argparse.SUPPRESS,
                metavar=m("metavar.theme", lang),
                help=m("theme", lang),
            )
        except argparse.ArgumentError:
            pass
    return parser


def _theme_name(lang: str) -> Callable[[str], str]:
    """The ``--theme`` type: a name of :data:`THEMES`, else a usage error in ``lang`` (exit 2)."""

    def theme_name(text: str) -> str:
        if text not in THEMES:
            raise argparse.ArgumentTypeError(
                m("theme.unknown", lang, value=text, themes=message("list.sep", lang).join(THEMES))
            )
        return text

    return theme_name


def _command_in(arguments: Sequence[str]) -> str | None:
    """The registered subcommand the arguments run, if they name one before any help option.

    >>> _command_in(["--lang", "zh", "claims", "a.yaml"]), _command_in(["-h", "claims"]), _command_in(["nope"])
    ('claims', None, None)
    """
    names = {name for name, _ in COMMANDS}
    skip = False
    for arg in arguments:
        if skip:
            skip = False
        elif arg in ("--lang", "--theme"):
            skip = True
        elif arg.startswith(("--lang=", "--theme=")):
            continue
        elif arg.startswith("-"):
            return None  # help or an unknown option before the command: the full parser answers
        else:
            return arg if arg in names else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (never raises, never prints a traceback).

    The command runs with ``sys.stdout`` and ``sys.stderr`` sanitised (:class:`TerminalStream`);
    a write to either that fails ends it with :func:`_output_failed`.
    """
    saved = sys.stdout, sys.stderr
    if sys.stdout is not None and not isinstance(sys.stdout, TerminalStream):
        sys.stdout = TerminalStream(sys.stdout, "stdout")
    if sys.stderr is not None and not isinstance(sys.stderr, TerminalStream):
        sys.stderr = TerminalStream(sys.stderr, "stderr")
    arguments = list(argv) if argv is not None else sys.argv[1:]
    try:
        status = _run(arguments)
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()  # what is still buffered fails here, not unseen at exit
        return status
    except OutputError as failure:
        return _output_failed(failure, arguments)
    finally:
        sys.stdout, sys.stderr = saved


def _output_failed(failure: OutputError, arguments: Sequence[str]) -> int:
    """A write to stdout or stderr failed: a closed pipe ends quietly (0), anything else with one line (2).

    The line goes to stderr unless stderr is what failed; nothing is ever raised from here.
    """
    if failure.broken_pipe:
        return int(ExitCode.OK)
    if failure.stream == "stdout":
        try:
            lang = language_in(arguments)
            reason = failure.error.strerror or str(failure.error)
            where = m(f"stream.{failure.stream}", lang)
            print(f"{PROG}: error: {m('output_failed', lang, stream=where, reason=reason)}", file=sys.stderr)
            sys.stderr.flush()
        except (OutputError, OSError, ValueError):
            pass  # stderr cannot be written either: the exit status says it
    return int(ExitCode.BAD_INPUT)


def _run(arguments: list[str]) -> int:
    """Parse ``arguments`` and run the command; every error but a failed output becomes its exit status."""
    from ..formats.settings import SettingError

    try:
        lang = language_in(arguments)
        parser = build_parser(lang, only=_command_in(arguments))
        try:
            if isinstance(parser, Parser):  # an unknown subcommand, refused in the parser's language
                parser.check_command(arguments, (name for name, _ in COMMANDS), ("--lang", "--theme"))
            args = parser.parse_args(arguments)
        except SystemExit as exit_:
            return int(exit_.code) if isinstance(exit_.code, int) else int(ExitCode.BAD_INPUT)
        args.lang = themed(args.lang, getattr(args, "display_theme", None))  # a theme rides on the language
        status: int = args.func(args)
        return int(status)  # a plain int (not the ExitCode member), as printed in the lessons
    except KeyboardInterrupt:
        from ..entry import interrupted_line

        print(interrupted_line(), file=sys.stderr)  # one line, never a traceback
        return int(ExitCode.INTERRUPTED)
    except OutputError:
        raise  # stdout or stderr failed: main says so (a bug's line could not be printed either)
    except SettingError as err:  # BATTLELINE_LAB_DATA='~nouser/x': bad input, named and located by its variable
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return int(ExitCode.BAD_INPUT)
    except BrokenPipeError:  # a write past the sanitised streams (a binary one): as a closed pipe always ends
        return int(ExitCode.OK)
    except Exception as err:  # noqa: BLE001 - the one place that turns any bug into one line
        from ..entry import caused_by_interrupt, interrupted_line

        if caused_by_interrupt(err):  # Ctrl-C while a module was defining its classes: not a bug
            print(interrupted_line(), file=sys.stderr)
            return int(ExitCode.INTERRUPTED)
        print(f"{PROG}: {_internal_error_text()}: {type(err).__name__}: {err}", file=sys.stderr)
        return int(ExitCode.INTERNAL)


def _internal_error_text() -> str:
    try:
        return m("internal_error")
    except Exception:  # noqa: BLE001 - the catalogue itself may be what failed
        return "internal error"
