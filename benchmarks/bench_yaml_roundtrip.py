"""Measure: the editor's text patcher against ruamel.yaml's round trip, on every library puzzle.

The editor saves an opened file by rewriting only what was edited
(:func:`battleline_lab.authoring.patch.patch_text`).  ruamel.yaml's round-trip mode
promises the same: load, change the data, dump, comments kept.  For every puzzle of
``puzzles/`` and each of a set of representative edits (the ones the editor makes: the
level, the answer, a card added to a flag, a new flag, a Chinese title, the tags removed,
a new question), both write the edited file and this counts, for each:

* the lines that differ from the original (added + removed, :mod:`difflib`): an untouched
  line that changes counts against the writer;
* whether the text reads back (the project's safe reader) to exactly the edited data;
* for ruamel alone: whether an unedited file comes back byte for byte.

Usage (ruamel.yaml is not a dependency of the package; install it next to it to measure)::

    pip install ruamel.yaml
    python benchmarks/bench_yaml_roundtrip.py [--verbose]

docs/authoring.md quotes the figures.
"""

from __future__ import annotations

import argparse
import copy
import difflib
import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from battleline_lab.authoring.editor import EditorSession  # noqa: E402
from battleline_lab.authoring.yaml_text import patch_text  # noqa: E402
from battleline_lab.formats.safe_yaml import compose  # noqa: E402
from battleline_lab.quiz.loader import TOP_LEVEL_KEYS  # noqa: E402


def _free(s: EditorSession, count: int) -> list[str]:
    """``count`` troops that lie nowhere in the puzzle yet (low values first)."""
    from battleline_lab.core.position import ALL_TROOPS

    troops = sorted(ALL_TROOPS, key=lambda t: (t.value, t.notation))
    return [t.notation for t in troops if s.where(t.notation) is None][:count]


def _edits() -> dict[str, Callable[[EditorSession], None]]:
    def level(s: EditorSession) -> None:
        s.set_level(5 if s.data.get("level") != 5 else 4)

    def answer(s: EditorSession) -> None:
        old = s.data.get("answer")
        s.set_answer(not old if isinstance(old, bool) else 7)

    def card(s: EditorSession) -> None:
        flags = s.data.get("flags") or {}
        for n in sorted(flags):
            for side in ("you", "opponent"):
                if len(flags[n].get(side, [])) < 3:
                    s.add_card(("flags", n, side), _free(s, 1))
                    return
        s.add_card(("flags", 9, "you"), _free(s, 1))

    def new_flag(s: EditorSession) -> None:
        flags = s.data.get("flags") or {}
        n = next((n for n in range(1, 10) if n not in flags), 9)
        s.add_card(("flags", n, "opponent"), _free(s, 2))

    def title_zh(s: EditorSession) -> None:
        s.set_text("title", "zh", "新的标题")

    def no_tags(s: EditorSession) -> None:
        s.set_tags([])

    def question(s: EditorSession) -> None:
        s.set_question({"kind": "claimable"})
        s.set_answer(None)

    return {
        "level": level,
        "answer": answer,
        "card": card,
        "new-flag": new_flag,
        "title-zh": title_zh,
        "no-tags": no_tags,
        "question": question,
    }


def _plain(text: str) -> Any:
    from battleline_lab.authoring.yaml_text import plain_data as plain

    root, _ = compose(text, exact_marks=True)
    return plain(root) if root is not None else None


