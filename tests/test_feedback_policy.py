"""Feedback that teaches without telling: the first answer counts, a miss says where to look.

- A wrong answer's feedback names what to look at (the flag, the formations, the cards or the
  count) and the rule by its id; it spells out neither the answer, nor the rule, nor draws the
  counterexample, for every kind of question, in English and Chinese.
- The solution, with its proof, comes on request ("Show the solution") or after a second wrong
  answer, and is then recorded as seen (a ``reveal`` row after the answers).
- The first answer is the one rated: right at a later try is said to count as a miss, and the
  trainer rates it so.  After a right answer the feedback is one sentence: no list of the title
  and the tags under it.
"""

from __future__ import annotations

import re

import pytest

from battleline_lab.controllers.puzzle import PuzzleController
from battleline_lab.quiz import library
from battleline_lab.text.messages import LANGUAGES, message
from battleline_lab.training.hints import solution_summary
from battleline_lab.training.progress import MemoryStore, Progress
from battleline_lab.training.trainer import Trainer
from tests.solving import solve

#: one puzzle of every kind: a wrong answer, the rule its miss turns on, what the nudge points at
KINDS = {
    "claim-R13-hand-card": ("seed-blue-seven-in-your-hand", True, "R13", {"en": "flag 5", "zh": "5号旗"}),
    "claim-R25-mud": ("mud-three-is-not-enough", True, "R25", {"en": "flag 8", "zh": "8号旗"}),
    "formation-R9": ("leader-completes-a-wedge", "phalanx", "R9", {"en": "Phalanx", "zh": "方阵"}),
    "compare-R11-tie": ("same-wedge-sum-compare", "a", "R11", {"en": "A and B", "zh": "A和B"}),
    "outs-R13": ("outs-green-wedge", 6, "R13", {"en": "flag 2", "zh": "2号旗"}),
    "claimable-R10": ("which-flags-are-yours", [7], "R10", {"en": "Flags judged wrongly: 1", "zh": "有1面"}),
    "safest-flag-R13": ("safest-flag-for-blue-seven", 5, "R13", {"en": "flag 5", "zh": "5号旗"}),
}
RULE_IDS = re.compile(r"R\d+")


def ghost_ids(controller: PuzzleController) -> list[str]:
    return [g["id"] for f in controller.view().get("flags", ()) for g in f.get("ghosts", ())]


def memory() -> Progress:
    return Progress(store=MemoryStore(), learner="me")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("case", sorted(KINDS))
def test_a_wrong_answer_names_where_to_look_and_the_rule_never_the_answer(case: str, lang: str) -> None:
    puzzle_id, answer, rule, look = KINDS[case]
    puzzle = library.get(puzzle_id)
    c = PuzzleController(puzzle, lang=lang)
    assert not c.answer(answer)
    text = c.feedback_text()
    assert look[lang] in text and RULE_IDS.findall(text) == [rule]  # where to look, the rule by its id
    assert message(f"trainer.rule.{rule}", lang) not in text  # the rule is not spelled out
    assert solution_summary(puzzle, lang) not in text  # nor the answer
    assert ghost_ids(c) == [] and c.step_index is None and "proof" not in c.view()
    assert [a["label"] for a in c.view()["answers"] if a.get("action") == "solution" and not a.get("hidden")] == [
        message("widget.solution.button", lang)
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("case", sorted(KINDS))
def test_a_second_wrong_answer_opens_the_solution_and_records_it_as_seen(case: str, lang: str) -> None:
    puzzle_id, answer, rule, _ = KINDS[case]
    puzzle = library.get(puzzle_id)
    progress = memory()
    trainer = Trainer(puzzles=[puzzle], progress=progress)
    c = PuzzleController(puzzle, lang=lang, session=trainer.session(puzzle))
    for _ in range(2):  # a second wrong answer
        assert not c.answer(answer)
    text = c.feedback_text()
    assert c.step_index == 0 and c.view()["proof"]["steps"]  # the proof is open
    assert solution_summary(puzzle, lang) in text and message(f"trainer.rule.{rule}", lang) in text
    assert [r.kind for r in progress.attempts()] == ["answer", "answer", "reveal"]
    # nothing more to show
    assert not [a for a in c.view()["answers"] if a.get("action") == "solution" and not a.get("hidden")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_R12_show_the_solution_on_request_draws_the_counterexample_and_records_it(lang: str) -> None:
    puzzle = library.get("seed-blue-seven-in-your-hand")
    progress = memory()
    trainer = Trainer(puzzles=[puzzle], progress=progress)
    c = PuzzleController(puzzle, lang=lang, session=trainer.session(puzzle))
    c.answer(True)
    c.intent("do", "solution")
    assert c.session.revealed and c.step_index == 0
    assert ghost_ids(c) == ["b7", "b9"]  # the opponent's completion, from the proof's first step's view
    assert [r.kind for r in progress.attempts()] == ["answer", "reveal"]
    c.intent("do", "solution")  # asked again: recorded once
    assert [r.kind for r in progress.attempts()] == ["answer", "reveal"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_first_answer_counts_a_later_right_one_is_rated_as_a_miss(lang: str) -> None:
    puzzle = library.get("same-wedge-sum-compare")
    trainer = Trainer(puzzles=[puzzle], progress=memory())
    c = PuzzleController(puzzle, lang=lang, session=trainer.session(puzzle))
    c.answer("a")
    assert c.answer(puzzle.solve()) and c.state == "right"
    # right, and told that the first answer was the one that counted (the puzzle has no headline)
    assert c.feedback_text() == message("widget.feedback.right.late", lang, text=solution_summary(puzzle, lang))
    summary = trainer.summary()
    assert (summary.rated, summary.first_try) == (1, 0) and trainer.rating < 1500


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_right_first_answer_is_one_sentence_with_the_headline_and_no_tags(lang: str) -> None:
    puzzle = library.get("seed-blue-seven-in-your-hand")
    c = PuzzleController(puzzle, lang=lang)
    assert solve(c, False)  # the verdict, then its proof (R12)
    view = c.view()
    assert "items" not in view["feedback"]  # no bullet list holding the title, no "tags: ..."
    text = view["feedback"]["text"]
    assert puzzle.title_after_answer(lang) in text and solution_summary(puzzle, lang) in text
    assert message("widget.tags", lang, tags="") not in text


def test_a_puzzle_without_a_headline_does_not_repeat_its_title() -> None:
    puzzle = library.get("same-wedge-sum-compare")
    assert puzzle.headline is None
    c = PuzzleController(puzzle)
    c.answer(puzzle.solve())
    assert puzzle.title_text("en") not in c.feedback_text() and "items" not in c.view()["feedback"]
