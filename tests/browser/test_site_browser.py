"""The JupyterLite site (``./dev site``) in headless Chromium, with no host but 127.0.0.1.

A session fixture builds the site with ``tools/build_site.py`` (into a temporary folder, re-using
``.site-cache/``), serves it with ``python -m http.server`` on 127.0.0.1; Chromium is given a
proxy on a closed port for every host but loopback, so any other request fails, and each one is
recorded: the test fails if there was one.  Every lesson of notebooks/ (English, zh/, teachers/)
runs there, all cells, with no error output, each in one opening on a Pyodide kernel of its own
(most of the CPU time; most lessons one after another in one page of the site per worker, which
saves the app's start) that also serves the checks that need that lesson: its saved widgets shown
as pictures while the kernel starts; the gym's lesson reloaded unedited asks nothing; once run,
lesson 3's puzzles fit every width and answer by keyboard (its puzzle answered and kept over a
reload, in the JSON-lines store on JupyterLite's browser-kept drive, is the learner's journey's:
test_site_journey_browser.py); the gym saves and loads progress, sets a damaged store aside, shows a wrong answer's
counterexample and the proof's steps; lesson 1's explorer answers, lesson 6's game plays and fits
every width, the Chinese lesson 3 switches language, and the click-latency benchmark times the
gym's and the game's clicks; and, in new cells under a run lesson that needs no checks of its own
(lessons 0, 2, 4, 7 and 8), two whole games on the board, the puzzle editor, the three-player game,
puzzles of every kind and a play puzzle (:data:`AFTER_THE_RUN`; in JupyterLab those are tests of
their own files).  The timings go to ``test-output/site-timings.json`` (docs/site.md reports them).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import ui
from tests.browser.conftest import (
    KERNEL_START,
    OUTPUT,
    Front,
    Offline,
    assert_no_widget_errors,
    run_code,
    site_kernel_idle,
    site_run_all,
)
from tests.browser.conftest import timing as _timing
from tests.browser.test_board_browser import whole_games
from tests.browser.test_click_latency_browser import site_game_clicks, site_gym_clicks
from tests.browser.test_editor_browser import editor_on_the_site
from tests.browser.test_game_browser import a_few_moves_by_tapping
from tests.browser.test_i18n_browser import chinese_puzzle_and_its_toggle
from tests.browser.test_layout_a11y_browser import (
    game_fits_every_width,
    puzzle_by_keyboard_calm_layout_and_toggles_under_columns,
)
from tests.browser.test_lessons_in_browser import (
    explorer_responds,
    gym_wrong_answer_counterexample_right_answer_and_proof_steps,
)
from tests.browser.test_play_puzzle_browser import wrong_play_then_right_at_both_widths
from tests.browser.test_puzzle_board_browser import every_kind_at_both_widths
from tests.browser.test_three_browser import three_player_game_by_taps

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser

#: Every lesson of the site (the checkout's notebooks/, as tools/build_site.py copies them).
LESSONS = sorted(
    p.relative_to(ROOT / "notebooks").as_posix()
    for p in (ROOT / "notebooks").rglob("*.ipynb")
    if ".ipynb_checkpoints" not in p.parts
)


def _run_all(page: Page, *, puzzle: bool = True) -> None:
    site_run_all(page)
    if puzzle:
        expect(page.locator(".bl-puzzle").first).to_be_visible(timeout=60_000)


def _lesson_three(page: Page, tmp_path: Path, dialogs: list[str]) -> None:
    """Lesson 3, run (its puzzles as a run draws them, none answered): the layout at every width and
    a puzzle by keyboard (``test_layout_a11y_browser.py``).  Its puzzle answered and kept over a
    reload, in the store on the browser-kept drive, is the learner's journey's
    (``test_site_journey_browser.py``), which answers the same puzzle and reloads anyway: here it
    cost a second Pyodide kernel and a second Run All."""
    puzzle_by_keyboard_calm_layout_and_toggles_under_columns(page, "site", OUTPUT)


def test_the_site_has_every_lesson() -> None:
    # 00..08, zh/00..08, teachers/01, teachers/02, zh/teachers/01 and zh/teachers/02: the
    # parametrized test below cannot pass empty
    assert len(LESSONS) == 22, LESSONS
    assert {"zh", "teachers"} <= {name.split("/")[0] for name in LESSONS}


class SiteApp:
    """One page of the site's JupyterLab, in one browser context, for the sweep's lessons on one
    pytest-xdist worker: each lesson is opened in the app already up (its JavaScript parsed and run
    once), on a kernel of its own, after the lesson before it was closed and its kernel shut down.
    The context is a warm one (``Offline(..., warm=True)``): the site's files and Pyodide's compiled
    WebAssembly are in its profile's caches from the lessons before, as in a learner's browser.

    The lessons whose checks after the run need a drive nothing else wrote (:data:`FRESH_DRIVE`)
    get a context of their own: a ``SiteApp`` of their own, closed after its one lesson (warm too:
    its profile keeps only the caches, never a drive).  Requests
    to other hosts are counted against the lesson during which they were seen (or the next one, for
    a request made between two lessons).  A lesson that fails closes the context: the next one
    starts in a fresh page."""

    def __init__(self, browser: Browser, url: str) -> None:
        self.browser = browser
        self.url = url
        self.offline: Offline | None = None
        self.page: Page | None = None
        self.dialogs: list[str] = []
        self.seen = 0  # how many of ``offline.outside`` an earlier lesson has answered for

    def open(self, lesson: str) -> Page:
        """The app's page with ``lesson`` open in it, alone, on a fresh kernel (it may still be
        starting)."""
        if self.page is None:
            self.offline = Offline(self.browser, warm=True)
            self.page = self.offline.context.new_page()
            self.page.set_default_timeout(60_000)
            self.page.on("dialog", lambda dialog: (self.dialogs.append(dialog.type), dialog.accept()))
            self.seen = 0
            self.page.goto(f"{self.url}/lab/index.html?path={lesson}")
        else:
            _close_and_shut_down(self.page)
            # the lesson's kernel (Pyodide in a web worker) is gone, and its notebook with it
            _no_kernel_worker(self.page)
            expect(self.page.locator(".jp-Notebook")).to_have_count(0)
            _open_from_path(self.page, lesson)
        self.dialogs.clear()
        return self.page

    def outside(self) -> list[str]:
        """The requests to other hosts since the last call."""
        assert self.offline is not None
        new = self.offline.outside[self.seen :]
        self.seen = len(self.offline.outside)
        return new

    def close(self) -> None:
        if self.offline is not None:
            self.offline.context.close()
        self.offline = self.page = None


def _close_and_shut_down(page: Page) -> None:
    """File > Close and Shut Down Notebook (the one open), as a learner does: its kernel is shut
    down and its tab closed, its changes dropped."""
    page.locator(".lm-MenuBar-item").get_by_text("File", exact=True).click()
    page.locator(".lm-Menu-item", has_text="Close and Shut Down Notebook").first.click()
    dialog = page.locator(".jp-Dialog")
    expect(dialog).to_contain_text("Shut down the notebook?")
    dialog.locator("button.jp-mod-accept").click()
    expect(dialog).to_have_count(0)


def _no_kernel_worker(page: Page, timeout: float = 60) -> None:
    """Wait until the page has no web worker left: a Pyodide kernel runs in one, and its shutdown
    ends it (the page is polled through Playwright, so that its worker events are taken in)."""
    deadline = time.monotonic() + timeout
    while page.workers:
        assert time.monotonic() < deadline, f"a kernel's worker still runs: {[w.url for w in page.workers]}"
        page.wait_for_timeout(200)


def _open_from_path(page: Page, lesson: str) -> None:
    """File > Open from Path: ``lesson`` (a path of the site's contents) opens as a notebook."""
    page.locator(".lm-MenuBar-item").get_by_text("File", exact=True).click()
    page.locator(".lm-Menu-item", has_text="Open from Path").first.click()
    dialog = page.locator(".jp-Dialog")
    dialog.locator("input").fill(lesson)
    dialog.locator("button.jp-mod-accept").click()
    expect(dialog).to_have_count(0)


@pytest.fixture(scope="module")
def site_app(offline_chromium: Browser, site_url: str) -> Iterator[SiteApp]:
    """The sweep's page of the site on this worker (:class:`SiteApp`); no request to another host
    may be left unanswered for when it closes."""
    app = SiteApp(offline_chromium, site_url)
    try:
        yield app
        left = app.outside() if app.offline is not None else []
        assert left == [], f"requests to other hosts after the last lesson: {left}"
    finally:
        app.close()


@pytest.mark.parametrize("lesson", LESSONS)
def test_site_runs_every_lesson_offline_without_an_error(
    site_app: SiteApp, offline_chromium: Browser, site_url: str, tmp_path: Path, lesson: str
) -> None:
    """Open the lesson in the site, clear its saved outputs, Run All Cells on the lesson's own
    fresh kernel: every code cell ran (an exception aborts the cells after it), no output is an
    error or a traceback, and no request went to another host.  A lesson with saved widgets
    (:data:`WIDGET_LESSONS`) is first checked as a learner sees it opened cold, while its kernel
    starts (:func:`_shows_saved_widgets_as_pictures`): the one opening of the lesson serves both
    checks, as the kernel's start is most of its time.  For the same reason the gym's lesson is
    first reloaded unedited (it must ask nothing), and the checks that need a lesson run
    (:data:`AFTER_THE_RUN`: lesson 1's explorer, lesson 3's layout and keyboard, the gym's saved
    and loaded progress, its damaged store, a wrong and a right answer with the proof's steps and
    the benchmark's timed clicks, lesson 6's game played a few moves, at every width and by the
    benchmark's timed clicks, the Chinese lesson 3's puzzle and its language toggle; and the board's,
    the editor's, the three-player game's and the puzzles' checks in new cells under lessons 0, 2,
    4, 7 and 8) go on on the same page after the sweep's.

    Most lessons open one after another in one page of the site per worker (:class:`SiteApp`);
    those whose checks count what they write (:data:`FRESH_DRIVE`) open in a fresh browser context
    of their own (a drive no other lesson wrote)."""
    own = lesson in FRESH_DRIVE
    app = SiteApp(offline_chromium, site_url) if own else site_app
    try:
        started = time.monotonic()
        page = app.open(lesson)
        _sweep_one_lesson(page, lesson, app.dialogs, tmp_path, started)
        outside = app.outside()
    except BaseException:
        app.close()  # the shared page's next lesson starts on a fresh page
        raise
    finally:
        if own:
            app.close()
    assert outside == [], f"{lesson}: requests to other hosts: {outside}"


def _sweep_one_lesson(page: Page, lesson: str, dialogs: list[str], tmp_path: Path, started: float) -> None:
    """The sweep's checks of ``lesson``, just opened on ``page`` (at ``started``), its kernel
    starting (see :func:`test_site_runs_every_lesson_offline_without_an_error`)."""
    page.locator(".jp-Notebook").first.wait_for(timeout=120_000)
    if lesson in WIDGET_LESSONS:
        _shows_saved_widgets_as_pictures(page, lesson)
    site_kernel_idle(page)
    if lesson == GYM_LESSON:
        _an_unedited_lesson_asks_nothing_on_reload(page, dialogs)
        started = time.monotonic()  # the lesson's time: from the reload that opened it again
    page.locator(".lm-MenuBar-item").get_by_text("Edit", exact=True).click()
    page.get_by_role("menuitem", name="Clear Outputs of All Cells", exact=True).click()
    expect(page.locator(".jp-OutputArea-output")).to_have_count(0, timeout=30_000)
    # its outputs cleared, the lesson is modified and its tab says so (what the unedited lesson's
    # check watches for; looked at at once, before JupyterLab's autosave can save it)
    expect(page.locator(DIRTY_TAB)).to_have_count(1)
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
    if lesson == "03-claim-proofs.ipynb":  # opened, its kernel up, run: its puzzle is live
        _timing("first_widget_seconds", round(seconds, 1))
    after = AFTER_THE_RUN.get(lesson)
    if after is not None:
        after(page, tmp_path, dialogs)


def test_the_checks_after_a_run_name_lessons_of_the_site() -> None:
    # a lesson renamed would silently drop its checks from the sweep
    assert set(AFTER_THE_RUN) <= set(LESSONS) and GYM_LESSON in AFTER_THE_RUN, sorted(AFTER_THE_RUN)
    assert FRESH_DRIVE <= set(AFTER_THE_RUN), sorted(FRESH_DRIVE - set(AFTER_THE_RUN))


@pytest.mark.parametrize("width", [320, 390, 1400])
def test_front_page_fits_the_screen_and_its_links_open(offline_chromium: Browser, site_url: str, width: int) -> None:
    """The course's own front page, English and Chinese: no horizontal scroll at 320 px, every link
    shown at this width leads to a page of the site (a lesson link to a lesson the site has); each
    lesson opens as its reading page, its notebook beside it: on a phone (<= 480 px) in the simple
    notebook view, else in JupyterLab."""
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
            assert len(main) == 12, main  # start here, the path 00-04, 07 and 08, gym, game, the two teachers' lessons
            assert all(h.startswith("read/") and h.endswith(".html") for h in main), (width, main)
            notebooks = [str(h) for h in page.locator("a.notebook:visible").evaluate_all(script)]
            app = "notebooks/index.html" if width <= 480 else "lab/index.html"
            assert len(notebooks) == 11 and all(h.startswith(app) for h in notebooks), (width, notebooks)
            start = page.locator("a.start:visible").bounding_box()  # a block across the page, not a sliver
            assert start is not None and start["width"] > min(width, 736) * 0.8, (width, start)
            for href in sorted(set(hrefs)):
                response = page.request.get(f"{site_url}/{href}")
                assert response.status == 200, href
                if "?path=" in href:  # the lesson itself is in the site's contents
                    lesson = href.split("?path=")[1]
                    assert page.request.get(f"{site_url}/files/{lesson}").status == 200, lesson
        page.goto(f"{site_url}/rules.html#R12")
        expect(page.locator("main")).to_contain_text("R12")
        # every rule is an anchor a proof step's link lands on
        for rule in ("R1", "R12", "R31"):
            expect(page.locator(f"li#{rule}")).to_contain_text(rule)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(OUTPUT / f"site-rules-{width}.png"))
        page.goto(f"{site_url}/index.html")
        page.screenshot(path=str(OUTPUT / f"site-front-{width}.png"), full_page=True)
        # "start here" opens lesson 0's reading page; from it the notebook (the notebook view on a phone)
        page.locator("a.start:visible").click()
        expect(page.locator("main h1")).to_contain_text("the game in ten minutes")
        page.locator("nav a.bl-open-notebook:visible").click()
        expect(page.locator(".jp-Notebook").first).to_be_visible(timeout=120_000)
        expect(page.locator(".jp-Notebook").first).to_contain_text("the game in ten minutes")
        assert ("/notebooks/" in page.url) == (width <= 480), page.url
    finally:
        offline.context.close()
    assert offline.outside == [], f"requests to other hosts: {offline.outside}"


