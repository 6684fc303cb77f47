"""``battleline-lab odds``: the JSON contract, both languages, one flag, bad files (R13, R11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from battleline_lab.cli import main

ROOT = Path(__file__).resolve().parent.parent
SEVEN = "puzzles/seed-examples/3-blue-seven-in-your-hand.yaml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_json_is_exactly_the_contract(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    status, out, _ = run(capsys, "odds", "--json", SEVEN)
    assert status == 0
    data = json.loads(out)
    assert set(data) == {"file", "flags"} and data["file"] == SEVEN
    assert set(data["flags"]) == {str(n) for n in range(1, 10)}
    five = data["flags"]["5"]
    assert set(five) == {"you", "opponent", "outs"}
    assert five["you"] + five["opponent"] == pytest.approx(1)
    assert 0.99 < five["you"] < 1  # blue 7-8-9 could still beat r3 r4 r5 (seed example 3, R12)
    wedge = five["outs"]["opponent"]["wedge"]
    assert wedge == {"best": 24, "ways": 2, "count": 3, "troops": ["b6", "b7", "b9"]}
    assert five["outs"]["you"] == {"wedge": {"best": 12, "ways": 1, "count": 0, "troops": []}}


def test_one_flag_and_the_same_json_in_chinese(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    _, en, _ = run(capsys, "odds", "--json", "--flag", "5", SEVEN)
    _, zh, _ = run(capsys, "odds", "--json", "--flag", "5", SEVEN, "--lang", "zh")
    assert en == zh and list(json.loads(en)["flags"]) == ["5"]


def test_text_in_both_languages_states_the_tie_rule(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    status, out, _ = run(capsys, "odds", SEVEN, "--flag", "5")
    assert status == 0
    assert "Flag 5: you win 99.9%, the opponent 0.1% (exact)" in out
    assert "Wedge, best sum 24: 2 way(s), outs (3): b6 b7 b9" in out
    assert "counts half to each side" in out
    status, out, _ = run(capsys, "--lang", "zh", "odds", SEVEN, "--flag", "5")
    assert "5号旗：你的胜率99.9%，对手0.1%（精确值）" in out
    assert "楔形阵，最大总和24：2种补法，补牌（3张）：蓝6 蓝7 蓝9" in out
    assert "打平各算一半" in out


def test_bad_file_is_located(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    status, out, err = run(capsys, "odds", "tests/data/bad/bad-card.yaml")
    assert status == 2 and out == ""
    assert err.splitlines()[0].startswith("tests/data/bad/bad-card.yaml:3:17: error: unknown card 'r11'")
    assert "Traceback" not in err


@pytest.mark.parametrize("flag", ["0", "10", "x"])
def test_bad_flag_is_a_usage_error(capsys: pytest.CaptureFixture[str], flag: str) -> None:
    status, _, err = run(capsys, "odds", SEVEN, "--flag", flag)
    assert status == 2
    assert f"flags are numbered 1 to 9, not '{flag}'" in err and "Traceback" not in err
