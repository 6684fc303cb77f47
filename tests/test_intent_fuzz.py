"""A property fuzz of the board's intents: random JSON-like messages against every widget.

Each example is a comm message as the browser could send it: usually ``{"intent": {kind: value}}``
with a kind the board knows (or not) and a value drawn from JSON-like data (text in any script,
huge and non-finite numbers, nested lists and objects) mixed with the values the widget really
offers (its hand's cards, its places, flag numbers), so well-formed intents are sent too and the
widgets' states move on.  Whatever arrives, nothing raises out of the comm callback; an intent
the gate refuses gives an ``IntentWarning`` and leaves the widget's state exactly as it was.
The number of examples is bounded (a few seconds a widget) and the profile of ``conftest.py``
derandomizes them in CI.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battleline_lab.widgets.board import INTENTS
from tests.test_intents import WIDGETS, board_of, snapshot

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["３", "\u0663", " 3", "²", "①", "1" * 4301, "0x3", "3", "5", "yes", "check", "troops", "1:you"]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8,
)


def _ids(node: object) -> list[str]:
    """Every card id and place a view model names (what the browser could send back)."""
    if isinstance(node, dict):
        own = [v for k, v in node.items() if k in ("id", "place") and isinstance(v, str)]
        return own + [i for v in node.values() for i in _ids(v)]
    if isinstance(node, list):
        return [i for v in node for i in _ids(v)]
    return []


def well_formed(w: Any, kind: str) -> st.SearchStrategy[object]:
    """Values of the shape an intent kind has (``docs/widgets.md``), from what the widget shows now: the
    cards and places on its board, flags, answers and buttons; many are offered, so states move on."""
    named = sorted(set(_ids(board_of(w).view))) or ["r1"]
    cards, flags = st.sampled_from(named), st.integers(min_value=1, max_value=9)
    places = st.sampled_from([n for n in named if ":" in n] or ["1:you"])
    words = st.sampled_from(["yes", "no", "a", "b", "check", "pass", "end", "discard", "scout", "troops", "tactics"])
    shapes: dict[str, st.SearchStrategy[object]] = {
        "play": st.builds(lambda c, f: [c, f], cards, flags),
        "place": st.builds(lambda c, p: [c, p], cards, places),
        "flag": flags,
        "claim": flags,
        "answer": st.one_of(words, flags.map(str)),
        "step": st.sampled_from([1, -1]),
        "hint": st.just(True),
        "cancel": st.just(True),
    }
    return shapes.get(kind, st.one_of(cards, words))


@st.composite
def messages(draw: st.DrawFn, w: Any, kinds: set[str]) -> object:
    """A comm message: mostly one-key intents of a kind the widget takes, with a well-formed or a random value."""
    kind = draw(st.one_of(st.sampled_from(sorted(kinds)), st.sampled_from(sorted(INTENTS)), st.text(max_size=6)))
    value = draw(st.one_of(well_formed(w, kind), well_formed(w, kind), JSON))
    shape = draw(st.sampled_from(["one", "one", "one", "one", "two", "raw"]))
    if shape == "one":
        return {"intent": {kind: value}}
    if shape == "two":
        return {"intent": {kind: value, draw(st.sampled_from(sorted(INTENTS))): draw(JSON)}}
    return draw(st.one_of(JSON, st.builds(lambda v: {"intent": v}, JSON)))


#: the intent kinds each widget takes (docs/widgets.md); any other kind, or a message that is not one
#: one-key intent, must be refused with a warning
KINDS: dict[str, set[str]] = {
    "game": {"play", "select", "target", "flag", "claim", "draw", "do", "cancel"},
    "puzzle": {"answer", "do", "hint", "step", "play", "select", "flag", "cancel"},
    "which-flags": {"answer", "do", "hint", "step", "play", "select", "flag", "cancel"},
    "gym": {"answer", "do", "hint", "step", "play", "select", "flag", "cancel"},
    "explorer": {"place", "take"},
    "editor": {"place", "take", "flag"},
}


def must_refuse(name: str, message: object) -> bool:
    """Whether the message can only be refused, whatever its value: not one intent of a kind the widget takes."""
    if not isinstance(message, dict) or "intent" not in message:
        return False  # not an intent message at all: the board reads nothing from it
    intent = message["intent"]
    return not (isinstance(intent, dict) and len(intent) == 1 and next(iter(intent)) in KINDS[name])


@pytest.mark.parametrize("name", sorted(WIDGETS))
def test_random_intents_never_raise_and_a_refused_one_changes_nothing(name: str, tmp_path: Path) -> None:
    make: Callable[[Path], Any] = WIDGETS[name]
    folders = iter(range(10**6))

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def run(data: st.DataObject) -> None:
        folder = tmp_path / str(next(folders))  # a fresh widget (and progress store) for each sequence
        folder.mkdir()
        w = make(folder)
        for message in data.draw(st.lists(messages(w, KINDS[name]), min_size=1, max_size=4)):
            board = board_of(w)
            before = snapshot(w)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                board._on_msg(board, message, [])  # the comm callback: nothing may raise out of it
            said = [str(c.message) for c in caught if type(c.message).__name__ == "IntentWarning"]
            assert not any(" failed on " in s for s in said), said  # a checked intent never breaks a widget
            if must_refuse(name, message):
                assert said, f"no IntentWarning for {message!r}"
            if said:
                assert snapshot(w) == before, said

    run()