@pytest.mark.parametrize("width", [390, 1400])
@pytest.mark.parametrize(
    ("front", "title", "lesson", "heading"),
    [
        pytest.param("index.html", "Battle Line Lab", "00-the-game-in-ten-minutes.ipynb", "Lesson 0", id="en"),
        pytest.param("zh.html", "古战阵实验室", "zh/00-the-game-in-ten-minutes.zh.ipynb", "第0课", id="zh"),
    ],
)
def test_back_from_a_lesson_returns_to_the_front_page(
    offline_chromium: Browser, site_url: str, front: str, title: str, lesson: str, heading: str, width: int
) -> None:
    """Front page, "start here" (lesson 0's reading page), "Open as a notebook" (the simple view on
    a phone, JupyterLab on a wide screen), the browser's Back twice: the reading page, then the front
    page again, at its address, with its heading, asking nothing.

    In JupyterLab, JupyterLite's ``?path=`` handler opens the lesson and then drops ``path`` from
    the address by a history push; Back popped to the ``?path=`` entry, which opened the lesson and
    pushed again, so Back never left the lesson.  The site's ``lab/index.html`` turns that one push
    into a replace (``tools/site/lab-history.js``): the history is the front page, the reading page,
    then the notebook."""
    offline = Offline(offline_chromium, viewport=(width, 844 if width <= 480 else 1000), warm=True)
    page = offline.context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    try:
        page.goto(f"{site_url}/{front}")
        expect(page.locator("h1")).to_have_text(title)
        entries = page.evaluate("history.length")
        start = page.locator("a.start:visible")
        reading = "read/" + lesson.removesuffix(".ipynb").removesuffix(".zh").replace("/", "-") + ".html"
        assert start.get_attribute("href") == reading
        start.click()
        expect(page.locator("main h1")).to_contain_text(heading)
        app = "notebooks/index.html" if width <= 480 else "lab/index.html"
        open_notebook = page.locator("nav a.bl-open-notebook:visible")
        assert open_notebook.get_attribute("href") == f"../{app}?path={lesson}"
        open_notebook.click()
        notebook = page.locator(".jp-Notebook").first
        expect(notebook).to_be_visible(timeout=120_000)
        expect(notebook).to_contain_text(heading)  # lesson 0, in the front page's language
        if width > 480:  # JupyterLab has opened the lesson from ?path= and dropped it from the address
            page.wait_for_url(f"{site_url}/{app}", timeout=60_000)
        page.go_back()
        expect(page).to_have_url(f"{site_url}/{reading}", timeout=30_000)
        expect(page.locator("main h1")).to_contain_text(heading)
        page.go_back()
        expect(page).to_have_url(f"{site_url}/{front}", timeout=30_000)
        expect(page.locator("h1")).to_have_text(title)
        expect(page.locator("a.start:visible")).to_be_visible()
        assert page.evaluate("history.length") == entries + 2, "one entry for each page of the lesson, none left over"
        assert dialogs == [], dialogs  # an unedited lesson: Back asks nothing
    finally:
        offline.context.close()
    assert offline.outside == [], f"requests to other hosts: {offline.outside}"


