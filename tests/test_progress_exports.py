"""``training.progress`` still offers every public name it offered when the stores lived in it.

The rows and stores moved to :mod:`battleline_lab.training.stores`, one module per concept; code,
lessons and tests import from ``training.progress``, so each name must still be there and be the
very object of its new module (not a copy that could drift).
"""

from __future__ import annotations

import importlib

import pytest

from battleline_lab.training import progress

#: Every public name of ``training.progress`` before the split, and the module that defines it now.
OFFERED: dict[str, str] = {
    "Attempt": "training.stores.rows",
    "DEFAULT_LEARNER": "training.stores.rows",
    "KINDS": "training.stores.rows",
    "MAX_ANSWER": "training.stores.rows",
    "MAX_HINTS": "training.stores.rows",
    "MAX_SECONDS": "training.stores.rows",
    "MAX_TEXT": "training.stores.rows",
    "RowError": "training.stores.rows",
    "check_row": "training.stores.rows",
    "skipped_warning": "training.stores.rows",
    "GAME_KIND": "training.stores.records",
    "GameResult": "training.stores.records",
    "PuzzleRecord": "training.stores.records",
    "current": "training.stores.records",
    "game_results": "training.stores.records",
    "records": "training.stores.records",
    "AttemptStore": "training.stores.base",
    "Cursor": "training.stores.base",
    "rows_after": "training.stores.base",
    "MemoryStore": "training.stores.memory",
    "JSONL_FILE": "training.stores.jsonl",
    "JsonLinesStore": "training.stores.jsonl",
    "SetAside": "training.stores.jsonl",
    "DATABASE_FILE": "training.stores.sqlite",
    "MIGRATIONS": "training.stores.sqlite",
    "SqliteStore": "training.stores.sqlite",
    "READ_LIMIT": "training.stores.readonly",
    "ReadOnlyStore": "training.stores.readonly",
    "StoreError": "training.stores.readonly",
    "open_store_read_only": "training.stores.readonly",
    "LEGACY_FILE": "training.stores.legacy",
    "PROGRESS_FILE": "training.stores.legacy",
    "legacy_attempts": "training.stores.legacy",
    "BROWSER_DATA_FOLDER": "training.stores.folders",
    "BROWSER_DRIVE": "training.stores.folders",
    "REVIEW_FOLDER": "training.stores.folders",
    "class_dir": "training.stores.folders",
    "class_learner": "training.stores.folders",
    "data_account": "training.stores.folders",
    "data_dir": "training.stores.folders",
    "in_browser": "training.stores.folders",
    "review_dir": "training.stores.folders",
    "open_store": "training.stores.opening",
    "EXPORT_FORMAT": "training.stores.transfer",
    "export_attempts": "training.stores.transfer",
    "export_filename": "training.stores.transfer",
    "IDENTITY_FILE": "training.stores.identity",
    "Identity": "training.stores.identity",
    "CLASS_DIR_VARIABLE": "formats.settings",
    # the facade itself stays in training.progress
    "Progress": "training.progress",
    "ProgressWarning": "training.progress",
    "browser_storage": "training.progress",
    "import_export": "training.progress",
}

#: ``training.progress.__all__`` before the split: it may grow, never lose a name.
ALL_BEFORE = {
    "CLASS_DIR_VARIABLE", "DATABASE_FILE", "DEFAULT_LEARNER", "EXPORT_FORMAT", "GAME_KIND", "JSONL_FILE",
    "LEGACY_FILE", "MIGRATIONS", "PROGRESS_FILE", "REVIEW_FOLDER", "Attempt", "AttemptStore", "GameResult",
    "JsonLinesStore", "MemoryStore", "KINDS", "Progress", "ProgressWarning", "ReadOnlyStore", "RowError",
    "SetAside", "class_dir", "class_learner", "PuzzleRecord", "SqliteStore", "StoreError", "browser_storage",
    "check_row", "skipped_warning", "data_dir", "export_attempts", "export_filename", "game_results",
    "import_export", "in_browser", "open_store", "open_store_read_only", "review_dir",
}  # fmt: skip


@pytest.mark.parametrize(("name", "home"), sorted(OFFERED.items()))
def test_each_name_is_still_offered_and_is_its_new_modules_object(name: str, home: str) -> None:
    module = importlib.import_module(f"battleline_lab.{home}")
    value = getattr(progress, name)
    assert value is getattr(module, name) and name in module.__all__
    if callable(value) and value is not int:
        # defined there, not in the facade and imported back (Cursor is ``int``, an alias)
        assert value.__module__ == f"battleline_lab.{home}"


def test_star_import_keeps_every_name_it_gave() -> None:
    assert ALL_BEFORE <= set(progress.__all__) and set(progress.__all__) <= set(OFFERED)
