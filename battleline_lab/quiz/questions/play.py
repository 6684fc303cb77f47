"""The ``play`` kind: which card from your hand, played on which flag, reaches a goal?

A play puzzle is answered by acting on the board: the learner plays one hand card on one flag,
with the same taps, drag and keys as the game.  The goal is one of

- ``claim``: after the play, flag ``flag`` is provable for you now (R12; only face-up cards are
  evidence, R13);
- ``block``: after the play, the opponent can no longer make a ``formation`` at flag ``flag``
  with the unseen troops (R13: a troop face up can never come);
- ``win``: after the play, the flags you hold and the flags you can prove now make three adjacent
  flags or five (R16).

The engine computes the set of right plays (:meth:`PlayQuestion.solve`, a list of
``{card, flag}`` mappings); an author writes none (an ``answer:`` given in the file must be that
set).  The board offers every legal play: a troop or morale card of your hand (R20: one Leader a
player; R18: a tactics card only while you have played no more of them than the opponent) on an
unclaimed flag with a free slot on your side (R6).  A learner's answer is one of them.

A tactic play: with a Deserter in your hand (R29; R18 counts it) the board also offers every card
on the opponent's side of every unclaimed flag as its target, written ``{card: deserter, target:
b8}``.  The deserted card goes to the opponent's discards and the Deserter to yours, both face up
(R31): from then on they are evidence (R13).  The goals are the same.

>>> from battleline_lab.core.position import Position
>>> pos = Position.build({4: {"you": "r5 r6", "opponent": "b2 g3 y4"}}, hand={"you": "r7 b1"})
>>> q = PlayQuestion("claim", 4)
>>> q.solve(pos)
[{'card': 'r7', 'flag': 4}]
>>> q.is_correct(pos, {"card": "r7", "flag": 4}), q.is_correct(pos, {"card": "b1", "flag": 4})
(True, False)
>>> q.guess_chance(pos)
Fraction(1, 18)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from ...core.cards import Card, CardNotationError, Tactic, Troop, parse_card
from ...core.claims import analyse_claim
from ...core.decide import UndecidedTieError, can_claim, claimable_flags
from ...core.formations import FormationKind
from ...core.odds import outs
from ...core.position import FLAGS, Position, Problem, Side, is_flag_number
from ...text.messages import Msg, card_short, message, render_analysis
from ._claims import cards_text, flags_text, listing
from .base import Choice, Feedback, Question, QuestionError, View, register_question, wrong
from .odds import played

if TYPE_CHECKING:
    from ..difficulty import Features

__all__ = [
    "GOALS",
    "Play",
    "PlayExplained",
    "PlayQuestion",
    "after_play",
    "deserted",
    "desertion_targets",
    "is_desertion",
    "legal_plays",
    "wins",
]

#: The goals a play question may have, each with the rule a miss turns on.
GOALS: dict[str, str] = {"claim": "R12", "block": "R13", "win": "R16"}
#: Lesson 03 teaches claims: the gym serves play puzzles once it is taught.
LESSON = 3

#: A play: a hand card and the flag it goes to, or the Deserter and the card it discards (R29).
Play = tuple[Card, int | Card]


def _tactic_allowed(position: Position) -> bool:
    """May you play a tactics card now (R18: no more of them than the opponent)?"""
    return position.tactics_played(Side.YOU) <= position.tactics_played(Side.OPPONENT)


def _can_place(position: Position, card: Card) -> bool:
    """May ``card`` from your hand go to a flag now (R18 tactics count, R20 one Leader)?"""
    if not card.is_formation_card:
        return False  # environment and guile cards are not played into a slot
    if isinstance(card, Tactic):
        if not _tactic_allowed(position):
            return False
        if card.is_leader:
            return not any(
                isinstance(c, Tactic) and c.is_leader for n in FLAGS for c in position.flag(n).cards(Side.YOU)
            )
    return True


def legal_plays(position: Position) -> tuple[Play, ...]:
    """Every play the board offers: a hand card you may play on an unclaimed flag with a free slot on your side (R6),
    and a Deserter on any card of the opponent's side of an unclaimed flag (R29).

    >>> pos = Position.build({1: {"you": "r1 r2 r3"}}, hand={"you": "b5 fog"})
    >>> [(c.notation, n) for c, n in legal_plays(pos)][:3], len(legal_plays(pos))
    ([('b5', 2), ('b5', 3), ('b5', 4)], 8)
    >>> pos = Position.build({2: {"opponent": "g4 g5"}, 3: {"opponent": "y1"}}, hand={"you": "deserter"})
    >>> [(c.notation, t) for c, t in legal_plays(pos)]
    [('deserter', g4), ('deserter', g5), ('deserter', y1)]
    """
    out: list[Play] = []
    seen: set[Card] = set()
    for card in position.hand_you:
        if card in seen:
            continue
        seen.add(card)
        if card is Tactic.DESERTER and _tactic_allowed(position):
            out.extend((card, target) for target in desertion_targets(position))
        if not _can_place(position, card):
            continue
        for n in FLAGS:
            state = position.flag(n)
            if state.claimed_by is None and not state.is_complete(Side.YOU):
                out.append((card, n))
    return tuple(out)


def desertion_targets(position: Position) -> tuple[Card, ...]:
    """The cards a Deserter may discard: every card on the opponent's side of an unclaimed flag (R26, R29)."""
    return tuple(c for n in FLAGS if position.flag(n).claimed_by is None for c in position.flag(n).opponent)


