"""The rules of play: what may happen next (:func:`legal_moves`) and doing it (:func:`apply`).

A turn has three steps in the order the claim timing sets (R5, R14): play a
card (or pass, R7), claim flags, draw.  Steps without a choice are skipped: the
claim step only when the player can prove a claim (R12), the draw step when the
hand is full (R8), both decks are empty, or the player scouted (R27).  A Scout
adds its draws and returns (R27); Mud leaving a flag where a side holds 4 cards
adds that side's discard (R26), chosen by its owner, who may be the player not
on turn (:attr:`GameState.to_act`).

Claims are decided by :func:`battleline_lab.core.decide.decide` (the verdict of
:func:`battleline_lab.core.claims.analyse_claim` without its proof) on the claiming
player's view of the table (R13); nothing else decides a claim.

An illegal action raises an :class:`IllegalMoveError` subclass whose ``rule``
names the rule that forbids it.

>>> from battleline_lab.game.state import new_game, Options, Player
>>> state = new_game(1, Options(first=Player.SOUTH))
>>> moves = legal_moves(state)
>>> moves[0]
PlayCard(card=r9, flag=1)
>>> apply(state, moves[0]).phase
<Phase.DRAW: 'draw'>
>>> apply(state, Pass())
Traceback (most recent call last):
...
battleline_lab.game.rules.WrongPhaseError: 'pass' is not possible now: south must draw a card (R5)
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..core.cards import ALL_CARDS, Card, Tactic, Troop, card_sort_key
from ..core.claims import ClaimAnalysis, analyse_claim
from ..core.decide import Pool, decide, troops_of
from ..core.position import Side
from ..text.messages import message
from .actions import (
    Action,
    Claim,
    Deserter,
    Draw,
    EndClaims,
    MudDiscard,
    Pass,
    PlayCard,
    PlayScout,
    Redeploy,
    ReturnCard,
    Traitor,
)
from .state import HAND_LIMIT, NUM_FLAGS, Deck, EndReason, GameState, Phase, Player
from .view import to_position

__all__ = [
    "ClaimNotProvableError",
    "MalformedActionError",
    "ClaimTimingError",
    "DrawError",
    "FlagClaimedError",
    "GameOverError",
    "IllegalMoveError",
    "LeaderError",
    "MudDiscardError",
    "NoFreeSlotError",
    "NotInHandError",
    "PassNotAllowedError",
    "ScoutReturnError",
    "TacticTargetError",
    "TacticsLimitError",
    "WrongPhaseError",
    "apply",
    "can_play_troop",
    "claimable",
    "explain_claim",
    "legal_moves",
    "score",
]

FLAG_RANGE = range(NUM_FLAGS)

# Enum members read in the hot paths, bound once: ``Phase.PLAY`` is looked up through the Enum
# metaclass, about ten times slower than reading a module constant (CPython 3.11)
_NORTH, _SOUTH = Player.NORTH, Player.SOUTH
_PHASE_PLAY, _PHASE_CLAIM, _PHASE_DRAW, _PHASE_SCOUT_DRAW = Phase.PLAY, Phase.CLAIM, Phase.DRAW, Phase.SCOUT_DRAW
_PHASE_SCOUT_RETURN, _PHASE_MUD_DISCARD, _PHASE_OVER = Phase.SCOUT_RETURN, Phase.MUD_DISCARD, Phase.OVER
_SCOUT_CARD, _REDEPLOY_CARD, _DESERTER_CARD, _TRAITOR_CARD = (
    Tactic.SCOUT,
    Tactic.REDEPLOY,
    Tactic.DESERTER,
    Tactic.TRAITOR,
)

# -- errors -----------------------------------------------------------------


class IllegalMoveError(ValueError):
    """An action the rules forbid now; ``rule`` is the RULES.md id, ``code`` the message key."""

    rule: ClassVar[str] = "R5"

    def __init__(self, action: Action, code: str, rule: str | None = None, **params: Any) -> None:
        self.action = action
        self.code = code
        if rule is not None:
            self.rule = rule  # type: ignore[misc]
        self.params = params
        super().__init__(action, code)  # the text is rendered when asked for (``str``, :meth:`text`)

    def text(self, lang: str = "en") -> str:
        """The whole message in ``lang``, e.g. ``'claim 3' is not possible now: ... (R15)``."""
        reason = message(f"game.illegal.{self.code}", lang, **self.params)
        return message("game.illegal", lang, action=_notation(self.action), text=reason, rule=self.rule)

    def __str__(self) -> str:
        return self.text()

    @property
    def reason(self) -> str:
        """The message without the action, e.g. ``flag 3 is already claimed (R15)``."""
        return message(f"game.illegal.{self.code}", **self.params) + f" ({self.rule})"


class MalformedActionError(IllegalMoveError):
    """Not an action of the game at all: a flag number outside 1-9 (R3), a card that is no card,
    a deck that is no deck; refused before anything else is looked at."""

    rule = "R3"


class WrongPhaseError(IllegalMoveError):
    """Not this kind of action at this point of the turn (R5)."""

    rule = "R5"


class GameOverError(IllegalMoveError):
    """The game has ended (R16)."""

    rule = "R16"


class NotInHandError(IllegalMoveError):
    """The card to play or return is not in the player's hand (R5)."""

    rule = "R5"


