"""The evidence stage of a claim question: after a right yes or no, point at what proves it.

A claim is a yes or a no, and a yes/no is a coin a guesser tosses.  So a right verdict opens a
second stage, computed by the engine from the proof, and the puzzle counts as solved only with
it (:class:`Evidence`):

- after **yes** (the claim holds), one tap on a face-up card the proof uses as evidence (R13):
  a card that makes a completion of the opponent's side impossible (the face-up cards of the
  proof's blocked, short and ruled-out shapes).  One card is asked, not the full set: every such
  card proves a part of the claim, and a learner who can name one has read the proof; asking
  for all of them would turn a proof into a hunt.  Where the proof needs no card elsewhere
  (their cards at the flag cannot beat yours by kind, or both sides are complete), the cards at
  the flag itself are the evidence: one of the opponent's cards there (what limits them), or,
  with none, one of the claimer's (a formation nothing can beat).  The cards offered are every
  card on the nine flags and every card held: a held card is never evidence (R13), so tapping
  the hand is a wrong answer that teaches the rule.
- after **no** because the opponent could still beat the claimer, the *ghost*: one card they
  could still get in a completion that beats the claimer (R12), picked from a palette of every
  unseen troop (hands count as unseen, R13).  Any card of any winning completion is right, not
  only the engine's counterexample.
- a **no** with no completion to name (the claimer's side is incomplete, the flag is claimed,
  the opponent's complete side already wins) has no evidence stage: there is no card that
  proves it, and the verdict is the whole answer.

:func:`claim_evidence` computes it; :meth:`Evidence.chance` is what it adds to the puzzle's
guess chance (the chance that a uniform random first tap among the cards offered is right).

>>> from battleline_lab.core.position import Position, Side
>>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}})
>>> ev = claim_evidence(pos, 5, Side.YOU)
>>> ev.ghost, sorted(c.notation for c in ev.right)
(False, ['b10', 'b7'])
>>> ev = claim_evidence(Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}}), 5, Side.YOU)
>>> ev.ghost, sorted(c.notation for c in ev.right), len(ev.offered)
(True, ['b10', 'b6', 'b7', 'b9'], 56)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ...core.cards import ALL_TROOPS, Card, Tactic, Troop
from ...core.claims import ClaimAnalysis, Reason, analyse_claim, can_claim
from ...core.position import FLAGS, Position, Side
from ...text.messages import Msg
from .base import Feedback, wrong

__all__ = ["Evidence", "claim_evidence", "ghost_cards"]

#: Proof steps whose face-up cards (``where``) are the evidence of a claim that holds (R13).
_EVIDENCE_REASONS = frozenset({Reason.SHAPE_BLOCKED, Reason.SHAPE_SHORT, Reason.KIND_RULED_OUT})


@dataclass(frozen=True)
class Evidence:
    """The evidence stage of a claim: the cards offered, the ones that are right, and what they show.

    ``ghost`` False: tap a card that proves the claim (``basis`` ``blockers``, ``their_cards`` or
    ``your_cards``, see the module); True: tap a card the opponent could still get (``basis``
    ``ghost``).  ``offered`` is in the order a view draws it; ``right`` is a subset of it.
    """

    flag: int
    side: Side
    ghost: bool
    basis: str
    offered: tuple[Card, ...]
    right: frozenset[Card]
    refusal: bool = False  # the verdict was "no"

    def chance(self) -> Fraction:
        """The chance that a uniform random tap among the cards offered is right."""
        if not self.offered:
            return Fraction(0)
        return Fraction(sum(1 for c in self.offered if c in self.right), len(self.offered))

    def is_right(self, card: Card) -> bool:
        return card in self.right and card in self.offered

    def prompt(self) -> Msg:
        """What the stage asks: a proof to point at (one prompt for every basis: it gives nothing away) or a ghost."""
        if self.ghost:
            return Msg.of(f"evidence.prompt.{self.basis}", flag=self.flag, side=self.side)
        return Msg("evidence.prompt.refusal" if self.refusal else "evidence.prompt.proof")

    def judge(self, position: Position, card: Card) -> Feedback:
        """The verdict on a tapped card; a wrong one says where to look and which rule, never the answer."""
        if self.is_right(card):
            return Feedback("right", key="widget.feedback.right")
        params = {"flag": self.flag, "side": self.side, "card": card}
        # each text says where to look and asks a question, never which card: it is the nudge too
        if self.ghost:
            reason, rule, key = "evidence_ghost", "R12", "evidence.wrong.ghost"
        elif card in position.hand(Side.YOU) or card in position.hand(Side.OPPONENT):
            reason, rule, key = "evidence_hand", "R13", "evidence.wrong.hand"
        elif self.basis == "blockers":
            reason, rule, key = "evidence_blocker", "R13", "evidence.wrong.blockers"
        else:
            reason, rule, key = "evidence_flag", "R10", f"evidence.wrong.{self.basis}"
        look = Msg.of(key, **params)
        return wrong(reason, rule, [look], look=look)


def table_cards(position: Position) -> tuple[Card, ...]:
    """Every card a puzzle's board shows: on the nine flags, flag by flag (the opponent's side, then
    yours), the discards (public, R13, R31), then the held cards (never evidence, R13)."""
    out: list[Card] = []
    for state in position.flags:
        out.extend(state.cards(Side.OPPONENT))
        out.extend(state.cards(Side.YOU))
    out.extend(position.discards(Side.OPPONENT))
    out.extend(position.discards(Side.YOU))
    out.extend(position.hand(Side.OPPONENT))
    out.extend(position.hand(Side.YOU))
    return tuple(dict.fromkeys(out))


def proof_cards(analysis: ClaimAnalysis) -> tuple[Card, ...]:
    """The face-up cards (flags, discards) that a claim's proof uses as evidence (R13), in proof order."""
    out: dict[Card, None] = {}
    for step in analysis.steps:
        if step.reason in _EVIDENCE_REASONS:
            out.update((card, None) for card, where in step.where if where.area != "hand")
    return tuple(out)


