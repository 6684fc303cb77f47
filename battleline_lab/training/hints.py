"""The hint ladder of a puzzle: plain text from the catalogue, as the puzzle's question kind says it.

Three hints per puzzle, from vague to the full solution: the kind's two rungs
(:meth:`~battleline_lab.quiz.questions.Question.hint_rungs`; for a claim: which
formation kinds matter (R10, R12), then the key cards (their cards, the cards
that block them, the hand that is no proof, R13)), then the solution.  What a
wrong answer gets is the question's :class:`~battleline_lab.quiz.questions.Feedback`
(:meth:`~battleline_lab.quiz.questions.Question.judge`), which names something the
first hint does not.  No widget code here: the puzzle widget (and any other
front end) shows these texts and highlights the cards.

>>> from battleline_lab.core.position import Position
>>> from battleline_lab.quiz.puzzle import Puzzle
>>> from battleline_lab.quiz.questions import ClaimQuestion
>>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
>>> ladder = hint_ladder(Puzzle("blocked", position=pos, question=ClaimQuestion(5), answer=True))
>>> print(ladder[0].text)
Your formation is a Wedge (sum 12). Only a Wedge could beat or tie it (R10). Could the opponent still make one?
>>> [c.notation for c in ladder[1].highlight]
['b8', 'b7', 'b10']
>>> print(ladder[2].text)
The solution: Yes: you can claim flag 5.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cards import Card
from ..quiz.puzzle import Puzzle
from ..quiz.questions._claims import flags_text, key_cards
from ..text.messages import message

__all__ = ["Hint", "flags_text", "hint_ladder", "key_cards", "solution_summary"]


@dataclass(frozen=True)
class Hint:
    """One hint: its text and the cards on the table it points at."""

    text: str
    highlight: tuple[Card, ...] = ()


def solution_summary(puzzle: Puzzle, lang: str = "en") -> str:
    """The engine's answer in one sentence: ``Yes: you can claim flag 5.``, ``A wins.``, ``It is a Wedge.``"""
    if puzzle.question is None:
        return ""
    return puzzle.question.summary(puzzle.position, lang)


def hint_ladder(puzzle: Puzzle, lang: str = "en", explained: object | None = None) -> list[Hint]:
    """The hints of a puzzle: the question's rungs, then the solution (empty without a question).

    ``explained`` is ``puzzle.explain()`` when the caller has it already (it is computed otherwise).
    """
    question, position = puzzle.question, puzzle.position
    if question is None:
        return []
    data = question.explain(position) if explained is None else explained
    rungs = [Hint(v.text, v.highlight) for v in question.hint_rungs(position, data, lang)]
    return [*rungs, Hint(message("widget.hint.solution", lang, text=solution_summary(puzzle, lang)))]
