"""The board component in JupyterLab and on the site: whole games by taps alone and by keys alone, 360 and 1400 px.

Everything goes through the component's hooks (a contract, ``docs/widgets.md``): ``data-card``
with ``data-zone``, ``data-flag`` with ``data-legal`` / ``data-claimable``, ``data-action``
(``draw`` with ``data-deck``, ``target``, ``pass``, ``end``, ``scout``, ``discard``) and
``data-role="feedback"``.  The learner's policy is simple and needs no rules: claim what is
marked claimable, draw when a deck is on offer, else play the first card that has a lit flag.
The game is against the seeded random bot; the kernel decides everything, the test only taps.
Whole games run in JupyterLab and on the built JupyterLite site (the site offline, Pyodide in the
browser), two in each, pairwise: 360 px by taps and 1400 px by keys.  Four games in all instead of
the eight of the full matrix, and every check is still made: each width (with its checks: the 360 px
cell, the 1366 x 768 window), each way of playing (and its seed) and each front end, and each width
with each front end.  A front end's two games are played on one page, one under the other.  In
JupyterLab that is this file's test (one page and one kernel), whose page then shows two more fresh
games, each in a new cell: the width sweep from 320 to 1600 px and the coach's odds (with its
axe-core audit), checks that once opened a notebook, a page and a kernel each.  On the site the two
games (:func:`whole_games`) go in new cells under lesson 0, once the sweep over every lesson
(``test_site_browser.py``) has run it on its own page and kernel: no page and no Pyodide kernel of
their own.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import (
    Front,
    Lab,
    assert_no_widget_errors,
    layout_settled,
    open_and_run,
    run_code,
)

pytestmark = pytest.mark.browser

#: a hook a tap may choose, in the order the policy prefers them (never a rule: only what is lit)
OFFERED = (
    '.blb-flag[data-claimable="true"]',
    '[data-action="draw"]:not([aria-disabled="true"])',
    '[data-action="end"]',
    '[data-action="target"]',
    '[data-action="scout"]',
    '[data-action="discard"]',
    '.blb-flag[data-legal="true"]',
    '[data-zone="hand"]:not([aria-disabled="true"])',
    '[data-action="pass"]',
)


def write_notebook(lab: Lab, name: str, source: str) -> str:
    """A one-cell notebook in the server's root (next to the lessons); returns its path there."""
    root = lab.data_dir.parent / "root"
    nb = {
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (root / name).write_text(json.dumps(nb))
    return name


def rev(board: Locator) -> str:
    return str(board.get_attribute("data-rev"))


#: a script, ``([board, rev, ms]) => drawn``: true once the board shows a redraw other than ``rev`` and
#: is not busy, false after ``ms``.  A MutationObserver on those two attributes wakes it: Playwright's
#: ``wait_for_function`` polls on every animation frame, and so kept Chromium drawing frames the whole
#: time a kernel (on the site Pyodide, in the same browser) worked on the answer
_REDRAWN = """([el, r, ms]) => new Promise(resolve => {
    const done = () => el.dataset.rev !== r && !el.dataset.busy;
    if (done()) return resolve(true);
    const watch = new MutationObserver(() => {
        if (done()) { clearTimeout(timer); watch.disconnect(); resolve(true); }
    });
    const timer = setTimeout(() => { watch.disconnect(); resolve(done()); }, ms);
    watch.observe(el, {attributes: true, attributeFilter: ['data-rev', 'data-busy']});
})"""


def wait_redraw(page: Page, board: Locator, before: str, timeout: float = 20_000) -> None:
    """Until the kernel's next view model is drawn (the component numbers every redraw, ``data-rev``,
    and marks the board ``data-busy`` while it waits for the kernel); ``timeout`` in ms."""
    if not page.evaluate(_REDRAWN, [board.element_handle(), before, timeout]):
        raise AssertionError(f"the board did not draw a new view within {timeout / 1000:.0f} s (data-rev {before})")


#: a script, ``(game, selectors) => [over, index, rev]``: one look at the game between two taps, in
#: place of a call for each: whether its end banner shows (as Playwright's ``is_visible`` has it: drawn,
#: ``visibility: visible``, a box that is not empty), the index of the first of ``selectors`` on offer on
#: its board (the hook the policy taps next; -1 for none) and the board's ``data-rev``
_LOOK = """(game, selectors) => {
    const end = game.querySelector('.bl-game-over'), board = game.querySelector('.blb');
    const box = end ? end.getBoundingClientRect() : null;
    const over = !!end && end.checkVisibility() && getComputedStyle(end).visibility === 'visible'
        && box.width > 0 && box.height > 0;
    return [over, board ? selectors.findIndex(s => board.querySelector(s) !== null) : -1,
            board ? board.getAttribute('data-rev') : null];
}"""


def over(game: Locator) -> bool:
    return game.locator(".bl-game-over").is_visible()


#: a script, ``(target) => [downs, rights] | null``: how many ArrowDown then ArrowRight presses take
#: the focus from where it is to ``target``, worked out as the board moves it (its ``move``: the
#: ``data-nav`` groups in page order, Down to the next group's roving item, Right to the next item of the
#: group, both wrapping round); null when the focus is not in ``target``'s board (its keys do nothing)
_PLAN = """(t) => {
    const root = t.closest('.blb'), a = document.activeElement;
    if (!root || !a || !root.contains(a)) return null;
    const groups = [], items = {};
    for (const i of root.querySelectorAll('[data-nav]')) {
        const g = i.dataset.nav;
        if (!items[g]) { items[g] = []; groups.push(g); }
        items[g].push(i);
    }
    const g = t.dataset.nav, list = items[g], from = a.dataset ? a.dataset.nav : undefined;
    if (!list) return null;
    let downs = 0, at = a;
    if (from !== g) {
        const here = from ? groups.indexOf(from) : -1, n = groups.length;
        downs = ((groups.indexOf(g) - here - 1 + n) % n) + 1;
        at = list.find(i => i.tabIndex === 0) || list[0];
    }
    return [downs, (list.indexOf(t) - list.indexOf(at) + list.length) % list.length];
}"""


def arrows_to(page: Page, target: Locator, downs: int, rights: int) -> None:
    """Move the focus to ``target`` with the arrow keys only: Down between groups (at most ``downs``
    presses), then Right within its group (at most ``rights``).  The presses are worked out first
    (:data:`_PLAN`) and made without a look after each; then the focus is looked at, and the looks
    after each press go on from there if it is not there yet, within what is left of each budget."""
    key = target.get_attribute("data-key")
    group = target.get_attribute("data-nav")
    plan = target.evaluate(_PLAN)
    if plan is not None and plan[0] < downs and plan[1] < rights:
        for _ in range(plan[0]):
            page.keyboard.press("ArrowDown")
        for _ in range(plan[1]):
            page.keyboard.press("ArrowRight")
        downs, rights = downs - plan[0], rights - plan[1]
    for _ in range(downs):
        if page.evaluate("() => document.activeElement && document.activeElement.dataset.nav") == group:
            break
        page.keyboard.press("ArrowDown")
    else:
        raise AssertionError(f"group {group} not reached by ArrowDown")
    for _ in range(rights):
        if page.evaluate("() => document.activeElement && document.activeElement.dataset.key") == key:
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"{key} not reached by ArrowRight")


