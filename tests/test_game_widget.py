"""The game widget, driven by taps on its board from Python: whole games, hooks lit == legal moves, claims, coach, log.

The widget must hold no rule logic, so every check compares what its board offers or shows (the
view model the browser draws, tapped through :class:`battleline_lab.widgets.board.Taps` exactly as
``board.js`` taps it) with what the engine says (``legal_moves``, ``apply``, ``explain_claim``,
``describe``).
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

from battleline_lab.core.cards import Card, Tactic, Troop, parse_card, parse_cards
from battleline_lab.core.claims import Reason
from battleline_lab.core.position import ClaimTiming
from battleline_lab.game import (
    Action,
    Claim,
    Deck,
    Deserter,
    Draw,
    EndClaims,
    GameState,
    MudDiscard,
    Options,
    Pass,
    Phase,
    PlayCard,
    Player,
    PlayerView,
    PlayScout,
    RandomBot,
    Redeploy,
    ReturnCard,
    Traitor,
    describe,
    explain_claim,
    legal_moves,
    new_game,
)
from battleline_lab.text.messages import render_analysis
from battleline_lab.widgets.game import GameWidget, action_path
from battleline_lab.widgets.intents import IntentWarning


def phase(w: GameWidget) -> Phase:
    return w.state.phase  # a call: mypy must not narrow the phase across taps


def to_act(w: GameWidget) -> Player:
    return w.state.to_act


def view(w: GameWidget) -> dict[str, Any]:
    return dict(w.board.view)


def hand(w: GameWidget) -> list[Card]:
    """The hand cards drawn (``data-zone="hand"``), in order."""
    return [parse_card(c["id"]) for c in view(w)["hand"]]


def tappable(w: GameWidget) -> list[Card]:
    """The hand cards a tap does something with (the others are drawn aria-disabled)."""
    return [parse_card(c["id"]) for c in view(w)["hand"] if c.get("flags") or c.get("kernel")]


def choices(w: GameWidget) -> set[str]:
    return {c["action"] for c in view(w)["choices"]}


def decks(w: GameWidget) -> set[Deck]:
    return {Deck(d["deck"]) for d in view(w)["decks"] if d["enabled"]}


def board_json(w: GameWidget) -> str:
    return json.dumps({k: v for k, v in view(w).items() if k != "rev"}, ensure_ascii=False, sort_keys=True)


def actions_offered(w: GameWidget) -> set[Action]:
    """Every action the board offers now, found by tapping its hooks as a learner would (never a last tap).

    Only the *shape* of the taps is known here (a flag ends a card's play, Traitor and Redeploy
    need a target first...); which hooks are lit is what the view model says.
    """
    history = len(w.state.history)
    phase = w.state.phase
    out: set[Action] = set()
    for card in tappable(w):
        if phase is Phase.SCOUT_RETURN:
            out.add(ReturnCard(card))
            continue
        w.taps.card(card.notation)
        assert len(w.state.history) == history, "choosing a card must not play it"
        if card is Tactic.SCOUT:
            if "scout" in choices(w):
                out.add(PlayScout())
        elif card in (Tactic.REDEPLOY, Tactic.DESERTER, Tactic.TRAITOR):
            for target in [parse_card(t) for t in view(w)["targets"]]:
                if card is Tactic.DESERTER:
                    out.add(Deserter(target))
                    continue
                w.taps.target(target.notation)
                assert len(w.state.history) == history
                for n in w.taps.legal_flags():
                    if card is Tactic.TRAITOR:
                        assert isinstance(target, Troop)
                        out.add(Traitor(target, n))
                    else:
                        out.add(Redeploy(target, n))
                if card is Tactic.REDEPLOY and "discard" in choices(w):
                    out.add(Redeploy(target, None))
        else:
            out.update(PlayCard(card, n) for n in w.taps.legal_flags())
        w.taps.escape()
        assert not w.selection and w.taps.selected is None
    if phase is Phase.MUD_DISCARD:
        out.update(MudDiscard(parse_card(t)) for t in view(w)["targets"])
    out.update(Draw(d) for d in decks(w))
    if "pass" in choices(w):
        out.add(Pass())
    if "end" in choices(w):
        out.add(EndClaims())
    out.update(Claim(n) for n in w.taps.claimable_flags())
    assert len(w.state.history) == history
    return out


def play_by_clicks(w: GameWidget, seed: int, check_every: int = 1) -> int:
    """Play the learner's side to the end with random choices, by clicks; returns the number of actions."""
    chooser = RandomBot(seed)
    count = 0
    while not w.state.over:
        legal = legal_moves(w.state)
        if count % check_every == 0:
            assert actions_offered(w) == set(legal), f"offered != legal at {w!r}"
        action = chooser.choose(PlayerView(w.state, w.state.to_act), legal)
        before = len(w.state.history)
        w.click_action(action)
        assert w.state.history[before][2] == action
        count += 1
        assert count < 2000
    return count


