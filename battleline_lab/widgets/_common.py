"""What the package's widgets share: escaping, text helpers, controls and the learner's progress.

Private to :mod:`battleline_lab.widgets`: the puzzle (:mod:`.puzzle`), the gym (:mod:`.gym`), the
formation explorer (:mod:`.explorer`), the game (:mod:`.game`) and the editor (:mod:`.editor`) build
their controls with these; the public ones are re-exported by the package (``set_visible``,
``language_toggle``, ``switch_lang``, ``flag_grid``, ...).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar, overload

import ipywidgets as W

from ..core.cards import Card
from ..core.position import FLAGS, Side
from ..formats.settings import SettingError
from ..quiz.questions import Comparison
from ..render.svg import BOARD_MAX_WIDTH, flag_grid_columns
from ..text.messages import LANGUAGES, card_short, comparison_why, message, theme_of, themed
from ..training.progress import Progress, data_dir
from .board import Board, Taps
from .intents import IntentSchema


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _cards(cards: Iterable[Card], lang: str) -> str:
    """Cards inside a widget text: ``b7 b9`` / ``蓝7、蓝9``."""
    return message("widget.card_sep", lang).join(card_short(c, lang) for c in cards)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def set_visible(widget: W.Widget, visible: bool) -> None:
    """Show or hide a widget (it keeps its place in the tree).

    Shown is ``display: ""`` (the element's own display), never ``None``: JupyterLite's front end
    keeps a widget whose display went from ``"none"`` to ``None`` hidden (docs/site.md).
    """
    widget.layout.display = "" if visible else "none"


_Widget = TypeVar("_Widget", bound=W.Widget)
_Value = TypeVar("_Value")


class _Controlled(Protocol):
    @property
    def controller(self) -> object: ...


class Forwarded(Generic[_Value]):
    """A widget's attribute that its controller holds: ``widget.x`` reads ``widget.controller.x``.

    A widget keeps no state of its own (its controller does), yet tests and lessons read the state on
    the widget: one line per attribute says where it lives.  ``name`` reads another attribute of the
    controller; ``set_with`` names the controller's method that setting the attribute calls
    (``set_lang``), ``settable`` lets a set go to the controller's attribute itself; without either
    the attribute is read-only, as a property without a setter is.

    >>> class Controller:
    ...     lang, hints = "en", 2
    ...     def set_lang(self, lang: str) -> None:
    ...         self.lang = lang
    >>> class Widget:
    ...     lang = Forwarded[str]("the language shown", set_with="set_lang")
    ...     hint_level = Forwarded[int]("hints taken", name="hints")
    ...     def __init__(self) -> None:
    ...         self.controller = Controller()
    >>> w = Widget()
    >>> w.lang = "zh"
    >>> w.lang, w.controller.lang, w.hint_level, Widget.hint_level.__doc__
    ('zh', 'zh', 2, 'hints taken')
    >>> w.hint_level = 3
    Traceback (most recent call last):
    ...
    AttributeError: hint_level is read-only: it is the controller's hints
    """

    def __init__(
        self, doc: str = "", *, name: str | None = None, set_with: str | None = None, settable: bool = False
    ) -> None:
        self.__doc__ = doc or None
        self._source = name
        self._set_with = set_with
        self._settable = settable
        self._name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name
        if self._source is None:
            self._source = name

    @overload
    def __get__(self, widget: None, owner: type) -> Forwarded[_Value]: ...
    @overload
    def __get__(self, widget: _Controlled, owner: type) -> _Value: ...
    def __get__(self, widget: _Controlled | None, owner: type) -> Forwarded[_Value] | _Value:
        if widget is None:
            return self
        value: _Value = getattr(widget.controller, self._source or self._name)
        return value

    def __set__(self, widget: _Controlled, value: _Value) -> None:
        controller = widget.controller
        if self._set_with is not None:
            getattr(controller, self._set_with)(value)
        elif self._settable:
            setattr(controller, self._source or self._name, value)
        else:
            raise AttributeError(f"{self._name} is read-only: it is the controller's {self._source}")


#: Visible keyboard focus on every control of the package's widgets (a ``<style>`` inside an
#: HTML widget applies to the page; scoped to ``.bl-*`` roots so JupyterLab is untouched).
FOCUS_STYLE = (
    "<style>"
    ".bl-puzzle :focus-visible,.bl-gym :focus-visible,.bl-explorer :focus-visible,.bl-game :focus-visible"
    "{outline:3px solid #1a56db !important;outline-offset:2px}"
    ".bl-flag-grid .widget-button,.bl-flag-grid .widget-toggle-button{width:auto;min-width:0;margin:0 2px;"
    "padding:0 2px;overflow:hidden;text-overflow:ellipsis}"
    "</style>"
)


def board_view(css: str = "bl-board-view") -> W.HTML:
    """The HTML widget a board is drawn in: as wide as the cell, at most ``svg.BOARD_MAX_WIDTH``."""
    return W.HTML(layout=W.Layout(width="auto", align_self="stretch", max_width=f"{BOARD_MAX_WIDTH}px")).add_class(css)


def flag_grid(buttons: Sequence[W.Widget], css: str) -> W.GridBox:
    """Nine controls, one under each flag column of a :func:`board_view` (the board's own geometry).

    >>> grid = flag_grid([W.Button(description=str(n)) for n in range(1, 10)], "bl-flag-row")
    >>> len(grid.children), grid.layout.grid_template_columns == flag_grid_columns()
    (11, True)
    """
    if len(buttons) != len(FLAGS):
        raise ValueError(f"a flag grid needs {len(FLAGS)} controls, not {len(buttons)}")
    for button in buttons:
        button.layout.width = "auto"
    cells = [W.Box(), *buttons, W.Box()]  # the board's left and right margins
    grid = W.GridBox(
        cells,
        layout=W.Layout(
            width="auto",
            align_self="stretch",
            max_width=f"{BOARD_MAX_WIDTH}px",
            grid_template_columns=flag_grid_columns(),
        ),
    )
    return _classed(grid, "bl-flag-grid", css)


def _classed(widget: _Widget, *classes: str) -> _Widget:
    """``widget`` with the CSS classes (``bl-...``) that browser tests find it by."""
    for css in classes:
        widget.add_class(css)
    return widget


def _button(css: str, on_click: Callable[[], object], **options: Any) -> W.Button:
    """A button with a ``bl-...`` class that calls ``on_click()`` when clicked."""
    button = _classed(W.Button(**options), css)
    button.on_click(lambda _b: on_click())
    return button


def fit_label() -> W.Layout:
    """A button's layout as wide as its label: ipywidgets' default width (148 px) cuts a longer
    label with an ellipsis ("Save my progr…"); in a wrapping row the button moves to the next
    line rather than shrink."""
    return W.Layout(width="auto", flex="0 0 auto", max_width="100%")


def _describe(lang: str, *labels: tuple[W.Widget, str]) -> None:
    """Each ``(widget, key)``: the widget's ``description`` is the key's text in ``lang``."""
    for widget, key in labels:
        widget.description = message(key, lang)


class PictureBox(W.VBox):  # type: ignore[misc]
    """A widget whose display adds a picture of it beside the live view: the SVG of :meth:`picture`.

    A saved notebook opened cold (no kernel, untrusted) or a static viewer shows the picture where
    the widget cannot run; the puzzle, the gym, the game and the editor are such widgets.
    """

    def picture(self) -> str | None:
        """The SVG picture shown where the widget cannot run (None: nothing beside the widget view)."""
        return None

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, object] | None:
        bundle = super()._repr_mimebundle_(**kwargs)
        if not isinstance(bundle, dict):
            return None
        picture = self.picture()
        return bundle if picture is None else {**bundle, "image/svg+xml": picture}


class _Dealer(Protocol):
    def restart(self, seed: int | None = None) -> None: ...
    def new_game(self) -> None: ...
    def ask_new_game(self) -> bool: ...


def game_banner(text: str, won: bool, tally: str | None = None) -> str:
    """A game's end in its banner (``bl-game-over``): ``text`` (and ``tally`` below it), green if the learner won."""
    colour = "#2e7d32" if won else "#b71c1c"
    more = "" if tally is None else f"<br><span style='font-size:85%'>{_esc(tally)}</span>"
    return (
        f'<div style="background:{colour};color:#fff;padding:8px 12px;border-radius:6px;font-size:120%">'
        f"<b>{_esc(text)}</b>{more}</div>"
    )


class GameBox(PictureBox):
    """A game widget (two players, three players): its controller deals, the widget draws again.

    The parts every game has (:meth:`_game_parts`): the title ``bl-game-title``, the banner
    ``bl-game-over``, the board component ``bl-game-board`` with its :attr:`taps`, and New game
    ``bl-new-game``.  :meth:`restart`, :meth:`new_game` and :meth:`ask_new_game` (that button) go to
    the controller; the subclass takes the board's intents in ``_on_intent`` and draws in ``_render``.
    """

    controller: _Dealer

    def _on_intent(self, name: str, value: Any) -> None:
        raise NotImplementedError

    def _render(self) -> None:
        raise NotImplementedError

    def _game_parts(self, schema: IntentSchema, on_refused: Callable[[], None]) -> None:
        """Made once in ``__init__``: the parts above, the board taking the intents ``schema`` lets through
        (``on_refused`` is called for one it refuses)."""
        self.title = _classed(W.HTML(), "bl-game-title")
        self.banner = _classed(W.HTML(), "bl-game-over")
        #: the board component: the table, the hand, the decks, the choices and the notice
        self.board = _classed(Board(on_intent=self._on_intent, schema=schema, on_refused=on_refused), "bl-game-board")
        #: taps on the board from Python, decided as the browser decides them
        self.taps = Taps(self.board)
        self.new_game_button = _button("bl-new-game", self.ask_new_game, layout=W.Layout(width="auto"))

    def _draw_heading(self, title: str, over: bool, banner: str) -> None:
        """The title; the banner (:func:`game_banner`), shown once the game is ``over``, when New game is the
        main button."""
        self.title.value = f'<b class="bl-game-heading">{_esc(title)}</b>'
        self.banner.value = banner
        set_visible(self.banner, over)
        self.new_game_button.button_style = "primary" if over else ""

    def message_text(self) -> str:
        """The notice on show (``data-role="feedback"``) as plain text: its sentence, then its lines."""
        fb = self.board.view.get("feedback") or {}
        return "\n".join([fb.get("text", ""), *fb.get("lines", ()), *fb.get("items", ())]).strip()

    def restart(self, seed: int | None = None) -> None:
        """Deal a game from ``seed`` (the same seed gives the same game and the same bot moves)."""
        self.controller.restart(seed)
        self._render()

    def new_game(self) -> None:
        """The next deal at once (from code; the ``bl-new-game`` button asks first: :meth:`ask_new_game`)."""
        self.controller.new_game()
        self._render()

    def ask_new_game(self) -> None:
        """The ``bl-new-game`` button: the next deal, after asking on the board when it would discard a
        game in progress (:class:`~battleline_lab.controllers.new_game.NewGameQuestion`)."""
        self.controller.ask_new_game()
        self._render()


class _Multilingual(Protocol):
    lang: str
    lang_toggle: W.ToggleButtons


def switch_lang(widget: _Multilingual, lang: str) -> bool:
    """Set ``widget.lang``; False if the ``bl-lang`` toggle had to move (it calls ``set_lang`` again), else True.

    The ``set_lang`` of a widget with a :func:`language_toggle` starts with
    ``if not switch_lang(self, lang): return`` and then re-labels everything.

    >>> class Widget:
    ...     lang, lang_toggle = "en", language_toggle("en", print)
    >>> w = Widget()
    >>> switch_lang(w, "zh")
    zh
    False
    >>> w.lang, switch_lang(w, "zh")
    ('zh', True)
    >>> switch_lang(w, "fr")
    Traceback (most recent call last):
    ...
    ValueError: unknown language 'fr'; available: en, zh
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; available: {', '.join(LANGUAGES)}")
    widget.lang = themed(lang, theme_of(widget.lang))  # a theme (PuzzleWidget(theme=)) survives the switch
    if widget.lang_toggle.value != lang:
        widget.lang_toggle.value = lang  # calls back set_lang once more, with nothing left to change
        return False
    return True


#: What the language toggle (``bl-lang``) offers: each language in its own words.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "zh": "中文"}


def language_toggle(lang: str, on_change: Callable[[str], None]) -> W.ToggleButtons:
    """A ``bl-lang`` toggle (English / 中文); ``on_change(lang)`` re-labels the widget it sits in."""
    toggle = W.ToggleButtons(
        options=[(LANGUAGE_NAMES.get(code, code), code) for code in LANGUAGES],
        value=lang,
        style={"button_width": "72px"},
        tooltips=[],
    )
    toggle.add_class("bl-lang")
    toggle.observe(lambda change: on_change(change["new"]), names="value")
    return toggle


def _sides(side: Side, lang: str) -> dict[str, str]:
    """Placeholders naming the asking side and the other one: me/Me, my/My, them/Them."""
    me, them = message(f"side.{side.value}", lang), message(f"side.{side.other.value}", lang)
    my = message(f"side.{side.value}.possessive", lang)
    return {"me": me, "Me": _cap(me), "my": my, "My": _cap(my), "them": them, "Them": _cap(them)}


_DEFAULT_PROGRESS: dict[str, Progress] = {}


def default_progress() -> Progress:
    """The learner's progress in the user data folder, opened once per kernel (and per folder)."""
    try:
        key = str(data_dir())
    except SettingError:  # Progress() keeps the answers in memory and its ``problem`` says why
        key = ""
    if key not in _DEFAULT_PROGRESS:
        _DEFAULT_PROGRESS[key] = Progress()
    return _DEFAULT_PROGRESS[key]


def _comparison_text(data: Comparison, lang: str) -> str:
    """Why the winner of a comparison wins (:func:`battleline_lab.text.messages.comparison_why`)."""
    return comparison_why(data, lang)
