"""argparse in the user's language, through argparse's public hooks only (no patched private names).

:func:`parser_class` gives the :class:`argparse.ArgumentParser` to build the command line with.  In
English it is argparse's own class, untouched.  In another language it is a :class:`Parser`
subclass that puts argparse's fixed phrases in the catalogue's words (``cli.argparse.*``):

* the ``usage:`` prefix and the section headings (``positional arguments``, ``options``): a
  :class:`argparse.HelpFormatter` subclass (:func:`formatter_class`), which also pads and wraps
  by terminal columns (a Chinese character takes two); for that it overrides four of the
  formatter's underscore methods, ``_format_action``, ``_format_usage``, ``_split_lines`` and
  ``_fill_text``, argparse's usual customisation points, unchanged in shape since Python 3.2
  (``_format_usage`` is only called, with an unbounded width, for the parts it lays out on one line);
* ``-h, --help`` and its help text: ``add_help=False`` and the parser's own ``-h`` (``action="help"``);
* ``PROG: error: MESSAGE``: :meth:`Parser.error`, argparse's documented override;
* the messages of a usage error, each made from structured facts instead of argparse's English:
  ``argument X: ...`` (``exit_on_error=False``: argparse raises :class:`argparse.ArgumentError`,
  whose ``argument_name`` and ``message`` the parser words itself); ``invalid choice`` (a choice
  is checked by the parser's own ``type``, see :meth:`Parser.add_argument`); ``invalid int value``;
  ``unrecognized arguments`` (:meth:`Parser.parse_args` over ``parse_known_args``); ``the following
  arguments are required`` (the parser checks its required arguments itself, after parsing); an
  unknown subcommand (:meth:`Parser.check_command`).

What stays English, because argparse words it and offers no hook (docs/i18n.md): ``expected one
argument`` (an option given without its value), ``ambiguous option``, ``ignored explicit argument``,
and the conflict messages of mutually exclusive groups (none of the commands has one).

>>> zh = parser_class("zh")
>>> zh(prog="p").format_usage()
'用法：p [-h]\\n'
>>> parser_class("en") is argparse.ArgumentParser
True
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, NoReturn

from ..text.messages import DEFAULT_LANGUAGE, scoped
from .console import display_width

__all__ = ["Parser", "formatter_class", "parser_class", "wrap_columns"]


_m = scoped("cli.argparse")


#: Punctuation a Chinese line never starts with.
_NO_LINE_START = frozenset("，。、；：！？）》」』】")


def wrap_columns(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` terminal columns: a Chinese character takes two, and a
    line may break after any of them (English words are kept whole, as :mod:`textwrap` keeps them).

    >>> wrap_columns("检查谜题文件，并用引擎核对答案", 12)
    ['检查谜题文', '件，并用引擎', '核对答案']
    >>> wrap_columns("check puzzle files", 12)
    ['check puzzle', 'files']
    """
    pieces = re.findall(r"[^\s\u2e80-\uffef]+|\s+|[\u2e80-\uffef]", text)
    lines: list[str] = []
    line = ""
    last = ""  # the piece that ends ``line`` (a character or a word), carried with a comma that follows it
    for piece in pieces:
        if piece.isspace():
            if line:
                line += " "
                last = ""
            continue
        if line and display_width(line + piece) > width:
            carried = ""
            if piece in _NO_LINE_START and last and len(line) > len(last):
                line, carried = line[: -len(last)], last  # a comma never starts a line: the word before goes with it
            lines.append(line.rstrip())
            line = carried
        line += piece
        last = last + piece if last and piece in _NO_LINE_START else piece
    if line.strip():
        lines.append(line.rstrip())
    return lines


#: A part of a usage line argparse keeps whole: a bracketed or parenthesised group, else a word.
_USAGE_PART = re.compile(r"\(.*?\)+(?=\s|$)|\[.*?\]+(?=\s|$)|\S+")


def _usage_parts(usage: str, prog: str) -> list[str]:
    """The parts of ``usage`` (``PROG ARGUMENTS`` on one line) after ``prog``; an option and the value it
    requires (``--out 文件夹``) are one part, never split across two lines, and so are ``X ...``."""
    words = _USAGE_PART.findall(usage.removeprefix(prog))
    parts: list[str] = []
    for word in words:
        joined = parts and parts[-1].startswith("-") and " " not in parts[-1] and not word.startswith(("-", "[", "("))
        if parts and (joined or word == "..."):  # "{export,name} ...": the dots stay with what they repeat
            parts[-1] += f" {word}"
        else:
            parts.append(word)
    return parts


