"""The YAML loader: one bad-input test per error class, safety, and round trips.

Every bad input must give ``FILE:LINE:COL: error: message`` pointing at the
offending node (1-based), with a message that names the offending thing.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battleline_lab.core.cards import ALL_TROOPS
from battleline_lab.core.position import FLAGS, Position, Side
from battleline_lab.quiz.loader import (
    MAX_FILE_BYTES,
    Diagnostic,
    PuzzleFileError,
    iter_puzzle_files,
    load_puzzle,
    load_puzzle_text,
)
from battleline_lab.quiz.questions import ClaimQuestion, CompareQuestion

BAD = Path(__file__).parent / "data" / "bad"
PUZZLES = Path(__file__).parent.parent / "puzzles"

# (rule or error class, fixture, [(line, col, words the message must contain), ...]): every diagnostic of the file
BAD_FILES = [
    ("yaml_syntax", "yaml-syntax.yaml", [(4, 1, ["invalid YAML", "flow mapping"])]),
    ("unknown_key", "unknown-key.yaml", [(2, 1, ["unknown key 'flgas'", "did you mean 'flags'"])]),
    ("duplicate_key", "duplicate-key.yaml", [(4, 3, ["key '5' appears twice"])]),
    (
        "R1_bad_card",
        "bad-card.yaml",
        [(3, 17, ["'r11'", "did you mean 'r10'"]), (3, 22, ["'alexandr'", "did you mean 'alexander'"])],
    ),
    ("R1_duplicate_card", "duplicate-card.yaml", [(4, 22, ["r4 appears twice", "flag 5"])]),
    ("R6_too_many_cards", "too-many-cards.yaml", [(4, 10, ["flag 5", "4 cards", "holds 3", "R6"])]),
    ("R25_too_many_cards_mud", "too-many-cards-mud.yaml", [(4, 10, ["flag 5", "5 cards", "holds 4", "R25"])]),
    ("R3_flag_out_of_range", "flag-out-of-range.yaml", [(4, 3, ["flag '10'", "1 to 9"])]),
    ("R3_flag_key_int", "flag-key-int.yaml", [(4, 3, ["flag '10'", "1 to 9"]), (5, 3, ["flag '0'", "1 to 9"])]),
    ("R20_two_leaders", "two-leaders.yaml", [(4, 13, ["both Leaders", "R20"])]),
    ("R18_tactics_count", "tactics-count.yaml", [(3, 3, ["you 3, opponent 0", "R18"])]),
    ("R11_first_complete_missing", "first-complete-missing.yaml", [(4, 5, ["flag 5", "first_complete", "R11"])]),
    ("R16_game_over", "game-over.yaml", [(5, 38, ["already over", "R16", "claim question"])]),
    ("answer_type_claim", "answer-type-claim.yaml", [(5, 9, ["claim question", "true or false", "'maybe'"])]),
    ("answer_type_claimable", "answer-type-claimable.yaml", [(5, 9, ["claimable question", "list", "'5'"])]),
    ("answer_type_compare", "answer-type-compare.yaml", [(3, 9, ["compare question", "a or b", "'c'"])]),
    ("answer_type_formation", "answer-type-formation.yaml", [(3, 9, ["formation question", "wedge", "'triangle'"])]),
    ("answer_without_question", "answer-without-question.yaml", [(4, 9, ["answer needs a question"])]),
    (
        "wrong_types",
        "wrong-types.yaml",
        [
            (1, 5, ["id 'Wrong Types'", "slug"]),
            (2, 8, ["title"]),
            (3, 8, ["level", "'7'"]),
            (4, 7, ["tags", "list"]),
            (5, 7, ["turn", "'me'"]),
            (6, 23, ["claim_timing", "'whenever'"]),
        ],
    ),
    (
        "python_tag",
        "python-tag.yaml",
        [(3, 6, ["tag '!!python/object/apply:os.system'"]), (3, 6, ["flag 5 must be a mapping"])],
    ),
    ("any_tag", "any-tag.yaml", [(3, 13, ["tag '!!str'"]), (3, 23, ["tag '!card'"])]),
    ("anchor_alias", "anchor-alias.yaml", [(3, 12, ["anchor '&mine'"]), (4, 12, ["alias '*mine'"])]),
    ("not_utf8", "not-utf8.yaml", [(2, 11, ["UTF-8"])]),
    (
        "control_character",
        "control-character.yaml",
        [(2, 8, ["title", r"'\x1b[31mred'"]), (3, 7, ["note", r"'a\x07b'"]), (4, 8, ["tag", r"'x\x1b'"])],
    ),
    (
        "question_unknown_kind",
        "question-unknown-kind.yaml",
        [(2, 18, ["question kind 'clam'", "did you mean 'claim'"])],
    ),
    (
        "question_fields",
        "question-fields.yaml",
        [(2, 11, ["claim question needs 'flag'"]), (2, 30, ["unknown key 'flg'", "did you mean 'flag'"])],
    ),
    ("R11_compare_tie_undecided", "compare-tie-undecided.yaml", [(3, 3, ["tie", "first_complete", "R11"])]),
    (
        "compare_bad_cards",
        "compare-bad-cards.yaml",
        [
            (4, 11, ["fog is not a formation card"]),
            (5, 6, ["3 cards", "not 2"]),
            (5, 11, ["r7 appears twice"]),
            (6, 17, ["scout", "environment"]),
        ],
    ),
]


def _diagnostics(path: Path) -> list[Diagnostic]:
    with pytest.raises(PuzzleFileError) as info:
        load_puzzle(path)
    return info.value.diagnostics


@pytest.mark.parametrize(("fixture", "expected"), [(f, e) for _, f, e in BAD_FILES], ids=[c for c, _, _ in BAD_FILES])
def test_bad_file_reports_every_error_at_its_node(fixture: str, expected: list[tuple[int, int, list[str]]]) -> None:
    path = BAD / fixture
    diagnostics = _diagnostics(path)
    assert len(diagnostics) == len(expected), [str(d) for d in diagnostics]
    for diagnostic, (line, col, words) in zip(diagnostics, expected):
        text = str(diagnostic)
        assert text.startswith(f"{path}:{line}:{col}: error: "), text
        for word in words:
            assert word in diagnostic.message, text


def test_every_bad_fixture_is_in_the_table() -> None:
    assert sorted(p.name for p in BAD.glob("*.yaml")) == sorted(f for _, f, _ in BAD_FILES)


def test_diagnostic_format() -> None:
    assert str(Diagnostic("a.yaml", 3, 7, "boom")) == "a.yaml:3:7: error: boom"


def test_R16_five_flags_end_the_game_for_a_claimable_question() -> None:
    flags = "".join(
        f"  {n}: {{opponent: [{c}1, {c}2, {c}3], claimed_by: opponent}}\n" for n, c in zip((1, 3, 5, 7, 9), "roygb")
    )
    text = f"flags:\n{flags}question: {{kind: claimable}}\nanswer: []\n"
    with pytest.raises(PuzzleFileError) as info:
        load_puzzle_text(text, "five.yaml")
    (diagnostic,) = info.value.diagnostics
    assert str(diagnostic).startswith("five.yaml:6:43: error: the game is already over: the opponent won")


def test_R16_a_finished_game_is_fine_without_a_question() -> None:
    text = "flags:\n" + "".join(
        f"  {n}: {{you: [{c}1, {c}2, {c}3], claimed_by: you}}\n" for n, c in zip((1, 2, 3), "roy")
    )
    assert load_puzzle_text(text).position.winner() is Side.YOU


def test_too_big_file_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    (diagnostic,) = _diagnostics(path)
    assert str(diagnostic).startswith(f"{path}:1:1: error: file is too big")


def test_missing_file(tmp_path: Path) -> None:
    (diagnostic,) = _diagnostics(tmp_path / "nope.yaml")
    assert str(diagnostic).startswith(f"{tmp_path / 'nope.yaml'}:1:1: error: cannot read file")


@pytest.mark.parametrize(
    "payload",
    [
        '!!python/object/apply:os.system ["touch {marker}"]',
        '!!python/object/new:subprocess.Popen [["touch", "{marker}"]]',
        "{{answer: !!python/object/apply:builtins.exec [\"open('{marker}', 'w')\"]}}",
    ],
)
def test_python_tags_are_refused_and_nothing_is_executed(tmp_path: Path, payload: str) -> None:
    marker = tmp_path / "executed"
    path = tmp_path / "evil.yaml"
    path.write_text("id: evil\nflags:\n  5: " + payload.format(marker=marker) + "\n")
    diagnostics = _diagnostics(path)
    assert any("tag '!!python/" in d.message for d in diagnostics)
    assert all(str(d).startswith(f"{path}:") for d in diagnostics)
    assert not marker.exists()


@pytest.mark.parametrize("depth", [300, 900, 5000])
def test_deep_nesting_is_an_error_not_a_crash(depth: int) -> None:
    text = "question: {kind: claimable}\nanswer: " + "[" * depth + "]" * depth + "\n"
    with pytest.raises(PuzzleFileError, match=r"^n\.yaml:\d+:\d+: error: "):
        load_puzzle_text(text, "n.yaml")


def test_empty_file() -> None:
    with pytest.raises(PuzzleFileError, match=r"^e\.yaml:1:1: error: file is empty"):
        load_puzzle_text("", "e.yaml")


def test_top_level_must_be_a_mapping() -> None:
    with pytest.raises(PuzzleFileError, match=r"^l\.yaml:1:1: error: a puzzle file must be a mapping"):
        load_puzzle_text("- r3\n- r4\n", "l.yaml")


def test_two_documents_are_a_syntax_error() -> None:
    with pytest.raises(PuzzleFileError, match=r"^d\.yaml:2:1: error: invalid YAML: but found another document"):
        load_puzzle_text("id: a\n---\nid: b\n", "d.yaml")


def test_control_character_is_reported_with_its_place() -> None:
    with pytest.raises(PuzzleFileError, match=r"^c\.yaml:2:8: error: invalid YAML: character"):
        load_puzzle_text("id: a\ntitle: \x07\n", "c.yaml")


# -- good files ------------------------------------------------------------------------------------


def test_seed_example_loads_with_metadata_and_marks() -> None:
    path = PUZZLES / "seed-examples" / "2-blue-eight-blocked.yaml"
    puzzle = load_puzzle(path)
    assert puzzle.id == "seed-blue-eight-blocked"
    assert puzzle.title_text() == "Can the blue 8 still make a Wedge?"
    assert puzzle.level == 2
    assert "public-information" in puzzle.tags and "wedge" in puzzle.topics  # after and before the answer
    assert puzzle.question == ClaimQuestion(5)
    assert puzzle.answer is True
    assert puzzle.source == str(path)
    assert puzzle.title_text("zh") == "蓝8还能组成楔形阵吗？"
    assert puzzle.marks["answer"] == (16, 9)
    assert puzzle.note_text() is not None and "R13" in puzzle.note_text()  # type: ignore[operator]
    assert puzzle.position == Position.build(
        {5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}}
    )


def test_the_contract_example_from_the_issue() -> None:
    text = """
