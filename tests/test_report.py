"""``progress export`` (validated against its schema) and ``report`` (escaped, never over a file)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from battleline_lab.cli import main
from battleline_lab.formats.files import write_new  # the one writer the report command uses
from battleline_lab.quiz import library
from battleline_lab.training.progress import Progress
from battleline_lab.training.trainer import PuzzleSession

SCHEMA = json.loads(
    (Path(__file__).resolve().parent.parent / "battleline_lab/schema/progress-export.schema.json").read_text()
)
XSS = "<script>alert(1)</script>"


def practise(data: Path, learner: str, right: bool) -> None:
    progress = Progress(data, learner=learner)
    for pid in ("seed-blue-seven-in-your-hand", "one-end-open"):
        puzzle = library.get(pid)
        s = PuzzleSession(puzzle, progress=progress, source="gym")
        s.answer(puzzle.solve() if right else not puzzle.solve())
        s.answer(puzzle.solve())


def export(data: Path, learner: str, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["progress", "export", "--data", str(data), "--learner", learner]) == 0
    document: dict[str, object] = json.loads(capsys.readouterr().out)
    return document


def test_export_is_one_json_document_valid_against_the_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    practise(tmp_path, "ann", right=False)
    document = export(tmp_path, "ann", capsys)
    jsonschema.Draft202012Validator(SCHEMA).validate(document)
    assert document["learner"] == "ann" and len(document["attempts"]) == 4  # type: ignore[arg-type]
    assert document["missed_rules"] == {"R13": 1, "R12": 1}
    assert document["rated"] == 2 and document["first_try"] == 0


def test_export_of_a_folder_without_progress_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["progress", "export", "--data", str(tmp_path / "nothing")]) == 2
    assert ": error: " in capsys.readouterr().err and not (tmp_path / "nothing").exists()


def test_report_for_a_class(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exports = tmp_path / "exports"
    exports.mkdir()
    # a level is suggested from ten learners on: twelve, three of them right at the first try
    for n, name in enumerate(["ann", "bo", "cy", XSS, *(f"learner{k}" for k in range(8))]):
        data = tmp_path / f"data{n}"
        practise(data, name, right=n < 3)
        (exports / f"{n}.json").write_text(json.dumps(export(data, name, capsys)))
    out = tmp_path / "report.html"
    assert main(["report", str(exports), "--out", str(out)]) == 0
    page = out.read_text()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "seed-blue-seven-in-your-hand" in page and "25%" in page  # three learners of twelve right at the first try
    assert "R13" in page and "cards in your hand are not proof" in page
    assert "bl-disagree" in page and "harder than level" in page  # level 1-2 puzzles most of the class missed
    # never over an existing file without --force
    assert main(["report", str(exports), "--out", str(out)]) == 2
    assert "--force" in capsys.readouterr().err
    assert main(["report", str(exports / "0.json"), "--out", str(out), "--force", "--lang", "zh"]) == 0
    assert "班级报告" in out.read_text()


@pytest.mark.parametrize(
    "text",
    ["{", '{"format": "battleline-lab-progress"}', '{"attempts": NaN}', "[" * 100_000, "[]"],
    ids=["broken", "no-attempts", "nan", "deep", "list"],
)
def test_report_refuses_what_is_not_an_export(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    assert main(["report", str(bad), "--out", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert re.match(rf"{re.escape(str(bad))}:1:[0-9]+: error: ", err) and "Traceback" not in err  # located
    assert not (tmp_path / "r.html").exists()


def test_write_new_never_replaces_without_force(tmp_path: Path) -> None:
    target = tmp_path / "a.html"
    write_new(target, "one")
    with pytest.raises(FileExistsError):
        write_new(target, "two")
    assert target.read_text() == "one" and [p.name for p in tmp_path.iterdir()] == ["a.html"]
    write_new(target, "three", force=True)
    assert target.read_text() == "three"
