"""Game records: a YAML file with the seed, the options and every move, that replays exactly.

::

    # Battle Line game record (battleline_lab)
    seed: 42
    options: {claim_timing: after_play, first: south}
    players: {north: heuristic, south: random}
    moves:
    - south: play r5 3; draw troops
    - north: play b8 4; claim 2; draw troops
    result: {winner: south, reason: breakthrough, turns: 40}

Each item of ``moves`` is one turn: the player on turn, then that turn's
actions in the notation of :mod:`battleline_lab.game.actions`, separated by
``;`` (a Mud discard by the other player, R26, is written in the turn where it
happens).  The last turn may be unfinished (a game saved midway).  ``players``
is informational; ``result``, if present, is checked against the replay.

Loading composes YAML nodes with PyYAML's safe loader, so every error points
at its line and column; tags, anchors and aliases are refused and nothing is
executed.  An illegal move names the move, its line and column and the rule:
``game.yaml:7:14: error: turn 3, 'claim 5' is not possible now: flag 5 cannot
be proved from what the player can see (R12)``.

>>> from battleline_lab.game.match import play_game
>>> from battleline_lab.game.bot_base import RandomBot
>>> state = play_game(RandomBot(1), RandomBot(2), seed=9)
>>> text = dump_record(state)
>>> replayed = load_record_text(text).replay()
>>> replayed.history == state.history and replayed.winner == state.winner
True
>>> load_record_text("seed: 1\\noptions: {first: south}\\nmoves:\\n- south: play r9 3; draw troop\\n", "g.yaml")
Traceback (most recent call last):
...
battleline_lab.game.record.RecordError: g.yaml:4:21: error: 'draw troop': decks are 'troops' and 'tactics', not 'troop'
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..core.cards import CardNotationError, parse_card
from ..core.position import ClaimTiming
from ..formats import safe_yaml
from ..text.messages import DEFAULT_LANGUAGE, LANGUAGES, card_short, message, scoped
from .actions import Action, ActionNotationError, Draw, parse_action
from .rules import IllegalMoveError, apply
from .state import EndReason, GameState, Options, Player, new_game

__all__ = [
    "GameRecord",
    "RecordError",
    "dump_record",
    "illegal_reason",
    "load_record",
    "load_record_text",
    "MAX_RECORD_BYTES",
]

MAX_RECORD_BYTES = safe_yaml.MAX_BYTES
TOP_KEYS = ("seed", "options", "players", "moves", "result")
OPTION_KEYS = ("claim_timing", "first")
RESULT_KEYS = ("winner", "reason", "turns")


_m = scoped("record")


def _notation_error(exc: ActionNotationError, lang: str) -> str:
    """An action that is not in the notation, said in ``lang`` (a bad card in the loader's words)."""
    if lang == DEFAULT_LANGUAGE:
        return str(exc)
    params = dict(exc.params)
    card = exc.__context__  # the CardNotationError behind a bad card (raised ``from None``, still kept here)
    if exc.key == "bad_card" and isinstance(card, CardNotationError) and card.reason != "not_text":
        reason = message(f"load.card_reason.{card.reason}", lang) if card.reason else ""
        hint = message("load.did_you_mean", lang, suggestion=card.suggestion) if card.suggestion else ""
        params["detail"] = message("load.unknown_card", lang, token=repr(card.token), reason=reason, hint=hint)
    return message(f"game.notation.{exc.key}", lang, text=exc.text, **params)


def _illegal_error(exc: IllegalMoveError, state: GameState, lang: str) -> str:
    """An illegal move said in ``lang``: ``'claim 5' is not possible now: ... (R12)``."""
    if lang == DEFAULT_LANGUAGE:
        return str(exc)
    return message(
        "game.illegal", lang, action=exc.action.notation, text=_illegal_text(exc, state, lang), rule=exc.rule
    )


def illegal_reason(exc: IllegalMoveError, state: GameState, lang: str = DEFAULT_LANGUAGE) -> str:
    """:attr:`IllegalMoveError.reason` (English) in ``lang``, for ``state`` as ``apply`` refused the move.

    ``apply`` leaves the state unchanged when it refuses a move, so the phase, the claim timing and
    the owner of a claimed flag are those the rules saw; call this before anything else changes it.
    """
    if lang == DEFAULT_LANGUAGE:
        return exc.reason
    return message("game.illegal.reason", lang, text=_illegal_text(exc, state, lang), rule=exc.rule)


def _illegal_text(exc: IllegalMoveError, state: GameState, lang: str) -> str:
    params = dict(exc.params)
    if isinstance(params.get("card"), str):  # the rules write the notation (b8); Chinese writes 蓝8
        params["card"] = card_short(parse_card(params["card"]), lang)
    action = exc.action
    if exc.code == "phase":
        params["expected"] = _expected(state, lang)
    elif exc.code == "claim_timing":
        params["timing"] = message(f"game.timing.{state.options.claim_timing.value}", lang)
    elif exc.code == "deck_empty" and isinstance(action, Draw):
        params["deck"] = message(f"game.deck.{action.deck.value}", lang)
    elif exc.code == "flag_claimed" and "flag" in params:
        owner = state.claimed[int(params["flag"]) - 1]
        if owner is not None:
            params["owner"] = message(f"game.player.{owner.value}", lang)
    return message(f"game.illegal.{exc.code}", lang, **params)


class RecordError(ValueError):
    """A record that does not load or replay; ``errors`` are ``(line, col, message)``, 1-based."""

    def __init__(self, filename: str, errors: list[tuple[int, int, str]]) -> None:
        self.filename = filename
        self.errors = errors
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        """Each error as ``FILE:LINE:COL: error: message``."""
        return [str(safe_yaml.Diagnostic(self.filename, line, col, text)) for line, col, text in self.errors]


@dataclass(frozen=True)
class GameRecord:
    """A seed, options and turns: ``turns[k]`` is (player on turn, that turn's actions)."""

    seed: int
    options: Options = Options()
    turns: tuple[tuple[Player, tuple[Action, ...]], ...] = ()
    players: Mapping[str, str] = field(default_factory=dict)
    result: Mapping[str, Any] | None = None

    @classmethod
    def from_state(cls, state: GameState, players: Mapping[Player, str] | None = None) -> GameRecord:
        """The record of a game so far (its seed, options and history)."""
        turns: list[tuple[Player, list[Action]]] = []
        current = 0
        for number, _actor, action in state.history:
            if number != current:
                owner = state.first if number % 2 == 1 else state.first.other
                turns.append((owner, []))
                current = number
            turns[-1][1].append(action)
        result = None
        if state.over:
            assert state.end_reason is not None
            result = {
                "winner": state.winner.value if state.winner else None,
                "reason": state.end_reason.value,
                "turns": state.turn_number,
            }
        options = Options(state.options.claim_timing, state.first)
        names = {p.value: n for p, n in (players or {}).items()}
        return cls(state.seed, options, tuple((p, tuple(a)) for p, a in turns), names, result)

    def replay(self, turns: int | None = None) -> GameState:
        """Play the moves again from the seed (only the first ``turns`` turns if given).

        ``replay(n - 1)`` is the game at the start of turn ``n``.  Raises
        :class:`IllegalMoveError` on a bad move (a loaded record never has one).
        """
        state = new_game(self.seed, self.options)
        for _player, actions in self.turns[:turns]:
            for action in actions:
                apply(state, action)
        return state

    def puzzle_at(
        self, turn: int, player: Player | None = None, *, name: str = "game", lang: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        """The table at the start of ``turn`` (1-based) as a puzzle, seen by ``player`` (default: on turn).

        The puzzle asks which flags the player on turn can claim by proof
        (``question: {kind: claimable}``) and carries the engine's answer, so it
        passes ``battleline-lab check`` as it is; edit title, question and note
        to taste.  The title is in every language (``{en: ..., zh: ...}``), ``name`` in it with its
        control and bidi characters escaped (``\\x1b``); ``lang`` is the language of the error for a
        turn the record lacks.
        """
        from ..core.claims import claimable_flags
        from .view import to_position, to_puzzle_dict

        state = self.replay(turn - 1) if 1 <= turn <= len(self.turns) + 1 else None
        if state is None or state.over:
            raise ValueError(_m("no_such_turn", lang, turn=turn, turns=len(self.turns)))
        viewer = player or state.turn
        shown = safe_yaml.escape_control(name)  # a title may hold no control or bidi character: check refuses them
        data: dict[str, Any] = {
            "id": f"{re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-') or 'game'}-turn-{turn}",
            "title": {code: _m("puzzle_title", code, turn=turn, name=shown) for code in LANGUAGES},
        }
        data.update(to_puzzle_dict(state, viewer))
        data["question"] = {"kind": "claimable"}
        data["answer"] = list(claimable_flags(to_position(state, viewer)))
        return data

    def to_yaml(self) -> str:
        """The record as YAML text, one turn per line (stable, diff-friendly)."""
        lines = [f"# {_m('header')}", f"seed: {self.seed}"]
        opts = ", ".join(f"{k}: {v}" for k, v in self.options.as_dict().items())
        lines.append(f"options: {{{opts}}}")
        if self.players:
            names = ", ".join(f"{k}: {safe_yaml.yaml_string(v)}" for k, v in self.players.items())
            lines.append(f"players: {{{names}}}")
        lines.append("moves:" if self.turns else "moves: []")
        for player, actions in self.turns:
            lines.append(f"- {player.value}: {'; '.join(a.notation for a in actions)}")
        if self.result is not None:
            winner = self.result["winner"] if self.result["winner"] is not None else "null"
            lines.append(
                f"result: {{winner: {winner}, reason: {self.result['reason']}, turns: {self.result['turns']}}}"
            )
        return "\n".join(lines) + "\n"


def dump_record(state: GameState, players: Mapping[Player, str] | None = None) -> str:
    """The YAML record of a game (see the module doc)."""
    return GameRecord.from_state(state, players).to_yaml()


# -- loading --------------------------------------------------------------------------------


class _Reader:
    def __init__(self, filename: str, lang: str) -> None:
        self.filename = filename
        self.lang = lang
        self.errors: list[tuple[int, int, str]] = []
        self.count = 0  # errors found, including those past MAX_ERRORS
        self.first_skipped = (1, 1)

    def m(self, key: str, /, **params: Any) -> str:
        return _m(key, self.lang, **params)

    def error(self, node: Node | yaml.Mark, text: str, offset: int = 0) -> None:
        """Note an error; the whole message is escaped, so quoted input can never drive the terminal."""
        if self.full:
            self.skip(node)
            return
        line, col = safe_yaml.mark_position(node)
        self.errors.append((line, col + offset, safe_yaml.escape_control(text)))
        self.count += 1

    @property
    def full(self) -> bool:
        """:data:`~battleline_lab.formats.safe_yaml.MAX_ERRORS` errors noted: count the rest, do not word them."""
        return len(self.errors) >= safe_yaml.MAX_ERRORS

    def skip(self, node: Node | yaml.Mark) -> None:
        """An error past the limit: only counted (and where the first of them is)."""
        if self.count == len(self.errors):
            self.first_skipped = safe_yaml.mark_position(node)
        self.count += 1

    def fail(self) -> RecordError:
        errors = list(self.errors)
        more = self.count - len(errors)
        if more > 0:
            line, col = self.first_skipped
            text = message("files.more_errors", self.lang, count=more, shown=len(errors))
            errors.append((line, col, text))
        return RecordError(self.filename, errors)

    def mapping(self, node: Node, keys: Sequence[str], what: str) -> dict[str, Node]:
        if not isinstance(node, MappingNode):
            self.error(node, self.m("not_mapping", what=what))
            return {}
        entries, issues = safe_yaml.mapping_entries(node, keys, _raw_text)
        for issue in issues:
            if self.full:
                self.skip(issue.node)
                continue
            key = issue.key or ""  # a key that is not a scalar is an unknown key ''
            if issue.problem == "duplicate":
                self.error(issue.node, self.m("duplicate_key", key=_quote(key)))
                continue
            close = safe_yaml.closest(key, keys)
            hint = self.m("did_you_mean", suggestion=close) if close else ""
            self.error(issue.node, self.m("unknown_key", key=_quote(key), what=what, keys=", ".join(keys)) + hint)
        return {key: value for key, (_, value) in entries.items()}

    def scalar(self, node: Node, what: str) -> str | None:
        if not isinstance(node, ScalarNode):
            self.error(node, self.m("not_scalar", what=what))
            return None
        return str(node.value)

    def choice(self, node: Node, what: str, choices: Sequence[str]) -> str | None:
        value = self.scalar(node, what)
        if value is not None and value not in choices:
            self.error(node, self.m("bad_choice", what=what, value=_quote(value), choices=", ".join(choices)))
            return None
        return value


def _raw_text(node: ScalarNode) -> str:
    """A scalar as written (records read every value as text)."""
    return str(node.value)


def _split_actions(node: ScalarNode) -> list[tuple[str, int]]:
    """The actions of a turn with their column offsets inside the scalar (0 if unknown)."""
    text = node.value
    single_line = node.start_mark.line == node.end_mark.line
    quote = 1 if node.style in ("'", '"') else 0
    out = []
    pos = 0
    for part in text.split(";"):
        stripped = part.strip()
        if stripped:
            lead = len(part) - len(part.lstrip())
            offset = quote + pos + lead if single_line and node.style in (None, "'", '"') else 0
            out.append((stripped, offset))
        pos += len(part) + 1
    return out


def load_record_text(text: str, filename: str = "<string>", lang: str = DEFAULT_LANGUAGE) -> GameRecord:
    """Read, check and replay a record; raises :class:`RecordError` with every problem found (in ``lang``)."""
    reader = _Reader(filename, lang)
    if safe_yaml.utf8_size(text) > MAX_RECORD_BYTES:
        reader.errors.append((1, 1, reader.m("too_big", limit=MAX_RECORD_BYTES)))
        raise reader.fail()
    try:
        root, refused = safe_yaml.compose(text)
    except safe_yaml.ComposeError as exc:
        if exc.kind == "too_deep":
            problem = reader.m("too_deep")
        else:  # a control character: the reader's reason; else the parser's problem
            problem = reader.m(
                "syntax", problem=exc.reason if exc.kind == "character" else exc.problem or exc.context or ""
            )
        reader.errors.append((exc.line, exc.col, safe_yaml.escape_control(problem)))
        raise reader.fail() from None
    for refusal in refused:
        if refusal.kind == "tag":
            reader.error(refusal.mark, reader.m("tag", tag=_quote(refusal.name, 60)))
        elif refusal.kind == "surrogate":
            reader.error(refusal.mark, message("input.surrogate", lang, text=_quote(refusal.name)))
        else:
            reader.error(refusal.mark, reader.m(refusal.kind))
    if reader.errors:
        raise reader.fail()
    if root is None:
        reader.errors.append((1, 1, reader.m("empty")))
        raise reader.fail()
    top = reader.mapping(root, TOP_KEYS, reader.m("what.record"))
    seed = 0
    if "seed" not in top:
        if isinstance(root, MappingNode):
            reader.error(root, reader.m("missing", key="seed"))
    else:
        value = reader.scalar(top["seed"], "seed")
        if value is not None:
            number = safe_yaml.ascii_int(value) if top["seed"].tag == safe_yaml.INT else None
            if number is None:
                reader.error(top["seed"], _bad_number(value, reader.m("bad_seed", value=_quote(value)), reader.lang))
            else:
                seed = number
    options = Options()
    if "options" in top:
        opts = reader.mapping(top["options"], OPTION_KEYS, "options")
        timing = ClaimTiming.AFTER_PLAY
        first = None
        if "claim_timing" in opts:
            value = reader.choice(opts["claim_timing"], "claim_timing", [t.value for t in ClaimTiming])
            if value is not None:
                timing = ClaimTiming(value)
        if "first" in opts:
            value = reader.choice(opts["first"], "first", [p.value for p in Player])
            if value is not None:
                first = Player(value)
        options = Options(timing, first)
    players: dict[str, str] = {}
    if "players" in top:
        for key, node in reader.mapping(top["players"], [p.value for p in Player], "players").items():
            name = reader.scalar(node, "players")
            if name is not None:
                players[key] = name
    result_nodes: dict[str, Node] = {}
    if "result" in top:
        result_nodes = reader.mapping(top["result"], RESULT_KEYS, "result")
    if "moves" not in top and isinstance(root, MappingNode):
        reader.error(root, reader.m("missing", key="moves"))
    if reader.errors:
        raise reader.fail()
    turns, state = _replay_nodes(reader, top.get("moves"), seed, options)
    if reader.errors:
        raise reader.fail()
    result = _check_result(reader, result_nodes, state)
    if reader.errors:
        raise reader.fail()
    return GameRecord(seed, options, tuple(turns), players, result)


def _replay_nodes(
    reader: _Reader, moves: Node | None, seed: int, options: Options
) -> tuple[list[tuple[Player, tuple[Action, ...]]], GameState]:
    state = new_game(seed, options)
    turns: list[tuple[Player, tuple[Action, ...]]] = []
    if moves is None:
        return turns, state
    if not isinstance(moves, SequenceNode):
        reader.error(moves, reader.m("moves_not_list"))
        return turns, state
    items = moves.value
    for k, item in enumerate(items, 1):
        if not isinstance(item, MappingNode) or len(item.value) != 1:
            reader.error(item, reader.m("turn_shape", number=k))
            return turns, state
        key_node, value_node = item.value[0]
        who = key_node.value if isinstance(key_node, ScalarNode) else None
        if who not in [p.value for p in Player]:
            reader.error(key_node, reader.m("turn_player", number=k, value=_quote(str(who))))
            return turns, state
        if state.over:
            reader.error(key_node, reader.m("after_end", number=k))
            return turns, state
        if Player(who) is not state.turn:
            reader.error(
                key_node,
                reader.m(
                    "wrong_player",
                    number=k,
                    player=message(f"game.player.{who}", reader.lang),
                    turn=message(f"game.player.{state.turn.value}", reader.lang),
                ),
            )
            return turns, state
        if not isinstance(value_node, ScalarNode) or not value_node.value.strip():
            reader.error(value_node, reader.m("turn_actions", number=k))
            return turns, state
        actions: list[Action] = []
        for text, offset in _split_actions(value_node):
            try:
                action = parse_action(text)
            except ActionNotationError as exc:
                reader.error(value_node, _notation_error(exc, reader.lang), offset)
                return turns, state
            try:
                apply(state, action)
            except IllegalMoveError as exc:
                reader.error(
                    value_node, reader.m("illegal", number=k, error=_illegal_error(exc, state, reader.lang)), offset
                )
                return turns, state
            actions.append(action)
        turns.append((Player(who), tuple(actions)))
        unfinished = not state.over and state.turn is Player(who)
        if unfinished and k < len(items):
            reader.error(value_node, reader.m("unfinished", number=k, expected=_expected(state, reader.lang)))
            return turns, state
    return turns, state


def _expected(state: GameState, lang: str = DEFAULT_LANGUAGE) -> str:
    player = message(f"game.player.{state.to_act.value}", lang)
    return message(f"game.expect.{state.phase.value}", lang, player=player)


def _check_result(reader: _Reader, nodes: Mapping[str, Node], state: GameState) -> dict[str, Any] | None:
    if not nodes:
        return None
    actual = {
        "winner": state.winner.value if state.winner else "null",
        "reason": state.end_reason.value if state.end_reason else "unfinished",
        "turns": str(state.turn_number),
    }
    result: dict[str, Any] = {}
    for key, node in nodes.items():
        value = reader.scalar(node, key)
        if value is None:
            continue
        if node.tag == safe_yaml.NULL:  # ~, null, Null, NULL or nothing: all one null
            value = "null"
        if key == "reason" and value not in [r.value for r in EndReason]:
            reader.error(
                node,
                reader.m("bad_choice", what=key, value=_quote(value), choices=", ".join(r.value for r in EndReason)),
            )
            continue
        if key == "turns":
            turns = safe_yaml.ascii_int(value)
            if turns is None:
                what = f"result {key}"
                reader.error(
                    node,
                    _bad_number(
                        value, message("input.not_integer", reader.lang, what=what, text=_quote(value)), reader.lang
                    ),
                )
                continue
            value = str(turns)
        if value != actual[key]:
            if key == "winner" and value == "null":
                reader.error(node, message("input.winner_null", reader.lang, actual=actual[key]))
            else:
                reader.error(node, reader.m("result_mismatch", key=key, value=_quote(value), actual=actual[key]))
        result[key] = None if value == "null" else (int(value) if key == "turns" else value)
    return result


def _quote(text: str, limit: int = 40) -> str:
    """Author text for a message: control characters escaped, at most ``limit`` characters."""
    text = safe_yaml.escape_control(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _bad_number(text: str, otherwise: str, lang: str) -> str:
    """Why ``text`` is no number: too long, other digits than 0-9, else ``otherwise``."""
    stripped = text.strip()
    if len(stripped) > safe_yaml.MAX_NUMBER_CHARS and stripped.lstrip("+-").isdigit():
        return message("input.number_too_long", lang, digits=len(stripped), text=_quote(stripped))
    if stripped.lstrip("+-").isdigit():  # digits, but not all 0-9 (e.g. '²', '٣')
        return message("input.not_ascii_digits", lang, text=_quote(stripped))
    return otherwise


def load_record(path: str | os.PathLike[str], lang: str = DEFAULT_LANGUAGE) -> GameRecord:
    """Load a record file (UTF-8, at most 1 MiB); the errors in ``lang``."""
    name = str(path)
    try:
        text = safe_yaml.decode_utf8(safe_yaml.read_limited(os.fspath(path)))
    except safe_yaml.FileTooBigError:
        raise RecordError(name, [(1, 1, _m("too_big", lang, limit=MAX_RECORD_BYTES))]) from None
    except safe_yaml.NotRegularFileError as exc:
        raise RecordError(name, [(1, 1, message(f"files.not_regular.{exc.kind}", lang))]) from None
    except safe_yaml.NotUtf8Error as exc:
        raise RecordError(name, [(exc.line, 1, _m("not_utf8", lang))]) from None
    except OSError as exc:
        raise RecordError(name, [(1, 1, _m("unreadable", lang, reason=exc.strerror or str(exc)))]) from None
    return load_record_text(text, name, lang)
