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
