"""Shared pytest set-up: reproducible hypothesis runs and an isolated data folder."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests import slow, xdist_groups

#: The fixtures of the JupyterLite site (``tests/browser/conftest.py``): a test that uses one, or the
#: ``frontend`` fixture's ``site`` case, is marked ``site`` (``./dev test -m site`` runs only those).
SITE_FIXTURES = frozenset({"site", "site_url", "class_site", "class_site_url", "offline_chromium"})

# CI runs are reproducible (derandomized); locally hypothesis explores freely.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: left out of ./dev test --quick (tests/slow.py); ./dev test runs it")
    config.addinivalue_line("markers", "site: uses the JupyterLite site (added by tests/conftest.py)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests named in ``tests/slow.py`` (each of their cases) are marked ``slow``; those of the
    modules in ``tests/xdist_groups.py`` get their module's ``xdist_group``; the tests of the
    JupyterLite site are marked ``site`` (:func:`uses_site`)."""
    slow.mark(items)
    xdist_groups.mark(items)
    for item in items:
        if uses_site(item):
            item.add_marker(pytest.mark.site)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``--dist loadgroup``, the scheduler that keeps each group of ``tests/xdist_groups.py`` on one
    worker (xdist's own, which reads the groups from the node ids, no longer sees them under pytest 9)."""
    if config.getoption("dist", None) != "loadgroup":
        return None
    return xdist_groups.make_scheduler(config, log)


def uses_site(item: pytest.Item) -> bool:
    """Whether ``item`` needs the built site: one of :data:`SITE_FIXTURES`, or ``frontend`` is ``site``.

    ``-m site`` (or ``-m "browser and not site"``) picks the tests of one front end, for example to
    run the site's alone after a change to ``tools/build_site.py``.
    """
    if SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and callspec.params.get("frontend") == "site"


#: When set, the file where a collection writes each collected test's markers (``{node id: [names]}``):
#: ``tests/test_run_tests.py`` collects the whole suite once this way and works out each tier's tests.
MARKERS_OUT = "BATTLELINE_COLLECTED_MARKERS"


def pytest_collection_finish(session: pytest.Session) -> None:
    out = os.environ.get(MARKERS_OUT)
    if out:
        markers = {item.nodeid: sorted({m.name for m in item.iter_markers()}) for item in session.items}
        with open(out, "w", encoding="utf-8") as f:
            json.dump(markers, f)


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Learner progress and other user data go to a temporary folder, never to $HOME."""
    data = tmp_path_factory.mktemp("battleline-data")
    monkeypatch.setenv("BATTLELINE_LAB_DATA", str(data))
    yield data
