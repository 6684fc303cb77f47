"""A pytest plugin: every puzzle file is a test item, so a folder of puzzles gets CI the way notebooks get nbval.

Each puzzle file becomes one test item.  The items of a run are checked as one
set by :func:`battleline_lab.quiz.checks.check_files`, the very function behind
``battleline-lab check``: the file loads, its stated answer is the engine's, its
id is used by no other collected file, and its position can arise in a game
(a warning, shown in pytest's warnings summary; an error with
``--battleline-strict`` or the ``battleline_strict`` ini option, like
``check --strict``).  An item fails exactly where ``check`` reports an error,
with the checker's ``FILE:LINE:COL: error: message`` lines, not a traceback.

The plugin is registered under the ``pytest11`` entry point, so installing
``battleline_lab`` makes it available; it collects nothing until asked, so
that YAML files that are not puzzles (CI configs, game records) are never
touched.  A YAML file (``*.yaml``, ``*.yml``) is collected as a puzzle when

- pytest runs with ``--battleline-puzzles`` (every YAML file under the paths
  given to pytest is then a puzzle), or
- it lies under a folder listed in the ``battleline_puzzles`` ini option
  (paths relative to the ini file's folder), e.g. in ``pyproject.toml``::

      [tool.pytest.ini_options]
      battleline_puzzles = ["puzzles"]
      testpaths = ["tests", "puzzles"]

Files and folders whose name starts with a dot are skipped, as by
``battleline-lab check``.  Items are named after the puzzle file and carry the
``battleline_puzzle`` marker (``pytest -m battleline_puzzle`` runs only them).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from .quiz.checks import FileReport, check_files
from .quiz.loader import SUFFIXES, Diagnostic, check_answer

__all__ = ["PuzzleCheckError", "PuzzleFile", "PuzzleItem", "PuzzleWarning", "check_answer"]

_MARKER = "battleline_puzzle"
_REPORTS = pytest.StashKey[dict[Path, FileReport]]()
_COLLECTED = pytest.StashKey[list["PuzzleItem"]]()


class PuzzleWarning(UserWarning):
    """A puzzle that passes but deserves a look: a position that cannot arise in a game."""


class PuzzleCheckError(Exception):
    """A puzzle file that does not load, or whose answer is not the engine's; holds the diagnostics."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        super().__init__("\n".join(str(d) for d in diagnostics))
        self.diagnostics = list(diagnostics)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("battleline_lab", "Battle Line puzzle files")
    group.addoption(
        "--battleline-puzzles",
        action="store_true",
        default=False,
        help="collect every *.yaml/*.yml file under the given paths as a Battle Line puzzle and check it",
    )
    group.addoption(
        "--battleline-strict",
        action="store_true",
        default=False,
        help="fail puzzles whose position cannot arise in a game (as battleline-lab check --strict)",
    )
    # The ini types go through a dict: mypy 1.20 misreads addini's Literal ``type`` parameter
    # (maybe-unrecognized-str-typeform), and only with a fresh cache.
    strict: dict[str, Any] = {"type": "bool", "default": False}
    paths: dict[str, Any] = {"type": "paths", "default": []}
    parser.addini("battleline_strict", help="as --battleline-strict", **strict)
    parser.addini(
        "battleline_puzzles",
        help="folders whose *.yaml/*.yml files are Battle Line puzzles, checked as test items",
        **paths,
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{_MARKER}: a Battle Line puzzle file checked against the engine")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Remember every collected puzzle before ``-k``/``-m`` deselect some: the set checks see them all."""
    config.stash[_COLLECTED] = [i for i in items if isinstance(i, PuzzleItem)]


def _is_puzzle_path(path: Path, config: pytest.Config) -> bool:
    if path.suffix not in SUFFIXES or path.name.startswith("."):
        return False
    if config.getoption("battleline_puzzles"):
        return True
    folders: list[Path] = config.getini("battleline_puzzles")
    resolved = path.resolve()
    return any(resolved.is_relative_to(Path(folder).resolve()) for folder in folders)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> PuzzleFile | None:
    if _is_puzzle_path(file_path, parent.config):
        file: PuzzleFile = PuzzleFile.from_parent(parent, path=file_path)
        return file
    return None


class PuzzleFile(pytest.File):
    """A puzzle file: one item, named after the file."""

    def collect(self) -> list[PuzzleItem]:
        item: PuzzleItem = PuzzleItem.from_parent(self, name=self.path.name)
        item.add_marker(_MARKER)
        return [item]


class PuzzleItem(pytest.Item):
    """Load the puzzle and verify its answer; a failure shows the checker's ``FILE:LINE:COL: error:`` lines."""

    def _display_name(self) -> str:
        try:
            return str(self.path.relative_to(self.config.invocation_params.dir))
        except ValueError:
            return str(self.path)

    def _reports(self) -> dict[Path, FileReport]:
        """Every collected puzzle file checked once, as one set (ids across files), cached for the session."""
        stash = self.config.stash
        if _REPORTS not in stash:
            items = self.config.stash.get(_COLLECTED, None) or [self]
            strict = bool(self.config.getoption("battleline_strict") or self.config.getini("battleline_strict"))
            checked = check_files([i.path for i in items], [i._display_name() for i in items], strict=strict)
            stash[_REPORTS] = {i.path: r for i, r in zip(items, checked)}
        reports = stash[_REPORTS]
        if self.path not in reports:  # collected outside the session's list (a plugin reordering items)
            reports[self.path] = check_files([self.path], [self._display_name()])[0]
        return reports

    def runtest(self) -> None:
        report = self._reports()[self.path]
        for warning in report.warnings:
            warnings.warn(PuzzleWarning(str(warning)), stacklevel=1)
        if report.errors:
            raise PuzzleCheckError(report.errors)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, PuzzleCheckError):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo, style))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"puzzle {self.path.name}"
