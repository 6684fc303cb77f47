"""The attempt store: SQLite (WAL), JSON-lines fallback, damage, concurrency, hostile imports."""

from __future__ import annotations

import builtins
import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest

from battleline_lab.training.progress import (
    DATABASE_FILE,
    LEGACY_FILE,
    MIGRATIONS,
    Attempt,
    JsonLinesStore,
    MemoryStore,
    Progress,
    ProgressWarning,
    PuzzleRecord,
    SqliteStore,
    legacy_attempts,
)


def test_attempts_keep_every_field(tmp_path: Path) -> None:
    p = Progress(tmp_path)
    p.record_attempt(
        "a",
        correct=False,
        hints=2,
        seconds=4.5,
        answer=[2, 5],
        content_hash="h1",
        reason="hand_not_evidence",
        rule="R13",
    )
    (row,) = Progress(tmp_path).attempts()
    assert (row.learner, row.puzzle_id, row.kind, row.correct, row.hints, row.seconds) == (
        "me",
        "a",
        "answer",
        False,
        2,
        4.5,
    )
    assert (row.answer, row.content_hash, row.reason, row.rule) == ("[2, 5]", "h1", "hand_not_evidence", "R13")
    assert row.at > 0 and (tmp_path / DATABASE_FILE).exists()


def test_learners_are_kept_apart(tmp_path: Path) -> None:
    Progress(tmp_path, learner="ann").record_attempt("a", correct=True)
    Progress(tmp_path, learner="bo").record_attempt("a", correct=False)
    assert Progress(tmp_path, learner="ann").get("a").solved and not Progress(tmp_path, learner="bo").get("a").solved


def test_reset_hides_but_keeps_the_rows(tmp_path: Path) -> None:
    p = Progress(tmp_path)
    p.record_attempt("a", correct=True)
    p.reset()
    assert p.get("a") == PuzzleRecord() and Progress(tmp_path).get("a") == PuzzleRecord()
    assert isinstance(p.store, SqliteStore) and len(p.store.rows()) == 2  # nothing destroyed


def test_schema_is_versioned_and_an_old_database_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_FILE
    db = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        db.execute(statement)
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO attempts (learner, puzzle_id, kind, correct, at) VALUES ('me', 'old', 'answer', 1, 1.0)")
    db.commit()
    db.close()
    store = SqliteStore(path)
    assert store.version == len(MIGRATIONS) == 3
    assert [r.puzzle_id for r in store.rows()] == ["old"]
    indexes = {row[1] for row in store._db.execute("PRAGMA index_list(attempts)")}
    assert "attempts_by_learner" in indexes
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_legacy_json_is_imported_once_nothing_lost(tmp_path: Path) -> None:
    legacy = tmp_path / LEGACY_FILE
    legacy.write_text(
        json.dumps(
            {
                "version": 1,
                "puzzles": {
                    "a": {"solved": True, "attempts": 3, "hints": 2},
                    "b": {"solved": False, "attempts": 1, "hints": 0},
                },
            }
        )
    )
    assert Progress(legacy).get("a") == PuzzleRecord(True, 3, 2)
    p = Progress(legacy)  # a second open does not import again
    assert p.get("a") == PuzzleRecord(True, 3, 2) and p.get("b") == PuzzleRecord(False, 1, 0)
    assert legacy.exists()  # the old file is left alone
    assert Progress(tmp_path).get("a") == PuzzleRecord(True, 3, 2)  # the folder sees the same database


@pytest.mark.parametrize(
    "text",
    [
        '{"puzzles": {"a": {"attempts": 1e999, "solved": true}}}',
        '{"puzzles": {"a": {"attempts": -5, "hints": "x"}}}',
        '{"puzzles": {"a": {"attempts": 1e300}}}',
        '{"puzzles": {"a": ' + "[" * 200_000 + "]" * 200_000 + "}}",
        "[" * 200_000,
        '{"puzzles": [1, 2]}',
        "\x00\xff not json",
        '{"puzzles": {"a": {"solved": true}, "b": 7}}',
    ],
    ids=["inf", "negative", "huge", "deep-inside", "deep", "list", "binary", "mixed"],
)
def test_hostile_legacy_json_never_stops_anything(tmp_path: Path, text: str) -> None:
    legacy = tmp_path / LEGACY_FILE
    legacy.write_text(text, encoding="utf-8", errors="surrogateescape")
    p = Progress(legacy)
    record = p.get("a")
    assert record.attempts <= 1000
    p.record_attempt("z", correct=True)
    assert Progress(legacy).get("z").solved