id: blue-eight-blocked          # slug, unique in a puzzle set
title: Can you claim flag 5?     # or a mapping {en: ..., zh: ...}
level: 2                         # 1-5, optional
tags: [claim, wedge, public-information]
rules: {claim_timing: after_play}   # after_play (default) | start_of_turn | end_of_turn
turn: you                        # you | opponent (default you)
flags:                           # keys 1-9; a missing flag is empty
  5:
    you: [r3, r4, r5]            # everything on this side of the flag: troops, morale
    opponent: [b8]               #   and environment cards (fog/mud) that side played
  2: {you: [b7], opponent: [b10]}
discards: {you: [scout], opponent: [g5]}   # face-up discard areas (R31)
hand: {you: [b9, y1]}            # optional, never used by proofs (R13)
question: {kind: claim, flag: 5} # optional for a bare position
answer: true                     # the author's answer; `check` verifies it
note: optional author's note
"""
    puzzle = load_puzzle_text(text)
    assert puzzle.is_correct(puzzle.answer)
    assert puzzle.position.discards(Side.YOU) == Position.build(discards={"you": "scout"}).discards(Side.YOU)
    assert puzzle.note_text() == "optional author's note"


def test_flag_first_complete_and_claimed_by_are_read() -> None:
    text = (
        "flags:\n  4: {you: [r7, g7, b7], opponent: [y7, o7, p7], first_complete: opponent}\n"
        "  6: {you: [r1, r2, r3], claimed_by: you}\n"
    )
    position = load_puzzle_text(text).position
    assert position.flag(4).first_complete is Side.OPPONENT
    assert position.flag(6).claimed_by is Side.YOU


def test_title_and_note_in_several_languages() -> None:
    puzzle = load_puzzle_text("id: t\ntitle: {en: Flag five, zh: 第五面旗}\nnote: {en: hi}\n")
    assert puzzle.title_text("zh") == "第五面旗"
    assert puzzle.title_text("fr") == "Flag five"
    assert puzzle.note_text("zh") == "hi"


def test_cards_are_case_insensitive_and_keys_may_be_quoted() -> None:
    puzzle = load_puzzle_text("flags:\n  '5': {you: [R3, r4, Alexander]}\n")
    assert puzzle.position == Position.build({5: {"you": "r3 r4 alexander"}})


def test_id_defaults_to_the_file_name() -> None:
    assert load_puzzle_text("flags: {}\n", "some/dir/my-position.yaml").id == "my-position"


def test_compare_question_needs_no_flags() -> None:
    puzzle = load_puzzle_text(
        "question: {kind: compare, a: [r1, r2, r3], b: [b1, b2, b3], first_complete: b}\nanswer: b\n"
    )
    assert isinstance(puzzle.question, CompareQuestion)
    assert puzzle.solve() == "b"
    assert puzzle.is_correct("b") and not puzzle.is_correct("a")


def test_iter_puzzle_files_recursive_sorted_yaml_only(tmp_path: Path) -> None:
    for name in ["b/2.yaml", "b/1.yml", "a.yaml", "notes.txt", ".hidden/x.yaml", "c/d/e.YAML"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("flags: {}\n")
    found = [p.relative_to(tmp_path).as_posix() for p in iter_puzzle_files([tmp_path])]
    assert found == ["a.yaml", "b/1.yml", "b/2.yaml"]
    assert list(iter_puzzle_files([tmp_path / "notes.txt"])) == [tmp_path / "notes.txt"]


# -- properties ------------------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> dict[int, dict[str, object]]:
    """Random legal flags: distinct troops, at most 3 a side, first_complete where both sides are complete."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    troops = list(ALL_TROOPS)
    rng.shuffle(troops)
    flags: dict[int, dict[str, object]] = {}
    for n in draw(st.sets(st.sampled_from(list(FLAGS)), max_size=9)):
        spec: dict[str, object] = {}
        for side in ("you", "opponent"):
            count = draw(st.integers(0, 3))
            spec[side] = [troops.pop().notation for _ in range(count)]
        if len(spec["you"]) == 3 and len(spec["opponent"]) == 3:  # type: ignore[arg-type]
            spec["first_complete"] = draw(st.sampled_from(["you", "opponent"]))
        flags[n] = spec
    return flags


@given(positions(), st.sampled_from(["you", "opponent"]))
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
def test_yaml_round_trip_gives_the_same_position(flags: dict[int, dict[str, object]], turn: str) -> None:
    text = yaml.safe_dump({"turn": turn, "flags": flags, "question": {"kind": "claimable"}}, sort_keys=False)
    puzzle = load_puzzle_text(text)
    assert puzzle.position == Position.build(flags, turn=turn)  # type: ignore[arg-type]


VALID = (PUZZLES / "seed-examples" / "2-blue-eight-blocked.yaml").read_text()


@given(st.data())
@settings(max_examples=300)
def test_mangled_files_only_ever_raise_puzzle_file_error(data: st.DataObject) -> None:
    text = VALID
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 8)))
        text = text[:i] + data.draw(st.text(alphabet="[]{}:,-&*!#'\"\n 0123456789rbgkx|>", max_size=6)) + text[j:]
    try:
        load_puzzle_text(text, "m.yaml")
    except PuzzleFileError as err:
        assert err.diagnostics
        assert all(str(d).startswith("m.yaml:") and ": error: " in str(d) for d in err.diagnostics)
