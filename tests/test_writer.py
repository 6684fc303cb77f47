"""Every file the program writes goes through one writer (battleline_lab.formats.files), with one set of rules.

Table-driven: each command that writes files x each thing planted where its output goes (an existing
file, one of its own inputs, a symbolic link, a dangling link, the empty path, ``/dev/full``, a
folder) must end in exit 2 with a located ``FILE:LINE:COL: error:`` line worded as an *output*, and
the planted bytes must be exactly what they were.  The report's side file (``battleline-report.js``)
and a class folder's stores get the same rules.  Finally every command is run under an audit hook
that sees each file opened for writing and each rename: all of them come from the writer.
"""

from __future__ import annotations

import json
import os
import re
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from battleline_lab.training.class_report import SORT_SCRIPT, SORT_SCRIPT_NAME
from tests.test_robustness import LOCATED, run

posix_only = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full and symbolic links")

PUZZLE = (
    "id: base\ntitle: {en: Base}\n"
    "flags: {5: {you: [r3, r4, r5], opponent: [b8]}, 2: {you: [b7], opponent: [b10, g2]}}\n"
    "question: {kind: claim, flag: 5}\nanswer: true\n"
)
PLANTED = b"planted: a learner's own bytes\n"


def _export(learner: str = "ann", rating: object = 1500.0) -> str:
    return json.dumps(
        {
            "format": "battleline-lab-progress",
            "learner": learner,
            "attempts": [{"learner": learner, "puzzle_id": "p", "kind": "answer", "correct": True, "hints": 0}],
            "first_try": 1,
            "rated": 1,
            "rating": {"rating": rating, "rd": 200.0},
            "missed_rules": {},
            "themes": {},
            "puzzles": {"p": {"level": 2}},
        },
        indent=1,
    )


def _record(folder: Path) -> Path:
    from battleline_lab.core.position import ClaimTiming
    from battleline_lab.game import Options, RandomBot, play_game
    from battleline_lab.game.record import dump_record

    state = play_game(RandomBot(17), RandomBot(117), seed=17, options=Options(claim_timing=ClaimTiming.AFTER_PLAY))
    path = folder / "game.yaml"
    path.write_text(dump_record(state), encoding="utf-8")
    return path


def _class_folder(folder: Path) -> Path:
    """A class folder with one learner's JSON-lines store (as JupyterLite keeps it)."""
    from battleline_lab.quiz import library
    from battleline_lab.training.progress import JSONL_FILE, Progress
    from battleline_lab.training.trainer import PuzzleSession

    classroom = folder / "class"
    progress = Progress(classroom / "ann" / JSONL_FILE)
    puzzle = library.get("seed-blue-seven-in-your-hand")
    PuzzleSession(puzzle, progress=progress, source="gym").answer(puzzle.solve())
    return classroom


# -- the commands ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """A command that writes: ``setup(folder)`` makes its inputs and returns (argv with ``{out}``, inputs).

    ``into_folder``: ``{out}`` is a folder the outputs are written into (their names found by a clean run).
    """

    name: str
    setup: Callable[[Path], tuple[list[str], list[Path]]]
    into_folder: bool = False


def _show(folder: Path) -> tuple[list[str], list[Path]]:
    puzzle = folder / "p.yaml"
    puzzle.write_text(PUZZLE, encoding="utf-8")
    return ["show", str(puzzle), "-o", "{out}"], [puzzle]


def _report(folder: Path) -> tuple[list[str], list[Path]]:
    export = folder / "e.json"
    export.write_text(_export(), encoding="utf-8")
    return ["report", str(export), "--out", "{out}"], [export]


def _report_class(folder: Path) -> tuple[list[str], list[Path]]:
    from battleline_lab.training.progress import JSONL_FILE

    classroom = _class_folder(folder)
    return ["report", str(classroom), "--out", "{out}"], [classroom / "ann" / JSONL_FILE]


def _worksheet(folder: Path) -> tuple[list[str], list[Path]]:
    puzzle = folder / "p.yaml"
    puzzle.write_text(PUZZLE, encoding="utf-8")
    return ["worksheet", str(puzzle), "--out", "{out}", "--answers", "separate"], [puzzle]


def _generate(folder: Path) -> tuple[list[str], list[Path]]:
    avoid = folder / "avoid"
    avoid.mkdir()
    (avoid / "old.yaml").write_text(PUZZLE, encoding="utf-8")
    argv = ["generate", "--theme", "fog", "--count", "1", "--seed", "4", "--avoid", str(avoid), "--out", "{out}"]
    return argv, [avoid / "old.yaml"]


def _review(folder: Path) -> tuple[list[str], list[Path]]:
    record = _record(folder)
    return ["review", str(record), "--out", "{out}"], [record]


def _match(folder: Path) -> tuple[list[str], list[Path]]:
    return ["match", "random", "random", "--games", "1", "--seed", "3", "--records", "{out}"], []


COMMANDS = [
    Command("show", _show),
    Command("report", _report),
    Command("report-class-folder", _report_class),
    Command("worksheet", _worksheet),
    Command("generate", _generate, into_folder=True),
    Command("review", _review, into_folder=True),
    Command("match-records", _match, into_folder=True),
]


def _argv(template: list[str], out: str, force: bool) -> list[str]:
    return [out if arg == "{out}" else arg for arg in template] + (["--force"] if force else [])


def _output_names(command: Command, tmp_path: Path) -> list[str]:
    """The names a folder command writes (a clean run into a scratch folder)."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    template, _ = command.setup(scratch)
    status, _, err = run(_argv(template, str(scratch / "outs"), False))
    assert status == 0, err
    names = sorted(os.listdir(scratch / "outs"))
    assert names
    return names


