"""The board component: one anywidget every interactive part draws on (game, puzzles, gym).

:class:`Board` is an `anywidget <https://anywidget.dev>`_ whose front end is one ES module and
one style sheet shipped in the package (``board.js``, ``board.css``: no npm build, nothing
fetched from any host; it works offline in JupyterLab and in JupyterLite).  Python sets
:attr:`Board.view`, a JSON-ready *view model* of what to draw (cards per flag and side, the hand,
what may be tapped, the legal flags of each hand card, claimable flags, highlights, ghosts and
every text already in the learner's language); the browser draws it and sends back *intents*,
one-key dictionaries such as ``{"play": ["r7", 3]}``, ``{"claim": 5}``, ``{"draw": "troops"}``,
``{"answer": "yes"}``, ``{"step": 1}``.  Selection, hover, focus and highlighting live in the
browser; rules never do: the session behind the widget decides every intent.

The view model is typed in :mod:`battleline_lab.controllers.view`, which also builds the parts
every view shares (:func:`card_view`, :func:`flag_views`, re-exported here); the controllers
there build whole views.

>>> seen = []
>>> b = Board(on_intent=lambda name, value: seen.append((name, value)))
>>> b.intent({"play": ["r7", 3]}), seen
(True, [('play', ['r7', 3])])
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

import anywidget
import traitlets

from ...controllers.view import ButtonView, CardView, FlagView, TapButton, TapView, card_view, flag_views
from ..intents import IntentSchema, IntentWarning, anything, dispatch, step_intents

__all__ = ["INTENTS", "Board", "StepKeys", "Taps", "card_view", "flag_views"]

#: The intents the front end sends (the key of a one-key dictionary) and what the value is.
INTENTS: Mapping[str, str] = {
    "play": "[card, flag]: a hand card played to a flag (tap card, tap flag, or drag)",
    "select": "card: a hand card whose next choices the session makes (guile cards, Scout, returns)",
    "target": "card: a card on the table a tactic acts on",
    "flag": "flag: the destination of the choice the session holds",
    "claim": "flag: claim it (a refusal comes back with the engine's proof)",
    "draw": "deck: troops or tactics",
    "do": "action: pass, end, discard, scout, check, ... (a button of the view model's choices)",
    "cancel": "true: drop the choice the session holds",
    "answer": "value: yes, no, a, b, tie, a flag number or a formation kind",
    "hint": "true: the next hint",
    "step": "+1 or -1: the next or previous proof step",
    "evidence": "card: a card tapped as a claim's evidence (a face-up card, or a ghost from the palette)",
    "place": "[card, place]: a palette card put at a place ('N:you', 'N:opponent', 'hand:you', ...; explorer, editor)",
    "take": "card: a placed card taken off (explorer, editor)",
}


#: the folder of the front end's files: anywidget reads them (and, with ANYWIDGET_HMR=1, reloads them on save)
_HERE = Path(__file__).resolve().parent


class Board(anywidget.AnyWidget):
    """The board component: draws :attr:`view`, reports what the learner did to ``on_intent``.

    ``on_intent(name, value)`` is called for every intent that fits ``schema`` (the owning widget's
    :class:`~battleline_lab.widgets.intents.IntentSchema`; without one, any kind of :data:`INTENTS`),
    from the browser (a custom comm message ``{"intent": {...}}``) or from Python (:meth:`intent`,
    the same path, which tests and lessons use).  An intent that does not fit, or that the widget
    fails on, is refused through :func:`~battleline_lab.widgets.intents.dispatch`: an
    :class:`~battleline_lab.widgets.intents.IntentWarning`, then ``on_refused()`` (the widget draws
    itself again; without it the board redraws its view), and nothing raises.
    """

    _esm = _HERE / "board.js"
    _css = _HERE / "board.css"
    #: what to draw (the view model); every change redraws the board in the browser
    view = traitlets.Dict().tag(sync=True)
    #: the response table (:mod:`battleline_lab.controllers.responses`, packed by its ``pack_table``): the
    #: board answers from it while no kernel is behind it; "" when the widget has none
    table = traitlets.Unicode("").tag(sync=True)
    #: the state of :attr:`table` the view on show is (-1: none, or not in the table)
    table_state = traitlets.Int(-1).tag(sync=True)

    def __init__(
        self,
        on_intent: Callable[[str, Any], None] | None = None,
        *,
        schema: IntentSchema | None = None,
        on_refused: Callable[[], None] | None = None,
        on_replay: Callable[[str, list[object]], None] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.on_intent = on_intent
        self.on_replay = on_replay
        self.schema = schema if schema is not None else IntentSchema("board", dict.fromkeys(INTENTS, anything))
        self.on_refused = on_refused
        self._rev = 0
        self.on_msg(self._on_msg)

    def show(self, view: Mapping[str, object]) -> None:
        """Draw ``view`` (a revision number is added, so the browser and tests see every redraw)."""
        self._rev += 1
        self.view = {**view, "rev": self._rev}

    def redraw(self) -> None:
        """Draw again: the owning widget's ``on_refused``, else the view on show (the browser drops its own
        selection), so what the learner sees is what the session holds."""
        if self.on_refused is not None:
            self.on_refused()
        else:
            self.show({k: v for k, v in self.view.items() if k != "rev"})

    def _on_msg(self, _widget: object, content: object, _buffers: object) -> None:
        # a comm message is anything the browser (or a forger) sends: only {"intent": ...}, {"ping": ...}
        # and {"replay": ...} are read, and the gate refuses what does not fit without raising
        if not isinstance(content, dict):
            return
        if "intent" in content:
            self.intent(content["intent"])
        elif "ping" in content:
            # the board asks whether a kernel is behind it: a model restored from a notebook's saved
            # widget state has no comm, its model.send goes nowhere and no answer comes
            self.send({"pong": True})
        elif "replay" in content:
            self.replay(content["replay"])

    def replay(self, batch: object) -> bool:
        """Taps the browser answered from :attr:`table` before the kernel ran (``{"id": str, "intents": [...]}``):
        handed to ``on_replay(id, intents)``, then acknowledged (``{"replayed": id}``: the browser forgets
        them).  False (nothing done, nothing acknowledged: the browser keeps them) for anything else, or
        without ``on_replay``."""
        if self.on_replay is None or not isinstance(batch, dict) or set(batch) != {"id", "intents"}:
            return False
        ident, intents = batch["id"], batch["intents"]
        if type(ident) is not str or not 0 < len(ident) <= 64 or type(intents) is not list or len(intents) > 1000:
            return False
        with warnings.catch_warnings():
            # a tap the live widget no longer offers is refused quietly: the replay is not the learner's tap
            warnings.simplefilter("ignore", IntentWarning)
            self.on_replay(ident, intents)
        self.send({"replayed": ident})
        return True

    def intent(self, intent: object) -> bool:
        """Handle one intent as if the browser sent it; False (nothing done, a warning, a redraw) if refused."""
        return dispatch(self.schema, intent, self.on_intent, self.redraw)


class Taps:
    """Taps on a :class:`Board` from Python, decided exactly as ``board.js``'s ``tap`` decides them.

    The browser keeps one thing of its own, the hand card tapped (or dragged) whose flags it
    lights (and, in place mode, the palette card picked); everything else goes to the session as
    an intent.  This class keeps that selection the same way, so tests and lessons drive a widget
    through the same view model and the same hooks a learner taps (``data-card``, ``data-flag``,
    ``data-action``); a hook that is not on offer raises ``ValueError`` (a learner could not tap
    it).  Both are checked against one table of cases, ``tests/data/tap_cases.json``.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.selected: str | None = None
        self.picked: str | None = None  # the palette card tapped (place mode: explorer, editor)

    @property
    def view(self) -> TapView:
        # the board's trait holds what a controller built (a PuzzleView, GameView or PlaceView): a tap
        # reads only the keys TapView names, as each of those types them
        return cast(TapView, dict(self.board.view))

    def _hand(self, card: str) -> CardView | None:
        return next((c for c in self.view.get("hand", ()) if c["id"] == card), None)

    def _flag(self, n: int) -> FlagView | None:
        return next((f for f in self.view.get("flags", ()) if f["n"] == n), None)

    def _palette(self) -> list[str]:
        palette = self.view.get("palette")
        return [c["id"] for c in palette["cards"]] if palette else []

    def _keep(self) -> None:
        """Drop a selection the view no longer offers (a card played or gone, a palette card gone)."""
        card = self._hand(self.selected) if self.selected is not None else None
        if not (card and card.get("flags")):
            self.selected = None
        if self.picked not in self._palette():
            self.picked = None

    def legal_flags(self) -> list[int]:
        """The flags lit ``data-legal`` now (for the tapped card, or the session's choice)."""
        self._keep()
        if self.selected is not None:
            card = self._hand(self.selected)
            return list(card["flags"]) if card and card.get("flags") else []
        return [f["n"] for f in self.view.get("flags", ()) if f.get("legal")]

    def claimable_flags(self) -> list[int]:
        """The flags marked ``data-claimable`` now."""
        return [f["n"] for f in self.view.get("flags", ()) if f.get("claimable")]

    def card(self, card: str) -> None:
        """Tap a hand card (``data-zone="hand"``): select it (a second tap cancels), or ask the session."""
        self._keep()
        entry = self._hand(card)
        if entry is None or not (entry.get("flags") or entry.get("kernel")):
            raise ValueError(f"hand card {card} is not on offer")
        if entry.get("flags"):
            self.selected = None if self.selected == card else card
        else:
            self.selected = None
            self.board.intent({"select": card})

    def flag(self, n: int) -> None:
        """Tap a flag's target (``data-flag``): play the tapped card, the session's choice, a claim or an answer."""
        self._keep()
        entry = self._flag(n)
        if entry is None or entry.get("inert"):
            raise ValueError(f"flag {n} is not on offer")
        if entry.get("answer") is not None:
            self.board.intent({"answer": str(n)})
            return
        if self.selected is not None:
            card, self.selected = self.selected, None
            held = self._hand(card)
            if held is None or n not in held.get("flags", ()):
                raise ValueError(f"flag {n} is not legal for {card}")  # the browser cancels the selection
            self.board.intent({"play": [card, n]})
        elif entry.get("legal") or entry.get("choose"):
            self.board.intent({"flag": n})
        elif entry.get("claim"):
            self.board.intent({"claim": n})
        else:
            raise ValueError(f"flag {n} is not on offer")

    def target(self, card: str) -> None:
        """Tap a card on the table a tactic acts on (a ``data-action="target"`` card)."""
        if card not in self.view.get("targets", ()):
            raise ValueError(f"{card} is not a target now")
        self.board.intent({"target": card})

    def _button(self, action: str, value: str | None = None) -> TapButton:
        view = self.view
        items = [
            *(TapButton(action="draw", deck=d["deck"], enabled=d["enabled"]) for d in view.get("decks", ())),
            *(_tap_button(c, c.get("action", "")) for c in view.get("choices", ())),
            *(_tap_button(a, a.get("action", "answer")) for a in view.get("answers", ())),
        ]
        hint = view.get("hint")
        if hint:
            items.append(TapButton(action="hint", enabled=hint["enabled"]))
        proof = view.get("proof")
        if proof:  # the proof's step buttons, enabled where there is a step to go to
            index, count = proof["index"], len(proof.get("steps", ()))
            items += [
                TapButton(action="step-back", enabled=index > 0),
                TapButton(action="step-next", enabled=index < count - 1),
            ]
        for item in items:
            if item.get("action") == action and value in (None, item.get("value"), item.get("deck")):
                if item.get("enabled", True) is False:
                    raise ValueError(f"{action} {value or ''} is not on offer (aria-disabled)")
                return item
        raise ValueError(f"no {action} {value or ''} button on the board")

    def draw(self, deck: str) -> None:
        """Tap a deck (``data-action="draw" data-deck=...``)."""
        self._button("draw", deck)
        self.board.intent({"draw": deck})

    def action(self, action: str, value: str | None = None) -> None:
        """Tap a button of the view model (``data-action=...``), e.g. ``pass``, ``answer`` ``yes``."""
        item = self._button(action, value)
        if action == "cancel":
            self.escape()
        elif action == "answer":
            self.board.intent({"answer": item.get("value")})
        elif action == "hint":
            self.board.intent({"hint": True})
        elif action in ("step-next", "step-back"):
            self.board.intent({"step": 1 if action == "step-next" else -1})
        else:
            self.board.intent({"do": action})

    def pick(self, card: str) -> None:
        """Tap a palette card (``data-zone="palette"``, place mode): pick it; a second tap cancels."""
        self._keep()
        if card not in self._palette():
            raise ValueError(f"{card} is not in the palette")
        self.selected = None
        self.picked = None if self.picked == card else card

    def evidence_cards(self) -> list[str]:
        """The cards a tap offers as a claim's evidence now (``pick``: on the flags, in the hands, in the rows)."""
        view = self.view
        flags = view.get("flags", [])
        cards = [c for f in flags for c in (*f.get("opponent", []), *f.get("you", []), *f.get("env", []))]
        cards += [c for held in view.get("held", []) for c in held.get("cards", [])]
        evidence = view.get("evidence")
        if evidence is not None:
            cards += [c for row in evidence.get("rows", []) for c in row.get("cards", [])]
        return [c["id"] for c in cards if c.get("pick")]

    def evidence(self, card: str) -> None:
        """Tap a card marked ``pick`` (``data-action="evidence"``): offer it as the evidence of a claim."""
        if card not in self.evidence_cards():
            raise ValueError(f"{card} is not on offer as evidence")
        self.board.intent({"evidence": card})

    def places(self) -> list[str]:
        """The places a picked card may be put (``data-action="place"``: empty slots, then the other places)."""
        view = self.view
        if not view.get("place_mode"):
            return []
        out = []
        for f in view.get("flags", ()):
            for side, cards in (("opponent", f.get("opponent", [])), ("you", f.get("you", []))):
                if len(cards) < int(f.get("slots", 3)):
                    out.append(f"{f['n']}:{side}")
        return out + [p["value"] for p in view.get("places", ())]

    def place(self, place: str) -> None:
        """Tap a slot or a place (``data-action="place" data-place=...``): put the picked card there."""
        self._keep()
        if place not in self.places():
            raise ValueError(f"{place} is not a place on the board")
        card, self.picked = self.picked, None
        if card is not None:  # with nothing picked the tap does nothing (the slot is aria-disabled)
            self.board.intent({"place": [card, place]})

    def take(self, card: str, flag: int | None = None) -> None:
        """Tap a placed card (``data-action="take"``): take it off."""
        if not self.view.get("place_mode"):
            raise ValueError("nothing can be taken off here")
        placed = [
            c["id"]
            for f in self.view.get("flags", ())
            if flag in (None, f["n"])
            for c in (*f.get("you", []), *f.get("opponent", []))
        ]
        if card not in placed:
            raise ValueError(f"{card} is not on the board")
        self.board.intent({"take": card})

    def step(self, delta: int) -> None:
        """Step the proof (``data-action="step-next|step-back"``, j/k, arrows)."""
        if not self.view.get("proof"):
            raise ValueError("no proof on show")
        self.board.intent({"step": delta})

    def drag(self, card: str) -> None:
        """Start dragging a hand card (``draggable``): it is selected, its flags lit."""
        entry = self._hand(card)
        if entry is None or not entry.get("flags"):
            raise ValueError(f"hand card {card} cannot be dragged")
        self.selected = card

    def drop(self, n: int) -> None:
        """Drop the dragged card on flag ``n``: played there if it may go there (else nothing happens)."""
        if n not in self.legal_flags() or self.selected is None:
            raise ValueError(f"flag {n} is no drop target")
        card, self.selected = self.selected, None
        self.board.intent({"play": [card, n]})

    def escape(self) -> None:
        """Escape: drop the tapped (or picked) card, else the session's choice."""
        self._keep()
        if self.picked is not None:
            self.picked = None
        elif self.selected is not None:
            self.selected = None
        elif self.view.get("selection"):
            self.board.intent({"cancel": True})