def test_R16_a_whole_game_by_clicks_against_the_heuristic_bot_buttons_offered_are_the_legal_moves() -> None:
    w = GameWidget(bot="heuristic", seed=11)
    play_by_clicks(w, seed=11)
    state = w.state
    assert state.over and state.end_reason is not None
    banner = html.unescape(w.banner.value)
    if state.winner is not None:
        assert w.player_name(state.winner) in banner and "(R16)" in banner
    assert w.banner.layout.display != "none"
    # no move is offered once the game is over (R16)
    assert not tappable(w) and not decks(w) and not choices(w)
    assert not any(f.get("claim") or f.get("claimable") or f.get("legal") for f in view(w)["flags"])
    # the log is the engine's history, sentence by sentence
    assert len(w.log_entries()) == len(state.history)


@pytest.mark.parametrize("timing", list(ClaimTiming))
def test_R14_every_claim_timing_plays_to_the_end_against_the_random_bot(timing: ClaimTiming) -> None:
    w = GameWidget(bot="random", seed=5, you_start=False, claim_timing=timing)
    play_by_clicks(w, seed=6, check_every=5)
    assert w.state.over


def test_two_players_on_one_screen_the_board_shows_the_player_to_act() -> None:
    w = GameWidget(bot=None, seed=2)
    chooser = RandomBot(3)
    for _ in range(60):
        if w.state.over:
            break
        to_act = w.state.to_act
        assert w.viewer is to_act
        # the hand drawn is the hand of the player to act, never the other one's (R13)
        assert sorted(map(str, hand(w))) == sorted(map(str, w.state.hands[to_act]))
        hidden = set(w.state.hands[to_act.other]) - set(w.state.hands[to_act])
        drawn = board_json(w)
        assert not any(f'"id": "{c.notation}"' in drawn for c in hidden if isinstance(c, Troop))
        w.click_action(chooser.choose(PlayerView(w.state, to_act), legal_moves(w.state)))


def test_the_bot_replies_at_once_and_its_moves_are_highlighted() -> None:
    w = GameWidget(bot="heuristic", seed=4)
    card = hand(w)[0]
    w.click_action(PlayCard(card, 1))
    w.click_action(Draw(Deck.TROOPS))
    assert w.state.to_act is Player.SOUTH and w.state.phase is Phase.PLAY
    bot_plays = [a for _t, p, a in w.state.history if p is Player.NORTH and isinstance(a, PlayCard)]
    assert bot_plays
    lit = [c["id"] for f in view(w)["flags"] for c in [*f["you"], *f["opponent"], *f["env"]] if c.get("highlight")]
    assert bot_plays[-1].card.notation in lit


def test_the_bot_moves_first_when_you_do_not_start() -> None:
    w = GameWidget(bot="heuristic", seed=4, you_start=False)
    assert w.state.first is Player.NORTH and w.state.to_act is Player.SOUTH
    assert [p for _t, p, _a in w.state.history][:1] == [Player.NORTH]


# -- claims and the coach --------------------------------------------------


