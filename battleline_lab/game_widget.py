"""A Jupyter widget to play a game of Battle Line against a bot (or two people on one screen).

:class:`GameWidget` shows the same SVG board as the puzzles (:mod:`battleline_lab.svg`) from
the view of the player to act: the opponent's hand is hidden (R13).  The learner clicks a card
in their hand, then where it goes: a flag button under the board column, or for a guile card
first the card it acts on (Redeploy, Deserter, Traitor) and then the destination.  Scout draws
and returns, the Mud discard (R26), the claim step and the draw step have their own buttons.

The widget is a **view** over a :class:`~battleline_lab.game.session.GameSession`, which holds
the game and makes every decision (whose turn, what can be chosen, the learner's move and the
bot's replies, claims, the coach, the suggestion, the review, a new game), from the engine: every
button it enables comes from :func:`battleline_lab.game.legal_moves`, every effect from
:func:`battleline_lab.game.apply`, and every claim verdict, proof and counterexample from
:func:`battleline_lab.game.explain_claim` (the engine's claim proof from the player's view, R12,
R13).  The widget draws the session's state (:meth:`GameWidget.refresh`) and forwards clicks.
A click that the engine refuses (a claim it cannot prove, or at the wrong time, R14) shows the
engine's reason.  Every string comes from the message catalogue (``locale/<lang>/game_widget.json``).

It can be driven from Python as from the browser: ``widget.hand_buttons[0].click()``, or
:meth:`GameWidget.click_action` to click the buttons that make one action.

>>> w = GameWidget(bot="heuristic", seed=3)
>>> w
<GameWidget seed 3, south against heuristic: turn 1, south to play>
>>> w.hand_buttons[0].description, w.hand_buttons[0].disabled
('6 O · Hypaspists', False)
>>> w.hand_buttons[0].click()            # choose the orange 6 ...
>>> [n for n, b in w.flag_buttons.items() if not b.disabled]
[1, 2, 3, 4, 5, 6, 7, 8, 9]
>>> w.flag_buttons[5].click()            # ... and play it at flag 5
>>> w.click_action("draw troops")        # the same clicks, by notation
>>> [line for _turn, line, _notation in w.log_entries()][:2]
['South (you) plays orange 6, Hypaspists at flag 5', 'South (you) draws from the troop deck']
>>> w.state.turn_number  # the bot replied at once
3
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W

from .cards import Card, Tactic, Troop
from .game import Action, Deck, GameState, Player, describe, parse_action, to_position
from .game.bots import Bot
from .game.expert import Suggestion, suggestion_text
from .game.record import illegal_reason
from .game.review import Review
from .game.session import BOT_CHOICES, CoachFinding, GameSession, Notice, Offer, Say, Token, action_path
from .messages import DEFAULT_LANGUAGE, card_label, catalogue, message, render_analysis
from .position import FLAGS, ClaimTiming, Side
from .svg import COLOURS, TACTIC_COLOURS, board_svg
from .widgets import FOCUS_STYLE, board_view, flag_grid, language_toggle, set_visible, switch_lang

__all__ = ["BOT_CHOICES", "GameWidget", "action_path"]


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _body(line: str) -> str:
    """A rendered proof line without its number (``3. text`` -> ``text``)."""
    head, _, rest = line.partition(". ")
    return rest if head.isdigit() else line


class GameWidget(W.VBox):  # type: ignore[misc]
    """Play Battle Line in the notebook against a bot, or two people on one screen (``bot=None``).

    You play south (at the bottom of the board); ``you_start`` says who plays first (R4 lets a
    seeded choice decide in the engine; here the learner chooses).  ``seed`` deals the game and
    seeds the bot, so a game is reproducible.  ``claim_timing`` is the R14 option.

    Controls (CSS classes for the browser tests): the hand ``.bl-hand-card``, the flag row
    ``.bl-flag-button-<n>``, cards on the table for guile cards and the Mud discard
    ``.bl-target``, ``.bl-discard-choice``, ``.bl-scout-go``, ``.bl-draw-troops|tactics``,
    ``.bl-pass``, ``.bl-end-claims``, ``.bl-cancel``, the claim row ``.bl-claim-<n>``, the
    coach ``.bl-coach-toggle`` / ``.bl-coach``, the expert's suggestion on request
    ``.bl-coach-suggest``, the opponent ``.bl-bot-choice`` (random / heuristic / expert), the
    review at game end ``.bl-review`` / ``.bl-review-box`` / ``.bl-review-moment``, the log
    ``.bl-game-log``, the message
    ``.bl-game-message``, the prompt ``.bl-game-prompt``, the banner ``.bl-game-over`` and the
    language toggle ``.bl-lang`` (English / 中文), which re-labels every button, prompt, message,
    proof and the log live, keeping the game and the choice in progress (:meth:`set_lang`).
    """

    def __init__(
        self,
        bot: str | None = "heuristic",
        *,
        seed: int = 0,
        you_start: bool = True,
        lang: str = DEFAULT_LANGUAGE,
        claim_timing: str | ClaimTiming = ClaimTiming.AFTER_PLAY,
    ) -> None:
        self.lang = lang
        #: the game and every decision about it; the widget draws it and forwards clicks
        self.session = GameSession(bot=bot, seed=seed, you_start=you_start, claim_timing=claim_timing)
        self._offer: Offer | None = None  # what the buttons on show offer (drawn by refresh())
        self._said: tuple[Notice, str, str] | None = None  # the notice drawn last, in a language (a cache)
        self._drawn_moment: tuple[Review, int] | None = None  # the review moment whose puzzle is on show

        self.title = W.HTML()
        self.title.add_class("bl-game-title")
        self.banner = W.HTML()
        self.banner.add_class("bl-game-over")
        self.info = W.HTML()
        self.info.add_class("bl-game-info")
        self.board = board_view()
        self.prompt = W.HTML()
        self.prompt.add_class("bl-game-prompt")
        self.message_box = W.HTML()
        self.message_box.add_class("bl-game-message")

        # one button per board column, for destinations (a card's flag, Redeploy, Traitor)
        self.flag_buttons: dict[int, W.Button] = {}
        for n in FLAGS:
            b = self._button("", ("bl-flag-button", f"bl-flag-button-{n}"))
            b.on_click(lambda _b, n=n: self.choose(("flag", n)))
            self.flag_buttons[n] = b
        self.flag_row = flag_grid(list(self.flag_buttons.values()), "bl-flag-row")  # under the board's columns
        self.claim_buttons: dict[int, W.Button] = {}
        for n in FLAGS:
            b = self._button("", ("bl-claim", f"bl-claim-{n}"))
            b.style.font_size = "12px"
            b.on_click(lambda _b, n=n: self.claim(n))
            self.claim_buttons[n] = b
        self.claim_row = flag_grid(list(self.claim_buttons.values()), "bl-claim-row")

        self.hand_buttons: list[W.Button] = []
        self._hand_cards: list[Card] = []
        self.hand_row = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.hand_row.add_class("bl-hand-row")
        self.hand_label = W.HTML()
        self.target_buttons: list[W.Button] = []
        self._target_cards: list[Card] = []
        self.target_label = W.HTML()
        self.target_row = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.target_row.add_class("bl-target-row")
        self.target_box = W.VBox([self.target_label, self.target_row])

        self.discard_button = self._button("", ("bl-discard-choice",))
        self.discard_button.on_click(lambda _b: self.choose(("discard",)))
        self.scout_button = self._button("", ("bl-scout-go",), style="primary")
        self.scout_button.on_click(lambda _b: self.choose(("scout",)))
        self.draw_buttons: dict[Deck, W.Button] = {}
        for deck in Deck:
            b = self._button("", (f"bl-draw-{deck.value}",), style="primary")
            b.on_click(lambda _b, d=deck: self.choose(("draw", d)))
            self.draw_buttons[deck] = b
        self.pass_button = self._button("", ("bl-pass",), style="warning")
        self.pass_button.on_click(lambda _b: self.choose(("pass",)))
        self.end_button = self._button("", ("bl-end-claims",))
        self.end_button.on_click(lambda _b: self.choose(("end",)))
        self.cancel_button = self._button("", ("bl-cancel",))
        self.cancel_button.on_click(lambda _b: self.cancel())
        self.actions_row = W.HBox(
            [
                self.scout_button,
                self.discard_button,
                *self.draw_buttons.values(),
                self.pass_button,
                self.end_button,
                self.cancel_button,
            ],
            layout=W.Layout(flex_flow="row wrap"),
        )
        self.actions_row.add_class("bl-actions-row")

        self.coach_toggle = W.ToggleButton(value=False, icon="graduation-cap")
        self.coach_toggle.add_class("bl-coach-toggle")
        self.coach_toggle.observe(lambda c: self.show_coach(bool(c["new"])), names="value")
        self.coach = W.HTML()
        self.coach.add_class("bl-coach")
        self.new_game_button = self._button("", ("bl-new-game",))
        self.new_game_button.on_click(lambda _b: self.new_game())
        # the expert's suggestion, only when asked (a hint), and the choice of opponent
        self.suggest_button = self._button("", ("bl-coach-suggest",))
        self.suggest_button.on_click(lambda _b: self.suggest_move())
        self._relabelling = False
        self.bot_choice = W.Dropdown(options=[(b, b) for b in BOT_CHOICES], value=bot or "heuristic")
        self.bot_choice.layout.width = "auto"
        self.bot_choice.add_class("bl-bot-choice")
        self.bot_choice.observe(lambda c: self.choose_bot(c["new"]), names="value")
        set_visible(self.bot_choice, bot is not None)
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
        controls = W.VBox(
            [
                self.prompt,
                self.hand_label,
                self.hand_row,
                self.target_box,
                self.actions_row,
                self.message_box,
            ]
        )
        controls.add_class("bl-game-controls")
        super().__init__(
            [
                W.HTML(FOCUS_STYLE),
                self.title,
                self.banner,
                self.info,
                self.claim_row,
                self.board,
                self.flag_row,
                controls,
                W.HBox(
                    [
                        self.coach_toggle,
                        self.suggest_button,
                        self.new_game_button,
                        self.bot_choice,
                        self.lang_toggle,
                    ]
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

    # -- the session's state, as attributes (what tests and lessons read) -------------------
    @property
    def state(self) -> GameState:
        """The game (the session's); after setting it, call :meth:`refresh`."""
        return self.session.state

    @state.setter
    def state(self, state: GameState) -> None:
        self.session.state = state

    @property
    def seed(self) -> int:
        """The seed of this deal (and of the bot)."""
        return self.session.seed

    @property
    def human(self) -> Player:
        """The learner's seat (south)."""
        return self.session.human

    @property
    def bot(self) -> Bot | None:
        """The bot playing north (``None``: two people on one screen)."""
        return self.session.bot

    @property
    def viewer(self) -> Player:
        """Whose view the board shows: you against a bot, else the player who must act now."""
        return self.session.viewer

    @property
    def selection(self) -> tuple[Token, ...]:
        """The clicks made so far on the way to an action."""
        return self.session.selection

    @property
    def suggestion(self) -> Suggestion | None:
        """The expert's last suggestion (given on request)."""
        return self.session.suggestion

    @property
    def review_result(self) -> Review | None:
        """The review of the finished game, once asked for."""
        return self.session.review

    def set_lang(self, lang: str) -> None:
        """Show everything in ``lang`` (``"en"``, ``"zh"``), as the ``bl-lang`` toggle does; the game goes on."""
        if not switch_lang(self, lang):
            return
        self._label()
        self._render()

    def _label(self) -> None:
        """The labels that do not change during a game, in :attr:`lang` (the rest is drawn by ``_render``)."""
        t = self._t
        for n, b in self.flag_buttons.items():
            b.description = t("game_widget.flag_button", flag=n)
        self.hand_label.value = f"<b>{_esc(t('game_widget.hand'))}</b>"
        self.discard_button.description = t("game_widget.discard_choice")
        self.scout_button.description = t("game_widget.scout_go")
        self.pass_button.description = t("game_widget.pass")
        self.end_button.description = t("game_widget.end_claims")
        self.cancel_button.description = t("game_widget.cancel")
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

    # -- construction helpers ----------------------------------------------
    def _t(self, key: str, /, **params: object) -> str:
        return message(key, self.lang, **params)

    def _say(self, said: Say) -> str:
        """The session's words in :attr:`lang`: players and cards named here."""
        key, params = said
        return self._t(key, **{k: self._name(v) for k, v in params.items()})

    def _name(self, value: Any) -> object:
        if isinstance(value, Player):
            return self.player_name(value)
        if isinstance(value, (Troop, Tactic)):
            return card_label(value, self.lang)
        return "" if value is None else value

    @staticmethod
    def _button(description: str, classes: Sequence[str], style: str = "") -> W.Button:
        button = W.Button(description=description, button_style=style, layout=W.Layout(width="auto"))
        for css in classes:
            button.add_class(css)
        return button

    # -- players -----------------------------------------------------------
    def _bot_name(self) -> str:
        """The bot's name in the widget's language (``heuristic`` / ``启发式``); a bot without one keeps its own."""
        assert self.bot is not None
        key = f"bot.{self.bot.name}"
        return self._t(key) if key in catalogue(self.lang) else self.bot.name

    def player_name(self, player: Player) -> str:
        """``South (you)``, ``North (heuristic bot)``, or ``North`` / ``South`` on one screen."""
        if self.bot is None:
            return self._t(f"game_widget.name.{player.value}")
        if player is self.human:
            return self._t("game_widget.name.you", player=self._t(f"game_widget.name.{player.value}"))
        return self._t("game_widget.name.bot", player=self._t(f"game_widget.name.{player.value}"), bot=self._bot_name())

    # -- clicks and keys: forwarded to the session, then everything is drawn again ----------
    def restart(self, seed: int | None = None) -> None:
        """Deal a new game (the same seed gives the same game and the same bot replies)."""
        self.session.restart(seed)
        self._render()

    def new_game(self) -> None:
        """The ``bl-new-game`` button: the next deal."""
        self.session.new_game()
        self._render()

    def refresh(self) -> None:
        """Go on from :attr:`state` as it is (after a lesson or a test set ``widget.state`` itself) and draw it."""
        self.session.resume()
        self._render()

    def legal(self) -> list[Action]:
        """The legal actions of the player to act now (the engine's list)."""
        return self.session.legal()

    def offered(self, prefix: tuple[Token, ...] = ()) -> set[Token]:
        """The next clicks the legal moves allow after ``prefix``."""
        return self.session.offered(prefix)

    def choose(self, token: Token) -> None:
        """One click on the way to an action: a card, a target, a flag, a deck, pass, end..."""
        if self.session.choose(token).kind != "over":
            self._render()

    def cancel(self) -> None:
        """Drop the card (and target) chosen so far."""
        self.session.cancel()
        self._render()

    def claim(self, flag: int) -> None:
        """The claim button of a flag: claim it if the engine allows, else show why not (R12, R14)."""
        if self.session.claim(flag).kind != "over":
            self._render()

    def show_coach(self, shown: bool) -> None:
        """The ``bl-coach-toggle``: show or hide the coach."""
        self.session.show_coach(shown)
        self._render()

    def choose_bot(self, name: str) -> None:
        """The opponent (``bl-bot-choice``): at once if the learner has not moved yet, else from the next game."""
        if self._relabelling:
            return
        self.session.choose_bot(name)
        self._render()

    def suggest_move(self) -> None:
        """The expert's play for the player to act, with its reason (only on request: it is a hint)."""
        self.session.suggest_move()
        self._render()

    def open_review(self) -> None:
        """At game end: review the learner's game, show its moments on a timeline and save its puzzles
        for the trainer (``data_dir()/review/``)."""
        if self.session.open_review() is not None:
            self._render()

    def open_moment(self, index: int) -> None:
        """Open review moment ``index`` as a puzzle board (the same PuzzleWidget as the gym)."""
        self.session.open_moment(index)
        self.review_puzzle.children = ()  # a fresh board, also when the same moment is opened again
        self._render()

    def click_action(self, action: Action | str) -> None:
        """Click the buttons that make ``action`` (notation or value), as a learner would.

        Raises ``ValueError`` if a button on the way is not offered (hidden or disabled).
        """
        if isinstance(action, str):
            action = parse_action(action)
        if self._offer is None or list(self._offer.legal) != self.session.legal():
            self._render()  # the state changed under the buttons (a lesson moved on its own)
        for token in action_path(action):
            button = self.button_for(token)
            if button is None or button.disabled or button.layout.display == "none":
                raise ValueError(self._t("game_widget.not_offered") + f" ({action.notation}: {token})")
            button.click()

    def button_for(self, token: Token) -> W.Button | None:
        """The button a click token maps to, if it is on show."""
        kind = token[0]
        if kind == "card":
            return next((b for b, c in zip(self.hand_buttons, self._hand_cards) if c == token[1]), None)
        if kind == "target":
            return next((b for b, c in zip(self.target_buttons, self._target_cards) if c == token[1]), None)
        if kind == "flag":
            return self.flag_buttons[token[1]]
        if kind == "claim":
            return self.claim_buttons[token[1]]
        if kind == "draw":
            return self.draw_buttons[token[1]]
        return {
            "discard": self.discard_button,
            "scout": self.scout_button,
            "pass": self.pass_button,
            "end": self.end_button,
        }.get(kind)

    # -- words for what the session holds ---------------------------------------------------
    def log_entries(self) -> list[tuple[int, str, str]]:
        """The game log: (turn, sentence, notation) per action, oldest first; hidden cards stay hidden."""
        return [
            (turn, describe(action, self.player_name(actor), self.lang), "return ?" if hidden else action.notation)
            for turn, actor, action, hidden in self.session.log()  # R27: a card returned by the opponent's Scout
        ]

    def coach_lines(self) -> list[tuple[int, bool, str, list[str]]]:
        """The coach: per flag where the player to act has cards, (flag, claimable, summary, proof lines).

        Claimable flags first (the session's :meth:`~battleline_lab.game.session.GameSession.coach`,
        from the engine's claim step), then flags where a complete formation still can be beaten.
        """
        return [(f.flag, f.claimable, *self._proof(f)) for f in self.session.coach()]

    def _proof(self, finding: CoachFinding) -> tuple[str, list[str]]:
        """A coach finding's proof lines in :attr:`lang`, and the one the verdict turns on."""
        analysis = finding.analysis
        lines = [_body(line) for line in render_analysis(analysis, self.lang)]
        return lines[analysis.steps.index(analysis.deciding_step())], lines

    def _notice_words(self, notice: Notice) -> tuple[str, str]:
        """A notice's text and extra HTML in :attr:`lang`."""
        lang, state = self.lang, self.state
        kind = notice.kind
        if kind == "not_offered":
            return self._t("game_widget.not_offered"), ""
        if kind == "claimed":
            return self._t("game_widget.claimed", flag=notice.flag), ""
        if kind == "bot_next":
            return self._t("review.widget.bot_next", bot=self._t(f"review.widget.bot.{notice.bot}")), ""
        if kind == "not_now":
            return self._t("review.coach.not_now"), ""
        if kind == "suggestion":
            assert notice.view is not None and notice.suggestion is not None
            first, *rest = suggestion_text(notice.view, notice.suggestion, lang)
            return first, '<ul class="bl-suggestion">' + "".join(f"<li>{_esc(x)}</li>" for x in rest) + "</ul>"
        assert kind == "refused" and notice.error is not None
        analysis = notice.analysis
        if analysis is None:  # a move refused: the state changed under a stale button
            return self._t("game_widget.refused", reason=illegal_reason(notice.error, state, lang)), ""
        proof = "".join(f"<li>{_esc(_body(line))}</li>" for line in render_analysis(analysis, lang))
        # the proof first; the engine's other reason (R14 timing, R15) only when the proof holds
        if analysis.claimable:
            reason = illegal_reason(notice.error, state, lang)
            text = self._t("game_widget.claim_later", flag=notice.flag, reason=reason)
        else:
            text = self._t("game_widget.claim_refused", flag=notice.flag)
        return text, f'<ol class="bl-claim-proof">{proof}</ol>'

    def _message_html(self) -> str:
        notice = self.session.notice
        if notice is None or not notice.tone:
            return ""
        if self._said is None or self._said[0] is not notice or self._said[1] != self.lang:
            text, extra = self._notice_words(notice)
            colour = {"refused": "#c62828", "claimed": "#2e7d32", "info": "#607d8b"}[notice.tone]
            drawn = (
                f'<div class="bl-game-message-{notice.tone}" style="border-left:5px solid {colour};padding:4px 8px;'
                f'line-height:1.4;margin:4px 0"><b style="color:{colour}">{_esc(text)}</b>'
                f"{extra}</div>"
            )
            self._said = (notice, self.lang, drawn)
        return self._said[2]

    # -- drawing -----------------------------------------------------------------
    def _render(self) -> None:
        session = self.session
        state = self.state
        offer = self._offer = session.offer()
        viewer = self.viewer
        view = session.view()
        over = state.over
        first, current = offer.first, offer.current
        self.title.value = f"<h3>{_esc(self._t('game_widget.title', seed=self.seed))}</h3>"

        # hand: a button per card, enabled where a legal move starts with it
        hand = session.hand()
        self._hand_cards = hand
        self.hand_buttons = self._pool(self.hand_buttons, len(hand), self._new_hand_button)
        for button, card in zip(self.hand_buttons, hand):
            self._style_card_button(button, card, chosen=card == offer.card)
            button.disabled = ("card", card) not in first
        self.hand_row.children = self.hand_buttons[: len(hand)]

        # cards on the table a guile card (or the Mud discard) acts on
        self._target_cards = [card for card, _flag in offer.targets]
        self.target_buttons = self._pool(self.target_buttons, len(offer.targets), self._new_target_button)
        for button, (card, where) in zip(self.target_buttons, offer.targets):
            button.description = self._t("game_widget.target", card=card.notation, flag=where or "?")
            button.tooltip = card_label(card, self.lang)
            button.disabled = False
            button.button_style = "info" if card == offer.target else ""
        self.target_row.children = self.target_buttons[: len(offer.targets)]
        target_key = session.target_prompt()
        self.target_label.value = _esc(self._t(target_key)) if offer.targets and target_key else ""
        set_visible(self.target_box, bool(offer.targets))

        for n, button in self.flag_buttons.items():
            button.disabled = ("flag", n) not in current
            button.button_style = "success" if ("flag", n) in current else ""
        for n, button in self.claim_buttons.items():
            owner = view.claimed_by(n)
            button.disabled = n not in offer.claims
            button.button_style = "success" if ("claim", n) in first else ""
            button.description = (
                self._t("game_widget.claim_button", flag=n)
                if owner is None
                else self._t(f"game_widget.claimed_by.{'you' if owner is viewer else 'opponent'}", flag=n)
            )
        self.discard_button.disabled = ("discard",) not in current
        set_visible(self.discard_button, ("discard",) in current)
        set_visible(self.scout_button, ("scout",) in current)
        self.scout_button.disabled = ("scout",) not in current
        sizes = view.deck_sizes
        for deck, button in self.draw_buttons.items():
            button.description = self._t(f"game_widget.draw.{deck.value}", count=sizes[deck.value])
            button.disabled = ("draw", deck) not in first
            set_visible(button, offer.draw)
        set_visible(self.pass_button, ("pass",) in first)
        self.pass_button.disabled = ("pass",) not in first
        set_visible(self.end_button, ("end",) in first)
        self.end_button.disabled = ("end",) not in first
        set_visible(self.cancel_button, bool(self.selection))

        prompt = self._say(session.prompt(offer))
        self.prompt.value = f"<b>{_esc(prompt[:1].upper() + prompt[1:])}</b>"
        self.message_box.value = self._message_html()
        self.info.value = self._info()
        self.banner.value = self._banner()
        set_visible(self.banner, over)
        position = to_position(state, viewer, hand=False)  # the hand is the row of buttons below
        if over:  # the game is over: the bot's (the other player's) hand is shown at last
            position = dataclasses.replace(position, hand_opponent=session.revealed_hand())
        self.new_game_button.button_style = "primary" if over else ""
        notice = session.notice
        ghosts = {(notice.flag, Side.OPPONENT): notice.ghosts} if notice and notice.flag and notice.ghosts else {}
        self.board.value = board_svg(
            position,
            highlight=session.highlight(),
            ghosts=ghosts,
            focus=offer.flags,
            lang=self.lang,
        )
        if self.coach_toggle.value != session.coach_shown:  # the session may be told from Python too
            self.coach_toggle.value = session.coach_shown
        self.coach.value = self._coach_html() if session.coach_visible else ""
        set_visible(self.coach, session.coach_visible)
        self._draw_review()
        self.log_view.value = self._log_html()

    @staticmethod
    def _pool(buttons: list[W.Button], count: int, make: Callable[[int], W.Button]) -> list[W.Button]:
        """Reuse buttons (no new widget models per click); add some when more are needed."""
        while len(buttons) < count:
            buttons = buttons + [make(len(buttons))]
        return buttons

    def _new_hand_button(self, index: int) -> W.Button:
        button = self._button("", ("bl-hand-card",))
        button.on_click(lambda _b: self._pick(self._hand_cards, index, "card"))
        return button

    def _new_target_button(self, index: int) -> W.Button:
        button = self._button("", ("bl-target",))
        button.on_click(lambda _b: self._pick(self._target_cards, index, "target"))
        return button

    def _pick(self, cards: list[Card], index: int, kind: str) -> None:
        if index < len(cards):  # a pooled button beyond the cards on show does nothing
            self.choose((kind, cards[index]))

    def _style_card_button(self, button: W.Button, card: Card, *, chosen: bool) -> None:
        """A hand card in its colour (with its colour letter, as on the board); the chosen one marked."""
        lang = self.lang
        if isinstance(card, Troop):
            fill, ink = COLOURS[card.colour]
            button.description = self._t(
                "game_widget.card",
                value=card.value,
                letter=self._t(f"board.letter.{card.colour.letter}"),
                name=self._t(f"troop.{card.value}"),
            )
        else:
            fill, ink = TACTIC_COLOURS[card.group]
            button.description = card_label(card, lang)
        if chosen:
            button.description = self._t("game_widget.chosen", card=button.description)
        button.tooltip = card_label(card, lang)
        button.layout.border = "3px solid #ff00aa" if chosen else ""
        button.style.button_color = fill
        button.style.text_color = ink
        button.style.font_weight = "bold"

    def _info(self) -> str:
        state = self.state
        view = self.session.view()
        viewer = view.player
        other = viewer.other
        sizes = view.deck_sizes
        mine, theirs = self.session.tally()
        parts = [
            self._t(
                "game_widget.tally",
                me=self.player_name(viewer),
                mine=mine,
                other=self.player_name(other),
                theirs=theirs,
            ),
            self._t("game_widget.info.turn", turn=state.turn_number, player=self.player_name(state.turn)),
            self._t("game_widget.info.decks", troops=sizes["troops"], tactics=sizes["tactics"]),
            self._t("game_widget.info.hand", player=self.player_name(other), count=view.opponent_hand_size),
            self._t(
                "game_widget.info.tactics",
                mine=view.tactics_played(viewer),
                theirs=view.tactics_played(other),
                player=self.player_name(other),
            ),
        ]
        return (
            '<div style="font-size:90%;color:#37474f;line-height:1.4"><b class="bl-tally">'
            + _esc(parts[0])
            + "</b> · "
            + " · ".join(_esc(p) for p in parts[1:])
            + "</div>"
        )

    def _banner(self) -> str:
        outcome = self.session.outcome()
        if outcome is None:
            return ""
        reason = self._t(f"game.cli.reason.{outcome.reason.value}") if outcome.reason else ""
        if outcome.winner is None:
            text = self._t("game_widget.over.draw", reason=reason)
        else:
            text = self._t(
                "game_widget.over.winner",
                player=self.player_name(outcome.winner),
                reason=reason,
                flags=", ".join(map(str, outcome.flags)),
            )
        human = self.human
        tally = self._t(
            "game_widget.over.points",
            you=self.player_name(human),
            mine=outcome.points[human],
            other=self.player_name(human.other),
            theirs=outcome.points[human.other],
        )
        colour = "#2e7d32" if outcome.winner is self.viewer else "#b71c1c"
        return (
            f'<div style="background:{colour};color:#fff;padding:8px 12px;border-radius:6px;font-size:120%">'
            f"<b>{_esc(text)}</b><br><span style='font-size:85%'>{_esc(tally)}</span></div>"
        )

    def _coach_html(self) -> str:
        findings = self.session.coach()
        timing = self._t(f"game.timing.{self.session.claim_timing.value}")
        items = []
        for finding in findings:
            n, (summary, proof) = finding.flag, self._proof(finding)
            if finding.claimable:
                when = (
                    self._t("game_widget.coach.now", flag=n)
                    if finding.now
                    else self._t("game_widget.coach.when", timing=timing)
                )
                head = self._t("game_widget.coach.claimable", flag=n, why=summary, when=when)
                css, colour = "bl-coach-yes", "#2e7d32"
            else:
                head = self._t("game_widget.coach.not_yet", flag=n, why=summary)
                css, colour = "bl-coach-no", "#8d6e63"
            steps = "".join(f"<li>{_esc(line)}</li>" for line in proof)
            items.append(
                f'<details class="{css}" data-flag="{n}"><summary style="color:{colour}">{_esc(head)}</summary>'
                f"<ol>{steps}</ol></details>"
            )
        if not any(f.claimable for f in findings):
            items.insert(0, f'<div class="bl-coach-none">{_esc(self._t("game_widget.coach.none"))}</div>')
        title = _esc(self._t("game_widget.coach.title", player=self.player_name(self.state.to_act)))
        return (
            f'<div style="border:1px solid #b0bec5;border-radius:6px;padding:4px 8px;margin:4px 0;line-height:1.4">'
            f"<b>{title}</b>{''.join(items)}</div>"
        )

    def _draw_review(self) -> None:
        """The review at game end: the button, the moments on a timeline, where the puzzles went, the open one."""
        session = self.session
        result = session.review
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
            button.button_style = "info" if k == session.moment else ""
        self.review_timeline.children = tuple(buttons)
        self.review_saved.value = ""
        if session.saved is not None:
            key, where = session.saved
            param = "folder" if key == "saved" else "reason"
            text = _esc(self._t(f"review.widget.{key}", **{param: where}))
            self.review_saved.value = f'<span style="font-size:90%;color:#607d8b">{text}</span>'
        self._draw_moment()

    def _draw_moment(self) -> None:
        """The open review moment as a puzzle (the same PuzzleWidget as the gym), made once per moment."""
        from .widgets import PuzzleWidget

        result, index = self.session.review, self.session.moment
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
