"""``./dev test --quick`` leaves out only the tests named in ``tests/slow.py``; ``./dev test`` runs them all."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import pytest

from tests.scripts import load_script
from tests.slow import SLOW, mark

ROOT = Path(__file__).resolve().parents[1]
run_tests = load_script(ROOT / "tools" / "run_tests.py", "run_tests")


@pytest.mark.parametrize("nodeid", sorted(SLOW))
def test_every_slow_name_is_a_test_that_exists(nodeid: str) -> None:
    path, name = nodeid.split("::")
    assert re.search(rf"^def {re.escape(name)}\(", (ROOT / path).read_text(), re.MULTILINE), nodeid


class _Item:
    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid
        self.markers: list[str] = []

    def add_marker(self, marker: Any) -> None:
        self.markers.append(marker.name)


def test_every_case_of_a_slow_test_is_marked_and_no_other_test() -> None:
    slow = next(iter(SLOW))
    items = [_Item(slow), _Item(f"{slow}[zh-3]"), _Item(f"{slow}_too"), _Item("tests/test_cards.py::test_x")]
    mark(cast(Any, items))
    assert [i.markers for i in items] == [["slow"], ["slow"], [], []]


def test_the_quick_run_deselects_slow_and_the_full_run_selects_every_test() -> None:
    dev = (ROOT / "dev").read_text()
    assert "tools/run_tests.py --quick" in dev and 'tools/run_tests.py "$@"' in dev
    quick = [t for t in run_tests.tiers(quick=True) if t.is_pytest]
    full = [t for t in run_tests.tiers() if t.is_pytest]
    assert [t.marker for t in quick] == ["not browser and not wheel and not slow"]
    # ./dev test (CI): no tier leaves out slow; tests/test_run_tests.py checks they cover every test
    assert full and all("slow" not in (t.marker or "") for t in full)
