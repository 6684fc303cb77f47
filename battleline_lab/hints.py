"""The hint ladder of a puzzle, and what to say after a wrong answer: plain text from the catalogue.

Three hints per puzzle, from vague to the full solution: which formation kinds
matter (R10, R12), then the key cards (their cards, the cards that block them,
the hand that is no proof, R13), then the solution.  After a wrong answer,
:func:`retry_text` says something the first hint does not (for compare and
formation questions: about the choice given), so a first hint never repeats the
feedback.  No widget code here: the puzzle widget (and any other front end)
shows these texts and highlights the cards.

>>> from battleline_lab.position import Position
>>> from battleline_lab.puzzle import Puzzle
>>> from battleline_lab.questions import ClaimQuestion
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

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Card, Tactic, Troop
from .claims import ClaimAnalysis, Reason
from .formations import FormationKind
from .messages import card_label, card_short, kind_name, message
from .position import FLAGS, Side
from .puzzle import Puzzle
from .questions import ClaimableQuestion, ClaimQuestion, CompareQuestion, Comparison, FormationQuestion

__all__ = ["Hint", "flags_text", "hint_ladder", "key_cards", "retry_text", "solution_summary"]

#: Steps whose cards are the key cards of a claim (hint 2): their side, the blockers, the hand.
_KEY_REASONS = (
    Reason.THEY_NEED,
    Reason.THEIR_FORMATION,
    Reason.SHAPE_BLOCKED,
    Reason.SHAPE_SHORT,
    Reason.HAND_NOT_EVIDENCE,
    Reason.UNSEEN,  # its cards are the claimer's hand: unseen, no proof (R13)
)


@dataclass(frozen=True)
class Hint:
    """One hint: its text and the cards on the table it points at."""

    text: str
    highlight: tuple[Card, ...] = ()


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _list(items: Iterable[object], lang: str, last: str = "list.and") -> str:
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return message("list.sep", lang).join(words[:-1]) + message(last, lang) + words[-1]


def _sides(side: Side, lang: str) -> dict[str, str]:
    me, them = message(f"side.{side.value}", lang), message(f"side.{side.other.value}", lang)
    my = message(f"side.{side.value}.possessive", lang)
    return {"me": me, "Me": _cap(me), "my": my, "My": _cap(my), "them": them, "Them": _cap(them)}


def _kind_a(kind: FormationKind, lang: str) -> str:
    name = kind_name(kind, lang)
    return message("article.an" if name[:1].lower() in "aeiou" else "article.a", lang, kind=name)


def flags_text(flags: Iterable[int], lang: str) -> str:
    """``flag 2`` / ``flags 2 and 5`` / ``2号旗``: flag numbers with the plural form the count asks for."""
    numbers = list(flags)
    return message("words.flags", lang, count=len(numbers), flags=_list(numbers, lang))


def key_cards(analysis: ClaimAnalysis) -> tuple[Card, ...]:
    """The cards the proof turns on: the opponent's cards there, blockers, the hand (hint 2)."""
    out: dict[Card, None] = {}
    for step in analysis.steps:
        if step.reason in _KEY_REASONS:
            out.update(dict.fromkeys(step.highlight))
    return tuple(out)


def _kinds_hint(analysis: ClaimAnalysis, lang: str) -> str:
    """Hint 1 for a claim: which formation kinds matter (R10, R12, R24)."""
    sides = _sides(analysis.side, lang)
    if analysis.reasons[:1] == (Reason.FLAG_CLAIMED,):
        return message("widget.hint.claimed", lang, flag=analysis.flag, **sides)
    if Reason.SIDE_INCOMPLETE in analysis.reasons:
        return message("widget.hint.incomplete", lang, flag=analysis.flag, **sides)
    formation = analysis.formation
    if formation is None or formation.kind is None:
        return message("widget.hint.fog", lang, flag=analysis.flag, **sides)
    stronger = [_kind_a(k, lang) for k in sorted(FormationKind, reverse=True) if k >= formation.kind]
    return message(
        "widget.hint.kinds",
        lang,
        kind=kind_name(formation.kind, lang),
        total=formation.total,
        kinds=_list(stronger, lang, "list.or"),
        **sides,
    )


def solution_summary(puzzle: Puzzle, lang: str = "en") -> str:
    """The engine's answer in one sentence: ``Yes: you can claim flag 5.``, ``A wins.``, ``It is a Wedge.``"""
    question, solution = puzzle.question, puzzle.solve()
    me = message(f"side.{puzzle.position.turn.value}", lang)
    if isinstance(question, ClaimQuestion):
        verdict = "yes" if solution else "no"
        return _cap(message(f"explain.verdict.{verdict}", lang, me=me, flag=question.flag))
    if isinstance(question, ClaimableQuestion):
        assert isinstance(solution, list)
        if not solution:
            return message("widget.solution.claimable.none", lang, me=me)
        return message("widget.solution.claimable", lang, me=_cap(me), flags=flags_text(solution, lang))
    if isinstance(question, CompareQuestion):
        return message(f"widget.solution.compare.{solution}", lang)
    if isinstance(question, FormationQuestion):
        return message("widget.solution.formation", lang, kind=kind_name(FormationKind[str(solution).upper()], lang))
    return ""


