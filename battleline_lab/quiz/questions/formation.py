"""The ``formation`` kind: what kind of formation are these cards (R9, R20-R22, R25)?  Answer: the kind key."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any, ClassVar

from ...core.cards import Card, Tactic, Troop
from ...core.formations import Formation, FormationKind, evaluate, formation_size
from ...core.position import Position, Problem
from ...render.svg import cards_svg, formation_caption
from ...text.messages import KindArticle, Msg, card_label, formation_text, kind_name, message
from ._claims import cards_text, listing
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

__all__ = ["FormationQuestion"]


@register_question
@dataclass(frozen=True)
class FormationQuestion(Question[str, Formation]):
    """What kind of formation are these cards (R9, R20-R22, R25)?  Answer: the kind key.

    ``environment`` may hold ``mud`` (4 cards); Fog is refused, since under Fog
    there are no formations, only sums (R24).
    """

    kind: ClassVar[str] = "formation"
    fields: ClassVar[tuple[str, ...]] = ("cards", "environment")
    required: ClassVar[tuple[str, ...]] = ("cards",)
    answer_hint: ClassVar[str] = "question.answer.formation"
    lesson: ClassVar[int] = 1
    board_optional: ClassVar[bool] = True

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

    # -- a view ----------------------------------------------------------------------------
    def prompt(self, position: Position, *, sheet: bool = False) -> Msg:
        return Msg("authoring.preview.question.formation" if sheet else "widget.question.formation")

    def choices(self, position: Position) -> tuple[Choice, ...]:
        return tuple(
            Choice(k.key, Msg(f"kind.{k.key}"), f"bl-answer-{k.key}") for k in sorted(FormationKind, reverse=True)
        )

    def loose_cards(self) -> tuple[Card, ...]:
        return (*self.cards, *self.environment)

    def environment_cards(self) -> tuple[Tactic, ...]:
        return self.environment

    def card_rows(self, explained: Formation | None, lang: str) -> list[tuple[tuple[Card, ...], str]]:
        return [(self.cards, formation_caption(explained, lang) if explained is not None else "")]

    # -- judging ---------------------------------------------------------------------------
    def miss(self, position: Position, answer: object, explained: Formation) -> Feedback:
        """What the chosen kind would need (so the first hint, the order of the kinds, still adds), then R9."""
        parts = []
        if isinstance(answer, str) and answer.upper() in FormationKind.__members__:
            kind = FormationKind[answer.upper()]
            parts.append(
                Msg.of("hints.retry.formation", kind_a=KindArticle(kind, True), rule=Msg(f"kind.{kind.key}.rule"))
            )
        # what the chosen kind needs says nothing about the right one: it is the nudge too
        return wrong("formation_kind", "R9", parts, look=parts[0] if parts else None)

    # -- texts -----------------------------------------------------------------------------
    def summary(self, position: Position, lang: str) -> str:
        return message("widget.solution.formation", lang, kind=kind_name(self.explain(position).kind, lang))

    def solution_steps(self, position: Position, explained: Formation, lang: str) -> list[View]:
        assert explained.kind is not None
        kind = explained.kind
        return [
            View(
                message(
                    "widget.formation.line",
                    lang,
                    cards=cards_text(explained.cards, lang),
                    text=formation_caption(explained, lang),
                )
            ),
            View(
                message(
                    "widget.formation.rule",
                    lang,
                    kind=kind_name(kind, lang),
                    rule=message(f"kind.{kind.key}.rule", lang),
                )
            ),
        ]

    def hint_rungs(self, position: Position, explained: Formation, lang: str) -> list[View]:
        rules = message("widget.hint.formation.sep", lang).join(
            message(
                "widget.hint.formation.item", lang, kind=kind_name(k, lang), rule=message(f"kind.{k.key}.rule", lang)
            )
            for k in sorted(FormationKind, reverse=True)
        )
        troops = [c for c in self.cards if isinstance(c, Troop)]
        colours = listing((message(f"colour.{c.colour.letter}", lang) for c in troops), lang)
        values = listing((c.value for c in troops), lang)
        wild = [c for c in self.cards if isinstance(c, Tactic)]
        second = message("widget.hint.formation.cards", lang, colours=colours or "-", values=values or "-")
        if wild:
            second += message(
                "widget.hint.formation.wild", lang, cards=listing((card_label(c, lang) for c in wild), lang)
            )
        return [View(message("widget.hint.formation", lang, rules=rules)), View(second)]

    def answer_text(self, value: object, lang: str) -> str:
        if isinstance(value, str) and value.upper() in FormationKind.__members__:
            return kind_name(FormationKind[value.upper()], lang)
        return super().answer_text(value, lang)

    def sheet_html(self, position: Position, lang: str) -> list[str]:
        out = [cards_svg(self.cards, lang=lang)]
        if self.mud:
            out.append(f"<p>{escape(message('authoring.preview.environment.mud', lang))}</p>")
        return out

    def key_lines(self, position: Position, lang: str) -> list[str]:
        return [formation_caption(self.explain(position), lang)]

    def proof_html(self, position: Position, lang: str) -> list[str]:
        return [f"<p>{escape(formation_caption(self.explain(position), lang))}</p>"]

    def cli_lines(self, position: Position, lang: str) -> list[str] | None:
        return [formation_text(self.cards, self.explain(position), lang)]
