"""A game of Battle Line as a session without a front end: whose turn, what can be chosen, the coach.

:class:`GameSession` owns one game (a :class:`~battleline_lab.game.state.GameState`), the bot
answering the learner, and the learner's half-made choice (a card chosen, then a target, then a
flag).  It answers every question a view asks, as data: which next clicks the legal moves allow
(:meth:`GameSession.offered`), what a click does (:meth:`GameSession.choose`,
:meth:`GameSession.claim`), the flag tally, the bot's hand once the game is over, the coach's
findings and the log.  No ipywidgets, no HTML and no language here: a notice is a message key
with its parameters (and the engine's proof or error), and the view picks the words.  So game
flow is tested without a browser (``tests/game/test_session.py``) and runs unchanged in Pyodide.

Each legal move is a short path of clicks (:func:`action_path`); the session never decides a
rule itself: the clicks offered are those :func:`~battleline_lab.game.legal_moves` allows, the
effects those of :func:`~battleline_lab.game.apply`, claim verdicts those of
:func:`~battleline_lab.game.explain_claim` (R12, R13, R14).

>>> from battleline_lab.game import Deck
>>> s = GameSession(bot="heuristic", seed=3)
>>> sorted(tok[1].notation for tok in s.offered() if tok[0] == "card")[:3]
['g1', 'g5', 'o6']
>>> s.choose(("card", s.hand()[0])).kind
'chosen'
>>> s.choose(("flag", 5)).kind
'played'
>>> s.choose(("draw", Deck.TROOPS)).kind, s.state.turn_number   # the bot replied at once
('played', 3)
>>> s.tally()
(0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeAlias

from ..cards import Card, Tactic, card_sort_key
from ..claims import ClaimAnalysis, Reason
from ..position import FLAGS, ClaimTiming
from .actions import (
    Action,
    Claim,
    Deserter,
    Draw,
    EndClaims,
    MudDiscard,
    PlayCard,
    PlayScout,
    Redeploy,
    ReturnCard,
    Traitor,
)
from .bots import Bot, make_bot
from .rules import IllegalMoveError, apply, claimable, explain_claim, legal_moves
from .state import GameState, Options, Player, new_game
from .view import PlayerView

__all__ = ["CoachFinding", "GameSession", "Notice", "Token", "action_path"]

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


@dataclass(frozen=True)
class Notice:
    """What a click did, as data: ``kind`` (``chosen``, ``played``, ``claimed``, ``refused``,
    ``not_offered``, ``over``), the engine's refusal (``error``) and claim proof (``analysis``)."""

    kind: str
    flag: int | None = None
    error: IllegalMoveError | None = None
    analysis: ClaimAnalysis | None = None
    ghosts: tuple[Card, ...] = field(default=())


@dataclass(frozen=True)
class CoachFinding:
    """The coach on one flag: can the player to act claim it now, and the engine's proof."""

    flag: int
    claimable: bool
    analysis: ClaimAnalysis


