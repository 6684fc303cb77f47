"""The activities' controllers, driven by intents without Jupyter, and the typed view model they build.

A controller (``battleline_lab.controllers``) owns its activity's state; these tests tap it as the
board would (``tap_answer``, ``check``, ``hint``, ``step``, the gym's filters and buttons) and read
only its typed view.  Every view any widget sends the board declares each key it holds.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from battleline_lab import Position, Side, analyse_claim
from battleline_lab.controllers import view as views
from battleline_lab.controllers.editor import EditorController
from battleline_lab.controllers.explorer import ExplorerController
from battleline_lab.controllers.game import GameController
from battleline_lab.controllers.gym import GymController
from battleline_lab.controllers.puzzle import PuzzleController
from battleline_lab.quiz import library
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions import ClaimableQuestion, ClaimQuestion
from battleline_lab.text.messages import message
from battleline_lab.training.progress import MemoryStore, Progress
from tests.solving import solve

ROOT = Path(__file__).resolve().parents[1]

WEDGE = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}})
WHICH_FLAGS = Position.build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}, 2: {"you": "p7 p8 p9"}})


def claim() -> PuzzleController:
    return PuzzleController(Puzzle("wedge", {"en": "Flag 5"}, position=WEDGE, question=ClaimQuestion(5), answer=False))


def which_flags() -> PuzzleController:
    answer = [n for n in range(1, 10) if analyse_claim(WHICH_FLAGS, n).claimable]
    return PuzzleController(
        Puzzle("which", {"en": "which"}, position=WHICH_FLAGS, question=ClaimableQuestion(), answer=answer)
    )


def gym(**kwargs: Any) -> GymController:
    return GymController("seed-examples", progress=Progress(store=MemoryStore()), **kwargs)


def ghost_ids(view: views.PuzzleView) -> list[str]:
    return [g["id"] for f in view.get("flags", ()) for g in f.get("ghosts", ())]


# -- the puzzle ------------------------------------------------------------------


def test_R12_a_wrong_claim_shows_the_answer_tapped_and_the_counterexample_waits_for_the_solution() -> None:
    c = claim()
    c.tap_answer("yes")
    view = c.view()
    assert c.state == "wrong" and ghost_ids(view) == []  # the ghosts would be the answer
    assert [(a.get("value"), a.get("state")) for a in view["answers"][:2]] == [("yes", "wrong"), ("no", None)]
    assert [a.get("action") for a in view["answers"]] == [None, None, "solution"]  # "Show the solution"
    assert view["feedback"]["tone"] == "wrong" and "items" not in view["feedback"]  # the headline waits
    c.intent("do", "solution")
    view = c.view()
    assert c.state == "wrong" and ghost_ids(view) == ["b9", "b10"] and view["proof"]["index"] == 0
    assert [a.get("action") for a in view["answers"] if not a.get("hidden")] == [None, None]  # the solution is out


def test_a_right_answer_opens_the_proof_and_locks_the_answers() -> None:
    c = claim()
    c.tap_answer("no")
    assert c.state == "evidence" and "proof" not in c.view()
    solve(c, False)  # its ghost (R12)
    view = c.view()
    assert c.state == "right" and view["proof"]["index"] == 0
    assert all(a.get("enabled") is False for a in view["answers"])
    assert view["hint"]["hidden"] and "items" not in view["feedback"]  # no list of the title and tags left over


def test_flags_are_picked_and_dropped_then_checked() -> None:
    c = which_flags()
    c.tap_answer("5")
    assert c.selected_flags() == [5] and c.view()["flags"][4]["answer"] is True
    c.tap_answer("5")
    assert c.selected_flags() == [] and c.view()["flags"][4]["answer"] is False
    for n in c.puzzle.solve():  # type: ignore[attr-defined]
        c.tap_answer(str(n))
    assert c.check() and c.state == "right"
    assert all(f.get("inert") for f in c.view()["flags"])  # solved: nothing more to pick
    c.tap_answer("5")
    assert c.selected_flags() == sorted(c.puzzle.solve())  # type: ignore[call-overload]


def test_the_session_knows_its_proof_the_controller_is_not_told_how_long() -> None:
    c = claim()
    c.step(1)
    assert c.step_index is None  # closed: stepping does nothing
    for _ in range(3):
        c.hint()
    total = len(c.view()["proof"]["steps"])
    assert c.step_index == 0 and total >= 2 and c.view()["hints"] == c.hints() and len(c.hints()) == 3
    for _ in range(total + 2):
        c.step(1)
    assert c.step_index == total - 1 == c.view()["proof"]["index"]
    c.step(-1)
    assert c.step_index == total - 2
    assert c.session.step(-100) == 0  # the session alone clamps too


def test_the_language_changes_every_text_and_keeps_the_state() -> None:
    c = claim()
    c.tap_answer("yes")
    c.tap_answer("yes")  # a second miss: the solution opens, its counterexample drawn
    c.hint()
    english = c.view()
    c.set_lang("zh")
    chinese = c.view()
    assert chinese["lang"] == "zh" and c.state == "wrong" and c.hint_level == 1 and c.session.revealed
    assert chinese["hints"] != english["hints"] and chinese["question"] != english["question"]
    assert ghost_ids(chinese) == ghost_ids(english) == ["b9", "b10"]


@pytest.mark.parametrize("intent", [("answer", "no"), ("hint", True), ("step", 1), ("do", "check")], ids=str)
def test_an_intent_goes_to_its_method(intent: tuple[str, object]) -> None:
    calls: list[str] = []
    c = which_flags() if intent[0] == "do" else claim()
    for name in ("tap_answer", "hint", "step", "check"):
        setattr(c, name, lambda *_a, name=name: calls.append(name))
    c.intent(*intent)
    assert calls == [{"answer": "tap_answer", "hint": "hint", "step": "step", "do": "check"}[intent[0]]]


def test_the_puzzle_tells_whoever_listens_after_an_answer_and_a_hint() -> None:
    heard: list[tuple[str, ...]] = []
    c = claim()
    c.on_answer = lambda pid, correct: heard.append((pid, str(correct)))
    c.on_hint = lambda pid: heard.append((pid,))
    c.tap_answer("yes")
    c.hint()
    assert heard == [("wedge", "False"), ("wedge",)]


# -- the gym -----------------------------------------------------------------------


def test_the_gym_filters_and_moves_through_its_selection() -> None:
    g = gym()
    total = len(g.selection)
    assert g.index == 0 and not g.view().can_previous and g.view().can_next
    g.move(1)
    assert g.index == 1 and g.view().can_previous and g.puzzle is not None
    level = g.selection[0].level
    g.set_filter("", level or 0)
    assert g.index == 0 and 0 < len(g.selection) <= total and all(p.level == level for p in g.selection)
    g.select(g.puzzles[-1].id)  # outside the filter: the filters are cleared
    assert (g.tag, g.level) == ("", 0) and g.puzzle is not None and g.puzzle.puzzle.id == g.puzzles[-1].id


def test_a_streak_moves_on_after_a_right_answer_and_says_so() -> None:
    g = gym()
    first = g.start_streak()
    assert first is not None and g.trainer.streak_mode
    solve(first)
    assert g.puzzle is not None and g.puzzle is not first and "Streak" in g.view().stats.streak
    assert g.view().stats.note  # the next streak puzzle is announced once
    g.move(0)
    assert not g.view().stats.note


def test_the_gym_hears_its_puzzle_and_asks_to_be_redrawn() -> None:
    redraws: list[int] = []
    g = gym(on_change=lambda: redraws.append(1))
    assert g.puzzle is not None
    g.puzzle.tap_answer("yes" if g.puzzle.answer_keys() == {"yes", "no"} else sorted(g.puzzle.answer_keys())[0])
    assert redraws == [1] and "1" in g.view().status


def test_a_reset_is_asked_then_kept_or_done() -> None:
    g = gym()
    g.ask_reset()
    assert g.view().reset_asked
    g.cancel_reset()
    assert not g.view().reset_asked
    g.ask_reset()
    g.reset()
    assert not g.view().reset_asked and g.view().stats.note


def test_progress_saved_then_loaded_or_refused() -> None:
    g = gym()
    assert g.puzzle is not None
    g.puzzle.answer(g.puzzle.puzzle.solve())
    text = g.save_progress()
    saved = g.view().transfer
    assert saved is not None and saved.kind == "saved" and saved.href.startswith("data:application/json;base64,")
    other = gym()
    assert other.load_progress(text.encode("utf-8")) == (1, 0)
    assert other.view().transfer is not None and other.view().transfer.kind == "loaded"  # type: ignore[union-attr]
    assert other.load_progress(b"not json") is None and other.view().transfer.kind == "load_error"  # type: ignore[union-attr]


def test_the_gym_switches_language_with_its_puzzle() -> None:
    g = gym()
    g.set_lang("zh")
    assert g.puzzle is not None and g.puzzle.lang == "zh" and g.puzzle.view()["lang"] == "zh"
    assert "等级分" in g.view().stats.figures


# -- the explorer ----------------------------------------------------------------------


def test_R25_mud_gives_each_side_a_fourth_slot_and_the_explorer_counts_it() -> None:
    e = ExplorerController(you="r3 r4 r5 r6", opponent="b8 b9 b10")
    assert len(e.cards(Side.YOU)) == 3 and e.view()["flags"][0]["slots"] == 3
    e.set_environment(mud=True)
    assert len(e.cards("you")) == 4 and e.view()["flags"][0]["slots"] == 4 and e.view()["flags"][0]["env"]
    assert e.verdict()[0].startswith("Pick 4 cards")  # the opponent's side is one short now


def test_R11_who_completed_first_decides_a_tie_in_the_explorer() -> None:
    e = ExplorerController(you="r3 r4 r5", opponent="b3 b4 b5")
    mine = e.verdict()[-1]
    e.set_first("opponent")
    assert mine != e.verdict()[-1] and "R11" in mine


def test_a_card_lies_in_one_place_and_a_full_side_takes_none() -> None:
    e = ExplorerController(you="r3 r4", opponent="b8")
    e.place("r3", "1:opponent")
    assert e.picked[Side.YOU] == ["r4"] and e.picked[Side.OPPONENT] == ["b8", "r3"]
    e.place("g1", "1:opponent")
    e.place("g2", "1:opponent")  # full
    assert e.picked[Side.OPPONENT] == ["b8", "r3", "g1"]
    e.take("b8")
    assert e.placed() == {"r4", "r3", "g1"}
    palette = {c["id"]: c for c in e.view()["palette"]["cards"]}
    assert palette["r3"].get("placed") and not palette["b8"].get("placed")


# -- a game ---------------------------------------------------------------------------


def test_a_game_is_played_through_its_session_and_the_coach_adds_odds() -> None:
    from battleline_lab.game import Deck
    from battleline_lab.game.session import GameSession, Notice

    c = GameController(GameSession(bot="heuristic", seed=11))
    view = c.view()
    assert view["mode"] == "game" and c.offer is not None and view["feedback"] == {}
    assert "odds_note" not in view  # the coach is off
    for _ in range(3):  # a card to a flag, then a troop drawn; the bot answers
        card = next(h for h in c.view()["hand"] if h.get("flags"))
        c.session.choose(("card", next(x for x in c.session.hand() if x.notation == card["id"])))
        c.session.choose(("flag", card.get("flags", [])[0]))
        c.session.choose(("draw", Deck.TROOPS))
    assert sum(len(f["you"]) for f in c.view()["flags"]) == 3
    c.session.show_coach(True)
    assert any("odds" in f for f in c.view()["flags"]) and "odds_note" in c.view()
    c.session.notice = Notice("not_offered")
    assert c.view()["feedback"]["text"] == c.t("game_widget.not_offered")
    c.set_lang("zh")
    assert c.view()["lang"] == "zh" and c.view()["feedback"]["text"] == message("game_widget.not_offered", "zh")


#: intents given to the game's controller alone (no widget): (intents, the clicks held after, the notice after,
#: the cards the learner has on the flags after)
GAME_INTENTS: dict[str, tuple[list[tuple[str, Any]], list[str], str | None, int]] = {
    "R6-play-a-hand-card-to-a-flag": ([("play", ["o2", 4])], [], None, 1),
    "select-holds-the-card": ([("select", "o2")], ["card"], None, 0),
    "a-play-not-on-offer-keeps-the-card-held": ([("select", "o2"), ("play", ["y9", 10])], ["card"], "not_offered", 0),
    "cancel-drops-the-card-held": ([("select", "o2"), ("cancel", True)], [], None, 0),
    "R5-play-then-draw-and-the-bot-replies": ([("play", ["o2", 4]), ("draw", "troops")], [], None, 1),
}


@pytest.mark.parametrize("case", sorted(GAME_INTENTS))
def test_the_game_controller_takes_the_boards_intents_without_a_widget(case: str) -> None:
    from battleline_lab.game.session import GameSession

    intents, held, notice, mine = GAME_INTENTS[case]
    c = GameController(GameSession(bot="heuristic", seed=11))
    assert c.hand_cards() >= {"o2", "y9"}
    for name, value in intents:
        assert c.intent(name, value) is True  # the board is drawn again after each
    assert [token[0] for token in c.selection] == held == c.view()["selection"]
    assert (c.session.notice.kind if c.session.notice else None) == notice
    assert sum(len(f["you"]) for f in c.view()["flags"]) == mine
    assert [line for _turn, line, _notation in c.log_entries()][:1] == (
        ["South (you) plays orange 2, Peltasts at flag 4"] if mine else []
    )


def test_the_game_controller_says_the_log_the_coach_and_the_end_in_the_language_shown() -> None:
    from battleline_lab.game.bot_base import RandomBot
    from battleline_lab.game.match import play_game
    from battleline_lab.game.session import GameSession

    c = GameController(GameSession(bot=None, seed=11))
    assert c.ending() is None and c.coach_heads() == [] and c.log_entries() == []
    c.intent("play", ["o2", 4])
    c.set_lang("zh")
    assert c.log_entries()[0][1].startswith(message("game_widget.name.south", "zh"))
    c.refuse()
    assert c.view()["feedback"]["text"] == message("game_widget.not_offered", "zh")
    assert c.picture().startswith("<svg")
    c.state = play_game(RandomBot(1), RandomBot(2), seed=11)  # a finished game, as a lesson may set one
    c.resume()
    ending = c.ending()
    assert ending is not None and c.state.winner is not None
    text, points, viewer_won = ending
    assert message("game_widget.name." + c.state.winner.value, "zh") in text
    assert viewer_won == (c.state.winner is c.viewer) and points


# -- the editor -------------------------------------------------------------------------


def test_the_editor_puts_moves_and_takes_cards_and_says_what_it_refused(tmp_path: Path) -> None:
    from battleline_lab.authoring.editor import EditorSession

    c = EditorController(EditorSession.new("demo"))
    c.place("r2", "5:you")
    c.place("r2", "hand:you")  # a card lies in one place: moved
    assert c.session.where("r2") == ("hand", "you") and "r2" in c.placed()
    c.place("r2", "hand:you")  # put where it lies: taken off
    assert c.session.where("r2") is None and c.message is None
    c.choose_flag(3)
    assert [f["n"] for f in c.view(c.session.board_position())["flags"] if f.get("focus")] == [3]
    assert c.save("") is None and c.message_text()  # no path: refused, said
    target = tmp_path / "demo.yaml"
    c.session.set_question({"kind": "claim", "flag": 5})
    c.place("r3", "5:you")
    c.edit(c.session.use_engine_answer)
    assert c.save(str(target)) == target and c.message is not None and c.message[0] == "editor.saved"
    assert c.save(str(target)) is None and c.confirm  # the file exists now: asked first
    assert c.save(str(target), force=True) == target and not c.confirm


# -- plain Python, typed views ------------------------------------------------------


def test_the_controllers_load_without_ipywidgets() -> None:
    code = (
        "import sys, battleline_lab.controllers.gym, battleline_lab.controllers.explorer,"
        " battleline_lab.controllers.game, battleline_lab.controllers.editor;"
        "print(sorted(m for m in ('ipywidgets', 'anywidget', 'traitlets') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _annotations(kind: type) -> dict[str, str]:
    """A TypedDict's keys and their types as written (``NotRequired[...]`` unwrapped), through its bases."""
    out: dict[str, str] = {}
    for base in reversed(kind.__mro__):
        for key, written in getattr(base, "__annotations__", {}).items():
            written = getattr(written, "__forward_arg__", written)  # the annotations are strings (ForwardRefs)
            out[key] = re.sub(r"^NotRequired\[(.*)\]$", r"\1", str(written))
    return out


