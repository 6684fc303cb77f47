"""The schema of the board's intents: what each widget accepts from the browser, checked before it acts.

The board component (:class:`~battleline_lab.widgets.board.Board`) receives *intents*, one-key
dictionaries such as ``{"play": ["r7", 3]}``, from the browser's comm channel, where anything can
arrive: a stale tap, a forged message, a list where a card is expected, ``"３"`` where a flag is.
Every widget names the intents it takes here, one :class:`IntentSchema` each (:func:`puzzle_intents`,
:func:`game_intents`, :func:`explorer_intents`, :func:`editor_intents`, :func:`step_intents`), and
:func:`dispatch` is the one gate every intent goes through: it reads the intent against the schema
(one key, a kind the widget knows, every field of the right type and range: a card a string the
widget offers, a flag an ``int`` 1-9 or, in an answer, one ASCII digit), and only then hands the
checked value to the widget.  A refused intent reaches no session: the widget is redrawn (the
browser drops what it showed optimistically) and an :class:`IntentWarning` names the intent and
why.  Nothing raises out of the gate: an unexpected error while the widget acts becomes a warning
and a redraw too, so a comm callback never carries a traceback into the notebook.

>>> import warnings
>>> schema = IntentSchema("demo", {"flag": flag_number, "cancel": literal(True)})
>>> schema.read({"flag": 4})
('flag', 4)
>>> for bad in ({"flag": "３"}, {"flag": True}, {"flag": 4, "cancel": True}, {"format": "c:"}):
...     try:
...         schema.read(bad)
...     except IntentRefused as refusal:
...         print(refusal)
demo refused {'flag': '３'}: a flag is a whole number from 1 to 9, not '３'
demo refused {'flag': True}: a flag is a whole number from 1 to 9, not True
demo refused {'flag': 4, 'cancel': True}: an intent has exactly one key, not 2
demo refused {'format': 'c:'}: no intent 'format' here (known: cancel, flag)
>>> seen = []
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     dispatch(schema, {"flag": [3]}, lambda kind, value: seen.append(value), lambda: seen.append("redrawn"))
False
>>> seen, caught[0].category.__name__
(['redrawn'], 'IntentWarning')
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.position import FLAGS

__all__ = [
    "IntentRefused",
    "IntentSchema",
    "IntentWarning",
    "anything",
    "card_among",
    "dispatch",
    "editor_intents",
    "explorer_intents",
    "flag_number",
    "flag_text",
    "game_intents",
    "literal",
    "one_of",
    "pair",
    "puzzle_intents",
    "step_intents",
]

#: the longest text an intent field may hold (a card id, a place, an answer key): a bound, so a
#: forged megabyte string is refused before any lookup and a warning never repeats it whole
MAX_TEXT = 64


class IntentWarning(UserWarning):
    """An intent from the board was refused (or failed) and changed nothing: the warning names it and why."""


class IntentRefused(ValueError):
    """An intent that does not fit its widget's schema (see :meth:`IntentSchema.read`)."""

    def __init__(self, widget: str, intent: object, reason: str) -> None:
        self.widget = widget
        self.intent = intent
        self.reason = reason
        super().__init__(f"{widget} refused {_shown(intent)}: {reason}")


class _Bad(ValueError):
    """A field's value does not fit (the reason; :meth:`IntentSchema.read` adds the widget and intent)."""


def _shown(value: object, limit: int = 120) -> str:
    """A value as a warning shows it: its repr, cut short (a 4,301-digit string is not printed whole)."""
    try:
        text = repr(value)
    except Exception:  # a repr that fails (a very deep list): its type is enough to name it
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: a field's check: the value as sent in, the value the widget gets out (or :class:`_Bad`)
Field = Callable[[object], Any]


def anything(value: object) -> object:
    """A field any value fits (a generic board whose owner checks the value itself)."""
    return value


def literal(*allowed: object) -> Field:
    """A field that is one of ``allowed``, of the same type too (``True`` is not ``1``, ``1.0`` is not ``1``)."""

    def check(value: object) -> object:
        for option in allowed:
            if type(value) is type(option) and value == option:
                return value
        raise _Bad(f"expected {' or '.join(_shown(a) for a in allowed)}, not {_shown(value)}")

    return check


def _text(value: object, what: str) -> str:
    if type(value) is not str:
        raise _Bad(f"{what} is a string, not {_shown(value)}")
    if len(value) > MAX_TEXT:
        raise _Bad(f"{what} is at most {MAX_TEXT} characters, not {len(value)}")
    return value


def one_of(options: Callable[[], Collection[str]], what: str) -> Field:
    """A field that is a string among ``options()`` (asked at each intent: what the widget offers now)."""

    def check(value: object) -> str:
        text = _text(value, what)
        if text not in options():
            raise _Bad(f"{what} {_shown(text)} is not offered here")
        return text

    return check


