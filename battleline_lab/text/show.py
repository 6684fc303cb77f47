"""How a message quotes what someone wrote: escaped, short, in the words of a file.

One place for the three things every error message about an input needs, whether
the input came from a puzzle file (the loader) or from Python (``Position.build``,
``analyse_claim``): :func:`escape_control` makes quoted text safe to print,
:func:`show_value` writes a value as an author would have written it in YAML
(``null``, ``true``, ``[r3, r4]``), short, and :func:`closest` finds the word
that was probably meant.  Nothing here reads a catalogue or a file.

>>> show_value(True), show_value(None), show_value(["r3", 4]), show_value("a\\x1b[2J")
('true', 'null', '[r3, 4]', 'a\\\\x1b[2J')
>>> closest("flgas", ("flags", "id"))
'flags'
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable

__all__ = ["SHOWN_CHARS", "closest", "escape_control", "show_value"]

#: Characters escaped whenever a message quotes what an author wrote: controls (C0, DEL, C1), format
#: characters (bidi overrides, zero-width), lone surrogates, private use, line and paragraph separators.
_ESCAPED_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Zl", "Zp"))

#: The longest quotation of a value in a message (a 5,000-character token stays short).
SHOWN_CHARS = 40


def _escaped(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escape_control(text: str) -> str:
    """Text safe to print in a message: control, format and unencodable characters escaped (``\\x1b``).

    An author's text can then neither drive the terminal (escape sequences, bells,
    bidi overrides) nor break a line or the output's encoding (lone surrogates).

    >>> print(escape_control("a\\x1b[2Jb\\n\\ud800\\u202e é"))
    a\\x1b[2Jb\\x0a\\ud800\\u202e é
    """
    if text.isascii() and text.isprintable():
        return text
    return "".join(_escaped(ch) if unicodedata.category(ch) in _ESCAPED_CATEGORIES else ch for ch in text)


def show_value(value: object) -> str:
    """A short, escaped rendering of a value someone wrote, as YAML would spell it, for error messages."""
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (list, tuple)):
        text = "[" + ", ".join(show_value(v) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{...}"
    else:
        text = str(value)
    text = escape_control(text)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice most like ``word`` (difflib, cutoff 0.6), if any is close.

    >>> closest("flgas", ("flags", "id")), closest("zzz", ("flags", "id"))
    ('flags', None)
    """
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None