class NoFreeSlotError(IllegalMoveError):
    """No free slot on that side of the flag: 3, or 4 with Mud (R6, R25)."""

    rule = "R6"


class PassNotAllowedError(IllegalMoveError):
    """Passing while a troop can be played (R7)."""

    rule = "R7"


class DrawError(IllegalMoveError):
    """Drawing from an empty deck or beyond the hand limit (R5, R8, R27)."""

    rule = "R5"


class ClaimTimingError(IllegalMoveError):
    """Claiming outside the claim step the rules option sets (R14)."""

    rule = "R14"


class ClaimNotProvableError(IllegalMoveError):
    """Claiming a flag without a proof from public information (R12, R13)."""

    rule = "R12"


class FlagClaimedError(IllegalMoveError):
    """Placing a card on, or taking one from, a claimed flag (R15, R19)."""

    rule = "R15"


class TacticsLimitError(IllegalMoveError):
    """A tactics card while ahead of the opponent in tactics played (R18)."""

    rule = "R18"


class LeaderError(IllegalMoveError):
    """A second Leader (R20)."""

    rule = "R20"


class TacticTargetError(IllegalMoveError):
    """A guile card aimed at a card or flag it cannot affect (R28, R29, R30)."""


class ScoutReturnError(IllegalMoveError):
    """A Scout return that is not a card in hand (R27)."""

    rule = "R27"


class MudDiscardError(IllegalMoveError):
    """A Mud-removal discard that is not one of that side's cards at that flag (R26)."""

    rule = "R26"


# -- queries ----------------------------------------------------------------


def can_play_troop(state: GameState, player: Player) -> bool:
    """Whether ``player`` holds a troop and has a free slot anywhere (R7)."""
    if not any(isinstance(c, Troop) for c in state.hands[player]):
        return False
    return any(state.free_slot(i, player) for i in FLAG_RANGE)


def claimable(state: GameState, player: Player) -> tuple[int, ...]:
    """Flags ``player`` can prove a claim on now (R12), from their view of the table (R13).

    Each verdict comes from :func:`battleline_lab.core.decide.decide`, the claim
    decision without the proof (the same verdict as :func:`analyse_claim`).  A
    verdict is remembered per flag until the flag changes; a refusal is also
    kept while the troops of its beating completion are all still unseen
    (unseen troops only ever become fewer, so the refusal still holds).
    """
    out: list[int] = []
    pool: Pool | None = None
    visible = state.visible_troops
    claimed, cards, mud_at = state.claimed, state.cards, state.mud_at
    for i in FLAG_RANGE:
        if claimed[i] is not None:
            continue
        mine = cards[i][player]
        if len(mine) < (4 if mud_at[i] else 3):  # state.size(i), R6, R25
            continue
        env = state.env[i]
        theirs = state.cards[i][player.other]
        first = state.first_complete(i)
        signature = (tuple(mine), tuple(theirs), tuple(env[_NORTH]), tuple(env[_SOUTH]), first)
        cached = state.claim_cache.get((i, player))
        if cached is not None and cached[0] == signature:
            if cached[1]:
                out.append(i + 1)
                continue
            counterexample = cached[2]
            if not counterexample or not any(t in visible for t in counterexample):
                continue
        if pool is None:
            pool = Pool.of_visible(visible)
        verdict, witness = decide(
            signature[0],
            signature[1],
            pool,
            fog=state.fog(i),
            mud=state.mud(i),
            first=None if first is None else first is player,
            flag=i + 1,
        )
        state.claim_cache[(i, player)] = (signature, verdict, troops_of(witness) if witness > 0 else ())
        if verdict:
            out.append(i + 1)
    return tuple(out)


