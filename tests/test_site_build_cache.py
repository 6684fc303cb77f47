"""What a site build takes from ``.site-cache/`` and what it leaves for the next (``tools/build_site.py``).

- The checkout's wheel is built with a fixed date in every zip entry (``SOURCE_DATE_EPOCH``), so an
  unchanged checkout gives the same wheel and its bytecode is found in the cache, not made again in
  Node.js (the test suite's teacher's site after the course site, a second ``./dev site``).
- Two builds sharing a cache are kept apart while the cache is filled: the second waits.
- The build venv is made by the running Python's uv when it has one (no ensurepip, no pip run to
  fetch uv), else as before; either way it gets the same stamp, so the two ways share one venv.

The commands are recorded, not run (the real builds run in the browser tests' ``site`` fixtures).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("build_site_cache", ROOT / "tools" / "build_site.py")
assert _spec and _spec.loader
build_site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_site)


@pytest.fixture
def commands(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], dict[str, str] | None]]:
    """The builder's ``run`` calls, recorded: (command, environment); a ``venv`` makes its folder, a
    ``uv build`` writes a wheel."""
    calls: list[tuple[list[str], dict[str, str] | None]] = []

    def run(cmd: list[object], *, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
        words = [str(c) for c in cmd]
        calls.append((words, env))
        if words[1:3] == ["-m", "venv"]:
            Path(words[-1], "bin").mkdir(parents=True)
        if "build" in words:
            out = Path(words[words.index("--out-dir") + 1])
            out.mkdir(parents=True, exist_ok=True)
            (out / "battleline_lab-0.1.0-py3-none-any.whl").write_bytes(b"wheel")

    monkeypatch.setattr(build_site, "run", run)
    monkeypatch.setattr(build_site, "PYTHON", [Path("/build-venv/bin/python")])
    return calls


def test_the_checkouts_wheel_gets_a_fixed_date_unless_the_caller_set_one(
    tmp_path: Path, commands: list[tuple[list[str], dict[str, str] | None]], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert build_site.IN_CHECKOUT
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    wheel = build_site.package_wheel(tmp_path / "one")
    assert wheel.name == "battleline_lab-0.1.0-py3-none-any.whl"
    [(words, env)] = commands
    assert words[1:4] == ["-m", "uv", "build"]
    assert env is not None and env["SOURCE_DATE_EPOCH"] == build_site.WHEEL_EPOCH == "315532800"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # a packager's own date is kept
    build_site.package_wheel(tmp_path / "two")
    env = commands[1][1]
    assert env is not None and env["SOURCE_DATE_EPOCH"] == "1700000000"


def test_a_second_build_waits_while_the_first_fills_the_cache(tmp_path: Path) -> None:
    first = build_site.hold_cache(tmp_path)
    held = threading.Event()

    def second() -> None:
        build_site.hold_cache(tmp_path).close()
        held.set()

    thread = threading.Thread(target=second, daemon=True)
    thread.start()
    try:
        assert not held.wait(0.5), "the second build went on while the first held the cache"
    finally:
        first.close()
    assert held.wait(10), "the second build never went on after the first let go"
    thread.join(10)


@pytest.mark.parametrize("has_uv", [True, False], ids=["the-running-pythons-uv", "ensurepip-then-pip-installs-uv"])
def test_the_build_venv_is_made_by_the_running_pythons_uv_when_it_has_one(
    tmp_path: Path,
    commands: list[tuple[list[str], dict[str, str] | None]],
    monkeypatch: pytest.MonkeyPatch,
    has_uv: bool,
) -> None:
    uv = [sys.executable, "-m", "uv"]
    monkeypatch.setattr(build_site, "own_uv", lambda: uv if has_uv else [])
    listed = subprocess.CompletedProcess(args=[], returncode=0, stdout="Package Version\n------- -------\npip 25\n")
    monkeypatch.setattr(build_site.subprocess, "run", lambda *a, **k: listed)
    venv = build_site.build_venv(tmp_path)
    python = str(venv / "bin" / "python")
    made = [words for words, _env in commands]
    if has_uv:
        assert made[0] == [sys.executable, "-m", "venv", "--without-pip", str(venv)]
        [install] = made[1:]
        assert install[:6] == [*uv, "pip", "install", "-q"] and install[6:8] == ["--python", python]
        assert install[8:11] == ["pip", "uv", "-r"] and install[11] == str(build_site.REQUIREMENTS)
    else:
        assert made[0] == [sys.executable, "-m", "venv", str(venv)]
        assert made[1][:5] == [python, "-m", "pip", "install", "-q"] and made[1][-1] == "uv"
        assert made[2][:4] == [python, "-m", "uv", "pip"] and str(build_site.REQUIREMENTS) in made[2]
    pins = build_site.front_end_pins()
    assert pins and made[-1][-len(pins) :] == pins  # the widgets' front ends at their kernel wheels' versions
    # one stamp for both ways: a venv made one way is taken as it is by a build that would make it the other
    [marker] = venv.glob(".installed-*")
    commands.clear()
    monkeypatch.setattr(build_site, "own_uv", lambda: [] if has_uv else uv)
    assert build_site.build_venv(tmp_path) == venv and commands == []
    assert [m.name for m in venv.glob(".installed-*")] == [marker.name]


def test_own_uv_is_the_running_pythons(monkeypatch: pytest.MonkeyPatch) -> None:
    found: dict[str, Any] = {"uv": object()}
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: found.get(name))
    assert build_site.own_uv() == [sys.executable, "-m", "uv"]
    found.clear()
    assert build_site.own_uv() == []
