"""One gate into the store: every row from any source is checked once, and nothing is lost.

Table-driven, one table per family (each id starts with it):

* ``bad-row``: a row that holds a lone surrogate, a control character, a number out of range or an
  unknown kind is refused with a :class:`RowError` naming it (and its file and line where there is
  one) by "Load progress", by :meth:`Progress.add` and when a file is read, and the store goes on
  writing to disk (it never moves to memory for a bad row);
* ``read-only``: a store that cannot be written opens read-only with its rows, the gym says so, and
  "Save my progress" downloads all of them;
* ``reset-load``: loading the learner's own saved file after "Reset my progress" brings it back;
* ``skipped``: every row skipped by ``report``, ``progress export`` and the gym is counted and named
  (``FILE:LINE:1: warning: ...``); a UTF-8 byte order mark costs no row; the report counts every
  puzzle answered;

and a hypothesis fuzz of hostile rows through the import.
"""

from __future__ import annotations

import html
import json
import os
import re
import sqlite3
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battleline_lab.cli import main
from battleline_lab.controllers.gym import load_puzzles
from battleline_lab.training.progress import (
    EXPORT_FORMAT,
    Attempt,
    JsonLinesStore,
    MemoryStore,
    Progress,
    ProgressWarning,
    RowError,
    SqliteStore,
    check_row,
    import_export,
)
from battleline_lab.training.stores import jsonl as jsonl_module
from battleline_lab.training.stores import opening as opening_module
from battleline_lab.widgets import PuzzleGym

_LOAD_ERRORS: list[str] = []
# The library's puzzles, read once by the gym's own loader and handed to every gym below: reading the
# 500 puzzle files again cost about a second a gym, and no test here is about which puzzles it shows.
SEEDS = tuple(load_puzzles("library", _LOAD_ERRORS))
assert SEEDS and not _LOAD_ERRORS, _LOAD_ERRORS

STORES = ["progress.sqlite3", "progress.jsonl"]


def good(puzzle_id: str = "kept", **extra: Any) -> dict[str, Any]:
    """A row as an export holds it."""
    return {"learner": "me", "puzzle_id": puzzle_id, "kind": "answer", "correct": True, "at": 5.0, **extra}


def document(*rows: Any) -> dict[str, Any]:
    return {"format": EXPORT_FORMAT, "learner": "me", "attempts": list(rows)}


def disk_progress(folder: Path, name: str) -> Progress:
    """A learner's progress on disk, holding one row already."""
    p = Progress(folder / name)
    assert isinstance(p.store, (SqliteStore, JsonLinesStore)) and p.problem is None
    p.record_attempt("before", correct=True)
    return p


