"""The game's controls at 360 px in JupyterLab: no label cut, the theme menu, New game asks first.

One page: the game widget in a cell 360 px wide.  Every control under the board (Coach, Suggest a
move, New game, Opponent at my level, the Opponent and Theme menus) shows its whole label, in
English and in Chinese; the Opponent menu's "heuristic" is not clipped.  After a move, Enter on
New game (twice, as a key held down would) only asks; "Keep playing" keeps the game.  A troop's
name on the board is at least 11 px.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Lab, assert_no_widget_errors, open_and_run, until
from tests.browser.test_board_browser import rev, size_cell, wait_redraw, write_notebook

pytestmark = pytest.mark.browser

#: every control's label, and a menu's chosen option, against the room it is drawn in
CUT = """(root) => {
    const out = [];
    for (const b of root.querySelectorAll('.bl-game-controls button')) {
        if (!b.offsetParent || !b.textContent.trim()) continue;
        if (b.scrollWidth > b.clientWidth + 1) out.push(`${b.textContent.trim()}: ${b.scrollWidth} > ${b.clientWidth}`);
    }
    const canvas = document.createElement('canvas').getContext('2d');
    for (const s of root.querySelectorAll('.bl-game-controls select')) {
        if (!s.offsetParent) continue;
        const style = getComputedStyle(s);
        canvas.font = `${style.fontSize} ${style.fontFamily}`;
        const text = s.options[s.selectedIndex].text;
        const need = canvas.measureText(text).width + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
        if (need > s.clientWidth + 1) out.push(`${text}: ${Math.ceil(need)} > ${s.clientWidth}`);
    }
    for (const l of root.querySelectorAll('.bl-game-controls .widget-label')) {
        if (l.offsetParent && l.scrollWidth > l.clientWidth + 1) out.push(`${l.textContent}: label cut`);
    }
    return out;
}"""


def cut_labels(page: Page, game: Locator) -> list[str]:
    return list(page.evaluate(CUT, game.element_handle()))


def test_the_game_controls_at_360_px_theme_and_new_game_asks(lab_page: Page, lab: Lab, output_dir: Path) -> None:
    page = lab_page
    page.set_viewport_size({"width": 800, "height": 1000})
    source = "from battleline_lab.widgets.game import GameWidget\nGameWidget(bot='heuristic', seed=6)"
    open_and_run(page, lab, write_notebook(lab, "game-controls.ipynb", source))
    game = page.locator(".bl-game").first
    board = game.locator(".blb")
    expect(board.locator("[data-zone='hand']").first).to_be_visible(timeout=60_000)
    size_cell(page, game, 360)
    page.wait_for_timeout(500)
    assert cut_labels(page, game) == []
    names = board.locator(".blb-n").evaluate_all("ns => ns.map(n => parseFloat(getComputedStyle(n).fontSize))")
    assert names and min(names) >= 11, names
    game.screenshot(path=str(output_dir / "game-controls-360-en.png"))

    game.locator(".bl-lang button", has_text="中文").click()
    expect(game.locator(".bl-new-game")).to_have_text("新的一局", timeout=15_000)
    page.wait_for_timeout(500)
    assert cut_labels(page, game) == []

    # the theme menu: 楚汉 renames the Leaders, the game goes on
    theme = game.locator(".bl-theme-choice select")
    theme.select_option(label="楚汉")
    until(lambda: theme.evaluate("s => s.options[s.selectedIndex].text") == "楚汉", "the 楚汉 theme chosen")
    page.wait_for_timeout(500)
    assert cut_labels(page, game) == []
    game.screenshot(path=str(output_dir / "game-controls-360-zh.png"))

    # a move by taps, then Enter on New game, twice: it asks, and the game is kept
    before = rev(board)
    board.locator('[data-zone="hand"]:not([aria-disabled="true"])').first.click()
    board.locator('.blb-flag[data-legal="true"]').first.click()
    wait_redraw(page, board, before)
    played = board.locator('[data-zone="board"]').count()
    assert played >= 1
    game.locator(".bl-new-game").focus()
    page.keyboard.press("Enter")
    question = board.locator(".blb-question")
    expect(question).to_contain_text("放弃", timeout=15_000)
    page.keyboard.press("Enter")
    page.wait_for_timeout(800)
    expect(question).to_contain_text("放弃")
    assert board.locator('[data-zone="board"]').count() == played  # nothing discarded
    before = rev(board)
    board.locator('[data-action="keep-game"]').click()
    wait_redraw(page, board, before)
    expect(board.locator(".blb-question")).to_have_count(0)
    assert board.locator('[data-zone="board"]').count() == played
    assert_no_widget_errors(page)
