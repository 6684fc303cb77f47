"""The bad-input and lost-data families that once got through, each closed for the family (table-driven).

1. YAML escapes past U+10FFFF (and any other error of the pure-Python scanner) in any scalar of a
   puzzle or a game record: located, ``check DIR`` still sums up, the folder loaders skip the file.
2. ``report`` on exports with huge integers in any numeric field: clamped or located, never exit 3.
3. ``report`` reads only regular files, with a limit: FIFOs, devices, a FIFO named ``*.json``.
4, 12. Outputs never replace an input (links, a moment's name) and pairs are all-or-nothing.
5, 6. Names and titles echoed to the terminal are escaped; bidi overrides/isolates are refused.
7. The JSON-lines store never glues a row to a torn line, and says (located) that a line was damaged.
8. Rows are replayed in insertion order, whatever the clock said.
9. ``progress export`` only reads: bad stores are located errors, nothing is moved or created.
14. SQLite on a full disk names the real error.
15. The trainer reads rows other trainers (tabs, processes) wrote before choosing; its
    incremental state is the state a fresh trainer computes from all the rows.
"""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from battleline_lab.formats import safe_yaml
from battleline_lab.formats.files import OutputExistsError, SameAsInputError, write_all
from battleline_lab.game.record import RecordError, load_record_text
from battleline_lab.quiz import library
from battleline_lab.quiz.loader import PuzzleFileError, load_puzzle_text
from battleline_lab.training.progress import (
    Attempt,
    JsonLinesStore,
    Progress,
    ProgressWarning,
    SqliteStore,
    current,
)
from battleline_lab.training.trainer import Trainer
from tests.test_robustness import LOCATED, _clean, run

BASE = (
    "id: base\ntitle: {en: Base, zh: 基}\n"
    "flags: {5: {you: [r3, r4, r5], opponent: [b8]}, 2: {you: [b7], opponent: [b10, g2]}}\n"
    "question: {kind: claim, flag: 5}\nanswer: true\n"
)
RECORD = "seed: 1\noptions: {first: south}\nplayers: {south: ann, north: bo}\nmoves:\n- south: play r9 3; draw troops\n"

# -- 1. escapes past U+10FFFF ---------------------------------------------------------------------

ESCAPES = ['"\\U00110000"', '"\\U0011ffff"', '"\\U7fffffff"', '"\\UFFFFFFFF"', '"a \\U00110000 b"']
PUZZLE_SPOTS = [  # (where, how to put the scalar in)
    ("title", lambda s: BASE.replace("title: {en: Base, zh: 基}", f"title: {{en: {s}, zh: 基}}")),
    ("id", lambda s: BASE.replace("id: base", f"id: {s}")),
    ("note", lambda s: BASE + f"note: {s}\n"),
    ("card", lambda s: BASE.replace("[r3, r4, r5]", f"[r3, {s}, r5]")),
    ("key", lambda s: BASE + f"{s}: 1\n"),
    ("answer", lambda s: BASE.replace("answer: true", f"answer: {s}")),
]
RECORD_SPOTS = [
    ("player", lambda s: RECORD.replace("south: ann", f"south: {s}")),
    ("move", lambda s: RECORD.replace("play r9 3; draw troops", "play r9 3; draw troops\n- north: " + s)),
    ("seed", lambda s: RECORD.replace("seed: 1", f"seed: {s}")),
    ("option", lambda s: RECORD.replace("first: south", f"first: {s}")),
]


@pytest.mark.parametrize("escape", ESCAPES)
def test_1_escape_past_unicode_is_located_by_both_parsers(escape: str) -> None:
    for backend in safe_yaml.backends():
        with pytest.raises(safe_yaml.ComposeError) as err:
            safe_yaml.compose(f"a:\n  b: [x, {escape}]\n", backend=backend)
        assert (err.value.line, err.value.kind) == (2, "syntax") and "U+10FFFF" in str(err.value.problem)


