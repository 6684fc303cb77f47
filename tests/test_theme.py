"""The 楚汉 theme: 刘邦 and 项羽 as the two Leaders, display only, wherever a Leader is named.

The FreeKill version in the seeds (``../shared/seeds``, 战线・楚汉争霸) reskins the game as the war of
刘邦 and 项羽 and renames only the two Leaders (``刘邦（Liu Bang）：可以用来代替任何一种颜色和数字的部队牌``,
``项羽（Xiang Yu）：同上``); the theme does the same (R20). Every place that names a Leader is a row of
:data:`PLACES`: with ``chuhan`` it says 刘邦 / 项羽 (Liu Bang / Xiang Yu in English) and never 亚历山大 /
大流士; with ``classic`` (the default) its text is exactly what it was without a theme. The card
ids, the notation and the puzzle files never change.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from battleline_lab.cli import main
from battleline_lab.core.cards import parse_card, parse_cards
from battleline_lab.core.claims import analyse_claim
from battleline_lab.core.formations import evaluate
from battleline_lab.core.position import Position
from battleline_lab.quiz.loader import load_puzzle
from battleline_lab.render import svg
from battleline_lab.text.messages import (
    CLASSIC,
    LANGUAGES,
    THEMES,
    Theme,
    card_label,
    card_short,
    cards_text,
    catalogue,
    render_analysis,
    theme_of,
    themed,
    topic_name,
)
from battleline_lab.widgets import board as board_component

ROOT = Path(__file__).resolve().parents[1]
LEADER_PUZZLE = ROOT / "puzzles" / "wildcards-theirs" / "their-alexander-anything.yaml"

#: Alexander on the opponent's side of flag 5, Darius in your hand: both Leaders on show.
POSITION = Position.build({5: {"you": "r4 r5 r6", "opponent": "alexander"}}, hand={"you": "darius b3"})
ANALYSIS = analyse_claim(POSITION, 5)
ALEXANDER, DARIUS = parse_card("alexander"), parse_card("darius")

#: The Leaders' names per theme and language (the seeds' FreeKill version; English: their pinyin names).
NAMES = {
    ("classic", "en"): ("Alexander", "Darius"),
    ("classic", "zh"): ("亚历山大", "大流士"),
    ("chuhan", "en"): ("Liu Bang", "Xiang Yu"),
    ("chuhan", "zh"): ("刘邦", "项羽"),
}

Render = Callable[[str, "str | None"], str]

#: Every place a Leader is named: (place, the Leaders it names, render(lang, theme)).
PLACES: list[tuple[str, tuple[str, ...], Render]] = [
    ("messages.card_label", ("alexander",), lambda lang, theme: card_label(ALEXANDER, lang, theme=theme)),
    ("messages.card_short (zh sentences)", ("darius",), lambda lang, theme: card_short(DARIUS, lang, theme=theme)),
    ("messages.cards_text", ("darius",), lambda lang, theme: cards_text([DARIUS], lang, theme=theme)),
    ("messages.topic_name", ("alexander",), lambda lang, theme: topic_name("alexander", themed(lang, theme))),
    (
        "messages.render_analysis (R12 proof)",
        ("alexander",),
        lambda lang, theme: "\n".join(render_analysis(ANALYSIS, lang, theme=theme)),
    ),
    ("svg.card_svg", ("alexander",), lambda lang, theme: svg.card_svg(ALEXANDER, 0, 0, lang=lang, theme=theme)),
    ("svg.board_svg", ("alexander", "darius"), lambda lang, theme: svg.board_svg(POSITION, lang=lang, theme=theme)),
    (
        "svg.cards_svg",
        ("alexander", "darius"),
        lambda lang, theme: svg.cards_svg([ALEXANDER, DARIUS], lang=lang, theme=theme),
    ),
    (
        "svg.formation_caption",
        ("alexander",),
        lambda lang, theme: svg.formation_caption(evaluate("alexander g5 g6"), lang, theme=theme),
    ),
    (
        "svg.formation_svg",
        ("alexander",),
        lambda lang, theme: svg.formation_svg(evaluate("alexander g5 g6"), lang, theme=theme),
    ),
    ("svg.analysis_html", ("alexander",), lambda lang, theme: svg.analysis_html(ANALYSIS, lang, theme=theme)),
    (
        "svg.show_board",
        ("alexander", "darius"),
        lambda lang, theme: svg.show_board(POSITION, lang=lang, theme=theme).markup,
    ),
    ("svg.show_analysis", ("alexander",), lambda lang, theme: svg.show_analysis(ANALYSIS, lang, theme=theme).markup),
    (
        "board.card_view",
        ("darius",),
        lambda lang, theme: json.dumps(board_component.card_view(DARIUS, lang, theme=theme), ensure_ascii=False),
    ),
    (
        "board.flag_views",
        ("alexander",),
        lambda lang, theme: json.dumps(board_component.flag_views(POSITION, lang, theme=theme), ensure_ascii=False),
    ),
]


def _expected(theme: str, lang: str, leaders: tuple[str, ...]) -> list[str]:
    alexander, darius = NAMES[(theme, lang)]
    return [{"alexander": alexander, "darius": darius}[leader] for leader in leaders]


def _card_names_in_sentences(lang: str, place: str) -> bool:
    """English sentences name a tactics card by its notation (``alexander``, docs/i18n.md ``card.short.tactic``)."""
    return lang == "en" and place.startswith(("messages.card_short", "messages.cards_text", "messages.render_analysis"))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("place", "leaders", "render"), PLACES, ids=[p[0] for p in PLACES])
def test_chuhan_names_the_leaders_liu_bang_and_xiang_yu(
    place: str, leaders: tuple[str, ...], render: Render, lang: str
) -> None:
    text = render(lang, "chuhan")
    if _card_names_in_sentences(lang, place):
        assert all(leader in text for leader in leaders), text  # notation: never themed
        return
    for name in _expected("chuhan", lang, leaders):
        assert name in text, f"{place} ({lang}) does not say {name}: {text[:300]}"
    for name in NAMES[("classic", lang)]:
        assert name not in text, f"{place} ({lang}) still says {name}"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("place", "leaders", "render"), PLACES, ids=[p[0] for p in PLACES])
def test_classic_is_unchanged(place: str, leaders: tuple[str, ...], render: Render, lang: str) -> None:
    """The default theme says exactly what the renderers said before themes existed."""
    plain = render(lang, None)
    assert render(lang, "classic") == plain == render(lang, CLASSIC)  # type: ignore[arg-type]
    if not _card_names_in_sentences(lang, place):
        for name in _expected("classic", lang, leaders):
            assert name in plain


def test_the_ids_and_the_notation_never_change() -> None:
    """Display only: ``data-card`` ids, the board component's ids and the card notation stay ``alexander``."""
    out = svg.card_svg(ALEXANDER, 0, 0, lang="zh", theme="chuhan")
    assert 'data-card="alexander"' in out
    assert board_component.card_view(ALEXANDER, "zh", theme="chuhan")["id"] == "alexander"
    assert [c.notation for c in parse_cards("alexander darius")] == ["alexander", "darius"]
    puzzle = load_puzzle(LEADER_PUZZLE, lang=themed("zh", "chuhan"))
    assert puzzle == load_puzzle(LEADER_PUZZLE, lang="zh")


