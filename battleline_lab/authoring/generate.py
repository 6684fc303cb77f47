"""``battleline-lab generate``: puzzles that teach a theme, found by the engine, ready for review.

A *theme* (:data:`THEMES`) is a test on a claim proof (R12, R13): "a Wedge
shape is blocked by a face-up card", "the opponent can at best tie", "a card
of your hand is one the opponent needs"...  The generator draws candidate
positions from a seeded random generator and keeps those whose proof passes
the test.  Candidates come from one of two *sources*:

- ``construct``: a position built around one flag: your complete formation,
  one or two opponent cards that threaten something, the cards that block or
  allow the threat scattered over other flags, the discards and your hand;
- ``games``: the table right after a player's play in seeded bot games
  (:mod:`battleline_lab.game`), seen by that player (R13).

Each kept candidate becomes a ``claim`` puzzle (can you claim flag N now?)
whose answer is the engine's, every theme's answers alternating yes and no;
the themes of :data:`QUESTION_THEMES` ask the other questions (``formation``:
what formation; ``compare``: which wins; ``which-flags``: which flags can you
claim), their answers spread.  A title is neutral and in words ("Flag 5: red 3,
red 4 and red 5. Can you claim it now?"): the teaching point ("At best a tie")
would give the answer away, so it is the ``headline``, shown after answering;
topics use the library's words (puzzles/FORMAT.md).  Its level comes from
:func:`battleline_lab.quiz.difficulty.estimate`, its note says it was generated and
from what (seed, candidate, game and turn); title and note are written in
every language of the catalogue (``title: {en: ..., zh: ...}``), so a
reviewed puzzle can join the library as it is.  Positions are legal
(:meth:`Position.problems`), no two generated puzzles are the same position,
and puzzles equal to those of an ``--avoid`` folder are skipped.  The same
theme, seed and count always give the same files.

>>> [p.id for p in generate("at-best-a-tie", count=2, seed=1)]
['at-best-a-tie-s1-1', 'at-best-a-tie-s1-2']
>>> [p.answer for p in generate("at-best-a-tie", count=2, seed=1)]
[True, False]
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence, Set
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.cards import ALL_TROOPS, Card, Colour, Tactic, Troop, card_sort_key, troop
from ..core.claims import ClaimAnalysis, Reason, UndecidedTieError, analyse_claim
from ..core.decide import can_claim
from ..core.formations import FormationKind
from ..core.position import FLAGS, FlagState, Position, Side
from ..core.reachability import cards_played, unreachable
from ..quiz.difficulty import Features, claim_features, estimate
from ..quiz.loader import load_folder, load_puzzle_text
from ..quiz.questions import ClaimableQuestion, ClaimQuestion, CompareQuestion, FormationQuestion, Question
from ..text.messages import LANGUAGES, message, scoped
from .writer import dump_puzzle, position_data, position_key

__all__ = [
    "GeneratedPuzzle",
    "QUESTION_THEMES",
    "SOURCES",
    "THEMES",
    "Theme",
    "avoid_keys",
    "environment_matters",
    "generate",
    "title_texts",
]


#: Where candidates come from.
SOURCES = ("construct", "games")

#: Candidates tried per puzzle asked for, before giving up (construct / games: bot games played).
MAX_CANDIDATES = 4000
MAX_GAMES = 12


_m = scoped("authoring")


def _texts(key: str, /, **params: Any) -> dict[str, str]:
    """A title or note in every language, as a puzzle file writes it: ``{en: ..., zh: ...}``."""
    return {lang: _m(key, lang, **params) for lang in LANGUAGES}


# -- themes -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recipe:
    """How the ``construct`` source builds candidates for a theme (all choices seeded).

    ``kinds``: formation kinds for your side (picked at random, repeats weigh
    more); ``threats``: what the opponent's cards aim at (``run``: cards of a
    Wedge, ``value``: a Phalanx, ``colour``: a Battalion, ``mirror``: your
    values in another colour, ``any``); ``blockers``: how many cards the threat
    needs are put face up elsewhere; ``hand``: cards in your hand (some of them
    cards the threat needs when ``hand_threat``).
    """

    kinds: tuple[FormationKind, ...] = (
        FormationKind.WEDGE,
        FormationKind.PHALANX,
        FormationKind.BATTALION,
        FormationKind.SKIRMISH,
    )
    threats: tuple[str, ...] = ("run", "value", "colour", "mirror")
    their_cards: tuple[int, ...] = (1, 2, 2)
    blockers: tuple[int, int] = (1, 4)
    noise: tuple[int, int] = (1, 5)
    hand: tuple[int, int] = (0, 3)
    hand_threat: bool = False
    discards: float = 0.2
    fog: bool = False
    mud: bool = False
    wild_yours: float = 0.0
    wild_theirs: float = 0.0


Accept = Callable[[Position, ClaimAnalysis, Features], bool]


@dataclass(frozen=True)
class Theme:
    """A theme: which proofs teach it (``accepts``), how to build candidates, which answers to aim for.

    ``answers`` is cycled over the puzzles of a run (``(True, False)``: every
    other puzzle is a claim that fails), so a set is not all one answer.
    """

    name: str
    accepts: Accept
    recipe: Recipe = field(default_factory=Recipe)
    answers: tuple[bool, ...] = (True, False)
    source: str = "construct"
    tags: tuple[str, ...] = ()


def _shape_steps(analysis: ClaimAnalysis, kind: FormationKind, reasons: Iterable[Reason]) -> bool:
    wanted = set(reasons)
    return any(s.reason in wanted and s.shape is not None and s.shape.kind is kind for s in analysis.steps)


def _plain(features: Features) -> bool:
    return not (features.fog or features.mud or features.wild_yours or features.wild_theirs)


def _blocked_wedge(position: Position, analysis: ClaimAnalysis, features: Features) -> bool:
    # every stronger Wedge needs a face-up card (R13): the proof names blocked Wedge shapes;
    # or one Wedge shape is still open, and the opponent's completion is that Wedge (R12)
    if not _plain(features):
        return False
    if analysis.claimable:
        return _shape_steps(analysis, FormationKind.WEDGE, [Reason.SHAPE_BLOCKED]) and features.blockers >= 1
    formation = analysis.opponent_formation
    return formation is not None and formation.kind is FormationKind.WEDGE and features.blockers >= 1


def _counting_values(position: Position, analysis: ClaimAnalysis, features: Features) -> bool:
    # six troops of each value (R1): a Phalanx is ruled out, or still possible, by counting them
    if not _plain(features):
        return False
    if analysis.claimable:
        return _shape_steps(analysis, FormationKind.PHALANX, [Reason.SHAPE_BLOCKED, Reason.SHAPE_SHORT])
    formation = analysis.opponent_formation
    return formation is not None and formation.kind is FormationKind.PHALANX and features.blockers >= 1


def _at_best_a_tie(position: Position, analysis: ClaimAnalysis, features: Features) -> bool:
    # the opponent can at best equal you, and would complete last (R11, R12); or they can equal you
    # and completed first, or can just beat you: a tie is not enough to be safe
    if features.fog:
        return False
    if analysis.claimable:
        return Reason.AT_BEST_TIE in analysis.reasons
    theirs, yours = analysis.opponent_formation, analysis.formation
    return theirs is not None and yours is not None and theirs.kind is yours.kind  # same kind, a higher sum


def _own_hand_trap(position: Position, analysis: ClaimAnalysis, features: Features) -> bool:
    # a card of your hand is one the opponent's completion needs: it is no evidence (R13)
    if analysis.claimable:
        return features.hand_trap
    hand = set(position.hand(analysis.side))
    return bool(hand & set(analysis.counterexample))


def _without_environment(position: Position, flag: int, env: Tactic) -> Position:
    """The position as it would be had ``env`` never been played at ``flag``.

    Without Mud a side holds at most 3 formation cards: a fourth (the last
    listed) is taken away, as if never played.
    """
    state = position.flag(flag)
    sides: dict[Side, tuple[Card, ...]] = {}
    for side in Side:
        cards = tuple(c for c in state.cards(side) if c is not env)
        if env is Tactic.MUD:
            formation = [c for c in cards if c.is_formation_card]
            if len(formation) > 3:
                drop = formation[-1]
                cards = tuple(c for c in cards if c != drop)
        sides[side] = cards
    flags = list(position.flags)
    flags[flag - 1] = FlagState(sides[Side.YOU], sides[Side.OPPONENT])
    return replace(position, flags=tuple(flags))


def environment_matters(position: Position, analysis: ClaimAnalysis, env: Tactic) -> bool:
    """Is ``env`` on the asked flag necessary, and where a player would put it?

    Necessary: without it (:func:`_without_environment`) the answer differs.
    Where it belongs: it helped the side that played it, so Fog or Mud on your
    side turns a claim that fails into one that holds, and on the opponent's
    side one that holds into one that fails (R24, R25).
    """
    flag = analysis.flag
    owners = [s for s in Side if env in position.flag(flag).cards(s)]
    if len(owners) != 1:
        return False
    without = _without_environment(position, flag, env)
    if without.problems():
        return False
    try:
        plain = analyse_claim(without, flag, analysis.side)
    except UndecidedTieError:
        return False
    if plain.claimable is analysis.claimable:
        return False
    return analysis.claimable is (owners[0] is analysis.side)


def _fog(position: Position, analysis: ClaimAnalysis, features: Features) -> bool:
    # only sums count (R24), and the answer turns on it
    return features.fog and environment_matters(position, analysis, Tactic.FOG)


def _mud(position: Position, analysis: ClaimAnalysis, features: Features) -> bool:
    # four cards a side (R25), and the answer turns on it
    return features.mud and environment_matters(position, analysis, Tactic.MUD)


def _wildcard(position: Position, analysis: ClaimAnalysis, features: Features) -> bool:
    return features.wild_yours or features.wild_theirs  # R20-R22


def _counterexample(position: Position, analysis: ClaimAnalysis, features: Features) -> bool:
    # a claim that fails: unseen troops complete the opponent's side into a stronger formation (R12);
    # or the search for one finds none: every stronger completion is ruled out
    if analysis.claimable:
        return features.shapes + features.blockers >= 2
    return features.counterexample and features.shapes + features.blockers >= 1


def _bot_game(position: Position, analysis: ClaimAnalysis, features: Features) -> bool:
    # any claim moment that needs more than a glance: a blocked shape, a count, a tie, a counterexample
    return features.shapes + features.blockers >= 2 or features.tie


THEMES: dict[str, Theme] = {
    t.name: t
    for t in (
        Theme(
            "blocked-wedge",
            _blocked_wedge,
            Recipe(threats=("run", "run", "mirror"), blockers=(1, 4)),
            tags=("wedge",),
        ),
        Theme(
            "counting-values",
            _counting_values,
            Recipe(threats=("value",), kinds=(FormationKind.PHALANX,), blockers=(1, 4)),
            tags=("phalanx",),
        ),
        Theme(
            "at-best-a-tie",
            _at_best_a_tie,
            Recipe(threats=("mirror", "mirror", "value"), their_cards=(1, 2), blockers=(1, 3)),
            tags=("tie",),
        ),
        Theme(
            "own-hand-trap",
            _own_hand_trap,
            Recipe(hand=(2, 4), hand_threat=True, blockers=(0, 3)),
            tags=("hand-trap",),
        ),
        Theme("fog", _fog, Recipe(fog=True, kinds=(FormationKind.WEDGE, FormationKind.HOST, FormationKind.PHALANX))),
        Theme("mud", _mud, Recipe(mud=True, their_cards=(1, 2, 3))),
        Theme("wildcard", _wildcard, Recipe(wild_yours=0.5, wild_theirs=0.6), tags=("wildcard",)),
        Theme("counterexample", _counterexample, Recipe(blockers=(0, 2))),
        Theme("bot-game", _bot_game, source="games", tags=("mixed",)),
    )
}


# -- building candidates --------------------------------------------------------------------------

_WILD = (Tactic.ALEXANDER, Tactic.DARIUS, Tactic.COMPANION, Tactic.SHIELD)
_COLOURS = tuple(Colour)
# the two sides in the enum's order, iterated without Enum.__iter__ (a generator: slow in hot loops)
_SIDES = (Side.YOU, Side.OPPONENT)


class _Table:
    """A position under construction: which cards are placed where, none twice."""

    def __init__(self, rng: random.Random, focus: int, size: int) -> None:
        self.rng = rng
        self.focus = focus
        self.size = size
        self.used: set[Card] = set()
        self.sides: dict[tuple[int, Side], list[Card]] = {(n, s): [] for n in FLAGS for s in _SIDES}
        self.discards: dict[Side, list[Card]] = {s: [] for s in _SIDES}
        self.hand: list[Card] = []

    def free(self, card: Card) -> bool:
        return card not in self.used

    def put(self, cards: Sequence[Card], where: list[Card]) -> bool:
        if any(c in self.used for c in cards) or len(set(cards)) != len(cards):
            return False
        self.used.update(cards)
        where.extend(cards)
        return True

    def free_troops(self) -> list[Troop]:
        return [t for t in ALL_TROOPS if t not in self.used]

    def place_elsewhere(self, card: Card, discards: float) -> None:
        """Face up away from the focus flag: another flag (a side with room), or a discard area."""
        if card in self.used:
            return
        rng = self.rng
        if rng.random() < discards and not any(isinstance(c, Troop) for v in self.discards.values() for c in v):
            # one troop at most: the game's one Deserter put it there (R29, R31)
            owner = rng.choice((Side.YOU, Side.OPPONENT))
            self.put([card], self.discards[owner])
            return
        options = [(n, s) for n in FLAGS for s in _SIDES if n != self.focus and len(self.sides[(n, s)]) < 2]
        if options:
            self.put([card], self.sides[rng.choice(options)])

    def position(self) -> Position:
        flags = tuple(FlagState(tuple(self.sides[(n, Side.YOU)]), tuple(self.sides[(n, Side.OPPONENT)])) for n in FLAGS)
        return Position(
            flags=flags,
            discards_you=tuple(self.discards[Side.YOU]),
            discards_opponent=tuple(self.discards[Side.OPPONENT]),
            hand_you=tuple(sorted(self.hand, key=card_sort_key)),
        )


def _formation(rng: random.Random, kind: FormationKind, size: int) -> list[Troop]:
    colour = rng.choice(_COLOURS)
    if kind is FormationKind.WEDGE:
        start = rng.randint(1, 11 - size)
        return [troop(colour, v) for v in range(start, start + size)]
    if kind is FormationKind.PHALANX:
        value = rng.randint(1, 10)
        return [troop(c, value) for c in rng.sample(_COLOURS, size)]
    if kind is FormationKind.BATTALION:
        return [troop(colour, v) for v in rng.sample(range(1, 11), size)]
    if kind is FormationKind.SKIRMISH:
        start = rng.randint(1, 11 - size)
        return [troop(rng.choice(_COLOURS), v) for v in range(start, start + size)]
    return [troop(rng.choice(_COLOURS), rng.randint(1, 10)) for _ in range(size)]


def _threat(
    rng: random.Random, kind: str, mine: Sequence[Troop], size: int, count: int
) -> tuple[list[Troop], list[Troop]]:
    """The opponent's cards and the troops their threat would need (to block, or to leave open)."""
    colour = rng.choice(_COLOURS)
    if kind == "mirror" and mine:
        colour = rng.choice([c for c in _COLOURS if c not in {t.colour for t in mine}] or list(_COLOURS))
        values = sorted({t.value for t in mine})
        cards = [troop(colour, v) for v in rng.sample(values, min(count, len(values)))]
        low, high = min(values), max(values)
        needed = [troop(colour, v) for v in range(max(1, low - 2), min(10, high + 2) + 1)]
        needed += [troop(c, v) for v in values for c in _COLOURS if c is not colour]
        return cards, needed
    if kind == "run":
        start = rng.randint(1, 11 - size)
        run = list(range(start, start + size))
        cards = [troop(colour, v) for v in rng.sample(run, min(count, size))]
        needed = [troop(colour, v) for v in range(max(1, start - size), min(10, start + 2 * size) + 1)]
        return cards, needed
    if kind == "value":
        value = rng.randint(1, 10)
        cards = [troop(c, value) for c in rng.sample(_COLOURS, count)]
        return cards, [troop(c, value) for c in _COLOURS]
    if kind == "colour":
        cards = [troop(colour, v) for v in rng.sample(range(1, 11), count)]
        return cards, [troop(colour, v) for v in range(6, 11)]
    cards = [troop(rng.choice(_COLOURS), rng.randint(1, 10)) for _ in range(count)]
    return cards, []


