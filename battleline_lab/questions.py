"""Question kinds for puzzles: what a puzzle asks, and the engine's answer.

A puzzle file asks one question about its position (``question: {kind: claim,
flag: 5}``).  Each kind is a frozen dataclass registered in
:data:`QUESTION_KINDS` under its ``kind`` name, so more kinds plug in with the
:func:`register_question` decorator.  A kind knows

- which fields it takes and how to read them from plain data
  (:meth:`Question.from_data`, which reports *every* problem as a
  :class:`~battleline_lab.position.Problem` whose path is relative to the
  question mapping, so a loader can point at the offending node);
- the engine's answer (:meth:`Question.solve`) and the data behind it
  (:meth:`Question.explain`: a :class:`~battleline_lab.claims.ClaimAnalysis`,
  the analyses per flag, a :class:`Comparison`, or a
  :class:`~battleline_lab.formations.Formation`);
- what an author's answer must look like (:meth:`Question.check_answer_type`).

This module imports no YAML.

>>> from battleline_lab.position import Position
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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

from .cards import Card, CardNotationError, Tactic, parse_card
from .claims import ClaimAnalysis, analyse_claim, analyse_position
from .decide import can_claim, claimable_flags
from .formations import Formation, FormationKind, evaluate, formation_size
from .position import FLAGS, Position, Problem, Side

__all__ = [
    "ClaimQuestion",
    "ClaimableQuestion",
    "CompareQuestion",
    "Comparison",
    "FormationQuestion",
    "QUESTION_KINDS",
    "Question",
    "QuestionError",
    "first_complete_note",
    "question_from_data",
    "register_question",
]


class QuestionError(ValueError):
    """A question mapping that cannot be read; ``problems`` lists every reason.

    Each problem's ``path`` is relative to the question mapping (``("flag",)``,
    ``("a", 2)``); its text is the catalogue message ``question.error.<code>``.
    """

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(f"{p.code} at {'.'.join(map(str, p.path)) or 'question'}" for p in problems))
        self.problems = problems


@dataclass(frozen=True)
class Question:
    """Base class of the question kinds.

    Subclasses set ``kind`` (the name used in files), ``fields`` (the keys the
    question mapping may hold besides ``kind``), ``required`` (the keys it
    must hold), ``needs_game_in_progress`` (the question only makes sense while
    nobody has won, R16) and ``answer_hint`` (a catalogue key describing the
    expected answer, for error messages).
    """

    kind: ClassVar[str] = ""
    fields: ClassVar[tuple[str, ...]] = ()
    required: ClassVar[tuple[str, ...]] = ()
    needs_game_in_progress: ClassVar[bool] = False
    answer_hint: ClassVar[str] = ""

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Question:
        """Read the question from plain data (the mapping without ``kind``)."""
        raise NotImplementedError

    def to_data(self) -> dict[str, Any]:
        """The question as plain data, ``kind`` included (the inverse of :func:`question_from_data`)."""
        raise NotImplementedError

    def problems(self, position: Position) -> list[Problem]:
        """Problems of this question in this position (paths relative to the question)."""
        return []

    def solve(self, position: Position) -> object:
        """The engine's answer, in the same plain form an author writes."""
        raise NotImplementedError

    def explain(self, position: Position) -> object:
        """The engine data behind the answer."""
        raise NotImplementedError

    def check_answer_type(self, value: object) -> bool:
        """True if ``value`` has the form of an answer to this kind of question."""
        raise NotImplementedError

    def normalize(self, value: object) -> object:
        """An answer in a canonical form, for comparing (the value must pass :meth:`check_answer_type`)."""
        return value

    def is_correct(self, position: Position, answer: object) -> bool:
        """Does ``answer`` agree with the engine?  False for an answer of the wrong type."""
        if not self.check_answer_type(answer):
            return False
        return self.normalize(answer) == self.normalize(self.solve(position))


QUESTION_KINDS: dict[str, type[Question]] = {}

_Q = TypeVar("_Q", bound=type[Question])


def register_question(cls: _Q) -> _Q:
    """Class decorator: add a question kind to :data:`QUESTION_KINDS` under ``cls.kind``."""
    if not cls.kind:
        raise ValueError(f"{cls.__name__} has no kind name")
    if cls.kind in QUESTION_KINDS and QUESTION_KINDS[cls.kind] is not cls:
        raise ValueError(f"question kind {cls.kind!r} is already registered")
    QUESTION_KINDS[cls.kind] = cls
    return cls


