"""Benchmark: does the trainer find a learner's level, and does its choice of puzzles suit them?

Simulated learners, each with a hidden skill per theme (on the Glicko scale: a base skill plus
an offset per theme), answer every puzzle by a logistic model,
``P(right) = 1 / (1 + 10 ** ((difficulty - skill) / 400))``, where a puzzle's true difficulty
is the engine's estimate (its initial rating) plus noise the trainer does not know.  Each
learner works through the shipped library twice over a fresh store:

* ``trainer``: :meth:`Trainer.next` picks every puzzle (near 70% expected success, reviews);
* ``library order``: the library's fixed order, easiest first (what the gym did before).

Reported: the mean absolute error of the learner's rating against the hidden base skill after
20 and 40 puzzles, and the share of right answers the selection produced.  Nothing is timed;
figures depend only on the seed.  Thresholds are reported, never asserted.

A second part (``--scale N``) times the trainer at a year's scale: a store holding ``N`` attempts
(default 100,000; SQLite and JSON lines), then for a few more answers the CPU time of
``Trainer.next()`` and ``summary()`` right after each answer (the median is reported, with the
first, cold call apart).  The target is <= 50 ms each; it is reported, never asserted.

Usage::

    python benchmarks/bench_trainer.py              # 60 learners
    python benchmarks/bench_trainer.py --quick      # 4 learners
    python benchmarks/bench_trainer.py --scale 100000   # the timing part only
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from battleline_lab.quiz import library
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.training.progress import Attempt, JsonLinesStore, MemoryStore, Progress, SqliteStore
from battleline_lab.training.trainer import Trainer, initial_rating

CHECKPOINTS = (20, 40)


@dataclass(frozen=True)
class Learner:
    """A hidden base skill and an offset per theme."""

    skill: float
    offsets: dict[str, float]

    def p_right(self, difficulty: float, theme: str) -> float:
        return 1.0 / (1.0 + 10 ** ((difficulty - self.skill - self.offsets.get(theme, 0.0)) / 400))


@dataclass(frozen=True)
class Result:
    errors: dict[int, float]  # checkpoint -> |rating - skill|
    success: float


def simulate(
    learner: Learner,
    truth: dict[str, float],
    rng: random.Random,
    choose: Callable[[Trainer, int], Puzzle],
    puzzles: Sequence[Puzzle],
) -> Result:
    trainer = Trainer(puzzles, progress=Progress(store=MemoryStore()))
    themes = {p.id: library.theme_of(p.id) for p in puzzles}
    errors, right = {}, 0
    for n in range(1, max(CHECKPOINTS) + 1):
        puzzle = choose(trainer, n - 1)
        correct = rng.random() < learner.p_right(truth[puzzle.id], themes[puzzle.id])
        right += correct
        trainer.record(puzzle.id, correct=correct)
        if n in CHECKPOINTS:
            errors[n] = abs(trainer.rating - learner.skill)
    return Result(errors, right / max(CHECKPOINTS))


def run(learners: int, seed: int = 1) -> dict[str, list[Result]]:
    puzzles = [p for p in library.puzzles() if p.question is not None]
    themes = sorted({library.theme_of(p.id) for p in puzzles})
    rng = random.Random(seed)
    results: dict[str, list[Result]] = {"trainer": [], "library order": []}
    for _ in range(learners):
        learner = Learner(rng.gauss(1500, 250), {t: rng.gauss(0, 120) for t in themes})
        truth = {p.id: initial_rating(p).rating + rng.gauss(0, 150) for p in puzzles}
        answers_seed = rng.random()
        results["trainer"].append(
            simulate(learner, truth, random.Random(answers_seed), lambda t, _n: t.next(), puzzles)
        )
        results["library order"].append(
            simulate(learner, truth, random.Random(answers_seed), lambda _t, n: puzzles[n % len(puzzles)], puzzles)
        )
    return results


def report(results: dict[str, list[Result]]) -> str:
    lines = []
    for name, rows in results.items():
        errs = ", ".join(f"after {c}: {statistics.mean(r.errors[c] for r in rows):.0f}" for c in CHECKPOINTS)
        success = statistics.mean(r.success for r in rows)
        spread = min(r.success for r in rows), max(r.success for r in rows)
        lines.append(
            f"{name:>14}: rating error (mean |rating - hidden skill|) {errs}; "
            f"right answers {100 * success:.0f}% (learners from {100 * spread[0]:.0f}% to {100 * spread[1]:.0f}%)"
        )
    return "\n".join(lines)


def _fill(kind: str, folder: Path, count: int, seed: int) -> Progress:
    """A store of ``count`` attempts of one learner over the library (a year of daily practice)."""
    puzzles = [p.id for p in library.puzzles() if p.question is not None]
    rng = random.Random(seed)
    rows = [
        Attempt("me", rng.choice(puzzles), "answer", correct=rng.random() < 0.7, at=1.7e9 + n, source="bench")
        for n in range(count)
    ]
    if kind == "sqlite":
        store = SqliteStore(folder / "progress.sqlite3")
        store.add_many(rows)
        store.close()
        return Progress(folder / "progress.sqlite3")
    path = folder / "progress.jsonl"
    JsonLinesStore(path)  # creates the file
    with open(path, "a", encoding="utf-8") as out:
        import json

        out.writelines(json.dumps(r.to_json()) + "\n" for r in rows)
    return Progress(path)


def _cpu_ms(call: Callable[[], object]) -> float:
    start = time.process_time()
    call()
    return 1000 * (time.process_time() - start)


def scale(count: int, answers: int = 5, seed: int = 1) -> dict[str, dict[str, float]]:
    """CPU milliseconds of ``next()`` and ``summary()`` with ``count`` attempts in SQLite and JSON lines."""
    out: dict[str, dict[str, float]] = {}
    for kind in ("sqlite", "jsonl"):
        with tempfile.TemporaryDirectory() as temp:
            progress = _fill(kind, Path(temp), count, seed)
            trainer = Trainer(progress=progress)
            cold = _cpu_ms(trainer.next)
            nexts, summaries = [], []
            for _ in range(answers):
                puzzle = trainer.next()
                trainer.record(puzzle.id, correct=True)
                nexts.append(_cpu_ms(trainer.next))
                summaries.append(_cpu_ms(trainer.summary))
            out[kind] = {
                "cold next": cold,
                "next": statistics.median(nexts),
                "summary": statistics.median(summaries),
            }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="4 learners (for CI)")
    parser.add_argument("--learners", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scale", type=int, metavar="N", help="time next()/summary() with N attempts instead")
    args = parser.parse_args(argv)
    if args.scale is not None:
        timings = scale(args.scale, seed=args.seed)
        print(f"{args.scale} attempts, CPU ms (median of 5 answers; target <= 50 ms):")
        for kind, row in timings.items():
            print(f"{kind:>7}: " + ", ".join(f"{name} {ms:.1f} ms" for name, ms in row.items()))
        return 0
    learners = 4 if args.quick else args.learners
    results = run(learners, args.seed)
    print(f"{learners} simulated learners, {len(library.ids())} library puzzles, seed {args.seed}")
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
