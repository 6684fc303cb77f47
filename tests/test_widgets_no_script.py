"""No script in HTML: no ``<script>`` and no ``on…=`` attribute in any HTML widget the package builds.

The front end sanitizes nothing, so an HTML widget that carried an event handler would run it
(the old j/k keys did exactly that, from a hidden image's ``onerror``). Code that runs in the
browser lives in the board component's ES modules only. This walks every widget tree of every
interactive part, through its states (answered wrong and right, hints, proof steps, a game
played to its end with a refused claim, the coach and the review), and parses every HTML value.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import ipywidgets as W
import pytest

from battleline_lab.game import PlayerView, RandomBot, legal_moves
from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle
from battleline_lab.widgets import FormationExplorer, PuzzleSet, PuzzleWidget
from battleline_lab.widgets.editor import PuzzleEditor
from battleline_lab.widgets.game import GameWidget
from tests.scripts import load_script

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


class _Scripts(HTMLParser):
    """Every ``<script>`` tag and every ``on…`` attribute of a document."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag.lower() == "script":
            self.found.append("<script>")
        self.found += [f"<{tag} {name}=...>" for name, _value in attrs if name.lower().startswith("on")]

    handle_startendtag = handle_starttag


def scripts(html: str) -> list[str]:
    parser = _Scripts()
    parser.feed(html)
    parser.close()
    return parser.found


def html_values(widget: W.Widget) -> Iterator[str]:
    """The value of every HTML widget in the tree (children of boxes, accordions, tabs...)."""
    if isinstance(widget, (W.HTML, W.HTMLMath)):
        yield str(widget.value)
    for child in getattr(widget, "children", ()):
        yield from html_values(child)


def assert_clean(widget: W.Widget, what: str) -> None:
    values = list(html_values(widget))
    assert values, f"{what}: no HTML widget found (the walk is broken)"
    for value in values:
        assert scripts(value) == [], f"{what}: {scripts(value)} in {value[:200]!r}"


@pytest.mark.parametrize(
    ("html", "found"),
    [
        ('<img hidden src="data:," onerror="alert(1)">', ["<img onerror=...>"]),
        ("<script>alert(1)</script>", ["<script>"]),
        ('<div ONCLICK="x()"><b>ok</b></div>', ["<div onclick=...>"]),
        ('<svg><g role="img" aria-label="once"></g></svg><style>.a{}</style>', []),
        ("&lt;img src=x onerror=alert(1)&gt;", []),  # escaped text is text
    ],
)
def test_the_scan_finds_scripts_and_handlers_and_nothing_else(html: str, found: list[str]) -> None:
    assert scripts(html) == found


def test_no_puzzle_widget_carries_a_script_in_any_state() -> None:
    firsts: dict[Path, Path] = {}
    for path in sorted(iter_puzzle_files([PUZZLES])):  # one puzzle per folder: every kind of question
        firsts.setdefault(path.parent, path)
    assert len(firsts) >= 10
    for path in firsts.values():
        w = PuzzleWidget(load_puzzle(path), record=False)
        assert_clean(w, f"{path.name} (open)")
        for value in (True, False, "a", "b", [1], "wedge"):
            if w.state != "right":
                w.answer(value)
        assert_clean(w, f"{path.name} (answered)")
        while w.hint_level < 3:
            w.hint()
        for _ in range(3):
            w.go(1)
        w.set_lang("zh")
        assert_clean(w, f"{path.name} (hints, proof, zh)")


def test_the_gym_the_explorer_and_the_editor_carry_no_script() -> None:
    gym = PuzzleSet(PUZZLES)
    assert_clean(gym, "gym")
    gym.move(1)
    assert_clean(gym, "gym, next puzzle")
    assert_clean(FormationExplorer(you="r3 r4 r5", opponent="b8 b9 alexander"), "explorer")
    assert_clean(PuzzleEditor(), "editor")


def test_a_whole_game_widget_carries_no_script() -> None:
    w = GameWidget(bot="heuristic", seed=4)
    w.coach_toggle.value = True
    chooser = RandomBot(4)
    while not w.state.over:
        if w.state.claimed[0] is None and w.state.turn_number % 7 == 0:
            w.claim(1)  # a refused claim: the proof in the feedback place
        w.click_action(chooser.choose(PlayerView(w.state, w.state.to_act), legal_moves(w.state)))
    assert_clean(w, "game over")
    w.open_review()
    assert_clean(w, "game review")


def _export_cell_writer() -> Callable[[dict[str, Any], str], dict[str, Any]]:
    """``tools/run_lessons.py``'s ``with_export_cell``: the one script a saved output may carry."""
    tools = load_script(PUZZLES.parent / "tools" / "run_lessons.py", "run_lessons")
    return tools.with_export_cell  # type: ignore[no-any-return]


def test_no_saved_lesson_output_carries_a_script() -> None:
    """The lessons are committed with their outputs and widget state: what a trusted notebook shows
    before anything runs must not carry a handler either (re-run them after changing a widget).

    The one exception is the HTML export cell (docs/site.md "Exported to HTML"): exactly the cell
    ``tools/run_lessons.py`` writes now, so a stale or tampered one fails here."""
    notebooks = PUZZLES.parent / "notebooks"
    lessons = sorted(notebooks.rglob("*.ipynb"))
    assert lessons
    with_export_cell = _export_cell_writer()
    exported = 0
    for path in lessons:
        nb = json.loads(path.read_text(encoding="utf-8"))
        made = with_export_cell(nb, path.relative_to(notebooks).as_posix())
        allowed = [cell for cell in made["cells"] if cell.get("id") == "bl-html-export"]
        for cell in list(nb["cells"]):
            if cell.get("id") == "bl-html-export" or "bl-html-export" in cell.get("metadata", {}).get("tags", []):
                assert [cell] == allowed, f"{path.name}: the HTML export cell is not the one run_lessons writes"
                nb["cells"].remove(cell)  # checked whole: the rest must carry no script at all
                exported += 1
        state = nb.get("metadata", {}).get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
        for model in state.get("state", {}).values():
            value = model.get("state", {}).get("value")
            if model.get("model_name") in ("HTMLModel", "HTMLMathModel") and isinstance(value, str):
                assert scripts(value) == [], f"{path.name}: {scripts(value)}"
        for cell in nb["cells"]:
            for output in cell.get("outputs", ()):
                html = output.get("data", {}).get("text/html")
                if html:
                    assert scripts("".join(html) if isinstance(html, list) else html) == [], path.name
    assert exported >= 8  # the lessons with widgets (tests/test_html_export.py says which)
