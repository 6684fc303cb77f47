"""``python -m battleline_lab``: the ``battleline-lab`` command, for when its script is not on PATH."""

from __future__ import annotations

import sys

from .entry import main

if __name__ == "__main__":
    sys.exit(main())
