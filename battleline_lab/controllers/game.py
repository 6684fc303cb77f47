"""A game against a bot (or two people on one screen): its words and the board's view of it.

:class:`GameController` holds the :class:`~battleline_lab.game.session.GameSession` (the game, the
choice in progress, the notice, the coach, the review: every decision) and the language, and says
the session in words: the players' names, the prompt, the status line, the notice with its proof,
the coach, the log, the game's end and the coach's odds.  Its :meth:`~GameController.view` is the
board's :class:`~battleline_lab.controllers.view.GameView`; :meth:`~GameController.intent` takes
what the learner did on the board.  The widget (:class:`battleline_lab.widgets.game.GameWidget`)
talks to the controller only: it forwards intents and commands and draws what it reads here.

>>> c = GameController(GameSession(bot="heuristic", seed=11))
>>> view = c.view()
>>> view["mode"], len(view["flags"]), len(view["hand"]), c.player_name(c.session.human)
('game', 9, 7, 'South (you)')
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core.cards import Card, Tactic, Troop
from ..core.odds import FlagOdds, SideOuts, flag_odds, outs
from ..core.position import Position, Side
from ..game import Action, Deck, GameState, Player, describe, to_position
from ..game.advice import Advice, advice_text
from ..game.bot_base import Bot
from ..game.record import illegal_reason
from ..game.review import Review
from ..game.session import CoachFinding, GameSession, Notice, Offer, Say, Token
from ..render.svg import board_svg
from ..text.messages import DEFAULT_LANGUAGE, Bound, bound, card_label, catalogue, kind_name, message, render_analysis
from ..training.glicko2 import Rating
from .new_game import DISCARD_GAME, KEEP_GAME, AsksNewGame, NewGameQuestion
from .view import (
    ButtonView,
    DeckView,
    FeedbackView,
    FlagView,
    GameView,
    OddsView,
    OpponentHandView,
    card_view,
    flag_views,
)

__all__ = ["DISCARD_GAME", "KEEP_GAME", "GameController", "proof_line"]


def proof_line(line: str) -> str:
    """A rendered proof line without its number (``3. text`` -> ``text``)."""
    head, _, rest = line.partition(". ")
    return rest if head.isdigit() else line


class GameController(AsksNewGame):
    """The session in words, in :attr:`lang`, and the board's view of it (the coach's odds and the last
    notice's words are kept: a redraw of the same table or notice computes nothing again)."""

    def __init__(self, session: GameSession, *, lang: str = DEFAULT_LANGUAGE) -> None:
        self.session = session
        self.lang = lang
        self.offer: Offer | None = None  # what the board on show offers (set by view())
        self._odds: tuple[Position, dict[int, tuple[FlagOdds, SideOuts]]] | None = None  # the coach's odds of a table
        self._said: tuple[Notice, str, FeedbackView] | None = None  # the notice drawn last, in a language
        #: New game, asked first when it would discard a game in progress
        self.new_game_question = NewGameQuestion(self.in_progress, self.session.new_game)

    def set_lang(self, lang: str) -> None:
        self.lang = lang

    # -- what the session holds, as the widget, tests and lessons read it ------------------
    @property
    def state(self) -> GameState:
        """The game; after setting it, :meth:`resume` goes on from it."""
        return self.session.state

    @state.setter
    def state(self, state: GameState) -> None:
        self.session.state = state

    @property
    def seed(self) -> int:
        return self.session.seed

    # -- New game, asked first when it would discard a game in progress -------------------------
    def in_progress(self) -> bool:
        """A game that New game would discard: not over, and the learner (or, on one screen, anyone) moved."""
        state, human, one_screen = self.state, self.session.human, self.session.bot is None
        return not state.over and any(one_screen or actor is human for _turn, actor, _a in state.history)

    @property
    def viewer(self) -> Player:
        return self.session.viewer

    @property
    def human(self) -> Player:
        return self.session.human

    @property
    def bot(self) -> Bot | None:
        return self.session.bot

    @property
    def bot_name(self) -> str | None:
        return self.session.bot_name

    @property
    def selection(self) -> tuple[Token, ...]:
        return self.session.selection

    @property
    def suggestion(self) -> Advice | None:
        return self.session.suggestion

    @property
    def review(self) -> Review | None:
        return self.session.review

    @property
    def moment(self) -> int | None:
        """The review moment opened as a puzzle."""
        return self.session.moment

    @property
    def saved(self) -> tuple[str, str] | None:
        """Where the review's puzzles went: ``("saved", folder)`` or ``("save_failed", reason)``."""
        return self.session.saved

    @property
    def coach_shown(self) -> bool:
        return self.session.coach_shown

    @property
    def coach_visible(self) -> bool:
        return self.session.coach_visible

    # -- intents and commands: the session decides every one ------------------------------
    def intent(self, name: str, value: Any) -> bool:
        """What the learner did on the board (checked by the widget's intent schema: a card in the hand, a
        flag 1-9, a deck...), given to the session; False when nothing is to be drawn again (the game was over)."""
        session = self.session
        if self.new_game_question.intent(name, value):  # an answer to New game's question; playing on keeps the game
            return True
        if name == "play":  # the card and the flag are both checked before the session sees either
            card, flag = value
            before = session.selection
            said = session.choose(("card", self._hand_card(card)))
            if said.kind == "chosen":
                said = session.choose(("flag", flag))
            if said.kind == "not_offered":  # a play not on offer (a stale tap): the choice in progress stays
                session.selection = before
            return said.kind != "over"
        if name == "select":
            return self.choose(("card", self._hand_card(value))).kind != "over"
        if name == "target":
            target = next(c for c, _f in session.offer().targets if c.notation == value)
            return self.choose(("target", target)).kind != "over"
        if name == "flag":
            return self.choose(("flag", value)).kind != "over"
        if name == "claim":
            return self.claim(value).kind != "over"
        if name == "draw":
            return self.choose(("draw", Deck(value))).kind != "over"
        if name == "do":
            return self.choose((value,)).kind != "over"
        if name == "cancel":
            self.cancel()
            return True
        return False

    def _hand_card(self, notation: str) -> Card:
        return next(c for c in self.session.hand() if c.notation == notation)

    def hand_cards(self) -> set[str]:
        """The notations of the hand cards of the player to act (what a ``play`` or ``select`` may name)."""
        return {c.notation for c in self.session.hand()}

    def target_cards(self) -> set[str]:
        """The notations of the cards on the table a tactic may act on now (what a ``target`` may name)."""
        return {c.notation for c, _f in self.session.offer().targets}

    def refuse(self) -> None:
        """A tap refused (stale or forged): the choice in progress stays, the notice says it is not offered."""
        self.session.notice = Notice("not_offered")

    def restart(self, seed: int | None = None) -> None:
        self.session.restart(seed)

    def new_game(self) -> None:
        """The next deal at once (from code; the board's New game asks first: :meth:`ask_new_game`)."""
        self.new_game_question.open = False
        self.session.new_game()

    def resume(self) -> None:
        self.session.resume()

    def legal(self) -> list[Action]:
        return self.session.legal()

    def offered(self, prefix: tuple[Token, ...] = ()) -> set[Token]:
        return self.session.offered(prefix)

    def choose(self, token: Token) -> Notice:
        return self.session.choose(token)

    def cancel(self) -> None:
        self.session.cancel()

    def claim(self, flag: int) -> Notice:
        return self.session.claim(flag)

    def show_coach(self, shown: bool) -> None:
        self.session.show_coach(shown)

    def choose_bot(self, name: str) -> bool:
        return self.session.choose_bot(name)

    def choose_level(self) -> str:
        return self.session.choose_level()

    def learner_rating(self) -> Rating:
        return self.session.learner_rating()

    def suggest_move(self) -> Notice:
        return self.session.suggest_move()

    def open_review(self) -> Review | None:
        return self.session.open_review()

    def open_moment(self, index: int) -> bool:
        return self.session.open_moment(index)

    # -- words ----------------------------------------------------------------------------

    @property
    def t(self) -> Bound:
        """The catalogue in :attr:`lang`, the language shown now: ``self.t("game_widget.title", seed=...)``."""
        return bound(message, self.lang)

    def say(self, said: Say) -> str:
        """The session's words in :attr:`lang`: players and cards named here."""
        key, params = said
        return self.t(key, **{k: self._name(v) for k, v in params.items()})

    def _name(self, value: Any) -> object:
        if isinstance(value, Player):
            return self.player_name(value)
        if isinstance(value, (Troop, Tactic)):
            return card_label(value, self.lang)
        return "" if value is None else value

    def _bot_name(self) -> str:
        """The bot's name in the widget's language (``heuristic`` / ``启发式``); a bot without one keeps its own."""
        assert self.bot is not None
        key = f"bot.{self.bot.name}"
        return self.t(key) if key in catalogue(self.lang) else self.bot.name

    def player_name(self, player: Player) -> str:
        """``South (you)``, ``North (heuristic bot)``, or ``North`` / ``South`` on one screen."""
        if self.bot is None:
            return self.t(f"game_widget.name.{player.value}")
        if player is self.human:
            return self.t("game_widget.name.you", player=self.t(f"game_widget.name.{player.value}"))
        return self.t("game_widget.name.bot", player=self.t(f"game_widget.name.{player.value}"), bot=self._bot_name())

    def _notice_words(self, notice: Notice) -> tuple[str, list[str], list[str]]:
        """A notice's text, its numbered lines (a proof) and its other lines, in :attr:`lang`."""
        lang, state = self.lang, self.state
        kind = notice.kind
        if kind == "not_offered":
            return self.t("game_widget.not_offered"), [], []
        if kind == "claimed":
            return self.t("game_widget.claimed", flag=notice.flag), [], []
        if kind == "bot_next":
            return self.t("review.widget.bot_next", bot=self.t(f"review.widget.bot.{notice.bot}")), [], []
        if kind == "not_now":
            return self.t("review.coach.not_now"), [], []
        if kind == "suggestion":
            assert notice.view is not None and notice.suggestion is not None
            first, *rest = advice_text(notice.view, notice.suggestion, lang)
            return first, [], list(rest)
        assert kind == "refused" and notice.error is not None
        analysis = notice.analysis
        if analysis is None:  # a move refused: the state changed under a stale button
            return self.t("game_widget.refused", reason=illegal_reason(notice.error, state, lang)), [], []
        proof = [proof_line(line) for line in render_analysis(analysis, lang)]
        # the proof first; the engine's other reason (R14 timing, R15) only when the proof holds
        if analysis.claimable:
            reason = illegal_reason(notice.error, state, lang)
            text = self.t("game_widget.claim_later", flag=notice.flag, reason=reason)
        else:
            text = self.t("game_widget.claim_refused", flag=notice.flag)
        return text, proof, []

    def _feedback(self) -> FeedbackView:
        """The notice the board shows in its feedback place (``data-role="feedback"``)."""
        notice = self.session.notice
        if notice is None or not notice.tone:
            return FeedbackView()
        if self._said is None or self._said[0] is not notice or self._said[1] != self.lang:
            text, lines, items = self._notice_words(notice)
            self._said = (notice, self.lang, FeedbackView(tone=notice.tone, text=text, lines=lines, items=items))
        return self._said[2].copy()

    def view(self) -> GameView:
        """The board's view model now: the session's state and offer, named in :attr:`lang`."""
        session = self.session
        state = self.state
        lang = self.lang
        offer = self.offer = session.offer()
        viewer = self.viewer
        view = session.view()
        first, current = offer.first, offer.current
        position = to_position(state, viewer, hand=False)  # the hand is drawn as the hand row
        notice = session.notice
        ghosts = {(notice.flag, Side.OPPONENT): notice.ghosts} if notice and notice.flag and notice.ghosts else {}
        flags = flag_views(position, lang, highlight=session.highlight(), ghosts=ghosts)
        held = bool(session.selection)
        for f in flags:
            n = f["n"]
            if held and ("flag", n) in current:
                f["legal"] = True
            if ("claim", n) in first:
                f["claimable"] = True
                f["mark"] = self.t("boardui.flag_claim")
                f["label"] = self.t("boardui.flag_claim_label", flag=n)
            if n in offer.claims:
                f["claim"] = True
        if session.coach_visible:
            self._add_odds(position, flags)
        moves = session.card_moves(offer)
        hand = []
        for card in session.hand():
            item = card_view(card, lang)
            if card in moves and ("card", card) in first:
                flags_of = moves[card]
                if flags_of is None:
                    item["kernel"] = True
                else:
                    item["flags"] = list(flags_of)
            if card == offer.card:
                item["chosen"] = True
            hand.append(item)
        sizes = view.deck_sizes
        decks = [
            DeckView(
                deck=deck.value,
                label=self.t("boardui.deck", deck=self.t(f"boardui.deck.{deck.value}"), count=sizes[deck.value]),
                title=self.t(f"game_widget.draw.{deck.value}", count=sizes[deck.value]),
                enabled=("draw", deck) in first,
                primary=("draw", deck) in first,
            )
            for deck in Deck
        ]
        choices: list[ButtonView] = []
        for token, key in (
            (("scout",), "game_widget.scout_go"),
            (("discard",), "game_widget.discard_choice"),
        ):
            if token in current:
                choices.append(ButtonView(action=token[0], label=self.t(key), primary=True))
        for token, key in ((("pass",), "game_widget.pass"), (("end",), "game_widget.end_claims")):
            if token in first:
                choices.append(ButtonView(action=token[0], label=self.t(key)))
        if held:
            choices.append(ButtonView(action="cancel", label=self.t("game_widget.cancel")))
        other = viewer.other
        if state.over:  # the game is over: the other player's hand is shown at last
            shown = [card_view(c, lang) for c in session.revealed_hand()]
            opponent_hand = OpponentHandView(
                label=self.t("boardui.opponent_hand_shown", player=self.player_name(other)), cards=shown
            )
        else:
            opponent_hand = OpponentHandView(
                label=self.t("boardui.opponent_hand", player=self.player_name(other), count=view.opponent_hand_size)
            )
        target_key = session.target_prompt()
        prompt = self.say(session.prompt(offer))
        if offer.targets and target_key:
            prompt = f"{prompt} {self.t(target_key)}"
        out = GameView(
            mode="game",
            lang=lang,
            prompt=prompt[:1].upper() + prompt[1:],
            status=self._info(),
            board_label=self.t("boardui.board"),
            opponent_hand=opponent_hand,
            flags=flags,
            hand=hand,
            hand_label=self.t("boardui.hand"),
            chosen_text=self.t("boardui.chosen", card="{card}", flags="{flags}"),
            targets=[c.notation for c, _flag in offer.targets],
            selection=[tok[0] for tok in session.selection],
            decks=decks,
            choices=choices,
            feedback=self._feedback(),
        )
        if any("odds" in f for f in flags):
            out["odds_note"] = self.t("odds.tie_rule")
        self.new_game_question.show(out, self.t)
        return out

    def _add_odds(self, position: Position, flags: list[FlagView]) -> None:
        """The coach's odds on the board: each contested flag's ``odds`` (the learner's win chance, outs).

        A contested flag is open (R15) with a card on either side.  The chance is
        :func:`~battleline_lab.core.odds.flag_odds` of the public table only (``position`` holds no
        hand, and the odds count every hand as unseen, R13); the outs line is the learner's
        strongest kind still reachable (:func:`~battleline_lab.core.odds.outs`) and how many unseen
        troops complete it.  Texts from ``odds.json``; a tie counts half where neither side is
        complete (the note ``odds_note`` says so, R11).
        """
        cached = self._odds
        if cached is None or cached[0] != position:  # a redraw of the same table counts nothing again
            found: dict[int, tuple[FlagOdds, SideOuts]] = {}
            for n in range(1, 10):
                state = position.flag(n)
                if state.claimed_by is None and (
                    state.formation_cards(Side.YOU) or state.formation_cards(Side.OPPONENT)
                ):
                    found[n] = (flag_odds(position, n), outs(position, n, Side.YOU))
            cached = self._odds = (position, found)
        for f in flags:
            n = f["n"]
            if n not in cached[1]:
                continue
            odds, mine = cached[1][n]
            percent = self.t("odds.percent", value=f"{100 * float(odds.you):.0f}")
            if not mine.kinds:
                line = self.t("odds.board.no_outs")
            elif mine.missing == 0:
                line = self.t("odds.board.complete", kind=kind_name(mine.kinds[0].kind, self.lang))
            else:
                best = mine.kinds[0]
                line = self.t("odds.board.outs", kind=kind_name(best.kind, self.lang), count=best.count)
            f["odds"] = OddsView(
                you=float(odds.you),
                text=self.t("odds.board.chance", percent=percent),
                outs=line,
                label=self.t("odds.board.label", flag=n, percent=percent, outs=line, tie=self.t("odds.tie_rule")),
                exact=odds.exact,
            )

    def _info(self) -> str:
        """The status line: the flag tally first, then the turn, the decks, the hidden hand, tactics played (R18)."""
        state = self.state
        view = self.session.view()
        viewer = view.player
        other = viewer.other
        sizes = view.deck_sizes
        mine, theirs = self.session.tally()
        parts = [
            self.t(
                "game_widget.tally",
                me=self.player_name(viewer),
                mine=mine,
                other=self.player_name(other),
                theirs=theirs,
            ),
            self.t("game_widget.info.turn", turn=state.turn_number, player=self.player_name(state.turn)),
            self.t("game_widget.info.decks", troops=sizes["troops"], tactics=sizes["tactics"]),
            self.t("game_widget.info.hand", player=self.player_name(other), count=view.opponent_hand_size),
            self.t(
                "game_widget.info.tactics",
                mine=view.tactics_played(viewer),
                theirs=view.tactics_played(other),
                player=self.player_name(other),
            ),
        ]
        return " · ".join(parts)

    def log_entries(self) -> list[tuple[int, str, str]]:
        """The game log: (turn, sentence, notation) per action, oldest first; hidden cards stay hidden."""
        return [
            (turn, describe(action, self.player_name(actor), self.lang), "return ?" if hidden else action.notation)
            for turn, actor, action, hidden in self.session.log()  # R27: a card returned by the opponent's Scout
        ]

    def _proof(self, finding: CoachFinding) -> tuple[str, list[str]]:
        """A coach finding's proof lines in :attr:`lang`, and the one the verdict turns on."""
        analysis = finding.analysis
        lines = [proof_line(line) for line in render_analysis(analysis, self.lang)]
        return lines[analysis.steps.index(analysis.deciding_step())], lines

    def coach_lines(self) -> list[tuple[int, bool, str, list[str]]]:
        """The coach: per flag where the player to act has cards, (flag, claimable, summary, proof lines).

        Claimable flags first (the session's :meth:`~battleline_lab.game.session.GameSession.coach`,
        from the engine's claim step), then flags where a complete formation still can be beaten.
        """
        return [(f.flag, f.claimable, *self._proof(f)) for f in self.session.coach()]

    def coach_heads(self) -> list[tuple[int, bool, str, list[str]]]:
        """The coach as the widget shows it: per flag (flag, claimable, heading, proof lines); the heading
        says when a claimable flag may be claimed (now, or at the claim timing, R14)."""
        timing = self.t(f"game.timing.{self.session.claim_timing.value}")
        out = []
        for finding in self.session.coach():
            n, (summary, proof) = finding.flag, self._proof(finding)
            if finding.claimable:
                when = (
                    self.t("game_widget.coach.now", flag=n)
                    if finding.now
                    else self.t("game_widget.coach.when", timing=timing)
                )
                head = self.t("game_widget.coach.claimable", flag=n, why=summary, when=when)
            else:
                head = self.t("game_widget.coach.not_yet", flag=n, why=summary)
            out.append((n, finding.claimable, head, proof))
        return out

    def ending(self) -> tuple[str, str, bool] | None:
        """The game's end in words: (who won and why, the points of each, whether the viewer won); None while
        the game goes on."""
        outcome = self.session.outcome()
        if outcome is None:
            return None
        reason = self.t(f"game.cli.reason.{outcome.reason.value}") if outcome.reason else ""
        if outcome.winner is None:
            text = self.t("game_widget.over.draw", reason=reason)
        else:
            text = self.t(
                "game_widget.over.winner",
                player=self.player_name(outcome.winner),
                reason=reason,
                flags=", ".join(map(str, outcome.flags)),
            )
        human = self.human
        tally = self.t(
            "game_widget.over.points",
            you=self.player_name(human),
            mine=outcome.points[human],
            other=self.player_name(human.other),
            theirs=outcome.points[human.other],
        )
        return text, tally, outcome.winner is self.viewer

    def picture(self) -> str:
        """The board as an SVG picture from the viewer's side (the other hand shown once the game is over)."""
        state = self.state
        position = to_position(state, self.viewer, hand=True)
        if state.over:
            position = dataclasses.replace(position, hand_opponent=self.session.revealed_hand())
        return board_svg(position, highlight=self.session.highlight(), lang=self.lang)
