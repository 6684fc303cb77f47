"""Levels for learners: the rated ladder, game rows in the progress store, the level choice."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from battleline_lab.game import PlayerView, RandomBot, legal_moves
from battleline_lab.game.bots import BOTS, make_bot
from battleline_lab.game.heuristic import GentleBot, HeuristicBot
from battleline_lab.game.ladder import LADDER, bot_ratings, ladder_info, learner_rating, nearest_bot
from battleline_lab.game.match import play_game
from battleline_lab.game.rules import apply
from battleline_lab.game.session import BOT_CHOICES, GameSession
from battleline_lab.game.state import new_game
from battleline_lab.training.glicko2 import Rating, expected, update
from battleline_lab.training.progress import GAME_KIND, Attempt, GameResult, MemoryStore, Progress, game_results
from battleline_lab.training.trainer import Trainer


def test_the_ladder_is_rated_gentlest_first_and_says_how_it_was_measured() -> None:
    ratings = bot_ratings()
    assert list(ratings) == list(LADDER) == list(BOT_CHOICES)
    assert all(name in BOTS for name in LADDER)
    values = [r.rating for r in ratings.values()]
    assert values == sorted(values), "each rung is rated above the one below"
    method = ladder_info()["method"]
    assert method["benchmark"] == "benchmarks/bench_ladder.py" and method["games_per_pair"] >= 10
    assert ratings[method["anchor"].split()[0]].rating == pytest.approx(1500.0)
    assert all(0 < r.rd < 350 for r in ratings.values())


def test_the_gentle_bot_is_between_random_and_heuristic_and_reproducible() -> None:
    a = play_game(GentleBot(3), GentleBot(4), seed=9)
    b = play_game(make_bot("gentle", 3), make_bot("gentle", 4), seed=9)
    assert a.history == b.history and a.over
    assert sum(play_game(GentleBot(k), RandomBot(k + 1), seed=k).winner is not None for k in range(3)) == 3
    # it plays the heuristic bot's move when it does not slip
    bot = GentleBot(0)
    bot.SLIP = 0.0
    fresh = new_game(5)
    moves = legal_moves(fresh)
    view = PlayerView(fresh, fresh.turn)
    heuristic = HeuristicBot(0)
    heuristic.rng.random()  # the gentle bot's draw for its slip comes first
    assert bot.choose(view, moves) == heuristic.choose(view, moves)


RATED = {"random": Rating(900, 60), "gentle": Rating(1500, 60), "heuristic": Rating(1900, 60)}


@pytest.mark.parametrize(
    ("games", "expect"),
    [
        ([], 1500.0),  # no games: Glicko-2's start
        ([GameResult("unrated-bot", 1.0)], 1500.0),  # a bot without a rating does not count
        ([GameResult("gentle", 1.0)], None),  # one win against an equal: up
    ],
)
def test_learner_rating_is_glicko2_one_game_per_period(games: list[GameResult], expect: float | None) -> None:
    got = learner_rating(games, RATED)
    if expect is not None:
        assert got == Rating() and got.rating == expect
    else:
        assert got == update(Rating(), [(RATED["gentle"], 1.0)]) and got.rating > 1500


def test_learner_rating_follows_results_in_order() -> None:
    games = [GameResult("gentle", 1.0), GameResult("heuristic", 0.0), GameResult("heuristic", 0.5)]
    step = Rating()
    for g in games:
        step = update(step, [(RATED[g.bot], g.score)])
    assert learner_rating(games, RATED) == step


@pytest.mark.parametrize(
    ("rating", "bot"),
    [(0, "random"), (1199, "random"), (1200, "random"), (1201, "gentle"), (1500, "gentle"), (1701, "heuristic")],
)
def test_nearest_bot_is_the_rated_bot_nearest_the_learner_ties_to_the_gentler(rating: float, bot: str) -> None:
    assert nearest_bot(rating, RATED) == bot


def test_a_new_learner_is_offered_the_published_anchor_bot() -> None:
    assert nearest_bot(Rating().rating) == ladder_info()["method"]["anchor"].split()[0]


def _game_row(answer: str) -> Attempt:
    return Attempt("me", "game:gentle", GAME_KIND, answer=answer, at=1.0)


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        ('{"bot": "gentle", "score": 1.0, "seed": 3}', True),
        ('{"bot": "gentle", "score": 0.5}', True),
        ('{"bot": "gentle", "score": 0}', True),
        ('{"bot": "gentle", "score": 0.7}', False),  # not a game's score
        ('{"bot": "gentle", "score": true}', False),
        ('{"bot": 3, "score": 1}', False),
        ("[1, 2]", False),
        ("{", False),  # damaged: skipped, the other rows kept
    ],
)
def test_game_rows_that_cannot_be_read_are_skipped(answer: str, kept: bool) -> None:
    rows = [_game_row(answer), _game_row('{"bot": "random", "score": 1}')]
    assert [r.bot for r in game_results(rows)] == (["gentle"] if kept else []) + ["random"]


@pytest.mark.parametrize("store", ["sqlite", "jsonl", "memory"])
def test_record_game_adds_a_row_in_every_store_and_puzzles_do_not_count_it(tmp_path: Path, store: str) -> None:
    if store == "memory":
        p = Progress(store=MemoryStore())
    elif store == "sqlite":
        p = Progress(tmp_path / "progress.sqlite3")
    else:
        p = Progress(tmp_path / "progress.jsonl")
    p.record_attempt("wedge-1", correct=True)
    p.record_game("heuristic", 1.0, seed=4)
    p.record_game("expert", 0.5)
    p.record_game("expert", 0)
    assert [(g.bot, g.score, g.seed) for g in p.games()] == [
        ("heuristic", 1.0, 4),
        ("expert", 0.5, None),
        ("expert", 0.0, None),
    ]
    assert set(p.records()) == {"wedge-1"}, "a game is no puzzle"
    assert len(p.attempts()) == 4
    if store == "sqlite":
        rows = sqlite3.connect(tmp_path / "progress.sqlite3").execute("SELECT kind, puzzle_id FROM attempts").fetchall()
        assert ("game", "game:expert") in rows
    if store == "jsonl":
        lines = (tmp_path / "progress.jsonl").read_text(encoding="utf-8").splitlines()
        assert json.loads(lines[1])["kind"] == "game"
    with pytest.raises(ValueError):
        p.record_game("expert", 0.3)
    p.reset()
    assert p.games() == []


def test_the_trainer_ignores_game_rows() -> None:
    p = Progress(store=MemoryStore())
    p.record_attempt("wedge-1", correct=True)
    rating, current, records = Trainer(progress=p).rating, Trainer(progress=p).current(), Trainer(progress=p).records()
    p.record_game("expert", 1.0)
    after = Trainer(progress=p)
    assert (after.rating, after.current(), after.records()) == (rating, current, records)
    assert set(after.records()) == {"wedge-1"}


def _play_out(session: GameSession, seed: int) -> None:
    """The learner's side played by a random bot, through the engine; the session's bot answers."""
    chooser = RandomBot(seed)
    while not session.state.over:
        state = session.state
        apply(state, chooser.choose(PlayerView(state, state.to_act), legal_moves(state)))
        session.play_bots()


@pytest.mark.parametrize("bot", ["random", "gentle"])
def test_a_finished_game_is_recorded_once_and_moves_the_rating(bot: str) -> None:
    p = Progress(store=MemoryStore())
    s = GameSession(bot=bot, seed=11, progress=p)
    assert s.learner_rating() == Rating()
    _play_out(s, 11)
    s.play_bots()  # again: still one row
    assert len(p.games()) == 1
    result = p.games()[0]
    winner = s.state.winner
    assert result.bot == bot and result.seed == 11
    assert result.score == (0.5 if winner is None else 1.0 if winner is s.human else 0.0)
    assert s.learner_rating() == learner_rating(p.games())
    s.new_game()
    _play_out(s, 12)
    assert len(p.games()) == 2


def test_without_a_store_nothing_is_recorded_and_the_level_is_the_anchor() -> None:
    s = GameSession(bot="random", seed=2)
    _play_out(s, 2)
    assert s.learner_rating() == Rating() and s.level_bot() == nearest_bot(1500)


def test_choose_level_picks_the_bot_nearest_the_learner_and_deals_again_before_the_first_move() -> None:
    p = Progress(store=MemoryStore())
    ratings = bot_ratings()
    strong = max(ratings, key=lambda n: ratings[n].rating)
    for _ in range(12):  # a learner who keeps beating the strongest bot climbs to it
        p.record_game(strong, 1.0)
    s = GameSession(bot="random", seed=5, progress=p)
    assert s.learner_rating().rating > ratings[strong].rating - 1
    assert s.choose_level() == strong == s.bot_name
    assert s.bot is not None and s.bot.name == strong and s.state.turn_number == 1
    assert expected(s.learner_rating(), ratings[strong]) > 0.4
    q = Progress(store=MemoryStore())
    for _ in range(12):
        q.record_game("random", 0.0)
    assert GameSession(bot="expert", seed=5, progress=q).choose_level() == "random"
