"""Command-line subcommands for games: ``match`` (bots against bots) and ``replay`` (check records).

``register(subparsers)`` adds ``match``; ``register_replay(subparsers)`` adds
``replay``.  The main ``battleline-lab`` parser plugs them in; :func:`main`
runs them standalone (for tests).

::

    battleline-lab match BOT_A BOT_B --games N --seed S [--json] [--claim-timing T] [--winner-starts] [--jobs N]
                         [--records DIR]
    battleline-lab match BOT_A BOT_B BOT_C --games N --seed S [--json]   # the three-player game (R32-R37)
    battleline-lab replay FILE...
    battleline-lab replay FILE --at TURN [--as north|south]   # the table at a turn, as a puzzle (YAML)
    battleline-lab review FILE [--player north|south] [--json] [--out DIR [--force]]  # claim moments to learn from

``match --json`` prints one JSON object:
``{"games": N, "wins": {"A": .., "B": ..}, "draws": .., "average_turns": ..,
"flags_per_game": {"A": .., "B": ..}, ...}``; with three bots ``{"players": 3, "games": N, "wins": {"A": ..,
"B": .., "C": ..}, ...}`` (:mod:`battleline_lab.game.three_bots`, the seats rotating).

>>> main(["match", "random", "random", "--games", "2", "--seed", "3", "--json"])  # doctest: +ELLIPSIS
{"games": 2, "bots": {"A": "random", "B": "random"}, "seed": 3, "starts": "alternate", "wins": {...}, ...}
0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..core.position import ClaimTiming
from ..formats.files import FileProblem, check_new, check_out_folder, describe, output_name, write_new
from ..formats.safe_yaml import MAX_ERRORS, ascii_int, escape_control
from ..text.messages import message, scoped
from .base import PROG, ExitCode, SubParsers
from .console import add_quiet_argument, progress_for

__all__ = ["main", "register", "register_replay", "register_review"]

_m = scoped("game.cli")


#: The upper bound of ``replay --at`` (each option's help says its bound).  ``match``'s bounds
#: (games, seed, rollouts, jobs) are the game API's own, :mod:`battleline_lab.game.arguments`:
#: one set of bounds for the command line and for Python.
MAX_TURN = 10_000


def _positive(lang: str, limit: int) -> Callable[[str], int]:
    """The type of a count: a whole number from 1 to ``limit``, else an error in ``lang``."""

    def positive(text: str) -> int:
        value = ascii_int(text)  # ASCII digits only: int() would also read "３" or "٣"
        if value is None or value < 1:
            raise argparse.ArgumentTypeError(_m("not_positive", lang, value=text))
        if value > limit:
            raise argparse.ArgumentTypeError(_m("too_large", lang, value=text, limit=limit))
        return value

    return positive


def _integer(lang: str, limit: int) -> Callable[[str], int]:
    """The type of a seed: a whole number within +-``limit``, else an error in ``lang``."""

    def integer(text: str) -> int:
        value = ascii_int(text)  # ASCII digits only: int() would also read "３" or "٣"
        if value is None:
            raise argparse.ArgumentTypeError(_m("not_integer", lang, value=text))
        if abs(value) > limit:
            raise argparse.ArgumentTypeError(_m("seed_too_large", lang, value=text, limit=limit))
        return value

    return integer


def _bounded(
    parser: argparse.ArgumentParser,
    flag: str,
    help_text: str,
    limit: int,
    lang: str,
    *,
    signed: bool = False,
    **options: Any,
) -> None:
    """An option taking a whole number from 1 to ``limit`` (within +-``limit`` if ``signed``); its help says so."""
    kind = _integer if signed else _positive
    help_text = _m("with_limit", lang, help=help_text, limit=limit)
    parser.add_argument(flag, type=kind(lang, limit), help=help_text, **options)


def _metavar(key: str, lang: str) -> str:
    return message(f"cli.metavar.{key}", lang)


def register(subparsers: SubParsers[argparse.ArgumentParser], lang: str = "en") -> argparse.ArgumentParser:
    """Add the ``match`` subcommand (help texts in ``lang``)."""
    from ..game.arguments import MAX_GAMES, MAX_JOBS, MAX_ROLLOUTS, MAX_SEED
    from ..game.bots import BOTS
    from ..game.three_bots import THREE_BOTS

    parser = subparsers.add_parser("match", help=_m("match.help", lang), description=_m("match.description", lang))
    bots = ", ".join(BOTS)
    for dest, metavar in (("bot_a", "bot_a"), ("bot_b", "bot_b")):
        parser.add_argument(
            dest, metavar=_metavar(metavar, lang), choices=sorted(BOTS), help=_m("match.bot", lang, bots=bots)
        )
    parser.add_argument(
        "bot_c",
        nargs="?",
        metavar=_metavar("bot_c", lang),
        choices=sorted(BOTS),
        help=message("three.cli.bot_c", lang, bots=", ".join(THREE_BOTS)),
    )
    _bounded(parser, "--games", _m("match.games", lang), MAX_GAMES, lang, default=100, metavar="N")
    _bounded(parser, "--seed", _m("match.seed", lang), MAX_SEED, lang, signed=True, default=0, metavar="S")
    parser.add_argument(
        "--claim-timing", choices=[t.value for t in ClaimTiming], default="after_play", help=_m("match.timing", lang)
    )
    parser.add_argument("--winner-starts", action="store_true", help=_m("match.winner_starts", lang))
    parser.add_argument("--records", metavar=_metavar("dir", lang), help=_m("match.records", lang))
    parser.add_argument("--force", action="store_true", help=message("files.force_help", lang))
    _bounded(parser, "--rollouts", message("review.cli.rollouts", lang), MAX_ROLLOUTS, lang, metavar="N")
    _bounded(parser, "--jobs", message("expert.cli.jobs", lang), MAX_JOBS, lang, default=1, metavar="N")
    parser.add_argument("--json", action="store_true", help=_m("match.json", lang))
    add_quiet_argument(parser, lang)
    parser.set_defaults(func=run_match_command)
    return parser


def register_replay(subparsers: SubParsers[argparse.ArgumentParser], lang: str = "en") -> argparse.ArgumentParser:
    """Add the ``replay`` subcommand (check that game records replay; help texts in ``lang``)."""
    from ..game.state import Player

    parser = subparsers.add_parser("replay", help=_m("replay.help", lang), description=_m("replay.help", lang))
    parser.add_argument("files", metavar=_metavar("file", lang), nargs="+", help=_m("replay.file", lang))
    _bounded(parser, "--at", _m("replay.at", lang), MAX_TURN, lang, metavar=_metavar("turn", lang))
    parser.add_argument("--as", dest="viewer", choices=[p.value for p in Player], help=_m("replay.as", lang))
    parser.set_defaults(func=run_replay_command)
    return parser


def register_review(subparsers: SubParsers[argparse.ArgumentParser], lang: str = "en") -> argparse.ArgumentParser:
    """Add the ``review`` subcommand (a game's claim moments as text, JSON or puzzle files)."""
    from ..game.state import Player
    from ..text.messages import message as msg

    parser = subparsers.add_parser(
        "review", help=msg("review.cli.help", lang), description=msg("review.cli.help", lang)
    )
    parser.add_argument("file", metavar=_metavar("file", lang), help=msg("review.cli.file", lang))
    parser.add_argument(
        "--player", choices=[p.value for p in Player], default="south", help=msg("review.cli.player", lang)
    )
    parser.add_argument("--out", metavar=_metavar("dir", lang), help=msg("review.cli.out", lang))
    parser.add_argument("--json", action="store_true", help=msg("review.cli.json", lang))
    parser.add_argument("--force", action="store_true", help=msg("review.cli.force", lang))
    parser.set_defaults(func=run_review_command)
    return parser


def run_review_command(args: argparse.Namespace) -> int:
    from ..game.record import RecordError, load_record
    from ..game.review import review, save_puzzles
    from ..game.state import Player

    lang = getattr(args, "lang", "en")
    try:
        record = load_record(args.file, lang)
    except RecordError as exc:
        for line in exc.lines():
            print(line, file=sys.stderr)
        return ExitCode.BAD_INPUT
    result = review(record, Player(args.player))
    if args.json:
        print(json.dumps(result.as_dict(lang), ensure_ascii=False))
    else:
        for line in result.lines(lang):
            print(line)
    if args.out is not None:
        try:
            check_out_folder(args.out)  # an empty --out is refused, never "the current folder" or "no output"
            written = save_puzzles(result, args.out, force=args.force, inputs=[args.file])
        except FileExistsError as exc:
            where = escape_control(str(exc.filename or args.out))
            print(f"{where}:1:1: error: {message('review.cli.exists', lang, path=where)}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        except OSError as exc:
            where = escape_control(output_name(exc.filename if isinstance(exc, FileProblem) else args.out))
            print(f"{where}:1:1: error: {describe(exc, lang)}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        if not args.json:
            print(message("review.cli.wrote", lang, folder=escape_control(str(args.out)), count=len(written)))
    return ExitCode.OK


def run_match_command(args: argparse.Namespace) -> int:
    from ..game.arguments import GameArgumentError
    from ..game.match import run_match
    from ..game.record import dump_record
    from ..game.state import GameState, Options, Player

    lang = getattr(args, "lang", "en")
    if getattr(args, "bot_c", None) is not None:
        return _run_three_match(args, lang)
    options = Options(claim_timing=ClaimTiming(args.claim_timing))
    on_game: Callable[[int, GameState, dict[Player, str]], None] | None = None
    if args.records is not None:
        folder = Path(args.records)
        try:
            check_out_folder(args.records)
        except OSError as exc:
            print(f"{escape_control(output_name(args.records))}:1:1: error: {describe(exc, lang)}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(
                f"{args.records}:1:1: error: {_m('match.records_error', lang, reason=exc.strerror or exc)}",
                file=sys.stderr,
            )
            return ExitCode.BAD_INPUT

        force = getattr(args, "force", False)
        refused = []
        for k in range(args.games):  # refuse before playing: no game file is replaced without --force
            try:
                check_new(_record_path(folder, args.seed, k), force=force)
            except OSError as exc:
                refused.append(f"{_record_path(folder, args.seed, k)}:1:1: error: {describe(exc, lang)}")
        if refused:
            for line in refused[:MAX_ERRORS]:
                print(line, file=sys.stderr)
            if len(refused) > MAX_ERRORS:
                more = message("files.more_errors", lang, count=len(refused) - MAX_ERRORS, shown=MAX_ERRORS)
                print(f"{args.records}:1:1: error: {more}", file=sys.stderr)
            return ExitCode.BAD_INPUT

        def write_record(k: int, state: GameState, names: dict[Player, str]) -> None:
            write_new(_record_path(folder, args.seed, k), dump_record(state, names), force=force)

        on_game = write_record

    with progress_for(args, "match", total=args.games) as bar:

        def after_game(k: int, state: GameState, names: dict[Player, str]) -> None:
            if on_game is not None:
                on_game(k, state, names)
            bar.advance()

        try:
            result = run_match(
                args.bot_a,
                args.bot_b,
                games=args.games,
                seed=args.seed,
                options=options,
                winner_starts=args.winner_starts,
                on_game=after_game,
                rollouts=args.rollouts,
                jobs=args.jobs,
            )
        except GameArgumentError as exc:  # the parser's types hold the same bounds: a value past them is a usage error
            bar.clear()
            print(f"{PROG} match: error: {exc.text(lang)}", file=sys.stderr)
            return ExitCode.BAD_INPUT
        except OSError as exc:  # a record could not be written (written atomically: no half file is left)
            bar.clear()
            name = exc.filename if isinstance(exc, FileProblem) else args.records
            print(f"{name}:1:1: error: {describe(exc, lang)}", file=sys.stderr)
            return ExitCode.BAD_INPUT
    if args.json:
        print(json.dumps(result.as_dict()))
        return ExitCode.OK
    print(_m("match.title", lang, a=args.bot_a, b=args.bot_b, games=result.games, seed=args.seed))
    print(_m("match.wins", lang, a=result.wins["A"], b=result.wins["B"], draws=result.draws))
    print(_m("match.length", lang, turns=f"{result.average_turns:.1f}", actions=f"{result.actions / result.games:.1f}"))
    print(_m("match.flags", lang, a=f"{result.flags_per_game('A'):.2f}", b=f"{result.flags_per_game('B'):.2f}"))
    print(_m("match.points", lang, a=result.points["A"], b=result.points["B"]))
    reasons = ", ".join(f"{_m('reason.' + k, lang)} {v}" for k, v in sorted(result.reasons.items()))
    print(_m("match.reasons", lang, reasons=reasons))
    print(
        _m("match.speed", lang, seconds=f"{result.seconds:.2f}", rate=f"{result.games / max(result.seconds, 1e-9):.1f}")
    )
    return ExitCode.OK


def _run_three_match(args: argparse.Namespace, lang: str) -> int:
    """``match A B C``: the three-player game (R32-R37), the seats rotating."""
    from ..game.arguments import GameArgumentError
    from ..game.three_bots import THREE_BOTS, run_three_match

    names = (args.bot_a, args.bot_b, args.bot_c)
    for name in names:
        if name not in THREE_BOTS:
            text = message("three.cli.not_three_bot", lang, bot=name, bots=", ".join(THREE_BOTS))
            print(f"{PROG} match: error: {text}", file=sys.stderr)
            return ExitCode.BAD_INPUT
    two_player_only = {
        "--claim-timing": args.claim_timing != ClaimTiming.AFTER_PLAY.value,
        "--winner-starts": args.winner_starts,
        "--records": args.records is not None,
        "--force": getattr(args, "force", False),
        "--rollouts": args.rollouts is not None,
        "--jobs": args.jobs != 1,
    }
    for option, given in two_player_only.items():
        if given:
            print(
                f"{PROG} match: error: {message('three.cli.two_player_option', lang, option=option)}", file=sys.stderr
            )
            return ExitCode.BAD_INPUT
    with progress_for(args, "match", total=args.games) as bar:
        try:
            result = run_three_match(*names, games=args.games, seed=args.seed, on_game=lambda *_: bar.advance())
        except GameArgumentError as exc:
            bar.clear()
            print(f"{PROG} match: error: {exc.text(lang)}", file=sys.stderr)
            return ExitCode.BAD_INPUT
    if args.json:
        print(json.dumps(result.as_dict()))
        return ExitCode.OK
    a, b, c = names
    print(message("three.cli.title", lang, a=a, b=b, c=c, games=result.games, seed=args.seed))
    wins = result.wins
    print(message("three.cli.wins", lang, a=wins["A"], b=wins["B"], c=wins["C"], draws=result.draws))
    turns, actions = f"{result.average_turns:.1f}", f"{result.actions / result.games:.1f}"
    print(message("three.cli.length", lang, turns=turns, actions=actions))
    flags = {k: f"{result.flags_per_game(k):.2f}" for k in ("A", "B", "C")}
    print(message("three.cli.flags", lang, a=flags["A"], b=flags["B"], c=flags["C"]))
    reasons = ", ".join(f"{message('three.end.' + k, lang)} {v}" for k, v in sorted(result.reasons.items()))
    print(_m("match.reasons", lang, reasons=reasons))
    rate = f"{result.games / max(result.seconds, 1e-9):.1f}"
    print(_m("match.speed", lang, seconds=f"{result.seconds:.2f}", rate=rate))
    return ExitCode.OK


def _record_path(folder: Path, seed: int, k: int) -> Path:
    return folder / f"game-{seed + k}.yaml"


def run_replay_command(args: argparse.Namespace) -> int:
    import yaml

    from ..game.record import RecordError, load_record
    from ..game.state import Player

    lang = getattr(args, "lang", "en")
    status = ExitCode.OK
    for name in args.files:
        try:
            record = load_record(name, lang)
        except RecordError as exc:
            for line in exc.lines():
                print(line, file=sys.stderr)
            status = ExitCode.BAD_INPUT
            continue
        if args.at is not None:
            try:
                data = record.puzzle_at(
                    args.at, Player(args.viewer) if args.viewer else None, name=Path(name).stem, lang=lang
                )
            except ValueError as exc:
                print(f"{escape_control(name)}:1:1: error: {escape_control(str(exc))}", file=sys.stderr)
                status = ExitCode.BAD_INPUT
                continue
            print(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None), end="")
            continue
        state = record.replay()
        if state.over:
            winner = state.winner.value if state.winner else _m("replay.nobody", lang)
            assert state.end_reason is not None
            print(
                _m(
                    "replay.over",
                    lang,
                    file=escape_control(name),
                    turns=state.turn_number,
                    winner=winner,
                    reason=_m("reason." + state.end_reason.value, lang),
                )
            )
        else:
            print(_m("replay.unfinished", lang, file=escape_control(name), turns=state.turn_number))
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``match`` or ``replay`` as a standalone program."""
    parser = argparse.ArgumentParser(prog=PROG)
    subparsers = parser.add_subparsers(dest="command", required=True)
    register(subparsers)
    register_replay(subparsers)
    register_review(subparsers)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    result: int = args.func(args)
    return int(result)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
