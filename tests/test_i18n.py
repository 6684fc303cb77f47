"""Chinese alongside English: complete catalogues, no English grammar leaking, the ``lang`` option everywhere.

* Every ``locale/en/<layer>.json`` has a ``locale/zh/<layer>.json`` with the same keys, and each
  template uses the same ``{placeholders}`` (a test fails for any missing, extra or untranslated key).
* Explanations rendered in Chinese contain no English words (the grammar helpers ``word.*`` /
  ``article.*`` are catalogue entries, empty or different in Chinese).
* Golden files ``tests/golden/zh/<name>.txt`` hold the Chinese proofs of the five worked examples of
  RULES.md; regenerate after an intended wording change with ``./dev regen`` and review the diff.
* ``lang`` reaches the SVG labels, the widgets (a live ``bl-lang`` toggle), the CLI (``--lang zh``,
  diagnostics keep their ``FILE:LINE:COL: error:`` prefix) and puzzle titles and notes.
"""

from __future__ import annotations

import ast
import json
import re
import string
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline_lab.cli import main
from battleline_lab.core.cards import ALL_TACTICS, ALL_TROOPS, parse_card
from battleline_lab.core.claims import analyse_claim
from battleline_lab.core.position import Position, PositionError, Side
from battleline_lab.quiz.loader import load_puzzle, load_puzzle_text
from battleline_lab.render.svg import board_svg
from battleline_lab.text.messages import (
    LANGUAGES,
    PLURAL_CATEGORIES,
    card_label,
    card_short,
    catalogue,
    message,
    render_analysis,
)
from tests.every import check_every
from tests.solving import tap_proof
from tests.test_explanations import GOLDEN

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "battleline_lab" / "locale"
GOLDEN_ZH = Path(__file__).resolve().parent / "golden" / "zh"
SEEDS = ROOT / "puzzles" / "seed-examples"

#: Templates where each language picks from the parameters the renderer passes (``messages.card_short``):
#: English writes the notation (b8, alexander), Chinese colour and value (蓝8) or the name (亚历山大).
FREE_PLACEHOLDERS = {
    "card.short": {"notation", "colour", "value"},
    "card.short.tactic": {"notation", "name"},
}
#: Keys that may hold no Chinese character although the English has words.
NO_CJK_NEEDED = {
    "word.is": "English verb agreement: nothing in Chinese",
    "word.are": "English verb agreement: nothing in Chinese",
    "word.comes": "English verb agreement: nothing in Chinese",
    "word.come": "English verb agreement: nothing in Chinese",
    "article.a": "English article: Chinese names the kind alone",
    "article.an": "English article: Chinese names the kind alone",
    "authoring.preview.id": "'id' is the YAML key an author writes",
    "where.and": "Chinese joins the last two clauses with ；, not a word",
}
CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_WORD = re.compile(r"\b[A-Za-z]{2,}\b")
FORMATTER = string.Formatter()


def _layers() -> list[str]:
    return sorted(p.name for p in (LOCALE / "en").glob("*.json"))


def _load(lang: str, layer: str) -> dict[str, str]:
    path = LOCALE / lang / layer
    assert path.exists(), f"locale/{lang}/{layer} is missing"
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in FORMATTER.parse(template) if field is not None}


def _without_placeholders(template: str) -> str:
    return "".join(literal for literal, _, _, _ in FORMATTER.parse(template))


# -- the catalogues ------------------------------------------------------------------------------


def _plural_free(keys: Iterable[str], lang: str) -> set[str]:
    """Keys with the plural forms a language does not have (CLDR: Chinese has ``other`` only) left out."""
    forms = {f".{c}" for c in ("zero", "one", "two", "few", "many", "other")} - {
        f".{c}" for c in PLURAL_CATEGORIES[lang]
    }
    return {k for k in keys if not any(k.endswith(f) for f in forms)}


def test_zh_is_a_language() -> None:
    assert LANGUAGES == ("en", "zh")
    assert _plural_free(catalogue("zh"), "zh") == _plural_free(catalogue("en"), "zh")


