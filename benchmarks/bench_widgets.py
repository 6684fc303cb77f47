"""Benchmark: kernel time of a click in the puzzle widget, for every committed puzzle.

A click (answer, next step, hint) must update the board in under 100 ms of kernel time, to
feel immediate.  For each puzzle in ``puzzles/`` this builds a :class:`~battleline_lab.widgets.PuzzleWidget`
and times, from Python, exactly what a click runs in the kernel (the handler: engine call and
re-render of the board SVG):

* ``open``: building the widget (first board);
* ``hint``: each rung of the hint ladder (vague, key cards, solution);
* ``answer``: a wrong answer (counterexample drawn), then the right one (proof opened);
* ``next`` / ``back``: every step of the proof, forwards and back.

Without a front end no comm message is sent; in JupyterLab each click also serialises the changed
widget values (the board is 10-40 kB of SVG text, well under a millisecond).  The figures go in
``docs/widgets.md``; thresholds are reported, never asserted.

Usage::

    python benchmarks/bench_widgets.py             # every puzzle, 3 rounds
    python benchmarks/bench_widgets.py --quick     # 5 puzzles, 1 round
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions import ClaimableQuestion, ClaimQuestion, CompareQuestion
from battleline_lab.widgets import PuzzleWidget

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 100.0
KINDS = ("open", "hint", "answer", "next", "back")


def wrong_answer(puzzle: Puzzle) -> object:
    """Some answer the engine rejects, of the right form."""
    solution = puzzle.solve()
    question = puzzle.question
    if isinstance(question, ClaimQuestion):
        return not solution
    if isinstance(question, ClaimableQuestion):
        assert isinstance(solution, list)
        return sorted(set(range(1, 10)) ^ set(solution))[:1] or [1]
    if isinstance(question, CompareQuestion):
        return "b" if solution == "a" else "a"
    return "host" if solution != "host" else "wedge"


def measure(puzzle: Puzzle) -> dict[str, list[float]]:
    """Seconds per click, by kind, for one run through a puzzle."""
    times: dict[str, list[float]] = defaultdict(list)

    def timed(kind: str, action: Callable[[], object]) -> None:
        start = time.perf_counter()
        action()
        times[kind].append(time.perf_counter() - start)

    holder: list[PuzzleWidget] = []
    timed("open", lambda: holder.append(PuzzleWidget(puzzle)))
    w = holder[0]
    for _ in range(3):  # taps on the board's hooks, decided in the kernel as the browser's are
        timed("hint", lambda: w.board.intent({"hint": True}))
    timed("answer", lambda: w.answer(wrong_answer(puzzle)))
    timed("answer", lambda: w.answer(puzzle.solve()))
    assert w.state == "right", puzzle.id

    def index() -> int:
        return int(w.board.view["proof"]["index"])

    total = len(w.board.view["proof"]["steps"])
    while index() < total - 1:
        timed("next", lambda: w.board.intent({"step": 1}))
    while index() > 0:
        timed("back", lambda: w.board.intent({"step": -1}))
    return times


def run(paths: list[Path], rounds: int) -> dict[str, list[tuple[float, str]]]:
    """Every click's time (ms) with its puzzle id, by kind; the best of ``rounds`` per click.

    Each round loads the puzzle afresh, so no engine result cached on a position carries over.
    """
    out: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for path in paths:
        runs = [measure(load_puzzle(path)) for _ in range(rounds)]
        puzzle = load_puzzle(path)
        for kind in KINDS:
            for samples in zip(*(r[kind] for r in runs)):
                out[kind].append((min(samples) * 1000, puzzle.id))
    return out


def report(results: dict[str, list[tuple[float, str]]], count: int) -> str:
    lines = [
        f"battleline_lab widget clicks: {count} puzzles, Python {platform.python_version()}, {platform.machine()}",
        f"{'click':<8}{'clicks':>8}{'median ms':>12}{'p95 ms':>10}{'max ms':>10}  slowest puzzle",
    ]
    worst = 0.0
    for kind in KINDS:
        rows = sorted(results.get(kind, []))
        if not rows:
            continue
        values = [ms for ms, _ in rows]
        p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
        slowest_ms, slowest_id = rows[-1]
        if kind != "open":
            worst = max(worst, slowest_ms)
        lines.append(
            f"{kind:<8}{len(values):>8}{statistics.median(values):>12.2f}{p95:>10.2f}{slowest_ms:>10.2f}  {slowest_id}"
        )
    verdict = "within" if worst < TARGET_MS else "OVER"
    lines.append(f"slowest click (answer, hint, next, back): {worst:.2f} ms, {verdict} the {TARGET_MS:.0f} ms target")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 puzzles, 1 round")
    parser.add_argument("--rounds", type=int, default=3, help="runs per puzzle; the best time of each click counts")
    parser.add_argument("paths", nargs="*", default=[str(ROOT / "puzzles")])
    args = parser.parse_args(argv)
    os.environ.setdefault("BATTLELINE_LAB_DATA", tempfile.mkdtemp(prefix="bl-bench-"))
    paths = [p for p in iter_puzzle_files(args.paths) if load_puzzle(p).question is not None]
    rounds = args.rounds
    if args.quick:
        paths, rounds = paths[:5], 1
    print(report(run(paths, rounds), len(paths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
