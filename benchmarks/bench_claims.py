"""Benchmark: the claim decision path and the full proof against the naive reference, in one run.

Two sets of positions:

* the fixed *hard set* in ``benchmarks/positions.json`` (Mud, wildcards, Fog, 0-1 opposing cards, in
  ``Position.build`` form), one flag and side each: the naive reference (``tests/reference.py``,
  which enumerates every completion) against the decision path (:func:`battleline_lab.core.decide.can_claim`)
  and the full proof (:func:`battleline_lab.core.claims.analyse_claim`); targets: decision at least 50x
  the reference over the set, full proof at least 100x;
* seeded *random positions* (``tests/random_positions.py``): mid-game (0-3 troops a side), late-game (most
  sides complete, some flags claimed) and tactics-heavy (Mud, Fog, wildcards on both sides).  Each
  whole position is decided (both sides, every unclaimed flag) by the decision path
  (:func:`battleline_lab.core.decide.decide_position`), the full analysis (``analyse_position``) and the
  reference; targets: decision median at most 100 us and worst at most 1 ms, at least 5x the
  reference at the median, full analysis at most 1 ms median and at least 2x the reference at the median
  with every step of every proof read (``analyse+every step``: ``analyse_position`` and reading the
  steps of every proof, timed as one call on a fresh copy, the first proof of the position; the
  analysis alone is timed after the reference, with the position's shapes and wildcard formations
  remembered).

Usage::

    python benchmarks/bench_claims.py            # everything (a few minutes: the reference is slow)
    python benchmarks/bench_claims.py --quick    # the hard positions marked quick, 20 random positions a stage
    python benchmarks/bench_claims.py --before DIR   # also an older copy of the package, interleaved (see below)

``--before DIR`` times ``decide_position`` and ``analyse_position`` of an older version against this
one on the same random positions (another seed than the rest, so neither version meets a position it
has analysed before), one after the other for each position (so both see the same load; each goes
first on every other position), and checks their verdicts agree.  ``DIR`` is a checkout of that
version (``git worktree add --detach DIR main``: its ``battleline_lab`` is imported under the name
``battleline_lab_before``; its imports are relative), or a folder that holds the package already
renamed ``battleline_lab_before``.

It checks that the decision path, the full analysis, the reference (and the file) agree on every
verdict before reporting.  Timings are CPU time (``time.process_time``); thresholds are reported,
never asserted: the figures go in ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import importlib.util
import json
import platform
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

from battleline_lab.core.claims import analyse_claim, analyse_position  # noqa: E402
from battleline_lab.core.decide import can_claim, decide_position  # noqa: E402
from battleline_lab.core.position import FLAGS, Position, Side  # noqa: E402
from tests.random_positions import STAGES, random_positions  # noqa: E402
from tests.reference import reference_claim  # noqa: E402

POSITIONS = Path(__file__).with_name("positions.json")
HARD_RATIO_TARGET = 50.0  # naive / decision over the hard set
RATIO_TARGET = 100.0  # naive / full proof over the hard set
DECIDE_MEDIAN_US = 100.0
DECIDE_WORST_US = 1000.0
RANDOM_RATIO_TARGET = 5.0
FULL_MEDIAN_MS = 1.0
FULL_RATIO_TARGET = 2.0  # naive / full proof at the median on the random positions
BEFORE_SEED = 8  # --before: positions neither version has seen in this run (the others use seed 7)


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
    """One hard position's measurements (seconds)."""

    name: str
    claimable: bool
    naive: float
    decide: float
    fast: float
    full: float
    decide_full: float

    @property
    def ratio(self) -> float:
        """naive / full proof"""
        return self.naive / self.fast

    @property
    def decide_ratio(self) -> float:
        """naive / decision"""
        return self.naive / self.decide


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
    decided = can_claim(fresh(position), flag, side)
    start = time.process_time()
    naive_verdict = reference_claim(fresh(position), flag, side)
    naive = time.process_time() - start
    if not fast_verdict == decided == naive_verdict == case.claimable:
        raise SystemExit(
            f"{case.name}: verdicts differ: proof {fast_verdict}, decision {decided}, naive {naive_verdict}, "
            f"file {case.claimable}"
        )
    repeats, number = (3, 10) if quick else (9, 50)
    decide = per_call(lambda p: can_claim(p, flag, side), position, repeats, number)
    fast = per_call(lambda p: analyse_claim(p, flag, side), position, repeats, number)
    full = per_call(analyse_position, position, repeats, number)
    decide_full = per_call(decide_position, position, repeats, number)
    return Row(case.name, fast_verdict, naive, decide, fast, full, decide_full)


