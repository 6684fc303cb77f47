"""Browser benchmark: click-to-visible-change times for answer, hint, step and game moves.

Measured inside the page: the click is sent from JavaScript and a ``MutationObserver`` on the
widget stops the clock when the watched part (the feedback, the hints, the step text, the
prompt, the board, the log) has changed: comm message, kernel, widget update and DOM.  The
figures are written to ``test-output/browser-latency.txt`` and printed; they are reported, not
asserted (the target: median ≤ 150 ms, none over 400 ms; a loaded machine shows more).

Both front ends: JupyterLab (:func:`test_click_to_visible_change_times`, ``browser-latency.txt``)
and the JupyterLite site (``browser-latency-site.txt``, the same rows).  On the site the clicks are
made by the sweep over every lesson (``test_site_browser.py``), on its own runs of lesson 5 (the
gym's clicks, :func:`site_gym_clicks`) and lesson 6 (the game's, :func:`site_game_clicks`), after
its own checks of each: a Pyodide kernel and a page of the site are most of a lesson's CPU time.
(There the gym's six puzzles take more answers and steps and fewer evidence cards than on a fresh
drive and kernel, the same from run to run: docs/testing.md.)
The two lessons are two cases of the sweep, perhaps on two pytest-xdist workers: each half leaves
its times in the run's temporary folder, and the one that finds the other's there writes the
report (:func:`site_half_done`); a run of one of the two lessons alone prints its half's table and
writes no report.  Run: ``.venv/bin/python -m pytest tests/browser/test_click_latency_browser.py -s``
(JupyterLab), and for the site ``tests/browser/test_site_browser.py -s -k "05-puzzle-gym.ipynb or
06-play-a-game.ipynb"``.
"""

from __future__ import annotations

import fcntl
import json
import os
import statistics
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import OUTPUT, Front, open_and_run, site_run_all

pytestmark = pytest.mark.browser

TIMED_CLICK = """async ([root, click, watch, index]) => {
    const box = document.querySelector(root);
    const on = (b) => !b.disabled && b.getAttribute("aria-disabled") !== "true";
    const targets = box ? [...box.querySelectorAll(click)].filter(on) : [];
    const target = targets[index];
    if (!target) return null;
    const part = () => [...box.querySelectorAll(watch)].map((w) => w.innerHTML).join('|');
    const before = part();
    return await new Promise((resolve) => {
        const t0 = performance.now();
        const obs = new MutationObserver(() => {
            if (part() !== before) { obs.disconnect(); resolve(performance.now() - t0); }
        });
        obs.observe(box, {subtree: true, childList: true, characterData: true, attributes: true});
        setTimeout(() => { obs.disconnect(); resolve(-1); }, 5000);
        target.click();
    });
}"""


def timed(page: Page, root: str, click: str, watch: str, index: int = 0) -> float | None:
    ms = page.evaluate(TIMED_CLICK, [root, click, watch, index])
    page.wait_for_timeout(150)  # let the rest of the update land before the next click
    return None if ms is None else float(ms)


def report(times: dict[str, list[float]]) -> str:
    lines = [f"{'click':<22} {'n':>4} {'median':>8} {'p90':>8} {'max':>8}  (ms)"]
    lost = sum(1 for values in times.values() for v in values if v < 0)
    times = {what: [v for v in values if v >= 0] for what, values in times.items()}
    for what, values in times.items():
        if not values:
            continue
        ordered = sorted(values)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        lines.append(f"{what:<22} {len(values):>4} {statistics.median(values):>8.0f} {p90:>8.0f} {max(values):>8.0f}")
    every = [v for values in times.values() for v in values]
    lines.append(f"{'all clicks':<22} {len(every):>4} {statistics.median(every):>8.0f} {'':>8} {max(every):>8.0f}")
    lines.append(f"clicks with no visible change within 5 s: {lost}")
    return "\n".join(lines)


#: The rows of the report, in its order: the gym's clicks (lesson 5), then the game's (lesson 6).
GYM_ROWS = ("answer", "hint", "step", "evidence")
GAME_ROWS = ("game: hand card", "game: flag", "game: draw + bot reply")
ROWS = ("answer", "hint", "step", "game: hand card", "game: flag", "game: draw + bot reply", "evidence")


def gym_clicks(page: Page) -> dict[str, list[float]]:
    """Lesson 5, just run on ``page``: six puzzles of the gym, each a hint, wrong answers until the
    right one, a claim's evidence, every proof step; the times of each kind of click."""
    times: dict[str, list[float]] = {what: [] for what in GYM_ROWS}
    gym = ".bl-gym-puzzle .bl-puzzle"
    expect(page.locator(gym)).to_be_visible(timeout=60_000)
    page.wait_for_timeout(1000)
    for _ in range(6):  # six puzzles: a hint, wrong answers until right, every proof step
        t = timed(page, gym, ".bl-hint", ".bl-hints")
        if t is not None:
            times["hint"].append(t)
        for attempt in range(8):  # each answer once, in order, until the right one
            if page.locator(f"{gym} .bl-feedback.bl-state-right").count():
                break
            watch = ".bl-feedback, .bl-board-view"
            t = timed(page, gym, ".bl-answer, .bl-check", watch, attempt)
            if t is None:
                break
            times["answer"].append(t)
        for attempt in range(60):  # a claim's evidence: each card on offer, in order, until a right one
            if page.locator(f"{gym} .bl-feedback.bl-state-right").count():
                break
            t = timed(page, gym, '[data-action="evidence"]', ".bl-feedback", attempt)
            if t is None:
                break
            times["evidence"].append(t)
        for _step in range(8):
            t = timed(page, gym, ".bl-next", ".bl-step-counter")
            if t is None:
                break
            times["step"].append(t)
        page.locator(".bl-gym .bl-next-puzzle").click()
        page.wait_for_timeout(600)
    assert times["answer"] and times["step"], "every kind of the gym's clicks was measured"
    return times


