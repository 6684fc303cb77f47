"""Lesson 06 in a real browser: a learner plays a few moves of a game against the bot by clicking.

nbval and ``tests/test_game_widget.py`` prove the kernel side; this shows that the game widget
renders in JupyterLab and on the JupyterLite site (the ``frontend`` fixture), and that clicks on
its buttons reach the kernel and come back as a new board, a new log and new buttons: the draw
choice after each card, the coach when asked for.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser import ui
from tests.browser.conftest import Front, assert_no_widget_errors, open_and_run, until

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/06-play-a-game.ipynb"


def log_lines(game: Locator) -> list[str]:
    return [str(t) for t in game.locator(".bl-game-log .bl-log-line").all_inner_texts()]


def enabled(game: Locator, selector: str) -> Locator:
    return game.locator(f"{selector}:not([disabled])")


def test_play_a_few_moves_of_lesson_six_by_clicking(front_page: Page, frontend: Front, output_dir: Path) -> None:
    page = front_page
    page.set_viewport_size({"width": 1280, "height": 1900})  # the whole game widget fits in a screenshot
    open_and_run(page, frontend, NOTEBOOK)
    game = page.locator(".bl-game").first
    expect(game).to_be_visible(timeout=60_000)
    # the lesson ran to its end (the last cell's output, the demo's puzzle dict, is there) ...
    expect(page.locator(".jp-OutputArea-output", has_text="'claim_timing': 'after_play'")).to_be_visible(timeout=60_000)
    # ... and the learner's own game, the only game widget shown, was not touched by the demo: turn 1
    expect(game.locator(".bl-game-prompt")).to_contain_text("play a card")
    assert log_lines(game) == []
    expect(game.locator(ui.COACH)).to_be_hidden()
    game.locator(ui.COACH_TOGGLE).click()  # the coach is off until the learner asks for it
    expect(game.locator(ui.COACH)).to_be_visible()
    expect(game.locator(ui.COACH)).to_contain_text("Coach for South")

    for move in range(3):
        if game.locator(".bl-game-over").is_visible():
            break
        before = len(log_lines(game))
        # a card from the hand: its tooltip is the card's label, as on the board (aria-label)
        card = enabled(game, ".bl-hand-card").first
        label = card.get_attribute("title")
        assert label, "hand buttons carry the card's label"
        card.click()
        expect(game.locator(".bl-game-prompt")).to_contain_text("choose a flag")
        if move == 0:
            expect(game.locator(".bl-board-view .bl-focus").first).to_be_visible()  # the legal flags are shaded
            game.screenshot(path=str(output_dir / f"game-choose-flag-{frontend.name}.png"))
        flag_button = enabled(game, ".bl-flag-button").first
        flag = int(re.sub(r"\D", "", flag_button.inner_text()))
        flag_button.click()
        board_card = game.locator(f'.bl-board-view .bl-flag-{flag} .bl-side-you [aria-label="{label}"]')
        expect(board_card).to_have_count(1)
        if game.locator(ui.END_CLAIMS).is_visible():
            game.locator(ui.END_CLAIMS).click()  # claims come after playing (R14); the test keeps playing
        # the draw choice appears after the card (R6: the troop deck is far from empty this early)
        draw = game.locator(ui.enabled(ui.DRAW_TROOPS))
        expect(draw).to_be_visible()
        expect(game.locator(ui.GAME_PROMPT)).to_contain_text("draw")
        draw.click()
        count = before + 2  # at least our play and draw, then the bot's reply
        until(lambda: len(log_lines(game)) > count, f"move {move + 1} and the bot's reply in the log", timeout=20)  # noqa: B023
        expect(game.locator(".bl-game-prompt")).to_contain_text("South (you)")
        if move == 0:
            newest = game.locator(".bl-game-log .bl-log-turn").first
            expect(newest).to_contain_text("North (heuristic bot)")  # the bot answered, newest turn on top
            # the bot's move is highlighted on the board
            expect(game.locator(".bl-board-view .bl-card.bl-highlight").first).to_be_visible()

    # a claim that cannot be proved is explained with the engine's proof
    claim = enabled(game, ".bl-claim").first
    claim.click()
    expect(game.locator(".bl-game-message")).to_contain_text("proof")
    expect(game.locator(".bl-game-message ol.bl-claim-proof li").first).to_be_visible()

    game.scroll_into_view_if_needed()
    game.screenshot(path=str(output_dir / f"game-widget-{frontend.name}.png"))
    page.screenshot(path=str(output_dir / f"game-full-page-{frontend.name}.png"), full_page=True)
    assert_no_widget_errors(page)
