"""The game review (battleline_lab.game.review) and the ``review`` command.

Every moment's puzzle must carry the engine's answer (R12), sit at a claim
moment of the game's claim timing (R14), and say what became of the flag.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from battleline_lab.cli import main as cli_main
from battleline_lab.core.claims import claimable_flags
from battleline_lab.core.position import ClaimTiming, Side
from battleline_lab.game import Options, Player, RandomBot, play_game
from battleline_lab.game.record import GameRecord, dump_record, load_record_text
from battleline_lab.game.review import MomentKind, review
from battleline_lab.quiz.loader import load_puzzle

TIMINGS = list(ClaimTiming)


def _game(seed: int, timing: ClaimTiming = ClaimTiming.AFTER_PLAY):  # type: ignore[no-untyped-def]
    return play_game(RandomBot(seed), RandomBot(seed + 100), seed=seed, options=Options(claim_timing=timing))


@pytest.mark.parametrize("timing", TIMINGS, ids=[t.value for t in TIMINGS])
def test_R12_R14_every_moment_is_a_correct_puzzle(timing: ClaimTiming) -> None:
    kinds: set[MomentKind] = set()
    for seed in range(4):
        state = _game(seed, timing)
        claims = {(turn, actor, a.flag) for turn, actor, a in state.history if a.notation.startswith("claim")}
        for player in Player:
            result = review(state, player)
            assert result.player is player and result.winner is state.winner
            for m in result.moments:
                kinds.add(m.kind)
                puzzle = m.puzzle
                assert puzzle.solve() == m.answer  # the engine's answer, not a stored guess
                assert m.position.claim_timing is timing
                assert m.position.turn is (Side.YOU if m.claimer is player else Side.OPPONENT)
                assert m.note("en") and m.note("zh") and m.title("zh")
                if m.kind is MomentKind.MISSED:
                    assert m.claimer is player
                    assert isinstance(m.answer, list) and set(m.flags) <= set(m.answer)
                    # provable then, and not claimed in that claim step
                    assert all((m.turn, player, n) not in claims for n in m.flags)
                elif m.kind is MomentKind.OPPONENT_EARLY:
                    assert m.claimer is player.other and m.answer is True
                    assert all((m.turn, player.other, n) not in claims for n in m.flags)
                else:
                    assert m.answer is False  # R11: equal formations, the opponent completed first
                for n, fate in zip(m.flags, m.fates):
                    owner = state.claimed[n - 1]
                    assert fate.player is owner
                    if fate.turn is not None:
                        assert fate.turn >= m.turn and (fate.turn, owner, n) in claims
    assert MomentKind.MISSED in kinds and MomentKind.OPPONENT_EARLY in kinds


def test_R11_tie_lost_by_completing_second() -> None:
    ties = [m for seed in (1, 2) for m in review(_game(seed), Player.SOUTH).moments if m.kind.value == "tie_second"]
    assert ties, "no tie moment in these games"
    m = ties[0]
    flag = m.position.flag(m.flags[0])
    assert flag.first_complete is Side.OPPONENT and m.answer is False
    assert "R11" in m.note("en") and "R11" in m.note("zh")


def test_review_golden_game_seed_17() -> None:
    result = review(_game(17), Player.NORTH)
    lines = [(m.turn, m.kind.value, m.flags) for m in result.moments]
    assert lines == [(m.turn, m.kind.value, m.flags) for m in review(GameRecord.from_state(_game(17)), "north").moments]
    assert all(m.claimer in Player for m in result.moments)


def test_a_review_of_a_bot_that_always_claims_has_no_missed_claims() -> None:
    from battleline_lab.game import HeuristicBot

    state = play_game(HeuristicBot(1), RandomBot(2), seed=5)
    assert all(m.kind is not MomentKind.MISSED for m in review(state, Player.NORTH).moments)


def test_missed_claim_is_the_engine_claimable_list() -> None:
    state = _game(17)
    m = next(m for m in review(state, Player.SOUTH).moments if m.kind is MomentKind.MISSED)
    assert list(claimable_flags(m.position)) == m.answer


def _record_file(tmp_path: Path, seed: int = 17) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(dump_record(_game(seed)), encoding="utf-8")
    return path


def test_review_command_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record_file(tmp_path)
    assert cli_main(["review", str(path), "--player", "north"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Review for North") and "turn " in out
    assert cli_main(["review", str(path), "--json", "--lang", "zh"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["player"] == "south" and data["moments"]
    assert all("回合" in m["note"] for m in data["moments"])


def test_review_out_writes_puzzles_that_pass_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record_file(tmp_path)
    out = tmp_path / "puzzles"
    assert cli_main(["review", str(path), "--out", str(out)]) == 0
    files = sorted(out.glob("*.yaml"))
    assert files and not list(out.glob(".*"))  # no temporary files left
    capsys.readouterr()
    assert cli_main(["check", str(out)]) == 0
    puzzle = load_puzzle(files[0])
    assert puzzle.note_text("zh") and puzzle.is_correct(puzzle.answer)


def test_review_out_never_overwrites_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record_file(tmp_path)
    out = tmp_path / "puzzles"
    assert cli_main(["review", str(path), "--out", str(out)]) == 0
    victim = sorted(out.glob("*.yaml"))[0]
    victim.write_text("# mine\n", encoding="utf-8")
    capsys.readouterr()
    assert cli_main(["review", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{victim}:1:1: error: ") and "--force" in err
    assert victim.read_text(encoding="utf-8") == "# mine\n"
    assert cli_main(["review", str(path), "--out", str(out), "--force"]) == 0
    assert victim.read_text(encoding="utf-8") != "# mine\n"


def test_review_bad_record_is_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("seed: 1\noptions: {first: south}\nmoves:\n- south: play r9 3; draw troop\n", encoding="utf-8")
    assert cli_main(["review", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:4:21: error: ") and "Traceback" not in err
    assert cli_main(["review", str(tmp_path / "missing.yaml")]) == 2
    assert ": error: " in capsys.readouterr().err


def test_review_of_a_loaded_record_equals_review_of_the_state() -> None:
    state = _game(18)
    record = load_record_text(dump_record(state), "g.yaml")
    a = [m.puzzle_data() for m in review(record, Player.SOUTH).moments]
    b = [m.puzzle_data() for m in review(state, Player.SOUTH).moments]
    assert a == b and a
