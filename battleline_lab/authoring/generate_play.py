"""Generate ``play`` puzzles: a position and a hand where one card, on the right flag, claims, blocks or wins.

Seeded and deterministic like :mod:`battleline_lab.authoring.generate`: a random table is built
around the point of the goal, then kept only if the engine agrees it is a puzzle
(:meth:`~battleline_lab.quiz.questions.play.PlayQuestion.problems`: at least one right play, not
every play right, the goal not reached already), the position can arise in a game
(:func:`~battleline_lab.core.reachability.unreachable`) and its estimated level is in range.

- ``claim``: your side of a flag lacks one card; the opponent's side is complete or not; some
  cards of your hand complete a formation nothing of theirs can beat (R12), most do not.
- ``block``: the opponent's two cards at a flag can still make a Wedge or a Phalanx with exactly
  one unseen troop, and that troop is in your hand: played anywhere, it is face up and can never
  come to them (R13).
- ``win``: you hold two flags of three adjacent ones (or four flags), and one card of your hand
  makes the last one provable now (R12, R16).

Tactic puzzles (``tactic=True``, ``puzzles/play-tactics``): your hand holds a Deserter (R29) besides
troops, and only a Deserter on the right card of theirs reaches the goal:

- ``claim``: your side of a flag is complete, the opponent's two cards there could still beat it;
  without one of them, nothing they can still get does (R12, R13);
- ``block``: the opponent's two cards could still make a Wedge or a Phalanx; without one of them,
  every troop that would complete it is face up, the deserted one too (R13, R31).

The title says the goal and what is on the flag in words, never the card to play; the note is the
engine's solution.  The ``answer`` written is the engine's set of right plays (a file may leave it
out; ``check`` verifies one that is there).

>>> made = generate_play("claim", 2, seed=3)
>>> [g.data["question"]["goal"] for g in made], all(2 <= g.level <= 5 for g in made)
(['claim', 'claim'], True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any

from ..core.cards import ALL_TROOPS, Card, Colour, Tactic, Troop, card_sort_key
from ..core.decide import UndecidedTieError
from ..core.formations import FormationKind
from ..core.odds import outs
from ..core.position import FLAGS, Position, Side
from ..core.reachability import unreachable
from ..quiz.difficulty import estimate
from ..quiz.loader import load_puzzle_text
from ..quiz.questions.play import PlayQuestion, is_desertion
from ..text.messages import LANGUAGES, message
from .generate import GeneratedPuzzle, cards_in_words
from .writer import dump_puzzle

__all__ = ["GOAL_FOLDERS", "TACTIC_FOLDER", "TACTIC_GOALS", "generate_play"]

#: The library folder of each goal's puzzles.
GOAL_FOLDERS = {"claim": "play-to-claim", "block": "play-to-block", "win": "play-to-win"}
#: The library folder of the tactic puzzles (a Deserter in the hand), and their goals.
TACTIC_FOLDER = "play-tactics"
TACTIC_GOALS = ("claim", "block")
HAND = 6  # R8: 7 at most, one fewer at the claim of a turn under basic timing (R14), as the checker counts it
MAX_TRIES = 4000

_KIND_MAKERS = {
    FormationKind.WEDGE: lambda rng: _run(rng, same_colour=True),
    FormationKind.PHALANX: lambda rng: _same_value(rng),
    FormationKind.BATTALION: lambda rng: [
        troop(c, v) for c, v in zip([rng.choice("roygbp")] * 3, rng.sample(range(1, 11), 3))
    ],
    FormationKind.SKIRMISH: lambda rng: _run(rng, same_colour=False),
    FormationKind.HOST: lambda rng: [troop(rng.choice("roygbp"), rng.randint(1, 10)) for _ in range(3)],
}


def _run(rng: random.Random, *, same_colour: bool) -> list[Troop]:
    low = rng.randint(1, 8)
    colours = [rng.choice("roygbp")] * 3 if same_colour else rng.sample("roygbp", 3)
    return [troop(c, low + i) for i, c in enumerate(colours)]


def _same_value(rng: random.Random) -> list[Troop]:
    value = rng.randint(1, 10)
    return [troop(c, value) for c in rng.sample("roygbp", 3)]


def troop(letter: str, value: int) -> Troop:
    return Troop(Colour(letter), value)


class _Table:
    """A position under construction: the flags' cards, the discards, your hand, every card used once."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.flags: dict[int, dict[str, list[Card]]] = {n: {"you": [], "opponent": []} for n in FLAGS}
        self.claimed: dict[int, str] = {}
        self.hand: list[Card] = []
        self.used: set[Card] = set()

    def free(self, cards: Iterable[Card]) -> bool:
        cards = list(cards)
        return len(set(cards)) == len(cards) and not (self.used & set(cards))

    def put(self, flag: int, side: str, cards: Iterable[Card]) -> bool:
        cards = list(cards)
        if not self.free(cards):
            return False
        self.flags[flag][side].extend(cards)
        self.used.update(cards)
        return True

    def give(self, cards: Iterable[Card]) -> bool:
        cards = list(cards)
        if not self.free(cards):
            return False
        self.hand.extend(cards)
        self.used.update(cards)
        return True

    def unused(self) -> list[Troop]:
        return [t for t in ALL_TROOPS if t not in self.used]

    def fill_hand(self) -> None:
        pool = self.unused()
        self.rng.shuffle(pool)
        self.hand.extend(pool[: HAND - len(self.hand)])
        self.used.update(self.hand)

    def noise(self, flags: Iterable[int], most: int = 2) -> None:
        """A few cards on other flags, neither side complete (the table of a game in progress)."""
        for n in flags:
            for side in ("you", "opponent"):
                room = 2 - len(self.flags[n][side])
                k = self.rng.randint(0, min(most, room)) if room > 0 else 0
                pool = self.unused()
                self.put(n, side, self.rng.sample(pool, k))

    def balance(self, open_flags: list[int]) -> None:
        """Cards played so far: you as many as the opponent, or one more (R5): add a card where needed."""
        for _ in range(12):
            you = sum(len(f["you"]) for f in self.flags.values())
            opp = sum(len(f["opponent"]) for f in self.flags.values())
            if you in (opp, opp + 1):
                return
            side = "you" if you < opp else "opponent"
            spots = [n for n in open_flags if len(self.flags[n][side]) < 2]
            if not spots:
                return
            self.put(self.rng.choice(spots), side, [self.rng.choice(self.unused())])

    def face_up(self, cards: Iterable[Card], flags: list[int]) -> bool:
        """Each of ``cards`` face up on a side with room of one of ``flags``; False at the first card used already."""
        for card in cards:
            spots = [(n, s) for n in flags for s in ("you", "opponent") if len(self.flags[n][s]) < 2]
            n, side = self.rng.choice(spots)
            if not self.put(n, side, [card]):
                return False
        return True

    def finish(self, others: list[int], noise: tuple[int, int], most: int = 2) -> None:
        """The rest of the table: cards on ``noise`` (fewest, most) of the ``others`` flags, at most ``most`` a
        side (:meth:`noise`), the cards played balanced (:meth:`balance`), the hand filled."""
        self.noise(self.rng.sample(others, min(len(others), self.rng.randint(*noise))), most)
        self.balance(others)
        self.fill_hand()

    def position(self) -> Position:
        flags: dict[int, dict[str, Any]] = {}
        for n, sides in self.flags.items():
            if sides["you"] or sides["opponent"]:
                entry: dict[str, Any] = {"you": sides["you"], "opponent": sides["opponent"]}
                if n in self.claimed:
                    entry["claimed_by"] = self.claimed[n]
                flags[n] = entry
        hand = sorted(self.hand, key=card_sort_key)
        return Position.build(flags, hand={"you": hand})