def explain_claim(state: GameState, player: Player, flag: int) -> ClaimAnalysis:
    """Why ``player`` can or cannot claim ``flag`` now, from their view (R12, R13).

    The same proof the engine uses, at any moment (not only in the claim
    step): for a claim button that explains a refusal, or a coach pointing at
    claimable flags.  ``.explain()`` renders it as numbered lines.
    """
    return analyse_claim(to_position(state, player), flag, Side.YOU)


def score(state: GameState) -> dict[Player, int]:
    """Series points of a finished game (R17): 5 to the winner, 1 per flag held to the loser."""
    out = {p: 0 for p in Player}
    if state.winner is not None:
        out[state.winner] = 5
        out[state.winner.other] = len(state.held(state.winner.other))
    return out


# -- legal moves ------------------------------------------------------------

_PLAYS: dict[int, tuple[Card, tuple[PlayCard, ...]]] = {}  # id(card) -> the card's 9 play actions, reused
_RANK: dict[Card, int] = {card: rank for rank, card in enumerate(sorted(ALL_CARDS, key=card_sort_key))}
_DRAW = {d: Draw(d) for d in Deck}
_DECKS = tuple(Deck)  # iterating an Enum class is slow
_CLAIM = {n: Claim(n) for n in range(1, 10)}
_PASS = Pass()
_END = EndClaims()
_SCOUT = PlayScout()


def _plays(card: Card) -> tuple[PlayCard, ...]:
    """``play CARD 1`` ... ``play CARD 9``, built once per card object."""
    entry = _PLAYS.get(id(card))
    if entry is None or entry[0] is not card:
        entry = _PLAYS[id(card)] = (card, tuple(PlayCard(card, n) for n in range(1, 10)))
    return entry[1]


# the guile actions of each card, built once per card object like _PLAYS (a frozen dataclass is slow
# to build, and a bot holding Redeploy or Traitor is offered dozens of them each turn)
_REDEPLOYS: dict[int, tuple[Card, tuple[Redeploy, ...]]] = {}
_TRAITORS: dict[int, tuple[Troop, tuple[Traitor, ...]]] = {}
_DESERTERS: dict[int, tuple[Card, Deserter]] = {}


def _redeploys(card: Card) -> tuple[Redeploy, ...]:
    """``redeploy CARD 1`` ... ``redeploy CARD 9`` (at flag index 0-8), then ``redeploy CARD discard``."""
    entry = _REDEPLOYS.get(id(card))
    if entry is None or entry[0] is not card:
        moves = (*(Redeploy(card, n) for n in range(1, 10)), Redeploy(card, None))
        entry = _REDEPLOYS[id(card)] = (card, moves)
    return entry[1]


def _traitors(troop: Troop) -> tuple[Traitor, ...]:
    """``traitor TROOP 1`` ... ``traitor TROOP 9`` (at flag index 0-8)."""
    entry = _TRAITORS.get(id(troop))
    if entry is None or entry[0] is not troop:
        entry = _TRAITORS[id(troop)] = (troop, tuple(Traitor(troop, n) for n in range(1, 10)))
    return entry[1]


def _deserter(card: Card) -> Deserter:
    """``deserter CARD``."""
    entry = _DESERTERS.get(id(card))
    if entry is None or entry[0] is not card:
        entry = _DESERTERS[id(card)] = (card, Deserter(card))
    return entry[1]


def _tactics_allowed(state: GameState, player: Player) -> bool:
    """R18: no more tactics played so far than the opponent."""
    return state.tactics_played[player] <= state.tactics_played[player.other]


