"""The lesson notebooks are committed run, top to bottom, with deterministic outputs (nbval compares them).

nbval silently skips a code cell that has no saved outputs, so this test insists that every code
cell was run and shows something.  It also checks that lessons use only the public API.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
#: The learner's path (top level, in order), then the teachers' lessons and the translations.
LEARNER_PATH = sorted(NOTEBOOKS.glob("*.ipynb"))
LESSONS = sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
PUBLIC_MODULES = {
    "battleline_lab",
    "battleline_lab.widgets",
    "battleline_lab.svg",
    "battleline_lab.loader",
    "battleline_lab.game",
    "battleline_lab.game_widget",
    "battleline_lab.editor_widget",
}


def test_the_learners_path_and_the_teachers_lessons_are_there() -> None:
    assert [p.name[:3] for p in LEARNER_PATH] == ["01-", "02-", "03-", "04-", "05-", "06-"]
    assert [p.name[:3] for p in sorted((NOTEBOOKS / "teachers").glob("*.ipynb"))] == ["01-", "02-"]


def _code_cells(path: Path) -> list[nbformat.NotebookNode]:
    book = nbformat.read(path, as_version=4)
    return [c for c in book.cells if c.cell_type == "code"]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.relative_to(NOTEBOOKS).with_suffix("").as_posix())
def test_every_code_cell_was_run_in_order_and_has_outputs(path: Path) -> None:
    cells = _code_cells(path)
    assert cells
    for number, cell in enumerate(cells, 1):
        assert cell.outputs, f"{path.name}: code cell {number} has no outputs (run the notebook and save it)"
        assert cell.execution_count == number, f"{path.name}: cells were not run top to bottom in one go"
        assert not [o for o in cell.outputs if o.output_type == "error"], f"{path.name}: cell {number} failed"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.relative_to(NOTEBOOKS).with_suffix("").as_posix())
def test_outputs_are_deterministic_and_local(path: Path) -> None:
    for cell in _code_cells(path):
        for out in cell.outputs:
            texts = [out.get("text", "")] + [str(v) for v in out.get("data", {}).values()]
            for text in texts:
                assert not re.search(r" at 0x[0-9a-f]+", text), "a memory address: nbval would fail"
                assert not re.search(r"(/work/|/root/|/home/|/tmp/)", text), "a path of this machine in an output"
                assert "Error displaying widget" not in text


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.relative_to(NOTEBOOKS).with_suffix("").as_posix())
def test_lessons_import_only_the_public_api(path: Path) -> None:
    for cell in _code_cells(path):
        source = "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith(("!", "%")))
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("battleline_lab"):
                assert node.module in PUBLIC_MODULES, node.module
                exported = set(importlib.import_module(node.module).__all__)
                for alias in node.names:
                    assert alias.name in exported, f"{path.name}: {node.module}.{alias.name} is not public"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("battleline_lab"):
                        assert alias.name in PUBLIC_MODULES, alias.name
