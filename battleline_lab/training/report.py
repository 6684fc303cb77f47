"""``battleline-lab progress export`` and ``battleline-lab report``: from learners' databases to a teacher's page.

``progress export`` prints one learner's attempts and ratings as one JSON
document (schema: ``battleline_lab/schema/progress-export.schema.json``).
``report EXPORT... --out report.html`` reads exports (files, or folders of
``*.json``) and writes one standalone HTML page: per puzzle the first-try
solve rate, hints per learner and the level the class data suggests where it
disagrees with the author's (from :data:`MIN_LEARNERS` learners on); per learner the rating and
the themes and rules to practise (:mod:`battleline_lab.training.class_report`, counted once).
``report --json`` writes the same figures as data (:func:`report_data`).  Everything that came from
a file is escaped (like ``show``); the page is written atomically and never over an existing file
without ``--force``.

>>> page = report_html([{"learner": "<ann>", "rating": {"rating": 1600, "rd": 90}, "first_try": 1, "rated": 2,
...     "themes": {}, "missed_rules": {"R13": 1}, "puzzles": {"p": {"level": 1}},
...     "attempts": [{"learner": "<ann>", "puzzle_id": "p", "kind": "answer", "correct": False, "rule": "R13"}]}])
>>> "&lt;ann&gt;" in page and "<ann>" not in page and "R13" in page
True
"""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..formats.files import FileTooBigError, describe, read_regular
from ..formats.safe_yaml import Diagnostic
from ..quiz.puzzle import Puzzle
from ..text.messages import DEFAULT_LANGUAGE, message, scoped
from .progress import export_attempts, skipped_warning

__all__ = ["MIN_LEARNERS", "class_level", "class_puzzles", "load_export", "report_data", "report_html"]

#: Fewer learners than this: no level suggestion for a puzzle (a handful of learners says nothing about a level).
MIN_LEARNERS = 10


_m = scoped("trainer")


# -- export -------------------------------------------------------------------------------------


def class_puzzles(folders: Sequence[str], lang: str = DEFAULT_LANGUAGE) -> tuple[list[Puzzle], list[Diagnostic]]:
    """The library's puzzles and those of the teacher's ``folders`` (a teacher's puzzle wins an id clash).

    A folder that does not exist is a located error; files that do not load are left
    out (``battleline-lab check`` says why), as the trainer leaves them out.
    """
    from ..quiz import library
    from ..quiz.loader import load_folder

    problems = []
    own: dict[str, Puzzle] = {}
    for folder in folders:
        if not Path(folder).exists():
            problems.append(Diagnostic(folder, 1, 1, message("class.cli.no_folder", lang, path=folder)))
            continue
        for _file, puzzle in load_folder([Path(folder)]):
            if puzzle.question is not None:
                own.setdefault(puzzle.id, puzzle)
    chosen = {p.id: p for p in library.puzzles() if p.question is not None}
    chosen.update(own)
    return list(chosen.values()), problems


def describe_puzzles(document: dict[str, Any], puzzles: Sequence[Puzzle]) -> None:
    """Add each tried puzzle's title and topics to an export (the report shows them without the files)."""
    by_id = {p.id: p for p in puzzles}
    for pid, meta in _dict(document.get("puzzles")).items():
        puzzle = by_id.get(pid)
        if puzzle is not None and isinstance(meta, dict):
            if puzzle.title:
                meta["title"] = dict(puzzle.title)
            meta["topics"] = list(puzzle.topics)


# -- report -------------------------------------------------------------------------------------


class ExportError(ValueError):
    """A file that is not a progress export; ``line`` and ``col`` (1-based) say where."""

    def __init__(self, text: str, line: int = 1, col: int = 1) -> None:
        super().__init__(text)
        self.line = line
        self.col = col


def line_col_of(raw: bytes, index: int) -> tuple[int, int]:
    """The 1-based line and column (in characters) of byte ``index`` of UTF-8 ``raw``."""
    head = raw[:index].decode("utf-8", errors="replace")
    return head.count("\n") + 1, len(head) - (head.rfind("\n") + 1) + 1


