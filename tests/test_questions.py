"""Question kinds own their behaviour and feedback names the mistake the engine found.

- No view, session, hint, page or command switches on a question's type: at most 4
  ``isinstance`` checks on question classes outside ``battleline_lab/questions/``.
- Over every library puzzle and every wrong choice, in English and Chinese, the feedback the
  widget shows first names the rule of the engine's miss reason by its id (R11 when kind and sum
  tie, R13 for a hand card, R24 under Fog, R25 under Mud, ...) and gives away neither the answer
  nor the rule's sentence; once the solution is out, it spells out that rule and no other.
- A new kind is one class and its registration: the example kind below goes through the
  trainer, the hints, the widget, the CLI and the worksheet without any of them changing.
"""

from __future__ import annotations

import ast
import html
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from battleline_lab.authoring.worksheet import key_entries, worksheet_html
from battleline_lab.cli import main
from battleline_lab.controllers.puzzle import PuzzleController
from battleline_lab.core.cards import Card, Troop, parse_card
from battleline_lab.core.claims import Reason
from battleline_lab.core.position import Position, Problem
from battleline_lab.quiz import library
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions import (
    QUESTION_KINDS,
    Choice,
    Feedback,
    Question,
    QuestionError,
    View,
    register_question,
    wrong,
)
from battleline_lab.text.messages import LANGUAGES, Msg, catalogue, message, render_msg
from battleline_lab.training.hints import hint_ladder, solution_summary
from battleline_lab.training.trainer import PuzzleSession, Trainer, miss_reason, required_lesson
from battleline_lab.widgets import PuzzleWidget

PACKAGE = Path(__file__).resolve().parents[1] / "battleline_lab"
QUESTION_CLASSES = {
    "Question",
    "ClaimQuestion",
    "ClaimableQuestion",
    "CompareQuestion",
    "FormationQuestion",
    "SafestFlagQuestion",
    "OutsQuestion",
}
RULES = ("R9", "R10", "R11", "R12", "R13", "R15", "R16", "R24", "R25")


# -- no type switches -----------------------------------------------------------------------------


def _isinstance_on_questions(tree: ast.AST) -> Iterator[int]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            if len(node.args) == 2:
                names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
                names |= {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)}
                if names & QUESTION_CLASSES:
                    yield node.lineno


