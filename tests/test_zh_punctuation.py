"""Chinese text uses full-width punctuation after Chinese characters (：，；？！（）), never ASCII.

Checked over every template of every zh catalogue layer (placeholders filled with a Chinese
sample, since a placeholder inside a Chinese sentence is Chinese text too), the zh golden files,
the Chinese proofs of the whole puzzle library and the Chinese CLI summary lines.  ASCII stays
right where it is code a user types (YAML ``key: value`` examples, command lines).
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from battleline_lab.cli import main
from battleline_lab.core.claims import analyse_claim
from battleline_lab.quiz.loader import load_puzzle
from battleline_lab.quiz.questions import ClaimableQuestion, ClaimQuestion
from battleline_lab.text.messages import LANGUAGES, catalogue, message, render_analysis

ROOT = Path(__file__).resolve().parent.parent
LOCALE_ZH = ROOT / "battleline_lab" / "locale" / "zh"
CJK = "\u3400-\u9fff\u3000-\u303f\uff00-\uffef"
#: ASCII punctuation next to a Chinese character (spaces between them allowed)
BAD = re.compile(rf"[{CJK}]\s*[:;,?!()]|[:;,?!()]\s*[{CJK}]")
#: templates that show syntax a user types, where the ASCII colon or semicolon is the point
CODE = {
    "record.not_mapping": "YAML syntax: key: value",
    "record.turn_shape": "a game record line as typed: 'player: action; action'",
    "load.expected_mapping": "YAML syntax: key: value",
    "input.winner_null": "the line to type: winner: NAME",
}
FORMATTER = string.Formatter()


def _sample(template: str) -> str:
    """The template with each placeholder filled with a Chinese character (as most are in zh)."""
    return "".join(literal + ("甲" if field is not None else "") for literal, field, _, _ in FORMATTER.parse(template))


def offenders(text: str) -> list[str]:
    return [text[max(0, m.start() - 6) : m.end() + 6] for m in BAD.finditer(text)]


def test_the_check_catches_ascii_after_chinese() -> None:
    assert offenders("阵型 A: 楔形阵") and offenders("{flag}号旗: 1.".replace("{flag}", "2"))
    assert offenders(_sample("{player}（{bot}机器人） (x)"))
    assert not offenders("阵型A：楔形阵。 [R9]") and not offenders("1. 你的阵型：红3。")


def test_zh_catalogue_templates_use_full_width_punctuation() -> None:
    assert "zh" in LANGUAGES
    texts = catalogue("zh")
    bad = {key: offenders(_sample(t)) for key, t in texts.items() if key not in CODE}
    assert {k: v for k, v in bad.items() if v} == {}
    assert set(CODE) <= texts.keys(), "an allowed exception names a key that no longer exists"


@pytest.mark.parametrize("path", sorted((ROOT / "tests" / "golden" / "zh").glob("*.txt")), ids=lambda p: p.stem)
def test_zh_golden_files(path: Path) -> None:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("# position")]
    assert [o for line in lines for o in offenders(line)] == []


def test_zh_proofs_of_the_whole_library() -> None:
    bad: list[str] = []
    for file in sorted((ROOT / "puzzles").rglob("*.yaml")):
        puzzle = load_puzzle(file)
        question, position = puzzle.question, puzzle.position
        if isinstance(question, ClaimQuestion):
            analyses = [analyse_claim(position, question.flag, position.turn)]
        elif isinstance(question, ClaimableQuestion):
            analyses = list(question.explain(position).values())
        else:
            analyses = []
        for analysis in analyses:
            bad += [o for line in render_analysis(analysis, "zh") for o in offenders(line)]
        bad += offenders(puzzle.title_text("zh")) + offenders(puzzle.title_after_answer("zh"))
        bad += offenders(puzzle.note_text("zh") or "")
    assert bad == []


def test_zh_lists_and_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "zh", "claims", str(ROOT / "puzzles" / "claimable" / "which-flags-are-yours.yaml")]) == 0
    out = capsys.readouterr().out
    assert "1、7" in out and offenders(out.split("：", 1)[1]) == []
    assert main(["--lang", "zh", "check", str(ROOT / "puzzles" / "claimable")]) == 0
    assert offenders(capsys.readouterr().out) == []
    assert not offenders(message("game_widget.claimed_by.you", "zh", flag=5))
    assert not offenders(message("game_widget.name.bot", "zh", player="北方", bot=message("bot.heuristic", "zh")))
    assert "heuristic" not in message("game_widget.name.bot", "zh", player="北方", bot=message("bot.heuristic", "zh"))