LINK = "/lab/index.html?path=00.ipynb"
#: (the address the lab page is loaded at, the pushes JupyterLab then makes, what the page's script
#: does: its own change at load, then what each push becomes, as (call, path and query))
HISTORY_CASES = [
    # a lesson's link: the workspace reset first (``reset`` for ``path``), then JupyterLab's push that
    # drops ``reset`` gets ``path`` back, then JupyterLite's push that drops ``path``: all replaces
    (
        LINK,
        ["/lab/index.html", "/lab/index.html"],
        [
            ("replace", "/lab/index.html?reset="),
            ("replace", "/lab/index.html?path=00.ipynb"),
            ("replace", "/lab/index.html"),
        ],
    ),
    # an absolute address pushed, a lesson in a folder
    (
        "/lab/index.html?path=zh/00.zh.ipynb",
        ["http://127.0.0.1:8000/lab/index.html"] * 2,
        [
            ("replace", "/lab/index.html?reset="),
            ("replace", "/lab/index.html?path=zh%2F00.zh.ipynb"),
            ("replace", "/lab/index.html"),
        ],
    ),
    # other parameters kept
    (
        "/lab/index.html?path=a.ipynb&room=r",
        ["/lab/index.html?room=r", "/lab/index.html?room=r"],
        [
            ("replace", "/lab/index.html?room=r&reset="),
            ("replace", "/lab/index.html?room=r&path=a.ipynb"),
            ("replace", "/lab/index.html?room=r"),
        ],
    ),
    # another parameter dropped too: a push, as given
    (
        "/lab/index.html?path=a.ipynb&room=r",
        ["/lab/index.html?room=r", "/lab/index.html"],
        [
            ("replace", "/lab/index.html?room=r&reset="),
            ("replace", "/lab/index.html?room=r&path=a.ipynb"),
            ("push", "/lab/index.html"),
        ],
    ),
    # another lesson, a parameter added, another page: pushes
    (
        LINK,
        ["/lab/index.html", "/lab/index.html?path=b.ipynb"],
        [
            ("replace", "/lab/index.html?reset="),
            ("replace", "/lab/index.html?path=00.ipynb"),
            ("push", "/lab/index.html?path=b.ipynb"),
        ],
    ),
    (
        LINK,
        ["/lab/index.html", "/lab/index.html?path=00.ipynb&mode=single"],
        [
            ("replace", "/lab/index.html?reset="),
            ("replace", "/lab/index.html?path=00.ipynb"),
            ("push", "/lab/index.html?path=00.ipynb&mode=single"),
        ],
    ),
    (LINK, ["/notebooks/index.html"], [("replace", "/lab/index.html?reset="), ("push", "/notebooks/index.html")]),
    # no ``path`` at load (a reload, a visit): the workspace is kept, pushes pass
    ("/lab/index.html", ["/lab/index.html?mode=single"], [("push", "/lab/index.html?mode=single")]),
    # the learner's own ``?reset`` with a lesson: left to JupyterLab, only its push that drops it replaced
    (
        "/lab/index.html?path=a.ipynb&reset",
        ["/lab/index.html?path=a.ipynb", "/lab/index.html"],
        [
            ("replace", "/lab/index.html?path=a.ipynb"),
            ("replace", "/lab/index.html"),
        ],
    ),
]


