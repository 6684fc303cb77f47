"""The master bot (``master``), the strongest: the judge's move, checked by sampling where the judge is weakest.

The judge (:class:`~.master.JudgeBot`) chooses troops well and tactics less well: measured against
the public prob bot, handing prob the choice of tactics, guile and Scout won more games than handing it
the troops. So this bot plays the judge's move, except at the decisions where a tactics card is in
play: the judge's move is a tactics card, Scout or a pass; or a Deserter or Traitor can hit a
finished formation of the opponent's; or Scout can be played. There the candidates are the judge's
move, the judge's best troop play, those guile moves, Scout and the tactics move with the best
estimated gain (the heuristic's). With claims at the start of the turn (R14) one more decision is
searched: the judge's troop play completes our side of a flag while the opponent holds a tactics
card, so the finished side stands through their turn before we can claim it; there the judge's
move meets the judge's best move on another flag. Each is tried on deals of the cards this player cannot see
(:func:`~.expert.determinize`: the opponent's hand and the decks, drawn from the unseen cards only,
the public counts kept, R13). On each deal the judges play both sides to the end of the game
(:func:`playout`): the opponent's turn in the window before a claim (R14), its Deserter on a
finished formation (R29), our claims, everything. The move with the most won play-outs is played
(the judge's on a tie). Every candidate meets the same deals (common random numbers).

The budget is a number of deals per decision, not wall time (:func:`samples_for`: 8 with claims
after playing, 16 with claims at the start of the turn), so a seeded bot plays the same moves on any
machine; claims, draws, Scout returns and Mud discards are the judge's. Most card plays are the
judge's alone (about a millisecond); a searched decision costs a few hundred milliseconds to a few
seconds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.cards import Troop
from ..core.position import ClaimTiming
from . import arguments
from .actions import Action, Deserter, Pass, PlayCard, PlayScout, Traitor
from .expert import determinize
from .heuristic import TACTIC_COST, Board, HeuristicBot
from .master import JudgeBot, Judgment
from .rules import apply, legal_moves
from .state import GameState, Phase, Player
from .view import PlayerView

__all__ = ["SAMPLES", "WINDOW_SAMPLES", "MasterBot", "candidates", "playout", "samples_for"]

SAMPLES = 8  # deals per searched decision with claims after playing (each candidate played out once on each)
WINDOW_SAMPLES = 16  # with claims at the start of the turn, where the window's decisions are searched too
MARGIN = 0.0  # another move must win this share of play-outs more than the judge's
MAX_GUILE = 3  # Deserter and Traitor moves searched at most (a Traitor has a move per target and flag)
WINDOW_FINISH = True  # with claims at the start of the turn, finishing a side is searched against playing elsewhere
MAX_PLAYOUT_ACTIONS = 2000  # far above any real game's remaining actions
_SCOUT = PlayScout()
_DUMPS = frozenset(
    {"dump", "dump-useful", "dump-lost", "fallback", "scout"}
)  # the judge's reasons for a card it only gets rid of


def samples_for(timing: ClaimTiming) -> int:
    """The deals a searched decision is played out on, by claim timing (R14): with claims at the start
    of the turn a finished side stands through the opponent's turn, and finishing or waiting is
    searched too; the difference between those moves is smaller than the play-outs' noise on 8
    deals, so they get 16 (docs/game.md, "More deals for the window")."""
    return WINDOW_SAMPLES if timing is ClaimTiming.START_OF_TURN else SAMPLES


def _is_troop_play(action: Action) -> bool:
    return type(action) is PlayCard and isinstance(action.card, Troop)


def candidates(view: PlayerView, legal: Sequence[Action], judge: JudgeBot, mine: Action) -> list[Action]:
    """The moves to search, the judge's (``mine``) first; only ``mine`` where no tactics card is in play.

    Guile counts where a finished formation of the opponent's takes a flag we cannot win any more
    (the judge reads that flag as lost: the window before their claim); Scout where the judge's own
    move only dumps a card. At most :data:`MAX_GUILE` guile moves, the heuristic's best first.
    With claims at the start of the turn, a troop play of the judge's that completes our side while
    the opponent holds a tactics card is weighed against the judge's best move on another flag
    (:func:`_elsewhere`: the window is ours to lose too)."""
    judgment = Judgment(view)
    them = view.player.other
    doomed = {c for n, fj in judgment.flags.items() if fj.made and fj.lost for c in view.flag_cards(n, them)}
    guile = [a for a in legal if isinstance(a, (Deserter, Traitor)) and a.target in doomed]
    scout = [_SCOUT] if _SCOUT in legal and judge.reason in _DUMPS else []
    troop = _is_troop_play(mine)
    if troop and not guile and not scout:
        elsewhere = _elsewhere(view, legal, judge, mine) if WINDOW_FINISH else None
        return [mine] if elsewhere is None else [mine, elsewhere]  # elsewhere is never on mine's flag
    board = Board(view)
    out = [mine]
    troops = [a for a in legal if _is_troop_play(a)]
    if troops and not troop:
        out.append(judge.choose(view, troops))
    tactics = [a for a in legal if not _is_troop_play(a) and type(a) is not Pass]
    if tactics:
        out.append(max(tactics, key=lambda a: (board.gain(a) - TACTIC_COST, -tactics.index(a))))
    guile.sort(key=lambda a: (-board.gain(a), legal.index(a)))
    out.extend(guile[:MAX_GUILE])
    out.extend(scout)
    unique: list[Action] = []
    for a in out:
        if a not in unique:
            unique.append(a)
    return unique


def _elsewhere(view: PlayerView, legal: Sequence[Action], judge: JudgeBot, mine: Action) -> Action | None:
    """With claims at the start of the turn (R14), a troop play that completes our side of a flag stands
    one opponent turn before we can claim it, open to their Deserter, Traitor, Fog or Mud (R24-R29):
    where the opponent holds a tactics card, the judge's best move on another flag, to weigh against
    finishing now; else None."""
    if view.options.claim_timing is not ClaimTiming.START_OF_TURN or view.opponent_hand_tactics == 0:
        return None
    if not isinstance(mine, PlayCard) or len(view.flag_cards(mine.flag, view.player)) + 1 < view.size(mine.flag):
        return None
    rest = [a for a in legal if not (type(a) is PlayCard and a.flag == mine.flag)]
    if not rest:
        return None
    reason = judge.reason  # the judge's reason stays the one for its own move
    other = judge.choose(view, rest)
    judge.reason = reason
    return other


def playout(game: GameState, me: Player, judges: tuple[JudgeBot, JudgeBot]) -> float:
    """Play ``game`` to its end with the judges (``judges[0]`` for ``me``), and score it for ``me``:
    1 won, 0.5 drawn, 0 lost. ``game`` is changed in place (its history is the play-out)."""
    for _ in range(MAX_PLAYOUT_ACTIONS):
        if game.over:
            break
        actor = game.to_act
        bot = judges[0 if actor is me else 1]
        apply(game, bot.choose(PlayerView(game, actor), legal_moves(game)))
    if not game.over or game.winner is None:
        return 0.5
    return 1.0 if game.winner is me else 0.0


class MasterBot(HeuristicBot):
    """The judge's move, checked by play-outs on deals of the unseen cards where tactics are in play
    (see the module doc). ``samples`` deals per searched decision (by default :func:`samples_for` the
    game's claim timing); the same seed, the same moves."""

    name = "master"

    def __init__(self, seed: int | None = None, *, samples: int | None = None, margin: float | None = None) -> None:
        super().__init__(seed)
        self.samples = None if samples is None else arguments.whole_number(samples, "samples", 1, 1000)
        self.margin = arguments.number(MARGIN if margin is None else margin, "margin", 0.0, 1.0)
        self._judge = JudgeBot(seed)
        self.searched = 0  # decisions searched so far (for tests and measurements)
        self.reason = ""  # which rule of the judge chose its last card play, "searched" if the search changed it
        self.prior: Action | None = None  # the judge's move at the last decision (what the search may pass over)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        arguments.require_moves(self.name, legal)
        self._judge.reason = ""  # the judge names a rule only for the card plays it chooses by one
        mine = self._judge.choose(view, legal)
        self.reason = self._judge.reason
        self.prior = mine
        if len(legal) == 1 or view.phase is not Phase.PLAY:
            return mine
        cands = candidates(view, legal, self._judge, mine)
        if len(cands) == 1:
            return mine
        self.searched += 1
        seed = self.rng.getrandbits(32)
        judges = (JudgeBot(seed), JudgeBot(seed + 1))  # seeded by role (ours, theirs), not by seat
        totals = [0.0] * len(cands)
        me = view.player
        deals = self.samples or samples_for(view.options.claim_timing)
        for s in range(deals):
            deal = determinize(view, random.Random(seed * 7919 + s))
            for k, action in enumerate(cands):
                game = deal.copy()
                apply(game, action)
                totals[k] += playout(game, me, judges)
        best = max(range(len(cands)), key=lambda k: (totals[k], -k))
        if best != 0 and (totals[best] - totals[0]) / deals > self.margin:
            self.reason = "searched"
            return cands[best]
        return mine