def place(state: GameState, flag: int, player: Player, cards: str) -> None:
    """Put cards from wherever they are (decks, hands) on a side of a flag, as if played in order."""
    for card in parse_cards(cards):
        for deck in Deck:
            if card in state.decks[deck]:
                i = state.decks[deck].index(card)
                del state.decks[deck][i], state.deck_marks[deck][i]
        for p in Player:
            if card in state.hands[p]:
                state.hands[p].remove(card)
        state.cards[flag - 1][player].append(card)
        if isinstance(card, Troop):
            state.visible_troops.add(card)
        if len(state.cards[flag - 1][player]) == state.size(flag - 1):
            state.clock += 1
            state.complete_at[flag - 1][player] = state.clock
    state.claim_cache.clear()


def seeded_table() -> GameState:
    """RULES.md example 1 at flag 5 (claimable: the best they can reach is a Phalanx) and
    example 3 at flag 2 (not claimable: blue 7-8-9 could still beat red 3-4-5), south to play."""
    state = new_game(0, Options(first=Player.SOUTH))
    place(state, 5, Player.SOUTH, "r3 r4 r5")
    place(state, 5, Player.NORTH, "r6 g6")
    place(state, 2, Player.SOUTH, "y3 y4 y5")
    place(state, 2, Player.NORTH, "b8")
    return state


def test_R12_a_refused_claim_shows_the_engine_proof_and_the_counterexample_on_the_board() -> None:
    w = GameWidget(bot="heuristic", seed=0)
    w.state = seeded_table()
    w.refresh()
    history = len(w.state.history)
    assert 2 not in w.taps.claimable_flags()
    w.taps.flag(2)  # a tap on a flag that cannot be claimed asks why
    assert len(w.state.history) == history, "a refused claim changes nothing"
    analysis = explain_claim(w.state, Player.SOUTH, 2)
    assert not analysis.claimable and analysis.counterexample
    feedback = view(w)["feedback"]
    assert feedback["tone"] == "refused"
    assert feedback["lines"] == [line.split(". ", 1)[1] for line in render_analysis(analysis)]
    assert "(R14)" not in w.message_text()  # the proof is the reason, whatever the step of the turn
    (flag2,) = [f for f in view(w)["flags"] if f["n"] == 2]
    assert [c["id"] for c in flag2["ghosts"]] == [c.notation for c in analysis.counterexample]
    assert all("could still come" in c["label"] for c in flag2["ghosts"])


def test_R14_a_provable_claim_waits_for_the_claim_step_then_the_claim_button_claims() -> None:
    w = GameWidget(bot="heuristic", seed=0)
    w.state = seeded_table()
    w.refresh()
    assert w.taps.claimable_flags() == []  # claims come after playing a card (R14) ...
    w.taps.flag(5)  # ... so a tap on provable flag 5 says so
    assert w.state.claimed[4] is None
    text = w.message_text()
    assert "can be proved, but not claimed now" in text and "(R14)" in text
    assert explain_claim(w.state, Player.SOUTH, 5).explain().splitlines()[-1].split(". ", 1)[1] in text
    w.click_action(PlayCard(hand(w)[0], 9))
    assert w.state.phase is Phase.CLAIM
    assert w.taps.claimable_flags() == [5]
    w.taps.flag(5)
    assert w.state.claimed[4] is Player.SOUTH
    assert "Flag 5 is yours" in w.message_text()
    (flag5,) = [f for f in view(w)["flags"] if f["n"] == 5]
    assert flag5["owner"] == "you" and not flag5.get("claim")


