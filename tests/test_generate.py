"""``battleline-lab generate`` and the puzzle writer: themed puzzles, engine answers, stable YAML that round-trips.

Each theme is checked against the rule it teaches (rule ids in the test ids):
the generated proof really contains a blocked Wedge (R13), a counted Phalanx
(R1, R13), an at-best tie (R11), a hand card the opponent needs (R13), Fog
(R24), Mud (R25), a wildcard (R20-R22), a counterexample (R12).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline_lab.authoring.generate import DISTRACTORS, THEMES, GeneratedPuzzle, _without, generate
from battleline_lab.authoring.writer import WIDTH, dump_puzzle, position_key, puzzle_data, yaml_string
from battleline_lab.cli import main as cli_main
from battleline_lab.core.cards import Tactic
from battleline_lab.core.claims import Reason, analyse_claim
from battleline_lab.core.formations import FormationKind
from battleline_lab.core.position import Side
from battleline_lab.core.reachability import unreachable
from battleline_lab.quiz.difficulty import estimate
from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle, load_puzzle_text
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions import ClaimQuestion
from battleline_lab.text.messages import LANGUAGES
from tests.every import check_every

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
COUNT = 4


@pytest.fixture(scope="module")
def generated() -> dict[str, list[GeneratedPuzzle]]:
    return {theme: generate(theme, COUNT, seed=11) for theme in THEMES}


def _load(g: GeneratedPuzzle) -> Puzzle:
    return load_puzzle_text(g.text, g.filename)


def _shape_kinds(puzzle: Puzzle, reason: Reason) -> set[FormationKind | None]:
    analysis = analyse_claim(puzzle.position, _flag(puzzle))
    return {s.shape.kind for s in analysis.steps if s.reason is reason and s.shape is not None}


def _blocked_wedge(p: Puzzle) -> bool:
    if p.answer is True:
        return FormationKind.WEDGE in _shape_kinds(p, Reason.SHAPE_BLOCKED)
    # the other answer: a Wedge shape left open is the opponent's completion (R12, R13)
    analysis = analyse_claim(p.position, _flag(p))
    return analysis.opponent_formation is not None and analysis.opponent_formation.kind is FormationKind.WEDGE


def _counting_values(p: Puzzle) -> bool:
    analysis = analyse_claim(p.position, _flag(p))
    if analysis.claimable:
        kinds = _shape_kinds(p, Reason.SHAPE_BLOCKED) | _shape_kinds(p, Reason.SHAPE_SHORT)
        return FormationKind.PHALANX in kinds
    return analysis.opponent_formation is not None and analysis.opponent_formation.kind is FormationKind.PHALANX


def _at_best_tie(p: Puzzle) -> bool:
    analysis = analyse_claim(p.position, _flag(p))
    if p.answer is True:
        return Reason.AT_BEST_TIE in analysis.reasons
    # the other answer: the same kind as yours with a higher sum is more than a tie (R10, R11)
    theirs, yours = analysis.opponent_formation, analysis.formation
    return theirs is not None and yours is not None and theirs.kind is yours.kind


def _hand_trap(p: Puzzle) -> bool:
    analysis = analyse_claim(p.position, _flag(p))
    hand = set(p.position.hand_you)
    needed = {c for s in analysis.steps for c in s.needed} | set(analysis.counterexample)
    return bool(hand & needed)


def _fog(p: Puzzle) -> bool:
    return p.position.flag(_flag(p)).fog


def _mud(p: Puzzle) -> bool:
    state = p.position.flag(_flag(p))
    return state.mud and state.size == 4


def _wildcard(p: Puzzle) -> bool:
    state = p.position.flag(_flag(p))
    return any(isinstance(c, Tactic) and c.is_wild for c in state.you + state.opponent)


def _counterexample(p: Puzzle) -> bool:
    analysis = analyse_claim(p.position, _flag(p))
    if p.answer is True:
        return not analysis.counterexample  # the search for a completion that beats you finds none
    return bool(analysis.counterexample) and Reason.COUNTEREXAMPLE in analysis.reasons


def _bot_game(p: Puzzle) -> bool:
    note = p.note_text() or ""
    return "bot game with seed" in note and "turn" in note


def _flag(p: Puzzle) -> int:
    assert isinstance(p.question, ClaimQuestion)
    return p.question.flag


TEACHES = {
    "blocked-wedge": ("R13", _blocked_wedge),
    "counting-values": ("R1-R13", _counting_values),
    "at-best-a-tie": ("R11", _at_best_tie),
    "own-hand-trap": ("R13", _hand_trap),
    "fog": ("R24", _fog),
    "mud": ("R25", _mud),
    "wildcard": ("R20-R22", _wildcard),
    "counterexample": ("R12", _counterexample),
    "bot-game": ("R12", _bot_game),
}


def test_every_theme_has_a_rule_check() -> None:
    assert set(TEACHES) == set(THEMES)


@pytest.mark.parametrize("theme", list(TEACHES), ids=[f"{TEACHES[t][0]}-{t}" for t in TEACHES])
def test_theme_puzzles_teach_the_theme(theme: str, generated: dict[str, list[GeneratedPuzzle]]) -> None:
    rule, teaches = TEACHES[theme]
    puzzles = generated[theme]
    assert len(puzzles) == COUNT
    for g in puzzles:
        puzzle = _load(g)
        assert puzzle.position.problems() == []
        assert puzzle.position.winner() is None
        assert isinstance(puzzle.question, ClaimQuestion)
        state = puzzle.position.flag(puzzle.question.flag)
        assert state.is_complete(puzzle.position.turn), "a claim puzzle asks about a complete side (R12)"
        assert teaches(puzzle), f"{g.id} does not teach {theme} ({rule}):\n{g.text}"


@pytest.mark.parametrize("theme", list(THEMES))
def test_answers_levels_and_metadata(theme: str, generated: dict[str, list[GeneratedPuzzle]]) -> None:
    for n, g in enumerate(generated[theme], 1):
        puzzle = _load(g)
        assert puzzle.id == g.id == f"{theme}-s11-{n}"
        assert puzzle.answer == puzzle.solve() == g.answer  # the engine's answer, written as the author's
        assert puzzle.question is not None
        assert puzzle.level == g.level == estimate(puzzle.position, puzzle.question).level
        assert puzzle.topics[0] == "claim" and puzzle.tags[0] == theme and "generated" in puzzle.tags
        assert not {"counterexample", "tie", "hand-trap"} & set(puzzle.topics)  # after-answer words are tags
        note = puzzle.note_text() or ""
        assert f"--theme {theme} --seed 11" in note and "review" in note
        assert puzzle.title_text() != puzzle.id


@pytest.mark.parametrize("theme", list(THEMES))
def test_themes_with_both_answers_alternate(theme: str, generated: dict[str, list[GeneratedPuzzle]]) -> None:
    assert [g.answer for g in generated[theme]] == [True, False] * (COUNT // 2)


def test_no_two_generated_puzzles_share_a_position() -> None:
    puzzles = [g for theme in ("counterexample", "bot-game") for g in generate(theme, 10, seed=3)]
    keys = [position_key(_load(g).position) for g in puzzles]
    assert len(keys) == 20 and len(set(keys)) == 20


def test_same_seed_same_puzzles_other_seed_others() -> None:
    a = generate("blocked-wedge", 3, seed=5)
    assert [g.text for g in a] == [g.text for g in generate("blocked-wedge", 3, seed=5)]
    assert {g.text for g in a}.isdisjoint(g.text for g in generate("blocked-wedge", 3, seed=6))


def test_avoid_skips_positions_already_in_a_set() -> None:
    first = generate("counterexample", 3, seed=2)
    again = generate("counterexample", 3, seed=2, avoid={position_key(_load(g).position) for g in first})
    assert len(again) == 3
    assert {position_key(_load(g).position) for g in first}.isdisjoint(position_key(_load(g).position) for g in again)


def test_any_theme_can_be_searched_in_bot_games() -> None:
    puzzles = generate("at-best-a-tie", 1, seed=1, source="games")
    assert len(puzzles) == 1 and "bot game with seed" in (_load(puzzles[0]).note_text() or "")
    assert _at_best_tie(_load(puzzles[0]))


# -- the command ----------------------------------------------------------------------------------


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli_main(args)
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_writes_files_that_pass_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "new"
    status, out, err = _run(
        ["generate", "--theme", "fog", "--count", "3", "--seed", "4", "--out", str(out_dir)], capsys
    )
    assert (status, err) == (0, "")
    files = sorted(out_dir.iterdir())
    assert [f.name for f in files] == ["fog-s4-1.yaml", "fog-s4-2.yaml", "fog-s4-3.yaml"]
    assert out.count("wrote ") == 3
    assert _run(["check", str(out_dir)], capsys)[0] == 0
    for f in files:
        assert load_puzzle(f).id == f.stem


CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("theme", list(THEMES))
def test_titles_and_notes_in_every_language(theme: str, generated: dict[str, list[GeneratedPuzzle]]) -> None:
    """Generated puzzles can join the library as they are: it asks for ``title`` and ``note`` in Chinese too."""
    for g in generated[theme]:
        puzzle = _load(g)
        assert isinstance(puzzle.title, dict) and set(puzzle.title) == set(LANGUAGES)
        assert isinstance(puzzle.note, dict) and set(puzzle.note) == set(LANGUAGES)
        flag = _flag(puzzle)
        assert puzzle.title_text("en").startswith(f"Flag {flag}: ") and puzzle.title_text("en").endswith(
            "claim it now?"
        )
        assert f"{flag}号旗" in puzzle.title_text("zh")
        # the cards in words a learner reads, never notation ("r6"); the teaching point waits in the headline
        assert not re.search(r"\b[roygbp]\d+\b", puzzle.title_text("en")), puzzle.title_text("en")
        assert puzzle.headline and set(puzzle.headline) == set(LANGUAGES)
        zh_note = puzzle.note_text("zh") or ""
        assert CJK.search(zh_note) and f"--theme {theme} --seed 11" in zh_note
        if theme == "bot-game":  # who played, in the note's own language
            assert re.search("(北方|南方)出牌之后", zh_note) and not re.search(r"\b(north|south)'s", zh_note)


def test_cli_generate_in_chinese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--lang zh``: the report lines and the refusals in Chinese; diagnostics keep ``FILE:LINE:COL: error:``."""
    args = ["generate", "--theme", "fog", "--count", "2", "--seed", "3", "--out", str(tmp_path), "--lang", "zh"]
    status, out, err = _run(args, capsys)
    assert (status, err) == (0, "")
    assert out.count("已写入 ") == 2 and "wrote" not in out
    assert _run(["check", "--lang", "zh", str(tmp_path)], capsys)[:2] == (0, "检查了2道谜题：2道通过\n")
    status, out, err = _run(args, capsys)
    assert status == 2 and out == ""
    assert err.splitlines() == [
        f"{tmp_path / f'fog-s3-{n}.yaml'}:1:1: error: 文件已存在，没有覆盖（用 --force 来替换它）" for n in (1, 2)
    ]


