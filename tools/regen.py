"""Rewrite every generated file of the repository: one command after a change of wording, puzzles or bots.

``./dev regen`` runs this.  :data:`GENERATED` is the one table of what is generated: each row
names the files it owns (glob patterns, relative to the checkout) and the function that makes
their text from the sources (the engine, the puzzles, ``docs/rules.md``).  A row writes every file
it makes and removes the files under its patterns that it no longer makes, so a renamed golden
case leaves no stray file behind.  All goldens live in ``tests/golden/``.

The lessons (``notebooks/**/*.ipynb``, committed with their outputs) are re-run only with
``--lessons``, after everything else: each runs in a Jupyter kernel, which takes minutes
(``tools/run_lessons.py``, also ``./dev lessons NB...`` for some of them).  They are not in the
table: nbval (``./dev test``) checks their saved outputs against a fresh run and
``tests/test_lesson_widget_ids.py`` checks their widget ids.

Not here either: the bots' ratings (``battleline_lab/game/``, written by
``benchmarks/bench_ladder.py --write``), a measurement of thousands of games rather than a text
made from the sources.

``tests/test_regen.py`` regenerates every row into a temporary folder and fails when a committed
file differs, is missing or is stray.

Usage::

    ./dev regen                       # rewrite every generated file but the lessons
    ./dev regen --lessons             # ... and then re-run every lesson (slow)
    ./dev regen --check               # write nothing; list the stale files (exit status 1 if any)
    ./dev regen explanations docs     # only these rows (names as in the table)
    ./dev regen --out DIR             # write into DIR instead of the checkout
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the golden cases are tables of the tests that read them (tests.*)

from tests.scripts import load_script  # noqa: E402  (needs the checkout on sys.path, above)


def _tool(name: str) -> ModuleType:
    """A script of ``tools/`` as a module (``tools/`` is no package)."""
    return load_script(ROOT / "tools" / f"{name}.py", name)


@contextlib.contextmanager
def _in_root() -> Iterator[None]:
    """The CLI names files as given: run it from the checkout's root, as its tests do."""
    before = Path.cwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(before)


def explanations() -> dict[str, str]:
    """The English proof of each named position of ``tests/test_explanations.py``."""
    cases = importlib.import_module("tests.test_explanations")
    return {f"tests/golden/{name}.txt": cases.golden_text(name) for name in sorted(cases.GOLDEN)}


def explanations_zh() -> dict[str, str]:
    """The Chinese proofs of RULES.md's five worked examples (``tests/test_i18n.py``)."""
    cases = importlib.import_module("tests.test_i18n")
    return {f"tests/golden/zh/{name}.txt": cases.golden_text_zh(name) for name in cases.RULES_EXAMPLES}


def cli_explain() -> dict[str, str]:
    """What ``battleline-lab explain`` prints for each case of ``tests/test_cli.py``."""
    cases = importlib.import_module("tests.test_cli")
    from battleline_lab.cli import main

    out: dict[str, str] = {}
    for name, argv in cases.GOLDEN_CASES:
        stdout, stderr = io.StringIO(), io.StringIO()
        with _in_root(), contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = main(["explain", *argv])
        if status != 0 or stderr.getvalue():
            raise RuntimeError(f"explain {' '.join(argv)} failed ({status}): {stderr.getvalue()}")
        out[f"tests/golden/cli/explain-{name}.txt"] = stdout.getvalue()
    return out


def proofs() -> dict[str, str]:
    """The verdicts and digests of every proof of ``tests/test_proof_equivalence.py``'s positions."""
    cases = importlib.import_module("tests.test_proof_equivalence")
    files: dict[str, str] = cases.golden_files()
    return files


def bot_games() -> dict[str, str]:
    """The digest of every seeded bot game of ``tests/game/test_bot_golden.py``."""
    cases = importlib.import_module("tests.game.test_bot_golden")
    return {"tests/golden/bot-games.json": cases.golden_json()}


def difficulty_report() -> dict[str, str]:
    """``docs/puzzles.md`` with its difficulty tables (between the report's markers) made anew."""
    report = _tool("difficulty_report")
    doc = report.DOC.read_text(encoding="utf-8")
    return {report.DOC.relative_to(ROOT).as_posix(): report.updated(doc, report.report())}


