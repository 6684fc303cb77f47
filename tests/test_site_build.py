"""The parts of the site build that need no network: lesson copies and the data folder in Pyodide."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from battleline_lab.training import progress
from battleline_lab.training.stores.folders import _browser_data_dir
from battleline_lab.training.stores.sqlite import _sqlite_available

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("build_site", ROOT / "tools" / "build_site.py")
assert _spec and _spec.loader
build_site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_site)


def test_site_notebook_joins_list_outputs_trusts_them_and_names_the_pyodide_kernel() -> None:
    notebook = {
        "metadata": {"kernelspec": {"name": "python3"}},
        "cells": [
            {"cell_type": "markdown", "source": ["x"], "metadata": {}},
            {
                "cell_type": "code",
                "metadata": {},
                "outputs": [
                    {"output_type": "stream", "text": ["a\n", "b\n"]},
                    {"output_type": "display_data", "data": {"text/html": ["<b>\n", "</b>"], "text/plain": "x"}},
                ],
            },
        ],
    }
    out = build_site.site_notebook(notebook)
    code = out["cells"][1]
    assert code["outputs"][0]["text"] == "a\nb\n"
    assert code["outputs"][1]["data"] == {"text/html": "<b>\n</b>", "text/plain": "x"}
    assert code["metadata"]["trusted"] is True
    assert "trusted" not in out["cells"][0]["metadata"]
    assert out["metadata"]["kernelspec"]["name"] == "python"
    assert out["metadata"]["language_info"] == build_site.PYODIDE_LANGUAGE_INFO  # not modified on open
    assert "jupyter" not in code["metadata"]  # prints as well as shows: its code stays in sight


def test_cells_that_only_build_a_widget_are_collapsed_to_their_output() -> None:
    widget = {"output_type": "display_data", "data": {build_site.WIDGET_VIEW: {"model_id": "x"}, "text/plain": "w"}}
    printed = {"output_type": "stream", "name": "stdout", "text": "hi"}
    cells = [
        {"cell_type": "code", "metadata": {}, "source": "PuzzleWidget.from_file('x.yaml')", "outputs": [widget]},
        {"cell_type": "code", "metadata": {}, "source": "print('hi'); w", "outputs": [printed, widget]},
        {"cell_type": "code", "metadata": {}, "source": "x = 1", "outputs": []},
    ]
    out = build_site.site_notebook({"metadata": {}, "cells": cells})
    hidden = [cell["metadata"].get("jupyter", {}).get("source_hidden", False) for cell in out["cells"]]
    assert hidden == [True, False, False]


def test_front_page_has_the_course_in_order_with_goals_both_languages_and_the_lite_config() -> None:
    texts = json.loads((ROOT / "tools" / "site" / "course.json").read_text(encoding="utf-8"))
    config = '<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{}</script>'
    en = build_site.front_page("en", texts, ROOT / "notebooks", config)
    zh = build_site.front_page("zh", texts, ROOT / "notebooks", config)
    assert config in en and "<script type" not in en.replace(config, "")  # JSON data only, no script runs
    assert "http://" not in en and "https://" not in en  # nothing from another host
    order = [en.index(f"path={name}") for name in build_site.PATH_LESSONS]
    assert order == sorted(order) and en.index('id="practice"') > order[-1]
    assert en.index('id="teachers"') > en.index('id="practice"')
    assert 'id="start-here" href="read/00-the-game-in-ten-minutes.html"' in en  # start here: its reading page
    # each lesson: its reading page, and the notebook beside it (JupyterLab; the simple view on a phone)
    assert '<a class="name" href="read/03-claim-proofs.html">' in en
    assert 'href="lab/index.html?path=00-the-game-in-ten-minutes.ipynb"' in en
    assert 'href="notebooks/index.html?path=00-the-game-in-ten-minutes.ipynb"' in en
    assert '<a class="name" href="read/zh-03-claim-proofs.html">' in zh
    assert 'href="rules.html"' in en and 'href="zh.html"' in en and 'href="index.html"' in zh
    for goal in texts["en"]["goals"].values():
        assert build_site._esc(goal) in en
    assert "zh/03-claim-proofs.zh.ipynb" in zh and "zh/05-puzzle-gym.zh.ipynb" in zh and "（英文）" in zh
    assert "zh/teachers/01-writing-puzzles.zh.ipynb" in zh and "zh/07-outs-and-odds.zh.ipynb" in zh
    assert "古战阵" in zh and 'lang="zh"' in zh
    for rel in [*build_site.PATH_LESSONS, *build_site.PRACTICE_LESSONS, *build_site.TEACHER_LESSONS]:
        assert (ROOT / "notebooks" / rel).exists(), rel


def test_lock_closure_follows_depends_and_rejects_unknown_packages() -> None:
    lock = {"packages": {"a": {"depends": ["B_c"]}, "b-c": {"depends": []}, "d": {"depends": ["zz"]}}}
    assert build_site.lock_closure(lock, ["a"]) == ["a", "b-c"]
    with pytest.raises(SystemExit):
        build_site.lock_closure(lock, ["d"])


def test_data_dir_in_pyodide_is_on_the_browser_drive(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("BATTLELINE_LAB_DATA", raising=False)
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(progress, "BROWSER_DRIVE", tmp_path)
    monkeypatch.setattr(_browser_data_dir, "__defaults__", (tmp_path, None))
    assert progress.data_dir() == tmp_path / "battleline-data"
    assert _sqlite_available() is False  # JSON lines on the drive
    store, problem = progress.open_store()
    assert problem is None and isinstance(store, progress.JsonLinesStore)
    assert store.path == (tmp_path / "battleline-data" / "progress.jsonl").resolve()
    monkeypatch.setenv("BATTLELINE_LAB_DATA", str(tmp_path / "mine"))
    assert progress.data_dir() == tmp_path / "mine"  # an explicit folder still wins


def _widget_state(board_hidden: bool = False) -> dict[str, object]:
    """A saved gym-like tree: a box holding a title, a board (SVG) and a hidden box with another SVG."""

    def model(name: str, **state: object) -> dict[str, object]:
        return {"model_name": name, "state": state}

    return {
        "box": model("VBoxModel", children=["IPY_MODEL_title", "IPY_MODEL_board", "IPY_MODEL_hidden"]),
        "title": model("HTMLModel", value="<b>Can you claim flag 6?</b>"),
        "board": model("HTMLModel", value='<svg class="bl-board">board</svg>', layout="IPY_MODEL_shown"),
        "shown": model("LayoutModel", display="none" if board_hidden else None),
        "hidden": model("VBoxModel", children=["IPY_MODEL_other"], layout="IPY_MODEL_off"),
        "off": model("LayoutModel", display="none"),
        "other": model("HTMLModel", value="<svg>not shown</svg>"),
    }


COLD_OUTPUTS = [  # (id, the saved output's data, what the site's copy shows, the picture's SVGs)
    ("game: its own SVG", {"image/svg+xml": "<svg>game</svg>", "text/plain": "g"}, "text/html", "<svg>game</svg>"),
    ("gym: boards of its state", {"text/plain": "gym"}, "text/html", '<svg class="bl-board">board</svg>'),
]


@pytest.mark.parametrize(("data", "shown", "svg"), [c[1:] for c in COLD_OUTPUTS], ids=[c[0] for c in COLD_OUTPUTS])
def test_a_saved_widget_shows_as_its_picture_on_a_cold_open(data: dict[str, object], shown: str, svg: str) -> None:
    """On the site a saved widget would say "Loading widget..." until the kernel is up (15-40 s):
    the site's copy keeps the picture (or makes one from the saved boards) and drops the view."""
    data = {build_site.WIDGET_VIEW: {"model_id": "box", "version_major": 2}, **data}
    cell = {
        "cell_type": "code",
        "metadata": {},
        "source": "g",
        "outputs": [{"output_type": "display_data", "data": data}],
    }
    state = {build_site.WIDGET_STATE: {"state": _widget_state(), "version_major": 2}}
    for lang in ("en", "zh"):
        fresh = json.loads(json.dumps({"metadata": {"widgets": state}, "cells": [cell]}))
        out = build_site.site_notebook(fresh, lang)
        saved = out["cells"][0]["outputs"][0]["data"]
        assert build_site.WIDGET_VIEW not in saved and shown in saved
        assert "widgets" not in out["metadata"]  # no saved view is drawn from the state any more
        assert out["cells"][0]["metadata"]["jupyter"]["source_hidden"] is True  # still only a widget's cell
        if svg:
            assert svg in saved[shown] and "not shown" not in saved[shown] and "Can you claim" not in saved[shown]
            assert build_site.COLD_NOTE[lang] in saved[shown]


