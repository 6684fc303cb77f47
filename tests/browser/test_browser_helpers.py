"""The browser tests' own helpers that keep them independent of their order.

- :func:`close_sessions` (and so :func:`lab_goto` and the fixture that closes a test's sessions
  when it ends): a worker's tests share one JupyterLab server, and a lesson opened on a path whose
  kernel session an earlier test left open would join it.  Checked against a real server, through
  its REST API, as the fixtures use it (which needs the server's XSRF check off).
- :data:`_RUN_WATCH` (used by :func:`site_run_all`): Run All is given again only when the page never
  showed a queued cell or a busy kernel; a run shorter than the look between two checks must still
  count, or every cell runs twice.  Checked on a small page that imitates the notebook's prompts
  and indicator, changed the way a kernel's messages change them (several changes in one task).
"""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import _RUN_WATCH, Lab, close_sessions

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
