"""Golden games: the bots make exactly the same moves as when the golden file was written.

The heuristic bot is tuned for speed without changing a single move:
its strength figures, and those of the expert bot that plays it in its
play-outs, stay meaningful only if the same seeds give the same games.  Each
game below is played from fixed seeds and its action list (in notation, with the
actor) is hashed; the hashes are compared with ``tests/golden/bot-games.json``, which
was written by the bot code before any speed-up.

If a change alters a digest, find out why rather than regenerate the file;
regenerate (``./dev regen``, with every other generated file) only when a move
change is intended, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from battleline_lab.core.position import ClaimTiming
from battleline_lab.game.bot_base import Bot, RandomBot
from battleline_lab.game.expert import ExpertBot
from battleline_lab.game.heuristic import HeuristicBot
from battleline_lab.game.master import JudgeBot
from battleline_lab.game.match import play_game
from battleline_lab.game.sampler import MasterBot
from battleline_lab.game.state import GameState, Options, Player

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "bot-games.json"
SEEDS = (1, 2, 3, 4, 5)


def _bot(kind: str, seed: int) -> Bot:
    if kind == "heuristic":
        return HeuristicBot(seed)
    if kind == "random":
        return RandomBot(seed)
    if kind == "judge":
        return JudgeBot(seed)
    if kind == "master":
        return MasterBot(seed)
    assert kind == "expert"
    return ExpertBot(seed, rollouts=4, candidates=2, depth=None)  # play-outs to the end: all heuristic


def _cases() -> list[tuple[str, str, str, int]]:
    """(north bot, south bot, claim timing, seed): heuristic vs heuristic and vs random, the judge
    vs the heuristic bot (its guile, Scout and passes included), the master (its searches) vs the
    heuristic bot, every timing."""
    cases = []
    for timing in ClaimTiming:
        for seed in SEEDS:
            cases.append(("heuristic", "heuristic", timing.value, seed))
            # the heuristic bot on either seat against the random bot
            pair = ("heuristic", "random") if seed % 2 else ("random", "heuristic")
            cases.append((*pair, timing.value, seed))
        for seed in SEEDS[:2]:
            pair = ("judge", "heuristic") if seed % 2 else ("heuristic", "judge")
            cases.append((*pair, timing.value, seed))
        cases.append(("master", "heuristic", timing.value, 1))
    cases.append(("expert", "heuristic", ClaimTiming.AFTER_PLAY.value, 7))
    return cases


def _key(case: tuple[str, str, str, int]) -> str:
    north, south, timing, seed = case
    return f"{north}-{south}-{timing}-{seed}"


def _play(case: tuple[str, str, str, int]) -> GameState:
    north, south, timing, seed = case
    options = Options(claim_timing=ClaimTiming(timing), first=Player.SOUTH if seed % 3 else Player.NORTH)
    return play_game(_bot(north, 10 * seed + 1), _bot(south, 10 * seed + 2), seed, options)


def _digest(state: GameState) -> dict[str, object]:
    lines = "\n".join(f"{turn} {player.value} {action.notation}" for turn, player, action in state.history)
    return {
        "actions": len(state.history),
        "winner": None if state.winner is None else state.winner.value,
        "sha256": hashlib.sha256(lines.encode()).hexdigest(),
    }


def _golden() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("case", _cases(), ids=_key)
def test_bot_plays_the_golden_game(case: tuple[str, str, str, int]) -> None:
    expected = _golden()[_key(case)]
    assert _digest(_play(case)) == expected


def test_golden_file_covers_every_case() -> None:
    assert sorted(_golden()) == sorted(_key(c) for c in _cases())


def golden_json() -> str:
    """The text of the golden file as the bots play today (``tools/regen.py`` writes it)."""
    data = {_key(c): _digest(_play(c)) for c in _cases()}
    return json.dumps(data, indent=1, sort_keys=True) + "\n"