def test_plural_forms_per_language() -> None:
    """A key with plural forms has exactly the forms of each language (en: one, other; zh: other)."""
    for lang in LANGUAGES:
        texts = catalogue(lang)
        bases = {k.rsplit(".", 1)[0] for k in texts if k.endswith(".other")}
        assert bases, "no plural keys"
        for base in bases:
            assert base not in texts, f"{base} has plural forms and a text of its own"
            for category in PLURAL_CATEGORIES[lang]:
                assert f"{base}.{category}" in texts, f"locale/{lang}: {base}.{category} is missing"
    assert message("words.puzzles", "en", count=1) == "1 puzzle"
    assert message("words.puzzles", "en", count=0) == "0 puzzles"
    assert message("words.puzzles", "zh", count=1) == "1道谜题"


def test_no_zh_layer_without_an_english_one() -> None:
    assert sorted(p.name for p in (LOCALE / "zh").glob("*.json")) == _layers()


@pytest.mark.parametrize("layer", _layers())
def test_every_key_has_a_translation(layer: str) -> None:
    en, zh = _load("en", layer), _load("zh", layer)
    assert sorted(_plural_free(en.keys() - zh.keys(), "zh")) == [], f"untranslated keys in locale/zh/{layer}"
    assert sorted(zh.keys() - en.keys()) == [], f"keys in locale/zh/{layer} that English does not have"


@pytest.mark.parametrize("layer", _layers())
def test_same_placeholders(layer: str) -> None:
    en, zh = _load("en", layer), _load("zh", layer)
    wrong = {}
    for key in en.keys() & zh.keys():
        want, have = _placeholders(en[key]), _placeholders(zh[key])
        if key in FREE_PLACEHOLDERS:
            ok = bool(have) and have <= FREE_PLACEHOLDERS[key] and want <= FREE_PLACEHOLDERS[key]
        else:
            ok = have == want
        if not ok:
            wrong[key] = (sorted(want), sorted(have))
    assert wrong == {}


@pytest.mark.parametrize("layer", _layers())
def test_translated_not_copied(layer: str) -> None:
    """A template with English words must read Chinese (a copied English text is a missing translation)."""
    en, zh = _load("en", layer), _load("zh", layer)
    untranslated = [
        key
        for key in en.keys() & zh.keys()
        if ENGLISH_WORD.search(_without_placeholders(en[key])) and not CJK.search(zh[key]) and key not in NO_CJK_NEEDED
    ]
    assert untranslated == []


def test_seed_terms() -> None:
    """The seeds' terms (RULES.md brackets) name formations, tactics and troops."""
    assert [message(f"kind.{k}", "zh") for k in ("wedge", "phalanx", "battalion", "skirmish", "host")] == [
        "楔形阵",
        "方阵",
        "营阵",
        "散兵线",
        "杂兵阵",
    ]
    assert [message(f"troop.{v}", "zh") for v in range(10, 0, -1)] == [
        "战象",
        "战车",
        "重骑兵",
        "轻骑兵",
        "持盾兵",
        "方阵兵",
        "重装步兵",
        "标枪兵",
        "轻盾兵",
        "散兵",
    ]
    tactics = {t.value: message(f"tactic.{t.value}", "zh") for t in ALL_TACTICS}
    assert tactics["companion"] == "伴骑" and tactics["shield"] == "盾卫" and tactics["fog"] == "迷雾"
    assert [tactics[t] for t in ("mud", "scout", "redeploy", "deserter", "traitor")] == [
        "沼泽",
        "侦察",
        "调遣",
        "逃兵",
        "叛徒",
    ]
    assert "突破" in message("game.cli.reason.breakthrough", "zh")
    assert "包围" in message("game.cli.reason.envelopment", "zh")


def test_card_label_and_short() -> None:
    assert card_label(parse_card("b8"), "zh") == "蓝8，重骑兵"
    assert card_label(parse_card("b8")) == "blue 8, Heavy Cavalry"
    assert card_short(parse_card("p10"), "zh") == "紫10"
    assert card_short(parse_card("p10")) == "p10"
    labels = {card_label(c, "zh") for c in ALL_TROOPS + ALL_TACTICS}
    assert len(labels) == 70, "two cards read the same in Chinese"


# -- explanations --------------------------------------------------------------------------------


