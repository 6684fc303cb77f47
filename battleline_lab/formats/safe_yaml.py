"""Safe YAML reading shared by the puzzle loader and the game-record reader.

Both file formats (:mod:`battleline_lab.quiz.loader`, :mod:`battleline_lab.game.record`)
are read the same way: PyYAML's safe loader only *composes* the node graph
(every node keeps its line and column), tags, anchors and aliases are noted
and refused, nothing is ever constructed or executed, files are limited to
:data:`MAX_BYTES` and must be UTF-8.  This module holds that machinery and
says nothing to the user itself: it reports *what* went wrong and *where*
(:class:`Refusal`, :class:`ComposeError`, :class:`FileTooBigError`,
:class:`NotUtf8Error`, :class:`KeyIssue`), and each caller words the message
from its own catalogue keys (``load.*``, ``record.*``).  The other way round,
:func:`yaml_string` writes a text as a YAML scalar that reads back as the same
text (puzzle writer, game records).

>>> root, refused = compose("a: &x 1\\nb: !!str 2\\nc: *x\\n")
>>> [(r.kind, r.name, mark_position(r.mark)) for r in refused]
[('anchor', 'x', (1, 4)), ('tag', '!!str', (2, 4)), ('alias', 'x', (3, 4))]
>>> compose("a: [1, 2")
Traceback (most recent call last):
...
battleline_lab.formats.safe_yaml.ComposeError: 1:9: syntax: expected ',' or ']', but got '<stream end>'
>>> entries, issues = mapping_entries(compose("flgas: 1\\nid: x\\nid: y")[0], ("id", "flags"), scalar_value)
>>> list(entries), [(i.problem, i.key, mark_position(i.node)) for i in issues], closest("flgas", ("id", "flags"))
(['id'], [('unknown', 'flgas', (1, 1)), ('duplicate', 'id', (3, 1))], 'flags')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import Any, Generic, Literal, NamedTuple, TypeVar

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode
from yaml.resolver import Resolver

from ..text.show import closest, escape_control
from .files import MAX_BYTES, FileTooBigError, NotRegularFileError, read_regular


def _libyaml_parser() -> Any:
    """libyaml's parser (C), where PyYAML was built with it (Pyodide and some platforms lack it), else None."""
    try:
        from yaml import cyaml
    except ImportError:  # pragma: no cover - depends on the PyYAML build
        return None
    return getattr(cyaml, "CParser", None)


_CParser: Any = _libyaml_parser()

__all__ = [
    "BOOL",
    "FLOAT",
    "INT",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_ERRORS",
    "MAX_NUMBER_CHARS",
    "NULL",
    "ComposeError",
    "Diagnostic",
    "FileTooBigError",
    "KeyIssue",
    "NotRegularFileError",
    "NotUtf8Error",
    "Refusal",
    "closest",
    "ascii_int",
    "backends",
    "compose",
    "decode_utf8",
    "escape_control",
    "has_control",
    "has_surrogate",
    "line_col",
    "mapping_entries",
    "mark_position",
    "read_limited",
    "scalar_value",
    "syntax_errors",
    "utf8_size",
    "yaml_printable",
    "yaml_string",
]

#: A file reports at most this many errors, then "... and N more" (a 1 MiB file of errors stays readable).
MAX_ERRORS = 50

#: An integer or float written with more characters than this is read as text (no 5,000-digit numbers).
MAX_NUMBER_CHARS = 100

_YAML_TAG = "tag:yaml.org,2002:"
INT = _YAML_TAG + "int"
FLOAT = _YAML_TAG + "float"
BOOL = _YAML_TAG + "bool"
NULL = _YAML_TAG + "null"

K = TypeVar("K")


@dataclass(frozen=True)
class Diagnostic:
    """One error in a file, 1-based line and column: ``FILE:LINE:COL: error: message``.

    >>> str(Diagnostic("a.yaml", 3, 7, "boom"))
    'a.yaml:3:7: error: boom'
    """

    file: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        # the file name and the message are escaped (escape_control): a name can neither drive the terminal nor
        # forge a line; escaping twice changes nothing (the escaped form is printable ASCII)
        return f"{escape_control(self.file)}:{self.line}:{self.col}: error: {escape_control(self.message)}"


# -- text -----------------------------------------------------------------------------------------


