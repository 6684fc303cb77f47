"""A Python host for a lesson's widgets on a web page: the cells run without a kernel, the page talks to the widgets.

The site's reader pages draw a lesson's saved widget state (pictures, and puzzles that answer from
their response tables).  The cells that need Python (the game, the gym, the explorer, the editor)
come alive through this module, run by Pyodide in a Web Worker (``tools/site/live.js``); it runs
unchanged in CPython, where the tests drive it.

:class:`Host` runs a lesson's code cells in order in one namespace, as a kernel's Run All would.
Without a kernel ipywidgets opens each widget on ``comm``'s ``DummyComm`` (nothing is sent
anywhere), so the host keeps what the page needs itself:

* after the cells ran, every live widget in ipywidgets' saved-state format
  ``{model_id: {model_name, model_module, model_module_version, state}}`` and, per cell, the ids
  of the widgets it displayed (its last expression's value and its ``display()`` calls), the ids
  a page's widget manager renders from (:meth:`Host.run`);
* a message from the page (:meth:`Host.receive`): custom content for a widget as the front end's
  ``model.send`` delivers it (``widget._handle_custom_msg``; a button's click is the custom
  content ``{"event": "click"}``), or a state patch (``widget.set_state``); it returns what
  changed in reply: per model the keys whose value changed (``get_state`` of every live widget
  before and after), the full state of models made in reply, the ids of models closed, and the
  custom messages the widgets sent the page meanwhile (``widget.send(content)``: the board's
  ``{"pong": true}`` to its ``{"ping"}``, which tells it Python is behind it), in order.

Nothing is scheduled for later: the game's bots (:class:`~battleline_lab.widgets.game.GameWidget`,
:class:`~battleline_lab.widgets.three.ThreeGameWidget`) reply inside the handler of the learner's
move (their controllers play every bot turn before the handler returns), so a move's reply holds
the bots' moves too, with no thread and no timer; that is what lets the host run in Pyodide, where
there are no threads.

The worker talks JSON (:meth:`Host.run_json`, :meth:`Host.receive_json`): a message that is not
what this module reads gets ``{"error": ...}`` with one sentence, never a traceback, and changes
nothing.

>>> host = Host()
>>> ran = host.run(["import ipywidgets as W", "button = W.Button(description='Go')\\nbutton"])
>>> [len(cell["roots"]) for cell in ran["cells"]], ran["error"]
([0, 1], None)
>>> root = ran["cells"][1]["roots"][0]
>>> ran["state"][root]["model_name"], ran["state"][root]["state"]["description"]
('ButtonModel', 'Go')
>>> host.receive({"type": "set", "model_id": root, "patch": {"description": "Went"}})["patches"][root]
{'description': 'Went'}
>>> host.receive({"type": "click", "model_id": "nothing-here"})["error"]
'no widget model nothing-here on this page'
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import json
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypedDict

import ipywidgets as W
from ipywidgets.widgets import widget as _widget_module

from ..text.messages import LANGUAGES, catalogue

__all__ = ["LIVE_TEXT_KEYS", "CellRun", "Host", "HostRun", "ModelState", "Reply", "SavedModel", "Sent", "live_texts"]


#: A model's state: its trait names and their JSON values, as ``widget.get_state()`` gives them.
ModelState = dict[str, object]


class SavedModel(TypedDict):
    """One model in ipywidgets' saved-state format (``Widget.get_manager_state``'s entries)."""

    model_name: str
    model_module: str
    model_module_version: str
    state: ModelState


#: What a widget sent the page (``widget.send(content)``): ``[model_id, content]``.
Sent = list[object]


class CellRun(TypedDict):
    """What one code cell did: its index in the list run, the widgets it displayed, what it printed."""

    index: int
    roots: list[str]
    stdout: str
    error: str | None


class HostRun(TypedDict):
    """What :meth:`Host.run` returns: the cells, every live widget's saved state, the first error,
    and the custom messages the widgets sent while the cells ran (``[model_id, content]``)."""

    cells: list[CellRun]
    state: dict[str, SavedModel]
    error: str | None
    custom: list[Sent]


class Reply(TypedDict):
    """What :meth:`Host.receive` returns: what changed in reply to one message from the page."""

    patches: dict[str, ModelState]
    new: dict[str, SavedModel]
    closed: list[str]
    error: str | None
    custom: list[Sent]


#: The catalogue texts a page shows about its live cells (``locale/<lang>/live.json``).
LIVE_TEXT_KEYS = ("live.starting", "live.ready", "live.failed", "live.not_yet")


def live_texts(lang: str) -> dict[str, str]:
    """The texts ``live.js`` shows on a page in ``lang`` (a page embeds them as JSON data; ``{reason}`` is
    filled in by the page).

    >>> live_texts("en")["live.starting"], live_texts("zh")["live.starting"]
    ('starting…', '正在启动…')
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; available: {', '.join(LANGUAGES)}")
    texts = catalogue(lang)
    return {key: texts[key] for key in LIVE_TEXT_KEYS}