def question_from_data(data: Mapping[str, Any]) -> Question:
    """A question from a plain mapping with a ``kind`` key.

    Raises :class:`QuestionError` listing every problem (unknown kind, missing
    or unknown fields, bad values).

    >>> question_from_data({"kind": "claimable"})
    ClaimableQuestion()
    >>> question_from_data({"kind": "claim"})
    Traceback (most recent call last):
    ...
    battleline_lab.questions.QuestionError: missing_field at question
    """
    kind = data.get("kind")
    cls = QUESTION_KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise QuestionError([Problem("unknown_kind", ("kind",), (("kind", kind), ("kinds", tuple(QUESTION_KINDS))))])
    problems: list[Problem] = []
    for name in cls.required:
        if name not in data:
            problems.append(Problem("missing_field", (), (("field", name), ("kind", cls.kind))))
    for name in data:
        if name != "kind" and name not in cls.fields:
            problems.append(Problem("unknown_field", (name,), (("field", name), ("fields", cls.fields))))
    if not any(p.code == "missing_field" for p in problems):
        try:
            question = cls.from_data({k: v for k, v in data.items() if k in cls.fields})
        except QuestionError as err:
            problems.extend(err.problems)
        else:
            if not problems:
                return question
    raise QuestionError(problems)


# -- helpers for reading fields ----------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_cards(value: object, field: str, problems: list[Problem]) -> tuple[Card, ...]:
    if not isinstance(value, list):
        problems.append(Problem("not_card_list", (field,), (("field", field),)))
        return ()
    cards: list[Card] = []
    for i, token in enumerate(value):
        try:
            if not isinstance(token, str):
                raise CardNotationError(str(token), f"a card must be written as text, not {token!r}", reason="not_text")
            cards.append(parse_card(token))
        except CardNotationError as err:
            details = (("token", err.token), ("reason", err.reason), ("suggestion", err.suggestion))
            problems.append(Problem("bad_card", (field, i), (("message", str(err)), *details)))
    return tuple(cards)


def _read_environment(
    value: object, problems: list[Problem], allowed: tuple[Tactic, ...] = (Tactic.FOG, Tactic.MUD)
) -> tuple[Tactic, ...]:
    cards = _read_cards(value, "environment", problems)
    out: list[Tactic] = []
    for i, card in enumerate(cards):
        if card not in allowed:
            problems.append(
                Problem(
                    "bad_environment",
                    ("environment", i),
                    (("card", card), ("allowed", tuple(a.value for a in allowed))),
                )
            )
        elif card in out:
            problems.append(Problem("duplicate_card", ("environment", i), (("card", card),)))
        else:
            out.append(card)
    return tuple(out)


def _check_formation_cards(
    cards: Sequence[Card], field: str, size: int, mud: bool, problems: list[Problem], seen: dict[Card, str]
) -> None:
    for i, card in enumerate(cards):
        if not card.is_formation_card:
            problems.append(Problem("not_formation_card", (field, i), (("card", card),)))
        if card in seen:
            problems.append(Problem("duplicate_card", (field, i), (("card", card),)))
        seen[card] = field
    if len(cards) != size:
        problems.append(Problem("formation_size", (field,), (("count", len(cards)), ("size", size), ("mud", mud))))
    leaders = [c for c in cards if isinstance(c, Tactic) and c.is_leader]
    if len(leaders) > 1:
        problems.append(Problem("two_leaders", (field,), ()))


# -- the kinds ---------------------------------------------------------------


@register_question
@dataclass(frozen=True)
class ClaimQuestion(Question):
    """Can the side whose turn it is claim ``flag`` now (R12)?  Answer: true or false."""

    kind: ClassVar[str] = "claim"
    fields: ClassVar[tuple[str, ...]] = ("flag",)
    required: ClassVar[tuple[str, ...]] = ("flag",)
    needs_game_in_progress: ClassVar[bool] = True
    answer_hint: ClassVar[str] = "question.answer.claim"

    flag: int

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ClaimQuestion:
        flag = data.get("flag")
        if not isinstance(flag, int) or isinstance(flag, bool) or flag not in FLAGS:
            raise QuestionError([Problem("bad_flag", ("flag",), (("flag", flag),))])
        return cls(flag)

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "flag": self.flag}

    def solve(self, position: Position) -> bool:
        return can_claim(position, self.flag, position.turn)  # the verdict alone (decide.py), as explain() has it

    def explain(self, position: Position) -> ClaimAnalysis:
        return analyse_claim(position, self.flag, position.turn)

    def check_answer_type(self, value: object) -> bool:
        return isinstance(value, bool)