# -- seeded random positions (tests/random_positions.py) ----------------------------------------------


def naive_position(position: Position) -> dict[Side, tuple[int, ...]]:
    """The reference's verdicts for the whole position: every unclaimed flag, both sides."""
    return {
        side: tuple(n for n in FLAGS if position.flag(n).claimed_by is None and reference_claim(position, n, side))
        for side in Side
    }


def _full_verdicts(position: Position) -> dict[Side, tuple[int, ...]]:
    analysis = analyse_position(position)
    return {side: analysis.claimable(side) for side in Side}


def read_steps(analysis: Any) -> Any:
    """Read every step of every proof of ``analysis`` (a ``PositionAnalysis``, of any version); return it.

    Older versions said the steps of a refusal by a completion and of two complete sides only when
    first read, so ``analyse_position`` alone left them unsaid; reading them is the rest of what a
    caller that shows every step pays.
    """
    for claim in analysis.claims.values():
        claim.steps  # noqa: B018
    return analysis


def _every_step(position: Position) -> dict[Side, tuple[int, ...]]:
    """``_full_verdicts`` with every step of every proof read: the target, timed as one call
    (one clock interval: a second interval would add the clock's own cost, several us here, again)."""
    analysis = read_steps(analyse_position(position))
    return {side: analysis.claimable(side) for side in Side}


@dataclass(frozen=True)
class Profile:
    """CPU seconds per whole position, for one stage: decision path, full analysis, naive reference."""

    stage: str
    decide: list[float]
    full: list[float]
    naive: list[float]
    read: list[float] = dataclasses.field(default_factory=list)  # ``full`` plus reading every step of every proof


def _timed(fn: Callable[[Position], Any], position: Position) -> tuple[float, Any]:
    copy = fresh(position)
    start = time.process_time()
    result = fn(copy)
    return time.process_time() - start, result


def random_profile(count: int, stage: str = "mid", naive: bool = True) -> Profile:
    """Time each of ``count`` seeded random positions once with each engine, checking they agree."""
    decide, full, slow, read = [], [], [], []
    for position in random_positions(count, stage=stage):
        t_decide, verdicts = _timed(decide_position, position)
        # every step read (the target) right after the decision, as the first proof of the position: the
        # caches that outlive a position (shapes, formations with wildcards) are cold for it, and its code
        # has just been evicted by other code, as the reference's is when its turn comes (after a proof)
        t_read, verdicts_read = _timed(_every_step, position)
        if verdicts != verdicts_read:
            raise SystemExit(f"verdicts differ (decision {verdicts}, proof {verdicts_read}): {position!r}")
        decide.append(t_decide)
        read.append(t_read)
        if naive:
            t_naive, verdicts_naive = _timed(naive_position, position)
            if verdicts != verdicts_naive:
                raise SystemExit(f"verdicts differ (decision {verdicts}, naive {verdicts_naive}): {position!r}")
            slow.append(t_naive)
        # the steps left unread, last (after the reference: its code cold again, but the position's
        # shapes and wildcard formations remembered from the first proof: a little optimistic)
        t_full, verdicts_full = _timed(_full_verdicts, position)
        if verdicts != verdicts_full:
            raise SystemExit(f"verdicts differ (decision {verdicts}, proof {verdicts_full}): {position!r}")
        full.append(t_full)
    return Profile(stage, decide, full, slow, read)


