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

``--pyodide`` times the master's card plays in the Python the site's kernel runs: the games are played
here, then again in Pyodide under Node.js (``benchmarks/pyodide_games.mjs``; Pyodide's core and the
pure PyYAML wheel from the site's download cache, ``--site-cache``, which ``./dev site`` fills), one
after the other, both timed by the wall clock (``time.perf_counter``: one thread each); every action
of every game must be the same in both, and the report gives both medians and their ratio (the
target: a median of at most 1 s per card play in Pyodide, docs/game.md).

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
    python benchmarks/bench_master.py --pyodide --games 20 --claims start     # in Pyodide too (./dev site first)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
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
from battleline_lab.game.state import GameState, Options, Phase, Player  # noqa: E402

CLAIMS = {"after": ClaimTiming.AFTER_PLAY, "start": ClaimTiming.START_OF_TURN}  # --claims (R14)


class _Timed:
    """A bot whose decisions are timed (CPU by default; ``clock`` another clock)."""

    def __init__(self, bot: Bot, clock: Callable[[], float] = time.process_time) -> None:
        self.bot = bot
        self.name = bot.name
        self.clock = clock
        self.times: list[float] = []
        self.play_times: list[float] = []

    def choose(self, view, legal):  # type: ignore[no-untyped-def]
        start = self.clock()
        move = self.bot.choose(view, legal)
        spent = self.clock() - start
        self.times.append(spent)
        if view.phase is Phase.PLAY:
            self.play_times.append(spent)
        return move


def play(args: tuple[str, str, int, int, str]) -> tuple[int, int, bool, list[float], list[float]]:
    """Game ``k`` with claims ``args[4]`` (a key of :data:`CLAIMS`): (the master won, a draw, the master moved
    first, its decision times, its card-play times)."""
    state, seat, master_first, timed = _game(*args)
    won = int(state.winner is seat)
    return won, int(state.winner is None), master_first, timed.times, timed.play_times


def _game(
    master: str, against: str, seed: int, k: int, claims: str, clock: Callable[[], float] = time.process_time
) -> tuple[GameState, Player, bool, _Timed]:
    """Play game ``k`` of a match: (its final state, the master's seat, the master moved first, its timings)."""
    s = seed + k
    master_first = k % 2 == 0
    seat = Player.SOUTH if k % 4 < 2 else Player.NORTH
    first = seat if master_first else seat.other
    timed = _Timed(make_bot(master, 2 * s + 1), clock)
    other = make_bot(against, 2 * s + 2)
    north, south = (timed, other) if seat is Player.NORTH else (other, timed)
    state = play_game(north, south, s, Options(claim_timing=CLAIMS[claims], first=first))
    assert state.first is first and state.options.claim_timing is CLAIMS[claims]
    return state, seat, master_first, timed


def timed_games(master: str, against: str, seed: int, games: int, claims: str) -> list[dict[str, Any]]:
    """The match's games timed by the wall clock (``time.perf_counter``, the one clock Pyodide and CPython
    both have for a single thread): for each, whether the master won, a digest of every action played
    (the same seeds must give the same game in any Python) and the master's card-play times."""
    out: list[dict[str, Any]] = []
    for k in range(games):
        state, seat, _, timed = _game(master, against, seed, k, claims, time.perf_counter)
        actions = "\n".join(f"{turn} {actor.name} {action}" for turn, actor, action in state.history)
        digest = hashlib.sha256(actions.encode()).hexdigest()[:16]
        out.append({"won": state.winner is seat, "digest": digest, "play_times": timed.play_times})
    return out


def pyodide_games(job: str) -> str:
    """:func:`timed_games` for a JSON job (``pyodide_games.mjs`` calls it inside Pyodide), as JSON."""
    spec = json.loads(job)
    return json.dumps(timed_games(spec["master"], spec["against"], spec["seed"], spec["games"], spec["claims"]))


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
    parser.add_argument(
        "--pyodide", action="store_true", help="time the same games in CPython and in Pyodide (Node.js), and stop"
    )
    parser.add_argument(
        "--site-cache", type=Path, default=ROOT / ".site-cache", help="where ./dev site keeps Pyodide (--pyodide)"
    )
    args = parser.parse_args(argv)
    if args.pyodide:
        try:
            pyodide_report(args.master, args.against, args.games, args.seed, args.claims, args.site_cache)
        except PyodideRunError as error:
            print(f"error: --pyodide: {error}", file=sys.stderr)
            return 2
        return 0
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


def _times(label: str, times: list[float], unit: str = "CPU ms") -> str:
    times = sorted(times)
    if not times:
        return f"{label}: none"
    return (
        f"{label} ({unit}): median {1000 * statistics.median(times):.1f},"
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


class PyodideRunError(RuntimeError):
    """``--pyodide`` could not run: no Node.js, no Pyodide in the site cache, or the run failed."""


NODE_RUNNER = ROOT / "benchmarks" / "pyodide_games.mjs"


def pyodide_files(cache: Path) -> tuple[Path, Path]:
    """Pyodide's core and the pure PyYAML wheel in the site's download cache (``./dev site`` fills it)."""
    cores = sorted(p.parent for p in cache.glob("pyodide-*/pyodide.mjs"))
    wheels = sorted(cache.glob("sdist-wheels/pyyaml-*.whl"))
    if not cores or not wheels:
        raise PyodideRunError(f"no Pyodide or PyYAML wheel in {cache}: build the site first (./dev site)")
    return cores[-1], wheels[-1]


def run_in_pyodide(master: str, against: str, seed: int, games: int, claims: str, cache: Path) -> list[dict[str, Any]]:
    """:func:`timed_games` run by Pyodide under Node.js (``pyodide_games.mjs``)."""
    node = shutil.which("node")
    if node is None:
        raise PyodideRunError("Node.js is needed (Debian: apt-get install nodejs)")
    core, wheel = pyodide_files(cache)
    job = json.dumps({"master": master, "against": against, "seed": seed, "games": games, "claims": claims})
    run = subprocess.run(
        [node, str(NODE_RUNNER), str(core), str(ROOT), str(wheel), job], capture_output=True, text=True, check=False
    )
    marker = "PYODIDE-RESULT "
    lines = [line for line in run.stdout.splitlines() if line.startswith(marker)]
    if run.returncode != 0 or len(lines) != 1:
        tail = "\n".join(run.stderr.strip().splitlines()[-5:])
        raise PyodideRunError(f"node exited with {run.returncode}: {tail}")
    result: list[dict[str, Any]] = json.loads(lines[0][len(marker) :])
    return result


def pyodide_report(master: str, against: str, games: int, seed: int, claims: str, cache: Path) -> dict[str, Any]:
    """Time the master's card plays on the same games in CPython (this process) and in Pyodide, one after
    the other, and print both and their ratio; the two must play every game action for action alike."""
    here = timed_games(master, against, seed, games, claims)
    there = run_in_pyodide(master, against, seed, games, claims, cache)
    differ = [k for k, (a, b) in enumerate(zip(here, there, strict=True)) if a["digest"] != b["digest"]]
    if differ:
        raise PyodideRunError(f"games {differ} were played differently in Pyodide (seed {seed})")
    cpython = [t for g in here for t in g["play_times"]]
    pyodide = [t for g in there for t in g["play_times"]]
    print(f"{master} vs {against}, {games} games from seed {seed}, claims {claims}: the same actions in both")
    print(_times("CPython, per card play", cpython, "wall ms"))
    print(_times("Pyodide, per card play", pyodide, "wall ms"))
    ratio = statistics.median(pyodide) / statistics.median(cpython)
    total = sum(pyodide) / sum(cpython)
    print(f"Pyodide/CPython: {ratio:.2f}x at the median, {total:.2f}x in total")
    return {"cpython": cpython, "pyodide": pyodide, "median_ratio": ratio, "total_ratio": total}


if __name__ == "__main__":
    raise SystemExit(main())