class GameSession:
    """One game: the state, the bot, and the learner's choice in progress (see the module doc)."""

    def __init__(
        self,
        *,
        bot: str | None = "heuristic",
        seed: int = 1,
        human: Player = Player.SOUTH,
        you_start: bool = True,
        claim_timing: ClaimTiming | str = ClaimTiming.AFTER_PLAY,
    ) -> None:
        self.bot_name = bot
        self.human = human
        self.you_start = you_start
        self.claim_timing = ClaimTiming(claim_timing)
        self.seed = seed
        self.state: GameState
        self.bot: Bot | None = None
        self.selection: tuple[Token, ...] = ()
        self.last_seen = 0
        self.restart(seed)

    # -- the game ------------------------------------------------------------
    def restart(self, seed: int | None = None) -> None:
        """Deal a new game (the same seed gives the same game and the same bot replies)."""
        if seed is not None:
            self.seed = seed
        first = self.human if self.you_start else self.human.other
        self.state = new_game(self.seed, Options(claim_timing=self.claim_timing, first=first))
        self.bot = make_bot(self.bot_name, self.seed) if self.bot_name else None
        self.selection = ()
        self.last_seen = 0
        self.play_bots()

    def play_bots(self) -> None:
        """Let the bot act until it is the learner's move (a Mud discard may be theirs on the bot's turn)."""
        if self.bot is None:
            return
        state = self.state
        while not state.over and state.to_act is not self.human:
            apply(state, self.bot.choose(PlayerView(state, state.to_act), legal_moves(state)))

    @property
    def viewer(self) -> Player:
        """Whose view the board shows: the learner against a bot, else whoever must act."""
        return self.human if self.bot is not None else self.state.to_act

    def legal(self) -> list[Action]:
        """The legal actions of the player to act now (the engine's list)."""
        return legal_moves(self.state)

    def offered(self, prefix: tuple[Token, ...] = ()) -> set[Token]:
        """The next clicks the legal moves allow after ``prefix``."""
        n = len(prefix)
        return {p[n] for a in self.legal() if len(p := action_path(a)) > n and p[:n] == prefix}

    def hand(self) -> list[Card]:
        """The viewer's hand, sorted as the hand buttons show it."""
        return sorted(PlayerView(self.state, self.viewer).hand, key=card_sort_key)

    def choose(self, token: Token) -> Notice:
        """One click on the way to an action: a card, a target, a flag, a deck, pass, end..."""
        if self.state.over:
            return Notice("over")
        chosen = self.selection + (token,)
        if token[0] == "card":
            chosen = (token,)  # another card in hand starts a new choice
        if token[0] == "target" and self.selection and self.selection[-1][0] == "target":
            chosen = self.selection[:-1] + (token,)  # another target instead
        legal = self.legal()
        matches = [a for a in legal if action_path(a) == chosen]
        if matches:
            self.selection = ()
            return self._act(matches[0], "played")
        if any(action_path(a)[: len(chosen)] == chosen for a in legal):
            self.selection = chosen
            return Notice("chosen")
        return Notice("not_offered")

    def cancel(self) -> None:
        """Drop the card (and target) chosen so far."""
        self.selection = ()

    def claim(self, flag: int) -> Notice:
        """Claim ``flag`` if the engine allows; else the engine's refusal and proof (R12, R14)."""
        if self.state.over:
            return Notice("over")
        self.selection = ()
        player = self.state.to_act
        before = len(self.state.history)
        try:
            apply(self.state, Claim(flag))
        except IllegalMoveError as err:
            analysis = explain_claim(self.state, player, flag)
            return Notice("refused", flag, err, analysis, analysis.counterexample)
        self._after(before)
        return Notice("claimed", flag)

    def _act(self, action: Action, kind: str) -> Notice:
        before = len(self.state.history)
        try:
            apply(self.state, action)
        except IllegalMoveError as err:  # only if the state changed under a stale choice
            return Notice("refused", error=err)
        self._after(before)
        return Notice(kind)

    def _after(self, before: int) -> None:
        self.last_seen = before
        self.play_bots()
        if self.bot is None:
            self.last_seen = len(self.state.history)

    # -- what the view shows -----------------------------------------------------
    def tally(self) -> tuple[int, int]:
        """Flags held: (the viewer's, the other player's) (R15)."""
        return len(self.state.held(self.viewer)), len(self.state.held(self.viewer.other))

    def revealed_hand(self) -> tuple[Card, ...]:
        """The other player's hand, once the game is over (never before: R13)."""
        if not self.state.over:
            return ()
        return tuple(sorted(self.state.hands[self.viewer.other], key=card_sort_key))

    def coach(self) -> list[CoachFinding]:
        """Per flag where the player to act has cards: the engine's claim proof, claimable flags first."""
        state = self.state
        player = state.to_act
        view = PlayerView(state, player)
        can = set(claimable(state, player))
        now: list[CoachFinding] = []
        later: list[CoachFinding] = []
        for n in FLAGS:
            if view.claimed_by(n) is not None or not view.flag_cards(n, player):
                continue
            analysis = explain_claim(state, player, n)
            if Reason.SIDE_INCOMPLETE in analysis.reasons:
                continue
            (now if n in can else later).append(CoachFinding(n, n in can, analysis))
        return now + later

    def log(self) -> list[tuple[int, Player, Action, bool]]:
        """The history as (turn, actor, action, hidden): a card returned by the opponent's Scout is hidden (R27)."""
        return [
            (turn, actor, action, isinstance(action, ReturnCard) and actor is not self.viewer)
            for turn, actor, action in self.state.history
        ]

    def __repr__(self) -> str:
        state = self.state
        if state.over:
            where = f"over, {state.winner.value if state.winner else 'no'} winner"
        else:
            where = f"turn {state.turn_number}, {state.to_act.value} to play"
        return f"<GameSession seed {self.seed}, {self.human.value} against {self.bot_name}: {where}>"