def run(quick: bool = False, path: Path = POSITIONS) -> list[Row]:
    """Measure every hard position (only those marked ``quick`` in quick mode)."""
    cases = [c for c in load(path) if c.quick or not quick]
    return [measure(c, quick) for c in cases]


def _times(ratio: float) -> str:
    return f"{ratio:.1f}x" if ratio < 10 else f"{ratio:.0f}x"


def _met(ok: bool) -> str:
    return "met" if ok else "MISSED"


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(rows: Sequence[Row], quick: bool) -> str:
    lines = [
        f"battleline_lab claim benchmark{' (quick)' if quick else ''}: {len(rows)} hard positions, "
        f"Python {platform.python_version()} on {platform.machine()}",
        "",
        f"{'position':<26} {'verdict':>9} {'naive ms':>9} {'decide us':>10} {'naive/dec':>10} "
        f"{'proof ms':>9} {'naive/proof':>11} {'pos dec us':>11} {'pos proof ms':>13}",
    ]
    for r in rows:
        verdict = "claim" if r.claimable else "no claim"
        lines.append(
            f"{r.name:<26} {verdict:>9} {r.naive * 1e3:>9.1f} {r.decide * 1e6:>10.1f} {_times(r.decide_ratio):>10} "
            f"{r.fast * 1e3:>9.3f} {_times(r.ratio):>11} {r.decide_full * 1e6:>11.1f} {r.full * 1e3:>13.3f}"
        )
    ratios = [r.ratio for r in rows]
    overall = sum(r.naive for r in rows) / sum(r.fast for r in rows)
    decide_overall = sum(r.naive for r in rows) / sum(r.decide for r in rows)
    decide_ratios = [r.decide_ratio for r in rows]
    median_full = statistics.median(r.full for r in rows) * 1e3
    lines += [
        "",
        f"naive/decision, total time over the set: {decide_overall:.0f}x "
        f"(target >= {HARD_RATIO_TARGET:.0f}x: {_met(decide_overall >= HARD_RATIO_TARGET)}); per position: "
        f"min {_times(min(decide_ratios))}, median {_times(statistics.median(decide_ratios))}, "
        f"max {_times(max(decide_ratios))}",
        f"naive/fast, total time over the set: {overall:.0f}x "
        f"(full proof; target >= {RATIO_TARGET:.0f}x: {_met(overall >= RATIO_TARGET)})",
        f"naive/fast per position: min {_times(min(ratios))}, median {_times(statistics.median(ratios))}, "
        f"max {_times(max(ratios))} (small where the naive search meets a counterexample early or has "
        "only 1-2 open slots to fill)",
        f"analyse_position, median over the set: {median_full:.3f} ms; decide_position: "
        f"{statistics.median(r.decide_full for r in rows) * 1e6:.1f} us",
        "times are CPU time (time.process_time) on fresh copies of each position; median of batches",
    ]
    if quick:
        lines.append(
            "quick mode: cheaper positions, few repeats; it exercises the benchmark, the figures come from a full run"
        )
    return "\n".join(lines)


