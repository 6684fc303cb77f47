"""The ``battleline-lab`` command line: claims, proofs and puzzle checks in a terminal.

Subcommands::

    battleline-lab claims FILE... [--json]     flags each side can claim by proof now (R12)
    battleline-lab explain FILE [--flag N] [--side you|opponent]
                                               the step-by-step proof or counterexample
    battleline-lab check PATH... [--strict]    validate puzzles and verify their answers
                                               (battleline_lab.checks, shared with the pytest plugin;
                                               ``library``, a theme or an id: the bundled library's)
    battleline-lab lessons [DIR]               copy the lessons out of the package (course.py)

``claims --json`` prints exactly one JSON object per line per file, e.g.
``{"file": "p.yaml", "you": [5], "opponent": []}``: this output is a contract.

Exit status: 0 success; 1 ``check`` found a wrong answer (or a repeated id) in
otherwise valid files; 2 bad input (every error as ``FILE:LINE:COL: error:
message`` on stderr) or bad usage; 3 an internal error (one line on stderr,
never a traceback).

More subcommands plug in through :data:`COMMANDS`: a ``(name, register)`` pair
where ``register(subparsers)`` adds its parser (``subparsers.add_parser(name,
...)``) and sets ``func`` (``parser.set_defaults(func=run)``, ``run(args) ->
int``); ``register`` may also be given as ``"module:function"``, imported only
when the CLI starts.  A ``register`` with a ``lang`` parameter is called with
the language of the help (``register(subparsers, lang="zh")``), so its help
texts, descriptions and metavars can come from the catalogue in that language.

The language is ``--lang`` wherever it stands in the arguments (before or
after the subcommand; :func:`language_in` finds it before the parser is
built).  Help, usage and usage errors are then in that language, argparse's
own phrases ("usage:", "options", "error: ...") included (see
:func:`argparse_language`); a usage error still exits 2 without a traceback.

>>> main(["claims", "--help"]) == 0  # doctest: +ELLIPSIS
usage: battleline-lab claims ...
True
>>> main(["claims", "--help", "--lang", "zh"]) == 0  # doctest: +ELLIPSIS
用法：battleline-lab claims ...
True
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO, cast

from . import __version__
from .claims import ClaimAnalysis, analyse_claim, state_unseen_once
from .console import add_quiet_argument, progress_for
from .decide import decide_position
from .loader import Diagnostic, PuzzleFileError, check_answer, load_puzzle
from .messages import DEFAULT_LANGUAGE, LANGUAGES, THEMES, message, render_analysis, themed
from .position import FLAGS, Side
from .puzzle import Puzzle
from .safe_yaml import ascii_int, escape_control

__all__ = ["COMMANDS", "RegisterFn", "argparse_language", "build_parser", "language_in", "main"]

PROG = "battleline-lab"

RegisterFn = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], Any]

EXIT_OK = 0
EXIT_WRONG = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


def _m(name: str, lang: str = "en", /, **params: Any) -> str:
    return message(f"cli.{name}", lang, **params)


def _print_diagnostics(diagnostics: Sequence[Diagnostic], err: TextIO) -> None:
    for diagnostic in diagnostics:
        print(diagnostic, file=err)


def _flags_text(flags: Sequence[int], lang: str) -> str:
    if not flags:
        return _m("flags.none", lang)
    return message("list.sep", lang).join(str(n) for n in flags)


# -- claims ---------------------------------------------------------------------------------------


def _run_claims(args: argparse.Namespace) -> int:
    status = EXIT_OK
    for name in args.files:
        try:
            puzzle = load_puzzle(name, lang=args.lang)
        except PuzzleFileError as err:
            _print_diagnostics(err.diagnostics, sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        verdicts = decide_position(puzzle.position)  # verdicts only: no proof is built (decide.py)
        you, opponent = list(verdicts[Side.YOU]), list(verdicts[Side.OPPONENT])
        if args.json:
            print(json.dumps({"file": name, "you": you, "opponent": opponent}))
        else:
            lang = args.lang
            you_text, opponent_text = _flags_text(you, lang), _flags_text(opponent, lang)
            print(_m("claims.line", lang, file=escape_control(name), you=you_text, opponent=opponent_text))
    return status


def _register_claims(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str = "en") -> None:
    parser = subparsers.add_parser(
        "claims", help=_m("claims.help", lang), description=_m("claims.description", lang), prog=f"{PROG} claims"
    )
    parser.add_argument("files", nargs="+", metavar=_m("metavar.file", lang), help=_m("claims.files", lang))
    parser.add_argument("--json", action="store_true", help=_m("claims.json", lang))
    parser.set_defaults(func=_run_claims)


# -- explain --------------------------------------------------------------------------------------


def _analysis_lines(analysis: ClaimAnalysis, lang: str) -> list[str]:
    who = message(f"side.{analysis.side.value}", lang)
    lines = [message("explain.title", lang, flag=analysis.flag, me=who)]
    lines.extend(render_analysis(analysis, lang))
    verdict = "explain.verdict.yes" if analysis.claimable else "explain.verdict.no"
    lines.append(message(verdict, lang, flag=analysis.flag, me=who))
    return lines


def _claim_targets(puzzle: Puzzle, flag: int | None, side: Side | None) -> list[tuple[int, Side]]:
    """Which (flag, side) proofs to show: as asked, else the question's, else every complete side."""
    position = puzzle.position
    if flag is not None:
        return [(flag, side or position.turn)]
    question = puzzle.question
    flags: tuple[int, ...] | None = None
    if question is not None and side is None:
        flags, side = question.proof_targets(position)
        if flags is not None and side is not None:
            return [(n, side) for n in flags]
    sides = [side] if side is not None else list(Side)
    targets: list[tuple[int, Side]] = []
    for n in flags or FLAGS:
        state = position.flag(n)
        if state.claimed_by is None:
            targets.extend((n, s) for s in sides if state.is_complete(s))
    return targets


