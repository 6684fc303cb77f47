"""Benchmark: what a puzzle's response table costs: its states, its bytes (packed as saved) and the time to build it.

For each puzzle a lesson shows (``PuzzleWidget("...")`` in ``notebooks/``), in English and Chinese,
the table of a fresh widget is built (``controllers.responses.response_table``) and packed as the
board's synced ``table`` holds it (``pack_table``: JSON, gzip, base64).  Printed per puzzle: states,
distinct views, distinct parts, the JSON's bytes and the packed bytes, the wall and CPU seconds of
the build, with the load average (a loaded machine's wall time is not the work: the CPU time is).
Per lesson: the packed bytes its puzzle widgets add to the notebook.  ``--library`` does every
library puzzle too (minutes), for the largest tables.

Usage::

    python benchmarks/bench_tables.py
    python benchmarks/bench_tables.py --library

Figures are reported, never asserted: they go in ``docs/architecture.md`` (The response tables).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battleline_lab.controllers.puzzle import PuzzleController  # noqa: E402
from battleline_lab.controllers.responses import pack_table, response_table  # noqa: E402
from battleline_lab.quiz import library  # noqa: E402


def lessons() -> dict[str, list[tuple[str, str]]]:
    """Each lesson's puzzle widgets: (puzzle id, language)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for nb in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        lang = "zh" if "zh" in nb.relative_to(ROOT / "notebooks").parts else "en"
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                for found in re.findall(r'^PuzzleWidget\("([a-z0-9-]+)"', "".join(cell["source"]), re.M):
                    out.setdefault(nb.relative_to(ROOT).as_posix(), []).append((found, lang))
    return out


def measure(puzzle_id: str, lang: str) -> dict[str, object]:
    controller = PuzzleController(library.get(puzzle_id), lang=lang)
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        table = response_table(controller)
    except ValueError as err:
        return {"puzzle": puzzle_id, "lang": lang, "error": str(err)}
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    raw = json.dumps(table, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return {
        "puzzle": puzzle_id,
        "lang": lang,
        "states": len(table["states"]),
        "views": len(table["views"]),
        "parts": len(table["parts"]),
        "json_bytes": len(raw),
        "packed_bytes": len(pack_table(table)),
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", action="store_true", help="every library puzzle too, in English")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    seen: dict[tuple[str, str], dict[str, object]] = {}
    for lesson, widgets in lessons().items():
        total = 0
        for puzzle_id, lang in widgets:
            row = seen.setdefault((puzzle_id, lang), measure(puzzle_id, lang))
            print(json.dumps(row, ensure_ascii=False))
            total += int(row.get("packed_bytes", 0))  # type: ignore[call-overload]
        print(f"lesson {lesson}: {total} packed bytes of tables")
    if args.library:
        for puzzle_id in library.ids():
            print(json.dumps(measure(puzzle_id, "en"), ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
