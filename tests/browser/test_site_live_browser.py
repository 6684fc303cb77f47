"""The reading pages' live cells (``tools/site/live.js``, docs/site.md): a lesson cell that needs Python
comes alive by itself, with no JupyterLab and no "Run All".

In headless Chromium, offline (every host but 127.0.0.1 fails, and fails the test): lesson 6's reading
page says "starting…" on its game, runs the lesson's cells in Pyodide in a Web Worker (from the site's
own files) and then plays a turn: a card to a flag and a draw, and the bot's reply in the log; the
Chinese page says it in Chinese; lesson 5's gym answers its first puzzle's hint from Python; and
lesson 3, whose puzzle answers from its saved table, starts no worker and loads nothing of Pyodide.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import Offline, until
from tests.browser.conftest import timing as _timing

pytestmark = pytest.mark.browser

#: Pyodide's start in a worker on a loaded machine (load 20: over a minute once); quiet, a few seconds.
LIVE_TIMEOUT = 240_000


def test_lesson_six_game_plays_a_turn_without_run_all_R4(offline_chromium: Browser, site_url: str) -> None:
    """The game answers taps once the page's Python has run the lesson: the learner's card goes to a
    lit flag, the draw ends the turn, and the bot's move (R4: the players alternate) shows in the log."""
    offline = Offline(offline_chromium, viewport=(1400, 1000), warm=True)
    page = offline.context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    workers: list[str] = []
    page.on("worker", lambda worker: workers.append(worker.url))
    try:
        started = time.monotonic()
        page.goto(f"{site_url}/read/06-play-a-game.html")
        game = page.locator(".bl-widget").filter(has=page.locator(".bl-game"))
        status = page.locator(".bl-live-status")
        expect(status).to_have_count(1)
        expect(status).to_have_attribute("data-live", "starting")  # before Python can answer, it says so
        expect(status).to_have_text("starting…")
        expect(game).to_have_attribute("data-live", "ready", timeout=LIVE_TIMEOUT)
        _timing("live_game_seconds", round(time.monotonic() - started, 1))
        assert workers == [f"{site_url}/read/live.js"]
        # the notice "open the notebook to use it" no longer holds
        expect(page.locator(".bl-needs-python:visible")).to_have_count(0)
        assert page.locator(".jp-Notebook, .jp-LabShell").count() == 0
        expect(game.locator(".bl-game-log")).to_contain_text("No moves yet")

        hand = game.locator('[data-zone="hand"]')
        cards = hand.count()
        card = hand.first.get_attribute("data-card")
        hand.first.click()
        flag = game.locator(".blb-flag[data-legal]").first
        expect(flag).to_be_visible()
        flag.click()
        game.locator('[data-action="draw"][data-deck="troops"]').click()
        log = game.locator(".bl-game-log")
        expect(log).to_contain_text("South (you) draws from the troop deck", timeout=30_000)
        expect(log).to_contain_text("North (heuristic bot)")  # the bot replied in the same reply
        expect(hand).to_have_count(cards, timeout=10_000)  # played one, drew one
        assert card is not None and game.locator(f'[data-zone="hand"][data-card="{card}"]').count() == 0
        assert not errors, errors
        assert offline.outside == [], f"requests to other hosts: {offline.outside}"
    finally:
        offline.context.close()


def test_lesson_five_gym_answers_its_first_puzzle_from_python(offline_chromium: Browser, site_url: str) -> None:
    """The gym comes alive by itself too; its own puzzle has no saved response table, so the hint it
    shows after a tap can only come from the page's Python."""
    offline = Offline(offline_chromium, viewport=(1400, 1000), warm=True)
    page = offline.context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        started = time.monotonic()
        page.goto(f"{site_url}/read/05-puzzle-gym.html")
        gym = page.locator(".bl-widget[data-live]").filter(has=page.locator(".bl-gym"))
        expect(gym).to_have_attribute("data-live", "ready", timeout=LIVE_TIMEOUT)
        puzzle = gym.locator(".bl-gym-puzzle .bl-puzzle")
        hints = puzzle.locator(".bl-hints li")
        shown = hints.count()
        puzzle.locator(".bl-hint").first.click()
        expect(hints).to_have_count(shown + 1, timeout=30_000)
        assert (hints.last.text_content() or "").strip()
        _timing("live_gym_hint_seconds", round(time.monotonic() - started, 1))
        assert not errors, errors
        assert offline.outside == [], f"requests to other hosts: {offline.outside}"
    finally:
        offline.context.close()


#: The lines of each file of the live pages' data folder, read from IndexedDB (Pyodide's IDBFS keeps
#: a file's bytes in the database named after the folder, object store FILE_DATA, key: its path).
READ_DATA = """async () => {
  const db = await new Promise((ok, no) => {
    const open = indexedDB.open("/home/pyodide/battleline-lab");
    open.onsuccess = () => ok(open.result);
    open.onerror = () => no(open.error);
  });
  const store = db.transaction("FILE_DATA", "readonly").objectStore("FILE_DATA");
  const ask = (request) => new Promise((ok) => { request.onsuccess = () => ok(request.result); });
  const out = {};
  for (const key of await ask(store.getAllKeys())) {
    const entry = await ask(store.get(key));
    if (entry && entry.contents) out[key] = new TextDecoder().decode(entry.contents).split("\\n").filter(Boolean);
  }
  db.close();
  return out;
}"""


