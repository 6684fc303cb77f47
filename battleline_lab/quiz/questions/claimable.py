"""The ``claimable`` kind: which unclaimed flags can the side whose turn it is claim now?  Answer: a list of flags."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any, ClassVar

from ...core.claims import ClaimAnalysis, Reason, analyse_position, state_unseen_once
from ...core.decide import claimable_flags
from ...core.position import FLAGS, Position, Side
from ...render.svg import analysis_html
from ...text.messages import Joined, Msg, message
from ._claims import analysis_views, cards_text, decisive, flags_text, ghosts_of, key_cards, not_claimable_msg, sides
from .base import Choice, Feedback, Question, View, _cap, register_question, wrong

__all__ = ["ClaimableQuestion"]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@register_question
@dataclass(frozen=True)
class ClaimableQuestion(Question[list[int], dict[int, ClaimAnalysis]]):
    """Which unclaimed flags can the side whose turn it is claim now?  Answer: a sorted list of flags."""

    kind: ClassVar[str] = "claimable"
    needs_game_in_progress: ClassVar[bool] = True
    answer_hint: ClassVar[str] = "question.answer.claimable"
    lesson: ClassVar[int] = 3
    answer_style = "flags"

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

    # -- a view ----------------------------------------------------------------------------
    def prompt(self, position: Position, *, sheet: bool = False) -> Msg:
        if sheet:
            return Msg.of("authoring.preview.question.claimable", who=position.turn)
        return Msg.of("widget.question.claimable", me=position.turn)

    def choices(self, position: Position) -> tuple[Choice, ...]:
        """One toggle per flag (a claimed flag cannot be chosen); the view adds its Check button."""
        return tuple(
            Choice(
                n, Msg.of("widget.answer.flag", flag=n), f"bl-flag-toggle-{n}", position.flag(n).claimed_by is not None
            )
            for n in FLAGS
        )

    def tie_note(self, position: Position) -> Msg | None:
        """Every unclaimed flag where a side completed first."""
        items = tuple(
            Msg.of("course.question.first_item", flag=n, who=first)
            for n in FLAGS
            if position.flag(n).claimed_by is None and (first := position.flag(n).completed_first) is not None
        )
        if not items:
            return None
        return Msg.of("course.question.first_list", items=Joined(items, "course.question.first_sep"))

    # -- judging ---------------------------------------------------------------------------
    def miss(self, position: Position, answer: object, explained: dict[int, ClaimAnalysis]) -> Feedback:
        """The first flag judged wrongly decides the rule; flags claimed wrongly show their counterexample."""
        chosen = set(answer) if isinstance(answer, (list, tuple, set)) else set()
        differ = [n for n in sorted(explained) if (n in chosen) != explained[n].claimable]
        # a flag with a proof to get wrong first; a chosen flag whose side is incomplete only then (R12, R25)
        differ.sort(key=lambda n: Reason.SIDE_INCOMPLETE in explained[n].reasons)
        code, rule = None, "R12"
        if differ:
            reason = decisive(explained[differ[0]])
            code, rule = (reason.value, reason.rule) if reason else (None, "R12")
        picked = answer if isinstance(answer, (list, tuple)) else []
        analyses = [explained[n] for n in picked if n in explained and not explained[n].claimable]
        parts = [not_claimable_msg(a) for a in analyses] or [Msg("widget.feedback.missed")]
        # how many flags are judged wrongly, never which: naming one would hand over its answer
        look = Msg.of("feedback.look.claimable", count=len(differ), side=position.turn)
        return wrong(code, rule, parts, ghosts_of(analyses), look=look)

    # -- texts -----------------------------------------------------------------------------
    def summary(self, position: Position, lang: str) -> str:
        solution = self.solve(position)
        me = message(f"side.{position.turn.value}", lang)
        if not solution:
            return message("widget.solution.claimable.none", lang, me=me)
        return message("widget.solution.claimable", lang, me=_cap(me), flags=flags_text(solution, lang))

    def solution_steps(self, position: Position, explained: dict[int, ClaimAnalysis], lang: str) -> list[View]:
        views: list[View] = []
        # nothing to prove where this side is not complete (R12); the unseen count is said once (R13)
        proved = [a for a in explained.values() if not {Reason.SIDE_INCOMPLETE, Reason.FLAG_CLAIMED} & set(a.reasons)]
        for analysis in state_unseen_once(proved):
            prefix = message("widget.step.flag_prefix", lang, flag=analysis.flag)
            views += analysis_views(analysis, position, lang, prefix)
        if not views:
            views.append(View(message("widget.claimable.none_complete", lang, **sides(position.turn, lang))))
        return views

    def hint_rungs(self, position: Position, explained: dict[int, ClaimAnalysis], lang: str) -> list[View]:
        side = position.turn
        complete = [n for n in FLAGS if (n in explained) and position.flag(n).is_complete(side)]
        first = (
            message("widget.hint.claimable", lang, flags=flags_text(complete, lang), **sides(side, lang))
            if complete
            else message("widget.claimable.none_complete", lang, **sides(side, lang))
        )
        found: dict[Any, None] = {}
        for n in complete:
            found.update(dict.fromkeys(key_cards(explained[n])))
        keys = tuple(found)
        second = message("widget.hint.keys", lang, cards=cards_text(keys, lang)) if keys else first
        return [View(first), View(second, keys)]

    def answer_text(self, value: object, lang: str) -> str:
        if isinstance(value, list):
            return ", ".join(str(v) for v in sorted(value)) if value else message("authoring.preview.no_flags", lang)
        return super().answer_text(value, lang)

    def _shown(self, position: Position) -> list[ClaimAnalysis]:
        """The proofs worth reading: flags where the side has cards."""
        side = position.turn
        return [a for n, a in self.explain(position).items() if position.flag(n).formation_cards(side)]

    def key_lines(self, position: Position, lang: str) -> list[str]:
        lines = []
        for analysis in self._shown(position):
            who = message(f"side.{analysis.side.value}", lang)
            verdict = "explain.verdict.yes" if analysis.claimable else "explain.verdict.no"
            lines.append(message(verdict, lang, flag=analysis.flag, me=who))
        return lines

    def proof_html(self, position: Position, lang: str) -> list[str]:
        shown = self._shown(position)
        if not shown:
            who = message(f"side.{position.turn.value}", lang)
            return [f"<p>{escape(message('authoring.preview.nothing_to_prove', lang, who=who))}</p>"]
        return [analysis_html(a, lang) for a in shown]

    def cli_lines(self, position: Position, lang: str) -> list[str] | None:
        return None  # the claim proofs of every complete flag of the side to play

    def proof_targets(self, position: Position) -> tuple[tuple[int, ...] | None, Side | None]:
        return None, position.turn