def test_no_module_outside_the_question_package_switches_on_a_question_kind() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if "questions" not in path.relative_to(PACKAGE).parts
        for line in _isinstance_on_questions(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert len(found) <= 4, found


def test_the_counter_sees_an_isinstance_check() -> None:
    tree = ast.parse("isinstance(q, ClaimQuestion)\nisinstance(q, (questions.CompareQuestion, int))\n")
    assert list(_isinstance_on_questions(tree)) == [1, 2]


# -- feedback names the engine's mistake ---------------------------------------------------------


def _wrong_answers(puzzle: Puzzle) -> list[object]:
    """Every wrong choice a view offers (for flag toggles: one flag too many or too few, or none)."""
    question, position = puzzle.question, puzzle.position
    assert question is not None
    solution = question.solve(position)
    choices = question.choices(position)
    if question.answer_style == "flags":
        right = set(solution)
        open_flags = [c.value for c in choices if not c.disabled]
        answers: list[object] = [sorted(right ^ {n}) for n in open_flags if isinstance(n, int)]
        return [*answers, []] if right else answers
    return [c.value for c in choices if not question.is_correct(position, c.value)]


#: The rule a miss turns on, by the engine's reason code (the claim reasons say their own: Reason.rule).
EXPECTED_RULE: Mapping[str, str] = {
    **{r.value: r.rule for r in Reason},
    "compare_kind": "R10",
    "compare_tie": "R11",
    "formation_kind": "R9",
    "odds_lower": "R13",  # safest-flag: the chance from the unseen troops (questions/odds.py)
    "outs_too_few": "R13",  # outs: a troop not face up, in a hand too, is unseen
    "outs_too_many": "R13",  # outs: a troop face up cannot come
    "play_no_claim": "R12",  # play: the flag still has no proof after the play (questions/play.py)
    "play_not_blocked": "R13",  # play: an unseen troop still completes their formation
    "play_no_win": "R16",  # play: the flags held or provable after it do not win
}


def ghost_ids(controller: PuzzleController) -> list[str]:
    return [g["id"] for f in controller.view().get("flags", ()) for g in f.get("ghosts", ())]


def _text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", value))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_feedback_to_every_wrong_choice_names_the_rule_the_engine_found(lang: str) -> None:
    rule_sentences = {r: message(f"trainer.rule.{r}", lang) for r in RULES}
    seen: dict[str, int] = {}
    for puzzle in library.puzzles():
        if puzzle.question is None:
            continue
        for answer in _wrong_answers(puzzle):
            reason, rule = miss_reason(puzzle, answer)
            assert rule is not None, (puzzle.id, answer)
            if reason is not None and reason != "compare_sum":
                assert rule == EXPECTED_RULE[reason], (puzzle.id, answer, reason)
            if reason == "compare_sum":  # the sum decides: R10, or R24 under Fog
                assert rule == ("R24" if "fog" in puzzle.question.to_data().get("environment", []) else "R10")
            controller = PuzzleController(puzzle, lang=lang)  # one wrong answer each: the first counts
            assert not controller.answer(answer), (puzzle.id, answer)
            nudge = _text(controller.feedback_text())
            assert set(re.findall(r"R\d+", nudge)) == {rule}, (puzzle.id, answer, rule, nudge)  # the rule, by id
            spelled = [s for s in rule_sentences.values() if s in nudge]
            assert not spelled, (puzzle.id, answer, nudge)  # no deciding rule spelled out after a first miss
            assert _text(solution_summary(puzzle, lang)) not in nudge, (puzzle.id, answer, nudge)
            assert not ghost_ids(controller), (puzzle.id, answer)  # no counterexample drawn either
            controller.show_solution()
            shown = _text(controller.feedback_text())
            assert rule in re.findall(r"R\d+", shown), (puzzle.id, answer, rule, shown)
            assert set(re.findall(r"R\d+", shown)) == {rule}, (puzzle.id, answer, rule, shown)  # no other rule cited
            assert rule_sentences[rule] in shown, (puzzle.id, answer, shown)
            others = [s for r, s in rule_sentences.items() if r != rule and s in shown]
            assert not others, (puzzle.id, answer, rule, others)
            feedback = controller.session.feedback
            assert feedback is not None and _text(render_msg(feedback.why, lang)) in shown
            seen[rule] = seen.get(rule, 0) + 1
    assert {"R9", "R10", "R11", "R12", "R13", "R24", "R25"} <= seen.keys(), seen


@pytest.mark.parametrize(
    ("puzzle_id", "answer", "rule", "reason"),
    [
        ("same-wedge-sum-compare", "a", "R11", "compare_tie"),  # Mirror Wedges: the tie rule, not "look at A"
        ("seed-blue-seven-in-your-hand", True, "R13", "hand_not_evidence"),  # a hand card is no proof
        ("fog-wrecks-a-low-wedge", True, "R24", "fog"),  # under Fog the counterexample wins on its sum
        ("fog-sum-beats-wedge", "a", "R24", "compare_sum"),  # the Wedge counts for nothing under Fog
        ("mud-three-is-not-enough", True, "R25", "mud"),  # three cards are not a formation under Mud
    ],
)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_feedback_is_the_sessions_reason(puzzle_id: str, answer: object, rule: str, reason: str, lang: str) -> None:
    widget = PuzzleWidget(puzzle_id, lang=lang, record=False)
    widget.answer(answer)
    widget.answer(answer)  # a second miss: the solution and the whole why
    feedback = widget.session.feedback
    assert feedback is not None and (feedback.reason, feedback.rule) == (reason, rule)
    shown = _text(widget.feedback_text())
    assert render_msg(feedback.why, lang) in shown and rule in shown
    assert message(f"trainer.rule.{rule}", lang) in shown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_mirror_wedges_says_the_tie_rule(lang: str) -> None:
    widget = PuzzleWidget("same-wedge-sum-compare", lang=lang, record=False)
    widget.taps.action("answer", "a")
    expected = {"en": "the side that completed first wins", "zh": "先完成的一方获胜"}[lang]
    first = _text(widget.feedback_text())  # the rule's id, not what it says: that would answer the puzzle
    assert "R11" in first and "R10" not in first and expected not in first and "tie" not in first
    widget.taps.action("answer", "a")
    shown = _text(widget.feedback_text())
    assert "R11" in shown and "R10" not in shown
    assert expected in shown and ("Look again at what" not in shown)


def test_feedback_is_data_the_catalogue_renders() -> None:
    feedback = library.get("seed-blue-seven-in-your-hand").question
    assert feedback is not None
    judged = feedback.judge(library.get("seed-blue-seven-in-your-hand").position, True)
    assert judged.key == "widget.feedback.wrong" and judged.verdict == "wrong" and judged.ghosts
    assert all(isinstance(name, str) for name, _ in judged.params)
    assert judged.text("en").startswith("Not quite.") and judged.text("zh").startswith("还不对。")


# -- adding a kind --------------------------------------------------------------------------------

TEXTS = {
    "en": {
        "test.even.prompt": "Is the sum of these cards even?",
        "test.even.yes": "Even",
        "test.even.no": "Odd",
        "test.even.sum": "The values add up to {total}.",
        "test.even.hint": "Add the values one by one.",
        "test.even.miss": "Add them again: {total}.",
        "test.even.summary": "The sum {total} is {what}.",
        "test.even.even": "even",
        "test.even.odd": "odd",
        "trainer.rule.R8": "every troop card has a value from 1 to 10",
    },
    "zh": {
        "test.even.prompt": "这些牌的总和是偶数吗？",
        "test.even.yes": "偶数",
        "test.even.no": "奇数",
        "test.even.sum": "数值加起来是{total}。",
        "test.even.hint": "把数值一个个加起来。",
        "test.even.miss": "再加一次：{total}。",
        "test.even.summary": "总和{total}是{what}。",
        "test.even.even": "偶数",
        "test.even.odd": "奇数",
        "trainer.rule.R8": "每张部队牌的数值在1到10之间",
    },
}


@dataclass(frozen=True)
class EvenSumQuestion(Question[bool, int]):
    """Is the sum of these troop cards even?  Answer: true or false; the explanation is the sum."""

    kind: ClassVar[str] = "even-sum"
    fields: ClassVar[tuple[str, ...]] = ("cards",)
    required: ClassVar[tuple[str, ...]] = ("cards",)
    answer_hint: ClassVar[str] = "question.answer.claim"  # true or false
    lesson: ClassVar[int] = 1
    board_optional: ClassVar[bool] = True

    cards: tuple[Card, ...]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> EvenSumQuestion:
        tokens = data.get("cards")
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise QuestionError([Problem("not_card_list", ("cards",), (("field", "cards"),))])
        return cls(tuple(parse_card(t) for t in tokens))

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": [c.notation for c in self.cards]}

    def explain(self, position: Position) -> int:
        return sum(c.value for c in self.cards if isinstance(c, Troop))

    def solve(self, position: Position) -> bool:
        return self.explain(position) % 2 == 0

    def check_answer_type(self, value: object) -> bool:
        return isinstance(value, bool)

    def prompt(self, position: Position, *, sheet: bool = False) -> Msg:
        return Msg("test.even.prompt")

    def choices(self, position: Position) -> tuple[Choice, ...]:
        return (
            Choice(True, Msg("test.even.yes"), "bl-answer-even"),
            Choice(False, Msg("test.even.no"), "bl-answer-odd"),
        )

    def loose_cards(self) -> tuple[Card, ...]:
        return self.cards

    def card_rows(self, explained: int | None, lang: str) -> list[tuple[tuple[Card, ...], str]]:
        return [(self.cards, "" if explained is None else message("test.even.sum", lang, total=explained))]

    def miss(self, position: Position, answer: object, explained: int) -> Feedback:
        return wrong("sum_parity", "R8", [Msg.of("test.even.miss", total=explained)])

    def summary(self, position: Position, lang: str) -> str:
        total = self.explain(position)
        what = message("test.even.even" if total % 2 == 0 else "test.even.odd", lang)
        return message("test.even.summary", lang, total=total, what=what)

    def hint_rungs(self, position: Position, explained: int, lang: str) -> list[View]:
        return [View(message("test.even.hint", lang)), View(message("test.even.sum", lang, total=explained))]

    def key_lines(self, position: Position, lang: str) -> list[str]:
        return [message("test.even.sum", lang, total=self.explain(position))]


@pytest.fixture
def even_sum(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[EvenSumQuestion]]:
    """The example kind registered (and its texts in the catalogue) for one test."""
    for lang, texts in TEXTS.items():
        for key, text in texts.items():
            monkeypatch.setitem(catalogue(lang), key, text)  # type: ignore[arg-type,unused-ignore]
    register_question(EvenSumQuestion)
    yield EvenSumQuestion
    del QUESTION_KINDS[EvenSumQuestion.kind]


PUZZLE_YAML = """id: even-sum-example
title: {en: Even or odd, zh: 奇还是偶}
question: {kind: even-sum, cards: [r3, g4, b6]}
answer: false
"""


def test_a_new_kind_goes_through_trainer_hints_widget_cli_and_worksheet(
    even_sum: type[EvenSumQuestion], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from battleline_lab.quiz.loader import load_puzzle

    path = tmp_path / "even.yaml"
    path.write_text(PUZZLE_YAML, encoding="utf-8")
    puzzle = load_puzzle(path)
    assert isinstance(puzzle.question, even_sum) and puzzle.solve() is False and required_lesson(puzzle) == 1

    session = PuzzleSession(puzzle)  # the trainer's session judges through the kind
    feedback = session.answer(True)
    assert (feedback.verdict, feedback.reason, feedback.rule) == ("wrong", "sum_parity", "R8")
    assert session.answer(False).verdict == "right"
    trainer = Trainer(puzzles=[puzzle], data=tmp_path / "data")
    assert trainer.next().id == "even-sum-example"

    ladder = hint_ladder(puzzle, "zh")
    assert [h.text for h in ladder] == ["把数值一个个加起来。", "数值加起来是13。", "答案：总和13是奇数。"]

    widget = PuzzleWidget(puzzle, record=False)
    labels = {a["value"]: a["label"] for a in widget.board.view["answers"] if "value" in a}
    assert list(labels) == ["yes", "no"] and labels["yes"] == "Even" and "flags" not in widget.board.view
    widget.taps.action("answer", "yes")
    assert "R8" in widget.feedback_text() and "13" not in widget.feedback_text()  # the rule's id, no answer
    widget.taps.action("solution")  # the "Show the solution" button
    assert "Add them again: 13. What decides it: every troop card has a value from 1 to 10 (R8)." in _text(
        widget.feedback_text()
    )
    widget.taps.action("answer", "no")
    assert widget.state == "right" and "The values add up to 13." in _text(widget.step_text())

    assert main(["explain", str(path)]) == 0
    assert "The values add up to 13." in capsys.readouterr().out

    sheet = worksheet_html([puzzle])
    assert "Is the sum of these cards even?" in sheet and "The values add up to 13." in sheet
    assert key_entries([puzzle]) == [("Even or odd", "false", ["The values add up to 13."])]


def test_a_kind_is_registered_once() -> None:
    assert QUESTION_KINDS["claim"].lesson == 3
    with pytest.raises(ValueError, match="already registered"):

        @register_question
        @dataclass(frozen=True)
        class Other(Question[bool, int]):
            kind: ClassVar[str] = "claim"