def _claim_table(rng: random.Random) -> tuple[_Table, PlayQuestion] | None:
    t = _Table(rng)
    focus = rng.choice(FLAGS)
    mine = _KIND_MAKERS[
        rng.choice([FormationKind.WEDGE, FormationKind.PHALANX, FormationKind.BATTALION, FormationKind.WEDGE])
    ](rng)
    missing = rng.randrange(3)
    theirs = _KIND_MAKERS[rng.choice(list(FormationKind))](rng)
    if not t.put(focus, "you", [c for i, c in enumerate(mine) if i != missing]):
        return None
    if not t.put(focus, "opponent", theirs[: rng.choice((2, 3, 3))]):
        return None
    # your hand: the missing card (or a near one), then cards that look as good
    if not t.give([mine[missing]]):
        return None
    t.finish([n for n in FLAGS if n != focus], (2, 4))
    return t, PlayQuestion("claim", focus)


def _their_two(t: _Table) -> tuple[int, FormationKind, list[Troop], list[Troop]] | None:
    """What a block puzzle is about: the opponent's two cards at a flag, of a Wedge or a Phalanx they may still
    complete: (the flag, the kind, the three troops of it, the two on the table); None if a card is used."""
    rng = t.rng
    focus = rng.choice(FLAGS)
    kind = rng.choice([FormationKind.WEDGE, FormationKind.WEDGE, FormationKind.PHALANX])
    theirs = _KIND_MAKERS[kind](rng)
    two = rng.sample(theirs, 2)
    return (focus, kind, theirs, two) if t.put(focus, "opponent", two) else None


