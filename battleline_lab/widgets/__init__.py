"""Jupyter widgets for the lessons: a puzzle, a puzzle gym and a formation explorer.

Built on ipywidgets (see ``docs/widgets.md`` for why): no JavaScript of our
own, and every control can be driven from Python, so tests set values and call
``.click()``.  The widgets hold *no rule logic*: they ask the engine (a
:class:`~battleline_lab.quiz.puzzle.Puzzle`, its question, the claim analysis) and
re-render the board with :mod:`battleline_lab.render.svg`.  Every string comes from
the message catalogue (``locale/<lang>/widgets.json``); everything an author
wrote is escaped.  Stable CSS classes (``bl-...``) let browser tests find the
controls.

>>> from battleline_lab import Position
>>> from battleline_lab.quiz.puzzle import Puzzle
>>> from battleline_lab.quiz.questions import ClaimQuestion
>>> w = PuzzleWidget(Puzzle("wedge", {"en": "Flag 5"}, position=Position.build(
...     {5: {"you": "r3 r4 r5", "opponent": "b8"}}), question=ClaimQuestion(5), answer=False), record=False)
>>> w
<PuzzleWidget wedge: waiting>
>>> w.yes_button.click()
>>> w.state, w.board.value.count("bl-ghost")
('wrong', 2)
>>> w.no_button.click()
>>> w.state, w.step_index
('right', 0)
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import ipywidgets as W

from ..core.cards import ALL_TACTICS, ALL_TROOPS, Card, Tactic, Troop, format_cards, parse_card
from ..core.position import FLAGS, Position, Side
from ..quiz.puzzle import Puzzle
from ..quiz.questions import CompareQuestion, Comparison, QuestionError, View
from ..render.svg import BOARD_MAX_WIDTH, board_svg, cards_svg, flag_grid_columns, formation_caption, rating_chart_svg
from ..text.messages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    card_label,
    card_short,
    comparison_why,
    first_complete_note,
    message,
    render_msg,
    rule_text,
    topic_name,
)
from ..training.hints import hint_ladder, solution_summary
from ..training.progress import Progress, PuzzleRecord, browser_storage, data_dir, export_filename, import_export
from ..training.trainer import LESSONS, PuzzleSession, Summary, Trainer
from .board import StepKeys

__all__ = [
    "LANGUAGE_NAMES",
    "FormationExplorer",
    "PuzzleGym",
    "PuzzleSet",
    "PuzzleWidget",
    "View",
    "board_view",
    "flag_grid",
    "language_toggle",
    "load_puzzles",
    "set_visible",
    "switch_lang",
]

Ghosts = Mapping[tuple[int, Side], Sequence[Card]]


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _t(key: str, lang: str, **params: object) -> str:
    return message(key, lang, **params)


def _cards(cards: Iterable[Card], lang: str) -> str:
    """Cards inside a widget text: ``b7 b9`` / ``蓝7、蓝9``."""
    return _t("widget.card_sep", lang).join(card_short(c, lang) for c in cards)


def _list(items: Iterable[object], lang: str) -> str:
    """A list inside a widget text: ``2, 5`` / ``2、5``."""
    return _t("widget.list_sep", lang).join(str(item) for item in items)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def set_visible(widget: W.Widget, visible: bool) -> None:
    """Show or hide a widget (it keeps its place in the tree).

    Shown is ``display: ""`` (the element's own display), never ``None``: JupyterLite's front end
    keeps a widget whose display went from ``"none"`` to ``None`` hidden (docs/site.md).
    """
    widget.layout.display = "" if visible else "none"


_Widget = TypeVar("_Widget", bound=W.Widget)

#: Visible keyboard focus on every control of the package's widgets (a ``<style>`` inside an
#: HTML widget applies to the page; scoped to ``.bl-*`` roots so JupyterLab is untouched).
FOCUS_STYLE = (
    "<style>"
    ".bl-puzzle :focus-visible,.bl-gym :focus-visible,.bl-explorer :focus-visible,.bl-game :focus-visible"
    "{outline:3px solid #1a56db !important;outline-offset:2px}"
    ".bl-flag-grid .widget-button,.bl-flag-grid .widget-toggle-button{width:auto;min-width:0;margin:0 2px;"
    "padding:0 2px;overflow:hidden;text-overflow:ellipsis}"
    "</style>"
)


def board_view(css: str = "bl-board-view") -> W.HTML:
    """The HTML widget a board is drawn in: as wide as the cell, at most ``svg.BOARD_MAX_WIDTH``."""
    return W.HTML(layout=W.Layout(width="auto", align_self="stretch", max_width=f"{BOARD_MAX_WIDTH}px")).add_class(css)


def flag_grid(buttons: Sequence[W.Widget], css: str) -> W.GridBox:
    """Nine controls, one under each flag column of a :func:`board_view` (the board's own geometry).

    >>> grid = flag_grid([W.Button(description=str(n)) for n in range(1, 10)], "bl-flag-row")
    >>> len(grid.children), grid.layout.grid_template_columns == flag_grid_columns()
    (11, True)
    """
    if len(buttons) != len(FLAGS):
        raise ValueError(f"a flag grid needs {len(FLAGS)} controls, not {len(buttons)}")
    for button in buttons:
        button.layout.width = "auto"
    cells = [W.Box(), *buttons, W.Box()]  # the board's left and right margins
    grid = W.GridBox(
        cells,
        layout=W.Layout(
            width="auto",
            align_self="stretch",
            max_width=f"{BOARD_MAX_WIDTH}px",
            grid_template_columns=flag_grid_columns(),
        ),
    )
    return _classed(grid, "bl-flag-grid", css)


def _classed(widget: _Widget, *classes: str) -> _Widget:
    """``widget`` with the CSS classes (``bl-...``) that browser tests find it by."""
    for css in classes:
        widget.add_class(css)
    return widget


def _button(css: str, on_click: Callable[[], object], **options: Any) -> W.Button:
    """A button with a ``bl-...`` class that calls ``on_click()`` when clicked."""
    button = _classed(W.Button(**options), css)
    button.on_click(lambda _b: on_click())
    return button


class _Multilingual(Protocol):
    lang: str
    lang_toggle: W.ToggleButtons


def switch_lang(widget: _Multilingual, lang: str) -> bool:
    """Set ``widget.lang``; False if the ``bl-lang`` toggle had to move (it calls ``set_lang`` again), else True.

    The ``set_lang`` of a widget with a :func:`language_toggle` starts with
    ``if not switch_lang(self, lang): return`` and then re-labels everything.

    >>> class Widget:
    ...     lang, lang_toggle = "en", language_toggle("en", print)
    >>> w = Widget()
    >>> switch_lang(w, "zh")
    zh
    False
    >>> w.lang, switch_lang(w, "zh")
    ('zh', True)
    >>> switch_lang(w, "fr")
    Traceback (most recent call last):
    ...
    ValueError: unknown language 'fr'; available: en, zh
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; available: {', '.join(LANGUAGES)}")
    widget.lang = lang
    if widget.lang_toggle.value != lang:
        widget.lang_toggle.value = lang  # calls back set_lang once more, with nothing left to change
        return False
    return True


def _note_html(puzzle: Puzzle, lang: str) -> str:
    """The author's note under the proof, escaped, in italics (empty without a note)."""
    note = puzzle.note_text(lang)
    return f"<i>{_esc(note)}</i>" if note else ""


def _environment_html(environment: Iterable[Card], lang: str) -> str:
    """The environment cards (Fog, Mud) of a compare/formation question, escaped (empty without any)."""
    env = _list((card_label(c, lang) for c in environment), lang)
    return f"<div>{_esc(_t('widget.environment', lang, cards=env))}</div>" if env else ""


#: What the language toggle (``bl-lang``) offers: each language in its own words.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "zh": "中文"}


def language_toggle(lang: str, on_change: Callable[[str], None]) -> W.ToggleButtons:
    """A ``bl-lang`` toggle (English / 中文); ``on_change(lang)`` re-labels the widget it sits in."""
    toggle = W.ToggleButtons(
        options=[(LANGUAGE_NAMES.get(code, code), code) for code in LANGUAGES],
        value=lang,
        style={"button_width": "72px"},
        tooltips=[],
    )
    toggle.add_class("bl-lang")
    toggle.observe(lambda change: on_change(change["new"]), names="value")
    return toggle


def _sides(side: Side, lang: str) -> dict[str, str]:
    """Placeholders naming the asking side and the other one: me/Me, my/My, them/Them."""
    me, them = _t(f"side.{side.value}", lang), _t(f"side.{side.other.value}", lang)
    my = _t(f"side.{side.value}.possessive", lang)
    return {"me": me, "Me": _cap(me), "my": my, "My": _cap(my), "them": them, "Them": _cap(them)}


_DEFAULT_PROGRESS: dict[str, Progress] = {}


def default_progress() -> Progress:
    """The learner's progress in the user data folder, opened once per kernel (and per folder)."""
    key = str(data_dir())
    if key not in _DEFAULT_PROGRESS:
        _DEFAULT_PROGRESS[key] = Progress()
    return _DEFAULT_PROGRESS[key]


class PuzzleWidget(W.VBox):  # type: ignore[misc]
    """One puzzle: title, board, question, answer controls, feedback, hints and the proof step by step.

    ``puzzle`` is a :class:`~battleline_lab.quiz.puzzle.Puzzle`, a library puzzle id or the path of a
    puzzle file.  The widget is a view over a :class:`~battleline_lab.training.trainer.PuzzleSession`
    (``session``), which judges answers, counts hints and records every attempt in the
    learner's progress (``progress``; by default the user data folder, opened at the first
    answer; ``record=False`` records nothing).  ``on_answer(puzzle_id, correct)`` and
    ``on_hint(puzzle_id)`` are called after each answer and hint.
    Feedback states: ``waiting``, ``right``, ``wrong``.  The ``bl-lang``
    toggle (``lang_toggle``; hidden with ``show_lang=False``, as in the gym)
    switches every label, feedback, hint and proof step live: :meth:`set_lang`.
    """

    def __init__(
        self,
        puzzle: Puzzle | str | Path,
        *,
        lang: str = DEFAULT_LANGUAGE,
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
        self.lang = lang
        self.on_answer = on_answer
        self.on_hint = on_hint
        if session is None:
            store: Progress | Callable[[], Progress] | None = None
            if record:
                store = progress if progress is not None else default_progress
            session = PuzzleSession(puzzle, progress=store, source="lesson")
        self.session = session
        self._shown_state = "waiting"
        self._highlight: tuple[Card, ...] = ()
        self._ghosts: Ghosts = {}
        self._hints: list[str] = []
        self._views: list[View] = []
        self._last_answer: object = None
        question = puzzle.question
        position = puzzle.position

        self.lang_toggle = language_toggle(lang, self.set_lang)
        set_visible(self.lang_toggle, show_lang)
        self.title = _classed(W.HTML(), "bl-title")
        self.board = board_view()
        self.question_html = _classed(W.HTML(), "bl-question")
        self.feedback = _classed(W.HTML(), "bl-feedback")
        self.hint_button = _button("bl-hint", lambda: self.hint())
        self.hints_html = _classed(W.HTML(), "bl-hints")
        self.back_button = _button("bl-back", lambda: self.go(-1), icon="arrow-left")
        self.next_button = _button("bl-next", lambda: self.go(1), icon="arrow-right")
        self.step_counter = _classed(W.HTML(), "bl-step-counter")
        # the keyboard way through the proof: a focused slider moves with the arrow keys (and
        # Home/End); it mirrors Back/Next, as j/k do (step_keys: a component, no script in HTML)
        self.step_slider = _classed(
            W.IntSlider(value=1, min=1, max=1, readout=False, layout=W.Layout(width="180px")), "bl-step-slider"
        )
        self.step_slider.observe(self._slid, names="value")
        self.step_html = _classed(W.HTML(), "bl-step-text")
        self.note_html = _classed(W.HTML(), "bl-note")
        self.step_heading = W.HTML()
        self.explanation = W.VBox(
            [
                self.step_heading,
                W.HBox([self.back_button, self.step_counter, self.next_button, self.step_slider]),
                self.step_html,
                self.note_html,
            ]
        )
        _classed(self.explanation, "bl-explanation")
        set_visible(self.explanation, False)

        self.yes_button = self.no_button = None
        self.flag_toggles: dict[int, W.ToggleButton] = {}
        self.answer_buttons: dict[str, W.Button] = {}
        self.check_button: W.Button | None = None
        self.cards_html = _classed(W.HTML(), "bl-question-cards")
        answers: list[W.Widget] = []
        self.focus: tuple[int, ...] = question.focus(position) if question is not None else ()
        self._choices = question.choices(position) if question is not None else ()
        if question is not None and question.answer_style == "flags":
            for choice in self._choices:
                assert isinstance(choice.value, int)
                toggle = _classed(W.ToggleButton(description=str(choice.value)), "bl-flag-toggle", choice.css)
                toggle.disabled = choice.disabled
                self.flag_toggles[choice.value] = toggle
            self.check_button = _button("bl-check", lambda: self.answer(self.selected_flags()), button_style="primary")
            # the toggles sit under their flags' columns when the board is shown (flag_grid)
            answers = [self.check_button]
        else:
            for choice in self._choices:
                button = self._answer_button(choice.css, choice.value)
                if choice.value is True:
                    self.yes_button = button
                elif choice.value is False:
                    self.no_button = button
                else:
                    self.answer_buttons[str(choice.value)] = button
                answers.append(button)
        self.answers = _classed(W.HBox(answers, layout=W.Layout(flex_flow="row wrap")), "bl-answers")
        hint_row = W.VBox([self.hint_button, self.hints_html])
        set_visible(hint_row, question is not None)
        # calm layout: nothing above the feedback moves when the puzzle is answered; the proof
        # stepper opens in its fixed place below the hints (the board stays where it was)
        self.step_keys = StepKeys(on_step=self.go)
        children = [_classed(W.HTML(FOCUS_STYLE), "bl-style"), self.step_keys, self.lang_toggle, self.title]
        if self._board_matters():
            children.append(self.board)
        if self.flag_toggles:
            toggles = list(self.flag_toggles.values())
            children.append(flag_grid(toggles, "bl-flag-toggles") if self._board_matters() else W.HBox(toggles))
        children += [self.cards_html, self.question_html, self.answers, self.feedback, hint_row, self.explanation]
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

    def set_lang(self, lang: str) -> None:
        """Switch every text to ``lang`` (also what the ``bl-lang`` toggle does); the state is kept."""
        if switch_lang(self, lang):
            self._label()

    def _label(self) -> None:
        """Every text of the widget in ``self.lang``, from its state (answers, hints, step)."""
        lang, puzzle, question = self.lang, self.puzzle, self.puzzle.question
        meta = []
        if puzzle.level is not None:
            meta.append(_esc(_t("widget.level", lang, level=puzzle.level)))
        # topics before the answer; tags and the headline only once it is solved or revealed (they may give it away)
        answered = self.state == "right" or self.step_index is not None
        if puzzle.topics:
            meta.append(
                _esc(_t("widget.topics", lang, topics=_list((topic_name(t, lang) for t in puzzle.topics), lang)))
            )
        if puzzle.tags and answered:
            meta.append(_esc(_t("widget.tags", lang, tags=_list((topic_name(t, lang) for t in puzzle.tags), lang))))
        meta_html = f'<div class="bl-meta">{" · ".join(meta)}</div>' if meta else ""
        title = puzzle.title_after_answer(lang) if answered else puzzle.title_before_answer(lang)
        self.title.value = f'<h3 class="bl-title-text">{_esc(title)}</h3>{meta_html}'
        self.hint_button.description = _t(f"widget.hint.button.{min(self.hint_level + 1, 3)}", lang)
        self.back_button.description = _t("widget.step.back", lang)
        self.next_button.description = _t("widget.step.next", lang)
        self.step_heading.value = f"<b>{_esc(_t('widget.step.heading', lang))}</b>"
        if question is not None:
            self.question_html.value = _esc(render_msg(question.prompt(puzzle.position), lang))
            if self.check_button is not None:
                self.check_button.description = _t("widget.answer.check", lang)
            for choice in self._choices:  # each control says its choice's label
                control: W.Widget | None
                if choice.value is True or choice.value is False:
                    control = self.yes_button if choice.value else self.no_button
                elif isinstance(choice.value, int) and choice.value in self.flag_toggles:
                    control = self.flag_toggles[choice.value]
                else:
                    control = self.answer_buttons.get(str(choice.value))
                if control is not None:
                    control.description = render_msg(choice.label, lang)
        else:
            self.question_html.value = _esc(_t("widget.question.none", lang))
        tie_note = first_complete_note(question, puzzle.position, lang)  # a tie can decide: who was first (R11)
        if tie_note:
            sep = _t("course.question.sep", lang)
            self.question_html.value += f'{sep}<span class="bl-first-note">{_esc(tie_note)}</span>'
        if self.state in ("right", "wrong"):
            self._set_feedback(self.state, self._feedback_text())
        else:
            self._set_feedback("waiting", _t("widget.feedback.waiting", lang))
        if self.hint_level:
            self._hints = [view.text for view in self._hint_views()[: self.hint_level]]
        if self.step_index is not None:
            self._views = self._solution_views()
            self.note_html.value = _note_html(puzzle, lang)
        self._render()

    # -- construction helpers ------------------------------------------
    def _answer_button(self, css: str, value: object) -> W.Button:
        button = _classed(W.Button(layout=W.Layout(width="auto")), "bl-answer", css)
        button.on_click(lambda _b: self.answer(value))
        return button

    def _board_matters(self) -> bool:
        position = self.puzzle.position
        empty = all(s.is_empty for s in position.flags) and not (
            position.discards_you or position.discards_opponent or position.hand_you or position.hand_opponent
        )
        question = self.puzzle.question
        return not (empty and question is not None and question.board_optional)

    # -- engine data (computed once, lazily) ----------------------------
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

    # -- actions ---------------------------------------------------------
    def selected_flags(self) -> list[int]:
        """The flags toggled on (claimable questions)."""
        return [n for n, t in self.flag_toggles.items() if t.value]

    def answer(self, value: object) -> bool:
        """Give an answer (as the buttons do); returns whether it was right."""
        if self.state == "right":
            return True
        feedback = self.session.answer(value)
        correct = feedback.verdict == "right"
        self._last_answer = value
        self._ghosts = dict(feedback.ghosts)
        self._set_feedback(feedback.verdict, self._feedback_text())
        if correct:
            self._reveal()
            for button in self._answer_widgets():
                button.disabled = True
        if self.on_answer is not None:
            self.on_answer(self.puzzle.id, correct)
        self._render()
        return correct

    def _answer_widgets(self) -> list[W.Widget]:
        out: list[W.Widget] = [b for b in (self.yes_button, self.no_button) if b is not None]
        out += list(self.answer_buttons.values()) + list(self.flag_toggles.values())
        if self.check_button is not None:
            out.append(self.check_button)
        return out

    def _feedback_text(self) -> str:
        """The session's :class:`~battleline_lab.quiz.questions.Feedback` on the last answer, rendered by the catalogue.

        The question judged the answer (:meth:`~battleline_lab.quiz.questions.Question.judge`): a wrong
        answer's key and parameters are all the widget shows; a right one adds the solution summary.
        """
        feedback = self.session.feedback
        if feedback is None:
            return _t("widget.feedback.waiting", self.lang)
        if feedback.verdict == "right":
            return _t(feedback.key, self.lang, text=self._solution_summary())
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
            self.hint_button.disabled = True
            self._reveal()
        else:
            self.hint_button.description = _t(f"widget.hint.button.{self.hint_level + 1}", self.lang)
        if self.on_hint is not None:
            self.on_hint(self.puzzle.id)
        self._render()

    def _reveal(self) -> None:
        """Open the step-by-step explanation at its first step (the session knows it is open)."""
        self.session.reveal(record=False)
        if not self._views:
            self._views = self._solution_views()
            self.note_html.value = _note_html(self.puzzle, self.lang)
            set_visible(self.explanation, True)
            self._label()  # the headline and the tags may show now

    def go(self, delta: int) -> None:
        """Step the explanation forward (+1) or back (-1)."""
        if self.step_index is None or not self._views:
            return
        self.session.step(delta, len(self._views))
        self._render()

    def _slid(self, change: Mapping[str, Any]) -> None:
        """The step slider moved (arrow keys or the mouse): show that step."""
        if self.step_index is None or not self._views:
            return
        delta = int(change["new"]) - 1 - self.step_index
        if delta:
            self.go(delta)

    # -- rendering -------------------------------------------------------
    def _set_feedback(self, state: str, text: str) -> None:
        self.feedback.remove_class(f"bl-state-{self._shown_state}")
        self._shown_state = state
        self.feedback.add_class(f"bl-state-{state}")
        colour = {"waiting": "#607d8b", "right": "#2e7d32", "wrong": "#c62828"}[state]
        icon = {"waiting": "\u2026", "right": "\u2714", "wrong": "\u2718"}[state]
        self.feedback.value = (
            f'<div class="bl-feedback-text bl-feedback-{state}" role="status" aria-live="polite" '
            f'style="border-left:5px solid {colour};'
            f'padding:4px 8px;margin:4px 0"><b style="color:{colour}">{icon}</b> {_esc(text)}</div>'
        )

    def current_view(self) -> View | None:
        """The explanation step on show, if any."""
        if self.step_index is None or not self._views:
            return None
        return self._views[self.step_index]

    def _render(self) -> None:
        lang = self.lang
        view = self.current_view()
        highlight = view.highlight if view is not None else self._highlight
        ghosts: Ghosts = dict(view.ghosts) if view is not None and view.ghosts else self._ghosts
        if view is not None:
            total = len(self._views)
            assert self.step_index is not None
            self.step_counter.value = _esc(_t("widget.step.counter", lang, number=self.step_index + 1, total=total))
            self.step_html.value = f'<div class="bl-step-line" aria-live="polite">{_esc(view.text)}</div>'
            self.back_button.disabled = self.step_index == 0
            self.next_button.disabled = self.step_index >= total - 1
            self.step_slider.max = max(total, 1)
            self.step_slider.value = self.step_index + 1
            self.step_slider.description = _t("a11y.step_slider", lang)
        self.step_keys.active = view is not None
        # controls that no longer apply disappear, keeping their place (nothing below moves)
        done = self.state == "right" or self.hint_level >= 3
        self.hint_button.layout.visibility = "hidden" if done else "visible"
        self.hints_html.value = "".join(f'<div class="bl-hint-text">{_esc(h)}</div>' for h in self._hints)
        if self._board_matters():
            self.board.value = board_svg(
                self.puzzle.position, highlight=highlight, ghosts=ghosts, focus=self.focus, lang=lang
            )
        self.cards_html.value = self._question_cards()

    def _question_cards(self) -> str:
        """The formations a compare/formation question asks about (captions once solved)."""
        lang, question = self.lang, self.puzzle.question
        if question is None:
            return ""
        explained = self._explained() if self.step_index is not None else None
        rows = question.card_rows(explained, lang)
        if not rows:
            return ""
        parts = [cards_svg(cards, caption=caption, lang=lang) for cards, caption in rows]
        return "".join(parts) + _environment_html(question.environment_cards(), lang)

    def __repr__(self) -> str:
        return f"<PuzzleWidget {self.puzzle.id}: {self.state}>"


def _comparison_text(data: Comparison, lang: str) -> str:
    """Why the winner of a comparison wins (:func:`battleline_lab.text.messages.comparison_why`)."""
    return comparison_why(data, lang)


# -- the gym ---------------------------------------------------------------


def load_puzzles(source: str | Path | Iterable[Puzzle], errors: list[str] | None = None) -> list[Puzzle]:
    """Puzzles from a folder (every puzzle file in it, recursively) or an iterable, by level then id.

    A file that does not load is skipped; its ``FILE:LINE:COL: error: ...``
    lines are appended to ``errors`` if given (else each is a ``UserWarning``).
    """
    if isinstance(source, (str, Path)):
        from ..quiz.library import resolve
        from ..quiz.loader import PuzzleFileError, load_folder

        def skipped(_path: Path, err: PuzzleFileError) -> None:
            if errors is None:
                import warnings

                for line in err.diagnostics:
                    warnings.warn(str(line), UserWarning, stacklevel=5)
            else:
                errors.extend(str(d) for d in err.diagnostics)

        puzzles = [puzzle for _path, puzzle in load_folder([resolve(source)], on_error=skipped)]
    else:
        puzzles = list(source)
    return sorted(puzzles, key=lambda p: (p.level if p.level is not None else 0, p.id))


class PuzzleSet(W.VBox):  # type: ignore[misc]
    """A puzzle gym: a folder of puzzles, filters by tag and level, next/previous, and an adaptive trainer.

    A view over a :class:`~battleline_lab.training.trainer.Trainer`: every answer, hint
    and revealed solution is recorded in :class:`~battleline_lab.training.progress.Progress`
    (by default the user's data folder, shared with the lessons' puzzle widgets),
    so it survives restarts.  The gym shows the learner's rating, first-try
    rate, streak, the themes and rules to practise and a rating chart; "A puzzle
    for me" asks the trainer for the next puzzle, "Streak" starts streak mode,
    "Reset my progress" asks before starting over.  It reopens where the learner
    left off.  ``lessons``: the lessons taught so far (puzzles needing a later
    one are not suggested); ``learner``: whose progress (several learners can share a data folder).
    Puzzles saved from the learner's own games ("Review this game") come first in
    "A puzzle for me", marked "from your games" (``bl-gym-from-games``), until solved cleanly.
    """

    def __init__(
        self,
        source: str | Path | Iterable[Puzzle],
        *,
        lang: str = DEFAULT_LANGUAGE,
        progress: Progress | None = None,
        lessons: int = max(LESSONS),
        learner: str | None = None,
    ) -> None:
        self.lang = lang
        self.source = source if isinstance(source, (str, Path)) else None
        self.errors: list[str] = []
        self.puzzles = load_puzzles(source, self.errors)
        if progress is None:
            progress = default_progress() if learner is None else Progress(learner=learner)
        self.progress = progress
        self.trainer = Trainer(self.puzzles, progress=self.progress, lessons=lessons, lang=lang)
        self._tags = sorted({t for p in self.puzzles for t in p.topics})  # topics only: tags may give answers away
        self._levels = sorted({p.level for p in self.puzzles if p.level is not None})
        self.tag_filter = _classed(W.Dropdown(options=self._tag_options(), value=""), "bl-filter-tag")
        self.level_filter = _classed(W.Dropdown(options=self._level_options(), value=0), "bl-filter-level")
        self.prev_button = _button("bl-previous", lambda: self.move(-1), icon="arrow-left")
        self.next_button = _button("bl-next-puzzle", lambda: self.move(1), icon="arrow-right")
        self.for_me_button = _button("bl-gym-for-me", lambda: self.for_me(), button_style="primary")
        self.streak_button = _button("bl-gym-streak", lambda: self.start_streak(), icon="bolt")
        self.reset_button = _button("bl-gym-reset", lambda: self.ask_reset())
        self.reset_confirm = _button("bl-gym-reset-confirm", lambda: self.reset(), button_style="danger")
        self.reset_cancel = _button("bl-gym-reset-cancel", lambda: self.cancel_reset())
        self.reset_question = _classed(W.HTML(), "bl-gym-reset-question")
        self.reset_box = W.VBox([self.reset_question, W.HBox([self.reset_confirm, self.reset_cancel])])
        set_visible(self.reset_box, False)
        # moving progress: a download of the export document (what `report` reads), and its upload
        self.save_button = _button("bl-gym-save", lambda: self.save_progress(), icon="download")
        self.load_upload = _classed(W.FileUpload(accept=".json,application/json", multiple=False), "bl-gym-load")
        self.load_upload.observe(lambda _c: self._uploaded(), names="value")
        self.transfer = _classed(W.HTML(), "bl-gym-transfer")
        self.storage = _classed(W.HTML(), "bl-gym-storage")
        self.status = _classed(W.HTML(), "bl-gym-status")
        self.stats = _classed(W.HTML(), "bl-gym-stats")
        self.chart = _classed(W.HTML(), "bl-gym-chart")
        self.lessons_note = _classed(W.HTML(), "bl-gym-lessons")
        self.warning = _classed(W.HTML(), "bl-gym-warning")
        self.holder = _classed(W.Box(), "bl-gym-puzzle")
        self.from_games = _classed(W.HTML(), "bl-gym-from-games")
        self.game_puzzle: Puzzle | None = None  # a puzzle from the learner's games on show (not in the selection)
        self.index = 0
        self.selection: list[Puzzle] = []
        self.current: PuzzleWidget | None = None
        self._relabelling = False
        self._message = ""
        self.tag_filter.observe(lambda _c: self._filter(), names="value")
        self.level_filter.observe(lambda _c: self._filter(), names="value")
        self.lang_toggle = language_toggle(lang, self.set_lang)
        controls = W.HBox([self.tag_filter, self.level_filter, self.lang_toggle])
        nav = W.HBox([self.prev_button, self.status, self.next_button])
        trainer_row = W.HBox([self.for_me_button, self.streak_button, self.reset_button])
        self.buttons_help = _classed(W.HTML(), "bl-gym-buttons-help")  # what each button does
        self.skipped = _classed(W.HTML(), "bl-gym-errors")
        transfer_row = W.HBox([self.save_button, self.load_upload], layout=W.Layout(flex_flow="row wrap"))
        board = W.VBox(
            [self.warning, self.storage, self.stats, self.chart, self.lessons_note, trainer_row, self.buttons_help]
            + [self.reset_box, transfer_row, self.transfer]
        )
        _classed(board, "bl-gym-progress")
        super().__init__([controls, nav, self.skipped, board, self.holder])
        self.add_class("bl-gym")
        self._label()
        self._filter()
        self._resume()

    def _resume(self) -> None:
        """Reopen where the learner left off: the unfinished puzzle, else the next one for them."""
        if not self.selection or not self.progress.attempts():
            return
        target = self.trainer.current()
        if target is None:
            try:
                target = self.trainer.next()
            except LookupError:
                return
        if self.trainer.is_from_games(target.id):
            self.show_game_puzzle(target)
        elif target.id in {p.id for p in self.selection}:
            self.select(target.id)

    def _tag_options(self) -> list[tuple[str, str]]:
        return [(_t("widget.gym.all", self.lang), "")] + [(topic_name(t, self.lang), t) for t in self._tags]

    def _level_options(self) -> list[tuple[str, int]]:
        return [(_t("widget.gym.all", self.lang), 0)] + [(str(lv), lv) for lv in self._levels]

    def _label(self) -> None:
        lang = self.lang
        self.tag_filter.description = _t("widget.gym.tag", lang)
        self.level_filter.description = _t("widget.gym.level", lang)
        self.prev_button.description = _t("widget.gym.previous", lang)
        self.next_button.description = _t("widget.gym.next", lang)
        self.for_me_button.description = _t("trainer.button.for_me", lang)
        self.streak_button.description = _t("trainer.button.streak", lang)
        self.reset_button.description = _t("trainer.button.reset", lang)
        helps = [(self.for_me_button, "for_me"), (self.streak_button, "streak"), (self.reset_button, "reset")]
        for button, name in helps:
            button.tooltip = _t(f"trainer.help.{name}", lang)
        self.buttons_help.value = "".join(
            f"<div><small><b>{_esc(_t(f'trainer.button.{name}', lang))}</b>{_esc(_t('trainer.help.sep', lang))}"
            f"{_esc(_t(f'trainer.help.{name}', lang))}</small></div>"
            for _button, name in helps
        )
        self.reset_confirm.description = _t("trainer.button.reset_confirm", lang)
        self.reset_cancel.description = _t("trainer.button.reset_cancel", lang)
        self.reset_question.value = _esc(_t("trainer.reset.question", lang))
        self.save_button.description = _t("transfer.button.save", lang)
        self.load_upload.description = _t("transfer.button.load", lang)
        where = browser_storage(self.progress)
        self.storage.value = f"<small>{_esc(_t(f'transfer.storage.{where}', lang))}</small>" if where else ""
        taught = range(1, self.trainer.lessons + 1)
        lessons = f"1–{self.trainer.lessons}" if self.trainer.lessons > 1 else "1"
        names = _list((_t(f"trainer.lesson.{n}", lang) for n in taught), lang)
        self.lessons_note.value = f"<small>{_esc(_t('trainer.lessons', lang, lessons=lessons, names=names))}</small>"
        self.warning.value = self._warning_html()
        self.from_games.value = (
            f"<b>{_esc(_t('review_queue.gym.from_games', lang))}</b><br>"
            f"<small>{_esc(_t('review_queue.gym.note', lang))}</small>"
        )
        self._skipped()

    def _skipped(self) -> None:
        errors = [*self.errors, *self.trainer.game_problems]
        self.skipped.value = "".join(
            f'<div class="bl-gym-error">{_esc(_t("widget.gym.skipped", self.lang, error=e))}</div>' for e in errors
        )

    def _warning_html(self) -> str:
        problem = self.progress.problem
        if not problem:
            return ""
        if "damaged" in problem:
            text = _t("trainer.warning.damaged", self.lang, problem=problem)
        else:
            text = _t("trainer.warning.memory", self.lang, where=data_dir())
        return f'<div style="color:#b71c1c">{_esc(text)}</div>'

    def set_lang(self, lang: str) -> None:
        """Switch the gym and the puzzle on show to ``lang`` (the ``bl-lang`` toggle); filters and progress stay."""
        if not switch_lang(self, lang):
            return
        tag, level = self.tag_filter.value, self.level_filter.value
        self._relabelling = True
        try:  # new option labels, same values: the selection must not change
            self.tag_filter.options, self.level_filter.options = self._tag_options(), self._level_options()
            self.tag_filter.value, self.level_filter.value = tag, level
        finally:
            self._relabelling = False
        self._label()
        if self.current is not None:
            self.current.set_lang(lang)
        elif not self.selection:
            self.holder.children = [W.HTML(_esc(_t("widget.gym.empty", lang)))]
        self._status()

    def _filter(self) -> None:
        if self._relabelling:
            return
        tag, level = self.tag_filter.value, self.level_filter.value
        self.selection = [p for p in self.puzzles if (not tag or tag in p.topics) and (not level or p.level == level)]
        self.index = 0
        self._show()

    def move(self, delta: int) -> None:
        """Go to the next (+1) or previous (-1) puzzle of the selection (from a puzzle of the
        learner's games: back to the selection's puzzle shown before it)."""
        if self.selection and self.game_puzzle is None:
            self.index = max(0, min(len(self.selection) - 1, self.index + delta))
        self._show()

    def select(self, puzzle_id: str) -> PuzzleWidget:
        """Jump to a puzzle of the selection by id (clearing the filters if needed)."""
        ids = [p.id for p in self.selection]
        if puzzle_id not in ids:
            self.tag_filter.value, self.level_filter.value = "", 0
            ids = [p.id for p in self.selection]
        self.index = ids.index(puzzle_id)
        self._show()
        assert self.current is not None
        return self.current

    def for_me(self) -> PuzzleWidget | None:
        """Show the puzzle the trainer picks next (near the learner's rating, or a review that is due);
        when that is the puzzle on show, unanswered (or a streak's puzzle), say why it stays."""
        showing = self.current.session if self.current is not None else None
        try:
            puzzle, stays = self.trainer.for_me(
                showing.puzzle.id if showing is not None else None,
                answered=showing is None or showing.state != "waiting" or showing.revealed,
            )
        except LookupError:
            return None
        if stays is not None:
            self._message = _t(f"trainer.for_me.{stays}", self.lang)
            self._status()
            return self.current
        if self.trainer.is_from_games(puzzle.id):
            return self.show_game_puzzle(puzzle)
        return self.select(puzzle.id)

    def show_game_puzzle(self, puzzle: Puzzle) -> PuzzleWidget:
        """Show a puzzle from the learner's own games (not one of the gym's), marked "from your games"."""
        if self.current is not None:
            self.current.session.close()
        self.game_puzzle = puzzle
        self.current = self._board_for(puzzle)
        self.holder.children = [self.from_games, self.current]
        self.prev_button.disabled = not self.selection
        self.next_button.disabled = not self.selection
        self._status()
        return self.current

    def start_streak(self) -> PuzzleWidget | None:
        """Streak mode: a puzzle at once after each right answer, never easier, until the first
        mistake or hint.  During a streak it starts nothing new: it says so and shows the streak's puzzle."""
        running = self.trainer.streak_mode
        try:
            puzzle = self.trainer.start_streak()
        except LookupError:  # nothing to train with, or the streak is complete (the stats say so)
            self._status()
            return None
        if running:
            self._message = _t("trainer.streak.running", self.lang, count=self.trainer.streak_length)
            if self.current is not None and self.current.puzzle.id == puzzle.id:
                self._status()
                return self.current  # the streak's puzzle is on show: it stays as it is
        return self.select(puzzle.id)

    def _streak_over(self) -> str:
        """The ended streak in words: how many solved, why it ended and the best."""
        ended = self.trainer.streak_ended
        count, why = ended if ended is not None else (self.trainer.streak_length, "miss")
        best = self.trainer.summary([p.id for p in self.puzzles]).best_streak
        return _t(
            "trainer.streak.over", self.lang, count=count, why=_t(f"trainer.streak.why.{why}", self.lang), best=best
        )

    def _streak_step(self, puzzle_id: str, correct: bool | None) -> bool:
        """After a right answer in a streak: the next streak puzzle at once (True: it is on show)."""
        trainer = self.trainer
        if trainer.streak_mode and correct and trainer.streak_solved[-1:] == (puzzle_id,):
            try:
                puzzle = trainer.next()
            except LookupError:  # every puzzle solved: the stats say the streak is over, and why
                return False
            self._message = _t("trainer.streak.next", self.lang, count=trainer.streak_length, level=puzzle.level or 0)
            self.select(puzzle.id)
            return True
        return False

    def ask_reset(self) -> None:
        """Ask before resetting (the ``bl-gym-reset`` button)."""
        set_visible(self.reset_box, True)

    def cancel_reset(self) -> None:
        """Keep everything (the ``bl-gym-reset-cancel`` button)."""
        set_visible(self.reset_box, False)

    def reset(self) -> None:
        """Start over after confirmation: the old rows stay in the database, marked as before the reset."""
        set_visible(self.reset_box, False)
        self.trainer.reset()
        self._message = _t("trainer.reset.done", self.lang)
        self.index = 0
        self._show()

    def save_progress(self) -> str:
        """ "Save my progress": a download link for the export document (``progress export``'s JSON,
        which ``report`` reads and "Load progress" takes back).  Returns the document's text."""
        from ..training.trainer import export_document

        document = export_document(self.progress, self.trainer)
        text = json.dumps(document, ensure_ascii=False, indent=1)
        name = export_filename(self.progress.learner)
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        count = len(document["attempts"]) if isinstance(document["attempts"], list) else 0
        self.transfer.value = (
            f'<a class="bl-gym-download" download="{_esc(name)}" href="data:application/json;base64,{data}">'
            f"{_esc(_t('transfer.download', self.lang, file=name))}</a><br>"
            f"<small>{_esc(_t('transfer.saved', self.lang, count=count))}</small>"
        )
        return text

    def load_progress(self, content: bytes, name: str = "progress.json") -> tuple[int, int] | None:
        """ "Load progress": add an export's attempts (as this learner; none twice), then show where
        the learner stands.  A file that is not an export is refused with a message, nothing lost."""
        try:
            document = json.loads(content.decode("utf-8"))
            added, skipped = import_export(self.progress, document)
        except (UnicodeDecodeError, ValueError, RecursionError) as err:
            problem = str(err).split("\n")[0][:200]
            text = _t("transfer.load_error", self.lang, file=name, problem=problem)
            self.transfer.value = f'<span class="bl-gym-load-error" style="color:#b71c1c">{_esc(text)}</span>'
            return None
        self.trainer = Trainer(self.puzzles, progress=self.progress, lessons=self.trainer.lessons, lang=self.lang)
        self.transfer.value = _esc(_t("transfer.loaded", self.lang, added=added, skipped=skipped, file=name))
        self._show()
        return added, skipped

    def _uploaded(self) -> None:
        files = list(self.load_upload.value)
        if not files:
            return
        upload = files[0]
        self.load_progress(bytes(upload["content"]), str(upload.get("name") or "progress.json"))
        self.load_upload.value = ()

    def _answered(self, puzzle_id: str, correct: bool) -> None:
        if not self._streak_step(puzzle_id, correct):
            self._status()

    def _hinted(self, _puzzle_id: str) -> None:
        self._status()  # a hint on a streak puzzle has ended the streak (the trainer's session saw it)

    def _board_for(self, puzzle: Puzzle) -> PuzzleWidget:
        """A puzzle board in the gym: its answers and hints recorded by the trainer, status kept current."""
        return PuzzleWidget(
            puzzle,
            lang=self.lang,
            on_answer=self._answered,
            on_hint=self._hinted,
            show_lang=False,
            session=self.trainer.session(puzzle, source="gym"),
        )

    def _show(self) -> None:
        if self.current is not None:
            self.current.session.close()  # hints taken without an answer are kept
        self.game_puzzle = None
        if not self.selection:
            self.current = None
            self.holder.children = [W.HTML(_esc(_t("widget.gym.empty", self.lang)))]
        else:
            puzzle = self.selection[self.index]
            self.current = self._board_for(puzzle)
            self.holder.children = [self.current]
        self.prev_button.disabled = self.index <= 0
        self.next_button.disabled = self.index >= len(self.selection) - 1
        self._status()

    def _status(self) -> None:
        lang = self.lang
        self.warning.value = self._warning_html()  # a write may have failed since (disk full)
        summary = self.trainer.summary([p.id for p in self.puzzles])
        self.stats.value = self._stats_html(summary)
        title = _t("trainer.chart.title", lang)
        if summary.history:
            self.chart.value = rating_chart_svg(summary.history, title=title)
        else:
            self.chart.value = f"<small>{_esc(_t('trainer.chart.empty', lang))}</small>"
        self._skipped()
        if self.game_puzzle is not None:
            left = len(self.trainer.games_to_review())
            self.status.value = _esc(_t("review_queue.gym.status", lang, count=left))
            return
        if not self.selection:
            self.status.value = ""
            return
        puzzle = self.selection[self.index]
        records = self.trainer.records()  # kept up to date incrementally: no re-read of every row
        record = records.get(puzzle.id) or PuzzleRecord()
        mark = _t("widget.gym.solved_mark", lang) if record.solved else ""
        solved = sum(1 for p in self.selection if p.id in records and records[p.id].solved)
        self.status.value = _esc(
            _t(
                "widget.gym.status",
                lang,
                number=self.index + 1,
                total=len(self.selection),
                solved=solved,
                attempts=record.attempts,
                mark=mark,
            )
        )

    def _stats_html(self, summary: Summary) -> str:
        lang = self.lang
        parts = [_t("trainer.stats.rating", lang, rating=round(summary.rating), rd=round(summary.rd))]
        rate = summary.first_try_rate
        if rate is None:
            parts.append(_t("trainer.stats.first_try.none", lang))
        else:
            parts.append(_t("trainer.stats.first_try", lang, percent=round(100 * rate), rated=summary.rated))
        parts.append(_t("trainer.stats.streak", lang, streak=summary.streak, best=summary.best_streak))
        parts.append(_t("trainer.stats.solved", lang, solved=summary.solved, total=summary.total))
        pending = len(self.trainer.games_to_review())
        if pending:
            parts.append(_t("review_queue.stats.pending", lang, count=pending))
        lines = [f'<div class="bl-gym-stats-line"><b>{_esc(_t("trainer.stats.sep", lang).join(parts))}</b></div>']
        if self.trainer.streak_mode:
            lines.append(_esc(_t("trainer.stats.streak_mode", lang, count=self.trainer.streak_length)))
        elif self.trainer.streak_ended is not None:
            lines.append(f'<div class="bl-gym-streak-over">{_esc(self._streak_over())}</div>')
        weak = [(t, r) for t, r, _n in summary.themes if r < summary.rating][:3]
        if weak:
            themes = _list((_t("trainer.stats.theme", lang, theme=t, rating=round(r)) for t, r in weak), lang)
            lines.append(f'<div class="bl-gym-themes">{_esc(_t("trainer.stats.themes", lang, themes=themes))}</div>')
        for rule, count in summary.weak_rules[:3]:
            text = rule_text(rule, lang)
            line = _t("trainer.stats.rule", lang, rule=rule, text=text, count=count)
            lines.append(f'<div class="bl-gym-rule">{_esc(line)}</div>')
        if self._message:
            lines.append(f"<div>{_esc(self._message)}</div>")
            self._message = ""
        return "".join(lines)

    def __repr__(self) -> str:
        # stable while the puzzle library grows (nbval compares it)
        return f"<PuzzleSet {Path(self.source).as_posix()}>" if self.source is not None else "<PuzzleSet>"


PuzzleGym = PuzzleSet


# -- the formation explorer ------------------------------------------------

_NONE = ""
_PICKABLE: tuple[Card, ...] = ALL_TROOPS + tuple(c for c in ALL_TACTICS if c.is_wild)


class FormationExplorer(W.VBox):  # type: ignore[misc]
    """Pick cards for two sides (wildcards too), Fog and Mud, and see kinds, sums, wildcards and the winner.

    The engine judges (a compare question, R9-R11, R20-R25); this widget only
    shows.  ``set_cards("you", "r3 r4 r5")`` fills a side from notation.

    >>> e = FormationExplorer()
    >>> e.set_cards("you", "r3 r4 r5"); e.set_cards("opponent", "b8 b9 alexander")
    >>> e.verdict.value.count("Wedge") >= 2
    True
    """

    def __init__(self, *, lang: str = DEFAULT_LANGUAGE, you: str = "", opponent: str = "") -> None:
        self.lang = lang
        self._busy = True
        options = self._slot_options()
        self.slots: dict[Side, list[W.Dropdown]] = {}
        self.side_labels: dict[Side, W.HTML] = {}
        rows = []
        for side in Side:
            slots = [
                W.Dropdown(
                    options=options,
                    value=_NONE,
                    layout=W.Layout(width="230px"),
                    style={"description_width": "initial"},
                )
                for _ in range(4)
            ]
            for i, slot in enumerate(slots):
                slot.add_class(f"bl-slot-{side.value}-{i + 1}")
                slot.observe(lambda _c: self._update(), names="value")
            self.slots[side] = slots
            self.side_labels[side] = W.HTML()
            rows.append(W.HBox([self.side_labels[side], *slots]))
        self.fog = _classed(W.Checkbox(value=False, indent=False), "bl-fog")
        self.mud = _classed(W.Checkbox(value=False, indent=False), "bl-mud")
        self.first = W.ToggleButtons(
            options=self._first_options(),
            value=Side.YOU.value,
            style={"description_width": "initial", "button_width": "120px"},
        )
        self.first.add_class("bl-first-complete")
        for control in (self.fog, self.mud, self.first):
            control.observe(lambda _c: self._update(), names="value")
        self.view = _classed(W.HTML(), "bl-explorer-cards")
        self.verdict = _classed(W.HTML(), "bl-explorer-verdict")
        self.fog.layout.width = self.mud.layout.width = "130px"
        self.lang_toggle = language_toggle(lang, self.set_lang)
        controls = W.HBox([self.fog, self.mud, self.first, self.lang_toggle])
        super().__init__([rows[1], rows[0], controls, self.view, self.verdict])
        self.add_class("bl-explorer")
        self._label()
        self._busy = False
        if you:
            self.set_cards("you", you)
        if opponent:
            self.set_cards("opponent", opponent)
        self._update()

    def _slot_options(self) -> list[tuple[str, str]]:
        return [(_t("widget.explorer.empty_slot", self.lang), _NONE)] + [
            (f"{c.notation} \u2013 {card_label(c, self.lang)}", c.notation) for c in _PICKABLE
        ]

    def _first_options(self) -> list[tuple[str, str]]:
        return [(_cap(_t(f"side.{s.value}", self.lang)), s.value) for s in Side]

    def _label(self) -> None:
        lang = self.lang
        for side, label in self.side_labels.items():
            label.value = f"<b>{_esc(_cap(_t(f'board.side_of.{side.value}', lang)))}</b>"
        for slots in self.slots.values():
            for i, slot in enumerate(slots):  # each <select> gets a label (its accessible name)
                slot.description = _t("a11y.slot", lang, n=i + 1)
        self.fog.description = _t("widget.explorer.fog", lang)
        self.mud.description = _t("widget.explorer.mud", lang)
        self.first.description = _t("widget.explorer.first", lang)

    def set_lang(self, lang: str) -> None:
        """Switch every label and the verdict to ``lang`` (the ``bl-lang`` toggle); the cards picked stay."""
        if not switch_lang(self, lang):
            return
        self._busy = True
        try:  # new option labels, same values: the picks must not change
            options = self._slot_options()
            for slot in (s for slots in self.slots.values() for s in slots):
                value = slot.value
                slot.options = options
                slot.value = value
            first = self.first.value
            self.first.options = self._first_options()
            self.first.value = first
            self._label()
        finally:
            self._busy = False
        self._update()

    def set_cards(self, side: Side | str, cards: str) -> None:
        """Fill a side's slots from card notation (the rest emptied)."""
        chosen = [parse_card(t).notation for t in cards.replace(",", " ").split()]
        self._busy = True
        try:
            for i, slot in enumerate(self.slots[Side(side)]):
                slot.value = chosen[i] if i < len(chosen) else _NONE
        finally:
            self._busy = False
        self._update()

    def cards(self, side: Side | str) -> tuple[Card, ...]:
        """The cards picked for a side (only the slots the flag has: 3, or 4 with Mud)."""
        size = 4 if self.mud.value else 3
        return tuple(parse_card(s.value) for s in self.slots[Side(side)][:size] if s.value != _NONE)

    def _update(self) -> None:
        if self._busy:
            return
        lang = self.lang
        size = 4 if self.mud.value else 3
        for side in Side:
            set_visible(self.slots[side][3], size == 4)
        you, opp = self.cards(Side.YOU), self.cards(Side.OPPONENT)
        environment = [c for c, on in (("fog", self.fog.value), ("mud", self.mud.value)) if on]
        parts = []
        for side, cards in ((Side.OPPONENT, opp), (Side.YOU, you)):
            title = _cap(_t(f"board.side_of.{side.value}", lang))
            if len(cards) < size:
                caption = _t("widget.explorer.pick", lang, title=title, count=size - len(cards))
            else:
                caption = title
            parts.append(cards_svg(cards, caption=caption, lang=lang))
        self.view.value = "".join(parts)
        if len(you) < size or len(opp) < size:
            self.verdict.value = _esc(_t("widget.explorer.incomplete", lang, size=size))
            return
        data = {
            "kind": "compare",
            "a": [c.notation for c in you],
            "b": [c.notation for c in opp],
            "environment": environment,
            "first_complete": "a" if self.first.value == Side.YOU.value else "b",
        }
        try:
            question = CompareQuestion.from_data({k: v for k, v in data.items() if k != "kind"})
        except QuestionError as err:
            self.verdict.value = "<br>".join(_esc(_problem_text(p.code, p.params, lang)) for p in err.problems)
            return
        comparison = question.explain(Position())
        who = {"a": Side.YOU, "b": Side.OPPONENT}
        lines = [
            _t("widget.explorer.line", lang, who=_cap(_t(f"side.{side.value}", lang)), text=formation_caption(f, lang))
            for side, f in ((Side.YOU, comparison.a), (Side.OPPONENT, comparison.b))
        ]
        lines.append(
            _t(f"widget.explorer.winner.{who[comparison.winner].value}", lang, why=_comparison_text(comparison, lang))
        )
        self.verdict.value = "".join(f'<div class="bl-explorer-line">{_esc(line)}</div>' for line in lines)

    def __repr__(self) -> str:
        you, opponent = format_cards(self.cards("you")), format_cards(self.cards("opponent"))
        return f"<FormationExplorer you: {you} | opponent: {opponent}>"


def _problem_text(code: str, params: tuple[tuple[str, Any], ...], lang: str) -> str:
    """A question problem in words: the question layer's message if it has one, else ours."""
    values = {k: (card_short(v, lang) if isinstance(v, (Troop, Tactic)) else v) for k, v in params}
    for key in (f"question.error.{code}", f"widget.explorer.problem.{code}"):
        try:
            return _t(key, lang, **values)
        except (KeyError, IndexError):
            continue
    return _t("widget.explorer.problem", lang, code=code)