def profile_report(profiles: Sequence[Profile]) -> str:
    """The per-position table of the random sets, each stage and all together, and the targets."""
    everything = Profile(
        "all",
        [t for p in profiles for t in p.decide],
        [t for p in profiles for t in p.full],
        [t for p in profiles for t in p.naive],
        [t for p in profiles for t in p.read],
    )
    lines = [
        "",
        "whole positions (both sides, every unclaimed flag), seeded random, each timed once (CPU time):",
        f"{'set':<9} {'engine':<18} {'count':>6} {'median us':>10} {'90th pct us':>12} {'worst us':>10}",
    ]
    for p in [*profiles, everything]:
        for name, times in (
            ("decide_position", p.decide),
            ("analyse_position", p.full),
            ("analyse+every step", p.read),
            ("naive reference", p.naive),
        ):
            if times:
                lines.append(
                    f"{p.stage:<9} {name:<18} {len(times):>6} {statistics.median(times) * 1e6:>10.1f} "
                    f"{_pct(times, 0.9) * 1e6:>12.1f} {max(times) * 1e6:>10.1f}"
                )
    med, worst = statistics.median(everything.decide), max(everything.decide)
    lines += [
        "",
        f"decision path, median per position: {med * 1e6:.1f} us "
        f"(target <= {DECIDE_MEDIAN_US:g} us: {_met(med * 1e6 <= DECIDE_MEDIAN_US)}); worst {worst * 1e6:.1f} us "
        f"(target <= {DECIDE_WORST_US:g} us: {_met(worst * 1e6 <= DECIDE_WORST_US)})",
        f"analyse_position (full proof), median per position: {statistics.median(everything.full) * 1e3:.3f} ms "
        f"(target <= {FULL_MEDIAN_MS:g} ms: {_met(statistics.median(everything.full) * 1e3 <= FULL_MEDIAN_MS)})",
    ]
    if everything.naive:
        ratio = statistics.median(everything.naive) / med
        per = statistics.median(n / d for n, d in zip(everything.naive, everything.decide))
        full = statistics.median(everything.naive) / statistics.median(everything.full)
        read = statistics.median(everything.naive) / statistics.median(everything.read)
        lines.append(
            f"naive/full proof with every step of every proof read, at the median: {read:.2f}x (median naive / "
            f"median of analyse_position + reading every step; target >= {FULL_RATIO_TARGET:g}x: "
            f"{_met(read >= FULL_RATIO_TARGET)})"
        )
        lines.append(
            f"naive/full proof, steps left unread, at the median: {full:.2f}x (median naive / median analyse_position, "
            "timed last; not the target)"
        )
        lines.append(
            f"naive/decision at the median: {_times(ratio)} (median naive / median decision; target >= "
            f"{RANDOM_RATIO_TARGET:g}x: {_met(ratio >= RANDOM_RATIO_TARGET)}); median of per-position ratios "
            f"{_times(per)}; decision faster than the reference on "
            f"{sum(d < n for n, d in zip(everything.naive, everything.decide))} of {len(everything.decide)} positions"
        )
    return "\n".join(lines)