def _construct(rng: random.Random, recipe: Recipe) -> tuple[Position, int] | None:
    """One candidate position and its focus flag, or None when the draw did not fit together."""
    focus = rng.randint(1, 9)
    size = 4 if recipe.mud else 3
    table = _Table(rng, focus, size)
    you, theirs = table.sides[(focus, Side.YOU)], table.sides[(focus, Side.OPPONENT)]
    tactics = {Side.YOU: 0, Side.OPPONENT: 0}

    mine: list[Card] = list(_formation(rng, rng.choice(recipe.kinds), size))
    if rng.random() < recipe.wild_yours:
        mine[rng.randrange(size)] = rng.choice(_WILD)
        tactics[Side.YOU] += 1
    if not table.put(mine, you):
        return None
    count = min(rng.choice(recipe.their_cards), size - 1)
    mine_troops = [c for c in mine if isinstance(c, Troop)]
    cards, needed = _threat(rng, rng.choice(recipe.threats), mine_troops, size, count)
    their: list[Card] = list(cards)
    if rng.random() < recipe.wild_theirs:
        options = [
            w
            for w in _WILD
            if table.free(w) and not (w.is_leader and any(isinstance(c, Tactic) and c.is_leader for c in mine))
        ]
        if options and their:
            their[rng.randrange(len(their))] = rng.choice(options)
            tactics[Side.OPPONENT] += 1
    if not table.put(their, theirs):
        return None
    for env, wanted in ((Tactic.FOG, recipe.fog), (Tactic.MUD, recipe.mud)):
        if wanted:
            player = rng.choice((Side.YOU, Side.OPPONENT))
            table.put([env], table.sides[(focus, player)])
            tactics[player] += 1

    needed = [t for t in needed if table.free(t)]
    needed.sort(key=card_sort_key)
    rng.shuffle(needed)
    low, high = recipe.blockers
    hand_cards: list[Troop] = []
    if recipe.hand_threat and needed:
        hand_cards.append(needed.pop())
    for card in needed[: rng.randint(low, high)]:
        table.place_elsewhere(card, recipe.discards)
    pool = table.free_troops()
    for _ in range(rng.randint(*recipe.noise)):
        table.place_elsewhere(pool[rng.randrange(len(pool))], 0.0)
    pool = table.free_troops()
    hand_size = rng.randint(*recipe.hand)
    while len(hand_cards) < hand_size and pool:
        card = pool.pop(rng.randrange(len(pool)))
        if card not in hand_cards:
            hand_cards.append(card)
    table.put(hand_cards, table.hand)

    # a troop in a discard area was deserted (R29, R31): the other side played the Deserter
    for owner in Side:
        if any(isinstance(c, Troop) for c in table.discards[owner]):
            if not table.put([Tactic.DESERTER], table.discards[owner.other]):
                return None
            tactics[owner.other] += 1
            break
    else:
        if sum(len(v) for v in table.discards.values()):
            return None
    if abs(tactics[Side.YOU] - tactics[Side.OPPONENT]) > 1:  # R18
        return None
    if not _balance(table):
        return None
    return table.position(), focus


