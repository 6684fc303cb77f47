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
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Request, expect

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, OUTPUT, _free_port, assert_no_widget_errors

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
KERNEL_START = 240_000  # ms: Pyodide's kernel can take a long time on a loaded machine
BUDGET_MB = 60


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built as ``./dev site`` builds it (downloads cached in ``.site-cache/``)."""
    out = tmp_path_factory.mktemp("site") / "_site"
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_site.py"), "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-4000:]
    seconds = time.monotonic() - started
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    _timing("build_seconds", round(seconds, 1))
    _timing("site_mb", round(size / 1e6, 1))
    assert size < BUDGET_MB * 1e6, f"the site is {size / 1e6:.1f} MB (budget {BUDGET_MB} MB)"
    return out


@pytest.fixture(scope="session")
def site_url(site: Path) -> Iterator[str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        import urllib.request

        while True:
            try:
                urllib.request.urlopen(url + "/index.html", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the static server did not start") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _timing(key: str, value: float) -> None:
    OUTPUT.mkdir(exist_ok=True)
    path = OUTPUT / "site-timings.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data[key] = value
    path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"site: {key} = {value}")


@pytest.fixture(scope="session")
def offline_chromium(sync_pw: Playwright) -> Iterator[Browser]:
    """Chromium whose only way out is a proxy on a closed local port: every request to a host
    other than 127.0.0.1 (loopback is never proxied) fails in the browser itself.

    (Playwright's ``context.route``/``page.route`` cannot be used here: with any route installed
    the Pyodide kernel's web worker never loads Pyodide, on Playwright 1.65 with JupyterLite's
    service worker; blocking the service worker instead leaves the site without its file drive.)
    """
    browser = sync_pw.chromium.launch(
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        proxy={"server": f"http://127.0.0.1:{_free_port()}", "bypass": "127.0.0.1"},
    )
    try:
        yield browser
    finally:
        browser.close()


class Offline:
    """A browser context that records every request not to 127.0.0.1 (the proxy makes each fail)."""

    def __init__(self, browser: Browser) -> None:
        self.outside: list[str] = []
        self.context: BrowserContext = browser.new_context(viewport={"width": 1280, "height": 1000})
        self.context.on("request", self._seen)

    @staticmethod
    def local(url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in ("data", "blob") or parts.hostname == "127.0.0.1"

    def _seen(self, request: Request) -> None:
        if not self.local(request.url) and request.url not in self.outside:
            self.outside.append(request.url)


def _open_lesson(page: Page, url: str) -> float:
    """Open the lesson, wait for its kernel, Run All Cells; returns seconds until the widget is live."""
    started = time.monotonic()
    page.goto(f"{url}/lab/index.html?path={LESSON}")
    page.locator(".jp-Notebook").first.wait_for(timeout=120_000)
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=KERNEL_START)
    _run_all(page)
    return time.monotonic() - started


def _run_all(page: Page, *, puzzle: bool = True) -> None:
    queued = page.locator(".jp-CodeCell .jp-InputPrompt").filter(has_text="*")
    # queued cells show [*] at once; the run is over when none does.  A Run All given the moment
    # the kernel first reports idle is now and then dropped by the page (no cell is ever queued,
    # seen in about one run in three): give it again, at most twice more, only if nothing was queued.
    for attempt in range(3):
        page.locator(".lm-MenuBar-item").get_by_text("Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        try:
            expect(queued).not_to_have_count(0, timeout=10_000)
            break
        except AssertionError:
            if attempt == 2:
                raise
    expect(queued).to_have_count(0, timeout=KERNEL_START)
    if puzzle:
        expect(page.locator(".bl-puzzle").first).to_be_visible(timeout=60_000)


def _run_code(page: Page, code: str) -> str:
    """Add a cell under the last one, run ``code`` (one line) there, and return its output text.

    The cell is found again by a marker comment typed with the code: after a reload JupyterLab may
    not have drawn the last cell yet, so "the cell before the last" could be another one (seen: a
    saved widget's "Loading widget..." read instead of the output).
    """
    marker = f"bl-probe-{uuid.uuid4().hex[:12]}"
    page.locator(".jp-Cell").last.locator(".jp-InputPrompt").click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")  # a new cell below, in edit mode after Enter
    page.keyboard.press("Enter")
    page.keyboard.type(f"{code}  # {marker}")
    page.keyboard.press("Shift+Enter")
    cell = page.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text=marker))
    output = cell.locator(".jp-OutputArea-output")
    expect(output.first).to_be_visible(timeout=60_000)
    # the output area appears before its text; and inner_text() is empty for a cell JupyterLab has
    # not drawn (off screen), so wait for text in the DOM and read it with text_content()
    expect(output.first).to_contain_text(re.compile(r"\S"), timeout=60_000)
    return output.first.text_content() or ""


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
        expect(widget.locator(".bl-title")).to_contain_text("One end still open")  # the headline, once solved
        assert_no_widget_errors(page)
        OUTPUT.mkdir(exist_ok=True)
        widget.screenshot(path=str(OUTPUT / "site-lesson-3.png"))

        page.reload()
        page.locator(".jp-Notebook").first.wait_for(timeout=120_000)
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=KERNEL_START)
        shown = _run_code(
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
        page.goto(f"{site_url}/lab/index.html?path={lesson}")
        page.locator(".jp-Notebook").first.wait_for(timeout=120_000)
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=KERNEL_START)
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
