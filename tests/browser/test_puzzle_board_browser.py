"""Puzzles on the board component, in JupyterLab and on the site, at 360 and 1400 px.

Every kind of question is solved through the hooks alone (``docs/widgets.md``), pairwise: by taps at
360 px and by keys at 1400 px, in each front end, so each width, each way of answering and each
front end is still checked, in half the time of the full matrix (both ways at both widths); the rule
link is checked at 1400 px. The kinds: a claim (``data-action="answer"`` ``yes``/``no``, then its
proof: a card on the board that proves a yes, or after a no the card they could still get, from
the palette of unseen troops; ``data-action="evidence"``), "which flags" (the flags themselves,
``data-value="N"``, then Check), a comparison (``a``/``b``) and a
formation (the kind). Each time the test checks the feedback (``data-role="feedback"``), that the
proof step appears (``data-role="proof-step"``) and steps with ``step-next``/``step-back`` and j/k
(and ←/→ on the proof's buttons, by keys), that focus stays inside the widget after an answer, and
that nothing moves when the puzzle is answered: the bounding boxes of the board, the answers, the
proof step and the feedback are the same before the first answer and after the right one. A rule id
of a shown step is a link that opens the rules page in the same front end.

One page per front end: in JupyterLab a lesson is opened (not run), on the site the sweep over every
lesson (``test_site_browser.py``) has run lesson 7 on its own page and kernel; for each case, one
new cell under it draws four fresh puzzles (:func:`every_kind_at_both_widths`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser import ui
from tests.browser.conftest import Front, assert_no_widget_errors, lab_goto, run_code
from tests.browser.test_board_browser import arrows_to, size_cell, wait_redraw

pytestmark = pytest.mark.browser

#: one puzzle of each kind: (library id, a wrong answer, the right answer); flags as lists
PUZZLES = (
    ("seed-wedge-against-two-sixes", "no", "yes"),  # claim (R12)
    ("seed-blue-seven-in-your-hand", "yes", "no"),  # claim, no (R12, R13)
    ("which-flags-are-yours", [1], [1, 7]),  # which flags (R12)
    ("battalion-beats-skirmish", "b", "a"),  # compare (R10)
    ("run-in-two-colours", "wedge", "skirmish"),  # formation (R9)
)
#: a claim's evidence, worked out by hand: (a wrong card, a right one).  Yes at flag 5: r6 g6 are two
#: colours of one value, never a Wedge (R10), while r3 is the claimer's own; no: b8 needs b7 or b9 or
#: b6-b7, b9-b10 for a blue Wedge, and b7 in your hand is unseen to them (R13), y1 no help
EVIDENCE = {"seed-wedge-against-two-sixes": ("r3", "r6"), "seed-blue-seven-in-your-hand": ("y1", "b7")}
LESSON = "notebooks/03-claim-proofs.ipynb"
#: the parts of a puzzle that must not move when it is answered
STILL = (".blb-board", ".blb-answers", ui.PROOF_STEP, ui.PUZZLE_FEEDBACK)


def open_lesson(page: Page, frontend: Front) -> None:
    """JupyterLab's page with :data:`LESSON` open, its kernel idle (a host for new cells; on the site
    the sweep's run lesson is the host)."""
    assert not frontend.site
    lab_goto(page, frontend.url, LESSON)
    page.locator(".jp-StatusBar-TextItem", has_text="Idle").first.wait_for(timeout=90_000)


def draw_puzzles(page: Page, tag: str) -> Locator:
    """A new cell drawing the four puzzles, fresh; returns their box (found by ``tag``)."""
    ids = ", ".join(repr(p[0]) for p in PUZZLES)
    code = (
        "import ipywidgets as W; from battleline_lab.widgets import PuzzleWidget as P; "
        f"W.VBox([P(i, record=False) for i in ({ids})]).add_class({tag!r})"
    )
    run_code(page, code)
    box = page.locator(f".{tag}").first
    expect(box.locator(ui.PUZZLE)).to_have_count(len(PUZZLES), timeout=60_000)
    expect(box.locator(f"{ui.PUZZLE} .blb")).to_have_count(len(PUZZLES), timeout=60_000)
    return box