def _block_table(rng: random.Random) -> tuple[_Table, PlayQuestion] | None:
    t = _Table(rng)
    made = _their_two(t)
    if made is None:
        return None
    focus, kind, _theirs, two = made
    probe = Position.build({focus: {"opponent": two}})
    troops = next((k.troops for k in outs(probe, focus, Side.OPPONENT).kinds if k.kind is kind), ())
    if not troops or len(troops) > 4:
        return None
    needed = list(troops)
    rng.shuffle(needed)
    last, seen = needed[0], needed[1:]
    if not t.give([last]):
        return None
    others = [n for n in FLAGS if n != focus]
    if not t.face_up(seen, others):  # the other outs face up, on a flag's side with room
        return None
    if rng.random() < 0.5:
        t.put(focus, "you", rng.sample(t.unused(), rng.randint(1, 2)))
    t.finish(others, (1, 3), most=1)
    return t, PlayQuestion("block", focus, kind.key)


def _win_table(rng: random.Random) -> tuple[_Table, PlayQuestion] | None:
    t = _Table(rng)
    if rng.random() < 0.75:
        start = rng.randint(1, 7)
        window = [start, start + 1, start + 2]
        last = rng.choice(window)
        held = [n for n in window if n != last]
    else:
        held = sorted(rng.sample(FLAGS, 4))
        if any({n, n + 1, n + 2} <= set(held) for n in range(1, 8)):
            return None
        rest = [n for n in FLAGS if n not in held and not any({m, m + 1, m + 2} <= {*held, n} for m in range(1, 8))]
        if not rest:
            return None
        last = rng.choice(rest)
    for n in held:  # your claimed flags: a strong formation of yours over a weak one of theirs
        strong = _KIND_MAKERS[rng.choice([FormationKind.WEDGE, FormationKind.PHALANX])](rng)
        weak = _KIND_MAKERS[FormationKind.HOST](rng)
        if not (t.put(n, "you", strong) and t.put(n, "opponent", weak)):
            return None
        t.claimed[n] = "you"
    if rng.random() < 0.6:  # a flag of theirs too
        opp_flag = rng.choice([n for n in FLAGS if n not in held and n != last])
        strong = _KIND_MAKERS[rng.choice([FormationKind.WEDGE, FormationKind.PHALANX, FormationKind.BATTALION])](rng)
        weak = _KIND_MAKERS[FormationKind.HOST](rng)
        if not (t.put(opp_flag, "opponent", strong) and t.put(opp_flag, "you", weak)):
            return None
        t.claimed[opp_flag] = "opponent"
    mine = _KIND_MAKERS[rng.choice([FormationKind.WEDGE, FormationKind.PHALANX, FormationKind.BATTALION])](rng)
    missing = rng.randrange(3)
    if not t.put(last, "you", [c for i, c in enumerate(mine) if i != missing]):
        return None
    theirs = _KIND_MAKERS[rng.choice(list(FormationKind))](rng)
    if not t.put(last, "opponent", theirs[: rng.choice((2, 3))]):
        return None
    if not t.give([mine[missing]]):
        return None
    t.finish([n for n in FLAGS if n not in held and n != last and n not in t.claimed], (1, 3))
    return t, PlayQuestion("win")


def _tactic_claim_table(rng: random.Random) -> tuple[_Table, PlayQuestion] | None:
    t = _Table(rng)
    focus = rng.choice(FLAGS)
    mine = _KIND_MAKERS[rng.choice([FormationKind.WEDGE, FormationKind.PHALANX, FormationKind.BATTALION])](rng)
    theirs = _KIND_MAKERS[rng.choice([FormationKind.WEDGE, FormationKind.WEDGE, FormationKind.PHALANX])](rng)
    if not (t.put(focus, "you", mine) and t.put(focus, "opponent", rng.sample(theirs, 2))):
        return None
    if not t.give([Tactic.DESERTER]):
        return None
    t.finish([n for n in FLAGS if n != focus], (2, 4))
    return t, PlayQuestion("claim", focus)


def _tactic_block_table(rng: random.Random) -> tuple[_Table, PlayQuestion] | None:
    t = _Table(rng)
    made = _their_two(t)
    if made is None:
        return None
    focus, kind, theirs, _two = made
    if not t.give([Tactic.DESERTER]):
        return None
    others = [n for n in FLAGS if n != focus]
    # troops of their colour or value face up elsewhere: what the deserted card's partner would need
    near = [c for c in t.unused() if any(c.colour == x.colour or c.value == x.value for x in theirs)]
    if not t.face_up(rng.sample(near, min(len(near), rng.randint(1, 3))), others):
        return None  # (never: the cards are unused and distinct)
    if rng.random() < 0.5:
        t.put(focus, "you", rng.sample(t.unused(), rng.randint(1, 2)))
    t.finish(others, (1, 3), most=1)
    return t, PlayQuestion("block", focus, kind.key)


