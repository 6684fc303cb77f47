"""The formation explorer: two sides' cards on one flag, Fog and Mud, and the engine's verdict.

:class:`ExplorerController` owns the cards placed on each side, Fog, Mud and who completed first;
its :meth:`~ExplorerController.view` is the board's :class:`~battleline_lab.controllers.view.PlaceView`
and :meth:`~ExplorerController.verdict` the lines that say who wins and why (a compare question,
R9-R11, R20-R25).

>>> e = ExplorerController(you="r3 r4 r5", opponent="b8 b9")
>>> e.verdict()[0]
'Pick 3 cards for each side to compare them.'
>>> e.place("b10", "1:opponent"); e.verdict()[-1]
'The opponent wins the flag: both are a Wedge, so the sum decides: 27 beats 12 [R10].'
"""

from __future__ import annotations

from ..core.cards import ALL_TACTICS, ALL_TROOPS, Card, Tactic, Troop, parse_card
from ..core.position import Position, Side
from ..quiz.questions import CompareQuestion, QuestionError
from ..render.svg import formation_caption
from ..text.messages import DEFAULT_LANGUAGE, card_label, card_short, comparison_why, message
from .view import CardView, FlagView, PaletteView, PlaceView, card_view

__all__ = ["PICKABLE", "ExplorerController"]

#: The cards the palette offers: every troop and the wildcards.
PICKABLE: tuple[Card, ...] = ALL_TROOPS + tuple(c for c in ALL_TACTICS if c.is_wild)
PICKABLE_IDS = frozenset(c.notation for c in PICKABLE)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class ExplorerController:
    """The cards of both sides (a fourth is kept but not counted without Mud), Fog, Mud and who completed first."""

    def __init__(self, *, lang: str = DEFAULT_LANGUAGE, you: str = "", opponent: str = "") -> None:
        self.lang = lang
        #: the cards placed on each side, in order
        self.picked: dict[Side, list[str]] = {side: [] for side in Side}
        self.fog = False
        self.mud = False
        #: the side that completed its formation first (it wins a tie, R11)
        self.first = Side.YOU
        if you:
            self.set_cards(Side.YOU, you)
        if opponent:
            self.set_cards(Side.OPPONENT, opponent)

    # -- intents ----------------------------------------------------------------
    def set_cards(self, side: Side | str, cards: str) -> None:
        """Fill a side from card notation (what was there goes; at most four cards)."""
        self.picked[Side(side)] = [parse_card(t).notation for t in cards.replace(",", " ").split()][:4]

    def place(self, card: str, place: str) -> None:
        """Put a palette card on a side (``"1:you"``); a card lies in one place, a full side takes none."""
        side = Side(place.partition(":")[2])
        if len(self.picked[side][: self.size]) >= self.size:
            return  # the side is full: the tap changes nothing
        for cards in self.picked.values():
            if card in cards:
                cards.remove(card)
        self.picked[side] = self.picked[side][: self.size] + [card]

    def take(self, card: str) -> None:
        """Take a placed card off."""
        for cards in self.picked.values():
            if card in cards:
                cards.remove(card)

    def set_environment(self, *, fog: bool | None = None, mud: bool | None = None) -> None:
        """Fog (R24) and Mud (R25) on the flag or not."""
        self.fog = self.fog if fog is None else fog
        self.mud = self.mud if mud is None else mud

    def set_first(self, side: Side | str) -> None:
        """Who completed first (it decides a tie, R11)."""
        self.first = Side(side)

    def set_lang(self, lang: str) -> None:
        self.lang = lang

    # -- state ------------------------------------------------------------------
    @property
    def size(self) -> int:
        """The slots a side has: 3, or 4 with Mud (R25)."""
        return 4 if self.mud else 3

    def cards(self, side: Side | str) -> tuple[Card, ...]:
        """The cards placed on a side (only the slots the flag has)."""
        return tuple(parse_card(c) for c in self.picked[Side(side)][: self.size])

    def placed(self) -> set[str]:
        """The cards on the board (the slots the flag has)."""
        return {c for cards in self.picked.values() for c in cards[: self.size]}

    # -- what is shown ------------------------------------------------------------
    def view(self) -> PlaceView:
        """The board's view model: one flag, both sides' cards and empty slots, Fog and Mud, the palette."""
        lang = self.lang
        titles = {side: _cap(message(f"board.side_of.{side.value}", lang)) for side in Side}
        placed_cards: dict[Side, list[CardView]] = {side: [] for side in Side}
        for side, title in titles.items():
            for c in self.cards(side):
                item = card_view(c, lang)
                item["label"] = message("widget.explorer.placed", lang, card=card_label(c, lang), side=title)
                placed_cards[side].append(item)
        environment = [t for t, on in ((Tactic.FOG, self.fog), (Tactic.MUD, self.mud)) if on]
        flag = FlagView(
            n=1,
            label=message("widget.explorer.flag", lang),
            slots=self.size,
            inert=True,
            opponent_label=titles[Side.OPPONENT],
            opponent=placed_cards[Side.OPPONENT],
            you_label=titles[Side.YOU],
            you=placed_cards[Side.YOU],
            env=[card_view(t, lang) for t in environment],
        )
        placed = self.placed()
        palette = []
        for c in PICKABLE:
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

    def verdict(self) -> list[str]:
        """The engine's verdict in lines: each side's formation and who wins why, or what is missing."""
        lang, size = self.lang, self.size
        you, opp = self.cards(Side.YOU), self.cards(Side.OPPONENT)
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
            return [message("widget.explorer.incomplete", lang, size=size), *missing]
        data = {
            "a": [c.notation for c in you],
            "b": [c.notation for c in opp],
            "environment": [name for name, on in (("fog", self.fog), ("mud", self.mud)) if on],
            "first_complete": "a" if self.first == Side.YOU else "b",
        }
        try:
            question = CompareQuestion.from_data(data)
        except QuestionError as err:
            return [_problem_text(p.code, p.params, lang) for p in err.problems]
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
        winner = who[comparison.winner].value
        lines.append(message(f"widget.explorer.winner.{winner}", lang, why=comparison_why(comparison, lang)))
        return lines


def _problem_text(code: str, params: tuple[tuple[str, object], ...], lang: str) -> str:
    """A question problem in words: the question layer's message if it has one, else ours."""
    values = {k: (card_short(v, lang) if isinstance(v, (Troop, Tactic)) else v) for k, v in params}
    for key in (f"question.error.{code}", f"widget.explorer.problem.{code}"):
        try:
            return message(key, lang, **values)
        except (KeyError, IndexError):
            continue
    return message("widget.explorer.problem", lang, code=code)
