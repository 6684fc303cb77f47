"""Benchmark: kernel time of a click in the game widget, over whole seeded games against the bot.

The budget for a widget click is 100 ms of kernel time (a click must feel immediate).  This plays whole games through
:class:`~battleline_lab.widgets.game.GameWidget` (the learner's side chosen at random among the
legal moves, the heuristic bot answering) and times each tap on the board's hooks
(:class:`battleline_lab.widgets.board.Taps`, the same intents the browser sends): the handler, the
engine calls, the bot's reply when the tap ends the learner's turn, and the new view model,
coach and log.  Taps are grouped by kind:

* ``open``: building the widget (a fresh deal);
* ``card`` / ``target``: choosing a hand card, or the card a guile tactic acts on (no move yet;
  a card played to a flag is selected in the browser, so its tap costs the kernel nothing);
* ``flag``: the destination, which plays the card;
* ``draw`` / ``claim`` / ``other``: draw, claim (proved), end-claiming, pass, Scout, returns...;
* ``refused claim``: a tap on a flag the engine refuses to let you claim, with its proof;
* ``turn end``: the subset of clicks that end the learner's turn, so include the bot's reply.

Each game is played twice, coach off and coach on (the coach re-runs the claim proofs of every
flag the player has cards at, on every click).  Thresholds are reported, never asserted.

Usage::

    python benchmarks/bench_game_widget.py            # 6 games, coach off and on
    python benchmarks/bench_game_widget.py --quick    # 1 game
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from typing import Any

from battleline_lab.game import Claim, PlayerView, RandomBot, legal_moves
from battleline_lab.widgets.game import GameWidget, action_path

TARGET_MS = 100.0
KINDS = ("open", "card", "target", "flag", "draw", "claim", "other", "refused claim", "turn end")


def tap(widget: GameWidget, token: tuple[Any, ...]) -> None:
    """One tap on the board's hooks, as the browser makes it (a hand card, a flag, a deck...)."""
    taps = widget.taps
    kind = token[0]
    if kind == "card":
        taps.card(token[1].notation)
    elif kind == "target":
        taps.target(token[1].notation)
    elif kind in ("flag", "claim"):
        taps.flag(token[1])
    elif kind == "draw":
        taps.draw(token[1].value)
    else:
        taps.action(kind)


def play(seed: int, coach: bool) -> dict[str, list[float]]:
    """One whole game by clicks; milliseconds per click, by kind."""
    times: dict[str, list[float]] = defaultdict(list)
    start = time.perf_counter()
    widget = GameWidget(bot="heuristic", seed=seed)
    times["open"].append((time.perf_counter() - start) * 1000)
    widget.coach_toggle.value = coach
    chooser = RandomBot(seed)
    rng = random.Random(seed)
    while not widget.state.over:
        state = widget.state
        legal = legal_moves(state)
        # now and then a claim the engine refuses (the learner asking "why not?")
        refusable = [n for n in range(1, 10) if state.claimed[n - 1] is None and Claim(n) not in legal]
        if refusable and rng.random() < 0.3:
            t0 = time.perf_counter()
            widget.taps.flag(rng.choice(refusable))  # a tap on a flag that cannot be claimed: the proof
            times["refused claim"].append((time.perf_counter() - t0) * 1000)
        action = chooser.choose(PlayerView(state, state.to_act), legal)
        for token in action_path(action):
            turn = state.turn_number
            t0 = time.perf_counter()
            tap(widget, token)
            ms = (time.perf_counter() - t0) * 1000
            kind = token[0] if token[0] in ("card", "target", "flag", "draw", "claim") else "other"
            times[kind].append(ms)
            if widget.state.turn_number != turn or widget.state.over:
                times["turn end"].append(ms)
    return times


def summary(values: list[float]) -> tuple[int, float, float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return len(ordered), statistics.median(ordered), p95, ordered[-1]


def run(games: int, seed: int = 100) -> dict[bool, dict[str, list[float]]]:
    out: dict[bool, dict[str, list[float]]] = {}
    for coach in (False, True):
        merged: dict[str, list[float]] = defaultdict(list)
        for k in range(games):
            for kind, values in play(seed + k, coach).items():
                merged[kind].extend(values)
        out[coach] = merged
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one game (a smoke run)")
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args(argv)
    os.environ.setdefault("BATTLELINE_LAB_DATA", tempfile.mkdtemp(prefix="bench-game-widget-"))
    games = 1 if args.quick else args.games
    results = run(games)
    print(f"game widget clicks over {games} seeded game(s) against the heuristic bot (kernel time, ms)")
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cpus")
    worst = 0.0
    for coach, times in results.items():
        print(f"\ncoach {'on' if coach else 'off'}")
        print(f"{'click':15} {'clicks':>7} {'median':>8} {'p95':>8} {'max':>8}")
        for kind in KINDS:
            if times.get(kind):
                n, median, p95, most = summary(times[kind])
                worst = max(worst, most)
                print(f"{kind:15} {n:7} {median:8.2f} {p95:8.2f} {most:8.2f}")
    print(f"\nslowest click: {worst:.1f} ms (target {TARGET_MS:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