def test_cli_never_overwrites_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["generate", "--theme", "mud", "--count", "2", "--seed", "1", "--out", str(tmp_path)]
    assert _run(args, capsys)[0] == 0
    target = tmp_path / "mud-s1-1.yaml"
    target.write_text("my edits\n", encoding="utf-8")
    status, out, err = _run(args, capsys)
    assert status == 2 and out == ""
    assert f"{target}:1:1: error: file exists; not overwritten (use --force" in err
    assert target.read_text(encoding="utf-8") == "my edits\n"
    assert _run([*args, "--force"], capsys)[0] == 0
    assert target.read_text(encoding="utf-8").startswith("id: mud-s1-1\n")


def test_cli_avoid_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["generate", "--theme", "wildcard", "--count", "3", "--seed", "8"]
    assert _run([*base, "--out", str(tmp_path / "a")], capsys)[0] == 0
    (tmp_path / "a" / "broken.yaml").write_text("flags: [\n", encoding="utf-8")  # ignored by --avoid
    assert _run([*base, "--out", str(tmp_path / "b"), "--avoid", str(tmp_path / "a")], capsys)[0] == 0
    keys_a = {position_key(load_puzzle(f).position) for f in (tmp_path / "a").glob("wildcard-*.yaml")}
    keys_b = {position_key(load_puzzle(f).position) for f in (tmp_path / "b").iterdir()}
    assert len(keys_a) == len(keys_b) == 3 and keys_a.isdisjoint(keys_b)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--theme", "wedges"], "unknown theme 'wedges'; themes: blocked-wedge, counting-values, at-best-a-tie"),
        (["--theme", "fog", "--count", "0"], "the count must be a whole number from 1 to 200, not '0'"),
        (["--theme", "fog", "--seed", "-1"], "the seed must be a whole number >= 0, not '-1'"),
    ],
)
def test_cli_bad_usage_exit_2(
    args: list[str], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(["generate", *args, "--out", str(tmp_path)], capsys)
    assert status == 2 and expected in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_cli_out_is_a_file_or_avoid_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "f.yaml"
    file.write_text("x: 1\n", encoding="utf-8")
    status, _, err = _run(["generate", "--theme", "fog", "--out", str(file)], capsys)
    assert status == 2 and err.startswith(f"{file}:1:1: error: --out must be a folder")
    status, _, err = _run(
        ["generate", "--theme", "fog", "--out", str(tmp_path), "--avoid", str(tmp_path / "no")], capsys
    )
    assert status == 2 and "--avoid must be an existing folder" in err


def test_cli_is_deterministic_across_processes(tmp_path: Path) -> None:
    """Same seed, same files, whatever Python's hash seed (sets of cards are never iterated unsorted)."""
    outputs = []
    for hash_seed, name in (("1", "a"), ("2", "b")):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        for theme in ("own-hand-trap", "bot-game"):
            subprocess.run(
                [sys.executable, "-m", "battleline_lab.cli", "generate", "--theme", theme, "--count", "2",
                 "--seed", "9", "--out", str(tmp_path / name)],
                check=True, env=env, capture_output=True,
            )  # fmt: skip
        outputs.append({f.name: f.read_text(encoding="utf-8") for f in sorted((tmp_path / name).iterdir())})
    assert len(outputs[0]) == 4 and outputs[0] == outputs[1]


# -- the writer -----------------------------------------------------------------------------------

LIBRARY = sorted(iter_puzzle_files([PUZZLES]))


def _same(a: Puzzle, b: Puzzle) -> None:
    assert (a.id, dict(a.title), a.headline, a.level, a.topics, a.tags, a.position, a.question, a.answer) == (
        b.id,
        dict(b.title),
        b.headline,
        b.level,
        b.topics,
        b.tags,
        b.position,
        b.question,
        b.answer,
    )
    assert (dict(a.note) if a.note else None) == (dict(b.note) if b.note else None)


def test_every_library_puzzle_round_trips_through_the_writer() -> None:
    check_every(((p.relative_to(PUZZLES).as_posix(), p) for p in LIBRARY), _round_trips_through_the_writer)


def _round_trips_through_the_writer(path: Path) -> None:
    puzzle = load_puzzle(path)
    text = dump_puzzle(puzzle_data(puzzle))
    _same(load_puzzle_text(text, str(path)), puzzle)
    assert dump_puzzle(puzzle_data(load_puzzle_text(text))) == text  # a fixed point: stable output


@pytest.mark.parametrize(
    "text",
    ["yes", "No", "on", "OFF", "null", "~", "10", "1.5", "0x1f", "1e3", ".inf", "2026-11-30", "a: b", "a #b", "#x",
     "- x", "[x]", "{x}", "*a", "&a", "!tag", "%x", "@x", "`x", "'x'", '"x"', " lead", "trail ", "a\nb", "tab\there",
     "back\\slash", "紅色的楔形", "é", "x,y", "?", ":", "-", "<img src=x onerror=alert(1)>", "</script>"],
)  # fmt: skip
def test_yaml_string_reads_back_as_the_same_text(text: str) -> None:
    data = {"id": "p", "title": text, "tags": [text], "note": text}
    puzzle = load_puzzle_text(dump_puzzle(data))
    assert puzzle.title_text() == text and puzzle.tags == (text,) and puzzle.note_text() == text


def test_yaml_string_plain_only_when_safe() -> None:
    assert [yaml_string(t) for t in ("r3", "blocked-wedge", "alexander")] == ["r3", "blocked-wedge", "alexander"]
    assert yaml_string("Can you claim flag 5?", flow=False) == "Can you claim flag 5?"
    assert yaml_string("Can you claim flag 5?") == '"Can you claim flag 5?"'  # no spaces in flow context
    assert yaml_string("\x85") == '"\\x85"' and yaml_string("\u2028") == '"\\u2028"'


_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="\u2028\u2029")
    | st.sampled_from(" \n\t"),
    min_size=1,
    max_size=300,
).filter(lambda t: t.strip() != "")


