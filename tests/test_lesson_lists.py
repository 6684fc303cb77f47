"""The lists of lessons a learner reads are true: the README's path, lesson 0's "path from here".

A lesson added without a line in these lists is a lesson nobody finds; a list that names lessons
that do not exist sends a learner nowhere.  The lessons are the ``NN-*.ipynb`` files of
``notebooks/`` and their Chinese twins in ``notebooks/zh/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
NUMBERED = re.compile(r"^(\d\d)-(.+)\.ipynb$")


def _lessons() -> dict[int, str]:
    found = {int(m[1]): m[2] for p in NOTEBOOKS.glob("*.ipynb") if (m := NUMBERED.match(p.name))}
    assert found, "no lessons found"
    return found


def _markdown(path: Path) -> str:
    notebook = nbformat.read(path, as_version=4)
    return "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def test_every_lesson_has_a_chinese_twin() -> None:
    missing = [
        f"zh/{n:02d}-{stem}.zh.ipynb"
        for n, stem in _lessons().items()
        if not (NOTEBOOKS / "zh" / f"{n:02d}-{stem}.zh.ipynb").is_file()
    ]
    assert not missing, f"lessons without a Chinese version: {missing}"


def test_readme_names_the_whole_path() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    span = re.search(r"`notebooks/(\d\d)` to `(\d\d)`", readme)
    assert span, "the README's Lessons section names no `notebooks/NN` to `NN` span"
    numbers = sorted(_lessons())
    assert (int(span[1]), int(span[2])) == (numbers[0], numbers[-1])
    assert "Lessons\n0 to 4" not in readme and "0 to 4 also exist" not in readme


@pytest.mark.parametrize(
    ("path", "heading"),
    [
        ("00-the-game-in-ten-minutes.ipynb", "## Your path from here"),
        ("zh/00-the-game-in-ten-minutes.zh.ipynb", "## 接下来的学习路线"),
    ],
    ids=["en", "zh"],
)
def test_lesson_0_path_lists_every_later_lesson(path: str, heading: str) -> None:
    text = _markdown(NOTEBOOKS / path)
    assert heading in text, f"{path}: no {heading!r} section"
    section = text[text.index(heading) :].split("\n## ", 1)[0]
    listed = [int(n) for n in re.findall(r"^(\d+)\. \*\*", section, flags=re.MULTILINE)]
    later = sorted(n for n in _lessons() if n > 0)
    assert listed == later, f"{path}: the path from here lists {listed}, the lessons after 0 are {later}"
