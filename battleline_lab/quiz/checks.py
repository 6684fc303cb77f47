"""One check of puzzle files, shared by ``battleline-lab check``, the pytest plugin, the editor and widgets.

:func:`check_paths` (paths as a user gives them: files and folders) and
:func:`check_files` (a set of files, as the pytest plugin collects them) run
every check there is and return a :class:`FileReport` per file:

- the file loads (safe YAML, the format, the position rules: every error of
  :mod:`battleline_lab.quiz.loader`);
- the stated answer is the engine's (:func:`battleline_lab.quiz.loader.check_answer`);
- *set* checks: an id used by two files of the set is reported on both;
- the position can arise in a game (:mod:`battleline_lab.core.reachability`): a
  located **warning**, an error with ``strict``.

A path that does not exist is one error, ``PATH:1:1: error: no such file or
folder``; a folder without puzzle files is one error too.  Whatever front end
calls it, a file fails exactly when its report has errors.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "a.yaml").write_text("id: same\\nflags: {5: {you: [r3, r4, r5], opponent: [b8, b9]}}\\n")
>>> _ = (folder / "b.yaml").write_text("id: same\\n")
>>> [len(r.errors) for r in check_paths([folder])]
[1, 1]
>>> print(check_paths([folder / "nope"])[0].diagnostics[0])  # doctest: +ELLIPSIS
/...nope:1:1: error: no such file or folder
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..core.position import Problem
from ..core.reachability import unreachable
from ..formats.safe_yaml import escape_control
from ..text.messages import message
from .loader import Diagnostic, PuzzleFileError, check_answer, iter_puzzle_files, load_puzzle, locate
from .puzzle import Puzzle

__all__ = ["CheckWarning", "FileReport", "check_files", "check_paths", "check_puzzle", "render_reach_problem"]


@dataclass(frozen=True)
class CheckWarning(Diagnostic):
    """A finding that is not an error unless asked (``--strict``): ``FILE:LINE:COL: warning: message``."""

    def __str__(self) -> str:
        return f"{escape_control(self.file)}:{self.line}:{self.col}: warning: {escape_control(self.message)}"

    def as_error(self) -> Diagnostic:
        return Diagnostic(self.file, self.line, self.col, self.message)


@dataclass
class FileReport:
    """What the check found in one file: ``invalid`` when it did not load; ``diagnostics`` in file order."""

    name: str
    puzzle: Puzzle | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    invalid: bool = False
    is_file: bool = True  # False for a path that is missing or holds no puzzle files

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if not isinstance(d, CheckWarning)]

    @property
    def warnings(self) -> list[CheckWarning]:
        return [d for d in self.diagnostics if isinstance(d, CheckWarning)]

    @property
    def ok(self) -> bool:
        return not self.errors


def render_reach_problem(problem: Problem, lang: str = "en") -> str:
    """A :mod:`~battleline_lab.core.reachability` finding as text (catalogue ``reach.<code>``)."""
    params = {}
    for name, value in problem.params:
        params[name] = message(f"side.{value.value}", lang) if hasattr(value, "other") else value
        if hasattr(value, "other"):  # "your hand", "the opponent's hand": never "the hand of you"
            params[f"{name}_possessive"] = message(f"side.{value.value}.possessive", lang)
    return message(f"reach.{problem.code}", lang, **params)


def check_puzzle(puzzle: Puzzle, name: str, *, lang: str = "en", strict: bool = False) -> list[Diagnostic]:
    """The answer and reachability checks of one loaded puzzle (no set checks), located in ``name``."""
    out = list(check_answer(puzzle, name, lang))
    for problem in unreachable(puzzle.position):
        line, col = locate(puzzle, problem.path)
        text = message("reach.prefix", lang, reason=render_reach_problem(problem, lang))
        warning = CheckWarning(name, line, col, text)
        out.append(warning.as_error() if strict else warning)
    return out


def _report(path: Path, name: str, lang: str, strict: bool) -> FileReport:
    try:
        puzzle = load_puzzle(path, lang=lang)
    except PuzzleFileError as err:
        diagnostics = [Diagnostic(name, d.line, d.col, d.message) for d in err.diagnostics]
        return FileReport(name, None, diagnostics, invalid=True)
    return FileReport(name, puzzle, check_puzzle(puzzle, name, lang=lang, strict=strict))


def check_files(
    files: Sequence[str | os.PathLike[str]],
    names: Sequence[str] | None = None,
    *,
    lang: str = "en",
    strict: bool = False,
    on_file: Callable[[], object] | None = None,
) -> list[FileReport]:
    """Check a set of puzzle files (``names``: how to call them in messages; default ``str(file)``).

    ``on_file`` is called after each file (a progress bar advances there).
    """
    paths = [Path(f) for f in files]
    shown = list(names) if names is not None else [str(p) for p in paths]
    reports = []
    for p, n in zip(paths, shown):
        reports.append(_report(p, n, lang, strict))
        if on_file is not None:
            on_file()
    by_id: dict[str, list[FileReport]] = {}
    for report in reports:
        if report.puzzle is not None and "id" in report.puzzle.marks:  # an id the author wrote
            by_id.setdefault(report.puzzle.id, []).append(report)
    for puzzle_id, sharing in by_id.items():
        if len(sharing) < 2:
            continue
        for report in sharing:
            assert report.puzzle is not None
            others = ", ".join(r.name for r in sharing if r is not report)
            line, col = report.puzzle.marks.get("id", (1, 1))
            report.diagnostics.append(
                Diagnostic(report.name, line, col, message("cli.check.duplicate_id", lang, id=puzzle_id, other=others))
            )
    for report in reports:
        report.diagnostics.sort(key=lambda d: (d.line, d.col))
    return reports


def _library_path(text: str) -> Path | None:
    """The bundled library's folder or file that ``text`` names (``library``, a theme, an id), or None."""
    from . import library

    try:
        return library.resolve(text)
    except (LookupError, FileNotFoundError):
        return None


def collect_files(paths: Iterable[str | os.PathLike[str]], *, lang: str = "en") -> tuple[list[Path], list[FileReport]]:
    """The puzzle files under ``paths`` (each once), and one error report per missing path or empty folder.

    A path that does not exist but names the bundled library (``library``, a theme or a puzzle id)
    stands for the library's folder or file.
    """
    files: list[Path] = []
    seen: set[Path] = set()
    missing: list[FileReport] = []
    for path in paths:
        text = os.fspath(path)
        if not text:  # never "the current folder"
            empty = Diagnostic(text, 1, 1, message("files.not_regular.empty_path", lang))
            missing.append(FileReport(text, None, [empty], True, False))
            continue
        p = Path(text) if Path(text).exists() else _library_path(text)
        if p is None:
            missing.append(
                FileReport(
                    str(path), None, [Diagnostic(str(path), 1, 1, message("teachers.no_such_path", lang))], True, False
                )
            )
            continue
        found = list(iter_puzzle_files([p]))
        if not found:
            missing.append(
                FileReport(
                    str(path), None, [Diagnostic(str(path), 1, 1, message("cli.check.no_files", lang))], True, False
                )
            )
        for f in found:
            if f not in seen:
                seen.add(f)
                files.append(f)
    return files, missing


def check_paths(paths: Iterable[str | os.PathLike[str]], *, lang: str = "en", strict: bool = False) -> list[FileReport]:
    """Check the puzzle files under ``paths`` as one set; a missing path or an empty folder is one error."""
    files, missing = collect_files(paths, lang=lang)
    return missing + check_files(files, lang=lang, strict=strict)
