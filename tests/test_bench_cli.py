"""The end-to-end ``claims --json`` benchmark runs in CI (30 files, one run): both programs agree; no timing checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scripts import load_script

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_cli.py"


def test_cli_benchmark_quick_run_agrees_with_the_naive_reference(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_script(BENCH, "bench_cli")
    assert bench.main(["--quick"]) == 0  # exits with an error if the two programs print different verdicts
    out = capsys.readouterr().out
    assert "claims --json end to end over 30 random position files" in out
    assert "naive / claims:" in out and "ms per file" in out


def test_cli_benchmark_files_load_and_answer_their_own_question(tmp_path: Path) -> None:
    from battleline_lab.quiz.loader import load_puzzle

    bench = load_script(BENCH, "bench_cli")
    files = bench.write_files(tmp_path, 6)
    assert len(files) == 6
    for name in files:
        puzzle = load_puzzle(name)
        assert puzzle.is_correct(puzzle.answer)