def game_clicks(page: Page) -> dict[str, list[float]]:
    """Lesson 6, just run on ``page``: up to eight moves of the learner's game by the board's hooks;
    the times of each kind of click."""
    times: dict[str, list[float]] = {what: [] for what in GAME_ROWS}
    game = ".bl-game"
    expect(page.locator(game).first).to_be_visible(timeout=60_000)
    expect(page.locator(".jp-OutputArea-output", has_text="'claim_timing': 'after_play'")).to_be_visible(timeout=60_000)
    page.wait_for_timeout(1000)
    for _move in range(8):
        if page.locator(f"{game} .bl-game-over").is_visible():
            break
        # the board's hooks: a hand card lights its flags in the browser (no kernel), the flag plays
        # it (the card drawn on its side), the deck draws and the bot replies (the log)
        t = timed(page, game, '.blb [data-zone="hand"]', ".blb-prompt")
        if t is None:
            break
        times["game: hand card"].append(t)
        t = timed(page, game, '.blb-flag[data-legal="true"]', ".blb-side")
        if t is not None:
            times["game: flag"].append(t)
        if page.locator(f'{game} [data-action="end"]').count():
            page.locator(f'{game} [data-action="end"]').click()
            page.wait_for_timeout(400)
        t = timed(page, game, '[data-action="draw"][data-deck="troops"]', ".bl-game-log")
        if t is not None:
            times["game: draw + bot reply"].append(t)
        page.wait_for_timeout(300)
    assert times["game: flag"], "every kind of the game's clicks was measured"
    return times


def in_order(times: dict[str, list[float]]) -> dict[str, list[float]]:
    """``times`` with every row of :data:`ROWS`, in the report's order (a row no half measured: empty)."""
    return {what: list(times.get(what, [])) for what in ROWS}


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_click_to_visible_change_times(front_page: Page, frontend: Front, output_dir: Path) -> None:
    """In JupyterLab: the gym's clicks on lesson 5, then the game's on lesson 6, in one page.  On the
    site the sweep over every lesson makes the same clicks on its own runs of the two lessons
    (:func:`site_gym_clicks`, :func:`site_game_clicks`: two Pyodide kernels and pages fewer)."""
    page, lab = front_page, frontend
    open_and_run(page, lab, "notebooks/05-puzzle-gym.ipynb")
    times = gym_clicks(page)
    open_and_run(page, lab, "notebooks/06-play-a-game.ipynb")
    times |= game_clicks(page)
    text = report(in_order(times))
    (output_dir / "browser-latency.txt").write_text(text + "\n")
    print("\n" + text)
    assert times["answer"] and times["step"] and times["game: flag"], "every kind of click was measured"


# ---------------------------------------------------------------------------------------------
# The site's half of the benchmark, on the sweep's runs of lessons 5 and 6

#: The halves of the site's report: the sweep's case of each lesson leaves its times under its name.
SITE_HALVES = ("gym", "game")
SITE_REPORT = "browser-latency-site.txt"


def run_folder(tmp_path: Path) -> Path:
    """The temporary folder of this pytest run that every pytest-xdist worker shares, from a test's
    ``tmp_path`` (``BASETEMP/NAME0``; a worker's ``BASETEMP`` is ``popen-gwN`` in the run's own)."""
    base = tmp_path.parent
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def site_half_done(half: str, times: dict[str, list[float]], tmp_path: Path, output_dir: Path) -> str | None:
    """Leave ``times`` of the site's ``half`` in the run's folder; once both halves are there (this
    one or the other was the second), write the site's report to ``output_dir`` and return it.
    One half at a time (a file lock): the second one to come finds the first."""
    folder = run_folder(tmp_path) / "click-latency-site"
    folder.mkdir(exist_ok=True)
    print(f"\nthe site's {half}:\n" + report(times))
    with (folder / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        (folder / f"{half}.json").write_text(json.dumps(times))
        parts = [folder / f"{name}.json" for name in SITE_HALVES]
        if not all(part.exists() for part in parts):
            return None
        every: dict[str, list[float]] = {}
        for part in parts:
            every |= json.loads(part.read_text())
    text = report(in_order(every))
    (output_dir / SITE_REPORT).write_text(text + "\n")
    print("\n" + text)
    return text


def site_gym_clicks(page: Page, tmp_path: Path) -> None:
    """The gym's clicks on the sweep's page of lesson 5, after its checks: Run All Cells again on its
    kernel gives a gym as a fresh run shows it (English, the first puzzle of the library)."""
    site_run_all(page)
    site_half_done("gym", gym_clicks(page), tmp_path, OUTPUT)


def site_game_clicks(page: Page, tmp_path: Path) -> None:
    """The game's clicks on the sweep's page of lesson 6, after its checks: Run All Cells again on its
    kernel gives a new game at turn 1 (theirs left a game in play and a card chosen), in the window
    this benchmark always had (1280 x 1000)."""
    page.set_viewport_size({"width": 1280, "height": 1000})
    site_run_all(page)
    site_half_done("game", game_clicks(page), tmp_path, OUTPUT)
