"""A puzzle's response table answers as the live controller does, stays small, and its taps are recorded once.

The table (``controllers.responses``) is what a saved lesson's board answers from before the kernel
runs: every view a tap may lead to.  Its states are told apart by ``state_identity``; that identity is
exact when no two paths that meet in one state go on to different views.  So the first test walks a
puzzle's states at random (an ``Explorer``, the table's own builder, found as asked for and shared by
every walk, so that walks meet) beside a fresh live controller per walk, over every library puzzle and
every lesson puzzle, in English and Chinese: each step, the table's view is the live one and the
intents on offer are the same.  The lessons' puzzles get their whole table, walked through the widget
itself (its intent schema, its board).  Replayed taps are recorded once, however often the browser
sends them.
"""

from __future__ import annotations

import json
import random
import re
import warnings
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from battleline_lab.controllers.puzzle import PuzzleController
from battleline_lab.controllers.responses import (
    Explorer,
    intent_key,
    offered_intents,
    pack_table,
    table_next,
    table_view,
    unpack_table,
)
from battleline_lab.core.cards import parse_card
from battleline_lab.quiz import library
from battleline_lab.training.progress import MemoryStore, Progress
from battleline_lab.widgets import PuzzleWidget
from battleline_lab.widgets.puzzle import TABLES_ENV

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "zh")


def _lesson_puzzles() -> list[str]:
    """The library puzzles the lessons show in a PuzzleWidget (read from the lessons' code)."""
    found: set[str] = set()
    for nb in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                found.update(re.findall(r'PuzzleWidget\("([a-z0-9-]+)"', "".join(cell["source"])))
    return sorted(found)


LESSON_PUZZLES = _lesson_puzzles()


def _walk(explorer: Explorer, live: PuzzleController, rng: random.Random, taps: int) -> None:
    state = explorer.start
    for step in range(taps):
        view = live.view()
        assert explorer.view(state) == view, f"{live.puzzle.id} ({live.lang}) after {step} taps"
        offered = offered_intents(view)
        assert offered == explorer.offered[state]
        if not offered:
            return
        intent = rng.choice(offered)
        state = explorer.next(state, intent)
        ((kind, value),) = intent.items()
        live.intent(kind, {"card": value[0], "flag": value[1]} if kind == "play" else value)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("puzzle_id", sorted({*library.ids(), *LESSON_PUZZLES}))
def test_R12_the_table_answers_every_puzzle_as_the_live_controller(puzzle_id: str, lang: str) -> None:
    puzzle = library.get(puzzle_id)
    explorer = Explorer(PuzzleController(puzzle, lang=lang))
    rng = random.Random(f"{puzzle_id}:{lang}")
    for _ in range(8):
        _walk(explorer, PuzzleController(puzzle, lang=lang), rng, taps=12)


def test_the_lessons_show_puzzles() -> None:
    assert {"one-end-open", "same-wedge-sum-compare"} <= set(LESSON_PUZZLES)


@cache
def _lesson_table(puzzle_id: str, lang: str) -> tuple[PuzzleWidget, dict[str, Any]]:
    """A lesson puzzle's widget with its whole table, made once per test process and read by both tests below."""
    widget = PuzzleWidget(puzzle_id, lang=lang, record=False)
    widget.attach_table()
    return widget, unpack_table(widget.board.table)


@pytest.fixture(params=[(p, lang) for p in LESSON_PUZZLES for lang in LANGS], ids="-".join)
def lesson_table(request: pytest.FixtureRequest) -> tuple[str, str, PuzzleWidget, dict[str, Any]]:
    """Each lesson puzzle in each language: its id, the language, its widget and its whole table."""
    puzzle_id, lang = request.param
    return (puzzle_id, lang, *_lesson_table(puzzle_id, lang))


