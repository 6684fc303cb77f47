"""A measurable difficulty estimate for puzzles, computed from the engine's own proof.

An author gives each puzzle a level 1-5 by feel; this module gives a second
opinion that anybody can recompute.  :func:`estimate` asks the question's
engine data (:meth:`~battleline_lab.quiz.questions.Question.explain`: a claim proof,
the proofs of every flag, a comparison or a formation) and counts what a
learner has to think about to reproduce it:

- how many formation kinds the proof must consider (kinds that are merely
  weaker than the claimer's are free, R10), how many concrete shapes it
  must rule out, and how many distinct blocking cards it points at (R13);
- how many cards the opponent still needs (R12);
- whether discards (R31), Fog (R24), Mud (R25), wildcards on either side
  (R20-R22), the tie rule (R11) or the own-hand trap (R13) take part.

Each feature has a weight (:data:`WEIGHTS`); the weighted sum is the
``score`` and :func:`level_for` maps it to a level 1-5.  The measure is
documented, with the table of where authors disagree with it, in
``docs/puzzles.md``.  It is a pure function of a position and a question:
no YAML, no files.

>>> from battleline_lab.core.position import Position
>>> from battleline_lab.quiz.questions import question_from_data
>>> easy = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8 b9 b10"}})
>>> estimate(easy, question_from_data({"kind": "claim", "flag": 5})).level
1
>>> hard = Position.build({5: {"you": "r7 y7 b7", "opponent": "alexander g7"},
...                        1: {"you": "g5", "opponent": "g6"}, 3: {"you": "g8", "opponent": "g9"}})
>>> d = estimate(hard, question_from_data({"kind": "claim", "flag": 5}))
>>> d.level, d.features.wild_theirs, d.features.tie
(5, True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..core.cards import Card, Tactic, Troop
from ..core.claims import ClaimAnalysis, Reason, Step
from ..core.formations import Formation, FormationKind, Strength, plan_shape, shapes
from ..core.position import Position, Side
from .questions import Comparison, Question

__all__ = [
    "Difficulty",
    "Features",
    "LEVEL_THRESHOLDS",
    "WEIGHTS",
    "claim_features",
    "estimate",
    "level_for",
]


@dataclass(frozen=True)
class Features:
    """What a learner must take into account to reproduce the engine's answer.

    ``kinds``: formation kinds the proof examines (R9, R10); ``shapes``:
    concrete shapes it rules out one by one (blocked, short or too weak);
    ``blockers``: distinct face-up cards it points at (R13); ``needed``:
    cards the opponent still needs (R12); ``flags``: flags whose proofs must
    be read (a ``claimable`` question); the flags say which rule families are
    involved.  ``sum_decides`` and ``kind_beats_sum`` describe comparisons.
    """

    kinds: int = 0
    shapes: int = 0
    blockers: int = 0
    needed: int = 0
    flags: int = 1
    wildcards: int = 0
    discards: bool = False
    fog: bool = False
    mud: bool = False
    wild_yours: bool = False
    wild_theirs: bool = False
    tie: bool = False
    hand_trap: bool = False
    counterexample: bool = False
    incomplete: bool = False
    sum_decides: bool = False
    kind_beats_sum: bool = False

    def __repr__(self) -> str:
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            default = f.default
            if value != default:
                parts.append(f.name if value is True else f"{f.name}={value}")
        return f"<Features {' '.join(parts) or 'none'}>"


#: The weight of each feature in the score (counts are multiplied, flags added).
WEIGHTS: Mapping[str, float] = {
    "base": 1.0,
    "extra_kind": 0.5,  # each kind examined beyond the first
    "shape": 0.3,  # each shape ruled out (at most 6 counted)
    "blocker": 0.1,  # each distinct blocking card (at most 8 counted)
    "extra_needed": 0.25,  # each card the opponent needs beyond the first
    "extra_flag": 0.3,  # each further flag of a `claimable` question that needs a proof
    "wildcard": 0.5,  # each wildcard in a comparison or formation
    "discards": 0.75,
    "fog": 0.75,
    "mud": 0.75,
    "wild_yours": 0.75,
    "wild_theirs": 1.0,
    "tie": 0.75,
    "hand_trap": 0.75,
    "sum_decides": 0.25,
    "kind_beats_sum": 0.25,
}

#: A score below the n-th threshold is level n+1; at or above the last, level 5.
LEVEL_THRESHOLDS: tuple[float, ...] = (1.6, 2.5, 3.25, 4.25)

_MAX_BLOCKERS = 8
_MAX_SHAPES = 6


@dataclass(frozen=True)
class Difficulty:
    """The estimate: ``level`` 1-5, the ``score`` behind it and the ``features`` counted."""

    level: int
    score: float
    features: Features

    def __repr__(self) -> str:
        return f"<Difficulty level {self.level} score {self.score:.2f} {self.features!r}>"


def level_for(score: float) -> int:
    """Map a score to a level 1-5 (:data:`LEVEL_THRESHOLDS`).

    >>> [level_for(s) for s in (1.0, 2.0, 3.0, 4.0, 9.0)]
    [1, 2, 3, 4, 5]
    """
    return 1 + sum(1 for t in LEVEL_THRESHOLDS if score >= t)


def _score(f: Features) -> float:
    w = WEIGHTS
    score = w["base"]
    score += w["extra_kind"] * max(0, f.kinds - 1)
    # a failed claim needs one counterexample: the shapes ruled out on the way weigh half
    evidence = 0.5 if f.counterexample else 1.0
    score += evidence * w["shape"] * min(f.shapes, _MAX_SHAPES)
    score += evidence * w["blocker"] * min(f.blockers, _MAX_BLOCKERS)
    score += w["extra_needed"] * max(0, f.needed - 1)
    score += w["extra_flag"] * max(0, f.flags - 1)
    score += w["wildcard"] * f.wildcards
    for name in (
        "discards",
        "fog",
        "mud",
        "wild_yours",
        "wild_theirs",
        "tie",
        "hand_trap",
        "sum_decides",
        "kind_beats_sum",
    ):
        if getattr(f, name):
            score += w[name]
    return round(score, 2)


def _is_wild(card: Card) -> bool:
    return isinstance(card, Tactic) and card.is_wild


_SHAPE_STEPS = (Reason.SHAPE_BLOCKED, Reason.SHAPE_SHORT, Reason.SHAPE_TOO_WEAK)
_KIND_STEPS = (Reason.KIND_RULED_OUT, Reason.KIND_TOO_WEAK, Reason.COUNTEREXAMPLE, *_SHAPE_STEPS)


def _weak_shape_tie(step: Step) -> bool:
    """A tie step that says a too-weak shape of a kind whose sum is free (Battalion, Host, Fog sum)."""
    return step.reason is Reason.AT_BEST_TIE and step.shape is not None and step.shape.kind not in _FIXED


_FIXED = (FormationKind.WEDGE, FormationKind.SKIRMISH, FormationKind.PHALANX)


def claim_features(position: Position, analysis: ClaimAnalysis) -> Features:
    """The features of one claim proof (R12): what its steps make a learner check.

    >>> from battleline_lab.core.claims import analyse_claim
    >>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
    >>> claim_features(pos, analyse_claim(pos, 5))
    <Features kinds=1 shapes=3 blockers=2 needed=2>
    """
    # a refuted claim keeps the shapes its search ruled out apart from its (short) steps:
    # they are still what a learner must see through before finding the counterexample
    steps = analysis.ruled_out + analysis.steps
    reasons = {s.reason for s in steps}
    state = position.flag(analysis.flag)
    theirs = state.formation_cards(analysis.side.other)
    hand = {c for c in position.hand(analysis.side) if isinstance(c, Troop)}
    kinds: set[FormationKind | None] = set()
    blockers: set[Card] = set()
    discards = False
    hand_trap = False
    needed = 0
    for step in steps:
        if step.reason in _KIND_STEPS:
            kinds.add(step.kind)
            if step.reason is Reason.KIND_RULED_OUT:
                kinds.update(step.kinds)  # ruled-out kinds are said in one step
        if step.reason is Reason.AT_BEST_TIE and step.shape is not None:
            kinds.add(step.kind)  # the best completion that ties is said with the tie rule
        if step.reason is Reason.THEIR_FORMATION:
            kinds.add(step.kind)
        if step.reason is Reason.THEY_NEED and step.count is not None:
            needed = step.count
        if step.reason in _SHAPE_STEPS:
            for card, loc in step.where:
                if loc.area == "flag" and loc.flag == analysis.flag:
                    continue  # cards at this very flag are not evidence from elsewhere
                blockers.add(card)
                discards = discards or loc.area == "discard"
        real_best = step.reason is Reason.KIND_TOO_WEAK or (
            step.reason is Reason.AT_BEST_TIE and not _weak_shape_tie(step)
        )
        if hand & set(step.needed) and not real_best:  # the best completion of a fixed sum is no trap
            hand_trap = True
    # a grouped step rules out several shapes at once: each still counts
    shapes_seen = sum(len(s.shapes) or 1 for s in steps if s.reason in _SHAPE_STEPS)
    shapes_seen += sum(len(s.shapes) or 1 for s in steps if _weak_shape_tie(s))
    if analysis.counterexample and analysis.formation is not None:
        # the proof stops at the counterexample; the evidence a learner weighs before finding it still counts
        decoy_shapes, decoy_cards = _decoys(position, analysis.flag, theirs, analysis.formation.strength)
        shapes_seen += decoy_shapes
        for card in decoy_cards:
            blockers.add(card)
            discards = discards or position.visible[card].area == "discard"
    wild_yours = analysis.formation is not None and bool(analysis.formation.wild)
    return Features(
        kinds=len(kinds),
        shapes=shapes_seen,
        blockers=len(blockers),
        needed=needed,
        discards=discards,
        fog=Reason.FOG in reasons,
        mud=Reason.MUD in reasons,
        wild_yours=wild_yours,
        wild_theirs=any(_is_wild(c) for c in theirs),
        tie=bool(reasons & {Reason.AT_BEST_TIE, Reason.TIE_FIRST_COMPLETE}),
        hand_trap=hand_trap,
        counterexample=Reason.COUNTEREXAMPLE in reasons,
        incomplete=Reason.SIDE_INCOMPLETE in reasons,
    )


def _decoys(position: Position, flag: int, theirs: tuple[Card, ...], target: Strength) -> tuple[int, set[Card]]:
    """Evidence around a failed claim: stronger shapes that face-up cards block, and those cards.

    A Wedge shape counts when every way to complete it needs a face-up troop;
    a Phalanx shape when some of its value are face up elsewhere (the learner
    counts them and finds one still unseen).  Cards at ``flag`` itself are not
    counted.
    """
    state = position.flag(flag)
    size = state.size
    unseen = position.unseen_troops()
    here = set(state.you + state.opponent)
    count = 0
    cards: set[Card] = set()
    if state.fog:
        return 0, cards
    for kind in (FormationKind.WEDGE, FormationKind.PHALANX):
        if target.kind is not None and kind < target.kind:
            continue
        for shape in shapes(kind, size):
            plans = plan_shape(shape, theirs, size)
            if not plans or Strength(kind, plans[0].base) <= target:
                continue
            if kind is FormationKind.WEDGE:
                if all(any(t not in unseen for t in p.exact) for p in plans):
                    count += 1
                    cards.update(t for p in plans for t in p.exact if t not in unseen and t not in here)
            else:
                seen = {c for c in position.visible if isinstance(c, Troop) and c.value == shape.value} - here
                if seen:
                    count += 1
                    cards.update(seen)
    return count, cards


def _any(values: Iterable[bool]) -> bool:
    return any(values)


def _claimable_features(position: Position, analyses: Mapping[int, ClaimAnalysis]) -> tuple[Features, float]:
    """The hardest flag's features and score, plus one step per other flag a learner must prove."""
    side: Side = position.turn
    scored: list[tuple[float, Features]] = []
    for n, analysis in analyses.items():
        if not position.flag(n).formation_cards(side):
            continue  # nothing of yours there: nothing to think about
        f = claim_features(position, analysis)
        scored.append((_score(f), f))
    if not scored:
        return Features(flags=0), WEIGHTS["base"]
    scored.sort(key=lambda sf: sf[0], reverse=True)
    top = scored[0][1]
    merged = Features(
        kinds=top.kinds,
        shapes=top.shapes,
        blockers=top.blockers,
        needed=top.needed,
        flags=len(scored),
        discards=_any(f.discards for _, f in scored),
        fog=_any(f.fog for _, f in scored),
        mud=_any(f.mud for _, f in scored),
        wild_yours=_any(f.wild_yours for _, f in scored),
        wild_theirs=_any(f.wild_theirs for _, f in scored),
        tie=_any(f.tie for _, f in scored),
        hand_trap=_any(f.hand_trap for _, f in scored),
        counterexample=_any(f.counterexample for _, f in scored),
        incomplete=_any(f.incomplete for _, f in scored),
    )
    return merged, _score(merged)