#: a script, ``(puzzle, selectors) => boxes``: :func:`boxes` read in the page, all four parts in one
#: call; a part with no box (absent or not drawn) is null, as Playwright's ``bounding_box`` has it
_BOXES = """(puzzle, selectors) => {
    const o = puzzle.getBoundingClientRect();
    return selectors.map((selector, i) => {
        const el = puzzle.querySelector(selector);
        if (!el || el.getClientRects().length === 0) return null;
        const r = el.getBoundingClientRect();
        return i < 2 ? [r.x - o.x, r.y - o.y, r.width, r.height] : [r.x - o.x, r.y - o.y, r.width];
    });
}"""

#: a script: :data:`_BOXES` looked at every 250 ms in the page until two looks in a row agree (at
#: most ``tries`` looks after the first); returns the boxes then, or null if they never stopped moving
_SETTLED = (
    "async (puzzle, [selectors, tries]) => {\n"
    f"    const boxes = {_BOXES};\n"
    """    let last = JSON.stringify(boxes(puzzle, selectors));
    for (let i = 0; i < tries; i++) {
        await new Promise(resolve => setTimeout(resolve, 250));
        const now = JSON.stringify(boxes(puzzle, selectors));
        if (now === last) return JSON.parse(now);
        last = now;
    }
    return null;
}"""
)


def _tuples(found: list[list[float] | None]) -> list[tuple[float, ...] | None]:
    return [None if box is None else tuple(box) for box in found]


def boxes(puzzle: Locator) -> list[tuple[float, ...] | None]:
    """Where the still parts are: the board and the answers whole; the proof step and the feedback
    by their top-left corner and width (their text may grow downwards, in their own place).  Relative
    to the widget: the notebook may scroll (a tap near the edge)."""
    return _tuples(puzzle.evaluate(_BOXES, list(STILL)))


def settled(puzzle: Locator) -> list[tuple[float, ...] | None]:
    """:func:`boxes` once the widget is drawn and still (the site lays its cell out in steps): two
    looks 250 ms apart agree, at most 40 waits (all in the page, in one call)."""
    found = puzzle.evaluate(_SETTLED, [list(STILL), 40])
    if found is None:
        raise AssertionError("the puzzle never stopped moving")
    return _tuples(found)


def rev(board: Locator) -> str:
    return str(board.get_attribute("data-rev"))


def redrawn(page: Page, board: Locator, before: str) -> None:
    """Until the board draws the kernel's answer (:func:`tests.browser.test_board_browser.wait_redraw`)."""
    wait_redraw(page, board, before, timeout=60_000)


def focus_group(page: Page, group: str | None) -> None:
    """Move the focus into a group of the board (flags, choices, proof) with ArrowDown only."""
    for _ in range(8):
        if page.evaluate("() => document.activeElement && document.activeElement.dataset.nav") == group:
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"group {group} not reached by ArrowDown")


def focus_to(page: Page, target: Locator) -> None:
    """Move the focus to ``target`` with the arrow keys only (Down between groups, Right within; the
    palette of unseen troops is one group of up to 60 cards): :func:`tests.browser.test_board_browser.arrows_to`."""
    arrows_to(page, target, 8, 64)


def focus_inside(page: Page, board: Locator) -> bool:
    return bool(board.evaluate("b => b.contains(document.activeElement) && document.activeElement !== b"))


def tap(page: Page, board: Locator, target: Locator, keyboard: bool, key: str = "Enter") -> None:
    before = rev(board)
    if keyboard:
        focus_to(page, target)
        page.keyboard.press(key)
    else:
        target.click()
    redrawn(page, board, before)