def test_damaged_database_is_moved_aside_never_over_an_older_backup(tmp_path: Path) -> None:
    db = tmp_path / DATABASE_FILE
    names = set()
    for n in range(3):
        db.write_bytes(b"this is not a database at all, number %d" % n * 100)
        with pytest.warns(ProgressWarning, match="damaged"):
            p = Progress(tmp_path)
        p.record_attempt("a", correct=True)
        assert p.get("a").solved
        p.store.close()  # type: ignore[union-attr]
        backups = sorted(
            x.name for x in tmp_path.iterdir() if ".damaged-" in x.name and not x.name.endswith(("-wal", "-shm"))
        )
        assert len(backups) == n + 1
        names.update(backups)
    contents = {(tmp_path / b).read_bytes()[:40] for b in names}
    assert len(contents) == 3  # each damaged file kept, none overwritten


def test_data_dir_that_is_a_file_gives_one_warning_and_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("I am a file")
    with pytest.warns(ProgressWarning) as caught:
        p = Progress(blocker)
    assert len(caught) == 1 and "cannot be saved" in str(caught[0].message)
    assert isinstance(p.store, MemoryStore) and p.problem
    p.record_attempt("a", correct=True)
    assert p.get("a").solved and blocker.read_text() == "I am a file"


def test_a_failing_write_switches_to_memory_without_raising(tmp_path: Path) -> None:
    p = Progress(tmp_path)
    p.record_attempt("a", correct=False)

    class Broken(MemoryStore):
        def add(self, attempt: Attempt) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        def rows(self, learner: str | None = None) -> list[Attempt]:
            return []

    p.store = Broken()
    with pytest.warns(ProgressWarning, match="disk I/O"):
        p.record_attempt("a", correct=True)
    assert p.get("a").solved


def test_symlinked_database_is_followed_not_replaced(tmp_path: Path) -> None:
    real = tmp_path / "elsewhere" / "real.sqlite3"
    real.parent.mkdir()
    Progress(real).record_attempt("a", correct=True)
    data = tmp_path / "data"
    data.mkdir()
    (data / DATABASE_FILE).symlink_to(real)
    p = Progress(data)
    assert p.get("a").solved
    p.record_attempt("b", correct=True)
    assert (data / DATABASE_FILE).is_symlink() and Progress(real).get("b").solved


def test_jsonl_fallback_when_sqlite3_cannot_be_imported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_sqlite(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "sqlite3" or name.startswith("sqlite3."):
            raise ImportError("no sqlite3 in Pyodide")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_sqlite)
    legacy = tmp_path / LEGACY_FILE
    legacy.write_text('{"puzzles": {"old": {"solved": true, "attempts": 1}}}')
    p = Progress(legacy)
    assert isinstance(p.store, JsonLinesStore)
    p.record_attempt("a", correct=False, hints=1)
    p.record_attempt("a", correct=True)
    with open(p.store.path, "a", encoding="utf-8") as out:
        out.write('{"torn": \n')  # a torn line is skipped, the rest kept
    again = Progress(legacy)
    assert again.get("a") == PuzzleRecord(True, 2, 1) and again.get("old").solved
    assert not (tmp_path / DATABASE_FILE).exists()


def test_legacy_rows_from_counts() -> None:
    rows = legacy_attempts('{"puzzles": {"p": {"solved": false, "attempts": 0, "hints": 3}}}', "me", at=0)
    assert [(r.kind, r.hints) for r in rows] == [("hint", 3)]


