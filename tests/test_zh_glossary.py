"""One Chinese term per idea: a second term for the same idea fails, wherever a learner reads it.

docs/i18n.md's glossary gives the term of each idea (from the Chinese rule texts in the seeds where
they have one). This test reads every text a Chinese learner meets — the zh message catalogues,
the Chinese lessons (prose, code comments and saved outputs, boards included) and the library's
Chinese titles and notes — and fails on a variant of a glossary term, saying which term to use.
It also holds the typography the Chinese lessons' polish settled: ``阵型A`` without a space, no ASCII
colon right after a Chinese character in what a lesson shows.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from battleline_lab.quiz import library

ROOT = Path(__file__).resolve().parents[1]
ZH_LESSONS = sorted(p for p in (ROOT / "notebooks" / "zh").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)

#: (the glossary's term, a variant that must not appear, what the idea is)
VARIANTS = [
    ("堵死", "封住", "a Wedge blocked by cards face up (tag blocked-wedge, lesson 3)"),
    ("宣称夺取", "宣告", "claim (R12; the seeds: 宣称夺取)"),
    ("沼泽", "泥沼", "Mud (R25; the seeds: 沼泽)"),
    ("训练场", "练习场", "the puzzle gym (lesson 5)"),
    ("牌桌", "棋盘", "the table of a card game"),
    ("这一局", "这局棋", "a game of a card game (not chess)"),
    ("阵型A", "阵型 A", "formation A of a compare question (no space, as 5号旗 and 蓝8)"),
    ("阵型B", "阵型 B", "formation B of a compare question"),
    ("补牌", "出路", "outs: the unseen troops (R13) that complete a formation at a flag (odds)"),
    ("胜率", "赢的机会", "the chance a side wins a flag (odds)"),
    ("胜率", "获胜概率", "the chance a side wins a flag (odds)"),
    ("胜率", "胜算", "the chance a side wins a flag (odds)"),
    ("抽牌", "摸牌", "drawing a card (R5; 补牌 means outs)"),
    ("抽牌", "补牌之", "drawing a card (R5, R14: 抽牌之前/之后; 补牌 means outs)"),
    ("抽一张", "补一张", "drawing a card (R5; 补牌 means outs)"),
]


def _catalogue_texts() -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / "battleline_lab" / "locale" / "zh").glob("*.json")):
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            out.append((f"locale/zh/{path.name}: {key}", text))
    return out


def _lesson_texts(path: Path) -> list[tuple[str, str]]:
    book = nbformat.read(path, as_version=4)
    out = []
    for number, cell in enumerate(book.cells):
        out.append((f"{path.name} cell {number}", cell.source))
        for output in cell.get("outputs", []):
            texts = [output.get("text", "")] + [str(v) for v in output.get("data", {}).values()]
            out.extend((f"{path.name} cell {number} output", t) for t in texts)
    for model in book.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {}):
        state = book.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"][model]["state"]
        for name in ("value", "description", "tooltip"):
            if isinstance(state.get(name), str):
                out.append((f"{path.name} widget {name}", state[name]))
    return out


def _library_texts() -> list[tuple[str, str]]:
    out = []
    for pid in library.ids():
        puzzle = library.get(pid)
        for field, value in (("title", puzzle.title), ("note", puzzle.note)):
            if isinstance(value, dict) and value.get("zh"):
                out.append((f"puzzle {pid} {field}", value["zh"]))
    return out


SOURCES = {
    "catalogues": _catalogue_texts,
    "library": _library_texts,
    **{p.relative_to(ROOT / "notebooks" / "zh").as_posix(): (lambda p=p: _lesson_texts(p)) for p in ZH_LESSONS},
}


def _second_terms(texts: list[tuple[str, str]]) -> list[str]:
    return [
        f"{where}: {variant!r} for {idea}; write {term!r}"
        for where, text in texts
        for term, variant, idea in VARIANTS
        if variant in text
    ]


@pytest.mark.parametrize("source", SOURCES)
def test_one_term_per_idea(source: str) -> None:
    texts = SOURCES[source]()
    assert texts, f"{source}: nothing read"
    assert _second_terms(texts) == []


def test_a_second_term_is_found_where_it_hides(tmp_path: Path) -> None:
    """The scan reads a lesson's prose, its outputs and its widget state: a variant planted in each is found."""
    book = nbformat.v4.new_notebook()
    book.cells = [nbformat.v4.new_markdown_cell("楔形阵被封住了"), nbformat.v4.new_code_cell("x")]
    book.cells[1].outputs = [nbformat.v4.new_output("stream", text="泥沼下每一侧需要四张牌")]
    state = {"m": {"state": {"description": "谜题练习场"}}}
    book.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": state}}
    path = tmp_path / "planted.zh.ipynb"
    nbformat.write(book, path)
    found = _second_terms(_lesson_texts(path))  # "WHERE: VARIANT for IDEA; write TERM"
    assert [f.split(": ", 1)[1].split("; write")[0] for f in found] == [
        "'封住' for a Wedge blocked by cards face up (tag blocked-wedge, lesson 3)",
        "'泥沼' for Mud (R25; the seeds: 沼泽)",
        "'练习场' for the puzzle gym (lesson 5)",
    ]


@pytest.mark.parametrize(
    "lesson", ZH_LESSONS, ids=lambda p: p.name[:2] + ("-teachers" if "teachers" in p.parts else "")
)
def test_no_ascii_colon_after_chinese_in_what_a_lesson_shows(lesson: Path) -> None:
    """Full-width punctuation after Chinese (docs/i18n.md): a lesson's outputs, boards and widget
    texts never put ``:`` right after a Chinese character (``阵型A: 楔形阵`` was one)."""
    shown = [(w, t) for w, t in _lesson_texts(lesson) if "output" in w or "widget" in w]
    found = [f"{where}: {m.group(0)!r}" for where, text in shown for m in re.finditer(r"[\u4e00-\u9fff]:", text)]
    assert found == []
