"""A game of Battle Line as a session without a front end: whose turn, what can be chosen, the coach.

:class:`GameSession` owns one game (a :class:`~battleline_lab.game.state.GameState`), the bot
answering the learner, and the learner's half-made choice (a card chosen, then a target, then a
flag).  It answers every question a view asks, as data: which next clicks the legal moves allow
(:meth:`GameSession.offered`, grouped as the board shows them in :meth:`GameSession.offer`), what a
click does (:meth:`GameSession.choose`, :meth:`GameSession.claim`), the prompt, the flag tally, the
outcome and the bot's hand once the game is over, the coach's findings, the strongest bot's suggestion on
request, the choice of opponent, the review at game end and the log.  No ipywidgets, no HTML and
no language here: a notice is data (its kind, the engine's proof or error), the prompt a message
key with its parameters, and the view picks the words.  So game
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
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from ..core.cards import Card, Tactic, card_sort_key
from ..core.claims import ClaimAnalysis, Reason
from ..core.position import FLAGS, ClaimTiming
from . import arguments
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
from .advice import Advice, advise
from .bot_base import Bot
from .bots import BOTS, make_bot
from .review import Review, review, save_for_learner
from .rules import IllegalMoveError, MalformedActionError, apply, claimable, explain_claim, legal_moves, score
from .state import EndReason, GameState, Options, Phase, Player, new_game
from .view import PlayerView

if TYPE_CHECKING:
    from ..training.glicko2 import Rating
    from ..training.progress import Progress

__all__ = [
    "BOT_CHOICES",
    "CoachFinding",
    "GameSession",
    "Notice",
    "Offer",
    "Outcome",
    "Say",
    "Token",
    "action_path",
]

#: The opponents a learner can choose, weakest first (the ladder of ``game/ladder.py``).
BOT_CHOICES = ("random", "gentle", "heuristic", "expert", "master")

#: Words to show, as data: a message key and its parameters.  A parameter may be a
#: :class:`~battleline_lab.game.state.Player` or a card (or ``None``): the view names them in its language.
Say: TypeAlias = tuple[str, dict[str, Any]]

#: One choice on the way to an action: ``("card", c)``, ``("target", c)``, ``("flag", n)``,
#: ``("discard",)``, ``("scout",)``, ``("draw", deck)``, ``("claim", n)``, ``("end",)``, ``("pass",)``.
Token: TypeAlias = tuple[Any, ...]

_TOKEN_KINDS = frozenset({"card", "target", "flag", "discard", "scout", "draw", "claim", "end", "pass"})


def _is_token(token: object) -> bool:
    """A click of the shape :data:`Token` describes (whether it is offered now is the engine's to say)."""
    return isinstance(token, tuple) and len(token) in (1, 2) and isinstance(token[0], str) and token[0] in _TOKEN_KINDS


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
    """What a click did, as data.

    ``kind``: ``chosen``, ``played``, ``claimed``, ``refused`` (with the engine's ``error``, and
    for a claim its proof ``analysis`` and counterexample ``ghosts``), ``not_offered``, ``over``,
    ``bot_next`` (the opponent ``bot`` plays from the next game), ``not_now`` (no suggestion
    now) and ``suggestion`` (the strongest bot's :class:`~battleline_lab.game.advice.Advice` for the
    player of ``view``: its play and the flag's odds and outs that explain it).
    :attr:`GameSession.notice` keeps the one a view shows until the next click.
    """

    kind: str
    flag: int | None = None
    error: IllegalMoveError | None = None
    analysis: ClaimAnalysis | None = None
    ghosts: tuple[Card, ...] = field(default=())
    bot: str | None = None
    suggestion: Advice | None = None
    view: PlayerView | None = None

    @property
    def tone(self) -> str:
        """How a view marks it: ``refused`` (a click refused), ``claimed`` or ``info``; ``""`` for none."""
        if self.kind in ("refused", "not_offered"):
            return "refused"
        if self.kind == "claimed":
            return "claimed"
        return "info" if self.kind in ("bot_next", "not_now", "suggestion") else ""


@dataclass(frozen=True)
class CoachFinding:
    """The coach on one flag: can the player to act claim it (``claimable``), may they claim it in
    this step of the turn (``now``, R14), and the engine's proof."""

    flag: int
    claimable: bool
    analysis: ClaimAnalysis
    now: bool = False


@dataclass(frozen=True)
class Offer:
    """What the player to act can click now, grouped the way the board shows it (one call of the engine).

    ``first``: the clicks that start a move (hand cards, draws, claims, pass...); ``current``: the
    clicks that go on from the choice in progress (the flags for the chosen card...);
    ``targets``: the cards on the table a guile card or the Mud discard acts on, with the flag
    each is at; ``card``/``target``: the card and target chosen so far; ``draw``: whether this is a
    draw step (the deck buttons are shown); ``claims``: the flags whose claim button may be
    pressed (unclaimed, game not over: a claim the engine refuses is answered with its proof).
    """

    legal: tuple[Action, ...]
    first: frozenset[Token]
    current: frozenset[Token]
    targets: tuple[tuple[Card, int | None], ...]
    card: Card | None
    target: Card | None
    draw: bool
    claims: frozenset[int]

    @property
    def flags(self) -> list[int]:
        """The flags a click may go to now (the board marks them)."""
        return sorted(tok[1] for tok in self.current if tok[0] == "flag")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the ``winner`` (``None``: a draw), why, the winner's flags, the points."""

    winner: Player | None
    reason: EndReason | None
    flags: tuple[int, ...]
    points: dict[Player, int]


class GameSession:
    """One game: the state, the bot, the learner's choice in progress and what the last click did.

    Besides the game (:attr:`state`), the session knows everything a view shows: the choice in
    progress (:attr:`selection`), the last notice (:attr:`notice`), whether the coach is shown
    (:attr:`coach_shown`), the expert's last suggestion (:attr:`suggestion`) and the review at
    game end (:attr:`review`, :attr:`saved`, :attr:`moment`).

    The constructor checks its arguments (:mod:`~battleline_lab.game.arguments`): ``bot`` a name of
    :data:`~battleline_lab.game.bots.BOTS` or None (two people on one screen), ``seed`` a whole number
    within ``±MAX_SEED``, ``human`` a seat (a :class:`~battleline_lab.game.state.Player` or
    ``"north"``/``"south"``), ``you_start`` True or False, ``claim_timing`` a
    :class:`~battleline_lab.core.position.ClaimTiming` or its name; else
    :class:`~battleline_lab.game.arguments.GameArgumentError`.  Its methods refuse instead (a notice,
    ``False``, the seed kept) and never raise.
    """

    def __init__(
        self,
        *,
        bot: str | None = "heuristic",
        seed: int = 1,
        human: Player | str = Player.SOUTH,
        you_start: bool = True,
        claim_timing: ClaimTiming | str = ClaimTiming.AFTER_PLAY,
        progress: Progress | None = None,
    ) -> None:
        #: where a finished game against a bot is recorded (one ``game`` row), for the learner's rating
        self.progress = progress
        self.recorded = False  # this game's result is in the progress store
        self.bot_name = None if bot is None else arguments.choice(bot, "bot", list(BOTS), "bot")
        self.human = arguments.seat(human, "human")
        self.you_start = arguments.yes_no(you_start, "you_start")
        self.claim_timing = arguments.claim_timing(claim_timing)
        self.seed = arguments.seed(seed)
        self.state: GameState
        self.bot: Bot | None = None
        self.selection: tuple[Token, ...] = ()
        self.last_seen = 0  # history length when the viewer last acted (what the bot did since)
        self.notice: Notice | None = None
        self.coach_shown = False
        self.suggestion: Advice | None = None
        self.review: Review | None = None
        self.saved: tuple[str, str] | None = None  # ("saved", folder) or ("save_failed", reason)
        self.moment: int | None = None  # the review moment opened as a puzzle
        self.restart(seed)

    # -- the game ------------------------------------------------------------
    def restart(self, seed: int | None = None) -> None:
        """Deal a new game (the same seed gives the same game and the same bot replies).

        A value that is no seed (:func:`~battleline_lab.game.arguments.is_seed`) is refused: the
        game's seed stays.
        """
        if arguments.is_seed(seed):
            self.seed = arguments.seed(seed)
        first = self.human if self.you_start else self.human.other
        self.state = new_game(self.seed, Options(claim_timing=self.claim_timing, first=first))
        self.bot = make_bot(self.bot_name, self.seed) if self.bot_name else None
        self.last_seen = 0
        self.recorded = False
        self._drop()
        self.play_bots()

    def new_game(self) -> None:
        """The next game (the next seed; after the last seed, the first), with the opponent chosen last."""
        self.restart(self.seed + 1 if self.seed < arguments.MAX_SEED else -arguments.MAX_SEED)

    def resume(self) -> None:
        """Go on from :attr:`state` as it is now (a lesson or a test set up the table): the choice, the
        notice and the review are dropped, and the bot moves if it is its turn."""
        self.last_seen = len(self.state.history)
        self._drop()
        self.play_bots()

    def _drop(self) -> None:
        self.selection = ()
        self.notice = None
        self.review = None
        self.saved = None
        self.moment = None

    def play_bots(self) -> None:
        """Let the bot act until it is the learner's move (a Mud discard may be theirs on the bot's turn)."""
        if self.bot is None:
            return
        state = self.state
        while not state.over and state.to_act is not self.human:
            apply(state, self.bot.choose(PlayerView(state, state.to_act), legal_moves(state)))
        if state.over:
            self._record_result()

    # -- levels: the learner's game rating and an opponent at their level (game/ladder.py) --------
    def _record_result(self) -> None:
        """Once per game, a finished game against a bot goes in the progress store (if there is one)."""
        if self.recorded or self.progress is None or self.bot_name is None:
            return
        winner = self.state.winner
        points = 0.5 if winner is None else 1.0 if winner is self.human else 0.0
        self.progress.record_game(self.bot_name, points, seed=self.seed)
        self.recorded = True

    def learner_rating(self) -> Rating:
        """The learner's Glicko-2 game rating from their games against rated bots (1500 without a store)."""
        from ..training.glicko2 import Rating
        from .ladder import learner_rating

        return learner_rating(self.progress.games()) if self.progress is not None else Rating()

    def level_bot(self) -> str:
        """The rated bot whose published rating is nearest the learner's game rating."""
        from .ladder import nearest_bot

        return nearest_bot(self.learner_rating().rating)

    def choose_level(self) -> str:
        """ "An opponent at my level": :meth:`choose_bot` with :meth:`level_bot`; returns its name."""
        name = self.level_bot()
        if self.bot_name is not None:
            self.choose_bot(name)
        return name

    @property
    def viewer(self) -> Player:
        """Whose view the board shows: the learner against a bot, else whoever must act."""
        return self.human if self.bot is not None else self.state.to_act

    def view(self) -> PlayerView:
        """The table as the viewer sees it (the other hand hidden, R13)."""
        return PlayerView(self.state, self.viewer)

    def legal(self) -> list[Action]:
        """The legal actions of the player to act now (the engine's list)."""
        return legal_moves(self.state)

    def offered(self, prefix: tuple[Token, ...] = (), legal: list[Action] | None = None) -> set[Token]:
        """The next clicks the legal moves allow after ``prefix``."""
        n = len(prefix)
        moves = self.legal() if legal is None else legal
        return {p[n] for a in moves if len(p := action_path(a)) > n and p[:n] == prefix}

    def offer(self) -> Offer:
        """Everything the player to act can click now, from one call of the engine (see :class:`Offer`)."""
        legal = self.legal()
        selection = self.selection
        card = selection[0][1] if selection and selection[0][0] == "card" else None
        level = selection[:1] if card is not None else ()
        targets = sorted((tok[1] for tok in self.offered(level, legal) if tok[0] == "target"), key=card_sort_key)
        view = self.view()
        over = self.state.over
        return Offer(
            legal=tuple(legal),
            first=frozenset(self.offered((), legal)),
            current=frozenset(self.offered(selection, legal)),
            targets=tuple((c, _where(view, c)) for c in targets),
            card=card,
            target=next((tok[1] for tok in selection if tok[0] == "target"), None),
            draw=self.state.phase in (Phase.DRAW, Phase.SCOUT_DRAW),
            claims=frozenset(() if over else (n for n in FLAGS if view.claimed_by(n) is None)),
        )

    def card_moves(self, offer: Offer | None = None) -> dict[Card, tuple[int, ...] | None]:
        """Per card in hand that starts a legal move: the flags it may be played to (R6, R25), when
        playing it is nothing more (one tap on the card, one on a flag: a board decides that in
        the browser); ``None`` when the session must make the next choices (Scout, Redeploy,
        Deserter, Traitor, a Scout return: R27-R30).  From :func:`legal_moves` only.

        >>> s = GameSession(bot="heuristic", seed=3)
        >>> moves = s.card_moves()
        >>> sorted(c.notation for c in moves)[:3], moves[s.hand()[0]]
        (['g1', 'g5', 'o6'], (1, 2, 3, 4, 5, 6, 7, 8, 9))
        """
        legal = offer.legal if offer is not None else tuple(self.legal())
        flags: dict[Card, set[int]] = {}
        other: set[Card] = set()
        for action in legal:
            path = action_path(action)
            if path[0][0] != "card":
                continue
            card = path[0][1]
            if isinstance(action, PlayCard):
                flags.setdefault(card, set()).add(action.flag)
            else:
                other.add(card)
        out: dict[Card, tuple[int, ...] | None] = {c: tuple(sorted(ns)) for c, ns in flags.items() if c not in other}
        out.update((c, None) for c in other)
        return out

    def hand(self) -> list[Card]:
        """The viewer's hand, sorted as the hand buttons show it."""
        return sorted(PlayerView(self.state, self.viewer).hand, key=card_sort_key)

    def choose(self, token: Token) -> Notice:
        """One click on the way to an action: a card, a target, a flag, a deck, pass, end..."""
        if self.state.over:
            return Notice("over")
        if not _is_token(token):  # not a click any view could send: refused, nothing changes
            self.notice = Notice("not_offered")
            return self.notice
        self.notice = None
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
        self.notice = Notice("not_offered")
        return self.notice

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
        except MalformedActionError as err:  # no flag 0, 10 or "x": refused, with no proof to show (R3)
            self.notice = Notice("refused", error=err)
            return self.notice
        except IllegalMoveError as err:
            analysis = explain_claim(self.state, player, flag)
            self.notice = Notice("refused", flag, err, analysis, analysis.counterexample)
            return self.notice
        self._after(before)
        self.notice = Notice("claimed", flag)
        return self.notice

    def _act(self, action: Action, kind: str) -> Notice:
        before = len(self.state.history)
        try:
            apply(self.state, action)
        except IllegalMoveError as err:  # only if the state changed under a stale choice
            self.notice = Notice("refused", error=err)
            return self.notice
        self._after(before)
        return Notice(kind)

    def _after(self, before: int) -> None:
        self.last_seen = before
        self.play_bots()
        if self.bot is None:
            self.last_seen = len(self.state.history)

    # -- opponent, coach, suggestion, review ---------------------------------------
    def choose_bot(self, name: str) -> bool:
        """Another opponent: at once (a new deal, same seed) if the learner has not moved yet, else
        from the next game (:attr:`notice` says so).  True if the game was dealt again."""
        if name == self.bot_name or self.bot_name is None:
            return False
        if not isinstance(name, str) or name not in BOTS:
            self.notice = Notice("not_offered")  # no such opponent: nothing changes
            return False
        self.bot_name = name
        if all(actor is not self.human for _turn, actor, _a in self.state.history):
            self.restart(self.seed)
            return True
        self.notice = Notice("bot_next", bot=name)
        return False

    def show_coach(self, shown: bool) -> None:
        """Show or hide the coach (:meth:`coach`); it says nothing once the game is over."""
        self.coach_shown = shown is True

    @property
    def coach_visible(self) -> bool:
        """Whether a view shows the coach now."""
        return self.coach_shown and not self.state.over

    def suggest_move(self) -> Notice:
        """The strongest bot's play for the learner, with the flag's odds and outs that explain it
        (:func:`~battleline_lab.game.advice.advise`): only on request (it is a hint), and only when it
        is their turn to play a card; else a ``not_now`` notice."""
        state = self.state
        player = state.to_act
        if state.over or state.phase is not Phase.PLAY or (self.bot is not None and player is not self.human):
            self.notice = Notice("not_now")
            return self.notice
        view = PlayerView(state, player)
        self.suggestion = advise(view, self.legal(), seed=self.seed * 1000 + state.turn_number)
        self.notice = Notice("suggestion", suggestion=self.suggestion, view=view)
        return self.notice

    def open_review(self, folder: str | Path | None = None) -> Review | None:
        """At game end: review the learner's game (:func:`~battleline_lab.game.review.review`), save its
        puzzles for the trainer (``data_dir()/review/``, or ``folder``) and open the first moment."""
        if not self.state.over:
            return None
        player = self.human if self.bot is not None else self.state.first
        self.review = review(self.state, player)
        from ..formats.settings import SettingError

        try:
            paths = save_for_learner(self.review, folder)
        except OSError as err:
            self.saved = ("save_failed", err.strerror or str(err))
        except SettingError as err:  # the data folder's setting cannot be used: said, never raised
            self.saved = ("save_failed", str(err))
        else:
            self.saved = ("saved", str(paths[0].parent) if paths else "")
        self.moment = 0 if self.review.moments else None
        return self.review

    def open_moment(self, index: int) -> bool:
        """Open review moment ``index`` (a view shows its puzzle); False, and nothing changes, if there is none."""
        if self.review is None or type(index) is not int or not 0 <= index < len(self.review.moments):
            return False
        self.moment = index
        return True

    # -- what the view shows -----------------------------------------------------
    def prompt(self, offer: Offer | None = None) -> Say:
        """What the player to act is asked to do now (phase and choice in progress: R5, R14, R26, R27).

        ``offer``: :meth:`offer` if the caller has it already (it saves asking the engine again).
        """
        state = self.state
        if state.over:
            return "game_widget.prompt.over", {}
        if self.selection:
            card = self.selection[0][1] if self.selection[0][0] == "card" else None
            if len(self.selection) >= 2:
                return "game_widget.prompt.destination", {"card": card, "target": self.selection[1][1]}
            if isinstance(card, Tactic) and not (card.is_wild or card.is_environment):
                return f"game_widget.prompt.{card.value}", {"card": card}
            return "game_widget.prompt.flag", {"card": card}
        who = state.to_act
        phase = state.phase
        if phase is Phase.PLAY:
            key = "play_or_pass" if ("pass",) in (offer.first if offer else self.offered()) else "play"
            return f"game_widget.prompt.{key}", {"player": who}
        if phase is Phase.CLAIM:
            return "game_widget.prompt.claim", {"player": who}
        if phase is Phase.DRAW:
            return "game_widget.prompt.draw", {"player": who}
        if phase is Phase.SCOUT_DRAW:
            return "game_widget.prompt.scout_draw", {"player": who, "count": state.scout_draws}
        if phase is Phase.SCOUT_RETURN:
            return "game_widget.prompt.scout_return", {"player": who, "count": state.scout_returns}
        flag = PlayerView(state, who).pending_discard_flag
        return "game_widget.prompt.mud_discard", {"player": who, "flag": flag}

    def target_prompt(self) -> str | None:
        """The message key over the target buttons: which card a guile card (or the Mud discard, R26) acts on."""
        if self.state.phase is Phase.MUD_DISCARD:
            return "game_widget.targets.mud"
        card = self.selection[0][1] if self.selection else None
        if isinstance(card, Tactic):
            return f"game_widget.targets.{card.value}"
        return None

    def tally(self) -> tuple[int, int]:
        """Flags held: (the viewer's, the other player's) (R15)."""
        return len(self.state.held(self.viewer)), len(self.state.held(self.viewer.other))

    def outcome(self) -> Outcome | None:
        """How the game ended (R16, and the points), or ``None`` while it goes on."""
        state = self.state
        if not state.over:
            return None
        flags = tuple(state.held(state.winner)) if state.winner is not None else ()
        return Outcome(state.winner, state.end_reason, flags, score(state))

    def revealed_hand(self) -> tuple[Card, ...]:
        """The other player's hand, once the game is over (never before: R13)."""
        if not self.state.over:
            return ()
        return tuple(sorted(self.state.hands[self.viewer.other], key=card_sort_key))

    def highlight(self) -> list[Card]:
        """The card (and target) being chosen, and what the other player did since the viewer's last move."""
        out = [tok[1] for tok in self.selection if tok[0] in ("card", "target")]
        for _turn, actor, action in self.state.history[self.last_seen :]:
            if actor is self.viewer:
                continue
            if isinstance(action, PlayCard):
                out.append(action.card)
            elif isinstance(action, (Redeploy, Deserter, Traitor)):
                out.append(action.target)
        return out

    def coach(self) -> list[CoachFinding]:
        """Per flag where the player to act has cards: the engine's claim proof, claimable flags first."""
        state = self.state
        player = state.to_act
        view = PlayerView(state, player)
        can = set(claimable(state, player))
        legal = set(self.legal())
        now: list[CoachFinding] = []
        later: list[CoachFinding] = []
        for n in FLAGS:
            if view.claimed_by(n) is not None or not view.flag_cards(n, player):
                continue
            analysis = explain_claim(state, player, n)
            if Reason.SIDE_INCOMPLETE in analysis.reasons:
                continue
            (now if n in can else later).append(CoachFinding(n, n in can, analysis, Claim(n) in legal))
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


def _where(view: PlayerView, card: Card) -> int | None:
    """The flag a card on the table is at (on either side, or as an environment card)."""
    for n in FLAGS:
        for p in Player:
            if card in view.flag_cards(n, p) or card in view.flag_env(n, p):
                return n
    return None