def line_col(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of ``text[index]``.

    >>> line_col("ab\\ncd", 4)
    (2, 2)
    """
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


def mark_position(where: Node | yaml.Mark | None) -> tuple[int, int]:
    """The 1-based line and column of a node or a YAML mark (``(1, 1)`` for none)."""
    if where is None:
        return 1, 1
    mark = where.start_mark if isinstance(where, Node) else where
    return mark.line + 1, mark.column + 1


#: Bidi overrides and isolates (U+202A-U+202E, U+2066-U+2069): they reorder what follows on the screen.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def has_control(text: str) -> bool:
    """Control characters other than newline and tab (terminal escapes, bells, C1), or a bidi override/isolate.

    >>> has_control("a\\tb\\n"), has_control("\\x1b[2J"), has_control("\\x9b"), has_control("a\\u202eb")
    (False, True, True, True)
    """
    if text.isascii():
        return any(ch < " " and ch not in "\n\t" or ch == "\x7f" for ch in text)
    return any((unicodedata.category(ch) == "Cc" and ch not in "\n\t") or ch in BIDI_CONTROLS for ch in text)


def has_surrogate(text: str) -> bool:
    """A lone surrogate (``"\\ud800"`` in a double-quoted YAML string): text no UTF-8 output can hold.

    >>> has_surrogate("\\ud800"), has_surrogate("中文 é")
    (True, False)
    """
    return not text.isascii() and any("\ud800" <= ch <= "\udfff" for ch in text)


_ASCII_INT = re.compile(r"[-+]?[0-9]+")


def ascii_int(text: str) -> int | None:
    """``text`` as an integer if it is one written with ASCII digits 0-9 (at most :data:`MAX_NUMBER_CHARS`).

    Python's ``int()`` also reads other scripts' digits and raises past 4,300 digits;
    this reads only what a file format means by a number, and never raises.

    >>> ascii_int("42"), ascii_int("-7"), ascii_int("\\u0663"), ascii_int("5.0"), ascii_int("9" * 5000)
    (42, -7, None, None, None)
    """
    text = text.strip()
    if len(text) > MAX_NUMBER_CHARS or not _ASCII_INT.fullmatch(text):
        return None
    return int(text)


# -- bytes ----------------------------------------------------------------------------------------


class NotUtf8Error(ValueError):
    """Bytes that are not UTF-8; ``line`` and ``col`` (1-based, in characters) locate the first bad byte."""

    def __init__(self, line: int, col: int) -> None:
        super().__init__(f"not UTF-8 at {line}:{col}")
        self.line = line
        self.col = col


def utf8_size(text: str) -> int:
    """The size of ``text`` in UTF-8 bytes (a lone surrogate counts as one replaced character)."""
    return len(text.encode("utf-8", errors="replace"))


def read_limited(filename: str) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_BYTES` (:func:`battleline_lab.formats.files.read_regular`).

    Raises :class:`FileTooBigError` (``size`` = the file's size),
    :class:`~battleline_lab.formats.files.NotRegularFileError` (a folder, a FIFO, a device:
    refused at once, never read) and :class:`OSError`.
    """
    return read_regular(filename, MAX_BYTES)


def decode_utf8(data: bytes) -> str:
    """``data`` as UTF-8 text (a byte-order mark is kept); raises :class:`NotUtf8Error`.

    >>> decode_utf8(b"id: x\\nb: \\xff")
    Traceback (most recent call last):
    ...
    battleline_lab.formats.safe_yaml.NotUtf8Error: not UTF-8 at 2:4
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        head = data[: err.start].decode("utf-8", errors="replace")
        line, col = line_col(head, len(head))
        raise NotUtf8Error(line, col) from None


# -- YAML: compose nodes, refusing tags, anchors and aliases ----------------------------------------


class Refusal(NamedTuple):
    """A tag, anchor, alias or unencodable text met while composing: where, which ``kind``, and its ``name``.

    ``name`` is the anchor's name, the tag in short form (``!!str``, ``!foo``),
    or for ``"surrogate"`` the scalar holding a lone surrogate (``"\\ud800"``
    in a double-quoted string: text no UTF-8 output can hold).  It is raw
    author text: escape it (:func:`escape_control`) before showing it.
    """

    mark: yaml.Mark
    kind: Literal["alias", "anchor", "tag", "surrogate"]
    name: str


class ComposeError(ValueError):
    """Text that cannot be composed, at 1-based ``line``, ``col``.

    ``kind`` is ``"syntax"`` (``problem`` and ``context`` from the parser),
    ``"character"`` (a character YAML does not allow: ``character`` and the
    reader's ``reason``) or ``"too_deep"`` (nesting beyond Python's recursion limit).
    """

    def __init__(
        self,
        kind: Literal["syntax", "character", "too_deep"],
        line: int,
        col: int,
        *,
        problem: str | None = None,
        context: str | None = None,
        character: object = None,
        reason: str = "",
    ) -> None:
        super().__init__(f"{line}:{col}: {kind}: {problem or context or reason}")
        self.kind = kind
        self.line = line
        self.col = col
        self.problem = problem
        self.context = context
        self.character = character
        self.reason = reason


#: Lists and mappings nest at most this deep (a puzzle needs 4 levels): deeper is ``too_deep``.
MAX_DEPTH = 100


class _Differs(Exception):
    """libyaml read something the pure-Python parser may read otherwise: read the text with the latter."""


#: What libyaml and PyYAML's pure-Python parser read differently (found by tests/test_fuzz.py): tabs,
#: other line breaks, a byte-order mark inside the text, a lone ``?`` or ``!``, a comment glued to a
#: block scalar header.  A text with any of these is read by the pure-Python parser only.
_LIBYAML_DIFFERS = re.compile(r"[\t\r\x85\u2028\u2029\ufeff]|[?!](?=[\s,\]}]|$)|[|>][-+0-9]*#", re.MULTILINE)


def _compose_events(
    parser: Any, *, libyaml: bool = False, exact_marks: bool = False
) -> tuple[Node | None, list[Refusal]]:
    """Compose the single document of a parser's events into nodes, refusing tags, anchors, aliases, surrogates.

    The same nodes PyYAML's composer makes (tags resolved by its safe resolver,
    marks from the events), but in one loop instead of one recursive call per
    node, with a resolver cache and a depth limit: this is what makes a 1 MiB file
    quick, and it is shared by both parsers, so they give the same nodes.  To keep a
    big file small in memory, short texts are shared and a scalar that ends on the
    line it starts on has ``end_mark is start_mark`` (only the line of a scalar's
    end is ever read), unless ``exact_marks`` (the editor patches text after a value).
    """
    refused: list[Refusal] = []
    resolve = Resolver().resolve
    resolved: dict[tuple[str, tuple[bool, bool]], str] = {}
    shared: dict[str, str] = {}  # one copy of each short text (a big file repeats its words)
    anchors: dict[str, Node] = {}
    get_event = parser.get_event
    get_event()  # stream start
    if parser.check_event(yaml.StreamEndEvent):
        get_event()
        return None, refused
    document = get_event()
    root: list[Node] = []  # the document's node, once composed
    # the collections being composed, innermost last: (node, its items, a mapping's pending key or None)
    stack: list[list[Any]] = []
    items: list[Any] = root
    pending: Node | None = None
    is_mapping = False
    scalar_event, alias_event = yaml.ScalarEvent, yaml.AliasEvent
    end_events = (yaml.SequenceEndEvent, yaml.MappingEndEvent)

    while True:
        event = get_event()
        kind = type(event)
        if kind is scalar_event:
            tag = event.tag
            anchor = event.anchor
            value = event.value
            if len(value) <= 16:
                if not value and libyaml and not event.style:  # where an empty value is, the parsers disagree
                    raise _Differs
                value = shared.setdefault(value, value)
            if tag is None or tag == "!":
                implicit = event.implicit
                key = (value, implicit)
                tag = resolved.get(key)
                if tag is None:
                    tag = resolve(ScalarNode, value, implicit)  # type: ignore[no-untyped-call]
                    if len(value) <= 64 and len(resolved) < 10_000:
                        resolved[key] = tag
            else:
                _note_tag(refused, event.start_mark, tag)
            if anchor is not None:
                _note_anchor(refused, anchors, event)
            style = event.style or None  # libyaml says '' for plain, PyYAML None
            if style == '"' and has_surrogate(value):
                refused.append(Refusal(event.start_mark, "surrogate", value))
            start, end = event.start_mark, event.end_mark
            if end.line == start.line and not exact_marks:  # where a scalar ends on its line: one mark, not two
                end = start
            node: Node = ScalarNode(tag, value, start, end, style=style)
            if anchor is not None:
                anchors[anchor] = node
        elif kind in end_events:
            node = stack[-1][0]
            node.end_mark = event.end_mark
            _, _, items, pending, is_mapping = stack.pop()
        elif kind is alias_event:
            refused.append(Refusal(event.start_mark, "alias", event.anchor))
            node = ScalarNode(NULL, "", event.start_mark, event.end_mark)
        elif kind is yaml.DocumentEndEvent:
            break
        else:  # a sequence or mapping starts
            if len(stack) >= MAX_DEPTH:
                raise RecursionError("YAML nested too deeply")
            tag = event.tag
            anchor = event.anchor
            if anchor is not None:
                _note_anchor(refused, anchors, event)
            starts_sequence = kind is yaml.SequenceStartEvent
            if tag is None or tag == "!":
                tag = _YAML_TAG + ("seq" if starts_sequence else "map")
            else:
                _note_tag(refused, event.start_mark, tag)
            node_class = yaml.SequenceNode if starts_sequence else MappingNode
            node = node_class(tag, [], event.start_mark, None, flow_style=bool(event.flow_style))
            if anchor is not None:
                anchors[anchor] = node
            stack.append([node, node.value, items, pending, is_mapping])
            items, pending, is_mapping = node.value, None, not starts_sequence
            continue
        if is_mapping:
            if pending is None:
                pending = node
            else:
                items.append((pending, node))
                pending = None
        else:
            items.append(node)
    if not parser.check_event(yaml.StreamEndEvent):
        event = get_event()
        raise yaml.composer.ComposerError(
            "expected a single document in the stream",
            document.start_mark,
            "but found another document",
            event.start_mark,
        )
    get_event()
    return (root[0] if root else None), refused


def _note_tag(refused: list[Refusal], mark: yaml.Mark, tag: str) -> None:
    shown = "!!" + tag.removeprefix(_YAML_TAG) if tag.startswith(_YAML_TAG) else tag
    refused.append(Refusal(mark, "tag", shown))


def _note_anchor(refused: list[Refusal], anchors: dict[str, Node], event: Any) -> None:
    """Refuse an anchor; a second one of the same name is the error PyYAML's composer gives."""
    if event.anchor in anchors:
        raise yaml.composer.ComposerError(
            f"found duplicate anchor {event.anchor!r}; first occurrence",
            anchors[event.anchor].start_mark,
            "second occurrence",
            event.start_mark,
        )
    refused.append(Refusal(event.start_mark, "anchor", event.anchor))


