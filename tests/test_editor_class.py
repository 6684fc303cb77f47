"""The editor never writes a wrong puzzle silently: refused saves, save as, topics, labels.

Every case runs on the session alone (no ipywidgets), then a few on the widget that shows it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline_lab.authoring.editor import EditorError, EditorSession
from battleline_lab.quiz import library
from battleline_lab.quiz.checks import CheckWarning, check_files
from battleline_lab.quiz.loader import load_puzzle

LIBRARY_ID = "seed-blue-eight-blocked"


def _copy_of_library(tmp_path: Path) -> Path:
    target = tmp_path / "mine.yaml"
    target.write_bytes(library.path(LIBRARY_ID).read_bytes())
    return target


# (edit that makes the stated answer "true" wrong, case name with the rule, the engine's answer)
WRONG_ANSWERS = [
    # R13/R12: with the blue 10 no longer face up, the Wedge b8 b9 b10 can still come
    (lambda s: s.remove_card("b10"), "R12-b10-off-the-table", False),
    # the same with the blue 7: b6 b7 b8 can come
    (lambda s: s.remove_card("b7"), "R12-b7-off-the-table", False),
]


@pytest.mark.parametrize("edit,rule,engine", WRONG_ANSWERS, ids=[w[1] for w in WRONG_ANSWERS])
def test_save_of_a_contradicted_answer_is_refused_with_the_engines_answer(
    tmp_path: Path, edit: object, rule: str, engine: object
) -> None:
    path = _copy_of_library(tmp_path)
    before = path.read_bytes()
    s = EditorSession.open(path)
    edit(s)  # type: ignore[operator]
    report = s.report()
    assert report.answer_contradicted and report.engine_answer is engine
    with pytest.raises(EditorError) as err:
        s.save(force=True)
    assert err.value.key == "editor.error.wrong_answer"
    assert err.value.params == {"stated": "true", "answer": "false"}
    assert "engine says false" in str(err.value) and "引擎的答案是 false" in err.value.text("zh")
    assert path.read_bytes() == before  # nothing written
    s.use_engine_answer()  # the button's action
    saved = s.save(force=True)
    assert load_puzzle(saved).answer is False
    (checked,) = check_files([saved])
    assert not checked.invalid and all(isinstance(d, CheckWarning) for d in checked.diagnostics)


def test_a_copy_under_the_same_id_is_refused_and_save_as_gives_a_free_id(tmp_path: Path) -> None:
    path = _copy_of_library(tmp_path)
    (tmp_path / "other.yaml").write_text(f"id: {LIBRARY_ID}-2\n", encoding="utf-8")
    s = EditorSession.open(path)
    copy = tmp_path / "copy.yaml"
    with pytest.raises(EditorError) as err:
        s.save(copy)
    assert err.value.key == "editor.error.copy_same_id" and not copy.exists()
    # -2 is taken by another file of the folder: the suggestion skips it
    assert err.value.params["suggestion"] == f"{LIBRARY_ID}-3" == s.suggest_id(tmp_path)
    with pytest.raises(EditorError) as taken:
        s.save_as(copy, f"{LIBRARY_ID}-2")
    assert taken.value.key == "editor.error.id_taken" and taken.value.params["owner"] == "other.yaml"
    with pytest.raises(EditorError) as lib:
        s.save_as(copy, "seed-wedge-or-not" if "seed-wedge-or-not" in library.ids() else library.ids()[0])
    assert lib.value.key == "editor.error.id_taken" and lib.value.params["owner"] == "library"
    assert s.data["id"] == LIBRARY_ID  # a refused save as changes nothing
    saved = s.save_as(copy)
    assert load_puzzle(saved).id == f"{LIBRARY_ID}-3"
    ids = [r.puzzle.id for r in check_files(sorted(tmp_path.glob("*.yaml"))) if r.puzzle is not None]
    assert len(ids) == len(set(ids)) == 3  # the copy never clashes
    # the file it came from is untouched; the session now edits the copy
    assert load_puzzle(path).id == LIBRARY_ID and s.path == str(copy)


def test_saving_back_to_the_opened_file_keeps_the_id(tmp_path: Path) -> None:
    path = _copy_of_library(tmp_path)
    s = EditorSession.open(path)
    s.set_level(3)
    assert s.save(force=True) == path and load_puzzle(path).id == LIBRARY_ID


def test_a_new_puzzle_saves_anywhere_under_its_id(tmp_path: Path) -> None:
    s = EditorSession.new("my-first")
    s.set_question({"kind": "formation", "cards": ["r1", "y1", "b1"]})
    s.use_engine_answer()
    assert load_puzzle(s.save(tmp_path / "a.yaml")).id == "my-first"


@pytest.mark.parametrize(
    "typed,topics",
    [("wedge, fog", ["wedge", "fog"]), ("wedge fog", ["wedge", "fog"]), ("wedge，fog、mud", ["wedge", "fog", "mud"])],
)
def test_topics_field(typed: str, topics: list[str]) -> None:
    s = EditorSession.new("t")
    s.set_topics(typed)
    assert s.data["topics"] == topics and f"topics: [{', '.join(topics)}]" in s.text()
    s.set_topics("")
    assert "topics" not in s.data


def test_reachability_findings_are_warnings_not_errors() -> None:
    s = EditorSession.new("odd")
    # 3 cards on flag 1 and none anywhere for the opponent: an unusual count, only a warning
    s.add_card(("flags", 1, "you"), "r1 r2 r3")
    s.add_card(("flags", 2, "you"), "y1 y2 y3")
    s.add_card(("flags", 3, "you"), "b1 b2 b3")
    s.set_question({"kind": "claim", "flag": 1})
    s.use_engine_answer()
    report = s.report()
    severities = [severity for severity, _d in report.findings()]
    assert report.ok and severities and set(severities) == {"warning"}
