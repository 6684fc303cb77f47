"""Benchmark: how long and how much memory a 1 MiB input costs (target: at most 2 s and 150 MB each).

Cases, each a file just under the 1 MiB limit:

* ``unknown-keys``: ``a: 1`` lines (209,715 unknown keys; the reader stops wording errors at 50);
* ``card-list``: one flag with a 262,000-card list (the game has 70 cards, R1);
* ``long-note``: a valid puzzle whose note is a 1 MiB folded text (answered, not refused);
* ``record-keys``: a game record made of ``a: 1`` lines.

Each case runs in a fresh Python process (``check FILE`` or ``replay FILE`` through ``cli.main``),
which reports its wall and CPU time and its peak resident memory (``resource.getrusage``,
interpreter included), once per YAML backend (``libyaml`` where PyYAML has it, ``python``).

Usage::

    python benchmarks/bench_big_files.py            # 1 MiB files, both backends (about a minute)
    python benchmarks/bench_big_files.py --quick    # 64 KiB files, in-process, tracemalloc peaks

Thresholds are reported, never asserted (a shared machine is noisy): the figures go in
``docs/robustness.md``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

LIMIT = 1 << 20
TARGET_SECONDS = 2.0
TARGET_MB = 150.0


def unknown_keys(size: int) -> str:
    return "a: 1\n" * (size // 5)


def card_list(size: int) -> str:
    return "flags:\n  5: {you: [" + ", ".join(["r3"] * (size // 4 - 10)) + "]}\n"


def long_note(size: int) -> str:
    head = (
        "flags: {5: {you: [r3, r4, r5], opponent: [b8]}, 2: {you: [b7], opponent: [b10]}}\n"
        "question: {kind: claim, flag: 5}\nanswer: true\nnote: >-\n"
    )
    line = "  " + "word " * 18 + "\n"
    return head + line * ((size - len(head)) // len(line))


def record_keys(size: int) -> str:
    return "seed: 1\nmoves: []\n" + "a: 1\n" * ((size - 20) // 5)


CASES: dict[str, tuple[Callable[[int], str], str]] = {
    "unknown-keys": (unknown_keys, "check"),
    "card-list": (card_list, "check"),
    "long-note": (long_note, "check"),
    "record-keys": (record_keys, "replay"),
}


def run_once(command: str, file: str) -> tuple[int, float, float]:
    """``battleline-lab COMMAND FILE`` in this process: (exit status, wall seconds, CPU seconds)."""
    from battleline_lab.cli import main

    wall, cpu = time.perf_counter(), time.process_time()
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        status = main([command, file])
    return status, time.perf_counter() - wall, time.process_time() - cpu


def child(case: str, backend: str, file: str) -> None:
    """Run one case (in a fresh process) and print its figures as JSON."""
    from battleline_lab.formats import safe_yaml

    safe_yaml.BACKENDS = (backend,)
    status, wall, cpu = run_once(CASES[case][1], file)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(json.dumps({"status": status, "wall": wall, "cpu": cpu, "peak_mb": peak}))


def full(folder: Path) -> list[dict[str, object]]:
    from battleline_lab.formats import safe_yaml

    rows: list[dict[str, object]] = []
    for case, (make, _command) in CASES.items():
        file = folder / f"{case}.yaml"
        file.write_text(make(LIMIT - 64), encoding="utf-8")
        for backend in safe_yaml.backends():
            out = subprocess.run(
                [sys.executable, __file__, "--child", case, backend, str(file)],
                capture_output=True,
                text=True,
                check=True,
            )
            row = {"case": case, "backend": backend, "bytes": file.stat().st_size, **json.loads(out.stdout)}
            rows.append(row)
            print(
                f"{case:14} {backend:8} exit {row['status']}  wall {row['wall']:.2f} s  cpu {row['cpu']:.2f} s  "
                f"peak {row['peak_mb']:.0f} MB"
                + ("" if row["wall"] <= TARGET_SECONDS and row["peak_mb"] <= TARGET_MB else "  (over target)")
            )
    return rows


def quick(folder: Path) -> list[dict[str, object]]:
    """64 KiB files in this process; peak Python memory from tracemalloc (slower, so only small files)."""
    rows: list[dict[str, object]] = []
    for case, (make, command) in CASES.items():
        file = folder / f"{case}.yaml"
        file.write_text(make(64 * 1024), encoding="utf-8")
        status, wall, cpu = run_once(command, str(file))
        tracemalloc.start()
        run_once(command, str(file))
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        rows.append({"case": case, "status": status, "wall": wall, "cpu": cpu, "peak_mb": peak})
        print(f"{case:14} exit {status}  wall {wall:.3f} s  cpu {cpu:.3f} s  python peak {peak:.1f} MB")
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="64 KiB files, in-process (for the test suite)")
    parser.add_argument("--child", nargs=3, metavar=("CASE", "BACKEND", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as folder:
        quick(Path(folder)) if args.quick else full(Path(folder))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
