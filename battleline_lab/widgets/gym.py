"""The puzzle gym widget: a view over a gym controller (filters, trainer, streaks, progress).

:class:`PuzzleSet` (also :data:`PuzzleGym`) draws a
:class:`~battleline_lab.controllers.gym.GymController`, which holds every bit of the gym's state;
the puzzle on show is a :class:`~battleline_lab.widgets.puzzle.PuzzleWidget` over the controller's
puzzle.  :func:`load_puzzles` reads the folder.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import ipywidgets as W

from ..controllers.gym import GymController, GymView, load_puzzles
from ..controllers.puzzle import PuzzleController, rules_page_link
from ..quiz.puzzle import Puzzle
from ..render.svg import rating_chart_svg
from ..text.messages import DEFAULT_LANGUAGE, Theme, message, themed
from ..training.progress import Progress
from ..training.trainer import LESSONS, Trainer
from ._common import (
    Forwarded,
    PictureBox,
    _button,
    _classed,
    _describe,
    _esc,
    default_progress,
    fit_label,
    language_toggle,
    set_visible,
    switch_lang,
)
from .puzzle import PuzzleWidget

__all__ = ["PuzzleGym", "PuzzleSet", "load_puzzles"]


class PuzzleSet(PictureBox):
    """A puzzle gym: a folder of puzzles, filters by tag and level, next/previous, and an adaptive trainer.

    ``source``: a folder, a library theme or id, or puzzles; none named: the teacher's folder
    named by ``$BATTLELINE_PUZZLES`` (a class's shared set, docs/classroom.md), else the library.

    A view over a :class:`~battleline_lab.controllers.gym.GymController` (:attr:`controller`) and
    its :class:`~battleline_lab.training.trainer.Trainer`: every answer, hint and revealed solution
    is recorded in :class:`~battleline_lab.training.progress.Progress` (by default the user's data
    folder, shared with the lessons' puzzle widgets), so it survives restarts.  The gym shows the
    learner's rating, first-try rate, streak, the themes and rules to practise and a rating chart;
    "A puzzle for me" asks the trainer for the next puzzle, "Streak" starts streak mode, "Reset my
    progress" asks before starting over.  It reopens where the learner left off.  ``lessons``: the
    lessons taught so far (puzzles needing a later one are not suggested); ``learner``: whose
    progress (several learners can share a data folder).  Puzzles saved from the learner's own
    games ("Review this game") come first in "A puzzle for me", marked "from your games"
    (``bl-gym-from-games``), until solved cleanly.
    """

    def __init__(
        self,
        source: str | Path | Iterable[Puzzle] | None = None,
        *,
        lang: str = DEFAULT_LANGUAGE,
        theme: Theme | str | None = None,
        progress: Progress | None = None,
        lessons: int = max(LESSONS),
        learner: str | None = None,
    ) -> None:
        lang = themed(lang, theme)  # every puzzle on show gets the theme with the language
        if progress is None:
            progress = default_progress() if learner is None else Progress(learner=learner)
        #: the gym's state and what may be done to it (everything this widget draws)
        self.controller = GymController(
            source,
            progress=progress,
            lang=lang,
            lessons=lessons,
            rules_page=rules_page_link(),
            on_change=self._draw,
        )
        self.current: PuzzleWidget | None = None  # the view of the controller's puzzle on show
        self._syncing = False  # the filters are being set from the controller: not a learner's choice
        self.tag_filter = _classed(W.Dropdown(options=self.controller.tag_options(), value=""), "bl-filter-tag")
        self.level_filter = _classed(W.Dropdown(options=self.controller.level_options(), value=0), "bl-filter-level")
        self.prev_button = _button("bl-previous", lambda: self.move(-1), icon="arrow-left", layout=fit_label())
        self.next_button = _button("bl-next-puzzle", lambda: self.move(1), icon="arrow-right", layout=fit_label())
        self.for_me_button = _button("bl-gym-for-me", lambda: self.for_me(), button_style="primary", layout=fit_label())
        self.streak_button = _button("bl-gym-streak", lambda: self.start_streak(), icon="bolt", layout=fit_label())
        self.reset_button = _button("bl-gym-reset", lambda: self.ask_reset(), layout=fit_label())
        self.reset_confirm = _button(
            "bl-gym-reset-confirm", lambda: self.reset(), button_style="danger", layout=fit_label()
        )
        self.reset_cancel = _button("bl-gym-reset-cancel", lambda: self.cancel_reset(), layout=fit_label())
        self.reset_question = _classed(W.HTML(), "bl-gym-reset-question")
        self.reset_box = W.VBox(
            [
                self.reset_question,
                W.HBox([self.reset_confirm, self.reset_cancel], layout=W.Layout(flex_flow="row wrap")),
            ]
        )
        set_visible(self.reset_box, False)
        # moving progress: a download of the export document (what `report` reads), and its upload
        self.save_button = _button("bl-gym-save", lambda: self.save_progress(), icon="download", layout=fit_label())
        self.load_upload = _classed(W.FileUpload(accept=".json,application/json", multiple=False), "bl-gym-load")
        self.load_upload.observe(lambda _c: self._uploaded(), names="value")
        self.transfer = _classed(W.HTML(), "bl-gym-transfer")
        # the learner's name for their teacher, asked once (a hub gives it; the trainer keeps it)
        self.name_label = _classed(W.HTML(), "bl-gym-name-label")
        self.name_input = _classed(W.Text(), "bl-gym-name-input")
        self.name_save = _button("bl-gym-name-save", lambda: self.give_name(self.name_input.value), layout=fit_label())
        self.name_box = _classed(W.HBox([self.name_label, self.name_input, self.name_save]), "bl-gym-name")
        self.storage = _classed(W.HTML(), "bl-gym-storage")
        self.status = _classed(W.HTML(), "bl-gym-status")
        self.stats = _classed(W.HTML(), "bl-gym-stats")
        self.chart = _classed(W.HTML(), "bl-gym-chart")
        self.lessons_note = _classed(W.HTML(), "bl-gym-lessons")
        self.warning = _classed(W.HTML(), "bl-gym-warning")
        # a column: the puzzle on show takes the whole width (in a row box it shrank to its text's
        # width, and the board, which lays itself out by its own width, to a narrow strip)
        self.holder = _classed(W.VBox(layout=W.Layout(width="100%")), "bl-gym-puzzle")
        self.from_games = _classed(W.HTML(), "bl-gym-from-games")
        self.tag_filter.observe(lambda _c: self._filter(), names="value")
        self.level_filter.observe(lambda _c: self._filter(), names="value")
        self.lang_toggle = language_toggle(lang, self.set_lang)
        controls = W.HBox([self.tag_filter, self.level_filter, self.lang_toggle])
        nav = W.HBox([self.prev_button, self.status, self.next_button], layout=W.Layout(flex_flow="row wrap"))
        trainer_row = W.HBox(
            [self.for_me_button, self.streak_button, self.reset_button], layout=W.Layout(flex_flow="row wrap")
        )
        self.buttons_help = _classed(W.HTML(), "bl-gym-buttons-help")  # what each button does
        self.skipped = _classed(W.HTML(), "bl-gym-errors")
        transfer_row = W.HBox([self.save_button, self.load_upload], layout=W.Layout(flex_flow="row wrap"))
        board = W.VBox(
            [self.name_box, self.warning, self.storage, self.stats, self.chart, self.lessons_note, trainer_row]
            + [self.buttons_help, self.reset_box, transfer_row, self.transfer]
        )
        _classed(board, "bl-gym-progress")
        super().__init__([controls, nav, self.skipped, board, self.holder])
        self.add_class("bl-gym")
        self._label()
        self._draw()

    # the state lives in the controller; the widget only shows it
    lang = Forwarded[str]("The language shown.", set_with="set_lang")
    source = Forwarded[str | Path | None]("Where the puzzles came from (a folder or file; None: the library).")
    errors = Forwarded[list[str]]("The puzzle files that did not load (their ``FILE:LINE:COL: error:`` lines).")
    puzzles = Forwarded[list[Puzzle]]("Every puzzle loaded.")
    progress = Forwarded[Progress]("The learner's progress.")
    trainer = Forwarded[Trainer]("What to practise next, from the progress.")
    selection = Forwarded[list[Puzzle]]("The puzzles the filters let through, in order.")
    index = Forwarded[int]("Where the learner is in :attr:`selection`.")
    game_puzzle = Forwarded[Puzzle | None]("A puzzle from the learner's games on show (not in the selection).")

    # -- intents: the controller's, then a redraw ------------------------------------
    def set_lang(self, lang: str) -> None:
        """Switch the gym and the puzzle on show to ``lang`` (the ``bl-lang`` toggle); filters and progress stay."""
        if not switch_lang(self, lang):
            return
        self._label()
        if self.current is not None:
            self.current.set_lang(lang)
        self._draw()

    def _filter(self) -> None:
        if not self._syncing:
            self.controller.set_filter(self.tag_filter.value, self.level_filter.value)
            self._draw()

    def move(self, delta: int) -> None:
        """Go to the next (+1) or previous (-1) puzzle of the selection (from a puzzle of the
        learner's games: back to the selection's puzzle shown before it)."""
        self.controller.move(delta)
        self._draw()

    def select(self, puzzle_id: str) -> PuzzleWidget:
        """Jump to a puzzle of the selection by id (clearing the filters if needed)."""
        self.controller.select(puzzle_id)
        return self._drawn()

    def for_me(self) -> PuzzleWidget | None:
        """Show the puzzle the trainer picks next (near the learner's rating, or a review that is due);
        when that is the puzzle on show, unanswered (or a streak's puzzle), say why it stays."""
        found = self.controller.for_me()
        return self._drawn() if found is not None else None

    def show_game_puzzle(self, puzzle: Puzzle) -> PuzzleWidget:
        """Show a puzzle from the learner's own games (not one of the gym's), marked "from your games"."""
        self.controller.show_game_puzzle(puzzle)
        return self._drawn()

    def start_streak(self) -> PuzzleWidget | None:
        """Streak mode: a puzzle at once after each right answer, never easier, until the first
        mistake or hint.  During a streak it starts nothing new: it says so and shows the streak's puzzle."""
        found = self.controller.start_streak()
        self._draw()
        return self.current if found is not None else None

    def ask_reset(self) -> None:
        """Ask before resetting (the ``bl-gym-reset`` button)."""
        self.controller.ask_reset()
        self._draw()

    def cancel_reset(self) -> None:
        """Keep everything (the ``bl-gym-reset-cancel`` button)."""
        self.controller.cancel_reset()
        self._draw()

    def reset(self) -> None:
        """Start over after confirmation: the old rows stay in the database, marked as before the reset."""
        self.controller.reset()
        self._draw()

    def save_progress(self) -> str:
        """ "Save my progress": a download link for the export document (``progress export``'s JSON,
        which ``report`` reads and "Load progress" takes back).  Returns the document's text."""
        text = self.controller.save_progress()
        self._draw()
        return text

    def give_name(self, name: str) -> bool:
        """ "Your name, for your teacher": keep it (the downloads and every row carry it); False if it cannot be."""
        kept = self.controller.give_name(name)
        self._draw()
        return kept

    def load_progress(self, content: bytes, name: str = "progress.json") -> tuple[int, int] | None:
        """ "Load progress": add an export's attempts (as this learner; none twice), then show where
        the learner stands.  A file that is not an export is refused with a message, nothing lost."""
        loaded = self.controller.load_progress(content, name)
        self._draw()
        return loaded

    def _uploaded(self) -> None:
        files = list(self.load_upload.value)
        if not files:
            return
        upload = files[0]
        self.load_progress(bytes(upload["content"]), str(upload.get("name") or "progress.json"))
        self.load_upload.value = ()

    # -- drawing --------------------------------------------------------------------
    def _drawn(self) -> PuzzleWidget:
        self._draw()
        assert self.current is not None
        return self.current

    def _label(self) -> None:
        """The controls' labels and help in :attr:`lang`."""
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
            (self.name_save, "transfer.name.save"),
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
        self.from_games.value = (
            f"<b>{_esc(message('review_queue.gym.from_games', lang))}</b><br>"
            f"<small>{_esc(message('review_queue.gym.note', lang))}</small>"
        )

    def _sync_filters(self, view: GymView) -> None:
        """The dropdowns show the controller's filters (new labels after a language switch, values kept)."""
        self._syncing = True
        try:
            if list(self.tag_filter.options) != list(view.tags):
                self.tag_filter.options = view.tags
            if list(self.level_filter.options) != list(view.levels):
                self.level_filter.options = view.levels
            self.tag_filter.value, self.level_filter.value = self.controller.tag, self.controller.level
        finally:
            self._syncing = False

    def _draw(self) -> None:
        """Everything from the controller's view; the puzzle widget is made again only for a new puzzle."""
        controller = self.controller
        view = controller.view()
        self._sync_filters(view)
        puzzle = controller.puzzle
        if puzzle is None:
            self.current = None
            self.holder.children = [W.HTML(_esc(view.empty))]
        elif self.current is None or self.current.controller is not puzzle:
            self.current = self._board_for(puzzle)
            self.holder.children = [self.from_games, self.current] if view.from_games else [self.current]
        self.prev_button.disabled = not view.can_previous
        self.next_button.disabled = not view.can_next
        set_visible(self.reset_box, view.reset_asked)
        set_visible(self.name_box, view.needs_name)
        self.name_label.value = f"<b>{_esc(view.name_prompt)}</b>"
        self.warning.value = f'<div style="color:#b71c1c">{_esc(view.warning)}</div>' if view.warning else ""
        self.storage.value = f"<small>{_esc(view.storage)}</small>" if view.storage else ""
        self.lessons_note.value = f"<small>{_esc(view.lessons)}</small>"
        self.skipped.value = "".join(f'<div class="bl-gym-error">{_esc(e)}</div>' for e in view.skipped)
        self.stats.value = self._stats_html(view)
        if view.history:
            self.chart.value = rating_chart_svg(list(view.history), title=view.chart_title)
        else:
            self.chart.value = f"<small>{_esc(view.chart_empty)}</small>"
        self.status.value = _esc(view.status)
        self.transfer.value = self._transfer_html(view)

    def _board_for(self, puzzle: PuzzleController) -> PuzzleWidget:
        return PuzzleWidget(puzzle.puzzle, show_lang=False, controller=puzzle)

    @staticmethod
    def _stats_html(view: GymView) -> str:
        stats = view.stats
        lines = [f'<div class="bl-gym-stats-line"><b>{_esc(stats.figures)}</b></div>']
        if stats.streak:
            lines.append(_esc(stats.streak))
        elif stats.streak_over:
            lines.append(f'<div class="bl-gym-streak-over">{_esc(stats.streak_over)}</div>')
        if stats.themes:
            lines.append(f'<div class="bl-gym-themes">{_esc(stats.themes)}</div>')
        lines.extend(f'<div class="bl-gym-rule">{_esc(rule)}</div>' for rule in stats.rules)
        if stats.note:
            lines.append(f"<div>{_esc(stats.note)}</div>")
        return "".join(lines)

    @staticmethod
    def _transfer_html(view: GymView) -> str:
        transfer = view.transfer
        if transfer is None:
            return ""
        if transfer.kind == "saved":
            return (
                f'<a class="bl-gym-download" download="{_esc(transfer.file)}" href="{transfer.href}">'
                f"{_esc(transfer.text)}</a><br><small>{_esc(transfer.detail)}</small>"
            )
        if transfer.kind == "load_error":
            return f'<span class="bl-gym-load-error" style="color:#b71c1c">{_esc(transfer.text)}</span>'
        if transfer.kind == "name_bad":
            return f'<span class="bl-gym-name-bad">{_esc(transfer.text)}</span>'
        skipped = f'<br><small class="bl-gym-load-skipped">{_esc(transfer.detail)}</small>' if transfer.detail else ""
        return _esc(transfer.text) + skipped

    def picture(self) -> str | None:
        """The puzzle on show as SVG (what a cold open shows beside the widget view); None when none is."""
        return self.current.picture() if self.current is not None else None

    def __repr__(self) -> str:
        # stable while the puzzle library grows (nbval compares it)
        return f"<PuzzleSet {Path(self.source).as_posix()}>" if self.source is not None else "<PuzzleSet>"


PuzzleGym = PuzzleSet
