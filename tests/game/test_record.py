"""Game records: round trips, and every kind of bad record gives FILE:LINE:COL: error: (exit 2 in the CLI)."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline_lab.cli.game import main
from battleline_lab.core.position import ClaimTiming
from battleline_lab.game import HeuristicBot, Options, Player, RandomBot, play_game, to_position
from battleline_lab.game.record import GameRecord, RecordError, dump_record, load_record, load_record_text

GOOD = """\
seed: 1
options: {claim_timing: after_play, first: south}
moves:
- south: play r9 3; draw troops
- north: play {north} 4; draw troops
"""


def north_card() -> str:
    from battleline_lab.game import new_game

    state = new_game(1, Options(first=Player.SOUTH))
    return sorted(c.notation for c in state.hands[Player.NORTH])[0]


def test_round_trip_of_a_finished_game_with_players_and_result() -> None:
    state = play_game(HeuristicBot(3), RandomBot(4), 21, Options(claim_timing=ClaimTiming.END_OF_TURN))
    text = dump_record(state, {Player.NORTH: "heuristic", Player.SOUTH: "random"})
    assert "players: {north: heuristic, south: random}" in text and "result: {winner:" in text
    record = load_record_text(text)
    assert record.players == {"north": "heuristic", "south": "random"}
    assert record.options.claim_timing is ClaimTiming.END_OF_TURN
    assert record.replay().history == state.history
    assert record.to_yaml() == text


def test_an_unfinished_game_loads_and_replays() -> None:
    record = load_record_text(GOOD.replace("{north}", north_card()))
    state = record.replay()
    assert not state.over and state.turn is Player.SOUTH and state.turn_number == 3


def test_a_last_turn_may_be_unfinished() -> None:
    text = "seed: 1\noptions: {first: south}\nmoves:\n- south: play r9 3\n"
    state = load_record_text(text).replay()
    assert state.turn is Player.SOUTH and state.phase.value == "draw"


def errors(text: str) -> list[str]:
    with pytest.raises(RecordError) as info:
        load_record_text(text, "g.yaml")
    return info.value.lines()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("seed: [1\n", "g.yaml:2:1: error: YAML syntax error"),
        (
            "seed: !!python/object:os.system 1\nmoves: []\n",
            "g.yaml:1:7: error: tags (!!python/object:os.system) are not allowed",
        ),
        ("seed: &a 1\nmoves: *a\n", "g.yaml:1:7: error: anchors"),
        (
            "sed: 1\nmoves: []\n",
            "g.yaml:1:1: error: unknown key 'sed' in a game record (keys: seed, options, players, moves, result)"
            " (did you mean 'seed'?)",
        ),
        ("seed: one\nmoves: []\n", "g.yaml:1:7: error: seed must be a whole number, not 'one'"),
        (
            "seed: 1\noptions: {claim_timing: later}\nmoves: []\n",
            "g.yaml:2:25: error: claim_timing must be one of after_play, start_of_turn, end_of_turn, not 'later'",
        ),
        ("seed: 1\n", "g.yaml:1:1: error: missing key 'moves'"),
        ("seed: 1\nmoves: {a: 1}\n", "g.yaml:2:8: error: moves must be a list of turns"),
        (
            "seed: 1\noptions: {first: south}\nmoves:\n- play r9 3\n",
            "g.yaml:4:3: error: turn 1 must be 'PLAYER: ACTION; ACTION...'",
        ),
        (
            "seed: 1\noptions: {first: south}\nmoves:\n- north: play r9 3\n",
            "g.yaml:4:3: error: turn 1 is south's turn, not north's (R5)",
        ),
        (
            "seed: 1\noptions: {first: south}\nmoves:\n- south: play r9 3; fly 2\n",
            "g.yaml:4:21: error: 'fly 2': unknown action 'fly'",
        ),
        (
            "seed: 1\noptions: {first: south}\nmoves:\n- south: play b1 3\n",
            "g.yaml:4:10: error: turn 1, 'play b1 3' is not possible now: b1 is not in the player's hand (R5)",
        ),
        (
            "seed: 1\noptions: {first: south}\nmoves:\n- south: 'play r9 3; claim 3'\n",
            "g.yaml:4:22: error: turn 1, 'claim 3' is not possible now: claims are made after playing a card",
        ),
        (
            "seed: 1\noptions: {first: south}\nmoves:\n- south: play r9 3\n- north: pass\n",
            "g.yaml:4:10: error: turn 1 is not finished: south must draw a card (R5)",
        ),
        (
            "seed: 1\noptions: {first: south}\nmoves:\n- south: play r9 3; draw troops; draw troops\n",
            "g.yaml:4:34: error: turn 1, 'draw troops' is not possible now: north must play a card or pass (R5)",
        ),
        (
            "seed: 1\nmoves: []\nresult: {winner: south}\n",
            "g.yaml:3:18: error: result winner is 'south', but the replay gives 'null'",
        ),
    ],
    ids=[
        "syntax",
        "tag",
        "anchor",
        "unknown-key",
        "seed",
        "timing",
        "missing-moves",
        "moves-mapping",
        "turn-shape",
        "wrong-player",
        "notation",
        "not-in-hand",
        "claim-timing",
        "unfinished",
        "out-of-turn",
        "result",
    ],
)
def test_bad_records(text: str, expected: str) -> None:
    lines = errors(text)
    assert any(line.startswith(expected) for line in lines), lines


def test_replay_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = play_game(RandomBot(1), RandomBot(2), 5)
    good = tmp_path / "good.yaml"
    good.write_text(dump_record(state), encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed: 1\nmoves:\n- east: pass\n", encoding="utf-8")
    assert main(["replay", str(good)]) == 0
    assert "winner" in capsys.readouterr().out
    assert main(["replay", str(good), str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:3:3: error: turn 1: 'east' is not a player") and "Traceback" not in err


def test_unreadable_and_oversized_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.yaml")
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (1 << 20 + 1))
    with pytest.raises(RecordError, match="larger than"):
        load_record(big)
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"seed: 1\n# \xe9\n")
    with pytest.raises(RecordError, match=r"latin.yaml:2:1: error: the file is not UTF-8"):
        load_record(latin)


def test_hostile_yaml_is_an_error_not_a_crash() -> None:
    assert errors("seed: " + "[" * 100_000 + "\n") == [
        "g.yaml:1:1: error: the YAML is nested too deeply to be a game record"
    ]
    assert errors("seed: 1\x07\n")[0].startswith("g.yaml:1:8: error: YAML syntax error")


def test_record_from_a_fresh_game_is_empty() -> None:
    from battleline_lab.game import new_game

    record = GameRecord.from_state(new_game(4))
    assert record.turns == () and record.result is None
    assert load_record_text(record.to_yaml()).replay().hands == new_game(4).hands


DATA = Path(__file__).with_name("data")


@pytest.mark.parametrize("name", ["heuristic-vs-random.yaml", "start-of-turn.yaml"])
def test_committed_records_replay_to_their_result(name: str) -> None:
    """Golden records: old games must keep replaying to the same result as the engine changes."""
    record = load_record(DATA / name)  # the loader checks the recorded result against the replay
    assert record.result is not None and record.result["winner"] is not None
    state = record.replay()
    assert state.over and state.turn_number == record.result["turns"]
    assert dump_record(state, {Player(k): v for k, v in record.players.items()}) == (DATA / name).read_text()


def test_a_random_game_record_is_stable() -> None:
    """Same seeds, same bots, same record text (the engine and both bots are deterministic)."""
    state = play_game(HeuristicBot(1), RandomBot(2), 2026)
    assert dump_record(state, {Player.NORTH: "heuristic", Player.SOUTH: "random"}) == (
        DATA / "heuristic-vs-random.yaml"
    ).read_text(encoding="utf-8")


@pytest.mark.parametrize(("turn", "viewer"), [(1, None), (20, None), (20, "north"), (40, "south"), (49, None)])
def test_replay_at_a_turn_prints_a_puzzle_that_checks(
    turn: int, viewer: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    from battleline_lab.quiz.loader import load_puzzle_text

    argv = ["replay", str(DATA / "heuristic-vs-random.yaml"), "--at", str(turn)]
    assert main(argv + (["--as", viewer] if viewer else [])) == 0
    text = capsys.readouterr().out
    puzzle = load_puzzle_text(text, "turn.yaml")
    assert puzzle.is_correct(puzzle.answer)
    assert f"heuristic-vs-random-turn-{turn}" in text
    record = load_record(DATA / "heuristic-vs-random.yaml")
    state = record.replay(turn - 1)
    expected = Player(viewer) if viewer else state.turn
    assert puzzle.position == to_position(state, expected)


def test_replay_at_a_missing_turn(capsys: pytest.CaptureFixture[str]) -> None:
    for turn in ("50", "51"):  # the game ended during turn 49
        assert main(["replay", str(DATA / "heuristic-vs-random.yaml"), "--at", turn]) == 2
        assert f"no game in progress at the start of turn {turn}" in capsys.readouterr().err
