"""A puzzle's response table: every view the board may need next, worked out before any tap.

A lesson's puzzle is a fixed position, so the engine can answer every tap it could get ahead of
time.  :func:`response_table` explores a :class:`~battleline_lab.controllers.puzzle.PuzzleController`
(copies of it: nothing is recorded) from its state now: in each state it reads the intents the
board offers there (:func:`offered_intents`: the answer buttons, a "which flags" question's flag
toggles and Check, a play puzzle's card onto a flag, a Deserter and its target, the evidence
cards, the hint, "Show the solution", the proof's back and next and j/k), applies each to a copy
and keeps the view that follows.  States are told apart by :func:`state_identity`, exact: the
view itself plus what the learner cannot see but later answers depend on.  The table holds data
only (views and which intent leads where); ``board.js`` looks an intent up by the same key
(:func:`intent_key`, sorted-key JSON) and never decides.

The table (a JSON-ready dict, the board's synced ``table``), every repeated thing stored once::

    {"version": 1, "puzzle": id, "lang": "en", "start": 0,
     "keys": [view keys], "parts": [every distinct value of a view's key],
     "views": [[key, part, key, part, ...]],      # a view: its keys' parts
     "intents": [intent keys],
     "states": [[view, intent, state, intent, state, ...]]}

Views share their parts (most states differ from the next in a few keys: the feedback, the
proof's step), so the flags and the proof's steps are stored once per content.

>>> from battleline_lab import Position
>>> from battleline_lab.quiz.puzzle import Puzzle
>>> from battleline_lab.quiz.questions import ClaimQuestion
>>> from battleline_lab.controllers.puzzle import PuzzleController
>>> c = PuzzleController(Puzzle("wedge", {"en": "Flag 5"}, position=Position.build(
...     {5: {"you": "r3 r4 r5", "opponent": "b8 b9 b10"}}), question=ClaimQuestion(5), answer=False))
>>> table = response_table(c)
>>> sorted(table["intents"][i] for i in table["states"][table["start"]][1::2])
['{"answer":"no"}', '{"answer":"yes"}', '{"hint":true}']
>>> wrong = table_view(table, table_next(table, table["start"], {"answer": "yes"}))
>>> wrong["feedback"]["tone"], c.state  # the controller explored is a copy: it was not answered
('wrong', 'waiting')
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Mapping
from typing import Any, cast

from ..training.trainer import SOLUTION_AFTER, PuzzleSession
from .puzzle import PuzzleController
from .view import PuzzleView

__all__ = [
    "TABLE_VERSION",
    "Explorer",
    "apply_intent",
    "intent_key",
    "offered_intents",
    "pack_table",
    "response_table",
    "state_identity",
    "table_next",
    "table_view",
    "unpack_table",
]

#: the table's format (board.js reads it; a change of shape changes this)
TABLE_VERSION = 1

#: a bound on the states of one table: a puzzle whose taps lead further is left to the kernel
MAX_STATES = 5000

Intent = dict[str, Any]

# ``json.dumps`` with options makes an encoder a call; an explorer asks for hundreds of thousands of
# keys, so the two encoders are made once (``encode`` is what ``dumps`` calls: the same text)
_KEY_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_CANONICAL_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr)


def intent_key(intent: Mapping[str, object]) -> str:
    """The one key of an intent in a table: its JSON with sorted keys and no spaces (``board.js``'s ``intentKey``).

    >>> intent_key({"play": ["r7", 3]}), intent_key({"hint": True})
    ('{"play":["r7",3]}', '{"hint":true}')
    """
    return _KEY_ENCODER.encode(intent)


def _canonical(value: object) -> str:
    return _CANONICAL_ENCODER.encode(value)


def offered_intents(view: PuzzleView) -> list[Intent]:
    """Every intent a tap or a key on ``view`` may send (what ``board.js``'s ``tap`` sends for the hooks on offer).

    Read from the view alone, as the browser reads it: enabled answer buttons (``answer``, ``do``),
    a "which flags" question's flag toggles, a play puzzle's hand cards onto their flags (``play``),
    a card the session holds (``select``) and its targets, the flags lit for it (``flag``), the
    evidence cards, the hint, and, while a proof is on show, a step either way (j and k send a step
    even at an end).
    """
    out: list[Intent] = []
    for button in view.get("answers", ()):
        if button.get("enabled", True) is False or button.get("hidden"):
            continue
        action = button.get("action", "answer")
        out.append({"answer": button.get("value")} if action == "answer" else {"do": action})
    for f in view.get("flags", ()):
        if f.get("inert"):
            continue
        if f.get("answer") is not None:
            out.append({"answer": str(f["n"])})
        elif f.get("legal"):
            out.append({"flag": f["n"]})
    for card in view.get("hand", ()):
        for n in card.get("flags", ()):
            out.append({"play": [card["id"], n]})
        if card.get("kernel"):
            out.append({"select": card["id"]})
    out.extend({"target": t} for t in view.get("targets", ()))
    out.extend({"evidence": card} for card in _evidence_cards(view))
    hint = view.get("hint")
    if hint is not None and hint.get("enabled", True) is not False:
        out.append({"hint": True})
    if view.get("proof"):
        out += [{"step": -1}, {"step": 1}]
    return out


def _evidence_cards(view: PuzzleView) -> list[str]:
    """The cards marked ``pick`` (a claim's evidence), as ``board.js``'s ``evidenceCards`` lists them."""
    cards = [c for f in view.get("flags", ()) for c in (*f["opponent"], *f["you"], *f.get("env", ()))]
    cards += [c for held in view.get("held", ()) for c in held["cards"]]
    evidence = view.get("evidence")
    if evidence is not None:
        cards += [c for row in evidence["rows"] for c in row["cards"]]
    seen: list[str] = []
    for c in cards:
        if c.get("pick") and not c.get("ghost") and c["id"] not in seen:
            seen.append(c["id"])
    return seen


def apply_intent(controller: PuzzleController, intent: Mapping[str, object]) -> None:
    """Apply one browser intent to ``controller`` as the puzzle widget hands it on (``play`` as {card, flag})."""
    ((kind, value),) = intent.items()
    if kind == "play" and isinstance(value, list):
        value = {"card": value[0], "flag": value[1]}
    controller.intent(kind, value)


#: the session's and the controller's fields that change as a learner taps (everything else is fixed)
_SESSION_FIELDS = (
    "state",
    "attempts",
    "hint_level",
    "_unrecorded_hints",
    "step_index",
    "revealed",
    "solution_seen",
    "last_answer",
    "feedback",
)
_CONTROLLER_FIELDS = ("picked", "highlight", "held_card", "stage", "verdict", "tapped", "lang")

Snapshot = tuple[tuple[object, ...], tuple[object, ...]]


def _snapshot(controller: PuzzleController) -> Snapshot:
    session = controller.session
    mine = tuple(set(v) if isinstance(v, set) else v for v in (getattr(controller, f) for f in _CONTROLLER_FIELDS))
    return tuple(getattr(session, f) for f in _SESSION_FIELDS), mine


def _restore(controller: PuzzleController, snapshot: Snapshot) -> None:
    theirs, mine = snapshot
    for field, value in zip(_SESSION_FIELDS, theirs, strict=True):
        setattr(controller.session, field, value)
    for field, value in zip(_CONTROLLER_FIELDS, mine, strict=True):
        setattr(controller, field, set(value) if isinstance(value, set) else value)


def state_identity(controller: PuzzleController, reprs: dict[int, tuple[object, str]] | None = None) -> str:
    """What tells two states of a puzzle apart, exactly: every field a tap changes and a view or a later
    answer reads (the view is a function of them).  The answers given are counted up to
    :data:`~battleline_lab.training.trainer.SOLUTION_AFTER` (the solution opens there, and "late" is past
    one: nothing reads the count further); the hints not yet recorded change what is recorded, not what is
    shown, and are left out.

    ``reprs``, if given, keeps the ``repr`` of each feedback met (by identity, with the feedback, so that
    an identity is never reused): an explorer meets the same few feedbacks in thousands of states."""
    session = controller.session
    feedback = session.feedback
    shown: str | None = None
    if feedback is not None:
        if reprs is None:
            shown = repr(feedback)
        else:
            known = reprs.get(id(feedback))
            if known is None or known[0] is not feedback:
                known = reprs[id(feedback)] = (feedback, repr(feedback))
            shown = known[1]
    return _canonical(
        [
            session.state,
            min(session.attempts, max(2, SOLUTION_AFTER)),
            session.hint_level,
            session.step_index,
            session.revealed,
            session.solution_seen,
            session.last_answer,
            shown,
            sorted(controller.picked),
            controller.highlight,
            controller.held_card,
            controller.stage is not None,
            controller.verdict,
            controller.tapped,
            controller.lang,
        ]
    )


def _quiet(controller: PuzzleController) -> PuzzleController:
    """A controller in the same state as ``controller`` that records nothing and calls no listener (the
    puzzle and the engine's proof it already worked out are shared)."""
    session = PuzzleSession(controller.puzzle)
    session._proofs = controller.session._proofs
    if hasattr(controller.session, "_explanation"):
        session._explanation = controller.session._explanation
    clone = PuzzleController(controller.puzzle, lang=controller.lang, session=session, rules_page=controller.rules_page)
    _restore(clone, _snapshot(controller))
    return clone


class Explorer:
    """The states of a puzzle, found as they are asked for: :meth:`next` applies an intent to a state (on one
    quiet copy of the controller, put in that state first) and names the state it leads to; a state met
    before by another path is the same state when its :func:`state_identity` is.  :func:`response_table`
    asks for every intent offered in every state; a test may walk it at random beside a live controller."""

    def __init__(self, controller: PuzzleController, *, max_states: int = MAX_STATES) -> None:
        self.controller = _quiet(controller)
        self.max_states = max_states
        #: the state of each identity
        self.ids: dict[str, int] = {}
        self._reprs: dict[int, tuple[object, str]] = {}
        self.snapshots: list[Snapshot] = []
        #: each state's view, with its parts interned (:attr:`keys`, :attr:`parts`) and its intents offered
        self.shapes: list[int] = []
        self.offered: list[list[Intent]] = []
        #: each state's offered intents' keys (:func:`intent_key`), made once: :meth:`explore` asks for every one
        self._offered_keys: list[list[str]] = []
        self.moves: list[dict[str, int]] = []
        self.keys: list[str] = []
        self.parts: list[object] = []
        self.views: list[list[int]] = []
        self._key_ids: dict[str, int] = {}
        self._part_ids: dict[str, int] = {}
        self._view_ids: dict[str, int] = {}
        #: the state the controller was in
        self.start = self._here()

    def _interned(self, value: str, ids: dict[str, int], values: list[Any], stored: object) -> int:
        if value not in ids:
            ids[value] = len(values)
            values.append(stored)
        return ids[value]

    def _shape(self, view: PuzzleView) -> int:
        shape: list[int] = []
        for k, v in sorted(view.items()):
            shape += [
                self._interned(k, self._key_ids, self.keys, k),
                self._interned(_canonical(v), self._part_ids, self.parts, v),
            ]
        return self._interned(_canonical(shape), self._view_ids, self.views, shape)

    def _here(self) -> int:
        """The state the copy is in (a new one is added, with its view and the intents it offers)."""
        c = self.controller
        identity = state_identity(c, self._reprs)
        found = self.ids.get(identity)
        if found is not None:
            return found
        if len(self.snapshots) >= self.max_states:
            raise ValueError(f"{c.puzzle.id}: more than {self.max_states} states")
        view = c.view()
        self.ids[identity] = len(self.snapshots)
        self.snapshots.append(_snapshot(c))
        self.shapes.append(self._shape(view))
        offered = offered_intents(view)
        self.offered.append(offered)
        self._offered_keys.append([intent_key(i) for i in offered])
        self.moves.append({})
        return len(self.snapshots) - 1

    def next(self, state: int, intent: Mapping[str, object]) -> int:
        """The state ``intent`` leads to from ``state``."""
        return self._next(state, intent, intent_key(intent))

    def _next(self, state: int, intent: Mapping[str, object], key: str) -> int:
        """:meth:`next`, the intent's key given."""
        found = self.moves[state].get(key)
        if found is None:
            _restore(self.controller, self.snapshots[state])
            apply_intent(self.controller, intent)
            found = self.moves[state][key] = self._here()
        return found

    def view(self, state: int) -> PuzzleView:
        """The view of ``state``, put together from its parts."""
        shape = self.views[self.shapes[state]]
        return cast(PuzzleView, {self.keys[shape[i]]: self.parts[shape[i + 1]] for i in range(0, len(shape), 2)})

    def explore(self) -> None:
        """Every intent offered in every state reachable from :attr:`start`."""
        done = 0
        while done < len(self.snapshots):  # the states found so far, each once; new ones come at the end
            for intent, key in zip(self.offered[done], self._offered_keys[done], strict=True):
                self._next(done, intent, key)
            done += 1


def response_table(
    controller: PuzzleController, *, max_states: int = MAX_STATES, index: dict[str, int] | None = None
) -> dict[str, Any]:
    """The response table of ``controller`` from its state now (module doc); the controller is not changed.

    ``index``, if given, is filled with the state of each :func:`state_identity` (the widget tells the
    board which state it shows).  Raises ``ValueError`` past ``max_states`` states (a puzzle that would
    need the kernel).
    """
    explorer = Explorer(controller, max_states=max_states)
    explorer.explore()
    intents: list[str] = []
    intent_ids: dict[str, int] = {}
    states: list[list[int]] = []
    for shape, moves in zip(explorer.shapes, explorer.moves, strict=True):
        row = [shape]
        for key, after in moves.items():
            if key not in intent_ids:
                intent_ids[key] = len(intents)
                intents.append(key)
            row += [intent_ids[key], after]
        states.append(row)
    if index is not None:
        index.clear()
        index.update(explorer.ids)
    return {
        "version": TABLE_VERSION,
        "puzzle": controller.puzzle.id,
        "lang": controller.lang,
        "start": explorer.start,
        "keys": explorer.keys,
        "parts": explorer.parts,
        "views": explorer.views,
        "intents": intents,
        "states": states,
    }


def table_next(table: Mapping[str, Any], state: int, intent: Mapping[str, object]) -> int | None:
    """The state ``intent`` leads to from ``state`` in ``table`` (None: no entry), as ``board.js`` looks it up."""
    key = intent_key(intent)
    row = table["states"][state]
    for i in range(1, len(row), 2):
        if table["intents"][row[i]] == key:
            return int(row[i + 1])
    return None


def table_view(table: Mapping[str, Any], state: int) -> PuzzleView:
    """The view of ``state`` in ``table``, put together from its parts (as ``board.js`` does)."""
    shape: list[int] = table["views"][table["states"][state][0]]
    return cast(PuzzleView, {table["keys"][shape[i]]: table["parts"][shape[i + 1]] for i in range(0, len(shape), 2)})


#: the packed table's two base64 symbols that are not letters or digits, written as word characters: the text
#: is one word, then base64's padding (nothing that reads words, such as a check for tracker numbers, finds a
#: word begin inside it)
_ALTCHARS = {ord("+"): "_", ord("/"): "\u00b5"}
_BACK = {ord("_"): "+", ord("\u00b5"): "/"}


def pack_table(table: Mapping[str, Any]) -> str:
    """``table`` as the board's synced ``table`` holds it: its JSON, gzip-compressed, in base64 whose ``+`` and
    ``/`` are written ``_`` and ``\u00b5`` (a table repeats itself a lot: about a twentieth of the bytes; the
    browser inflates it with ``DecompressionStream``).  The same table gives the same text (no time stamp)."""
    raw = json.dumps(table, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii").translate(_ALTCHARS)


def unpack_table(text: str) -> dict[str, Any]:
    """The table :func:`pack_table` packed."""
    data = base64.b64decode(text.translate(_BACK), validate=True)
    return cast(dict[str, Any], json.loads(gzip.decompress(data).decode("utf-8")))
