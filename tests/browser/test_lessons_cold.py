"""Every lesson, opened cold (nothing run), shows its saved boards, formations and widgets as pictures.

A learner opens a lesson before running anything: the saved outputs must already show the boards
(SVG), the proofs (HTML with SVG cards) and the widgets (from the widget state saved in the
notebook), never a plain-text fallback such as ``<IPython.core.display.SVG object>`` or
``<PuzzleWidget ...>``.  JupyterLab renders SVG, HTML and widget outputs only for *trusted*
notebooks; ``./dev lab`` trusts the lessons, and the ``lab`` fixture does the same.  Each lesson
is opened in a fresh workspace and never run; screenshots go to ``test-output/cold-*.png``.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Lab, until

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
pytestmark = pytest.mark.browser

WIDGET = "application/vnd.jupyter.widget-view+json"
#: A bare repr shown instead of a picture: ``<IPython.core.display.SVG object>``, ``<PuzzleWidget x: waiting>``.
BARE_REPR = re.compile(r"^<[A-Za-z_][\w.]*[ >]")


def _saved(path: Path) -> tuple[int, int, int]:
    """How many SVG outputs, HTML outputs holding SVG, and widget outputs the notebook saved."""
    svg = html = widgets = 0
    for cell in nbformat.read(path, as_version=4).cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET in data:
                widgets += 1
            elif "image/svg+xml" in data:
                svg += 1
            elif "<svg" in str(data.get("text/html", "")):
                html += 1
    return svg, html, widgets


def test_every_lesson_is_in_the_cold_list() -> None:
    names = {p.relative_to(NOTEBOOKS).as_posix() for p in LESSONS}
    assert {"00-the-game-in-ten-minutes.ipynb", "zh/00-the-game-in-ten-minutes.zh.ipynb"} <= names
    assert any(n.startswith("teachers/") for n in names) and len(names) >= 10
    assert all(sum(_saved(p)) > 0 for p in LESSONS), "a lesson saved no picture at all"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.relative_to(NOTEBOOKS).with_suffix("").as_posix())
def test_a_lesson_opened_cold_shows_pictures(lab_page: Page, lab: Lab, output_dir: Path, path: Path) -> None:
    page = lab_page
    rel = path.relative_to(ROOT).as_posix()
    svg, html, widgets = _saved(path)
    page.goto(f"{lab.url}/lab/tree/{rel}?reset")
    page.locator(".jp-Notebook").first.wait_for(timeout=90_000)
    page.locator(".jp-StatusBar-TextItem", has_text="Idle").first.wait_for(timeout=90_000)
    notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").first

    def count(selector: str) -> int:
        return int(notebook.locator(selector).count())

    until(lambda: count(".jp-RenderedSVG img") >= svg, f"{svg} SVG pictures", 60)
    until(lambda: count(".jp-RenderedHTMLCommon svg.bl-cards") >= html, f"{html} HTML proofs with cards", 60)
    # the widget manager draws saved widgets after the kernel answers: under a loaded CI (the tiers run side
    # by side on two cores) that once took over a minute for the gym's lesson
    until(lambda: count(".jp-OutputArea-output .jupyter-widgets.widget-box") >= widgets, f"{widgets} widgets", 150)
    # the widgets drawn from their saved state carry their boards and cards (SVG, or the board component)
    if widgets:
        # (a puzzle about loose cards, as the gym's first, draws its cards on the board component, no table)
        boards = ".jupyter-widgets svg.bl-board, .jupyter-widgets svg.bl-cards, .jupyter-widgets .blb [data-card]"
        until(lambda: count(boards) >= 1, "a widget board", 30)
    name = path.relative_to(NOTEBOOKS).with_suffix("").as_posix().replace("/", "-")
    if widgets:
        widget = notebook.locator(".jp-OutputArea-output .jupyter-widgets.widget-box").first
        widget.scroll_into_view_if_needed()
        widget.screenshot(path=str(output_dir / f"cold-{name}-widget.png"))
    page.screenshot(path=str(output_dir / f"cold-{name}.png"), full_page=False)

    text = notebook.inner_text()
    assert "object>" not in text
    assert "Cannot display an untrusted" not in text
    assert "Error displaying widget" not in text
    plain = notebook.locator(".jp-OutputArea-output[data-mime-type='text/plain']").all_inner_texts()
    bare = [t for t in plain if BARE_REPR.match(t.strip())]
    assert not bare, f"{rel}: plain-text reprs instead of pictures: {bare[:3]}"