def test_the_coach_lists_claimable_flags_first_with_the_engine_summary_and_explains_the_others() -> None:
    w = GameWidget(bot="heuristic", seed=0)
    w.state = seeded_table()
    w.refresh()
    assert w.coach.value == "" and w.coach.layout.display == "none"
    w.coach_toggle.value = True
    lines = w.coach_lines()
    assert [(n, can) for n, can, _s, _p in lines] == [(5, True), (2, False)]
    for n, _can, summary, proof in lines:
        analysis = explain_claim(w.state, Player.SOUTH, n)
        engine = [line.split(". ", 1)[1] for line in analysis.explain().splitlines()]
        # the summary quotes the step the verdict turns on (a counterexample, a blocker), not a generic one
        assert proof == engine and summary == engine[analysis.steps.index(analysis.deciding_step())]
        assert analysis.deciding_step().reason not in (Reason.LOWER_KINDS, Reason.CAN_CLAIM, Reason.CANNOT_CLAIM)
    coach = html.unescape(w.coach.value)
    assert "Flag 5: you can claim it" in coach and "Flag 2: not yet" in coach
    assert "b9" in coach  # flag 2's counterexample (blue 8-9-10 style completion)
    w.coach_toggle.value = False
    assert w.coach.value == ""


def test_the_coach_says_so_when_nothing_can_be_proved() -> None:
    w = GameWidget(bot="heuristic", seed=0)
    w.coach_toggle.value = True
    assert w.coach_lines() == []
    assert "No flag can be proved now" in html.unescape(w.coach.value)


# -- tactics ---------------------------------------------------------------


def tactics_table() -> GameState:
    """South holds every kind of tactics choice; the table gives each a target."""
    state = new_game(0, Options(first=Player.SOUTH))
    place(state, 1, Player.SOUTH, "r1 r2")
    place(state, 1, Player.NORTH, "b5 b6")
    place(state, 3, Player.NORTH, "g9")
    hand = parse_cards("alexander fog scout redeploy deserter traitor y7")
    for card in state.hands[Player.SOUTH]:
        state.decks[Deck.of(card)].insert(0, card)
        state.deck_marks[Deck.of(card)].insert(0, None)
    state.hands[Player.SOUTH] = []
    for card in hand:
        deck = Deck.of(card)
        i = state.decks[deck].index(card)
        del state.decks[deck][i], state.deck_marks[deck][i]
        state.hands[Player.SOUTH].append(card)
    return state


def test_R18_R28_R29_R30_tactics_choices_are_exactly_the_legal_moves() -> None:
    w = GameWidget(bot=None, seed=0)
    w.state = tactics_table()
    w.refresh()
    assert actions_offered(w) == set(legal_moves(w.state))
    # Traitor: the opponent's troops (R30), then a free own slot
    w.taps.card("traitor")
    assert set(view(w)["targets"]) == {"b5", "b6", "g9"}
    assert "Traitor (R30)" in w.prompt_text()
    w.taps.escape()
    w.click_action("traitor g9 1")
    assert w.state.cards[0][Player.SOUTH][-1] == parse_card("g9")
    assert "traitor g9 1" in [n for _t, _s, n in w.log_entries()]
    w.click_action("draw troops")
    # north (on the same screen) plays a troop, not a tactics card, and draws
    assert w.viewer is Player.NORTH
    troop = next(
        a for a in legal_moves(w.state) if isinstance(a, PlayCard) and isinstance(a.card, Troop) and a.flag == 9
    )
    w.click_action(troop)
    w.click_action("draw troops")
    # R18: south is one tactics card ahead, so no tactics card of south's is offered, troops are
    assert [to_act(w), w.state.tactics_played[Player.SOUTH], w.state.tactics_played[Player.NORTH]] == [
        Player.SOUTH,
        1,
        0,
    ]
    offered = tappable(w)
    assert parse_card("y7") in offered and not any(isinstance(c, Tactic) for c in offered)
    assert actions_offered(w) == set(legal_moves(w.state))


