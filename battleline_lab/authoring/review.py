"""The editor's reviewer: warnings about a puzzle that loads and is right, but gives itself away.

A tag or a title that states the answer, a level far from the estimate, the same position as a
library puzzle: each is a :class:`Finding` (a catalogue code and its parameters), so a view says
it in either language.  :class:`~battleline_lab.authoring.editor.EditorSession` adds them to its report.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..quiz.puzzle import Puzzle
from ..text.messages import DEFAULT_LANGUAGE, kind_name, message
from .writer import position_key, puzzle_key

__all__ = [
    "CLAIM_TAGS",
    "CLAIM_TITLE_WORDS",
    "Finding",
    "kind_name_for",
    "library_keys",
    "review_key",
    "tag_gives_away",
    "title_states",
]


@dataclass(frozen=True)
class Finding:
    """A reviewer's warning as data: ``code`` (catalogue ``editor.warning.<code>``) and its parameters."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()

    def text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return message(f"editor.warning.{self.code}", lang, **dict(self.params))


# -- where the library's positions are -----------------------------------------------------------

_LIBRARY_KEYS: dict[Hashable, str] | None = None


def review_key(puzzle: Puzzle) -> Hashable:
    """The position (for a board puzzle) or the position and question (compare/formation: no board)."""
    if not any(True for _ in puzzle.position.placed()):
        return ("puzzle", puzzle_key(puzzle))
    return ("position", position_key(puzzle.position))


def library_keys() -> Mapping[Hashable, str]:
    """Review key -> id of the bundled library's puzzles (computed once)."""
    global _LIBRARY_KEYS
    if _LIBRARY_KEYS is None:
        from ..quiz import library

        keys: dict[Hashable, str] = {}
        for puzzle in library.puzzles():
            keys.setdefault(review_key(puzzle), puzzle.id)
        _LIBRARY_KEYS = keys
    return _LIBRARY_KEYS


# -- reviewer's warnings ----------------------------------------------------------------------------

#: Visible tags that say the answer of a claim question (tag -> the answer it gives away).
CLAIM_TAGS: Mapping[str, bool] = {
    "yes": True,
    "true": True,
    "can-claim": True,
    "claimable": True,
    "no": False,
    "false": False,
    "cannot-claim": False,
    "counterexample": False,
}

#: Words in a title that state a claim answer: (pattern, the answer it states), by language.
CLAIM_TITLE_WORDS: Mapping[str, tuple[tuple[re.Pattern[str], bool], ...]] = {
    "en": (
        (re.compile(r"\b(no|cannot|can't|can not|unclaimable)\b", re.IGNORECASE), False),
        (re.compile(r"\b(yes|you can claim)\b", re.IGNORECASE), True),
    ),
    "zh": ((re.compile(r"(不能|无法|不可以)"), False), (re.compile(r"(是的|可以宣称夺取)"), True)),
}


def tag_gives_away(kind: str, answer: object, tags: Sequence[str]) -> str | None:
    for tag in tags:
        low = tag.lower()
        if kind == "claim" and low in CLAIM_TAGS and CLAIM_TAGS[low] == answer:
            return tag
        if kind == "formation" and isinstance(answer, str) and low == answer:
            return tag
        if kind == "compare" and isinstance(answer, str) and low in (f"{answer}-wins", f"{answer}-wins-tie"):
            return tag
        if kind == "claimable" and isinstance(answer, list):
            if low == "none" and not answer:
                return tag
            if low in {f"flag-{n}" for n in answer}:
                return tag
    return None


def title_states(kind: str, answer: object, titles: Mapping[str, str]) -> str | None:
    """The language of a title that states the answer, or None."""
    for lang, title in titles.items():
        if kind == "claim" and any(
            pattern.search(title) and says == answer for pattern, says in CLAIM_TITLE_WORDS.get(lang, ())
        ):
            return lang
        if kind == "formation" and isinstance(answer, str):
            names = {answer, kind_name_for(answer, "en").lower(), kind_name_for(answer, lang).lower()}
            low = title.lower()
            if any(name and name in low for name in names):
                return lang
        if kind == "compare" and isinstance(answer, str):
            if re.search(rf"\b{answer}\s+(wins|is stronger)\b", title, re.IGNORECASE):
                return lang
    return None


def kind_name_for(key: str, lang: str) -> str:
    from ..core.formations import FormationKind

    for kind in FormationKind:
        if kind.key == key:
            return kind_name(kind, lang)
    return ""
