"""The board's view model, typed: what every activity's controller hands the board component to draw.

A controller (:mod:`battleline_lab.controllers`) builds one of the top-level views here
(:class:`PuzzleView`, :class:`GameView`, :class:`ThreeGameView`, :class:`PlaceView`; the two games share
:class:`TableView`) from the state it holds; the
widget sends it to ``board.js`` as JSON, unchanged.  The keys are the ones ``board.js`` reads,
so a key here is a contract with the front end (its JSDoc typedefs describe the same shape):
rename none.  Keys a view may leave out are marked ``NotRequired``.

:func:`card_view` and :func:`flag_views` build the parts every view shares: one card with its
colours and accessible name, and the nine flags of a :class:`~battleline_lab.core.position.Position`.

>>> from battleline_lab import parse_card
>>> card_view(parse_card("r7"), flag=3, side=Side.YOU)["label"]
'red 7, Light Cavalry, on flag 3, your side'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Literal, TypedDict

if TYPE_CHECKING:  # the annotations are strings read by type checkers only (Python 3.10 has no NotRequired)
    from typing_extensions import NotRequired

from ..core.cards import Card, Tactic, Troop
from ..core.position import Position, Side
from ..render.svg import COLOURS, TACTIC_COLOURS
from ..text.messages import DEFAULT_LANGUAGE, Theme, card_label, message, themed

__all__ = [
    "ButtonView",
    "CardRowView",
    "CardView",
    "DeckView",
    "EvidenceView",
    "FeedbackView",
    "FlagView",
    "GameView",
    "HeldView",
    "HintButtonView",
    "OddsView",
    "OpponentHandView",
    "PaletteView",
    "PlaceView",
    "PlaceItemView",
    "TapButton",
    "TapView",
    "ProofView",
    "PuzzleView",
    "RulePart",
    "TableView",
    "ThreeFlagView",
    "ThreeFrontView",
    "ThreeGameView",
    "ThreePlayerView",
    "ThreeSideView",
    "card_view",
    "flag_views",
    "join_list",
]


def join_list(items: Iterable[object], lang: str) -> str:
    """A list inside a text: ``2, 5`` / ``2、5``."""
    return message("widget.list_sep", lang).join(str(item) for item in items)


class CardView(TypedDict):
    """One card: notation, colours, value, letter or mark, name and accessible name."""

    id: str
    value: str
    name: str
    fill: str
    ink: str
    label: str
    letter: NotRequired[str]  # a troop's colour letter
    colour: NotRequired[str]
    mark: NotRequired[str]  # a tactic's sign: wild, environment or guile
    tactic: NotRequired[bool]
    wild: NotRequired[bool]
    environment: NotRequired[bool]
    ghost: NotRequired[bool]  # a card that could still come (a counterexample)
    highlight: NotRequired[bool]
    kernel: NotRequired[bool]  # a hand card whose next choice the session makes (game)
    flags: NotRequired[list[int]]  # the flags a hand card may be played to (game, a play puzzle)
    chosen: NotRequired[bool]  # the hand card the session holds (game, a play puzzle)
    placed: NotRequired[bool]  # a palette card already on the board (explorer, editor)
    pick: NotRequired[bool]  # a tap offers it as a claim's evidence (puzzle: {"evidence": id})


class OddsView(TypedDict):
    """The coach's odds at a contested flag (game)."""

    you: float
    text: str
    outs: str
    label: str
    exact: bool


class FlagView(TypedDict):
    """One flag: its cards per side, the environment, slots, owner, tie badge, ghosts and what a tap does."""

    n: int
    label: str
    slots: int
    you: list[CardView]
    opponent: list[CardView]
    you_label: str
    opponent_label: str
    env: list[CardView]
    ghosts: NotRequired[list[CardView]]
    owner: NotRequired[str]  # who claimed it (R15)
    first: NotRequired[str]  # the side that completed first on an open flag (R11)
    first_text: NotRequired[str]
    first_label: NotRequired[str]
    focus: NotRequired[bool]  # a question is about it
    inert: NotRequired[bool]  # nothing to tap here
    answer: NotRequired[bool]  # a "which flags" answer: picked or not (puzzle)
    css: NotRequired[str]
    legal: NotRequired[bool]  # the held choice may go here (game, a play puzzle)
    claimable: NotRequired[bool]
    claim: NotRequired[bool]
    mark: NotRequired[str]
    odds: NotRequired[OddsView]
    choose: NotRequired[bool]  # a tap chooses it (editor)


