"""The store that keeps rows in a list: nothing on disk (the fallback when nothing can be written)."""

from __future__ import annotations

from .base import Cursor
from .rows import Attempt, RowError, check_row

__all__ = ["MemoryStore"]


class MemoryStore:
    """Rows in a list: nothing survives the kernel (the fallback when nothing can be written)."""

    def __init__(self, where: str = "memory") -> None:
        self.where = where
        self._rows: list[Attempt] = []
        #: rows of the file these rows were read from that :func:`check_row` refused (skipped, located)
        self.refused: list[RowError] = []

    def add(self, attempt: Attempt) -> None:
        self._rows.append(check_row(attempt))

    def rows(self, learner: str | None = None) -> list[Attempt]:
        return [r for r in self._rows if learner is None or r.learner == learner]

    def rows_after(self, learner: str | None, cursor: Cursor) -> tuple[list[Attempt], Cursor]:
        """The rows added since ``cursor`` (an index into all rows)."""
        new = self._rows[cursor:]
        return [r for r in new if learner is None or r.learner == learner], len(self._rows)
