"""``battleline-lab claims FILE... [--json]``: the flags each side can claim by proof now (R12).

``--json`` prints exactly one JSON object per line per file, e.g.
``{"file": "p.yaml", "you": [5], "opponent": []}``: this output is a contract.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from ..core.decide import decide_position
from ..core.position import Side
from ..formats.safe_yaml import escape_control
from ..text.messages import message
from .base import PROG, ExitCode, SubParsers, load_or_report, m

__all__ = ["flags_text", "register", "run"]


def flags_text(flags: Sequence[int], lang: str) -> str:
    """``5, 7`` (or the catalogue's "none")."""
    if not flags:
        return m("flags.none", lang)
    return message("list.sep", lang).join(str(n) for n in flags)


def run(args: argparse.Namespace) -> int:
    """Print each file's claimable flags; exit 2 if a file was bad (the others are still read)."""
    status = ExitCode.OK
    for name in args.files:
        puzzle = load_or_report(name, args.lang)
        if puzzle is None:
            status = ExitCode.BAD_INPUT
            continue
        verdicts = decide_position(puzzle.position)  # verdicts only: no proof is built (decide.py)
        you, opponent = list(verdicts[Side.YOU]), list(verdicts[Side.OPPONENT])
        if args.json:
            print(json.dumps({"file": name, "you": you, "opponent": opponent}))
        else:
            lang = args.lang
            you_text, opponent_text = flags_text(you, lang), flags_text(opponent, lang)
            print(m("claims.line", lang, file=escape_control(name), you=you_text, opponent=opponent_text))
    return status


def register(subparsers: SubParsers[argparse.ArgumentParser], lang: str = "en") -> None:
    """Add ``claims``."""
    parser = subparsers.add_parser(
        "claims", help=m("claims.help", lang), description=m("claims.description", lang), prog=f"{PROG} claims"
    )
    parser.add_argument("files", nargs="+", metavar=m("metavar.file", lang), help=m("claims.files", lang))
    parser.add_argument("--json", action="store_true", help=m("claims.json", lang))
    parser.set_defaults(func=run)
