"""The three-player game against two bots (R32-R37): its controller driven by intents to the end, its
board view, and ``GameWidget(players=3, bots=[...])`` played by the board's taps.

Every step checks that the board offers exactly the engine's legal moves (the hand cards' lit
flags, the claimable flags, the deck, pass and end), that nothing of a bot's hand is in the view
(R35), and the game-over message names the winner, why and the rule.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from typing import Any

import pytest

from battleline_lab.controllers.three import ThreeGameController
from battleline_lab.game.actions import Claim, Draw, EndClaims, Pass, PlayCard
from battleline_lab.game.three import LINES, Seat, ThreeEnd, build_three, wins_by_flags
from battleline_lab.widgets.game import GameWidget
from battleline_lab.widgets.three import ThreeGameWidget
from tests.test_controllers import undeclared

GAMES = [(4, ("heuristic", "random")), (7, ("random", "heuristic")), (12, ("random", "random"))]


def offered(view: Any) -> set[tuple[Any, ...]]:
    """The moves the board offers, read from the view as the browser reads it."""
    out: set[tuple[Any, ...]] = set()
    for card in view["hand"]:
        out |= {("play", card["id"], n) for n in card.get("flags", ())}
    out |= {("claim", f["n"]) for f in view["flags"] if f.get("claimable")}
    out |= {("draw",) for d in view["decks"] if d["enabled"]}
    out |= {(c["action"],) for c in view["choices"]}
    return out


def engine(c: ThreeGameController) -> set[tuple[Any, ...]]:
    out: set[tuple[Any, ...]] = set()
    for a in c.legal():
        if isinstance(a, PlayCard):
            out.add(("play", a.card.notation, a.flag))
        elif isinstance(a, Claim):
            out.add(("claim", a.flag))
        elif isinstance(a, Draw):
            out.add(("draw",))
        elif isinstance(a, Pass):
            out.add(("pass",))
        elif isinstance(a, EndClaims):
            out.add(("end",))
    return out


def card_ids(view: Any) -> set[str]:
    return {c["id"] for f in view["flags"] for side in f["sides"] for c in side["cards"]} | {
        c["id"] for c in view["hand"]
    }


@pytest.mark.parametrize(("seed", "bots"), GAMES, ids=[f"seed-{s}-{'-'.join(b)}" for s, b in GAMES])
def test_R34_R36_a_game_by_intents_offers_exactly_the_legal_moves_to_its_end(seed: int, bots: tuple[str, str]) -> None:
    c = ThreeGameController(bots, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not c.over:
        assert steps < 400
        view = c.view()
        assert c.state.turn is Seat.A, "the bots have played: it is the learner's turn"
        offers = offered(view)
        assert offers == engine(c) and offers
        hidden = {t.notation for s in (Seat.B, Seat.C) for t in c.state.hands[s]}
        assert not hidden & card_ids(view), "a bot's hand is never in the learner's view (R35)"
        assert not hidden & set(json.dumps(view).replace('"', " ").split()), "nor anywhere else in it"
        claims = sorted(o for o in offers if o[0] == "claim")
        move = claims[0] if claims else rng.choice(sorted(offers, key=str))
        if move[0] == "play":
            c.intent("play", [move[1], move[2]])
        elif move[0] == "claim":
            c.intent("claim", move[1])
            assert c.over or "is yours" in c.view()["feedback"]["text"]
        elif move[0] == "draw":
            c.intent("draw", "troops")
        else:
            c.intent("do", move[0])
        steps += 1
    state = c.state
    assert state.end_reason is not None
    view = c.view()
    assert offered(view) == set()
    text = view["prompt"]
    assert text == view["feedback"]["text"] == c.end_message()
    if state.winner is not None:
        assert c.player_name(state.winner) in text
        held = set(state.held(state.winner))
        assert ", ".join(map(str, sorted(held))) in text
    if state.end_reason in (ThreeEnd.BREAKTHROUGH, ThreeEnd.ENVELOPMENT):
        assert state.winner is not None and wins_by_flags(state.winner, held) is state.end_reason
        assert "(R36)" in text
    else:
        assert "(R37)" in text


BAD_MOVES = [
    ("not-your-flag-R33", "play", 5, "R33"),  # flag 5 is on the front B-C
    ("unprovable-claim-R34", "claim", 1, "R34"),  # no claim before a troop is played this turn
]


@pytest.mark.parametrize(("name", "kind", "flag", "rule"), BAD_MOVES, ids=[b[0] for b in BAD_MOVES])
def test_a_refused_move_changes_nothing_and_says_its_rule(name: str, kind: str, flag: int, rule: str) -> None:
    c = ThreeGameController(("random", "random"), seed=4)
    before = c.state.copy()
    card = c.view()["hand"][0]["id"]
    c.intent(kind, [card, flag] if kind == "play" else flag)
    assert c.state.hands == before.hands and c.state.cards == before.cards and c.state.phase is before.phase
    fb = c.view()["feedback"]
    assert fb["tone"] == "refused" and f"({rule})" in fb["text"], fb


def test_R35_a_claim_the_learner_cannot_prove_is_marked_for_a_tap_and_refused_with_its_rule() -> None:
    c = ThreeGameController(("random", "random"), seed=4)
    # flag 2 provable (the top straight flush, completed first); flag 1 complete but weak against B's 9
    c.state = build_three({1: {"a": "r1 g2 b4", "b": "y9"}, 2: {"a": "g8 g9 g10"}})
    card = next(x for x in c.view()["hand"] if x.get("flags"))
    c.intent("play", [card["id"], 8])
    flags = {f["n"]: f for f in c.view()["flags"]}
    assert flags[2].get("claimable") and flags[2].get("claim")
    assert flags[1].get("claim") and not flags[1].get("claimable")
    assert offered(c.view()) == {("claim", 2), ("end",)}
    c.intent("claim", 1)
    fb = c.view()["feedback"]
    assert c.state.claimed[0] is None
    assert fb["tone"] == "refused" and "(R35)" in fb["text"], fb
    c.intent("claim", 2)
    assert c.state.claimed[1] is Seat.A


def test_R32_the_fronts_are_labelled_with_their_two_players_and_the_learner_sits_at_the_bottom() -> None:
    c = ThreeGameController(("heuristic", "random"), seed=4)
    view = c.view()
    assert [(f["key"], f["flags"]) for f in view["fronts"]] == [("ab", [1, 2, 3]), ("bc", [4, 5, 6]), ("ca", [7, 8, 9])]
    assert [f["label"] for f in view["fronts"]] == [
        "Front A–B: A (you) against B (heuristic bot), flags 1, 2, 3",
        "Front B–C: B (heuristic bot) against C (random bot), flags 4, 5, 6",
        "Front C–A: C (random bot) against A (you), flags 7, 8, 9",
    ]
    seats = {f["n"]: [s["seat"] for s in f["sides"]] for f in view["flags"]}
    assert seats == {1: ["b", "a"], 2: ["b", "a"], 3: ["b", "a"], 4: ["b", "c"], 5: ["b", "c"], 6: ["b", "c"]} | {
        n: ["c", "a"] for n in (7, 8, 9)
    }
    assert {c_["id"] for c_ in view["hand"]} == {t.notation for t in c.state.hands[Seat.A]}
    assert all(card["flags"] == list(sorted(LINES[Seat.A])) for card in view["hand"])
    c.set_lang("zh")
    zh = c.view()
    assert zh["fronts"][0]["label"] == "甲乙前线：甲（你）对乙（启发式机器人），旗帜1、2、3"
    assert "甲" in zh["prompt"] and "旗帜" in zh["status"]


def test_the_three_view_declares_every_key_it_sends() -> None:
    c = ThreeGameController(("heuristic", "random"), seed=7)
    for _ in range(6):
        view = c.view()
        assert json.loads(json.dumps(view)) == view
        assert undeclared(view, "ThreeGameView") == []
        card = next(x for x in view["hand"] if x.get("flags"))
        c.intent("play", [card["id"], card["flags"][0]])
        for f in c.view()["flags"]:
            if f.get("claimable"):
                c.intent("claim", f["n"])
        if EndClaims() in c.legal():
            c.intent("do", "end")
        if any(isinstance(a, Draw) for a in c.legal()):
            c.intent("draw", "troops")
        if c.over:
            break
    assert undeclared(c.view(), "ThreeGameView") == []


def play_by_taps(w: ThreeGameWidget) -> int:
    """The browser test's policy: claim what is marked, draw, end claiming, else a card to its first lit flag."""
    taps = 0
    while not w.state.over:
        assert taps < 600
        view = w.board.view
        claimable = w.taps.claimable_flags()
        if claimable:
            w.taps.flag(claimable[0])
        elif any(d["enabled"] for d in view["decks"]):
            w.taps.draw("troops")
        elif any(c["action"] == "end" for c in view["choices"]):
            w.taps.action("end")
        elif any(c.get("flags") for c in view["hand"]):
            card = next(c for c in view["hand"] if c.get("flags"))
            w.taps.card(card["id"])
            assert w.taps.legal_flags() == card["flags"]
            w.taps.flag(card["flags"][0])
        else:
            w.taps.action("pass")
        taps += 1
    return taps


