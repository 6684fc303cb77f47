"""The site's reading view (``read/NAME.html``, docs/site.md): a lesson opened from the front page is a
web page, its saved widgets drawn by ``tools/site/reader.js`` with no kernel and no "Run All".

In headless Chromium, offline (every host but 127.0.0.1 fails, and fails the test): lesson 3 opened
from the front page at 390 and 1400 px on a cold cache (a fresh browser context) and a warm one
answers its puzzle wrong then right, and steps its proof, from the response table its board carries;
every lesson's page fits 360 and 1400 px; and the widget manager's interface (the one a kernel's
backend plugs into) sends, sets, updates and adds models as it says.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import ui
from tests.browser.conftest import OUTPUT, Offline
from tests.browser.conftest import timing as _timing

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser

#: Every lesson of the site and its reading page (tools/build_site.py: ``reader_name``).
LESSONS = sorted(
    p.relative_to(ROOT / "notebooks").as_posix()
    for p in (ROOT / "notebooks").rglob("*.ipynb")
    if ".ipynb_checkpoints" not in p.parts
)


def reading_page(rel: str) -> str:
    return "read/" + rel.removesuffix(".ipynb").removesuffix(".zh").replace("/", "-") + ".html"


def _open_lesson_three(page: Page, site_url: str) -> float:
    """Front page, lesson 3's link: the reading page with its puzzle drawn; seconds from the click."""
    page.goto(f"{site_url}/index.html")
    link = page.locator('#path a.name[href="read/03-claim-proofs.html"]')
    started = time.monotonic()
    link.click()
    expect(page).to_have_url(f"{site_url}/read/03-claim-proofs.html")
    expect(page.locator(f".bl-puzzle {ui.ANSWER_YES}")).to_be_visible(timeout=30_000)
    return time.monotonic() - started


@pytest.mark.parametrize("cache", ["cold", "warm"])
@pytest.mark.parametrize("width", [390, 1400])
def test_lesson_three_from_the_front_page_answers_wrong_then_right_with_no_kernel_R12(
    offline_chromium: Browser, site_url: str, width: int, cache: str
) -> None:
    """No JupyterLab, no "Run All", no kernel: the puzzle's board answers from its saved response
    table, the wrong answer first (yellow 8 is still unseen, R12), then the right one and its proof."""
    offline = Offline(offline_chromium, viewport=(width, 844 if width <= 480 else 1000))
    page = offline.context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        if cache == "warm":  # the same browser has been here before: the site's files are in its cache
            _open_lesson_three(page, site_url)
        seconds = _open_lesson_three(page, site_url)
        # a web page: no JupyterLab, nothing to run, the notebook one click away
        assert page.locator(".jp-Notebook, .jp-LabShell, .lm-MenuBar").count() == 0
        expect(page.get_by_text("Run All", exact=False)).to_have_count(0)
        app = "notebooks/index.html" if width <= 480 else "lab/index.html"
        notebook = page.locator("nav a.bl-open-notebook:visible")
        expect(notebook).to_have_attribute("href", f"../{app}?path=03-claim-proofs.ipynb")

        widget = page.locator(".bl-puzzle").first
        expect(widget.locator(".bl-title")).to_contain_text("Can you claim flag 6?")
        started = time.monotonic()
        widget.locator(ui.ANSWER_YES).click()  # wrong: yellow 8 is still unseen (R12)
        expect(widget.locator(ui.FEEDBACK_WRONG)).to_be_visible(timeout=5_000)
        answered = time.monotonic() - started
        widget.locator(ui.ANSWER_NO).click()
        widget.locator('.blb-evidence [data-action="evidence"][data-card="y8"]').click()
        expect(widget.locator(ui.FEEDBACK_RIGHT)).to_be_visible(timeout=5_000)
        expect(widget.locator(ui.FEEDBACK)).to_contain_text("One end still open")
        expect(widget.locator(ui.EXPLANATION)).to_be_visible()
        expect(widget.locator(ui.STEP_COUNTER)).to_contain_text("step 1 of")
        widget.locator(ui.STEP_NEXT).click()
        expect(widget.locator(ui.STEP_COUNTER)).to_contain_text("step 2 of")
        widget.locator(ui.PUZZLE_STEP_BACK).click()
        expect(widget.locator(ui.STEP_COUNTER)).to_contain_text("step 1 of")
        # a rule id of the proof opens the site's rules page at the rule (a new tab)
        rule = widget.locator(ui.RULE_LINK).first
        rule_id = rule.inner_text().strip()
        with page.context.expect_page() as opened:
            rule.click()
        rules = opened.value
        expect(rules).to_have_url(f"{site_url}/rules.html#{rule_id}")
        expect(rules.locator(f"li#{rule_id}")).to_contain_text(rule_id)
        rules.close()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), width
        _timing(f"reader_lesson3_{width}_{cache}", {"open_s": round(seconds, 2), "first_answer_s": round(answered, 3)})
        OUTPUT.mkdir(exist_ok=True)
        widget.screenshot(path=str(OUTPUT / f"site-reader-lesson-3-{width}.png"))
    finally:
        offline.context.close()
    assert errors == [], errors
    assert not [url for url in requests if "/lab/" in url or "pyodide" in url], "the reading page started a kernel"
    assert offline.outside == [], f"requests to other hosts: {offline.outside}"


