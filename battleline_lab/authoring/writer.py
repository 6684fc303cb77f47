"""Write puzzle files: plain puzzle data as YAML text in the project's house style.

The loader (:mod:`battleline_lab.quiz.loader`) reads puzzles; this module writes them,
for ``battleline-lab generate`` and any tool that saves a position.  The text is
produced here, not by a YAML library, so that it is stable and reads like the
hand-written library: keys in the order of the format (``id``, ``title``,
``headline``, ``level``, ``topics``, ``tags``, ``rules``, ``turn``, ``flags``, ``discards``, ``hand``,
``question``, ``answer``, ``note``), card lists as flow lists ``[r3, r4, r5]``,
one line per flag where it fits, long notes folded at 96 columns, and every
string that could be read as something else (``yes``, ``10``, ``a: b``, ``#``)
double-quoted.  :func:`dump_puzzle` is tested to round-trip through
:func:`~battleline_lab.quiz.loader.load_puzzle_text`.

>>> from battleline_lab.quiz.loader import load_puzzle_text
>>> text = dump_puzzle({"id": "wedge", "title": "Yes", "tags": ["claim"], "flags": {5: {"you": ["r3", "r4", "r5"]}},
...                     "question": {"kind": "claim", "flag": 5}, "answer": True})
>>> print(text, end="")
id: wedge
title: "Yes"
tags: [claim]
flags:
  5: {you: [r3, r4, r5]}
question: {kind: claim, flag: 5}
answer: true
>>> load_puzzle_text(text).title_text()
'Yes'
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from ..core.cards import Card, card_sort_key
from ..core.position import Position, Side
from ..formats.safe_yaml import yaml_printable, yaml_string
from ..quiz.loader import TOP_LEVEL_KEYS
from ..quiz.puzzle import Puzzle

__all__ = ["WIDTH", "dump_puzzle", "position_data", "position_key", "puzzle_data", "puzzle_key", "yaml_string"]

#: Notes and other long texts are folded to lines of at most this many characters (where they can be).
WIDTH = 96

_FLAG_KEYS = ("you", "opponent", "first_complete", "claimed_by")
_SIDE_KEYS = ("you", "opponent")


def _scalar(value: object, *, flow: bool = True) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return yaml_string(value, flow=flow)
    raise TypeError(f"cannot write {type(value).__name__} {value!r} in a puzzle file")


def _flow(value: object) -> str:
    """Any plain value as flow YAML: ``[r3, r4]``, ``{kind: claim, flag: 5}``, ``true``."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_scalar(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _scalar(value)


def _foldable(text: str) -> bool:
    return (
        bool(text)
        and not text[0].isspace()
        and not text[-1].isspace()
        and all(yaml_printable(ch) and ch != "\t" for ch in text)
    )


def _fold(text: str, indent: str) -> list[str] | None:
    """``text`` as the lines of a folded block scalar (``>-``), breaking only at single spaces."""
    if not _foldable(text):
        return None
    lines: list[str] = []
    start = 0
    last_break = -1
    i = 0
    while i < len(text):
        ch = text[i]
        single_space = ch == " " and 0 < i < len(text) - 1 and text[i - 1] != " " and text[i + 1] != " "
        if single_space:
            if i - start > WIDTH - len(indent) and last_break > start:
                lines.append(text[start:last_break])
                start = last_break + 1
            last_break = i
        i += 1
    if len(text) - start > WIDTH - len(indent) and last_break > start:
        lines.append(text[start:last_break])
        start = last_break + 1
    lines.append(text[start:])
    return [indent + line for line in lines]


def _text_lines(key: str, text: str, indent: str = "") -> list[str]:
    """``key: text`` on one line if it fits, else folded (``>-``), else double-quoted."""
    one = f"{indent}{key}: {yaml_string(text, flow=False)}"
    if len(one) <= WIDTH:
        return [one]
    folded = _fold(text, indent + "  ")
    if folded is None:
        return [one]
    return [f"{indent}{key}: >-", *folded]


def _texts(key: str, value: object) -> list[str]:
    if isinstance(value, str):
        return _text_lines(key, value)
    if isinstance(value, Mapping):
        if list(value) == ["en"]:
            return _text_lines(key, value["en"])
        lines = [f"{key}:"]
        for lang, text in value.items():
            lines += _text_lines(_scalar(lang), text, "  ")
        return lines
    raise TypeError(f"{key} must be a text or a mapping language -> text, not {value!r}")


