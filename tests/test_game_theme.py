"""The game's theme (classic / 楚汉) is chosen in its menu and remembered for the learner.

The theme only renames (the Leaders: Alexander and Darius, or 刘邦 and 项羽); the choice is one
``setting`` row of the learner's progress, added through the store's one gate like every other
row (atomic, never overwriting), read back by the next game widget, kept across a reset, and
counted as no puzzle's attempt.
"""

from __future__ import annotations

import pytest

from battleline_lab.core.cards import Tactic
from battleline_lab.text.messages import LANGUAGES, Theme, card_label
from battleline_lab.training.progress import MemoryStore, Progress, check_row
from battleline_lab.training.stores.records import SETTING_KIND
from battleline_lab.training.trainer import Trainer
from battleline_lab.widgets.game import GameWidget

#: the menu's labels per language, and the Leader's name under each theme
MENU = {"en": ["classic", "Chu-Han"], "zh": ["经典", "楚汉"]}
LEADER = {
    ("en", "classic"): "Alexander",
    ("en", "chuhan"): "Liu Bang",
    ("zh", "classic"): "亚历山大",
    ("zh", "chuhan"): "刘邦",
}


def memory() -> Progress:
    return Progress(store=MemoryStore(), learner="me")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_menu_offers_classic_and_chuhan_and_renames_the_leaders(lang: str) -> None:
    w = GameWidget(bot="heuristic", seed=1, lang=lang, progress=memory())
    assert [label for label, _value in w.theme_choice.options] == MENU[lang] and w.theme == "classic"
    assert LEADER[lang, "classic"] in card_label(Tactic.ALEXANDER, w.lang)
    history = list(w.state.history)
    w.theme_choice.value = "chuhan"
    assert w.theme == "chuhan" and w.lang == lang and w.state.history == history  # the game goes on
    assert LEADER[lang, "chuhan"] in card_label(Tactic.ALEXANDER, w.lang)
    w.set_lang("zh" if lang == "en" else "en")  # the other language keeps the theme
    assert w.theme == "chuhan" and w.theme_choice.value == "chuhan"


def test_the_theme_is_remembered_for_the_learner_in_their_progress() -> None:
    progress = memory()
    GameWidget(bot="heuristic", seed=1, progress=progress).choose_theme("chuhan")
    assert progress.setting("theme") == "chuhan"
    assert GameWidget(bot="random", seed=2, progress=progress).theme == "chuhan"
    assert GameWidget(bot="random", seed=2, progress=memory()).theme == "classic"  # another learner


def test_without_a_progress_the_learners_own_data_folder_remembers_it() -> None:
    assert GameWidget(bot="heuristic", seed=1).theme == "classic"
    GameWidget(bot="heuristic", seed=1).choose_theme("chuhan")
    assert GameWidget(bot="heuristic", seed=5).theme == "chuhan"
    assert Progress().setting("theme") == "chuhan"


def test_an_explicit_theme_wins_over_the_remembered_one() -> None:
    progress = memory()
    progress.record_setting("theme", "chuhan")
    assert GameWidget(bot="heuristic", seed=1, progress=progress, theme="classic").theme == "classic"


def test_the_setting_row_passes_the_gate_survives_a_reset_and_is_no_puzzles_attempt() -> None:
    progress = memory()
    progress.record_setting("theme", "chuhan")
    progress.record_setting("theme", "classic")
    progress.record_setting("theme", "chuhan")  # the last choice counts; earlier rows stay
    rows = progress._store().rows()
    assert [r.kind for r in rows] == [SETTING_KIND] * 3
    assert check_row(rows[-1].to_json()) == rows[-1]  # the one gate every row passes
    progress.reset()
    assert progress.setting("theme") == "chuhan"  # a reset does not forget a choice
    assert progress.records() == {}
    assert Trainer("seed-examples", progress=progress).summary().rated == 0


def test_an_unknown_theme_changes_nothing() -> None:
    w = GameWidget(bot="heuristic", seed=1, progress=memory())
    with pytest.raises(ValueError, match="unknown theme"):
        w.choose_theme("napoleon")
    assert w.theme == Theme().name
