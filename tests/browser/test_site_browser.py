"""The JupyterLite site (``./dev site``) in headless Chromium, with no host but 127.0.0.1.

A session fixture builds the site with ``tools/build_site.py`` (into a temporary folder, re-using
``.site-cache/``), serves it with ``python -m http.server`` on 127.0.0.1; Chromium is given a
proxy on a closed port for every host but loopback, so any other request fails, and each one is
recorded: the test fails if there was one.  In the site a learner
opens lesson 3, runs it, answers its puzzle wrongly and rightly, reloads the page, and the
progress is still there (the JSON-lines store on JupyterLite's browser-kept drive).  And every
lesson of notebooks/ (English, zh/, teachers/) runs there, all cells, with no error output.  The timings
go to ``test-output/site-timings.json`` (docs/site.md reports them).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import ui
from tests.browser.conftest import (
    KERNEL_START,
    OUTPUT,
    Offline,
    assert_no_widget_errors,
    run_code,
    site_kernel_idle,
    site_open,
    site_run_all,
)
from tests.browser.conftest import timing as _timing

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser

LESSON = "03-claim-proofs.ipynb"
#: Every lesson of the site (the checkout's notebooks/, as tools/build_site.py copies them).
LESSONS = sorted(
    p.relative_to(ROOT / "notebooks").as_posix()
    for p in (ROOT / "notebooks").rglob("*.ipynb")
    if ".ipynb_checkpoints" not in p.parts
)
PUZZLE = "one-end-open"  # lesson 3's puzzle: "Can you claim flag 6 now?" No (R12)


def _open_lesson(page: Page, url: str) -> float:
    """Open the lesson, wait for its kernel, Run All Cells; returns seconds until the widget is live."""
    started = time.monotonic()
    site_open(page, url, LESSON)
    _run_all(page)
    return time.monotonic() - started


def _run_all(page: Page, *, puzzle: bool = True) -> None:
    site_run_all(page)
    if puzzle:
        expect(page.locator(".bl-puzzle").first).to_be_visible(timeout=60_000)


def test_site_runs_lesson_three_offline_and_keeps_progress_over_a_reload(
    offline_chromium: Browser, site_url: str
) -> None:
    offline = Offline(offline_chromium)
    page = offline.context.new_page()
    page.set_default_timeout(60_000)
    page.on("dialog", lambda dialog: dialog.accept())  # "leave the page?" on reload: yes
    try:
        _timing("first_widget_seconds", round(_open_lesson(page, site_url), 1))
        widget = page.locator(".bl-puzzle").first
        expect(widget.locator(".bl-title")).to_contain_text("Can you claim flag 6?")  # neutral until solved

        widget.locator(".bl-answer-yes").click()  # wrong: yellow 8 is still unseen (R12)
        expect(widget.locator(".bl-feedback.bl-state-wrong")).to_be_visible(timeout=60_000)
        widget.locator(".bl-answer-no").click()
        expect(widget.locator(".bl-feedback.bl-state-right")).to_be_visible(timeout=60_000)
        # the headline, once solved, with the feedback (the title above the board keeps its place)
        expect(widget.locator(".bl-feedback")).to_contain_text("One end still open")
        # the proof opens after the right answer, and Next steps through it
        expect(widget.locator(ui.EXPLANATION)).to_be_visible()
        expect(widget.locator(ui.STEP_COUNTER)).to_contain_text("step 1 of")
        widget.locator(ui.STEP_NEXT).click()
        expect(widget.locator(ui.STEP_COUNTER)).to_contain_text("step 2 of")
        assert_no_widget_errors(page)
        OUTPUT.mkdir(exist_ok=True)
        widget.screenshot(path=str(OUTPUT / "site-lesson-3.png"))

        page.reload()
        page.locator(".jp-Notebook").first.wait_for(timeout=120_000)
        site_kernel_idle(page)
        shown = run_code(
            page,
            "from battleline_lab import progress; "
            f"print(progress.data_dir(), progress.Progress().get({PUZZLE!r}), progress.open_store()[0].where)",
        )
        assert re.search(r"PuzzleRecord\(solved=True, attempts=2, hints=0\)", shown), shown
        assert "/drive/battleline-data" in shown and "progress.jsonl" in shown, shown
    finally:
        offline.context.close()
    assert offline.outside == [], f"requests to other hosts: {offline.outside}"


def test_the_site_has_every_lesson() -> None:
    # 00..07, zh/00..07, teachers/01, teachers/02, zh/teachers/01 and zh/teachers/02: the
    # parametrized test below cannot pass empty
    assert len(LESSONS) == 20, LESSONS
    assert {"zh", "teachers"} <= {name.split("/")[0] for name in LESSONS}


@pytest.mark.parametrize("lesson", LESSONS)
def test_site_runs_every_lesson_offline_without_an_error(offline_chromium: Browser, site_url: str, lesson: str) -> None:
    """Open the lesson in the site, clear its saved outputs, Run All Cells: every code cell ran
    (an exception aborts the cells after it), no output is an error or a traceback, and no request
    went to another host."""
    offline = Offline(offline_chromium)
    page = offline.context.new_page()
    page.set_default_timeout(60_000)
    started = time.monotonic()
    try:
        site_open(page, site_url, lesson)
        page.locator(".lm-MenuBar-item").get_by_text("Edit", exact=True).click()
        page.get_by_role("menuitem", name="Clear Outputs of All Cells", exact=True).click()
        expect(page.locator(".jp-OutputArea-output")).to_have_count(0, timeout=30_000)
        _run_all(page, puzzle=False)
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=KERNEL_START)
        seconds = time.monotonic() - started
        stderr = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
        errors = [text for text in stderr.all_text_contents() if re.search(r"Error|Traceback|Exception", text)]
        assert errors == [], f"{lesson}: error output in the site:\n" + "\n---\n".join(e[-3000:] for e in errors)
        assert "Error displaying widget" not in page.content(), f"{lesson}: a widget failed to display"
        # a fresh kernel numbers each cell it runs: one more cell after them gets [code cells + 1]
        # (prompts of cells with a hidden input are not drawn, so they cannot be read one by one)
        code_cells = page.locator(".jp-CodeCell").count()
        page.locator(".jp-Cell").last.click(position={"x": 30, "y": 4})
        page.keyboard.press("Escape")
        page.keyboard.press("b")
        page.keyboard.press("Enter")
        page.keyboard.type("print('ran')")
        page.keyboard.press("Shift+Enter")
        expect(page.locator(".jp-CodeCell").nth(-2).locator(".jp-InputPrompt")).to_have_text(
            f"[{code_cells + 1}]:", timeout=60_000
        )
        _timing(f"lesson_seconds/{lesson}", round(seconds, 1))
    finally:
        offline.context.close()
    assert offline.outside == [], f"{lesson}: requests to other hosts: {offline.outside}"


@pytest.mark.parametrize("width", [320, 390, 1400])
def test_front_page_fits_the_screen_and_its_links_open(offline_chromium: Browser, site_url: str, width: int) -> None:
    """The course's own front page, English and Chinese: no horizontal scroll at 320 px, every link
    shown at this width leads to a page of the site (a lesson link to a lesson the site has); on a
    phone (<= 480 px) the lessons open in the simple notebook view, else in JupyterLab."""
    offline = Offline(offline_chromium, viewport=(width, 800))
    page = offline.context.new_page()
    try:
        for name, title in (("index.html", "Battle Line Lab"), ("zh.html", "古战阵实验室")):
            page.goto(f"{site_url}/{name}")
            expect(page.locator("h1")).to_have_text(title)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
                f"{name} scrolls at {width}"
            )
            script = "els => els.map(e => e.getAttribute('href'))"
            hrefs = [str(h) for h in page.locator("a:visible").evaluate_all(script)]
            # the main link of each entry ("start here" and every lesson): on a phone the simple view
            main = [str(h) for h in page.locator("a.start:visible, a.name:visible").evaluate_all(script)]
            assert len(main) == 11, main  # start here, the path 00-04 and 07, gym, game, the two teachers' lessons
            app = "notebooks/index.html" if width <= 480 else "lab/index.html"
            assert all(h.startswith(app) for h in main), (width, main)
            start = page.locator("a.start:visible").bounding_box()  # a block across the page, not a sliver
            assert start is not None and start["width"] > min(width, 736) * 0.8, (width, start)
            for href in sorted(set(hrefs)):
                response = page.request.get(f"{site_url}/{href}")
                assert response.status == 200, href
                if "?path=" in href:  # the lesson itself is in the site's contents
                    lesson = href.split("?path=")[1]
                    assert page.request.get(f"{site_url}/files/{lesson}").status == 200, lesson
        page.goto(f"{site_url}/rules.html")
        expect(page.locator("main")).to_contain_text("R12")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(OUTPUT / f"site-rules-{width}.png"))
        page.goto(f"{site_url}/index.html")
        page.screenshot(path=str(OUTPUT / f"site-front-{width}.png"), full_page=True)
        # "start here" opens lesson 0 (the notebook view on a phone)
        page.locator("a.start:visible").click()
        expect(page.locator(".jp-Notebook").first).to_be_visible(timeout=120_000)
        expect(page.locator(".jp-Notebook").first).to_contain_text("the game in ten minutes")
        assert ("/notebooks/" in page.url) == (width <= 480), page.url
    finally:
        offline.context.close()
    assert offline.outside == [], f"requests to other hosts: {offline.outside}"


def test_site_gym_saves_and_loads_progress_and_an_unedited_lesson_asks_nothing_on_reload(
    offline_chromium: Browser, site_url: str, tmp_path: Path
) -> None:
    """A lesson only opened is not "modified": a reload asks nothing.  In the gym, "Save my progress"
    downloads the export document and "Load progress" takes one back; the gym says that progress
    is kept in this browser only."""
    offline = Offline(offline_chromium)
    page = offline.context.new_page()
    page.set_default_timeout(60_000)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.accept()))
    try:
        site_open(page, site_url, "05-puzzle-gym.ipynb")
        time.sleep(5)  # the kernel connects and reports its language_info
        page.locator(".jp-MarkdownCell").first.click()  # a user gesture: Chromium asks only after one
        page.reload()
        page.locator(".jp-Notebook").first.wait_for(timeout=120_000)
        assert dialogs == [], f"an unedited lesson asked {dialogs} on reload"

        site_kernel_idle(page)
        site_run_all(page)
        gym = page.locator(ui.GYM)
        expect(gym).to_be_visible(timeout=60_000)
        expect(gym.locator(ui.GYM_STORAGE)).to_contain_text("kept in this browser only")
        gym.locator(ui.GYM_SAVE).click()
        link = gym.locator(".bl-gym-download")
        expect(link).to_be_visible()
        with page.expect_download() as info:
            link.click()
        saved = tmp_path / info.value.suggested_filename
        info.value.save_as(saved)
        document = json.loads(saved.read_text(encoding="utf-8"))
        assert saved.name == "battleline-progress-me.json" and document["format"] == "battleline-lab-progress"

        row = {"learner": "ann", "puzzle_id": "one-end-open", "kind": "answer", "correct": True, "at": 1.0}
        document["attempts"] = [row]
        moved = tmp_path / "from-another-browser.json"
        moved.write_text(json.dumps(document), encoding="utf-8")
        with page.expect_file_chooser() as chooser:
            gym.locator(ui.GYM_LOAD).click()
        chooser.value.set_files(str(moved))
        expect(gym.locator(".bl-gym-transfer")).to_contain_text("Loaded 1 attempts from from-another-browser.json")
        assert_no_widget_errors(page)
    finally:
        offline.context.close()
    assert offline.outside == [], f"requests to other hosts: {offline.outside}"
