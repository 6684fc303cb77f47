"""nbval runs the lessons with a throw-away data folder, so a test never touches a learner's progress."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

# Set at import, before nbval starts the notebooks' kernels (they inherit the environment).
_DATA = tempfile.mkdtemp(prefix="battleline-nbval-")
os.environ["BATTLELINE_LAB_DATA"] = _DATA
atexit.register(shutil.rmtree, _DATA, True)
