"""The question protocol: what every kind of question says and does, and the registry of kinds.

A kind is a frozen dataclass, generic in its answer type ``A`` and its
explanation type ``E`` (``Question[bool, ClaimAnalysis]``), registered under its
``kind`` name with :func:`register_question`.  Everything a view, the trainer,
the hints, the preview, the worksheet and the CLI need comes from the kind, so
none of them switches on its type:

- reading and writing (:meth:`Question.from_data`, :meth:`Question.to_data`),
  the engine's answer and the data behind it (:meth:`Question.solve` -> ``A``,
  :meth:`Question.explain` -> ``E``);
- what a view asks and offers (:meth:`Question.prompt`, :meth:`Question.choices`
  with their labels as message keys, :attr:`Question.answer_style`), the flags
  and cards it is about (:meth:`Question.focus`, :meth:`Question.loose_cards`,
  :meth:`Question.card_rows`), the tie note (:meth:`Question.tie_note`) and the
  lesson it needs (:attr:`Question.lesson`);
- how an answer is judged and why it is wrong: ONE :class:`Feedback`
  (:meth:`Question.judge`: verdict, the engine's reason and rule, ghost cards,
  a message key and its parameters, rendered by
  :func:`battleline_lab.text.messages.render_msg`);
- its solution steps, its hint-ladder rungs, its one-line summary, what the
  preview, the worksheet and ``battleline-lab explain`` print.

Texts are catalogue messages (:mod:`battleline_lab.text.messages`): the judging parts
return keys and parameters, the printing parts take ``lang``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from ...core.cards import Card, CardNotationError, Tactic, parse_card
from ...core.position import Position, Problem, Side
from ...text.messages import Joined, Msg, render_msg, rule_msg

if TYPE_CHECKING:  # difficulty sits above the questions: no import at run time
    from ..difficulty import Features
    from .evidence import Evidence

__all__ = [
    "Choice",
    "Feedback",
    "QUESTION_KINDS",
    "Question",
    "QuestionError",
    "View",
    "question_from_data",
    "register_question",
    "wrong",
]

A = TypeVar("A")
E = TypeVar("E")

Ghosts = tuple[tuple[tuple[int, Side], tuple[Card, ...]], ...]


@dataclass(frozen=True)
class Choice:
    """An answer a view offers: its value (as an author writes it), its label and a stable CSS class."""

    value: object
    label: Msg
    css: str
    disabled: bool = False


@dataclass(frozen=True)
class View:
    """What the board shows for one solution step or hint: text, highlighted cards, ghost cards."""

    text: str
    highlight: tuple[Card, ...] = ()
    ghosts: Ghosts = ()


@dataclass(frozen=True)
class Feedback:
    """The verdict on an answer, as data: ``verdict`` right/wrong, the engine's reason and rule,
    the cards to draw as ghosts (``(flag, side) -> cards``), and a message key with its parameters
    (:func:`battleline_lab.text.messages.render_msg` of ``Msg(key, params)`` is the whole why).

    A wrong answer's ``nudge`` is what a view says first: where to look and the rule's id, never
    the answer nor the rule spelled out (a second try must still be earned); the whole why and
    the ghosts come with the solution (on request, or after a second wrong answer)."""

    verdict: str
    reason: str | None = None
    rule: str | None = None
    ghosts: Ghosts = ()
    key: str = ""
    params: tuple[tuple[str, object], ...] = ()
    nudge: Msg | None = None

    @property
    def msg(self) -> Msg:
        """The feedback as a message (key and parameters)."""
        return Msg(self.key, self.params)

    @property
    def why(self) -> Msg:
        """Why the answer is wrong, rule spelled out, without the frame around it (shown with the solution)."""
        return Msg.of("feedback.step", step=dict(self.params).get("text", ""))

    def text(self, lang: str = "en") -> str:
        """The feedback in ``lang``, rendered by the catalogue."""
        return render_msg(self.msg, lang)


def wrong(
    reason: str | None, rule: str, parts: Sequence[Msg] = (), ghosts: Ghosts = (), look: Msg | None = None
) -> Feedback:
    """A wrong answer's :class:`Feedback`: what the kind says about it, then the rule it missed.

    ``look`` names what to look at again without giving the answer away (the flag, the cards, the
    formations); the nudge adds the rule's id.  Without it, a nudge that names only the rule."""
    text = Joined((*parts, rule_msg(rule)), "feedback.sep")
    nudge = Joined((look or Msg("feedback.look.any"), Msg.of("feedback.look.rule", rule=rule)), "feedback.sep")
    return Feedback(
        "wrong",
        reason,
        rule,
        ghosts,
        "widget.feedback.wrong",
        (("text", text),),
        Msg.of("widget.feedback.wrong", text=nudge),
    )


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class QuestionError(ValueError):
    """A question mapping that cannot be read; ``problems`` lists every reason.

    Each problem's ``path`` is relative to the question mapping (``("flag",)``,
    ``("a", 2)``); its text is the catalogue message ``question.error.<code>``.
    """

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(f"{p.code} at {'.'.join(map(str, p.path)) or 'question'}" for p in problems))
        self.problems = problems


