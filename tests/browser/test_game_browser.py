"""Lesson 06 in a real browser: a learner plays a few moves of a game against the bot by tapping the board.

nbval and ``tests/test_game_widget.py`` prove the kernel side; this shows that the game widget
renders in JupyterLab and on the JupyterLite site (the ``frontend`` fixture), and that taps on
the board's hooks (``docs/widgets.md``) reach the kernel and come back as a new board, a new log
and new choices: the draw choice after each card, the coach when asked for.  On the site the same
checks run in the sweep over every lesson (``test_site_browser.py``), on its opening of lesson 6.  In
JupyterLab the game's layout at 600, 1024 and 1400 px is checked on this test's page, after the moves,
as the sweep does on the site.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser import ui
from tests.browser.conftest import Front, assert_no_widget_errors, open_and_run, until
from tests.browser.test_layout_a11y_browser import game_fits_every_width

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/06-play-a-game.ipynb"


def log_lines(game: Locator) -> list[str]:
    return [str(t) for t in game.locator(".bl-game-log .bl-log-line").all_inner_texts()]


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_play_a_few_moves_of_lesson_six_by_tapping(front_page: Page, frontend: Front, output_dir: Path) -> None:
    """In JupyterLab; on the site the sweep over every lesson makes the same checks on its own
    opening of lesson 6 (``test_site_browser.py``: one Pyodide kernel fewer).  Then, on the same page
    as the sweep does it, the game fits 600, 1024 and 1400 px with every flag target in its own column
    (:func:`tests.browser.test_layout_a11y_browser.game_fits_every_width`, once a test of its own that
    opened and ran lesson 6 again)."""
    page = front_page
    page.set_viewport_size({"width": 1280, "height": 1900})  # the whole game widget fits in a screenshot
    open_and_run(page, frontend, NOTEBOOK)
    a_few_moves_by_tapping(page, frontend.name, output_dir)
    page.set_viewport_size({"width": 1280, "height": 1000})
    game_fits_every_width(page, frontend.name, output_dir)


def a_few_moves_by_tapping(page: Page, front: str, output_dir: Path) -> None:
    """Lesson 6, run in the front end ``front`` (the window 1280 x 1900): a few moves by taps."""
    game = page.locator(".bl-game").first
    expect(game).to_be_visible(timeout=60_000)
    # the lesson ran to its end (the last cell's output, the demo's puzzle dict, is there) ...
    expect(page.locator(".jp-OutputArea-output", has_text="'claim_timing': 'after_play'")).to_be_visible(timeout=60_000)
    # ... and the learner's own game, the only game widget shown, was not touched by the demo: turn 1
    board = game.locator(".blb")
    expect(board.locator(".blb-prompt")).to_contain_text("play a card")
    assert log_lines(game) == []
    expect(game.locator(ui.COACH)).to_be_hidden()
    game.locator(ui.COACH_TOGGLE).click()  # the coach is off until the learner asks for it
    expect(game.locator(ui.COACH)).to_be_visible()
    expect(game.locator(ui.COACH)).to_contain_text("Coach for South")

    for move in range(3):
        if game.locator(".bl-game-over").is_visible():
            break
        before = len(log_lines(game))
        card = board.locator('[data-zone="hand"]:not([aria-disabled="true"])').first
        label = card.get_attribute("aria-label")
        notation = card.get_attribute("data-card")
        assert label and notation, "hand cards carry the card's accessible name and notation"
        card.click()
        # the flags light at once (in the browser) and the prompt says where the card may go
        expect(card).to_have_attribute("aria-pressed", "true")
        lit = board.locator('.blb-flag[data-legal="true"]')
        expect(lit.first).to_be_visible()
        expect(board.locator(".blb-prompt")).to_contain_text("may go to flag")
        if move == 0:
            game.screenshot(path=str(output_dir / f"game-choose-flag-{front}.png"))
        flag = lit.first.get_attribute("data-flag")
        if move == 1:  # the second move by drag and drop: a second tap cancels, then drag the card there
            card.click()
            expect(card).to_have_attribute("aria-pressed", "false")
            expect(lit).to_have_count(0)
            card.drag_to(board.locator(f'.blb-col[data-col="{flag}"]'))
        else:
            lit.first.click()
        played = board.locator(f'[data-card="{notation}"][data-zone="board"][data-flag="{flag}"][data-side="you"]')
        expect(played).to_have_count(1)
        name = str(played.get_attribute("aria-label"))
        assert label in name and f"flag {flag}" in name  # "red 7, Light Cavalry, on flag 3, your side"
        end = board.locator('[data-action="end"]')
        if end.count():
            end.click()  # claims come after playing (R14); the test keeps playing
        draw = board.locator('[data-action="draw"][data-deck="troops"]:not([aria-disabled="true"])')
        expect(draw).to_have_count(1)  # the draw choice appears after the card (R6: the deck is far from empty)
        expect(board.locator(".blb-prompt")).to_contain_text("draw")
        draw.click()
        count = before + 2  # at least our play and draw, then the bot's reply
        until(lambda: len(log_lines(game)) > count, f"move {move + 1} and the bot's reply in the log", timeout=20)  # noqa: B023
        expect(board.locator(".blb-prompt")).to_contain_text("South (you)")
        if move == 0:
            newest = game.locator(".bl-game-log .bl-log-turn").first
            expect(newest).to_contain_text("North (heuristic bot)")  # the bot answered, newest turn on top
            # the bot's move is highlighted on the board
            expect(board.locator('[data-zone="board"].blb-highlight').first).to_be_visible()

    # a claim that cannot be proved is explained with the engine's proof: tap an open flag
    board.locator(".blb-flag:not(.blb-claimed-you):not(.blb-claimed-opponent)").first.click()
    feedback = board.locator('[data-role="feedback"]')
    expect(feedback).to_contain_text("proof")
    expect(feedback.locator("ol li").first).to_be_visible()

    game.scroll_into_view_if_needed()
    game.screenshot(path=str(output_dir / f"game-widget-{front}.png"))
    page.screenshot(path=str(output_dir / f"game-full-page-{front}.png"), full_page=True)
    assert_no_widget_errors(page)
