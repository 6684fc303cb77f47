"""``battleline-lab show``: a puzzle as one standalone HTML page, for review without Jupyter.

The page holds the title, id, level and tags, the question, the board (SVG from
:mod:`battleline_lab.render.svg`), the author's answer next to the engine's, the full
explanation (every proof step, R12-R13; the comparison or the formation) and
the author's note.  It needs nothing else: the CSS is inline, there is no
script at all, and a Content-Security-Policy forbids loading anything.  Every
text an author wrote is escaped, so a title ``<img src=x onerror=alert(1)>``
shows as text.

>>> from battleline_lab.quiz.loader import load_puzzle_text
>>> page = preview_html(load_puzzle_text(
...     "title: <b>bold?</b>\\nflags: {5: {you: [r3, r4, r5], opponent: [b8]}}\\n"
...     "question: {kind: claim, flag: 5}\\nanswer: true\\n"))
>>> page.startswith("<!DOCTYPE html>"), "<b>bold" in page, "&lt;b&gt;bold?&lt;/b&gt;" in page
(True, False, True)
>>> "<script" in page, 'class="bl-board"' in page, 'class="bl-steps"' in page
(False, True, True)
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable

from ..core.claims import UndecidedTieError
from ..core.position import Position, Side
from ..quiz.puzzle import Puzzle
from ..render.svg import board_svg, escape
from ..text.messages import DEFAULT_LANGUAGE, message, render_msg, scoped

__all__ = ["preview_html", "question_board_svg"]


_CSS = """
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", Verdana, "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei",
  sans-serif; color: #222; background: #fafaf7; margin: 0; }
