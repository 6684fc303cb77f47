"""The ``compare`` kind: which of two complete formations wins (R10, R11, R24, R25)?  Answer: ``a`` or ``b``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any, ClassVar, Literal

from ...core.cards import Card, Tactic
from ...core.formations import Formation, evaluate, formation_size
from ...core.position import Position, Problem
from ...render.svg import cards_svg, formation_caption
from ...text.messages import Msg, kind_name, message, render_comparison
from .base import (
    Choice,
    Feedback,
    Question,
    QuestionError,
    View,
    _check_formation_cards,
    _read_cards,
    _read_environment,
    register_question,
    wrong,
)

__all__ = ["CompareQuestion", "Comparison"]


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
        from ...render.svg import comparison_html

        return comparison_html(self)


Comparison.__module__ = "battleline_lab.quiz.questions"  # its public home


@register_question
@dataclass(frozen=True)
class CompareQuestion(Question[str, Comparison]):
    """Which of two complete formations wins (R10, R11, R24, R25)?  Answer: ``a`` or ``b``.

    ``first_complete`` (``a`` or ``b``) is needed only when they tie (R11);
    ``environment`` may hold ``fog`` (sums only, R24) and ``mud`` (4 cards, R25).
    """

    kind: ClassVar[str] = "compare"
    fields: ClassVar[tuple[str, ...]] = ("a", "b", "first_complete", "environment")
    required: ClassVar[tuple[str, ...]] = ("a", "b")
    answer_hint: ClassVar[str] = "question.answer.compare"
    lesson: ClassVar[int] = 2
    board_optional: ClassVar[bool] = True

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

    # -- a view ----------------------------------------------------------------------------
    def prompt(self, position: Position, *, sheet: bool = False) -> Msg:
        return Msg("authoring.preview.question.compare" if sheet else "widget.question.compare")

    def choices(self, position: Position) -> tuple[Choice, ...]:
        """A wins, B wins, or a tie: never right (a flag has a winner: equal formations go to the side
        that completed first, R11), and what a learner who forgets the tie rule answers; its feedback
        names what decides, as for any wrong answer."""
        return tuple(Choice(c, Msg(f"widget.answer.compare.{c}"), f"bl-answer-{c}") for c in ("a", "b", "tie"))

    def loose_cards(self) -> tuple[Card, ...]:
        return (*self.a, *self.b, *self.environment)

    def environment_cards(self) -> tuple[Tactic, ...]:
        return self.environment

    def card_rows(self, explained: Comparison | None, lang: str) -> list[tuple[tuple[Card, ...], str]]:
        rows = []
        for which, cards in (("A", self.a), ("B", self.b)):
            caption = message("widget.compare.label", lang, which=which)
            if self.first_complete == which.lower():  # it wins a tie (R11)
                caption = message("course.first.caption", lang, which=caption)
            if explained is not None:
                formation = explained.a if which == "A" else explained.b
                caption = message(
                    "widget.compare.caption", lang, label=caption, caption=formation_caption(formation, lang)
                )
            rows.append((cards, caption))
        return rows

    def tie_note(self, position: Position) -> Msg | None:
        if self.first_complete is None:
            return None
        return Msg.of("course.question.compare_first", which=self.first_complete.upper())

    # -- judging ---------------------------------------------------------------------------
    def miss(self, position: Position, answer: object, explained: Comparison) -> Feedback:
        """What decided (kinds, sums, Fog's sums or the tie rule) and its rule: never a hint at the wrong one."""
        key = f"feedback.compare.{explained.decided_by}" + (
            ".fog" if self.fog and explained.decided_by == "sum" else ""
        )
        a, b = explained.a, explained.b
        part = Msg.of(key, kind_a=a.kind, kind_b=b.kind, total=a.total)
        look = Msg("feedback.look.compare")  # what decided (kinds, sums, a tie) would give the answer away
        return wrong(f"compare_{explained.decided_by}", explained.rule, [part], look=look)

    # -- texts -----------------------------------------------------------------------------
    def summary(self, position: Position, lang: str) -> str:
        return message(f"widget.solution.compare.{self.solve(position)}", lang)

    def solution_steps(self, position: Position, explained: Comparison, lang: str) -> list[View]:
        return [View(line) for line in render_comparison(explained, lang)]

    def hint_rungs(self, position: Position, explained: Comparison, lang: str) -> list[View]:
        first = message("widget.hint.compare.fog" if self.fog else "widget.hint.compare", lang)
        second = message(
            "widget.hint.compare.kinds", lang, a=kind_name(explained.a.kind, lang), b=kind_name(explained.b.kind, lang)
        )
        return [View(first), View(second)]

    def sheet_html(self, position: Position, lang: str) -> list[str]:
        out = [cards_svg(cards, caption=name, lang=lang) for name, cards in (("a", self.a), ("b", self.b))]
        if self.first_complete is not None:
            text = message("authoring.preview.first_complete", lang, first=self.first_complete)
            out.append(f"<p>{escape(text)}</p>")
        for env in self.environment:
            out.append(f"<p>{escape(message('authoring.preview.environment.' + env.value, lang))}</p>")
        return out

    def key_lines(self, position: Position, lang: str) -> list[str]:
        return render_comparison(self.explain(position), lang)
