"""The puzzle editor in a real browser: a teacher builds a puzzle by clicks, saves it, and the file is right.

``tests/test_editor.py`` and ``tests/test_editor_widget.py`` prove the session and the widget in
the kernel; this shows that the editor renders in JupyterLab and that taps on its board (a card
of the palette, ``data-zone="palette"``, then an empty slot, ``data-action="place"``; one card
placed by keyboard alone), its dropdowns and the Save button reach the session, and that what
lands on disk loads, passes ``check`` and holds the position that was tapped.  It runs in
JupyterLab (this file's test) and on the JupyterLite site (:func:`editor_on_the_site`, in a new cell
under lesson 2 once the sweep over every lesson, ``test_site_browser.py``, has run it on its own page
and kernel; there the file is on the browser's drive, read back by a cell).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from battleline_lab.quiz.loader import check_answer, load_puzzle
from tests.browser import ui
from tests.browser.conftest import Front, assert_no_widget_errors, open_and_run, run_code, until

pytestmark = pytest.mark.browser


def _notebook(root: Path, target: Path) -> str:
    """A one-cell notebook in the server's root that shows an empty editor saving to ``target``."""
    source = "from battleline_lab.widgets.editor import PuzzleEditor\n"
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


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_build_a_puzzle_by_clicks_and_save_it(
    front_page: Page, frontend: Front, tmp_path: Path, output_dir: Path
) -> None:
    """In JupyterLab, in a notebook of its own; on the site the sweep over every lesson makes the
    same checks on its own run of lesson 2 (:func:`editor_on_the_site`: one Pyodide kernel and one
    page fewer)."""
    page = front_page
    page.set_viewport_size({"width": 1280, "height": 2000})
    assert frontend.data_dir is not None
    target = tmp_path / "clicked-tie.yaml"
    open_and_run(page, frontend, _notebook(frontend.data_dir.parent / "root", target))
    build_a_puzzle_by_clicks_and_save_it(page, frontend, target, output_dir)


def editor_on_the_site(page: Page, frontend: Front, output_dir: Path) -> None:
    """On the site, a page that holds a run lesson (the sweep's): the editor in a new cell under it,
    saving to the browser's drive, where nothing else writes its file (its first save must not be
    asked to overwrite), then :func:`build_a_puzzle_by_clicks_and_save_it`.  It leaves the window at
    1280 x 2000 px."""
    assert frontend.site
    page.set_viewport_size({"width": 1280, "height": 2000})
    target = Path("/drive/clicked-tie.yaml")
    editor_code = "from battleline_lab.widgets.editor import PuzzleEditor; "
    run_code(page, editor_code + f"PuzzleEditor(puzzle_id='clicked-tie', save_path={str(target)!r})")
    build_a_puzzle_by_clicks_and_save_it(page, frontend, target, output_dir)


def build_a_puzzle_by_clicks_and_save_it(page: Page, frontend: Front, target: Path, output_dir: Path) -> None:
    """The editor just shown on ``page``, saving to ``target`` (in JupyterLab a file of this machine,
    on the site one of the browser's drive): a puzzle built by taps and keys, checked, saved, read
    back, and a second save asks before it overwrites."""
    editor = page.locator(".bl-editor").last  # the newest editor is the last
    expect(editor).to_be_visible(timeout=60_000)
    board = editor.locator(".bl-editor-board .blb")
    expect(board.locator('[data-zone="palette"]')).to_have_count(70)

    def placed(card: str, side: str) -> Locator:
        return board.locator(f'[data-card="{card}"][data-zone="board"][data-flag="4"][data-side="{side}"]')

    for card in ("r8", "r9"):  # tap a card, then an empty slot of flag 4 on your side
        board.locator(f'[data-zone="palette"][data-card="{card}"]').click()
        expect(board.locator('[data-action="place"][data-legal="true"]').first).to_be_visible()  # lit at once
        board.locator('[data-action="place"][data-place="4:you"]').first.click()
        expect(placed(card, "you")).to_have_count(1)
    # the red 10 by keyboard alone: Enter on the card, arrows to the slot, Enter
    board.locator('[data-zone="palette"][data-card="r8"]').focus()
    for _ in range(4):
        if page.evaluate("() => document.activeElement.dataset.card") == "r10":
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(board.locator('[data-zone="palette"][data-card="r10"]')).to_have_attribute("aria-pressed", "true")
    for _ in range(6):  # ArrowDown: from the palette to the next group of targets (the slots)
        page.keyboard.press("ArrowDown")
        if page.evaluate("() => document.activeElement.dataset.nav") == "slots":
            break
    for _ in range(80):
        if page.evaluate("() => document.activeElement.dataset.key") == "place:4:you:3":
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(placed("r10", "you")).to_have_count(1)
    label = str(placed("r10", "you").get_attribute("aria-label"))
    assert "red 10" in label and "flag 4" in label and "your side" in label, label
    for card in ("g8", "g9", "g10"):
        board.locator(f'[data-zone="palette"][data-card="{card}"]').click()
        board.locator('[data-action="place"][data-place="4:opponent"]').first.click()
        expect(placed(card, "opponent")).to_have_count(1)
    expect(editor.locator(".bl-editor-problems")).to_contain_text("R11")  # a tie without first_complete
    # a placed card tapped is taken off; tapped again from the palette it comes back
    placed("g10", "opponent").click()
    expect(placed("g10", "opponent")).to_have_count(0)
    board.locator('[data-zone="palette"][data-card="g10"]').click()
    board.locator('[data-action="place"][data-place="4:opponent"]').first.click()
    expect(placed("g10", "opponent")).to_have_count(1)

    board.locator('.blb-flag[data-flag="4"]').click()  # tap the flag: the marks are flag 4's
    expect(editor.locator(".bl-editor-flag select")).to_have_value("4")
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
    expect(editor.locator(ui.EDITOR_MESSAGE)).to_contain_text("Saved", timeout=30_000)  # Pyodide writes the drive
    expect(overwrite).to_be_hidden()
    facts = (
        "from battleline_lab.quiz.loader import check_answer, load_puzzle; "
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
