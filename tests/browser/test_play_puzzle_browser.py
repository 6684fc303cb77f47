"""A play puzzle solved on the board, in JupyterLab and on the site: a hand card, then a flag.

The learner plays as in the game (``docs/widgets.md``): a ``button[data-zone="hand"]`` card, then a
``.blb-flag[data-flag]``.  At 360 px by taps, at 1400 px by keys (arrows to the card, Enter, arrows
to the flag, Enter); a wrong play first (the feedback says wrong, the card stays playable), then
the right one (the feedback says right and the proof step appears).  One page per front end, the
two runs one under the other (:func:`wrong_play_then_right_at_both_widths`): in JupyterLab on lesson 3
opened for it, on the site under lesson 8, once the sweep over every lesson (``test_site_browser.py``)
has run it on its own page and kernel.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from battleline_lab.quiz import library
from tests.browser import ui
from tests.browser.conftest import Front, assert_no_widget_errors, run_code
from tests.browser.test_board_browser import size_cell
from tests.browser.test_puzzle_board_browser import focus_to, open_lesson, redrawn, rev

pytestmark = pytest.mark.browser

PUZZLE_ID = "play-to-claim-s35-1"


def plays() -> tuple[tuple[str, int], tuple[str, int]]:
    """A wrong play on the asked flag and a right one, as the engine has them."""
    puzzle = library.get(PUZZLE_ID)
    assert puzzle.question is not None
    explained = puzzle.question.explain(puzzle.position)
    right = explained.right[0]
    wrong = next(p for p in explained.offered if p not in explained.right and p[1] == right[1])
    return (wrong[0].notation, wrong[1]), (right[0].notation, right[1])


def play(page: Page, board: Locator, card: str, flag: int, keyboard: bool) -> None:
    """Play ``card`` on ``flag`` through the hooks: the card (held in the browser, no round trip), then the flag."""
    hand_card = board.locator(f'button[data-zone="hand"][data-card="{card}"]')
    target = board.locator(f'.blb-flag[data-flag="{flag}"]')
    before = rev(board)
    if keyboard:
        focus_to(page, hand_card)
        page.keyboard.press("Enter")
    else:
        hand_card.click()
    expect(hand_card).to_have_attribute("aria-pressed", "true")
    expect(target).to_have_attribute("data-legal", "true")
    if keyboard:
        focus_to(page, target)
        page.keyboard.press("Enter")
    else:
        target.click()
    redrawn(page, board, before)


#: (width, by keys): at 360 px by taps, at 1400 px by keys
CASES = [(360, False), (1400, True)]


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_R12_a_play_puzzle_wrong_play_then_right_by_taps_at_360_and_by_keys_at_1400(
    front_page: Page, frontend: Front, output_dir: Path
) -> None:
    """In JupyterLab: the lesson opened once, then :func:`wrong_play_then_right_at_both_widths`.  On
    the site the sweep over every lesson makes the same checks on its own run of lesson 8
    (``test_site_browser.py``: one Pyodide kernel and one page fewer)."""
    front_page.set_viewport_size({"width": 1000, "height": 1000})
    open_lesson(front_page, frontend)
    wrong_play_then_right_at_both_widths(front_page, frontend, output_dir)


def wrong_play_then_right_at_both_widths(page: Page, frontend: Front, output_dir: Path) -> None:
    """Both cases of :data:`CASES` on a page that holds a notebook: a cell with a fresh puzzle for
    each case, one under the other (each board takes only the keys inside it).  It leaves the window
    at 1400 x 1000 px."""
    for width, keyboard in CASES:
        page.set_viewport_size({"width": max(width, 1000), "height": 1000})
        _wrong_play_then_right(page, frontend, width, keyboard, output_dir)


def _wrong_play_then_right(page: Page, frontend: Front, width: int, keyboard: bool, output_dir: Path) -> None:
    tag = f"bl-test-play-{width}"
    run_code(
        page,
        f"from battleline_lab.widgets import PuzzleWidget as P; P({PUZZLE_ID!r}, record=False).add_class({tag!r})",
    )
    puzzle = page.locator(f".{tag}").first
    expect(puzzle.locator(".blb")).to_have_count(1, timeout=60_000)
    if width < 600:
        size_cell(page, puzzle, width)
    board = puzzle.locator(".blb")
    feedback = puzzle.locator(ui.PUZZLE_FEEDBACK)
    expect(feedback).to_have_attribute("data-state", "waiting")
    expect(board.locator('button[data-zone="hand"]')).to_have_count(6)
    puzzle.scroll_into_view_if_needed()
    if keyboard:  # enter the widget once (one Tab stop); from here on only keys
        board.locator('[data-nav][tabindex="0"]').first.focus()
    (wrong_card, wrong_flag), (right_card, right_flag) = plays()
    play(page, board, wrong_card, wrong_flag, keyboard)
    expect(feedback).to_have_attribute("data-state", "wrong")
    expect(feedback).to_contain_text("R12")
    play(page, board, right_card, right_flag, keyboard)
    expect(feedback).to_have_attribute("data-state", "right")
    step = puzzle.locator(ui.PROOF_STEP)
    expect(step).not_to_have_attribute("data-waiting", "true")
    expect(step).to_contain_text(re.compile(r"\S"))
    expect(board.locator('button[data-zone="hand"][aria-disabled="true"]')).to_have_count(6)  # solved
    puzzle.screenshot(path=str(output_dir / f"play-puzzle-{frontend.name}-{width}.png"))
    if not frontend.site:
        assert_no_widget_errors(page)