def _wrap_parts(head: str, parts: list[str], indent: str, width: int) -> list[str]:
    """``head`` then ``parts``, one space apart, in lines of at most ``width`` columns (a part that is
    wider alone gets a line of its own); every line but a first one with ``head`` starts with ``indent``."""
    lines: list[str] = []
    line = head
    for part in parts:
        if line.strip() and display_width(f"{line} {part}") > width:
            lines.append(line)
            line = indent + part
        else:
            line = f"{line} {part}" if line.strip() else indent + part
    if line.strip():
        lines.append(line)
    return lines


@cache
def formatter_class(lang: str) -> type[argparse.HelpFormatter]:
    """A help formatter whose ``usage:`` prefix and section headings are in ``lang``."""
    headings = {"positional arguments": _m("positionals", lang), "options": _m("options", lang)}
    usage = _m("usage", lang)

    class Formatter(argparse.HelpFormatter):
        def add_usage(
            self,
            usage_text: str | None,
            actions: Iterable[argparse.Action],
            groups: Iterable[argparse._MutuallyExclusiveGroup],
            prefix: str | None = None,
        ) -> None:
            super().add_usage(usage_text, actions, groups, usage if prefix is None else prefix)

        def start_section(self, heading: str | None) -> None:
            super().start_section(headings.get(heading, heading) if heading is not None else None)

        # Chinese characters take two terminal columns: argparse pads and wraps by len(), which
        # shifts every help text after a Chinese metavar and lets Chinese help run past the width.
        def add_argument(self, action: argparse.Action) -> None:
            super().add_argument(action)
            if action.help is not argparse.SUPPRESS:
                wide = display_width(self._format_action_invocation(action)) + self._current_indent
                self._action_max_length = max(self._action_max_length, wide)

        def _format_action(self, action: argparse.Action) -> str:
            help_position = min(self._action_max_length + 2, self._max_help_position)
            help_width = max(self._width - help_position, 11)
            action_width = help_position - self._current_indent - 2
            header = self._format_action_invocation(action)
            indent_first = help_position
            if not action.help:
                parts = [f"{'':{self._current_indent}}{header}\n"]
            elif display_width(header) <= action_width:
                padding = " " * (action_width - display_width(header))
                parts = [f"{'':{self._current_indent}}{header}{padding}  "]
                indent_first = 0
            else:
                parts = [f"{'':{self._current_indent}}{header}\n"]
            if action.help and action.help.strip():
                lines = self._split_lines(self._expand_help(action), help_width)
                if lines:
                    parts.append(f"{'':{indent_first}}{lines[0]}\n")
                    parts += [f"{'':{help_position}}{line}\n" for line in lines[1:]]
            elif not parts[0].endswith("\n"):
                parts.append("\n")
            parts += [self._format_action(sub) for sub in self._iter_indented_subactions(action)]
            return self._join_parts(parts)

        def _format_usage(
            self,
            usage_text: str | None,
            actions: Iterable[argparse.Action],
            groups: Iterable[argparse._MutuallyExclusiveGroup],
            prefix: str | None,
        ) -> str:
            # argparse wraps the usage by len(): "用法：" and a Chinese metavar take two columns
            # each, so its lines ran past the width and its continuation lines started three
            # columns left of the first argument.  argparse gives each part on one line (an
            # unbounded width), and the parts are wrapped here by columns, as argparse lays them out.
            actions = list(actions)
            groups = list(groups)
            if usage_text is not None or not actions:
                return super()._format_usage(usage_text, actions, groups, prefix)
            lead = "" if prefix is None else prefix
            width, self._width = self._width, sys.maxsize // 2
            try:
                whole = super()._format_usage(None, actions, groups, lead).rstrip("\n")
                prog = super()._format_usage(None, [], groups, "").rstrip("\n")
                options = [a for a in actions if a.option_strings]
                positionals = [a for a in actions if not a.option_strings]
                opt_parts = _usage_parts(super()._format_usage(None, options, groups, "").strip(), prog)
                pos_parts = _usage_parts(super()._format_usage(None, positionals, groups, "").strip(), prog)
            finally:
                self._width = width
            text_width = self._width - self._current_indent
            if display_width(whole) <= text_width:
                return f"{whole}\n\n"
            head = f"{lead}{prog}"
            # the arguments beside the command, under its first one; or, when the command is long or
            # a part would not fit beside it, on lines of their own under the command
            indent = " " * (display_width(head) + 1)
            lines = _wrap_parts(head, opt_parts or pos_parts, indent, text_width)
            if opt_parts and pos_parts:
                lines += _wrap_parts("", pos_parts, indent, text_width)
            if display_width(head) > 0.75 * text_width or max(map(display_width, lines)) > text_width:
                indent = " " * display_width(lead)
                lines = [head] + _wrap_parts("", opt_parts, indent, text_width)
                lines += _wrap_parts("", pos_parts, indent, text_width)
            return "\n".join(lines) + "\n\n"

        def _split_lines(self, text: str, width: int) -> list[str]:
            return wrap_columns(" ".join(text.split()), width)

        def _fill_text(self, text: str, width: int, indent: str) -> str:
            return "\n".join(indent + line for line in wrap_columns(" ".join(text.split()), width - len(indent)))

    Formatter.__name__ = Formatter.__qualname__ = f"Formatter_{lang}"
    return Formatter


