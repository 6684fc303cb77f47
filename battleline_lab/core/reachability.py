"""Can a position arise in a real game?  Checks from the counts the rules fix (no YAML here).

:meth:`Position.problems` refuses what no table can show (a card twice, a
fourth card without Mud, R18 counts apart by more than one...).  This module
asks a further question an author rarely thinks of: *could a game have got
here?*  Every check is a count the rules fix, and each finding is a
:class:`~battleline_lab.core.position.Problem` with a rule id in its message
(catalogue ``reach.<code>``, layer ``teachers.json``):

- ``turn_order`` (R5, R7, R30): players take turns, one card each turn, so the
  cards each has played differ by at most one, and whose turn it is says which
  way (after playing, R14 ``after_play``/``end_of_turn``, the side to move has
  played as many as the other or one more; at ``start_of_turn`` as many or one
  fewer).  A played card never leaves the table's public areas (flags and
  discard areas, R31), so the cards a side has played are the cards on its
  side and in its discard area, less a troop its Traitor took (R30), plus one
  the opponent's Traitor took from it.  Passing (R7) is only possible without
  a troop to play; the check is skipped where that could have happened from
  what is visible (a side with no free slot, or a troop deck that may be empty).
- ``discards_unexplained`` (R26, R28, R29, R31): a card other than a played
  guile card reaches a discard area only through the opponent's Deserter, its
  owner's Redeploy, or Mud leaving a flag with four cards; each of those is
  one card, and the Deserter and Redeploy must be visible in their players'
  discard areas.
- ``deserter_without_victim`` (R29): a played Deserter discarded a card of
  the other side, which lies face up in that side's discard area.
- ``hand_size`` (R5, R8): at most 7 cards in a hand, 6 for the side that has
  just played and not drawn yet (R14 ``after_play``; 7 after a Scout, R27).

A position the loader accepts may still fail these: a hand-made puzzle gets a
warning from ``battleline-lab check`` (an error with ``--strict``), and the
generator keeps only positions that pass.

>>> from battleline_lab.core.position import Position
>>> [p.code for p in unreachable(Position.build({5: {"you": "r3 r4 r5"}}))]
['turn_order']
>>> unreachable(Position.build({5: {"you": "r3 r4 r5", "opponent": "b8 b9"}}))
[]
"""

from __future__ import annotations

from .cards import ALL_TROOPS, Tactic, TacticGroup
from .position import ClaimTiming, Position, Problem, Side

# the two sides in the enum's order, iterated without Enum.__iter__ (a generator: slow in hot loops)
_SIDES = (Side.YOU, Side.OPPONENT)

__all__ = ["REACH_CODES", "cards_played", "passes_possible", "unreachable"]

#: The codes :func:`unreachable` reports, with the rule ids each rests on.
REACH_CODES: dict[str, str] = {
    "turn_order": "R5, R7, R30",
    "discards_unexplained": "R26, R28, R29, R31",
    "deserter_without_victim": "R29",
    "hand_size": "R5, R8",
}

HAND_LIMIT = 7
START_HANDS = 2 * HAND_LIMIT


def _played_guile(position: Position, side: Side, card: Tactic) -> bool:
    return card in position.discards(side)


def cards_played(position: Position, side: Side) -> int:
    """How many cards ``side`` has played, from what is face up (R31; Traitor, R30).

    >>> cards_played(Position.build({5: {"you": "r3 r4 r5"}}, discards={"you": "scout"}), Side.YOU)
    4
    """
    visible = sum(len(s.cards(side)) for s in position.flags) + len(position.discards(side))
    taken = 1 if _played_guile(position, side, Tactic.TRAITOR) else 0
    lost = 1 if _played_guile(position, side.other, Tactic.TRAITOR) else 0
    return visible - taken + lost


def passes_possible(position: Position) -> bool:
    """Could a player have passed (R7: no troop to play) as far as the table shows?

    True when a side has no free slot on any unclaimed flag, or when the troop
    deck may be empty (all but the 14 troops two hands can hold are face up).
    """
    visible_troops = len(ALL_TROOPS) - len(position.unseen_troops())
    if visible_troops >= len(ALL_TROOPS) - START_HANDS:
        return True
    for side in _SIDES:
        if all(s.claimed_by is not None or len(s.formation_cards(side)) >= s.size for s in position.flags):
            return True
    return False


def _turn_order(position: Position) -> list[Problem]:
    mover, other = position.turn, position.turn.other
    moved, waited = cards_played(position, mover), cards_played(position, other)
    allowed = (-1, 0) if position.claim_timing is ClaimTiming.START_OF_TURN else (0, 1)
    if moved - waited in allowed or passes_possible(position):
        return []
    low, high = waited + allowed[0], waited + allowed[1]
    return [
        Problem(
            "turn_order",
            ("turn",),
            (
                ("side", mover),
                ("played", moved),
                ("other", other),
                ("other_played", waited),
                ("low", low),
                ("high", high),
            ),
        )
    ]


def _discards(position: Position) -> list[Problem]:
    out: list[Problem] = []
    mud_gone = any(Tactic.MUD in position.discards(s) for s in _SIDES)
    # the same for both sides' areas: worked out once
    mud_on_flag = any(Tactic.MUD in s.cards(o) for s in position.flags for o in _SIDES)
    redeployed_mud = mud_on_flag and any(
        _played_guile(position, o, Tactic.REDEPLOY) and any(Tactic.MUD in s.cards(o) for s in position.flags)
        for o in _SIDES
    )
    for side in _SIDES:
        area = position.discards(side)
        strays = [c for c in area if not (isinstance(c, Tactic) and c.group is TacticGroup.GUILE)]
        budget = 0
        budget += 1 if _played_guile(position, side.other, Tactic.DESERTER) else 0
        budget += 1 if _played_guile(position, side, Tactic.REDEPLOY) else 0
        budget += 1 if mud_gone or redeployed_mud else 0
        if len(strays) > budget:
            index = area.index(strays[budget])
            out.append(
                Problem(
                    "discards_unexplained",
                    ("discards", side.value, index),
                    (("side", side), ("count", len(strays)), ("budget", budget)),
                )
            )
    for side in _SIDES:
        if _played_guile(position, side, Tactic.DESERTER):
            victims = [
                c for c in position.discards(side.other) if not (isinstance(c, Tactic) and c.group is TacticGroup.GUILE)
            ]
            if not victims:
                index = position.discards(side).index(Tactic.DESERTER)
                out.append(Problem("deserter_without_victim", ("discards", side.value, index), (("side", side),)))
    return out


def _hands(position: Position) -> list[Problem]:
    out: list[Problem] = []
    for side in _SIDES:
        limit = HAND_LIMIT
        if (
            side is position.turn
            and position.claim_timing is ClaimTiming.AFTER_PLAY
            and not _played_guile(position, side, Tactic.SCOUT)
        ):
            limit = HAND_LIMIT - 1
        size = len(position.hand(side))
        if size > limit:
            out.append(Problem("hand_size", ("hand", side.value), (("side", side), ("count", size), ("limit", limit))))
    return out


def unreachable(position: Position) -> list[Problem]:
    """Why the position cannot arise in a game (empty if it can, as far as the counts tell).

    >>> from battleline_lab.core.position import Position
    >>> pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8 b9"}}, discards={"opponent": "g5 g6"})
    >>> [p.code for p in unreachable(pos)]
    ['turn_order', 'discards_unexplained']
    """
    return _turn_order(position) + _discards(position) + _hands(position)
