"""Hostile input, family by family: every one a located error (exit 2), from every command and loader.

Families: non-ASCII digits where an integer is read, over-long numbers (past
Python's 4,300-digit int-string limit too), non-integers where an integer is due, lone
surrogates (text no output can encode), control and escape characters in anything a message
quotes, and ``result: {winner: ~}``.  For puzzles each case goes through
:func:`load_puzzle_text` (a :class:`PuzzleFileError`) and ``claims``, ``check``, ``explain``
and ``show``; for game records through :func:`load_record_text` (a :class:`RecordError`)
and ``replay``.  Every diagnostic line must be ``FILE:LINE:COL: error: ...`` with no raw
control character, and nothing may exit 3.
"""

from __future__ import annotations

import io
import re
import signal
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from battleline_lab.cli import main
from battleline_lab.formats.safe_yaml import MAX_ERRORS
from battleline_lab.game.record import RecordError, load_record_text
from battleline_lab.quiz.loader import PuzzleFileError, load_puzzle_text

LOCATED = re.compile(r"^.*:\d+:\d+: error: .+$")
BASE = (
    "flags: {5: {you: [r3, r4, r5], opponent: [b8]}, 2: {you: [b7], opponent: [b10, g2]}}\n"
    "question: {kind: claim, flag: 5}\nanswer: true\n"
)
LONG = "9" * 5000


def _clean(line: str) -> bool:
    """No character that could drive a terminal or break the line (all escaped)."""
    return not any(unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in "\u202e\u2066" for ch in line)


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail instead of hanging (a FIFO used to block every command forever): ``SIGALRM`` after ``seconds``."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run(argv: list[str], seconds: float = 60.0) -> tuple[int, str, str]:
    """``cli.main`` in-process under a deadline, stdout encoded strictly as UTF-8 like a real terminal's."""
    out_bytes, err = io.BytesIO(), io.StringIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", errors="strict")
    with deadline(seconds), redirect_stdout(out), redirect_stderr(err):
        status = main(argv)
        out.flush()
    return status, out_bytes.getvalue().decode("utf-8"), err.getvalue()


def assert_located(lines: list[str], expected: str, where: str | None) -> None:
    assert lines, "no diagnostics"
    for line in lines:
        assert LOCATED.match(line), line
        assert _clean(line), repr(line)
    assert any(expected in line for line in lines), lines
    if where is not None:
        assert any(f":{where}: error: " in line and expected in line for line in lines), lines


# -- puzzles ---------------------------------------------------------------------------------------