class _PythonParser(yaml.SafeLoader):
    """PyYAML's pure-Python reader, scanner and parser (the composer is :func:`_compose_events`)."""


#: The parsers available here, fastest first: ``"libyaml"`` (if PyYAML was built with it), ``"python"``.
BACKENDS: tuple[str, ...] = ("libyaml", "python") if _CParser is not None else ("python",)


def backends() -> tuple[str, ...]:
    """The YAML parsers available here, fastest first (``compose(..., backend=)``).

    >>> backends()[-1]
    'python'
    """
    return BACKENDS


def compose(text: str, *, backend: str | None = None, exact_marks: bool = False) -> tuple[Node | None, list[Refusal]]:
    """The root node of a one-document YAML text (None if empty) and the tags, anchors and aliases refused.

    An alias is composed as a null scalar, never as the node it names.
    ``backend`` is ``"libyaml"`` or ``"python"`` (default: the fastest available).
    Both parsers feed the same composer (:func:`_compose_events`); libyaml reads
    valid YAML to the same events, lines and columns, and on any error, or where the
    two are known to read a text differently (tabs, empty values, ...), the text is
    read by the pure-Python parser, so every diagnostic is the same whichever
    backend runs.  Nesting deeper than :data:`MAX_DEPTH` is ``too_deep``.  Raises
    :class:`ComposeError`.  ``exact_marks`` keeps every scalar's own end mark (by default a
    scalar that ends on the line it starts on shares its start mark, to save memory).
    """
    chosen = backend or BACKENDS[0]
    if chosen == "libyaml" and _CParser is not None and not _LIBYAML_DIFFERS.search(text):
        try:
            return _compose_with(_CParser, text, exact_marks)
        except ComposeError as err:
            if err.kind == "too_deep":
                raise
        except (_Differs, UnicodeEncodeError):  # UnicodeEncodeError: a lone surrogate in the text itself
            pass
    elif chosen not in BACKENDS:
        raise ValueError(f"unknown YAML backend {backend!r}; available: {', '.join(BACKENDS)}")
    return _compose_with(_PythonParser, text, exact_marks)


