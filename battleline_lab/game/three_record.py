"""Records of three-player games (R32-R37): a YAML file with the seed and every move, that replays exactly.

::

    # Battle Line three-player game record (battleline_lab)
    variant: three
    seed: 42
    first: a
    players: {a: heuristic, b: random, c: random}
    moves:
    - a: play r5 3; draw troops
    - b: play b8 4; claim 2; draw troops
    result: {winner: a, reason: breakthrough, turns: 40}

Each item of ``moves`` is one turn: the seat on turn, then that turn's actions in the game's
notation (:mod:`battleline_lab.game.actions`), separated by ``;``.  ``result``, if present, is
checked against the replay.  The YAML is composed with the project's safe composer (tags,
anchors and aliases refused, nothing executed) and the first problem is reported at its line
and column: ``g.yaml:6:9: error: turn 1, 'play r5 4' is not possible now: flag 4 is not on A's
line (R33)``.

>>> from battleline_lab.game.three_bots import ThreeHeuristicBot
>>> from battleline_lab.game.three import play_three_game
>>> state = play_three_game([ThreeHeuristicBot(1), ThreeHeuristicBot(2), ThreeHeuristicBot(3)], seed=9)
>>> replay_three(dump_three_record(state)).history == state.history
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..formats import safe_yaml
from ..text.messages import DEFAULT_LANGUAGE, message
from .actions import ActionNotationError, parse_action
from .three import SEATS, Seat, ThreeIllegalMoveError, ThreeState, apply_three, new_three_game

__all__ = ["ThreeRecordError", "dump_three_record", "replay_three"]

TOP_KEYS = ("variant", "seed", "first", "players", "moves", "result")


class ThreeRecordError(ValueError):
    """A record that cannot be replayed; its text is ``FILE:LINE:COL: error: ...``."""


def dump_three_record(state: ThreeState, players: Mapping[Seat, str] | None = None) -> str:
    """The YAML record of a three-player game (see the module doc)."""
    header = f"# {message('three.record.header')}"
    lines = [header, "variant: three", f"seed: {state.seed}", f"first: {state.first.value}"]
    if players:
        lines.append("players: {" + ", ".join(f"{s.value}: {players[s]}" for s in SEATS if s in players) + "}")
    lines.append("moves:")
    turns: list[tuple[int, Seat, list[str]]] = []
    for number, seat, action in state.history:
        if not turns or turns[-1][0] != number:
            turns.append((number, seat, []))
        turns[-1][2].append(action.notation)
    lines += [f"- {seat.value}: {'; '.join(actions)}" for _, seat, actions in turns]
    if state.over:
        winner = state.winner.value if state.winner else "none"
        reason = state.end_reason.value if state.end_reason else "none"
        lines.append(f"result: {{winner: {winner}, reason: {reason}, turns: {state.turn_number}}}")
    return "\n".join(lines) + "\n"


def replay_three(text: str, filename: str = "<string>", lang: str = DEFAULT_LANGUAGE) -> ThreeState:
    """Replay a record to the state it ends in; raises :class:`ThreeRecordError` at the first problem."""

    ctx = _Context(filename, lang)
    fail, m = ctx.fail, ctx.m

    try:
        root, refused = safe_yaml.compose(text)
    except safe_yaml.ComposeError as exc:
        problem = exc.reason if exc.kind == "character" else exc.problem or exc.context or exc.kind
        raise ThreeRecordError(
            f"{filename}:{exc.line}:{exc.col}: error: {m('record.syntax', problem=safe_yaml.escape_control(problem))}"
        ) from None
    if refused:
        refusal = refused[0]
        key = "record.syntax" if refusal.kind == "surrogate" else f"record.{refusal.kind}"
        raise fail(refusal.mark, m(key, tag=refusal.name, problem=refusal.name))
    if root is None:
        raise ThreeRecordError(f"{filename}:1:1: error: {m('record.empty')}")
    if not isinstance(root, MappingNode):
        raise fail(root, m("record.not_mapping", what=m("record.what.record")))
    top: dict[str, Node] = {}
    for key_node, value_node in root.value:
        key = key_node.value if isinstance(key_node, ScalarNode) else ""
        if key not in TOP_KEYS:
            keys = ", ".join(TOP_KEYS)
            raise fail(key_node, m("record.unknown_key", key=key, what=m("record.what.record"), keys=keys))
        top[key] = value_node
    for needed in ("variant", "seed", "moves"):
        if needed not in top:
            raise fail(root, m("record.missing", key=needed))
    variant = top["variant"]
    if not isinstance(variant, ScalarNode) or variant.value != "three":
        shown = variant.value if isinstance(variant, ScalarNode) else "..."
        raise fail(variant, m("record.bad_choice", what="variant", choices="three", value=shown))
    seed_node = top["seed"]
    seed = safe_yaml.ascii_int(seed_node.value) if isinstance(seed_node, ScalarNode) else None
    if seed is None:
        raise fail(seed_node, m("record.bad_seed", value=getattr(seed_node, "value", "...")))
    first: Seat | None = None
    if "first" in top:
        node = top["first"]
        choices = [s.value for s in SEATS]
        if not isinstance(node, ScalarNode) or node.value not in choices:
            shown = node.value if isinstance(node, ScalarNode) else "..."
            raise fail(node, m("record.bad_choice", what="first", choices=", ".join(choices), value=shown))
        first = Seat(node.value)
    state = new_three_game(seed, first=first)
    moves = top["moves"]
    if not isinstance(moves, SequenceNode):
        raise fail(moves, m("record.moves_not_list"))
    for number, turn in enumerate(moves.value, start=1):
        _replay_turn(state, turn, number, ctx)
    if "result" in top:
        _check_result(state, top["result"], ctx)
    return state


class _Context:
    """Where the record comes from and the language of its errors."""

    def __init__(self, filename: str, lang: str) -> None:
        self.filename = filename
        self.lang = lang

    def m(self, key: str, /, **params: Any) -> str:
        return message(key, self.lang, **params)

    def fail(self, where: Node | Any, text: str) -> ThreeRecordError:
        line, col = safe_yaml.mark_position(where)
        return ThreeRecordError(f"{self.filename}:{line}:{col}: error: {safe_yaml.escape_control(text)}")


def _replay_turn(state: ThreeState, turn: Node, number: int, ctx: _Context) -> None:
    fail, m = ctx.fail, ctx.m
    if not (isinstance(turn, MappingNode) and len(turn.value) == 1 and isinstance(turn.value[0][1], ScalarNode)):
        raise fail(turn, m("record.turn_shape", number=number))
    seat_node, actions_node = turn.value[0]
    seat_text = seat_node.value if isinstance(seat_node, ScalarNode) else ""
    if state.over:
        raise fail(seat_node, m("record.after_end", number=number))
    if seat_text != state.turn.value:
        expected = m(f"three.seat.{state.turn.value}")
        raise fail(seat_node, m("three.record.seat", turn=number, expected=expected, found=seat_text))
    start = state.turn_number
    offset = 0
    raw = str(actions_node.value)
    for part in raw.split(";"):
        text = part.strip()
        column = offset + (len(part) - len(part.lstrip()))
        offset += len(part) + 1
        if not text:
            raise fail(actions_node, m("record.turn_actions", number=number))
        where = _shifted(actions_node, column)
        try:
            action = parse_action(text)
        except ActionNotationError as exc:
            reason = m(f"game.notation.{exc.key}", text=text, **exc.params)
            raise fail(where, m("three.record.move", turn=number, text=reason)) from None
        if state.over:  # the game ended within this turn: nothing may follow
            raise fail(where, m("record.after_end", number=number))
        if state.turn_number != start:
            raise fail(where, m("record.turn_shape", number=number))
        try:
            apply_three(state, action)
        except ThreeIllegalMoveError as exc:
            raise fail(where, m("three.record.move", turn=number, text=exc.text(ctx.lang))) from None


def _shifted(node: ScalarNode, column: int) -> Any:
    """The mark ``column`` characters into a plain one-line scalar (its start otherwise)."""
    mark = node.start_mark
    if node.style is not None or "\n" in str(node.value):
        return mark
    return type(mark)(mark.name, mark.index + column, mark.line, mark.column + column, None, None)  # type: ignore[arg-type]


def _check_result(state: ThreeState, node: Node, ctx: _Context) -> None:
    fail, m = ctx.fail, ctx.m
    if not isinstance(node, MappingNode):
        raise fail(node, m("record.not_mapping", what="result"))
    actual = {
        "winner": state.winner.value if state.winner else "none",
        "reason": state.end_reason.value if state.end_reason else "none",
        "turns": str(state.turn_number),
    }
    for key_node, value_node in node.value:
        key = getattr(key_node, "value", "")
        if key not in actual:
            raise fail(key_node, m("record.unknown_key", key=key, what="result", keys=", ".join(actual)))
        value = str(getattr(value_node, "value", ""))
        if value != actual[key] or not state.over:
            raise fail(value_node, m("record.result_mismatch", key=key, value=value, actual=actual[key]))
