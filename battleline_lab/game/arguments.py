"""The checks on what a game session, a bot or a match is given: one place, one error, stated bounds.

Every public constructor of :class:`~battleline_lab.game.session.GameSession`, of the bots
(:mod:`~battleline_lab.game.bot_base`, :mod:`~battleline_lab.game.heuristic`,
:mod:`~battleline_lab.game.expert`, :mod:`~battleline_lab.game.odds_search`,
:mod:`~battleline_lab.game.master`) and the match runner
(:mod:`~battleline_lab.game.match`) checks its arguments here, and the command line takes its
bounds from here.  A bad value raises :class:`GameArgumentError` (a :class:`ValueError`; a value of
the wrong type raises :class:`GameArgumentTypeError`, which is also a :class:`TypeError`): its
message names the parameter and repeats the value (escaped: no control characters, a huge number
by its size), and says what is expected.

The bounds (each also in the message that refuses a value past it):

- a seed chosen for a game, a session or a match: a whole number from ``-MAX_SEED`` to ``MAX_SEED``
  (10**18, as the command line's ``--seed``);
- a bot's seed (or ``None``: from the system) and a single game's seed (:func:`~battleline_lab.game.match.play_game`):
  from ``-MAX_BOT_SEED`` to ``MAX_BOT_SEED`` (10**24), room for the seeds a match and a session
  derive from theirs (``2 * (seed + game) + 2`` for a match's bots, ``1000 * seed + turn`` for the coach);
- ``rollouts``, the searching bots' play-outs per decision: 1 to ``MAX_ROLLOUTS`` (10,000; the
  time a decision takes grows with it, so a larger budget would look like a hang);
- ``candidates`` 1 to ``MAX_CANDIDATES``, ``depth`` ``None`` or 0 to ``MAX_DEPTH``, a match's ``games``
  1 to ``MAX_GAMES`` and ``jobs`` 1 to ``MAX_JOBS``.

A whole number is an :class:`int` (or anything with ``__index__``, such as a NumPy integer), never a
:class:`bool`, a float or a string.

A bot asked to choose from no legal moves raises :class:`NoLegalMovesError` (a
:class:`GameArgumentError` about ``legal``): there is no move to return.

>>> whole_number(48, "rollouts", 1, MAX_ROLLOUTS)
48
>>> whole_number(10**9, "rollouts", 1, MAX_ROLLOUTS)
Traceback (most recent call last):
battleline_lab.game.arguments.GameArgumentError: rollouts=1000000000 is refused: expected a whole number from 1 to 10000
>>> seed("x")  # doctest: +ELLIPSIS
Traceback (most recent call last):
battleline_lab.game.arguments.GameArgumentTypeError: seed='x' is refused: expected a whole number from -1000...
>>> seat("east")
Traceback (most recent call last):
battleline_lab.game.arguments.GameArgumentError: human='east' is refused: expected a seat: north, south
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

from ..core.position import ClaimTiming
from ..formats.safe_yaml import escape_control
from ..text.messages import DEFAULT_LANGUAGE, message
from .state import Player

__all__ = [
    "GameArgumentError",
    "GameArgumentTypeError",
    "MAX_BOT_SEED",
    "MAX_CANDIDATES",
    "MAX_DEPTH",
    "MAX_GAMES",
    "MAX_JOBS",
    "MAX_ROLLOUTS",
    "MAX_SEED",
    "NoLegalMovesError",
    "bot_seed",
    "choice",
    "claim_timing",
    "is_seed",
    "number",
    "optional_whole_number",
    "require_moves",
    "seat",
    "seed",
    "shown",
    "whole_number",
    "yes_no",
]

MAX_SEED = 10**18  # a game's, a session's or a match's seed S: -MAX_SEED <= S <= MAX_SEED
MAX_BOT_SEED = 10**24  # a bot's or one game's seed: room for the seeds derived from a MAX_SEED
MAX_ROLLOUTS = 10_000  # play-outs per decision of a searching bot
MAX_CANDIDATES = 1_000  # moves a searching bot compares (more than any position has)
MAX_DEPTH = 100  # card plays per play-out before it is scored (a game has fewer)
MAX_GAMES = 100_000  # games in a match
MAX_JOBS = 64  # processes a match plays in

_LONGEST = 60  # characters of a value repeated in a message
_HUGE = 10**40  # an integer at least this large is shown by its number of digits


def shown(value: object) -> str:
    """``value`` as a message repeats it: its ``repr``, escaped and cut short; a huge integer by its size.

    >>> shown("a\\x1b[2J"), shown(float("nan")), shown(10**5000)
    ("'a\\\\x1b[2J'", 'nan', 'an integer of 5001 digits')
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _HUGE:
        # repr() refuses integers of more than 4,300 digits; the digit count comes from the bit length
        digits = int(abs(value).bit_length() * math.log10(2)) + 1
        if abs(value) < 10 ** (digits - 1):
            digits -= 1
        return message("game.argument.huge", digits=digits)
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a value whose repr fails is still named, by its type
        text = f"<{type(value).__name__}>"
    text = escape_control(text)
    return text if len(text) <= _LONGEST else text[: _LONGEST - 1] + "…"


