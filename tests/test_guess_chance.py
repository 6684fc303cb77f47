"""The guess chance: how often a learner who taps at random is right on the first try.

:meth:`Question.guess_chance` counts the answers the board offers (the enabled buttons; with one
toggle per flag, every on/off pattern of the enabled toggles) and the right ones among them.
``battleline-lab check --json`` reports it per puzzle and as the mean over the puzzles checked.
The expected values below are counted by hand from what the board shows, not by the engine.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from battleline_lab.cli import main
from battleline_lab.core.position import Position
from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle
from battleline_lab.quiz.questions import question_from_data

ROOT = Path(__file__).resolve().parents[1]

CASES = [
    # (id, flags, question, expected): each expected value is right answers / answers offered
    # yes or no (1 of 2), then the ghost: b6, b7, b9 or b10 among the 56 unseen troops (60 less r3 r4 r5 b8)
    (
        "claim-yes-no-then-the-ghost-R12",
        {5: {"you": "r3 r4 r5", "opponent": "b8"}},
        {"kind": "claim", "flag": 5},
        Fraction(1, 2) * Fraction(4, 56),
    ),
    # yes (1 of 2), then a card that proves it: b7 or b10 (they block every blue Wedge with b8) among
    # the four cards on the board
    (
        "claim-yes-then-a-blocker-R13",
        {5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}},
        {"kind": "claim", "flag": 5},
        Fraction(1, 2) * Fraction(2, 6),
    ),
    (
        "compare-a-b-tie",
        {},
        {"kind": "compare", "a": ["r3", "r4", "r5"], "b": ["b8", "b9", "b10"]},
        Fraction(1, 3),
    ),
    ("formation-one-of-five-kinds", {}, {"kind": "formation", "cards": ["r3", "r4", "r5"]}, Fraction(1, 5)),
    # nine toggles, one right pattern of on/off
    (
        "claimable-nine-open-flags",
        {5: {"you": "r3 r4 r5", "opponent": "r6 g6"}},
        {"kind": "claimable"},
        Fraction(1, 2**9),
    ),
    # a claimed flag's toggle is disabled: eight toggles left
    (
        "claimable-one-flag-claimed",
        {5: {"you": "r3 r4 r5", "opponent": "r6 g6"}, 1: {"you": "y8 y9 y10", "claimed_by": "you"}},
        {"kind": "claimable"},
        Fraction(1, 2**8),
    ),
]


@pytest.mark.parametrize(("flags", "question", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_guess_chance_counts_the_answers_the_board_offers(flags: dict, question: dict, expected: Fraction) -> None:
    position = Position.build(flags)
    q = question_from_data(question)
    offered = [c for c in q.choices(position) if not c.disabled]
    assert q.guess_chance(position) == expected, [c.value for c in offered]


def _check_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    status = main(["check", *argv, "--json"])
    out, err = capsys.readouterr()
    assert err == ""
    return status, json.loads(out)  # exactly one JSON document on stdout


def test_check_json_reports_every_puzzle_and_the_library_mean(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    status, doc = _check_json(capsys, "puzzles")
    assert status == 0
    files = sorted(Path(p).resolve().relative_to(ROOT).as_posix() for p in iter_puzzle_files([ROOT / "puzzles"]))
    assert sorted(e["file"] for e in doc["puzzles"]) == files
    assert doc["checked"] == doc["ok"] == len(files)
    for entry in doc["puzzles"]:
        assert set(entry) >= {"file", "id", "kind", "level", "ok", "guess_chance"}
        puzzle = load_puzzle(ROOT / entry["file"])
        assert (entry["id"], entry["level"], entry["ok"]) == (puzzle.id, puzzle.level, True)
        assert puzzle.question is not None and entry["kind"] == puzzle.question.kind
        assert 0 < entry["guess_chance"] <= 1
    chances = [e["guess_chance"] for e in doc["puzzles"]]
    assert doc["guess_chance"] == pytest.approx(sum(chances) / len(chances))


def test_check_json_a_claim_puzzle_is_its_yes_no_times_its_evidence_R13(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # yes (1 of 2), then a card that proves it: nothing elsewhere blocks them, so one of their own
    # cards at flag 5 (r6 or g6: two colours, one value, never a Wedge) among the five on the board
    path = tmp_path / "p.yaml"
    path.write_text(
        "id: p\nflags:\n  5: {you: [r3, r4, r5], opponent: [r6, g6]}\nquestion: {kind: claim, flag: 5}\nanswer: true\n"
    )
    status, doc = _check_json(capsys, str(path))
    assert status == 0
    assert doc["puzzles"] == [
        {
            "file": str(path),
            "id": "p",
            "kind": "claim",
            "level": None,
            "ok": True,
            "guess_chance": 0.2,
            "diagnostics": [],
        }
    ]
    assert doc["guess_chance"] == 0.2


def test_check_json_keeps_the_exit_codes_and_locates_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(
        "id: w\nflags:\n  5: {you: [r3, r4, r5], opponent: [r6, g6]}\nquestion: {kind: claim, flag: 5}\nanswer: false\n"
    )
    status, doc = _check_json(capsys, str(wrong))
    assert status == 1
    [entry] = doc["puzzles"]
    assert entry["ok"] is False and entry["guess_chance"] == 0.2
    assert entry["diagnostics"][0].startswith(f"{wrong}:5:9: error: wrong answer")

    bad = tmp_path / "bad.yaml"
    bad.write_text("id: [\n")
    status, doc = _check_json(capsys, str(bad), str(tmp_path / "missing.yaml"))
    assert status == 2
    [entry] = doc["puzzles"]
    assert entry["file"] == str(bad) and entry["ok"] is False
    assert entry["id"] is entry["kind"] is entry["guess_chance"] is None
    assert doc["guess_chance"] is None
    assert doc["errors"] == [f"{tmp_path / 'missing.yaml'}:1:1: error: no such file or folder"]
