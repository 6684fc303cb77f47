"""Benchmark: the master bot against another bot, the first move alternating.

Game ``k`` (seed ``SEED + k``) is dealt with ``Options(first=...)``: the master moves first in the
even games, and it sits south in games ``k % 4 in (0, 1)``, north otherwise, so both the first
move and the seat alternate (``game/match.py`` of this session let bot A move first in every game).
The master is seeded ``2 * (SEED + k) + 1``, its opponent ``2 * (SEED + k) + 2``.  Reported: wins,
draws, the win share with its 95 % Wilson interval, wins moving first and second, and the
master's time per decision (CPU, ``time.process_time``; every decision, the claim and draw steps
too) as median, 90th percentile and worst, and the same for its card plays alone (the figure the
100 ms target is about).  ``--ladder`` plays the master against every lower rung of the ladder
(``game/ladder.py``'s ``LADDER``) in turn, ``--games`` each, on the same seeds.  ``--claims start``
plays every game with claims at the start of the turn (R14), where a finished side stands through the
opponent's turn before it can be claimed; the default is claims after playing.  ``--jobs N``
splits the games over N processes; the games and the result are the same.  Targets (>= 85 % against
the expert over 400 games, <= 100 ms median per card play) are reported, never asserted; the figures
go in docs/game.md.

The master (``make_bot("master")``) is the sampling master of ``game/sampler.py``; ``--master judge``
measures the judge alone (its prior and play-out policy) on the same deals, for a paired comparison:
``--json FILE`` writes every game's result (its seed, who moved first, won or not), and ``--paired A B``
compares two such files game by game (the same opponent and seeds): the games only A won, only B won,
and McNemar's z over them, ``(only A - only B) / sqrt(only A + only B)``.

Usage::

    python benchmarks/bench_master.py --games 400 --seed 2027 --jobs 2       # against the expert
    python benchmarks/bench_master.py --master judge --games 400 --seed 2027  # the judge on the same games
    python benchmarks/bench_master.py --against judge --games 200             # the master against its prior
    python benchmarks/bench_master.py --against heuristic --games 100
    python benchmarks/bench_master.py --ladder --games 100                  # every lower rung
    python benchmarks/bench_master.py --claims start --games 400 --jobs 2   # claims at the start of the turn
    python benchmarks/bench_master.py --games 400 --seed 2027 --json master.json
    python benchmarks/bench_master.py --master judge --games 400 --seed 2027 --json judge.json
    python benchmarks/bench_master.py --paired master.json judge.json         # game by game
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from battleline_lab.core.position import ClaimTiming  # noqa: E402
from battleline_lab.game.bot_base import Bot  # noqa: E402
from battleline_lab.game.bots import make_bot  # noqa: E402
from battleline_lab.game.ladder import LADDER  # noqa: E402
from battleline_lab.game.match import play_game  # noqa: E402
from battleline_lab.game.state import Options, Phase, Player  # noqa: E402

CLAIMS = {"after": ClaimTiming.AFTER_PLAY, "start": ClaimTiming.START_OF_TURN}  # --claims (R14)


class _Timed:
    """A bot whose decisions are timed (CPU)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []
        self.play_times: list[float] = []

    def choose(self, view, legal):  # type: ignore[no-untyped-def]
        start = time.process_time()
        move = self.bot.choose(view, legal)
        spent = time.process_time() - start
        self.times.append(spent)
        if view.phase is Phase.PLAY:
            self.play_times.append(spent)
        return move