def _run_explain(args: argparse.Namespace) -> int:
    lang = args.lang
    try:
        puzzle = load_puzzle(args.file, lang=lang)
    except PuzzleFileError as err:
        _print_diagnostics(err.diagnostics, sys.stderr)
        return EXIT_BAD_INPUT
    side = Side(args.side) if args.side else None
    title = escape_control(puzzle.title_after_answer(lang))  # the answer follows; escaped like every echoed text
    lines = [_m("explain.header", lang, file=escape_control(args.file), title=title)]
    question = puzzle.question
    own = (
        question.cli_lines(puzzle.position, lang)
        if question is not None and args.flag is None and side is None
        else None
    )
    if own is not None:
        lines.extend(own)  # what the question kind prints (a comparison, a formation)
    else:
        targets = _claim_targets(puzzle, args.flag, side)
        if not targets:
            lines.append(_m("explain.nothing", lang))
        analyses = [analyse_claim(puzzle.position, n, s) for n, s in targets]
        if len({s for _, s in targets}) == 1:
            analyses = state_unseen_once(analyses)  # one side's proofs in a row: the unseen count once (R13)
        for analysis in analyses:
            lines.append("")
            lines.extend(_analysis_lines(analysis, lang))
    print("\n".join(lines))
    _warn_about_answer(puzzle, args.file, lang)
    return EXIT_OK


def _warn_about_answer(puzzle: Puzzle, name: str, lang: str) -> None:
    """``explain`` still explains a puzzle whose stated answer is wrong, but says so (on stderr)."""
    from .checks import CheckWarning

    question = puzzle.question
    if question is None or not check_answer(puzzle, name, lang):
        return
    line, col = puzzle.marks.get("answer") or puzzle.marks.get("question") or (1, 1)
    if "answer" not in puzzle.marks:
        text = message("teachers.explain.no_answer", lang)
    else:
        try:
            expected = json.dumps(question.solve(puzzle.position), ensure_ascii=False)
        except ValueError as err:
            expected = str(err)
        text = message(
            "teachers.explain.wrong", lang, given=json.dumps(puzzle.answer, ensure_ascii=False), expected=expected
        )
    print(CheckWarning(name, line, col, text), file=sys.stderr)


def _flag_number(lang: str) -> Callable[[str], int]:
    """The ``--flag`` type: a flag number 1-9, else an error in ``lang``."""

    def flag_number(text: str) -> int:
        value = ascii_int(text)  # ASCII digits only: int() would also read "３" or "٣"
        if value is None or value not in FLAGS:
            raise argparse.ArgumentTypeError(_m("explain.bad_flag", lang, value=text))
        return value

    return flag_number


def _register_explain(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str = "en") -> None:
    parser = subparsers.add_parser(
        "explain", help=_m("explain.help", lang), description=_m("explain.description", lang), prog=f"{PROG} explain"
    )
    parser.add_argument("file", metavar=_m("metavar.file", lang), help=_m("explain.file", lang))
    parser.add_argument("--flag", type=_flag_number(lang), metavar="N", help=_m("explain.flag", lang))
    parser.add_argument("--side", choices=[s.value for s in Side], help=_m("explain.side", lang))
    parser.set_defaults(func=_run_explain)


# -- check ----------------------------------------------------------------------------------------


