"""Jupyter widgets for the lessons: a puzzle, a puzzle gym and a formation explorer.

A puzzle (and the gym's puzzle) is drawn by the board component (:class:`battleline_lab.widgets.board.Board`,
an anywidget, in puzzle mode); the gym's filters are ipywidgets (see
``docs/widgets.md``).  The widgets hold *no rule logic*: they ask the engine (a
:class:`~battleline_lab.quiz.puzzle.Puzzle`, its question, the claim analysis) and draw what it
says; every tap on the board comes back as an intent the session decides, and every control
can be driven from Python (:class:`~battleline_lab.widgets.board.Taps` taps the board's hooks as a
learner does).  Every string comes from the message catalogue
(``locale/<lang>/widgets.json``); everything an author wrote is escaped.

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

import base64
import html
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import ipywidgets as W

from ..core.cards import ALL_TACTICS, ALL_TROOPS, Card, Tactic, Troop, format_cards, parse_card
from ..core.position import FLAGS, Position, Side
from ..formats.settings import SettingError
from ..quiz.puzzle import Puzzle
from ..quiz.questions import CompareQuestion, Comparison, QuestionError, View
from ..render.svg import (
    BOARD_MAX_WIDTH,
    RULES_PAGE,
    board_svg,
    cards_svg,
    flag_grid_columns,
    formation_caption,
    rating_chart_svg,
)
from ..text.messages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    Theme,
    card_label,
    card_short,
    comparison_why,
    first_complete_note,
    message,
    render_msg,
    rule_text,
    theme_of,
    themed,
    topic_name,
)
from ..training.hints import hint_ladder, solution_summary
from ..training.progress import (
    Progress,
    PuzzleRecord,
    ReadOnlyStore,
    RowError,
    browser_storage,
    data_dir,
    export_filename,
    import_export,
)
from ..training.trainer import LESSONS, PuzzleSession, Summary, Trainer
from .board import Board, Taps, card_view, flag_views
from .intents import explorer_intents, puzzle_intents

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


def _cards(cards: Iterable[Card], lang: str) -> str:
    """Cards inside a widget text: ``b7 b9`` / ``蓝7、蓝9``."""
    return message("widget.card_sep", lang).join(card_short(c, lang) for c in cards)


def _list(items: Iterable[object], lang: str) -> str:
    """A list inside a widget text: ``2, 5`` / ``2、5``."""
    return message("widget.list_sep", lang).join(str(item) for item in items)


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


def _describe(lang: str, *labels: tuple[W.Widget, str]) -> None:
    """Each ``(widget, key)``: the widget's ``description`` is the key's text in ``lang``."""
    for widget, key in labels:
        widget.description = message(key, lang)


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
    widget.lang = themed(lang, theme_of(widget.lang))  # a theme (PuzzleWidget(theme=)) survives the switch
    if widget.lang_toggle.value != lang:
        widget.lang_toggle.value = lang  # calls back set_lang once more, with nothing left to change
        return False
    return True


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
    me, them = message(f"side.{side.value}", lang), message(f"side.{side.other.value}", lang)
    my = message(f"side.{side.value}.possessive", lang)
    return {"me": me, "Me": _cap(me), "my": my, "My": _cap(my), "them": them, "Them": _cap(them)}


_DEFAULT_PROGRESS: dict[str, Progress] = {}


def default_progress() -> Progress:
    """The learner's progress in the user data folder, opened once per kernel (and per folder)."""
    try:
        key = str(data_dir())
    except SettingError:  # Progress() keeps the answers in memory and its ``problem`` says why
        key = ""
    if key not in _DEFAULT_PROGRESS:
        _DEFAULT_PROGRESS[key] = Progress()
    return _DEFAULT_PROGRESS[key]


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
        theme: Theme | str | None = None,
        progress: Progress | None = None,
        lessons: int = max(LESSONS),
        learner: str | None = None,
    ) -> None:
        self.lang = lang = themed(lang, theme)  # every puzzle on show gets the theme with the language
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
        return [(message("widget.gym.all", self.lang), "")] + [(topic_name(t, self.lang), t) for t in self._tags]

    def _level_options(self) -> list[tuple[str, int]]:
        return [(message("widget.gym.all", self.lang), 0)] + [(str(lv), lv) for lv in self._levels]

    def _label(self) -> None:
        lang = self.lang
        _describe(
            lang,
            (self.tag_filter, "widget.gym.tag"),
            (self.level_filter, "widget.gym.level"),
            (self.prev_button, "widget.gym.previous"),
            (self.next_button, "widget.gym.next"),
            (self.for_me_button, "trainer.button.for_me"),
            (self.streak_button, "trainer.button.streak"),
            (self.reset_button, "trainer.button.reset"),
            (self.reset_confirm, "trainer.button.reset_confirm"),
            (self.reset_cancel, "trainer.button.reset_cancel"),
            (self.save_button, "transfer.button.save"),
            (self.load_upload, "transfer.button.load"),
        )
        helps = [(self.for_me_button, "for_me"), (self.streak_button, "streak"), (self.reset_button, "reset")]
        for button, name in helps:
            button.tooltip = message(f"trainer.help.{name}", lang)
        self.buttons_help.value = "".join(
            f"<div><small><b>{_esc(message(f'trainer.button.{name}', lang))}</b>"
            f"{_esc(message('trainer.help.sep', lang))}{_esc(message(f'trainer.help.{name}', lang))}</small></div>"
            for _button, name in helps
        )
        self.reset_question.value = _esc(message("trainer.reset.question", lang))
        where = browser_storage(self.progress)
        self.storage.value = f"<small>{_esc(message(f'transfer.storage.{where}', lang))}</small>" if where else ""
        taught = range(1, self.trainer.lessons + 1)
        lessons = f"1–{self.trainer.lessons}" if self.trainer.lessons > 1 else "1"
        names = _list((message(f"trainer.lesson.{n}", lang) for n in taught), lang)
        self.lessons_note.value = (
            f"<small>{_esc(message('trainer.lessons', lang, lessons=lessons, names=names))}</small>"
        )
        self.warning.value = self._warning_html()
        self.from_games.value = (
            f"<b>{_esc(message('review_queue.gym.from_games', lang))}</b><br>"
            f"<small>{_esc(message('review_queue.gym.note', lang))}</small>"
        )
        self._skipped()

    def _skipped(self) -> None:
        errors = [*self.errors, *self.trainer.game_problems]
        self.skipped.value = "".join(
            f'<div class="bl-gym-error">{_esc(message("widget.gym.skipped", self.lang, error=e))}</div>' for e in errors
        )

    def _warning_html(self) -> str:
        problem = self.progress.problem
        if not problem:
            return ""
        aside = self.progress.set_aside  # damaged lines of the browser's JSON-lines store, set aside
        if aside is not None:
            key = "trainer.warning.set_aside" if aside.kept else "trainer.warning.set_aside_all"
            where = Path(aside.where).name
            text = message(
                key, self.lang, count=len(aside.lines), where=where, aside=aside.shown_aside, kept=aside.kept
            )
        elif isinstance(self.progress.store, ReadOnlyStore):  # its rows are shown; new ones kept in memory
            store = self.progress.store
            text = message("trainer.warning.read_only", self.lang, where=store.source, count=len(store.rows()))
        elif "damaged" in problem:
            text = message("trainer.warning.damaged", self.lang, problem=problem)
        else:
            try:
                text = message("trainer.warning.memory", self.lang, where=data_dir())
            except SettingError as err:  # the data folder's setting itself is what cannot be used
                text = str(err)
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
            self.holder.children = [W.HTML(_esc(message("widget.gym.empty", lang)))]
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
            self._message = message(f"trainer.for_me.{stays}", self.lang)
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
            self._message = message("trainer.streak.running", self.lang, count=self.trainer.streak_length)
            if self.current is not None and self.current.puzzle.id == puzzle.id:
                self._status()
                return self.current  # the streak's puzzle is on show: it stays as it is
        return self.select(puzzle.id)

    def _streak_over(self) -> str:
        """The ended streak in words: how many solved, why it ended and the best."""
        ended = self.trainer.streak_ended
        count, why = ended if ended is not None else (self.trainer.streak_length, "miss")
        best = self.trainer.summary([p.id for p in self.puzzles]).best_streak
        return message(
            "trainer.streak.over",
            self.lang,
            count=count,
            why=message(f"trainer.streak.why.{why}", self.lang),
            best=best,
        )

    def _streak_step(self, puzzle_id: str, correct: bool | None) -> bool:
        """After a right answer in a streak: the next streak puzzle at once (True: it is on show)."""
        trainer = self.trainer
        if trainer.streak_mode and correct and trainer.streak_solved[-1:] == (puzzle_id,):
            try:
                puzzle = trainer.next()
            except LookupError:  # every puzzle solved: the stats say the streak is over, and why
                return False
            self._message = message(
                "trainer.streak.next", self.lang, count=trainer.streak_length, level=puzzle.level or 0
            )
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
        self._message = message("trainer.reset.done", self.lang)
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
            f"{_esc(message('transfer.download', self.lang, file=name))}</a><br>"
            f"<small>{_esc(message('transfer.saved', self.lang, count=count))}</small>"
        )
        return text

    def load_progress(self, content: bytes, name: str = "progress.json") -> tuple[int, int] | None:
        """ "Load progress": add an export's attempts (as this learner; none twice), then show where
        the learner stands.  A file that is not an export is refused with a message, nothing lost."""
        refused: list[RowError] = []
        try:
            document = json.loads(content.decode("utf-8-sig"))  # a byte order mark is read past
            added, skipped = import_export(self.progress, document, where=name, refused=refused)
        except (UnicodeDecodeError, ValueError, RecursionError) as err:
            problem = str(err).split("\n")[0][:200]
            text = message("transfer.load_error", self.lang, file=name, problem=problem)
            self.transfer.value = f'<span class="bl-gym-load-error" style="color:#b71c1c">{_esc(text)}</span>'
            return None
        self.trainer = Trainer(self.puzzles, progress=self.progress, lessons=self.trainer.lessons, lang=self.lang)
        self.transfer.value = _esc(message("transfer.loaded", self.lang, added=added, skipped=skipped, file=name))
        if refused:  # each row left out is named: the first one here, how many in the count above
            first = message("transfer.skipped", self.lang, problem=str(refused[0]))
            self.transfer.value += f'<br><small class="bl-gym-load-skipped">{_esc(first)}</small>'
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
            self.holder.children = [W.HTML(_esc(message("widget.gym.empty", self.lang)))]
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
        title = message("trainer.chart.title", lang)
        if summary.history:
            self.chart.value = rating_chart_svg(summary.history, title=title)
        else:
            self.chart.value = f"<small>{_esc(message('trainer.chart.empty', lang))}</small>"
        self._skipped()
        if self.game_puzzle is not None:
            left = len(self.trainer.games_to_review())
            self.status.value = _esc(message("review_queue.gym.status", lang, count=left))
            return
        if not self.selection:
            self.status.value = ""
            return
        puzzle = self.selection[self.index]
        records = self.trainer.records()  # kept up to date incrementally: no re-read of every row
        record = records.get(puzzle.id) or PuzzleRecord()
        mark = message("widget.gym.solved_mark", lang) if record.solved else ""
        solved = sum(1 for p in self.selection if p.id in records and records[p.id].solved)
        self.status.value = _esc(
            message(
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
        parts = [message("trainer.stats.rating", lang, rating=round(summary.rating), rd=round(summary.rd))]
        rate = summary.first_try_rate
        if rate is None:
            parts.append(message("trainer.stats.first_try.none", lang))
        else:
            parts.append(message("trainer.stats.first_try", lang, percent=round(100 * rate), rated=summary.rated))
        parts.append(message("trainer.stats.streak", lang, streak=summary.streak, best=summary.best_streak))
        parts.append(message("trainer.stats.solved", lang, solved=summary.solved, total=summary.total))
        pending = len(self.trainer.games_to_review())
        if pending:
            parts.append(message("review_queue.stats.pending", lang, count=pending))
        lines = [f'<div class="bl-gym-stats-line"><b>{_esc(message("trainer.stats.sep", lang).join(parts))}</b></div>']
        if self.trainer.streak_mode:
            lines.append(_esc(message("trainer.stats.streak_mode", lang, count=self.trainer.streak_length)))
        elif self.trainer.streak_ended is not None:
            lines.append(f'<div class="bl-gym-streak-over">{_esc(self._streak_over())}</div>')
        weak = [(t, r) for t, r, _n in summary.themes if r < summary.rating][:3]
        if weak:
            themes = _list((message("trainer.stats.theme", lang, theme=t, rating=round(r)) for t, r in weak), lang)
            lines.append(
                f'<div class="bl-gym-themes">{_esc(message("trainer.stats.themes", lang, themes=themes))}</div>'
            )
        for rule, count in summary.weak_rules[:3]:
            text = rule_text(rule, lang)
            line = message("trainer.stats.rule", lang, rule=rule, text=text, count=count)
            lines.append(f'<div class="bl-gym-rule">{_esc(line)}</div>')
        if self._message:
            lines.append(f"<div>{_esc(self._message)}</div>")
            self._message = ""
        return "".join(lines)

    def __repr__(self) -> str:
        # stable while the puzzle library grows (nbval compares it)
        return f"<PuzzleSet {Path(self.source).as_posix()}>" if self.source is not None else "<PuzzleSet>"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        """The widget view, plus the puzzle on show as SVG beside it (what a cold open shows)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if not isinstance(bundle, dict):
            return None
        if self.current is None:
            return bundle
        return {**bundle, "image/svg+xml": self.current.picture()}


PuzzleGym = PuzzleSet


# -- the formation explorer ------------------------------------------------

_NONE = ""
_PICKABLE: tuple[Card, ...] = ALL_TROOPS + tuple(c for c in ALL_TACTICS if c.is_wild)
_PICKABLE_IDS = frozenset(c.notation for c in _PICKABLE)


class FormationExplorer(W.VBox):  # type: ignore[misc]
    """Place cards for two sides (wildcards too), Fog and Mud, and see kinds, sums, wildcards and the winner.

    The cards are placed on the board component (:class:`~battleline_lab.widgets.board.Board`, place
    mode): tap a card of the palette, then an empty slot of a side (``data-action="place"``);
    tap a placed card to take it off (``data-action="take"``); Mud (R25) draws a fourth slot a
    side.  The engine judges (a compare question, R9-R11, R20-R25); this widget only shows.
    ``set_cards("you", "r3 r4 r5")`` fills a side from notation; :attr:`taps` taps the board.

    >>> e = FormationExplorer()
    >>> e.set_cards("you", "r3 r4 r5"); e.set_cards("opponent", "b8 b9 alexander")
    >>> e.verdict.value.count("Wedge") >= 2
    True
    >>> e.taps.take("alexander"); e.taps.pick("b10"); e.taps.place("1:opponent")
    >>> format_cards(e.cards("opponent"))
    'b8 b9 b10'
    """

    def __init__(self, *, lang: str = DEFAULT_LANGUAGE, you: str = "", opponent: str = "") -> None:
        from .board import Board, Taps  # the board component (anywidget)

        self.lang = lang
        self._busy = True
        #: the cards placed on each side, in order (a fourth is kept but not counted without Mud)
        self.picked: dict[Side, list[str]] = {side: [] for side in Side}
        self.board = _classed(
            Board(
                on_intent=self._on_intent,
                schema=explorer_intents(lambda: _PICKABLE_IDS, self._placed),
                on_refused=self._update,
            ),
            "bl-explorer-board",
        )
        self.taps = Taps(self.board)
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
        self.verdict = _classed(W.HTML(), "bl-explorer-verdict")
        self.fog.layout.width = self.mud.layout.width = "130px"
        self.lang_toggle = language_toggle(lang, self.set_lang)
        controls = W.HBox([self.fog, self.mud, self.first, self.lang_toggle], layout=W.Layout(flex_flow="row wrap"))
        super().__init__([controls, self.board, self.verdict])
        self.add_class("bl-explorer")
        self._label()
        self._busy = False
        if you:
            self.set_cards("you", you)
        if opponent:
            self.set_cards("opponent", opponent)
        self._update()

    def _first_options(self) -> list[tuple[str, str]]:
        return [(_cap(message(f"side.{s.value}", self.lang)), s.value) for s in Side]

    def _label(self) -> None:
        _describe(
            self.lang,
            (self.fog, "widget.explorer.fog"),
            (self.mud, "widget.explorer.mud"),
            (self.first, "widget.explorer.first"),
        )

    def set_lang(self, lang: str) -> None:
        """Switch every label and the verdict to ``lang`` (the ``bl-lang`` toggle); the cards placed stay."""
        if not switch_lang(self, lang):
            return
        self._busy = True
        try:  # new option labels, same value
            first = self.first.value
            self.first.options = self._first_options()
            self.first.value = first
            self._label()
        finally:
            self._busy = False
        self._update()

    def set_cards(self, side: Side | str, cards: str) -> None:
        """Fill a side from card notation (what was there goes; at most four cards)."""
        self.picked[Side(side)] = [parse_card(t).notation for t in cards.replace(",", " ").split()][:4]
        self._update()

    def cards(self, side: Side | str) -> tuple[Card, ...]:
        """The cards placed on a side (only the slots the flag has: 3, or 4 with Mud)."""
        return tuple(parse_card(c) for c in self.picked[Side(side)][: self._size()])

    def _size(self) -> int:
        return 4 if self.mud.value else 3

    def _placed(self) -> set[str]:
        """The cards on the board (the slots the flag has: 3, or 4 with Mud)."""
        return {c for cards in self.picked.values() for c in cards[: self._size()]}

    def _on_intent(self, name: str, value: Any) -> None:
        """The board's intents, checked by :func:`~battleline_lab.widgets.intents.explorer_intents`: ``place`` a
        palette card on a side (moved if it lay elsewhere), ``take`` one off."""
        if name == "place":
            card, place = value
            side = Side(place.partition(":")[2])
            if len(self.picked[side][: self._size()]) >= self._size():
                return  # the side is full: the tap changes nothing
            for cards in self.picked.values():
                if card in cards:
                    cards.remove(card)  # a card lies in one place
            self.picked[side] = self.picked[side][: self._size()] + [card]
        elif name == "take":
            for cards in self.picked.values():
                if value in cards:
                    cards.remove(value)
        self._update()

    def board_view(self) -> dict[str, Any]:
        """The board's view model: one flag, both sides' cards and empty slots, Fog and Mud, the palette."""
        from .board import card_view

        lang = self.lang
        size = self._size()
        flag: dict[str, Any] = {"n": 1, "label": message("widget.explorer.flag", lang), "slots": size, "inert": True}
        for side in Side:
            title = _cap(message(f"board.side_of.{side.value}", lang))
            flag[f"{side.value}_label"] = title
            flag[side.value] = [
                {
                    **card_view(c, lang),
                    "label": message("widget.explorer.placed", lang, card=card_label(c, lang), side=title),
                }
                for c in self.cards(side)
            ]
        flag["env"] = [
            card_view(t, lang) for t, on in ((Tactic.FOG, self.fog.value), (Tactic.MUD, self.mud.value)) if on
        ]
        placed = {c for cards in self.picked.values() for c in cards[:size]}
        palette = []
        for c in _PICKABLE:
            item = card_view(c, lang)
            if c.notation in placed:
                item["placed"] = True
                item["label"] = message("widget.explorer.in_use", lang, card=item["label"])
            palette.append(item)
        return {
            "mode": "explorer",
            "lang": lang,
            "place_mode": True,
            "prompt": message("widget.explorer.prompt", lang),
            "board_label": message("widget.explorer.board", lang),
            "flags": [flag],
            "slot_text": message("widget.explorer.slot", lang, side="{side}", slot="{slot}"),
            "pick_text": message("widget.explorer.pick_text", lang, card="{card}"),
            "palette": {"label": message("widget.explorer.palette", lang), "cards": palette},
        }

    def _update(self) -> None:
        if self._busy:
            return
        lang = self.lang
        size = self._size()
        self.board.show(self.board_view())
        you, opp = self.cards(Side.YOU), self.cards(Side.OPPONENT)
        environment = [c for c, on in (("fog", self.fog.value), ("mud", self.mud.value)) if on]
        if len(you) < size or len(opp) < size:
            missing = [
                message(
                    "widget.explorer.pick",
                    lang,
                    title=_cap(message(f"board.side_of.{side.value}", lang)),
                    count=size - len(cards),
                )
                for side, cards in ((Side.OPPONENT, opp), (Side.YOU, you))
                if len(cards) < size
            ]
            lines = [message("widget.explorer.incomplete", lang, size=size), *missing]
            self.verdict.value = "".join(f'<div class="bl-explorer-line">{_esc(line)}</div>' for line in lines)
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
            message(
                "widget.explorer.line",
                lang,
                who=_cap(message(f"side.{side.value}", lang)),
                text=formation_caption(f, lang),
            )
            for side, f in ((Side.YOU, comparison.a), (Side.OPPONENT, comparison.b))
        ]
        lines.append(
            message(
                f"widget.explorer.winner.{who[comparison.winner].value}", lang, why=_comparison_text(comparison, lang)
            )
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
            return message(key, lang, **values)
        except (KeyError, IndexError):
            continue
    return message("widget.explorer.problem", lang, code=code)