def _balance(table: _Table) -> bool:
    """Fill the side that has played fewer cards with troops on other flags, until turns add up (R5).

    It is your turn, right after your play: you have played as many cards as the
    opponent or one more.  Cards go on flags other than the asked one, at most
    two on a side, so no new formation is completed.
    """
    position = table.position()
    gap = cards_played(position, Side.YOU) - cards_played(position, Side.OPPONENT)
    short, missing = (Side.OPPONENT, gap - 1) if gap > 1 else (Side.YOU, -gap)
    for _ in range(max(0, missing)):
        options = [(n, short) for n in FLAGS if n != table.focus and len(table.sides[(n, short)]) < 2]
        pool = table.free_troops()
        if not options or not pool:
            return False
        table.put([pool[table.rng.randrange(len(pool))]], table.sides[table.rng.choice(options)])
    return not unreachable(table.position())


def _constructed(rng: random.Random, recipe: Recipe, limit: int) -> Iterator[_Candidate]:
    for k in range(1, limit + 1):
        made = _construct(rng, recipe)
        if made is not None:
            position, focus = made
            yield _Candidate(position, focus, ("note.construct", {"candidate": k}))


@dataclass(frozen=True)
class _Candidate:
    """A position, the flag to ask about, where it came from; ``game``: at most one puzzle per bot game."""

    position: Position
    flag: int
    origin: tuple[str, dict[str, Any]]  # the note's message key and its parameters
    game: int | None = None

    def origin_text(self, lang: str) -> str:
        key, params = self.origin
        if "player" in params:  # a side of the table, in the note's language
            params = {**params, "player": message(f"game.player.{params['player']}", lang)}
        return _m(key, lang, **params)