@given(title=_TEXT, note=_TEXT, tag=_TEXT)
def test_any_text_round_trips(title: str, note: str, tag: str) -> None:
    data = {"id": "p", "title": {"en": title, "zh": note}, "tags": [tag], "note": note}
    puzzle = load_puzzle_text(dump_puzzle(data))
    assert dict(puzzle.title) == {"en": title, "zh": note}
    assert puzzle.tags == (tag,) and puzzle.note_text() == note


def test_long_notes_are_folded_within_the_width() -> None:
    note = " ".join(f"word{i}" for i in range(60)) + " (R13)."
    text = dump_puzzle({"id": "p", "note": note})
    assert "note: >-\n" in text
    assert all(len(line) <= WIDTH for line in text.splitlines())
    assert load_puzzle_text(text).note_text() == note


def test_dump_puzzle_refuses_unknown_keys() -> None:
    with pytest.raises(ValueError, match="unknown puzzle keys"):
        dump_puzzle({"id": "p", "flgas": {}})


def test_writer_key_order_and_flow_lists() -> None:
    text = dump_puzzle(
        {
            "note": "n",
            "answer": True,
            "question": {"kind": "claim", "flag": 5},
            "flags": {5: {"opponent": ["b8"], "you": ["r3", "r4", "r5"]}},
            "id": "p",
        }
    )
    assert text == (
        "id: p\nflags:\n  5: {you: [r3, r4, r5], opponent: [b8]}\n"
        "question: {kind: claim, flag: 5}\nanswer: true\nnote: n\n"
    )


