"""Small things for teachers: explain warns about a wrong stated answer, Chinese-only titles, rule references."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline_lab.cli import main as cli_main

ROOT = Path(__file__).resolve().parent.parent
WRONG = "flags: {5: {you: [r3, r4, r5], opponent: [r6, g6]}}\nquestion: {kind: claim, flag: 5}\nanswer: false\n"


def test_R12_explain_warns_when_the_stated_answer_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(WRONG, encoding="utf-8")
    assert cli_main(["explain", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "you can claim flag 5" in out
    assert err == (
        f"{path}:3:9: warning: the stated answer is false, but the engine says true: the explanation above is "
        "the engine's (battleline-lab check reports this as an error)\n"
    )
    path.write_text(WRONG.replace("answer: false", "answer: true"), encoding="utf-8")
    assert cli_main(["explain", str(path)]) == 0
    assert capsys.readouterr().err == ""
    path.write_text(WRONG.replace("answer: false\n", ""), encoding="utf-8")
    assert cli_main(["--lang", "zh", "explain", str(path)]) == 0
    assert "warning: 谜题没有给出答案" in capsys.readouterr().err


def test_chinese_only_title_passes_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "zh.yaml"
    path.write_text("title: {zh: 你能宣称夺取5号旗吗？}\n" + WRONG.replace("false", "true"), encoding="utf-8")
    assert cli_main(["check", str(path)]) == 0
    assert cli_main(["explain", str(path)]) == 0
    assert "你能宣称夺取5号旗吗？" in capsys.readouterr().out  # English falls back to the Chinese title


def test_rule_references_point_to_a_file_a_checkout_has() -> None:
    assert (ROOT / "docs" / "rules.md").is_file()
    for doc in ("docs/authoring.md", "puzzles/FORMAT.md", "battleline_lab/locale/en/authoring.json"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        assert "RULES.md" not in text and "docs/rules.md" in text, doc
