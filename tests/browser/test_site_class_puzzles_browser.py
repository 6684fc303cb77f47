"""The teacher's puzzles in front of the class: a site built with ``battleline-lab site --puzzles``.

A teacher with the package installed (no checkout) builds the course site with their own small
set (``tests/data/class-puzzles``: two puzzles of their own) through the package's command; the
site's front page links the set's gym page, and that gym, opened offline in Chromium, serves one
of the teacher's puzzles (by its title) and answers a tap with the engine's verdict.  One build
and one page: the build is the ``class_site`` fixture (tests/browser/conftest.py, the same build
code as the course site's), and the page is opened once.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser import ui
from tests.browser.conftest import OUTPUT, Offline, assert_no_widget_errors, site_open, site_run_all

pytestmark = pytest.mark.browser

#: The teacher's puzzles' titles (tests/data/class-puzzles): no lesson or library puzzle has one.
TEACHERS_TITLES = ("Ms Lee, week 1: flag 5", "Ms Lee, week 1: flag 3")
#: each one's proof, worked out by hand: a card they could still get (R12): blue 9 (blue 8-9-10
#: beats red 3-4-5), yellow 8 (yellow 8-9-10 beats green 6-7-8)
GHOSTS = {"Ms Lee, week 1: flag 5": "b9", "Ms Lee, week 1: flag 3": "y8"}


def test_site_built_with_the_teachers_puzzles_serves_them_in_its_gym(
    offline_chromium: Browser, class_site_url: str
) -> None:
    offline = Offline(offline_chromium, viewport=(1300, 1000))
    page = offline.context.new_page()
    page.set_default_timeout(60_000)
    page.on("dialog", lambda dialog: dialog.accept())
    try:
        page.goto(f"{class_site_url}/index.html")
        link = page.locator("#class-gym a.name.wide")
        expect(link).to_have_attribute("href", "lab/index.html?path=class-puzzles.ipynb")

        site_open(page, class_site_url, "class-puzzles.ipynb")
        site_run_all(page)
        gym = page.locator(ui.GYM)
        expect(gym).to_be_visible(timeout=60_000)
        title = gym.locator(ui.PUZZLE).locator(ui.TITLE).first
        expect(title).to_be_visible(timeout=60_000)
        shown = title.inner_text()
        assert any(name in shown for name in TEACHERS_TITLES), shown

        # both of the teacher's puzzles ask for a claim that cannot be made yet (R12): "yes" is wrong
        puzzle = gym.locator(ui.PUZZLE).first
        puzzle.locator(ui.ANSWER_YES).click()
        expect(puzzle.locator(ui.FEEDBACK_WRONG)).to_be_visible(timeout=60_000)
        puzzle.locator(ui.ANSWER_NO).click()
        ghost = next(card for name, card in GHOSTS.items() if name in shown)
        puzzle.locator(f'.blb-evidence [data-action="evidence"][data-card="{ghost}"]').click()
        expect(puzzle.locator(ui.FEEDBACK_RIGHT)).to_be_visible(timeout=60_000)
        assert_no_widget_errors(page)
        OUTPUT.mkdir(exist_ok=True)
        gym.screenshot(path=str(OUTPUT / "site-class-gym.png"))
    finally:
        offline.context.close()
    assert offline.outside == [], f"requests to other hosts: {offline.outside}"
