"""The game benchmark runs (tiny sizes) and reports the figures docs/game.md records; no timing is asserted."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from battleline_lab.core.position import ClaimTiming
from tests.scripts import load_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_game.py"


def load_benchmark() -> ModuleType:
    return load_script(BENCH, "bench_game")


def test_benchmark_measures_speed_and_strength() -> None:
    bench = load_benchmark()
    fast = bench.speed("random", "random", games=5, repeats=1, seed=1)
    assert fast["games"] == 5 and fast["games_per_second"] > 0 and fast["average_turns"] > 10
    strong = bench.strength(games=4, seed=10_000, timing=ClaimTiming.AFTER_PLAY)
    assert strong["heuristic_wins"] + strong["random_wins"] + strong["draws"] == 4
    assert 0.0 <= strong["win_rate"] <= 1.0 and strong["claim_timing"] == "after_play"