QuestionError.__module__ = "battleline_lab.quiz.questions"  # its public home (tracebacks and doctests name it)


@dataclass(frozen=True)
class Question(Generic[A, E]):
    """Base class of the question kinds, generic in the answer ``A`` and the explanation ``E``.

    Subclasses set ``kind`` (the name used in files), ``fields`` (the keys the
    question mapping may hold besides ``kind``), ``required`` (the keys it
    must hold), ``needs_game_in_progress`` (the question only makes sense while
    nobody has won, R16), ``answer_hint`` (a catalogue key describing the
    expected answer, for error messages), ``lesson`` (the lesson that teaches
    what it asks: 1 formations, 2 comparing, 3 claims), ``answer_style``
    (``buttons``: one button per choice; ``flags``: toggles under the flags and
    a Check button) and ``board_optional`` (the board is only drawn when the
    position has cards).  They implement ``from_data``, ``to_data``, ``solve``,
    ``explain``, ``check_answer_type``, ``choices``, ``prompt``, ``miss``,
    ``summary``; the rest has defaults.
    """

    kind: ClassVar[str] = ""
    fields: ClassVar[tuple[str, ...]] = ()
    required: ClassVar[tuple[str, ...]] = ()
    needs_game_in_progress: ClassVar[bool] = False
    answer_hint: ClassVar[str] = ""
    lesson: ClassVar[int] = 3
    answer_style: ClassVar[Literal["buttons", "flags", "play"]] = "buttons"
    board_optional: ClassVar[bool] = False
    #: the engine computes the set of right answers and a file need not state it (``check`` verifies one if given)
    answer_computed: ClassVar[bool] = False

    # -- data ----------------------------------------------------------------------------
    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Question[A, E]:
        """Read the question from plain data (the mapping without ``kind``)."""
        raise NotImplementedError

    def to_data(self) -> dict[str, Any]:
        """The question as plain data, ``kind`` included (the inverse of :func:`question_from_data`)."""
        raise NotImplementedError

    def problems(self, position: Position) -> list[Problem]:
        """Problems of this question in this position (paths relative to the question)."""
        return []

    # -- the engine ----------------------------------------------------------------------
    def solve(self, position: Position) -> A:
        """The engine's answer, in the same plain form an author writes."""
        raise NotImplementedError

    def explain(self, position: Position) -> E:
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

    # -- what a view asks and offers -----------------------------------------------------
    def prompt(self, position: Position, *, sheet: bool = False) -> Msg:
        """The question as a message: for a widget, or (``sheet``) for a printed page or preview."""
        raise NotImplementedError

    def choices(self, position: Position) -> tuple[Choice, ...]:
        """The answers a view offers, with their labels (message keys) and CSS classes."""
        raise NotImplementedError

    def guess_chance(self, position: Position) -> Fraction:
        """The chance that a uniform random first answer, among the answers the board offers, is right.

        With ``buttons`` a guesser taps one of the enabled choices; with ``flags`` it sets each
        enabled toggle on or off and presses Check, so every subset of the enabled choices is one
        answer.  A kind that offers its answers another way overrides this.

        >>> from battleline_lab.core.position import Position
        >>> compare = {"kind": "compare", "a": ["r3", "r4", "r5"], "b": ["b8", "b9", "b10"]}
        >>> question_from_data(compare).guess_chance(Position())
        Fraction(1, 3)
        """
        offered = [c.value for c in self.choices(position) if not c.disabled]
        if not offered:
            return Fraction(0)
        right = self.normalize(self.solve(position))
        if self.answer_style == "flags":
            subsets = itertools.chain.from_iterable(itertools.combinations(offered, k) for k in range(len(offered) + 1))
            hits = sum(1 for subset in subsets if self.normalize(list(subset)) == right)
            return Fraction(hits, 2 ** len(offered))
        return Fraction(sum(1 for value in offered if self.normalize(value) == right), len(offered))

    def focus(self, position: Position) -> tuple[int, ...]:
        """The flags the question is about (the board marks them)."""
        return ()

    def loose_cards(self) -> tuple[Card, ...]:
        """The cards the question itself names, off the board (environment cards included)."""
        return ()

    def environment_cards(self) -> tuple[Tactic, ...]:
        """Fog and Mud when the question puts its cards under them."""
        return ()

    def card_rows(self, explained: E | None, lang: str) -> list[tuple[tuple[Card, ...], str]]:
        """The rows of loose cards a view draws, each with its caption (``explained`` once solved)."""
        return []

    def tie_note(self, position: Position) -> Msg | None:
        """Who completed first, when a tie can decide the answer (R11); None otherwise."""
        return None

    # -- judging -------------------------------------------------------------------------
    def judge(self, position: Position, answer: object) -> Feedback:
        """The verdict on ``answer`` and, when wrong, why: the one explanation every view shows."""
        if self.is_correct(position, answer):
            return Feedback("right", key="widget.feedback.right")
        return self.miss(position, answer, self.explain(position))

    def miss(self, position: Position, answer: object, explained: E) -> Feedback:
        """Why a wrong answer is wrong (:func:`wrong` builds it): the engine's reason, rule and ghosts."""
        raise NotImplementedError

    # -- texts ---------------------------------------------------------------------------
    def summary(self, position: Position, lang: str) -> str:
        """The engine's answer in one sentence: ``Yes: you can claim flag 5.``, ``A wins.``."""
        raise NotImplementedError

    def solution_steps(self, position: Position, explained: E, lang: str) -> list[View]:
        """The explanation, one view per step."""
        return [View(line) for line in self.key_lines(position, lang)]

    def hint_rungs(self, position: Position, explained: E, lang: str) -> list[View]:
        """The hints before the solution (the ladder ends with the solution itself)."""
        return []

    def answer_text(self, value: object, lang: str) -> str:
        """An answer as a learner reads it (preview and answer key)."""
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    def sheet_html(self, position: Position, lang: str) -> list[str]:
        """What a printed page shows under the prompt besides the board (loose cards, Fog, Mud), as HTML."""
        return []

    def key_lines(self, position: Position, lang: str) -> list[str]:
        """A short proof for an answer key (worksheet)."""
        return []

    def proof_html(self, position: Position, lang: str) -> list[str]:
        """The full explanation for the preview page, as HTML (every text escaped)."""
        from html import escape

        items = "".join(f"<li>{escape(line)}</li>" for line in self.key_lines(position, lang))
        return [f'<ul class="bl-lines">{items}</ul>'] if items else []

    def cli_lines(self, position: Position, lang: str) -> list[str] | None:
        """What ``battleline-lab explain`` prints; None: the claim proofs of :meth:`proof_targets`."""
        return self.key_lines(position, lang) or None

    def difficulty_features(self, position: Position, explained: E) -> Features | None:
        """What a learner must weigh, for :func:`battleline_lab.quiz.difficulty.estimate` (None: the kinds it knows)."""
        return None

    def proof_targets(self, position: Position) -> tuple[tuple[int, ...] | None, Side | None]:
        """The claim proofs ``explain`` shows without ``--flag``: (flags or every complete one, side or both)."""
        return None, None

    def evidence(self, position: Position) -> Evidence | None:
        """The stage after a right answer that asks for its proof (a card to tap); None: the answer alone solves it."""
        return None