def test_a_lone_html_widget_shows_its_saved_value_and_the_note() -> None:
    """The editor's proof lines (``editor.engine``, an HTML widget): its saved value, as JupyterLab
    draws it from the saved state, with the note; not "Loading widget..." until the kernel is up."""
    state = {"proof": {"model_name": "HTMLModel", "state": {"value": "<div>The engine's answer: false</div>"}}}
    output = {"output_type": "display_data", "data": {build_site.WIDGET_VIEW: {"model_id": "proof"}, "text/plain": "h"}}
    assert build_site.cold_picture(output, state, "run it") is True
    shown = output["data"]["text/html"]
    assert build_site.WIDGET_VIEW not in output["data"]
    assert "The engine's answer: false" in shown and "run it" in shown


def test_a_saved_widget_without_a_picture_stays_a_widget() -> None:
    data = {build_site.WIDGET_VIEW: {"model_id": "box"}, "text/plain": "w"}
    state = _widget_state(board_hidden=True)  # its only board hidden: no picture to show
    assert build_site.saved_pictures(state, "box") == []
    output = {"output_type": "display_data", "data": dict(data)}
    assert build_site.cold_picture(output, state, "note") is False and output["data"] == data
    notebook = {
        "metadata": {"widgets": {build_site.WIDGET_STATE: {"state": state}}},
        "cells": [{"cell_type": "code", "metadata": {}, "source": "w", "outputs": [output]}],
    }
    assert "widgets" in build_site.site_notebook(notebook)["metadata"]  # its view still needs the state


