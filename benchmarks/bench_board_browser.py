"""Browser benchmark: a move's round trip on the board component in JupyterLab.

Starts JupyterLab on a free loopback port (a temporary HOME, as ``tests/browser/conftest.py``
does), opens a notebook with ``GameWidget(bot="random", seed=S)`` in headless Chromium
(``/usr/bin/chromium``, or ``$BATTLELINE_CHROMIUM``) and plays moves by tapping the board's
hooks.  Timed inside the page (``performance.now()``, a ``MutationObserver`` on the board):

* ``select``: tap a hand card until its flags are lit (``data-legal``; drawn in the browser);
* ``play``: tap a lit flag until the card is drawn there (comm message, kernel, new view model);
* ``draw + reply``: tap the troop deck until the bot's reply is drawn (its card on the board);
* ``move``: ``play`` + ``draw + reply``, the round trip of a whole move.

The issue's target is a median move round trip of at most 150 ms; the figures are reported,
never asserted (the machine is shared: the load average is printed with them).

Usage::

    python benchmarks/bench_board_browser.py              # 3 games, 10 moves each
    python benchmarks/bench_board_browser.py --quick      # 1 game, 5 moves
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

CHROMIUM = os.environ.get("BATTLELINE_CHROMIUM", "/usr/bin/chromium")
TARGET_MS = 150.0

#: tap ``click`` inside the board and resolve when ``done()`` holds (ms), or -1 after 10 s
TIMED = """async ([click, done]) => {
    const board = document.querySelector('.bl-game .blb');
    const target = board.querySelector(click);
    if (!target) return null;
    const check = new Function('board', done);
    return await new Promise((resolve) => {
        const t0 = performance.now();
        const obs = new MutationObserver(() => {
            if (check(board)) { obs.disconnect(); resolve(performance.now() - t0); }
        });
        obs.observe(board, {subtree: true, childList: true, attributes: true});
        setTimeout(() => { obs.disconnect(); resolve(-1); }, 10000);
        target.click();
    });
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_lab(home: Path) -> tuple[subprocess.Popen[bytes], str, Path]:
    root = home / "root"
    root.mkdir(parents=True)
    env = dict(os.environ, HOME=str(home), BATTLELINE_LAB_DATA=str(home / "data"))
    env.update(JUPYTER_CONFIG_DIR=str(home / "cfg"), JUPYTER_DATA_DIR=str(home / "data-j"))
    env.update(JUPYTER_RUNTIME_DIR=str(home / "rt"), JUPYTERLAB_WORKSPACES_DIR=str(home / "ws"))
    settings = home / "lab-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
    env["JUPYTERLAB_SETTINGS_DIR"] = str(home / "lab-settings")
    port = free_port()
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}", "--ip=127.0.0.1", "--allow-root"]
    cmd += ["--IdentityProvider.token=", "--ServerApp.password=", f"--ServerApp.root_dir={root}"]
    log = (home / "lab.log").open("wb")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    url = f"http://127.0.0.1:{port}"
    for _ in range(180):
        try:
            urllib.request.urlopen(f"{url}/api", timeout=2)
            return proc, url, root
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise SystemExit("error: JupyterLab did not start")


def notebook(root: Path, seed: int) -> str:
    name = f"bench-{seed}.ipynb"
    source = f"from battleline_lab.widgets.game import GameWidget\nGameWidget(bot='random', seed={seed})"
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb = {"cells": [cell], "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}
    (root / name).write_text(json.dumps(nb))
    return name


def play(page: Page, url: str, name: str, moves: int) -> dict[str, list[float]]:
    page.goto(f"{url}/lab/tree/{name}?reset")
    page.locator(".jp-StatusBar-TextItem", has_text="Idle").first.wait_for(timeout=120_000)
    page.locator(".lm-MenuBar-item").get_by_text("Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.locator('.bl-game .blb [data-zone="hand"]').first.wait_for(timeout=120_000)
    page.wait_for_timeout(1000)
    times: dict[str, list[float]] = {"select": [], "play": [], "draw + reply": [], "move": []}
    for _ in range(moves):
        if page.locator(".bl-game .bl-game-over").is_visible():
            break
        card = page.locator('.bl-game .blb [data-zone="hand"]:not([aria-disabled="true"])').first
        notation = card.get_attribute("data-card")
        lit = "return !!board.querySelector('.blb-flag[data-legal=\"true\"]');"
        select = page.evaluate(TIMED, [f'[data-zone="hand"][data-card="{notation}"]', lit])
        if select is None:
            break
        drawn = f'return !!board.querySelector(\'[data-card="{notation}"][data-zone="board"]\');'
        played = page.evaluate(TIMED, ['.blb-flag[data-legal="true"]', drawn])
        page.wait_for_timeout(100)
        end = page.locator('.bl-game .blb [data-action="end"]')
        if end.count():  # a claim step first (R14): end it, untimed
            end.click()
            page.wait_for_timeout(500)
        before = page.locator('.bl-game .blb [data-zone="board"][data-side="opponent"]').count()
        reply = f'return board.querySelectorAll(\'[data-zone="board"][data-side="opponent"]\').length > {before};'
        replied = page.evaluate(TIMED, ['[data-action="draw"][data-deck="troops"]:not([aria-disabled="true"])', reply])
        times["select"].append(float(select))
        if played is not None and played >= 0:
            times["play"].append(float(played))
        if replied is not None and replied >= 0:
            times["draw + reply"].append(float(replied))
            if played is not None and played >= 0:
                times["move"].append(float(played) + float(replied))
        page.wait_for_timeout(200)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one game of 5 moves")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--moves", type=int, default=10)
    args = parser.parse_args(argv)
    games, moves = (1, 5) if args.quick else (args.games, args.moves)
    home = Path(tempfile.mkdtemp(prefix="bench-board-browser-"))
    proc, url, root = start_lab(home)
    merged: dict[str, list[float]] = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
            for k in range(games):
                for what, values in play(page, url, notebook(root, 20 + k), moves).items():
                    merged.setdefault(what, []).extend(values)
            browser.close()
    finally:
        proc.send_signal(signal.SIGINT)
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(home, ignore_errors=True)
    print(f"board component in JupyterLab + headless Chromium: {games} game(s) against the random bot (ms)")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus")
    print(f"{'tap':15} {'n':>4} {'median':>8} {'p90':>8} {'max':>8}")
    for what, values in merged.items():
        if values:
            ordered = sorted(values)
            p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
            print(f"{what:15} {len(values):4} {statistics.median(values):8.1f} {p90:8.1f} {ordered[-1]:8.1f}")
    if merged.get("move"):
        median = statistics.median(merged["move"])
        print(f"\nmove round trip median {median:.0f} ms: {median / TARGET_MS:.2f} x the {TARGET_MS:.0f} ms target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