def hint_ladder(puzzle: Puzzle, lang: str = "en", explained: object | None = None) -> list[Hint]:
    """The hints of a puzzle: vague, then the key cards, then the solution (empty without a question).

    ``explained`` is ``puzzle.explain()`` when the caller has it already (it is computed otherwise).
    """
    question, position = puzzle.question, puzzle.position
    if question is None:
        return []
    data = puzzle.explain() if explained is None else explained
    solution = Hint(message("widget.hint.solution", lang, text=solution_summary(puzzle, lang)))
    if isinstance(question, ClaimQuestion):
        assert isinstance(data, ClaimAnalysis)
        keys = key_cards(data)
        first = _kinds_hint(data, lang)
        second = message("widget.hint.keys", lang, cards=_cards(keys, lang)) if keys else first
        return [Hint(first), Hint(second, keys), solution]
    if isinstance(question, ClaimableQuestion):
        assert isinstance(data, dict)
        side = position.turn
        complete = [n for n in FLAGS if (n in data) and position.flag(n).is_complete(side)]
        first = (
            message("widget.hint.claimable", lang, flags=flags_text(complete, lang), **_sides(side, lang))
            if complete
            else message("widget.claimable.none_complete", lang, **_sides(side, lang))
        )
        found: dict[Card, None] = {}
        for n in complete:
            found.update(dict.fromkeys(key_cards(data[n])))
        keys = tuple(found)
        second = message("widget.hint.keys", lang, cards=_cards(keys, lang)) if keys else first
        return [Hint(first), Hint(second, keys), solution]
    if isinstance(question, CompareQuestion):
        assert isinstance(data, Comparison)
        first = message("widget.hint.compare.fog" if question.fog else "widget.hint.compare", lang)
        second = message(
            "widget.hint.compare.kinds", lang, a=kind_name(data.a.kind, lang), b=kind_name(data.b.kind, lang)
        )
        return [Hint(first), Hint(second), solution]
    if isinstance(question, FormationQuestion):
        rules = message("widget.hint.formation.sep", lang).join(
            message(
                "widget.hint.formation.item", lang, kind=kind_name(k, lang), rule=message(f"kind.{k.key}.rule", lang)
            )
            for k in sorted(FormationKind, reverse=True)
        )
        troops = [c for c in question.cards if isinstance(c, Troop)]
        colours = _list((message(f"colour.{c.colour.letter}", lang) for c in troops), lang)
        values = _list((c.value for c in troops), lang)
        wild = [c for c in question.cards if isinstance(c, Tactic)]
        second = message("widget.hint.formation.cards", lang, colours=colours or "-", values=values or "-")
        if wild:
            second += message(
                "widget.hint.formation.wild", lang, cards=_list((card_label(c, lang) for c in wild), lang)
            )
        return [Hint(message("widget.hint.formation", lang, rules=rules)), Hint(second), solution]
    return []


def retry_text(puzzle: Puzzle, answer: object, lang: str = "en") -> str:
    """For a wrong answer to a compare or formation question: about the choice given, not the first hint.

    The feedback of a claim says the counterexample or the deciding step (the widget does);
    for the other kinds this names what the chosen answer would need, so the first hint
    (the order of the kinds) still adds something.

    >>> from battleline_lab.questions import FormationQuestion
    >>> from battleline_lab.cards import parse_cards
    >>> p = Puzzle("f", question=FormationQuestion(parse_cards("r3 g4 b5")), answer="skirmish")
    >>> retry_text(p, "wedge")
    'A Wedge needs same colour, consecutive values. Do these cards fit?'
    >>> retry_text(p, "wedge", "zh")
    '楔形阵需要：颜色相同，数值连续。这些牌符合吗？'
    """
    question = puzzle.question
    if (
        isinstance(question, FormationQuestion)
        and isinstance(answer, str)
        and answer.upper() in FormationKind.__members__
    ):
        kind = FormationKind[answer.upper()]
        return message(
            "hints.retry.formation", lang, kind_a=_cap(_kind_a(kind, lang)), rule=message(f"kind.{kind.key}.rule", lang)
        )
    if isinstance(question, CompareQuestion) and answer in ("a", "b"):
        return message("hints.retry.compare", lang, which=str(answer).upper())
    return ""


def _cards(cards: Iterable[Card], lang: str) -> str:
    return message("widget.card_sep", lang).join(card_short(c, lang) for c in cards)