#: The lessons whose widgets have a board (the teachers' editor too): each opens on the site showing its picture.
BOARD_LESSONS = ["03-claim-proofs", "05-puzzle-gym", "06-play-a-game", "teachers/02-puzzle-editor"]


@pytest.mark.parametrize("lesson", [*BOARD_LESSONS, *(f"zh/{name}.zh" for name in BOARD_LESSONS)])
def test_the_lessons_with_a_board_open_on_the_site_without_a_loader(lesson: str) -> None:
    path = ROOT / "notebooks" / f"{lesson}.ipynb"
    book = json.loads(path.read_text(encoding="utf-8"))
    assert any(build_site.WIDGET_VIEW in o.get("data", {}) for c in book["cells"] for o in c.get("outputs", []))
    out = build_site.site_notebook(book, "zh" if lesson.startswith("zh/") else "en")
    left = [o for c in out["cells"] for o in c.get("outputs", []) if build_site.WIDGET_VIEW in o.get("data", {})]
    assert left == [], f"{lesson}: a saved widget with no picture"
    hidden = [c for c in out["cells"] if c.get("metadata", {}).get("jupyter", {}).get("source_hidden")]
    shown = [o["data"] for c in hidden for o in c["outputs"] if "data" in o]
    assert all("<svg" in str(d.get("text/html", d.get("image/svg+xml", ""))) for d in shown), lesson
    note = build_site.COLD_NOTE["zh" if lesson.startswith("zh/") else "en"]
    pictures = [str(o["data"].get("text/html", "")) for c in out["cells"] for o in c.get("outputs", []) if "data" in o]
    pictures = [p for p in pictures if "bl-saved-picture" in p]
    assert pictures and all(note in p for p in pictures), lesson  # each with its one line: run the cell


def test_lab_page_puts_the_history_script_first_in_the_head_before_jupyterlites_own() -> None:
    """The site's ``lab/index.html`` gets ``tools/site/lab-history.js`` inline, before any script of
    JupyterLite's (so that it is in place when JupyterLite routes ``?path=``); a page of another
    shape, or a script that cannot be inlined, stops the build."""
    built = (
        "<!DOCTYPE html><html>\n<head>\n<title>JupyterLite</title>\n"
        '<script id="jupyter-config-data" type="application/json">{}</script>\n'
        "<script>import('../config-utils.js')</script>\n</head><body></body></html>"
    )
    script = build_site.LAB_HISTORY.read_text(encoding="utf-8")
    page = build_site.lab_page(built, script)
    ours = page.index('<script id="battleline-lab-history">')
    assert page.index("<head>") < ours < page.index('<script id="jupyter-config-data"')
    assert script.strip() in page and page.count("</script>") == 3
    end = page.index("</script>", ours) + len("</script>")
    assert page[: ours - 1] + page[end:] == built  # nothing else of JupyterLite's page changed
    with pytest.raises(SystemExit, match="no <head>"):
        build_site.lab_page("<html><script>x</script><head></head></html>", script)
    with pytest.raises(SystemExit, match="cannot be inlined"):
        build_site.lab_page(built, "let s = '</script>';")