def test_lab_history_script_opens_a_linked_lesson_alone_and_replaces_only_the_pushes_that_drop_path_or_reset(
    offline_chromium: Browser,
) -> None:
    """``tools/site/lab-history.js`` (first in the site's ``lab/index.html``), run against a stand-in
    ``window`` whose address follows its history calls: an address with ``path`` is changed at load
    to ``reset`` in its place; JupyterLab's push that then drops ``reset`` gets ``path`` back; only a
    push that drops ``path`` or ``reset`` from the address in sight, and changes nothing else, becomes
    a replace; every other push is passed on as it was given."""
    script = (ROOT / "tools" / "site" / "lab-history.js").read_text(encoding="utf-8")
    run = """([script, cases]) => cases.map(([here, pushes]) => {
        const calls = [];
        const location = { href: new URL(here, "http://127.0.0.1:8000").href };
        const call = (kind, history, to) => {
            const url = new URL(String(to), location.href);
            location.href = url.href;
            calls.push([kind, url.pathname + url.search, history === window.history]);
        };
        const history = {
            state: null,
            pushState(state, title, to) { call("push", this, to); },
            replaceState(state, title, to) { call("replace", this, to); },
        };
        const window = { history, location };
        new Function("window", script)(window);
        for (const url of pushes) history.pushState({}, "", url);
        return calls;
    })"""
    context = offline_chromium.new_context()
    try:
        page = context.new_page()
        got = page.evaluate(run, [script, [[here, pushes] for here, pushes, _ in HISTORY_CASES]])
    finally:
        context.close()
    for (here, pushes, expected), calls in zip(HISTORY_CASES, got, strict=True):
        assert calls == [[kind, url, True] for kind, url in expected], (here, pushes, calls)