@register_question
@dataclass(frozen=True)
class ClaimableQuestion(Question):
    """Which unclaimed flags can the side whose turn it is claim now?  Answer: a sorted list of flags."""

    kind: ClassVar[str] = "claimable"
    needs_game_in_progress: ClassVar[bool] = True
    answer_hint: ClassVar[str] = "question.answer.claimable"

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ClaimableQuestion:
        return cls()

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind}

    def solve(self, position: Position) -> list[int]:
        return list(claimable_flags(position, position.turn))  # verdicts alone (decide.py), as explain() has them

    def explain(self, position: Position) -> dict[int, ClaimAnalysis]:
        """The claim analysis of every unclaimed flag for the side whose turn it is."""
        analysis = analyse_position(position)
        side = position.turn
        return {n: analysis[(side, n)] for n in FLAGS if (side, n) in analysis.claims}

    def check_answer_type(self, value: object) -> bool:
        return (
            isinstance(value, list) and all(_is_int(v) and v in FLAGS for v in value) and len(set(value)) == len(value)
        )

    def normalize(self, value: object) -> object:
        assert isinstance(value, list)
        return sorted(value)


@dataclass(frozen=True)
class Comparison:
    """Two complete formations judged against each other (R10, R11, R24, R25).

    ``winner`` is ``"a"`` or ``"b"``; ``decided_by`` says what decided:
    ``"kind"`` (R10), ``"sum"`` (R10, or R24 under Fog) or ``"tie"`` (R11,
    the side that completed first wins); ``rule`` is that rule's id.
    """

    a: Formation
    b: Formation
    winner: Literal["a", "b"]
    decided_by: Literal["kind", "sum", "tie"]
    rule: str
    first_complete: Literal["a", "b"] | None = None

    def _repr_html_(self) -> str:
        """Both formations and the verdict, for Jupyter (lazy import of the rendering layer)."""
        from .svg import comparison_html

        return comparison_html(self)


@register_question
@dataclass(frozen=True)
class CompareQuestion(Question):
    """Which of two complete formations wins (R10, R11, R24, R25)?  Answer: ``a`` or ``b``.

    ``first_complete`` (``a`` or ``b``) is needed only when they tie (R11);
    ``environment`` may hold ``fog`` (sums only, R24) and ``mud`` (4 cards, R25).
    """

    kind: ClassVar[str] = "compare"
    fields: ClassVar[tuple[str, ...]] = ("a", "b", "first_complete", "environment")
    required: ClassVar[tuple[str, ...]] = ("a", "b")
    answer_hint: ClassVar[str] = "question.answer.compare"

    a: tuple[Card, ...]
    b: tuple[Card, ...]
    first_complete: Literal["a", "b"] | None = None
    environment: tuple[Tactic, ...] = ()

    @property
    def fog(self) -> bool:
        return Tactic.FOG in self.environment

    @property
    def mud(self) -> bool:
        return Tactic.MUD in self.environment

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> CompareQuestion:
        problems: list[Problem] = []
        environment = _read_environment(data.get("environment", []), problems)
        mud = Tactic.MUD in environment
        size = formation_size(mud)
        a = _read_cards(data.get("a"), "a", problems)
        b = _read_cards(data.get("b"), "b", problems)
        seen: dict[Card, str] = {}
        _check_formation_cards(a, "a", size, mud, problems, seen)
        _check_formation_cards(b, "b", size, mud, problems, seen)
        first = data.get("first_complete")
        if first is not None and first not in ("a", "b"):
            problems.append(Problem("bad_first_complete", ("first_complete",), (("value", first),)))
            first = None
        if problems:
            raise QuestionError(problems)
        question = cls(a, b, first, environment)
        if first is None:
            fa, fb = question._formations()
            if fa.strength == fb.strength:
                raise QuestionError([Problem("compare_tie_undecided", (), (("total", fa.total),))])
        return question

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "a": [c.notation for c in self.a], "b": [c.notation for c in self.b]}
        if self.first_complete is not None:
            data["first_complete"] = self.first_complete
        if self.environment:
            data["environment"] = [c.notation for c in self.environment]
        return data

    def _formations(self) -> tuple[Formation, Formation]:
        return (evaluate(self.a, fog=self.fog, mud=self.mud), evaluate(self.b, fog=self.fog, mud=self.mud))

    def explain(self, position: Position) -> Comparison:
        fa, fb = self._formations()
        if fa.strength != fb.strength:
            winner: Literal["a", "b"] = "a" if fa.strength > fb.strength else "b"
            if fa.kind != fb.kind:
                return Comparison(fa, fb, winner, "kind", "R10", self.first_complete)
            return Comparison(fa, fb, winner, "sum", "R24" if self.fog else "R10", self.first_complete)
        if self.first_complete is None:
            raise ValueError(f"the formations tie at {fa.total}: first_complete must say who completed first (R11)")
        return Comparison(fa, fb, self.first_complete, "tie", "R11", self.first_complete)

    def solve(self, position: Position) -> str:
        return self.explain(position).winner

    def check_answer_type(self, value: object) -> bool:
        return value in ("a", "b")


