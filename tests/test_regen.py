"""Every generated file is current: ``tools/regen.py`` (``./dev regen``) would write the committed files.

Each row of the generator table is regenerated into a temporary folder and compared byte for byte
with the checkout, and the checkout may hold no file under a row's patterns that the row does not
make.  Every row takes about a second at most, so all run in ``./dev test --quick``.  The lessons
are not in the table (minutes each): nbval re-runs them in the full ``./dev test``.

Each row's files are made once per run (:func:`made`) and read by every test here (the module runs
whole on one xdist worker: ``tests/xdist_groups.py``); only the tests of ``regen.main`` make them again.
"""

from __future__ import annotations

from fnmatch import fnmatch
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
regen: ModuleType = load_script(ROOT / "tools" / "regen.py", "regen")


@cache
def made(name: str) -> dict[str, str]:
    """What the row ``name`` makes (path -> text), made once."""
    return dict(regen.BY_NAME[name].make())


def put(files: dict[str, str], root: Path) -> None:
    """Write ``files`` (path -> text) under ``root`` as ``regen.write`` does, into an empty folder."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(text.encode("utf-8"))


@pytest.mark.parametrize("name", list(regen.BY_NAME))
def test_generated_files_are_current(name: str, tmp_path: Path) -> None:
    row = regen.BY_NAME[name]
    put(made(name), tmp_path)
    written = regen.owned(row, tmp_path)
    assert written, f"{name} wrote nothing"
    for rel in sorted(written):
        committed = ROOT / rel
        assert committed.is_file(), f"{rel} is not committed: run ./dev regen"
        assert (tmp_path / rel).read_bytes() == committed.read_bytes(), f"{rel} is stale: run ./dev regen"
    assert regen.owned(row, ROOT) == written, f"{name}: files it no longer makes: run ./dev regen"


def test_each_row_writes_only_under_its_own_patterns() -> None:
    rows = regen.GENERATED
    assert len({row.name for row in rows}) == len(rows)
    for row in rows:
        for rel in made(row.name):
            assert any(fnmatch(rel, pattern) for pattern in row.writes), (row.name, rel)
    # no two rows own one file, so no row removes another's file as stray
    for row in rows:
        for other in rows:
            if other is not row:
                assert not regen.owned(row, ROOT) & regen.owned(other, ROOT), (row.name, other.name)


def test_check_names_missing_changed_and_stray_files(tmp_path: Path) -> None:
    row = regen.BY_NAME["explanations-zh"]
    assert regen.write(row, tmp_path) == sorted(made(row.name))  # all new
    assert regen.stale(row, tmp_path, made(row.name)) == []
    first, second, *_ = sorted(regen.owned(row, tmp_path))
    (tmp_path / first).unlink()
    (tmp_path / second).write_text("edited by hand\n", encoding="utf-8")
    (tmp_path / "tests/golden/zh/renamed-case.txt").write_text("old\n", encoding="utf-8")
    assert regen.stale(row, tmp_path, made(row.name)) == [
        f"{first}: missing",
        f"{second}: differs",
        "tests/golden/zh/renamed-case.txt: stray",
    ]
    assert regen.main(["--check", "--out", str(tmp_path), "explanations-zh"]) == 1
    assert regen.main(["--out", str(tmp_path), "explanations-zh"]) == 0
    assert regen.stale(row, tmp_path, made(row.name)) == []
    assert not (tmp_path / "tests/golden/zh/renamed-case.txt").exists()