@pytest.mark.parametrize("theme", ["blocked-wedge", "at-best-a-tie", "counting-values"])
def test_R13_constructed_claims_keep_few_cards_the_proof_never_names(
    theme: str, generated: dict[str, list[GeneratedPuzzle]]
) -> None:
    for g in generated[theme]:
        puzzle = _load(g)
        if puzzle.answer is not True:
            continue
        flag = _flag(puzzle)
        analysis = analyse_claim(puzzle.position, flag)
        named = {c for s in analysis.steps for c in (*s.highlight, *s.needed)}
        others = [
            c
            for n in range(1, 10)
            if n != flag
            for c in puzzle.position.flag(n).you + puzzle.position.flag(n).opponent
            if c not in named
        ]
        # more than the distractors only where the turn count needs them (R5: the position can arise in a game)
        assert len(others) <= DISTRACTORS or unreachable(_without(puzzle.position, set(others))), (g.id, others)


def test_level_range_keeps_only_those_levels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = generate("wildcard", 3, seed=0, levels=(4, 5))
    assert len(puzzles) == 3 and all(g.level in (4, 5) for g in puzzles)
    args = ["generate", "--theme", "mud", "--count", "2", "--level", "3", "--out", str(tmp_path)]
    assert _run(args, capsys)[0] == 0
    assert {load_puzzle(f).level for f in tmp_path.iterdir()} == {3}
    status, _, err = _run(["generate", "--theme", "mud", "--level", "0-9", "--out", str(tmp_path)], capsys)
    assert status == 2 and "a level is 1 to 5, or a range such as 3-5, not '0-9'" in err


