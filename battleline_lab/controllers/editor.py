"""The puzzle editor: a puzzle being written, the flag the marks are about, and the last message.

:class:`EditorController` holds the :class:`~battleline_lab.authoring.editor.EditorSession` (the
puzzle's data and every edit, checked) and what the editor itself remembers: the language, the
flag chosen for its marks, the message the last action left (a refusal, a save) and whether an
existing file may be overwritten.  :meth:`~EditorController.view` is the board's
:class:`~battleline_lab.controllers.view.PlaceView`.

>>> c = EditorController(EditorSession.new("demo"))
>>> c.place("r2", "5:you"); c.session.where("r2")
('flags', 5, 'you')
>>> c.place("zz", "5:you"); c.message_text()  # a refused edit is the message, never a traceback
"'zz' is not a card: unknown card 'zz'"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from ..authoring.editor import EditorError, EditorSession, Place
from ..core.cards import ALL_CARDS, CardNotationError, parse_card
from ..core.position import Position
from ..text.messages import DEFAULT_LANGUAGE, card_short, message
from .view import PaletteView, PlaceItemView, PlaceView, card_view, flag_views

__all__ = ["CARD_IDS", "EditorController"]

#: Every card's notation (what the palette offers).
CARD_IDS = frozenset(c.notation for c in ALL_CARDS)


class EditorController:
    """The editor's state besides the puzzle's data (the session's): language, flag, message, overwrite."""

    def __init__(self, session: EditorSession, *, lang: str = DEFAULT_LANGUAGE) -> None:
        self.session = session
        self.lang = lang
        #: the flag the marks (Fog, Mud, who completed first, who claimed) are about
        self.flag = 5
        #: what the last action said: a catalogue key and its parameters
        self.message: tuple[str, Mapping[str, object]] | None = None
        #: an existing file was found at Save: the next Save with ``force`` overwrites it
        self.confirm = False
        #: a free id suggested when a copy needs a new one
        self.suggestion = ""

    # -- intents ----------------------------------------------------------------
    def edit(self, action: Callable[[], object]) -> None:
        """Run an edit; a refused edit becomes the message, never a traceback."""
        self.message = None
        self.confirm = False
        try:
            action()
        except EditorError as err:
            self.message = (err.key, err.params)

    def place(self, card: str, key: str) -> None:
        """A card put at a place (``5:you``, ``hand:opponent``): there it goes (moved if it lay elsewhere),
        or off if it is already there."""
        where = self.place_of(key)

        def put() -> None:
            if self.session.where(card) == where:
                self.session.remove_card(card)
            else:
                self.session.add_card(where, card)

        self.edit(put)

    def take(self, card: str) -> None:
        """A placed card taken off."""
        self.edit(lambda: self.session.remove_card(card))

    def choose_flag(self, flag: int) -> None:
        """The flag the marks are about."""
        self.flag = int(flag)

    def path_changed(self) -> None:
        """A new path: an overwrite must be confirmed again."""
        self.confirm = False

    def save(self, target: str, *, force: bool = False, new_id: str | None = None) -> Path | None:
        """Save to ``target``; an existing file needs a second Save with ``force`` (after the confirm message).

        ``new_id``: save a copy under that id (:meth:`EditorSession.save_as`).  A refusal is the message; a
        copy under the original id suggests a free id (:attr:`suggestion`).
        """
        self.message = None
        self.suggestion = ""
        target = target.strip()
        try:
            if not target:
                raise EditorError("no_path")
            if new_id is not None:
                saved = self.session.save_as(target, new_id, force=force and self.confirm)
            else:
                saved = self.session.save(target, force=force and self.confirm)
        except EditorError as err:
            self.confirm = err.key == "editor.error.exists"
            self.message = ("editor.confirm", {"file": target}) if self.confirm else (err.key, err.params)
            if err.key in ("editor.error.copy_same_id", "editor.error.id_taken"):
                self.suggestion = str(err.params.get("suggestion", ""))
            return None
        self.confirm = False
        self.message = ("editor.saved", {"file": str(saved)})
        return saved

    def set_lang(self, lang: str) -> None:
        self.lang = lang

    # -- places -----------------------------------------------------------------
    @staticmethod
    def place_key(place: Place) -> str:
        """A place as the board names it: ``5:you`` for a side of a flag, ``hand:you``, ``discards:opponent``."""
        return f"{place[1]}:{place[2]}" if place[0] == "flags" else f"{place[0]}:{place[1]}"

    def place_of(self, key: str) -> Place:
        """The session's place the board calls ``key``."""
        return next(p for p in self.session.places() if self.place_key(p) == key)

    def place_keys(self) -> set[str]:
        return {self.place_key(p) for p in self.session.places()}

    def place_name(self, place: Place) -> str:
        """A place in words (``flag 5, your side``)."""
        side = message(f"side.{place[-1]}", self.lang)
        if place[0] == "flags":
            return message("editor.place.flag", self.lang, flag=place[1], side=side)
        return message(f"editor.place.{place[0]}", self.lang, side=side)

    def placed(self) -> set[str]:
        """The cards on the board, as the palette names them (what a ``take`` may name)."""
        return {str(c).lower() for p in self.session.places() for c in self.session.cards_at(p)}

    # -- what is shown ------------------------------------------------------------
    def message_text(self) -> str:
        """The message the last action left, in :attr:`lang` ("" if none)."""
        if self.message is None:
            return ""
        key, params = self.message
        return message(key, self.lang, **params)

    def view(self, position: Position) -> PlaceView:
        """The board's view model: the nine flags with their slots, the chosen flag, the places, the palette."""
        lang = self.lang
        flags = flag_views(position, lang, focus=[self.flag])
        for f in flags:
            f["choose"] = True
            f["label"] = message("editor.board.flag", lang, flag=f["n"])
        where = {str(c).lower(): p for p in self.session.places() for c in self.session.cards_at(p)}
        palette = []
        for card in ALL_CARDS:
            item = card_view(card, lang)
            place = where.get(card.notation)
            if place is not None:
                item["placed"] = True
                item["label"] = message("editor.board.placed", lang, card=item["label"], place=self.place_name(place))
            palette.append(item)
        places = []
        for p in self.session.places():
            if p[0] == "flags":
                continue
            cards = ", ".join(card_short(parse_card(c), lang) for c in self.session.cards_at(p) if _parses(c))
            name = self.place_name(p)
            places.append(
                PlaceItemView(
                    value=self.place_key(p),
                    label=f"{name}: {cards}" if cards else name,
                    aria=message(
                        "editor.board.place", lang, place=name, cards=cards or message("editor.board.none", lang)
                    ),
                )
            )
        return PlaceView(
            mode="editor",
            lang=lang,
            place_mode=True,
            prompt=message("editor.board.prompt", lang),
            board_label=message("editor.board.label", lang),
            flags=flags,
            places=places,
            places_label=message("editor.board.places", lang),
            slot_text=message("editor.board.slot", lang, side="{side}", slot="{slot}"),
            pick_text=message("editor.board.pick_text", lang, card="{card}"),
            palette=PaletteView(label=message("editor.board.palette", lang), cards=palette),
        )


def _parses(token: object) -> bool:
    try:
        parse_card(str(token))
    except CardNotationError:
        return False
    return True
