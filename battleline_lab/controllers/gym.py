"""The puzzle gym: a folder of puzzles, its filters, the trainer, streaks, and the puzzle on show.

:class:`GymController` owns everything the gym remembers: the puzzles and the filters (topic,
level), the selection and where the learner is in it, a puzzle from the learner's own games, the
puzzle on show (a :class:`~battleline_lab.controllers.puzzle.PuzzleController`), the one-off note
the last action left, whether a reset is being asked, and the last save or load of progress.
:meth:`GymController.view` is a :class:`GymView`: every text in the learner's language, no HTML.

>>> from battleline_lab.quiz import library
>>> from battleline_lab.training.progress import MemoryStore, Progress
>>> gym = GymController([library.get("seed-blue-seven-in-your-hand")], progress=Progress(store=MemoryStore()))
>>> gym.puzzle.puzzle.id, gym.view().status
('seed-blue-seven-in-your-hand', 'Puzzle 1 of 1 · solved 0 of 1 · answers given here: 0')
>>> gym.puzzle.tap_answer("no")  # right: its proof is asked next, nothing recorded yet
>>> gym.puzzle.evidence("b7")  # the ghost: b7 in your hand could still come to them (R13)
True
>>> gym.view().status  # the puzzle on show records through the gym's trainer
'Puzzle 1 of 1 ✔ solved · solved 1 of 1 · answers given here: 1'
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..formats.settings import SettingError
from ..quiz.puzzle import Puzzle
from ..render.svg import RULES_PAGE
from ..text.messages import DEFAULT_LANGUAGE, message, rule_text, topic_name
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
from ..training.trainer import LESSONS, Summary, Trainer, export_document
from .puzzle import PuzzleController
from .view import join_list

__all__ = ["GymController", "GymView", "StatsView", "Transfer", "load_puzzles"]


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


@dataclass(frozen=True)
class Transfer:
    """The last save or load of progress, as it was said then.

    ``saved``: ``text`` is the download's name, ``file`` the file name, ``href`` the document as a
    ``data:`` address, ``detail`` how many attempts it holds; ``loaded``: ``text`` says what was
    added, ``detail`` the first row left out (if any); ``load_error``: ``text`` says why nothing was;
    ``name_kept`` / ``name_bad``: the learner's name was kept, or could not be.
    """

    kind: Literal["saved", "loaded", "load_error", "name_kept", "name_bad"]
    text: str
    detail: str = ""
    file: str = ""
    href: str = ""


@dataclass(frozen=True)
class StatsView:
    """Where the learner stands: the figures, the streak, the themes and rules to practise, the last note."""

    figures: str
    streak: str = ""  # streak mode is on: how many so far
    streak_over: str = ""  # the streak that ended: how many, why, the best
    themes: str = ""
    rules: tuple[str, ...] = ()
    note: str = ""  # what the last action said (a streak's next puzzle, why a puzzle stays, a reset)


@dataclass(frozen=True)
class GymView:
    """The gym now, in words: what a view draws around the puzzle (the puzzle's own view is its controller's)."""

    status: str
    stats: StatsView
    history: tuple[float, ...]
    chart_title: str
    chart_empty: str
    warning: str
    storage: str
    lessons: str
    skipped: tuple[str, ...]
    empty: str  # the selection is empty: what to say instead of a puzzle
    from_games: bool
    can_previous: bool
    can_next: bool
    reset_asked: bool
    transfer: Transfer | None = None
    needs_name: bool = False  # "Your name, for your teacher" is asked (no hub name, none given yet)
    name_prompt: str = ""
    tags: tuple[tuple[str, str], ...] = field(default=())  # the topic filter's (label, value) options
    levels: tuple[tuple[str, int], ...] = field(default=())


class GymController:
    """A puzzle gym: filters by topic and level, next/previous, the trainer's next puzzle, streaks, reset.

    A view over a :class:`~battleline_lab.training.trainer.Trainer`: every answer, hint and revealed
    solution is recorded in ``progress``.  It reopens where the learner left off.  ``lessons``: the
    lessons taught so far (puzzles needing a later one are not suggested).  ``on_change()`` is called
    when the gym changed by itself (the puzzle on show was answered or hinted): a widget redraws.
    """

    def __init__(
        self,
        source: str | Path | Iterable[Puzzle] | None = None,
        *,
        progress: Progress,
        lang: str = DEFAULT_LANGUAGE,
        lessons: int = max(LESSONS),
        rules_page: str = RULES_PAGE,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.lang = lang
        self.errors: list[str] = []
        if source is None:  # none named: the teacher's set ($BATTLELINE_PUZZLES) if there is one, else the library
            source = self._class_source()
        self.source = source if isinstance(source, (str, Path)) else None
        self.puzzles = load_puzzles(source, self.errors)
        self.progress = progress
        self.trainer = Trainer(self.puzzles, progress=progress, lessons=lessons, lang=lang)
        self.rules_page = rules_page
        self.on_change = on_change
        self.topics = sorted({t for p in self.puzzles for t in p.topics})  # topics only: tags may give answers away
        self.levels = sorted({p.level for p in self.puzzles if p.level is not None})
        self.tag = ""
        self.level = 0
        self.selection: list[Puzzle] = []
        self.index = 0
        self.game_puzzle: Puzzle | None = None  # a puzzle from the learner's games on show (not in the selection)
        self.puzzle: PuzzleController | None = None
        self.note: tuple[str, dict[str, object]] | None = None  # what the last action said (key, parameters)
        self.reset_asked = False
        self.transfer: Transfer | None = None
        self._filter()
        self._resume()

    # -- intents --------------------------------------------------------------

    def _class_source(self) -> str | Path:
        from ..quiz.library import class_folder

        try:
            folder = class_folder()
        except SettingError as err:  # said on the gym's face; the class still has the library to practise
            self.errors.append(str(err))
            return "library"
        return "library" if folder is None else folder

    def set_filter(self, tag: str, level: int) -> None:
        """Show the puzzles with topic ``tag`` and level ``level`` ("" and 0: all), from the first."""
        self.note = None
        self.tag, self.level = tag, level
        self._filter()

    def move(self, delta: int) -> None:
        """The next (+1) or previous (-1) puzzle of the selection (from a puzzle of the learner's games:
        back to the selection's puzzle shown before it)."""
        self.note = None
        if self.selection and self.game_puzzle is None:
            self.index = max(0, min(len(self.selection) - 1, self.index + delta))
        self._show()

    def select(self, puzzle_id: str) -> PuzzleController:
        """Jump to a puzzle of the selection by id (clearing the filters if needed)."""
        self.note = None
        return self._select(puzzle_id)

    def for_me(self) -> PuzzleController | None:
        """The puzzle the trainer picks next (near the learner's rating, or a review that is due); when
        that is the puzzle on show, unanswered (or a streak's puzzle), it stays and the note says why."""
        self.note = None
        showing = self.puzzle.session if self.puzzle is not None else None
        try:
            puzzle, stays = self.trainer.for_me(
                showing.puzzle.id if showing is not None else None,
                answered=showing is None or showing.state != "waiting" or showing.revealed,
            )
        except LookupError:
            return None
        if stays is not None:
            self.note = (f"trainer.for_me.{stays}", {})
            return self.puzzle
        if self.trainer.is_from_games(puzzle.id):
            return self.show_game_puzzle(puzzle)
        return self._select(puzzle.id)

    def show_game_puzzle(self, puzzle: Puzzle) -> PuzzleController:
        """Show a puzzle from the learner's own games (not one of the gym's), marked "from your games"."""
        self._close()
        self.game_puzzle = puzzle
        self.puzzle = self._controller(puzzle)
        return self.puzzle

    def start_streak(self) -> PuzzleController | None:
        """Streak mode: a puzzle at once after each right answer, never easier, until the first mistake
        or hint.  During a streak it starts nothing new: the note says so and the streak's puzzle stays."""
        self.note = None
        running = self.trainer.streak_mode
        try:
            puzzle = self.trainer.start_streak()
        except LookupError:  # nothing to train with, or the streak is complete (the stats say so)
            return None
        if running:
            self.note = ("trainer.streak.running", {"count": self.trainer.streak_length})
            if self.puzzle is not None and self.puzzle.puzzle.id == puzzle.id:
                return self.puzzle  # the streak's puzzle is on show: it stays as it is
        return self._select(puzzle.id)

    def ask_reset(self) -> None:
        """Ask before resetting."""
        self.reset_asked = True

    def cancel_reset(self) -> None:
        """Keep everything."""
        self.reset_asked = False

    def reset(self) -> None:
        """Start over after confirmation: the old rows stay in the database, marked as before the reset."""
        self.reset_asked = False
        self.trainer.reset()
        self.note = ("trainer.reset.done", {})
        self.index = 0
        self._show()

    def save_progress(self) -> str:
        """ "Save my progress": the export document (``progress export``'s JSON, which ``report`` reads and
        "Load progress" takes back), offered as a download (:attr:`transfer`).  Returns its text."""
        document = export_document(self.progress, self.trainer)
        text = json.dumps(document, ensure_ascii=False, indent=1)
        name = export_filename(self.progress.learner, self.progress.learner_id)
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        count = len(document["attempts"]) if isinstance(document["attempts"], list) else 0
        self.transfer = Transfer(
            "saved",
            message("transfer.download", self.lang, file=name),
            detail=message("transfer.saved", self.lang, count=count),
            file=name,
            href=f"data:application/json;base64,{data}",
        )
        return text

    def give_name(self, name: str) -> bool:
        """ "Your name, for your teacher": keep it (the downloads and every row carry it); False if it cannot be."""
        try:
            kept = self.trainer.set_name(name)
        except ValueError:
            self.transfer = Transfer("name_bad", message("transfer.name.bad", self.lang))
            return False
        self.transfer = Transfer("name_kept", message("transfer.name.kept", self.lang, name=kept))
        return True

    def load_progress(self, content: bytes, name: str = "progress.json") -> tuple[int, int] | None:
        """ "Load progress": add an export's attempts (as this learner; none twice), then show where the
        learner stands.  A file that is not an export is refused with a message, nothing lost."""
        refused: list[RowError] = []
        try:
            document = json.loads(content.decode("utf-8-sig"))  # a byte order mark is read past
            added, skipped = import_export(self.progress, document, where=name, refused=refused)
        except (UnicodeDecodeError, ValueError, RecursionError) as err:
            problem = str(err).split("\n")[0][:200]
            text = message("transfer.load_error", self.lang, file=name, problem=problem)
            self.transfer = Transfer("load_error", text)
            return None
        self.trainer = Trainer(self.puzzles, progress=self.progress, lessons=self.trainer.lessons, lang=self.lang)
        # each row left out is named: the first one here, how many in the count
        first = message("transfer.skipped", self.lang, problem=str(refused[0])) if refused else ""
        text = message("transfer.loaded", self.lang, added=added, skipped=skipped, file=name)
        self.transfer = Transfer("loaded", text, detail=first, file=name)
        self._show()
        return added, skipped

    def set_lang(self, lang: str) -> None:
        """Every text in ``lang`` from now on (the puzzle on show too); filters and progress stay."""
        self.lang = lang
        if self.puzzle is not None:
            self.puzzle.set_lang(lang)

    # -- the puzzle on show's callbacks -----------------------------------------
    def _answered(self, puzzle_id: str, correct: bool) -> None:
        self.note = None
        self._streak_step(puzzle_id, correct)
        self._changed()

    def _hinted(self, _puzzle_id: str) -> None:
        self.note = None  # a hint on a streak puzzle has ended the streak (the trainer's session saw it)
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _streak_step(self, puzzle_id: str, correct: bool | None) -> bool:
        """After a right answer in a streak: the next streak puzzle at once (True: it is on show)."""
        trainer = self.trainer
        if trainer.streak_mode and correct and trainer.streak_solved[-1:] == (puzzle_id,):
            try:
                puzzle = trainer.next()
            except LookupError:  # every puzzle solved: the stats say the streak is over, and why
                return False
            self.note = ("trainer.streak.next", {"count": trainer.streak_length, "level": puzzle.level or 0})
            self._select(puzzle.id)
            return True
        return False

    # -- state ----------------------------------------------------------------
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
            self._select(target.id)

    def _filter(self) -> None:
        tag, level = self.tag, self.level
        self.selection = [p for p in self.puzzles if (not tag or tag in p.topics) and (not level or p.level == level)]
        self.index = 0
        self._show()

    def _select(self, puzzle_id: str) -> PuzzleController:
        if puzzle_id not in [p.id for p in self.selection]:
            self.tag, self.level = "", 0
            self._filter()
        self.index = [p.id for p in self.selection].index(puzzle_id)
        self._show()
        assert self.puzzle is not None
        return self.puzzle

    def _close(self) -> None:
        if self.puzzle is not None:
            self.puzzle.session.close()  # hints taken without an answer are kept

    def _show(self) -> None:
        self._close()
        self.game_puzzle = None
        self.puzzle = self._controller(self.selection[self.index]) if self.selection else None

    def _controller(self, puzzle: Puzzle) -> PuzzleController:
        """A puzzle in the gym: its answers and hints recorded by the trainer, the gym told of each."""
        return PuzzleController(
            puzzle,
            lang=self.lang,
            session=self.trainer.session(puzzle, source="gym"),
            on_answer=self._answered,
            on_hint=self._hinted,
            rules_page=self.rules_page,
        )

    # -- what is shown ----------------------------------------------------------
    def tag_options(self) -> list[tuple[str, str]]:
        """The topic filter's choices: (label, value), "all" first."""
        return [(message("widget.gym.all", self.lang), "")] + [(topic_name(t, self.lang), t) for t in self.topics]

    def level_options(self) -> list[tuple[str, int]]:
        """The level filter's choices: (label, value), "all" first."""
        return [(message("widget.gym.all", self.lang), 0)] + [(str(lv), lv) for lv in self.levels]

    def view(self) -> GymView:
        """The gym now, in :attr:`lang`."""
        lang = self.lang
        summary = self.trainer.summary([p.id for p in self.puzzles])
        where = browser_storage(self.progress)
        lessons = f"1–{self.trainer.lessons}" if self.trainer.lessons > 1 else "1"
        names = join_list((message(f"trainer.lesson.{n}", lang) for n in range(1, self.trainer.lessons + 1)), lang)
        return GymView(
            status=self._status(),
            stats=self._stats(summary),
            history=tuple(summary.history),
            chart_title=message("trainer.chart.title", lang),
            chart_empty=message("trainer.chart.empty", lang),
            warning=self._warning(),
            storage=message(f"transfer.storage.{where}", lang) if where else "",
            lessons=message("trainer.lessons", lang, lessons=lessons, names=names),
            skipped=tuple(message("widget.gym.skipped", lang, error=e) for e in self.skipped_files()),
            empty="" if self.selection or self.game_puzzle is not None else message("widget.gym.empty", lang),
            from_games=self.game_puzzle is not None,
            can_previous=bool(self.selection) and (self.game_puzzle is not None or self.index > 0),
            can_next=bool(self.selection) and (self.game_puzzle is not None or self.index < len(self.selection) - 1),
            reset_asked=self.reset_asked,
            transfer=self.transfer,
            needs_name=self.trainer.needs_name,
            name_prompt=message("transfer.name.prompt", lang),
            tags=tuple(self.tag_options()),
            levels=tuple(self.level_options()),
        )

    def skipped_files(self) -> list[str]:
        """The puzzle files (and games' puzzles) left out, each a located error."""
        return [*self.errors, *self.trainer.game_problems]

    def _status(self) -> str:
        lang = self.lang
        if self.game_puzzle is not None:
            return message("review_queue.gym.status", lang, count=len(self.trainer.games_to_review()))
        if not self.selection:
            return ""
        puzzle = self.selection[self.index]
        records = self.trainer.records()  # kept up to date incrementally: no re-read of every row
        record = records.get(puzzle.id) or PuzzleRecord()
        return message(
            "widget.gym.status",
            lang,
            number=self.index + 1,
            total=len(self.selection),
            solved=sum(1 for p in self.selection if p.id in records and records[p.id].solved),
            attempts=record.attempts,
            mark=message("widget.gym.solved_mark", lang) if record.solved else "",
        )

    def _stats(self, summary: Summary) -> StatsView:
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
        streak = over = ""
        if self.trainer.streak_mode:
            streak = message("trainer.stats.streak_mode", lang, count=self.trainer.streak_length)
        elif self.trainer.streak_ended is not None:
            over = self._streak_over()
        weak = [(t, r) for t, r, _n in summary.themes if r < summary.rating][:3]
        themes = ""
        if weak:
            listed = join_list((message("trainer.stats.theme", lang, theme=t, rating=round(r)) for t, r in weak), lang)
            themes = message("trainer.stats.themes", lang, themes=listed)
        rules = tuple(
            message("trainer.stats.rule", lang, rule=rule, text=rule_text(rule, lang), count=count)
            for rule, count in summary.weak_rules[:3]
        )
        note = message(self.note[0], lang, **self.note[1]) if self.note is not None else ""
        figures = message("trainer.stats.sep", lang).join(parts)
        return StatsView(figures, streak=streak, streak_over=over, themes=themes, rules=rules, note=note)

    def _streak_over(self) -> str:
        """The ended streak in words: how many solved, why it ended and the best."""
        ended = self.trainer.streak_ended
        count, why = ended if ended is not None else (self.trainer.streak_length, "miss")
        best = self.trainer.summary([p.id for p in self.puzzles]).best_streak
        why_text = message(f"trainer.streak.why.{why}", self.lang)
        return message("trainer.streak.over", self.lang, count=count, why=why_text, best=best)

    def _warning(self) -> str:
        """Why the learner's progress may not be kept, in words ("" when all is well)."""
        problem = self.progress.problem
        if not problem:
            return ""
        aside = self.progress.set_aside  # damaged lines of the browser's JSON-lines store, set aside
        if aside is not None:
            key = "trainer.warning.set_aside" if aside.kept else "trainer.warning.set_aside_all"
            where = Path(aside.where).name
            return message(
                key, self.lang, count=len(aside.lines), where=where, aside=aside.shown_aside, kept=aside.kept
            )
        if isinstance(self.progress.store, ReadOnlyStore):  # its rows are shown; new ones kept in memory
            store = self.progress.store
            return message("trainer.warning.read_only", self.lang, where=store.source, count=len(store.rows()))
        if "damaged" in problem:
            return message("trainer.warning.damaged", self.lang, problem=problem)
        try:
            return message("trainer.warning.memory", self.lang, where=data_dir())
        except SettingError as err:  # the data folder's setting itself is what cannot be used
            return str(err)

    def __repr__(self) -> str:
        return f"<GymController {len(self.puzzles)} puzzles: {self.puzzle.puzzle.id if self.puzzle else 'none'}>"