_PAIRINGS = (("heuristic", "random"), ("heuristic", "heuristic"), ("random", "heuristic"))


def _game_moments(rng: random.Random, games: int, stats: dict[str, float] | None = None) -> Iterator[_Candidate]:
    """The table right after each play of seeded bot games, seen by the player who played (R13).

    ``stats["games"]`` counts the games played so far.
    """
    from ..game import Phase, Player, apply, legal_moves, make_bot, new_game
    from ..game.match import MAX_ACTIONS
    from ..game.view import PlayerView, to_position

    for g in range(games):
        if stats is not None:
            stats["games"] = g + 1
        game_seed = rng.randrange(1_000_000)
        names = _PAIRINGS[g % len(_PAIRINGS)]
        bots = {Player.NORTH: make_bot(names[0], game_seed), Player.SOUTH: make_bot(names[1], game_seed + 1)}
        state = new_game(game_seed)
        views = {p: PlayerView(state, p) for p in Player}
        for _ in range(MAX_ACTIONS):
            if state.over:
                break
            player = state.to_act
            before = state.phase
            apply(state, bots[player].choose(views[player], legal_moves(state)))
            if before is Phase.PLAY and state.phase in (Phase.CLAIM, Phase.DRAW) and state.turn is player:
                position = to_position(state, player)
                origin = (
                    "note.game",
                    {
                        "seed": game_seed,
                        "north": names[0],
                        "south": names[1],
                        "turn": state.turn_number,
                        "player": player.value,
                    },
                )
                for n in FLAGS:
                    flag = position.flag(n)
                    if flag.claimed_by is None and flag.is_complete(Side.YOU) and not flag.is_complete(Side.OPPONENT):
                        yield _Candidate(position, n, origin, g)