#: JupyterLite's start-up as its app pages have it (notebooks/index.html of JupyterLite 0.8).
BOOTING = """<!DOCTYPE html><html>
<head>
    <title>Jupyter Notebook - Notebooks</title>
    <script id="jupyter-config-data" type="application/json" data-jupyter-lite-root="..">
      {}
    </script>
    <script>
      (async function () {
        const { pathname } = window.location;
        await import(
          '../config-utils.js?_=c1d836f'
        );
      }.call(this));
    </script>
</head><body></body></html>"""


def test_every_jupyterlite_page_waits_for_the_drive_gate_before_jupyterlite_starts() -> None:
    """Each app page gets ``tools/site/drive-gate.js`` inline, first in its head, with the site's
    JupyterLite version filled in, and JupyterLite's start-up awaits it before it imports
    ``config-utils.js``; nothing else of the page changes.  A page that does not start JupyterLite in
    exactly one place, a version that is not one, or a script without its one version slot stops the build."""
    gate = build_site.DRIVE_GATE.read_text(encoding="utf-8")
    page = build_site.gated_page(BOOTING, gate, "0.8.6")
    ours = page.index('<script id="battleline-drive-gate">')
    assert page.index("<head>") < ours < page.index('<script id="jupyter-config-data"')
    assert 'var VERSION = "0.8.6";' in page and build_site.VERSION_SLOT not in page
    waits = page.index("await window.battlelineLabDriveReady();")
    assert ours < waits < page.index("await import(\n          '../config-utils.js")
    end = page.index("</script>", ours) + len("</script>")
    assert (page[: ours - 1] + page[end:]).replace("await window.battlelineLabDriveReady();\n        ", "") == BOOTING
    assert build_site.BOOT.search(page)  # still an app page (a second build finds it again)
    for bad, why in [
        (BOOTING.replace("config-utils", "other"), "starts in 0 places"),
        (BOOTING.replace("</head>", "<script>\n  await import('../config-utils.js')</script></head>"), "in 2 places"),
    ]:
        with pytest.raises(SystemExit, match=why):
            build_site.gated_page(bad, gate, "0.8.6")
    with pytest.raises(SystemExit, match="not a version"):
        build_site.gated_page(BOOTING, gate, '0.8"; alert(1); "')
    with pytest.raises(SystemExit, match="no single"):
        build_site.gated_page(BOOTING, "window.x = 1;", "0.8.6")


def test_the_drive_gate_goes_into_every_app_page_of_a_built_site_and_nowhere_else(tmp_path: Path) -> None:
    """``write_app_pages`` on a built site: the lab page gets the history script and the gate, every
    other page that starts JupyterLite the gate, the site's own pages (the front page, ``read/``)
    nothing; a site whose lab or notebook view is missing stops the build."""
    (tmp_path / "jupyter-lite.json").write_text('{"jupyter-config-data": {"appVersion": "0.8.6"}}')
    for app in ("lab", "notebooks", "tree"):
        (tmp_path / app).mkdir()
        (tmp_path / app / "index.html").write_text(BOOTING)
    (tmp_path / "read").mkdir()
    (tmp_path / "read" / "index.html").write_text("<html><head></head><body>a reading page</body></html>")
    (tmp_path / "index.html").write_text("<html><head></head><body>the front page</body></html>")
    build_site.write_app_pages(tmp_path)
    for app in ("lab", "notebooks", "tree"):
        html = (tmp_path / app / "index.html").read_text()
        assert html.count('<script id="battleline-drive-gate">') == 1, app
        assert html.count("await window.battlelineLabDriveReady();") == 1, app
        assert ('<script id="battleline-lab-history">' in html) == (app == "lab"), app
    assert "battleline" not in (tmp_path / "read" / "index.html").read_text()
    assert "battleline" not in (tmp_path / "index.html").read_text()
    (tmp_path / "notebooks" / "index.html").unlink()
    with pytest.raises(SystemExit, match="app pages not found"):
        build_site.write_app_pages(tmp_path)


