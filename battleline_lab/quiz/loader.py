"""Load puzzle and position files (YAML) safely, with compiler-style errors.

The file format is a public contract (see ``puzzles/`` and the JSON Schema in
``battleline_lab/schema/puzzle.schema.json``)::

    id: blue-eight-blocked
    title: Can you claim flag 5?
    level: 2
    tags: [claim, wedge]
    turn: you
    flags:
      5: {you: [r3, r4, r5], opponent: [b8]}
      2: {you: [b7], opponent: [b10]}
    question: {kind: claim, flag: 5}
    answer: true

Only safe YAML is read, and nothing in a file is ever executed: the loader
*composes* the YAML node graph (every node keeps its line and column) and
builds values itself.  Any tag (``!!python/object``, ``!foo``, even
``!!str``), anchors and aliases, files over 1 MiB and non-UTF-8 files are
refused.  Every problem in a file is reported, each as a :class:`Diagnostic`
``FILE:LINE:COL: error: message`` pointing at the offending node; position
rules come from :meth:`Position.problems` (R6, R11, R18, R20, ...).

>>> p = load_puzzle_text("flags: {5: {you: [r3, r4, r5], opponent: [r6, g6]}}\\nquestion: {kind: claim, flag: 5}\\n"
...                      "answer: true")
>>> p.solve(), p.is_correct(p.answer)
(True, True)
>>> load_puzzle_text("flgas: {}", "p.yaml")
Traceback (most recent call last):
...
battleline_lab.quiz.loader.PuzzleFileError: p.yaml:1:1: error: unknown key 'flgas' (did you mean 'flags'?)
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..core.cards import ALL_CARDS, Card, CardNotationError, Tactic, Troop, parse_card
from ..core.claims import UndecidedTieError
from ..core.position import FLAG_KEYS, FLAGS, SIDE_KEYS, ClaimTiming, FlagState, Position, Problem, Side, flag_key
from ..formats.safe_yaml import (
    MAX_BYTES,
    MAX_ERRORS,
    ComposeError,
    Diagnostic,
    FileTooBigError,
    NotRegularFileError,
    NotUtf8Error,
    closest,
    compose,
    decode_utf8,
    escape_control,
    has_control,
    mapping_entries,
    mark_position,
    read_limited,
    scalar_value,
    syntax_errors,
    utf8_size,
)
from ..text.messages import DEFAULT_LANGUAGE, card_error_text, card_short, message, render_problem
from ..text.show import show_value
from .puzzle import Puzzle
from .questions import QUESTION_KINDS, Question, QuestionError, question_from_data

__all__ = [
    "MAX_FILE_BYTES",
    "Diagnostic",
    "PuzzleFileError",
    "TOP_LEVEL_KEYS",
    "check_answer",
    "iter_puzzle_files",
    "load_folder",
    "load_puzzle",
    "load_puzzle_text",
    "locate",
    "render_question_problem",
]

MAX_FILE_BYTES = MAX_BYTES
TOP_LEVEL_KEYS = (
    "id",
    "title",
    "headline",
    "level",
    "topics",
    "tags",
    "rules",
    "turn",
    "flags",
    "discards",
    "hand",
    "question",
    "answer",
    "note",
)
SLUG = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")
LANG = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]+)*$")
SUFFIXES = (".yaml", ".yml")


class PuzzleFileError(ValueError):
    """A file that cannot be loaded; ``diagnostics`` lists every error in it."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("\n".join(str(d) for d in diagnostics))
        self.diagnostics = diagnostics


#: The language of the diagnostics of the file being loaded (``load_puzzle(..., lang=)``).
_LANG: ContextVar[str] = ContextVar("battleline_lab_load_lang", default="en")


def _msg(name: str, /, **params: Any) -> str:
    return message(f"load.{name}", _LANG.get(), **params)


def _show(value: object) -> str:
    """A short, quoted rendering of a value an author wrote, for error messages (as the rules API says it)."""
    return show_value(value)


def _card_error(err: CardNotationError, lang: str | None = None) -> str:
    """A bad card token in the loading language (the rules API words it the same way)."""
    return card_error_text(err, lang or _LANG.get())


#: Full-width punctuation a Chinese keyboard types inside a card list -> the ASCII character meant.
FULL_WIDTH_SEPARATORS: Mapping[str, str] = {
    "，": ",",
    "、": ",",
    "；": ",",
    "：": ":",
    "\u3000": " ",
    "［": "[",
    "］": "]",
}