# -- generating ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GeneratedPuzzle:
    """A generated puzzle: its id, file data (:func:`~battleline_lab.authoring.writer.puzzle_data` form) and text."""

    id: str
    data: dict[str, Any]
    text: str
    level: int
    answer: Any  # a claim's bool; a formation kind, "a"/"b", a list of flags for the other questions

    @property
    def filename(self) -> str:
        return f"{self.id}.yaml"


#: Words that may give a claim's answer away: written as after-answer ``tags``, never as ``topics``.
_AFTER_ANSWER = frozenset({"tie", "hand-trap", "counterexample", "at-best-tie", "generated"})


def _topics_and_tags(theme: Theme, analysis: ClaimAnalysis, features: Features) -> tuple[list[str], list[str]]:
    """What the puzzle is about (shown before the answer) and the tags that may reveal it (shown after).

    The theme's name says how the claim is decided (``at-best-tie``, ``own-hand-trap``): it is a tag.
    """
    words = [*theme.tags]
    for flag, word in (
        (features.fog, "fog"),
        (features.mud, "mud"),
        (features.wild_yours or features.wild_theirs, "wildcard"),
        (features.hand_trap, "hand-trap"),
        (features.discards, "discards"),
        (features.tie, "tie"),
        (not analysis.claimable, "counterexample"),
    ):
        if flag and word not in words:
            words.append(word)
    topics = ["claim", *(w for w in words if w not in _AFTER_ANSWER)]
    tags = [theme.name, *(w for w in words if w in _AFTER_ANSWER and w != theme.name), "generated"]
    return topics, tags


def _point_key(theme: str, position: Position, flag: int) -> str:
    """The catalogue key naming a puzzle's teaching point; Fog and Mud say whose they are."""
    for env in (Tactic.FOG, Tactic.MUD):
        if theme == env.value:
            mine = env in position.flag(flag).cards(Side.YOU)
            return f"teachers.point.{theme}.{'yours' if mine else 'theirs'}"
    return f"teachers.point.{theme}"