def _analysis(name: str) -> Any:
    build, flag, side = GOLDEN[name]
    return analyse_claim(Position.build(**build), flag, Side(side))


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_no_english_leaks_into_chinese_proofs(name: str) -> None:
    """Every proof step kind in Chinese: no English word (rule ids like R12 aside), every placeholder filled."""
    analysis = _analysis(name)
    lines = render_analysis(analysis, "zh")
    assert len(lines) == len(render_analysis(analysis, "en"))
    for line in lines:
        words = [w for w in ENGLISH_WORD.findall(line) if not re.fullmatch(r"R\d+", w)]
        assert words == [], line
        assert "{" not in line and "}" not in line, line
        assert CJK.search(line), line


def golden_text_zh(name: str) -> str:
    """The Chinese golden file of the named position (``tests/golden/zh/<name>.txt``)."""
    build, flag, side = GOLDEN[name]
    analysis = _analysis(name)
    who = message(f"side.{side}", "zh")
    verdict = "yes" if analysis.claimable else "no"
    lines = [
        f"# {name}",
        f"# position: {json.dumps(build, sort_keys=True, ensure_ascii=False)}",
        "# " + message("explain.title", "zh", flag=flag, me=who),
        *render_analysis(analysis, "zh"),
        message(f"explain.verdict.{verdict}", "zh", flag=flag, me=who),
    ]
    return "\n".join(lines) + "\n"


RULES_EXAMPLES = sorted(name for name in GOLDEN if name.startswith("example-"))


def test_rules_examples_are_the_five() -> None:
    assert len(RULES_EXAMPLES) == 5


@pytest.mark.parametrize("name", RULES_EXAMPLES)
def test_golden_zh(name: str) -> None:
    path = GOLDEN_ZH / f"{name}.txt"
    text = golden_text_zh(name)
    assert path.read_text(encoding="utf-8") == text, f"{path.name} differs (./dev regen if the change is intended)"


def test_explain_method_takes_lang() -> None:
    analysis = _analysis("example-2-blue-eight-blocked")
    text = analysis.explain("zh")
    assert "蓝7" in text and "R13" in text
    assert analysis.explain() == analysis.explain("en") != text


def test_problems_in_chinese() -> None:
    with pytest.raises(PositionError) as raised:
        Position.build({5: {"you": "r3 r4 r5"}, 6: {"opponent": "r3"}})
    problems = raised.value.problems
    from battleline_lab.text.messages import render_problem

    texts = [render_problem(p, "zh") for p in problems]
    assert texts and all(CJK.search(t) and "(R1)" not in t for t in texts)
    assert any("红3" in t and "5号旗你的一侧" in t for t in texts), texts


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(ALL_TROOPS), min_size=1, max_size=5, unique=True), st.integers(1, 9))
def test_any_claim_reads_chinese(cards: list[Any], flag: int) -> None:
    """Any small position, either side: the Chinese proof has as many lines as the English, all Chinese."""
    you, opponent = cards[:3], cards[3:]
    position = Position.build(
        {flag: {"you": " ".join(c.notation for c in you), "opponent": " ".join(c.notation for c in opponent)}}
    )
    for side in Side:
        analysis = analyse_claim(position, flag, side)
        zh, en = render_analysis(analysis, "zh"), render_analysis(analysis, "en")
        assert len(zh) == len(en)
        assert all(CJK.search(line) for line in zh)


# -- SVG -----------------------------------------------------------------------------------------


def test_svg_labels_in_chinese() -> None:
    position = Position.build({5: {"you": "r3 r4 r5", "opponent": "b8 alexander"}})
    svg = board_svg(position, lang="zh")
    assert 'aria-label="蓝8，重骑兵"' in svg and "<title>蓝8，重骑兵</title>" in svg
    assert "5号旗" in svg and "Heavy Cavalry" not in svg and "flag 5" not in svg
    assert 'aria-label="blue 8, Heavy Cavalry"' in board_svg(position)


# -- puzzles: titles and notes in both languages -------------------------------------------------


