"""Benchmark: the ladder's Glicko-2 ratings, measured in bot-against-bot matches (the learners' levels).

Every pair of ladder bots at most ``--reach`` rungs apart (``battleline_lab/game/ladder.py``:
random, gentle, heuristic, expert, master; reach 2: neighbours and next-but-one) plays ``--games``
games, dealt and seated as ``benchmarks/bench_master.py`` deals them (game ``k``: seed ``SEED + k``,
the first move and the seat alternating, each bot seeded from the game).  Round ``k`` (game ``k`` of
every pair) is one Glicko-2 rating period (``battleline_lab/glicko2.py``, tau 0.5): every bot,
starting at 1500 with deviation 350, is updated with its results of the round against its
opponents' ratings before the round.  Glicko-2 sees only rating differences, so the ratings are
then shifted together to put ``--anchor`` (the gentle bot by default) at 1500, the rating a learner
starts with: a new learner is offered the gentle bot.  Printed: each pair's score, each bot's
rating and deviation; ``--write`` stores them, with how they were measured, in
``battleline_lab/game/ladder.json`` (the published ratings).  ``--jobs N`` splits the games over N
processes; the result is the same.

Usage::

    python benchmarks/bench_ladder.py --games 40 --jobs 2 --write
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_master import play, wilson  # noqa: E402

from battleline_lab.game.ladder import LADDER, RATINGS_FILE  # noqa: E402
from battleline_lab.training.glicko2 import Rating, update  # noqa: E402

OUT = ROOT / "battleline_lab" / "game" / RATINGS_FILE


def pairs(reach: int) -> list[tuple[str, str]]:
    """The pairs that play: (the gentler bot, the stronger), at most ``reach`` rungs apart."""
    return [(LADDER[i], LADDER[j]) for i in range(len(LADDER)) for j in range(i + 1, min(len(LADDER), i + reach + 1))]


def ratings(results: dict[tuple[str, str], list[float]], games: int) -> dict[str, Rating]:
    """Glicko-2 over the rounds (round ``k``: game ``k`` of every pair), not yet shifted."""
    current = {name: Rating() for name in LADDER}
    for k in range(games):
        period: dict[str, list[tuple[Rating, float]]] = {name: [] for name in LADDER}
        for (a, b), scores in results.items():
            s = scores[k]
            period[a].append((current[b], s))
            period[b].append((current[a], 1.0 - s))
        current = {name: update(current[name], period[name]) for name in LADDER}
    return current


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per pair")
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--reach", type=int, default=2, help="pairs at most this many rungs apart")
    parser.add_argument("--anchor", default="gentle", choices=LADDER)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--write", action="store_true", help=f"store the ratings in {OUT.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    matches = pairs(args.reach)
    # the stronger is "master"; the ladder is rated with claims after playing (the default game)
    tasks = [(b, a, args.seed, k, "after") for a, b in matches for k in range(args.games)]
    start = time.time()
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            played = list(pool.map(play, tasks))
    else:
        played = [play(t) for t in tasks]
    wall = time.time() - start
    results: dict[tuple[str, str], list[float]] = {}
    for (stronger, gentler, _seed, _k, _claims), (won, draw, *_rest) in zip(tasks, played):
        results.setdefault((gentler, stronger), []).append(1.0 - won - 0.5 * draw)  # the gentler bot's score
    for (a, b), scores in results.items():
        wins = sum(1 for s in scores if s == 0.0)
        low, high = wilson(wins, len(scores))
        print(
            f"{b} vs {a}: {wins} of {len(scores)} won by {b} ({100 * wins / len(scores):.1f}%,"
            f" 95% interval {100 * low:.1f}-{100 * high:.1f}%), {sum(1 for s in scores if s == 0.5)} draws"
        )
    raw = ratings(results, args.games)
    shift = 1500.0 - raw[args.anchor].rating
    final = {name: Rating(r.rating + shift, r.rd, r.volatility) for name, r in raw.items()}
    for name, r in final.items():
        print(f"{name}: {r.rating:.0f} (deviation {r.rd:.0f})")
    print(f"{len(tasks)} games in {wall:.0f} s wall")
    if args.write:
        data = {
            "method": {
                "benchmark": "benchmarks/bench_ladder.py",
                "games_per_pair": args.games,
                "seed": args.seed,
                "reach": args.reach,
                "pairs": [f"{a}-{b}" for a, b in matches],
                "deal": "bench_master.py: game k seed SEED+k, the first move and the seat alternating",
                "periods": "one Glicko-2 period per round (game k of every pair), tau 0.5, from 1500/350",
                "anchor": f"{args.anchor} = 1500 (all shifted together)",
                "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                "python": platform.python_version(),
                "scores": {f"{b}-{a}": sum(1 for s in sc if s == 0.0) for (a, b), sc in results.items()},
            },
            "bots": {
                name: {"rating": round(r.rating, 1), "rd": round(r.rd, 1), "volatility": round(r.volatility, 6)}
                for name, r in final.items()
            },
        }
        OUT.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