WRITER = textwrap.dedent(
    """
    import sys
    import warnings
    from battleline_lab.training.progress import Progress
    warnings.simplefilter("error")  # a fall-back to memory (a ProgressWarning) fails the writer
    folder, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    p = Progress(folder, learner=name)
    for i in range(count):
        p.record_attempt(f"{name}-{i}", correct=i % 2 == 0, hints=i % 3)
    """
)


def test_two_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    count = 1500
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), name, str(count)], env=env)
        for name in ("kernel-a", "kernel-b")
    ]
    assert [proc.wait(timeout=600) for proc in procs] == [0, 0]
    store = SqliteStore(tmp_path / DATABASE_FILE)
    rows = store.rows()
    assert len(rows) == 2 * count
    for name in ("kernel-a", "kernel-b"):
        assert {r.puzzle_id for r in rows if r.learner == name} == {f"{name}-{i}" for i in range(count)}


def test_a_store_opened_in_one_thread_is_written_from_another(tmp_path: Path) -> None:
    """ipykernel 7 may run widget callbacks on another thread than the cell that built the widget."""
    import threading

    p = Progress(tmp_path)
    errors: list[BaseException] = []

    def write() -> None:
        try:
            for i in range(50):
                p.record_attempt(f"t{i}", correct=True)
        except BaseException as err:  # pragma: no cover - the failure this test is about
            errors.append(err)

    threads = [threading.Thread(target=write) for _ in range(2)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ProgressWarning)
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors and p.problem is None and isinstance(p.store, SqliteStore)
    assert len(SqliteStore(tmp_path / DATABASE_FILE).rows()) == 100


# -- a damaged JSON-lines store (the site's store) is set aside with a message, never emptied ---------

GOOD = [Attempt("me", "a", correct=False, at=1.0), Attempt("me", "a", correct=True, at=2.0)]
#: (id, what the damaged file holds: bytes with "{a}" / "{b}" where the two good rows go, damaged line numbers)
DAMAGED_STORES = [
    ("torn-row", b'{a}\n{"learner": "me", "puzzle_id": "x", "ki\n{b}\n', [2]),
    ("garbage-lines", b"{a}\nnot json at all\n\x00\x00\x00\n{b}\n", [2, 3]),
    ("wrong-types", b'{a}\n[1, 2]\n42\n"text"\n{"learner": 5, "puzzle_id": []}\n{b}\n', [2, 3, 4, 5]),
    ("not-utf8", b"{a}\n\xff\xfe\x00garbage\n{b}\n", [2]),
    ("not-json-file", b"\x89PNG\r\n\x1a\nIHDR\x00\x00\x01\n", [1, 2, 3]),
    ("a-json-document", b'{\n "format": "battleline-lab-progress",\n "attempts": []\n}\n', [1, 2, 3, 4]),
]


def _line(attempt: Attempt) -> bytes:
    return json.dumps(attempt.to_json()).encode()


@pytest.mark.parametrize(("content", "damaged"), [c[1:] for c in DAMAGED_STORES], ids=[c[0] for c in DAMAGED_STORES])
def test_a_damaged_jsonl_store_is_set_aside_with_a_message(tmp_path: Path, content: bytes, damaged: list[int]) -> None:
    path = tmp_path / "progress.jsonl"
    original = content.replace(b"{a}", _line(GOOD[0])).replace(b"{b}", _line(GOOD[1]))
    path.write_bytes(original)
    before = JsonLinesStore(path)
    _rows, cursor = before.rows_after("me", 0)  # another tab's trainer, reading on from an offset
    with pytest.warns(ProgressWarning, match=r"progress\.jsonl:\d+:1: warning: a damaged line was set aside"):
        p = Progress(path)
    aside = p.set_aside
    assert aside is not None and list(aside.lines) == damaged and aside.where == str(path)
    kept = 2 if b"{a}" in content else 0
    assert aside.kept == kept and [r.correct for r in p.attempts()] == [False, True][:kept]
    # the file as it was is kept, byte for byte, under a new name beside the store; the message names it
    copies = sorted(tmp_path.glob("progress.jsonl.damaged-*"))
    assert [c.read_bytes() for c in copies] == [original] and aside.aside == str(copies[0])
    assert p.problem is not None and str(copies[0]) in p.problem and f":{damaged[0]}:1:" in p.problem
    # the damaged lines are blank in the store, which keeps its size: nothing is read twice or lost
    assert path.stat().st_size == len(original)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # opened again: nothing damaged, nothing said, no second copy
        again = Progress(path)
        again.record_attempt("b", correct=True)
    assert again.set_aside is None and len(list(tmp_path.glob("progress.jsonl.damaged-*"))) == 1
    assert [r.puzzle_id for r in again.attempts()] == ["a", "a"][:kept] + ["b"]
    # the other tab's offset still points at a line's start: it reads the new row, and only that
    assert [r.puzzle_id for r in before.rows_after("me", cursor)[0]] == ["b"]


