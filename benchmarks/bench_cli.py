"""Benchmark: ``battleline-lab claims --json`` end to end, against the naive reference reading the same files.

Writes seeded random positions (``tests/random_positions.py``: mid-game, late-game, tactics-heavy; a
third each) as puzzle files in a temporary folder, then times, each as one fresh process over all
the files (interpreter start, imports, reading every file, deciding every flag, printing):

* ``battleline-lab claims --json FILES...`` (``python -m battleline_lab.cli``);
* the naive reference: ``yaml.safe_load`` on each file, ``Position.build``, and
  ``tests/reference.py``'s ``reference_claim`` for both sides of every unclaimed flag, printing the
  same JSON lines (``--naive`` below is that program).

Both outputs must be identical.  The figure is the CPU time of the child process (user + system,
best of a few runs), and the ratio naive / claims (target: at least 3x).

Usage::

    python benchmarks/bench_cli.py               # 600 files, best of 3
    python benchmarks/bench_cli.py --quick       # 30 files, one run (what CI runs)
    python benchmarks/bench_cli.py --naive FILES # the reference program itself
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a plain script: make `tests.*` importable
    sys.path.insert(0, str(ROOT))

RATIO_TARGET = 3.0


def naive_main(files: Sequence[str]) -> int:
    """The reference program: read each file with PyYAML, solve every flag by enumeration, print JSON lines."""
    import yaml

    from battleline_lab.core.position import FLAGS, Position, Side
    from tests.reference import reference_claim

    for name in files:
        with open(name, encoding="utf-8") as handle:
            data = yaml.safe_load(handle)
        position = Position.build(
            data.get("flags"), discards=data.get("discards"), hand=data.get("hand"), turn=data.get("turn", "you")
        )
        verdicts = {
            side.value: [n for n in FLAGS if position.flag(n).claimed_by is None and reference_claim(position, n, side)]
            for side in Side
        }
        print(json.dumps({"file": name, "you": verdicts["you"], "opponent": verdicts["opponent"]}))
    return 0


def write_files(folder: Path, count: int) -> list[str]:
    """``count`` puzzle files of seeded random positions (a third of each stage); their paths."""
    from battleline_lab.authoring.writer import dump_puzzle
    from battleline_lab.core.claims import claimable_flags
    from tests.random_positions import STAGES, random_positions

    paths = []
    per_stage = -(-count // len(STAGES))
    positions = [p for stage in STAGES for p in random_positions(per_stage, seed=11, stage=stage)][:count]
    for k, position in enumerate(positions, 1):
        data = {
            "id": f"bench-{k:04d}",
            "title": {"en": f"Random position {k}", "zh": f"随机局面{k}"},
            **position.to_data(),
            "question": {"kind": "claimable"},
            "answer": list(claimable_flags(position, position.turn)),
        }
        path = folder / f"bench-{k:04d}.yaml"
        path.write_text(dump_puzzle(data), encoding="utf-8")
        paths.append(str(path))
    return paths


def child_cpu(command: Sequence[str]) -> tuple[float, str]:
    """Run ``command``; its CPU time (user + system, seconds) and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{command[:4]} failed ({done.returncode}): {done.stderr[-2000:]}")
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used, done.stdout


def measure(count: int, repeats: int) -> dict[str, float]:
    """Best-of-``repeats`` CPU seconds of both programs over ``count`` files, checking their outputs agree."""
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        files = write_files(Path(tmp), count)
        claims = [sys.executable, "-m", "battleline_lab.cli", "claims", "--json", *files]
        naive = [sys.executable, str(Path(__file__).resolve()), "--naive", *files]
        startup = [sys.executable, "-c", "pass"]
        best = {"claims": float("inf"), "naive": float("inf"), "python": float("inf")}
        outputs: dict[str, str] = {}
        for _ in range(repeats):
            for name, command in (("claims", claims), ("naive", naive), ("python", startup)):
                used, out = child_cpu(command)
                best[name] = min(best[name], used)
                outputs[name] = out
        if outputs["claims"] != outputs["naive"]:
            raise SystemExit("claims --json and the naive reference disagree")
        lines = outputs["claims"].splitlines()
        if len(lines) != count or any(json.loads(line)["file"] != f for line, f in zip(lines, files)):
            raise SystemExit("claims --json did not print one line per file")
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="30 files, one run")
    parser.add_argument("--files", type=int, default=None, metavar="N", help="how many position files")
    parser.add_argument("--repeats", type=int, default=None, metavar="R", help="runs of each program (best counts)")
    parser.add_argument("--naive", nargs="+", metavar="FILE", help="run the reference program on these files")
    args = parser.parse_args(argv)
    if args.naive:
        return naive_main(args.naive)
    count = args.files or (30 if args.quick else 600)
    repeats = args.repeats or (1 if args.quick else 3)
    best = measure(count, repeats)
    ratio = best["naive"] / best["claims"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"claims --json end to end over {count} random position files "
        f"(Python {platform.python_version()}, load average {load:.1f}; CPU time of each process, best of {repeats})"
    )
    print(f"  battleline-lab claims --json: {best['claims']:.3f} s ({best['claims'] / count * 1e3:.2f} ms per file)")
    print(
        f"  naive reference (PyYAML + enumeration): {best['naive']:.3f} s "
        f"({best['naive'] / count * 1e3:.2f} ms per file)"
    )
    print(f"  bare interpreter start (python -c pass): {best['python']:.3f} s")
    print(f"naive / claims: {ratio:.2f}x (target >= {RATIO_TARGET:g}x: {'met' if ratio >= RATIO_TARGET else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
