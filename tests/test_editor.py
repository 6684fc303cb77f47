"""The puzzle editor's session (battleline_lab.authoring.editor), driven directly: no ipywidgets."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battleline_lab.authoring.editor import EditorError, EditorSession, Finding, patch_text
from battleline_lab.authoring.yaml_text import plain_data as _plain
from battleline_lab.core.cards import ALL_TROOPS
from battleline_lab.formats.safe_yaml import compose
from battleline_lab.quiz import library
from battleline_lab.quiz.loader import TOP_LEVEL_KEYS, check_answer, iter_puzzle_files, load_puzzle, load_puzzle_text
from battleline_lab.text.messages import message

LIBRARY_FILES = list(iter_puzzle_files([library.root()]))

Edit = Callable[[EditorSession], None]


def _session(*edits: Edit) -> EditorSession:
    s = EditorSession.new("editor-test")
    for edit in edits:
        edit(s)
    return s


def _put(place: tuple[object, ...], cards: str) -> Edit:
    return lambda s: s.add_card(place, cards)


# -- what the loader says: the same located problems, in words ------------------------------------

PROBLEM_CASES = {
    # rule id in the name: the problem the loader reports for the position
    "R20-two-leaders": (
        [
            _put(("flags", 1, "you"), "alexander r3 r4"),
            _put(("flags", 2, "you"), "darius"),
            _put(("flags", 1, "opponent"), "scout"),
            _put(("flags", 2, "opponent"), "b1"),
        ],
        "problem.two_leaders",
    ),
    "R11-tie-without-first-complete": (
        [_put(("flags", 4, "you"), "r3 r4 r5"), _put(("flags", 4, "opponent"), "g3 g4 g5")],
        "problem.first_complete_missing",
    ),
    "R6-too-many-cards": ([_put(("flags", 3, "you"), "r1 r2 r3 r4")], "problem.too_many_cards"),
    "R18-tactics-count": (
        [_put(("flags", 3, "you"), "fog"), _put(("discards", "you"), "scout")],
        "problem.tactics_count",
    ),
    "R11-first-complete-unused": (
        [_put(("flags", 2, "you"), "r3"), lambda s: s.set_first_complete(2, "you")],
        "problem.first_complete_unused",
    ),
    "R12-claimed-incomplete": (
        [_put(("flags", 2, "you"), "r3"), lambda s: s.set_claimed(2, "you")],
        "problem.claimed_incomplete",
    ),
}


@pytest.mark.parametrize("case", PROBLEM_CASES, ids=list(PROBLEM_CASES))
def test_problems_are_the_loaders(case: str) -> None:
    edits, key = PROBLEM_CASES[case]
    s = _session(*edits)
    report = s.report()
    assert report.puzzle is None and report.problems
    # the very diagnostics the loader gives for the text the editor would save
    with pytest.raises(Exception) as err:
        load_puzzle_text(s.text(), "editor-test.yaml")
    assert [str(d) for d in report.problems] == [str(d) for d in err.value.diagnostics]  # type: ignore[attr-defined]
    words = message(key, "en").split("{")[0].strip()
    assert any(words in d.message for d in report.problems), (words, report.problems)
    # and in Chinese
    zh = s.report("zh").problems
    assert len(zh) == len(report.problems) and all(a.message != b.message for a, b in zip(zh, report.problems))


def test_a_fixed_problem_goes_away() -> None:
    s = _session(*PROBLEM_CASES["R11-tie-without-first-complete"][0])
    assert s.report().problems
    s.set_first_complete(4, "opponent")
    assert s.report().problems == ()


def test_bad_card_token_changes_nothing() -> None:
    s = _session(_put(("flags", 5, "you"), "r3"))
    before = s.text()
    with pytest.raises(EditorError) as err:
        s.add_card(("flags", 5, "you"), "r4 x11")
    assert "x11" in str(err.value) and "x11" in err.value.text("zh")
    assert s.text() == before


def test_a_card_is_in_one_place_only() -> None:
    s = _session(_put(("flags", 5, "you"), "r3 r4"), _put(("hand", "opponent"), "r4"))
    assert s.cards_at(("flags", 5, "you")) == ["r3"]
    assert s.where("r4") == ("hand", "opponent")
    assert s.remove_card("r4") and s.where("r4") is None and "hand" not in s.data


def test_fog_and_mud_marks() -> None:
    s = _session(_put(("flags", 5, "you"), "r3 r4 r5 r6"))
    assert s.report().problems  # 4 cards without Mud (R6)
    s.set_environment(5, "mud", True, side="opponent")
    assert s.report().problems == ()  # Mud: 4 cards (R25)
    assert s.report().puzzle is not None and s.report().puzzle.position.flag(5).mud  # type: ignore[union-attr]
    s.set_environment(5, "mud", False)
    assert s.report().problems
    with pytest.raises(EditorError):
        s.set_environment(5, "r3", True)


# -- the engine's answer, proof and difficulty ------------------------------------------------------

ENGINE_CASES = {
    "R12-claim-wedge-over-sixes": (
        [
            _put(("flags", 5, "you"), "r2 r3 r4"),
            _put(("flags", 5, "opponent"), "r6 g6"),
            lambda s: s.set_question({"kind": "claim", "flag": 5}),
        ],
        True,
    ),
    "R12-claim-blocked-by-nothing": (
        [
            _put(("flags", 5, "you"), "r2 r3 r4"),
            _put(("flags", 5, "opponent"), "b8"),
            lambda s: s.set_question({"kind": "claim", "flag": 5}),
        ],
        False,
    ),
    "R9-compare": (
        [lambda s: s.set_question({"kind": "compare", "a": ["r1", "r2", "r3"], "b": ["g9", "b9", "y9"]})],
        "a",
    ),
    "R9-formation": ([lambda s: s.set_question({"kind": "formation", "cards": ["r1", "y1", "b1"]})], "phalanx"),
    "R12-claimable": (
        [
            _put(("flags", 5, "you"), "r2 r3 r4"),
            _put(("flags", 5, "opponent"), "r6 g6"),
            _put(("flags", 1, "you"), "b1"),
            lambda s: s.set_question({"kind": "claimable"}),
        ],
        [5],
    ),
}


@pytest.mark.parametrize("case", ENGINE_CASES, ids=list(ENGINE_CASES))
def test_engine_answer_proof_and_difficulty(case: str) -> None:
    edits, expected = ENGINE_CASES[case]
    s = _session(*edits)
    report = s.report()
    assert report.problems == () and report.engine_error is None
    assert report.engine_answer == expected
    assert report.proof is not None and report.difficulty is not None and 1 <= report.difficulty.level <= 5
    assert [w.code for w in report.warnings] == ["no_answer"]
    s.use_engine_answer()
    report = s.report()
    assert report.ok and report.warnings == ()
    assert check_answer(load_puzzle_text(s.text()), "x.yaml") == []


def test_wrong_answer_is_what_check_says() -> None:
    s = _session(*ENGINE_CASES["R12-claim-wedge-over-sixes"][0])
    s.set_answer(False)
    report = s.report()
    assert not report.ok and len(report.answer_problems) == 1
    assert "wrong answer" in report.answer_problems[0].message


def test_undecidable_question_is_reported_not_raised() -> None:
    s = _session(lambda s: s.set_question({"kind": "compare", "a": ["r1", "r2", "r3"], "b": ["g1", "g2", "g3"]}))
    report = s.report()
    assert report.problems or report.engine_error  # a tie needs first_complete (R11)


# -- a reviewer's warnings --------------------------------------------------------------------------

WARNING_CASES: dict[str, tuple[list[Edit], str | None]] = {
    "same-position-as-library": ([], "same_position"),
    "tag-counterexample-gives-false-away": ([lambda s: s.set_tags("claim, counterexample")], "tag_gives_away"),
    "tag-matching-a-wrong-answer-is-fine": ([lambda s: s.set_tags(["claim", "yes"])], None),
    "title-says-cannot": ([lambda s: s.set_text("title", "en", "You cannot claim this one")], "title_states"),
    "zh-title-says-cannot": (
        [lambda s: s.set_text("title", "en", "Flag 5"), lambda s: s.set_text("title", "zh", "你不能宣称夺取")],
        "title_states",
    ),
    "neutral-title": ([lambda s: s.set_text("title", "en", "Can you claim flag 5?")], None),
    "level-far-from-estimate": ([lambda s: s.set_level(5)], "level_far"),
}


@pytest.mark.parametrize("case", WARNING_CASES, ids=list(WARNING_CASES))
def test_reviewer_warnings(case: str) -> None:
    edits, code = WARNING_CASES[case]
    base = library.get("seed-blue-eight-blocked")  # "same_position" copies its board
    s = EditorSession.new("copy" if code == "same_position" else "fresh")
    if code != "same_position":
        s.add_card(("flags", 5, "you"), "r2 r3 r4")
        s.add_card(("flags", 5, "opponent"), "b8")
    else:
        for n, state in zip(range(1, 10), base.position.flags):
            for side in ("you", "opponent"):
                cards = [c.notation for c in getattr(state, side)]
                if cards:
                    s.add_card(("flags", n, side), " ".join(cards))
    s.set_question({"kind": "claim", "flag": 5})
    s.use_engine_answer()
    for edit in edits:
        edit(s)
    codes = [w.code for w in s.report().warnings]
    assert codes == ([code] if code else []), codes
    for warning in s.report().warnings:
        assert warning.text("en") and warning.text("zh") != warning.text("en")


def test_formation_tag_gives_away() -> None:
    s = _session(
        lambda s: s.set_question({"kind": "formation", "cards": ["r1", "r2", "r3"]}), lambda s: s.set_tags("wedge")
    )
    s.use_engine_answer()
    assert Finding("tag_gives_away", (("tag", "wedge"),)) in s.report().warnings


# -- load, edit, save ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", LIBRARY_FILES, ids=[p.stem for p in LIBRARY_FILES])
def test_library_round_trip_is_byte_identical(path: Path) -> None:
    s = EditorSession.open(path)
    assert not s.edited
    assert s.text() == path.read_text(encoding="utf-8")
    assert s.report().ok


@pytest.mark.parametrize("path", LIBRARY_FILES, ids=[p.stem for p in LIBRARY_FILES])
def test_library_edit_keeps_everything_else(path: Path, tmp_path: Path) -> None:
    original = path.read_text(encoding="utf-8")
    s = EditorSession.open(path)
    old_level = s.data.get("level")
    s.set_level(5 if old_level != 5 else 4)
    s.set_tags([*s.data.get("tags", []), "edited"])
    text = s.text()
    old_lines, new_lines = original.splitlines(), text.splitlines()
    changed = [line for line in new_lines if line not in old_lines]
    assert all(line.startswith(("level:", "tags:")) for line in changed), changed
    # every line but the edited ones is kept, comments included
    assert [line for line in old_lines if not line.startswith(("level:", "tags:"))] == [
        line for line in new_lines if not line.startswith(("level:", "tags:"))
    ]
    out = s.save_as(tmp_path / path.name, f"{path.stem}-edited")  # a copy gets its own id
    puzzle = load_puzzle(out)
    assert puzzle.level == s.data["level"] and "edited" in puzzle.tags and puzzle.id.endswith("-edited")
    assert check_answer(puzzle, str(out)) == []


def test_edit_a_flag_in_a_commented_file(tmp_path: Path) -> None:
    path = library.path("seed-blue-eight-blocked")
    s = EditorSession.open(path)
    s.add_card(("flags", 2, "opponent"), "g9")
    s.add_card(("flags", 7, "you"), "y1")
    text = s.text()
    assert text.startswith("# Worked example 2 from RULES.md.\n")
    assert "  5:\n    you: [r3, r4, r5]\n    opponent: [b8]\n" in text  # untouched flag: as written
    assert "  2: {you: [b7], opponent: [b10, g9]}\n  7: {you: [y1]}\n" in text
    assert text.split("question:")[1] == path.read_text().split("question:")[1]
    assert s.report().problems == ()


def test_patch_keeps_trailing_comments_and_inserts_in_order() -> None:
    text = "# head\nid: x   # mine\n\n# about the answer\nanswer: true  # said so\nnote: hi\n"
    old = {"id": "x", "answer": True, "note": "hi"}
    new = {"id": "x", "level": 2, "question": {"kind": "claim", "flag": 5}, "answer": False, "note": "hi"}
    assert patch_text(text, old, new) == (
        "# head\nid: x   # mine\nlevel: 2\nquestion: {kind: claim, flag: 5}\n\n# about the answer\n"
        "answer: false  # said so\nnote: hi\n"
    )


def test_new_puzzle_uses_standard_key_order(tmp_path: Path) -> None:
    s = EditorSession.new("order")
    s.set_question({"kind": "claim", "flag": 5})
    s.add_card(("hand", "you"), "b9")
    s.add_card(("flags", 5, "you"), "r2 r3 r4")
    s.add_card(("discards", "opponent"), "g5")
    s.set_text("note", "en", "A note.")
    s.set_tags("claim")
    s.set_level(1)
    s.set_text("title", "zh", "标题")
    s.set_text("title", "en", "Title")
    s.use_engine_answer()
    keys = [line.split(":")[0] for line in s.text().splitlines() if line[:1].isalpha()]
    assert keys == [k for k in TOP_LEVEL_KEYS if k in keys]
    assert s.save(tmp_path / "order.yaml").exists()


def test_save_never_overwrites_without_force(tmp_path: Path) -> None:
    target = tmp_path / "p.yaml"
    target.write_text("id: keep-me\n")
    s = _session(*ENGINE_CASES["R9-formation"][0])
    s.use_engine_answer()
    with pytest.raises(EditorError) as err:
        s.save(target)
    assert err.value.key == "editor.error.exists"
    assert target.read_text() == "id: keep-me\n"
    s.save(target, force=True)
    assert load_puzzle(target).answer == "phalanx"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.yaml"]  # no temporary file left


def test_save_refuses_a_puzzle_the_loader_refuses(tmp_path: Path) -> None:
    s = _session(*PROBLEM_CASES["R20-two-leaders"][0])
    with pytest.raises(EditorError) as err:
        s.save(tmp_path / "bad.yaml")
    assert err.value.key == "editor.error.not_loadable" and not (tmp_path / "bad.yaml").exists()


def test_unsafe_yaml_is_never_executed() -> None:
    s = EditorSession.from_text("id: x\ntitle: !!python/object/apply:os.system [echo hi]\n")
    report = s.report()
    assert report.problems and "tag" in report.problems[0].message


# -- property: any edits to any library file patch the text (never the fallback), keeping comments ---

_EDITS = st.one_of(
    st.tuples(st.just("level"), st.integers(1, 5)),
    st.tuples(st.just("card"), st.sampled_from(ALL_TROOPS), st.integers(1, 9), st.sampled_from(["you", "opponent"])),
    st.tuples(st.just("remove"), st.sampled_from(ALL_TROOPS)),
    st.tuples(st.just("note"), st.sampled_from(["en", "zh"]), st.sampled_from(["A note.", "说明。", ""])),
    st.tuples(st.just("tags"), st.lists(st.sampled_from(["claim", "fog", "x-y"]), max_size=3)),
    st.tuples(st.just("first"), st.integers(1, 9), st.sampled_from([None, "you", "opponent"])),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(LIBRARY_FILES), edits=st.lists(_EDITS, min_size=1, max_size=4))
def test_edits_are_patched_in_place_keeping_comments(path: Path, edits: list[tuple[Any, ...]]) -> None:
    s = EditorSession.open(path)
    for edit in edits:
        if edit[0] == "level":
            s.set_level(edit[1])
        elif edit[0] == "card":
            s.add_card(("flags", edit[2], edit[3]), [edit[1]])
        elif edit[0] == "remove":
            s.remove_card(edit[1])
        elif edit[0] == "note":
            s.set_text("note", edit[1], edit[2])
        elif edit[0] == "tags":
            s.set_tags(edit[1])
        else:
            s.set_first_complete(edit[1], edit[2])
    assert s.original_text is not None
    patched = patch_text(s.original_text, s.original, s.data)
    assert patched is not None and patched == s.text()  # the patch, not the rewrite-all fallback
    comments = [line for line in s.original_text.splitlines() if line.lstrip().startswith("#")]
    assert all(line in patched.splitlines() for line in comments)
    # the saved text holds exactly the session's data, whatever the loader then says about it
    root, _ = compose(patched)
    assert root is not None and _plain(root) == s.data


def test_a_file_that_is_not_utf8_is_refused_in_words(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes("id: caf\xe9\n".encode("latin-1"))
    with pytest.raises(EditorError) as err:
        EditorSession.open(bad)
    assert err.value.key == "editor.error.unreadable" and "latin1.yaml" in str(err.value)


def test_save_without_hard_links_still_refuses_an_existing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    def no_link(src: str, dst: str) -> None:
        raise PermissionError("no hard links here")

    monkeypatch.setattr(os, "link", no_link)
    s = _session(*ENGINE_CASES["R9-formation"][0])
    s.use_engine_answer()
    s.save(tmp_path / "a.yaml")
    assert load_puzzle(tmp_path / "a.yaml").answer == "phalanx"
    with pytest.raises(EditorError):
        s.save(tmp_path / "a.yaml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml"]


def test_the_session_needs_no_front_end() -> None:
    import subprocess
    import sys

    code = "import sys, battleline_lab.authoring.editor as e; e.EditorSession.new().report()\n"
    code += "print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_editor_reports_the_same_reachability_warning_as_check() -> None:
    """One check: the editor shows what ``battleline-lab check`` prints, warnings included."""
    from battleline_lab.quiz import library
    from battleline_lab.quiz.checks import CheckWarning, check_paths

    session = EditorSession.open("seed-blue-eight-blocked")
    report = session.report()
    shown = [d.message for d in report.answer_problems if isinstance(d, CheckWarning)]
    (file_report,) = check_paths([library.path("seed-blue-eight-blocked")])
    assert shown and shown == [d.message for d in file_report.warnings]
    assert report.ok  # a warning does not fail check
