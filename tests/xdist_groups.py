"""Test modules that ``./dev test`` keeps on one pytest-xdist worker (``--dist loadgroup``).

The unit tier spreads its tests over two workers, the browser tier over three (``tools/run_tests.py``).
A module-scoped fixture is built once per worker that runs a test of its module, so a module whose
fixture is costly would build it twice; the modules named here run whole on one worker, their fixture
built once.  A test named ``module::test`` (each of its cases) is grouped alone: its fixture fills a
cache that two workers must not fill at the same time.  Nothing is
skipped: ``tests/conftest.py`` only adds the ``xdist_group`` mark, and without xdist it does nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

GROUPS: dict[str, str] = {
    # a batch generated per theme (about a minute of set-up), shared by its two tests (tests/slow.py)
    "tests/test_generate_spoilers.py": "generate-spoilers",
    # a batch generated per theme, shared by every test of the module
    "tests/test_generate.py": "generate",
    # a class of learners who practise a class set, shared by every test of the module
    "tests/test_class_report.py": "class-report",
    # every generated file made once (tests/test_regen.py's cache), read by all the module's tests
    "tests/test_regen.py": "regen",
    # the lessons' response tables (the open side's has thousands of states), each built once per
    # process by a fixture these two tests share
    "tests/test_response_tables.py::test_R12_a_lesson_table_walked_through_the_widget_is_the_widget": "lesson-tables",
    "tests/test_response_tables.py::test_a_lesson_table_is_complete_and_small": "lesson-tables",
    # a JupyterHub started for the module, installed once into a cache folder shared by every run
    "tests/browser/test_jupyterhub_class.py": "jupyterhub",
}


def mark(items: Iterable[pytest.Item]) -> None:
    """Mark each test of a module named in :data:`GROUPS` with that module's ``xdist_group``, and each
    case of a test named there with that test's."""
    for item in items:
        group = GROUPS.get(item.nodeid.split("::")[0]) or GROUPS.get(item.nodeid.split("[")[0])
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
