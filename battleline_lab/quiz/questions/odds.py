"""The odds kinds, judged by :mod:`battleline_lab.core.odds`: what the unseen troops can still do.

- ``safest-flag``: which flag is safest to play this card on?  Answer: a flag number.  For each
  candidate flag the card goes to your side of it, and :func:`~battleline_lab.core.odds.flag_odds` gives
  your chance to win that flag if the open slots on both sides were filled at random from the
  unseen troops (R13; a tie goes to the side already complete, otherwise half to each, R11).  The
  safest flag is the one with the highest chance; a puzzle whose two best flags are too close to
  tell apart is refused (:meth:`SafestFlagQuestion.problems`).
- ``outs``: how many outs?  Answer: a number.  The unseen troops (R13) that take part in at least
  one completion of ``formation`` on ``side``'s side of ``flag``
  (:func:`~battleline_lab.core.odds.outs`, :attr:`~battleline_lab.core.odds.KindOuts.count`); 0 when that
  kind cannot be reached any more.

Both miss with the rule they turn on, R13: the unseen troops are every troop not face up, hands
included, and a troop face up can no longer come.

>>> from battleline_lab.core.position import Position
>>> from battleline_lab.quiz.questions import question_from_data
>>> pos = Position.build({1: {"you": "b8 b9", "opponent": "r10 g10 y10"}})
>>> q = question_from_data({"kind": "outs", "flag": 1, "formation": "wedge"})
>>> q.solve(pos), [t.notation for t in q.explain(pos).kind.troops]
(2, ['b7', 'b10'])
>>> s = question_from_data({"kind": "safest-flag", "card": "b7", "flags": [1, 2]})
>>> s.solve(Position.build({1: {"you": "b8 b9", "opponent": "r10 g10 y10"}, 2: {"opponent": "r9 g9 y9"}}))
1
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.cards import Card, CardNotationError, Tactic, Troop, parse_card
from ...core.formations import FormationKind, evaluate
from ...core.odds import SAMPLED_ERROR, FlagOdds, KindOuts, SideOuts, flag_odds, outs
from ...core.position import FLAGS, FlagState, Position, Problem, Side, is_flag_number
from ...render.svg import cards_svg
from ...text.messages import Msg, card_short, kind_name, message
from ...text.messages import where_text as _where_text
from ._claims import cards_text
from .base import Choice, Feedback, Question, QuestionError, View, _is_int, register_question, wrong

if TYPE_CHECKING:
    from ..difficulty import Features

__all__ = ["OutsExplained", "OutsQuestion", "SafestFlag", "SafestFlagQuestion", "played"]

#: Two candidate flags whose exact chances differ by less than this are too close for a puzzle (one
#: decimal of a percentage is what a learner reads); sampled ones need twice their error apart.
MIN_MARGIN = Fraction(1, 1000)
RULE = "R13"  # the unseen troops: every troop not face up, hands included
#: Lesson 07 teaches outs and odds (the trainer's ``LESSONS``): the gym serves these kinds once it is taught.
LESSON = 7


def _percent(p: Fraction | float) -> str:
    return f"{100 * float(p):.1f}"


def _method(odds: FlagOdds, lang: str) -> str:
    return message("odds.exact", lang) if odds.exact else message("odds.sampled", lang, error=_percent(odds.error))


def played(position: Position, card: Card, flag: int) -> Position:
    """``position`` after you play ``card`` to your side of ``flag`` (out of your hand if it is there).

    Completing your side after the opponent completed theirs makes them the first to complete (R11).

    >>> before = Position.build({3: {"opponent": "r1 r2 r3", "you": "b5 b6"}}, hand={"you": "b7"})
    >>> after = played(before, parse_card("b7"), 3)
    >>> after.flag(3).you, after.hand_you, after.flag(3).completed_first
    ((b5, b6, b7), (), Side.OPPONENT)
    """
    state = position.flag(flag)
    new = replace(state, you=(*state.you, card))
    if new.is_complete(Side.YOU) and state.is_complete(Side.OPPONENT) and state.first_complete is None:
        new = replace(new, first_complete=Side.OPPONENT)
    flags = tuple(new if n == flag else s for n, s in zip(FLAGS, position.flags))
    hand = list(position.hand_you)
    if card in hand:
        hand.remove(card)
    return replace(position, flags=flags, hand_you=tuple(hand))


def _open_for_you(state: FlagState) -> bool:
    return state.claimed_by is None and not state.is_complete(Side.YOU)


@dataclass(frozen=True)
class SafestFlag:
    """The engine's data for a ``safest-flag`` question: each candidate flag's odds after the play, the best."""

    card: Card
    odds: tuple[tuple[int, FlagOdds], ...]  # (flag, its odds once the card is there), in flag order
    best: int

    def chance(self, flag: int) -> Fraction | float:
        return dict(self.odds)[flag].you


@lru_cache(maxsize=256)
def _safest(question: SafestFlagQuestion, position: Position) -> SafestFlag:
    """:meth:`SafestFlagQuestion.explain`, once per question and position.

    Exact odds after a play cost milliseconds a flag and a puzzle's view asks for them several times
    (its summary, its hints, judging, solving); the question and the position are frozen and the
    answer is too, so an equal pair always has an equal answer.
    """
    odds = tuple((n, flag_odds(played(position, question.card, n), n)) for n in question.candidates(position))
    best = max(odds, key=lambda fo: (fo[1].you, -fo[0]))[0]
    return SafestFlag(question.card, odds, best)


@register_question
@dataclass(frozen=True)
class SafestFlagQuestion(Question[int, SafestFlag]):
    """Which flag is safest to play ``card`` on (the highest chance to win it, R13)?  Answer: a flag number.

    ``flags`` lists the candidate flags (default: every unclaimed flag where your side has room).
    """

    kind: ClassVar[str] = "safest-flag"
    fields: ClassVar[tuple[str, ...]] = ("card", "flags")
    required: ClassVar[tuple[str, ...]] = ("card",)
    needs_game_in_progress: ClassVar[bool] = True
    answer_hint: ClassVar[str] = "question.answer.safest-flag"
    lesson: ClassVar[int] = LESSON

    card: Card
    flags: tuple[int, ...] = ()

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SafestFlagQuestion:
        problems: list[Problem] = []
        card = _read_card(data.get("card"), problems)
        flags: list[int] = []
        value = data.get("flags", [])
        if not isinstance(value, list):
            problems.append(Problem("odds_flags", ("flags",), ()))
        else:
            for i, flag in enumerate(value):
                if not is_flag_number(flag):
                    problems.append(Problem("bad_flag", ("flags", i), (("flag", flag),)))
                elif flag in flags:
                    problems.append(Problem("odds_flag_twice", ("flags", i), (("flag", flag),)))
                else:
                    flags.append(flag)
        if problems or card is None:
            raise QuestionError(problems)
        return cls(card, tuple(flags))

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "card": self.card.notation}
        if self.flags:
            data["flags"] = list(self.flags)
        return data

    def candidates(self, position: Position) -> tuple[int, ...]:
        """The flags asked about: ``flags``, else every unclaimed flag where your side has room."""
        if self.flags:
            return tuple(sorted(self.flags))
        return tuple(n for n in FLAGS if _open_for_you(position.flag(n)))

    def problems(self, position: Position) -> list[Problem]:
        out: list[Problem] = []
        if self.card in position.visible:
            out.append(Problem("odds_card_face_up", ("card",), (("card", self.card),)))
            return out
        if isinstance(self.card, Tactic) and self.card.is_leader:
            played_leaders = [c for n in FLAGS for c in position.flag(n).you if isinstance(c, Tactic) and c.is_leader]
            if played_leaders:  # R20: one Leader a player
                out.append(
                    Problem("odds_second_leader", ("card",), (("card", self.card), ("played", played_leaders[0])))
                )
                return out
        for i, n in enumerate(self.flags):
            if not _open_for_you(position.flag(n)):
                out.append(Problem("odds_flag_closed", ("flags", i), (("flag", n),)))
        candidates = self.candidates(position)
        if len(candidates) < 2:
            out.append(Problem("odds_few_flags", ("flags",) if self.flags else (), (("count", len(candidates)),)))
        if out:
            return out
        explained = self.explain(position)
        ranked = sorted(explained.odds, key=lambda fo: fo[1].you, reverse=True)
        (a, first), (b, second) = ranked[0], ranked[1]
        margin = (
            MIN_MARGIN if first.exact and second.exact else Fraction(2 * max(first.error, second.error, SAMPLED_ERROR))
        )
        if Fraction(first.you) - Fraction(second.you) < margin:
            params = (("a", a), ("b", b), ("pa", _percent(first.you)), ("pb", _percent(second.you)))
            out.append(Problem("odds_too_close", ("flags",) if self.flags else (), params))
        return out

    # -- the engine ----------------------------------------------------------------------
    def explain(self, position: Position) -> SafestFlag:
        return _safest(self, position)

    def solve(self, position: Position) -> int:
        return self.explain(position).best

    def check_answer_type(self, value: object) -> bool:
        return _is_int(value) and value in FLAGS

    # -- a view ----------------------------------------------------------------------------
    def prompt(self, position: Position, *, sheet: bool = False) -> Msg:
        return Msg.of("oddsq.safest.prompt", card=self.card)

    def choices(self, position: Position) -> tuple[Choice, ...]:
        return tuple(
            Choice(n, Msg.of("oddsq.safest.choice", flag=n), f"bl-answer-flag-{n}") for n in self.candidates(position)
        )

    def focus(self, position: Position) -> tuple[int, ...]:
        return self.candidates(position)

    def loose_cards(self) -> tuple[Card, ...]:
        return (self.card,)

    def card_rows(self, explained: SafestFlag | None, lang: str) -> list[tuple[tuple[Card, ...], str]]:
        return [((self.card,), message("oddsq.safest.card", lang))]

    # -- judging ---------------------------------------------------------------------------
    def miss(self, position: Position, answer: object, explained: SafestFlag) -> Feedback:
        """Your chance on the flag chosen, and that another flag gives more (not which: a retry still counts)."""
        parts: list[Msg] = []
        if _is_int(answer) and answer in dict(explained.odds):
            assert isinstance(answer, int)
            chance = _percent(explained.chance(answer))
            parts.append(Msg.of("oddsq.safest.miss", card=self.card, flag=answer, chance=chance))
        else:
            parts.append(Msg.of("oddsq.safest.miss.not_asked", flags=", ".join(map(str, self.candidates(position)))))
        # the chance on the flag chosen, not which flag is best: it is the nudge too
        return wrong("odds_lower", RULE, parts, look=parts[0])

    # -- texts -----------------------------------------------------------------------------
    def _line(self, flag: int, odds: FlagOdds, lang: str) -> str:
        return message(
            "oddsq.safest.line",
            lang,
            flag=flag,
            card=card_short(self.card, lang),
            you=_percent(odds.you),
            opponent=_percent(odds.opponent),
            method=_method(odds, lang),
        )

    def summary(self, position: Position, lang: str) -> str:
        explained = self.explain(position)
        return message(
            "oddsq.safest.summary",
            lang,
            flag=explained.best,
            card=card_short(self.card, lang),
            chance=_percent(explained.chance(explained.best)),
        )

    def solution_steps(self, position: Position, explained: SafestFlag, lang: str) -> list[View]:
        views = [View(self._line(n, odds, lang), highlight=(self.card,)) for n, odds in explained.odds]
        views.append(View(self.summary(position, lang)))
        views.append(View(message("odds.tie_rule", lang)))
        return views

    def hint_rungs(self, position: Position, explained: SafestFlag, lang: str) -> list[View]:
        return [
            View(message("oddsq.safest.hint", lang, card=card_short(self.card, lang))),
            View(message("oddsq.hint.unseen", lang, count=len(position.unseen_troops() - {self.card}))),
        ]

    def answer_text(self, value: object, lang: str) -> str:
        return message("oddsq.safest.choice", lang, flag=value) if _is_int(value) else super().answer_text(value, lang)

    def sheet_html(self, position: Position, lang: str) -> list[str]:
        return [cards_svg((self.card,), caption=message("oddsq.safest.card", lang), lang=lang)]

    def key_lines(self, position: Position, lang: str) -> list[str]:
        explained = self.explain(position)
        return [self._line(n, odds, lang) for n, odds in explained.odds] + [self.summary(position, lang)]

    def difficulty_features(self, position: Position, explained: SafestFlag) -> Features:
        from ..difficulty import Features

        missing = max(
            max(0, position.flag(n).size - len(position.flag(n).formation_cards(Side.YOU)) - 1)
            for n, _ in explained.odds
        )
        return Features(kinds=2, flags=len(explained.odds), needed=missing)


@dataclass(frozen=True)
class OutsExplained:
    """The engine's data for an ``outs`` question: the side's outs at the flag, the kind asked (None: unreachable)."""

    side_outs: SideOuts
    kind: KindOuts | None

    @property
    def count(self) -> int:
        return self.kind.count if self.kind is not None else 0


@register_question
@dataclass(frozen=True)
class OutsQuestion(Question[int, OutsExplained]):
    """How many unseen troops (R13) can still complete ``formation`` on ``side``'s side of ``flag``?  A number.

    ``formation`` is a kind key (``wedge`` ... ``host``), or ``sum`` on a flag under Fog (R24);
    ``side`` is ``you`` (default) or ``opponent``.
    """

    kind: ClassVar[str] = "outs"
    fields: ClassVar[tuple[str, ...]] = ("flag", "formation", "side")
    required: ClassVar[tuple[str, ...]] = ("flag", "formation")
    needs_game_in_progress: ClassVar[bool] = True
    answer_hint: ClassVar[str] = "question.answer.outs"
    lesson: ClassVar[int] = LESSON

    flag: int
    formation: str
    side: Side = Side.YOU

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> OutsQuestion:
        problems: list[Problem] = []
        flag = data.get("flag")
        if not is_flag_number(flag):
            problems.append(Problem("bad_flag", ("flag",), (("flag", flag),)))
        formation = data.get("formation")
        keys = (*(k.key for k in sorted(FormationKind, reverse=True)), "sum")
        if formation not in keys:
            problems.append(Problem("odds_bad_formation", ("formation",), (("value", formation), ("kinds", keys))))
        side = data.get("side", "you")
        if side not in ("you", "opponent"):
            problems.append(Problem("odds_bad_side", ("side",), (("value", side),)))
        if problems:
            raise QuestionError(problems)
        assert isinstance(flag, int) and isinstance(formation, str)
        return cls(flag, formation, Side(side))

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "flag": self.flag, "formation": self.formation}
        if self.side is not Side.YOU:
            data["side"] = self.side.value
        return data

    def problems(self, position: Position) -> list[Problem]:
        state = position.flag(self.flag)
        if state.claimed_by is not None:
            return [Problem("odds_flag_claimed", ("flag",), (("flag", self.flag),))]
        if state.is_complete(self.side):
            return [Problem(f"odds_side_complete.{self.side.value}", ("flag",), (("flag", self.flag),))]
        if state.fog != (self.formation == "sum"):
            return [Problem("odds_fog_sum", ("formation",), (("value", self.formation),))]
        return []

    # -- the engine ----------------------------------------------------------------------
    def explain(self, position: Position) -> OutsExplained:
        side_outs = outs(position, self.flag, self.side)
        kind = next((k for k in side_outs.kinds if k.kind_key == self.formation), None)
        return OutsExplained(side_outs, kind)

    def solve(self, position: Position) -> int:
        return self.explain(position).count

    def check_answer_type(self, value: object) -> bool:
        return _is_int(value) and 0 <= value <= 60  # type: ignore[operator]

    def _kind_text(self, lang: str) -> str:
        return kind_name(None if self.formation == "sum" else FormationKind[self.formation.upper()], lang)

    # -- a view ----------------------------------------------------------------------------
    def prompt(self, position: Position, *, sheet: bool = False) -> Msg:
        kind = None if self.formation == "sum" else FormationKind[self.formation.upper()]
        return Msg.of(f"oddsq.outs.prompt.{self.side.value}", flag=self.flag, kind=kind)

    def choices(self, position: Position) -> tuple[Choice, ...]:
        """The right count among counts a learner could reach by a slip: another kind's, the other side's, one off."""
        explained = self.explain(position)
        right = explained.count
        near = [k.count for k in explained.side_outs.kinds]
        other = outs(position, self.flag, self.side.other)
        near += [k.count for k in other.kinds if k.kind_key == self.formation]
        near += [right - 1, right + 1, right + 2, right - 2, right + 3]
        values = [right]
        for n in near:
            if 0 <= n <= 60 and n not in values and len(values) < 4:
                values.append(n)
        return tuple(Choice(n, Msg.of("oddsq.outs.choice", count=n), f"bl-answer-outs-{n}") for n in sorted(values))

    def focus(self, position: Position) -> tuple[int, ...]:
        return (self.flag,)

    # -- judging ---------------------------------------------------------------------------
    def miss(self, position: Position, answer: object, explained: OutsExplained) -> Feedback:
        """Too few (a troop not face up, in a hand too, is still unseen) or too many (a face-up one cannot come)."""
        few = _is_int(answer) and answer < explained.count  # type: ignore[operator]
        kind = None if self.formation == "sum" else FormationKind[self.formation.upper()]
        key = "oddsq.outs.miss.few" if few else "oddsq.outs.miss.many"
        look = Msg.of(f"oddsq.outs.look.{'few' if few else 'many'}", kind=kind, flag=self.flag)  # no rule spelled out
        return wrong(
            "outs_too_few" if few else "outs_too_many", RULE, [Msg.of(key, kind=kind, flag=self.flag)], look=look
        )

    # -- texts -----------------------------------------------------------------------------
    def _outs_line(self, explained: OutsExplained, lang: str) -> str:
        kind = explained.kind
        if kind is None:
            return message("oddsq.outs.none", lang, kind=self._kind_text(lang), flag=self.flag)
        return message(
            "oddsq.outs.line",
            lang,
            kind=self._kind_text(lang),
            best=kind.best,
            count=kind.count,
            troops=cards_text(kind.troops, lang),
        )

    def summary(self, position: Position, lang: str) -> str:
        return message("oddsq.outs.summary", lang, count=self.explain(position).count, kind=self._kind_text(lang))

    def solution_steps(self, position: Position, explained: OutsExplained, lang: str) -> list[View]:
        troops = explained.kind.troops if explained.kind is not None else ()
        odds = flag_odds(position, self.flag)
        chance = message(
            "odds.flag",
            lang,
            flag=self.flag,
            you=message("odds.percent", lang, value=_percent(odds.you)),
            opponent=message("odds.percent", lang, value=_percent(odds.opponent)),
            method=_method(odds, lang),
        )
        return [View(self._outs_line(explained, lang), highlight=troops), View(chance)]

    def hint_rungs(self, position: Position, explained: OutsExplained, lang: str) -> list[View]:
        cards = position.flag(self.flag).formation_cards(self.side)
        return [
            View(message("oddsq.outs.hint", lang, kind=self._kind_text(lang), cards=cards_text(cards, lang) or "-")),
            View(message("oddsq.hint.unseen", lang, count=len(position.unseen_troops()))),
        ]

    def answer_text(self, value: object, lang: str) -> str:
        return message("oddsq.outs.choice", lang, count=value) if _is_int(value) else super().answer_text(value, lang)

    def key_lines(self, position: Position, lang: str) -> list[str]:
        return [self._outs_line(self.explain(position), lang)]

    def explanation_lines(self, position: Position, lang: str) -> list[str]:
        """The whole count, step by step, each step with its rule: the side and what it needs, Fog or
        Mud, the unseen troops, the troops that would have done it but are face up, outs in a hand,
        then the outs and the answer."""
        explained = self.explain(position)
        state = position.flag(self.flag)
        cards = state.formation_cards(self.side)
        whose = message(f"side.{self.side.value}.possessive", lang)
        steps: list[tuple[str, str]] = []
        if state.mud:
            steps.append((message("step.mud", lang, flag=self.flag, size=state.size), "R25"))
        if state.fog:
            steps.append((message("step.fog", lang, flag=self.flag), "R24"))
        missing = explained.side_outs.missing
        if cards:
            side_text = message(
                "oddsq.outs.explain.side",
                lang,
                flag=self.flag,
                whose=whose,
                cards=cards_text(cards, lang),
                count=missing,
            )
        else:
            side_text = message("oddsq.outs.explain.empty", lang, flag=self.flag, whose=whose, count=missing)
        steps.append((side_text, "R12"))
        on_flags = sum(1 for card, loc in position.placed() if isinstance(card, Troop) and loc.area == "flag")
        in_discards = sum(1 for card, loc in position.placed() if isinstance(card, Troop) and loc.area == "discard")
        unseen = len(position.unseen_troops())
        counted = "unseen.counted" if in_discards else "unseen.counted.flags"
        counted_text = message(counted, lang, on_flags=on_flags, in_discards=in_discards, count=unseen)
        steps.append((message("step.unseen", lang, counted=counted_text), "R13"))
        # the troops that would have made the kind had they not been face up: struck out
        face_up = [t for t, loc in position.placed() if isinstance(t, Troop) and t not in cards]
        would = outs(position, self.flag, self.side, troops=(*position.unseen_troops(), *face_up))
        reachable = next((k for k in would.kinds if k.kind_key == self.formation), None)
        struck = [t for t in (reachable.troops if reachable is not None else ()) if t in position.visible]
        if struck:
            where = _where_text([(t, position.visible[t]) for t in struck], lang)
            steps.append((message("oddsq.outs.explain.struck", lang, where=where), "R13"))
        in_hand = [
            t for t in (explained.kind.troops if explained.kind is not None else ()) if t in position.hand(Side.YOU)
        ]
        in_hand += [
            t
            for t in (explained.kind.troops if explained.kind is not None else ())
            if t in position.hand(Side.OPPONENT)
        ]
        if in_hand:
            steps.append((message("oddsq.outs.explain.hand", lang, cards=cards_text(in_hand, lang)), "R13"))
        steps.append((self._outs_line(explained, lang), "R9" if self.formation != "sum" else "R24"))
        lines = [f"{n}. {text} [{rule}]" for n, (text, rule) in enumerate(steps, 1)]
        return [*lines, self.summary(position, lang)]

    def cli_lines(self, position: Position, lang: str) -> list[str] | None:
        return [
            "",
            message(f"oddsq.outs.prompt.{self.side.value}", lang, flag=self.flag, kind=self._kind_text(lang)),
        ] + (self.explanation_lines(position, lang))

    def difficulty_features(self, position: Position, explained: OutsExplained) -> Features:
        """Face-up troops that would have completed it (to strike out, R13) and outs in your own hand weigh."""
        from ..difficulty import Features

        state = position.flag(self.flag)
        cards = state.formation_cards(self.side)
        blockers = 0
        if explained.side_outs.missing == 1:  # a troop face up elsewhere that would have made the kind
            for card in position.visible:
                if isinstance(card, Troop) and card not in cards:
                    made = evaluate((*cards, card), fog=state.fog, mud=state.mud).kind
                    blockers += ("sum" if made is None else made.key) == self.formation
        outs_in_hand = explained.kind is not None and any(t in position.hand_you for t in explained.kind.troops)
        return Features(
            kinds=1,
            blockers=blockers,
            needed=explained.side_outs.missing,
            fog=state.fog,
            mud=state.mud,
            hand_trap=outs_in_hand,
        )


def _read_card(value: object, problems: list[Problem]) -> Card | None:
    """The question's ``card``: one troop or morale card written as text (R20-R22 cards fill a slot too)."""
    if not isinstance(value, str):
        problems.append(Problem("odds_bad_card", ("card",), (("value", value),)))
        return None
    try:
        card = parse_card(value)
    except CardNotationError as err:
        details = (("token", err.token), ("reason", err.reason), ("suggestion", err.suggestion))
        problems.append(Problem("bad_card", ("card",), (("message", str(err)), *details)))
        return None
    if not card.is_formation_card:
        problems.append(Problem("not_formation_card", ("card",), (("card", card),)))
        return None
    return card
