"""The adaptive puzzle trainer, without a front end: ratings, the next puzzle, one puzzle's session.

:class:`Trainer` is what the gym (and any other view) asks: the learner's
Glicko-2 rating (:mod:`battleline_lab.training.glicko2`), every puzzle's rating, a
rating per theme, which puzzle comes next, the streak and the rules the
learner keeps missing.  Everything is computed from the attempt rows in the
store (:mod:`battleline_lab.training.progress`), so two notebooks open at once, the
lessons' puzzle widgets and the gym all add to the same history.

- A puzzle's first rating comes from the engine's difficulty estimate
  (:func:`battleline_lab.quiz.difficulty.estimate`).
- Only a learner's *first* answer to a puzzle is rated (as on Lichess): right
  without hints scores 1, right after hints 0.5, wrong or a revealed solution 0.
- :meth:`Trainer.next` brings back a missed puzzle once enough other puzzles
  were tried since (the spacing doubles with each miss, as in Anki), else
  picks the unseen puzzle whose expected success is nearest 70%, among the
  puzzles the lessons taught so far cover (:func:`required_lesson`).
- Streak mode: puzzles harder and harder, until the first mistake.
- Puzzles from the learner's own games: "Review this game" saves a game's
  review moments as puzzle files in ``review/`` of the data folder
  (:func:`battleline_lab.training.progress.review_dir`).  The trainer reads that folder
  at every :meth:`Trainer.next` and offers each of those puzzles as a due
  review, ahead of new library puzzles, until it is solved cleanly (right at
  the first answer of a visit, without hints); a miss spaces it like any other
  review.  Their answers are recorded like all others but rated for nobody
  (see :meth:`Trainer.game_puzzles`).  A file there that does not load is
  skipped with one :class:`ReviewQueueWarning` (``FILE:LINE:COL: error: ...``)
  and never changed.

:class:`PuzzleSession` is one puzzle on screen: answer, hint, reveal, step
through the proof; it returns :class:`Feedback` as data (verdict, reason code,
rule id, ghost cards, message key and parameters) and records every event.

>>> import tempfile
>>> t = Trainer(puzzles="seed-examples", data=tempfile.mkdtemp())  # a new data folder: no games yet
>>> first = t.next()
>>> t.record(first.id, correct=True)
>>> t.rating > 1500, t.puzzle_rating(first.id) < t.initial_rating(first.id)
(True, True)
>>> t.next().id != first.id
True
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import time
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.cards import Card, Tactic
from ..core.position import Position, Side
from ..quiz.difficulty import estimate
from ..quiz.puzzle import Puzzle
from ..quiz.questions import Feedback, Question, View
from ..text.messages import DEFAULT_LANGUAGE
from .glicko2 import Rating, expected, update
from .progress import Attempt, Progress, PuzzleRecord, review_dir

__all__ = [
    "HINT_LEVELS",
    "GAMES_THEME",
    "LESSONS",
    "SOLUTION_AFTER",
    "TACTICS_LESSON",
    "TARGET_SUCCESS",
    "Feedback",
    "PuzzleSession",
    "ReviewQueueWarning",
    "Summary",
    "Trainer",
    "content_hash",
    "initial_rating",
    "miss_reason",
    "required_lesson",
]

#: The success rate :meth:`Trainer.next` aims for.
TARGET_SUCCESS = 0.7
#: The wrong answers after which the solution opens by itself (and is recorded as seen).
SOLUTION_AFTER = 2
#: How many hints the ladder has (vague, key cards, the solution); the last one reveals the solution.
HINT_LEVELS = 3
#: The course's lessons, by number, in the order they are taught (notebooks ``01-`` to ``07-``), and
#: what each teaches; a puzzle needs the lessons up to :func:`required_lesson` (05, the gym, and 06,
#: a game, add no puzzle kind).  ``Trainer(lessons=n)`` means lessons 1 to ``n`` were taught.
LESSONS: Mapping[int, str] = {
    1: "formations",
    2: "compare",
    3: "claims",
    4: "tactics",
    5: "gym",
    6: "game",
    7: "odds",
}
#: The lesson of the tactics cards: a puzzle with one anywhere needs at least this lesson.
TACTICS_LESSON = 4
LEARNER_START = Rating(1500.0, 350.0, 0.06)
PUZZLE_RD = 200.0
#: A missed puzzle comes back after this many other puzzles (doubling with each further miss).
SPACING = 3
#: The theme of the puzzles from the learner's own games (they are in no library theme).
GAMES_THEME = "games"


class ReviewQueueWarning(UserWarning):
    """A file among the puzzles from the learner's games that the trainer skips (it is left as it is)."""


def _cards_of(puzzle: Puzzle) -> list[Card]:
    pos = puzzle.position
    cards: list[Card] = [c for flag in pos.flags for side in Side for c in flag.cards(side)]
    cards += [*pos.discards_you, *pos.discards_opponent, *pos.hand_you, *pos.hand_opponent]
    if puzzle.question is not None:
        cards += puzzle.question.loose_cards()
    return cards


