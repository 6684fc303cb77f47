"""The JSON Schema for puzzle files: valid, shipped in the package, and in step with the loader."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline_lab.quiz.loader import PuzzleFileError, load_puzzle, load_puzzle_text
from tests.every import check_every

ROOT = Path(__file__).parent.parent
PUZZLES = sorted((ROOT / "puzzles").rglob("*.yaml"))
BAD = ROOT / "tests" / "data" / "bad"

# bad fixtures the schema also rejects ...
SCHEMA_REJECTS = [
    "unknown-key.yaml",
    "bad-card.yaml",
    "flag-out-of-range.yaml",
    "flag-key-int.yaml",
    "answer-type-claim.yaml",
    "answer-type-claimable.yaml",
    "answer-type-compare.yaml",
    "answer-type-formation.yaml",
    "answer-without-question.yaml",
    "wrong-types.yaml",
    "question-unknown-kind.yaml",
    "question-fields.yaml",
    "compare-bad-cards.yaml",
]
# ... and those only the loader can tell: rules about the whole position (R6 counts with Mud, R11, R16, R18, R20,
# duplicate cards), and YAML-level refusals (the schema sees data, not tags, anchors, duplicate keys or bytes)
SCHEMA_ACCEPTS = [
    "duplicate-card.yaml",
    "too-many-cards.yaml",
    "too-many-cards-mud.yaml",
    "two-leaders.yaml",
    "tactics-count.yaml",
    "first-complete-missing.yaml",
    "game-over.yaml",
    "compare-tie-undecided.yaml",
    "duplicate-key.yaml",
    "anchor-alias.yaml",
    "control-character.yaml",
]
NOT_PLAIN_DATA = ["yaml-syntax.yaml", "python-tag.yaml", "any-tag.yaml", "not-utf8.yaml"]


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    text = resources.files("battleline_lab").joinpath("schema/puzzle.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def as_json(value: Any) -> Any:
    """YAML data as an editor's schema validator sees it: mapping keys are strings."""
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    return value


def test_schema_declares_draft_2020_12(validator: jsonschema.Draft202012Validator) -> None:
    assert validator.schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_committed_puzzle_is_valid_for_schema_and_loader(validator: jsonschema.Draft202012Validator) -> None:
    def valid(path: Path) -> None:
        errors = [e.message for e in validator.iter_errors(as_json(yaml.safe_load(path.read_text(encoding="utf-8"))))]
        assert errors == []
        load_puzzle(path)

    check_every(((p.relative_to(ROOT / "puzzles").as_posix(), p) for p in PUZZLES), valid)


def _loads(path: Path) -> bool:
    try:
        load_puzzle(path)
    except PuzzleFileError:
        return False
    return True


@pytest.mark.parametrize("path", sorted(BAD.glob("*.yaml")), ids=lambda p: p.name)
def test_every_bad_file_through_schema_and_loader(validator: jsonschema.Draft202012Validator, path: Path) -> None:
    """Each bad-input file of the suite, through both: the loader refuses it; the schema refuses it exactly
    when the problem is one of shape, whether it sees the data as YAML gives it (integer flag keys, as a
    Python tool validating a loaded file does) or as JSON (string keys, as an editor does)."""
    assert not _loads(path)
    if path.name in NOT_PLAIN_DATA:
        return
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    expected = path.name in SCHEMA_ACCEPTS
    assert validator.is_valid(data) is expected
    assert validator.is_valid(as_json(data)) is expected


@pytest.mark.parametrize("key", [0, 10, -1, 5.5, True, "05", "x", " 5"])
def test_bad_flag_keys_rejected_by_both(validator: jsonschema.Draft202012Validator, key: object) -> None:
    text = yaml.safe_dump({"flags": {key: {"you": ["r3"]}}})
    assert not validator.is_valid(yaml.safe_load(text))
    with pytest.raises(PuzzleFileError):
        load_puzzle_text(text)


@pytest.mark.parametrize("key", [1, 9, "5"])
def test_good_flag_keys_accepted_by_both(validator: jsonschema.Draft202012Validator, key: object) -> None:
    text = yaml.safe_dump({"flags": {key: {"you": ["r3"]}}})
    assert validator.is_valid(yaml.safe_load(text)) and validator.is_valid(as_json(yaml.safe_load(text)))
    load_puzzle_text(text)


def test_title_in_chinese_only_accepted_by_both(validator: jsonschema.Draft202012Validator) -> None:
    text = "title: {zh: 你能宣称夺取5号旗吗？}\nflags: {5: {you: [r3, r4, r5], opponent: [b8, b9]}}\n"
    assert validator.is_valid(yaml.safe_load(text))
    puzzle = load_puzzle_text(text)
    assert puzzle.title_text("en") == puzzle.title_text("zh") == "你能宣称夺取5号旗吗？"  # English falls back


def test_every_bad_fixture_is_classified() -> None:
    assert sorted(SCHEMA_REJECTS + SCHEMA_ACCEPTS + NOT_PLAIN_DATA) == sorted(p.name for p in BAD.glob("*.yaml"))


CARD = st.sampled_from(["r3", "B10", "p1", "alexander", "Fog", "mud", "shield", "companion", "g7"])
JUNK = st.sampled_from(["r11", "x3", "", "alex", "10", "fogg"])


@given(
    st.dictionaries(
        st.sampled_from(["1", "5", "9", "0", "10", 1, 5, 9, 0, 10]),
        st.fixed_dictionaries({"you": st.lists(st.one_of(CARD, JUNK), max_size=3)}),
        max_size=3,
    ),
    st.sampled_from(["you", "opponent", "me"]),
    st.one_of(st.integers(0, 6), st.none()),
)
@settings(max_examples=150)
def test_schema_and_loader_agree_on_shapes(
    validator: jsonschema.Draft202012Validator, flags: dict[str, Any], turn: str, level: int | None
) -> None:
    # bad card tokens, flag numbers, sides and levels: whatever the loader accepts, the schema accepts too
    data: dict[str, Any] = {"turn": turn, "flags": flags}
    if level is not None:
        data["level"] = level
    schema_ok = validator.is_valid(data)  # keys as YAML gives them: integers stay integers
    try:
        load_puzzle_text(yaml.safe_dump(data))
        loader_ok = True
    except PuzzleFileError:
        loader_ok = False
    assert schema_ok or not loader_ok