def press_to(page: Page, board: Locator, target: Locator) -> None:
    """Move the focus to ``target`` with the arrow keys only (Down/Up between groups, Right within)."""
    arrows_to(page, target, 12, 40)


def play_game(page: Page, game: Locator, *, keyboard: bool) -> int:
    """Play to the end through the hooks; returns the number of taps (or key presses of Enter)."""
    board = game.locator(".blb")
    expect(board).to_be_visible(timeout=60_000)
    if keyboard:  # enter the widget once; from here on only keys
        board.locator('[data-nav][tabindex="0"]').first.focus()
        hand = board.locator('[data-zone="hand"]:not([aria-disabled="true"])').first
        press_to(page, board, hand)
        page.keyboard.press("Enter")  # choose a card: its flags light at once ...
        expect(board.locator('.blb-flag[data-legal="true"]').first).to_be_visible()
        page.keyboard.press("Escape")  # ... and Escape cancels
        expect(board.locator('.blb-flag[data-legal="true"]')).to_have_count(0)
        assert page.evaluate("() => document.activeElement.dataset.zone") == "hand", "focus stays on the card"
    taps = 0
    while True:
        ended, index, drawn = game.evaluate(_LOOK, list(OFFERED))  # over(), the next hook and rev() in one call
        if ended:
            assert over(game), "the end banner shows (as Playwright sees it)"
            break
        assert taps < 600, "a game takes fewer taps"
        assert index >= 0, "something is always on offer until the game ends"
        selector = OFFERED[index]
        hook = board.locator(selector).first
        before = str(drawn)
        if keyboard:
            press_to(page, board, hook)
            if taps == 0:
                outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
                assert outline != "none", "the focused hook shows no focus ring"
            page.keyboard.press("Enter")
        else:
            hook.click()
        taps += 1
        if selector.startswith("[data-zone"):
            card = hook.get_attribute("data-card")
            legal = board.locator('.blb-flag[data-legal="true"]')
            if legal.count():  # the browser lit the flags at once: no round trip
                assert hook.get_attribute("aria-pressed") == "true"
                flag = legal.first.get_attribute("data-flag")
                if keyboard:
                    press_to(page, board, legal.first)
                    page.keyboard.press("Enter")
                else:
                    legal.first.click()
                taps += 1
                wait_redraw(page, board, before)
                if not over(game):
                    expect(board.locator(f'[data-card="{card}"][data-zone="board"][data-flag="{flag}"]')).to_have_count(
                        1
                    )
                continue
        wait_redraw(page, board, before)
    return taps


