"""``tests/every.py``: one pass over a collection that names every failing case and why."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.every import check_every, failures


def _even(n: int) -> None:
    assert n % 2 == 0, f"{n} is odd"


def _inverse(n: int) -> None:
    assert 1 / n > 0, "negative"


@pytest.mark.parametrize(
    ("check", "cases", "expected"),
    [
        pytest.param(_even, [("a", 2), ("b", 4)], [], id="all-pass"),
        pytest.param(_even, [("a", 1), ("b", 2), ("c", 3)], ["a: 1 is odd", "c: 3 is odd"], id="every-failure-named"),
        pytest.param(_inverse, [("zero", 0), ("one", 1)], ["zero: ZeroDivisionError: division by zero"], id="a-crash"),
    ],
)
def test_failures_names_each_failing_case_and_keeps_going(
    check: Callable[[int], None], cases: list[tuple[str, int]], expected: list[str]
) -> None:
    found = failures(cases, check)
    assert [line.split("\n")[0] for line in found] == expected


def test_check_every_fails_once_with_every_failing_case_in_the_message() -> None:
    with pytest.raises(AssertionError) as raised:
        check_every([("first", 1), ("second", 2), ("third", 3)], _even)
    message = str(raised.value)
    assert "2 of 3 cases failed" in message
    assert "first: 1 is odd" in message and "third: 3 is odd" in message and "second" not in message


def test_check_every_refuses_an_empty_collection() -> None:
    with pytest.raises(AssertionError, match="no cases"):
        check_every([], _even)