def on_disk(folder: Path, name: str) -> list[str]:
    """The puzzle ids a fresh reader finds in the file (what survives the kernel)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProgressWarning)
        return [r.puzzle_id for r in Progress(folder / name).attempts()]


# -- bad-row: a bad row is refused and named, and never silences saving --------------------------

SURROGATE = "\ud800"

#: (id, the row's hostile fields, the field the refusal names)
BAD_ROWS: list[tuple[str, dict[str, Any], str]] = [
    ("bad-row-surrogate-puzzle_id", {"puzzle_id": "w" + SURROGATE}, "puzzle_id"),
    ("bad-row-surrogate-answer", {"answer": "x" + SURROGATE}, "answer"),
    ("bad-row-surrogate-answer-json", {"answer": ["a", {"k": SURROGATE}]}, "answer"),
    ("bad-row-surrogate-source", {"source": SURROGATE}, "source"),
    ("bad-row-surrogate-reason", {"reason": "r" + SURROGATE}, "reason"),
    ("bad-row-surrogate-rule", {"rule": SURROGATE + "R13"}, "rule"),
    ("bad-row-surrogate-content_hash", {"content_hash": SURROGATE}, "content_hash"),
    ("bad-row-c0-puzzle_id", {"puzzle_id": "w\x1b[2J"}, "puzzle_id"),
    ("bad-row-c1-source", {"source": "gym\x9b31m"}, "source"),
    ("bad-row-nul-reason", {"reason": "a\x00b"}, "reason"),
    ("bad-row-control-in-answer", {"answer": "\x07"}, "answer"),
    ("bad-row-unknown-kind", {"kind": "bogus"}, "kind"),
    ("bad-row-kind-not-text", {"kind": 3}, "kind"),
    ("bad-row-puzzle_id-not-text", {"puzzle_id": 5}, "puzzle_id"),
    ("bad-row-correct-not-bool", {"correct": "yes"}, "correct"),
    ("bad-row-huge-hints", {"hints": 10**30}, "hints"),
    ("bad-row-negative-hints", {"hints": -1}, "hints"),
    ("bad-row-float-hints", {"hints": 1.5}, "hints"),
    ("bad-row-450-digit-at", {"at": 10**450}, "at"),
    ("bad-row-inf-seconds", {"seconds": float("inf")}, "seconds"),
    ("bad-row-nan-at", {"at": float("nan")}, "at"),
    ("bad-row-negative-seconds", {"seconds": -3}, "seconds"),
    ("bad-row-huge-text", {"puzzle_id": "p" * 5000}, "puzzle_id"),
]


def _export_bytes(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, allow_nan=True).encode("ascii")  # ASCII: a surrogate travels as an escape


@pytest.mark.parametrize("name", STORES)
@pytest.mark.parametrize(("hostile", "field"), [c[1:] for c in BAD_ROWS], ids=[c[0] for c in BAD_ROWS])
def test_bad_row_load_progress_refuses_it_and_keeps_saving(
    hostile: dict[str, Any], field: str, name: str, tmp_path: Path
) -> None:
    p = disk_progress(tmp_path, name)
    store = p.store
    gym = PuzzleGym(SEEDS, progress=p)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = gym.load_progress(_export_bytes(document(good("good-row"), good(**hostile))), "ann.json")
        p.record_attempt("after", correct=False)  # a later answer still reaches the disk
    assert got == (1, 1)
    shown = html.unescape(gym.transfer.value)
    assert f'ann.json:1: attempts[1] "{field}":' in shown, shown
    assert not [w for w in caught if issubclass(w.category, ProgressWarning)]
    assert p.store is store and p.problem is None and not isinstance(p.store, MemoryStore)
    assert on_disk(tmp_path, name) == ["before", "good-row", "after"]


@pytest.mark.parametrize("name", STORES)
@pytest.mark.parametrize(("hostile", "field"), [c[1:] for c in BAD_ROWS], ids=[c[0] for c in BAD_ROWS])
def test_bad_row_progress_add_raises_a_row_error_and_changes_nothing(
    hostile: dict[str, Any], field: str, name: str, tmp_path: Path
) -> None:
    p = disk_progress(tmp_path, name)
    store = p.store
    data = good(**hostile)
    if "answer" in hostile and not isinstance(hostile["answer"], str):
        data["answer"] = json.dumps(hostile["answer"])
    fields = {k: v for k, v in data.items() if k in Attempt.__dataclass_fields__}
    with pytest.raises(RowError) as err:
        p.add(Attempt(**fields))
    assert err.value.field == field and isinstance(err.value, ValueError)
    assert p.store is store and p.problem is None
    p.record_attempt("after", correct=True)
    assert on_disk(tmp_path, name) == ["before", "after"]


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ('{"learner": "me", "puzzle_id": "w\\ud800", "at": 1}', "puzzle_id"),
        ('{"learner": "me", "puzzle_id": "w", "source": "\\u009b", "at": 1}', "source"),
        ('{"learner": "me", "puzzle_id": "w", "kind": "bogus", "at": 1}', "kind"),
        ('{"learner": "me", "puzzle_id": "w", "at": NaN}', None),
    ],
    ids=["bad-row-file-surrogate", "bad-row-file-c1", "bad-row-file-kind", "bad-row-file-nan"],
)
def test_bad_row_in_a_file_is_refused_located_and_the_store_still_writes(
    line: str, field: str | None, tmp_path: Path
) -> None:
    path = tmp_path / "progress.jsonl"
    path.write_text(json.dumps(good("one")) + "\n" + line + "\n", encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        p = Progress(path)
        p.record_attempt("two", correct=True)
    said = [str(w.message) for w in caught if issubclass(w.category, ProgressWarning)]
    assert len(said) == 1 and said[0].startswith(f"{path}:2:1: warning:"), said
    assert isinstance(p.store, JsonLinesStore)
    assert [r.puzzle_id for r in p.attempts()] == ["one", "two"]
    assert [r.puzzle_id for r in JsonLinesStore(path, read_only=True).rows()] == ["one", "two"]
    if field is not None:
        with pytest.raises(RowError, match=f'{re.escape(str(path))}:2: "{field}"'):
            check_row(json.loads(line), where=str(path), line=2)


def test_bad_row_a_write_error_that_is_not_the_disk_never_moves_to_memory(tmp_path: Path) -> None:
    p = disk_progress(tmp_path, "progress.sqlite3")
    store = p.store

    def broken(attempt: Attempt) -> None:
        raise UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")

    assert store is not None
    setattr(store, "add", broken)  # noqa: B010 - the store's own method, replaced for this one test
    with pytest.raises(UnicodeEncodeError):
        p.record_attempt("x", correct=True)
    assert p.store is store and p.problem is None


# -- read-only: a store that cannot be written opens with its rows ---------------------------------


def _refuse_writes_sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite on a read-only file system: opening for writing fails (root ignores chmod, so it is mocked)."""

    def readonly(target: Path) -> SqliteStore:
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(opening_module, "_open_sqlite", readonly)