def size_cell(page: Page, game: Locator, width: int) -> None:
    """Size the window so that the widget's cell, not the window, is ``width`` px wide."""
    for _ in range(4):
        box = game.bounding_box()
        assert box is not None
        viewport = page.viewport_size
        assert viewport is not None
        if abs(box["width"] - width) <= 1:
            return
        page.set_viewport_size({"width": int(viewport["width"] + width - box["width"]), "height": viewport["height"]})
        layout_settled(page)  # laid out again: the panel fits, no box moves
    raise AssertionError(f"could not make the cell {width} px wide")


def check_fits(page: Page, game: Locator, width: int) -> None:
    """No horizontal scroll, nothing wider than the cell, tap targets at least 36 x 36 px."""
    cell_box = game.bounding_box()
    assert cell_box is not None
    sizes = page.evaluate(
        """(root) => [...root.querySelectorAll('.blb button, .blb [data-card]')].map(e => {
             const r = e.getBoundingClientRect();
             const n = e.querySelector('.blb-n');
             return [r.left, r.right, r.width, r.height, e.tagName, n ? parseFloat(getComputedStyle(n).fontSize) : 99,
                     e.scrollWidth > e.clientWidth + 1];
           })""",
        game.locator(".blb").element_handle(),
    )
    for left, right, w, h, tag, font, clipped in sizes:
        assert left >= cell_box["x"] - 1 and right <= cell_box["x"] + cell_box["width"] + 1, (width, left, right)
        if tag == "BUTTON":
            assert w >= 36 and h >= 36, (width, w, h)
        assert font >= 11, (width, font)
        assert not clipped, (width, "a card's text is cut")
    scroll = page.evaluate(
        "() => { const n = document.querySelector('.jp-WindowedPanel-outer, .jp-Notebook');"
        " return n.scrollWidth - n.clientWidth; }"
    )
    assert scroll <= 1, f"the notebook scrolls sideways at {width} px"


def open_game(page: Page, frontend: Front, name: str, code: str) -> None:
    """Show a widget made by ``code`` (one line): in JupyterLab a one-cell notebook of its own, on the
    site a new cell under the lesson the page already holds, run (the sweep's, ``test_site_browser.py``)."""
    if frontend.site:
        run_code(page, code)
    else:
        lab = Lab(frontend.url, frontend.data_dir) if frontend.data_dir is not None else None
        assert lab is not None
        open_and_run(page, lab, write_notebook(lab, name, code.replace("; ", "\n")))


#: 1400: the window (a cell of about 1000 px beside the file browser); 360: the widget's cell itself;
#: pairwise: each width and each way of playing once per front end (the module's docstring), as
#: (width, by keys, seed)
GAMES = [(360, False, 2), (1400, True, 3)]


