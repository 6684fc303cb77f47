"""The puzzle widget's calm layout, keyboard and announcements, in the kernel.

The puzzle is drawn by the board component (puzzle mode): the order and the fixed places of
its parts are the view model's and ``board.js``'s.  What ``board.js`` draws from a view (the
order of the parts, the live regions, the flags as answer toggles) is tested on its DOM with
``node --test`` (``tests/js/board_dom.test.mjs``, run by ``tests/test_board_js.py``); the browser
side (bounding boxes before and after an answer, widths, focus, axe-core) is in
``tests/browser/test_puzzle_board_browser.py`` and ``tests/browser/test_layout_a11y_browser.py``.
"""

from __future__ import annotations

import re

import pytest

from battleline_lab import Position
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions import ClaimableQuestion, ClaimQuestion
from battleline_lab.widgets import PuzzleWidget
from battleline_lab.widgets.intents import IntentWarning
from tests.solving import tap_proof

BLUE_EIGHT = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}})


def claim_widget() -> PuzzleWidget:
    return PuzzleWidget(Puzzle("p", {"en": "Flag 5"}, position=BLUE_EIGHT, question=ClaimQuestion(5)), record=False)


def test_nothing_above_the_feedback_moves_when_the_puzzle_is_answered() -> None:
    w = claim_widget()
    children = list(w.children)
    before = w.board.view
    w.taps.action("answer", "no")
    tap_proof(w)  # the right no, then its ghost (R12)
    after = w.board.view
    assert w.state == "right" and list(w.children) == children  # the same widgets, the same order
    assert w.title.value and "proof" not in before and after["proof"]["index"] == 0
    # the same parts above the feedback, with the same cards: only their states change
    for key in ("flags", "question", "answers_label", "proof_label", "step_back", "step_next"):
        assert (key in before) == (key in after), key
    assert [a.get("value") for a in before["answers"]] == [a.get("value") for a in after["answers"]]
    assert [len(f["you"]) + len(f["opponent"]) for f in before["flags"]] == [
        len(f["you"]) + len(f["opponent"]) for f in after["flags"]
    ]
    # board.js draws the answers, then the proof panel (its place kept before the answer), then the
    # feedback, answered or not: tests/js/board_dom.test.mjs; that none of them moves, by its
    # bounding box in a browser: tests/browser/test_puzzle_board_browser.py


def test_hint_and_show_the_solution_disappear_once_solved() -> None:
    w = claim_widget()
    assert w.board.view["hint"]["enabled"] is True
    w.taps.action("answer", "no")
    tap_proof(w)
    assert w.board.view["hint"]["enabled"] is False  # it keeps its place, aria-disabled
    w2 = claim_widget()
    for _ in range(3):
        w2.taps.action("hint")
    assert w2.hint_level == 3 and w2.board.view["hint"]["enabled"] is False


def test_R12_step_next_and_back_and_the_keys_move_through_the_same_proof() -> None:
    w = claim_widget()
    w.taps.action("answer", "no")
    tap_proof(w)
    total = len(w.board.view["proof"]["steps"])
    assert total >= 2 and w.board.view["proof"]["index"] == 0
    for _ in range(total + 2):  # j or the step-next button, past the end: it stays at the last step
        w.board.intent({"step": 1})
    assert w.step_index == total - 1 and w.board.view["proof"]["counter"] == f"step {total} of {total}"
    w.taps.step(-1)
    assert w.step_index == total - 2
    with pytest.warns(IntentWarning):
        assert not w.board.intent({"step": 5})  # not one step: refused
    assert w.step_index == total - 2


def test_feedback_and_steps_are_announced() -> None:
    # the live regions (feedback role=status, the proof step, the hints): tests/js/board_dom.test.mjs
    w = claim_widget()
    w.taps.action("answer", "yes")
    assert w.board.view["feedback"]["tone"] == "wrong" and w.feedback_text()
    w.taps.action("answer", "no")
    assert w.board.view["feedback"]["state"] == "evidence" and w.board.view["feedback"]["text"]
    tap_proof(w)
    assert w.step_text() and w.board.view["feedback"]["tone"] == "right"


def test_R12_which_flags_is_answered_on_the_board_flags_themselves() -> None:
    pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "g8 g9 g10", "opponent": "p1 p2 p3"}})
    w = PuzzleWidget(Puzzle("c", {"en": "which"}, position=pos, question=ClaimableQuestion()), record=False)
    flags = {f["n"]: f for f in w.board.view["flags"]}
    assert all(f["answer"] is False and not f.get("inert") for f in flags.values())  # data-action="answer"
    assert [a["action"] for a in w.board.view["answers"] if not a.get("hidden")] == ["check"]
    w.taps.flag(2)
    assert {f["n"]: f["answer"] for f in w.board.view["flags"]}[2] is True  # aria-pressed
    assert "flag 2" in flags[2]["label"] and ":" in flags[2]["label"]  # its accessible name says the choice
    # a tap on such a flag sends {"answer": "N"}: tests/data/tap_cases.json, run against board.js and Taps


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_rule_id_of_a_shown_step_is_a_link_to_its_rule(lang: str) -> None:
    w = claim_widget()
    w.set_lang(lang)
    w.taps.action("answer", "no")
    tap_proof(w)
    steps = w.board.view["proof"]["steps"]
    for step in steps:
        text = "".join(p["text"] for p in step)
        linked = [p["rule"] for p in step if "href" in p]
        assert linked == re.findall(r"R\d+", text)
        assert all(p["href"].endswith(f"rules.md#{p['rule']}") for p in step if "href" in p)
    assert any(p.get("href") for step in steps for p in step)
