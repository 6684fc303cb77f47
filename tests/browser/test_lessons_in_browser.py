"""The lessons in a real browser: JupyterLab + ipywidgets front end + headless Debian Chromium.

nbval proves the kernel side; only a browser shows that the widgets render and respond.  These
tests do what a learner does: open the gym lesson, run it, answer a claim puzzle wrongly and see
the counterexample, answer rightly, and step through the proof watching the highlights move.
Each check is made in JupyterLab and on the JupyterLite site, and looks at what appears: the proof,
the reset confirmation, the explorer's Mud slot.  Each is made on a run of its lesson made anyway:
in JupyterLab, the cold lessons' run of lessons 1 and 5 (``test_lessons_cold.py``, after its
axe-core audit); on the site, the sweep's runs of lessons 1 and 5 (``test_site_browser.py``, after
its own checks).  This module holds the checks, and the puzzle they pick.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from battleline_lab import analyse_claim
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions import ClaimQuestion
from battleline_lab.text.messages import topic_name
from battleline_lab.training.progress import Progress, PuzzleRecord
from battleline_lab.widgets import load_puzzles
from tests.browser import ui
from tests.browser.conftest import assert_no_widget_errors, run_code, until

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser

TAG = "companion"  # the gym filter the learner picks: a topic (tags such as counterexample would give answers away)
HIGHLIGHTED = ".bl-gym-puzzle .bl-board-view .bl-card.bl-highlight"


def cards(page: Page, selector: str) -> list[str]:
    return [str(c) for c in page.locator(selector).evaluate_all("els => els.map(e => e.getAttribute('data-card'))")]


def first_counterexample_puzzle() -> Puzzle:
    """The puzzle the gym shows first under the topic filter: it must be a claim that fails."""
    puzzles = [p for p in load_puzzles(ROOT / "puzzles") if TAG in p.topics]
    assert puzzles, f"no puzzle with the topic {TAG!r}"
    puzzle = puzzles[0]
    assert isinstance(puzzle.question, ClaimQuestion) and puzzle.solve() is False, puzzle.id
    return puzzle


def gym_wrong_answer_counterexample_right_answer_and_proof_steps(
    page: Page, front: str, data_dir: Path | None, output_dir: Path
) -> None:
    """Lesson 5, run in the front end ``front`` (a learner's data folder ``data_dir`` in JupyterLab,
    None on the site: the browser's drive, where no earlier answer to :func:`first_counterexample_puzzle`
    may be): a wrong answer to the first puzzle of the topic :data:`TAG`, its counterexample, the
    right answer, the proof's steps, the progress kept, and the reset's question cancelled."""
    puzzle = first_counterexample_puzzle()
    question = puzzle.question
    assert isinstance(question, ClaimQuestion)
    analysis = analyse_claim(puzzle.position, question.flag, puzzle.position.turn)
    # JupyterLab's data folder is shared by the worker's tests (another may have answered this
    # puzzle first): this test's two attempts are counted on top of what was there
    before = Progress(data_dir).get(puzzle.id) if data_dir is not None else None

    gym = page.locator(".bl-gym")
    expect(gym).to_be_visible(timeout=60_000)
    gym.locator(".bl-filter-tag select").select_option(label=topic_name(TAG))
    widget = gym.locator(".bl-gym-puzzle .bl-puzzle")
    expect(widget.locator(".bl-title")).to_contain_text(puzzle.title_text())
    expect(widget.locator(".bl-feedback.bl-state-waiting")).to_be_visible()

    # a wrong "yes, I can claim": where to look and the rule's id, nothing drawn yet (R12)
    widget.locator(".bl-answer-yes").click()
    expect(widget.locator(".bl-feedback.bl-state-wrong")).to_be_visible()
    expect(widget.locator(".bl-feedback")).to_contain_text("Try again")
    ghosts = widget.locator(".bl-board-view .bl-card.bl-ghost")
    expect(ghosts).to_have_count(0)
    expect(widget.locator(".bl-explanation")).to_be_hidden()
    gym.screenshot(path=str(output_dir / f"gym-wrong-answer-{front}.png"))

    # "Show the solution": the proof opens, the counterexample drawn as ghost cards (R12)
    widget.locator(".bl-solution").click()
    expect(ghosts).to_have_count(len(analysis.counterexample))
    assert cards(page, ".bl-gym-puzzle .bl-board-view .bl-card.bl-ghost") == [
        c.notation for c in analysis.counterexample
    ]
    expect(widget.locator(".bl-explanation")).to_be_visible()

    # the right answer still ends it (the first answer was the one rated)
    widget.locator(".bl-answer-no").click()
    expect(widget.locator(".bl-feedback.bl-state-right")).to_be_visible()
    expect(widget.locator(".bl-explanation")).to_be_visible()
    total = len(analysis.steps)
    lit: list[frozenset[str]] = []
    counterexample_step = [s.reason.value for s in analysis.steps].index("counterexample")
    for i, step in enumerate(analysis.steps):
        expect(widget.locator(".bl-step-counter")).to_contain_text(f"step {i + 1} of {total}")
        expected = {c.notation for c in step.highlight}
        until(
            lambda want=expected: set(cards(page, HIGHLIGHTED)) == want,  # type: ignore[misc]
            f"step {i + 1} highlighting {sorted(expected)}",
        )
        lit.append(frozenset(expected))
        if i == counterexample_step:
            expect(ghosts).to_have_count(len(analysis.counterexample))
            widget.locator(".bl-explanation").evaluate("e => e.scrollIntoView({block: 'start'})")
            page.screenshot(path=str(output_dir / f"gym-proof-counterexample-step-{front}.png"))
        if i < total - 1:
            widget.locator(".bl-next").click()
    assert len(set(lit)) >= 2, "the highlighted cards never changed"
    expect(widget.locator(".bl-next")).to_be_disabled()
    widget.locator(".bl-back").click()
    expect(widget.locator(".bl-step-counter")).to_contain_text(f"step {total - 1} of {total}")
    expect(widget.locator(ui.STEP_TEXT)).to_contain_text(re.compile(r"\S"))
    page.screenshot(path=str(output_dir / f"gym-full-page-{front}.png"), full_page=True)
    assert_no_widget_errors(page)

    # the kernel saved the learner's progress in the (temporary) user data folder / the browser's drive
    expect(gym.locator(ui.GYM_STATUS)).to_contain_text("solved")
    if data_dir is not None and before is not None:
        added = PuzzleRecord(solved=True, attempts=before.attempts + 2, hints=before.hints)
        assert Progress(data_dir).get(puzzle.id) == added, before
    else:
        probe = f"from battleline_lab.training import progress; print(progress.Progress().get({puzzle.id!r}))"
        shown = run_code(page, probe)
        assert "PuzzleRecord(solved=True, attempts=2, hints=0)" in shown, shown

    # "Reset my progress" asks first; Cancel keeps everything
    question_box = gym.locator(ui.GYM_RESET_QUESTION)
    expect(question_box).to_be_hidden()
    gym.locator(ui.GYM_RESET).click()
    expect(question_box).to_be_visible()
    expect(question_box).to_contain_text("Nothing is deleted")
    gym.locator(ui.GYM_RESET_CANCEL).click()
    expect(question_box).to_be_hidden()
    expect(gym.locator(ui.GYM_STATUS)).to_contain_text("solved")


def explorer_responds(page: Page, front: str, output_dir: Path) -> None:
    """Lesson 1, run in the front end ``front``: its explorer answers the learner."""
    explorer = page.locator(".bl-explorer")
    expect(explorer).to_be_visible(timeout=60_000)
    verdict = explorer.locator(".bl-explorer-verdict")
    expect(verdict).to_contain_text("The opponent wins")
    explorer.locator(".bl-fog input").check()  # R24: only sums count
    expect(verdict).to_contain_text("under Fog only sums count")
    expect(explorer.locator('.blb [data-card][data-zone="board"]').first).to_be_visible()
    # tap a placed card: taken off; tap a card of the palette, then the empty slot: placed (R20 gone)
    explorer.locator(f'{ui.TAKE}[data-card="alexander"]').click()
    expect(verdict).to_contain_text("Pick 3 cards")
    explorer.locator(f'{ui.PALETTE_CARD}[data-card="b10"]').click()
    explorer.locator(f'{ui.PLACE}[data-side="opponent"]').first.click()
    expect(explorer.locator('.blb [data-card="b10"][data-zone="board"][data-side="opponent"]')).to_have_count(1)
    expect(verdict).to_contain_text("27 beats 12")
    # Mud: each side gets a fourth card slot (R25), shown only while Mud is ticked
    mud_slot = explorer.locator(ui.MUD_SLOT)
    expect(mud_slot).to_be_hidden()
    explorer.locator(ui.MUD).check()
    expect(mud_slot).to_be_visible()
    explorer.screenshot(path=str(output_dir / f"explorer-{front}.png"))
    explorer.locator(ui.MUD).uncheck()
    expect(mud_slot).to_be_hidden()
    assert_no_widget_errors(page)
