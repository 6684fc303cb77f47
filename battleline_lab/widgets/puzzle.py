"""The puzzle widget: one puzzle on the board component, a view over a puzzle controller.

:class:`PuzzleWidget` draws a :class:`~battleline_lab.controllers.puzzle.PuzzleController` (the
puzzle's question, hints, answers and proof step by step, all its state) on the board component;
every tap comes back as an intent the controller decides.  The widget holds no state of its own.

>>> from battleline_lab import Position
>>> from battleline_lab.quiz.puzzle import Puzzle
>>> from battleline_lab.quiz.questions import ClaimQuestion
>>> w = PuzzleWidget(Puzzle("wedge", {"en": "Flag 5"}, position=Position.build(
...     {5: {"you": "r3 r4 r5", "opponent": "b8"}}), question=ClaimQuestion(5), answer=False), record=False)
>>> w
<PuzzleWidget wedge: waiting>
>>> w.taps.action("answer", "yes")  # wrong: where to look, nothing drawn that would give the answer
>>> w.state, [g["id"] for f in w.board.view["flags"] for g in f["ghosts"]]
('wrong', [])
>>> w.taps.action("solution")  # "Show the solution": the counterexample, drawn as ghosts
>>> [g["id"] for f in w.board.view["flags"] for g in f["ghosts"]]
['b9', 'b10']
>>> w.taps.action("answer", "no")  # right, late: the proof was shown, so no card is asked for it
>>> w.state, w.step_index
('right', 0)

Answered right at once, a claim asks for its proof: a card the opponent could still get (R12).

>>> w = PuzzleWidget(Puzzle("wedge", {"en": "Flag 5"}, position=Position.build(
...     {5: {"you": "r3 r4 r5", "opponent": "b8"}}), question=ClaimQuestion(5), answer=False), record=False)
>>> w.taps.action("answer", "no")
>>> w.state
'evidence'
>>> w.taps.evidence("b9")
>>> w.state, w.step_index
('right', 0)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as W

from ..controllers.puzzle import Ghosts, PuzzleController, rule_links, rules_page_link
from ..controllers.puzzle_play import held_targets, play_targets
from ..controllers.responses import pack_table, response_table, state_identity
from ..controllers.view import PuzzleView
from ..controllers.view import join_list as _list
from ..quiz.puzzle import Puzzle
from ..quiz.questions import View
from ..render.svg import board_svg, cards_svg
from ..text.messages import DEFAULT_LANGUAGE, Theme, message, themed, topic_name
from ..training.progress import Progress
from ..training.trainer import PuzzleSession
from ._common import (
    FOCUS_STYLE,
    Forwarded,
    PictureBox,
    _classed,
    _esc,
    default_progress,
    language_toggle,
    set_visible,
    switch_lang,
)
from .board import Board, Taps
from .intents import puzzle_intents

__all__ = ["TABLES_ENV", "Ghosts", "PuzzleWidget", "rule_links", "rules_page_link"]

#: set (to anything) in the environment of a lesson's run, a displayed puzzle widget carries its response
#: table in its saved state (building one takes from a tenth of a second to a minute: not for a live lesson,
#: where the kernel answers)
TABLES_ENV = "BATTLELINE_LAB_TABLES"


class PuzzleWidget(PictureBox):
    """One puzzle on the board component: title, board, question, answers, proof step by step, feedback, hints.

    ``puzzle`` is a :class:`~battleline_lab.quiz.puzzle.Puzzle`, a library puzzle id or the path of a
    puzzle file.  The widget draws a :class:`~battleline_lab.controllers.puzzle.PuzzleController`
    (:attr:`controller`), which holds every bit of the puzzle's state; its
    :class:`~battleline_lab.training.trainer.PuzzleSession` (``session``) judges answers, counts
    hints and records every attempt in the learner's progress (``progress``; by default the user
    data folder, opened at the first answer; ``record=False`` records nothing).
    ``on_answer(puzzle_id, correct)`` and ``on_hint(puzzle_id)`` are called after each answer and
    hint.  Feedback states: ``waiting``, ``right``, ``wrong``.  The ``bl-lang`` toggle
    (``lang_toggle``; hidden with ``show_lang=False``, as in the gym) switches every label,
    feedback, hint and proof step live: :meth:`set_lang`.

    Everything but the title and the language toggle is drawn by :attr:`board`, a
    :class:`~battleline_lab.widgets.board.Board` in puzzle mode: it shows the controller's view
    (:meth:`board_view`) and forwards every intent it sends back (``answer``, ``do: check``,
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
        controller: PuzzleController | None = None,
        table: bool | None = None,
    ) -> None:
        if controller is None:
            if not isinstance(puzzle, Puzzle):
                from ..quiz.library import resolve
                from ..quiz.loader import load_puzzle

                puzzle = load_puzzle(resolve(puzzle))
            if session is None:
                store: Progress | Callable[[], Progress] | None = None
                if record:
                    store = progress if progress is not None else default_progress
                session = PuzzleSession(puzzle, progress=store, source="lesson")
            # the theme (classic, chuhan) names the Leaders; it rides on the language
            controller = PuzzleController(
                puzzle,
                lang=themed(lang, theme),
                session=session,
                on_answer=on_answer,
                on_hint=on_hint,
                rules_page=rules_page_link(),
            )
        #: the puzzle's state and what may be done to it (everything this widget draws)
        self.controller = controller
        self.lang_toggle = language_toggle(controller.lang, self.set_lang)
        set_visible(self.lang_toggle, show_lang)
        self.title = _classed(W.HTML(), "bl-title")
        #: the board component the puzzle is drawn on (its view model: :meth:`board_view`)
        self.board = Board(
            on_intent=self._on_intent,
            schema=puzzle_intents(
                controller.answer_keys,
                lambda: controller.answer_style == "flags",
                controller.evidence_keys,
                lambda: play_targets(controller),
                lambda: held_targets(controller),
            ),
            on_refused=self._render,
            on_replay=self._on_replay,
        )
        self.board.add_class("bl-puzzle-board")
        #: whether a display builds the response table (None: when ``BATTLELINE_LAB_TABLES`` is set, as the
        #: lessons' runs and the site's set it)
        self.wants_table = table
        #: the response table's state of each state identity (filled by :meth:`attach_table`)
        self._table_index: dict[str, int] = {}
        #: taps on the board from Python, decided as the browser decides them
        self.taps = Taps(self.board)
        children = [_classed(W.HTML(FOCUS_STYLE), "bl-style"), self.lang_toggle, self.title, self.board]
        super().__init__(children)
        self.add_class("bl-puzzle")
        self._label()

    # the state lives in the controller; the widget only shows it
    puzzle = Forwarded[Puzzle]("The puzzle on show.")
    session = Forwarded[PuzzleSession]("The session that judges and records.")
    lang = Forwarded[str]("The language shown.", set_with="set_lang")
    on_answer = Forwarded[Callable[[str, bool], None] | None](
        "Called with (puzzle id, right) per answer.", settable=True
    )
    on_hint = Forwarded[Callable[[str], None] | None]("Called with the puzzle id per hint taken.", settable=True)
    rules_page = Forwarded[str]("Where the rule links of a proof point.")
    focus = Forwarded[tuple[int, ...]]("The flags the question is about.")
    state = Forwarded[str]("``waiting``, ``right`` or ``wrong`` (the session's).")
    attempts = Forwarded[int]("Answers given to this puzzle here.")
    hint_level = Forwarded[int]("Hints taken (0-3; the third shows the solution).")
    step_index = Forwarded[int | None]("The proof step on show (None while the proof is closed).")
    answer_style = Forwarded[str](
        "``buttons`` (one answer button per choice) or ``flags`` (tap the flags, then Check)."
    )

    def set_lang(self, lang: str) -> None:
        """Switch every text to ``lang`` (also what the ``bl-lang`` toggle does); the state is kept."""
        if switch_lang(self, lang):
            if self._table_index:  # the table's views are in the old language: made again
                self.attach_table()
            self._label()

    # -- the response table (the board answers from it without a kernel) ----------------------------
    def attach_table(self) -> None:
        """Work out the response table from the puzzle's state now and give it to the board
        (:mod:`battleline_lab.controllers.responses`): every view a tap may lead to, so the board answers
        before the kernel runs (a saved lesson).  Nothing is recorded while it is built."""
        index: dict[str, int] = {}
        table = response_table(self.controller, index=index)
        self._table_index = index
        self.board.table = pack_table(table)
        self._render()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, object] | None:
        wanted = self.wants_table if self.wants_table is not None else bool(os.environ.get(TABLES_ENV))
        if wanted and not self._table_index:
            try:
                self.attach_table()
            except ValueError:  # too many states to work out: this puzzle answers with the kernel only
                self.wants_table = False
        return super()._repr_mimebundle_(**kwargs)

    def _on_replay(self, batch: str, intents: list[object]) -> None:
        """Taps the board answered from its table before the kernel ran: judged and recorded now, once."""
        self.controller.replay(batch, intents, self.board.intent)

    def _label(self) -> None:
        """The title in :attr:`lang`, then the board."""
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
        self._render()

    def _on_intent(self, name: str, value: Any) -> None:
        """An intent from the board (a tap or a key in the browser, or :attr:`taps`), checked by its schema
        (:func:`~battleline_lab.widgets.intents.puzzle_intents`): the controller decides, the board redraws."""
        self.controller.intent(name, value)
        self._render()

    # -- actions (the controller's, then a redraw) ----------------------------
    def selected_flags(self) -> list[int]:
        """The flags picked (claimable questions), in order."""
        return self.controller.selected_flags()

    def answer(self, value: object) -> bool:
        """Give an answer (as a tap does); returns whether it was right."""
        correct = self.controller.answer(value)
        self._render()
        return correct

    def evidence(self, card: str) -> bool:
        """Tap a card as a claim's evidence (after a right yes/no, as a tap does); returns whether it was right."""
        correct = self.controller.evidence(card)
        self._render()
        return correct

    def hint(self) -> None:
        """Show the next hint: vague, then the key cards, then the full solution."""
        self.controller.hint()
        self._render()

    def go(self, delta: int) -> None:
        """Step the explanation forward (+1) or back (-1)."""
        self.controller.step(delta)
        self._render()

    # -- what is shown ----------------------------------------------------
    def current_view(self) -> View | None:
        """The explanation step on show, if any."""
        return self.controller.current_view()

    def feedback_text(self) -> str:
        """The feedback on show (``data-role="feedback"``) as plain text: its sentence, then its lines."""
        fb = self.board_view()["feedback"]
        return "\n".join([fb.get("text", ""), *fb.get("items", ())]).strip()

    def question_text(self) -> str:
        """The question on show, with the tie note when a tie can decide (R11)."""
        return self.board_view()["question"]

    def step_text(self) -> str:
        """The proof step on show (``data-role="proof-step"``) as plain text; empty while the proof is closed."""
        proof = self.board_view().get("proof")
        if not proof:
            return ""
        return "".join(part["text"] for part in proof["steps"][proof["index"]])

    def hints_text(self) -> list[str]:
        """The hints given so far, in order."""
        return self.board_view()["hints"]

    def cards_text(self) -> str:
        """The captions of the loose cards a compare or formation question shows (once solved, the kinds)."""
        return "\n".join(row["caption"] for row in self.board_view().get("rows", ()))

    def _render(self) -> None:
        if self._table_index:
            self.board.table_state = self._table_index.get(state_identity(self.controller), -1)
        self.board.show(self.board_view())

    def board_view(self) -> PuzzleView:
        """The board's view model now (puzzle mode): the controller's, named in :attr:`lang`."""
        return self.controller.view()

    def picture(self) -> str:
        """The puzzle as an SVG picture (what a saved notebook shows before anything runs)."""
        highlight, ghosts = self.controller.shown()
        if self.controller.board_matters():
            focus = self.focus
            return board_svg(self.puzzle.position, highlight=highlight, ghosts=ghosts, focus=focus, lang=self.lang)
        question = self.puzzle.question
        rows = question.card_rows(None, self.lang) if question is not None else []
        return "".join(cards_svg(cards, caption=caption, lang=self.lang) for cards, caption in rows) or board_svg(
            self.puzzle.position, lang=self.lang
        )

    def __repr__(self) -> str:
        return f"<PuzzleWidget {self.puzzle.id}: {self.state}>"
