"""``battleline-lab explain FILE [--flag N] [--side you|opponent]``: the proof or counterexample, step by step.

Without ``--flag``/``--side`` the question kind says what it prints (a comparison, a formation);
else the claim proofs of the question's flags, or of every complete side.  A puzzle whose stated
answer is wrong is still explained, with a warning on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from ..core.claims import ClaimAnalysis, analyse_claim, state_unseen_once
from ..core.position import FLAGS, Side
from ..formats.safe_yaml import ascii_int, escape_control
from ..quiz.loader import check_answer
from ..quiz.puzzle import Puzzle
from ..text.messages import message, render_analysis
from .base import PROG, ExitCode, SubParsers, load_or_report, m

__all__ = ["analysis_lines", "claim_targets", "register", "run"]


def analysis_lines(analysis: ClaimAnalysis, lang: str) -> list[str]:
    """A proof's title, steps and verdict."""
    who = message(f"side.{analysis.side.value}", lang)
    lines = [message("explain.title", lang, flag=analysis.flag, me=who)]
    lines.extend(render_analysis(analysis, lang))
    verdict = "explain.verdict.yes" if analysis.claimable else "explain.verdict.no"
    lines.append(message(verdict, lang, flag=analysis.flag, me=who))
    return lines


def claim_targets(puzzle: Puzzle, flag: int | None, side: Side | None) -> list[tuple[int, Side]]:
    """Which (flag, side) proofs to show: as asked, else the question's, else every complete side."""
    position = puzzle.position
    if flag is not None:
        return [(flag, side or position.turn)]
    question = puzzle.question
    flags: tuple[int, ...] | None = None
    if question is not None and side is None:
        flags, side = question.proof_targets(position)
        if flags is not None and side is not None:
            return [(n, side) for n in flags]
    sides = [side] if side is not None else list(Side)
    targets: list[tuple[int, Side]] = []
    for n in flags or FLAGS:
        state = position.flag(n)
        if state.claimed_by is None:
            targets.extend((n, s) for s in sides if state.is_complete(s))
    return targets


def run(args: argparse.Namespace) -> int:
    """Print the explanation of one puzzle file."""
    lang = args.lang
    puzzle = load_or_report(args.file, lang)
    if puzzle is None:
        return ExitCode.BAD_INPUT
    side = Side(args.side) if args.side else None
    title = escape_control(puzzle.title_after_answer(lang))  # the answer follows; escaped like every echoed text
    lines = [m("explain.header", lang, file=escape_control(args.file), title=title)]
    question = puzzle.question
    own = (
        question.cli_lines(puzzle.position, lang)
        if question is not None and args.flag is None and side is None
        else None
    )
    if own is not None:
        lines.extend(own)  # what the question kind prints (a comparison, a formation)
    else:
        targets = claim_targets(puzzle, args.flag, side)
        if not targets:
            lines.append(m("explain.nothing", lang))
        analyses = [analyse_claim(puzzle.position, n, s) for n, s in targets]
        if len({s for _, s in targets}) == 1:
            analyses = state_unseen_once(analyses)  # one side's proofs in a row: the unseen count once (R13)
        for analysis in analyses:
            lines.append("")
            lines.extend(analysis_lines(analysis, lang))
    print("\n".join(lines))
    _warn_about_answer(puzzle, args.file, lang)
    return ExitCode.OK


def _warn_about_answer(puzzle: Puzzle, name: str, lang: str) -> None:
    """``explain`` still explains a puzzle whose stated answer is wrong, but says so (on stderr)."""
    from ..quiz.checks import CheckWarning

    question = puzzle.question
    if question is None or not check_answer(puzzle, name, lang):
        return
    line, col = puzzle.marks.get("answer") or puzzle.marks.get("question") or (1, 1)
    if "answer" not in puzzle.marks:
        text = message("teachers.explain.no_answer", lang)
    else:
        try:
            expected = json.dumps(question.solve(puzzle.position), ensure_ascii=False)
        except ValueError as err:
            expected = str(err)
        text = message(
            "teachers.explain.wrong", lang, given=json.dumps(puzzle.answer, ensure_ascii=False), expected=expected
        )
    print(CheckWarning(name, line, col, text), file=sys.stderr)


def _flag_number(lang: str) -> Callable[[str], int]:
    """The ``--flag`` type: a flag number 1-9, else an error in ``lang``."""

    def flag_number(text: str) -> int:
        value = ascii_int(text)  # ASCII digits only: int() would also read "３" or "٣"
        if value is None or value not in FLAGS:
            raise argparse.ArgumentTypeError(m("explain.bad_flag", lang, value=text))
        return value

    return flag_number


def register(subparsers: SubParsers[argparse.ArgumentParser], lang: str = "en") -> None:
    """Add ``explain``."""
    parser = subparsers.add_parser(
        "explain", help=m("explain.help", lang), description=m("explain.description", lang), prog=f"{PROG} explain"
    )
    parser.add_argument("file", metavar=m("metavar.file", lang), help=m("explain.file", lang))
    parser.add_argument("--flag", type=_flag_number(lang), metavar="N", help=m("explain.flag", lang))
    parser.add_argument("--side", choices=[s.value for s in Side], help=m("explain.side", lang))
    parser.set_defaults(func=run)