# (test id: family-what, puzzle text, LINE:COL of the error or None, a part of its message)
PUZZLE_CASES = [
    # non-ASCII digits where an integer is read
    ("digit-flag-key-superscript", "flags:\n  ²: {you: [r3]}\n", "2:3", "flag '²' does not exist"),
    ("digit-flag-key-arabic", "flags:\n  \u0663: {you: [r3]}\n", "2:3", "does not exist"),
    ("digit-flag-key-fullwidth", "flags:\n  \uff15: {you: [r3]}\n", "2:3", "does not exist"),
    ("digit-level", "level: \u0663\n" + BASE, "1:8", "level must be a whole number"),
    ("digit-question-flag", "flags: {}\nquestion: {kind: claim, flag: \u0665}\n", "2:31", "flag must be"),
    ("digit-answer", "flags: {}\nquestion: {kind: claimable}\nanswer: [\u0665]\n", "3:9", "answer"),
    ("digit-card", "flags: {5: {you: [r\u0663]}}\n", "1:19", "unknown card"),
    # over-long numbers
    ("long-flag-key", f"flags:\n  ? {LONG}\n  : {{you: [r3]}}\n", "2:5", "does not exist"),
    ("long-level", f"level: {LONG}\n" + BASE, "1:8", "level must be a whole number"),
    ("long-hex-level", "level: 0x" + "f" * 5000 + "\n" + BASE, "1:8", "level must be a whole number"),
    ("long-question-flag", f"flags: {{}}\nquestion: {{kind: claim, flag: {LONG}}}\n", "2:31", "flag must be"),
    ("long-answer", f"flags: {{}}\nquestion: {{kind: claimable}}\nanswer: [{LONG}]\n", "3:9", "answer"),
    ("long-card", f"flags: {{5: {{you: [r{LONG}]}}}}\n", "1:19", "unknown card"),
    ("long-sexagesimal-level", "level: " + ":".join(["59"] * 2000) + "\n" + BASE, "1:8", "level"),
    # non-integers where an integer is due
    ("float-flag-key", "flags:\n  5.0: {you: [r3]}\n", "2:3", "does not exist"),
    ("float-level", "level: 2.0\n" + BASE, "1:8", "level must be a whole number"),
    ("inf-level", "level: .inf\n" + BASE, "1:8", "level must be a whole number"),
    ("text-level", "level: abc\n" + BASE, "1:8", "level must be a whole number"),
    ("bool-flag-key", "flags:\n  true: {you: [r3]}\n", "2:3", "does not exist"),
    # lone surrogates: text no output can encode
    ("surrogate-title", 'title: "\\ud800"\n' + BASE, "1:8", "cannot be encoded"),
    ("surrogate-note", 'note: {en: "a\\udfffb"}\n' + BASE, "1:12", "cannot be encoded"),
    ("surrogate-tag", 'tags: ["\\ud800"]\n' + BASE, "1:8", "cannot be encoded"),
    ("surrogate-card", 'flags: {5: {you: ["\\ud800"]}}\n', "1:19", "cannot be encoded"),
    ("surrogate-key", '"\\ud800": 1\n' + BASE, "1:1", "cannot be encoded"),
    ("surrogate-question", 'flags: {}\nquestion: {kind: "\\ud800"}\n', "2:18", "cannot be encoded"),
    # control and escape characters in what a message quotes
    ("control-unknown-key", '"\\e]0;owned\\a\\e[2J": 1\n' + BASE, "1:1", "unknown key '\\x1b]0;owned\\x07\\x1b[2J'"),
    ("control-title", 'title: "a\\e[2Jb"\n' + BASE, "1:8", "control character"),
    ("control-card", 'flags: {5: {you: ["r3\\e[2J"]}}\n', "1:19", "\\x1b[2J"),
    ("control-turn", 'turn: "\\e[2J"\n' + BASE, "1:7", "\\x1b[2J"),
    ("control-block-scalar-turn", "turn: |\n  you\n  me\n" + BASE, "1:7", "you\\x0ame"),
    ("control-bidi-card", 'flags: {5: {you: ["r3\\u202e"]}}\n', "1:19", "\\u202e"),
    ("control-question-kind", 'flags: {}\nquestion: {kind: "\\e[31mclaim"}\n', "2:18", "\\x1b[31mclaim"),
    ("control-language-key", 'title: {"\\e[2J": x, en: y}\n' + BASE, "1:9", "\\x1b[2J"),
]


@pytest.mark.parametrize(("text", "where", "expected"), [c[1:] for c in PUZZLE_CASES], ids=[c[0] for c in PUZZLE_CASES])
def test_puzzle_family_is_a_located_error(text: str, where: str | None, expected: str) -> None:
    with pytest.raises(PuzzleFileError) as info:
        load_puzzle_text(text, "p.yaml")
    assert_located(str(info.value).splitlines(), expected, where)


@pytest.mark.parametrize(("text", "expected"), [(c[1], c[3]) for c in PUZZLE_CASES], ids=[c[0] for c in PUZZLE_CASES])
@pytest.mark.parametrize("command", ["claims", "claims --json", "check", "explain", "show -o -"])
def test_puzzle_family_in_every_command(tmp_path: Path, command: str, text: str, expected: str) -> None:
    file = tmp_path / "p.yaml"
    file.write_text(text, encoding="utf-8")
    status, out, err = run([*command.split()[:1], str(file), *command.split()[1:]])
    assert status == 2, (out, err)
    lines = err.splitlines()
    assert_located(lines, expected, None)
    assert all(line.startswith(f"{file}:") for line in lines)


def test_one_bad_file_never_stops_check_of_a_folder(tmp_path: Path) -> None:
    """Each family in its own file, next to a good one: check reports them all and still prints its summary."""
    (tmp_path / "good.yaml").write_text(BASE, encoding="utf-8")
    for name, text, *_ in PUZZLE_CASES:
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    status, out, err = run(["check", str(tmp_path)])
    assert status == 2
    total = len(PUZZLE_CASES) + 1
    assert out == f"checked {total} puzzles: 1 ok, {total - 1} failed\n"
    assert all(LOCATED.match(line) and _clean(line) for line in err.splitlines())


