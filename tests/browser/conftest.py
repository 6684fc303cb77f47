"""Fixtures and helpers for the browser tests: a private JupyterLab server and headless Debian Chromium.

The server runs on a free loopback port with HOME, the Jupyter/IPython folders, the
JupyterLab settings and the learner's data folder all in a temporary directory, and serves a
copy of ``notebooks/`` and ``puzzles/`` (autosave off), so a test never reads or writes the
user's own set-up or the checkout.  Chromium is Debian's ``/usr/bin/chromium``
(never ``playwright install``), launched with the flags from TOOLCHAIN.md.

The helpers every test shares: :func:`open_and_run` (open a lesson, wait for its kernel, run
all cells), :func:`until` (poll for an asynchronous widget update) and
:func:`assert_no_widget_errors`; tests import them from ``tests.browser.conftest``.

Both front ends: a test that takes the ``frontend`` fixture (and ``front_page``) runs twice, in
JupyterLab and in the JupyterLite site that ``./dev site`` builds (``site``/``site_url``: built
into a temporary folder, served on 127.0.0.1, opened in a Chromium whose every request to
another host fails and is recorded; the test fails if there was one).  The selectors those
tests use are in ``tests/browser/ui.py``.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    Playwright,
    Request,
    expect,
    sync_playwright,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

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


def _wait_up(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 240) -> None:
    """Until the server answers (it fails at once if it exits); the cap is the kernels' own budget
    (:data:`KERNEL_START`): a server is only slow to start on a machine too loaded for 90 s."""
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


#: the JupyterLab server of this worker, once the ``lab`` fixture has started it (for
#: :func:`_sessions_closed_after_each_test`)
_LAB_URLS: list[str] = []


def _api(url: str, method: str = "GET") -> object:
    request = urllib.request.Request(url, method=method)
    with urllib.request.urlopen(request, timeout=60) as answer:
        body = answer.read()
    return json.loads(body) if body else None


def close_sessions(url: str, path: str | None = None) -> list[str]:
    """Close (DELETE, which shuts its kernel down) every kernel session of the JupyterLab server at
    ``url`` on the notebook ``path`` (a path in the server's root), or every session when ``path`` is
    None; returns the paths closed.

    A worker's tests share one server: a lesson opened on a path whose session an earlier test left
    open joins that session and its kernel, with the earlier test's widget models gone from the
    page ("Error displaying widget: model not found") or its kernel still busy (a lesson waiting
    150 s for its kernel)."""
    sessions = _api(f"{url}/api/sessions")
    assert isinstance(sessions, list), sessions
    closed = []
    for session in sessions:
        if path is None or session.get("path") == path:
            _api(f"{url}/api/sessions/{session['id']}", "DELETE")
            closed.append(str(session.get("path")))
    return closed


@pytest.fixture(autouse=True)
def _sessions_closed_after_each_test() -> Iterator[None]:
    """When a test ends (after its pages closed: an autouse fixture is torn down after the test's
    own fixtures), close every kernel session left on this worker's JupyterLab server, so that no
    later test, in whatever order the tests run, finds one on its notebook."""
    yield
    for url in list(_LAB_URLS):
        close_sessions(url)


def lab_goto(page: Page, url: str, notebook: str) -> None:
    """Open ``notebook`` (a path in the server's root) in a fresh JupyterLab workspace on the server
    at ``url``, after closing any session left on that path (:func:`close_sessions`): the lesson
    starts its own kernel."""
    close_sessions(url, notebook)
    page.goto(f"{url}/lab/tree/{notebook}?reset")


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
        # the tests close kernel sessions through the REST API (:func:`close_sessions`), with no
        # token and no cookie: on this loopback-only, token-less test server that needs no XSRF check
        "--ServerApp.disable_check_xsrf=True",
        # ``window.jupyterapp``: a test may open the next lesson in the JupyterLab already in its page
        # (its commands) instead of booting JupyterLab again (test_lessons_cold.py)
        "--LabApp.expose_app_in_browser=True",
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=root)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_up(url, proc, log)
        _LAB_URLS.append(url)
        yield Lab(url, data)
    finally:
        if url in _LAB_URLS:
            _LAB_URLS.remove(url)
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


def open_and_run(page: Page, lab: Lab | Front, notebook: str) -> None:
    """Open a notebook in a fresh workspace, wait for the kernel, then Run > Run All Cells.

    ``notebook`` is a path in the lab server's root (``notebooks/05-puzzle-gym.ipynb``); on the
    site (a :class:`Front` named ``site``) the same lesson is opened there and this returns when
    every cell has run.
    """
    if isinstance(lab, Front) and lab.name == "site":
        site_open(page, lab.url, notebook.removeprefix("notebooks/"))
        site_run_all(page)
        return
    lab_goto(page, lab.url, notebook)
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


# ---------------------------------------------------------------------------------------------
# The JupyterLite site (``./dev site``), offline, and the two front ends as one fixture

KERNEL_START = 240_000  # ms: Pyodide's kernel can take a long time on a loaded machine
SITE_BUDGET_MB = 60


def timing(key: str, value: float) -> None:
    """Record a figure of the site in ``test-output/site-timings.json`` (docs/site.md reports them)."""
    OUTPUT.mkdir(exist_ok=True)
    path = OUTPUT / "site-timings.json"
    # the browser and site tiers of ./dev test run side by side and both record figures: one at a time
    with (OUTPUT / "site-timings.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = json.loads(path.read_text()) if path.exists() else {}
        data[key] = value
        path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"site: {key} = {value}")


def build_site(command: list[str], out: Path, *, record: bool = True) -> Path:
    """Run one site build, ``command`` (which writes into ``out``), and check the site's size budget;
    ``record``: its time and size go to ``test-output/site-timings.json``."""
    started = time.monotonic()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert result.returncode == 0, result.stdout[-4000:]
    seconds = time.monotonic() - started
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    if record:
        timing("build_seconds", round(seconds, 1))
        timing("site_mb", round(size / 1e6, 1))
    assert size < SITE_BUDGET_MB * 1e6, f"the site is {size / 1e6:.1f} MB (budget {SITE_BUDGET_MB} MB)"
    return out


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built as ``./dev site`` builds it (downloads cached in ``.site-cache/``).

    Built once per run: ``./dev test`` runs the browser tests on several pytest-xdist workers, and
    the first that needs the site builds it into the folder they share (their temporary folders'
    parent) while the others wait on a lock, then use it.  Each checks its size budget.
    """
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    out = shared / "site" / "_site"
    built = out.parent / "built"
    with (shared / "site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not built.exists():
            shutil.rmtree(out, ignore_errors=True)
            out.parent.mkdir(parents=True, exist_ok=True)
            build_site([sys.executable, str(ROOT / "tools" / "build_site.py"), "--out", str(out)], out)
            built.touch()
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    assert size < SITE_BUDGET_MB * 1e6, f"the site is {size / 1e6:.1f} MB (budget {SITE_BUDGET_MB} MB)"
    return out


#: A teacher's own small set (two puzzles of their own), for ``battleline-lab site --puzzles``.
CLASS_PUZZLES = ROOT / "tests" / "data" / "class-puzzles"


@pytest.fixture(scope="session")
def class_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site with a teacher's set, built as a teacher builds it: the installed package's command
    ``battleline-lab site --puzzles DIR --out DIR`` (the downloads from the same ``.site-cache/``)."""
    command = Path(sys.executable).with_name("battleline-lab")
    assert command.is_file(), f"the package's command is not installed beside {sys.executable}"
    out = tmp_path_factory.mktemp("class-site") / "battleline-site"
    cache = ROOT / ".site-cache"
    return build_site(
        [str(command), "site", "--puzzles", str(CLASS_PUZZLES), "--out", str(out), "--cache", str(cache)],
        out,
        record=False,
    )


def serve(folder: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """``python -m http.server`` on a free loopback port for ``folder``, once it answers."""
    port = _free_port()
    cmd = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url + "/index.html", timeout=2).close()
            return url, proc
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("the static server did not start") from None
            time.sleep(0.2)


@pytest.fixture(scope="session")
def site_url(site: Path) -> Iterator[str]:
    url, proc = serve(site)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def class_site_url(class_site: Path) -> Iterator[str]:
    url, proc = serve(class_site)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def offline_chromium(sync_pw: Playwright, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """Chromium whose only way out is a proxy on a closed local port: every request to a host
    other than 127.0.0.1 (loopback is never proxied) fails in the browser itself.

    (Playwright's ``context.route``/``page.route`` cannot be used here: with any route installed
    the Pyodide kernel's web worker never loads Pyodide, on Playwright 1.65 with JupyterLite's
    service worker; blocking the service worker instead leaves the site without its file drive.)

    Its contexts are incognito; ``Offline(..., warm=True)`` launches one with a profile of this
    worker's :class:`WarmProfiles` instead (the same executable, flags and proxy).
    """
    browser = sync_pw.chromium.launch(
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        proxy=_offline_proxy(),
    )
    WARM.root = tmp_path_factory.mktemp("chromium-profiles")
    try:
        yield browser
    finally:
        browser.close()
        shutil.rmtree(WARM.root, ignore_errors=True)
        WARM.root = None


def _offline_proxy() -> dict[str, str]:
    """A proxy on a closed local port that loopback bypasses: a request to any other host fails."""
    return {"server": f"http://127.0.0.1:{_free_port()}", "bypass": "127.0.0.1"}


class WarmProfiles:
    """Chromium profile folders of this pytest worker, each used by one browser at a time, whose
    HTTP cache and compiled-code cache outlive the browser and nothing else does.

    Playwright's contexts are incognito, and Chromium keeps no compiled code for an incognito
    context: each site kernel compiled Pyodide's WebAssembly (9.6 MB) again, and each page the
    site's JavaScript, about a fifth of a lesson's kernel start (docs/testing.md, "Warm browser
    profiles").  A learner's browser keeps them, so a test whose point is not the first visit may
    start warm.  Everything else a profile holds (IndexedDB, which holds the site's drive, local
    storage, service workers, cookies, history, preferences) is deleted before each launch, so a
    warm context starts with a drive and a store nobody wrote, as an incognito one does.
    """

    #: What a profile keeps from one browser to the next (folders of its ``Default/`` profile).
    KEPT = ("Cache", "Code Cache")

    def __init__(self) -> None:
        self.root: Path | None = None
        self.free: list[Path] = []

    def take(self) -> Path:
        """A profile folder no browser uses, emptied of everything but :data:`KEPT`."""
        assert self.root is not None, "warm contexts need the offline_chromium fixture"
        folder = self.free.pop() if self.free else Path(tempfile.mkdtemp(dir=self.root))
        for path in folder.iterdir():
            if path.name != "Default":
                _remove(path)
        default = folder / "Default"
        if default.is_dir():
            for path in default.iterdir():
                if path.name not in self.KEPT:
                    _remove(path)
        return folder

    def give_back(self, folder: Path) -> None:
        if self.root is not None and folder.parent == self.root and folder not in self.free:
            self.free.append(folder)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


#: This worker's warm profiles (set up by ``offline_chromium``).
WARM = WarmProfiles()


class Offline:
    """A browser context that records every request not to 127.0.0.1 (the proxy makes each fail)."""

    def __init__(self, browser: Browser, viewport: tuple[int, int] = (1280, 1000), *, warm: bool = False) -> None:
        """A context of ``browser`` (the ``offline_chromium`` fixture's); with ``warm``, one of a browser
        of its own on a profile of :data:`WARM`, whose HTTP and compiled-code caches earlier warm
        contexts of this worker filled (nothing else of theirs is kept). Closing the context
        closes that browser and gives its profile back."""
        self.outside: list[str] = []
        size = {"width": viewport[0], "height": viewport[1]}
        if warm:
            profile = WARM.take()
            self.context: BrowserContext = browser.browser_type.launch_persistent_context(
                profile,
                executable_path=CHROMIUM,
                args=CHROMIUM_ARGS,
                headless=True,
                proxy=_offline_proxy(),
                viewport=size,
                accept_downloads=True,
            )
            self.context.on("close", lambda _: WARM.give_back(profile))
        else:
            self.context = browser.new_context(viewport=size, accept_downloads=True)
        self.context.on("request", self._seen)

    @staticmethod
    def local(url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in ("data", "blob") or parts.hostname == "127.0.0.1"

    def _seen(self, request: Request) -> None:
        if not self.local(request.url) and request.url not in self.outside:
            self.outside.append(request.url)


def site_open(page: Page, url: str, lesson: str) -> None:
    """Open ``lesson`` (a path in the site's contents) in the site's lab view; wait for its kernel."""
    page.goto(f"{url}/lab/index.html?path={lesson}")
    page.locator(".jp-Notebook").first.wait_for(timeout=120_000)
    site_kernel_idle(page)


def site_kernel_idle(page: Page) -> None:
    """Wait until the site's kernel has started and is idle.  The notebook's indicator says idle for
    a moment before the kernel starts (then "unknown" until Pyodide is up, 15-40 s): a Run All
    given then waits in the queue, so the status bar's "Idle" is waited for too, twice, a second apart
    (the second look needs no pause after it)."""
    for look in range(2):
        if look:
            page.wait_for_timeout(1000)
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=KERNEL_START)
        page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first.wait_for(timeout=KERNEL_START)


#: A script: from now on, ``window.__blRunSeen`` becomes true as soon as the page shows a queued
#: cell (a ``[*]`` prompt) or a busy kernel (the notebook's indicator), however briefly: a
#: MutationObserver looks at the page after every change and at the values each change replaced.
_RUN_WATCH = """() => {
    const prompt = '.jp-CodeCell .jp-InputPrompt', busy = ".jp-Notebook-ExecutionIndicator[data-status='busy']";
    const promptOf = n => { const el = n && (n.nodeType === 1 ? n : n.parentElement);
                            return !!(el && el.closest && el.closest('.jp-InputPrompt')); };
    const seen = records => {
        if (document.querySelector(busy)) return true;
        if (Array.from(document.querySelectorAll(prompt)).some(el => el.textContent.includes('*'))) return true;
        return records.some(r =>
            (r.type === 'attributes' && r.attributeName === 'data-status' && r.oldValue === 'busy') ||
            (r.type === 'characterData' && promptOf(r.target) && (r.oldValue || '').includes('*')) ||
            (r.type === 'childList' && promptOf(r.target) &&
             Array.from(r.removedNodes).some(n => (n.textContent || '').includes('*'))));
    };
    if (window.__blRunWatch) window.__blRunWatch.disconnect();
    window.__blRunSeen = false;
    window.__blRunNow = () => seen([]);
    window.__blRunWatch = new MutationObserver(records => {
        if (!window.__blRunSeen && seen(records)) window.__blRunSeen = true;
    });
    window.__blRunWatch.observe(document.body, {subtree: true, childList: true, characterData: true,
        characterDataOldValue: true, attributes: true, attributeFilter: ['data-status'], attributeOldValue: true});
}"""


def site_run_all(page: Page, timeout: float = KERNEL_START) -> None:
    """Run > Run All Cells on the site (or in JupyterLab: the same notebook toolbar), and wait until
    no cell is queued and the kernel is idle (``timeout`` in ms)."""
    queued = page.locator(".jp-CodeCell .jp-InputPrompt").filter(has_text="*")
    busy = page.locator(".jp-Notebook-ExecutionIndicator[data-status='busy']")
    # queued cells show [*] at once, and the kernel is busy; the run is over when no cell is queued
    # and the kernel is idle (a cell whose code is collapsed draws no prompt: a lesson whose only
    # code cell builds the gym shows no [*], only a busy kernel).  A Run All given the moment the
    # kernel first reports idle is now and then dropped by the page (nothing is ever queued, seen
    # in about one run in three): give it again, at most twice more, only if nothing was queued.
    # "Nothing" is what the page recorded (:data:`_RUN_WATCH`), not what two looks 10 s apart saw:
    # a short lesson can run whole between them, and a second Run All then ran every cell twice.
    page.evaluate(_RUN_WATCH)
    for attempt in range(3):
        page.locator(".lm-MenuBar-item").get_by_text("Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        try:
            page.wait_for_function("() => window.__blRunSeen === true || window.__blRunNow()", timeout=10_000)
            break
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise AssertionError("Run All Cells queued no cell and the kernel never got busy") from None
    page.evaluate("() => { window.__blRunWatch && window.__blRunWatch.disconnect(); }")
    expect(queued).to_have_count(0, timeout=timeout)
    expect(busy).to_have_count(0, timeout=timeout)


def run_finished(page: Page, timeout: float = KERNEL_START) -> None:
    """Wait until no cell is queued and the notebook's kernel is idle (its toolbar indicator, in
    JupyterLab and on the site alike): every cell a Run All queued has run."""
    expect(page.locator(".jp-CodeCell .jp-InputPrompt").filter(has_text="*")).to_have_count(0, timeout=timeout)
    expect(page.locator(".jp-Notebook-ExecutionIndicator[data-status='busy']")).to_have_count(0, timeout=timeout)


#: The boxes of the notebook panel in sight and of the package's widgets, as one string (a script).
_LAYOUT = """() => [document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)') || document.body,
    ...document.querySelectorAll('.bl-puzzle, .bl-gym, .bl-explorer, .bl-game, .bl-editor')]
    .map(el => { const r = el.getBoundingClientRect(); return `${r.x},${r.y},${r.width},${r.height}`; }).join(' ')"""


def layout_settled(page: Page) -> None:
    """After the viewport changed: wait until JupyterLab and the widgets have laid themselves out
    again: the notebook panel fits the new width and no box moved over three animation frames."""
    page.evaluate(
        """(layout) => new Promise(resolve => {
            const boxes = eval(layout);
            let last = '', same = 0;
            const look = () => {
                const now = boxes();
                const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
                const fits = !panel || panel.getBoundingClientRect().right <= window.innerWidth + 1;
                same = now === last && fits ? same + 1 : 0;
                last = now;
                if (same >= 3) resolve(true); else requestAnimationFrame(look);
            };
            requestAnimationFrame(look);
        })""",
        _LAYOUT,
    )


def run_all_and_wait(page: Page) -> None:
    """Run > Run All Cells in JupyterLab (its kernel idle), and wait until the run is over: no cell
    queued and the kernel idle again, read from the notebook's toolbar, which JupyterLab and the
    site share (:func:`site_run_all`)."""
    site_run_all(page)


AXE_VERSION = "4.10.2"
AXE_CACHE = ROOT / ".cache" / "axe"
#: the roots of the package's widgets: the scope of the axe-core audits
WIDGET_ROOTS = ".bl-puzzle, .bl-gym, .bl-explorer, .bl-game, .bl-editor"


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """``axe.min.js`` from the npm registry's tarball (``npm pack``), cached in ``.cache/axe`` (gitignored).

    The browser tier's workers may all want it at once: the first fetches it under a file lock, the
    others wait for it and read the file."""
    target = AXE_CACHE / f"axe-core-{AXE_VERSION}" / "axe.min.js"
    AXE_CACHE.mkdir(parents=True, exist_ok=True)
    with (AXE_CACHE / "fetch.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not target.exists():
            tgz = AXE_CACHE / f"axe-core-{AXE_VERSION}.tgz"
            if not tgz.exists():
                subprocess.run(
                    ["npm", "pack", f"axe-core@{AXE_VERSION}"], cwd=AXE_CACHE, check=True, capture_output=True
                )
            with tarfile.open(tgz) as tar:
                data = tar.extractfile(tar.getmember("package/axe.min.js"))
                assert data is not None
                target.parent.mkdir(parents=True, exist_ok=True)
                partial = target.with_suffix(".partial")
                partial.write_bytes(data.read())
                partial.replace(target)
    return target


def axe_serious(page: Page, axe: Path, roots: str = WIDGET_ROOTS) -> list[dict[str, object]]:
    """axe-core's critical and serious violations in the elements ``roots`` selects on the page (axe-core
    is injected once per page: a page audited again, as a test's next lesson, has it already)."""
    if not page.evaluate("() => typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
        page.add_script_tag(path=str(axe))
    found: list[dict[str, object]] = page.evaluate(
        """async (roots) => {
            const include = Array.from(document.querySelectorAll(roots));
            const r = await axe.run({include}, {resultTypes: ['violations']});
            return r.violations.filter(v => v.impact === 'critical' || v.impact === 'serious')
                .map(v => ({id: v.id, impact: v.impact, help: v.help,
                             nodes: v.nodes.slice(0, 3).map(n => n.html.slice(0, 160))}));
        }""",
        roots,
    )
    return found


def run_code(page: Page, code: str, root: Locator | None = None) -> str:
    """Add a cell under the last one, run ``code`` (one line) there, and return its output text.

    The cell is found again by a marker comment typed with the code: after a reload JupyterLab may
    not have drawn the last cell yet, so "the cell before the last" could be another one (seen: a
    saved widget's "Loading widget..." read instead of the output).  ``root`` scopes the lookups
    of the last cell and of the new one (default: the whole page), for example to the notebook in
    sight when the site's JupyterLab keeps earlier lessons as hidden tabs, whose cells are in the
    page too.
    """
    scope: Page | Locator = page if root is None else root
    marker = f"bl-probe-{uuid.uuid4().hex[:12]}"
    # the prompt column of the last cell (a cell whose code is collapsed draws no input prompt)
    scope.locator(".jp-Cell").last.click(position={"x": 30, "y": 4})
    page.keyboard.press("Escape")
    page.keyboard.press("b")  # a new cell below, in edit mode after Enter
    page.keyboard.press("Enter")
    page.keyboard.type(f"{code}  # {marker}")
    page.keyboard.press("Shift+Enter")
    cell = scope.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text=marker))
    output = cell.locator(".jp-OutputArea-output")
    # the kernel may still be starting: after a (re)load the indicator can say idle before it has
    expect(output.first).to_be_visible(timeout=KERNEL_START)
    # the output area appears before its text; and inner_text() is empty for a cell JupyterLab has
    # not drawn (off screen), so wait for text in the DOM and read it with text_content()
    expect(output.first).to_contain_text(re.compile(r"\S"), timeout=60_000)
    return output.first.text_content() or ""


@dataclass(frozen=True)
class Front:
    """One of the two front ends a widget test runs in: ``lab`` (JupyterLab, a kernel on this
    machine whose data folder is ``data_dir``) or ``site`` (the JupyterLite site, Pyodide in the
    browser; the learner's data is on the browser's drive, ``data_dir`` is None)."""

    name: str
    url: str
    data_dir: Path | None = None

    @property
    def site(self) -> bool:
        return self.name == "site"


FRONTENDS = ("lab", "site")


@pytest.fixture(params=FRONTENDS)
def frontend(request: pytest.FixtureRequest) -> Front:
    """Runs the test in JupyterLab and on the site, from the same test code."""
    if request.param == "lab":
        lab: Lab = request.getfixturevalue("lab")
        return Front("lab", lab.url, lab.data_dir)
    return Front("site", request.getfixturevalue("site_url"))


@pytest.fixture
def front_page(frontend: Front, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh page in the front end's browser: for the site the offline Chromium, and the test
    fails if any request went to a host other than 127.0.0.1."""
    if not frontend.site:
        yield request.getfixturevalue("lab_page")
        return
    offline = Offline(request.getfixturevalue("offline_chromium"), warm=True)
    page = offline.context.new_page()
    page.set_default_timeout(60_000)
    page.on("dialog", lambda dialog: dialog.accept())  # "leave the page?" on reload: yes
    try:
        yield page
    finally:
        offline.context.close()
    assert offline.outside == [], f"requests to other hosts: {offline.outside}"