@pytest.mark.parametrize("seed", [4, 5])
def test_GameWidget_players_3_is_played_by_taps_to_its_end(seed: int) -> None:
    w = GameWidget(players=3, bots=["heuristic", "random"], seed=seed)
    assert isinstance(w, ThreeGameWidget)
    assert w.board.view["mode"] == "three"
    play_by_taps(w)
    assert w.banner.layout.display != "none"
    assert w.controller.end_message() in w.banner.value.replace("&#x27;", "'")
    assert w.board.view["feedback"]["tone"] == "over"
    with pytest.raises(ValueError, match="not on offer"):
        w.taps.draw("troops")
    w.new_game()
    assert w.seed == seed + 1 and not w.state.over and w.board.view["hand"]


def test_the_same_seed_gives_the_same_game() -> None:
    one, two = ThreeGameWidget(seed=9), ThreeGameWidget(seed=9)
    play_by_taps(one)
    play_by_taps(two)
    assert one.state.history == two.state.history and one.state.winner is two.state.winner


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": 4}, "2 or 3 players, not 4"),
        ({"players": 3, "bots": ["heuristic"]}, "two bots for the other seats"),
        ({"players": 3, "bots": ["expert", "random"]}, "named from heuristic, random"),
        ({"bots": ["random", "random"]}, "the two-player game takes bot="),
    ],
    ids=["four-players", "one-bot", "unknown-bot", "bots-for-two"],
)
def test_a_wrong_table_is_a_clear_error(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        GameWidget(**kwargs)


def test_the_two_player_widget_is_unchanged() -> None:
    w = GameWidget(bot="random", seed=2)
    assert type(w) is GameWidget and w.board.view["mode"] == "game"


def test_the_language_toggle_relabels_the_three_player_game() -> None:
    w = ThreeGameWidget(seed=4)
    w.set_lang("zh")
    assert w.board.view["lang"] == "zh" and "三人对局" in w.title.value
    assert "甲（你）" in w.board.view["players"][0]["label"]


def test_the_three_player_controller_loads_without_ipywidgets() -> None:
    code = (
        "import sys, battleline_lab.controllers.three;"
        "print(sorted(m for m in ('ipywidgets', 'anywidget', 'traitlets') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


FORGED = [
    ("tactics-deck", {"draw": "tactics"}),
    ("scout", {"do": "scout"}),
    ("flag-ten", {"claim": 10}),
    ("card-not-in-hand", {"play": ["zz", 1]}),
    ("select", {"select": "FIRST"}),
    ("flag-destination", {"flag": 3}),
    ("end-out-of-turn", {"do": "end"}),
    ("text", {"claim": "１"}),
]


@pytest.mark.parametrize(("name", "intent"), FORGED, ids=[f[0] for f in FORGED])
def test_a_forged_or_stale_intent_changes_nothing_and_raises_nothing(name: str, intent: dict[str, Any]) -> None:
    w = ThreeGameWidget(seed=4)
    if "select" in intent:
        intent = {"select": w.board.view["hand"][0]["id"]}
    before = w.state.copy()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        w.board.intent(intent)
    assert w.state.hands == before.hands and w.state.cards == before.cards and w.state.phase is before.phase
    assert w.state.turn_number == before.turn_number
    refused = w.board.view["feedback"].get("tone") == "refused"
    assert refused or [c for c in caught if c.category.__name__ == "IntentWarning"], "refused, and said so"


def _moved_once(w: ThreeGameWidget) -> None:
    """The learner makes one move (the browser test's policy): a game in progress."""
    view = w.board.view
    if any(d["enabled"] for d in view["decks"]):
        w.taps.draw("troops")
    elif any(c["action"] == "end" for c in view["choices"]):
        w.taps.action("end")
    else:
        card = next(c for c in view["hand"] if c.get("flags"))
        w.taps.card(card["id"])
        w.taps.flag(card["flags"][0])


@pytest.mark.parametrize(
    ("answer", "dealt"),
    [("new-game", True), ("keep-game", False), ("play", False)],
    ids=["discard-deals-the-next-seed", "keep-keeps-the-game", "playing-on-keeps-the-game"],
)
def test_new_game_asks_before_it_discards_a_three_player_game_in_progress(answer: str, dealt: bool) -> None:
    w = ThreeGameWidget(seed=5)
    w.new_game_button.click()  # nothing to lose yet: dealt at once, no question
    assert w.seed == 6 and "question" not in w.board.view
    _moved_once(w)
    history = list(w.state.history)
    for _press in range(2):  # a second press only asks again
        w.new_game_button.click()
        assert w.seed == 6 and w.state.history == history
        assert w.board.view["question"] == w.controller.t("game_widget.new_game.ask")
        assert [c["action"] for c in w.board.view["choices"]][-2:] == ["new-game", "keep-game"]
    if answer == "play":
        _moved_once(w)
    else:
        w.taps.action(answer)
    assert "question" not in w.board.view
    assert all(c["action"] not in ("new-game", "keep-game") for c in w.board.view["choices"])
    assert (w.seed, w.state.history == []) == ((7, True) if dealt else (6, False))
    w.set_lang("zh")
    _moved_once(w)
    w.new_game_button.click()
    assert w.board.view["question"] == w.controller.t("game_widget.new_game.ask") != ""
    assert w.controller.t("game_widget.new_game.ask") != ThreeGameController(("heuristic", "random")).t(
        "game_widget.new_game.ask"
    )
