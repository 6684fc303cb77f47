"""The gym's board uses the room it has: JupyterLab at a 1300 px window with the file browser open.

The board (docs/widgets.md) turns to its narrow layout, one row per flag, only when nine flag
columns of readable cards do not fit; in the gym (lesson 05) with the file browser open at
1300 px they do, so the board shows its nine columns, as wide as the output area, and no troop
name is broken inside a word ("Chari/ots").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Lab, assert_no_widget_errors, open_and_run

pytestmark = pytest.mark.browser

#: The board's geometry: its width, the output area's, its columns, and any troop name broken across lines.
_MEASURE = """(root) => {
  const blb = root.querySelector('.blb');
  const board = blb.querySelector('.blb-board');
  const area = root.closest('.jp-OutputArea-output') || root.parentElement;
  const broken = [];
  for (const name of blb.querySelectorAll('.blb-n')) {
    const text = name.firstChild;
    if (!text) continue;
    for (const word of name.textContent.split(' ')) {
      const at = name.textContent.indexOf(word);
      const range = document.createRange();
      range.setStart(text, at); range.setEnd(text, at + word.length);
      const lines = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(word);
    }
  }
  return {
    board: blb.getBoundingClientRect().width,
    area: area.getBoundingClientRect().width,
    columns: getComputedStyle(board).gridTemplateColumns.split(' ').length,
    broken,
  };
}"""


def test_the_gym_board_uses_the_wide_layout_at_1300_px_with_the_file_browser_open(
    lab_page: Page, lab: Lab, output_dir: Path
) -> None:
    page = lab_page
    page.set_viewport_size({"width": 1300, "height": 1000})
    open_and_run(page, lab, "notebooks/05-puzzle-gym.ipynb")
    browser = page.locator("#filebrowser")
    if not browser.is_visible():  # the file browser open, as a teacher or learner has it
        page.locator('.lm-TabBar-tab[data-id="filebrowser"]').click()
    expect(browser).to_be_visible()
    gym = page.locator(".bl-gym").first
    expect(gym.locator(".blb")).to_be_visible(timeout=90_000)
    for _ in range(30):  # the first puzzles compare formations (no board): on to the first with a board
        if gym.locator(".blb .blb-board").count():
            break
        gym.locator(".bl-next-puzzle").click()
        page.wait_for_timeout(300)
    expect(gym.locator(".blb .blb-board")).to_be_visible()
    page.wait_for_timeout(400)  # JupyterLab re-lays out its panels
    gym.scroll_into_view_if_needed()
    gym.screenshot(path=str(output_dir / "gym-1300-file-browser.png"))
    measured = gym.evaluate(_MEASURE)
    assert measured["columns"] == 9, measured
    assert measured["board"] >= 0.9 * min(measured["area"], 1040), measured
    assert measured["broken"] == [], measured
    # where nine columns do not fit (a 700 px window, the file browser still open), one row per flag
    page.set_viewport_size({"width": 700, "height": 1000})
    page.wait_for_timeout(600)
    narrow = gym.evaluate(_MEASURE)
    assert narrow["columns"] == 1 and narrow["board"] >= 0.9 * narrow["area"], narrow
    assert_no_widget_errors(page)
