"""battleline_lab: learn Battle Line's claim proofs with a real rules engine.

The core (cards, formations, positions, claims, messages) needs only the Python
standard library; the YAML loader, the CLI, rendering and widgets sit on top.

>>> from battleline_lab import Position, analyse_claim
>>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}})
>>> analyse_claim(pos, 5).claimable
True
"""

from __future__ import annotations

import sys

# Loading this package imports nothing beyond ``sys`` (not even ``typing``): the command's entry point
# (battleline_lab.entry) catches Ctrl-C from its first line, and the fewer bytecodes run before it,
# the shorter the moment where an interrupt could still end in a traceback.
TYPE_CHECKING = False
if TYPE_CHECKING:  # type checkers see the real imports; at run time they load on first use
    import importlib.machinery
    from types import ModuleType
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
    from .core.formations import Formation, FormationError, FormationKind, Strength, evaluate
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

_LAZY: dict[str, str] = {  # public name -> the module that defines it
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


#: Modules that moved: former path -> where it lives now.  Importing the former path gives the very
#: same module object (``sys.modules`` holds it under both names), with a DeprecationWarning.
MOVED: dict[str, str] = {
    "battleline_lab.board": "battleline_lab.widgets.board",
    "battleline_lab.cards": "battleline_lab.core.cards",
    "battleline_lab.checks": "battleline_lab.quiz.checks",
    "battleline_lab.claims": "battleline_lab.core.claims",
    "battleline_lab.class_report": "battleline_lab.training.class_report",
    "battleline_lab.console": "battleline_lab.cli.console",
    "battleline_lab.decide": "battleline_lab.core.decide",
    "battleline_lab.difficulty": "battleline_lab.quiz.difficulty",
    "battleline_lab.editor_widget": "battleline_lab.widgets.editor",
    "battleline_lab.files": "battleline_lab.formats.files",
    "battleline_lab.formations": "battleline_lab.core.formations",
    "battleline_lab.game.cli": "battleline_lab.cli.game",
    "battleline_lab.game_widget": "battleline_lab.widgets.game",
    "battleline_lab.glicko2": "battleline_lab.training.glicko2",
    "battleline_lab.hints": "battleline_lab.training.hints",
    "battleline_lab.library": "battleline_lab.quiz.library",
    "battleline_lab.loader": "battleline_lab.quiz.loader",
    "battleline_lab.messages": "battleline_lab.text.messages",
    "battleline_lab.odds": "battleline_lab.core.odds",
    "battleline_lab.odds_cli": "battleline_lab.cli.odds",
    "battleline_lab.position": "battleline_lab.core.position",
    "battleline_lab.progress": "battleline_lab.training.progress",
    "battleline_lab.puzzle": "battleline_lab.quiz.puzzle",
    "battleline_lab.questions": "battleline_lab.quiz.questions",
    "battleline_lab.questions._claims": "battleline_lab.quiz.questions._claims",
    "battleline_lab.questions.base": "battleline_lab.quiz.questions.base",
    "battleline_lab.questions.claim": "battleline_lab.quiz.questions.claim",
    "battleline_lab.questions.claimable": "battleline_lab.quiz.questions.claimable",
    "battleline_lab.questions.compare": "battleline_lab.quiz.questions.compare",
    "battleline_lab.questions.formation": "battleline_lab.quiz.questions.formation",
    "battleline_lab.questions.odds": "battleline_lab.quiz.questions.odds",
    "battleline_lab.reachability": "battleline_lab.core.reachability",
    "battleline_lab.report": "battleline_lab.training.report",
    "battleline_lab.safe_yaml": "battleline_lab.formats.safe_yaml",
    "battleline_lab.svg": "battleline_lab.render.svg",
    "battleline_lab.trainer": "battleline_lab.training.trainer",
}


class _MovedModules:
    """The one alias mechanism for moved modules (docs/architecture.md): a meta-path finder that
    answers for the former names in :data:`MOVED` and hands back the module at its new place.

    Both a finder and a loader by their methods (``importlib.abc``'s base classes would cost every
    start of the command the import of ``typing`` and ``importlib.resources``)."""

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(
        self, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(fullname, self)  # type: ignore[arg-type]  # a Loader by its methods, not by its base

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        import importlib
        import warnings

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
    import importlib

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
    "PositionWarning",
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
