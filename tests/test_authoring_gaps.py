"""What a teacher met while authoring: question kinds the editor could not make, full-width commas,
YAML errors after the first, a one-line outs explanation, 泥泞 for Mud, footers, Chinese --help, a
wheel size that rotted.  Each test here failed before its fix."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from battleline_lab.authoring.editor import EditorSession
from battleline_lab.cli import main
from battleline_lab.cli.console import display_width
from battleline_lab.course import course_files
from battleline_lab.quiz.loader import PuzzleFileError, load_puzzle, load_puzzle_text
from battleline_lab.text.messages import message
from battleline_lab.widgets.editor import PuzzleEditor

ROOT = Path(__file__).parent.parent
ODDS = ROOT / "puzzles" / "odds"


# -- the editor makes every question kind ------------------------------------------------------------

ODDS_FORMS = [
    pytest.param("outs-green-wedge.yaml", "outs", {"flag": 2, "formation": "wedge", "side": "you"}, id="outs-R13"),
    pytest.param("outs-their-nines.yaml", None, None, id="outs-opponent-R13"),
    pytest.param(
        "safest-flag-for-red-eight.yaml", "safest-flag", {"card": "r8", "flags": "3，7"}, id="safest-flag-R13"
    ),
]


@pytest.mark.parametrize(("name", "kind", "form"), ODDS_FORMS)
def test_the_editor_session_makes_odds_questions_R13(name: str, kind: str | None, form: dict | None) -> None:
    """A question typed into the form of an emptied copy of a library odds puzzle is the library's question."""
    puzzle = load_puzzle(ODDS / name)
    assert puzzle.question is not None
    session = EditorSession.open(ODDS / name)
    expected = session.data["question"]
    if kind is None:  # the same question as the file's, read back from the form of the file
        from battleline_lab.authoring.editor import question_form

        values = question_form(expected)
        kind, form = values.pop("kind"), values
    session.set_question(None)
    session.set_question_form(kind, form)
    assert session.data["question"] == expected
    report = session.report()
    assert report.problems == () and report.engine_answer == puzzle.answer


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_editor_widget_offers_outs_and_safest_flag_R13(lang: str) -> None:
    w = PuzzleEditor(ODDS / "outs-green-wedge.yaml", lang=lang)
    kinds = [value for _label, value in w.kind.options]
    assert "outs" in kinds and "safest-flag" in kinds
    assert (w.kind.value, w.question_flag.value, w.question_formation.value) == ("outs", 2, "wedge")
    assert w.question_formation.layout.display != "none" and w.question_a.layout.display == "none"
    w.kind.value = "safest-flag"
    w.question_card.value = "g7"
    w.question_flags.value = "2，8"
    assert w.session.data["question"] == {"kind": "safest-flag", "card": "g7", "flags": [2, 8]}
    assert w.question_card.layout.display != "none" and w.question_formation.layout.display == "none"
    assert w.session.report().problems == ()


# -- full-width commas in a question's cards ---------------------------------------------------------

FULL_WIDTH = [
    pytest.param("{kind: formation, cards: [r10，b10，g10]}", "，", id="formation-cards"),
    pytest.param("{kind: compare, a: [r1、r2、r3], b: [g1, g2, g3]}", "、", id="compare-a"),
    pytest.param("{kind: safest-flag, card: r8，}", "，", id="safest-flag-card"),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("question", "wide"), FULL_WIDTH)
def test_full_width_commas_in_question_cards_get_the_flags_hint(question: str, wide: str, lang: str) -> None:
    text = f"id: x\nflags:\n  5: {{you: [y1]}}\nquestion: {question}\n"
    with pytest.raises(PuzzleFileError) as caught:
        load_puzzle_text(text, "x.yaml", lang=lang)
    messages = [d.message for d in caught.value.diagnostics]
    hint = message("load.full_width", lang, token="T", char=wide, ascii=",").split("T", 1)[1]
    assert len(messages) == 1, messages  # no card count on top of the unreadable token
    assert messages[0].endswith(hint)
    assert "did you mean" not in messages[0] and "你是想写" not in messages[0]


# -- every YAML syntax error -------------------------------------------------------------------------