def undeclared(value: object, written: str, where: str = "view") -> list[str]:
    """Where ``value`` holds a key its type (as written: ``PuzzleView``, ``list[CardView]``) does not declare."""
    written = written.removesuffix(" | None")
    listed = re.fullmatch(r"list\[(\w+)\]", written)
    if listed and isinstance(value, list):
        return [e for i, item in enumerate(value) for e in undeclared(item, listed.group(1), f"{where}[{i}]")]
    kind = getattr(views, written, None)
    if not (isinstance(kind, type) and issubclass(kind, dict)):
        return []
    if not isinstance(value, dict):
        return [f"{where} is not a {written}"]
    keys = _annotations(kind)
    out = [f"{where}.{key}" for key in value if key not in keys]
    return out + [
        e for key, item in value.items() if key in keys for e in undeclared(item, keys[key], f"{where}.{key}")
    ]


def _game_view() -> object:
    from battleline_lab.widgets.game import GameWidget

    w = GameWidget(bot="heuristic", seed=11)
    w.coach_toggle.value = True
    for _ in range(3):
        card = next(c for c in w.board.view["hand"] if c.get("flags"))
        w.taps.card(card["id"])
        w.taps.flag(card["flags"][0])
        w.taps.draw("troops")
    return w.board_view()


def _explorer_view() -> object:
    e = ExplorerController(you="r3 r4", opponent="b8")
    e.set_environment(fog=True, mud=True)
    return e.view()


