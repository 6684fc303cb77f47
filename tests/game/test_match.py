"""The match command and the bots' strength (heuristic against random)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from battleline_lab.cli.game import main
from battleline_lab.game import (
    Claim,
    GameState,
    HeuristicBot,
    Options,
    Phase,
    Player,
    PlayerView,
    RandomBot,
    apply,
    legal_moves,
    make_bot,
    new_game,
    run_match,
)
from battleline_lab.game.match import MatchResult, MatchTally
from battleline_lab.game.record import load_record
from battleline_lab.game.three_bots import ThreeMatchResult, run_three_match


def test_match_json_is_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "random", "random", "--games", "6", "--seed", "4", "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    data = json.loads(out[0])
    assert data["games"] == 6 and set(data["wins"]) == {"A", "B"}
    assert data["wins"]["A"] + data["wins"]["B"] + data["draws"] == 6
    assert data["average_turns"] > 10 and set(data["flags_per_game"]) == {"A", "B"}


def test_match_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "heuristic", "random", "--games", "2", "--seed", "1", "--claim-timing", "start_of_turn"]) == 0
    out = capsys.readouterr().out
    assert "heuristic (A) against random (B): 2 games from seed 1" in out
    assert "wins: A" in out and "average game length:" in out and "flags held per game:" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "clever", "random"],
        ["match", "random", "random", "--games", "0"],
        ["match", "random"],
        ["match", "random", "random", "--seed", "x"],
    ],
)
def test_match_bad_usage_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_matches_alternate_who_starts_and_are_reproducible() -> None:
    a = run_match("random", "random", games=4, seed=9)
    b = run_match("random", "random", games=4, seed=9)
    assert a.as_dict() | {"seconds": 0} == b.as_dict() | {"seconds": 0}


def test_heuristic_bot_beats_random_bot() -> None:
    """Strength: the full figure is >= 90% of 500 games (benchmarks/bench_game.py); CI checks 60."""
    result = run_match("heuristic", "random", games=60, seed=2026)
    assert result.wins["A"] >= 48, result.as_dict()  # >= 80%


def test_heuristic_bot_claims_at_once_and_plays_tactics() -> None:
    tactics = 0
    for seed in range(6):
        state = new_game(seed, Options(first=Player.SOUTH))
        bots = {Player.SOUTH: HeuristicBot(seed), Player.NORTH: RandomBot(seed)}
        while not state.over:
            player = state.to_act
            moves = legal_moves(state)
            action = bots[player].choose(PlayerView(state, player), moves)
            if player is Player.SOUTH and state.phase is Phase.CLAIM:
                assert isinstance(action, Claim), "the heuristic bot claims everything it can prove"
            apply(state, action)
        tactics += state.tactics_played[Player.SOUTH]
    assert tactics > 0


def test_R17_series_the_winner_starts_the_next_game() -> None:
    result = run_match("heuristic", "random", games=4, seed=3, winner_starts=True)
    assert result.as_dict()["starts"] == "winner"
    assert result.wins["A"] == 4 and result.points["A"] == 20  # 5 points per win (R17)


def test_unknown_bot_name() -> None:
    with pytest.raises(ValueError, match="name='clever' is refused: expected the name of a bot: random, heuristic"):
        make_bot("clever")


def test_match_saves_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    argv = ["match", "heuristic", "random", "--games", "2", "--seed", "5", "--records", str(folder), "--json"]
    assert main(argv) == 0
    capsys.readouterr()
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["game-5.yaml", "game-6.yaml"]
    record = load_record(folder / "game-6.yaml")
    assert record.players == {"north": "heuristic", "south": "random"}  # game 1 (odd): B starts, sitting south
    assert record.replay().over
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["match", "random", "random", "--games", "1", "--records", str(blocker / "sub")]) == 2
    assert "cannot create the folder" in capsys.readouterr().err


def test_match_jobs_gives_the_same_json_as_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    """``--jobs 2`` plays the games in two processes; game k still uses seed S+k, so only the time differs."""
    out = {}
    for jobs in ("1", "2"):
        assert main(["match", "heuristic", "random", "--games", "5", "--seed", "9", "--jobs", jobs, "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        del data["seconds"]
        out[jobs] = data
    assert out["1"] == out["2"] and out["1"]["games"] == 5


def test_run_match_jobs_passes_games_in_order() -> None:
    seen: list[tuple[int, int, str]] = []

    def on_game(k: int, state: GameState, names: dict[Player, str]) -> None:
        seen.append((k, len(state.history), names[Player.SOUTH]))

    one = run_match("random", "heuristic", games=4, seed=3, jobs=1, on_game=on_game)
    first, seen[:] = list(seen), []
    two = run_match("random", "heuristic", games=4, seed=3, jobs=2, on_game=on_game)
    assert seen == first and [k for k, _, _ in seen] == [0, 1, 2, 3]
    assert {**one.as_dict(), "seconds": 0} == {**two.as_dict(), "seconds": 0}
    assert [s for _, _, s in first] == ["random", "heuristic", "random", "heuristic"]  # A starts the even games


#: one tally for every match: (the match, its labels, the --json keys in order)
TALLIES: dict[str, tuple[Callable[[], MatchResult | ThreeMatchResult], tuple[str, ...], list[str]]] = {
    "two-players": (
        lambda: run_match("random", "heuristic", games=4, seed=3),
        ("A", "B"),
        [
            "games",
            "bots",
            "seed",
            "starts",
            "wins",
            "draws",
            "average_turns",
            "average_actions",
            "flags_per_game",
            "points",
            "end_reasons",
            "seconds",
        ],
    ),
    "three-players": (
        lambda: run_three_match("random", "heuristic", "random", games=3, seed=3),
        ("A", "B", "C"),
        [
            "players",
            "games",
            "bots",
            "seed",
            "seats",
            "wins",
            "draws",
            "average_turns",
            "average_actions",
            "flags_per_game",
            "end_reasons",
            "seconds",
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(TALLIES))
def test_every_match_sums_up_its_games_with_one_tally(name: str) -> None:
    play, labels, keys = TALLIES[name]
    result = play()
    assert isinstance(result, MatchTally)
    data = result.as_dict()
    assert list(data) == keys
    assert list(data["wins"]) == list(data["flags_per_game"]) == list(labels)
    assert sum(data["wins"].values()) + data["draws"] == data["games"] == result.games
    assert sum(data["end_reasons"].values()) == result.games
    assert data["average_turns"] == round(result.turns / result.games, 2)
    assert result.actions >= result.turns > 0
