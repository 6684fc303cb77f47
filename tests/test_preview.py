"""``battleline-lab show``: a standalone, escaped HTML page per puzzle, with the engine's full explanation."""

from __future__ import annotations

import re
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from battleline_lab.authoring.preview import preview_html
from battleline_lab.cli import main as cli_main
from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle, load_puzzle_text
from battleline_lab.quiz.questions import ClaimQuestion
from battleline_lab.text.messages import render_analysis
from tests.every import check_every

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"

HOSTILE = """\
id: hostile
title: <img src=x onerror=alert(1)>
level: 3
tags: ["<b>bold</b>", claim]
flags:
  5: {you: [r3, r4, r5], opponent: [b8]}
  2: {you: [b7], opponent: [b10]}
question: {kind: claim, flag: 5}
answer: false
note: "Ends the style </style></script><script>alert(2)</script> & more\\nsecond line"
"""


class _Tags(HTMLParser):
    """Every start tag with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(page: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(page)
    return parser.tags


def _standalone(page: str) -> None:
    """No script, no element that loads anything, no event handler, no URL but the SVG namespace."""
    tags = _tags(page)
    names = {t for t, _ in tags}
    assert names.isdisjoint({"script", "img", "link", "iframe", "object", "embed", "image", "use", "a", "base"})
    for _, attrs in tags:
        assert not any(a.startswith("on") for a in attrs), attrs
        assert not {"src", "href", "xlink:href"} & set(attrs), attrs
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) <= {"http://www.w3.org/2000/svg"}


def test_hostile_title_tags_and_note_are_text() -> None:
    page = preview_html(load_puzzle_text(HOSTILE, "hostile.yaml"))
    _standalone(page)
    assert "<img" not in page and "<b>" not in page and "</script>" not in page
    assert page.count("</style>") == 1  # only the page's own
    assert '<h1 class="bl-title">&lt;img src=x onerror=alert(1)&gt;</h1>' in page
    assert "<li>&lt;b&gt;bold&lt;/b&gt;</li>" in page
    assert "&lt;/style&gt;&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt; &amp; more\nsecond line" in page


def test_page_holds_title_level_tags_question_board_answer_explanation_note() -> None:
    puzzle = load_puzzle(PUZZLES / "seed-examples" / "2-blue-eight-blocked.yaml")
    page = preview_html(puzzle)
    _standalone(page)
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">') and page.rstrip().endswith("</html>")
    assert f'<h1 class="bl-title">{puzzle.title_text()}</h1>' in page
    assert ">level 2</span>" in page and all(f"<li>{t}</li>" in page for t in puzzle.tags)
    assert "Can you claim flag 5 now?" in page
    assert page.count('class="bl-board"') == 1 and 'class="bl-flag bl-flag-5 bl-focus"' in page
    assert "The author&#x27;s answer: yes." in page and '<p class="bl-answer bl-ok">The engine agrees: yes.</p>' in page
    analysis = puzzle.explain()
    steps = re.findall(r"<li>(.*?)</li>", page.split('class="bl-steps"')[1].split("</ol>")[0])
    assert len(steps) == len(render_analysis(analysis))  # type: ignore[arg-type]
    assert steps[-1].startswith("So the opponent can never beat your formation")
    note = puzzle.note_text()
    assert note is not None and note.split(",")[0] in page


def test_R12_a_wrong_answer_is_flagged_with_the_engines() -> None:
    page = preview_html(load_puzzle_text(HOSTILE))
    assert "The author&#x27;s answer: no." in page
    assert '<p class="bl-answer bl-wrong">The engine&#x27;s answer is different: yes.</p>' in page


def test_R12_a_failed_claim_shows_its_counterexample() -> None:
    text = HOSTILE.replace("2: {you: [b7], opponent: [b10]}", "2: {you: [g7], opponent: [g10]}")
    page = preview_html(load_puzzle_text(text))
    assert "Counterexample" in page and "bl-ghost" in page and "No: you cannot claim flag 5 now." in page


LIBRARY = sorted(iter_puzzle_files([PUZZLES]))


def test_every_library_puzzle_previews_and_agrees() -> None:
    check_every(((p.relative_to(PUZZLES).as_posix(), p) for p in LIBRARY), _previews_and_agrees)


def _previews_and_agrees(path: Path) -> None:
    puzzle = load_puzzle(path)
    page = preview_html(puzzle)
    assert 'class="bl-answer bl-ok"' in page and 'class="bl-answer bl-wrong"' not in page
    assert "<h2>Explanation</h2>" in page
    if isinstance(puzzle.question, ClaimQuestion):
        assert 'class="bl-steps"' in page


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("claim", "Can you claim flag "),
        ("claimable", "Which flags can "),
        ("compare", "Which formation wins, a or b?"),
        ("formation", "What kind of formation do these cards make?"),
    ],
)
def test_each_question_kind_reads(kind: str, expected: str) -> None:
    puzzles = [p for p in map(load_puzzle, LIBRARY) if p.question is not None and p.question.kind == kind]
    assert puzzles, f"the library has a {kind} puzzle"
    page = preview_html(puzzles[0])
    assert expected in page and "The engine agrees" in page


# -- the command ----------------------------------------------------------------------------------


def test_show_writes_next_to_the_current_directory_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    source = PUZZLES / "seed-examples" / "1-wedge-against-two-sixes.yaml"
    assert cli_main(["show", str(source)]) == 0
    out = tmp_path / "1-wedge-against-two-sixes.html"
    assert capsys.readouterr().out == f"wrote {out}\n"
    assert out.read_text(encoding="utf-8") == preview_html(load_puzzle(source), source=str(source))


def test_show_to_a_named_file_and_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = str(PUZZLES / "seed-examples" / "1-wedge-against-two-sixes.yaml")
    assert cli_main(["show", source, "-o", str(tmp_path / "p.html")]) == 0
    capsys.readouterr()
    assert cli_main(["show", source, "-o", "-"]) == 0
    assert capsys.readouterr().out == (tmp_path / "p.html").read_text(encoding="utf-8")


def test_show_bad_file_gives_diagnostics_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("flags:\n  5: {you: [r3, r44]}\nquestion: {kind: claim, flag: 5}\nanswer: maybe\n", encoding="utf-8")
    assert cli_main(["show", str(bad), "-o", str(tmp_path / "bad.html")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    assert err.splitlines()[0].startswith(f"{bad}:2:17: error: unknown card 'r44'")
    assert not (tmp_path / "bad.html").exists()
    assert cli_main(["show", str(tmp_path / "missing.yaml"), "-o", "-"]) == 2
    assert capsys.readouterr().err.startswith(f"{tmp_path / 'missing.yaml'}:1:1: error: cannot read")


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.browser
def test_preview_renders_in_headless_chromium(tmp_path: Path) -> None:
    """Debian's Chromium renders the page offline to a PNG (the look was checked by eye, see docs/authoring.md)."""
    page = tmp_path / "p.html"
    page.write_text(preview_html(load_puzzle_text(HOSTILE)), encoding="utf-8")
    png = tmp_path / "p.png"
    subprocess.run(
        ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         f"--user-data-dir={tmp_path / 'profile'}", "--window-size=700,1200", f"--screenshot={png}", page.as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    assert _png_size(png) == (700, 1200)


def test_claimable_with_no_cards_of_the_side_says_so() -> None:
    text = "turn: opponent\nflags:\n  5: {you: [r3, r4, r5]}\nquestion: {kind: claimable}\nanswer: []\n"
    page = preview_html(load_puzzle_text(text))
    assert "Which flags can the opponent claim now?" in page
    assert "No unclaimed flag holds cards of the opponent: there is nothing to prove." in page
    assert "The engine agrees: no flag." in page


def test_show_never_overwrites_the_puzzle_itself(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = tmp_path / "p.yaml"
    text = (PUZZLES / "seed-examples" / "1-wedge-against-two-sixes.yaml").read_text(encoding="utf-8")
    puzzle.write_text(text, encoding="utf-8")
    assert cli_main(["show", str(puzzle), "-o", str(puzzle)]) == 2
    assert "would overwrite the puzzle file itself" in capsys.readouterr().err
    assert puzzle.read_text(encoding="utf-8") == text
