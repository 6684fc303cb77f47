"""The puzzle library that ships with battleline_lab, reachable by id, theme or level.

The library is the folder of puzzle files (one sub-folder per theme).  In an
installed wheel it is package data (``battleline_lab/puzzles/``); in a git
checkout it is the ``puzzles/`` folder beside the package.  Lessons, widgets
and the gym name library puzzles by id instead of by path, so they work
wherever the package is installed.  A teacher's own folder works everywhere a
library puzzle does: :func:`resolve` takes an id, a file or a folder.

The lessons ship the same way (:func:`lessons_root`: ``battleline_lab/lessons/``
in a wheel, ``notebooks/`` in a checkout); ``battleline-lab lessons`` copies them
into a folder of the learner's.

>>> get("one-end-open").question
ClaimQuestion(flag=6)
>>> path("one-end-open").parent.name
'blocked-wedges'
>>> "tie-rule" in themes()
True
>>> len(puzzles(theme="seed-examples")), len(puzzles(theme="seed-examples", level=1))
(5, 2)
>>> (lessons_root() / "03-claim-proofs.ipynb").is_file()
True
>>> get("one-end-opn")
Traceback (most recent call last):
...
battleline_lab.quiz.library.UnknownPuzzleError: no library puzzle has the id 'one-end-opn' (did you mean 'one-end-open'?)
"""  # noqa: E501 - a doctest traceback line cannot wrap

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path

from .puzzle import Puzzle

__all__ = [
    "UnknownPuzzleError",
    "class_folder",
    "get",
    "ids",
    "lessons_root",
    "path",
    "puzzles",
    "resolve",
    "root",
    "themes",
]


class UnknownPuzzleError(KeyError):
    """No library puzzle has that id; the message names the id and the closest ones."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0])


def _bundled(packaged_name: str, checkout_name: str, what: str) -> Path:
    """A folder shipped as package data (wheel), else the checkout's folder of the same content."""
    packaged = Path(str(resources.files("battleline_lab"))) / packaged_name
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / checkout_name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"{what} is missing: neither {packaged} nor {checkout} exists")


def root() -> Path:
    """The library folder: package data in a wheel, ``puzzles/`` in a checkout."""
    return _bundled("puzzles", "puzzles", "the puzzle library")


def class_folder() -> Path | None:
    """The teacher's puzzle folder, ``$BATTLELINE_PUZZLES`` (``None``: not set): what the gym and the
    trainer serve when no puzzles are named.  Raises :class:`~battleline_lab.formats.settings.SettingError`
    when it names no folder."""
    from ..formats.settings import puzzles_setting

    return puzzles_setting()


def lessons_root() -> Path:
    """The lessons folder: package data in a wheel (``lessons/``), ``notebooks/`` in a checkout."""
    return _bundled("lessons", "notebooks", "the lessons")


@cache
def _index(folder: Path) -> Mapping[str, tuple[Puzzle, Path]]:
    import warnings

    from .loader import PuzzleFileError, load_folder

    def skipped(_file: Path, err: PuzzleFileError) -> None:  # one bad file located, never the library lost
        for line in err.diagnostics:
            warnings.warn(str(line), UserWarning, stacklevel=5)

    return {puzzle.id: (puzzle, file) for file, puzzle in load_folder([folder], on_error=skipped)}


def _library() -> Mapping[str, tuple[Puzzle, Path]]:
    return _index(root())


def ids() -> tuple[str, ...]:
    """Every library puzzle's id, sorted."""
    return tuple(sorted(_library()))


def _entry(puzzle_id: str) -> tuple[Puzzle, Path]:
    library = _library()
    try:
        return library[puzzle_id]
    except KeyError:
        close = difflib.get_close_matches(puzzle_id, library, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UnknownPuzzleError(f"no library puzzle has the id {puzzle_id!r}{hint}") from None


def get(puzzle_id: str) -> Puzzle:
    """The library puzzle with this id; :class:`UnknownPuzzleError` if there is none."""
    return _entry(puzzle_id)[0]


def path(puzzle_id: str) -> Path:
    """The file of the library puzzle with this id."""
    return _entry(puzzle_id)[1]


def themes() -> tuple[str, ...]:
    """The theme folders of the library, sorted."""
    return tuple(sorted({file.parent.relative_to(root()).parts[0] for _p, file in _library().values()}))


def theme_of(puzzle_id: str) -> str:
    """The theme folder a library puzzle lives in."""
    return path(puzzle_id).relative_to(root()).parts[0]


def puzzles(*, theme: str | None = None, level: int | None = None) -> list[Puzzle]:
    """Library puzzles, easiest first (by level, then file), optionally of one theme or level."""
    chosen = [
        (puzzle, file)
        for puzzle, file in _library().values()
        if (theme is None or file.relative_to(root()).parts[0] == theme) and (level is None or puzzle.level == level)
    ]
    chosen.sort(key=lambda pf: (pf[0].level if pf[0].level is not None else 0, str(pf[1])))
    return [puzzle for puzzle, _file in chosen]


def resolve(source: str | os.PathLike[str]) -> Path:
    """A puzzle file or folder for ``source``: an existing path as it is, else a library id.

    ``resolve("library")`` (or ``""``) is the whole library folder; a theme name
    that is not a path is that theme's folder.  Anything else that is not a
    path is looked up as a puzzle id (:class:`UnknownPuzzleError` if unknown).
    """
    text = os.fspath(source)
    candidate = Path(text)
    if text and candidate.exists():
        return candidate
    if text in ("", "library"):
        return root()
    if text in themes():
        return root() / text
    return path(text)
