"""A Jupyter widget to play a game of Battle Line against a bot (or two people on one screen).

:class:`GameWidget` shows the same SVG board as the puzzles (:mod:`battleline_lab.svg`) from
the view of the player to act: the opponent's hand is hidden (R13).  The learner clicks a card
in their hand, then where it goes: a flag button under the board column, or for a guile card
first the card it acts on (Redeploy, Deserter, Traitor) and then the destination.  Scout draws
and returns, the Mud discard (R26), the claim step and the draw step have their own buttons.

The widget holds **no rule logic**: every button it enables comes from
:func:`battleline_lab.game.legal_moves`, every effect from :func:`battleline_lab.game.apply`,
and every claim verdict, proof and counterexample from :func:`battleline_lab.game.explain_claim`
(the engine's claim proof from the player's view, R12, R13).  A click that the engine refuses
(a claim it cannot prove, or at the wrong time, R14) shows the engine's reason.  Every string
comes from the message catalogue (``locale/<lang>/game_widget.json``).

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
from typing import Any, TypeAlias

import ipywidgets as W

from .cards import Card, Tactic, Troop, card_sort_key
from .claims import ClaimAnalysis, Reason
from .game import (
    Action,
    Claim,
    Deck,
    Deserter,
    Draw,
    EndClaims,
    GameState,
    IllegalMoveError,
    MudDiscard,
    Options,
    Phase,
    PlayCard,
    Player,
    PlayerView,
    PlayScout,
    Redeploy,
    ReturnCard,
    Traitor,
    apply,
    claimable,
    describe,
    explain_claim,
    legal_moves,
    make_bot,
    new_game,
    parse_action,
    score,
    to_position,
)
from .game.bots import Bot
from .game.expert import Suggestion, suggest, suggestion_text
from .game.record import illegal_reason
from .game.review import Review, review, save_for_learner
from .messages import DEFAULT_LANGUAGE, LANGUAGES, card_label, catalogue, message, render_analysis
from .position import FLAGS, ClaimTiming, Side
from .svg import COLOURS, TACTIC_COLOURS, board_svg
from .widgets import FOCUS_STYLE, board_view, flag_grid, language_toggle, set_visible, switch_lang

__all__ = ["BOT_CHOICES", "GameWidget", "action_path"]

#: The opponents a learner can choose (``bl-bot-choice``), weakest first.
BOT_CHOICES = ("random", "heuristic", "expert")

#: One choice on the way to an action: ``("card", c)``, ``("target", c)``, ``("flag", n)``,
#: ``("discard",)``, ``("scout",)``, ``("draw", deck)``, ``("claim", n)``, ``("end",)``, ``("pass",)``.
Token: TypeAlias = tuple[Any, ...]


def action_path(action: Action) -> tuple[Token, ...]:
    """The clicks that make ``action``: which button first, which next (no rule logic, only shape).

    >>> from battleline_lab.game import parse_action
    >>> action_path(parse_action("traitor b8 6"))
    (('card', traitor), ('target', b8), ('flag', 6))
    >>> action_path(parse_action("redeploy fog discard"))
    (('card', redeploy), ('target', fog), ('discard',))
    """
    if isinstance(action, PlayCard):
        return (("card", action.card), ("flag", action.flag))
    if isinstance(action, PlayScout):
        return (("card", Tactic.SCOUT), ("scout",))
    if isinstance(action, Redeploy):
        last: Token = ("discard",) if action.to is None else ("flag", action.to)
        return (("card", Tactic.REDEPLOY), ("target", action.target), last)
    if isinstance(action, Deserter):
        return (("card", Tactic.DESERTER), ("target", action.target))
    if isinstance(action, Traitor):
        return (("card", Tactic.TRAITOR), ("target", action.target), ("flag", action.to))
    if isinstance(action, ReturnCard):
        return (("card", action.card),)
    if isinstance(action, MudDiscard):
        return (("target", action.card),)
    if isinstance(action, Draw):
        return (("draw", action.deck),)
    if isinstance(action, Claim):
        return (("claim", action.flag),)
    if isinstance(action, EndClaims):
        return (("end",),)
    return (("pass",),)


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
        self.bot_name = bot
        self.seed = seed
        self.you_start = you_start
        self.claim_timing = ClaimTiming(claim_timing)
        self.human = Player.SOUTH
        self.bot: Bot | None = None
        self.state: GameState  # dealt by restart() below
        self.selection: tuple[Token, ...] = ()
        self._legal: list[Action] = []
        self._message: tuple[str, dict[str, str], dict[str, str]] | None = None  # kind, text and extra by language
        self._ghosts: dict[tuple[int, Side], Sequence[Card]] = {}
        self._last_seen = 0  # history length when the viewer last acted (what the bot did since)

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
        self.coach_toggle.observe(lambda _c: self._render(), names="value")
        self.coach = W.HTML()
        self.coach.add_class("bl-coach")
        self.new_game_button = self._button("", ("bl-new-game",))
        self.new_game_button.on_click(lambda _b: self.restart(self.seed + 1))
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
        self.review_result: Review | None = None
        self.review_title = W.HTML()
        self.review_timeline = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.review_timeline.add_class("bl-review-timeline")
        self.review_saved = W.HTML()
        self.review_puzzle = W.VBox()
        self.review_puzzle.add_class("bl-review-puzzle")
        self.review_box = W.VBox([self.review_title, self.review_timeline, self.review_saved, self.review_puzzle])
        self.review_box.add_class("bl-review-box")
        self._saved: tuple[str, str] | None = None  # ("saved" | "save_failed", folder or reason)
        self.suggestion: Suggestion | None = None  # the expert's last suggestion (shown in the message)
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
        self.restart(seed)

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
        self._label_review()
        self.title.value = f"<h3>{_esc(t('game_widget.title', seed=self.seed))}</h3>"

    # -- construction helpers ----------------------------------------------
    def _t(self, key: str, /, **params: object) -> str:
        return message(key, self.lang, **params)

    @staticmethod
    def _button(description: str, classes: Sequence[str], style: str = "") -> W.Button:
        button = W.Button(description=description, button_style=style, layout=W.Layout(width="auto"))
        for css in classes:
            button.add_class(css)
        return button

    # -- players -----------------------------------------------------------
    @property
    def viewer(self) -> Player:
        """Whose view the board shows: you against a bot, else the player who must act now."""
        if self.bot is not None:
            return self.human
        return self.state.to_act

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

    # -- the game --------------------------------------------------------------
    def restart(self, seed: int | None = None) -> None:
        """Deal a new game (the same seed gives the same game and the same bot replies)."""
        if seed is not None:
            self.seed = seed
        first = self.human if self.you_start else self.human.other
        self.state = new_game(self.seed, Options(claim_timing=self.claim_timing, first=first))
        self.bot = make_bot(self.bot_name, self.seed) if self.bot_name else None
        self.selection = ()
        self._ghosts = {}
        self._message = None
        self._last_seen = 0
        self.review_result = None
        self._saved = None
        self.review_puzzle.children = ()
        self._label_review()
        self.title.value = f"<h3>{_esc(self._t('game_widget.title', seed=self.seed))}</h3>"
        self._play_bots()
        self._render()

    def refresh(self) -> None:
        """Redraw everything from :attr:`state` (after a lesson or a test set ``widget.state`` itself)."""
        self.review_result = None
        self._saved = None
        self.review_puzzle.children = ()
        self._label_review()
        self.selection = ()
        self._last_seen = len(self.state.history)
        self._play_bots()
        self._render()

    def legal(self) -> list[Action]:
        """The legal actions of the player to act now (the engine's list)."""
        return legal_moves(self.state)

    def _apply(self, action: Action) -> bool:
        try:
            apply(self.state, action)
        except IllegalMoveError as err:  # only if the state changed under a stale button
            error, state = err, self.state
            self._set_message(
                "refused", lambda lang: message("game_widget.refused", lang, reason=illegal_reason(error, state, lang))
            )
            return False
        return True

    def _play_bots(self) -> None:
        """Let the bot act until it is the learner's move (a Mud discard may be theirs on the bot's turn)."""
        bot = self.bot
        if bot is None:
            return
        state = self.state
        while not state.over and state.to_act is not self.human:
            player = state.to_act
            apply(state, bot.choose(PlayerView(state, player), legal_moves(state)))

    def choose(self, token: Token) -> None:
        """One click on the way to an action: a card, a target, a flag, a deck, pass, end..."""
        if self.state.over:
            return
        chosen = self.selection + (token,)
        if token[0] == "card":
            chosen = (token,)  # another card in hand starts a new choice
        if token[0] in ("target",) and self.selection and self.selection[-1][0] == "target":
            chosen = self.selection[:-1] + (token,)  # another target instead
        matches = [a for a in self._legal if action_path(a) == chosen]
        self._message = None
        self._ghosts = {}
        if matches:
            self.selection = ()
            before = len(self.state.history)
            if self._apply(matches[0]):
                self._after_action(before)
        elif any(action_path(a)[: len(chosen)] == chosen for a in self._legal):
            self.selection = chosen
        else:
            self._set_message("refused", lambda lang: message("game_widget.not_offered", lang))
        self._render()

    def _after_action(self, before: int) -> None:
        self._last_seen = before
        self._play_bots()
        if self.bot is None:
            self._last_seen = len(self.state.history)

    def cancel(self) -> None:
        """Drop the card (and target) chosen so far."""
        self.selection = ()
        self._render()

    def claim(self, flag: int) -> None:
        """The claim button of a flag: claim it if the engine allows, else show why not (R12, R14)."""
        if self.state.over:
            return
        player = self.state.to_act
        self.selection = ()
        self._ghosts = {}
        before = len(self.state.history)
        try:
            apply(self.state, Claim(flag))
        except IllegalMoveError as err:
            analysis = explain_claim(self.state, player, flag)
            if analysis.counterexample:
                self._ghosts = {(flag, Side.OPPONENT): analysis.counterexample}
            error, state = err, self.state

            def refusal(lang: str) -> tuple[str, str]:
                lines = render_analysis(analysis, lang)
                proof = "".join(f"<li>{_esc(_body(line))}</li>" for line in lines)
                # the proof first; the engine's other reason (R14 timing, R15) only when the proof holds
                if analysis.claimable:
                    reason = illegal_reason(error, state, lang)
                    text = message("game_widget.claim_later", lang, flag=flag, reason=reason)
                else:
                    text = message("game_widget.claim_refused", lang, flag=flag)
                return text, f'<ol class="bl-claim-proof">{proof}</ol>'

            self._set_message("refused", refusal)
        else:
            self._set_message("claimed", lambda lang: message("game_widget.claimed", lang, flag=flag))
            self._after_action(before)
        self._render()

    def click_action(self, action: Action | str) -> None:
        """Click the buttons that make ``action`` (notation or value), as a learner would.

        Raises ``ValueError`` if a button on the way is not offered (hidden or disabled).
        """
        if isinstance(action, str):
            action = parse_action(action)
        self._render_if_stale()
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

    def _render_if_stale(self) -> None:
        if self._legal != legal_moves(self.state):
            self._render()

    # -- opponent, suggestion, review: the game package decides, the widget shows ---------------
    def choose_bot(self, name: str) -> None:
        """The opponent (``bl-bot-choice``): at once if the learner has not moved yet, else from the next game."""
        if self._relabelling or name == self.bot_name or self.bot_name is None:
            return
        self.bot_name = name
        if all(actor is not self.human for _turn, actor, _a in self.state.history):
            self.restart(self.seed)
            return
        self._set_message(
            "info",
            lambda lang: message("review.widget.bot_next", lang, bot=message(f"review.widget.bot.{name}", lang)),
        )
        self._render()

    def suggest_move(self) -> None:
        """The expert's play for the player to act, with its reason (only on request: it is a hint)."""
        state = self.state
        player = state.to_act
        legal = self.legal()
        if state.over or state.phase is not Phase.PLAY or (self.bot is not None and player is not self.human):
            self._set_message("info", lambda lang: message("review.coach.not_now", lang))
            self._render()
            return
        view = PlayerView(state, player)
        found = suggest(view, legal, seed=self.seed * 1000 + state.turn_number)
        self._ghosts = {}
        texts = {lang: suggestion_text(view, found, lang) for lang in LANGUAGES}
        self._set_message(
            "info",
            lambda lang: (
                texts[lang][0],
                '<ul class="bl-suggestion">' + "".join(f"<li>{_esc(x)}</li>" for x in texts[lang][1:]) + "</ul>",
            ),
        )
        self.suggestion = found
        self._render()

    def open_review(self) -> None:
        """At game end: review the learner's game (the game package's :func:`review`), show its moments
        on a timeline and save its puzzles for the trainer (``data_dir()/review/``)."""
        if not self.state.over:
            return
        player = self.human if self.bot is not None else self.state.first
        self.review_result = review(self.state, player)
        try:
            paths = save_for_learner(self.review_result)
        except OSError as err:
            self._saved = ("save_failed", err.strerror or str(err))
        else:
            self._saved = ("saved", str(paths[0].parent) if paths else "")
        self._label_review()
        if self.review_result.moments:
            self.open_moment(0)

    def open_moment(self, index: int) -> None:
        """Open review moment ``index`` as a puzzle board (the same PuzzleWidget as the gym)."""
        from .widgets import PuzzleWidget

        assert self.review_result is not None
        moment = self.review_result.moments[index]
        self.review_puzzle.children = (PuzzleWidget(moment.puzzle, lang=self.lang),)
        for k, button in enumerate(self.review_timeline.children):
            button.button_style = "info" if k == index else ""

    def _moment_button(self, index: int) -> W.Button:
        button = self._button("", ("bl-review-moment",))
        button.on_click(lambda _b: self.open_moment(index))
        return button

    def _label_review(self) -> None:
        result = self.review_result
        set_visible(self.review_button, self.state.over if hasattr(self, "state") else False)
        set_visible(self.review_box, result is not None)
        if result is None:
            self.review_timeline.children = ()
            self.review_title.value = self.review_saved.value = ""
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
        for button, moment in zip(buttons, result.moments):
            kind = self._t(f"review.kind.{moment.kind.value}")
            button.description = self._t("review.widget.moment", turn=moment.turn, kind=kind)
            button.tooltip = moment.note(self.lang)
        self.review_timeline.children = tuple(buttons)
        if self._saved is not None:
            key, where = self._saved
            param = "folder" if key == "saved" else "reason"
            text = _esc(self._t(f"review.widget.{key}", **{param: where}))
            self.review_saved.value = f'<span style="font-size:90%;color:#607d8b">{text}</span>'
        for child in self.review_puzzle.children:
            child.set_lang(self.lang)

    # -- what the engine says --------------------------------------------------
    def offered(self, prefix: tuple[Token, ...] = ()) -> set[Token]:
        """The next clicks the legal moves allow after ``prefix``."""
        n = len(prefix)
        return {p[n] for a in self._legal if len(p := action_path(a)) > n and p[:n] == prefix}

    def log_entries(self) -> list[tuple[int, str, str]]:
        """The game log: (turn, sentence, notation) per action, oldest first; hidden cards stay hidden."""
        out = []
        for turn, actor, action in self.state.history:
            notation = action.notation
            if isinstance(action, ReturnCard) and actor is not self.viewer:
                notation = "return ?"  # R27: the opponent does not see which card went back
            out.append((turn, describe(action, self.player_name(actor), self.lang), notation))
        return out

    def coach_lines(self) -> list[tuple[int, bool, str, list[str]]]:
        """The coach: per flag where the player to act has cards, (flag, claimable, summary, proof lines).

        Claimable flags first (from :func:`claimable`, the engine's claim step), then flags where
        a complete formation still can be beaten (the counterexample line).
        """
        state = self.state
        player = state.to_act
        view = PlayerView(state, player)
        can = set(claimable(state, player))
        out: list[tuple[int, bool, str, list[str]]] = []
        later: list[tuple[int, bool, str, list[str]]] = []
        for n in FLAGS:
            if view.claimed_by(n) is not None or not view.flag_cards(n, player):
                continue
            analysis: ClaimAnalysis = explain_claim(state, player, n)
            if Reason.SIDE_INCOMPLETE in analysis.reasons:
                continue
            lines = [_body(line) for line in render_analysis(analysis, self.lang)]
            summary = lines[analysis.steps.index(analysis.deciding_step())]  # the step the verdict turns on
            (out if n in can else later).append((n, n in can, summary, lines))
        return out + later

    # -- rendering ---------------------------------------------------------------
    def _set_message(self, kind: str, say: Callable[[str], str | tuple[str, str]]) -> None:
        """Show a message: ``say(lang)`` is its text (and extra HTML), made now in every language for the toggle."""
        texts: dict[str, str] = {}
        extras: dict[str, str] = {}
        for lang in LANGUAGES:
            said = say(lang)
            texts[lang], extras[lang] = (said, "") if isinstance(said, str) else said
        self._message = (kind, texts, extras)

    def _message_html(self) -> str:
        if self._message is None:
            return ""
        kind, texts, extras = self._message
        colour = {"refused": "#c62828", "claimed": "#2e7d32", "info": "#607d8b"}[kind]
        return (
            f'<div class="bl-game-message-{kind}" style="border-left:5px solid {colour};padding:4px 8px;'
            f'line-height:1.4;margin:4px 0"><b style="color:{colour}">{_esc(texts[self.lang])}</b>'
            f"{extras[self.lang]}</div>"
        )

    def _render(self) -> None:
        state = self.state
        self._legal = legal_moves(state)
        viewer = self.viewer
        view = PlayerView(state, viewer)
        over = state.over
        first = self.offered()
        current = self.offered(self.selection)

        # hand: a button per card, enabled where a legal move starts with it
        hand = sorted(view.hand, key=card_sort_key)
        self._hand_cards = hand
        selected = self.selection[0][1] if self.selection and self.selection[0][0] == "card" else None
        self.hand_buttons = self._pool(self.hand_buttons, len(hand), self._new_hand_button)
        for button, card in zip(self.hand_buttons, hand):
            self._style_card_button(button, card, chosen=card == selected)
            button.disabled = ("card", card) not in first
        self.hand_row.children = self.hand_buttons[: len(hand)]

        # cards on the table a guile card (or the Mud discard) acts on
        level = self.selection[:1] if self.selection and self.selection[0][0] == "card" else ()
        offered_targets = {tok[1] for tok in self.offered(level) if tok[0] == "target"}
        targets = sorted(offered_targets, key=card_sort_key)
        self._target_cards = targets
        self.target_buttons = self._pool(self.target_buttons, len(targets), self._new_target_button)
        chosen_target = next((tok[1] for tok in self.selection if tok[0] == "target"), None)
        for button, card in zip(self.target_buttons, targets):
            where = self._where(view, card)
            button.description = self._t("game_widget.target", card=card.notation, flag=where or "?")
            button.tooltip = card_label(card, self.lang)
            button.disabled = False
            button.button_style = "info" if card == chosen_target else ""
        self.target_row.children = self.target_buttons[: len(targets)]
        self.target_label.value = _esc(self._target_prompt()) if targets else ""
        set_visible(self.target_box, bool(targets))

        for n, button in self.flag_buttons.items():
            button.disabled = ("flag", n) not in current
            button.button_style = "success" if ("flag", n) in current else ""
        for n, button in self.claim_buttons.items():
            owner = view.claimed_by(n)
            button.disabled = over or owner is not None
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
            set_visible(button, state.phase in (Phase.DRAW, Phase.SCOUT_DRAW))
        set_visible(self.pass_button, ("pass",) in first)
        self.pass_button.disabled = ("pass",) not in first
        set_visible(self.end_button, ("end",) in first)
        self.end_button.disabled = ("end",) not in first
        set_visible(self.cancel_button, bool(self.selection))

        prompt = self._prompt()
        self.prompt.value = f"<b>{_esc(prompt[:1].upper() + prompt[1:])}</b>"
        self.message_box.value = self._message_html()
        self.info.value = self._info(view)
        self.banner.value = self._banner()
        set_visible(self.banner, over)
        position = to_position(state, viewer, hand=False)  # the hand is the row of buttons below
        if over:  # the game is over: the bot's (the other player's) hand is shown at last
            position = dataclasses.replace(position, hand_opponent=tuple(state.hands[viewer.other]))
        self.new_game_button.button_style = "primary" if over else ""
        set_visible(self.review_button, over)
        self.board.value = board_svg(
            position,
            highlight=self._highlight(),
            ghosts=self._ghosts,
            focus=[tok[1] for tok in current if tok[0] == "flag"],
            lang=self.lang,
        )
        self.coach.value = self._coach_html() if self.coach_toggle.value and not over else ""
        set_visible(self.coach, bool(self.coach_toggle.value) and not over)
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

    @staticmethod
    def _where(view: PlayerView, card: Card) -> int | None:
        for n in FLAGS:
            for p in Player:
                if card in view.flag_cards(n, p) or card in view.flag_env(n, p):
                    return n
        return None

    def _target_prompt(self) -> str:
        if self.state.phase is Phase.MUD_DISCARD:
            return self._t("game_widget.targets.mud")
        card = self.selection[0][1] if self.selection else None
        if isinstance(card, Tactic):
            return self._t(f"game_widget.targets.{card.value}")
        return ""

    def _prompt(self) -> str:
        state = self.state
        if state.over:
            return self._t("game_widget.prompt.over")
        who = self.player_name(state.to_act)
        if self.selection:
            card = self.selection[0][1] if self.selection[0][0] == "card" else None
            label = card_label(card, self.lang) if card is not None else ""
            if len(self.selection) >= 2:
                return self._t(
                    "game_widget.prompt.destination", card=label, target=card_label(self.selection[1][1], self.lang)
                )
            if isinstance(card, Tactic) and not (card.is_wild or card.is_environment):
                return self._t(f"game_widget.prompt.{card.value}", card=label)
            return self._t("game_widget.prompt.flag", card=label)
        view = PlayerView(state, state.to_act)
        phase = state.phase
        if phase is Phase.PLAY:
            key = "play_or_pass" if ("pass",) in self.offered() else "play"
            return self._t(f"game_widget.prompt.{key}", player=who)
        if phase is Phase.CLAIM:
            return self._t("game_widget.prompt.claim", player=who)
        if phase is Phase.DRAW:
            return self._t("game_widget.prompt.draw", player=who)
        if phase is Phase.SCOUT_DRAW:
            return self._t("game_widget.prompt.scout_draw", player=who, count=state.scout_draws)
        if phase is Phase.SCOUT_RETURN:
            return self._t("game_widget.prompt.scout_return", player=who, count=state.scout_returns)
        return self._t("game_widget.prompt.mud_discard", player=who, flag=view.pending_discard_flag)

    def _info(self, view: PlayerView) -> str:
        state = self.state
        viewer = view.player
        other = viewer.other
        sizes = view.deck_sizes
        parts = [
            self._t(
                "game_widget.tally",
                me=self.player_name(viewer),
                mine=len(state.held(viewer)),
                other=self.player_name(other),
                theirs=len(state.held(other)),
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
        state = self.state
        if not state.over:
            return ""
        reason = self._t(f"game.cli.reason.{state.end_reason.value}") if state.end_reason else ""
        points = score(state)
        if state.winner is None:
            text = self._t("game_widget.over.draw", reason=reason)
        else:
            text = self._t(
                "game_widget.over.winner",
                player=self.player_name(state.winner),
                reason=reason,
                flags=", ".join(map(str, state.held(state.winner))),
            )
        tally = self._t(
            "game_widget.over.points",
            you=self.player_name(self.human),
            mine=points[self.human],
            other=self.player_name(self.human.other),
            theirs=points[self.human.other],
        )
        colour = "#2e7d32" if state.winner is self.viewer else "#b71c1c"
        return (
            f'<div style="background:{colour};color:#fff;padding:8px 12px;border-radius:6px;font-size:120%">'
            f"<b>{_esc(text)}</b><br><span style='font-size:85%'>{_esc(tally)}</span></div>"
        )

    def _highlight(self) -> list[Card]:
        """The card (and target) being chosen, and what the other player did since the viewer's last move."""
        out = [tok[1] for tok in self.selection if tok[0] in ("card", "target")]
        for _turn, actor, action in self.state.history[self._last_seen :]:
            if actor is self.viewer:
                continue
            if isinstance(action, PlayCard):
                out.append(action.card)
            elif isinstance(action, (Redeploy, Deserter, Traitor)):
                out.append(action.target)
        return out

    def _coach_html(self) -> str:
        lines = self.coach_lines()
        legal = set(self._legal)
        timing = self._t(f"game.timing.{self.claim_timing.value}")
        items = []
        for n, can, summary, proof in lines:
            if can:
                when = (
                    self._t("game_widget.coach.now", flag=n)
                    if Claim(n) in legal
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
        if not any(can for _n, can, _s, _p in lines):
            items.insert(0, f'<div class="bl-coach-none">{_esc(self._t("game_widget.coach.none"))}</div>')
        title = _esc(self._t("game_widget.coach.title", player=self.player_name(self.state.to_act)))
        return (
            f'<div style="border:1px solid #b0bec5;border-radius:6px;padding:4px 8px;margin:4px 0;line-height:1.4">'
            f"<b>{title}</b>{''.join(items)}</div>"
        )

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