def cards_in_words(cards: Sequence[Card], lang: str) -> str:
    """Cards as a learner reads them: ``red 3, red 4 and red 5`` / ``红3、红4和红5`` (never notation).

    >>> from battleline_lab.core.cards import parse_card
    >>> cards_in_words([parse_card("r3"), parse_card("b10"), Tactic.FOG], "en")
    'red 3, blue 10 and Fog'
    """
    words = [
        message("class.gen.troop", lang, colour=message(f"colour.{c.colour.letter}", lang), value=c.value)
        if isinstance(c, Troop)
        else message(f"tactic.{c.value}", lang)
        for c in cards
    ]
    if len(words) <= 1:
        return "".join(words)
    return message("class.gen.list", lang, items=message("class.gen.sep", lang).join(words[:-1]), last=words[-1])


def title_texts(theme: str, position: Position, flag: int) -> dict[str, str]:
    """A neutral title in every language: the flag and your cards in words, not the teaching point.

    The point (:func:`headline_texts`) would give the answer away before it is given
    ("At best a tie" is always a yes): it is the ``headline``, shown after answering.

    >>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8 b9"}})
    >>> title_texts("at-best-a-tie", pos, 5)["en"]
    'Flag 5: red 3, red 4 and red 5. Can you claim it now?'
    """
    cards = position.flag(flag).formation_cards(position.turn)
    return {
        lang: message("class.gen.title.claim", lang, cards=cards_in_words(cards, lang), flag=flag) for lang in LANGUAGES
    }


#: Themes whose point reads otherwise when the claim fails (or, for ``counterexample``, holds).
_OTHER_POINT = {("blocked-wedge", False), ("at-best-a-tie", False), ("counterexample", True)}


def headline_texts(theme: str, position: Position, flag: int, answer: bool | None = None) -> dict[str, str]:
    """The teaching point in every language (``At best a tie``), shown once the puzzle is answered."""
    if (theme, answer) in _OTHER_POINT:
        return {lang: message(f"class.gen.point.{theme}.{'yes' if answer else 'no'}", lang) for lang in LANGUAGES}
    return {lang: message(_point_key(theme, position, flag), lang) for lang in LANGUAGES}


def _puzzle(theme: Theme, seed: int, number: int, candidate: _Candidate, analysis: ClaimAnalysis) -> GeneratedPuzzle:
    position, flag = candidate.position, candidate.flag
    question = ClaimQuestion(flag)
    features = claim_features(position, analysis)
    level = estimate(position, question).level
    puzzle_id = f"{theme.name}-s{seed}-{number}"
    data: dict[str, Any] = {
        "id": puzzle_id,
        "title": title_texts(theme.name, position, flag),
        "headline": headline_texts(theme.name, position, flag, analysis.claimable),
        "level": level,
    }
    data["topics"], data["tags"] = _topics_and_tags(theme, analysis, features)
    data.update(position_data(position))
    data["question"] = question.to_data()
    data["answer"] = analysis.claimable
    data["note"] = {
        lang: _m("note.text", lang, theme=theme.name, seed=seed, origin=candidate.origin_text(lang))
        for lang in LANGUAGES
    }
    text = dump_puzzle(data)
    return GeneratedPuzzle(puzzle_id, data, text, level, analysis.claimable)


def _verify(generated: GeneratedPuzzle, position: Position) -> None:
    """The written text loads, holds the same position, and its answer is the engine's."""
    puzzle = load_puzzle_text(generated.text, generated.filename)
    if puzzle.position != position or not puzzle.is_correct(generated.answer):
        raise AssertionError(f"generated puzzle {generated.id} does not round-trip")  # a bug, not bad input


#: Cards a proof does not point at that a tidied puzzle keeps, as distractors (at most).
DISTRACTORS = 2


def _without(position: Position, drop: Set[Card]) -> Position:
    flags = tuple(
        FlagState(
            tuple(c for c in s.you if c not in drop),
            tuple(c for c in s.opponent if c not in drop),
            s.first_complete,
            s.claimed_by,
        )
        for s in position.flags
    )
    return replace(position, flags=flags)


