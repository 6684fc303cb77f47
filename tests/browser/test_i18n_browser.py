"""The Chinese lesson in a real browser: the widget renders in Chinese and the bl-lang toggle switches it live.

nbval only proves that the kernel side switches language; here a learner opens
``notebooks/zh/03-claim-proofs.zh.ipynb`` in JupyterLab, answers the puzzle wrongly (the Chinese
counterexample), then clicks ``English`` on the ``bl-lang`` toggle and sees the same state in
English, and back.  On the site the same checks run in the sweep over every lesson
(``test_site_browser.py``), on its opening of that lesson.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser import ui
from tests.browser.conftest import Front, assert_no_widget_errors, open_and_run, until

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_chinese_lesson_widget_and_language_toggle(front_page: Page, frontend: Front, output_dir: Path) -> None:
    """In JupyterLab; on the site the sweep over every lesson makes the same checks on its own
    opening of the Chinese lesson 3 (``test_site_browser.py``: one Pyodide kernel fewer)."""
    page = front_page
    open_and_run(page, frontend, "notebooks/zh/03-claim-proofs.zh.ipynb")
    chinese_puzzle_and_its_toggle(page, frontend.name, output_dir)


def chinese_puzzle_and_its_toggle(page: Page, front: str, output_dir: Path) -> None:
    """The Chinese lesson 3, run in the front end ``front``: its puzzle in Chinese, answered wrongly,
    switched to English and back, then answered rightly."""
    puzzle = page.locator(".bl-puzzle")
    expect(puzzle).to_be_visible(timeout=60_000)
    question = puzzle.locator(".bl-question")
    expect(question).to_contain_text("你现在能宣称夺取6号旗吗？")
    expect(puzzle.locator(".bl-title-text")).to_have_text("你能宣称夺取6号旗吗？")  # neutral before the answer

    puzzle.locator(".bl-answer-yes").click()
    feedback = puzzle.locator(".bl-feedback")
    expect(feedback).to_contain_text("还不对", timeout=15_000)
    expect(feedback).to_contain_text("6号旗")  # where to look, not the answer: no card named, none drawn
    expect(feedback).not_to_contain_text("黄8")
    assert puzzle.locator(".bl-board-view .bl-ghost").count() == 0
    puzzle.locator(".bl-solution").click()  # "显示答案": the solution and its counterexample
    expect(feedback).to_contain_text("黄8", timeout=15_000)
    until(lambda: puzzle.locator(".bl-board-view .bl-ghost").count() > 0, "the counterexample's dashed cards")
    ghosts = puzzle.locator(".bl-board-view .bl-ghost").count()
    puzzle.scroll_into_view_if_needed()
    puzzle.screenshot(path=str(output_dir / f"i18n-zh-{front}.png"))

    puzzle.locator(".bl-lang button", has_text="English").click()
    expect(question).to_contain_text("Can you claim flag 6 now?", timeout=15_000)
    expect(feedback).to_contain_text("The solution")  # shown on request, in the language chosen
    expect(feedback).to_contain_text("y8")
    expect(puzzle.locator(".bl-title-text")).to_have_text("Can you claim flag 6?")  # still unsolved: no headline
    expect(puzzle.locator(".bl-answer-no")).to_have_text("No, not yet")
    assert puzzle.locator(".bl-board-view .bl-ghost").count() == ghosts, "switching language changed the board"
    puzzle.screenshot(path=str(output_dir / f"i18n-toggle-en-{front}.png"))

    puzzle.locator(".bl-lang button", has_text="中文").click()
    expect(question).to_contain_text("你现在能宣称夺取6号旗吗？", timeout=15_000)
    puzzle.locator(".bl-answer-no").click()  # right, late: the solution showed the proof, so no card is asked
    expect(feedback).to_contain_text("这次对了", timeout=15_000)  # right, but the first answer counted
    # the headline, once solved, with the feedback (the title above the board keeps its place)
    expect(feedback).to_contain_text("还有一端开着")
    expect(puzzle.locator(".bl-title-text")).to_have_text("你能宣称夺取6号旗吗？")
    expect(puzzle.locator(ui.EXPLANATION)).to_be_visible()  # the proof appears (it stayed hidden on the site)
    expect(puzzle.locator(".bl-step-text")).to_contain_text("你的阵型")
    expect(puzzle.locator(".bl-note")).to_contain_text("黄5亮在桌面上")
    assert_no_widget_errors(page)
