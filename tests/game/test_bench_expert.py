"""The expert benchmark runs (a tiny size) and reports the figures docs/game.md records; no timing is asserted."""

from __future__ import annotations

from pathlib import Path

from tests.scripts import load_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_expert.py"


def test_benchmark_measures_time_per_move_and_wins() -> None:
    bench = load_script(BENCH, "bench_expert")
    result = bench.measure(games=1, seed=1, rollouts=2)
    assert result["games"] == 1 and result["expert_wins"] + result["draws"] <= 1
    assert result["moves"] > 5 and 0 < result["median_cpu_seconds"] <= result["max_cpu_seconds"]
    assert result["rollouts"] == 2
