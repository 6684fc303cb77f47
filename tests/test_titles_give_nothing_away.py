"""No title shown before the answer gives the answer away.

A learner reads a puzzle's ``title`` while it is open and its ``headline`` once it is solved or
revealed (puzzles/FORMAT.md). Reviewing the library's titles against their answers moved the
telling ones to ``headline`` ("Nines against nines, you were first": the tie rule decides, so you
can claim; "The best Wedge there is": nothing beats it; "Almost a Wedge": so not a Wedge), with
ids unchanged, so no learner's progress is lost. This test keeps it so: a title before the answer
may not use the phrases that told the answer then, in English or Chinese, and the reviewed
puzzles keep their old title as the headline.
"""

from __future__ import annotations

import pytest

from battleline_lab.quiz import library

#: phrases that stated or implied an answer in a title before the review (en, then zh)
TELLING = {
    "en": (
        "you were first",
        "they were first",
        "the best",
        "almost",
        "is still a",
        "fills the gap",
        "but in the",
        "cannot",
        "can't",
        "falls short",
        "is out",
        "beats",
    ),
    "zh": ("你先完成", "对手先完成", "最强", "差一点", "也是", "补上", "却", "不能", "赢了", "胜过"),
}
#: the puzzles whose title moved to ``headline`` in the review (ids unchanged)
REVIEWED = {
    "tied-phalanx-you-first": "Nines against nines, you were first",
    "top-wedge-empty-side": "The best Wedge there is",
    "top-skirmish-line": "The best Skirmish Line",
    "run-in-two-colours": "Almost a Wedge",
    "alexander-completes-green": "Alexander fills the gap",
    "orange-two-blocks-the-wedge": "A small Wedge is still a Wedge",
    "purple-left-open": "Four colours blocked",
    "mud-three-is-not-enough": "The top Wedge, but in the Mud",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_title_before_the_answer_tells_it(lang: str) -> None:
    telling = [
        f"{pid}: {library.get(pid).title_before_answer(lang)!r} says {phrase!r}"
        for pid in library.ids()
        for phrase in TELLING[lang]
        if phrase in library.get(pid).title_before_answer(lang).lower()
    ]
    assert telling == []


@pytest.mark.parametrize("pid", sorted(REVIEWED))
def test_a_telling_title_waits_for_the_answer(pid: str) -> None:
    puzzle = library.get(pid)
    assert puzzle.id == pid
    assert puzzle.title_after_answer("en") == REVIEWED[pid]
    for lang in ("en", "zh"):
        assert puzzle.title_before_answer(lang) != puzzle.title_after_answer(lang)
