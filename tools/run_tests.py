"""The test runner behind ``./dev test``: independent tiers in parallel, one closing line.

``./dev test`` (and so CI's ``.ci/run``) sets up ``.venv`` and Chromium, then runs this file with
``.venv``'s Python.  Serially, the whole suite took most of CI's time on the project's 2-core machine;
its parts do not depend on each other, so they run as tiers, side by side:

- ``lint``: ruff, ruff format, mypy and import-linter, one after the other;
- ``unit``: every test that is neither ``browser`` nor ``wheel`` (engine, CLI, widgets, puzzles,
  doctests), spread over two pytest-xdist workers (``--dist loadgroup``: the groups of
  ``tests/xdist_groups.py`` stay on one worker);
- ``browser``: the ``browser`` and ``wheel`` tests (they start JupyterLab, the JupyterLite site,
  Chromium and fresh venvs), on three pytest-xdist workers that take tests as they free up (``--dist
  loadgroup``, with the groups of ``tests/xdist_groups.py``). They were two serial tiers,
  JupyterLab's and the site's, and the site's alone was the whole run's critical path; one pool
  keeps every worker busy to the end. A worker starts JupyterLab only for its first JupyterLab test,
  and the site is built once per run, by the first worker that needs it
  (``tests/browser/conftest.py``);
- ``notebooks``: the lessons under nbval, serially (each starts its own kernel).

Together the pytest tiers select every test of ``pytest battleline_lab tests puzzles notebooks --nbval``
exactly once: ``tests/test_run_tests.py`` collects the whole suite once, with each test's markers,
and works out from the tiers' paths and marker expressions which tiers select each test
(:func:`tiers_of`).  ``--quick`` runs ``lint`` and a ``unit`` tier
without the ``slow`` tests (``tests/slow.py``) and without collecting ``tests/browser``.

Every other argument goes to every pytest tier (``./dev test -k claims``); a ``-m EXPR`` is joined to
each tier's own marker expression with ``and``, so that a tier never runs another tier's tests.
Each tier writes its output to ``test-output/tiers/NAME.log``; when it ends, its wall time, its CPU
time and the tail of its log (all its failures if it failed) are printed.  At the end: the wall time
and CPU time of each tier (user + system seconds of the tier's processes and every process they
waited for: on the 2-core machine the run can take no less than half their sum), the 20 slowest
tests over all tiers, and, as the last line, ``N passed, N failed, N skipped``
summed over the tiers (read from each tier's JUnit XML; CI reads this line).  The exit status is
non-zero when any tier fails.  Standard library only: it runs before anything is imported from
the venv.

``--profile-cpu`` (first argument, or after ``--quick``) also samples every process of the run
(``tools/cpu_profile.py``: Chromium, Jupyter servers and kernels included, which the tiers' own
CPU count misses when they outlive their parent) and prints, before the closing line, the CPU
seconds by process kind and tier; the table goes to ``test-output/cpu-profile.json`` too.  Each
tier's processes carry ``BATTLELINE_TIER=NAME`` in their environment so that the sampler can tell
them apart.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "test-output" / "tiers"
LINT_PATHS = ("battleline_lab", "tests", "benchmarks")
# the project's machine has 2 cores; the serial tiers run beside the workers
XDIST = ("-n", "2", "--dist", "loadgroup")
UNIT_MARK = "not browser and not wheel"
BROWSER_MARK = "browser or wheel"
# three workers for the browser tier: most of a browser test's time is spent waiting (for a kernel,
# for Pyodide, for a page), so a third one fills the cores the others leave idle
BROWSER_XDIST = ("-n", "3", "--dist", "loadgroup")
# where the browser and wheel tests are (the doctests and the puzzles carry no marker): collecting
# only these, not all of tests/, saves each browser worker most of its collection (thousands of
# unit tests).  A browser test put anywhere else would be in no tier: tests/test_run_tests.py fails.
BROWSER_PATHS = ("tests/browser", "tests/test_wheel.py", "tests/test_preview.py")
# what the whole suite is (the serial ``./dev test`` before the tiers): the tiers together must equal it
WHOLE_SUITE = ("battleline_lab", "tests", "puzzles", "notebooks", "--nbval")
SLOWEST = 20
#: the environment variable that names a tier's processes (read by tools/cpu_profile.py)
TIER_ENV = "BATTLELINE_TIER"
PROFILE = "--profile-cpu"
CORES = os.cpu_count() or 1
MarkerMatch = Callable[[str, Collection[str]], bool]
DURATION_LINE = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s+(setup|call|teardown)\s+(\S.*?)\s*$")
SECTION_LINE = re.compile(r"^=+ (FAILURES|ERRORS|short test summary info) =+$")


@dataclass(frozen=True)
class Tier:
    """One tier: a lint tier has ``commands``; a pytest tier has ``paths`` and its own ``marker``."""

    name: str
    commands: tuple[tuple[str, ...], ...] = ()
    paths: tuple[str, ...] = ()
    marker: str | None = None
    options: tuple[str, ...] = ()

    @property
    def is_pytest(self) -> bool:
        return bool(self.paths)


def tiers(quick: bool = False) -> list[Tier]:
    """The tiers of ``./dev test`` (or of ``./dev test --quick``)."""
    bin_dir = Path(sys.executable).parent
    lint = Tier(
        "lint",
        commands=(
            (str(bin_dir / "ruff"), "check", *LINT_PATHS),
            (str(bin_dir / "ruff"), "format", "--check", *LINT_PATHS),
            (str(bin_dir / "mypy"),),
            (str(bin_dir / "lint-imports"),),
        ),
    )
    if quick:
        unit = Tier(
            "unit",
            paths=("battleline_lab", "tests", "puzzles"),
            marker=f"{UNIT_MARK} and not slow",
            options=("--ignore=tests/browser", *XDIST),
        )
        return [lint, unit]
    return [
        lint,
        Tier("unit", paths=("battleline_lab", "tests", "puzzles"), marker=UNIT_MARK, options=XDIST),
        Tier("browser", paths=BROWSER_PATHS, marker=BROWSER_MARK, options=BROWSER_XDIST),
        Tier("notebooks", paths=("notebooks", "--nbval")),
    ]


def split_marker(args: Sequence[str]) -> tuple[str | None, list[str]]:
    """The user's ``-m EXPR`` (the last one, as pytest takes it) and the other arguments."""
    marker: str | None = None
    rest: list[str] = []
    it = iter(args)
    for arg in it:
        if arg == "-m":
            marker = next(it, None)
        elif arg.startswith("-m="):
            marker = arg[3:]
        elif arg.startswith("-m") and not arg.startswith("--") and len(arg) > 2:
            marker = arg[2:]
        else:
            rest.append(arg)
    return marker, rest


