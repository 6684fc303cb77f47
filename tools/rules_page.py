"""Write ``notebooks/rules.md``, the rules reference the lessons link to, from ``docs/rules.md``.

JupyterLab (``./dev lab``) and the site serve only ``notebooks/``, so a link from a lesson to
``../docs/rules.md`` gave 403/404.  This copies the reference beside the lessons and
gives every rule its own heading, ``### R11``, so that ``rules.md#R11`` opens the page at that
rule (JupyterLab gives a rendered heading the id of its text).  Links of ``docs/rules.md`` to other
docs pages become plain text (those pages are not served beside the lessons).
``tests/test_lesson_links.py`` fails when the page is out of date; ``./dev regen`` writes it
(``tools/regen.py``), or only it::

    ./dev regen rules-page
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "docs" / "rules.md"
PAGE = ROOT / "notebooks" / "rules.md"
RULE = re.compile(r"^- \*\*(R\d+)\*\* (.*)$")
HEADER = "<!-- made by tools/rules_page.py from docs/rules.md: edit that file, then run the tool -->\n\n"


def rules_page(text: str) -> str:
    """The page: each ``- **Rn** ...`` bullet (and its continuation lines) a ``### Rn`` section."""
    out: list[str] = []
    for line in text.splitlines():
        line = re.sub(r"\[([^\]]+)\]\((?!https?:)[^)]*\)", r"\1", line)  # a docs page is not served here
        found = RULE.match(line)
        if found:
            out += ["", f"### {found.group(1)}", "", found.group(2)]
        elif out and out[-1] and line.startswith("  ") and not line.lstrip().startswith("- "):
            out.append(line.strip())  # the rule's next line
        else:
            out.append(line)
    return HEADER + "\n".join(out).strip() + "\n"


def main() -> int:
    sys.stdout.write(rules_page(SOURCE.read_text(encoding="utf-8")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