def _fake_wheel(folder: Path, name: str, version: str) -> Path:
    wheel = folder / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    wheel.write_bytes(name.encode())
    return wheel


def _site_lock(tmp_path: Path) -> dict[str, Any]:
    names = ("traitlets", "ipython")
    packages = {name: {"name": name, "version": "1", "depends": [], "file_name": f"{name}.whl"} for name in names}
    kernel = {name: _fake_wheel(tmp_path, name, "1") for name in names}
    extra = {name: _fake_wheel(tmp_path, name, row.version) for name, row in build_site.SITE_WHEELS.items()}
    pyodide = {"info": {"python": "3.13.2"}, "packages": packages}
    lock: dict[str, Any] = build_site.site_lock(
        pyodide, kernel, _fake_wheel(tmp_path, "battleline-lab", "9"), extra, {}
    )
    return lock


def test_each_site_wheel_is_pinned_once_in_the_one_table() -> None:
    """The build venv's requirements pin none of the table's wheels: their front ends come from the table."""
    requirements = " ".join(build_site._requirement_lines()).lower().replace("_", "-")
    assert build_site.front_end_pins() == ["jupyterlab_widgets==3.0.17", "anywidget==0.11.0"]
    for name in build_site.SITE_WHEELS:
        assert name not in requirements
    assert build_site.preload()[0] == "battleline-lab"
    assert set(build_site.SITE_WHEELS) < set(build_site.preload())


@pytest.mark.parametrize("row", ["ruamel-yaml"])
def test_one_more_row_of_the_table_reaches_the_lock_and_the_preload(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, row: str
) -> None:
    """A new pure dependency of the package is one row: its lock entry, the package's depends, the preload."""
    table = dict(build_site.SITE_WHEELS, **{row: build_site.SiteWheel("0.18.16", ("ruamel",), ours=True)})
    monkeypatch.setattr(build_site, "SITE_WHEELS", table)
    lock = _site_lock(tmp_path)
    packages = lock["packages"]
    assert packages[row]["version"] == "0.18.16" and packages[row]["imports"] == ["ruamel"]
    assert row in packages["battleline-lab"]["depends"]
    assert row in build_site.preload()