def legal_moves(state: GameState) -> list[Action]:
    """Every legal action of :attr:`GameState.to_act`, in a fixed, documented order.

    Play step: troops (hand in card order x flags 1-9), then tactics in R2
    order (morale and environment cards x flags, Scout, Redeploy, Deserter,
    Traitor, each with targets in flag order), then ``pass`` if R7 allows it.
    Claim step: ``claim N`` in flag order, then ``end``.  Draws: troops, then
    tactics.  Scout returns and Mud discards: the candidate cards in card order.
    """
    phase = state.phase
    if phase is _PHASE_PLAY:
        return _play_moves(state)
    if phase is _PHASE_CLAIM:
        claims: list[Action] = [_CLAIM[n] for n in state.claimable_now or ()]
        claims.append(_END)
        return claims
    if phase is _PHASE_DRAW or phase is _PHASE_SCOUT_DRAW:
        return [_DRAW[d] for d in _DECKS if state.decks[d]]
    if phase is _PHASE_SCOUT_RETURN:
        return [ReturnCard(c) for c in sorted(state.hands[state.turn], key=card_sort_key)]
    if phase is _PHASE_MUD_DISCARD:
        player, i = state.pending_discards[0]
        return [MudDiscard(c) for c in sorted(state.cards[i][player], key=card_sort_key)]
    return []


def _play_moves(state: GameState) -> list[Action]:
    player = state.turn
    other = player.other
    hand = sorted(state.hands[player], key=_RANK.__getitem__)
    claimed = state.claimed
    sizes = state.mud_at
    cards = state.cards
    open_flags = [i for i in FLAG_RANGE if claimed[i] is None]
    free = [i for i in open_flags if len(cards[i][player]) < (4 if sizes[i] else 3)]
    moves: list[Action] = []
    troops = [c for c in hand if isinstance(c, Troop)]
    for troop in troops:
        entry = _PLAYS.get(id(troop))
        plays = entry[1] if entry is not None and entry[0] is troop else _plays(troop)
        moves.extend(map(plays.__getitem__, free))
    troop_playable = bool(troops and free)
    if _tactics_allowed(state, player):
        for card in hand:
            if not isinstance(card, Tactic):
                continue
            if card.is_wild:
                if card.is_leader and state.leader_played[player]:
                    continue
                plays = _plays(card)
                moves.extend([plays[i] for i in free])
            elif card.is_environment:
                plays = _plays(card)
                moves.extend([plays[i] for i in open_flags])
            elif card is _SCOUT_CARD:
                moves.append(_SCOUT)
            elif card is _REDEPLOY_CARD:
                for i in open_flags:
                    for target in state.cards[i][player]:
                        redeploys = _redeploys(target)
                        moves.extend([redeploys[j] for j in free if j != i])
                        moves.append(redeploys[9])
                    for env in state.env[i][player]:
                        redeploys = _redeploys(env)
                        moves.extend([redeploys[j] for j in open_flags if j != i])
                        moves.append(redeploys[9])
            elif card is _DESERTER_CARD:
                for i in open_flags:
                    moves.extend(map(_deserter, state.cards[i][other]))
                    moves.extend(map(_deserter, state.env[i][other]))
            elif card is _TRAITOR_CARD:
                for i in open_flags:
                    for target in state.cards[i][other]:
                        if isinstance(target, Troop):
                            traitors = _traitors(target)
                            moves.extend([traitors[j] for j in free])
    if not troop_playable:
        moves.append(_PASS)
    return moves


# -- applying actions -------------------------------------------------------

_PHASE_OF: dict[type, tuple[Phase, ...]] = {
    PlayCard: (Phase.PLAY,),
    PlayScout: (Phase.PLAY,),
    Redeploy: (Phase.PLAY,),
    Deserter: (Phase.PLAY,),
    Traitor: (Phase.PLAY,),
    Pass: (Phase.PLAY,),
    Claim: (Phase.CLAIM,),
    EndClaims: (Phase.CLAIM,),
    Draw: (Phase.DRAW, Phase.SCOUT_DRAW),
    ReturnCard: (Phase.SCOUT_RETURN,),
    MudDiscard: (Phase.MUD_DISCARD,),
}


def _notation(action: object) -> str:
    notation = getattr(action, "notation", None)
    return notation if isinstance(notation, str) else repr(action)


def _is_flag(value: object) -> bool:
    return type(value) is int and 1 <= value <= NUM_FLAGS  # not bool, not 0 (it once meant flag 9)