def card_among(cards: Callable[[], Collection[str]], where: str) -> Field:
    """A card id (a string such as ``"r7"``) among ``cards()``: ``where`` says which (``"in the hand"``)."""

    def check(value: object) -> str:
        text = _text(value, "a card")
        if text not in cards():
            raise _Bad(f"the card {_shown(text)} is not {where}")
        return text

    return check


def flag_number(value: object) -> int:
    """A flag as the board sends it in ``play``, ``flag`` and ``claim``: an ``int`` from 1 to 9 (never a bool,
    a float or a string)."""
    if type(value) is int and value in FLAGS:
        return value
    raise _Bad(f"a flag is a whole number from {FLAGS[0]} to {FLAGS[-1]}, not {_shown(value)}")


_FLAG_DIGIT = re.compile(r"[1-9]")


def flag_text(value: object) -> int:
    """A flag as an answer sends it: one ASCII digit 1-9 (``"３"``, ``"٣"``, ``" 3"``, ``"²"``, ``"①"`` are not)."""
    if type(value) is str and _FLAG_DIGIT.fullmatch(value):
        return int(value)
    raise _Bad(f"a flag answer is one ASCII digit from {FLAGS[0]} to {FLAGS[-1]}, not {_shown(value)}")


def pair(first: Field, second: Field) -> Field:
    """A field that is a list of two values, each checked by its own field (``[card, flag]``, ``[card, place]``)."""

    def check(value: object) -> tuple[Any, Any]:
        if type(value) is not list or len(value) != 2:
            raise _Bad(f"expected a list of two values, not {_shown(value)}")
        return first(value[0]), second(value[1])

    return check


@dataclass(frozen=True)
class IntentSchema:
    """The intents one widget takes: each kind (the intent's one key) and the check of its value."""

    widget: str
    kinds: Mapping[str, Field]

    def read(self, intent: object) -> tuple[str, Any]:
        """The intent's kind and its checked value; :class:`IntentRefused` if it does not fit."""
        if not isinstance(intent, Mapping):
            raise IntentRefused(self.widget, intent, f"an intent is a one-key object, not {type(intent).__name__}")
        if len(intent) != 1:
            raise IntentRefused(self.widget, intent, f"an intent has exactly one key, not {len(intent)}")
        ((kind, value),) = intent.items()
        field = self.kinds.get(kind) if type(kind) is str else None
        if field is None:
            known = ", ".join(sorted(self.kinds))
            raise IntentRefused(self.widget, intent, f"no intent {_shown(kind)} here (known: {known})")
        try:
            return kind, field(value)
        except _Bad as bad:
            raise IntentRefused(self.widget, intent, str(bad)) from None


def dispatch(
    schema: IntentSchema,
    intent: object,
    handle: Callable[[str, Any], object] | None,
    redraw: Callable[[], object],
) -> bool:
    """The gate: read ``intent`` against ``schema``, then ``handle(kind, value)``; True if it was handled.

    A refused intent is never handled; an exception while handling is caught.  Either way an
    :class:`IntentWarning` names the intent and ``redraw()`` draws the widget again; nothing raises
    out of here (not even from ``redraw``), so a comm callback never fails.
    """
    try:
        kind, value = schema.read(intent)
    except IntentRefused as refusal:
        _refuse(str(refusal), redraw)
        return False
    except Exception as err:  # a mapping whose items() or a key's hash fails: refused the same way
        _refuse(f"{schema.widget} refused {_shown(intent)}: {type(err).__name__}: {err}", redraw)
        return False
    if handle is None:
        return False
    try:
        handle(kind, value)
    except Exception as err:  # the widget failed on a checked intent: say so, draw it again, never raise
        _refuse(f"{schema.widget} failed on {_shown(intent)}: {type(err).__name__}: {_shown(str(err))}", redraw)
        return False
    return True


def _refuse(text: str, redraw: Callable[[], object]) -> None:
    warnings.warn(IntentWarning(text), stacklevel=3)
    try:
        redraw()
    except Exception as err:  # a redraw that fails is said too; the callback still returns
        warnings.warn(IntentWarning(f"the redraw after a refused intent failed: {type(err).__name__}"), stacklevel=3)


# -- the widgets' schemas ------------------------------------------------------------------------

_STEP = literal(1, -1)
_TRUE = literal(True)


def step_intents() -> IntentSchema:
    """The j/k keys of a proof (:class:`~battleline_lab.widgets.board.StepKeys`): ``step`` +1 or -1."""
    return IntentSchema("proof keys", {"step": _STEP})


