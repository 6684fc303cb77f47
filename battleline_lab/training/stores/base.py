"""What every store is: the :class:`AttemptStore` protocol, the reader's cursor, and a free name beside a store.

The back ends (:mod:`.memory`, :mod:`.jsonl`, :mod:`.sqlite`, :mod:`.readonly`) follow the protocol;
:func:`rows_after` reads what was added since a cursor from any of them.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Protocol

from .rows import Attempt

__all__ = ["AttemptStore", "Cursor", "rows_after"]


class AttemptStore(Protocol):
    """Where attempts are kept: add rows, read them back.  Back ends must never lose an added row."""

    #: where the rows are (a path, or a description such as ``memory``)
    where: str

    def add(self, attempt: Attempt) -> None:
        """Append one row."""

    def rows(self, learner: str | None = None) -> list[Attempt]:
        """Every row (of one learner), in the order they were added (never by their clock time), resets included."""
        ...


#: Where a reader of a store has got to (:meth:`Progress.attempts_since`): a row id, a byte offset, a count.
Cursor = int


def rows_after(store: AttemptStore, learner: str | None, cursor: Cursor) -> tuple[list[Attempt], Cursor]:
    """The rows (of one learner) added to ``store`` since ``cursor`` (0: from the start), and the new cursor.

    A store with its own ``rows_after`` (SQLite: by row id; JSON lines: by byte offset; memory: by
    index) reads only the new rows; any other store is read whole and the cursor counts its rows.
    """
    own = getattr(store, "rows_after", None)
    if own is not None:
        found: tuple[list[Attempt], Cursor] = own(learner, cursor)
        return found
    rows = store.rows(learner)
    return rows[cursor:], len(rows)


def _unique_aside(path: Path, label: str) -> Path:
    """A name beside ``path`` that no file has yet: ``NAME.LABEL-TIME[-N]``."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1000):
        candidate = path.with_name(f"{path.name}.{label}-{stamp}" + (f"-{n}" if n else ""))
        if not candidate.exists() and not candidate.is_symlink():
            return candidate
    raise OSError(f"no free name beside {path}")  # pragma: no cover
