"""battleline_lab: learn Battle Line's claim proofs with a real rules engine.

The core (cards, formations, positions, claims, messages) needs only the Python
standard library; the YAML loader, the CLI, rendering and widgets sit on top.

>>> from battleline_lab import Position, analyse_claim
>>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}})
>>> analyse_claim(pos, 5).claimable
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # type checkers see the real imports; at run time they load on first use
    from .cards import (
        ALL_CARDS,
        ALL_TACTICS,
        ALL_TROOPS,
        Card,
        CardNotationError,
        Colour,
        Tactic,
        TacticGroup,
        Troop,
        format_cards,
        parse_card,
        parse_cards,
    )
    from .claims import (
        ClaimAnalysis,
        PositionAnalysis,
        Reason,
        Step,
        UndecidedTieError,
        analyse_claim,
        analyse_position,
        can_claim,
        claimable_flags,
    )
    from .formations import Formation, FormationError, FormationKind, Strength, evaluate
    from .position import ClaimTiming, FlagState, Location, Position, PositionError, Problem, Side

__version__ = "0.1.0"

_LAZY: dict[str, str] = {  # public name -> the module that defines it
    "ALL_CARDS": "cards",
    "ALL_TACTICS": "cards",
    "ALL_TROOPS": "cards",
    "Card": "cards",
    "CardNotationError": "cards",
    "ClaimAnalysis": "claims",
    "ClaimTiming": "position",
    "Colour": "cards",
    "FlagState": "position",
    "Formation": "formations",
    "FormationError": "formations",
    "FormationKind": "formations",
    "Location": "position",
    "Position": "position",
    "PositionAnalysis": "claims",
    "PositionError": "position",
    "Problem": "position",
    "Reason": "claims",
    "Side": "position",
    "Step": "claims",
    "Strength": "formations",
    "Tactic": "cards",
    "TacticGroup": "cards",
    "Troop": "cards",
    "UndecidedTieError": "claims",
    "analyse_claim": "claims",
    "analyse_position": "claims",
    "can_claim": "claims",
    "claimable_flags": "claims",
    "evaluate": "formations",
    "format_cards": "cards",
    "parse_card": "cards",
    "parse_cards": "cards",
}


#: Modules that moved: former path -> where it lives now.  Importing the former path gives the very
#: same module object (``sys.modules`` holds it under both names), with a DeprecationWarning.
MOVED: dict[str, str] = {
    "battleline_lab.game.cli": "battleline_lab.cli.game",
    "battleline_lab.odds_cli": "battleline_lab.cli.odds",
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The one alias mechanism for moved modules (docs/architecture.md): a meta-path finder that
    answers for the former names in :data:`MOVED` and hands back the module at its new place."""

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(
        self, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(f"{spec.name} is now {new}", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(new)
        self._specs[new] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run (the module at its new place is loaded); the import machinery has just set
        its ``__spec__`` to the former name's: put back its own."""
        module.__spec__ = self._specs[module.__name__]


if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
    sys.meta_path.insert(0, _MovedModules())


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use, so ``import battleline_lab`` stays cheap (the
    command's entry point can then catch Ctrl-C at any moment, and Pyodide starts sooner)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'battleline_lab' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "ALL_CARDS",
    "ALL_TACTICS",
    "ALL_TROOPS",
    "Card",
    "CardNotationError",
    "ClaimAnalysis",
    "ClaimTiming",
    "Colour",
    "FlagState",
    "Formation",
    "FormationError",
    "FormationKind",
    "Location",
    "Position",
    "PositionAnalysis",
    "PositionError",
    "Problem",
    "Reason",
    "Side",
    "Step",
    "Strength",
    "Tactic",
    "TacticGroup",
    "Troop",
    "UndecidedTieError",
    "analyse_claim",
    "analyse_position",
    "can_claim",
    "claimable_flags",
    "evaluate",
    "format_cards",
    "parse_card",
    "parse_cards",
]
