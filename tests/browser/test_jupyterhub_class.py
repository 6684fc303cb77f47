"""A class on a real JupyterHub (docs/classroom.md): three learners solve, the teacher's report shows each.

The set-up installs what a school's hub runs, once, in a cache folder
(``$BATTLELINE_HUB_CACHE``, default ``~/.cache/battleline-lab-hub``): JupyterHub from PyPI in a
virtual environment of its own (with JupyterLab and ipywidgets, battleline_lab's ``lab`` extra)
and configurable-http-proxy from npm.  The test starts the hub on 127.0.0.1 with the dummy
authenticator and the simple local process spawner, the class folder named as
docs/classroom.md says (``c.Spawner.environment = {"BATTLELINE_CLASS_DIR": ...}``), and the
learners' servers import this checkout's battleline_lab (``PYTHONPATH``).  In Chromium each of
three accounts logs in, opens a notebook with one puzzle and answers it, one right, two wrong;
each data folder is named by its hub name and every row carries that name and the folder's own
id; then ``battleline-lab report CLASS_DIR`` shows the learners by their hub names.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import _free_port

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
UV = [sys.executable, "-m", "uv"]
PUZZLE = "seed-blue-seven-in-your-hand"  # the answer is "no": the blue 7 in your hand is no proof (R13)
NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "puzzle",
            "metadata": {},
            "outputs": [],
            "source": f'from battleline_lab.widgets import PuzzleWidget\nPuzzleWidget("{PUZZLE}")',
        }
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


#: The learners' gym notebook for the teacher's set (docs/classroom.md): one line, no path in it.
GYM_NOTEBOOK = dict(
    NOTEBOOK, cells=[dict(NOTEBOOK["cells"][0], source="from battleline_lab.widgets import PuzzleGym; PuzzleGym()")]
)
#: The teacher's own puzzle, in the shared folder named by BATTLELINE_PUZZLES.
TEACHERS_PUZZLE = (
    "id: teachers-own-wedge\ntitle: {en: Our class puzzle, zh: 我们班的题}\nlevel: 1\ntopics: [claim]\n"
    "flags: {5: {you: [r3, r4, r5], opponent: [b8]}, 2: {opponent: [g2, g3]}}\n"
    "question: {kind: claim, flag: 5}\nanswer: false\n"
)


def _cache() -> Path:
    named = os.environ.get("BATTLELINE_HUB_CACHE")
    return Path(named) if named else Path.home() / ".cache" / "battleline-lab-hub"


def _install(cache: Path) -> tuple[Path, Path]:
    """The hub's venv and configurable-http-proxy, installed in ``cache`` if missing."""
    venv, proxy = cache / "venv", cache / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"
    # installed again whenever the package's dependencies change (a new one would be missing otherwise)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:16]
    stamp = venv / f".installed-{digest}"
    if not stamp.exists():
        cache.mkdir(parents=True, exist_ok=True)
        if not (venv / "bin" / "python").exists():
            subprocess.run([*UV, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, timeout=600)
        subprocess.run(
            [
                *UV,
                "pip",
                "install",
                "--quiet",
                "--python",
                str(venv / "bin" / "python"),
                "jupyterhub>=5,<7",
                f"{ROOT}[lab]",
            ],
            check=True,
            timeout=1200,
        )
        for old_stamp in venv.glob(".installed-*"):
            old_stamp.unlink()
        stamp.touch()
    if not proxy.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("the JupyterHub test needs npm (apt-get install npm) for configurable-http-proxy")
        subprocess.run(
            [
                npm,
                "install",
                "--silent",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(cache / "chp"),
                "configurable-http-proxy@5",
            ],
            check=True,
            timeout=1200,
        )
    return venv, proxy


def _wait(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"JupyterHub exited ({proc.returncode}):\n{log.read_text(errors='replace')[-4000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"JupyterHub did not come up:\n{log.read_text(errors='replace')[-4000:]}")


class Hub:
    def __init__(self, url: str, class_dir: Path, homes: Path) -> None:
        self.url, self.class_dir, self.homes = url, class_dir, homes


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    venv, proxy = _install(_cache())
    root = tmp_path_factory.mktemp("hub")
    class_dir, homes = root / "class-7b", root / "home"
    for user in ("ann", "bo", "cy"):  # each learner's home: the notebook, and no news toast over the widget
        home = homes / user
        settings = home / ".jupyter" / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
        settings.mkdir(parents=True)
        (settings / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
        (home / "class.ipynb").write_text(json.dumps(NOTEBOOK), encoding="utf-8")
        (home / "gym.ipynb").write_text(json.dumps(GYM_NOTEBOOK), encoding="utf-8")
    class_puzzles = root / "class-7b-puzzles"
    class_puzzles.mkdir()
    (class_puzzles / "our-wedge.yaml").write_text(TEACHERS_PUZZLE, encoding="utf-8")
    port, hub_port, api_port = _free_port(), _free_port(), _free_port()
    config = root / "jupyterhub_config.py"
    config.write_text(
        "\n".join(
            [
                "c = get_config()  # noqa: F821",
                "c.JupyterHub.ip = '127.0.0.1'",
                f"c.JupyterHub.port = {port}",
                "c.JupyterHub.hub_ip = '127.0.0.1'",
                f"c.JupyterHub.hub_port = {hub_port}",
                f"c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:{api_port}'",
                f"c.ConfigurableHTTPProxy.command = [{str(proxy)!r}]",
                f"c.ConfigurableHTTPProxy.pid_file = {str(root / 'proxy.pid')!r}",
                "c.JupyterHub.authenticator_class = 'dummy'",
                "c.Authenticator.allow_all = True",
                "c.JupyterHub.spawner_class = 'simple'",
                f"c.SimpleLocalProcessSpawner.home_dir_template = {str(homes) + '/{username}'!r}",
                # the set-up of docs/classroom.md: the class folder, named for every learner's server
                f"c.Spawner.environment = {{'BATTLELINE_CLASS_DIR': {str(class_dir)!r},"
                f" 'BATTLELINE_PUZZLES': {str(class_puzzles)!r}}}",
                f"c.Spawner.cmd = [{str(venv / 'bin' / 'jupyterhub-singleuser')!r}]",
                "c.Spawner.default_url = '/lab'",
                "c.Spawner.args = ['--allow-root']",  # CI runs as root; a school's hub runs each learner as a user
                "c.Spawner.start_timeout = 180",
                "c.Spawner.http_timeout = 180",
                f"c.JupyterHub.db_url = 'sqlite:///{root / 'hub.sqlite'}'",
                f"c.JupyterHub.cookie_secret_file = {str(root / 'cookie_secret')!r}",
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BATTLELINE", "JUPYTER", "PYTEST", "VIRTUAL_ENV"))}
    env.update(PATH=str(venv / "bin") + os.pathsep + env.get("PATH", ""), PYTHONPATH=str(ROOT))
    log = root / "hub.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(venv / "bin" / "jupyterhub"), "-f", str(config)],
            cwd=root,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # the hub, its proxy and the learners' servers: one group to stop
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait(f"{url}/hub/login", proc, log)
        yield Hub(url, class_dir, homes)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # the hub stops the learners' servers and its proxy
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def _solve(chromium: Browser, hub: Hub, user: str, answer: str) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(f"{hub.url}/hub/login")
        page.fill("#username_input", user)
        page.fill("#password_input", "any")
        page.click("#login_submit")
        page.wait_for_url(f"**/user/{user}/lab**", timeout=180_000)
        page.goto(f"{hub.url}/user/{user}/lab/tree/class.ipynb?reset")
        page.locator(".jp-StatusBar-TextItem", has_text="Idle").first.wait_for(timeout=120_000)
        page.locator(".lm-MenuBar-item").get_by_text("Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        puzzle = page.locator(".bl-puzzle")
        expect(puzzle).to_be_visible(timeout=120_000)
        puzzle.locator(f".bl-answer-{answer}").click()
        if answer == "no":  # its proof: b7 in the hand could still come to them (the ghost, R12, R13)
            puzzle.locator('.blb-evidence [data-action="evidence"][data-card="b7"]').click()
        expect(puzzle.locator(".bl-feedback")).to_contain_text(
            "Right!" if answer == "no" else "Not quite.", timeout=30_000
        )
    finally:
        context.close()


def test_three_learners_on_a_hub_and_the_teachers_report_names_each_and_points_their_help(
    chromium: Browser, hub: Hub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from battleline_lab.cli import main
    from battleline_lab.training.progress import open_store_read_only
    from battleline_lab.training.stores.identity import read_identity

    _solve(chromium, hub, "ann", "no")  # right: the blue 7 in your hand is no proof (R13)
    _solve(chromium, hub, "bo", "yes")  # wrong
    _solve(chromium, hub, "cy", "yes")  # wrong
    ids = set()
    for user in ("ann", "bo", "cy"):  # each learner's progress is in the class folder, under the hub name
        assert (hub.class_dir / user / "progress.sqlite3").is_file(), sorted(hub.class_dir.rglob("*"))
        identity = read_identity(hub.class_dir / user)  # named by the hub, with an id of their own
        assert identity is not None and (identity.name, identity.account) == (user, user)
        rows = open_store_read_only(hub.class_dir / user).rows()
        assert rows and {(r.learner, r.learner_id) for r in rows} == {(user, identity.id)}  # every row says whose
        ids.add(identity.id)
    assert len(ids) == 3
    out = tmp_path / "class.html"
    assert main(["report", str(hub.class_dir), "--out", str(out)]) == 0
    assert "3 learners" in capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    learners = page[page.index('class="bl-report-class-learners') :]
    ann = learners[learners.index('<td class="bl-name">ann</td>') :]
    bo = learners[learners.index('<td class="bl-name">bo</td>') :]
    assert "100% (1 of 1)" in ann[: ann.index("</tr>")]
    assert "0% (0 of 1)" in bo[: bo.index("</tr>")] and "R13" in bo[: bo.index("</tr>")]
    # the same figures as data: each learner by hub name and id, help where they missed, no row lost
    assert main(["report", str(hub.class_dir), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    learners = {x["name"]: x for x in report["learners"]}
    assert sorted(learners) == ["ann", "bo", "cy"] and {x["id"] for x in learners.values()} == ids
    assert learners["ann"]["missed_rules"] == {} and learners["ann"]["first_try"] == 1
    for user in ("bo", "cy"):  # both answered "yes": each is pointed at the rule they missed
        assert learners[user]["missed_rules"] == {"R13": 1} and learners[user]["first_try"] == 0


def test_a_one_line_gym_on_a_hub_serves_the_teachers_set_from_BATTLELINE_PUZZLES(chromium: Browser, hub: Hub) -> None:
    """The hub names the teacher's shared folder; ``PuzzleGym()`` in a learner's notebook serves it."""
    context = chromium.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(f"{hub.url}/hub/login")
        page.fill("#username_input", "ann")
        page.fill("#password_input", "any")
        page.click("#login_submit")
        page.wait_for_url("**/user/ann/lab**", timeout=180_000)
        page.goto(f"{hub.url}/user/ann/lab/tree/gym.ipynb?reset")
        page.locator(".jp-StatusBar-TextItem", has_text="Idle").first.wait_for(timeout=120_000)
        page.locator(".lm-MenuBar-item").get_by_text("Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        gym = page.locator(".bl-gym")
        expect(gym).to_be_visible(timeout=120_000)
        expect(gym.locator(".bl-puzzle")).to_contain_text("Our class puzzle", timeout=30_000)
        expect(gym.locator(".bl-gym-errors")).to_have_text("")
    finally:
        context.close()