def _ambiguous(position: Position, play: Play) -> bool:
    """Would ``play``, a Deserter on a Mud, leave a side with four formation cards, one to discard by choice (R26)?"""
    target = play[1]
    if target is not Tactic.MUD:
        return False
    state = next(position.flag(n) for n in FLAGS if target in position.flag(n).opponent)
    return any(len(state.formation_cards(side)) > 3 for side in Side)


def deserted(position: Position, deserter: Card, target: Card) -> Position:
    """``position`` after you play ``deserter`` on ``target``, a card of the opponent's side of an unclaimed flag:
    the target goes to the opponent's discards, the Deserter to yours, both face up (R29, R31).

    >>> before = Position.build({5: {"you": "r4 r5 r6", "opponent": "b8 b9"}}, hand={"you": "deserter"})
    >>> after = deserted(before, Tactic.DESERTER, parse_card("b9"))
    >>> after.flag(5).opponent, after.discards_opponent, after.discards_you, after.hand_you
    ((b8,), (b9,), (deserter,), ())
    """
    n = next(n for n in FLAGS if target in position.flag(n).opponent and position.flag(n).claimed_by is None)
    state = position.flag(n)
    new = replace(state, opponent=tuple(c for c in state.opponent if c != target))
    if not (new.is_complete(Side.YOU) and new.is_complete(Side.OPPONENT)):
        new = replace(new, first_complete=None)  # R11: known from the sides alone until both are complete
    flags = tuple(new if m == n else s for m, s in zip(FLAGS, position.flags))
    hand = list(position.hand_you)
    if deserter in hand:
        hand.remove(deserter)
    return replace(
        position,
        flags=flags,
        hand_you=tuple(hand),
        discards_you=(*position.discards_you, deserter),
        discards_opponent=(*position.discards_opponent, target),
    )


def after_play(position: Position, play: Play) -> Position:
    """``position`` after ``play``: a card on a flag or a Deserter on its target."""
    card, where = play
    if isinstance(where, int):
        return played(position, card, where)
    return deserted(position, card, where)


def is_desertion(play: Play) -> bool:
    """Is ``play`` a Deserter on a target (not a card onto a flag)?"""
    return not isinstance(play[1], int)


def _shown(play: Play) -> Card:
    """The card a play's texts name: the card played, or the card a Deserter takes."""
    where = play[1]
    return play[0] if isinstance(where, int) else where


def _play_flag(position: Position, play: Play) -> int:
    """The flag ``play`` acts on: the flag played to, or the target's flag."""
    where = play[1]
    if isinstance(where, int):
        return where
    return next(n for n in FLAGS if where in position.flag(n).opponent)


def _held(position: Position) -> set[int]:
    """The flags you hold or can prove now (R12, R15)."""
    try:
        provable = claimable_flags(position, Side.YOU)
    except UndecidedTieError:
        provable = ()
    return set(position.claimed(Side.YOU)) | set(provable)


