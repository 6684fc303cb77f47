"""The ladder benchmark: its pairs, its Glicko-2 periods, and one short run (the published figures: docs/game.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline_lab.game.ladder import LADDER
from battleline_lab.training.glicko2 import Rating, update
from tests.scripts import load_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_ladder.py"


@pytest.mark.parametrize(
    ("reach", "count"),
    [(1, 4), (2, 7), (4, 10)],  # neighbours; and next-but-one; every pair of the five bots
)
def test_pairs_are_at_most_reach_rungs_apart_gentler_first(reach: int, count: int) -> None:
    bench = load_script(BENCH, "bench_ladder")
    pairs = bench.pairs(reach)
    assert len(pairs) == count
    assert all(0 < LADDER.index(b) - LADDER.index(a) <= reach for a, b in pairs)


def test_each_round_is_one_glicko2_period_against_the_ratings_before_it() -> None:
    bench = load_script(BENCH, "bench_ladder")
    results = {("random", "gentle"): [0.0, 0.5], ("gentle", "heuristic"): [1.0, 0.0]}
    got = bench.ratings(results, 2)
    start = {name: Rating() for name in LADDER}
    one = {
        "random": update(start["random"], [(start["gentle"], 0.0)]),
        "gentle": update(start["gentle"], [(start["random"], 1.0), (start["heuristic"], 1.0)]),
        "heuristic": update(start["heuristic"], [(start["gentle"], 0.0)]),
    }
    two = {
        "random": update(one["random"], [(one["gentle"], 0.5)]),
        "gentle": update(one["gentle"], [(one["random"], 0.5), (one["heuristic"], 0.0)]),
        "heuristic": update(one["heuristic"], [(one["gentle"], 1.0)]),
    }
    for name in ("random", "gentle", "heuristic"):
        assert got[name] == two[name]
    assert got["master"] == update(update(Rating(), []), [])  # no games: only the deviation grows


def test_bench_ladder_runs_and_prints_every_pair_and_rating(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_script(BENCH, "bench_ladder")
    assert bench.main(["--games", "1", "--reach", "1", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "gentle vs random: " in out and "master vs expert: " in out
    assert "gentle: 1500 (deviation" in out  # the anchor
    for name in LADDER:
        assert f"{name}: " in out
