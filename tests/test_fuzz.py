"""A seeded mutation fuzz: thousands of damaged puzzles and game records through every command, in-process.

Seeds are committed puzzles, bad-input fixtures and game records; each mutant gets one to
three edits from a list of known hostile inputs (other scripts' digits, 5,000-digit
numbers, floats where an integer is due, lone surrogates, terminal escapes, YAML anchors, tags,
block scalars, deleted and repeated spans...).  Each mutant is loaded; one that loads goes
through every command that reads it (``claims``, ``claims --json``, ``check``, ``explain``,
``show`` or ``replay``, ``replay --at``, ``review --json``), one that does not through one of them in turn (they
share the loader).  The only outcomes allowed:

* exit 0, or exit 1/2 with every stderr line ``FILE:LINE:COL: error: ...`` (no raw control
  character in it); never exit 3, never a traceback;
* no hang: each call runs under a deadline (``SIGALRM``);
* no write to an input: its bytes are hashed before and after every call, and nothing else
  appears in its folder.

Every mutant is also composed by both YAML parsers (libyaml and pure Python), which must agree.
``BATTLELINE_FUZZ_CASES`` sets the number of mutants (default 2000; the seed is fixed, so a
failure names a case that reproduces), ``BATTLELINE_FUZZ_SECONDS`` a time budget (default 40 s
for the YAML inputs, a third of it for the exports): the cases run in their seeded order until
either is reached, so a failure still names a case that reproduces, and CI stays bounded.

Progress exports are fuzzed the same way through ``report``: valid exports mutated
byte-wise and by JSON-aware edits (huge integers in any numeric field, escapes, controls, deep
nesting, NaN), with stdout and stderr free of raw control characters.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import time
import unicodedata
from pathlib import Path

from battleline_lab.formats import safe_yaml
from battleline_lab.game.record import RecordError, load_record
from battleline_lab.quiz.loader import PuzzleFileError, load_puzzle
from tests.test_robustness import LOCATED, deadline, run

ROOT = Path(__file__).resolve().parent.parent
CASES = int(os.environ.get("BATTLELINE_FUZZ_CASES", "2000"))
DEADLINE = 20.0  # seconds per command: generous on a loaded CI machine; a hang never ends
BUDGET = float(os.environ.get("BATTLELINE_FUZZ_SECONDS", "40"))  # seconds in all (the cases run in seed order)
MIN_CASES = 50  # however slow the machine, at least this many mutants of each kind

HOSTILE = [
    "²",
    "\u0663",
    "\uff15",
    "9" * 5000,
    "1" * 4301,
    "0x" + "f" * 300,
    "5.0",
    ".inf",
    "abc",
    "~",
    "null",
    "yes",
    '"\\ud800"',
    '"\\udfff"',
    '"\\e]0;owned\\a\\e[2J"',
    '"\\e[2J"',
    '"\\u202e"',
    "|\n  a\n  b\n",
    ">-\n  a\n",
    "&a x",
    "*a",
    "!!str x",
    "!x%1B y",
    "? [1, 2]\n: 3",
    "[",
    "]",
    "{",
    "}",
    ":",
    ", ",
    "- ",
    "\n",
    "\t",
    "#",
    "'",
    '"',
    "r11",
    "r\u0663",
    "alexander",
    "fog",
    "mud",
    "claimed_by: you",
    "first_complete: opponent",
    "10",
    "-1",
    "0",
    "claim 5",
    "draw troops",
    "play r9 3",
    "south",
    "north",
    "winner: ~",
    "turns: 5.0",
    "\u3000",
    "中文",
    "\r",
    "\r\n",
    "\x85",
    "\u2028",
    "\ufeff",
    "---\n",
    "\n...\n",
    "%YAML 1.1\n",
    "@",
    "`",
    "? ",
    "!",
    "|-",
    "k" * 1100 + ": v",
    "\\",
    "%",
    # the families that once got through: escapes past U+10FFFF, C1 and bidi controls, deep nesting, 400-digit numbers
    '"\\U00110000"',
    '"\\UFFFFFFFF"',
    '"x\\U0011ffff"',
    '"\\x9b2J"',
    "\u202e",
    "\u2066",
    "\x9b",
    "[" * 120,
    "{a: " * 60,
    "9" * 400,
]


def _seeds() -> tuple[list[str], list[str]]:
    puzzles = sorted(ROOT.glob("puzzles/**/*.yaml"))
    chosen = puzzles[:: max(1, len(puzzles) // 12)][:12]
    bad = sorted(ROOT.glob("tests/data/bad/*.yaml"))[::4]
    puzzle_texts = [p.read_text("utf-8", "replace") for p in [*chosen, *bad]]
    records = [p.read_text("utf-8") for p in sorted(ROOT.glob("tests/game/data/*.yaml"))]
    records.append("seed: 1\noptions: {first: south}\nmoves:\n- south: play r9 3; draw troops\n")
    return puzzle_texts, records


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits: insert, replace a word, delete or repeat a span, swap two lines."""
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        pos = rng.randrange(len(text) + 1)
        if op < 0.35:
            text = text[:pos] + rng.choice(HOSTILE) + text[pos:]
        elif op < 0.65:
            words = list(re.finditer(r"[A-Za-z0-9_]+", text))
            if words:
                word = rng.choice(words)
                text = text[: word.start()] + rng.choice(HOSTILE) + text[word.end() :]
        elif op < 0.8:
            end = min(len(text), pos + rng.randint(1, 40))
            text = text[:pos] + text[end:]
        elif op < 0.9:
            end = min(len(text), pos + rng.randint(1, 80))
            text = text[:end] + text[pos:end] + text[end:]
        else:
            lines = text.splitlines(keepends=True)
            if len(lines) > 1:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                text = "".join(lines)
    return text


