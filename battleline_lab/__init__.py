"""battleline_lab: learn Battle Line's claim proofs with a real rules engine.

The core (cards, formations, positions, claims, messages) needs only the Python
standard library; the YAML loader, the CLI, rendering and widgets sit on top.

>>> from battleline_lab import Position, analyse_claim
>>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}})
>>> analyse_claim(pos, 5).claimable
True
"""

from __future__ import annotations

# Loading this package imports nothing (not even ``typing``): the command's entry point
# (battleline_lab.entry) catches Ctrl-C from its first line, and the fewer bytecodes run before it,
# the shorter the moment where an interrupt could still end in a traceback.
TYPE_CHECKING = False
if TYPE_CHECKING:
    # What type checkers see (they cannot read _LAZY below; pyproject.toml lets mypy and ruff take
    # these imports as the exports).  At run time each name loads on first use, and
    # tests/test_public_api.py checks that these imports and _LAZY name the same things.
    from typing import Any

    from .core.cards import (
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
    from .core.claims import (
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
    from .core.formations import (
        Formation,
        FormationError,
        FormationKind,
        Strength,
        evaluate,
    )
    from .core.position import (
        ClaimTiming,
        FlagState,
        Location,
        Position,
        PositionError,
        PositionWarning,
        Problem,
        Side,
    )

__version__ = "0.1.0"

#: The public API, written once: each public name -> the module it loads from.  ``__all__`` is its
#: keys, ``__getattr__`` loads a name from its module on first use, and ``dir()`` lists them all.
_LAZY: dict[str, str] = {
    "ALL_CARDS": "core.cards",
    "ALL_TACTICS": "core.cards",
    "ALL_TROOPS": "core.cards",
    "Card": "core.cards",
    "CardNotationError": "core.cards",
    "ClaimAnalysis": "core.claims",
    "ClaimTiming": "core.position",
    "Colour": "core.cards",
    "FlagState": "core.position",
    "Formation": "core.formations",
    "FormationError": "core.formations",
    "FormationKind": "core.formations",
    "Location": "core.position",
    "Position": "core.position",
    "PositionAnalysis": "core.claims",
    "PositionError": "core.position",
    "PositionWarning": "core.position",
    "Problem": "core.position",
    "Reason": "core.claims",
    "Side": "core.position",
    "Step": "core.claims",
    "Strength": "core.formations",
    "Tactic": "core.cards",
    "TacticGroup": "core.cards",
    "Troop": "core.cards",
    "UndecidedTieError": "core.claims",
    "analyse_claim": "core.claims",
    "analyse_position": "core.claims",
    "can_claim": "core.claims",
    "claimable_flags": "core.claims",
    "evaluate": "core.formations",
    "format_cards": "core.cards",
    "parse_card": "core.cards",
    "parse_cards": "core.cards",
}


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use, so ``import battleline_lab`` stays cheap (the
    command's entry point can then catch Ctrl-C at any moment, and Pyodide starts sooner)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'battleline_lab' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = list(_LAZY)