def test_the_drive_gate_has_jupyterlites_worker_ready_before_jupyterlite_starts_and_replaces_an_old_one(
    offline_chromium: Browser, site: Path, site_url: str
) -> None:
    """``tools/site/drive-gate.js``, first in each JupyterLite page of the built site: on a browser's
    first visit JupyterLite already finds its service worker registered and in control of the page
    (its kernels get the browser-kept drive from the first lesson on), with the site's version
    remembered, so the next page does not unregister and register it again while a lesson opens (which
    is how a kernel could start without the drive); a worker another version of the site left is
    replaced by the gate before JupyterLite starts, and JupyterLite finds the new one ready."""
    version = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]["appVersion"]
    worker = f"{site_url}/service-worker.js?enableCache=false"
    offline = Offline(offline_chromium)
    said: list[str] = []
    try:
        page = offline.context.new_page()
        page.on("console", lambda message: said.append(message.text))
        state = f"""() => [localStorage.getItem({json.dumps(worker + "-version")}),
            navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL]"""
        for visit, older in [("first", None), ("next", None), ("after another version", "0.0.1")]:
            if older is not None:
                page.evaluate(f"localStorage.setItem({json.dumps(worker + '-version')}, {json.dumps(older)})")
            said.clear()
            with page.expect_console_message(lambda m: "JupyterLite ServiceWorker was" in m.text, timeout=60_000):
                page.goto(f"{site_url}/tree/index.html")
            sw = [line for line in said if "ServiceWorker" in line or "service worker" in line]
            assert sw == ["JupyterLite ServiceWorker was already registered"], (visit, said)
            assert page.evaluate(state) == [version, worker], visit
    finally:
        offline.context.close()
    assert offline.outside == []


#: The gym's lesson: the sweep's opening of it also checks that an unedited lesson asks nothing on
#: reload, the gym's "Save my progress" and "Load progress", and a damaged store set aside.
GYM_LESSON = "05-puzzle-gym.ipynb"