def _tap_button(button: ButtonView, action: str) -> TapButton:
    """A view's button as a tap sees it: ``action`` and the button's value and enabled state."""
    out = TapButton(action=action)
    if "value" in button:
        out["value"] = button["value"]
    if "enabled" in button:
        out["enabled"] = button["enabled"]
    return out


class StepKeys(anywidget.AnyWidget):
    """j/k step the proof of the puzzle widget it sits in (``keys.js``): an invisible component.

    It replaces a script that ran from an HTML attribute: the keys arrive as the intent
    ``{"step": +1 | -1}`` and ``on_step(delta)`` is called (as :meth:`Board.intent` does), only
    while :attr:`active` (a proof is shown).
    """

    _esm = _HERE / "keys.js"
    #: whether a proof is shown (the keys do nothing otherwise)
    active = traitlets.Bool(False).tag(sync=True)

    def __init__(self, on_step: Callable[[int], None] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_step = on_step
        self._schema = step_intents()
        self.on_msg(self._on_msg)

    def _on_msg(self, _widget: object, content: object, _buffers: object) -> None:
        if isinstance(content, dict) and "intent" in content:
            self.intent(content["intent"])

    def intent(self, intent: object) -> bool:
        """Handle ``{"step": +1 | -1}`` as if a key was pressed; False if it is not that (a warning), or no proof
        is shown."""
        return dispatch(self._schema, intent, self._step, lambda: None) and self.active and self.on_step is not None

    def _step(self, _kind: str, step: int) -> None:
        if self.active and self.on_step is not None:
            self.on_step(step)
