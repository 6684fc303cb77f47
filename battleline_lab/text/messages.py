"""The message catalogue: every user-facing string, per language.

Proofs and problems are data; this module turns them into text.  Catalogues are
JSON files in ``battleline_lab/locale/<lang>/`` (one file per layer; another
language adds a folder with the same keys).  :func:`message` looks a key up and fills its
placeholders; :func:`render_analysis` writes a claim proof as numbered lines.

>>> message("kind.wedge")
'Wedge'
>>> from battleline_lab.core.cards import parse_card
>>> card_label(parse_card("b8"))
'blue 8, Heavy Cavalry'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol

from ..core.cards import Card, CardNotationError, Colour, Tactic, Troop
from ..core.claims import ClaimAnalysis, Reason, Step
from ..core.formations import Formation, FormationKind, Shape
from ..core.position import Location, Position, Problem, Side
from .show import SHOWN_CHARS, closest, escape_control, show_value

if TYPE_CHECKING:  # the question layer sits above the text layer: no import at run time
    from ..quiz.questions import Comparison, Question

__all__ = [
    "where_text",
    "Bound",
    "Joined",
    "KindArticle",
    "LANGUAGES",
    "CLASSIC",
    "Msg",
    "PLURAL_CATEGORIES",
    "THEMES",
    "Theme",
    "bound",
    "card_label",
    "card_short",
    "cards_text",
    "catalogue",
    "comparison_why",
    "first_complete_note",
    "formation_text",
    "kind_name",
    "message",
    "plural_category",
    "render_analysis",
    "render_comparison",
    "render_deciding_step",
    "render_msg",
    "render_problem",
    "render_step",
    "rule_msg",
    "rule_text",
    "Scoped",
    "scoped",
    "shape_name",
    "shapes_name",
    "theme_of",
    "themed",
    "topic_name",
]

#: Languages with a catalogue folder ``locale/<lang>/`` (every one holds the same keys: tests/test_i18n.py).
LANGUAGES = ("en", "zh")
DEFAULT_LANGUAGE = "en"


@cache
def catalogue(lang: str = DEFAULT_LANGUAGE) -> Mapping[str, str]:
    """All messages of a language, key -> template.

    A language is a folder ``locale/<lang>/`` of JSON files, one per layer
    (``core.json`` for proofs and problems, others for the loader, CLI,
    widgets...); their keys are merged and must not clash.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; available: {', '.join(LANGUAGES)}")
    folder = resources.files("battleline_lab").joinpath("locale").joinpath(lang)
    data: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        part: dict[str, str] = json.loads(entry.read_text(encoding="utf-8"))
        clash = data.keys() & part.keys()
        if clash:
            raise ValueError(f"message keys defined twice in locale/{lang}: {sorted(clash)}")
        data.update(part)
    return data


#: The plural categories each language distinguishes (CLDR): English ``one``/``other``, Chinese ``other`` only.
PLURAL_CATEGORIES: Mapping[str, tuple[str, ...]] = {"en": ("one", "other"), "zh": ("other",)}


def plural_category(lang: str, count: int) -> str:
    """The plural form ``count`` takes in ``lang``: ``one`` or ``other`` (CLDR rules for integers).

    >>> plural_category("en", 1), plural_category("en", 2), plural_category("zh", 1)
    ('one', 'other', 'other')
    """
    if lang == "en" and count == 1:
        return "one"
    return "other"


#: The themes (display only: the names of cards, never their ids or the notation), ``locale/<lang>/theme-<name>.json``.
THEMES = ("classic", "chuhan")


