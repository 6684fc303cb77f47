"""The master benchmark runs (two short games against the random bot); strength is measured by hand (docs/game.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scripts import load_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_master.py"


def test_bench_master_runs_and_alternates_the_first_move(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_script(BENCH, "bench_master")
    assert bench.main(["--against", "random", "--games", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "master vs random: " in out and "moving first" in out and "time per decision" in out
    assert [bench.play(("random", "random", 5, k))[2] for k in range(2)] == [True, False]
    low, high = bench.wilson(50, 100)
    assert low < 0.5 < high


def test_bench_master_ladder_plays_every_lower_rung_and_reports_card_play_medians(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load_script(BENCH, "bench_master")
    assert bench.main(["--ladder", "--games", "1", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    for rung in ("random", "gentle", "heuristic", "expert"):
        assert f"master vs {rung}: " in out
    assert out.count("per card play (CPU ms): median") == 4