def required_lesson(puzzle: Puzzle) -> int:
    """The lesson a puzzle needs: its question's (:attr:`~battleline_lab.quiz.questions.Question.lesson`:
    1 formations, 2 comparing, 3 claims, 7 outs and odds), and at least 4 with a tactics card anywhere.

    >>> from battleline_lab.quiz import library
    >>> [required_lesson(library.get(i)) for i in ("one-end-open", "outs-green-wedge")]
    [3, 7]
    """
    lesson = puzzle.question.lesson if puzzle.question is not None else 3
    if any(isinstance(c, Tactic) for c in _cards_of(puzzle)):
        return max(lesson, TACTICS_LESSON)
    return lesson


def content_hash(puzzle: Puzzle) -> str:
    """A short hash of what a puzzle asks (position, question, answer): attempts say which version they saw."""
    text = f"{puzzle.position!r}|{puzzle.question!r}|{puzzle.answer!r}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@lru_cache(maxsize=4096)
def _estimated(position: Position, question: Question[Any, Any]) -> float:
    d = estimate(position, question)
    return 1050.0 + 200.0 * (d.level - 1) + 25.0 * min(4.0, d.score - (d.level - 1))


def initial_rating(puzzle: Puzzle) -> Rating:
    """A puzzle's rating before anybody tried it: from the engine's difficulty estimate (level 1 ~1100, 5 ~1900)."""
    if puzzle.question is None:
        return Rating(1500.0, PUZZLE_RD)
    try:
        return Rating(_estimated(puzzle.position, puzzle.question), PUZZLE_RD)
    except Exception:  # noqa: BLE001 - a puzzle the estimate cannot measure still gets a rating
        return Rating(1100.0 + 200.0 * ((puzzle.level or 3) - 1), PUZZLE_RD)


def miss_reason(puzzle: Puzzle, answer: object) -> tuple[str | None, str | None]:
    """For a wrong answer: the engine's reason code and the rule id (``R13``) the learner missed.

    >>> from battleline_lab.quiz import library
    >>> miss_reason(library.get("seed-blue-seven-in-your-hand"), True)
    ('hand_not_evidence', 'R13')
    """
    feedback = _judge(puzzle, answer)
    return (feedback.reason, feedback.rule) if feedback is not None else (None, None)


def _judge(puzzle: Puzzle, answer: object) -> Feedback | None:
    """The question's verdict on an answer (:meth:`Question.judge`); None without a question or an answer to judge."""
    if puzzle.question is None:
        return None
    try:
        return puzzle.question.judge(puzzle.position, answer)
    except Exception:  # noqa: BLE001 - a position the engine cannot judge gets no reason
        return None


def _theme(puzzle: Puzzle) -> str:
    """The library theme folder of a puzzle file, else its first topic, else ``other``."""
    if puzzle.source:
        try:
            from ..quiz.library import root

            return Path(puzzle.source).resolve().relative_to(root().resolve()).parts[0]
        except (ValueError, OSError, FileNotFoundError, IndexError):
            pass
    return puzzle.topics[0] if puzzle.topics else "other"


def _load(puzzles: str | os.PathLike[str] | Iterable[Puzzle | str] | None) -> list[Puzzle]:
    from ..quiz import library
    from ..quiz.loader import load_folder

    def from_source(source: str | os.PathLike[str]) -> list[Puzzle]:
        # the gym reports files that do not load; the trainer just leaves them out
        return [puzzle for _file, puzzle in load_folder([library.resolve(source)])]

    if puzzles is None:  # none named: the teacher's set ($BATTLELINE_PUZZLES) if there is one, else the library
        folder = library.class_folder()
        out = library.puzzles() if folder is None else from_source(folder)
    elif isinstance(puzzles, (str, os.PathLike)):
        out = from_source(puzzles)
    else:
        out = []
        for item in puzzles:
            out += [item] if isinstance(item, Puzzle) else from_source(item)
    seen: dict[str, Puzzle] = {}
    for p in out:
        if p.question is not None:
            seen.setdefault(p.id, p)
    return sorted(seen.values(), key=lambda p: (p.level if p.level is not None else 0, p.id))