def _editor_view() -> object:
    from battleline_lab.widgets.editor import PuzzleEditor

    w = PuzzleEditor(puzzle_id="demo")
    w.taps.pick("r2")
    w.taps.place("5:you")
    return w.board.view


def _solved(puzzle_id: str) -> Callable[[], object]:
    def make() -> object:
        c = PuzzleController(library.get(puzzle_id))
        for _ in range(3):
            c.hint()
        c.step(1)
        return c.view()

    return make


def _wrong() -> object:
    c = claim()
    c.tap_answer("yes")
    c.tap_answer("yes")  # the second miss opens the solution: ghosts
    return c.view()


VIEWS: dict[str, tuple[Callable[[], object], str]] = {
    "puzzle-waiting": (lambda: claim().view(), "PuzzleView"),
    "puzzle-wrong-with-ghosts": (_wrong, "PuzzleView"),
    "puzzle-which-flags": (lambda: which_flags().view(), "PuzzleView"),
    **{f"puzzle-proof-{pid}": (_solved(pid), "PuzzleView") for pid in ("seed-blue-seven-in-your-hand", "one-end-open")},
    "game-with-the-coach": (_game_view, "GameView"),
    "explorer": (_explorer_view, "PlaceView"),
    "editor": (_editor_view, "PlaceView"),
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_every_key_a_view_sends_is_declared_by_its_type(name: str) -> None:
    make, written = VIEWS[name]
    view = make()
    if isinstance(view, dict):
        view = {k: v for k, v in view.items() if k != "rev"}  # the board's own redraw counter
    assert json.loads(json.dumps(view)) == view  # JSON as it is sent
    assert undeclared(view, written) == []


def test_the_widgets_hold_no_untyped_view_dicts() -> None:
    """No ``dict[str, Any]`` left in the widgets, ``Taps`` included: every view is one of ``controllers.view``'s
    types (``Taps`` reads a view as a ``TapView``)."""
    found = []
    for path in sorted((ROOT / "battleline_lab" / "widgets").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in re.finditer(r"\b[Dd]ict\[str, Any\]", text)]
    assert found == []
