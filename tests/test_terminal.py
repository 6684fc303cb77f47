"""What reaches the terminal: one sanitiser for every printed line, and outputs that cannot be written.

- Hostile file names (OSC, ``ESC[2J``, U+009B, U+202E, other C1 and bidi characters) and hostile
  stored rows never reach the terminal raw, whatever the command (``odds``, ``lessons``,
  ``progress export`` and every command that echoes a name); ``--json`` output stays valid JSON
  that reads back to the very same text.
- A standard output that cannot be written (``/dev/full``) ends every command with exit 2 and
  one located line, never "internal error" (exit 3); a closed pipe ends quietly.
- Ctrl-C between the entry point's import and its call, or after the command has returned,
  ends with one line and 130; importing the package loads nothing the start-up does not need.
- ``replay REC --at N`` writes a puzzle that ``check`` accepts whatever the record's file is called.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from battleline_lab.training.progress import Attempt
from tests.test_robustness import run

ROOT = Path(__file__).resolve().parents[1]

PUZZLE = (
    "id: base\ntitle: {en: Base, zh: 基}\n"
    "flags: {5: {you: [r3, r4, r5], opponent: [b8]}, 2: {you: [b7], opponent: [b10, g2]}}\n"
    "question: {kind: claim, flag: 5}\nanswer: true\n"
)
RECORD = "seed: 1\noptions: {first: south}\nplayers: {south: ann, north: bo}\nmoves:\n- south: play r9 3; draw troops\n"

#: Names a hostile file may have, each a way to drive or reorder a terminal.
HOSTILE = {
    "osc": "t\x1b]0;owned\x07",
    "csi-clear": "c\x1b[2Jx",
    "csi-c1": "c1\x9b2J",
    "rlo": "bidi\u202eyaml",
    "isolate": "iso\u2066x",
    "c1-nel": "nel\x85x",
    "c1-osc": "osc\x9d0;t\x9c",
}

#: Characters that must never be printed raw (newline and tab are the only controls allowed).
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _assert_clean(argv: list[str], out: str, err: str) -> None:
    for line in (out + err).splitlines():
        assert not RAW.search(line), (argv, line)


def _store_with(folder: Path, text: str) -> Path:
    """A JSON-lines store whose one row holds ``text`` in its puzzle id, answer and source."""
    folder.mkdir(parents=True, exist_ok=True)
    row = Attempt(learner="me", puzzle_id=f"p-{text}", answer=json.dumps(text), source=text, correct=True, at=1.0)
    line = json.dumps(asdict(row), ensure_ascii=False)
    (folder / "progress.jsonl").write_text(line + "\n", encoding="utf-8")
    return folder


# -- the one sanitiser ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_sanitiser_escapes_visibly_and_as_json(name: str) -> None:
    from battleline_lab.cli.console import terminal_text

    shown = terminal_text(name)
    assert not RAW.search(shown) and shown != name
    assert json.loads(f'"{shown}"') == name  # the escape is a JSON string escape: it reads back


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_odds_lessons_and_echoing_commands_print_no_raw_name(name: str, tmp_path: Path) -> None:
    puzzle = tmp_path / f"{name}.yaml"
    puzzle.write_text(PUZZLE, encoding="utf-8")
    record = tmp_path / f"{name}.rec.yaml"
    record.write_text(RECORD, encoding="utf-8")
    blocker = tmp_path / f"{name}-file"
    blocker.write_text("x", encoding="utf-8")
    calls = [
        ["odds", str(puzzle)],
        ["odds", str(puzzle), "--flag", "5"],
        ["odds", str(tmp_path / f"{name}.missing")],
        ["lessons", str(tmp_path / f"{name}-lessons")],
        ["lessons", str(blocker)],
        ["check", str(puzzle)],
        ["explain", str(puzzle)],
        ["claims", str(puzzle)],
        ["replay", str(record)],
        ["review", str(record)],
        ["progress", "export", "--data", str(blocker)],
    ]
    for argv in calls:
        status, out, err = run(argv)
        assert status in (0, 1, 2), (argv, status, err)
        _assert_clean(argv, out, err)


FORGED = "n\nfake.yaml:1:1: error: forged"


@pytest.mark.parametrize("argv", [["odds"], ["odds", "--flag", "5"], ["explain"], ["claims"]], ids=" ".join)
def test_a_newline_in_a_name_never_forges_a_line(argv: list[str], tmp_path: Path) -> None:
    puzzle = tmp_path / f"{FORGED}.yaml"
    puzzle.write_text(PUZZLE, encoding="utf-8")
    status, out, err = run([*argv, str(puzzle)])
    assert status == 0, err
    assert not any(line.startswith("fake.yaml") for line in (out + err).splitlines()), out


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("name", [*HOSTILE.values(), "new\nline", "it's"], ids=[*HOSTILE.keys(), "newline", "quote"])
def test_the_lessons_hint_is_printed_safe_and_reads_back_in_the_shell(name: str, tmp_path: Path) -> None:
    folder = str(tmp_path / f"{name}-lessons")
    status, out, err = run(["lessons", folder])
    assert status == 0, err
    _assert_clean(["lessons"], out, err)
    hint = re.search(r"battleline-lab lab (\S+) \(", out)
    assert hint is not None, out
    env = dict(os.environ, LC_ALL="C.UTF-8")
    echoed = subprocess.run(["bash", "-c", f"printf %s {hint.group(1)}"], capture_output=True, env=env, check=True)
    assert echoed.stdout.decode("utf-8", "surrogateescape") == folder


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_progress_export_prints_stored_rows_escaped_as_valid_json(name: str, tmp_path: Path) -> None:
    data = _store_with(tmp_path / "data", name)
    status, out, err = run(["progress", "export", "--data", str(data)])
    _assert_clean(["progress", "export"], out, err)
    assert status in (0, 2), err
    if status == 0:  # every row that is exported reads back exactly as stored
        document = json.loads(out)
        for row in document["attempts"]:
            assert row["puzzle_id"] == f"p-{name}" and row["source"] == name


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_json_outputs_stay_valid_and_exact(name: str, tmp_path: Path) -> None:
    puzzle = tmp_path / f"{name}.yaml"
    puzzle.write_text(PUZZLE, encoding="utf-8")
    for argv in (["claims", str(puzzle), "--json"], ["odds", str(puzzle), "--json"]):
        status, out, err = run(argv)
        assert status == 0, (argv, err)
        _assert_clean(argv, out, err)
        assert json.loads(out.splitlines()[0])["file"] == str(puzzle)


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_replay_at_writes_a_puzzle_check_accepts(name: str, tmp_path: Path) -> None:
    record = tmp_path / f"{name}.yaml"
    record.write_text(RECORD, encoding="utf-8")
    status, out, err = run(["replay", str(record), "--at", "2"])
    assert status == 0, err
    puzzle = tmp_path / "turn.yaml"
    puzzle.write_text(out, encoding="utf-8")
    status, out, err = run(["check", str(puzzle)])
    assert status == 0, (out, err)


# -- outputs that cannot be written -----------------------------------------------------------------


def _command(argv: list[str], *, stdout: int, stderr: int = subprocess.PIPE, cwd: Path) -> tuple[int, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "battleline_lab", *argv], stdout=stdout, stderr=stderr, env=env, cwd=cwd, timeout=120
    )
    return done.returncode, (done.stderr or b"").decode("utf-8", "replace")


def _family(tmp_path: Path) -> dict[str, list[str]]:
    puzzle = tmp_path / "p.yaml"
    puzzle.write_text(PUZZLE, encoding="utf-8")
    record = tmp_path / "game.yaml"
    record.write_text(RECORD, encoding="utf-8")
    data = _store_with(tmp_path / "data", "plain")
    return {
        "check": ["check", str(puzzle)],
        "explain": ["explain", str(puzzle)],
        "odds": ["odds", str(puzzle)],
        "match": ["match", "random", "random", "--games", "2", "--seed", "1"],
        "replay": ["replay", str(record)],
        "replay-at": ["replay", str(record), "--at", "2"],
        "review": ["review", str(record)],
        "progress-export": ["progress", "export", "--data", str(data)],
        "show-stdout": ["show", str(puzzle), "-o", "-"],
        "claims-json": ["claims", str(puzzle), "--json"],
        "help": ["check", "--help"],
    }


FAMILY = [
    "check",
    "explain",
    "odds",
    "match",
    "replay",
    "replay-at",
    "review",
    "progress-export",
    "show-stdout",
    "claims-json",
    "help",
]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("command", FAMILY)
def test_a_full_standard_output_is_a_located_exit_2(command: str, tmp_path: Path) -> None:
    argv = _family(tmp_path)[command]
    with open("/dev/full", "wb") as full:
        status, err = _command(argv, stdout=full.fileno(), cwd=tmp_path)
    assert status == 2, (argv, status, err)
    assert "Traceback" not in err and "internal error" not in err and "Exception ignored" not in err, err
    assert err.strip().splitlines()[-1] == (
        "battleline-lab: error: cannot write to standard output: No space left on device"
    ), err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("command", ["check", "match", "progress-export"])
def test_full_stdout_and_stderr_still_end_with_exit_2(command: str, tmp_path: Path) -> None:
    argv = _family(tmp_path)[command]
    with open("/dev/full", "wb") as full:
        status, _ = _command(argv, stdout=full.fileno(), stderr=full.fileno(), cwd=tmp_path)
    assert status == 2, argv


@pytest.mark.parametrize("command", FAMILY)
def test_a_closed_pipe_ends_quietly(command: str, tmp_path: Path) -> None:
    argv = _family(tmp_path)[command]
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line: every write meets a closed pipe
    try:
        status, err = _command(argv, stdout=write, cwd=tmp_path)
    finally:
        os.close(write)
    assert status == 0, (argv, status, err)
    assert "Traceback" not in err and "Exception ignored" not in err and "Broken pipe" not in err, err


# -- Ctrl-C at start-up -----------------------------------------------------------------------------

#: A copy of the console script that is interrupted at a chosen moment of its start-up, deterministically
#: (the process signals itself; Python runs the handler at the very next instruction).
SCRIPT = """\
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal, even under a job that ignores it
from battleline_lab.entry import main
if {before}:
    os.kill(os.getpid(), signal.SIGINT)  # between the entry point's import and its call