class HeldView(TypedDict):
    """The cards a side holds, shown under the board (puzzle)."""

    side: str
    label: str
    cards: list[CardView]


class CardRowView(TypedDict):
    """A row of loose cards with its caption (compare and formation questions)."""

    caption: str
    cards: list[CardView]


class ButtonView(TypedDict):
    """A button: an answer (``value``) or an action (``action``: check, pass, end, scout, cancel, ...)."""

    label: str
    value: NotRequired[str]
    action: NotRequired[str]
    primary: NotRequired[bool]
    enabled: NotRequired[bool]
    css: NotRequired[str]
    state: NotRequired[Literal["right", "wrong"] | None]  # how the answer given last was judged
    hidden: NotRequired[bool]  # drawn, out of sight and off, keeping its place (puzzle: "Show the solution")


class HintButtonView(TypedDict):
    label: str
    enabled: bool
    hidden: bool


class FeedbackView(TypedDict, total=False):
    """What the feedback place says: a tone, a sentence, numbered lines (a proof) and other lines."""

    tone: str
    state: str
    text: str
    lines: list[str]
    items: list[str]


class RulePart(TypedDict):
    """A piece of a proof step's text; a rule id is a link to its rule."""

    text: str
    rule: NotRequired[str]
    href: NotRequired[str]


class ProofView(TypedDict):
    """The proof step by step: every step's parts, the one on show, its counter and the puzzle's note."""

    index: int
    steps: list[list[RulePart]]
    counter: str
    rule_label: str
    note: str


class EvidenceView(TypedDict):
    """A claim's evidence stage (puzzle): what it asks, and the cards off the flags a tap may offer.

    The cards on the flags and in the hands that may be tapped carry ``pick`` where they are drawn;
    ``rows`` holds the others (the discards, or for a ghost the unseen troops), each card ``pick``.
    """

    prompt: str
    ghost: bool
    rows: list[CardRowView]
    picked: NotRequired[str]  # the card tapped last
    state: NotRequired[Literal["right", "wrong"]]  # how it was judged


class PuzzleView(TypedDict):
    """The board in puzzle mode (a puzzle, the gym's puzzle)."""

    mode: Literal["puzzle"]
    lang: str
    board_label: str
    question: str
    answers: list[ButtonView]
    answers_label: str
    hints: list[str]
    feedback: FeedbackView
    proof_label: str
    proof_waiting: str
    step_back: str
    step_next: str
    step_back_label: str
    step_next_label: str
    starting: str  # said when a tap cannot be answered yet (no kernel, and no response table for it)
    flags: NotRequired[list[FlagView]]  # left out when the board says nothing (a formation question)
    held: NotRequired[list[HeldView]]
    hand: NotRequired[list[CardView]]  # a play puzzle: the cards to play, each with its flags (the game's fields)
    hand_label: NotRequired[str]
    chosen_text: NotRequired[str]
    targets: NotRequired[list[str]]  # a held Deserter: the opponent's cards it may take (the game's marking)
    rows: NotRequired[list[CardRowView]]
    environment: NotRequired[str]
    hint: NotRequired[HintButtonView]
    proof: NotRequired[ProofView]
    evidence: NotRequired[EvidenceView]  # a claim's evidence stage, once the yes/no is right


class DeckView(TypedDict):
    deck: str
    label: str
    title: str
    enabled: bool
    primary: bool


class OpponentHandView(TypedDict):
    label: str
    cards: NotRequired[list[CardView]]  # shown once the game is over


class TableView(TypedDict):
    """What the two-player and the three-player boards share: the prompt, the hand, the deck, the
    buttons and the feedback (the taps on them are the same in both modes)."""

    lang: str
    prompt: str
    status: str
    board_label: str
    hand: list[CardView]
    hand_label: str
    chosen_text: str
    targets: list[str]
    selection: list[str]
    decks: list[DeckView]
    choices: list[ButtonView]
    feedback: FeedbackView
    question: NotRequired[str]  # New game asks before it discards a game in progress


class GameView(TableView):
    """The board in game mode."""

    mode: Literal["game"]
    opponent_hand: OpponentHandView
    flags: list[FlagView]
    odds_note: NotRequired[str]