class Parser(argparse.ArgumentParser):
    """An argument parser that speaks :attr:`LANG` (a subclass per language: :func:`parser_class`).

    Subcommand parsers are of the same class (argparse makes them with ``type(self)``), so they speak
    it too.
    """

    LANG = DEFAULT_LANGUAGE

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", formatter_class(self.LANG))
        add_help = kwargs.pop("add_help", True)
        kwargs["exit_on_error"] = False  # ArgumentError reaches parse_known_args below, worded there
        kwargs["add_help"] = False  # its own -h, with the help text in this language
        super().__init__(*args, **kwargs)
        self._required: list[argparse.Action] = []  # checked after parsing, in this language
        self._commands: argparse.Action | None = None
        self._named: dict[str, argparse.Action] = {}  # by the name argparse's errors give
        self._worded: set[str] = set()  # the refusals worded here (or by a command's own type)
        if add_help:
            prefix = self.prefix_chars[0]
            self.add_argument(
                f"{prefix}h", f"{prefix * 2}help", action=_Help, default=argparse.SUPPRESS, help=_m("help", self.LANG)
            )

    # -- building ---------------------------------------------------------------------------------

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        """argparse's ``add_argument``; a ``choices`` list becomes a ``type`` that refuses in this language
        (shown as ``{a,b}`` like argparse's), and a required argument is checked after parsing."""
        choices = kwargs.pop("choices", None)
        convert = kwargs.get("type")
        if choices is not None or callable(convert):
            if choices is not None:
                choices = list(choices)
                kwargs.setdefault("metavar", "{" + ",".join(str(c) for c in choices) + "}")
            kwargs["type"] = self._checked(choices, convert)
        action = super().add_argument(*args, **kwargs)
        self._named[_name(action)] = action
        if action.required:
            self._required.append(action)
        return action

    def add_subparsers(self, **kwargs: Any) -> argparse._SubParsersAction[argparse.ArgumentParser]:  # type: ignore[override]
        """argparse's ``add_subparsers``; a required one is checked after parsing too."""
        action = super().add_subparsers(**kwargs)
        self._commands = action
        if action.required:
            self._required.append(action)
        return action

    def _checked(self, choices: list[Any] | None, convert: Callable[[str], Any] | None) -> Callable[[str], Any]:
        """A ``type`` that converts (``convert``), then checks the choices, refusing in this language."""
        lang = self.LANG

        worded = self._worded

        def checked(text: str) -> Any:
            try:
                value = convert(text) if convert is not None else text
            except argparse.ArgumentTypeError as err:  # the command's own words
                worded.add(str(err))
                raise
            except (TypeError, ValueError):
                name = getattr(convert, "__name__", repr(convert))
                worded.add(refusal := _m("invalid_value", lang) % {"type": name, "value": text})
                raise argparse.ArgumentTypeError(refusal) from None
            if choices is not None and value not in choices:
                shown = ", ".join(repr(c) for c in choices)
                worded.add(refusal := _m("invalid_choice", lang) % {"value": value, "choices": shown})
                raise argparse.ArgumentTypeError(refusal)
            return value

        checked.__name__ = getattr(convert, "__name__", "str")
        return checked

    def _require(self, required: bool) -> None:
        """While argparse parses, the required arguments are not required (it would word the error
        itself; :meth:`parse_known_args` checks them after); for help and usage they are."""
        for action in self._required:
            action.required = required

    # -- parsing ----------------------------------------------------------------------------------

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """argparse's ``parse_known_args``; its errors worded in this language, then the required arguments."""
        self._require(False)
        try:
            parsed, extras = super().parse_known_args(args, namespace)
        except argparse.ArgumentError as err:
            text = self._refusal(err)
            if err.argument_name is not None:
                text = _m("argument", self.LANG) % {"argument_name": err.argument_name, "message": text}
            self.error(text)
        finally:
            self._require(True)
        missing = [_name(a) for a in self._required if getattr(parsed, a.dest, None) in (None, a.default, [])]
        if missing:
            self.error(_m("required", self.LANG) % ", ".join(missing))
        return parsed, extras

    def _refusal(self, err: argparse.ArgumentError) -> str:
        """What was wrong with the argument, in this language where the parser knows it: a refusal
        worded here, or the values its ``nargs`` expects; else argparse's English message."""
        if err.message in self._worded:
            return err.message
        action = self._named.get(err.argument_name or "")
        if action is None or action.nargs == 0:
            return err.message  # e.g. "ignored explicit argument" (--json=1): argparse's English
        if action.nargs is None:
            return _m("expected_one", self.LANG)
        if action.nargs == argparse.OPTIONAL:
            return _m("expected_at_most_one", self.LANG)
        if action.nargs == argparse.ONE_OR_MORE:
            return _m("expected_at_least_one", self.LANG)
        if isinstance(action.nargs, int):
            return _m("expected_n", self.LANG) % action.nargs
        return err.message

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """argparse's ``parse_args``, with ``unrecognized arguments`` in this language."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error(_m("unrecognized", self.LANG) % " ".join(extras))
        return parsed

    def check_command(
        self, arguments: Sequence[str], commands: Iterable[str], options_with_value: Iterable[str]
    ) -> None:
        """Refuse, in this language, a first positional argument that is no subcommand (argparse's own
        refusal would be English).  Options before it are skipped (``options_with_value`` take one)."""
        takes_value = set(options_with_value)
        names = list(commands)
        skip = False
        for arg in arguments:
            if skip:
                skip = False
            elif arg in takes_value:
                skip = True
            elif arg.startswith("-"):
                if arg in ("-h", "--help", "--version") or arg == "--":
                    return  # argparse answers these before any subcommand
            else:
                if arg not in names:
                    shown = ", ".join(repr(n) for n in names)
                    choice = _m("invalid_choice", self.LANG) % {"value": arg, "choices": shown}
                    where = _name(self._commands) if self._commands is not None else "command"
                    self.error(_m("argument", self.LANG) % {"argument_name": where, "message": choice})
                return

    def error(self, message: str) -> NoReturn:
        """The usage, then ``PROG: error: MESSAGE`` in this language; exit status 2."""
        self._require(True)
        self.print_usage(sys.stderr)
        self.exit(2, _m("error", self.LANG) % {"prog": self.prog, "message": message})


def _name(action: argparse.Action) -> str:
    """How argparse names an argument in its messages: its option strings, else its metavar or dest."""
    if action.option_strings:
        return "/".join(action.option_strings)
    if action.metavar not in (None, argparse.SUPPRESS):
        return str(action.metavar)
    return str(action.dest)


class _Help(argparse.Action):
    """``-h``/``--help``: the help (its required arguments shown as required), then exit 0."""

    def __init__(
        self, option_strings: Sequence[str], dest: str, default: Any = argparse.SUPPRESS, help: str | None = None
    ) -> None:  # noqa: A002 - argparse's keyword
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if isinstance(parser, Parser):
            parser._require(True)
        parser.print_help()
        parser.exit()


@cache
def parser_class(lang: str) -> type[argparse.ArgumentParser]:
    """The parser class for ``lang``: argparse's own in English, else a :class:`Parser` speaking it."""
    if lang == DEFAULT_LANGUAGE:
        return argparse.ArgumentParser
    return type(f"Parser_{lang}", (Parser,), {"LANG": lang})