main { max-width: 660px; margin: 0 auto; padding: 20px 24px 32px; }
h1 { font-size: 1.5em; margin: 0 0 6px; overflow-wrap: anywhere; }
h2 { font-size: 1.05em; margin: 22px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 3px; }
.bl-meta { color: #555; margin: 0 0 8px; font-size: 0.9em; overflow-wrap: anywhere; }
.bl-tags { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 6px; }
.bl-tags li { background: #e8eef6; border: 1px solid #c9d6e8; border-radius: 10px; padding: 1px 9px;
  font-size: 0.85em; overflow-wrap: anywhere; }
.bl-level { display: inline-block; background: #222; color: #fff; border-radius: 4px; padding: 0 7px; }
.bl-question { font-size: 1.15em; font-weight: bold; }
.bl-board-wrap { overflow-x: auto; }
.bl-board-wrap svg { max-width: 100%; height: auto; }
.bl-answer { margin: 4px 0; }
.bl-ok { color: #1b6e2d; font-weight: bold; }
.bl-wrong { color: #b00020; font-weight: bold; }
.bl-analysis { border: 1px solid #ddd; background: #fff; border-radius: 6px; padding: 4px 14px; margin: 10px 0; }
.bl-analysis-sides { display: flex; flex-wrap: wrap; gap: 8px; }
.bl-steps li { margin: 3px 0; line-height: 1.35; }
.bl-lines li { margin: 3px 0; }
.bl-note { white-space: pre-line; background: #fff8e1; border-left: 4px solid #e6b800; padding: 8px 12px;
  overflow-wrap: anywhere; }
footer { color: #777; font-size: 0.8em; margin-top: 28px; overflow-wrap: anywhere; }
"""

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


_m = scoped("authoring.preview")


def _who(side: Side, lang: str) -> str:
    return message(f"side.{side.value}", lang)


def _answer_text(puzzle: Puzzle, value: object, lang: str) -> str:
    """An answer as a learner reads it: yes/no, a list of flags, a formation kind, a or b (the question says)."""
    question = puzzle.question
    if question is None:
        return value if isinstance(value, str) else json.dumps(value)
    return question.answer_text(value, lang)


def _question_html(puzzle: Puzzle, lang: str) -> list[str]:
    question = puzzle.question
    if question is None:
        return [f'<p class="bl-question">{escape(_m("question.none", lang))}</p>']
    text = render_msg(question.prompt(puzzle.position, sheet=True), lang)
    return [f'<p class="bl-question">{escape(text)}</p>', *question.sheet_html(puzzle.position, lang)]


def question_board_svg(position: Position, *, focus: Iterable[int] = (), lang: str = DEFAULT_LANGUAGE) -> str:
    """The board for a question page: the same drawing, but the hand labelled plainly.

    The interactive board labels your hand "Your hand (not evidence: R13)", a hint that
    gives every hand-trap puzzle away on paper; a question page says "Your hand".
    """
    svg = board_svg(position, focus=focus, lang=lang)
    return svg.replace(escape(message("board.hand.you", lang)), escape(message("class.sheet.hand.you", lang)))


def same_question(title: str, question: str) -> bool:
    """Does the title already ask the question (so the page states it once)?

    >>> same_question("Which flags can you claim?", "Which flags can you claim now?")
    True
    >>> same_question("The blue eight", "Can you claim flag 5?")
    False
    """
    words = [re.sub(r"[\W_]+", " ", t).lower().split() for t in (title, question)]
    if not words[0] or not words[1]:
        return False
    return words[0] == words[1] or (len(words[0]) >= 3 and words[1][: len(words[0])] == words[0])


def question_once(title: str, parts: list[str]) -> list[str]:
    """The question's HTML without its sentence when the title already asks it (each question once)."""
    if parts and parts[0].startswith('<p class="bl-question">'):
        text = html.unescape(re.sub(r"<[^>]+>", "", parts[0]))
        if same_question(title, text):
            return parts[1:]
    return parts


def _focus(puzzle: Puzzle) -> list[int]:
    question = puzzle.question
    return list(question.focus(puzzle.position)) if question is not None else []


def _explanation_html(puzzle: Puzzle, lang: str) -> list[str]:
    question = puzzle.question
    if question is None:
        return []
    return question.proof_html(puzzle.position, lang)


def _answer_html(puzzle: Puzzle, lang: str) -> list[str]:
    question = puzzle.question
    if question is None:
        return []
    has_answer = "answer" in puzzle.marks or puzzle.answer is not None
    try:
        expected = question.solve(puzzle.position)
    except (UndecidedTieError, ValueError) as err:
        return [f'<p class="bl-answer bl-wrong">{escape(_m("unsolvable", lang, reason=str(err)))}</p>']
    engine = _answer_text(puzzle, expected, lang)
    out = []
    if not has_answer:
        out.append(f'<p class="bl-answer bl-wrong">{escape(_m("no_answer", lang))}</p>')
    else:
        given = _answer_text(puzzle, puzzle.answer, lang)
        out.append(f'<p class="bl-answer">{escape(_m("author", lang, answer=given))}</p>')
    right = has_answer and question.is_correct(puzzle.position, puzzle.answer)
    css, key = ("bl-ok", "engine_agrees") if right else ("bl-wrong", "engine_differs")
    out.append(f'<p class="bl-answer {css}">{escape(_m(key, lang, answer=engine))}</p>')
    return out


def preview_html(
    puzzle: Puzzle, lang: str = DEFAULT_LANGUAGE, *, source: str | None = None, question_only: bool = False
) -> str:
    """The puzzle as a complete HTML document (UTF-8, inline CSS, no script, nothing external).

    ``question_only``: the board and the question only, for projecting or printing an
    unsolved puzzle: no answer, no explanation, no note and no tags (a tag such as
    ``counterexample`` would give the answer away).
    """
    title = puzzle.title_text(lang)
    meta = [_m("id", lang, id=puzzle.id)]
    level = f'<span class="bl-level">{escape(_m("level", lang, level=puzzle.level))}</span> ' if puzzle.level else ""
    source = source if source is not None else puzzle.source
    if source and not question_only:  # a printed or projected question shows no file path
        meta.append(_m("source", lang, file=source))
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{escape(lang)}">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(_m('page_title', lang, title=title))}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        "<main>",
        "<header>",
        f'<h1 class="bl-title">{escape(title)}</h1>',
        f'<p class="bl-meta">{level}{escape(" · ".join(meta))}</p>',
    ]
    if puzzle.tags and not question_only:
        parts.append('<ul class="bl-tags">' + "".join(f"<li>{escape(t)}</li>" for t in puzzle.tags) + "</ul>")
    parts.append("</header>")
    asked = _question_html(puzzle, lang)
    if question_only:
        asked = question_once(title, asked)
    parts += [f"<h2>{escape(_m('heading.question', lang))}</h2>", *asked]
    position = puzzle.position
    if any(not s.is_empty for s in position.flags) or position.discards_you or position.discards_opponent:
        parts += [
            f"<h2>{escape(_m('heading.board', lang))}</h2>",
            f"<p>{escape(_m('turn', lang, who=_who(position.turn, lang)))}</p>",
            '<div class="bl-board-wrap">',
            question_board_svg(position, focus=_focus(puzzle), lang=lang)
            if question_only
            else board_svg(position, focus=_focus(puzzle), lang=lang),
            "</div>",
        ]
    if question_only:
        parts += [f"<footer>{escape(_m('footer', lang))}</footer>", "</main>", "</body>", "</html>"]
        return "\n".join(parts) + "\n"
    if puzzle.question is not None:
        parts += [f"<h2>{escape(_m('heading.answer', lang))}</h2>", *_answer_html(puzzle, lang)]
        parts += [f"<h2>{escape(_m('heading.explanation', lang))}</h2>", *_explanation_html(puzzle, lang)]
    note = puzzle.note_text(lang)
    if note:
        parts += [f"<h2>{escape(_m('heading.note', lang))}</h2>", f'<p class="bl-note">{escape(note)}</p>']
    parts += [f"<footer>{escape(_m('footer', lang))}</footer>", "</main>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"
