"""The heuristic bot's shortcuts give exactly what the slow path gives.

The bot judges complete troop formations directly and looks formations with morale cards up in
a canonical card order; both must agree with :func:`battleline_lab.core.formations.evaluate` (R9, R10,
R24), or the bot's moves would change (see test_bot_golden.py).  Its guile moves share parts of
their estimates; the scores must equal those of the plain one-move look-ahead.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from battleline_lab.core.cards import ALL_TROOPS, Card, Tactic
from battleline_lab.core.formations import evaluate
from battleline_lab.game.actions import Action, Deserter, Redeploy, Traitor
from battleline_lab.game.heuristic import (
    KIND_STEP,
    Board,
    HeuristicBot,
    _parse,
    _sorted_strength,
    _strength,
    _troops_strength,
)
from battleline_lab.game.rules import apply, legal_moves
from battleline_lab.game.state import Player, new_game
from battleline_lab.game.view import PlayerView


def _slow(cards: tuple[Card, ...], fog: bool, mud: bool) -> float:
    f = evaluate(cards, fog=fog, mud=mud)
    return float(f.total if f.kind is None else f.kind * KIND_STEP + f.total)


def test_R9_R10_R24_every_troop_formation_of_three_is_judged_as_evaluate_does() -> None:
    for cards in itertools.combinations(ALL_TROOPS, 3):
        values, colour, wilds, _ = _parse(cards)
        assert wilds == 0
        for fog in (False, True):
            assert _troops_strength(values, colour, fog) == _slow(cards, fog, False), (cards, fog)


def test_R25_troop_formations_of_four_at_mud_are_judged_as_evaluate_does() -> None:
    rng = random.Random(12)
    runs = [
        tuple(t for t in ALL_TROOPS if t.colour is c and s <= t.value < s + 4)
        for c in {t.colour for t in ALL_TROOPS}
        for s in range(1, 8)
    ]
    samples = [tuple(rng.sample(ALL_TROOPS, 4)) for _ in range(3000)] + runs
    for cards in samples:
        values, colour, _, _ = _parse(cards)
        for fog in (False, True):
            assert _troops_strength(values, colour, fog) == _slow(cards, fog, True), (cards, fog)


_MORALE = [Tactic.ALEXANDER, Tactic.COMPANION, Tactic.SHIELD]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_R20_R22_strength_with_morale_cards_ignores_the_card_order(data: st.DataObject) -> None:
    mud = data.draw(st.booleans(), label="mud")
    size = 4 if mud else 3
    wilds = data.draw(st.lists(st.sampled_from(_MORALE), min_size=1, max_size=size - 1, unique=True), label="wilds")
    troops = data.draw(
        st.lists(st.sampled_from(ALL_TROOPS), min_size=size - len(wilds), max_size=size - len(wilds), unique=True),
        label="troops",
    )
    cards: tuple[Card, ...] = tuple(data.draw(st.permutations([*troops, *wilds]), label="order"))
    fog = data.draw(st.booleans(), label="fog")
    assert _strength(cards, fog, mud) == _slow(cards, fog, mud)
    _sorted_strength.cache_clear()
    _strength.cache_clear()
    assert _strength(cards[::-1], fog, mud) == _slow(cards, fog, mud)


def _reference_gain(board: Board, action: Action) -> float:
    """What ``Board.gain`` gave for the guile moves before their shared parts were remembered (R28-R30)."""
    me = board.me
    if isinstance(action, Deserter):
        n, _, is_env = board._find(action.target, me.other)
        mine, theirs, env = board.flag(n)
        if is_env:
            env = [e for e in env if e is not action.target]
        else:
            theirs = tuple(c for c in theirs if c != action.target)
        return board.value(n, mine, theirs, env) - board.now(n)
    if isinstance(action, Traitor):
        n, _, _ = board._find(action.target, me.other)
        mine, theirs, env = board.flag(n)
        theirs = tuple(c for c in theirs if c != action.target)
        total = board.value(n, mine, theirs, env) - board.now(n)
        if action.to == n:
            return board.value(n, mine + (action.target,), theirs, env) - board.now(n)
        mine2, theirs2, env2 = board.flag(action.to)
        return total + board.value(action.to, mine2 + (action.target,), theirs2, env2) - board.now(action.to)
    assert isinstance(action, Redeploy)
    n, _, is_env = board._find(action.target, me)
    mine, theirs, env = board.flag(n)
    if is_env:
        env = [e for e in env if e is not action.target]
    else:
        mine = tuple(c for c in mine if c != action.target)
    total = board.value(n, mine, theirs, env) - board.now(n)
    if action.to is not None:
        m2, t2, e2 = board.flag(action.to)
        if is_env:
            assert isinstance(action.target, Tactic)
            e2 = e2 + [action.target]
        else:
            m2 = m2 + (action.target,)
        total += board.value(action.to, m2, t2, e2) - board.now(action.to)
    return total


def test_R28_R29_R30_guile_moves_are_scored_exactly_as_the_plain_look_ahead() -> None:
    """A card's moves share its flag's estimate without it, and a moved card is scored as a play there."""
    checked = 0
    for seed in range(12):
        state = new_game(seed)
        bots = {p: HeuristicBot(seed * 2 + k) for k, p in enumerate(Player)}
        while not state.over:
            actor = state.to_act
            legal = legal_moves(state)
            guile = [a for a in legal if isinstance(a, (Redeploy, Deserter, Traitor))]
            if guile:
                view = PlayerView(state, actor)
                board, plain = Board(view), Board(view)
                for action in guile:
                    assert board.gain(action) == _reference_gain(plain, action), action
                checked += len(guile)
            apply(state, bots[actor].choose(PlayerView(state, actor), legal))
    assert checked > 500