# -- what is planted where the output goes ---------------------------------------------------------


@dataclass(frozen=True)
class Plant:
    """``plant(target, inputs)`` puts something at ``target`` and returns the files whose bytes must not change."""

    name: str
    plant: Callable[[Path, list[Path]], list[Path]]
    force: bool
    # the words the refusal must use (a regular expression)
    says: str


def _planted_file(target: Path, inputs: list[Path]) -> list[Path]:
    target.write_bytes(PLANTED)
    return [target]


def _symlink(target: Path, inputs: list[Path]) -> list[Path]:
    real = target.parent / ("real-" + target.name)
    real.write_bytes(PLANTED)
    target.symlink_to(real)
    return [real]


def _dangling(target: Path, inputs: list[Path]) -> list[Path]:
    target.symlink_to(target.parent / "nowhere-yet")
    return []


def _folder(target: Path, inputs: list[Path]) -> list[Path]:
    target.mkdir()
    (target / "inside.txt").write_bytes(PLANTED)
    return [target / "inside.txt"]


PLANTS = [
    Plant("existing-file", _planted_file, False, r"exists"),
    Plant("symlink-even-with-force", _symlink, True, r"symbolic link"),
    Plant("dangling-symlink-with-force", _dangling, True, r"symbolic link"),
    Plant("folder-with-force", _folder, True, r"folder"),
]
SPECIAL_OUTPUTS = [  # (id, the output as given, the words of the refusal)
    ("empty", "", r"output path is empty"),
    ("dev-full", "/dev/full", r"device: an output"),
]


def _assert_refused(status: int, err: str, says: str) -> None:
    lines = err.splitlines()
    assert status == 2, err
    assert lines and all(LOCATED.match(line) for line in lines), err
    assert re.search(says, err), err
    assert "only regular files are read" not in err and "Traceback" not in err, err


def _snapshot(paths: list[Path]) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in paths}


# a folder is what a folder command writes into: its wrong kind is a file (test_a_file_given_as_the_output_folder)
PLANTED_CASES = [(c, p) for c in COMMANDS for p in PLANTS if not (c.into_folder and p.name.startswith("folder"))]


@posix_only
@pytest.mark.parametrize(("command", "plant"), PLANTED_CASES, ids=[f"{c.name}-{p.name}" for c, p in PLANTED_CASES])
def test_a_planted_output_is_refused_and_left_as_it_was(command: Command, plant: Plant, tmp_path: Path) -> None:
    template, inputs = command.setup(tmp_path)
    kept = _snapshot(inputs)
    if command.into_folder:
        names = _output_names(command, tmp_path)
        out = tmp_path / "outs"
        out.mkdir()
        guarded = plant.plant(out / names[0], inputs)
    else:
        out = tmp_path / "out.html"
        guarded = plant.plant(out, inputs)
    before = _snapshot(guarded)
    status, stdout, err = run(_argv(template, str(out), plant.force))
    _assert_refused(status, err, plant.says)
    assert _snapshot(guarded) == before and _snapshot(inputs) == kept
    assert not (tmp_path / "nowhere-yet").exists() and not (out.parent / "nowhere-yet").exists()
    if not command.into_folder:
        assert not (tmp_path / SORT_SCRIPT_NAME).exists()  # the report's script is not written alone either