#: A JSON string or a JSON number: numbers are found outside strings only (a digit run in a name is no number).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?')


def _json_problem_at(text: str, err: BaseException) -> tuple[int, int]:
    deepest = 0
    if isinstance(err, RecursionError):
        depth = 0
        for index, ch in enumerate(text):  # where the nesting gets too deep (strings rarely matter here)
            if ch in "[{":
                depth += 1
                if depth > 500:
                    deepest = index
                    break
            elif ch in "]}":
                depth -= 1
    elif isinstance(err, DishonestNumberError):
        for found in _TOKEN.finditer(text):  # the first number outside a string that is past the bound
            if found.group()[0] != '"' and found.group() == err.text:
                deepest = found.start()
                break
    head = text[:deepest]
    return head.count("\n") + 1, deepest - (head.rfind("\n") + 1) + 1


def _json_reason(err: BaseException) -> str:
    if isinstance(err, RecursionError):
        return "nested too deeply"
    return str(err)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


#: An export is read only if it is a regular file of at most this size (a year of a class's practice is ~20 MB).
EXPORT_LIMIT = 64 << 20

#: No count, rating, time or hint number of an export is past +-this: a 450-digit rating is a valid JSON
#: number, not a rating, and the file is refused (located), never shown clamped as if it were true.
MAX_NUMBER = 1e12


class DishonestNumberError(ValueError):
    """A number of an export past +-:data:`MAX_NUMBER` (or one a float cannot hold); ``text`` as written."""

    def __init__(self, text: str) -> None:
        digits = sum(ch.isdigit() for ch in text)
        shown = text if len(text) <= 24 else f"{text[:12]}...{text[-6:]}"
        super().__init__(f"a number past the bound of +-10^12 ({shown}, {digits} digits): not a count or a rating")
        self.text = text


def _bounded_int(text: str) -> int:
    # the length first: int() of a 5,000-digit text raises (Python's digit limit) and a long one is slow
    if len(text.lstrip("-")) > 13 or abs(int(text)) > MAX_NUMBER:
        raise DishonestNumberError(text)
    return int(text)


def _bounded_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > MAX_NUMBER:
        raise DishonestNumberError(text)
    return value


