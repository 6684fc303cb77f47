"""The three-player game (R32-R37) in the browser: one game to its end by taps in JupyterLab and on the
site (the same code, :func:`three_player_game_by_taps`), and one width sweep, 360 and 1400 px (in
JupyterLab, on the game's page: a fresh game in a new cell under the finished one, not a notebook, a
page and a kernel of its own).  On the site the game goes in a new cell under lesson 4, once the sweep
over every lesson (``test_site_browser.py``) has run it on its own page and kernel.

The widget is ``GameWidget(players=3, bots=["heuristic", "random"])``; the taps are the two-player
board test's (:func:`tests.browser.test_board_browser.play_game`: claim what is marked claimable,
draw when the deck is on offer, end claiming, else the first card that lights a flag, then that
flag), so the three-player board keeps the same hooks.  The kernel decides everything.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Front, assert_no_widget_errors, layout_settled, run_code
from tests.browser.test_board_browser import check_fits, open_game, over, play_game, size_cell

pytestmark = pytest.mark.browser

CODE = "from battleline_lab.widgets.game import GameWidget; GameWidget(players=3, bots=['heuristic', 'random'], seed=4)"


def fronts_apart(page: Page, game: Locator) -> list[tuple[float, float]]:
    """The three fronts: none overlaps another, every card, slot and flag lies inside its front; returns
    each front's (top, left)."""
    boxes = page.evaluate(
        """(root) => [...root.querySelectorAll('[data-front]')].map(f => {
             const r = f.getBoundingClientRect();
             const inside = [...f.querySelectorAll('.blb-card, .blb-slot, .blb-flag')].every(e => {
               const b = e.getBoundingClientRect();
               return b.left >= r.left - 1 && b.right <= r.right + 1 && b.top >= r.top - 1 && b.bottom <= r.bottom + 1;
             });
             return [r.left, r.top, r.right, r.bottom, inside, f.querySelectorAll('.blb-flag').length];
           })""",
        game.locator(".blb").element_handle(),
    )
    assert len(boxes) == 3
    for k, (left, top, right, bottom, inside, flags) in enumerate(boxes):
        assert inside, f"front {k}: something sticks out of it"
        assert flags == 3
        for left2, top2, right2, bottom2, _, _ in boxes[k + 1 :]:
            apart = right <= left2 + 1 or right2 <= left + 1 or bottom <= top2 + 1 or bottom2 <= top + 1
            assert apart, f"front {k} overlaps another"
    return [(top, left) for left, top, *_ in boxes]


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_R36_a_three_player_game_by_taps_to_its_end(front_page: Page, frontend: Front, output_dir: Path) -> None:
    """In JupyterLab: the game to its end by taps (:func:`three_player_game_by_taps`), then on the same
    page the three fronts at 360 and 1400 px (:func:`_R32_the_three_fronts_fit_360_and_1400_px`).  On
    the site the sweep over every lesson plays the game on its own run of lesson 4
    (``test_site_browser.py``: one Pyodide kernel and one page fewer)."""
    three_player_game_by_taps(front_page, frontend, output_dir)
    _R32_the_three_fronts_fit_360_and_1400_px(front_page, output_dir)


def three_player_game_by_taps(page: Page, frontend: Front, output_dir: Path) -> None:
    """The game to its end by taps, in a notebook of its own (on the site in a new cell under the run
    lesson the page holds), the window 1400 x 900 px (it is left so)."""
    page.set_viewport_size({"width": 1400, "height": 900})
    open_game(page, frontend, "three-game.ipynb", CODE)
    game = page.locator(".bl-three-game").last  # the newest game is the last
    board = game.locator(".blb")
    expect(board.locator("[data-zone='hand']").first).to_be_visible(timeout=60_000)
    assert board.get_attribute("data-mode") == "three"
    labels = [str(f.get_attribute("aria-label")) for f in board.locator("[data-front]").all()]
    assert [label.split(":")[0] for label in labels] == ["Front A–B", "Front B–C", "Front C–A"]
    assert "A (you)" in labels[0] and "B (heuristic bot)" in labels[1] and "C (random bot)" in labels[2]
    start = time.monotonic()
    taps = play_game(page, game, keyboard=False)
    assert over(game)
    banner = game.locator(".bl-game-over").inner_text()
    assert ("wins by" in banner or "Nobody wins" in banner) and ("(R36)" in banner or "(R37)" in banner), banner
    expect(board.locator('[data-role="feedback"]')).to_contain_text(banner.strip())
    page.screenshot(path=str(output_dir / f"three-game-{frontend.name}-end.png"))
    print(f"{frontend.name} three players: {taps} taps in {time.monotonic() - start:.1f} s")
    assert_no_widget_errors(page)


def _R32_the_three_fronts_fit_360_and_1400_px(page: Page, output_dir: Path) -> None:
    """The three fronts fit 360 and 1400 px, nothing cut or overlapping: a fresh game in a new cell
    under the last one, a card chosen (its six flags lit)."""
    page.set_viewport_size({"width": 1400, "height": 900})
    run_code(page, CODE)
    game = page.locator(".bl-three-game").last  # the newest game is the last
    game.scroll_into_view_if_needed()
    board = game.locator(".blb")
    expect(board.locator("[data-zone='hand']").first).to_be_visible(timeout=60_000)
    board.locator('[data-zone="hand"]:not([aria-disabled="true"])').first.click()  # a card chosen: flags lit
    expect(board.locator('.blb-flag[data-legal="true"]')).to_have_count(6)
    for width in (360, 1400):
        if width < 600:
            size_cell(page, game, width)
        else:
            page.set_viewport_size({"width": width, "height": 900})
            layout_settled(page)  # laid out again: the panel fits, no box moves
        check_fits(page, game, width)
        corners = fronts_apart(page, game)
        rows = len({round(top) for top, _ in corners})
        box = board.bounding_box()
        assert box is not None
        assert rows == (1 if box["width"] >= 900 else 3), (width, box["width"], corners)  # side by side, or stacked
        game.screenshot(path=str(output_dir / f"three-width-{width}.png"))
    assert_no_widget_errors(page)