def _flag_lines(number: int, entry: Mapping[str, Any]) -> list[str]:
    unknown = set(entry) - set(_FLAG_KEYS)
    if unknown:
        raise ValueError(f"unknown keys in flag {number}: {sorted(unknown)}")
    ordered = {k: entry[k] for k in _FLAG_KEYS if k in entry}
    line = f"  {number}: {_flow(ordered)}"
    if len(line) <= WIDTH:
        return [line]
    return [f"  {number}:"] + [f"    {k}: {_flow(v)}" for k, v in ordered.items()]


def dump_puzzle(data: Mapping[str, Any], *, header: Sequence[str] = ()) -> str:
    """Puzzle data (as :func:`puzzle_data` gives it, or as a file holds it) as YAML text.

    Keys are written in the format's order whatever order ``data`` has;
    ``header`` lines become ``#`` comments at the top.  Raises ValueError for
    a key the format does not know.
    """
    unknown = [k for k in data if k not in TOP_LEVEL_KEYS]
    if unknown:
        raise ValueError(f"unknown puzzle keys: {unknown}")
    lines = [f"# {h}" if h else "#" for h in header]
    for key in TOP_LEVEL_KEYS:
        if key not in data:
            continue
        value = data[key]
        if key in ("title", "headline", "note"):
            lines += _texts(key, value)
        elif key == "flags":
            lines.append("flags:" if value else "flags: {}")
            for number in sorted(value):
                lines += _flag_lines(int(number), value[number])
        else:
            lines.append(f"{key}: {_flow(value)}")
    return "\n".join(lines) + "\n"


def position_data(position: Position) -> dict[str, Any]:
    """A position as the plain data of a file: :meth:`Position.to_data <battleline_lab.core.position.Position.to_data>`.

    >>> position_data(Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}}, hand={"you": "b9"}))
    {'turn': 'you', 'flags': {5: {'you': ['r3', 'r4', 'r5'], 'opponent': ['b8']}}, 'hand': {'you': ['b9']}}
    """
    return position.to_data()


def puzzle_data(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle as the plain data of its file (the inverse of loading it)."""
    data: dict[str, Any] = {"id": puzzle.id}
    if puzzle.title:
        data["title"] = dict(puzzle.title)
    if puzzle.headline:
        data["headline"] = dict(puzzle.headline)
    if puzzle.level is not None:
        data["level"] = puzzle.level
    if puzzle.topics:
        data["topics"] = list(puzzle.topics)
    if puzzle.tags:
        data["tags"] = list(puzzle.tags)
    data.update(position_data(puzzle.position))
    if puzzle.question is not None:
        data["question"] = puzzle.question.to_data()
        if "answer" in puzzle.marks or puzzle.answer is not None:
            data["answer"] = puzzle.answer
    if puzzle.note:
        data["note"] = dict(puzzle.note)
    return data


def _sorted_cards(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(c.notation for c in sorted(cards, key=card_sort_key))


def position_key(position: Position) -> Hashable:
    """A position up to the order its cards are listed in (order never matters, R9): equal keys, same position.

    >>> a = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}})
    >>> position_key(a) == position_key(Position.build({5: {"you": "r5 r3 r4", "opponent": "b8"}}))
    True
    >>> position_key(a) == position_key(Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}}, turn="opponent"))
    False
    """
    flags = tuple(
        (
            _sorted_cards(s.you),
            _sorted_cards(s.opponent),
            s.first_complete.value if s.first_complete else None,
            s.claimed_by.value if s.claimed_by else None,
        )
        for s in position.flags
    )
    sides = tuple((_sorted_cards(position.discards(side)), _sorted_cards(position.hand(side))) for side in Side)
    return (flags, sides, position.turn.value, position.claim_timing.value)


def puzzle_key(puzzle: Puzzle) -> Hashable:
    """The position and the question: two puzzles with equal keys ask the same thing."""
    question: Hashable = None
    if puzzle.question is not None:
        items = puzzle.question.to_data().items()
        question = tuple(sorted((k, tuple(sorted(v)) if isinstance(v, list) else v) for k, v in items))
    return (position_key(puzzle.position), question)
