"""``tests/xdist_groups.py``'s scheduler: xdist's ``loadgroup`` scheduler, driven here as the controller
drives it (``add_node``, ``add_node_collection``, ``schedule``, ``mark_test_complete``), with fake
workers that run what ``send_runtest_some`` deals them.  The groups must reach the scheduler from the
node ids alone: under pytest 9 a worker cannot append ``@GROUP`` to them (xdist's own way), so the
node ids below carry no suffix, as the workers report them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from xdist.remote import Producer

from tests import conftest, xdist_groups

REGEN = [f"tests/test_regen.py::test_{name}" for name in ("a", "b[x]", "b[y]", "c")]
TABLES = [
    f"tests/test_response_tables.py::{test}[{lesson}]"
    for test in (
        "test_R12_a_lesson_table_walked_through_the_widget_is_the_widget",
        "test_a_lesson_table_is_complete_and_small",
    )
    for lesson in ("03", "05")
]
# a test of the same module that is in no group: it goes anywhere
TABLES_OTHER = ["tests/test_response_tables.py::test_some_other_check"]
LONE = [f"tests/test_cards.py::test_{i}" for i in range(12)]
COLLECTION = [*LONE[:6], *REGEN, *TABLES_OTHER, *TABLES, *LONE[6:]]


# the scheduler's log, silent (xdist's prints to stderr)
QUIET = Producer("sched", enabled=False)


@dataclass(eq=False)
class FakeWorker:
    """What a scheduler sees of a worker: the indices it is sent, and its shutdown."""

    name: str
    queue: list[int] = field(default_factory=list)
    ran: list[int] = field(default_factory=list)
    shutting_down: bool = False

    @property
    def gateway(self) -> SimpleNamespace:
        return SimpleNamespace(id=self.name)

    def send_runtest_some(self, indices: list[int]) -> None:
        self.queue.extend(indices)

    def send_runtest_all(self) -> None:  # pragma: no cover - only the "each" scheduler sends all
        raise AssertionError("a load scheduler deals tests one unit at a time")

    def shutdown(self) -> None:
        self.shutting_down = True


def fake_config(workers: int, dist: str = "loadgroup") -> Any:
    """The options a scheduler and the conftest hook read of ``pytest -n WORKERS --dist DIST``."""
    values = {"tx": [f"{workers}*popen"], "dist": dist}
    return SimpleNamespace(
        getvalue=values.__getitem__,
        getoption=lambda name, default=None: values.get(name, default),
        option=SimpleNamespace(loadscopereorder=True, dist=dist),
    )


def start(workers: int, collection: list[str] = COLLECTION) -> tuple[Any, list[FakeWorker]]:
    """The scheduler that the conftest hook makes, with ``workers`` fake workers that collected
    ``collection``, after its first deal."""
    config = fake_config(workers)
    sched = conftest.pytest_xdist_make_scheduler(config, QUIET)
    nodes = [FakeWorker(f"gw{i}") for i in range(workers)]
    for node in nodes:
        sched.add_node(node)
    for node in nodes:
        sched.add_node_collection(node, collection)
    sched.schedule()
    return sched, nodes


def run_all(sched: Any, nodes: list[FakeWorker], collection: list[str] = COLLECTION) -> dict[str, str]:
    """Let the workers run what they are dealt, one test at a time, taking turns, until none has any
    left: the worker that ran each test.  Then the scheduler must have nothing left either."""
    ran_by: dict[str, str] = {}
    while busy := [n for n in nodes if n.queue]:
        for node in busy:
            index = node.queue.pop(0)
            node.ran.append(index)
            assert collection[index] not in ran_by, f"{collection[index]} ran twice"
            ran_by[collection[index]] = node.name
            sched.mark_test_complete(node, index)
    assert sched.tests_finished and not sched.has_pending
    return ran_by


def test_the_hook_gives_the_group_scheduler_only_under_loadgroup() -> None:
    assert conftest.pytest_xdist_make_scheduler(fake_config(2, "load"), QUIET) is None
    assert conftest.pytest_xdist_make_scheduler(fake_config(2, "loadgroup"), QUIET) is not None


@pytest.mark.parametrize(
    ("nodeid", "group"),
    [
        pytest.param("tests/test_regen.py::test_a[x]", "regen", id="a-test-of-a-grouped-module"),
        pytest.param(TABLES[0], "lesson-tables", id="a-case-of-a-test-grouped-alone"),
        pytest.param(TABLES_OTHER[0], None, id="another-test-of-that-module"),
        pytest.param("tests/test_cards.py::test_1", None, id="no-group"),
    ],
)
def test_the_group_of_a_node_id(nodeid: str, group: str | None) -> None:
    assert xdist_groups.group_of(nodeid) == group


@pytest.mark.parametrize("workers", [2, 3])
def test_each_group_runs_whole_on_one_worker_and_the_rest_is_spread(workers: int) -> None:
    sched, nodes = start(workers)
    ran_by = run_all(sched, nodes)
    assert sorted(ran_by) == sorted(COLLECTION)
    assert len({ran_by[t] for t in REGEN}) == 1, ran_by
    assert len({ran_by[t] for t in TABLES}) == 1, ran_by
    # tests in no group are dealt one by one, to every worker
    assert {ran_by[t] for t in LONE} == {n.name for n in nodes}, ran_by


def test_the_groups_are_dealt_first_as_whole_units() -> None:
    """The first deal gives each of the two workers a whole group (the largest units first), not the
    first tests of the collection one by one."""
    _, nodes = start(2)
    first = [{COLLECTION[i] for i in node.queue} for node in nodes]
    assert set(TABLES) <= first[0] | first[1] and set(REGEN) <= first[0] | first[1]
    assert not (set(TABLES) & first[0] and set(TABLES) & first[1])
    assert not (set(REGEN) & first[0] and set(REGEN) & first[1])


def test_a_group_left_by_a_crashed_worker_goes_whole_to_another() -> None:
    """A worker that dies inside a group: its unfinished tests go back to the queue and are run, all
    by one worker, and the crashed test is the one it was running."""
    sched, nodes = start(2)
    holder = next(n for n in nodes if any(COLLECTION[i] in TABLES for i in n.queue))
    other = next(n for n in nodes if n is not holder)
    # the holder runs the tests it was dealt up to the second test of the group, then dies
    done_in_group = 0
    while done_in_group < 2:
        index = holder.queue.pop(0)
        if COLLECTION[index] in TABLES:
            if done_in_group == 1:
                break
            done_in_group += 1
        sched.mark_test_complete(holder, index)
    crashed = sched.remove_node(holder)
    assert crashed == COLLECTION[index]
    ran_by = run_all(sched, [other])
    left = [t for t in TABLES if t in ran_by]
    assert len(left) == len(TABLES) - 1 and {ran_by[t] for t in left} == {other.name}


def test_every_test_is_dealt_once_in_a_big_collection() -> None:
    """Thousands of one-test units (the unit tier's size): each test dealt exactly once."""
    collection = [f"tests/test_many.py::test_{i}" for i in range(3000)] + REGEN
    sched, nodes = start(2, collection)
    run_all(sched, nodes, collection)
    dealt = Counter(i for node in nodes for i in node.ran)
    assert sorted(dealt) == list(range(len(collection))) and set(dealt.values()) == {1}