def play(args: tuple[str, str, int, int, str]) -> tuple[int, int, bool, list[float], list[float]]:
    """Game ``k`` with claims ``args[4]`` (a key of :data:`CLAIMS`): (the master won, a draw, the master moved
    first, its decision times, its card-play times)."""
    master, against, seed, k, claims = args
    s = seed + k
    master_first = k % 2 == 0
    seat = Player.SOUTH if k % 4 < 2 else Player.NORTH
    first = seat if master_first else seat.other
    timed = _Timed(make_bot(master, 2 * s + 1))
    other = make_bot(against, 2 * s + 2)
    north, south = (timed, other) if seat is Player.NORTH else (other, timed)
    state = play_game(north, south, s, Options(claim_timing=CLAIMS[claims], first=first))
    assert state.first is first and state.options.claim_timing is CLAIMS[claims]
    won = int(state.winner is seat)
    return won, int(state.winner is None), master_first, timed.times, timed.play_times


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--master", default="master")
    parser.add_argument("--against", default="expert")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--claims", choices=sorted(CLAIMS), default="after", help="when claims are made (R14)")
    parser.add_argument("--ladder", action="store_true", help="against every lower rung of the ladder")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every game's result to FILE")
    parser.add_argument(
        "--paired", nargs=2, type=Path, metavar=("A", "B"), help="compare two --json files game by game, and stop"
    )
    args = parser.parse_args(argv)
    if args.paired:
        try:
            print(paired_line(*(json.loads(path.read_text(encoding="utf-8")) for path in args.paired)))
        except (OSError, ValueError, KeyError) as error:
            print(f"error: --paired: {error}", file=sys.stderr)
            return 2
        return 0
    rungs = LADDER[: LADDER.index(args.master)] if args.master in LADDER else LADDER
    opponents = list(rungs) if args.ladder else [args.against]
    matches = [report(args.master, against, args.games, args.seed, args.jobs, args.claims) for against in opponents]
    if args.json:
        args.json.write_text(json.dumps({"matches": matches}, indent=1) + "\n", encoding="utf-8")
    return 0


def paired(a: dict[str, Any], b: dict[str, Any]) -> tuple[int, int, int, float]:
    """Games compared, games only ``a``'s bot won, only ``b``'s, and McNemar's z: the matches of two
    ``--json`` files against the same opponent from the same seed with the same claim timing (files written
    before ``--claims`` existed are claims after playing), game ``k`` with game ``k``."""
    only_a = only_b = compared = 0
    for match_a in a["matches"]:
        for match_b in b["matches"]:
            if _key(match_a) != _key(match_b):
                continue
            for game_a, game_b in zip(match_a["games"], match_b["games"], strict=False):
                compared += 1
                only_a += int(game_a["won"] and not game_b["won"])
                only_b += int(game_b["won"] and not game_a["won"])
    if not compared:
        raise ValueError("the two files have no match against the same opponent from the same seed and claim timing")
    z = (only_a - only_b) / math.sqrt(only_a + only_b) if only_a + only_b else 0.0
    return compared, only_a, only_b, z


def _key(match: dict[str, Any]) -> tuple[Any, Any, Any]:
    return match["against"], match["seed"], match.get("claims", "after")


def paired_line(a: dict[str, Any], b: dict[str, Any]) -> str:
    compared, only_a, only_b, z = paired(a, b)
    return f"{compared} games compared: only A won {only_a}, only B won {only_b}, McNemar z {z:.2f}"


def _times(label: str, times: list[float]) -> str:
    times = sorted(times)
    if not times:
        return f"{label}: none"
    return (
        f"{label} (CPU ms): median {1000 * statistics.median(times):.1f},"
        f" 90th percentile {1000 * times[int(0.9 * (len(times) - 1))]:.1f}, worst {1000 * times[-1]:.1f}"
        f" over {len(times)}"
    )


def report(master: str, against: str, games: int, seed: int, jobs: int, claims: str = "after") -> dict[str, object]:
    """Play the match, print its two lines of figures and return every game's result (``--json``)."""
    tasks = [(master, against, seed, k, claims) for k in range(games)]
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(play, tasks))
    else:
        results = [play(t) for t in tasks]
    wins = sum(r[0] for r in results)
    draws = sum(r[1] for r in results)
    first = sum(r[0] for r in results if r[2])
    times = [t for r in results for t in r[3]]
    play_times = [t for r in results for t in r[4]]
    low, high = wilson(wins, len(results))
    print(
        f"{master} vs {against}{'' if claims == 'after' else ', claims at the start of the turn'}:"
        f" {wins} of {len(results)} won ({100 * wins / len(results):.1f}%,"
        f" 95% interval {100 * low:.1f}-{100 * high:.1f}%), {draws} draws; won {first} moving first,"
        f" {wins - first} moving second"
    )
    print(f"{_times('time per decision', times)} decisions; {_times('per card play', play_times)} card plays")
    return {
        "master": master,
        "against": against,
        "seed": seed,
        "claims": claims,
        "games": [
            {"k": k, "seed": seed + k, "master_first": r[2], "won": bool(r[0]), "draw": bool(r[1])}
            for k, r in enumerate(results)
        ],
    }


if __name__ == "__main__":
    raise SystemExit(main())