def join_markers(*markers: str | None) -> str | None:
    """``(a) and (b)`` of the markers that are set, or ``None``."""
    parts = [m for m in markers if m]
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    return " and ".join(f"({m})" for m in parts)


def pytest_command(tier: Tier, extra: Sequence[str], collect_only: bool = False) -> list[str]:
    """The pytest command line of ``tier`` with the user's ``extra`` arguments."""
    user_marker, rest = split_marker(extra)
    marker = join_markers(tier.marker, user_marker)
    cmd = [sys.executable, "-m", "pytest", *tier.paths]
    if marker:
        cmd += ["-m", marker]
    if collect_only:
        # collection is the same with or without workers; without them the ids print plainly
        cmd += [o for o in tier.options if o not in (*XDIST, *BROWSER_XDIST)] + ["--collect-only", "-q", *rest]
    else:
        cmd += [*tier.options, f"--durations={SLOWEST}", f"--junitxml={LOGS / (tier.name + '.xml')}", *rest]
    return cmd


def tier_paths(tier: Tier) -> list[str]:
    """The paths ``tier`` gives pytest (its arguments that are not options)."""
    return [p for p in tier.paths if not p.startswith("-")]


def under(nodeid: str, path: str) -> bool:
    """Whether the test ``nodeid`` is collected from ``path`` (a folder or a file)."""
    return nodeid == path or nodeid.startswith((path + "/", path + "::"))


