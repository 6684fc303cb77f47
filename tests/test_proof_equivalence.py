"""The claim proofs say what they said when the golden was recorded: verdicts, steps and words.

A rewrite of the proof engine (``core/claims.py``, ``core/formations.py``) must leave every proof
as it was: the same verdicts, the same steps (reason codes and every field: cards, needed troops,
where cards lie, shapes, sums), the same shapes ruled out before a counterexample, and the same
explanation, byte for byte, in English and Chinese.  This test compares all of it with
``tests/golden/proofs/``, over seeded random positions of every stage (``tests/random_positions.py``)
and every position of the puzzle library, through both entry points (``analyse_position`` and
``analyse_claim`` for each unclaimed flag and side).

Each golden line is one position: its verdicts in words and two digests, one of the proofs' data
and one of their explanations (the whole data would be megabytes).  When a line differs, the test
prints the position's proofs in full, so a run on the recorded version shows where they part.
``./dev regen proofs`` rewrites the golden (``tools/regen.py``); do that only for a change that is
meant to change proofs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from battleline_lab.core.claims import ClaimAnalysis, Step, UndecidedTieError, analyse_claim, analyse_position
from battleline_lab.core.formations import Formation
from battleline_lab.core.position import FLAGS, Position, Side
from battleline_lab.quiz.loader import load_puzzle
from battleline_lab.text.messages import LANGUAGES, render_analysis
from tests.random_positions import STAGES, random_positions

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = ROOT / "tests" / "golden" / "proofs"
LIBRARY = ROOT / "puzzles"
SEED = 11
PER_STAGE = 60
# every field a step may carry, named here so the golden does not follow the class's own list
STEP_FIELDS = (
    "reason",
    "side",
    "flag",
    "cards",
    "needed",
    "where",
    "kind",
    "kinds",
    "total",
    "count",
    "available",
    "size",
    "shape",
    "shapes",
    "value",
    "wild",
    "other",
    "other_kind",
    "other_total",
)


def _plain(value: object) -> object:
    """A value of a step as JSON data: cards by notation, enums by name, the rest by ``repr``."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    notation = getattr(value, "notation", None)
    if isinstance(notation, str):
        return notation
    name = getattr(value, "name", None)
    if isinstance(name, str) and not isinstance(value, Formation):
        return name
    if isinstance(value, Formation):
        return _formation(value)
    return repr(value)


def _formation(formation: Formation | None) -> object:
    if formation is None:
        return None
    fields = (formation.cards, formation.kind, formation.total, formation.wild, formation.fog, formation.mud)
    return [_plain(v) for v in fields]


def _step(step: Step) -> list[object]:
    return [_plain(getattr(step, name)) for name in STEP_FIELDS]


def _analysis(analysis: ClaimAnalysis) -> dict[str, object]:
    """Everything a proof holds, as data."""
    return {
        "flag": analysis.flag,
        "side": analysis.side.value,
        "claimable": analysis.claimable,
        "steps": [_step(s) for s in analysis.steps],
        "formation": _formation(analysis.formation),
        "opponent_formation": _formation(analysis.opponent_formation),
        "counterexample": _plain(analysis.counterexample),
        "ruled_out": [_step(s) for s in analysis.ruled_out],
        "repr": repr(analysis),
        "step_reprs": [repr(s) for s in analysis.steps],
    }


def proofs(position: Position) -> tuple[str, dict[str, object], dict[str, list[str]]]:
    """The position's verdicts in words, its proofs as data and their explanations (both entry points)."""
    try:
        whole = analyse_position(position)
    except UndecidedTieError as error:
        return f"undecided tie: {error}", {}, {}
    data: dict[str, object] = {}
    words: dict[str, list[str]] = {}
    for side in Side:
        for n in FLAGS:
            if position.flag(n).claimed_by is not None:
                continue
            key = f"{side.value} {n}"
            analysis = whole[side, n]
            alone = analyse_claim(position, n, side)
            data[key] = _analysis(analysis)
            data[key + " alone"] = _analysis(alone)
            for lang in LANGUAGES:
                words[f"{key} {lang}"] = render_analysis(analysis, lang)
                words[f"{key} {lang} alone"] = render_analysis(alone, lang)
    verdicts = "; ".join(f"{side.value} " + (",".join(map(str, whole.claimable(side))) or "-") for side in Side)
    return verdicts, data, words


def _digest(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def line(name: str, position: Position) -> str:
    """One golden line: the position's name, its verdicts and the digests of its proofs and words."""
    verdicts, data, words = proofs(position)
    return f"{name} | {verdicts} | proofs {_digest(data)} | words {_digest(words)}"


def positions(source: str) -> Iterator[tuple[str, Position]]:
    """The named positions of one golden file: a stage of random positions, or the puzzle library."""
    if source == "library":
        for path in sorted(LIBRARY.rglob("*.yaml")):
            yield f"{path.parent.name}/{path.stem}", load_puzzle(path).position
        return
    for i, position in enumerate(random_positions(PER_STAGE, seed=SEED, stage=source)):
        yield f"{source}-{i:03d}", position


SOURCES = (*STAGES, "library")


@cache
def golden_lines(source: str) -> tuple[tuple[str, Position, str], ...]:
    """Each position of ``source`` with its name and its golden line, made once per process: the test
    below and ``./dev regen proofs`` (``tests/test_regen.py``'s ``proofs`` row, on the same xdist
    worker: ``tests/xdist_groups.py``) read the same proofs."""
    return tuple((name, position, line(name, position)) for name, position in positions(source))


def golden_text(source: str) -> str:
    header = f"# proofs of {source} positions: name | verdicts | digest of the proofs' data | of their words"
    return "\n".join([header, *(got for _name, _position, got in golden_lines(source))]) + "\n"


def golden_files() -> dict[str, str]:
    """Every golden file of this test, by path relative to the checkout (``./dev regen proofs``)."""
    return {f"tests/golden/proofs/{source}.txt": golden_text(source) for source in SOURCES}


@pytest.mark.parametrize("source", SOURCES)
def test_proofs_are_as_recorded(source: str) -> None:
    path = GOLDEN_DIR / f"{source}.txt"
    assert path.is_file(), f"missing {path.name}: run ./dev regen proofs"
    recorded = path.read_text(encoding="utf-8").splitlines()[1:]
    made = golden_lines(source)
    assert len(recorded) == len(made), "the golden lists other positions: run ./dev regen proofs"
    for expected, (name, position, got) in zip(recorded, made):
        if got != expected:
            verdicts, data, words = proofs(position)
            detail = json.dumps({"data": data, "words": words}, ensure_ascii=False, indent=1)
            pytest.fail(f"{name} differs from the golden:\n  recorded {expected}\n  now      {got}\n{detail}")


def test_the_golden_covers_many_positions_and_both_outcomes() -> None:
    texts = [(GOLDEN_DIR / f"{source}.txt").read_text(encoding="utf-8") for source in SOURCES]
    lines = [line for text in texts for line in text.splitlines()[1:]]
    assert len(lines) >= 3 * PER_STAGE + 100
    # some position has a claimable flag and some has none
    assert any("you -; opponent -" in line for line in lines)
    assert any("you -; opponent -" not in line for line in lines)
