"""``python -m battleline_lab.cli``: the ``battleline-lab`` command."""

from __future__ import annotations

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
