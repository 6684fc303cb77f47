"""The odds-search bot (``odds_search``): outs and odds at every flag, weighed by what each flag is worth to the game.

It was the ``master`` bot until the judgment of :mod:`~battleline_lab.game.master` beat it; "the
master" in the comments below is this bot as it was then.

For every flag and both sides, :class:`OddsSearchBot` lists the formations the side can still make
there (R9: each Wedge, Phalanx, Battalion Order and Skirmish Line shape its cards allow, and a
Host; under Fog a sum, R24; four cards under Mud, R25) and the chance of getting the troops each
one still needs (its *outs*): certain from its own hand, otherwise drawn by the end of the game
from the troops it cannot see.  The opponent's hand is unknown to it, so the opponent gets its
hand plus half the deck from the same unseen troops (the model of the public bot's strategy notes:
each player gets about half of what is left; counted with binomial coefficients, never by
sampling).  From those the chance of winning each flag follows (taking each side's strongest
formation it gets; a tie to the side already complete, else half, R11), and from the nine flag
chances the chance of winning the game (R16: three adjacent flags or five), by summing over the
2^9 ways the flags can fall.  The game chance is linear in each flag's chance, so a move's worth
is exact in these terms: the change at the flag it plays to, times what that flag is worth to the
game now (flags next to lost ones matter more, as the public bot's notes say, but here it comes
out of the sum, not out of fixed weights), plus what leaving its hand costs the other flags.

It claims whatever it can prove (R12), plays troops and morale cards by that worth, and leaves
the other tactics cards, draws, Scout returns and Mud discards to the heuristic bot's rules.  It
uses only its :class:`~battleline_lab.game.view.PlayerView` (its hand, the table, discards and
counts), no random numbers: its move is a function of what it sees (ties go to the first legal
move), the same from either seat.

>>> from battleline_lab.game.state import new_game
>>> from battleline_lab.game.rules import legal_moves
>>> state = new_game(3)
>>> move = OddsSearchBot(1).choose(PlayerView(state, state.turn), legal_moves(state))
>>> move in legal_moves(state)
True
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from ..core.cards import ALL_TROOPS, Card, Colour, Tactic, Troop
from ..core.formations import FormationKind, ShapePlan, evaluate, plan_shape, shapes
from ..core.odds import draw_at_least
from . import arguments
from .actions import Action, Pass, PlayCard
from .bot_base import added
from .expert import ExpertBot
from .heuristic import TACTIC_COST, Board, HeuristicBot
from .state import Deck, Phase
from .view import PlayerView

__all__ = ["OddsSearchBot", "OddsBot", "flag_chances", "game_chance"]

KIND_STEP = 100  # strength = kind * 100 + sum (R10); -1 kind under Fog: the sum alone (R24)
_TROOPS = {(t.colour, t.value): t for t in ALL_TROOPS}
_COLOURS = tuple(Colour)
_KINDS = (FormationKind.WEDGE, FormationKind.PHALANX, FormationKind.BATTALION, FormationKind.SKIRMISH)
MY_SHARE = 0.5  # of the troop deck, drawn by the bot before the game ends (the public bot's notes: half each)
THEIR_SHARE = 0.5  # of the troop deck, drawn by the opponent
HAND_SHARE = 1.0  # of the opponent's hand, usable at a flag
MORALE_COST = 0.02  # a morale card is kept for a move that gains this much more than a troop
ODDS_SEARCH_ROLLOUTS = 64  # the odds search's play-outs per decision (the expert: 48)
ODDS_SEARCH_DEPTH = 2  # card plays per play-out before it is scored: its move, the reply, its next (the expert: 1)


class _Outlook:
    """What one side can still get: its hand (certain, for the bot itself), the unseen troops it may
    draw from and how many it will draw (counts per value and colour, made once)."""

    def __init__(self, hand: Iterable[Troop], unknown: frozenset[Troop], draws: int) -> None:
        self.hand = frozenset(hand)
        self.unknown = unknown
        self.n = len(unknown)
        self.draws = min(draws, self.n)
        self.by_value: dict[int, tuple[int, float, list[int]]] = {}
        self.by_colour: dict[Colour, tuple[int, float, list[int]]] = {}
        for v in range(1, 11):
            self.by_value[v] = self._group([t for t in ALL_TROOPS if t.value == v])
        for c in _COLOURS:
            self.by_colour[c] = self._group([t for t in ALL_TROOPS if t.colour is c])
        self.anything = self._group(ALL_TROOPS)

    def _group(self, pool: Sequence[Troop]) -> tuple[int, float, list[int]]:
        unseen = [t.value for t in pool if t in self.unknown]
        held = sorted((t.value for t in pool if t in self.hand), reverse=True)
        return len(unseen), (sum(unseen) / len(unseen) if unseen else 0.0), held

    def _at_least(self, marked: int, wanted: int) -> float:
        """At least ``wanted`` of ``marked`` unseen troops among the draws (R13), as one minus the chance
        of too few: at least ``draws - wanted + 1`` of the others.  The same integers as the direct tail,
        rounded as the master always rounded them (its seeded games depend on the last bit)."""
        return 1.0 - draw_at_least(self.n, self.draws, self.n - marked, self.draws - wanted + 1)

    def chance(self, needed: Iterable[Troop]) -> float:
        """All these troops, each from the hand or drawn."""
        draw = 0
        for t in needed:
            if t in self.hand:
                continue
            if t not in self.unknown:
                return 0.0
            draw += 1
        return self._at_least(draw, draw)

    def some(self, group: tuple[int, float, list[int]], count: int) -> tuple[float, float]:
        """``count`` troops of a group (one value, one colour, any): the chance, and the expected sum
        of those taken (the best from the hand first, then the unseen average)."""
        a, avg, held = group
        held = held[:count]
        rest = count - len(held)
        return self._at_least(a, rest), sum(held) + rest * avg


def _options(cards: tuple[Card, ...], size: int, fog: bool, outlook: _Outlook) -> list[tuple[float, float]]:
    """(strength, chance) of each formation the side can still make, strongest first (R9, R24, R25)."""
    if len(cards) >= size:
        f = evaluate(cards[:size], fog=fog, mud=size == 4)
        return [(_strength(f.kind, f.total), 1.0)]
    out: list[tuple[float, float]] = []
    for kind, plan in _plans(cards, size, fog):
        got = _plan_chance(plan, kind, outlook)
        if got is not None and got[1] > 0.002:
            out.append((_strength(kind, got[0]), got[1]))
    out.sort(reverse=True)
    return out


@functools.lru_cache(maxsize=1 << 14)
def _plans(cards: tuple[Card, ...], size: int, fog: bool) -> tuple[tuple[FormationKind | None, ShapePlan], ...]:
    """One plan per shape the cards still allow (the first: the best use of wildcards), and a Host."""
    out: list[tuple[FormationKind | None, ShapePlan]] = []
    kinds: tuple[FormationKind | None, ...] = (None,) if fog else (*_KINDS, FormationKind.HOST)
    for kind in kinds:
        for shape in shapes(kind, size):
            for plan in plan_shape(shape, cards, size):
                out.append((kind, plan))
                break
    return tuple(out)


def _strength(kind: FormationKind | None, total: float) -> float:
    return total if kind is None else int(kind) * KIND_STEP + total


def _plan_chance(plan: ShapePlan, kind: FormationKind | None, outlook: _Outlook) -> tuple[float, float] | None:
    if plan.exact:  # Wedge: these troops exactly
        return plan.base, outlook.chance(plan.exact)
    if plan.values:  # Skirmish Line: one troop of each value, any colour
        p = 1.0
        for v in plan.values:
            p *= outlook.some(outlook.by_value[v], 1)[0]
        return plan.base, p
    if plan.count == 0:
        return plan.base, 1.0
    if kind is FormationKind.HOST:
        p, extra = outlook.some(outlook.anything, plan.count)
        return plan.base + extra, max(p, 1e-9)
    if kind is FormationKind.PHALANX:
        assert plan.shape.value is not None
        p, _ = outlook.some(outlook.by_value[plan.shape.value], plan.count)
        return plan.base, p
    if kind is FormationKind.BATTALION:
        assert plan.shape.colour is not None
        p, extra = outlook.some(outlook.by_colour[plan.shape.colour], plan.count)
        return plan.base + extra, p
    # a sum under Fog: any troops
    p, extra = outlook.some(outlook.anything, plan.count)
    return plan.base + extra, p


def _distribution(options: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """(strength, chance it is the side's final one).  The chance of ending at least this strong is
    taken as the best single chance among the options at least this strong (not their union: the
    options share cards and slots, and one side makes one formation)."""
    out = []
    reached = 0.0
    for strength, p in options:
        if p > reached:
            out.append((strength, p - reached))
            reached = p
            if reached >= 1.0 - 1e-12:
                break
    if reached < 1.0 - 1e-12 and out:  # nothing at all: the weakest seen, for what remains
        out.append((out[-1][0] - 1, 1.0 - reached))
    return out


def flag_win(mine: list[tuple[float, float]], theirs: list[tuple[float, float]], tie_mine: float) -> float:
    """Chance the first distribution beats the second (a tie counts ``tie_mine`` for the first)."""
    win = 0.0
    for a, pa in mine:
        for b, pb in theirs:
            if a > b:
                win += pa * pb
            elif a == b:
                win += pa * pb * tie_mine
    return win


_BREAKTHROUGH = tuple(0b111 << i for i in range(7))


def _win_table() -> tuple[float, ...]:
    """For each way the nine flags fall (bit i set: flag i+1 is ours), our result: 1, 0 or 1/2
    when both sides hold three adjacent flags (who got there first is unknown) (R16)."""
    out = []
    for mask in range(512):
        other = 511 ^ mask
        ours = any(mask & b == b for b in _BREAKTHROUGH)
        theirs = any(other & b == b for b in _BREAKTHROUGH)
        if ours and theirs:
            out.append(0.5)
        elif ours or theirs:
            out.append(1.0 if ours else 0.0)
        else:
            out.append(1.0 if bin(mask).count("1") >= 5 else 0.0)
    return tuple(out)


WIN_TABLE = _win_table()


def _chance(p: Sequence[float]) -> float:
    probs = [1.0]
    for pi in p:  # doubling: flag i is bit i of the index
        probs = [q * (1 - pi) for q in probs] + [q * pi for q in probs]
    return added(w * q for w, q in zip(WIN_TABLE, probs) if w)


def game_chance(p: Sequence[float]) -> tuple[float, list[float]]:
    """The chance of winning the game from the nine flag chances, and what each flag is worth
    (the chance with flag i won minus with it lost: exact, the chance is linear in each p_i)."""
    worth = []
    for i in range(9):
        won = list(p)
        won[i] = 1.0
        lost = list(p)
        lost[i] = 0.0
        worth.append(_chance(won) - _chance(lost))
    return _chance(p), worth


def flag_chances(view: PlayerView, hand: tuple[Card, ...] | None = None) -> list[float]:
    """The master's chance of winning each flag 1-9 from ``view`` (its own hand, or ``hand``)."""
    return _Model(view).chances(hand if hand is not None else view.hand)


class _Model:
    """The per-decision tables: the unseen troops, both outlooks, the opponent's options per flag."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        me = view.player
        hand_troops = frozenset(c for c in view.hand if isinstance(c, Troop))
        self.unknown = frozenset(view.unseen_troops() - hand_troops)
        deck = view.deck_sizes[Deck.TROOPS.value]
        self.my_draws = int(deck * MY_SHARE)
        self.their_draws = int(view.opponent_hand_size * HAND_SHARE + deck * THEIR_SHARE)
        self.theirs = _Outlook((), self.unknown, self.their_draws)
        self.me = me
        self._their_options: dict[int, list[tuple[float, float]]] = {}
        self._cache: dict[tuple[int, tuple[Card, ...], frozenset[Card]], float] = {}
        self._outlooks: dict[frozenset[Card], _Outlook] = {}

    def _their(self, n: int) -> list[tuple[float, float]]:
        got = self._their_options.get(n)
        if got is None:
            view = self.view
            cards = view.flag_cards(n, self.me.other)
            got = self._their_options[n] = _distribution(_options(cards, view.size(n), view.fog(n), self.theirs))
        return got

    def flag(self, n: int, mine: tuple[Card, ...], hand: frozenset[Card]) -> float:
        view = self.view
        owner = view.claimed_by(n)
        if owner is not None:
            return 1.0 if owner is self.me else 0.0
        key = (n, mine, hand)
        got = self._cache.get(key)
        if got is not None:
            return got
        size = view.size(n)
        if len(mine) > size:
            mine = mine[:size]
        theirs_cards = view.flag_cards(n, self.me.other)
        outlook = self._outlooks.get(hand)
        if outlook is None:
            outlook = self._outlooks[hand] = _Outlook(
                (c for c in hand if isinstance(c, Troop)), self.unknown, self.my_draws
            )
        my_opts = _distribution(_options(mine, size, view.fog(n), outlook))
        mine_done, theirs_done = len(mine) >= size, len(theirs_cards) >= size
        if mine_done and theirs_done:
            first = view.first_complete(n)
            tie = 1.0 if first is self.me else 0.0 if first is not None else 0.5
        else:
            tie = 1.0 if mine_done else 0.0 if theirs_done else 0.5
        got = self._cache[key] = flag_win(my_opts, self._their(n), tie)
        return got

    def chances(self, hand: tuple[Card, ...]) -> list[float]:
        h = frozenset(hand)
        return [self.flag(n, self.view.flag_cards(n, self.me), h) for n in range(1, 10)]


class OddsBot(HeuristicBot):
    """Outs and odds per flag, weighed by the game (see the module doc); deterministic."""

    name = "odds"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if len(legal) > 1 and view.phase is Phase.PLAY:
            return self._odds_play(view, legal)
        return super().choose(view, legal)

    def scores(self, view: PlayerView, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        """Each card play's worth (the change in the chance of winning the game); other tactics
        moves scored by the heuristic bot, minus its tactics margin (same units only roughly)."""
        model = _Model(view)
        hand = view.hand
        base_hand = frozenset(hand)
        now = model.chances(hand)
        _, worth = game_chance(now)
        without: dict[Card, list[float]] = {}
        out: list[tuple[float, Action]] = []
        board: Board | None = None
        for action in legal:
            if type(action) is PlayCard and (isinstance(action.card, Troop) or action.card.is_wild):
                card = action.card
                rest = without.get(card)
                if rest is None:
                    rest = without[card] = model.chances(tuple(c for c in hand if c != card))
                n = action.flag
                mine = view.flag_cards(n, view.player) + (card,)
                after = model.flag(n, mine, base_hand - {card})
                gain = added(w * (r - p) for w, r, p in zip(worth, rest, now))  # the card leaves the hand
                gain += worth[n - 1] * (after - rest[n - 1])
                if isinstance(card, Tactic):
                    gain -= MORALE_COST
                out.append((gain, action))
            elif type(action) is Pass:
                out.append((-1.0, action))
            else:
                if board is None:
                    board = Board(view)
                out.append((0.25 * (board.gain(action) - TACTIC_COST) - MORALE_COST, action))
        return out

    def _odds_play(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        best = None
        for k, (score, action) in enumerate(self.scores(view, legal)):
            if best is None or score > best[0] + 1e-12:
                best = (score, k, action)
        assert best is not None
        return best[2]


class OddsSearchBot(ExpertBot):
    """The expert's search over better candidates (the odds bot's best plays and the heuristic bot's),
    looking one card play further: each play-out plays the candidate, the opponent's reply and the
    bot's own next play (heuristic bots, on a determinization) before the position is scored,
    where the expert scores after the reply; 64 play-outs a decision where the expert makes 48.

    ``ranked`` interleaves the two orders (odds first), so the search tries the moves either
    judge likes; the play-outs decide.
    """

    name = "odds_search"

    def __init__(
        self,
        seed: int | None = None,
        *,
        rollouts: int = ODDS_SEARCH_ROLLOUTS,
        candidates: int = 8,
        odds_share: int = 4,
        depth: int | None = ODDS_SEARCH_DEPTH,
    ) -> None:
        super().__init__(seed, rollouts=rollouts, candidates=candidates, depth=depth)
        self.odds_share = arguments.whole_number(odds_share, "odds_share", 0, arguments.MAX_CANDIDATES)
        self._odds = OddsBot(seed)

    def ranked(self, view: PlayerView, legal: Sequence[Action]) -> list[Action]:
        heuristic = super().ranked(view, legal)
        by_odds = [a for _s, _k, a in sorted((-s, k, a) for k, (s, a) in enumerate(self._odds.scores(view, legal)))]
        out: list[Action] = []
        for a in by_odds[: self.odds_share]:
            if a not in out:
                out.append(a)
        for a in heuristic:
            if len(out) >= self.candidates:
                break
            if a not in out:
                out.append(a)
        return out
