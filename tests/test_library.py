"""The puzzle library as a whole: size, themes, unique ids and positions, metadata, true answers.

Each puzzle is also checked on its own, in one pass over the library that names every
failing file: it loads (legal position: no card twice, slot counts with Mud, R18 tactics
counts, one Leader each, ``first_complete`` where a tie needs it), and its answer equals
the engine's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from pathlib import Path

import pytest

from battleline_lab.authoring import position_key, puzzle_key
from battleline_lab.cli import main as cli_main
from battleline_lab.core.position import Position
from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle
from battleline_lab.quiz.puzzle import Puzzle
from tests.every import check_every

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"

#: The theme folders of the teaching library; other folders hold the first examples.
THEMES = (
    "ranking",
    "sums",
    "tie-rule",
    "blocked-wedges",
    "counting-values",
    "battalion-skirmish-reach",
    "at-best-a-tie",
    "discards-as-evidence",
    "own-hand-trap",
    "fog",
    "mud",
    "wildcards-yours",
    "wildcards-theirs",
    "mixed",
)

ALL_FILES = sorted(iter_puzzle_files([PUZZLES]))
THEME_FILES = [f for f in ALL_FILES if f.relative_to(PUZZLES).parts[0] in THEMES]


def _rel(path: Path) -> str:
    return path.relative_to(PUZZLES).as_posix()


@pytest.fixture(scope="module")
def library() -> dict[Path, Puzzle]:
    return {f: load_puzzle(f) for f in ALL_FILES}


def test_library_size() -> None:
    assert len(THEME_FILES) >= 75, f"the theme folders hold {len(THEME_FILES)} puzzles, not 75"
    assert len(ALL_FILES) >= 80, f"puzzles/ holds {len(ALL_FILES)} puzzles, not 80"


@pytest.mark.parametrize("theme", THEMES)
def test_every_theme_has_three_puzzles(theme: str) -> None:
    files = [f for f in THEME_FILES if f.relative_to(PUZZLES).parts[0] == theme]
    assert len(files) >= 3, f"puzzles/{theme} has {len(files)} puzzles"


def test_puzzle_loads_and_its_answer_is_the_engines() -> None:
    check_every(((_rel(p), p) for p in ALL_FILES), _loads_and_its_answer_is_the_engines)


def _loads_and_its_answer_is_the_engines(path: Path) -> None:
    puzzle = load_puzzle(path)  # raises PuzzleFileError (FILE:LINE:COL) for an illegal position
    assert puzzle.position.problems() == []
    assert puzzle.question is not None, "a library puzzle asks a question"
    expected = puzzle.question.solve(puzzle.position)
    assert puzzle.question.is_correct(puzzle.position, puzzle.answer), (
        f"{_rel(path)}: the author says {puzzle.answer!r}, the engine {expected!r}"
    )
    if puzzle.question.needs_game_in_progress:
        assert puzzle.position.winner() is None  # R16: claimed flags must not have ended the game


def test_puzzle_has_level_topics_title_and_note() -> None:
    check_every(((_rel(p), p) for p in ALL_FILES), _has_level_topics_title_and_note)


def _has_level_topics_title_and_note(path: Path) -> None:
    puzzle = load_puzzle(path)
    assert puzzle.level in (1, 2, 3, 4, 5)
    assert puzzle.topics, "topics (shown before the answer)"
    assert puzzle.title_text("en") != puzzle.id, "a title of its own"
    note = puzzle.note_text("en")
    assert note and len(note.split()) >= 8, "a note that says what the puzzle teaches"


def test_ids_are_unique(library: dict[Path, Puzzle]) -> None:
    counts = Counter(p.id for p in library.values())
    assert [i for i, n in counts.items() if n > 1] == []


def test_theme_files_are_named_after_their_ids(library: dict[Path, Puzzle]) -> None:
    wrong = [_rel(f) for f in THEME_FILES if library[f].id != f.stem]
    assert wrong == []


def test_no_two_puzzles_share_a_position_and_question(library: dict[Path, Puzzle]) -> None:
    seen: dict[Hashable, str] = {}
    duplicates = []
    for path, puzzle in library.items():
        assert puzzle.question is not None, _rel(path)
        key = puzzle_key(puzzle)
        if key in seen:
            duplicates.append((seen[key], _rel(path)))
        seen.setdefault(key, _rel(path))
    assert duplicates == []


def test_position_key_ignores_card_order_only() -> None:
    a = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}})
    b = Position.build({5: {"you": "r5 r3 r4", "opponent": "b8"}})
    c = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}}, turn="opponent")
    d = Position.build({5: {"you": "r3 r4 r5"}, 4: {"opponent": "b8"}})
    assert position_key(a) == position_key(b)
    assert len({position_key(a), position_key(c), position_key(d)}) == 3


def test_theme_puzzles_use_every_question_kind_mostly_claim(library: dict[Path, Puzzle]) -> None:
    kinds = Counter(q.kind for f in THEME_FILES if (q := library[f].question) is not None)
    assert set(kinds) == {"claim", "claimable", "compare", "formation"}
    assert kinds["claim"] > len(THEME_FILES) / 2


def test_theme_puzzles_span_the_levels(library: dict[Path, Puzzle]) -> None:
    levels = Counter(library[f].level for f in THEME_FILES)
    assert set(levels) == {1, 2, 3, 4, 5}


def test_claim_puzzles_have_both_answers(library: dict[Path, Puzzle]) -> None:
    """Not every claim is claimable: the false ones teach the counterexample (R12)."""
    answers = Counter(
        library[f].answer for f in THEME_FILES if (q := library[f].question) is not None and q.kind == "claim"
    )
    assert answers[True] >= 10 and answers[False] >= 10


def test_battleline_lab_check_passes_on_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli_main(["check", str(PUZZLES)])
    out, err = capsys.readouterr()
    assert status == 0, err
    # no error; warnings only for the positions tests/test_reachability.py lists as unable to arise in a game
    assert all(": warning: this position cannot arise in a game" in line for line in err.splitlines()), err
    assert str(len(ALL_FILES)) in out
