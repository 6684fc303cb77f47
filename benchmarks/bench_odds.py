"""Benchmark: the odds of all nine flags of a position (battleline_lab.core.odds.position_odds).

Seeded random positions (``tests/random_positions.py``) of three stages: mid-game (0-3 troops a
side), late-game (most sides complete, some flags claimed) and tactics-heavy (Mud, Fog, morale
cards).  For each position the odds' own cache is emptied first, then all nine flags are computed
(and, separately, both sides' outs on all nine).  Reported per stage: median, 90th percentile and
worst CPU time (``time.process_time``) against the 50 ms target (the coach shows them after every
move), and how many flags came out exact or sampled (Mud flags with many open slots on both sides,
within 0.5 points at 95 %).  Targets are reported, never asserted; the figures go in docs/game.md.

Usage::

    python benchmarks/bench_odds.py            # 60 positions a stage
    python benchmarks/bench_odds.py --quick    # 8 positions a stage
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from battleline_lab.core import odds as odds_module  # noqa: E402
from battleline_lab.core.odds import flag_odds, outs  # noqa: E402
from battleline_lab.core.position import FLAGS, Side  # noqa: E402
from tests.random_positions import STAGES, random_positions  # noqa: E402

TARGET_MS = 50.0  # all nine flags of a position


def _ms(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(count: int, seed: int = 27) -> dict[str, dict[str, float]]:
    report: dict[str, dict[str, float]] = {}
    for stage in STAGES:
        odds_times: list[float] = []
        outs_times: list[float] = []
        exact = sampled = 0
        for position in random_positions(count, seed=seed, stage=stage):
            odds_module._VALUE_CACHE.clear()
            start = time.process_time()
            results = [flag_odds(position, n) for n in FLAGS]
            odds_times.append(1000 * (time.process_time() - start))
            exact += sum(r.exact for r in results)
            sampled += sum(not r.exact for r in results)
            start = time.process_time()
            for n in FLAGS:
                for side in Side:
                    outs(position, n, side)
            outs_times.append(1000 * (time.process_time() - start))
        report[stage] = {
            "median": statistics.median(odds_times),
            "p90": _ms(odds_times, 0.9),
            "worst": max(odds_times),
            "within": sum(t <= TARGET_MS for t in odds_times) / len(odds_times),
            "outs_median": statistics.median(outs_times),
            "exact": exact,
            "sampled": sampled,
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8 positions a stage")
    parser.add_argument("--count", type=int, default=60)
    args = parser.parse_args(argv)
    count = 8 if args.quick else args.count
    print(f"odds of all nine flags, {count} positions a stage; Python {platform.python_version()}, CPU ms")
    for stage, row in measure(count).items():
        print(
            f"{stage:8} median {row['median']:7.1f}  p90 {row['p90']:7.1f}  worst {row['worst']:7.1f}"
            f"  within {TARGET_MS:.0f} ms: {100 * row['within']:5.1f}%  (median/target {row['median'] / TARGET_MS:.2f})"
            f"  outs (18 sides) median {row['outs_median']:6.1f}"
            f"  flags exact {row['exact']:.0f}, sampled {row['sampled']:.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
