"""What the two claim kinds (``claim`` and ``claimable``) share: proof views, key cards, the step a miss turns on.

Private to the question package; :mod:`battleline_lab.training.hints` re-exports
:func:`flags_text` and :func:`key_cards`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...core.cards import Card
from ...core.claims import ClaimAnalysis, Reason
from ...core.formations import FormationKind
from ...core.position import Position, Side
from ...text.messages import Msg, card_short, kind_name, message, render_analysis
from .base import View, _cap

#: Steps whose cards are the key cards of a claim (hint 2): their side, the blockers, the hand.
_KEY_REASONS = (
    Reason.THEY_NEED,
    Reason.THEIR_FORMATION,
    Reason.SHAPE_BLOCKED,
    Reason.SHAPE_SHORT,
    Reason.HAND_NOT_EVIDENCE,
    Reason.UNSEEN,  # its cards are the claimer's hand: unseen, no proof (R13)
)

#: Steps that draw the cards a completion would need as ghosts.
_NEEDS_GHOSTS = (Reason.COUNTEREXAMPLE, Reason.SHAPE_BLOCKED, Reason.SHAPE_TOO_WEAK)


def sides(side: Side, lang: str) -> dict[str, str]:
    """Placeholders naming the asking side and the other one: me/Me, my/My, them/Them."""
    me, them = message(f"side.{side.value}", lang), message(f"side.{side.other.value}", lang)
    my = message(f"side.{side.value}.possessive", lang)
    return {"me": me, "Me": _cap(me), "my": my, "My": _cap(my), "them": them, "Them": _cap(them)}


def listing(items: Iterable[object], lang: str, last: str = "list.and") -> str:
    """``2, 5 and 7`` / ``2、5和7``."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return message("list.sep", lang).join(words[:-1]) + message(last, lang) + words[-1]


def kind_a(kind: FormationKind, lang: str) -> str:
    """``a Wedge`` / ``an Host``; no article in Chinese."""
    name = kind_name(kind, lang)
    return message("article.an" if name[:1].lower() in "aeiou" else "article.a", lang, kind=name)


def cards_text(cards: Iterable[Card], lang: str) -> str:
    """Cards inside a widget text: ``b7 b9`` / ``蓝7、蓝9``."""
    return message("widget.card_sep", lang).join(card_short(c, lang) for c in cards)


def flags_text(flags: Iterable[int], lang: str) -> str:
    """``flag 2`` / ``flags 2 and 5`` / ``2号旗``: flag numbers with the plural form the count asks for."""
    numbers = list(flags)
    return message("words.flags", lang, count=len(numbers), flags=listing(numbers, lang))


def key_cards(analysis: ClaimAnalysis) -> tuple[Card, ...]:
    """The cards the proof turns on: the opponent's cards there, blockers, the hand (hint 2)."""
    out: dict[Card, None] = {}
    for step in analysis.steps:
        if step.reason in _KEY_REASONS:
            out.update(dict.fromkeys(step.highlight))
    return tuple(out)


def kinds_hint(analysis: ClaimAnalysis, lang: str) -> str:
    """Hint 1 for a claim: which formation kinds matter (R10, R12, R24)."""
    named = sides(analysis.side, lang)
    if analysis.reasons[:1] == (Reason.FLAG_CLAIMED,):
        return message("widget.hint.claimed", lang, flag=analysis.flag, **named)
    if Reason.SIDE_INCOMPLETE in analysis.reasons:
        return message("widget.hint.incomplete", lang, flag=analysis.flag, **named)
    formation = analysis.formation
    if formation is None or formation.kind is None:
        return message("widget.hint.fog", lang, flag=analysis.flag, **named)
    stronger = [kind_a(k, lang) for k in sorted(FormationKind, reverse=True) if k >= formation.kind]
    return message(
        "widget.hint.kinds",
        lang,
        kind=kind_name(formation.kind, lang),
        total=formation.total,
        kinds=listing(stronger, lang, "list.or"),
        **named,
    )