def test_every_yaml_syntax_error_of_a_file_is_reported() -> None:
    text = "id: a\ntitle: x: y\nlevel: 2\nflags:\n  5: {you: [r1, r2}\ntags: [a, b\nnote: ok\nanswer: 'open\n"
    with pytest.raises(PuzzleFileError) as caught:
        load_puzzle_text(text, "p.yaml")
    where = [(d.line, d.col) for d in caught.value.diagnostics]
    assert where[0] == (2, 9)  # the parser's own first error, as before
    assert [line for line, _ in where] == [2, 5, 7, 9]  # then one in each broken entry after it
    assert all("invalid YAML" in d.message for d in caught.value.diagnostics)


def test_a_clean_file_after_one_error_adds_nothing() -> None:
    text = "id: a\ntitle: x: y\nlevel: 2\nanswer: true\n"
    with pytest.raises(PuzzleFileError) as caught:
        load_puzzle_text(text, "p.yaml")
    assert [(d.line, d.col) for d in caught.value.diagnostics] == [(2, 9)]


# -- explain on an outs puzzle -----------------------------------------------------------------------

OUTS = sorted(ODDS.glob("outs-*.yaml"))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", OUTS, ids=[p.stem for p in OUTS])
def test_explain_on_an_outs_puzzle_counts_step_by_step_R13(
    path: Path, lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["--lang", lang, "explain", str(path.relative_to(ROOT))]) == 0
    out = capsys.readouterr().out
    steps = re.findall(r"^\d+\. .*\[(R\d+)\]$", out, re.MULTILINE)
    assert len(steps) >= 4 and "R12" in steps and "R13" in steps, out
    puzzle = load_puzzle(path)
    summary = puzzle.question.summary(puzzle.position, lang)  # type: ignore[union-attr]
    assert out.rstrip().endswith(summary)


