"""The j/k keys of the proof stepper (issue 9): the script is in every puzzle widget and parses as written.

Its behaviour (j/k step the proof, JupyterLab's cell stays, text fields keep their keys) is
checked in the browser: ``tests/browser/test_layout_a11y_browser.py``.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from battleline_lab.loader import iter_puzzle_files, load_puzzle
from battleline_lab.widgets import _STEP_KEYS_JS, STEP_KEYS_SCRIPT, PuzzleWidget

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append(dict(attrs))


def test_the_key_script_reaches_the_browser_as_written_and_makes_no_request() -> None:
    parser = _Images()
    parser.feed(STEP_KEYS_SCRIPT)
    (img,) = parser.images
    assert img["onerror"] == _STEP_KEYS_JS  # escaped for the attribute, unescaped by the parser
    assert img["src"] == "data:," and img["alt"] == "" and "hidden" in img  # no request; not shown, not read out
    assert "<script" not in STEP_KEYS_SCRIPT
    for part in ("'j'", "'k'", "'.bl-next'", "'.bl-back'", "input,textarea,select", "isContentEditable"):
        assert part in _STEP_KEYS_JS


def test_every_puzzle_widget_carries_the_key_script() -> None:
    w = PuzzleWidget(load_puzzle(min(iter_puzzle_files([PUZZLES]))))
    assert sum(STEP_KEYS_SCRIPT in child.value for child in w.children if hasattr(child, "value")) == 1