def _tidy(
    rng: random.Random, spec: Theme, candidate: _Candidate, analysis: ClaimAnalysis
) -> tuple[_Candidate, ClaimAnalysis]:
    """Drop troops on other flags that no proof step points at, keeping up to :data:`DISTRACTORS` of them.

    Only for claims that hold: every card the proof needs is named in a step
    (R13).  The tidied position must still teach the theme with the same
    answer, else the candidate is kept as it was.
    """
    position, flag = candidate.position, candidate.flag
    named: set[Card] = set()
    for step in analysis.steps:
        named.update(step.highlight)
        named.update(step.needed)
    spare = sorted(
        (
            c
            for n in FLAGS
            if n != flag
            for c in position.flag(n).you + position.flag(n).opponent
            if isinstance(c, Troop) and c not in named
        ),
        key=card_sort_key,
    )
    rng.shuffle(spare)
    if len(spare) <= DISTRACTORS:
        return candidate, analysis
    # keep cards on the side that is short of played cards until turns add up (R5), then distractors
    keep: list[Card] = []
    tidied = _without(position, set(spare))
    for _ in range(len(spare)):
        rest = [c for c in spare if c not in keep]
        if unreachable(tidied):
            gap = cards_played(tidied, Side.YOU) - cards_played(tidied, Side.OPPONENT)
            short = Side.OPPONENT if gap > 1 else Side.YOU
            pick = [c for c in rest if any(c in st.cards(short) for st in position.flags)]
        elif len(keep) < DISTRACTORS:
            pick = [c for c in rest if not unreachable(_without(position, set(rest) - {c}))]
        else:
            break
        if not pick:
            break
        keep.append(pick[0])
        tidied = _without(position, set(spare) - set(keep))
    if unreachable(tidied):
        return candidate, analysis
    if tidied.problems() or can_claim(tidied, flag, tidied.turn) is not analysis.claimable:
        return candidate, analysis
    again = analyse_claim(tidied, flag, tidied.turn)
    if not spec.accepts(tidied, again, claim_features(tidied, again)):
        return candidate, analysis
    return replace(candidate, position=tidied), again


def generate(
    theme: str,
    count: int,
    seed: int,
    *,
    avoid: Iterable[Hashable] = (),
    source: str | None = None,
    levels: tuple[int, int] = (1, 5),
    on_found: Callable[[GeneratedPuzzle], None] | None = None,
    stats: dict[str, float] | None = None,
) -> list[GeneratedPuzzle]:
    """Up to ``count`` puzzles for ``theme`` (fewer if the search gives up), deterministic for ``seed``.

    ``avoid`` holds :func:`~battleline_lab.authoring.writer.position_key` values of
    positions not to repeat (the generated puzzles never repeat a position
    either); ``source`` overrides the theme's (``construct`` or ``games``);
    ``levels`` keeps only puzzles whose estimated level lies in that range;
    ``on_found(puzzle)`` is called for each puzzle as it is found (a progress bar);
    ``stats``, if given, receives ``games`` (bot games scanned) and ``seconds`` (CPU time spent).
    """
    if theme in QUESTION_THEMES:
        return _generate_questions(theme, count, seed, avoid=avoid, levels=levels, on_found=on_found)
    spec = THEMES[theme]
    source = source or spec.source
    if source not in SOURCES:
        raise ValueError(f"unknown source {source!r}")
    rng = random.Random(f"{theme}:{seed}")
    seen = set(avoid)
    games_used: set[int] = set()
    titles: set[str] = set()
    out: list[GeneratedPuzzle] = []
    candidates = (
        _constructed(rng, spec.recipe, MAX_CANDIDATES * count)
        if source == "construct"
        else _game_moments(rng, MAX_GAMES * count, stats)
    )
    start = time.process_time()
    for candidate in candidates:
        if len(out) >= count:
            break
        position = candidate.position
        if candidate.game in games_used or position_key(position) in seen:
            continue
        if position.problems() or position.winner() is not None or unreachable(position):
            continue
        if source == "construct" and out and candidate.flag == out[-1].data["question"]["flag"]:
            continue  # vary the flags asked about
        want = spec.answers[len(out) % len(spec.answers)]
        try:
            if can_claim(position, candidate.flag, position.turn) is not want:
                continue  # the verdict alone (decide.py) rules most candidates out without a proof
        except UndecidedTieError:
            continue
        analysis = analyse_claim(position, candidate.flag, position.turn)
        if not spec.accepts(position, analysis, claim_features(position, analysis)):
            continue
        if source == "construct" and analysis.claimable:
            candidate, analysis = _tidy(rng, spec, candidate, analysis)
            position = candidate.position
            if position_key(position) in seen:
                continue
        generated = _puzzle(spec, seed, len(out) + 1, candidate, analysis)
        if not levels[0] <= generated.level <= levels[1]:
            continue
        title = generated.data["title"]["en"]
        if title in titles:  # titles differ within a batch
            continue
        titles.add(title)
        _verify(generated, position)
        seen.add(position_key(position))
        if candidate.game is not None:
            games_used.add(candidate.game)
        out.append(generated)
        if on_found is not None:
            on_found(generated)
    if stats is not None:
        stats["seconds"] = time.process_time() - start
    return out


# -- the other questions: formation, compare, which flags ---------------------------------------------

#: Themes that ask other questions than a claim: what formation, which formation wins, which flags.
QUESTION_THEMES = ("formation", "compare", "which-flags")
_KINDS = (
    FormationKind.WEDGE,
    FormationKind.PHALANX,
    FormationKind.BATTALION,
    FormationKind.SKIRMISH,
    FormationKind.HOST,
)


def _distinct_formation(rng: random.Random, taken: Set[Card] = frozenset()) -> list[Troop] | None:
    cards = _formation(rng, rng.choice(_KINDS), 3)
    if len(set(cards)) < 3 or taken & set(cards):
        return None
    return sorted(cards, key=card_sort_key)


