"""The master benchmark runs (two short games against the random bot), writes each game's result and pairs two
runs game by game; strength is measured by hand (docs/game.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.scripts import load_script

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_master.py"


def test_bench_master_runs_and_alternates_the_first_move(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_script(BENCH, "bench_master")
    assert bench.main(["--against", "random", "--games", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "master vs random: " in out and "moving first" in out and "time per decision" in out
    assert [bench.play(("random", "random", 5, k, "after"))[2] for k in range(2)] == [True, False]
    low, high = bench.wilson(50, 100)
    assert low < 0.5 < high


def test_bench_master_ladder_plays_every_lower_rung_and_reports_card_play_medians(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load_script(BENCH, "bench_master")
    assert bench.main(["--ladder", "--games", "1", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    for rung in ("random", "gentle", "heuristic", "expert"):
        assert f"master vs {rung}: " in out
    assert out.count("per card play (CPU ms): median") == 4


def _match(
    won: list[bool], *, against: str = "expert", seed: int = 7000, claims: str | None = None
) -> dict[str, object]:
    """A ``--json`` file's content; ``claims=None`` writes no claim timing, as files did before ``--claims``."""
    games = [{"k": k, "seed": seed + k, "master_first": k % 2 == 0, "won": w, "draw": False} for k, w in enumerate(won)]
    match: dict[str, object] = {"master": "master", "against": against, "seed": seed, "games": games}
    if claims is not None:
        match["claims"] = claims
    return {"matches": [match]}


# (id, A's games, B's games, (compared, only A, only B, z))
PAIRED = [
    ("same-results-no-discordant-game", [True, False, True], [True, False, True], (3, 0, 0, 0.0)),
    ("only-a-won-two-only-b-one", [True, True, False, True], [False, False, True, True], (4, 2, 1, 1 / 3**0.5)),
    ("only-b-won-four", [False] * 4, [True] * 4, (4, 0, 4, -2.0)),
    ("the-shorter-series-is-compared", [True, True, True], [False], (1, 1, 0, 1.0)),
]


@pytest.mark.parametrize(("a", "b", "expected"), [c[1:] for c in PAIRED], ids=[c[0] for c in PAIRED])
def test_bench_master_paired_counts_the_games_only_one_bot_won(
    a: list[bool], b: list[bool], expected: tuple[int, int, int, float]
) -> None:
    bench = load_script(BENCH, "bench_master")
    compared, only_a, only_b, z = bench.paired(_match(a), _match(b))
    assert (compared, only_a, only_b) == expected[:3]
    assert z == pytest.approx(expected[3])


def test_bench_master_paired_refuses_matches_of_other_opponents_or_seeds() -> None:
    bench = load_script(BENCH, "bench_master")
    with pytest.raises(ValueError, match="same opponent"):
        bench.paired(_match([True]), _match([True], against="judge"))
    with pytest.raises(ValueError, match="same opponent"):
        bench.paired(_match([True]), _match([True], seed=9000))
    with pytest.raises(ValueError, match="claim timing"):
        bench.paired(_match([True]), _match([True], claims="start"))
    assert bench.paired(_match([True]), _match([False], claims="after"))[:3] == (1, 1, 0)


def test_bench_master_claims_start_plays_with_claims_at_the_start_of_the_turn_r14(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = load_script(BENCH, "bench_master")
    out = tmp_path / "start.json"
    args = ["--against", "random", "--games", "2", "--seed", "5", "--claims", "start", "--json", str(out)]
    assert bench.main(args) == 0
    assert capsys.readouterr().out.startswith("master vs random, claims at the start of the turn: ")
    match = json.loads(out.read_text())["matches"][0]
    assert match["claims"] == "start" and [g["seed"] for g in match["games"]] == [5, 6]
    seen: list[object] = []
    real = bench.play_game

    def recording(north: object, south: object, seed: int, options: object) -> object:
        seen.append(options.claim_timing)  # type: ignore[attr-defined]
        return real(north, south, seed, options)

    monkeypatch.setattr(bench, "play_game", recording)
    bench.play(("random", "random", 5, 0, "start"))
    bench.play(("random", "random", 5, 0, "after"))
    assert seen == [bench.ClaimTiming.START_OF_TURN, bench.ClaimTiming.AFTER_PLAY]


def test_bench_master_json_holds_each_game_and_paired_reads_it_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_script(BENCH, "bench_master")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert bench.main(["--against", "random", "--games", "3", "--seed", "5", "--json", str(a)]) == 0
    assert (
        bench.main(["--master", "random", "--against", "random", "--games", "3", "--seed", "5", "--json", str(b)]) == 0
    )
    first = capsys.readouterr().out.splitlines()[0]
    match = json.loads(a.read_text())["matches"][0]
    assert (match["master"], match["against"], match["seed"]) == ("master", "random", 5)
    assert [g["seed"] for g in match["games"]] == [5, 6, 7]
    assert [g["master_first"] for g in match["games"]] == [True, False, True]
    wins = sum(g["won"] for g in match["games"])
    assert first.startswith(f"master vs random: {wins} of 3 won")
    assert bench.main(["--paired", str(a), str(b)]) == 0
    assert capsys.readouterr().out.startswith("3 games compared: only A won ")
    assert bench.main(["--paired", str(a), str(tmp_path / "missing.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --paired: ") and "missing.json" in err


def test_bench_master_pyodide_says_what_is_missing_without_a_site_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_script(BENCH, "bench_master")
    assert bench.main(["--pyodide", "--games", "1", "--site-cache", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --pyodide: no Pyodide") and "./dev site" in err


def test_bench_master_pyodide_refuses_games_played_differently(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_script(BENCH, "bench_master")
    here = bench.timed_games("random", "random", 5, 2, "after")
    assert [len(g["digest"]) for g in here] == [16, 16] and here[0]["digest"] != here[1]["digest"]
    job = {"master": "random", "against": "random", "seed": 5, "games": 2, "claims": "after"}
    again = json.loads(bench.pyodide_games(json.dumps(job)))  # what Pyodide runs, here in CPython
    assert [g["digest"] for g in again] == [g["digest"] for g in here]
    there = [dict(here[0]), dict(here[1], digest="0" * 16)]
    monkeypatch.setattr(bench, "run_in_pyodide", lambda *args: there)
    assert bench.main(["--pyodide", "--master", "random", "--against", "random", "--games", "2", "--seed", "5"]) == 2
    assert "games [1] were played differently in Pyodide (seed 5)" in capsys.readouterr().err