def tiers_of(
    collected: Mapping[str, Collection[str]], chosen: Sequence[Tier], matches: MarkerMatch
) -> dict[str, list[str]]:
    """The names of the pytest tiers of ``chosen`` that select each collected test.

    ``collected`` maps each node id of the whole suite to the names of its markers;
    ``matches(expression, markers)`` evaluates a ``-m`` expression as pytest does.  A tier selects a
    test collected under one of its paths (``notebooks`` only with ``--nbval``, which only that
    tier gives) whose markers match its marker expression.  Every list should have one name.
    """
    found: dict[str, list[str]] = {}
    for nodeid, marks in collected.items():
        found[nodeid] = [
            tier.name
            for tier in chosen
            if tier.is_pytest
            and any(under(nodeid, path) for path in tier_paths(tier))
            and (tier.marker is None or matches(tier.marker, marks))
        ]
    return found


@dataclass
class Result:
    """What a tier did: its exit status, wall time and the counts of its JUnit XML."""

    tier: Tier
    ok: bool = False
    seconds: float = 0.0
    cpu: float = 0.0
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    durations: list[tuple[float, str]] = field(default_factory=list)


def junit_counts(xml_text: str) -> tuple[int, int, int]:
    """(passed, failed, skipped) of a JUnit XML report; an error counts as a failure, xfail as a skip."""
    passed = failed = skipped = 0
    for case in ET.fromstring(xml_text).iter("testcase"):
        kinds = {child.tag for child in case}
        if kinds & {"failure", "error"}:
            failed += 1
        elif "skipped" in kinds:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def parse_durations(log: str) -> list[tuple[float, str]]:
    """The ``--durations`` lines of a pytest log as (seconds, "phase nodeid")."""
    found = []
    for line in log.splitlines():
        match = DURATION_LINE.match(line)
        if match:
            found.append((float(match[1]), f"{match[2]:<8} {match[3]}"))
    return found


def slowest(results: Sequence[Result], n: int = SLOWEST) -> list[tuple[float, str]]:
    """The ``n`` slowest test phases over every tier."""
    every = [(seconds, f"[{r.tier.name}] {what}") for r in results for seconds, what in r.durations]
    return sorted(every, key=lambda d: -d[0])[:n]


def closing_line(results: Sequence[Result]) -> str:
    """``N passed, N failed, N skipped`` summed over the tiers.

    A tier that failed without a failed test in its report (a lint error, a crash, a collection
    that stopped) counts as one failure, so that the line never reads ``0 failed`` when the run failed.
    """
    passed = sum(r.passed for r in results)
    failed = sum(r.failed if r.ok or r.failed else 1 for r in results)
    skipped = sum(r.skipped for r in results)
    return f"{passed} passed, {failed} failed, {skipped} skipped"


def excerpt(log: str, ok: bool, tail: int = 15, limit: int = 400) -> str:
    """What to show of a finished tier's log: its tail, or from its failures on when it failed."""
    lines = log.splitlines()
    if ok:
        return "\n".join(lines[-tail:])
    start = next((i for i, line in enumerate(lines) if SECTION_LINE.match(line)), max(0, len(lines) - limit))
    shown = lines[start:]
    if len(shown) > limit:
        shown = [f"... ({len(shown) - limit} lines more in the log)", *shown[-limit:]]
    return "\n".join(shown)


def call_with_cpu(cmd: Sequence[str], log: IO[str], env: Mapping[str, str] | None = None) -> tuple[int, float]:
    """Run ``cmd`` with its output in ``log``: its exit status, and the CPU seconds (user + system) of
    the process and of every descendant it waited for (pytest's workers, JupyterLab and its kernels,
    Chromium), from ``wait4``'s resource usage of that one child, so tiers running side by side are
    each measured alone."""
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        env=None if env is None else dict(env),
    )
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_utime + usage.ru_stime