def _compose_with(
    kind: Callable[[str], Any], text: str, exact_marks: bool = False
) -> tuple[Node | None, list[Refusal]]:
    composer = None
    try:
        composer = kind(text)
        return _compose_events(composer, libyaml=kind is _CParser, exact_marks=exact_marks)
    except yaml.MarkedYAMLError as err:
        line, col = mark_position(err.problem_mark or err.context_mark)
        raise ComposeError("syntax", line, col, problem=err.problem, context=err.context) from None
    except yaml.reader.ReaderError as err:
        line, col = line_col(text, err.position)
        raise ComposeError("character", line, col, character=err.character, reason=err.reason) from None
    except RecursionError:
        raise ComposeError("too_deep", 1, 1) from None
    except yaml.YAMLError as err:  # other YAML errors carry no mark (libyaml's reader, ...)
        raise ComposeError("syntax", 1, 1, problem=str(err)) from None
    except _Differs:
        raise
    except Exception as err:  # noqa: BLE001 - the pure-Python scanner's own bugs: "\U00110000" is a ValueError
        if kind is _CParser or composer is None:
            raise _Differs from None  # read again by the pure-Python parser, which locates it
        line, col = mark_position(composer.get_mark())
        raise ComposeError("syntax", line, col, problem=_scanner_problem(err)) from None
    finally:
        if composer is not None:
            composer.dispose()


