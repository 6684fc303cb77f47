"""A game review: the claim moments a player can learn from, each turned into a puzzle.

:func:`review` replays a game and stops at every *claim moment*: the point of a
turn where the rules let the player on turn claim (R14: after playing, at the
start of the turn or after drawing, as the game's claim timing says).  From one
player's side it finds

* ``missed``: flags the player could prove (R12) at their claim moment but did
  not claim then, and what became of them (claimed later, lost to the
  opponent, or never claimed);
* ``opponent_early``: flags the opponent could prove at their own claim
  moment but claimed later, or never (from then on the flag was lost);
* ``tie_second``: flags where both formations are equal and the player
  completed second, so the flag goes to the opponent on the tie rule (R11).

Each moment is a :class:`~battleline_lab.quiz.puzzle.Puzzle`: the table at that
moment seen by the player (their hand included, never evidence, R13), a
``claimable`` question (missed claims) or a ``claim`` question (the other two),
the engine's answer, and a note in English and Chinese saying what happened in
the game.  Every verdict comes from :func:`battleline_lab.core.claims.claimable_flags`
and :func:`battleline_lab.core.claims.can_claim`.

>>> from battleline_lab.game import RandomBot, play_game, Player
>>> state = play_game(RandomBot(1), RandomBot(2), seed=17)
>>> r = review(state, Player.SOUTH)
>>> r.moments[0]
<Moment turn 22 missed flags (6,): south>
>>> r.moments[0].puzzle.solve() == r.moments[0].answer
True
>>> print(r.moments[0].note("en"))
At turn 22 you could prove flag 6 but did not claim. Flag 6: you claimed it at turn 48.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..core.claims import can_claim, claimable_flags
from ..core.formations import evaluate
from ..core.position import Position, Side
from ..formats.files import check_new, write_all, write_new
from ..quiz.puzzle import Puzzle
from ..quiz.questions import ClaimableQuestion, ClaimQuestion, Question
from ..text.messages import LANGUAGES, message
from ..training.progress import REVIEW_FOLDER, review_dir
from .actions import Claim
from .record import GameRecord
from .rules import apply
from .state import GameState, Phase, Player, new_game
from .view import to_position

__all__ = [
    "REVIEW_FOLDER",
    "Fate",
    "Moment",
    "MomentKind",
    "Review",
    "review",
    "save_for_learner",
    "save_puzzles",
]


class MomentKind(enum.Enum):
    """What a review moment is about (see the module doc)."""

    MISSED = "missed"
    OPPONENT_EARLY = "opponent_early"
    TIE_SECOND = "tie_second"


@dataclass(frozen=True)
class Fate:
    """What became of a flag after a moment: claimed by ``player`` at ``turn``; ``None`` = never claimed.

    ``turn`` is ``None`` with a ``player`` when the flag was given at the end of a blocked game (ruling G5).
    """

    player: Player | None
    turn: int | None

    def text(self, flag: int, reviewed: Player, lang: str) -> str:
        if self.player is None:
            return message("review.fate.unclaimed", lang, flag=flag)
        who = message("review.you", lang) if self.player is reviewed else _name(self.player, lang)
        if self.turn is None:
            return message("review.fate.blocked", lang, flag=flag, who=who)
        return message("review.fate.claimed", lang, flag=flag, who=who, turn=self.turn)


def _name(player: Player, lang: str) -> str:
    return message(f"review.player.{player.value}", lang)


def _flags(flags: Sequence[int], lang: str) -> str:
    if len(flags) == 1:
        return message("review.flag_one", lang, flag=flags[0])
    return message(
        "review.flag_many", lang, flags=message("review.list_sep", lang).join(map(str, flags[:-1])), last=flags[-1]
    )


@dataclass(frozen=True)
class Moment:
    """One claim moment worth reviewing, with its puzzle.

    ``turn`` is the game turn, ``claimer`` the player whose claim step it is,
    ``flags`` the flags it is about, ``fates`` what became of each, ``detail``
    extra facts for the note (the tied formation).
    """

    kind: MomentKind
    turn: int
    player: Player
    claimer: Player
    flags: tuple[int, ...]
    fates: tuple[Fate, ...]
    position: Position
    question: Question[Any, Any]
    answer: object
    game: str
    detail: tuple[tuple[str, object], ...] = ()

    @property
    def id(self) -> str:
        flags = "-".join(map(str, self.flags))
        return f"review-{self.game}-{self.player.value}-turn-{self.turn}-{self.kind.value.replace('_', '-')}-{flags}"

    def title(self, lang: str) -> str:
        focus = self.question.focus(self.position)  # a claim question is about its one flag
        if len(focus) == 1:
            who = message("review.you", lang) if self.claimer is self.player else _name(self.claimer, lang)
            return message("review.title.claim", lang, turn=self.turn, who=who, flag=focus[0])
        return message("review.title.claimable", lang, turn=self.turn)

    def note(self, lang: str) -> str:
        """What happened in the game, in ``lang``."""
        flags = _flags(self.flags, lang)
        opp = _name(self.player.other, lang)
        if self.kind is MomentKind.MISSED:
            head = message("review.note.missed", lang, turn=self.turn, flags=flags)
        elif self.kind is MomentKind.OPPONENT_EARLY:
            head = message("review.note.opponent_early", lang, turn=self.turn, flags=flags, opponent=opp)
        else:
            params = dict(self.detail)
            head = message("review.note.tie_second", lang, turn=self.turn, flags=flags, opponent=opp, **params)
        fates = " ".join(f.text(n, self.player, lang) for n, f in zip(self.flags, self.fates))
        return message("review.note", lang, head=head, fates=fates)

    @property
    def puzzle(self) -> Puzzle:
        return Puzzle(
            id=self.id,
            title={lang: self.title(lang) for lang in LANGUAGES},
            position=self.position,
            question=self.question,
            answer=self.answer,
            note={lang: self.note(lang) for lang in LANGUAGES},
        )

    def puzzle_data(self) -> dict[str, Any]:
        """The puzzle as plain data in the puzzle file format (``yaml.safe_dump`` it; passes ``check``)."""
        data: dict[str, Any] = {"id": self.id, "title": {lang: self.title(lang) for lang in LANGUAGES}}
        data["rules"] = {"claim_timing": self.position.claim_timing.value}
        data.update(self.position.to_data())
        data["question"] = self.question.to_data()
        data["answer"] = self.answer
        data["note"] = {lang: self.note(lang) for lang in LANGUAGES}
        return data

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        """The moment for ``review --json``: facts, note and the puzzle."""
        return {
            "kind": self.kind.value,
            "turn": self.turn,
            "claimer": self.claimer.value,
            "flags": list(self.flags),
            "fates": [
                {"flag": n, "claimed_by": f.player.value if f.player else None, "turn": f.turn}
                for n, f in zip(self.flags, self.fates)
            ],
            "note": self.note(lang),
            "puzzle": self.puzzle_data(),
        }

    def __repr__(self) -> str:
        return f"<Moment turn {self.turn} {self.kind.value} flags {self.flags}: {self.player.value}>"


@dataclass(frozen=True)
class Review:
    """The moments of one game from one player's side, in game order."""

    player: Player
    seed: int
    moments: tuple[Moment, ...]
    winner: Player | None
    turns: int

    def puzzles(self) -> list[Puzzle]:
        return [m.puzzle for m in self.moments]

    def lines(self, lang: str = "en") -> list[str]:
        """The review as text: a heading, then one line per moment."""
        out = [message("review.heading", lang, player=_name(self.player, lang), count=len(self.moments))]
        if not self.moments:
            out.append(message("review.none", lang))
        for m in self.moments:
            out.append(
                message(
                    "review.line",
                    lang,
                    turn=m.turn,
                    kind=message(f"review.kind.{m.kind.value}", lang),
                    note=m.note(lang),
                )
            )
        return out

    def puzzle_files(self) -> dict[str, str]:
        """Each moment's puzzle file: ``{file name: YAML text}`` (the name is the puzzle id)."""
        return {
            f"{m.id}.yaml": yaml.safe_dump(
                m.puzzle_data(), sort_keys=False, allow_unicode=True, default_flow_style=None
            )
            for m in self.moments
        }

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "player": self.player.value,
            "seed": self.seed,
            "winner": self.winner.value if self.winner else None,
            "turns": self.turns,
            "moments": [m.as_dict(lang) for m in self.moments],
        }


def _tied(state: GameState, i: int) -> tuple[bool, dict[str, object]]:
    """Both sides complete and equal at flag index ``i`` (R10, R11), with the formation for the note."""
    size = state.size(i)
    cards = state.cards[i]
    if any(len(cards[p]) < size for p in Player):
        return False, {}
    fog, mud = state.fog(i), state.mud(i)
    north = evaluate(cards[Player.NORTH], fog=fog, mud=mud)
    south = evaluate(cards[Player.SOUTH], fog=fog, mud=mud)
    if north.strength != south.strength:
        return False, {}
    return True, {"total": south.total}


def _claim_moments(
    record: GameRecord,
) -> tuple[list[tuple[int, Player, GameState]], dict[int, Fate], dict[tuple[int, Player], set[int]], GameState]:
    """Replay ``record``: the state at each claim moment, each flag's fate, the claims made per turn."""
    state = new_game(record.seed, record.options)
    ci = state.steps.index(Phase.CLAIM)
    moments: list[tuple[int, Player, GameState]] = []
    taken: set[int] = set()
    claims: dict[tuple[int, Player], set[int]] = {}
    fates: dict[int, Fate] = {}

    def look(prev: tuple[int, Player]) -> None:
        turn, owner = prev
        if state.over:
            return
        if state.turn_number != turn and turn not in taken:
            # the turn ended without a claim step (nothing was provable): the table is as it was then
            taken.add(turn)
            moments.append((turn, owner, state.copy()))
        if state.turn_number not in taken and (state.phase is Phase.CLAIM or state.step > ci):
            taken.add(state.turn_number)
            moments.append((state.turn_number, state.turn, state.copy()))

    look((state.turn_number, state.turn))
    for number, (player, actions) in enumerate(record.turns, start=1):
        for action in actions:
            prev = (state.turn_number, state.turn)
            apply(state, action)
            if isinstance(action, Claim):
                claims.setdefault((number, player), set()).add(action.flag)
                fates.setdefault(action.flag, Fate(player, number))
            look(prev)
    for i, owner in enumerate(state.claimed):
        if owner is not None and i + 1 not in fates:
            fates[i + 1] = Fate(owner, None)
    return moments, fates, claims, state


def review(record_or_state: GameRecord | GameState, player: Player | str) -> Review:
    """Review a game (a record, or a state with its history) from ``player``'s side (see the module doc)."""
    player = Player(player)
    record = record_or_state if isinstance(record_or_state, GameRecord) else GameRecord.from_state(record_or_state)
    raw, fates, claims, final = _claim_moments(record)
    digest = hashlib.sha1(record.to_yaml().encode("utf-8")).hexdigest()[:6]
    seed = str(record.seed) if record.seed >= 0 else f"m{-record.seed}"
    name = f"{seed}-{digest}"  # the seed and the moves: ids differ between games
    out: list[Moment] = []
    reported: dict[MomentKind, set[int]] = {k: set() for k in MomentKind}
    for turn, owner, state in raw:
        position = dataclasses.replace(to_position(state, player), turn=Side.YOU if owner is player else Side.OPPONENT)
        can = claimable_flags(position)
        made = claims.get((turn, owner), set())
        missed = [n for n in can if n not in made and n not in reported[_kind(owner, player)]]

        def fate(n: int) -> Fate:  # a flag is claimed once (R15), so after every moment where it is open
            return fates.get(n, Fate(None, None))

        def on_flag(
            kind: MomentKind,
            n: int,
            detail: tuple[tuple[str, object], ...] = (),
            turn: int = turn,
            owner: Player = owner,
            position: Position = position,
        ) -> Moment:
            """A moment about flag ``n`` alone, asked as "can this side claim it now?" (R12)."""
            reported[kind].add(n)
            question = ClaimQuestion(n)
            return Moment(
                kind, turn, player, owner, (n,), (fate(n),), position, question, can_claim(position, n), name, detail
            )

        if missed and owner is player:
            reported[MomentKind.MISSED].update(missed)
            out.append(
                Moment(
                    MomentKind.MISSED,
                    turn,
                    player,
                    owner,
                    tuple(missed),
                    tuple(fate(n) for n in missed),
                    position,
                    ClaimableQuestion(),
                    list(can),
                    name,
                )
            )
        elif missed:
            out.extend(on_flag(MomentKind.OPPONENT_EARLY, n) for n in missed)
        if owner is player:
            for i in range(9):
                n = i + 1
                if state.claimed[i] is not None or n in reported[MomentKind.TIE_SECOND]:
                    continue
                tied, detail = _tied(state, i)
                if not tied or state.first_complete(i) is not player.other:
                    continue
                out.append(on_flag(MomentKind.TIE_SECOND, n, tuple(detail.items())))
    return Review(player, record.seed, tuple(out), final.winner, final.turn_number)


def _kind(owner: Player, player: Player) -> MomentKind:
    return MomentKind.MISSED if owner is player else MomentKind.OPPONENT_EARLY


def save_puzzles(
    result: Review,
    folder: str | os.PathLike[str],
    *,
    force: bool = False,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> list[Path]:
    """Write the review's puzzles into ``folder`` (created if needed), all as one, one file each.

    Files that exist are not replaced without ``force``: if any exists, nothing
    is written and :class:`FileExistsError` names the first one.  ``inputs`` (the
    game record) are never written over, not even with ``force``, through a link
    named like a moment file or as a moment file itself.  The files are written by
    the project's one writer, :func:`battleline_lab.formats.files.write_all`: all, or none replaced.
    """
    target = Path(folder)
    files = result.puzzle_files()
    inputs = list(inputs)
    outputs = [(target / name, text) for name, text in files.items()]
    for path, _ in outputs:  # refuse before the folder is even made
        check_new(path, force=force, inputs=inputs)
    target.mkdir(parents=True, exist_ok=True)
    write_all(outputs, force=force, inputs=inputs)
    return [path for path, _ in outputs]


def save_for_learner(result: Review, folder: str | os.PathLike[str] | None = None) -> list[Path]:
    """Save the review's puzzles where the trainer finds them: ``data_dir()/review/<id>.yaml``.

    One puzzle file per moment, written atomically; a file that is already
    there is kept (its id names the game, the player, the turn and the
    flags, so it is the same puzzle).  Returns the paths of all the moment
    files, new or kept.
    """
    target = Path(folder) if folder is not None else review_dir()
    target.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in result.puzzle_files().items():
        path = target / name
        try:
            write_new(path, text)
        except FileExistsError:
            pass
        paths.append(path)
    return paths
