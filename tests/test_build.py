"""The engine's frozen values built as blanks (``core._build``) are ordinary instances of their class.

The claim proofs build their commonest steps, analyses and formations in a plain object and then
give it its class.  These tests take every step, analysis and formation ``analyse_position`` makes
on seeded random positions of every stage (every builder is reached) and check that each one is
what its class's own constructor makes: the same class, the same fields and no attribute beyond
them, equal with the same hash, the same ``repr``, as frozen, and the same after
``dataclasses.replace``, pickling and copying.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Iterator

import pytest

from battleline_lab.core import claims
from battleline_lab.core._build import Blank
from battleline_lab.core.claims import ClaimAnalysis, Step, analyse_position
from battleline_lab.core.formations import Formation
from tests.random_positions import STAGES, random_positions

CLASSES = (Step, ClaimAnalysis, Formation)
LAZY = {"_steps_later", "_ruled_out_later"}  # what a proof leaves to be said when read (claims._Later)


def _made(stage: str) -> Iterator[object]:
    """Every analysis of 40 positions of ``stage``, every step read, and their formations."""
    for position in random_positions(40, seed=31, stage=stage):
        for analysis in analyse_position(position).claims.values():
            yield analysis
            yield from analysis.steps
            for formation in (analysis.formation, analysis.opponent_formation):
                if formation is not None:
                    yield formation


def _rebuilt(value: object) -> object:
    """The same value made by its class's own constructor, from the fields it reads."""
    cls = type(value)
    fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    return cls(**fields)


@pytest.mark.parametrize("stage", STAGES)
def test_values_built_as_blanks_are_what_their_constructors_make(stage: str) -> None:
    built: set[type] = set()
    for value in _made(stage):
        assert type(value) in CLASSES and not isinstance(value, Blank)
        names = {f.name for f in dataclasses.fields(value)}  # type: ignore[arg-type]
        assert set(vars(value)) <= names | LAZY, set(vars(value)) - names  # no attribute beyond the fields
        other = _rebuilt(value)
        assert value == other and hash(value) == hash(other) and repr(value) == repr(other)
        assert dataclasses.replace(value) == value  # type: ignore[type-var]
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.flag = 0  # type: ignore[attr-defined]
        built.add(type(value))
    assert built == set(CLASSES)


def test_a_blank_given_a_class_of_another_layout_is_refused() -> None:
    # the class change needs the same layout: a class with __slots__ is refused loudly, never half-made
    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        x: int

    blank: object = claims._StepBlank()
    with pytest.raises(TypeError):
        blank.__class__ = Slotted
