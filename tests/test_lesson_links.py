"""Every link in every lesson opens: the rules one click away.

JupyterLab (``./dev lab``) and the site serve only ``notebooks/``: a link to ``../docs/rules.md``
gave 403/404.  The rules reference is ``notebooks/rules.md`` (made from ``docs/rules.md`` by
``tools/rules_page.py``, one ``### Rn`` heading per rule, so ``rules.md#R11`` opens at R11).
This test follows every link of every lesson — Markdown links in the prose and ``href``
attributes in the saved outputs — and requires a relative one to stay inside ``notebooks/``, to
name a file that exists and, with ``#anchor``, a heading of that page or notebook.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

from tests.solving import tap_proof

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
HREF = re.compile(r"""href=["']([^"']+)["']""")
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.MULTILINE)


def _tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("rules_page", ROOT / "tools" / "rules_page.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _anchors(text: str) -> set[str]:
    """The ids JupyterLab gives the headings of a rendered Markdown text (its text, spaces as '-')."""
    return {re.sub(r"\s", "-", h.replace("*", "").replace("`", "")) for h in HEADING.findall(text)}


def _page_anchors(path: Path) -> set[str]:
    if path.suffix == ".ipynb":
        book = nbformat.read(path, as_version=4)
        return set().union(*(_anchors(c.source) for c in book.cells if c.cell_type == "markdown"))
    return _anchors(path.read_text(encoding="utf-8"))


def _hrefs(value: object) -> list[str]:
    """Every ``href`` of a widget's saved state (the board's view model: a proof step's rule links)."""
    if isinstance(value, dict):
        own = [value["href"]] if isinstance(value.get("href"), str) else []
        return own + [link for v in value.values() for link in _hrefs(v)]
    if isinstance(value, list):
        return [link for v in value for link in _hrefs(v)]
    return []


def _links(path: Path) -> list[tuple[str, str]]:
    book = nbformat.read(path, as_version=4)
    found = [("widget state", link) for link in _hrefs(book.metadata.get("widgets", {}))]
    for number, cell in enumerate(book.cells):
        if cell.cell_type == "markdown":
            found += [(f"cell {number}", link) for link in MARKDOWN_LINK.findall(cell.source)]
        for output in cell.get("outputs", []):
            for value in output.get("data", {}).values():
                found += [(f"cell {number} output", link) for link in HREF.findall(str(value))]
    return found


def test_the_rules_page_is_up_to_date_and_has_every_rule() -> None:
    page = NOTEBOOKS / "rules.md"
    source = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert page.read_text(encoding="utf-8") == _tool().rules_page(source), "run: ./dev regen"
    rules = set(re.findall(r"^- \*\*(R\d+)\*\*", source, re.MULTILINE))
    assert len(rules) >= 31 and rules <= _page_anchors(page)


def _broken(lesson: Path, links: list[tuple[str, str]]) -> list[str]:
    """The links of ``lesson`` that do not open (a relative one resolved from the lesson's folder)."""
    broken = []
    for where, link in links:
        if re.match(r"^[a-z][a-z0-9+.-]*:", link) or link.startswith("#") and len(link) == 1:
            continue  # https://..., mailto:: not a file of the course
        target, _, anchor = link.partition("#")
        # JupyterLab (and the site) resolve a leading "/" to the folder they serve, notebooks/
        base = NOTEBOOKS if target.startswith("/") else lesson.parent
        path = (base / target.lstrip("/")).resolve() if target else lesson
        if NOTEBOOKS.resolve() not in [path, *path.parents]:
            broken.append(f"{where}: {link} is outside notebooks/ (the lab and the site serve only that)")
        elif not path.is_file():
            broken.append(f"{where}: {link}: no such file")
        elif anchor and anchor not in _page_anchors(path):
            broken.append(f"{where}: {link}: no heading {anchor!r} there")
    return broken


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.relative_to(NOTEBOOKS).with_suffix("").as_posix())
def test_every_link_in_a_lesson_opens(lesson: Path) -> None:
    assert _broken(lesson, _links(lesson)) == []


@pytest.mark.parametrize("folder", ["", "zh"])
def test_every_rule_id_of_a_proof_step_on_the_board_links_to_its_rule(
    folder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A puzzle solved in a lesson (its kernel runs in the lesson's folder: notebooks/ or notebooks/zh/)
    shows each step's rule ids as links; each one is followed as a lesson's link is."""
    from battleline_lab.widgets import PuzzleWidget

    lesson = next(p for p in LESSONS if p.parent == NOTEBOOKS / folder)  # a lesson of that folder
    monkeypatch.chdir(lesson.parent)
    widget = PuzzleWidget("seed-wedge-against-two-sixes", lang=folder or "en", record=False)
    widget.taps.action("answer", "yes")
    tap_proof(widget)
    steps = widget.board.view["proof"]["steps"]
    links = [("proof step", part["href"]) for step in steps for part in step if "href" in part]
    rules = [part["rule"] for step in steps for part in step if "href" in part]
    assert len(links) >= 2 and all(link.endswith(f"#{rule}") for (_w, link), rule in zip(links, rules, strict=True))
    assert all(link.startswith("../rules.md#" if folder else "rules.md#") for _w, link in links)
    assert _broken(lesson, links) == []


def test_every_rule_id_of_a_shown_proof_links_to_its_rule() -> None:
    """A claim proof in a lesson (``show_analysis``, or an analysis shown as the cell's result) links
    each ``[R12]`` of its steps to ``rules.md#R12``; the link test above follows each one."""
    from battleline_lab import Position, analyse_claim
    from battleline_lab.render.svg import RULES_PAGE, show_analysis

    analysis = analyse_claim(Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}}), 5)
    for shown in (show_analysis(analysis, "zh")._repr_html_(), analysis._repr_html_()):
        assert shown is not None
        steps = re.findall(r"<li>(.*?)</li>", shown)
        assert steps and all(re.search(r'\[<a class="bl-rule" href="/rules\.md#R\d+">R\d+</a>\]', s) for s in steps)
        assert RULES_PAGE == "/rules.md" and "[R" not in re.sub(r"\[<a[^>]*>R\d+</a>\]", "", shown)
    linked = [link for p in LESSONS for _w, link in _links(p) if link.startswith("/rules.md#R")]
    assert len(linked) > 20, "the lessons' saved proofs link their rules"


def test_the_lessons_link_the_rules_page() -> None:
    """Lessons 00 and 02, in both languages, open the rules page (at a rule where they cite one)."""
    for name in ("00-the-game-in-ten-minutes", "02-comparing-and-the-tie-rule"):
        for path in (NOTEBOOKS / f"{name}.ipynb", NOTEBOOKS / "zh" / f"{name}.zh.ipynb"):
            links = [link for _where, link in _links(path)]
            assert any(re.fullmatch(r"(\.\./)?rules\.md#R\d+", link) for link in links), path.name