def test_R12_a_lesson_table_walked_through_the_widget_is_the_widget(
    lesson_table: tuple[str, str, PuzzleWidget, dict[str, Any]],
) -> None:
    puzzle_id, lang, built, table = lesson_table
    assert built.board.table_state == table["start"] and built.state == "waiting"  # building answered nothing
    rng = random.Random(puzzle_id)
    for _ in range(10):
        widget = PuzzleWidget(puzzle_id, lang=lang, record=False)
        state = table["start"]
        for _ in range(12):
            view = widget.board_view()
            assert table_view(table, state) == view
            offered = offered_intents(view)
            if not offered:
                break
            intent = rng.choice(offered)
            assert widget.board.intent(intent), f"the widget's schema refused {intent}"
            after = table_next(table, state, intent)
            assert after is not None, f"no entry for {intent_key(intent)}"
            state = after


def test_a_lesson_table_is_complete_and_small(lesson_table: tuple[str, str, PuzzleWidget, dict[str, Any]]) -> None:
    _, _, widget, table = lesson_table
    states = table["states"]
    assert isinstance(states, list)
    for index, row in enumerate(states):  # every intent a state's view offers has its entry
        view = table_view(table, index)
        assert sorted(table["intents"][i] for i in row[1::2]) == sorted(intent_key(i) for i in offered_intents(view))
    # views are stored by their parts: far fewer views than states, each part once
    assert len(table["views"]) <= len(states) and len(set(map(json.dumps, table["parts"]))) == len(table["parts"])
    assert len(widget.board.table) < 400_000, "a lesson's table stays under 400 kB packed"
    assert pack_table(table) == widget.board.table  # the same table packs to the same text (no time stamp)
    # one word (then base64's padding): no word, such as a tracker number, begins inside it
    assert re.fullmatch(r"\w+=*", widget.board.table)


def test_the_widget_tells_the_board_its_state_in_the_table() -> None:
    widget = PuzzleWidget("same-wedge-sum-compare", record=False)
    assert widget.board.table == "" and widget.board.table_state == -1  # built on display only when asked
    widget.attach_table()
    table = unpack_table(widget.board.table)
    widget.taps.action("answer", "a")
    assert widget.board.table_state == table_next(table, table["start"], {"answer": "a"})
    assert table_view(table, widget.board.table_state) == widget.board_view()


@pytest.mark.parametrize(("setting", "table", "built"), [("1", None, True), ("", None, False), ("", True, True)])
def test_a_display_builds_the_table_when_the_lessons_run_or_when_asked(
    monkeypatch: pytest.MonkeyPatch, setting: str, table: bool | None, built: bool
) -> None:
    monkeypatch.setenv(TABLES_ENV, setting)
    widget = PuzzleWidget("same-wedge-sum-compare", record=False, table=table)
    widget._repr_mimebundle_()
    assert bool(widget.board.table) is built


def test_a_zh_table_is_in_chinese_and_a_language_switch_makes_it_again() -> None:
    widget = PuzzleWidget("same-wedge-sum-compare", lang="zh", record=False)
    widget.attach_table()
    assert unpack_table(widget.board.table)["lang"] == "zh"
    widget.set_lang("en")
    table = unpack_table(widget.board.table)
    assert table["lang"] == "en" and table_view(table, widget.board.table_state) == widget.board_view()


def _recording_widget(puzzle_id: str = "one-end-open") -> tuple[PuzzleWidget, Progress, list[object]]:
    progress = Progress(store=MemoryStore())
    widget = PuzzleWidget(puzzle_id, progress=progress)
    sent: list[object] = []
    widget.board.send = lambda content, buffers=None: sent.append(content)
    return widget, progress, sent