def _natural(path: Path) -> list[object]:
    """Sort key: numbers in a file name by value (``turn-8`` before ``turn-22``)."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.as_posix())]


def _score(correct: bool, hints: int) -> float:
    return (1.0 if hints == 0 else 0.5) if correct else 0.0


@dataclass(frozen=True)
class _Visit:
    """Consecutive rows of one puzzle: how the first answer went, and whether it got solved."""

    puzzle_id: str
    index: int
    clean: bool | None = None  # None: not answered yet
    solved: bool = False
    revealed: bool = False


@dataclass(frozen=True)
class Summary:
    """What the gym shows at a glance (all numbers; the view words them)."""

    rating: float
    rd: float
    rated: int
    first_try: int
    solved: int
    total: int
    streak: int
    best_streak: int
    themes: tuple[tuple[str, float, int], ...]
    weak_rules: tuple[tuple[str, int], ...]
    history: tuple[float, ...]

    @property
    def first_try_rate(self) -> float | None:
        """Share of rated puzzles right at the first try, without hints (None before any)."""
        return self.first_try / self.rated if self.rated else None


def _review_folder(path: Path | str | None) -> Path | None:
    """The learner's review folder, or None when the data folder's setting cannot be used
    (:class:`~battleline_lab.formats.settings.SettingError`: the progress is kept in memory and says why)."""
    from ..formats.settings import SettingError

    try:
        return review_dir(path)
    except SettingError:
        return None


class Trainer:
    """One learner's training over a set of puzzles (by default the teacher's folder named by
    ``$BATTLELINE_PUZZLES``, else the shipped library).

    ``puzzles``: a folder, file, library id or theme, or an iterable of
    puzzles/ids; ``data``: the data folder (default: the user's); ``learner``:
    whose history; ``lessons``: the lessons taught so far (1 to ``n`` of
    :data:`LESSONS`, all by default; puzzles that need a later one are left out); ``progress`` overrides ``data``;
    ``games``: the folder of puzzles saved from the learner's games (default:
    ``review/`` in the data folder, where "Review this game" saves them);
    ``lang``: the language of the problems found there (``game_problems``).
    """

    def __init__(
        self,
        puzzles: str | os.PathLike[str] | Iterable[Puzzle | str] | None = None,
        data: str | os.PathLike[str] | None = None,
        learner: str | None = None,
        *,
        lessons: int = max(LESSONS),
        progress: Progress | None = None,
        games: str | os.PathLike[str] | None = None,
        lang: str = "en",
    ) -> None:
        if progress is None:
            progress = Progress(Path(data) if data is not None else None, learner=learner or "")
        self.progress = progress
        self.learner = progress.learner
        self.lessons = lessons
        self.all_puzzles = _load(puzzles)
        self.puzzles = [p for p in self.all_puzzles if required_lesson(p) <= lessons]
        self._by_id = {p.id: p for p in self.all_puzzles}
        self._themes = {p.id: _theme(p) for p in self.all_puzzles}
        self.streak_mode = False
        self._streak_seen: list[str] = []  # the puzzles solved in the current (or last) streak, in order
        self._streak_on: str | None = None  # the streak puzzle on show, not answered yet
        self._streak_keys: dict[str, tuple[int, float]] = {}  # (level, rating) of each puzzle at the start
        self.streak_ended: tuple[int, str] | None = None  # (solved, why) of the streak that ended last
        # the state computed from the rows read so far, and where reading got to (rows_since): each call
        # reads only the rows added since (by this trainer, another process or another browser tab)
        self._state: _Replay | None = None
        self._state_store: object = None
        self._cursor = 0
        #: The folder of the puzzles saved from the learner's games (``review/`` in the data folder).
        self.lang = lang  # of the problems found in ``games_folder``
        self.games_folder: Path | None = Path(games) if games is not None else _review_folder(progress.path)
        self._game_files: dict[Path, tuple[tuple[int, int], Puzzle | None]] = {}
        self._games: list[Puzzle] = []
        #: The files of ``games_folder`` skipped, as ``FILE:LINE:COL: error: ...`` lines (warned once each).
        self.game_problems: list[str] = []

    # -- ratings ---------------------------------------------------------
    def initial_rating(self, puzzle_id: str) -> float:
        """A puzzle's rating before any attempt (from the difficulty estimate)."""
        return initial_rating(self._puzzle(puzzle_id)).rating

    def _puzzle(self, puzzle_id: str) -> Puzzle:
        found = self._lookup(puzzle_id)
        if found is not None:
            return found
        from ..quiz import library

        return library.get(puzzle_id)

    def _lookup(self, puzzle_id: str) -> Puzzle | None:
        """A puzzle of this trainer (library set or the learner's games) by id, without a library search."""
        if puzzle_id in self._by_id:
            return self._by_id[puzzle_id]
        return next((p for p in self._games if p.id == puzzle_id), None)

    # -- puzzles from the learner's games -------------------------------
    def game_puzzles(self) -> list[Puzzle]:
        """The puzzles saved from the learner's own games (``games_folder``), within the lessons taught.

        The folder is read again at each call, so a game reviewed after the
        trainer was made counts too; a file is loaded again only when it
        changed.  A file that does not load, has no question, or whose id is
        already taken (by a library puzzle or another file) is skipped with
        one :class:`ReviewQueueWarning`; nothing in the folder is ever
        written, moved or deleted.  Their answers are recorded but rated for
        nobody: these puzzles are picked from the learner's own mistakes and
        seen by one learner once, so a Glicko rating of them would measure
        nothing and would pull the learner's rating down for having been
        shown their mistakes.
        """
        from ..formats.safe_yaml import Diagnostic
        from ..quiz.loader import PuzzleFileError, iter_puzzle_files, load_puzzle

        folder = self.games_folder
        if folder is None:  # no data folder: the progress's problem says why
            return []
        try:
            files = list(iter_puzzle_files([folder])) if folder.is_dir() else []
        except OSError as err:
            self._problem(Diagnostic(str(folder), 1, 1, self._say("folder", reason=err.strerror or str(err))))
            files = []
        known = {p.id for p in self.all_puzzles}
        out: list[Puzzle] = []
        for file in sorted(files, key=_natural):
            try:
                st = file.stat()
                stamp = (st.st_mtime_ns, st.st_size)
            except OSError:
                stamp = (-1, -1)
            cached = self._game_files.get(file)
            if cached is not None and cached[0] == stamp:
                puzzle = cached[1]
            else:
                puzzle = None
                try:
                    puzzle = load_puzzle(file, lang=self.lang)
                except PuzzleFileError as err:
                    self._problem(err.diagnostics[0] if err.diagnostics else Diagnostic(str(file), 1, 1, str(err)))
                except Exception as err:  # noqa: BLE001 - a learner's file never stops the gym
                    self._problem(Diagnostic(str(file), 1, 1, f"{type(err).__name__}: {err}"))
                if puzzle is not None and puzzle.question is None:
                    self._problem(Diagnostic(str(file), 1, 1, self._say("no_question")))
                    puzzle = None
                self._game_files[file] = (stamp, puzzle)
            if puzzle is None:
                continue
            if puzzle.id in known:
                line, col = puzzle.marks.get("id") or (1, 1)
                self._problem(Diagnostic(str(file), line, col, self._say("taken", id=puzzle.id)))
                continue
            known.add(puzzle.id)
            out.append(puzzle)
        for gone in set(self._game_files) - set(files):
            del self._game_files[gone]
        self._games = out
        return [p for p in out if required_lesson(p) <= self.lessons]

    def _say(self, name: str, /, **params: object) -> str:
        from ..text.messages import message

        return message(f"review_queue.problem.{name}", self.lang, **params)

    def _problem(self, diagnostic: object) -> None:
        text = str(diagnostic)
        if text not in self.game_problems:
            self.game_problems.append(text)
            warnings.warn(self._say("warning", error=text), ReviewQueueWarning, 3)

    def is_from_games(self, puzzle_id: str) -> bool:
        """Whether a puzzle id is one of the puzzles saved from the learner's games."""
        return puzzle_id not in self._by_id and any(p.id == puzzle_id for p in self._games)

    def games_to_review(self) -> list[Puzzle]:
        """The puzzles from the learner's games not solved cleanly yet (tried or not), in saved order."""
        replay = self._replay()
        return [p for p in self.game_puzzles() if p.id not in replay.seen or p.id in replay.reviews]

    def _replay(self) -> _Replay:
        """The state of the rows so far, brought up to date with the rows added since the last read.

        Rows are only ever added, so the state is kept and fed the new rows alone (a year of practice
        is not replayed at every answer); a reset starts a fresh state; a new store (the progress fell
        back to memory) is read again from the start.
        """
        store = self.progress.store
        if self._state is None or self._state_store is not store:
            self._state, self._state_store, self._cursor = _Replay((), self), store, 0
        rows, self._cursor = self.progress.rows_since(self._cursor)
        if rows:
            resets = [i for i, row in enumerate(rows) if row.kind == "reset"]
            if resets:
                self._state = _Replay((), self)
                rows = rows[resets[-1] + 1 :]
            self._state.feed(rows, self)
        return self._state

    # -- whose progress: the name a teacher sees --------------------------------------------------

    @property
    def needs_name(self) -> bool:
        """Whether the learner's name is still to be asked (once: no hub name and none given yet)."""
        return not self.progress.named

    def set_name(self, name: str) -> str:
        """Keep the learner's name in the data folder (ValueError if it cannot be one); returns it as kept."""
        self.learner = self.progress.set_name(name)
        return self.learner

    @property
    def rating(self) -> float:
        """The learner's rating (Glicko-2; 1500 before any rated attempt)."""
        return self._replay().learner.rating

    @property
    def rd(self) -> float:
        """How unsure the learner's rating still is (the rating deviation)."""
        return self._replay().learner.rd

    def puzzle_rating(self, puzzle_id: str) -> float:
        """A puzzle's rating: its initial estimate, moved by the answers seen."""
        return self._puzzle_rating(puzzle_id).rating

    def _puzzle_rating(self, puzzle_id: str) -> Rating:
        return self._replay().puzzles.get(puzzle_id) or initial_rating(self._puzzle(puzzle_id))

    def theme_ratings(self) -> dict[str, tuple[float, int]]:
        """Per theme: the learner's rating on it and how many rated puzzles it rests on."""
        replay = self._replay()
        return {t: (r.rating, replay.theme_games[t]) for t, r in sorted(replay.themes.items())}

    def expected_success(self, puzzle_id: str) -> float:
        """The chance the learner answers this puzzle right (Glicko-2's E)."""
        return expected(self._replay().learner, self._puzzle_rating(puzzle_id))

    # -- recording -------------------------------------------------------
    def record(
        self,
        puzzle_id: str,
        correct: bool,
        hints: int = 0,
        seconds: float | None = None,
        *,
        answer: object = None,
        source: str = "trainer",
    ) -> None:
        """Record an answer (reason code and rule id of a wrong one are found by the engine)."""
        reason = rule = None
        puzzle = self._lookup(puzzle_id)
        if not correct and puzzle is not None and answer is not None:
            reason, rule = miss_reason(puzzle, answer)
        self.progress.record_attempt(
            puzzle_id,
            correct=correct,
            hints=hints,
            seconds=seconds,
            answer=answer,
            content_hash=content_hash(puzzle) if puzzle is not None else "",
            reason=reason,
            rule=rule,
            source=source,
        )
        self._after_record(puzzle_id, correct, hints)

    def session(self, puzzle: Puzzle | str, *, source: str = "gym") -> PuzzleSession:
        """A session for one puzzle that records into this trainer's store (a hint ends a streak)."""
        p = puzzle if isinstance(puzzle, Puzzle) else self._puzzle(puzzle)
        return PuzzleSession(
            p, progress=self.progress, source=source, on_record=self._after_record, on_hint=self._after_hint
        )

    def _after_record(self, puzzle_id: str, correct: bool | None, hints: int) -> None:
        if not self.streak_mode or puzzle_id != self._streak_on:
            return  # another puzzle (or a retry of one solved): the streak goes on
        if correct and not hints:
            self._streak_seen.append(puzzle_id)
            self._streak_on = None
        else:
            self._end_streak("hint" if correct else "miss" if correct is not None else "reveal")

    def _after_hint(self, puzzle_id: str) -> None:
        if self.streak_mode and puzzle_id == self._streak_on:
            self._end_streak("hint")

    def _end_streak(self, why: str) -> None:
        self.streak_mode = False
        self._streak_on = None
        self.streak_ended = (len(self._streak_seen), why)

    # -- choosing --------------------------------------------------------
    def current(self) -> Puzzle | None:
        """The puzzle the learner left unfinished (last one tried, not solved, solution not shown), if any."""
        visits = self._replay().visits
        if visits:
            last = visits[-1]
            allowed = {p.id for p in self.puzzles} | {p.id for p in self.game_puzzles()}
            if not last.solved and not last.revealed and last.puzzle_id in allowed:
                return self._puzzle(last.puzzle_id)
        return None

    def due(self) -> list[str]:
        """Missed puzzles whose spacing has passed, most overdue first; then the puzzles from the
        learner's games never answered yet, in the order they were saved."""
        replay = self._replay()
        games = self.game_puzzles()
        allowed = {p.id for p in self.puzzles} | {p.id for p in games}
        out = []
        for pid, (misses, last_index) in replay.reviews.items():
            waited = len(replay.visits) - 1 - last_index
            wait = SPACING * 2 ** (misses - 1)
            if pid in allowed and waited >= wait:
                out.append((wait - waited, pid))
        fresh = [p.id for p in games if p.id not in replay.seen and p.id not in replay.reviews]
        return [pid for _w, pid in sorted(out)] + fresh

    def next(self) -> Puzzle:
        """The next puzzle: a due review, else the unseen one nearest 70% success, else the least recent.

        In streak mode: the streak's next puzzle (see :meth:`start_streak`).
        """
        replay = self._replay()
        if self.streak_mode and self.puzzles:
            return self._next_in_streak()
        last = replay.visits[-1].puzzle_id if replay.visits else None
        due = [pid for pid in self.due() if pid != last]
        if due and not self.streak_mode:  # puzzles from the learner's games are due even with no others
            return self._puzzle(due[0])
        if not self.puzzles:
            raise LookupError("no puzzle to train with (none loaded, or all need a later lesson)")
        unseen = [p for p in self.puzzles if p.id not in replay.seen]
        if unseen:  # expected_success() from this one replay: each _replay() reads the store (docs/site.md)
            rated = replay.puzzles

            def success(p: Puzzle) -> float:
                return expected(replay.learner, rated.get(p.id) or initial_rating(self._puzzle(p.id)))

            return min(unseen, key=lambda p: (abs(success(p) - TARGET_SUCCESS), p.id))
        pending = [p for p in self.puzzles if p.id in replay.reviews and p.id != last]
        if pending:
            return min(pending, key=lambda p: (replay.last_visit.get(p.id, 0), p.id))
        others = [p for p in self.puzzles if p.id != last] or self.puzzles
        return min(others, key=lambda p: (replay.last_visit.get(p.id, 0), p.id))

    def for_me(self, showing: str | None = None, *, answered: bool = True) -> tuple[Puzzle, str | None]:
        """What "A puzzle for me" shows, and why the puzzle on show stays when it does.

        ``showing``: the puzzle on show, ``answered``: whether it was answered (or its solution
        shown).  The reason is ``"streak"`` (the streak's puzzle: answer it to go on) or
        ``"unanswered"`` (the puzzle the trainer picks is the one on show, not answered yet), else
        ``None`` (show the puzzle returned).
        """
        if self.streak_mode and showing is not None and showing == self._streak_on:
            return self._puzzle(showing), "streak"
        puzzle = self.next()
        if showing is not None and puzzle.id == showing and not answered:
            return puzzle, "unanswered"
        return puzzle, None

    def start_streak(self) -> Puzzle:
        """Start streak mode: each puzzle at a level never lower than the last, none solved twice in
        the streak, until the first mistake or hint.  During a streak: the streak puzzle on show
        (pressing Streak again starts nothing new)."""
        if self.streak_mode:
            return self._next_in_streak()
        self.streak_mode = True
        self._streak_seen = []
        self._streak_on = None
        self.streak_ended = None
        self._streak_keys = {p.id: self._streak_key(p) for p in self.puzzles}
        return self._next_in_streak()

    @property
    def streak_length(self) -> int:
        """Puzzles solved in the current (or last) streak."""
        return len(self._streak_seen)

    @property
    def streak_solved(self) -> tuple[str, ...]:
        """The ids of the puzzles solved in the current (or last) streak, in order."""
        return tuple(self._streak_seen)

    def _streak_key(self, puzzle: Puzzle) -> tuple[int, float]:
        return (puzzle.level or 0, self.puzzle_rating(puzzle.id))

    def _next_in_streak(self) -> Puzzle:
        """The streak puzzle on show, else the easiest one not solved in this streak that is harder than
        the last one: a higher level, or the same level and a higher rating at the streak's start, so
        each solve makes the next puzzle harder; puzzles the learner never solved come first within a
        level.  None left: the streak is complete."""
        if self._streak_on is not None:
            return self._puzzle(self._streak_on)
        keys = self._streak_keys
        floor = keys[self._streak_seen[-1]] if self._streak_seen else (-1, -math.inf)
        records = self.progress.records()
        left = [p for p in self.puzzles if p.id not in self._streak_seen and p.id in keys]
        harder = [p for p in left if keys[p.id] > floor]
        if not harder:
            self._end_streak("complete")
            raise LookupError("streak complete: every puzzle at this level or above was solved in it")
        solved = {pid for pid, r in records.items() if r.solved}
        pick = min(harder, key=lambda p: (keys[p.id][0], p.id in solved, keys[p.id][1], p.id))
        self._streak_on = pick.id
        return pick

    # -- what the learner sees ------------------------------------------
    def summary(self, puzzle_ids: Iterable[str] | None = None) -> Summary:
        """Rating, first-try rate, streak, themes and rules to practise, the rating history.

        ``solved``/``total`` count the puzzles of the lessons taught (or ``puzzle_ids``) and every
        other puzzle the learner already answered, e.g. one served before its lesson moved later.
        """
        replay = self._replay()
        records = replay.records  # what Progress.records() gives, kept up to date with the rows
        if puzzle_ids is not None:
            ids = list(puzzle_ids)
        else:  # the lessons' puzzles, and any other the learner already answered (progress is never lost)
            taught = {p.id for p in self.puzzles}
            ids = [p.id for p in self.all_puzzles if p.id in taught or p.id in records]
        themes = tuple(
            sorted(
                ((t, r.rating, replay.theme_games[t]) for t, r in replay.themes.items()),
                key=lambda x: (x[1], x[0]),
            )
        )
        weak = tuple(sorted(replay.missed_rules.items(), key=lambda kv: (-kv[1], kv[0])))
        return Summary(
            rating=replay.learner.rating,
            rd=replay.learner.rd,
            rated=replay.rated,
            first_try=replay.first_try,
            solved=sum(1 for pid in ids if pid in records and records[pid].solved),
            total=len(ids),
            streak=replay.streak,
            best_streak=replay.best_streak,
            themes=themes,
            weak_rules=weak,
            history=tuple(replay.history),
        )

    def records(self) -> dict[str, PuzzleRecord]:
        """Per puzzle: solved, answers, hints (what ``progress.records()`` gives, without reading every row)."""
        return dict(self._replay().records)

    def reset(self) -> None:
        """Start over (the old rows stay in the database, marked as before the reset)."""
        self.progress.reset()
        self.streak_mode = False
        self._streak_seen = []
        self._streak_on = None
        self.streak_ended = None


