"""The learner's journey through the site, as one browser test, at 390 and 1400 px.

On the built site, served on 127.0.0.1 with every other host blocked (the ``offline_chromium``
fixture: any other request fails and fails the test), a learner opens the front page, follows
**Start here** (lesson 0's reading page, then "Open as a notebook", since this journey needs the
kernel: the progress is recorded by the trainer in Python), goes back twice to the front page, opens
lesson 3 from the front page's path (its reading page, then the notebook), answers its
puzzle wrongly then rightly, sees the proof's first step and steps it (Next, Back), opens the game
from the front page's entry (lesson 6), plays it to the end by taps (the game's own result and its
**New game** button appear), reloads the page, and finds the progress kept: lesson 3's record in
the learner's store (on the site the JSON-lines store on the browser-kept drive,
``/drive/battleline-data/progress.jsonl``; the site's sweep leaves this check to the journey).  At 390 px
a reading page's "Open as a notebook" opens the simple notebook view (``notebooks/``), at 1400 px
JupyterLab (``lab/``).  (The reading pages themselves, with no kernel: test_site_reader_browser.py.)

On the site the two widths are one journey in one browser: the whole of it at 390 px, then, on a wide
screen, what depends on the width again at 1400 px: the front page's fit, "Start here" opening
JupyterLab and Back from it, lesson 6 from the front page opening alone in JupyterLab with room for
its game and no page scroll, the record read there, in JupyterLab, from what the learner did in the
simple view, and a reload restoring lesson 6 alone (the record kept over a reload is the 390 px
half's check, on the same drive: the reload's kernel is not waited for again).  The puzzle and the
game played to its end are the same steps at both widths (the same widgets, the same drive), made
once: at 1400 px they ran a lesson 3 kernel, the puzzle and a whole game a second time, and a second
browser context.

The same test code runs against JupyterLab (the ``frontend`` fixture) at 1400 px, where that makes sense:
the front page exists only on the site (it is the site's ``index.html``, made by
``tools/build_site.py``; JupyterLab has no such page), so in JupyterLab the learner opens the same
lessons by their paths instead of by its links; everything from there on (the puzzle, its proof,
the whole game, the reload, the record) is the same code.  In JupyterLab the learner's store is
shared by the session's tests, so the record is compared with the one before the journey.

Going back to the front page: the browser's Back does it (from the notebook to the reading page,
then to the front page), in the simple view (390 px) and in the site's JupyterLab (1400 px; there
JupyterLite's ``?path=`` handler drops ``path`` from the address by a history push, which the
site's ``lab/index.html`` turns into a replace: without it Back popped to the ``?path=`` entry,
which opened the lesson and pushed again, and never left it).

Kernel starts are kept few (CI): lesson 0, lesson 3, lesson 6 and lesson 6 again after the reload at
390 px, then lesson 0 and lesson 6 at 1400 px (the reload's kernel starts as the test ends): six on
the site, where the two widths as two tests started eight (at 1400 px, before a lesson opened by its link opened
alone, also lesson 0 beside lesson 3, lessons 0 and 3 beside lesson 6 and again after the reload:
nine at that width alone).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser import ui
from tests.browser.conftest import (
    KERNEL_START,
    Front,
    assert_no_widget_errors,
    lab_goto,
    run_code,
    site_run_all,
    timing,
)
from tests.browser.test_board_browser import over, play_game

pytestmark = pytest.mark.browser

PUZZLE = "one-end-open"  # lesson 3's puzzle: "Can you claim flag 6?" No: one end is still open (R12)
RECORD = re.compile(r"PuzzleRecord\(solved=(True|False), attempts=(\d+), hints=(\d+)\)")
PROBE = (
    "from battleline_lab.training import progress; "
    f"print(progress.data_dir(), progress.Progress().get({PUZZLE!r}), progress.open_store()[0].where)"
)
PHONE = 480  # the front page's narrow links (simple notebook view) are for screens up to this width
#: What JupyterLite says in the console when a page's kernel may start without the browser-kept drive:
#: it replaces its service worker while the lesson opens, or the kernel starts without the drive.  The
#: site's drive gate (tools/site/drive-gate.js) makes sure neither happens (a solved puzzle's record
#: was seen lost so: lesson 3 is the second JupyterLite page the journey opens).
DRIVE_AT_RISK = ("unregistering existing service workers", "will NOT be synced")


def kernel_idle(page: Page, frontend: Front) -> None:
    """Wait until the lesson's kernel has started and is idle, in whichever view it opened.

    JupyterLab (``lab/`` on the site and the lab server) has a status bar; the site's simple
    notebook view (``notebooks/``) has none, and its execution indicator is there but hidden: it
    goes from "unknown" to idle when Pyodide is up, while the toolbar says "Kernel Connecting"."""
    if not frontend.site:
        page.locator(".jp-StatusBar-TextItem", has_text="Idle").first.wait_for(timeout=90_000)
        return
    # the lesson in sight (a workspace restored in the site's JupyterLab may hold other tabs)
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").first
    idle = panel.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']")
    if "/notebooks/" in page.url:  # one notebook; its indicator is in the top bar, not in the panel
        idle = page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']")
        starting = page.locator(".jp-NotebookKernelStatus", has_text="Connecting")
    else:  # as site_kernel_idle: the status bar says "| Idle" only once the kernel is up
        starting = page.locator(".jp-StatusBar-TextItem", has_text="| Unknown")
        expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first).to_be_visible(timeout=KERNEL_START)
    for _ in range(2):  # twice, a second apart, as site_kernel_idle does
        idle.first.wait_for(state="attached", timeout=KERNEL_START)
        expect(starting).to_have_count(0, timeout=KERNEL_START)
        page.wait_for_timeout(1000)


def run_all(page: Page, frontend: Front) -> None:
    """Run > Run All Cells (the menu bar is in both views), until no cell is queued."""
    if frontend.site:
        site_run_all(page)
        return
    page.locator(".lm-MenuBar-item").get_by_text("Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    busy = page.locator(".jp-Notebook-ExecutionIndicator[data-status='busy']")
    expect(busy.first).to_be_attached(timeout=30_000)
    expect(busy).to_have_count(0, timeout=KERNEL_START)


def in_sight(page: Page) -> Locator:
    """The notebook in sight: a workspace JupyterLab restores can hold other notebooks as tabs,
    hidden behind the one shown (their cells are in the page too).  A lesson opened by its link
    opens alone (:func:`alone`), so this only guards the look-ups."""
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)").locator(".jp-Notebook").first


def open_lesson(page: Page, frontend: Front, link: str, lesson: str, width: int, heading: str) -> None:
    """On the site: the front page's link ``link`` (a CSS selector), followed as a learner taps it,
    to the lesson's reading page, then its "Open as a notebook": the simple view on a phone and
    JupyterLab on a wide screen.  In JupyterLab (no front page): the same ``lesson`` by its path."""
    if frontend.site:
        page.goto(f"{frontend.url}/index.html")
        page.locator(link).click()
        page.wait_for_url(re.compile(r"/read/[^/]+\.html$"))
        page.locator("nav a.bl-open-notebook:visible").click()
        view = "/notebooks/index.html" if width <= PHONE else "/lab/index.html"
        page.wait_for_url(re.compile(re.escape(view) + r"\?path=" + re.escape(lesson)))
    else:
        lab_goto(page, frontend.url, f"notebooks/{lesson}")
    expect(in_sight(page)).to_be_visible(timeout=120_000)
    # the lesson asked for is the one shown: the site's JupyterLab first resets its workspace (the
    # lesson opened before, in sight) and then opens the one of ?path= (seen 19 s later at load 40)
    expect(in_sight(page)).to_contain_text(heading, timeout=120_000)


def alone(page: Page) -> None:
    """One notebook open, the lesson in sight: the site's JupyterLab used to restore every lesson
    opened before in the browser as a hidden tab, each starting its own Pyodide kernel (three at the
    game, three again after the reload); a lesson opened by its link now opens alone
    (``tools/site/lab-history.js``).  In JupyterLab (``?reset``) and in the simple view one notebook
    opens anyway."""
    expect(page.locator(".jp-NotebookPanel")).to_have_count(1)


def probe(page: Page) -> str:
    """:func:`run_code` with :data:`PROBE`, in the notebook in sight (hidden tabs have cells too)."""
    return run_code(page, PROBE, root=in_sight(page))


def record(shown: str) -> tuple[bool, int, int]:
    found = RECORD.search(shown)
    assert found, shown
    return found.group(1) == "True", int(found.group(2)), int(found.group(3))


def kept(shown: str, frontend: Front, before: tuple[bool, int, int]) -> None:
    """The probe's output ``shown`` says lesson 3's puzzle solved, in two attempts more than
    ``before``, with no hint; on the site, in the JSON-lines store on the browser-kept drive."""
    solved, attempts, hints = record(shown)
    assert (solved, attempts, hints) == (True, before[1] + 2, before[2]), (before, solved, attempts, hints)
    if frontend.site:
        assert "/drive/battleline-data" in shown and "progress.jsonl" in shown, shown


def before_journey(frontend: Front, monkeypatch: pytest.MonkeyPatch) -> tuple[bool, int, int]:
    """The puzzle's record before the journey: none on the site (a fresh browser context, an empty
    drive); in JupyterLab read from the lab server's data folder, which earlier tests may have used."""
    if frontend.data_dir is None:
        return False, 0, 0
    from battleline_lab.training import progress

    monkeypatch.setenv("BATTLELINE_LAB_DATA", str(frontend.data_dir))
    return record(repr(progress.Progress().get(PUZZLE)))