def _live_widgets() -> dict[str, W.Widget]:
    """Every widget open now (ipywidgets' own registry), by model id."""
    return dict(_widget_module._instances)


def _error_text(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}"


class _Displayed:
    """The ``display()`` of a cell run by the host: widgets are collected, anything else is printed."""

    def __init__(self) -> None:
        self.widgets: list[W.Widget] = []

    def __call__(self, *objs: object, **_options: Any) -> None:
        for obj in objs:
            self.show(obj)

    def show(self, obj: object) -> None:
        if isinstance(obj, W.Widget):
            if obj not in self.widgets:
                self.widgets.append(obj)
        elif obj is not None:
            print(repr(obj))


@contextlib.contextmanager
def _sent(into: list[Sent]) -> Iterator[None]:
    """Every ``widget.send(content)`` (a custom message to the page) is kept in ``into`` as
    ``[model_id, content]`` while the block runs: without a kernel ``comm``'s ``DummyComm`` drops it."""
    original = W.Widget.send

    def send(widget: W.Widget, content: object, buffers: object = None) -> None:
        into.append([widget.model_id, content])
        original(widget, content, buffers)

    W.Widget.send = send
    try:
        yield
    finally:
        W.Widget.send = original


@contextlib.contextmanager
def _display_hook(displayed: _Displayed) -> Iterator[None]:
    """IPython's ``display`` (and the builtin a kernel adds) collect into ``displayed`` while a cell runs.

    Without a running IPython shell its ``display`` only prints; a cell's ``from IPython.display
    import display`` made while the hook is on binds the collector.
    """
    patched: list[tuple[object, str, object]] = []
    for name in ("IPython.display", "IPython.core.display_functions", "IPython.core.display"):
        module = sys.modules.get(name)
        if module is None:
            with contextlib.suppress(ImportError):
                module = __import__(name, fromlist=["display"])
        if module is not None and hasattr(module, "display"):
            patched.append((module, "display", module.display))
    patched.append((builtins, "display", getattr(builtins, "display", None)))
    for owner, name, _old in patched:
        setattr(owner, name, displayed)
    try:
        yield
    finally:
        for owner, name, old in reversed(patched):
            if old is None:
                delattr(owner, name)
            else:
                setattr(owner, name, old)


