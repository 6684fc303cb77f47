"""New game, asked first when it would discard a game in progress: one question both game boards ask.

A press of New game (a click, or Enter on the focused button) deals at once when nothing would be
lost; in a game in progress it asks on the board instead, with two buttons: :data:`DISCARD_GAME`
deals again, :data:`KEEP_GAME` keeps playing, and so does any other move.  A second press while the
question is open only asks again, so a key pressed twice never discards a game.

:class:`NewGameQuestion` is that question, held by the two-player
(:class:`~battleline_lab.controllers.game.GameController`) and the three-player
(:class:`~battleline_lab.controllers.three.ThreeGameController`) controllers: each gives it what
counts as a game in progress and how to deal the next game.

>>> dealt = []
>>> q = NewGameQuestion(in_progress=lambda: True, deal=lambda: dealt.append(1))
>>> q.ask(), q.open, dealt
(False, True, [])
>>> q.intent("do", DISCARD_GAME), q.open, dealt
(True, False, [1])
>>> q.ask(), q.intent("play", ["r5", 3]), q.open, dealt  # playing on keeps the game
(False, False, False, [1])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..text.messages import Bound
from .view import ButtonView, TableView

__all__ = ["DISCARD_GAME", "KEEP_GAME", "AsksNewGame", "NewGameQuestion"]

#: The ``do`` of the question's buttons: discard the game in progress and deal again, or keep it.
DISCARD_GAME = "new-game"
KEEP_GAME = "keep-game"


@dataclass(slots=True)
class NewGameQuestion:
    """The question "discard the game in progress?": ``in_progress()`` says whether New game would
    lose a game, ``deal()`` deals the next one; :attr:`open` while the board asks."""

    in_progress: Callable[[], bool]
    deal: Callable[[], None]
    #: New game was pressed in a game in progress: the board asks before it discards the game
    open: bool = False

    def ask(self) -> bool:
        """The New game button: deals at once when nothing would be lost, else opens the question.  True if dealt."""
        if self.in_progress():
            self.open = True
            return False
        self.open = False
        self.deal()
        return True

    def answer(self, discard: bool) -> None:
        """The answer: deal again (``discard``, only while the question is open), or keep playing."""
        if self.open and discard:
            self.deal()
        self.open = False

    def intent(self, name: str, value: object) -> bool:
        """A board intent: True if it answered the question (``do`` :data:`DISCARD_GAME` / :data:`KEEP_GAME`);
        any other intent is a move, which keeps the game (the question closes) and is the caller's to take."""
        if name == "do" and value in (DISCARD_GAME, KEEP_GAME):
            self.answer(value == DISCARD_GAME)
            return True
        self.open = False
        return False

    def show(self, view: TableView, t: Bound) -> None:
        """While the question is open: its words on ``view`` (``question``) and its two buttons after the others."""
        if not self.open:
            return
        view["question"] = t("game_widget.new_game.ask")
        view["choices"].append(ButtonView(action=DISCARD_GAME, label=t("game_widget.new_game.discard")))
        view["choices"].append(ButtonView(action=KEEP_GAME, label=t("game_widget.new_game.keep"), primary=True))


class AsksNewGame:
    """A controller's New game methods, for one that holds its :class:`NewGameQuestion` as :attr:`new_game_question`."""

    new_game_question: NewGameQuestion

    def ask_new_game(self) -> bool:
        """The New game button: deals at once when nothing would be lost, else asks first (the board shows
        the question and its two buttons).  True if dealt; a second press while the question is open only
        asks again, so a key pressed twice never discards a game."""
        return self.new_game_question.ask()

    def answer_new_game(self, discard: bool) -> None:
        """The answer to "discard the game in progress?": deal again, or keep playing."""
        self.new_game_question.answer(discard)

    @property
    def confirming_new_game(self) -> bool:
        """The board asks whether to discard the game in progress."""
        return self.new_game_question.open