#: How long an unedited lesson is watched, its kernel up, for a sign that it became modified.
UNEDITED_WATCH = 5.0
#: A tab of a modified document (JupyterLab marks its title).
DIRTY_TAB = ".lm-TabBar-tab.jp-mod-dirty"


def _an_unedited_lesson_asks_nothing_on_reload(page: Page, dialogs: list[str]) -> None:
    """A lesson only opened (its kernel up, nothing run) is not "modified": a reload asks nothing.
    Called with the kernel idle; returns with the reloaded lesson's kernel idle.

    JupyterLab writes the kernel's ``language_info`` and kernelspec into the notebook's metadata once
    its kernel's info and spec have come: a lesson whose saved ones differ is modified from then on,
    and its tab says so (``jp-mod-dirty``, which the sweep sees on every lesson it has run).  The
    page shows nothing when they come, so the tab is watched for :data:`UNEDITED_WATCH` seconds
    (the pause this check used to make), failing the moment it shows the lesson modified."""
    deadline = time.monotonic() + UNEDITED_WATCH
    while time.monotonic() < deadline:
        assert page.locator(DIRTY_TAB).count() == 0, "an unedited lesson became modified once its kernel was up"
        page.wait_for_timeout(250)
    page.locator(".jp-MarkdownCell").first.click()  # a user gesture: Chromium asks only after one
    page.reload()
    page.locator(".jp-Notebook").first.wait_for(timeout=120_000)
    assert dialogs == [], f"an unedited lesson asked {dialogs} on reload"
    site_kernel_idle(page)


def _gym_saves_and_loads_progress(page: Page, tmp_path: Path) -> None:
    """In the gym (run), "Save my progress" downloads the export document and "Load progress" takes
    one back; the gym says that progress is kept in this browser only."""
    gym = page.locator(ui.GYM)
    expect(gym).to_be_visible(timeout=60_000)
    expect(gym.locator(ui.GYM_STORAGE)).to_contain_text("kept in this browser only")
    expect(gym).to_contain_text("Your name, for your teacher")  # asked once: the download is named after it
    gym.locator(ui.GYM_NAME_INPUT).fill("Ann Lee")
    gym.locator(ui.GYM_NAME_SAVE).click()
    expect(gym.locator(".bl-gym-transfer")).to_contain_text("Your name is kept: Ann Lee")
    gym.locator(ui.GYM_SAVE).click()
    link = gym.locator(".bl-gym-download")
    expect(link).to_be_visible()
    with page.expect_download() as info:
        link.click()
    saved = tmp_path / info.value.suggested_filename
    info.value.save_as(saved)
    document = json.loads(saved.read_text(encoding="utf-8"))
    assert saved.name == "battleline-progress-Ann-Lee.json" and document["format"] == "battleline-lab-progress"
    assert document["learner"] == "Ann Lee" and document["learner_id"]

    row = {"learner": "ann", "puzzle_id": "one-end-open", "kind": "answer", "correct": True, "at": 1.0}
    document["attempts"] = [row]
    moved = tmp_path / "from-another-browser.json"
    moved.write_text(json.dumps(document), encoding="utf-8")
    with page.expect_file_chooser() as chooser:
        gym.locator(ui.GYM_LOAD).click()
    chooser.value.set_files(str(moved))
    expect(gym.locator(".bl-gym-transfer")).to_contain_text("Loaded 1 attempts from from-another-browser.json")
    assert_no_widget_errors(page)


#: A damaged store as a torn write, a hand edit or another program could leave it: one good row,
#: a torn row, garbage and bytes that are not UTF-8 (lines 2-4 damaged).
DAMAGED_STORE = (
    b'{"learner": "me", "puzzle_id": "one-end-open", "kind": "answer", "correct": true, "at": 1.0}\n'
    b'{"learner": "me", "puzzle_id": "x", "ki\n'
    b"not json at all\n"
    b"\xff\xfe\x00\n"
)


