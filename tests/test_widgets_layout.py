"""The puzzle widget's calm layout, keyboard stepper and announcements (issue 9), in the kernel.

The browser side (widths, focus, axe-core) is in ``tests/browser/test_layout_a11y_browser.py``.
"""

from __future__ import annotations

import ipywidgets as W

from battleline_lab import Position
from battleline_lab.puzzle import Puzzle
from battleline_lab.questions import ClaimableQuestion, ClaimQuestion
from battleline_lab.svg import flag_grid_columns
from battleline_lab.widgets import PuzzleWidget

BLUE_EIGHT = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}})


def claim_widget() -> PuzzleWidget:
    return PuzzleWidget(Puzzle("p", {"en": "Flag 5"}, position=BLUE_EIGHT, question=ClaimQuestion(5)), record=False)


def test_nothing_above_the_feedback_moves_when_the_puzzle_is_answered() -> None:
    w = claim_widget()
    before = list(w.children)
    board_at = before.index(w.board)
    assert before.index(w.explanation) > before.index(w.feedback) > board_at  # the stepper's fixed place
    w.no_button.click()  # type: ignore[union-attr]
    assert w.state == "right" and list(w.children) == before
    assert w.explanation.layout.display != "none"


def test_hint_and_show_the_solution_disappear_once_solved() -> None:
    w = claim_widget()
    assert w.hint_button.layout.visibility == "visible"
    w.no_button.click()  # type: ignore[union-attr]
    assert w.hint_button.layout.visibility == "hidden"
    w2 = claim_widget()
    for _ in range(3):
        w2.hint_button.click()
    assert w2.hint_level == 3 and w2.hint_button.layout.visibility == "hidden"


def test_R12_step_slider_and_buttons_move_through_the_same_proof() -> None:
    w = claim_widget()
    w.no_button.click()  # type: ignore[union-attr]
    total = w.step_slider.max
    assert total >= 2 and w.step_slider.value == 1
    w.step_slider.value = total  # what the End key does
    assert w.step_index == total - 1 and w.next_button.disabled
    w.back_button.click()
    assert w.step_slider.value == total - 1 and w.step_index == total - 2


def test_feedback_and_steps_are_announced() -> None:
    w = claim_widget()
    assert 'role="status"' in w.feedback.value and 'aria-live="polite"' in w.feedback.value
    w.yes_button.click()  # type: ignore[union-attr]
    assert 'aria-live="polite"' in w.feedback.value
    w.no_button.click()  # type: ignore[union-attr]
    assert 'aria-live="polite"' in w.step_html.value


def test_claimable_toggles_sit_in_the_board_column_grid() -> None:
    pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "g8 g9 g10", "opponent": "p1 p2 p3"}})
    w = PuzzleWidget(Puzzle("c", {"en": "which"}, position=pos, question=ClaimableQuestion()), record=False)
    grids = [c for c in w.children if isinstance(c, W.GridBox)]
    assert len(grids) == 1 and grids[0].layout.grid_template_columns == flag_grid_columns()
    assert list(grids[0].children[1:10]) == [w.flag_toggles[n] for n in range(1, 10)]
    assert list(w.children).index(grids[0]) == list(w.children).index(w.board) + 1