def test_R27_scout_draws_and_returns_by_clicks_and_the_opponent_never_sees_the_returned_card() -> None:
    w = GameWidget(bot=None, seed=0)
    w.state = tactics_table()
    w.refresh()
    w.click_action("scout")
    assert w.state.phase is Phase.SCOUT_DRAW
    assert "Scout" in w.prompt_text()
    for deck in ("troops", "tactics", "troops"):
        assert actions_offered(w) == set(legal_moves(w.state))
        w.click_action(f"draw {deck}")
    assert phase(w) is Phase.SCOUT_RETURN
    assert actions_offered(w) == set(legal_moves(w.state))
    first, second = hand(w)[0], hand(w)[1]
    w.click_action(ReturnCard(first))
    w.click_action(ReturnCard(second))
    # south's own log shows the notation; north (now to act on this one screen) sees "return ?"
    assert w.viewer is Player.NORTH
    notations = [n for _t, _s, n in w.log_entries()]
    assert notations.count("return ?") == 2 and f"return {first.notation}" not in notations
    assert all(first.notation not in s for _t, s, _n in w.log_entries())


def test_R26_the_mud_discard_is_offered_to_its_owner_as_targets_on_the_board() -> None:
    state = new_game(0, Options(first=Player.SOUTH))
    place(state, 4, Player.SOUTH, "r1 r2 r3")
    place(state, 4, Player.NORTH, "b1 b2")
    state.env[3][Player.NORTH].append(Tactic.MUD)
    state.decks[Deck.TACTICS].remove(Tactic.MUD)
    state.deck_marks[Deck.TACTICS].pop()
    state.tactics_played[Player.NORTH] += 1
    state.decks[Deck.TACTICS].remove(Tactic.FOG)  # south played a tactics card too (R18)
    state.deck_marks[Deck.TACTICS].pop()
    state.discards[Player.SOUTH].append(Tactic.FOG)
    state.tactics_played[Player.SOUTH] += 1
    state.refresh_env(3)
    state.complete_at[3][Player.SOUTH] = None
    place(state, 4, Player.SOUTH, "r4")
    place(state, 4, Player.NORTH, "b3 b4")
    for card in parse_cards("redeploy"):
        state.decks[Deck.TACTICS].remove(card)
        state.deck_marks[Deck.TACTICS].pop()
        state.hands[Player.NORTH].append(card)
    state.turn = Player.NORTH
    w = GameWidget(bot=None, seed=0)
    w.state = state
    w.refresh()
    assert w.viewer is Player.NORTH
    w.click_action("redeploy mud 6")  # Mud leaves flag 4: both sides hold 4 cards there (R26)
    assert w.state.phase is Phase.MUD_DISCARD and w.state.to_act is Player.NORTH
    assert "flag 4" in w.prompt_text() and "(R26)" in w.prompt_text()
    assert actions_offered(w) == set(legal_moves(w.state))
    w.click_action("discard b1")
    assert [to_act(w), w.viewer] == [Player.SOUTH, Player.SOUTH]
    assert actions_offered(w) == set(legal_moves(w.state)) == {MudDiscard(c) for c in parse_cards("r1 r2 r3 r4")}


def test_R7_pass_is_offered_only_when_no_troop_can_be_played() -> None:
    state = new_game(0, Options(first=Player.SOUTH))
    for card in list(state.hands[Player.SOUTH]):
        state.hands[Player.SOUTH].remove(card)
        state.decks[Deck.TROOPS].insert(0, card)
        state.deck_marks[Deck.TROOPS].insert(0, None)
    w = GameWidget(bot="heuristic", seed=0)
    w.state = state
    w.refresh()
    assert legal_moves(state) == [Pass()]
    assert "pass" in choices(w) and "R7" in w.prompt_text()
    w.click_action("pass")
    assert any(isinstance(a, Pass) for _t, _p, a in w.state.history)
    w2 = GameWidget(bot="heuristic", seed=0)
    assert "pass" not in choices(w2)


# -- plumbing ---------------------------------------------------------------


def test_action_paths_are_distinct_for_distinct_actions() -> None:
    state = tactics_table()
    moves = legal_moves(state)
    assert len({action_path(a) for a in moves}) == len(moves)


