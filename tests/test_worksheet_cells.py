"""Worksheet cells: a puzzle too tall for one cell takes two, one above the other, or starts the next sheet.

The sheets are packed in the puzzles' order on each sheet's grid (2 × 1 at two to a sheet, 2 × 2
at four, 3 × 2 at six); a double cell never hangs off its sheet.  tests/browser/test_worksheet_pdf.py
prints the library and checks every board and answer box against its cell and its page.
"""

from __future__ import annotations

import pytest

from battleline_lab.authoring import worksheet
from battleline_lab.authoring.worksheet import GRID, PER_PAGE, is_tall, sheet_layout, worksheet_html
from battleline_lab.quiz import library

LIBRARY = [p for p in library.puzzles() if p.question is not None]


def _layout(per_page: int, pattern: str, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """``pattern``: S a puzzle of one cell, D a tall one; the sheets as "number:row,column[+]" words."""
    puzzles = LIBRARY[: len(pattern)]
    tall = {p.id for p, kind in zip(puzzles, pattern) if kind == "D"}
    monkeypatch.setattr(worksheet, "is_tall", lambda puzzle, _per_page, _lang="en": puzzle.id in tall)
    return [
        [f"{c.number}:{c.row},{c.column}" + ("+" if c.double else "") for c in sheet]
        for sheet in sheet_layout(puzzles, per_page)
    ]


@pytest.mark.parametrize(
    "per_page,pattern,sheets",
    [
        (4, "SSSS", [["1:1,1", "2:1,2", "3:2,1", "4:2,2"]]),
        (4, "DSS", [["1:1,1+", "2:1,2", "3:2,2"]]),
        (4, "SDS", [["1:1,1", "2:1,2+", "3:2,1"]]),
        (4, "DDS", [["1:1,1+", "2:1,2+"], ["3:1,1"]]),
        (2, "SD", [["1:1,1"], ["2:1,1+"]]),
        (2, "DS", [["1:1,1+"], ["2:1,1"]]),
        (6, "SDSD", [["1:1,1", "2:1,2+", "3:2,1"], ["4:1,1+"]]),
        (6, "DDSS", [["1:1,1+", "2:1,2+", "3:3,1", "4:3,2"]]),
        (1, "DS", [["1:1,1"], ["2:1,1"]]),  # one to a sheet: the whole page is the cell
    ],
    ids=lambda v: str(v) if not isinstance(v, list) else "",
)
def test_a_tall_puzzle_takes_a_double_cell_or_starts_the_next_sheet(
    monkeypatch: pytest.MonkeyPatch, per_page: int, pattern: str, sheets: list[list[str]]
) -> None:
    assert _layout(per_page, pattern, monkeypatch) == sheets


@pytest.mark.parametrize("per_page", PER_PAGE)
def test_the_librarys_sheets_keep_the_order_and_stay_on_their_grid(per_page: int) -> None:
    rows, columns = GRID[per_page]
    sheets = sheet_layout(LIBRARY, per_page)
    assert [c.number for sheet in sheets for c in sheet] == list(range(1, len(LIBRARY) + 1))
    for sheet in sheets:
        taken = [(c.row + k, c.column) for c in sheet for k in range(2 if c.double else 1)]
        assert len(taken) == len(set(taken)) and all(1 <= r <= rows and 1 <= c <= columns for r, c in taken)
    doubles = {c.number for sheet in sheets for c in sheet if c.double}
    assert doubles == {n for n, p in enumerate(LIBRARY, 1) if per_page > 1 and is_tall(p, per_page)}


@pytest.mark.parametrize("per_page", [2, 4, 6])
def test_the_outs_and_safest_flag_puzzles_take_double_cells_at_2_4_and_6(per_page: int) -> None:
    """The library's tallest puzzles (long questions above a board) are given two cells, the sheet says so."""
    tall = [p for p in LIBRARY if p.question is not None and p.question.kind == "safest-flag"]
    assert tall and all(is_tall(p, per_page) for p in tall)
    sheet = worksheet_html(tall[:1], per_page=per_page)
    assert 'data-cell="r1 c1 double"' in sheet


@pytest.mark.parametrize("count,digits", [(9, 1), (10, 2), (100, 3)])
def test_the_key_leaves_room_for_its_widest_number(count: int, digits: int) -> None:
    sheet = worksheet_html(LIBRARY[:count])
    assert f'<ol class="bl-digits-{digits}">' in sheet