def _malformed(action: object) -> MalformedActionError | None:
    """Why ``action`` is not a well-formed action of the game, or None (checked before the rules)."""
    kind = type(action)
    if kind not in _PHASE_OF:
        return MalformedActionError(action, "not_an_action", rule="R5")  # type: ignore[arg-type]
    for name in ("flag", "to"):
        value = getattr(action, name, None)
        if value is None and name == "to" and kind is Redeploy:
            continue  # Redeploy to None discards the card (R28)
        if hasattr(action, name) and not _is_flag(value):
            return MalformedActionError(action, "bad_flag", flag=repr(value))  # type: ignore[arg-type]
    for name in ("card", "target"):
        if name in getattr(kind, "__dataclass_fields__", {}):
            value = getattr(action, name)
            wanted = Troop if kind is Traitor else (Troop, Tactic)
            if not isinstance(value, wanted):
                return MalformedActionError(action, "bad_card", card=repr(value), rule="R5")  # type: ignore[arg-type]
    if kind is Draw and not isinstance(action.deck, Deck):  # type: ignore[attr-defined]
        return MalformedActionError(action, "bad_deck", deck=repr(action.deck), rule="R5")  # type: ignore[arg-type,attr-defined]
    return None


def apply(state: GameState, action: Action) -> GameState:
    """Do ``action`` for :attr:`GameState.to_act`, changing ``state`` in place; returns it.

    Raises an :class:`IllegalMoveError` subclass (naming the rule) and leaves
    the state unchanged when the action is not legal now.
    """
    problem = _malformed(action)
    if problem is not None:
        raise problem
    if state.phase is _PHASE_OVER:
        raise GameOverError(action, "game_over")
    if state.phase not in _PHASE_OF[type(action)]:
        if isinstance(action, Claim):
            raise ClaimTimingError(
                action, "claim_timing", timing=message(f"game.timing.{state.options.claim_timing.value}")
            )
        raise WrongPhaseError(
            action, "phase", expected=message(f"game.expect.{state.phase.value}", player=_name(state))
        )
    player = state.to_act
    if isinstance(action, PlayCard):
        _apply_play(state, player, action)
    elif isinstance(action, PlayScout):
        _apply_scout(state, player, action)
    elif isinstance(action, Redeploy):
        _apply_redeploy(state, player, action)
    elif isinstance(action, Deserter):
        _apply_deserter(state, player, action)
    elif isinstance(action, Traitor):
        _apply_traitor(state, player, action)
    elif isinstance(action, Pass):
        if can_play_troop(state, player):
            raise PassNotAllowedError(action, "pass")
        state.passed = True
        state.history.append((state.turn_number, player, action))
        _advance(state)
    elif isinstance(action, Claim):
        _apply_claim(state, player, action)
    elif isinstance(action, EndClaims):
        state.history.append((state.turn_number, player, action))
        _advance(state)
    elif isinstance(action, Draw):
        _apply_draw(state, player, action)
    elif isinstance(action, ReturnCard):
        _apply_return(state, player, action)
    else:
        _apply_mud_discard(state, player, action)
    return state


def _name(state: GameState, player: Player | None = None) -> str:
    return message(f"game.player.{(player or state.to_act).value}")


def _check_open(state: GameState, action: Action, flag: int) -> int:
    i = flag - 1
    owner = state.claimed[i]
    if owner is not None:
        raise FlagClaimedError(action, "flag_claimed", flag=flag, owner=_name(state, owner))
    return i


def _check_tactic(state: GameState, player: Player, action: Action, card: Tactic) -> None:
    if card not in state.hands[player]:
        raise NotInHandError(action, "not_in_hand", card=card.notation)
    if not _tactics_allowed(state, player):
        raise TacticsLimitError(
            action,
            "tactics_limit",
            mine=state.tactics_played[player],
            theirs=state.tactics_played[player.other],
        )


def _locate(state: GameState, card: Card) -> tuple[int, Player, bool] | None:
    """(flag index, side, is environment) of a card on the table, or None."""
    for i in FLAG_RANGE:
        for p in Player:
            if card in state.cards[i][p]:
                return i, p, False
            if card in state.env[i][p]:
                return i, p, True
    return None


