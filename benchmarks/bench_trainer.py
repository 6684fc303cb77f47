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

Usage::

    python benchmarks/bench_trainer.py            # 60 learners
    python benchmarks/bench_trainer.py --quick    # 4 learners
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from battleline_lab import library
from battleline_lab.progress import MemoryStore, Progress
from battleline_lab.puzzle import Puzzle
from battleline_lab.trainer import Trainer, initial_rating

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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="4 learners (for CI)")
    parser.add_argument("--learners", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    learners = 4 if args.quick else args.learners
    results = run(learners, args.seed)
    print(f"{learners} simulated learners, {len(library.ids())} library puzzles, seed {args.seed}")
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