def _full_width_in(value: object) -> str | None:
    """The first full-width separator in a card token (a Chinese keyboard's comma), or None."""
    return next((c for c in value if c in FULL_WIDTH_SEPARATORS), None) if isinstance(value, str) else None


def _suggest(word: object, choices: Iterable[str]) -> str:
    if not isinstance(word, str):
        return ""
    close = closest(word.lower(), choices)
    return _msg("did_you_mean", suggestion=close) if close else ""


# -- building a puzzle from nodes ---------------------------------------------------------------------


class _Builder:
    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.diagnostics: list[Diagnostic] = []
        self.nodes: dict[tuple[str | int, ...], Node] = {}
        self.card_errors = False
        self.count = 0  # errors found, including those past MAX_ERRORS
        self.first_skipped: tuple[int, int] | None = None
        self.card_total = 0  # cards read in the whole file: never more than the game has

    # diagnostics
    @property
    def full(self) -> bool:
        """:data:`~battleline_lab.formats.safe_yaml.MAX_ERRORS` errors noted: count the rest, do not word them."""
        return len(self.diagnostics) >= MAX_ERRORS

    def error(self, node: Node | yaml.Mark | None, text: str) -> None:
        """Note an error; the whole message is escaped, so quoted input can never drive the terminal."""
        if self.full:
            self.skip(node)
            return
        line, col = mark_position(node)
        self.diagnostics.append(Diagnostic(self.filename, line, col, escape_control(text)))
        self.count += 1

    def skip(self, node: Node | yaml.Mark | None) -> None:
        """An error past the limit: only counted (and where the first of them is)."""
        if self.first_skipped is None:
            self.first_skipped = mark_position(node)
        self.count += 1

    def finished(self) -> list[Diagnostic]:
        """The errors in file order, then ``... and N more`` if some were only counted."""
        ordered = sorted(self.diagnostics, key=lambda d: (d.line, d.col))
        more = self.count - len(ordered)
        if more > 0:
            line, col = self.first_skipped or (1, 1)
            text = message("files.more_errors", _LANG.get(), count=more, shown=len(ordered))
            ordered.append(Diagnostic(self.filename, line, col, text))
        return ordered

    # generic node readers
    def mapping(self, node: Node, allowed: tuple[str, ...] | None, what: str) -> dict[object, tuple[Node, Node]]:
        """Key -> (key node, value node); reports a non-mapping, duplicate and unknown keys."""
        if not isinstance(node, MappingNode):
            self.error(node, _msg("expected_mapping", what=what))
            return {}
        out, issues = mapping_entries(node, allowed, scalar_value)
        for issue in issues:
            if self.full:
                self.skip(issue.node)
            elif issue.problem == "not_scalar":
                self.error(issue.node, _msg("bad_key", what=what))
            elif issue.problem == "duplicate":
                self.error(issue.node, _msg("duplicate_key", key=_show(issue.key)))
            else:
                assert allowed is not None
                self.error(issue.node, _msg("unknown_key", key=_show(issue.key), hint=_suggest(issue.key, allowed)))
        return out

    def plain(self, node: Node) -> object:
        """A node as plain data (mappings, lists, scalars), reporting duplicate keys."""
        if isinstance(node, ScalarNode):
            return scalar_value(node)
        if isinstance(node, SequenceNode):
            return [self.plain(item) for item in node.value]
        if isinstance(node, MappingNode):
            return {key: self.plain(value) for key, (_, value) in self.mapping(node, None, "mapping").items()}
        return None  # pragma: no cover - composer produces only these three

    def string(self, node: Node, what: str) -> str | None:
        value = scalar_value(node) if isinstance(node, ScalarNode) else None
        if not isinstance(value, str) or not value.strip():
            self.error(node, _msg("expected_text", what=what))
            return None
        if has_control(value):
            self.error(node, _msg("control_character", what=what, text=_show(value)))
            return None
        return value

    def choice(self, node: Node, choices: tuple[str, ...], what: str) -> str | None:
        value = scalar_value(node) if isinstance(node, ScalarNode) else None
        if value not in choices:
            self.error(
                node,
                _msg("bad_choice", what=what, value=_show(self.plain(node)), choices=", ".join(choices))
                + _suggest(value, choices),
            )
            return None
        assert isinstance(value, str)
        return value

    def words(self, node: Node, what: str) -> list[str]:
        """A list of short names (``tags``, ``topics``), each kept once, in order."""
        words: list[str] = []
        if not isinstance(node, SequenceNode):
            self.error(node, _msg(f"bad_{what}s"))
            return words
        for item in node.value:
            word = scalar_value(item) if isinstance(item, ScalarNode) else None
            if not isinstance(word, str) or not word.strip():
                self.error(item, _msg(f"bad_{what}", value=_show(self.plain(item))))
            elif has_control(word):
                self.error(item, _msg("control_character", what=what, text=_show(word)))
            elif word not in words:
                words.append(word)
        return words

    def texts(self, node: Node, what: str) -> dict[str, str] | None:
        """A text, or a mapping language -> text (stored as {"en": text} for plain text)."""
        if isinstance(node, MappingNode):
            out: dict[str, str] = {}
            for key, (key_node, value_node) in self.mapping(node, None, what).items():
                if not isinstance(key, str) or not LANG.match(key):
                    self.error(key_node, _msg("bad_language", key=_show(key)))
                    continue
                text = self.string(value_node, what)
                if text is not None:
                    out[key] = text
            if not out and not node.value:
                self.error(node, _msg("expected_text", what=what))
            return out  # without "en", English readers see the first language given (Puzzle.title_text)
        text = self.string(node, what)
        return {"en": text} if text is not None else None

    def cards(self, node: Node, path: tuple[str | int, ...], what: str) -> tuple[Card, ...]:
        """A list of card tokens; records each card's node under ``path + (index,)``."""
        if isinstance(node, ScalarNode) and scalar_value(node) is None:
            return ()
        if not isinstance(node, SequenceNode):
            self.error(node, _msg("expected_cards", what=what))
            return ()
        self.nodes[path] = node
        out: list[Card] = []
        for item in node.value:
            if self.card_total >= len(ALL_CARDS):  # every further card is a duplicate (R1): count, do not read
                if self.card_total == len(ALL_CARDS):
                    self.error(item, message("input.too_many_cards", _LANG.get(), limit=len(ALL_CARDS)))
                    self.card_errors = True
                else:
                    self.skip(item)
                self.card_total += 1
                continue
            self.card_total += 1
            value = scalar_value(item) if isinstance(item, ScalarNode) else None
            try:
                if not isinstance(value, str):
                    raise CardNotationError(
                        _show(self.plain(item)), _msg("card_not_text", value=_show(self.plain(item))), reason="not_text"
                    )
                card = parse_card(value)
            except CardNotationError as err:
                wide = _full_width_in(value)
                if self.full:
                    self.skip(item)
                elif wide is not None:
                    self.error(
                        item,
                        _msg("full_width", token=repr(_show(value)), char=wide, ascii=FULL_WIDTH_SEPARATORS[wide]),
                    )
                else:
                    self.error(item, _card_error(err))
                self.card_errors = True
                continue
            self.nodes[path + (len(out),)] = item
            out.append(card)
        return tuple(out)

    def side(self, node: Node, what: str) -> Side | None:
        value = self.choice(node, SIDE_KEYS, what)
        return Side(value) if value is not None else None

    # the parts of a file
    def flags(self, node: Node) -> list[FlagState]:
        states = [FlagState() for _ in FLAGS]
        for key, (key_node, value_node) in self.mapping(node, None, "flags").items():
            number = flag_key(key)  # the rules API's check: an int 1-9 or one ASCII digit (the schema's)
            if number is None:
                self.error(key_node, _msg("bad_flag_number", value=_show(key)))
                continue
            if isinstance(value_node, ScalarNode) and scalar_value(value_node) is None:
                continue
            self.nodes[("flags", number)] = value_node
            entry = self.mapping(value_node, FLAG_KEYS, f"flag {number}")
            you: tuple[Card, ...] = ()
            opponent: tuple[Card, ...] = ()
            first: Side | None = None
            claimed: Side | None = None
            if "you" in entry:
                you = self.cards(entry["you"][1], ("flags", number, "you"), f"flag {number}, you")
            if "opponent" in entry:
                opponent = self.cards(entry["opponent"][1], ("flags", number, "opponent"), f"flag {number}, opponent")
            if "first_complete" in entry:
                self.nodes[("flags", number, "first_complete")] = entry["first_complete"][1]
                first = self.side(entry["first_complete"][1], "first_complete")
            if "claimed_by" in entry:
                self.nodes[("flags", number, "claimed_by")] = entry["claimed_by"][1]
                claimed = self.side(entry["claimed_by"][1], "claimed_by")
            states[number - 1] = FlagState(you, opponent, first, claimed)
        return states

    def areas(self, node: Node, name: str) -> dict[str, tuple[Card, ...]]:
        out: dict[str, tuple[Card, ...]] = {}
        for key, (_, value_node) in self.mapping(node, SIDE_KEYS, name).items():
            assert isinstance(key, str)
            out[key] = self.cards(value_node, (name, key), f"{name}, {key}")
        return out

    def question(self, node: Node) -> Question[Any, Any] | None:
        data = self.plain(node)
        if not isinstance(data, dict):
            self.error(node, _msg("expected_mapping", what="question"))
            return None
        try:
            return question_from_data(data)
        except QuestionError as err:
            for problem in err.problems:
                self.error(self.find(node, problem.path), render_question_problem(problem, _LANG.get()))
            return None

    def find(self, node: Node, path: tuple[str | int, ...]) -> Node:
        """The node at ``path`` under ``node`` (keys of mappings, indexes of lists), or the deepest found."""
        for step in path:
            if isinstance(node, MappingNode):
                for key_node, value_node in node.value:
                    if isinstance(key_node, ScalarNode) and scalar_value(key_node) == step:
                        node = value_node
                        break
                else:
                    return node
            elif isinstance(node, SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
                node = node.value[step]
            else:
                return node
        return node

    def problem_node(self, root: Node, path: tuple[str | int, ...]) -> Node:
        for cut in range(len(path), 0, -1):
            found = self.nodes.get(path[:cut])
            if found is not None:
                return found
        if path and path[0] in ("discards", "hand"):
            return self.nodes.get((path[0],), root)
        return root

    def build(self, root: Node, stem: str) -> Puzzle | None:
        if not isinstance(root, MappingNode):
            self.error(root, _msg("expected_mapping", what=_msg("what_file")))
            return None
        top = self.mapping(root, TOP_LEVEL_KEYS, _msg("what_file"))
        # a misspelled key ("flgas") is reported, and what it holds is still checked as the key it
        # most likely means, so every error shows in one run (the puzzle is refused all the same)
        for key_node, value_node in root.value:
            word = scalar_value(key_node) if isinstance(key_node, ScalarNode) else None
            if isinstance(word, str) and word not in TOP_LEVEL_KEYS:
                meant = closest(word.lower(), TOP_LEVEL_KEYS)
                if meant is not None and meant not in top:
                    top[meant] = (key_node, value_node)
        marks = {str(k): (v.start_mark.line + 1, v.start_mark.column + 1) for k, (_, v) in top.items()}
        for key, (_, value_node) in top.items():
            self.nodes[(str(key),)] = value_node

        puzzle_id = stem
        if "id" in top:
            value = self.string(top["id"][1], "id")
            if value is not None and not SLUG.match(value):
                self.error(top["id"][1], _msg("bad_id", value=_show(value)))
            elif value is not None:
                puzzle_id = value
        title = self.texts(top["title"][1], "title") if "title" in top else None
        note = self.texts(top["note"][1], "note") if "note" in top else None
        level: int | None = None
        if "level" in top:
            value_level = self.plain(top["level"][1])
            if not isinstance(value_level, int) or isinstance(value_level, bool) or not 1 <= value_level <= 5:
                self.error(top["level"][1], _msg("bad_level", value=_show(value_level)))
            else:
                level = value_level
        headline = self.texts(top["headline"][1], "headline") if "headline" in top else None
        # topics are shown before the answer, tags after it (they may give it away)
        topics = self.words(top["topics"][1], "topic") if "topics" in top else []
        tags = self.words(top["tags"][1], "tag") if "tags" in top else []
        timing = ClaimTiming.AFTER_PLAY
        if "rules" in top:
            rules = self.mapping(top["rules"][1], ("claim_timing",), "rules")
            if "claim_timing" in rules:
                chosen = self.choice(rules["claim_timing"][1], tuple(t.value for t in ClaimTiming), "claim_timing")
                if chosen is not None:
                    timing = ClaimTiming(chosen)
        turn = Side.YOU
        if "turn" in top:
            turn = self.side(top["turn"][1], "turn") or Side.YOU
        states = self.flags(top["flags"][1]) if "flags" in top else [FlagState() for _ in FLAGS]
        discards = self.areas(top["discards"][1], "discards") if "discards" in top else {}
        hand = self.areas(top["hand"][1], "hand") if "hand" in top else {}
        question = self.question(top["question"][1]) if "question" in top else None
        answer = self.plain(top["answer"][1]) if "answer" in top else None

        position = Position(
            flags=tuple(states),
            discards_you=discards.get("you", ()),
            discards_opponent=discards.get("opponent", ()),
            hand_you=hand.get("you", ()),
            hand_opponent=hand.get("opponent", ()),
            turn=turn,
            claim_timing=timing,
        )
        # a dropped bad card would make these counts and ties misleading
        skip = {"tactics_count", "first_complete_missing", "first_complete_unused"} if self.card_errors else set()
        for problem in position.problems():
            if self.full:
                self.skip(root)
            elif problem.code not in skip:
                self.error(self.problem_node(root, problem.path), render_problem(problem, _LANG.get()))

        if question is not None:
            for problem in question.problems(position):
                self.error(self.find(top["question"][1], problem.path), render_question_problem(problem, _LANG.get()))
            winner = position.winner()
            if question.needs_game_in_progress and winner is not None:
                last = max(position.claimed(winner))
                node = self.nodes.get(("flags", last, "claimed_by"), root)
                self.error(
                    node, _msg("game_over", side=message(f"side.{winner.value}", _LANG.get()), kind=question.kind)
                )
        if "answer" in top:
            answer_node = top["answer"][1]
            if question is None and "question" not in top:
                self.error(answer_node, _msg("answer_without_question"))
            elif question is not None and not question.check_answer_type(answer):
                self.error(
                    answer_node,
                    _msg(
                        "answer_type",
                        kind=question.kind,
                        hint=message(question.answer_hint, _LANG.get()),
                        value=_show(answer),
                    ),
                )
        if self.diagnostics:
            return None
        return Puzzle(
            id=puzzle_id,
            title=title or {},
            level=level,
            topics=tuple(topics),
            tags=tuple(tags),
            headline=headline,
            position=position,
            question=question,
            answer=answer,
            note=note,
            source=self.filename,
            marks=marks,
        )


def render_question_problem(problem: Problem, lang: str = "en") -> str:
    """A :class:`QuestionError` problem as an error message (catalogue ``question.error.<code>``)."""
    params: dict[str, Any] = {}
    for name, value in problem.params:
        if isinstance(value, (Troop, Tactic)):
            value = card_short(value, lang)
        elif hasattr(value, "notation"):
            value = value.notation
        elif isinstance(value, tuple):
            value = ", ".join(str(v) for v in value)
        params[name] = value
    if problem.code == "unknown_kind":
        params["hint"] = _suggest(problem.param("kind"), QUESTION_KINDS)
        params["kind"] = _show(problem.param("kind"))
    elif problem.code == "unknown_field":
        params["hint"] = _suggest(problem.param("field"), problem.param("fields") + ("kind",))
        params["field"] = _show(problem.param("field"))
    elif problem.code in ("bad_flag", "bad_first_complete"):
        params = {k: _show(v) for k, v in params.items()}
    elif problem.code == "formation_size":
        params["mud_rule"] = ", R25" if problem.param("mud") else ""
    elif problem.code == "bad_card" and "token" in params:
        wide = _full_width_in(params["token"])
        if wide is not None:  # the hint the flags get: a Chinese keyboard's comma inside one token
            token = repr(_show(params["token"]))
            return message("load.full_width", lang, token=token, char=wide, ascii=FULL_WIDTH_SEPARATORS[wide])
        error = CardNotationError(params["token"], params["message"], reason=params["reason"])
        error.suggestion = params["suggestion"]
        return _card_error(error, lang)
    return message(f"question.error.{problem.code}", lang, **params)


def load_puzzle_text(text: str, filename: str = "<string>", *, lang: str = "en") -> Puzzle:
    """A puzzle from YAML text; raises :class:`PuzzleFileError` listing every error (in ``lang``).

    >>> load_puzzle_text("flgas: {}", "p.yaml", lang="zh")
    Traceback (most recent call last):
    ...
    battleline_lab.quiz.loader.PuzzleFileError: p.yaml:1:1: error: 未知的键“flgas”（你是想写“flags”吗？）
    """
    token = _LANG.set(lang)
    try:
        return _load_text(text, filename)
    finally:
        _LANG.reset(token)


def _load_text(text: str, filename: str) -> Puzzle:
    if utf8_size(text) > MAX_FILE_BYTES:
        raise PuzzleFileError([Diagnostic(filename, 1, 1, _msg("too_big", size=len(text), limit=MAX_FILE_BYTES))])
    builder = _Builder(filename)
    try:
        root, refused = compose(text)
    except ComposeError as err:
        # every syntax error, not only the parser's first: the rest of the file is read entry by entry
        raise PuzzleFileError(
            [Diagnostic(filename, e.line, e.col, escape_control(_compose_message(e))) for e in syntax_errors(text, err)]
        ) from None
    for refusal in refused:
        name = _show(refusal.name) if refusal.kind == "surrogate" else escape_control(refusal.name)
        if refusal.kind == "surrogate":
            builder.error(refusal.mark, message("input.surrogate", _LANG.get(), text=name))
        elif refusal.kind == "tag":
            builder.error(refusal.mark, _msg("tag", tag=name))
        else:
            builder.error(refusal.mark, _msg(refusal.kind, name=name))
    if root is None:
        raise PuzzleFileError([Diagnostic(filename, 1, 1, _msg("empty"))])
    stem = Path(filename).stem if filename != "<string>" else "puzzle"
    try:
        puzzle = builder.build(root, stem)
    except RecursionError:
        raise PuzzleFileError([Diagnostic(filename, 1, 1, _msg("too_deep"))]) from None
    if builder.diagnostics or puzzle is None:
        raise PuzzleFileError(builder.finished())
    return puzzle


#: The parsers' commonest complaints (PyYAML's and libyaml's words) -> catalogue ``load.yaml_problem.<name>``:
#: said in the reader's language, with the usual cause and its fix.
YAML_PROBLEMS: Mapping[str, str] = {
    "mapping values are not allowed here": "colon",
    "mapping values are not allowed in this context": "colon",
    "could not find expected ':'": "no_colon",
    "found unexpected end of stream": "open_quote",
    "found character '\\t' that cannot start any token": "tab",
    "found character that cannot start any token": "tab",
}


def _compose_message(err: ComposeError) -> str:
    if err.kind == "character":
        return _msg("bad_character", code=f"{err.character!r}")
    if err.kind == "too_deep":
        return _msg("too_deep")
    known = YAML_PROBLEMS.get(err.problem or "")
    if known is not None:
        return _msg("yaml_syntax", detail=message(f"load.yaml_problem.{known}", _LANG.get()))
    detail = err.problem or err.context or "?"
    if err.context and err.problem:
        detail = f"{err.problem} ({err.context})"
    return _msg("yaml_syntax", detail=detail)


def load_puzzle(path: str | os.PathLike[str], *, lang: str = "en") -> Puzzle:
    """A puzzle from a file; raises :class:`PuzzleFileError` (with ``FILE:LINE:COL``, message in ``lang``)."""
    token = _LANG.set(lang)
    try:
        return _load_file(os.fspath(path))
    finally:
        _LANG.reset(token)


def _load_file(filename: str) -> Puzzle:
    try:
        text = decode_utf8(read_limited(filename))
    except FileTooBigError as err:
        raise PuzzleFileError(
            [Diagnostic(filename, 1, 1, _msg("too_big", size=err.size, limit=MAX_FILE_BYTES))]
        ) from None
    except NotUtf8Error as err:
        raise PuzzleFileError([Diagnostic(filename, err.line, err.col, _msg("not_utf8"))]) from None
    except NotRegularFileError as err:
        text = message(f"files.not_regular.{err.kind}", _LANG.get())
        raise PuzzleFileError([Diagnostic(filename, 1, 1, text)]) from None
    except OSError as err:
        raise PuzzleFileError(
            [Diagnostic(filename, 1, 1, _msg("cannot_read", reason=err.strerror or str(err)))]
        ) from None
    return _load_text(text.removeprefix("\ufeff"), filename)


def iter_puzzle_files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Path]:
    """Puzzle files under the paths: folders recursively (``*.yaml``, ``*.yml``, sorted), files as given.

    A path that does not exist is yielded as is, so that loading it reports the error.
    """
    for path in paths:
        p = Path(path)
        if p.is_dir():
            found = [
                f
                for f in p.rglob("*")
                if f.suffix in SUFFIXES
                and f.is_file()
                and not any(part.startswith(".") for part in f.relative_to(p).parts)
            ]
            yield from sorted(found)
        else:
            yield p