def wins(flags: Iterable[int]) -> bool:
    """Three adjacent flags or any five (R16).

    >>> wins([2, 3, 4]), wins([1, 3, 5, 7, 9]), wins([1, 2, 4, 5])
    (True, True, False)
    """
    held = set(flags)
    return len(held) >= 5 or any({n, n + 1, n + 2} <= held for n in range(1, 8))


@dataclass(frozen=True)
class PlayExplained:
    """The engine's data for a play question: every legal play and the ones that reach the goal."""

    offered: tuple[Play, ...]
    right: tuple[Play, ...]


def _play_data(play: Play) -> dict[str, Any]:
    card, where = play
    if isinstance(where, int):
        return {"card": card.notation, "flag": where}
    return {"card": card.notation, "target": where.notation}


def _read_play(value: object) -> Play | None:
    """A play written as ``{card: r5, flag: 4}`` or ``{card: deserter, target: b8}``, or None when it is not one."""
    if not isinstance(value, Mapping) or set(value) not in ({"card", "flag"}, {"card", "target"}):
        return None
    card, flag, target = value.get("card"), value.get("flag"), value.get("target")
    if not isinstance(card, str):
        return None
    try:
        if "target" in value:
            return (parse_card(card), parse_card(target)) if isinstance(target, str) else None
        return (parse_card(card), flag) if is_flag_number(flag) else None
    except CardNotationError:
        return None


