"""The board's JavaScript unit tests (``tests/js/*.test.mjs``), run with Node's own test runner.

``board.js``'s tap state machine (against ``tests/data/tap_cases.json``) and what it draws (into a
tiny fake DOM: the hooks, ARIA, the order of the puzzle's parts, in-place redraws, listeners) are
tested with ``node --test``, no npm package.  Node is a requirement of ``./dev test`` as Chromium is
(``./dev`` installs Debian's ``nodejs`` when it can): a machine without it fails here, it does not skip.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JS_TESTS = sorted((ROOT / "tests" / "js").glob("*.test.mjs"))


def test_board_js_unit_tests_pass_under_node() -> None:
    node = shutil.which("node")
    assert node is not None, "Node.js is needed for the board's unit tests: run ./dev test (or apt-get install nodejs)"
    assert len(JS_TESTS) >= 2
    # the files by name: `node --test DIR` reads DIR as a glob from Node 21 on, as a folder before
    run = subprocess.run(
        [node, "--test", *(str(p.relative_to(ROOT)) for p in JS_TESTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, f"node --test failed:\n{run.stdout[-6000:]}\n{run.stderr[-2000:]}"
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout
