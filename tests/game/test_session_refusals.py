"""Refusals, not exceptions: random arguments thrown at the rules and the game session.

``apply`` refuses a malformed action (a flag outside 1-9, R3; a card or deck that is none) with an
:class:`IllegalMoveError` and leaves the state as it was; every public :class:`GameSession`
method given any argument either refuses (a notice, ``False``) or makes a legal change, never
raises.  After every call the game is still whole: 70 cards (R1, R2), every flag side within its
size (R6), and the record replays.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battleline_lab.core.cards import ALL_CARDS, parse_card
from battleline_lab.game import Player, apply, legal_moves, new_game
from battleline_lab.game.actions import Claim, Deserter, Draw, PlayCard, Redeploy, Traitor
from battleline_lab.game.rules import IllegalMoveError, MalformedActionError
from battleline_lab.game.session import GameSession
from battleline_lab.game.state import Deck, GameState, Options

ODD_VALUES = [0, -1, 10, 11, 99, -(10**30), 10**30, True, False, None, 3.0, "3", "x", (), [], b"3", float("nan")]


def _whole(state: GameState) -> None:
    assert state.card_count() == 70  # R1, R2
    for i in range(9):
        for p in Player:
            assert len(state.cards[i][p]) <= state.size(i)  # R6, R25


@pytest.mark.parametrize("flag", ODD_VALUES)
def test_R3_apply_refuses_a_flag_outside_1_to_9_and_changes_nothing(flag: Any) -> None:
    state = new_game(1, Options(first=Player.SOUTH))
    card = state.hands[Player.SOUTH][0]
    for action in (PlayCard(card, flag), Claim(flag), Traitor(parse_card("r3"), flag)):  # type: ignore[arg-type]
        before = (list(state.hands[Player.SOUTH]), [dict(s) for s in state.cards], state.phase)
        with pytest.raises(MalformedActionError) as err:
            apply(state, action)
        assert err.value.rule == "R3" and "1" in str(err.value) and "9" in str(err.value)
        assert (list(state.hands[Player.SOUTH]), [dict(s) for s in state.cards], state.phase) == before


@pytest.mark.parametrize("value", ["r3", 3, None, object(), Deck.TROOPS])
def test_apply_refuses_what_is_no_card_or_no_deck(value: Any) -> None:
    state = new_game(1, Options(first=Player.SOUTH))
    for action in (
        PlayCard(value, 3),
        Deserter(value),
        Redeploy(value, 2),
        Draw(value if value is not Deck.TROOPS else "troops"),
    ):  # type: ignore[arg-type]
        with pytest.raises(IllegalMoveError):
            apply(state, action)
    with pytest.raises(IllegalMoveError):
        apply(state, object())  # type: ignore[arg-type]
    _whole(state)


def test_the_error_text_is_rendered_when_asked_and_in_either_language() -> None:
    state = new_game(1, Options(first=Player.SOUTH))
    with pytest.raises(MalformedActionError) as err:
        apply(state, PlayCard(state.hands[Player.SOUTH][0], 0))
    assert "flags are numbered 1 to 9, not 0 (R3)" in str(err.value)
    assert "旗的编号是1到9" in err.value.text("zh")


_any = st.one_of(
    st.integers(min_value=-20, max_value=20),
    st.integers(),
    st.booleans(),
    st.none(),
    st.text(max_size=4),
    st.floats(allow_nan=True),
    st.sampled_from(ALL_CARDS),
    st.sampled_from(list(Deck)),
    st.tuples(),
    st.lists(st.integers(), max_size=2),
)
_tokens = st.one_of(
    _any,
    st.tuples(st.sampled_from(["card", "target", "flag", "draw", "claim", "end", "pass", "discard", "scout", "x"])),
    st.tuples(st.sampled_from(["card", "target", "flag", "draw", "claim", "x"]), _any),
    st.tuples(_any, _any, _any),
)
_calls = st.lists(
    st.one_of(
        st.tuples(st.just("choose"), _tokens),
        st.tuples(st.just("claim"), _any),
        st.tuples(st.just("choose_bot"), st.one_of(st.sampled_from(["random", "heuristic", "clever", ""]), _any)),
        st.tuples(st.just("open_moment"), _any),
        st.tuples(st.just("show_coach"), _any),
        st.tuples(st.just("restart"), _any),
        st.tuples(st.just("legal_click"), st.integers(min_value=0, max_value=10**6)),
        st.tuples(st.just("cancel"), st.none()),
    ),
    min_size=1,
    max_size=40,
)


def _legal_click(session: GameSession, pick: int) -> None:
    """A click the session offers now (so that random calls also move the game on)."""
    from battleline_lab.game.session import action_path

    moves = session.legal()
    if not moves or session.state.over:
        return
    path = action_path(moves[pick % len(moves)])
    for token in path:
        session.choose(token)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=50), calls=_calls)
def test_random_arguments_to_the_session_are_refused_or_legal(seed: int, calls: list[tuple[str, Any]]) -> None:
    session = GameSession(bot="random", seed=seed)
    for name, arg in calls:
        if name == "legal_click":
            _legal_click(session, arg)
        elif name == "cancel":
            session.cancel()
        else:
            getattr(session, name)(arg)
        _whole(session.state)
        assert isinstance(session.seed, int)
        assert session.state.over or legal_moves(session.state)  # never stuck
        # the views' questions answer too
        session.offer(), session.prompt(), session.hand(), session.coach(), session.log()


@pytest.mark.parametrize("flag", ODD_VALUES)
def test_session_claim_of_no_flag_is_refused_without_a_proof(flag: Any) -> None:
    session = GameSession(bot="random", seed=2)
    notice = session.claim(flag)
    assert notice.kind == "refused" and notice.analysis is None and isinstance(notice.error, MalformedActionError)


@pytest.mark.parametrize(
    "token", [(), ("card",), ("flag", 0), ("flag", 10), ("nonsense", 1), [], "card", None, (["x"], 1)]
)
def test_session_choose_of_no_click_is_not_offered(token: Any) -> None:
    session = GameSession(bot="random", seed=2)
    before = session.selection
    assert session.choose(token).kind == "not_offered" and session.selection == before


def test_session_refuses_an_unknown_opponent() -> None:
    session = GameSession(bot="random", seed=2)
    assert session.choose_bot("clever") is False and session.bot_name == "random"
    assert session.notice is not None and session.notice.kind == "not_offered"