def _top_level_starts(text: str) -> list[int]:
    """0-based lines where a top-level entry starts: text in column 0 that is no comment and no
    continuation (``]``, ``}``, a document marker), after the first such line."""
    starts = []
    for number, line in enumerate(text.split("\n")):
        if line[:1] and not line[:1].isspace() and line[0] not in "#]}" and not line.startswith(("---", "...")):
            starts.append(number)
    return starts


def syntax_errors(text: str, first: ComposeError) -> list[ComposeError]:
    """Every syntax error of ``text`` whose first is ``first``, in line order.

    A YAML parser stops at its first error, so the rest of the text is read again in pieces:
    each top-level entry that starts after the line of the error (a key in column 0 with the
    indented lines below it) is composed on its own, at its own lines and columns, and the
    first error of each piece that has one is added.  A piece that reads cleanly adds nothing;
    an error that swallows the rest of the file (an unclosed quote or bracket) is reported once.

    >>> text = "id: a\\ntitle: x: y\\nlevel: 2\\ntags: [a, b\\nnote: ok\\n"
    >>> try:
    ...     compose(text)
    ... except ComposeError as err:
    ...     [(e.line, e.col) for e in syntax_errors(text, err)]
    [(2, 9), (5, 1)]
    """
    if first.kind == "too_deep":
        return [first]
    found = [first]
    lines = text.split("\n")
    starts = [n for n in _top_level_starts(text) if n >= first.line]  # first.line is 1-based: after its line
    for i, start in enumerate(starts):
        if len(found) >= MAX_ERRORS:
            break
        stop = starts[i + 1] if i + 1 < len(starts) else len(lines)
        try:
            piece = "\n".join(lines[start:stop])
            compose(piece if piece.endswith("\n") else piece + "\n")
        except ComposeError as err:
            line = err.line + start  # the piece starts in column 0 of its line: only lines shift
            if err.kind == "too_deep" or (line, err.col) == (found[-1].line, found[-1].col):
                continue
            found.append(
                ComposeError(
                    err.kind,
                    line,
                    err.col,
                    problem=err.problem,
                    context=err.context,
                    character=err.character,
                    reason=err.reason,
                )
            )
    return found


def _scanner_problem(err: Exception) -> str:
    """What a non-YAML error of the pure-Python scanner means (in PyYAML's words, like its other problems)."""
    if isinstance(err, (ValueError, OverflowError)) and ("chr()" in str(err) or "too large" in str(err)):
        return "found an escape for a character beyond U+10FFFF"
    return f"found text the YAML reader cannot read ({type(err).__name__})"


# -- reading nodes --------------------------------------------------------------------------------

_SCALARS = SafeConstructor()


def scalar_value(node: ScalarNode) -> object:
    """The value of a scalar node, by its resolved (implicit) tag only: None, bool, int, float or str.

    >>> [scalar_value(n) for n in compose("[~, yes, 0x10, 1.0e+400, 2001-13-45, r3]")[0].value]
    [None, True, 16, inf, '2001-13-45', 'r3']
    """
    tag = node.tag
    if tag in (INT, FLOAT) and len(node.value) > MAX_NUMBER_CHARS:
        return node.value  # no 5,000-digit numbers: as text, so the caller's type check reports it
    try:
        if tag == NULL:
            return None
        if tag == BOOL:
            return node.value.lower() in ("yes", "true", "on")
        if tag == INT:
            return _SCALARS.construct_yaml_int(node)
        if tag == FLOAT:
            return _SCALARS.construct_yaml_float(node)
    except (ValueError, yaml.YAMLError):
        pass
    return node.value


