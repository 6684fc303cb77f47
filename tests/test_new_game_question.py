"""New game's question, one value both game controllers hold: when it deals, when it asks, what closes it,
and the lines it adds to a board's view (the two-player and the three-player boards alike)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battleline_lab.controllers.game import GameController
from battleline_lab.controllers.new_game import DISCARD_GAME, KEEP_GAME, NewGameQuestion
from battleline_lab.controllers.three import ThreeGameController
from battleline_lab.controllers.view import FeedbackView, TableView
from battleline_lab.game.session import GameSession
from battleline_lab.text.messages import LANGUAGES, bound, message

#: what the learner does, by name
STEPS: dict[str, Callable[[NewGameQuestion], object]] = {
    "ask": NewGameQuestion.ask,
    "discard": lambda q: q.intent("do", DISCARD_GAME),
    "keep": lambda q: q.intent("do", KEEP_GAME),
    "play": lambda q: q.intent("play", ["r5", 3]),
    "pass": lambda q: q.intent("do", "pass"),
}

#: name -> (a game in progress?, the steps, how many deals they make, whether the question is open after)
CASES: dict[str, tuple[bool, str, int, bool]] = {
    "nothing-to-lose-deals-at-once": (False, "ask", 1, False),
    "in-progress-asks-first": (True, "ask", 0, True),
    "a-second-press-only-asks-again": (True, "ask ask", 0, True),
    "discard-deals-again": (True, "ask discard", 1, False),
    "keep-keeps-the-game": (True, "ask keep", 0, False),
    "playing-on-keeps-the-game": (True, "ask play", 0, False),
    "another-button-keeps-the-game": (True, "ask pass", 0, False),
    "discard-unasked-deals-nothing": (True, "discard", 0, False),
    "discard-after-keep-deals-nothing": (True, "ask keep discard", 0, False),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_new_game_question_deals_only_when_nothing_is_lost_or_the_learner_says_discard(case: str) -> None:
    in_progress, steps, deals, is_open = CASES[case]
    dealt: list[int] = []
    question = NewGameQuestion(in_progress=lambda: in_progress, deal=lambda: dealt.append(1))
    for step in steps.split():
        STEPS[step](question)
    assert (len(dealt), question.open) == (deals, is_open)


#: an intent -> whether the question takes it (an answer), else it is the controller's move to take
INTENTS: dict[str, tuple[str, object, bool]] = {
    "discard": ("do", DISCARD_GAME, True),
    "keep": ("do", KEEP_GAME, True),
    "pass": ("do", "pass", False),
    "play": ("play", ["r5", 3], False),
    "claim": ("claim", 4, False),
}


@pytest.mark.parametrize("intent", sorted(INTENTS))
def test_only_the_questions_two_buttons_are_its_intents(intent: str) -> None:
    name, value, answered = INTENTS[intent]
    question = NewGameQuestion(in_progress=lambda: True, deal=lambda: None)
    question.ask()
    assert question.intent(name, value) is answered and not question.open


def empty_view() -> TableView:
    return TableView(
        lang="en",
        prompt="",
        status="",
        board_label="",
        hand=[],
        hand_label="",
        chosen_text="",
        targets=[],
        selection=[],
        decks=[],
        choices=[{"action": "pass", "label": "Pass"}],
        feedback=FeedbackView(),
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_open_question_adds_its_words_and_two_buttons_after_the_others(lang: str) -> None:
    question = NewGameQuestion(in_progress=lambda: True, deal=lambda: None)
    closed = empty_view()
    question.show(closed, bound(message, lang))
    assert closed == empty_view()  # nothing asked: nothing drawn
    question.ask()
    view = empty_view()
    question.show(view, bound(message, lang))
    assert view["question"] == message("game_widget.new_game.ask", lang)
    assert view["choices"][1:] == [
        {"action": DISCARD_GAME, "label": message("game_widget.new_game.discard", lang)},
        {"action": KEEP_GAME, "label": message("game_widget.new_game.keep", lang), "primary": True},
    ]


#: each game controller, made with a game in progress (the learner moved)
CONTROLLERS: dict[str, Callable[[], GameController | ThreeGameController]] = {
    "two-players": lambda: GameController(GameSession(bot="heuristic", seed=12)),
    "three-players": lambda: ThreeGameController(("heuristic", "random"), seed=5),
}


def moved(controller: GameController | ThreeGameController) -> None:
    card = next(c for c in controller.view()["hand"] if c.get("flags"))
    controller.intent("play", [card["id"], card["flags"][0]])


@pytest.mark.parametrize("kind", sorted(CONTROLLERS))
def test_both_game_controllers_ask_through_the_one_question(kind: str) -> None:
    controller = CONTROLLERS[kind]()
    moved(controller)
    seed = controller.seed
    assert not controller.ask_new_game() and controller.new_game_question.open
    view = controller.view()
    assert view["question"] == message("game_widget.new_game.ask", "en")
    assert [c.get("action") for c in view["choices"]][-2:] == [DISCARD_GAME, KEEP_GAME]
    controller.intent("do", DISCARD_GAME)
    assert controller.seed == seed + 1 and not controller.new_game_question.open
    assert "question" not in controller.view()
