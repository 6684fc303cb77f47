"""battleline_lab: learn Battle Line's claim proofs with a real rules engine.

The core (cards, formations, positions, claims, messages) needs only the Python
standard library; the YAML loader, the CLI, rendering and widgets sit on top.

>>> from battleline_lab import Position, analyse_claim
>>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}})
>>> analyse_claim(pos, 5).claimable
True
"""

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