def _gym_sets_a_damaged_store_aside_and_says_so(page: Page) -> None:
    """A damaged ``progress.jsonl`` on the browser's drive: the gym opens, says on screen (English,
    then Chinese by its language toggle) that the damaged lines were set aside and under which
    name, and the file as it was is still on the drive, byte for byte, under that name.

    Called on the gym's lesson, run: the store is written whole (what the gym wrote before is
    replaced), then the reload starts the kernel that opens it."""
    import base64
    import hashlib

    encoded = base64.b64encode(DAMAGED_STORE).decode()
    shown = run_code(
        page,
        "import pathlib, base64; d = pathlib.Path('/drive/battleline-data'); d.mkdir(exist_ok=True); "
        "new = not list(d.glob('progress.jsonl.damaged-*')); "
        f"new and (d / 'progress.jsonl').write_bytes(base64.b64decode('{encoded}')); print('written', new)",
    )
    assert "written True" in shown, shown
    page.reload()  # "leave the page?" (the lesson was run): yes
    page.locator(".jp-Notebook").first.wait_for(timeout=120_000)
    site_kernel_idle(page)
    site_run_all(page)
    gym = page.locator(ui.GYM)
    expect(gym).to_be_visible(timeout=60_000)
    warning = gym.locator(".bl-gym-warning")
    expect(warning).to_contain_text("had damaged lines that could not be read (3 in all)")
    expect(warning).to_contain_text("The other 1 entries are kept")
    text = warning.inner_text()
    found = re.search(r"kept as (battleline-data/progress\.jsonl\.damaged-[\w-]+)", text)
    assert found, text
    gym.locator(".bl-lang button", has_text="中文").first.click()
    expect(warning).to_contain_text("有 3 行已损坏")
    expect(warning).to_contain_text(found.group(1))
    # the original bytes, on the drive under the name the gym said; the store reads clean now
    shown = run_code(
        page,
        "import hashlib, pathlib; from battleline_lab.training import progress; "
        f"print('sha', hashlib.sha256(pathlib.Path('/drive/{found.group(1)}').read_bytes()).hexdigest(), "
        "progress.Progress().get('one-end-open'), progress.Progress().problem)",
    )
    assert f"sha {hashlib.sha256(DAMAGED_STORE).hexdigest()}" in shown, shown
    assert "PuzzleRecord(solved=True, attempts=1, hints=0) None" in shown, shown
    OUTPUT.mkdir(exist_ok=True)
    warning.screenshot(path=str(OUTPUT / "site-gym-damaged-store.png"))


def _gym_after_the_run(page: Page, tmp_path: Path, dialogs: list[str]) -> None:
    """The gym's checks on its run lesson, in this order: loading the saved file must add its row
    (the damaged store's good row is the same attempt, so it would be skipped as already held),
    and the damaged store replaces the store the load wrote.  Then, once those counts are made, on
    the gym run again on the same kernel (English, the first puzzle: the damaged store's check left
    it in Chinese), the checks of a learner's wrong and right answers and the proof's steps
    (``test_lessons_in_browser.py``: the store then holds one row, of another puzzle than theirs),
    and last, on the gym run once more, the click-latency benchmark's clicks, which answer puzzles
    of the library (``test_click_latency_browser.py``)."""
    _gym_saves_and_loads_progress(page, tmp_path)
    _gym_sets_a_damaged_store_aside_and_says_so(page)
    site_run_all(page)
    gym_wrong_answer_counterexample_right_answer_and_proof_steps(page, "site", None, OUTPUT)
    site_gym_clicks(page, tmp_path)


def _lesson_six(page: Page, tmp_path: Path) -> None:
    """Lesson 6, run: a few moves by taps on the learner's own game (it must be untouched: first),
    then the game at every width (it leaves a card chosen and the window at the last width), then
    the click-latency benchmark's moves on a new game (``test_click_latency_browser.py``)."""
    page.set_viewport_size({"width": 1280, "height": 1900})  # the whole game widget fits in a screenshot
    a_few_moves_by_tapping(page, "site", OUTPUT)
    page.set_viewport_size({"width": 1280, "height": 1000})
    game_fits_every_width(page, "site", OUTPUT)
    site_game_clicks(page, tmp_path)


def _in_new_cells(check: Callable[[Page, Front, Path], None]) -> Callable[[Page, Path, list[str]], None]:
    """A check of a widget that only needs a kernel with battleline_lab (``check(page, front,
    output_dir)``: it adds its own cells under the lesson), made on the sweep's run of a lesson: the
    page's window is set back to its size after it, for the lesson the shared page opens next."""

    def after(page: Page, tmp_path: Path, dialogs: list[str]) -> None:
        size = page.viewport_size
        check(page, Front("site", page.url.split("/lab/")[0]), OUTPUT)
        assert size is not None
        page.set_viewport_size(size)

    return after


#: Checks that need a lesson run on the site and run on the sweep's page once it has run that lesson
#: (a Pyodide kernel and a page of the site are most of a lesson's CPU time: each opening is shared).
#: The widgets' checks that only need a kernel with battleline_lab add their cells under lessons with
#: no checks of their own, one each, so that no lesson's case grows long.
AFTER_THE_RUN = {
    "00-the-game-in-ten-minutes.ipynb": _in_new_cells(whole_games),
    "01-cards-and-formations.ipynb": lambda page, tmp_path, dialogs: explorer_responds(page, "site", OUTPUT),
    "02-comparing-and-the-tie-rule.ipynb": _in_new_cells(editor_on_the_site),
    "03-claim-proofs.ipynb": _lesson_three,
    "04-tactics-cards.ipynb": _in_new_cells(three_player_game_by_taps),
    GYM_LESSON: _gym_after_the_run,
    "06-play-a-game.ipynb": lambda page, tmp_path, dialogs: _lesson_six(page, tmp_path),
    "07-outs-and-odds.ipynb": _in_new_cells(every_kind_at_both_widths),
    "08-three-at-the-table.ipynb": _in_new_cells(wrong_play_then_right_at_both_widths),
    "zh/03-claim-proofs.zh.ipynb": lambda page, tmp_path, dialogs: chinese_puzzle_and_its_toggle(page, "site", OUTPUT),
}
#: The lessons the sweep opens in a browser context of their own, not in its shared page: those
#: whose checks after the run count what they write or must find unwritten (lesson 3's and the
#: Chinese lesson 3's puzzle start unsolved, the gym counts its loaded and damaged rows, and the
#: gym's checks reload the page), and lessons 1 and 6, whose checks were written for
#: a page of their own (lesson 6's leave the window at another size).  The widgets'
#: checks in new cells need no fresh drive (their puzzles are not recorded, their games not saved;
#: the editor's file is written by nothing else) and run in the shared page.
FRESH_DRIVE = {
    "01-cards-and-formations.ipynb",
    "03-claim-proofs.ipynb",
    GYM_LESSON,
    "06-play-a-game.ipynb",
    "zh/03-claim-proofs.zh.ipynb",
}