def _restamp(state: GameState, i: int, actor: Player) -> None:
    """Completion times at flag ``i`` after a change (R11 and its Ruling).

    A side is complete from the moment it reaches the required size and stays
    complete, with its time, while it holds enough cards; below the size it is
    incomplete again.  Sides completing through one action are stamped the
    actor's opponent first: the actor completed last.
    """
    size = state.size(i)
    stamps = state.complete_at[i]
    for p in (actor.other, actor):
        if len(state.cards[i][p]) >= size:
            if stamps[p] is None:
                state.clock += 1
                stamps[p] = state.clock
        else:
            stamps[p] = None


def _take_tactic(state: GameState, player: Player, card: Tactic) -> None:
    state.hands[player].remove(card)
    state.tactics_played[player] += 1
    if card.is_leader:
        state.leader_played[player] = True


def _play_guile(state: GameState, player: Player, action: Action, card: Tactic) -> None:
    """A guile tactic is played: out of the hand, onto its player's discards (R27-R30, R31), into the record."""
    _take_tactic(state, player, card)
    state.discards[player].append(card)
    state.history.append((state.turn_number, player, action))


def _lift(state: GameState, i: int, owner: Player, card: Card, is_env: bool) -> None:
    """Take ``card`` off ``owner``'s side of flag ``i``: a formation card or an environment card (R28, R29)."""
    if is_env:
        assert isinstance(card, Tactic)
        state.env[i][owner].remove(card)
        state.refresh_env(i)
    else:
        state.cards[i][owner].remove(card)


def _apply_play(state: GameState, player: Player, action: PlayCard) -> None:
    card = action.card
    if isinstance(card, Tactic) and not (card.is_wild or card.is_environment):
        raise WrongPhaseError(action, "guile_notation", card=card.notation)
    if card not in state.hands[player]:
        raise NotInHandError(action, "not_in_hand", card=card.notation)
    i = _check_open(state, action, action.flag)
    if isinstance(card, Tactic):
        _check_tactic(state, player, action, card)
        if card.is_leader and state.leader_played[player]:
            raise LeaderError(action, "second_leader", card=card.notation)
    if isinstance(card, Tactic) and card.is_environment:
        _take_tactic(state, player, card)
        state.env[i][player].append(card)
        state.refresh_env(i)
        _restamp(state, i, player)
    else:
        if len(state.cards[i][player]) >= state.size(i):
            raise NoFreeSlotError(action, "no_slot", flag=action.flag, size=state.size(i))
        if isinstance(card, Tactic):
            _take_tactic(state, player, card)
        else:
            state.hands[player].remove(card)
            state.visible_troops.add(card)
        state.cards[i][player].append(card)
        _restamp(state, i, player)
    state.history.append((state.turn_number, player, action))
    _advance(state)


def _apply_scout(state: GameState, player: Player, action: PlayScout) -> None:
    _check_tactic(state, player, action, Tactic.SCOUT)
    _play_guile(state, player, action, Tactic.SCOUT)
    state.scouted = True
    # Ruling (R27): with fewer than 3 cards left in the decks, draw what there is
    state.scout_draws = min(3, sum(len(d) for d in state.decks.values()))
    if state.scout_draws:
        state.phase = Phase.SCOUT_DRAW
    else:
        _start_returns(state, player)


def _start_returns(state: GameState, player: Player) -> None:
    # Ruling G2: return cards until the hand is back to the limit, at most 2 (R8, R27)
    state.scout_returns = max(0, min(2, len(state.hands[player]) - HAND_LIMIT))
    if state.scout_returns:
        state.phase = Phase.SCOUT_RETURN
    else:
        _advance(state)


def _apply_redeploy(state: GameState, player: Player, action: Redeploy) -> None:
    _check_tactic(state, player, action, Tactic.REDEPLOY)
    where = _locate(state, action.target)
    if where is None or where[1] is not player:
        raise TacticTargetError(action, "redeploy_target", rule="R28", card=action.target.notation)
    i, _, is_env = where
    _check_open(state, action, i + 1)
    j: int | None = None
    if action.to is not None:
        j = _check_open(state, action, action.to)
        if j == i:
            raise TacticTargetError(action, "redeploy_same", rule="R28", flag=action.to)
        if not is_env and len(state.cards[j][player]) >= state.size(j):
            raise NoFreeSlotError(action, "no_slot", flag=action.to, size=state.size(j))
    _play_guile(state, player, action, Tactic.REDEPLOY)
    card = action.target
    _lift(state, i, player, card, is_env)
    if j is None:
        state.discards[player].append(card)
    elif is_env:
        assert isinstance(card, Tactic)
        state.env[j][player].append(card)
        state.refresh_env(j)
    else:
        state.cards[j][player].append(card)
    _after_removal(state, player, i, card)
    if j is not None:
        _restamp(state, j, player)
    _continue_play(state)