def ghost_cards(position: Position, flag: int, side: Side, *, ties: bool = False) -> frozenset[Troop]:
    """Every unseen troop the other side could still get in a completion at ``flag`` that beats ``side`` (R12),
    or, with ``ties``, that beats or ties it.

    One claim decision per unseen troop: the troop put on their side (out of any hand), the
    claimer marked as the side that completed first (it is complete and they are not; with
    ``ties`` the other side, so that a tie goes to them, R11), then "can the claimer still
    claim?"  No means some completion with that troop beats (or ties) the claimer.
    """
    state = position.flag(flag)
    other = side.other
    first = other if ties else state.first_complete or side
    out = set()
    for troop in position.unseen_troops():
        cards = state.cards(other) + (troop,)
        if other is Side.OPPONENT:
            placed = replace(state, first_complete=first, opponent=cards)
        else:
            placed = replace(state, first_complete=first, you=cards)
        flags = tuple(placed if n == flag else s for n, s in zip(FLAGS, position.flags))
        trial = replace(
            position,
            flags=flags,
            hand_you=tuple(c for c in position.hand_you if c != troop),
            hand_opponent=tuple(c for c in position.hand_opponent if c != troop),
        )
        if not can_claim(trial, flag, side):
            out.add(troop)
    return frozenset(out)


def claim_evidence(position: Position, flag: int, side: Side, analysis: ClaimAnalysis | None = None) -> Evidence | None:
    """The evidence stage of "can ``side`` claim ``flag``?", or None when the verdict has no card to point at."""
    analysis = analysis if analysis is not None else analyse_claim(position, flag, side)
    state = position.flag(flag)
    if analysis.claimable:
        offered = table_cards(position)
        blockers = proof_cards(analysis)
        if blockers:
            return Evidence(flag, side, False, "blockers", offered, frozenset(blockers))
        if Reason.AT_BEST_TIE in analysis.reasons and not state.is_complete(side.other):
            tying = ghost_cards(position, flag, side, ties=True)
            if tying:
                return Evidence(flag, side, True, "tie", _palette(position), frozenset(tying))
        theirs = state.formation_cards(side.other)
        if theirs:
            return Evidence(flag, side, False, "their_cards", offered, frozenset(theirs))
        return Evidence(flag, side, False, "your_cards", offered, frozenset(state.formation_cards(side)))
    if not analysis.counterexample:
        return _refusal_evidence(position, analysis)
    return Evidence(flag, side, True, "ghost", _palette(position), frozenset(ghost_cards(position, flag, side)), True)


def _palette(position: Position) -> tuple[Card, ...]:
    """The unseen troops, colour by colour, 1 to 10 (hands count as unseen, R13)."""
    unseen = position.unseen_troops()
    return tuple(t for t in ALL_TROOPS if t in unseen)


def _refusal_evidence(position: Position, analysis: ClaimAnalysis) -> Evidence | None:
    """A "no" with no completion to name: the card that shows it, if one does.

    The opponent's complete side that beats the claimer or wins the tie (R10, R11): their cards at
    the flag; a side Mud leaves one card short (R25): the Mud card; else (an incomplete side, a
    claimed flag) nothing: the verdict is the whole answer.
    """
    state = position.flag(analysis.flag)
    reasons = analysis.reasons
    if Reason.THEY_ARE_STRONGER in reasons or Reason.TIE_FIRST_COMPLETE in reasons:
        theirs = state.formation_cards(analysis.side.other)
        return Evidence(
            analysis.flag, analysis.side, False, "their_cards", table_cards(position), frozenset(theirs), True
        )
    if Reason.SIDE_INCOMPLETE in reasons and Reason.MUD in reasons:
        mud = frozenset(c for c in state.environment if c is Tactic.MUD)
        return Evidence(analysis.flag, analysis.side, False, "mud", table_cards(position), mud, True)
    return None
