"""The layout in a real browser: any width, the keyboard and a calm layout.

- At 600, 1024 and 1400 px the widgets never overflow sideways, each of the game board's flag
  targets lies in its own column and so does each flag a puzzle asks about ("which flags"),
  measured with bounding boxes; screenshots in ``test-output/layout-*.png``.  The game's checks
  (:func:`game_fits_every_width`) run on another test's page of lesson 6: in JupyterLab
  ``test_game_browser.py``'s, on the site the sweep's (one opening of lesson 6 fewer in each).
- A puzzle answered by keyboard (focus + Enter), the proof stepped with the arrow keys (on its
  step buttons) and with j/k (not in a text field, and not moving JupyterLab's cell), visible
  focus, and nothing above the feedback moving when it is answered (with lesson 3's layout at
  every width: :func:`puzzle_by_keyboard_calm_layout_and_toggles_under_columns`, on this test's
  page in JupyterLab, on the sweep's of lesson 3 on the site).

The axe-core audit of every lesson with widgets runs in the same pass over the lessons as their cold
opening (``tests/browser/test_lessons_cold.py``): one opening and one kernel per lesson.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import (
    WIDGET_ROOTS,
    Front,
    assert_no_widget_errors,
    layout_settled,
    open_and_run,
    run_finished,
)
from tests.browser.test_board_browser import wait_redraw

pytestmark = pytest.mark.browser

WIDTHS = (600, 1024, 1400)
ROOTS = WIDGET_ROOTS


def redrawn(page: Page, widget: Locator, act: Callable[[], None]) -> None:
    """Do ``act`` (a key press) and wait until the widget's board has drawn the kernel's answer: the
    board numbers each redraw (``data-rev``) and is not busy."""
    board = widget.locator(".blb").first
    before = board.get_attribute("data-rev")
    act()
    wait_redraw(page, board, str(before), timeout=30_000)


def no_sideways_overflow(page: Page) -> None:
    """Every widget root fits its cell, and the notebook itself has no horizontal scroll."""
    report = page.evaluate(
        """(roots) => {
            const out = [];
            for (const el of document.querySelectorAll(roots)) {
                if (!el.offsetParent) continue;
                if (el.scrollWidth > el.clientWidth + 1)
                    out.push(`${el.className}: ${el.scrollWidth} > ${el.clientWidth}`);
                const cell = el.closest('.jp-OutputArea-output') || el.parentElement;
                const a = el.getBoundingClientRect(), b = cell.getBoundingClientRect();
                if (a.right > b.right + 1) out.push(`${el.className} ends at ${a.right} beyond its cell ${b.right}`);
                for (const svg of el.querySelectorAll('svg.bl-board')) {
                    const s = svg.getBoundingClientRect();
                    if (s.right > a.right + 1) out.push(`board ends at ${s.right} beyond its widget ${a.right}`);
                }
            }
            const nb = document.querySelector('.jp-NotebookPanel-notebook');
            if (nb && nb.scrollWidth > nb.clientWidth + 1)
                out.push(`notebook scrolls sideways: ${nb.scrollWidth} > ${nb.clientWidth}`);
            return out;
        }""",
        ROOTS,
    )
    assert report == [], report


def game_fits_every_width(page: Page, front: str, output_dir: Path) -> None:
    """Lesson 6, run in the front end ``front``: its game fits each of :data:`WIDTHS`, every flag's
    tap target in its own column; the page is left at the last width.  Run on the page of lesson 6
    that another test opened: in JupyterLab ``test_game_browser.py``'s, after its few moves; on the
    site the sweep's (``test_site_browser.py``)."""
    game = page.locator(".bl-game").first
    expect(game).to_be_visible(timeout=60_000)
    expect(page.locator(".jp-OutputArea-output", has_text="'claim_timing': 'after_play'")).to_be_visible(timeout=60_000)
    # tap a card so that its flags are lit (the board component: docs/widgets.md)
    game.locator('.blb [data-zone="hand"]:not([aria-disabled="true"])').first.click()
    expect(game.locator('.blb-flag[data-legal="true"]').first).to_be_visible()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 1000})
        layout_settled(page)  # JupyterLab re-lays out its panels
        game.scroll_into_view_if_needed()
        game.screenshot(path=str(output_dir / f"layout-game-{front}-{width}.png"))
        no_sideways_overflow(page)
        for n in range(1, 10):  # each flag's tap target lies inside its own flag's column (or row)
            column = game.locator(f'.blb-col[data-col="{n}"]').bounding_box()
            target = game.locator(f'.blb-flag[data-flag="{n}"]').bounding_box()
            assert column is not None and target is not None
            assert column["x"] - 1 <= target["x"] and target["x"] + target["width"] <= column["x"] + column["width"] + 1
            assert target["width"] >= 36 and target["height"] >= 36, (width, n, target)
    assert_no_widget_errors(page)


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_puzzle_by_keyboard_calm_layout_and_toggles_under_columns(
    front_page: Page, frontend: Front, output_dir: Path
) -> None:
    """The puzzles of lesson 03 on the board component (puzzle mode, docs/widgets.md), in
    JupyterLab; on the site the sweep over every lesson makes the same checks on its own opening of
    lesson 3, after its own checks (``test_site_browser.py``: one Pyodide kernel fewer)."""
    page = front_page
    open_and_run(page, frontend, "notebooks/03-claim-proofs.ipynb")
    puzzle_by_keyboard_calm_layout_and_toggles_under_columns(page, frontend.name, output_dir)