@pytest.mark.parametrize("frontend", ["lab"], indirect=True)
def test_whole_games_by_taps_alone_at_360_and_by_keys_alone_at_1400(
    front_page: Page, frontend: Front, output_dir: Path, request: pytest.FixtureRequest
) -> None:
    """In JupyterLab: :func:`whole_games`, then on the same page two more games, each in a new cell:
    the width sweep (:func:`_fits_every_cell_width`) and the coach (:func:`_coach_odds_on_the_board`),
    which were tests of their own, each with a notebook, a page and a kernel of its own.  On the site
    the sweep over every lesson makes :func:`whole_games` on its own run of lesson 0
    (``test_site_browser.py``: one Pyodide kernel and one page fewer)."""
    page = front_page
    whole_games(page, frontend, output_dir)
    _fits_every_cell_width(page, output_dir)
    _coach_odds_on_the_board(page, output_dir, request.getfixturevalue("axe_script"))


def whole_games(page: Page, frontend: Front, output_dir: Path) -> None:
    """Both games of :data:`GAMES` on one page, one under the other: the first in a notebook opened
    for it (on the site a new cell under the run lesson the page holds), the second in a new cell
    under it (a page and a kernel are most of a game's CPU time; each board takes only the keys
    whose target is inside it).  It leaves the window at 1400 x 900 px."""
    for index, (width, keyboard, seed) in enumerate(GAMES):
        page.set_viewport_size({"width": max(width, 1000), "height": 900})
        code = f"from battleline_lab.widgets.game import GameWidget; GameWidget(bot='random', seed={seed})"
        if index == 0:
            open_game(page, frontend, "board-games.ipynb", code)
        else:
            run_code(page, code)
        # the newest game is the last (JupyterLab may not draw a cell far above the one in sight)
        game = page.locator(".bl-game").last
        expect(game.locator(".blb [data-zone='hand']").first).to_be_visible(timeout=60_000)
        _a_whole_game(page, frontend, game, output_dir, width, keyboard)


def _a_whole_game(page: Page, frontend: Front, game: Locator, output_dir: Path, width: int, keyboard: bool) -> None:
    """A whole game by taps alone or by keys alone, in a cell ``width`` px wide (360: the cell itself,
    1400: the window), with the checks of that width, from a game whose hand is drawn."""
    game.scroll_into_view_if_needed()
    if width < 600:  # the "360 px cell"
        size_cell(page, game, width)
    check_fits(page, game, width)
    if width >= 1400:  # the whole game (status, board, decks, hand, feedback) fits a 1366 x 768 window
        page.set_viewport_size({"width": 1366, "height": 768})
        layout_settled(page)  # laid out again: the panel fits, no box moves
        game.scroll_into_view_if_needed()
        top = game.locator(".bl-game-title").bounding_box()
        bottom = game.locator('[data-role="feedback"]').bounding_box()
        chrome = page.locator(".jp-WindowedPanel-outer, .jp-Notebook").first.bounding_box()
        assert top is not None and bottom is not None and chrome is not None
        room = 768 - chrome["y"] - 24  # below JupyterLab's menu, tabs and toolbar; above its status bar
        assert bottom["y"] + bottom["height"] - top["y"] <= room, (top, bottom, room)
        page.set_viewport_size({"width": width, "height": 900})
    # empty slots are drawn from the start: three a side per flag
    assert game.locator(".blb-slot").count() >= 9 * 6 - 8
    page.screenshot(path=str(output_dir / f"board-game-{frontend.name}-{width}-start.png"))
    start = time.monotonic()
    taps = play_game(page, game, keyboard=keyboard)
    assert over(game)
    # at the end the bot's hand is shown (never before, R13)
    expect(game.locator('.blb [data-zone="opponent-hand"]').first).to_be_visible()
    how = "keys" if keyboard else "taps"
    page.screenshot(path=str(output_dir / f"board-game-{frontend.name}-{width}-{how}-end.png"))
    print(f"{frontend.name} {width} px {how}: {taps} in {time.monotonic() - start:.1f} s")
    assert_no_widget_errors(page)


