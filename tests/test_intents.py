"""Forged and malformed board intents are refused by the intents schema, against the widget each one targets.

The browser's comm channel can carry anything: a list where a card is expected, ``nan`` where a
flag is, ``"３"`` (a full-width digit) as a flag answer.  Each row of the tables below is one such
intent and the widget it is sent to; the test asserts that nothing raises, that an
``IntentWarning`` names the intent, that the widget's state (its session and its view model,
without the revision counter) is what it was, and that the board was drawn again.  Well-formed
intents are sent too, so a schema that refused everything would fail here.
"""

from __future__ import annotations

import copy
import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from battleline_lab import Position, Side, analyse_claim
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions import ClaimableQuestion, ClaimQuestion
from battleline_lab.training.progress import Progress
from battleline_lab.widgets import FormationExplorer, PuzzleSet, PuzzleWidget
from battleline_lab.widgets.editor import PuzzleEditor
from battleline_lab.widgets.game import GameWidget
from tests.solving import right_card

BLUE_EIGHT = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}})
WHICH_FLAGS = Position.build(
    {5: {"you": "r3 r4 r5", "opponent": "r6 g6"}, 7: {"you": "y1 y2 y3", "opponent": "b9"}}
)  # flags 5 and 7 can be picked; 5 is claimable


def claim_widget(_tmp: Path) -> PuzzleWidget:
    answer = analyse_claim(BLUE_EIGHT, 5).claimable
    return PuzzleWidget(
        Puzzle("p", {"en": "Flag 5"}, position=BLUE_EIGHT, question=ClaimQuestion(5), answer=answer), record=False
    )


def flags_puzzle() -> Puzzle:
    return Puzzle("c", {"en": "which"}, position=WHICH_FLAGS, question=ClaimableQuestion(), answer=[5])


def flags_widget(_tmp: Path) -> PuzzleWidget:
    return PuzzleWidget(flags_puzzle(), record=False)


def gym(tmp: Path) -> PuzzleSet:
    return PuzzleSet([flags_puzzle()], progress=Progress(tmp / "progress.json"))


def game(_tmp: Path) -> GameWidget:
    return GameWidget(bot="heuristic", seed=0)


def explorer(_tmp: Path) -> FormationExplorer:
    return FormationExplorer(you="r3 r4", opponent="b8")


def editor(_tmp: Path) -> PuzzleEditor:
    w = PuzzleEditor(puzzle_id="demo")
    w.taps.pick("r2")
    w.taps.place("5:you")
    return w


def puzzle_of(w: Any) -> PuzzleWidget:
    """The puzzle widget whose board an intent goes to (the gym's puzzle on show)."""
    return w.current if isinstance(w, PuzzleSet) else w


def board_of(w: Any) -> Any:
    return puzzle_of(w).board if isinstance(w, PuzzleSet) else w.board


def _view(w: Any) -> dict[str, Any]:
    return {k: v for k, v in copy.deepcopy(board_of(w).view).items() if k != "rev"}


def snapshot(w: Any) -> object:
    """Everything a refused intent must leave as it was: the session's state and the board's view model.

    The game's notice is left out: a refused tap says "not offered" there, as any tap that is not
    on offer does (the game, the hand and the choice in progress are compared).
    """
    if isinstance(w, GameWidget):
        view = _view(w)
        view.pop("feedback", None)
        s = w.session
        return (repr(s.state), list(s.state.history), s.selection, [c.notation for c in s.hand()], view)
    if isinstance(w, (PuzzleWidget, PuzzleSet)):
        p = puzzle_of(w)
        s = p.session
        rows = list(w.progress.attempts()) if isinstance(w, PuzzleSet) else None
        return (s.state, s.attempts, s.hint_level, s.step_index, p.selected_flags(), _view(w), rows)
    if isinstance(w, FormationExplorer):
        return (copy.deepcopy(w.picked), _view(w), w.verdict.value)
    if isinstance(w, PuzzleEditor):
        return (copy.deepcopy(w.session.data), w.flag.value, _view(w))
    raise TypeError(type(w))