def test_title_and_note_fall_back_to_english() -> None:
    puzzle = load_puzzle_text(
        "title:\n  en: Can you claim flag 5?\n  zh: 你能宣称夺取5号旗吗？\nnote: Only English here.\n"
        "flags: {5: {you: [r3, r4, r5], opponent: [b8]}}\n"
    )
    assert puzzle.title_text("zh") == "你能宣称夺取5号旗吗？"
    assert puzzle.title_text("en") == "Can you claim flag 5?"
    assert puzzle.note_text("zh") == "Only English here."


@pytest.mark.parametrize("path", sorted(SEEDS.glob("*.yaml")), ids=lambda p: p.stem)
def test_seed_examples_have_chinese(path: Path) -> None:
    puzzle = load_puzzle(path)
    assert CJK.search(puzzle.title_text("zh")), "title has no zh text"
    note = puzzle.note_text("zh")
    assert note is not None and CJK.search(note), "note has no zh text"
    assert not CJK.search(puzzle.title_text("en"))


LIBRARY = sorted((ROOT / "puzzles").glob("*/*.yaml"))


def test_library_puzzles_read_in_chinese() -> None:
    """A learner works through the library in Chinese too: every puzzle has a zh title and note."""
    check_every(((f"{p.parent.name}/{p.stem}", p) for p in LIBRARY), _reads_in_chinese)


def _reads_in_chinese(path: Path) -> None:
    puzzle = load_puzzle(path)
    assert "zh" in puzzle.title and CJK.search(puzzle.title["zh"]), "add title: {en: ..., zh: ...}"
    assert puzzle.note is not None and "zh" in puzzle.note and CJK.search(puzzle.note["zh"]), "add note: {zh: ...}"


# -- the CLI -------------------------------------------------------------------------------------


def test_cli_explain_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    path = SEEDS / "2-blue-eight-blocked.yaml"
    assert main(["--lang", "zh", "explain", str(path)]) == 0
    out = capsys.readouterr().out
    assert "5号旗：你能宣称夺取它吗？" in out and "能：你可以宣称夺取5号旗。" in out
    assert main(["explain", str(path), "--lang", "zh"]) == 0, "--lang after the subcommand"
    assert capsys.readouterr().out == out


def test_cli_claims_and_check_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SEEDS / "2-blue-eight-blocked.yaml")
    assert main(["claims", "--lang", "zh", path]) == 0
    assert "你可以宣称夺取的旗帜：5；" in capsys.readouterr().out
    assert main(["check", "--lang", "zh", path]) == 0
    assert "检查了1道谜题：1道通过" in capsys.readouterr().out
    assert main(["claims", "--json", "--lang", "zh", path]) == 0
    assert json.loads(capsys.readouterr().out) == {"file": path, "you": [5], "opponent": []}


