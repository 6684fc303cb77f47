"""Lesson 3 in JupyterLab answers its puzzle before anything runs, from the response table it saved.

The lesson is opened and never run: its puzzle widget is drawn from the notebook's saved widget
state (no comm: the board's ping goes unanswered), so the board answers from its table.  The test
answers wrong, then right (and the claim's evidence), steps the proof, and checks each view against
the live controller given the same taps.  Then it runs the cells: the live widget answers the ping,
the taps queued in the browser are replayed to it, and the learner's progress holds them once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from battleline_lab.controllers.puzzle import PuzzleController
from battleline_lab.core.cards import parse_card
from battleline_lab.quiz import library
from battleline_lab.training.progress import Progress
from tests.browser.conftest import Lab, lab_goto, until

pytestmark = pytest.mark.browser

LESSON = "notebooks/03-claim-proofs.ipynb"
PUZZLE = "one-end-open"


def _taps() -> tuple[list[dict[str, object]], PuzzleController]:
    """A wrong answer, the right one and its evidence, and the live controller that took them."""
    puzzle = library.get(PUZZLE)
    c = PuzzleController(puzzle)
    values = [str(b["value"]) for b in c.view()["answers"] if "value" in b]
    right = next(v for v in values if puzzle.is_correct(v == "yes"))
    taps: list[dict[str, object]] = [{"answer": next(v for v in values if v != right)}, {"answer": right}]
    for tap in taps:
        c.intent("answer", tap["answer"])
    stage = c.stage
    assert c.state == "evidence" and stage is not None
    card = next(k for k in sorted(c.evidence_keys()) if stage.judge(puzzle.position, parse_card(k)).verdict == "right")
    taps.append({"evidence": card})
    c.evidence(card)
    assert c.state == "right"
    return taps, c


def test_R12_lesson_3_answers_from_its_table_before_the_kernel_and_records_the_taps_once_it_runs(
    lab_page: Page, lab: Lab, output_dir: Path
) -> None:
    page = lab_page
    taps, live = _taps()

    def attempts() -> list[tuple[str, bool | None]]:
        return [(r.kind, r.correct) for r in Progress(lab.data_dir).attempts() if r.puzzle_id == PUZZLE]

    # the lab is shared by this worker's tests, and another may have answered this puzzle already
    before = len(attempts())

    def recorded() -> list[tuple[str, bool | None]]:
        return attempts()[before:]

    lab_goto(page, lab.url, LESSON)
    board = page.locator(".blb[data-table='ready']").first
    board.wait_for(timeout=150_000)  # drawn from the saved state, its table inflated
    feedback = board.locator("[data-role='feedback']")

    # wrong, then right: each answered at once from the table (no cell has run)
    wrong, right, evidence = taps
    board.locator(f"[data-action='answer'][data-value='{wrong['answer']}']").click()
    expect(feedback).to_have_class(re.compile(r"blb-tone-wrong"), timeout=2_000)
    board.locator(f"[data-action='answer'][data-value='{right['answer']}']").click()
    board.locator(f"[data-action='evidence'][data-card='{evidence['evidence']}']").first.click()
    expect(feedback).to_have_class(re.compile(r"blb-tone-right"), timeout=2_000)
    expect(feedback).to_contain_text(live.view()["feedback"]["text"])

    # the proof steps, forward and back, as the controller steps it
    step = board.locator("[data-role='proof-step']")
    proof = live.view()["proof"]
    assert len(proof["steps"]) >= 2
    texts = ["".join(part["text"] for part in s) for s in proof["steps"]]
    expect(step).to_have_text(texts[0])
    board.locator("[data-action='step-next']").click()
    expect(step).to_have_text(texts[1])
    board.locator("[data-action='step-back']").click()
    expect(step).to_have_text(texts[0])
    page.screenshot(path=str(output_dir / "response-table-lesson-03.png"))
    queued = page.evaluate(f"JSON.parse(localStorage.getItem('battleline-lab.queue.{PUZZLE}')).intents")
    assert queued == [*taps, {"step": 1}, {"step": -1}]
    assert recorded() == []  # nothing reached the learner's progress yet

    # now the cells run: the live widget answers the ping, the queue is replayed and recorded once
    page.locator(".jp-StatusBar-TextItem", has_text="Idle").first.wait_for(timeout=90_000)
    page.locator(".lm-MenuBar-item").get_by_text("Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()

    key = f"battleline-lab.queue.{PUZZLE}"
    until(lambda: page.evaluate(f"localStorage.getItem('{key}')") is None, "the queue replayed and recorded", 180)
    assert recorded() == [("answer", False), ("answer", True)]
    live_board = page.locator(".blb").first
    expect(live_board.locator("[data-role='feedback']")).to_have_class(re.compile(r"blb-tone-right"))