WIDGETS: dict[str, Callable[[Path], Any]] = {
    "game": game,
    "puzzle": claim_widget,
    "which-flags": flags_widget,
    "gym": gym,
    "explorer": explorer,
    "editor": editor,
}


def hand_card(w: GameWidget) -> str:
    return w.session.hand()[0].notation


@dataclass(frozen=True)
class Case:
    id: str
    widget: str
    intent: Callable[[Any], object]  # built from the widget (a card in its hand)


HUGE = "1" * 4301
BAD_FLAGS: list[tuple[str, object]] = [
    ("fullwidth-3", "３"),
    ("arabic-indic-3", "\u0663"),
    ("space-3", " 3"),
    ("superscript-2", "²"),
    ("circled-1", "①"),
    ("float-1.5", 1.5),
    ("4301-digits", HUGE),
    ("nan", math.nan),
    ("inf", math.inf),
    ("list-3", [3]),
    ("hex-0x3", "0x3"),
    ("none", None),
    ("x", "x"),
    ("true", True),
    ("float-3.0", 3.0),
    ("zero", 0),
    ("ten", 10),
    ("string-3", "3"),
]
# an answer is text: the ASCII digits are the only flags it may name ("3" is accepted there)
BAD_FLAG_ANSWERS = [(name, flag) for name, flag in BAD_FLAGS if flag != "3"] + [("int-5", 5), ("digit-0", "0")]

CASES: list[Case] = [
    # play [card, flag] with a flag that is not one: it used to raise out of the callback with the card left chosen
    *(
        Case(f"game-play-flag-{name}", "game", lambda w, f=flag: {"play": [hand_card(w), f]})
        for name, flag in BAD_FLAGS
    ),
    # a bare flag or claim that is not one
    *(Case(f"game-flag-{name}", "game", lambda _w, f=flag: {"flag": f}) for name, flag in BAD_FLAGS),
    *(Case(f"game-claim-{name}", "game", lambda _w, f=flag: {"claim": f}) for name, flag in BAD_FLAGS),
    # the editor's flag of the marks
    *(Case(f"editor-flag-{name}", "editor", lambda _w, f=flag: {"flag": f}) for name, flag in BAD_FLAGS),
    # a "which flags" answer, on the lesson's widget and the gym's
    *(
        Case(f"{where}-answer-{name}", where, lambda _w, f=flag: {"answer": f})
        for where in ("which-flags", "gym")
        for name, flag in BAD_FLAG_ANSWERS
    ),
    # a list or a dict where a card is expected: "unhashable" raised out of the callback
    *(
        Case(f"game-{kind}-{shape}", "game", lambda w, k=kind, m=make: {k: m(w)})
        for kind in ("select", "target", "draw")
        for shape, make in (
            ("list", lambda w: [hand_card(w)]),
            ("dict", lambda w: {hand_card(w): 1}),
            ("empty-list", lambda _w: []),
            ("none", lambda _w: None),
            ("int", lambda _w: 7),
        )
    ),
    *(
        Case(f"{where}-take-{shape}", where, lambda _w, v=value: {"take": v})
        for where in ("editor", "explorer")
        for shape, value in (("list", ["r2"]), ("dict", {"r2": 1}), ("none", None), ("int", 3), ("unplaced", "g9"))
    ),
    Case("game-play-card-not-in-hand", "game", lambda _w: {"play": ["zz", 3]}),
    Case("game-play-card-list", "game", lambda _w: {"play": [["r1"], 3]}),
    Case("game-play-three-items", "game", lambda w: {"play": [hand_card(w), 3, 4]}),
    Case("game-play-not-a-list", "game", lambda w: {"play": hand_card(w)}),
    Case("game-select-not-in-hand", "game", lambda _w: {"select": "zz"}),
    Case("game-draw-unknown-deck", "game", lambda _w: {"draw": "jokers"}),
    Case("game-do-unknown", "game", lambda _w: {"do": "win"}),
    Case("game-cancel-false", "game", lambda _w: {"cancel": False}),
    Case("editor-place-list", "editor", lambda _w: {"place": [["r7"], "3:you"]}),
    Case("editor-place-dict", "editor", lambda _w: {"place": {"r7": "3:you"}}),
    Case("editor-place-unknown-place", "editor", lambda _w: {"place": ["r7", "10:you"]}),
    Case("explorer-place-list", "explorer", lambda _w: {"place": [["b9"], "1:opponent"]}),
    Case("explorer-place-other-flag", "explorer", lambda _w: {"place": ["b9", "2:opponent"]}),
    Case("puzzle-answer-list", "puzzle", lambda _w: {"answer": ["yes"]}),
    Case("puzzle-answer-true", "puzzle", lambda _w: {"answer": True}),
    Case("puzzle-answer-unknown", "puzzle", lambda _w: {"answer": "maybe"}),
    Case("puzzle-check-on-buttons", "puzzle", lambda _w: {"do": "check"}),
    Case("puzzle-hint-list", "puzzle", lambda _w: {"hint": [True]}),
    Case("puzzle-step-true", "puzzle", lambda _w: {"step": True}),
    Case("puzzle-step-five", "puzzle", lambda _w: {"step": 5}),
    Case("which-flags-do-unknown", "which-flags", lambda _w: {"do": "solve"}),
    # unknown kinds, kinds of another widget, and shapes that are no intent at all
    *(
        Case(f"{where}-{name}", where, lambda _w, i=intent: i)
        for where in WIDGETS
        for name, intent in (
            ("unknown-kind", {"format": "c:"}),
            ("two-keys", {"hint": True, "cancel": True}),
            ("empty", {}),
            ("a-list", [["play", 3]]),
            ("a-string", "play"),
            ("none", None),
            ("int-key", {3: 3}),
        )
    ),
    Case("game-answer", "game", lambda _w: {"answer": "yes"}),
    Case("game-place", "game", lambda _w: {"place": ["r1", "1:you"]}),
    Case("puzzle-play", "puzzle", lambda _w: {"play": ["r3", 1]}),
    Case("explorer-flag", "explorer", lambda _w: {"flag": 1}),
    Case("editor-hint", "editor", lambda _w: {"hint": True}),
]