@pytest.mark.parametrize("escape", ESCAPES)
@pytest.mark.parametrize("spot", PUZZLE_SPOTS, ids=[s[0] for s in PUZZLE_SPOTS])
def test_1_escape_in_any_puzzle_scalar(spot: tuple[str, object], escape: str, tmp_path: Path) -> None:
    text = spot[1](escape)  # type: ignore[operator]
    with pytest.raises(PuzzleFileError) as err:
        load_puzzle_text(text, "p.yaml")
    assert all(LOCATED.match(str(d)) for d in err.value.diagnostics)
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "bad.yaml").write_text(text, encoding="utf-8")
    (folder / "good.yaml").write_text(BASE.replace("id: base", "id: good"), encoding="utf-8")
    for argv in (["check", str(folder)], ["claims", str(folder / "bad.yaml")], ["explain", str(folder / "bad.yaml")]):
        status, out, err_text = run(argv)
        assert status == 2, (argv, err_text)
        assert all(LOCATED.match(line) for line in err_text.splitlines()), err_text
    status, out, _ = run(["check", str(folder)])
    assert "checked 2 puzzles: 1 ok, 1 failed" in out  # the summary is still printed


def test_1_folder_loaders_skip_the_bad_file_with_a_located_warning(tmp_path: Path) -> None:
    from battleline_lab.quiz.library import _index
    from battleline_lab.widgets import load_puzzles

    (tmp_path / "bad.yaml").write_text(BASE.replace("Base", '"\\U00110000"'), encoding="utf-8")
    (tmp_path / "good.yaml").write_text(BASE, encoding="utf-8")

    def from_widgets(folder: Path) -> list[str]:
        return [p.id for p in load_puzzles(folder)]

    def from_library(folder: Path) -> list[str]:
        return list(_index(folder))

    for load in (from_widgets, from_library):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert load(tmp_path) == ["base"]
        assert any(re.match(r".*bad\.yaml:\d+:\d+: error: .*U\+10FFFF", str(w.message)) for w in caught)
    errors: list[str] = []
    assert [p.id for p in load_puzzles(tmp_path, errors)] == ["base"] and len(errors) == 1


@pytest.mark.parametrize("escape", ESCAPES)
@pytest.mark.parametrize("spot", RECORD_SPOTS, ids=[s[0] for s in RECORD_SPOTS])
def test_1_escape_in_any_record_scalar(spot: tuple[str, object], escape: str, tmp_path: Path) -> None:
    text = spot[1](escape)  # type: ignore[operator]
    with pytest.raises(RecordError) as err:
        load_record_text(text, "g.yaml")
    assert all(LOCATED.match(line) for line in err.value.lines())
    file = tmp_path / "g.yaml"
    file.write_text(text, encoding="utf-8")
    for argv in (["replay", str(file)], ["review", str(file)]):
        status, _, err_text = run(argv)
        assert status == 2 and err_text and all(LOCATED.match(line) for line in err_text.splitlines()), err_text


# -- 2. huge integers in an export ------------------------------------------------------------------


def _export(learner: str = "ann") -> dict[str, object]:
    return {
        "format": "battleline-lab-progress",
        "learner": learner,
        "attempts": [
            {"learner": learner, "puzzle_id": "p", "kind": "answer", "correct": False, "hints": 1, "rule": "R13"},
            {"learner": learner, "puzzle_id": "p", "kind": "answer", "correct": True, "hints": 0},
        ],
        "first_try": 0,
        "rated": 1,
        "rating": {"rating": 1500.0, "rd": 200.0},
        "missed_rules": {"R13": 1},
        "themes": {"t": {"rating": 1400.0, "games": 1}},
        "puzzles": {"p": {"level": 2, "rating": 1300.0}},
    }


HUGE = ["9" * 400, "-" + "9" * 400, "1" + "0" * 300, "9" * 4200]
FIELDS: list[tuple[str, Callable[[Any, int], None]]] = [
    ("missed_rules", lambda d, n: d["missed_rules"].update(R13=n)),
    ("hints", lambda d, n: d["attempts"][0].update(hints=n)),
    ("rated", lambda d, n: d.update(rated=n)),
    ("first_try", lambda d, n: d.update(first_try=n)),
    ("rating", lambda d, n: d["rating"].update(rating=n)),
    ("rd", lambda d, n: d["rating"].update(rd=n)),
    ("theme rating", lambda d, n: d["themes"]["t"].update(rating=n)),
    ("level", lambda d, n: d["puzzles"]["p"].update(level=n)),
]


