"""``./dev lab`` turns JupyterLab's news toast off with a settings override.

The toast ("get notified about official Jupyter news?") covered the first board of a lesson. The
lab target writes ``fetchNews: "false"`` (and no update check) into the ``overrides.json`` of the
.venv's JupyterLab, keeping what the file already says, and never touches the user's own settings.
This runs the very snippet the ``dev`` script runs, on a scratch file.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

DEV = Path(__file__).resolve().parents[1] / "dev"
KEY = "@jupyterlab/apputils-extension:notification"


def _snippet() -> str:
    found = re.search(r"<<'PY'\n(.*?)\nPY\n", DEV.read_text(encoding="utf-8"), re.DOTALL)
    assert found, "the lab target's settings snippet"
    return found.group(1)


def test_the_lab_target_writes_the_override_into_the_venv() -> None:
    text = DEV.read_text(encoding="utf-8")
    lab = text[text.index("    lab)") : text.index("    test)")]
    assert '"$VENV/share/jupyter/lab/settings/overrides.json"' in lab
    assert lab.index("overrides.json") < lab.index('exec "$VENV/bin/jupyter" lab')
    assert ".jupyter" not in lab, "the user's own settings are left alone"


def test_the_override_turns_the_news_off_and_keeps_what_was_there(tmp_path: Path) -> None:
    path = tmp_path / "share" / "overrides.json"
    subprocess.run([sys.executable, "-", str(path)], input=_snippet(), text=True, check=True)
    written = json.loads(path.read_text())
    assert written[KEY] == {"fetchNews": "false", "checkForUpdates": False}
    viewers = written["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]
    assert viewers == {"markdown": "Markdown Preview"}, "the rules page (notebooks/rules.md) opens rendered"
    path.write_text(json.dumps({"other": {"a": 1}, KEY: {"doNotDisturbMode": True}}))
    subprocess.run([sys.executable, "-", str(path)], input=_snippet(), text=True, check=True)
    again = json.loads(path.read_text())
    assert again["other"] == {"a": 1}
    assert again[KEY] == {"doNotDisturbMode": True, "fetchNews": "false", "checkForUpdates": False}
