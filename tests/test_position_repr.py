"""Position's repr is a Position.build call in card notation that recreates the position."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline_lab import Position
from battleline_lab.loader import iter_puzzle_files, load_puzzle

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = sorted(iter_puzzle_files([ROOT / "puzzles"]))


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.stem)
def test_repr_round_trips_every_puzzle_position(path: Path) -> None:
    position = load_puzzle(path).position
    text = repr(position)
    assert text.startswith("Position.build(")
    assert "0x" not in text
    assert eval(text, {"Position": Position}) == position


def test_repr_of_the_empty_position() -> None:
    assert repr(Position()) == "Position.build({})"
