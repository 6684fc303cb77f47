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


#: A4 less the sheet's 14 mm margins, in CSS pixels (96 per inch): the printed page's content box.
PAGE_WIDTH_PX, PAGE_HEIGHT_PX = round((210 - 28) / 25.4 * 96), round((297 - 28) / 25.4 * 96)

#: Every cell's rectangle, its answer box's and its board's, and each sheet's, in print media.
_GEOMETRY = """() => {
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  return Array.from(document.querySelectorAll('.bl-sheet-page')).map(sheet => ({
    sheet: box(sheet),
    cells: Array.from(sheet.querySelectorAll('.bl-sheet-puzzle')).map(cell => ({
      title: cell.querySelector('h2').textContent, cell: box(cell),
      space: box(cell.querySelector('.bl-space')), board: box(cell.querySelector('.bl-board-wrap svg')),
    })),
  }));
}"""


def _inside(inner: list[float], outer: list[float]) -> bool:
    left, top, right, bottom = inner
    return left >= outer[0] - 0.5 and top >= outer[1] - 0.5 and right <= outer[2] + 0.5 and bottom <= outer[3] + 0.5


@pytest.mark.parametrize("per_page", [1, 2, 4, 6])
def test_every_answer_box_and_board_of_the_library_lies_inside_its_cell_and_page(
    chromium: Browser, tmp_path: Path, per_page: int
) -> None:
    """The whole library at 1, 2, 4 and 6 to a sheet: no board or answer box cut by its cell, no sheet
    taller than a page."""
    from battleline_lab.quiz import library

    puzzles = [p for p in library.puzzles() if p.question is not None]
    page_file = tmp_path / f"library-{per_page}.html"
    page_file.write_text(worksheet_html(puzzles, per_page=per_page, answers="none"), encoding="utf-8")
    page = chromium.new_page(viewport={"width": PAGE_WIDTH_PX, "height": PAGE_HEIGHT_PX})
    try:
        page.goto(page_file.as_uri())
        page.emulate_media(media="print")
        sheets = page.evaluate(_GEOMETRY)
    finally:
        page.close()
    cells = [cell for sheet in sheets for cell in sheet["cells"]]
    assert len(cells) == len(puzzles)
    cut = [c["title"] for c in cells if not _inside(c["space"], c["cell"])]
    cut += [c["title"] for c in cells if c["board"] and not _inside(c["board"], c["cell"])]
    assert cut == []
    first_height = PAGE_HEIGHT_PX  # the first sheet shares its page with the worksheet's heading
    for number, sheet in enumerate(sheets):
        left, top, right, bottom = sheet["sheet"]
        assert right - left <= PAGE_WIDTH_PX + 0.5
        assert (bottom if number == 0 else bottom - top) <= first_height + 0.5, number
        assert all(_inside(c["cell"], sheet["sheet"]) for c in sheet["cells"]), number


def test_the_library_at_4_per_page_prints_one_sheet_to_a_pdf_page_with_no_box_cut(
    chromium: Browser, tmp_path: Path
) -> None:
    """Printed to PDF: as many pages as sheets (a sheet never spills onto a second page), each with its puzzles."""
    from battleline_lab.authoring.worksheet import sheet_layout
    from battleline_lab.quiz import library

    puzzles = [p for p in library.puzzles() if p.question is not None]
    sheets = sheet_layout(puzzles, 4)
    texts = _pdf_pages(chromium, worksheet_html(puzzles, per_page=4, answers="none"), tmp_path, "library-4")
    assert len(texts) == len(sheets)
    for sheet, text in zip(sheets, texts):
        for cell in sheet:
            assert f"Puzzle {cell.number}." in text and "Your answer" in text


def test_the_keys_numbers_are_never_clipped(chromium: Browser, tmp_path: Path) -> None:
    """ "10." and "121." fit in the key list's margin (they were cut at the page's left edge)."""
    from battleline_lab.quiz import library

    puzzles = [p for p in library.puzzles() if p.question is not None]
    for count in (9, 10, len(puzzles)):
        page_file = tmp_path / f"key-{count}.html"
        page_file.write_text(worksheet_html(puzzles[:count]), encoding="utf-8")
        page = chromium.new_page(viewport={"width": PAGE_WIDTH_PX, "height": PAGE_HEIGHT_PX})
        try:
            page.goto(page_file.as_uri())
            page.emulate_media(media="print")
            room, needed = page.evaluate(
                """(n) => { const ol = document.querySelector('.bl-key ol'); const li = ol.querySelector('li');
                  const probe = document.createElement('span'); probe.textContent = n + '. ';
                  probe.style.whiteSpace = 'pre'; li.appendChild(probe);
                  const width = probe.getBoundingClientRect().width; probe.remove();
                  const main = document.querySelector('main').getBoundingClientRect();
                  return [li.getBoundingClientRect().left - main.left, width]; }""",
                count,
            )
        finally:
            page.close()
        assert room >= needed, (count, room, needed)