def test_two_tabs_of_the_gym_keep_both_answers(offline_chromium: Browser, site_url: str) -> None:
    """The live pages keep the learner's progress in IndexedDB, and each tab's Python works on its own
    copy of that folder: the gym open in two tabs, an answer in the first and then one in the second,
    and both answers are in the stored progress (the second tab's copy written back used to replace
    the first tab's row: one answer lost)."""
    offline = Offline(offline_chromium, viewport=(1400, 1000), warm=True)
    errors: list[str] = []
    try:
        tabs = [offline.context.new_page() for _ in range(2)]
        puzzles = []
        for page in tabs:
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{site_url}/read/05-puzzle-gym.html")
            gym = page.locator(".bl-widget[data-live]").filter(has=page.locator(".bl-gym"))
            expect(gym).to_have_attribute("data-live", "ready", timeout=LIVE_TIMEOUT)
            puzzles.append(gym.locator(".bl-gym-puzzle .bl-puzzle"))
        progress = "/home/pyodide/battleline-lab/progress.jsonl"

        def stored() -> list[str]:
            rows: list[str] = tabs[0].evaluate(READ_DATA).get(progress, [])
            return rows

        assert stored() == []
        for n, puzzle in enumerate(puzzles, start=1):
            puzzle.locator(".bl-answer").first.click()  # right or wrong, an answer is recorded
            expect(puzzle.locator(".bl-feedback")).to_contain_text(re.compile(r"\S"), timeout=30_000)
            until(lambda n=n: len(stored()) >= n, f"{n} rows of progress in IndexedDB", timeout=30)
            rows = stored()
            assert len(rows) == n, rows
        kinds = [json.loads(row)["kind"] for row in rows]
        assert kinds == ["answer", "answer"], rows
        assert not errors, errors
        assert offline.outside == [], f"requests to other hosts: {offline.outside}"
    finally:
        offline.context.close()


def test_the_chinese_page_says_starting_in_chinese(offline_chromium: Browser, site_url: str) -> None:
    offline = Offline(offline_chromium, viewport=(390, 844), warm=True)
    page = offline.context.new_page()
    try:
        page.goto(f"{site_url}/read/zh-06-play-a-game.html")
        status = page.locator(".bl-live-status")
        expect(status).to_have_attribute("data-live", "starting")
        expect(status).to_have_text("正在启动…")
        # the game's own controls, disabled until Python answers, say why on hover
        controls = page.locator(".bl-widget[data-live] button[disabled]")
        assert controls.count() > 0
        assert {controls.nth(k).get_attribute("title") for k in range(controls.count())} == {"正在启动…"}
    finally:
        offline.context.close()


def test_a_lesson_whose_puzzle_answers_from_its_table_starts_no_python(
    offline_chromium: Browser, site_url: str
) -> None:
    offline = Offline(offline_chromium, viewport=(1400, 1000), warm=True)
    page = offline.context.new_page()
    workers: list[str] = []
    page.on("worker", lambda worker: workers.append(worker.url))
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    try:
        page.goto(f"{site_url}/read/03-claim-proofs.html")
        expect(page.locator(".bl-puzzle").first).to_be_visible(timeout=30_000)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.blLive") is None
        assert workers == []
        assert [url for url in requests if "/static/pyodide/" in url] == []
        expect(page.locator(".bl-live-status")).to_have_count(0)
    finally:
        offline.context.close()


def test_the_shipped_package_holds_its_source_and_pyodides_bytecode(site: Path) -> None:
    """The page's Python imports battleline_lab from bytecode made by Pyodide's own Python at build
    time (it compiles nothing on import), and the source is still there, the checkout's own (for
    tracebacks); the lock names the wheel shipped, by its hash."""
    folder = site / "static" / "pyodide"
    lock = json.loads((folder / "pyodide-lock.json").read_text())
    entry = lock["packages"]["battleline-lab"]
    with zipfile.ZipFile(folder / entry["file_name"]) as wheel:
        names = set(wheel.namelist())
        sources = sorted(n for n in names if n.startswith("battleline_lab/") and n.endswith(".py"))
        assert "battleline_lab/widgets/lazy_ipython.py" in sources
        missing = [
            n
            for n in sources
            if f"{n.rsplit('/', 1)[0]}/__pycache__/{n.rsplit('/', 1)[1][:-3]}.cpython-314.pyc" not in names
        ]
        assert missing == []
        root = Path(__file__).resolve().parents[2]
        # (the site builder's own copy, battleline_lab/sitebuild/, comes from tools/: not compared here)
        compared = [n for n in sources if (root / n).is_file()]
        assert len(compared) > 50, compared
        assert [n for n in compared if wheel.read(n) != (root / n).read_bytes()] == []
    assert hashlib.sha256((folder / entry["file_name"]).read_bytes()).hexdigest() == entry["sha256"]
