"""A lesson exported with the plain ``jupyter nbconvert --to html`` answers its puzzle offline (docs/site.md
"Exported to HTML").

Lessons 3 (English and ``zh/``) and 6 are exported into a temporary folder and opened from disk
(``file://``) in headless Chromium with every request that is not for a file aborted (nbconvert's
own page asks CDNs for require.js, MathJax and its widget manager: those fail, as offline).  The
lesson's last, hidden cell (``tools/run_lessons.py``) draws the saved widgets with the reading
view's widget manager: at 1400 and 390 px the board draws, a wrong answer shows its feedback (yellow
8 is still unseen, R12), a hint shows, the right answer opens a proof that steps forward and back;
the Chinese lesson answers in Chinese; the game (lesson 6) shows as saved, its controls disabled,
with the sentence saying it needs a kernel.  One browser context for all of it (Chromium's CPU is
the CI's bottleneck).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser import ui
from tests.browser.conftest import timing

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser

EXPORTED = ("03-claim-proofs.ipynb", "zh/03-claim-proofs.zh.ipynb", "06-play-a-game.ipynb")
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The lessons of :data:`EXPORTED` as nbconvert's HTML files (its plain command, nothing added)."""
    out = tmp_path_factory.mktemp("export")
    home = out / "home"
    env = dict(
        os.environ,
        HOME=str(home),
        JUPYTER_CONFIG_DIR=str(home / "jupyter-config"),
        JUPYTER_DATA_DIR=str(home / "jupyter-data"),
        IPYTHONDIR=str(home / "ipython"),
    )
    lessons = [str(ROOT / "notebooks" / rel) for rel in EXPORTED]
    command = [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--output-dir", str(out), *lessons]
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    return {rel: out / (Path(rel).stem + ".html") for rel in EXPORTED}


def _drawn(page: Page, path: Path) -> float:
    """Open an exported lesson from disk; seconds until its first board is drawn."""
    started = time.monotonic()
    page.goto(path.as_uri())
    expect(page.locator(".bl-widget .bl-reader-any[data-ready='true']").first).to_be_visible(timeout=30_000)
    return time.monotonic() - started


def _lesson_three(page: Page, path: Path, width: int, zh: bool) -> None:
    """Lesson 3's puzzle answered from its saved response table: wrong, a hint, right, the proof stepped."""
    seconds = _drawn(page, path)
    widget = page.locator(f".bl-widget {ui.PUZZLE}").first
    title = widget.locator(ui.TITLE)
    expect(title).to_contain_text("你能" if zh else "Can you claim flag 6?")
    # the export cell shows nothing of itself (its code is a comment), and no widget tag is left for
    # nbconvert's own widget manager to draw a second time
    expect(page.locator("[id='cell-id=bl-html-export']")).to_be_hidden()
    assert page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count() == 0
    started = time.monotonic()
    widget.locator(ui.ANSWER_YES).click()  # wrong: yellow 8 is still unseen (R12)
    expect(widget.locator(ui.FEEDBACK_WRONG)).to_be_visible(timeout=5_000)
    answered = time.monotonic() - started
    if zh:
        assert CJK.search(widget.locator(ui.FEEDBACK).inner_text()), "the Chinese lesson answers in Chinese"
    widget.locator(ui.PUZZLE_HINT).first.click()
    expect(widget.locator(".blb-hint-list li").first).to_be_visible(timeout=5_000)
    if zh:
        assert CJK.search(widget.locator(".blb-hint-list li").first.inner_text())
    widget.locator(ui.ANSWER_NO).click()
    widget.locator('.blb-evidence [data-action="evidence"][data-card="y8"]').click()
    expect(widget.locator(ui.FEEDBACK_RIGHT)).to_be_visible(timeout=5_000)
    expect(widget.locator(ui.EXPLANATION)).to_be_visible()
    first = widget.locator(ui.STEP_COUNTER).inner_text()
    widget.locator(ui.STEP_NEXT).click()
    expect(widget.locator(ui.STEP_COUNTER)).not_to_have_text(first)
    widget.locator(ui.PUZZLE_STEP_BACK).click()
    expect(widget.locator(ui.STEP_COUNTER)).to_have_text(first)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), width
    name = "zh-03" if zh else "03"
    timing(f"export_lesson_{name}_{width}", {"board_s": round(seconds, 2), "first_answer_s": round(answered, 3)})


def test_exported_lessons_answer_offline_and_the_game_says_it_needs_a_kernel_R12(
    chromium: Browser, exported: dict[str, Path]
) -> None:
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    outside: list[str] = []

    def only_files(route: Route) -> None:
        url = route.request.url
        if url.startswith(("file:", "blob:", "data:")):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    context.route("**/*", only_files)
    # each opening as a newcomer's: the board keeps the taps its table answered in the browser's storage
    # (a file:// page's is shared by every file) and shows them again when the same puzzle is opened
    context.add_init_script("try { localStorage.clear(); } catch (error) {}")
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        for width in (1400, 390):
            page.set_viewport_size({"width": width, "height": 1000 if width > 480 else 844})
            _lesson_three(page, exported["03-claim-proofs.ipynb"], width, zh=False)
        _lesson_three(page, exported["zh/03-claim-proofs.zh.ipynb"], 390, zh=True)

        page.set_viewport_size({"width": 1400, "height": 1000})
        _drawn(page, exported["06-play-a-game.ipynb"])
        game = page.locator(".bl-widget[data-needs-python='true']")
        expect(game).to_have_count(1)
        expect(game.locator(ui.GAME)).to_be_visible()  # drawn as it was saved
        assert game.evaluate("(el) => el.inert") is True  # nothing in it takes a tap
        buttons = game.locator("button.jupyter-button")
        assert buttons.count() >= 3
        assert buttons.evaluate_all("(all) => all.every((b) => b.disabled)")
        note = page.locator(".bl-widget[data-needs-python='true'] + p.bl-needs-python")
        expect(note).to_have_text("The buttons of this widget need Python: open the lesson as a notebook to use them.")
    finally:
        context.close()
    assert errors == [], errors
    # the only requests off the disk are the CDN scripts nbconvert's own page names (all aborted)
    pages = "".join(path.read_text(encoding="utf-8") for path in exported.values())
    assert outside and all(url.split("?")[0] in pages for url in outside), outside
