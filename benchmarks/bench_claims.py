"""Benchmark: the fast claim search against the naive reference, and full position analysis.

Runs over the fixed set of hard positions in ``benchmarks/positions.json`` (Mud, wildcards, Fog, 0-1
opposing cards, in ``Position.build`` form) and measures, in one run:

* per claim decision: the naive reference (``tests/reference.py``, which enumerates every completion)
  against the engine's ``analyse_claim``, and the ratio naive/fast (target: at least 100x);
* the median time of a full ``analyse_position`` (both sides, all nine flags; target: under 2 ms),
  on the same positions and on seeded random mid-game positions.

Usage::

    python benchmarks/bench_claims.py            # all positions (about a minute)
    python benchmarks/bench_claims.py --quick    # the positions marked quick, fewer repeats

It also checks that both implementations reach the verdict stored in the file.  Timing thresholds
are reported, never asserted: the figures go in ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a plain script: make `tests.reference` importable
    sys.path.insert(0, str(ROOT))

from battleline_lab.cards import ALL_TROOPS  # noqa: E402
from battleline_lab.claims import analyse_claim, analyse_position  # noqa: E402
from battleline_lab.position import Position, Side  # noqa: E402
from tests.reference import reference_claim  # noqa: E402

POSITIONS = Path(__file__).with_name("positions.json")
RATIO_TARGET = 100.0
POSITION_TARGET_MS = 2.0


@dataclass(frozen=True)
class Case:
    name: str
    note: str
    flag: int
    side: Side
    quick: bool
    claimable: bool
    position: Position


@dataclass(frozen=True)
class Row:
    """One position's measurements (seconds)."""

    name: str
    claimable: bool
    naive: float
    fast: float
    full: float

    @property
    def ratio(self) -> float:
        return self.naive / self.fast


def load(path: Path = POSITIONS) -> list[Case]:
    cases = []
    for entry in json.loads(path.read_text(encoding="utf-8")):
        spec: dict[str, Any] = entry["position"]
        flags = {int(n): f for n, f in spec.get("flags", {}).items()}
        position = Position.build(flags, discards=spec.get("discards"), hand=spec.get("hand"))
        cases.append(
            Case(
                entry["name"],
                entry.get("note", ""),
                int(entry["flag"]),
                Side(entry["side"]),
                bool(entry.get("quick", False)),
                bool(entry["claimable"]),
                position,
            )
        )
    return cases


def fresh(position: Position) -> Position:
    """An equal position that has never been analysed: derived data cached on it is computed again."""
    return replace(position, flags=tuple(replace(state) for state in position.flags))


def per_call(fn: Callable[[Position], object], position: Position, repeats: int, number: int) -> float:
    """CPU seconds of one call: the median over ``repeats`` batches of ``number`` calls on fresh copies."""
    times = []
    for _ in range(repeats):
        copies = [fresh(position) for _ in range(number)]
        start = time.process_time()
        for copy in copies:
            fn(copy)
        times.append((time.process_time() - start) / number)
    return statistics.median(times)


def measure(case: Case, quick: bool) -> Row:
    position, flag, side = case.position, case.flag, case.side
    fast_verdict = analyse_claim(fresh(position), flag, side).claimable
    start = time.process_time()
    naive_verdict = reference_claim(fresh(position), flag, side)
    naive = time.process_time() - start
    if not fast_verdict == naive_verdict == case.claimable:
        raise SystemExit(
            f"{case.name}: verdicts differ: fast {fast_verdict}, naive {naive_verdict}, file {case.claimable}"
        )
    repeats, number = (3, 10) if quick else (9, 50)
    fast = per_call(lambda p: analyse_claim(p, flag, side), position, repeats, number)
    full = per_call(analyse_position, position, repeats, number)
    return Row(case.name, fast_verdict, naive, fast, full)