class ThreeSideView(TypedDict):
    """One player's side of a flag at the three-player table (R32: the two players of its front)."""

    seat: str  # "a", "b" or "c"
    label: str
    cards: list[CardView]
    you: bool  # the learner's side


class ThreeFlagView(TypedDict):
    """One flag of the three-player table: its two sides (top, then bottom) and what a tap does."""

    n: int
    label: str
    slots: int
    sides: list[ThreeSideView]
    owner: NotRequired[str]  # the seat that claimed it
    claimable: NotRequired[bool]
    claim: NotRequired[bool]  # a tap claims it ({"claim": n}), or says why not
    mark: NotRequired[str]


class ThreeFrontView(TypedDict):
    """One front (R32): its label naming its two players, its three flags, whether the learner plays there."""

    key: str  # "ab", "bc" or "ca"
    label: str
    flags: list[int]
    yours: bool


class ThreePlayerView(TypedDict):
    """A player at the three-player table: their name, hand size and flags held (the hands stay hidden, R35)."""

    seat: str
    label: str
    you: bool
    turn: bool


class ThreeGameView(TableView):
    """The board in three-player mode: the three fronts stacked, each labelled with its two players."""

    mode: Literal["three"]
    players: list[ThreePlayerView]
    fronts: list[ThreeFrontView]
    flags: list[ThreeFlagView]


class PaletteView(TypedDict):
    label: str
    cards: list[CardView]


class PlaceItemView(TypedDict):
    """A place off the flags a card may be put (a hand, the discards, the deck; editor)."""

    value: str
    label: str
    aria: str


class PlaceView(TypedDict):
    """The board in place mode: cards picked from a palette and put on the flags (explorer, editor)."""

    mode: Literal["explorer", "editor"]
    lang: str
    place_mode: bool
    prompt: str
    board_label: str
    flags: list[FlagView]
    slot_text: str
    pick_text: str
    palette: PaletteView
    places: NotRequired[list[PlaceItemView]]
    places_label: NotRequired[str]


class TapView(TypedDict, total=False):
    """What the board's tap logic reads of a view, whichever mode it is in (``Taps``, ``board.js``'s ``tap``).

    The keys are those of :class:`PuzzleView`, :class:`GameView` and :class:`PlaceView` that a tap
    depends on, each as that view types it; a mode leaves out the ones it does not have.
    """

    mode: str
    hand: list[CardView]
    flags: list[FlagView]
    targets: list[str]
    selection: list[str]
    decks: list[DeckView]
    choices: list[ButtonView]
    answers: list[ButtonView]
    hint: HintButtonView
    proof: ProofView
    place_mode: bool
    palette: PaletteView
    places: list[PlaceItemView]
    held: list[HeldView]
    evidence: EvidenceView


class TapButton(TypedDict, total=False):
    """One tappable button of a view as a tap sees it: its ``data-action`` and what tells it apart.

    A deck is ``draw`` with its ``deck``, an answer has its ``value``, the hint and the proof's steps
    have their action; ``enabled`` False is a button drawn ``aria-disabled``.
    """

    action: str
    value: str
    deck: str
    enabled: bool


def card_view(
    card: Card,
    lang: str = DEFAULT_LANGUAGE,
    *,
    flag: int | None = None,
    side: Side | None = None,
    highlight: bool = False,
    ghost: bool = False,
    theme: Theme | str | None = None,
) -> CardView:
    """One card as the component draws it: notation, colours, value, letter, name, accessible name.

    The accessible name says where the card lies when ``flag`` and ``side`` are given
    (``red 7, Light Cavalry, on flag 3, your side``); a ghost card says it could still come.
    A Leader is named in ``theme`` (:class:`battleline_lab.text.messages.Theme`; the id stays ``alexander``).
    """
    lang = themed(lang, theme)
    # a board's view is made again after every tap, each of its cards named through the catalogue
    # (five lookups and formats a card): the same card in the same place is drawn alike every time,
    # so it is made once; the caller gets a copy it may change
    return _card_view(card, str(lang), getattr(lang, "theme", None), flag, side, highlight, ghost).copy()


