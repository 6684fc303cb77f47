"""A puzzle file's text as plain data, and the text changed to hold edited data with its comments kept.

:func:`plain_data` reads composed nodes (the project's safe reader: nothing is executed) into the
plain values of the file; :func:`patch_text` rewrites only what an edit changed.  Lines of keys
that did not change stay byte for byte, comments included; inside a block mapping (``flags:``, a
flag written over several lines, ``title:`` by language, a block ``question:``) only the edited
entries are rewritten, in the house style of :mod:`~battleline_lab.authoring.writer`.
docs/authoring.md compares it with ruamel.yaml's round trip on the whole library.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..formats.safe_yaml import ComposeError, compose, scalar_value
from ..quiz.loader import TOP_LEVEL_KEYS
from .writer import _flag_lines, _flow, _scalar, _text_lines, dump_puzzle

__all__ = ["FLAG_ORDER", "flag_entry", "patch_text", "plain_data", "texts_by_language"]

#: The keys of a flag entry in the order the format writes them.
FLAG_ORDER = ("you", "opponent", "first_complete", "claimed_by")


# -- reading a file's text into plain data ----------------------------------------------------------


def plain_data(node: Node) -> object:
    if isinstance(node, ScalarNode):
        return scalar_value(node)
    if isinstance(node, SequenceNode):
        return [plain_data(item) for item in node.value]
    if isinstance(node, MappingNode):
        return {scalar_value(k) if isinstance(k, ScalarNode) else None: plain_data(v) for k, v in node.value}
    return None  # pragma: no cover


def texts_by_language(value: object) -> dict[str, str]:
    if isinstance(value, str):
        return {"en": value}
    if isinstance(value, Mapping):
        return {str(k): str(v) for k, v in value.items()}
    return {}


# -- the text patcher -------------------------------------------------------------------------------


def _is_filler(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _spans(lines: list[str], starts: list[int], end: int) -> list[tuple[int, int]]:
    """Line spans [start, stop) of consecutive entries; trailing blank and comment lines stay outside."""
    out = []
    for i, start in enumerate(starts):
        stop = starts[i + 1] if i + 1 < len(starts) else end
        while stop > start + 1 and _is_filler(lines[stop - 1]):
            stop -= 1
        out.append((start, stop))
    return out


def _trailing_comment(lines: list[str], node: Node) -> str:
    """`` # ...`` after a one-line value, kept when the value is rewritten."""
    if node.start_mark.line != node.end_mark.line:
        return ""
    rest = lines[node.end_mark.line][node.end_mark.column :]
    match = re.match(r"^(\s+#.*)$", rest)
    return match.group(1) if match else ""


def _with_comment(new: list[str], comment: str) -> list[str]:
    if comment and len(new) == 1:
        return [new[0] + comment]
    return new


def flag_entry(value: Mapping[str, Any]) -> dict[str, Any]:
    return {k: value[k] for k in FLAG_ORDER if k in value}


def _entry_lines(key: object, value: Any, indent: str) -> list[str]:
    """One entry of a block mapping in the house style: ``key: [flow]``, or a text on one line or folded."""
    if isinstance(value, str):
        return _text_lines(_scalar(key), value, indent)
    return [f"{indent}{_scalar(key)}: {_flow(value)}"]


def _flag_fresh(key: object, value: Any, indent: str) -> list[str]:
    """A flag of a block ``flags:`` written anew, as the writer writes it, at the block's indent."""
    assert isinstance(key, int)
    return [indent + line[2:] for line in _flag_lines(key, flag_entry(value))]


#: Writes one entry anew: (key, value, indent) -> lines.
Fresh: TypeAlias = Callable[[object, Any, str], list[str]]


