"""The gym's "Save my progress" / "Load progress" (moving a learner between browsers, handing work
to a teacher) and the note on where the browser keeps progress."""

from __future__ import annotations

import base64
import json
import re
import sys
from pathlib import Path

import pytest

from battleline_lab.training import progress as progress_module
from battleline_lab.training.progress import EXPORT_FORMAT, JsonLinesStore, MemoryStore, Progress, import_export
from battleline_lab.training.report import load_export, report_html
from battleline_lab.widgets import PuzzleGym

SEEDS = "seed-examples"


def _download(gym: PuzzleGym) -> tuple[str, dict[str, object]]:
    """The file name and the document behind the gym's download link."""
    link = re.search(r'download="([^"]+)" href="data:application/json;base64,([^"]+)"', gym.transfer.value)
    assert link, gym.transfer.value
    return link.group(1), json.loads(base64.b64decode(link.group(2)))


def test_save_then_load_in_another_browser_keeps_every_attempt_once(tmp_path: Path) -> None:
    first = PuzzleGym(SEEDS, progress=Progress(tmp_path / "browser-a", learner="ann"))
    assert first.current is not None
    puzzle = first.current.puzzle
    first.current.answer(not puzzle.solve())
    first.current.answer(puzzle.solve())
    first.save_button.click()
    name, document = _download(first)
    assert name == "battleline-progress-ann.json" and document["format"] == EXPORT_FORMAT
    assert "2 attempts" in first.transfer.value
    # the download is the export `report` reads (docs/trainer.md)
    saved = tmp_path / name
    saved.write_text(json.dumps(document), encoding="utf-8")
    assert load_export(saved)["learner"] == "ann" and "ann" in report_html([load_export(saved)])

    other = PuzzleGym(SEEDS, progress=Progress(tmp_path / "browser-b"))
    assert other.progress.get(puzzle.id).attempts == 0
    text = saved.read_bytes()
    assert other.load_progress(text, name) == (2, 0)
    assert "Loaded 2 attempts" in other.transfer.value
    assert other.progress.get(puzzle.id).solved and other.progress.get(puzzle.id).attempts == 2
    assert other.trainer.summary().rated == 1  # the trainer sees the loaded answers
    assert other.load_progress(text, name) == (0, 0)  # loading again adds nothing
    assert Progress(tmp_path / "browser-b").get(puzzle.id).attempts == 2  # kept in the store


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"not json", "Expecting value"),
        (b'{"format": "something-else", "attempts": []}', "not a progress export"),
        (b'{"format": "battleline-lab-progress", "attempts": 3}', "&quot;attempts&quot; (a list)"),
        (b"\xff\xfe", "codec"),
    ],
)
def test_a_file_that_is_not_an_export_is_refused_and_nothing_is_lost(content: bytes, problem: str) -> None:
    gym = PuzzleGym(SEEDS, progress=Progress(store=MemoryStore()))
    assert gym.current is not None
    gym.current.answer(gym.current.puzzle.solve())
    before = gym.progress.attempts()
    assert gym.load_progress(content, "x.json") is None
    assert "x.json is not a progress file" in gym.transfer.value and problem in gym.transfer.value
    assert "Nothing was loaded" in gym.transfer.value and gym.progress.attempts() == before


def test_import_skips_rows_that_are_not_attempts_and_never_imports_a_reset() -> None:
    progress = Progress(store=MemoryStore(), learner="bo")
    rows = [
        {"learner": "someone", "puzzle_id": "p", "kind": "answer", "correct": False, "at": 1.0, "answer": True},
        {"learner": "someone", "puzzle_id": "", "kind": "reset", "at": 2.0},
        {"puzzle_id": 5},
        "text",
    ]
    assert import_export(progress, {"format": EXPORT_FORMAT, "learner": "x", "attempts": rows}) == (1, 3)
    (row,) = progress.attempts()
    assert row.learner == "bo" and row.answer == "true" and row.correct is False


def test_the_gym_says_where_the_browser_keeps_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert PuzzleGym(SEEDS, progress=Progress(store=MemoryStore())).storage.value == ""  # not in a browser
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(progress_module, "BROWSER_DRIVE", tmp_path)
    on_drive = Progress(store=JsonLinesStore(tmp_path / "battleline-data" / "progress.jsonl"))
    gym = PuzzleGym(SEEDS, progress=on_drive)
    assert "kept in this browser only" in gym.storage.value and "private window" in gym.storage.value
    gym.set_lang("zh")
    assert "隐私窗口" in gym.storage.value
    lost = PuzzleGym(SEEDS, progress=Progress(store=MemoryStore()))
    assert "cannot be kept in this browser" in lost.storage.value


def test_a_puzzle_for_me_reads_the_store_a_few_times_not_once_per_puzzle(tmp_path: Path) -> None:
    """On the site every read of the store is a round trip to the browser's drive (about 12 ms):
    "A puzzle for me" read it twice per puzzle of the library (222 reads, seconds); now a few."""
    store = JsonLinesStore(tmp_path / "progress.jsonl")
    reads: list[int] = []
    rows = store.rows
    store.rows = lambda learner=None: (reads.append(1), rows(learner))[1]  # type: ignore[method-assign]
    gym = PuzzleGym("library", progress=Progress(store=store))
    assert gym.current is not None
    gym.current.answer(gym.current.puzzle.solve())
    reads.clear()
    gym.trainer.next()
    assert len(gym.puzzles) > 50 and len(reads) <= 3, len(reads)
