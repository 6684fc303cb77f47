"""Moving progress between browsers: the export document (the gym's "Save my progress", ``progress export``).

Its rows are read back through :func:`~.rows.check_row` (:func:`export_attempts`); adding them to a
learner's progress is :func:`battleline_lab.training.progress.import_export`.
"""

from __future__ import annotations

import json
from typing import Any

from .rows import DEFAULT_LEARNER, Attempt, RowError, check_row

__all__ = ["EXPORT_FORMAT", "export_attempts", "export_filename"]

#: The ``format`` of a progress export (``battleline-lab progress export``, the gym's download).
EXPORT_FORMAT = "battleline-lab-progress"


def export_filename(learner: str, learner_id: str = "") -> str:
    """The download's file name, after the learner: ``battleline-progress-<learner>.json`` (safe characters only).

    A learner with no name yet (``me``) gets their short id too, so two such downloads dropped into
    one folder never replace each other.

    >>> export_filename("Ann Lee"), export_filename("李明"), export_filename("me", "3f2a9c01d4e7")
    ('battleline-progress-Ann-Lee.json', 'battleline-progress-李明.json', 'battleline-progress-me-3f2a9c.json')
    """
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in learner).strip("-")[:60] or DEFAULT_LEARNER
    if safe == DEFAULT_LEARNER and learner_id:
        safe += "-" + "".join(c for c in learner_id if c.isalnum())[:6]
    return f"battleline-progress-{safe}.json"


def _answer_text(value: Any) -> str | None:
    """An export's answer (JSON-decoded there) as the store keeps it: JSON text."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            json.loads(value)
            return value
        except ValueError:
            pass
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def export_attempts(
    document: Any, learner: str | None = None, *, where: str | None = None, learner_id: str | None = None
) -> tuple[list[Attempt], list[RowError]]:
    """The rows of an export document's ``attempts`` through :func:`check_row`, and the refused ones (each
    located as ``attempts[N]`` of ``where``).  ``learner``, ``learner_id``: whose rows they become (default:
    the document's ``learner`` and ``learner_id``; a row of an older export without an id keeps its own,
    empty); an ``answer`` that is not JSON text is kept as JSON text.

    >>> rows, refused = export_attempts({"learner": "ann", "attempts": [{"puzzle_id": "w1"}, {"kind": "x"}]})
    >>> [(r.learner, r.puzzle_id, r.kind) for r in rows], [e.row for e in refused]
    ([('ann', 'w1', 'answer')], ['attempts[1]'])
    """
    if learner is None:
        learner = str(document.get("learner")) if isinstance(document, dict) else DEFAULT_LEARNER
    if learner_id is None:
        given = document.get("learner_id") if isinstance(document, dict) else None
        learner_id = given if isinstance(given, str) else None
    found = document.get("attempts") if isinstance(document, dict) else None
    rows: list[Attempt] = []
    refused: list[RowError] = []
    for number, data in enumerate(found if isinstance(found, list) else []):
        try:
            if not isinstance(data, dict):
                raise RowError(None, f"is {type(data).__name__}, not an object")
            try:
                answer = _answer_text(data.get("answer"))
            except (ValueError, TypeError, RecursionError):
                raise RowError("answer", "is not JSON that can be kept") from None
            whose = {"learner": learner} if learner_id is None else {"learner": learner, "learner_id": learner_id}
            rows.append(check_row({**data, **whose, "answer": answer}))
        except RowError as err:
            refused.append(err.located(where, None, f"attempts[{number}]"))
    return rows, refused