def test_a_second_damage_gets_its_own_copy_never_over_the_first(tmp_path: Path) -> None:
    path = tmp_path / "progress.jsonl"
    path.write_bytes(_line(GOOD[0]) + b"\ngarbage\n")
    with pytest.warns(ProgressWarning):
        Progress(path)
    with open(path, "ab") as out:
        out.write(b"more garbage\n")
    with pytest.warns(ProgressWarning):
        second = Progress(path)
    assert second.set_aside is not None and second.set_aside.lines == (3,)
    copies = sorted(tmp_path.glob("progress.jsonl.damaged-*"))
    assert len(copies) == 2 and sorted(b"more garbage" in c.read_bytes() for c in copies) == [False, True]


def test_a_last_line_still_being_written_is_not_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "progress.jsonl"
    path.write_bytes(_line(GOOD[0]) + b'\n{"learner": "me", "puz')  # no newline yet: a write under way
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = Progress(path)
    assert p.set_aside is None and not list(tmp_path.glob("*.damaged-*"))


def test_when_the_copy_cannot_be_written_the_damaged_lines_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "progress.jsonl"
    original = _line(GOOD[0]) + b"\ngarbage\n"
    path.write_bytes(original)
    monkeypatch.setattr(
        "battleline_lab.training.stores.jsonl._unique_aside", lambda p, label: tmp_path / "no-such-folder" / "x"
    )
    with pytest.warns(ProgressWarning, match="a damaged line was skipped .*could not be copied aside"):
        p = Progress(path)
    assert p.set_aside is None and path.read_bytes() == original and p.get("a").attempts == 1


@pytest.mark.parametrize(
    ("lang", "content", "said"),
    [
        (
            "en",
            b"{a}\ngarbage\n",
            ["(1 in all)", "set aside", "progress.jsonl.damaged-", "The other 1 entries are kept"],
        ),
        ("zh", b"{a}\ngarbage\n", ["有 1 行已损坏", "移到一旁", "progress.jsonl.damaged-", "其余 1 条记录"]),
        ("en", b"garbage\n", ["none of it could be read", "progress.jsonl.damaged-", "nothing was deleted"]),
        ("zh", b"garbage\n", ["一点也读不出来", "progress.jsonl.damaged-", "没有删除任何内容"]),
    ],
)
def test_the_gym_says_in_the_learners_language_that_damaged_progress_was_set_aside(
    tmp_path: Path, lang: str, content: bytes, said: list[str]
) -> None:
    from battleline_lab.widgets import PuzzleGym

    path = tmp_path / "progress.jsonl"
    path.write_bytes(content.replace(b"{a}", _line(GOOD[0])))
    with pytest.warns(ProgressWarning):
        progress = Progress(path)
    gym = PuzzleGym("library", progress=progress, lang=lang)
    shown = html_unescape(gym.warning.value)
    assert all(text in shown for text in said), shown
    other = "zh" if lang == "en" else "en"
    gym.set_lang(other)  # the language toggle says it again in the other language
    assert html_unescape(gym.warning.value) != shown and "progress.jsonl.damaged-" in gym.warning.value


def html_unescape(text: str) -> str:
    import html

    return html.unescape(text)