def _escaped(line: str) -> bool:
    return not any(unicodedata.category(ch) in ("Cc", "Cs") or ch in "\u2028\u2029\u202e" for ch in line)


def check_call(argv: list[str], case: str, inputs: list[Path], folder: Path) -> int:
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in inputs}
    listing = sorted(os.listdir(folder))
    status, out, err = run(argv, DEADLINE)
    where = f"case {case}: {' '.join(argv)}"
    assert status in (0, 1, 2), f"{where}: exit {status}\n{err}"
    if status:
        lines = err.splitlines()
        assert lines, f"{where}: exit {status} without a diagnostic"
        for line in lines:
            assert LOCATED.match(line), f"{where}: not a located error: {line!r}"
            assert _escaped(line), f"{where}: raw control character: {line!r}"
    assert "Traceback" not in err, where
    for line in out.splitlines():  # what reaches the terminal on stdout is escaped too
        assert _escaped(line.replace("\t", " ")), f"{where}: raw control character on stdout: {line!r}"
    for path, digest in before.items():
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, f"{where}: wrote to the input {path}"
    assert sorted(os.listdir(folder)) == listing, f"{where}: created files next to the input"
    return status


PUZZLE_COMMANDS = [["claims"], ["claims", "--json"], ["check"], ["explain"], ["show", "-o", "{out}"]]
RECORD_COMMANDS = [["replay"], ["replay", "--at", "3"], ["review", "--json"]]


def _argv(command: list[str], file: Path, out: Path) -> list[str]:
    return [command[0], str(file), *(a.replace("{out}", str(out)) for a in command[1:])]


