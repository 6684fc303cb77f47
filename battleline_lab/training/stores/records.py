"""What a learner's rows say: the rows that count (after the last reset), each puzzle's record, the games.

Computed from rows, never stored: rows are only ever added (:mod:`.rows`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .rows import Attempt

__all__ = ["GAME_KIND", "SETTING_KIND", "GameResult", "PuzzleRecord", "current", "game_results", "records"]


def current(rows: Sequence[Attempt]) -> list[Attempt]:
    """The rows after the last ``reset`` (of the same learner), resets left out, in insertion order.

    Rows are never sorted by their time stamps: a clock that ran ahead or stepped back
    must neither hide later answers behind a reset nor make a retry look like a first answer.

    >>> a = [Attempt("me", "x"), Attempt("me", "", kind="reset", at=9e9), Attempt("me", "y", at=1)]
    >>> [r.puzzle_id for r in current(a)]
    ['y']
    """
    last_reset: dict[str, int] = {}
    for index, row in enumerate(rows):
        if row.kind == "reset":
            last_reset[row.learner] = index
    return [r for i, r in enumerate(rows) if r.kind != "reset" and i > last_reset.get(r.learner, -1)]


#: The kind of a row that records a game against a bot (see :class:`Attempt`).
GAME_KIND = "game"
#: The kind of a row that remembers a learner's choice, such as the game's theme (see :class:`Attempt`).
SETTING_KIND = "setting"


@dataclass(frozen=True)
class GameResult:
    """One game of the learner against a bot: its name, the learner's score (1, 0.5 or 0), when."""

    bot: str
    score: float
    seed: int | None = None
    at: float = 0.0


def game_results(rows: Iterable[Attempt]) -> list[GameResult]:
    """The games among ``rows`` (after the last reset, as :meth:`Progress.attempts` gives them), oldest
    first; a game row that cannot be read is skipped (the other rows are kept).

    >>> rows = [Attempt("me", "w1"), Attempt("me", "game:expert", GAME_KIND, correct=True, at=3.0,
    ...          answer='{"bot": "expert", "score": 1.0, "seed": 7}'), Attempt("me", "game:x", GAME_KIND, answer="[")]
    >>> game_results(rows)
    [GameResult(bot='expert', score=1.0, seed=7, at=3.0)]
    """
    out: list[GameResult] = []
    for row in rows:
        if row.kind != GAME_KIND or row.answer is None:
            continue
        try:
            data = json.loads(row.answer)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        bot, score, seed = data.get("bot"), data.get("score"), data.get("seed")
        if not isinstance(bot, str) or score not in (0, 0.5, 1) or isinstance(score, bool):
            continue
        out.append(GameResult(bot, float(score), seed if type(seed) is int else None, row.at))
    return out


@dataclass(frozen=True)
class PuzzleRecord:
    """One puzzle's record: solved yet, answers given, hints taken."""

    solved: bool = False
    attempts: int = 0
    hints: int = 0


def records(rows: Iterable[Attempt]) -> dict[str, PuzzleRecord]:
    """Per puzzle id: solved, answers, hints, from rows (after the last reset)."""
    out: dict[str, PuzzleRecord] = {}
    for row in rows:
        if row.kind in (GAME_KIND, SETTING_KIND):
            continue
        rec = out.get(row.puzzle_id, PuzzleRecord())
        answered = row.kind == "answer"
        out[row.puzzle_id] = PuzzleRecord(
            solved=rec.solved or (answered and bool(row.correct)),
            attempts=rec.attempts + answered,
            hints=rec.hints + row.hints,
        )
    return out