def load_folder(
    paths: Iterable[str | os.PathLike[str]],
    *,
    lang: str = DEFAULT_LANGUAGE,
    on_error: Callable[[Path, PuzzleFileError], object] | None = None,
) -> Iterator[tuple[Path, Puzzle]]:
    """Every puzzle under the paths (:func:`iter_puzzle_files`) that loads, with its file: the one
    "load a folder of puzzles, skip the bad files".  A file that does not load is skipped, after
    ``on_error(file, error)`` if given (its ``error.diagnostics`` say where and why).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "bad.yaml").write_text("id: [", encoding="utf-8")
    >>> [p.id for _, p in load_folder([folder], on_error=lambda f, e: print(f.name, len(e.diagnostics)))]
    bad.yaml 1
    []
    """
    for file in iter_puzzle_files(paths):
        try:
            puzzle = load_puzzle(file, lang=lang)
        except PuzzleFileError as err:
            if on_error is not None:
                on_error(file, err)
            continue
        yield file, puzzle


def locate(puzzle: Puzzle, path: tuple[str | int, ...]) -> tuple[int, int]:
    """The 1-based ``(line, column)`` in the puzzle's file of the node at ``path`` (``("discards", "you", 1)``).

    Reads the source file again; falls back to the deepest node found, then to the
    top-level key's mark, then to ``(1, 1)`` (a missing ``turn`` points at ``flags``).
    """
    fallback = puzzle.marks.get(str(path[0])) if path else None
    fallback = fallback or puzzle.marks.get("flags") or (1, 1)
    try:
        root, _ = compose(decode_utf8(read_limited(puzzle.source or "")).removeprefix("\ufeff"))
    except (OSError, ComposeError, FileTooBigError, NotUtf8Error, ValueError):
        return fallback
    node: Node | None = root
    found = False
    for step in path:
        if isinstance(node, MappingNode):
            for key_node, value_node in node.value:
                key = scalar_value(key_node) if isinstance(key_node, ScalarNode) else None
                if key == step or (isinstance(step, int) and isinstance(key, str) and key.strip() == str(step)):
                    node, found = value_node, True
                    break
            else:
                break
        elif isinstance(node, SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
            node = node.value[step]
        else:
            break
    if not found or node is None:
        return fallback
    return node.start_mark.line + 1, node.start_mark.column + 1


# -- checking a stated answer against the engine --------------------------------------------------


def _show_answer(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def check_answer(puzzle: Puzzle, name: str, lang: str = "en") -> list[Diagnostic]:
    """What ``battleline-lab check`` (and the pytest plugin) say about a loaded puzzle's answer, or nothing.

    >>> from battleline_lab.quiz.loader import load_puzzle_text
    >>> p = load_puzzle_text("flags: {5: {you: [r3, r4, r5], opponent: [r6, g6]}}\\n"
    ...                      "question: {kind: claim, flag: 5}\\nanswer: false")
    >>> print(check_answer(p, "p.yaml")[0])  # doctest: +ELLIPSIS
    p.yaml:3:9: error: wrong answer: the engine says true, not false ...
    """
    question = puzzle.question
    if question is None:
        return []
    line, col = puzzle.marks.get("answer") or puzzle.marks.get("question") or (1, 1)
    if "answer" not in puzzle.marks:
        if question.answer_computed:  # nothing stated, nothing to verify: the engine's set is the answer
            return []
        return [Diagnostic(name, line, col, message("cli.check.no_answer", lang))]
    try:
        expected = question.solve(puzzle.position)
    except (UndecidedTieError, ValueError) as err:
        return [Diagnostic(name, line, col, message("cli.check.unsolvable", lang, reason=str(err)))]
    if question.normalize(puzzle.answer) == question.normalize(expected):
        return []
    text = message(
        "cli.check.wrong", lang, expected=_show_answer(expected), given=_show_answer(puzzle.answer), file=name
    )
    return [Diagnostic(name, line, col, text)]
