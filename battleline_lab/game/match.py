"""Playing games between bots, and matches of many games.

:func:`play_game` plays one game to its end; :func:`run_match` plays N games
between two bots, alternating who starts (game ``k`` uses seed ``seed + k``;
bot A starts the even games) or, as a series, letting the winner start the
next game (R17), and sums up wins, game lengths, flags and series points (R17).
Both check their arguments before a game is dealt (:mod:`~battleline_lab.game.arguments`:
the bots' names, ``games``, ``seed``, ``rollouts``, ``jobs``).

>>> from battleline_lab.game.bot_base import RandomBot
>>> result = run_match("random", "random", games=4, seed=1)
>>> result.games, sum(result.wins.values()) + result.draws
(4, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sized
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, ClassVar, Protocol

from ..core.position import ClaimTiming
from . import arguments
from .bot_base import Bot
from .bots import BOTS, make_bot
from .rules import apply, legal_moves, score
from .state import GameState, Options, Player, new_game
from .view import PlayerView

__all__ = ["MatchResult", "MatchTally", "play_game", "play_match_game", "run_match", "MAX_ACTIONS"]

MAX_ACTIONS = 5000  # far above any real game; reaching it is an engine bug


def play_game(north: Bot, south: Bot, seed: int, options: Options | None = None) -> GameState:
    """Play one game to its end and return the final state (its ``history`` is the record).

    ``seed`` is a whole number within ``±MAX_BOT_SEED`` (a match's game ``k`` is dealt from ``seed + k``).
    """
    arguments.whole_number(seed, "seed", -arguments.MAX_BOT_SEED, arguments.MAX_BOT_SEED)
    _check_options(options)
    state = new_game(seed, options)
    bots = {Player.NORTH: north, Player.SOUTH: south}
    views = {p: PlayerView(state, p) for p in Player}
    for _ in range(MAX_ACTIONS):
        if state.over:
            return state
        player = state.to_act
        moves = legal_moves(state)
        apply(state, bots[player].choose(views[player], moves))
    raise RuntimeError(f"game with seed {seed} did not end after {MAX_ACTIONS} actions")


class FinishedGame(Protocol):
    """What a match counts of a finished game, two players' or three (:mod:`~battleline_lab.game.three`)."""

    @property
    def turn_number(self) -> int: ...
    @property
    def history(self) -> Sized: ...
    @property
    def winner(self) -> Any: ...
    @property
    def end_reason(self) -> Any: ...
    def held(self, player: Any) -> Sized: ...


@dataclass
class MatchTally:
    """What every match sums up over its games, per bot label (``A``, ``B``, ...): wins, draws, turns,
    actions, flags held and end reasons; a two-player :class:`MatchResult` and a three-player
    :class:`~battleline_lab.game.three_bots.ThreeMatchResult` add what is theirs."""

    #: the bots' labels, in order
    LABELS: ClassVar[tuple[str, ...]] = ("A", "B")
    _: KW_ONLY
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    turns: int = 0
    actions: int = 0
    flags: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        for label in self.LABELS:
            self.wins.setdefault(label, 0)
            self.flags.setdefault(label, 0)

    @property
    def average_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0

    def flags_per_game(self, who: str) -> float:
        return self.flags[who] / self.games if self.games else 0.0

    def count(self, state: FinishedGame, labels: Mapping[Any, str]) -> None:
        """Add one finished game; ``labels`` maps each player (or seat) of it to its bot's label."""
        self.games += 1
        self.turns += state.turn_number
        self.actions += len(state.history)
        if state.winner is None:
            self.draws += 1
        else:
            self.wins[labels[state.winner]] += 1
        for player, label in labels.items():
            self.flags[label] += len(state.held(player))
        assert state.end_reason is not None
        reason = state.end_reason.value
        self.reasons[reason] = self.reasons.get(reason, 0) + 1

    def _json(self, head: dict[str, Any], **extra: Any) -> dict[str, Any]:
        """The ``--json`` output: ``head`` (what the match is), the tally, ``extra``, the end reasons and time."""
        return {
            **head,
            "wins": dict(self.wins),
            "draws": self.draws,
            "average_turns": round(self.average_turns, 2),
            "average_actions": round(self.actions / self.games, 2) if self.games else 0.0,
            "flags_per_game": {k: round(self.flags_per_game(k), 3) for k in self.LABELS},
            **extra,
            "end_reasons": dict(sorted(self.reasons.items())),
            "seconds": round(self.seconds, 3),
        }


@dataclass
class MatchResult(MatchTally):
    """What a two-player match produced; ``as_dict`` is the ``--json`` output."""

    bot_a: str
    bot_b: str
    seed: int
    points: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    winner_starts: bool = False

    def as_dict(self) -> dict[str, Any]:
        head = {
            "games": self.games,
            "bots": {"A": self.bot_a, "B": self.bot_b},
            "seed": self.seed,
            "starts": "winner" if self.winner_starts else "alternate",
        }
        return self._json(head, points=dict(self.points))


def run_match(
    bot_a: str,
    bot_b: str,
    *,
    games: int,
    seed: int = 0,
    options: Options | None = None,
    winner_starts: bool = False,
    on_game: Callable[[int, GameState, dict[Player, str]], None] | None = None,
    rollouts: int | None = None,
    jobs: int = 1,
) -> MatchResult:
    """Play ``games`` games of bot A against bot B.

    By default they alternate who starts (A the even games); with
    ``winner_starts`` the winner of a game starts the next one, as in a series
    (R17; A starts the first game and after a draw).  Bots are named as in
    :data:`battleline_lab.game.bots.BOTS` (``random``, ``heuristic``, ``expert``); each gets
    its own seeded random generator.  ``on_game(k, state, names)`` is called
    after each game (``names`` maps each player to its bot's name), e.g. to save
    its record.  ``rollouts`` is the expert bot's budget per move (its default if None).

    ``jobs`` > 1 plays the games in that many processes; the result is the same as
    with one (game ``k`` depends on its seed ``seed + k`` only, and the games are
    summed up and passed to ``on_game`` in order), except ``seconds``.  A series
    (``winner_starts``) is played in one process: each game depends on the last.
    """
    import time

    for parameter, name in (("bot_a", bot_a), ("bot_b", bot_b)):
        arguments.choice(name, parameter, list(BOTS), "bot")
    games = arguments.whole_number(games, "games", 1, arguments.MAX_GAMES)
    seed = arguments.seed(seed)
    _check_options(options)
    winner_starts = arguments.yes_no(winner_starts, "winner_starts")
    rollouts = arguments.optional_whole_number(rollouts, "rollouts", 1, arguments.MAX_ROLLOUTS)
    jobs = arguments.whole_number(jobs, "jobs", 1, arguments.MAX_JOBS)
    if on_game is not None and not callable(on_game):
        raise arguments.GameArgumentTypeError("on_game", on_game, "callable")
    base = options or Options()
    result = MatchResult(bot_a, bot_b, seed, winner_starts=winner_starts)
    start = time.perf_counter()
    if jobs > 1 and not winner_starts:  # each game depends on its seed only: play them side by side
        games_played: Iterator[tuple[int, Player, GameState]] = _parallel(
            bot_a, bot_b, games, seed, base.claim_timing, rollouts, jobs
        )
    else:
        games_played = _sequential(bot_a, bot_b, games, seed, base.claim_timing, rollouts, winner_starts)
    for k, a_player, state in games_played:
        if on_game is not None:
            on_game(k, state, {a_player: bot_a, a_player.other: bot_b})
        label = {a_player: "A", a_player.other: "B"}
        result.count(state, label)
        for p, points in score(state).items():
            result.points[label[p]] += points
    result.seconds = time.perf_counter() - start
    return result


def _check_options(options: object) -> None:
    if options is not None and not isinstance(options, Options):
        raise arguments.GameArgumentTypeError("options", options, "options")


def play_match_game(
    bot_a: str, bot_b: str, game_seed: int, a_starts: bool, timing: ClaimTiming, rollouts: int | None
) -> tuple[Player, GameState]:
    """One game of a match: bot A (seeded ``2 * game_seed + 1``) against bot B; the starting bot sits south."""
    a = make_bot(bot_a, seed=game_seed * 2 + 1, rollouts=rollouts)
    b = make_bot(bot_b, seed=game_seed * 2 + 2, rollouts=rollouts)
    a_player = Player.SOUTH if a_starts else Player.NORTH
    north, south = (b, a) if a_player is Player.SOUTH else (a, b)
    # the starting bot sits south and south moves first (R4); ``first=a_player`` once made A start every game
    return a_player, play_game(north, south, game_seed, Options(claim_timing=timing, first=Player.SOUTH))


def _sequential(
    bot_a: str, bot_b: str, games: int, seed: int, timing: ClaimTiming, rollouts: int | None, winner_starts: bool
) -> Iterator[tuple[int, Player, GameState]]:
    a_starts = True
    for k in range(games):
        if not winner_starts:
            a_starts = k % 2 == 0
        a_player, state = play_match_game(bot_a, bot_b, seed + k, a_starts, timing, rollouts)
        yield k, a_player, state
        a_starts = state.winner is None or state.winner is a_player  # R17: the winner starts the next game


def _play_indexed(args: tuple[str, str, int, bool, ClaimTiming, int | None]) -> tuple[Player, GameState]:
    return play_match_game(*args)


def _parallel(
    bot_a: str, bot_b: str, games: int, seed: int, timing: ClaimTiming, rollouts: int | None, jobs: int
) -> Iterator[tuple[int, Player, GameState]]:
    from concurrent.futures import ProcessPoolExecutor  # not in Pyodide: imported only when asked for

    tasks = [(bot_a, bot_b, seed + k, k % 2 == 0, timing, rollouts) for k in range(games)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for k, (a_player, state) in enumerate(pool.map(_play_indexed, tasks)):
            yield k, a_player, state
