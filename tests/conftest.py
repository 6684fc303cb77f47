"""Shared pytest set-up: reproducible hypothesis runs and an isolated data folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests import slow, xdist_groups

# CI runs are reproducible (derandomized); locally hypothesis explores freely.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: left out of ./dev test --quick (tests/slow.py); ./dev test runs it")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests named in ``tests/slow.py`` (each of their cases) are marked ``slow``; those of the
    modules in ``tests/xdist_groups.py`` get their module's ``xdist_group``."""
    slow.mark(items)
    xdist_groups.mark(items)


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Learner progress and other user data go to a temporary folder, never to $HOME."""
    data = tmp_path_factory.mktemp("battleline-data")
    monkeypatch.setenv("BATTLELINE_LAB_DATA", str(data))
    yield data
