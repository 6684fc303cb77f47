"""libyaml and the pure-Python parser give the same nodes and the same diagnostics.

``safe_yaml.compose`` reads with libyaml where PyYAML has it and falls back to the
pure-Python parser (Pyodide); both feed one composer, and on any error the text is read
again by the pure-Python parser.  These tests pin that down on every committed puzzle,
every bad-input fixture, the game-record fixtures and a list of hostile snippets.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from yaml.nodes import MappingNode, Node, ScalarNode

from battleline_lab.formats import safe_yaml
from battleline_lab.game.record import RecordError, load_record_text
from battleline_lab.quiz.loader import PuzzleFileError, load_puzzle_text
from tests.every import check_every

ROOT = Path(__file__).resolve().parent.parent


def _utf8(path: Path) -> bool:
    try:
        path.read_text(encoding="utf-8")
    except UnicodeDecodeError:  # such a file is refused before YAML is read
        return False
    return True


def test_libyaml_is_there_on_this_platform() -> None:
    """PyYAML's wheels for CPython carry libyaml; without it the comparisons below would compare python with python."""
    assert "libyaml" in safe_yaml.backends()


COMMITTED = [*ROOT.glob("puzzles/**/*.yaml"), *ROOT.glob("tests/data/bad/*.yaml"), *ROOT.glob("tests/game/data/*.yaml")]
FILES = sorted(f for f in COMMITTED if _utf8(f))
SNIPPETS = [
    "",
    "# only a comment\n",
    "a: 1\n---\nb: 2\n",
    "a: &x 1\nb: &x 2\n",
    "a: *nowhere\n",
    "? [1, 2]\n: 3\n",
    "a: !!python/object:os.system x\n",
    "a: !foo%1B 1\n",
    "a: [1, 2\n",
    "a: {b: c\n",
    "a:\n\t- 1\n",
    "a: 'it''s'\nb: \"\\e\\ud800\\U0001F600\"\n",
    "a: |\n  one\n  two\nb: >-\n  three\n  four\n",
    "- - - - [x]\n",
    "[" * 150 + "]" * 150,
    "{" * 5000 + "}" * 5000,
    "a: 1\r\nb: 2\r\n",
    "a: 1\x85b: 2\u2028c: 3\n",
    "é: 中文\nx: ２\ny: \u0663\n",
    "a: \x07\n",
    "a: b: c\n",
    "- a\nb: c\n",
    "a: 0x1F\nb: 1_000\nc: 1:30\nd: .inf\ne: ~\nf: 2001-12-14\n",
    "%YAML 1.1\n---\na: 1\n",
    "%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n",
    "? " + "k" * 2000 + "\n: v\n",
    "key with spaces: value with: colon\n",
]


def dump(node: Node | None) -> Any:
    """A node as plain data with tags, styles and marks, to compare two compositions."""
    if node is None:
        return None
    start = (node.start_mark.line, node.start_mark.column)
    end = (node.end_mark.line, node.end_mark.column) if node.end_mark is not None else None
    if isinstance(node, ScalarNode):
        return ("scalar", node.tag, node.value, node.style, start, end)
    if isinstance(node, MappingNode):
        return ("map", node.tag, start, end, [(dump(k), dump(v)) for k, v in node.value])
    return ("seq", node.tag, start, end, [dump(v) for v in node.value])


def composed(text: str, backend: str) -> Any:
    try:
        root, refused = safe_yaml.compose(text, backend=backend)
    except safe_yaml.ComposeError as err:
        return ("error", str(err), err.line, err.col)
    return dump(root), [(r.kind, r.name, safe_yaml.mark_position(r.mark)) for r in refused]


def diagnostics(text: str, backend: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """What the puzzle loader and the record reader say about ``text`` with only ``backend`` in use."""
    monkeypatch.setattr(safe_yaml, "BACKENDS", (backend,))
    out: list[list[str]] = []
    for load in (load_puzzle_text, load_record_text):
        try:
            load(text, "f.yaml")
            out.append([])
        except PuzzleFileError as err:
            out.append(str(err).splitlines())
        except RecordError as err:
            out.append(err.lines())
    return out[0], out[1]


def _compose_the_same(file: Path) -> None:
    text = file.read_text(encoding="utf-8")
    assert composed(text, "libyaml") == composed(text, "python")


def test_committed_files_compose_the_same() -> None:
    check_every(((str(f.relative_to(ROOT)), f) for f in FILES), _compose_the_same)


@pytest.mark.parametrize("text", SNIPPETS)
def test_hostile_snippets_compose_the_same(text: str) -> None:
    assert composed(text, "libyaml") == composed(text, "python")


@pytest.mark.parametrize("text", [*SNIPPETS, *(f.read_text("utf-8", "replace") for f in FILES if "bad" in f.parts)])
def test_both_backends_give_the_same_diagnostics(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert diagnostics(text, "libyaml", monkeypatch) == diagnostics(text, "python", monkeypatch)


def test_the_pure_python_parser_is_always_there() -> None:
    """Pyodide has no libyaml: the pure-Python parser must work alone."""
    assert safe_yaml.backends()[-1] == "python"
    root, refused = safe_yaml.compose("a: [r3, r4]\n", backend="python")
    assert isinstance(root, MappingNode) and refused == []
    with pytest.raises(ValueError, match="unknown YAML backend"):
        safe_yaml.compose("a: 1", backend="nope")


def test_nesting_has_one_limit_in_both_parsers() -> None:
    deep = "[" * (safe_yaml.MAX_DEPTH + 1) + "]" * (safe_yaml.MAX_DEPTH + 1)
    ok = "[" * safe_yaml.MAX_DEPTH + "]" * safe_yaml.MAX_DEPTH
    for backend in safe_yaml.backends():
        with pytest.raises(safe_yaml.ComposeError) as info:
            safe_yaml.compose(deep, backend=backend)
        assert info.value.kind == "too_deep"
        assert safe_yaml.compose(ok, backend=backend)[0] is not None