READERS = [c for c in COMMANDS if c.name != "match-records"]  # match reads no file


@pytest.mark.parametrize("command", READERS, ids=[c.name for c in READERS])
def test_an_input_of_the_same_command_is_never_an_output(command: Command, tmp_path: Path) -> None:
    template, inputs = command.setup(tmp_path)
    assert inputs
    kept = _snapshot(inputs)
    if command.into_folder:  # the input lies in the output folder under an output's name
        names = _output_names(command, tmp_path)
        out = tmp_path / "outs"
        out.mkdir()
        os.link(inputs[0], out / names[0])
    else:
        out = inputs[0]
    status, _, err = run(_argv(template, str(out), True))
    _assert_refused(status, err, r"input")
    assert _snapshot(inputs) == kept


@posix_only
@pytest.mark.parametrize("special", SPECIAL_OUTPUTS, ids=[s[0] for s in SPECIAL_OUTPUTS])
@pytest.mark.parametrize("command", COMMANDS, ids=[c.name for c in COMMANDS])
def test_an_output_that_is_no_file_is_refused_in_output_words(
    command: Command, special: tuple[str, str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, given, says = special
    template, inputs = command.setup(tmp_path)
    kept = _snapshot(inputs)
    here = tmp_path / "cwd"
    here.mkdir()
    monkeypatch.chdir(here)  # the empty path must not become "the current folder" or a default name in it
    status, _, err = run(_argv(template, given, True))
    if command.into_folder and given == "/dev/full":
        says = r"device"
    _assert_refused(status, err, says)
    assert os.listdir(here) == [] and _snapshot(inputs) == kept


@pytest.mark.parametrize("command", [c for c in COMMANDS if c.into_folder], ids=lambda c: c.name)
def test_a_file_given_as_the_output_folder_is_refused(command: Command, tmp_path: Path) -> None:
    template, inputs = command.setup(tmp_path)
    out = tmp_path / "a-file"
    out.write_bytes(PLANTED)
    status, _, err = run(_argv(template, str(out), True))
    _assert_refused(status, err, r"file|folder")
    assert out.read_bytes() == PLANTED


def test_show_o_empty_writes_no_default_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "p.yaml").write_text(PUZZLE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, _, err = run(["show", "p.yaml", "-o", ""])
    assert status == 2 and err.startswith("'':1:1: error: the output path is empty"), err
    assert sorted(os.listdir(tmp_path)) == ["p.yaml"]


# -- the report's page script and a class folder's stores ------------------------------------------


def _report_setup(tmp_path: Path) -> tuple[Path, Path, Path]:
    export = tmp_path / "e.json"
    export.write_text(_export(), encoding="utf-8")
    return export, tmp_path / "r.html", tmp_path / SORT_SCRIPT_NAME


@posix_only
@pytest.mark.parametrize(
    "case",
    ["existing-script", "script-symlink-with-force", "script-dangling-symlink-with-force", "script-is-a-folder"],
)
def test_the_report_script_obeys_the_same_rules(case: str, tmp_path: Path) -> None:
    export, page, script = _report_setup(tmp_path)
    real = tmp_path / "real.js"
    force: list[str] = ["--force"]
    if case == "existing-script":
        script.write_bytes(PLANTED)
        force = []
        guarded = [script]
    elif case == "script-symlink-with-force":
        real.write_bytes(PLANTED)
        script.symlink_to(real)
        guarded = [real]
    elif case == "script-dangling-symlink-with-force":
        script.symlink_to(real)
        guarded = []
    else:
        script.mkdir()
        guarded = []
    before = _snapshot(guarded)
    status, _, err = run(["report", str(export), "--out", str(page), *force])
    _assert_refused(status, err, r"exists|symbolic link|folder")
    assert SORT_SCRIPT_NAME in err and _snapshot(guarded) == before
    assert not page.exists()  # the page is never written without its script
    if case == "script-dangling-symlink-with-force":
        assert not real.exists()


def test_an_export_named_like_the_script_is_an_input(tmp_path: Path) -> None:
    export = tmp_path / SORT_SCRIPT_NAME
    export.write_text(_export(), encoding="utf-8")
    before = export.read_bytes()
    status, _, err = run(["report", str(export), "--out", str(tmp_path / "r.html"), "--force"])
    _assert_refused(status, err, r"input")
    assert export.read_bytes() == before and not (tmp_path / "r.html").exists()


def test_an_identical_script_is_left_alone_and_the_page_written(tmp_path: Path) -> None:
    export, page, script = _report_setup(tmp_path)
    script.write_text(SORT_SCRIPT, encoding="utf-8")
    stamp = script.stat().st_ino
    status, _, err = run(["report", str(export), "--out", str(page)])
    assert status == 0, err
    assert page.is_file() and script.stat().st_ino == stamp and script.read_text(encoding="utf-8") == SORT_SCRIPT


@pytest.mark.parametrize("store", ["progress.jsonl", "a-journal-beside-it"])
def test_a_class_folder_store_is_an_input_even_with_force(store: str, tmp_path: Path) -> None:
    from battleline_lab.training.progress import JSONL_FILE

    classroom = _class_folder(tmp_path)
    target = classroom / "ann" / (JSONL_FILE if store == "progress.jsonl" else "progress.sqlite3-journal")
    if not target.exists():
        target.write_bytes(PLANTED)
    before = target.read_bytes()
    status, _, err = run(["report", str(classroom), "--out", str(target), "--force"])
    _assert_refused(status, err, r"input")
    assert target.read_bytes() == before


# -- numbers too large to be honest ----------------------------------------------------------------

HUGE = [
    ("rating-450-digits", "9" * 450),
    ("rating-minus-450-digits", "-" + "9" * 450),
    ("rating-past-the-bound", "10000000000001"),
    ("rating-1e400", "1e400"),
    ("rating-1e13-float", "1.5e13"),
]


@pytest.mark.parametrize("number", HUGE, ids=[h[0] for h in HUGE])
def test_report_refuses_a_number_too_large_to_be_honest(number: tuple[str, str], tmp_path: Path) -> None:
    text = _export(rating=424242.5).replace("424242.5", number[1])
    (tmp_path / "e.json").write_text(text, encoding="utf-8")
    status, _, err = run(["report", str(tmp_path / "e.json"), "--out", str(tmp_path / "r.html")])
    line = text[: text.index(number[1])].count("\n") + 1
    col = text.index(number[1]) - text.rfind("\n", 0, text.index(number[1]))
    assert status == 2 and len(err.splitlines()) == 1, err
    assert re.match(rf".*e\.json:{line}:{col}: error: .*past the bound", err), err
    assert not (tmp_path / "r.html").exists()


def test_a_long_digit_run_inside_a_text_is_not_a_number(tmp_path: Path) -> None:
    text = _export(learner="ann" + "9" * 450)
    (tmp_path / "e.json").write_text(text, encoding="utf-8")
    status, _, err = run(["report", str(tmp_path / "e.json"), "--out", str(tmp_path / "r.html")])
    assert status == 0, err


# -- nothing writes around the writer ---------------------------------------------------------------

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def _writer_frame(frame: types.FrameType | None) -> bool:
    """Whether the call comes from the writer (a frame of battleline_lab/formats/files.py)."""
    while frame is not None:
        if Path(frame.f_code.co_filename).as_posix().endswith("battleline_lab/formats/files.py"):
            return True
        frame = frame.f_back
    return False


class _Watch:
    """Each file the program opens for writing or renames while on, and whether the writer did it."""

    def __init__(self) -> None:
        self.on = False
        self.seen: list[tuple[str, str, bool]] = []

    def __call__(self, event: str, args: tuple[object, ...]) -> None:
        if not self.on:
            return
        if event == "open":
            path, mode, flags = args
            writes = isinstance(mode, str) and any(c in mode for c in "wax+")
            writes = writes or (mode is None and isinstance(flags, int) and bool(flags & _WRITE_FLAGS))
            if writes and isinstance(path, (str, bytes, os.PathLike)):
                self.seen.append(("open", os.fsdecode(path), _writer_frame(sys._getframe(1))))
        elif event in ("os.rename", "os.link", "os.symlink", "shutil.copyfile"):
            self.seen.append((event, os.fsdecode(args[1]), _writer_frame(sys._getframe(1))))  # type: ignore[arg-type]


_WATCH = _Watch()


@pytest.fixture
def watch() -> Iterator[_Watch]:
    if not getattr(sys, "_battleline_writer_watch", False):
        sys.addaudithook(_WATCH)  # a hook cannot be removed: one, switched on for these tests only
        sys._battleline_writer_watch = True  # type: ignore[attr-defined]
    _WATCH.seen = []
    _WATCH.on = True
    try:
        yield _WATCH
    finally:
        _WATCH.on = False


@pytest.mark.parametrize("command", COMMANDS, ids=[c.name for c in COMMANDS])
def test_every_command_writes_only_through_the_writer(command: Command, tmp_path: Path, watch: _Watch) -> None:
    template, _ = command.setup(tmp_path)
    out = tmp_path / ("outs" if command.into_folder else "out.html")
    watch.seen = []
    status, _, err = run(_argv(template, str(out), False))
    assert status == 0, err
    mine = [(event, path, ok) for event, path, ok in watch.seen if Path(path).is_relative_to(tmp_path)]
    assert mine, "the command wrote nothing the watch saw"
    assert all(ok for _, _, ok in mine), [m for m in mine if not m[2]]


def test_lessons_writes_only_through_the_writer(tmp_path: Path, watch: _Watch) -> None:
    status, _, err = run(["lessons", str(tmp_path / "course")])
    assert status == 0, err
    mine = [(event, path, ok) for event, path, ok in watch.seen if Path(path).is_relative_to(tmp_path)]
    assert mine and all(ok for _, _, ok in mine), [m for m in mine if not m[2]]


@posix_only
@pytest.mark.parametrize("given", ["", "/dev/full"], ids=["empty", "dev-full"])
def test_lessons_refuses_an_output_folder_that_is_no_folder(
    given: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, _, err = run(["lessons", given])
    assert status == 2 and all(LOCATED.match(line) for line in err.splitlines()), err
    assert os.listdir(tmp_path) == []


@posix_only
def test_lessons_never_replaces_through_a_link(tmp_path: Path) -> None:
    from battleline_lab.course import course_files
    from battleline_lab.quiz.library import lessons_root

    relative = course_files(lessons_root())[0]
    folder = tmp_path / "course"
    (folder / relative).parent.mkdir(parents=True)
    real = tmp_path / "real.ipynb"
    real.write_bytes(PLANTED)
    (folder / relative).symlink_to(real)
    status, _, err = run(["lessons", str(folder), "--force"])
    assert status == 2 and all(LOCATED.match(line) for line in err.splitlines()), err
    assert real.read_bytes() == PLANTED and (folder / relative).is_symlink()


def test_the_watch_sees_a_write_around_the_writer(tmp_path: Path, watch: _Watch) -> None:
    with open(tmp_path / "around.txt", "w", encoding="utf-8") as file:  # what a command must never do
        file.write("x")
    fd = os.open(tmp_path / "raw.txt", os.O_WRONLY | os.O_CREAT, 0o600)
    os.close(fd)
    os.replace(tmp_path / "raw.txt", tmp_path / "moved.txt")
    assert [(event, Path(path).name, ok) for event, path, ok in watch.seen] == [
        ("open", "around.txt", False),
        ("open", "raw.txt", False),
        ("os.rename", "moved.txt", False),
    ]


EDITOR_TARGETS = ["symlink", "dangling-symlink", "folder", "empty", "dev-full"]


@posix_only
@pytest.mark.parametrize("case", EDITOR_TARGETS)
def test_the_editor_saves_through_the_writer_and_is_refused_the_same_way(case: str, tmp_path: Path) -> None:
    from battleline_lab.authoring.editor import EditorError, EditorSession

    source = tmp_path / "p.yaml"
    source.write_text(PUZZLE, encoding="utf-8")
    session = EditorSession.open(source)
    session.set_id("a-copy")  # a copy under its own id: the only refusal left is the writer's
    target: str | Path = tmp_path / "out.yaml"
    guarded: list[Path] = []
    code = "not_output"
    if case == "symlink":
        guarded = _symlink(tmp_path / "out.yaml", [])
        code = "symlink"
    elif case == "dangling-symlink":
        _dangling(tmp_path / "out.yaml", [])
        code = "symlink"
    elif case == "folder":
        guarded = _folder(tmp_path / "out.yaml", [])
    elif case == "empty":
        target = ""
    else:
        target = "/dev/full"
    before = _snapshot(guarded)
    with pytest.raises(EditorError) as info:
        session.save(target, force=True)
    assert info.value.key == f"editor.error.{code}" and _snapshot(guarded) == before
    assert not (tmp_path / "nowhere-yet").exists()
