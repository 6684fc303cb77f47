"""The j/k keys of the proof: the board component's own keys, no script in HTML.

The puzzle widget is drawn by the board component (``board.js``), whose one key listener per
page sends the intent ``{"step": +1 | -1}`` for j/k (and ←/→ on the proof's buttons) while a
proof is shown; the widget steps through its session as for a tap on step-next / step-back.
:class:`battleline_lab.widgets.board.StepKeys` is the invisible component that did this before, kept for
any widget without a board.  The browser side is in ``tests/browser/test_puzzle_board_browser.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle
from battleline_lab.widgets import PuzzleWidget
from battleline_lab.widgets.board import Board, StepKeys
from battleline_lab.widgets.intents import IntentWarning

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def test_every_puzzle_widget_steps_its_proof_through_its_board() -> None:
    w = PuzzleWidget(load_puzzle(min(iter_puzzle_files([PUZZLES]))), record=False)
    assert sum(isinstance(child, Board) for child in w.children) == 1
    assert not any(isinstance(child, StepKeys) for child in w.children)
    # what the keys send, in the browser's terms (j/k, not from a text field, only while a proof is
    # shown): board.js and keys.js on a fake DOM under node --test, tests/js/board_dom.test.mjs and
    # tests/js/keys_dom.test.mjs, run by tests/test_board_js.py


def test_j_and_k_step_the_proof_only_while_it_is_shown() -> None:
    w = PuzzleWidget(load_puzzle(min(iter_puzzle_files([PUZZLES]))), record=False)
    assert "proof" not in w.board.view  # the board sends j/k only while view.proof is set
    w.board.intent({"step": 1})
    assert w.step_index is None  # no proof shown: the keys do nothing
    while w.hint_level < 3:  # the last hint opens the proof
        w.hint()
    assert w.board.view["proof"]["index"] == 0 and w.step_index == 0
    if len(w.controller.proof()) > 1:
        assert w.board.intent({"step": 1}) and w.step_index == 1  # j
        assert w.board.intent({"step": -1}) and w.step_index == 0  # k
    with pytest.warns(IntentWarning):
        assert not w.board.intent({"step": 5})  # only one step at a time
    with pytest.warns(IntentWarning):
        assert not w.board.intent({"play": ["r3", 1]})  # not a puzzle's intent: nothing happens
    with pytest.warns(IntentWarning):
        assert w.step_index == 0 and not w.board.intent({"format": "c:"})
