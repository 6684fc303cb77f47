"""The parts of the site build that need no network: lesson copies and the data folder in Pyodide."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from battleline_lab import progress

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


def test_lock_closure_follows_depends_and_rejects_unknown_packages() -> None:
    lock = {"packages": {"a": {"depends": ["B_c"]}, "b-c": {"depends": []}, "d": {"depends": ["zz"]}}}
    assert build_site.lock_closure(lock, ["a"]) == ["a", "b-c"]
    with pytest.raises(SystemExit):
        build_site.lock_closure(lock, ["d"])


def test_data_dir_in_pyodide_is_on_the_browser_drive(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("BATTLELINE_LAB_DATA", raising=False)
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(progress, "BROWSER_DRIVE", tmp_path)
    monkeypatch.setattr(progress._browser_data_dir, "__defaults__", (tmp_path, None))
    assert progress.data_dir() == tmp_path / "battleline-data"
    assert progress._sqlite_available() is False  # JSON lines on the drive
    store, problem = progress.open_store()
    assert problem is None and isinstance(store, progress.JsonLinesStore)
    assert store.path == (tmp_path / "battleline-data" / "progress.jsonl").resolve()
    monkeypatch.setenv("BATTLELINE_LAB_DATA", str(tmp_path / "mine"))
    assert progress.data_dir() == tmp_path / "mine"  # an explicit folder still wins