def load_export(path: Path, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """One export file, checked enough to report on; ExportError says what is wrong (``line``, ``col``: where).

    Read by :func:`battleline_lab.formats.files.read_regular` (a FIFO, a device or a folder is refused at once,
    never read; at most :data:`EXPORT_LIMIT` bytes).
    """
    try:
        raw = read_regular(path, EXPORT_LIMIT)
    except (OSError, FileTooBigError) as err:
        raise ExportError(describe(err, lang)) from None
    try:
        text = raw.decode("utf-8-sig")  # a byte order mark (some editors write one) is read past
    except UnicodeDecodeError as err:
        line, col = line_col_of(raw, err.start)
        raise ExportError(f"not UTF-8 ({err.reason})", line, col) from None
    try:
        data = json.loads(text, parse_constant=_reject_constant, parse_int=_bounded_int, parse_float=_bounded_float)
    except json.JSONDecodeError as err:
        raise ExportError(f"not JSON ({err.msg})", err.lineno, err.colno) from None
    except (ValueError, RecursionError) as err:
        # a number past the bound, a nesting past the recursion limit: located by a scan
        line, col = _json_problem_at(text, err)
        raise ExportError(f"not JSON ({_json_reason(err)})", line, col) from None
    if not isinstance(data, dict) or data.get("format") != "battleline-lab-progress":
        raise ExportError('no "format": "battleline-lab-progress"')
    if not isinstance(data.get("attempts"), list) or not isinstance(data.get("learner"), str):
        raise ExportError('"learner" (text) and "attempts" (a list) are needed')
    return data


def skipped_rows(export: Mapping[str, Any], where: str) -> str | None:
    """One located warning naming the rows of an export that are not attempts (the page leaves them out), or None.

    >>> print(skipped_rows({"learner": "ann", "attempts": [{"puzzle_id": "w1", "hints": -1}]}, "ann.json"))
    ann.json:1:1: warning: a row was skipped (attempts[0] "hints": is out of range (0 to 1000))
    """
    return skipped_warning(export_attempts(dict(export), where=where)[1])


def _num(value: Any, default: float = 0.0) -> float:
    """A number of an export as a float, clamped to +-:data:`MAX_NUMBER` (never an OverflowError); else ``default``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    if isinstance(value, int):
        return float(max(-MAX_NUMBER, min(MAX_NUMBER, value)))  # compared as ints: a 400-digit int is fine
    if not math.isfinite(value):
        return default
    return max(-MAX_NUMBER, min(MAX_NUMBER, float(value)))


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def class_level(first_try_rate: float) -> int:
    """The level (1-5) a class's first-try solve rate suggests.

    >>> [class_level(r) for r in (0.95, 0.8, 0.6, 0.4, 0.1)]
    [1, 2, 3, 4, 5]
    """
    for level, floor in enumerate((0.9, 0.75, 0.55, 0.35), start=1):
        if first_try_rate >= floor:
            return level
    return 5


def puzzle_table(exports: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    stats: dict[str, dict[str, Any]] = {}
    from .class_report import _learner_id

    for export in exports:
        learner = _learner_id(export)  # two learners who share a name are two learners
        puzzles = export.get("puzzles") if isinstance(export.get("puzzles"), dict) else {}
        firsts: dict[str, bool] = {}
        hints: dict[str, float] = {}
        for row in export_attempts(dict(export))[0]:  # the rows the store's gate passes, as the grid reads them
            if not row.puzzle_id:
                continue
            pid, kind = row.puzzle_id, row.kind
            hints[pid] = hints.get(pid, 0.0) + row.hints
            if kind in ("answer", "reveal") and pid not in firsts:
                firsts[pid] = kind == "answer" and row.correct is True and hints[pid] == 0
        for pid, clean in firsts.items():
            entry = stats.setdefault(pid, {"id": pid, "learners": set(), "clean": 0, "hints": 0.0, "level": None})
            entry["learners"].add(learner)
            entry["clean"] += clean
            entry["hints"] += hints.get(pid, 0.0)
            meta = puzzles.get(pid) if isinstance(puzzles, dict) else None
            if isinstance(meta, dict) and isinstance(meta.get("level"), int) and entry["level"] is None:
                entry["level"] = meta["level"]
    rows = []
    for pid in sorted(stats):
        entry = stats[pid]
        n = len(entry["learners"])
        rate = entry["clean"] / n if n else 0.0
        suggested = class_level(rate) if n >= MIN_LEARNERS else None
        rows.append(
            {
                "id": pid,
                "learners": n,
                "rate": rate,
                "hints": entry["hints"] / n if n else 0.0,
                "level": entry["level"],
                "suggested": suggested,
            }
        )
    return rows


def esc(value: object) -> str:
    """Text for HTML: everything from an export is escaped."""
    return html.escape(str(value), quote=True)


def report_html(
    exports: Sequence[Mapping[str, Any]],
    lang: str = DEFAULT_LANGUAGE,
    puzzles: Sequence[Puzzle] | None = None,
    shown: Iterable[str] = (),
    notes: Sequence[str] = (),
) -> str:
    """The teacher's page for these exports (a standalone HTML document; every value escaped).

    ``puzzles``: the puzzles to rate over (default: the library's); ``shown``: ids that get a
    column in the learner x puzzle grid even if nobody tried them (the teacher's own); ``notes``:
    what the teacher must know about whose rows are whose (:func:`~.class_report.gather`).
    The per-learner figures (rules and themes missed) are the class section's, once.
    """
    from .class_report import class_data, class_html

    if puzzles is None:
        from ..quiz import library

        puzzles = [p for p in library.puzzles() if p.question is not None]

    none = _m("report.none", lang)
    table = puzzle_table(exports)
    attempts = sum(len(export_attempts(dict(e))[0]) for e in exports)  # the rows read, not the ones skipped
    out = [
        f'<!DOCTYPE html><html lang="{esc(lang)}"><head><meta charset="utf-8">',
        f"<title>{esc(_m('report.title', lang))}</title>",
        "<style>body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}"
        ".bl-disagree{background:#fff3e0}</style></head><body>",
        f"<h1>{esc(_m('report.title', lang))}</h1>",
        f"<p>{esc(_m('report.summary', lang, learners=len(exports), attempts=attempts, puzzles=len(table)))}</p>",
        class_html(_with_notes(class_data(exports, puzzles, shown), notes), lang, {p.id: p for p in puzzles}),
        f'<h2>{esc(_m("report.puzzles", lang))}</h2><table class="bl-report-puzzles"><tr>',
    ]
    heads = ("puzzle", "level", "learners", "solve_rate", "hints", "class_level")
    out += [f"<th>{esc(_m(f'report.col.{c}', lang))}</th>" for c in heads]
    out.append("</tr>")
    for row in table:
        level, suggested = row["level"], row["suggested"]
        disagree = isinstance(level, int) and suggested is not None and abs(suggested - level) >= 2
        note = none
        if suggested is not None:
            note = str(suggested)
            if disagree:
                direction = _m("report.harder" if suggested > level else "report.easier", lang)
                note += " – " + _m("report.disagrees", lang, direction=direction, level=level)
        cells = (
            row["id"],
            level if level is not None else none,
            row["learners"],
            f"{round(100 * row['rate'])}%",
            f"{row['hints']:.1f}",
            note,
        )
        klass = ' class="bl-disagree"' if disagree else ""
        out.append(f"<tr{klass}>" + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>")
    out.append("</table></body></html>\n")
    return "".join(out)


def inside_folder(source: str, folder: str) -> bool:
    try:
        return Path(source).resolve().is_relative_to(Path(folder).resolve())
    except OSError:  # pragma: no cover
        return False


def _with_notes(data: Any, notes: Sequence[str]) -> Any:
    data.notes = list(notes)
    return data


def report_data(
    exports: Sequence[Mapping[str, Any]], puzzles: Sequence[Puzzle] | None = None, shown: Iterable[str] = ()
) -> dict[str, Any]:
    """The page's figures as data (``report --json``): the same counts the page shows, uncut.

    ``learners``: per learner ``name``, ``id``, ``rating`` (``rating``, ``rd``; None when nothing is
    rated), ``first_try`` (puzzles right at the first try), ``tried``, ``missed_rules`` {rule: misses},
    ``themes_to_practise`` (the themes of the puzzles they missed, most missed first) with their counts
    in ``missed_themes``, and ``never_solved``; ``puzzles``: per puzzle its counts and the level the
    class suggests (None below :data:`MIN_LEARNERS` learners).
    """
    from .class_report import class_data

    if puzzles is None:
        from ..quiz import library

        puzzles = [p for p in library.puzzles() if p.question is not None]
    data = class_data(exports, puzzles, shown)
    learners = []
    for row in data.learners:
        tried = sum(1 for st in row.status.values() if st != "none")
        learners.append(
            {
                "name": row.learner,
                "id": row.id,
                "rating": None if row.rating is None else {"rating": round(row.rating, 1), "rd": round(row.rd or 0, 1)},
                "first_try": sum(1 for st in row.status.values() if st == "first"),
                "tried": tried,
                "missed_rules": dict(row.rules),
                "themes_to_practise": [t for t, _n in row.topics],
                "missed_themes": dict(row.topics),
                "never_solved": sorted(row.never),
            }
        )
    levels = {row["id"]: row for row in puzzle_table(exports)}
    table = [
        {
            "id": p.id,
            "missed": p.counts["missed"] + p.counts["hints"],
            "tried": p.tried,
            "never_solved": p.never,
            "first": p.counts["first"],
            "hints": p.counts["hints"],
            "not_tried": p.counts["none"],
            "level": levels.get(p.id, {}).get("level"),
            "suggested_level": levels.get(p.id, {}).get("suggested"),
        }
        for p in data.puzzles
    ]
    return {"format": "battleline-lab-report", "version": 1, "learners": learners, "puzzles": table}
