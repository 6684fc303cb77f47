"""A puzzle: a position, an optional question about it and the author's answer.

This is what a puzzle file (YAML, read by :mod:`battleline_lab.quiz.loader`) holds,
as plain values; this module imports no YAML.  :meth:`Puzzle.solve` asks the
engine, :meth:`Puzzle.is_correct` checks an answer against it.

>>> from battleline_lab.core.position import Position
>>> from battleline_lab.quiz.questions import ClaimQuestion
>>> p = Puzzle(
...     id="wedge-vs-sixes",
...     title={"en": "Can you claim flag 5?"},
...     level=1,
...     tags=("claim",),
...     position=Position.build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}}),
...     question=ClaimQuestion(5),
...     answer=True,
... )
>>> p.solve(), p.is_correct(True), p.is_correct(False), p.is_correct("yes")
(True, True, False, False)
>>> p.title_text("zh")
'Can you claim flag 5?'
>>> spoiler = Puzzle("hand", title={"en": "Flag 5"}, headline={"en": "Your hand does not count"})
>>> spoiler.title_before_answer(), spoiler.title_after_answer()
('Flag 5', 'Your hand does not count')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.position import Position
from .questions import Question

__all__ = ["Puzzle"]


def _text(texts: Mapping[str, str] | None, lang: str) -> str | None:
    if not texts:
        return None
    if lang in texts:
        return texts[lang]
    if "en" in texts:
        return texts["en"]
    return next(iter(texts.values()))


@dataclass(frozen=True)
class Puzzle:
    """A position with an optional question, the author's answer and metadata.

    ``title`` and ``note`` map a language code to text (a plain string in a
    file is stored as ``{"en": ...}``).  What a learner sees *before* answering
    must not give the answer away: ``title`` and ``topics`` (what the puzzle is
    about: ``wedge``, ``fog``, ``tie-rule``...).  ``headline`` (a title that
    states the point) and ``tags`` (``counterexample``, ``at-best-tie``...) may
    reveal it and are shown only once the puzzle is solved or revealed.  ``source`` is the file it came from;
    ``marks`` maps a top-level key of the file (``"answer"``, ``"id"``,
    ``"question"``...) to the 1-based ``(line, column)`` of its value, so tools
    can point at it.
    """

    id: str
    title: Mapping[str, str] = field(default_factory=dict, hash=False)
    level: int | None = None
    tags: tuple[str, ...] = ()
    position: Position = field(default_factory=Position)
    question: Question[Any, Any] | None = None
    answer: object | None = field(default=None, hash=False)
    note: Mapping[str, str] | None = field(default=None, hash=False)
    source: str | None = None
    marks: Mapping[str, tuple[int, int]] = field(default_factory=dict, compare=False, hash=False, repr=False)
    topics: tuple[str, ...] = ()
    headline: Mapping[str, str] | None = field(default=None, hash=False)

    def title_text(self, lang: str = "en") -> str:
        """The title in ``lang`` (falling back to English, then to the id)."""
        return _text(self.title, lang) or self.id

    def title_before_answer(self, lang: str = "en") -> str:
        """The title to show while the puzzle is open: ``title`` (never the ``headline``)."""
        return self.title_text(lang)

    def title_after_answer(self, lang: str = "en") -> str:
        """The title once the puzzle is solved or revealed: the ``headline`` if there is one, else the title."""
        return _text(self.headline, lang) or self.title_text(lang)

    def note_text(self, lang: str = "en") -> str | None:
        """The author's note in ``lang`` (falling back to English), or None."""
        return _text(self.note, lang)

    def solve(self) -> object:
        """The engine's answer to the question, in the form an author writes it.

        Raises ValueError if the puzzle has no question.
        """
        if self.question is None:
            raise ValueError(f"puzzle {self.id!r} asks no question")
        return self.question.solve(self.position)

    def explain(self) -> object:
        """The engine data behind the answer (see :meth:`Question.explain`)."""
        if self.question is None:
            raise ValueError(f"puzzle {self.id!r} asks no question")
        return self.question.explain(self.position)

    def is_correct(self, answer: object) -> bool:
        """Does ``answer`` agree with the engine?  False for a wrong type or no question."""
        if self.question is None:
            return False
        return self.question.is_correct(self.position, answer)
