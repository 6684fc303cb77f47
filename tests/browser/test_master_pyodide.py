"""The master in Pyodide, the Python the site's kernel runs: the same seeded games as in CPython, timed.

``benchmarks/bench_master.py --pyodide`` plays a match in this process and again in Pyodide under
Node.js (Pyodide's core and the pure PyYAML wheel from the site's download cache, which the ``site``
fixture fills), and stops with an error if a single action differs.  Here four games from seed 7004,
two of which Pyodide (Python 3.14) played otherwise while the bots added floats with the built-in
``sum`` (tests/game/test_same_moves_on_every_python.py); the figures are measured by hand (docs/game.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scripts import load_script

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "bench_master.py"


def test_the_master_plays_the_same_games_in_pyodide_as_in_cpython(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_script(BENCH, "bench_master")
    figures = bench.pyodide_report("master", "expert", 4, 7004, "after", ROOT / ".site-cache")
    out = capsys.readouterr().out
    assert "the same actions in both" in out and "Pyodide/CPython: " in out
    assert len(figures["pyodide"]) == len(figures["cpython"]) > 40  # both timed every card play of the master
    assert all(t > 0 for t in figures["pyodide"]) and figures["median_ratio"] > 0
