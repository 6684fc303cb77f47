"""One puzzle being solved: everything it remembers, the intents it takes and the board's view of it.

:class:`PuzzleController` wraps a :class:`~battleline_lab.training.trainer.PuzzleSession` (which
judges, counts hints, knows its proof and records every attempt) and adds what a learner sees:
the flags picked for a "which flags" question, the cards the hints lit, the language.  Its
:meth:`~PuzzleController.view` is a :class:`~battleline_lab.controllers.view.PuzzleView`.

>>> from battleline_lab import Position
>>> from battleline_lab.quiz.puzzle import Puzzle
>>> from battleline_lab.quiz.questions import ClaimQuestion
>>> c = PuzzleController(Puzzle("wedge", {"en": "Flag 5"}, position=Position.build(
...     {5: {"you": "r3 r4 r5", "opponent": "b8"}}), question=ClaimQuestion(5), answer=False))
>>> c.tap_answer("yes")  # a wrong answer: where to look, no ghosts (the answer stays the learner's to find)
>>> c.state, [g["id"] for f in c.view()["flags"] for g in f.get("ghosts", ())]
('wrong', [])
>>> c.intent("do", "solution")  # on request: the solution and its counterexample, recorded as seen
>>> c.state, c.step_index, [g["id"] for f in c.view()["flags"] for g in f.get("ghosts", ())]
('wrong', 0, ['b9', 'b10'])
>>> c.tap_answer("no")  # right, late: the proof was shown, so no card is asked for it
>>> c.state, c.view()["feedback"]["tone"]
('right', 'right')

Answered right at once, a claim asks for its proof:

>>> c = PuzzleController(Puzzle("wedge", {"en": "Flag 5"}, position=Position.build(
...     {5: {"you": "r3 r4 r5", "opponent": "b8"}}), question=ClaimQuestion(5), answer=False))
>>> c.tap_answer("no")
>>> c.state, c.view()["evidence"]["prompt"]
('evidence', 'Right. Now show why: tap a card the opponent could still get at flag 5 to beat your formation.')
>>> c.evidence("b9")
True
>>> c.state, c.step_index, c.view()["feedback"]["tone"]
('right', 0, 'right')

A claim is solved with its proof: after a right yes or no, the first card tapped as evidence
counts like a first answer (:meth:`PuzzleController.evidence`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from ..core.cards import Card, parse_card
from ..core.position import Side
from ..quiz.puzzle import Puzzle
from ..quiz.questions import Feedback, View
from ..quiz.questions.evidence import Evidence
from ..render.svg import RULES_PAGE
from ..text.messages import (
    DEFAULT_LANGUAGE,
    Msg,
    card_label,
    first_complete_note,
    message,
    render_msg,
)
from ..training.hints import hint_ladder, solution_summary
from ..training.trainer import PuzzleSession
from .puzzle_play import PLAY_INTENTS, add_play_view, play_intent
from .view import (
    ButtonView,
    CardRowView,
    CardView,
    EvidenceView,
    FeedbackView,
    HeldView,
    HintButtonView,
    ProofView,
    PuzzleView,
    RulePart,
    card_view,
    flag_views,
)
from .view import (
    join_list as _list,
)

Ghosts = Mapping[tuple[int, Side], Sequence[Card]]


class PuzzleController:
    """A puzzle's whole state and what may be done to it: answer, pick flags, check, hint, step, switch language.

    ``session`` judges and records (a :class:`~battleline_lab.training.trainer.PuzzleSession`; by
    default one that records nothing).  ``on_answer(puzzle_id, correct)`` and ``on_hint(puzzle_id)``
    are called after each answer and hint (the gym moves on or redraws its figures).
    """

    def __init__(
        self,
        puzzle: Puzzle,
        *,
        lang: str = DEFAULT_LANGUAGE,
        session: PuzzleSession | None = None,
        on_answer: Callable[[str, bool], None] | None = None,
        on_hint: Callable[[str], None] | None = None,
        rules_page: str = RULES_PAGE,
    ) -> None:
        self.puzzle = puzzle
        self.lang = lang
        self.session = session if session is not None else PuzzleSession(puzzle)
        self.on_answer = on_answer
        self.on_hint = on_hint
        self.rules_page = rules_page
        #: the flags picked so far for a "which flags" question (the session judges them at Check)
        self.picked: set[int] = set()
        #: the cards the last hint lit (while the proof is closed)
        self.highlight: tuple[Card, ...] = ()
        #: the hand card held for a play puzzle by a front end that does not hold it itself (``select``)
        self.held_card: str | None = None
        question = puzzle.question
        self.focus: tuple[int, ...] = question.focus(puzzle.position) if question is not None else ()
        self.choices = question.choices(puzzle.position) if question is not None else ()
        #: a claim's evidence stage, open once its yes/no is right (None: not open, or the kind has none)
        self.stage: Evidence | None = None
        #: the right yes/no that opened the stage (the session records it once the evidence is right)
        self.verdict: object = None
        #: the card tapped last as evidence
        self.tapped: str | None = None
        #: the batches of taps a board answered from its response table before the kernel ran, replayed here
        #: once each (:meth:`replay`)
        self.replayed: set[str] = set()
        # an evidence stage's cards on offer and its verdict on each card, worked out once per stage (a
        # response table taps every card in thousands of states of one stage); the stage is kept with
        # them, so that its identity is never that of a later one
        self._stage_keys: tuple[Evidence, frozenset[str]] | None = None
        self._judged: dict[tuple[int, str], tuple[Evidence, Feedback]] = {}
        self._stage: tuple[Evidence | None] | None = None

    # -- the session's state ---------------------------------------------
    @property
    def state(self) -> str:
        """``waiting``, ``evidence`` (a right yes/no; a card is asked), ``right`` or ``wrong``."""
        if self.stage is not None and self.tapped is None and self.session.state != "right":
            return "evidence"
        return self.session.state

    @property
    def attempts(self) -> int:
        return self.session.attempts

    @property
    def hint_level(self) -> int:
        """Hints taken (0-3; the third shows the solution)."""
        return self.session.hint_level

    @property
    def step_index(self) -> int | None:
        """The proof step on show (None while the proof is closed)."""
        return self.session.step_index

    @property
    def answer_style(self) -> str:
        """``buttons`` (one answer button per choice), ``flags`` (tap the flags, then Check) or ``play`` (a hand
        card onto a flag)."""
        question = self.puzzle.question
        return question.answer_style if question is not None else "buttons"

    @property
    def ghosts(self) -> Ghosts:
        """The counterexample to the last wrong answer (the cards that could still come), once the
        solution is out: drawn before, they would be the answer."""
        feedback = self.session.feedback
        return dict(feedback.ghosts) if feedback is not None and self.session.revealed else {}

    def answer_keys(self) -> set[str]:
        """The answers a tap may give: every choice as the board writes it, or, on a "which flags"
        question, the flags that may be picked; none on a play question (it takes ``play``)."""
        if self.answer_style == "play":
            return set()
        if self.answer_style == "flags":
            return {choice_key(c.value) for c in self.choices if not c.disabled}
        return {choice_key(c.value) for c in self.choices}

    def selected_flags(self) -> list[int]:
        """The flags picked (claimable questions), in order."""
        return sorted(self.picked)

    # -- intents ----------------------------------------------------------
    def intent(self, name: str, value: object) -> None:
        """An intent from the board (already checked against its schema): answer, do (check, solution), hint, step."""
        if name == "answer":
            self.tap_answer(str(value))
        elif name == "do" and value == SOLUTION:
            self.show_solution()
        elif name == "do":  # check: the schema lets it through on a "which flags" question only
            self.check()
        elif name == "hint":
            self.hint()
        elif name == "step":
            assert isinstance(value, int)
            self.step(value)
        elif name == "evidence":
            self.evidence(str(value))
        elif name in PLAY_INTENTS:  # a play puzzle: a hand card onto a flag, as in the game
            play_intent(self, name, value)

    def replay(self, batch: str, intents: Sequence[object], apply: Callable[[object], object]) -> bool:
        """The taps a board answered from its response table while no kernel was behind it, in order: each goes
        through ``apply`` (the widget's gate, then :meth:`intent`), so the session judges and records them as
        if made live.  A batch is replayed once: the browser sends it again if it did not hear back (a page
        reloaded in between), and it is not counted twice.  True if it was replayed now."""
        if batch in self.replayed:
            return False
        self.replayed.add(batch)
        for intent in intents:
            apply(intent)
        return True

    def tap_answer(self, value: str) -> None:
        """An answer tapped: a flag of a "which flags" question is picked or dropped, else the choice is the answer."""
        if self.answer_style == "flags":
            if self.state != "right":
                self.picked ^= {int(value)}
            return
        choice = next((c for c in self.choices if choice_key(c.value) == value), None)
        if choice is not None:
            self.answer(choice.value)

    def check(self) -> bool:
        """Check the flags picked (a "which flags" question)."""
        return self.answer(self.selected_flags())

    def answer(self, value: object) -> bool:
        """Give an answer; returns whether it was right."""
        if self.state == "right":
            return True
        if self.stage is not None:  # the verdict is in and right: a card is asked now
            return True
        if self.answer_style == "flags" and isinstance(value, (list, tuple, set, frozenset)):
            self.picked = {int(n) for n in value}
        if self._open_evidence(value):
            return True
        correct = self.session.answer(value).verdict == "right"
        if self.on_answer is not None:
            self.on_answer(self.puzzle.id, correct)
        return correct

    # -- a claim's evidence stage -------------------------------------------
    def _open_evidence(self, value: object) -> bool:
        """A right yes/no of a question with an evidence stage opens it (nothing recorded yet): True if it did."""
        question = self.puzzle.question
        if question is None or self.session.revealed or not self.puzzle.is_correct(value):
            return False
        if self._stage is None:  # the same stage each time: its question and position never change
            self._stage = (question.evidence(self.puzzle.position),)
        (stage,) = self._stage
        if stage is None or not stage.offered:
            return False
        self.stage, self.verdict = stage, value
        return True

    def evidence_keys(self) -> set[str]:
        """The cards a tap may offer as evidence now (none before the stage opens or once solved)."""
        stage = self.stage
        if stage is None or self.state == "right":
            return set()
        if self._stage_keys is None or self._stage_keys[0] is not stage:
            self._stage_keys = (stage, frozenset(c.notation for c in stage.offered))
        return set(self._stage_keys[1])

    def evidence(self, card: str) -> bool:
        """A card tapped as the evidence of a right yes/no: the first tap counts like a first answer.

        Right: the session records the (right) yes/no and the puzzle is solved.  Wrong: recorded as
        a wrong answer, with feedback that says where to look (never which card); another tap may follow.
        """
        if self.state == "right":
            return True
        if self.stage is None or card not in self.evidence_keys():
            raise ValueError(f"{card} is not on offer as evidence")
        self.tapped = card
        stage = self.stage
        judged = self._judged.get((id(stage), card))
        if judged is None or judged[0] is not stage:
            judged = self._judged[(id(stage), card)] = (stage, stage.judge(self.puzzle.position, parse_card(card)))
        feedback = judged[1]
        if feedback.verdict == "right":
            correct = self.session.answer(self.verdict).verdict == "right"
        else:
            self.session.miss(card, feedback)
            correct = False
        if self.on_answer is not None:
            self.on_answer(self.puzzle.id, correct)
        return correct

    def _evidence_view(self, out: PuzzleView) -> None:
        """The evidence stage on the board: the verdict button kept, the cards on offer ``pick``, the section."""
        stage = self.stage
        if stage is None:
            return
        lang, solved = self.lang, self.state == "right"
        given = choice_key(self.verdict)
        for button in out["answers"]:
            button["enabled"] = False
            if button.get("value") == given:
                button["state"] = "right"
        # a ghost is picked from the palette alone: a card is one button, once on the page
        offered = set() if solved or stage.ghost else self.evidence_keys()

        def mark(cards: list[CardView]) -> None:
            for card in cards:
                if card["id"] in offered:
                    card["pick"] = True

        for f in out.get("flags", ()):
            mark(f["you"])
            mark(f["opponent"])
            mark(f["env"])
        for held in out.get("held", ()):
            mark(held["cards"])
        position = self.puzzle.position
        rows: list[CardRowView] = []
        if stage.ghost:
            rows.append(CardRowView(caption=message("evidence.palette", lang), cards=self._picks(stage.offered)))
        else:
            for side in (Side.OPPONENT, Side.YOU):
                cards = position.discards(side)
                if cards:
                    caption = message(f"board.discards.{side.value}", lang)
                    rows.append(CardRowView(caption=caption, cards=self._picks(cards)))
        section = EvidenceView(prompt=render_msg(stage.prompt(), lang), ghost=stage.ghost, rows=rows)
        if self.tapped is not None:
            section["picked"] = self.tapped
            section["state"] = "right" if solved else "wrong"
        out["evidence"] = section

    def _picks(self, cards: Sequence[Card]) -> list[CardView]:
        offered = set() if self.state == "right" else self.evidence_keys()
        out = []
        for card in cards:
            view = card_view(card, self.lang, highlight=card.notation == self.tapped)
            if card.notation in offered:
                view["pick"] = True
            out.append(view)
        return out

    def hint(self) -> None:
        """The next hint: vague, then the key cards, then the full solution (the proof opens)."""
        views = self.hint_views()
        if self.hint_level >= len(views):
            return
        view = views[self.session.hint() - 1]
        if view.highlight and self.step_index is None:
            self.highlight = view.highlight
        if self.hint_level >= len(views):
            self.session.reveal(record=False)
        if self.on_hint is not None:
            self.on_hint(self.puzzle.id)

    def show_solution(self) -> None:
        """The solution with its proof, on request (recorded as seen before a right answer)."""
        if self.puzzle.question is None or self.session.revealed:
            return
        self.session.show_solution()
        self.highlight = ()
        if self.on_hint is not None:
            self.on_hint(self.puzzle.id)

    def offers_solution(self) -> bool:
        """Whether the "Show the solution" button is offered: after a wrong answer, before the
        solution is out (the hint ladder's last rung offers it under the same name)."""
        return self.state == "wrong" and not self.session.revealed and self.hint_level < 2

    def step(self, delta: int) -> None:
        """Step the proof forward (+1) or back (-1); nothing while it is closed."""
        self.session.step(delta)

    def set_lang(self, lang: str) -> None:
        """Every text in ``lang`` from now on; the state is kept."""
        self.lang = lang

    # -- what is shown ------------------------------------------------------
    def hint_views(self) -> list[View]:
        """The hint ladder (:func:`battleline_lab.training.hints.hint_ladder`) in :attr:`lang`."""
        ladder = hint_ladder(self.puzzle, self.lang, self.session.explanation())
        return [View(h.text, h.highlight) for h in ladder]

    def hints(self) -> list[str]:
        """The hints given so far, in order."""
        return [view.text for view in self.hint_views()[: self.hint_level]] if self.hint_level else []

    def proof(self) -> list[View]:
        """The proof step by step in :attr:`lang` (empty while it is closed)."""
        return self.session.proof(self.lang) if self.step_index is not None else []

    def current_view(self) -> View | None:
        """The proof step on show, if any."""
        proof = self.proof()
        if self.step_index is None or not proof:
            return None
        return proof[self.step_index]

    def shown(self) -> tuple[tuple[Card, ...], Ghosts]:
        """The cards lit and the ghosts drawn now: the proof step's, else the hints' and the last answer's."""
        view = self.current_view()
        highlight = view.highlight if view is not None else self.highlight
        ghosts: Ghosts = dict(view.ghosts) if view is not None and view.ghosts else self.ghosts
        return highlight, ghosts

    def board_matters(self) -> bool:
        """False for a question about loose cards on an empty board (the board is not drawn)."""
        position = self.puzzle.position
        empty = all(s.is_empty for s in position.flags) and not (
            position.discards_you or position.discards_opponent or position.hand_you or position.hand_opponent
        )
        question = self.puzzle.question
        return not (empty and question is not None and question.board_optional)

    def feedback_text(self) -> str:
        """The feedback sentence on the last answer.

        Right: the point of the puzzle (its headline) and the solution; right only at a later try:
        that the first answer counted.  Wrong: where to look and the rule's id (the question's
        nudge), never the answer; once the solution is out (asked for, or a second wrong answer):
        the solution and why the answer was wrong, rule spelled out.
        """
        feedback, lang = self.session.feedback, self.lang
        if feedback is None:
            return message("widget.feedback.waiting", lang)
        summary = solution_summary(self.puzzle, lang)
        if feedback.verdict == "right":
            puzzle = self.puzzle  # its headline (the point, kept from the title while it would spoil), then the answer
            headline = message("widget.feedback.headline", lang, headline=puzzle.title_after_answer(lang))
            text = message("course.question.sep", lang).join((headline, summary) if puzzle.headline else (summary,))
            late = self.session.attempts > 1 or self.session.solution_seen
            return message("widget.feedback.right.late" if late else feedback.key, lang, text=text)
        if self.session.revealed:
            return render_msg(Msg.of("widget.feedback.solution", solution=summary, text=feedback.why), lang)
        return render_msg(feedback.nudge or feedback.msg, lang)

    def view(self) -> PuzzleView:
        """The board's view model now (puzzle mode), named in :attr:`lang`."""
        lang, puzzle, question = self.lang, self.puzzle, self.puzzle.question
        highlight, ghosts = self.shown()
        solved = self.state == "right"
        if question is not None:
            text = render_msg(question.prompt(puzzle.position), lang)
            tie_note = first_complete_note(question, puzzle.position, lang)  # a tie can decide: who was first (R11)
            if tie_note:
                text += message("course.question.sep", lang) + tie_note
        else:
            text = message("widget.question.none", lang)
        out = PuzzleView(
            mode="puzzle",
            lang=lang,
            board_label=message("boardui.board", lang),
            question=text,
            answers=self._answers(solved),
            answers_label=message("widget.answers", lang),
            hints=self.hints(),
            feedback=self._feedback_view(),
            proof_label=message("widget.step.heading", lang),
            proof_waiting=message("widget.proof.waiting", lang),
            step_back=message("widget.step.back", lang),
            step_next=message("widget.step.next", lang),
            step_back_label=message("widget.step.back_label", lang),
            step_next_label=message("widget.step.next_label", lang),
            starting=message("widget.starting", lang),
        )
        if self.board_matters():
            position = puzzle.position
            flags = flag_views(position, lang, highlight=highlight, ghosts=ghosts, focus=self.focus)
            offered = {c.value: c for c in self.choices} if self.answer_style == "flags" else {}
            for f in flags:
                choice = offered.get(f["n"])
                if choice is None or choice.disabled or solved:
                    f["inert"] = True
                if choice is not None:
                    f["answer"] = f["n"] in self.picked
                    f["css"] = f"bl-flag-toggle {choice.css}"
                    f["label"] = f"{f['label']}: {render_msg(choice.label, lang)}"
            out["flags"] = flags
            lit = frozenset(highlight)
            out["held"] = [
                HeldView(
                    side=side.value,
                    label=message(f"board.hand.{side.value}", lang),
                    cards=[card_view(c, lang, highlight=c in lit) for c in cards],
                )
                for side, cards in ((Side.OPPONENT, position.hand_opponent), (Side.YOU, position.hand_you))
                if cards
            ]
            if self.answer_style == "play":
                add_play_view(self, out)
        self._evidence_view(out)
        explained = self.session.explanation() if self.step_index is not None else None
        rows = question.card_rows(explained, lang) if question else []
        if rows:
            out["rows"] = [
                CardRowView(caption=caption, cards=[card_view(c, lang) for c in cards]) for cards, caption in rows
            ]
            environment = _list((card_label(c, lang) for c in question.environment_cards()), lang) if question else ""
            if environment:
                out["environment"] = message("widget.environment", lang, cards=environment)
        if self.offers_solution():
            out["answers"].append(
                ButtonView(action=SOLUTION, label=message("widget.solution.button", lang), css="bl-solution")
            )
        elif out["answers"] and question is not None:
            # its place is kept while it is not offered, so that offering it, or answering, moves nothing
            # (at 360 px it takes a line of its own)
            out["answers"].append(
                ButtonView(
                    action=SOLUTION,
                    label=message("widget.solution.button", lang),
                    css="bl-solution",
                    enabled=False,
                    hidden=True,
                )
            )
        if question is not None:
            done = solved or self.hint_level >= 3
            label = message(f"widget.hint.button.{min(self.hint_level + 1, 3)}", lang)
            out["hint"] = HintButtonView(label=label, enabled=not done, hidden=done)
        proof = self.proof()
        if self.step_index is not None and proof:
            out["proof"] = ProofView(
                index=self.step_index,
                steps=[rule_links(v.text, self.rules_page) for v in proof],
                counter=message("widget.step.counter", lang, number=self.step_index + 1, total=len(proof)),
                rule_label=message("widget.rule_link", lang, rule="{rule}"),
                note=puzzle.note_text(lang) or "",
            )
        return out

    def _answers(self, solved: bool) -> list[ButtonView]:
        lang = self.lang
        if self.answer_style == "play":  # answered on the board: a hand card, then a flag
            return []
        if self.answer_style == "flags":
            check = ButtonView(
                action="check",
                label=message("widget.answer.check", lang),
                primary=True,
                enabled=not solved,
                css="bl-check",
            )
            return [check]
        answers = []
        last = self.session.last_answer
        for choice in self.choices:
            item = ButtonView(
                value=choice_key(choice.value), label=render_msg(choice.label, lang), css=f"bl-answer {choice.css}"
            )
            if choice.disabled or solved:
                item["enabled"] = False
            if last is not None and choice.value == last:
                item["state"] = "right" if solved else "wrong" if self.state == "wrong" else None
            answers.append(item)
        return answers

    def _feedback_view(self) -> FeedbackView:
        lang = self.lang
        if self.state == "evidence" and self.stage is not None:
            return FeedbackView(tone="info", state="evidence", text=render_msg(self.stage.prompt(), lang))
        if self.state not in ("right", "wrong"):
            return FeedbackView(tone="info", state="waiting", text=message("widget.feedback.waiting", lang))
        # one sentence: the headline is in it once the answer is out; no list of the title and tags
        return FeedbackView(tone=self.state, state=self.state, text=self.feedback_text())

    def __repr__(self) -> str:
        return f"<PuzzleController {self.puzzle.id}: {self.state}>"


#: The ``do`` of the "Show the solution" button.
SOLUTION = "solution"


def choice_key(value: object) -> str:
    """An answer's ``data-value``: ``yes``/``no`` for a claim, else the choice as written (``a``, ``wedge``, ``5``)."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


#: A rule id in a proof step's text: ``[R12]``, ``（R12）``, ``R10, R11``.
_RULE_ID = re.compile(r"(?<![A-Za-z0-9])(R\d{1,2})(?![0-9])")


def rules_page_link(start: Path | None = None) -> str:
    """Where the rules page is, relative to the notebook running (its kernel's folder, or ``start``).

    Lessons live in ``notebooks/`` and ``notebooks/zh/`` and the page is ``notebooks/rules.md``, so
    a lesson links ``rules.md`` or ``../rules.md``; anywhere else, :data:`~battleline_lab.render.svg.RULES_PAGE`.
    """
    here = Path.cwd() if start is None else start
    for up, folder in enumerate([here, *list(here.parents)[:2]]):
        if (folder / "rules.md").is_file() and (folder / "rules.md").read_text(encoding="utf-8").startswith(
            "<!-- made by tools/rules_page.py"
        ):
            return "../" * up + "rules.md"
    return RULES_PAGE


def rule_links(text: str, page: str = RULES_PAGE) -> list[RulePart]:
    """A proof step as the board draws it: text parts, each rule id a link to its rule on ``page``.

    >>> rule_links("A Wedge, sum 12. [R9]", "rules.md")
    [{'text': 'A Wedge, sum 12. ['}, {'text': 'R9', 'rule': 'R9', 'href': 'rules.md#R9'}, {'text': ']'}]
    """
    parts: list[RulePart] = []
    at = 0
    for found in _RULE_ID.finditer(text):
        if found.start() > at:
            parts.append(RulePart(text=text[at : found.start()]))
        rule = found.group(1)
        parts.append(RulePart(text=rule, rule=rule, href=f"{page}#{rule}"))
        at = found.end()
    if at < len(text) or not parts:
        parts.append(RulePart(text=text[at:]))
    return parts