def _wrong_then_right(puzzle_id: str) -> list[dict[str, object]]:
    """The taps of a wrong answer, then the right one (and its evidence, where a claim asks for it)."""
    puzzle = library.get(puzzle_id)
    c = PuzzleController(puzzle)
    values = [b["value"] for b in c.view()["answers"] if b.get("value") is not None]
    right = next(v for v in values if puzzle.is_correct(v == "yes" if v in ("yes", "no") else v))
    taps: list[dict[str, object]] = [{"answer": next(v for v in values if v != right)}, {"answer": right}]
    for tap in taps:
        c.intent("answer", tap["answer"])
    if c.state == "evidence" and c.stage is not None:  # a claim's proof: a card that beats it
        stage = c.stage
        beats = [k for k in sorted(c.evidence_keys()) if stage.judge(puzzle.position, parse_card(k)).verdict == "right"]
        taps.append({"evidence": beats[0]})
    return taps


@pytest.mark.parametrize("times", [1, 2, 3])
def test_replayed_taps_are_recorded_once_however_often_they_come(times: int) -> None:
    taps = _wrong_then_right("one-end-open")
    live, live_progress, _ = _recording_widget()
    for tap in taps:  # the same taps made live, for what they record
        assert live.board.intent(tap)
    recorded = [(r.kind, r.puzzle_id, r.correct) for r in live_progress.attempts()]
    assert recorded[0] == ("answer", "one-end-open", False) and recorded[-1] == ("answer", "one-end-open", True)
    widget, progress, sent = _recording_widget()
    for _ in range(times):
        widget.board._on_msg(widget.board, {"replay": {"id": "k2x-1", "intents": taps}}, [])
    assert [(r.kind, r.puzzle_id, r.correct) for r in progress.attempts()] == recorded
    assert widget.state == "right"
    assert sent == [{"replayed": "k2x-1"}] * times  # each acknowledged: the browser forgets them


def test_a_replay_reaches_the_state_the_table_showed() -> None:
    widget, _, _ = _recording_widget("same-wedge-sum-compare")
    shown = PuzzleWidget("same-wedge-sum-compare", record=False)
    shown.attach_table()
    table = unpack_table(shown.board.table)
    taps: list[dict[str, object]] = [{"answer": "a"}, {"answer": "b"}, {"step": 1}]
    state: int | None = table["start"]
    for tap in taps:
        assert state is not None
        state = table_next(table, state, tap)
    assert state is not None
    widget.board._on_msg(widget.board, {"replay": {"id": "q1", "intents": taps}}, [])
    assert widget.board_view() == table_view(table, state)


@pytest.mark.parametrize(
    "batch",
    [
        {"id": 3, "intents": []},
        {"id": "", "intents": []},
        {"id": "x" * 65, "intents": []},
        {"id": "a", "intents": "answer"},
        {"id": "a"},
        [{"answer": "yes"}],
    ],
    ids=["id-not-text", "id-empty", "id-too-long", "intents-not-a-list", "no-intents", "not-an-object"],
)
def test_a_malformed_replay_changes_nothing_and_is_not_acknowledged(batch: object) -> None:
    widget, progress, sent = _recording_widget()
    widget.board._on_msg(widget.board, {"replay": batch}, [])
    assert progress.attempts() == [] and sent == [] and widget.state == "waiting"


def test_a_replayed_tap_the_widget_does_not_offer_is_refused_quietly() -> None:
    widget, progress, sent = _recording_widget()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        widget.board._on_msg(widget.board, {"replay": {"id": "z", "intents": [{"answer": "maybe"}, {"step": 7}]}}, [])
    assert caught == [] and progress.attempts() == [] and sent == [{"replayed": "z"}]


def test_the_board_answers_a_ping_so_the_browser_knows_a_kernel_is_there() -> None:
    widget, _, sent = _recording_widget()
    widget.board._on_msg(widget.board, {"ping": True}, [])
    assert sent == [{"pong": True}]


def test_R12_a_controller_replays_a_batch_once() -> None:
    c = PuzzleController(library.get("same-wedge-sum-compare"))
    applied: list[object] = []
    assert c.replay("b1", [{"answer": "a"}], applied.append)
    assert not c.replay("b1", [{"answer": "a"}], applied.append)
    assert c.replay("b2", [{"answer": "b"}], applied.append)
    assert applied == [{"answer": "a"}, {"answer": "b"}]