def test_cli_exit_1_when_the_search_gives_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import battleline_lab.authoring.generate as generate_module

    monkeypatch.setattr(generate_module, "MAX_CANDIDATES", 1)
    status, out, err = _run(["generate", "--theme", "own-hand-trap", "--count", "3", "--out", str(tmp_path)], capsys)
    assert status == 1
    assert "found only 0 of 3 puzzles for theme own-hand-trap; try another seed" in err


def test_every_theme_through_the_cli_passes_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for theme in THEMES:
        args = ["generate", "--theme", theme, "--count", "2", "--seed", "21", "--out", str(tmp_path)]
        assert _run(args, capsys)[0] == 0, theme
    status, out, err = _run(["check", str(tmp_path)], capsys)
    assert (status, err) == (0, "")
    assert out.strip().endswith(f"{2 * len(THEMES)} ok")


# -- worth a lesson: reachable, the environment card needed, titles that differ ---------------------------------

BATCH = 100  # per theme; about 20 s of CPU for all nine themes on the project's 2-core machine


@pytest.mark.parametrize("theme", list(THEMES))
def test_R5_R24_R25_a_batch_of_100_is_reachable_needs_its_environment_and_has_unique_titles(theme: str) -> None:
    from battleline_lab.authoring.generate import environment_matters

    batch = generate(theme, BATCH, seed=2)
    assert len(batch) == BATCH
    for lang in LANGUAGES:
        titles = [g.data["title"][lang] for g in batch]
        assert len(set(titles)) == BATCH, theme
    flags = [g.data["question"]["flag"] for g in batch]
    assert len(set(flags)) >= 5  # varied flags
    if THEMES[theme].source == "construct":
        assert all(a != b for a, b in zip(flags, flags[1:]))
    owners = set()
    for g in batch:
        puzzle = load_puzzle_text(g.text, g.filename)
        assert unreachable(puzzle.position) == [], g.id  # it can arise in a game (R5, R29, R31, R8)
        if theme in ("fog", "mud"):
            env = Tactic.FOG if theme == "fog" else Tactic.MUD
            flag = _flag(puzzle)
            analysis = analyse_claim(puzzle.position, flag)
            assert environment_matters(puzzle.position, analysis, env), g.id  # the answer turns on it
            owner = next(s for s in Side if env in puzzle.position.flag(flag).cards(s))
            owners.add(owner)
            assert (owner is Side.YOU) is g.answer  # a player plays Fog or Mud where it helps them
    if theme in ("fog", "mud"):
        assert owners == set(Side)  # on either side


def test_cli_reports_games_scanned_per_second_for_the_games_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stats: dict[str, float] = {}
    assert len(generate("bot-game", 1, seed=1, stats=stats)) == 1
    assert stats["games"] >= 1 and stats["seconds"] > 0
    args = ["generate", "--theme", "bot-game", "--count", "1", "--seed", "1"]
    status, out, err = _run([*args, "--out", str(tmp_path / "en")], capsys)
    assert (status, err) == (0, "")
    assert re.search(r"^scanned \d+ bot games in [\d.]+ s of CPU time \(\d+ games/s\)$", out, re.M)
    status, out, _ = _run([*args, "--out", str(tmp_path / "zh"), "--lang", "zh"], capsys)
    assert status == 0 and re.search(r"^扫描了\d+局机器人对局，用时[\d.]+秒CPU时间（每秒\d+局）$", out, re.M)
    status, out, _ = _run(["generate", "--theme", "fog", "--count", "1", "--out", str(tmp_path / "c")], capsys)
    assert status == 0 and "bot games" not in out  # the construct source plays no games
