"""Python's :class:`~battleline_lab.widgets.board.Taps` against the board's one table of tap cases.

``tests/data/tap_cases.json`` describes the tap state machine once: a view, the browser's
selection before, one hit (a tap on a hook, a key, a drag, a drop), the selection after, the
intent sent, whether the hit is refused.  ``board.js``'s ``tap`` runs the same table under
``node --test`` (``tests/js/taps.test.mjs``, run by ``tests/test_board_js.py``); here ``Taps``
runs it, so tests and lessons that drive a widget from Python tap as a learner does.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from battleline_lab.widgets.board import Board, Taps

TABLE = json.loads((Path(__file__).resolve().parent / "data" / "tap_cases.json").read_text(encoding="utf-8"))


def run_hit(taps: Taps, hit: dict[str, Any]) -> None:
    """Make ``hit`` through ``Taps``'s methods (the same hooks a learner taps)."""
    kind, value = next(iter(hit.items()))
    if kind == "button":
        if value == "draw":
            taps.draw(hit["value"])
        else:
            taps.action(value, hit.get("value"))
    elif kind == "key":
        keys: dict[str, Callable[[], None]] = {
            "Escape": taps.escape,
            "j": lambda: taps.step(1),
            "k": lambda: taps.step(-1),
        }
        keys[value]()
    else:
        method: Callable[[Any], None] = {"hand": taps.card, "palette": taps.pick}.get(kind) or getattr(taps, kind)
        method(value)


@pytest.mark.parametrize("case", TABLE["cases"], ids=lambda c: c["id"])
def test_taps_follow_the_table(case: dict[str, Any]) -> None:
    sent: list[dict[str, Any]] = []
    board = Board(on_intent=lambda name, value: sent.append({name: value}))
    board.view = TABLE["views"][case["view"]]
    taps = Taps(board)
    taps.selected, taps.picked = case["before"]["sel"], case["before"]["pick"]
    refused = False
    try:
        run_hit(taps, case["hit"])
    except ValueError:
        refused = True
    assert {"sel": taps.selected, "pick": taps.picked} == case["after"]
    assert sent == ([case["intent"]] if case["intent"] is not None else [])
    assert refused == case["refused"]
    if "lit" in case:
        assert taps.legal_flags() == case["lit"]
