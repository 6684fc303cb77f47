"""The CSS selectors the front-end-independent interaction tests look for, in one place.

Every selector here is one of the package's own ``bl-*`` classes (``_classed`` in widgets/_common.py), so
the same test code finds them in JupyterLab and on the JupyterLite site.  When the widgets grow
``data-*`` hooks, only this module changes.
"""

from __future__ import annotations

# the puzzle board (PuzzleWidget)
PUZZLE = ".bl-puzzle"
TITLE = ".bl-title"
ANSWER_YES = ".bl-answer-yes"
ANSWER_NO = ".bl-answer-no"
FEEDBACK_WAITING = ".bl-feedback.bl-state-waiting"
FEEDBACK_WRONG = ".bl-feedback.bl-state-wrong"
FEEDBACK_RIGHT = ".bl-feedback.bl-state-right"
FEEDBACK = ".bl-feedback"
EXPLANATION = ".bl-explanation"  # the proof, opened after a right answer
STEP_COUNTER = ".bl-step-counter"
STEP_TEXT = ".bl-step-text"
STEP_NEXT = ".bl-next"
STEP_BACK = ".bl-back"
# the puzzle on the board component (puzzle mode): its hooks (docs/widgets.md, "Puzzles on the board")
PUZZLE_ANSWER = '[data-action="answer"]'  # with data-value="yes|no|a|b|tie|N|wedge|...": one answer
PUZZLE_CHECK = '[data-action="check"]'  # "which flags": after tapping the flags (data-value="N")
PUZZLE_HINT = '[data-action="hint"]'
PUZZLE_STEP_NEXT = '[data-action="step-next"]'
PUZZLE_STEP_BACK = '[data-action="step-back"]'
PUZZLE_FEEDBACK = '[data-role="feedback"]'  # data-state="waiting|wrong|right"
PROOF_STEP = '[data-role="proof-step"]'  # data-waiting="true" until the proof is shown
PUZZLE_STEP_COUNTER = ".blb-step-counter"
RULE_LINK = "a.blb-rule"  # a rule id of the shown step: a link to its rule on the rules page

# the gym (PuzzleGym)
GYM = ".bl-gym"
GYM_PUZZLE = ".bl-gym-puzzle"
GYM_STATUS = ".bl-gym-status"
GYM_FOR_ME = ".bl-gym-for-me"
GYM_RESET = ".bl-gym-reset"
GYM_RESET_QUESTION = ".bl-gym-reset-question"  # the confirmation, shown by "Reset my progress"
GYM_RESET_CANCEL = ".bl-gym-reset-cancel"
GYM_SAVE = ".bl-gym-save"
GYM_LOAD = ".bl-gym-load"
GYM_STORAGE = ".bl-gym-storage"
GYM_NAME_INPUT = ".bl-gym-name-input input"  # "Your name, for your teacher", asked once
GYM_NAME_SAVE = ".bl-gym-name-save"
GYM_TAG_FILTER = ".bl-filter-tag select"

# the explorer (FormationExplorer)
EXPLORER = ".bl-explorer"
EXPLORER_VERDICT = ".bl-explorer-verdict"
FOG = ".bl-fog input"
MUD = ".bl-mud input"
MUD_SLOT = '.blb [data-side="you"][data-slot="4"]'  # the fourth slot of a side, only when Mud is ticked (R25)
PALETTE_CARD = '.blb [data-zone="palette"]'  # the cards to place (explorer, editor); then a slot:
PLACE = '.blb [data-action="place"]'  # an empty slot (data-place="N:side") or a place
TAKE = '.blb [data-action="take"]'  # a placed card: a tap takes it off

# the game (GameWidget): the board component's hooks (docs/widgets.md)
GAME = ".bl-game"
GAME_PROMPT = ".blb-prompt"
GAME_LOG_LINE = ".bl-game-log .bl-log-line"
HAND_CARD = '[data-zone="hand"]'
FLAG_BUTTON = '.blb-flag[data-legal="true"]'
DRAW_TROOPS = '[data-action="draw"][data-deck="troops"]'  # the draw choice after a card is played (R6)
END_CLAIMS = '[data-action="end"]'
COACH_TOGGLE = ".bl-coach-toggle"
COACH = ".bl-coach"

# the puzzle editor (PuzzleEditor)
EDITOR = ".bl-editor"
EDITOR_SAVE = ".bl-editor-save"
EDITOR_MESSAGE = ".bl-editor-message"
EDITOR_OVERWRITE = ".bl-editor-overwrite"  # "overwrite?" after a second save

# JupyterLab / JupyterLite (the notebook around the widgets)
STDERR = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"


def enabled(selector: str) -> str:
    """Only the buttons of ``selector`` that can be pressed."""
    return f"{selector}:not([disabled]):not([aria-disabled='true'])"