def analysis_views(analysis: ClaimAnalysis, position: Position, lang: str, prefix: str = "") -> list[View]:
    """One view per proof step: its line, the cards it talks about, and cards a completion would need."""
    views = []
    for step, line in zip(analysis.steps, render_analysis(analysis, lang)):
        ghosts: tuple[tuple[tuple[int, Side], tuple[Card, ...]], ...] = ()
        if step.reason in _NEEDS_GHOSTS and step.needed and len(step.shapes) <= 1:  # no ghosts for a group
            unseen = tuple(c for c in step.needed if c not in position.visible)
            if unseen:
                ghosts = (((step.flag, step.side.other), unseen),)
        views.append(View(prefix + line, step.highlight, ghosts))
    return views


#: Steps that compare strengths: under Fog they compare sums only, so Fog (R24) is what they turn on.
_STRENGTH_REASONS = frozenset(
    {
        Reason.COUNTEREXAMPLE,
        Reason.SHAPE_TOO_WEAK,
        Reason.KIND_TOO_WEAK,
        Reason.LOWER_KINDS,
        Reason.THEY_ARE_STRONGER,
        Reason.YOU_ARE_STRONGER,
    }
)


def decisive(analysis: ClaimAnalysis) -> Reason | None:
    """The step a claim proof turns on: the one a learner who got it wrong most likely missed.

    A hand card (R13) and the tie rule (R11) first, then the counterexample (R12); a side left
    incomplete by Mud is Mud's fourth card (R25); a comparison of strengths under Fog is Fog's
    sums (R24).
    """
    reasons = analysis.reasons
    found = _decisive_step(analysis)
    if found is Reason.SIDE_INCOMPLETE and Reason.MUD in reasons:
        return Reason.MUD
    if found in _STRENGTH_REASONS and Reason.FOG in reasons:
        return Reason.FOG
    return found


def _decisive_step(analysis: ClaimAnalysis) -> Reason | None:
    reasons = analysis.reasons
    for reason in (Reason.HAND_NOT_EVIDENCE, Reason.TIE_FIRST_COMPLETE, Reason.AT_BEST_TIE, Reason.COUNTEREXAMPLE):
        if reason in reasons:
            return reason
    if analysis.claimable:
        for reason in (Reason.SHAPE_BLOCKED, Reason.SHAPE_SHORT, Reason.KIND_RULED_OUT, Reason.YOU_ARE_STRONGER):
            if reason in reasons:
                return reason
    steps = [r for r in reasons if r not in (Reason.CAN_CLAIM, Reason.CANNOT_CLAIM)]
    return steps[-1] if steps else None


def not_claimable_msg(analysis: ClaimAnalysis) -> Msg:
    """Why a claim fails, as a message: the counterexample (drawn as ghosts) or the step the verdict turns on."""
    if analysis.counterexample:
        opp = analysis.opponent_formation
        assert opp is not None
        if opp.kind is None:  # under Fog only the sum counts (R24)
            return Msg.of(
                "widget.feedback.counterexample.fog",
                flag=analysis.flag,
                cards=tuple(analysis.counterexample),
                total=opp.total,
                side=analysis.side,
            )
        return Msg.of(
            "widget.feedback.counterexample",
            flag=analysis.flag,
            cards=tuple(analysis.counterexample),
            kind=opp.kind,
            total=opp.total,
            side=analysis.side,
        )
    return Msg.of("feedback.step", step=analysis)


def ghosts_of(analyses: Iterable[ClaimAnalysis]) -> tuple[tuple[tuple[int, Side], tuple[Card, ...]], ...]:
    """The opponent's completions that beat wrong claims (the counterexamples to draw as ghosts)."""
    return tuple(((a.flag, a.side.other), tuple(a.counterexample)) for a in analyses if a.counterexample)
