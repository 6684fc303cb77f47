"""The bot registry: every bot a player can ask for by name, and :func:`make_bot`.

A registry name ``x_y`` is the name of the class ``XYBot`` (``master_search`` is
:class:`~battleline_lab.game.master.MasterSearchBot`) and the bot's own ``name``; the names are
what users type (``--bot master``), what ``game/ladder.json`` ranks and what saved records hold.
The ladder's order is :data:`~battleline_lab.game.ladder.LADDER`.

Only this module imports the bot modules together; none of them imports it
(:mod:`~battleline_lab.game.bot_base` holds what they share).

>>> make_bot("master", 1).name
'master'
"""

from __future__ import annotations

from collections.abc import Callable

from . import arguments
from .bot_base import Bot, RandomBot
from .expert import DEFAULT_ROLLOUTS, ExpertBot
from .heuristic import GentleBot, HeuristicBot
from .master import JudgeBot, MasterSearchBot
from .odds_search import OddsSearchBot
from .sampler import MasterBot

__all__ = ["BOTS", "make_bot"]

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "expert": ExpertBot,
    "master": MasterBot,  # the strongest bot: the judge checked by play-outs on sampled deals (docs/game.md)
    "judge": JudgeBot,  # a static judgment on outs and odds, the master's prior and play-out policy
    "master_search": MasterSearchBot,  # the master's move checked by the search (stronger against prob, slower)
    "odds_search": OddsSearchBot,  # the search over odds-ranked candidates (the master before the judgment)
    "gentle": GentleBot,
}


def make_bot(name: str, seed: int | None = None, *, rollouts: int | None = None) -> Bot:
    """A bot by name (a key of :data:`BOTS`); ``rollouts`` is the expert's budget per move
    (checked for every bot: 1 to :data:`~battleline_lab.game.arguments.MAX_ROLLOUTS`, or None for the default).

    >>> make_bot("heuristic", 1).name
    'heuristic'
    """
    arguments.choice(name, "name", list(BOTS), "bot")
    arguments.optional_whole_number(rollouts, "rollouts", 1, arguments.MAX_ROLLOUTS)
    if name == "expert":
        return ExpertBot(seed, rollouts=DEFAULT_ROLLOUTS if rollouts is None else rollouts)
    return BOTS[name](seed)