class KeyIssue(Generic[K]):
    """A key of a mapping that is not taken: ``"not_scalar"``, ``"duplicate"`` or ``"unknown"`` (read-only).

    A slotted class, not a dataclass: a big file can hold hundreds of thousands of them.

    >>> KeyIssue("unknown", "flgas", ScalarNode(NULL, ""))
    KeyIssue('unknown', 'flgas')
    """

    __slots__ = ("key", "node", "problem")

    def __init__(self, problem: Literal["not_scalar", "duplicate", "unknown"], key: K | None, node: Node) -> None:
        self.problem = problem
        self.key = key
        self.node = node

    def __repr__(self) -> str:
        return f"KeyIssue({self.problem!r}, {self.key!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KeyIssue):
            return NotImplemented
        return (self.problem, self.key, self.node) == (other.problem, other.key, other.node)

    def __hash__(self) -> int:
        return hash((self.problem, self.key, id(self.node)))


def mapping_entries(
    node: MappingNode, allowed: Container[object] | None, key: Callable[[ScalarNode], K]
) -> tuple[dict[K, tuple[Node, Node]], list[KeyIssue[K]]]:
    """The entries of a mapping node, key -> (key node, value node), and the keys not taken, in file order.

    ``key`` reads a scalar key node (e.g. :func:`scalar_value`); a key that is
    not a scalar, appears again, or is not ``allowed`` (None: any key) is not
    taken.
    """
    out: dict[K, tuple[Node, Node]] = {}
    issues: list[KeyIssue[K]] = []
    add = issues.append
    for key_node, value_node in node.value:
        if type(key_node) is not ScalarNode and not isinstance(key_node, ScalarNode):
            add(KeyIssue("not_scalar", None, key_node))
            continue
        value = key(key_node)
        if value in out:
            add(KeyIssue("duplicate", value, key_node))
        elif allowed is not None and value not in allowed:
            add(KeyIssue("unknown", value, key_node))
        else:
            out[value] = (key_node, value_node)
    return out, issues


# -- writing scalars ------------------------------------------------------------------------------

_RESOLVER = yaml.resolver.Resolver()
_SLUG = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
# plain text in block context: starts with a letter, no YAML indicators that matter there
_PLAIN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9 ,.;'?!()/_-]*[A-Za-z0-9.?!)]|[A-Za-z]")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}


def _is_plain_string(text: str) -> bool:
    """Would YAML read ``text`` back as this very string?"""
    tag: str = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
    return tag == _YAML_TAG + "str"


def yaml_printable(ch: str) -> bool:
    """Printable in YAML 1.1 and not a line break YAML would fold (NEL, LS, PS).

    >>> yaml_printable("é"), yaml_printable("\\x1b"), yaml_printable("\\u2028")
    (True, False, False)
    """
    code = ord(ch)
    if ch in "\x85\u2028\u2029\ufeff":
        return False
    return 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF


def _quoted(text: str) -> str:
    """A double-quoted YAML scalar; escapes only what must be (non-ASCII text stays readable)."""
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif yaml_printable(ch):
            out.append(ch)
        elif ord(ch) <= 0xFF:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return '"' + "".join(out) + '"'


def yaml_string(text: str, *, flow: bool = True) -> str:
    """``text`` as a YAML scalar: plain when that reads back the same, else double-quoted.

    ``flow=True`` is for values inside ``[...]``/``{...}`` (only slug-like words
    stay plain); ``flow=False`` for a top-level value, where ordinary sentences
    stay plain too.

    >>> yaml_string("r3"), yaml_string("yes"), yaml_string("10"), yaml_string("a, b")
    ('r3', '"yes"', '"10"', '"a, b"')
    >>> yaml_string("Can you claim flag 5?", flow=False), yaml_string("a: b", flow=False)
    ('Can you claim flag 5?', '"a: b"')
    """
    pattern = _SLUG if flow else _PLAIN_TEXT
    if pattern.fullmatch(text) and _is_plain_string(text):
        return text
    return _quoted(text)
