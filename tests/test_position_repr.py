"""Position's repr is a Position.build call in card notation, and ``to_data`` plain file data, that recreate it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from battleline_lab import Position
from battleline_lab.authoring import dump_puzzle
from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle, load_puzzle_text
from tests.every import check_every

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = sorted(iter_puzzle_files([ROOT / "puzzles"]))


def _repr_round_trips(path: Path) -> None:
    position = load_puzzle(path).position
    text = repr(position)
    assert text.startswith("Position.build(")
    assert "0x" not in text
    assert eval(text, {"Position": Position}) == position


def test_repr_round_trips_every_puzzle_position() -> None:
    check_every(((p.stem, p) for p in PUZZLES), _repr_round_trips)


def test_repr_of_the_empty_position() -> None:
    assert repr(Position()) == "Position.build({})"


def _build(data: dict[str, Any]) -> Position:
    """``Position.build`` from :meth:`Position.to_data`'s output (``rules`` unpacked, R14)."""
    rest = {key: value for key, value in data.items() if key != "rules"}
    return Position.build(**rest, **data.get("rules", {}))


def _to_data_round_trips(path: Path) -> None:
    position = load_puzzle(path).position
    data = position.to_data()
    assert _build(data) == position
    assert load_puzzle_text(dump_puzzle({"id": "round-trip", **data})).position == position


def test_to_data_round_trips_every_puzzle_position() -> None:
    check_every(((p.stem, p) for p in PUZZLES), _to_data_round_trips)


def test_to_data_of_the_empty_position() -> None:
    assert Position().to_data() == {"turn": "you", "flags": {}}