def test_a_folder_with_bad_files_loads_the_good_ones(tmp_path: Path) -> None:
    """``widgets.load_puzzles`` (behind ``PuzzleSet``/the gym) skips bad files and lists their errors."""
    from battleline_lab.widgets import load_puzzles

    (tmp_path / "good.yaml").write_text(BASE, encoding="utf-8")
    for name, text, *_ in PUZZLE_CASES:
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    errors: list[str] = []
    puzzles = load_puzzles(tmp_path, errors)
    assert [p.id for p in puzzles] == ["good"]
    assert errors and all(LOCATED.match(line) and _clean(line) for line in errors)


def test_too_many_errors_stop_at_fifty() -> None:
    text = "".join(f"k{n}: 1\n" for n in range(500))
    with pytest.raises(PuzzleFileError) as info:
        load_puzzle_text(text, "p.yaml")
    lines = str(info.value).splitlines()
    assert len(lines) == MAX_ERRORS + 1
    assert (
        lines[-1]
        == f"p.yaml:{MAX_ERRORS + 1}:1: error: ... and {500 - MAX_ERRORS} more errors (only the first 50 are shown)"
    )


def test_more_cards_than_the_game_has() -> None:
    cards = ", ".join(["r3"] * 5000)
    with pytest.raises(PuzzleFileError) as info:
        load_puzzle_text(f"flags: {{5: {{you: [{cards}]}}}}\n", "p.yaml")
    lines = str(info.value).splitlines()
    assert len(lines) <= MAX_ERRORS + 1
    assert any("more cards than the game has" in line for line in lines)
    assert lines[-1].endswith("more errors (only the first 50 are shown)")


# -- game records -------------------------------------------------------------------------------

FINISHED = (Path(__file__).parent / "game" / "data" / "heuristic-vs-random.yaml").read_text(encoding="utf-8")
START = "seed: 1\noptions: {first: south}\nmoves:\n- south: play r9 3; draw troops\n"

# (test id: family-what, record text, LINE:COL or None, a part of the message)
RECORD_CASES = [
    ("digit-seed", "seed: \u0663\nmoves: []\n", "1:7", "not a number written with the digits 0-9"),
    ("digit-seed-superscript", "seed: ²\nmoves: []\n", "1:7", "not a number written with the digits 0-9"),
    ("digit-move-flag", "seed: 1\noptions: {first: south}\nmoves:\n- south: play r9 ²\n", "4:10", "flags are numbered"),
    ("digit-move-flag-arabic", "seed: 1\noptions: {first: south}\nmoves:\n- south: play r9 \u0663\n", "4:10", "flags"),
    ("digit-result-turns", START + "result: {turns: \u0661}\n", "5:17", "not a number written with the digits 0-9"),
    ("long-seed", f"seed: {LONG}\nmoves: []\n", "1:7", "number is too long (5000 characters)"),
    ("long-seed-4301", "seed: " + "1" * 4301 + "\nmoves: []\n", "1:7", "number is too long"),
    ("long-result-turns", START + f"result: {{turns: {LONG}}}\n", "5:17", "number is too long"),
    ("long-move-flag", f"seed: 1\noptions: {{first: south}}\nmoves:\n- south: play r9 {LONG}\n", "4:10", "flags"),
    (
        "long-move-card",
        f"seed: 1\noptions: {{first: south}}\nmoves:\n- south: play r{LONG} 3\n",
        "4:10",
        "unknown card",
    ),
    ("float-result-turns", START + "result: {turns: 5.0}\n", "5:17", "result turns must be a whole number, not '5.0'"),
    ("text-result-turns", START + "result: {turns: abc}\n", "5:17", "result turns must be a whole number"),
    ("float-seed", "seed: 1.5\nmoves: []\n", "1:7", "seed must be a whole number"),
    ("bool-seed", "seed: yes\nmoves: []\n", "1:7", "seed must be a whole number"),
    ("surrogate-player-name", 'seed: 1\nplayers: {north: "\\ud800"}\nmoves: []\n', "2:18", "cannot be encoded"),
    ("surrogate-move", 'seed: 1\nmoves:\n- south: "\\udc80"\n', "3:10", "cannot be encoded"),
    ("surrogate-key", 'seed: 1\n"\\ud800": 2\nmoves: []\n', "2:1", "cannot be encoded"),
    ("control-first", 'seed: 1\noptions: {first: "\\e]0;x\\a\\e[2J"}\nmoves: []\n', "2:18", "\\x1b]0;x\\x07\\x1b[2J"),
    ("control-claim-timing", 'seed: 1\noptions: {claim_timing: "\\e[2J"}\nmoves: []\n', "2:25", "\\x1b[2J"),
    ("control-winner", START + 'result: {winner: "\\e[2J"}\n', "5:18", "\\x1b[2J"),
    ("control-reason", START + 'result: {reason: "\\e[2J"}\n', "5:18", "\\x1b[2J"),
    ("control-player-key", 'seed: 1\noptions: {first: south}\nmoves:\n- "\\e[2J": play r9 3\n', "4:3", "\\x1b[2J"),
    ("control-seed", 'seed: "\\e]0;x\\a"\nmoves: []\n', "1:7", "\\x1b]0;x\\x07"),
    ("control-seed-block-scalar", "seed: |\n  a\n  b\nmoves: []\n", "1:7", "a\\x0ab\\x0a"),
    ("control-unknown-key", 'seed: 1\n"\\e[2J": 1\nmoves: []\n', "2:1", "\\x1b[2J"),
    ("control-move", 'seed: 1\noptions: {first: south}\nmoves:\n- south: "play r9 3; \\e[2J"\n', "4:22", "\\x1b[2J"),
    ("control-tag", "seed: !x%1B%5B2J 1\nmoves: []\n", "1:7", "tags (!x\\x1b[2J)"),
    ("winner-null-finished", FINISHED.replace("winner: north", "winner: ~"), None, "result winner is empty"),
]