status = main()
if not {before}:
    os.kill(os.getpid(), signal.SIGINT)  # the command is done; the interpreter is about to end
    signal.pause() if hasattr(signal, "pause") else None
sys.exit(status)
"""


@pytest.mark.parametrize("before", [True, False], ids=["before-main", "after-main"])
def test_ctrl_c_around_main_ends_with_one_line(before: bool, tmp_path: Path) -> None:
    script = tmp_path / "battleline-lab"  # named as the console script is
    script.write_text(SCRIPT.format(before=before), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, str(script), "--version"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
    )
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert done.returncode == 130, (done.returncode, done.stderr)
    assert done.stderr.strip().splitlines() == ["battleline-lab: interrupted"], done.stderr


def test_the_entry_point_loads_only_what_start_up_needs() -> None:
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); before = set(sys.modules); import battleline_lab.entry; "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, check=True)
    loaded = set(out.stdout.split())
    ours = {"battleline_lab", "battleline_lab.entry", "battleline_lab.exitcodes"}
    assert ours <= loaded
    heavy = {"typing", "importlib.abc", "importlib.resources", "tempfile", "warnings"} & loaded
    assert not heavy, sorted(heavy)


def test_an_interrupt_wrapped_by_class_creation_is_still_an_interrupt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while a module defines a dataclass reaches the command as ``RuntimeError`` (from ``__set_name__``)."""
    from battleline_lab.cli import claims

    def interrupted_while_importing(args: object) -> int:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as inner:
            raise RuntimeError("Error calling __set_name__ on 'Field' instance 'flags' in 'Position'") from inner

    def register(subparsers: Any, lang: str = "en") -> None:
        claims.register(subparsers, lang=lang)
        subparsers.choices["claims"].set_defaults(func=interrupted_while_importing)

    monkeypatch.setattr("battleline_lab.cli.COMMANDS", [("claims", register)])
    status, out, err = run(["claims", "p.yaml"])
    assert status == 130, err
    assert err.strip().splitlines() == ["battleline-lab: interrupted"], err
