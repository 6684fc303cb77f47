"""Print for a class: N puzzles a sheet, the key on its own pages, no hints or paths, each question once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from battleline_lab.authoring.preview import preview_html, same_question
from battleline_lab.authoring.worksheet import PER_PAGE, is_tall, worksheet_html
from battleline_lab.cli import main as cli_main
from battleline_lab.quiz import library
from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle
from tests.test_worksheet import KINDS

#: 12 library puzzles of every question kind, some with a hand (the R13 hint must not print)
#: Twelve ordinary puzzles of the library (a tall one takes a double cell: tests/test_worksheet_cells.py).
TWELVE = [
    p
    for p in (load_puzzle(f) for f in sorted(iter_puzzle_files([library.root()])))
    if not any(is_tall(p, n) for n in PER_PAGE)
][::7][:12]
HAND_TRAP = library.get("seed-blue-seven-in-your-hand")


def _question_part(sheet: str) -> str:
    return sheet[: sheet.index('class="bl-key"')]


@pytest.mark.parametrize("per_page", PER_PAGE)
def test_puzzles_per_sheet_and_the_key_after_them(per_page: int) -> None:
    assert len(TWELVE) == 12
    sheet = worksheet_html(TWELVE, per_page=per_page)
    pages = re.findall(
        r'<div class="bl-sheet-page bl-per-(\d)">(.*?)</div>\n(?=<div class="bl-sheet-page|<section class="bl-key")',
        sheet,
        flags=re.S,
    )
    assert [int(n) for n, _ in pages] == [per_page] * -(-12 // per_page)
    assert [body.count('class="bl-sheet-puzzle"') for _n, body in pages] == [per_page] * (12 // per_page)
    assert sheet.count('class="bl-sheet-puzzle"') == 12  # each puzzle once
    assert sheet.index('class="bl-key"') > sheet.rindex('class="bl-sheet-page')


def test_no_rule_hint_or_file_path_on_a_question_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = _question_part(worksheet_html([HAND_TRAP, *TWELVE], per_page=4))
    assert HAND_TRAP.position.hand_you and "Your hand" in sheet
    assert "not evidence" not in sheet and "R13" not in sheet
    zh = _question_part(worksheet_html([HAND_TRAP], lang="zh"))
    assert "你的手牌" in zh and "R13" not in zh
    # show --question: the same board, and no path of the file
    source = str(library.path(HAND_TRAP.id))
    out = tmp_path / "q.html"
    assert cli_main(["show", source, "--question", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "not evidence" not in page and source not in page and "R13" not in page
    full = preview_html(HAND_TRAP, source=source)
    assert source in full  # the author's own preview keeps the path


@pytest.mark.parametrize(
    "title,question,same",
    [
        ("Which flags can you claim?", "Which flags can you claim now?", True),
        ("Can you claim flag 5?", "Can you claim flag 5 now?", True),
        ("The blue eight", "Can you claim flag 5 now?", False),
        ("Flag 5: red 3, red 4 and red 5. Can you claim it now?", "Can you claim flag 5 now?", False),
    ],
)
def test_each_question_once(title: str, question: str, same: bool) -> None:
    assert same_question(title, question) is same


def test_a_claimable_puzzle_states_its_question_once() -> None:
    puzzle = load_puzzle(KINDS[1])
    sheet = _question_part(worksheet_html([puzzle]))
    text = re.sub(r"<[^>]+>", " ", sheet.split('<section class="bl-sheet-puzzle">')[1])
    assert text.lower().count("which flags") == 1


def test_a_line_when_nothing_was_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "id: bad\nflags: {5: {you: [r3, r4, r5], opponent: [r6, g6]}}\nquestion: {kind: claim, flag: 5}\n"
        "answer: false\n",
        encoding="utf-8",
    )
    out = tmp_path / "sheet.html"
    assert cli_main(["worksheet", str(bad), str(KINDS[0]), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    last = err.splitlines()[-1]
    assert last.startswith(f"{out}:1:1: error: worksheet not written: 1 puzzle file has errors") and not out.exists()
    assert cli_main(["worksheet", str(bad), "--out", str(out), "--lang", "zh"]) == 1
    assert "没有生成练习单" in capsys.readouterr().err


def test_cli_per_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet.html"
    assert cli_main(["worksheet", *map(str, KINDS), "--out", str(out), "--per-page", "4"]) == 0
    assert out.read_text(encoding="utf-8").count('class="bl-sheet-page bl-per-4"') == 1
    assert cli_main(["worksheet", str(KINDS[0]), "--out", str(tmp_path / "b.html"), "--per-page", "3"]) == 2
    assert "--per-page" in capsys.readouterr().err and not (tmp_path / "b.html").exists()
