"""A class folder: each learner's progress goes to ``$BATTLELINE_CLASS_DIR/<learner>/``,
and ``battleline-lab report CLASS_DIR`` reads it directly, with no exports to collect.

The learners run in their own processes, as kernels on a JupyterHub do, with only the
environment a hub gives them (``JUPYTERHUB_USER``) and the class folder's name.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from battleline_lab.cli import main
from battleline_lab.training.progress import DATABASE_FILE, class_dir, data_dir

ROOT = Path(__file__).resolve().parent.parent

LEARNER = """
import sys
from battleline_lab.training.trainer import PuzzleSession, Trainer
right = sys.argv[1] == "right"
trainer = Trainer(puzzles=sys.argv[2])  # the default progress: the class folder
for puzzle in trainer.puzzles[:3]:
    s = PuzzleSession(puzzle, progress=trainer.progress, source="gym")
    answer = puzzle.solve()
    s.answer(answer if right else (not answer if isinstance(answer, bool) else "b"))
from battleline_lab.training.progress import data_dir
print(data_dir())
"""


def _learner(user: str, right: bool, classroom: Path, puzzles: Path, tmp_path: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("BATTLELINE_LAB_DATA", "XDG_DATA_HOME")}
    env.update(BATTLELINE_CLASS_DIR=str(classroom), JUPYTERHUB_USER=user, HOME=str(tmp_path / f"home-{user}"))
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", LEARNER, "right" if right else "wrong", str(puzzles)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_class_folder_names_each_learners_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("BATTLELINE_LAB_DATA", raising=False)
    monkeypatch.setenv("BATTLELINE_CLASS_DIR", str(tmp_path / "class"))
    monkeypatch.setenv("JUPYTERHUB_USER", "ann/../x")
    assert class_dir() == tmp_path / "class"
    # one folder, never a path out of the class folder (readable, and a hash: no other name's folder)
    assert data_dir().parent == tmp_path / "class" and data_dir().name.startswith("ann_.._x+")
    monkeypatch.setenv("BATTLELINE_LAB_DATA", str(tmp_path / "mine"))
    assert data_dir() == tmp_path / "mine"  # an explicit data folder wins


def test_a_class_reports_itself_from_its_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from battleline_lab.quiz import library

    puzzles = tmp_path / "classset"
    puzzles.mkdir()
    for pid in ("seed-blue-seven-in-your-hand", "seed-blue-eight-blocked", "fog-wrecks-a-low-wedge"):
        text = library.path(pid).read_text(encoding="utf-8").replace(f"id: {pid}", f"id: my-{pid}", 1)
        (puzzles / f"{pid}.yaml").write_text(text, encoding="utf-8")
    classroom = tmp_path / "class"
    where = {user: _learner(user, user == "ann", classroom, puzzles, tmp_path) for user in ("ann", "bo")}
    assert where == {user: str(classroom / user) for user in ("ann", "bo")}
    assert all((classroom / user / DATABASE_FILE).is_file() for user in ("ann", "bo"))
    out = tmp_path / "class.html"
    assert main(["report", str(classroom), "--puzzles", str(puzzles), "--out", str(out)]) == 0
    assert "2 learners" in capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    learners = page[page.index('class="bl-report-class-learners') :]
    assert '<td class="bl-name">ann</td>' in learners and '<td class="bl-name">bo</td>' in learners
    assert "100% (3 of 3)" in learners and "0% (0 of 3)" in learners
    assert "R24" in learners  # bo missed the Fog puzzle: its own rule


def test_a_folder_saved_from_the_static_site_is_read_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """JupyterLite keeps progress as ``battleline-data/progress.jsonl``: downloaded into a class folder, it reports."""
    from battleline_lab.quiz import library
    from battleline_lab.training.progress import IDENTITY_FILE, JSONL_FILE, Progress
    from battleline_lab.training.trainer import PuzzleSession

    classroom = tmp_path / "class"
    progress = Progress(classroom / "cy" / JSONL_FILE)
    puzzle = library.get("seed-blue-seven-in-your-hand")
    PuzzleSession(puzzle, progress=progress, source="gym").answer(puzzle.solve())
    (classroom / "cy" / IDENTITY_FILE).unlink()  # the store alone handed in (its learner.json left behind)
    assert sorted(p.name for p in (classroom / "cy").iterdir()) == [JSONL_FILE]
    out = tmp_path / "class.html"
    assert main(["report", str(classroom), "--out", str(out)]) == 0
    assert '<td class="bl-name">cy</td>' in out.read_text(encoding="utf-8")
