"""The puzzle widget: one puzzle on the board component, a view over a puzzle session.

:class:`PuzzleWidget` draws a :class:`~battleline_lab.quiz.puzzle.Puzzle` (its question, the
claim analysis, hints and the proof step by step) on the board component; every tap comes back
as an intent the session (:class:`~battleline_lab.training.trainer.PuzzleSession`) decides.

>>> from battleline_lab import Position
>>> from battleline_lab.quiz.puzzle import Puzzle
>>> from battleline_lab.quiz.questions import ClaimQuestion
>>> w = PuzzleWidget(Puzzle("wedge", {"en": "Flag 5"}, position=Position.build(
...     {5: {"you": "r3 r4 r5", "opponent": "b8"}}), question=ClaimQuestion(5), answer=False), record=False)
>>> w
<PuzzleWidget wedge: waiting>
>>> w.taps.action("answer", "yes")
>>> w.state, [g["id"] for f in w.board.view["flags"] for g in f["ghosts"]]
('wrong', ['b9', 'b10'])
>>> w.taps.action("answer", "no")
>>> w.state, w.step_index
('right', 0)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as W

from ..core.cards import Card
from ..core.position import Side
from ..quiz.puzzle import Puzzle
from ..quiz.questions import View
from ..render.svg import RULES_PAGE, board_svg, cards_svg
from ..text.messages import (
    DEFAULT_LANGUAGE,
    Theme,
    card_label,
    first_complete_note,
    message,
    render_msg,
    themed,
    topic_name,
)
from ..training.hints import hint_ladder, solution_summary
from ..training.progress import Progress
from ..training.trainer import PuzzleSession
from ._common import FOCUS_STYLE, _classed, _esc, _list, default_progress, language_toggle, set_visible, switch_lang
from .board import Board, Taps, card_view, flag_views
from .intents import puzzle_intents

Ghosts = Mapping[tuple[int, Side], Sequence[Card]]


class PuzzleWidget(W.VBox):  # type: ignore[misc]
    """One puzzle on the board component: title, board, question, answers, proof step by step, feedback, hints.

    ``puzzle`` is a :class:`~battleline_lab.quiz.puzzle.Puzzle`, a library puzzle id or the path of a
    puzzle file.  The widget is a view over a :class:`~battleline_lab.training.trainer.PuzzleSession`
    (``session``), which judges answers, counts hints and records every attempt in the
    learner's progress (``progress``; by default the user data folder, opened at the first
    answer; ``record=False`` records nothing).  ``on_answer(puzzle_id, correct)`` and
    ``on_hint(puzzle_id)`` are called after each answer and hint.
    Feedback states: ``waiting``, ``right``, ``wrong``.  The ``bl-lang``
    toggle (``lang_toggle``; hidden with ``show_lang=False``, as in the gym)
    switches every label, feedback, hint and proof step live: :meth:`set_lang`.

    Everything but the title and the language toggle is drawn by :attr:`board`, a
    :class:`~battleline_lab.widgets.board.Board` in puzzle mode: Python sets its view model
    (:meth:`board_view`) and decides every intent it sends back (``answer``, ``do: check``,
    ``hint``, ``step``); :attr:`taps` taps its hooks from Python as a learner does.
    """

    def __init__(
        self,
        puzzle: Puzzle | str | Path,
        *,
        lang: str = DEFAULT_LANGUAGE,
        theme: Theme | str | None = None,
        on_answer: Callable[[str, bool], None] | None = None,
        on_hint: Callable[[str], None] | None = None,
        show_lang: bool = True,
        progress: Progress | None = None,
        record: bool = True,
        session: PuzzleSession | None = None,
    ) -> None:
        if not isinstance(puzzle, Puzzle):
            from ..quiz.library import resolve
            from ..quiz.loader import load_puzzle

            puzzle = load_puzzle(resolve(puzzle))
        self.puzzle = puzzle
        self.lang = themed(lang, theme)  # the theme (classic, chuhan) names the Leaders; it rides on the language
        self.on_answer = on_answer
        self.on_hint = on_hint
        if session is None:
            store: Progress | Callable[[], Progress] | None = None
            if record:
                store = progress if progress is not None else default_progress
            session = PuzzleSession(puzzle, progress=store, source="lesson")
        self.session = session
        self._highlight: tuple[Card, ...] = ()
        self._ghosts: Ghosts = {}
        self._hints: list[str] = []
        self._views: list[View] = []
        self._last_answer: object = None
        #: the flags picked so far for a "which flags" question (the session judges them at Check)
        self._picked: set[int] = set()
        self.rules_page = rules_page_link()
        question = puzzle.question
        position = puzzle.position
        self.focus: tuple[int, ...] = question.focus(position) if question is not None else ()
        self._choices = question.choices(position) if question is not None else ()

        self.lang_toggle = language_toggle(lang, self.set_lang)
        set_visible(self.lang_toggle, show_lang)
        self.title = _classed(W.HTML(), "bl-title")
        #: the board component the puzzle is drawn on (its view model: :meth:`board_view`)
        self.board = Board(
            on_intent=self._on_intent,
            schema=puzzle_intents(self._answer_keys, lambda: self.answer_style == "flags"),
            on_refused=self._render,
        )
        self.board.add_class("bl-puzzle-board")
        #: taps on the board from Python, decided as the browser decides them
        self.taps = Taps(self.board)
        children = [_classed(W.HTML(FOCUS_STYLE), "bl-style"), self.lang_toggle, self.title, self.board]
        super().__init__(children)
        self.add_class("bl-puzzle")
        self._label()

    # the state lives in the session; the widget only shows it
    @property
    def state(self) -> str:
        """``waiting``, ``right`` or ``wrong`` (the session's)."""
        return self.session.state

    @property
    def attempts(self) -> int:
        """Answers given to this puzzle here."""
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
        """``buttons`` (one answer button per choice) or ``flags`` (tap the flags, then Check)."""
        question = self.puzzle.question
        return question.answer_style if question is not None else "buttons"

    def set_lang(self, lang: str) -> None:
        """Switch every text to ``lang`` (also what the ``bl-lang`` toggle does); the state is kept."""
        if switch_lang(self, lang):
            self._label()

    def _label(self) -> None:
        """Every text of the widget in ``self.lang``, from its state (answers, hints, step)."""
        lang, puzzle = self.lang, self.puzzle
        meta = []
        if puzzle.level is not None:
            meta.append(_esc(message("widget.level", lang, level=puzzle.level)))
        # topics only: tags and the headline come with the answer, in the feedback (they may give it
        # away), so the title above the board keeps its height (nothing moves when answered)
        if puzzle.topics:
            meta.append(
                _esc(message("widget.topics", lang, topics=_list((topic_name(t, lang) for t in puzzle.topics), lang)))
            )
        meta_html = f'<div class="bl-meta">{" · ".join(meta)}</div>' if meta else ""
        self.title.value = f'<h3 class="bl-title-text">{_esc(puzzle.title_before_answer(lang))}</h3>{meta_html}'
        if self.hint_level:
            self._hints = [view.text for view in self._hint_views()[: self.hint_level]]
        if self.step_index is not None:
            self._views = self._solution_views()
        self._render()

    # -- engine data (computed once, lazily) ----------------------------
    def _board_matters(self) -> bool:
        position = self.puzzle.position
        empty = all(s.is_empty for s in position.flags) and not (
            position.discards_you or position.discards_opponent or position.hand_you or position.hand_opponent
        )
        question = self.puzzle.question
        return not (empty and question is not None and question.board_optional)

    def _explained(self) -> object:
        if not hasattr(self, "_explanation"):
            self._explanation = self.puzzle.explain()
        return self._explanation

    def _solution_views(self) -> list[View]:
        """The explanation, one view per step, from the question (the engine's proof)."""
        question = self.puzzle.question
        if question is None:
            return []
        return question.solution_steps(self.puzzle.position, self._explained(), self.lang)

    def _solution_summary(self) -> str:
        return solution_summary(self.puzzle, self.lang)

    def _hint_views(self) -> list[View]:
        """The hint ladder (:func:`battleline_lab.training.hints.hint_ladder`): vague, key cards, then the solution."""
        return [View(h.text, h.highlight) for h in hint_ladder(self.puzzle, self.lang, self._explained())]

    # -- what the board sends -------------------------------------------
    def _answer_keys(self) -> set[str]:
        """The answers a tap may give (:func:`~battleline_lab.widgets.intents.puzzle_intents`): every choice as
        the board writes it, or, on a "which flags" question, the flags that may be picked."""
        if self.answer_style == "flags":
            return {_choice_key(c.value) for c in self._choices if not c.disabled}
        return {_choice_key(c.value) for c in self._choices}

    def _on_intent(self, name: str, value: Any) -> None:
        """An intent from the board (a tap or a key in the browser, or :attr:`taps`), checked by its schema
        (:func:`~battleline_lab.widgets.intents.puzzle_intents`): the session decides."""
        if name == "answer":
            self._tapped(value)
        elif name == "do":  # check: the schema lets it through on a "which flags" question only
            self.answer(self.selected_flags())
        elif name == "hint":
            self.hint()
        elif name == "step":
            self.go(value)

    def _tapped(self, value: str) -> None:
        """An answer tapped: a flag of a "which flags" question is picked or dropped, else the choice is the answer."""
        if self.answer_style == "flags":
            if self.state != "right":
                self._picked ^= {int(value)}
                self._render()
            return
        choice = next((c for c in self._choices if _choice_key(c.value) == value), None)
        if choice is not None:
            self.answer(choice.value)

    # -- actions ---------------------------------------------------------
    def selected_flags(self) -> list[int]:
        """The flags picked (claimable questions), in order."""
        return sorted(self._picked)

    def answer(self, value: object) -> bool:
        """Give an answer (as a tap does); returns whether it was right."""
        if self.state == "right":
            return True
        if self.answer_style == "flags" and isinstance(value, (list, tuple, set, frozenset)):
            self._picked = {int(n) for n in value}
        feedback = self.session.answer(value)
        correct = feedback.verdict == "right"
        self._last_answer = value
        self._ghosts = dict(feedback.ghosts)
        if correct:
            self._reveal()
        if self.on_answer is not None:
            self.on_answer(self.puzzle.id, correct)
        self._render()
        return correct

    def _feedback_text(self) -> str:
        """The session's :class:`~battleline_lab.quiz.questions.Feedback` on the last answer, rendered by the catalogue.

        The question judged the answer (:meth:`~battleline_lab.quiz.questions.Question.judge`): a wrong
        answer's key and parameters are all the widget shows; a right one adds the solution summary.
        """
        feedback = self.session.feedback
        if feedback is None:
            return message("widget.feedback.waiting", self.lang)
        if feedback.verdict == "right":
            return message(feedback.key, self.lang, text=self._solution_summary())
        return render_msg(feedback.msg, self.lang)

    def hint(self) -> None:
        """Show the next hint: vague, then the key cards, then the full solution."""
        views = self._hint_views()
        if self.hint_level >= len(views):
            return
        view = views[self.session.hint() - 1]
        self._hints.append(view.text)
        if view.highlight and self.step_index is None:
            self._highlight = view.highlight
        if self.hint_level >= len(views):
            self._reveal()
        if self.on_hint is not None:
            self.on_hint(self.puzzle.id)
        self._render()

    def _reveal(self) -> None:
        """Open the step-by-step explanation at its first step (the session knows it is open)."""
        self.session.reveal(record=False)
        if not self._views:
            self._views = self._solution_views()

    def go(self, delta: int) -> None:
        """Step the explanation forward (+1) or back (-1)."""
        if self.step_index is None or not self._views:
            return
        self.session.step(delta, len(self._views))
        self._render()

    # -- what is shown ----------------------------------------------------
    def current_view(self) -> View | None:
        """The explanation step on show, if any."""
        if self.step_index is None or not self._views:
            return None
        return self._views[self.step_index]

    def feedback_text(self) -> str:
        """The feedback on show (``data-role="feedback"``) as plain text: its sentence, then its lines."""
        fb = self.board.view.get("feedback") or {}
        return "\n".join([fb.get("text", ""), *fb.get("items", ())]).strip()

    def question_text(self) -> str:
        """The question on show, with the tie note when a tie can decide (R11)."""
        return str(self.board.view.get("question", ""))

    def step_text(self) -> str:
        """The proof step on show (``data-role="proof-step"``) as plain text; empty while the proof is closed."""
        proof = self.board.view.get("proof")
        if not proof:
            return ""
        return "".join(part["text"] for part in proof["steps"][proof["index"]])

    def hints_text(self) -> list[str]:
        """The hints given so far, in order."""
        return list(self.board.view.get("hints", ()))

    def cards_text(self) -> str:
        """The captions of the loose cards a compare or formation question shows (once solved, the kinds)."""
        return "\n".join(row["caption"] for row in self.board.view.get("rows", ()))

    def _render(self) -> None:
        self.board.show(self.board_view())

    def board_view(self) -> dict[str, Any]:
        """The board's view model now (puzzle mode), from the session's state, named in :attr:`lang`."""
        lang, puzzle, question = self.lang, self.puzzle, self.puzzle.question
        view = self.current_view()
        highlight = view.highlight if view is not None else self._highlight
        ghosts: Ghosts = dict(view.ghosts) if view is not None and view.ghosts else self._ghosts
        solved = self.state == "right"
        out: dict[str, Any] = {"mode": "puzzle", "lang": lang, "board_label": message("boardui.board", lang)}
        if self._board_matters():
            position = puzzle.position
            flags = flag_views(position, lang, highlight=highlight, ghosts=ghosts, focus=self.focus)
            offered = {c.value: c for c in self._choices} if self.answer_style == "flags" else {}
            for f in flags:
                choice = offered.get(f["n"])
                if choice is None or choice.disabled or solved:
                    f["inert"] = True
                if choice is not None:
                    f["answer"] = f["n"] in self._picked
                    f["css"] = f"bl-flag-toggle {choice.css}"
                    f["label"] = f"{f['label']}: {render_msg(choice.label, lang)}"
            out["flags"] = flags
            lit = frozenset(highlight)
            held = []
            for side, cards in ((Side.OPPONENT, position.hand_opponent), (Side.YOU, position.hand_you)):
                if cards:
                    held.append(
                        {
                            "side": side.value,
                            "label": message(f"board.hand.{side.value}", lang),
                            "cards": [card_view(c, lang, highlight=c in lit) for c in cards],
                        }
                    )
            out["held"] = held
        rows = question.card_rows(self._explained() if self.step_index is not None else None, lang) if question else []
        if rows:
            out["rows"] = [
                {"caption": caption, "cards": [card_view(c, lang) for c in cards]} for cards, caption in rows
            ]
            environment = _list((card_label(c, lang) for c in question.environment_cards()), lang) if question else ""
            if environment:
                out["environment"] = message("widget.environment", lang, cards=environment)
        if question is not None:
            text = render_msg(question.prompt(puzzle.position), lang)
            tie_note = first_complete_note(question, puzzle.position, lang)  # a tie can decide: who was first (R11)
            if tie_note:
                text += message("course.question.sep", lang) + tie_note
            out["question"] = text
        else:
            out["question"] = message("widget.question.none", lang)
        answers: list[dict[str, Any]] = []
        if self.answer_style == "flags":
            answers.append(
                {
                    "action": "check",
                    "label": message("widget.answer.check", lang),
                    "primary": True,
                    "enabled": not solved,
                    "css": "bl-check",
                }
            )
        else:
            for choice in self._choices:
                item: dict[str, Any] = {
                    "value": _choice_key(choice.value),
                    "label": render_msg(choice.label, lang),
                    "css": f"bl-answer {choice.css}",
                }
                if choice.disabled or solved:
                    item["enabled"] = False
                if self._last_answer is not None and choice.value == self._last_answer:
                    item["state"] = "right" if solved else "wrong" if self.state == "wrong" else None
                answers.append(item)
        out["answers"] = answers
        out["answers_label"] = message("widget.answers", lang)
        if question is not None:
            done = solved or self.hint_level >= 3
            label = message(f"widget.hint.button.{min(self.hint_level + 1, 3)}", lang)
            out["hint"] = {"label": label, "enabled": not done, "hidden": done}
        out["hints"] = list(self._hints)
        out["feedback"] = self._feedback_view()
        out["proof_label"] = message("widget.step.heading", lang)
        out["proof_waiting"] = message("widget.proof.waiting", lang)
        out["step_back"] = message("widget.step.back", lang)
        out["step_next"] = message("widget.step.next", lang)
        out["step_back_label"] = message("widget.step.back_label", lang)
        out["step_next_label"] = message("widget.step.next_label", lang)
        if view is not None:
            assert self.step_index is not None
            total = len(self._views)
            note = puzzle.note_text(lang)
            out["proof"] = {
                "index": self.step_index,
                "steps": [rule_links(v.text, self.rules_page) for v in self._views],
                "counter": message("widget.step.counter", lang, number=self.step_index + 1, total=total),
                "rule_label": message("widget.rule_link", lang, rule="{rule}"),
                "note": note or "",
            }
        return out

    def _feedback_view(self) -> dict[str, Any]:
        lang, puzzle = self.lang, self.puzzle
        if self.state not in ("right", "wrong"):
            return {"tone": "info", "state": "waiting", "text": message("widget.feedback.waiting", lang)}
        out: dict[str, Any] = {"tone": self.state, "state": self.state, "text": self._feedback_text()}
        if self.state == "right" or self.step_index is not None:  # the headline and the tags: the answer is out
            items = [puzzle.title_after_answer(lang)]
            if puzzle.tags:
                items.append(message("widget.tags", lang, tags=_list((topic_name(t, lang) for t in puzzle.tags), lang)))
            out["items"] = items
        return out

    def picture(self) -> str:
        """The puzzle as an SVG picture (what a saved notebook shows before anything runs)."""
        view = self.current_view()
        highlight = view.highlight if view is not None else self._highlight
        ghosts: Ghosts = dict(view.ghosts) if view is not None and view.ghosts else self._ghosts
        if self._board_matters():
            return board_svg(self.puzzle.position, highlight=highlight, ghosts=ghosts, focus=self.focus, lang=self.lang)
        question = self.puzzle.question
        rows = question.card_rows(None, self.lang) if question is not None else []
        return "".join(cards_svg(cards, caption=caption, lang=self.lang) for cards, caption in rows) or board_svg(
            self.puzzle.position, lang=self.lang
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        """The widget view, plus the board as SVG beside it (a cold open or a static viewer shows that)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if not isinstance(bundle, dict):
            return None
        return {**bundle, "image/svg+xml": self.picture()}

    def __repr__(self) -> str:
        return f"<PuzzleWidget {self.puzzle.id}: {self.state}>"


def _choice_key(value: object) -> str:
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


def rule_links(text: str, page: str = RULES_PAGE) -> list[dict[str, str]]:
    """A proof step as the board draws it: text parts, each rule id a link to its rule on ``page``.

    >>> rule_links("A Wedge, sum 12. [R9]", "rules.md")
    [{'text': 'A Wedge, sum 12. ['}, {'text': 'R9', 'rule': 'R9', 'href': 'rules.md#R9'}, {'text': ']'}]
    """
    parts: list[dict[str, str]] = []
    at = 0
    for found in _RULE_ID.finditer(text):
        if found.start() > at:
            parts.append({"text": text[at : found.start()]})
        rule = found.group(1)
        parts.append({"text": rule, "rule": rule, "href": f"{page}#{rule}"})
        at = found.end()
    if at < len(text) or not parts:
        parts.append({"text": text[at:]})
    return parts
