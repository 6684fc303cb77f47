"""``./dev test --quick`` leaves out only the tests named in ``tests/slow.py``; ``./dev test`` runs them all."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import pytest

from tests.slow import SLOW, mark

ROOT = Path(__file__).resolve().parents[1]


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
    runs = [line for line in (ROOT / "dev").read_text().splitlines() if "-m pytest" in line]
    quick = [line for line in runs if "not browser" in line]
    full = [line for line in runs if "--nbval" in line]
    assert len(quick) == 1 and '"not browser and not wheel and not slow"' in quick[0]
    assert len(full) == 1 and " -m " not in full[0].split("-m pytest", 1)[1]  # ./dev test (CI): every test
