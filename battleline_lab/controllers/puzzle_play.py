"""A play puzzle on the board: the hand to play from, the flags each card may go to, the card held.

A ``play`` question (:mod:`battleline_lab.quiz.questions.play`) is answered as a card is played
in the game: a hand card (``data-zone="hand"``), then a flag (``data-flag``), by taps, drag or
keys.  The browser holds the tapped card itself and sends ``{"play": [card, flag]}``; a front end
without it may hold a card in the session (``select``), play it with ``flag`` and drop it with
``cancel``.  This module builds what the board needs for that on a
:class:`~battleline_lab.controllers.view.PuzzleView` (the game's own ``hand``, ``flags``,
``chosen`` and ``legal`` fields) and turns those intents into one answer.

A Deserter in the hand is played as in the game: ``select`` it (the hand card is a ``kernel``
card: the session holds it), then ``target`` a card of the opponent's side (the view lists them in
``targets``, the game's marking); the answer is ``{"card": "deserter", "target": card}``.

>>> from battleline_lab import Position
>>> from battleline_lab.quiz.puzzle import Puzzle
>>> from battleline_lab.quiz.questions import PlayQuestion
>>> from battleline_lab.controllers.puzzle import PuzzleController
>>> pos = Position.build({4: {"you": "r5 r6", "opponent": "b2 g3 y4"}}, hand={"you": "r7 b1"})
>>> c = PuzzleController(Puzzle("p", {"en": "Flag 4"}, position=pos, question=PlayQuestion("claim", 4)))
>>> sorted(play_targets(c)), play_targets(c)["r7"][:3]
(['b1', 'r7'], [1, 2, 3])
>>> c.intent("play", {"card": "b1", "flag": 4})
>>> c.state
'wrong'
>>> c.intent("select", "r7"); [card.get("chosen") for card in c.view()["hand"]]
[True, None]
>>> c.intent("flag", 4); c.state
'right'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..core.cards import parse_card
from ..core.position import Side
from ..text.messages import message
from .view import CardView, PuzzleView, card_view

if TYPE_CHECKING:
    from .puzzle import PuzzleController

__all__ = ["PLAY_INTENTS", "add_play_view", "held_targets", "play_intent", "play_targets", "tactic_targets"]

#: The intents a play puzzle takes besides the puzzle's own (hint, step).
PLAY_INTENTS = ("play", "select", "flag", "target", "cancel")


def _plays_by_card(controller: PuzzleController) -> dict[str, list[Mapping[str, Any]]]:
    """The plays on offer now, by hand card in the order they are offered (none once solved or not a play puzzle)."""
    question = controller.puzzle.question
    if question is None or controller.answer_style != "play" or controller.state == "right":
        return {}
    out: dict[str, list[Mapping[str, Any]]] = {}
    for choice in controller.choices:
        value = choice.value
        if isinstance(value, Mapping):
            out.setdefault(str(value["card"]), []).append(value)
    return out


def play_targets(controller: PuzzleController) -> dict[str, list[int]]:
    """Each hand card that may be played now, with the flags it may go to (empty once solved or not a play puzzle);
    a Deserter is a card with targets and no flags."""
    return {
        card: [int(play["flag"]) for play in plays if "flag" in play]
        for card, plays in _plays_by_card(controller).items()
    }


def tactic_targets(controller: PuzzleController) -> dict[str, list[str]]:
    """Each tactics card of the hand played on a target (the Deserter), with the cards it may take (R29)."""
    out: dict[str, list[str]] = {}
    for card, plays in _plays_by_card(controller).items():
        targets = [str(play["target"]) for play in plays if "target" in play]
        if targets:
            out[card] = targets
    return out


def held_targets(controller: PuzzleController) -> list[str]:
    """The cards the held tactics card may take now (none when no such card is held)."""
    return tactic_targets(controller).get(controller.held_card or "", [])


def play_intent(controller: PuzzleController, name: str, value: object) -> None:
    """``play`` {card, flag} answers; ``select`` holds a card (a second one drops it); ``flag`` plays the held
    card there; ``cancel`` drops it.  A card or flag not on offer does nothing (the schema refused it already)."""
    targets = play_targets(controller)
    if name == "target":
        if controller.held_card is not None and str(value) in held_targets(controller):
            card, controller.held_card = controller.held_card, None
            controller.answer({"card": card, "target": str(value)})
    elif name == "select":
        card = str(value)
        controller.held_card = None if controller.held_card == card or card not in targets else card
    elif name == "cancel":
        controller.held_card = None
    elif name == "flag":
        if controller.held_card is not None and isinstance(value, int):
            play_intent(controller, "play", {"card": controller.held_card, "flag": value})
    elif name == "play" and isinstance(value, Mapping):
        card, flag = str(value.get("card")), value.get("flag")
        if isinstance(flag, int) and flag in targets.get(card, ()):
            controller.held_card = None
            controller.answer({"card": card, "flag": flag})


def add_play_view(controller: PuzzleController, out: PuzzleView) -> None:
    """The hand to play from on ``out`` (each card with its flags, ``chosen`` when held), your hand taken out of
    the held rows, and the flags: ``legal`` for the held card, tappable where some card may go."""
    lang = controller.lang
    position = controller.puzzle.position
    targets = play_targets(controller)
    lit = frozenset(controller.shown()[0])
    last = controller.session.last_answer
    hand: list[CardView] = []
    tactics = tactic_targets(controller)
    for card in position.hand_you:
        view = card_view(card, lang, highlight=card in lit)
        flags = targets.get(card.notation)
        if flags:
            view["flags"] = list(flags)
        elif card.notation in tactics:
            view["kernel"] = True  # as in the game: the session holds it, then a target is tapped
        if controller.held_card == card.notation:
            view["chosen"] = True
        hand.append(view)
    out["hand"] = hand
    out["hand_label"] = message("board.hand.you", lang)
    out["chosen_text"] = message("boardui.chosen", lang, card="{card}", flags="{flags}")
    out["held"] = [h for h in out.get("held", []) if h["side"] != Side.YOU.value]
    aimed = held_targets(controller)
    if aimed:
        out["targets"] = aimed  # the game's target marking on the opponent's cards
    reachable = {n for flags in targets.values() for n in flags}
    held = set(targets.get(controller.held_card or "", ()))
    played = None
    if isinstance(last, Mapping) and isinstance(last.get("card"), str) and "flag" in last:
        played = (parse_card(str(last["card"])), last.get("flag"))
    for f in out.get("flags", []):
        n = f["n"]
        if n in reachable:
            f.pop("inert", None)
        else:
            f["inert"] = True
        if n in held:
            f["legal"] = True
        if played is not None and played[1] == n and controller.state == "wrong":
            f["mark"] = "✗"
