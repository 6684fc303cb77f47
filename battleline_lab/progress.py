"""The learner's progress (solved puzzles, attempts, hints) in a small JSON file.

The file lives in the user's data directory so that it survives restarts:
``$BATTLELINE_LAB_DATA`` if set, else ``$XDG_DATA_HOME/battleline_lab``, else
``~/.local/share/battleline_lab``; its name is ``progress.json``.  It is
written atomically (a temporary file, then a rename).  A file that cannot be
read is moved aside to ``progress.json.bad`` and a fresh record starts, so a
damaged file never stops a lesson.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "progress.json"
>>> p = Progress(path)
>>> p.record_attempt("wedge-1", correct=False)
>>> p.record_attempt("wedge-1", correct=True)
>>> Progress(path).get("wedge-1")
PuzzleRecord(solved=True, attempts=2, hints=0)
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

__all__ = ["PROGRESS_FILE", "Progress", "PuzzleRecord", "data_dir"]

PROGRESS_FILE = "progress.json"
_VERSION = 1


def data_dir() -> Path:
    """Where battleline_lab keeps user data (see the module docstring)."""
    explicit = os.environ.get("BATTLELINE_LAB_DATA")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "battleline_lab"


@dataclass(frozen=True)
class PuzzleRecord:
    """One puzzle's record: solved yet, answers given, hints taken."""

    solved: bool = False
    attempts: int = 0
    hints: int = 0


class Progress:
    """Records per puzzle id, loaded from and saved to one JSON file."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else data_dir() / PROGRESS_FILE
        self._records: dict[str, PuzzleRecord] = self._load()

    def _load(self) -> dict[str, PuzzleRecord]:
        if not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            puzzles = data["puzzles"]
            return {
                str(pid): PuzzleRecord(bool(r.get("solved")), int(r.get("attempts", 0)), int(r.get("hints", 0)))
                for pid, r in puzzles.items()
            }
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            try:
                self.path.replace(self.path.with_name(self.path.name + ".bad"))
            except OSError:
                pass
            return {}

    def save(self) -> None:
        """Write the file atomically (creating the folder if needed)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "version": _VERSION,
            "puzzles": {pid: asdict(rec) for pid, rec in sorted(self._records.items())},
        }
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(self.path)

    def get(self, puzzle_id: str) -> PuzzleRecord:
        """The record of a puzzle (an empty one if never tried)."""
        return self._records.get(puzzle_id, PuzzleRecord())

    def record_attempt(self, puzzle_id: str, *, correct: bool) -> None:
        """Count one answer; a right one marks the puzzle solved (for good)."""
        rec = self.get(puzzle_id)
        self._records[puzzle_id] = replace(rec, attempts=rec.attempts + 1, solved=rec.solved or correct)
        self.save()

    def record_hint(self, puzzle_id: str) -> None:
        """Count one hint taken."""
        rec = self.get(puzzle_id)
        self._records[puzzle_id] = replace(rec, hints=rec.hints + 1)
        self.save()

    def solved(self, puzzle_ids: Iterable[str]) -> int:
        """How many of these puzzles are solved."""
        return sum(1 for pid in puzzle_ids if self.get(pid).solved)

    def reset(self) -> None:
        """Forget everything (and save the empty record)."""
        self._records.clear()
        self.save()

    def __repr__(self) -> str:
        return f"<Progress {len(self._records)} puzzles, {self.solved(self._records)} solved>"
