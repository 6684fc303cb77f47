"""The puzzle editor's session: a puzzle being built or edited, checked after every change.

No front end lives here (no ipywidgets; it runs unchanged in Pyodide): the
:class:`~battleline_lab.widgets.editor.PuzzleEditor` widget and the teachers'
lesson are views over an :class:`EditorSession`.  The session holds the
puzzle as the plain data of its file (``id``, ``title``, ``flags``, ...) and,
for a file it opened, the file's text.  After every change :meth:`EditorSession.report`
says what the loader says about the text that :meth:`~EditorSession.save` would write
(the loader's own diagnostics: no second copy of the rules), the engine's answer
and its proof, the difficulty estimate and a reviewer's warnings.

Saving an opened file rewrites only what was edited: every other line of the
file, comments included, stays byte for byte (an unedited file is written back
unchanged); new files and new keys are written in the format's key order by
:func:`~battleline_lab.authoring.writer.dump_puzzle`.  Nothing is ever written
over an existing file unless ``force=True``, and writes are atomic.

>>> s = EditorSession.new("wedge-or-not")
>>> s.add_card(("flags", 5, "you"), "r2 r3 r4")
>>> s.add_card(("flags", 5, "opponent"), "r6 g6")
>>> s.set_question({"kind": "claim", "flag": 5})
>>> r = s.report()
>>> r.problems, r.engine_answer, r.difficulty.level
((), True, 1)
>>> [w.code for w in r.warnings]
['no_answer']
>>> s.use_engine_answer()
>>> print(s.text(), end="")
id: wedge-or-not
flags:
  5: {you: [r2, r3, r4], opponent: [r6, g6]}
question: {kind: claim, flag: 5}
answer: true
>>> s.add_card(("flags", 5, "you"), "alexander darius")
>>> for d in s.report().problems: print(d.message)
tactics cards played: you 2, opponent 0; the counts may differ by at most one (R18)
flag 5: 5 cards on one side, but a side holds 3 (R6)
you played both Leaders; a player may play only one (R20)
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.cards import Card, CardNotationError, Tactic, parse_card
from ..core.claims import UndecidedTieError
from ..core.position import FLAGS, FlagState, Position, Side, is_flag_number
from ..formats.safe_yaml import ComposeError, Diagnostic, compose, decode_utf8, read_limited
from ..quiz.checks import CheckWarning, check_puzzle
from ..quiz.difficulty import Difficulty, estimate
from ..quiz.loader import TOP_LEVEL_KEYS, PuzzleFileError, load_puzzle_text
from ..quiz.puzzle import Puzzle
from ..text.messages import DEFAULT_LANGUAGE
from .errors import EditorError
from .review import Finding, library_keys, review_key, tag_gives_away, title_states
from .saving import atomic_write, folder_ids, library_ids
from .writer import dump_puzzle
from .yaml_text import flag_entry, patch_text, plain_data, texts_by_language

__all__ = [
    "EditorError",
    "EditorReport",
    "EditorSession",
    "Finding",
    "OUTS_FORMATIONS",
    "Place",
    "QUESTION_FIELDS",
    "atomic_write",
    "library_keys",
    "patch_text",
    "question_form",
    "question_from_form",
    "split_tokens",
]

#: Where a card lies: ``("flags", 5, "you")``, ``("discards", "opponent")``, ``("hand", "you")``.
Place = tuple[Any, ...]

_SIDES = ("you", "opponent")


@dataclass(frozen=True)
class EditorReport:
    """Everything the editor shows about the puzzle as it stands.

    ``problems`` are the loader's diagnostics for the text :meth:`EditorSession.text`
    (the same located errors ``battleline-lab check`` prints, ``FILE:LINE:COL``
    in that text); ``puzzle`` is the loaded puzzle when there are none.  Then
    ``engine_answer`` and ``proof`` (the question's :meth:`~battleline_lab.quiz.questions.Question.explain`
    data) or ``engine_error`` (an undecidable tie, ...), ``difficulty``, ``answer_problems``
    (what ``check`` says about the author's answer) and ``warnings``.
    """

    problems: tuple[Diagnostic, ...] = ()
    puzzle: Puzzle | None = None
    engine_answer: object = None
    proof: object = None
    engine_error: str | None = None
    difficulty: Difficulty | None = None
    answer_problems: tuple[Diagnostic, ...] = ()
    warnings: tuple[Finding, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """Would the file pass ``battleline-lab check`` (no problem, a right answer; warnings allowed)?"""
        return not self.problems and not self.answer_errors and self.engine_error is None

    @property
    def answer_errors(self) -> tuple[Diagnostic, ...]:
        """What ``check`` says is wrong with the author's answer (the engine contradicts it)."""
        return tuple(d for d in self.answer_problems if not isinstance(d, CheckWarning))

    @property
    def answer_contradicted(self) -> bool:
        """Does the engine contradict the stated answer (so :meth:`EditorSession.save` refuses)?"""
        return bool(self.answer_errors) and self.engine_error is None and self.puzzle is not None

    def findings(self) -> list[tuple[str, Diagnostic]]:
        """Every located finding with its severity, ``("error", d)`` or ``("warning", d)``, errors first.

        The loader's problems and a contradicted answer are errors; a reachability
        finding (``check`` prints it as ``warning:``) is a warning, and a view labels it so.
        """
        errors = [("error", d) for d in (*self.problems, *self.answer_errors)]
        warnings = [("warning", d) for d in self.answer_problems if isinstance(d, CheckWarning)]
        return errors + warnings


def _card(token: str | Card) -> Card:
    if not isinstance(token, str):
        return token
    try:
        return parse_card(token)
    except CardNotationError as err:
        raise EditorError("bad_card", token=token, reason=str(err)) from None


def split_tokens(text: str) -> list[str]:
    """Tokens typed in one field, separated by spaces or commas (ASCII or a Chinese keyboard's ，、；).

    >>> split_tokens("r10，b10、g10, fog")
    ['r10', 'b10', 'g10', 'fog']
    """
    return [t for t in re.split(r"[\s,，、；;]+", text) if t]


#: The fields of each question kind, in the order a form shows them (``puzzles/FORMAT.md``'s table).
QUESTION_FIELDS: Mapping[str, tuple[str, ...]] = {
    "claim": ("flag",),
    "claimable": (),
    "compare": ("a", "b", "first_complete", "environment"),
    "formation": ("cards", "environment"),
    "safest-flag": ("card", "flags"),
    "outs": ("flag", "formation", "side"),
}

#: What an ``outs`` question may ask for: a formation kind, strongest first, or ``sum`` on a Fog flag (R24).
OUTS_FORMATIONS = ("wedge", "phalanx", "battalion", "skirmish", "host", "sum")

_CARD_LIST_FIELDS = ("a", "b", "cards", "environment")


def question_from_form(kind: str | None, form: Mapping[str, object]) -> dict[str, Any] | None:
    """The question as a file writes it, from a form's values (text fields as typed, choices as chosen).

    Fields the kind does not have are ignored; an empty optional field is left out.

    >>> question_from_form("outs", {"flag": 3, "formation": "wedge", "side": "you", "cards": "r1"})
    {'kind': 'outs', 'flag': 3, 'formation': 'wedge'}
    >>> question_from_form("safest-flag", {"card": " r8 ", "flags": "3，7"})
    {'kind': 'safest-flag', 'card': 'r8', 'flags': [3, 7]}
    """
    if not kind:
        return None
    data: dict[str, Any] = {"kind": kind}
    for name in QUESTION_FIELDS.get(kind, ()):
        value = form.get(name)
        if name in _CARD_LIST_FIELDS:
            tokens = split_tokens(str(value or ""))
            if tokens or name in ("a", "b", "cards"):
                data[name] = tokens
        elif name == "flags":
            numbers = [int(t) if t.isdigit() else t for t in split_tokens(str(value or ""))]
            if numbers:
                data[name] = numbers
        elif name == "card":
            tokens = split_tokens(str(value or ""))
            data[name] = " ".join(tokens)
        elif name == "side":
            if value and value != "you":  # the default side is left out, as the format writes it
                data[name] = value
        elif name == "first_complete":
            if value:
                data[name] = value
        elif value is not None and value != "":
            data[name] = value
    return data


def question_form(question: object) -> dict[str, Any]:
    """A form's values for a question of a file (the reverse of :func:`question_from_form`).

    >>> question_form({"kind": "safest-flag", "card": "r8", "flags": [3, 7]})
    {'kind': 'safest-flag', 'card': 'r8', 'flags': '3 7'}
    """
    if not isinstance(question, Mapping):
        return {"kind": ""}
    form: dict[str, Any] = {"kind": question.get("kind") if question.get("kind") in QUESTION_FIELDS else ""}
    for name, value in question.items():
        if name in _CARD_LIST_FIELDS or name == "flags":
            if isinstance(value, list):
                form[name] = " ".join(str(v) for v in value)
        elif name != "kind" and value is not None:
            form[name] = value
    return form


def _cards(tokens: str | Card | Sequence[str | Card]) -> list[Card]:
    if isinstance(tokens, str):
        return [_card(t) for t in split_tokens(tokens)]
    if not isinstance(tokens, Sequence):
        return [tokens]
    return [_card(t) for t in tokens]


class EditorSession:
    """A puzzle being edited: plain file data, edits, a report after each, save.

    Make one with :meth:`new` or :meth:`open`; every edit method changes
    :attr:`data` (the puzzle as its file's plain data) and nothing else, so
    a view calls :meth:`report` after each.  Places name where cards go:
    ``("flags", n, "you"|"opponent")``, ``("discards", side)``, ``("hand", side)``.
    """

    def __init__(self, data: Mapping[str, Any] | None = None, *, text: str | None = None, path: str | None = None):
        self.data: dict[str, Any] = copy.deepcopy(dict(data or {}))
        self.original_text = text
        self.original: dict[str, Any] = copy.deepcopy(self.data)
        self.path = path
        self._report: tuple[str, str, EditorReport] | None = None

    # -- making a session
    @classmethod
    def new(cls, puzzle_id: str = "new-puzzle") -> EditorSession:
        """An empty puzzle with an id."""
        return cls({"id": puzzle_id})

    @classmethod
    def from_text(cls, text: str, path: str | None = None) -> EditorSession:
        """A session over a file's text (its data read with the safe reader; nothing is executed)."""
        try:
            root, _refused = compose(text, exact_marks=True)
        except ComposeError as err:
            raise EditorError("unreadable", file=path or "<text>", reason=err.problem or err.kind) from None
        data = plain_data(root) if root is not None else {}
        if not isinstance(data, dict) or any(not isinstance(k, str) for k in data):
            raise EditorError("unreadable", file=path or "<text>", reason="not a mapping")
        return cls(data, text=text, path=path)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> EditorSession:
        """A session over a puzzle file (a library id is accepted too)."""
        from ..quiz.library import resolve

        target = resolve(path) if not Path(path).exists() else Path(path)
        try:
            text = decode_utf8(read_limited(str(target)))
        except (OSError, ValueError) as err:  # unreadable, too big, not UTF-8: said, never a traceback
            raise EditorError("unreadable", file=str(target), reason=str(err) or type(err).__name__) from None
        return cls.from_text(text.removeprefix("\ufeff"), str(target))

    # -- what there is
    @property
    def edited(self) -> bool:
        return self.data != self.original

    def cards_at(self, place: Place) -> list[str]:
        """The card tokens at a place, as written."""
        area = self._area(place, create=False)
        return list(area) if area is not None else []

    def _area(self, place: Place, *, create: bool) -> list[Any] | None:
        if len(place) == 3 and place[0] == "flags" and place[1] in FLAGS and place[2] in _SIDES:
            flags = self.data.get("flags")
            if not isinstance(flags, dict):
                if not create:
                    return None
                flags = self.data["flags"] = {}
            entry = flags.get(place[1])
            if not isinstance(entry, dict):
                if not create:
                    return None
                entry = flags[place[1]] = {}
            if not isinstance(entry.get(place[2]), list):
                if not create:
                    return None
                entry[place[2]] = []
                flags[place[1]] = flag_entry(entry)
                entry = flags[place[1]]
            return entry[place[2]]  # type: ignore[no-any-return]
        if len(place) == 2 and place[0] in ("discards", "hand") and place[1] in _SIDES:
            areas = self.data.get(place[0])
            if not isinstance(areas, dict):
                if not create:
                    return None
                areas = self.data[place[0]] = {}
            if not isinstance(areas.get(place[1]), list):
                if not create:
                    return None
                areas[place[1]] = []
                self.data[place[0]] = {k: areas[k] for k in _SIDES if k in areas}
                areas = self.data[place[0]]
            return areas[place[1]]  # type: ignore[no-any-return]
        raise EditorError("bad_place", place=repr(place))

    def _tidy(self) -> None:
        """Drop empty card lists, flags and areas (an empty side is no side)."""
        flags = self.data.get("flags")
        if isinstance(flags, dict):
            for number in list(flags):
                entry = flags[number]
                if isinstance(entry, dict):
                    for side in _SIDES:
                        if entry.get(side) == []:
                            del entry[side]
                    if not entry:
                        del flags[number]
            if not flags and "flags" not in self.original:
                del self.data["flags"]
        for name in ("discards", "hand"):
            areas = self.data.get(name)
            if isinstance(areas, dict):
                for side in _SIDES:
                    if areas.get(side) == []:
                        del areas[side]
                if not areas:
                    del self.data[name]

    # -- edits: the position
    def add_card(self, place: Place, cards: str | Card | Sequence[str | Card]) -> None:
        """Put cards (tokens like ``"r3 b10 fog"`` or :class:`Card` values) at a place, after those there.

        A card already elsewhere is moved here (a card is in one place only).
        Raises :class:`EditorError` for a bad token (nothing changes then).
        """
        parsed = _cards(cards)
        for card in parsed:
            self._remove_everywhere(card)
        area = self._area(place, create=True)
        assert area is not None
        area += [card.notation for card in parsed]
        self._tidy()

    def remove_card(self, card: str | Card) -> bool:
        """Take a card off the table wherever it lies; False if it was nowhere."""
        found = self._remove_everywhere(_card(card))
        self._tidy()
        return found

    def _remove_everywhere(self, card: Card) -> bool:
        found = False
        for place in self.places():
            area = self._area(place, create=False)
            if area is None:
                continue
            for token in list(area):
                try:
                    same = parse_card(str(token)) == card
                except CardNotationError:
                    same = False
                if same:
                    area.remove(token)
                    found = True
        return found

    def places(self) -> list[Place]:
        """Every place a card can go."""
        out: list[Place] = [("flags", n, side) for n in FLAGS for side in _SIDES]
        return out + [(area, side) for area in ("discards", "hand") for side in _SIDES]

    def where(self, card: str | Card) -> Place | None:
        """The place a card lies, or None."""
        wanted = _card(card)
        for place in self.places():
            for token in self.cards_at(place):
                try:
                    if parse_card(str(token)) == wanted:
                        return place
                except CardNotationError:
                    continue
        return None

    def clear(self, place: Place) -> None:
        area = self._area(place, create=False)
        if area is not None:
            area.clear()
        self._tidy()

    def set_environment(self, flag: int, card: str, on: bool, side: str = "you") -> None:
        """Mark Fog or Mud on a flag (played by ``side``) or take it off (R24, R25)."""
        tactic = _card(card)
        if tactic not in (Tactic.FOG, Tactic.MUD):
            raise EditorError("not_environment", token=card)
        if on:
            self.add_card(("flags", flag, side), [tactic])
        else:
            self.remove_card(tactic)

    def _flag_mark(self, flag: int, key: str, side: str | None) -> None:
        if flag not in FLAGS or (side is not None and side not in _SIDES):
            raise EditorError("bad_place", place=repr((flag, key, side)))
        flags = self.data.setdefault("flags", {})
        entry = flags.get(flag, {})
        if side is None:
            entry.pop(key, None)
        else:
            entry[key] = side
        flags[flag] = flag_entry(entry)
        self._tidy()

    def set_first_complete(self, flag: int, side: str | None) -> None:
        """Who completed first on a flag (R11), or None."""
        self._flag_mark(flag, "first_complete", side)

    def set_claimed(self, flag: int, side: str | None) -> None:
        """Who claimed a flag (R15), or None."""
        self._flag_mark(flag, "claimed_by", side)

    def set_turn(self, side: str) -> None:
        if side not in _SIDES:
            raise EditorError("bad_place", place=repr(side))
        if side == "you" and "turn" not in self.original:
            self.data.pop("turn", None)
        else:
            self.data["turn"] = side

    # -- edits: metadata, question, answer
    def _set(self, key: str, value: Any) -> None:
        if value is None or value == [] or value == {}:
            self.data.pop(key, None)
        else:
            self.data[key] = value
        # keep the data in the format's order (new files are written in it anyway)
        self.data = {k: self.data[k] for k in sorted(self.data, key=_key_order)}

    def set_id(self, puzzle_id: str | None) -> None:
        self._set("id", puzzle_id)

    def set_text(self, key: str, lang: str, text: str | None) -> None:
        """The ``title`` or ``note`` in one language (None or empty removes it)."""
        if key not in ("title", "note"):
            raise EditorError("bad_place", place=key)
        texts = texts_by_language(self.data.get(key))
        if text:
            texts[lang] = text
        else:
            texts.pop(lang, None)
        if list(texts) == ["en"]:
            self._set(key, texts["en"])  # as the writer writes it: a plain text is English
        else:
            self._set(key, {k: texts[k] for k in sorted(texts, key=lambda k: (k != "en", k))})

    def set_level(self, level: int | None) -> None:
        self._set("level", level)

    def set_tags(self, tags: str | Sequence[str]) -> None:
        """The tags (a list, or text separated by commas or spaces)."""
        if isinstance(tags, str):
            tags = [t for t in re.split(r"[,，、\s]+", tags) if t]
        self._set("tags", list(tags))

    def set_topics(self, topics: str | Sequence[str]) -> None:
        """The topics, shown before the answer (a list, or text separated by commas or spaces)."""
        if isinstance(topics, str):
            topics = [t for t in re.split(r"[,，、\s]+", topics) if t]
        self._set("topics", list(topics))

    def set_question(self, question: Mapping[str, Any] | None) -> None:
        """The question as a file writes it: ``{"kind": "claim", "flag": 5}``, ``{"kind": "compare", "a": ...}``."""
        self._set("question", dict(question) if question else None)

    def set_question_form(self, kind: str | None, form: Mapping[str, object]) -> None:
        """The question from a form's values (:func:`question_from_form`): every kind, ``outs`` and
        ``safest-flag`` included, with cards typed as text (commas of either width separate them)."""
        self.set_question(question_from_form(kind, form))

    def set_answer(self, answer: object) -> None:
        """The author's answer (None removes it)."""
        if answer is None:
            self.data.pop("answer", None)
        else:
            self._set("answer", answer)

    def set_answer_text(self, text: str) -> None:
        """The answer as typed (``true``, ``[2, 5]``, ``a``, ``wedge``), read as safe YAML; empty removes it."""
        if not text.strip():
            self.set_answer(None)
            return
        try:
            root, refused = compose(text, exact_marks=True)
        except ComposeError:
            root, refused = None, []
        self.set_answer(text.strip() if root is None or refused else plain_data(root))

    def board_position(self) -> Position:
        """The position as it stands, for drawing: cards that do not parse are left out, nothing is checked."""

        def cards(tokens: object) -> list[Card]:
            out = []
            for token in tokens if isinstance(tokens, list) else []:
                try:
                    out.append(parse_card(str(token)))
                except CardNotationError:
                    continue
            return out

        def side(value: object) -> Side | None:
            return Side(value) if value in _SIDES else None

        flags = self.data.get("flags") if isinstance(self.data.get("flags"), dict) else {}
        states = [FlagState() for _ in FLAGS]
        for number, entry in (flags or {}).items():
            if is_flag_number(number) and isinstance(entry, dict):
                you, opponent = (tuple(cards(entry.get(s))) for s in _SIDES)
                first, claimed = side(entry.get("first_complete")), side(entry.get("claimed_by"))
                states[number - 1] = FlagState(you, opponent, first, claimed)
        areas = {
            name: {s: tuple(cards(value.get(s))) for s in _SIDES}
            for name in ("discards", "hand")
            if isinstance(value := self.data.get(name), dict)
        }
        discards, hand = areas.get("discards", {}), areas.get("hand", {})
        # the unchecked constructor: an author's half-typed position is drawn as it stands (Position.build
        # would refuse a card written twice, which the report beside the board names)
        return Position(
            flags=tuple(states),
            discards_you=discards.get("you", ()),
            discards_opponent=discards.get("opponent", ()),
            hand_you=hand.get("you", ()),
            hand_opponent=hand.get("opponent", ()),
            turn=side(self.data.get("turn")) or Side.YOU,
        )

    def use_engine_answer(self) -> None:
        """Take the engine's answer as the author's answer (when the engine has one)."""
        report = self.report()
        if report.engine_error is None and report.puzzle is not None and report.puzzle.question is not None:
            self.set_answer(report.engine_answer)

    # -- the text and the report
    def text(self) -> str:
        """The YAML that :meth:`save` writes: the original text if nothing changed, else patched or written anew."""
        if self.original_text is not None:
            if not self.edited:
                return self.original_text
            patched = patch_text(self.original_text, self.original, self.data)
            if patched is not None and self._reads_back(patched):
                return patched
            header = [line[1:].strip() for line in self.original_text.splitlines() if line.startswith("#")][:3]
            return dump_puzzle(self.data, header=header)
        return dump_puzzle(self.data)

    def _reads_back(self, text: str) -> bool:
        try:
            root, _ = compose(text, exact_marks=True)
        except ComposeError:
            return False
        return root is not None and plain_data(root) == self.data

    def report(self, lang: str = DEFAULT_LANGUAGE) -> EditorReport:
        """What the loader, the engine, the difficulty measure and a reviewer say now (cached per text)."""
        text = self.text()
        if self._report is not None and self._report[:2] == (text, lang):
            return self._report[2]
        result = self._compute(text, lang)
        self._report = (text, lang, result)
        return result

    def _compute(self, text: str, lang: str) -> EditorReport:
        name = Path(self.path).name if self.path else f"{self.data.get('id', 'puzzle')}.yaml"
        try:
            puzzle = load_puzzle_text(text, name, lang=lang)
        except PuzzleFileError as err:
            return EditorReport(problems=tuple(err.diagnostics))
        warnings: list[Finding] = []
        key = review_key(puzzle)
        same = library_keys().get(key)
        if same is not None and same != puzzle.id:
            warnings.append(Finding("same_position" if key[0] == "position" else "same_puzzle", (("id", same),)))  # type: ignore[index]
        if puzzle.question is None:
            return EditorReport(puzzle=puzzle, warnings=tuple(warnings))
        try:
            answer = puzzle.question.solve(puzzle.position)
            proof = puzzle.question.explain(puzzle.position)
            difficulty = estimate(puzzle.position, puzzle.question)
        except (UndecidedTieError, ValueError) as err:
            return EditorReport(puzzle=puzzle, engine_error=str(err), warnings=tuple(warnings))
        kind = puzzle.question.kind
        if "answer" not in puzzle.marks:
            warnings.append(Finding("no_answer", (("answer", _answer_text(answer)),)))
        tag = tag_gives_away(kind, answer, puzzle.tags)
        if tag is not None:
            warnings.append(Finding("tag_gives_away", (("tag", tag),)))
        title_lang = title_states(kind, answer, puzzle.title)
        if title_lang is not None:
            warnings.append(Finding("title_states", (("title", puzzle.title[title_lang]),)))
        if puzzle.level is not None and abs(puzzle.level - difficulty.level) >= 2:
            warnings.append(Finding("level_far", (("level", puzzle.level), ("estimate", difficulty.level))))
        # the one check `battleline-lab check` runs: the answer, and whether the position can arise
        checked = check_puzzle(puzzle, name, lang=lang)
        answer_problems = tuple(d for d in checked if "answer" in puzzle.marks or isinstance(d, CheckWarning))
        return EditorReport(
            puzzle=puzzle,
            engine_answer=answer,
            proof=proof,
            difficulty=difficulty,
            answer_problems=answer_problems,
            warnings=tuple(warnings),
        )

    # -- saving
    def save(self, path: str | os.PathLike[str] | None = None, *, force: bool = False) -> Path:
        """Write :meth:`text` to ``path`` (default: the file it was opened from) atomically.

        Refuses (:class:`EditorError`) an existing file (``exists``) unless ``force=True``;
        a puzzle the loader refuses (``not_loadable``): a saved file always loads; a
        stated answer the engine contradicts (``wrong_answer``, with the engine's answer:
        :meth:`use_engine_answer` takes it), so a saved file always passes ``check``; and a
        copy of an opened file under the same id (``copy_same_id``: :meth:`save_as` gives
        the copy a new id), so a copy never clashes with its original.
        """
        target = Path(path) if path is not None else (Path(self.path) if self.path else None)
        if target is None:
            raise EditorError("no_path")
        report = self.report()
        if report.problems:
            raise EditorError("not_loadable", count=len(report.problems))
        if report.answer_contradicted:
            raise EditorError(
                "wrong_answer",
                stated=_answer_text(self.data.get("answer")),
                answer=_answer_text(report.engine_answer),
            )
        if self.is_copy(target) and self.data.get("id") == self.original.get("id"):
            raise EditorError("copy_same_id", id=str(self.data.get("id")), suggestion=self.suggest_id(target.parent))
        text = self.text()
        atomic_write(target, text, force=force)
        self.path = str(target)
        self.original_text = text
        self.original = copy.deepcopy(self.data)
        return target

    def is_copy(self, target: str | os.PathLike[str]) -> bool:
        """Would writing ``target`` make a second file of an opened puzzle (not the file it came from)?"""
        if self.path is None or self.original_text is None:
            return False
        try:
            return Path(target).resolve() != Path(self.path).resolve()
        except OSError:  # pragma: no cover - an unresolvable path is another file
            return True

    def suggest_id(self, folder: str | os.PathLike[str] | None = None) -> str:
        """A new id for a copy: the id with ``-2``, ``-3``, ... that no library puzzle and no file in ``folder`` has."""
        base = re.sub(r"-\d+$", "", str(self.data.get("id") or "puzzle")) or "puzzle"
        taken = set(library_ids()) | {str(self.original.get("id"))}
        if folder is not None and Path(folder).is_dir():
            taken |= set(folder_ids(Path(folder)))
        n = 2
        while f"{base}-{n}" in taken:
            n += 1
        return f"{base}-{n}"

    def save_as(self, path: str | os.PathLike[str], puzzle_id: str | None = None, *, force: bool = False) -> Path:
        """Save a copy under a new id (``puzzle_id``; default :meth:`suggest_id`): the copy never clashes.

        Refuses (``copy_same_id``) the id of the original, and an id a library
        puzzle or another file of the target folder already has (``id_taken``).
        """
        target = Path(path)
        new_id = (puzzle_id or "").strip() or self.suggest_id(target.parent)
        original_id = str(self.original.get("id")) if self.original_text is not None else None
        if new_id == original_id and self.is_copy(target):
            raise EditorError("copy_same_id", id=new_id, suggestion=self.suggest_id(target.parent))
        owner = folder_ids(target.parent, skip=target).get(new_id) if target.parent.is_dir() else None
        if owner is None and new_id in library_ids() and not self._is_library_file(target):
            owner = "library"
        if owner is not None:
            raise EditorError("id_taken", id=new_id, owner=owner, suggestion=self.suggest_id(target.parent))
        previous = self.data.get("id")
        self.set_id(new_id)
        try:
            return self.save(target, force=force)
        except EditorError:
            self.set_id(previous)
            raise

    @staticmethod
    def _is_library_file(target: Path) -> bool:
        from ..quiz import library

        try:
            return target.resolve().is_relative_to(library.root().resolve())
        except OSError:  # pragma: no cover
            return False


def _key_order(key: str) -> int:
    return TOP_LEVEL_KEYS.index(key) if key in TOP_LEVEL_KEYS else len(TOP_LEVEL_KEYS)


def _answer_text(answer: object) -> str:
    if isinstance(answer, bool):
        return "true" if answer else "false"
    if isinstance(answer, list):
        return "[" + ", ".join(str(a) for a in answer) + "]"
    return str(answer)
