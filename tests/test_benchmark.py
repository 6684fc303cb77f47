"""The benchmark runs in CI (quick mode): it must run, agree with the reference and produce ratios.

Timing thresholds are deliberately not asserted here (a shared CI machine is noisy); the figures
are measured with a full run and recorded in ``docs/performance.md``.
"""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType

import pytest

from battleline_lab.cards import Troop
from tests.scripts import load_script

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_claims.py"


def load_benchmark() -> ModuleType:
    return load_script(BENCH, "bench_claims")


def test_benchmark_positions_are_legal_and_hard() -> None:
    bench = load_benchmark()
    cases = bench.load()
    assert len(cases) >= 10 and len({c.name for c in cases}) == len(cases)
    for case in cases:
        assert case.position.problems() == [], case.name
        state = case.position.flag(case.flag)
        # hard: the opposing side holds 0-1 troops (wildcards aside), so several slots are open
        theirs = state.formation_cards(case.side.other)
        assert sum(isinstance(c, Troop) for c in theirs) <= 1, case.name
    assert any(c.position.flag(c.flag).mud for c in cases) and any(c.position.flag(c.flag).fog for c in cases)


def test_benchmark_quick_run_prints_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark()
    assert bench.main(["--quick"]) == 0  # exits with an error if fast, naive and the file disagree
    out = capsys.readouterr().out
    assert "naive/fast, total time over the set:" in out and "analyse_position, median" in out
    assert "seeded random mid-game positions: median" in out
    rows = bench.run(quick=True)
    assert rows and all(r.naive > 0 and r.fast > 0 and r.full > 0 and math.isfinite(r.ratio) for r in rows)
    assert {r.name for r in rows} == {c.name for c in bench.load() if c.quick}