def run_tier(tier: Tier, extra: Sequence[str], printing: threading.Lock) -> Result:
    """Run ``tier`` with its output in its log file; print its excerpt when it ends."""
    log_path = LOGS / f"{tier.name}.log"
    xml_path = LOGS / f"{tier.name}.xml"
    xml_path.unlink(missing_ok=True)
    commands = [pytest_command(tier, extra)] if tier.is_pytest else [list(c) for c in tier.commands]
    result = Result(tier)
    start = time.monotonic()
    ok = True
    with open(log_path, "w", encoding="utf-8") as log:
        for cmd in commands:
            log.write("$ " + " ".join(cmd) + "\n")
            log.flush()
            code, cpu = call_with_cpu(cmd, log, {**os.environ, TIER_ENV: tier.name})
            result.cpu += cpu
            # pytest's 5 is "no tests selected": a -k or -m that picks none of this tier's tests
            ok = ok and (code == 0 or (tier.is_pytest and code == 5))
    result.seconds = time.monotonic() - start
    result.ok = ok
    text = log_path.read_text(encoding="utf-8", errors="replace")
    if xml_path.is_file():
        result.passed, result.failed, result.skipped = junit_counts(xml_path.read_text(encoding="utf-8"))
    result.durations = parse_durations(text)
    with printing:
        status = "passed" if ok else "FAILED"
        print(
            f"\n==> tier {tier.name} {status} in {result.seconds:.1f} s, {result.cpu:.0f} s of CPU"
            f" (log: {log_path.relative_to(ROOT)})"
        )
        print(excerpt(text, ok), flush=True)
    return result


def options(argv: Sequence[str]) -> tuple[bool, bool, list[str]]:
    """(quick, profile, the arguments for pytest) of ``./dev test [--quick] [--profile-cpu] ...``."""
    args = list(argv)
    quick = profile = False
    while args and args[0] in ("--quick", PROFILE):
        quick, profile = quick or args[0] == "--quick", profile or args[0] == PROFILE
        args.pop(0)
    return quick, profile, args


def load_sampler() -> ModuleType:
    """``tools/cpu_profile.py`` as a module (this file runs as a script, not from a package)."""
    path = Path(__file__).with_name("cpu_profile.py")
    spec = importlib.util.spec_from_file_location("cpu_profile", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["cpu_profile"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def main(argv: Sequence[str]) -> int:
    quick, profile, extra = options(argv)
    LOGS.mkdir(parents=True, exist_ok=True)
    sampler = None
    if profile:
        sampler = load_sampler().Sampler(os.getpid())
        sampler.start()
    chosen = tiers(quick)
    printing = threading.Lock()
    results: dict[str, Result] = {}

    def work(tier: Tier) -> None:
        results[tier.name] = run_tier(tier, extra, printing)

    print("==> tiers in parallel: " + ", ".join(t.name for t in chosen) + f" (logs in {LOGS.relative_to(ROOT)}/)")
    started = time.monotonic()
    threads = [threading.Thread(target=work, args=(t,)) for t in chosen]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done = [results[t.name] for t in chosen]
    print(f"\n==> the {SLOWEST} slowest tests (over every tier)")
    for seconds, what in slowest(done):
        print(f"{seconds:8.2f}s {what}")
    cpu = sum(r.cpu for r in done)
    print(
        f"\n==> wall time of each tier ({time.monotonic() - started:.0f} s in all) and its CPU time"
        f" ({cpu:.0f} s in all: {cpu / CORES:.0f} s on {CORES} cores at the least)"
    )
    for r in done:
        print(f"{r.tier.name:<10} {r.seconds:6.0f} s  {r.cpu:6.0f} s CPU  {'passed' if r.ok else 'FAILED'}")
    if sampler is not None:
        sampler.stop()
        print("\n==> CPU seconds by process kind and tier (tools/cpu_profile.py; test-output/cpu-profile.json)")
        print(sampler.table())
        (LOGS.parent / "cpu-profile.json").write_text(json.dumps(sampler.as_json(), indent=1) + "\n")
    print(closing_line(done), flush=True)
    return 0 if all(r.ok for r in done) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