def puzzle_by_keyboard_calm_layout_and_toggles_under_columns(page: Page, front: str, output_dir: Path) -> None:
    """Lesson 3, run in the front end ``front`` (its puzzles as a run draws them, none answered
    yet): every width, then a claim puzzle by keyboard; the page is left at the last width."""
    expect(page.locator(".bl-puzzle .blb").first).to_be_visible(timeout=60_000)
    # every cell has run and every puzzle drew its board (not a fixed pause: a loaded machine is slow)
    run_finished(page)
    expect(page.locator(".bl-puzzle:not(:has(.blb))")).to_have_count(0, timeout=60_000)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 1000})
        layout_settled(page)
        page.screenshot(path=str(output_dir / f"layout-lesson03-{front}-{width}.png"))
        no_sideways_overflow(page)
        # "which flags": each flag's answer target lies inside its own flag's column (or row)
        for puzzle in page.locator('.bl-puzzle:has(.blb-flag[data-action="answer"])').all():
            for n in range(1, 10):
                column = puzzle.locator(f'.blb-col[data-col="{n}"]').bounding_box()
                target = puzzle.locator(f'.blb-flag[data-flag="{n}"]').bounding_box()
                assert column is not None and target is not None
                assert (
                    column["x"] - 1 <= target["x"]
                    and target["x"] + target["width"] <= column["x"] + column["width"] + 1
                )
                assert target["width"] >= 36 and target["height"] >= 36, (width, n, target)

    # answer a claim puzzle with the keyboard: try both answers, focus + Enter only
    puzzle = page.locator(".bl-puzzle:has(.bl-answer-yes)").first
    puzzle.scroll_into_view_if_needed()

    def where(selector: str) -> tuple[float, float]:
        box, origin = puzzle.locator(selector).first.bounding_box(), puzzle.bounding_box()
        assert box is not None and origin is not None
        return box["y"] - origin["y"], box["height"]

    board_before = where(".blb-board")
    feedback_before = where('[data-role="feedback"]')
    for answer in ("yes", "no"):
        button = puzzle.locator(f'[data-action="answer"][data-value="{answer}"]')
        if button.get_attribute("aria-disabled") == "true":
            break
        button.focus()
        outline = button.evaluate("b => getComputedStyle(b).outlineStyle + ' ' + getComputedStyle(b).outlineWidth")
        assert not outline.startswith("none"), f"no visible focus on the answer button: {outline}"
        redrawn(page, puzzle, lambda: page.keyboard.press("Enter"))
        if puzzle.locator('[data-role="feedback"][data-state="right"]').count():
            break
        if puzzle.locator('[data-role="feedback"][data-state="evidence"]').count():
            break
    # a claim's proof: each card on offer in turn, focus + Enter, until a right one (R12, R13)
    for card in puzzle.locator('[data-action="evidence"]').all():
        if puzzle.locator('[data-role="feedback"][data-state="right"]').count():
            break
        card.focus()
        redrawn(page, puzzle, lambda: page.keyboard.press("Enter"))
    expect(puzzle.locator('[data-role="feedback"][data-state="right"]')).to_be_visible()
    expect(puzzle.locator('[data-role="feedback"][aria-live]')).to_have_count(1)
    assert puzzle.evaluate("p => p.contains(document.activeElement)"), "the focus left the puzzle"
    # calm: the board and the feedback did not move; Hint is gone (its place kept); the proof shows in its place
    assert where(".blb-board") == board_before
    assert where('[data-role="feedback"]')[0] == feedback_before[0]
    expect(puzzle.locator('[data-action="hint"]')).to_be_hidden()
    expect(puzzle.locator(".bl-explanation")).to_be_visible()
    # step the proof with the arrow keys on its buttons
    counter = puzzle.locator(".blb-step-counter")
    expect(counter).to_contain_text("step 1 of")
    step_next = puzzle.locator('[data-action="step-next"]')
    step_next.focus()
    page.keyboard.press("ArrowRight")
    expect(counter).to_contain_text("step 2 of")
    expect(puzzle.locator('[data-role="proof-step"][aria-live]')).to_have_count(1)
    page.keyboard.press("ArrowLeft")
    expect(counter).to_contain_text("step 1 of")
    # j (next) and k (back) too, from any control of the puzzle; JupyterLab's own j/k (next/previous
    # cell) must not fire, so the active cell stays
    active = (
        "Array.from(document.querySelectorAll('.jp-Notebook .jp-Cell'))"
        ".findIndex(c => c.classList.contains('jp-mod-active'))"
    )
    cell_before = page.evaluate(active)
    page.keyboard.press("j")
    expect(counter).to_contain_text("step 2 of")
    puzzle.locator('[data-action="answer"]').first.focus()  # from another control of the puzzle
    page.keyboard.press("k")
    expect(counter).to_contain_text("step 1 of")
    page.keyboard.press("j")
    expect(counter).to_contain_text("step 2 of")
    step_next.focus()
    page.keyboard.press("k")
    expect(counter).to_contain_text("step 1 of")
    assert page.evaluate(active) == cell_before, "j/k moved JupyterLab's active cell"
    # typing j/k into a text field is not taken over, even one inside the puzzle
    puzzle.evaluate("p => { const i = document.createElement('input'); i.className = 'bl-test-input'; p.prepend(i); }")
    field = puzzle.locator(".bl-test-input")
    field.focus()
    page.keyboard.type("jkj")
    expect(field).to_have_value("jkj")
    # nothing may happen here, and no event marks that nothing did: the one pause left (it can let a
    # bug through on a slow machine, never fail a good run)
    page.wait_for_timeout(500)
    expect(counter).to_contain_text("step 1 of")
    field.evaluate("i => i.remove()")
    puzzle.screenshot(path=str(output_dir / f"layout-puzzle-keyboard-{front}.png"))
    assert_no_widget_errors(page)


# A whole game without a mouse: tests/browser/test_board_browser.py (by keyboard alone, at 360 and 1400 px).
