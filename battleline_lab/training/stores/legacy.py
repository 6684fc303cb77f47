"""The old ``progress.json`` (``{"puzzles": {id: {solved, attempts, hints}}}``), read as rows.

Imported once into a store (:class:`~battleline_lab.training.progress.Progress`) and read by
``progress export`` (:func:`~.readonly.open_store_read_only`); anything odd in it is skipped.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .rows import _BAD_TEXT, MAX_TEXT, Attempt

__all__ = ["LEGACY_FILE", "PROGRESS_FILE", "legacy_attempts"]

LEGACY_FILE = PROGRESS_FILE = "progress.json"
#: at most this many rows are imported per puzzle from an old progress.json (hostile counts)
_IMPORT_CAP = 1000


def _small_int(value: Any) -> int:
    """A non-negative count, capped (hostile files say ``1e999`` or ``10**100``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    if isinstance(value, float) and not math.isfinite(value):
        return _IMPORT_CAP
    return max(0, min(int(value), _IMPORT_CAP))


def legacy_attempts(text: str, learner: str, *, at: float) -> list[Attempt]:
    """Rows for an old ``progress.json`` (``{"puzzles": {id: {solved, attempts, hints}}}``).

    Anything odd (not JSON, ``1e999``, deep nesting, wrong types) is skipped,
    record by record, never raised.

    >>> [(a.kind, a.correct, a.hints) for a in legacy_attempts(
    ...     '{"puzzles": {"p": {"solved": true, "attempts": 2, "hints": 1}}}', "me", at=0)]
    [('answer', False, 1), ('answer', True, 0)]
    >>> legacy_attempts('{"puzzles": {"p": {"attempts": 1e999}}}', "me", at=0)[0].kind
    'answer'
    >>> legacy_attempts("[" * 100000, "me", at=0)
    []
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return []
    puzzles = data.get("puzzles") if isinstance(data, dict) else None
    if not isinstance(puzzles, dict):
        return []
    out: list[Attempt] = []
    for pid, record in sorted(puzzles.items()):
        if not isinstance(record, dict) or _BAD_TEXT.search(pid) or len(pid) > MAX_TEXT:
            continue
        solved = record.get("solved") is True
        attempts = _small_int(record.get("attempts", 0))
        hints = _small_int(record.get("hints", 0))
        if solved:
            attempts = max(attempts, 1)
        for n in range(attempts):
            last = n == attempts - 1
            out.append(
                Attempt(
                    learner,
                    str(pid),
                    "answer",
                    correct=solved and last,
                    hints=hints if n == 0 else 0,
                    at=at,
                    source="import",
                )
            )
        if not attempts and hints:
            out.append(Attempt(learner, str(pid), "hint", hints=hints, at=at, source="import"))
    return out