#: Every element's box, and the page's, against the viewport (what "runs off the page" means).
OVERFLOW = """() => ({
  page: document.documentElement.scrollWidth - window.innerWidth,
  wide: [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().width > window.innerWidth + 0.5)
    .map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute('class') || ''}`).slice(0, 5),
  widgets: [...document.querySelectorAll('.bl-widget')].map((e) => e.dataset.rendered || 'not drawn'),
  boards: [...document.querySelectorAll('.bl-reader-any')].map((e) => e.dataset.ready || 'not drawn'),
})"""


@pytest.mark.parametrize("width", [360, 1400])
def test_every_lesson_page_fits_the_screen_with_its_widgets_drawn(
    offline_chromium: Browser, site_url: str, width: int
) -> None:
    """Every lesson's reading page (English, zh/, teachers/): nothing runs off the page (the page does
    not scroll sideways, no element is wider than the viewport), every saved widget is drawn, no error."""
    offline = Offline(offline_chromium, viewport=(width, 800))
    page = offline.context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    problems = {}
    try:
        for rel in LESSONS:
            page.goto(f"{site_url}/{reading_page(rel)}")
            expect(page.locator("main h1").first).to_be_visible()
            page.wait_for_function("[...document.querySelectorAll('.bl-reader-any')].every(e => e.dataset.ready)")
            found = page.evaluate(OVERFLOW)
            drawn = all(w == "true" for w in found["widgets"]) and all(b == "true" for b in found["boards"])
            if found["page"] > 0 or found["wide"] or not drawn:
                problems[rel] = found
    finally:
        offline.context.close()
    assert problems == {}, problems
    assert errors == [], errors
    assert offline.outside == [], f"requests to other hosts: {offline.outside}"


#: Loads reader.js in a reading page and draws a small saved tree with a backend that records what
#: it is told (or none); returns what it drew and what the backend heard.
PROBE = (Path(__file__).parent / "reader_probe.js").read_text(encoding="utf-8")
INTERFACE = "\n".join(line for line in PROBE.splitlines() if not line.startswith("//"))


@pytest.mark.parametrize("live", [False, True], ids=["saved-no-kernel", "with-a-backend"])
def test_reader_widget_manager_keeps_its_interface(offline_chromium: Browser, site_url: str, live: bool) -> None:
    """``renderWidget(el, states, rootId, backend)``: the saved tree drawn (a rule link to the rules
    page); with a backend a button's click, a menu's change, the AnyModel's send and save_changes reach
    it; with none the controls are refused (disabled) and the AnyModel's send goes nowhere; and
    ``handle.update``/``handle.add`` redraw, add a child and hide by layout, keeping the board drawn once;
    ``handle.custom`` delivers a kernel's message to the module."""
    offline = Offline(offline_chromium)
    page = offline.context.new_page()
    try:
        page.goto(f"{site_url}/read/00-the-game-in-ten-minutes.html")
        out = page.evaluate(INTERFACE, [live])
    finally:
        offline.context.close()
    assert out["html"] == '<b>saved</b> <a href="../rules.html#R12">R12</a>'
    assert out["width"] == "300px"
    assert out["disabled"] is (not live)
    assert out["any"] == "n=2"  # the module's own set draws at once, kernel or not
    expected_told = [
        ["send", "button", {"event": "click"}],
        ["set", "menu", {"index": 1}],
        ["send", "any", {"tapped": 1}],
        ["set", "any", {"n": 2}],
    ]
    assert out["told"] == (expected_told if live else [])
    assert out["after"] == {
        "html": "<i>from the kernel</i>",
        "any": "n=7",
        "added": True,
        "heard": '{"pong":true}',  # handle.custom: a kernel's message reaches the module's msg:custom
        "hidden": "none",
        "sameBoard": 1,
    }