@register_question
@dataclass(frozen=True)
class PlayQuestion(Question[list[dict[str, Any]], PlayExplained]):
    """Play the hand card that reaches ``goal`` (claim / block / win) at ``flag``.  Answer: one play."""

    kind: ClassVar[str] = "play"
    fields: ClassVar[tuple[str, ...]] = ("goal", "flag", "formation")
    required: ClassVar[tuple[str, ...]] = ("goal",)
    needs_game_in_progress: ClassVar[bool] = True
    answer_hint: ClassVar[str] = "question.answer.play"
    lesson: ClassVar[int] = LESSON
    answer_computed: ClassVar[bool] = True
    answer_style: ClassVar[Literal["buttons", "flags", "play"]] = "play"  # a hand card onto a flag, as in the game

    goal: str
    flag: int | None = None
    formation: str | None = None

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> PlayQuestion:
        problems: list[Problem] = []
        goal = data.get("goal")
        if goal not in GOALS:
            problems.append(Problem("play_bad_goal", ("goal",), (("value", goal), ("goals", tuple(GOALS)))))
        flag = data.get("flag")
        if goal in ("claim", "block") and "flag" not in data:
            problems.append(Problem("play_needs_flag", (), (("goal", goal),)))
        elif "flag" in data and not is_flag_number(flag):
            problems.append(Problem("bad_flag", ("flag",), (("flag", flag),)))
        formation = data.get("formation")
        kinds = tuple(k.key for k in FormationKind)
        if goal == "block" and "formation" not in data:
            problems.append(Problem("play_needs_formation", (), ()))
        elif "formation" in data and goal != "block":
            problems.append(Problem("play_formation_not_block", ("formation",), ()))
        elif "formation" in data and formation not in kinds:
            problems.append(Problem("odds_bad_formation", ("formation",), (("value", formation), ("kinds", kinds))))
        if goal == "win" and "flag" in data:
            problems.append(Problem("play_flag_for_win", ("flag",), ()))
        if problems:
            raise QuestionError(problems)
        return cls(str(goal), flag if is_flag_number(flag) else None, formation if goal == "block" else None)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "goal": self.goal}
        if self.flag is not None:
            data["flag"] = self.flag
        if self.formation is not None:
            data["formation"] = self.formation
        return data

    @property
    def rule(self) -> str:
        return GOALS[self.goal]

    @property
    def _kind(self) -> FormationKind:
        return next(k for k in FormationKind if k.key == self.formation)

    def problems(self, position: Position) -> list[Problem]:
        if position.turn is not Side.YOU:
            return [Problem("play_turn", ("goal",), ())]
        offered = legal_plays(position)
        if not offered:
            return [Problem("play_nothing_to_play", ("goal",), ())]
        if self.flag is not None:
            state = position.flag(self.flag)
            if state.claimed_by is not None:
                return [Problem("odds_flag_claimed", ("flag",), (("flag", self.flag),))]
        if self.goal == "block":
            assert self.flag is not None
            if position.flag(self.flag).is_complete(Side.OPPONENT):
                return [Problem("odds_side_complete.opponent", ("flag",), (("flag", self.flag),))]
        if self._reached(position):
            return [Problem(f"play_already.{self.goal}", ("goal",), (("flag", self.flag), ("kind", self.formation)))]
        if any(is_desertion(p) and _ambiguous(position, p) for p in offered):
            return [Problem("play_deserter_mud", ("goal",), ())]  # the discard after it is a choice (R26)
        explained = self.explain(position)
        if not explained.right:
            return [Problem("play_no_answer", ("goal",), ())]
        if len(explained.right) == len(explained.offered):
            return [Problem("play_every_play", ("goal",), ())]
        return []

    # -- the engine ----------------------------------------------------------------------
    def _reached(self, position: Position) -> bool:
        """Is the goal reached in ``position`` (before or after a play)?"""
        if self.goal == "claim":
            assert self.flag is not None
            state = position.flag(self.flag)
            if state.claimed_by is not None or not state.is_complete(Side.YOU):
                return False
            try:
                return can_claim(position, self.flag, Side.YOU)
            except UndecidedTieError:
                return False
        if self.goal == "block":
            assert self.flag is not None
            kinds = outs(position, self.flag, Side.OPPONENT).kinds
            return not any(k.kind is self._kind for k in kinds)
        return wins(_held(position))

    def reached_after(self, position: Position, play: Play) -> bool:
        """Is the goal reached after ``play``?  A Deserter whose Mud discard would be a choice (R26) never is."""
        return not (is_desertion(play) and _ambiguous(position, play)) and self._reached(after_play(position, play))

    def a_desertion_reaches(self, position: Position) -> bool:
        """Does a Deserter play reach the goal?  Asked before :meth:`explain` by a search for puzzles about
        the Deserter: a few targets are judged, not every play."""
        return any(self.reached_after(position, p) for p in legal_plays(position) if is_desertion(p))

    def explain(self, position: Position) -> PlayExplained:
        return _explain(self, position)  # asked for every view and every judged play: computed once

    def solve(self, position: Position) -> list[dict[str, Any]]:
        return [_play_data(p) for p in self.explain(position).right]

    def check_answer_type(self, value: object) -> bool:
        if isinstance(value, list):
            return all(_read_play(v) is not None for v in value)
        return _read_play(value) is not None

    def normalize(self, value: object) -> object:
        values = value if isinstance(value, list) else [value]
        return frozenset(p for p in (_read_play(v) for v in values) if p is not None)

    def is_correct(self, position: Position, answer: object) -> bool:
        """One play: is it among the right ones?  A list (an author's answer): is it the whole set?"""
        if not self.check_answer_type(answer):
            return False
        if isinstance(answer, list):
            return super().is_correct(position, answer)
        return _read_play(answer) in self.explain(position).right

    def guess_chance(self, position: Position) -> Fraction:
        """Right plays over the plays the board offers (every hand card on every flag it may go to)."""
        explained = self.explain(position)
        if not explained.offered:
            return Fraction(0)
        return Fraction(len(explained.right), len(explained.offered))

    # -- a view ----------------------------------------------------------------------------
    def prompt(self, position: Position, *, sheet: bool = False) -> Msg:
        kind = self._kind if self.formation else None
        return Msg.of(f"playq.prompt.{self.goal}", flag=self.flag, kind=kind)

    def choices(self, position: Position) -> tuple[Choice, ...]:
        """The plays offered, each a choice (the board shows them as hand cards and flags, not buttons)."""
        return tuple(
            Choice(
                _play_data(p),
                Msg.of("tacticq.choice", card=p[0], target=p[1])
                if is_desertion(p)
                else Msg.of("playq.choice", card=p[0], flag=p[1]),
                "bl-answer-play",
            )
            for p in legal_plays(position)
        )

    def focus(self, position: Position) -> tuple[int, ...]:
        return (self.flag,) if self.flag is not None else ()

    # -- judging ---------------------------------------------------------------------------
    def judge(self, position: Position, answer: object) -> Feedback:
        play = _read_play(answer)
        explained = self.explain(position)
        if play is not None and play in explained.right:
            return Feedback("right", key="widget.feedback.right")
        return self.miss(position, answer, explained)

    def miss(self, position: Position, answer: object, explained: PlayExplained) -> Feedback:
        """What to look at after the wrong play: the flag and the rule, never the card to play."""
        play = _read_play(answer)
        if play is None or play not in explained.offered:
            return wrong("play_not_legal", "R6", [Msg("playq.miss.not_legal")])
        card, flag = _shown(play), _play_flag(position, play)
        # a Deserter's miss names the card it discarded (its target), a card's miss the card played
        prefix = "tacticq" if is_desertion(play) else "playq"
        after = after_play(position, play)
        if self.goal == "win":
            held = sorted(_held(after))
            flags = Msg.of("playq.flags", flags=", ".join(map(str, held))) if held else Msg("playq.no_flags")
            return wrong("play_no_win", self.rule, [Msg.of(f"{prefix}.miss.win", card=card, flag=flag, held=flags)])
        if self.goal == "block":
            return wrong(
                "play_not_blocked",
                self.rule,
                [Msg.of(f"{prefix}.miss.block", card=card, flag=flag, target=self.flag, kind=self._kind)],
            )
        state = after.flag(self.flag or 0)
        key = f"{prefix}.miss.claim" if state.is_complete(Side.YOU) else f"{prefix}.miss.claim_incomplete"
        return wrong("play_no_claim", self.rule, [Msg.of(key, card=card, flag=flag, target=self.flag)])

    # -- texts -----------------------------------------------------------------------------
    def _plays_text(self, plays: Iterable[Play], lang: str) -> str:
        by_card: dict[Card, list[int]] = {}
        targets: dict[Card, list[Card]] = {}
        for card, where in plays:
            if isinstance(where, int):
                by_card.setdefault(card, []).append(where)
            else:
                targets.setdefault(card, []).append(where)
        parts = [
            message("playq.play", lang, card=card_short(c, lang), flags=flags_text(sorted(f), lang))
            for c, f in by_card.items()
        ]
        parts += [
            message("tacticq.play", lang, card=card_short(c, lang), targets=cards_text(t, lang))
            for c, t in targets.items()
        ]
        return listing(parts, lang, "list.or")

    def summary(self, position: Position, lang: str) -> str:
        right = self.explain(position).right
        return message("playq.summary", lang, plays=self._plays_text(right, lang))

    def _after_lines(self, position: Position, play: Play, lang: str) -> list[str]:
        """Why ``play`` reaches the goal: the claim proof after it, the outs gone, the flags that win."""
        after = after_play(position, play)
        if self.goal == "claim":
            assert self.flag is not None
            return render_analysis(analyse_claim(after, self.flag, Side.YOU), lang)
        if self.goal == "block":
            assert self.flag is not None
            reach = next((k for k in outs(position, self.flag, Side.OPPONENT).kinds if k.kind is self._kind), None)
            needed = cards_text(reach.troops, lang) if reach is not None else "-"
            return [
                message("playq.block.before", lang, flag=self.flag, cards=needed, kind=_kind_word(self._kind, lang)),
                message(
                    "tacticq.block.after" if is_desertion(play) else "playq.block.after",
                    lang,
                    card=card_short(_shown(play), lang),
                    flag=self.flag,
                    kind=_kind_word(self._kind, lang),
                ),
            ]
        held = sorted(_held(after))
        before = _held(position)
        lines: list[str] = []
        for n in held:
            if n not in before and n not in after.claimed(Side.YOU):
                lines.extend(render_analysis(analyse_claim(after, n, Side.YOU), lang))
        lines.append(message("playq.win.after", lang, flags=listing(held, lang)))
        return lines

    def solution_steps(self, position: Position, explained: PlayExplained, lang: str) -> list[View]:
        if not explained.right:
            return []
        first = explained.right[0]
        head = View(self.summary(position, lang), (first[0],))
        return [head, *(View(line, (first[0],)) for line in self._after_lines(position, first, lang))]

    def hint_rungs(self, position: Position, explained: PlayExplained, lang: str) -> list[View]:
        kind = _kind_word(self._kind, lang) if self.formation else ""
        first = View(message(f"playq.hint.{self.goal}", lang, flag=self.flag, kind=kind))
        cards = tuple(dict.fromkeys(card for card, _ in explained.right))
        key = "tacticq.hint.cards" if all(is_desertion(p) for p in explained.right) else "playq.hint.cards"
        return [first, View(message(key, lang, cards=cards_text(cards, lang)), cards)]

    def answer_text(self, value: object, lang: str) -> str:
        if isinstance(value, list):
            plays = [p for p in (_read_play(v) for v in value) if p is not None]
            return self._plays_text(plays, lang)
        play = _read_play(value)
        if play is not None:
            return self._plays_text([play], lang)
        return super().answer_text(value, lang)

    def key_lines(self, position: Position, lang: str) -> list[str]:
        explained = self.explain(position)
        if not explained.right:
            return []
        return [self.summary(position, lang), *self._after_lines(position, explained.right[0], lang)]

    def cli_lines(self, position: Position, lang: str) -> list[str] | None:
        return ["", message(f"playq.prompt.{self.goal}", lang, flag=self.flag, kind=self._kind_or_none(lang))] + (
            self.key_lines(position, lang)
        )

    def _kind_or_none(self, lang: str) -> str:
        return _kind_word(self._kind, lang) if self.formation else ""

    def proof_targets(self, position: Position) -> tuple[tuple[int, ...] | None, Side | None]:
        return ((self.flag,) if self.flag is not None else None), Side.YOU

    def difficulty_features(self, position: Position, explained: PlayExplained) -> Features:
        """What a learner weighs: the proof after the right play (claim, win) or the troops struck out (block),
        and every card of the hand that looks as good but is not (each a case to rule out)."""
        from ..difficulty import Features, claim_features

        right_cards = {card for card, _ in explained.right}
        if self.goal == "block":
            assert self.flag is not None
            state = position.flag(self.flag)
            theirs = state.formation_cards(Side.OPPONENT)
            pool = (*position.unseen_troops(), *(t for t in position.visible if isinstance(t, Troop)))
            would = next(
                (k for k in outs(position, self.flag, Side.OPPONENT, troops=pool).kinds if k.kind is self._kind), None
            )
            struck = [
                t for t in (would.troops if would is not None else ()) if t in position.visible and t not in theirs
            ]
            in_discards = any(position.visible[t].area == "discard" for t in struck)
            return Features(
                kinds=3,  # the kind to block, the kinds it does not matter for, which card of the hand
                shapes=len(struck),
                blockers=len(struck),
                needed=state.size - len(theirs),
                fog=state.fog,
                mud=state.mud,
                discards=in_discards,
            )
        first = explained.right[0]
        flag = _play_flag(position, first)
        after = after_play(position, first)
        targets = [self.flag] if self.flag is not None else [n for n in sorted(_held(after) - _held(position))]
        features = Features()
        for n in targets[:1]:
            features = claim_features(after, analyse_claim(after, n, Side.YOU))
        # a card of the colour or a value already there that loses the proof is a case to rule out
        there = [t for t in position.flag(flag).formation_cards(Side.YOU) if isinstance(t, Troop)]
        # a Deserter: every other card on their side of that flag is one to rule out
        tempting: set[Card | int] = {
            t
            for c, t in explained.offered
            if is_desertion((c, t)) and (c, t) not in explained.right and _play_flag(position, (c, t)) == flag
        }
        tempting |= {
            c
            for c, n in explained.offered
            if n == flag
            and c not in right_cards
            and isinstance(c, Troop)
            and any(c.colour == t.colour or abs(c.value - t.value) <= 1 for t in there)
        }
        return replace(
            features,
            kinds=features.kinds + 1,  # which card of the hand, besides the proof
            shapes=features.shapes + len(tempting),
            flags=features.flags + (self.goal == "win"),
        )


@lru_cache(maxsize=64)
def _explain(question: PlayQuestion, position: Position) -> PlayExplained:
    """Every legal play and the ones after which ``question``'s goal is reached."""
    offered = legal_plays(position)
    right = tuple(p for p in offered if question.reached_after(position, p))
    return PlayExplained(offered, right)


def _kind_word(kind: FormationKind, lang: str) -> str:
    from ...text.messages import kind_name

    return kind_name(kind, lang)