class Host:
    """A lesson's code cells run in one namespace, and its widgets served to a page (module doc)."""

    def __init__(self, namespace: Mapping[str, object] | None = None) -> None:
        #: the cells' globals, as a kernel's (``__name__`` is ``__main__``)
        self.namespace: dict[str, object] = {"__name__": "__main__", **(namespace or {})}

    @staticmethod
    def widget(model_id: str) -> W.Widget:
        """The live widget with this model id (``KeyError`` if there is none)."""
        return _live_widgets()[model_id]

    # -- the cells ----------------------------------------------------------------------------
    def run_cell(self, source: str, index: int = 0) -> CellRun:
        """Run one code cell; its last expression, if it is one, is displayed (as a kernel does)."""
        displayed = _Displayed()
        out = io.StringIO()
        error: str | None = None
        self.namespace["display"] = displayed
        try:
            tree = ast.parse(source, filename=f"<cell {index}>", mode="exec")
            last: ast.expr | None = None
            tail = tree.body[-1] if tree.body else None
            if isinstance(tail, ast.Expr):
                last = tail.value
                tree.body.pop()
            with contextlib.redirect_stdout(out), _display_hook(displayed):
                exec(compile(tree, f"<cell {index}>", "exec"), self.namespace)  # noqa: S102 - the lesson's own code
                if last is not None:
                    value = eval(compile(ast.Expression(last), f"<cell {index}>", "eval"), self.namespace)  # noqa: S307
                    displayed.show(value)
        except Exception as err:  # noqa: BLE001 - a failing cell is reported, as a kernel shows it
            error = _error_text(err)
        return {
            "index": index,
            "roots": [w.model_id for w in displayed.widgets],
            "stdout": out.getvalue(),
            "error": error,
        }

    def run(self, sources: Sequence[str]) -> HostRun:
        """Run the cells in order, stopping at the first that fails (as Run All does); then every live widget."""
        cells: list[CellRun] = []
        error: str | None = None
        custom: list[Sent] = []
        with _sent(custom):
            for index, source in enumerate(sources):
                cell = self.run_cell(source, index)
                cells.append(cell)
                if cell["error"] is not None:
                    error = f"cell {index}: {cell['error']}"
                    break
        return {"cells": cells, "state": self.state(), "error": error, "custom": custom}

    def state(self, widgets: Sequence[W.Widget] | None = None) -> dict[str, SavedModel]:
        """The saved state (ipywidgets' embed format, without its version) of ``widgets``, else of every live one."""
        chosen = list(_live_widgets().values()) if widgets is None else widgets
        state: dict[str, SavedModel] = W.Widget.get_manager_state(widgets=chosen)["state"]
        return state

    # -- messages from the page ---------------------------------------------------------------
    def receive(self, msg: object) -> Reply:
        """Deliver one message from the page and return what changed in reply (module doc).

        ``{"type": "custom", "model_id": id, "content": {...}}`` (what ``model.send(content)`` sends),
        ``{"type": "click", "model_id": id}`` (a button), ``{"type": "set", "model_id": id, "patch": {...}}``.
        """
        problem = self._check(msg)
        if problem is not None:
            return {"patches": {}, "new": {}, "closed": [], "error": problem, "custom": []}
        assert isinstance(msg, dict)  # checked above
        widget = _live_widgets()[msg["model_id"]]
        before = {model_id: w.get_state() for model_id, w in _live_widgets().items()}
        deliver: Callable[[], None]
        if msg["type"] == "set":
            deliver = lambda: widget.set_state(msg["patch"])  # noqa: E731
        else:
            content = {"event": "click"} if msg["type"] == "click" else msg["content"]
            deliver = lambda: widget._handle_custom_msg(content, [])  # noqa: E731
        error: str | None = None
        custom: list[Sent] = []
        try:
            with contextlib.redirect_stdout(io.StringIO()), _sent(custom):
                deliver()
        except Exception as err:  # noqa: BLE001 - the page gets one sentence; what changed is still sent
            error = _error_text(err)
        patches, new, closed = self._changes(before)
        return {"patches": patches, "new": new, "closed": closed, "error": error, "custom": custom}

    @staticmethod
    def _check(msg: object) -> str | None:
        """Why ``msg`` is not a message the host reads (None: it is)."""
        if not isinstance(msg, dict):
            return "a message is a JSON object"
        kind = msg.get("type")
        if kind not in ("custom", "click", "set"):
            return f"unknown message type {kind!r}: custom, click or set"
        model_id = msg.get("model_id")
        if not isinstance(model_id, str) or model_id not in _widget_module._instances:
            return f"no widget model {model_id} on this page"
        if kind == "custom" and "content" not in msg:
            return "a custom message needs its content"
        if kind == "set" and not isinstance(msg.get("patch"), dict):
            return "a set message needs a patch (an object)"
        return None

    def _changes(
        self, before: Mapping[str, ModelState]
    ) -> tuple[dict[str, ModelState], dict[str, SavedModel], list[str]]:
        """What changed since ``before``: patches per model, new models' full state, closed ids."""
        live = _live_widgets()
        patches: dict[str, ModelState] = {}
        for model_id, old in before.items():
            widget = live.get(model_id)
            if widget is None:
                continue
            patch = {key: value for key, value in widget.get_state().items() if key not in old or old[key] != value}
            if patch:
                patches[model_id] = patch
        made = [w for model_id, w in live.items() if model_id not in before]
        closed = [model_id for model_id in before if model_id not in live]
        return patches, (self.state(made) if made else {}), closed

    # -- the worker's JSON side ---------------------------------------------------------------
    def run_json(self, sources_json: str) -> str:
        """:meth:`run` for a JSON list of cell sources; the answer as JSON."""
        try:
            sources = json.loads(sources_json)
        except ValueError as err:
            return json.dumps({"cells": [], "state": {}, "error": f"the cells are not JSON: {err}", "custom": []})
        if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
            return json.dumps({"cells": [], "state": {}, "error": "the cells are a list of source texts", "custom": []})
        return json.dumps(self.run(sources), default=_jsonable)

    def receive_json(self, msg_json: str) -> str:
        """:meth:`receive` for a JSON message; the answer as JSON."""
        try:
            msg = json.loads(msg_json)
        except ValueError as err:
            problem = f"the message is not JSON: {err}"
            return json.dumps({"patches": {}, "new": {}, "closed": [], "error": problem, "custom": []})
        return json.dumps(self.receive(msg), default=_jsonable)


def _jsonable(value: object) -> object:
    """A value JSON cannot hold as it is (bytes of a buffer, a tuple kept by a trait): a list, else its text."""
    if isinstance(value, bytes | bytearray | memoryview):
        return list(bytes(value))
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    return str(value)
