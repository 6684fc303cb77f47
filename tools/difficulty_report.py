"""Write the difficulty report of docs/puzzles.md: authors' levels against the measure.

For every puzzle file under ``puzzles/`` it loads the puzzle, computes
:func:`battleline_lab.quiz.difficulty.estimate` and writes two Markdown tables
between the ``<!-- difficulty-report:begin -->`` / ``end`` markers of
``docs/puzzles.md``: the guess chance by theme (the chance that a uniform random
first answer is right, :meth:`~battleline_lab.quiz.questions.Question.guess_chance`, as
``battleline-lab check --json`` reports it), the puzzles where the author's level and the
measured level differ by 2 or more, then every puzzle.  ``tests/test_difficulty.py``
fails when the committed report is out of date.

    .venv/bin/python tools/difficulty_report.py   # print the report
    ./dev regen docs                              # update docs/puzzles.md (tools/regen.py)
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from battleline_lab.quiz.difficulty import estimate
from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle
from battleline_lab.quiz.puzzle import Puzzle

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "puzzles.md"
BEGIN = "<!-- difficulty-report:begin -->"
END = "<!-- difficulty-report:end -->"


def _library() -> list[tuple[str, Puzzle]]:
    """(file relative to the checkout, puzzle) for every puzzle that asks a question, by file: loaded once."""
    out = []
    for path in sorted(iter_puzzle_files([ROOT / "puzzles"])):
        puzzle = load_puzzle(path)
        if puzzle.question is not None:
            out.append((Path(path).resolve().relative_to(ROOT).as_posix(), puzzle))
    return out


def rows(library: list[tuple[str, Puzzle]] | None = None) -> list[tuple[str, str, int | None, int, float, str]]:
    """(file, id, author level, measured level, score, features) for every puzzle, by file."""
    out = []
    for rel, puzzle in _library() if library is None else library:
        assert puzzle.question is not None
        d = estimate(puzzle.position, puzzle.question)
        features = repr(d.features).removeprefix("<Features ").removesuffix(">")
        out.append((rel, puzzle.id, puzzle.level, d.level, d.score, features))
    return out


def guess_rows(library: list[tuple[str, Puzzle]] | None = None) -> list[tuple[str, int, float]]:
    """(theme folder, puzzles, mean guess chance) for every theme folder, and the library as a whole last."""
    by_theme: dict[str, list[float]] = {}
    for rel, puzzle in _library() if library is None else library:
        assert puzzle.question is not None
        theme = Path(rel).relative_to("puzzles").parts[0]
        by_theme.setdefault(theme, []).append(float(puzzle.question.guess_chance(puzzle.position)))
    every = [c for chances in by_theme.values() for c in chances]
    out = [(theme, len(c), sum(c) / len(c)) for theme, c in sorted(by_theme.items())]
    return [*out, ("the whole library", len(every), sum(every) / len(every) if every else 0.0)]


def report() -> str:
    library = _library()
    table = rows(library)
    lines = ["### Guess chance by theme", ""]
    lines.append("The chance that a first answer picked at random, among the answers the board offers, is right")
    lines.append("(a claim: its yes/no, 1/2, times a first tap right among the cards its evidence stage offers; one")
    lines.append("toggle per flag: every on/off pattern is an answer), as `battleline-lab check puzzles --json`")
    lines.append("reports it per puzzle.")
    lines.append("")
    lines.append("| theme | puzzles | guess chance |")
    lines.append("|---|---|---|")
    for theme, count, chance in guess_rows(library):
        name = theme if theme == "the whole library" else f"`{theme}/`"
        lines.append(f"| {name} | {count} | {chance:.1%} |")
    lines.append("")
    diffs = Counter(r[2] - r[3] for r in table if r[2] is not None)

    def say(d: int) -> str:
        if d == 0:
            return f"Same level: {diffs[d]}"
        return f"author {abs(d)} higher: {diffs[d]}" if d > 0 else f"author {abs(d)} lower: {diffs[d]}"

    lines.append(f"{len(table)} puzzles. " + "; ".join(say(d) for d in sorted(diffs, key=lambda d: (abs(d), -d))) + ".")
    lines.append("")
    lines.append("### Where the author and the measure disagree by 2 or more levels")
    lines.append("")
    far = [r for r in table if r[2] is not None and abs(r[2] - r[3]) >= 2]
    if far:
        lines.append("| puzzle | author | measure | score | features |")
        lines.append("|---|---|---|---|---|")
        for rel, _pid, author, level, score, features in far:
            lines.append(f"| `{rel}` | {author} | {level} | {score:.2f} | {features} |")
    else:
        lines.append("None.")
    lines.append("")
    lines.append("### Every puzzle")
    lines.append("")
    lines.append("| puzzle | author | measure | score | features |")
    lines.append("|---|---|---|---|---|")
    for rel, _pid, author, level, score, features in table:
        lines.append(f"| `{rel}` | {author if author is not None else '-'} | {level} | {score:.2f} | {features} |")
    return "\n".join(lines) + "\n"


def updated(doc: str, body: str) -> str:
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    return doc[:start] + "\n" + body + doc[end:]


def main() -> int:
    sys.stdout.write(report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