def test_explain_outs_strikes_out_the_face_up_troop_and_counts_the_hand_R13(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    main(["explain", "puzzles/odds/outs-green-wedge.yaml"])
    out = capsys.readouterr().out
    assert "g4 is on flag 6 (the opponent's side)" in out  # would have made the Wedge, but face up
    assert re.search(r"^\d+\. g7 in a hand", out, re.MULTILINE)  # in your hand, so still unseen: an out


# -- Chinese words -----------------------------------------------------------------------------------


def test_chinese_calls_mud_沼泽_everywhere_R25() -> None:
    mud = message("tactic.mud", "zh")
    assert mud == "沼泽"
    zh = resources.files("battleline_lab").joinpath("locale/zh")
    texts = [f.read_text(encoding="utf-8") for f in zh.iterdir() if f.name.endswith(".json")]
    texts += [p.read_text(encoding="utf-8") for p in (ROOT / "notebooks").rglob("*.ipynb")]
    assert not [t for t in texts if "泥泞" in t]
    w = PuzzleEditor(lang="zh")
    assert w.mud.description == mud


# -- footers a pip-only teacher can follow -----------------------------------------------------------


@pytest.mark.parametrize("key", ["teachers.worksheet.footer", "authoring.preview.footer"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_footers_point_at_the_rules_page_the_wheel_ships(key: str, lang: str) -> None:
    text = message(key, lang)
    assert "repository" not in text and "仓库" not in text
    assert "rules.md" in text and "battleline-lab lessons" in text
    assert Path("rules.md") in course_files()  # what `battleline-lab lessons` copies


# -- Chinese --help ----------------------------------------------------------------------------------

COMMANDS = ["", "check", "explain", "worksheet", "show", "generate", "odds", "report"]


@pytest.mark.parametrize("command", COMMANDS, ids=[c or "top" for c in COMMANDS])
def test_chinese_help_columns_line_up_and_fit(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    try:
        status = main(["--lang", "zh", *([command] if command else []), "--help"])
    except SystemExit as done:  # argparse's own exit after printing the help
        status = done.code
    assert status in (0, None)
    out = capsys.readouterr().out
    # after the usage paragraph (test_chinese_usage_wraps_by_columns_and_keeps_every_part below)
    lines = out.split("\n\n", 1)[1].splitlines()
    assert not [line for line in lines if line.lstrip().startswith(("，", "。", "、"))]
    assert max(display_width(line) for line in lines) <= 80, [line for line in lines if display_width(line) > 80]
    columns = set()
    for line in lines:  # an option or argument line with its help beside it: "  --theme 主题    牌名..."
        match = re.match(r"^(  +\S.*?\S?)( {2,})(\S.*)$", line)
        if match and line.startswith("  ") and not line.startswith(" " * 10):
            columns.add(display_width(match.group(1) + match.group(2)))
    assert len(columns) == 1, (columns, out)


USAGE_COMMANDS = [*COMMANDS, "site", "progress", "lessons"]


def _help(argv: list[str], columns: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    try:
        status = main(argv)
    except SystemExit as done:  # argparse's own exit after printing the help
        status = done.code
    assert status in (0, None)
    return capsys.readouterr().out


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("command", USAGE_COMMANDS, ids=[c or "top" for c in USAGE_COMMANDS])
def test_chinese_usage_wraps_by_columns_and_keeps_every_part(
    command: str, columns: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``用法：`` and a Chinese metavar take two columns each: the usage fits argparse's width
    (COLUMNS - 2), its continuation lines start under the first argument (or under the command when
    a part has no room beside it), and it says what the
    unwrapped usage says, no part (``[--per-page {1,2,4,6}]``, ``--out 文件夹``) broken in two."""
    argv = ["--lang", "zh", *([command] if command else []), "--help"]
    whole = _help(argv, 10_000, capsys, monkeypatch).split("\n\n")[0]
    assert "\n" not in whole
    lines = _help(argv, columns, capsys, monkeypatch).split("\n\n")[0].splitlines()
    assert max(display_width(line) for line in lines) <= columns - 2, lines
    head = "用法：battleline-lab" + (f" {command}" if command else "")
    # beside the command and under its first argument, or (no room beside it) under the command
    indent = display_width(head) + 1 if lines[0] != head else display_width("用法：")
    assert lines[0] == head or lines[0].startswith(head + " ") and not lines[0].startswith(head + "  "), lines
    for line in lines[1:]:
        assert display_width(line) - display_width(line.lstrip(" ")) == indent, lines
    assert " ".join(line.strip() for line in lines) == whole
    for part in re.findall(r"\[[^][]*\]|--\w[\w-]* [^\s\[\]-][^\s\]]*", whole):
        assert any(part in line for line in lines), (part, lines)


# -- docs that do not rot ----------------------------------------------------------------------------


def test_packaging_doc_states_no_wheel_size_that_rots() -> None:
    text = (ROOT / "docs" / "packaging.md").read_text(encoding="utf-8")
    assert not re.search(r"\b\d+(\.\d+)?\s*(KB|MB|kB|KiB|MiB)\b", text)
    assert "test_wheel.py" in text  # where the size is measured instead


# -- saving an opened file: only the edited line of a block mapping changes ----------------------------

BLOCK_FILE = """\
# a teacher's file
id: blocky
title:
  en: Old title  # keep me
  zh: 旧标题
flags:
  5:
    you: [r3, r4, r5]   # my cards
    opponent: [b8]
  2: {you: [b7], opponent: [b10]}
question:
  kind: claim
  flag: 5
answer: true
"""

NESTED_EDITS = [
    pytest.param(
        lambda s: s.add_card(("flags", 5, "opponent"), "g9"), {9: "    opponent: [b8, g9]"}, id="block-flag-card"
    ),
    pytest.param(lambda s: s.set_text("title", "zh", "新标题"), {5: '  zh: "新标题"'}, id="title-zh"),
    pytest.param(lambda s: s.set_question({"kind": "claim", "flag": 2}), {13: "  flag: 2"}, id="block-question"),
    pytest.param(
        lambda s: s.set_first_complete(5, "you"),
        {9: "    opponent: [b8]\n    first_complete: you"},
        id="block-flag-first-complete-R11",
    ),
]


@pytest.mark.parametrize(("edit", "changed"), NESTED_EDITS)
def test_an_edit_inside_a_block_mapping_rewrites_only_its_line(edit: object, changed: dict[int, str]) -> None:
    session = EditorSession.from_text(BLOCK_FILE, "blocky.yaml")
    edit(session)  # type: ignore[operator]
    expected = BLOCK_FILE.split("\n")
    for line, text in changed.items():
        expected[line - 1] = text
    assert session.text() == "\n".join(expected)