def _patch_block(
    lines: list[str], node: MappingNode, span: tuple[int, int], old: Any, new: Any, fresh: Fresh = _entry_lines
) -> list[str] | None:
    """A block mapping with only its edited entries rewritten, or None if it is not one entry a line group.

    An edited entry whose value is itself a block mapping is patched the same way (a flag over
    several lines, a title by language, a block question), so only its edited lines change.
    """
    if node.flow_style or not isinstance(old, Mapping) or not isinstance(new, Mapping) or not node.value:
        return None
    keys = [k for k, _ in node.value]
    starts = [k.start_mark.line for k in keys]
    if len(set(starts)) != len(starts) or starts[0] <= span[0]:
        return None
    column = keys[0].start_mark.column
    if any(k.start_mark.column != column for k in keys):
        return None
    indent = " " * column
    spans = _spans(lines, starts, span[1])
    body: list[str] = lines[span[0] : starts[0]]
    names = [scalar_value(k) if isinstance(k, ScalarNode) else None for k in keys]
    if any(not isinstance(n, (int, str)) or isinstance(n, bool) for n in names) or len(set(names)) != len(names):
        return None
    present = set(names)
    order = list(new)

    def added_after(name: object) -> list[str]:
        """New entries that belong right after ``name`` in the edited data's order (None: before all)."""
        block: list[str] = []
        for key in order:
            if key in present:
                continue
            before = [k for k in order[: order.index(key)] if k in present]
            if (before[-1] if before else None) == name:
                block += fresh(key, new[key], indent)
        return block

    body += added_after(None)
    for i, (name, (start, stop)) in enumerate(zip(names, spans)):
        gap_stop = starts[i + 1] if i + 1 < len(starts) else span[1]
        if name not in new:
            pass  # removed
        elif old.get(name) == new[name]:
            body += lines[start:stop]
        else:
            value_node = node.value[i][1]
            patched = None
            if isinstance(value_node, MappingNode) and isinstance(new[name], Mapping) and new[name]:
                patched = _patch_block(lines, value_node, (start, stop), old.get(name), new[name])
            if patched is None:
                patched = _with_comment(fresh(name, new[name], indent), _trailing_comment(lines, value_node))
            body += patched
        body += added_after(name)
        body += lines[stop:gap_stop]
    return body


def patch_text(text: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> str | None:
    """``text`` (whose plain data is ``old``) changed to hold ``new``: only edited keys rewritten.

    Lines of keys that did not change are kept byte for byte, comments included;
    an edited key is rewritten in the house style (an edited flag alone, inside a
    block ``flags:``); a new key goes after the last key that precedes it in the
    format's order.  None when the text is not a plain top-level mapping.

    >>> text = "# my puzzle\\nid: x  # the id\\nlevel: 2   # guessed\\nanswer: true\\n"
    >>> print(patch_text(text, {"id": "x", "level": 2, "answer": True}, {"id": "x", "level": 3, "tags": ["a"]}), end="")
    # my puzzle
    id: x  # the id
    level: 3   # guessed
    tags: [a]
    """
    try:
        root, refused = compose(text, exact_marks=True)
    except ComposeError:
        return None
    if refused or not isinstance(root, MappingNode) or root.flow_style or not root.value:
        return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
        end_newline = True
    else:
        end_newline = False
    keys = [k for k, _ in root.value]
    names = [scalar_value(k) if isinstance(k, ScalarNode) else None for k in keys]
    if any(not isinstance(n, str) for n in names) or len(set(names)) != len(names):
        return None
    starts = [k.start_mark.line for k in keys]
    if any(k.start_mark.column != 0 for k in keys) or len(set(starts)) != len(starts):
        return None
    spans = _spans(lines, starts, len(lines))
    out: list[str] = lines[: starts[0]]
    present = set(names)
    order = list(TOP_LEVEL_KEYS)

    def added_after(name: str | None) -> list[str]:
        """New keys that belong right after ``name`` (None: before every present key)."""
        block: list[str] = []
        for key in new:
            if key in present or key not in order:
                continue
            before = [k for k in order[: order.index(key)] if k in present]
            anchor = before[-1] if before else None
            if anchor == name:
                block += dump_puzzle({key: new[key]}).splitlines()
        return block

    out += added_after(None)
    for i, (name, (start, stop)) in enumerate(zip(names, spans)):
        gap_stop = starts[i + 1] if i + 1 < len(starts) else len(lines)
        assert isinstance(name, str)
        if name not in new:
            pass
        elif name in old and old[name] == new[name]:
            out += lines[start:stop]
        else:
            value_node = root.value[i][1]
            patched = None
            if isinstance(value_node, MappingNode) and isinstance(new[name], Mapping) and new[name]:
                fresh = _flag_fresh if name == "flags" else _entry_lines
                patched = _patch_block(lines, value_node, (start, stop), old.get(name), new[name], fresh)
            if patched is None:
                patched = _with_comment(
                    dump_puzzle({name: new[name]}).splitlines(), _trailing_comment(lines, value_node)
                )
            out += patched
        out += added_after(name)
        out += lines[stop:gap_stop]
    return "\n".join(out) + ("\n" if end_newline or not lines else "")
