"""Test modules that ``./dev test`` keeps on one pytest-xdist worker (``--dist loadgroup``).

The unit tier spreads its tests over two workers, the browser tier over three (``tools/run_tests.py``).
A module-scoped fixture is built once per worker that runs a test of its module, so a module whose
fixture is costly would build it twice; the modules named here run whole on one worker, their fixture
built once.  A test named ``module::test`` (each of its cases) is grouped alone: its fixture fills a
cache that two workers must not fill at the same time.  Nothing is skipped.

The groups reach xdist's scheduler through :func:`make_scheduler` (``tests/conftest.py``'s
``pytest_xdist_make_scheduler``): xdist's own way, a worker appending ``@GROUP`` to the node id of each
test with an ``xdist_group`` mark, does nothing under pytest 9 (a node id is read from a field xdist
does not write), so with the mark alone every test was dealt on its own and each costly fixture was
built on both workers.  The scheduler reads the group of each node id from :data:`GROUPS` instead
(:func:`group_of`).  The ``xdist_group`` mark is still added (:func:`mark`), so that an xdist that
writes ``@GROUP`` again finds the same groups.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from xdist.scheduler import LoadGroupScheduling

GROUPS: dict[str, str] = {
    # a batch generated per theme (about a minute of set-up), shared by its two tests (tests/slow.py)
    "tests/test_generate_spoilers.py": "generate-spoilers",
    # a batch generated per theme, shared by every test of the module
    "tests/test_generate.py": "generate",
    # a batch of tactic puzzles generated per goal (its module-scoped fixture), shared by three tests
    # of each goal: dealt one by one, a goal's batch was made on both workers
    "tests/test_generate_tactic.py": "generate-tactic",
    # a class of learners who practise a class set, shared by every test of the module
    "tests/test_class_report.py": "class-report",
    # every generated file made once (tests/test_regen.py's cache), read by all the module's tests
    "tests/test_regen.py": "regen",
    # the claim proofs of every golden position, made once (its golden_lines) for its test and for
    # test_regen.py's proofs row
    "tests/test_proof_equivalence.py": "regen",
    # the lessons' response tables (the open side's has thousands of states), each built once per
    # process by a fixture these two tests share
    "tests/test_response_tables.py::test_R12_a_lesson_table_walked_through_the_widget_is_the_widget": "lesson-tables",
    "tests/test_response_tables.py::test_a_lesson_table_is_complete_and_small": "lesson-tables",
    # a JupyterHub started for the module, installed once into a cache folder shared by every run
    "tests/browser/test_jupyterhub_class.py": "jupyterhub",
}


def group_of(nodeid: str) -> str | None:
    """The group of the test ``nodeid``: its module's in :data:`GROUPS`, or its own (any of its cases), or
    ``None``."""
    return GROUPS.get(nodeid.split("::")[0]) or GROUPS.get(nodeid.split("[")[0])


def mark(items: Iterable[pytest.Item]) -> None:
    """Mark each test of a module named in :data:`GROUPS` with that module's ``xdist_group``, and each
    case of a test named there with that test's."""
    for item in items:
        group = group_of(item.nodeid)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))


def make_scheduler(config: pytest.Config, log: Any = None) -> LoadGroupScheduling:
    """xdist's ``loadgroup`` scheduler that deals the tests of each group of :data:`GROUPS` to one worker,
    as one unit (imported here: without xdist this module is only :func:`mark`)."""
    from xdist.scheduler import LoadGroupScheduling

    class GroupScheduling(LoadGroupScheduling):
        """``LoadGroupScheduling`` whose scope of a test is its group of :data:`GROUPS` (or an ``@GROUP``
        that xdist did write into the node id), else the test alone.

        Two costs of xdist's scope schedulers that grow with the square of the number of tests are cut
        (thousands of one-test scopes in the unit tier): a finished scope is forgotten (xdist sums every
        scope ever dealt to a node after each test), and a test's index in a node's collection is
        looked up in a table, not searched for in the list.
        """

        def __init__(self, config: pytest.Config, log: Any = None) -> None:
            super().__init__(config, log)
            self._index: dict[Any, dict[str, int]] = {}

        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            if scope != nodeid:  # xdist wrote the group into the node id
                return scope
            return group_of(nodeid) or nodeid

        def add_node_collection(self, node: Any, collection: Sequence[str]) -> None:
            super().add_node_collection(node, collection)
            self._index[node] = {nodeid: i for i, nodeid in enumerate(collection)}

        def _assign_work_unit(self, node: Any) -> None:
            scope, work_unit = self.workqueue.popitem(last=False)
            self.assigned_work.setdefault(node, {})[scope] = work_unit
            index = self._index[node]
            node.send_runtest_some([index[nodeid] for nodeid, completed in work_unit.items() if not completed])

        def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
            nodeid = self.registered_collections[node][item_index]
            scope = self._split_scope(nodeid)
            work = self.assigned_work[node]
            work[scope][nodeid] = True
            if all(work[scope].values()):
                del work[scope]
            self._reschedule(node)

    return GroupScheduling(config, log)
