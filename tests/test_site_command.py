"""``battleline-lab site --puzzles DIR [--out DIR]``: the course site with the teacher's set as a gym page.

The teacher's puzzles are checked first (a bad file: its located errors, exit 2, nothing built
or run); the builder (``tools/build_site.py``, shipped in the wheel as ``battleline_lab/sitebuild/``)
then gets the folder, copies its puzzle files as data, and adds a gym page on them to the front page.
The build itself (registries, JupyterLite) is tests/browser/test_site_browser.py's; the wheel's
copy of the builder is tests/test_wheel.py's.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from battleline_lab.cli import main, site
from battleline_lab.quiz import library

ROOT = Path(__file__).resolve().parents[1]
GOOD = "id: ours\ntitle: Ours\nflags: {5: {you: [r3, r4, r5], opponent: [b8]}, 2: {opponent: [g2, g3]}}\n"
GOOD += "question: {kind: claim, flag: 5}\nanswer: false\n"
LOCATED = re.compile(r"^.+:\d+:\d+: error: ", re.M)


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The builder's calls (none is made for real: it needs the registries)."""
    calls: list[dict[str, Any]] = []

    def build(out: Path, cache: Path, *, bytecode: bool = True, puzzles: Path | None = None) -> Path:
        calls.append({"out": out, "cache": cache, "bytecode": bytecode, "puzzles": puzzles})
        return out

    monkeypatch.setattr(site, "builder", lambda: SimpleNamespace(build=build))
    return calls


@pytest.mark.parametrize(
    "name,text",
    [
        ("syntax.yaml", "id: x\nflags: {5: [\n"),
        ("unknown-card.yaml", GOOD.replace("r5", "r15")),
        ("no-question.yaml", "id: x\nflags: {5: {you: [r3]}}\nanswer: true\n"),
        ("script.yaml", GOOD.replace("title: Ours", "title: <script>alert(1)</script>").replace("b8", "zz")),
    ],
)
def test_a_bad_puzzle_file_is_a_located_error_and_nothing_is_built(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], built: list[dict[str, Any]], name: str, text: str
) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / name).write_text(text, encoding="utf-8")
    assert main(["site", "--puzzles", str(folder), "--out", str(tmp_path / "site")]) == 2
    err = capsys.readouterr().err
    assert LOCATED.search(err) and name in err and "Traceback" not in err
    assert "site not built: 1 puzzle file has errors (above)" in err.strip().splitlines()[-1]
    assert built == [] and not (tmp_path / "site").exists()


@pytest.mark.parametrize("what", ["missing", "empty"])
def test_a_folder_with_no_puzzles_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], built: list[dict[str, Any]], what: str
) -> None:
    folder = tmp_path / "mine"
    if what == "empty":
        folder.mkdir()
    assert main(["site", "--puzzles", str(folder)]) == 2
    assert LOCATED.search(capsys.readouterr().err) and built == []


def test_good_puzzles_go_to_the_builder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], built: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "ours.yaml").write_text(GOOD, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["site", "--puzzles", "mine"]) == 0
    [call] = built
    assert call["puzzles"] == folder.resolve() and call["out"] == (tmp_path / site.DEFAULT_OUT).resolve()
    assert call["bytecode"] is True
    assert "built the site in" in capsys.readouterr().out


@pytest.mark.parametrize("before", ["a file", "a folder of other files"])
def test_an_out_that_is_not_a_site_built_before_is_never_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], built: list[dict[str, Any]], before: str
) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "ours.yaml").write_text(GOOD, encoding="utf-8")
    out = tmp_path / "Documents"
    if before == "a file":
        out.write_text("keep me", encoding="utf-8")
    else:
        out.mkdir()
        (out / "thesis.txt").write_text("keep me", encoding="utf-8")
    assert main(["site", "--puzzles", str(folder), "--out", str(out)]) == 2
    assert "nothing was changed" in capsys.readouterr().err and built == []
    assert (out if out.is_file() else out / "thesis.txt").read_text(encoding="utf-8") == "keep me"


def test_a_builder_stop_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def build(out: Path, cache: Path, *, bytecode: bool = True, puzzles: Path | None = None) -> Path:
        raise SystemExit("error: npm pack gave no pyodide tarball")

    monkeypatch.setattr(site, "builder", lambda: SimpleNamespace(build=build))
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "ours.yaml").write_text(GOOD, encoding="utf-8")
    assert main(["site", "--puzzles", str(folder), "--out", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith("error: site not built: npm pack gave no pyodide tarball")


# -- the builder's side -------------------------------------------------------------------------


def test_the_builder_is_the_checkouts_here_and_every_file_it_reads_is_bundled_into_the_wheel() -> None:
    import ast

    # the build hook's list of what it copies to battleline_lab/sitebuild/ (setup.py runs setup() on import)
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    [bundled] = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "SITE_BUILD" for t in node.targets)
    ]
    assert site.builder_path() == ROOT / "tools" / "build_site.py"
    build = site.builder()
    needed = [build.REQUIREMENTS, build.COMPILE_SCRIPT, build.LAB_HISTORY, build.FRONT / "course.json"]
    needed += [build.FRONT / "style.css", build.ROOT / "docs" / "rules.md", site.builder_path()]
    assert {p.relative_to(ROOT).as_posix() for p in needed} <= set(bundled)
    assert all((ROOT / name).is_file() for name in bundled)


def test_the_teachers_set_becomes_a_gym_page_linked_from_both_front_pages(tmp_path: Path) -> None:
    build = site.builder()
    folder = tmp_path / "mine"
    (folder / "week-1").mkdir(parents=True)
    shutil.copyfile(library.path("one-end-open"), folder / "week-1" / "one.yaml")
    (folder / "notes.txt").write_text("not a puzzle", encoding="utf-8")
    contents = tmp_path / "contents"
    texts = build.course_texts()
    assert build.copy_class_puzzles(folder, contents, texts) == [Path("week-1/one.yaml")]
    assert (contents / "class-puzzles" / "week-1" / "one.yaml").read_bytes() == (
        folder / "week-1" / "one.yaml"
    ).read_bytes()
    assert not (contents / "class-puzzles" / "notes.txt").exists()
    for lang, rel, source in [
        ("en", "class-puzzles.ipynb", "PuzzleGym(\"class-puzzles\", lang='en')"),
        ("zh", "zh/class-puzzles.zh.ipynb", "PuzzleGym(\"../class-puzzles\", lang='zh')"),
    ]:
        book = json.loads((contents / rel).read_text(encoding="utf-8"))
        assert book["metadata"]["kernelspec"]["name"] == "python"
        assert source in book["cells"][1]["source"] and texts[lang]["class_gym"] in book["cells"][0]["source"]
        page = build.front_page(lang, texts, ROOT / "notebooks", class_gym=True)
        assert f'href="lab/index.html?path={rel}"' in page and texts[lang]["class_gym"] in page
        assert 'id="class-gym"' not in build.front_page(lang, texts, ROOT / "notebooks")


@pytest.mark.parametrize(("lang", "word"), [("en", "DIR"), ("zh", "文件夹")])
def test_the_help_names_the_folder_as_its_usage_does(lang: str, word: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The description speaks of the --puzzles folder by the word the usage line shows for it."""
    try:
        status = main(["--lang", lang, "site", "--help"])
    except SystemExit as done:  # argparse's own exit after printing the help
        status = done.code
    assert status in (0, None)
    usage, description = capsys.readouterr().out.split("\n\n")[:2]
    assert f"--puzzles {word}" in usage and f"--puzzles {word}" in description.replace("\n", "")
    assert lang == "en" or "DIR" not in description
