"""Jupyter widgets for the lessons: a puzzle, a puzzle gym and a formation explorer.

A puzzle (and the gym's puzzle) is drawn by the board component (:class:`battleline_lab.widgets.board.Board`,
an anywidget, in puzzle mode); the gym's filters are ipywidgets (see
``docs/widgets.md``).  The widgets hold *no rule logic*: they ask the engine (a
:class:`~battleline_lab.quiz.puzzle.Puzzle`, its question, the claim analysis) and draw what it
says; every tap on the board comes back as an intent the session decides, and every control
can be driven from Python (:class:`~battleline_lab.widgets.board.Taps` taps the board's hooks as a
learner does).  Every string comes from the message catalogue
(``locale/<lang>/widgets.json``); everything an author wrote is escaped.

One module per concept; this package only re-exports what they offer, each name loaded on first use
(importing ``battleline_lab.widgets.game`` does not load the gym, the puzzle or the explorer: a
reading page's Python imports what its cells use, ``tools/site/live.js``):

* :mod:`.puzzle`: :class:`PuzzleWidget`, one puzzle (and the rule links of its proof steps);
* :mod:`.gym`: :class:`PuzzleSet` (:data:`PuzzleGym`), a folder of puzzles and the trainer;
* :mod:`.explorer`: :class:`FormationExplorer`, two formations compared;
* :mod:`._common`: what they share (controls, the language toggle, the learner's progress);
* :mod:`.game`, :mod:`.editor`, :mod:`.board`, :mod:`.intents`: the game, the puzzle editor, the
  board component and the intents it may send (imported by their own module path).
"""

from __future__ import annotations

import typing

from ._lazy import lazy_exports

if typing.TYPE_CHECKING:  # what type checkers see; at run time each name loads from _LAZY on first use
    from ..quiz.questions import View
    from ._common import (
        FOCUS_STYLE,
        LANGUAGE_NAMES,
        board_view,
        default_progress,
        flag_grid,
        language_toggle,
        set_visible,
        switch_lang,
    )
    from .explorer import FormationExplorer
    from .gym import PuzzleGym, PuzzleSet, load_puzzles
    from .puzzle import Ghosts, PuzzleWidget, rule_links, rules_page_link

#: Each exported name -> the module it loads from (relative to this package); ``__all__`` is its keys.
_LAZY: dict[str, str] = {
    "FOCUS_STYLE": "._common",
    "LANGUAGE_NAMES": "._common",
    "FormationExplorer": ".explorer",
    "Ghosts": ".puzzle",
    "PuzzleGym": ".gym",
    "PuzzleSet": ".gym",
    "PuzzleWidget": ".puzzle",
    "View": "..quiz.questions",
    "board_view": "._common",
    "default_progress": "._common",
    "flag_grid": "._common",
    "language_toggle": "._common",
    "load_puzzles": ".gym",
    "rule_links": ".puzzle",
    "rules_page_link": ".puzzle",
    "set_visible": "._common",
    "switch_lang": "._common",
}


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)

__all__ = list(_LAZY)
