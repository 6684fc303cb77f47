"""No tracker issue number is written into the repository: a comment says the reason itself.

A reader of the code, the docs or a lesson cannot follow a number that points into a tracker they
may never see, so every tracked text file (code, tests, docs, benchmarks, tools, notebooks,
pyproject, the changelog) is read for one: the word issue (or ticket, PR) followed by a number,
and a bare hash sign before one or two digits (so colours such as ``#555`` stay allowed).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRACKER_NUMBER = re.compile(
    r"\b(?:issues?|tickets?|PRs?|pull requests?)[\s_-]*(?:no\.?\s*)?#?\d+"  # the word, then a number
    r"|(?<![\w&#/])#\d{1,2}(?![\w])",  # a hash sign and a number (a hex colour has three or six digits)
    re.IGNORECASE,
)


#: Machine-made data written into a file (a puzzle board's response table saved in a lesson: gzip in
#: base64, tens of kilobytes on one line), which no one reads and where a tracker's words occur by
#: chance (the letters p and R, then a digit): left out before a line is read.
PAYLOAD = re.compile(r"[A-Za-z0-9+/=]{200,}")


def _tracked() -> list[str]:
    """The files git tracks (a fresh clone, as CI has); outside a checkout, every file of the tree."""
    if (ROOT / ".git").exists():
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        return [name for name in out.stdout.decode().split("\0") if name]
    skip = {".git", ".venv", "_site", "build", "dist", "__pycache__"}
    return [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.parts)]


def test_no_tracker_number_in_a_tracked_file() -> None:
    found = []
    names = _tracked()
    assert len(names) > 100  # the listing worked
    for name in names:
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # binary files (pictures, fonts)
        for number, line in enumerate(text.splitlines(), 1):
            match = TRACKER_NUMBER.search(PAYLOAD.sub("", line))
            if match:
                found.append(f"{name}:{number}: {match.group()!r} in {line.strip()[:120]}")
    assert not found, f"{len(found)} tracker number(s); say the reason instead:\n" + "\n".join(found)


def test_the_pattern_finds_tracker_numbers_and_leaves_the_rest_alone() -> None:
    # the examples are put together here, so that this file holds no tracker number itself
    word, hash_sign, pr = "issue", "#", "PR"
    found = (f"({word} 23)", f"{word.title()} 3's budget", f"{word}s 9, 21", f"the {word}-23 target")
    for text in (*found, f"see {hash_sign}12.", f"{word.title()} {hash_sign}4", f"{pr} 7"):
        assert TRACKER_NUMBER.search(text), text
    for text in ("color: #555;", "#c9b98f", "R13: cards in hand", "an issue with 3 cards", "cell 12", "a#1", "&#38;"):
        assert not TRACKER_NUMBER.search(text), text
    # a saved base64 payload is left out; a tracker number beside it is still found
    payload = "H4sI" + "A" * 100 + f"+{pr.lower()}1" + "B" * 100
    assert TRACKER_NUMBER.search(payload) and not TRACKER_NUMBER.search(PAYLOAD.sub("", f'"table": "{payload}"'))
    assert TRACKER_NUMBER.search(PAYLOAD.sub("", f'"table": "{payload}", see {pr} 7'))
