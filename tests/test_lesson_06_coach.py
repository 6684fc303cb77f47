"""Lesson 06's coach example is a good one: the master's suggestion raises the chance at its flag.

The lesson runs its demo game and asks the coach (``advise``) what to play; the example teaches
what the odds and outs say, so it must be a move that *raises* the player's chance of winning the
flag it changes.  This test runs the lesson's own code cells, in both languages, up to the coach's
suggestion (the same moves the lesson makes, read from the notebook), so a later change of the
master (game/master.py, the judgment) or of the heuristic bot that spoils the example fails here, by name,
before nbval shows only a changed output.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import nbformat
import pytest

from battleline_lab.core.odds import flag_odds
from battleline_lab.game import PlayerView, legal_moves

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSON_06 = [NOTEBOOKS / "06-play-a-game.ipynb", NOTEBOOKS / "zh" / "06-play-a-game.zh.ipynb"]


def _run_to_the_coach(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Run the lesson's code cells until (and with) the one that asks the coach; the names they define."""
    monkeypatch.setenv("BATTLELINE_LAB_DATA", str(tmp_path))  # no learner's progress in or out
    cells = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    coach = next(i for i, c in enumerate(cells) if "advise(" in c.source)
    names: dict[str, Any] = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in cells[: coach + 1]:
            exec(compile(cell.source, f"{path.name}:cell", "exec"), names)  # noqa: S102 - the lesson's own code
    return names


@pytest.mark.parametrize("path", LESSON_06, ids=lambda p: p.parent.name if p.parent.name == "zh" else "en")
def test_the_coach_example_raises_the_flags_odds(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    names = _run_to_the_coach(path, tmp_path, monkeypatch)
    advice, view, demo = names["advice"], names["view"], names["demo"]
    assert isinstance(view, PlayerView) and advice.action in legal_moves(demo.state)
    assert advice.flag is not None and advice.before is not None and advice.after is not None
    assert advice.before == flag_odds(view.position(), advice.flag)  # the engine's figure, as the lesson says
    before, after = float(advice.before.you), float(advice.after.you)
    assert after > before, (
        f"{path.name}: the coach's example ({advice.action.notation}) lowers the chance at flag "
        f"{advice.flag} from {before:.1%} to {after:.1%}: choose another example position"
    )


def test_both_languages_show_the_same_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    en, zh = (_run_to_the_coach(p, tmp_path / p.parent.name, monkeypatch) for p in LESSON_06)
    assert en["advice"] == zh["advice"]
