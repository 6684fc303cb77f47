"""The lessons run in the JupyterLite site (docs/site.md): no shell escapes, which raise there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def _escapes(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    lines = ("".join(c["source"]).splitlines() for c in cells if c["cell_type"] == "code")
    return [
        line for cell in lines for line in cell if line.lstrip().startswith("!") or line.lstrip().startswith("%%sh")
    ]


def test_every_lesson_is_there() -> None:
    assert len(NOTEBOOKS) >= 10


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT / "notebooks").as_posix())
def test_lesson_has_no_shell_escape(path: Path) -> None:
    assert _escapes(path) == [], f"{path.name}: shell escapes fail in Pyodide (OSError: Not available)"
