"""The PuzzleEditor widget, driven from Python as a teacher would (set values, ``.click()``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline_lab.quiz import library
from battleline_lab.quiz.loader import check_answer, load_puzzle
from battleline_lab.widgets.editor import PuzzleEditor
from battleline_lab.widgets.intents import IntentWarning


def _visible(widget: object) -> bool:
    return bool(widget.layout.display != "none")  # type: ignore[attr-defined]


def test_build_a_puzzle_by_clicks_and_save(tmp_path: Path) -> None:
    target = tmp_path / "tie-on-four.yaml"
    w = PuzzleEditor(puzzle_id="tie-on-four", save_path=target)
    for card in ("r8", "r9", "r10"):  # tap a card of the palette, then an empty slot of flag 4
        w.taps.pick(card)
        w.taps.place("4:you")
    for card in ("g8", "g9", "g10"):
        w.taps.pick(card)
        w.taps.place("4:opponent")
    flag = w.board.view["flags"][3]
    assert [c["id"] for c in flag["you"]] == ["r8", "r9", "r10"] and [c["id"] for c in flag["opponent"]] == [
        "g8",
        "g9",
        "g10",
    ]
    assert "4:you" not in w.taps.places()  # no empty slot left there
    assert "R11" in w.problems.value  # a tie without first_complete
    w.taps.flag(4)  # tap the flag: the marks are flag 4's
    assert w.flag.value == 4 and w.board.view["flags"][3].get("focus")
    w.first_complete.value = "you"
    assert "bl-editor-ok" in w.problems.value
    w.kind.value = "claim"
    w.question_flag.value = 4
    assert "true" in w.engine.value and "bl-editor-proof-line" in w.engine.value
    assert "level" in w.difficulty.value
    w.engine_answer_button.click()
    w.title_en.value = "Who was first?"
    w.title_zh.value = "谁先完成？"
    w.level.value = 2
    w.tags.value = "claim, tie-rule"
    w.save_button.click()
    assert "Saved" in w.message_html.value
    puzzle = load_puzzle(target)
    assert check_answer(puzzle, str(target)) == []
    assert [c.notation for c in puzzle.position.flag(4).you] == ["r8", "r9", "r10"]
    assert puzzle.position.flag(4).first_complete is not None and puzzle.title["zh"] == "谁先完成？"


def palette(w: PuzzleEditor, card: str) -> dict[str, object]:
    return next(c for c in w.board.view["palette"]["cards"] if c["id"] == card)


def test_a_palette_card_toggles_at_a_place_and_marks_where_cards_are() -> None:
    w = PuzzleEditor()
    assert len(w.board.view["palette"]["cards"]) == 70 and not palette(w, "alexander").get("placed")
    w.taps.pick("alexander")
    w.taps.place("hand:you")
    assert w.session.cards_at(("hand", "you")) == ["alexander"] and w.place.value == ("hand", "you")
    assert palette(w, "alexander")["placed"] and "hand, you" in str(palette(w, "alexander")["label"])
    hand = next(p for p in w.board.view["places"] if p["value"] == "hand:you")
    assert hand["label"] == "hand, you: alexander"
    w.taps.pick("alexander")
    w.taps.place("discards:opponent")  # moves it: a card lies in one place
    assert w.session.where("alexander") == ("discards", "opponent")
    w.taps.pick("alexander")
    w.taps.place("discards:opponent")  # put where it is: taken off
    assert w.session.where("alexander") is None and not palette(w, "alexander").get("placed")
    w.taps.pick("r7")
    w.taps.place("3:opponent")
    assert [c["id"] for c in w.board.view["flags"][2]["opponent"]] == ["r7"]
    w.taps.take("r7")  # tap a placed card: taken off
    assert w.session.where("r7") is None
    w.taps.pick("r7")
    w.taps.escape()  # Escape cancels the pick: the next tap on a slot does nothing
    w.taps.place("3:opponent")
    assert w.session.where("r7") is None
    text = w.session.text()
    for intent in ({"place": ["zz9", "3:you"]}, {"place": ["r7", "10:you"]}, {"take": "zz9"}, {"flag": True}):
        with pytest.warns(IntentWarning):  # a stale or forged message is refused: nothing changes, no traceback
            assert not w.board.intent(intent)
    assert w.session.text() == text and w.flag.value == 5


def test_typed_cards_and_a_bad_token() -> None:
    w = PuzzleEditor()
    w.place.value = ("flags", 2, "opponent")
    w.card_text.value = "b1 b2 zz9"
    w.put_button.click()
    assert "zz9" in w.message_html.value and w.session.cards_at(("flags", 2, "opponent")) == []
    w.card_text.value = "b1 b2"
    w.put_button.click()
    assert w.session.cards_at(("flags", 2, "opponent")) == ["b1", "b2"]
    w.card_text.value = "b1"
    w.remove_button.click()
    assert w.session.cards_at(("flags", 2, "opponent")) == ["b2"]


def test_fog_mud_and_claimed_marks() -> None:
    w = PuzzleEditor()
    w.flag.value = 6
    w.mud.value = True
    assert w.session.cards_at(("flags", 6, "you")) == ["mud"]
    w.fog.value = True
    assert w.session.cards_at(("flags", 6, "you")) == ["mud", "fog"]
    w.mud.value = False
    assert w.session.cards_at(("flags", 6, "you")) == ["fog"]
    w.claimed_by.value = "opponent"
    assert "R12" in w.problems.value  # claimed without a complete formation
    w.claimed_by.value = ""
    w.flag.value = 1
    assert w.fog.value is False  # the marks show the chosen flag


def test_compare_and_formation_questions() -> None:
    w = PuzzleEditor()
    w.kind.value = "formation"
    assert _visible(w.question_fields["cards"]) and not _visible(w.question_fields["flag"])
    w.question_cards.value = "r1 r2 r3"
    assert "wedge" in w.engine.value
    w.answer.value = "phalanx"
    assert "wrong answer" in w.problems.value
    w.kind.value = "compare"
    w.answer.value = ""
    w.question_a.value = "r1 r2 r3"
    w.question_b.value = "g9 b9 y9"
    assert ": a" in w.engine.value
    w.answer.value = "a"
    assert "bl-editor-ok" in w.problems.value


def test_overwrite_needs_a_second_click(tmp_path: Path) -> None:
    target = tmp_path / "exists.yaml"
    target.write_text("id: mine\n")
    w = PuzzleEditor(save_path=target)
    w.kind.value = "formation"
    w.question_cards.value = "r1 y1 b1"
    w.engine_answer_button.click()
    assert not _visible(w.overwrite_button)
    w.save_button.click()
    assert target.read_text() == "id: mine\n"
    assert _visible(w.overwrite_button) and "exists" in w.message_html.value
    w.overwrite_button.click()
    assert load_puzzle(target).answer == "phalanx"
    assert not _visible(w.overwrite_button)


def test_open_a_library_puzzle_and_save_unchanged(tmp_path: Path) -> None:
    path = library.path("seed-blue-eight-blocked")
    mine = tmp_path / "mine.yaml"
    mine.write_bytes(path.read_bytes())
    w = PuzzleEditor(mine)
    assert w.title_zh.value == "蓝8还能组成楔形阵吗？" and w.level.value == 2 and w.kind.value == "claim"
    assert w.question_flag.value == 5 and w.answer.value == "true"
    assert w.topics.value == "claim, seed-example, wedge"
    w.save_button.click()
    w.overwrite_button.click()
    assert mine.read_bytes() == path.read_bytes()


def test_a_wrong_answer_is_refused_and_one_click_takes_the_engines(tmp_path: Path) -> None:
    path = library.path("seed-blue-eight-blocked")
    mine = tmp_path / "mine.yaml"
    mine.write_bytes(path.read_bytes())
    w = PuzzleEditor(mine)
    w.taps.take("b10")  # tap b10 on the board: taken off; the Wedge b8-b9-b10 can come
    assert not _visible(w.take_answer_button)
    w.save_button.click()
    w.overwrite_button.click()
    assert mine.read_bytes() == path.read_bytes()  # refused: nothing written
    assert "engine says false" in w.message_html.value and _visible(w.take_answer_button)
    assert "false" in w.take_answer_button.description
    w.take_answer_button.click()
    assert w.answer.value == "false" and not _visible(w.take_answer_button)
    w.save_button.click()
    w.overwrite_button.click()
    assert load_puzzle(mine).answer is False


def test_save_as_asks_for_a_new_id(tmp_path: Path) -> None:
    path = library.path("seed-blue-eight-blocked")
    w = PuzzleEditor(path, save_path=tmp_path / "copy.yaml")
    w.save_button.click()
    assert not (tmp_path / "copy.yaml").exists() and "new id" in w.message_html.value
    assert w.new_id.value == "seed-blue-eight-blocked-2"  # a free id, suggested
    w.save_as_button.click()
    assert load_puzzle(tmp_path / "copy.yaml").id == "seed-blue-eight-blocked-2"


def test_topics_field_and_warning_labels() -> None:
    w = PuzzleEditor()
    w.topics.value = "wedge, fog"
    assert w.session.data["topics"] == ["wedge", "fog"]
    for flag, cards in ((1, "r1 r2 r3"), (2, "y1 y2 y3"), (3, "b1 b2 b3")):
        w.place.value = ("flags", flag, "you")
        w.card_text.value = cards
        w.put_button.click()
    w.kind.value = "claim"
    w.question_flag.value = 1
    w.engine_answer_button.click()
    assert "bl-editor-check-warning" in w.problems.value and "bl-editor-problem" not in w.problems.value
    assert "<b>warning</b>" in w.problems.value and "bl-editor-ok" in w.problems.value
    w.lang_toggle.value = "zh"
    assert "<b>警告</b>" in w.problems.value


def test_language_toggle_relabels_everything() -> None:
    w = PuzzleEditor()
    w.place.value = ("flags", 7, "opponent")
    w.lang_toggle.value = "zh"
    assert w.place.value == ("flags", 7, "opponent")  # the toggle keeps the selection
    w.lang_toggle.value = "en"
    w.place.value = ("flags", 1, "you")
    w.card_text.value = "alexander darius"
    w.put_button.click()
    english = w.problems.value
    w.lang_toggle.value = "zh"
    assert w.lang == "zh" and w.save_button.description == "保存"
    assert w.problems.value != english and "R20" in w.problems.value
    assert "亚历山大" in str(palette(w, "alexander")["label"])
    assert dict((v, k) for k, v in w.kind.options)["compare"] == "compare：哪个阵型获胜？"
    assert w.place.value == ("flags", 1, "you")


def test_author_text_is_escaped() -> None:
    w = PuzzleEditor()
    w.title_en.value = "<script>alert(1)</script>"
    assert "<script>" not in w.yaml.value and "&lt;script&gt;" in w.yaml.value
    w.id_text.value = "<b>bad id"
    assert "<b>bad" not in w.heading.value and "<b>bad" not in w.problems.value