@pytest.mark.parametrize("digits", HUGE, ids=["400", "-400", "1e300", "4200"])
@pytest.mark.parametrize("field", FIELDS, ids=[f[0] for f in FIELDS])
def test_2_report_on_huge_integers_is_a_located_error_never_exit_3(
    field: tuple[str, Callable[[Any, int], None]], digits: str, tmp_path: Path
) -> None:
    document = _export()
    field[1](document, 424242)
    text = json.dumps(document, indent=1).replace("424242", digits)
    (tmp_path / "e.json").write_text(text, encoding="utf-8")
    status, out, err = run(["report", str(tmp_path / "e.json"), "--out", str(tmp_path / "r.html")])
    line = text[: text.index(digits)].count("\n") + 1
    assert status == 2 and re.match(rf".*e\.json:{line}:\d+: error: .*past the bound", err), err
    assert not (tmp_path / "r.html").exists() and "Traceback" not in err


def test_2_a_number_past_pythons_digit_limit_is_located(tmp_path: Path) -> None:
    text = json.dumps(_export(), indent=1).replace('"rated": 1', '"rated": ' + "9" * 5000)
    (tmp_path / "e.json").write_text(text, encoding="utf-8")
    status, _, err = run(["report", str(tmp_path / "e.json"), "--out", str(tmp_path / "r.html")])
    line = text[: text.index("9" * 100)].count("\n") + 1
    assert status == 2 and re.match(rf".*e\.json:{line}:\d+: error: .*past the bound .*5000 digits", err), err


# -- 3. only regular files ------------------------------------------------------------------------


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


NOT_FILES = [
    ("fifo", lambda tmp: [str(_fifo(tmp / "e.json"))], "pipe"),
    ("fifo in a folder", lambda tmp: [str(_fifo(tmp / "e.json").parent)], "pipe"),
    ("dev zero", lambda tmp: ["/dev/zero"], "device"),
    ("dev null", lambda tmp: ["/dev/null"], "device"),
    ("too big", lambda tmp: [str(_big(tmp / "big.json"))], "limit"),
]