_TABLES = {"claim": _claim_table, "block": _block_table, "win": _win_table}
_TACTIC_TABLES = {"claim": _tactic_claim_table, "block": _tactic_block_table}


def _title(question: PlayQuestion, position: Position, lang: str, *, tactic: bool = False) -> str:
    if question.goal == "win":
        held = [str(n) for n in position.claimed(Side.YOU)]
        theirs = [str(n) for n in position.claimed(Side.OPPONENT)]
        key = "playq.title.win" if theirs else "playq.title.win.none"
        return message(
            key,
            lang,
            held=message("list.sep", lang).join(held),
            theirs=message("list.sep", lang).join(theirs),
            cards=cards_in_words(position.hand_you, lang),
        )
    assert question.flag is not None
    state = position.flag(question.flag)
    if question.goal == "block":
        return message(
            "playq.title.tactic.block" if tactic else "playq.title.block",
            lang,
            flag=question.flag,
            kind=message(f"kind.{question.formation}", lang),
            cards=cards_in_words(state.opponent, lang),
        )
    return message(
        "playq.title.tactic.claim" if tactic else "playq.title.claim",
        lang,
        flag=question.flag,
        you=cards_in_words(state.you, lang),
        them=cards_in_words(state.opponent, lang) or message("playq.title.nothing", lang),
    )


def _candidates(goal: str, rng: random.Random, *, tactic: bool) -> Iterator[tuple[Position, PlayQuestion]]:
    tables = _TACTIC_TABLES if tactic else _TABLES
    for _ in range(MAX_TRIES):
        made = tables[goal](rng)
        if made is None:
            continue
        table, question = made
        try:
            position = table.position()
        except ValueError:
            continue
        yield position, question


def generate_play(
    goal: str,
    count: int,
    seed: int,
    *,
    levels: tuple[int, int] = (2, 5),
    avoid_titles: Iterable[str] = (),
    tactic: bool = False,
) -> list[GeneratedPuzzle]:
    """``count`` play puzzles of ``goal`` (``claim``, ``block``, ``win``), deterministic for ``seed``;
    ``tactic``: with a Deserter in the hand, the only right plays being a Deserter on a card of theirs."""
    rng = random.Random(f"play-{'tactic-' if tactic else ''}{goal}:{seed}")
    folder = TACTIC_FOLDER if tactic else GOAL_FOLDERS[goal]
    stem = f"{TACTIC_FOLDER}-{goal}" if tactic else GOAL_FOLDERS[goal]
    taken = set(avoid_titles)
    out: list[GeneratedPuzzle] = []
    for position, question in _candidates(goal, rng, tactic=tactic):
        if len(out) >= count:
            break
        if position.problems() or unreachable(position):
            continue
        try:
            if tactic and not question.a_desertion_reaches(position):
                continue  # rejected below too (no right play, or only troops), but only after judging every play
            if question.problems(position):
                continue
            if tactic and not all(is_desertion(p) for p in question.explain(position).right):
                continue  # a troop that does it too: not a puzzle about the Deserter
            level = estimate(position, question).level
        except (UndecidedTieError, ValueError):
            continue
        if not levels[0] <= level <= levels[1]:
            continue
        title = {lang: _title(question, position, lang, tactic=tactic) for lang in LANGUAGES}
        if set(title.values()) & taken:
            continue
        number = len(out) + 1
        data: dict[str, Any] = {
            "id": f"{stem}-s{seed}-{number}",
            "title": title,
            "level": level,
            "topics": ["play", *([question.formation] if question.formation else [])],
            "tags": [folder, *([GOAL_FOLDERS[goal]] if tactic else []), "generated"],
        }
        data.update(position.to_data())
        data["question"] = question.to_data()
        data["answer"] = question.solve(position)  # the engine's set: ``check`` verifies it like any answer
        data["note"] = {
            lang: " ".join([message("playq.note", lang, seed=seed), *question.key_lines(position, lang)])
            for lang in LANGUAGES
        }
        text = dump_puzzle(data)
        generated = GeneratedPuzzle(data["id"], data, text, level, question.solve(position))
        puzzle = load_puzzle_text(text, generated.filename)  # a bug, not bad input, if it does not load
        if puzzle.question is None or puzzle.question.problems(puzzle.position):
            raise AssertionError(f"generated puzzle {generated.id} does not round-trip")
        taken.update(title.values())
        out.append(generated)
    return out
