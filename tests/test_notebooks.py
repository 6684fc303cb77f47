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
    "battleline_lab.cli",  # the teachers' lesson runs the command line through main([...])
    "battleline_lab.authoring.generate",
    "battleline_lab.widgets",
    "battleline_lab.widgets.editor",
    "battleline_lab.widgets.game",
    "battleline_lab.game",
    "battleline_lab.game.record",
    "battleline_lab.game.advice",  # lesson 06: the coach's suggestion in words
    "battleline_lab.cli.odds",  # lesson 07 prints the odds command's text (odds_lines)
    "battleline_lab.core.odds",  # lesson 07: outs and odds
    "battleline_lab.core.reachability",
    "battleline_lab.game.three",  # lesson 08: the three-player game
    "battleline_lab.game.three_bots",
    "battleline_lab.game.three_picture",
    "battleline_lab.quiz.checks",
    "battleline_lab.quiz.loader",
    "battleline_lab.render.svg",
}
#: The lessons whose prose about positions the engine checks (hidden ``check`` cells, see below).
CHECKED = [
    p for p in LESSONS if p.name[:3] in ("00-", "01-", "02-", "03-", "04-", "07-", "08-") and "teachers" not in p.parts
]


def test_the_learners_path_and_the_teachers_lessons_are_there() -> None:
    assert [p.name[:3] for p in LEARNER_PATH] == ["00-", "01-", "02-", "03-", "04-", "05-", "06-", "07-", "08-"]
    assert [p.name for p in sorted((NOTEBOOKS / "zh").glob("*.ipynb"))] == [
        "00-the-game-in-ten-minutes.zh.ipynb",
        "01-cards-and-formations.zh.ipynb",
        "02-comparing-and-the-tie-rule.zh.ipynb",
        "03-claim-proofs.zh.ipynb",
        "04-tactics-cards.zh.ipynb",
        "05-puzzle-gym.zh.ipynb",
        "06-play-a-game.zh.ipynb",
        "07-outs-and-odds.zh.ipynb",
        "08-three-at-the-table.zh.ipynb",
    ]
    assert [p.name[:3] for p in sorted((NOTEBOOKS / "teachers").glob("*.ipynb"))] == ["01-", "02-"]
    assert [p.name for p in sorted((NOTEBOOKS / "zh" / "teachers").glob("*.ipynb"))] == [
        "01-writing-puzzles.zh.ipynb",
        "02-puzzle-editor.zh.ipynb",
    ]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.relative_to(NOTEBOOKS).with_suffix("").as_posix())
def test_every_lesson_says_first_to_run_the_cells(path: Path) -> None:
    """A newcomer who opens a lesson sees, under its title, how to make it run."""
    first = nbformat.read(path, as_version=4).cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ")
    assert "Run ▸ Run All Cells" in first.source.split("\n\n")[1], f"{path.name}: say to run the cells under the title"


LEARNER_LESSONS = [p for p in LESSONS if "teachers" not in p.parts]


@pytest.mark.parametrize("path", LEARNER_LESSONS, ids=lambda p: p.relative_to(NOTEBOOKS).with_suffix("").as_posix())
def test_no_visible_code_names_a_library_puzzle(path: Path) -> None:
    """A library puzzle's id may tell its answer (``one-end-open``): the cell that builds its widget
    shows no source (collapsed in JupyterLab); the widget shows only what the learner may see.
    (The teachers' lessons open library puzzles by id on purpose.)"""
    from battleline_lab.quiz import library

    ids = set(library.ids())
    for cell in _code_cells(path):
        named = {m for m in re.findall(r"""["']([a-z0-9-]+)["']""", cell.source) if m in ids}
        if named and not cell.metadata.get("jupyter", {}).get("source_hidden"):
            pytest.fail(f"{path.name}: a visible cell names the library puzzle(s) {sorted(named)}")


@pytest.mark.parametrize("path", [p for p in LESSONS if p.name.startswith("00-")], ids=lambda p: p.parent.name)
def test_lesson_00_tells_the_game_as_a_story_with_the_result_last(path: Path) -> None:
    """The game record is folded (its outputs collapsed) and shows no result; the result is printed
    in the last section of the story, after every turn it tells."""
    cells = _code_cells(path)
    record = [c for c in cells if "record.to_yaml()" in c.source]
    assert len(record) == 1 and record[0].metadata.get("jupyter", {}).get("outputs_hidden") is True
    printed = "".join(o.get("text", "") for o in record[0].outputs)
    assert "- south:" in printed and "result:" not in printed
    shown = ["".join(o.get("text", "") for o in c.outputs) for c in cells]
    first_result = next(i for i, text in enumerate(shown) if "breakthrough" in text or "突破" in text)
    assert first_result > cells.index(record[0]) and first_result >= len(cells) - 3


def _is_check(cell: nbformat.NotebookNode) -> bool:
    return "check" in cell.metadata.get("tags", [])


def _code_cells(path: Path) -> list[nbformat.NotebookNode]:
    book = nbformat.read(path, as_version=4)
    return [c for c in book.cells if c.cell_type == "code"]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.relative_to(NOTEBOOKS).with_suffix("").as_posix())
def test_every_code_cell_was_run_in_order_and_has_outputs(path: Path) -> None:
    cells = _code_cells(path)
    assert cells
    for number, cell in enumerate(cells, 1):
        # a hidden check cell is silent when the engine agrees (an assert); it must still have run
        assert cell.outputs or _is_check(cell), f"{path.name}: code cell {number} has no outputs (run it and save)"
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
                assert "DeprecationWarning" not in text, "a deprecation warning in a lesson's output"


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


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: p.relative_to(NOTEBOOKS).with_suffix("").as_posix())
def test_the_engine_checks_what_the_lesson_says(path: Path) -> None:
    """Prose about a position is backed by hidden ``check`` cells: asserts nbval runs, collapsed in JupyterLab.

    A check cell asserts (so a lesson whose prose and engine disagree fails under nbval), shows its
    source collapsed (``jupyter.source_hidden``), ran in order with the rest and printed nothing. Each
    section of a lesson that shows a position (an ``analyse_claim``/``evaluate`` output) is followed
    by a check before the next section starts.
    """
    book = nbformat.read(path, as_version=4)
    checks = [c for c in book.cells if c.cell_type == "code" and _is_check(c)]
    assert len(checks) >= 3, f"{path.name}: only {len(checks)} check cells"
    for cell in checks:
        assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, cell.source[:60]
        assert "assert " in cell.source and cell.execution_count is not None
        assert cell.outputs == [], f"{path.name}: a check cell printed something: {cell.source[:60]}"
    # every section (## heading) that runs the engine on a position has a check before the next one
    section: list[nbformat.NotebookNode] = []
    for cell in [*book.cells, nbformat.v4.new_markdown_cell("## end")]:
        if cell.cell_type == "markdown" and cell.source.startswith("## "):
            engine = [c for c in section if c.cell_type == "code" and re.search(r"analyse_claim|evaluate\(", c.source)]
            if engine:
                assert any(_is_check(c) for c in section), f"{path.name}: no check in: {section[0].source[:60]}"
            section = []
        section.append(cell)