def send(w: Any, intent: object) -> tuple[bool, list[warnings.WarningMessage]]:
    """Send ``intent`` as the browser does (the board's comm message) and catch the warnings it gives."""
    board = board_of(w)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        before = board._rev
        board._on_msg(board, {"intent": intent}, [])
        redrawn = board_of(w)._rev > before
    return redrawn, list(caught)


def intent_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if type(w.message).__name__ == "IntentWarning"]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_malformed_intent_is_refused_and_changes_nothing(case: Case, tmp_path: Path) -> None:
    w = WIDGETS[case.widget](tmp_path)
    if case.widget == "game":
        w.choose(("card", w.session.hand()[-1]))  # a choice in progress survives a refused tap
    intent = case.intent(w)
    before = snapshot(w)
    redrawn, caught = send(w, intent)  # nothing raises out of the comm callback
    said = intent_warnings(caught)
    assert said, f"no IntentWarning for {intent!r}"
    assert len(said[0]) < 400  # the intent is named, a 4,301-digit string is not repeated whole
    assert snapshot(w) == before
    assert redrawn


def test_the_refusal_names_the_intent_and_why(tmp_path: Path) -> None:
    w = game(tmp_path)
    card = hand_card(w)
    _redrawn, caught = send(w, {"play": [card, "３"]})
    assert intent_warnings(caught) == [
        f"game refused {{'play': ['{card}', '３']}}: a flag is a whole number from 1 to 9, not '３'"
    ]


@pytest.mark.parametrize("flag", [value for _name, value in BAD_FLAGS], ids=[name for name, _value in BAD_FLAGS])
def test_a_forged_play_then_a_bare_flag_plays_nothing(flag: object, tmp_path: Path) -> None:
    w = game(tmp_path)
    send(w, {"play": [hand_card(w), flag]})
    assert w.session.selection == ()  # no card left chosen by the forged play
    _redrawn, caught = send(w, {"flag": 4})  # what a real tap on flag 4 sends when a card is chosen
    assert w.state.history == [] and w.session.selection == ()
    assert "not offered" in w.message_text() and not intent_warnings(caught)  # well-formed: the session said no


