"""The same seed gives the same game, in this interpreter and in others (no hidden global state).

A whole game is played through :class:`GameSession` by seeded clicks (the learner's side) against
the heuristic bot; its record must be the same in a fresh interpreter under other hash seeds (so
no set or dict order of strings leaks into a move), and another seed must give another game.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from battleline_lab.game.session import GameSession, action_path

ROOT = Path(__file__).resolve().parents[2]


def game(seed: int, clicks: int = 1) -> list[str]:
    """Every action of one game, in notation; the learner picks among the offered moves by ``clicks``."""
    session = GameSession(bot="heuristic", seed=seed)
    pick = random.Random(clicks)
    while not session.state.over:
        moves = session.legal()
        for token in action_path(moves[pick.randrange(len(moves))]):
            session.choose(token)
    return [a.notation for _t, _p, a in session.state.history]


def test_the_same_seed_gives_the_same_game_in_other_interpreters() -> None:
    here = game(8)
    assert len(here) > 40 and here != game(9) and here != game(8, clicks=2)
    code = "import json, sys; from tests.game.test_determinism import game; print(json.dumps(game(8)))"
    for hash_seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, cwd=ROOT
        )
        assert json.loads(out.stdout) == here
