"""The odds benchmark runs (quick) and reports every stage; timings are never asserted (noisy machine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scripts import load_script

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_odds.py"


def test_bench_odds_quick_reports_every_stage(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_script(BENCH, "bench_odds")
    report = bench.measure(2)
    assert set(report) == {"mid", "late", "tactics"}
    for row in report.values():
        assert row["exact"] + row["sampled"] == 18
        assert row["median"] >= 0
