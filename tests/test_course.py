"""The course out of the package: ``battleline-lab lessons`` / ``lab``, ``python -m battleline_lab``, one version."""

from __future__ import annotations

import ast
import importlib.metadata
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import battleline_lab
from battleline_lab import course
from battleline_lab.cli import main
from battleline_lab.course import copy_course, course_files
from battleline_lab.quiz import library

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def _lessons_in_checkout() -> list[Path]:
    """Every lesson, and the rules page beside them the lessons link to (notebooks/rules.md)."""
    lessons = [p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts]
    return sorted(p.relative_to(NOTEBOOKS) for p in [*lessons, NOTEBOOKS / "rules.md"])


def test_the_course_is_every_lesson_of_the_checkout_and_nothing_else() -> None:
    files = course_files()
    assert sorted(files) == _lessons_in_checkout()
    assert len(files) >= 8 and Path("teachers/01-writing-puzzles.ipynb") in files
    assert not [f for f in files if f.suffix == ".py"]  # no conftest.py: the learner needs none
    assert files[0] == Path("00-the-game-in-ten-minutes.ipynb")  # top-level lessons first


def test_copy_skips_checkpoints_and_hidden_files(tmp_path: Path) -> None:
    root = tmp_path / "course"
    (root / ".ipynb_checkpoints").mkdir(parents=True)
    (root / ".ipynb_checkpoints" / "01-a-checkpoint.ipynb").write_text("{}")
    (root / "01-a.ipynb").write_text("{}")
    (root / ".hidden.ipynb").write_text("{}")
    (root / "conftest.py").write_text("")
    assert course_files(root) == [Path("01-a.ipynb")]


def test_lessons_copies_the_course_and_says_how_to_open_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["lessons"]) == 0
    out = capsys.readouterr().out
    folder = tmp_path / course.DEFAULT_FOLDER
    for relative in _lessons_in_checkout():
        assert (folder / relative).read_bytes() == (NOTEBOOKS / relative).read_bytes()
    assert f"Lesson files copied into {course.DEFAULT_FOLDER}: {len(_lessons_in_checkout())}." in out
    assert "Start with 00-the-game-in-ten-minutes.ipynb" in out and "battleline-lab lab battleline-lessons" in out
    assert not list(folder.rglob("*.part"))  # no temporary files left behind


def test_copying_again_keeps_the_learners_edits_and_force_replaces_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "my lessons"
    assert main(["lessons", str(folder)]) == 0
    edited = folder / "03-claim-proofs.ipynb"
    edited.write_text("my own notes", encoding="utf-8")
    (folder / "01-cards-and-formations.ipynb").unlink()  # a deleted lesson comes back
    capsys.readouterr()

    assert main(["lessons", str(folder)]) == 0
    out = capsys.readouterr().out
    assert edited.read_text(encoding="utf-8") == "my own notes"
    assert (
        "Your changed files, kept (they differ from the course; --force replaces them): 1\n  03-claim-proofs.ipynb\n"
        in out
    )
    assert f"copied into {folder}: 1." in out and (folder / "01-cards-and-formations.ipynb").is_file()
    assert f"battleline-lab lab {shlex.quote(str(folder))} " in out  # the command to open it, quoted for the shell

    assert main(["lessons", str(folder), "--force"]) == 0
    out = capsys.readouterr().out
    assert edited.read_bytes() == (NOTEBOOKS / "03-claim-proofs.ipynb").read_bytes()
    assert "Your changed files replaced with the originals (--force): 1\n  03-claim-proofs.ipynb\n" in out
    assert "kept" not in out