def test_a_theme_names_only_the_leaders() -> None:
    """Every entry of a theme file overrides an existing entry naming Alexander or Darius (R20), in both languages."""
    for lang in LANGUAGES:
        texts = catalogue(lang)
        themed_keys = [k for k in texts if k.startswith("theme.") and not k.startswith("theme.title.")]
        assert themed_keys, lang
        for key in themed_keys:
            _, name, base = key.split(".", 2)
            assert name in THEMES and name != CLASSIC.name, key
            assert base in texts, f"{key} overrides no entry"
            assert base.endswith((".alexander", ".darius")), key
        assert {Theme(n).title(lang) for n in THEMES} == {n for n in (texts[f"theme.title.{n}"] for n in THEMES)}


def test_the_themed_language_is_still_its_language() -> None:
    lang = themed("zh", "chuhan")
    assert lang == "zh" and lang in LANGUAGES and hash(lang) == hash("zh") and {"zh": 1}[lang] == 1
    assert theme_of(lang) == Theme("chuhan") and theme_of("zh") == CLASSIC
    assert theme_of(themed(lang, None)) == Theme("chuhan")  # None keeps the theme
    assert theme_of(themed(lang, "classic")) == CLASSIC
    assert theme_of(pickle.loads(pickle.dumps(lang))) == Theme("chuhan")
    with pytest.raises(ValueError, match="unknown theme 'napoleon'; available: classic, chuhan"):
        Theme("napoleon")