@lru_cache(maxsize=4096)
def _card_view(
    card: Card, lang: str, theme: str | None, flag: int | None, side: Side | None, highlight: bool, ghost: bool
) -> CardView:
    """:func:`card_view`'s work, for ``lang`` said in the theme named ``theme`` (``None``: the plain language)."""
    lang = themed(lang, theme)
    label = card_label(card, lang)
    if ghost:
        label = message("board.ghost_label", lang, card=label)
    if flag is not None and side is not None:
        label = message(
            "boardui.card_at", lang, card=label, flag=flag, side=message(f"boardui.side.{side.value}", lang)
        )
    if isinstance(card, Troop):
        fill, ink = COLOURS[card.colour]
        out = CardView(
            id=card.notation,
            value=str(card.value),
            letter=message(f"board.letter.{card.colour.letter}", lang),
            name=message(f"troop.{card.value}", lang),
            colour=card.colour.letter,
            fill=fill,
            ink=ink,
            label=label,
        )
    else:
        assert isinstance(card, Tactic)
        fill, ink = TACTIC_COLOURS[card.group]
        out = CardView(
            id=card.notation,
            value=message(f"board.tactic_value.{card.value}", lang),
            mark="\u2605" if card.is_wild else ("\u2601" if card.is_environment else "\u2694"),
            name=message(f"board.short.{card.value}", lang),
            tactic=True,
            wild=card.is_wild,
            environment=card.is_environment,
            fill=fill,
            ink=ink,
            label=label,
        )
    if ghost:
        out["ghost"] = True
    if highlight:
        out["highlight"] = True
    return out


@lru_cache(maxsize=512)
def _flag_texts(n: int, owner: Side | None, lang: str, theme: str | None) -> tuple[str, str, str]:
    """Flag ``n``'s accessible name (who claimed it, if anyone) and its two sides' names: the same
    every time the board is drawn, so made once (``theme``: as in :func:`_card_view`)."""
    lang = themed(lang, theme)
    label = (
        message(f"board.flag_claimed.{owner.value}", lang, flag=n)
        if owner is not None
        else message("board.flag", lang, flag=n)
    )
    return label, message("boardui.side_at.you", lang, flag=n), message("boardui.side_at.opponent", lang, flag=n)


def flag_views(
    position: Position,
    lang: str = DEFAULT_LANGUAGE,
    *,
    highlight: Iterable[Card] = (),
    ghosts: Mapping[tuple[int, Side], Sequence[Card]] | None = None,
    focus: Iterable[int] = (),
    theme: Theme | str | None = None,
) -> list[FlagView]:
    """The nine flags of ``position`` as the component draws them (from your side, R3, R6).

    Per flag: its number ``n``, accessible ``label``, the cards of each side in play order
    (``you``, ``opponent``), the environment cards (``env``), the number of slots a side has
    (3, or 4 with Mud, R25), who claimed it (``owner``, R15), the side that completed first on
    an open flag (``first``, R11), the ghost cards that could still come to the opponent's side
    (``ghosts``) and whether a question is about it (``focus``); Leaders named in ``theme``.
    """
    lang = themed(lang, theme)
    lit = frozenset(highlight)
    ghosts = ghosts or {}
    shown = frozenset(focus)
    out: list[FlagView] = []
    for n, state in enumerate(position.flags, start=1):
        owner = state.claimed_by
        label, you_label, opponent_label = _flag_texts(n, owner, str(lang), getattr(lang, "theme", None))
        sides = {
            side: [card_view(c, lang, flag=n, side=side, highlight=c in lit) for c in state.formation_cards(side)]
            for side in Side
        }
        flag = FlagView(
            n=n,
            label=label,
            slots=state.size,
            you=sides[Side.YOU],
            you_label=you_label,
            opponent=sides[Side.OPPONENT],
            opponent_label=opponent_label,
            env=[card_view(c, lang, highlight=c in lit) for c in state.environment],
            ghosts=[card_view(c, lang, ghost=True) for c in ghosts.get((n, Side.OPPONENT), ())],
        )
        if owner is not None:
            flag["owner"] = owner.value
        first = state.completed_first if owner is None else None
        if first is not None:  # the "1st" badge: it decides a tie here (R11)
            flag["first"] = first.value
            flag["first_text"] = message("course.first.mark", lang)
            flag["first_label"] = message(f"course.first.label.{first.value}", lang, flag=n)
        if n in shown:
            flag["focus"] = True
        out.append(flag)
    return out
