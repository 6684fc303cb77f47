"""The expert bot: it sees only its player's view (R13), is reproducible per seed, and beats the heuristic bot."""

from __future__ import annotations

import json
import random

import pytest

from battleline_lab.cli.game import main
from battleline_lab.core.cards import Tactic, Troop
from battleline_lab.game import (
    Deck,
    GameState,
    HeuristicBot,
    Phase,
    Player,
    PlayerView,
    apply,
    legal_moves,
    make_bot,
    new_game,
    run_match,
)
from battleline_lab.game.expert import ExpertBot, determinize

ROLLOUTS = 8  # small budgets keep these tests quick; the strength test below uses the default


def _midgame(seed: int, actions: int = 30) -> GameState:
    """A game played by two heuristic bots until the player on turn must play a card."""
    state = new_game(seed)
    bots = {p: HeuristicBot(seed + k) for k, p in enumerate(Player)}
    while len(state.history) < actions or state.phase is not Phase.PLAY or len(legal_moves(state)) < 2:
        apply(state, bots[state.to_act].choose(PlayerView(state, state.to_act), legal_moves(state)))
    return state


def _reshuffle_hidden(state: GameState, seed: int) -> GameState:
    """The same table and the same hand of the player on turn; another hidden hand and deck order (R13)."""
    other = state.copy()
    rng = random.Random(seed)
    opp = state.turn.other
    pools = {deck: list(other.decks[deck]) for deck in Deck}
    for card in other.hands[opp]:
        pools[Deck.of(card)].append(card)
    for pool in pools.values():
        rng.shuffle(pool)
    tactics = sum(1 for c in other.hands[opp] if isinstance(c, Tactic))
    troops = len(other.hands[opp]) - tactics
    other.hands[opp] = pools[Deck.TACTICS][:tactics] + pools[Deck.TROOPS][:troops]
    other.decks[Deck.TACTICS] = pools[Deck.TACTICS][tactics:]
    other.decks[Deck.TROOPS] = pools[Deck.TROOPS][troops:]
    return other


@pytest.mark.parametrize("seed", [3, 11, 27])
def test_R13_expert_move_ignores_hidden_cards(seed: int) -> None:
    state = _midgame(seed)
    other = _reshuffle_hidden(state, seed)
    me = state.turn
    assert other.hands[me.other] != state.hands[me.other] or other.decks != state.decks  # really different
    assert all(isinstance(c, (Troop, Tactic)) for c in other.hands[me.other])
    legal = legal_moves(state)
    assert legal_moves(other) == legal
    a = ExpertBot(seed, rollouts=ROLLOUTS).search(PlayerView(state, me), legal)
    b = ExpertBot(seed, rollouts=ROLLOUTS).search(PlayerView(other, me), legal)
    assert a == b  # the same move and the same play-out record
    # the determinizations themselves do not depend on the hidden cards
    d1 = determinize(PlayerView(state, me), random.Random(5))
    d2 = determinize(PlayerView(other, me), random.Random(5))
    assert d1.hands == d2.hands and d1.decks == d2.decks


def test_determinize_keeps_everything_public() -> None:
    state = _midgame(8)
    me = state.turn
    det = determinize(PlayerView(state, me), random.Random(1))
    assert det.hands[me] == state.hands[me] and det.cards == state.cards and det.env == state.env
    assert det.discards == state.discards and det.claimed == state.claimed and det.card_count() == 70
    assert {d: len(c) for d, c in det.decks.items()} == {d: len(c) for d, c in state.decks.items()}
    assert len(det.hands[me.other]) == len(state.hands[me.other])
    assert sum(isinstance(c, Tactic) for c in det.hands[me.other]) == sum(
        isinstance(c, Tactic) for c in state.hands[me.other]
    )  # the count is public: 10 tactics minus those seen and those in the deck
    assert det.history == []  # the opponent's Scout returns are named in the history


def test_expert_is_reproducible_per_seed_and_plays_legal_moves() -> None:
    state = _midgame(4)
    view, legal = PlayerView(state, state.turn), legal_moves(state)
    first = ExpertBot(7, rollouts=ROLLOUTS).choose(view, legal)
    assert first in legal and ExpertBot(7, rollouts=ROLLOUTS).choose(view, legal) == first


