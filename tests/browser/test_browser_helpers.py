"""The browser tests' own helpers that keep them independent of their order.

- :func:`close_sessions` (and so :func:`lab_goto` and the fixture that closes a test's sessions
  when it ends): a worker's tests share one JupyterLab server, and a lesson opened on a path whose
  kernel session an earlier test left open would join it.  Checked against a real server, through
  its REST API, as the fixtures use it (which needs the server's XSRF check off).
- :data:`_RUN_WATCH` (used by :func:`site_run_all`): Run All is given again only when the page never
  showed a queued cell or a busy kernel; a run shorter than the look between two checks must still
  count, or every cell runs twice.  Checked on a small page that imitates the notebook's prompts
  and indicator, changed the way a kernel's messages change them (several changes in one task).
- :class:`WarmProfiles` (``Offline(..., warm=True)``): a warm context starts with the caches of the
  warm contexts before it on its worker, and with nothing else of theirs (no storage, no drive).
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import _RUN_WATCH, WARM, Lab, Offline, close_sessions, serve

pytestmark = pytest.mark.browser


def _post_session(lab: Lab, path: str) -> str:
    body = json.dumps({"path": path, "type": "notebook", "name": "", "kernel": {"name": "python3"}}).encode()
    request = urllib.request.Request(
        f"{lab.url}/api/sessions", data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=120) as answer:
        return str(json.loads(answer.read())["kernel"]["id"])


def _get(lab: Lab, what: str) -> list[dict[str, object]]:
    with urllib.request.urlopen(f"{lab.url}/api/{what}", timeout=30) as answer:
        found: list[dict[str, object]] = json.loads(answer.read())
    return found


def test_close_sessions_shuts_the_kernels_on_one_path_or_on_all(lab: Lab) -> None:
    close_sessions(lab.url)  # whatever an earlier test on this worker left
    one = _post_session(lab, "notebooks/01-cards-and-formations.ipynb")
    other = _post_session(lab, "notebooks/03-claim-proofs.ipynb")
    assert close_sessions(lab.url, "notebooks/01-cards-and-formations.ipynb") == [
        "notebooks/01-cards-and-formations.ipynb"
    ]
    assert [s["path"] for s in _get(lab, "sessions")] == ["notebooks/03-claim-proofs.ipynb"]
    kernels = {k["id"] for k in _get(lab, "kernels")}
    assert one not in kernels and other in kernels
    assert close_sessions(lab.url) == ["notebooks/03-claim-proofs.ipynb"]
    assert _get(lab, "sessions") == [] and other not in {k["id"] for k in _get(lab, "kernels")}


PAGE = """<div class="jp-Notebook-ExecutionIndicator" data-status="idle"></div>
<div class="jp-CodeCell"><div class="jp-InputPrompt">[1]:</div></div>"""

#: changes made in one task (what the page shows after them, and what the page showed between)
CHANGES = {
    "a cell queued and run": (
        "p.textContent = '[*]:'; p.textContent = '[2]:';",
        True,
    ),
    "the prompt's own text node changed": (
        "p.firstChild.data = '[*]:'; p.firstChild.data = '[2]:';",
        True,
    ),
    "the kernel busy, then idle": ("i.dataset.status = 'busy'; i.dataset.status = 'idle';", True),
    "still queued": ("p.textContent = '[*]:';", True),
    "nothing run: a prompt renumbered, the kernel restarting": (
        "p.textContent = '[ ]:'; i.dataset.status = 'restarting'; i.dataset.status = 'idle';",
        False,
    ),
}


@pytest.mark.parametrize(("change", "seen"), list(CHANGES.values()), ids=list(CHANGES))
def test_the_run_watch_sees_a_queued_cell_or_a_busy_kernel_however_brief(
    chromium: Browser, change: str, seen: bool
) -> None:
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.set_content(PAGE)
        page.evaluate(_RUN_WATCH)
        assert page.evaluate("() => window.__blRunSeen") is False
        page.evaluate(
            "(change) => { const p = document.querySelector('.jp-InputPrompt');"
            " const i = document.querySelector('.jp-Notebook-ExecutionIndicator'); eval(change); }",
            change,
        )
        page.wait_for_timeout(50)  # the observer's records arrive after the task
        assert page.evaluate("() => window.__blRunSeen") is seen
    finally:
        context.close()


#: What a page of the test's own server writes, and reads back: local storage and an IndexedDB
#: database (the site's drive and the learner's store live in IndexedDB)
WRITE = """async () => {
    localStorage.setItem('written', 'yes');
    await new Promise((done, fail) => {
        const open = indexedDB.open('written', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('rows');
        open.onsuccess = () => { open.result.close(); done(); };
        open.onerror = () => fail(open.error);
    });
}"""
READ = """async () => ({storage: localStorage.length,
                  databases: (await indexedDB.databases()).map((d) => d.name)})"""


def test_a_warm_context_keeps_the_caches_of_the_one_before_and_nothing_else(
    offline_chromium: Browser, tmp_path: Path
) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>warm</title><script src='app.js'></script>")
    (tmp_path / "app.js").write_text("document.title = 'ran';\n" + "// padding\n" * 20_000)
    url, server = serve(tmp_path)
    try:
        first = Offline(offline_chromium, warm=True)
        page = first.context.new_page()
        page.goto(f"{url}/index.html")
        page.evaluate(WRITE)
        assert page.evaluate(READ) == {"storage": 1, "databases": ["written"]}
        first.context.close()
        assert WARM.free, "a closed warm context gives its profile back"
        profile = WARM.free[-1]
        written = {p.name for p in (profile / "Default").iterdir()}
        assert {"Cache", "IndexedDB", "Local Storage"} <= written, sorted(written)
        assert WARM.take() == profile
        assert sorted(p.name for p in profile.iterdir()) == ["Default"]
        assert sorted(p.name for p in (profile / "Default").iterdir()) == sorted({"Cache", "Code Cache"} & written)
        WARM.give_back(profile)

        second = Offline(offline_chromium, warm=True)  # the same profile, taken again
        try:
            assert profile not in WARM.free
            page = second.context.new_page()
            page.goto(f"{url}/index.html")
            assert page.title() == "ran"
            assert page.evaluate(READ) == {"storage": 0, "databases": []}
        finally:
            second.context.close()
        assert second.outside == [] and first.outside == []
    finally:
        server.terminate()
        server.wait(timeout=10)
