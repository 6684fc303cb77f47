"""The j/k keys of the proof stepper (issues 9, 21): a component in every puzzle widget, no script in HTML.

The keys come from :class:`battleline_lab.board.StepKeys` (an anywidget: ``keys.js``), which
sends the intent ``{"step": +1 | -1}``; the widget steps through its session as for a click on
Next / Back.  Its behaviour in the browser (j/k step the proof, JupyterLab's cell stays, text
fields keep their keys) is checked in ``tests/browser/test_layout_a11y_browser.py``.
"""

from __future__ import annotations

from pathlib import Path

from battleline_lab.board import StepKeys
from battleline_lab.loader import iter_puzzle_files, load_puzzle
from battleline_lab.widgets import PuzzleWidget

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def test_every_puzzle_widget_carries_one_step_keys_component() -> None:
    w = PuzzleWidget(load_puzzle(min(iter_puzzle_files([PUZZLES]))), record=False)
    assert sum(isinstance(child, StepKeys) for child in w.children) == 1
    script = StepKeys._esm
    for part in ('"j"', '"k"', "input,textarea,select,[contenteditable]", "isContentEditable", ".bl-puzzle"):
        assert part in script


def test_j_and_k_step_the_proof_only_while_it_is_shown() -> None:
    w = PuzzleWidget(load_puzzle(min(iter_puzzle_files([PUZZLES]))), record=False)
    keys = w.step_keys
    assert not keys.active and not keys.intent({"step": 1})  # no proof shown: the keys do nothing
    while w.hint_level < 3:  # the last hint opens the proof
        w.hint()
    assert keys.active and w.step_index == 0
    if len(w._views) > 1:
        assert keys.intent({"step": 1}) and w.step_index == 1  # j
        assert keys.intent({"step": -1}) and w.step_index == 0  # k
    assert not keys.intent({"step": 5}) and not keys.intent({"play": 1})  # only one step at a time
