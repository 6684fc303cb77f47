"""Claim proofs (R12-R13): can a side claim a flag, and why.

The decision never enumerates combinations of unseen cards.  It walks the
formation kinds that could beat the claimer, strongest first, and for each
*shape* of a kind (a blue Wedge 6-7-8, a Phalanx of 8s, a green Battalion, ...)
asks which unseen troops (R13) it would need.  A shape is *blocked* when one of
its cards is already face up, *short* when too few troops of a value or colour
are left, *too weak* when even its best completion does not beat the claimer.
The first shape that is possible and strong enough is the counterexample.

A proof that holds stays short without dropping a reason: the blocked shapes
of a kind are one step naming every face-up card they need ("a blue Wedge
8-9-10, 7-8-9 or 6-7-8 would need b7 or b10, but ..."), the kinds their cards
cannot make are one step, the unseen count is said once (with the hand), and a
kind too weak to win is said by its real best completion, with the tie rule
when that completion ties (R11).

The proof explains the decision rather than redoing it: the decision path
(:func:`battleline_lab.core.decide.beating`) finds the completion that beats the
claimer, and a refusal is that completion said as steps; the shapes a search
would rule out before reaching it (``ClaimAnalysis.ruled_out``) are worked out
only when read (:class:`RuledOut`).  A proof that holds walks every shape: its
steps are the proof.

The result is data: a :class:`ClaimAnalysis` whose ``steps`` are
:class:`Step` values, each a :class:`Reason` from a closed vocabulary plus the
cards it is about; each made by its own constructor (NamedTuples).  Prose
comes from :mod:`battleline_lab.text.messages`.

>>> from battleline_lab.core.position import Position, Side
>>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
>>> analyse_claim(pos, 5, Side.YOU).claimable
True
>>> [s.reason.value for s in analyse_claim(pos, 5, Side.YOU).steps][:3]
['your_formation', 'they_need', 'unseen']
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from . import decide as _decide
from .cards import Card, Tactic, Troop
from .decide import UndecidedTieError
from .formations import (
    S_WILDS,
    WILD_MASK,
    Formation,
    FormationKind,
    Shape,
    ShapeFilter,
    ShapePlan,
    Strength,
    evaluate,
    judge,
    judged,
    plan_shape,
    side_strength,
    summarise,
)
from .position import FLAGS, FlagState, Location, Position, Side, check_side

__all__ = [
    "ClaimAnalysis",
    "PositionAnalysis",
    "Reason",
    "Step",
    "UndecidedTieError",
    "analyse_claim",
    "analyse_position",
    "can_claim",
    "claimable_flags",
    "state_unseen_once",
]


class Reason(enum.Enum):
    """The closed vocabulary of proof steps; ``rule`` is the RULES.md id it rests on."""

    FLAG_CLAIMED = "flag_claimed"
    SIDE_INCOMPLETE = "side_incomplete"
    FOG = "fog"
    MUD = "mud"
    YOUR_FORMATION = "your_formation"
    THEIR_FORMATION = "their_formation"
    YOU_ARE_STRONGER = "you_are_stronger"
    THEY_ARE_STRONGER = "they_are_stronger"
    TIE_FIRST_COMPLETE = "tie_first_complete"
    THEY_NEED = "they_need"
    UNSEEN = "unseen"
    HAND_NOT_EVIDENCE = "hand_not_evidence"
    LOWER_KINDS = "lower_kinds"
    KIND_RULED_OUT = "kind_ruled_out"
    KIND_TOO_WEAK = "kind_too_weak"
    SHAPE_BLOCKED = "shape_blocked"
    SHAPE_SHORT = "shape_short"
    SHAPE_TOO_WEAK = "shape_too_weak"
    AT_BEST_TIE = "at_best_tie"
    COUNTEREXAMPLE = "counterexample"
    CAN_CLAIM = "can_claim"
    CANNOT_CLAIM = "cannot_claim"

    @property
    def rule(self) -> str:
        return _RULES[self]


_RULES = {
    Reason.FLAG_CLAIMED: "R15",
    Reason.SIDE_INCOMPLETE: "R12",
    Reason.FOG: "R24",
    Reason.MUD: "R25",
    Reason.YOUR_FORMATION: "R9",
    Reason.THEIR_FORMATION: "R9",
    Reason.YOU_ARE_STRONGER: "R10",
    Reason.THEY_ARE_STRONGER: "R10",
    Reason.TIE_FIRST_COMPLETE: "R11",
    Reason.THEY_NEED: "R12",
    Reason.UNSEEN: "R13",
    Reason.HAND_NOT_EVIDENCE: "R13",
    Reason.LOWER_KINDS: "R10",
    Reason.KIND_RULED_OUT: "R9",
    Reason.KIND_TOO_WEAK: "R10",
    Reason.SHAPE_BLOCKED: "R13",
    Reason.SHAPE_SHORT: "R13",
    Reason.SHAPE_TOO_WEAK: "R10",
    Reason.AT_BEST_TIE: "R11",
    Reason.COUNTEREXAMPLE: "R12",
    Reason.CAN_CLAIM: "R12",
    Reason.CANNOT_CLAIM: "R12",
}


class Step(NamedTuple):
    """One step of a proof: a reason and the cards it is about.

    ``cards`` are cards on the table the step talks about (to highlight);
    ``needed`` are troops a completion would need from the unseen cards;
    ``where`` says where visible cards lie; ``shapes`` lists every shape a
    grouped step rules out at once (``shape`` is then the first, or the best);
    the other fields are filled as the reason requires (see the message
    catalogue for which).

    A NamedTuple rather than a frozen dataclass: a position's proofs make some sixty steps of
    nineteen fields, and a frozen dataclass's ``__init__`` sets each field with a call of its own
    (about three times the cost of the tuple made at once, which doubled the full proof's time).
    ``count`` is a field here: it hides the tuple's ``count`` method, which no step needs.
    """

    reason: Reason
    side: Side
    flag: int
    cards: tuple[Card, ...] = ()
    needed: tuple[Troop, ...] = ()
    where: tuple[tuple[Card, Location], ...] = ()
    kind: FormationKind | None = None
    kinds: tuple[FormationKind, ...] = ()
    total: int | None = None
    count: int | None = None  # type: ignore[assignment]  # (the field, not tuple.count: see above)
    available: int | None = None
    size: int | None = None
    shape: Shape | None = None
    shapes: tuple[Shape, ...] = ()
    value: int | None = None
    wild: tuple[tuple[Card, Troop], ...] = ()
    other: Side | None = None
    other_kind: FormationKind | None = None
    other_total: int | None = None

    @property
    def rule(self) -> str:
        return self.reason.rule

    @property
    def highlight(self) -> tuple[Card, ...]:
        """Every card on the table this step points at."""
        return self.cards + tuple(c for c, _ in self.where)

    def __repr__(self) -> str:
        bits = [self.reason.value]
        if self.cards:
            bits.append(" ".join(c.notation for c in self.cards))
        if self.needed:
            bits.append("needs " + " ".join(c.notation for c in self.needed))
        if self.where:
            bits.append("seen " + " ".join(c.notation for c, _ in self.where))
        return f"<Step {' | '.join(bits)}>"


def _short_step(reason: Reason, side: Side, flag: int, cards: tuple[Card, ...], size: int) -> Step:
    """The step that says a side is short of a formation (R12, R25): the claimer's
    (``SIDE_INCOMPLETE``) or the other side's (``THEY_NEED``), with its cards and how many more of
    ``size`` it needs."""
    # positional (cards, needed, where, kind, kinds, total, count, available, size): a NamedTuple's
    # generated __new__ takes positions faster than keywords
    return Step(reason, side, flag, cards, (), (), None, (), None, size - len(cards), None, size)


def _compared_step(
    side: Side, flag: int, formation: Formation, their: Formation, order: int, first: Side | None
) -> Step:
    """The step that compares two complete formations (R10): the claimer's ``formation`` is
    stronger (``order`` 1), ``their`` is (-1), or they tie and ``first`` completed first (0, R11)."""
    # positional, as in _short_step (cards, needed, where, kind, kinds, total, count, available, size, shape,
    # shapes, value, wild, other, other_kind, other_total); the reason from the table of orders
    if order:
        stronger, weaker = (formation, their) if order > 0 else (their, formation)
        return Step(
            _COMPARED[order], side, flag, (), (), (), stronger.kind, (), stronger.total, None, None, None, None, (),
            None, (), None, weaker.kind, weaker.total,
        )  # fmt: skip
    return Step(
        _COMPARED[0], side, flag, (), (), (), formation.kind, (), formation.total, None, None, None, None, (), None,
        (), first,
    )  # fmt: skip


# the reason a comparison of two complete sides gives, by its order (1: the claimer's is stronger, -1: the
# other's, 0: a tie), a table read by subscript: Python 3.11 reads ``Reason.X`` through the enum
# metaclass's attribute hook, several times slower, and most positions compare some sides
_COMPARED = {1: Reason.YOU_ARE_STRONGER, -1: Reason.THEY_ARE_STRONGER, 0: Reason.TIE_FIRST_COMPLETE}


def _formation_step(
    reason: Reason,
    side: Side,
    flag: int,
    cards: tuple[Card, ...],
    formation: Formation,
    needed: tuple[Troop, ...] = (),
) -> Step:
    """The step that names a complete formation (R9): the claimer's (``YOUR_FORMATION``), the other
    side's (``THEIR_FORMATION``) or the completion of the other side's ``cards`` by the unseen troops
    ``needed`` that beats the claimer (``COUNTEREXAMPLE``, R12), with its kind, sum and what each
    wildcard stands for."""
    # positional, as in _short_step (cards, needed, where, kind, kinds, total, count, available, size, shape,
    # shapes, value, wild)
    return Step(
        reason,
        side,
        flag,
        cards,
        needed,
        (),
        formation.kind,
        (),
        formation.total,
        None,
        None,
        None,
        None,
        (),
        None,
        formation.wild,
    )


class RuledOut:
    """The shapes a refusal's search rules out before the completion that beats the claimer.

    A value of :class:`ClaimAnalysis` (its ``search`` field; read it as ``ClaimAnalysis.ruled_out``).
    Working them out is the whole walk over every shape, which a refusal otherwise skips (the
    decision path finds the completion at once), and only measures such as puzzle difficulty read
    them: so a refusal keeps what the walk needs (``search``) and runs it when first read, once.
    Equality, hashing, pickling and copying go by the steps themselves.
    """

    __slots__ = ("_search", "_steps")

    def __init__(self, steps: tuple[Step, ...] = (), search: _Search | None = None) -> None:
        self._steps = steps
        self._search = search

    @property
    def steps(self) -> tuple[Step, ...]:
        search = self._search
        if search is not None:  # the walk, once: the steps are kept and the search let go
            self._steps = _Prover(*search).run().ruled_out
            self._search = None
        return self._steps

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuledOut) and self.steps == other.steps

    def __hash__(self) -> int:
        return hash(self.steps)

    def __reduce__(self) -> tuple[type[RuledOut], tuple[tuple[Step, ...]]]:
        return RuledOut, (self.steps,)  # a pickled or copied analysis carries no search with it

    def __repr__(self) -> str:
        return f"RuledOut({self.steps!r})"


_NOTHING_RULED_OUT = RuledOut()


class ClaimAnalysis(NamedTuple):
    """Whether ``side`` can claim ``flag`` now (R12), with the proof steps.

    When the claim fails because the opponent could still win, ``counterexample``
    holds the unseen troops that complete their side, and ``opponent_formation``
    what they would make.  The refutation in ``steps`` is then short: the
    counterexample alone refutes the claim.  The shapes the search ruled out
    before it found the counterexample are kept apart in ``ruled_out`` (data for
    measures such as puzzle difficulty, not part of the explanation; worked out
    when first read, see :class:`RuledOut`).

    A NamedTuple, as :class:`Step` is: a position's analysis makes one per flag and side, and the
    tuple is made at once where a frozen dataclass sets its eight fields one call each.
    """

    flag: int
    side: Side
    claimable: bool
    steps: tuple[Step, ...]
    formation: Formation | None = None
    opponent_formation: Formation | None = None
    counterexample: tuple[Troop, ...] = ()
    search: RuledOut = _NOTHING_RULED_OUT

    @property
    def ruled_out(self) -> tuple[Step, ...]:
        """The shapes the search ruled out before the counterexample (``()`` for any other proof)."""
        return self.search.steps

    @property
    def reasons(self) -> tuple[Reason, ...]:
        return tuple(s.reason for s in self.steps)

    def deciding_step(self) -> Step:
        """The step a one-line summary should quote: the one the verdict turns on.

        The counterexample (R12), the comparison of two complete sides (R10, R11),
        an incomplete side or a claimed flag; for a proof that holds, the tie rule
        when the opponent can at best tie (R11), else the step that rules out
        their strongest chance (the first step of the search).

        >>> from battleline_lab.core.position import Position
        >>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
        >>> analyse_claim(pos, 5, "you").deciding_step().reason.value
        'shape_blocked'
        """
        by_reason = {s.reason: s for s in self.steps}
        for reason in _DECIDING_FIRST:
            if reason in by_reason:
                return by_reason[reason]
        for step in self.steps:
            if step.reason in _SEARCH_REASONS or step.reason is Reason.LOWER_KINDS:
                return step
        return self.steps[-2] if len(self.steps) > 1 else self.steps[-1]

    def without_unseen(self) -> ClaimAnalysis:
        """The same analysis without its unseen count (R13): for a proof read after another of the same position.

        Every flag of a position shares one count of unseen troops, so a proof
        over several flags states it once (:func:`state_unseen_once`).
        """
        return self._replace(steps=tuple(s for s in self.steps if s.reason is not Reason.UNSEEN))

    def explain(self, lang: str = "en") -> str:
        """The proof as numbered lines of text."""
        from ..text.messages import render_analysis

        return "\n".join(render_analysis(self, lang))

    def __repr__(self) -> str:
        verdict = "claimable" if self.claimable else "not claimable"
        return f"<ClaimAnalysis flag {self.flag} {self.side.value}: {verdict}, {len(self.steps)} steps>"

    def _repr_html_(self) -> str:
        """The flag (counterexample as ghost cards) and the numbered proof, for Jupyter (lazy import)."""
        from ..render.svg import RULES_PAGE, analysis_html

        return analysis_html(self, rules=RULES_PAGE)  # each rule id a link to the lessons' rules page


_VALUE_BITS, _COLOUR_BITS = _decide.VALUE_BITS, _decide.COLOUR_BITS
_troop_bits = _decide.troop_mask
_troops_of = _decide.troops_of
_BY_INDEX = _decide.BY_INDEX
_Pool = _decide.Pool
_SIDES = (Side.YOU, Side.OPPONENT)


def _fixed_total(shape: Shape, size: int) -> int:
    """The sum of a Wedge, Skirmish Line or Phalanx shape: fixed by the shape itself (R10)."""
    if shape.value is not None:
        return shape.value * size
    assert shape.start is not None
    return size * shape.start + size * (size - 1) // 2


class _Candidate:
    """A shape their cards leave open, with what the search asks of it that no pool changes.

    ``masks`` are the troops each plan needs exactly (a Wedge's), as bit sets for the pool
    test (0 for a plan without exact troops); ``needed`` every troop some plan needs, sorted,
    ``extra`` how many of them a wildcard could stand for, ``wild`` the one plan's wildcards:
    the fields of the step that says the shape is blocked (R13).
    """

    __slots__ = ("shape", "plans", "fixed_total", "masks", "needed", "needed_mask", "extra", "wild")

    def __init__(self, shape: Shape, plans: tuple[ShapePlan, ...], fixed_total: int) -> None:
        self.shape = shape
        self.plans = plans
        self.fixed_total = fixed_total
        self.masks = tuple(_troop_bits(p.exact) for p in plans)
        needed: list[Troop] = []
        for p in plans:
            needed.extend(t for t in p.exact if t not in needed)
        self.needed = tuple(sorted(needed))
        self.needed_mask = _troop_bits(needed)
        self.extra = len(needed) - len(plans[0].exact)
        self.wild = plans[0].wild if len(plans) == 1 else ()


@functools.lru_cache(maxsize=4096)
def _candidates(kind: FormationKind | None, theirs: tuple[Card, ...], size: int) -> tuple[_Candidate, ...]:
    """The shapes of ``kind`` that ``theirs`` can still complete, strongest first, with their plans.

    Each comes with its fixed sum (Wedge, Skirmish Line, Phalanx; 0 for the others).  It depends
    on their cards alone, not on the unseen cards, so it is worked out once per side's cards
    (remembered: it is never changed).  Shapes the cards rule out (:class:`~.formations.ShapeFilter`, or no plan)
    are left out: the search skips them anyway.
    """
    fixed = kind in (FormationKind.WEDGE, FormationKind.SKIRMISH, FormationKind.PHALANX)
    out = []
    for shape in _shape_filter(theirs, size).open_shapes(kind):
        plans = plan_shape(shape, theirs, size)
        if plans:
            out.append(_Candidate(shape, tuple(plans), _fixed_total(shape, size) if fixed else 0))
    return tuple(out)


# one filter per side's cards, for every kind the search asks _candidates about (remembered likewise)
_shape_filter = functools.lru_cache(maxsize=1024)(ShapeFilter)


def _total(plan: ShapePlan, fill: Sequence[Troop]) -> int:
    if plan.shape.kind in (FormationKind.BATTALION, FormationKind.HOST, None):
        return plan.base + sum(t.value for t in fill)
    return plan.base


class _Prover:
    """Builds the steps for one flag and one claiming side, eagerly, by the walk over every shape.

    ``analyse_position`` and ``analyse_claim`` say most proofs with flat functions (``_incomplete``,
    ``_both``, ``_against``); the walk is left for a proof that holds, a claimed flag and a
    refutation's ``ruled_out`` (the shapes ruled out before its completion).
    """

    def __init__(self, position: Position, pool: _Pool, flag: int, side: Side, cards: _FlagCards) -> None:
        self.position = position
        self.cards = cards
        self.pool = pool
        self.flag = flag
        self.side = side
        self.state = position.flags[flag - 1]
        you, opponent, self.fog, self.mud = cards
        self.size = 4 if self.mud else 3  # formation_size (R25)
        self.mine, self.theirs = (you, opponent) if side is Side.YOU else (opponent, you)
        self.mine_at = 0 if side is Side.YOU else 1  # (this side's index in ``memo``, the other's is 1 - it)
        self.memo: list[_Judged | None] = [None, None]  # each complete side judged once
        self.steps: list[Step] = []

    def unseen(self) -> tuple[_UnseenFields, int]:
        """The unseen step's fields for this side and its hand's troops as a bit set (see :func:`_unseen`)."""
        return _unseen(self.pool, self.position, self.side)

    def judge(self, at: int) -> _Judged:
        """A complete side (0: you, 1: the opponent) summarised and judged: what ``evaluate`` gives, and its key."""
        got = self.memo[at]
        if got is None:
            cards = self.mine if at == self.mine_at else self.theirs
            summary = summarise(cards)
            rank, total = side_strength(summary, self.size, self.fog)  # what evaluate takes its kind and sum from
            got = self.memo[at] = (rank, total, judged(cards, bool(summary[S_WILDS]), rank, total, self.fog, self.mud))
        return got

    def step(self, reason: Reason, **fields: object) -> None:
        self.steps.append(Step(reason, self.side, self.flag, **fields))  # type: ignore[arg-type]

    def done(
        self,
        claimable: bool,
        formation: Formation | None = None,
        opponent_formation: Formation | None = None,
        counterexample: tuple[Troop, ...] = (),
        ruled_out: tuple[Step, ...] = (),
    ) -> ClaimAnalysis:
        # the last step, one shared (immutable) value per side and flag
        self.steps.append((_CAN if claimable else _CANNOT)[self.mine_at * 9 + self.flag - 1])
        search = RuledOut(ruled_out) if ruled_out else _NOTHING_RULED_OUT
        return ClaimAnalysis(
            self.flag, self.side, claimable, tuple(self.steps), formation, opponent_formation, counterexample, search
        )

    def run(self) -> ClaimAnalysis:
        state, side = self.state, self.side
        if state.claimed_by is not None:
            self.step(Reason.FLAG_CLAIMED, other=state.claimed_by)
            return self.done(False)
        mine, theirs, size, flag = self.mine, self.theirs, self.size, self.flag
        if len(mine) < size:
            return _incomplete(self.mine_at * 9 + flag - 1, mine, size)
        rank, total, formation = self.judge(self.mine_at)
        if len(theirs) < size:
            at = self.mine_at * 9 + flag - 1
            self.steps = list(_opening(at, self.fog, self.mud, mine, theirs, formation, self.unseen()[0]))
            return self._search(formation, theirs, size, formation.strength)
        at = self.mine_at * 9 + flag - 1  # (the steps every proof of a side and flag shares)
        self.steps = [
            *((_MUD_STEP[at],) if self.mud else ()),
            *((_FOG_STEP[at],) if self.fog else ()),
            _formation_step(Reason.YOUR_FORMATION, side, flag, mine, formation),
        ]
        return self._complete(formation, theirs, (rank, total))

    def _complete(self, formation: Formation, theirs: tuple[Card, ...], mine_key: tuple[int, int]) -> ClaimAnalysis:
        side, flag, steps = self.side, self.flag, self.steps
        rank, total, their = self.judge(1 - self.mine_at)
        steps.append(_formation_step(Reason.THEIR_FORMATION, side, flag, theirs, their))
        their_key = (rank, total)
        if mine_key != their_key:
            order, first = (1 if mine_key > their_key else -1), None
        else:
            order, first = 0, self.state.first_complete
            if first is None:
                _decide.undecided(flag, formation.total)  # raises UndecidedTieError
        steps.append(_compared_step(side, flag, formation, their, order, first))
        claimable = order > 0 if order else first is side
        return self.done(claimable, formation=formation, opponent_formation=their)

    def _search(self, formation: Formation, theirs: tuple[Card, ...], size: int, target: Strength) -> ClaimAnalysis:
        kinds = (None,) if self.fog else _STRONGEST_KINDS
        side, flag, pool = self.side, self.flag, self.pool
        have = pool.mask
        target_key = target.key
        lower: list[FormationKind] = []
        ruled: list[FormationKind] = []
        body: list[Step] = []
        tie_possible = False
        for kind in kinds:
            if kind is not None and target.kind is not None and kind < target.kind:
                lower.append(kind)
                continue
            rank = -1 if kind is None else int(kind)
            consistent = False
            best_weak: int | None = None
            # the strongest shape of this kind, at most as strong as the claimer, the unseen cards complete
            real_best: tuple[Shape, tuple[Troop, ...], int] | None = None
            # what the search rules out, kept as plain records: only the steps the proof (or, with a
            # counterexample, ``ruled_out``) shows are built, blocked shapes grouped into one step
            blocked: list[tuple[_Candidate, int]] = []  # with the face-up troops it needs (a bit set)
            other: list[Step] = []
            weak: list[tuple[int, Shape, tuple[Troop, ...]]] = []
            fixed = kind in _FIXED_KINDS
            # only the shapes their cards leave open, each with its plans (the same for every pool)
            for candidate in _candidates(kind, theirs, size):
                if best_weak is not None and candidate.fixed_total < target.total:
                    # shapes come strongest first: every one left is weaker still and cannot change the
                    # verdict (R10); look on only for the best one the unseen cards can still complete
                    if real_best is not None:
                        break
                    real_best = self._fillable(candidate)
                    continue
                consistent = True
                plans = candidate.plans
                base = plans[0].base
                if fixed and (rank, base) <= target_key:
                    # the sum is fixed by the shape: it can at best tie (R10, R11)
                    best_weak = base if best_weak is None else max(best_weak, base)
                    if real_best is None:
                        real_best = self._fillable(candidate)
                    if (rank, base) == target_key and real_best is not None:
                        tie_possible = True
                    continue
                # the best completion of the shape from the unseen cards, if any
                best_total = 0
                best_fill: tuple[Troop, ...] | None = None
                for plan, mask in zip(plans, candidate.masks):
                    if mask:
                        if mask & ~have:
                            continue
                        fill = plan.exact
                    else:
                        found = pool.fill(plan)
                        if found is None:
                            continue
                        fill = found
                    total = _total(plan, fill)
                    if best_fill is None or total > best_total:
                        best_total, best_fill = total, fill
                if best_fill is not None:
                    if (rank, best_total) > target_key:
                        pending = (ruled, body, blocked, other, weak)
                        return self._counterexample(formation, theirs, best_fill, kind, pending)
                    tie_possible = tie_possible or (rank, best_total) == target_key
                    weak.append((best_total, candidate.shape, best_fill))
                elif candidate.masks[0] and kind is not FormationKind.SKIRMISH:
                    blocked.append((candidate, candidate.needed_mask & ~have))
                else:
                    other.append(self._short(candidate, theirs))
            if not consistent and kind is not None:
                ruled.append(kind)
                continue
            body.extend(self._blocked(blocked, theirs, kind))
            body.extend(other)
            if weak:
                best_total, shape, fill = max(weak, key=lambda w: w[0])
                body.append(
                    Step(
                        Reason.SHAPE_TOO_WEAK,
                        side,
                        flag,
                        shape=shape,
                        kind=kind,
                        cards=theirs,
                        needed=fill,
                        total=best_total,
                        count=len(blocked) + len(other),
                        shapes=tuple(w[1] for w in weak) if len(weak) > 1 else (),
                    )
                )
            if best_weak is not None:
                others = len(blocked) + len(other) + len(weak)
                # the real best completion when one is known, else only its total (no shape, no troops)
                best: tuple[Shape | None, tuple[Troop, ...], int] = (
                    real_best if real_best is not None else (None, (), best_weak)
                )
                best_shape, fill, total = best
                body.append(
                    Step(
                        Reason.KIND_TOO_WEAK,
                        side,
                        flag,
                        kind=kind,
                        total=total,
                        cards=theirs,
                        count=others,
                        shape=best_shape,
                        needed=fill,
                    )
                )
        tie: Step | None = None
        if tie_possible:
            # the best completion that ties is said with the tie rule, in one step (R10, R11)
            for i in range(len(body) - 1, -1, -1):
                step = body[i]
                if step.reason in _TOO_WEAK and step.shape is not None and step.total == target.total:
                    body[i] = step._replace(reason=Reason.AT_BEST_TIE, kind=target.kind)
                    break
            else:
                tie = Step(Reason.AT_BEST_TIE, side, flag, total=target.total, kind=target.kind)
        if ruled:
            self.step(Reason.KIND_RULED_OUT, kind=ruled[0], kinds=tuple(ruled), cards=theirs)
        self.steps.extend(body)
        if lower:
            self.step(Reason.LOWER_KINDS, kinds=tuple(lower), kind=target.kind)
        if tie is not None:
            self.steps.append(tie)
        return self.done(True, formation=formation)

    def _fillable(self, candidate: _Candidate) -> tuple[Shape, tuple[Troop, ...], int] | None:
        """The shape with the troops that complete it and its sum, if the unseen cards can (fixed sums)."""
        have = self.pool.mask
        for plan, mask in zip(candidate.plans, candidate.masks):
            if mask:
                if not mask & ~have:
                    return candidate.shape, plan.exact, _total(plan, plan.exact)
                continue
            fill = self.pool.fill(plan)
            if fill is not None:
                return candidate.shape, fill, _total(plan, fill)
        return None

    def _short(self, candidate: _Candidate, theirs: tuple[Card, ...]) -> Step:
        """The step for a shape too few unseen troops of some value or colour are left for (R13)."""
        shape, plans = candidate.shape, candidate.plans
        kind = shape.kind
        side, flag, pool = self.side, self.flag, self.pool
        value = shape.value
        count = plans[0].count
        if kind is FormationKind.SKIRMISH:
            # some value of the run has no unseen troop left
            value = min(v for p in plans for v in p.values if not pool.mask & _VALUE_BITS[v])
            group = pool.seen & _VALUE_BITS[value]  # the lowest such value; where() lists its cards in card order
            count, available = 1, 0
        elif kind is FormationKind.PHALANX:
            assert value is not None
            group = pool.seen & _VALUE_BITS[value]
            available = (pool.mask & _VALUE_BITS[value]).bit_count()
        elif kind is FormationKind.BATTALION:
            assert shape.colour is not None
            group = pool.seen & _COLOUR_BITS[shape.colour]
            available = (pool.mask & _COLOUR_BITS[shape.colour]).bit_count()
        else:
            group = 0
            available = pool.count
        return Step(
            Reason.SHAPE_SHORT,
            side,
            flag,
            shape=shape,
            kind=kind,
            cards=theirs,
            where=pool.where(group),
            count=count,
            available=available,
            value=value,
        )

    def _blocked(
        self, blocked: list[tuple[_Candidate, int]], theirs: tuple[Card, ...], kind: FormationKind | None
    ) -> list[Step]:
        """Blocked shapes of one kind said in one step: each needs one of the face-up cards listed (R13).

        Every way to complete a blocked shape needs a troop that is face up, so the
        union of those troops is a list of which each shape needs one.  A shape
        alone names what it needs: a wildcard with a forced place (Shield Bearers as
        b3) is named; one with a choice (a Leader) is counted: it can stand for that
        many of the troops listed.
        """
        if not blocked:
            return []
        side, flag = self.side, self.flag
        if len(blocked) == 1:
            candidate, blockers = blocked[0]
            return [
                Step(
                    Reason.SHAPE_BLOCKED,
                    side,
                    flag,
                    shape=candidate.shape,
                    kind=kind,
                    cards=theirs,
                    needed=candidate.needed,
                    where=self.pool.where(blockers),
                    count=candidate.extra,
                    wild=candidate.wild,
                )
            ]
        needed = seen = 0
        for candidate, blockers in blocked:
            needed |= candidate.needed_mask
            seen |= blockers
        wildcard = any(candidate.extra or candidate.wild for candidate, _ in blocked)
        return [
            Step(
                Reason.SHAPE_BLOCKED,
                side,
                flag,
                shape=blocked[0][0].shape,
                kind=kind,
                cards=theirs,
                needed=_troops_of(needed),  # card order, as card_sort_key sorts troops
                where=self.pool.where(seen),
                count=1 if wildcard else 0,
                shapes=tuple(candidate.shape for candidate, _ in blocked),
            )
        ]

    def _counterexample(
        self,
        formation: Formation,
        theirs: tuple[Card, ...],
        fill: tuple[Troop, ...],
        kind: FormationKind | None,
        pending: tuple[
            list[FormationKind],
            list[Step],
            list[tuple[_Candidate, int]],
            list[Step],
            list[tuple[int, Shape, tuple[Troop, ...]]],
        ],
    ) -> ClaimAnalysis:
        # One completion that wins is the whole refutation (R12): the shapes ruled out on the way
        # to it prove nothing here, and a learner should not wade through them to reach it.
        ruled, body, blocked, other, weak = pending
        side, flag = self.side, self.flag
        kinds = [Step(Reason.KIND_RULED_OUT, side, flag, kind=k, kinds=tuple(ruled), cards=theirs) for k in ruled[:1]]
        too_weak = [
            Step(Reason.SHAPE_TOO_WEAK, side, flag, shape=shape, kind=kind, cards=theirs, needed=needed, total=total)
            for total, shape, needed in weak
        ]
        ruled_out = tuple(kinds + body + self._blocked(blocked, theirs, kind) + other + too_weak)
        return self._refutation(formation, theirs, fill, ruled_out)

    def _refutation(
        self,
        formation: Formation,
        theirs: tuple[Card, ...],
        fill: tuple[Troop, ...],
        ruled_out: tuple[Step, ...],
    ) -> ClaimAnalysis:
        """The steps of a refutation: the completion that beats the claimer, and which of its troops are in hand."""
        completed = evaluate(theirs + fill, fog=self.fog, mud=self.mud)
        self.steps.extend(_completion_steps(self.side, self.flag, theirs, completed, fill, self.unseen()[1]))
        return self.done(
            False, formation=formation, opponent_formation=completed, counterexample=fill, ruled_out=ruled_out
        )


def _key(formation: Formation) -> tuple[int, int]:
    """``formation.strength.key`` without building the Strength: (kind, sum), kind -1 under Fog (R10, R24)."""
    kind = formation.kind
    return (-1 if kind is None else int(kind), formation.total)


def _by_value(t: Troop) -> int:
    return t.value


def _strongest_first(t: Troop) -> tuple[int, int]:
    return (-t.value, t.index)


_STRONGEST_KINDS: tuple[FormationKind | None, ...] = tuple(sorted(FormationKind, reverse=True))
_FIXED_KINDS = (FormationKind.WEDGE, FormationKind.SKIRMISH, FormationKind.PHALANX)
#: the kinds (as ranks) whose completion's troops are exactly the shape's (a Wedge's, a Phalanx's)
_FIXED_TROOPS = frozenset({FormationKind.WEDGE, FormationKind.PHALANX})
#: how a refusal orders the troops of the completion that beats the claimer, by its kind's rank (-1:
#: Fog), as the proof's search names them: a run's missing values lowest first, the best of a colour
#: highest first, the best troops left for a Host (or under Fog); a Wedge's and Phalanx's as found
_FILL_ORDER: dict[int, Callable[[tuple[Troop, ...]], tuple[Troop, ...]]] = {
    FormationKind.SKIRMISH: lambda fill: tuple(sorted(fill, key=_by_value)),
    FormationKind.BATTALION: lambda fill: fill[::-1],
    FormationKind.HOST: lambda fill: tuple(sorted(fill, key=_strongest_first)),
    -1: lambda fill: tuple(sorted(fill, key=_strongest_first)),
}


def state_unseen_once(analyses: Iterable[ClaimAnalysis]) -> list[ClaimAnalysis]:
    """Analyses of one position (one side) read in a row: the unseen count (R13) said in the first only.

    >>> from battleline_lab.core.position import Position
    >>> pos = Position.build({1: {"you": "r8 r9 r10", "opponent": "b1"}, 2: {"you": "g2 g3 g4", "opponent": "y5 y6"}})
    >>> [a.reasons.count(Reason.UNSEEN) for a in state_unseen_once([analyse_claim(pos, n, "you") for n in (1, 2)])]
    [1, 0]
    """
    out: list[ClaimAnalysis] = []
    said = False
    for analysis in analyses:
        out.append(analysis.without_unseen() if said else analysis)
        said = said or Reason.UNSEEN in analysis.reasons
    return out


_SEARCH_REASONS = frozenset(
    {
        Reason.KIND_RULED_OUT,
        Reason.KIND_TOO_WEAK,
        Reason.SHAPE_BLOCKED,
        Reason.SHAPE_SHORT,
        Reason.SHAPE_TOO_WEAK,
    }
)


_TOO_WEAK = (Reason.KIND_TOO_WEAK, Reason.SHAPE_TOO_WEAK)

#: Steps that decide a proof wherever they appear, most decisive first (see ``ClaimAnalysis.deciding_step``).
_DECIDING_FIRST = (
    Reason.FLAG_CLAIMED,
    Reason.SIDE_INCOMPLETE,
    Reason.COUNTEREXAMPLE,
    Reason.TIE_FIRST_COMPLETE,
    Reason.YOU_ARE_STRONGER,
    Reason.THEY_ARE_STRONGER,
    Reason.AT_BEST_TIE,
)


_FlagCards = tuple[tuple[Card, ...], tuple[Card, ...], bool, bool]
_Judged = tuple[int, int, Formation]  # a complete side's (kind, sum) key (kind -1 under Fog) and its Formation
#: the unseen step's fields, the same at every flag of a position: the unseen count, how many troops lie
#: on the flags and in the discards, the hand's troops (see _unseen)
_UnseenFields = tuple[int, int, int, tuple[Troop, ...]]
#: what a refusal's search over every shape needs, to rule shapes out when first read (see RuledOut)
_Search = tuple[Position, "_Pool", int, Side, _FlagCards]


def _flag_cards(state: FlagState) -> _FlagCards:
    """Each side's formation cards (troops and morale cards) and whether Fog or Mud lies there (R24, R25).

    The same as ``FlagState.formation_cards``, ``fog`` and ``mud``, read in one pass.
    """
    you: list[Card] = []
    opponent: list[Card] = []
    fog = mud = False
    for cards, out in ((state.you, you), (state.opponent, opponent)):
        for card in cards:
            if type(card) is Troop or card in WILD_MASK:
                out.append(card)
            elif card is Tactic.FOG:
                fog = True
            elif card is Tactic.MUD:
                mud = True
    return tuple(you), tuple(opponent), fog, mud


def _analyse(position: Position, pool: _Pool, flag: int, side: Side) -> ClaimAnalysis:
    """One flag's proof for one side: the flat proof of its case (see :func:`analyse_position`)."""
    state = position.flags[flag - 1]
    cards = _flag_cards(state)
    if state.claimed_by is not None:
        return _Prover(position, pool, flag, side, cards).run()
    you, opponent, fog, mud = cards
    size = 4 if mud else 3
    mine, theirs = (you, opponent) if side is Side.YOU else (opponent, you)
    at = flag - 1 if side is Side.YOU else flag + 8
    if len(mine) < size:
        return _incomplete(at, mine, size)
    if len(theirs) >= size:
        return _both(state, flag, you, opponent, fog, mud, side)[at // 9]
    return _against(position, pool, at, cards, mine, theirs)


def _incomplete(at: int, mine: tuple[Card, ...], size: int) -> ClaimAnalysis:
    """The commonest proof, said at once: a complete formation first (R12), four cards at Mud (R25).

    ``at`` is the side and flag's place in :data:`_KEYS` (as in every flat proof)."""
    side, flag = _KEYS[at]
    if not mine:  # an empty side: one (immutable) analysis per side, flag and size
        return _EMPTY[at * 2 + (size == 4)]
    incomplete = _short_step(Reason.SIDE_INCOMPLETE, side, flag, mine, size)
    steps = (_MUD_STEP[at], incomplete, _CANNOT[at]) if size == 4 else (incomplete, _CANNOT[at])
    return ClaimAnalysis(flag, side, False, steps)


def _unseen(pool: _Pool, position: Position, side: Side) -> tuple[_UnseenFields, int]:
    """The unseen step's fields for ``side`` (the same at every flag of the position: how many troops are
    unseen, how many lie on the flags and in the discards, the hand's troops), and its hand's troops as a
    bit set: worked out once a position and side, kept on the pool."""
    got = pool.said.get(side)
    if got is None:
        on_flags, in_discards = pool.counts
        # the hand is said with the count: its cards are unseen like the deck's (R13)
        troops = []
        mask = 0
        for card in position.hand_you if side is Side.YOU else position.hand_opponent:
            if type(card) is Troop:
                troops.append(card)
                mask |= 1 << (card.colour.offset + card.value - 1)  # card.bit, inline
        got = pool.said[side] = ((pool.count, on_flags, in_discards, tuple(troops)), mask)
    return got


def _unseen_step(reason: Reason, side: Side, flag: int, fields: _UnseenFields) -> Step:
    """The step that counts the unseen troops (``UNSEEN``, R13), the hand among them (see :func:`_unseen`)."""
    count, on_flags, in_discards, hand = fields
    # positional, as in _short_step (cards, needed, where, kind, kinds, total, count, available)
    return Step(reason, side, flag, hand, (), (), None, (), on_flags, count, in_discards)


def _both(
    state: FlagState,
    flag: int,
    you: tuple[Card, ...],
    opponent: tuple[Card, ...],
    fog: bool,
    mud: bool,
    asked: Side = Side.YOU,
) -> tuple[ClaimAnalysis, ClaimAnalysis]:
    """Both sides' proofs at a flag where both are complete (R10, R11): each formation judged once for both."""
    size = 4 if mud else 3
    rank, total, you_formation = judge(you, size, fog, mud)
    you_key = (rank, total)
    rank, total, opponent_formation = judge(opponent, size, fog, mud)
    opponent_key = (rank, total)
    if you_key == opponent_key:
        first = state.first_complete
        if first is None:
            # raises UndecidedTieError, with the total of the side asked about
            _decide.undecided(flag, (you_formation if asked is Side.YOU else opponent_formation).total)
        order = 0
        you_win = first is Side.YOU
    else:
        first = None
        you_win = you_key > opponent_key
        order = 1 if you_win else -1
    mine = _complete(flag - 1, you_win, fog, mud, you, opponent, you_formation, opponent_formation, order, first)
    theirs = _complete(flag + 8, not you_win, fog, mud, opponent, you, opponent_formation, you_formation, -order, first)
    return mine, theirs


def _complete(
    at: int,
    claimable: bool,
    fog: bool,
    mud: bool,
    mine: tuple[Card, ...],
    theirs: tuple[Card, ...],
    formation: Formation,
    their: Formation,
    order: int,
    first: Side | None,
) -> ClaimAnalysis:
    """A proof between two complete sides: Mud (R25), Fog (R24), both formations (R9), which is
    stronger (R10, ``order`` 1 or -1) or the tie and who completed first (R11, 0), the verdict."""
    side, flag = _KEYS[at]
    yours_said, theirs_said = _FORMATIONS_SAID  # (both members in one read, see _COMPARED)
    yours = _formation_step(yours_said, side, flag, mine, formation)
    others = _formation_step(theirs_said, side, flag, theirs, their)
    compared = _compared_step(side, flag, formation, their, order, first)
    verdict = (_CAN if claimable else _CANNOT)[at]
    if mud:
        if fog:
            steps: tuple[Step, ...] = (_MUD_STEP[at], _FOG_STEP[at], yours, others, compared, verdict)
        else:
            steps = (_MUD_STEP[at], yours, others, compared, verdict)
    else:
        steps = (_FOG_STEP[at], yours, others, compared, verdict) if fog else (yours, others, compared, verdict)
    return ClaimAnalysis(flag, side, claimable, steps, formation, their)


def _against(
    position: Position,
    pool: _Pool,
    at: int,
    cards: _FlagCards,
    mine: tuple[Card, ...],
    theirs: tuple[Card, ...],
) -> ClaimAnalysis:
    """The proof of a complete side against an incomplete one (R12, R13), flat.

    The decision first (:func:`~battleline_lab.core.decide.beating`): a completion that beats the
    claimer is the whole refutation, its troops put in the order of the shape's plan (the
    order the proof's search names them in); the shapes the search would rule out before it
    (``ruled_out``) are worked out when read (:class:`RuledOut`).  When none beats the claimer,
    the search over every shape (``_Prover._search``) says why.
    """
    side, flag = _KEYS[at]
    _, _, fog, mud = cards
    size = 4 if mud else 3
    rank, total, formation = judge(mine, size, fog, mud)
    their_summary = summarise(theirs)
    witness = _decide.beating(their_summary, size, fog, rank, total, pool)
    fields, hand = _unseen(pool, position, side)
    if not witness:
        prover = _Prover(position, pool, flag, side, cards)
        prover.steps = list(_opening(at, fog, mud, mine, theirs, formation, fields))
        return prover._search(formation, theirs, size, formation.strength)
    if witness > 0:
        # the completion judged once, as evaluate judges it (side_strength's kind and sum); its troops
        # then put in the order of the shape's plan, the order the proof's search names them in
        fill = _troops_of(witness)  # card order
        cards_ = theirs + fill
        if not their_summary[5]:  # troops alone (the wildcards' stand-ins need evaluate's plan)
            rank, total, completed = judge(cards_, size, fog, mud)
        else:
            rank, total = side_strength(summarise(cards_), size, fog)
            completed = None
        order = _FILL_ORDER.get(rank)
        if order is not None:
            fill = order(fill)
        if completed is None or (len(fill) > 1 and rank not in _FIXED_TROOPS):
            completed = judged(theirs + fill, bool(their_summary[5]), rank, total, fog, mud)
    else:
        fill = ()  # (the witness was -1: their wildcards fill the open slots, no unseen troop is needed)
        completed = evaluate(theirs, fog=fog, mud=mud)
    # the refusal (R12): the opening, the completion, which of its troops are in hand (R13), the verdict
    steps = (
        *_opening(at, fog, mud, mine, theirs, formation, fields),
        *_completion_steps(side, flag, theirs, completed, fill, hand),
        _CANNOT[at],
    )
    search = RuledOut((), (position, pool, flag, side, cards))  # (no steps yet, the search)
    return ClaimAnalysis(flag, side, False, steps, formation, completed, fill, search)


def _opening(
    at: int,
    fog: bool,
    mud: bool,
    mine: tuple[Card, ...],
    theirs: tuple[Card, ...],
    formation: Formation,
    fields: _UnseenFields,
) -> tuple[Step, ...]:
    """The first steps of a complete side's proof against an incomplete one: Mud (R25), Fog (R24),
    the claimer's formation (R9), what the other side needs (R12) and the unseen count (R13)."""
    side, flag = _KEYS[at]
    yours_said, need_said, unseen_said = _OPENING_SAID  # (the members in one read, see _COMPARED)
    yours = _formation_step(yours_said, side, flag, mine, formation)
    size = 4 if mud else 3
    need = _short_step(need_said, side, flag, theirs, size)
    unseen = _unseen_step(unseen_said, side, flag, fields)
    if mud:
        return (_MUD_STEP[at], _FOG_STEP[at], yours, need, unseen) if fog else (_MUD_STEP[at], yours, need, unseen)
    return (_FOG_STEP[at], yours, need, unseen) if fog else (yours, need, unseen)


def _completion_steps(
    side: Side, flag: int, theirs: tuple[Card, ...], completed: Formation, fill: tuple[Troop, ...], hand: int
) -> tuple[Step, ...]:
    """The completion of ``theirs`` by the unseen troops ``fill`` that beats the claimer (R12), and,
    when some of those troops are in the claimer's hand (``hand``, a bit set), that the hand is no
    evidence they are out of the other side's reach (R13)."""
    counter = _formation_step(Reason.COUNTEREXAMPLE, side, flag, theirs, completed, fill)
    if not hand:  # (no troop in hand: the commonest, most positions list no hand)
        return (counter,)
    in_hand = tuple([t for t in fill if hand & t.bit])
    if not in_hand:
        return (counter,)
    return (counter, Step(Reason.HAND_NOT_EVIDENCE, side, flag, cards=in_hand, needed=in_hand))


# the reasons of the formation steps of a proof between two complete sides and of the opening of a
# complete side's against an incomplete one, in the order said (tables, read at once: see _COMPARED)
_FORMATIONS_SAID = (Reason.YOUR_FORMATION, Reason.THEIR_FORMATION)
_OPENING_SAID = (Reason.YOUR_FORMATION, Reason.THEY_NEED, Reason.UNSEEN)

# the steps every proof of a side and flag shares, one (immutable) value each
# (index: flag - 1 for you, 9 more for the opponent)
_CANNOT = [Step(Reason.CANNOT_CLAIM, side, n) for side in _SIDES for n in FLAGS]
_CAN = [Step(Reason.CAN_CLAIM, side, n) for side in _SIDES for n in FLAGS]
_MUD_STEP = [Step(Reason.MUD, side, n, size=4) for side in _SIDES for n in FLAGS]
_FOG_STEP = [Step(Reason.FOG, side, n) for side in _SIDES for n in FLAGS]
_KEYS = [(side, n) for side in _SIDES for n in FLAGS]  # a PositionAnalysis's keys, likewise
# the proof of an empty side, one (immutable) value per side, flag and size (index: 2 * the above, + 1 at Mud)
_EMPTY = [
    ClaimAnalysis(
        n,
        side,
        False,
        (
            *((_MUD_STEP[at],) if size == 4 else ()),
            Step(Reason.SIDE_INCOMPLETE, side, n, cards=(), count=size, size=size),
            _CANNOT[at],
        ),
    )
    for at, (side, n) in enumerate((side, n) for side in _SIDES for n in FLAGS)
    for size in (3, 4)
]


def analyse_claim(position: Position, flag: int, side: Side | str | None = None) -> ClaimAnalysis:
    """Decide whether ``side`` (default: whose turn it is) can claim ``flag`` now (R12).

    Raises :class:`UndecidedTieError` when both sides are complete, tie, and the
    position does not say who completed first (R11).
    """
    side = position.turn if side is None else side if type(side) is Side else check_side(side)
    position.flag(flag)  # validates the number (an int 1-9, not a bool or a float)
    return _analyse(position, _Pool.of_position(position), flag, side)


def can_claim(position: Position, flag: int, side: Side | str | None = None) -> bool:
    """Just the verdict of :func:`analyse_claim`, decided without building the proof (:mod:`.decide`)."""
    return _decide.can_claim(position, flag, side)


@dataclass(frozen=True, slots=True)
class PositionAnalysis:
    """Claim analyses for both sides at every unclaimed flag."""

    position: Position
    claims: Mapping[tuple[Side, int], ClaimAnalysis]

    def claimable(self, side: Side | str) -> tuple[int, ...]:
        side = side if type(side) is Side else Side(side)  # (an Enum call is slow even for a member)
        get = self.claims.get
        out = []
        for key in _KEYS[:9] if side is Side.YOU else _KEYS[9:]:  # (side, n) for every flag, built once
            analysis = get(key)
            if analysis is not None and analysis.claimable:
                out.append(key[1])
        return tuple(out)

    def __getitem__(self, key: tuple[Side, int]) -> ClaimAnalysis:
        return self.claims[key]

    def __repr__(self) -> str:
        you, opponent = (", ".join(map(str, self.claimable(side))) or "none" for side in Side)
        return f"<PositionAnalysis you can claim: {you}; the opponent: {opponent}>"

    def _repr_html_(self) -> str:
        """The board with the claimable flags shaded, for Jupyter (lazy import: the core never imports rendering)."""
        from ..render.svg import position_analysis_html

        return position_analysis_html(self)


def analyse_position(position: Position) -> PositionAnalysis:
    """Analyse every unclaimed flag for both sides (R12), sharing the unseen pool."""
    # one pass over the flags: the troops face up there (for the pool), each side's formation cards,
    # Fog and Mud (a side of troops alone is its own formation cards; else as _flag_cards reads them),
    # and every proof that needs no pool; a complete side against an incomplete one waits for the pool
    visible = 0
    claims: dict[tuple[Side, int], ClaimAnalysis] = {}
    later: list[tuple[int, _FlagCards, tuple[Card, ...], tuple[Card, ...]]] = []
    for n, state in zip(FLAGS, position.flags):
        you, opponent = state.you, state.opponent
        special = False
        for card in you:
            if type(card) is Troop:
                visible |= 1 << (card.colour.offset + card.value - 1)  # card.bit, inline
            else:
                special = True
        for card in opponent:
            if type(card) is Troop:
                visible |= 1 << (card.colour.offset + card.value - 1)  # card.bit, inline
            else:
                special = True
        if state.claimed_by is not None:
            continue
        if special:
            flag_cards = _flag_cards(state)
            you, opponent, fog, mud = flag_cards
            size = 4 if mud else 3
        else:
            flag_cards = (you, opponent, False, False)
            fog = mud = False
            size = 3
        if len(you) >= size:
            if len(opponent) >= size:
                claims[_KEYS[n - 1]], claims[_KEYS[n + 8]] = _both(state, n, you, opponent, fog, mud)
            else:
                claims[_KEYS[n - 1]] = None  # type: ignore[assignment]  # (its place in the order; said below)
                later.append((n - 1, flag_cards, you, opponent))
                claims[_KEYS[n + 8]] = (
                    _incomplete(n + 8, opponent, size) if opponent else _EMPTY[(n + 8) * 2 + (size == 4)]
                )
        else:
            claims[_KEYS[n - 1]] = _incomplete(n - 1, you, size) if you else _EMPTY[(n - 1) * 2 + (size == 4)]
            if len(opponent) >= size:
                claims[_KEYS[n + 8]] = None  # type: ignore[assignment]
                later.append((n + 8, flag_cards, opponent, you))
            else:
                claims[_KEYS[n + 8]] = (
                    _incomplete(n + 8, opponent, size) if opponent else _EMPTY[(n + 8) * 2 + (size == 4)]
                )
    if later:
        pool = _Pool.of_flags(position, visible)
        for at, flag_cards, mine, theirs in later:
            claims[_KEYS[at]] = _against(position, pool, at, flag_cards, mine, theirs)
    return PositionAnalysis(position, claims)


def claimable_flags(position: Position, side: Side | str | None = None) -> tuple[int, ...]:
    """The unclaimed flags ``side`` (default: whose turn) can claim now, in order (decided by :mod:`.decide`)."""
    return _decide.claimable_flags(position, side)