def give(page: Page, board: Locator, answer: object, keyboard: bool) -> None:
    """Answer through the hooks: the flags then Check, or the one answer button."""
    if isinstance(answer, list):
        for n in answer:
            flag = board.locator(f'.blb-flag[data-action="answer"][data-value="{n}"]')
            if flag.get_attribute("aria-pressed") != "true":
                tap(page, board, flag, keyboard, key=" ")
            expect(flag).to_have_attribute("aria-pressed", "true")
        tap(page, board, board.locator('[data-action="check"]'), keyboard)
    else:
        tap(page, board, board.locator(f'[data-action="answer"][data-value="{answer}"]'), keyboard)


def prove(page: Page, puzzle: Locator, cards: tuple[str, str], keyboard: bool) -> None:
    """A claim's evidence stage: a wrong card (the feedback says where to look), then a right one."""
    board = puzzle.locator(".blb")
    feedback = puzzle.locator(ui.PUZZLE_FEEDBACK)
    section = puzzle.locator('[data-role="evidence"]')
    expect(feedback).to_have_attribute("data-state", "evidence")
    expect(section).to_be_visible()
    for card, state in zip(cards, ("wrong", "right"), strict=True):
        target = board.locator(f'[data-action="evidence"][data-card="{card}"]')
        tap(page, board, target, keyboard)
        expect(feedback).to_have_attribute("data-state", state)
        expect(section).to_have_attribute("data-state", state)


def solve(
    page: Page, puzzle: Locator, wrong: object, right: object, keyboard: bool, proof: tuple[str, str] | None = None
) -> None:
    board = puzzle.locator(".blb")
    feedback = puzzle.locator(ui.PUZZLE_FEEDBACK)
    step = puzzle.locator(ui.PROOF_STEP)
    expect(feedback).to_have_attribute("data-state", "waiting")
    expect(step).to_have_attribute("data-waiting", "true")  # its place is kept, empty of proof
    puzzle.scroll_into_view_if_needed()
    before = settled(puzzle)
    if keyboard:  # enter the widget once (one Tab stop); from here on only keys
        board.locator('[data-nav][tabindex="0"]').first.focus()
    give(page, board, wrong, keyboard)
    expect(feedback).to_have_attribute("data-state", "wrong")
    assert boxes(puzzle) == before, "the puzzle moved on a wrong answer"
    give(page, board, right, keyboard)
    if proof is not None:
        prove(page, puzzle, proof, keyboard)
    expect(feedback).to_have_attribute("data-state", "right")
    expect(step).not_to_have_attribute("data-waiting", "true")
    expect(step).to_contain_text(re.compile(r"\S"))
    assert boxes(puzzle) == before, "the puzzle moved when it was answered"
    if keyboard:
        assert focus_inside(page, board), "the focus left the widget after the answer"
        ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
        assert ring != "none", "no visible focus ring"
    counter = puzzle.locator(ui.PUZZLE_STEP_COUNTER)
    total = int(re.findall(r"\d+", counter.inner_text())[-1])
    expect(counter).to_contain_text("1")
    if total < 2:
        return
    first = step.inner_text()
    # the buttons (taps or ←/→ on them), then j/k with the focus anywhere in the widget
    nxt, back = board.locator('[data-action="step-next"]'), board.locator('[data-action="step-back"]')
    if keyboard:  # ←/→ on the proof's buttons step it (whichever of the two has the focus)
        focus_group(page, "proof")
        before_rev = rev(board)
        page.keyboard.press("ArrowRight")
        redrawn(page, board, before_rev)
    else:
        tap(page, board, nxt, False)
    expect(counter).to_contain_text("2")
    assert step.inner_text() != first
    if keyboard:
        before_rev = rev(board)
        page.keyboard.press("ArrowLeft")
        redrawn(page, board, before_rev)
    else:
        tap(page, board, back, False)
    expect(counter).to_contain_text("1")
    expect(step).to_have_text(first)
    for key, number in (("j", "2"), ("k", "1")):
        before_rev = rev(board)
        page.keyboard.press(key)
        redrawn(page, board, before_rev)
        expect(counter).to_contain_text(number)
    assert boxes(puzzle)[:2] == before[:2], "stepping the proof moved the board or the answers"


