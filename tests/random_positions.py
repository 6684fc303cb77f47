"""Seeded random legal positions for the claim benchmark and the equivalence tests.

Three stages: ``mid`` (0-3 troops a side on every flag), ``late`` (most sides complete, some
flags claimed) and ``tactics`` (Mud and Fog on some flag, morale cards on both sides, R20-R25).
Only the standard library and the position type are used; every position passes
:meth:`Position.problems` and has no winner yet (R16).

>>> [len(random_positions(3, seed=1, stage=s)) for s in STAGES]
[3, 3, 3]
>>> random_positions(2, seed=5, stage="late") == random_positions(2, seed=5, stage="late")
True
"""

from __future__ import annotations

import random
import warnings
from typing import Any

from battleline_lab.core.cards import ALL_TROOPS, Card, Tactic
from battleline_lab.core.position import FLAGS, Position, PositionWarning

__all__ = ["STAGES", "random_position", "random_positions"]

STAGES = ("mid", "late", "tactics")

_MORALE_OWNERS = ((Tactic.ALEXANDER, "you"), (Tactic.DARIUS, "opponent"))


def random_position(rng: random.Random, stage: str) -> Position:
    """One legal random position (no :meth:`Position.problems`) for ``stage``.

    ``mid``: 0-3 troops a side on every flag, a few discards; ``late``: most sides complete,
    some flags claimed, more discards; ``tactics``: like ``mid`` or ``late``, with Mud and Fog on
    some flag and morale cards (R20-R22) on both sides.  Where both sides are complete,
    ``first_complete`` is set (R11).
    """
    while True:
        troops: list[Card] = list(ALL_TROOPS)
        rng.shuffle(troops)
        late = stage == "late" or (stage == "tactics" and rng.random() < 0.5)
        env: dict[int, list[tuple[Tactic, str]]] = {n: [] for n in FLAGS}
        morale: list[tuple[Tactic, str]] = []
        if stage == "tactics":
            for card in (Tactic.MUD, Tactic.FOG):
                if rng.random() < 0.7:
                    env[rng.choice(FLAGS)].append((card, rng.choice(("you", "opponent"))))
            for card, owner in _MORALE_OWNERS:
                if rng.random() < 0.6:
                    morale.append((card, owner))
            for card in (Tactic.COMPANION, Tactic.SHIELD):
                if rng.random() < 0.6:
                    morale.append((card, rng.choice(("you", "opponent"))))
        sizes = {n: 4 if any(c is Tactic.MUD for c, _ in env[n]) else 3 for n in FLAGS}
        counts: dict[tuple[int, str], int] = {}
        for n in FLAGS:
            for who in ("you", "opponent"):
                size = sizes[n]
                full = late and rng.random() < 0.65
                counts[(n, who)] = size if full else rng.randint(0, size - 1 if late else min(3, size))
        cards: dict[tuple[int, str], list[Card]] = {key: [] for key in counts}
        for card, owner in morale:
            spots = [n for n in FLAGS if len(cards[(n, owner)]) < counts[(n, owner)]]
            if spots:
                cards[(rng.choice(spots), owner)].append(card)
        flags: dict[int, dict[str, Any]] = {}
        for n in FLAGS:
            spec: dict[str, Any] = {}
            for who in ("you", "opponent"):
                side_cards = cards[(n, who)]
                missing = counts[(n, who)] - len(side_cards)
                side_cards += troops[:missing]
                del troops[:missing]
                rng.shuffle(side_cards)
                side_cards += [c for c, owner in env[n] if owner == who]
                spec[who] = side_cards
            complete = [who for who in ("you", "opponent") if counts[(n, who)] == sizes[n]]
            if len(complete) == 2:
                spec["first_complete"] = rng.choice(complete)
            if complete and late and rng.random() < 0.25:
                spec["claimed_by"] = rng.choice(complete)
            flags[n] = spec
        discarded = troops[: rng.randint(0, 8 if late else 4)]
        split = rng.randint(0, len(discarded))
        with warnings.catch_warnings():  # uneven tactics counts (R18) are warned about: this draw is rejected below
            warnings.simplefilter("ignore", PositionWarning)
            position = Position.build(flags, discards={"you": discarded[:split], "opponent": discarded[split:]})
        if not position.problems() and position.winner() is None:  # a game still in progress (R16)
            return position


def random_positions(count: int, seed: int = 7, stage: str = "mid") -> list[Position]:
    """``count`` seeded random positions of one stage (see :func:`random_position`)."""
    rng = random.Random(f"{stage}:{seed}")
    return [random_position(rng, stage) for _ in range(count)]
