"""The worksheet printed to PDF by Chromium: one page per puzzle, then the key; no answer on a question page."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser
from pypdf import PdfReader

from battleline_lab.authoring.worksheet import key_entries, worksheet_html
from battleline_lab.quiz.loader import load_puzzle
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


def _pdf_pages(chromium: Browser, html: str, tmp_path: Path, name: str) -> list[str]:
    page_file = tmp_path / f"{name}.html"
    page_file.write_text(html, encoding="utf-8")
    pdf = tmp_path / f"{name}.pdf"
    page = chromium.new_page()
    try:
        page.goto(page_file.as_uri())
        page.pdf(path=str(pdf), format="A4")
    finally:
        page.close()
    return [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]


@pytest.mark.parametrize("per_page,sheets", [(4, 3), (6, 2), (2, 6)])
def test_twelve_puzzles_print_on_few_sheets_plus_a_key(
    chromium: Browser, tmp_path: Path, per_page: int, sheets: int
) -> None:
    """12 puzzles at --per-page 4 print on 3 sheets, then the key on pages of its own."""
    from tests.test_worksheet_class import TWELVE

    texts = _pdf_pages(chromium, worksheet_html(TWELVE, per_page=per_page), tmp_path, f"twelve-{per_page}")
    first_key = next(i for i, text in enumerate(texts) if text.startswith("Answer key"))
    assert first_key == sheets, [t[:60] for t in texts]
    for sheet, text in enumerate(texts[:sheets]):
        numbers = [n for n in range(1, 13) if f"Puzzle {n}." in text]
        assert numbers == list(range(sheet * per_page + 1, (sheet + 1) * per_page + 1)), (sheet, text[:200])
        assert "Answer key" not in text and "not evidence" not in text
    assert len(texts) - sheets <= 3  # the key: short proofs, a few pages at most
