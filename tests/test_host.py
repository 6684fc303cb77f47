"""The widget host of the site's live cells, in CPython: a lesson's cells run without a kernel, the page's
messages reach the widgets and the reply holds what changed (``battleline_lab/widgets/host.py``).

The lessons are the real ones (``notebooks/``), run as the reader page's worker runs them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ipywidgets.widgets import widget as widget_module

from battleline_lab.game import legal_moves
from battleline_lab.widgets.host import LIVE_TEXT_KEYS, Host, live_texts

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


@pytest.fixture(autouse=True)
def _a_page_of_its_own() -> Iterator[None]:
    """Only this test's widgets are open, as only its lesson's are in a page's worker: the host serves
    every open widget (and reads each one's state on every message), so the widgets earlier tests of
    the process left open are set aside for the test, untouched, and put back after it."""
    others = dict(widget_module._instances)
    widget_module._instances.clear()
    yield
    widget_module._instances.update(others)


def code_cells(name: str) -> list[str]:
    nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return ["".join(cell["source"]) for cell in nb["cells"] if cell["cell_type"] == "code"]


def shown(ran: Any) -> list[str]:
    return [root for cell in ran["cells"] for root in cell["roots"]]


def lesson(name: str) -> tuple[Host, Any, Any]:
    """The lesson run by a host, the one widget it displays and the run's answer."""
    host = Host()
    ran = host.run(code_cells(name))
    assert ran["error"] is None
    roots = shown(ran)
    assert len(roots) == 1
    return host, host.widget(roots[0]), ran


def tap(host: Host, board: Any, intent: dict[str, object]) -> Any:
    reply = host.receive({"type": "custom", "model_id": board.model_id, "content": {"intent": intent}})
    assert reply["error"] is None
    return reply


def test_lesson_06_game_plays_a_turn_through_host_messages_and_the_bot_replies_at_once_R4() -> None:
    host, game, ran = lesson("06-play-a-game.ipynb")
    assert id(host.namespace["game"]) == id(game)  # the lesson's own game
    board = game.board
    assert ran["state"][board.model_id]["model_name"] == "AnyModel"
    assert ran["state"][board.model_id]["state"]["view"] == board.view
    card = board.view["hand"][0]
    first = tap(host, board, {"play": [card["id"], card["flags"][0]]})
    assert card["id"] not in [c["id"] for c in first["patches"][board.model_id]["view"]["hand"]]
    reply = tap(host, board, {"draw": "troops"})
    # the bot's move came in the same reply: no thread, no timer (R4: the players alternate)
    assert game.state.turn_number == 3 and game.state.to_act is game.human
    view = reply["patches"][board.model_id]["view"]
    assert view == board.view and view["rev"] > first["patches"][board.model_id]["view"]["rev"]
    north = [line for _turn, line, _notation in game.log_entries() if not line.startswith("South")]
    assert north  # the bot's move is in the log the page receives
    assert reply["patches"][game.log_view.model_id]["value"] == game.log_view.value


def test_a_button_click_runs_its_handler_and_the_reply_holds_the_changed_controls() -> None:
    host, game, _ran = lesson("06-play-a-game.ipynb")
    assert game.suggestion is None
    reply = host.receive({"type": "click", "model_id": game.suggest_button.model_id})
    assert reply["error"] is None and game.suggestion is not None
    assert game.suggestion.action in legal_moves(game.state)
    assert reply["patches"][game.board.model_id]["view"] == game.board.view


def test_a_state_patch_sets_the_control_as_the_page_did() -> None:
    host, game, _ran = lesson("06-play-a-game.ipynb")
    choice = game.bot_choice
    index = [value for _label, value in choice.options].index("random")
    reply = host.receive({"type": "set", "model_id": choice.model_id, "patch": {"index": index}})
    assert reply["error"] is None
    assert choice.value == "random" and game.bot is not None and game.bot.name == "random"
    assert reply["patches"][choice.model_id]["index"] == index


def test_the_boards_ping_gets_its_pong_so_the_page_knows_python_is_behind_it() -> None:
    host, game, ran = lesson("06-play-a-game.ipynb")
    assert ran["custom"] == []  # nothing was asked while the cells ran
    board = game.board.model_id
    reply = host.receive({"type": "custom", "model_id": board, "content": {"ping": True}})
    assert reply["custom"] == [[board, {"pong": True}]] and reply["patches"] == {}


def test_taps_answered_before_python_ran_are_replayed_to_the_live_puzzle_and_acknowledged() -> None:
    host, puzzle, _ran = lesson("02-comparing-and-the-tie-rule.ipynb")
    board = puzzle.board
    answer = next(b["value"] for b in board.view["answers"] if b["value"] not in ("", None))
    batch = {"id": "t1", "intents": [{"answer": answer}]}
    reply = host.receive({"type": "custom", "model_id": board.model_id, "content": {"replay": batch}})
    assert reply["error"] is None
    assert reply["custom"] == [[board.model_id, {"replayed": "t1"}]]
    assert reply["patches"][board.model_id]["view"] == board.view  # the replayed answer is on show


def test_lesson_05_gym_serves_the_next_puzzle_as_new_models() -> None:
    host, gym, ran = lesson("05-puzzle-gym.ipynb")
    first = gym.current.puzzle.id
    reply = host.receive({"type": "click", "model_id": gym.next_button.model_id})
    assert reply["error"] is None and gym.current.puzzle.id != first
    holder = reply["patches"][gym.holder.model_id]["children"]
    served = gym.holder.children[0]
    assert holder == [f"IPY_MODEL_{served.model_id}"]
    # the puzzle on show is new to the page: its models come whole, its board's question included
    assert served.model_id in reply["new"] and served.model_id not in ran["state"]
    board = reply["new"][served.board.model_id]["state"]
    assert board["view"] == served.board.view


def test_lesson_01_explorer_answers_a_card_taken_off() -> None:
    host, explorer, _ran = lesson("01-cards-and-formations.ipynb")
    before = (explorer.board.view, explorer.verdict.value)
    reply = tap(host, explorer.board, {"take": "alexander"})
    assert reply["patches"][explorer.board.model_id]["view"] == explorer.board.view != before[0]
    assert reply["patches"][explorer.verdict.model_id]["value"] == explorer.verdict.value != before[1]
    assert "alexander" not in [c.notation for c in explorer.cards("opponent")]


def test_display_calls_and_the_last_expression_are_the_cells_widgets_in_order() -> None:
    host = Host()
    ran = host.run(
        [
            "import ipywidgets as W\nfrom IPython.display import display",
            "a = W.Button()\nb = W.HTML('b')\ndisplay(a)\nprint('between')\nb",
            "c = W.Label('c')\nc = None\nc",  # a last expression that is no widget shows nothing
            "display(W.Label('d'), 3)",
        ]
    )
    a: Any = host.namespace["a"]
    b: Any = host.namespace["b"]
    assert [cell["roots"] for cell in ran["cells"]][:3] == [[], [a.model_id, b.model_id], []]
    assert len(ran["cells"][3]["roots"]) == 1 and ran["cells"][3]["stdout"] == "3\n"
    assert ran["cells"][1]["stdout"] == "between\n"
    assert ran["state"][b.model_id]["state"]["value"] == "b"


def test_a_failing_cell_stops_the_run_as_run_all_does_and_says_which() -> None:
    host = Host()
    ran = host.run(["x = 1", "1 / 0", "never = True"])
    assert ran["error"] == "cell 1: ZeroDivisionError: division by zero"
    assert len(ran["cells"]) == 2 and "never" not in host.namespace


@pytest.mark.parametrize(
    ("message", "error"),
    [
        pytest.param("[1, 2]", "a message is a JSON object", id="not-an-object"),
        pytest.param('{"type": "run", "model_id": "x"}', "unknown message type 'run': custom, click or set", id="type"),
        pytest.param('{"type": "click", "model_id": "no-such"}', "no widget model no-such on this page", id="model"),
        pytest.param('{"type": "custom", "model_id": "BUTTON"}', "a custom message needs its content", id="content"),
        pytest.param(
            '{"type": "set", "model_id": "BUTTON", "patch": 3}', "a set message needs a patch (an object)", id="patch"
        ),
        pytest.param("{not json", "the message is not JSON: ", id="json"),
    ],
)
def test_a_message_the_host_does_not_read_gets_one_sentence_and_changes_nothing(message: str, error: str) -> None:
    host = Host()
    button = host.run(["import ipywidgets as W\nW.Button(description='Go')"])["cells"][0]["roots"][0]
    reply = json.loads(host.receive_json(message.replace("BUTTON", button)))
    assert reply["error"].startswith(error) and "Traceback" not in reply["error"]
    assert (reply["patches"], reply["new"], reply["closed"]) == ({}, {}, [])


def test_the_json_side_round_trips_a_run_and_a_tap() -> None:
    host = Host()
    ran = json.loads(host.run_json(json.dumps(["import ipywidgets as W\nW.IntSlider(value=2)"])))
    slider = ran["cells"][0]["roots"][0]
    reply = json.loads(host.receive_json(json.dumps({"type": "set", "model_id": slider, "patch": {"value": 5}})))
    assert reply == {"patches": {slider: {"value": 5}}, "new": {}, "closed": [], "error": None, "custom": []}
    assert json.loads(host.run_json('"x = 1"'))["error"] == "the cells are a list of source texts"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pages_live_texts_come_from_the_catalogue_in_both_languages(lang: str) -> None:
    texts = live_texts(lang)
    assert set(texts) == set(LIVE_TEXT_KEYS) and all(texts.values())
    assert "{reason}" in texts["live.failed"]
    assert live_texts("en")["live.starting"] != live_texts("zh")["live.starting"]