def _import_before(directory: Path) -> tuple[Any, Any, Any]:
    """The claims, decide and position modules of the older copy in ``directory`` (see ``--before``)."""
    name = "battleline_lab_before"
    package = directory / "battleline_lab"
    if name not in sys.modules and (package / "__init__.py").is_file():
        # a checkout: import its package under another name, so both versions live side by side
        spec = importlib.util.spec_from_file_location(
            name, package / "__init__.py", submodule_search_locations=[str(package)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    elif str(directory) not in sys.path:
        sys.path.insert(0, str(directory))
    # a checkout from before the layers (flat modules) or after them (core/, docs/architecture.md)
    core = f"{name}.core" if (package / "core" / "claims.py").is_file() else name
    return tuple(importlib.import_module(f"{core}.{m}") for m in ("claims", "decide", "position"))  # type: ignore[return-value]


@dataclass(frozen=True)
class Before:
    """CPU seconds per whole position, one stage, the older copy (``--before``) and this one."""

    stage: str
    old_decide: list[float]
    new_decide: list[float]
    old_full: list[float]
    new_full: list[float]
    old_read: list[float] = dataclasses.field(default_factory=list)  # ``*_full`` plus reading every step
    new_read: list[float] = dataclasses.field(default_factory=list)


def before_profile(directory: Path, count: int) -> list[Before]:
    """``decide_position``, ``analyse_position`` with every step read (one call, first) and without (after it)
    of an older copy of the package (``--before``) and of this one, per stage, interleaved position by
    position (so both see the same load)."""
    old_claims, old_decide, old_position = _import_before(directory)

    def old_read(position: Any) -> Any:  # every step read, one call (as in random_profile, before the analysis)
        return read_steps(old_claims.analyse_position(position))

    def new_read(position: Position) -> Any:
        return read_steps(analyse_position(position))

    out = []
    for stage in STAGES:
        row = Before(stage, [], [], [], [])
        for i, position in enumerate(random_positions(count, seed=BEFORE_SEED, stage=stage)):
            data = position.to_data()
            copy = old_position.Position.build(data.pop("flags", {}), **data)
            if i % 2:  # each version goes first on every other position
                t_new_decide, new_verdicts = _timed(decide_position, position)
                t_new_read, _ = _timed(new_read, position)
                t_new, new_analysis = _timed(analyse_position, position)
            t_old_decide, old_verdicts = _timed(old_decide.decide_position, copy)
            t_old_read, _ = _timed(old_read, copy)
            t_old, old_analysis = _timed(old_claims.analyse_position, copy)
            if not i % 2:
                t_new_decide, new_verdicts = _timed(decide_position, position)
                t_new_read, _ = _timed(new_read, position)
                t_new, new_analysis = _timed(analyse_position, position)
            old_claimable = [old_analysis.claimable(s.value) for s in Side]
            new_claimable = [new_analysis.claimable(s) for s in Side]
            if old_claimable != new_claimable or [old_verdicts[k] for k in old_verdicts] != [
                new_verdicts[s] for s in Side
            ]:
                raise SystemExit(f"verdicts differ from the older version: {position!r}")
            row.old_decide.append(t_old_decide)
            row.new_decide.append(t_new_decide)
            row.old_full.append(t_old)
            row.new_full.append(t_new)
            row.old_read.append(t_old_read)
            row.new_read.append(t_new_read)
        out.append(row)
    return out


def before_report(rows: Sequence[Before]) -> str:
    lines = [
        "",
        "the older version (--before) against this one, interleaved on the same positions (CPU time):",
        f"{'set':<9} {'engine':<18} {'count':>6} {'before median us':>17} {'now median us':>14} {'before/now':>11} "
        f"{'before 90th us':>15} {'now 90th us':>12}",
    ]
    everything = Before(
        "all",
        [t for r in rows for t in r.old_decide],
        [t for r in rows for t in r.new_decide],
        [t for r in rows for t in r.old_full],
        [t for r in rows for t in r.new_full],
        [t for r in rows for t in r.old_read],
        [t for r in rows for t in r.new_read],
    )
    for r in [*rows, everything]:
        for engine, old, new in (
            ("decide_position", r.old_decide, r.new_decide),
            ("analyse_position", r.old_full, r.new_full),
            ("analyse+every step", r.old_read, r.new_read),
        ):
            lines.append(
                f"{r.stage:<9} {engine:<18} {len(old):>6} {statistics.median(old) * 1e6:>17.1f} "
                f"{statistics.median(new) * 1e6:>14.1f} {_times(statistics.median(old) / statistics.median(new)):>11} "
                f"{_pct(old, 0.9) * 1e6:>15.1f} {_pct(new, 0.9) * 1e6:>12.1f}"
            )
    ratio = statistics.median(everything.old_decide) / statistics.median(everything.new_decide)
    lines.append(
        f"decision path before/now at the median: {ratio:.3f}x (target >= 1x, no slower: {_met(ratio >= 1.0)})"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the positions marked quick, fewer repeats")
    parser.add_argument("--positions", type=Path, default=POSITIONS, help="positions file (JSON)")
    parser.add_argument("--random", type=int, default=None, metavar="N", help="random positions per stage")
    parser.add_argument(
        "--before", type=Path, default=None, metavar="DIR", help="also time an older copy of the package (see above)"
    )
    args = parser.parse_args(argv)
    rows = run(args.quick, args.positions)
    print(report(rows, args.quick))
    count = args.random if args.random is not None else 20 if args.quick else 600
    profiles = [random_profile(count, stage) for stage in STAGES]
    print(profile_report(profiles))
    if args.before is not None:
        print(before_report(before_profile(args.before, count)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