def _run_check(args: argparse.Namespace) -> int:
    from .checks import check_files, collect_files  # the one check, shared with the pytest plugin

    lang = args.lang
    files, missing = collect_files(args.paths, lang=lang)
    with progress_for(args, "check", total=len(files)) as bar:
        reports = missing + check_files(files, lang=lang, strict=getattr(args, "strict", False), on_file=bar.advance)
    for report in reports:
        _print_diagnostics(report.diagnostics, sys.stderr)
    checked = [r for r in reports if r.is_file]
    invalid = sum(1 for r in reports if r.invalid)
    wrong = sum(1 for r in reports if not r.invalid and r.errors)
    warnings = sum(len(r.warnings) for r in reports)
    total = len(checked)
    ok = sum(1 for r in checked if r.ok)
    if total:
        failed = total - ok
        text = (
            _m("check.summary.failed", lang, puzzles=message("words.puzzles", lang, count=total), ok=ok, failed=failed)
            if failed
            else _m("check.summary", lang, puzzles=message("words.puzzles", lang, count=total), ok=ok)
        )
        if warnings:
            text += message("list.sep", lang) + message("teachers.check.summary.warnings", lang, count=warnings)
        print(text)
    if invalid:
        return EXIT_BAD_INPUT
    return EXIT_WRONG if wrong else EXIT_OK


def _register_check(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str = "en") -> None:
    parser = subparsers.add_parser(
        "check", help=_m("check.help", lang), description=_m("check.description", lang), prog=f"{PROG} check"
    )
    parser.add_argument("paths", nargs="+", metavar=_m("metavar.path", lang), help=_m("check.paths", lang))
    parser.add_argument("--strict", action="store_true", help=message("teachers.check.strict", lang))
    add_quiet_argument(parser, lang)
    parser.set_defaults(func=_run_check)


# -- the parser -----------------------------------------------------------------------------------

#: Subcommands in the order ``--help`` lists them.  Append ``(name, register)``
#: to add one; ``register`` may be ``"module:function"`` (imported lazily).
COMMANDS: list[tuple[str, RegisterFn | str]] = [
    ("claims", _register_claims),
    ("explain", _register_explain),
    ("check", _register_check),
    ("odds", "battleline_lab.odds_cli:register"),
    ("match", "battleline_lab.game.cli:register"),
    ("replay", "battleline_lab.game.cli:register_replay"),
    ("review", "battleline_lab.game.cli:register_review"),
    ("generate", "battleline_lab.authoring.generate:register"),
    ("show", "battleline_lab.authoring.preview:register"),
    ("worksheet", "battleline_lab.authoring.worksheet:register"),
    ("lessons", "battleline_lab.course:register_lessons"),
    ("lab", "battleline_lab.course:register_lab"),
    ("progress", "battleline_lab.report:register_progress"),
    ("report", "battleline_lab.report:register_report"),
]


def _resolve(register: RegisterFn | str) -> RegisterFn:
    if callable(register):
        return register
    module, _, function = register.partition(":")
    fn: RegisterFn = getattr(importlib.import_module(module), function)
    return fn


def _takes_lang(register: RegisterFn) -> bool:
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


#: argparse's own fixed phrases (its gettext message ids, Python 3.10-3.13) and their catalogue keys
#: (``cli.argparse.<key>``).  A phrase missing here (a newer Python's) stays English.
ARGPARSE_PHRASES: dict[str, str] = {
    "usage: ": "usage",
    "positional arguments": "positionals",
    "options": "options",
    "optional arguments": "options",
    "show this help message and exit": "help",
    "%(prog)s: error: %(message)s\n": "error",
    "argument %(argument_name)s: %(message)s": "argument",
    "the following arguments are required: %s": "required",
    "unrecognized arguments: %s": "unrecognized",
    "invalid choice: %(value)r (choose from %(choices)s)": "invalid_choice",
    "invalid %(type)s value: %(value)r": "invalid_value",
    "ambiguous option: %(option)s could match %(matches)s": "ambiguous",
    "expected one argument": "expected_one",
    "expected at least one argument": "expected_at_least_one",
    "expected at most one argument": "expected_at_most_one",
    "expected %s argument": "expected_n",
    "expected %s arguments": "expected_n",
    "ignored explicit argument %r": "ignored_explicit",
    "one of the arguments %s is required": "one_required",
    "not allowed with argument %s": "not_allowed_with",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "unknown_parser",
    "can't open '%(filename)s': %(error)s": "cannot_open",
}


def _argparse_text(msgid: str, lang: str) -> str:
    key = ARGPARSE_PHRASES.get(msgid)
    return message(f"cli.argparse.{key}", lang) if key else msgid


