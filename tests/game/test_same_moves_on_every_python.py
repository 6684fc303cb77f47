"""A seeded bot plays the same moves on every Python the package runs on (3.10 to 3.14, and Pyodide).

Python 3.12 changed ``sum()`` of floats to a compensated sum, so a bot that added its chances with the
built-in ``sum`` broke its near ties differently on 3.11 and on 3.12+ (the site's Pyodide is 3.14): the
expert and the master played other games from the same seed (7 of 20 master-vs-expert games from seed
7000 differed on 3.13 and in Pyodide, against 3.11).  The bots add floats in order
(:func:`~battleline_lab.game.bot_base.added`), as ``sum`` did before 3.12.  Here every bot plays
seeded games once as it is and once with the built-in ``sum`` of floats replaced by another, correctly
rounded, sum (``math.fsum``, which differs from both in the last bit as 3.12's does): every action of
every game must be the same.  The Pyodide run itself is checked in the browser tier
(``tests/browser/test_master_pyodide.py``).
"""

from __future__ import annotations

import builtins
import hashlib
import math
from collections.abc import Iterable
from typing import Any

import pytest

from battleline_lab.core.position import ClaimTiming
from battleline_lab.game.bot_base import added
from battleline_lab.game.bots import make_bot
from battleline_lab.game.match import play_game
from battleline_lab.game.state import Options

_SUM = builtins.sum


def _another_sum(items: Iterable[Any], /, start: Any = 0) -> Any:
    """``sum`` with floats added by ``math.fsum`` (ints and anything else as the built-in adds them)."""
    values = list(items)
    numbers = all(isinstance(v, (int, float)) for v in [start, *values])
    if numbers and any(isinstance(v, float) for v in [start, *values]):
        return math.fsum([start, *values])
    return _SUM(values, start)


def _digest(north: str, south: str, seed: int, timing: ClaimTiming) -> str:
    state = play_game(make_bot(north, seed), make_bot(south, seed + 1), seed, Options(claim_timing=timing))
    return hashlib.sha256("\n".join(map(str, state.history)).encode()).hexdigest()


GAMES = [
    ("expert", "heuristic", 7004, ClaimTiming.AFTER_PLAY),
    ("master", "expert", 7004, ClaimTiming.AFTER_PLAY),
    ("expert", "master", 7007, ClaimTiming.AFTER_PLAY),
    ("judge", "expert", 7011, ClaimTiming.START_OF_TURN),
    ("odds_search", "expert", 7012, ClaimTiming.AFTER_PLAY),
]


@pytest.mark.parametrize(("north", "south", "seed", "timing"), GAMES)
def test_a_seeded_game_does_not_depend_on_how_python_adds_floats(
    north: str, south: str, seed: int, timing: ClaimTiming, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = _digest(north, south, seed, timing)
    monkeypatch.setattr(builtins, "sum", _another_sum)
    assert _digest(north, south, seed, timing) == plain


def test_added_adds_in_order_as_sum_did_before_python_3_12() -> None:
    values = [1e16, 1.0, -1e16, 0.5]
    assert added(values) == ((1e16 + 1.0) - 1e16) + 0.5 == 0.5  # in order: the 1.0 is lost
    assert math.fsum(values) == 1.5  # a compensated sum keeps it (Python 3.12's sum gives 1.5 too)
    assert added([]) == 0.0 and added(x / 4 for x in range(4)) == 1.5