def rules_page() -> dict[str, str]:
    """``notebooks/rules.md``, the rules page beside the lessons, from ``docs/rules.md``."""
    page = _tool("rules_page")
    return {page.PAGE.relative_to(ROOT).as_posix(): page.rules_page(page.SOURCE.read_text(encoding="utf-8"))}


def play_puzzles() -> dict[str, str]:
    """The library's seeded play puzzles (``puzzles/play-to-*/``, ``play-tactics/``), from ``tools/play_puzzles.py``."""
    files: dict[str, str] = _tool("play_puzzles").made()
    return files


@dataclass(frozen=True)
class Generated:
    """One row of the table: a name, the files it owns, how to make them."""

    name: str
    writes: tuple[str, ...]  #: glob patterns relative to the checkout: every file here is this row's
    make: Callable[[], dict[str, str]]  #: path relative to the checkout -> its text


GENERATED: tuple[Generated, ...] = (
    Generated(
        "play-puzzles", ("puzzles/play-to-*/*.yaml", "puzzles/play-tactics/*.yaml"), play_puzzles
    ),  # first: the docs row reads them
    Generated("explanations", ("tests/golden/*.txt",), explanations),
    Generated("explanations-zh", ("tests/golden/zh/*.txt",), explanations_zh),
    Generated("cli-explain", ("tests/golden/cli/*.txt",), cli_explain),
    Generated("proofs", ("tests/golden/proofs/*.txt",), proofs),
    Generated("bot-games", ("tests/golden/bot-games.json",), bot_games),
    Generated("docs", ("docs/puzzles.md",), difficulty_report),
    Generated("rules-page", ("notebooks/rules.md",), rules_page),
)
BY_NAME = {row.name: row for row in GENERATED}


def owned(row: Generated, root: Path) -> set[str]:
    """The files under ``root`` that match the row's patterns (relative, with ``/``)."""
    return {p.relative_to(root).as_posix() for pattern in row.writes for p in root.glob(pattern) if p.is_file()}


def stale(row: Generated, root: Path, made: dict[str, str] | None = None) -> list[str]:
    """The row's files under ``root`` that are missing, differ from what it makes, or it no longer makes."""
    made = row.make() if made is None else made
    found = []
    for rel, text in sorted(made.items()):
        path = root / rel
        if not path.is_file():
            found.append(f"{rel}: missing")
        elif path.read_bytes() != text.encode("utf-8"):
            found.append(f"{rel}: differs")
    found += [f"{rel}: stray" for rel in sorted(owned(row, root) - set(made))]
    return found


def write(row: Generated, root: Path) -> list[str]:
    """Write the row's files under ``root`` and remove its stray ones; the paths that changed."""
    made = row.make()
    changed = []
    for rel, text in sorted(made.items()):
        path = root / rel
        data = text.encode("utf-8")
        if path.is_file() and path.read_bytes() == data:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        changed.append(rel)
    for rel in sorted(owned(row, root) - set(made)):
        (root / rel).unlink()
        changed.append(f"{rel} (removed)")
    return changed


def run_lessons() -> int:
    """Re-run every lesson with ``tools/run_lessons.py`` (in place; minutes)."""
    return subprocess.call([sys.executable, str(ROOT / "tools" / "run_lessons.py")], cwd=ROOT)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev regen", description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"only these rows: {', '.join(BY_NAME)}")
    parser.add_argument("--lessons", action="store_true", help="then re-run every lesson notebook (slow)")
    parser.add_argument("--check", action="store_true", help="write nothing; list stale files, exit 1 if any")
    parser.add_argument("--out", type=Path, default=ROOT, help="write under this folder (default: the checkout)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in BY_NAME]
    if unknown:
        parser.error(f"unknown name(s) {', '.join(unknown)}; the rows are {', '.join(BY_NAME)}")
    if args.lessons and (args.check or args.out != ROOT):
        parser.error("--lessons re-runs the lessons in place: not with --check or --out")
    rows = [BY_NAME[name] for name in args.names] if args.names else list(GENERATED)
    root = args.out.resolve()
    if args.check:
        found = [line for row in rows for line in stale(row, root)]
        print("\n".join(found) if found else f"{len(rows)} generated sets up to date")
        return 1 if found else 0
    for row in rows:
        changed = write(row, root)
        said = ", ".join(changed) if len(changed) <= 5 else f"{len(changed)} files written"
        print(f"{row.name}: {said or 'up to date'}")
    if args.lessons:
        return run_lessons()
    return 0


if __name__ == "__main__":
    sys.exit(main())
