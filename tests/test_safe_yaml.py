"""The shared safe-YAML reader (battleline_lab.formats.safe_yaml) and the two readers built on it.

Puzzle files (loader) and game records (game.record) must refuse the same
things at the same place, each in its own words, and never crash.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from yaml.nodes import MappingNode

from battleline_lab.formats.safe_yaml import (
    MAX_BYTES,
    ComposeError,
    FileTooBigError,
    NotUtf8Error,
    compose,
    decode_utf8,
    mapping_entries,
    mark_position,
    read_limited,
    scalar_value,
    utf8_size,
)
from battleline_lab.game.record import GameRecord, RecordError, load_record, load_record_text
from battleline_lab.game.state import Options
from battleline_lab.quiz.loader import PuzzleFileError, load_puzzle, load_puzzle_text


def _puzzle_errors(text: str) -> list[str]:
    with pytest.raises(PuzzleFileError) as info:
        load_puzzle_text(text, "p.yaml")
    return str(info.value).splitlines()


def _record_errors(text: str) -> list[str]:
    with pytest.raises(RecordError) as info:
        load_record_text(text, "g.yaml")
    return str(info.value).splitlines()


# (text, where both readers point, what the puzzle loader says, what the record reader says)
REFUSED = [
    ("seed: !!int 1\n", "1:7", "tag '!!int' is not allowed", "tags (!!int) are not allowed"),
    ("seed: !foo 1\n", "1:7", "tag '!foo' is not allowed", "tags (!foo) are not allowed"),
    ("seed: !!python/object:os.system x\n", "1:7", "tag '!!python/object:os.system'", "tags (!!python/object"),
    ("seed: &s 1\n", "1:7", "anchor '&s' is not allowed", "anchors (&name) are not allowed"),
    ("a: 1\nseed: *s\n", "2:7", "alias '*s' is not allowed", "aliases (*name) are not allowed"),
    ("seed: [1, 2\n", "2:1", "invalid YAML: expected ',' or ']'", "YAML syntax error: expected ',' or ']'"),
    (
        "seed: 1\n  moves: x\n",
        "2:8",
        "invalid YAML: a ': ' (colon and space) inside a text starts a new key here",
        "YAML syntax error: mapping",
    ),
    ("seed: 1\x07\n", "1:8", "invalid YAML: character 7 is not allowed", "special characters are not allowed"),
    ("seed: '\ud800'\n", "1:8", "invalid YAML: character 55296 is not allowed", "special characters are not allowed"),
    ("[" * 5000 + "]" * 5000, "1:1", "nests lists or mappings too deeply", "nested too deeply"),
]


@pytest.mark.parametrize(("text", "where", "puzzle_says", "record_says"), REFUSED)
def test_both_readers_refuse_tags_anchors_aliases_and_bad_yaml_at_the_same_place(
    text: str, where: str, puzzle_says: str, record_says: str
) -> None:
    puzzle = [line for line in _puzzle_errors(text) if puzzle_says in line]
    record = [line for line in _record_errors(text) if record_says in line]
    assert len(puzzle) == 1 and puzzle[0].startswith(f"p.yaml:{where}: error: ")
    assert len(record) == 1 and record[0].startswith(f"g.yaml:{where}: error: ")


def test_a_refused_tag_with_control_characters_is_shown_escaped_never_raw() -> None:
    text = "seed: !a%1B%07 1\n"  # URI escapes in a tag: the tag holds ESC and BEL
    assert compose(text)[1][0].name == "!a\x1b\x07"
    (puzzle,) = [line for line in _puzzle_errors(text) if "tag" in line]
    assert puzzle.endswith("tag '!a\\x1b\\x07' is not allowed: puzzle files use plain YAML without tags")
    assert _record_errors(text) == ["g.yaml:1:7: error: tags (!a\\x1b\\x07) are not allowed in game records"]


def test_an_alias_is_never_resolved_to_the_node_it_names() -> None:
    root, refused = compose("a: &x [1, 2]\nb: *x\n")
    assert root is not None and [r.kind for r in refused] == ["anchor", "alias"]
    alias_value = root.value[1][1]
    assert scalar_value(alias_value) is None


@pytest.mark.parametrize(
    ("text", "kind", "where"),
    [
        ("a: 'open", "syntax", (1, 9)),
        ("a: b: c", "syntax", (1, 5)),
        ("ok: 1\nb: \x1b", "character", (2, 4)),
        ("{" * 5000 + "}" * 5000, "too_deep", (1, 1)),
    ],
)
def test_compose_errors_say_what_and_where(text: str, kind: str, where: tuple[int, int]) -> None:
    with pytest.raises(ComposeError) as info:
        compose(text)
    assert (info.value.kind, (info.value.line, info.value.col)) == (kind, where)


def test_empty_text_composes_to_no_node() -> None:
    assert compose("# only a comment\n") == (None, [])


def test_mapping_entries_takes_known_keys_once_and_reports_the_others_in_file_order() -> None:
    root, _ = compose("id: x\n[a]: 1\nflgas: {}\nid: y\n")
    assert isinstance(root, MappingNode)
    entries, issues = mapping_entries(root, ("id", "flags"), scalar_value)
    assert list(entries) == ["id"] and mark_position(entries["id"][1]) == (1, 5)
    assert [(i.problem, i.key, mark_position(i.node)) for i in issues] == [
        ("not_scalar", None, (2, 1)),
        ("unknown", "flgas", (3, 1)),
        ("duplicate", "id", (4, 1)),
    ]
    everything, none = mapping_entries(root, None, scalar_value)
    assert list(everything) == ["id", "flgas"] and [i.problem for i in none] == ["not_scalar", "duplicate"]


def test_decode_utf8_points_at_the_first_bad_byte_in_characters() -> None:
    assert decode_utf8("\ufeffé: 1".encode()) == "\ufeffé: 1"
    with pytest.raises(NotUtf8Error) as info:
        decode_utf8("a: 1\néé: \xff".encode()[:-2] + b"\xff")
    assert (info.value.line, info.value.col) == (2, 5)


def test_read_limited_refuses_a_file_over_the_limit_by_its_size(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (MAX_BYTES + 5))
    with pytest.raises(FileTooBigError) as info:
        read_limited(os.fspath(path))
    assert info.value.size == MAX_BYTES + 5
    path.write_bytes(b"#" * MAX_BYTES)
    assert len(read_limited(os.fspath(path))) == MAX_BYTES
    with pytest.raises(OSError):
        read_limited(os.fspath(tmp_path / "missing.yaml"))


def test_both_readers_refuse_a_file_over_one_mib_and_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (MAX_BYTES + 1))
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"seed: 1\nname: caf\xe9\n")
    with pytest.raises(PuzzleFileError, match=r"big.yaml:1:1: error: file is too big \(1048577 bytes"):
        load_puzzle(big)
    with pytest.raises(RecordError, match=r"big.yaml:1:1: error: file larger than 1048576 bytes"):
        load_record(big)
    with pytest.raises(PuzzleFileError, match=r"latin.yaml:2:10: error: file is not valid UTF-8"):
        load_puzzle(latin)
    with pytest.raises(RecordError, match=r"latin.yaml:2:1: error: the file is not UTF-8"):
        load_record(latin)


def test_utf8_size_counts_bytes_and_survives_lone_surrogates() -> None:
    assert utf8_size("aé中") == 6
    assert utf8_size("a\ud800") == 2


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab:-[]{}!&*#'\"\n\t ,?|>%@`\\") + ["\x07", "\ud800", "é", "\ufeff"])))
def test_no_text_makes_either_reader_crash(text: str) -> None:
    """Whatever an author writes, the answer is a result or FILE:LINE:COL errors, never a traceback."""
    for load, error in ((load_puzzle_text, PuzzleFileError), (load_record_text, RecordError)):
        try:
            load(text, "x.yaml")
        except error as err:
            assert all(line.startswith("x.yaml:") and ": error: " in line for line in str(err).splitlines())


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=12), st.sampled_from(["yes", "null", "on", "No", "_bot", "10", "heuristic", "李"]))
def test_player_names_in_a_game_record_read_back_as_the_same_text_in_any_yaml_reader(name: str, other: str) -> None:
    """The record writer quotes names like the puzzle writer does (yaml_string), so even 'yes' stays text."""
    record = GameRecord(1, Options(), (), {"north": name, "south": other})
    text = record.to_yaml()
    assert load_record_text(text).players == {"north": name, "south": other}
    assert yaml.safe_load(text)["players"] == {"north": name, "south": other}
