"""Glicko-2 against Glickman's worked example ("Example of the Glicko-2 system", 2012)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline_lab.training.glicko2 import SCALE, Rating, expected, update

PLAYER = Rating(1500, 200, 0.06)
GAMES = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_glickmans_worked_example() -> None:
    r = update(PLAYER, GAMES, tau=0.5)
    # the paper: mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999, i.e. r' = 1464.06, RD' = 151.52
    assert (r.rating - 1500) / SCALE == pytest.approx(-0.2069, abs=0.00005)
    assert r.rd / SCALE == pytest.approx(0.8722, abs=0.00005)
    assert r.volatility == pytest.approx(0.05999, abs=0.00001)
    assert r.rating == pytest.approx(1464.06, abs=0.02)
    assert r.rd == pytest.approx(151.52, abs=0.01)


def test_expected_scores_of_the_example() -> None:
    # the paper's E values: 0.639, 0.432, 0.303
    assert [round(expected(PLAYER, o), 3) for o, _s in GAMES] == [0.639, 0.432, 0.303]


def test_no_games_only_widens_the_deviation() -> None:
    r = update(PLAYER, [])
    assert r.rating == 1500 and r.rd == pytest.approx(math.sqrt((200 / SCALE) ** 2 + 0.06**2) * SCALE)


@given(
    st.floats(800, 2400),
    st.floats(40, 350),
    st.floats(800, 2400),
    st.floats(40, 350),
)
def test_a_win_never_lowers_and_a_loss_never_raises(me: float, rd: float, them: float, rd_them: float) -> None:
    player, opponent = Rating(me, rd), Rating(them, rd_them)
    win, loss = update(player, [(opponent, 1.0)]), update(player, [(opponent, 0.0)])
    assert loss.rating <= me <= win.rating
