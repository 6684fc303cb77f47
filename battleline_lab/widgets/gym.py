"""The puzzle gym: a folder of puzzles with filters, an adaptive trainer, streaks and progress.

:class:`PuzzleSet` (also :data:`PuzzleGym`) is a view over a
:class:`~battleline_lab.training.trainer.Trainer`; each puzzle on show is a
:class:`~battleline_lab.widgets.puzzle.PuzzleWidget`.  :func:`load_puzzles` reads the folder.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import ipywidgets as W

from ..formats.settings import SettingError
from ..quiz.puzzle import Puzzle
from ..render.svg import rating_chart_svg
from ..text.messages import DEFAULT_LANGUAGE, Theme, message, rule_text, themed, topic_name
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
from ..training.trainer import LESSONS, Summary, Trainer
from ._common import (
    _button,
    _classed,
    _describe,
    _esc,
    _list,
    default_progress,
    language_toggle,
    set_visible,
    switch_lang,
)
from .puzzle import PuzzleWidget


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

    ``source``: a folder, a library theme or id, or puzzles; none named: the teacher's folder
    named by ``$BATTLELINE_PUZZLES`` (a class's shared set, docs/classroom.md), else the library.

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
        source: str | Path | Iterable[Puzzle] | None = None,
        *,
        lang: str = DEFAULT_LANGUAGE,
        theme: Theme | str | None = None,
        progress: Progress | None = None,
        lessons: int = max(LESSONS),
        learner: str | None = None,
    ) -> None:
        self.lang = lang = themed(lang, theme)  # every puzzle on show gets the theme with the language
        self.errors: list[str] = []
        if source is None:  # none named: the teacher's set ($BATTLELINE_PUZZLES) if there is one, else the library
            source = self._class_source()
        self.source = source if isinstance(source, (str, Path)) else None
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
        # a column: the puzzle on show takes the whole width (in a row box it shrank to its text's
        # width, and the board, which lays itself out by its own width, to a narrow strip)
        self.holder = _classed(W.VBox(layout=W.Layout(width="100%")), "bl-gym-puzzle")
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

    def _class_source(self) -> str | Path:
        from ..quiz.library import class_folder

        try:
            folder = class_folder()
        except SettingError as err:  # said on the gym's face; the class still has the library to practise
            self.errors.append(str(err))
            return "library"
        return "library" if folder is None else folder

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