def test_a_click_that_is_not_offered_is_refused_and_changes_nothing() -> None:
    w = GameWidget(bot="heuristic", seed=0)
    with pytest.raises(ValueError, match="not offered"):
        w.click_action("draw troops")  # the play step comes first (R5)
    assert w.state.history == []
    w.choose(("flag", 3))  # a flag before a card
    assert w.state.history == [] and "not offered" in w.message_text()
    with pytest.warns(IntentWarning):
        assert not w.board.intent({"play": ["r1", 3]})  # a stale tap: a card not in the hand
    assert w.state.history == [] and "not offered" in w.message_text()


def test_log_sentences_are_the_engine_descriptions() -> None:
    w = GameWidget(bot="random", seed=9)
    play_by_clicks(w, seed=2, check_every=1000)
    names = {p: w.player_name(p) for p in Player}
    expected = [describe(a, names[p]) for _t, p, a in w.state.history]
    assert [s for _t, s, _n in w.log_entries()] == expected
    turns = [int(t) for t in re.findall(r'data-turn="(\d+)"', w.log_view.value)]
    assert turns == sorted({t for t, _p, _a in w.state.history}, reverse=True)  # newest turn first


def test_the_repr_is_stable_and_new_game_deals_the_next_seed() -> None:
    w = GameWidget(bot="heuristic", seed=12)
    assert repr(w) == "<GameWidget seed 12, south against heuristic: turn 1, south to play>"
    w.restart(13)
    assert w.seed == 13 and w.state.history == [] and w.state.seed == 13
    w.new_game_button.click()
    assert w.seed == 14