def test_cli_diagnostics_in_chinese_keep_the_prefix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("flags: {5: {you: [r3, r4, r5, r3]}}\nflgas: 1\n", encoding="utf-8")
    assert main(["check", "--lang", "zh", str(bad)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err and all(re.match(rf"{re.escape(str(bad))}:\d+:\d+: error: ", line) for line in err), err
    assert any("未知的键" in line and "flags" in line for line in err), err
    assert any("出现了两次" in line for line in err), err
    assert main(["check", str(bad)]) == 2
    assert "unknown key 'flgas'" in capsys.readouterr().err


@pytest.mark.parametrize("token", ["r11", "x3", "alexandr", "zzz", "b0"])
def test_bad_card_tokens_in_both_languages(token: str) -> None:
    """English repeats cards.py's own message word for word; Chinese says the same from the catalogue."""
    from battleline_lab.core.cards import CardNotationError
    from battleline_lab.quiz.loader import PuzzleFileError

    with pytest.raises(CardNotationError) as raised:
        parse_card(token)
    text = f"flags: {{5: {{you: [{token}]}}}}\n"
    with pytest.raises(PuzzleFileError) as english:
        load_puzzle_text(text, "p.yaml")
    assert english.value.diagnostics[0].message == str(raised.value)
    with pytest.raises(PuzzleFileError) as chinese:
        load_puzzle_text(text, "p.yaml", lang="zh")
    message_zh = chinese.value.diagnostics[0].message
    assert message_zh.startswith(f"未知的牌 '{token}'")
    if raised.value.suggestion:
        assert f"“{raised.value.suggestion}”" in message_zh
    question = f"question: {{kind: formation, cards: [r3, r4, {token}]}}\n"
    with pytest.raises(PuzzleFileError) as english:
        load_puzzle_text(question, "q.yaml")
    assert str(raised.value) in [d.message for d in english.value.diagnostics]
    with pytest.raises(PuzzleFileError) as chinese:
        load_puzzle_text(question, "q.yaml", lang="zh")
    assert message_zh in [d.message for d in chinese.value.diagnostics]


def test_cli_match_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "random", "random", "--games", "2", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "胜场：" in out and "结束方式：" in out


# -- widgets -------------------------------------------------------------------------------------


def test_puzzle_widget_toggle_switches_every_text() -> None:
    from battleline_lab.widgets import PuzzleWidget

    widget = PuzzleWidget(SEEDS / "3-blue-seven-in-your-hand.yaml")
    widget.taps.action("answer", "yes")  # wrong: a counterexample
    widget.hint()
    english = _texts(widget)
    assert widget.lang_toggle.value == "en"
    widget.lang_toggle.value = "zh"
    chinese = _texts(widget)
    assert widget.lang == "zh" and widget.state == "wrong" and widget.hint_level == 1
    for text in chinese:
        words = [w for w in ENGLISH_WORD.findall(_strip_markup(text)) if not re.fullmatch(r"R\d+", w)]
        assert words == [], text
    widget.taps.action("answer", "no")
    assert widget.state == "evidence" and CJK.search(widget.board.view["evidence"]["prompt"])
    tap_proof(widget)
    assert widget.state == "right" and "上一步" == widget.board.view["step_back"]
    assert CJK.search(widget.step_text()) and CJK.search(widget.feedback_text())
    widget.lang_toggle.value = "en"
    # right at the second try: right, and the first answer is the one that counted
    assert "Back" == widget.board.view["step_back"] and "Right this time" in widget.feedback_text()
    # once answered, the headline that gives the answer away shows (not before), in the feedback
    assert "Can you claim flag 5?" in english[0] and "tags" not in english[0] + english[2]
    assert "The cards in your hand do not count" in _texts(widget)[2]


def _strip_markup(text: str) -> str:
    text = re.sub(r'<div class="bl-meta">.*?</div>', " ", text)  # tags are the author's identifiers
    text = re.sub(r"<[^>]*>", " ", text)
    return re.sub(r"&\w+;", " ", text)


def _texts(widget: Any) -> list[str]:
    view = widget.board.view
    out = [widget.title.value, widget.question_text(), widget.feedback_text(), *widget.hints_text()]
    out += [a["label"] for a in view["answers"]] + [view["hint"]["label"], view["proof_waiting"], view["answers_label"]]
    out += [view["step_back"], view["step_next"], view["step_back_label"], view["step_next_label"], view["proof_label"]]
    return out


def test_gym_and_explorer_toggle(tmp_path: Path) -> None:
    from battleline_lab.training.progress import Progress
    from battleline_lab.widgets import FormationExplorer, PuzzleGym

    gym = PuzzleGym(SEEDS, progress=Progress(tmp_path / "progress.json"))
    gym.lang_toggle.value = "zh"
    assert gym.next_button.description == "下一题" and CJK.search(gym.status.value)
    assert gym.current is not None and gym.current.lang == "zh"
    gym.move(1)
    assert gym.current.lang == "zh" and CJK.search(gym.current.question_text())

    explorer = FormationExplorer(you="r3 r4 r5", opponent="b8 b9 b10")
    explorer.lang_toggle.value = "zh"
    assert "楔形阵" in explorer.verdict.value and "对手赢得这面旗帜" in explorer.verdict.value
    assert explorer.cards("you") == tuple(parse_card(c) for c in ("r3", "r4", "r5"))
    assert explorer.fog.description == "迷雾（R24）"


# -- the Chinese lesson --------------------------------------------------------------------------

ZH = ROOT / "notebooks" / "zh"
#: every Chinese lesson: the learner's path (zh/00-06) and the teachers' lessons (zh/teachers/01-02)
ZH_LESSONS = sorted(p for p in ZH.rglob("*.zh.ipynb") if ".ipynb_checkpoints" not in p.parts)
#: what a command line or a file format says in any language: file names, the ``FILE:LINE:COL: error:``
#: prefix tools read, a command, answers as YAML writes them (true/false, a/b, wedge...), YAML keys
MACHINE_TEXT = re.compile(
    r"[\w./-]+\.(?:yaml|html|json)\b|^[\w./-]+:\d+:\d+:|\b(?:error|warning)(?=: )|battleline-lab(?: \w+)?|--[\w-]+"
    r"|\b(?:true|false|you|opponent|first_complete|wedge|phalanx|battalion|skirmish|host)\b"
    r"|^[ +-]*[a-z_]+:.*$|^(?:---|\+\+\+|@@) .*$"
    r"|“[^”]*”",  # a quoted name or title: the author's own text
    re.MULTILINE,
)


def _english(zh_lesson: Path) -> Path:
    return ROOT / "notebooks" / zh_lesson.relative_to(ZH).with_name(zh_lesson.name.replace(".zh.ipynb", ".ipynb"))


def test_every_lesson_has_its_chinese_lesson() -> None:
    """A Chinese learner goes from lesson 00 to the game and the teachers' lessons without leaving Chinese."""
    english = sorted(
        p for p in (ROOT / "notebooks").rglob("*.ipynb") if ZH not in p.parents and ".ipynb_checkpoints" not in p.parts
    )
    assert sorted(_english(p) for p in ZH_LESSONS) == english


@pytest.mark.parametrize("zh_lesson", ZH_LESSONS, ids=lambda p: p.relative_to(ZH).as_posix().replace(".zh.ipynb", ""))
def test_chinese_lesson_is_run_in_order_and_reads_chinese(zh_lesson: Path) -> None:
    import nbformat

    book = nbformat.read(zh_lesson, as_version=4)  # type: ignore[no-untyped-call]
    cells = [c for c in book.cells if c.cell_type == "code"]
    for number, cell in enumerate(cells, 1):
        check = "check" in cell.metadata.get("tags", [])  # a hidden engine check prints nothing (test_notebooks.py)
        assert cell.execution_count == number and (cell.outputs or check), f"code cell {number} was not run in order"
        assert not [o for o in cell.outputs if o.output_type == "error"]
        for out in cell.outputs:
            text = out.get("text", "") + str(out.get("data", {}).get("text/html", ""))
            if text.startswith("# Battle Line game record"):
                continue  # a game record is a file format, the same in every language
            if text.strip():  # a stream may arrive split, a lone newline in a part of its own
                assert CJK.search(text), f"cell {number} shows no Chinese"
            if out.output_type == "stream":
                words = ENGLISH_WORD.findall(MACHINE_TEXT.sub("", text))
                assert [w for w in words if not re.fullmatch(r"R\d+", w)] == [], f"cell {number}: {text[:300]}"


@pytest.mark.parametrize("zh_lesson", ZH_LESSONS, ids=lambda p: p.relative_to(ZH).as_posix().replace(".zh.ipynb", ""))
def test_chinese_lesson_teaches_the_same_positions(zh_lesson: Path) -> None:
    import nbformat

    def positions(path: Path) -> set[str]:
        """The arguments of every ``Position.build(...)`` call in the lesson's code, as source text."""
        book = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
        found = set()
        for cell in book.cells:
            if cell.cell_type == "code":
                for node in ast.walk(ast.parse(cell.source)):
                    if isinstance(node, ast.Call) and ast.unparse(node.func) == "Position.build":
                        found.add(ast.unparse(ast.Tuple([*node.args, *(k.value for k in node.keywords)])))
        return found

    assert _english(zh_lesson).exists()
    assert positions(_english(zh_lesson)) <= positions(zh_lesson)


# -- the CLI's own help and usage errors, game records, generated puzzles ---------------------

#: argparse's fixed phrases in English: none may be left in a Chinese help or usage error.
ARGPARSE_ENGLISH = ("usage:", "positional arguments", "options:", "show this help", "error:", "required:")
#: Three English words in a row: a sentence (identifiers such as ``--claim-timing`` or ``blocked-wedge`` are not).
ENGLISH_SENTENCE = re.compile(r"\b[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}\b")
COMMANDS = ["", "claims", "explain", "check", "match", "replay", "generate", "show"]


@pytest.mark.parametrize("command", COMMANDS, ids=[c or "top" for c in COMMANDS])
@pytest.mark.parametrize("where", ["before", "after"])
def test_cli_help_in_chinese(command: str, where: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [command] if command else []
    lang = ["--lang", "zh"]
    assert main([*lang, *argv, "--help"] if where == "before" else [*argv, "--help", *lang]) == 0
    chinese = capsys.readouterr().out
    assert main([*argv, "--help"]) == 0
    english = capsys.readouterr().out
    assert english.startswith("usage: ") and not CJK.search(english)
    assert chinese.startswith("用法：battleline-lab") and CJK.search(chinese)
    assert not [p for p in ARGPARSE_ENGLISH if p in chinese], chinese
    assert not ENGLISH_SENTENCE.search(chinese), ENGLISH_SENTENCE.search(chinese)
    assert "显示这条帮助信息并退出" in chinese and "选项" in chinese
    for metavar in ("FILE", "PATH", "DIR", "COMMAND", "THEME", "TURN", "BOT_A"):
        assert not re.search(rf"(?<![\w/-]){metavar}\b", chinese), f"{metavar} is not translated"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["explain"], "缺少以下参数：文件"),
        (["explain", "p.yaml", "--side", "left"], "参数 --side：无效的选择：'left'"),
        (["explain", "p.yaml", "--flag", "12"], "参数 --flag：旗帜编号是1到9"),
        (["frob"], "无效的选择：'frob'"),
        (["claims", "p.yaml", "--bogus"], "无法识别的参数：--bogus"),
        (["match", "random", "random", "--games", "0"], "需要一个至少为1的整数"),
        (["replay", "g.yaml", "--at", "x"], "需要一个至少为1的整数"),
        (["generate", "--theme", "wedges", "--out", "x"], "未知的主题“wedges”"),
    ],
)
def test_cli_usage_errors_in_chinese_exit_2(argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--lang", "zh", *argv], [*argv, "--lang=zh"]):
        assert main(args) == 2, args
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("用法：battleline-lab"), err
        assert expected in err and "：错误：" in err, err
        assert not [p for p in ARGPARSE_ENGLISH if p in err] and "Traceback" not in err, err
    assert main(argv) == 2
    english = capsys.readouterr().err
    assert english.startswith("usage: battleline-lab") and "error: " in english and not CJK.search(english)


def test_cli_usage_error_in_chinese_in_a_subprocess() -> None:
    """The installed entry point: exit 2, the usage and the error in Chinese, no traceback."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "battleline_lab.cli", "--lang", "zh", "explain", "--side", "left"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("用法：") and "无效的选择" in done.stderr and "Traceback" not in done.stderr


def test_argparse_speaks_english_again_after_a_chinese_run(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse
    import gettext

    assert main(["--lang", "zh", "check", "--help"]) == 0
    assert main(["--lang", "zh", "nothing"]) == 2
    capsys.readouterr()
    assert argparse.ArgumentParser(prog="p").format_help().startswith("usage: p [-h]\n\noptions:")
    assert "show this help message" in argparse.ArgumentParser(prog="p").format_help()
    # argparse itself is never patched: its own message lookups are still gettext's
    assert (argparse._, argparse.ngettext) == (gettext.gettext, gettext.ngettext)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["explain", "p.yaml", "--flag"], "参数 --flag：需要一个参数值"),  # the action's nargs, not argparse's words
        (["claims"], "缺少以下参数：文件"),
        ([], "缺少以下参数：命令"),
        (["worksheet", "a", "--out", "x", "--per-page", "y"], "参数 --per-page：无效的int值：'y'"),
        (["worksheet", "a", "--out", "x", "--per-page", "3"], "参数 --per-page：无效的选择：3"),
        (["progress", "export", "--bogus"], "无法识别的参数：--bogus"),
    ],
)
def test_cli_usage_errors_in_chinese_from_the_parsers_own_facts(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", "zh", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("用法：battleline-lab") and expected in err and "：错误：" in err, err


def test_the_chinese_parser_keeps_argparse_s_usage_and_help_layout(capsys: pytest.CaptureFixture[str]) -> None:
    """Required options stay required in the usage (they are checked after parsing, not by argparse)."""
    assert main(["--lang", "zh", "generate", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--theme 主题" in out.split("\n\n")[0] and "[--theme" not in out
    assert main(["--lang", "zh", "generate", "--out", "x"]) == 2
    assert "缺少以下参数：--theme" in capsys.readouterr().err


def _record(moves: str, options: str = "{first: south}") -> str:
    return f"seed: 1\noptions: {options}\nmoves:\n{moves}"


def _not_in_hand() -> str:
    from battleline_lab.core.cards import ALL_TROOPS
    from battleline_lab.game.state import Options, Player, new_game

    hand = new_game(1, Options(first=Player.SOUTH)).hands[Player.SOUTH]
    return next(card.notation for card in ALL_TROOPS if card not in hand)


#: What a Chinese diagnostic may show in Latin letters: quoted text the author wrote, rule ids, lists of
#: the words a record is written in (keys, actions) and the record's own keys.
IDENTIFIERS = re.compile(r"“[^”]*”|'[^']*'|（R\d+）|\(R\d+\)|[\w-]+(?:, [\w-]+)+|\b(?:options|players|result|moves)\b")

REPLAY_ERRORS = {
    "bad-card": (_record("- south: play r11 3; draw troops\n"), "未知的牌 'r11'：数值是1到10（你是想写“r10”吗？）"),
    "R5-phase": (_record("- south: draw troops\n"), "南方必须出一张牌或跳过（R5）"),
    "R5-turn": (_record("- north: draw troops\n"), "轮到南方，不是北方"),
    "R6-not-in-hand": (_record(f"- south: play {_not_in_hand()} 1\n"), "不在这位玩家的手牌里"),
    "R14-timing": (_record("- south: claim 1\n", "{first: south, claim_timing: end_of_turn}"), "宣称"),
    "unknown-verb": (_record("- south: jump 3\n"), "未知的动作"),
    "unknown-key": (_record("- south: pass\n", "{frist: south}"), "未知的键“frist”"),
}


@pytest.mark.parametrize("case", list(REPLAY_ERRORS))
def test_replay_diagnostics_in_chinese_keep_the_prefix(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, expected = REPLAY_ERRORS[case]
    record = tmp_path / "game.yaml"
    record.write_text(text, encoding="utf-8")
    assert main(["replay", str(record)]) == 2
    english = capsys.readouterr().err.splitlines()
    assert main(["replay", str(record), "--lang", "zh"]) == 2
    chinese = capsys.readouterr().err.splitlines()
    assert len(english) == len(chinese) >= 1
    prefix = re.compile(rf"^{re.escape(str(record))}:\d+:\d+: error: ")
    for en, zh in zip(english, chinese, strict=True):
        assert prefix.match(en) and prefix.match(zh), (en, zh)
        assert prefix.match(en).group() == prefix.match(zh).group(), "same place in both languages"  # type: ignore[union-attr]
        assert not CJK.search(en) and CJK.search(zh), (en, zh)
        said = re.sub(IDENTIFIERS, "", zh[prefix.match(zh).end() :])  # type: ignore[union-attr]
        assert not ENGLISH_WORD.search(said), zh
    assert expected in "\n".join(chinese)


def test_replay_at_a_turn_gives_a_puzzle_titled_in_every_language(capsys: pytest.CaptureFixture[str]) -> None:
    record = ROOT / "tests" / "game" / "data" / "heuristic-vs-random.yaml"
    assert main(["replay", str(record), "--at", "20", "--lang", "zh"]) == 0
    puzzle = load_puzzle_text(capsys.readouterr().out, "turn.yaml", lang="zh")
    assert puzzle.title_text("en") == "Turn 20 of heuristic-vs-random: which flags can you claim?"
    assert puzzle.title_text("zh") == "heuristic-vs-random的第20回合：你能宣称夺取哪些旗帜？"


def test_replay_at_a_missing_turn_in_chinese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.yaml"
    record.write_text("seed: 1\nmoves: []\n", encoding="utf-8")
    assert main(["replay", str(record), "--at", "9", "--lang", "zh"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{record}:1:1: error: ") and CJK.search(err), err