def test_expert_in_match_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert make_bot("expert", 1).name == "expert"
    assert main(["match", "expert", "random", "--games", "1", "--seed", "2", "--rollouts", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bots"] == {"A": "expert", "B": "heuristic"} or data["bots"]["A"] == "expert"
    assert data["wins"]["A"] + data["wins"]["B"] + data["draws"] == 1


def test_expert_beats_heuristic_in_a_small_seeded_match() -> None:
    """The first games of the measured 200-game match (seed 2026: 147 wins of 200, the first move
    alternating), small enough for CI.

    Honest bound: the expert won 10 of these 12 with the fair match (9 before it), and the test asks for 9.  Twelve
    games prove little on their own (a bot only as strong as the heuristic one wins 9 or more
    of 12 with probability 0.07); the measured 200-game figure is in docs/game.md.
    """
    result = run_match("expert", "heuristic", games=GAMES, seed=SEED)
    assert result.wins["A"] >= MIN_WINS, result.as_dict()


GAMES, SEED, MIN_WINS = 12, 2026, 9


@pytest.mark.parametrize(
    ("mine", "wins"),
    [
        ((3, 6, 7, 8), True),  # R16 Breakthrough (6, 7, 8); the opponent's 5 flags have no 3 adjacent
        ((1, 2, 4, 5, 7), True),  # R16 Envelopment: 5 flags, no 3 adjacent on either side
        ((1, 3, 5, 7, 9), True),
        ((1, 2, 4, 5, 7, 8), True),
        ((1, 2, 3), False),  # both sides have 3 adjacent (the opponent 4-9): who came first is not known; 5 flags win
        ((3, 4, 5, 6), False),
        ((1, 2), False),
    ],
)
def test_R16_outcome_table(mine: tuple[int, ...], wins: bool) -> None:
    from battleline_lab.game.expert import OUTCOMES

    mask = sum(1 << (n - 1) for n in mine)
    assert OUTCOMES[mask] == (1.0 if wins else 0.0)
    assert OUTCOMES[511 - mask] == (0.0 if wins else 1.0)  # the same flags seen from the other side


def test_R16_win_chance_scores_an_ended_game_and_claimed_flags_exactly() -> None:
    from battleline_lab.game.expert import flag_chances, playout, win_chance

    state = _midgame(6, actions=60)
    me = state.turn
    assert any(state.claimed)  # R15: some flags are claimed by now
    chances = flag_chances(PlayerView(state, me))
    for n in range(1, 10):
        owner = state.claimed[n - 1]
        if owner is not None:
            assert chances[n - 1] == (1.0 if owner is me else 0.0)
        else:
            assert 0.0 <= chances[n - 1] <= 1.0
    value = win_chance(state, me)
    assert 0.0 < value < 1.0  # neither side has won yet
    truncated = playout(state.copy(), me, seed=3, depth=2)
    assert 0.0 <= truncated <= 1.0 and truncated == playout(state.copy(), me, seed=3, depth=2)
    ended = state.copy()
    bots = {p: HeuristicBot(k) for k, p in enumerate(Player)}
    while not ended.over:
        apply(ended, bots[ended.to_act].choose(PlayerView(ended, ended.to_act), legal_moves(ended)))
    assert ended.winner is not None  # R16: a breakthrough or an envelopment
    assert win_chance(ended, ended.winner) == 1.0 and win_chance(ended, ended.winner.other) == 0.0


@pytest.mark.parametrize(
    ("depth", "en", "zh"),
    [
        (1, "answered for your opponent", "替对手应一手"),
        (None, "played out to the end of the game", "下完整局"),
        (3, "played 3 more cards", "再出3张牌"),
    ],
)
def test_coach_says_how_the_expert_searched(depth: int | None, en: str, zh: str) -> None:
    from battleline_lab.game.expert import suggestion_text

    state = _midgame(5)
    view, legal = PlayerView(state, state.turn), legal_moves(state)
    found = ExpertBot(2, rollouts=ROLLOUTS, depth=depth).search(view, legal)
    assert found.depth == depth and found.alternatives
    assert en in suggestion_text(view, found)[-2] and zh in suggestion_text(view, found, "zh")[-2]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_coach_reports_the_tries_made_and_why_in_words(seed: int) -> None:
    """The tries said are the play-outs made over every searched move (the budget, not one move's
    share); the next best move is said in words (no notation), and the last line says why the
    suggestion is preferred: its margin in points, or, level, the heuristic bot's order."""
    from battleline_lab.game.expert import suggestion_text
    from battleline_lab.text.messages import message

    state = _midgame(5)
    view, legal = PlayerView(state, state.turn), legal_moves(state)
    found = ExpertBot(seed, rollouts=ROLLOUTS).search(view, legal)
    made = found.games + sum(games for _a, _w, games in found.alternatives)
    assert found.tries == made and made >= ROLLOUTS
    other, wins, games = found.alternatives[0]
    for lang in ("en", "zh"):
        *_, odds, why = suggestion_text(view, found, lang)
        assert str(made) in odds and str(1 + len(found.alternatives)) in odds
        assert other.notation not in odds, "the next best move in words, not notation"
        margin = round(100 * (found.rate - wins / games))
        if margin >= 1:
            assert why == message("expert.coach.ahead", lang, points=margin)
        elif found.rate > wins / games:
            assert why == message("expert.coach.ahead_slightly", lang)
        else:
            assert why == message("expert.coach.level", lang)
