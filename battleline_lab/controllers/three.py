"""The three-player game against two bots (R32-R37): its words and the board's view of it.

:class:`ThreeGameController` holds a :class:`~battleline_lab.game.three.ThreeState`, the learner's
seat and the two bots in the other seats, and takes the board's intents: ``play`` a troop on a
flag of the learner's line, ``claim`` a flag, ``draw`` a troop, ``do`` ``pass`` or ``end``.  After
each of the learner's turns the bots play theirs at once, in order around the table (R34), until
it is the learner's turn again or the game is over.  Every move offered comes from
:func:`~battleline_lab.game.three.legal_three_moves`, every effect from
:func:`~battleline_lab.game.three.apply_three`; a move the rules refuse is said with its rule and
changes nothing.  :meth:`ThreeGameController.view` is the board's
:class:`~battleline_lab.controllers.view.ThreeGameView`: the three fronts, each labelled with its
two players, and only what the learner may see (R35: the bots' hands are counted, never shown).

>>> c = ThreeGameController(bots=("heuristic", "random"), seed=4)
>>> view = c.view()
>>> view["mode"], [f["label"] for f in view["fronts"]][0], len(view["flags"]), len(view["hand"])
('three', 'Front A–B: A (you) against B (heuristic bot), flags 1, 2, 3', 9, 7)
>>> card = view["hand"][0]
>>> card["flags"]
[1, 2, 3, 7, 8, 9]
>>> c.intent("play", [card["id"], 2]); c.intent("draw", "troops")
>>> c.state.turn.name, c.state.turn_number  # both bots have played: the learner's turn again
('A', 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.cards import Troop, card_sort_key
from ..game.actions import Action, Claim, Draw, EndClaims, Pass, PlayCard, describe
from ..game.state import Deck
from ..game.three import (
    FRONT_OF,
    FRONTS,
    LINES,
    SEATS,
    Seat,
    ThreeEnd,
    ThreeIllegalMoveError,
    ThreePhase,
    ThreeState,
    ThreeView,
    apply_three,
    end_text,
    legal_three_moves,
    new_three_game,
    seat_name,
)
from ..game.three_bots import THREE_BOTS, ThreeBot, make_three_bot
from ..text.messages import DEFAULT_LANGUAGE, Bound, bound, card_label, catalogue, message
from .new_game import AsksNewGame, NewGameQuestion
from .view import (
    ButtonView,
    CardView,
    DeckView,
    FeedbackView,
    ThreeFlagView,
    ThreeFrontView,
    ThreeGameView,
    ThreePlayerView,
    ThreeSideView,
    card_view,
    join_list,
)

__all__ = ["ThreeGameController"]

#: the rule an end of the game is decided by (R36: three adjacent or four flags; R37: nobody can win any more)
END_RULES: dict[ThreeEnd, str] = {
    ThreeEnd.BREAKTHROUGH: "R36",
    ThreeEnd.ENVELOPMENT: "R36",
    ThreeEnd.MOST_FLAGS: "R37",
    ThreeEnd.NO_WINNER: "R37",
}


class ThreeGameController(AsksNewGame):
    """The learner at one seat of the three-player table, two bots at the others.

    ``bots`` names the bots of the seats after the learner's, in the order of play (R34):
    ``("heuristic", "random")`` with the learner at A puts the heuristic at B and the random bot
    at C.  ``seed`` deals the game and seeds the bots, so a game is reproducible; seat A plays
    first.  ``notice`` is the last thing said (a refused move, a claim, the bots' moves).
    """

    def __init__(
        self,
        bots: Sequence[str] = ("heuristic", "random"),
        *,
        seed: int = 0,
        human: Seat = Seat.A,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        names = list(bots)
        if len(names) != 2 or any(name not in THREE_BOTS for name in names):
            raise ValueError(message("three_widget.bad_bots", bots=names, known=", ".join(sorted(THREE_BOTS))))
        self.bot_names = (names[0], names[1])
        self.human = human
        self.lang = lang
        self.seed = seed
        self.state: ThreeState = new_three_game(seed, first=Seat.A)
        self.bots: dict[Seat, ThreeBot] = {}
        self.notice: tuple[str, str] | None = None  # (tone, text)
        self.moves: list[tuple[Seat, Action]] = []  # the bots' moves since the learner's last
        #: New game, asked first when it would discard a game in progress
        self.new_game_question = NewGameQuestion(self.in_progress, self.new_game)
        self.restart(seed)

    # -- the game ---------------------------------------------------------------------------
    def restart(self, seed: int | None = None) -> None:
        """Deal a game from ``seed`` (the same seed: the same game and the same bot moves); the bots
        play until it is the learner's turn."""
        self.seed = self.seed if seed is None else seed
        self.state = new_three_game(self.seed, first=Seat.A)
        others = [self.human.next, self.human.next.next]
        self.bots = {
            seat: make_three_bot(name, seed=self.seed * 3 + k)
            for k, (seat, name) in enumerate(zip(others, self.bot_names, strict=True))
        }
        self.notice = None
        self.moves = []
        self.new_game_question.open = False
        self._bots_play()

    def new_game(self) -> None:
        """The next deal at once (from code; the board's New game asks first: :meth:`ask_new_game`)."""
        self.restart(self.seed + 1)

    def in_progress(self) -> bool:
        """A game that New game would discard: not over, and the learner has moved in it."""
        return not self.state.over and any(seat is self.human for _turn, seat, _a in self.state.history)

    def set_lang(self, lang: str) -> None:
        self.lang = lang

    @property
    def over(self) -> bool:
        return self.state.over

    def legal(self) -> list[Action]:
        """The learner's legal moves now (none while a bot is to act or the game is over)."""
        if self.state.over or self.state.turn is not self.human:
            return []
        return legal_three_moves(self.state)

    def hand_cards(self) -> set[str]:
        """The notations of the learner's hand cards (what a ``play`` may name)."""
        return {c.notation for c in self.state.hands[self.human]}

    def target_cards(self) -> set[str]:
        """The cards a tactics card may act on now: none (the three-player game has no tactics cards)."""
        return set()

    def _bots_play(self) -> None:
        state = self.state
        while not state.over and state.turn is not self.human:
            seat = state.turn
            action = self.bots[seat].choose(ThreeView(state, seat), legal_three_moves(state))
            apply_three(state, action)
            self.moves.append((seat, action))

    def act(self, action: Action) -> bool:
        """Do the learner's ``action``; then the bots play until the learner's turn.  False (and the
        rule's refusal as the notice) if the rules forbid it now."""
        if action not in self.legal():
            try:  # the engine says why, naming the rule
                apply_three(self.state.copy(), action)
            except ThreeIllegalMoveError as err:
                self.notice = ("refused", self.t("game_widget.refused", reason=err.text(self.lang)))
            else:  # legal for the engine but not offered (not the learner's turn)
                self.notice = ("refused", self.t("game_widget.not_offered"))
            return False
        if self.state.turn is self.human and self.state.phase is ThreePhase.PLAY:
            self.moves = []  # a new turn of the learner: the bots' last round stays said until now
        apply_three(self.state, action)
        self.notice = None
        if isinstance(action, Claim):
            self.notice = ("claimed", self.t("game_widget.claimed", flag=action.flag))
        self._bots_play()
        return True

    def intent(self, name: str, value: Any) -> None:
        """An intent of the board (checked by :func:`~battleline_lab.widgets.intents.game_intents`):
        ``play`` [card, flag], ``claim`` a flag, ``draw`` ``troops``, ``do`` ``pass`` / ``end``;
        ``cancel`` drops nothing (the browser holds the card tapped); ``do`` ``new-game`` / ``keep-game``
        answer New game's question (any other move keeps the game)."""
        if self.new_game_question.intent(name, value):
            return
        if name == "play":
            notation, flag = value
            card = next((c for c in self.state.hands[self.human] if c.notation == notation), None)
            if card is None:
                self.notice = ("refused", self.t("game_widget.not_offered"))
                return
            self.act(PlayCard(card, flag))
        elif name == "claim":
            self.act(Claim(value))
        elif name == "draw":
            self.act(Draw(Deck(value)))
        elif name == "do" and value == "pass":
            self.act(Pass())
        elif name == "do" and value == "end":
            self.act(EndClaims())
        elif name != "cancel":
            self.notice = ("refused", self.t("game_widget.not_offered"))

    # -- words ------------------------------------------------------------------------------
    @property
    def t(self) -> Bound:
        """The catalogue in :attr:`lang`."""
        return bound(message, self.lang)

    def player_name(self, seat: Seat) -> str:
        """``A (you)``, ``B (heuristic bot)`` (``甲（你）`` in Chinese)."""
        name = seat_name(seat, self.lang)
        if seat is self.human:
            return self.t("game_widget.name.you", player=name)
        bot = self.bots[seat].name
        key = f"bot.{bot}"
        return self.t("game_widget.name.bot", player=name, bot=self.t(key) if key in catalogue(self.lang) else bot)

    def end_message(self) -> str:
        """The game-over message: the winner, why, the rule and the flags held (empty while the game goes on)."""
        state = self.state
        if not state.over or state.end_reason is None:
            return ""
        reason, rule = end_text(state.end_reason, self.lang), END_RULES[state.end_reason]
        if state.winner is None:
            return self.t("three_widget.over.none", reason=reason, rule=rule)
        return self.t(
            "three_widget.over.winner",
            player=self.player_name(state.winner),
            reason=reason,
            rule=rule,
            flags=join_list(state.held(state.winner), self.lang),
        )

    def moves_said(self) -> list[str]:
        """The bots' moves since the learner's last turn, in words (a draw says no card: R35)."""
        return [describe(action, self.player_name(seat), self.lang) for seat, action in self.moves]

    def _prompt(self) -> str:
        state = self.state
        if state.over:
            return self.end_message()
        legal = self.legal()
        if state.phase is ThreePhase.CLAIM:
            return self.t("three_widget.prompt.claim")
        if state.phase is ThreePhase.DRAW:
            return self.t("three_widget.prompt.draw")
        if legal == [Pass()]:
            return self.t("three_widget.prompt.pass")
        free = [n for n in LINES[self.human] if state.free_slot(n, self.human)]
        return self.t(
            "three_widget.prompt.play", player=self.player_name(self.human), flags=join_list(sorted(free), self.lang)
        )

    def _status(self) -> str:
        state = self.state
        tally = join_list(
            (self.t("three_widget.tally", seat=seat_name(s, self.lang), count=len(state.held(s))) for s in SEATS),
            self.lang,
        )
        return self.t("three_widget.status", tally=tally, turn=state.turn_number, count=len(state.deck))

    # -- the board's view -------------------------------------------------------------------
    def _order(self, flag: int) -> tuple[Seat, Seat]:
        """The two players of ``flag``'s front, top then bottom: the learner at the bottom of their fronts."""
        x, y = FRONT_OF[flag]
        return (x, y) if y is self.human else (y, x) if x is self.human else (x, y)

    def _card(self, card: Troop, flag: int, seat: Seat) -> CardView:
        out = card_view(card, self.lang)
        out["label"] = self.t(
            "three_widget.card_at", card=card_label(card, self.lang), flag=flag, seat=seat_name(seat, self.lang)
        )
        return out

    def _flags(self, legal: list[Action]) -> list[ThreeFlagView]:
        state = self.state
        claims = {a.flag for a in legal if isinstance(a, Claim)}
        claiming = state.phase is ThreePhase.CLAIM and state.turn is self.human and not state.over
        out: list[ThreeFlagView] = []
        for n in range(1, 10):
            owner = state.claimed[n - 1]
            label = (
                self.t("three.picture.held", flag=n, seat=seat_name(owner, self.lang))
                if owner is not None
                else self.t("three.picture.flag", flag=n)
            )
            sides = [
                ThreeSideView(
                    seat=seat.value,
                    label=self.t("three_widget.side", flag=n, player=self.player_name(seat)),
                    cards=[self._card(c, n, seat) for c in state.cards[n - 1][seat]],
                    you=seat is self.human,
                )
                for seat in self._order(n)
            ]
            flag = ThreeFlagView(n=n, label=label, slots=3, sides=sides)
            if owner is not None:  # the holder's name under the flag: not by its colour alone
                flag["owner"] = owner.value
                flag["mark"] = seat_name(owner, self.lang)
            if n in claims:
                flag["claimable"] = True
                flag["claim"] = True
                flag["mark"] = self.t("boardui.flag_claim")
                flag["label"] = self.t("boardui.flag_claim_label", flag=n)
            elif claiming and owner is None and n in LINES[self.human]:
                flag["claim"] = True  # a tap says why not, with its rule (R35)
            out.append(flag)
        return out

    def _hand(self, legal: list[Action]) -> list[CardView]:
        flags_of: dict[Troop, list[int]] = {}
        for a in legal:
            if isinstance(a, PlayCard) and isinstance(a.card, Troop):
                flags_of.setdefault(a.card, []).append(a.flag)
        out = []
        for card in sorted(self.state.hands[self.human], key=card_sort_key):
            item = card_view(card, self.lang)
            if card in flags_of:
                item["flags"] = sorted(flags_of[card])
            out.append(item)
        return out

    def _feedback(self) -> FeedbackView:
        if self.state.over:
            return FeedbackView(tone="over", text=self.end_message(), items=self.moves_said())
        moves = self.moves_said()
        if self.notice is not None:
            tone, text = self.notice
            return FeedbackView(tone=tone, text=text, items=moves)
        if moves:
            return FeedbackView(tone="info", text=self.t("three_widget.moves"), items=moves)
        return FeedbackView()

    def view(self) -> ThreeGameView:
        """The board's view model now, in :attr:`lang`."""
        state = self.state
        legal = self.legal()
        count = len(state.deck)
        drawing = Draw(Deck.TROOPS) in legal
        choices: list[ButtonView] = []
        if Pass() in legal:
            choices.append(ButtonView(action="pass", label=self.t("game_widget.pass")))
        if EndClaims() in legal:
            choices.append(ButtonView(action="end", label=self.t("game_widget.end_claims")))
        fronts = [
            ThreeFrontView(
                key=f"{x.value}{y.value}",
                label=self.t(
                    "three_widget.front",
                    x=seat_name(x, self.lang),
                    y=seat_name(y, self.lang),
                    first=self.player_name(x),
                    second=self.player_name(y),
                    flags=join_list(flags, self.lang),
                ),
                flags=list(flags),
                yours=self.human in (x, y),
            )
            for (x, y), flags in FRONTS.items()
        ]
        players = [
            ThreePlayerView(
                seat=seat.value,
                label=self.t(
                    "three_widget.player",
                    player=self.player_name(seat),
                    count=len(state.hands[seat]),
                    flags=len(state.held(seat)),
                ),
                you=seat is self.human,
                turn=seat is state.turn and not state.over,
            )
            for seat in SEATS
        ]
        out = ThreeGameView(
            mode="three",
            lang=self.lang,
            prompt=self._prompt(),
            status=self._status(),
            board_label=self.t("three_widget.board"),
            players=players,
            fronts=fronts,
            flags=self._flags(legal),
            hand=self._hand(legal),
            hand_label=self.t("three_widget.hand", player=self.player_name(self.human)),
            chosen_text=self.t("boardui.chosen", card="{card}", flags="{flags}"),
            targets=[],
            selection=[],
            decks=[
                DeckView(
                    deck="troops",
                    label=self.t("boardui.deck", deck=self.t("boardui.deck.troops"), count=count),
                    title=self.t("game_widget.draw.troops", count=count),
                    enabled=drawing,
                    primary=drawing,
                )
            ],
            choices=choices,
            feedback=self._feedback(),
        )
        self.new_game_question.show(out, self.t)
        return out

    def __repr__(self) -> str:
        state = self.state
        status = f"over, {state.winner.name if state.winner else 'nobody'} won" if state.over else state.phase.value
        return f"<ThreeGameController seed {self.seed}, you at {self.human.name}: turn {state.turn_number}, {status}>"