def test_copy_never_writes_over_a_file_that_appears_meanwhile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The no-overwrite write is atomic: a file created between the check and the write is kept."""
    target = tmp_path / "01-a.ipynb"
    real_mkstemp = tempfile.mkstemp

    def racing_mkstemp(dir: Path, prefix: str, suffix: str) -> tuple[int, str]:
        target.write_text("the learner's", encoding="utf-8")
        return real_mkstemp(dir=dir, prefix=prefix, suffix=suffix)

    monkeypatch.setattr(tempfile, "mkstemp", racing_mkstemp)
    assert course._write_whole(target, b"the course's", replace=False) is False
    assert target.read_text(encoding="utf-8") == "the learner's"
    assert [p.name for p in tmp_path.iterdir()] == ["01-a.ipynb"]


def test_lessons_in_chinese_points_at_the_chinese_lessons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lessons", str(tmp_path / "课程"), "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    first_zh = next(p for p in course_files() if p.parts[0] == "zh")
    assert f"从 {first_zh.as_posix()} 开始" in out and "已把课程的" in out
    assert (tmp_path / "课程" / "01-cards-and-formations.ipynb").is_file()  # both languages are copied


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lessons_into_a_file_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    file = tmp_path / "notes.txt"
    file.write_text("mine", encoding="utf-8")
    assert main(["lessons", str(file), "--lang", lang]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{file}:1:1: error: ") and "Traceback" not in err
    assert file.read_text(encoding="utf-8") == "mine"


def test_lessons_where_nothing_can_be_written_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "lessons"
    blocker.mkdir()
    (blocker / "zh").write_text("a file where the zh folder goes", encoding="utf-8")
    assert main(["lessons", str(blocker)]) == 2
    err = capsys.readouterr().err
    assert ":1:1: error: cannot write the lessons here" in err


def test_lab_without_jupyterlab_says_which_extra_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(course, "LAB_MODULES", ("jupyterlab", "no_such_module_for_battleline_lab"))
    assert main(["lab", str(tmp_path / "l")]) == 2
    err = capsys.readouterr().err
    assert 'pip install "battleline_lab[lab]"' in err and "no_such_module_for_battleline_lab" in err
    assert not (tmp_path / "l").exists()  # nothing copied when it cannot open


def test_lab_copies_the_lessons_then_starts_jupyterlab_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    launched: list[list[str]] = []

    def fake_launch(command: list[str]) -> int:
        launched.append(command)
        return 0

    monkeypatch.setattr(course, "_launch", fake_launch)
    monkeypatch.setattr(course, "missing_lab_modules", lambda: [])
    folder = tmp_path / "l"
    assert main(["lab", str(folder), "--no-browser"]) == 0
    assert (folder / "03-claim-proofs.ipynb").is_file()
    [command] = launched
    assert command[:3] == [sys.executable, "-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={folder.resolve()}" in command and "--no-browser" in command
    assert "Opening JupyterLab in" in capsys.readouterr().out


def test_lessons_root_is_the_checkout_in_an_editable_install() -> None:
    assert library.lessons_root() == NOTEBOOKS
    assert library.root() == NOTEBOOKS.parent / "puzzles"


def test_the_version_has_one_source() -> None:
    assert importlib.metadata.version("battleline_lab") == battleline_lab.__version__
    changelog = (NOTEBOOKS.parent / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## [{battleline_lab.__version__}]" in changelog or "## [Unreleased]" in changelog


def test_python_dash_m_runs_the_cli(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "battleline_lab", "--version"], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.returncode == 0 and done.stdout.strip() == f"battleline-lab {battleline_lab.__version__}"
    done = subprocess.run(
        [sys.executable, "-m", "battleline_lab", "check", "tie-rule", "--lang", "zh"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "检查了5道谜题：5道通过" and done.stderr == ""


def test_copy_course_reports_each_file_once(tmp_path: Path) -> None:
    report = copy_course(tmp_path)
    again = copy_course(tmp_path, force=True)
    assert sorted(report.copied) == sorted(course_files()) == sorted(again.unchanged)
    assert not again.replaced and not again.kept and not again.copied


def test_the_build_hook_bundles_the_same_kinds_of_files_the_lessons_command_copies() -> None:
    """setup.py cannot import the package it builds, so it keeps its own list: the two must agree."""
    tree = ast.parse((NOTEBOOKS.parent / "setup.py").read_text(encoding="utf-8"))
    values = {
        target.id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id in {"BUNDLES", "SKIPPED_PARTS"}
    }
    bundles = {source: (target, suffixes) for source, target, suffixes in values["BUNDLES"]}
    assert bundles["notebooks"] == ("lessons", course.SUFFIXES)
    assert bundles["puzzles"][0] == "puzzles"
    assert values["SKIPPED_PARTS"] == course.SKIPPED_PARTS
