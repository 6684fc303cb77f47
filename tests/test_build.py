"""The engine's values are plain values: what their own constructors make, and nothing more.

These tests take every step, analysis and formation ``analyse_position`` makes on seeded random
positions of every stage (every way a proof is built is reached) and check that each one is what
its class's own constructor makes from the fields it reads: the same class, no instance dict (a
NamedTuple or a dataclass with slots), equal with the same hash, the same ``repr``, as frozen, and
the same after ``replace``, pickling and copying.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator

import pytest

from battleline_lab.core.claims import ClaimAnalysis, Step, analyse_position
from battleline_lab.core.formations import Formation
from tests.random_positions import STAGES, random_positions

CLASSES = (Step, ClaimAnalysis, Formation)


def _made(stage: str) -> Iterator[Step | ClaimAnalysis | Formation]:
    """Every analysis of 40 positions of ``stage``, every step and shape ruled out, and their formations."""
    for position in random_positions(40, seed=31, stage=stage):
        for analysis in analyse_position(position).claims.values():
            yield analysis
            yield from analysis.steps
            yield from analysis.ruled_out
            for formation in (analysis.formation, analysis.opponent_formation):
                if formation is not None:
                    yield formation


def _fields(value: Step | ClaimAnalysis | Formation) -> dict[str, object]:
    return value._asdict()


def _replaced(value: Step | ClaimAnalysis | Formation) -> object:
    return value._replace()


@pytest.mark.parametrize("stage", STAGES)
def test_values_are_what_their_constructors_make(stage: str) -> None:
    built: set[type] = set()
    for value in _made(stage):
        assert isinstance(value, CLASSES)
        assert type(value) in CLASSES
        assert not hasattr(value, "__dict__")  # no attribute beyond the fields
        other = type(value)(**_fields(value))  # type: ignore[arg-type]
        assert value == other and hash(value) == hash(other) and repr(value) == repr(other)
        assert _replaced(value) == value
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value
        first = next(iter(_fields(value)))
        with pytest.raises(AttributeError):
            setattr(value, first, 0)
        built.add(type(value))
    assert built == set(CLASSES)
