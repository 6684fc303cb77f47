"""The board component on the JupyterLite site, offline: lesson 06's game played by taps (issue 21).

The site ships anywidget's front end (in the build venv) and its wheel (in the Pyodide kernel);
the component's ES module comes from the widget's state, so nothing is fetched from any host.
This opens lesson 06 on the built site with every request outside 127.0.0.1 failing, runs it,
and plays moves in the learner's game through the hooks: a tapped card lights its flags, the
flag plays it, the deck draws and the bot replies.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.test_site_browser import KERNEL_START, Offline, _run_all, offline_chromium, site, site_url

pytestmark = pytest.mark.browser

__all__ = ["offline_chromium", "site", "site_url"]  # the site's fixtures, used here too


def test_the_game_is_played_by_taps_on_the_site_offline(
    offline_chromium: Browser, site_url: str, output_dir: Path
) -> None:
    offline = Offline(offline_chromium)
    page = offline.context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(f"{site_url}/lab/index.html?path=06-play-a-game.ipynb")
        page.locator(".jp-Notebook").first.wait_for(timeout=120_000)
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=KERNEL_START)
        _run_all(page, puzzle=False)
        game = page.locator(".bl-game").last  # the learner's own game, at the end of the lesson
        board = game.locator(".blb")
        expect(board.locator('[data-zone="hand"]').first).to_be_visible(timeout=120_000)
        for move in range(3):
            card = board.locator('[data-zone="hand"]:not([aria-disabled="true"])').first
            notation = card.get_attribute("data-card")
            card.click()
            lit = board.locator('.blb-flag[data-legal="true"]')
            expect(lit.first).to_be_visible()
            flag = lit.first.get_attribute("data-flag")
            lit.first.click()
            played = board.locator(f'[data-card="{notation}"][data-zone="board"][data-flag="{flag}"]')
            expect(played).to_have_count(1, timeout=60_000)
            end = board.locator('[data-action="end"]')
            if end.count():
                end.click()
            lines = game.locator(".bl-game-log .bl-log-line")
            before = lines.count()
            board.locator('[data-action="draw"][data-deck="troops"]:not([aria-disabled="true"])').click()
            # our draw, then the bot's move and its draw
            expect(lines.nth(before + 2)).to_be_attached(timeout=60_000)
            expect(board.locator(".blb-prompt")).to_contain_text("South (you)")
            if move == 0:
                game.screenshot(path=str(output_dir / "site-game.png"))
        assert "Error displaying widget" not in page.content()
    finally:
        offline.context.close()
    assert offline.outside == [], f"requests to other hosts: {offline.outside}"
