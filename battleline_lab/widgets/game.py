"""A Jupyter widget to play a game of Battle Line against a bot (or two people on one screen).

:class:`GameWidget` draws the game on the board component (:class:`battleline_lab.widgets.board.Board`,
the same one as the puzzles) from the view of the player to act: the opponent's hand is hidden
(R13).  The hand is drawn as cards: tap one and the flags where it may go light up (``data-legal``),
tap a flag to play it, or drag the card there.  A flag you can claim is marked
(``data-claimable``); tap it to claim, or tap any open flag to see the engine's proof of why not.
Guile cards choose their target on the board (the card to desert, to steal, to redeploy and
where to), Scout's returns are taps on hand cards, Fog and Mud go onto a flag like troops, and
a draw is a tap on a deck.  Escape or a second tap cancels.

The widget is a **view** over its :class:`~battleline_lab.controllers.game.GameController`, the
only thing it talks to.  The controller holds a :class:`~battleline_lab.game.session.GameSession`,
which holds the game and makes every decision (whose turn, what can be chosen, the flags each card
may go to, the learner's move and the bot's replies, claims, the coach, the suggestion, the review,
a new game), from the engine: every tap it offers comes from :func:`battleline_lab.game.legal_moves`,
every effect from :func:`battleline_lab.game.apply`, and every claim verdict, proof and
counterexample from :func:`battleline_lab.game.explain_claim` (R12, R13); the controller says it in
words and builds the board's view model.  The widget forwards intents and draws (:meth:`GameWidget.refresh`).
Every string comes from the message catalogue (``locale/<lang>/game_widget.json``, ``board.json``).

It can be driven from Python as from the browser: :attr:`GameWidget.taps` taps the board's hooks
as ``board.js`` does, and :meth:`GameWidget.click_action` taps the hooks that make one action.

>>> w = GameWidget(bot="heuristic", seed=3)
>>> w
<GameWidget seed 3, south against heuristic: turn 1, south to play>
>>> card = w.board.view["hand"][0]
>>> card["label"], card["flags"]
('orange 6, Hypaspists', [1, 2, 3, 4, 5, 6, 7, 8, 9])
>>> w.taps.card("o6")                    # choose the orange 6 ...
>>> w.taps.legal_flags()
[1, 2, 3, 4, 5, 6, 7, 8, 9]
>>> w.taps.flag(5)                       # ... and play it at flag 5
>>> w.click_action("draw troops")        # the same taps, by notation
>>> [line for _turn, line, _notation in w.log_entries()][:2]
['South (you) plays orange 6, Hypaspists at flag 5', 'South (you) draws from the troop deck']
>>> w.state.turn_number  # the bot replied at once
3
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as W

from ..controllers.game import GameController
from ..controllers.view import GameView
from ..core.position import ClaimTiming
from ..game import Action, GameState, Player, parse_action
from ..game.advice import Advice
from ..game.bot_base import Bot
from ..game.review import Review
from ..game.session import BOT_CHOICES, GameSession, Say, Token, action_path
from ..text.messages import DEFAULT_LANGUAGE, THEMES, Bound, Theme, message, theme_of, themed
from ..training.progress import Progress
from ._common import Forwarded, GameBox, _classed, game_banner, language_toggle, set_visible, switch_lang
from .intents import game_intents

__all__ = ["BOT_CHOICES", "GameWidget", "action_path"]


#: The game's controls never cut a label (JupyterLab's widget styles give a button a fixed width and
#: an ellipsis, and let a menu's select shrink until "heuristic" is clipped): each control is as wide as
#: its words, and the row wraps instead.  Scoped to ``.bl-game-controls``; JupyterLab is untouched.
CONTROLS_STYLE = (
    "<style>"
    ".bl-game-controls{gap:2px 0}"
    ".bl-game-controls>.jupyter-widgets{flex:0 0 auto;max-width:100%}"
    ".bl-game-controls .jupyter-button{width:auto;min-width:max-content;overflow:visible}"
    ".bl-game-controls .bl-bot-choice,.bl-game-controls .bl-theme-choice{width:auto}"
    ".bl-game-controls .bl-bot-choice select,.bl-game-controls .bl-theme-choice select"
    "{flex:0 0 auto;width:auto;min-width:max-content}"
    ".bl-game-controls .widget-label{width:auto;min-width:0;max-width:none}"
    ".bl-game-controls>.bl-style{display:none}"
    "</style>"
)

#: The name of the learner's setting that remembers the game's theme.
THEME_SETTING = "theme"


def _learner_progress() -> Progress | None:
    """The learner's own progress (their data folder), or None when it cannot be opened."""
    try:
        return Progress()
    except Exception:  # noqa: BLE001 - a data folder that cannot be used: the choice holds for this widget only
        return None