def new_game(page: Page, seed: int) -> Locator:
    """A new cell under the last one showing a fresh game (random bot, ``seed``); returns the game once
    its hand is drawn."""
    run_code(page, f"from battleline_lab.widgets.game import GameWidget; GameWidget(bot='random', seed={seed})")
    game = page.locator(".bl-game").last  # the newest game is the last
    expect(game.locator(".blb [data-zone='hand']").first).to_be_visible(timeout=60_000)
    return game


def _fits_every_cell_width(page: Page, output_dir: Path) -> None:
    """The board fits every cell width from 320 to 1600 px: no truncation, no sideways scroll, tap
    targets >= 36 px and text >= 11 px at any cell width, on both sides of the 800 px turn (columns
    above, one row per flag below), with a card chosen.  A fresh game in a new cell."""
    page.set_viewport_size({"width": 1000, "height": 900})
    game = new_game(page, 6)
    game.scroll_into_view_if_needed()
    board = game.locator(".blb")
    board.locator('[data-zone="hand"]:not([aria-disabled="true"])').first.click()
    expect(board.locator('.blb-flag[data-legal="true"]').first).to_be_visible()
    for width in (320, 480, 800, 830, 1200, 1600):
        size_cell(page, game, width)
        check_fits(page, game, width)
        rows = board.locator(".blb-col").evaluate_all(
            "cols => new Set(cols.map(c => Math.round(c.getBoundingClientRect().top))).size"
        )
        box = board.bounding_box()
        assert box is not None
        assert rows == (9 if box["width"] < 800 else 1), (width, box["width"], rows)  # it turns below 800 px
        game.screenshot(path=str(output_dir / f"board-width-{width}.png"))
    assert_no_widget_errors(page)


def _coach_odds_on_the_board(page: Page, output_dir: Path, axe: Path) -> None:
    """With the coach on, every open flag with a card shows the learner's odds and outs
    (``data-role="odds"`` with ``data-flag``), the tie rule beside them; with it off, none.  The
    game with the coach's odds on passes the axe-core audit (nothing serious or critical).  A fresh
    game in a new cell, at 1400 px."""
    page.set_viewport_size({"width": 1400, "height": 1000})
    game = new_game(page, 5)
    game.scroll_into_view_if_needed()
    board = game.locator(".blb")
    odds = board.locator('[data-role="odds"]')
    for _ in range(2):  # two cards and draws by taps: the bot answers, the table has cards
        before = rev(board)
        board.locator('[data-zone="hand"]:not([aria-disabled="true"])').first.click()
        board.locator('.blb-flag[data-legal="true"]').first.click()
        wait_redraw(page, board, before)
        end = board.locator('[data-action="end"]')
        if end.count():
            before = rev(board)
            end.click()
            wait_redraw(page, board, before)
        before = rev(board)
        board.locator('[data-action="draw"]:not([aria-disabled="true"])').first.click()
        wait_redraw(page, board, before)
    assert odds.count() == 0, "no odds while the coach is off"
    game.locator(".bl-coach-toggle").click()
    expect(odds.first).to_be_visible()
    played = {str(c.get_attribute("data-flag")) for c in board.locator('.blb-side [data-zone="board"]').all()}
    shown = {str(o.get_attribute("data-flag")) for o in odds.all()}
    assert shown == played, (shown, played)  # each contested flag, and only those
    first = odds.first
    assert re.fullmatch(r"you \d+%", first.locator(".blb-odds-chance").inner_text())
    assert "counts half" in str(first.get_attribute("aria-label"))
    expect(board.locator('[data-role="odds-note"]')).to_contain_text("counts half to each side")
    game.screenshot(path=str(output_dir / "board-odds.png"))
    page.add_script_tag(path=str(axe))
    # the audit's scope: this game (the page shows the finished games above it too)
    found = game.evaluate(
        """async (game) => {
            const include = [game];
            const r = await axe.run({include}, {resultTypes: ['violations']});
            return r.violations.filter(v => v.impact === 'critical' || v.impact === 'serious').map(v => v.id);
        }"""
    )
    assert found == [], found
    game.locator(".bl-coach-toggle").click()
    expect(odds).to_have_count(0)
    assert_no_widget_errors(page)