def _question_candidates(theme: str, rng: random.Random, limit: int) -> Iterator[tuple[Position, Question[Any, Any]]]:
    empty = Position.build({})
    for _ in range(limit):
        if theme == "formation":
            cards = _distinct_formation(rng)
            if cards is not None:
                yield empty, FormationQuestion(tuple(cards))
        elif theme == "compare":
            a = _distinct_formation(rng)
            b = _distinct_formation(rng, frozenset(a or ()))
            if a is not None and b is not None:
                yield empty, CompareQuestion(tuple(a), tuple(b), first_complete=rng.choice(("a", "b")))
        else:
            made = _construct(rng, Recipe(noise=(3, 6)))
            if made is not None:
                yield made[0], ClaimableQuestion()


def answer_word(answer: object) -> str:
    if isinstance(answer, bool):
        return "true" if answer else "false"
    if isinstance(answer, list):
        return "[" + ", ".join(str(a) for a in answer) + "]"
    return str(answer)


def _question_texts(
    theme: str, question: Question[Any, Any], answer: object
) -> tuple[dict[str, str], dict[str, str] | None]:
    """A neutral title (what is asked, the cards in words) and the headline shown after answering."""
    title: dict[str, str] = {}
    headline: dict[str, str] = {}
    for lang in LANGUAGES:
        if isinstance(question, FormationQuestion):
            title[lang] = message("class.gen.title.formation", lang, cards=cards_in_words(question.cards, lang))
            headline[lang] = kind_name_for(str(answer), lang)
        elif isinstance(question, CompareQuestion):
            a, b = cards_in_words(question.a, lang), cards_in_words(question.b, lang)
            title[lang] = message("class.gen.title.compare", lang, a=a, b=b)
            decided = question.explain(Position.build({})).decided_by
            headline[lang] = message(f"class.gen.headline.compare.{decided}", lang)
        else:
            title[lang] = message("class.gen.title.which_flags", lang)
    return title, headline or None


def kind_name_for(key: str, lang: str) -> str:
    from ..text.messages import kind_name

    return next((kind_name(k, lang) for k in FormationKind if k.key == key), key)


def _generate_questions(
    theme: str,
    count: int,
    seed: int,
    *,
    avoid: Iterable[Hashable] = (),
    levels: tuple[int, int] = (1, 5),
    on_found: Callable[[GeneratedPuzzle], None] | None = None,
) -> list[GeneratedPuzzle]:
    """Formation, compare and which-flags puzzles: answers varied, titles neutral, deterministic for ``seed``."""
    from .writer import puzzle_key

    rng = random.Random(f"{theme}:{seed}")
    seen = set(avoid)
    out: list[GeneratedPuzzle] = []
    answers: dict[str, int] = {}
    for position, question in _question_candidates(theme, rng, MAX_CANDIDATES * count):
        if len(out) >= count:
            break
        if position.problems() or (theme == "which-flags" and unreachable(position)):
            continue
        try:
            if question.problems(position):
                continue
            answer = question.solve(position)
        except (UndecidedTieError, ValueError):
            continue
        word = answer_word(answer)
        # no answer more than its share: a set whose answers are mostly one word teaches guessing
        if answers.get(word, 0) >= max(2, (count + 1) // 2 if theme == "compare" else count // 3):
            continue
        level = estimate(position, question).level
        if not levels[0] <= level <= levels[1]:
            continue
        number = len(out) + 1
        title, headline = _question_texts(theme, question, answer)
        topics = {"formation": ["formation"], "compare": ["compare", "ranking"]}.get(theme, ["claimable", "mixed"])
        data: dict[str, Any] = {"id": f"{theme}-s{seed}-{number}", "title": title}
        if headline:
            data["headline"] = headline
        data["level"] = level
        data["topics"] = topics
        data["tags"] = [theme, "generated"]
        if theme == "which-flags":
            data.update(position_data(position))  # formation and compare questions need no table
        data["question"] = question.to_data()
        data["answer"] = answer
        origin = {"candidate": number}
        data["note"] = {
            lang: _m("note.text", lang, theme=theme, seed=seed, origin=_m("note.construct", lang, **origin))
            for lang in LANGUAGES
        }
        text = dump_puzzle(data)
        generated = GeneratedPuzzle(data["id"], data, text, level, answer)
        puzzle = load_puzzle_text(text, generated.filename)
        key = ("position", position_key(position)) if theme == "which-flags" else ("puzzle", puzzle_key(puzzle))
        if key in seen or position_key(position) in seen and theme == "which-flags":
            continue
        if not puzzle.is_correct(answer):
            raise AssertionError(f"generated puzzle {generated.id} does not round-trip")  # a bug, not bad input
        seen.add(key)
        answers[word] = answers.get(word, 0) + 1
        out.append(generated)
        if on_found is not None:
            on_found(generated)
    return out


def avoid_keys(folder: str) -> set[Hashable]:
    """The position keys of every puzzle under ``folder`` that loads (files that do not load are skipped)."""
    return {position_key(puzzle.position) for _path, puzzle in load_folder([folder])}
