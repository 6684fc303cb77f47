"""Benchmark: complete games per second, and the heuristic bot's strength against the random bot.

Measures, in one run:

* games per second, random bot against random bot (target: more than 100 games/s);
* games per second, heuristic bot against heuristic bot;
* the heuristic bot's share of wins against the random bot over 500 games (target: at least 90%),
  alternating who starts, fixed seeds.

Usage::

    python benchmarks/bench_game.py            # full run (500 strength games; a minute or two)
    python benchmarks/bench_game.py --quick    # fewer games, for a smoke run
    python benchmarks/bench_game.py --json     # one JSON object instead of text

Timings are reported, never asserted (the machine is shared and varies); the figures go in
``docs/game.md``.  Each speed figure is the best of a few repeats, so that a busy machine
disturbs it less.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from battleline_lab.core.position import ClaimTiming  # noqa: E402
from battleline_lab.game import run_match  # noqa: E402
from battleline_lab.game.state import Options  # noqa: E402


def speed(bot_a: str, bot_b: str, games: int, repeats: int, seed: int) -> dict[str, Any]:
    """Best-of-``repeats`` games per second (CPU time of this process)."""
    best = float("inf")
    result = None
    for _ in range(repeats):
        start = time.process_time()
        result = run_match(bot_a, bot_b, games=games, seed=seed)
        best = min(best, time.process_time() - start)
    assert result is not None
    return {
        "games": games,
        "games_per_second": round(games / best, 1),
        "ms_per_game": round(1000 * best / games, 2),
        "average_turns": round(result.average_turns, 1),
        "average_actions": round(result.actions / games, 1),
    }


def strength(games: int, seed: int, timing: ClaimTiming) -> dict[str, Any]:
    result = run_match("heuristic", "random", games=games, seed=seed, options=Options(claim_timing=timing))
    data = result.as_dict()
    return {
        "games": games,
        "claim_timing": timing.value,
        "heuristic_wins": result.wins["A"],
        "random_wins": result.wins["B"],
        "draws": result.draws,
        "win_rate": round(result.wins["A"] / games, 4),
        "flags_per_game": data["flags_per_game"],
        "average_turns": data["average_turns"],
        "end_reasons": data["end_reasons"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games (smoke run)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    quick = args.quick
    report: dict[str, Any] = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "random_vs_random": speed("random", "random", 50 if quick else 300, 1 if quick else 3, 1),
        "heuristic_vs_heuristic": speed("heuristic", "heuristic", 6 if quick else 40, 1 if quick else 2, 1),
        "strength": strength(40 if quick else 500, 10_000, ClaimTiming.AFTER_PLAY),
    }
    if not quick:
        report["strength_start_of_turn"] = strength(200, 20_000, ClaimTiming.START_OF_TURN)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"date {report['date']}; {report['machine']}; Python {report['python']}; load {report['load_average']}")
    for key in ("random_vs_random", "heuristic_vs_heuristic"):
        r = report[key]
        print(
            f"{key.replace('_', ' ')}: {r['games_per_second']} games/s ({r['ms_per_game']} ms/game, "
            f"{r['games']} games, {r['average_turns']} turns, {r['average_actions']} actions per game)"
        )
    for key in ("strength", "strength_start_of_turn"):
        if key in report:
            s = report[key]
            print(
                f"heuristic vs random ({s['claim_timing']}): {s['heuristic_wins']}/{s['games']} wins "
                f"({100 * s['win_rate']:.1f}%), draws {s['draws']}, flags per game {s['flags_per_game']}, "
                f"ended by {s['end_reasons']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
