"""Safe YAML reading shared by the puzzle loader and the game-record reader.

Both file formats (:mod:`battleline_lab.loader`, :mod:`battleline_lab.game.record`)
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
battleline_lab.safe_yaml.ComposeError: 1:9: syntax: expected ',' or ']', but got '<stream end>'
>>> entries, issues = mapping_entries(compose("flgas: 1\\nid: x\\nid: y")[0], ("id", "flags"), scalar_value)
>>> list(entries), [(i.problem, i.key, mark_position(i.node)) for i in issues], closest("flgas", ("id", "flags"))
(['id'], [('unknown', 'flgas', (1, 1)), ('duplicate', 'id', (3, 1))], 'flags')
"""

from __future__ import annotations

import difflib
import os
import re
import unicodedata
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass
from typing import Generic, Literal, NamedTuple, TypeVar

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode

__all__ = [
    "BOOL",
    "FLOAT",
    "INT",
    "MAX_BYTES",
    "NULL",
    "ComposeError",
    "Diagnostic",
    "FileTooBigError",
    "KeyIssue",
    "NotUtf8Error",
    "Refusal",
    "closest",
    "compose",
    "decode_utf8",
    "escape_control",
    "has_control",
    "line_col",
    "mapping_entries",
    "mark_position",
    "read_limited",
    "scalar_value",
    "utf8_size",
    "yaml_printable",
    "yaml_string",
]

#: Puzzle files and game records are limited to 1 MiB.
MAX_BYTES = 1 << 20

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
        return f"{self.file}:{self.line}:{self.col}: error: {self.message}"


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


def has_control(text: str) -> bool:
    """Control characters other than newline and tab (terminal escapes, bells, ...).

    >>> has_control("a\\tb\\n"), has_control("\\x1b[2J")
    (False, True)
    """
    return any(unicodedata.category(ch) == "Cc" and ch not in "\n\t" for ch in text)


def escape_control(text: str) -> str:
    """Control characters escaped (``\\x1b``), so that an author's text cannot drive the terminal.

    >>> print(escape_control("a\\x1b[2Jb"))
    a\\x1b[2Jb
    """
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) == "Cc" else ch for ch in text)


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice most like ``word`` (difflib, cutoff 0.6), if any is close.

    >>> closest("flgas", ("flags", "id")), closest("zzz", ("flags", "id"))
    ('flags', None)
    """
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


# -- bytes ----------------------------------------------------------------------------------------


class FileTooBigError(ValueError):
    """A file or text over :data:`MAX_BYTES`; ``size`` is what was measured."""

    def __init__(self, size: int) -> None:
        super().__init__(f"{size} bytes (limit {MAX_BYTES})")
        self.size = size


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
    """The bytes of a file of at most :data:`MAX_BYTES`; never reads more than one byte past the limit.

    Raises :class:`FileTooBigError` (``size`` = the file's size) and :class:`OSError`.
    """
    size = os.path.getsize(filename)
    if size > MAX_BYTES:
        raise FileTooBigError(size)
    with open(filename, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:  # the file grew since its size was taken
        raise FileTooBigError(len(data))
    return data


def decode_utf8(data: bytes) -> str:
    """``data`` as UTF-8 text (a byte-order mark is kept); raises :class:`NotUtf8Error`.

    >>> decode_utf8(b"id: x\\nb: \\xff")
    Traceback (most recent call last):
    ...
    battleline_lab.safe_yaml.NotUtf8Error: not UTF-8 at 2:4
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        head = data[: err.start].decode("utf-8", errors="replace")
        line, col = line_col(head, len(head))
        raise NotUtf8Error(line, col) from None


# -- YAML: compose nodes, refusing tags, anchors and aliases ----------------------------------------


class Refusal(NamedTuple):
    """A tag, anchor or alias met while composing: where, which ``kind``, and its ``name`` as written.

    ``name`` is the anchor's name, or the tag in short form (``!!str``, ``!foo``);
    it is raw author text: escape it before showing it.
    """

    mark: yaml.Mark
    kind: Literal["alias", "anchor", "tag"]
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


class _Composer(yaml.SafeLoader):
    """PyYAML's safe loader, used only to compose nodes; notes tags, anchors and aliases."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.refused: list[Refusal] = []

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.get_event()  # type: ignore[no-untyped-call]
            self.refused.append(Refusal(event.start_mark, "alias", event.anchor))
            return ScalarNode(NULL, "", event.start_mark, event.end_mark)
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if event.anchor is not None:
            self.refused.append(Refusal(event.start_mark, "anchor", event.anchor))
        tag = getattr(event, "tag", None)
        if tag is not None:
            shown = "!!" + tag.removeprefix(_YAML_TAG) if tag.startswith(_YAML_TAG) else tag
            self.refused.append(Refusal(event.start_mark, "tag", shown))
        return super().compose_node(parent, index)


def compose(text: str) -> tuple[Node | None, list[Refusal]]:
    """The root node of a one-document YAML text (None if empty) and the tags, anchors and aliases refused.

    An alias is composed as a null scalar, never as the node it names.
    Raises :class:`ComposeError`.
    """
    composer: _Composer | None = None
    try:
        composer = _Composer(text)
        return composer.get_single_node(), composer.refused
    except yaml.MarkedYAMLError as err:
        line, col = mark_position(err.problem_mark or err.context_mark)
        raise ComposeError("syntax", line, col, problem=err.problem, context=err.context) from None
    except yaml.reader.ReaderError as err:
        line, col = line_col(text, err.position)
        raise ComposeError("character", line, col, character=err.character, reason=err.reason) from None
    except RecursionError:
        raise ComposeError("too_deep", 1, 1) from None
    except yaml.YAMLError as err:  # pragma: no cover - other YAML errors carry no mark
        raise ComposeError("syntax", 1, 1, problem=str(err)) from None
    finally:
        if composer is not None:
            composer.dispose()


# -- reading nodes --------------------------------------------------------------------------------

_SCALARS = SafeConstructor()


def scalar_value(node: ScalarNode) -> object:
    """The value of a scalar node, by its resolved (implicit) tag only: None, bool, int, float or str.

    >>> [scalar_value(n) for n in compose("[~, yes, 0x10, 1.0e+400, 2001-13-45, r3]")[0].value]
    [None, True, 16, inf, '2001-13-45', 'r3']
    """
    tag = node.tag
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


@dataclass(frozen=True)
class KeyIssue(Generic[K]):
    """A key of a mapping that is not taken: ``"not_scalar"``, ``"duplicate"`` or ``"unknown"``."""

    problem: Literal["not_scalar", "duplicate", "unknown"]
    key: K | None
    node: Node


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
    for key_node, value_node in node.value:
        if not isinstance(key_node, ScalarNode):
            issues.append(KeyIssue("not_scalar", None, key_node))
            continue
        value = key(key_node)
        if value in out:
            issues.append(KeyIssue("duplicate", value, key_node))
        elif allowed is not None and value not in allowed:
            issues.append(KeyIssue("unknown", value, key_node))
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