#: JupyterLab at 390 px is not tried: there its file browser leaves a lesson's cell about 20 px (the
#: game 22 px wide), which is why the site's front page links the simple view on a phone.
@pytest.mark.parametrize(
    ("frontend", "widths"),
    [pytest.param("lab", (1400,), id="lab-1400"), pytest.param("site", (390, 1400), id="site-390-then-1400")],
    indirect=["frontend"],
)
def test_a_learner_goes_from_the_front_page_through_a_puzzle_and_a_game_and_keeps_the_progress(
    front_page: Page, frontend: Front, output_dir: Path, monkeypatch: pytest.MonkeyPatch, widths: tuple[int, ...]
) -> None:
    """The whole journey at the first width; at each next width (the site: the same learner, the same
    browser and drive, on a wide screen after a phone) what depends on the width is checked again (the
    front page's fit, the view each link opens and Back from it, a lesson opened alone, the game's room
    and the page's fit, a reload's restore and the kept record); the puzzle and the game played to its
    end are the same steps there and are not repeated."""
    page = front_page
    if not frontend.site:  # the site's page accepts "leave the page?" already (front_page)
        page.on("dialog", lambda dialog: dialog.accept())
    before = before_journey(frontend, monkeypatch)
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text))
    for n, width in enumerate(widths):
        journey(page, frontend, output_dir, width, before, whole=n == 0)
    if frontend.site:
        assert not [line for line in said if any(risk in line for risk in DRIVE_AT_RISK)], said


