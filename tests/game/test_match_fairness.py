"""Fair matches: who moves first, read from the games' records, not from the seats.

In the default mode bot A moves first in the even games and bot B in the odd ones; with
``--winner-starts`` the winner of a game moves first in the next (R17), A in the first game and
after a draw.  The records' first action tells who really moved first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from battleline_lab.cli.game import main
from battleline_lab.core.position import ClaimTiming
from battleline_lab.game import GameState, Player, run_match
from battleline_lab.game.match import play_match_game


def _first_movers(bot_a: str, bot_b: str, games: int, seed: int, **kwargs: Any) -> list[tuple[str, str | None]]:
    """For each game: the label (A or B) of the bot whose action opens the record, and the winner's label."""
    assert bot_a != bot_b, "distinct bots, so that the names tell A from B"
    out: list[tuple[str, str | None]] = []

    def on_game(k: int, state: GameState, names: dict[Player, str]) -> None:
        label = {p: "A" if names[p] == bot_a else "B" for p in Player}
        _, actor, _ = state.history[0]
        out.append((label[actor], None if state.winner is None else label[state.winner]))

    run_match(bot_a, bot_b, games=games, seed=seed, on_game=on_game, **kwargs)
    return out


@pytest.mark.parametrize("jobs", [1, 2])
def test_default_match_alternates_who_moves_first(jobs: int) -> None:
    movers = _first_movers("random", "heuristic", games=6, seed=11, jobs=jobs)
    assert [m for m, _ in movers] == ["A", "B", "A", "B", "A", "B"]


def test_winner_starts_the_next_game_R17() -> None:
    movers = _first_movers("random", "heuristic", games=8, seed=4, winner_starts=True)
    assert movers[0][0] == "A"
    for (_, winner), (next_first, _) in zip(movers, movers[1:]):
        assert next_first == (winner or "A")  # the winner moves first; after a draw, A
    assert any(m == "B" for m, _ in movers), "the heuristic bot wins some games, so B starts some"


@pytest.mark.parametrize("a_starts", [True, False])
def test_play_match_game_the_starting_bot_moves_first(a_starts: bool) -> None:
    a_player, state = play_match_game("random", "random", 5, a_starts, ClaimTiming.AFTER_PLAY, None)
    _, actor, _ = state.history[0]
    assert (actor is a_player) is a_starts and state.first is actor


@pytest.mark.parametrize(
    ("option", "value", "limit"),
    [
        ("--games", "99999999999999999999", "100000"),
        ("--games", "100001", "100000"),
        ("--rollouts", "10001", "10000"),
        ("--jobs", "65", "64"),
        ("--seed", "1" + "0" * 19, "1000000000000000000"),
        ("--seed", "-" + "9" * 30, "1000000000000000000"),
    ],
)
def test_numeric_options_have_upper_bounds(
    option: str, value: str, limit: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", "random", "random", option, value]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and limit in err and option in err


def test_the_bounds_are_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "(at most 100000)" in out and "(at most 10000)" in out and "(at most 64)" in out


def test_replay_at_has_a_bound(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "none.yaml"), "--at", "10001"]) == 2
    assert "10000" in capsys.readouterr().err


def test_records_that_is_a_file_is_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a.yaml"
    blocker.write_text("x", encoding="utf-8")
    assert main(["match", "random", "random", "--games", "1", "--records", str(blocker)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{blocker}:1:1: error: ") and blocker.read_text(encoding="utf-8") == "x"