@register_question
@dataclass(frozen=True)
class FormationQuestion(Question):
    """What kind of formation are these cards (R9, R20-R22, R25)?  Answer: the kind key.

    ``environment`` may hold ``mud`` (4 cards); Fog is refused, since under Fog
    there are no formations, only sums (R24).
    """

    kind: ClassVar[str] = "formation"
    fields: ClassVar[tuple[str, ...]] = ("cards", "environment")
    required: ClassVar[tuple[str, ...]] = ("cards",)
    answer_hint: ClassVar[str] = "question.answer.formation"

    cards: tuple[Card, ...]
    environment: tuple[Tactic, ...] = ()

    @property
    def mud(self) -> bool:
        return Tactic.MUD in self.environment

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> FormationQuestion:
        problems: list[Problem] = []
        environment = _read_environment(data.get("environment", []), problems, (Tactic.MUD,))
        mud = Tactic.MUD in environment
        cards = _read_cards(data.get("cards"), "cards", problems)
        _check_formation_cards(cards, "cards", formation_size(mud), mud, problems, {})
        if problems:
            raise QuestionError(problems)
        return cls(cards, environment)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "cards": [c.notation for c in self.cards]}
        if self.environment:
            data["environment"] = [c.notation for c in self.environment]
        return data

    def explain(self, position: Position) -> Formation:
        return evaluate(self.cards, mud=self.mud)

    def solve(self, position: Position) -> str:
        kind = self.explain(position).kind
        assert kind is not None  # no Fog here
        return kind.key

    def check_answer_type(self, value: object) -> bool:
        return isinstance(value, str) and value in {k.key for k in FormationKind}


# -- the tie rule in the question text -----------------------------------------


def first_complete_note(question: Question | None, position: Position, lang: str = "en") -> str:
    """The sentence a question needs when a tie can decide it: who completed first (R11).

    A compare question with ``first_complete`` names that formation; a claim
    question names the side that completed the flag first (both sides
    complete, or only one: then "at best a tie" goes to it); a claimable
    question lists every unclaimed flag where a side is complete.  Empty when
    no tie can decide.  The board marks the same side (:func:`battleline_lab.svg.board_svg`).

    >>> q = question_from_data({"kind": "compare", "a": ["r5", "r6", "r7"], "b": ["g5", "g6", "g7"],
    ...                         "first_complete": "b"})
    >>> first_complete_note(q, Position())
    'Formation B was completed first.'
    >>> pos = Position.build({4: {"you": "y8 y9 y10", "opponent": "g8 g9"}})
    >>> first_complete_note(ClaimQuestion(4), pos)
    'At flag 4, you completed first; the other side is not complete yet.'
    >>> first_complete_note(ClaimQuestion(4), pos, "zh")
    '4号旗由你先完成；另一侧还没有完成。'
    """
    from .messages import message

    def who(side: Side) -> str:
        return message(f"side.{side.value}", lang)

    if isinstance(question, CompareQuestion):
        if question.first_complete is None:
            return ""
        return message("course.question.compare_first", lang, which=question.first_complete.upper())
    if isinstance(question, ClaimQuestion):
        state = position.flag(question.flag)
        first = state.completed_first
        if first is None or state.claimed_by is not None:
            return ""
        both = state.is_complete(Side.YOU) and state.is_complete(Side.OPPONENT)
        key = "course.question.first_both" if both else "course.question.first_only"
        return message(key, lang, flag=question.flag, who=who(first))
    if isinstance(question, ClaimableQuestion):
        items = [
            message("course.question.first_item", lang, flag=n, who=who(first))
            for n in FLAGS
            if position.flag(n).claimed_by is None and (first := position.flag(n).completed_first) is not None
        ]
        if not items:
            return ""
        return message("course.question.first_list", lang, items=message("course.question.first_sep", lang).join(items))
    return ""
