"""``battleline-lab odds FILE [--flag N] [--json]``: each flag's odds and outs (battleline_lab.core.odds).

The text is in the chosen language (``--lang``); ``--json`` prints exactly one object per file,
the same in every language::

    {"file": "p.yaml", "flags": {"5": {"you": 0.96, "opponent": 0.04,
                                       "outs": {"you": {...}, "opponent": {...}}}}}

``outs`` of a side maps each kind it can still reach (``wedge`` ... ``host``; ``sum`` under Fog,
R24) to ``{"best", "ways", "count", "troops"}``: its best sum, the completions from the unseen
troops that make it, and the unseen troops taking part (R13).  A tie goes to the side already
complete, otherwise it counts half to each side (said in the text output too).  A bad file gives
``FILE:LINE:COL: error: ...`` and exit status 2, as for every command.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from ..core.position import FLAGS, Position, Side
from ..formats.safe_yaml import escape_control
from ..text.messages import card_short, kind_name, message, scoped

if TYPE_CHECKING:
    from ..core.odds import FlagOdds, SideOuts

from .base import PROG, ExitCode, SubParsers, load_or_report

__all__ = ["odds_data", "odds_lines", "register"]

MAX_TROOPS_SHOWN = 10  # in the text output; --json lists them all


_m = scoped("odds")


def odds_data(position: Position, flags: list[int]) -> dict[str, Any]:
    """The JSON ``flags`` object for these flags."""
    from ..core.odds import flag_odds, outs

    out: dict[str, Any] = {}
    for n in flags:
        odds = flag_odds(position, n)
        out[str(n)] = {
            "you": float(odds.you),
            "opponent": float(odds.opponent),
            "outs": {side.value: outs(position, n, side).as_dict() for side in Side},
        }
    return out


def _percent(p: float, lang: str) -> str:
    return _m("percent", lang, value=f"{100 * p:.1f}")


def _side_line(side_outs: SideOuts, lang: str) -> str:
    who = _m(f"side.{side_outs.side.value}", lang)
    if not side_outs.kinds:
        return _m("cannot_complete", lang, side=who)
    if side_outs.missing == 0:
        (kind,) = side_outs.kinds
        return _m("complete", lang, side=who, kind=kind_name(kind.kind, lang), best=kind.best)
    parts = []
    for kind in side_outs.kinds:
        troops = " ".join(card_short(t, lang) for t in kind.troops[:MAX_TROOPS_SHOWN])
        if kind.count > MAX_TROOPS_SHOWN:
            troops += _m("more", lang, count=kind.count - MAX_TROOPS_SHOWN)
        parts.append(
            _m(
                "kind",
                lang,
                kind=kind_name(kind.kind, lang),
                best=kind.best,
                ways=kind.ways,
                count=kind.count,
                troops=troops,
            )
        )
    return _m("side", lang, side=who, missing=side_outs.missing) + "\n" + "\n".join("    " + p for p in parts)


def odds_lines(position: Position, flags: list[int], lang: str = "en") -> list[str]:
    """The text output for these flags, in ``lang``."""
    from ..core.odds import flag_odds, outs

    lines = []
    for n in flags:
        state = position.flag(n)
        if state.claimed_by is not None:
            lines.append(_m("claimed", lang, flag=n, side=_m(f"side.{state.claimed_by.value}", lang)))
            continue
        if state.is_empty:
            lines.append(_m("empty", lang, flag=n))
            continue
        odds: FlagOdds = flag_odds(position, n)
        method = _m("exact", lang) if odds.exact else _m("sampled", lang, error=f"{100 * odds.error:.1f}")
        lines.append(
            _m(
                "flag",
                lang,
                flag=n,
                you=_percent(float(odds.you), lang),
                opponent=_percent(float(odds.opponent), lang),
                method=method,
            )
        )
        for side in Side:
            lines.append("  " + _side_line(outs(position, n, side), lang))
    lines.append(_m("tie_rule", lang))
    return lines


def _run(args: argparse.Namespace) -> int:
    lang = args.lang
    puzzle = load_or_report(args.file, lang)
    if puzzle is None:
        return ExitCode.BAD_INPUT
    flags = [args.flag] if args.flag is not None else list(FLAGS)
    if args.json:
        print(json.dumps({"file": args.file, "flags": odds_data(puzzle.position, flags)}))
    else:
        print("\n".join([escape_control(args.file), *odds_lines(puzzle.position, flags, lang)]))  # one line
    return ExitCode.OK


def register(subparsers: SubParsers[argparse.ArgumentParser], lang: str = "en") -> None:
    """Add the ``odds`` subcommand (battleline_lab.cli.COMMANDS)."""

    def flag_number(text: str) -> int:
        value = int(text) if text.isascii() and text.isdigit() else None
        if value is None or value not in FLAGS:
            raise argparse.ArgumentTypeError(message("cli.explain.bad_flag", lang, value=text))
        return value

    parser = subparsers.add_parser(
        "odds", help=_m("cli.help", lang), description=_m("cli.description", lang), prog=f"{PROG} odds"
    )
    parser.add_argument("file", metavar=message("cli.metavar.file", lang), help=_m("cli.file", lang))
    parser.add_argument("--flag", type=flag_number, metavar="N", help=_m("cli.flag", lang))
    parser.add_argument("--json", action="store_true", help=_m("cli.json", lang))
    parser.set_defaults(func=_run)