class _Replay:
    """Ratings and schedule computed from the rows, oldest first."""

    def __init__(self, rows: Sequence[Attempt], trainer: Trainer) -> None:
        self.learner = LEARNER_START
        self.puzzles: dict[str, Rating] = {}
        self.themes: dict[str, Rating] = {}
        self.theme_games: dict[str, int] = {}
        self.seen: set[str] = set()
        self.rated = self.first_try = self.streak = self.best_streak = 0
        self.history: list[float] = []
        self.missed_rules: dict[str, int] = {}
        self.visits: list[_Visit] = []
        self.reviews: dict[str, tuple[int, int]] = {}  # missed, not yet re-solved cleanly: (misses, last visit)
        self.last_visit: dict[str, int] = {}
        #: per puzzle: solved, answers, hints (:func:`battleline_lab.training.progress.records` of the same rows)
        self.records: dict[str, PuzzleRecord] = {}
        self._hints_before: dict[str, int] = {}
        self.feed(rows, trainer)

    def feed(self, rows: Iterable[Attempt], trainer: Trainer) -> None:
        """Bring the state up to date with more rows (after the last reset, resets left out), in insertion order."""
        hints_before = self._hints_before
        records = self.records
        for row in rows:
            if row.kind in ("game", "setting"):  # a game against a bot, a learner's choice: no puzzle's visit
                continue
            pid = row.puzzle_id
            record = records.get(pid)
            answered = row.kind == "answer"
            if record is None:
                records[pid] = PuzzleRecord(answered and bool(row.correct), int(answered), row.hints)
            else:
                records[pid] = PuzzleRecord(
                    record.solved or (answered and bool(row.correct)),
                    record.attempts + answered,
                    record.hints + row.hints,
                )
            if not self.visits or self.visits[-1].puzzle_id != pid:
                self.visits.append(_Visit(pid, len(self.visits)))
                hints_before[pid] = 0
            visit = self.visits[-1]
            self.last_visit[pid] = visit.index
            if row.kind == "hint":
                hints_before[pid] += row.hints
                continue
            if row.kind not in ("answer", "reveal"):
                continue
            hints_before[pid] += row.hints
            correct = row.kind == "answer" and bool(row.correct)
            if row.kind == "answer" and not correct and row.rule:
                self.missed_rules[row.rule] = self.missed_rules.get(row.rule, 0) + 1
            first_of_visit = visit.clean is None
            if first_of_visit:
                clean = correct and hints_before[pid] == 0
                self.visits[-1] = visit = _Visit(pid, visit.index, clean, correct, row.kind == "reveal")
                self._schedule(pid, clean, visit.index)
                self.streak = self.streak + 1 if clean else 0
                self.best_streak = max(self.best_streak, self.streak)
            else:
                self.visits[-1] = visit = _Visit(
                    pid, visit.index, visit.clean, visit.solved or correct, visit.revealed or row.kind == "reveal"
                )
            if pid not in self.seen:
                self.seen.add(pid)
                self._rate(pid, _score(correct, hints_before[pid]), trainer)

    def _schedule(self, pid: str, clean: bool, index: int) -> None:
        if clean:
            self.reviews.pop(pid, None)
        else:
            misses = self.reviews.get(pid, (0, index))[0]
            self.reviews[pid] = (misses + 1 if misses < 4 else misses, index)

    def _rate(self, pid: str, score: float, trainer: Trainer) -> None:
        if trainer.is_from_games(pid):
            return  # a puzzle from the learner's own games: recorded, rated for nobody (Trainer.game_puzzles)
        try:
            puzzle = trainer._puzzle(pid)
        except KeyError:
            return  # a puzzle no longer in the library: its rows stay, unrated
        before = self.learner
        p_rating = self.puzzles.get(pid) or initial_rating(puzzle)
        self.learner = update(before, [(p_rating, score)])
        self.puzzles[pid] = update(p_rating, [(before, 1.0 - score)])
        theme = trainer._themes.get(pid) or _theme(puzzle)
        t_rating = self.themes.get(theme, LEARNER_START)
        self.themes[theme] = update(t_rating, [(p_rating, score)])
        self.theme_games[theme] = self.theme_games.get(theme, 0) + 1
        self.rated += 1
        self.first_try += score == 1.0
        self.history.append(self.learner.rating)


