"""One test over a whole collection (the puzzle library) that still names every case that fails.

A test parametrized by library file is collected, set up and reported once per puzzle, in each of
several test files: thousands of items for one pass over about 120 files.  :func:`check_every` runs a
check on every case in one test instead, and never stops at the first failure: the test fails with
one message that names each failing case and says why (the check's own assertion message, as
pytest rewrote it), so nothing is lost by the collapse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def failures(cases: Iterable[tuple[str, T]], check: Callable[[T], object]) -> list[str]:
    """``name: error`` for each case whose check raised (an assertion or any other exception)."""
    found = []
    for name, case in cases:
        try:
            check(case)
        except Exception as error:  # a crash in one case is that case's failure; the others still run
            text = str(error).strip() or type(error).__name__
            if not isinstance(error, AssertionError):
                text = f"{type(error).__name__}: {text}"
            found.append(f"{name}: {text}")
    return found


def check_every(cases: Iterable[tuple[str, T]], check: Callable[[T], object]) -> None:
    """Run ``check`` on every ``(name, case)``; fail once, naming every case that failed and why."""
    listed = list(cases)
    assert listed, "no cases: the collection is empty"
    found = failures(listed, check)
    assert not found, f"{len(found)} of {len(listed)} cases failed:\n" + "\n\n".join(found)