def _big(path: Path) -> Path:
    with open(path, "wb") as out:
        out.truncate(65 << 20)  # sparse: 65 MiB over the 64 MiB limit, nothing read
    return path


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("case", NOT_FILES, ids=[c[0] for c in NOT_FILES])
def test_3_report_refuses_what_is_not_a_regular_file(case: tuple[str, object, str], tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    paths = case[1](inputs)  # type: ignore[operator]
    status, _, err = run(["report", *paths, "--out", str(tmp_path / "r.html")], seconds=20)
    assert status == 2 and err and all(LOCATED.match(line) for line in err.splitlines()), err
    assert case[2] in err and not (tmp_path / "r.html").exists()


# -- 4, 12. outputs -------------------------------------------------------------------------------


def _record_with_moments(tmp_path: Path) -> tuple[Path, list[str]]:
    from battleline_lab.core.position import ClaimTiming
    from battleline_lab.game import Options, RandomBot, play_game
    from battleline_lab.game.record import dump_record, load_record
    from battleline_lab.game.review import review

    state = play_game(RandomBot(17), RandomBot(117), seed=17, options=Options(claim_timing=ClaimTiming.AFTER_PLAY))
    path = tmp_path / "game.yaml"
    path.write_text(dump_record(state), encoding="utf-8")
    from battleline_lab.game import Player

    names = list(review(load_record(path), Player.SOUTH).puzzle_files())
    assert names
    return path, names


def test_4_review_out_never_replaces_its_record(tmp_path: Path) -> None:
    record, names = _record_with_moments(tmp_path)
    original = record.read_bytes()
    out = tmp_path / "out"
    out.mkdir()
    for name in (names[0], names[-1]):  # a link in DIR named like a moment file, to the record
        link = out / name
        link.symlink_to(record)
        for force in ([], ["--force"]):
            status, _, err = run(["review", str(record), "--out", str(out), *force])
            assert status == 2 and all(LOCATED.match(line) for line in err.splitlines()), err
            assert record.read_bytes() == original and sorted(os.listdir(out)) == [name]
        link.unlink()
    inside = out / names[0]  # the record itself lies in DIR under a moment's name
    inside.write_bytes(original)
    status, _, err = run(["review", str(inside), "--out", str(out), "--force"])
    assert status == 2 and "input" in err and inside.read_bytes() == original, err
    assert sorted(os.listdir(out)) == [names[0]]  # no other moment written: all or nothing


PAIRS = [  # (what is at the key's path, force): the sheet is never written alone, the old sheet never lost
    ("dangling link", []),
    ("dangling link", ["--force"]),
    ("folder", ["--force"]),
    ("folder", []),
    ("file", []),
]


@pytest.mark.parametrize("case", PAIRS, ids=[f"{c[0]}{' force' if c[1] else ''}" for c in PAIRS])
def test_12_worksheet_and_key_are_one_pair(case: tuple[str, list[str]], tmp_path: Path) -> None:
    puzzle = tmp_path / "p.yaml"
    puzzle.write_text(BASE, encoding="utf-8")
    sheet, key = tmp_path / "sheet.html", tmp_path / "sheet.key.html"
    sheet.write_text("old sheet", encoding="utf-8")
    what, force = case
    if what == "dangling link":
        key.symlink_to(tmp_path / "nowhere" / "x.html")
    elif what == "folder":
        key.mkdir()
    else:
        key.write_text("old key", encoding="utf-8")
    status, out, err = run(["worksheet", str(puzzle), "--out", str(sheet), "--answers", "separate", *force])
    assert status == 2 and all(LOCATED.match(line) for line in err.splitlines()), err
    assert sheet.read_text(encoding="utf-8") == "old sheet"  # untouched: nothing half written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.yaml", "sheet.html", "sheet.key.html"]


def test_12_write_all_puts_back_what_was_moved_when_a_later_move_fails(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("old a")
    b.write_text("old b")
    (tmp_path / "sub").mkdir()
    with pytest.raises(OSError):  # the second output is a folder: refused before anything is written
        write_all([(a, "new a"), (tmp_path / "sub", "x")], force=True)
    assert a.read_text() == "old a"
    with pytest.raises(SameAsInputError):
        write_all([(a, "new a"), (b, "new b")], force=True, inputs=[b])
    with pytest.raises(OutputExistsError):
        write_all([(tmp_path / "c.txt", "c"), (b, "new b")])
    assert (a.read_text(), b.read_text(), (tmp_path / "c.txt").exists()) == ("old a", "old b", False)
    real_replace = os.replace
    calls = []

    def failing_replace(src: str, dst: str) -> None:  # the second move fails (a full disk, a yanked drive)
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "replace", failing_replace)
        with pytest.raises(OSError, match="No space"):
            write_all([(a, "new a"), (b, "new b")], force=True)
    assert (a.read_text(), b.read_text()) == ("old a", "old b")  # the first move was undone
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt", "sub"]  # no temp or backup left
    assert write_all([(a, "new a"), (b, "new b")], force=True) == [str(a), str(b)]
    assert (a.read_text(), b.read_text()) == ("new a", "new b")


# -- 5, 6. what reaches the terminal is escaped ------------------------------------------------------

NAMES = [
    "t\x1b]0;owned\x07",
    "c\x1b[2Jx",
    "n\nfake.yaml:1:1: error: forged",
    "c1\x9b2J",
    "bidi\u202eyaml",
    "iso\u2066x",
]


@pytest.mark.parametrize("name", NAMES, ids=["osc", "csi", "newline", "c1", "rlo", "isolate"])
def test_5_file_names_are_escaped_in_every_echoed_line(name: str, tmp_path: Path) -> None:
    good = tmp_path / f"{name}.yaml"
    good.write_text(BASE, encoding="utf-8")
    bad = tmp_path / f"{name}-bad.yaml"
    bad.write_text(BASE + "flgas: 1\n", encoding="utf-8")
    calls = [
        ["claims", str(good)],
        ["explain", str(good)],
        ["check", str(bad)],
        ["claims", str(bad)],
        ["show", str(good), "-o", str(tmp_path / f"{name}.html")],
        ["worksheet", str(good), "--out", str(tmp_path / f"{name}-ws.html")],
        ["replay", str(tmp_path / f"{name}.missing")],
    ]
    for argv in calls:
        status, out, err = run(argv)
        assert status in (0, 2), (argv, err)
        for line in (out + err).splitlines():
            assert _clean(line), (argv, line)
        assert "\nfake.yaml" not in out + err


BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\x9b", "\x1b"]


@pytest.mark.parametrize("char", BIDI, ids=[f"U+{ord(c):04X}" for c in BIDI])
def test_6_bidi_controls_in_a_title_are_refused_and_never_printed(char: str, tmp_path: Path) -> None:
    escaped = f"\\u{ord(char):04x}" if ord(char) > 0xFF else f"\\x{ord(char):02x}"
    file = tmp_path / "p.yaml"
    for field in ("title: {en: ", "headline: {en: "):
        text = BASE.replace("title: {en: Base, zh: 基}", f'{field}"evil{escaped}x", zh: 基}}')
        if field.startswith("headline"):
            text = text.replace("id: base\n", "id: base\ntitle: Base\n")
        file.write_text(text, encoding="utf-8")
        for argv in (["check", str(file)], ["explain", str(file)], ["show", str(file), "-o", str(tmp_path / "o.html")]):
            status, out, err = run(argv)
            assert status == 2, (argv, out, err)
            assert all(_clean(line) for line in (out + err).splitlines()), (argv, out + err)
    assert safe_yaml.escape_control(f"a{char}b") == f"a{escaped}b"


# -- 7. the JSON-lines store and torn lines ---------------------------------------------------------

TORN = ['{"learner": "me", "puzzle_id": "x", "ki', "garbage", '{"learner": "me"', "\x00\x00\x00", "[" * 50]


@pytest.mark.parametrize("torn", TORN, ids=["half-row", "garbage", "no-newline", "nul", "brackets"])
def test_7_a_torn_last_line_never_swallows_the_next_row(torn: str, tmp_path: Path) -> None:
    path = tmp_path / "progress.jsonl"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        first = Progress(path)
        first.record_attempt("a", correct=False)
    with open(path, "a", encoding="utf-8") as out:
        out.write(torn)  # a crash or a full disk in the middle of a write
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = Progress(path)
        again.record_attempt("b", correct=True)
        again.record_attempt("c", correct=True)
    assert [r.puzzle_id for r in again.attempts()] == ["a", "b", "c"]
    damaged = [w for w in caught if issubclass(w.category, ProgressWarning)]
    assert len(damaged) == 0  # the torn line had no newline yet when this store opened: not damage yet
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        third = Progress(path)
    said = [str(w.message) for w in caught if issubclass(w.category, ProgressWarning)]
    assert len(said) == 1 and said[0].startswith(f"{path}:2:1: warning: a damaged line"), said
    assert [r.puzzle_id for r in third.attempts()] == ["a", "b", "c"]


def test_7_two_stores_appending_after_a_torn_line(tmp_path: Path) -> None:
    path = tmp_path / "progress.jsonl"
    a, b = JsonLinesStore(path), JsonLinesStore(path)
    a.add(Attempt("me", "one"))
    with open(path, "a", encoding="utf-8") as out:
        out.write('{"torn')
    b.add(Attempt("me", "two"))
    a.add(Attempt("me", "three"))
    assert [r.puzzle_id for r in a.rows()] == ["one", "two", "three"] and a.damaged == [2]


# -- 8. insertion order ------------------------------------------------------------------------------

CLOCKS = [  # times of: answer x, reset, answer y, answer y again
    ("steady", [10.0, 20.0, 30.0, 40.0]),
    ("reset ahead", [10.0, 9e9, 30.0, 40.0]),
    ("step back", [10.0, 20.0, 30.0, 5.0]),
    ("all equal", [1.0, 1.0, 1.0, 1.0]),
    ("backwards", [40.0, 30.0, 20.0, 10.0]),
]


@pytest.mark.parametrize("store", ["sqlite", "jsonl", "memory"])
@pytest.mark.parametrize("clock", CLOCKS, ids=[c[0] for c in CLOCKS])
def test_8_rows_replay_in_insertion_order(clock: tuple[str, list[float]], store: str, tmp_path: Path) -> None:
    from battleline_lab.training.progress import MemoryStore

    stamps = iter(clock[1])
    if store == "memory":
        progress = Progress(store=MemoryStore())
    else:
        progress = Progress(tmp_path / ("progress.sqlite3" if store == "sqlite" else "progress.jsonl"))
    puzzles = library.puzzles()[:3]
    trainer = Trainer(puzzles, progress=progress)
    x, y = puzzles[0].id, puzzles[1].id
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("battleline_lab.training.progress.time.time", lambda: next(stamps))
        progress.record_attempt(x, correct=True)
        progress.reset()
        progress.record_attempt(y, correct=False)  # the first, rated answer to y: wrong
        progress.record_attempt(y, correct=True)  # a retry, whatever its clock says
    assert [r.puzzle_id for r in progress.attempts()] == [y, y]
    summary = trainer.summary()
    assert (summary.rated, summary.first_try) == (1, 0)  # the retry is not a first, rated answer
    fresh = Trainer(puzzles, progress=Progress(store=progress.store))
    assert fresh.summary() == summary
    assert progress.store is not None and [r.puzzle_id for r in current(progress.store.rows())] == [y, y]


# -- 9. read-only commands ---------------------------------------------------------------------------


def _garbage(path: Path) -> None:
    path.write_bytes(b"not a database at all" * 200)


def _truncated(path: Path) -> None:
    progress = Progress(path)
    for n in range(300):
        progress.record_attempt(f"p{n}", correct=True, answer="x" * 100)
    assert isinstance(progress.store, SqliteStore)
    progress.store.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


BAD_STORES = [
    ("folder", lambda p: p.mkdir(), "folder"),
    ("fifo", lambda p: os.mkfifo(p), "pipe"),
    ("link to a device", lambda p: p.symlink_to("/dev/null"), "device"),
    ("link to a folder", lambda p: p.symlink_to(p.parent), "folder"),
    ("garbage", _garbage, "not a readable progress database"),
    ("truncated", _truncated, "not a readable progress database"),
    ("empty", lambda p: p.write_bytes(b""), "not a readable progress database"),
    ("dangling link", lambda p: p.symlink_to(p.parent / "gone"), "No such file"),
]


@pytest.mark.parametrize("case", BAD_STORES, ids=[c[0] for c in BAD_STORES])
def test_9_export_of_a_bad_store_is_located_and_moves_nothing(case: tuple[str, object, str], tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    case[1](data / "progress.sqlite3")  # type: ignore[operator]
    listing = sorted(os.listdir(data))
    dev = sorted(os.listdir("/dev"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no raw Python warning
        status, out, err = run(["progress", "export", "--data", str(data)], seconds=20)
    assert status == 2 and out == "" and case[2] in err, err
    assert all(LOCATED.match(line) for line in err.splitlines()), err
    assert sorted(os.listdir(data)) == listing  # nothing renamed aside, nothing created beside it
    assert sorted(os.listdir("/dev")) == dev


@pytest.mark.parametrize("kind", ["sqlite", "jsonl", "sqlite open by a writer"])
def test_9_export_of_a_good_store_creates_nothing(kind: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    progress = Progress(data / ("progress.jsonl" if kind == "jsonl" else "progress.sqlite3"))
    progress.record_attempt("seed-blue-seven-in-your-hand", correct=True)
    if kind == "sqlite" and isinstance(progress.store, SqliteStore):
        progress.store.close()  # a clean close: no -wal or -shm left
    listing = sorted(os.listdir(data))
    status, out, err = run(["progress", "export", "--data", str(data)])
    assert status == 0, err
    assert len(json.loads(out)["attempts"]) == 1
    assert sorted(os.listdir(data)) == listing


# -- 14. a full disk --------------------------------------------------------------------------------


def test_14_sqlite_on_a_full_disk_names_the_real_error(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "progress.sqlite3")
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")  # no page more: SQLITE_FULL, as on a full disk
    with pytest.raises(sqlite3.OperationalError) as err:
        store.add_many([Attempt("me", f"p{n}", answer="x" * 4000) for n in range(50)])
    assert "full" in str(err.value) and "rollback" not in str(err.value)
    assert store.rows() == []  # nothing half written
    progress = Progress(store=store)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        progress.record_attempt("p", correct=True, answer="x" * 40000)
    said = [str(w.message) for w in caught]
    assert len(said) == 1 and "full" in said[0] and "rollback" not in said[0], said
    assert [r.puzzle_id for r in progress.attempts()] == ["p"]  # kept in memory: nothing lost


# -- 15. the trainer over a shared store ------------------------------------------------------------


@pytest.mark.parametrize("kind", ["progress.sqlite3", "progress.jsonl"])
def test_15_two_tabs_on_one_data_folder(kind: str, tmp_path: Path) -> None:
    puzzles = [p for p in library.puzzles() if p.question is not None][:12]
    one = Trainer(puzzles, progress=Progress(tmp_path / kind))
    two = Trainer(puzzles, progress=Progress(tmp_path / kind))
    rng = random.Random(24)
    for _ in range(30):
        tab, other = (one, two) if rng.random() < 0.5 else (two, one)
        puzzle = tab.next()
        tab.record(puzzle.id, correct=rng.random() < 0.7)
        assert other.next().id != puzzle.id or len(puzzles) == 1  # the other tab sees the answer first
        assert one.summary() == two.summary()  # both tabs' answers count, in both
    fresh = Trainer(puzzles, progress=Progress(tmp_path / kind))
    assert fresh.summary() == one.summary() and fresh.next().id == one.next().id
    assert fresh.due() == one.due() and fresh.current() == one.current()


@pytest.mark.parametrize("seed", range(3))
def test_15_incremental_state_is_the_state_of_all_rows(seed: int, tmp_path: Path) -> None:
    puzzles = [p for p in library.puzzles() if p.question is not None][:8]
    trainer = Trainer(puzzles, progress=Progress(tmp_path / "progress.sqlite3"))
    rng = random.Random(seed)
    for step in range(60):
        puzzle = trainer.next()
        choice = rng.random()
        if choice < 0.05:
            trainer.reset()
        elif choice < 0.15:
            trainer.progress.record_hint(puzzle.id)
        elif choice < 0.2:
            trainer.progress.record_reveal(puzzle.id)
        else:
            trainer.record(puzzle.id, correct=rng.random() < 0.6, hints=rng.choice((0, 0, 1)))
        fresh = Trainer(puzzles, progress=trainer.progress)
        assert trainer.summary() == fresh.summary(), step
        assert trainer.next().id == fresh.next().id and trainer.due() == fresh.due(), step
        assert trainer.summary().solved == trainer.progress.solved(p.id for p in puzzles)


def _link_to_fifo(path: Path) -> None:
    os.mkfifo(path.with_name("f"))
    path.symlink_to(path.with_name("f"))


WRITING_STORES = [
    ("fifo", lambda p: os.mkfifo(p)),
    ("link to a device", lambda p: p.symlink_to("/dev/null")),
    ("link to a fifo", lambda p: _link_to_fifo(p)),
]  # (a folder given to Progress is a data folder, by design: the store is made inside it)


@pytest.mark.parametrize("name", ["progress.sqlite3", "progress.jsonl"])
@pytest.mark.parametrize("case", WRITING_STORES, ids=[c[0] for c in WRITING_STORES])
def test_3_9_a_store_that_is_not_a_file_is_never_opened(case: tuple[str, object], name: str, tmp_path: Path) -> None:
    from tests.test_robustness import deadline

    case[1](tmp_path / name)  # type: ignore[operator]
    listing, dev = sorted(os.listdir(tmp_path)), sorted(os.listdir("/dev"))
    with deadline(20), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        progress = Progress(tmp_path / name)
        progress.record_attempt("a", correct=True)
    said = [str(w.message) for w in caught if issubclass(w.category, ProgressWarning)]
    assert len(said) == 1 and "not a file" in said[0], said
    assert [r.puzzle_id for r in progress.attempts()] == ["a"]  # kept in memory
    assert sorted(os.listdir(tmp_path)) == listing and sorted(os.listdir("/dev")) == dev


def test_15_trainer_records_are_the_progress_records(tmp_path: Path) -> None:
    puzzles = [p for p in library.puzzles() if p.question is not None][:5]
    trainer = Trainer(puzzles, progress=Progress(tmp_path / "progress.sqlite3"))
    rng = random.Random(5)
    for step in range(25):
        puzzle = trainer.next()
        if step == 12:
            trainer.reset()
        elif rng.random() < 0.2:
            trainer.progress.record_hint(puzzle.id)
        else:
            trainer.record(puzzle.id, correct=rng.random() < 0.5, hints=rng.choice((0, 1)))
        assert trainer.records() == trainer.progress.records(), step


def test_15_the_scale_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """``bench_trainer.py --scale N`` times next()/summary() over SQLite and JSON lines (reported, not asserted)."""
    from tests.scripts import load_script

    bench = load_script(Path(__file__).resolve().parent.parent / "benchmarks" / "bench_trainer.py", "bench_trainer")
    timings = bench.scale(300, answers=2)
    assert set(timings) == {"sqlite", "jsonl"}
    for row in timings.values():
        assert set(row) == {"cold next", "next", "summary"} and all(ms >= 0 for ms in row.values())
    assert bench.main(["--scale", "200"]) == 0 and "200 attempts" in capsys.readouterr().out
