"""The bot registry: each name a player types is the name of the class it makes.

A registry name ``x_y`` makes an ``XYBot`` whose own ``name`` is ``x_y``, defined in the module the
table says.  The names themselves are what users type, ``game/ladder.json`` ranks and saved
records hold, so the table also pins them: a renamed class must not rename a bot.
"""

from __future__ import annotations

import pytest

from battleline_lab.game import make_bot
from battleline_lab.game.bots import BOTS

#: (registry name, class name, module the class is defined in)
REGISTRY = [
    ("random", "RandomBot", "battleline_lab.game.bot_base"),
    ("heuristic", "HeuristicBot", "battleline_lab.game.heuristic"),
    ("gentle", "GentleBot", "battleline_lab.game.heuristic"),
    ("expert", "ExpertBot", "battleline_lab.game.expert"),
    ("master", "MasterBot", "battleline_lab.game.sampler"),
    ("judge", "JudgeBot", "battleline_lab.game.master"),
    ("master_search", "MasterSearchBot", "battleline_lab.game.master"),
    ("odds_search", "OddsSearchBot", "battleline_lab.game.odds_search"),
]


def class_name(name: str) -> str:
    """``x_y`` -> ``XYBot``."""
    return "".join(part.capitalize() for part in name.split("_")) + "Bot"


def test_the_table_is_the_whole_registry() -> None:
    assert sorted(name for name, _, _ in REGISTRY) == sorted(BOTS)


@pytest.mark.parametrize(("name", "cls", "module"), REGISTRY, ids=[row[0] for row in REGISTRY])
def test_a_registry_name_makes_the_class_it_names(name: str, cls: str, module: str) -> None:
    assert class_name(name) == cls
    for bot in (BOTS[name](1), make_bot(name, 1)):
        assert type(bot).__name__ == cls
        assert type(bot).__module__ == module
        assert bot.name == name  # what a record or the ladder holds for this bot
