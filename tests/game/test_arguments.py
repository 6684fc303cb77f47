"""Sessions, bots and matches check what they are given (``battleline_lab/game/arguments.py``).

Every bot class the registry (:data:`~battleline_lab.game.bots.BOTS`) can make, the game session and
the match runner refuse a bad value with a :class:`GameArgumentError` (a ``ValueError``; a value of
the wrong type also a ``TypeError``) whose message names the parameter and repeats the value; the
values just inside each stated bound are taken, those just outside refused.  A bot asked to choose
from no legal moves raises :class:`NoLegalMovesError`.  The command line refuses the same values
with a located exit 2.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable
from typing import Any

import pytest

from battleline_lab.cli import main as cli_main
from battleline_lab.cli.game import run_match_command
from battleline_lab.game import GameArgumentError, NoLegalMovesError, Player, legal_moves, new_game
from battleline_lab.game.arguments import (
    MAX_BOT_SEED,
    MAX_GAMES,
    MAX_JOBS,
    MAX_ROLLOUTS,
    MAX_SEED,
    GameArgumentTypeError,
    shown,
)
from battleline_lab.game.bot_base import Bot, RandomBot
from battleline_lab.game.bots import BOTS, make_bot
from battleline_lab.game.expert import ExpertBot, suggest
from battleline_lab.game.heuristic import GentleBot, HeuristicBot
from battleline_lab.game.master import JudgeBot, MasterSearchBot
from battleline_lab.game.match import play_game, run_match
from battleline_lab.game.odds_search import OddsBot, OddsSearchBot
from battleline_lab.game.rules import apply
from battleline_lab.game.sampler import MasterBot
from battleline_lab.game.session import GameSession
from battleline_lab.game.state import Options, Phase
from battleline_lab.game.view import PlayerView

#: Every bot class: those the registry makes, and the ones they are built from.
BOT_CLASSES: list[type[Any]] = [
    RandomBot,
    HeuristicBot,
    GentleBot,
    ExpertBot,
    OddsBot,
    OddsSearchBot,
    JudgeBot,
    MasterBot,
    MasterSearchBot,
]
SEARCHING = [ExpertBot, OddsSearchBot, MasterSearchBot]  # the bots with a play-out budget

NAN = float("nan")
#: (id, value, wrong type?) for a seed: a string, NaN, 1.5, and more of the same families
BAD_SEEDS: list[tuple[str, object, bool]] = [
    ("str-x", "x", True),
    ("nan", NAN, True),
    ("float-1.5", 1.5, True),
    ("float-3.0", 3.0, True),
    ("inf", math.inf, True),
    ("bool-True", True, True),
    ("digit-string", "3", True),
    ("list", [3], True),
    ("bytes", b"3", True),
]
BAD_ROLLOUTS: list[tuple[str, object, bool]] = [
    ("1e9", 10**9, False),  # hung: each play-out takes time
    ("zero", 0, False),
    ("minus-one", -1, False),
    ("bound+1", MAX_ROLLOUTS + 1, False),
    ("float-1.5", 1.5, True),
    ("nan", NAN, True),
    ("bool-True", True, True),
    ("str-48", "48", True),
]
GOOD_ROLLOUTS = [1, MAX_ROLLOUTS]


def _refused(call: Callable[[], object], parameter: str, value: object, wrong_type: bool) -> GameArgumentError:
    """``call()`` raises a GameArgumentError naming ``parameter`` and repeating ``value``."""
    with pytest.raises(GameArgumentError) as err:
        call()
    exc = err.value
    assert isinstance(exc, ValueError)
    assert isinstance(exc, TypeError) is wrong_type, f"{exc!r}: TypeError is for a value of the wrong type"
    assert exc.parameter == parameter
    assert f"{parameter}={shown(value)}" in str(exc), str(exc)
    return exc


def _ids(table: list[tuple[str, object, bool]]) -> list[Any]:
    return [pytest.param(value, wrong, id=name) for name, value, wrong in table]


# -- the registry: every bot it makes is one of the classes tested here --------------------------


@pytest.mark.parametrize("name", list(BOTS))
def test_every_bot_of_the_registry_is_a_class_tested_here(name: str) -> None:
    assert type(make_bot(name, 1)) in BOT_CLASSES


# -- seeds -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "wrong_type"), _ids(BAD_SEEDS))
@pytest.mark.parametrize("cls", BOT_CLASSES, ids=lambda c: c.__name__)
def test_a_bot_refuses_a_seed_that_is_no_whole_number(cls: type[Bot], value: object, wrong_type: bool) -> None:
    _refused(lambda: cls(value), "seed", value, wrong_type)  # type: ignore[call-arg]


@pytest.mark.parametrize(("value", "wrong_type"), _ids(BAD_SEEDS))
@pytest.mark.parametrize("name", list(BOTS))
def test_make_bot_refuses_a_bad_seed_for_every_bot(name: str, value: object, wrong_type: bool) -> None:
    _refused(lambda: make_bot(name, value), "seed", value, wrong_type)  # type: ignore[arg-type]


@pytest.mark.parametrize("good", [None, 0, MAX_BOT_SEED, -MAX_BOT_SEED], ids=["None", "0", "bound", "-bound"])
@pytest.mark.parametrize("cls", BOT_CLASSES, ids=lambda c: c.__name__)
def test_a_bot_takes_a_seed_at_its_bounds(cls: type[Bot], good: int | None) -> None:
    bot = cls(good)  # type: ignore[call-arg]
    if good is not None:  # the seed is used as given: the bot's generator is random.Random(seed)
        assert bot.rng.random() == random.Random(good).random()  # type: ignore[attr-defined]


@pytest.mark.parametrize("bad", [MAX_BOT_SEED + 1, -MAX_BOT_SEED - 1], ids=["bound+1", "-bound-1"])
@pytest.mark.parametrize("cls", BOT_CLASSES, ids=lambda c: c.__name__)
def test_a_bot_refuses_a_seed_past_its_bounds(cls: type[Bot], bad: int) -> None:
    _refused(lambda: cls(bad), "seed", bad, False)  # type: ignore[call-arg]


@pytest.mark.parametrize(("value", "wrong_type"), _ids(BAD_SEEDS + [("none", None, True)]))
def test_the_session_refuses_a_seed_that_is_no_whole_number(value: object, wrong_type: bool) -> None:
    _refused(lambda: GameSession(bot="random", seed=value), "seed", value, wrong_type)  # type: ignore[arg-type]


@pytest.mark.parametrize("good", [MAX_SEED, -MAX_SEED], ids=["bound", "-bound"])
def test_the_session_takes_a_seed_at_its_bounds(good: int) -> None:
    session = GameSession(bot="heuristic", seed=good)
    assert session.seed == good and not session.state.over


@pytest.mark.parametrize("bad", [MAX_SEED + 1, -MAX_SEED - 1, 10**5000], ids=["bound+1", "-bound-1", "5001-digits"])
def test_the_session_refuses_a_seed_past_its_bounds(bad: int) -> None:
    _refused(lambda: GameSession(bot="random", seed=bad), "seed", bad, False)


def test_the_next_game_after_the_last_seed_is_the_first() -> None:
    session = GameSession(bot="random", seed=MAX_SEED)
    session.new_game()
    assert session.seed == -MAX_SEED
    session.new_game()
    assert session.seed == -MAX_SEED + 1


@pytest.mark.parametrize("value", ["x", NAN, 1.5, True, MAX_SEED + 1, [1]], ids=repr)
def test_a_restart_with_no_seed_keeps_the_seed_and_never_raises(value: object) -> None:
    session = GameSession(bot="random", seed=4)
    session.restart(value)  # type: ignore[arg-type]
    assert session.seed == 4
    session.restart(MAX_SEED)
    assert session.seed == MAX_SEED


# -- the session's other arguments ------------------------------------------------------------


@pytest.mark.parametrize(
    ("parameter", "value", "wrong_type"),
    [
        pytest.param("human", "east", False, id="human-east"),
        pytest.param("human", "North", False, id="human-North"),
        pytest.param("human", "", False, id="human-empty"),
        pytest.param("human", None, True, id="human-None"),
        pytest.param("human", 1, True, id="human-1"),
        pytest.param("human", ["south"], True, id="human-list"),
        pytest.param("bot", "clever", False, id="bot-clever"),
        pytest.param("bot", ["random"], True, id="bot-list"),
        pytest.param("you_start", 1, True, id="you_start-1"),
        pytest.param("you_start", "yes", True, id="you_start-yes"),
        pytest.param("claim_timing", "whenever", False, id="claim_timing-whenever"),
        pytest.param("claim_timing", 3, True, id="claim_timing-3"),
    ],
)
def test_the_session_refuses_a_bad_argument(parameter: str, value: object, wrong_type: bool) -> None:
    kwargs: dict[str, Any] = {"bot": "random", "seed": 2, parameter: value}
    _refused(lambda: GameSession(**kwargs), parameter, value, wrong_type)


@pytest.mark.parametrize("human", [Player.NORTH, "north", Player.SOUTH, "south"], ids=str)
def test_the_session_takes_a_seat_by_its_name(human: Player | str) -> None:
    session = GameSession(bot="random", seed=2, human=human)
    assert session.human is Player(getattr(human, "value", human))
    assert session.viewer is session.human


# -- rollouts and the searching bots' other numbers ---------------------------------------------


@pytest.mark.parametrize(("value", "wrong_type"), _ids(BAD_ROLLOUTS))
@pytest.mark.parametrize("cls", SEARCHING, ids=lambda c: c.__name__)
def test_a_searching_bot_refuses_rollouts_out_of_bounds(cls: type[Bot], value: object, wrong_type: bool) -> None:
    _refused(lambda: cls(1, rollouts=value), "rollouts", value, wrong_type)  # type: ignore[call-arg]


@pytest.mark.parametrize("value", GOOD_ROLLOUTS)
@pytest.mark.parametrize("cls", SEARCHING, ids=lambda c: c.__name__)
def test_a_searching_bot_takes_rollouts_at_the_bounds(cls: type[Bot], value: int) -> None:
    assert cls(1, rollouts=value).rollouts == value  # type: ignore[call-arg, attr-defined]


@pytest.mark.parametrize(("value", "wrong_type"), _ids(BAD_ROLLOUTS))
@pytest.mark.parametrize("name", list(BOTS))
def test_make_bot_refuses_bad_rollouts_for_every_bot(name: str, value: object, wrong_type: bool) -> None:
    _refused(lambda: make_bot(name, 1, rollouts=value), "rollouts", value, wrong_type)  # type: ignore[arg-type]


def test_make_bot_gives_the_expert_the_rollouts_asked_for() -> None:
    assert make_bot("expert", 1, rollouts=MAX_ROLLOUTS).rollouts == MAX_ROLLOUTS  # type: ignore[attr-defined]
    assert make_bot("expert", 1, rollouts=1).rollouts == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("cls", "parameter", "value", "wrong_type"),
    [
        pytest.param(ExpertBot, "candidates", 0, False, id="expert-candidates-0"),
        pytest.param(ExpertBot, "candidates", 2.0, True, id="expert-candidates-float"),
        pytest.param(ExpertBot, "depth", -1, False, id="expert-depth-minus-one"),
        pytest.param(ExpertBot, "depth", 101, False, id="expert-depth-101"),
        pytest.param(ExpertBot, "depth", "1", True, id="expert-depth-str"),
        pytest.param(OddsSearchBot, "odds_share", -1, False, id="master-odds_share-minus-one"),
        pytest.param(MasterSearchBot, "margin", NAN, False, id="judge-search-margin-nan"),
        pytest.param(MasterSearchBot, "margin", 1.5, False, id="judge-search-margin-1.5"),
        pytest.param(MasterSearchBot, "margin", "0.2", True, id="judge-search-margin-str"),
    ],
)
def test_a_searching_bot_refuses_its_other_bad_numbers(
    cls: type[Bot], parameter: str, value: object, wrong_type: bool
) -> None:
    _refused(lambda: cls(1, **{parameter: value}), parameter, value, wrong_type)  # type: ignore[call-arg]


@pytest.mark.parametrize(("value", "wrong_type"), _ids(BAD_ROLLOUTS))
def test_suggest_refuses_bad_rollouts(value: object, wrong_type: bool) -> None:
    state = new_game(3)
    view = PlayerView(state, state.turn)
    _refused(lambda: suggest(view, legal_moves(state), rollouts=value), "rollouts", value, wrong_type)  # type: ignore[arg-type]


# -- no legal moves ---------------------------------------------------------------------------


def _views() -> list[Any]:
    """A view in each kind of step a bot is asked about: a card to play, claims, a draw."""
    state = new_game(3, Options(first=Player.SOUTH))
    out = [pytest.param(PlayerView(state.copy(), state.to_act), id="play")]
    bot = RandomBot(5)
    seen: set[Phase] = {Phase.PLAY}
    while not state.over and len(seen) < 3:  # a random game, until it has shown a claim step and a draw
        if state.phase not in seen and state.phase in (Phase.CLAIM, Phase.DRAW):
            seen.add(state.phase)
            out.append(pytest.param(PlayerView(state.copy(), state.to_act), id=state.phase.value))
        apply(state, bot.choose(PlayerView(state, state.to_act), legal_moves(state)))
    assert len(out) == 3
    return out


@pytest.mark.parametrize("view", _views())
@pytest.mark.parametrize("cls", BOT_CLASSES, ids=lambda c: c.__name__)
def test_a_bot_refuses_to_choose_from_no_moves(cls: type[Bot], view: PlayerView) -> None:
    bot = cls(1)  # type: ignore[call-arg]
    with pytest.raises(NoLegalMovesError) as err:
        bot.choose(view, [])
    assert err.value.parameter == "legal" and f"the {bot.name} bot" in str(err.value)


@pytest.mark.parametrize("name", list(BOTS))
def test_every_bot_of_the_registry_refuses_no_moves(name: str) -> None:
    state = new_game(3)
    with pytest.raises(NoLegalMovesError):
        make_bot(name, 1).choose(PlayerView(state, state.turn), [])


@pytest.mark.parametrize("cls", SEARCHING, ids=lambda c: c.__name__)
def test_a_search_over_no_moves_is_refused(cls: type[ExpertBot]) -> None:
    state = new_game(3)
    with pytest.raises(NoLegalMovesError):
        cls(1).search(PlayerView(state, state.turn), [])
    with pytest.raises(NoLegalMovesError):
        suggest(PlayerView(state, state.turn), [])


# -- the match runner -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parameter", "value", "wrong_type"),
    [
        pytest.param("bot_a", "clever", False, id="bot_a-clever"),
        pytest.param("bot_b", None, True, id="bot_b-None"),
        pytest.param("games", 0, False, id="games-0"),
        pytest.param("games", MAX_GAMES + 1, False, id="games-bound+1"),
        pytest.param("games", 2.0, True, id="games-float"),
        pytest.param("seed", "x", True, id="seed-x"),
        pytest.param("seed", NAN, True, id="seed-nan"),
        pytest.param("seed", 1.5, True, id="seed-1.5"),
        pytest.param("seed", MAX_SEED + 1, False, id="seed-bound+1"),
        pytest.param("rollouts", 10**9, False, id="rollouts-1e9"),
        pytest.param("rollouts", 0, False, id="rollouts-0"),
        pytest.param("rollouts", -1, False, id="rollouts-minus-one"),
        pytest.param("jobs", 0, False, id="jobs-0"),
        pytest.param("jobs", MAX_JOBS + 1, False, id="jobs-bound+1"),
        pytest.param("winner_starts", "yes", True, id="winner_starts-yes"),
        pytest.param("options", "after_play", True, id="options-str"),
    ],
)
def test_a_match_refuses_a_bad_argument_before_any_game(parameter: str, value: object, wrong_type: bool) -> None:
    played: list[int] = []
    kwargs: dict[str, Any] = {"bot_a": "random", "bot_b": "random", "games": 2, "seed": 1, parameter: value}
    _refused(lambda: run_match(on_game=lambda k, _s, _n: played.append(k), **kwargs), parameter, value, wrong_type)
    assert played == []


@pytest.mark.parametrize(("value", "wrong_type"), _ids(BAD_SEEDS))
def test_one_game_refuses_a_bad_seed(value: object, wrong_type: bool) -> None:
    _refused(lambda: play_game(RandomBot(1), RandomBot(2), value), "seed", value, wrong_type)  # type: ignore[arg-type]


def test_a_match_takes_the_bounds() -> None:
    result = run_match("random", "random", games=1, seed=MAX_SEED, rollouts=MAX_ROLLOUTS, jobs=1)
    assert result.games == 1 and result.seed == MAX_SEED
    assert run_match("random", "random", games=1, seed=-MAX_SEED).games == 1


# -- the messages -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    ["\x1b[2J", "\u202eevil", "\x9b31m", "\ud800", "x" * 500, 10**5000],
    ids=["ESC", "bidi", "C1", "surrogate", "long", "5001-digits"],
)
def test_the_message_repeats_the_value_safely(value: object) -> None:
    exc = _refused(lambda: GameSession(bot="random", seed=value), "seed", value, not isinstance(value, int))  # type: ignore[arg-type]
    text = str(exc)
    assert text.isprintable() and len(text) < 300, text
    assert not any(ch in text for ch in "\x1b\u202e\x9b\ud800")


def test_the_message_is_translated() -> None:
    with pytest.raises(GameArgumentTypeError) as err:
        GameSession(seed="x")  # type: ignore[arg-type]
    assert "seed='x'" in err.value.text("zh") and "整数" in err.value.text("zh")


# -- the command line: the same bounds, a located exit 2 ------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["--seed", "x"],
        ["--seed", "1.5"],
        ["--seed", "nan"],
        ["--seed", str(MAX_SEED + 1)],
        ["--rollouts", "0"],
        ["--rollouts", "-1"],
        ["--rollouts", str(10**9)],
        ["--rollouts", str(MAX_ROLLOUTS + 1)],
        ["--games", str(MAX_GAMES + 1)],
        ["--jobs", str(MAX_JOBS + 1)],
    ],
    ids=" ".join,
)
def test_the_command_line_refuses_bad_values_with_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["match", "random", "random", "--games", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert "match: error:" in err and argv[0] in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("field", "value"),
    [("rollouts", 0), ("rollouts", 10**9), ("seed", "x"), ("seed", NAN), ("games", 0), ("jobs", -1)],
    ids=lambda v: str(v),
)
def test_the_match_command_maps_a_refused_value_to_a_located_exit_2(
    field: str, value: object, capsys: pytest.CaptureFixture[str]
) -> None:
    """A caller that builds the arguments itself (not through the parser) gets the same usage error."""
    args = argparse.Namespace(
        bot_a="expert",
        bot_b="random",
        games=1,
        seed=0,
        claim_timing="after_play",
        winner_starts=False,
        records=None,
        force=False,
        rollouts=2,
        jobs=1,
        json=True,
        quiet=True,
        lang="en",
    )
    setattr(args, field, value)
    assert run_match_command(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("battleline-lab match: error: ") and f"{field}=" in captured.err