def check_rule_link(page: Page, frontend: Front, puzzle: Locator) -> None:
    """The first rule id of the shown step links to its rule; it opens the rules page in the same front end."""
    link = puzzle.locator(f"{ui.PROOF_STEP} a.blb-rule").first
    expect(link).to_have_text(re.compile(r"^R\d+$"))
    rule = link.inner_text()
    href = str(link.get_attribute("href"))
    assert href.endswith(f"#{rule}"), href
    if frontend.site:
        assert href.endswith(f"/rules.html#{rule}"), href  # the site's own rules page, beside its front page
    else:
        assert "/lab/tree/notebooks/rules.md#" in href, href  # the lessons' folder: notebooks/rules.md
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    if frontend.site:  # a web page, at the rule itself
        expect(rules.locator(f"li#{rule}")).to_be_visible(timeout=60_000)
        expect(rules.locator(f"li#{rule}")).to_contain_text(rule)
    else:  # JupyterLab opens the rules page in a tab of its own (a lesson may be restored beside it)
        expect(rules.locator(".lm-TabBar-tab", has_text="rules.md").first).to_be_visible(timeout=120_000)
        shown = rules.locator(".jp-MainAreaWidget:not(.jp-NotebookPanel):not(.lm-mod-hidden)").filter(has_text=rule)
        expect(shown.first).to_be_visible(timeout=60_000)
    rules.close()


#: pairwise: (width, by keys): each width, each way of answering, once per front end
CASES = [(360, False), (1400, True)]


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_puzzles_of_every_kind_by_taps_at_360_and_by_keys_at_1400(
    front_page: Page, frontend: Front, output_dir: Path
) -> None:
    """In JupyterLab: the lesson opened once, then :func:`every_kind_at_both_widths`.  On the site the
    sweep over every lesson makes the same checks on its own run of lesson 7
    (``test_site_browser.py``: one Pyodide kernel and one page fewer)."""
    front_page.set_viewport_size({"width": 1000, "height": 1000})
    open_lesson(front_page, frontend)
    every_kind_at_both_widths(front_page, frontend, output_dir)


def every_kind_at_both_widths(page: Page, frontend: Front, output_dir: Path) -> None:
    """Both cases of :data:`CASES` on a page that holds a notebook: a cell of four fresh puzzles for
    each case, one under the other (each board takes only the keys inside it).  It leaves the window
    at 1400 x 1000 px."""
    for width, keyboard in CASES:
        page.set_viewport_size({"width": max(width, 1000), "height": 1000})
        _every_kind(page, frontend, width, keyboard, output_dir)


def _every_kind(page: Page, frontend: Front, width: int, keyboard: bool, output_dir: Path) -> None:
    """Four fresh puzzles in a new cell, each solved by taps or by keys in a cell ``width`` px wide."""
    box = draw_puzzles(page, f"bl-test-puzzles-{width}-{int(keyboard)}")
    if width < 600:
        size_cell(page, box, width)
    for (pid, wrong, right), puzzle in zip(PUZZLES, box.locator(ui.PUZZLE).all(), strict=True):
        solve(page, puzzle, wrong, right, keyboard, EVIDENCE.get(pid))
    # one picture of the case, every puzzle answered (one per puzzle cost a capture each)
    box.screenshot(path=str(output_dir / f"puzzle-board-{frontend.name}-{width}-{int(keyboard)}.png"))
    if width == 1400:
        check_rule_link(page, frontend, box.locator(ui.PUZZLE).first)
    if not frontend.site:
        assert_no_widget_errors(page)