def _remembered_theme(progress: Progress | None) -> str | None:
    """The theme the learner chose last (in ``progress``, else their data folder if it exists), or None."""
    if progress is None:
        from ..training.stores.folders import data_dir

        try:
            if not data_dir().is_dir():  # nothing chosen yet: no folder is made just to read
                return None
        except Exception:  # noqa: BLE001 - a setting that cannot be used: the classic theme
            return None
        progress = _learner_progress()
    name = progress.setting(THEME_SETTING) if progress is not None else None
    return name if name in THEMES else None


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


class GameWidget(GameBox):
    """Play Battle Line in the notebook against a bot, or two people on one screen (``bot=None``).

    You play south (at the bottom of the board); ``you_start`` says who plays first (R4 lets a
    seeded choice decide in the engine; here the learner chooses).  ``seed`` deals the game and
    seeds the bot, so a game is reproducible.  ``claim_timing`` is the R14 option.

    The board (:attr:`board`, hooks in ``docs/widgets.md``): hand cards ``[data-zone="hand"]``,
    flags ``.blb-flag[data-flag]`` (``data-legal``, ``data-claimable``), targets on the table
    ``[data-action="target"]``, the decks ``[data-action="draw"][data-deck]``, and the buttons
    ``[data-action="pass|end|discard|scout|cancel"]``; the notice (a refused claim with its
    proof) in ``[data-role="feedback"]``.  Around it, ipywidgets (CSS classes): the coach
    ``.bl-coach-toggle`` / ``.bl-coach``, the expert's suggestion on request
    ``.bl-coach-suggest``, the opponent ``.bl-bot-choice`` (random / heuristic / expert), the
    review at game end ``.bl-review`` / ``.bl-review-box`` / ``.bl-review-moment``, the log
    ``.bl-game-log``, the banner ``.bl-game-over`` and the language toggle ``.bl-lang``
    (English / 中文), which re-labels everything live, keeping the game and the choice in
    progress (:meth:`set_lang`).
    """

    controller: GameController

    def __new__(cls, *args: Any, players: int = 2, bots: Sequence[str] | None = None, **kwargs: Any) -> Any:
        """``GameWidget(players=3, bots=["heuristic", "random"])`` is the three-player game (R32-R37):
        a :class:`~battleline_lab.widgets.three.ThreeGameWidget` (``seed`` and ``lang`` as here)."""
        if players == 3:
            from .three import ThreeGameWidget

            return ThreeGameWidget(("heuristic", "random") if bots is None else bots, *args, **kwargs)
        if players != 2:
            raise ValueError(message("three_widget.bad_players", players=players))
        if bots is not None:
            raise ValueError(message("three_widget.bots_two"))
        return super().__new__(cls, *args, **kwargs)

    def __init__(
        self,
        bot: str | None = "heuristic",
        *,
        players: int = 2,  # 3, with ``bots``: the three-player game (made by __new__)
        bots: Sequence[str] | None = None,
        seed: int = 0,
        you_start: bool = True,
        lang: str = DEFAULT_LANGUAGE,
        claim_timing: str | ClaimTiming = ClaimTiming.AFTER_PLAY,
        theme: Theme | str | None = None,
        progress: Progress | None = None,
    ) -> None:
        self._progress = progress  # where the theme chosen in the menu is remembered (else the learner's own)
        if theme is None:
            theme = _remembered_theme(progress)
        #: the game (its session: every decision), its words and the board's view of it, in the learner's
        #: language; the widget draws what it reads here and forwards every click
        self.controller = GameController(
            GameSession(bot=bot, seed=seed, you_start=you_start, claim_timing=claim_timing, progress=progress),
            lang=themed(lang, theme),
        )
        self._drawn_moment: tuple[Review, int] | None = None  # the review moment whose puzzle is on show

        self._game_parts(game_intents(self.controller.hand_cards, self.controller.target_cards), self._refused)
        self.coach_toggle = W.ToggleButton(value=False, icon="graduation-cap", layout=W.Layout(width="auto"))
        self.coach_toggle.add_class("bl-coach-toggle")
        self.coach_toggle.observe(lambda c: self.show_coach(bool(c["new"])), names="value")
        self.coach = W.HTML()
        self.coach.add_class("bl-coach")
        # the expert's suggestion, only when asked (a hint), and the choice of opponent
        self.suggest_button = self._button("", ("bl-coach-suggest",))
        self.suggest_button.on_click(lambda _b: self.suggest_move())
        self._relabelling = False
        self.bot_choice = W.Dropdown(options=[(b, b) for b in BOT_CHOICES], value=bot or "heuristic")
        self.bot_choice.layout.width = "auto"
        self.bot_choice.add_class("bl-bot-choice")
        self.bot_choice.observe(lambda c: self.choose_bot(c["new"]), names="value")
        set_visible(self.bot_choice, bot is not None)
        # "an opponent at my level": the rated bot nearest the learner's game rating (game/ladder.py)
        self.level_button = self._button("", ("bl-bot-level",))
        self.level_button.on_click(lambda _b: self.choose_level())
        set_visible(self.level_button, bot is not None)
        # the theme (classic / 楚汉): only names change (the Leaders); remembered for the learner
        self.theme_choice = W.Dropdown(options=list(THEMES), value=theme_of(self.lang).name)
        self.theme_choice.layout.width = "auto"
        self.theme_choice.add_class("bl-theme-choice")
        self.theme_choice.observe(lambda c: self._theme_picked(c["new"]), names="value")
        # the review at game end: moments on a timeline, each opens as a puzzle
        self.review_button = self._button("", ("bl-review",), style="info")
        self.review_button.on_click(lambda _b: self.open_review())
        self.review_title = W.HTML()
        self.review_timeline = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.review_timeline.add_class("bl-review-timeline")
        self.review_saved = W.HTML()
        self.review_puzzle = W.VBox()
        self.review_puzzle.add_class("bl-review-puzzle")
        self.review_box = W.VBox([self.review_title, self.review_timeline, self.review_saved, self.review_puzzle])
        self.review_box.add_class("bl-review-box")
        self.log_view = W.HTML()
        self.log_view.add_class("bl-game-log")
        self.lang_toggle = language_toggle(lang, self.set_lang)
        super().__init__(
            [
                self.title,
                self.banner,
                self.board,
                _classed(
                    W.HBox(
                        [
                            _classed(W.HTML(CONTROLS_STYLE), "bl-style"),
                            self.coach_toggle,
                            self.suggest_button,
                            self.new_game_button,
                            self.bot_choice,
                            self.level_button,
                            self.theme_choice,
                            self.lang_toggle,
                        ],
                        layout=W.Layout(flex_flow="row wrap"),
                    ),
                    "bl-game-controls",
                ),
                self.coach,
                self.review_button,
                self.review_box,
                self.log_view,
            ]
        )
        self.add_class("bl-game")
        self._label()
        self.refresh()

    # -- the game's state, as attributes (what tests and lessons read): the controller's ------
    lang = Forwarded[str]("The language shown.", set_with="set_lang")
    session = Forwarded[GameSession]("The game and every decision about it (a lesson or test may ask it directly).")
    state = Forwarded[GameState]("The game; after setting it, call :meth:`refresh`.", settable=True)
    seed = Forwarded[int]("The seed of this deal (and of the bot).")
    human = Forwarded[Player]("The learner's seat (south).")
    bot = Forwarded[Bot | None]("The bot playing north (``None``: two people on one screen).")
    viewer = Forwarded[Player]("Whose view the board shows: you against a bot, else the player who must act now.")
    selection = Forwarded[tuple[Token, ...]]("The clicks made so far on the way to an action.")
    suggestion = Forwarded[Advice | None]("The strongest bot's last suggestion (given on request).")
    review_result = Forwarded[Review | None]("The review of the finished game, once asked for.", name="review")

    def set_lang(self, lang: str) -> None:
        """Show everything in ``lang`` (``"en"``, ``"zh"``), as the ``bl-lang`` toggle does; the game goes on."""
        if not switch_lang(self, lang):
            return
        self._label()
        self._render()

    def _label(self) -> None:
        """The labels that do not change during a game, in :attr:`lang` (the rest is drawn by ``_render``)."""
        t = self._t
        self.coach_toggle.description = t("game_widget.coach.toggle")
        self.new_game_button.description = t("game_widget.new_game")
        self.suggest_button.description = t("review.coach.button")
        self.review_button.description = t("review.widget.button")
        self._relabelling = True
        try:  # new labels, same values: the choice must not change
            value = self.bot_choice.value
            self.bot_choice.options = [(t(f"review.widget.bot.{b}"), b) for b in BOT_CHOICES]
            self.bot_choice.value = value
            self.bot_choice.description = t("review.widget.bot")
        finally:
            self._relabelling = False
        self.level_button.description = t("ladder.level_button")
        self._relabelling = True
        try:  # the theme's name in the language shown, same value
            value = self.theme_choice.value
            self.theme_choice.options = [(Theme(name).title(self.lang), name) for name in THEMES]
            self.theme_choice.value = value
            self.theme_choice.description = t("game_widget.theme")
        finally:
            self._relabelling = False

    # -- construction helpers ----------------------------------------------
    # -- words and the board's view: the controller's ---------------------------------
    @property
    def _t(self) -> Bound:
        """The catalogue in :attr:`lang`, the language shown now: ``self._t("game_widget.title", seed=...)``."""
        return self.controller.t

    def _say(self, said: Say) -> str:
        """The session's words in :attr:`lang`: players and cards named here."""
        return self.controller.say(said)

    def player_name(self, player: Player) -> str:
        """``South (you)``, ``North (heuristic bot)``, or ``North`` / ``South`` on one screen."""
        return self.controller.player_name(player)

    def board_view(self) -> GameView:
        """The board's view model now (the controller's): the session's state and offer, named in :attr:`lang`."""
        return self.controller.view()

    @staticmethod
    def _button(description: str, classes: Sequence[str], style: str = "") -> W.Button:
        button = W.Button(description=description, button_style=style, layout=W.Layout(width="auto"))
        for css in classes:
            button.add_class(css)
        return button

    # -- clicks and keys: forwarded to the controller, then everything is drawn again ----------
    def refresh(self) -> None:
        """Go on from :attr:`state` as it is (after a lesson or a test set ``widget.state`` itself) and draw it."""
        self.controller.resume()
        self._render()

    def legal(self) -> list[Action]:
        """The legal actions of the player to act now (the engine's list)."""
        return self.controller.legal()

    def offered(self, prefix: tuple[Token, ...] = ()) -> set[Token]:
        """The next clicks the legal moves allow after ``prefix``."""
        return self.controller.offered(prefix)

    def choose(self, token: Token) -> None:
        """One click on the way to an action: a card, a target, a flag, a deck, pass, end..."""
        if self.controller.choose(token).kind != "over":
            self._render()

    def cancel(self) -> None:
        """Drop the card (and target) chosen so far."""
        self.controller.cancel()
        self._render()

    def claim(self, flag: int) -> None:
        """The claim button of a flag: claim it if the engine allows, else show why not (R12, R14)."""
        if self.controller.claim(flag).kind != "over":
            self._render()

    def show_coach(self, shown: bool) -> None:
        """The ``bl-coach-toggle``: show or hide the coach."""
        self.controller.show_coach(shown)
        self._render()

    def choose_bot(self, name: str) -> None:
        """The opponent (``bl-bot-choice``): at once if the learner has not moved yet, else from the next game."""
        if self._relabelling:
            return
        self.controller.choose_bot(name)
        self._render()

    @property
    def theme(self) -> str:
        """The theme's name (``classic``, ``chuhan``): the Leaders' names in every text and on the cards."""
        return theme_of(self.lang).name

    def choose_theme(self, name: str) -> None:
        """The theme menu (``bl-theme-choice``): every text in ``name``'s words from now on, the game goes on,
        and the choice is remembered for the learner (a ``setting`` row of their progress, added through the
        store's one gate: :meth:`~battleline_lab.training.progress.Progress.record_setting`)."""
        theme = Theme.named(name)  # an unknown name: ValueError, nothing changes
        if theme.name != self.theme:
            self.controller.set_lang(themed(str(self.lang), theme))
            progress = self._progress if self._progress is not None else _learner_progress()
            if progress is not None:
                progress.record_setting(THEME_SETTING, theme.name)
        if self.theme_choice.value != theme.name:
            self.theme_choice.value = theme.name  # calls back with nothing left to change
        self._label()
        self._render()

    def _theme_picked(self, name: str) -> None:
        if not self._relabelling:
            self.choose_theme(name)

    def choose_level(self) -> None:
        """``bl-bot-level``: the opponent at the learner's level (:meth:`GameSession.choose_level`); the
        button's tooltip says the learner's rating and the bot's."""
        from ..game.ladder import bot_ratings

        name = self.controller.choose_level()
        rating = self.controller.learner_rating()
        self.level_button.tooltip = self._t(
            "ladder.level",
            rating=round(rating.rating),
            rd=round(rating.rd),
            bot=self._t(f"review.widget.bot.{name}"),
            bot_rating=round(bot_ratings()[name].rating),
        )
        self._relabelling = True
        try:
            self.bot_choice.value = self.controller.bot_name
        finally:
            self._relabelling = False
        self._render()

    def suggest_move(self) -> None:
        """The expert's play for the player to act, with its reason (only on request: it is a hint)."""
        self.controller.suggest_move()
        self._render()

    def open_review(self) -> None:
        """At game end: review the learner's game, show its moments on a timeline and save its puzzles
        for the trainer (``data_dir()/review/``)."""
        if self.controller.open_review() is not None:
            self._render()

    def open_moment(self, index: int) -> None:
        """Open review moment ``index`` as a puzzle board (the same PuzzleWidget as the gym)."""
        self.controller.open_moment(index)
        self.review_puzzle.children = ()  # a fresh board, also when the same moment is opened again
        self._render()

    def _on_intent(self, name: str, value: Any) -> None:
        """What the learner did on the board, checked by :func:`~battleline_lab.widgets.intents.game_intents`
        (a card in the hand, a flag 1-9, a deck...), forwarded to the controller (the session decides everything)."""
        if self.controller.intent(name, value):
            self._render()

    def _refused(self) -> None:
        """A tap the schema refused (stale or forged): the choice in progress stays as it was, the notice says
        the tap is not offered and the board is drawn again."""
        self.controller.refuse()
        self._render()

    def click_action(self, action: Action | str) -> None:
        """Tap the hooks that make ``action`` (notation or value), as a learner would.

        Raises ``ValueError`` if a hook on the way is not on offer (not drawn, or not tappable now).
        """
        if isinstance(action, str):
            action = parse_action(action)
        if self.controller.offer is None or list(self.controller.offer.legal) != self.controller.legal():
            self._render()  # the state changed under the board (a lesson moved on its own)
        taps = self.taps
        taps.selected = None
        try:
            for token in action_path(action):
                kind = token[0]
                if kind == "card":
                    taps.card(token[1].notation)
                elif kind == "target":
                    taps.target(token[1].notation)
                elif kind in ("flag", "claim"):
                    if kind == "claim" and token[1] not in taps.claimable_flags():
                        raise ValueError(f"flag {token[1]} is not marked claimable")
                    taps.flag(token[1])
                elif kind == "draw":
                    taps.draw(token[1].value)
                else:
                    taps.action(kind)
        except ValueError as err:
            taps.selected = None
            raise ValueError(self._t("game_widget.not_offered") + f" ({action.notation}: {err})") from None

    # -- words for what the game holds: the controller's ------------------------------------
    def log_entries(self) -> list[tuple[int, str, str]]:
        """The game log: (turn, sentence, notation) per action, oldest first; hidden cards stay hidden."""
        return self.controller.log_entries()

    def coach_lines(self) -> list[tuple[int, bool, str, list[str]]]:
        """The coach: per flag where the player to act has cards, (flag, claimable, summary, proof lines),
        claimable flags first (the controller's :meth:`~battleline_lab.controllers.game.GameController.coach_lines`)."""
        return self.controller.coach_lines()

    # -- drawing -----------------------------------------------------------------
    def _render(self) -> None:
        controller = self.controller
        state = self.state
        self._draw_heading(self._t("game_widget.title", seed=self.seed), state.over, self._banner())
        self.board.show(self.board_view())
        if self.coach_toggle.value != controller.coach_shown:  # the session may be told from Python too
            self.coach_toggle.value = controller.coach_shown
        self.coach.value = self._coach_html() if controller.coach_visible else ""
        set_visible(self.coach, controller.coach_visible)
        self._draw_review()
        self.log_view.value = self._log_html()

    def prompt_text(self) -> str:
        """What the board asks the player to act to do now (as the session says it)."""
        return str(self.board.view.get("prompt", ""))

    def picture(self) -> str:
        """The board as an SVG picture (what a saved notebook shows before anything runs)."""
        return self.controller.picture()

    def _banner(self) -> str:
        ending = self.controller.ending()
        if ending is None:
            return ""
        text, tally, won = ending
        return game_banner(text, won, tally)

    def _coach_html(self) -> str:
        heads = self.controller.coach_heads()
        items = []
        for n, claimable, head, proof in heads:
            css, colour = ("bl-coach-yes", "#2e7d32") if claimable else ("bl-coach-no", "#8d6e63")
            steps = "".join(f"<li>{_esc(line)}</li>" for line in proof)
            items.append(
                f'<details class="{css}" data-flag="{n}"><summary style="color:{colour}">{_esc(head)}</summary>'
                f"<ol>{steps}</ol></details>"
            )
        if not any(claimable for _n, claimable, _head, _proof in heads):
            items.insert(0, f'<div class="bl-coach-none">{_esc(self._t("game_widget.coach.none"))}</div>')
        title = _esc(self._t("game_widget.coach.title", player=self.player_name(self.state.to_act)))
        return (
            f'<div style="border:1px solid #b0bec5;border-radius:6px;padding:4px 8px;margin:4px 0;line-height:1.4">'
            f"<b>{title}</b>{''.join(items)}</div>"
        )

    def _draw_review(self) -> None:
        """The review at game end: the button, the moments on a timeline, where the puzzles went, the open one."""
        controller = self.controller
        result = controller.review
        set_visible(self.review_button, self.state.over)
        set_visible(self.review_box, result is not None)
        if result is None:
            self.review_timeline.children = ()
            self.review_title.value = self.review_saved.value = ""
            self.review_puzzle.children = ()
            return
        player = self._t(f"review.player.{result.player.value}")
        self.review_title.value = (
            f"<b>{_esc(self._t('review.widget.title', player=player, count=len(result.moments)))}</b>"
        )
        if not result.moments:
            self.review_title.value += f"<div>{_esc(self._t('review.none'))}</div>"
        buttons = list(self.review_timeline.children)
        while len(buttons) < len(result.moments):
            buttons.append(self._moment_button(len(buttons)))
        buttons = buttons[: len(result.moments)]
        for k, (button, moment) in enumerate(zip(buttons, result.moments)):
            kind = self._t(f"review.kind.{moment.kind.value}")
            button.description = self._t("review.widget.moment", turn=moment.turn, kind=kind)
            button.tooltip = moment.note(self.lang)
            button.button_style = "info" if k == controller.moment else ""
        self.review_timeline.children = tuple(buttons)
        self.review_saved.value = ""
        if controller.saved is not None:
            key, where = controller.saved
            param = "folder" if key == "saved" else "reason"
            text = _esc(self._t(f"review.widget.{key}", **{param: where}))
            self.review_saved.value = f'<span style="font-size:90%;color:#607d8b">{text}</span>'
        self._draw_moment()

    def _draw_moment(self) -> None:
        """The open review moment as a puzzle (the same PuzzleWidget as the gym), made once per moment."""
        from .puzzle import PuzzleWidget

        result, index = self.controller.review, self.controller.moment
        if result is None or index is None:
            self.review_puzzle.children = ()
            return
        shown = self.review_puzzle.children
        drawn = self._drawn_moment
        if shown and drawn is not None and drawn[0] is result and drawn[1] == index:
            if shown[0].lang != self.lang:
                shown[0].set_lang(self.lang)
        else:
            self.review_puzzle.children = (PuzzleWidget(result.moments[index].puzzle, lang=self.lang),)
            self._drawn_moment = (result, index)

    def _moment_button(self, index: int) -> W.Button:
        button = self._button("", ("bl-review-moment",))
        button.on_click(lambda _b: self.open_moment(index))
        return button

    def _log_html(self) -> str:
        entries = self.log_entries()
        if not entries:
            return f"<i>{_esc(self._t('game_widget.log.empty'))}</i>"
        turns: dict[int, list[str]] = {}
        for turn, sentence, notation in entries:
            turns.setdefault(turn, []).append(
                f'<div class="bl-log-line">{_esc(sentence)} <code style="color:#607d8b">{_esc(notation)}</code></div>'
            )
        blocks = [
            f'<div class="bl-log-turn" data-turn="{turn}"><b>{_esc(self._t("game_widget.log.turn", turn=turn))}</b>'
            f"{''.join(lines)}</div>"
            for turn, lines in sorted(turns.items(), reverse=True)
        ]
        heading = _esc(self._t("game_widget.log.title"))
        return (
            f"<b>{heading}</b>"
            f'<div role="log" tabindex="0" aria-label="{heading}" '
            'style="max-height:220px;overflow-y:auto;border:1px solid #cfd8dc;border-radius:6px;line-height:1.4;'
            f'padding:4px 8px;font-size:90%">{"".join(blocks)}</div>'
        )

    def __repr__(self) -> str:
        state = self.state
        against = f"against {self.bot.name}" if self.bot is not None else "and north on one screen"
        if state.over:
            status = f"over, {state.winner.value if state.winner else 'nobody'} won"
        else:
            status = f"{state.to_act.value} to {state.phase.value}"
        return f"<GameWidget seed {self.seed}, south {against}: turn {state.turn_number}, {status}>"
