"""The expert bot: determinized Monte Carlo search with the heuristic bot as rollout policy.

For a card to play, :class:`ExpertBot` takes the heuristic bot's best few
candidate moves and tries each of them many times on *determinizations*: games
that agree with everything the expert can see (its
:class:`~battleline_lab.game.view.PlayerView`: the table, both discard areas,
its own hand, the cards it put back with a Scout, the sizes of the opponent's
hand and of the decks) and deal the cards it cannot see (the opponent's hand,
the order of the decks) at random from the cards still unseen
(:func:`determinize`).  Each try plays on with the heuristic bot for both sides:
by default one more card play (the opponent's reply, with the hand it was dealt),
then the position is scored by :func:`win_chance`, the chance of winning the game
from the heuristic bot's per-flag estimates (R16: 3 adjacent flags or 5); with
``depth=None`` to the end of the game.  The candidate with the best mean score
is played; a sequential-halving schedule spends the budget on the better
candidates, and every candidate's try ``j`` uses the same deal.  Claims are made
at once (as the heuristic bot does: a proved flag can only help, R12); draws,
Scout returns and Mud discards follow the heuristic bot.

The budget is a number of tries per decision (``rollouts``), not wall time, so
a bot with a given seed makes the same moves on any machine.

>>> from battleline_lab.game.state import new_game
>>> from battleline_lab.game.rules import legal_moves
>>> state = new_game(3)
>>> bot = ExpertBot(1, rollouts=4, candidates=2)
>>> move = bot.choose(PlayerView(state, state.turn), legal_moves(state))
>>> move in legal_moves(state)
True
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.cards import Card, Tactic, Troop, card_sort_key
from ..core.formations import formation_size
from . import arguments
from .actions import Action, Pass, PlayCard
from .bot_base import added
from .heuristic import TACTIC_COST, Board, HeuristicBot
from .rules import apply, legal_moves
from .state import Deck, GameState, Phase, Player
from .view import PlayerView

__all__ = [
    "DEFAULT_CANDIDATES",
    "DEFAULT_ROLLOUTS",
    "ExpertBot",
    "Suggestion",
    "determinize",
    "effect_lines",
    "suggest",
    "suggestion_text",
]

DEFAULT_ROLLOUTS = 48  # play-outs per decision (see docs/game.md for strength and speed)
DEFAULT_CANDIDATES = 8  # the heuristic bot's best moves that are searched
DEFAULT_DEPTH: int | None = 1  # card plays per play-out before the position is scored (None: to the end)
MAX_ROLLOUT_ACTIONS = 600  # a play-out longer than this counts as a draw (never seen)


def determinize(view: PlayerView, rng: random.Random) -> GameState:
    """A complete game state that agrees with everything ``view.player`` can see.

    The cards the player cannot see (the opponent's hand and the decks, except
    the cards the player put back on top with a Scout, R27) are put in a fixed
    order, shuffled with ``rng`` and dealt again: the opponent gets as many
    tactics cards and troops as the public counts say it holds (10 tactics cards
    minus those seen, in the tactics deck and in the player's hand), and the
    decks keep their sizes.  So the result depends on the view and ``rng`` only,
    never on the real hidden cards.  The move history (which names the
    opponent's Scout returns) is dropped.

    >>> from battleline_lab.game.state import new_game
    >>> state = new_game(4)
    >>> view = PlayerView(state, state.turn)
    >>> a, b = determinize(view, random.Random(1)), determinize(view, random.Random(1))
    >>> a.hands == b.hands and a.decks == b.decks, a.hands[state.turn] == state.hands[state.turn]
    (True, True)
    """
    real = view._state  # public fields are copied; every hidden one is dealt anew below
    me = view.player
    opp = me.other
    state = real.copy()
    state.history = []
    tops = view.known_deck_tops
    hidden: dict[Deck, list[Card]] = {}
    for deck in Deck:
        cards = state.decks[deck]
        hidden[deck] = cards[: len(cards) - len(tops[deck.value])]
    for card in state.hands[opp]:
        hidden[Deck.of(card)].append(card)
    for deck in Deck:
        hidden[deck].sort(key=card_sort_key)  # forget the real order ...
        rng.shuffle(hidden[deck])  # ... and deal at random
    deck_sizes = view.deck_sizes
    opp_tactics = len(hidden[Deck.TACTICS]) - (deck_sizes["tactics"] - len(tops["tactics"]))
    opp_troops = view.opponent_hand_size - opp_tactics
    state.hands[opp] = hidden[Deck.TACTICS][:opp_tactics] + hidden[Deck.TROOPS][:opp_troops]
    rest = {Deck.TACTICS: hidden[Deck.TACTICS][opp_tactics:], Deck.TROOPS: hidden[Deck.TROOPS][opp_troops:]}
    for deck in Deck:
        known = list(reversed(tops[deck.value]))  # top card last
        state.decks[deck] = rest[deck] + known
        state.deck_marks[deck] = [None] * len(rest[deck]) + [me] * len(known)
    return state


def playout(state: GameState, player: Player, seed: int, depth: int | None = None) -> float:
    """Play ``state`` on, both sides by the heuristic bot, and score it for ``player``.

    To its end by default: 1 if ``player`` wins, 0.5 a draw, else 0.  With ``depth``, only
    that many more card plays, then the position is scored by :func:`win_chance` (its chance
    of winning, from the flags' win estimates), unless the game has ended before.
    """
    # seeded by role, not by seat: the same position seen from either seat plays out the same
    bots = {p: HeuristicBot(seed * 2 + (0 if p is player else 1)) for p in Player}
    plays = 0
    for _ in range(MAX_ROLLOUT_ACTIONS):
        if state.over:
            break
        if state.phase is Phase.PLAY:
            if depth is not None and plays >= depth:
                return win_chance(state, player)
            plays += 1
        actor = state.to_act
        apply(state, bots[actor].choose(PlayerView(state, actor), legal_moves(state)))
    if not state.over or state.winner is None:
        return 0.5
    return 1.0 if state.winner is player else 0.0


def _outcomes() -> list[float]:
    """For each of the 512 ways the 9 flags could fall (bit ``n - 1`` set: ``player`` takes flag ``n``),
    1 if that wins the game for ``player``, else 0 (R16): a breakthrough (3 adjacent flags) wins if only
    one side has one (which came first is not known); otherwise the side with 5 or more flags wins."""
    table = []
    for mask in range(512):
        mine = [(mask >> i) & 1 for i in range(9)]
        run_mine = any(all(mine[i + j] for j in range(3)) for i in range(7))
        run_theirs = any(not any(mine[i + j] for j in range(3)) for i in range(7))
        if run_mine != run_theirs:
            table.append(1.0 if run_mine else 0.0)
        else:
            table.append(1.0 if sum(mine) >= 5 else 0.0)
    return table


OUTCOMES = _outcomes()


def flag_chances(view: PlayerView) -> list[float]:
    """The chance that ``view.player`` takes each flag: 1 or 0 if claimed, else the heuristic bot's estimate."""
    board = Board(view)
    me = view.player
    chances = []
    for n in range(1, 10):
        owner = view.claimed_by(n)
        if owner is not None:
            chances.append(1.0 if owner is me else 0.0)
            continue
        mine, theirs, env = board.flag(n)
        first = view.first_complete(n)
        size = formation_size(Tactic.MUD in env)
        chances.append(board.est.win(mine, theirs, size, Tactic.FOG in env, None if first is None else first is me))
    return chances


def win_chance(state: GameState, player: Player) -> float:
    """The chance that ``player`` wins from ``state`` as ``player`` sees it: the flags' chances
    (:func:`flag_chances`) taken as independent, summed over the ways the 9 flags can fall (R16).
    """
    if state.over:
        return 0.5 if state.winner is None else (1.0 if state.winner is player else 0.0)
    chances = flag_chances(PlayerView(state, player))
    probs = [1.0]
    for p in chances:
        q = 1.0 - p
        probs = [x * q for x in probs] + [x * p for x in probs]
    return added(map(operator.mul, probs, OUTCOMES))


@dataclass(frozen=True)
class Suggestion:
    """What the expert would play and why: the move, its play-out record and the runner-up.

    ``wins``/``games`` count the play-outs of ``action``; ``alternatives`` are the other
    searched moves with their own ``(wins, games)``: those searched longest first (the
    runner-up of the last round), then by their share of wins.
    """

    action: Action
    wins: float
    games: int
    alternatives: tuple[tuple[Action, float, int], ...] = ()
    depth: int | None = None  # the card plays of each play-out before it was scored (None: to the end)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def tries(self) -> int:
        """The play-outs made in all, over every searched move (the ``rollouts`` budget, or just over)."""
        return self.games + sum(games for _a, _w, games in self.alternatives)


class ExpertBot(HeuristicBot):
    """Determinized Monte Carlo over the heuristic bot's best moves (see the module doc).

    ``rollouts`` play-outs per decision (1 to :data:`~battleline_lab.game.arguments.MAX_ROLLOUTS`)
    among ``candidates`` moves; the same seed gives the same moves.
    """

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        *,
        rollouts: int = DEFAULT_ROLLOUTS,
        candidates: int = DEFAULT_CANDIDATES,
        depth: int | None = DEFAULT_DEPTH,
    ) -> None:
        super().__init__(seed)
        # a budget past its bound would look like a hang: each play-out costs time (arguments.MAX_ROLLOUTS)
        self.rollouts = arguments.whole_number(rollouts, "rollouts", 1, arguments.MAX_ROLLOUTS)
        self.candidates = arguments.whole_number(candidates, "candidates", 1, arguments.MAX_CANDIDATES)
        self.depth = arguments.optional_whole_number(depth, "depth", 0, arguments.MAX_DEPTH)

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if len(legal) > 1 and view.phase is Phase.PLAY:
            return self.search(view, legal).action
        return super().choose(view, legal)

    def ranked(self, view: PlayerView, legal: Sequence[Action]) -> list[Action]:
        """The legal plays in the heuristic bot's order (best estimated gain first; ties in list order)."""
        board = Board(view)
        scored: list[tuple[float, int, Action]] = []
        for k, action in enumerate(legal):
            if isinstance(action, Pass):
                score = -0.05
            else:
                score = board.gain(action)
                if not (isinstance(action, PlayCard) and isinstance(action.card, Troop)):
                    score -= TACTIC_COST
            scored.append((-score, k, action))
        scored.sort(key=lambda t: (t[0], t[1]))
        return [a for _s, _k, a in scored]

    def search(self, view: PlayerView, legal: Sequence[Action]) -> Suggestion:
        """Search the best candidate plays by play-outs on determinizations (sequential halving)."""
        arguments.require_moves(self.name, legal)
        seed = self.rng.getrandbits(32)
        candidates = self.ranked(view, legal)[: self.candidates]
        if len(candidates) == 1:
            return Suggestion(candidates[0], 0.0, 0, depth=self.depth)
        stats = {a: [0.0, 0] for a in candidates}
        sizes = [len(candidates)]  # how many candidates each round searches: halved until one is left
        while sizes[-1] >= 4:
            sizes.append(sizes[-1] // 2)
        survivors = list(candidates)
        used = 0
        sample = 0  # play-out j of every candidate uses determinization j (common random numbers)
        for r, size in enumerate(sizes):
            survivors = survivors[:size]
            per = max(1, (self.rollouts - used) // sum(sizes[r:]))
            for _ in range(per):
                det = determinize(view, random.Random(seed * 7919 + sample))
                for action in survivors:
                    game = det.copy()
                    apply(game, action)
                    stats[action][0] += playout(game, view.player, seed + sample, self.depth)
                    stats[action][1] += 1
                    used += 1
                sample += 1
            survivors.sort(key=lambda a: (-stats[a][0] / stats[a][1], candidates.index(a)))
        best = survivors[0]
        others = sorted(  # the finalists first (most play-outs), then by their share of wins
            (a for a in candidates if a != best),
            key=lambda a: (-stats[a][1], -stats[a][0] / max(1, stats[a][1]), candidates.index(a)),
        )
        return Suggestion(
            best,
            stats[best][0],
            int(stats[best][1]),
            tuple((a, stats[a][0], int(stats[a][1])) for a in others),
            self.depth,
        )


# -- the coach: the expert's suggestion for a learner, in words ------------------------------


def suggest(
    view: PlayerView, legal: Sequence[Action], *, seed: int = 0, rollouts: int = DEFAULT_ROLLOUTS
) -> Suggestion:
    """The expert's play for ``view.player`` now (only what that player sees), with its play-out record."""
    return ExpertBot(seed, rollouts=rollouts).search(view, legal)


def suggestion_text(view: PlayerView, suggestion: Suggestion, lang: str = "en") -> list[str]:
    """Why the expert suggests its play, in ``lang``: the move, what it does at its flag, its play-outs.

    "What it does" comes from the formation rules (R9, R10) on the table after the
    move, and "then you can prove" from the claim engine (R12) on that table.
    """
    from ..text.messages import message
    from .actions import describe
    from .rules import claimable

    me = view.player
    action = suggestion.action
    name = message(f"review.player.{me.value}", lang)
    lines = [message("review.coach.play", lang, move=describe(action, name, lang))]
    lines.extend(effect_lines(view, action, lang))
    table = determinize(view, random.Random(0))  # the hidden cards do not matter to a claim (R13)
    before = set(claimable(table, me))
    apply(table, action)
    after = [n for n in claimable(table, me) if n not in before] if not table.over else []
    if after:
        flags = message("review.list_sep", lang).join(map(str, after))
        lines.append(message("review.coach.then_claim", lang, flags=flags))
    if suggestion.alternatives:
        other, wins, games = suggestion.alternatives[0]
        other_rate = wins / games if games else 0.0
        lines.append(
            message(
                {None: "review.coach.odds", 1: "expert.coach.odds_reply"}.get(suggestion.depth, "expert.coach.odds"),
                lang,
                depth=suggestion.depth,
                moves=1 + len(suggestion.alternatives),
                tries=suggestion.tries,
                games=suggestion.games,
                rate=round(100 * suggestion.rate),
                other=_move_words(other, name, lang),
                other_games=games,
                other_rate=round(100 * other_rate),
            )
        )
        lines.append(_why_preferred(suggestion.rate, other_rate, lang))
    else:
        lines.append(message("review.coach.only", lang))
    return lines


def effect_lines(view: PlayerView, action: Action, lang: str = "en") -> list[str]:
    """What a card play does at its flag, in ``lang`` (R9, R10 on the table after it): completes a
    formation, joins cards, opens the flag, or puts an environment card there; nothing for other moves."""
    from ..core.formations import evaluate
    from ..text.messages import card_label, kind_name, message

    me = view.player
    lines: list[str] = []
    if isinstance(action, PlayCard):
        n = action.flag
        mine = view.flag_cards(n, me)
        card = action.card
        if isinstance(card, Tactic) and card.is_environment:
            lines.append(message("review.coach.tactic", lang, card=card_label(card, lang), flag=n))
        elif len(mine) + 1 >= view.size(n):
            formation = evaluate((*mine, card), fog=view.fog(n), mud=view.mud(n))
            kind = formation.kind
            key = "review.coach.completes" if kind is not None else "review.coach.completes_sum"
            lines.append(message(key, lang, kind=kind_name(kind, lang), flag=n, total=formation.total))
        elif mine:
            cards = message("review.list_sep", lang).join(card_label(c, lang) for c in mine)
            lines.append(message("review.coach.builds", lang, flag=n, cards=cards))
        else:
            lines.append(message("review.coach.opens", lang, flag=n))
    return lines


def _move_words(action: Action, player: str, lang: str) -> str:
    """A searched move in words, not notation: ``orange 7 on flag 7`` (a card play), else the log's sentence."""
    from ..text.messages import card_label, message
    from .actions import describe

    if not isinstance(action, PlayCard):
        return describe(action, player, lang)
    card = action.card
    if isinstance(card, Troop):
        colour = message(f"colour.{card.colour.value}", lang)
        words = message("expert.coach.troop", lang, colour=colour, value=card.value)
    else:
        words = card_label(card, lang)
    return message("expert.coach.move", lang, card=words, flag=action.flag)


def _why_preferred(rate: float, other_rate: float, lang: str) -> str:
    """Why the suggestion beats the next best: its margin, or (level) the heuristic bot's order."""
    from ..text.messages import message

    points = round(100 * (rate - other_rate))
    if points >= 1:
        return message("expert.coach.ahead", lang, points=points)
    if rate > other_rate:
        return message("expert.coach.ahead_slightly", lang)
    # level: the search keeps, among equal scores, the move the heuristic bot ranks first (see search)
    return message("expert.coach.level", lang)
