"""Worksheets (``battleline-lab worksheet``) and ``show --question``: questions without answers, an answer key.

The browser test prints a worksheet to PDF with Debian's Chromium (Playwright, ``page.pdf``) and reads
the pages' text back with pypdf (in the ``test`` extra).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline_lab.authoring.preview import preview_html
from battleline_lab.authoring.worksheet import answer_key_html, key_entries, key_path, worksheet_html
from battleline_lab.cli import main as cli_main
from battleline_lab.formats.files import write_new  # the one writer the worksheet command uses
from battleline_lab.quiz.loader import load_puzzle, load_puzzle_text

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
# one puzzle of every question kind
KINDS = [
    PUZZLES / "seed-examples" / "2-blue-eight-blocked.yaml",  # claim
    PUZZLES / "claimable" / "which-flags-are-yours.yaml",  # claimable
    PUZZLES / "sums" / "phalanx-of-fours-beats-threes.yaml",  # compare
    PUZZLES / "ranking" / "wedge-out-of-order.yaml",  # formation
]
HOSTILE = (
    "title: <img src=x onerror=alert(1)>\nflags: {5: {you: [r3, r4, r5], opponent: [r6, g6]}}\n"
    "question: {kind: claim, flag: 5}\nanswer: true\n"
)


def test_show_question_has_the_board_and_question_but_no_answer() -> None:
    puzzle = load_puzzle(KINDS[0])
    full, question = preview_html(puzzle), preview_html(puzzle, question_only=True)
    assert "Can you claim flag 5 now?" in question and 'class="bl-board"' in question
    for giveaway in ("The engine agrees", "The author", 'class="bl-steps', 'class="bl-note', 'class="bl-tags', "[R13]"):
        assert giveaway in full and giveaway not in question


def test_show_question_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "q.html"
    assert cli_main(["show", str(KINDS[0]), "--question", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "Can you claim flag 5 now?" in page and "The engine agrees" not in page


def test_worksheet_numbers_pages_and_puts_the_key_last() -> None:
    puzzles = [load_puzzle(p) for p in KINDS]
    sheet = worksheet_html(puzzles)
    assert sheet.count('class="bl-sheet-puzzle"') == len(puzzles)
    for n in range(1, len(puzzles) + 1):
        assert f"Puzzle {n}. " in sheet
    assert sheet.index('class="bl-key"') > sheet.rindex('class="bl-sheet-puzzle"')
    assert "@page" in sheet and "break-after: page" in sheet and "break-before: page" in sheet
    assert "<script" not in sheet and "default-src 'none'" in sheet
    questions = sheet[: sheet.index('class="bl-key"')]
    for title, _answer, proof in key_entries(puzzles):
        assert proof and all(line not in questions for line in proof)
        assert title in sheet


def test_every_question_kind_has_an_answer_and_a_short_proof_in_both_languages() -> None:
    puzzles = [load_puzzle(p) for p in KINDS]
    for lang in ("en", "zh"):
        entries = key_entries(puzzles, lang)
        assert all(answer and proof for _, answer, proof in entries), entries
    assert "答案" in answer_key_html(puzzles, "zh")


def test_worksheet_escapes_what_authors_wrote() -> None:
    sheet = worksheet_html([load_puzzle_text(HOSTILE)])
    assert "<img" not in sheet and "&lt;img src=x onerror=alert(1)&gt;" in sheet


@pytest.mark.parametrize(("answers", "key_in_sheet", "key_file"), [("end", True, False), ("separate", False, True),
                                                                   ("none", False, False)])  # fmt: skip
def test_worksheet_command_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], answers: str, key_in_sheet: bool, key_file: bool
) -> None:
    out = tmp_path / "sheet.html"
    paths = [str(p) for p in KINDS]
    assert cli_main(["worksheet", *paths, "--out", str(out), "--answers", answers]) == 0
    assert ('class="bl-key"' in out.read_text(encoding="utf-8")) is key_in_sheet
    assert key_path(out).exists() is key_file
    assert "wrote" in capsys.readouterr().out


def test_worksheet_never_overwrites_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet.html"
    out.write_text("mine", encoding="utf-8")
    assert cli_main(["worksheet", str(KINDS[0]), "--out", str(out)]) == 2
    assert out.read_text(encoding="utf-8") == "mine"
    assert capsys.readouterr().err == (
        f"{out}:1:1: error: file exists; not overwritten (use --force to replace it)\n"
        f"{out}:1:1: error: worksheet not written: see above; nothing was written to {out}\n"
    )
    assert cli_main(["worksheet", str(KINDS[0]), "--out", str(out), "--force"]) == 0
    assert "bl-sheet-puzzle" in out.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.html"]  # no temporary file left


def test_write_new_is_no_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "a.html"
    write_new(target, "one")
    with pytest.raises(FileExistsError):
        write_new(target, "two")
    write_new(target, "three", force=True)
    assert target.read_text(encoding="utf-8") == "three"


def test_worksheet_refuses_bad_and_wrong_puzzles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(HOSTILE.replace("answer: true", "answer: false"), encoding="utf-8")
    out = tmp_path / "sheet.html"
    assert cli_main(["worksheet", str(wrong), "--out", str(out)]) == 1
    assert "wrong answer" in capsys.readouterr().err and not out.exists()
    assert cli_main(["worksheet", str(tmp_path / "missing"), "--out", str(out)]) == 2
    assert capsys.readouterr().err.splitlines()[0] == f"{tmp_path / 'missing'}:1:1: error: no such file or folder"


def test_worksheet_in_chinese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet.html"
    assert cli_main(["--lang", "zh", "worksheet", str(KINDS[0]), "--out", str(out)]) == 0
    sheet = out.read_text(encoding="utf-8")
    assert "第1题。" in sheet and "答案" in sheet and '<html lang="zh">' in sheet
    assert "已写入" in capsys.readouterr().out