QUESTION_KINDS: dict[str, type[Question[Any, Any]]] = {}

_Q = TypeVar("_Q", bound=type[Question[Any, Any]])


def register_question(cls: _Q) -> _Q:
    """Class decorator: add a question kind to :data:`QUESTION_KINDS` under ``cls.kind``."""
    if not cls.kind:
        raise ValueError(f"{cls.__name__} has no kind name")
    if cls.kind in QUESTION_KINDS and QUESTION_KINDS[cls.kind] is not cls:
        raise ValueError(f"question kind {cls.kind!r} is already registered")
    QUESTION_KINDS[cls.kind] = cls
    return cls


def question_from_data(data: Mapping[str, Any]) -> Question[Any, Any]:
    """A question from a plain mapping with a ``kind`` key.

    Raises :class:`QuestionError` listing every problem (unknown kind, missing
    or unknown fields, bad values).

    >>> question_from_data({"kind": "claimable"})
    ClaimableQuestion()
    >>> question_from_data({"kind": "claim"})
    Traceback (most recent call last):
    ...
    battleline_lab.quiz.questions.QuestionError: missing_field at question
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
    unread = any(p.code == "bad_card" and p.path[:1] == (field,) for p in problems)
    if len(cards) != size and not unread:  # a token that is not a card already has its error; no count on top
        problems.append(Problem("formation_size", (field,), (("count", len(cards)), ("size", size), ("mud", mud))))
    leaders = [c for c in cards if isinstance(c, Tactic) and c.is_leader]
    if len(leaders) > 1:
        problems.append(Problem("two_leaders", (field,), ()))
