"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012), for learners and puzzles.

A :class:`Rating` is a rating, a rating deviation (how unsure it is) and a
volatility.  :func:`update` applies one rating period's results; the trainer
uses one game per period (a learner's first answer to a puzzle is a game
between the learner and the puzzle).  Pure Python, no dependencies, so it runs
in Pyodide too.

Glickman's worked example: a 1500 player (RD 200) beats a 1400 (RD 30) and
loses to a 1550 (RD 100) and a 1700 (RD 300), with tau 0.5:

>>> r = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...                                       (Rating(1700, 300), 0.0)], tau=0.5)
>>> round(r.rating, 1), round(r.rd, 2), round(r.volatility, 6)
(1464.1, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["DEFAULT_TAU", "SCALE", "Rating", "expected", "update"]

SCALE = 173.7178
DEFAULT_TAU = 0.5
_EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating`` (1500 average), ``rd``, ``volatility``."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06

    def __repr__(self) -> str:
        return f"Rating({self.rating:.0f}±{self.rd:.0f})"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(player: Rating, opponent: Rating) -> float:
    """The chance ``player`` wins against ``opponent`` (Glicko-2's E, with the opponent's deviation).

    >>> round(expected(Rating(1500, 200), Rating(1400, 30)), 3)
    0.639
    """
    mu, mu_j, phi_j = (player.rating - 1500) / SCALE, (opponent.rating - 1500) / SCALE, opponent.rd / SCALE
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, results: Iterable[tuple[Rating, float]], *, tau: float = DEFAULT_TAU) -> Rating:
    """The player's rating after one period with ``results`` (opponent, score 0..1); none: RD grows.

    >>> update(Rating(1500, 200), []).rd > 200
    True
    """
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.rd / SCALE, player.volatility
    games = [((o.rating - 1500) / SCALE, o.rd / SCALE, s) for o, s in results]
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(350.0, phi_star * SCALE), sigma)
    v_inv = 0.0
    delta_sum = 0.0
    for mu_j, phi_j, score in games:
        g = _g(phi_j)
        e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        v_inv += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    # step 5: the new volatility (Illinois algorithm)
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * delta_sum
    return Rating(1500 + SCALE * new_mu, SCALE * new_phi, new_sigma)
