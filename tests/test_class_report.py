"""A report that teaches the teacher: the teacher's own puzzles rated, gridded and explained.

Four learners practise a teacher's folder (three puzzles copied from the library under new ids,
one of them under Fog) and one library puzzle; the exports and the report both take the folder.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from battleline_lab.cli import main
from battleline_lab.quiz import library
from battleline_lab.quiz.loader import load_puzzle
from battleline_lab.training.class_report import SORT_SCRIPT_NAME, class_data, miss_rule
from battleline_lab.training.progress import Progress
from battleline_lab.training.trainer import PuzzleSession, Trainer

# (library puzzle, the id and title it gets in the teacher's folder)
CLASS_SET = [
    ("fog-wrecks-a-low-wedge", "class-fog", "Fog on the flag"),
    ("seed-blue-seven-in-your-hand", "class-hand", "What your hand holds"),
    ("seed-blue-eight-blocked", "class-blocked", "The blue eight"),
]
LIBRARY_PUZZLE = "one-end-open"


def _class_set(folder: Path) -> Path:
    folder.mkdir()
    for source, new_id, title in CLASS_SET:
        text = library.path(source).read_text(encoding="utf-8")
        text = re.sub(r"^id: .*$", f"id: {new_id}", text, count=1, flags=re.M)
        text = re.sub(r"^title:\n(  .*\n)+|^title: .*\n", f"title: {title}\n", text, count=1, flags=re.M)
        (folder / f"{new_id}.yaml").write_text(text, encoding="utf-8")
    return folder


# learner -> how they answer each puzzle: "right", "hint" (a hint, then right), "wrong" (wrong, then right),
# "reveal" (wrong, then the solution shown), or absent (not tried)
PLANS = {
    "ann": {"class-fog": "right", "class-hand": "right", "class-blocked": "right", LIBRARY_PUZZLE: "right"},
    "bo": {"class-fog": "wrong", "class-hand": "right", "class-blocked": "hint", LIBRARY_PUZZLE: "right"},
    "cy": {"class-fog": "wrong", "class-hand": "wrong", "class-blocked": "right"},
    "di": {"class-fog": "reveal", "class-hand": "wrong"},
}


def _wrong(answer: object) -> object:
    return (not answer) if isinstance(answer, bool) else "b"


def _practise(data: Path, learner: str, folder: Path) -> None:
    progress = Progress(data, learner=learner)
    trainer = Trainer([str(folder), LIBRARY_PUZZLE], progress=progress)
    for pid, plan in PLANS[learner].items():
        puzzle = trainer._puzzle(pid)
        s = PuzzleSession(puzzle, progress=progress, source="gym")
        right = puzzle.solve()
        if plan == "hint":
            s.hint()
        if plan in ("wrong", "reveal"):
            s.answer(_wrong(right))
        if plan == "reveal":
            s.reveal()
        else:
            s.answer(right)


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("class")
    folder = _class_set(root / "classset")
    exports = root / "exports"
    exports.mkdir()
    for learner in PLANS:
        _practise(root / f"data-{learner}", learner, folder)
    return folder, exports


def _export(data: Path, learner: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["progress", "export", "--data", str(data), "--learner", learner, "--puzzles", str(folder)]) == 0
    document: dict[str, object] = json.loads(capsys.readouterr().out)
    return document


def test_the_teachers_puzzles_are_rated_in_the_export(
    classroom: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _exports = classroom
    doc = _export(folder.parent / "data-ann", "ann", folder, capsys)
    assert doc["rated"] == 4 and doc["first_try"] == 4
    assert doc["rating"]["rating"] > 1500  # type: ignore[index]
    puzzles = doc["puzzles"]
    assert isinstance(puzzles, dict) and puzzles["class-fog"]["title"] == {"en": "Fog on the flag"}
    # without the folder the export knows the library puzzle only (what the issue saw)
    assert main(["progress", "export", "--data", str(folder.parent / "data-ann"), "--learner", "ann"]) == 0
    assert json.loads(capsys.readouterr().out)["rated"] == 1


def test_the_miss_rule_is_the_misss_own_rule() -> None:
    # (library puzzle, wrong answer, the rule the report counts, the generic rule it is not)
    for pid, rule in (
        ("fog-wrecks-a-low-wedge", "R24"),
        ("mud-needs-a-fourth", "R25"),
        ("seed-blue-seven-in-your-hand", "R13"),
    ):
        puzzle = library.get(pid)
        assert miss_rule(puzzle, _wrong(puzzle.solve())) == rule, pid
    ties = [p for p in library.puzzles() if p.topics and "tie" in " ".join(p.topics) and p.question is not None]
    assert any(
        miss_rule(p, _wrong(p.solve())) == "R11" for p in ties if p.question is not None and p.question.kind == "claim"
    )


@pytest.fixture(scope="module")
def report(classroom: tuple[Path, Path]) -> tuple[Path, str, str]:
    import contextlib
    import io

    folder, exports = classroom
    with contextlib.redirect_stdout(io.StringIO()):
        for learner in PLANS:
            data = folder.parent / f"data-{learner}"
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                assert main(["progress", "export", "--data", str(data), "--learner", learner]) == 0
            (exports / f"{learner}.json").write_text(buffer.getvalue(), encoding="utf-8")
        out = folder.parent / "class.html"
        assert main(["report", str(exports), "--puzzles", str(folder), "--out", str(out)]) == 0
        zh = folder.parent / "class-zh.html"
        assert main(["report", str(exports), "--puzzles", str(folder), "--out", str(zh), "--lang", "zh"]) == 0
    return out, out.read_text(encoding="utf-8"), zh.read_text(encoding="utf-8")


def _section(page: str, klass: str) -> str:
    start = page.index(f'class="{klass}')
    return page[start : page.index("</table>", start)]


def test_each_learner_has_a_rating_with_its_uncertainty_and_a_first_try_rate(report: tuple[Path, str, str]) -> None:
    _out, page, _zh = report
    learners = _section(page, "bl-report-class-learners")
    rows = {m.group(1): m.group(0) for m in re.finditer(r'<tr><td class="bl-name">(\w+)</td>.*?</tr>', learners)}
    assert set(rows) == set(PLANS)
    ratings = {name: int(re.search(r">(\d+) ± (\d+)<", row).group(1)) for name, row in rows.items()}  # type: ignore[union-attr]
    assert ratings["ann"] > ratings["bo"] > ratings["di"] and len(set(ratings.values())) == 4
    assert "100% (4 of 4)" in rows["ann"] and "50% (2 of 4)" in rows["bo"] and "0% (0 of 2)" in rows["di"]
    # the specific rules: R24 for the Fog puzzle, R13 for the hand, not only the claim rule
    assert "R24 (2×)" in rows["di"] or ("R24" in rows["di"] and "R13" in rows["di"])
    assert "R24" in rows["cy"] and "R13" in rows["cy"] and "R24" not in rows["ann"]
    assert "Fog (1×)" in rows["bo"]  # the topics missed, from the teacher's files


def test_the_grid_and_the_puzzles_missed_most(report: tuple[Path, str, str]) -> None:
    out, page, zh = report
    missed = _section(page, "bl-report-missed")
    order = re.findall(r"<small>\(([\w-]+)\)</small>", missed)
    assert order[0] == "class-fog"  # 3 of 4 missed it: first
    assert order.index("class-hand") < order.index("class-blocked") < order.index(LIBRARY_PUZZLE)
    fog_row = missed[missed.index("Fog on the flag") : missed.index("</tr>", missed.index("Fog on the flag"))]
    assert "3 of 4" in fog_row and "(3 learners)" in fog_row  # the commonest wrong answer, said by 3
    grid = _section(page, "bl-grid")
    assert "Fog on the flag" in grid and "What your hand holds" in grid  # titles, not only ids
    di = grid[grid.index(">di</th>") : grid.index("</tr>", grid.index(">di</th>"))]
    assert di.count("bl-missed") == 1 and di.count("bl-hints") == 1 and di.count("bl-none") == 2  # revealed: a miss
    bo = grid[grid.index(">bo</th>") : grid.index("</tr>", grid.index(">bo</th>"))]
    assert bo.count("bl-first") == 2 and bo.count("bl-hints") == 2  # a hint, and a retry
    # sortable with a script file next to the page (nothing inline, nothing fetched), printable
    assert f'<script src="{SORT_SCRIPT_NAME}"></script>' in page and (out.parent / SORT_SCRIPT_NAME).is_file()
    assert "<script>" not in page and "http" not in re.sub(r"https://[^\"']*schema[^\"']*", "", page).split("<body>")[1]
    assert "@media print" in page and "<button" in grid
    # Chinese throughout
    assert "全班错得最多的谜题" in zh and "学生与谜题" in zh and "没有做" in zh and "4人中3人" in zh


def test_class_data_without_the_folder_knows_only_the_library(
    classroom: tuple[Path, Path], report: tuple[Path, str, str]
) -> None:
    folder, exports = classroom  # the report fixture wrote the exports
    docs = [json.loads(p.read_text()) for p in sorted(exports.glob("*.json"))]
    assert len(docs) == len(PLANS)
    data = class_data(docs, [p for p in library.puzzles() if p.question is not None])
    assert next(r for r in data.learners if r.learner == "ann").rated == 1
    teacher = [load_puzzle(f) for f in sorted(folder.glob("*.yaml"))]
    rated = class_data(docs, teacher + [library.get(LIBRARY_PUZZLE)])
    assert next(r for r in rated.learners if r.learner == "ann").rated == 4