def test_a_play_not_on_offer_leaves_no_card_chosen_for_a_later_flag(tmp_path: Path) -> None:
    w = game(tmp_path)
    for _turn in range(3):  # flag 1 full on the learner's side: a troop may no longer go there
        card = next(c for c in w.taps.view["hand"] if 1 in c.get("flags", ()))
        send(w, {"play": [card["id"], 1]})
        send(w, {"draw": "troops"})
    card = next(c for c in w.taps.view["hand"] if c.get("flags"))
    assert 1 not in card["flags"] and 4 in card["flags"]
    played = len(w.state.history)
    send(w, {"play": [card["id"], 1]})  # well-formed, but not on offer: the session says so
    assert w.session.selection == () and "not offered" in w.message_text()
    send(w, {"flag": 4})
    assert len(w.state.history) == played and w.session.selection == ()


# -- what fits is still done ---------------------------------------------------------------------


def test_a_well_formed_play_is_played(tmp_path: Path) -> None:
    w = game(tmp_path)
    card = next(c for c in w.taps.view["hand"] if c.get("flags"))
    _redrawn, caught = send(w, {"play": [card["id"], card["flags"][0]]})
    assert not intent_warnings(caught)
    assert w.state.history and w.state.history[0][2].card.notation == card["id"]


@pytest.mark.parametrize("where", ["which-flags", "gym"])
def test_an_ascii_digit_answer_picks_the_flag(where: str, tmp_path: Path) -> None:
    w = WIDGETS[where](tmp_path)
    _redrawn, caught = send(w, {"answer": "7"})
    assert not intent_warnings(caught) and puzzle_of(w).selected_flags() == [7]
    send(w, {"do": "check"})
    assert puzzle_of(w).state == "wrong"


def test_the_puzzle_answer_hint_and_step_are_taken(tmp_path: Path) -> None:
    w = claim_widget(tmp_path)
    for intent in ({"hint": True}, {"answer": "yes"}, {"answer": "no"}, "evidence", {"step": 1}):
        if intent == "evidence":  # the verdict is right: its ghost (R12), a card on offer
            intent = {"evidence": right_card(w)}
        _redrawn, caught = send(w, intent)
        assert not intent_warnings(caught), intent
    assert (w.hint_level, w.attempts, w.state, w.step_index) == (1, 2, "right", 1)


def test_the_explorer_and_editor_take_well_formed_places(tmp_path: Path) -> None:
    e = explorer(tmp_path)
    send(e, {"place": ["r5", "1:you"]})
    send(e, {"take": "b8"})
    assert e.picked[Side.YOU] == ["r3", "r4", "r5"] and e.picked[Side.OPPONENT] == []
    w = editor(tmp_path)
    send(w, {"flag": 3})
    send(w, {"place": ["b7", "3:opponent"]})
    send(w, {"take": "r2"})
    assert w.flag.value == 3 and w.session.where("b7") == ("flags", 3, "opponent") and w.session.where("r2") is None


def test_an_error_inside_a_widget_becomes_a_warning_and_a_redraw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = claim_widget(tmp_path)

    def broken() -> None:
        raise RuntimeError("the hint ladder broke")

    monkeypatch.setattr(w.controller, "hint", broken)  # the controller decides the intent, inside the widget
    redrawn, caught = send(w, {"hint": True})
    assert redrawn and any("RuntimeError: 'the hint ladder broke'" in s for s in intent_warnings(caught))


def test_the_proof_keys_take_one_step_only() -> None:
    from battleline_lab.widgets.board import StepKeys

    seen: list[int] = []
    keys = StepKeys(on_step=seen.append)
    keys.active = True
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for bad in (True, 1.0, 5, "1", [1], None):
            assert not keys.intent({"step": bad})
        assert keys.intent({"step": -1})
    assert seen == [-1] and len(intent_warnings(list(caught))) == 6