def _apply_deserter(state: GameState, player: Player, action: Deserter) -> None:
    _check_tactic(state, player, action, Tactic.DESERTER)
    where = _locate(state, action.target)
    if where is None or where[1] is not player.other:
        raise TacticTargetError(action, "deserter_target", rule="R29", card=action.target.notation)
    i, owner, is_env = where
    _check_open(state, action, i + 1)
    _play_guile(state, player, action, Tactic.DESERTER)
    card = action.target
    _lift(state, i, owner, card, is_env)
    state.discards[owner].append(card)  # R31: the victim goes to its owner's discards
    _after_removal(state, player, i, card)
    _continue_play(state)


def _apply_traitor(state: GameState, player: Player, action: Traitor) -> None:
    _check_tactic(state, player, action, Tactic.TRAITOR)
    card = action.target
    where = _locate(state, card)
    if not isinstance(card, Troop) or where is None or where[1] is not player.other or where[2]:
        raise TacticTargetError(action, "traitor_target", rule="R30", card=card.notation)
    i = where[0]
    _check_open(state, action, i + 1)
    j = _check_open(state, action, action.to)
    if len(state.cards[j][player]) >= state.size(j):
        raise NoFreeSlotError(action, "no_slot", flag=action.to, size=state.size(j))
    _play_guile(state, player, action, Tactic.TRAITOR)
    state.cards[i][player.other].remove(card)
    state.cards[j][player].append(card)
    _restamp(state, i, player)
    _restamp(state, j, player)
    _continue_play(state)


def _after_removal(state: GameState, actor: Player, i: int, card: Card) -> None:
    """A card left flag ``i``: completion times, and the Mud-removal discards (R26)."""
    _restamp(state, i, actor)
    if card is Tactic.MUD:
        size = state.size(i)
        for p in (actor, actor.other):
            if len(state.cards[i][p]) > size:
                state.pending_discards.append((p, i))


def _continue_play(state: GameState) -> None:
    if state.pending_discards:
        state.phase = Phase.MUD_DISCARD
    else:
        _advance(state)


def _apply_mud_discard(state: GameState, player: Player, action: MudDiscard) -> None:
    _, i = state.pending_discards[0]
    if action.card not in state.cards[i][player]:
        raise MudDiscardError(action, "mud_discard", card=action.card.notation, flag=i + 1)
    state.pending_discards.pop(0)
    state.cards[i][player].remove(action.card)
    state.discards[player].append(action.card)
    state.history.append((state.turn_number, player, action))
    _restamp(state, i, player)
    _continue_play(state)


def _apply_claim(state: GameState, player: Player, action: Claim) -> None:
    if action.flag not in (state.claimable_now or ()):
        i = action.flag - 1
        if state.claimed[i] is not None:
            raise FlagClaimedError(action, "flag_claimed", flag=action.flag, owner=_name(state, state.claimed[i]))
        raise ClaimNotProvableError(action, "not_provable", flag=action.flag)
    state.claimed[action.flag - 1] = player
    state.acted = True
    state.history.append((state.turn_number, player, action))
    if _check_victory(state, player):
        return
    state.claimable_now = tuple(n for n in state.claimable_now or () if n != action.flag)
    if not state.claimable_now:
        _advance(state)


def _r16(state: GameState, player: Player) -> EndReason | None:
    """R16: 3 adjacent flags (Breakthrough) or any 5 flags (Envelopment)."""
    held = set(state.held(player))
    if any({n, n + 1, n + 2} <= held for n in range(1, 8)):
        return EndReason.BREAKTHROUGH
    if len(held) >= 5:
        return EndReason.ENVELOPMENT
    return None


def _check_victory(state: GameState, player: Player) -> bool:
    """R16: the game ends at once when ``player``'s flags win it."""
    reason = _r16(state, player)
    if reason is not None:
        _finish(state, player, reason)
        return True
    return False