def puzzle_intents(
    answers: Callable[[], Collection[str]],
    flags: Callable[[], bool],
    evidence: Callable[[], Collection[str]] = frozenset,
    plays: Callable[[], Mapping[str, Collection[int]]] = dict,
    targets: Callable[[], Collection[str]] = frozenset,
) -> IntentSchema:
    """A puzzle widget (the lessons', the gym's, a review moment's).

    ``answer``: one of ``answers()`` (the question's choices as the board writes them: ``yes``,
    ``a``, ``wedge``...), or, when ``flags()`` (a "which flags" question), one ASCII digit of a flag
    among them; ``do``: ``check`` (a "which flags" question only) or ``solution`` (the "Show the
    solution" button); ``hint``: true; ``step``: +1 or -1; ``evidence``: a card among ``evidence()``
    (a claim's evidence stage: the cards on offer).
    A play question (``plays()``: each hand card that may be played, with its flags): ``play``
    [card, flag] as the game sends it (or ``{"card", "flag"}``), handed on as ``{"card", "flag"}``;
    ``select`` a card, ``flag`` a flag number, ``cancel``; ``target`` a card among ``targets()`` (the
    opponent's cards the held Deserter may take).
    """
    in_hand = card_among(lambda: plays().keys(), "in the hand to play")

    def play(value: object) -> dict[str, object]:
        if isinstance(value, Mapping) and set(value) == {"card", "flag"}:
            value = [value["card"], value["flag"]]
        card, n = pair(in_hand, flag_number)(value)
        if n not in plays()[card]:
            raise _Bad(f"the card {_shown(card)} may not go to flag {n}")
        return {"card": card, "flag": n}

    def answer(value: object) -> str:
        if flags():
            n = flag_text(value)
            if str(n) not in answers():
                raise _Bad(f"flag {n} is not an answer to tap here")
            return str(n)
        return str(one_of(answers, "an answer")(value))

    def check(value: object) -> str:
        if value == "solution":
            return "solution"
        if not flags():
            raise _Bad("this question has no Check (its answers are buttons)")
        return str(literal("check")(value))

    def on_play(field: Field) -> Field:
        def check_play(value: object) -> object:
            if not plays():
                raise _Bad("this question is not answered by playing a card (or it is solved)")
            return field(value)

        return check_play

    kinds = {
        "answer": answer,
        "do": check,
        "hint": _TRUE,
        "step": _STEP,
        "evidence": card_among(evidence, "on offer as evidence"),
    }
    plays_kinds = {
        "play": play,
        "select": in_hand,
        "flag": flag_number,
        "target": card_among(targets, "a target on offer"),
        "cancel": _TRUE,
    }
    return IntentSchema("puzzle", {**kinds, **{k: on_play(f) for k, f in plays_kinds.items()}})


#: the decks a ``draw`` names (the game's :class:`~battleline_lab.game.Deck` values)
DECKS = ("troops", "tactics")
#: the buttons a game's ``do`` names (cancel is its own intent)
GAME_ACTIONS = ("pass", "end", "discard", "scout", "new-game", "keep-game")


def game_intents(hand: Callable[[], Collection[str]], targets: Callable[[], Collection[str]]) -> IntentSchema:
    """The game widget: ``play`` [a card in ``hand()``, a flag], ``select`` a card in the hand, ``target``
    a card among ``targets()``, ``flag`` and ``claim`` a flag, ``draw`` a deck, ``do`` a button, ``cancel``."""
    in_hand = card_among(hand, "in the hand")
    return IntentSchema(
        "game",
        {
            "play": pair(in_hand, flag_number),
            "select": in_hand,
            "target": card_among(targets, "a target on offer"),
            "flag": flag_number,
            "claim": flag_number,
            "draw": one_of(lambda: DECKS, "a deck"),
            "do": one_of(lambda: GAME_ACTIONS, "an action"),
            "cancel": _TRUE,
        },
    )


def explorer_intents(palette: Callable[[], Collection[str]], placed: Callable[[], Collection[str]]) -> IntentSchema:
    """The formation explorer: ``place`` [a card of ``palette()``, a side of its one flag], ``take`` a card
    among ``placed()``."""
    places = ("1:you", "1:opponent")
    return IntentSchema(
        "explorer",
        {
            "place": pair(card_among(palette, "in the palette"), one_of(lambda: places, "a place")),
            "take": card_among(placed, "on the board"),
        },
    )


def editor_intents(
    cards: Callable[[], Collection[str]], places: Callable[[], Collection[str]], placed: Callable[[], Collection[str]]
) -> IntentSchema:
    """The puzzle editor: ``place`` [a card of ``cards()``, a place among ``places()``], ``take`` a card among
    ``placed()``, ``flag`` (the flag the marks are for)."""
    return IntentSchema(
        "editor",
        {
            "place": pair(card_among(cards, "a card of the game"), one_of(places, "a place")),
            "take": card_among(placed, "on the board"),
            "flag": flag_number,
        },
    )
