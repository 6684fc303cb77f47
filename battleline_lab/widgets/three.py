"""A Jupyter widget to play the three-player game (R32-R37) against two bots, by taps and keys.

:class:`ThreeGameWidget` (made by ``GameWidget(players=3, bots=[...])``) draws a
:class:`~battleline_lab.controllers.three.ThreeGameController` on the board component in its
``three`` mode: the three fronts stacked, each labelled with its two players, the learner's hand
below.  Tap a troop and the learner's flags where it may go light up (``data-legal``); tap one
to play it (or drag the card there).  A flag that can be claimed is marked ``data-claimable``:
tap it to claim; ``End claiming`` goes on; the troop deck (``data-action="draw"``) draws.  The
bots play their turns at once; what they did is said under the board.  At the end the banner
``.bl-game-over`` names the winner and why, with its rule.

>>> w = ThreeGameWidget(bots=["heuristic", "random"], seed=4)
>>> w
<ThreeGameWidget seed 4, A against heuristic and random: turn 1, play>
>>> card = next(c for c in w.board.view["hand"] if c.get("flags"))
>>> w.taps.card(card["id"]); w.taps.flag(8); w.taps.draw("troops")
>>> w.state.turn_number  # B and C have played
4
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as W

from ..controllers.three import ThreeGameController
from ..controllers.view import ThreeGameView
from ..game.three import Seat, ThreeState
from ..game.three_picture import three_svg
from ..text.messages import DEFAULT_LANGUAGE, Bound
from ._common import Forwarded, GameBox, game_banner, language_toggle, switch_lang
from .intents import game_intents

__all__ = ["ThreeGameWidget"]


class ThreeGameWidget(GameBox):
    """The three-player game in the notebook: the learner at seat A, ``bots`` at B and C (R34: A, B, C
    play in turn).  ``seed`` deals the game and seeds the bots.

    The board (:attr:`board`) has the game's hooks: hand cards ``[data-zone="hand"]``, flags
    ``.blb-flag[data-flag]`` (``data-legal``, ``data-claimable``), each front ``[data-front]``
    with its label, the deck ``[data-action="draw"][data-deck="troops"]``, the buttons
    ``[data-action="pass|end"]`` and the notice ``[data-role="feedback"]``.  Around it: the title
    ``.bl-game-title``, the banner ``.bl-game-over``, ``New game`` (``.bl-new-game``) and the
    language toggle ``.bl-lang``.
    """

    controller: ThreeGameController

    def __init__(
        self,
        bots: Sequence[str] = ("heuristic", "random"),
        *,
        seed: int = 0,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        #: the game, the bots and the words; the widget draws it and forwards the taps
        self.controller = ThreeGameController(bots, seed=seed, lang=lang)
        # the board component in its ``three`` mode, and the parts of every game around it
        self._game_parts(game_intents(self.controller.hand_cards, self.controller.target_cards), self._render)
        self.lang_toggle = language_toggle(lang, self.set_lang)
        super().__init__(
            [
                self.title,
                self.banner,
                self.board,
                W.HBox([self.new_game_button, self.lang_toggle], layout=W.Layout(flex_flow="row wrap")),
            ]
        )
        self.add_class("bl-game")
        self.add_class("bl-three-game")
        self._render()

    # -- what tests and lessons read: the controller's -----------------------------------------
    lang = Forwarded[str]("The language shown.", set_with="set_lang")
    state = Forwarded[ThreeState]("The game.")
    seed = Forwarded[int]("The seed of this deal (and of the bots).")
    human = Forwarded[Seat]("The learner's seat (A).")

    @property
    def _t(self) -> Bound:
        return self.controller.t

    def board_view(self) -> ThreeGameView:
        """The board's view model now (the controller's)."""
        return self.controller.view()

    # -- taps, keys and buttons -----------------------------------------------------------------
    def _on_intent(self, name: str, value: Any) -> None:
        self.controller.intent(name, value)
        self._render()

    def set_lang(self, lang: str) -> None:
        """Show everything in ``lang`` (``"en"``, ``"zh"``), as the ``bl-lang`` toggle does; the game goes on."""
        if switch_lang(self, lang):
            self._render()

    # -- drawing ------------------------------------------------------------------------------
    def _render(self) -> None:
        over = self.state.over
        banner = game_banner(self.controller.end_message(), self.state.winner is self.human) if over else ""
        self._draw_heading(self._t("three_widget.title", seed=self.seed), over, banner)
        self.new_game_button.description = self._t("game_widget.new_game")
        self.board.show(self.board_view())

    def picture(self) -> str:
        """The table as an SVG picture (what a saved notebook shows before anything runs, beside the widget view)."""
        return three_svg(self.state, lang=self.lang)

    def __repr__(self) -> str:
        c = self.controller
        state = self.state
        status = f"over, {state.winner.name if state.winner else 'nobody'} won" if state.over else state.phase.value
        against = " and ".join(c.bot_names)
        turn = state.turn_number
        return f"<ThreeGameWidget seed {self.seed}, {self.human.name} against {against}: turn {turn}, {status}>"
