"""The formation explorer widget: place cards for two sides on the board component and see who wins.

:class:`FormationExplorer` draws an :class:`~battleline_lab.controllers.explorer.ExplorerController`
(the cards placed, Fog, Mud, who completed first: all its state) and the engine's verdict it gives
(a compare question, R9-R11, R20-R25): kinds, sums, wildcards and the winner.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from ..controllers.explorer import PICKABLE_IDS, ExplorerController
from ..controllers.view import PlaceView
from ..core.cards import Card, format_cards
from ..core.position import Side
from ..text.messages import DEFAULT_LANGUAGE, message
from ._common import Forwarded, _cap, _classed, _describe, _esc, language_toggle, switch_lang
from .intents import explorer_intents

__all__ = ["FormationExplorer"]


class FormationExplorer(W.VBox):  # type: ignore[misc]
    """Place cards for two sides (wildcards too), Fog and Mud, and see kinds, sums, wildcards and the winner.

    The cards are placed on the board component (:class:`~battleline_lab.widgets.board.Board`, place
    mode): tap a card of the palette, then an empty slot of a side (``data-action="place"``);
    tap a placed card to take it off (``data-action="take"``); Mud (R25) draws a fourth slot a
    side.  The state is :attr:`controller`'s; the engine judges; this widget only shows.
    ``set_cards("you", "r3 r4 r5")`` fills a side from notation; :attr:`taps` taps the board.

    >>> e = FormationExplorer()
    >>> e.set_cards("you", "r3 r4 r5"); e.set_cards("opponent", "b8 b9 alexander")
    >>> e.verdict.value.count("Wedge") >= 2
    True
    >>> e.taps.take("alexander"); e.taps.pick("b10"); e.taps.place("1:opponent")
    >>> format_cards(e.cards("opponent"))
    'b8 b9 b10'
    """

    def __init__(self, *, lang: str = DEFAULT_LANGUAGE, you: str = "", opponent: str = "") -> None:
        from .board import Board, Taps  # the board component (anywidget)

        #: the cards, Fog, Mud and who completed first (everything this widget draws)
        self.controller = ExplorerController(lang=lang, you=you, opponent=opponent)
        self._syncing = True  # the controls are being set from the controller: not a learner's change
        self.board = _classed(
            Board(
                on_intent=self._on_intent,
                schema=explorer_intents(lambda: PICKABLE_IDS, self.controller.placed),
                on_refused=self._update,
            ),
            "bl-explorer-board",
        )
        self.taps = Taps(self.board)
        self.fog = _classed(W.Checkbox(value=False, indent=False), "bl-fog")
        self.mud = _classed(W.Checkbox(value=False, indent=False), "bl-mud")
        self.first = W.ToggleButtons(
            options=self._first_options(),
            value=Side.YOU.value,
            style={"description_width": "initial", "button_width": "120px"},
        )
        self.first.add_class("bl-first-complete")
        for control in (self.fog, self.mud, self.first):
            control.observe(lambda _c: self._controls_changed(), names="value")
        self.verdict = _classed(W.HTML(), "bl-explorer-verdict")
        self.fog.layout.width = self.mud.layout.width = "130px"
        self.lang_toggle = language_toggle(lang, self.set_lang)
        controls = W.HBox([self.fog, self.mud, self.first, self.lang_toggle], layout=W.Layout(flex_flow="row wrap"))
        super().__init__([controls, self.board, self.verdict])
        self.add_class("bl-explorer")
        self._label()
        self._syncing = False
        self._update()

    lang = Forwarded[str]("The language shown.", set_with="set_lang")
    picked = Forwarded[dict[Side, list[str]]]("The cards placed on each side, in order.")

    def _first_options(self) -> list[tuple[str, str]]:
        return [(_cap(message(f"side.{s.value}", self.lang)), s.value) for s in Side]

    def _label(self) -> None:
        _describe(
            self.lang,
            (self.fog, "widget.explorer.fog"),
            (self.mud, "widget.explorer.mud"),
            (self.first, "widget.explorer.first"),
        )

    def set_lang(self, lang: str) -> None:
        """Switch every label and the verdict to ``lang`` (the ``bl-lang`` toggle); the cards placed stay."""
        if not switch_lang(self, lang):
            return
        self._syncing = True
        try:  # new option labels, same value
            self.first.options = self._first_options()
            self.first.value = self.controller.first.value
            self._label()
        finally:
            self._syncing = False
        self._update()

    def set_cards(self, side: Side | str, cards: str) -> None:
        """Fill a side from card notation (what was there goes; at most four cards)."""
        self.controller.set_cards(side, cards)
        self._update()

    def cards(self, side: Side | str) -> tuple[Card, ...]:
        """The cards placed on a side (only the slots the flag has: 3, or 4 with Mud)."""
        return self.controller.cards(side)

    def _controls_changed(self) -> None:
        """Fog, Mud or who completed first was changed by the learner: the controller is told."""
        if self._syncing:
            return
        self.controller.set_environment(fog=bool(self.fog.value), mud=bool(self.mud.value))
        self.controller.set_first(self.first.value)
        self._update()

    def _on_intent(self, name: str, value: Any) -> None:
        """The board's intents, checked by :func:`~battleline_lab.widgets.intents.explorer_intents`: ``place`` a
        palette card on a side (moved if it lay elsewhere), ``take`` one off."""
        if name == "place":
            self.controller.place(*value)
        elif name == "take":
            self.controller.take(value)
        self._update()

    def board_view(self) -> PlaceView:
        """The board's view model (the controller's): one flag, both sides' cards and empty slots, Fog and Mud."""
        return self.controller.view()

    def _update(self) -> None:
        if self._syncing:
            return
        self._syncing = True
        controller = self.controller
        try:  # the controls show the controller's state (it may have been told from Python)
            self.fog.value, self.mud.value = controller.fog, controller.mud
            self.first.value = controller.first.value
        finally:
            self._syncing = False
        self.board.show(self.board_view())
        lines = self.controller.verdict()
        self.verdict.value = "".join(f'<div class="bl-explorer-line">{_esc(line)}</div>' for line in lines)

    def __repr__(self) -> str:
        you, opponent = format_cards(self.cards("you")), format_cards(self.cards("opponent"))
        return f"<FormationExplorer you: {you} | opponent: {opponent}>"
