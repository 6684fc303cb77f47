"""The puzzle widgets, driven from Python as a learner would (set values, ``.click()``)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from battleline_lab import Position, Side, analyse_claim
from battleline_lab.core.cards import format_cards
from battleline_lab.quiz.loader import iter_puzzle_files, load_puzzle
from battleline_lab.quiz.puzzle import Puzzle
from battleline_lab.quiz.questions import ClaimableQuestion, ClaimQuestion, CompareQuestion, question_from_data
from battleline_lab.text.messages import catalogue
from battleline_lab.training.progress import DATABASE_FILE, PROGRESS_FILE, Progress, PuzzleRecord, data_dir
from battleline_lab.widgets import FormationExplorer, PuzzleSet, PuzzleWidget
from battleline_lab.widgets.intents import IntentWarning
from tests.solving import solve, tap_proof

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
ALL_PUZZLES = sorted(iter_puzzle_files([PUZZLES]))
XSS = "<img src=x onerror=alert(1)>"

BLUE_EIGHT = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8"}})  # R12: b9 b10 still unseen
BLOCKED = Position.build(
    {5: {"you": "r3 r4 r5", "opponent": "b8"}, 2: {"you": "b7", "opponent": "b10"}}, hand={"you": "b9"}
)  # RULES.md worked example 2, with b9 in your hand (R13)


def claim_puzzle(position: Position = BLUE_EIGHT, flag: int = 5, **extra: object) -> Puzzle:
    answer = analyse_claim(position, flag).claimable
    return Puzzle("p", {"en": "Flag 5"}, 1, ("claim",), position, ClaimQuestion(flag), answer, **extra)  # type: ignore[arg-type]


def ghosts(w: PuzzleWidget) -> list[str]:
    """The ghost cards the board draws (a counterexample's cards still to come, R12)."""
    return [g["id"] for f in w.board.view.get("flags", ()) for g in f["ghosts"]]


def highlighted(w: PuzzleWidget) -> set[str]:
    """The cards the board highlights, on the flags and in the hands."""
    view = w.board.view
    cards = [c for f in view.get("flags", ()) for c in (*f["you"], *f["opponent"], *f["env"])]
    cards += [c for held in view.get("held", ()) for c in held["cards"]]
    return {c["id"] for c in cards if c.get("highlight")}


def step_counter(w: PuzzleWidget) -> str:
    return str((w.board.view.get("proof") or {}).get("counter", ""))


def step_enabled(w: PuzzleWidget, delta: int) -> bool:
    """Whether step-next (+1) or step-back (-1) is on offer (the board draws it aria-disabled otherwise)."""
    proof = w.board.view.get("proof")
    if not proof:
        return False
    return proof["index"] + delta in range(len(proof["steps"]))


def answer_enabled(w: PuzzleWidget, value: str) -> bool:
    return any(a.get("value") == value and a.get("enabled", True) for a in w.board.view["answers"])


def test_R12_wrong_yes_is_refuted_by_the_counterexample_as_ghost_cards_once_the_solution_is_asked_for() -> None:
    w = PuzzleWidget(claim_puzzle())
    assert w.state == "waiting" and w.board.view["feedback"]["state"] == "waiting"
    # yes and no; "Show the solution" keeps its place out of sight until a wrong answer offers it
    assert [(a.get("value"), a.get("hidden", False)) for a in w.board.view["answers"]] == [
        ("yes", False),
        ("no", False),
        (None, True),
    ]
    w.taps.action("answer", "yes")
    assert w.state == "wrong" and w.board.view["feedback"]["tone"] == "wrong"
    assert ghosts(w) == [] and "b9" not in w.feedback_text()  # where to look, not what is there
    assert "flag 5" in w.feedback_text() and "R12" in w.feedback_text() and "Try again" in w.feedback_text()
    assert "proof" not in w.board.view and w.step_text() == ""  # the proof is not given away yet
    w.taps.action("solution")  # "Show the solution"
    assert ghosts(w) == ["b9", "b10"] and "b9 b10" in w.feedback_text() and w.step_text()
    w.taps.action("answer", "no")  # right, late: the solution showed the proof, so no card is asked (R12)
    assert w.state == "right" and w.attempts == 2
    assert w.board.view["feedback"]["tone"] == "right"
    assert w.board.view["proof"]["index"] == 0 and w.step_text()
    assert not answer_enabled(w, "yes") and not answer_enabled(w, "no")
    with pytest.raises(ValueError, match="aria-disabled"):
        w.taps.action("answer", "yes")  # answered: the buttons stay (focus stays) but are off


def test_R13_next_and_back_step_through_the_proof_highlighting_its_cards() -> None:
    w = PuzzleWidget(claim_puzzle(BLOCKED))
    w.taps.action("answer", "yes")
    tap_proof(w)
    analysis = analyse_claim(BLOCKED, 5)
    assert w.state == "right" and w.step_index == 0
    assert not step_enabled(w, -1)
    seen = []
    for i, step in enumerate(analysis.steps):
        assert w.step_index == i
        assert f"step {i + 1} of {len(analysis.steps)}" in step_counter(w)
        assert highlighted(w) == {c.notation for c in step.highlight}
        seen.append(frozenset(highlighted(w)))
        w.taps.step(1)
    assert not step_enabled(w, 1) and w.step_index == len(analysis.steps) - 1
    assert len(set(seen)) >= 4  # the highlighted cards change as the proof goes on
    w.taps.step(-1)
    assert w.step_index == len(analysis.steps) - 2


def test_R12_counterexample_step_draws_ghosts() -> None:
    w = PuzzleWidget(claim_puzzle())
    w.taps.action("answer", "no")
    tap_proof(w)
    reasons = [s.reason.value for s in analyse_claim(BLUE_EIGHT, 5).steps]
    for _ in range(reasons.index("counterexample")):
        w.taps.step(1)
    assert ghosts(w) == ["b9", "b10"] and "Counterexample" in w.step_text()


def test_wrong_no_gives_a_nudge_without_ghosts() -> None:
    w = PuzzleWidget(claim_puzzle(BLOCKED))
    w.taps.action("answer", "no")
    assert w.state == "wrong" and ghosts(w) == []
    assert "Look again" in w.feedback_text()


def test_hint_ladder_vague_then_key_cards_then_solution() -> None:
    w = PuzzleWidget(claim_puzzle(BLOCKED))
    w.taps.action("hint")
    assert "Wedge" in " ".join(w.hints_text()) and highlighted(w) == set()
    assert w.board.view["hint"]["label"] == "Another hint"
    w.taps.action("hint")
    assert highlighted(w) == {"b8", "b9", "b10", "b7"}  # their card, the hand card, the blockers (R13)
    assert "proof" not in w.board.view
    w.taps.action("hint")
    assert "The solution: Yes" in " ".join(w.hints_text())
    assert w.board.view["hint"]["enabled"] is False and "proof" in w.board.view and w.state == "waiting"
    with pytest.raises(ValueError, match="aria-disabled"):
        w.taps.action("hint")  # nothing more to give
    w.hint()
    assert w.hint_level == 3


def test_claimable_question_is_answered_by_clicking_flags() -> None:
    pos = Position.build({5: {"you": "r3 r4 r5", "opponent": "r6 g6"}, 7: {"you": "y1 y2 y3", "opponent": "b9"}})
    w = PuzzleWidget(Puzzle("c", {"en": "which"}, position=pos, question=ClaimableQuestion(), answer=[5]))
    w.taps.flag(7)  # data-action="answer" data-value="7": picked, not judged yet
    assert w.state == "waiting" and w.selected_flags() == [7]
    assert [f["answer"] for f in w.board.view["flags"] if f["n"] == 7] == [True]
    w.taps.action("check")
    assert w.state == "wrong" and not ghosts(w) and "Flags judged wrongly: 2" in w.feedback_text()  # 7 picked, 5 not
    w.taps.action("solution")
    assert ghosts(w)  # flag 7: the counterexample is drawn with the solution
    w.taps.flag(7)
    w.taps.flag(5)
    assert w.selected_flags() == [5]
    w.taps.action("check")
    assert w.state == "right" and "Flag 5:" in w.step_text()
    with pytest.raises(ValueError, match="not on offer"):
        w.taps.flag(7)  # solved: the flags are no longer answers to tap


@pytest.mark.parametrize(
    ("question", "right", "wrong", "words"),
    [
        ({"kind": "compare", "a": ["r4", "r6", "r3"], "b": ["b7", "b1", "b3"]}, "a", "b", "13 beats 11"),  # R10 sum
        ({"kind": "compare", "a": ["r1", "r2", "r3"], "b": ["b9", "g9", "y9"]}, "a", "b", "compared first"),  # R10
        ({"kind": "formation", "cards": ["alexander", "g5", "g6"]}, "wedge", "host", "Alexander as g7"),  # R20
    ],
)
def test_compare_and_formation_questions(question: dict[str, object], right: str, wrong: str, words: str) -> None:
    q = question_from_data(question)
    w = PuzzleWidget(Puzzle("q", {"en": "q"}, question=q, answer=right))
    assert "flags" not in w.board.view and w.board.view["rows"]  # no empty board for questions about loose cards
    w.taps.action("answer", wrong)
    assert w.state == "wrong" and "Try again" in w.feedback_text()
    w.taps.action("answer", right)
    assert w.state == "right"
    shown = w.step_text()
    while step_enabled(w, 1):
        w.taps.step(1)
        shown += w.step_text()
    assert words in shown + w.cards_text()


def test_author_text_is_escaped_in_the_widget() -> None:
    w = PuzzleWidget(claim_puzzle(note={"en": XSS}))
    w2 = PuzzleWidget(
        Puzzle("x", {"en": XSS}, headline={"en": XSS}, tags=(XSS,), position=BLUE_EIGHT, question=ClaimQuestion(5))
    )
    for widget in (w, w2):
        widget.taps.action("answer", "no")
        tap_proof(widget)
        assert "<img" not in widget.title.value
    assert "&lt;img src=x onerror=alert(1)&gt;" in w2.title.value
    # the board draws every text with textContent: the author's note and headline arrive as plain text
    assert w.board.view["proof"]["note"] == XSS and XSS in w2.feedback_text()
    # that board.js makes no element of such text: tests/js/board_dom.test.mjs (its DOM refuses innerHTML)


def test_widget_from_a_path_and_repr_without_addresses() -> None:
    path = ALL_PUZZLES[0]
    w = PuzzleWidget(path)
    assert w.puzzle == load_puzzle(path)
    assert repr(w) == f"<PuzzleWidget {w.puzzle.id}: waiting>"
    assert "0x" not in repr(FormationExplorer()) and "0x" not in repr(w)


@pytest.mark.parametrize("path", ALL_PUZZLES, ids=lambda p: p.stem)
def test_every_committed_puzzle_can_be_solved_and_explained(path: Path) -> None:
    puzzle = load_puzzle(path)
    w = PuzzleWidget(puzzle)
    for _ in range(2):
        w.taps.action("hint")
    assert solve(w) and w.state == "right"
    steps = 1
    while step_enabled(w, 1):
        w.taps.step(1)
        steps += 1
        assert "Error" not in w.step_text()
    assert steps == len(w.controller.proof()) >= 1


def test_spoiler_headline_waits_for_the_answer_and_no_tags_are_left_over() -> None:
    widget = PuzzleWidget(PUZZLES / "seed-examples" / "3-blue-seven-in-your-hand.yaml")
    before = widget.title.value
    assert "Can you claim flag 5?" in before and "own hand" not in before and "topics: claim" in before
    assert "do not count" not in widget.feedback_text() and "tags: " not in widget.feedback_text()
    widget.taps.action("answer", "no")
    tap_proof(widget)
    # with the answer, in the feedback's sentence (the title above the board keeps its place: nothing
    # moves); no bullet list of the title and the tags after it
    assert "The cards in your hand do not count" in widget.feedback_text() and "tags: " not in widget.feedback_text()
    assert "items" not in widget.board.view["feedback"]
    assert widget.title.value == before


def test_gym_filters_navigates_and_keeps_progress(tmp_path: Path) -> None:
    progress_file = tmp_path / "p.json"
    gym = PuzzleSet(PUZZLES, progress=Progress(progress_file))
    total = len(gym.selection)
    assert total == len(ALL_PUZZLES) and gym.prev_button.disabled
    # the filter offers topics only: a tag such as counterexample would give answers away
    assert "counterexample" not in [value for _label, value in gym.tag_filter.options]
    gym.tag_filter.value = "fog"
    assert 0 < len(gym.selection) < total and all("fog" in p.topics for p in gym.selection)
    gym.level_filter.value = 2
    assert all(p.level == 2 and "fog" in p.topics for p in gym.selection)
    gym.tag_filter.value = ""
    gym.level_filter.value = 0
    first = gym.current
    assert first is not None
    gym.next_button.click()
    assert gym.index == 1 and gym.current is not first
    gym.prev_button.click()
    assert gym.index == 0
    current = gym.current
    assert current is not None
    solution = current.puzzle.solve()
    current.hint()
    current.answer(solution)
    assert "solved 1 of" in gym.status.value
    # a restart: a new gym on the same file sees the record
    again = PuzzleSet(PUZZLES, progress=Progress(progress_file))
    assert again.progress.get(current.puzzle.id) == PuzzleRecord(solved=True, attempts=1, hints=1)
    assert "solved" in again.status.value
    assert again.select(current.puzzle.id).puzzle.id == current.puzzle.id


def test_gym_with_no_match_says_so(tmp_path: Path) -> None:
    gym = PuzzleSet([], progress=Progress(tmp_path / "p.json"))
    assert gym.current is None and "No puzzle" in gym.holder.children[0].value


def test_progress_lives_in_the_user_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BATTLELINE_LAB_DATA", str(tmp_path / "explicit"))
    assert data_dir() == tmp_path / "explicit"
    monkeypatch.delenv("BATTLELINE_LAB_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "battleline_lab"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_dir() == tmp_path / "home" / ".local" / "share" / "battleline_lab"
    Progress().record_attempt("a", correct=False)
    assert (data_dir() / DATABASE_FILE).is_file()
    assert Progress(data_dir()).get("a") == PuzzleRecord(solved=False, attempts=1, hints=0)


def test_unreadable_old_progress_file_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / PROGRESS_FILE
    path.write_text("{not json")
    p = Progress(path)
    assert p.get("a") == PuzzleRecord() and path.read_text() == "{not json"
    p.record_attempt("a", correct=True)
    assert Progress(path).get("a").solved


def test_explorer_kinds_sums_wildcards_and_the_tie_rule() -> None:
    e = FormationExplorer(you="r3 r4 r5", opponent="b8 b9 alexander")
    assert "Alexander as b10" in e.verdict.value and "The opponent wins" in e.verdict.value  # R20, R10
    e.set_cards("opponent", "g3 g4 g5")  # the same Wedge sum: R11 decides
    assert "You win" in e.verdict.value and "tie" in e.verdict.value
    e.first.value = Side.OPPONENT.value
    assert "The opponent wins" in e.verdict.value
    e.set_cards("opponent", "b10 g10 y2")
    e.fog.value = True  # R24: sums only
    assert "Fog" in e.verdict.value and "22 beats 12" in e.verdict.value
    e.fog.value = False
    assert e.board.view["flags"][0]["slots"] == 3
    e.mud.value = True  # R25: four cards a side, the fourth slot drawn
    assert e.board.view["flags"][0]["slots"] == 4 and "Pick 4 cards" in e.verdict.value
    e.set_cards("you", "r3 r4 r5 r6")
    e.set_cards("opponent", "b10 g10 y10 p10")
    assert "Phalanx, sum 40" in e.verdict.value and "You win" in e.verdict.value  # a 4-card Wedge beats it
    e.mud.value = False
    e.set_cards("opponent", "r3 b4 b5")  # the same card twice
    assert "r3" in e.verdict.value and "wins" not in e.verdict.value


def test_R9_R25_the_explorer_places_cards_by_taps_on_the_board() -> None:
    """Tap a palette card, then an empty slot (``data-action="place"``); tap a placed card to take it off."""
    e = FormationExplorer()
    view = e.board.view
    assert view["place_mode"] and len(view["palette"]["cards"]) == 64  # 60 troops and the four morale cards
    assert e.taps.places() == ["1:opponent", "1:you"]
    e.taps.place("1:you")  # nothing picked: the slot does nothing
    assert e.cards("you") == ()
    for card in ("r3", "r4", "r5"):
        e.taps.pick(card)
        e.taps.place("1:you")
    for card in ("b8", "b9", "alexander"):
        e.taps.pick(card)
        e.taps.place("1:opponent")
    assert format_cards(e.cards("you")) == "r3 r4 r5" and "The opponent wins" in e.verdict.value  # R10, R20
    assert e.taps.places() == []  # both sides full: no empty slot
    flag = e.board.view["flags"][0]
    assert [c["id"] for c in flag["you"]] == ["r3", "r4", "r5"] and "your side" in flag["you"][0]["label"].lower()
    assert {c["id"] for c in e.board.view["palette"]["cards"] if c.get("placed")} == {
        "r3",
        "r4",
        "r5",
        "b8",
        "b9",
        "alexander",
    }
    e.taps.take("alexander")
    assert format_cards(e.cards("opponent")) == "b8 b9" and "Pick 3 cards" in e.verdict.value
    e.taps.pick("r5")  # a card lies in one place: placing it moves it
    e.taps.place("1:opponent")
    assert format_cards(e.cards("you")) == "r3 r4" and format_cards(e.cards("opponent")) == "b8 b9 r5"
    e.taps.pick("g7")
    e.taps.escape()  # Escape (or a second tap) cancels the pick
    assert e.taps.picked is None
    e.mud.value = True  # R25: a fourth slot a side
    assert e.taps.places() == ["1:opponent", "1:you"] and [c["id"] for c in e.board.view["flags"][0]["env"]] == ["mud"]
    with pytest.raises(ValueError):
        e.taps.pick("fog")  # not a formation card: not in the palette
    before = (list(e.picked[Side.YOU]), list(e.picked[Side.OPPONENT]))
    for intent in (
        {"place": ["zz9", "1:you"]},
        {"place": ["fog", "1:you"]},
        {"place": ["g7", "1:nobody"]},
        {"take": "zz"},
    ):
        with pytest.warns(IntentWarning):  # a stale or forged message is refused: nothing changes, no traceback
            assert not e.board.intent(intent)
    assert (e.picked[Side.YOU], e.picked[Side.OPPONENT]) == before


#: The modules of the puzzle, the gym and the formation explorer, and what they share.
WIDGET_MODULES = (
    "widgets/_common.py",
    "widgets/puzzle.py",
    "widgets/gym.py",
    "widgets/explorer.py",
    "controllers/view.py",
    "controllers/puzzle.py",
    "controllers/gym.py",
    "controllers/explorer.py",
)


def test_widget_strings_come_from_the_catalogue() -> None:
    package = ROOT / "battleline_lab"
    source = "".join((package / module).read_text() for module in (*WIDGET_MODULES, "render/svg.py"))
    keys = set(re.findall(r'"((?:widget|board)\.[a-z_.]+[a-z_])"', source))
    assert keys and keys <= set(catalogue("en"))


VIEW_MODULES = (
    *WIDGET_MODULES,
    "widgets/editor.py",
    "widgets/game.py",
    "controllers/game.py",
    "controllers/editor.py",
    "render/svg.py",
)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_key_a_view_looks_up_is_in_the_catalogue(lang: str) -> None:
    """Views look texts up by their whole key (``message("widget.check", lang)``, the game widget's
    ``self._t(...)`` (:func:`messages.bound`), a label table's ``(self.button, "editor.save")``): each one
    written out exists in both languages."""
    lookup = re.compile(r'(?:\bmessage\(|\._t\(|\bself\.t\(|\blabel\(|\(self\.\w+, )\s*"([a-z_]+(?:\.[a-z0-9_]+)+)"')
    texts = catalogue(lang)
    for module in VIEW_MODULES:
        keys = set(lookup.findall((ROOT / "battleline_lab" / module).read_text()))
        assert keys, module
        missing = {k for k in keys if k not in texts and f"{k}.other" not in texts}
        assert not missing, (module, sorted(missing))


def test_gym_skips_a_broken_file_and_says_where(tmp_path: Path) -> None:
    folder = tmp_path / "puzzles"
    folder.mkdir()
    (folder / "good.yaml").write_text(ALL_PUZZLES[0].read_text())
    (folder / "bad.yaml").write_text(f"id: bad\ntitle: '{XSS}'\nflags: {{5: {{you: [r3, r4, r77]}}}}\n")
    gym = PuzzleSet(folder, progress=Progress(tmp_path / "p.json"))
    assert len(gym.puzzles) == 1 and len(gym.errors) == 1
    assert re.match(r".*bad\.yaml:3:\d+: error: ", gym.errors[0])
    shown = gym.children[2].value
    assert "bl-gym-error" in shown and "bad.yaml:3:" in shown and "<img" not in shown
    assert repr(gym) == f"<PuzzleSet {folder.as_posix()}>"


def test_click_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/bench_widgets.py works (its figures go in docs/widgets.md; times are not asserted here)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_widgets", ROOT / "benchmarks" / "bench_widgets.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    for kind in ("open", "hint", "answer", "next", "back"):
        assert re.search(rf"^{kind}\s+\d+\s+[\d.]+", out, re.M), kind
    assert "slowest click" in out


def test_R25_claimable_proof_skips_flags_where_your_side_is_incomplete() -> None:
    """A Mud flag with three of your cards is incomplete (R25): the proof does not walk through it."""
    pos = Position.build({2: {"you": "p7 p8 p9 mud", "opponent": "o2"}, 5: {"you": "r3 r4 r5", "opponent": "r6 g6"}})
    w = PuzzleWidget(Puzzle("m", {"en": "which"}, position=pos, question=ClaimableQuestion(), answer=[5]))
    w.taps.flag(5)
    w.taps.action("check")
    assert w.state == "right"
    assert w.controller.proof() and all(v.text.startswith("Flag 5: ") for v in w.controller.proof())


def _sentences(text: str) -> set[str]:
    return {s.strip() for s in re.split(r"(?<=[.?!。？！])\s*", html.unescape(text)) if len(s.strip()) > 12}


def _wrong_answer(puzzle: Puzzle) -> object:
    question, solution = puzzle.question, puzzle.solve()
    if isinstance(question, ClaimQuestion):
        return not solution
    if isinstance(question, ClaimableQuestion):
        return (
            [] if solution else [n for n in range(1, 10) if puzzle.position.flag(n).is_complete(puzzle.position.turn)]
        )
    if isinstance(question, CompareQuestion):
        return "b" if solution == "a" else "a"
    return "host" if solution != "host" else "wedge"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_first_hint_adds_something_the_wrong_answer_feedback_did_not_say(lang: str) -> None:
    """Over the whole library: no sentence of the first hint repeats the feedback to a wrong answer."""
    for path in ALL_PUZZLES:
        widget = PuzzleWidget(path, lang=lang)
        widget.answer(_wrong_answer(widget.puzzle))
        assert widget.state == "wrong", path
        feedback = widget.feedback_text()
        widget.hint()
        first = widget.controller.hints()[0]
        assert _sentences(first) and not (_sentences(first) & _sentences(feedback)), (path, first, feedback)