class Ruamel:
    """ruamel.yaml's round trip, set up to disturb as little as it can (no re-wrapping, quotes kept)."""

    def __init__(self) -> None:
        from ruamel.yaml import YAML

        self.yaml = YAML(typ="rt")
        self.yaml.preserve_quotes = True
        self.yaml.width = 4096
        self.yaml.indent(mapping=2, sequence=4, offset=2)

    def load(self, text: str) -> Any:
        return self.yaml.load(text)

    def dump(self, data: Any) -> str:
        out = io.StringIO()
        self.yaml.dump(data, out)
        return out.getvalue()

    def fresh(self, value: Any, depth: int) -> Any:
        """A new value in the house style: lists and the mappings inside ``flags`` in flow style."""
        from ruamel.yaml.comments import CommentedMap, CommentedSeq

        if isinstance(value, dict):
            node = CommentedMap((k, self.fresh(v, depth + 1)) for k, v in value.items())
            if depth >= 2:
                node.fa.set_flow_style()
            return node
        if isinstance(value, list):
            seq = CommentedSeq(self.fresh(v, depth + 1) for v in value)
            seq.fa.set_flow_style()
            return seq
        return value

    def sync(self, node: Any, new: dict[str, Any], depth: int = 1) -> None:
        """Change ``node`` in place to hold ``new``: only what differs, new keys in the format's order."""
        for key in [k for k in node if k not in new]:
            del node[key]
        order = list(TOP_LEVEL_KEYS) if depth == 1 else list(new)
        for key, value in new.items():
            if key in node and node[key] == value:
                continue
            if key in node and isinstance(value, dict) and hasattr(node[key], "items"):
                self.sync(node[key], value, depth + 1)
            elif key in node and isinstance(value, list) and isinstance(node[key], list):
                node[key][:] = [self.fresh(v, depth + 1) for v in value]
            elif key in node:
                node[key] = self.fresh(value, depth)
            else:
                rank = {k: i for i, k in enumerate(order)}
                before = sum(1 for k in node if rank.get(k, len(order)) < rank.get(key, len(order)))
                node.insert(before, key, self.fresh(value, depth))


def _changed(a: str, b: str) -> int:
    return sum(
        1
        for line in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="print every case where the two differ")
    args = parser.parse_args(argv)
    try:
        ruamel = Ruamel()
    except ImportError:
        print("ruamel.yaml is not installed: pip install ruamel.yaml", file=sys.stderr)
        return 2
    files = sorted((ROOT / "puzzles").rglob("*.yaml"))
    edits = _edits()
    totals = {name: [0, 0] for name in ("patch", "ruamel")}
    worse = {"patch": 0, "ruamel": 0}
    wrong = {"patch": 0, "ruamel": 0}
    unedited_same = unedited_patch = fallbacks = 0
    commented = 0
    cases = 0
    for file in files:
        text = file.read_text(encoding="utf-8")
        commented += "#" in text
        unedited_same += ruamel.dump(ruamel.load(text)) == text
        unedited_patch += EditorSession.from_text(text, str(file)).text() == text
        for name, edit in edits.items():
            session = EditorSession.from_text(text, str(file))
            edit(session)
            if not session.edited:
                continue
            cases += 1
            patched = session.text()
            raw = patch_text(text, session.original, session.data)
            fallbacks += raw is None or _plain(raw) != session.data  # the session then writes the file anew
            doc = ruamel.load(text)
            ruamel.sync(doc, copy.deepcopy(session.data))
            dumped = ruamel.dump(doc)
            sizes = {"patch": _changed(text, patched), "ruamel": _changed(text, dumped)}
            for tool, out in (("patch", patched), ("ruamel", dumped)):
                totals[tool][0] += sizes[tool]
                totals[tool][1] = max(totals[tool][1], sizes[tool])
                try:
                    reads = _plain(out) == session.data
                except Exception:  # noqa: BLE001 - a text the reader refuses is a wrong text
                    reads = False
                wrong[tool] += not reads
            if sizes["patch"] != sizes["ruamel"]:
                worse["ruamel" if sizes["ruamel"] > sizes["patch"] else "patch"] += 1
                if args.verbose:
                    print(f"== {file.relative_to(ROOT)} [{name}] patch {sizes['patch']}, ruamel {sizes['ruamel']}")
                    print("\n".join(difflib.unified_diff(text.splitlines(), dumped.splitlines(), lineterm="", n=0)))
    print(f"{len(files)} library puzzles ({commented} with comments), {len(edits)} edits: {cases} edited files")
    print(
        f"unedited file written back byte for byte: patch_text {unedited_patch}/{len(files)}, "
        f"ruamel {unedited_same}/{len(files)}"
    )
    print(f"patch_text could not patch (the session wrote the whole file anew): {fallbacks} edits")
    for tool, label in (("patch", "patch_text"), ("ruamel", "ruamel.yaml")):
        total, most = totals[tool]
        print(
            f"{label:12} lines changed: {total} in all, {total / cases:.2f} an edit, at most {most}; "
            f"more lines than the other in {worse[tool]} edits; text not reading back to the data: {wrong[tool]}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