def test_mutated_inputs_through_every_command(tmp_path: Path) -> None:
    rng = random.Random(14)
    puzzles, records = _seeds()
    inputs, outputs = tmp_path / "in", tmp_path / "out"
    inputs.mkdir()
    outputs.mkdir()
    calls = 0
    stop = time.monotonic() + BUDGET
    for n in range(CASES):
        if n >= MIN_CASES and time.monotonic() > stop:
            break
        is_record = n % 2 == 1
        text = mutate(rng.choice(records if is_record else puzzles), rng)
        case = f"{n} ({'record' if is_record else 'puzzle'}): {text[:200]!r}"
        if "libyaml" in safe_yaml.backends():  # the two YAML parsers agree on every mutant
            assert _composed(text, "libyaml") == _composed(text, "python"), case
        file = inputs / f"case-{n}.yaml"
        file.write_text(text, encoding="utf-8", errors="surrogatepass")
        commands = RECORD_COMMANDS if is_record else PUZZLE_COMMANDS
        try:
            with deadline(DEADLINE):
                load_record(file) if is_record else load_puzzle(file)
            chosen = commands  # it loads: every command reads it its own way
        except (PuzzleFileError, RecordError):
            chosen = [commands[n // 2 % len(commands)]]  # the same loader error everywhere: one of them
        if n % 10 == 0:  # now and then the other kind of file, and the output named as the input itself
            chosen = [*chosen, (PUZZLE_COMMANDS if is_record else RECORD_COMMANDS)[0]]
            if not is_record:
                chosen.append(["show", "-o", str(file), "--force"])
        for command in chosen:
            out = outputs / f"case-{n}-{calls}.html"
            check_call(_argv(command, file, out), case, [file], inputs)
            calls += 1
        file.unlink()
    assert calls >= min(CASES, MIN_CASES)
    print(f"fuzz: {n + 1} mutants, {calls} command calls")


EXPORT = {
    "format": "battleline-lab-progress",
    "learner": "ann",
    "exported_at": "2026-12-01T20:00:00Z",
    "attempts": [
        {"learner": "ann", "puzzle_id": "p", "kind": "answer", "correct": False, "hints": 1, "rule": "R13", "at": 1.5},
        {"learner": "ann", "puzzle_id": "p", "kind": "answer", "correct": True, "hints": 0, "seconds": 3.5},
        {"learner": "ann", "puzzle_id": "q", "kind": "reveal", "correct": False, "hints": 2},
    ],
    "first_try": 0,
    "rated": 2,
    "rating": {"rating": 1480.5, "rd": 210.0},
    "missed_rules": {"R13": 1, "R12": 2},
    "themes": {"t": {"rating": 1400.0, "games": 1}},
    "puzzles": {"p": {"level": 2, "rating": 1300.0, "theme": "t"}, "q": {"level": 4}},
}
JSON_HOSTILE = [
    "9" * 400,
    "-" + "9" * 400,
    "9" * 5000,
    "1e999",
    "NaN",
    "-Infinity",
    '"\\u001b]0;owned\\u0007"',
    '"\\u202e"',
    '"\\ud800"',
    '"\\u009b"',
    "[" * 3000,
    "{" * 50,
    "null",
    "true",
    '""',
    "[]",
    "{}",
    '"\u202e\u2066"',
    "\x00",
    "\xff",
]


def mutate_export(rng: random.Random) -> bytes:
    """A valid export with one to three edits: a value replaced (JSON-aware), bytes inserted or cut."""
    text = json.dumps(EXPORT, indent=rng.choice((None, 1)))
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        values = list(re.finditer(r'(?<=: )(-?[0-9.]+|"[^"]*"|true|false|null)', text))
        if op < 0.6 and values:
            value = rng.choice(values)
            text = text[: value.start()] + rng.choice(JSON_HOSTILE) + text[value.end() :]
        elif op < 0.8:
            pos = rng.randrange(len(text) + 1)
            text = text[:pos] + rng.choice(JSON_HOSTILE) + text[pos:]
        else:
            pos = rng.randrange(len(text) + 1)
            text = text[:pos] + text[pos + rng.randint(1, 30) :]
    data = text.encode("utf-8", errors="surrogatepass")
    if rng.random() < 0.1:
        data = data.replace(b"\\u00", b"\xc3", 1)  # not UTF-8
    return data


def test_mutated_exports_through_report(tmp_path: Path) -> None:
    rng = random.Random(24)
    inputs, outputs = tmp_path / "in", tmp_path / "out"
    inputs.mkdir()
    outputs.mkdir()
    stop = time.monotonic() + BUDGET / 3
    statuses: dict[int, int] = {}
    for n in range(CASES):
        if n >= MIN_CASES and time.monotonic() > stop:
            break
        data = mutate_export(rng)
        file = inputs / f"export-{n}.json"
        file.write_bytes(data)
        case = f"export {n}: {data[:200]!r}"
        status = check_call(["report", str(file), "--out", str(outputs / f"r-{n}.html")], case, [file], inputs)
        statuses[status] = statuses.get(status, 0) + 1
        file.unlink()
    assert set(statuses) <= {0, 2} and statuses.get(0) and statuses.get(2), statuses  # both outcomes reached
    print(f"fuzz: {sum(statuses.values())} exports, {statuses}")


def _composed(text: str, backend: str) -> object:
    try:
        root, refused = safe_yaml.compose(text, backend=backend)
    except safe_yaml.ComposeError as err:
        return str(err)
    return _dump(root), [(r.kind, r.name, safe_yaml.mark_position(r.mark)) for r in refused]


def _dump(node: object) -> object:
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    if isinstance(node, ScalarNode):
        return (node.tag, node.value, node.style, safe_yaml.mark_position(node), node.end_mark.line)
    if isinstance(node, MappingNode):
        return (node.tag, safe_yaml.mark_position(node), [(_dump(k), _dump(v)) for k, v in node.value])
    if isinstance(node, SequenceNode):
        return (node.tag, safe_yaml.mark_position(node), [_dump(v) for v in node.value])
    return node