def _refuse_writes_jsonl(monkeypatch: pytest.MonkeyPatch) -> None:
    """A JSON-lines store without write permission: every open for writing fails with EACCES."""
    real = jsonl_module._open_regular

    def no_write(path: Path, flags: int) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, flags)

    monkeypatch.setattr(jsonl_module, "_open_regular", no_write)


READ_ONLY: list[tuple[str, str, Callable[[pytest.MonkeyPatch], None]]] = [
    ("read-only-sqlite", "progress.sqlite3", _refuse_writes_sqlite),
    ("read-only-jsonl", "progress.jsonl", _refuse_writes_jsonl),
]


@pytest.mark.parametrize(("name", "refuse"), [c[1:] for c in READ_ONLY], ids=[c[0] for c in READ_ONLY])
def test_read_only_store_opens_with_its_rows_and_save_exports_them_all(
    name: str, refuse: Callable[[pytest.MonkeyPatch], None], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = Progress(tmp_path / name)
    for n in range(3):
        p.record_attempt(f"old{n}", correct=True)
    if isinstance(p.store, SqliteStore):
        p.store.close()
    before = (tmp_path / name).read_bytes()
    refuse(monkeypatch)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = Progress(tmp_path / name)
    said = [str(w.message) for w in caught if issubclass(w.category, ProgressWarning)]
    assert len(said) == 1 and "its 3 rows are read" in said[0], said
    assert [r.puzzle_id for r in again.attempts()] == ["old0", "old1", "old2"]
    gym = PuzzleGym(SEEDS, progress=again)
    warning = html.unescape(gym.warning.value)
    assert "cannot be written" in warning and "3 entries" in warning, warning
    again.record_attempt("new", correct=False)
    saved = json.loads(gym.save_progress())
    assert [row["puzzle_id"] for row in saved["attempts"]] == ["old0", "old1", "old2", "new"]
    assert (tmp_path / name).read_bytes() == before  # nothing written to the store


# -- reset-load: "Load progress" undoes a reset -----------------------------------------------------


@pytest.mark.parametrize("name", [*STORES, "memory"], ids=[f"reset-load-{n}" for n in [*STORES, "memory"]])
def test_reset_load_restores_the_saved_rows(name: str, tmp_path: Path) -> None:
    p = Progress(store=MemoryStore()) if name == "memory" else Progress(tmp_path / name)
    gym = PuzzleGym(SEEDS, progress=p)
    p.record_attempt("w1", correct=False)
    p.record_attempt("w1", correct=True)
    p.record_hint("w2")
    saved = gym.save_progress()
    gym.reset()
    assert p.attempts() == []
    assert gym.load_progress(saved.encode("utf-8"), "mine.json") == (3, 0)
    assert [(r.puzzle_id, r.kind) for r in p.attempts()] == [("w1", "answer"), ("w1", "answer"), ("w2", "hint")]
    assert gym.load_progress(saved.encode("utf-8"), "mine.json") == (0, 0)  # loading again adds nothing


# -- skipped: every skipped row is counted and named -------------------------------------------------

BOM = b"\xef\xbb\xbf"


def _jsonl(*lines: str, bom: bool = False) -> bytes:
    return (BOM if bom else b"") + "".join(line + "\n" for line in lines).encode("utf-8")


def _class_folder(root: Path, content: bytes) -> Path:
    learner = root / "class" / "ann"
    learner.mkdir(parents=True)
    (learner / "progress.jsonl").write_bytes(content)
    return root / "class"


ROW_A = json.dumps(good("wedge-1"))
ROW_B = json.dumps(good("wedge-2", correct=False))
DAMAGED = '{"torn": '

#: (id, the store's bytes, puzzles the report counts, the warning's line (None: no warning))
REPORTS: list[tuple[str, bytes, int, int | None]] = [
    ("skipped-report-damaged-line", _jsonl(ROW_A, DAMAGED, ROW_B), 2, 2),
    ("skipped-report-bad-row", _jsonl(ROW_A, ROW_B, json.dumps(good("x", kind="bogus"))), 2, 3),
    ("skipped-report-bom", _jsonl(ROW_A, ROW_B, bom=True), 2, None),
    ("skipped-report-bom-and-damage", _jsonl(ROW_A, ROW_B, DAMAGED, bom=True), 2, 3),
]


@pytest.mark.parametrize(("content", "puzzles", "line"), [c[1:] for c in REPORTS], ids=[c[0] for c in REPORTS])
def test_skipped_rows_of_a_class_folder_are_named_by_report(
    content: bytes, puzzles: int, line: int | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _class_folder(tmp_path, content)
    out = tmp_path / "report.html"
    assert main(["report", str(folder), "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert f"1 learners, {puzzles} puzzles" in said.out, said.out
    store = folder / "ann" / "progress.jsonl"
    warned = [x for x in said.err.splitlines() if "warning" in x]
    if line is None:
        assert warned == [], said.err
    else:
        assert len(warned) == 1 and warned[0].startswith(f"{store}:{line}:1: warning: a row was skipped"), said.err
    assert store.read_bytes() == content  # a reader never changes the store


@pytest.mark.parametrize(("content", "puzzles", "line"), [c[1:] for c in REPORTS], ids=[c[0] for c in REPORTS])
def test_skipped_rows_of_progress_export_are_named(
    content: bytes, puzzles: int, line: int | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "progress.jsonl").write_bytes(content)
    assert main(["progress", "export", "--data", str(data)]) == 0
    said = capsys.readouterr()
    exported = json.loads(said.out)
    assert [r["puzzle_id"] for r in exported["attempts"]] == ["wedge-1", "wedge-2"]
    warned = [x for x in said.err.splitlines() if "warning" in x]
    if line is None:
        assert warned == [], said.err
    else:
        assert len(warned) == 1 and warned[0].startswith(f"{data / 'progress.jsonl'}:{line}:1: warning:"), said.err


EXPORTS: list[tuple[str, list[Any], int, str | None]] = [
    ("skipped-export-not-an-object", [good("w1"), "nonsense", good("w2")], 2, "attempts[1] the row"),
    ("skipped-export-bad-kind", [good("w1"), good("w2"), good("w3", kind="bogus")], 2, 'attempts[2] "kind"'),
    ("skipped-export-surrogate", [good("w1"), good("w2", source=SURROGATE)], 1, 'attempts[1] "source"'),
    ("skipped-export-row-without-kind", [good("w1"), {"puzzle_id": "w2", "correct": True, "at": 1.0}], 2, None),
]


@pytest.mark.parametrize(("rows", "puzzles", "named"), [c[1:] for c in EXPORTS], ids=[c[0] for c in EXPORTS])
def test_skipped_rows_of_an_export_are_named_by_report(
    rows: list[Any], puzzles: int, named: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = tmp_path / "ann.json"
    export.write_text(json.dumps(document(*rows)), encoding="utf-8")
    assert main(["report", str(export), "--out", str(tmp_path / "r.html")]) == 0
    said = capsys.readouterr()
    assert f"1 learners, {puzzles} puzzles" in said.out, said.out
    read = len(rows) - (named is not None)  # the page counts the rows it read, not the one skipped
    assert f"1 learners, {read} attempts, {puzzles} puzzles." in (tmp_path / "r.html").read_text(encoding="utf-8")
    warned = [x for x in said.err.splitlines() if "warning" in x]
    if named is None:
        assert warned == [], said.err
    else:
        assert len(warned) == 1 and warned[0].startswith(f"{export}:1:1: warning: a row was skipped ({named}")


def test_skipped_bom_on_an_uploaded_export_costs_nothing(tmp_path: Path) -> None:
    gym = PuzzleGym(SEEDS, progress=Progress(store=MemoryStore()))
    assert gym.load_progress(BOM + _export_bytes(document(good("w1"))), "bom.json") == (1, 0)


# -- fuzz: hostile rows through the import -----------------------------------------------------------

_HOSTILE_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),  # lone surrogates
        st.characters(max_codepoint=0x1F),  # C0
        st.characters(min_codepoint=0x7F, max_codepoint=0x9F),  # DEL, C1
        st.sampled_from("ab3\u202e\u2066²٣"),
    ),
    max_size=12,
)
_HOSTILE_VALUE = st.one_of(
    _HOSTILE_TEXT,
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.sampled_from([None, True, False, [], {}, [1, "x"], {"a": SURROGATE}, "answer", "bogus", "game"]),
)
_FIELDS = ["puzzle_id", "kind", "correct", "hints", "seconds", "at", "answer", "content_hash", "reason", "rule"]


@st.composite
def hostile_rows(draw: st.DrawFn) -> dict[str, Any]:
    row: dict[str, Any] = good(draw(st.sampled_from(["f1", "f2", "f3"])))
    for name in draw(st.lists(st.sampled_from([*_FIELDS, "source"]), min_size=1, max_size=3, unique=True)):
        row[name] = draw(_HOSTILE_VALUE)
    return row


@pytest.fixture(scope="module")
def fuzz_folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="battleline-gate-fuzz-") as folder:
        yield Path(folder)


@pytest.mark.parametrize("name", STORES, ids=[f"fuzz-import-{n}" for n in STORES])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.one_of(hostile_rows(), st.sampled_from(["x", 3, None, [], 1e999])), min_size=1, max_size=4))
def test_fuzz_hostile_rows_through_import_are_refused_cleanly(
    rows: list[dict[str, Any]], name: str, fuzz_folder: Path
) -> None:
    folder = Path(tempfile.mkdtemp(dir=fuzz_folder))
    p = disk_progress(folder, name)
    store = p.store
    refused: list[RowError] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        added, skipped = import_export(p, document(*rows), where="hostile.json", refused=refused)
        p.record_attempt("after", correct=True)
    assert not [w for w in caught if issubclass(w.category, ProgressWarning)]
    assert p.store is store and p.problem is None
    assert skipped == len(refused) and added + skipped <= len(rows)  # no hostile value says "reset"
    for err in refused:
        assert str(err).startswith("hostile.json:1: attempts[") and err.reason
    kept = on_disk(folder, name)
    assert kept[0] == "before" and kept[-1] == "after" and len(kept) == 2 + added


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(row=hostile_rows())
def test_fuzz_a_hostile_row_in_a_handed_in_store_is_skipped_and_named(row: dict[str, Any], fuzz_folder: Path) -> None:
    folder = Path(tempfile.mkdtemp(dir=fuzz_folder))
    path = folder / "progress.jsonl"
    line = json.dumps(row, allow_nan=True)  # ASCII: a surrogate travels as an escape, as in a real file
    path.write_bytes(_jsonl(json.dumps(good("first")), line, json.dumps(good("last"))))
    try:
        check_row(json.loads(line))
        bad = False
    except (RowError, ValueError):
        bad = True
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        p = Progress(path)
        p.record_attempt("after", correct=True)
    said = [str(w.message) for w in caught if issubclass(w.category, ProgressWarning)]
    assert isinstance(p.store, JsonLinesStore) and (p.problem is None) == (not bad)
    if bad:
        assert len(said) == 1 and said[0].startswith(f"{path}:2:1: warning:"), said
    ids = [r.puzzle_id for r in p.attempts()]
    assert ids[0] == "first" and ids[-2:] == ["last", "after"] and len(ids) == 3 + (not bad)