def test_the_click_benchmark_runs_a_whole_game_and_reports_every_kind_of_click() -> None:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_game_widget.py"
    spec = importlib.util.spec_from_file_location("bench_game_widget", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    times = bench.play(seed=3, coach=True)
    for kind in ("open", "card", "flag", "draw", "turn end"):
        assert times[kind] and all(t > 0 for t in times[kind]), kind
    n, median, p95, most = bench.summary(times["card"])
    assert n == len(times["card"]) and median <= p95 <= most


def _all_texts(w: GameWidget) -> dict[str, object]:
    """Every text the widget shows: the board's view model, the title, banner, coach, log and buttons."""
    texts: dict[str, object] = {"board": board_json(w)}
    for name in ("title", "banner", "coach", "log_view"):
        texts[name] = getattr(w, name).value
    for name in ("new_game_button", "coach_toggle", "suggest_button", "review_button"):
        button = getattr(w, name)
        texts[name] = (button.description, button.tooltip)
    return texts


def test_the_language_toggle_relabels_everything_live_and_keeps_the_game() -> None:
    from battleline_lab.text.messages import message

    cjk = re.compile("[\u4e00-\u9fff]")
    w = GameWidget(bot="heuristic", seed=0)
    w.state = seeded_table()
    w.refresh()
    w.coach_toggle.value = True
    w.taps.flag(5)  # provable, not yet claimable: a message with the R14 reason and the proof
    english = _all_texts(w)
    history = list(w.state.history)
    assert "bl-lang" in w.lang_toggle._dom_classes and w.lang_toggle.value == "en"

    w.lang_toggle.value = "zh"
    chinese = _all_texts(w)
    assert w.lang == "zh" and list(w.state.history) == history, "the game goes on"
    unchanged = {name for name in english if english[name] == chinese[name]}
    assert unchanged <= {"banner"}, unchanged  # empty
    zh = view(w)
    assert zh["hand"][0]["name"] == message(f"troop.{hand(w)[0].value}", "zh")  # type: ignore[union-attr]
    assert zh["decks"][0]["label"].startswith(message("boardui.deck.troops", "zh"))
    assert zh["flags"][2]["label"] == message("board.flag", "zh", flag=3)
    message_zh = w.message_text()
    assert "5号旗能被证明，但现在还不能宣称夺取" in message_zh and "（R14）" in message_zh and zh["feedback"]["lines"]
    assert "can be proved" not in message_zh and "(R14)" not in message_zh
    for name in ("title", "coach", "log_view"):
        assert cjk.search(str(chinese[name])), name
    for key in ("prompt", "status", "hand_label", "board_label"):
        assert cjk.search(zh[key]), key

    w.set_lang("en")  # from code: the toggle follows, and every text is as it was
    assert w.lang_toggle.value == "en" and _all_texts(w) == english

    card = hand(w)[0]
    w.taps.card(card.notation)  # a card chosen (in the browser), then the language switched: the choice stays
    prompt_en = w.prompt_text()
    w.lang_toggle.value = "zh"
    assert w.taps.selected == card.notation and 9 in w.taps.legal_flags()
    assert w.prompt_text() != prompt_en and cjk.search(w.prompt_text())
    w.taps.flag(9)  # and the next tap plays it
    assert w.state.history[len(history)][2] == PlayCard(card, 9)
    with pytest.raises(ValueError, match="unknown language"):
        w.set_lang("fr")


# -- the coach's odds on the board ---------------------------------------------


def odds_table() -> GameState:
    """Flag 5 claimable (R12: odds 1), flag 2 open with a counterexample, flag 7 claimed (R15), the rest empty."""
    state = seeded_table()
    place(state, 7, Player.SOUTH, "g1 g2 g3")
    place(state, 7, Player.NORTH, "p1 o2 y9")
    state.claimed[6] = Player.SOUTH
    return state


def test_R12_R13_the_coach_shows_each_contested_flags_odds_and_outs_from_the_public_table() -> None:
    from battleline_lab.core.odds import flag_odds, outs
    from battleline_lab.game import to_position
    from battleline_lab.text.messages import kind_name

    w = GameWidget(bot="heuristic", seed=0)
    w.state = odds_table()
    w.refresh()
    assert not any("odds" in f for f in view(w)["flags"]) and "odds_note" not in view(w)  # the coach is off
    w.coach_toggle.value = True
    flags = {f["n"]: f for f in view(w)["flags"]}
    assert sorted(n for n, f in flags.items() if "odds" in f) == [2, 5]  # contested: open, a card on the table
    public = to_position(w.state, Player.SOUTH, hand=False)
    with_hand = to_position(w.state, Player.SOUTH, hand=True)
    for n in (2, 5):
        odds = flags[n]["odds"]
        # exactly what flag_odds says of the public table; the learner's hand changes nothing (R13)
        assert odds["you"] == float(flag_odds(public, n).you) == float(flag_odds(with_hand, n).you)
        assert odds["text"] == f"you {100 * odds['you']:.0f}%"
        best = outs(public, n, "you").kinds[0]
        assert odds["outs"] == f"complete: {kind_name(best.kind, 'en')}"  # your side is complete at both
        assert "counts half" in odds["label"] and f"flag {n}" in odds["label"]
    assert flags[5]["odds"]["you"] == 1.0  # a claimable flag: odds 1 for the claimer
    assert flags[2]["odds"]["you"] < 1.0  # a counterexample exists: never 1
    assert "counts half to each side" in view(w)["odds_note"]
    w.set_lang("zh")
    zh = {f["n"]: f for f in view(w)["flags"]}
    assert zh[5]["odds"]["text"] == "你100%" and "打平各算一半" in zh[5]["odds"]["label"]
    w.coach_toggle.value = False
    assert not any("odds" in f for f in view(w)["flags"])


def test_the_odds_outs_line_names_the_learners_best_kind_and_its_unseen_troops() -> None:
    from battleline_lab.core.odds import outs
    from battleline_lab.game import to_position

    w = GameWidget(bot="heuristic", seed=0)
    state = new_game(0, Options(first=Player.SOUTH))
    place(state, 3, Player.SOUTH, "r8 r9")
    place(state, 3, Player.NORTH, "b2")
    w.state = state
    w.show_coach(True)
    odds = next(f["odds"] for f in view(w)["flags"] if f["n"] == 3)
    best = outs(to_position(w.state, Player.SOUTH, hand=False), 3, "you").kinds[0]
    assert best.kind is not None and best.kind.key == "wedge" and best.count == 2  # r7 and r10 (R9)
    assert odds["outs"] == "Wedge: 2 out(s)"
    assert 0 < odds["you"] < 1
