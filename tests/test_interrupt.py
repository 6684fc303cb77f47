"""Ctrl-C at any moment exits 130 with one line, never a traceback (docs/robustness.md, family 13).

The command is interrupted (SIGINT, as Ctrl-C sends it) at delays from the first import of its
modules to the middle of a long match, through both ways of starting it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DELAYS = (0.0, 0.01, 0.03, 0.06, 0.1, 0.2, 0.4, 0.8)
LONG = ["match", "random", "random", "--games", "5000", "--seed", "1"]
# What the console script does (import the entry point, call it), with a line on stderr once the
# command has begun inside ``main``: an audit hook writes it when ``main`` imports the CLI, inside
# the ``try`` that catches the interrupt. A signal before that would hit Python's own start-up or the
# few bytecodes between the import and the call, which no program can catch; a marker written
# before ``main`` (as this test once did) let a loaded machine deliver the signal in that gap.
# The first line gives the child Python's own Ctrl-C handler even when the test runs where SIGINT is
# ignored (a job started with ``&`` by a non-interactive shell inherits SIG_IGN, and Python then
# leaves it ignored): a person's Ctrl-C reaches a command run in a terminal.
CHILD = (
    "import signal, sys\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "seen = []\n"
    "def hook(event, args):\n"
    "    if event == 'import' and args[0] == 'battleline_lab.cli' and not seen:\n"
    "        seen.append(1)\n"
    "        print('ready', file=sys.stderr, flush=True)\n"
    "sys.addaudithook(hook)\n"
    "from battleline_lab.entry import main\n"
    "sys.exit(main())\n"
)


def _interrupt(delay: float) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = [sys.executable, "-c", CHILD, *LONG]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    assert proc.stderr is not None
    assert proc.stderr.readline() == "ready\n"
    time.sleep(delay)  # from 0 (the command's modules not yet imported) to well into the match
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


@pytest.mark.parametrize("delay", DELAYS)
def test_ctrl_c_while_importing_or_running_exits_130_with_one_line(delay: float) -> None:
    done = _interrupt(delay)
    assert done.returncode == 130, (delay, done.returncode, done.stderr[-800:])
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr
    assert done.stderr.strip().splitlines() == ["battleline-lab: interrupted"], done.stderr


def test_the_console_script_goes_through_the_entry_point() -> None:
    from battleline_lab.entry import main

    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'battleline-lab = "battleline_lab.entry:main"' in text and callable(main)


def test_importing_the_package_loads_none_of_the_engine() -> None:
    code = "import sys, battleline_lab; print(sorted(m for m in sys.modules if m.startswith('battleline_lab')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "['battleline_lab']"
    code = "from battleline_lab import Position, analyse_claim; print(Position.__module__, analyse_claim.__module__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["battleline_lab.core.position", "battleline_lab.core.claims"]
