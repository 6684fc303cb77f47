"""A lesson exported to static HTML draws its saved widgets with no kernel (docs/site.md "Exported to HTML").

Each lesson that shows a widget ends with one hidden cell (``tools/run_lessons.py``,
``with_export_cell``) whose saved output is an inline module script: the reading view's widget
manager (``tools/site/reader.js``), ``export.js`` and ``reader.css``, with the views that need
Python as data (computed by the site build's ``needs_python``, not in JavaScript).  These tests
check that the cell is in exactly those lessons, as ``run_lessons`` writes it now (a stale or
tampered cell fails), hidden, tagged for nbval, naming no web address, and that the site leaves it
out.  ``tests/browser/test_export_browser.py`` opens real exports in Chromium.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.scripts import load_script
from tests.test_widgets_no_script import scripts

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
run_lessons = load_script(ROOT / "tools" / "run_lessons.py", "run_lessons")
build_site = load_script(ROOT / "tools" / "build_site.py", "build_site")
TAG = build_site.HTML_EXPORT_TAG

LESSONS = sorted(
    p.relative_to(NOTEBOOKS).as_posix() for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts
)

#: The lessons that show widgets, and the classes of the shown widgets that need Python (their
#: buttons, menus or fields talk to a kernel), in the order shown; a puzzle answers from its table.
BOARD_LESSONS: dict[str, list[str]] = {
    "01-cards-and-formations.ipynb": ["bl-explorer"],
    "02-comparing-and-the-tie-rule.ipynb": [],
    "03-claim-proofs.ipynb": [],
    "05-puzzle-gym.ipynb": ["bl-gym"],
    "06-play-a-game.ipynb": ["bl-game"],
    "08-three-at-the-table.ipynb": ["bl-game"],
    "teachers/01-writing-puzzles.ipynb": [],
    "teachers/02-puzzle-editor.ipynb": ["bl-editor"],
}
BOARD_LESSONS |= {
    "zh/" + rel.removesuffix(".ipynb") + ".zh.ipynb": classes for rel, classes in list(BOARD_LESSONS.items())
}
#: What the export cell's script may never name: an address, a CDN, a request.
NO_ADDRESS = ("http", "://", "//cdn", "unpkg", "jsdelivr", "cdnjs", "fetch(", "xmlhttprequest", " src=", "<link")


def _load(rel: str) -> dict[str, Any]:
    return json.loads((NOTEBOOKS / rel).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _export_cells(nb: dict[str, Any]) -> list[dict[str, Any]]:
    return [cell for cell in nb["cells"] if TAG in cell.get("metadata", {}).get("tags", [])]


def _script(cell: dict[str, Any]) -> str:
    (output,) = cell["outputs"]
    html = output["data"]["text/html"]
    return "".join(html) if isinstance(html, list) else str(html)


def _data(script: str) -> dict[str, Any]:
    """The data the script hands to ``drawExport`` (its last line)."""
    literal = script.rsplit("drawExport(document, renderWidget, ", 1)[1].rsplit(");\n</script>", 1)[0]
    return json.loads(literal)  # type: ignore[no-any-return]


def test_the_table_of_board_lessons_is_every_lesson_that_shows_a_widget() -> None:
    shows = {rel for rel in LESSONS if any(True for _ in run_lessons._views(_load(rel)))}
    assert shows == set(BOARD_LESSONS)
    assert len(shows) == 16 and len(LESSONS) == 22  # the ones without: 00, 04, 07 in both languages


@pytest.mark.parametrize("rel", LESSONS)
def test_the_export_cell_is_the_last_cell_of_exactly_the_lessons_with_widgets(rel: str) -> None:
    nb = _load(rel)
    cells = _export_cells(nb)
    if rel not in BOARD_LESSONS:
        assert cells == [], f"{rel}: shows no widget, so no export cell"
        return
    assert len(cells) == 1, f"{rel}: run `python tools/run_lessons.py --ids-only notebooks/{rel}`"
    assert nb["cells"][-1] is cells[0]


@pytest.mark.parametrize("rel", sorted(BOARD_LESSONS))
def test_the_export_cell_is_up_to_date_hidden_tagged_and_only_a_comment(rel: str) -> None:
    nb = _load(rel)
    (cell,) = _export_cells(nb)
    fresh = run_lessons.with_export_cell(nb, rel)
    assert fresh == nb, f"{rel}: the export cell is stale: run `python tools/run_lessons.py --ids-only notebooks/{rel}`"
    assert cell["id"] == TAG and cell["cell_type"] == "code"
    assert cell["metadata"]["jupyter"]["source_hidden"] is True
    assert sorted(cell["metadata"]["tags"]) == sorted(["nbval-ignore-output", TAG])  # nbval runs it, output ignored
    source = "".join(cell["source"])
    assert source.strip() and all(line.startswith("#") for line in source.splitlines())
    code_cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert cell["execution_count"] == len(code_cells)  # run in order with the rest (tests/test_notebooks.py)


@pytest.mark.parametrize("rel", sorted(BOARD_LESSONS))
def test_the_export_script_is_one_module_naming_no_address(rel: str) -> None:
    script = _script(_export_cells(_load(rel))[0])
    assert script.startswith('<script type="module">\n') and script.endswith("</script>\n")
    # one script element, as a browser parses it (the `<script ...>` named in its comments is its text)
    assert scripts(script) == ["<script>"] and script.lower().count("</script") == 1
    lowered = script.lower()
    assert [word for word in NO_ADDRESS if word in lowered] == []
    # what it is made of: the reading view's widget manager, the export's drawing, its stylesheet
    for name in ("reader.js", "export.js"):
        assert (ROOT / "tools" / "site" / name).read_text(encoding="utf-8") in script
    assert _data(script)["css"] == (ROOT / "tools" / "site" / "reader.css").read_text(encoding="utf-8")


@pytest.mark.parametrize("rel", sorted(BOARD_LESSONS))
def test_the_script_names_the_views_that_need_python_as_the_site_build_computes_them(rel: str) -> None:
    nb = _load(rel)
    data = _data(_script(_export_cells(nb)[0]))
    state = nb["metadata"]["widgets"][run_lessons.STATE]["state"]
    views = list(dict.fromkeys(view["model_id"] for view in run_lessons._views(nb)))
    assert data["needsPython"] == [view for view in views if build_site.needs_python(state, view)]
    classes = [state[view]["state"]["_dom_classes"][0] for view in data["needsPython"]]
    assert classes == BOARD_LESSONS[rel]
    lang = "zh" if rel.startswith("zh/") else "en"
    texts = build_site.course_texts()[lang]
    assert data["texts"] == {"needsPython": texts["needs_python"], "note": texts["needs_python_note"]}
    assert data["cell"] == TAG


def test_a_tampered_or_stale_export_cell_is_rewritten_and_a_lesson_without_widgets_loses_it() -> None:
    nb = _load("03-claim-proofs.ipynb")
    tampered = copy.deepcopy(nb)
    html = _export_cells(tampered)[0]["outputs"][0]["data"]["text/html"]
    html.insert(1, "alert(1);\n")
    assert run_lessons.with_export_cell(tampered, "03-claim-proofs.ipynb") == nb
    moved = copy.deepcopy(nb)  # an old export cell in the middle: taken out, the new one last
    moved["cells"].insert(0, moved["cells"].pop())
    assert run_lessons.with_export_cell(moved, "03-claim-proofs.ipynb") == nb
    plain = _load("04-tactics-cards.ipynb")
    stale = copy.deepcopy(plain)
    stale["cells"].append(copy.deepcopy(_export_cells(nb)[0]))
    assert run_lessons.with_export_cell(stale, "04-tactics-cards.ipynb") == plain


def test_the_export_cell_speaks_the_lessons_language() -> None:
    en = _data(_script(_export_cells(_load("06-play-a-game.ipynb"))[0]))
    zh = _data(_script(_export_cells(_load("zh/06-play-a-game.zh.ipynb"))[0]))
    assert "Python" in en["texts"]["note"] and "需要" not in en["texts"]["note"]
    assert "需要 Python" in zh["texts"]["note"]


def test_a_script_that_would_end_the_inline_script_is_refused_with_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    front = tmp_path / "site"
    shutil.copytree(ROOT / "tools" / "site", front)
    (front / "export.js").write_text('// ok\nconst a = 1;\nconst b = "</script>";\n', encoding="utf-8")
    monkeypatch.setattr(run_lessons._builder, "FRONT", front)
    with pytest.raises(SystemExit) as refused:
        run_lessons.with_export_cell(_load("03-claim-proofs.ipynb"), "03-claim-proofs.ipynb")
    assert str(refused.value).startswith(f"{front / 'export.js'}:3:12: error: '</script'")


def test_the_site_leaves_the_export_cell_out_of_its_notebooks_and_reading_pages() -> None:
    nb = _load("03-claim-proofs.ipynb")
    assert len(_export_cells(nb)) == 1
    served = build_site.site_notebook(copy.deepcopy(nb), "en")
    assert _export_cells(served) == [] and len(served["cells"]) == len(nb["cells"]) - 1
    texts = build_site.course_texts()
    page = build_site.reader_page(nb, "03-claim-proofs.ipynb", "en", texts, {}, {"03-claim-proofs.ipynb"}, {})
    assert "drawExport" not in page and "drawing the saved boards" not in page
    assert page.count("<script") == 3  # the page's own: the saved state, the live texts, reader-page.js