def _finish(state: GameState, winner: Player | None, reason: EndReason) -> None:
    state.winner = winner
    state.end_reason = reason
    state.phase = Phase.OVER
    state.claimable_now = None


def _apply_draw(state: GameState, player: Player, action: Draw) -> None:
    deck = state.decks[action.deck]
    if not deck:
        raise DrawError(action, "deck_empty", deck=message(f"game.deck.{action.deck.value}"))
    if state.phase is _PHASE_DRAW and len(state.hands[player]) >= HAND_LIMIT:
        raise DrawError(action, "hand_full", rule="R8", limit=HAND_LIMIT)
    state.hands[player].append(deck.pop())
    state.deck_marks[action.deck].pop()
    state.acted = True
    state.history.append((state.turn_number, player, action))
    if state.phase is _PHASE_SCOUT_DRAW:
        state.scout_draws -= 1
        if state.scout_draws <= 0 or not any(state.decks.values()):
            _start_returns(state, player)
    else:
        _advance(state)


def _apply_return(state: GameState, player: Player, action: ReturnCard) -> None:
    card = action.card
    if card not in state.hands[player]:
        raise ScoutReturnError(action, "not_in_hand", card=card.notation)
    state.hands[player].remove(card)
    deck = Deck.of(card)
    state.decks[deck].append(card)
    state.deck_marks[deck].append(player)
    state.history.append((state.turn_number, player, action))
    state.scout_returns -= 1
    if state.scout_returns <= 0:
        _advance(state)


# -- turn structure ---------------------------------------------------------


def _can_draw(state: GameState) -> bool:
    return not state.scouted and len(state.hands[state.turn]) < HAND_LIMIT and any(state.decks.values())


def _advance(state: GameState) -> None:
    """Leave the current step and enter the next one that needs a decision."""
    state.step += 1
    steps = state.steps
    while True:
        if state.step >= len(steps):
            _end_turn(state)
            if state.phase is _PHASE_OVER:
                return
        phase = steps[state.step]
        if phase is _PHASE_PLAY:
            state.phase = _PHASE_PLAY
            return
        if phase is _PHASE_CLAIM:
            flags = claimable(state, state.turn)
            if flags:
                state.phase = _PHASE_CLAIM
                state.claimable_now = flags
                return
        elif _can_draw(state):
            state.phase = _PHASE_DRAW
            return
        state.step += 1


def _end_turn(state: GameState) -> None:
    # Ruling G5: two idle turns in a row (a pass, with nothing claimed or drawn) end a blocked game
    state.idle_streak = state.idle_streak + 1 if state.passed and not state.acted else 0
    if state.idle_streak >= 2:
        _blocked_end(state)
        return
    state.turn = state.turn.other
    state.turn_number += 1
    state.step = 0
    state.scouted = state.passed = state.acted = False
    state.claimable_now = None


def _blocked_end(state: GameState) -> None:
    """Ruling G5: nobody can move on; flags go as the formations stand, then R16, then majority."""
    from ..core.formations import evaluate

    for i in FLAG_RANGE:
        if state.claimed[i] is not None:
            continue
        size = state.size(i)
        complete = [p for p in Player if len(state.cards[i][p]) >= size]
        if len(complete) == 1:
            state.claimed[i] = complete[0]
        elif len(complete) == 2:
            fog, mud = state.fog(i), state.mud(i)
            north = evaluate(state.cards[i][Player.NORTH], fog=fog, mud=mud).strength
            south = evaluate(state.cards[i][Player.SOUTH], fog=fog, mud=mud).strength
            if north != south:
                state.claimed[i] = Player.NORTH if north > south else Player.SOUTH
            else:
                state.claimed[i] = state.first_complete(i)
    winners = [p for p in Player if _r16(state, p) is not None]
    if len(winners) == 1:
        _finish(state, winners[0], EndReason.BLOCKED)
        return
    held_north, held_south = len(state.held(Player.NORTH)), len(state.held(Player.SOUTH))
    if held_north == held_south:
        _finish(state, None, EndReason.BLOCKED_DRAW)
    else:
        _finish(state, Player.NORTH if held_north > held_south else Player.SOUTH, EndReason.BLOCKED)
