"""The ``battleline-lab`` CLI: the ``claims --json`` contract, explain, check, errors and exit codes.

Golden files for ``explain`` live in ``tests/golden/cli``; after a deliberate
change to the wording, regenerate them with ``./dev regen`` and review the diff.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from battleline_lab import cli
from battleline_lab.cli import main
from battleline_lab.quiz.loader import iter_puzzle_files

ROOT = Path(__file__).parent.parent
PUZZLES = ROOT / "puzzles"
SEEDS = PUZZLES / "seed-examples"
BAD = ROOT / "tests" / "data" / "bad"
GOLDEN = ROOT / "tests" / "golden" / "cli"
DIAGNOSTIC = re.compile(r"^\S.*:\d+:\d+: error: \S.*$")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    """File names in outputs are as given on the command line: run from the repository root."""
    monkeypatch.chdir(ROOT)


# -- claims ---------------------------------------------------------------------------------------


def test_claims_json_contract_one_object_per_line_per_file(capsys: pytest.CaptureFixture[str]) -> None:
    files = [
        "puzzles/seed-examples/1-wedge-against-two-sixes.yaml",
        "puzzles/seed-examples/3-blue-seven-in-your-hand.yaml",
        "puzzles/claimable/which-flags-are-yours.yaml",
        "puzzles/claimable/their-turn-to-claim.yaml",
    ]
    status, out, err = run(capsys, "claims", *files, "--json")
    assert status == 0 and err == ""
    assert out.splitlines() == [
        '{"file": "puzzles/seed-examples/1-wedge-against-two-sixes.yaml", "you": [5], "opponent": []}',
        '{"file": "puzzles/seed-examples/3-blue-seven-in-your-hand.yaml", "you": [], "opponent": []}',
        '{"file": "puzzles/claimable/which-flags-are-yours.yaml", "you": [1, 7], "opponent": []}',
        '{"file": "puzzles/claimable/their-turn-to-claim.yaml", "you": [], "opponent": [2]}',
    ]


def test_claims_json_is_whoever_s_turn_it_is(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # R12 condition for both sides, whoever's turn it is: red 8-9-10 can at best be tied (R11), and so can green
    path = tmp_path / "both.yaml"
    path.write_text("turn: you\nflags:\n  2: {you: [r8, r9, r10]}\n  7: {opponent: [g8, g9, g10], you: [b2]}\n")
    status, out, _ = run(capsys, "claims", "--json", str(path))
    assert status == 0
    assert json.loads(out) == {"file": str(path), "you": [2], "opponent": [7]}


def test_claims_with_a_bad_file_reports_it_and_goes_on(capsys: pytest.CaptureFixture[str]) -> None:
    good = "puzzles/seed-examples/2-blue-eight-blocked.yaml"
    bad = "tests/data/bad/unknown-key.yaml"
    status, out, err = run(capsys, "claims", "--json", bad, good)
    assert status == 2
    assert [json.loads(line) for line in out.splitlines()] == [{"file": good, "you": [5], "opponent": []}]
    assert err == "tests/data/bad/unknown-key.yaml:2:1: error: unknown key 'flgas' (did you mean 'flags'?)\n"


def test_claims_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "claims", "puzzles/claimable/which-flags-are-yours.yaml")
    assert status == 0
    assert out == "puzzles/claimable/which-flags-are-yours.yaml: you can claim 1, 7; the opponent can claim none\n"


# -- explain --------------------------------------------------------------------------------------

GOLDEN_CASES = [
    ("seed-1", ["puzzles/seed-examples/1-wedge-against-two-sixes.yaml"]),
    ("seed-2", ["puzzles/seed-examples/2-blue-eight-blocked.yaml"]),
    ("seed-3", ["puzzles/seed-examples/3-blue-seven-in-your-hand.yaml"]),
    ("seed-4", ["puzzles/seed-examples/4-they-can-only-tie.yaml"]),
    ("seed-5", ["puzzles/seed-examples/5-red-battalion-beats-blue.yaml"]),
    ("fog-mud", ["puzzles/fog-mud/fog-and-mud-sum-of-four.yaml"]),
    ("compare-tie", ["puzzles/formations/equal-phalanxes-first-wins.yaml"]),
    ("compare-fog", ["puzzles/formations/fog-sum-beats-wedge.yaml"]),
    ("formation", ["puzzles/formations/companion-joins-a-battalion.yaml"]),
    ("claimable", ["puzzles/claimable/which-flags-are-yours.yaml"]),
    ("flag-side", ["puzzles/claimable/their-turn-to-claim.yaml", "--flag", "8", "--side", "you"]),
    ("counterexample-wildcard", ["puzzles/wildcards/shield-bearers-top-out-at-three.yaml"]),
]


@pytest.mark.parametrize(("name", "argv"), GOLDEN_CASES, ids=[n for n, _ in GOLDEN_CASES])
def test_explain_golden(capsys: pytest.CaptureFixture[str], name: str, argv: list[str]) -> None:
    status, out, err = run(capsys, "explain", *argv)
    assert status == 0 and err == ""
    golden = GOLDEN / f"explain-{name}.txt"
    assert out == golden.read_text(encoding="utf-8"), f"{golden.name} differs (./dev regen if the change is intended)"


def test_explain_seed_verdicts_are_the_rules_worked_examples(capsys: pytest.CaptureFixture[str]) -> None:
    # RULES.md, worked examples 1-4: claimable, claimable, not claimable, claimable
    verdicts = []
    for n in range(1, 5):
        (path,) = SEEDS.glob(f"{n}-*.yaml")
        _, out, _ = run(capsys, "explain", str(path))
        verdicts.append(out.splitlines()[-1].split(":")[0])
    assert verdicts == ["Yes", "Yes", "No", "Yes"]


def test_explain_every_complete_side_without_a_question(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bare.yaml"
    path.write_text("flags:\n  2: {you: [r8, r9, r10]}\n  7: {opponent: [g8, g9, g10], you: [b2]}\n  9: {you: [y1]}\n")
    status, out, _ = run(capsys, "explain", str(path))
    assert status == 0
    titles = [line for line in out.splitlines() if line.startswith("Flag ")]
    assert titles == ["Flag 2: can you claim it?", "Flag 7: can the opponent claim it?"]


def test_explain_nothing_to_explain(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("flags: {5: {you: [r1]}}\n")
    status, out, _ = run(capsys, "explain", str(path))
    assert status == 0 and "Nothing to explain" in out


def test_explain_bad_flag_number_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "explain", "puzzles/seed-examples/2-blue-eight-blocked.yaml", "--flag", "10")
    assert status == 2
    assert "flags are numbered 1 to 9, not '10'" in err and "Traceback" not in err


def test_explain_bad_file(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "explain", "tests/data/bad/bad-card.yaml")
    assert status == 2 and out == ""
    assert err.splitlines()[0].startswith("tests/data/bad/bad-card.yaml:3:17: error: unknown card 'r11'")


# -- check ----------------------------------------------------------------------------------------


def test_check_every_committed_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    total = len(list(iter_puzzle_files([PUZZLES])))
    status, out, err = run(capsys, "check", "puzzles")
    # no errors; the positions that cannot arise in a game are warnings (tests/test_reachability.py lists them)
    assert all(": warning: this position cannot arise in a game" in line for line in err.splitlines())
    assert out.startswith(f"checked {total} puzzles: {total} ok")
    assert status == 0


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


CLAIM = "flags:\n  5: {you: [r3, r4, r5], opponent: [r6, g6]}\nquestion: {kind: claim, flag: 5}\n"


def test_check_wrong_answer_points_at_the_answer(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _write(tmp_path, "wrong.yaml", "id: wrong\n" + CLAIM + "answer: false\n")
    status, out, err = run(capsys, "check", path)
    assert status == 1
    assert err.startswith(f"{path}:5:9: error: wrong answer: the engine says true, not false")
    assert out == "checked 1 puzzle: 0 ok, 1 failed\n"  # plural forms from the catalogue


def test_check_wrong_claimable_answer(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = "flags:\n  5: {you: [r3, r4, r5], opponent: [r6, g6]}\nquestion: {kind: claimable}\nanswer: [5, 6]\n"
    path = _write(tmp_path, "claimable.yaml", text)
    status, _, err = run(capsys, "check", path)
    assert status == 1
    assert err.startswith(f"{path}:4:9: error: wrong answer: the engine says [5], not [5, 6]")


def test_check_accepts_an_unsorted_claimable_answer(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = "flags:\n  1: {you: [y8, y9, y10]}\n  5: {you: [r3, r4, r5], opponent: [r6, g6]}\n"
    path = _write(tmp_path, "c.yaml", text + "question: {kind: claimable}\nanswer: [5, 1]\n")
    assert run(capsys, "check", path)[0] == 0


def test_check_question_without_answer(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _write(tmp_path, "noanswer.yaml", CLAIM)
    status, _, err = run(capsys, "check", path)
    assert status == 1
    assert err.startswith(f"{path}:3:11: error: the question has no answer to check")


def test_check_repeated_id(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    first = _write(tmp_path, "a.yaml", "id: same\n" + CLAIM + "answer: true\n")
    second = _write(tmp_path, "b.yaml", "id: same\n" + CLAIM + "answer: true\n")
    status, out, err = run(capsys, "check", str(tmp_path))
    assert status == 1  # both files are reported: neither is "the original" (the pytest plugin says the same)
    assert err == (
        f"{first}:1:5: error: id 'same' is already used by {second}\n"
        f"{second}:1:5: error: id 'same' is already used by {first}\n"
    )
    assert out == "checked 2 puzzles: 0 ok, 2 failed\n"


def test_check_missing_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run(capsys, "check", str(tmp_path / "nope.yaml"))
    assert status == 2  # one clear error, no "1 failed" summary for a file that is not there
    assert err == f"{tmp_path / 'nope.yaml'}:1:1: error: no such file or folder\n"
    assert out == ""
    status, out, err = run(capsys, "--lang", "zh", "check", str(tmp_path / "nope"))
    assert (status, err, out) == (2, f"{tmp_path / 'nope'}:1:1: error: 没有这个文件或文件夹\n", "")


def test_check_empty_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "check", str(tmp_path))
    assert status == 2
    assert err == f"{tmp_path}:1:1: error: no puzzle files (*.yaml, *.yml) found here\n"


def test_check_every_bad_fixture_exit_2_compiler_style(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "check", "tests/data/bad")
    total = len(list(BAD.glob("*.yaml")))
    assert status == 2
    assert out == f"checked {total} puzzles: 0 ok, {total} failed\n"
    lines = err.splitlines()
    assert len(lines) >= total
    assert all(DIAGNOSTIC.match(line) and line.startswith("tests/data/bad/") for line in lines), lines
    assert "Traceback" not in err


# -- usage, internal errors, plug-ins --------------------------------------------------------------


def test_help_and_usage(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "claims" in out and "explain" in out and "check" in out
    status, _, err = run(capsys)
    assert status == 2 and "usage:" in err


def test_internal_error_is_one_line_exit_3(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli.claims, "decide_position", broken)
    status, _, err = run(capsys, "claims", "puzzles/seed-examples/2-blue-eight-blocked.yaml")
    assert status == 3
    assert err == "battleline-lab: internal error: RuntimeError: boom\n"


def _hello(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("hello")
    parser.add_argument("--times", type=int, default=1)
    parser.set_defaults(func=lambda args: print("hello " * args.times) or 7)


def test_plug_in_commands(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "COMMANDS", [*cli.COMMANDS, ("hello", _hello), ("hello2", _hello2)])
    status, out, _ = run(capsys, "hello", "--times", "2")
    assert (status, out) == (7, "hello hello \n")
    assert run(capsys, "hello2")[0] == 0


def _hello2(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    subparsers.add_parser("hello2").set_defaults(func=lambda args: 0)


def test_installed_script_in_a_subprocess() -> None:
    script = shutil.which("battleline-lab", path=str(Path(sys.executable).parent))
    assert script is not None, "the console script battleline-lab is not installed next to this Python"
    seed = "puzzles/seed-examples/2-blue-eight-blocked.yaml"
    done = subprocess.run([script, "claims", "--json", seed], capture_output=True, text=True, cwd=ROOT, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, f'{{"file": "{seed}", "you": [5], "opponent": []}}\n', "")
    bad = "tests/data/bad/python-tag.yaml"
    done = subprocess.run([script, "check", bad], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith(f"{bad}:3:6: error: tag '!!python/object/apply:os.system' is not allowed")
    assert "Traceback" not in done.stderr


def test_game_commands_are_wired_in(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--help")
    assert "match" in out and "replay" in out
    status, out, err = run(capsys, "match", "random", "random", "--games", "1", "--seed", "1", "--json")
    assert (status, err) == (0, "")
    assert json.loads(out)["games"] == 1
