"""The benchmark runs in CI (quick mode): it must run, agree with the reference and produce ratios.

Timing thresholds are deliberately not asserted here (a shared CI machine is noisy); the figures
are measured with a full run and recorded in ``docs/performance.md``.
"""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType

import pytest

from battleline_lab.core.cards import Troop
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
    # exits with an error if the decision path, the proof, the reference and the file disagree
    assert bench.main(["--quick", "--random", "4"]) == 0
    out = capsys.readouterr().out
    assert "naive/decision, total time over the set:" in out and "naive/fast, total time over the set:" in out
    assert "decision path, median per position:" in out and "naive/decision at the median:" in out
    # the target is the full proof with every step of every proof read
    assert "naive/full proof with every step of every proof read, at the median:" in out
    for stage in bench.STAGES:
        assert f"{stage:<9} decide_position" in out and f"{stage:<9} naive reference" in out
        assert f"{stage:<9} analyse+every step" in out
    rows = bench.run(quick=True)
    assert rows and all(r.naive > 0 and r.fast > 0 and r.decide > 0 and math.isfinite(r.decide_ratio) for r in rows)
    assert {r.name for r in rows} == {c.name for c in bench.load() if c.quick}


def test_random_positions_are_legal_seeded_and_cover_the_stages() -> None:
    bench = load_benchmark()
    for stage in bench.STAGES:
        positions = bench.random_positions(15, stage=stage)
        assert positions == bench.random_positions(15, stage=stage)  # seeded: the same every run
        assert all(p.problems() == [] for p in positions)
    late = bench.random_positions(30, stage="late")
    assert any(s.claimed_by is not None for p in late for s in p.flags)
    tactics = bench.random_positions(30, stage="tactics")
    assert any(s.mud for p in tactics for s in p.flags) and any(s.fog for p in tactics for s in p.flags)
    assert any(c.is_wild for p in tactics for s in p.flags for c in s.you + s.opponent)


def test_read_steps_reads_every_step_of_every_proof() -> None:
    bench = load_benchmark()
    position = bench.random_positions(1, stage="late")[0]
    analysis = bench.analyse_position(position)
    assert bench.read_steps(analysis) is analysis
    assert all(isinstance(c.steps, tuple) and c.steps for c in analysis.claims.values())  # every proof's steps
    assert bench._every_step(position) == bench._full_verdicts(position)
