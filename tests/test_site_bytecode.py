"""The site's wheels carry bytecode made by Pyodide's own Python (``tools/build_site.py``,
``compiled_wheels``): its cache key follows the wheel's content and the compiling recipe, so a
changed source is compiled again and an unchanged one is not.  (The compiling itself runs Pyodide
in Node.js; the site's browser tests check the shipped wheel: tests/browser/test_site_live_browser.py.)
"""

from __future__ import annotations

import importlib.util
import json
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("build_site_bytecode", ROOT / "tools" / "build_site.py")
assert _spec and _spec.loader
build_site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_site)


def wheel(folder: Path, source: str, name: str = "demo-1.0-py3-none-any.whl") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("demo/__init__.py", source)
        archive.writestr("demo-1.0.dist-info/METADATA", "Name: demo\nVersion: 1.0\n")
    return path


@pytest.fixture
def compiler(monkeypatch: pytest.MonkeyPatch) -> list[list[list[str]]]:
    """The Node.js step, recorded: each call's jobs; each output written as a copy of its input."""
    calls: list[list[list[str]]] = []

    def run(cmd: list[object], **_kwargs: object) -> None:
        jobs = json.loads(Path(str(cmd[-1])).read_text())
        calls.append(jobs)
        for source, target in jobs:
            Path(target).write_bytes(Path(source).read_bytes())

    monkeypatch.setattr(build_site, "run", run)
    return calls


# (id, the first wheel's source, the second's, whether the second is compiled again)
CASES = [
    ("same-source-is-taken-from-the-cache", "x = 1\n", "x = 1\n", False),
    ("changed-source-is-compiled-again", "x = 1\n", "x = 2\n", True),
]


@pytest.mark.parametrize(("first", "second", "again"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_compiled_wheel_cache_key_follows_the_source(
    tmp_path: Path, compiler: list[list[list[str]]], first: str, second: str, again: bool
) -> None:
    core = tmp_path / "pyodide-314.0.6"
    one = wheel(tmp_path / "a", first)
    out_one = build_site.compiled_wheels(tmp_path / "cache", core, [one])[one]
    two = wheel(tmp_path / "b", second)
    out_two = build_site.compiled_wheels(tmp_path / "cache", core, [two])[two]
    assert len(compiler) == (2 if again else 1)
    assert (out_two != out_one) is again
    assert out_two.name == two.name and out_two.is_file()


def test_compiled_wheel_cache_key_follows_the_recipe(tmp_path: Path, compiler: list[list[list[str]]]) -> None:
    one = wheel(tmp_path / "a", "x = 1\n")
    a = build_site.compiled_wheels(tmp_path / "cache", tmp_path / "pyodide-314.0.6", [one])[one]
    b = build_site.compiled_wheels(tmp_path / "cache", tmp_path / "pyodide-314.0.7", [one])[one]
    assert a != b and len(compiler) == 2  # another Pyodide: another compiler, compiled again
