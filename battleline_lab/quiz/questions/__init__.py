"""Question kinds for puzzles: what a puzzle asks, the engine's answer, and everything a view says about it.

A puzzle file asks one question about its position (``question: {kind: claim,
flag: 5}``).  Each kind is one module of this package, a frozen dataclass
generic in its answer and its explanation (:class:`Question`), registered in
:data:`QUESTION_KINDS` under its ``kind`` name with :func:`register_question`:

- ``claim`` (:mod:`.claim`): can the side to play claim this flag?  ``bool``, a
  :class:`~battleline_lab.core.claims.ClaimAnalysis`;
- ``claimable`` (:mod:`.claimable`): which flags?  ``list[int]``, the analyses per flag;
- ``compare`` (:mod:`.compare`): which of two formations wins?  ``"a"``/``"b"``, a :class:`Comparison`;
- ``formation`` (:mod:`.formation`): what kind is it?  the kind key, a
  :class:`~battleline_lab.core.formations.Formation`;
- ``safest-flag`` and ``outs`` (:mod:`.odds`): which flag is safest to play this card on, how
  many outs?  a flag number / a count, judged by :mod:`battleline_lab.core.odds`;
- ``play`` (:mod:`.play`): which hand card, on which flag, claims / blocks / wins?  one
  ``{card, flag}`` play, the right plays computed by the engine.

A kind knows which fields it takes and how to read them (:meth:`Question.from_data`
reports *every* problem as a :class:`~battleline_lab.core.position.Problem` whose path is
relative to the question mapping), the engine's answer and the data behind it, its
choices, how an answer is judged (:meth:`Question.judge` -> one :class:`Feedback`), its
solution steps and hints, and what the preview, the worksheet and the CLI print.  Adding
a kind is one module and its registration (``docs/questions.md``).  This package imports
no YAML.

>>> from battleline_lab.core.position import Position
>>> q = question_from_data({"kind": "claim", "flag": 5})
>>> q
ClaimQuestion(flag=5)
>>> q.solve(Position.build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}}))
True
>>> c = question_from_data({"kind": "compare", "a": ["r4", "r6", "r3"], "b": ["b7", "b1", "b3"]})
>>> c.solve(Position())
'a'
>>> c.explain(Position()).rule
'R10'
>>> question_from_data({"kind": "formation", "cards": ["alexander", "g5", "g6"]}).solve(Position())
'wedge'
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from .base import (
    QUESTION_KINDS,
    Choice,
    Feedback,
    Question,
    QuestionError,
    View,
    question_from_data,
    register_question,
    wrong,
)
from .claim import ClaimQuestion
from .claimable import ClaimableQuestion
from .compare import CompareQuestion, Comparison
from .formation import FormationQuestion
from .odds import OutsQuestion, SafestFlagQuestion
from .play import PlayQuestion

if TYPE_CHECKING:
    from ...core.position import Position

__all__ = [
    "Choice",
    "ClaimQuestion",
    "ClaimableQuestion",
    "CompareQuestion",
    "Comparison",
    "Feedback",
    "FormationQuestion",
    "OutsQuestion",
    "PlayQuestion",
    "QUESTION_KINDS",
    "Question",
    "QuestionError",
    "SafestFlagQuestion",
    "View",
    "first_complete_note",
    "question_from_data",
    "register_question",
    "wrong",
]


def first_complete_note(question: Question[Any, Any] | None, position: Position, lang: str = "en") -> str:
    """Deprecated: :func:`battleline_lab.text.messages.first_complete_note` (the text layer says it)."""
    warnings.warn(
        "battleline_lab.quiz.questions.first_complete_note moved to battleline_lab.text.messages.first_complete_note",
        DeprecationWarning,
        stacklevel=2,
    )
    from ...text.messages import first_complete_note as note

    return note(question, position, lang)
