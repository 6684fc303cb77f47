"""Fixtures and helpers for the browser tests: a private JupyterLab server and headless Debian Chromium.

The server runs on a free loopback port with HOME, the Jupyter/IPython folders, the
JupyterLab settings and the learner's data folder all in a temporary directory, and serves a
copy of ``notebooks/`` and ``puzzles/`` (autosave off), so a test never reads or writes the
user's own set-up or the checkout.  Chromium is Debian's ``/usr/bin/chromium``
(never ``playwright install``), launched with the flags from TOOLCHAIN.md.

The helpers every test shares: :func:`open_and_run` (open a lesson, wait for its kernel, run
all cells), :func:`until` (poll for an asynchronous widget update) and
:func:`assert_no_widget_errors`; tests import them from ``tests.browser.conftest``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output"
CHROMIUM = os.environ.get("BATTLELINE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@dataclass(frozen=True)
class Lab:
    """A running JupyterLab: its base URL and the learner data folder its kernels use."""

    url: str
    data_dir: Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_up(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/api/status", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"JupyterLab did not come up in {timeout} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium)")
    home = tmp_path_factory.mktemp("lab-home")
    data = home / "battleline-data"
    settings = home / "lab-settings" / "@jupyterlab"
    (settings / "apputils-extension").mkdir(parents=True)
    (settings / "docmanager-extension").mkdir(parents=True)
    # no "Get notified about Jupyter news?" toast over the widgets
    (settings / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    # never save a notebook the test ran (the server works on a copy anyway)
    (settings / "docmanager-extension" / "plugin.jupyterlab-settings").write_text(json.dumps({"autosave": False}))
    # the server's root: a copy of the lessons and the puzzles they load (``../puzzles``)
    root = home / "root"
    for folder in ("notebooks", "puzzles"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    env = dict(os.environ)
    env.update(
        HOME=str(home),
        JUPYTER_CONFIG_DIR=str(home / "jupyter-config"),
        JUPYTER_DATA_DIR=str(home / "jupyter-data"),
        JUPYTER_RUNTIME_DIR=str(home / "jupyter-runtime"),
        IPYTHONDIR=str(home / "ipython"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "lab-settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "lab-workspaces"),
        BATTLELINE_LAB_DATA=str(data),
    )
    # what `./dev lab` does before opening the lessons: trust them, so that JupyterLab shows their
    # saved pictures (SVG, HTML) and widgets at once instead of the plain-text fallbacks
    lessons = sorted(str(p) for p in (root / "notebooks").rglob("*.ipynb"))
    trust = Path(sys.executable).with_name("jupyter-trust")
    subprocess.run([str(trust), *lessons], env=env, check=True, stdout=subprocess.DEVNULL)
    port = _free_port()
    log = home / "jupyter.log"
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        f"--port={port}",
        "--ip=127.0.0.1",
        "--allow-root",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        f"--ServerApp.root_dir={root}",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=root)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_up(url, proc, log)
        yield Lab(url, data)
    finally:
        for _ in range(2):  # SIGINT twice: the server asks, then shuts its kernels down
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                time.sleep(0.5)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def sync_pw() -> Iterator[Playwright]:
    """The session's one Playwright: its sync API runs an event loop, so a second one cannot start."""
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def chromium(sync_pw: Playwright) -> Iterator[Browser]:
    browser = sync_pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def lab_page(chromium: Browser) -> Iterator[Page]:
    """A fresh browser context and page (named so as not to clash with pytest-playwright's ``page``)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        yield page
    finally:
        context.close()


def open_and_run(page: Page, lab: Lab, notebook: str) -> None:
    """Open a notebook in a fresh workspace, wait for the kernel, then Run > Run All Cells."""
    page.goto(f"{lab.url}/lab/tree/{notebook}?reset")
    page.locator(".jp-StatusBar-TextItem", has_text="Idle").first.wait_for(timeout=90_000)
    page.locator(".lm-MenuBar-item").get_by_text("Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


def until(check: Callable[[], bool], what: str, timeout: float = 15) -> None:
    """Poll the page until ``check()`` holds (widget updates arrive asynchronously)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def assert_no_widget_errors(page: Page) -> None:
    """No widget failed to display and no cell wrote to stderr."""
    assert "Error displaying widget" not in page.content()
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0


@pytest.fixture
def output_dir() -> Path:
    """Screenshots go to ``test-output/`` (gitignored)."""
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT
