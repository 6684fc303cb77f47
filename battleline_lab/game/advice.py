"""The coach's suggestion: the strongest bot's play, and why, in words: the flag's odds and outs.

:func:`advise` asks the strongest bot (``master``) what it would play for the player of a
:class:`~battleline_lab.game.view.PlayerView` (only what that player sees), and measures what the
move does with :mod:`battleline_lab.core.odds`: the chance of winning the flag it changes most (its
:func:`~battleline_lab.core.odds.flag_odds` before and after, public information only, R13), and at
that flag each side's *outs* after the move (:func:`~battleline_lab.core.odds.outs`: the strongest
formation kind still reachable, its best sum and how many unseen troops complete it).
:func:`advice_text` says it in sentences of the message catalogue, in English or Chinese, with
cards named in words (``red 6``), never in notation.

The hidden cards never matter: the table after the move is the player's own view with the move
applied (the opponent's hand and the decks do not enter a claim or an odds figure, R13).

>>> from battleline_lab.game.state import new_game, Player, Options
>>> from battleline_lab.game.rules import legal_moves
>>> state = new_game(5, Options(first=Player.SOUTH))
>>> view = PlayerView(state, Player.SOUTH)
>>> advice = advise(view, legal_moves(state))
>>> advice.action in legal_moves(state), advice.flag is not None
(True, True)
>>> advice_text(view, advice)[0].startswith("The master's suggestion (the strongest bot): South plays")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ..core.cards import Card, Tactic, Troop
from ..core.formations import FormationKind, strength
from ..core.odds import FlagOdds, SideOuts, flag_odds, outs
from ..core.position import ClaimTiming, Position, Side
from .actions import Action, Deserter, PlayCard, Redeploy, Traitor
from .bots import make_bot
from .expert import determinize
from .master import Judgment
from .rules import apply, claimable
from .sampler import samples_for
from .view import PlayerView, to_position

__all__ = ["ADVISER", "Advice", "advice_text", "advise", "explain", "wait_lines", "window_guile", "window_lines"]

ADVISER = "master"  # the strongest bot (docs/game.md: master beats the expert)
SHOWN_OUTS = 4  # troops named in an outs sentence; the rest are counted ("and 3 more")


@dataclass(frozen=True)
class Advice:
    """The strongest bot's play for a player, and what it does to the odds.

    ``flag`` is the flag the move changes most (the flag it is played to, for a card play), None
    when it changes no flag (a Scout, a pass); ``before``/``after`` are that flag's odds
    (:class:`~battleline_lab.core.odds.FlagOdds`, the player being ``you``) before and after the move,
    ``mine``/``theirs`` each side's outs there after it; ``then_claim`` the flags the player can
    prove after the move that they could not before (R12); ``unseen`` the number of unseen troops
    (R13) after the move; ``cards`` the formation cards on each side of ``flag`` after it (yours,
    the opponent's); ``searched`` whether the master's play-outs chose the move over its rules'
    (``MasterBot.reason == "searched"``), which is why it may prefer a move that lowers a flag's odds;
    ``passed_over`` the move its rules chose and the play-outs passed over (None unless ``searched``).
    """

    action: Action
    bot: str
    flag: int | None
    before: FlagOdds | None
    after: FlagOdds | None
    mine: SideOuts | None
    theirs: SideOuts | None
    then_claim: tuple[int, ...]
    unseen: int
    cards: tuple[int, int] = (0, 0)
    searched: bool = False
    passed_over: Action | None = None


def _flags_touched(action: Action, view: PlayerView) -> tuple[int, ...]:
    """The flags a move can change (in the order they are considered)."""
    if isinstance(action, PlayCard):
        return (action.flag,)
    if isinstance(action, (Redeploy, Deserter, Traitor)):
        me = view.player
        owner = me if isinstance(action, Redeploy) else me.other
        source = tuple(
            n
            for n in range(1, 10)
            if action.target in view.flag_cards(n, owner) or action.target in view.flag_env(n, owner)
        )
        to = getattr(action, "to", None)
        return source + ((to,) if to is not None and to not in source else ())
    return ()


def advise(view: PlayerView, legal: Sequence[Action], *, seed: int = 0) -> Advice:
    """The strongest bot's play for ``view.player`` now, with the odds and outs that explain it."""
    adviser = make_bot(ADVISER, seed)
    action = adviser.choose(view, legal)
    searched = getattr(adviser, "reason", "") == "searched"
    advice = explain(view, action, searched=searched)
    prior = getattr(adviser, "prior", None)
    if searched and prior is not None and prior != action:
        advice = replace(advice, passed_over=prior)
    return advice


def explain(view: PlayerView, action: Action, bot: str = ADVISER, *, searched: bool = False) -> Advice:
    """What ``action`` (a legal move of ``view.player``) does to the odds and outs of the flag it
    changes most, and which flags it lets the player prove (R12); ``bot`` names who suggests it,
    ``searched`` says its play-outs chose it (see :class:`Advice`)."""
    before_pos = view.position()
    table = determinize(view, random.Random(0))  # the hidden cards change no claim and no odds (R13)
    proved = set(claimable(table, view.player))
    apply(table, action)
    after_pos = to_position(table, view.player)
    then_claim = tuple(n for n in claimable(table, view.player) if n not in proved) if not table.over else ()
    flag, before, after = _most_changed(_flags_touched(action, view), before_pos, after_pos)
    mine = theirs = None
    cards = (0, 0)
    if flag is not None:
        mine, theirs = outs(after_pos, flag, Side.YOU), outs(after_pos, flag, Side.OPPONENT)
        state = after_pos.flag(flag)
        cards = (len(state.formation_cards(Side.YOU)), len(state.formation_cards(Side.OPPONENT)))
    unseen = len(after_pos.unseen_troops())
    return Advice(action, bot, flag, before, after, mine, theirs, then_claim, unseen, cards, searched)


def _most_changed(
    flags: tuple[int, ...], before: Position, after: Position
) -> tuple[int | None, FlagOdds | None, FlagOdds | None]:
    best: tuple[int | None, FlagOdds | None, FlagOdds | None] = (None, None, None)
    change = -1.0
    for n in flags:
        b, a = flag_odds(before, n), flag_odds(after, n)
        d = abs(float(a.you) - float(b.you))
        if d > change:
            best, change = (n, b, a), d
    return best


def _percent(p: Fraction | float) -> str:
    """``p`` as a percentage for a sentence: whole, or one decimal near the ends, so that only a
    certainty reads 100% (a flag with a counterexample is never 1) and only a lost flag 0%.

    >>> [_percent(x) for x in (Fraction(1, 2), Fraction(1), Fraction(0), 0.9976, 0.0004, 0.9999)]
    ['50', '100', '0', '99.8', '0.1', '99.9']
    """
    value = 100 * float(p)
    whole = round(value)
    if 0 < value < 100 and whole in (0, 100):
        return f"{min(max(value, 0.1), 99.9):.1f}"
    return str(whole)


def _troop_words(troop: Troop, lang: str) -> str:
    from ..text.messages import message

    return message("expert.coach.troop", lang, colour=message(f"colour.{troop.colour.value}", lang), value=troop.value)


def _outs_line(side: SideOuts, cards: int, unseen: int, lang: str) -> str:
    """One side's outs at the flag in a sentence: complete, its best hope and its troops, or none."""
    from ..text.messages import kind_name, message

    who = "you" if side.side is Side.YOU else "opponent"
    if side.claimed:
        return ""
    if cards == 0:
        return message(f"coach.outs.empty.{who}", lang, unseen=unseen)
    if not side.kinds:
        return message(f"coach.outs.none.{who}", lang)
    top = side.kinds[0]
    kind = kind_name(top.kind, lang)
    if side.missing == 0:
        return message(f"coach.outs.complete.{who}", lang, kind=kind, best=top.best)
    shown = [_troop_words(t, lang) for t in top.troops[:SHOWN_OUTS]]
    troops = message("review.list_sep", lang).join(shown)
    if top.count > SHOWN_OUTS:
        troops += message("coach.outs.more", lang, count=top.count - SHOWN_OUTS)
    key = "coach.outs.sum" if top.kind is None else "coach.outs.kind"
    return message(f"{key}.{who}", lang, kind=kind, best=top.best, count=top.count, unseen=unseen, troops=troops)


def advice_text(view: PlayerView, advice: Advice, lang: str = "en") -> list[str]:
    """Why the strongest bot suggests its play, in ``lang``: the move, what it does at its flag, the
    flag's odds before and after it (R13, R11 for ties), each side's outs there, the claims it opens."""
    from ..text.messages import message
    from .actions import describe
    from .expert import effect_lines

    name = message(f"review.player.{view.player.value}", lang)
    bot = message(f"review.widget.bot.{advice.bot}", lang)
    lines = [message("coach.play", lang, bot=bot, move=describe(advice.action, name, lang))]
    lines.extend(effect_lines(view, advice.action, lang))
    if advice.flag is None or advice.before is None or advice.after is None:
        lines.append(message("coach.no_flag", lang))
    else:
        b, a = _percent(advice.before.you), _percent(advice.after.you)
        change = float(a) - float(b)
        key = "coach.odds.up" if change > 0 else "coach.odds.down" if change < 0 else "coach.odds.same"
        extra: dict[str, int] = {}
        if key == "coach.odds.down" and advice.searched:
            # play-outs chose it (sampler.py), on as many deals as the claim timing gives a search
            key, extra = "coach.odds.down_searched", {"samples": samples_for(view.options.claim_timing)}
        lines.append(message(key, lang, flag=advice.flag, before=b, after=a, unseen=advice.unseen, **extra))
        for side, cards in zip((advice.mine, advice.theirs), advice.cards):
            if side is not None:
                line = _outs_line(side, cards, advice.unseen, lang)
                if line:
                    lines.append(line)
        lines.append(message("coach.tie_rule", lang))
    if advice.then_claim:
        flags = message("review.list_sep", lang).join(map(str, advice.then_claim))
        lines.append(message("review.coach.then_claim", lang, flags=flags))
    lines.extend(window_lines(view, advice, lang))
    return lines


def _kind(cards: Sequence[Card], view: PlayerView, flag: int) -> FormationKind | None:
    """The kind of a complete side (None under Fog, where only the sum counts, R24)."""
    kind, _total = strength(cards, fog=view.fog(flag), mud=view.mud(flag))
    return None if kind < 0 else FormationKind(kind)


def window_lines(view: PlayerView, advice: Advice, lang: str = "en") -> list[str]:
    """The claim window, when it decides the move, from public information only (R13):

    * a Deserter or Traitor that breaks a finished formation of the opponent's that nothing of ours
      can beat (they would claim the flag: they can prove it, R12, R29, R30);
    * a Fog or Mud on such a flag that makes it winnable again: under Fog only the sums count (R24),
      under Mud their three cards are no longer a finished formation (R25);
    * with claims at the start of the turn (R14), a side of ours the move completes (a card played,
      a Redeploy or a Traitor, R28, R30) and lets us prove (R12), which stands through the
      opponent's turn before the claim: the guile cards that could still break it there are named
      (:func:`window_guile`), nothing when there are none;
    * with claims at the start of the turn, a side of ours that the rules' move (``advice.passed_over``)
      would have completed and let us prove, when the play-outs chose a move that puts no card on
      that flag: why finishing now was passed over (the same guile cards, :func:`wait_lines`).
    """
    from ..text.messages import kind_name, message

    action = advice.action
    lines: list[str] = []
    waited = advice.passed_over
    placed_now = _placed(action)
    if isinstance(waited, PlayCard) and (placed_now is None or placed_now[1] != waited.flag):
        lines.extend(wait_lines(view, waited, lang))  # the move does not finish that flag another way
    if isinstance(action, (Deserter, Traitor)):
        judgment = Judgment(view)
        position = view.position()
        for n, fj in judgment.flags.items():
            # the judge's "lost" is an estimate (a Battalion's sum is taken at the mean of the troops
            # left); the sentence says they would claim, so it needs their proof: no completion of
            # ours from the unseen troops wins the flag (R12, R13)
            if fj.made and fj.lost and action.target in fj.theirs and flag_odds(position, n).you == 0:
                kind = kind_name(_kind(fj.theirs, view, n), lang)
                lines.append(message("coach.window.break", lang, flag=n, kind=kind))
                break
    if isinstance(action, PlayCard) and (action.card is Tactic.FOG or action.card is Tactic.MUD):
        return lines + _environment_lines(view, action, lang)
    exposed = _exposed_side(view, action, advice.then_claim)
    if exposed is not None:
        flag, which, side_kind = exposed
        lines.append(message(f"coach.window.protect.{which}", lang, flag=flag, kind=kind_name(side_kind, lang)))
    return lines


def _exposed_side(
    view: PlayerView, action: Action, then_claim: tuple[int, ...]
) -> tuple[int, str, FormationKind | None] | None:
    """The side of ours ``action`` completes and lets us prove (``then_claim``, R12) while, with claims
    at the start of the turn (R14), it stands through the opponent's turn open to guile cards they may
    still play (:func:`window_guile`): its flag, which guile ("both", "deserter" or "traitor") and its
    kind; None for any other move (no side completed, one the learner could not claim yet anyway,
    no guile left, or claims after playing)."""
    placed = _placed(action)
    if view.options.claim_timing is not ClaimTiming.START_OF_TURN or placed is None:
        return None
    card, flag = placed
    mine = view.flag_cards(flag, view.player) + (card,)
    if len(mine) < view.size(flag) or flag not in then_claim:
        return None
    guile = window_guile(view, action)
    if not guile:
        return None
    which = "both" if len(guile) == 2 else "deserter" if guile[0] is Tactic.DESERTER else "traitor"
    return flag, which, _kind(mine, view, flag)


def wait_lines(view: PlayerView, passed_over: Action, lang: str = "en") -> list[str]:
    """Why finishing a side now was passed over: with claims at the start of the turn (R14), the troop
    ``passed_over`` would complete our side of a flag and let us prove it (R12), but the side would
    stand through the opponent's turn first, open to the guile cards they may still play (R29, R30,
    :func:`window_guile`); nothing when there are none, or when claims are made after playing."""
    from ..text.messages import kind_name, message

    if view.options.claim_timing is not ClaimTiming.START_OF_TURN:
        return []  # before the claim proof that the side needs, which costs a dealt table
    if not isinstance(passed_over, PlayCard) or not isinstance(passed_over.card, Troop):
        return []
    exposed = _exposed_side(view, passed_over, explain(view, passed_over).then_claim)
    if exposed is None:
        return []
    flag, which, kind = exposed
    card = _troop_words(passed_over.card, lang)
    samples = samples_for(ClaimTiming.START_OF_TURN)
    return [
        message(f"coach.window.wait.{which}", lang, flag=flag, kind=kind_name(kind, lang), card=card, samples=samples)
    ]


def _placed(action: Action) -> tuple[Card, int] | None:
    """The formation card a move puts on a side of ours and the flag: a troop or morale card played,
    a card moved there with Redeploy (R28) or taken with Traitor (R30); None for any other move."""
    if isinstance(action, PlayCard):
        card = action.card
        return None if isinstance(card, Tactic) and card.is_environment else (card, action.flag)
    if isinstance(action, Traitor):
        return action.target, action.to
    if isinstance(action, Redeploy) and action.to is not None:
        target = action.target
        return None if isinstance(target, Tactic) and target.is_environment else (target, action.to)
    return None


def window_guile(view: PlayerView, action: Action) -> tuple[Tactic, ...]:
    """The guile cards the opponent may play in their next turn against the side ``action`` puts a
    card on (see :func:`_placed`; none for other moves), in R2 order: Deserter (R29), and Traitor
    (R30) when the side holds a troop for it to take and the opponent has a free slot to put it in.
    None when the opponent may not play a tactics card after the move (R18: more played than ours,
    the move's own tactics card counted) or holds none (a public count,
    :attr:`~battleline_lab.game.view.PlayerView.opponent_hand_tactics`), and never a card that is
    seen: in our hand (the guile card the move plays too), face up (R13, R31) or put back on a deck
    by our Scout (R27).

    They play from the hand they hold now: a card drawn in their turn comes after their play (R5),
    and a Scout is their play."""
    placed = _placed(action)
    if placed is None:
        return ()
    card, flag = placed
    me, them = view.player, view.player.other
    played_tactic = not (isinstance(action, PlayCard) and isinstance(card, Troop))
    ours_played = view.tactics_played(me) + (1 if played_tactic else 0)
    if view.tactics_played(them) > ours_played or view.opponent_hand_tactics == 0:
        return ()
    seen: set[Card] = set(view.hand)
    for p in (me, them):
        seen.update(view.discards(p))
        for n in range(1, 10):
            seen.update(view.flag_cards(n, p))
            seen.update(view.flag_env(n, p))
    for tops in view.known_deck_tops.values():
        seen.update(tops)
    out: list[Tactic] = []
    if Tactic.DESERTER not in seen:
        out.append(Tactic.DESERTER)
    side = view.flag_cards(flag, me) + (card,)
    free = any(view.claimed_by(n) is None and len(view.flag_cards(n, them)) < view.size(n) for n in range(1, 10))
    if Tactic.TRAITOR not in seen and free and any(isinstance(c, Troop) for c in side):
        out.append(Tactic.TRAITOR)
    return tuple(out)


def _environment_lines(view: PlayerView, action: PlayCard, lang: str) -> list[str]:
    """A Fog (R24) or Mud (R25) played on a flag the opponent's finished formation would take,
    which makes the flag winnable again: its odds (public, R13) go from none to some."""
    from ..core.formations import evaluate
    from ..text.messages import kind_name, message

    flag, them = action.flag, view.player.other
    theirs = view.flag_cards(flag, them)
    if len(theirs) < view.size(flag) or flag_odds(view.position(), flag).you > 0:
        return []
    table = determinize(view, random.Random(0))  # the hidden cards change no odds (R13)
    apply(table, action)
    if flag_odds(to_position(table, view.player), flag).you == 0:
        return []
    kind = kind_name(_kind(theirs, view, flag), lang)
    if action.card is Tactic.MUD:
        return [message("coach.window.mud", lang, flag=flag, kind=kind)]
    total = evaluate(theirs, fog=True, mud=view.mud(flag)).total
    return [message("coach.window.fog", lang, flag=flag, kind=kind, total=total)]
