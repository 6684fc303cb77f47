"""Solving a puzzle right in a test: the engine's answer, then, on a claim, its evidence (R12, R13).

A claim is solved only with its proof: a right yes/no opens the evidence stage, and a tap on a
card the proof uses (or, after no, a ghost) finishes it.  :func:`solve` does both, as a learner
who knows the answer would, through the same :meth:`answer` and :meth:`evidence` a tap reaches.
"""

from __future__ import annotations

from typing import Any

_UNSET: Any = object()


def right_card(target: Any) -> str | None:
    """A right card of the evidence stage open on ``target`` (a puzzle controller or widget), else None."""
    controller = getattr(target, "controller", target)
    stage = controller.stage
    if stage is None or controller.state != "evidence":
        return None
    return sorted(c.notation for c in stage.right if c in stage.offered)[0]


def solve(target: Any, value: object = _UNSET) -> bool:
    """Answer ``value`` (the engine's answer by default) and, when it opens the evidence stage, tap a right card.

    Returns what the last call returned (``answer`` or ``evidence``): whether it was right.
    """
    controller = getattr(target, "controller", target)
    correct = bool(target.answer(controller.puzzle.solve() if value is _UNSET else value))
    card = right_card(target)
    if card is not None:
        correct = bool(target.evidence(card))
    return correct


def tap_proof(widget: Any) -> None:
    """On a widget whose claim's evidence stage is open, tap a right card through its board (``Taps``)."""
    card = right_card(widget)
    if card is not None:
        widget.taps.evidence(card)