def _comparison_features(comparison: Comparison) -> Features:
    a, b = comparison.a, comparison.b
    winner, loser = (a, b) if comparison.winner == "a" else (b, a)
    return Features(
        kinds=len({a.kind, b.kind}),
        wildcards=len(a.wild) + len(b.wild),
        fog=a.fog,
        mud=a.mud,
        tie=comparison.decided_by == "tie",
        sum_decides=comparison.decided_by == "sum",
        kind_beats_sum=comparison.decided_by == "kind" and winner.total < loser.total,
    )


def _formation_features(formation: Formation) -> Features:
    return Features(kinds=1, wildcards=len(formation.wild), mud=formation.mud)


def estimate(position: Position, question: Question[Any, Any]) -> Difficulty:
    """The difficulty of ``question`` about ``position``, from the engine's own answer.

    >>> from battleline_lab.quiz.questions import question_from_data
    >>> q = question_from_data({"kind": "compare", "a": ["r3", "r4", "r5"], "b": ["g9", "b9", "y9"]})
    >>> estimate(Position(), q)
    <Difficulty level 2 score 1.75 <Features kinds=2 kind_beats_sum>>
    """
    data = question.explain(position)
    if isinstance(data, ClaimAnalysis):
        features = claim_features(position, data)
        score = _score(features)
    elif isinstance(data, Comparison):
        features = _comparison_features(data)
        score = _score(features)
    elif isinstance(data, Formation):
        features = _formation_features(data)
        score = _score(features)
    elif isinstance(data, Mapping):
        features, score = _claimable_features(position, data)
    else:  # a kind of its own says what a learner weighs (Question.difficulty_features)
        measured = question.difficulty_features(position, data)
        if measured is None:  # pragma: no cover - a new question kind must say its features
            raise TypeError(f"no difficulty measure for {question.kind!r} questions ({type(data).__name__})")
        features = measured
        score = _score(features)
    return Difficulty(level_for(score), score, features)