def random_positions(count: int, seed: int = 7) -> list[Position]:
    """Seeded random mid-game positions: 0-3 troops a side on every flag, a few discards."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        troops = list(ALL_TROOPS)
        rng.shuffle(troops)
        flags: dict[int, dict[str, Any]] = {}
        used = 0
        for n in range(1, 10):
            mine, theirs = rng.randint(0, 3), rng.randint(0, 3)
            spec: dict[str, Any] = {
                "you": troops[used : used + mine],
                "opponent": troops[used + mine : used + mine + theirs],
            }
            used += mine + theirs
            if mine == theirs == 3:
                spec["first_complete"] = rng.choice(["you", "opponent"])
            flags[n] = spec
        positions.append(Position.build(flags, discards={"you": troops[used : used + rng.randint(0, 6)]}))
    return positions


def random_profile(count: int) -> list[float]:
    """CPU seconds of ``analyse_position`` on each of ``count`` seeded random positions, sorted."""
    times = []
    for position in random_positions(count):
        start = time.process_time()
        analyse_position(position)
        times.append(time.process_time() - start)
    return sorted(times)


def run(quick: bool = False, path: Path = POSITIONS) -> list[Row]:
    """Measure every position (only those marked ``quick`` in quick mode)."""
    cases = [c for c in load(path) if c.quick or not quick]
    return [measure(c, quick) for c in cases]


def _times(ratio: float) -> str:
    return f"{ratio:.1f}x" if ratio < 10 else f"{ratio:.0f}x"


def report(rows: Sequence[Row], quick: bool) -> str:
    lines = [
        f"battleline_lab claim benchmark{' (quick)' if quick else ''}: {len(rows)} positions, "
        f"Python {platform.python_version()} on {platform.machine()}",
        "",
        f"{'position':<26} {'verdict':>9} {'naive ms':>10} {'fast ms':>9} {'naive/fast':>11} {'position ms':>12}",
    ]
    for r in rows:
        verdict = "claim" if r.claimable else "no claim"
        lines.append(
            f"{r.name:<26} {verdict:>9} {r.naive * 1e3:>10.1f} {r.fast * 1e3:>9.3f} "
            f"{_times(r.ratio):>11} {r.full * 1e3:>12.3f}"
        )
    ratios = [r.ratio for r in rows]
    overall = sum(r.naive for r in rows) / sum(r.fast for r in rows)
    median_full = statistics.median(r.full for r in rows) * 1e3
    lines += [
        "",
        f"naive/fast, total time over the set: {overall:.0f}x "
        f"(target >= {RATIO_TARGET:.0f}x: {'met' if overall >= RATIO_TARGET else 'MISSED'})",
        f"naive/fast per position: min {_times(min(ratios))}, median {_times(statistics.median(ratios))}, "
        f"max {_times(max(ratios))} (small where the naive search meets a counterexample early or has "
        "only 1-2 open slots to fill)",
        f"analyse_position, median over the set: {median_full:.3f} ms "
        f"(target < {POSITION_TARGET_MS:g} ms: {'met' if median_full < POSITION_TARGET_MS else 'MISSED'})",
        "times are CPU time (time.process_time) on fresh copies of each position; fast and position: median of batches",
    ]
    if quick:
        lines.append(
            "quick mode: cheaper positions, few repeats; it exercises the benchmark, the figures come from a full run"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the positions marked quick, fewer repeats")
    parser.add_argument("--positions", type=Path, default=POSITIONS, help="positions file (JSON)")
    args = parser.parse_args(argv)
    rows = run(args.quick, args.positions)
    print(report(rows, args.quick))
    count = 30 if args.quick else 300
    times = random_profile(count)
    print(
        f"analyse_position on {count} seeded random mid-game positions: median "
        f"{statistics.median(times) * 1e3:.3f} ms, 90th percentile {times[int(0.9 * count)] * 1e3:.3f} ms, "
        f"max {times[-1] * 1e3:.3f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
