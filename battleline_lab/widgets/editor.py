"""The puzzle editor widget: a thin ipywidgets view over :class:`~battleline_lab.authoring.editor.EditorSession`.

The board is the board component (:class:`~battleline_lab.widgets.board.Board`, place mode): a
teacher taps a card among the 70 (the palette, ``data-zone="palette"``), then an empty slot of
any flag's side or a place (a hand, the discards; ``data-action="place"``), and taps a placed
card to take it off (``data-action="take"``); tapping a flag chooses it for the marks
(``data-flag``).  Cards can also be typed in card notation for the place chosen in *Where*.
Fog/Mud, who completed first and who claimed each flag, the question, the answer, the title,
note, level and tags are fields; then Save.  After every change :meth:`PuzzleEditor.refresh`
draws everything again from the session's report: the board, what the loader says, the
engine's answer with its proof, the difficulty estimate, a reviewer's warnings and the YAML
that would be saved.  The widget keeps no state the session does not know; all text comes
from the catalogue (``locale/*/editor.json``).  Stable CSS classes ``bl-editor-*`` and the
board's hooks (``docs/widgets.md``) let browser tests find the controls.

>>> w = PuzzleEditor(puzzle_id="demo")
>>> for card in ("r2", "r3", "r4"):
...     w.taps.pick(card); w.taps.place("5:you")
>>> w.place.value = ("flags", 5, "opponent")
>>> w.card_text.value = "r6 g6"
>>> w.put_button.click()
>>> w.kind.value = "claim"
>>> w.question_flag.value = 5
>>> w.engine_answer_button.click()
>>> w.session.data["answer"], w.session.report().ok
(True, True)
>>> w
<PuzzleEditor demo: 5 cards, claim, no problems>
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import ipywidgets as W

from ..authoring.editor import (
    OUTS_FORMATIONS,
    QUESTION_FIELDS,
    EditorReport,
    EditorSession,
    Place,
    question_form,
    split_tokens,
)
from ..controllers.editor import CARD_IDS, EditorController
from ..controllers.view import PlaceView
from ..core.cards import ALL_CARDS
from ..core.claims import ClaimAnalysis
from ..core.formations import Formation, FormationKind
from ..core.position import FLAGS, Position
from ..quiz.questions import Comparison
from ..render.svg import board_svg, formation_caption
from ..text.messages import DEFAULT_LANGUAGE, kind_name, message, render_analysis
from ._common import (
    Forwarded,
    PictureBox,
    _button,
    _classed,
    _comparison_text,
    _describe,
    fit_label,
    language_toggle,
    set_visible,
    switch_lang,
)
from .board import Board, Taps
from .intents import editor_intents

__all__ = ["EditorSession", "PuzzleEditor"]

_SIDES = ("you", "opponent")
KINDS = ("", *QUESTION_FIELDS)


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _answer_text(answer: object) -> str:
    if isinstance(answer, bool):
        return "true" if answer else "false"
    if isinstance(answer, list):
        return "[" + ", ".join(str(a) for a in answer) + "]"
    return "" if answer is None else str(answer)


def _tokens(text: str) -> list[str]:
    return split_tokens(text)


#: every card's id as the board names it (what a ``place`` may put)
_CARD_IDS = frozenset(c.notation for c in ALL_CARDS)


class PuzzleEditor(PictureBox):
    """Build or edit a puzzle by clicking; the engine answers; save the YAML.

    ``source`` is a puzzle file, a library id, an :class:`EditorSession`, or None
    for a new puzzle (named ``puzzle_id``).  ``save_path`` is where Save writes
    (default: the file opened).  The ``bl-lang`` toggle switches every label live.
    """

    def __init__(
        self,
        source: str | os.PathLike[str] | EditorSession | None = None,
        *,
        puzzle_id: str = "new-puzzle",
        save_path: str | os.PathLike[str] | None = None,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        if isinstance(source, EditorSession):
            self.session = source
        elif source is None:
            self.session = EditorSession.new(puzzle_id)
        else:
            self.session = EditorSession.open(source)
        self._syncing = False
        #: the flag chosen, the message, the overwrite question (the puzzle's data is the session's)
        self.controller = EditorController(self.session, lang=lang)

        self.lang_toggle = language_toggle(lang, self.set_lang)
        self.heading = _classed(W.HTML(), "bl-editor-heading")
        #: the board component in place mode: tap a palette card, then a slot or a place
        self.board = _classed(
            Board(
                on_intent=self._on_intent,
                schema=editor_intents(lambda: CARD_IDS, self.controller.place_keys, self.controller.placed),
                on_refused=self.refresh,
            ),
            "bl-editor-board",
        )
        self.taps = Taps(self.board)
        # where cards go, and the cards
        self.place = _classed(W.Dropdown(), "bl-editor-place")
        self.card_text = _classed(W.Text(continuous_update=False), "bl-editor-cards")
        self.put_button = _button("bl-editor-put", self._put)
        self.remove_button = _button("bl-editor-remove", self._remove)
        # flag marks
        self.flag = _classed(W.Dropdown(options=list(FLAGS), value=5), "bl-editor-flag")
        self.fog = _classed(W.Checkbox(indent=False), "bl-editor-fog")
        self.mud = _classed(W.Checkbox(indent=False), "bl-editor-mud")
        self.first_complete = _classed(W.Dropdown(), "bl-editor-first")
        self.claimed_by = _classed(W.Dropdown(), "bl-editor-claimed")
        self.turn = _classed(W.Dropdown(), "bl-editor-turn")
        # metadata
        self.id_text = _classed(W.Text(continuous_update=False), "bl-editor-id")
        self.title_en = _classed(W.Text(continuous_update=False), "bl-editor-title-en")
        self.title_zh = _classed(W.Text(continuous_update=False), "bl-editor-title-zh")
        self.note_en = _classed(W.Textarea(continuous_update=False), "bl-editor-note-en")
        self.note_zh = _classed(W.Textarea(continuous_update=False), "bl-editor-note-zh")
        self.level = _classed(W.Dropdown(), "bl-editor-level")
        self.tags = _classed(W.Text(continuous_update=False), "bl-editor-tags")
        self.topics = _classed(W.Text(continuous_update=False), "bl-editor-topics")
        # the question and the answer
        self.kind = _classed(W.Dropdown(), "bl-editor-kind")
        self.question_flag = _classed(W.Dropdown(options=list(FLAGS), value=5), "bl-editor-qflag")
        self.question_a = _classed(W.Text(continuous_update=False), "bl-editor-qa")
        self.question_b = _classed(W.Text(continuous_update=False), "bl-editor-qb")
        self.question_cards = _classed(W.Text(continuous_update=False), "bl-editor-qcards")
        self.question_env = _classed(W.Text(continuous_update=False), "bl-editor-qenv")
        self.question_first = _classed(W.Dropdown(options=["", "a", "b"]), "bl-editor-qfirst")
        self.question_card = _classed(W.Text(continuous_update=False), "bl-editor-qcard")
        self.question_flags = _classed(W.Text(continuous_update=False), "bl-editor-qflags")
        self.question_formation = _classed(W.Dropdown(options=list(OUTS_FORMATIONS)), "bl-editor-qformation")
        self.question_side = _classed(W.Dropdown(options=list(_SIDES)), "bl-editor-qside")
        self.answer = _classed(W.Text(continuous_update=False), "bl-editor-answer")
        self.engine_answer_button = _button(
            "bl-editor-engine-answer",
            self._engine_answer,
            layout=fit_label(),
        )
        # what the checks say
        self.message_html = _classed(W.HTML(), "bl-editor-message")
        self.problems = _classed(W.HTML(), "bl-editor-problems")
        self.engine = _classed(W.HTML(), "bl-editor-engine")
        self.difficulty = _classed(W.HTML(), "bl-editor-difficulty")
        self.warnings = _classed(W.HTML(), "bl-editor-warnings")
        self.yaml = _classed(W.HTML(), "bl-editor-yaml")
        # saving
        default = save_path if save_path is not None else self.session.path
        self.path = _classed(W.Text(value=str(default or ""), continuous_update=True), "bl-editor-path")
        self.save_button = _button("bl-editor-save", lambda: self.save(force=False))
        self.overwrite_button = _button("bl-editor-overwrite", lambda: self.save(force=True), button_style="warning")
        self.new_id = _classed(W.Text(continuous_update=True), "bl-editor-new-id")
        self.save_as_button = _button("bl-editor-save-as", self.save_as)
        # shown when Save is refused because the engine contradicts the answer: one click takes it
        self.take_answer_button = _button("bl-editor-take-answer", self._take_answer, button_style="primary")

        # every control carries its label as its own description: ipywidgets renders it as a
        # <label> tied to the input, so a screen reader names the control (axe: label, select-name)
        self._labels: list[tuple[W.Widget, str]] = []

        def label(key: str, widget: W.Widget) -> W.Widget:
            widget.style.description_width = "initial"
            self._labels.append((widget, key))
            return widget

        self._label = label
        self.question_fields = {
            "flag": label("editor.question.flag", self.question_flag),
            "a": label("editor.question.a", self.question_a),
            "b": label("editor.question.b", self.question_b),
            "first_complete": label("editor.question.first_complete", self.question_first),
            "cards": label("editor.question.cards", self.question_cards),
            "environment": label("editor.question.environment", self.question_env),
            "card": label("editor.question.card", self.question_card),
            "flags": label("editor.question.flags", self.question_flags),
            "formation": label("editor.question.formation", self.question_formation),
            "side": label("editor.question.side", self.question_side),
        }
        super().__init__(
            [
                W.HBox([self.heading, self.lang_toggle]),
                self.board,
                W.HBox([label("editor.place.label", self.place), label("editor.card.label", self.card_text)]),
                W.HBox([self.put_button, self.remove_button]),
                W.HBox(
                    [
                        label("editor.flag.label", self.flag),
                        label("editor.flag.fog", self.fog),
                        label("editor.flag.mud", self.mud),
                        label("editor.flag.first_complete", self.first_complete),
                        label("editor.flag.claimed_by", self.claimed_by),
                        label("editor.turn", self.turn),
                    ],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                W.HBox([label("editor.id", self.id_text), label("editor.level", self.level)]),
                W.HBox([label("editor.title_field", self.title_en), self.title_zh]),
                W.HBox([label("editor.note_field", self.note_en), self.note_zh]),
                W.HBox([label("editor.topics", self.topics), label("editor.tags", self.tags)]),
                W.HBox(
                    [label("editor.question.kind", self.kind), *self.question_fields.values()],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                W.HBox(
                    [label("editor.answer", self.answer), self.engine_answer_button],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                W.HBox([self.message_html, self.take_answer_button]),
                self.problems,
                self.engine,
                self.difficulty,
                self.warnings,
                W.HBox([label("editor.path", self.path), self.save_button, self.overwrite_button]),
                W.HBox([label("editor.new_id", self.new_id), self.save_as_button]),
                self.yaml,
            ]
        )
        self.add_class("bl-editor")
        self._wire()
        self.set_lang(lang)

    # -- wiring: every control calls the session, then refresh()
    def _wire(self) -> None:
        s = self.session

        def on(widget: W.Widget, action: Callable[[Any], None]) -> None:
            def handler(change: Mapping[str, Any]) -> None:
                if self._syncing:
                    return
                self._do(lambda: action(change["new"]))

            widget.observe(handler, names="value")

        on(self.flag, self.controller.choose_flag)
        on(self.fog, lambda v: s.set_environment(self.controller.flag, "fog", bool(v), side="you"))
        on(self.mud, lambda v: s.set_environment(self.controller.flag, "mud", bool(v), side="you"))
        on(self.first_complete, lambda v: s.set_first_complete(self.controller.flag, v or None))
        on(self.claimed_by, lambda v: s.set_claimed(self.controller.flag, v or None))
        on(self.turn, s.set_turn)
        on(self.id_text, lambda v: s.set_id(v.strip() or None))
        on(self.title_en, lambda v: s.set_text("title", "en", v.strip()))
        on(self.title_zh, lambda v: s.set_text("title", "zh", v.strip()))
        on(self.note_en, lambda v: s.set_text("note", "en", v.strip()))
        on(self.note_zh, lambda v: s.set_text("note", "zh", v.strip()))
        on(self.level, lambda v: s.set_level(v or None))
        on(self.tags, s.set_tags)
        on(self.topics, s.set_topics)
        for widget in (
            self.kind,
            self.question_flag,
            self.question_a,
            self.question_b,
            self.question_cards,
            self.question_env,
            self.question_first,
            self.question_card,
            self.question_flags,
            self.question_formation,
            self.question_side,
        ):
            on(widget, lambda _v: self._set_question())
        on(self.answer, s.set_answer_text)
        self.path.observe(lambda _c: self.controller.path_changed(), names="value")

    def _do(self, action: Callable[[], object]) -> None:
        """Run an edit (the controller turns a refusal into the message line), then draw."""
        self.controller.edit(action)
        self.refresh()

    def _question_widgets(self) -> dict[str, W.Widget]:
        """The question's controls by field name (:data:`~battleline_lab.authoring.editor.QUESTION_FIELDS`)."""
        return {
            "flag": self.question_flag,
            "a": self.question_a,
            "b": self.question_b,
            "first_complete": self.question_first,
            "cards": self.question_cards,
            "environment": self.question_env,
            "card": self.question_card,
            "flags": self.question_flags,
            "formation": self.question_formation,
            "side": self.question_side,
        }

    def _set_question(self) -> None:
        """The session builds the question from the form (which fields a kind has is the session's)."""
        form = {name: widget.value for name, widget in self._question_widgets().items()}
        self.session.set_question_form(self.kind.value or None, form)

    def _put(self) -> None:
        self._do(lambda: self.session.add_card(self.place.value, self.card_text.value))

    def _remove(self) -> None:
        def remove() -> None:
            for token in _tokens(self.card_text.value):
                self.session.remove_card(token)

        self._do(remove)

    def _on_intent(self, name: str, value: Any) -> None:
        """The board's intents, checked by :func:`~battleline_lab.widgets.intents.editor_intents`: ``place`` a
        card, ``take`` one off, ``flag`` (choose it for the marks)."""
        if name == "place":
            card, key = value
            self._syncing = True
            try:  # the typed cards go where the teacher last put one
                self.place.value = self.controller.place_of(key)
            finally:
                self._syncing = False
            self.controller.place(card, key)
            self.refresh()
        elif name == "take":
            self.controller.take(value)
            self.refresh()
        elif name == "flag":
            self._do(lambda: self.controller.choose_flag(value))

    def board_view(self, position: Position) -> PlaceView:
        """The board's view model (the controller's): the nine flags with their slots, the chosen flag, the places."""
        return self.controller.view(position)

    def _engine_answer(self) -> None:
        self._do(self.session.use_engine_answer)

    def _take_answer(self) -> None:
        """After a refused Save: take the engine's answer (the session decides), then the next Save writes."""
        self._do(self.session.use_engine_answer)

    # -- saving
    def save(self, *, force: bool = False, new_id: str | None = None) -> Path | None:
        """Save to the path field; an existing file needs a second click on Overwrite.

        ``new_id``: save a copy under that id (:meth:`EditorSession.save_as`).  A refusal
        is the message line; a copy under the original id fills the New id field with a free id.
        """
        saved = self.controller.save(self.path.value, force=force, new_id=new_id)
        if saved is not None:
            self.new_id.value = ""
        elif self.controller.suggestion and not self.new_id.value.strip():
            self.new_id.value = self.controller.suggestion
        self.refresh()
        return saved

    def save_as(self) -> Path | None:
        """Save a copy to the path field under the New id (a free id is suggested when it is empty)."""
        return self.save(new_id=self.new_id.value.strip() or self.session.suggest_id(Path(self.path.value).parent))

    # -- drawing
    lang = Forwarded[str]("The language shown.", set_with="set_lang")

    def set_lang(self, lang: str) -> None:
        """Switch every label, the board and the report to ``lang`` (``en``, ``zh``)."""
        if not switch_lang(self, lang):
            return
        _describe(
            lang,
            *self._labels,
            (self.put_button, "editor.card.put"),
            (self.remove_button, "editor.card.remove"),
            (self.engine_answer_button, "editor.answer.engine"),
            (self.save_button, "editor.save"),
            (self.overwrite_button, "editor.overwrite"),
            (self.save_as_button, "editor.save_as"),
        )
        self.card_text.placeholder = message("editor.card.placeholder", lang)
        for widget, name in ((self.title_en, "English"), (self.note_en, "English")):
            widget.placeholder = name
        for widget in (self.title_zh, self.note_zh):
            widget.placeholder = "中文"
        self._syncing = True
        try:
            where = self.place.value  # the teacher's selection survives the relabelling
            self.place.options = [(self._place_name(p), p) for p in self.session.places()]
            if where in self.session.places():
                self.place.value = where
            sides = [(message(f"side.{s}", lang), s) for s in _SIDES]
            nobody = [(message("editor.flag.nobody", lang), "")]
            self.first_complete.options = nobody + sides
            self.claimed_by.options = nobody + sides
            self.turn.options = sides
            self.level.options = [("-", 0)] + [(str(n), n) for n in range(1, 6)]
            self.kind.options = [(message(f"editor.kind.{k}" if k else "editor.question.none", lang), k) for k in KINDS]
            self.question_side.options = sides
            self.question_formation.options = [
                (kind_name(None if k == "sum" else FormationKind[k.upper()], lang), k) for k in OUTS_FORMATIONS
            ]
        finally:
            self._syncing = False
        self.refresh()

    def _place_name(self, place: Place) -> str:
        return self.controller.place_name(place)

    def _sync_controls(self) -> None:
        """Put the session's values into the controls (without calling the session back)."""
        data = self.session.data
        flags = data.get("flags") if isinstance(data.get("flags"), dict) else {}
        entry = (flags or {}).get(self.controller.flag, {})
        entry = entry if isinstance(entry, dict) else {}
        on_flag = [str(c).lower() for side in _SIDES for c in (entry.get(side) or [])]

        def texts(key: str, lang: str) -> str:
            value = data.get(key)
            if isinstance(value, str):
                return value if lang == "en" else ""
            return str(value.get(lang, "")) if isinstance(value, dict) else ""

        question = question_form(data.get("question"))
        values: list[tuple[W.Widget, Any]] = [
            (self.fog, "fog" in on_flag),
            (self.mud, "mud" in on_flag),
            (self.first_complete, entry.get("first_complete") or ""),
            (self.claimed_by, entry.get("claimed_by") or ""),
            (self.turn, data.get("turn") or "you"),
            (self.id_text, str(data.get("id", ""))),
            (self.title_en, texts("title", "en")),
            (self.title_zh, texts("title", "zh")),
            (self.note_en, texts("note", "en")),
            (self.note_zh, texts("note", "zh")),
            (self.level, data.get("level") if data.get("level") in range(1, 6) else 0),
            (self.tags, ", ".join(str(t) for t in data.get("tags") or [])),
            (self.topics, ", ".join(str(t) for t in data.get("topics") or [])),
            (self.kind, question["kind"]),
            (self.answer, _answer_text(data.get("answer"))),
            (self.flag, self.controller.flag),
        ]
        for name, widget in self._question_widgets().items():
            value = question.get(name)
            options = getattr(widget, "options", None)
            if value is None or (
                options is not None and value not in [o[1] if isinstance(o, tuple) else o for o in options]
            ):
                continue  # a value the control cannot show: the YAML and the report show it
            values.append((widget, value if options is not None else str(value)))
        self._syncing = True
        try:
            for widget, value in values:
                if widget.value != value:
                    widget.value = value
        finally:
            self._syncing = False
        shown = QUESTION_FIELDS.get(self.kind.value, ())
        for name, box in self.question_fields.items():
            set_visible(box, name in shown)

    def refresh(self) -> None:
        """Draw everything again from the session (like Lichess's ``redraw``)."""
        lang = self.lang
        report = self.session.report(lang)
        self._sync_controls()
        title = self.session.data.get("id", "")
        self.heading.value = f"<b>{_esc(message('editor.title', lang))}</b>: <code>{_esc(title)}</code>"
        position = report.puzzle.position if report.puzzle is not None else self.session.board_position()
        self._position = position
        self.board.show(self.board_view(position))
        said = self.controller.message_text()
        self.message_html.value = f"<b>{_esc(said)}</b>" if said else ""
        set_visible(self.overwrite_button, self.controller.confirm)
        message_key = self.controller.message[0] if self.controller.message is not None else None
        refused = message_key == "editor.error.wrong_answer"
        if refused and report.answer_contradicted:
            self.take_answer_button.description = message(
                "editor.take_answer", lang, answer=_answer_text(report.engine_answer)
            )
        set_visible(self.take_answer_button, refused and report.answer_contradicted)
        self.problems.value = self._problems_html(report)
        self.engine.value = self._engine_html(report)
        if report.difficulty is not None:
            self.difficulty.value = _esc(
                message(
                    "editor.difficulty", lang, level=report.difficulty.level, score=f"{report.difficulty.score:.2f}"
                )
            )
        else:
            self.difficulty.value = ""
        if report.warnings:
            items = "".join(f'<li class="bl-editor-warning">{_esc(w.text(lang))}</li>' for w in report.warnings)
            self.warnings.value = f"<b>{_esc(message('editor.warnings', lang))}</b><ul>{items}</ul>"
        else:
            self.warnings.value = ""
        summary = f"<summary>{_esc(message('editor.yaml', lang))}</summary>"
        self.yaml.value = f"<details>{summary}<pre>{_esc(self.session.text())}</pre></details>"

    def _problems_html(self, report: EditorReport) -> str:
        lang = self.lang
        found = report.findings()
        if not found:
            return f'<span class="bl-editor-ok">{_esc(message("editor.no_problems", lang))}</span>'
        items = "".join(
            f'<li class="bl-editor-{"problem" if severity == "error" else "check-warning"}">'
            f"{_esc(f'{d.line}:{d.col}')}: <b>{_esc(message(f'editor.severity.{severity}', lang))}</b>: "
            f"{_esc(d.message)}</li>"
            for severity, d in found
        )
        errors = any(severity == "error" for severity, _d in found)
        heading = message("editor.problems", lang) if errors else message("editor.warnings_only", lang)
        ok = "" if errors else ' class="bl-editor-ok"'
        return f"<b{ok}>{_esc(heading)}</b><ul>{items}</ul>"

    def _engine_html(self, report: EditorReport) -> str:
        lang = self.lang
        if report.engine_error is not None:
            return _esc(message("editor.engine_error", lang, reason=report.engine_error))
        if report.puzzle is None or report.puzzle.question is None:
            return ""
        lines = [message("editor.engine", lang, answer=_answer_text(report.engine_answer))]
        proof = report.proof
        if isinstance(proof, ClaimAnalysis):
            lines += render_analysis(proof, lang)
        elif isinstance(proof, Mapping):
            for number, analysis in proof.items():
                steps = render_analysis(analysis, lang)
                if steps:
                    lines.append(
                        message("editor.place.flag", lang, flag=number, side=message("side.you", lang))
                        + ": "
                        + steps[-1]
                    )
        elif isinstance(proof, Comparison):
            lines += [formation_caption(proof.a, lang), formation_caption(proof.b, lang), _comparison_text(proof, lang)]
        elif isinstance(proof, Formation):
            lines.append(formation_caption(proof, lang))
        return "".join(f'<div class="bl-editor-proof-line">{_esc(line)}</div>' for line in lines)

    def picture(self) -> str:
        """The puzzle's board as it stands, as an SVG picture (what a saved notebook shows before anything runs)."""
        return board_svg(self._position, focus=[self.controller.flag], lang=self.lang)

    def __repr__(self) -> str:
        report = self.session.report()
        count = sum(len(self.session.cards_at(p)) for p in self.session.places())
        question = self.session.data.get("question")
        kind = question.get("kind", "?") if isinstance(question, dict) else "no question"
        state = "no problems" if not report.problems else f"{len(report.problems)} problems"
        return f"<PuzzleEditor {self.session.data.get('id', '?')}: {count} cards, {kind}, {state}>"
