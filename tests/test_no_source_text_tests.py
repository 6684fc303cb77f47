"""No Python test reads the board's front end as text: its behaviour is tested instead.

A test that asserts the order of substrings in ``board.js`` or runs a regex over ``board.css``
breaks on a refactor nobody can see and passes on a bug everybody can.  What the front end does
is tested by running it: ``node --test`` on a fake DOM (``tests/js/``, run by
``tests/test_board_js.py``) and Playwright in a real browser (``tests/browser/``).  This counts
the tests that read ``board.js``, ``board.css`` or ``keys.js`` (or a widget's ``_esm``/``_css``)
as text; there are none.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
FRONT_END = ("board" + ".js", "board" + ".css", "keys" + ".js")
#: reading one of the front end's files, or a widget's front end, as a string
SOURCE_READ = re.compile(
    r'"(?:' + "|".join(map(re.escape, FRONT_END)) + r')"\s*\)\s*\.read_(?:text|bytes)'
    r"|\._(?:esm|css)\b"
    r"|\bopen\([^)]*(?:" + "|".join(map(re.escape, FRONT_END)) + r")"
)


def source_text_reads() -> list[str]:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        if path.name == Path(__file__).name:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if SOURCE_READ.search(line):
                found.append(f"{path.relative_to(TESTS.parent)}:{n}: {line.strip()}")
    return found


def test_the_pattern_finds_a_source_text_read() -> None:
    assert SOURCE_READ.search('BOARD_JS = (BOARD / "board' + '.js").read_text()')
    assert SOURCE_READ.search('css = (BOARD / "board' + '.css").read_text()')
    assert SOURCE_READ.search("script = Board._" + "esm")
    assert not SOURCE_READ.search('script = (ROOT / "tools" / "site" / "lab-history.js").read_text()')


def test_no_test_reads_the_board_front_end_as_text() -> None:
    assert source_text_reads() == []
