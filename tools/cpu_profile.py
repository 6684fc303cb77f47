"""Where the CPU of a test run goes: machine CPU seconds by process kind and tier, sampled from /proc.

``./dev test --profile-cpu`` runs this sampler beside the tiers; ``python tools/cpu_profile.py --
COMMAND...`` runs any command under it (a whole ``./dev test`` of another checkout, for example).
The project's machine has 2 cores, so a run's wall time is at least its CPU seconds over 2: cutting
the run means cutting CPU, and the tiers' own count (``wait4`` of each tier's pytest) misses the
processes that outlive their parent (Chromium, Jupyter servers, kernels).  Here every process of the
run is sampled: each one whose ancestor is the run's first process, or whose environment carries the
run's mark (a process reparented to init keeps its environment).

Every ``interval`` seconds each process's user + system ticks (``/proc/PID/stat``) are read, and what it
used since the last look is added to its row: (tier, kind).  The tier is the nearest ancestor's
(``BATTLELINE_TIER`` in its environment, which ``tools/run_tests.py`` sets for each tier, or a pytest
``--junitxml=.../TIER.xml``); the kind is read from the command line (:func:`kind_of`).  A process that
lives shorter than one interval is missed: the table says how much of the machine's CPU over the run
(``/proc/stat``, other users' included) it attributed.  Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TICK = os.sysconf("SC_CLK_TCK")
MARK = "BATTLELINE_CPU_RUN"
TIER_ENV = "BATTLELINE_TIER"
JUNIT = re.compile(r"--junitxml=\S*?([A-Za-z0-9_-]+)\.xml")
#: the kinds, first match wins: (kind, pattern searched in the command line)
KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("chromium", re.compile(r"(^|/)(chromium|chrome)([ -]|$)|chrome_crashpad|headless_shell")),
    ("node (playwright, node --test)", re.compile(r"(^|/)node( |$)|playwright")),
    ("ipykernel", re.compile(r"ipykernel")),
    ("jupyter-server", re.compile(r"jupyterlab|jupyter-lab|jupyter_server|jupyterhub|configurable-http-proxy")),
    ("http.server", re.compile(r"http\.server")),
    (
        "uv/pip (venvs, wheels)",
        re.compile(r"(^|/)uv( |$)|-m (uv|pip|venv) |(^|/)pip3?( |$)|ensurepip|build_meta|setup\.py"),
    ),
    ("site build", re.compile(r"build_site|jupyter-lite|jupyterlite|npm")),
    ("lint (ruff, mypy, lint-imports)", re.compile(r"ruff|mypy|lint-imports")),
    ("pytest", re.compile(r"pytest|execnet|exec\(eval\(sys\.stdin")),
    ("python (other)", re.compile(r"python")),
)


def kind_of(cmdline: str) -> str:
    """The kind of a process from its command line (``other`` when no pattern matches)."""
    for kind, pattern in KINDS:
        if pattern.search(cmdline):
            return kind
    return "other"


@dataclass
class Proc:
    ppid: int
    ticks: int
    children: int  # the ticks of its children that ended and were waited for
    row: tuple[str, str] | None = None


@dataclass
class Sampler:
    """Samples every process of the run under ``root`` (a pid) until :meth:`stop`."""

    root: int
    interval: float = 0.5
    rows: dict[tuple[str, str], float] = field(default_factory=dict)
    seen: dict[tuple[int, int], Proc] = field(default_factory=dict)
    started: float = 0.0
    machine_start: float = 0.0
    machine: float = 0.0
    wall: float = 0.0  #: the run's wall seconds, once stopped
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _marked: str | None = None

    def start(self) -> None:
        if self.root == os.getpid():
            # the run's processes started from here on carry the mark, even once reparented
            self._marked = os.environ.get(MARK)
            os.environ[MARK] = str(self.root)
        self.started = time.monotonic()
        self.machine_start = machine_cpu()
        # a first look now: the children the run's first process waits for from here on are counted
        self.sweep()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join()
        if self.root == os.getpid():
            if self._marked is None:
                os.environ.pop(MARK, None)
            else:
                os.environ[MARK] = self._marked
        self.sweep()
        self.machine = machine_cpu() - self.machine_start
        self.wall = time.monotonic() - self.started

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.sweep()

    def sweep(self) -> None:
        """One look at every process: add what each process of the run used since the last look.

        A process that ended since the last look used some ticks after it: when its parent waited for
        it, the parent's children's ticks grew by its whole count, and the part not seen yet goes to
        its row (to ``short-lived`` when the process began and ended between two looks)."""
        stats: dict[int, tuple[int, int, int, int]] = {}
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                stat = read_stat(int(entry.name))
                if stat:
                    stats[int(entry.name)] = stat
        alive: set[tuple[int, int]] = set()
        for pid, (ppid, ticks, children, begun) in stats.items():
            key = (pid, begun)
            alive.add(key)
            known = self.seen.get(key)
            if known is None:
                # a process of the run seen for the first time: all its ticks so far are the run's
                known = self.seen[key] = Proc(ppid, 0, children, self.classify(pid, stats))
            if known.row is not None:
                self.add(known.row, ticks - known.ticks)
            known.ticks = ticks
        ended: dict[int, list[Proc]] = {}
        for key in [k for k in self.seen if k not in alive]:
            gone = self.seen.pop(key)
            ended.setdefault(gone.ppid, []).append(gone)
        for key, known in self.seen.items():
            now = stats[key[0]][2]
            grown, known.children = now - known.children, now
            if known.row is None or grown <= 0:
                continue
            gone = ended.get(key[0], [])
            unseen = grown - sum(g.ticks + g.children for g in gone)
            if unseen > 0:
                rows = [g.row for g in gone if g.row is not None]
                self.add(rows[0] if rows else (known.row[0], "short-lived (under one look)"), unseen)

    def add(self, row: tuple[str, str], ticks: int) -> None:
        self.rows[row] = self.rows.get(row, 0.0) + ticks / TICK

    def classify(self, pid: int, stats: dict[int, tuple[int, int, int, int]]) -> tuple[str, str] | None:
        """(tier, kind) of a process of the run, or None for another process of the machine."""
        if pid == os.getpid() and pid != self.root:
            return None
        ours = pid == self.root
        tier = ""
        walk = pid
        for _ in range(64):
            if walk == self.root:
                ours = True
                break
            if not tier:
                tier = tier_of(walk)
            parent = stats.get(walk)
            if parent is None or parent[0] <= 1:
                break
            walk = parent[0]
        env = read_environ(pid)
        if not ours and env.get(MARK) != str(self.root):
            return None
        tier = tier or env.get(TIER_ENV, "") or "set-up and runner"
        return tier, kind_of(read_cmdline(pid))

    @classmethod
    def saved(cls, data: dict[str, Any]) -> Sampler:
        """A finished sampler from its :meth:`as_json` (to print a saved run's table again)."""
        sampler = cls(0)
        sampler.rows = {(row["tier"], row["kind"]): float(row["cpu_seconds"]) for row in data["rows"]}
        sampler.wall = float(data["wall_seconds"])
        sampler.machine = float(data["machine_cpu_seconds"])
        return sampler

    def table(self) -> str:
        """The rows as a Markdown table: CPU seconds by kind (rows) and tier (columns)."""
        tiers = sorted({t for t, _ in self.rows})
        kinds = sorted({k for _, k in self.rows}, key=lambda k: -sum(v for (_, kk), v in self.rows.items() if kk == k))
        total = sum(self.rows.values())
        lines = [
            "| process kind | " + " | ".join(tiers) + " | all |",
            "|---|" + "---:|" * (len(tiers) + 1),
        ]
        for kind in kinds:
            cells = [self.rows.get((t, kind), 0.0) for t in tiers]
            lines.append(f"| {kind} | " + " | ".join(f"{c:.0f}" for c in cells) + f" | {sum(cells):.0f} |")
        per_tier = [sum(v for (t, _), v in self.rows.items() if t == tier) for tier in tiers]
        lines.append("| **all** | " + " | ".join(f"**{c:.0f}**" for c in per_tier) + f" | **{total:.0f}** |")
        wall = self.wall or time.monotonic() - self.started
        lines.append("")
        lines.append(
            f"{total:.0f} CPU-s attributed to the run over {wall:.0f} s wall; the machine used {self.machine:.0f}"
            f" CPU-s in that time (every user; {os.cpu_count()} cores)."
        )
        return "\n".join(lines)

    def as_json(self) -> dict[str, object]:
        return {
            "rows": [{"tier": t, "kind": k, "cpu_seconds": round(v, 1)} for (t, k), v in sorted(self.rows.items())],
            "wall_seconds": round(self.wall or time.monotonic() - self.started, 1),
            "machine_cpu_seconds": round(self.machine, 1),
        }


def read_stat(pid: int) -> tuple[int, int, int, int] | None:
    """(ppid, user + system ticks, its waited-for children's ticks, start time) of ``pid``, or None
    when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()
    # after the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    # cutime cstime priority nice threads itrealvalue starttime
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14]), int(fields[19])


def read_cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def read_environ(pid: int) -> dict[str, str]:
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return {}
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {k.decode(errors="replace"): v.decode(errors="replace") for k, v in pairs}


def tier_of(pid: int) -> str:
    """The tier a process belongs to by its own mark: ``BATTLELINE_TIER`` or a pytest ``--junitxml``."""
    match = JUNIT.search(read_cmdline(pid))
    if match:
        return match[1]
    return read_environ(pid).get(TIER_ENV, "")


def machine_cpu() -> float:
    """CPU seconds the whole machine has used since boot (user, nice, system; /proc/stat)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    return (int(fields[0]) + int(fields[1]) + int(fields[2])) / TICK


def parser() -> argparse.ArgumentParser:
    """The command line: ``[--out FILE.json] [--] COMMAND...`` or ``--table FILE.json``."""
    summary = (__doc__ or "").split("\n\n")[0]
    p = argparse.ArgumentParser(
        prog="cpu_profile.py",
        usage="%(prog)s [-h] [--out FILE.json] -- COMMAND...\n       %(prog)s --table FILE.json",
        description=summary,
        epilog="Everything after -- is the command (its own options included).",
        allow_abbrev=False,  # an abbreviation could take an option meant for the command
    )
    p.add_argument("--out", metavar="FILE.json", type=Path, help="also write the table's figures to FILE.json")
    p.add_argument("--table", metavar="FILE.json", type=Path, help="print a saved run's table again, run nothing")
    p.add_argument("command", nargs=argparse.REMAINDER, help="the command to run under the sampler")
    return p


def main(argv: Sequence[str]) -> int:
    """``cpu_profile.py [--out FILE.json] -- COMMAND...``: run COMMAND, then print the table (the
    command's exit status is returned); ``cpu_profile.py --table FILE.json``: print a saved run's
    table again.  ``--help`` exits 0; a wrong command line exits 2 with an ``error:`` line."""
    cli = parser()
    args = cli.parse_args(argv)
    command: list[str] = list(args.command)
    if command[:1] == ["--"]:  # argparse keeps the -- that opens a REMAINDER argument
        command = command[1:]
    if args.table is not None:
        if command or args.out is not None:
            cli.error("--table prints a saved table: it takes no command and no --out")
        print(Sampler.saved(json.loads(args.table.read_text(encoding="utf-8"))).table())
        return 0
    if not command:
        cli.error("no command to run (give it after --)")
    sampler = Sampler(os.getpid())
    sampler.start()
    code = subprocess.call(command)
    sampler.stop()
    print("\n==> CPU seconds by process kind and tier (tools/cpu_profile.py)")
    print(sampler.table(), flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps(sampler.as_json(), indent=1) + "\n")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
