"""Help for the usual YAML mistakes of a first draft, in English and Chinese.

Each row: a file's text, the language, the ``LINE:COL`` of the error and words the message must
hold (and, for some, words it must not).  The texts are the mistakes teachers made in their first
drafts: a colon inside a title, a Chinese comma in a card list, a misspelled key, a tab.
"""

from __future__ import annotations

import pytest

from battleline_lab.quiz.checks import check_puzzle
from battleline_lab.quiz.loader import PuzzleFileError, load_puzzle_text

Q = "question: {kind: claim, flag: 1}\n"

# (case name, text, lang, [(line, col, words that must be in that error's message)], words no message may hold)
CASES = [
    (
        "colon-in-a-title-en",
        "id: x\ntitle: Fog: who wins?\n" + Q,
        "en",
        [(2, 11, ["put the text in quotes, or use >-"])],
        ["mapping values"],
    ),
    (
        "colon-in-a-title-zh",
        "id: x\ntitle: Fog: who wins?\n" + Q,
        "zh",
        [(2, 11, ["请把文字放在引号里", ">-"])],
        ["mapping values", "allowed"],
    ),
    (
        "colon-in-a-note-zh",
        "id: x\nnote:\n  zh: 注意: 雾\n" + Q,
        "zh",
        [(3, 9, ["引号"])],
        ["mapping values"],
    ),
    (
        "full-width-comma-en",
        "id: x\nflags:\n  1: {you: [r10，b10，g10]}\n" + Q,
        "en",
        [(3, 13, ["'，' is full-width punctuation", "separate cards with ','"])],
        [],
    ),
    (
        "full-width-enumeration-comma-zh",
        "id: x\nflags:\n  1: {you: [r10、b10、g10]}\n" + Q,
        "zh",
        [(3, 13, ["“、”是全角标点", "半角的“,”"])],
        [],
    ),
    (
        "full-width-semicolon",
        "id: x\nflags:\n  1:\n    you: [r1；r2, r3]\n" + Q,
        "en",
        [(4, 11, ["'；' is full-width"])],
        [],
    ),
    (
        # the key is reported, and the two bad cards under it in the same run
        "misspelled-flags-en",
        "id: x\nflgas:\n  1: {you: [r10, x10], opponent: [r11]}\n" + Q,
        "en",
        [
            (2, 1, ["unknown key 'flgas'", "did you mean 'flags'"]),
            (3, 18, ["unknown card 'x10'"]),
            (3, 35, ["unknown card 'r11'", "1 to 10"]),
        ],
        [],
    ),
    (
        "misspelled-question-zh",
        "id: x\nflags:\n  1: {you: [r1]}\nqeustion: {kind: claim, flag: 12}\n",
        "zh",
        [(4, 1, ["未知的键“qeustion”", "question"]), (4, 31, ["12"])],
        [],
    ),
    ("open-quote", "id: x\ntitle: 'open\n", "en", [(3, 1, ["never closed"])], []),
    ("tab-zh", "id: x\n\ttitle: a\n", "zh", [(2, 1, ["制表符", "空格"])], ["cannot start"]),
]


@pytest.mark.parametrize("name,text,lang,expected,absent", CASES, ids=[c[0] for c in CASES])
def test_yaml_mistakes_are_explained(
    name: str, text: str, lang: str, expected: list[tuple[int, int, list[str]]], absent: list[str]
) -> None:
    with pytest.raises(PuzzleFileError) as err:
        load_puzzle_text(text, "p.yaml", lang=lang)
    found = [(d.line, d.col, d.message) for d in err.value.diagnostics]
    assert [(line, col) for line, col, _m in found] == [(line, col) for line, col, _w in expected], found
    for (_l, _c, text_), (_line, _col, words) in zip(found, expected):
        for word in words:
            assert word in text_, (word, text_)
        for word in absent:
            assert word not in text_, (word, text_)


def test_a_misspelled_key_is_still_refused_when_what_it_holds_is_right() -> None:
    with pytest.raises(PuzzleFileError) as err:
        load_puzzle_text("id: x\nflgas:\n  1: {you: [r1, r2, r3]}\n" + Q, "p.yaml")
    assert [d.message for d in err.value.diagnostics] == ["unknown key 'flgas' (did you mean 'flags'?)"]


# (case name, position YAML, lang, words the reachability warning must hold, words it must not)
REACH = [
    (
        "R5-your-hand-en",
        "hand: {you: [r1, r2, r3, r4, r5, r6, r7, r8]}\n",
        "en",
        ["your hand holds 8 cards"],
        ["the hand of you"],
    ),
    (
        "R5-opponent-hand-en",
        "turn: opponent\nhand: {opponent: [r1, r2, r3, r4, r5, r6, r7, r8]}\n",
        "en",
        ["the opponent's hand holds 8 cards"],
        ["the hand of"],
    ),
    ("R5-your-hand-zh", "hand: {you: [r1, r2, r3, r4, r5, r6, r7, r8]}\n", "zh", ["你的手牌有8张"], []),
    (
        "R26-one-card-en",
        "flags:\n  1: {you: [r1], opponent: [r2]}\ndiscards: {you: [g5]}\n",
        "en",
        ["1 card in your discard area"],
        ["1 cards", "discard area of you"],
    ),
    (
        "R26-two-cards-en",
        "flags:\n  1: {you: [r1], opponent: [r2]}\ndiscards: {you: [g5, g6]}\n",
        "en",
        ["2 cards in your discard area"],
        [],
    ),
    (
        "R29-deserter-en",
        "flags:\n  1: {you: [r1], opponent: [r2]}\ndiscards: {you: [deserter]}\n",
        "en",
        ["your Deserter discarded"],
        ["the Deserter of you"],
    ),
    (
        "R29-deserter-zh",
        "flags:\n  1: {you: [r1], opponent: [r2]}\ndiscards: {you: [deserter]}\n",
        "zh",
        ["你的逃兵"],
        [],
    ),
]


@pytest.mark.parametrize("name,body,lang,words,absent", REACH, ids=[r[0] for r in REACH])
def test_plurals_and_possessives(name: str, body: str, lang: str, words: list[str], absent: list[str]) -> None:
    puzzle = load_puzzle_text("id: x\n" + body, "p.yaml", lang=lang)
    text = " ".join(str(d) for d in check_puzzle(puzzle, "p.yaml", lang=lang))
    for word in words:
        assert word in text, (word, text)
    for word in absent:
        assert word not in text, (word, text)
