"""The worksheet printed to PDF by Chromium: one page per puzzle, then the key; no answer on a question page."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser
from pypdf import PdfReader

from battleline_lab.authoring.worksheet import key_entries, worksheet_html
from battleline_lab.loader import load_puzzle
from tests.test_worksheet import KINDS

pytestmark = pytest.mark.browser


def test_worksheet_prints_to_pdf_with_the_key_on_its_own_pages(chromium: Browser, tmp_path: Path) -> None:
    """Chromium prints it: one page per puzzle, then the key; no answer or proof on a question page."""
    puzzles = [load_puzzle(p) for p in KINDS]
    page_file = tmp_path / "sheet.html"
    page_file.write_text(worksheet_html(puzzles), encoding="utf-8")
    pdf = tmp_path / "sheet.pdf"
    page = chromium.new_page()
    try:
        page.goto(page_file.as_uri())
        page.pdf(path=str(pdf), format="A4")
    finally:
        page.close()
    texts = [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]
    n = len(puzzles)
    assert len(texts) >= n + 1  # the key needs at least one page of its own
    questions, key = texts[:n], " ".join(texts[n:])
    for number, text in enumerate(questions, 1):
        assert f"Puzzle {number}." in text and "Answer key" not in text
    assert key.startswith("Answer key")
    for (_title, _answer, proof), text in zip(key_entries(puzzles), questions):
        assert all(" ".join(line.split())[:40] not in text for line in proof)  # no proof on a question page
        assert " ".join(proof[-1].split())[:30].replace("fl", "ﬂ") in key.replace("fl", "ﬂ")
