"""The ``claim`` kind: can the side whose turn it is claim this flag now (R12)?  Answer: true or false."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from ...core.claims import ClaimAnalysis, analyse_claim
from ...core.decide import can_claim
from ...core.position import Position, Problem, Side, is_flag_number
from ...render.svg import analysis_html
from ...text.messages import Msg, message, render_analysis
from ._claims import analysis_views, cards_text, decisive, ghosts_of, key_cards, kinds_hint, not_claimable_msg
from .base import Choice, Feedback, Question, QuestionError, View, _cap, register_question, wrong
from .evidence import Evidence, claim_evidence

__all__ = ["ClaimQuestion"]


@register_question
@dataclass(frozen=True)
class ClaimQuestion(Question[bool, ClaimAnalysis]):
    """Can the side whose turn it is claim ``flag`` now (R12)?  Answer: true or false."""

    kind: ClassVar[str] = "claim"
    fields: ClassVar[tuple[str, ...]] = ("flag",)
    required: ClassVar[tuple[str, ...]] = ("flag",)
    needs_game_in_progress: ClassVar[bool] = True
    answer_hint: ClassVar[str] = "question.answer.claim"
    lesson: ClassVar[int] = 3

    flag: int

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ClaimQuestion:
        flag = data.get("flag")
        if not is_flag_number(flag):  # the rules API's check of a flag argument
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

    # -- a view ----------------------------------------------------------------------------
    def prompt(self, position: Position, *, sheet: bool = False) -> Msg:
        if sheet:
            return Msg.of("authoring.preview.question.claim", who=position.turn, flag=self.flag)
        return Msg.of("widget.question.claim", me=position.turn, flag=self.flag)

    def choices(self, position: Position) -> tuple[Choice, ...]:
        return (
            Choice(True, Msg.of("widget.answer.yes", flag=self.flag), "bl-answer-yes"),
            Choice(False, Msg("widget.answer.no"), "bl-answer-no"),
        )

    def focus(self, position: Position) -> tuple[int, ...]:
        return (self.flag,)

    def evidence(self, position: Position) -> Evidence | None:
        """After a right yes or no, the card that proves it (R13) or the ghost they could still get (R12)."""
        return claim_evidence(position, self.flag, position.turn)

    def guess_chance(self, position: Position) -> Fraction:
        """A right yes/no (one of two buttons), then a right first tap among the cards the evidence stage offers."""
        chance = super().guess_chance(position)
        evidence = self.evidence(position)
        return chance * evidence.chance() if evidence is not None else chance

    def tie_note(self, position: Position) -> Msg | None:
        """The side that completed the flag first (both sides complete, or only one: "at best a tie" goes to it)."""
        state = position.flag(self.flag)
        first = state.completed_first
        if first is None or state.claimed_by is not None:
            return None
        both = state.is_complete(Side.YOU) and state.is_complete(Side.OPPONENT)
        key = "course.question.first_both" if both else "course.question.first_only"
        return Msg.of(key, flag=self.flag, who=first)

    # -- judging ---------------------------------------------------------------------------
    def miss(self, position: Position, answer: object, explained: ClaimAnalysis) -> Feedback:
        """A wrong claim: the counterexample or the deciding step; a missed one: look again; then the rule."""
        reason = decisive(explained)
        code, rule = (reason.value, reason.rule) if reason else (None, "R12")
        look = Msg.of("feedback.look.claim", flag=self.flag)  # the same words either way: they tell nothing
        if explained.claimable:
            parts = [Msg.of("widget.feedback.claimable_after_all", flag=self.flag, side=position.turn)]
            return wrong(code, rule, parts, look=look)
        return wrong(code, rule, [not_claimable_msg(explained)], ghosts_of([explained]), look=look)

    # -- texts -----------------------------------------------------------------------------
    def summary(self, position: Position, lang: str) -> str:
        verdict = "yes" if self.solve(position) else "no"
        me = message(f"side.{position.turn.value}", lang)
        return _cap(message(f"explain.verdict.{verdict}", lang, me=me, flag=self.flag))

    def solution_steps(self, position: Position, explained: ClaimAnalysis, lang: str) -> list[View]:
        return analysis_views(explained, position, lang)

    def hint_rungs(self, position: Position, explained: ClaimAnalysis, lang: str) -> list[View]:
        keys = key_cards(explained)
        first = kinds_hint(explained, lang)
        second = message("widget.hint.keys", lang, cards=cards_text(keys, lang)) if keys else first
        return [View(first), View(second, keys)]

    def answer_text(self, value: object, lang: str) -> str:
        if isinstance(value, bool):
            return message("authoring.preview.yes" if value else "authoring.preview.no", lang)
        return super().answer_text(value, lang)

    def key_lines(self, position: Position, lang: str) -> list[str]:
        return render_analysis(self.explain(position), lang)

    def proof_html(self, position: Position, lang: str) -> list[str]:
        return [analysis_html(self.explain(position), lang)]

    def cli_lines(self, position: Position, lang: str) -> list[str] | None:
        return None  # the claim proof, as for any flag (``--flag``/``--side`` choose another)

    def proof_targets(self, position: Position) -> tuple[tuple[int, ...] | None, Side | None]:
        return (self.flag,), position.turn
