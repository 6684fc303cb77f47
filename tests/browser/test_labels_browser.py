"""No button label of the editor or the gym is cut ("Save my progr…") on a 360 px phone, in either language.

A button whose text is wider than the button gets an ellipsis from JupyterLab's widget styles;
this measures every visible button of both widgets in the browser (``scrollWidth`` against
``clientWidth``) after drawing them in English and in Chinese: both languages in one notebook (one
page and one kernel, not one per language).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Lab, assert_no_widget_errors, open_and_run

pytestmark = pytest.mark.browser

#: the widgets are drawn in a 360 px wide box (a phone's width) inside an ordinary window
WINDOW = {"width": 1280, "height": 1400}


LANGS = ("en", "zh")


def _notebook(root: Path) -> str:
    """A one-cell notebook: the editor and the gym in each of :data:`LANGS`, each in a 360 px box
    tagged ``bl-test-LANG``."""
    source = (
        "import ipywidgets as W\n"
        "from battleline_lab.quiz import library\nfrom battleline_lab.widgets import PuzzleGym\n"
        "from battleline_lab.widgets.editor import PuzzleEditor\n"
        "phone = W.Layout(width='360px')\n"
    )
    for lang in LANGS:
        for widget in (f"PuzzleEditor(puzzle_id='labels', lang={lang!r})", f"PuzzleGym(library.root(), lang={lang!r})"):
            source += f"display(W.VBox([{widget}], layout=phone).add_class('bl-test-{lang}'))\n"
    book = {
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    name = "labels.ipynb"
    (root / name).write_text(json.dumps(book), encoding="utf-8")
    return name


def test_no_button_label_is_cut_at_360_px_in_english_and_in_chinese(lab_page: Page, lab: Lab) -> None:
    page = lab_page
    page.set_viewport_size(WINDOW)
    open_and_run(page, lab, _notebook(lab.data_dir.parent / "root"))
    for lang in LANGS:  # both widgets drawn in each language
        expect(page.locator(f".bl-test-{lang} .bl-editor").first).to_be_visible(timeout=60_000)
        expect(page.locator(f".bl-test-{lang} .bl-gym").first).to_be_visible(timeout=60_000)
    page.wait_for_timeout(800)
    cut = page.evaluate(
        """() => {
            const out = [];
            for (const b of document.querySelectorAll('.bl-editor .widget-button, .bl-gym .widget-button')) {
                if (!b.offsetParent || !b.textContent.trim()) continue;
                if (b.scrollWidth > b.clientWidth + 1)
                    out.push(`${b.textContent.trim()}: ${b.scrollWidth} > ${b.clientWidth}`);
            }
            return out;
        }"""
    )
    assert cut == [], "\n".join(cut)
    for lang in LANGS:
        for selector in (".bl-editor-engine-answer", ".bl-gym-save"):  # the two labels that were cut
            expect(page.locator(f".bl-test-{lang} {selector}").first).to_be_visible()
    assert_no_widget_errors(page)