@dataclass(frozen=True)
class Theme:
    """A display theme, chosen by name: ``classic`` (Alexander and Darius) or ``chuhan`` (the FreeKill
    version's 楚汉 skin in the seeds: 刘邦 and 项羽 as the two Leaders; Liu Bang and Xiang Yu in English).

    A theme only renames: its catalogue entries ``theme.<name>.<key>`` (``locale/<lang>/theme-<name>.json``)
    are said instead of ``<key>``. The engine's card ids (``alexander``, ``darius``), the notation and the
    puzzle files never change.

    >>> Theme("chuhan").title("zh"), Theme.named("classic") == CLASSIC
    ('楚汉', True)
    >>> Theme("napoleon")
    Traceback (most recent call last):
    ValueError: unknown theme 'napoleon'; available: classic, chuhan
    """

    name: str = "classic"

    def __post_init__(self) -> None:
        if self.name not in THEMES:
            raise ValueError(f"unknown theme {self.name!r}; available: {', '.join(THEMES)}")

    @classmethod
    def named(cls, theme: Theme | str | None) -> Theme:
        """A theme from its name (``None`` is the classic one)."""
        if isinstance(theme, Theme):
            return theme
        return CLASSIC if theme is None else cls(theme)

    def title(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The theme's name as a learner reads it (``classic`` / ``经典``, ``Chu-Han`` / ``楚汉``)."""
        return message(f"theme.title.{self.name}", lang)


CLASSIC = Theme()


class _ThemedLanguage(str):
    """A language code that carries a theme: equal to (and hashed as) its plain code, so every
    ``lang == "zh"`` and catalogue lookup behaves as before, while :func:`message` reads the theme.
    It travels wherever ``lang`` is passed down (proofs, boards, widgets, CLI output)."""

    theme: str

    def __new__(cls, lang: str, theme: str) -> _ThemedLanguage:
        made = super().__new__(cls, lang)
        made.theme = theme
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (_ThemedLanguage, (str(self), self.theme))


def themed(lang: str, theme: Theme | str | None) -> str:
    """``lang`` with ``theme`` (a :class:`Theme`, its name, or ``None`` to keep ``lang``'s own).

    What a renderer's ``theme=`` parameter does: the result is still ``lang`` for every
    comparison, but the texts are said in the theme.

    >>> from battleline_lab.core.cards import parse_card
    >>> lang = themed("zh", "chuhan")
    >>> lang == "zh", theme_of(lang).name, card_short(parse_card("alexander"), lang)
    (True, 'chuhan', '刘邦')
    >>> theme_of(themed(lang, None)).name, theme_of(themed(lang, "classic")).name
    ('chuhan', 'classic')
    """
    if theme is None:
        return lang
    name = Theme.named(theme).name
    if name == CLASSIC.name:
        return str(lang) if isinstance(lang, _ThemedLanguage) else lang
    return _ThemedLanguage(lang, name)


def theme_of(lang: str) -> Theme:
    """The theme a language code carries (:data:`CLASSIC` for a plain code)."""
    return Theme(getattr(lang, "theme", CLASSIC.name))


def message(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    """The text for ``key`` with its placeholders filled.

    A key with plural forms has no entry of its own but one per plural category,
    ``key.one`` and ``key.other`` in English, ``key.other`` in Chinese; the form is
    chosen by the ``count`` parameter:

    >>> message("words.puzzles", count=1), message("words.puzzles", count=3), message("words.puzzles", "zh", count=1)
    ('1 puzzle', '3 puzzles', '1道谜题')
    """
    texts = catalogue(lang)
    theme = getattr(lang, "theme", None)
    template = texts.get(f"theme.{theme}.{key}") if theme is not None else None
    if template is None:
        template = texts.get(key)
    if template is None:
        if f"{key}.other" not in texts:
            raise KeyError(key)
        if "count" not in params:
            raise TypeError(f"message {key!r} has plural forms: pass count=")
        template = texts.get(f"{key}.{plural_category(lang, int(params['count']))}", texts[f"{key}.other"])
    return template.format(**params) if params else template


class Scoped(Protocol):
    """A :func:`message` lookup under one key prefix (see :func:`scoped`)."""

    def __call__(self, key: str, lang: str = DEFAULT_LANGUAGE, /, **params: Any) -> str: ...


def scoped(prefix: str) -> Scoped:
    """The one message helper: ``message(f"{prefix}.{key}", lang, **params)`` as a function.

    A module that reads its texts under one prefix says ``_m = scoped("odds")`` once, instead of
    writing its own lookup (they used to differ in signature from module to module).

    >>> _m = scoped("words")
    >>> _m("puzzles", "en", count=2), _m("puzzles", "zh", count=2)
    ('2 puzzles', '2道谜题')
    """

    def lookup(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
        return message(f"{prefix}.{key}", lang, **params)

    return lookup


class Bound(Protocol):
    """A :func:`message` lookup in one language (see :func:`bound`)."""

    def __call__(self, key: str, /, **params: Any) -> str: ...


def bound(lookup: Scoped, lang: str) -> Bound:
    """``lookup`` (:func:`message` itself, or a :func:`scoped` one) said in ``lang``: the same helper
    for an object that holds its language, such as a widget drawing in ``self.lang``.

    >>> t = bound(message, "zh")
    >>> t("words.puzzles", count=2), bound(scoped("words"), "en")("puzzles", count=1)
    ('2道谜题', '1 puzzle')
    """

    def lookup_in(key: str, /, **params: Any) -> str:
        return lookup(key, lang, **params)

    return lookup_in


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def card_label(card: Card, lang: str = DEFAULT_LANGUAGE, *, theme: Theme | str | None = None) -> str:
    """A card for screen readers and tooltips: ``blue 8, Heavy Cavalry``; a Leader in ``theme``'s name."""
    lang = themed(lang, theme)
    if isinstance(card, Troop):
        return message(
            "card.label",
            lang,
            colour=message(f"colour.{card.colour.letter}", lang),
            value=card.value,
            name=message(f"troop.{card.value}", lang),
        )
    return message(f"tactic.{card.value}", lang)


def card_short(card: Card, lang: str = DEFAULT_LANGUAGE, *, theme: Theme | str | None = None) -> str:
    """A card inside a sentence: the notation in English (``b8``), ``蓝8`` in Chinese.

    >>> from battleline_lab.core.cards import parse_card
    >>> card_short(parse_card("b8")), card_short(parse_card("b8"), "zh"), card_short(parse_card("alexander"), "zh")
    ('b8', '蓝8', '亚历山大')
    >>> card_short(parse_card("darius"), "zh", theme="chuhan"), card_short(parse_card("darius"), theme="chuhan")
    ('项羽', 'darius')
    """
    lang = themed(lang, theme)
    if isinstance(card, Troop):
        colour = message(f"colour.{card.colour.letter}", lang)
        return message("card.short", lang, notation=card.notation, colour=colour, value=card.value)
    return message("card.short.tactic", lang, notation=card.notation, name=message(f"tactic.{card.value}", lang))


def cards_text(cards: Iterable[Card], lang: str = DEFAULT_LANGUAGE, *, theme: Theme | str | None = None) -> str:
    """Cards inside a sentence, joined the language's way: ``r3, r4 and r5`` / ``红3、红4和红5``."""
    lang = themed(lang, theme)
    return _join([card_short(c, lang) for c in cards], lang)


def topic_name(word: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """A topic or tag as a learner reads it (``tie-rule`` -> ``tie rule`` / ``平手规则``); unknown words as written.

    >>> topic_name("counterexample", "zh"), topic_name("my-own-tag")
    ('反例', 'my-own-tag')
    """
    key = f"topic.{word}"
    return message(key, lang) if key in catalogue(lang) else word


def kind_name(kind: FormationKind | None, lang: str = DEFAULT_LANGUAGE) -> str:
    """``Wedge``, ``Battalion Order``, ...; ``sum`` under Fog."""
    return message(f"kind.{'sum' if kind is None else kind.key}", lang)


def _article(name: str, lang: str) -> str:
    """``a Wedge`` / ``an Host`` in English; the catalogue decides (Chinese uses no article: ``楔形阵``)."""
    article = "article.an" if name[:1].lower() in "aeiou" else "article.a"
    return message(article, lang, kind=name)


def _kind_a(kind: FormationKind | None, lang: str) -> str:
    return _article(kind_name(kind, lang), lang)


def shape_name(shape: Shape, size: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """``blue Wedge 6-7-8``, ``Phalanx of 8s``, ``green Battalion Order``."""
    kind = "sum" if shape.kind is None else shape.kind.key
    run = "-".join(str(v) for v in shape.run(size)) if shape.start is not None else ""
    colour = message(f"colour.{shape.colour.letter}", lang) if shape.colour is not None else ""
    return message(f"shape.{kind}", lang, colour=colour, run=run, value=shape.value)


def shapes_name(shapes: tuple[Shape, ...], size: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """Several shapes of one kind said at once: ``blue Wedge 6-7-8, 7-8-9 or 8-9-10``.

    >>> from battleline_lab.core.cards import Colour
    >>> w = FormationKind.WEDGE
    >>> shapes_name((Shape(w, Colour.BLUE, start=8), Shape(w, Colour.BLUE, start=7)), 3)
    'blue Wedge 8-9-10 or 7-8-9'
    >>> shapes_name((Shape(w, Colour.RED, start=8), Shape(w, Colour.BLUE, start=8)), 3, "zh")
    '红或蓝色楔形阵（8-9-10）'
    >>> shapes_name(tuple(Shape(w, c, start=s) for s in (8, 7) for c in Colour), 3)
    'Wedge 8-9-10 or 7-8-9 of any colour'
    """
    kind = shapes[0].kind
    if kind is None or len(shapes) == 1 or any(s.colour is None or s.start is None for s in shapes):
        return _join([shape_name(s, size, lang) for s in shapes], lang, "list.or")
    name = kind_name(kind, lang)
    runs_of: dict[Colour, list[int]] = {}
    for s in shapes:
        assert s.colour is not None and s.start is not None
        runs_of.setdefault(s.colour, []).append(s.start)

    def runs(starts: list[int]) -> str:
        return _join(["-".join(str(v) for v in range(a, a + size)) for a in starts], lang, "list.or")

    if len({tuple(r) for r in runs_of.values()}) == 1:  # every colour with the same runs
        starts = next(iter(runs_of.values()))
        if len(runs_of) == len(Colour):
            return message("shapes.any_colour", lang, kind=name, runs=runs(starts))
        colours = _join([message(f"colour.{c.letter}", lang) for c in runs_of], lang, "list.or")
        return message("shapes.colour", lang, colour=colours, kind=name, runs=runs(starts))
    parts = [
        message("shapes.colour", lang, colour=message(f"colour.{c.letter}", lang), kind=name, runs=runs(r))
        for c, r in runs_of.items()
    ]
    return _join([_article(p, lang) for p in parts[:1]] + parts[1:], lang, "list.or")


def _join(items: list[str], lang: str, last: str = "list.and", sep: str = "list.sep") -> str:
    if not items:
        return message("list.empty", lang)
    if len(items) == 1:
        return items[0]
    return message(sep, lang).join(items[:-1]) + message(last, lang) + items[-1]


def _cards(cards: Iterable[Card], lang: str) -> str:
    return cards_text(cards, lang)


def _possessive(side: Side, lang: str) -> str:
    return message(f"side.{side.value}.possessive", lang)


def _where(where: Iterable[tuple[Card, Location]], lang: str) -> str:
    """Where visible cards lie, cards in the same place said together: ``o7 and o9 are in your discards``."""
    places: dict[Location, list[Card]] = {}
    for card, loc in where:
        places.setdefault(loc, []).append(card)
    parts = []
    for loc, cards in places.items():
        key = f"where.{loc.area}" if len(cards) == 1 else f"where.{loc.area}.many"
        parts.append(message(key, lang, card=_cards(cards, lang), flag=loc.flag, side=_possessive(loc.side, lang)))
    return _join(parts, lang, "where.and", "where.sep")  # clauses: Chinese separates them with ；


def where_text(where: Iterable[tuple[Card, Location]], lang: str = DEFAULT_LANGUAGE) -> str:
    """Where face-up cards lie, in a sentence: ``g4 is on flag 6 (the opponent's side)``."""
    return _where(where, lang)


def _wild(wild: Iterable[tuple[Card, Troop]], lang: str) -> str:
    items = [message("wild.as", lang, card=card_label(c, lang), troop=card_short(t, lang)) for c, t in wild]
    return message("wild.note", lang, items=message("list.sep", lang).join(items)) if items else ""


def _sides(side: Side, lang: str) -> dict[str, str]:
    me = message(f"side.{side.value}", lang)
    them = message(f"side.{side.other.value}", lang)
    my = _possessive(side, lang)
    their = _possessive(side.other, lang)
    return {
        "me": me,
        "Me": _cap(me),
        "them": them,
        "Them": _cap(them),
        "my": my,
        "My": _cap(my),
        "their": their,
        "Their": _cap(their),
    }


def _step_key(step: Step) -> str:
    """The catalogue key for a step: ``step.<reason>`` and a variant where the wording differs."""
    reason = step.reason
    key = f"step.{reason.value}"
    if reason in (Reason.YOUR_FORMATION, Reason.THEIR_FORMATION, Reason.COUNTEREXAMPLE) and step.kind is None:
        return key + ".fog"
    if reason is Reason.TIE_FIRST_COMPLETE and step.kind is None:
        return key + ".fog"
    if reason in (Reason.YOU_ARE_STRONGER, Reason.THEY_ARE_STRONGER) and step.other_total is not None:
        if step.kind is None:
            return key + ".fog"
        return key + (".sum" if step.kind is step.other_kind else ".kind")
    if reason is Reason.HAND_NOT_EVIDENCE and step.needed:
        return key + ".counterexample"
    if reason is Reason.UNSEEN:
        return key + (".hand" if step.cards else "")
    if reason is Reason.KIND_TOO_WEAK:
        return key + (".best" if step.shape is not None else "") + (".others" if step.count else "")
    if reason is Reason.KIND_RULED_OUT and len(step.kinds) > 1:
        return key + ".many"
    if reason is Reason.AT_BEST_TIE and step.shape is not None:
        if step.shape.kind is FormationKind.HOST:
            return key + ".shape.host"  # a Host has one shape: no need to name it
        return key + ".shape" + (".fog" if step.kind is None else ".others" if step.count else "")
    if reason is Reason.SHAPE_BLOCKED and len(step.shapes) > 1:
        return key + ".group" + (".many" if len(step.where) > _BLOCKERS_NAMED else "")
    if reason is Reason.SHAPE_TOO_WEAK and len(step.shapes) > 1:
        return key + ".group"
    if reason is Reason.SHAPE_BLOCKED and step.wild:
        return key + ".wild"
    if reason is Reason.SHAPE_SHORT:
        kind = step.kind.key if step.kind is not None else "host"
        if kind in ("phalanx", "battalion") and step.available == 0:
            return f"{key}.{kind}.none"
        return f"{key}.{kind}"
    return key


#: A grouped step names at most this many blocking cards in its sentence; more are only shown where they lie.
_BLOCKERS_NAMED = 4


def render_step(step: Step, lang: str = DEFAULT_LANGUAGE, *, my_total: int | None = None, size: int = 3) -> str:
    """One proof step as a sentence (without number or rule id)."""
    params: dict[str, Any] = dict(_sides(step.side, lang))

    def word(key: str) -> str:
        return message(f"word.{key}", lang)

    params.update(
        flag=step.flag,
        cards=_cards(step.cards, lang),
        needed=_cards(step.needed, lang),
        where=_where(step.where, lang),
        total=step.total,
        count=step.count,
        available=step.available,
        size=step.size if step.size is not None else size,
        value=step.value,
        my_total=my_total,
        wild=_wild(step.wild, lang),
        kind=kind_name(step.kind, lang),
        kind_a=_kind_a(step.kind, lang),
        rule=message(f"kind.{step.kind.key}.rule", lang) if step.kind is not None else "",
        cards_word=word("card") if step.count == 1 else word("cards"),
        is_are=word("is") if len(step.cards) == 1 else word("are"),
        come=word("comes") if len(step.needed) == 1 else word("come"),
        available_is=word("is") if step.available == 1 else word("are"),
        have=(step.size or size) - (step.count or 0),
        cards_plus=_cards(step.cards + tuple(step.needed), lang),
    )
    if step.shape is not None:
        params["shape"] = shape_name(step.shape, size, lang)
        params["a_shape"] = _article(params["shape"], lang)
        params["A_shape"] = _cap(params["a_shape"])
        if step.shape.colour is not None:
            params["colour"] = message(f"colour.{step.shape.colour.letter}", lang)
    if step.reason is Reason.UNSEEN:
        params.update(on_flags=step.total, in_discards=step.available)
        counted = "unseen.counted" if step.available else "unseen.counted.flags"
        params["counted"] = message(counted, lang, on_flags=step.total, in_discards=step.available, count=step.count)
    if step.shapes:
        params["shapes"] = shapes_name(step.shapes, size, lang)
        params["A_shapes"] = _cap(_article(params["shapes"], lang))
        params["blockers"] = _join([card_short(c, lang) for c, _ in step.where], lang, "list.or")
        params["even_wild"] = message("wild.even", lang, their=params["their"]) if step.count else ""
    if step.reason is Reason.KIND_RULED_OUT and len(step.kinds) > 1:
        items = [
            message("ruled.item", lang, kind_a=_kind_a(k, lang), rule=message(f"kind.{k.key}.rule", lang))
            for k in step.kinds
        ]
        params["kinds_rules"] = _join(items, lang, "list.or")
    if step.reason is Reason.SHAPE_BLOCKED:
        params["wild_help"] = _wild_help(step, lang)
    if step.reason is Reason.LOWER_KINDS:
        params["Kinds"] = _cap(_join([_kind_a(k, lang) for k in step.kinds], lang, "list.or"))
    if step.other_total is not None:
        params.update(other_kind=kind_name(step.other_kind, lang), other_total=step.other_total)
    if step.other is not None:
        params["other"] = message(f"side.{step.other.value}", lang)
        params["first_who"] = message(f"side.{step.other.value}", lang)
        params["First_who"] = _cap(params["first_who"])
    return message(_step_key(step), lang, **params)


def _wild_help(step: Step, lang: str) -> str:
    if not step.count:
        return ""
    return message("wild.help", lang, count=step.count)


def render_analysis(
    analysis: ClaimAnalysis, lang: str = DEFAULT_LANGUAGE, *, theme: Theme | str | None = None
) -> list[str]:
    """The proof as numbered lines, each ending in the rule it rests on (Leaders named in ``theme``)."""
    lang = themed(lang, theme)
    my_total = analysis.formation.total if analysis.formation is not None else None
    size = 4 if any(s.reason is Reason.MUD for s in analysis.steps) else 3
    lines = []
    for number, step in enumerate(analysis.steps, 1):
        text = render_step(step, lang, my_total=my_total, size=size)
        lines.append(message("step.line", lang, number=number, text=text, rule=step.rule))
    return lines


def render_deciding_step(analysis: ClaimAnalysis, lang: str = DEFAULT_LANGUAGE) -> str:
    """The sentence of the step the verdict turns on (:meth:`ClaimAnalysis.deciding_step`), for a one-line summary.

    >>> from battleline_lab.core.claims import analyse_claim
    >>> from battleline_lab.core.position import Position
    >>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
    >>> print(render_deciding_step(analyse_claim(pos, 5, "you")))  # doctest: +NORMALIZE_WHITESPACE
    A blue Wedge 8-9-10, 7-8-9 or 6-7-8 would need b7 or b10,
    but b7 is on flag 2 (your side) and b10 is on flag 2 (the opponent's side).
    """
    my_total = analysis.formation.total if analysis.formation is not None else None
    size = 4 if any(s.reason is Reason.MUD for s in analysis.steps) else 3
    return render_step(analysis.deciding_step(), lang, my_total=my_total, size=size)


#: Problems with what was written (by :meth:`Position.build`, the analyses' arguments) -> the catalogue key
#: the puzzle loader says the same mistake in a file with: one wording for both.
INPUT_MESSAGES: Mapping[str, str] = {
    "bad_flag_number": "load.bad_flag_number",
    "duplicate_key": "load.duplicate_key",
    "unknown_key": "load.unknown_key",
    "bad_choice": "load.bad_choice",
    "expected_mapping": "load.expected_mapping",
    "expected_cards": "load.expected_cards",
    "card_not_text": "load.card_not_text",
    "bad_flag": "question.error.bad_flag",
}


def card_error_text(err: CardNotationError, lang: str = DEFAULT_LANGUAGE) -> str:
    """A bad card token in ``lang`` (cards.py, below the catalogue, says it in English)."""
    if err.reason == "not_text":
        return str(err)
    reason = message(f"load.card_reason.{err.reason}", lang) if err.reason else ""
    hint = message("load.did_you_mean", lang, suggestion=err.suggestion) if err.suggestion else ""
    token = err.token if len(err.token) <= SHOWN_CHARS else err.token[: SHOWN_CHARS - 3] + "..."
    return message("load.unknown_card", lang, token=repr(token), reason=reason, hint=hint)


def _render_input(problem: Problem, lang: str) -> str:
    """A problem with what was written, in the loader's words for the same mistake in a file."""
    params = dict(problem.params)
    if problem.code == "unknown_card":
        error = CardNotationError(params["token"], "", reason=params["reason"])
        error.suggestion = params["suggestion"]
        return escape_control(card_error_text(error, lang))
    if problem.code == "unknown_key":
        key = params["key"]
        close = closest(key.lower(), params["choices"]) if isinstance(key, str) else None
        hint = message("load.did_you_mean", lang, suggestion=close) if close else ""
        return message("load.unknown_key", lang, key=show_value(key), hint=hint)
    if problem.code == "bad_choice":
        choices = params["choices"]
        close = closest(params["value"].lower(), choices) if isinstance(params["value"], str) else None
        hint = message("load.did_you_mean", lang, suggestion=close) if close else ""
        shown = {"what": params["what"], "value": show_value(params["value"]), "choices": ", ".join(choices)}
        return message("load.bad_choice", lang, **shown) + hint
    if problem.code == "bad_flag":
        return message("question.error.bad_flag", lang, flag=show_value(params["flag"]))
    shown = {name: value if name == "what" else show_value(value) for name, value in params.items()}
    return message(INPUT_MESSAGES[problem.code], lang, **shown)


def render_problem(problem: Problem, lang: str = DEFAULT_LANGUAGE) -> str:
    """A position problem as an error message (without file and line)."""
    if problem.code in INPUT_MESSAGES or problem.code == "unknown_card":
        return _render_input(problem, lang)
    params: dict[str, Any] = {}
    for name, value in problem.params:
        if isinstance(value, (Troop, Tactic)):
            value = card_short(value, lang)
        elif isinstance(value, Side):
            value = message(f"side.{value.value}", lang)
        elif name == "first" and isinstance(value, tuple):
            value = _path_text(value, lang)
        params[name] = value
    if problem.code == "too_many_cards":
        params["mud_rule"] = ", R25" if params.get("mud") else ""
    return message(f"problem.{problem.code}", lang, **params)


def _path_text(path: tuple[Any, ...], lang: str) -> str:
    """Where a card of a position is, from a problem path: ``flag 5, you`` / ``5号旗你的一侧``."""
    if path and path[0] == "flags" and len(path) >= 3 and path[2] in ("you", "opponent"):
        return message("path.flag", lang, flag=path[1], side=message(f"path.side.{path[2]}", lang))
    if path and path[0] in ("discards", "hand") and len(path) >= 2 and path[1] in ("you", "opponent"):
        return message(f"path.{path[0]}", lang, side=message(f"path.side.{path[1]}", lang))
    return ".".join(str(p) for p in path)


# -- messages as data: what a question kind says, rendered here ----------------------------------


@dataclass(frozen=True)
class Msg:
    """A message as data: a catalogue key and its parameters, rendered by :func:`render_msg`.

    Question kinds say what they say this way (a wrong answer's feedback, a choice's
    label, the tie note), so the model never holds text and every language renders it.
    A parameter may be a card or cards, a :class:`~battleline_lab.core.position.Side`
    (``side=`` fills ``me``/``Me``/``my``/``My``/``them``/``Them``), a formation kind,
    a claim analysis (the step its verdict turns on), another :class:`Msg` or a
    :class:`Joined` list of them.

    >>> from battleline_lab.core.position import Side
    >>> render_msg(Msg.of("widget.question.claim", me=Side.YOU, flag=5))
    'Can you claim flag 5 now?'
    >>> render_msg(Msg.of("widget.question.claim", me=Side.YOU, flag=5), "zh")
    '你现在能宣称夺取5号旗吗？'
    """

    key: str
    params: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, key: str, /, **params: object) -> Msg:
        """``Msg.of("key", flag=5)``: the parameters as keywords."""
        return cls(key, tuple(params.items()))


@dataclass(frozen=True)
class Joined:
    """Several messages in a row, separated by the message ``sep`` (a key; a space when empty)."""

    items: tuple[Msg, ...]
    sep: str = ""


@dataclass(frozen=True)
class KindArticle:
    """A formation kind with its article (``a Wedge``, ``an Host``; none in Chinese), capitalised if asked."""

    kind: FormationKind
    capital: bool = False


def _sides_params(side: Side, lang: str) -> dict[str, str]:
    me, them = message(f"side.{side.value}", lang), message(f"side.{side.other.value}", lang)
    my = message(f"side.{side.value}.possessive", lang)
    return {"me": me, "Me": _cap(me), "my": my, "My": _cap(my), "them": them, "Them": _cap(them)}


def _param_text(value: object, lang: str) -> object:
    if isinstance(value, Msg):
        return render_msg(value, lang)
    if isinstance(value, Joined):
        sep = message(value.sep, lang) if value.sep else " "
        return sep.join(render_msg(m, lang) for m in value.items)
    if isinstance(value, (Troop, Tactic)):
        return card_short(value, lang)
    if isinstance(value, tuple) and value and all(isinstance(c, (Troop, Tactic)) for c in value):
        return message("widget.card_sep", lang).join(card_short(c, lang) for c in value)
    if isinstance(value, Side):
        return message(f"side.{value.value}", lang)
    if isinstance(value, FormationKind):
        return kind_name(value, lang)
    if isinstance(value, KindArticle):
        text = _article(kind_name(value.kind, lang), lang)
        return _cap(text) if value.capital else text
    if isinstance(value, ClaimAnalysis):
        return render_deciding_step(value, lang)
    return value


def render_msg(msg: Msg, lang: str = DEFAULT_LANGUAGE) -> str:
    """The text of a :class:`Msg` in ``lang``; a missing ``trainer.rule.<id>`` says ``rule <id>``."""
    params: dict[str, Any] = {}
    for name, value in msg.params:
        if name == "side" and isinstance(value, Side):
            params.update(_sides_params(value, lang))
        else:
            params[name] = _param_text(value, lang)
    if msg.key.startswith("trainer.rule.") and msg.key not in catalogue(lang):
        return message("trainer.rule.fallback", lang, rule=msg.key.rsplit(".", 1)[-1])
    return message(msg.key, lang, **params)


def rule_msg(rule: str) -> Msg:
    """The sentence naming the rule a wrong answer missed: ``What decides it: ... (R11).``"""
    return Msg.of("feedback.rule", rule=rule, text=Msg(f"trainer.rule.{rule}"))


def formation_text(cards: Iterable[Card], formation: Formation, lang: str = DEFAULT_LANGUAGE) -> str:
    """A formation in one line: ``r7 g7 b7: Phalanx (same value), sum 21.`` (wildcards as what they stand for)."""
    cards_text = " ".join(card_short(c, lang) for c in cards)
    wild = message("list.sep", lang).join(
        message("formation.wild", lang, card=card_short(card, lang), troop=card_short(troop, lang))
        for card, troop in formation.wild
    )
    wild_text = message("formation.wild.note", lang, items=wild) if wild else ""
    if formation.kind is None:
        return message("formation.text.fog", lang, cards=cards_text, total=formation.total, wild=wild_text)
    return message(
        "formation.text.kind",
        lang,
        cards=cards_text,
        kind=kind_name(formation.kind, lang),
        rule=message(f"kind.{formation.kind.key}.rule", lang),
        total=formation.total,
        wild=wild_text,
    )


def render_comparison(comparison: Comparison, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """A comparison of two formations as lines (the one wording of CLI, widget, preview and worksheet).

    Mud and Fog first when they apply (R25, R24), each formation, then the verdict
    with the rule that decides it (R10, R11 or R24).

    >>> from battleline_lab.quiz.questions import question_from_data
    >>> q = question_from_data({"kind": "compare", "a": ["r4", "r6", "r3"], "b": ["b7", "b1", "b3"]})
    >>> for line in render_comparison(q.explain(Position())):
    ...     print(line)
    A: r4 r6 r3: Battalion Order (same colour), sum 13.
    B: b7 b1 b3: Battalion Order (same colour), sum 11.
    A wins: both are a Battalion Order, so the sum decides: 13 beats 11 [R10].
    """
    a, b = comparison.a, comparison.b
    fog, mud = a.kind is None, len(a.cards) == 4
    lines = []
    if mud:
        lines.append(message("compare.mud", lang))
    if fog:
        lines.append(message("compare.fog", lang))
    for which, formation in (("A", a), ("B", b)):
        name = which
        if comparison.first_complete == which.lower():  # it wins a tie (R11)
            name = message("course.first.caption", lang, which=which)
        lines.append(message("compare.side", lang, name=name, text=formation_text(formation.cards, formation, lang)))
    why = comparison_why(comparison, lang)
    lines.append(message("compare.verdict", lang, winner=comparison.winner.upper(), why=why))
    return lines


def comparison_why(comparison: Comparison, lang: str = DEFAULT_LANGUAGE) -> str:
    """Why the winner of a comparison wins (the kind, the sum, Fog's sum or the tie rule), with the rule id."""
    winner, loser = (comparison.a, comparison.b) if comparison.winner == "a" else (comparison.b, comparison.a)
    key = f"compare.why.{comparison.decided_by}"
    if comparison.decided_by == "sum" and winner.kind is None:
        key += ".fog"
    return message(
        key,
        lang,
        kind_w=kind_name(winner.kind, lang),
        kind_l=kind_name(loser.kind, lang),
        total_w=winner.total,
        total_l=loser.total,
        rule=comparison.rule,
    )


def first_complete_note(question: Question[Any, Any] | None, position: Position, lang: str = DEFAULT_LANGUAGE) -> str:
    """The sentence a question needs when a tie can decide it: who completed first (R11); empty if none.

    The question says it as data (:meth:`~battleline_lab.quiz.questions.Question.tie_note`); this renders it.

    >>> from battleline_lab.quiz.questions import ClaimQuestion
    >>> from battleline_lab.core.position import Position
    >>> pos = Position.build({4: {"you": "y8 y9 y10", "opponent": "g8 g9"}})
    >>> first_complete_note(ClaimQuestion(4), pos)
    'At flag 4, you completed first; the other side is not complete yet.'
    >>> first_complete_note(ClaimQuestion(4), pos, "zh")
    '4号旗由你先完成；另一侧还没有完成。'
    """
    note = question.tie_note(position) if question is not None else None
    return render_msg(note, lang) if note is not None else ""


def rule_text(rule: str, lang: str = "en") -> str:
    """What a rule says, in a few words, for "you miss R13: ..." (``trainer.rule.<id>``).

    >>> rule_text("R13")
    'cards in your hand are not proof: only cards face up on the table count'
    """
    try:
        return message(f"trainer.rule.{rule}", lang)
    except KeyError:
        return message("trainer.rule.fallback", lang, rule=rule)
