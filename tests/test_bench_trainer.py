"""The simulated-learner benchmark runs (quick mode) and reports both selections; no thresholds."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.scripts import load_script

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_trainer.py"


def test_quick_run_reports_rating_error_and_success(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_script(BENCH, "bench_trainer")
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "trainer: rating error" in out and "library order: rating error" in out
    assert "after 20:" in out and "after 40:" in out and "right answers" in out
    results = bench.run(2, seed=3)
    assert set(results) == {"trainer", "library order"}
    for rows in results.values():
        assert len(rows) == 2
        for row in rows:
            assert set(row.errors) == {20, 40} and all(math.isfinite(e) and e >= 0 for e in row.errors.values())
            assert 0 <= row.success <= 1
    assert bench.run(2, seed=3) == results  # deterministic for a seed
