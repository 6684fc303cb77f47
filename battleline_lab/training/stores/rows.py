"""A learner's rows: :class:`Attempt` and the one gate every row passes, :func:`check_row`.

Every row a store keeps, whatever its source (an answer in a widget, a file read back, an
export loaded in the gym or read by ``report``), is an :class:`Attempt` made by :func:`check_row`;
a row it refuses is a :class:`RowError`, located in its file when it came from one.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

__all__ = [
    "DEFAULT_LEARNER",
    "KINDS",
    "MAX_ANSWER",
    "MAX_HINTS",
    "MAX_SECONDS",
    "MAX_TEXT",
    "Attempt",
    "RowError",
    "check_row",
    "skipped_warning",
]

DEFAULT_LEARNER = "me"


@dataclass(frozen=True)
class Attempt:
    """One event of a learner with a puzzle.

    ``kind`` is ``answer`` (``correct`` says how it went), ``hint`` (one hint
    taken without answering), ``reveal`` (the solution shown before a right
    answer: a miss), ``reset`` (the learner started over; earlier rows are
    kept but no longer counted) or ``game`` (a game against a bot: ``puzzle_id``
    is ``game:<bot>``, ``answer`` the JSON ``{"bot", "score", "seed"}``, score 1 a
    win, 0.5 a draw, 0 a loss; no puzzle's record counts it, :func:`game_results` reads it) or
    ``setting`` (a choice the learner made that is remembered, such as the game's theme:
    ``puzzle_id`` is ``setting:<name>``, ``answer`` the value as JSON; the last one counts, a reset
    does not forget it, no puzzle's record counts it).
    ``hints`` are the hints taken since the previous row of the same puzzle visit; ``answer`` is the answer as JSON
    text; ``reason``/``rule`` the engine's reason code and rule id (``R13``)
    behind a wrong answer; ``at`` seconds since the epoch; ``source`` who
    recorded it (``gym``, ``lesson``, ``import``...); ``learner_id`` the random id of the learner's data
    folder (:mod:`.identity`; empty in rows written before folders had one: they are the folder's learner's).
    """

    learner: str
    puzzle_id: str
    kind: str = "answer"
    correct: bool | None = None
    hints: int = 0
    seconds: float | None = None
    at: float = 0.0
    answer: str | None = None
    content_hash: str = ""
    reason: str | None = None
    rule: str | None = None
    source: str = ""
    learner_id: str = ""

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON-ready dict (the export and the JSON-lines store use it)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Attempt:
        """A row from a dict, through :func:`check_row` (:class:`RowError`, a ValueError, if it is not one)."""
        return check_row(data)


#: The kinds of row there are (see :class:`Attempt`); a row of any other kind is refused.
KINDS = frozenset({"answer", "hint", "reveal", "reset", "game", "setting"})
#: The largest ``hints`` a row may say (hostile files say ``1e999`` or ``10**100``).
MAX_HINTS = 1000
#: Seconds spent on one puzzle, and a row's time stamp (seconds since the epoch), are at most this.
MAX_SECONDS = 1e11
#: The longest text a row's fields may hold (the answer: :data:`MAX_ANSWER`).
MAX_TEXT = 1000
MAX_ANSWER = 100_000
#: What no text of a row may hold: C0 and C1 control characters, DEL, and lone surrogates (which no
#: encoder writes: one such row in a store would make every later write fail).
_BAD_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class RowError(ValueError):
    """A row refused by :func:`check_row`: ``field`` (None: the row as a whole) and ``reason``; ``where`` and
    ``line`` locate it when it came from a file.  Refusing a row never changes where the store writes."""

    def __init__(
        self,
        field: str | None,
        reason: str,
        *,
        where: str | None = None,
        line: int | None = None,
        row: str | None = None,
    ) -> None:
        self.field = field
        self.reason = reason
        self.where = where
        self.line = line
        #: which row of a document (``attempts[3]``) when there is no line to name
        self.row = row
        super().__init__(str(self))

    def _what(self) -> str:
        from ...formats.safe_yaml import escape_control

        row = f"{self.row} " if self.row else ""
        field = f'"{self.field}"' if self.field else "the row"
        return escape_control(f"{row}{field}: {self.reason}")

    def __str__(self) -> str:
        from ...formats.safe_yaml import escape_control

        place = f"{escape_control(self.where)}:{self.line or 1}: " if self.where is not None else ""
        return f"{place}{self._what()}"

    def located(self, where: str | None, line: int | None = None, row: str | None = None) -> RowError:
        """The same refusal, located in a file (``line``: its line; ``row``: which row of a document)."""
        return RowError(self.field, self.reason, where=where, line=line, row=row or self.row)

    def warning(self) -> str:
        """The refusal as one located warning line: ``FILE:LINE:1: warning: a row was skipped (...)``."""
        from ...formats.safe_yaml import escape_control

        place = f"{escape_control(self.where or '<row>')}:{self.line or 1}:1"
        return f"{place}: warning: a row was skipped ({self._what()})"


#: The text fields of a row: (name, default when absent, may be null, longest allowed).
_TEXT_FIELDS: tuple[tuple[str, str | None, bool, int], ...] = (
    ("learner", None, False, MAX_TEXT),
    ("puzzle_id", None, False, MAX_TEXT),
    ("kind", "answer", False, MAX_TEXT),
    ("answer", None, True, MAX_ANSWER),
    ("content_hash", "", True, MAX_TEXT),
    ("reason", None, True, MAX_TEXT),
    ("rule", None, True, MAX_TEXT),
    ("source", "", True, MAX_TEXT),
    ("learner_id", "", True, MAX_TEXT),
)


def _check_text(name: str, value: str, limit: int) -> None:
    if len(value) > limit:
        raise RowError(name, f"is {len(value)} characters long (at most {limit})")
    bad = _BAD_TEXT.search(value)
    if bad is not None:
        char = bad.group()
        kind = "a lone surrogate" if "\ud800" <= char <= "\udfff" else "a control character"
        raise RowError(name, f"holds {kind} (U+{ord(char):04X}) at character {bad.start() + 1}")


def _texts(data: dict[str, Any]) -> dict[str, str | None]:
    """The row's text fields, checked: text (or null where allowed), bounded, no control character or surrogate."""
    out: dict[str, str | None] = {}
    for name, default, optional, _limit in _TEXT_FIELDS:
        value = data.get(name, default)
        if value is None:
            if not optional:
                raise RowError(name, "is missing (text is needed)")
        elif type(value) is not str:
            raise RowError(name, f"is {type(value).__name__}, not text")
        out[name] = value
    joined = "".join(v for v in out.values() if v)  # one search for the usual, clean row
    if _BAD_TEXT.search(joined) or len(joined) > MAX_TEXT:
        for name, _default, _optional, limit in _TEXT_FIELDS:
            value = out[name]
            if value:
                _check_text(name, value, limit)
    return out


def _answer_strings(value: Any, depth: int = 0) -> Iterable[str]:
    """Every string inside a decoded answer (keys included)."""
    if depth > 50:
        raise RowError("answer", "is nested too deeply")
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _answer_strings(item, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _answer_strings(item, depth + 1)


def _number(value: Any, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RowError(name, f"is {type(value).__name__}, not a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise RowError(name, "is not a finite number")
    if not low <= value <= high:  # an int is compared as an int: a 400-digit one is refused, never overflows
        raise RowError(name, f"is out of range ({low:g} to {high:g})")
    return float(value)


def check_row(data: Any, *, where: str | None = None, line: int | None = None) -> Attempt:
    """The one gate into a store: the :class:`Attempt` of ``data`` (a dict or an Attempt), or :class:`RowError`.

    Every row passes here, whatever its source (an answer in a widget, "Load progress", a file
    read back, an export for ``report``): text is valid Unicode without control characters and
    of a bounded length, numbers are finite and in range, the kind is one of :data:`KINDS`,
    ``correct`` is true, false or null.  ``where``/``line`` locate the error (a file and its line).

    >>> check_row({"learner": "me", "puzzle_id": "w1", "answer": "true"}).kind
    'answer'
    >>> check_row({"learner": "me", "puzzle_id": "w\\ud800"}, where="p.jsonl", line=3)
    Traceback (most recent call last):
    ...
    battleline_lab.training.stores.rows.RowError: p.jsonl:3: "puzzle_id": holds a lone surrogate (U+D800) at character 2
    """
    try:
        if isinstance(data, Attempt):
            data = dict(vars(data))  # its fields, as to_json gives them (asdict copies deeply, and slowly)
        if not isinstance(data, dict):
            raise RowError(None, f"is {type(data).__name__}, not an object")
        texts = _texts(data)
        kind = texts["kind"]
        if kind not in KINDS:
            raise RowError("kind", f"{str(kind)[:40]!r} is not a kind of row ({', '.join(sorted(KINDS))})")
        correct = data.get("correct")
        if correct is not None and type(correct) is not bool:
            if type(correct) is int and correct in (0, 1):  # SQLite keeps booleans as 0 and 1
                correct = bool(correct)
            else:
                raise RowError("correct", f"is {type(correct).__name__}, not true, false or null")
        hints = data.get("hints", 0)
        if type(hints) is not int:
            raise RowError("hints", f"is {type(hints).__name__}, not a whole number")
        if not 0 <= hints <= MAX_HINTS:
            raise RowError("hints", f"is out of range (0 to {MAX_HINTS})")
        answer = texts["answer"]
        if answer is not None and "\\" in answer:  # an escape may spell what the raw text may not hold
            try:
                decoded = json.loads(answer)
            except (ValueError, RecursionError):
                decoded = None
            for text in _answer_strings(decoded):
                _check_text("answer", text, MAX_ANSWER)
        seconds = data.get("seconds")
        return Attempt(
            learner=texts["learner"] or "",
            puzzle_id=texts["puzzle_id"] or "",
            kind=kind or "answer",
            correct=correct,
            hints=hints,
            seconds=None if seconds is None else _number(seconds, "seconds", 0, MAX_SECONDS),
            at=_number(data.get("at", 0.0), "at", -MAX_SECONDS, MAX_SECONDS),
            answer=answer,
            content_hash=texts["content_hash"] or "",
            reason=texts["reason"],
            rule=texts["rule"],
            source=texts["source"] or "",
            learner_id=texts["learner_id"] or "",
        )
    except RowError as err:
        raise err.located(where, line) if where is not None else err from None
    except RecursionError:
        raise RowError(None, "is nested too deeply", where=where, line=line) from None


def skipped_warning(refused: Sequence[RowError]) -> str | None:
    """One located warning for rows skipped while reading (the first one named, and how many in all), or None.

    >>> print(skipped_warning([RowError("kind", "is unknown", where="p.jsonl", line=2)] * 2))
    p.jsonl:2:1: warning: a row was skipped ("kind": is unknown); 2 rows were skipped in all
    """
    if not refused:
        return None
    more = f"; {len(refused)} rows were skipped in all" if len(refused) > 1 else ""
    return refused[0].warning() + more