def test_the_site_lock_refuses_a_dependency_it_would_not_ship(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = dict(build_site.SITE_WHEELS, extra=build_site.SiteWheel("1", ("extra",), ("not-shipped",)))
    monkeypatch.setattr(build_site, "SITE_WHEELS", table)
    with pytest.raises(SystemExit, match="not-shipped"):
        _site_lock(tmp_path)


@pytest.mark.parametrize(
    ("rel", "page"),
    [
        ("03-claim-proofs.ipynb", "03-claim-proofs.html"),
        ("zh/03-claim-proofs.zh.ipynb", "zh-03-claim-proofs.html"),
        ("teachers/01-writing-puzzles.ipynb", "teachers-01-writing-puzzles.html"),
        ("zh/teachers/02-puzzle-editor.zh.ipynb", "zh-teachers-02-puzzle-editor.html"),
    ],
)
def test_each_lesson_has_one_reading_page_in_one_flat_folder(rel: str, page: str) -> None:
    assert build_site.reader_name(rel) == page


LESSON_SET = {"03-claim-proofs.ipynb", "zh/03-claim-proofs.zh.ipynb", "teachers/01-writing-puzzles.ipynb"}


@pytest.mark.parametrize(
    ("href", "rel", "to"),
    [
        pytest.param("rules.md#R12", "03-claim-proofs.ipynb", "../rules.html#R12", id="rule-R12"),
        pytest.param("/rules.md#R9", "03-claim-proofs.ipynb", "../rules.html#R9", id="proof-step-rule-R9"),
        pytest.param("../rules.md#R13", "zh/03-claim-proofs.zh.ipynb", "../rules.html#R13", id="zh-rule-R13"),
        pytest.param("rules.md", "03-claim-proofs.ipynb", "../rules.html", id="rules-page"),
        pytest.param("03-claim-proofs.zh.ipynb", "zh/03-claim-proofs.zh.ipynb", "zh-03-claim-proofs.html", id="zh"),
        pytest.param(
            "../03-claim-proofs.ipynb", "zh/03-claim-proofs.zh.ipynb", "03-claim-proofs.html", id="en-from-zh"
        ),
        pytest.param(
            "../../teachers/01-writing-puzzles.ipynb",
            "zh/teachers/x.zh.ipynb",
            "teachers-01-writing-puzzles.html",
            id="teachers-from-zh-teachers",
        ),
        pytest.param("https://example.org/a.ipynb", "03-claim-proofs.ipynb", None, id="other-host-untouched"),
        pytest.param("#top", "03-claim-proofs.ipynb", None, id="anchor-untouched"),
        pytest.param("missing.ipynb", "03-claim-proofs.ipynb", None, id="not-a-lesson-untouched"),
    ],
)
def test_a_reading_pages_links_go_to_rules_html_and_other_reading_pages(href: str, rel: str, to: str | None) -> None:
    assert build_site.reader_link(href, rel, LESSON_SET) == to


def _lesson_three_page() -> tuple[str, dict[str, str], dict[str, Any]]:
    notebook = json.loads((ROOT / "notebooks" / "03-claim-proofs.ipynb").read_text(encoding="utf-8"))
    sources = [
        "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        for c in notebook["cells"]
        if c["cell_type"] == "markdown"
    ]
    markdown = build_site.render_markdown(Path(sys.executable), sources)
    files: dict[str, str] = {}
    texts = build_site.course_texts()
    page = build_site.reader_page(notebook, "03-claim-proofs.ipynb", "en", texts, markdown, LESSON_SET, files)
    return page, files, notebook


def test_lesson_three_reading_page_carries_its_saved_widgets_as_data_and_the_notebook_link() -> None:
    page, files, notebook = _lesson_three_page()
    saved = notebook["metadata"]["widgets"][build_site.WIDGET_STATE]["state"]
    widget_cells = [c for c in notebook["cells"] if c["cell_type"] == "code" and build_site.builds_only_a_widget(c)]
    root = widget_cells[0]["outputs"][0]["data"][build_site.WIDGET_VIEW]["model_id"]
    assert f'<div class="bl-out bl-widget" data-model-id="{root}">' in page  # reader.js draws it there
    assert "<svg" in page.split(f'data-model-id="{root}">')[1].split("</div>")[0]  # the saved picture until then
    # the saved state: JSON data in the page (never markup), each board module a file of the site
    data = page.split('<script type="application/json" id="bl-widget-state">')[1].split("</script>")[0]
    state = json.loads(data)["state"]
    assert set(state) == set(saved) and "<" not in data
    boards = [m for m in state.values() if m["model_name"] == "AnyModel"]
    assert boards and all(m["state"]["_esm"] in files and m["state"]["_esm"].startswith("esm/") for m in boards)
    assert (
        files[boards[0]["state"]["_esm"]]
        == next(m for m in saved.values() if m["model_name"] == "AnyModel")["state"]["_esm"]
    )
    assert (
        boards[0]["state"]["view"] == next(m for m in saved.values() if m["model_name"] == "AnyModel")["state"]["view"]
    )
    # the lesson's text rendered, its rule links to the site's rules page, nothing left pointing at rules.md
    assert "<h1>Lesson 3" in page and 'href="../rules.html#R12"' in page and "rules.md" not in page
    # the notebook's "run the cells first" paragraph is left out: the page needs no Run All
    assert "Run the cells first" in json.dumps(notebook) and "Run the cells first" not in page
    # the code of the cell that only shows the puzzle, and the engine checks, folded away; other code in sight
    assert page.count('<details class="bl-code-fold">') == sum(
        1
        for c in notebook["cells"]
        if c["cell_type"] == "code"
        and (build_site.builds_only_a_widget(c) or c["metadata"].get("jupyter"))
        and not build_site.is_export_cell(c)  # the HTML export's own cell: left out of the page
    )
    fold = '<details class="bl-code-fold"><summary>Code</summary><pre class="bl-code"><code>'
    assert fold + "from battleline_lab.widgets import PuzzleWidget" in page and fold + "# engine check" in page
    assert '<pre class="bl-code"><code>blocked = Position.build(' in page
    # the notebook one click away: JupyterLab, and the simple view on a phone
    assert 'href="../lab/index.html?path=03-claim-proofs.ipynb"' in page
    assert 'href="../notebooks/index.html?path=03-claim-proofs.ipynb"' in page
    assert '<script type="module" src="reader-page.js"></script>' in page
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "") and "https://" not in page
