"""Benchmark: the expert bot's time per move, and its strength against the heuristic bot.

Measures, in one run:

* seconds per move of the expert bot (CPU time of this process, and wall time), over the
  card plays of seeded games against the heuristic bot (target: median at most 1 s);
  claims, draws and moves with one legal choice cost nothing and are left out;
* its share of wins against the heuristic bot in those games (target over 200 games: 70%).

Usage::

    python benchmarks/bench_expert.py                 # 20 games: a few minutes on a quiet machine
    python benchmarks/bench_expert.py --quick         # 2 games, for a smoke run (CI)
    python benchmarks/bench_expert.py --games 50 --rollouts 64 --json

The full strength figure comes from ``battleline-lab match expert heuristic --games 200
--seed S --json`` (same seeds as this script's games).  Timings are reported, never asserted
(the machine is shared and varies); the figures go in ``docs/game.md``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from battleline_lab.game import HeuristicBot, Options, Phase, Player, PlayerView, apply, legal_moves, new_game  # noqa: E402
from battleline_lab.game.expert import DEFAULT_CANDIDATES, DEFAULT_DEPTH, DEFAULT_ROLLOUTS, ExpertBot  # noqa: E402


def measure(
    games: int, seed: int, rollouts: int, candidates: int = DEFAULT_CANDIDATES, depth: int | None = DEFAULT_DEPTH
) -> dict[str, Any]:
    """Play ``games`` games expert against heuristic (alternating who starts, as ``match`` does)."""
    cpu: list[float] = []
    wall: list[float] = []
    wins = draws = 0
    for k in range(games):
        game_seed = seed + k
        expert = ExpertBot(game_seed * 2 + 1, rollouts=rollouts, candidates=candidates, depth=depth)
        heuristic = HeuristicBot(game_seed * 2 + 2)
        me = Player.SOUTH if k % 2 == 0 else Player.NORTH
        state = new_game(game_seed, Options(first=me))
        while not state.over:
            player = state.to_act
            legal = legal_moves(state)
            view = PlayerView(state, player)
            if player is me:
                searched = state.phase is Phase.PLAY and len(legal) > 1
                c0, w0 = time.process_time(), time.perf_counter()
                action = expert.choose(view, legal)
                if searched:
                    cpu.append(time.process_time() - c0)
                    wall.append(time.perf_counter() - w0)
            else:
                action = heuristic.choose(view, legal)
            apply(state, action)
        if state.winner is None:
            draws += 1
        elif state.winner is me:
            wins += 1
    return {
        "games": games,
        "seed": seed,
        "rollouts": rollouts,
        "candidates": candidates,
        "depth": depth,
        "expert_wins": wins,
        "draws": draws,
        "win_rate": round(wins / games, 3) if games else 0.0,
        "moves": len(cpu),
        "median_cpu_seconds": round(statistics.median(cpu), 3) if cpu else 0.0,
        "p90_cpu_seconds": round(statistics.quantiles(cpu, n=10)[-1], 3) if len(cpu) > 1 else 0.0,
        "median_wall_seconds": round(statistics.median(wall), 3) if wall else 0.0,
        "max_cpu_seconds": round(max(cpu), 3) if cpu else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 games (a smoke run)")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    parser.add_argument("--candidates", type=int, default=DEFAULT_CANDIDATES)
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="card plays per play-out (0: to the end)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    games = 2 if args.quick else args.games
    result = measure(games, args.seed, args.rollouts, args.candidates, args.depth or None)
    result["machine"] = {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        "when": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }
    if args.json:
        print(json.dumps(result))
        return 0
    budget = f"{result['rollouts']} play-outs of {result['depth'] or 'all'} plays over {result['candidates']} moves"
    print(f"expert ({budget}) against heuristic, {games} games from seed {args.seed}")
    print(f"  wins {result['expert_wins']}/{games} ({100 * result['win_rate']:.0f}%), draws {result['draws']}")
    print(
        f"  per card play ({result['moves']} plays): median {result['median_cpu_seconds']} s CPU, "
        f"{result['median_wall_seconds']} s wall; 90th percentile {result['p90_cpu_seconds']} s CPU; "
        f"max {result['max_cpu_seconds']} s CPU"
    )
    print(f"  machine: {result['machine']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
