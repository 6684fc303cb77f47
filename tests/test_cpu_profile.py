"""``tools/cpu_profile.py``: the CPU seconds of a run's processes, by tier and process kind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
cpu_profile = load_script(ROOT / "tools" / "cpu_profile.py", "cpu_profile")
run_tests = load_script(ROOT / "tools" / "run_tests.py", "run_tests")

#: about half a second of one core's work
WORK = "sum(range(2 * 10**7))"


@pytest.mark.parametrize(
    ("cmdline", "kind"),
    [
        pytest.param("/usr/lib/chromium/chromium --type=renderer --no-sandbox", "chromium", id="chromium"),
        pytest.param("/usr/lib/chromium/chrome_crashpad_handler --monitor-self", "chromium", id="crashpad"),
        pytest.param(
            ".venv/lib/python3.11/site-packages/playwright/driver/node cli.js run-driver",
            "node (playwright, node --test)",
            id="playwright-driver",
        ),
        pytest.param("node --test tests/js", "node (playwright, node --test)", id="node-test"),
        pytest.param("/v/bin/python -m ipykernel_launcher -f k.json", "ipykernel", id="kernel"),
        pytest.param("/v/bin/python -m jupyterlab --no-browser --port=1", "jupyter-server", id="jupyterlab"),
        pytest.param("/v/bin/python -m http.server 8000 --bind 127.0.0.1", "http.server", id="static-server"),
        pytest.param("/v/bin/python -m uv pip install -e .", "uv/pip (venvs, wheels)", id="uv"),
        pytest.param("/v/bin/python tools/build_site.py --out x", "site build", id="site-build"),
        pytest.param("/v/bin/mypy", "lint (ruff, mypy, lint-imports)", id="mypy"),
        pytest.param("/v/bin/python -m pytest tests -n 2", "pytest", id="pytest"),
        pytest.param("/v/bin/python -c import sys;exec(eval(sys.stdin.readline()))", "pytest", id="xdist-worker"),
        pytest.param("/v/bin/python tools/regen.py", "python (other)", id="other-python"),
        pytest.param("git status", "other", id="other"),
    ],
)
def test_a_process_kind_is_read_from_its_command_line(cmdline: str, kind: str) -> None:
    assert cpu_profile.kind_of(cmdline) == kind


def _burn(seconds_of_sleep: float, tier: str) -> subprocess.Popen[bytes]:
    """A child of this process that works for about half a second in a short-lived grandchild, then
    sleeps, in ``tier``."""
    child = f"subprocess.run([sys.executable, '-c', {WORK!r}])"
    code = f"import subprocess, sys, time; {child}; time.sleep({seconds_of_sleep})"
    return subprocess.Popen([sys.executable, "-c", code], env={**os.environ, cpu_profile.TIER_ENV: tier})


def test_the_work_of_a_tiers_processes_is_counted_in_its_tier_even_when_they_end_between_looks() -> None:
    sampler = cpu_profile.Sampler(os.getpid(), interval=0.2)
    sampler.start()
    _burn(0.3, "alpha").wait()
    sampler.stop()
    alpha = sum(v for (tier, _), v in sampler.rows.items() if tier == "alpha")
    assert alpha > 0.15, sampler.rows
    assert "alpha" in sampler.table() and "machine used" in sampler.table()


def test_the_work_of_a_process_outside_the_run_is_not_counted() -> None:
    # the run's first process is a sleeper: this test process and its children are not of that run
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        sampler = cpu_profile.Sampler(sleeper.pid, interval=0.2)
        sampler.start()
        _burn(0.3, "beta").wait()
        time.sleep(0.3)
        sampler.stop()
    finally:
        sleeper.kill()
        sleeper.wait()
    assert not any(tier == "beta" for tier, _ in sampler.rows), sampler.rows


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        pytest.param([], (False, False, []), id="nothing"),
        pytest.param(["--quick", "-k", "x"], (True, False, ["-k", "x"]), id="quick"),
        pytest.param(["--profile-cpu"], (False, True, []), id="profile"),
        pytest.param(["--quick", "--profile-cpu", "-x"], (True, True, ["-x"]), id="quick-and-profile"),
        pytest.param(["-k", "--quick"], (False, False, ["-k", "--quick"]), id="only-first-arguments"),
    ],
)
def test_the_runners_own_options_come_first(argv: list[str], expected: tuple[bool, bool, list[str]]) -> None:
    assert run_tests.options(argv) == expected


def test_profile_cpu_prints_each_tiers_cpu_by_process_kind_and_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the work, then a second alive: the sampler (a look every half second) sees the process in its tier
    burner = run_tests.Tier("burner", commands=((sys.executable, "-c", f"import time; {WORK}; time.sleep(1)"),))
    monkeypatch.setattr(run_tests, "LOGS", tmp_path / "tiers")
    monkeypatch.setattr(run_tests, "ROOT", tmp_path)
    monkeypatch.setattr(run_tests, "tiers", lambda quick=False: [burner])
    assert run_tests.main(["--profile-cpu"]) == 0
    out = capsys.readouterr().out
    assert "==> CPU seconds by process kind and tier" in out
    assert out.splitlines()[-1] == "0 passed, 0 failed, 0 skipped"
    written = json.loads((tmp_path / "cpu-profile.json").read_text(encoding="utf-8"))
    burned = sum(row["cpu_seconds"] for row in written["rows"] if row["tier"] == "burner")
    assert burned > 0.15, written


def test_a_saved_profile_prints_the_same_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sampler = cpu_profile.Sampler(os.getpid(), interval=0.2)
    sampler.start()
    _burn(0.1, "gamma").wait()
    sampler.stop()
    saved = tmp_path / "profile.json"
    saved.write_text(json.dumps(sampler.as_json()), encoding="utf-8")
    assert cpu_profile.main(["--table", str(saved)]) == 0
    printed = capsys.readouterr().out.strip()
    again = cpu_profile.Sampler.saved(json.loads(saved.read_text(encoding="utf-8"))).table()
    assert printed == again and "gamma" in printed.splitlines()[0]
    # the same kinds as the live sampler's table (saved to a tenth of a second, two small ones may swap)
    assert {line.split("|")[1].strip() for line in printed.splitlines()[2:] if line.startswith("| ")} == {
        line.split("|")[1].strip() for line in sampler.table().splitlines()[2:] if line.startswith("| ")
    }


def _cli(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``tools/cpu_profile.py ARGV...`` run as a script, its output captured."""
    script = str(ROOT / "tools" / "cpu_profile.py")
    return subprocess.run([sys.executable, script, *argv], cwd=cwd, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_prints_the_usage_and_exits_0(flag: str, tmp_path: Path) -> None:
    # --help was once taken for the command to run, and ended in a traceback
    done = _cli(flag, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.startswith("usage: cpu_profile.py [-h] [--out FILE.json] -- COMMAND...\n")
    assert "--table FILE.json" in done.stdout and "==> CPU seconds" not in done.stdout


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        pytest.param([], "no command to run", id="nothing"),
        pytest.param(["--"], "no command to run", id="only-dashes"),
        pytest.param(["--out", "run.json"], "no command to run", id="only-out"),
        pytest.param(["--table", "run.json", "--", "true"], "--table prints a saved table", id="table-and-command"),
        pytest.param(["--outfile", "run.json", "--", "true"], "unrecognized arguments", id="no-abbreviation"),
    ],
)
def test_a_wrong_command_line_prints_one_error_line_and_exits_2(argv: list[str], error: str, tmp_path: Path) -> None:
    done = _cli(*argv, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, ""), done.stdout
    assert done.stderr.startswith("usage: cpu_profile.py"), done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith(f"cpu_profile.py: error: {error}") and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "run.json").exists()


def test_the_command_after_dashes_keeps_its_own_options_and_its_exit_status(tmp_path: Path) -> None:
    code = "import sys; print(sys.argv[1:]); sys.exit(3)"
    done = _cli("--out", "run.json", "--", sys.executable, "-c", code, "--help", "--out", "x", cwd=tmp_path)
    assert done.returncode == 3, done.stderr
    assert done.stdout.splitlines()[0] == "['--help', '--out', 'x']"
    assert "==> CPU seconds by process kind and tier" in done.stdout
    assert "rows" in json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
