"""The pytest plugin: puzzle files as test items, collected only when asked, failures as FILE:LINE:COL lines.

The inner pytest runs have entry-point plugins switched off and load the plugin
with ``-p battleline_lab.pytest_plugin``, so these tests do not depend on
whether the ``pytest11`` entry point is installed yet.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "puzzles" / "seed-examples"

GOOD = """\
id: red-wedge
title: Can you claim flag 5?
flags:
  5: {you: [r3, r4, r5], opponent: [b8]}
  2: {you: [b7], opponent: [b10, g2]}
question: {kind: claim, flag: 5}
answer: true
"""

# R5: four cards played each side, so the position can arise in a game (no warning)
# R12: the opponent's Wedge 8-9-10 is blocked (b10 on flag 2), so the claim succeeds; the author says no
WRONG = GOOD.replace("id: red-wedge", "id: wrong-answer").replace("answer: true", "answer: false")


Runner = Callable[..., pytest.RunResult]


@pytest.fixture
def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Runner:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")

    def runner(*args: str) -> pytest.RunResult:
        return pytester.runpytest_inprocess("-p", "battleline_lab.pytest_plugin", "-p", "no:cacheprovider", *args)

    return runner


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_each_puzzle_file_is_one_passing_item(pytester: pytest.Pytester, run: Runner) -> None:
    for source in sorted(SEEDS.glob("*.yaml")):
        _write(pytester.path / "puzzles", source.name, source.read_text(encoding="utf-8"))
    result = run("--battleline-puzzles", "puzzles", "-v")
    result.assert_outcomes(passed=5)
    result.stdout.fnmatch_lines(["puzzles/1-wedge-against-two-sixes.yaml::1-wedge-against-two-sixes.yaml PASSED*"])


def test_R12_wrong_answer_fails_with_the_checkers_message(pytester: pytest.Pytester, run: Runner) -> None:
    _write(pytester.path / "puzzles", "good.yaml", GOOD)
    _write(pytester.path / "puzzles", "wrong.yaml", WRONG)
    result = run("--battleline-puzzles", "puzzles")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ puzzle wrong.yaml _*",
            "puzzles/wrong.yaml:7:9: error: wrong answer: the engine says true, not false*",
            "FAILED puzzles/wrong.yaml::wrong.yaml*",
        ]
    )
    text = result.stdout.str()
    assert "Traceback" not in text and "def runtest" not in text and "PuzzleCheckError" not in text


def test_bad_files_report_every_error_at_its_place(pytester: pytest.Pytester, run: Runner) -> None:
    _write(pytester.path / "puzzles", "cards.yaml", "flags:\n  5: {you: [r3, r11, r3]}\n")
    _write(pytester.path / "puzzles", "syntax.yaml", "flags: {5: [\n")
    _write(pytester.path / "puzzles", "tag.yml", "id: !!python/object:os.system x\n")
    result = run("--battleline-puzzles", "puzzles")
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines_random(
        [
            "puzzles/cards.yaml:2:17: error: unknown card 'r11'*",
            "puzzles/cards.yaml:2:22: error: card r3 appears twice*(R1)",
            "puzzles/syntax.yaml:*: error: *",
            "puzzles/tag.yml:1:5: error: *",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_yaml_is_not_collected_unless_asked(pytester: pytest.Pytester, run: Runner) -> None:
    _write(pytester.path / "puzzles", "wrong.yaml", WRONG)
    _write(pytester.path / "ci", "config.yml", "jobs: {test: {runs-on: ubuntu}}\n")
    pytester.makepyfile(test_plain="def test_ok():\n    assert True\n")
    result = run()
    result.assert_outcomes(passed=1)
    assert "wrong.yaml" not in result.stdout.str() and "config.yml" not in result.stdout.str()


def test_ini_option_names_the_puzzle_folders(pytester: pytest.Pytester, run: Runner) -> None:
    pytester.makeini("[pytest]\nbattleline_puzzles = puzzles\n")
    _write(pytester.path / "puzzles", "good.yaml", GOOD)
    _write(pytester.path / "puzzles" / "level-2", "wrong.yaml", WRONG)
    _write(pytester.path / "puzzles" / ".drafts", "draft.yaml", "not: [a puzzle\n")
    _write(pytester.path / "ci", "config.yml", "jobs: {test: {runs-on: ubuntu}}\n")
    result = run()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["puzzles/level-2/wrong.yaml:7:9: error: wrong answer*"])
    assert "config.yml" not in result.stdout.str() and "draft.yaml" not in result.stdout.str()


def test_puzzle_items_carry_a_marker(pytester: pytest.Pytester, run: Runner) -> None:
    pytester.makeini("[pytest]\nbattleline_puzzles = puzzles\n")
    _write(pytester.path / "puzzles", "good.yaml", GOOD)
    pytester.makepyfile(test_plain="def test_ok():\n    assert True\n")
    result = run("-m", "battleline_puzzle", "-v")
    result.assert_outcomes(passed=1, deselected=1)
    result.stdout.fnmatch_lines(["puzzles/good.yaml::good.yaml PASSED*"])


def test_a_bare_position_passes_and_a_question_without_answer_fails(pytester: pytest.Pytester, run: Runner) -> None:
    _write(pytester.path / "puzzles", "bare.yaml", "flags:\n  5: {you: [r3, r4, r5]}\n")
    _write(
        pytester.path / "puzzles",
        "no-answer.yaml",
        "flags:\n  5: {you: [r3, r4, r5]}\nquestion: {kind: claim, flag: 5}\n",
    )
    result = run("--battleline-puzzles", "puzzles")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["puzzles/no-answer.yaml:3:11: error: *answer*"])


def test_plugin_and_check_command_say_the_same(
    pytester: pytest.Pytester, run: Runner, capsys: pytest.CaptureFixture[str]
) -> None:
    from battleline_lab.cli import main as cli_main

    _write(pytester.path / "puzzles", "wrong.yaml", WRONG)
    _write(pytester.path / "puzzles", "cards.yaml", "flags:\n  5: {you: [r3, r11]}\n")
    result = run("--battleline-puzzles", "puzzles")
    capsys.readouterr()
    assert cli_main(["check", "puzzles"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    output = result.stdout.lines
    assert all(line in output for line in lines), (lines, output)


def test_duplicate_ids_across_folders_fail_where_check_fails(
    pytester: pytest.Pytester, run: Runner, capsys: pytest.CaptureFixture[str]
) -> None:
    # the case: a puzzle copied to another folder keeps its id; both files are reported, by both tools
    from battleline_lab.cli import main as cli_main

    _write(pytester.path / "puzzles" / "week-1", "red-wedge.yaml", GOOD)
    _write(pytester.path / "puzzles" / "week-2", "copy.yaml", GOOD)
    result = run("--battleline-puzzles", "puzzles")
    result.assert_outcomes(failed=2)
    capsys.readouterr()
    assert cli_main(["check", "puzzles"]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all("id 'red-wedge' is already used by" in line for line in lines)
    assert all(line in result.stdout.lines for line in lines), (lines, result.stdout.lines)


UNREACHABLE = GOOD.replace("opponent: [b10, g2]", "opponent: [b10]")  # R5: you 4 cards, the opponent 2


def test_R5_unreachable_position_warns_and_fails_when_strict(
    pytester: pytest.Pytester, run: Runner, capsys: pytest.CaptureFixture[str]
) -> None:
    from battleline_lab.cli import main as cli_main

    _write(pytester.path / "puzzles", "odd.yaml", UNREACHABLE)
    result = run("--battleline-puzzles", "puzzles")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*PuzzleWarning: puzzles/odd.yaml:*: warning: this position cannot arise in a game*"])
    strict = run("--battleline-puzzles", "--battleline-strict", "puzzles")
    strict.assert_outcomes(failed=1)
    capsys.readouterr()
    assert cli_main(["check", "--strict", "puzzles"]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and ": error: this position cannot arise in a game" in lines[0]
    assert lines[0] in strict.stdout.lines


def test_duplicate_ids_are_found_even_when_one_file_is_deselected(pytester: pytest.Pytester, run: Runner) -> None:
    # the set of files is everything collected, as `check` sees the folder, whatever -k selects
    _write(pytester.path / "puzzles" / "week-1", "red-wedge.yaml", GOOD)
    _write(pytester.path / "puzzles" / "week-2", "copy.yaml", GOOD)
    result = run("--battleline-puzzles", "puzzles", "-k", "copy")
    result.assert_outcomes(failed=1, deselected=1)
    result.stdout.fnmatch_lines(["puzzles/week-2/copy.yaml:1:5: error: id 'red-wedge' is already used by*"])
