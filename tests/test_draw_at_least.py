"""The hypergeometric tail of the odds layer, :func:`~battleline_lab.core.odds.draw_at_least` (R13).

Both odds bots (the master, game/master.py, and the odds search before it, game/odds_search.py) take their
chances of drawing what a plan needs from the troops they cannot see (R13) from this one function.
It is checked here against exact counts: a table of edge cases with their exact fractions, the
cases the judge's tests used to pin, and a property test that counts every draw of a small pool.
The function divides the exact count once, so it must equal the exact fraction rounded to a float,
bit for bit, not just approximately.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline_lab.core.cards import ALL_TROOPS
from battleline_lab.core.odds import draw_at_least
from battleline_lab.game.odds_search import _Outlook


def _counted(pool: int, drawn: int, marked: int, wanted: int) -> Fraction:
    """The chance by dealing every draw: cards ``0..marked-1`` of ``range(pool)`` are the marked ones."""
    draws = list(itertools.combinations(range(pool), min(max(drawn, 0), pool)))
    good = sum(1 for draw in draws if sum(1 for c in draw if c < marked) >= wanted)
    return Fraction(good, len(draws))


@pytest.mark.parametrize(
    ("rule", "pool", "drawn", "marked", "wanted", "chance"),
    [
        ("R13 wanting nothing is certain", 10, 3, 2, 0, Fraction(1)),
        ("R13 wanting less than nothing is certain", 10, 3, 2, -1, Fraction(1)),
        ("R13 wanting nothing from an empty pool is certain", 0, 0, 0, 0, Fraction(1)),
        ("R13 more wanted than marked", 10, 3, 2, 3, Fraction(0)),
        ("R13 more wanted than drawn", 10, 2, 5, 3, Fraction(0)),
        ("R13 drawing nothing", 10, 0, 4, 1, Fraction(0)),
        ("R13 drawing less than nothing", 10, -1, 4, 1, Fraction(0)),
        ("R13 an empty pool", 0, 3, 0, 1, Fraction(0)),
        ("R13 drawing more than the pool takes it all", 4, 9, 2, 2, Fraction(1)),
        ("R13 drawing more than the pool, wanting more than marked", 4, 9, 2, 3, Fraction(0)),
        ("R13 drawing the whole pool", 5, 5, 3, 3, Fraction(1)),
        ("R13 every card marked", 6, 2, 6, 2, Fraction(1)),
        ("R13 one of two among three of ten: 1 - C(8,3)/C(10,3)", 10, 3, 2, 1, Fraction(64, 120)),
        ("R13 both of two among three of ten: C(8,1)/C(10,3)", 10, 3, 2, 2, Fraction(8, 120)),
        ("R13 one card, one marked", 9, 1, 1, 1, Fraction(1, 9)),
        ("R13 one of four 10s among 7 of 53: 1 - C(49,7)/C(53,7)", 53, 7, 4, 1, 1 - Fraction(85900584, 154143080)),
    ],
)
def test_R13_draw_at_least_table(rule: str, pool: int, drawn: int, marked: int, wanted: int, chance: Fraction) -> None:
    assert draw_at_least(pool, drawn, marked, wanted) == float(chance), rule
    if pool <= 12:
        assert _counted(pool, drawn, marked, wanted) == chance, rule  # the table itself, by dealing


@pytest.mark.parametrize(
    ("pool", "drawn", "marked", "wanted"),
    [(10, 3, 2, 1), (10, 3, 2, 2), (9, 4, 3, 2), (8, 8, 3, 3), (7, 2, 3, 3), (6, 0, 2, 1), (12, 5, 4, 0)],
)
def test_R13_draw_at_least_matches_counting_every_draw(pool: int, drawn: int, marked: int, wanted: int) -> None:
    assert draw_at_least(pool, drawn, marked, wanted) == float(_counted(pool, drawn, marked, wanted))


@pytest.mark.parametrize(("pool", "marked"), [(5, 6), (5, -1), (0, 1)])
def test_R13_marked_cards_outside_the_pool_are_refused(pool: int, marked: int) -> None:
    with pytest.raises(ValueError, match="marked must lie in"):
        draw_at_least(pool, 2, marked, 1)


@st.composite
def _draws(draw: st.DrawFn) -> tuple[int, int, int, int]:
    pool = draw(st.integers(0, 11))
    drawn = draw(st.integers(-1, pool + 2))
    marked = draw(st.integers(0, pool))
    wanted = draw(st.integers(-1, marked + 2))
    return pool, drawn, marked, wanted


@given(_draws())
def test_R13_draw_at_least_is_the_exact_count_rounded(case: tuple[int, int, int, int]) -> None:
    pool, drawn, marked, wanted = case
    assert draw_at_least(pool, drawn, marked, wanted) == float(_counted(pool, drawn, marked, wanted))


@given(_draws())
def test_R13_too_few_marked_is_enough_of_the_others(case: tuple[int, int, int, int]) -> None:
    """The master's form: at least ``wanted`` marked = not at least ``drawn - wanted + 1`` others."""
    pool, drawn, marked, wanted = case
    drawn = min(max(drawn, 0), pool)
    others = draw_at_least(pool, drawn, pool - marked, drawn - wanted + 1)
    assert 1.0 - others == pytest.approx(draw_at_least(pool, drawn, marked, wanted), abs=1e-12)


def _master_before(n: int, a: int, d: int, m: int) -> float:
    """game/odds_search.py's own tail before it asked the odds layer (kept here as the reference)."""
    if m <= 0:
        return 1.0
    if m > a or m > d or n <= 0:
        return 0.0
    d = min(d, n)
    return 1.0 - sum(math.comb(a, j) * math.comb(n - a, d - j) for j in range(m)) / math.comb(n, d)


@given(
    st.integers(0, 60).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(0, n))),
    st.integers(-1, 6),
)
def test_R13_the_masters_odds_keep_their_rounding(case: tuple[int, int, int], wanted: int) -> None:
    """The master's seeded games depend on the last bit of its odds: asked as a complement, the one
    tail gives exactly the float the master's own formula gave (pool of up to 60 unseen troops)."""
    pool, drawn, marked = case
    outlook = _Outlook(frozenset(), frozenset(ALL_TROOPS[:pool]), drawn)
    assert outlook._at_least(marked, wanted) == _master_before(pool, marked, drawn, wanted)