def journey(
    page: Page, frontend: Front, output_dir: Path, width: int, before: tuple[bool, int, int], whole: bool
) -> None:
    """The journey at ``width``: ``whole``, every step; otherwise without the puzzle (lesson 3) and
    without playing the game, which an earlier width did on the same drive (the record is the same)."""
    page.set_viewport_size({"width": width, "height": 844 if width <= PHONE else 1000})
    started = time.monotonic()
    name = f"journey-{frontend.name}-{width}"

    # 1. the front page, "Start here": lesson 0; then back (the site only: JupyterLab has no front page)
    if frontend.site:
        page.goto(f"{frontend.url}/index.html")
        expect(page.locator("h1")).to_have_text("Battle Line Lab")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls"
        page.screenshot(path=str(output_dir / f"{name}-front.png"))
    open_lesson(page, frontend, "a.start:visible", "00-the-game-in-ten-minutes.ipynb", width, "the game in ten minutes")
    if frontend.site:  # the browser's Back returns to the reading page, then the front page, from either view
        if width > PHONE:  # once JupyterLab has dropped ?path= from the address (see the docstring)
            page.wait_for_url(f"{frontend.url}/lab/index.html", timeout=60_000)
        page.go_back()
        expect(page).to_have_url(f"{frontend.url}/read/00-the-game-in-ten-minutes.html", timeout=30_000)
        page.go_back()
        expect(page).to_have_url(f"{frontend.url}/index.html", timeout=30_000)
        expect(page.locator("a.start:visible")).to_be_visible()

    # 2. a puzzle lesson from the path (lesson 3): wrong, then right, then its proof, stepped
    if whole:
        path_link = "#path a.name:visible[href='read/03-claim-proofs.html']"
        open_lesson(page, frontend, path_link, "03-claim-proofs.ipynb", width, "Lesson 3")
        kernel_idle(page, frontend)
        run_all(page, frontend)
        puzzle = in_sight(page).locator(ui.PUZZLE).last
        expect(puzzle).to_be_visible(timeout=60_000)
        puzzle.scroll_into_view_if_needed()
        expect(puzzle.locator(ui.TITLE)).to_contain_text("Can you claim flag 6?")
        puzzle.locator(ui.ANSWER_YES).click()  # wrong: yellow 8 is still unseen (R12)
        expect(puzzle.locator(ui.FEEDBACK_WRONG)).to_be_visible(timeout=60_000)
        puzzle.locator(ui.ANSWER_NO).click()
        # its proof: yellow 8 could still come to them (the ghost, R12), from the palette of unseen troops
        puzzle.locator('.blb-evidence [data-action="evidence"][data-card="y8"]').click()
        expect(puzzle.locator(ui.FEEDBACK_RIGHT)).to_be_visible(timeout=60_000)
        expect(puzzle.locator(ui.FEEDBACK)).to_contain_text("One end still open")  # the headline, once solved
        expect(puzzle.locator(ui.EXPLANATION)).to_be_visible()
        counter = puzzle.locator(ui.STEP_COUNTER)
        expect(counter).to_contain_text("step 1 of")
        expect(puzzle.locator(ui.STEP_TEXT)).to_contain_text(re.compile(r"\S"))
        puzzle.locator(ui.STEP_NEXT).click()
        expect(counter).to_contain_text("step 2 of")
        puzzle.locator(ui.STEP_BACK).click()
        expect(counter).to_contain_text("step 1 of")
        assert_no_widget_errors(page)
        puzzle.screenshot(path=str(output_dir / f"{name}-proof.png"))
        kept(probe(page), frontend, before)  # written where it is kept, before the learner leaves
        timing(f"journey/{frontend.name}-{width}/puzzle_done_seconds", round(time.monotonic() - started, 1))

    # 3. the game from the front page's entry (lesson 6), played to the end by taps
    game_link = "#practice a.name:visible[href='read/06-play-a-game.html']"
    open_lesson(page, frontend, game_link, "06-play-a-game.ipynb", width, "Lesson 6")
    alone(page)  # the lessons opened before in this browser: not restored, no kernels of theirs
    kernel_idle(page, frontend)
    run_all(page, frontend)
    game = in_sight(page).locator(ui.GAME).last  # the learner's own game (the lesson's demo game is above it)
    expect(game.locator(ui.HAND_CARD).first).to_be_visible(timeout=60_000)
    game.scroll_into_view_if_needed()
    box = game.bounding_box()
    assert box is not None and box["width"] >= min(width * 0.8, 700), (width, box)  # room to play in
    if frontend.site:
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the game scrolls"
    if whole:
        play_game(page, game, keyboard=False)
        assert over(game)
        expect(game.locator(".bl-game-over")).to_be_visible()  # the game's own result ...
        expect(game.locator(".bl-new-game")).to_be_visible()  # ... and its "New game"
    assert_no_widget_errors(page)
    game.screenshot(path=str(output_dir / f"{name}-game{'-over' if whole else ''}.png"))
    timing(f"journey/{frontend.name}-{width}/game_done_seconds", round(time.monotonic() - started, 1))

    # 4. a reload: the progress is kept (lesson 3's record, in the learner's store).  After a reload
    # the site's JupyterLab restores its workspace: lesson 6 alone, the one the link opened.  At a later
    # width the record is read before the reload, in lesson 6's kernel (in JupyterLab, from what the
    # learner did in the simple view), and the reload checks what depends on the width, the view it
    # restores: the record kept over a reload was the first width's check, on the same drive, and its
    # reload's kernel would be the journey's seventh on the site
    if not whole:
        kept(probe(page), frontend, before)
    page.reload()
    expect(in_sight(page)).to_be_visible(timeout=120_000)
    expect(in_sight(page)).to_contain_text("Lesson 6")
    alone(page)
    if whole:
        kernel_idle(page, frontend)
        kept(probe(page), frontend, before)
    timing(f"journey/{frontend.name}-{width}/seconds", round(time.monotonic() - started, 1))
