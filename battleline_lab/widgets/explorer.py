"""The formation explorer: place cards for two sides on the board component and see who wins.

:class:`FormationExplorer` asks the engine (a compare question, R9-R11, R20-R25) and shows its
verdict: kinds, sums, wildcards and the winner.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from ..controllers.view import CardView, FlagView, PaletteView, PlaceView, card_view
from ..core.cards import ALL_TACTICS, ALL_TROOPS, Card, Tactic, Troop, format_cards, parse_card
from ..core.position import Position, Side
from ..quiz.questions import CompareQuestion, QuestionError
from ..render.svg import formation_caption
from ..text.messages import DEFAULT_LANGUAGE, card_label, card_short, message
from ._common import _cap, _classed, _comparison_text, _describe, _esc, language_toggle, switch_lang
from .intents import explorer_intents

_NONE = ""
_PICKABLE: tuple[Card, ...] = ALL_TROOPS + tuple(c for c in ALL_TACTICS if c.is_wild)
_PICKABLE_IDS = frozenset(c.notation for c in _PICKABLE)


class FormationExplorer(W.VBox):  # type: ignore[misc]
    """Place cards for two sides (wildcards too), Fog and Mud, and see kinds, sums, wildcards and the winner.

    The cards are placed on the board component (:class:`~battleline_lab.widgets.board.Board`, place
    mode): tap a card of the palette, then an empty slot of a side (``data-action="place"``);
    tap a placed card to take it off (``data-action="take"``); Mud (R25) draws a fourth slot a
    side.  The engine judges (a compare question, R9-R11, R20-R25); this widget only shows.
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

        self.lang = lang
        self._busy = True
        #: the cards placed on each side, in order (a fourth is kept but not counted without Mud)
        self.picked: dict[Side, list[str]] = {side: [] for side in Side}
        self.board = _classed(
            Board(
                on_intent=self._on_intent,
                schema=explorer_intents(lambda: _PICKABLE_IDS, self._placed),
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
            control.observe(lambda _c: self._update(), names="value")
        self.verdict = _classed(W.HTML(), "bl-explorer-verdict")
        self.fog.layout.width = self.mud.layout.width = "130px"
        self.lang_toggle = language_toggle(lang, self.set_lang)
        controls = W.HBox([self.fog, self.mud, self.first, self.lang_toggle], layout=W.Layout(flex_flow="row wrap"))
        super().__init__([controls, self.board, self.verdict])
        self.add_class("bl-explorer")
        self._label()
        self._busy = False
        if you:
            self.set_cards("you", you)
        if opponent:
            self.set_cards("opponent", opponent)
        self._update()

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
        self._busy = True
        try:  # new option labels, same value
            first = self.first.value
            self.first.options = self._first_options()
            self.first.value = first
            self._label()
        finally:
            self._busy = False
        self._update()

    def set_cards(self, side: Side | str, cards: str) -> None:
        """Fill a side from card notation (what was there goes; at most four cards)."""
        self.picked[Side(side)] = [parse_card(t).notation for t in cards.replace(",", " ").split()][:4]
        self._update()

    def cards(self, side: Side | str) -> tuple[Card, ...]:
        """The cards placed on a side (only the slots the flag has: 3, or 4 with Mud)."""
        return tuple(parse_card(c) for c in self.picked[Side(side)][: self._size()])

    def _size(self) -> int:
        return 4 if self.mud.value else 3

    def _placed(self) -> set[str]:
        """The cards on the board (the slots the flag has: 3, or 4 with Mud)."""
        return {c for cards in self.picked.values() for c in cards[: self._size()]}

    def _on_intent(self, name: str, value: Any) -> None:
        """The board's intents, checked by :func:`~battleline_lab.widgets.intents.explorer_intents`: ``place`` a
        palette card on a side (moved if it lay elsewhere), ``take`` one off."""
        if name == "place":
            card, place = value
            side = Side(place.partition(":")[2])
            if len(self.picked[side][: self._size()]) >= self._size():
                return  # the side is full: the tap changes nothing
            for cards in self.picked.values():
                if card in cards:
                    cards.remove(card)  # a card lies in one place
            self.picked[side] = self.picked[side][: self._size()] + [card]
        elif name == "take":
            for cards in self.picked.values():
                if value in cards:
                    cards.remove(value)
        self._update()

    def board_view(self) -> PlaceView:
        """The board's view model: one flag, both sides' cards and empty slots, Fog and Mud, the palette."""
        lang = self.lang
        size = self._size()
        titles = {side: _cap(message(f"board.side_of.{side.value}", lang)) for side in Side}
        placed_cards: dict[Side, list[CardView]] = {side: [] for side in Side}
        for side, title in titles.items():
            for c in self.cards(side):
                item = card_view(c, lang)
                item["label"] = message("widget.explorer.placed", lang, card=card_label(c, lang), side=title)
                placed_cards[side].append(item)
        flag = FlagView(
            n=1,
            label=message("widget.explorer.flag", lang),
            slots=size,
            inert=True,
            opponent_label=titles[Side.OPPONENT],
            opponent=placed_cards[Side.OPPONENT],
            you_label=titles[Side.YOU],
            you=placed_cards[Side.YOU],
            env=[card_view(t, lang) for t, on in ((Tactic.FOG, self.fog.value), (Tactic.MUD, self.mud.value)) if on],
        )
        placed = {c for cards in self.picked.values() for c in cards[:size]}
        palette = []
        for c in _PICKABLE:
            item = card_view(c, lang)
            if c.notation in placed:
                item["placed"] = True
                item["label"] = message("widget.explorer.in_use", lang, card=item["label"])
            palette.append(item)
        return PlaceView(
            mode="explorer",
            lang=lang,
            place_mode=True,
            prompt=message("widget.explorer.prompt", lang),
            board_label=message("widget.explorer.board", lang),
            flags=[flag],
            slot_text=message("widget.explorer.slot", lang, side="{side}", slot="{slot}"),
            pick_text=message("widget.explorer.pick_text", lang, card="{card}"),
            palette=PaletteView(label=message("widget.explorer.palette", lang), cards=palette),
        )

    def _update(self) -> None:
        if self._busy:
            return
        lang = self.lang
        size = self._size()
        self.board.show(self.board_view())
        you, opp = self.cards(Side.YOU), self.cards(Side.OPPONENT)
        environment = [c for c, on in (("fog", self.fog.value), ("mud", self.mud.value)) if on]
        if len(you) < size or len(opp) < size:
            missing = [
                message(
                    "widget.explorer.pick",
                    lang,
                    title=_cap(message(f"board.side_of.{side.value}", lang)),
                    count=size - len(cards),
                )
                for side, cards in ((Side.OPPONENT, opp), (Side.YOU, you))
                if len(cards) < size
            ]
            lines = [message("widget.explorer.incomplete", lang, size=size), *missing]
            self.verdict.value = "".join(f'<div class="bl-explorer-line">{_esc(line)}</div>' for line in lines)
            return
        data = {
            "kind": "compare",
            "a": [c.notation for c in you],
            "b": [c.notation for c in opp],
            "environment": environment,
            "first_complete": "a" if self.first.value == Side.YOU.value else "b",
        }
        try:
            question = CompareQuestion.from_data({k: v for k, v in data.items() if k != "kind"})
        except QuestionError as err:
            self.verdict.value = "<br>".join(_esc(_problem_text(p.code, p.params, lang)) for p in err.problems)
            return
        comparison = question.explain(Position())
        who = {"a": Side.YOU, "b": Side.OPPONENT}
        lines = [
            message(
                "widget.explorer.line",
                lang,
                who=_cap(message(f"side.{side.value}", lang)),
                text=formation_caption(f, lang),
            )
            for side, f in ((Side.YOU, comparison.a), (Side.OPPONENT, comparison.b))
        ]
        lines.append(
            message(
                f"widget.explorer.winner.{who[comparison.winner].value}", lang, why=_comparison_text(comparison, lang)
            )
        )
        self.verdict.value = "".join(f'<div class="bl-explorer-line">{_esc(line)}</div>' for line in lines)

    def __repr__(self) -> str:
        you, opponent = format_cards(self.cards("you")), format_cards(self.cards("opponent"))
        return f"<FormationExplorer you: {you} | opponent: {opponent}>"


def _problem_text(code: str, params: tuple[tuple[str, Any], ...], lang: str) -> str:
    """A question problem in words: the question layer's message if it has one, else ours."""
    values = {k: (card_short(v, lang) if isinstance(v, (Troop, Tactic)) else v) for k, v in params}
    for key in (f"question.error.{code}", f"widget.explorer.problem.{code}"):
        try:
            return message(key, lang, **values)
        except (KeyError, IndexError):
            continue
    return message("widget.explorer.problem", lang, code=code)
