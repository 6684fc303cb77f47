"""No path of the machine the project was made on is written into the repository.

The project is worked on in folders such as ``/work/...`` and as root; a path of those (a helper's
worktree given to ``--before``, a script kept beside the repository) does not belong in a file a
learner or a teacher reads, nor in code.  Notebook outputs are checked by ``test_notebooks.py``;
this checks every other file git tracks.  (``/tmp/...`` and ``/home/pyodide`` stay allowed: they
are examples and Pyodide's own folders, the same on every machine.)
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|root)/")
THIS_FILE = Path(__file__).resolve().relative_to(ROOT).as_posix()


def _tracked() -> list[str]:
    """The files git tracks (a fresh clone, as CI has); outside a checkout, every file of the tree."""
    if (ROOT / ".git").exists():
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        return [name for name in out.stdout.decode().split("\0") if name]
    skip = {".git", ".venv", "_site", "build", "dist", "__pycache__"}
    return [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.parts)]


def test_no_path_of_this_machine_in_a_tracked_file() -> None:
    found = []
    names = _tracked()
    assert len(names) > 100  # the listing worked
    for name in names:
        if name.endswith(".ipynb") or name == THIS_FILE or name == "tests/test_notebooks.py":
            continue  # outputs: test_notebooks.py; the two checks name the pattern themselves
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # binary files (pictures, fonts)
        for number, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATH.search(line):
                found.append(f"{name}:{number}: {line.strip()[:100]}")
    assert not found, "paths of this machine:\n" + "\n".join(found)


def test_the_pattern_finds_a_machine_path_and_leaves_examples_alone() -> None:
    assert MACHINE_PATH.search("--before /work/wt/engine-before")
    assert MACHINE_PATH.search("cd /root/project")
    assert not MACHINE_PATH.search("-o /tmp/p.html and /home/pyodide/battleline-data")
    assert not MACHINE_PATH.search("docs/work/page.md, a.work/x")