@pytest.mark.parametrize(("text", "where", "expected"), [c[1:] for c in RECORD_CASES], ids=[c[0] for c in RECORD_CASES])
def test_record_family_is_a_located_error(text: str, where: str | None, expected: str) -> None:
    with pytest.raises(RecordError) as info:
        load_record_text(text, "g.yaml")
    assert_located(info.value.lines(), expected, where)


@pytest.mark.parametrize(("text", "expected"), [(c[1], c[3]) for c in RECORD_CASES], ids=[c[0] for c in RECORD_CASES])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_record_family_in_replay(tmp_path: Path, text: str, expected: str, lang: str) -> None:
    file = tmp_path / "g.yaml"
    file.write_text(text, encoding="utf-8")
    status, out, err = run(["replay", str(file), "--lang", lang])
    assert status == 2, (out, err)
    lines = err.splitlines()
    assert lines and all(LOCATED.match(line) and _clean(line) for line in lines), lines
    if lang == "en":
        assert any(expected in line for line in lines), lines


def test_winner_null_is_the_null_of_an_unfinished_game() -> None:
    """``winner: ~`` (or ``null``) is the replay's "nobody" (an unfinished game), not the text '~'."""
    for null in ("~", "null", "Null", ""):
        record = load_record_text(START + f"result: {{winner: {null}}}\n", "g.yaml")
        assert record.result == {"winner": None}


# Integer command-line options read ASCII digits only, like the file formats:
# Python's int() would take "３" (full-width) or "٣" (Arabic-Indic) as 3.
OTHER_DIGITS = ("\uff13", "\u0663", "\u0969")  # full-width, Arabic-Indic and Devanagari three


@pytest.mark.parametrize("digit", OTHER_DIGITS)
@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["match", "random", "random", "--games", "{d}"], "--games"),
        (["match", "random", "random", "--games", "1", "--seed", "{d}"], "--seed"),
        (["match", "expert", "random", "--games", "1", "--rollouts", "{d}"], "--rollouts"),
        (["generate", "--theme", "fog", "--out", "OUT", "--count", "{d}"], "--count"),
        (["generate", "--theme", "fog", "--out", "OUT", "--seed", "{d}"], "--seed"),
        (["generate", "--theme", "fog", "--out", "OUT", "--level", "{d}-4"], "--level"),
        (["explain", "puzzles/seed-examples", "--flag", "{d}"], "--flag"),
    ],
)
def test_integer_options_read_ascii_digits_only(
    tmp_path: Path, argv: list[str], option: str, digit: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [a.replace("{d}", digit).replace("OUT", str(tmp_path / "out")) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"argument {option}:" in err and digit in err
    assert not (tmp_path / "out").exists()  # refused before anything is written
