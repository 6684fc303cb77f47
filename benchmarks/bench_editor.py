"""Benchmark: the time of one edit in the puzzle editor, for every committed puzzle.

For each puzzle in ``puzzles/`` this opens an :class:`~battleline_lab.authoring.editor.EditorSession`
and times what a click costs the kernel:

* ``open``: reading the file (safe reader) and the first report;
* ``session edit``: one edit (a card put on a free flag, or the level changed) and the report
  after it: the text patched, the loader's checks, the engine's answer and proof, the difficulty
  estimate and the review warnings;
* ``widget click``: the same card click in a :class:`~battleline_lab.widgets.editor.PuzzleEditor`,
  including its full ``refresh()`` (board SVG, 70 card buttons, report, YAML preview).

The library's position keys (for the "same position" warning) are computed once before timing.
Thresholds are reported, never asserted.

Usage::

    python benchmarks/bench_editor.py            # every puzzle
    python benchmarks/bench_editor.py --quick    # 10 puzzles
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from battleline_lab.authoring.editor import EditorSession, library_keys
from battleline_lab.core.cards import ALL_TROOPS
from battleline_lab.quiz.loader import iter_puzzle_files
from battleline_lab.widgets.editor import PuzzleEditor

ROOT = Path(__file__).resolve().parent.parent


def _ms(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def _free_card(session: EditorSession) -> str | None:
    for card in ALL_TROOPS:
        if session.where(card) is None and card not in session.board_position().visible:
            return card.notation
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    files = list(iter_puzzle_files([ROOT / "puzzles"]))
    if args.quick:
        files = files[:10]
    library_keys()
    times: dict[str, list[float]] = {"open": [], "session edit": [], "widget click": []}
    for path in files:
        session: EditorSession | None = None

        def open_it(p: Path = path) -> None:
            nonlocal session
            session = EditorSession.open(p)
            session.report()

        times["open"].append(_ms(open_it))
        opened: EditorSession = session  # type: ignore[assignment]
        card = _free_card(opened)

        def edit(s: EditorSession = opened, c: str | None = card) -> None:
            if c is not None:
                s.add_card(("hand", "opponent"), c)
            else:
                s.set_level(5)
            s.report()

        times["session edit"].append(_ms(edit))
        widget = PuzzleEditor(path)
        widget.place.value = ("hand", "opponent")
        if card is not None:
            times["widget click"].append(_ms(widget.card_buttons[card].click))
    print(f"{len(files)} puzzles")
    for name, values in times.items():
        if values:
            print(
                f"{name:>13}: median {statistics.median(values):6.1f} ms, "
                f"p90 {sorted(values)[int(len(values) * 0.9) - 1]:6.1f} ms, max {max(values):6.1f} ms"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
