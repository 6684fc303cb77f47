"""The puzzle editor in a real browser: a teacher builds a puzzle by clicks, saves it, and the file is right.

``tests/test_editor.py`` and ``tests/test_editor_widget.py`` prove the session and the widget in
the kernel; this shows that the editor renders in JupyterLab and that clicks on its card buttons,
dropdowns and the Save button reach the session, and that what lands on disk loads, passes
``check`` and holds the position that was clicked.  It runs in JupyterLab and on the JupyterLite
site (the ``frontend`` fixture; there the file is on the browser's drive, read back by a cell).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from battleline_lab.loader import check_answer, load_puzzle
from tests.browser import ui
from tests.browser.conftest import Front, assert_no_widget_errors, open_and_run, run_code, site_open, until

pytestmark = pytest.mark.browser


def _notebook(root: Path, target: Path) -> str:
    """A one-cell notebook in the server's root that shows an empty editor saving to ``target``."""
    source = "from battleline_lab.editor_widget import PuzzleEditor\n"
    source += f"PuzzleEditor(puzzle_id='clicked-tie', save_path={str(target)!r})"
    book = {
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    name = "editor-browser-test.ipynb"
    (root / name).write_text(json.dumps(book), encoding="utf-8")
    return name


def test_build_a_puzzle_by_clicks_and_save_it(
    front_page: Page, frontend: Front, tmp_path: Path, output_dir: Path
) -> None:
    page = front_page
    page.set_viewport_size({"width": 1280, "height": 2000})
    if frontend.data_dir is not None:
        target = tmp_path / "clicked-tie.yaml"
        open_and_run(page, frontend, _notebook(frontend.data_dir.parent / "root", target))
    else:  # the site: the editor in a new cell of a lesson without widgets, saving to the browser's drive
        target = Path("/drive/clicked-tie.yaml")
        site_open(page, frontend.url, "00-the-game-in-ten-minutes.ipynb")
        editor_code = "from battleline_lab.editor_widget import PuzzleEditor; "
        run_code(page, editor_code + f"PuzzleEditor(puzzle_id='clicked-tie', save_path={str(target)!r})")
    editor = page.locator(".bl-editor").first
    expect(editor).to_be_visible(timeout=60_000)
    place = editor.locator(".bl-editor-place select")

    place.select_option(label="flag 4, you")
    for card in ("r8", "r9", "r10"):
        editor.locator(f".bl-editor-card-{card}").click()
    expect(editor.locator('.bl-editor-board .bl-flag-4 .bl-side-you [data-card="r10"]')).to_have_count(1)
    place.select_option(label="flag 4, the opponent")
    for card in ("g8", "g9", "g10"):
        editor.locator(f".bl-editor-card-{card}").click()
    expect(editor.locator(".bl-editor-problems")).to_contain_text("R11")  # a tie without first_complete

    editor.locator(".bl-editor-flag select").select_option("4")
    editor.locator(".bl-editor-first select").select_option(label="you")
    expect(editor.locator(".bl-editor-problems .bl-editor-ok")).to_be_visible()

    editor.locator(".bl-editor-kind select").select_option(label="claim: can you claim a flag now?")
    editor.locator(".bl-editor-qflag select").select_option("4")
    expect(editor.locator(".bl-editor-engine")).to_contain_text("true")
    editor.locator(".bl-editor-engine-answer").click()
    title = editor.locator(".bl-editor-title-en input")
    title.fill("Who was first?")
    title.press("Enter")
    expect(editor.locator(".bl-editor-yaml")).to_contain_text("Who was first?", timeout=10_000)
    editor.screenshot(path=str(output_dir / f"editor-built-{frontend.name}.png"))

    overwrite = editor.locator(ui.EDITOR_OVERWRITE)
    editor.locator(ui.EDITOR_SAVE).click()
    expect(editor.locator(ui.EDITOR_MESSAGE)).to_contain_text("Saved")
    expect(overwrite).to_be_hidden()
    facts = (
        "from battleline_lab.loader import check_answer, load_puzzle; "
        f"p = load_puzzle({str(target)!r}); f = p.position.flag(4); "
        f"print(check_answer(p, {str(target)!r}), p.id, p.title_text(), p.answer, "
        "[c.notation for c in f.you], [c.notation for c in f.opponent], f.first_complete.value)"
    )
    if frontend.data_dir is not None:
        until(target.exists, "the saved file")
        puzzle = load_puzzle(target)
        assert check_answer(puzzle, str(target)) == []
        assert puzzle.id == "clicked-tie" and puzzle.title_text() == "Who was first?" and puzzle.answer is True
        flag = puzzle.position.flag(4)
        assert [c.notation for c in flag.you] == ["r8", "r9", "r10"]
        assert [c.notation for c in flag.opponent] == ["g8", "g9", "g10"]
        assert flag.first_complete is not None and flag.first_complete.value == "you"
    else:
        shown = run_code(page, facts)
        want = "[] clicked-tie Who was first? True ['r8', 'r9', 'r10'] ['g8', 'g9', 'g10'] you"
        assert want in shown, shown

    # a second save asks before it overwrites
    editor.locator(ui.EDITOR_SAVE).click()
    expect(overwrite).to_be_visible()
    assert_no_widget_errors(page)