@contextmanager
def argparse_language(lang: str) -> Iterator[None]:
    """Within the block, argparse's own phrases are in ``lang`` (from the catalogue).

    argparse looks its phrases up through ``argparse._`` (``gettext.gettext``) and
    ``argparse.ngettext`` each time it builds a parser, formats help or reports an
    error; the block puts a catalogue lookup in their place and restores them after
    (the CLI runs one command at a time; not meant for threads parsing at once).

    >>> with argparse_language("zh"):
    ...     argparse.ArgumentParser(prog="p").format_usage()
    '用法：p [-h]\\n'
    >>> argparse.ArgumentParser(prog="p").format_usage()
    'usage: p [-h]\\n'
    """
    if lang == DEFAULT_LANGUAGE:
        yield
        return
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]

    def gettext(msgid: str) -> str:
        return _argparse_text(msgid, lang)

    def ngettext(singular: str, plural: str, n: int) -> str:
        return _argparse_text(singular if n == 1 else plural, lang)

    setattr(argparse, "_", gettext)  # noqa: B010 - a module global argparse reads at call time
    setattr(argparse, "ngettext", ngettext)  # noqa: B010
    try:
        yield
    finally:
        setattr(argparse, "_", saved[0])  # noqa: B010
        setattr(argparse, "ngettext", saved[1])  # noqa: B010


def build_parser(lang: str = DEFAULT_LANGUAGE, *, only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand; help texts in ``lang``.

    ``only`` registers that subcommand alone (the one being run: the others' modules are then
    not imported, which keeps start-up short).  For argparse's own phrases in ``lang`` too,
    build (and use) it inside :func:`argparse_language`.
    """
    parser = argparse.ArgumentParser(prog=PROG, description=_m("description", lang))
    parser.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help=_m("lang", lang))
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}", help=message("package.version", lang)
    )
    subparsers = parser.add_subparsers(dest="command", metavar=_m("metavar.command", lang), required=True)
    for _name, register in COMMANDS:
        if only is not None and _name != only:
            continue
        fn = _resolve(register)
        if _takes_lang(fn):
            cast(Callable[..., Any], fn)(subparsers, lang=lang)
        else:
            fn(subparsers)
    parser.add_argument(
        "--theme",
        dest="display_theme",
        type=_theme_name(lang),
        default=None,
        metavar=_m("metavar.theme", lang),
        help=_m("theme", lang),
    )
    for sub in subparsers.choices.values():
        # --lang after the subcommand too; SUPPRESS keeps a --lang given before it
        if "--lang" not in sub._option_string_actions:
            sub.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=_m("lang", lang))
        if "--theme" not in sub._option_string_actions:  # --theme: the Leaders' names (generate's is its own)
            sub.add_argument(
                "--theme",
                dest="display_theme",
                type=_theme_name(lang),
                default=argparse.SUPPRESS,
                metavar=_m("metavar.theme", lang),
                help=_m("theme", lang),
            )
    return parser


def _theme_name(lang: str) -> Callable[[str], str]:
    """The ``--theme`` type: a name of :data:`THEMES`, else a usage error in ``lang`` (exit 2)."""

    def theme_name(text: str) -> str:
        if text not in THEMES:
            raise argparse.ArgumentTypeError(
                _m("theme.unknown", lang, value=text, themes=message("list.sep", lang).join(THEMES))
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
    """Run the CLI; returns the exit status (never raises, never prints a traceback)."""
    try:
        arguments = list(argv) if argv is not None else sys.argv[1:]
        lang = language_in(arguments)
        with argparse_language(lang):
            parser = build_parser(lang, only=_command_in(arguments))
            try:
                args = parser.parse_args(arguments)
            except SystemExit as exit_:
                return exit_.code if isinstance(exit_.code, int) else EXIT_BAD_INPUT
        args.lang = themed(
            args.lang, getattr(args, "display_theme", None)
        )  # a theme rides on the language (messages.Theme)
        status: int = args.func(args)
        return status
    except KeyboardInterrupt:
        from .entry import EXIT_INTERRUPTED, interrupted_line

        print(interrupted_line(), file=sys.stderr)  # one line, never a traceback (issue 24)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except Exception as err:  # noqa: BLE001 - the one place that turns any bug into one line
        print(f"{PROG}: {_internal_error_text()}: {type(err).__name__}: {err}", file=sys.stderr)
        return EXIT_INTERNAL


def _internal_error_text() -> str:
    try:
        return _m("internal_error")
    except Exception:  # noqa: BLE001 - the catalogue itself may be what failed
        return "internal error"


def _entry() -> None:  # pragma: no cover - for ``python -m battleline_lab.cli``
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    _entry()