# -- one puzzle on screen ---------------------------------------------------


class PuzzleSession:
    """One puzzle being worked on: state (``waiting``/``right``/``wrong``), answers, hints, proof steps.

    Only the first answer counts for the rating (:class:`Trainer`); a wrong answer's feedback
    says where to look (:attr:`Feedback.nudge`); the solution opens on request
    (:meth:`show_solution`), with the last hint, or after :data:`SOLUTION_AFTER` wrong answers.
    Every answer, hint and revealed solution is recorded in ``progress`` (when
    given; a function giving the progress is called at the first record, so a
    widget nobody answers opens no database); ``on_record(puzzle_id, correct,
    hints)`` is called after each.

    >>> from battleline_lab.quiz import library
    >>> s = PuzzleSession(library.get("seed-blue-seven-in-your-hand"))
    >>> f = s.answer(True)
    >>> f.verdict, f.reason, f.rule, s.state
    ('wrong', 'hand_not_evidence', 'R13', 'wrong')
    >>> s.hint(), s.hint(), s.hint(), s.revealed, s.step_index
    (1, 2, 3, True, 0)
    >>> s.step(+5) == len(s.proof("en")) - 1  # the session knows its proof: the last step, no further
    True
    """

    def __init__(
        self,
        puzzle: Puzzle,
        *,
        progress: Progress | Callable[[], Progress] | None = None,
        source: str = "lesson",
        on_record: Callable[[str, bool | None, int], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_hint: Callable[[str], None] | None = None,
    ) -> None:
        self.puzzle = puzzle
        self.progress = progress
        self.source = source
        self.on_record = on_record
        self.on_hint = on_hint
        self._clock = clock
        self.state = "waiting"
        self.attempts = 0
        self.hint_level = 0
        self._unrecorded_hints = 0
        self.step_index: int | None = None
        self.revealed = False
        #: the solution was opened before a right answer (asked for, the last hint, a second miss)
        self.solution_seen = False
        self.last_answer: object = None
        self.feedback: Feedback | None = None
        self.hash = content_hash(puzzle)
        self._started = self._now()
        self._proofs: dict[str, list[View]] = {}  # the proof step by step, per language (computed once)

    def _now(self) -> float:
        return float(self._clock())

    def _progress(self) -> Progress | None:
        if self.progress is not None and not isinstance(self.progress, Progress):
            self.progress = self.progress()
        return self.progress

    def _record(self, kind: str, correct: bool | None, answer: object = None, feedback: Feedback | None = None) -> None:
        hints, self._unrecorded_hints = self._unrecorded_hints, 0
        progress = self._progress()
        if progress is not None:
            seconds = round(self._now() - self._started, 3)
            if kind == "answer":
                progress.record_attempt(
                    self.puzzle.id,
                    correct=bool(correct),
                    hints=hints,
                    seconds=seconds,
                    answer=answer,
                    content_hash=self.hash,
                    reason=feedback.reason if feedback else None,
                    rule=feedback.rule if feedback else None,
                    source=self.source,
                )
            else:
                progress.record_reveal(self.puzzle.id, hints=hints, content_hash=self.hash, source=self.source)
        if self.on_record is not None:
            self.on_record(self.puzzle.id, correct, self.hint_level)

    def answer(self, value: object) -> Feedback:
        """Judge an answer with the engine, record it, and say why a wrong one is wrong (as data)."""
        if self.state == "right":
            assert self.feedback is not None
            return self.feedback
        correct = self.puzzle.is_correct(_plain(value))
        self.attempts += 1
        self.last_answer = value
        if correct:
            feedback = Feedback("right", key="widget.feedback.right")
            self.state = "right"
            self.reveal(record=False)
        else:
            judged = _judge(self.puzzle, _plain(value))
            feedback = judged if judged is not None and judged.verdict == "wrong" else Feedback("wrong", key=_WRONG)
            self.state = "wrong"
        self.feedback = feedback
        self._record("answer", correct, _plain(value), feedback)
        if not correct and self.attempts >= SOLUTION_AFTER:
            self.reveal()  # a second miss: guessing on would teach nothing; the solution, recorded as seen
        return feedback

    def show_solution(self) -> None:
        """The learner asked for the solution: it opens (with its proof) and, before a right answer,
        is recorded as seen (a ``reveal`` row)."""
        self.reveal()

    def hint(self) -> int:
        """Take the next hint of the ladder; the last one shows the solution.  Returns the hint level."""
        if self.puzzle.question is None or self.hint_level >= HINT_LEVELS:
            return self.hint_level
        self.hint_level += 1
        self._unrecorded_hints += 1
        if self.on_hint is not None and self.state != "right":
            self.on_hint(self.puzzle.id)
        if self.hint_level >= HINT_LEVELS:
            self.reveal()
        return self.hint_level

    def reveal(self, *, record: bool = True) -> None:
        """Open the step-by-step solution; before a right answer this is recorded as a miss."""
        if self.step_index is None:
            self.step_index = 0
        if not self.revealed:
            self.revealed = True
            if self.state != "right":
                self.solution_seen = True
                if record:
                    self._record("reveal", False)

    def explanation(self) -> object:
        """The engine's explanation of the puzzle (:meth:`~battleline_lab.quiz.puzzle.Puzzle.explain`), made once."""
        if not hasattr(self, "_explanation"):
            self._explanation = self.puzzle.explain()
        return self._explanation

    def proof(self, lang: str = DEFAULT_LANGUAGE) -> list[View]:
        """The solution step by step in ``lang``, one view per step (the question's words of the engine's proof)."""
        question = self.puzzle.question
        if question is None:
            return []
        if lang not in self._proofs:
            self._proofs[lang] = question.solution_steps(self.puzzle.position, self.explanation(), lang)
        return self._proofs[lang]

    def step(self, delta: int) -> int | None:
        """Move through the solution by ``delta`` (clamped to its steps); the step shown."""
        if self.step_index is None:
            return self.step_index
        # every language has the same steps: count them in one already made
        total = len(next(iter(self._proofs.values()))) if self._proofs else len(self.proof())
        if total <= 0:
            return self.step_index
        self.step_index = max(0, min(total - 1, self.step_index + delta))
        return self.step_index

    def miss(self, answer: object, feedback: Feedback) -> Feedback:
        """A wrong answer judged by a stage after the question's own answer (a claim's evidence): recorded as one.

        The right yes/no of a claim opens its evidence stage unrecorded; the first card tapped is
        the answer that counts, so a wrong one is an attempt like a wrong yes/no.
        """
        if self.state == "right":
            assert self.feedback is not None
            return self.feedback
        self.attempts += 1
        self.last_answer = answer
        self.state = "wrong"
        self.feedback = feedback
        self._record("answer", False, answer, feedback)
        return feedback

    def close(self) -> None:
        """Leaving the puzzle: hints taken without an answer are recorded."""
        progress = self._progress() if self._unrecorded_hints else None
        if progress is not None:
            for _ in range(self._unrecorded_hints):
                progress.record_hint(self.puzzle.id, content_hash=self.hash, source=self.source)
            self._unrecorded_hints = 0

    def __repr__(self) -> str:
        return f"<PuzzleSession {self.puzzle.id}: {self.state}>"


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def _ghosts(puzzle: Puzzle, value: object) -> tuple[tuple[tuple[int, Side], tuple[Card, ...]], ...]:
    """The opponent's completion that beats a wrong claim (the counterexample to draw as ghosts)."""
    feedback = _judge(puzzle, _plain(value))
    return feedback.ghosts if feedback is not None else ()


_WRONG = "widget.feedback.wrong"


def export_document(progress: Progress, trainer: Trainer | None = None) -> dict[str, object]:
    """One learner's attempts and ratings as a JSON-ready document (``progress export``)."""
    trainer = trainer if trainer is not None else Trainer(progress=progress)
    summary = trainer.summary()
    rows = progress.attempts()
    seen = sorted({r.puzzle_id for r in rows if r.puzzle_id})
    puzzles = {}
    for pid in seen:
        try:
            p = trainer._puzzle(pid)
        except KeyError:
            continue
        puzzles[pid] = {
            "level": p.level,
            "theme": GAMES_THEME if trainer.is_from_games(pid) else trainer._themes.get(pid) or _theme(p),
            "rating": round(trainer.puzzle_rating(pid), 1),
            "initial_rating": round(trainer.initial_rating(pid), 1),
        }
    return {
        "format": "battleline-lab-progress",
        "version": 1,
        "learner": progress.learner,
        "learner_id": progress.learner_id,
        "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "rating": {"rating": round(summary.rating, 1), "rd": round(summary.rd, 1)},
        "first_try": summary.first_try,
        "rated": summary.rated,
        "themes": {t: {"rating": round(r, 1), "puzzles": n} for t, r, n in summary.themes},
        "missed_rules": dict(summary.weak_rules),
        "puzzles": puzzles,
        # every row says whose it is: a row from before ids is the folder's learner's
        "attempts": [_jsonable(r if r.learner_id else replace(r, learner_id=progress.learner_id)) for r in rows],
    }


def _jsonable(row: Attempt) -> dict[str, object]:
    data = row.to_json()
    if data.get("answer") is not None:
        try:
            data["answer"] = json.loads(str(data["answer"]))
        except ValueError:
            pass
    return data