def _saved_widgets(lesson: str) -> int:
    book = json.loads((ROOT / "notebooks" / lesson).read_text(encoding="utf-8"))
    return sum(
        "application/vnd.jupyter.widget-view+json" in out.get("data", {})
        for cell in book["cells"]
        for out in cell.get("outputs", [])
    )


#: The lessons whose saved widgets have a board (the gym, the game, lesson 3's puzzle, the teachers'
#: puzzle editor), in both languages.
WIDGET_LESSONS = [
    lesson
    for name in ("03-claim-proofs", "05-puzzle-gym", "06-play-a-game", "teachers/02-puzzle-editor")
    for lesson in (f"{name}.ipynb", f"zh/{name}.zh.ipynb")
]
#: The line under a saved widget's picture (tools/build_site.py ``COLD_NOTE``), by the lesson's language.
RUN_THE_CELL = {"en": "run the cell (Run ▸ Run All Cells) to use it", "zh": "运行这个单元格"}


def test_the_cold_list_has_the_gym_and_the_game() -> None:
    # each is opened cold by the sweep over every lesson, which checks its pictures first
    assert set(WIDGET_LESSONS) <= set(LESSONS)
    assert all(_saved_widgets(lesson) for lesson in WIDGET_LESSONS)


def _shows_saved_widgets_as_pictures(page: Page, lesson: str) -> None:
    """A lesson opened on the site and not run shows each saved widget as its picture (the board's
    SVG) at once, with one line under it (run the cell to use it), never "Loading widget..." while
    the kernel starts (it takes 8-40 s).  Called as the lesson's notebook appears, before its kernel
    is waited for and before anything runs."""
    notebook = page.locator(".jp-Notebook").first
    pictures = notebook.locator(".jp-RenderedSVG img, .jp-RenderedHTMLCommon .bl-saved-picture svg")
    expect(pictures.first).to_be_attached(timeout=30_000)
    page.wait_for_timeout(2000)  # outputs further down are drawn too
    text = notebook.text_content() or ""
    assert "Loading widget" not in text and "Error displaying widget" not in text, lesson
    assert notebook.locator(".jupyter-widgets").count() == 0, lesson  # nothing waits for a kernel to draw it
    picture = notebook.locator(".bl-saved-picture").last  # (cells far off screen may not be drawn yet)
    picture.scroll_into_view_if_needed()
    # under the picture, one line in the lesson's language: run the cell to use it
    expect(picture.locator("small")).to_contain_text(RUN_THE_CELL["zh" if lesson.startswith("zh/") else "en"])
    name = lesson.removesuffix(".ipynb").replace("/", "-")
    picture.screenshot(path=str(OUTPUT / f"site-cold-{name}.png"))


def test_site_wheels_carry_bytecode_and_the_lock_names_them(site: Path) -> None:
    """Every shipped wheel has its modules pre-compiled by the site's own Python (Pyodide, 3.14):
    a ``__pycache__/*.cpython-314.pyc`` beside each ``.py`` outside tests; the lock's sha256 is the
    file's, and the kernel's own start-up packages are preloaded with ours."""
    import hashlib
    import zipfile

    static = site / "static" / "pyodide"
    lock = json.loads((static / "pyodide-lock.json").read_text())["packages"]
    preload = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]["litePluginSettings"]
    packages = preload["@jupyterlite/pyodide-kernel-extension:kernel"]["loadPyodideOptions"]["packages"]
    assert {"battleline-lab", "ipywidgets", "micropip", "piplite", "ipykernel", "pyodide-kernel"} <= set(packages)
    assert all(name in lock for name in packages), packages
    for name, entry in lock.items():
        wheel = static / entry["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"], name
        names = set(zipfile.ZipFile(wheel).namelist())
        sources = [n for n in names if n.endswith(".py") and not re.search(r"(^|/)tests?/", n)]
        missing = [n for n in sources if _pyc(n) not in names]
        assert sources and not missing, (name, missing[:3])


def _pyc(source: str) -> str:
    """``pkg/mod.py`` -> ``pkg/__pycache__/mod.cpython-314.pyc`` (the bytecode Pyodide's Python reads)."""
    folder, _, name = source.rpartition("/")
    return f"{folder}/__pycache__/{name[:-3]}.cpython-314.pyc".lstrip("/")