def _drawn(widget: Any) -> str:
    """Everything the board component draws for a puzzle widget (its view model, as text)."""
    return json.dumps(widget.board.view, ensure_ascii=False)


def test_widgets_take_a_theme_and_keep_it_across_the_language_toggle() -> None:
    from battleline_lab.widgets import PuzzleSet, PuzzleWidget
    from battleline_lab.widgets.game import GameWidget

    widget = PuzzleWidget(load_puzzle(LEADER_PUZZLE), lang="zh", theme="chuhan", record=False)
    assert "刘邦" in _drawn(widget) and "亚历山大" not in _drawn(widget)
    widget.set_lang("en")
    assert "Liu Bang" in _drawn(widget) and "Alexander" not in _drawn(widget)
    widget.lang_toggle.value = "zh"  # the bl-lang toggle, as a click does
    assert "刘邦" in _drawn(widget)
    assert "亚历山大" in _drawn(PuzzleWidget(load_puzzle(LEADER_PUZZLE), lang="zh", record=False))
    hinted = PuzzleWidget(load_puzzle(LEADER_PUZZLE), lang="zh", theme="chuhan", record=False)
    hinted.hint()
    hinted.hint()  # the second rung names the Leader on the opponent's side
    hints = " ".join(str(h) for h in hinted.board.view["hints"])
    assert "刘邦" in hints and "亚历山大" not in hints
    hinted.hint()  # the third shows the solution, a proof naming the Leader step by step
    steps = " ".join(view.text for view in hinted.controller.proof())
    assert "刘邦" in steps and "亚历山大" not in steps

    gym = PuzzleSet([load_puzzle(LEADER_PUZZLE)], lang="zh", theme="chuhan", progress=None, learner="theme-test")
    shown = gym.select(load_puzzle(LEADER_PUZZLE).id)
    assert "刘邦" in _drawn(shown)
    gym.set_lang("en")
    assert "Liu Bang" in _drawn(gym.holder.children[0])

    game = GameWidget("heuristic", lang="zh", theme="chuhan")
    assert theme_of(game.lang) == Theme("chuhan")
    game.set_lang("en")
    assert theme_of(game.lang) == Theme("chuhan") and game.lang == "en"


@pytest.mark.parametrize(
    ("argv", "says", "never"),
    [
        (["explain", str(LEADER_PUZZLE), "--lang", "zh", "--theme", "chuhan"], "刘邦", "亚历山大"),
        (["--theme", "chuhan", "--lang", "zh", "explain", str(LEADER_PUZZLE)], "刘邦", "亚历山大"),
        (["--theme=chuhan", "odds", str(LEADER_PUZZLE), "--flag", "5", "--lang", "zh"], "", "亚历山大"),
        (["explain", str(LEADER_PUZZLE), "--lang", "zh", "--theme", "classic"], "亚历山大", "刘邦"),
        (["explain", str(LEADER_PUZZLE), "--lang", "zh"], "亚历山大", "刘邦"),
    ],
)
def test_cli_theme(capsys: pytest.CaptureFixture[str], argv: list[str], says: str, never: str) -> None:
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert says in out and never not in out


def test_cli_theme_classic_is_the_plain_output(capsys: pytest.CaptureFixture[str]) -> None:
    for lang in LANGUAGES:
        assert main(["explain", str(LEADER_PUZZLE), "--lang", lang]) == 0
        plain = capsys.readouterr().out
        assert main(["explain", str(LEADER_PUZZLE), "--lang", lang, "--theme", "classic"]) == 0
        assert capsys.readouterr().out == plain


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "battleline-lab explain: error: argument --theme: unknown theme 'napoleon' (themes: classic, chuhan)"),
        ("zh", "battleline-lab explain：错误：参数 --theme：未知的主题“napoleon”（可选主题：classic、chuhan）"),
    ],
)
def test_cli_unknown_theme_is_a_usage_error(capsys: pytest.CaptureFixture[str], lang: str, line: str) -> None:
    assert main(["explain", str(LEADER_PUZZLE), "--lang", lang, "--theme", "napoleon"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.strip().splitlines()[-1] == line
    assert "Traceback" not in captured.err
