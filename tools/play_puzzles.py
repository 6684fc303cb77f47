"""Write the library's play puzzles: ``puzzles/play-to-claim``, ``play-to-block``, ``play-to-win``, ``play-tactics``.

Seeded (``--seed``, default 35): the same command writes the same files.  Titles already in the
library are avoided, so every title stays distinct.  The puzzles are made by
:func:`battleline_lab.authoring.generate_play.generate_play`; run ``battleline-lab check puzzles``
afterwards.

Usage::

    python tools/play_puzzles.py                 # the library's set
    python tools/play_puzzles.py --out DIR       # into DIR/puzzles/<folder>/ instead of the checkout
    ./dev regen play-puzzles                     # the same, as one row of tools/regen.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from battleline_lab.authoring.generate_play import GOAL_FOLDERS, TACTIC_FOLDER, generate_play  # noqa: E402
from battleline_lab.quiz.loader import load_folder  # noqa: E402
from battleline_lab.text.messages import LANGUAGES  # noqa: E402

#: how many puzzles of each goal the library holds
COUNTS = {"claim": 16, "block": 11, "win": 15}
#: how many tactic puzzles (a Deserter in the hand) of each goal, levels 3-5
TACTIC_COUNTS = {"claim": 5, "block": 3}
FOLDERS = (*GOAL_FOLDERS.values(), TACTIC_FOLDER)
#: the library's batches, in the order they are made (each avoids the titles of those before it):
#: the folder, the goal, how many, and the options of :func:`generate_play`
BATCHES: list[tuple[str, str, int, dict[str, Any]]] = [
    *((GOAL_FOLDERS[goal], goal, count, {}) for goal, count in COUNTS.items()),
    *((TACTIC_FOLDER, goal, count, {"levels": (3, 5), "tactic": True}) for goal, count in TACTIC_COUNTS.items()),
]


def made(seed: int = 35, root: Path = ROOT) -> dict[str, str]:
    """Every play puzzle file, as a path relative to the checkout and its text (``./dev regen`` writes them)."""
    ours = set(FOLDERS)
    others = [p for p in sorted((root / "puzzles").iterdir()) if p.is_dir() and p.name not in ours]
    titles = {puzzle.title_before_answer(lang) for _path, puzzle in load_folder(others) for lang in LANGUAGES}
    out: dict[str, str] = {}
    for folder, goal, count, options in BATCHES:
        for generated in generate_play(goal, count, seed, avoid_titles=titles, **options):
            out[f"puzzles/{folder}/{generated.filename}"] = generated.text
            titles.update(generated.data["title"].values())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--out", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    files = made(args.seed)
    for folder in FOLDERS:
        for old in (args.out / "puzzles" / folder).glob("*.yaml"):
            old.unlink()
    for rel, text in files.items():
        path = args.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"{len(files)} play puzzles under {args.out / 'puzzles'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