class GameArgumentError(ValueError):
    """A value a session, a bot or a match cannot take: names the parameter, repeats the value, says
    what is expected (``parameter``, ``value``, and the message key and parameters of ``expected``)."""

    def __init__(self, parameter: str, value: object, expected: str, **params: Any) -> None:
        self.parameter = parameter
        self.value = value
        self.expected = expected
        self.params = params
        super().__init__(self.text())

    def text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The message in ``lang``."""
        expected = message(f"game.argument.{self.expected}", lang, **self.params)
        return message(
            "game.argument.refused", lang, parameter=self.parameter, value=shown(self.value), expected=expected
        )


class GameArgumentTypeError(GameArgumentError, TypeError):
    """A value of the wrong type (a string or a float for a seed...): both a :class:`GameArgumentError`
    and a :class:`TypeError`."""


class NoLegalMovesError(GameArgumentError):
    """A bot was asked to choose from no legal moves: there is nothing it could return."""

    def __init__(self, bot: str, legal: object) -> None:
        super().__init__("legal", legal, "no_legal_moves", bot=bot)


def _index(value: object) -> int | None:
    """``value`` as an :class:`int` if it is a whole number (not a bool), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return int(value)
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def whole_number(value: object, parameter: str, low: int, high: int) -> int:
    """``value`` as an :class:`int` if it is a whole number from ``low`` to ``high``, else :class:`GameArgumentError`.

    >>> whole_number(True, "games", 1, 10)
    Traceback (most recent call last):
    battleline_lab.game.arguments.GameArgumentTypeError: games=True is refused: expected a whole number from 1 to 10
    """
    number = _index(value)
    if number is None:
        raise GameArgumentTypeError(parameter, value, "whole_number", low=low, high=high)
    if not low <= number <= high:
        raise GameArgumentError(parameter, value, "whole_number", low=low, high=high)
    return number


def optional_whole_number(value: object, parameter: str, low: int, high: int) -> int | None:
    """:func:`whole_number`, or ``None`` if ``value`` is ``None``.

    >>> optional_whole_number(None, "depth", 0, MAX_DEPTH) is None
    True
    >>> optional_whole_number(-1, "depth", 0, MAX_DEPTH)
    Traceback (most recent call last):
    battleline_lab.game.arguments.GameArgumentError: depth=-1 is refused: expected None or a whole number from 0 to 100
    """
    if value is None:
        return None
    number = _index(value)
    if number is None:
        raise GameArgumentTypeError(parameter, value, "optional_whole_number", low=low, high=high)
    if not low <= number <= high:
        raise GameArgumentError(parameter, value, "optional_whole_number", low=low, high=high)
    return number


def seed(value: object, parameter: str = "seed") -> int:
    """A game's, a session's or a match's seed: a whole number within ``±MAX_SEED``."""
    return whole_number(value, parameter, -MAX_SEED, MAX_SEED)


def is_seed(value: object) -> bool:
    """Whether :func:`seed` takes ``value`` (for a method that refuses a bad seed without raising)."""
    number = _index(value)
    return number is not None and -MAX_SEED <= number <= MAX_SEED


def bot_seed(value: object, parameter: str = "seed") -> int | None:
    """A bot's (or one game's) seed: ``None`` (from the system) or a whole number within ``±MAX_BOT_SEED``."""
    return optional_whole_number(value, parameter, -MAX_BOT_SEED, MAX_BOT_SEED)


def number(value: object, parameter: str, low: float, high: float) -> float:
    """A finite real number (an int or a float, not a bool) from ``low`` to ``high``, as a float.

    >>> number(float("nan"), "margin", 0, 1)
    Traceback (most recent call last):
    battleline_lab.game.arguments.GameArgumentError: margin=nan is refused: expected a number from 0 to 1
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise GameArgumentTypeError(parameter, value, "number", low=low, high=high)
    if not (math.isfinite(value) and low <= value <= high):
        raise GameArgumentError(parameter, value, "number", low=low, high=high)
    return float(value)


def yes_no(value: object, parameter: str) -> bool:
    """``True`` or ``False`` (not 1, 0 or a string)."""
    if not isinstance(value, bool):
        raise GameArgumentTypeError(parameter, value, "yes_no")
    return value


def choice(value: object, parameter: str, choices: Sequence[str], what: str = "one_of") -> str:
    """One of ``choices`` (strings); ``what`` is the message key saying what they are.

    >>> choice("clever", "name", ["random", "heuristic"], "bot")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    battleline_lab.game.arguments.GameArgumentError: name='clever' is refused: expected the name of a bot: random, ...
    """
    if not isinstance(value, str):
        raise GameArgumentTypeError(parameter, value, what, choices=", ".join(choices))
    if value not in choices:
        raise GameArgumentError(parameter, value, what, choices=", ".join(choices))
    return value


def seat(value: object, parameter: str = "human") -> Player:
    """A seat at the table: a :class:`~battleline_lab.game.state.Player` or its name (``north``, ``south``)."""
    if isinstance(value, Player):
        return value
    return Player(choice(value, parameter, [p.value for p in Player], "seat"))


def claim_timing(value: object, parameter: str = "claim_timing") -> ClaimTiming:
    """When flags are claimed (R14): a :class:`~battleline_lab.core.position.ClaimTiming` or its name."""
    if isinstance(value, ClaimTiming):
        return value
    return ClaimTiming(choice(value, parameter, [t.value for t in ClaimTiming]))


def require_moves(bot: str, legal: Sequence[object]) -> None:
    """Refuse an empty list of legal moves (:class:`NoLegalMovesError`): a bot has nothing to return from it.

    >>> require_moves("random", [])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    battleline_lab.game.arguments.NoLegalMovesError: legal=[] is refused: expected at least one legal move for ...
    """
    if not legal:
        raise NoLegalMovesError(bot, legal)
